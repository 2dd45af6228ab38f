// The site without a network (generator/site/offline.py puts `const BUILD = {…}` above this text and
// publishes it as sw.js at the site's root, so its scope is the whole site).
//
// After one visit every page, the game, its worker, the theme's files and the search index are
// kept in one cache named by the build's hash and served from there. A build is cached whole or
// not at all: each file must match the hash the build wrote here, or the install fails and the
// previous build (if any) stays in use. A new build's worker waits until no page of the old one
// is open (no skipWaiting, no clients.claim); on activation it deletes the caches of every other
// build. A page never mixes files of two builds: a page this build does not hold (new in a later
// build, so the network served it) gets its files from the network too, this build's cache only
// offline.
'use strict';

const PREFIX = 'pyramide-';

const scoped = (path) => new URL(path, self.registration.scope).href;
const PRECACHED = new Set(Object.keys(BUILD.files).map(scoped));

async function digest(body) {
  const bytes = new Uint8Array(await crypto.subtle.digest('SHA-256', body));
  return 'sha256-' + btoa(String.fromCharCode(...bytes));
}

async function fetchChecked(path, hash) {
  // 'no-cache': the HTTP cache may still hold a file of the previous build.
  const response = await fetch(scoped(path), { cache: 'no-cache' });
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  if (response.redirected) throw new Error(`${path}: redirected`);
  if ((await digest(await response.clone().arrayBuffer())) !== hash) {
    throw new Error(`${path}: not the file of build ${BUILD.cache}`);
  }
  return [scoped(path), response];
}

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    // Everything fetched and checked first; only then is the cache written.
    const responses = await Promise.all(Object.entries(BUILD.files).map(([path, hash]) => fetchChecked(path, hash)));
    await caches.delete(BUILD.cache); // leftovers of an install that stopped halfway
    const cache = await caches.open(BUILD.cache);
    try {
      await Promise.all(responses.map(([address, response]) => cache.put(address, response)));
    } catch (error) {
      await caches.delete(BUILD.cache);
      throw error;
    }
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    const names = await caches.keys();
    await Promise.all(names.filter((name) => name.startsWith(PREFIX) && name !== BUILD.cache)
      .map((name) => caches.delete(name)));
  })());
});

/** The cached address for a request's URL: its query and fragment dropped, `x/index.html` read as `x/`. */
function cachedAddress(url) {
  const address = new URL(url);
  if (address.origin !== self.location.origin) return null;
  const path = address.pathname.endsWith('/index.html') ? address.pathname.slice(0, -'index.html'.length) : address.pathname;
  const key = address.origin + path;
  return PRECACHED.has(key) ? key : null;
}

async function fromCache(address, request) {
  const cached = await caches.match(address, { cacheName: BUILD.cache });
  return cached || fetch(request); // the browser emptied the cache (low on space): the network
}

/** A file of the build for `event`'s page: this build's cached one, unless the page is not of this
 *  build (then the network's, as its page's was). */
async function forItsPage(event, address) {
  const client = event.clientId ? await self.clients.get(event.clientId) : null;
  if (client && cachedAddress(client.url) === null) {
    try {
      return await fetch(event.request, { cache: 'no-cache' }); // the HTTP cache may hold this build's file
    } catch { /* offline: this build's file is the one there is */ }
  }
  return fromCache(address, event.request);
}

/** A page that is not part of the build: the network, else (offline) its language's 404 page. */
async function otherPage(request) {
  try {
    return await fetch(request);
  } catch (error) {
    const path = new URL(request.url).pathname.slice(new URL(self.registration.scope).pathname.length);
    const notFound = BUILD.not_found[path.split('/')[0]];
    const cached = notFound && await caches.match(scoped(notFound), { cacheName: BUILD.cache });
    if (cached) return cached;
    throw error;
  }
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const address = cachedAddress(request.url);
  if (address) event.respondWith(request.mode === 'navigate' ? fromCache(address, request) : forItsPage(event, address));
  else if (request.mode === 'navigate') event.respondWith(otherPage(request));
});
