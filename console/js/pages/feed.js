// Threat feed (GET /api/ai-security/threat-feed): the API's filters (type, severity, epss_min,
// since, sort), paged by next_cursor; a record (#/feed/<id>: GET .../threat-feed/{id}) with its
// playbook (GET /api/threat-intel/{id}/playbook: phases, SOC stages, KQL hunting queries), and a
// new generation of it (POST, which the API allows any signed-in account).
import { api } from '../api.js';
import { h, errorBox, okBox, when } from '../dom.js';
import { pager } from '../pager.js';

const TYPES = [['', 'Any type'], ['prompt_attacks', 'Prompt attacks'], ['agent_threats', 'Agent threats'], ['ai_cves', 'AI CVEs'], ['model_advisories', 'Model advisories']];
const SEVERITIES = ['', 'CRITICAL', 'HIGH', 'MEDIUM', 'LOW'];
const SORTS = [['published', 'Newest first'], ['risk', 'Highest risk'], ['epss', 'Highest EPSS']];

function select(id, label, options) {
  const el = h('select', { id, name: id }, options.map(([v, t]) => h('option', { value: v }, t)));
  return [el, h('label', { for: id }, label, el)];
}

// only web links from a record become links (never javascript: or data:)
function safeLink(url, text) {
  return /^https?:\/\//i.test(url) ? h('a', { href: url, rel: 'noopener noreferrer', target: '_blank' }, text || url) : h('span', {}, text || url);
}

function sevBadge(sev) {
  return h('span', { class: `badge sev-${sev}` }, sev);
}

function list(main) {
  const [type, typeL] = select('f-type', 'Type', TYPES);
  const [severity, sevL] = select('f-severity', 'Severity', SEVERITIES.map((s) => [s, s || 'Any severity']));
  const [sort, sortL] = select('f-sort', 'Sort', SORTS);
  const epss = h('input', { id: 'f-epss', name: 'epss_min', inputmode: 'decimal', placeholder: '0.05', size: '6' });
  const since = h('input', { id: 'f-since', name: 'since', type: 'date' });
  const apply = h('button', { type: 'submit', id: 'f-apply' }, 'Apply');
  const form = h('form', { class: 'inline filters', role: 'search', 'aria-label': 'Feed filters' },
    typeL, sevL, h('label', { for: 'f-epss' }, 'EPSS at least', epss), h('label', { for: 'f-since' }, 'Changed since', since), sortL, apply);
  const p = pager({
    path: '/api/ai-security/threat-feed', key: 'feed', label: 'Feed', limit: 10, params: { sort: 'published' },
    render: (items, data) => {
      if (!items.length) return h('p', { id: 'feed-empty' }, 'No record matches these filters.');
      return h('div', {},
        h('p', { class: 'muted', id: 'feed-total' }, `${data.total} records match; intel updated ${when(data.updated_at)}.`),
        h('table', { id: 'feed-table' }, h('caption', { class: 'muted' }, 'Threat-intelligence records'),
          h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Record'), h('th', { scope: 'col' }, 'Severity'),
            h('th', { scope: 'col' }, 'Risk'), h('th', { scope: 'col', class: 'opt' }, 'Type'), h('th', { scope: 'col', class: 'opt' }, 'EPSS'),
            h('th', { scope: 'col', class: 'opt' }, 'Published'))),
          h('tbody', {}, items.map((r) => h('tr', { 'data-id': r.id },
            h('td', {}, h('a', { href: `#/feed/${encodeURIComponent(r.id)}` }, r.title), h('br'), h('code', { class: 'small' }, r.id), r.kev ? h('span', { class: 'badge kev' }, 'KEV') : null),
            h('td', {}, sevBadge(r.severity)),
            h('td', {}, String(r.risk_score)),
            h('td', { class: 'opt' }, r.type),
            h('td', { class: 'opt' }, r.epss ? r.epss.score.toFixed(3) : '—'),
            h('td', { class: 'opt' }, when(r.published)))))));
    },
  });
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    p.setParams({ type: type.value, severity: severity.value, sort: sort.value, epss_min: epss.value.trim(),
      since: since.value ? `${since.value}T00:00:00Z` : '' });
  });
  main.append(h('h1', {}, 'Threat feed'),
    h('p', { class: 'muted' }, 'AI threat intelligence: CVEs of AI software, model advisories, prompt attacks and agent threats, with a response playbook for each.'),
    form, p.node);
  return p.load();
}

function section(title, ...children) {
  return h('section', { class: 'card pb-section' }, h('h3', {}, title), ...children);
}

function codeBlock(text, label) {
  return h('pre', { tabindex: '0', 'aria-label': label }, h('code', { class: 'kql' }, text));
}

function renderPlaybook(env) {
  const pb = env.playbook;
  const hunt = pb.threat_hunting_guide || {};
  const out = h('div', { id: 'playbook' },
    h('p', { class: 'muted', id: 'playbook-meta' },
      `Generation ${env.playbook_id} of record version ${env.record_version}, ${env.generated_at ? when(env.generated_at) : 'computed now'}`,
      env.persisted ? ' · saved' : '', env.stale ? ' · stale: the record changed since; generate a new one' : ''),
    section('Executive advisory', h('p', {}, pb.executive_advisory)),
    section('Immediate actions', h('ol', {}, pb.immediate_actions.map((a) => h('li', {}, a)))),
    section('Incident response phases (NIST SP 800-61 Rev. 3)', h('ol', { id: 'ir-phases', class: 'phases' }, pb.incident_response_playbook.map((ph) =>
      h('li', { class: 'phase' }, h('h4', {}, `${ph.function}${ph.csf_id ? ` (${ph.csf_id})` : ''}`),
        ph.rev2_phase ? h('p', { class: 'muted' }, `Rev. 2 phase: ${ph.rev2_phase}`) : null,
        h('ul', {}, (ph.actions || []).map((a) => h('li', {}, a))))))),
    section('SOC playbook', h('ol', { id: 'soc-stages' }, pb.soc_playbook.map((s) => h('li', {}, h('strong', {}, s.stage), ': ', s.action)))),
    section('Detection and threat hunting', h('ul', {}, pb.detection_guidance.map((d) => h('li', {}, d))),
      hunt.hypothesis ? h('p', {}, h('strong', {}, 'Hypothesis: '), hunt.hypothesis) : null,
      h('h4', {}, `Suggested query (${hunt.query_language || 'KQL'})`), codeBlock(hunt.suggested_query, 'Suggested hunting query'),
      (hunt.additional_queries || []).map((q) => [h('h4', {}, `${q.name}${q.data_source ? ` (${q.data_source})` : ''}`), codeBlock(q.query, q.name)])),
    section('Architecture guidance by ATT&CK tactic', h('ul', {}, pb.security_architecture_guidance.map((g) =>
      h('li', {}, h('strong', {}, `${g.tactic} (${g.tactic_id})`), g.inferred ? ' (inferred)' : '', ': ', g.guidance,
        (g.techniques || []).length ? h('span', { class: 'muted' }, ` Techniques: ${g.techniques.map((t) => t.id).join(', ')}.`) : null)))),
    section('Operational checklist', h('ul', {}, pb.operational_checklist.map((c) => h('li', {}, c.item, c.owner ? h('span', { class: 'muted' }, ` (${c.owner}, ${c.due})`) : null)))),
    section('References', h('ul', {}, pb.references.map((r) => h('li', {}, safeLink(r.url, r.label))))));
  return out;
}

async function record(main, id) {
  const rec = await api('GET', `/api/ai-security/threat-feed/${encodeURIComponent(id)}`);
  const facts = h('dl', { class: 'facts' },
    h('dt', {}, 'Severity'), h('dd', {}, sevBadge(rec.severity)),
    h('dt', {}, 'Risk score'), h('dd', {}, `${rec.risk_score} (${rec.risk_tier})`),
    h('dt', {}, 'Type'), h('dd', {}, rec.type),
    h('dt', {}, 'CVE'), h('dd', {}, rec.cve.join(', ') || '—'),
    h('dt', {}, 'CISA KEV'), h('dd', {}, rec.kev ? 'yes' : 'no'),
    h('dt', {}, 'EPSS'), h('dd', {}, rec.epss ? `${rec.epss.score} (percentile ${rec.epss.percentile}, ${rec.epss.date})` : 'not scored'),
    h('dt', {}, 'ATT&CK'), h('dd', {}, rec.attack_techniques.join(', ') || '—'),
    h('dt', {}, 'ATLAS'), h('dd', {}, rec.atlas_techniques.join(', ') || '—'),
    h('dt', {}, 'Published'), h('dd', {}, when(rec.published)),
    h('dt', {}, 'Sources'), h('dd', {}, rec.sources.join(', ')));
  const status = h('div', { id: 'playbook-status' });
  const holder = h('div', {});
  const regen = h('button', { type: 'button', class: 'secondary', id: 'regenerate' }, 'Generate a new playbook');
  regen.addEventListener('click', async () => {
    regen.disabled = true;
    status.replaceChildren();
    try {
      const env = await api('POST', `/api/threat-intel/${encodeURIComponent(id)}/playbook`);
      holder.replaceChildren(renderPlaybook(env));
      status.replaceChildren(okBox(`New generation ${env.playbook_id} saved.`));
    } catch (e) {
      if (e.status === 401) throw e;
      status.replaceChildren(errorBox(e));
    } finally { regen.disabled = false; }
  });
  main.append(h('p', {}, h('a', { href: '#/feed' }, '← Threat feed')),
    h('h1', {}, rec.title), h('p', { class: 'muted' }, h('code', {}, rec.id)),
    h('p', {}, rec.summary), facts,
    rec.references.length ? h('details', {}, h('summary', {}, `References (${rec.references.length})`),
      h('ul', {}, rec.references.map((r) => h('li', {}, safeLink(r.url, `${r.kind ? `${r.kind}: ` : ''}${r.url}`))))) : null,
    h('h2', { id: 'playbook-title' }, 'Playbook'), h('div', { class: 'actions-row' }, regen), status, holder);
  try {
    holder.replaceChildren(renderPlaybook(await api('GET', `/api/threat-intel/${encodeURIComponent(id)}/playbook`)));
  } catch (e) {
    if (e.status === 401) throw e;
    holder.replaceChildren(errorBox(e));
  }
}

export async function render(main, ctx) {
  if (ctx.item) return record(main, ctx.item);
  return list(main);
}
