// Parley CUDA kernels: the small per-value steps of the forward pass (embedding lookup, activation
// quantization, RMSNorm, residual and bias adds, SiLU x gate, row gathers).
#include <cuda_fp16.h>
#include <stdint.h>

#define QK 32

static __device__ __forceinline__ float half_bits_to_float(unsigned short bits) {
    return __half2float(__ushort_as_half(bits));
}

// x[r] = dequantized row tokens[r] of a Q8_0 embedding table (device layout of q8_matmul.cu).
// Grid: (count), block: 256.
extern "C" __global__ void embed_q8(const int8_t* __restrict__ qs, const unsigned short* __restrict__ ds,
                                    const int* __restrict__ tokens, float* __restrict__ x, int dim) {
    const int r = blockIdx.x;
    const size_t tok = (size_t) tokens[r];
    const int8_t* q = qs + tok * dim;
    const unsigned short* d = ds + tok * (dim / QK);
    for (int i = threadIdx.x; i < dim; i += blockDim.x) {
        x[(size_t) r * dim + i] = half_bits_to_float(d[i / QK]) * (float) q[i];
    }
}

// Quantizes `blocks` blocks of 32 floats to Q8_0 as Parley's CPU Activations does: d = amax / 127 rounded to
// FP16, q = round-half-even(x * (127 / amax)). One warp per block: grid (ceil(blocks * 32 / 256)), block 256.
extern "C" __global__ void quantize_q8(const float* __restrict__ x, int8_t* __restrict__ q,
                                       float* __restrict__ d, int blocks) {
    const int g = blockIdx.x * blockDim.x + threadIdx.x;
    const int b = g >> 5;
    if (b >= blocks) {
        return; // whole warps leave together: blockDim is a multiple of 32
    }
    const float v = x[g];
    float amax = fabsf(v);
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        amax = fmaxf(amax, __shfl_xor_sync(0xffffffffu, amax, o));
    }
    const float id = amax != 0.0f ? 127.0f / amax : 0.0f;
    q[g] = (int8_t) __float2int_rn(v * id);
    if ((threadIdx.x & 31) == 0) {
        d[b] = __half2float(__float2half_rn(amax / 127.0f));
    }
}

// out[r] = x[r] / sqrt(mean(x[r]^2) + eps) * w; the sum of squares in double as ggml and the CPU do.
// Grid: (count), block: 256.
extern "C" __global__ void rms_norm(const float* __restrict__ x, const float* __restrict__ w,
                                    float* __restrict__ out, int dim, float eps) {
    __shared__ double partial[8];
    const float* xr = x + (size_t) blockIdx.x * dim;
    double ss = 0.0;
    for (int i = threadIdx.x; i < dim; i += blockDim.x) {
        const float v = xr[i];
        ss += (double) (v * v);
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        ss += __shfl_xor_sync(0xffffffffu, ss, o);
    }
    if ((threadIdx.x & 31) == 0) {
        partial[threadIdx.x >> 5] = ss;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        double total = 0.0;
        for (int i = 0; i < (int) (blockDim.x >> 5); i++) {
            total += partial[i];
        }
        partial[0] = total;
    }
    __syncthreads();
    const float mean = (float) (partial[0] / dim);
    const float scale = 1.0f / sqrtf(mean + eps);
    float* o = out + (size_t) blockIdx.x * dim;
    for (int i = threadIdx.x; i < dim; i += blockDim.x) {
        o[i] = (xr[i] * scale) * w[i];
    }
}

// x[i] += y[i] for i < n. Grid: (ceil(n / 256)), block: 256.
extern "C" __global__ void add_inplace(float* __restrict__ x, const float* __restrict__ y, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        x[i] += y[i];
    }
}

// y[r * stride + i] += bias[i] for rows r < count and i < width. Grid: (ceil(width / 256), count), block: 256.
extern "C" __global__ void add_bias(float* __restrict__ y, const float* __restrict__ bias, int width, int stride) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < width) {
        y[(size_t) blockIdx.y * stride + i] += bias[i];
    }
}

// SwiGLU: h[r * ffn + i] = silu(gu[r][i]) * gu[r][ffn + i], where row r of gu holds the gate then the up
// projection. Grid: (ceil(ffn / 256), count), block: 256.
extern "C" __global__ void silu_mul(const float* __restrict__ gu, float* __restrict__ h, int ffn) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < ffn) {
        const size_t r = blockIdx.y;
        const float g = gu[r * 2 * ffn + i];
        h[r * ffn + i] = g / (1.0f + expf(-g)) * gu[r * 2 * ffn + ffn + i];
    }
}

// out[j] = x[rows[j]] for j < count (rows of `dim` floats). Grid: (count), block: 256.
extern "C" __global__ void gather_rows(const float* __restrict__ x, const int* __restrict__ rows,
                                       float* __restrict__ out, int dim) {
    const float* src = x + (size_t) rows[blockIdx.x] * dim;
    float* dst = out + (size_t) blockIdx.x * dim;
    for (int i = threadIdx.x; i < dim; i += blockDim.x) {
        dst[i] = src[i];
    }
}
