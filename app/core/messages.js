// Which message the game says, chosen by the state that makes it true: pure functions from the
// state to {key, values}, a key of game.json ('group.name') and the values its template fills
// in (cards as codes, counts as numbers; game.js turns them into words). No DOM: the tests
// (tests/app/core/messages.test.mjs) play thousands of games through them and check each claim.

import { compile, freeMask, POINTS, ROWS } from './engine.js';

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

/**
 * The lost panel's words (game.js endOf, Hint's lostByHint) by what is known of the deal from its
 * start (`deal` as for stuckMessage), and whether it offers "back to the last position that can
 * still be won" (`back`). Known winnable: lost by play. Known lost: not the player's doing, and no
 * way back to offer (there is no winnable position to go to). Not known (a variant, a deal outside
 * the survey): no claim either way; the way back is offered, and its search finds out.
 */
export function lostPanelMessage(deal) {
  if (deal === 'lost') return { key: 'end.lost_from_start', values: {}, back: false };
  if (deal === 'won') return { key: 'end.lost_by_play', values: {}, back: true };
  return { key: 'end.lost_unknown', values: {}, back: true };
}

/**
 * The words after a turn (the waste turned back to the stock): the turns still left, or that it was
 * the last one. Under unlimited turns (rules.unlimitedTurns) a turn uses none up (docs/rules.md,
 * Variants), so there is nothing to count.
 */
export function turnMessage(after, rules = {}) {
  if (rules.unlimitedTurns) return { key: 'done.turn_unlimited', values: {} };
  if (after.turns_left === 0) return { key: 'done.turn_last', values: {} };
  return { key: 'done.turn', values: { turns: after.turns_left } };
}

/**
 * Why the stock's own move, `draw` or `turn` (the stock pressed), is refused in `position`. The
 * engine names the broken rule under the app's rules only (under a variant it says 'variant',
 * whatever the reason), and its 'turn.limit' says the turns were used up, which is not so under
 * rules that give none (one-pass). Draws and turns follow the same rules under every variant but
 * those two counts, so the reason is read here from the position: the same words for the same
 * state under every rule set.
 */
export function stockRefusal(position, move, rules = {}) {
  const because = (rule) => ({ key: `refused.${rule}`, values: {} });
  if (move === 'draw') return because('draw.nonempty');
  if (position.stock.length > 0 || position.waste.length === 0) return because('turn.when');
  if (!rules.unlimitedTurns && rules.turns === 0) return because('turn.none');
  return because('turn.limit');
}

/**
 * The win panel's row of points for turns (scoreBreakdown's `turns`): so many unused turns at so
 * many points each; under unlimited turns none is ever used, so the engine pays every turn a
 * game starts with (docs/rules.md, Variants: Points), and the row says it is a fixed bonus.
 */
export function turnsScoreMessage(score, rules = {}) {
  if (rules.unlimitedTurns) return { key: 'end.turns_unlimited', values: {} };
  return { key: 'end.turns', values: { count: Math.round(score.turns / POINTS.perUnusedTurn), per: POINTS.perUnusedTurn } };
}

/** The template of `key` ('group.name', the name may hold dots: 'refused.free.covered_one'). */
export function template(strings, key) {
  const dot = key.indexOf('.');
  return strings[key.slice(0, dot)][key.slice(dot + 1)];
}

/**
 * A chosen message in words (`words`: board.js makeWords of one language): its cards named,
 * its numbers written by `num` (game.js: as the page's language writes numbers), but the count of
 * a counted text (one form per plural category) left a number: words.fill chooses the form by it.
 */
export function messageText(words, { key, values }, num = String) {
  const text = template(words.strings, key);
  const shown = {};
  for (const [name, value] of Object.entries(values)) {
    if (typeof value !== 'number') shown[name] = words.card(value);
    else shown[name] = typeof text === 'object' && name === 'count' ? value : num(value);
  }
  return words.fill(text, shown);
}
