package dev.parley.engine.backend.cuda;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The PTX modules of the CUDA backend: one per CUDA C file under {@code engine/src/main/cuda}, compiled by
 * {@code scripts/build-ptx.sh} into a class-path resource beside this class, with the entry points each one holds.
 */
public enum KernelModule {
    Q8_MATMUL("q8_matmul"),
    ELEMENTWISE("elementwise"),
    ROPE("rope"),
    ATTENTION("attention"),
    SAMPLING("sampling");

    /** The prefix of the first line that build-ptx.sh writes: {@code // parley-source NAME.cu sha256 HEX}. */
    static final String HEADER = "// parley-source ";

    private final String fileName;

    KernelModule(String fileName) {
        this.fileName = fileName;
    }

    /** The CUDA C source's name, e.g. {@code q8_matmul.cu}. */
    public String sourceName() {
        return fileName + ".cu";
    }

    /** The resource's name beside this class, e.g. {@code q8_matmul.ptx}. */
    public String resourceName() {
        return fileName + ".ptx";
    }

    /** The entry names of the {@link Kernel}s this module defines. */
    public List<String> functions() {
        return java.util.Arrays.stream(Kernel.values()).filter(k -> k.module() == this).map(Kernel::entry).toList();
    }

    /**
     * The PTX text, NUL-terminated as the driver wants it.
     *
     * @throws IllegalStateException when the resource is missing (the engine jar was built without it)
     */
    public String ptx() {
        try (InputStream in = KernelModule.class.getResourceAsStream(resourceName())) {
            if (in == null) {
                throw new IllegalStateException("expected the PTX resource " + resourceName() + " beside "
                        + KernelModule.class.getName() + " but found none: run scripts/build-ptx.sh");
            }
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + resourceName(), e);
        }
    }

    /**
     * The SHA-256 (hex) of the CUDA source that the PTX was compiled from, as recorded on its first line.
     *
     * @throws IllegalStateException when the first line is not build-ptx.sh's header
     */
    public String sourceSha256() {
        String text = ptx();
        int end = text.indexOf('\n');
        String first = end < 0 ? text : text.substring(0, end);
        String expectedStart = HEADER + sourceName() + " sha256 ";
        if (!first.startsWith(expectedStart) || first.length() != expectedStart.length() + 64) {
            throw new IllegalStateException("expected " + resourceName() + " to start with '" + expectedStart
                    + "<64 hex digits>' but found '" + first + "'");
        }
        return first.substring(expectedStart.length());
    }

    /** The PTX ISA version the module declares ({@code .version X.Y}). */
    public String isaVersion() {
        for (String line : ptx().split("\n")) {
            if (line.startsWith(".version ")) {
                return line.substring(".version ".length()).strip();
            }
        }
        throw new IllegalStateException("expected a .version line in " + resourceName() + " but found none");
    }
}
