// Overview: the account, its keys and assets, and the orchestrator's status, each read from the
// endpoint a client would call. A part the account's tier does not reach says so, with the API's
// own reason.
import { api } from '../api.js';
import { h, errorBox, when } from '../dom.js';

function stat(title, value, note) {
  return h('section', { class: 'card stat' }, h('h2', {}, title), h('div', { class: 'value' }, value),
    note ? h('p', { class: 'muted' }, note) : null);
}

async function part(fn) {
  try { return await fn(); } catch (e) {
    if (e.status === 401) throw e;
    return h('section', { class: 'card' }, errorBox(e));
  }
}

export async function render(main, ctx) {
  const u = ctx.session.user;
  main.append(h('h1', {}, 'Overview'));
  const grid = h('div', { class: 'grid' });
  main.append(grid);
  grid.append(stat('Account', u.tier, `${u.email || u.id} · role ${u.role}`));
  grid.append(await part(async () => {
    const k = await api('GET', '/api/developer/keys');
    return stat('API keys', `${k.active_count} / ${k.max_keys}`, 'active keys of your tier\u2019s limit');
  }));
  grid.append(await part(async () => {
    const a = await api('GET', '/api/ai-security/assets?limit=1');
    return stat('AI assets', String(a.total ?? a.count ?? a.assets.length), 'registered assets');
  }));
  grid.append(await part(async () => {
    const s = await api('GET', '/api/orchestrator/god-mode/status');
    const last = s.last_run || s.last_run_at || null;
    return stat('Orchestrator', s.status || s.state || 'unknown', last ? `last run ${when(last.finished_at || last)}` : null);
  }));
  main.append(h('p', { class: 'muted' }, `Session ends ${when(ctx.session.expires_at)} unless used; idle limit ${Math.round(ctx.session.idle_timeout / 60)} minutes.`));
}
