package dev.parley.audio.vad;

import ai.onnxruntime.NodeInfo;
import ai.onnxruntime.OnnxJavaType;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import ai.onnxruntime.TensorInfo;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * One ONNX Runtime session of the Silero VAD v5 model. Its signature, as the model file declares it: inputs
 * {@code input} float [batch, samples] (64 samples of context, then a 512-sample window at 16 kHz), {@code state}
 * float [2, batch, 128] and {@code sr} int64 scalar; outputs {@code output} float [batch, 1] (the speech
 * probability) and {@code stateN} (the next state). Batch 1 here. Not thread-safe; {@link #close()} frees the
 * session and the tensors it keeps.
 */
final class SileroSession implements AutoCloseable {
    static final int CONTEXT = 64;
    static final int INPUT = CONTEXT + SileroVadSettings.WINDOW;
    static final int STATE = 2 * 128;
    private static final long[] INPUT_SHAPE = {1, INPUT};
    private static final long[] STATE_SHAPE = {2, 1, 128};

    private final OrtEnvironment env;
    private final OrtSession session;
    private final OnnxTensor rate;
    private final FloatBuffer input = direct(INPUT);
    private final FloatBuffer state = direct(STATE);
    private boolean closed;

    private SileroSession(OrtEnvironment env, OrtSession session, OnnxTensor rate) {
        this.env = env;
        this.session = session;
        this.rate = rate;
    }

    /** Opens {@code model} on one thread; fails with a message naming the file when it is not a Silero v5 model. */
    static SileroSession open(OrtEnvironment env, Path model) throws IOException {
        if (!Files.isRegularFile(model)) {
            throw new IOException("no Silero VAD model file at " + model);
        }
        OrtSession session = null;
        try (OrtSession.SessionOptions options = new OrtSession.SessionOptions()) {
            // one window is 0.2-0.6 ms of work: thread pools would cost more than they save, and each session
            // would add native threads
            options.setIntraOpNumThreads(1);
            options.setInterOpNumThreads(1);
            options.setExecutionMode(OrtSession.SessionOptions.ExecutionMode.SEQUENTIAL);
            session = env.createSession(model.toString(), options);
            checkSignature(session, model);
            OnnxTensor rate = OnnxTensor.createTensor(env, (long) SileroVadSettings.SAMPLE_RATE);
            return new SileroSession(env, session, rate);
        } catch (OrtException e) {
            closeQuietly(session);
            throw new IOException("cannot load the Silero VAD model " + model + ": " + e.getMessage(), e);
        } catch (IOException | RuntimeException e) {
            closeQuietly(session);
            throw e;
        }
    }

    private static void checkSignature(OrtSession session, Path model) throws IOException, OrtException {
        Map<String, NodeInfo> in = session.getInputInfo();
        Map<String, NodeInfo> out = session.getOutputInfo();
        boolean ok = in.size() == 3 && isTensor(in.get("input"), OnnxJavaType.FLOAT)
                && isTensor(in.get("state"), OnnxJavaType.FLOAT)
                && isTensor(in.get("sr"), OnnxJavaType.INT64)
                && isTensor(out.get("output"), OnnxJavaType.FLOAT)
                && isTensor(out.get("stateN"), OnnxJavaType.FLOAT);
        if (!ok) {
            throw new IOException("expected a Silero VAD v5 model (inputs input, state, sr; outputs output, stateN) but "
                    + model + " has inputs " + in.keySet() + " and outputs " + out.keySet());
        }
    }

    private static boolean isTensor(NodeInfo info, OnnxJavaType type) {
        return info != null && info.getInfo() instanceof TensorInfo t && t.type == type;
    }

    /**
     * The speech probability of {@code samples} (context then window, {@link #INPUT} values in [-1, 1]), reading
     * and then replacing {@code recurrent} ({@link #STATE} values).
     */
    float run(float[] samples, float[] recurrent) {
        if (closed) {
            throw new IllegalStateException("the Silero VAD session is closed");
        }
        input.clear();
        input.put(samples, 0, INPUT).flip();
        state.clear();
        state.put(recurrent, 0, STATE).flip();
        try (OnnxTensor x = OnnxTensor.createTensor(env, input, INPUT_SHAPE);
             OnnxTensor s = OnnxTensor.createTensor(env, state, STATE_SHAPE);
             OrtSession.Result result = session.run(Map.of("input", x, "state", s, "sr", rate))) {
            float p = ((OnnxTensor) result.get("output").orElseThrow()).getFloatBuffer().get(0);
            FloatBuffer next = ((OnnxTensor) result.get("stateN").orElseThrow()).getFloatBuffer();
            next.get(recurrent, 0, STATE);
            return p;
        } catch (OrtException e) {
            throw new IllegalStateException("Silero VAD inference failed: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        rate.close();
        closeQuietly(session);
    }

    private static void closeQuietly(OrtSession session) {
        if (session != null) {
            try {
                session.close();
            } catch (OrtException e) {
                // nothing more can be freed
            }
        }
    }

    private static FloatBuffer direct(int floats) {
        return ByteBuffer.allocateDirect(floats * Float.BYTES).order(ByteOrder.nativeOrder()).asFloatBuffer();
    }
}
