// The player's options, kept across visits in this browser: hide the score, keep time (off by
// default), show the hints used, animations (on; none under reduced motion anyway), sound (off
// until chosen), the cards' back and the table's colour. Stored as `pyramide.options.v1` →
// {version: 1, hideScore, timer, hintCount, animations, sound, back, table}; anything else reads
// as the defaults. A folded section of checkboxes and two lists under the game.

import { element } from './dom.js';

export const OPTIONS_KEY = 'pyramide.options.v1';
// A boolean default is a checkbox; a string default is a list, its choices in CHOICES.
export const DEFAULTS = Object.freeze({ hideScore: false, timer: false, hintCount: true, animations: true, sound: false,
  back: 'blue', table: 'green' });
export const CHOICES = Object.freeze({ back: ['blue', 'red', 'green'], table: ['green', 'blue', 'red'] });

const valid = (key, value) => (CHOICES[key] ? CHOICES[key].includes(value) : typeof value === 'boolean');

/** The stored options; the defaults for what is missing or not one of its values. */
export function loadOptions() {
  try {
    const data = JSON.parse(globalThis.localStorage?.getItem(OPTIONS_KEY) ?? 'null');
    if (!data || data.version !== 1) return { ...DEFAULTS };
    const out = { ...DEFAULTS };
    for (const k of Object.keys(DEFAULTS)) if (valid(k, data[k])) out[k] = data[k];
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
  const inputs = {};
  const valueOf = (key) => (CHOICES[key] ? inputs[key].value : inputs[key].checked);
  const show = (key, value) => { inputs[key][CHOICES[key] ? 'value' : 'checked'] = value; };
  const controls = [['hideScore', 'hide-score', s.hide_score], ['timer', 'timer', s.timer], ['hintCount', 'hint-count', s.hint_count],
    ['animations', 'animations', s.animations], ['sound', 'sound', s.sound], ['back', 'back', s.back], ['table', 'table', s.table]];
  for (const [key, name, label] of controls) {
    const wrap = element('label', `pyr-option pyr-option-${name}`);
    const input = element(CHOICES[key] ? 'select' : 'input');
    if (CHOICES[key]) {
      for (const colour of CHOICES[key]) input.append(Object.assign(element('option', '', s.colours[colour]), { value: colour }));
      wrap.append(document.createTextNode(`${label} `), input);
    } else {
      input.type = 'checkbox';
      wrap.append(input, document.createTextNode(` ${label}`));
    }
    inputs[key] = input;
    show(key, options[key]);
    input.addEventListener('change', () => {
      const next = { ...loadOptions(), [key]: valueOf(key) };
      saveOptions(next);
      changed(next);
    });
    fieldset.append(wrap);
  }
  details.append(element('summary', '', s.title), fieldset);
  // Another tab changed them: the controls follow.
  window.addEventListener('storage', (event) => {
    if (event.key !== OPTIONS_KEY) return;
    const next = loadOptions();
    for (const key of Object.keys(inputs)) show(key, next[key]);
    changed(next);
  });
  return details;
}
