package dev.parley.engine.backend.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

/**
 * The committed PTX: one module per CUDA source, up to date with it, declaring every entry point the host launches,
 * and accepted by JCuda's PTX compiler (no GPU needed) for the oldest and newest targets Parley supports.
 */
class PtxResourcesTest {

    private static final Path SOURCES = Path.of("src/main/cuda");

    @Test
    void everyCudaSourceHasAModule() throws IOException {
        Set<String> sources;
        try (Stream<Path> files = Files.list(SOURCES)) {
            sources = files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".cu"))
                    .collect(Collectors.toCollection(TreeSet::new));
        }
        Set<String> modules = Stream.of(KernelModule.values()).map(KernelModule::sourceName)
                .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(sources, modules, "CUDA sources under " + SOURCES + " versus KernelModule");
    }

    @ParameterizedTest
    @EnumSource(KernelModule.class)
    void ptxIsUpToDateWithItsSource(KernelModule module) throws IOException, NoSuchAlgorithmException {
        byte[] source = Files.readAllBytes(SOURCES.resolve(module.sourceName()));
        String actual = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(source));
        assertEquals(actual, module.sourceSha256(), module.resourceName() + " is stale: run scripts/build-ptx.sh");
    }

    @ParameterizedTest
    @EnumSource(KernelModule.class)
    void ptxDeclaresEveryEntryPointAndAnIsaCuda12Accepts(KernelModule module) {
        String ptx = module.ptx();
        Matcher m = Pattern.compile("\\.visible \\.entry (\\w+)\\(").matcher(ptx);
        Set<String> entries = new TreeSet<>();
        while (m.find()) {
            entries.add(m.group(1));
        }
        assertEquals(new TreeSet<>(module.functions()), entries, module.resourceName() + " entry points");
        String[] isa = module.isaVersion().split("\\.");
        int major = Integer.parseInt(isa[0]);
        int minor = Integer.parseInt(isa[1]);
        assertTrue(major < 8 || (major == 8 && minor == 0),
                "expected a PTX ISA of at most 8.0 (CUDA 12.0) but found " + module.isaVersion());
    }

    @ParameterizedTest
    @EnumSource(KernelModule.class)
    void ptxCompilesWithJcudasPtxCompiler(KernelModule module) {
        for (String arch : List.of("sm_75", "sm_80", "sm_90")) {
            long bytes = PtxCompiler.compile(module.resourceName(), module.ptx(), arch);
            assertTrue(bytes > 0, module.resourceName() + " for " + arch + ": expected machine code but found none");
        }
    }
}
