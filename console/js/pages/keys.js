// API keys: list (prefix, label, state, created, last used), create (the key shown once, with a
// copy button), rotate (the new key shown once) and revoke, through /api/developer/keys.
import { api } from '../api.js';
import { h, errorBox, okBox, when } from '../dom.js';

function secretPanel(title, key) {
  const code = h('code', { id: 'new-key' }, key);
  const copied = h('span', { role: 'status', class: 'muted' });
  const copy = h('button', { type: 'button', class: 'secondary', id: 'copy-key' }, 'Copy');
  copy.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(key);
      copied.textContent = 'Copied.';
    } catch {
      const range = document.createRange(); // no clipboard permission: select it for the user
      range.selectNodeContents(code);
      const sel = getSelection();
      sel.removeAllRanges();
      sel.addRange(range);
      copied.textContent = 'Selected: copy it with your keyboard.';
    }
  });
  return h('div', { class: 'alert ok', role: 'status', id: 'secret-panel' },
    h('strong', {}, title),
    h('p', {}, 'This is the only time the key is shown. Store it now.'),
    h('div', { class: 'secret' }, code, copy, copied));
}

export async function render(main) {
  const status = h('div', { id: 'keys-status' });
  const list = h('div', { class: 'table-wrap' });
  const label = h('input', { id: 'key-label', name: 'label', maxlength: '64', placeholder: 'ci runner' });
  const create = h('button', { type: 'submit', id: 'create-key' }, 'Create key');
  const form = h('form', { class: 'inline' }, h('label', { for: 'key-label' }, 'Label', label), create);

  async function load() {
    const data = await api('GET', '/api/developer/keys');
    const rows = data.keys.map((k) => {
      const actions = h('td', { class: 'actions' });
      if (k.active) {
        actions.append(
          h('button', { type: 'button', class: 'secondary', 'aria-label': `Rotate key ${k.label}`, onclick: () => rotate(k) }, 'Rotate'),
          h('button', { type: 'button', class: 'danger', 'aria-label': `Revoke key ${k.label}`, onclick: () => revoke(k) }, 'Revoke'));
      }
      return h('tr', { 'data-key-id': k.id },
        h('td', {}, h('code', {}, k.key_prefix)),
        h('td', {}, k.label),
        h('td', {}, h('span', { class: `badge ${k.active ? 'active' : 'revoked'}` }, k.active ? 'active' : 'revoked')),
        h('td', { class: 'opt' }, when(k.created_at)),
        h('td', {}, when(k.last_used_at)),
        actions);
    });
    const summary = h('p', { class: 'muted', id: 'keys-summary' },
      `${data.active_count} active of at most ${data.max_keys} for your tier.`);
    if (rows.length === 0) {
      list.replaceChildren(summary, h('p', {}, 'No keys yet.'));
      return;
    }
    list.replaceChildren(summary, h('table', { id: 'keys-table' },
      h('caption', { class: 'muted' }, 'Your API keys'),
      h('thead', {}, h('tr', {},
        h('th', { scope: 'col' }, 'Prefix'), h('th', { scope: 'col' }, 'Label'), h('th', { scope: 'col' }, 'State'),
        h('th', { scope: 'col', class: 'opt' }, 'Created'), h('th', { scope: 'col' }, 'Last used'),
        h('th', { scope: 'col' }, 'Actions'))),
      h('tbody', {}, rows)));
  }

  async function act(fn) {
    status.replaceChildren();
    try { await fn(); } catch (e) { status.replaceChildren(errorBox(e)); }
    try { await load(); } catch (e) { status.append(errorBox(e)); }
  }

  function rotate(k) {
    return act(async () => {
      const r = await api('POST', `/api/developer/keys/${encodeURIComponent(k.id)}/rotate`);
      status.replaceChildren(secretPanel(`Key “${k.label}” rotated: the old key no longer works.`, r.key));
    });
  }

  function revoke(k) {
    if (!confirm(`Revoke the key “${k.label}” (${k.key_prefix})? Clients using it stop working at once.`)) return;
    return act(async () => {
      await api('DELETE', `/api/developer/keys/${encodeURIComponent(k.id)}`);
      status.replaceChildren(okBox(`Key ${k.key_prefix} revoked.`));
    });
  }

  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    create.disabled = true;
    act(async () => {
      const body = label.value.trim() ? { label: label.value.trim() } : {};
      const r = await api('POST', '/api/developer/keys', body);
      label.value = '';
      status.replaceChildren(secretPanel(`Key “${r.label}” created.`, r.key));
    }).finally(() => { create.disabled = false; });
  });

  main.append(h('h1', {}, 'API keys'),
    h('p', { class: 'muted' }, 'Keys let scripts and CI call the API with X-API-Key. Revoked keys stop working at once.'),
    status,
    h('section', { class: 'card', 'aria-labelledby': 'new-key-title' }, h('h2', { id: 'new-key-title' }, 'New key'), form),
    h('h2', {}, 'Keys'), list);
  await load();
}
