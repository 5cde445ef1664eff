// A paged list read from the API the way a client pages it: `limit` plus the `next_cursor` the
// previous page answered (keyset, so a deep page costs what the first one does). "Previous"
// replays the cursors already seen; nothing is computed in the browser that the API did not say.
// A 403 TIER_REQUIRED is the API's gate: shown with gateBox (its message, the tier it needs, the
// account's, the request id) in place of the table, and told to the page (onGate), so a page needs
// no request of its own to learn whether its list is open to the account.
//
//   const p = pager({ path: '/api/ai-security/assets', params: { sort: 'created_at' },
//                     key: 'assets', render: (items, data) => tableNode, label: 'Assets',
//                     gate: 'AI assets', onGate: (err) => form.disable() });
//   main.append(p.node); await p.load();
import { api } from './api.js';
import { h, errorBox } from './dom.js';
import { gateBox, isTierRequired } from './gate.js';

export function pager({ path, params = {}, key, render, label = 'List', limit = 20, gate = label, onGate }) {
  const body = h('div', { class: 'table-wrap' });
  const status = h('span', { class: 'muted', role: 'status' });
  const prev = h('button', { type: 'button', class: 'secondary', disabled: true }, 'Previous');
  const next = h('button', { type: 'button', class: 'secondary', disabled: true }, 'Next');
  const nav = h('nav', { class: 'pager', 'aria-label': `${label} pages` }, prev, status, next);
  const node = h('div', { class: 'paged' }, body, nav);
  const cursors = [null]; // cursors[i] opens page i
  let page = 0;

  async function show(i) {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') q.set(k, v);
    q.set('limit', String(limit));
    if (cursors[i]) q.set('cursor', cursors[i]);
    let data;
    try {
      data = await api('GET', `${path}?${q}`);
    } catch (e) {
      if (e.status === 401) throw e;
      if (isTierRequired(e)) {
        body.replaceChildren(gateBox(e, gate));
        nav.hidden = true; // no pages behind a gate
        if (onGate) onGate(e);
      } else {
        body.replaceChildren(errorBox(e));
      }
      return null;
    }
    nav.hidden = false;
    page = i;
    cursors[i + 1] = data.next_cursor || null;
    cursors.length = i + 2;
    const items = (key ? data[key] : data.items) || [];
    body.replaceChildren(render(items, data));
    const total = typeof data.total === 'number' ? ` of ${data.total}` : '';
    status.textContent = items.length ? `Page ${i + 1} · ${i * limit + 1}–${i * limit + items.length}${total}` : '';
    prev.disabled = i === 0;
    next.disabled = !data.next_cursor;
    return data;
  }
  prev.addEventListener('click', () => show(page - 1));
  next.addEventListener('click', () => show(page + 1));
  return {
    node,
    load: () => show(0),
    reload: () => show(page),
    // new filters: back to the first page
    setParams(p) { params = p; cursors.length = 1; return show(0); },
  };
}
