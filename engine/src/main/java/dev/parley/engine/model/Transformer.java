package dev.parley.engine.model;

import dev.parley.engine.backend.Backend;
import dev.parley.engine.backend.BackendKind;
import dev.parley.engine.tensor.Activations;
import dev.parley.engine.tensor.Tensor;

/**
 * The forward pass of a Llama-style decoder, written to follow llama.cpp's graph and rounding:
 * embedding lookup (scaled for Gemma), then per block RMSNorm, Q/K/V (+bias), the per-head q/k norms
 * (Qwen3, Gemma 3), RoPE (the layer's own rotation: Gemma's local layers have theirs), causal grouped-query
 * attention over the KV cache (within the window on sliding-window layers), output projection, the
 * post-attention norm (Gemma) and residual, RMSNorm, the gated feed-forward (SiLU or GELU gate), the post-FFN
 * norm and residual; finally RMSNorm, the output projection of the last token and the optional logit softcap.
 * What a family lacks is data, not a branch of its own: absent norms and biases are null, the activation is
 * the architecture's, windows and scales come from {@link BlockVariant}. Stateless: the buffers and the
 * cache belong to the caller.
 */
final class Transformer {

    private final Configuration c;
    private final Weights w;
    private final Backend backend;
    /** The rotations (global, and local when the model has sliding-window layers) and each layer's index in it. */
    private final RoPE[] ropes;
    private final int[] ropeOf;
    /** Positions each layer attends to, itself included. */
    private final int[] window;
    private final Activation activation;
    /** Per layer: {wq, wk, wv} and {wGate, wUp}, multiplied in one backend call each. */
    private final Tensor[][] qkv;
    private final Tensor[][] gateUp;

    Transformer(Configuration config, Weights weights, Backend backend) {
        this.c = config;
        this.w = weights;
        this.backend = backend;
        RoPE global = new RoPE(config, weights.ropeFreqFactors());
        this.ropes = config.variant().slidingWindow() > 0 ? new RoPE[] {global, RoPE.local(config)} : new RoPE[] {global};
        this.activation = config.architecture().activation();
        int layers = config.layers();
        this.ropeOf = new int[layers];
        this.window = new int[layers];
        for (int l = 0; l < layers; l++) {
            ropeOf[l] = config.variant().local(l) ? 1 : 0;
            window[l] = config.window(l);
        }
        this.qkv = new Tensor[layers][];
        this.gateUp = new Tensor[layers][];
        for (int l = 0; l < layers; l++) {
            LayerWeights lw = weights.layers().get(l);
            qkv[l] = new Tensor[] {lw.wq(), lw.wk(), lw.wv()};
            gateUp[l] = new Tensor[] {lw.wGate(), lw.wUp()};
        }
    }

    /**
     * Runs {@code count} tokens {@code tokens[from ..]} at positions {@code position ..}, storing
     * their keys and values, and leaves the logits of the last one in {@code s.logits} when
     * {@code wantLogits}.
     */
    void forward(int[] tokens, int from, int count, int position, SessionState s, KvCache cache, boolean wantLogits) {
        forward(tokens, from, count, position, s, cache, wantLogits, null);
    }

    /**
     * Like {@link #forward(int[], int, int, int, SessionState, KvCache, boolean)}; when {@code allLogits} is not
     * null it also receives the logits of every token of the chunk, row t at {@code t * vocab}.
     */
    void forward(int[] tokens, int from, int count, int position, SessionState s, KvCache cache, boolean wantLogits,
                 float[] allLogits) {
        for (int t = 0; t < count; t++) {
            s.rowPositions[t] = position + t;
            s.rowCaches[t] = cache;
            s.logitRows[t] = t;
        }
        forwardRows(tokens, from, count, s, null, 0, null);
        if (allLogits != null) {
            logits(s, s.logitRows, count, allLogits);
        }
        if (wantLogits) {
            s.logitRows[0] = count - 1;
            logits(s, s.logitRows, 1, s.logits);
        }
    }

    /**
     * The general step: row t is token {@code tokens[from + t]} at position {@code s.rowPositions[t]} of the
     * sequence whose cache is {@code s.rowCaches[t]}. Rows of different sequences share every weight pass
     * (one matrix x matrix product per weight for the whole step); each row attends only to its own cache, up to
     * and including its own position, so a sequence's rows must come in position order. When {@code logitRows}
     * is not null, the logits of rows {@code logitRows[0 .. nLogits)} go to {@code logitsOut}, one row of
     * {@code vocab} floats each, in that order.
     */
    void forwardRows(int[] tokens, int from, int count, SessionState s, int[] logitRows, int nLogits,
                     float[] logitsOut) {
        int dim = c.dim();
        int pairs = ropes[0].pairs();
        for (int t = 0; t < count; t++) {
            w.tokenEmbedding().dequantizeRow(tokens[from + t], s.x, t * dim);
            for (int r = 0; r < ropes.length; r++) {
                ropes[r].angles(s.rowPositions[t], s.cos[r], s.sin[r], t * pairs);
            }
        }
        scale(s.x, count * dim, c.variant().embeddingScale());
        Activations act = s.act;
        for (int l = 0; l < c.layers(); l++) {
            LayerWeights lw = w.layers().get(l);
            // Attention block.
            rmsNorm(s.xb, s.x, lw.attnNorm(), count, dim);
            act.set(s.xb, count, dim);
            backend.matmul(qkv[l], act, s.qkvOut);
            addBias(s.q, lw.bq(), count);
            addBias(s.k, lw.bk(), count);
            addBias(s.v, lw.bv(), count);
            rmsNorm(s.q, s.q, lw.qNorm(), count * c.heads(), c.headSize());
            rmsNorm(s.k, s.k, lw.kNorm(), count * c.kvHeads(), c.headSize());
            RoPE rope = ropes[ropeOf[l]];
            float[] cos = s.cos[ropeOf[l]];
            float[] sin = s.sin[ropeOf[l]];
            for (int t = 0; t < count; t++) {
                int a = t * pairs;
                rope.rotate(s.q, t * c.qDim(), c.heads(), c.headSize(), cos, sin, a);
                rope.rotate(s.k, t * c.kvDim(), c.kvHeads(), c.headSize(), cos, sin, a);
                s.rowCaches[t].store(l, s.rowPositions[t], s.k, t * c.kvDim(), s.v, t * c.kvDim());
            }
            attention(l, count, s);
            act.set(s.att, count, c.qDim());
            backend.matmul(lw.wo(), act, s.xb2);
            rmsNorm(s.xb2, s.xb2, lw.postAttnNorm(), count, dim);
            add(s.x, s.xb2, count * dim);
            // Feed-forward block.
            rmsNorm(s.xb, s.x, lw.ffnNorm(), count, dim);
            act.set(s.xb, count, dim);
            backend.matmul(gateUp[l], act, s.gateUpOut);
            gatedActivation(s, count * c.ffnDim());
            act.set(s.hb, count, c.ffnDim());
            backend.matmul(lw.wDown(), act, s.xb2);
            rmsNorm(s.xb2, s.xb2, lw.postFfnNorm(), count, dim);
            add(s.x, s.xb2, count * dim);
        }
        if (logitRows != null && nLogits > 0) {
            logits(s, logitRows, nLogits, logitsOut);
        }
    }

    /**
     * {@code hb = act(hb) * hb2}, element by element, with the architecture's activation; split over the backend's
     * threads when the step is large enough to pay for the hand-off (a batched step's exps cost as much as a small
     * matrix product).
     */
    private void gatedActivation(SessionState s, int n) {
        if (n < 16_384 || backend.threads() == 1) {
            gatedActivation(s.hb, s.hb2, 0, n);
            return;
        }
        int pieces = backend.threads() * 4;
        int per = (n + pieces - 1) / pieces;
        backend.parallelFor(pieces, (from, to, thread) -> {
            for (int p = from; p < to; p++) {
                gatedActivation(s.hb, s.hb2, p * per, Math.min(n, (p + 1) * per));
            }
        });
    }

    /** SwiGLU through the backend (its vector exp); other activations (Gemma's GELU) element by element. */
    private void gatedActivation(float[] hb, float[] hb2, int from, int to) {
        Activation a = activation;
        if (a == Activation.SILU) {
            backend.swiGlu(hb, hb2, from, to);
            return;
        }
        for (int i = from; i < to; i++) {
            hb[i] = a.apply(hb[i]) * hb2[i];
        }
    }

    /** Final norm and output projection of the residual rows {@code rows[0 .. n)} into {@code out}, one row each. */
    private void logits(SessionState s, int[] rows, int n, float[] out) {
        int dim = c.dim();
        for (int i = 0; i < n; i++) {
            System.arraycopy(s.x, rows[i] * dim, s.xb2, i * dim, dim);
        }
        rmsNorm(s.xb, s.xb2, w.outputNorm(), n, dim);
        s.act.set(s.xb, n, dim);
        backend.matmul(w.output(), s.act, out);
        softcap(out, n * c.vocabSize(), c.variant().finalSoftcap());
    }

    /** Tokens of one sequence per blocked-attention item (with all query heads of one KV head). */
    static final int ATTENTION_TOKENS = 16;

    /**
     * Causal softmax attention; query head h reads key/value head h / groupSize. The scalar backend runs the
     * reference ({@link #attendHead}: per token and head, a pass for the scores, one for the exps, one for the
     * values); the others the blocked kernel of {@link BlockAttention}: items of up to {@link #ATTENTION_TOKENS}
     * consecutive rows of one sequence x one KV head, spread over the backend's threads.
     */
    private void attention(int layer, int count, SessionState s) {
        // The blocked kernel reads every position up to each row's own; sliding-window layers and softcapped
        // scores (Gemma) take the reference loop, which knows both.
        if (backend.kind() == BackendKind.SCALAR || window[layer] != Integer.MAX_VALUE
                || c.variant().attentionSoftcap() > 0) {
            referenceAttention(layer, count, s);
            return;
        }
        int items = 0;
        int t = 0;
        while (t < count) {
            int end = t + 1;
            while (end < count && end - t < ATTENTION_TOKENS && s.rowCaches[end] == s.rowCaches[t]
                    && s.rowPositions[end] == s.rowPositions[end - 1] + 1) {
                end++;
            }
            for (int h = 0; h < c.kvHeads(); h++) {
                s.attRows[items] = t;
                s.attRowEnds[items] = end;
                s.attKvHeads[items] = h;
                items++;
            }
            t = end;
        }
        backend.parallelFor(items, (from, to, thread) -> {
            BlockAttention ba = s.blockAttention[thread];
            int hs = c.headSize();
            int group = c.groupSize();
            float scale = c.attentionScale();
            for (int it = from; it < to; it++) {
                int kvh = s.attKvHeads[it];
                int nq = 0;
                for (int row = s.attRows[it]; row < s.attRowEnds[it]; row++) {
                    for (int g = 0; g < group; g++) {
                        int o = row * c.qDim() + (kvh * group + g) * hs;
                        ba.qOffsets[nq] = o;
                        ba.outOffsets[nq] = o;
                        ba.lengths[nq] = s.rowPositions[row] + 1;
                        nq++;
                    }
                }
                ba.attend(s.rowCaches[s.attRows[it]], layer, kvh * hs, s.q, ba.qOffsets, ba.lengths, nq, scale,
                        s.att, ba.outOffsets);
            }
        });
    }

    private void referenceAttention(int layer, int count, SessionState s) {
        java.util.Arrays.fill(s.att, 0, count * c.qDim(), 0f);
        backend.parallelFor(count * c.heads(), (from, to, thread) -> {
            for (int i = from; i < to; i++) {
                int t = i / c.heads();
                attendHead(layer, t, i % c.heads(), s.rowPositions[t], s, s.rowCaches[t], s.scores[thread]);
            }
        });
    }

    private void attendHead(int layer, int t, int h, int position, SessionState s, KvCache cache, float[] scores) {
        int hs = c.headSize();
        float scale = c.attentionScale();
        float cap = c.variant().attentionSoftcap();
        // A sliding-window layer sees its own position and window - 1 before it (llama.cpp: 0 <= p1 - p0 < W).
        int first = window[layer] == Integer.MAX_VALUE ? 0 : Math.max(0, position - window[layer] + 1);
        int len = position + 1 - first;
        int qo = t * c.qDim() + h * hs;
        int ko = (h / c.groupSize()) * hs;
        float max = Float.NEGATIVE_INFINITY;
        for (int i = 0; i < len; i++) {
            float sc = cache.keyDot(layer, first + i, ko, s.q, qo, hs) * scale;
            if (cap > 0) {
                sc = cap * (float) Math.tanh(sc / cap);
            }
            scores[i] = sc;
            max = Math.max(max, sc);
        }
        double sum = 0;
        for (int i = 0; i < len; i++) {
            float e = (float) Math.exp(scores[i] - max);
            scores[i] = e;
            sum += e;
        }
        float inv = (float) (1.0 / sum);
        for (int i = 0; i < len; i++) {
            cache.addValue(layer, first + i, ko, scores[i] * inv, s.att, qo, hs);
        }
    }

    /**
     * {@code out = x / sqrt(mean(x^2) + eps) * weight} per row; the sum of squares in double as in ggml. A null
     * weight is a norm the architecture does not have: nothing happens (out is x for those).
     */
    private void rmsNorm(float[] out, float[] x, float[] weight, int count, int dim) {
        if (weight == null) {
            return;
        }
        for (int t = 0; t < count; t++) {
            int o = t * dim;
            double ss = 0;
            for (int i = 0; i < dim; i++) {
                ss += (double) (x[o + i] * x[o + i]);
            }
            float mean = (float) (ss / dim);
            float scale = 1.0f / (float) Math.sqrt(mean + c.rmsEps());
            for (int i = 0; i < dim; i++) {
                out[o + i] = (x[o + i] * scale) * weight[i];
            }
        }
    }

    /** {@code x *= factor} on {@code x[0 .. n)}, skipped for 1. */
    private static void scale(float[] x, int n, float factor) {
        if (factor != 1f) {
            for (int i = 0; i < n; i++) {
                x[i] *= factor;
            }
        }
    }

    /** {@code cap * tanh(x / cap)} on {@code x[0 .. n)} (Gemma's logit softcapping), skipped for a cap of 0. */
    private static void softcap(float[] x, int n, float cap) {
        if (cap > 0) {
            for (int i = 0; i < n; i++) {
                x[i] = cap * (float) Math.tanh(x[i] / cap);
            }
        }
    }

    /** {@code y += bias} per row; a null bias (the architecture has none) adds nothing. */
    private static void addBias(float[] y, float[] bias, int count) {
        if (bias == null) {
            return;
        }
        int n = bias.length;
        for (int t = 0; t < count; t++) {
            for (int i = 0; i < n; i++) {
                y[t * n + i] += bias[i];
            }
        }
    }

    private static void add(float[] x, float[] y, int n) {
        for (int i = 0; i < n; i++) {
            x[i] += y[i];
        }
    }
}
