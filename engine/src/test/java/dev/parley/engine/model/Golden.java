package dev.parley.engine.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.parley.engine.SharedFixtures;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** llama.cpp's outputs for one parity model, read from {@code parity/goldens/<model>.golden.json}. */
record Golden(String model, Path gguf, List<Run> cases, Run batchTurn1, Run batchTurn2, int firstFedPos) {

    /** One greedy run: what is fed, what llama.cpp generated and the top-5 logits per step. */
    record Run(String name, int[] fedIds, int[] generatedIds, List<float[][]> top5, float[] step0Logits) {
    }

    static Golden load(String model) throws IOException {
        Path gguf = SharedFixtures.require("parity/" + model + ".gguf");
        Path dir = gguf.resolveSibling("goldens");
        JsonNode root = new ObjectMapper().readTree(dir.resolve(model + ".golden.json").toFile());
        List<Run> cases = new ArrayList<>();
        for (JsonNode c : root.get("cases")) {
            cases.add(run(dir, c.get("name").asText(), c, ints(c.get("prompt_ids"))));
        }
        JsonNode batch = root.get("batch");
        Run turn1 = run(dir, "batch/turn1", batch.get("turn1"), ints(batch.get("turn1").get("prompt_ids")));
        JsonNode t2 = batch.get("turn2");
        Run turn2 = run(dir, "batch/turn2", t2, ints(t2.get("fed_ids")));
        return new Golden(model, gguf, cases, turn1, turn2, t2.get("first_fed_pos").asInt());
    }

    private static Run run(Path dir, String name, JsonNode c, int[] fed) throws IOException {
        List<float[][]> top5 = new ArrayList<>();
        for (JsonNode step : c.get("steps")) {
            JsonNode t = step.get("top5");
            float[][] pairs = new float[t.size()][];
            for (int i = 0; i < t.size(); i++) {
                pairs[i] = new float[] {t.get(i).get(0).asInt(), (float) t.get(i).get(1).asDouble()};
            }
            top5.add(pairs);
        }
        byte[] bytes = Files.readAllBytes(dir.resolve(c.get("step0_logits").get("file").asText()));
        float[] logits = new float[bytes.length / 4];
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(logits);
        return new Run(name, fed, ints(c.get("generated_ids")), top5, logits);
    }

    private static int[] ints(JsonNode array) {
        int[] r = new int[array.size()];
        for (int i = 0; i < r.length; i++) {
            r[i] = array.get(i).asInt();
        }
        return r;
    }
}
