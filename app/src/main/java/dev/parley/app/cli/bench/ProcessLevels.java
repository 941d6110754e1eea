package dev.parley.app.cli.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * What this process holds, sampled by the soak: Java heap in use after a collection, resident memory
 * (and the part of it outside the committed heap: native allocations, mappings, code, stacks), live
 * threads and open file descriptors. The /proc figures are -1 where /proc is missing (not Linux).
 *
 * @param heapUsedBytes   heap in use after a full collection
 * @param heapCommitted   heap the JVM has committed
 * @param residentBytes   VmRSS
 * @param threads         live threads
 * @param fileHandles     open file descriptors
 */
record ProcessLevels(long heapUsedBytes, long heapCommitted, long residentBytes, int threads, int fileHandles) {

    /** Samples now, after two collections (so that freed buffers and their cleaners have run). */
    static ProcessLevels sample() {
        System.gc();
        System.gc();
        var heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        return new ProcessLevels(heap.getUsed(), heap.getCommitted(), resident(),
                ManagementFactory.getThreadMXBean().getThreadCount(), handles());
    }

    /** Resident memory outside the committed heap, or -1 when unknown. */
    long offHeapBytes() {
        return residentBytes < 0 ? -1 : residentBytes - heapCommitted;
    }

    private static long resident() {
        try (Stream<String> lines = Files.lines(Path.of("/proc/self/status"))) {
            return lines.filter(l -> l.startsWith("VmRSS:")).findFirst()
                    .map(l -> Long.parseLong(l.replaceAll("\\D", "")) * 1024).orElse(-1L);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private static int handles() {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return (int) fds.count() - 1;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
