package dev.parley.engine.model;

import dev.parley.engine.backend.Backend;
import dev.parley.engine.backend.BackendKind;
import dev.parley.engine.tensor.Activations;
import dev.parley.engine.tensor.Tensor;

/**
 * The forward pass of a Llama-style decoder, written to follow llama.cpp's graph and rounding:
 * embedding lookup, then per block RMSNorm, Q/K/V (+bias), RoPE, causal grouped-query attention
 * over the KV cache, output projection and residual, RMSNorm, SwiGLU feed-forward and residual;
 * finally RMSNorm and the output projection of the last token. Stateless: the buffers and the
 * cache belong to the caller.
 */
final class Transformer {

    private final Configuration c;
    private final Weights w;
    private final Backend backend;
    private final RoPE rope;
    /** Per layer: {wq, wk, wv} and {wGate, wUp}, multiplied in one backend call each. */
    private final Tensor[][] qkv;
    private final Tensor[][] gateUp;

    Transformer(Configuration config, Weights weights, Backend backend) {
        this.c = config;
        this.w = weights;
        this.backend = backend;
        this.rope = new RoPE(config, weights.ropeFreqFactors());
        int layers = config.layers();
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
        for (int t = 0; t < count; t++) {
            w.tokenEmbedding().dequantizeRow(tokens[from + t], s.x, t * dim);
            rope.angles(s.rowPositions[t], s.cos, s.sin, t * rope.pairs());
        }
        Activations act = s.act;
        for (int l = 0; l < c.layers(); l++) {
            LayerWeights lw = w.layers().get(l);
            // Attention block.
            rmsNorm(s.xb, s.x, lw.attnNorm(), count, dim);
            act.set(s.xb, count, dim);
            backend.matmul(qkv[l], act, s.qkvOut);
            if (lw.bq() != null) {
                addBias(s.q, lw.bq(), count);
                addBias(s.k, lw.bk(), count);
                addBias(s.v, lw.bv(), count);
            }
            for (int t = 0; t < count; t++) {
                int a = t * rope.pairs();
                rope.rotate(s.q, t * c.qDim(), c.heads(), c.headSize(), s.cos, s.sin, a);
                rope.rotate(s.k, t * c.kvDim(), c.kvHeads(), c.headSize(), s.cos, s.sin, a);
                s.rowCaches[t].store(l, s.rowPositions[t], s.k, t * c.kvDim(), s.v, t * c.kvDim());
            }
            attention(l, count, s);
            act.set(s.att, count, c.qDim());
            backend.matmul(lw.wo(), act, s.xb2);
            add(s.x, s.xb2, count * dim);
            // Feed-forward block.
            rmsNorm(s.xb, s.x, lw.ffnNorm(), count, dim);
            act.set(s.xb, count, dim);
            backend.matmul(gateUp[l], act, s.gateUpOut);
            swiGlu(s, count * c.ffnDim());
            act.set(s.hb, count, c.ffnDim());
            backend.matmul(lw.wDown(), act, s.xb2);
            add(s.x, s.xb2, count * dim);
        }
        if (logitRows != null && nLogits > 0) {
            logits(s, logitRows, nLogits, logitsOut);
        }
    }

    /**
     * {@code hb = silu(hb) * hb2}, element by element; split over the backend's threads when the step is large
     * enough to pay for the hand-off (a batched step's exps cost as much as a small matrix product).
     */
    private void swiGlu(SessionState s, int n) {
        if (n < 16_384 || backend.threads() == 1) {
            backend.swiGlu(s.hb, s.hb2, 0, n);
            return;
        }
        int pieces = backend.threads() * 4;
        int per = (n + pieces - 1) / pieces;
        backend.parallelFor(pieces, (from, to, thread) -> {
            for (int p = from; p < to; p++) {
                backend.swiGlu(s.hb, s.hb2, p * per, Math.min(n, (p + 1) * per));
            }
        });
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
        if (backend.kind() == BackendKind.SCALAR) {
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
            float scale = (float) (1.0 / Math.sqrt(hs));
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
        float scale = (float) (1.0 / Math.sqrt(hs));
        int len = position + 1;
        int qo = t * c.qDim() + h * hs;
        int ko = (h / c.groupSize()) * hs;
        float max = Float.NEGATIVE_INFINITY;
        for (int p = 0; p < len; p++) {
            float sc = cache.keyDot(layer, p, ko, s.q, qo, hs) * scale;
            scores[p] = sc;
            max = Math.max(max, sc);
        }
        double sum = 0;
        for (int p = 0; p < len; p++) {
            float e = (float) Math.exp(scores[p] - max);
            scores[p] = e;
            sum += e;
        }
        float inv = (float) (1.0 / sum);
        for (int p = 0; p < len; p++) {
            cache.addValue(layer, p, ko, scores[p] * inv, s.att, qo, hs);
        }
    }

    /** {@code out = x / sqrt(mean(x^2) + eps) * weight} per row; the sum of squares in double as in ggml. */
    private void rmsNorm(float[] out, float[] x, float[] weight, int count, int dim) {
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

    private static void addBias(float[] y, float[] bias, int count) {
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
