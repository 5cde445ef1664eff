// The console's one way to the JSON API: same origin, the session cookie (sent by the browser)
// and the session's CSRF token in X-CSRF-Token on every request. Errors carry the API's message,
// code and request id.
let csrf = null;

export class ApiError extends Error {
  constructor(status, code, message, requestId, detail = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.requestId = requestId;
    this.detail = detail; // the whole error object: required_tier, current_tier, job_id, errors...
  }
}

export function setCsrf(token) { csrf = token; }
export function hasSession() { return csrf !== null; }

export async function api(method, path, body) {
  const headers = { Accept: 'application/json' };
  if (csrf) headers['X-CSRF-Token'] = csrf;
  const init = { method, headers, credentials: 'same-origin', cache: 'no-store' };
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (e) {
    throw new ApiError(0, 'NETWORK', 'The server could not be reached.', null);
  }
  const requestId = res.headers.get('x-request-id');
  if (res.status === 204) return null;
  let data = null;
  try { data = await res.json(); } catch { data = null; }
  if (!res.ok) {
    const e = data && data.error ? data.error : {};
    throw new ApiError(res.status, e.code || `HTTP_${res.status}`, e.message || `HTTP ${res.status}`,
      e.request_id || requestId, e);
  }
  return data;
}

// The session of this browser, if it has one: learns its CSRF token (after a reload).
export async function resume() {
  try {
    const s = await api('GET', '/api/console/session');
    setCsrf(s.csrf_token);
    return s;
  } catch (e) {
    if (e.status === 401) { setCsrf(null); return null; }
    throw e;
  }
}

export async function signIn(email, password) {
  const s = await api('POST', '/api/console/session', { email, password });
  setCsrf(s.csrf_token);
  return s;
}

export async function signOut() {
  try { await api('DELETE', '/api/console/session'); } finally { setCsrf(null); }
}
