package dev.parley.app.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.parley.app.Main;
import dev.parley.app.TestModels;
import dev.parley.engine.gguf.GgufFile;
import dev.parley.engine.tokenizer.ChatMessage;
import dev.parley.engine.tokenizer.ChatTemplate;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The official OpenAI Node client ({@code openai} on npm, the version pinned in
 * {@code src/test/node/package-lock.json}, installed with {@code npm ci} into {@code target/node-openai})
 * lists the models and asks for streamed and whole chat completions and a text completion; the texts
 * must equal what {@code parley generate} prints for the same greedy request. Skipped when node or npm
 * is not on the PATH, or when the npm registry cannot be reached to install the client.
 */
class OpenAiNodeClientTest {
    private static final String KEY = "node-test-key";
    private static final String PROMPT = "Once upon a time";

    @Test
    void theOpenAiNodeClientGetsWhatParleyGenerateProduces(@TempDir Path dir) throws Exception {
        assumeTrue(onPath("node") && onPath("npm"), "node and npm are not on the PATH: skipping the OpenAI Node "
                + "client test (install Node.js 20+ to run it)");
        Path project = installClient();
        Path model = TestModels.tiny(dir);
        JsonNode out;
        try (ServedModel served = ServedModel.start(model, 2048, KEY)) {
            String stdout = run(project, 180, "node", "client.mjs", served.baseUrl(), KEY, PROMPT);
            out = new ObjectMapper().readTree(stdout);
        }

        assertEquals("[\"tiny\"]", out.path("models").toString());
        ChatTemplate template;
        try (GgufFile gguf = GgufFile.open(model)) {
            template = ChatTemplate.detect(gguf.getString("tokenizer.chat_template", null));
        }
        String rendered = template.render(List.of(ChatMessage.system("Be brief."), ChatMessage.user("Hello there")),
                true);
        List<String> args = new ArrayList<>(List.of("generate", "--model", model.toString(), "--threads", "1",
                "--parse-special", "-n", "16", "--json", "--prompt", rendered));
        template.stopStrings().forEach(s -> args.addAll(List.of("--stop", s)));
        JsonNode chat = generate(args);
        JsonNode text = generate(List.of("generate", "--model", model.toString(), "--threads", "1", "-n", "16",
                "--json", "--prompt", PROMPT));

        assertTrue(chat.path("ids").size() > 0, chat.toString());
        assertEquals(chat.path("text").asText(), out.path("whole").asText(), out.toString());
        assertEquals(chat.path("text").asText(), out.path("streamed").asText(), out.toString());
        assertEquals(chat.path("ids").size(), out.at("/wholeUsage/completion_tokens").asInt(), out.toString());
        assertEquals(chat.path("prompt_ids").size(), out.at("/streamedUsage/prompt_tokens").asInt(), out.toString());
        assertTrue(out.path("chunks").asInt() >= 3, out.toString());
        assertEquals(text.path("text").asText(), out.path("completion").asText(), out.toString());
        assertEquals(404, out.at("/unknownModel/status").asInt(), out.toString());
        assertEquals("model_not_found", out.at("/unknownModel/code").asText(), out.toString());
    }

    private static JsonNode generate(List<String> args) throws IOException {
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        int code = Main.run(args.toArray(String[]::new), new PrintStream(stdout, true, StandardCharsets.UTF_8),
                new PrintStream(stderr, true, StandardCharsets.UTF_8), new ByteArrayInputStream(new byte[0]));
        assertEquals(0, code, stderr.toString(StandardCharsets.UTF_8));
        return new ObjectMapper().readTree(stdout.toString(StandardCharsets.UTF_8));
    }

    /** Copies the client project to target/ and runs npm ci there once (kept between runs). */
    private static Path installClient() throws Exception {
        Path source = Path.of("src/test/node");
        Path project = Path.of("target/node-openai");
        Files.createDirectories(project);
        for (String f : List.of("package.json", "package-lock.json", "client.mjs")) {
            Files.copy(source.resolve(f), project.resolve(f), StandardCopyOption.REPLACE_EXISTING);
        }
        Path installed = project.resolve("node_modules/openai/package.json");
        String pinned = new ObjectMapper().readTree(source.resolve("package.json").toFile())
                .at("/dependencies/openai").asText();
        if (!Files.exists(installed)
                || !pinned.equals(new ObjectMapper().readTree(installed.toFile()).path("version").asText())) {
            Result npm = start(project, 300, "npm", "ci", "--no-audit", "--no-fund", "--loglevel=error");
            boolean offline = npm.code() != 0 && NETWORK_ERRORS.matcher(npm.stderr()).find();
            assumeTrue(!offline, "the npm registry cannot be reached, so the OpenAI Node client cannot be "
                    + "installed: skipping (npm said: " + npm.stderr().strip() + ")");
            assertEquals(0, npm.code(), "npm ci failed:\n" + npm.stderr());
        }
        return project;
    }

    private static final java.util.regex.Pattern NETWORK_ERRORS =
            java.util.regex.Pattern.compile("ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|ENETUNREACH|ECONNRESET");

    private record Result(int code, String stdout, String stderr) {
    }

    private static String run(Path workDir, int timeoutSeconds, String... command) throws Exception {
        Result r = start(workDir, timeoutSeconds, command);
        assertEquals(0, r.code(), String.join(" ", command) + " failed:\n" + r.stderr() + "\n" + r.stdout());
        return r.stdout();
    }

    private static Result start(Path workDir, int timeoutSeconds, String... command) throws Exception {
        Path log = Files.createTempFile("parley-node", ".log");
        Process p = new ProcessBuilder(command).directory(workDir.toFile()).redirectError(log.toFile()).start();
        String stdout;
        try (var in = p.getInputStream()) {
            stdout = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " did not finish in " + timeoutSeconds + " s");
        }
        String stderr = Files.readString(log);
        Files.deleteIfExists(log);
        return new Result(p.exitValue(), stdout, stderr);
    }

    private static boolean onPath(String program) {
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String d : path.split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(d, program))) {
                return true;
            }
        }
        return false;
    }
}
