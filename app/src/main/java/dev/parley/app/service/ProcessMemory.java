package dev.parley.app.service;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** Resident memory of this process from {@code /proc/self/status} (Linux). */
public final class ProcessMemory {
    private final Path status;

    public ProcessMemory() {
        this(Path.of("/proc/self/status"));
    }

    public ProcessMemory(Path status) {
        this.status = status;
    }

    /** Resident set size in bytes, or -1 when the file is missing or has no {@code VmRSS} line. */
    public long residentBytes() {
        try {
            for (String line : Files.readAllLines(status)) {
                if (line.startsWith("VmRSS:")) {
                    return parseKb(line.substring(6));
                }
            }
            return -1;
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
    }

    static long parseKb(String value) {
        String v = value.strip().toLowerCase(Locale.ROOT);
        if (!v.endsWith("kb")) {
            throw new NumberFormatException("expected a size in kB but found '" + value.strip() + "'");
        }
        return Long.parseLong(v.substring(0, v.length() - 2).strip()) * 1024;
    }
}
