// Emulation of the cuda_fp16.h functions Parley's kernels use (see cuda_emu.h).
#pragma once
#include "cuda_emu.h"
typedef _Float16 __half;
inline float __half2float(__half h) { return (float) h; }
inline __half __float2half_rn(float f) { return (__half) f; }  // round to nearest even
inline __half __ushort_as_half(unsigned short bits) {
    __half h;
    std::memcpy(&h, &bits, 2);
    return h;
}
