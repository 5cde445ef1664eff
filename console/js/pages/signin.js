// Sign-in: email and password to POST /api/console/session (the login's throttle applies).
import { signIn } from '../api.js';
import { h, errorBox } from '../dom.js';

export async function render(main, ctx) {
  const status = h('div', { id: 'signin-status' });
  if (ctx.flash) { status.append(h('div', { class: 'alert ok', role: 'status', id: 'signin-flash' }, ctx.flash)); ctx.flash = null; }
  const email = h('input', { id: 'email', name: 'email', type: 'email', autocomplete: 'username', required: true });
  const password = h('input', { id: 'password', name: 'password', type: 'password', autocomplete: 'current-password', required: true });
  const submit = h('button', { type: 'submit' }, 'Sign in');
  const form = h('form', { class: 'stack', novalidate: true },
    h('label', { for: 'email' }, 'Email', email),
    h('label', { for: 'password' }, 'Password', password),
    submit);
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    status.replaceChildren();
    submit.disabled = true;
    try {
      await signIn(email.value.trim(), password.value);
      password.value = '';
      await ctx.refreshSession();
      ctx.go('/overview');
    } catch (e) {
      status.replaceChildren(errorBox(e));
      password.focus();
    } finally {
      submit.disabled = false;
    }
  });
  main.append(h('section', { class: 'card signin', 'aria-labelledby': 'signin-title' },
    h('h1', { id: 'signin-title' }, 'Sign in to bulwark'), status, form));
}
