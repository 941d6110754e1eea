package dev.parley.engine.backend.cuda;

import jcuda.driver.CUdeviceptr;

/**
 * A device allocation: its pointer, size and what it holds (for error messages). Freed by the {@link CudaContext}
 * that made it.
 */
record DeviceBuffer(String name, CUdeviceptr pointer, long bytes) {

    /** A pointer {@code offset} bytes into this buffer. */
    CUdeviceptr at(long offset) {
        if (offset < 0 || offset > bytes) {
            throw new IndexOutOfBoundsException(name + ": expected an offset from 0 to " + bytes + " but found " + offset);
        }
        return pointer.withByteOffset(offset);
    }
}
