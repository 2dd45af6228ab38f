// The address is the game: it always shows `#deal=N` for the deal on the board. Opening another
// deal from the page (New game, the daily deal, Undo back to the deal New game left) adds a
// history entry, so Back and Forward move between deals; the page's hashchange handler (game.js)
// then opens that deal with its own saved game. Any other change of the deal replaces the entry.

import { linkHash, STANDARD } from './variants.js';

const STATE_KEY = 'pyramideDeal';

/** Shows `deal` (under `variant`'s rules: `#deal=N&rules=V`) in the address: a new history
 *  entry when `push`, else this entry's address. */
export function showDeal(deal, { push = false, variant = STANDARD } = {}) {
  const hash = linkHash(deal, variant);
  if (window.location.hash === hash) return;
  const url = window.location.pathname + window.location.search + hash;
  try {
    if (push) history.pushState({ [STATE_KEY]: deal }, '', url);
    else history.replaceState({ ...(history.state || {}), [STATE_KEY]: deal }, '', url);
  } catch { /* too many calls (browsers limit them): the address waits for the next change */ }
}

/** Whether a popstate event is a move through the page's own entries (Back or Forward). */
export function isOwnEntry(event) {
  return !!(event.state && Number.isInteger(event.state[STATE_KEY]));
}
