// Parley CUDA kernels: Q8_0 weights times Q8_0-quantized activations with int8 dot products (dp4a).
//
// Device layout of a Q8_0 matrix of `rows` x `cols` (cols a multiple of 32), made by the host from
// ggml's 34-byte blocks: all quants row-major in one int8 array (row r at r * cols, so every block of
// 32 quants is 32-byte aligned) and the FP16 block scales in a second array (row r at r * cols / 32).
// Activations come from quantize_q8 (elementwise.cu): int8 quants row-major and one float scale per
// block. Every output is out[t * rows + r] = sum over blocks b of (dw[r][b] * dx[t][b]) * isum(r, t, b),
// the integer sum of 32 int8 x int8 products, as ggml's vec_dot_q8_0_q8_0 computes it.
#include <cuda_fp16.h>
#include <stdint.h>

#define QK 32
#define MMV_WARPS 4   // rows per thread block of mmv_q8, one warp each
#define MMV_TOKENS 8  // activation rows per thread block of mmv_q8

static __device__ __forceinline__ float half_bits_to_float(unsigned short bits) {
    return __half2float(__ushort_as_half(bits));
}

static __device__ __forceinline__ int dot_block(const int4 w0, const int4 w1, const int* __restrict__ x) {
    int s = 0;
    s = __dp4a(w0.x, x[0], s);
    s = __dp4a(w0.y, x[1], s);
    s = __dp4a(w0.z, x[2], s);
    s = __dp4a(w0.w, x[3], s);
    s = __dp4a(w1.x, x[4], s);
    s = __dp4a(w1.y, x[5], s);
    s = __dp4a(w1.z, x[6], s);
    s = __dp4a(w1.w, x[7], s);
    return s;
}

// Matrix x vector(s), for few activation rows (decode). Grid: (ceil(rows / MMV_WARPS), ceil(count / MMV_TOKENS)),
// block: 32 * MMV_WARPS threads. Warp w of block x computes row x * MMV_WARPS + w for the tokens
// y * MMV_TOKENS .. + MMV_TOKENS; lane l reads blocks l, l + 32, ... of the row, each weight block once for all
// tokens of the tile, then the warp adds up its lanes.
extern "C" __global__ void mmv_q8(const int8_t* __restrict__ wq, const unsigned short* __restrict__ wd,
                                  const int8_t* __restrict__ xq, const float* __restrict__ xd,
                                  float* __restrict__ out, int rows, int cols, int count) {
    const int lane = threadIdx.x & 31;
    const int row = blockIdx.x * MMV_WARPS + (threadIdx.x >> 5);
    const int t0 = blockIdx.y * MMV_TOKENS;
    if (row >= rows) {
        return;
    }
    const int nb = cols / QK;
    const int tokens = min(MMV_TOKENS, count - t0);
    float acc[MMV_TOKENS];
#pragma unroll
    for (int t = 0; t < MMV_TOKENS; t++) {
        acc[t] = 0.0f;
    }
    const int8_t* wrow = wq + (size_t) row * cols;
    const unsigned short* drow = wd + (size_t) row * nb;
    for (int b = lane; b < nb; b += 32) {
        const int4* wp = reinterpret_cast<const int4*>(wrow + (size_t) b * QK);
        const int4 w0 = wp[0];
        const int4 w1 = wp[1];
        const float dw = half_bits_to_float(drow[b]);
#pragma unroll
        for (int t = 0; t < MMV_TOKENS; t++) {
            if (t < tokens) {
                const int tok = t0 + t;
                const int* xp = reinterpret_cast<const int*>(xq + (size_t) tok * cols + (size_t) b * QK);
                acc[t] += (dw * xd[(size_t) tok * nb + b]) * (float) dot_block(w0, w1, xp);
            }
        }
    }
#pragma unroll
    for (int t = 0; t < MMV_TOKENS; t++) {
        float v = acc[t];
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) {
            v += __shfl_xor_sync(0xffffffffu, v, o);
        }
        if (lane == 0 && t < tokens) {
            out[(size_t) (t0 + t) * rows + row] = v;
        }
    }
}

#define MMQ_BM 64   // weight rows per tile
#define MMQ_BN 32   // activation rows per tile
#define MMQ_BB 4    // Q8_0 blocks per step along the row (128 values)
#define MMQ_INTS (MMQ_BB * QK / 4)

// Matrix x matrix, for many activation rows (prefill, large batches). Grid: (ceil(rows / 64), ceil(count / 32)),
// block: 256 threads. Each step stages 64 weight rows and 32 activation rows of 128 values (and their scales) in
// shared memory; thread (ty, tx) = (tid / 16, tid % 16) accumulates rows 4 ty .. 4 ty + 3 for tokens
// 2 tx, 2 tx + 1. Blocks are added in row order, so each output is summed in the same order as the CPU's.
extern "C" __global__ void __launch_bounds__(256) mmq_q8(const int8_t* __restrict__ wq,
                                  const unsigned short* __restrict__ wd,
                                  const int8_t* __restrict__ xq, const float* __restrict__ xd,
                                  float* __restrict__ out, int rows, int cols, int count) {
    __shared__ int sw[MMQ_BM][MMQ_INTS + 1];
    __shared__ int sx[MMQ_BN][MMQ_INTS + 1];
    __shared__ float swd[MMQ_BM][MMQ_BB];
    __shared__ float sxd[MMQ_BN][MMQ_BB];
    const int tid = threadIdx.x;
    const int ty = tid >> 4;
    const int tx = tid & 15;
    const int row0 = blockIdx.x * MMQ_BM;
    const int tok0 = blockIdx.y * MMQ_BN;
    const int nb = cols / QK;
    float acc[4][2] = {{0.0f, 0.0f}, {0.0f, 0.0f}, {0.0f, 0.0f}, {0.0f, 0.0f}};
    for (int b0 = 0; b0 < nb; b0 += MMQ_BB) {
        // 64 x 32 ints of weights: 8 per thread.
        for (int i = tid; i < MMQ_BM * MMQ_INTS; i += 256) {
            const int r = i / MMQ_INTS;
            const int k = i % MMQ_INTS;
            const int b = b0 + k / 8;
            int v = 0;
            if (row0 + r < rows && b < nb) {
                v = reinterpret_cast<const int*>(wq + (size_t) (row0 + r) * cols + (size_t) b * QK)[k % 8];
            }
            sw[r][k] = v;
        }
        for (int i = tid; i < MMQ_BN * MMQ_INTS; i += 256) {
            const int t = i / MMQ_INTS;
            const int k = i % MMQ_INTS;
            const int b = b0 + k / 8;
            int v = 0;
            if (tok0 + t < count && b < nb) {
                v = reinterpret_cast<const int*>(xq + (size_t) (tok0 + t) * cols + (size_t) b * QK)[k % 8];
            }
            sx[t][k] = v;
        }
        {
            const int r = tid / MMQ_BB;
            const int k = tid % MMQ_BB;
            const int b = b0 + k;
            swd[r][k] = (row0 + r < rows && b < nb) ? half_bits_to_float(wd[(size_t) (row0 + r) * nb + b]) : 0.0f;
            if (tid < MMQ_BN * MMQ_BB) {
                sxd[r][k] = (tok0 + r < count && b < nb) ? xd[(size_t) (tok0 + r) * nb + b] : 0.0f;
            }
        }
        __syncthreads();
#pragma unroll
        for (int kb = 0; kb < MMQ_BB; kb++) {
#pragma unroll
            for (int i = 0; i < 4; i++) {
                const int r = ty * 4 + i;
#pragma unroll
                for (int j = 0; j < 2; j++) {
                    const int t = tx * 2 + j;
                    int s = 0;
#pragma unroll
                    for (int k = 0; k < 8; k++) {
                        s = __dp4a(sw[r][kb * 8 + k], sx[t][kb * 8 + k], s);
                    }
                    acc[i][j] += (swd[r][kb] * sxd[t][kb]) * (float) s;
                }
            }
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < 4; i++) {
        const int r = row0 + ty * 4 + i;
#pragma unroll
        for (int j = 0; j < 2; j++) {
            const int t = tok0 + tx * 2 + j;
            if (r < rows && t < count) {
                out[(size_t) t * rows + r] = acc[i][j];
            }
        }
    }
}
