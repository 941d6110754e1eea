package dev.parley.models.store;

import dev.parley.engine.gguf.GgmlType;
import dev.parley.engine.gguf.GgufException;
import dev.parley.engine.gguf.GgufFile;
import dev.parley.engine.gguf.GgufTensorInfo;
import dev.parley.engine.model.Configuration;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * What a GGUF model file holds, read from its header: name, architecture, parameters (the sum of tensor elements),
 * tensor types with counts, file size, context length, chat template, the transformer shape, and from the shape the
 * KV cache size per token (F32 cache: {@code 2 * layers * kv heads * head dim * 4}) and the memory needed for a
 * given context. The shape is the engine's own {@link Configuration} when the engine runs this architecture;
 * otherwise it is read from the generic {@code {arch}.*} keys and {@code engineSupport} says why the engine cannot
 * run it ({@code null} when it can).
 */
public record ModelInfo(
        String name,
        String architecture,
        long parameterCount,
        Map<String, Integer> tensorTypeCounts,
        long fileSize,
        int contextLength,
        String chatTemplate,
        ChatTemplateFamily chatTemplateFamily,
        int embeddingLength,
        int blockCount,
        int headCount,
        int headCountKv,
        int headDim,
        int feedForwardLength,
        int vocabSize,
        String engineSupport) {

    public ModelInfo {
        tensorTypeCounts = Collections.unmodifiableMap(new TreeMap<>(tensorTypeCounts));
    }

    /** Reads the figures of an open GGUF file. */
    public static ModelInfo from(GgufFile gguf) throws GgufException {
        String arch = gguf.getString("general.architecture");
        long params = 0;
        Map<String, Integer> types = new TreeMap<>();
        for (GgufTensorInfo t : gguf.tensors()) {
            params += t.elementCount();
            types.merge(t.type().name(), 1, Integer::sum);
        }
        String template = gguf.getString("tokenizer.chat_template", null);
        String name = gguf.getString("general.name", gguf.path().getFileName().toString());
        Configuration c;
        try {
            c = Configuration.fromGguf(gguf);
        } catch (GgufException e) {
            return generic(gguf, arch, name, params, types, template, e.getMessage());
        }
        return new ModelInfo(name, arch, params, types, gguf.fileSize(), c.contextLength(), template,
                ChatTemplateFamily.of(template), c.dim(), c.layers(), c.heads(), c.kvHeads(), c.headSize(), c.ffnDim(),
                c.vocabSize(), null);
    }

    /** The figures of an architecture the engine does not run, from the generic keys. */
    private static ModelInfo generic(GgufFile gguf, String arch, String name, long params, Map<String, Integer> types,
                                     String template, String why) throws GgufException {
        String p = arch + ".";
        int dim = gguf.getInt(p + "embedding_length");
        int layers = gguf.getInt(p + "block_count");
        int heads = gguf.getInt(p + "attention.head_count");
        int kvHeads = gguf.getInt(p + "attention.head_count_kv", heads);
        if (heads <= 0 || kvHeads <= 0 || layers <= 0 || dim <= 0) {
            throw new GgufException(gguf.path().getFileName() + ": expected positive " + arch
                    + " shape but found dim " + dim + ", layers " + layers + ", heads " + heads + ", kv heads "
                    + kvHeads);
        }
        int headDim = gguf.getInt(p + "attention.key_length", dim / heads);
        int vocab = gguf.has("tokenizer.ggml.tokens") ? gguf.getStrings("tokenizer.ggml.tokens").length
                : gguf.getInt(p + "vocab_size", 0);
        return new ModelInfo(
                name, arch, params, types, gguf.fileSize(),
                gguf.getInt(p + "context_length", 0),
                template, ChatTemplateFamily.of(template),
                dim, layers, heads, kvHeads, headDim,
                gguf.getInt(p + "feed_forward_length", 0),
                vocab, why);
    }

    /** Opens, reads and closes a GGUF file. */
    public static ModelInfo read(Path file) throws IOException {
        try (GgufFile gguf = GgufFile.open(file)) {
            return from(gguf);
        }
    }

    /** KV cache bytes per token of context, for an F32 cache. */
    public long kvBytesPerToken() {
        return 2L * blockCount * headCountKv * headDim * Float.BYTES;
    }

    /** Memory to run at {@code contextTokens}: the mapped weights file plus the KV cache. */
    public long memoryBytes(int contextTokens) {
        return fileSize + kvBytesPerToken() * contextTokens;
    }

    /** "dim/layers/heads/kv heads/head dim/ffn", as in the fixture manifest. */
    public String shapeSummary() {
        return embeddingLength + "/" + blockCount + "/" + headCount + "/" + headCountKv + "/" + headDim + "/"
                + feedForwardLength;
    }

    /** "F32 x9, Q8_0 x30": tensor types by name with their counts. */
    public String tensorTypesSummary() {
        return tensorTypeCounts.entrySet().stream().map(e -> e.getKey() + " x" + e.getValue())
                .collect(Collectors.joining(", "));
    }

    /** Whether every tensor type can be computed by the engine. */
    public boolean allTypesSupported() {
        return tensorTypeCounts.keySet().stream().allMatch(t -> GgmlType.valueOf(t).supported());
    }
}
