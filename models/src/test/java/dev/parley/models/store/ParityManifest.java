package dev.parley.models.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The model rows of {@code fixtures/parity/MANIFEST.md}: file, MiB, arch, shape, tensor types. */
record ParityManifest(String file, String mib, String arch, String shape, String tensorTypes) {

    static List<ParityManifest> read(Path manifest) throws IOException {
        List<ParityManifest> rows = new ArrayList<>();
        for (String line : Files.readAllLines(manifest)) {
            if (!line.startsWith("| m") || !line.contains(".gguf")) {
                continue;
            }
            String[] c = line.split("\\|");
            // | file | MiB | arch | tokenizer | shape | rope | eps | tied | tensor types | ...
            rows.add(new ParityManifest(c[1].trim(), c[2].trim(), c[3].trim(), c[5].trim(), c[9].trim()));
        }
        return rows;
    }
}
