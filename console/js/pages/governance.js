// Governance assessments: the list (GET /api/ai-security/governance/assessments, paged), a new one
// (POST .../assess with framework_id, ai_use_cases and org_context; frameworks from GET
// .../frameworks) and one result (#/governance/<id>: GET .../assessments/{id}) with its controls,
// gaps and the basis of each gap. STARTER+; below that the API's 403 is shown.
import { api } from '../api.js';
import { h, errorBox, when } from '../dom.js';
import { gateBox } from '../gate.js';
import { pager } from '../pager.js';
import { scoreRing } from '../charts.js';

function basisText(b) {
  if (b === undefined || b === null) return '';
  if (typeof b === 'string') return b;
  if (Array.isArray(b)) return b.map(basisText).join('; ');
  if (typeof b === 'object') return Object.entries(b).map(([k, v]) => `${k}: ${basisText(v)}`).join('; ');
  return String(b);
}

function result(a) {
  const gaps = a.gaps || [];
  return h('div', { id: 'assessment' },
    h('div', { class: 'posture-row' },
      scoreRing({ id: 'assessment-ring', title: `Score ${a.score} of 100`, value: a.score, centre: String(a.score),
        desc: `${a.controls_met} of ${a.controls_total} controls met.` }),
      h('dl', { class: 'facts' },
        h('dt', {}, 'Framework'), h('dd', {}, a.framework_id),
        h('dt', {}, 'Controls met'), h('dd', { id: 'controls-met' }, `${a.controls_met} of ${a.controls_total}`),
        a.controls_applicable !== undefined ? [h('dt', {}, 'Applicable met'), h('dd', {}, `${a.controls_applicable_met} of ${a.controls_applicable}`)] : null,
        h('dt', {}, 'EU AI Act risk'), h('dd', { id: 'risk-class' }, a.risk_classification),
        h('dt', {}, 'Created'), h('dd', {}, when(a.created_at)))),
    a.classification ? h('details', {}, h('summary', {}, 'Why this classification'), h('p', {}, basisText(a.classification.basis ?? a.classification)),
      (a.classification.categories || []).length ? h('ul', {}, a.classification.categories.map((c) => h('li', {}, `${c.title} (${c.ref}): “${(c.words || []).join('”, “')}” in ${c.source}`))) : null) : null,
    h('h2', {}, `Gaps (${gaps.length})`),
    gaps.length ? h('div', { class: 'table-wrap' }, h('table', { id: 'gaps-table', class: 'stack-sm' }, h('caption', { class: 'muted' }, 'Applicable controls not met, worst first'),
      h('thead', {}, h('tr', {}, ['Control', 'Severity', 'Why it applies', 'Recommendation'].map((t) => h('th', { scope: 'col' }, t)))),
      h('tbody', {}, gaps.map((g) => h('tr', {},
        h('td', {}, h('strong', {}, g.control_id), ' ', g.title),
        h('td', {}, h('span', { class: `badge sev-${g.severity}` }, g.severity)),
        h('td', { class: 'basis' }, basisText(g.basis), g.evidence ? h('span', { class: 'muted' }, ` Evidence: ${basisText(g.evidence)}`) : null),
        h('td', {}, g.recommendation))))))
      : h('p', {}, 'No gaps: every applicable control is met.'),
    (a.recommendations || []).length ? [h('h2', {}, 'Recommendations'), h('ol', {}, a.recommendations.map((r) => h('li', {}, basisText(r))))] : null);
}

async function detail(main, id) {
  main.append(h('p', {}, h('a', { href: '#/governance' }, '← Assessments')), h('h1', {}, `Assessment ${id}`));
  try {
    main.append(result(await api('GET', `/api/ai-security/governance/assessments/${encodeURIComponent(id)}`)));
  } catch (e) {
    if (e.status === 401) throw e;
    main.append(gateBox(e, 'Governance'));
  }
}

async function list(main, ctx) {
  main.append(h('h1', {}, 'Governance'),
    h('p', { class: 'muted' }, 'Assess your AI use against NIST AI RMF, ISO/IEC 42001, the EU AI Act or the OWASP LLM Top 10; the result combines what you state with what the platform knows (assets, scans, keys).'));
  const status = h('div', { id: 'gov-status' });
  let frameworks;
  try {
    frameworks = (await api('GET', '/api/ai-security/governance/frameworks')).frameworks;
  } catch (e) {
    if (e.status === 401) throw e;
    main.append(errorBox(e));
    return;
  }
  const fw = h('select', { id: 'g-framework', name: 'framework_id' }, frameworks.map((f) => h('option', { value: f.id }, `${f.name} (${f.controls} controls)`)));
  const uses = h('textarea', { id: 'g-uses', name: 'ai_use_cases', rows: '4', required: true, 'aria-describedby': 'g-uses-help' });
  const org = h('textarea', { id: 'g-org', name: 'org_context', rows: '3', 'aria-describedby': 'g-org-help' });
  const submit = h('button', { type: 'submit', id: 'g-assess' }, 'Assess');
  const form = h('form', { class: 'stack', id: 'assess-form' },
    h('label', { for: 'g-framework' }, 'Framework', fw),
    h('label', { for: 'g-uses' }, 'AI use cases', h('span', { class: 'help muted', id: 'g-uses-help' }, 'One per line, e.g. “customer support chatbot using a third-party LLM”.'), uses),
    h('label', { for: 'g-org' }, 'Existing practices (optional)', h('span', { class: 'help muted', id: 'g-org-help' }, 'Policies, oversight, testing, logging… Statements that rule something out count too (“no emotion recognition”).'), org),
    submit);
  const p = pager({
    path: '/api/ai-security/governance/assessments', key: 'assessments', label: 'Assessments', limit: 10,
    gate: 'Governance assessments', // below STARTER: the API's 403 instead of the table
    render: (items) => items.length ? h('table', { id: 'assessments-table' }, h('caption', { class: 'muted' }, 'Your assessments, newest first'),
      h('thead', {}, h('tr', {}, ['Assessment', 'Framework', 'Score', 'Gaps', 'Risk'].map((t) => h('th', { scope: 'col' }, t)), h('th', { scope: 'col', class: 'opt' }, 'Created'))),
      h('tbody', {}, items.map((a) => h('tr', {},
        h('td', {}, h('a', { href: `#/governance/${encodeURIComponent(a.assessment_id)}` }, a.assessment_id)),
        h('td', {}, a.framework_id), h('td', {}, String(a.score)), h('td', {}, String(a.gaps.length)),
        h('td', {}, a.risk_classification), h('td', { class: 'opt' }, when(a.created_at))))))
      : h('p', {}, 'No assessments yet.'),
  });
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    status.replaceChildren();
    const cases = uses.value.split('\n').map((s) => s.trim()).filter(Boolean);
    const body = { framework_id: fw.value, ai_use_cases: cases };
    if (org.value.trim()) body.org_context = org.value.trim();
    submit.disabled = true;
    try {
      const a = await api('POST', '/api/ai-security/governance/assess', body);
      ctx.go(`/governance/${encodeURIComponent(a.assessment_id)}`);
    } catch (e) {
      if (e.status === 401) throw e;
      status.replaceChildren(gateBox(e, 'New assessment'));
    } finally { submit.disabled = false; }
  });
  main.append(status, h('section', { class: 'card', 'aria-labelledby': 'new-assessment' }, h('h2', { id: 'new-assessment' }, 'New assessment'), form),
    h('h2', {}, 'Assessments'), p.node);
  await p.load();
}

export async function render(main, ctx) {
  if (ctx.item) return detail(main, ctx.item);
  return list(main, ctx);
}
