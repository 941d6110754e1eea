package dev.parley.audio.room;

import java.util.Arrays;

/**
 * Streaming FFT convolution with a long impulse response: uniformly partitioned overlap-save. The
 * response is cut into partitions of one block each, kept as spectra; every input block is
 * transformed once into a frequency-domain delay line and the output block is the inverse transform
 * of the sum of delay-line spectra times partition spectra. Output block {@code k} is exactly the
 * linear convolution's samples {@code [kB, (k+1)B)}: no delay beyond the block itself. Not
 * thread-safe: one instance per stream.
 */
public final class BlockConvolver {
    private final int block;
    private final int partitions;
    private final Fft fft;
    private final double[][] hRe;
    private final double[][] hIm;
    private final double[][] xRe;   // delay line of input spectra, ring indexed by block count
    private final double[][] xIm;
    private final double[] window;  // the last n input samples
    private final double[] accRe;
    private final double[] accIm;
    private long blocks;

    /**
     * @param impulseResponse the response (at least one tap)
     * @param blockSize       samples per {@link #process} call
     */
    public BlockConvolver(float[] impulseResponse, int blockSize) {
        if (impulseResponse == null || impulseResponse.length == 0) {
            throw new IllegalArgumentException("expected an impulse response of at least one tap but found none");
        }
        if (blockSize < 1) {
            throw new IllegalArgumentException("expected a positive block size but found " + blockSize);
        }
        this.block = blockSize;
        int n = Integer.highestOneBit(Math.max(2, 2 * blockSize - 1));
        if (n < 2 * blockSize - 1) {
            n <<= 1;
        }
        this.fft = new Fft(n);
        this.partitions = (impulseResponse.length + blockSize - 1) / blockSize;
        hRe = new double[partitions][n];
        hIm = new double[partitions][n];
        for (int p = 0; p < partitions; p++) {
            int from = p * blockSize;
            int to = Math.min(impulseResponse.length, from + blockSize);
            for (int i = from; i < to; i++) {
                hRe[p][i - from] = impulseResponse[i];
            }
            fft.forward(hRe[p], hIm[p]);
        }
        xRe = new double[partitions][n];
        xIm = new double[partitions][n];
        window = new double[n];
        accRe = new double[n];
        accIm = new double[n];
    }

    public int blockSize() {
        return block;
    }

    /** Convolves the next block: {@code in} and {@code out} hold {@link #blockSize()} samples each. */
    public void process(float[] in, float[] out) {
        if (in.length != block || out.length != block) {
            throw new IllegalArgumentException("expected blocks of " + block + " samples but found " + in.length + " and "
                    + out.length);
        }
        int n = fft.size();
        System.arraycopy(window, block, window, 0, n - block);
        for (int i = 0; i < block; i++) {
            window[n - block + i] = in[i];
        }
        int slot = (int) (blocks % partitions);
        double[] re = xRe[slot];
        double[] im = xIm[slot];
        System.arraycopy(window, 0, re, 0, n);
        Arrays.fill(im, 0);
        fft.forward(re, im);
        Arrays.fill(accRe, 0);
        Arrays.fill(accIm, 0);
        for (int p = 0; p < partitions && p <= blocks; p++) {
            int s = (int) ((blocks - p) % partitions);
            double[] ar = xRe[s];
            double[] ai = xIm[s];
            double[] br = hRe[p];
            double[] bi = hIm[p];
            for (int k = 0; k < n; k++) {
                accRe[k] += ar[k] * br[k] - ai[k] * bi[k];
                accIm[k] += ar[k] * bi[k] + ai[k] * br[k];
            }
        }
        fft.inverse(accRe, accIm);
        for (int i = 0; i < block; i++) {
            out[i] = (float) accRe[n - block + i];
        }
        blocks++;
    }

    /** The full linear convolution of {@code x} with {@code h} ({@code x.length + h.length - 1} samples). */
    public static float[] convolve(float[] x, float[] h) {
        if (x.length == 0) {
            return new float[0];
        }
        int b = 1024;
        BlockConvolver c = new BlockConvolver(h, b);
        int total = x.length + h.length - 1;
        float[] out = new float[total];
        float[] in = new float[b];
        float[] piece = new float[b];
        for (int pos = 0; pos < total; pos += b) {
            Arrays.fill(in, 0);
            if (pos < x.length) {
                System.arraycopy(x, pos, in, 0, Math.min(b, x.length - pos));
            }
            c.process(in, piece);
            System.arraycopy(piece, 0, out, pos, Math.min(b, total - pos));
        }
        return out;
    }
}
