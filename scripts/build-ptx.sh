#!/usr/bin/env bash
# Compiles the CUDA kernels (engine/src/main/cuda/*.cu) to PTX resources of the engine. Run it after changing a
# kernel and commit the .ptx files: the build itself needs no CUDA toolkit, and a test (PtxResourcesTest) fails when
# a .ptx no longer matches its source's SHA-256, recorded on its first line.
#
# nvcc 13 writes ".version 9.0", which CUDA 12 drivers (and JCuda's nvPTXCompiler 12.0) reject; the kernels use
# nothing newer than PTX ISA 7.8 (CUDA 11.8), so the header is lowered to that. Target: compute_75 (Turing and
# later; dp4a needs 6.1), the lowest nvcc 13 accepts.
#
# Usage: scripts/build-ptx.sh            (needs nvcc on the PATH)
#        PTX_ARCH=compute_80 scripts/build-ptx.sh
set -euo pipefail
cd "$(dirname "$0")/.."
src=engine/src/main/cuda
out=engine/src/main/resources/dev/parley/engine/backend/cuda
arch=${PTX_ARCH:-compute_75}
isa=${PTX_ISA:-7.8}
command -v nvcc >/dev/null || { echo "build-ptx: nvcc not found on the PATH (CUDA toolkit 12 or later needed)" >&2; exit 1; }
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for f in "$src"/*.cu; do
  name=$(basename "$f" .cu)
  sum=$(sha256sum "$f" | cut -d' ' -f1)
  # -fmad=false: no fused multiply-adds, so that the float arithmetic rounds like the CPU's Java code.
  nvcc -ptx -arch="$arch" -fmad=false -o "$tmp/$name.ptx" "$f"
  grep -q '^\.version ' "$tmp/$name.ptx" || { echo "build-ptx: no .version line in $name.ptx" >&2; exit 1; }
  {
    echo "// parley-source $name.cu sha256 $sum"
    sed "s/^\.version .*/.version $isa/" "$tmp/$name.ptx"
  } > "$out/$name.ptx"
  echo "build-ptx: $out/$name.ptx ($arch, PTX ISA $isa)"
done
