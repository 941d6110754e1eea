package dev.parley.engine.gguf;

import java.util.Map;
import java.util.Random;

/**
 * Seeds of {@link KQuantFuzzTest}: blocks of each K-quant type with plausible scales, and a GGUF file with one
 * tensor of each K-quant type (1-D, 2-D and 3-D). {@link KQuantSeedsTest} checks that the committed files are
 * these bytes.
 */
final class KQuantSeeds {

    private KQuantSeeds() {
    }

    /** Seeds of {@code decodeAnyBlocks}: method name, then file name to bytes. */
    static Map<String, Map<String, byte[]>> all() {
        return Map.of("decodeAnyBlocks", Map.of("q4_k.bin", blocks(0, 144, 0, 2), "q5_k.bin", blocks(1, 176, 0, 2),
                        "q6_k.bin", blocks(2, 210, 208, -1)),
                "kQuantTensorMetadata", Map.of("kquant-tensors.gguf", file()));
    }

    /** Header bytes (type, one row of 256, exact length, one token) and one block with an FP16 scale at {@code d}. */
    private static byte[] blocks(int type, int size, int d, int dmin) {
        byte[] b = new byte[3 + size];
        new Random(type).nextBytes(b);
        b[0] = (byte) type;
        b[1] = 0;
        b[2] = 0;
        setHalf(b, 3 + d, 0.01f);
        if (dmin >= 0) {
            setHalf(b, 3 + dmin, 0.005f);
        }
        return b;
    }

    private static void setHalf(byte[] b, int at, float v) {
        short h = Float.floatToFloat16(v);
        b[at] = (byte) h;
        b[at + 1] = (byte) (h >> 8);
    }

    /** Three K-quant tensors: Q4_K [256], Q5_K [256, 2], Q6_K [256, 1, 2]. */
    static byte[] file() {
        GgufBytes b = GgufBytes.header(3, 1);
        b.key("general.name", GgufValueType.STRING).string("k-quant seed");
        b.tensor("a", GgmlType.Q4_K, 0, 256);
        b.tensor("b", GgmlType.Q5_K, 160, 256, 2);
        b.tensor("c", GgmlType.Q6_K, 512, 256, 1, 2);
        b.pad(32);
        byte[] data = new byte[512 + 420];
        new Random(5).nextBytes(data);
        return b.raw(data).toByteArray();
    }
}
