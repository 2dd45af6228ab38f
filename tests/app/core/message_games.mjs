// Random games and the messages the game would say in them, with what each message claims —
// shared by tests/app/core/messages.test.mjs (which checks every claim with the app's engine and
// decider, over 10,000 games) and tests/app/test_message_claims.py (which runs this file with
// `node message_games.mjs FIRST COUNT` and checks a sample with the independent engine and
// decider). Only app/core/messages.js and app/core/judge.js choose; nothing here decides a claim.
import * as E from '../../../app/core/engine.js';
import { decide } from '../../../app/core/decider.js';
import { judge } from '../../../app/core/judge.js';
import { coveredMessage, lostMessage, stuckMessage } from '../../../app/core/messages.js';

export const MAX_NODES = 100_000; // per search; a position beyond it is left out (counted)

// A small seeded generator (an LCG): the same games on every run.
function random(seed) {
  let s = (seed * 7919 + 17) >>> 0;
  return (k) => { s = (Math.imul(s, 1103515245) + 12345) >>> 0; return (s >>> 8) % k; };
}

/**
 * Deal `deal` played at random (a removal three times in four when there is one) to its end,
 * and at a few of its positions what the game says: {deal, moves, opening, claims}, where each
 * claim is {n (moves played), kind, key, values, ...} — kinds 'covered' (a card chosen that is
 * not free), 'hint' (Hint's answer, judge.js), 'stuck' (no move at all) and 'won'. `known`:
 * whether Hint is given the deal's answer from the start, as the survey's data gives it.
 */
export function playGame(deal, { known = true } = {}) {
  const rand = random(deal);
  let game = E.newGame(deal);
  const opening = decide(game.positions[0], { maxNodes: MAX_NODES }).result;
  const claims = [];
  // Hint once a game, to keep 10,000 games within a minute or two of CPU: in even deals at a
  // random point of the game, in odd ones at its end; a covered card at one random point.
  const hintAt = deal % 2 === 0 ? rand(60) : -1;
  const coveredAt = rand(50);
  for (let n = 0; ; n++) {
    const pos = E.currentPosition(game);
    if (n === coveredAt) { // a covered card chosen: every one of the position's
      for (let k = 0; k < E.PYRAMID_CARDS; k++) {
        if (!pos.pyramid[k]) continue;
        const choice = coveredMessage(pos, k);
        if (choice) claims.push({ n, kind: 'covered', ...choice });
      }
    }
    if (pos.status === 'won') {
      claims.push({ n, kind: 'won', key: 'messages.won', values: { points: pos.points, moves: pos.moves } });
      break;
    }
    if ((pos.status === 'stuck' && hintAt < 0) || n === hintAt) {
      const answer = judge(deal, game.moves, { maxNodes: MAX_NODES, known: known ? opening : null });
      const claim = { n, kind: 'hint', result: answer.result, move: answer.move, deal: answer.deal, back: answer.back };
      if (answer.result === 'lost') Object.assign(claim, lostMessage(answer.deal, answer.back));
      else if (answer.result === 'won') Object.assign(claim, { key: 'hint.checked', values: { move: answer.move } });
      claims.push(claim);
    }
    if (pos.status === 'stuck') {
      claims.push({ n, kind: 'stuck', ...stuckMessage(known && opening !== 'undecided' ? opening : null) });
      break;
    }
    const moves = E.legalMoves(pos);
    const removals = moves.filter((m) => m.startsWith('pair') || m.startsWith('king'));
    const pick = removals.length && rand(4) !== 0 ? removals : moves;
    game = E.playMove(game, pick[rand(pick.length)]);
  }
  return { deal, moves: game.moves, opening, claims };
}

// `node message_games.mjs FIRST COUNT`: the games of deals FIRST … FIRST + COUNT - 1 as JSON
// lines (Hint told the deal's answer from the start in every other game).
if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop())) {
  const [first, count] = process.argv.slice(2).map(Number);
  for (let deal = first; deal < first + count; deal++) {
    process.stdout.write(`${JSON.stringify(playGame(deal, { known: deal % 4 < 2 }))}\n`);
  }
}
