// Drives parley serve with the official OpenAI client; prints one JSON object for OpenAiNodeClientTest.
import OpenAI from 'openai';

const [baseURL, apiKey, prompt] = process.argv.slice(2);
const client = new OpenAI({ baseURL, apiKey, maxRetries: 0, timeout: 120_000 });

const models = [];
for await (const m of client.models.list()) {
  models.push(m.id);
}
const model = models[0];
const messages = [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: 'Hello there' },
];
const whole = await client.chat.completions.create({ model, messages, temperature: 0, max_tokens: 16 });

const stream = await client.chat.completions.create({
  model, messages, temperature: 0, max_tokens: 16, stream: true, stream_options: { include_usage: true },
});
let streamed = '';
let streamedUsage = null;
let chunks = 0;
for await (const chunk of stream) {
  chunks++;
  if (chunk.choices.length > 0) {
    streamed += chunk.choices[0].delta?.content ?? '';
  }
  if (chunk.usage) {
    streamedUsage = chunk.usage;
  }
}

const completion = await client.completions.create({ model, prompt, temperature: 0, max_tokens: 16 });

let unknownModel = null;
try {
  await client.chat.completions.create({ model: 'no-such-model', messages });
} catch (e) {
  unknownModel = { status: e.status, code: e.code ?? e.error?.code ?? null };
}

console.log(JSON.stringify({
  models,
  whole: whole.choices[0].message.content,
  wholeUsage: whole.usage,
  streamed,
  streamedUsage,
  chunks,
  completion: completion.choices[0].text,
  unknownModel,
}));
