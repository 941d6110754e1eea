package dev.parley.engine.backend.cuda;

/**
 * A Q8_0 matrix on the device in {@link Q8DeviceLayout}: {@code rows} x {@code cols} quants and their FP16 scales.
 */
record DeviceMatrix(String name, DeviceBuffer quants, DeviceBuffer scales, int rows, int cols) {

    /** Bytes read by one product with this matrix. */
    long bytes() {
        return quants.bytes() + scales.bytes();
    }
}
