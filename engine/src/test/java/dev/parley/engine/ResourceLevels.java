package dev.parley.engine;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * What the process holds at one moment, for tests that open and close something many times and
 * check that nothing accumulates: live threads, open file descriptors, the JDK's "direct" and
 * "mapped" buffer pools, the resident set size, and how many memory mappings name a given file.
 * Linux only (it reads /proc/self).
 *
 * @param threads       live threads (daemon or not)
 * @param fileHandles   entries of /proc/self/fd
 * @param directBytes   bytes of the "direct" buffer pool (direct buffers and FFM native allocations)
 * @param mappedBytes   bytes of the "mapped" buffer pool (MappedByteBuffers)
 * @param residentBytes VmRSS of /proc/self/status
 * @param heapBytes     committed Java heap (part of the RSS: it grows and shrinks with the collector, not with leaks
 *                      of native memory)
 */
public record ResourceLevels(int threads, int fileHandles, long directBytes, long mappedBytes, long residentBytes,
                             long heapBytes, long codeCacheBytes) {

    /**
     * Now, after a full GC so that unreachable buffers and their cleaners have run, and after glibc gave its free
     * memory back (see {@link #trimNativeHeap}).
     */
    public static ResourceLevels now() {
        settle();
        long direct = 0;
        long mapped = 0;
        for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            if (pool.getName().equals("direct")) {
                direct = pool.getMemoryUsed();
            } else if (pool.getName().equals("mapped")) {
                mapped = pool.getMemoryUsed();
            }
        }
        return new ResourceLevels(ManagementFactory.getThreadMXBean().getThreadCount(), countFileHandles(), direct, mapped,
                readResidentBytes(), ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getCommitted(), codeCache());
    }

    /** Lines of /proc/self/maps that map {@code file} (0 once every mapping of it is unmapped). */
    public static long mappingsOf(Path file) {
        String name = file.toAbsolutePath().toString();
        try (Stream<String> lines = Files.lines(Path.of("/proc/self/maps"))) {
            return lines.filter(l -> l.endsWith(name)).count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The resident memory outside the Java heap and the JIT's code cache: native allocations, mappings, thread stacks,
     * class metadata. The code cache is left out because the JIT keeps compiling through a test of many rounds (25-40
     * ms a round, the Vector API kernels recompiled after deoptimizations) and its committed pages only grow, in steps
     * of MiB, which is not a leak of what the test opens and closes.
     */
    public long offHeapResidentBytes() {
        return residentBytes - heapBytes - codeCacheBytes;
    }

    /** The committed size of the code heaps (the JIT's compiled code). */
    private static long codeCache() {
        long sum = 0;
        for (var pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getName().startsWith("CodeHeap") || pool.getName().equals("CodeCache")) {
                sum += pool.getUsage().getCommitted();
            }
        }
        return sum;
    }

    /** Each reading's memory outside the heap and the code cache / the code cache, in MiB, for assertion messages. */
    public static String offHeapMiB(java.util.List<ResourceLevels> samples) {
        StringBuilder b = new StringBuilder();
        for (ResourceLevels r : samples) {
            b.append(b.isEmpty() ? "" : " ").append(r.offHeapResidentBytes() >> 20).append('/').append(r.codeCacheBytes >> 20);
        }
        return b.toString();
    }

    /** A readable comparison with {@code before}, for assertion messages. */
    public String since(ResourceLevels before) {
        return String.format("threads %d -> %d, file handles %d -> %d, direct %d -> %d bytes, mapped %d -> %d bytes, "
                        + "RSS %d -> %d MiB (outside the heap and the code cache %d -> %d MiB; code cache %d -> %d MiB)",
                before.threads, threads, before.fileHandles, fileHandles, before.directBytes, directBytes,
                before.mappedBytes, mappedBytes, before.residentBytes >> 20, residentBytes >> 20,
                before.offHeapResidentBytes() >> 20, offHeapResidentBytes() >> 20, before.codeCacheBytes >> 20,
                codeCacheBytes >> 20);
    }

    private static int countFileHandles() {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return (int) fds.count() - 1; // the listing's own handle
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long readResidentBytes() {
        try (Stream<String> lines = Files.lines(Path.of("/proc/self/status"))) {
            return lines.filter(l -> l.startsWith("VmRSS:")).findFirst()
                    .map(l -> Long.parseLong(l.replaceAll("\\D", "")) * 1024).orElse(-1L);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Two GCs: the first finds unreachable buffers, their cleaners free them, the second settles. */
    private static void settle() {
        System.gc();
        System.runFinalization();
        System.gc();
        trimNativeHeap();
    }

    /**
     * Has glibc give its free memory back to the system ({@code jcmd VM System.trim_native_heap}, i.e.
     * {@code malloc_trim}), so that the resident size counts what is allocated, not the allocator's high-water
     * marks: C2 compiling a large Vector API kernel takes tens of MiB of arena for a moment, and after a
     * deoptimization it compiles it again at any round (with the register-blocked kernels: +17 to +38 MiB outside
     * the heap over the second 25 voice loops without this, the JIT's "Arena Chunk" the whole of it).
     */
    private static void trimNativeHeap() {
        try {
            var server = ManagementFactory.getPlatformMBeanServer();
            var name = new javax.management.ObjectName("com.sun.management:type=DiagnosticCommand");
            server.invoke(name, "systemTrimNativeHeap", new Object[] {new String[0]},
                    new String[] {String[].class.getName()});
        } catch (javax.management.JMException | RuntimeException e) {
            // not a glibc system or no such command: the levels then include the allocator's free memory
        }
    }
}
