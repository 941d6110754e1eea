package dev.parley.app.gui.models;

import dev.parley.models.catalog.CatalogEntry;
import dev.parley.models.download.CancelToken;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyDoubleProperty;
import javafx.beans.property.ReadOnlyDoubleWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;

/**
 * One row of the model manager: a catalog language model or a GGUF file on this computer, with what the list shows
 * (name, family, size on disk, memory needed) and its observable state. Changed only on the FX thread by
 * {@link ModelManagerViewModel}.
 */
public final class ModelItem {
    private static final Pattern SIZE_TOKEN = Pattern.compile("-\\d+(?:\\.\\d+)?[MB]\\b");

    private final String key;
    private final CatalogEntry entry;
    private final Path file;
    private final String name;
    private final String family;
    private final MemoryEstimate shape;
    private final int contextLength;
    private final String unsupported;

    private final ReadOnlyObjectWrapper<ModelState> state = new ReadOnlyObjectWrapper<>(ModelState.AVAILABLE);
    private final ReadOnlyDoubleWrapper progress = new ReadOnlyDoubleWrapper(-1);
    private final ReadOnlyStringWrapper detail = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper memory = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper sizeText = new ReadOnlyStringWrapper("");
    private final ReadOnlyBooleanWrapper inUse = new ReadOnlyBooleanWrapper();
    private long sizeBytes;
    private CancelToken cancel;
    private boolean discardOnStop;

    private ModelItem(String key, CatalogEntry entry, Path file, String name, String family, long sizeBytes,
                      MemoryEstimate shape, int contextLength, String unsupported) {
        this.key = key;
        this.entry = entry;
        this.file = file;
        this.name = name;
        this.family = family;
        this.shape = shape;
        this.contextLength = contextLength;
        this.unsupported = unsupported;
        size(sizeBytes);
    }

    /** A catalog language model that lives at {@code file} once installed. */
    static ModelItem of(CatalogEntry entry, Path file) {
        var s = entry.shape();
        return new ModelItem(entry.id(), entry, file, entry.name(), family(entry.name()),
                entry.sizeBytes() == null ? -1 : entry.sizeBytes(),
                s == null ? null : new MemoryEstimate(s.blockCount(), s.headCountKv(), s.headDim()),
                entry.contextLength() == null ? 0 : entry.contextLength(), null);
    }

    /** A GGUF file on this computer, from the figures of its header. */
    static ModelItem ofFile(Path file, dev.parley.models.store.ModelInfo info) {
        ModelItem item = new ModelItem("file:" + file.toAbsolutePath().normalize(), null, file.toAbsolutePath().normalize(),
                info.name(), info.architecture(), info.fileSize(),
                new MemoryEstimate(info.blockCount(), info.headCountKv(), info.headDim()), info.contextLength(),
                info.engineSupport());
        item.state(ModelState.INSTALLED);
        return item;
    }

    /** "SmolLM2" from "SmolLM2-135M-Instruct (Q8_0)", "Llama 3.2" from "Llama-3.2-1B-Instruct": the name before its size. */
    static String family(String name) {
        Matcher m = SIZE_TOKEN.matcher(name);
        String head = m.find() ? name.substring(0, m.start()) : name.split(" ")[0];
        return head.replace('-', ' ').strip();
    }

    /** The catalog id, or {@code file:PATH} for a file outside the catalog. */
    public String key() {
        return key;
    }

    /** A name usable in a node id: letters, digits and dashes. */
    public String idSuffix() {
        return key.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-");
    }

    public Optional<CatalogEntry> entry() {
        return Optional.ofNullable(entry);
    }

    /** Where the model file is (or will be, once downloaded). */
    public Path file() {
        return file;
    }

    public String name() {
        return name;
    }

    public String family() {
        return family;
    }

    /** The model's own longest context, 0 when unknown. */
    public int contextLength() {
        return contextLength;
    }

    /** Why the engine cannot run this file, or null when it can. */
    public String unsupported() {
        return unsupported;
    }

    MemoryEstimate shape() {
        return shape;
    }

    /** Bytes on disk when installed, else the download size; -1 when unknown. */
    public long sizeBytes() {
        return sizeBytes;
    }

    void size(long bytes) {
        sizeBytes = bytes;
        sizeText.set(bytes < 0 ? "unknown" : dev.parley.models.download.Bytes.human(bytes));
    }

    public ReadOnlyObjectProperty<ModelState> stateProperty() {
        return state.getReadOnlyProperty();
    }

    public ModelState state() {
        return state.get();
    }

    void state(ModelState s) {
        state.set(s);
    }

    /** Download progress in [0, 1], or -1 when none is known. */
    public ReadOnlyDoubleProperty progressProperty() {
        return progress.getReadOnlyProperty();
    }

    void progress(double p) {
        progress.set(p);
    }

    /** A line under the name: download figures, what went wrong, or nothing. */
    public ReadOnlyStringProperty detailProperty() {
        return detail.getReadOnlyProperty();
    }

    void detail(String text) {
        detail.set(text);
    }

    /** "1.2 GB at 4096 tokens, KV f16". */
    public ReadOnlyStringProperty memoryProperty() {
        return memory.getReadOnlyProperty();
    }

    void memory(String text) {
        memory.set(text);
    }

    public ReadOnlyStringProperty sizeTextProperty() {
        return sizeText.getReadOnlyProperty();
    }

    /** Whether this is the model the settings load. */
    public ReadOnlyBooleanProperty inUseProperty() {
        return inUse.getReadOnlyProperty();
    }

    void inUse(boolean on) {
        inUse.set(on);
    }

    CancelToken cancel() {
        return cancel;
    }

    void cancel(CancelToken token) {
        cancel = token;
    }

    /** Whether the running download, once stopped, deletes its part file (cancel) or keeps it (pause). */
    boolean discardOnStop() {
        return discardOnStop;
    }

    void discardOnStop(boolean discard) {
        discardOnStop = discard;
    }
}
