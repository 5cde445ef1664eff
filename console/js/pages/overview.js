// Overview. Privileged accounts (ENTERPRISE, role mssp or admin) see the CISO pack of the
// orchestrator (GET /api/orchestrator/god-mode/ciso): the posture grade and each deduction, the
// critical CVE counts, KEV exposure, the most observed techniques and the last run (…/status).
// Other accounts see a summary of their own assets (GET /api/ai-security/assets), scans (the
// assets' latest scores) and engagements (GET /api/ai-security/redteam/engagements), and why there
// is no grade: the CISO pack's own 403 TIER_REQUIRED. Every number is the API's.
import { api } from '../api.js';
import { h, errorBox, when } from '../dom.js';
import { gateBox, privileged } from '../gate.js';
import { barChart, scoreRing } from '../charts.js';

function stat(title, value, note, id) {
  return h('section', { class: 'card stat', id }, h('h2', {}, title), h('div', { class: 'value' }, value),
    note ? h('p', { class: 'muted' }, note) : null);
}

// one part of the page: its own error (or tier gate) in place of the part, the rest still shows
async function part(fn, what) {
  try { return await fn(); } catch (e) {
    if (e.status === 401) throw e;
    return h('section', { class: 'card' }, gateBox(e, what));
  }
}

const DEDUCTIONS = [
  ['findings', 'Open findings'], ['coverage', 'Scan coverage'], ['assets', 'Asset scores'],
  ['exposure', 'Threat exposure'], ['abuse', 'API abuse'],
];

function lastRun(st) {
  const r = st.last_run;
  if (!r) return stat('Last orchestrator run', 'none', 'No run yet: start one on the Orchestrator page.', 'last-run');
  return stat('Last orchestrator run', r.status, `${r.phases_done}/${r.phases_total} phases · ${r.finished_at ? `finished ${when(r.finished_at)}` : `accepted ${when(r.accepted_at)}`}`, 'last-run');
}

async function privilegedView(main, u) {
  const [ciso, st] = await Promise.all([
    api('GET', '/api/orchestrator/god-mode/ciso'),
    api('GET', '/api/orchestrator/god-mode/status').catch((e) => e),
  ]);
  const p = ciso.posture;
  const comps = p.components || {};
  const grade = h('section', { class: 'card posture', id: 'posture' },
    h('h2', {}, 'Security posture'),
    h('div', { class: 'posture-row' },
      scoreRing({ id: 'grade-ring', title: `Posture grade ${p.grade}`, value: p.score, centre: p.grade,
        desc: `Posture score ${p.score} of 100, grade ${p.grade} (A from 90, B from 80, C from 70, D from 60, else F).` }),
      h('div', {},
        h('p', { class: 'grade-text' }, 'Grade ', h('strong', { id: 'grade' }, p.grade), ` · score ${p.score}/100`),
        h('p', { class: 'muted' }, `Snapshot ${ciso.snapshot.source === 'run' ? 'of a run' : 'computed on demand'}, ${when(ciso.generated_at)}; scope ${ciso.scope.kind}.`))),
    barChart({ id: 'deductions-chart', title: 'Deductions from 100', unit: ' pts',
      desc: 'Points each part of the posture formula takes off the score of 100.',
      rows: DEDUCTIONS.map(([k, label]) => ({ label, value: comps[k]?.deduction ?? 0 })) }),
    h('p', { class: 'muted small' }, p.formula || ''));

  const cc = ciso.critical_cves;
  const cves = h('section', { class: 'card', id: 'critical' }, h('h2', {}, 'Critical CVEs'),
    barChart({ id: 'cve-chart', title: 'Critical CVEs in the intel', desc: 'Intel records under a CRITICAL CVE: all, those in CISA KEV, and those affecting AI.',
      rows: [{ label: 'Critical CVEs', value: cc.total }, { label: 'In CISA KEV', value: cc.in_kev, cls: 'warn' }, { label: 'AI-related', value: cc.ai_related }] }));

  const kev = h('section', { class: 'card', id: 'kev' }, h('h2', {}, 'KEV exposure'),
    h('p', {}, h('strong', {}, String(ciso.kev_entries_matched)), ` of ${ciso.kev_entries_total} known-exploited entries match a registered asset.`));
  if (ciso.kev_entries.length) {
    kev.append(h('div', { class: 'table-wrap' }, h('table', {},
      h('caption', { class: 'muted' }, 'Known exploited vulnerabilities, those matching an asset first (first 8)'),
      h('thead', {}, h('tr', {}, ['CVE', 'Product', 'Relevance', 'Due'].map((t) => h('th', { scope: 'col' }, t)))),
      h('tbody', {}, ciso.kev_entries.slice(0, 8).map((k) => h('tr', {},
        h('td', {}, h('a', { href: `#/feed/${encodeURIComponent(k.threat_id)}` }, k.cve.join(', ') || k.threat_id)),
        h('td', {}, `${k.vendor} ${k.product}`),
        h('td', {}, k.relevance === 'asset_match' ? `matches ${k.matched_assets.length} asset(s)` : 'AI stack'),
        h('td', {}, k.past_due ? `${k.due_date} (past due)` : k.due_date)))))));
  }

  const tech = ciso.mitre_techniques.slice(0, 8);
  const mitre = h('section', { class: 'card', id: 'mitre' }, h('h2', {}, 'Most observed techniques'),
    tech.length ? barChart({ id: 'mitre-chart', title: 'ATT&CK and ATLAS techniques observed', desc: 'How often each technique appears across the analysed intel records and the scope\u2019s findings (top 8).',
      rows: tech.map((t) => ({ label: `${t.id}${t.name ? ` ${t.name}` : ''}`, value: t.count })) }) : h('p', { class: 'muted' }, 'None observed.'));

  const recs = h('section', { class: 'card', id: 'recommendations' }, h('h2', {}, 'Recommendations'),
    ciso.recommendations.length ? h('ol', {}, ciso.recommendations.slice(0, 5).map((r) =>
      h('li', {}, h('span', { class: `badge sev-${r.priority}` }, r.priority), ' ', h('strong', {}, r.title), h('br'), r.action)))
      : h('p', { class: 'muted' }, 'None.'));

  const grid = h('div', { class: 'grid' },
    stat('Account', u.tier, `role ${u.role}`),
    st instanceof Error ? h('section', { class: 'card' }, gateBox(st, 'Orchestrator')) : lastRun(st),
    stat('Threat intel', String(ciso.intel.records), `${ciso.intel.cves} CVEs, ${ciso.intel.kev_entries} KEV entries`, 'intel-count'));
  main.append(grade, grid, cves, kev, mitre, recs);
}

async function summaryView(main, u) {
  // why there is no grade: the CISO pack's own answer
  const why = await part(async () => {
    await api('GET', '/api/orchestrator/god-mode/ciso');
    return null;
  }, 'Posture grade');
  const grid = h('div', { class: 'grid' }, stat('Account', u.tier, `role ${u.role}`));
  const sections = [];
  grid.append(await part(async () => {
    const a = await api('GET', '/api/ai-security/assets?limit=10');
    const scored = a.assets.filter((x) => typeof x.security_score === 'number');
    if (scored.length) {
      sections.push(h('section', { class: 'card', id: 'asset-scores' }, h('h2', {}, 'Asset security scores'),
        barChart({ id: 'assets-chart', title: 'Security score of your newest assets', max: 100,
          desc: 'Each asset\u2019s security score from its latest scan or registration, 0 to 100, higher is safer.',
          rows: scored.map((x) => ({ label: x.name, value: x.security_score, cls: `risk-${x.risk_level}` })) })));
    }
    return stat('AI assets', String(a.total), 'registered assets', 'assets-count');
  }, 'AI assets'));
  grid.append(await part(async () => {
    const e = await api('GET', '/api/ai-security/redteam/engagements?limit=1');
    return stat('Red-team engagements', String(e.total ?? e.engagements.length), 'engagements started', 'engagements-count');
  }, 'Red-team engagements'));
  grid.append(await part(async () => {
    const k = await api('GET', '/api/developer/keys');
    return stat('API keys', `${k.active_count} / ${k.max_keys}`, 'active keys of your tier\u2019s limit');
  }, 'API keys'));
  const nograde = h('section', { class: 'card', id: 'no-grade' }, h('h2', {}, 'Why there is no posture grade'));
  if (why) nograde.append(...why.childNodes);
  else nograde.append(h('p', {}, 'The CISO pack is available to this account.'));
  nograde.append(h('p', { class: 'muted' },
    'The posture grade comes from the orchestrator\u2019s CISO pack, which the API serves to ENTERPRISE accounts and to mssp and admin roles. ',
    u.tier === 'FREE' ? 'On FREE, the code scanner also shows only the top 3 findings of a scan (the rest are counted as locked).' : ''));
  main.append(nograde, grid, ...sections);
}

export async function render(main, ctx) {
  const u = ctx.session.user;
  main.append(h('h1', {}, 'Overview'));
  if (privileged(u)) {
    try { await privilegedView(main, u); } catch (e) {
      if (e.status === 401) throw e;
      main.append(gateBox(e, 'CISO pack'));
    }
  } else {
    await summaryView(main, u);
  }
  main.append(h('p', { class: 'muted' }, `Session ends ${when(ctx.session.expires_at)} unless used; idle limit ${Math.round(ctx.session.idle_timeout / 60)} minutes.`));
}
