// The engine in the browser: a Web Worker that runs cmd/morris-wasm (the
// rules core and the search compiled to WebAssembly) and answers the page's
// calls one at a time. Messages in: {id, method, body}; out: {id, answer}
// (the answer as JSON text) or {id, error}. The page starts it only when
// the engine is first needed (../js/device.js).

importScripts('/engine/wasm_exec.js');

let ready = null;

// start fetches and compiles the engine once (streamed when the server
// says application/wasm; the service worker keeps a copy for offline).
function start() {
  if (!ready) {
    const go = new Go();
    ready = WebAssembly.instantiateStreaming(fetch('/engine/morris.wasm'), go.importObject).then(({ instance }) => {
      go.run(instance); // main sets morrisEngine and waits for calls
      if (!self.morrisEngine) throw new Error('the engine did not start');
    });
    ready.catch(() => { ready = null; }); // tried again on the next call
  }
  return ready;
}

// The calls queue: the engine runs one at a time.
let queue = Promise.resolve();

self.onmessage = (ev) => {
  const { id, method, body } = ev.data;
  queue = queue.then(async () => {
    try {
      await start();
      const answer = await self.morrisEngine.call(method, body === undefined ? '' : JSON.stringify(body));
      self.postMessage({ id, answer });
    } catch (err) {
      self.postMessage({ id, error: String(err && err.message ? err.message : err) });
    }
  });
};
