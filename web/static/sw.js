// The service worker: the web client works offline. On install, in the
// background of the first visit, it keeps the client's files (the list
// the server gives at /shell.json: every file but this one), the engine
// included (engine/: 1.5 MB gzipped), which the page itself starts only
// when it is first needed; and the API's boards and presets. Every file is
// asked of the network first, so that the page is always the server's
// newest, and taken from the cache when the server cannot be reached; a
// page address (a route) gets index.html. Nothing else of the API is kept:
// games on the server need the server.

const CACHE = 'morris-client';
const KEPT_API = ['/api/boards', '/api/variants'];

self.addEventListener('install', (ev) => {
  ev.waitUntil((async () => {
    const res = await fetch('/shell.json', { cache: 'no-cache' });
    const shell = await res.json();
    const cache = await caches.open(CACHE);
    await cache.addAll(shell.files.concat(KEPT_API));
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (ev) => {
  ev.waitUntil(self.clients.claim());
});

// fresh answers from the network, keeping a copy; from the cache when the
// network fails.
async function fresh(req, key) {
  const cache = await caches.open(CACHE);
  try {
    const res = await fetch(req);
    if (res.ok) await cache.put(key, res.clone());
    return res;
  } catch (err) {
    const kept = await cache.match(key);
    if (kept) return kept;
    throw err;
  }
}

self.addEventListener('fetch', (ev) => {
  const req = ev.request;
  if (req.method !== 'GET') return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith('/api/')) {
    if (KEPT_API.includes(url.pathname)) ev.respondWith(fresh(req, url.pathname));
    return;
  }
  if (req.mode === 'navigate') {
    ev.respondWith(fresh(req, '/index.html'));
    return;
  }
  ev.respondWith(fresh(req, url.pathname));
});
