// The orchestrator: its status (GET /api/orchestrator/god-mode/status: the last and current run
// for privileged callers), a new run (POST .../run, 202 with a job id; 409 names the run already
// going, which is then followed), its 16 phases live (GET .../run/{job_id} polled every second while
// it runs; polling stops when it ends or the page is left) and what each phase did (the CISO
// pack's `pipeline`, GET .../ciso, once the run completed).
import { api } from '../api.js';
import { h, errorBox, okBox, when } from '../dom.js';
import { gateBox } from '../gate.js';

const POLL_MS = 1000;

function phaseList(run) {
  return h('ol', { class: 'phases-live', id: 'phases' }, run.phases.map((p) =>
    h('li', { class: `ph ph-${p.status}`, 'data-phase': p.name, 'data-status': p.status },
      h('span', { class: 'ph-name' }, p.name.replaceAll('_', ' ')), ' ',
      h('span', { class: `badge ph-${p.status}` }, p.status))));
}

function runView(run) {
  const prog = h('progress', { id: 'run-progress', max: String(run.phases_total), value: String(run.phases_done), 'aria-labelledby': 'run-title' });
  return h('section', { class: 'card', id: 'run', 'data-status': run.status },
    h('h2', { id: 'run-title' }, `Run ${run.job_id}`),
    h('p', { id: 'run-state' }, h('strong', {}, run.status), ` · ${run.phases_done} of ${run.phases_total} phases done`,
      run.phase_name && run.status === 'running' ? ` · now: ${run.phase_name.replaceAll('_', ' ')}` : '',
      run.finished_at ? ` · finished ${when(run.finished_at)}` : run.started_at ? ` · started ${when(run.started_at)}` : ''),
    prog, run.error ? errorBox({ message: run.error }) : null, phaseList(run));
}

function pipelineView(pipeline) {
  const entries = Array.isArray(pipeline) ? pipeline.map((p) => [p.phase || p.name, p]) : Object.entries(pipeline || {});
  return h('section', { class: 'card', id: 'pipeline' }, h('h2', {}, 'What each phase did'),
    h('div', { class: 'table-wrap' }, h('table', {}, h('caption', { class: 'muted' }, 'From the CISO pack of the newest snapshot'),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Phase'), h('th', { scope: 'col' }, 'Result'))),
      h('tbody', {}, entries.map(([name, v]) => h('tr', {}, h('th', { scope: 'row' }, String(name).replaceAll('_', ' ')),
        h('td', {}, h('code', { class: 'small' }, typeof v === 'object' ? JSON.stringify(v) : String(v)))))))));
}

export async function render(main, ctx) {
  main.append(h('h1', {}, 'Orchestrator'),
    h('p', { class: 'muted' }, 'A 16-phase run over your intel, assets, scans and engagements: it refreshes stale playbooks and stores the CISO, ASPM, compliance and hunt packs.'));
  const status = h('div', { id: 'orch-status' });
  const live = h('div', { id: 'live' });
  const after = h('div', {});
  const max = h('input', { id: 'o-max', name: 'max_items', type: 'number', min: '1', max: '1000', value: '100' });
  const start = h('button', { type: 'submit', id: 'o-start' }, 'Start a run');
  const form = h('form', { class: 'inline' }, h('label', { for: 'o-max' }, 'Items per phase (1–1000)', max), start);
  main.append(status, h('section', { class: 'card', 'aria-labelledby': 'o-new' }, h('h2', { id: 'o-new' }, 'New run'), form), live, after);

  let timer = null;
  let left = false;
  ctx.onLeave(() => { left = true; clearTimeout(timer); });

  async function follow(jobId) {
    let run;
    try {
      run = await api('GET', `/api/orchestrator/god-mode/run/${encodeURIComponent(jobId)}`);
    } catch (e) {
      if (left) return;
      if (e.status === 401) { ctx.session = null; ctx.go('/signin'); return; }
      live.replaceChildren(errorBox(e));
      return;
    }
    if (left) return;
    live.replaceChildren(runView(run));
    if (run.status === 'queued' || run.status === 'running') {
      start.disabled = true;
      timer = setTimeout(() => follow(jobId), POLL_MS);
      return;
    }
    start.disabled = false;
    if (run.status === 'completed') {
      status.replaceChildren(okBox(`Run ${run.job_id} completed: the packs are updated.`));
      try {
        const ciso = await api('GET', '/api/orchestrator/god-mode/ciso');
        if (!left) after.replaceChildren(pipelineView(ciso.pipeline));
      } catch (e) { if (!left) after.replaceChildren(gateBox(e, 'CISO pack')); }
    }
  }

  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    status.replaceChildren();
    after.replaceChildren();
    const n = Number(max.value);
    start.disabled = true;
    try {
      const r = await api('POST', '/api/orchestrator/god-mode/run', { max_items: n });
      status.replaceChildren(okBox(`Run ${r.job_id} accepted (${r.phases_total} phases).`));
      follow(r.job_id);
    } catch (e) {
      if (e.status === 401) { ctx.session = null; ctx.go('/signin'); return; }
      start.disabled = false;
      status.replaceChildren(gateBox(e, 'Orchestrator run'));
      if (e.code === 'CONFLICT' && e.detail.job_id) follow(e.detail.job_id); // the run already going
    }
  });

  const st = await api('GET', '/api/orchestrator/god-mode/status');
  if (!st.phases) {
    // the coarse answer: the account is not privileged; the packs' 403 says which tier it needs
    try { await api('GET', '/api/orchestrator/god-mode/ciso'); } catch (e) {
      if (e.status === 401) throw e;
      status.replaceChildren(gateBox(e, 'Orchestrator'));
    }
    return;
  }
  if (st.current_run) follow(st.current_run.job_id);
  else if (st.last_run) live.replaceChildren(h('h2', {}, 'Last run'), runView(st.last_run));
  else live.replaceChildren(h('p', { class: 'muted', id: 'no-run' }, 'No run yet in this scope.'));
}
