package dev.parley.engine.generate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.parley.engine.SharedFixtures;
import dev.parley.engine.backend.BackendKind;
import dev.parley.engine.model.LlamaModel;
import dev.parley.engine.model.ModelOptions;
import dev.parley.engine.sampling.Sampler;
import dev.parley.engine.tokenizer.Tokenizer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** The generation loop on the real parity model m1, against llama.cpp's greedy goldens. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GeneratorTest {
    private LlamaModel model;
    private Tokenizer tokenizer;
    private JsonNode golden;

    @BeforeAll
    void load() throws IOException {
        Path file = SharedFixtures.require("parity/m1-llama-spm-q8_0.gguf");
        Path goldenFile = SharedFixtures.require("parity/goldens/m1-llama-spm-q8_0.golden.json");
        golden = new ObjectMapper().readTree(goldenFile.toFile());
        model = LlamaModel.load(file, new ModelOptions(BackendKind.VECTOR, 1));
        tokenizer = Tokenizer.fromGguf(model.gguf());
    }

    @AfterAll
    void close() {
        if (model != null) {
            model.close();
        }
    }

    private static int[] ints(JsonNode array) {
        return IntStream.range(0, array.size()).map(i -> array.get(i).asInt()).toArray();
    }

    private JsonNode goldenCase(String name) {
        for (JsonNode c : golden.get("cases")) {
            if (c.get("name").asText().equals(name)) {
                return c;
            }
        }
        throw new AssertionError("no golden case " + name);
    }

    private CachedSession session(int context) {
        return new CachedSession(model.newSession(context));
    }

    /** Runs a generation and checks the event stream's invariants; returns the result. */
    private GenerationResult run(CachedSession s, GenerationRequest request, Sampler sampler, CancellationToken cancel,
                                 List<TokenEvent> events) {
        GenerationResult result = new Generator(tokenizer).generate(s, request, sampler, cancel, events::add);
        TokenEvent last = events.getLast();
        TokenEvent.Done done = assertInstanceOf(TokenEvent.Done.class, last);
        assertEquals(result.reason(), done.reason());
        StringBuilder text = new StringBuilder();
        int tokenEvents = 0;
        for (TokenEvent e : events.subList(0, events.size() - 1)) {
            switch (e) {
                case TokenEvent.Token t -> {
                    text.append(t.text());
                    assertEquals(result.tokens()[tokenEvents++], t.id());
                }
                case TokenEvent.Text t -> text.append(t.text());
                case TokenEvent.Done d -> throw new AssertionError("Done before the end");
            }
        }
        assertEquals(result.tokens().length, tokenEvents);
        assertEquals(result.text(), text.toString());
        assertEquals(result.tokens().length, result.stats().generatedTokens());
        return result;
    }

    @Test
    void greedyIdsEqualLlamaCppGoldensForEveryCase() {
        for (JsonNode c : golden.get("cases")) {
            int[] prompt = ints(c.get("prompt_ids"));
            assertArrayEquals(prompt, tokenizer.encode(c.get("text").asText(), true, false), c.get("name").asText());
            int[] expected = ints(c.get("generated_ids"));
            try (CachedSession s = session(512)) {
                GenerationResult r = run(s, new GenerationRequest(prompt, expected.length, List.of()),
                        Sampler.greedy(), new CancellationToken(), new ArrayList<>());
                assertArrayEquals(expected, r.tokens(), "case " + c.get("name").asText());
                assertEquals(StopReason.MAX_TOKENS, r.reason());
                assertEquals(prompt.length + expected.length - 1, s.position(), "the last token is not fed");
                assertEquals(prompt.length, r.stats().promptTokens());
            }
        }
    }

    @Test
    void tokenLimitStopsAfterExactlyNTokens() {
        int[] prompt = ints(goldenCase("short").get("prompt_ids"));
        try (CachedSession s = session(512)) {
            GenerationResult r = run(s, new GenerationRequest(prompt, 5, List.of()), Sampler.greedy(),
                    new CancellationToken(), new ArrayList<>());
            assertEquals(5, r.tokens().length);
            assertEquals(StopReason.MAX_TOKENS, r.reason());
            GenerationResult none = run(s, new GenerationRequest(prompt, 0, List.of()), Sampler.greedy(),
                    new CancellationToken(), new ArrayList<>());
            assertEquals(0, none.tokens().length);
            assertEquals(StopReason.MAX_TOKENS, none.reason());
        }
    }

    @Test
    void cancellationIsCheckedBeforeEveryStep() {
        int[] prompt = ints(goldenCase("long").get("prompt_ids"));
        CancellationToken cancel = new CancellationToken();
        List<TokenEvent> events = new ArrayList<>();
        int[] seen = {0};
        try (CachedSession s = session(512)) {
            GenerationResult r = new Generator(tokenizer).generate(s, new GenerationRequest(prompt, 32, List.of()),
                    Sampler.greedy(), cancel, e -> {
                        events.add(e);
                        if (e instanceof TokenEvent.Token && ++seen[0] == 3) {
                            cancel.cancel();
                        }
                    });
            assertEquals(StopReason.CANCELLED, r.reason());
            assertArrayEquals(java.util.Arrays.copyOf(ints(goldenCase("long").get("generated_ids")), 3), r.tokens());
            assertInstanceOf(TokenEvent.Done.class, events.getLast());
            GenerationResult before = new Generator(tokenizer).generate(s, new GenerationRequest(prompt, 32, List.of()),
                    Sampler.greedy(), cancel, e -> { });
            assertEquals(StopReason.CANCELLED, before.reason());
            assertEquals(0, before.tokens().length);
        }
    }

    @Test
    void aStopStringEndsTheTextJustBeforeIt() {
        int[] prompt = ints(goldenCase("short").get("prompt_ids"));
        String full;
        try (CachedSession s = session(512)) {
            full = run(s, new GenerationRequest(prompt, 32, List.of()), Sampler.greedy(), new CancellationToken(),
                    new ArrayList<>()).text();
        }
        assertTrue(full.length() > 20, full);
        String stop = full.substring(full.length() / 2, full.length() / 2 + 3);
        String expected = full.substring(0, full.indexOf(stop));
        try (CachedSession s = session(512)) {
            GenerationResult r = run(s, new GenerationRequest(prompt, 32, List.of(stop)), Sampler.greedy(),
                    new CancellationToken(), new ArrayList<>());
            assertEquals(StopReason.STOP_STRING, r.reason());
            assertEquals(expected, r.text());
            assertTrue(r.tokens().length < 32);
        }
    }

    @Test
    void anEndOfGenerationTokenStopsAndIsNotPartOfTheOutput() {
        int[] prompt = ints(goldenCase("short").get("prompt_ids"));
        int eos = tokenizer.vocabulary().eos();
        int[] step = {0};
        Sampler twoThenEos = logits -> step[0]++ < 2 ? Sampler.greedy().sample(logits) : eos;
        try (CachedSession s = session(512)) {
            GenerationResult r = run(s, new GenerationRequest(prompt, 32, List.of()), twoThenEos,
                    new CancellationToken(), new ArrayList<>());
            assertEquals(StopReason.EOS, r.reason());
            assertArrayEquals(java.util.Arrays.copyOf(ints(goldenCase("short").get("generated_ids")), 2), r.tokens());
        }
    }

    @Test
    void aFullContextStopsTheGeneration() {
        int[] prompt = ints(goldenCase("short").get("prompt_ids"));
        try (CachedSession s = session(prompt.length + 3)) {
            GenerationResult r = run(s, new GenerationRequest(prompt, 32, List.of()), Sampler.greedy(),
                    new CancellationToken(), new ArrayList<>());
            assertEquals(StopReason.CONTEXT_FULL, r.reason());
            assertEquals(4, r.tokens().length, "3 fed + 1 sampled that no longer fits");
        }
        try (CachedSession s = session(prompt.length - 1)) {
            GenerationResult r = run(s, new GenerationRequest(prompt, 32, List.of()), Sampler.greedy(),
                    new CancellationToken(), new ArrayList<>());
            assertEquals(StopReason.CONTEXT_FULL, r.reason());
            assertEquals(0, r.tokens().length);
        }
    }

    @Test
    void aSecondTurnReusesTheCacheAndMatchesTheBatchGolden() {
        JsonNode turn1 = golden.get("batch").get("turn1");
        JsonNode turn2 = golden.get("batch").get("turn2");
        int[] prompt1 = ints(turn1.get("prompt_ids"));
        int[] generated1 = ints(turn1.get("generated_ids"));
        int[] prompt2 = ints(turn2.get("prompt2_ids"));
        try (CachedSession s = session(512)) {
            GenerationResult first = run(s, new GenerationRequest(prompt1, generated1.length, List.of()),
                    Sampler.greedy(), new CancellationToken(), new ArrayList<>());
            assertArrayEquals(generated1, first.tokens());
            int[] whole = IntStream.concat(IntStream.concat(IntStream.of(prompt1), IntStream.of(generated1)),
                    IntStream.of(prompt2)).toArray();
            int[] expected2 = ints(turn2.get("generated_ids"));
            GenerationResult second = run(s, new GenerationRequest(whole, expected2.length, List.of()),
                    Sampler.greedy(), new CancellationToken(), new ArrayList<>());
            assertEquals(turn2.get("first_fed_pos").asInt(), second.reusedTokens());
            assertEquals(ints(turn2.get("fed_ids")).length, second.stats().promptTokens());
            assertArrayEquals(expected2, second.tokens());
        }
    }
}
