// The colour scheme switch in the header (generator/overrides/partials/palette.html: the theme's
// form, with the theme's options and our words). The theme's own script for it writes the body's
// scheme attributes and two <meta> at every page load, even when nothing changes, and each write
// restyles the whole page: about 65 ms of main thread on the front page here, some four times
// that on a phone, for nothing to see. This one writes only when the scheme is to change: at a press of the switch,
// when the device's setting changes while the reader follows it, and once on a first visit
// with a dark device (a saved choice is applied by the theme's script in the header, before the
// page's content is parsed).
// The choice is kept where and as the theme keeps it (__md_set "__palette"), so that the theme's
// script in the header applies it on the next page.
(() => {
  const form = document.querySelector('form[data-pyr-palette]');
  if (!form || typeof __md_get !== 'function') return;
  const inputs = [...form.querySelectorAll('input')];
  const SYSTEM = '(prefers-color-scheme)';
  const light = matchMedia('(prefers-color-scheme: light)');

  // The colours of option `index`; the device's option takes those of light or dark, as it says.
  function colours(index) {
    const own = inputs[index];
    const source = own.dataset.mdColorMedia !== SYSTEM ? own
      : form.querySelector(`[data-md-color-media="(prefers-color-scheme: ${light.matches ? 'light' : 'dark'})"]`) || own;
    return { media: own.dataset.mdColorMedia, scheme: source.dataset.mdColorScheme,
             primary: source.dataset.mdColorPrimary, accent: source.dataset.mdColorAccent };
  }

  // Option `index` in force: its input checked, the label after it shown (it names the next
  // option), the body's attributes changed where they differ, the choice kept when `keep`.
  function apply(index, keep) {
    const color = colours(index);
    const body = document.body;
    // The attributes the stylesheets read (the option's media is only kept, for the theme's script in the header).
    const changed = ['scheme', 'primary', 'accent'].filter((key) => body.getAttribute(`data-md-color-${key}`) !== color[key]);
    if (changed.length) body.setAttribute('data-md-color-switching', ''); // no transitions mid-switch
    for (const key of changed) body.setAttribute(`data-md-color-${key}`, color[key]);
    inputs.forEach((input, i) => {
      input.checked = i === index;
      const label = input.nextElementSibling;
      if (label instanceof HTMLElement && label.hidden !== (i !== index)) label.hidden = i !== index;
    });
    if (keep) __md_set('__palette', { index, color });
    if (changed.length) {
      const meta = document.querySelector('meta[name="theme-color"]');
      requestAnimationFrame(() => {
        body.removeAttribute('data-md-color-switching');
        // The browser's bar in the header's colour, as the theme's script sets it.
        const rgb = getComputedStyle(document.querySelector('.md-header')).backgroundColor.match(/\d+/g);
        if (meta && rgb) meta.content = '#' + rgb.slice(0, 3).map((c) => (+c).toString(16).padStart(2, '0')).join('');
      });
    }
  }

  const saved = __md_get('__palette');
  let current = Math.max(0, Math.min(Number.isInteger(saved?.index) ? saved.index : 0, inputs.length - 1));
  apply(current, !saved);
  form.addEventListener('change', (event) => {
    const index = inputs.indexOf(event.target);
    if (index < 0) return;
    current = index;
    apply(current, true);
  });
  // Enter on the switch moves on as a click does (the theme's keyboard behaviour).
  form.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    const next = inputs[(current + 1) % inputs.length];
    next.click();
    next.focus();
  });
  light.addEventListener('change', () => { if (inputs[current].dataset.mdColorMedia === SYSTEM) apply(current, true); });
})();
