import {getLlama} from "node-llama-cpp";
import fs from "fs";
const [,, modelPath, inputsPath, special] = process.argv;
const llama = await getLlama({gpu: false, build: "never", logLevel: "error"});
const model = await llama.loadModel({modelPath, vocabOnly: true});
const inputs = JSON.parse(fs.readFileSync(inputsPath, "utf8"));
const out = inputs.map(t => Array.from(model.tokenize(t, special === "1")));
process.stdout.write(JSON.stringify(out));
await model.dispose();
