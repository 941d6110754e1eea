// A CPU emulation of the few CUDA features Parley's kernels use, so that their logic (indexing, reductions, paging)
// can be checked on a machine without a GPU: each thread of a block is an OS thread, __syncthreads is a barrier of
// the block, warp shuffles exchange values through a per-warp buffer between two barriers of the warp, and blocks run
// one after another (so __shared__ variables can be function statics). Not a performance model; only for
// scripts/emulate-kernels.sh.
#pragma once
#include <barrier>
#include <math.h>
#include <stddef.h>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

struct dim3 {
    unsigned x = 1, y = 1, z = 1;
};

inline thread_local dim3 threadIdx;
inline thread_local dim3 blockIdx;
inline dim3 blockDim;
inline dim3 gridDim;

#define __global__
#define __device__
#define __forceinline__ inline
#define __restrict__ __restrict
#define __shared__ static
#define __launch_bounds__(n)

namespace emu {
struct Warp {
    std::barrier<> bar{32};
    uint64_t slots[32];
};
struct Block {
    std::unique_ptr<std::barrier<>> bar;
    std::vector<std::unique_ptr<Warp>> warps;
};
inline Block* block;
}  // namespace emu

inline void __syncthreads() { emu::block->bar->arrive_and_wait(); }

template <class T>
inline T __shfl_xor_sync(unsigned, T v, int o) {
    static_assert(sizeof(T) <= 8);
    emu::Warp& w = *emu::block->warps[threadIdx.x / 32];
    unsigned lane = threadIdx.x % 32;
    uint64_t bits = 0;
    std::memcpy(&bits, &v, sizeof(T));
    w.slots[lane] = bits;
    w.bar.arrive_and_wait();
    uint64_t other = w.slots[lane ^ o];
    w.bar.arrive_and_wait();
    T r;
    std::memcpy(&r, &other, sizeof(T));
    return r;
}

inline int __dp4a(int a, int b, int c) {
    for (int i = 0; i < 4; i++) {
        c += (int) (int8_t) (a >> (8 * i)) * (int) (int8_t) (b >> (8 * i));
    }
    return c;
}

inline int __float2int_rn(float x) { return (int) std::nearbyint(x); }  // default rounding: to nearest even
inline float fmaxf(float a, float b) { return std::fmax(a, b); }
inline int min(int a, int b) { return a < b ? a : b; }

struct int4 {
    int x, y, z, w;
};

/** Runs kernel(args...) on grid x block threads, blocks one after another. */
template <class... A>
void launch(dim3 grid, dim3 blk, void (*kernel)(A...), A... args) {
    blockDim = blk;
    gridDim = grid;
    for (unsigned by = 0; by < grid.y; by++) {
        for (unsigned bx = 0; bx < grid.x; bx++) {
            emu::Block b;
            b.bar = std::make_unique<std::barrier<>>(blk.x);
            for (unsigned w = 0; w < (blk.x + 31) / 32; w++) {
                b.warps.push_back(std::make_unique<emu::Warp>());
            }
            emu::block = &b;
            std::vector<std::thread> threads;
            for (unsigned t = 0; t < blk.x; t++) {
                threads.emplace_back([=] {
                    threadIdx = dim3{t, 0, 0};
                    blockIdx = dim3{bx, by, 0};
                    kernel(args...);
                });
            }
            for (auto& th : threads) {
                th.join();
            }
        }
    }
}
