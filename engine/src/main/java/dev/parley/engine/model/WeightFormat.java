package dev.parley.engine.model;

/** How a model's 2-D weight matrices are held in memory once loaded. */
public enum WeightFormat {
    /** As stored in the file (memory-mapped, nothing copied). */
    STORED,
    /**
     * F32, F16 and BF16 matrices quantized to Q8_0 (blocks of 32 signed bytes with an FP16 scale) on load,
     * into off-heap memory owned by the model; matrices already quantized stay mapped.
     */
    INT8
}
