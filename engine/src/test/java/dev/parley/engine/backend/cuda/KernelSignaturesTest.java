package dev.parley.engine.backend.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import jcuda.driver.CUdeviceptr;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every launch the host makes, checked without a GPU against the kernels as written and as compiled: the arguments
 * {@link CudaKernels} packs carry the names, order and kinds (pointer, int, float) of the parameters of the CUDA C
 * signature, and the PTX entry declares the same number of parameters of the matching widths.
 */
class KernelSignaturesTest {

    private static final Pattern SIGNATURE = Pattern.compile(
            "extern \"C\" __global__ void\\s+(?:__launch_bounds__\\(\\d+\\)\\s+)?(\\w+)\\s*\\(([^)]*)\\)");
    private static final Pattern PTX_ENTRY = Pattern.compile("\\.visible \\.entry (\\w+)\\(([^)]*)\\)");
    private static final Pattern PTX_PARAM = Pattern.compile("\\.param \\.(\\w+)");

    record Param(String name, KernelArgs.Kind kind) {
    }

    private static final Map<String, List<Param>> SOURCE = new HashMap<>();
    private static final Map<String, List<KernelArgs.Kind>> PTX = new HashMap<>();

    @BeforeAll
    static void parse() throws IOException {
        for (KernelModule m : KernelModule.values()) {
            Matcher s = SIGNATURE.matcher(Files.readString(Path.of("src/main/cuda", m.sourceName())));
            while (s.find()) {
                List<Param> params = new ArrayList<>();
                for (String p : s.group(2).split(",")) {
                    String decl = p.strip();
                    String name = decl.substring(decl.lastIndexOf(' ') + 1).replace("*", "");
                    KernelArgs.Kind kind = decl.contains("*") ? KernelArgs.Kind.POINTER
                            : decl.startsWith("float") ? KernelArgs.Kind.FLOAT : KernelArgs.Kind.INT;
                    params.add(new Param(name, kind));
                }
                SOURCE.put(s.group(1), params);
            }
            Matcher e = PTX_ENTRY.matcher(m.ptx());
            while (e.find()) {
                List<KernelArgs.Kind> kinds = new ArrayList<>();
                Matcher p = PTX_PARAM.matcher(e.group(2));
                while (p.find()) {
                    kinds.add(switch (p.group(1)) {
                        case "u64" -> KernelArgs.Kind.POINTER;
                        case "u32", "s32" -> KernelArgs.Kind.INT;
                        case "f32" -> KernelArgs.Kind.FLOAT;
                        default -> throw new IllegalStateException("unexpected PTX parameter type " + p.group(1));
                    });
                }
                PTX.put(e.group(1), kinds);
            }
        }
    }

    private static DeviceBuffer buffer(String name) {
        return new DeviceBuffer(name, new CUdeviceptr(), 1 << 20);
    }

    @Test
    void everyLaunchMatchesTheKernelsSignatureInSourceAndPtx() {
        Map<Kernel, KernelArgs> launches = new EnumMap<>(Kernel.class);
        CudaKernels k = new CudaKernels((kernel, grid, args) -> launches.put(kernel, args));
        DeviceMatrix w = new DeviceMatrix("w", buffer("q"), buffer("s"), 64, 128);
        DeviceBuffer b = buffer("b");
        CUdeviceptr cache = new CUdeviceptr();
        k.matmul(w, b, b, b, 1);
        k.matmul(w, b, b, b, 9);
        k.quantize(b, b, b, 128);
        k.embed(w, b, b, 2);
        k.rmsNorm(b, b, b, 2, 128, 1e-5f);
        k.addInPlace(b, b, 256);
        k.addBias(b, b, 96, 96, 2);
        k.siluMul(b, b, 96, 2);
        k.gatherRows(b, b, b, 128, 2);
        k.rope(b, b, b, null, 96, 6, 16, 8, true, 1f, 2);
        k.kvStore(b, cache, cache, b, 96, 64, 80, 16, 2);
        k.attention(b, cache, cache, b, b, b, b, 96, 4, 16, 16, 4, 16, 64, 0.25f, 2);
        k.argmax(b, b, 1000, 2);
        k.softmax(b, 1000, 1f, 2);
        assertEquals(Kernel.values().length, launches.size(), "every kernel launched: " + launches.keySet());
        for (var e : launches.entrySet()) {
            String entry = e.getKey().entry();
            List<Param> source = SOURCE.get(entry);
            assertNotNull(source, entry + " in the CUDA sources");
            assertEquals(source.stream().map(Param::name).toList(), e.getValue().names(), entry + ": parameter names");
            assertEquals(source.stream().map(Param::kind).toList(), e.getValue().kinds(), entry + ": parameter kinds");
            assertEquals(PTX.get(entry), e.getValue().kinds(), entry + ": PTX parameters");
        }
    }

    @Test
    void theSignatureParserReadsTheLaunchBoundsKernelToo() {
        List<Param> mmq = SOURCE.get("mmq_q8");
        assertEquals(8, mmq.size());
        assertEquals(new Param("wq", KernelArgs.Kind.POINTER), mmq.getFirst());
        assertEquals(new Param("count", KernelArgs.Kind.INT), mmq.getLast());
    }
}
