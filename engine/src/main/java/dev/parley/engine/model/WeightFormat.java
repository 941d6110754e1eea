package dev.parley.engine.model;

/** How a model's 2-D weight matrices are held in memory once loaded. */
public enum WeightFormat {
    /** As stored in the file (memory-mapped, nothing copied). */
    STORED,
    /**
     * F32, F16, BF16 and K-quant (Q4_K, Q5_K, Q6_K: dequantized, then requantized) matrices quantized to Q8_0
     * (blocks of 32 signed bytes with an FP16 scale) on load, into off-heap memory owned by the model; Q8_0, Q4_0,
     * Q5_0 and Q5_1 matrices (already computed on Q8_0 activations) stay mapped.
     */
    INT8
}
