// Registers the site's service worker (sw.js, published next to this file at the site's root)
// for the whole site, so that after one visit the pages and the game work without a network.
// A file, not an inline script: every page's Content-Security-Policy refuses inline scripts.
(function () {
  if (!('serviceWorker' in navigator) || !document.currentScript) return;
  var root = new URL('.', document.currentScript.src).href;
  // After the page has loaded: filling the cache must not slow the first visit down.
  window.addEventListener('load', function () {
    navigator.serviceWorker.register(new URL('sw.js', root).href, { scope: root }).catch(function () {
      // No service worker here (a file:// page, private mode, a browser setting): the site works online as before.
    });
  });
})();
