package dev.parley.models.download;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Tells how many bytes can still be written in a folder (the file store's usable space). */
@FunctionalInterface
public interface SpaceProbe {
    /** Asks the file store. */
    SpaceProbe FILE_STORE = dir -> Files.getFileStore(dir).getUsableSpace();

    long usableBytes(Path dir) throws IOException;
}
