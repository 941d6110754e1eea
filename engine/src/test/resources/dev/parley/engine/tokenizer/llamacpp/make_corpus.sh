#!/bin/bash
# Regenerates llamacpp-tokenize-corpus.json.gz: random texts tokenized by llama.cpp itself.
# Needs python3, node 20 and `npm i -E node-llama-cpp@3.21.1` in $NLC (a scratch folder), and the
# vocab fixtures in $SHARED/fixtures/tokenizer. Writes scratch files to $WORK.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
SHARED=${SHARED:-$HERE/../../../../../../../../../shared}
NLC=${NLC:?folder with node_modules/node-llama-cpp}
WORK=${WORK:-$(mktemp -d)}
VOCABS=$SHARED/fixtures/tokenizer
python3 "$HERE/gen_fuzz.py" 11 120 "$WORK/short.json"
python3 "$HERE/gen_fuzz.py" 1 3000 "$WORK/pool.json"
python3 - "$WORK" <<'PY'
import json, random, sys
w = sys.argv[1]
random.seed(12)
short = json.load(open(f"{w}/short.json"))
pool = json.load(open(f"{w}/pool.json"))
json.dump(short + [" ".join(random.sample(pool, 6)) for _ in range(20)], open(f"{w}/corpus.json", "w"), ensure_ascii=False)
PY
cp "$HERE/tok.mjs" "$NLC/"
for v in llama-spm phi-3 gpt-2 mpt; do for s in 0 1; do
  (cd "$NLC" && node tok.mjs "$VOCABS/ggml-vocab-$v.gguf" "$WORK/corpus.json" $s > "$WORK/g-$v-$s.json" 2>/dev/null)
done; done
for p in default llama-bpe qwen2 smollm starcoder falcon deepseek-llm deepseek-coder dbrx; do
  python3 "$HERE/repre.py" "$VOCABS/ggml-vocab-gpt-2.gguf" "$WORK/gpt2-$p.gguf" $p
  (cd "$NLC" && node tok.mjs "$WORK/gpt2-$p.gguf" "$WORK/corpus.json" 0 > "$WORK/g-pre-$p.json" 2>/dev/null)
done
python3 - "$WORK" <<'PY'
import json, sys
w = sys.argv[1]
cases = []
for v in ["llama-spm", "phi-3", "gpt-2", "mpt"]:
    for s in (0, 1):
        ids = json.load(open(f"{w}/g-{v}-{s}.json"))
        cases.append({"vocab": f"ggml-vocab-{v}.gguf", "pre": None, "parseSpecial": bool(s), "ids": [" ".join(map(str, x)) for x in ids]})
for p in ["default", "llama-bpe", "qwen2", "smollm", "starcoder", "falcon", "deepseek-llm", "deepseek-coder", "dbrx"]:
    ids = json.load(open(f"{w}/g-pre-{p}.json"))
    cases.append({"vocab": "ggml-vocab-gpt-2.gguf", "pre": p, "parseSpecial": False, "ids": [" ".join(map(str, x)) for x in ids]})
doc = {"producer": "llama.cpp as bundled by node-llama-cpp 3.21.1 (CPU), model.tokenize(text, parseSpecial) on vocab-only loads; add_special=false",
       "inputs": json.load(open(f"{w}/corpus.json")), "cases": cases}
json.dump(doc, open(f"{w}/llamacpp-tokenize-corpus.json", "w"), ensure_ascii=False, indent=0)
PY
gzip -9 -c "$WORK/llamacpp-tokenize-corpus.json" > "$HERE/llamacpp-tokenize-corpus.json.gz"
echo "wrote $HERE/llamacpp-tokenize-corpus.json.gz"
