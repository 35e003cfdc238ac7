// The server's API: the session (token in localStorage), JSON calls, the
// account stream (NDJSON over fetch, since it needs the Authorization
// header) and a game's WebSocket with reconnection.

import { language } from './i18n.js';
import { serverOrDevice, deviceCall, unreachable } from './device.js';

const SESSION_KEY = 'morris.session';

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

const sessionListeners = new Set();

// session returns {token, name, guest} or null.
export function session() {
  try {
    const s = JSON.parse(localStorage.getItem(SESSION_KEY) || 'null');
    return s && s.token ? s : null;
  } catch {
    return null;
  }
}

export function setSession(s) {
  if (s) localStorage.setItem(SESSION_KEY, JSON.stringify(s));
  else localStorage.removeItem(SESSION_KEY);
  for (const fn of sessionListeners) fn(session());
}

export function onSession(fn) {
  sessionListeners.add(fn);
  return () => sessionListeners.delete(fn);
}

// Another tab signing in or out changes this one too.
window.addEventListener('storage', (ev) => {
  if (ev.key === SESSION_KEY) for (const fn of sessionListeners) fn(session());
});

// api calls the JSON API: api('POST', '/api/seek', body). It sends the
// token when there is one, and throws ApiError with the server's message.
export async function api(method, path, body, opts = {}) {
  const headers = {};
  const s = session();
  if (s && opts.auth !== false) headers.Authorization = 'Bearer ' + s.token;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: opts.signal });
  } catch (err) {
    if (err.name === 'AbortError') throw err;
    throw new ApiError(0, 'network');
  }
  if (res.status === 401 && s && opts.auth !== false && !opts.keepSession) {
    // The token expired or was revoked: forget it.
    setSession(null);
  }
  const text = await res.text();
  if (!res.ok) {
    let msg = text;
    try {
      msg = JSON.parse(text).error || text;
    } catch { /* not JSON */ }
    throw new ApiError(res.status, msg || res.statusText);
  }
  if (opts.text) return text;
  return text ? JSON.parse(text) : null;
}

// signIn and signUp store the session.
export async function signIn(name, password) {
  const a = await api('POST', '/api/token', { name, password }, { auth: false });
  setSession({ token: a.token, name: a.user.name, guest: false });
  return a;
}

export async function signUp(name, password, email) {
  await api('POST', '/api/account', { name, password, email: email || '' }, { auth: false });
  return signIn(name, password);
}

export async function signOut() {
  if (session()) {
    try {
      await api('DELETE', '/api/token', undefined, { keepSession: true });
    } catch { /* gone already */ }
  }
  setSession(null);
}

// ensureToken returns a token, making a guest account when nobody is
// signed in, so the engine can be played without signing up.
export async function ensureToken() {
  const s = session();
  if (s) return s.token;
  const a = await api('POST', '/api/guest', undefined, { auth: false });
  setSession({ token: a.token, name: a.user.name, guest: true });
  return a.token;
}

// readNDJSON reads an NDJSON stream until it ends or signal aborts,
// calling onLine with each value (blank keep-alive lines are skipped but
// reported through onAlive).
export async function readNDJSON(path, { signal, onLine, onAlive, onOpen }) {
  const headers = {};
  const s = session();
  if (s) headers.Authorization = 'Bearer ' + s.token;
  const res = await fetch(path, { headers, signal });
  if (!res.ok) {
    let msg = res.statusText;
    try {
      msg = (await res.json()).error || msg;
    } catch { /* not JSON */ }
    throw new ApiError(res.status, msg);
  }
  if (onOpen) onOpen();
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buf = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buf += decoder.decode(value, { stream: true });
    let nl;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl).trim();
      buf = buf.slice(nl + 1);
      if (onAlive) onAlive();
      if (line) onLine(JSON.parse(line));
    }
  }
}

// backoff returns the wait before reconnection attempt n (1, 2, ...):
// exponential from 500 ms to 15 s, with jitter so that many clients do not
// come back at once.
export function backoff(n) {
  const base = Math.min(15000, 500 * 2 ** (n - 1));
  return Math.round(base * (0.75 + Math.random() * 0.5));
}

// AccountStream follows GET /api/stream/event while signed in, and
// reconnects when it drops. Listeners get every event; on each
// (re)connection the server sends the open games and challenges again,
// and onReset tells listeners to expect them.
export class AccountStream {
  constructor() {
    this.listeners = new Set();
    this.resetListeners = new Set();
    this.abort = null;
    this.attempt = 0;
    this.token = null;
    this.timer = 0;
  }

  on(fn) {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  onReset(fn) {
    this.resetListeners.add(fn);
    return () => this.resetListeners.delete(fn);
  }

  // sync starts or stops the stream to follow the session.
  sync() {
    const s = session();
    const token = s ? s.token : null;
    if (token === this.token) return;
    this.stop();
    this.token = token;
    if (token) this.connect();
  }

  stop() {
    clearTimeout(this.timer);
    if (this.abort) this.abort.abort();
    this.abort = null;
    this.token = null;
  }

  connect() {
    const ctrl = new AbortController();
    this.abort = ctrl;
    let alive = Date.now();
    const watchdog = setInterval(() => {
      // Keep-alives come every 7 s: silence means a dead connection.
      if (Date.now() - alive > 25000) ctrl.abort();
    }, 5000);
    readNDJSON('/api/stream/event', {
      signal: ctrl.signal,
      onOpen: () => {
        this.attempt = 0;
        for (const fn of this.resetListeners) fn();
      },
      onAlive: () => { alive = Date.now(); },
      onLine: (ev) => { for (const fn of this.listeners) fn(ev); },
    }).catch((err) => err).then((err) => {
      clearInterval(watchdog);
      if (this.abort !== ctrl) return; // stopped or replaced
      if (err instanceof ApiError && err.status === 401) {
        setSession(null);
        return;
      }
      this.attempt++;
      this.timer = setTimeout(() => {
        if (this.abort === ctrl) this.connect();
      }, backoff(this.attempt));
    });
  }
}

export const accountStream = new AccountStream();

// GameSocket is a game's WebSocket: it delivers every line of the game's
// stream to onEvent, sends commands and matches their answers, and
// reconnects with ?since=<last version seen> after a drop, so that nothing
// is lost. onStatus gets 'connecting', 'open', 'reconnecting' (with the
// attempt) and 'closed'. A signed-in player's token goes in the socket's
// first message ({type: 'auth', token}), never in its URL, which proxies
// write to their logs.
export class GameSocket {
  constructor(id, { onEvent, onStatus }) {
    this.id = id;
    this.onEvent = onEvent;
    this.onStatus = onStatus || (() => {});
    this.version = -1; // the last version seen
    this.ws = null;
    this.nextId = 1;
    this.pending = new Map();
    this.attempt = 0;
    this.closed = false;
    this.timer = 0;
    this.lastMessage = 0;
    this.watchdog = setInterval(() => this.check(), 4000);
    this.online = () => { if (this.attempt > 0) this.reconnectNow(); };
    window.addEventListener('online', this.online);
  }

  url() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const params = new URLSearchParams();
    if (this.version >= 0) params.set('since', String(this.version));
    const q = params.toString();
    return `${proto}//${location.host}/api/game/${this.id}/ws${q ? '?' + q : ''}`;
  }

  connect() {
    if (this.closed) return;
    this.onStatus(this.attempt === 0 ? 'connecting' : 'reconnecting', this.attempt);
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.onopen = () => {
      if (this.ws !== ws) return;
      this.attempt = 0;
      this.lastMessage = Date.now();
      // Sign in first: the server answers the messages in order, so the
      // commands sent after this one are the player's.
      const s = session();
      if (s) {
        this.send({ type: 'auth', token: s.token }).catch((err) => {
          // A token the server no longer takes: forget it (the page
          // opens the socket again, as a spectator's). Anything else
          // (a drop, a limit) is retried by the reconnection.
          if (err.status === 401 && session() && session().token === s.token) setSession(null);
        });
      }
      this.onStatus('open', 0);
    };
    ws.onmessage = (msg) => {
      if (this.ws !== ws) return;
      this.lastMessage = Date.now();
      let ev;
      try {
        ev = JSON.parse(msg.data);
      } catch {
        return;
      }
      if (ev.type === 'keepAlive') return;
      if (ev.type === 'ack' || ev.type === 'error') {
        const p = this.pending.get(ev.id);
        if (p) {
          this.pending.delete(ev.id);
          if (ev.type === 'ack') p.resolve(ev);
          else p.reject(new ApiError(ev.code || 400, ev.error));
        }
        return;
      }
      if (typeof ev.version === 'number') {
        if (ev.type === 'gameFull' || ev.type === 'gameState') this.version = ev.type === 'gameFull' ? ev.state.version : ev.version;
        else if (ev.version > this.version) this.version = ev.version;
      } else if (ev.type === 'gameFull') {
        this.version = ev.state.version;
      }
      this.onEvent(ev);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      for (const p of this.pending.values()) p.reject(new ApiError(0, 'disconnected'));
      this.pending.clear();
      if (this.closed) {
        this.onStatus('closed', 0);
        return;
      }
      this.attempt++;
      this.onStatus('reconnecting', this.attempt);
      this.timer = setTimeout(() => this.connect(), backoff(this.attempt));
    };
  }

  // check closes a socket that has been silent for longer than three
  // keep-alives: the network may be gone without a close.
  check() {
    if (this.ws && this.ws.readyState === WebSocket.OPEN && Date.now() - this.lastMessage > 22000) this.ws.close();
  }

  reconnectNow() {
    clearTimeout(this.timer);
    if (this.ws) this.ws.close();
    else this.connect();
  }

  // drop closes the connection as a network failure would (for tests and
  // the debug hook): the socket reconnects with ?since.
  drop() {
    if (this.ws) this.ws.close();
  }

  // resync forgets the version, so that the next connection gets the game
  // afresh (after an event that does not fit).
  resync() {
    this.version = -1;
    this.reconnectNow();
  }

  send(msg) {
    return new Promise((resolve, reject) => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
        reject(new ApiError(0, 'disconnected'));
        return;
      }
      const id = this.nextId++;
      this.pending.set(id, { resolve, reject });
      this.ws.send(JSON.stringify({ ...msg, id }));
      setTimeout(() => {
        if (this.pending.has(id)) {
          this.pending.delete(id);
          reject(new ApiError(0, 'timeout'));
        }
      }, 15000);
    });
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.watchdog);
    window.removeEventListener('online', this.online);
    if (this.ws) this.ws.close();
    this.ws = null;
  }
}

// orDevice is the server's answer, or the engine on this device's when
// the server cannot be reached (the same data: cmd/morris-wasm).
function orDevice(promise, method) {
  return promise.catch((err) => {
    if (!unreachable(err)) throw err;
    return deviceCall(method);
  });
}

// Small caches of data that does not change while the page lives.
let boardsPromise = null;
export function boards() {
  if (!boardsPromise) {
    boardsPromise = orDevice(api('GET', '/api/boards', undefined, { auth: false }), 'boards').then((list) => {
      const m = {};
      for (const b of list) m[b.id] = b;
      return m;
    });
    boardsPromise.catch(() => { boardsPromise = null; });
  }
  return boardsPromise;
}

let variantsPromise = null;
export function variants() {
  if (!variantsPromise) {
    variantsPromise = orDevice(api('GET', '/api/variants', undefined, { auth: false }), 'variants');
    variantsPromise.catch(() => { variantsPromise = null; });
  }
  return variantsPromise;
}

let rulesPromise = null;
// rulesText is the rules' prose in the client's language (English if its
// file cannot be had).
export function rulesText() {
  if (!rulesPromise) {
    const english = () => fetch('/data/rules.json').then((r) => r.json());
    const lang = language();
    rulesPromise = lang === 'en' ? english()
      : fetch(`/data/rules.${lang}.json`).then((r) => (r.ok ? r.json() : english())).catch(english);
    rulesPromise.catch(() => { rulesPromise = null; });
  }
  return rulesPromise;
}

// position asks for a position with its legal moves: {position} or
// {rules, seed} plus moves; of the server, or of the engine on this device
// when the player chose it or the server cannot be reached.
export function position(body, signal) {
  return serverOrDevice(() => api('POST', '/api/position', body, { auth: false, signal }), 'position', body);
}
