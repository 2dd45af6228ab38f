// Mid-game positions of deals: per deal, the app's solver solves the opening, then the first
// third of its own shortest game (K = floor(moves / 3)) is played from the opening; one JSON
// line per deal with the position reached and the opening's answer.
//   node bench/mid_game_positions.mjs DEAL …
import { applyMove, openingPosition } from '../app/core/engine.js';
import { solve } from '../app/core/solver.js';

for (const deal of process.argv.slice(2).map(Number)) {
  const started = process.hrtime.bigint();
  const opening = solve(openingPosition(deal));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const played = Math.floor(opening.shortest / 3);
  let position = openingPosition(deal);
  for (const move of opening.game.slice(0, played)) position = applyMove(position, move);
  console.log(JSON.stringify({
    deal, opening: { max_removed: opening.max_removed, shortest: opening.shortest, seconds },
    played: opening.game.slice(0, played), position,
  }));
}
