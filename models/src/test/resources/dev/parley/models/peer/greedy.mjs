// Greedy decoding with llama.cpp (node-llama-cpp 3.21.1, CPU, 1 thread, F32 KV cache) for PeerParityTest:
//   NLC_DIR=FOLDER node greedy.mjs MODEL.gguf '[prompt ids]' STEPS TOPK
// (FOLDER holds node_modules/node-llama-cpp)
// prints {"steps":[{"id":..,"top":[[id, log p], ...]}, ...]}: step k is the next-token distribution after the prompt
// and the first k greedy ids, its top TOPK tokens with their log-probabilities at temperature 1 (so log p_i - log p_j
// is the difference of the raw logits). Nothing is sampled: greedy is the most probable token.
import path from "path";
import {pathToFileURL} from "url";
const {getLlama} = await import(pathToFileURL(path.resolve(process.env.NLC_DIR, "node_modules/node-llama-cpp/dist/index.js")).href);
const [,, modelPath, promptJson, stepsArg, topArg] = process.argv;
const prompt = JSON.parse(promptJson);
const steps = Number(stepsArg);
const topK = Number(topArg);
const llama = await getLlama({gpu: false, build: "never", logLevel: "error"});
const model = await llama.loadModel({modelPath, gpuLayers: 0});
const context = await model.createContext({contextSize: 512, batchSize: 512, threads: 1, flashAttention: false,
    experimentalKvCacheKeyType: "F32", experimentalKvCacheValueType: "F32",
    sequences: 1});
const sequence = context.getSequence();
const wantNext = {generateNext: {probabilities: true, options: {temperature: 1, topK: 0, topP: 1, minP: 0}}};
const out = [];
let input = prompt.map((t, i) => i === prompt.length - 1 ? [t, wantNext] : t);
for (let k = 0; k < steps; k++) {
    const res = await sequence.controlledEvaluate(input);
    const next = res[res.length - 1].next;
    const top = [];
    for (const [id, p] of next.probabilities) {
        top.push([id, Math.log(p)]);
        if (top.length >= topK) break;
    }
    out.push({id: top[0][0], top});
    input = [[top[0][0], wantNext]];
}
process.stdout.write(JSON.stringify({steps: out}));
await context.dispose();
await model.dispose();
