package dev.parley.models.peer;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * llama.cpp itself, through the npm package {@code node-llama-cpp@3.21.1} (CPU build, 1 thread, F32 KV cache), driven
 * by the test resource {@code peer/greedy.mjs}. The package is looked for in {@code -Dparley.llamacpp=DIR}, then
 * {@code $LLAMACPP_DIR}, then {@code ../peer} beside the checkout (this machine's shared install), then
 * {@code .ci/llamacpp} in the checkout (where {@code .ci/run} installs it); tests skip with a message without it.
 */
public final class LlamaCppPeer {

    /** One greedy step: llama.cpp's choice and its top tokens with log-probabilities (logits minus a constant). */
    public record Step(int id, int[] topIds, double[] topLogProbs) {
        /** The log-probability gap between the first and the second token. */
        public double margin() {
            return topLogProbs.length > 1 ? topLogProbs[0] - topLogProbs[1] : Double.POSITIVE_INFINITY;
        }
    }

    private final Path folder;

    private LlamaCppPeer(Path folder) {
        this.folder = folder;
    }

    /** The folder holding {@code node_modules/node-llama-cpp}. */
    public Path folder() {
        return folder;
    }

    /** The installed peer; skips the calling test when node or the package is absent. */
    public static LlamaCppPeer require() {
        Path folder = find();
        assumeTrue(folder != null, "skipped: node-llama-cpp@3.21.1 is absent (set -Dparley.llamacpp=DIR or "
                + "LLAMACPP_DIR to a folder holding node_modules/node-llama-cpp; .ci/run installs it in .ci/llamacpp)");
        assumeTrue(nodeWorks(), "skipped: node is not on the PATH (needed to run llama.cpp through node-llama-cpp)");
        return new LlamaCppPeer(folder);
    }

    private static Path find() {
        List<Path> candidates = new ArrayList<>();
        String prop = System.getProperty("parley.llamacpp");
        if (prop != null) {
            candidates.add(Path.of(prop));
        }
        String env = System.getenv("LLAMACPP_DIR");
        if (env != null) {
            candidates.add(Path.of(env));
        }
        Path dir = Path.of("").toAbsolutePath();
        for (int i = 0; i < 4 && dir != null; i++, dir = dir.getParent()) {
            candidates.add(dir.resolveSibling("peer"));
            candidates.add(dir.resolve(".ci/llamacpp"));
        }
        for (Path c : candidates) {
            if (Files.isRegularFile(c.resolve("node_modules/node-llama-cpp/package.json"))) {
                return c.toAbsolutePath().normalize();
            }
        }
        return null;
    }

    private static boolean nodeWorks() {
        try {
            Process p = new ProcessBuilder("node", "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** {@code steps} greedy steps of llama.cpp on {@code model} after {@code prompt}, with the top {@code topK} of each. */
    public List<Step> greedy(Path model, int[] prompt, int steps, int topK, Path scratch) throws IOException,
            InterruptedException {
        Path script = scratch.resolve("greedy.mjs");
        try (InputStream in = LlamaCppPeer.class.getResourceAsStream("greedy.mjs")) {
            if (in == null) {
                throw new IOException("missing test resource dev/parley/models/peer/greedy.mjs");
            }
            Files.write(script, in.readAllBytes());
        }
        ProcessBuilder pb = new ProcessBuilder("node", script.toString(), model.toString(), Arrays.toString(prompt),
                Integer.toString(steps), Integer.toString(topK));
        pb.environment().put("NLC_DIR", folder.toString());
        Path err = scratch.resolve("greedy.err");
        pb.redirectError(err.toFile());
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(300, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IOException("llama.cpp (node greedy.mjs) failed on " + model.getFileName() + ": "
                    + Files.readString(err, StandardCharsets.UTF_8));
        }
        JsonNode root = new ObjectMapper().readTree(out);
        List<Step> result = new ArrayList<>();
        for (JsonNode s : root.get("steps")) {
            JsonNode top = s.get("top");
            int[] ids = new int[top.size()];
            double[] lp = new double[top.size()];
            for (int i = 0; i < ids.length; i++) {
                ids[i] = top.get(i).get(0).asInt();
                lp[i] = top.get(i).get(1).asDouble();
            }
            result.add(new Step(s.get("id").asInt(), ids, lp));
        }
        return result;
    }
}
