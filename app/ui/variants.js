// The variants in the game (issue 28): which rules a game is played by, the links that carry
// them, and the rules choice beside the board. The rules themselves are the engine's
// (engine.js VARIANTS, read from the registry core/variant-registry.js; normaliseRules); this
// module only names them and lets the player choose.
//
// Links: `#deal=N` opens deal N under the app's rules, `#deal=N&rules=one-pass` under a
// variant's, `#rules=one-pass` that variant (its last game, else a new one from its pool).
// The page's data (generator/render/variant_choice.py, `script.pyramide-variants`) lists the choice's
// entries, standard first: {id, name, share, deals, link, pool}; pool is null for standard (the
// game's own pool).

import { VARIANTS, TURNS_ALLOWED } from '../core/engine.js';
import { afterInput, element, setAttr, setText } from './dom.js';

export const STANDARD = 'standard';

/** Is `id` a variant the engine knows? */
export const isVariant = (id) => typeof id === 'string' && Object.hasOwn(VARIANTS, id);

/** The engine's rules options of a variant (the same frozen object each time). */
export function rulesOf(id) {
  return isVariant(id) ? VARIANTS[id] : VARIANTS[STANDARD];
}

/** The variant a game is played by: the id whose rules object it carries, else standard. */
export function variantOf(game) {
  const rules = game && game.rules;
  return Object.keys(VARIANTS).find((id) => VARIANTS[id] === rules) ?? STANDARD;
}

/**
 * The game's part of an address's hash: {deal, rules}, each the raw text or null; null when the
 * hash is not a game link at all (no deal= and no rules=). A deal link's value may hold
 * anything: the caller refuses what is not a deal number or a known variant.
 */
export function readLink(hash) {
  if (typeof hash !== 'string' || !/^#(deal|rules)=/.test(hash)) return null;
  const found = { deal: null, rules: null };
  for (const part of hash.slice(1).split('&')) {
    const eq = part.indexOf('=');
    const key = eq < 0 ? part : part.slice(0, eq);
    if (key !== 'deal' && key !== 'rules') continue;
    let value = eq < 0 ? '' : part.slice(eq + 1);
    try {
      value = decodeURIComponent(value);
    } catch { /* kept as written: it is refused with the text the player sees */ }
    if (found[key] === null) found[key] = value;
  }
  return found;
}

/** The hash of a deal's link under a variant: the standard one has no rules= (old links stay valid). */
export function linkHash(deal, variant = STANDARD) {
  return variant === STANDARD ? `#deal=${deal}` : `#deal=${deal}&rules=${variant}`;
}

/** The choice's entries from the page's data, only those the engine knows; standard always first. */
export function choiceEntries(data) {
  const entries = (Array.isArray(data) ? data : []).filter((e) => e && isVariant(e.id) && typeof e.name === 'string');
  if (!entries.some((e) => e.id === STANDARD)) return [];
  return [entries.find((e) => e.id === STANDARD), ...entries.filter((e) => e.id !== STANDARD)];
}

/**
 * The rules choice: a folded list of radio buttons, one per entry, each with its name, its
 * verified win rate, a one-line summary and a link to its section of the variants page.
 * onChoose(id) is called when the player picks another one; show(id) marks the current one.
 */
export class RulesChoice {
  constructor(words, entries, onChoose) {
    const s = words.strings.variants;
    this.words = words;
    this.entries = entries;
    this.el = element('details', 'pyr-rules');
    this.summary = element('summary', '');
    const group = element('fieldset', 'pyr-rules-list');
    group.append(element('legend', '', s.legend));
    const name = `pyr-rules-${Math.random().toString(36).slice(2, 8)}`;
    this.inputs = new Map();
    for (const entry of entries) {
      const item = element('div', 'pyr-rules-item');
      const input = document.createElement('input');
      input.type = 'radio';
      input.name = name;
      input.value = entry.id;
      input.id = `${name}-${entry.id}`;
      input.addEventListener('change', () => { if (input.checked) afterInput(() => onChoose(entry.id)); });
      const label = document.createElement('label');
      label.htmlFor = input.id;
      label.append(element('strong', 'pyr-rules-name', entry.name));
      if (entry.share) label.append(' ', element('span', 'pyr-rules-share', words.fill(s.share, { share: entry.share, count: entry.deals })));
      const summary = words.fill(s.summaries[entry.id] || '', { count: TURNS_ALLOWED });
      const about = element('span', 'pyr-rules-summary', summary);
      if (typeof entry.link === 'string' && !/^[a-z]+:|^\/\//i.test(entry.link)) { // this site's pages only
        const a = element('a', 'pyr-rules-link', words.fill(s.read_more, { name: entry.name }));
        a.href = entry.link;
        about.append(' ', a);
      }
      item.append(input, label, about);
      group.append(item);
      this.inputs.set(entry.id, input);
    }
    this.el.append(this.summary, group);
  }

  nameOf(id) {
    return (this.entries.find((e) => e.id === id) || {}).name || id;
  }

  poolOf(id) {
    const entry = this.entries.find((e) => e.id === id);
    return entry && Array.isArray(entry.pool) ? entry.pool.filter((n) => Number.isInteger(n) && n >= 1) : null;
  }

  show(id) {
    setText(this.summary, this.words.fill(this.words.strings.variants.current, { name: this.nameOf(id) }));
    for (const [vid, input] of this.inputs) input.checked = vid === id;
    setAttr(this.el, 'data-variant', id);
  }
}
