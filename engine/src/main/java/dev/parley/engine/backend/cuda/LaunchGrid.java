package dev.parley.engine.backend.cuda;

/**
 * The launch configuration of one kernel: grid and block sizes in x and y (z is always 1) and dynamic shared memory.
 */
public record LaunchGrid(int gridX, int gridY, int blockX, int sharedBytes) {

    public LaunchGrid {
        if (gridX < 1 || gridY < 1 || gridY > 65_535 || blockX < 1 || blockX > 1024 || blockX % 32 != 0
                || sharedBytes < 0) {
            throw new IllegalArgumentException("expected a grid of at least 1 x 1 (y at most 65535) and a block of 32"
                    + " to 1024 threads, a multiple of 32, but found " + gridX + " x " + gridY + " of " + blockX);
        }
    }

    /** Threads launched in all. */
    public long threads() {
        return (long) gridX * gridY * blockX;
    }
}
