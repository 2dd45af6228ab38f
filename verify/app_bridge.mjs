// The checker's door into the app's own code: one long-lived Node process that reads one JSON
// request per line on stdin and answers one JSON line per request on stdout. It only imports
// the app's modules; it adds no rules of its own.
//   request:  {"id": 1, "op": "apply", "args": {...}}
//   answer:   {"id": 1, "ok": true, "result": ...}
//          or {"id": 1, "ok": false, "error": {"rule": "free.covered", "message": "...", "move_number": 3}}
//   progress: {"id": 1, "progress": {"depth": 12, "positions": 34567}}   (solve only: depth is the bound reached)
import { createInterface } from 'node:readline';
import * as engine from '../app/core/engine.js';
import { solve } from '../app/core/solver.js';

const ops = {
  constants: () => ({
    rows: engine.ROWS, pyramid_cards: engine.PYRAMID_CARDS, deck_size: engine.DECK_SIZE, waste_cards: engine.WASTE_AT_START,
    target_sum: engine.TARGET_SUM, king_value: engine.KING_VALUE, turns_allowed: engine.TURNS_ALLOWED,
    passes: engine.PASSES, points: { ...engine.POINTS }, min_deal: engine.MIN_DEAL, max_deal: engine.MAX_DEAL,
    ranks: engine.RANKS, suits: engine.SUITS,
  }),
  deal: ({ n }) => engine.dealLayout(n),
  opening: ({ n }) => engine.openingPosition(n),
  legal: ({ position, rules = {} }) => engine.legalMoves(position, rules),
  apply: ({ position, move, rules = {} }) => engine.applyMove(position, move, rules),
  // Moves one by one from any position under the rules options; the error names the move.
  replay_from: ({ position, moves, rules = {} }) => moves.reduce((pos, m, i) => {
    try {
      return engine.applyMove(pos, m, rules);
    } catch (e) {
      e.moveNumber = i + 1;
      throw e;
    }
  }, position),
  status: ({ position }) => engine.gameStatus(position),
  card_value: ({ code }) => engine.cardValue(engine.parseCard(code)),
  // Replays moves ('undo' takes one back) from a deal; with trace, every position and its legal moves.
  replay: ({ deal, moves, trace = false }) => {
    let game = engine.newGame(deal);
    const steps = [];
    moves.forEach((m, i) => {
      try {
        game = m === 'undo' ? engine.undoMove(game) : engine.playMove(game, m);
      } catch (e) {
        e.moveNumber = i + 1;
        throw e;
      }
      if (trace) {
        const position = engine.currentPosition(game);
        steps.push({ position, legal: engine.legalMoves(position) });
      }
    });
    return { position: engine.currentPosition(game), moves: game.moves, steps };
  },
  solve: ({ position, rules = {}, maxPositions = null }, progress) => {
    const started = process.hrtime.bigint();
    const result = solve(position, {
      rules, maxPositions: maxPositions ?? Infinity,
      onProgress: (depth, positions) => progress({ depth, positions }),
    });
    result.seconds = Number(process.hrtime.bigint() - started) / 1e9;
    return result;
  },
};

const out = (obj) => process.stdout.write(JSON.stringify(obj) + '\n');
const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on('line', (line) => {
  let id = null;
  try {
    const request = JSON.parse(line);
    id = request.id;
    const op = ops[request.op];
    if (!op) throw new Error(`unknown op '${request.op}'`);
    out({ id, ok: true, result: op(request.args || {}, (p) => out({ id, progress: p })) });
  } catch (e) {
    out({ id, ok: false, error: { rule: e.rule ?? null, message: e.message, move_number: e.moveNumber ?? null } });
  }
});
