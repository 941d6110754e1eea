package dev.parley.engine.backend.cuda;

/**
 * A reading of a GPU's memory.
 *
 * @param deviceName the GPU's name
 * @param totalBytes all of its memory
 * @param freeBytes  what no context has allocated
 */
public record GpuMemory(String deviceName, long totalBytes, long freeBytes) {

    public GpuMemory {
        if (totalBytes < 0 || freeBytes < 0 || freeBytes > totalBytes) {
            throw new IllegalArgumentException("expected 0 <= free <= total bytes but found free " + freeBytes
                    + " of " + totalBytes);
        }
    }

    /** Memory in use by all processes on the GPU. */
    public long usedBytes() {
        return totalBytes - freeBytes;
    }
}
