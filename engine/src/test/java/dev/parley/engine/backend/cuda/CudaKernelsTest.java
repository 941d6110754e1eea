package dev.parley.engine.backend.cuda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.parley.engine.gguf.GgmlType;
import dev.parley.engine.tensor.Activations;
import dev.parley.engine.tensor.RandomTensors;
import dev.parley.engine.tensor.Tensor;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Single kernels on the GPU against the CPU's arithmetic: activation quantization bit for bit, the tiled Q8_0
 * product bit for bit (same order of float additions), the matrix x vector one within float rounding, RMSNorm,
 * argmax and softmax. Skipped without a GPU ("no CUDA driver").
 */
class CudaKernelsTest {

    private CudaContext ctx;
    private CudaKernels k;
    private Arena arena;

    @BeforeEach
    void open() {
        assumeTrue(CudaProbe.status().available(), CudaProbe.status().reason());
        ctx = CudaContext.open(CudaProbe.status());
        k = new CudaKernels(ctx);
        arena = Arena.ofConfined();
    }

    @AfterEach
    void close() {
        if (ctx != null) {
            ctx.close();
            arena.close();
        }
    }

    private DeviceBuffer floats(float[] v) {
        return ctx.upload("test", v);
    }

    private float[] download(DeviceBuffer b, int n) {
        float[] out = new float[n];
        ctx.copy(b, out, n);
        return out;
    }

    private DeviceMatrix matrix(Tensor t) {
        MemorySegment q = arena.allocate(Q8DeviceLayout.quantBytes(t.rows(), t.cols()));
        MemorySegment s = arena.allocate(Q8DeviceLayout.scaleBytes(t.rows(), t.cols()));
        Q8DeviceLayout.split(t, 0, t.rows(), q, s, new float[t.cols()]);
        DeviceBuffer dq = ctx.allocate("q", q.byteSize());
        DeviceBuffer ds = ctx.allocate("s", s.byteSize());
        ctx.copy(q, dq, 0);
        ctx.copy(s, ds, 0);
        return new DeviceMatrix(t.name(), dq, ds, t.rows(), t.cols());
    }

    @Test
    void quantizationMatchesTheCpusActivationsBitForBit() {
        int count = 5;
        int dim = 256;
        float[] x = RandomTensors.activations(count, dim, new Random(1));
        x[7] = 0; // a block with a zero, and one all zeros
        for (int i = 32; i < 64; i++) {
            x[i] = 0;
        }
        Activations act = new Activations(count, dim).set(x, count, dim);
        act.prepare(dev.parley.engine.tensor.ActivationFormat.Q8_0);
        DeviceBuffer q = ctx.allocate("q", count * dim);
        DeviceBuffer d = ctx.allocate("d", 4L * count * dim / 32);
        k.quantize(floats(x), q, d, count * dim);
        assertArrayEquals(java.util.Arrays.copyOf(act.scales(), count * dim / 32), download(d, count * dim / 32));
        byte[] quants = new byte[count * dim];
        MemorySegment host = arena.allocate(quants.length);
        jcuda.driver.JCudaDriver.cuMemcpyDtoH(jcuda.Pointer.to(host.asByteBuffer()), q.pointer(), quants.length);
        assertArrayEquals(java.util.Arrays.copyOf(act.quants(), count * dim), host.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE));
    }

    @Test
    void q8ProductsMatchTheScalarReference() {
        int rows = 200;
        int cols = 320;
        Tensor w = RandomTensors.tensor(GgmlType.Q8_0, rows, cols, new Random(2), arena);
        DeviceMatrix dw = matrix(w);
        for (int count : new int[] {1, 5, 8, 9, 40}) {
            float[] x = RandomTensors.activations(count, cols, new Random(count));
            Activations act = new Activations(count, cols).set(x, count, cols);
            act.prepare(dev.parley.engine.tensor.ActivationFormat.Q8_0);
            DeviceBuffer q = ctx.allocate("q", count * cols);
            DeviceBuffer d = ctx.allocate("d", 4L * count * cols / 32);
            DeviceBuffer out = ctx.allocate("out", 4L * count * rows);
            k.quantize(floats(x), q, d, count * cols);
            k.matmul(dw, q, d, out, count);
            float[] gpu = download(out, count * rows);
            for (int t = 0; t < count; t++) {
                for (int r = 0; r < rows; r++) {
                    float expected = w.dot(r, act, t);
                    float actual = gpu[t * rows + r];
                    if (count > KernelGrids.MMV_MAX_COUNT) {
                        assertEquals(expected, actual, "tiled product, count " + count + " (" + t + ", " + r + ")");
                    } else {
                        assertEquals(expected, actual, 1e-5f * Math.max(1f, Math.abs(expected)),
                                "matrix x vector, count " + count + " (" + t + ", " + r + ")");
                    }
                }
            }
        }
    }

    @Test
    void rmsNormArgmaxAndSoftmax() {
        int count = 3;
        int dim = 1000;
        float[] x = RandomTensors.activations(count, dim, new Random(4));
        float[] w = RandomTensors.activations(1, dim, new Random(5));
        DeviceBuffer out = ctx.allocate("out", 4L * count * dim);
        k.rmsNorm(floats(x), floats(w), out, count, dim, 1e-5f);
        float[] gpu = download(out, count * dim);
        for (int t = 0; t < count; t++) {
            double ss = 0;
            for (int i = 0; i < dim; i++) {
                ss += (double) (x[t * dim + i] * x[t * dim + i]);
            }
            float scale = 1f / (float) Math.sqrt((float) (ss / dim) + 1e-5f);
            for (int i = 0; i < dim; i++) {
                assertEquals((x[t * dim + i] * scale) * w[i], gpu[t * dim + i], 1e-6f, "rms_norm (" + t + ", " + i + ")");
            }
        }
        x[dim + 17] = 100f;
        x[dim + 900] = 100f; // a tie: the lower index wins
        DeviceBuffer logits = floats(x);
        DeviceBuffer best = ctx.allocate("best", 4L * count);
        k.argmax(logits, best, dim, count);
        int[] ids = new int[count];
        ctx.copy(best, ids, count);
        assertEquals(17, ids[1]);
        k.softmax(logits, dim, 1f, count);
        float[] p = download(logits, count * dim);
        for (int t = 0; t < count; t++) {
            double sum = 0;
            for (int i = 0; i < dim; i++) {
                sum += p[t * dim + i];
            }
            assertEquals(1.0, sum, 1e-4, "row " + t + " sums to 1");
        }
        assertTrue(p[dim + 17] > 0.49f && p[dim + 900] > 0.49f);
    }
}
