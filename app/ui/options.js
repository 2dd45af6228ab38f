// The player's options, kept across visits in this browser: hide the score, keep time (off by
// default), show the hints used. Stored as `pyramide.options.v1` → {version: 1, hideScore, timer,
// hintCount}; anything else reads as the defaults. A folded section of checkboxes under the game.

import { element } from './dom.js';

export const OPTIONS_KEY = 'pyramide.options.v1';
export const DEFAULTS = Object.freeze({ hideScore: false, timer: false, hintCount: true });

/** The stored options, each one a boolean; the defaults for what is missing or not boolean. */
export function loadOptions() {
  try {
    const data = JSON.parse(globalThis.localStorage?.getItem(OPTIONS_KEY) ?? 'null');
    if (!data || data.version !== 1) return { ...DEFAULTS };
    const out = { ...DEFAULTS };
    for (const k of Object.keys(DEFAULTS)) if (typeof data[k] === 'boolean') out[k] = data[k];
    return out;
  } catch {
    return { ...DEFAULTS };
  }
}

export function saveOptions(options) {
  try {
    globalThis.localStorage?.setItem(OPTIONS_KEY, JSON.stringify({ version: 1, ...options }));
  } catch { /* kept for this visit only */ }
}

/** The options' section; `changed(options)` is called after each change (already saved). */
export function optionsView(words, options, changed) {
  const s = words.strings.options;
  const details = element('details', 'pyr-options');
  const fieldset = element('fieldset');
  fieldset.append(element('legend', 'pyr-visually-hidden', s.title));
  const boxes = {};
  const labels = [['hideScore', 'hide-score', s.hide_score], ['timer', 'timer', s.timer], ['hintCount', 'hint-count', s.hint_count]];
  for (const [key, name, label] of labels) {
    const wrap = element('label', `pyr-option pyr-option-${name}`);
    const box = element('input');
    box.type = 'checkbox';
    box.checked = options[key];
    box.addEventListener('change', () => {
      const next = { ...loadOptions(), [key]: box.checked };
      saveOptions(next);
      changed(next);
    });
    boxes[key] = box;
    wrap.append(box, document.createTextNode(` ${label}`));
    fieldset.append(wrap);
  }
  details.append(element('summary', '', s.title), fieldset);
  // Another tab changed them: the boxes follow.
  window.addEventListener('storage', (event) => {
    if (event.key !== OPTIONS_KEY) return;
    const next = loadOptions();
    for (const key of Object.keys(boxes)) boxes[key].checked = next[key];
    changed(next);
  });
  return details;
}
