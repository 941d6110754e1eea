// Parley CUDA kernels: the paged KV cache and causal grouped-query attention over it for a batch of rows.
//
// The cache of one layer is a pool of blocks of `block_size` positions; position p of a sequence lives in block
// table[p / block_size] at slot p % block_size, i.e. at cache row (table[p / block_size] * block_size +
// p % block_size), each row holding kv_dim FP16 values (all key heads, or all value heads). Each row of a step
// (one token of one sequence) names its position and where its sequence's block table starts in `tables`.
#include <cuda_fp16.h>
#include <float.h>
#include <stdint.h>

#define ATT_WARPS 4
#define MAX_HEAD 256

// Writes the key and value of each row into the cache: k_cache[slots[r]] = qkv[r][k_off ..], v likewise.
// Grid: (count), block: 256.
extern "C" __global__ void kv_store(const float* __restrict__ qkv, __half* __restrict__ k_cache,
                                    __half* __restrict__ v_cache, const int* __restrict__ slots,
                                    int stride, int k_off, int v_off, int kv_dim) {
    const int r = blockIdx.x;
    const float* row = qkv + (size_t) r * stride;
    const size_t dst = (size_t) slots[r] * kv_dim;
    for (int i = threadIdx.x; i < kv_dim; i += blockDim.x) {
        k_cache[dst + i] = __float2half_rn(row[k_off + i]);
        v_cache[dst + i] = __float2half_rn(row[v_off + i]);
    }
}

// out[r][h] = softmax over p <= positions[r] of (q . k_p) * scale, times v_p, for query head h of row r, reading
// key/value head h / group. Grid: (count, heads), block: 32 * ATT_WARPS threads. Each warp walks every
// ATT_WARPS-th position with an online softmax (running max, sum and weighted values; lane l owns dimensions
// l, l + 32, ...), then the warps are merged. Needs head_size <= 256.
extern "C" __global__ void attention(const float* __restrict__ qkv, const __half* __restrict__ k_cache,
                                     const __half* __restrict__ v_cache, float* __restrict__ out,
                                     const int* __restrict__ positions, const int* __restrict__ table_starts,
                                     const int* __restrict__ tables, int stride, int head_size, int kv_dim,
                                     int group, int block_size, int out_stride, float scale) {
    __shared__ float s_m[ATT_WARPS];
    __shared__ float s_l[ATT_WARPS];
    __shared__ float s_acc[ATT_WARPS][MAX_HEAD];
    const int r = blockIdx.x;
    const int h = blockIdx.y;
    const int warp = threadIdx.x >> 5;
    const int lane = threadIdx.x & 31;
    const int len = positions[r] + 1;
    const int* table = tables + table_starts[r];
    const float* q = qkv + (size_t) r * stride + (size_t) h * head_size;
    const int kv_off = (h / group) * head_size;
    const int per_lane = (head_size + 31) / 32;
    float qv[MAX_HEAD / 32];
    float acc[MAX_HEAD / 32];
#pragma unroll
    for (int j = 0; j < MAX_HEAD / 32; j++) {
        const int d = lane + 32 * j;
        qv[j] = (j < per_lane && d < head_size) ? q[d] : 0.0f;
        acc[j] = 0.0f;
    }
    float m = -FLT_MAX;
    float l = 0.0f;
    for (int p = warp; p < len; p += ATT_WARPS) {
        const size_t row = ((size_t) table[p / block_size] * block_size + p % block_size) * kv_dim + kv_off;
        float s = 0.0f;
#pragma unroll
        for (int j = 0; j < MAX_HEAD / 32; j++) {
            const int d = lane + 32 * j;
            if (j < per_lane && d < head_size) {
                s += qv[j] * __half2float(k_cache[row + d]);
            }
        }
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) {
            s += __shfl_xor_sync(0xffffffffu, s, o);
        }
        s *= scale;
        const float m_new = fmaxf(m, s);
        const float correction = expf(m - m_new);
        const float e = expf(s - m_new);
        l = l * correction + e;
#pragma unroll
        for (int j = 0; j < MAX_HEAD / 32; j++) {
            const int d = lane + 32 * j;
            if (j < per_lane && d < head_size) {
                acc[j] = acc[j] * correction + e * __half2float(v_cache[row + d]);
            }
        }
        m = m_new;
    }
    if (lane == 0) {
        s_m[warp] = m;
        s_l[warp] = l;
    }
#pragma unroll
    for (int j = 0; j < MAX_HEAD / 32; j++) {
        const int d = lane + 32 * j;
        if (j < per_lane && d < head_size) {
            s_acc[warp][d] = acc[j];
        }
    }
    __syncthreads();
    float gm = -FLT_MAX;
    for (int w = 0; w < ATT_WARPS; w++) {
        gm = fmaxf(gm, s_m[w]);
    }
    float gl = 0.0f;
    for (int w = 0; w < ATT_WARPS; w++) {
        gl += s_l[w] * expf(s_m[w] - gm); // a warp that saw no position has l = 0
    }
    const float inv = 1.0f / gl;
    for (int d = threadIdx.x; d < head_size; d += blockDim.x) {
        float v = 0.0f;
        for (int w = 0; w < ATT_WARPS; w++) {
            v += s_acc[w][d] * expf(s_m[w] - gm);
        }
        out[(size_t) r * out_stride + (size_t) h * head_size + d] = v * inv;
    }
}
