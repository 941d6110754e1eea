package dev.parley.engine.gguf;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Map;
import java.util.Random;

/**
 * The small valid GGUF files that seed the fuzzer ({@code GgufFuzzTestInputs/openAnyFile}): every
 * metadata type, a SentencePiece vocabulary, a byte-level BPE vocabulary, and a complete one-layer
 * Llama model with Q4_0 matrices (about 5 KB). {@link GgufSeedsTest} checks that the committed files
 * are exactly these bytes and that each one opens.
 */
final class GgufSeeds {

    static final int DIM = 32;
    static final int VOCAB = 16;

    private GgufSeeds() {
    }

    /** File name to bytes. */
    static Map<String, byte[]> all() {
        return Map.of("all-types.gguf", allTypes(), "spm-vocab.gguf", spmVocab(), "bpe-vocab.gguf", bpeVocab(),
                "llama-q4_0.gguf", model());
    }

    /** One key of each metadata type, a nested array, an alignment of 64 and three small tensors. */
    static byte[] allTypes() {
        GgufBytes b = GgufBytes.header(3, 15);
        b.key("u8", GgufValueType.UINT8).u8(200);
        b.key("i8", GgufValueType.INT8).u8(-3);
        b.key("u16", GgufValueType.UINT16).u16(60000);
        b.key("i16", GgufValueType.INT16).u16(-300);
        b.key("u32", GgufValueType.UINT32).u32(-1);
        b.key("i32", GgufValueType.INT32).u32(-7);
        b.key("f32", GgufValueType.FLOAT32).f32(0.5f);
        b.key("bool", GgufValueType.BOOL).u8(1);
        b.key("str", GgufValueType.STRING).string("héllo");
        b.key("u64", GgufValueType.UINT64).u64(1L << 40);
        b.key("i64", GgufValueType.INT64).u64(-1);
        b.key("f64", GgufValueType.FLOAT64).f64(Math.PI);
        b.arrayOf("floats", GgufValueType.FLOAT32, 3).f32(1).f32(2).f32(3);
        b.arrayOf("nested", GgufValueType.ARRAY, 2);
        b.u32(GgufValueType.STRING.id()).u64(2).string("a").string("bc");
        b.u32(GgufValueType.INT16.id()).u64(1).u16(5);
        b.key(GgufFile.ALIGNMENT_KEY, GgufValueType.UINT32).u32(64);
        b.tensor("f32", GgmlType.F32, 0, 4, 2);
        b.tensor("f16", GgmlType.F16, 64, 8);
        b.tensor("q8", GgmlType.Q8_0, 128, 32, 1);
        b.pad(64);
        byte[] data = new byte[128 + 34];
        new Random(1).nextBytes(data);
        return b.raw(data).toByteArray();
    }

    /** A vocabulary-only SentencePiece file: unk, BOS, EOS, 256 byte tokens and a few pieces with scores. */
    static byte[] spmVocab() {
        String[] pieces = {"\u2581", "\u2581the", "he", "a", "e", "h", "t", "<|user|>"};
        int n = 3 + 256 + pieces.length;
        GgufBytes b = GgufBytes.header(0, 4);
        b.key("tokenizer.ggml.model", GgufValueType.STRING).string("llama");
        b.arrayOf("tokenizer.ggml.tokens", GgufValueType.STRING, n).string("<unk>").string("<s>").string("</s>");
        for (int i = 0; i < 256; i++) {
            b.string(String.format("<0x%02X>", i));
        }
        for (String p : pieces) {
            b.string(p);
        }
        b.arrayOf("tokenizer.ggml.scores", GgufValueType.FLOAT32, n);
        for (int i = 0; i < n; i++) {
            b.f32(-i);
        }
        b.arrayOf("tokenizer.ggml.token_type", GgufValueType.INT32, n).u32(2).u32(3).u32(3);
        for (int i = 0; i < 256; i++) {
            b.u32(6);
        }
        for (int i = 0; i < pieces.length; i++) {
            b.u32(i == pieces.length - 1 ? 4 : 1);
        }
        return b.toByteArray();
    }

    /** A vocabulary-only byte-level BPE file with the Qwen2 pre-tokenizer, two merges and a control token. */
    static byte[] bpeVocab() {
        GgufBytes b = GgufBytes.header(0, 5);
        b.key("tokenizer.ggml.model", GgufValueType.STRING).string("gpt2");
        b.key("tokenizer.ggml.pre", GgufValueType.STRING).string("qwen2");
        String[] extra = {"\u0120t", "\u0120th", "<|im_end|>"};
        b.arrayOf("tokenizer.ggml.tokens", GgufValueType.STRING, 94 + extra.length);
        for (char c = '!'; c <= '~'; c++) {
            b.string(String.valueOf(c));
        }
        for (String e : extra) {
            b.string(e);
        }
        b.arrayOf("tokenizer.ggml.merges", GgufValueType.STRING, 2).string("\u0120 t").string("\u0120t h");
        b.key("tokenizer.ggml.eos_token_id", GgufValueType.UINT32).u32(94 + 2);
        return b.toByteArray();
    }

    /** A complete one-layer Llama model: {@value #DIM} wide, 2 heads over 1 KV head, vocabulary {@value #VOCAB}. */
    static byte[] model() {
        Random rnd = new Random(3);
        String[][] matrices = {
            {"token_embd.weight", "" + DIM, "" + VOCAB},
            {"blk.0.attn_q.weight", "" + DIM, "" + DIM},
            {"blk.0.attn_k.weight", "" + DIM, "" + DIM / 2},
            {"blk.0.attn_v.weight", "" + DIM, "" + DIM / 2},
            {"blk.0.attn_output.weight", "" + DIM, "" + DIM},
            {"blk.0.ffn_gate.weight", "" + DIM, "" + DIM},
            {"blk.0.ffn_up.weight", "" + DIM, "" + DIM},
            {"blk.0.ffn_down.weight", "" + DIM, "" + DIM},
        };
        String[] norms = {"blk.0.attn_norm.weight", "blk.0.ffn_norm.weight", "output_norm.weight"};
        GgufBytes b = GgufBytes.header(matrices.length + norms.length, 9);
        b.key("general.architecture", GgufValueType.STRING).string("llama");
        b.key("llama.embedding_length", GgufValueType.UINT32).u32(DIM);
        b.key("llama.block_count", GgufValueType.UINT32).u32(1);
        b.key("llama.attention.head_count", GgufValueType.UINT32).u32(2);
        b.key("llama.attention.head_count_kv", GgufValueType.UINT32).u32(1);
        b.key("llama.feed_forward_length", GgufValueType.UINT32).u32(DIM);
        b.key("llama.context_length", GgufValueType.UINT32).u32(64);
        b.key("llama.attention.layer_norm_rms_epsilon", GgufValueType.FLOAT32).f32(1e-5f);
        b.key("llama.rope.freq_base", GgufValueType.FLOAT32).f32(10000f);
        ByteBuffer data = ByteBuffer.allocate(8192).order(ByteOrder.LITTLE_ENDIAN);
        for (String[] m : matrices) {
            int rows = Integer.parseInt(m[2]);
            b.tensor(m[0], GgmlType.Q4_0, data.position(), Integer.parseInt(m[1]), rows);
            for (int r = 0; r < rows; r++) { // one Q4_0 block per row: f16 scale and 16 bytes of nibbles
                data.putShort(Float.floatToFloat16(0.01f + rnd.nextFloat() * 0.02f));
                byte[] q = new byte[16];
                rnd.nextBytes(q);
                data.put(q);
            }
            align(data);
        }
        for (String norm : norms) {
            b.tensor(norm, GgmlType.F32, data.position(), DIM);
            for (int i = 0; i < DIM; i++) {
                data.putFloat(1f);
            }
            align(data);
        }
        b.pad(GgufFile.DEFAULT_ALIGNMENT);
        byte[] bytes = new byte[data.position()];
        data.flip().get(bytes);
        return b.raw(bytes).toByteArray();
    }

    private static void align(ByteBuffer data) {
        data.position((data.position() + 31) / 32 * 32);
    }
}
