// The engine on this device: the Web Worker of ../engine/worker.js (the
// rules core and the search in WebAssembly), started when it is first
// needed, never on page load; the player's setting of where the engine
// runs (on the server or on this device, kept in localStorage under
// morris.engineWhere); and the calls that go to the server unless the
// setting says this device or the server cannot be reached.

import { ApiError } from './api.js';

const WHERE_KEY = 'morris.engineWhere';

// onDevice reports whether the player chose "on this device".
export function onDevice() {
  try {
    return localStorage.getItem(WHERE_KEY) === 'device';
  } catch {
    return false;
  }
}

export function setOnDevice(on) {
  if (on) localStorage.setItem(WHERE_KEY, 'device');
  else localStorage.removeItem(WHERE_KEY);
}

let worker = null;
let nextId = 1;
const pending = new Map();
// stats for window.morrisDebug.device(): whether the worker was started,
// and how many calls each side answered.
const stats = { started: false, device: 0, server: 0, fallbacks: 0 };

function ensureWorker() {
  if (worker) return worker;
  worker = new Worker('/engine/worker.js');
  stats.started = true;
  worker.onmessage = (ev) => {
    const { id, answer, error } = ev.data;
    const p = pending.get(id);
    if (!p) return;
    pending.delete(id);
    if (error !== undefined) p.reject(new ApiError(400, error));
    else p.resolve(JSON.parse(answer));
  };
  worker.onerror = (ev) => {
    ev.preventDefault();
    const err = new ApiError(0, 'engine: ' + (ev.message || 'the worker failed'));
    for (const p of pending.values()) p.reject(err);
    pending.clear();
    worker.terminate();
    worker = null; // started again on the next call
  };
  return worker;
}

// deviceCall asks the engine on this device: method is one of boards,
// variants, position, analysis, move, record (cmd/morris-wasm).
export function deviceCall(method, body) {
  const w = ensureWorker();
  const id = nextId++;
  stats.device++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    w.postMessage({ id, method, body });
  });
}

// unreachable reports whether err says the server could not be reached
// (no network, the server down, a proxy without it), not that it refused.
export function unreachable(err) {
  return err instanceof ApiError && (err.status === 0 || err.status === 502 || err.status === 503 || err.status === 504);
}

// ask asks the server (fromServer()) unless the player chose this device,
// and this device when the server cannot be reached; it returns the answer
// and where it came from ('server' or 'device').
export async function ask(fromServer, method, body) {
  if (onDevice()) return { value: await deviceCall(method, body), where: 'device' };
  try {
    const value = await fromServer();
    stats.server++;
    return { value, where: 'server' };
  } catch (err) {
    if (!unreachable(err)) throw err;
    stats.fallbacks++;
    return { value: await deviceCall(method, body), where: 'device' };
  }
}

// serverOrDevice is ask's answer alone.
export async function serverOrDevice(fromServer, method, body) {
  return (await ask(fromServer, method, body)).value;
}

// whereCheckbox is the visible setting: a checkbox "on this device".
export function whereCheckbox(attrs, onChange) {
  const box = document.createElement('input');
  box.type = 'checkbox';
  for (const [k, v] of Object.entries(attrs || {})) box.setAttribute(k, v);
  box.checked = onDevice();
  box.addEventListener('change', () => {
    setOnDevice(box.checked);
    if (box.checked) warmEngine();
    if (onChange) onChange(box.checked);
  });
  return box;
}

// warmEngine fetches the engine's files without starting it, so that the
// service worker keeps them for offline use: when the player turns on "on
// this device", or installs the app.
export function warmEngine() {
  return Promise.all(['/engine/worker.js', '/engine/wasm_exec.js', '/engine/morris.wasm'].map((u) => fetch(u).then((r) => r.arrayBuffer())))
    .then(() => true, () => false);
}

// deviceStats is for window.morrisDebug.device().
export function deviceStats() {
  return { ...stats, onDevice: onDevice() };
}
