// Mid-game positions of deals: per deal, the app's solver solves the opening, then for each
// N in PARTS the first 1/N of its own shortest game (floor(moves / N) moves) is played from the
// opening; one JSON line per deal and N with the position reached and the opening's answer.
//   node bench/mid_game_positions.mjs PARTS DEAL …     (PARTS: say 4,3,2 for a quarter, a third, half)
import { applyMove, openingPosition } from '../app/core/engine.js';
import { solve } from '../app/core/solver.js';

const [parts, ...deals] = process.argv.slice(2);
for (const deal of deals.map(Number)) {
  const started = process.hrtime.bigint();
  const opening = solve(openingPosition(deal));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  for (const part of parts.split(',').map(Number)) {
    const played = Math.floor(opening.shortest / part);
    let position = openingPosition(deal);
    for (const move of opening.game.slice(0, played)) position = applyMove(position, move);
    console.log(JSON.stringify({
      deal, part, opening: { max_removed: opening.max_removed, shortest: opening.shortest, seconds },
      played: opening.game.slice(0, played), position,
    }));
  }
}
