// AI assets: the account's assets paged (GET /api/ai-security/assets), registration with a
// connection (POST .../assets/register: the credential is write-only, the read-back shows only
// whether one is kept), and an asset's view: its stored fields (GET .../assets/{id}), a live scan
// (POST .../{id}/scan), the score history and each scan's findings (GET .../{id}/scans, paged),
// and delete (DELETE .../{id}).
import { api } from '../api.js';
import { h, okBox, when } from '../dom.js';
import { gateBox } from '../gate.js';
import { pager } from '../pager.js';
import { sevBadge, facts, scanFindingsTable, scoreChart, signedOut } from '../findings.js';

const TYPES = ['model', 'agent', 'rag', 'api', 'pipeline'];
const FLAVOURS = ['openai', 'openai_responses', 'anthropic', 'ollama', 'azure_openai', 'gemini', 'prompt', 'template'];
const AUTHS = ['bearer', 'header', 'query', 'basic'];

function field(id, label, input, hint) {
  input.id = id;
  if (hint) input.setAttribute('aria-describedby', `${id}-hint`);
  return h('label', { for: id }, label, input, hint ? h('span', { class: 'hint muted', id: `${id}-hint` }, hint) : null);
}
const select = (name, options, first) => h('select', { name },
  first ? h('option', { value: '' }, first) : null, options.map((o) => h('option', { value: o }, o)));

// The connection as the API read it back: no secret, only whether one is kept.
function connectionFacts(c) {
  if (!c) return h('p', { class: 'muted' }, 'No connection: scans detect an OpenAI-compatible or {prompt} API without credentials.');
  return facts([
    ['API flavour', c.api], ['Model', c.model], ['API version', c.api_version],
    ['Credential', c.auth ? `${c.auth.type}${c.auth.name ? ` (${c.auth.name})` : ''}: ${c.auth.configured ? 'stored, sealed — never shown' : 'none stored'}` : 'none'],
    ['Extra headers', c.headers && Object.keys(c.headers).length ? Object.keys(c.headers).join(', ') : null],
    ['System prompt', c.system_prompt ? `${c.system_prompt.length} characters on record (used to recognise leaks)` : null],
    ['Response path', c.response_path],
  ], { 'data-connection': '' });
}

function registerForm(onCreated) {
  const status = h('div', { id: 'register-status' });
  const f = {
    name: h('input', { name: 'name', required: true, maxlength: '128', autocomplete: 'off' }),
    type: select('type', TYPES),
    endpoint: h('input', { name: 'endpoint', type: 'url', required: true, maxlength: '2048', placeholder: 'https://llm.example.com/v1' }),
    provider: h('input', { name: 'provider', maxlength: '128', placeholder: 'openai, self-hosted…' }),
    env: h('input', { name: 'env', maxlength: '64', placeholder: 'production' }),
    api: select('api', FLAVOURS, 'detect (no connection)'),
    model: h('input', { name: 'model', maxlength: '256' }),
    apiVersion: h('input', { name: 'api_version', maxlength: '64' }),
    auth: select('auth', AUTHS, 'none'),
    authName: h('input', { name: 'auth_name', maxlength: '128', placeholder: 'x-api-key' }),
    secret: h('input', { name: 'secret', type: 'password', autocomplete: 'new-password', maxlength: '4096' }),
    systemPrompt: h('textarea', { name: 'system_prompt', rows: '3', maxlength: '8192' }),
    template: h('textarea', { name: 'request_template', rows: '3', placeholder: '{"input": {"text": "{{prompt}}"}}' }),
    responsePath: h('input', { name: 'response_path', maxlength: '256', placeholder: 'data.answer' }),
  };
  const conn = h('fieldset', { class: 'grid-form' }, h('legend', {}, 'Connection (how bulwark speaks to the model)'),
    field('asset-api', 'API flavour', f.api),
    field('asset-model', 'Model or deployment', f.model),
    field('asset-api-version', 'API version', f.apiVersion, 'Azure api-version, Anthropic or Gemini version'),
    field('asset-auth', 'Credential type', f.auth),
    field('asset-auth-name', 'Header or query name', f.authName, 'for header and query credentials'),
    field('asset-secret', 'Credential', f.secret, 'write-only: sealed at rest, never shown again'),
    field('asset-system-prompt', 'Known system prompt (optional)', f.systemPrompt, 'never sent; a reply repeating it counts as a leak'));
  const tpl = h('fieldset', { class: 'grid-form', hidden: true }, h('legend', {}, 'Template API'),
    field('asset-template', 'Request body (JSON with {{prompt}})', f.template),
    field('asset-response-path', 'Reply path', f.responsePath));
  f.api.addEventListener('change', () => { tpl.hidden = f.api.value !== 'template'; });
  const submit = h('button', { type: 'submit', id: 'register-asset' }, 'Register asset');
  const form = h('form', { class: 'stack', novalidate: true },
    h('div', { class: 'grid-form' },
      field('asset-name', 'Name', f.name), field('asset-type', 'Type', f.type),
      field('asset-endpoint', 'Endpoint URL', f.endpoint), field('asset-provider', 'Provider (optional)', f.provider),
      field('asset-env', 'Environment (optional)', f.env)),
    conn, tpl, h('div', {}, submit));

  function body() {
    const b = { name: f.name.value.trim(), type: f.type.value, endpoint: f.endpoint.value.trim() };
    if (f.provider.value.trim()) b.provider = f.provider.value.trim();
    if (f.env.value.trim()) b.env = f.env.value.trim();
    if (f.api.value) {
      const c = { api: f.api.value };
      if (f.model.value.trim()) c.model = f.model.value.trim();
      if (f.apiVersion.value.trim()) c.api_version = f.apiVersion.value.trim();
      if (f.systemPrompt.value) c.system_prompt = f.systemPrompt.value;
      if (f.auth.value) {
        c.auth = { type: f.auth.value, secret: f.secret.value };
        if (f.authName.value.trim()) c.auth.name = f.authName.value.trim();
      }
      if (f.api.value === 'template') {
        try { c.request_template = JSON.parse(f.template.value); } catch { c.request_template = f.template.value; }
        c.response_path = f.responsePath.value.trim();
      }
      b.connection = c;
    }
    return b;
  }

  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    status.replaceChildren();
    submit.disabled = true;
    try {
      const a = await api('POST', '/api/ai-security/assets/register', body());
      f.secret.value = ''; // write-only: not kept in the page either
      form.reset();
      tpl.hidden = true;
      status.replaceChildren(okBox(`Asset “${a.name}” registered (${a.asset_id}).`),
        h('section', { class: 'card', 'aria-labelledby': 'readback-title', id: 'register-readback' },
          h('h3', { id: 'readback-title' }, 'As stored'),
          facts([['Endpoint', a.endpoint], ['Static score', `${a.security_score} (${a.score_basis})`], ['Risk', sevBadge(a.risk_level)]]),
          connectionFacts(a.connection)));
      await onCreated(a);
    } catch (e) {
      if (signedOut(e)) return;
      status.replaceChildren(gateBox(e, 'Registration')); // a 400 lists the fields at fault
    } finally {
      submit.disabled = false;
    }
  });
  return h('section', { class: 'card', 'aria-labelledby': 'register-title' },
    h('h2', { id: 'register-title' }, 'Register an asset'), status, form);
}

// One scan's findings, its score and what it spoke.
function scanView(s) {
  return h('section', { class: 'scan', 'data-scan-id': s.scan_id, 'aria-label': `Scan ${s.scan_id}` },
    facts([
      ['Scan', h('code', {}, s.scan_id)], ['When', when(s.scanned_at)],
      ['Score', h('span', { class: 'score' }, String(s.score))], ['Risk', sevBadge(s.risk_level)],
      ['Status', s.status || (s.incomplete ? 'incomplete' : 'completed')],
      ['API spoken', s.llm_api], ['OWASP LLM tested', (s.owasp_llm_tested || []).join(', ') || null],
      ['OWASP LLM hit', (s.owasp_llm_hits || []).join(', ') || 'none'], ['Requests', s.requests],
    ]),
    scanFindingsTable(s.findings, `Findings of scan ${s.scan_id}`));
}

// note: an okBox to show (after a scan), which also keeps the focus on the scan button
async function assetView(root, id, ctxList, note) {
  root.replaceChildren(h('p', { class: 'muted', role: 'status' }, 'Loading asset…'));
  let a;
  try {
    a = await api('GET', `/api/ai-security/assets/${encodeURIComponent(id)}`);
  } catch (e) {
    if (signedOut(e)) return;
    root.replaceChildren(gateBox(e));
    return;
  }
  const status = h('div', { id: 'asset-status' });
  const latest = h('div', { id: 'latest-scan' });
  const history = h('div', { id: 'score-history' });
  const scanBtn = h('button', { type: 'button', id: 'run-scan' }, 'Run a live scan');
  const delBtn = h('button', { type: 'button', class: 'danger', id: 'delete-asset' }, 'Delete asset');
  const title = h('h2', { id: 'asset-title', tabindex: '-1' }, a.name);

  const scans = pager({
    path: `/api/ai-security/assets/${encodeURIComponent(id)}/scans`, key: 'scans', label: 'Scans', limit: 10,
    render(items) {
      const pts = items.slice().reverse();
      history.replaceChildren(pts.length > 1 ? scoreChart(pts) : h('span'));
      if (!items.length) return h('p', { class: 'muted' }, 'No scans yet.');
      return h('table', { id: 'scans-table' }, h('caption', { class: 'muted' }, 'Score history, newest first'),
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'When'), h('th', { scope: 'col' }, 'Score'),
          h('th', { scope: 'col' }, 'Risk'), h('th', { scope: 'col', class: 'opt' }, 'Findings'), h('th', { scope: 'col' }, 'Details'))),
        h('tbody', {}, items.map((s) => h('tr', {},
          h('td', {}, when(s.scanned_at)), h('td', {}, String(s.score)), h('td', {}, sevBadge(s.risk_level)),
          h('td', { class: 'opt' }, String(s.findings.length)),
          h('td', {}, h('button', { type: 'button', class: 'secondary', 'aria-label': `Show findings of the scan of ${when(s.scanned_at)}`,
            onclick: () => { latest.replaceChildren(scanView(s)); } }, 'Findings'))))));
    },
  });

  scanBtn.addEventListener('click', async () => {
    status.replaceChildren(h('p', { class: 'muted', role: 'status' }, 'Scanning… (at most 30 s)'));
    scanBtn.disabled = true;
    try {
      const s = await api('POST', `/api/ai-security/assets/${encodeURIComponent(id)}/scan`);
      await ctxList.reload();
      // the asset again: its score, level and last scan are the scan's now
      await assetView(root, id, ctxList, okBox(`Scan finished: score ${s.score}, ${s.findings.length} finding(s).`));
      return;
    } catch (e) {
      if (signedOut(e)) return;
      status.replaceChildren(gateBox(e, 'Live scan'));
    } finally {
      scanBtn.disabled = false;
    }
  });
  delBtn.addEventListener('click', async () => {
    if (!confirm(`Delete the asset “${a.name}” and its scans?`)) return;
    try {
      await api('DELETE', `/api/ai-security/assets/${encodeURIComponent(id)}`);
      root.replaceChildren(okBox(`Asset “${a.name}” deleted.`));
      await ctxList.reload();
    } catch (e) {
      if (signedOut(e)) return;
      status.replaceChildren(gateBox(e));
    }
  });

  root.replaceChildren(h('section', { class: 'card', 'aria-labelledby': 'asset-title', id: 'asset-view', 'data-asset-id': a.asset_id },
    title,
    facts([
      ['Id', h('code', {}, a.asset_id)], ['Type', a.type], ['Endpoint', h('code', {}, a.endpoint)],
      ['Provider', a.provider || 'none'], ['Environment', a.env],
      ['Score', h('span', { id: 'asset-score' }, `${a.security_score} (${a.score_basis === 'live' ? 'from the last live scan' : 'static estimate'})`)],
      ['Risk', sevBadge(a.risk_level)], ['Registered', when(a.created_at)], ['Last scanned', when(a.last_scanned_at)],
    ]),
    h('h3', {}, 'Connection'), connectionFacts(a.connection),
    h('div', { class: 'btn-row' }, scanBtn, delBtn), status,
    h('h3', {}, 'Latest scan'), latest,
    h('h3', {}, 'Score history'), history, scans.node));
  if (note) {
    status.replaceChildren(note);
    scanBtn.focus();
  } else {
    title.focus();
  }
  if (a.last_scan_id) {
    try {
      latest.replaceChildren(scanView(await api('GET', `/api/ai-security/assets/${encodeURIComponent(id)}/scans/${encodeURIComponent(a.last_scan_id)}`)));
    } catch (e) {
      if (signedOut(e)) return;
      latest.replaceChildren(gateBox(e));
    }
  } else {
    latest.replaceChildren(h('p', { class: 'muted' }, 'Not scanned yet: the score is the registration estimate.'));
  }
  await scans.load();
}

export async function render(main) {
  const detail = h('div', { id: 'asset-detail' });
  const list = pager({
    path: '/api/ai-security/assets', key: 'assets', label: 'Assets', gate: 'AI assets', // below STARTER: the API's 403
    render(items) {
      if (!items.length) return h('p', { class: 'muted' }, 'No assets yet.');
      return h('table', { id: 'assets-table' }, h('caption', { class: 'muted' }, 'Your AI assets, newest first'),
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Name'), h('th', { scope: 'col' }, 'Type'),
          h('th', { scope: 'col', class: 'opt' }, 'Endpoint'), h('th', { scope: 'col' }, 'Score'), h('th', { scope: 'col' }, 'Risk'),
          h('th', { scope: 'col', class: 'opt' }, 'Last scanned'))),
        h('tbody', {}, items.map((a) => h('tr', { 'data-asset-id': a.asset_id },
          h('td', {}, h('button', { type: 'button', class: 'link', onclick: () => assetView(detail, a.asset_id, list) }, a.name)),
          h('td', {}, a.type), h('td', { class: 'opt' }, h('code', {}, a.endpoint)),
          h('td', {}, `${a.security_score}${a.score_basis === 'static' ? ' (est.)' : ''}`), h('td', {}, sevBadge(a.risk_level)),
          h('td', { class: 'opt' }, when(a.last_scanned_at))))));
    },
  });
  main.append(h('h1', {}, 'AI assets'),
    h('p', { class: 'muted' }, 'Models, agents and pipelines you run: register one with how to reach it, then scan it live.'),
    registerForm(async (a) => { await list.load(); await assetView(detail, a.asset_id, list); }),
    detail,
    h('h2', {}, 'Assets'), list.node);
  await list.load();
}
