#!/usr/bin/env bash
# Decode and prompt speed of Parley beside llama.cpp on the same files, same threads, same run.
#
#   scripts/bench-vs-llamacpp.sh [SHAPE ...]        (default: smollm2-135m qwen2.5-0.5b)
#
# Makes Q8_0 models of each shape with `parley models synth` (cached in $BENCH_DIR, default
# /tmp/parley-bench), then for 1 and 2 threads runs `parley bench decode` and llama.cpp's
# equivalent (scripts/llamacpp-bench.mjs, through the npm package node-llama-cpp, which must be
# installed in $LLAMACPP_DIR: `npm i -E node-llama-cpp@3.21.1`) ROUNDS times, interleaved, and prints
# the medians and the ratio. TYPES (default q8_0) lists the storage types to make and measure, e.g.
# TYPES="q4_k_m q6_k" scripts/bench-vs-llamacpp.sh llama-3.2-1b. Benchmarks, not tests: the machine is shared and noisy, so compare
# the figures of one run only.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BENCH_DIR=${BENCH_DIR:-/tmp/parley-bench}
LLAMACPP_DIR=${LLAMACPP_DIR:-/work/peer}
ROUNDS=${ROUNDS:-3}
P=${PROMPT_TOKENS:-64}
G=${NEW_TOKENS:-64}
shapes=("$@")
read -r -a types <<<"${TYPES:-q8_0}"
[ ${#shapes[@]} -gt 0 ] || shapes=(smollm2-135m qwen2.5-0.5b)
mkdir -p "$BENCH_DIR"

median() { sort -g | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }
field() { awk -v k="$1" '$1==k":" {print $2}'; }

printf '| model | threads | Parley prompt tok/s | llama.cpp prompt tok/s | Parley decode tok/s | llama.cpp decode tok/s | decode ratio |\n'
printf '| --- | --- | --- | --- | --- | --- | --- |\n'
for shape in "${shapes[@]}"; do
 for type in "${types[@]}"; do
  model="$BENCH_DIR/$shape-$type.gguf"
  [ -f "$model" ] || "$root/parley" models synth --shape "$shape" --type "$type" --out "$model" >&2
  for threads in 1 2; do
    pp=(); pd=(); lp=(); ld=()
    for ((r = 0; r < ROUNDS; r++)); do
      out=$("$root/parley" bench decode --model "$model" --threads "$threads" --prompt-tokens "$P" \
            --new-tokens "$G" --runs 3 2>/dev/null)
      pp+=("$(field prompt <<<"$out")"); pd+=("$(field decode <<<"$out")")
      out=$(cd "$LLAMACPP_DIR" && node "$root/scripts/llamacpp-bench.mjs" "$model" "$threads" "$P" "$G" 3 2>/dev/null)
      lp+=("$(field prompt <<<"$out")"); ld+=("$(field decode <<<"$out")")
    done
    mpp=$(printf '%s\n' "${pp[@]}" | median); mpd=$(printf '%s\n' "${pd[@]}" | median)
    mlp=$(printf '%s\n' "${lp[@]}" | median); mld=$(printf '%s\n' "${ld[@]}" | median)
    ratio=$(awk -v a="$mpd" -v b="$mld" 'BEGIN {printf "%.2f", a / b}')
    printf '| %s %s | %d | %s | %s | %s | %s | %s |\n' "$shape" "${type^^}" "$threads" "$mpp" "$mlp" "$mpd" "$mld" "$ratio"
  done
 done
done
