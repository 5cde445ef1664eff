// Tier gating the way the API enforces it: a 403 TIER_REQUIRED shows the API's own message with
// the tier the operation needs and the account's current tier (both from the error object); any
// other error is the usual alert with its message and request id.
import { h, errorBox } from './dom.js';

export function isTierRequired(err) {
  return !!err && err.code === 'TIER_REQUIRED';
}

export function gateBox(err, what) {
  if (!isTierRequired(err)) return errorBox(err);
  const d = err.detail || {};
  const box = h('div', { class: 'alert gate', role: 'note', 'data-required-tier': d.required_tier },
    h('strong', {}, what ? `${what}: ` : '', err.message),
    h('span', { class: 'tiers' }, `Needs the ${d.required_tier || 'a higher'} tier; this account is ${d.current_tier || 'on a lower tier'}.`));
  if (err.requestId) box.append(h('span', { class: 'rid' }, `request id: ${err.requestId}`));
  return box;
}

// Privileged in the orchestrator's sense (the API's rule, docs/openapi.json tag orchestrator):
// an ENTERPRISE account, or role mssp or admin. Used only to choose which endpoints to ask; the
// API decides and its 403 is shown when it says no.
export function privileged(user) {
  return user.tier === 'ENTERPRISE' || user.role === 'mssp' || user.role === 'admin';
}
