// A harness on the official Node SDKs that plays one llmtck scenario.
//
// It follows docs/harness-protocol.md: it reads LLMTCK_SCENARIO, builds
// each client with no options at all (the SDKs read ANTHROPIC_BASE_URL,
// OPENAI_BASE_URL, GOOGLE_GEMINI_BASE_URL and AWS_ENDPOINT_URL_BEDROCK_RUNTIME
// and the keys llmtck sets), keeps the conversation as an application would
// and exits non-zero on a provider error. Gemini goes through @google/genai's
// streamed Chat, Bedrock through BedrockRuntimeClient's default HTTP/2.
//
//   llmtck test -- node examples/node-harness/harness.mjs
import { readFileSync } from 'node:fs';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { GoogleGenAI } from '@google/genai';
import { BedrockRuntimeClient, ConverseCommand } from '@aws-sdk/client-bedrock-runtime';

const CANCELLED = 'cancelled: the user pressed stop while the tool ran';
const sc = JSON.parse(readFileSync(process.env.LLMTCK_SCENARIO, 'utf8'));
const firstWire = (process.env.LLMTCK_SCENARIO_NAME || '').split('/')[0];
const tools = sc.tools || [];
const toolMap = new Map(tools.map((t) => [t.name, t]));
const maxTokens = sc.max_tokens || 1024;
const turns = (sc.turns || [{ prompt: sc.prompt }]).map((t) => ({
  ...t, wire: t.provider || firstWire, model: t.model || sc.model,
}));

// The conversation, in neutral entries; an assistant entry keeps its
// provider's own content, sent back unchanged to the same provider and model.
//   {role:'user', text} | {role:'assistant', wire, model, raw, text, calls:[{id,name,args}]}
//   {role:'results', results:[{id,name,output,error}]}

let anthropic, openai, genai, bedrock;

async function anthropicCall(turn, conv) {
  anthropic ??= new Anthropic({ maxRetries: 0 });
  const messages = [];
  for (const e of conv) {
    if (e.role === 'user') messages.push({ role: 'user', content: [{ type: 'text', text: e.text }] });
    else if (e.role === 'assistant') {
      const content = e.wire === 'anthropic' && e.model === turn.model ? e.raw
        : [...(e.text ? [{ type: 'text', text: e.text }] : []), ...e.calls.map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: JSON.parse(c.args) }))];
      messages.push({ role: 'assistant', content });
    } else {
      messages.push({ role: 'user', content: e.results.map((r) => ({ type: 'tool_result', tool_use_id: r.id, content: r.output, is_error: r.error })) });
    }
  }
  const body = { model: turn.model, max_tokens: maxTokens, messages, stream: true };
  if (sc.system) body.system = sc.system;
  if (sc.thinking) body.thinking = sc.thinking;
  if (tools.length) body.tools = tools.map((t) => ({ name: t.name, description: t.description || '', input_schema: t.input_schema }));
  const stream = await anthropic.messages.create(body);
  const blocks = [];
  const partial = [];
  let done = false;
  try {
    for await (const ev of stream) {
      if (ev.type === 'content_block_start') { blocks[ev.index] = { ...ev.content_block }; partial[ev.index] = ''; }
      else if (ev.type === 'content_block_delta') {
        const b = blocks[ev.index], d = ev.delta;
        if (d.type === 'text_delta') b.text += d.text;
        else if (d.type === 'thinking_delta') b.thinking += d.thinking;
        else if (d.type === 'signature_delta') b.signature = (b.signature || '') + d.signature;
        else if (d.type === 'input_json_delta') partial[ev.index] += d.partial_json;
      } else if (ev.type === 'content_block_stop') {
        const b = blocks[ev.index];
        if (b.type === 'tool_use') b.input = JSON.parse(partial[ev.index] || '{}');
      } else if (ev.type === 'message_stop') done = true;
    }
  } catch (err) {
    if (err instanceof Anthropic.APIError && err.status) throw err;
    done = false; // the stream was cut: the user pressed stop
  }
  if (!done) return null;
  const text = blocks.filter((b) => b.type === 'text').map((b) => b.text).join('');
  const calls = blocks.filter((b) => b.type === 'tool_use').map((b) => ({ id: b.id, name: b.name, args: JSON.stringify(b.input) }));
  return { role: 'assistant', wire: 'anthropic', model: turn.model, raw: blocks, text, calls };
}

async function chatCall(turn, conv) {
  openai ??= new OpenAI({ maxRetries: 0 });
  const messages = sc.system ? [{ role: 'system', content: sc.system }] : [];
  for (const e of conv) {
    if (e.role === 'user') messages.push({ role: 'user', content: e.text });
    else if (e.role === 'assistant') {
      const m = { role: 'assistant', content: e.text || null };
      if (e.calls.length) m.tool_calls = e.calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.args } }));
      messages.push(m);
    } else for (const r of e.results) messages.push({ role: 'tool', tool_call_id: r.id, content: r.output });
  }
  const body = { model: turn.model, messages, max_completion_tokens: maxTokens };
  if (tools.length) body.tools = tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description || '', parameters: t.input_schema } }));
  const m = (await openai.chat.completions.create(body)).choices[0].message;
  const calls = (m.tool_calls || []).map((c) => ({ id: c.id, name: c.function.name, args: c.function.arguments }));
  return { role: 'assistant', wire: 'openai', model: turn.model, raw: m, text: m.content || '', calls };
}

async function responsesCall(turn, conv) {
  openai ??= new OpenAI({ maxRetries: 0 });
  const input = [];
  for (const e of conv) {
    if (e.role === 'user') input.push({ role: 'user', content: e.text });
    else if (e.role === 'assistant') {
      if (e.wire === 'responses' && e.model === turn.model) input.push(...e.raw);
      else {
        if (e.text) input.push({ role: 'assistant', content: e.text });
        input.push(...e.calls.map((c) => ({ type: 'function_call', call_id: c.id, name: c.name, arguments: c.args })));
      }
    } else input.push(...e.results.map((r) => ({ type: 'function_call_output', call_id: r.id, output: r.output })));
  }
  const body = { model: turn.model, input, store: false, include: ['reasoning.encrypted_content'], max_output_tokens: maxTokens };
  if (sc.system) body.instructions = sc.system;
  if (tools.length) body.tools = tools.map((t) => ({ type: 'function', name: t.name, description: t.description || '', parameters: t.input_schema }));
  const out = (await openai.responses.create(body)).output;
  const calls = out.filter((i) => i.type === 'function_call').map((i) => ({ id: i.call_id, name: i.name, args: i.arguments }));
  const text = out.filter((i) => i.type === 'message').flatMap((i) => i.content).filter((c) => c.type === 'output_text').map((c) => c.text).join('');
  return { role: 'assistant', wire: 'responses', model: turn.model, raw: out, text, calls };
}

// Gemini through the SDK's Chat, streamed: it keeps its own history (a
// model content per chunk), so a chat lives as long as the scenario's
// Gemini turns do.
let chat;
async function geminiCall(turn, conv, pending) {
  genai ??= new GoogleGenAI({});
  if (!chat) {
    const config = { maxOutputTokens: maxTokens };
    if (sc.system) config.systemInstruction = sc.system;
    if (tools.length) config.tools = [{ functionDeclarations: tools.map((t) => ({ name: t.name, description: t.description || '', parametersJsonSchema: t.input_schema })) }];
    chat = genai.chats.create({ model: turn.model, config });
  }
  const parts = pending.map((p) => p);
  const stream = await chat.sendMessageStream({ message: parts });
  const got = [];
  for await (const chunk of stream) got.push(...(chunk.candidates?.[0]?.content?.parts || []));
  const calls = got.filter((p) => p.functionCall).map((p, n) => ({ id: p.functionCall.id || `gemini-call-${n}`, name: p.functionCall.name, args: JSON.stringify(p.functionCall.args || {}) }));
  const text = got.filter((p) => p.text && !p.thought).map((p) => p.text).join('');
  return { role: 'assistant', wire: 'gemini', model: turn.model, raw: got, text, calls };
}

async function bedrockCall(turn, conv) {
  bedrock ??= new BedrockRuntimeClient({ maxAttempts: 1 });
  const messages = [];
  for (const e of conv) {
    let m;
    if (e.role === 'user') m = { role: 'user', content: [{ text: e.text }] };
    else if (e.role === 'assistant') {
      m = { role: 'assistant', content: e.wire === 'bedrock' && e.model === turn.model ? e.raw
        : [...(e.text ? [{ text: e.text }] : []), ...e.calls.map((c) => ({ toolUse: { toolUseId: c.id, name: c.name, input: JSON.parse(c.args) } }))] };
    } else {
      m = { role: 'user', content: e.results.map((r) => ({ toolResult: { toolUseId: r.id, content: [{ text: r.output }], status: r.error ? 'error' : 'success' } })) };
    }
    const last = messages[messages.length - 1];
    if (last && last.role === m.role) last.content = [...last.content, ...m.content]; // Converse wants the roles to alternate
    else messages.push(m);
  }
  const input = { modelId: turn.model, messages, inferenceConfig: { maxTokens } };
  if (sc.system) input.system = [{ text: sc.system }];
  if (tools.length) input.toolConfig = { tools: tools.map((t) => ({ toolSpec: { name: t.name, description: t.description || '', inputSchema: { json: t.input_schema } } })) };
  const content = (await bedrock.send(new ConverseCommand(input))).output.message.content;
  const calls = content.filter((b) => b.toolUse).map((b) => ({ id: b.toolUse.toolUseId, name: b.toolUse.name, args: JSON.stringify(b.toolUse.input) }));
  return { role: 'assistant', wire: 'bedrock', model: turn.model, raw: content, text: content.map((b) => b.text || '').join(''), calls };
}

const CALLS = { anthropic: anthropicCall, openai: chatCall, responses: responsesCall, bedrock: bedrockCall };

function runTools(answer) {
  let cancelled = false;
  const results = answer.calls.map((c) => {
    const tool = toolMap.get(c.name);
    if (cancelled || tool?.cancel) { cancelled = true; return { id: c.id, name: c.name, output: CANCELLED, error: true }; }
    if (!tool) return { id: c.id, name: c.name, output: `no tool named ${c.name}`, error: true };
    return { id: c.id, name: c.name, output: tool.result, error: false };
  });
  return { results, cancelled };
}

function geminiResponses(results) {
  return results.map((r) => ({ functionResponse: { name: r.name, ...(r.id.startsWith('gemini-call-') ? {} : { id: r.id }), response: r.error ? { error: r.output } : { output: r.output } } }));
}

// Gemini results of a cancelled call wait for the next prompt, sent with it.
let geminiPending = [];

async function toolLoop(turn, conv) {
  const added = [];
  let next = [...geminiPending, { text: conv[conv.length - 1].text }];
  geminiPending = [];
  for (;;) {
    const answer = turn.wire === 'gemini' ? await geminiCall(turn, conv.concat(added), next) : await CALLS[turn.wire](turn, conv.concat(added));
    if (!answer) return { added, ended: 'aborted' };
    added.push(answer);
    if (!answer.calls.length) return { added, ended: 'final' };
    const { results, cancelled } = runTools(answer);
    added.push({ role: 'results', results });
    if (cancelled) {
      if (turn.wire === 'gemini') geminiPending = geminiResponses(results);
      return { added, ended: 'cancelled' };
    }
    next = geminiResponses(results);
  }
}

function matches(schema, v) {
  const t = schema.type;
  const is = { object: (x) => x && typeof x === 'object' && !Array.isArray(x), string: (x) => typeof x === 'string', number: (x) => typeof x === 'number', integer: Number.isInteger, boolean: (x) => typeof x === 'boolean', array: Array.isArray };
  if (t && is[t] && !is[t](v)) return false;
  if (is.object(v)) {
    const props = schema.properties || {};
    if ((schema.required || []).some((k) => !(k in v))) return false;
    if (schema.additionalProperties === false && Object.keys(v).some((k) => !(k in props))) return false;
    return Object.entries(v).every(([k, x]) => !props[k] || matches(props[k], x));
  }
  return true;
}

function valid(schema, text) {
  try { return matches(schema, JSON.parse(text)); } catch { return false; }
}

let conv = [];
try {
  for (const [i, turn] of turns.entries()) {
    if (turn.compact) conv = [{ role: 'user', text: turn.compact }];
    conv.push({ role: 'user', text: turn.prompt });
    let { added, ended } = await toolLoop(turn, conv);
    if (ended === 'final' && turn.output_schema && !valid(turn.output_schema, added[added.length - 1].text)) {
      // Retry once; the refused answer and the feedback are not kept.
      ({ added, ended } = await toolLoop(turn, [...conv, ...added, { role: 'user', text: turn.feedback }]));
    }
    if (ended === 'aborted') added = [];
    conv.push(...added);
    console.log(`turn ${i + 1} (${turn.wire}): ${ended}`);
  }
} catch (err) {
  const finding = err?.headers?.get?.('x-llmtck-finding') ?? err?.$response?.headers?.['x-llmtck-finding'];
  console.error(`harness: the provider refused a request: ${err?.status ?? err?.$metadata?.httpStatusCode ?? ''} ${err?.message ?? err}${finding ? `\n  finding: ${finding}` : ''}`);
  process.exit(1);
}
