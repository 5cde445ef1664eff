// Building DOM nodes without HTML strings: text is always text (nothing the API returns is parsed
// as markup), and nothing needs inline script or style.
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

// An error from the API as an alert: its message and the request id to quote to an operator.
export function errorBox(err) {
  const box = h('div', { class: 'alert error', role: 'alert' }, h('span', {}, err.message || 'Something went wrong.'));
  const fields = err.detail && Array.isArray(err.detail.errors) ? err.detail.errors : []; // VALIDATION_ERROR's list
  if (fields.length) box.append(h('ul', { class: 'fields' }, fields.map((f) => h('li', {}, `${f.field}: ${f.message}`))));
  if (err.requestId) box.append(h('span', { class: 'rid' }, `request id: ${err.requestId}`));
  return box;
}

export function okBox(text) {
  return h('div', { class: 'alert ok', role: 'status' }, text);
}

export function when(iso) {
  if (!iso) return 'never';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
}
