// Managed accounts (mssp and admin roles): the accounts in the caller's scope as the API lists them
// (GET /api/accounts, paged: an admin sees every account, an mssp those it manages), a new account
// (POST /api/accounts: an mssp creates user accounts at its own tier or below, the API says no to
// anything else), and disable / enable (POST /api/accounts/{id}/disable|enable: a disable ends
// every session of the account and revokes its API keys). The API decides; its errors are shown.
import { api } from '../api.js';
import { h, errorBox, okBox, when } from '../dom.js';
import { pager } from '../pager.js';
import { signedOut } from '../findings.js';

const TIERS = ['FREE', 'STARTER', 'PRO', 'ENTERPRISE'];
const ROLES = ['user', 'mssp', 'admin'];

function createForm(u, onCreated) {
  const admin = u.role === 'admin';
  const status = h('div', { id: 'account-create-status' });
  const email = h('input', { id: 'acct-email', name: 'email', type: 'email', autocomplete: 'off', required: true, maxlength: '254' });
  const password = h('input', { id: 'acct-password', name: 'password', type: 'password', autocomplete: 'new-password', required: true, minlength: '8', maxlength: '256', 'aria-describedby': 'acct-password-help' });
  // an mssp is offered its own tier and those below it: the API refuses any other (and says why)
  const tiers = admin ? TIERS : TIERS.slice(0, TIERS.indexOf(u.tier) + 1);
  const tier = h('select', { id: 'acct-tier', name: 'tier' }, tiers.map((t) => h('option', { value: t }, t)));
  const role = h('select', { id: 'acct-role', name: 'role' }, (admin ? ROLES : ['user']).map((r) => h('option', { value: r }, r)));
  const submit = h('button', { type: 'submit', id: 'create-account' }, 'Create account');
  const form = h('form', { class: 'stack', novalidate: true, id: 'account-form' },
    h('div', { class: 'grid-form' },
      h('label', { for: 'acct-email' }, 'Email', email),
      h('label', { for: 'acct-password' }, 'Initial password', h('span', { class: 'help muted', id: 'acct-password-help' }, '8 to 256 characters; give it to the account holder, who can change it on the Account page.'), password),
      h('label', { for: 'acct-tier' }, 'Tier', tier),
      h('label', { for: 'acct-role' }, 'Role', role)),
    h('div', {}, submit));
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    status.replaceChildren();
    submit.disabled = true;
    try {
      const a = await api('POST', '/api/accounts', { email: email.value.trim(), password: password.value, tier: tier.value, role: role.value });
      password.value = '';
      email.value = '';
      status.replaceChildren(okBox(`Account ${a.email} created (${a.tier}, ${a.role}).`));
      await onCreated(a);
    } catch (e) {
      if (signedOut(e)) return;
      status.replaceChildren(errorBox(e)); // a 400 lists the fields at fault; 403 and 409 say why
    } finally {
      submit.disabled = false;
    }
  });
  return h('section', { class: 'card', 'aria-labelledby': 'new-account-title' },
    h('h2', { id: 'new-account-title' }, 'New account'), status, form);
}

export async function render(main, ctx) {
  const u = ctx.session.user;
  const note = h('div', { id: 'accounts-status', 'aria-live': 'polite' });
  const list = pager({
    path: '/api/accounts', key: 'accounts', label: 'Accounts',
    render(items) {
      if (!items.length) return h('p', { class: 'muted' }, u.role === 'admin' ? 'No accounts.' : 'No managed accounts yet.');
      return h('table', { id: 'accounts-table' },
        h('caption', { class: 'muted' }, u.role === 'admin' ? 'Every account, newest first' : 'Accounts you manage, newest first'),
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Email'), h('th', { scope: 'col' }, 'Tier'), h('th', { scope: 'col' }, 'Role'),
          h('th', { scope: 'col' }, 'State'), h('th', { scope: 'col', class: 'opt' }, 'Managed by'), h('th', { scope: 'col', class: 'opt' }, 'Created'),
          h('th', { scope: 'col' }, 'Action'))),
        h('tbody', {}, items.map((a) => h('tr', { 'data-account-id': a.id, 'data-disabled': String(a.disabled) },
          h('td', {}, a.email), h('td', {}, a.tier), h('td', {}, a.role),
          h('td', {}, a.disabled ? 'disabled' : 'active'),
          h('td', { class: 'opt' }, a.managed_by ? h('code', {}, a.managed_by) : '—'),
          h('td', { class: 'opt' }, when(a.created_at)),
          h('td', {}, a.id === u.id ? h('span', { class: 'muted' }, 'you') : action(a))))));
    },
  });

  function action(a) {
    const verb = a.disabled ? 'enable' : 'disable';
    const btn = h('button', { type: 'button', class: a.disabled ? 'secondary' : 'danger', 'data-action': verb,
      'aria-label': `${a.disabled ? 'Enable' : 'Disable'} ${a.email}` }, a.disabled ? 'Enable' : 'Disable');
    btn.addEventListener('click', async () => {
      if (!a.disabled && !confirm(`Disable ${a.email}? Every session of the account ends and its API keys are revoked.`)) return;
      btn.disabled = true;
      try {
        const r = await api('POST', `/api/accounts/${encodeURIComponent(a.id)}/${verb}`);
        note.replaceChildren(okBox(`${r.email} is ${r.disabled ? 'disabled: its sessions ended and its API keys were revoked' : 'enabled: it can sign in again'}.`));
        await list.reload();
      } catch (e) {
        if (signedOut(e)) return;
        btn.disabled = false;
        note.replaceChildren(errorBox(e));
      }
    });
    return btn;
  }

  main.append(h('h1', {}, 'Managed accounts'),
    h('p', { class: 'muted' }, u.role === 'admin'
      ? 'As an administrator you manage every account: create one with any role, disable or enable it.'
      : `Accounts you manage: create user accounts at ${u.tier} or below, disable or enable them.`),
    createForm(u, () => list.load()), note, h('h2', {}, 'Accounts'), list.node);
  await list.load();
}
