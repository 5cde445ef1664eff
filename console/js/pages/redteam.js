// Red-team engagements: start one against an asset (POST /api/ai-security/redteam/engage: intensity,
// attack categories, optional request budget), the caller's engagements paged (GET
// .../redteam/engagements), and an engagement's report (GET .../redteam/{id}/report), polled every
// POLL_MS while it is queued or running and no longer once the page is left; cancel (POST
// .../{id}/cancel). The report shows what the API scored: overall risk, the critical findings with
// their transcripts and detectors, the escalation of each attack and the remediation plan.
import { api } from '../api.js';
import { h, okBox, when } from '../dom.js';
import { gateBox } from '../gate.js';
import { pager } from '../pager.js';
import { sevBadge, facts, signedOut } from '../findings.js';

const POLL_MS = 1500;
const CATEGORIES = ['prompt_injection', 'jailbreak', 'rag_poisoning', 'system_prompt_leakage', 'data_exfiltration',
  'insecure_output', 'excessive_agency', 'misinformation', 'unbounded_consumption', 'data_poisoning'];
const RUNNING = new Set(['queued', 'running']);
const label = (c) => c.replace(/_/g, ' ');

// One critical finding: what was sent (the transcript: several turns when the attack was spread
// over them), what came back, which detectors fired on it, and the path that got there.
function findingView(f, i) {
  return h('article', { class: 'finding card', 'aria-labelledby': `cf-${i}` },
    h('h4', { id: `cf-${i}` }, sevBadge(f.severity), ' ', f.technique, ' ', h('span', { class: 'muted' }, `(${label(f.category)})`)),
    facts([
      ['Attack', h('code', {}, f.attack_id)], ['OWASP LLM', f.owasp_llm], ['MITRE ATLAS', (f.atlas || []).join(', ') || null],
      ['Goal met', f.succeeded === false ? 'no — another detector found this' : 'yes'],
      ['Escalation path', f.path ? h('code', { class: 'path' }, f.path) : 'as written'],
      ['Requests', f.requests],
    ]),
    h('h5', {}, 'Transcript'),
    h('div', { class: 'transcript' },
      h('div', { class: 'turn sent' }, h('span', { class: 'who-said' }, 'Sent'), h('pre', {}, f.prompt)),
      h('div', { class: 'turn reply' }, h('span', { class: 'who-said' }, 'Reply (excerpt)'), h('pre', {}, f.response_excerpt))),
    f.detectors && f.detectors.length ? h('ul', { class: 'detectors' }, f.detectors.map((d) =>
      h('li', {}, sevBadge(d.severity), ' ', h('strong', {}, d.detector), ': ', h('span', { class: 'evidence' }, d.evidence)))) : null);
}

function escalationView(esc, budget) {
  if (!esc) return h('p', { class: 'muted' }, 'The escalation is reported once the engagement completes.');
  const head = facts([
    ['Requests made', String(esc.requests)],
    ['Budget', budget ? `${budget.requests} requests, ${budget.seconds} s` : null],
    ['Budget ended a search', esc.budget_ended ? 'yes' : 'no'],
  ], { id: 'escalation-facts' });
  if (!esc.attacks.length) return h('div', {}, head, h('p', { class: 'muted' }, 'No attack needed escalating.'));
  return h('div', {}, head, h('div', { class: 'table-wrap' }, h('table', { id: 'escalation-table' },
    h('caption', { class: 'muted' }, 'Attacks refused as written, and what the adaptive search tried'),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Attack'), h('th', { scope: 'col' }, 'Result'),
      h('th', { scope: 'col' }, 'Path'), h('th', { scope: 'col', class: 'opt' }, 'Turns'), h('th', { scope: 'col' }, 'Requests'),
      h('th', { scope: 'col', class: 'opt' }, 'Search ended'))),
    h('tbody', {}, esc.attacks.map((a) => h('tr', {},
      h('td', {}, h('code', {}, a.attack_id)), h('td', {}, a.succeeded ? 'succeeded' : 'held'),
      h('td', {}, a.path || a.transformations.length ? h('code', { class: 'path' }, a.path || a.transformations.join('+')) : '—'),
      h('td', { class: 'opt' }, String(a.turns)), h('td', {}, String(a.requests)), h('td', { class: 'opt' }, a.search_ended)))))));
}

function reportView(r) {
  const done = r.progress ? r.progress.done : 0, total = r.progress ? r.progress.total : r.attack_count;
  const plan = r.remediation_plan || { summary: '', actions: [] };
  return h('div', { id: 'report', 'data-status': r.status },
    facts([
      ['Status', h('strong', { id: 'eng-status' }, r.status)],
      ['Progress', h('span', {}, h('progress', { id: 'eng-progress', max: String(total || 1), value: String(done), 'aria-label': 'Attacks done' }),
        ` ${done} of ${total} attacks`)],
      ['Overall risk', h('span', { id: 'overall-risk' }, sevBadge(r.overall_risk))],
      ['Succeeded', `${r.attacks_succeeded} of ${r.attacks_total}${r.attacks_errored ? ` (${r.attacks_errored} errored)` : ''}`],
      ['Weighted success rate', typeof r.weighted_success_rate === 'number' ? `${Math.round(r.weighted_success_rate * 100)} %` : null],
      ['Intensity', r.intensity], ['Categories', (r.attack_categories || []).map(label).join(', ') || null],
      ['Target', r.target_asset_id ? h('code', {}, r.target_asset_id) : null],
      ['Started', r.started_at ? when(r.started_at) : null], ['Finished', r.finished_at ? when(r.finished_at) : null],
    ]),
    r.error ? h('div', { class: 'alert error', role: 'alert' }, `The engagement failed: ${r.error}`) : null,
    h('h3', {}, 'Summary'), h('p', { id: 'plan-summary' }, plan.summary),
    h('h3', {}, `Critical findings (${r.critical_findings.length})`),
    r.critical_findings.length ? h('div', { id: 'critical-findings' }, r.critical_findings.map(findingView))
      : h('p', { class: 'muted' }, 'None so far.'),
    h('h3', {}, 'Escalation'), escalationView(r.escalation, r.budget),
    h('h3', {}, 'Remediation plan'),
    plan.actions.length ? h('ol', { id: 'remediation' }, plan.actions.map((a) => h('li', {},
      h('strong', {}, `${label(a.category)} (${a.owasp_llm})`), ': ', a.action))) : h('p', { class: 'muted' }, 'Nothing to remediate.'));
}

export async function render(main, ctx) {
  const detail = h('div', { id: 'engagement-detail' });
  const status = h('div', { id: 'engage-status' });
  let timer = null, viewing = null;
  const stop = () => { if (timer) clearTimeout(timer); timer = null; };
  // leaving the page (another fragment) stops the polling at once
  window.addEventListener('hashchange', stop, { once: true });
  if (ctx && ctx.onLeave) ctx.onLeave(stop);

  const list = pager({
    path: '/api/ai-security/redteam/engagements', key: 'engagements', label: 'Engagements', limit: 10,
    // below PRO the engagements are a 403: the API's reason with the tiers instead of the table
    gate: 'Red-team engagements', onGate: () => { submit.disabled = true; },
    render(items) {
      if (!items.length) return h('p', { class: 'muted' }, 'No engagements yet.');
      return h('table', { id: 'engagements-table' }, h('caption', { class: 'muted' }, 'Your engagements, newest first'),
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Engagement'), h('th', { scope: 'col' }, 'Status'),
          h('th', { scope: 'col', class: 'opt' }, 'Progress'), h('th', { scope: 'col' }, 'Risk'), h('th', { scope: 'col', class: 'opt' }, 'Started'))),
        h('tbody', {}, items.map((e) => h('tr', { 'data-engagement-id': e.engagement_id },
          h('td', {}, h('button', { type: 'button', class: 'link', onclick: () => open(e.engagement_id) }, e.engagement_id)),
          h('td', {}, e.status), h('td', { class: 'opt' }, `${e.attacks_done} / ${e.attack_count}`),
          h('td', {}, sevBadge(e.overall_risk)), h('td', { class: 'opt' }, when(e.created_at))))));
    },
  });

  async function open(id) {
    stop();
    viewing = id;
    const title = h('h2', { id: 'engagement-title', tabindex: '-1' }, `Engagement ${id}`);
    const body = h('div', { 'aria-live': 'polite' }, h('p', { class: 'muted' }, 'Loading report…'));
    const cancel = h('button', { type: 'button', class: 'danger', id: 'cancel-engagement', hidden: true }, 'Cancel');
    const note = h('div');
    cancel.addEventListener('click', async () => {
      try {
        const r = await api('POST', `/api/ai-security/redteam/${encodeURIComponent(id)}/cancel`);
        stop();
        note.replaceChildren(okBox('Engagement cancelled.'));
        show(r);
        await list.reload();
      } catch (e) {
        if (signedOut(e)) return;
        note.replaceChildren(gateBox(e));
      }
    });
    detail.replaceChildren(h('section', { class: 'card', id: 'engagement-view', 'aria-labelledby': 'engagement-title' },
      title, cancel, note, body));
    title.focus();
    function show(r) {
      cancel.hidden = !RUNNING.has(r.status);
      body.replaceChildren(reportView(r));
    }
    async function poll() {
      timer = null;
      if (!detail.isConnected || viewing !== id) return; // the page or the engagement was left
      try {
        const r = await api('GET', `/api/ai-security/redteam/${encodeURIComponent(id)}/report`);
        if (!detail.isConnected || viewing !== id) return;
        show(r);
        if (RUNNING.has(r.status)) timer = setTimeout(poll, POLL_MS);
        else await list.reload();
      } catch (e) {
        if (signedOut(e)) return;
        note.replaceChildren(gateBox(e));
      }
    }
    await poll();
  }

  // the form: the target among the caller's assets (the first 100, newest first), intensity,
  // categories (all by default, as the API) and an optional request budget
  const target = h('select', { id: 'rt-target', name: 'target_asset_id', required: true });
  const intensity = h('select', { id: 'rt-intensity', name: 'intensity' },
    ['light', 'standard', 'full'].map((v) => h('option', { value: v, selected: v === 'standard' }, v)));
  const budget = h('input', { id: 'rt-budget', name: 'budget_requests', type: 'number', min: '1', max: '100000', inputmode: 'numeric' });
  const boxes = CATEGORIES.map((c) => h('input', { type: 'checkbox', name: 'attack_categories', value: c, id: `rt-cat-${c}`, checked: true }));
  const submit = h('button', { type: 'submit', id: 'start-engagement' }, 'Start engagement');
  const form = h('form', { class: 'stack', novalidate: true },
    h('div', { class: 'grid-form' },
      h('label', { for: 'rt-target' }, 'Target asset', target),
      h('label', { for: 'rt-intensity' }, 'Intensity', intensity),
      h('label', { for: 'rt-budget' }, 'Request budget (optional)', budget)),
    h('fieldset', { class: 'checks' }, h('legend', {}, 'Attack categories'),
      boxes.map((b, i) => h('label', { class: 'check', for: b.id }, b, label(CATEGORIES[i])))),
    h('div', {}, submit));
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    status.replaceChildren();
    const body = { target_asset_id: target.value, intensity: intensity.value };
    const cats = boxes.filter((b) => b.checked).map((b) => b.value);
    if (cats.length !== CATEGORIES.length) body.attack_categories = cats;
    if (budget.value) body.budget_requests = Number(budget.value);
    submit.disabled = true;
    try {
      const e = await api('POST', '/api/ai-security/redteam/engage', body);
      status.replaceChildren(okBox(`Engagement ${e.engagement_id} ${e.status}: ${e.attack_count} attacks, about ${e.eta_seconds} s.`));
      await list.load();
      await open(e.engagement_id);
    } catch (e) {
      if (signedOut(e)) return;
      status.replaceChildren(gateBox(e, 'Engagement'));
    } finally {
      submit.disabled = false;
    }
  });

  main.append(h('h1', {}, 'Red team'),
    h('p', { class: 'muted' }, 'Attack a registered model with the OWASP LLM attack library; refused attacks are escalated within the budget.'),
    h('section', { class: 'card', 'aria-labelledby': 'engage-title' }, h('h2', { id: 'engage-title' }, 'Start an engagement'), status, form),
    detail, h('h2', {}, 'Engagements'), list.node);

  try {
    const a = await api('GET', '/api/ai-security/assets?limit=100');
    target.replaceChildren(...a.assets.map((x) => h('option', { value: x.asset_id }, `${x.name} (${x.type}, ${x.asset_id})`)));
    if (!a.assets.length) {
      target.append(h('option', { value: '' }, 'no assets: register one first'));
      submit.disabled = true;
    }
  } catch (e) {
    if (e.status === 401) throw e;
    status.replaceChildren(gateBox(e, 'Target assets'));
  }
  await list.load();
}
