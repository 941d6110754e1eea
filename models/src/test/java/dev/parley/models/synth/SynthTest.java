package dev.parley.models.synth;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.engine.gguf.GgmlType;
import dev.parley.engine.gguf.GgufFile;
import dev.parley.engine.gguf.GgufMetadataValue;
import dev.parley.engine.gguf.GgufTensorInfo;
import dev.parley.engine.SharedFixtures;
import dev.parley.models.gguf.TensorEncoder;
import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SynthTest {

    @TempDir
    Path dir;

    @ParameterizedTest
    @CsvSource({"llama,F32", "llama,F16", "llama,BF16", "llama,Q8_0", "llama,Q4_0",
            "qwen2,F32", "qwen2,F16", "qwen2,BF16", "qwen2,Q8_0", "qwen2,Q4_0"})
    void tinyModelHasLlamaCppTensorsAndKeys(String arch, GgmlType type) throws IOException {
        ModelShape shape = ModelShape.builtIn("tiny");
        Path out = dir.resolve(arch + "-" + type + ".gguf");
        List<Double> progress = new ArrayList<>();
        Synth.Result r = new Synth(2).write(new SynthSpec(arch, shape, type, null, 7, progress::add), out);
        assertEquals(1.0, progress.getLast());
        for (int i = 1; i < progress.size(); i++) {
            assertTrue(progress.get(i) >= progress.get(i - 1), "progress never goes back");
        }
        try (GgufFile f = GgufFile.open(out)) {
            int vocab = r.vocabSize();
            assertEquals(f.getStrings("tokenizer.ggml.tokens").length, vocab);
            assertEquals(arch, f.getString("general.architecture"));
            assertEquals("parley-synth tiny (random weights)", f.getString("general.name"));
            assertTrue(f.getBoolean("parley.synth", false));
            assertEquals(64, f.getInt(arch + ".embedding_length"));
            assertEquals(2, f.getInt(arch + ".block_count"));
            assertEquals(128, f.getInt(arch + ".feed_forward_length"));
            assertEquals(4, f.getInt(arch + ".attention.head_count"));
            assertEquals(2, f.getInt(arch + ".attention.head_count_kv"));
            assertEquals(2048, f.getInt(arch + ".context_length"));
            assertEquals(10000.0, f.getDouble(arch + ".rope.freq_base"), 1e-3);
            assertEquals(1e-5, f.getDouble(arch + ".attention.layer_norm_rms_epsilon"), 1e-9);
            int expectedFileType = switch (type) { case F32 -> 0; case F16 -> 1; case Q4_0 -> 2; case Q8_0 -> 7; default -> 32; };
            assertEquals(expectedFileType, f.getInt("general.file_type"));

            List<String> names = f.tensors().stream().map(GgufTensorInfo::name).toList();
            int perLayer = arch.equals("qwen2") ? 12 : 9;
            assertEquals(1 + 2 * perLayer + 2, names.size(), names.toString()); // untied: output.weight present
            assertEquals(r.tensorCount(), names.size());
            expect(f, "token_embd.weight", type, 64, vocab);
            expect(f, "output.weight", type, 64, vocab);
            expect(f, "output_norm.weight", GgmlType.F32, 64);
            for (int l = 0; l < 2; l++) {
                String p = "blk." + l + ".";
                expect(f, p + "attn_norm.weight", GgmlType.F32, 64);
                expect(f, p + "attn_q.weight", type, 64, 64);
                expect(f, p + "attn_k.weight", type, 64, 32);
                expect(f, p + "attn_v.weight", type, 64, 32);
                expect(f, p + "attn_output.weight", type, 64, 64);
                expect(f, p + "ffn_norm.weight", GgmlType.F32, 64);
                expect(f, p + "ffn_gate.weight", type, 64, 128);
                expect(f, p + "ffn_up.weight", type, 64, 128);
                expect(f, p + "ffn_down.weight", type, 128, 64);
                assertEquals(arch.equals("qwen2"), f.findTensor(p + "attn_q.bias").isPresent());
                if (arch.equals("qwen2")) {
                    expect(f, p + "attn_q.bias", GgmlType.F32, 64);
                    expect(f, p + "attn_k.bias", GgmlType.F32, 32);
                    expect(f, p + "attn_v.bias", GgmlType.F32, 32);
                }
            }
            // Values are finite, varied and of the intended scale.
            float[] q = values(f, "blk.0.attn_q.weight");
            double sum2 = 0;
            for (float v : q) {
                assertTrue(Float.isFinite(v));
                sum2 += v * v;
            }
            double rms = Math.sqrt(sum2 / q.length);
            assertTrue(rms > 0.08 && rms < 0.17, "attn_q rms " + rms + " (intended 1/sqrt(64) = 0.125)");
            float[] norm = values(f, "blk.1.ffn_norm.weight");
            double mean = 0;
            for (float v : norm) {
                mean += v / norm.length;
            }
            assertTrue(Math.abs(mean - 1) < 0.1, "norm weights average about 1 but found " + mean);
        }
    }

    @Test
    void sameSeedSameBytesWhateverTheThreadCountAndAnotherSeedDiffers() throws IOException {
        SynthSpec spec = SynthSpec.of(ModelShape.parse("tiny:tied=true"), GgmlType.Q8_0, 11);
        Path a = new Synth(1).write(spec, dir.resolve("a.gguf")).path();
        Path b = new Synth(3).write(spec, dir.resolve("b.gguf")).path();
        assertArrayEquals(Files.readAllBytes(a), Files.readAllBytes(b));
        Path c = new Synth(2).write(SynthSpec.of(ModelShape.parse("tiny:tied=true"), GgmlType.Q8_0, 12), dir.resolve("c.gguf")).path();
        assertFalse(java.util.Arrays.equals(Files.readAllBytes(a), Files.readAllBytes(c)));
        try (GgufFile f = GgufFile.open(a)) {
            assertTrue(f.findTensor("output.weight").isEmpty(), "tied: no output.weight");
            assertEquals(1 + 2 * 9 + 1, f.tensors().size());
        }
    }

    @Test
    void copiesEveryTokenizerKeyOfAVocabularyFile() throws IOException {
        Path vocabFile = SharedFixtures.require("tokenizer/ggml-vocab-gpt-2.gguf");
        Path out = dir.resolve("gpt2vocab.gguf");
        Synth.Result r = new Synth(2).write(new SynthSpec("llama", ModelShape.builtIn("tiny"), GgmlType.Q8_0, vocabFile, 1, null), out);
        try (GgufFile v = GgufFile.open(vocabFile); GgufFile f = GgufFile.open(out)) {
            int copied = 0;
            for (Map.Entry<String, GgufMetadataValue> e : v.metadata().entrySet()) {
                if (e.getKey().startsWith("tokenizer.")) {
                    assertEquals(e.getValue(), f.get(e.getKey()), e.getKey());
                    copied++;
                }
            }
            assertTrue(copied >= 5, "the gpt-2 vocab has several tokenizer keys, found " + copied);
            int n = v.getStrings("tokenizer.ggml.tokens").length;
            assertEquals(50257, n);
            assertEquals(n, r.vocabSize());
            assertEquals(n, f.tensor("token_embd.weight").dim(1));
            assertEquals(n, f.getInt("llama.vocab_size"));
        }
    }

    @Test
    void builtInVocabularyIsAUsableByteLevelBpe() {
        SynthVocab v = SynthVocab.build(0);
        String[] tokens = v.tokens();
        assertEquals(tokens.length, java.util.Set.of(tokens).size(), "tokens are unique");
        assertEquals("Ġ", tokens[' ']);
        assertEquals("a", tokens['a']);
        assertEquals(SynthVocab.END_OF_TEXT, tokens[v.endOfTextId()]);
        assertEquals(SynthVocab.IM_START, tokens[v.imStartId()]);
        assertEquals(SynthVocab.IM_END, tokens[v.imEndId()]);
        java.util.Set<String> known = java.util.Set.of(tokens);
        String[] merges = v.merges();
        assertTrue(merges.length > 300, "the word list yields a few hundred merges, found " + merges.length);
        assertTrue(known.contains("Ġthe"), "a common word became one token");
        for (String m : merges) {
            String[] parts = m.split(" ");
            assertEquals(2, parts.length, m);
            assertTrue(known.contains(parts[0]) && known.contains(parts[1]) && known.contains(parts[0] + parts[1]), m);
        }
        Map<String, GgufMetadataValue> meta = v.metadata();
        assertEquals("gpt2", meta.get("tokenizer.ggml.model").value());
        assertTrue(((String) meta.get("tokenizer.chat_template").value()).contains("<|im_start|>assistant"));

        SynthVocab big = SynthVocab.build(151936); // Qwen2.5's size: mostly filler words
        assertEquals(151936, big.size());
        String[] bigTokens = big.tokens();
        assertEquals(bigTokens.length, java.util.Set.of(bigTokens).size(), "filler tokens are unique");
        int[] types = (int[]) big.metadata().get("tokenizer.ggml.token_type").value();
        for (int i = 0; i < bigTokens.length; i++) {
            boolean special = i >= big.endOfTextId() && i <= big.imEndId();
            assertEquals(special ? 3 : 1, types[i], "token " + i + " " + bigTokens[i]);
            assertFalse(bigTokens[i].isEmpty());
        }
        assertTrue(bigTokens[151935].matches("Ġ?[a-z]+"), "fillers print as words: " + bigTokens[151935]);
        SynthVocab small = SynthVocab.build(300);
        assertEquals(300, small.size());
        assertEquals(300 - 259, small.merges().length);
        assertThrows(IllegalArgumentException.class, () -> SynthVocab.build(100));
    }

    @Test
    void llama3ShapeGetsRopeFactorsLikeLlamaCpp() throws IOException {
        ModelShape s = ModelShape.parse("llama-3.2-1b:layers=1,dim=256,heads=4,kv=2,ffn=256,vocab=300");
        assertEquals(64, s.headDim());
        Path out = new Synth(2).write(SynthSpec.of(s, GgmlType.Q4_0, 3), dir.resolve("l3.gguf")).path();
        try (GgufFile f = GgufFile.open(out)) {
            GgufTensorInfo t = f.tensor("rope_freqs.weight");
            assertEquals(GgmlType.F32, t.type());
            assertArrayEquals(new long[] {32}, t.dims());
            float[] factors = TensorEncoder.decode(GgmlType.F32, f.tensorData(t), 32);
            assertEquals(1f, factors[0], 0f, "high frequencies are not scaled");
            assertEquals(32f, factors[31], 0f, "low frequencies are divided by the factor");
            for (int i = 1; i < 32; i++) {
                assertTrue(factors[i] >= factors[i - 1], "factors grow with the wavelength");
            }
            assertEquals(500000.0, f.getDouble("llama.rope.freq_base"), 0.5);
            assertEquals(131072, f.getInt("llama.context_length"));
            assertTrue(f.findTensor("output.weight").isEmpty(), "Llama 3.2 1B is tied");
        }
        // Wavelength 2*pi*500000^(2i/64) crosses 8192/4 = 2048 (end of unscaled) and 8192 (fully scaled):
        float[] direct = SynthLayout.llama3RopeFactors(s);
        int scaledFrom = -1;
        for (int i = 0; i < direct.length; i++) {
            if (direct[i] != 1f && scaledFrom < 0) {
                scaledFrom = i;
            }
        }
        double wavelen = 2 * Math.PI * Math.pow(500000, 2.0 * scaledFrom / 64);
        assertTrue(wavelen >= 2048 && 2 * Math.PI * Math.pow(500000, 2.0 * (scaledFrom - 1) / 64) < 2048);
    }

    @Test
    void realShapesMatchTheirPublishedConfigs() {
        ModelShape q = ModelShape.builtIn("qwen2.5-0.5b");
        assertEquals(896, q.dim());
        assertEquals(64, q.headDim());
        assertEquals(151936, q.vocab());
        assertTrue(q.tied());
        // Qwen2.5-0.5B: 0.49B parameters (model card), tied embeddings counted once.
        long params = q.parameterCount(q.vocab());
        assertTrue(Math.abs(params - 494_000_000L) < 5_000_000L, "parameters " + params);
        long smol = ModelShape.builtIn("smollm2-135m").parameterCount(49152);
        assertTrue(Math.abs(smol - 134_500_000L) < 2_000_000L, "SmolLM2-135M parameters " + smol);
        long llama = ModelShape.builtIn("llama-3.2-1b").parameterCount(128256);
        assertTrue(Math.abs(llama - 1_236_000_000L) < 10_000_000L, "Llama-3.2-1B parameters " + llama);
        long tinyllama = ModelShape.builtIn("tinyllama-1.1b").parameterCount(32000);
        assertTrue(Math.abs(tinyllama - 1_100_000_000L) < 10_000_000L, "TinyLlama parameters " + tinyllama);
        for (ModelShape s : ModelShape.builtIns().values()) {
            assertEquals(0, s.dim() % 32, s.name());
            assertEquals(0, s.ffn() % 32, s.name());
        }
        assertNotEquals(ModelShape.builtIn("tiny"), ModelShape.parse("tiny:layers=3"));
        assertEquals(3, ModelShape.parse("tiny:layers=3").layers());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ModelShape.parse("tiny:kv=3"));
        assertTrue(e.getMessage().contains("kv heads dividing heads"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ModelShape.parse("gpt-5"));
        assertThrows(IllegalArgumentException.class, () -> ModelShape.parse("tiny:colour=blue"));
    }

    /** Throwing from the progress callback cancels: the exception comes out and no file, not even a temporary one, stays. */
    @Test
    void cancellingThroughProgressLeavesNoFile() throws IOException {
        Path out = dir.resolve("cancelled.gguf");
        IllegalStateException stop = new IllegalStateException("user cancelled");
        SynthSpec spec = new SynthSpec("llama", ModelShape.builtIn("tiny"), GgmlType.Q8_0, null, 5, f -> {
            if (f > 0.5) {
                throw stop;
            }
        });
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> new Synth(2).write(spec, out));
        assertEquals(stop, e);
        try (var files = Files.list(dir)) {
            assertEquals(List.of(), files.toList());
        }
    }

    @Test
    void quantizedTypesRefuseShapesOffTheBlockGrid() {
        ModelShape odd = ModelShape.parse("tiny:dim=48,heads=4,kv=2");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new Synth(1).write(SynthSpec.of(odd, GgmlType.Q8_0, 1), dir.resolve("odd.gguf")));
        assertTrue(e.getMessage().contains("dim must be a multiple of 32 but found 48"), e.getMessage());
        assertFalse(Files.exists(dir.resolve("odd.gguf")));
        ModelShape llama3 = ModelShape.parse("llama-3.2-1b:layers=1,dim=64,heads=4,kv=2,ffn=64,vocab=300");
        IllegalArgumentException e2 = assertThrows(IllegalArgumentException.class, () -> new Synth(1)
                .write(new SynthSpec("qwen2", llama3, GgmlType.F16, null, 1, null), dir.resolve("q.gguf")));
        assertTrue(e2.getMessage().contains("only the llama architecture carries"), e2.getMessage());
    }

    private static void expect(GgufFile f, String name, GgmlType type, long... dims) throws IOException {
        GgufTensorInfo t = f.tensor(name);
        assertEquals(type, t.type(), name);
        assertArrayEquals(dims, t.dims(), name);
        assertEquals(t.byteSize(), f.tensorData(t).byteSize());
    }

    private static float[] values(GgufFile f, String name) throws IOException {
        GgufTensorInfo t = f.tensor(name);
        return TensorEncoder.decode(t.type(), f.tensorData(t), Math.toIntExact(t.elementCount()));
    }
}
