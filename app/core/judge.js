// What Hint's search finds out about a game (worker.js runs it off the page's thread): can the
// position still be won, and with which move; when not, could the deal be won from its start,
// and how many moves back the game could still be won. app/core/messages.js says it in words.

import { decide } from './decider.js';
import { newGame, playMove } from './engine.js';

/**
 * The game of deal `deal` after `moves` (notation), judged by the decider:
 * {result: 'won' | 'lost' | 'undecided', move, deal, back}. `move` is the first move of a
 * winning line when won. When lost: `deal` is 'won', 'lost' or 'undecided' from the start
 * (`known`, the survey's answer, is taken when it is 'won' or 'lost'), and `back` the number
 * of moves to undo to the newest position that can still be won (null when unknown or none).
 * `maxNodes` bounds each search; `rules`: the variant's rules options (engine.js), default the app's.
 */
export function judge(deal, moves, { maxNodes = Infinity, known = null, rules = {} } = {}) {
  let game = newGame(deal, rules);
  for (const move of moves) game = playMove(game, move);
  const positions = game.positions;
  const n = moves.length;
  const ask = (i) => decide(positions[i], { maxNodes, rules }).result;
  const now = decide(positions[n], { maxNodes, rules });
  if (now.result !== 'lost') {
    const move = now.result === 'won' && now.line && now.line.length ? now.line[0] : null;
    return { result: now.result, move, deal: now.result === 'won' ? 'won' : known, back: null };
  }
  const opening = known === 'won' || known === 'lost' ? known : n === 0 ? 'lost' : ask(0);
  if (opening !== 'won') return { result: 'lost', move: null, deal: opening, back: null };
  // Along one game, winnability only goes from won to lost (a position reachable from a lost
  // one is lost; one from which a won one is reachable is won): halve between the two.
  let won = 0, lost = n;
  while (lost - won > 1) {
    const mid = (won + lost) >> 1;
    const result = ask(mid);
    if (result === 'undecided') return { result: 'lost', move: null, deal: 'won', back: null };
    if (result === 'won') won = mid;
    else lost = mid;
  }
  return { result: 'lost', move: null, deal: 'won', back: n - won };
}
