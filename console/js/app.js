// The console's shell: who is signed in, the navigation, and the page for the URL's fragment
// (#/keys). Pages are modules exporting render(main, ctx).
import { resume, signOut, ApiError } from './api.js';
import { errorBox } from './dom.js';
import * as signin from './pages/signin.js';
import * as keys from './pages/keys.js';
import * as overview from './pages/overview.js';
import * as assets from './pages/assets.js';
import * as redteam from './pages/redteam.js';
import * as codescan from './pages/codescan.js';

const pages = { '/signin': signin, '/keys': keys, '/overview': overview };
const titles = { '/signin': 'Sign in', '/keys': 'API keys', '/overview': 'Overview' };
Object.assign(pages, { '/assets': assets, '/redteam': redteam, '/code': codescan });
Object.assign(titles, { '/assets': 'AI assets', '/redteam': 'Red team', '/code': 'Code scan' });
const ctx = { session: null, go, refreshSession };

function route() {
  const r = location.hash.replace(/^#/, '') || '/overview';
  return pages[r] ? r : '/overview';
}

function go(path) {
  if (location.hash === `#${path}`) render();
  else location.hash = path;
}

async function refreshSession() {
  ctx.session = await resume();
  shell();
  return ctx.session;
}

function shell() {
  const nav = document.getElementById('nav');
  const who = document.getElementById('who');
  const signedIn = !!ctx.session;
  nav.hidden = !signedIn;
  who.hidden = !signedIn;
  document.getElementById('who-email').textContent = signedIn ? (ctx.session.user.email || ctx.session.user.id) : '';
  const cur = route();
  for (const a of nav.querySelectorAll('a')) {
    if (a.getAttribute('href') === `#${cur}`) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
}

async function render() {
  let r = route();
  if (!ctx.session && r !== '/signin') r = '/signin';
  if (ctx.session && r === '/signin') r = '/overview';
  if (location.hash !== `#${r}`) history.replaceState(null, '', `#${r}`);
  shell();
  document.title = `${titles[r]} · bulwark console`;
  const main = document.getElementById('main');
  main.replaceChildren();
  try {
    await pages[r].render(main, ctx);
  } catch (e) {
    if (e instanceof ApiError && e.status === 401 && r !== '/signin') {
      ctx.session = null; // the session ended (signed out elsewhere, password changed, expired)
      go('/signin');
      return;
    }
    main.replaceChildren(errorBox(e));
  }
  main.focus();
}

document.getElementById('signout').addEventListener('click', async () => {
  try { await signOut(); } catch { /* the session is over either way */ }
  ctx.session = null;
  go('/signin');
});
window.addEventListener('hashchange', render);

try {
  await refreshSession();
} catch (e) {
  document.getElementById('main').replaceChildren(errorBox(e));
}
render();
