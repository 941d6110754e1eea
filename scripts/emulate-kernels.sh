#!/usr/bin/env bash
# Runs the CUDA kernels (engine/src/main/cuda/*.cu, the very sources of the shipped PTX) on the CPU under a small
# emulation of CUDA (engine/src/test/cuda/include/cuda_emu.h: a thread per CUDA thread, barriers for __syncthreads and
# warp shuffles) and checks them against plain C++ references of the engine's arithmetic. No GPU or CUDA toolkit
# needed, only g++ 12 or later; it checks logic (indexing, reductions, paging), not speed or the GPU's own rounding.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
inc=engine/src/test/cuda/include
objs=()
for f in engine/src/main/cuda/*.cu; do
  o="$out/$(basename "$f" .cu).o"
  g++ -std=c++20 -O1 -ffp-contract=off -pthread -I "$inc" -include cuda_emu.h -x c++ -c "$f" -o "$o"
  objs+=("$o")
done
g++ -std=c++20 -O1 -ffp-contract=off -pthread -I "$inc" engine/src/test/cuda/kernel_check.cpp "${objs[@]}" -o "$out/check"
"$out/check"
