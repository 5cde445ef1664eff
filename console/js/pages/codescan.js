// Code scan: paste code or open a file (read here with FileReader, as text), choose its language,
// and POST it to /api/vibe-code/scan; the findings are shown on the code's own lines (severity,
// rule, CWE, OWASP LLM, remediation, the taint trace's steps). "Download SARIF" asks the same
// endpoint for its SARIF 2.1.0 view (?format=sarif) and saves it from a blob: URL. FREE accounts
// get the API's gated view (the top 3 findings) and are told how many are hidden and why.
import { api } from '../api.js';
import { h, errorBox } from '../dom.js';
import { gateBox } from '../gate.js';
import { sevBadge, facts, signedOut } from '../findings.js';

const LANGS = [['py', 'Python'], ['js', 'JavaScript'], ['ts', 'TypeScript'], ['go', 'Go'], ['java', 'Java'],
  ['php', 'PHP'], ['rb', 'Ruby'], ['cs', 'C#'], ['rs', 'Rust']];
const EXT = { py: 'py', js: 'js', mjs: 'js', cjs: 'js', jsx: 'js', ts: 'ts', tsx: 'ts', go: 'go', java: 'java',
  php: 'php', rb: 'rb', cs: 'cs', rs: 'rs' };
const SEV_ORDER = { CRITICAL: 4, HIGH: 3, MEDIUM: 2, LOW: 1 };
const STEP = { source: 'untrusted data enters', step: 'flows on', sink: 'reaches the sink' };

function findingNote(f) {
  return h('div', { class: `finding-note sev-${f.severity.toLowerCase()}`, 'data-rule': f.rule_id },
    h('p', {}, sevBadge(f.severity), ' ', h('strong', {}, f.title), ' ', h('code', {}, f.rule_id), ' · ', f.cwe,
      f.owasp_llm ? ` · ${f.owasp_llm}` : '', ` · line ${f.line}${f.end_line > f.line ? `–${f.end_line}` : ''}, column ${f.column}`),
    h('p', { class: 'remediation' }, f.remediation),
    f.trace ? h('ol', { class: 'trace', 'aria-label': 'How the data got there' }, f.trace.map((t) =>
      h('li', {}, `${t.kind}: line ${t.line}, column ${t.column} — ${STEP[t.kind] || t.kind}`))) : null);
}

// The code with its line numbers; a line holding a finding is marked with the worst severity on
// it and followed by the findings' notes; lines on a trace are marked too.
function codeView(code, findings) {
  const byLine = new Map(), traced = new Set();
  for (const f of findings) {
    if (!byLine.has(f.line)) byLine.set(f.line, []);
    byLine.get(f.line).push(f);
    for (const t of f.trace || []) if (t.line !== f.line) traced.add(t.line);
  }
  const lines = code.split('\n');
  const rows = lines.map((text, i) => {
    const n = i + 1, fs = byLine.get(n);
    const worst = fs ? fs.reduce((a, f) => (SEV_ORDER[f.severity] > SEV_ORDER[a] ? f.severity : a), 'LOW') : null;
    const cls = ['code-line', worst ? `marked sev-${worst.toLowerCase()}` : '', traced.has(n) ? 'traced' : ''].filter(Boolean).join(' ');
    return h('li', { class: cls, 'data-line': String(n) },
      h('span', { class: 'ln', 'aria-hidden': 'true' }, String(n)),
      h('code', {}, text || ' '),
      worst ? h('span', { class: 'visually-hidden' }, ` (line ${n}: ${fs.length} finding${fs.length > 1 ? 's' : ''}, worst ${worst})`) : null,
      fs ? h('div', { class: 'notes' }, fs.map(findingNote)) : null);
  });
  return h('ol', { class: 'code-view', id: 'code-view', 'aria-label': 'The scanned code with its findings' }, rows);
}

function gatedNote(r) {
  if (!r.gated) return null;
  const up = r.upgrade || {};
  return h('div', { class: 'alert gate', role: 'note', id: 'gated-note' },
    h('strong', {}, `Showing the top ${r.findings.length} of ${r.total_findings} findings.`),
    ` ${r.locked_count} more are hidden on the FREE plan; the ${up.tier || 'STARTER'} plan${up.price ? ` (${up.price})` : ''} shows every finding.`,
    up.url ? h('a', { href: up.url, rel: 'noopener' }, ' Upgrade') : null);
}

export async function render(main) {
  const status = h('div', { id: 'code-status' });
  const results = h('div', { id: 'code-results', 'aria-live': 'polite' });
  const lang = h('select', { id: 'code-lang', name: 'language', required: true },
    LANGS.map(([v, n]) => h('option', { value: v }, n)));
  const code = h('textarea', { id: 'code-input', name: 'code', rows: '14', spellcheck: 'false', required: true,
    autocomplete: 'off', class: 'mono' });
  const context = h('input', { id: 'code-context', name: 'context', maxlength: '4096', placeholder: 'e.g. test fixtures' });
  const file = h('input', { id: 'code-file', name: 'file', type: 'file', accept: Object.keys(EXT).map((e) => `.${e}`).join(',') });
  const submit = h('button', { type: 'submit', id: 'scan-code' }, 'Scan');
  const sarif = h('button', { type: 'button', class: 'secondary', id: 'download-sarif', disabled: true }, 'Download SARIF');
  const saved = h('span', { class: 'muted', role: 'status', id: 'sarif-status' });
  let lastBody = null, lastUrl = null;

  file.addEventListener('change', () => {
    const f = file.files && file.files[0];
    if (!f) return;
    const reader = new FileReader();
    reader.onload = () => {
      code.value = String(reader.result);
      const ext = (f.name.split('.').pop() || '').toLowerCase();
      if (EXT[ext]) lang.value = EXT[ext];
      status.replaceChildren(h('p', { class: 'muted', role: 'status' }, `Read ${f.name} (${f.size} bytes).`));
    };
    reader.onerror = () => status.replaceChildren(errorBox({ message: `${f.name} could not be read.` }));
    reader.readAsText(f);
  });

  const form = h('form', { class: 'stack', novalidate: true },
    h('div', { class: 'grid-form' },
      h('label', { for: 'code-lang' }, 'Language', lang),
      h('label', { for: 'code-file' }, 'Or open a file', file),
      h('label', { for: 'code-context' }, 'Context (optional)', context)),
    h('label', { for: 'code-input' }, 'Code', code),
    h('div', { class: 'btn-row' }, submit, sarif, saved));

  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    status.replaceChildren();
    saved.textContent = '';
    const body = { code: code.value, language: lang.value };
    if (context.value.trim()) body.context = context.value.trim();
    submit.disabled = true;
    try {
      const r = await api('POST', '/api/vibe-code/scan', body);
      lastBody = body;
      sarif.disabled = false;
      results.replaceChildren(h('div', {},
        h('h2', {}, 'Result'),
        facts([
          ['Grade', h('strong', { id: 'risk-grade' }, r.risk_grade)], ['Risk score', `${r.risk_score} / 100`],
          ['Findings', `${r.total_findings}: ${r.summary.critical} critical, ${r.summary.high} high, ${r.summary.medium} medium, ${r.summary.low} low`],
          ['Lines', String(r.lines)], ['Plan', r.gated ? 'FREE (gated view)' : r.tier],
          ['Truncated', r.truncated ? (r.time_limited ? 'yes: the scan reached its time budget' : 'yes: more than 1000 findings') : null],
        ], { id: 'code-summary' }),
        gatedNote(r),
        r.findings.length ? null : h('p', { class: 'muted' }, 'No findings.'),
        codeView(body.code, r.findings)));
    } catch (e) {
      if (signedOut(e)) return;
      status.replaceChildren(gateBox(e));
    } finally {
      submit.disabled = false;
    }
  });

  // SARIF: the API's own rendering of the same scan, offered as a file
  sarif.addEventListener('click', async () => {
    if (!lastBody) return;
    sarif.disabled = true;
    try {
      const log = await api('POST', '/api/vibe-code/scan?format=sarif', lastBody);
      if (lastUrl) URL.revokeObjectURL(lastUrl);
      lastUrl = URL.createObjectURL(new Blob([JSON.stringify(log, null, 2)], { type: 'application/sarif+json' }));
      const a = h('a', { href: lastUrl, download: `bulwark-${lastBody.language}.sarif`, id: 'sarif-link' }, 'SARIF file');
      a.hidden = true;
      document.body.append(a);
      a.click();
      a.remove();
      saved.textContent = `SARIF saved (${log.runs[0].results.length} results).`;
    } catch (e) {
      if (signedOut(e)) return;
      status.replaceChildren(gateBox(e));
    } finally {
      sarif.disabled = false;
    }
  });

  main.append(h('h1', {}, 'Code scan'),
    h('p', { class: 'muted' }, 'Check AI-generated code for injection, secrets, SSRF, weak crypto and LLM risks.'),
    h('section', { class: 'card', 'aria-labelledby': 'code-form-title' }, h('h2', { id: 'code-form-title' }, 'Code to scan'), status, form),
    results);
}
