// Account: the signed-in user (GET /api/console/session: id, email, tier, role), a password change
// (POST /api/auth/password; it ends every session of the account, this one included, so the
// console goes back to sign-in and says why), and for mssp and admin roles the accounts in their
// scope as the API reports it (GET /api/orchestrator/god-mode/status: scope.accounts), with a link to
// the managed accounts page (#/accounts), where they are created, disabled and enabled.
import { api, setCsrf } from '../api.js';
import { h, errorBox, when } from '../dom.js';
import { gateBox } from '../gate.js';

function profile(ctx) {
  const u = ctx.session.user;
  return h('section', { class: 'card', 'aria-labelledby': 'profile-title', id: 'profile' },
    h('h2', { id: 'profile-title' }, 'Profile'),
    h('dl', { class: 'facts' },
      h('dt', {}, 'Email'), h('dd', { id: 'p-email' }, u.email || '—'),
      h('dt', {}, 'Account id'), h('dd', {}, h('code', {}, u.id)),
      h('dt', {}, 'Tier'), h('dd', { id: 'p-tier' }, u.tier),
      h('dt', {}, 'Role'), h('dd', { id: 'p-role' }, u.role),
      h('dt', {}, 'Session ends'), h('dd', {}, `${when(ctx.session.expires_at)} unless used`)));
}

function passwordForm(ctx) {
  const status = h('div', { id: 'pw-status' });
  const cur = h('input', { id: 'pw-current', type: 'password', autocomplete: 'current-password', required: true });
  const nw = h('input', { id: 'pw-new', type: 'password', autocomplete: 'new-password', required: true, minlength: '8', maxlength: '256', 'aria-describedby': 'pw-help' });
  const again = h('input', { id: 'pw-again', type: 'password', autocomplete: 'new-password', required: true });
  const submit = h('button', { type: 'submit', id: 'pw-submit' }, 'Change password');
  const form = h('form', { class: 'stack', novalidate: true },
    h('label', { for: 'pw-current' }, 'Current password', cur),
    h('label', { for: 'pw-new' }, 'New password', h('span', { class: 'help muted', id: 'pw-help' }, '8 to 256 characters. Every session of this account ends: you sign in again.'), nw),
    h('label', { for: 'pw-again' }, 'New password again', again), submit);
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    status.replaceChildren();
    if (nw.value !== again.value) {
      status.replaceChildren(h('div', { class: 'alert error', role: 'alert' }, 'The two new passwords differ.'));
      again.focus();
      return;
    }
    submit.disabled = true;
    try {
      await api('POST', '/api/auth/password', { current_password: cur.value, new_password: nw.value });
    } catch (e) {
      submit.disabled = false;
      if (e.status === 401) throw e;
      status.replaceChildren(errorBox(e));
      return;
    }
    // the change ended this console session too (the API says so): back to sign-in, saying why
    setCsrf(null);
    ctx.session = null;
    ctx.flash = 'Your password was changed and every session of your account ended. Sign in with the new password.';
    ctx.go('/signin');
  });
  return h('section', { class: 'card', 'aria-labelledby': 'pw-title' }, h('h2', { id: 'pw-title' }, 'Change password'), status, form);
}

async function managed(ctx) {
  const u = ctx.session.user;
  const sec = h('section', { class: 'card', 'aria-labelledby': 'managed-title', id: 'managed' },
    h('h2', { id: 'managed-title' }, u.role === 'admin' ? 'Accounts (admin scope)' : 'Managed accounts'),
    h('p', {}, h('a', { href: '#/accounts', id: 'managed-link' }, 'Create, disable and enable accounts on the Managed accounts page'), '.'));
  try {
    const st = await api('GET', '/api/orchestrator/god-mode/status');
    const scope = st.scope;
    if (!scope) { sec.append(h('p', { class: 'muted' }, 'The API gives this account no scope.')); return sec; }
    if (scope.kind === 'all') {
      sec.append(h('p', {}, 'As an administrator your scope is every account.'));
      return sec;
    }
    const others = (scope.accounts || []).filter((id) => id !== u.id);
    sec.append(h('p', { id: 'managed-count' }, `${others.length} account(s) managed by you, and your own.`),
      others.length ? h('ul', { id: 'managed-list' }, others.map((id) => h('li', {}, h('code', {}, id)))) : null);
  } catch (e) {
    if (e.status === 401) throw e;
    sec.append(gateBox(e, 'Managed accounts'));
  }
  return sec;
}

export async function render(main, ctx) {
  main.append(h('h1', {}, 'Account'), profile(ctx), passwordForm(ctx));
  const role = ctx.session.user.role;
  if (role === 'mssp' || role === 'admin') main.append(await managed(ctx));
}
