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
// id: the figure's id; desc: one sentence saying what the bars are.
export function barChart({ id, title, desc, rows, max, unit = '' }) {
  const n = ++seq;
  const top = Math.max(max ?? 0, ...rows.map((r) => r.value), 1);
  const rowH = 30, labelW = 240, barW = 300, W = labelW + barW + 70;
  const H = Math.max(rows.length, 1) * rowH + 8;
  const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-labelledby': `ct${n} cd${n}`, class: 'chart' },
    s('title', { id: `ct${n}` }, title), s('desc', { id: `cd${n}` }, desc));
  rows.forEach((r, i) => {
    const y = 4 + i * rowH;
    const w = Math.round((Math.max(r.value, 0) / top) * barW);
    const label = r.label.length > 26 ? `${r.label.slice(0, 25)}…` : r.label; // whole in the data table
    svg.append(
      s('text', { x: labelW - 8, y: y + 19, 'text-anchor': 'end', class: 'chart-label' }, label),
      s('rect', { x: labelW, y: y + 4, width: barW, height: rowH - 10, class: 'chart-track', rx: 3 }),
      s('rect', { x: labelW, y: y + 4, width: Math.max(w, r.value > 0 ? 2 : 0), height: rowH - 10, class: `chart-bar ${r.cls || ''}`, rx: 3 }),
      s('text', { x: labelW + barW + 8, y: y + 19, class: 'chart-value' }, `${r.value}${unit}`));
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
