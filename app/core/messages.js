// Which message the game says, chosen by the state that makes it true: pure functions from the
// state to {key, values}, a key of game.json ('group.name') and the values its template fills
// in (cards as codes, counts as numbers; game.js turns them into words). No DOM: the tests
// (tests/app/core/messages.test.mjs) play thousands of games through them and check each claim.

import { compile, freeMask, ROWS } from './engine.js';

// The pyramid cards still lying over the card at index k: (r, c) is covered by (r+1, c) and
// (r+1, c+1), k + r and k + r + 1 in index terms; row 7 is uncovered.
function coveringCards(position, k) {
  let r = 1;
  while ((r * (r + 1)) / 2 <= k) r++;
  if (r === ROWS) return [];
  return [position.pyramid[k + r], position.pyramid[k + r + 1]].filter(Boolean);
}

/**
 * Why the card at pyramid index k cannot be chosen: one card still lies over it, or two.
 * Null when it is free (nothing to refuse).
 */
export function coveredMessage(position, k) {
  if (((freeMask(compile(position).pyr) >> k) & 1) === 1) return null;
  const over = coveringCards(position, k);
  const card = position.pyramid[k];
  if (over.length === 1) return { key: 'refused.free.covered_one', values: { card, over: over[0] } };
  return { key: 'refused.free.covered_two', values: { card, a: over[0], b: over[1] } };
}

/**
 * The end of the moves, no move left at all (status 'stuck'), by what is known of the deal
 * from its start (`deal`: 'won', 'lost', 'undecided' or null, see KnownDeals and judge.js): a
 * deal that could never be won is not the player's doing, so Undo is not suggested; a deal that
 * could be won was lost by play, so it is; otherwise neither is claimed, and Hint finds out.
 */
export function stuckMessage(deal) {
  if (deal === 'lost') return { key: 'messages.stuck_lost_deal', values: {} };
  if (deal === 'won') return { key: 'messages.stuck', values: {} };
  return { key: 'messages.stuck_unknown', values: {} };
}

/**
 * Hint's answer when the position cannot be won: `deal` as for stuckMessage; `back`, when
 * known, the number of moves to undo to the newest position of the game's history that can
 * still be won (judge.js). Lost from the start: no "no longer", no Undo. Lost by play: how far
 * back the game could still be won, when that is known.
 */
export function lostMessage(deal, back = null) {
  if (deal === 'lost') return { key: 'hint.lost_from_start', values: {} };
  if (Number.isInteger(back) && back > 0) return { key: 'hint.lost_back', values: { count: back } };
  if (deal === 'won') return { key: 'hint.lost', values: {} };
  return { key: 'hint.lost_unknown', values: {} };
}

/** The template of `key` ('group.name', the name may hold dots: 'refused.free.covered_one'). */
export function template(strings, key) {
  const dot = key.indexOf('.');
  return strings[key.slice(0, dot)][key.slice(dot + 1)];
}

/**
 * A chosen message in words (`words`: board.js makeWords of one language): its cards named,
 * its counts written by `num` (game.js: as the page's language writes numbers).
 */
export function messageText(words, { key, values }, num = String) {
  const shown = {};
  for (const [name, value] of Object.entries(values)) shown[name] = typeof value === 'number' ? num(value) : words.card(value);
  return words.fill(template(words.strings, key), shown);
}
