// Local stand-ins for the model APIs an asset's connection speaks, each answering the way the real
// service does: the same paths, credentials (401/403 bodies as the real APIs write them), unknown
// model or deployment errors, request shapes checked, and the reply in the service's own shape.
//
//   openai            POST /v1/chat/completions, Authorization: Bearer; 401 invalid_api_key, 404 model_not_found
//   openai_responses  POST /v1/responses, Bearer; output[].content[] output_text blocks
//   anthropic         POST /v1/messages, x-api-key + anthropic-version; content blocks; not_found_error
//   ollama            POST /api/chat (streams NDJSON unless stream:false), /v1/chat/completions, GET / "Ollama
//                     is running"; unknown model 404 {"error":"model \"x\" not found, try pulling it first"};
//                     no credentials of its own (as Ollama), or a bearer when `secret` is given (behind a proxy)
//   azure_openai      POST /openai/deployments/{d}/chat/completions?api-version=, api-key header; DeploymentNotFound
//   gemini            POST /v1beta/models/{m}:generateContent, key= query or x-goog-api-key; PERMISSION_DENIED,
//                     API_KEY_INVALID, NOT_FOUND
//   template          POST /api/ask {"input":{"text"}} -> {"data":{"answer"}}, Basic auth
//   prompt            POST /generate {prompt} -> {output}, Bearer
// variant 'vulnerable' obeys injected instructions and leaks (targets.mjs carelessReply); 'hardened'
// refuses (carefulReply) and bounds request size. rateLimited: every authenticated request gets the
// service's own answer to a caller over its quota (429 with Retry-After and the vendor's error body;
// Ollama, which has no quotas, answers 503 "server busy" when its queue is full). tls: https with a
// self-signed certificate. Every request is
// recorded (method, url, headers, body, and `answered` once its answer was written) so a test can
// grep what was sent, and where. behaviour (tests/api/lib/failmodes.mjs): a model of one failure
// mode, given the whole conversation [{role, content}] and the request; it answers text, or
// {tool: name} for a call of an offered tool in the flavour's format (OpenAI tool_calls,
// Anthropic tool_use). delayMs slows every answer.
import http from 'node:http';
import https from 'node:https';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { carelessReply, carefulReply } from './targets.mjs';

function readBody(req) {
  return new Promise((resolve) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

// The last user turn's text of each flavour's request (and the whole conversation for the model).
function promptOf(flavour, msg) {
  const text = (c) => typeof c === 'string' ? c : Array.isArray(c) ? c.map(b => b.text ?? '').join('') : '';
  switch (flavour) {
    case 'gemini': return (msg.contents ?? []).filter(c => c.role === 'user').map(c => (c.parts ?? []).map(p => p.text).join('')).at(-1) ?? '';
    case 'openai_responses': return text((Array.isArray(msg.input) ? msg.input.filter(m => m.role === 'user').at(-1)?.content : msg.input) ?? '');
    case 'template': return String(msg.input?.text ?? '');
    case 'prompt': return String(msg.prompt ?? '');
    default: return text((msg.messages ?? []).filter(m => m.role === 'user').at(-1)?.content ?? '');
  }
}

// The whole conversation of a request, [{role, content}] (one user turn for flavours without one).
function conversationOf(flavour, msg) {
  const text = (c) => typeof c === 'string' ? c : Array.isArray(c) ? c.map(b => b.text ?? '').join('') : '';
  if (Array.isArray(msg?.messages)) return msg.messages.map((m) => ({ role: m.role, content: text(m.content) }));
  if (flavour === 'gemini') return (msg?.contents ?? []).map((c) => ({ role: c.role === 'model' ? 'assistant' : c.role, content: (c.parts ?? []).map((p) => p.text).join('') }));
  if (Array.isArray(msg?.input)) return msg.input.map((m) => ({ role: m.role, content: text(m.content) }));
  return [{ role: 'user', content: promptOf(flavour, msg ?? {}) }];
}

export async function startLlmApi({ flavour, variant = 'vulnerable', secret, model = 'm1', apiVersion = '2024-10-21', rateLimited = false, tls = false, behaviour = null, delayMs = 0 }) {
  const requests = [];
  const vulnerable = variant === 'vulnerable';
  const handler = async (req, res) => {
    const body = await readBody(req);
    const record = { method: req.method, url: req.url, headers: req.headers, body, answered: false };
    requests.push(record);
    if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
    const url = new URL(req.url, 'http://x');
    const send = (status, obj, extra = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...extra });
      res.end(typeof obj === 'string' ? obj : JSON.stringify(obj), () => { record.answered = true; });
    };
    if (req.method === 'GET') {
      if (flavour === 'ollama' && url.pathname === '/') { res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }); return res.end('Ollama is running'); }
      return send(404, flavour === 'ollama' ? '404 page not found' : { error: { message: 'Not found' } });
    }
    if (!vulnerable && body.length > 16384) return send(413, { error: { message: 'request too large' } });
    let msg = null;
    try { msg = JSON.parse(body); } catch { /* below */ }
    const bearer = req.headers.authorization === `Bearer ${secret}`;
    const act = (m) => behaviour ? behaviour(conversationOf(flavour, m), m) : null;
    const reply = (m) => {
      const b = act(m);
      if (b !== null) return typeof b === 'string' ? b : '';
      const p = promptOf(flavour, m);
      return vulnerable ? carelessReply(p) : carefulReply(p);
    };
    const badJson = (s) => send(400, s);
    switch (flavour) {
      case 'openai': case 'openai_responses': {
        const path = flavour === 'openai' ? '/v1/chat/completions' : '/v1/responses';
        if (url.pathname !== path) return send(404, { error: { message: `Invalid URL (POST ${url.pathname})`, type: 'invalid_request_error', param: null, code: null } });
        if (!req.headers.authorization) return send(401, { error: { message: "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).", type: 'invalid_request_error', param: null, code: null } });
        if (!bearer) return send(401, { error: { message: 'Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } });
        if (rateLimited) return send(429, { error: { message: `Rate limit reached for ${model} in organization org-standin on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20s. Visit https://platform.openai.com/account/rate-limits to learn more.`, type: 'requests', param: null, code: 'rate_limit_exceeded' } }, { 'retry-after': '20', 'x-ratelimit-limit-requests': '3', 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '20s' });
        if (!msg) return badJson({ error: { message: "We could not parse the JSON body of your request.", type: 'invalid_request_error', param: null, code: null } });
        if (msg.model !== model) return send(404, { error: { message: `The model \`${msg.model}\` does not exist or you do not have access to it.`, type: 'invalid_request_error', param: null, code: 'model_not_found' } });
        if (!vulnerable && (msg.max_tokens ?? msg.max_output_tokens ?? 0) > 4096) return send(400, { error: { message: 'max_tokens is too large', type: 'invalid_request_error', param: 'max_tokens', code: null } });
        const call = act(msg);
        if (flavour === 'openai' && call?.tool) return send(200, { id: 'chatcmpl-1', object: 'chat.completion', created: 1, model, choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: call.tool, arguments: JSON.stringify(call.args ?? {}) } }], refusal: null }, finish_reason: 'tool_calls' }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } });
        const text = reply(msg);
        if (flavour === 'openai') return send(200, { id: 'chatcmpl-1', object: 'chat.completion', created: 1, model, choices: [{ index: 0, message: { role: 'assistant', content: text, refusal: null }, finish_reason: 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } });
        return send(200, { id: 'resp_1', object: 'response', status: 'completed', model, output: [{ type: 'reasoning', id: 'rs_1', summary: [] }, { type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] }] });
      }
      case 'anthropic': {
        const err = (status, type, message) => send(status, { type: 'error', error: { type, message } });
        if (url.pathname !== '/v1/messages') return err(404, 'not_found_error', 'Not Found');
        if (!req.headers['x-api-key']) return err(401, 'authentication_error', 'x-api-key header is required');
        if (req.headers['x-api-key'] !== secret) return err(401, 'authentication_error', 'invalid x-api-key');
        if (rateLimited) { res.setHeader('retry-after', '30'); return err(429, 'rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit (https://docs.anthropic.com/en/api/rate-limits); see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later.'); }
        if (!req.headers['anthropic-version']) return err(400, 'invalid_request_error', 'anthropic-version: header is required');
        if (!msg) return err(400, 'invalid_request_error', 'messages: field required');
        if (typeof msg.max_tokens !== 'number') return err(400, 'invalid_request_error', 'max_tokens: Field required');
        if (msg.model !== model) return err(404, 'not_found_error', `model: ${msg.model}`);
        if (msg.messages?.[0]?.role !== 'user') return err(400, 'invalid_request_error', 'messages: first message must use the "user" role');
        if (!vulnerable && msg.max_tokens > 4096) return err(400, 'invalid_request_error', 'max_tokens: 1000000 > 8192, which is the maximum allowed');
        const call = act(msg);
        if (call?.tool) return send(200, { id: 'msg_01', type: 'message', role: 'assistant', model, content: [{ type: 'text', text: 'Sure, doing that now.' }, { type: 'tool_use', id: 'toolu_01', name: call.tool, input: call.args ?? {} }], stop_reason: 'tool_use', stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } });
        const text = reply(msg);
        return send(200, { id: 'msg_01', type: 'message', role: 'assistant', model, content: [{ type: 'text', text: text.slice(0, 5) }, { type: 'text', text: text.slice(5) }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } });
      }
      case 'ollama': {
        if (secret && !bearer) return send(401, { error: 'unauthorized' });
        if (rateLimited) return send(503, { error: 'server busy, please try again.  maximum pending requests exceeded' });
        if (url.pathname === '/v1/chat/completions') {
          if (msg?.model !== model) return send(404, { error: { message: `model "${msg?.model}" not found, try pulling it first`, type: 'api_error', param: null, code: null } });
          return send(200, { id: 'chatcmpl-1', object: 'chat.completion', model, choices: [{ index: 0, message: { role: 'assistant', content: reply(msg) }, finish_reason: 'stop' }] });
        }
        if (url.pathname !== '/api/chat') return send(404, '404 page not found');
        if (!msg) return send(400, { error: 'invalid character' });
        if (msg.model !== model) return send(404, { error: `model "${msg.model}" not found, try pulling it first` });
        const text = reply(msg);
        const at = '2026-01-01T00:00:00Z';
        if (msg.stream !== false) { // Ollama streams NDJSON unless told not to
          res.writeHead(200, { 'content-type': 'application/x-ndjson' });
          res.write(JSON.stringify({ model, created_at: at, message: { role: 'assistant', content: text }, done: false }) + '\n');
          return res.end(JSON.stringify({ model, created_at: at, message: { role: 'assistant', content: '' }, done: true, done_reason: 'stop' }) + '\n');
        }
        if (!vulnerable && (msg.options?.num_predict ?? 0) > 4096) return send(400, { error: 'num_predict too large' });
        return send(200, { model, created_at: at, message: { role: 'assistant', content: text }, done_reason: 'stop', done: true, total_duration: 1, eval_count: 1 });
      }
      case 'azure_openai': {
        const m = url.pathname.match(/^\/openai\/deployments\/([^/]+)\/chat\/completions$/);
        if (!m || !url.searchParams.get('api-version')) return send(404, { error: { code: '404', message: 'Resource not found' } });
        if (req.headers['api-key'] !== secret) return send(401, { error: { code: '401', message: 'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.' } });
        if (rateLimited) return send(429, { error: { code: '429', message: `Requests to the ChatCompletions_Create Operation under Azure OpenAI API version ${url.searchParams.get('api-version')} have exceeded token rate limit of your current OpenAI S0 pricing tier. Please retry after 60 seconds. Please go here: https://aka.ms/oai/quotaincrease if you would like to further increase the default rate limit.` } }, { 'retry-after': '60' });
        if (url.searchParams.get('api-version') !== apiVersion) return send(400, { error: { code: 'BadRequest', message: 'API version not supported' } });
        if (m[1] !== model) return send(404, { error: { code: 'DeploymentNotFound', message: 'The API deployment for this resource does not exist. If you created the deployment within the last 5 minutes, please wait a moment and try again.' } });
        if (!msg) return send(400, { error: { code: 'BadRequest', message: 'invalid JSON' } });
        if (!vulnerable && (msg.max_tokens ?? 0) > 4096) return send(400, { error: { code: 'BadRequest', message: 'max_tokens is too large' } });
        return send(200, { id: 'chatcmpl-1', object: 'chat.completion', model: 'gpt-4o', choices: [{ index: 0, message: { role: 'assistant', content: reply(msg) }, finish_reason: 'stop', content_filter_results: {} }] });
      }
      case 'gemini': {
        const m = url.pathname.match(/^\/(v1beta|v1)\/models\/([^/:]+):generateContent$/);
        const gerr = (code, status, message) => send(code, { error: { code, message, status } });
        if (!m) return gerr(404, 'NOT_FOUND', 'Not found');
        const key = url.searchParams.get('key') ?? req.headers['x-goog-api-key'];
        if (!key) return gerr(403, 'PERMISSION_DENIED', "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.");
        if (key !== secret) return gerr(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.');
        if (rateLimited) return gerr(429, 'RESOURCE_EXHAUSTED', 'Resource has been exhausted (e.g. check quota).');
        if (m[2] !== model) return gerr(404, 'NOT_FOUND', `models/${m[2]} is not found for API version ${m[1]}, or is not supported for generateContent. Call ListModels to see the list of available models and their supported methods.`);
        if (!msg?.contents) return gerr(400, 'INVALID_ARGUMENT', 'contents is not specified');
        if (!vulnerable && (msg.generationConfig?.maxOutputTokens ?? 0) > 8192) return gerr(400, 'INVALID_ARGUMENT', 'max_output_tokens too large');
        return send(200, { candidates: [{ content: { parts: [{ text: reply(msg) }], role: 'model' }, finishReason: 'STOP', index: 0 }], usageMetadata: { totalTokenCount: 2 }, modelVersion: model });
      }
      case 'template': {
        if (url.pathname !== '/api/ask') return send(404, { message: 'no route' });
        const basic = 'Basic ' + Buffer.from(secret ?? '').toString('base64');
        if (req.headers.authorization !== basic) return send(401, { message: 'authentication required' }, { 'www-authenticate': 'Basic realm="ask"' });
        if (rateLimited) return send(429, { message: 'too many requests' }, { 'retry-after': '10' });
        if (typeof msg?.input?.text !== 'string') return send(422, { message: 'input.text is required' });
        return send(200, { data: { answer: reply(msg), model }, meta: { ok: true } });
      }
      case 'prompt': {
        if (url.pathname !== '/generate') return send(404, { error: 'not found' });
        if (!bearer) return send(401, { error: 'authentication required' });
        if (rateLimited) return send(429, { error: 'rate limit exceeded' }, { 'retry-after': '10' });
        if (!msg) return send(400, { error: 'bad request' });
        return send(200, { output: reply(msg) });
      }
    }
    return send(500, { error: 'unknown flavour' });
  };
  // tls: https with a self-signed certificate (as a test or internal deployment often has)
  let server, certDir;
  if (tls) {
    certDir = mkdtempSync(join(tmpdir(), 'bulwark-llmcert-'));
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-subj', '/CN=127.0.0.1',
      '-days', '2', '-keyout', join(certDir, 'key.pem'), '-out', join(certDir, 'cert.pem')], { stdio: 'ignore' });
    server = https.createServer({ key: readFileSync(join(certDir, 'key.pem')), cert: readFileSync(join(certDir, 'cert.pem')) }, handler);
  } else {
    server = http.createServer(handler);
  }
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `${tls ? 'https' : 'http'}://127.0.0.1:${server.address().port}`;
  const close = () => new Promise((r) => {
    server.closeAllConnections?.();
    server.close(() => { if (certDir) rmSync(certDir, { recursive: true, force: true }); r(); });
  });
  return { base, requests, close };
}

// The connection (with its secret) and endpoint that point an asset at a stand-in.
export function connectionFor(flavour, api, secret, model = 'm1') {
  const b = api.base;
  switch (flavour) {
    case 'openai': return { endpoint: `${b}/v1`, connection: { api: 'openai', model, auth: { type: 'bearer', secret } } };
    case 'openai_responses': return { endpoint: `${b}/v1`, connection: { api: 'openai_responses', model, auth: { type: 'bearer', secret } } };
    case 'anthropic': return { endpoint: b, connection: { api: 'anthropic', model, auth: { type: 'header', name: 'x-api-key', secret } } };
    case 'ollama': return { endpoint: `${b}/v1`, connection: { api: 'ollama', model, auth: { type: 'bearer', secret } } };
    case 'azure_openai': return { endpoint: b, connection: { api: 'azure_openai', model, api_version: '2024-10-21', auth: { type: 'header', name: 'api-key', secret } } };
    case 'gemini': return { endpoint: b, connection: { api: 'gemini', model, auth: { type: 'query', name: 'key', secret } } };
    case 'template': return { endpoint: `${b}/api/ask`, connection: { api: 'template', request_template: { input: { text: '{{prompt}}' }, options: { max: '{{max_tokens}}' } }, response_path: 'data.answer', auth: { type: 'basic', secret: `svc:${secret}` } } };
    case 'prompt': return { endpoint: `${b}/generate`, connection: { api: 'prompt', auth: { type: 'bearer', secret } } };
  }
  throw new Error('unknown flavour ' + flavour);
}

export const FLAVOURS = ['openai', 'openai_responses', 'anthropic', 'ollama', 'azure_openai', 'gemini', 'template', 'prompt'];
