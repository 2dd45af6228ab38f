// The storage readers of the app, driven by tests/app/test_storage_properties.py: one Node process
// for a whole test module, one JSON line per example. Not a test file itself (no node:test).
//
// Request: {local: [[key, text], ...], session: [[key, text], ...], now: number | null,
//           calls: [{fn: "storage.loadGame", args: [...]}, ...]}
// Each request starts from fresh fake Web Storages holding exactly `local` and `session` (in that
// order of keys), with Date.now() answering `now` when given; the calls run in order on them.
// Reply: {results: [{value} | {undefined: true} | {threw: {error, name, message}}], local, session}
// (the storages as the calls left them).
import { createInterface } from 'node:readline';
import * as storage from '../../../app/core/storage.js';
import * as stats from '../../../app/core/stats.js';
import * as options from '../../../app/ui/options.js';
import { opening } from '../../../app/ui/opening.js';
import { legalMoves, applyMove, newGame, VARIANTS } from '../../../app/core/engine.js';
import { rulesOf } from '../../../app/ui/variants.js';
import { FakeStorage } from '../fake_storage.mjs';


/** The moves a player makes by picking, at each turn, legal move number `choice % count`
 *  (the engine's own legal moves, so a test can start from a game that replays). */
function play(deal, variant, choices) {
  const rules = rulesOf(variant);
  let position = newGame(deal, rules).positions[0];
  const moves = [];
  for (const choice of choices) {
    const legal = legalMoves(position, rules);
    if (!legal.length) break;
    moves.push(legal[choice % legal.length]);
    position = applyMove(position, moves[moves.length - 1], rules);
  }
  return moves;
}

const variantOfRules = (rules) => Object.keys(VARIANTS).find((id) => VARIANTS[id] === rules) ?? 'standard';

/** opening.restore (the page's reading of a saved game) with the game it gives condensed: its
 *  deal, moves, variant, undo, meta, and whether it follows the rules: it starts from the deal's
 *  opening and each position is the engine's applyMove of the one before (asked of the engine,
 *  not of the code that restored it). */
function restore(deal, variant) {
  const got = opening.restore.call({ variant }, deal, variant);
  if (got === null) return null;
  const { game } = got;
  const rules = game.rules;
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  let legal = game.positions.length === game.moves.length + 1 && same(game.positions[0], newGame(deal, rules).positions[0]);
  for (let i = 0; legal && i < game.moves.length; i++) {
    try {
      legal = same(applyMove(game.positions[i], game.moves[i], rules), game.positions[i + 1]);
    } catch {
      legal = false;
    }
  }
  return { deal: game.deal, moves: game.moves, variant: variantOfRules(rules), legal, undo: got.undo, meta: got.meta };
}

const FUNCTIONS = {
  storage, stats, options,
  probe: { restore, play },
};

function call({ fn, args = [] }) {
  const [module, name] = fn.split('.');
  const f = FUNCTIONS[module]?.[name];
  if (typeof f !== 'function') throw new Error(`storage_probe: no function ${fn}`);
  try {
    const value = f(...args);
    return value === undefined ? { undefined: true } : { value };
  } catch (e) {
    return { threw: { error: e instanceof Error, name: e?.name ?? null, message: String(e?.message ?? e) } };
  }
}

const realNow = Date.now;
const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (!line.trim()) continue;
  const request = JSON.parse(line);
  const local = new FakeStorage(request.local ?? []);
  const session = new FakeStorage(request.session ?? []);
  globalThis.localStorage = local;
  globalThis.sessionStorage = session;
  Date.now = typeof request.now === 'number' ? () => request.now : realNow;
  let reply;
  try {
    const results = request.calls.map(call);
    reply = { results, local: [...local.map.entries()], session: [...session.map.entries()] };
  } finally {
    Date.now = realNow;
  }
  process.stdout.write(`${JSON.stringify(reply)}\n`);
}
