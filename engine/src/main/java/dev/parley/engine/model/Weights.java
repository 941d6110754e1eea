package dev.parley.engine.model;

import dev.parley.engine.gguf.GgmlType;
import dev.parley.engine.gguf.GgufException;
import dev.parley.engine.gguf.GgufFile;
import dev.parley.engine.gguf.GgufTensorInfo;
import dev.parley.engine.tensor.Tensor;
import java.util.Arrays;
import java.util.List;

/**
 * All weights of a model, checked against its {@link Configuration}: every tensor must exist with
 * the expected shape (ggml order, row length first) and a type Parley can compute with.
 *
 * @param tokenEmbedding {@code [dim, vocab]}
 * @param layers         one entry per block
 * @param outputNorm     {@code [dim]}
 * @param output         {@code [dim, vocab]}; the token embedding itself when tied
 * @param ropeFreqFactors per-frequency divisors ({@code rope_freqs.weight}) or null
 */
public record Weights(Tensor tokenEmbedding, List<LayerWeights> layers, float[] outputNorm, Tensor output,
                      float[] ropeFreqFactors) {

    public Weights {
        layers = List.copyOf(layers);
    }

    /** Bytes of tensor data read to compute one token (every matrix once, plus one embedding row). */
    public long bytesPerToken() {
        long sum = tokenEmbedding.rowBytes() + output.byteSize();
        for (LayerWeights l : layers) {
            sum += l.wq().byteSize() + l.wk().byteSize() + l.wv().byteSize() + l.wo().byteSize()
                    + l.wGate().byteSize() + l.wUp().byteSize() + l.wDown().byteSize();
        }
        return sum;
    }

    /** Every matrix once (the output matrix is the token embedding itself when tied). */
    public List<Tensor> distinctMatrices() {
        List<Tensor> out = new java.util.ArrayList<>();
        out.add(tokenEmbedding);
        if (output != tokenEmbedding) {
            out.add(output);
        }
        for (LayerWeights l : layers) {
            out.addAll(List.of(l.wq(), l.wk(), l.wv(), l.wo(), l.wGate(), l.wUp(), l.wDown()));
        }
        return out;
    }

    /** Bytes of the small float vectors copied to the heap (norm weights, biases, RoPE factors). */
    public long vectorBytes() {
        long n = outputNorm.length + (ropeFreqFactors == null ? 0 : ropeFreqFactors.length);
        for (LayerWeights l : layers) {
            n += l.attnNorm().length + l.ffnNorm().length;
            for (float[] v : new float[][] {l.qNorm(), l.kNorm(), l.postAttnNorm(), l.postFfnNorm()}) {
                n += v == null ? 0 : v.length;
            }
            if (l.bq() != null) {
                n += l.bq().length + l.bk().length + l.bv().length;
            }
        }
        return 4 * n;
    }

    /**
     * Finds and checks every tensor of {@code config} in {@code gguf}.
     *
     * @throws GgufException naming the tensor and the expected and found shapes or types
     */
    public static Weights load(GgufFile gguf, Configuration config) throws GgufException {
        Loader in = new Loader(gguf);
        int dim = config.dim();
        Tensor embedding = in.matrix("token_embd.weight", dim, config.vocabSize());
        LayerWeights[] layers = new LayerWeights[config.layers()];
        Architecture arch = config.architecture();
        for (int i = 0; i < layers.length; i++) {
            layers[i] = layer(in, config, arch, "blk." + i + ".");
        }
        float[] outputNorm = in.vector("output_norm.weight", dim);
        Tensor output = config.tiedOutput() ? embedding : in.matrix("output.weight", dim, config.vocabSize());
        float[] freqs = config.ropeFreqFactors()
                ? in.vector(config.variant().ropeFactorsTensor(), config.ropeDims() / 2) : null;
        return new Weights(embedding, Arrays.asList(layers), outputNorm, output, freqs);
    }

    /**
     * The tensors of one block: the Llama set, with what {@code arch} adds (biases, q/k norms, post-norms) and
     * Phi-3's fused {@code attn_qkv} / {@code ffn_up} cut into row ranges (q, k, v and gate, up: no copy).
     */
    private static LayerWeights layer(Loader in, Configuration config, Architecture arch, String b)
            throws GgufException {
        int dim = config.dim();
        Tensor wq;
        Tensor wk;
        Tensor wv;
        if (arch.fusedProjections() && in.gguf().findTensor(b + "attn_qkv.weight").isPresent()) {
            Tensor qkv = in.matrix(b + "attn_qkv.weight", dim, config.qDim() + 2 * config.kvDim());
            wq = rows(qkv, b + "attn_qkv.weight[q]", 0, config.qDim());
            wk = rows(qkv, b + "attn_qkv.weight[k]", config.qDim(), config.kvDim());
            wv = rows(qkv, b + "attn_qkv.weight[v]", config.qDim() + config.kvDim(), config.kvDim());
        } else {
            wq = in.matrix(b + "attn_q.weight", dim, config.qDim());
            wk = in.matrix(b + "attn_k.weight", dim, config.kvDim());
            wv = in.matrix(b + "attn_v.weight", dim, config.kvDim());
        }
        Tensor gate;
        Tensor up;
        if (arch.fusedProjections()) {
            // ggml's fused SwiGLU: the first half of each row of the product is the gate, the second half the up.
            Tensor both = in.matrix(b + "ffn_up.weight", dim, 2 * config.ffnDim());
            gate = rows(both, b + "ffn_up.weight[gate]", 0, config.ffnDim());
            up = rows(both, b + "ffn_up.weight[up]", config.ffnDim(), config.ffnDim());
        } else {
            gate = in.matrix(b + "ffn_gate.weight", dim, config.ffnDim());
            up = in.matrix(b + "ffn_up.weight", dim, config.ffnDim());
        }
        boolean bias = arch.qkvBias();
        return new LayerWeights(
                in.vector(b + "attn_norm.weight", dim), wq, wk, wv,
                bias ? in.vector(b + "attn_q.bias", config.qDim()) : null,
                bias ? in.vector(b + "attn_k.bias", config.kvDim()) : null,
                bias ? in.vector(b + "attn_v.bias", config.kvDim()) : null,
                in.matrix(b + "attn_output.weight", config.qDim(), dim),
                in.vector(b + "ffn_norm.weight", dim), gate, up,
                in.matrix(b + "ffn_down.weight", config.ffnDim(), dim),
                arch.qkNorm() ? in.vector(b + "attn_q_norm.weight", config.headSize()) : null,
                arch.qkNorm() ? in.vector(b + "attn_k_norm.weight", config.headSize()) : null,
                arch.postNorms() ? in.vector(b + "post_attention_norm.weight", dim) : null,
                arch.postNorms() ? in.vector(b + "post_ffw_norm.weight", dim) : null);
    }

    /** Rows {@code [from, from + n)} of {@code t} as a tensor of their own, over the same bytes. */
    static Tensor rows(Tensor t, String name, int from, int n) {
        return Tensor.of(name, t.type(), t.data().asSlice(from * t.rowBytes(), n * t.rowBytes()), n, t.cols());
    }

    /** Looks tensors up and checks their shapes. */
    private record Loader(GgufFile gguf) {

        GgufTensorInfo find(String name, long... dims) throws GgufException {
            GgufTensorInfo t = gguf.findTensor(name).orElseThrow(() -> new GgufException(gguf.path().getFileName()
                    + ": expected a tensor " + name + " of " + Arrays.toString(dims) + " but found none"));
            long[] found = t.dims();
            // Trailing dimensions of 1 are allowed (ggml may store [n] as [n, 1]).
            boolean ok = found.length >= dims.length;
            for (int i = 0; ok && i < found.length; i++) {
                ok = found[i] == (i < dims.length ? dims[i] : 1);
            }
            if (!ok) {
                throw new GgufException(gguf.path().getFileName() + ": expected " + name + " of " + Arrays.toString(dims)
                        + " but found " + Arrays.toString(found));
            }
            if (!t.type().supported()) {
                throw new GgufException(gguf.path().getFileName() + ": expected " + name
                        + " in one of " + GgmlType.supportedNames() + " but found " + t.type());
            }
            return t;
        }

        Tensor matrix(String name, int cols, int rows) throws GgufException {
            GgufTensorInfo t = find(name, cols, rows);
            try {
                return Tensor.of(name, t.type(), gguf.tensorData(t), rows, cols);
            } catch (IllegalArgumentException e) {
                throw new GgufException(gguf.path().getFileName() + ": " + e.getMessage(), e);
            }
        }

        float[] vector(String name, int n) throws GgufException {
            GgufTensorInfo t = find(name, n);
            Tensor v;
            try {
                v = Tensor.of(name, t.type(), gguf.tensorData(t), 1, n);
            } catch (IllegalArgumentException e) {
                throw new GgufException(gguf.path().getFileName() + ": " + e.getMessage(), e);
            }
            float[] out = new float[n];
            v.dequantizeRow(0, out, 0);
            return out;
        }
    }
}
