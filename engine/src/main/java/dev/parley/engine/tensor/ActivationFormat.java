package dev.parley.engine.tensor;

/**
 * How activations are rounded before they meet a weight matrix, as in ggml's {@code vec_dot_type}:
 * F32 weights see plain floats, F16/BF16 weights see activations rounded to F16/BF16, and Q8_0/Q4_0
 * weights see activations quantized to Q8_0 blocks, and the K-quant weights (Q4_K, Q5_K, Q6_K) see
 * activations quantized to Q8_K (256-value blocks with a float scale and sums per 16 values).
 */
public enum ActivationFormat {
    F32, F16, BF16, Q8_0, Q8_K
}
