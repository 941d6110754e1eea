// Parley CUDA kernels: greedy choice and softmax over rows of logits, so that a step can copy back one token per
// sequence instead of a whole vocabulary.
#include <float.h>

#define THREADS 256

// out[r] = the index of the largest of logits[r][0 .. vocab), the lowest index among equals (as the CPU's
// argmax). Grid: (rows), block: 256.
extern "C" __global__ void argmax_rows(const float* __restrict__ logits, int* __restrict__ out, int vocab) {
    __shared__ float best_v[THREADS];
    __shared__ int best_i[THREADS];
    const float* row = logits + (size_t) blockIdx.x * vocab;
    float bv = -FLT_MAX;
    int bi = 0x7fffffff;
    for (int i = threadIdx.x; i < vocab; i += blockDim.x) {
        const float v = row[i];
        if (v > bv || (v == bv && i < bi)) {
            bv = v;
            bi = i;
        }
    }
    best_v[threadIdx.x] = bv;
    best_i[threadIdx.x] = bi;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) {
            const float ov = best_v[threadIdx.x + s];
            const int oi = best_i[threadIdx.x + s];
            if (ov > best_v[threadIdx.x] || (ov == best_v[threadIdx.x] && oi < best_i[threadIdx.x])) {
                best_v[threadIdx.x] = ov;
                best_i[threadIdx.x] = oi;
            }
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        out[blockIdx.x] = best_i[0] == 0x7fffffff ? 0 : best_i[0];
    }
}

// In place: logits[r] = softmax(logits[r] * inv_temperature). Grid: (rows), block: 256.
extern "C" __global__ void softmax_rows(float* __restrict__ logits, int vocab, float inv_temperature) {
    __shared__ float red[THREADS];
    float* row = logits + (size_t) blockIdx.x * vocab;
    float m = -FLT_MAX;
    for (int i = threadIdx.x; i < vocab; i += blockDim.x) {
        m = fmaxf(m, row[i] * inv_temperature);
    }
    red[threadIdx.x] = m;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) {
            red[threadIdx.x] = fmaxf(red[threadIdx.x], red[threadIdx.x + s]);
        }
        __syncthreads();
    }
    m = red[0];
    __syncthreads();
    float sum = 0.0f;
    for (int i = threadIdx.x; i < vocab; i += blockDim.x) {
        const float e = expf(row[i] * inv_temperature - m);
        row[i] = e;
        sum += e;
    }
    red[threadIdx.x] = sum;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) {
            red[threadIdx.x] += red[threadIdx.x + s];
        }
        __syncthreads();
    }
    const float inv = 1.0f / red[0];
    for (int i = threadIdx.x; i < vocab; i += blockDim.x) {
        row[i] *= inv;
    }
}
