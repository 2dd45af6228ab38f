// The theme's script (mkdocs-material's bundle, 114 kB) loaded when the reader first needs it
// instead of with every page. Its evaluation and first pass over the page are most of a load's
// main thread: some 90 ms here, four times that on a phone (bench/blocking.py on the front page:
// 437 ms of blocking time with it, 88 without). On a phone-sized screen what it does waits for a
// gesture anyway: the search (its button, its field, its keys), the drawer's navigation, a jump
// to a place on the page; the drawer and the search box open without it (they are the theme's
// CSS), and the colour scheme switch is palette.js. Where
// the screen is wide enough for the sidebars, which follow the reading, it loads at once, as it
// does when the address names a place on the page.
(() => {
  const loader = document.currentScript;
  const bundle = loader && loader.dataset.themeBundle;
  if (!bundle) return;
  const WIDE = matchMedia('(min-width: 76.25em)');  // the theme's breakpoint for both sidebars
  const SEARCH_KEYS = new Set(['/', 's', 'f']);      // the theme's keys that open the search
  let requested = false;

  function searchField() {
    return document.querySelector('.md-search__input');
  }

  function load() {
    if (requested) return;
    requested = true;
    const script = document.createElement('script');
    script.src = bundle;
    script.addEventListener('load', () => {
      // The theme starts at its document's DOMContentLoaded; when that has passed, it is given its
      // own (nothing else of the page listens for it by then: app/ui/dom.js listens once, before it).
      if (document.readyState !== 'loading') document.dispatchEvent(new Event('DOMContentLoaded'));
      const search = document.getElementById('__search');
      if (search && search.checked) searchField()?.focus();  // the theme focuses it as it opens
    }, { once: true });
    document.body.append(script);
  }

  if (WIDE.matches || location.hash) {
    load();
    return;
  }
  WIDE.addEventListener('change', (event) => { if (event.matches) load(); });
  addEventListener('hashchange', load, { once: true });
  for (const id of ['__drawer', '__search']) document.getElementById(id)?.addEventListener('change', load, { once: true });
  document.addEventListener('focusin', (event) => { if (event.target === searchField()) load(); });
  addEventListener('keydown', (event) => {
    if (requested || event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    const typing = target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
    if (typing || !SEARCH_KEYS.has(event.key.toLowerCase()) || event.defaultPrevented) return;
    // The theme would open the search: open it now, and the theme follows as it arrives.
    event.preventDefault();
    const search = document.getElementById('__search');
    if (!search) return;
    search.checked = true;
    search.dispatchEvent(new Event('change'));
  });
})();
