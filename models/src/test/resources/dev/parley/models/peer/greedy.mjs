// llama.cpp (node-llama-cpp 3.21.1, CPU, 1 thread) on a GGUF file: feeds the prompt ids, then for each step prints
// the top-K tokens with their log-probabilities (softmax at temperature 1 over the whole vocabulary: the raw logits
// up to one constant per step) and feeds the top-1 token.
// Usage: node greedy.mjs PACKAGE_DIR MODEL IDS_JSON STEPS K (PACKAGE_DIR holds node_modules/node-llama-cpp)
import {pathToFileURL} from "url";
import path from "path";
const [,, packageDir, modelPath, idsJson, stepsArg, kArg] = process.argv;
const {getLlama} = await import(pathToFileURL(path.join(packageDir, "node_modules/node-llama-cpp/dist/index.js")).href);
const prompt = JSON.parse(idsJson);
const steps = Number(stepsArg);
const k = Number(kArg);
const llama = await getLlama({gpu: false, build: "never", logLevel: "error"});
const model = await llama.loadModel({modelPath});
const context = await model.createContext({contextSize: 512, batchSize: 512, threads: 1, flashAttention: false,
    experimentalKvCacheKeyType: "F32", experimentalKvCacheValueType: "F32"}); // as the goldens: an F32 KV cache
const sequence = context.getSequence();
// Temperature 1, nothing cut, no repeat penalty (without an explicit neutral one, tokens seen before were penalized).
const neutral = {penalty: 1, punishTokens: [], presencePenalty: 0, frequencyPenalty: 0};
const next = {generateNext: {probabilities: true,
    options: {temperature: 1, topK: 0, topP: 1, minP: 0, repeatPenalty: neutral}}};
let input = prompt.map((t, i) => (i === prompt.length - 1 ? [t, next] : t));
const out = [];
for (let s = 0; s < steps; s++) {
    const result = await sequence.controlledEvaluate(input);
    const probs = result[input.length - 1].next.probabilities;
    const top = [];
    for (const [id, p] of probs) {
        top.push([id, Math.log(p)]);
        if (top.length === k) break;
    }
    out.push(top);
    input = [[top[0][0], next]];
}
process.stdout.write(JSON.stringify({vocab: model.tokens.vocabSize ?? null, steps: out}));
await context.dispose();
await model.dispose();
