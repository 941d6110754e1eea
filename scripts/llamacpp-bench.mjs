// Measures llama.cpp (through the npm package node-llama-cpp, CPU build) the way `parley bench decode`
// measures Parley: a prompt of P tokens in one batch, then G greedy decode steps, R runs after a
// warm-up; prints the medians as `prompt: X tok/s` and `decode: Y tok/s`.
// Usage: node scripts/llamacpp-bench.mjs MODEL.gguf THREADS [P=64] [G=64] [R=5]
// Needs `npm i -E node-llama-cpp@3.21.1` in the current folder (not part of the build); it is
// resolved from there, not from this script's folder.
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

const fromCwd = createRequire(process.cwd() + "/");
const { getLlama } = await import(pathToFileURL(fromCwd.resolve("node-llama-cpp")).href);

const [model, threadsArg, pArg = "64", gArg = "64", rArg = "5"] = process.argv.slice(2);
if (!model || !threadsArg) {
  console.error("usage: node llamacpp-bench.mjs MODEL.gguf THREADS [PROMPT_TOKENS] [NEW_TOKENS] [RUNS]");
  process.exit(2);
}
const threads = Number(threadsArg), P = Number(pArg), G = Number(gArg), R = Number(rArg);
const llama = await getLlama({ gpu: false, build: "never" });
const m = await llama.loadModel({ modelPath: model, gpuLayers: 0 });
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const n = s.length; return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2; };
const prompt = [];
for (let i = 0; i < P; i++) prompt.push(100 + ((i * 7919) % 1000));
const promptRates = [], decodeRates = [];
for (let run = 0; run <= R; run++) {
  const ctx = await m.createContext({ contextSize: 512, threads, batchSize: 512, flashAttention: false });
  const seq = ctx.getSequence();
  let t0 = process.hrtime.bigint();
  await seq.evaluateWithoutGeneratingNewTokens(prompt);
  const promptSecs = Number(process.hrtime.bigint() - t0) / 1e9;
  // Decode G tokens one at a time, greedy.
  let count = 0;
  t0 = process.hrtime.bigint();
  for await (const token of seq.evaluate([prompt[P - 1] + 1], { temperature: 0 })) {
    if (++count >= G) break;
  }
  const decodeSecs = Number(process.hrtime.bigint() - t0) / 1e9;
  await ctx.dispose();
  if (run === 0) continue; // warm-up
  promptRates.push(P / promptSecs);
  decodeRates.push(count / decodeSecs);
  console.error(`llama.cpp run ${run}: prompt ${(P / promptSecs).toFixed(1)} tok/s, decode ${(count / decodeSecs).toFixed(1)} tok/s`);
}
console.log(`prompt: ${median(promptRates).toFixed(1)} tok/s`);
console.log(`decode: ${median(decodeRates).toFixed(1)} tok/s`);
await m.dispose();
await llama.dispose();
