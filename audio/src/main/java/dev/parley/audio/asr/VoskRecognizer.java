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
        VoskStream s = new VoskStream(new Recognizer(model, sampleRate), sampleRate);
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
        JsonNode node = JSON.readTree(json);
        JsonNode v = node == null ? null : node.get(name);
        if (v == null || !v.isTextual()) {
            throw new IOException("expected a Vosk result with a \"" + name + "\" field but found " + json);
        }
        return v.asText();
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
                return new Transcript.Final(field(recognizer.getResult(), "text"));
            }
            return new Transcript.Partial(field(recognizer.getPartialResult(), "partial"));
        }

        @Override
        public synchronized Transcript.Final finish() throws IOException {
            ensureOpen();
            return new Transcript.Final(field(recognizer.getFinalResult(), "text"));
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
