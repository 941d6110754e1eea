package dev.parley.app.cli.bench;

import dev.parley.engine.batch.BatchHandle;
import dev.parley.engine.batch.BatchRequest;
import dev.parley.engine.batch.Batcher;
import dev.parley.engine.batch.BatcherMetrics;
import dev.parley.engine.batch.BatcherOptions;
import dev.parley.engine.generate.GenerationResult;
import dev.parley.engine.generate.StopReason;
import dev.parley.engine.generate.TokenEvent;
import dev.parley.engine.model.KvCache;
import dev.parley.engine.model.LlamaModel;
import dev.parley.engine.sampling.SamplingSettings;
import dev.parley.engine.tokenizer.ChatMessage;
import dev.parley.engine.tokenizer.ChatTemplate;
import dev.parley.engine.tokenizer.Role;
import dev.parley.engine.tokenizer.Tokenizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * A long run of typed chat turns through the {@link Batcher}: {@code conversations} chats take turns
 * concurrently (each turn's prompt is the chat's whole history, so the batcher's conversation caches
 * are used), a random share of replies is cancelled after a random number of tokens, and a chat that
 * fills half the context starts over. After every {@code sampleEvery} turns it samples the process
 * ({@link ProcessLevels}) and the batcher's KV pool; the run is flat when, from the first sample to
 * the last, heap and memory outside the heap grew less than the bounds, and threads, file handles and
 * the KV blocks held outside the caches (sampled between rounds, when nothing runs) did not pile up.
 */
final class SoakRun {

    /**
     * @param turns         turns in all
     * @param conversations chats taking turns concurrently (the batch size)
     * @param cancelShare   share of replies cancelled mid-way, 0-1
     * @param maxTokens     most tokens per reply
     * @param context       context of each chat (and of the batcher)
     * @param sampleEvery   turns between samples
     * @param seed          seed of the choices and of sampling
     */
    record Options(int turns, int conversations, double cancelShare, int maxTokens, int context, int sampleEvery,
                   long seed) {
        Options {
            if (turns < 1 || conversations < 1 || maxTokens < 1 || context < 16 || sampleEvery < 1) {
                throw new IllegalArgumentException("expected positive turns, conversations, max tokens and sample "
                        + "interval and a context of at least 16, found " + this);
            }
            if (!(cancelShare >= 0 && cancelShare <= 1)) {
                throw new IllegalArgumentException("expected a cancelled share in [0, 1] but found " + cancelShare);
            }
        }
    }

    /** One sample: after {@code turns} turns. */
    record Sample(int turns, ProcessLevels levels, int kvBlocksUsed, int kvBlocksCached, long completed,
                  long cancelled) {
    }

    /** Growth allowed from the first sample to the last: heap and off-heap resident memory. */
    static final long HEAP_BOUND = 32L << 20;
    static final long OFF_HEAP_BOUND = 64L << 20;

    /** The samples and the verdict. */
    record Report(List<Sample> samples, long completed, long cancelled, List<String> problems) {
        boolean flat() {
            return problems.isEmpty();
        }
    }

    private final LlamaModel model;
    private final Tokenizer tokenizer;
    private final ChatTemplate template;
    private final Options options;

    SoakRun(LlamaModel model, Tokenizer tokenizer, ChatTemplate template, Options options) {
        this.model = model;
        this.tokenizer = tokenizer;
        this.template = template;
        this.options = options;
    }

    /** Runs the soak; {@code progress} receives each sample as it is taken. */
    Report run(Consumer<Sample> progress) throws Exception {
        int ctx = Math.min(options.context(), model.config().contextLength());
        long kvBytes = KvCache.bytesFor(model.config(), ctx, model.options().kv()) * (options.conversations() + 1);
        Random random = new Random(options.seed());
        List<List<ChatMessage>> chats = new ArrayList<>();
        for (int c = 0; c < options.conversations(); c++) {
            chats.add(new ArrayList<>(List.of(ChatMessage.system("You are a soak test. Answer briefly."))));
        }
        List<Sample> samples = new ArrayList<>();
        long completed = 0;
        long cancelled = 0;
        try (Batcher batcher = new Batcher(model, tokenizer,
                BatcherOptions.of(options.conversations(), 64, kvBytes, ctx))) {
            samples.add(sample(0, batcher, progress));
            int turn = 0;
            while (turn < options.turns()) {
                int round = Math.min(options.conversations(), options.turns() - turn);
                List<BatchHandle> handles = new ArrayList<>();
                for (int c = 0; c < round; c++) {
                    List<ChatMessage> chat = chats.get(c);
                    chat.add(ChatMessage.user("Turn " + (turn + c) + ": tell me something about the number "
                            + random.nextInt(1000) + "."));
                    int[] prompt = template.encodePrompt(tokenizer, chat, true);
                    if (prompt.length + options.maxTokens() > ctx / 2) {
                        ChatMessage question = chat.getLast();
                        chat.subList(1, chat.size()).clear(); // start over: the system message and the question
                        chat.add(question);
                        prompt = template.encodePrompt(tokenizer, chat, true);
                    }
                    int cancelAfter = random.nextDouble() < options.cancelShare()
                            ? 1 + random.nextInt(options.maxTokens()) : -1;
                    handles.add(submit(batcher, "soak-" + c, prompt, random.nextLong(), cancelAfter));
                }
                for (int c = 0; c < round; c++) {
                    GenerationResult r = handles.get(c).result().get(5, TimeUnit.MINUTES);
                    chats.get(c).add(new ChatMessage(Role.ASSISTANT, r.text().strip()));
                    if (r.reason() == StopReason.CANCELLED) {
                        cancelled++;
                    } else {
                        completed++;
                    }
                    turn++;
                }
                // Sampled between rounds, when no sequence runs: after the round that reached the next multiple.
                if (turn / options.sampleEvery() > samples.getLast().turns() / options.sampleEvery()
                        || turn == options.turns()) {
                    samples.add(sample(turn, batcher, progress, completed, cancelled));
                }
            }
        }
        return new Report(List.copyOf(samples), completed, cancelled, problems(samples, options.conversations()));
    }

    private BatchHandle submit(Batcher batcher, String chat, int[] prompt, long seed, int cancelAfter) {
        SamplingSettings sampling = SamplingSettings.chatDefaults(seed);
        AtomicReference<BatchHandle> self = new AtomicReference<>();
        AtomicInteger tokens = new AtomicInteger();
        Consumer<TokenEvent> listener = e -> {
            if (e instanceof TokenEvent.Token && tokens.incrementAndGet() == cancelAfter) {
                BatchHandle h = self.get();
                if (h != null) {
                    h.cancel(); // a user pressing stop (or barging in) mid-reply
                }
            }
        };
        BatchHandle h = batcher.submit(new BatchRequest(chat, prompt, sampling, options.maxTokens(), List.of()), listener);
        self.set(h);
        if (cancelAfter > 0 && tokens.get() >= cancelAfter) {
            h.cancel(); // the tokens came before the handle was known
        }
        return h;
    }

    private static Sample sample(int turns, Batcher batcher, Consumer<Sample> progress) {
        return sample(turns, batcher, progress, 0, 0);
    }

    private static Sample sample(int turns, Batcher batcher, Consumer<Sample> progress, long completed,
                                 long cancelled) {
        BatcherMetrics m = batcher.metrics();
        Sample s = new Sample(turns, ProcessLevels.sample(), m.kvBlocksUsed(), m.kvBlocksCached(), completed,
                cancelled);
        progress.accept(s);
        return s;
    }

    /**
     * What is not flat. The first sample after the first interval is the reference: the run's first
     * turns load classes, compile code and fill the allocator's pools, which is not growth.
     */
    static List<String> problems(List<Sample> samples, int conversations) {
        List<String> out = new ArrayList<>();
        if (samples.size() < 3) {
            return out;
        }
        Sample first = samples.get(1);
        Sample last = samples.getLast();
        ProcessLevels a = first.levels();
        ProcessLevels b = last.levels();
        if (b.heapUsedBytes() - a.heapUsedBytes() > HEAP_BOUND) {
            out.add("heap in use grew " + mib(b.heapUsedBytes() - a.heapUsedBytes()) + " MiB from turn " + first.turns()
                    + " to turn " + last.turns() + " (bound " + mib(HEAP_BOUND) + ")");
        }
        if (a.offHeapBytes() >= 0 && b.offHeapBytes() - a.offHeapBytes() > OFF_HEAP_BOUND) {
            out.add("memory outside the heap grew " + mib(b.offHeapBytes() - a.offHeapBytes()) + " MiB (bound "
                    + mib(OFF_HEAP_BOUND) + ")");
        }
        if (b.threads() > a.threads()) {
            out.add("threads grew from " + a.threads() + " to " + b.threads());
        }
        if (b.fileHandles() > a.fileHandles()) {
            out.add("file handles grew from " + a.fileHandles() + " to " + b.fileHandles());
        }
        // Between rounds no sequence runs: every block is free or cached; a leak would show as used blocks.
        for (Sample s : samples) {
            if (s.kvBlocksUsed() > 0) {
                out.add("after turn " + s.turns() + ", " + s.kvBlocksUsed() + " KV blocks were held with no "
                        + "sequence running");
            }
        }
        return out;
    }

    static long mib(long bytes) {
        return bytes >> 20;
    }
}
