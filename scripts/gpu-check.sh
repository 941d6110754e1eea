#!/usr/bin/env bash
# The GPU check of the CUDA backend (issue 9), meant to finish in under 5 minutes on a fresh NVIDIA machine:
#   1. the probe (GPU name, memory),
#   2. the GPU tests: single kernels vs the CPU's arithmetic, the CUDA model vs the scalar reference (tiny and
#      fixture models: logits within tolerance, same greedy tokens), batched decode equal to single, the batcher,
#   3. Q8_0 models of the Llama-3.2-1B and Llama-3.1-8B shapes written by synth,
#   4. batched decode on each at batch 1, 8, 16 and 32, printed as a table beside the GPU's bandwidth limit.
#
# Java: a JDK 25 (JAVA_HOME or /usr/lib/jvm/*25*) with the Maven repository builds here; without one, the bundle
# made by scripts/gpu-bundle.sh (.gpu-bundle/parley-gpu.tar.xz, or PARLEY_GPU_BUNDLE) is unpacked and used.
# Environment: PARLEY_GPU_WORK (models and logs, default /tmp/parley-gpu), PARLEY_GPU_PEAK_GBS (bandwidth limit in
# GB/s when the GPU is not in the table below), PARLEY_GPU_SKIP_8B=1 (only the 1B shape).
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
work=${PARLEY_GPU_WORK:-/tmp/parley-gpu}
mkdir -p "$work"
start=$(date +%s)
say() { echo "gpu-check [$(( $(date +%s) - start ))s]: $*"; }
jopts=(--add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED -Xss4m -Djava.awt.headless=true)

say "GPU: $(nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>/dev/null || echo 'nvidia-smi not found')"

bundle=${PARLEY_GPU_BUNDLE:-$root/.gpu-bundle/parley-gpu.tar.xz}
jdk=${JAVA_HOME:-$(ls -d /usr/lib/jvm/temurin-25* /usr/lib/jvm/*-25* 2>/dev/null | head -n 1)}
if [ -n "$jdk" ] && [ -x "$jdk/bin/javac" ] && "$jdk/bin/java" -version 2>&1 | grep -q '"25'; then
  say "building with $jdk"
  export JAVA_HOME=$jdk
  ./mvnw -B -q -o -pl app -am package -DskipTests || ./mvnw -B -q -pl app -am package -DskipTests || exit 1
  java="$jdk/bin/java"
  cp="$root/app/target/parley-app.jar:$root/app/target/lib/*"
  tests() { ./mvnw -B -o -pl engine surefire:test -Dtest="$1" -Dsurefire.failIfNoSpecifiedTests=false; }
elif [ -f "$bundle" ]; then
  say "no JDK 25: using the bundle $bundle"
  rm -rf "$work/bundle" && mkdir -p "$work/bundle" && tar -C "$work/bundle" -xJf "$bundle" || exit 1
  say "bundle of commit $(cat "$work/bundle/COMMIT")"
  java="$work/bundle/jre/bin/java"
  cp="$work/bundle/lib/*"
  tests() {
    local sel=() c
    for c in ${1//,/ }; do sel+=(--select-class "$c"); done
    local path
    path="$work/bundle/tests/engine:$(ls "$work"/bundle/lib/*.jar | tr '\n' ':')"
    "$java" "${jopts[@]}" -Dparley.shared="$work/bundle/shared" -jar "$work/bundle/junit-console.jar" execute \
      --class-path "$path" --details=tree --disable-banner "${sel[@]}"
  }
else
  echo "gpu-check: expected a JDK 25 (JAVA_HOME) or the bundle $bundle (scripts/gpu-bundle.sh) but found neither" >&2
  exit 1
fi

say "probe"
"$java" "${jopts[@]}" -cp "$cp" dev.parley.engine.backend.cuda.CudaProbe || { echo "gpu-check: no usable GPU" >&2; exit 1; }

say "GPU tests"
classes=dev.parley.engine.backend.cuda.CudaProbeTest,dev.parley.engine.backend.cuda.CudaKernelsTest
classes+=,dev.parley.engine.model.CudaParityTest,dev.parley.engine.batch.CudaBatcherTest
tests "$classes" 2>&1 | tee "$work/gpu-tests.log"
test_status=${PIPESTATUS[0]}

parley() { "$java" "${jopts[@]}" -cp "$cp" dev.parley.app.Main "$@"; }
say "synth models"
parley models synth --shape llama-3.2-1b --type q8_0 --out "$work/llama-1b-q8_0.gguf" >/dev/null || exit 1
shapes=("$work/llama-1b-q8_0.gguf")
if [ "${PARLEY_GPU_SKIP_8B:-0}" != 1 ]; then
  parley models synth --shape "llama-3.2-1b:name=llama-3.1-8b,dim=4096,layers=32,heads=32,kv=8,ffn=14336,tied=false,ctx=8192" \
    --type q8_0 --out "$work/llama-8b-q8_0.gguf" >/dev/null || exit 1
  shapes+=("$work/llama-8b-q8_0.gguf")
fi

# Peak memory bandwidth (GB/s, vendor figures) of common GPUs, for the "of peak" column.
name=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1)
peak=${PARLEY_GPU_PEAK_GBS:-}
if [ -z "$peak" ]; then
  case "$name" in
    *H200*) peak=4800 ;; *H100*SXM*|*H100*HBM3*) peak=3350 ;; *H100*) peak=2000 ;;
    *A100*80GB*) peak=2039 ;; *A100*) peak=1555 ;; *L40S*|*L40*) peak=864 ;; *L4*) peak=300 ;;
    *A10G*|*A10*) peak=600 ;; *4090*) peak=1008 ;; *3090*) peak=936 ;; *T4*) peak=320 ;; *) peak=0 ;;
  esac
fi
say "bandwidth limit of $name: ${peak} GB/s"

# parley bench batch: the batcher (scheduler, paged KV, continuous batching) on the GPU; no baseline (the
# recompute-everything baseline is a CPU experiment) and no Poisson run, to stay within the time budget.
for m in "${shapes[@]}"; do
  say "parley bench batch --backend cuda $(basename "$m")"
  parley bench batch --backend cuda --model "$m" --batches 1,8,16,32 --prompt-tokens 128 --output-tokens 64 \
    --runs 2 --no-baseline --poisson-requests 0 --kv-memory 1024 --report "$work/bench-$(basename "$m" .gguf)" \
    | tee -a "$work/bench.txt"
done
# The device steps alone (no scheduler), with the weight bandwidth beside the GPU's limit.
for m in "${shapes[@]}"; do
  "$java" "${jopts[@]}" -cp "$cp" dev.parley.engine.backend.cuda.CudaBatchBenchmark "$m" 1,8,16,32 128 64 "$peak" \
    | tee -a "$work/bench.txt"
  echo | tee -a "$work/bench.txt"
done
say "done: tests exit $test_status; logs in $work (gpu-tests.log, bench.txt)"
exit "$test_status"
