package dev.parley.engine.model;

import dev.parley.engine.tensor.Activations;

/**
 * Preallocated buffers for one forward pass over a chunk of up to {@code chunk} tokens, so that
 * nothing is allocated per token. Row t of every buffer belongs to the chunk's t-th token.
 */
final class SessionState {
    final int chunk;
    final float[] x;      // (chunk, dim) residual stream
    final float[] xb;     // (chunk, dim) normalised input
    final float[] xb2;    // (chunk, dim) projection output
    final float[] q;      // (chunk, qDim)
    final float[] k;      // (chunk, kvDim)
    final float[] v;      // (chunk, kvDim)
    final float[] att;    // (chunk, qDim) attention output
    final float[] hb;     // (chunk, ffnDim) gate
    final float[] hb2;    // (chunk, ffnDim) up
    final float[][] scores; // (thread, contextLength)
    final float[][] cos;  // (rotation, chunk * ropeDims / 2): one table per distinct RoPE (global, local)
    final float[][] sin;
    final float[] logits; // (vocab)
    final Activations act;
    final float[][] qkvOut;    // {q, k, v}
    final float[][] gateUpOut; // {hb, hb2}
    final int[] rowPositions;  // (chunk) position of each row
    final KvCache[] rowCaches; // (chunk) the cache each row reads and writes
    final int[] logitRows;     // (chunk) rows whose logits are wanted
    final BlockAttention[] blockAttention; // (thread) scratch of the blocked attention
    final int[] attRows;       // (chunk * kvHeads) first row of each blocked-attention item
    final int[] attRowEnds;    // (chunk * kvHeads) end of its rows
    final int[] attKvHeads;    // (chunk * kvHeads) its KV head

    SessionState(Configuration c, int chunk, int contextLength, int threads) {
        this.chunk = chunk;
        x = new float[chunk * c.dim()];
        xb = new float[chunk * c.dim()];
        xb2 = new float[chunk * c.dim()];
        q = new float[chunk * c.qDim()];
        k = new float[chunk * c.kvDim()];
        v = new float[chunk * c.kvDim()];
        att = new float[chunk * c.qDim()];
        hb = new float[chunk * c.ffnDim()];
        hb2 = new float[chunk * c.ffnDim()];
        scores = new float[threads][contextLength];
        int rotations = c.variant().slidingWindow() > 0 ? 2 : 1;
        cos = new float[rotations][chunk * (c.ropeDims() / 2)];
        sin = new float[rotations][chunk * (c.ropeDims() / 2)];
        logits = new float[c.vocabSize()];
        act = new Activations(chunk, Math.max(c.dim(), Math.max(c.qDim(), c.ffnDim())));
        qkvOut = new float[][] {q, k, v};
        gateUpOut = new float[][] {hb, hb2};
        rowPositions = new int[chunk];
        rowCaches = new KvCache[chunk];
        logitRows = new int[chunk];
        blockAttention = new BlockAttention[threads];
        for (int i = 0; i < threads; i++) {
            blockAttention[i] = new BlockAttention(c.headSize(), Transformer.ATTENTION_TOKENS * c.groupSize());
        }
        attRows = new int[chunk * c.kvHeads()];
        attRowEnds = new int[chunk * c.kvHeads()];
        attKvHeads = new int[chunk * c.kvHeads()];
    }
}
