// Renders the chat templates of this folder with @huggingface/jinja (the Jinja engine of transformers.js) for
// ChatTemplateTest's expected strings:  NLC_DIR=FOLDER node render.mjs  (FOLDER holds node_modules/@huggingface/jinja)
import fs from "fs";
import path from "path";
import {fileURLToPath, pathToFileURL} from "url";
const here = path.dirname(fileURLToPath(import.meta.url));
const {Template} = await import(pathToFileURL(path.resolve(process.env.NLC_DIR,
    "node_modules/@huggingface/jinja/dist/index.js")).href);
const conversation = [
    {role: "system", content: "You are a helpful assistant."},
    {role: "user", content: "Hello!"},
    {role: "assistant", content: " Hi, how can I help? "},
    {role: "user", content: "What is 2+2?"}];
const thought = [
    {role: "user", content: "Hello!"},
    {role: "assistant", content: "<think>\nThe user greets me.\n</think>\n\nHi!"}];
const out = {};
for (const file of ["qwen3.jinja", "gemma3-it.jinja", "phi3.5-mini-instruct.jinja"]) {
    const t = new Template(fs.readFileSync(path.join(here, file), "utf8"));
    const base = {bos_token: file.startsWith("gemma") ? "<bos>" : "<s>", eos_token: file.startsWith("phi") ? "<|endoftext|>" : "<eos>"};
    out[file] = {
        generation: t.render({...base, messages: conversation, add_generation_prompt: true}),
        noGeneration: t.render({...base, messages: conversation, add_generation_prompt: false}),
        noSystem: t.render({...base, messages: conversation.slice(1), add_generation_prompt: true}),
        thinkingOff: t.render({...base, messages: conversation, add_generation_prompt: true, enable_thinking: false}),
        thoughtLast: t.render({...base, messages: thought, add_generation_prompt: false}),
        thoughtThenUser: t.render({...base, messages: [...thought, {role: "user", content: "And?"}], add_generation_prompt: true}),
    };
}
process.stdout.write(JSON.stringify(out, null, 1));
