// Parley CUDA kernel: rotary position embedding, in place on the query and key heads of each row.
#include <stdint.h>

// Row r of qkv (stride `stride` floats) holds `heads` consecutive heads of `head_size` values to rotate (the query
// heads then the key heads). For pair i < pairs at position p: theta = scale * ((p * powers[i]) / factors[i])
// (factors may be null: 1), where powers[i] = base^(-2i / rope_dims); NORM rotates (2i, 2i + 1), NEOX
// (i, i + pairs). Grid: (count, heads), block: pairs threads rounded up to a multiple of 32.
extern "C" __global__ void rope(float* __restrict__ qkv, const int* __restrict__ positions,
                                const float* __restrict__ powers, const float* __restrict__ factors,
                                int stride, int head_size, int pairs, int neox, float scale) {
    const int i = threadIdx.x;
    if (i >= pairs) {
        return;
    }
    const int r = blockIdx.x;
    const float p = (float) positions[r];
    const float ff = factors != 0 ? factors[i] : 1.0f;
    const float theta = scale * ((p * powers[i]) / ff);
    const float c = cosf(theta);
    const float s = sinf(theta);
    float* head = qkv + (size_t) r * stride + (size_t) blockIdx.y * head_size;
    const int i0 = neox ? i : 2 * i;
    const int i1 = neox ? i + pairs : 2 * i + 1;
    const float x0 = head[i0];
    const float x1 = head[i1];
    head[i0] = x0 * c - x1 * s;
    head[i1] = x0 * s + x1 * c;
}
