// Rendering shared by the assets, red-team and code-scan pages: severity and risk badges, a
// findings table, a definition list, and a score history chart in plain SVG. Only what the API
// answered is shown; nothing here judges anything.
import { h } from './dom.js';

const SEVERITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW'];

// A severity or risk level as a badge (text, not colour alone, carries the level).
export function sevBadge(level) {
  if (!level) return h('span', { class: 'badge' }, 'not yet');
  const l = String(level).toUpperCase();
  return h('span', { class: `badge sev sev-${SEVERITIES.includes(l) ? l.toLowerCase() : 'none'}` }, l);
}

// label/value pairs as a <dl>; values may be nodes; null and undefined pairs are left out.
export function facts(pairs, attrs = {}) {
  const dl = h('dl', { class: 'facts', ...attrs });
  for (const [k, v] of pairs) {
    if (v === undefined || v === null) continue;
    dl.append(h('dt', {}, k), h('dd', {}, v));
  }
  return dl;
}

// The findings of a live asset scan: severity, check id and title, OWASP LLM id, what was
// observed (the evidence) and the remediation.
export function scanFindingsTable(findings, caption) {
  if (!findings || findings.length === 0) return h('p', { class: 'muted' }, 'No findings.');
  return h('div', { class: 'table-wrap' }, h('table', { class: 'findings' },
    h('caption', { class: 'muted' }, caption),
    h('thead', {}, h('tr', {},
      h('th', { scope: 'col' }, 'Severity'), h('th', { scope: 'col' }, 'Finding'), h('th', { scope: 'col' }, 'OWASP'),
      h('th', { scope: 'col' }, 'Evidence'), h('th', { scope: 'col' }, 'Remediation'))),
    h('tbody', {}, findings.map((f) => h('tr', { 'data-finding': f.id },
      h('td', { 'data-label': 'Severity' }, sevBadge(f.severity)),
      h('td', { 'data-label': 'Finding' }, h('strong', {}, f.title), h('br'), h('code', {}, f.id)),
      h('td', { 'data-label': 'OWASP' }, f.owasp_llm || '—'),
      h('td', { class: 'evidence', 'data-label': 'Evidence' }, f.detail),
      h('td', { 'data-label': 'Remediation' }, f.remediation))))));
}

// Scores over time (oldest left) as an SVG line with a point per scan; the table beside it says
// the same in text for screen readers.
export function scoreChart(points) {
  const NS = 'http://www.w3.org/2000/svg';
  const el = (tag, attrs) => {
    const e = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
    return e;
  };
  const W = 320, H = 120, P = 12;
  const svg = el('svg', { viewBox: `0 0 ${W} ${H}`, class: 'score-chart', role: 'img', 'aria-label': `Score history: ${points.map((p) => p.score).join(', ')}` });
  for (const y of [0, 50, 100]) {
    const yy = H - P - (y / 100) * (H - 2 * P);
    svg.append(el('line', { x1: P, x2: W - P, y1: yy, y2: yy, class: 'grid-line' }));
  }
  const step = points.length > 1 ? (W - 2 * P) / (points.length - 1) : 0;
  const xy = points.map((p, i) => [P + i * step, H - P - (p.score / 100) * (H - 2 * P)]);
  if (xy.length > 1) svg.append(el('polyline', { points: xy.map((c) => c.join(',')).join(' '), class: 'line' }));
  for (const [x, y] of xy) svg.append(el('circle', { cx: x, cy: y, r: 4, class: 'dot' }));
  return svg;
}

// In an event handler (a page's own render lets app.js see it), an ended session (401) goes back
// to the sign-in; true when it did.
export function signedOut(e) {
  if (!e || e.status !== 401) return false;
  location.hash = '#/signin';
  return true;
}
