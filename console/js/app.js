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
import * as feed from './pages/feed.js';
import * as governance from './pages/governance.js';
import * as orchestrator from './pages/orchestrator.js';
import * as account from './pages/account.js';
import * as accounts from './pages/accounts.js';

const pages = { '/signin': signin, '/keys': keys, '/overview': overview };
const titles = { '/signin': 'Sign in', '/keys': 'API keys', '/overview': 'Overview' };
Object.assign(pages, { '/assets': assets, '/redteam': redteam, '/code': codescan });
Object.assign(titles, { '/assets': 'AI assets', '/redteam': 'Red team', '/code': 'Code scan' });
Object.assign(pages, { '/feed': feed, '/governance': governance, '/orchestrator': orchestrator, '/account': account });
Object.assign(titles, { '/feed': 'Threat feed', '/governance': 'Governance', '/orchestrator': 'Orchestrator', '/account': 'Account' });
Object.assign(pages, { '/accounts': accounts });
Object.assign(titles, { '/accounts': 'Managed accounts' });
// onLeave(fn): fn runs when the page is left (a poll stops); flash: a message for the next page
const ctx = { session: null, go, refreshSession, onLeave: (fn) => leaving.push(fn), flash: null };
let leaving = [];

// "#/feed/CVE-2025-1" is the page "/feed" with the item "CVE-2025-1" (ctx.item)
function base(r) {
  return r.replace(/^(\/[^/]+)\/.+$/, '$1');
}

function route() {
  const r = location.hash.replace(/^#/, '') || '/overview';
  return pages[base(r)] ? r : '/overview';
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
  // managed accounts are for mssp and admin roles (the API's rule: others get its 403)
  const role = signedIn ? ctx.session.user.role : null;
  document.getElementById('nav-accounts').hidden = !(role === 'mssp' || role === 'admin');
  const cur = route();
  for (const a of nav.querySelectorAll('a')) {
    if (a.getAttribute('href') === `#${base(cur)}`) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
}

// Renders are numbered: one that finishes after a later one began (the user moved on while it
// loaded) leaves the page, the URL and the focus alone.
let renders = 0;

async function render() {
  const mine = ++renders;
  for (const fn of leaving.splice(0)) fn();
  let r = route();
  if (!ctx.session && r !== '/signin') r = '/signin';
  if (ctx.session && r === '/signin') r = '/overview';
  if (location.hash !== `#${r}`) history.replaceState(null, '', `#${r}`);
  shell();
  const b = base(r);
  ctx.item = r === b ? null : decodeURIComponent(r.slice(b.length + 1));
  document.title = `${titles[b]} · bulwark console`;
  // each render draws into its own view: a page still loading when the user moved on (its
  // requests pending) then fills a view no longer shown, never the next page
  const main = document.getElementById('main');
  const view = document.createElement('div');
  main.replaceChildren(view);
  window.scrollTo(0, 0); // a new page starts at its top, now (the user just chose it), not when it has loaded
  try {
    await pages[b].render(view, ctx);
  } catch (e) {
    if (mine !== renders || !view.isConnected) return;
    if (e instanceof ApiError && e.status === 401 && r !== '/signin') {
      ctx.session = null; // the session ended (signed out elsewhere, password changed, expired)
      go('/signin');
      return;
    }
    view.replaceChildren(errorBox(e));
  }
  // focus to the new page (keyboard and screen readers start there) without scrolling: a page that
  // finished loading taller than the window scrolled the header away from under a pointer already
  // aimed at the navigation, and the click landed on the page (tests/browser/console_nav.browser.mjs)
  if (mine === renders && view.isConnected) main.focus({ preventScroll: true });
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
