package dev.parley.audio.asr;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.parley.audio.PcmAudio;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.vosk.LibVosk;
import org.vosk.LogLevel;
import org.vosk.Model;
import org.vosk.Recognizer;

/**
 * Speech recognition with Vosk (libvosk through JNA): one {@link Model} loaded from a model folder
 * and shared, one native {@link Recognizer} per {@link RecognitionStream}. The folder is checked
 * before libvosk sees it, so a missing or partial model gives a clear {@link IOException} instead
 * of native errors.
 */
public final class VoskRecognizer implements SpeechRecognizer {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Model model;
    private final Path dir;
    private final List<VoskStream> open = new ArrayList<>();
    private boolean closed;

    private VoskRecognizer(Model model, Path dir) {
        this.model = model;
        this.dir = dir;
    }

    /** Loads the Vosk model in {@code modelDir} (about 0.5 s for the small models). */
    public static VoskRecognizer load(Path modelDir) throws IOException {
        checkModelFolder(modelDir);
        LibVosk.setLogLevel(LogLevel.WARNINGS);
        try {
            return new VoskRecognizer(new Model(modelDir.toString()), modelDir);
        } catch (IOException e) {
            throw new IOException("Vosk could not load the model in " + modelDir
                    + ": expected a valid Vosk model (am/final.mdl, conf/model.conf, graph/) but libvosk refused it ("
                    + e.getMessage() + ")", e);
        }
    }

    /** Throws a clear exception unless {@code dir} looks like a Vosk model folder. */
    public static void checkModelFolder(Path dir) throws IOException {
        if (dir == null || !Files.isDirectory(dir)) {
            throw new IOException("no Vosk model in " + dir + ": expected a folder holding am/final.mdl, conf/model.conf and graph/ but found "
                    + (dir != null && Files.exists(dir) ? "a file" : "nothing"));
        }
        boolean am = Files.isRegularFile(dir.resolve("am/final.mdl"));
        boolean conf = Files.isRegularFile(dir.resolve("conf/model.conf"));
        boolean graph = Files.isRegularFile(dir.resolve("graph/HCLG.fst"))
                || (Files.isRegularFile(dir.resolve("graph/HCLr.fst")) && Files.isRegularFile(dir.resolve("graph/Gr.fst")));
        if (!am || !conf || !graph) {
            List<String> found;
            try (Stream<Path> s = Files.list(dir)) {
                found = s.map(p -> p.getFileName() + (Files.isDirectory(p) ? "/" : "")).sorted().toList();
            }
            throw new IOException("no Vosk model in " + dir + ": expected am/final.mdl, conf/model.conf and graph/HCLG.fst "
                    + "(or graph/HCLr.fst + graph/Gr.fst) but found " + (found.isEmpty() ? "an empty folder" : found)
                    + "; download one (e.g. vosk-model-small-en-us-0.15) and unpack it there");
        }
        if (Files.size(dir.resolve("am/final.mdl")) == 0) {
            throw new IOException("no Vosk model in " + dir + ": expected a non-empty am/final.mdl but found an empty file");
        }
    }

    /** The model folder. */
    public Path modelDir() {
        return dir;
    }

    @Override
    public synchronized RecognitionStream openStream(int sampleRate) throws IOException {
        if (closed) {
            throw new IllegalStateException("the Vosk recognizer for " + dir + " is closed");
        }
        Recognizer r = new Recognizer(model, sampleRate);
        r.setWords(true);           // word confidences, for finalResult
        VoskStream s = new VoskStream(r, sampleRate);
        open.add(s);
        return s;
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (VoskStream s : List.copyOf(open)) {
            s.close();
        }
        model.close();
    }

    /** Extracts the {@code text} (final) or {@code partial} field of a Vosk JSON result. */
    static String field(String json, String name) throws IOException {
        return field(JSON.readTree(json), name, json);
    }

    private static String field(JsonNode node, String name, String json) throws IOException {
        JsonNode v = node == null ? null : node.get(name);
        if (v == null || !v.isTextual()) {
            throw new IOException("expected a Vosk result with a \"" + name + "\" field but found " + json);
        }
        return v.asText();
    }

    /**
     * A word of a final result below this confidence is not sure: Vosk itself doubts it (noise or echo residue made
     * into a word). The voice loop drops such words from what it hears over its reply (see {@link #finalResult}).
     */
    static final double MIN_WORD_CONFIDENCE = 0.5;
    /**
     * A final result of one word needs this confidence: alone, noise comes out as one short word ("one", "no"). The
     * words at this confidence and above are {@link Transcript.Final#certain()}.
     */
    static final double MIN_SINGLE_WORD_CONFIDENCE = 0.9;

    /**
     * A final Vosk result (with {@code setWords(true)}: a {@code result} array of words with their {@code conf}),
     * parsed once: its text, and as {@link Transcript.Final#sure()} the words without those Vosk doubts. Measured with
     * the fixture recognizer on its recordings in fan, babble and café beds (docs/audio.md): the words it made of noise
     * after a question had confidences of 0.29-0.89 ("no", "five", "nine", "one"), those of the questions 1.0 but for
     * two of 30 (0.85 and 0.90); a result of several words shares one confidence (the grammar makes a sentence one
     * path). A result without word details is all sure.
     */
    static Transcript.Final finalResult(String json) throws IOException {
        JsonNode node = JSON.readTree(json);
        String text = field(node, "text", json);
        JsonNode words = node.get("result");
        if (words == null || !words.isArray() || words.isEmpty()) {
            return new Transcript.Final(text);
        }
        List<String> kept = new ArrayList<>();
        List<String> certain = new ArrayList<>();
        for (JsonNode w : words) {
            JsonNode word = w.get("word");
            JsonNode conf = w.get("conf");
            if (word == null || !word.isTextual() || conf == null || !conf.isNumber()) {
                throw new IOException("expected Vosk words with \"word\" and \"conf\" but found " + w);
            }
            if (conf.asDouble() >= MIN_WORD_CONFIDENCE) {
                kept.add(word.asText());
            }
            if (conf.asDouble() >= MIN_SINGLE_WORD_CONFIDENCE) {
                certain.add(word.asText());
            }
        }
        boolean doubtedAlone = words.size() == 1 && words.get(0).get("conf").asDouble() < MIN_SINGLE_WORD_CONFIDENCE;
        return new Transcript.Final(text, doubtedAlone ? "" : String.join(" ", kept), String.join(" ", certain));
    }

    private final class VoskStream implements RecognitionStream {
        private final Recognizer recognizer;
        private final int rate;
        private boolean streamClosed;

        VoskStream(Recognizer recognizer, int rate) {
            this.recognizer = recognizer;
            this.rate = rate;
        }

        @Override
        public int sampleRate() {
            return rate;
        }

        @Override
        public synchronized Transcript accept(PcmAudio audio) throws IOException {
            if (audio.sampleRate() != rate) {
                throw new IllegalArgumentException("expected " + rate + " Hz audio but found " + audio.sampleRate() + " Hz");
            }
            ensureOpen();
            if (recognizer.acceptWaveForm(audio.samples(), audio.length())) {
                return finalResult(recognizer.getResult());
            }
            return new Transcript.Partial(field(recognizer.getPartialResult(), "partial"));
        }

        @Override
        public synchronized Transcript.Final finish() throws IOException {
            ensureOpen();
            return finalResult(recognizer.getFinalResult());
        }

        @Override
        public synchronized void reset() {
            ensureOpen();
            recognizer.reset();
        }

        private void ensureOpen() {
            if (streamClosed) {
                throw new IllegalStateException("this recognition stream is closed");
            }
        }

        @Override
        public void close() {
            synchronized (this) {
                if (streamClosed) {
                    return;
                }
                streamClosed = true;
                recognizer.close();
            }
            synchronized (VoskRecognizer.this) {
                open.remove(this);
            }
        }
    }
}
