package dev.parley.models.download;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Local file helpers of the downloader: sizes, best-effort deletion, and telling a full disk from other errors. */
final class LocalFiles {
    private LocalFiles() {
    }

    static boolean isDiskFull(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            String m = t instanceof FileSystemException fse && fse.getReason() != null ? fse.getReason()
                    : t.getMessage();
            if (m != null && (m.contains("No space left") || m.contains("There is not enough space")
                    || m.contains("Disk quota exceeded"))) {
                return true;
            }
        }
        return false;
    }

    static DownloadException mapLocal(IOException e, Path dir, String what) {
        if (isDiskFull(e)) {
            return new DiskFullException(dir, e);
        }
        return new IoFailure(what + ": " + e.getMessage(), e);
    }

    static boolean causedBy(Throwable e, Class<? extends Throwable> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }

    static long sizeOf(Path p) {
        try {
            return Files.exists(p) ? Files.size(p) : 0;
        } catch (IOException e) {
            return 0;
        }
    }

    static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException ignored) {
            // best effort: the caller reports the real error
        }
    }
}
