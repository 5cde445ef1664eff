// Charts written for the console: plain SVG built with the DOM (no library, no markup strings),
// coloured by the stylesheet's classes so light and dark both keep their contrast. Every chart is
// role="img" with a title and a description, and its numbers are also in a data table, so a
// screen reader (or anyone) can read them exactly.
import { h } from './dom.js';

const NS = 'http://www.w3.org/2000/svg';
let seq = 0;

function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) el.setAttribute(k, String(v));
  for (const c of children.flat()) if (c !== undefined && c !== null) el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return el;
}

function dataTable(caption, head, rows) {
  return h('details', { class: 'chart-data' }, h('summary', {}, 'Data'),
    h('table', {}, h('caption', { class: 'muted' }, caption),
      h('thead', {}, h('tr', {}, head.map((t) => h('th', { scope: 'col' }, t)))),
      h('tbody', {}, rows.map((r) => h('tr', {}, h('th', { scope: 'row' }, r[0]), r.slice(1).map((c) => h('td', {}, c)))))));
}

// Horizontal bars: rows [{label, value}], max (the scale's end; default the largest value).
// id: the figure's id; desc: one sentence saying what the bars are. Each label sits above its bar;
// widths are percentages (no viewBox), so text keeps its size from a phone to a wide screen.
export function barChart({ id, title, desc, rows, max, unit = '' }) {
  const n = ++seq;
  const top = Math.max(max ?? 0, ...rows.map((r) => r.value), 1);
  const rowH = 42, span = 82; // the track's share of the width, in %; the value goes after it
  const H = Math.max(rows.length, 1) * rowH + 4;
  const svg = s('svg', { width: '100%', height: H, role: 'img', 'aria-labelledby': `ct${n} cd${n}`, class: 'chart' },
    s('title', { id: `ct${n}` }, title), s('desc', { id: `cd${n}` }, desc));
  rows.forEach((r, i) => {
    const y = i * rowH;
    const w = (Math.max(r.value, 0) / top) * span;
    const label = r.label.length > 48 ? `${r.label.slice(0, 47)}…` : r.label; // whole in the data table
    svg.append(
      s('text', { x: 0, y: y + 15, class: 'chart-label' }, label),
      s('rect', { x: 0, y: y + 21, width: `${span}%`, height: 14, class: 'chart-track', rx: 3 }),
      s('rect', { x: 0, y: y + 21, width: `${w > 0 ? Math.max(w, 0.5).toFixed(2) : 0}%`, height: 14, class: `chart-bar ${r.cls || ''}`, rx: 3 }),
      s('text', { x: `${span + 2}%`, y: y + 33, class: 'chart-value' }, `${r.value}${unit}`));
  });
  return h('figure', { class: 'chart-fig', id },
    h('figcaption', {}, title), svg,
    dataTable(title, ['Item', `Value${unit ? ` (${unit.trim()})` : ''}`], rows.map((r) => [r.label, String(r.value)])));
}

// A score ring: value of 0..max as an arc, with a big centre text (a grade letter or the number).
export function scoreRing({ id, title, value, max = 100, centre, desc }) {
  const n = ++seq;
  const R = 52, C = 2 * Math.PI * R;
  const part = Math.max(0, Math.min(1, value / max));
  const svg = s('svg', { viewBox: '0 0 140 140', role: 'img', 'aria-labelledby': `ct${n} cd${n}`, class: 'ring' },
    s('title', { id: `ct${n}` }, title), s('desc', { id: `cd${n}` }, desc),
    s('circle', { cx: 70, cy: 70, r: R, class: 'ring-track' }),
    s('circle', { cx: 70, cy: 70, r: R, class: 'ring-arc', 'stroke-dasharray': `${(part * C).toFixed(1)} ${C.toFixed(1)}`, transform: 'rotate(-90 70 70)' }),
    s('text', { x: 70, y: 78, 'text-anchor': 'middle', class: 'ring-centre' }, centre),
    s('text', { x: 70, y: 102, 'text-anchor': 'middle', class: 'ring-sub' }, `${value}/${max}`));
  return h('figure', { class: 'ring-fig', id }, svg, h('figcaption', {}, title));
}
