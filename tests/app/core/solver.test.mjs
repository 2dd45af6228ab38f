// The app's solver (app/core/solver.js) against the plain breadth-first search (plain_solver.mjs) on
// small and mid-game positions under every variant, games that replay, progress and stopping.
import test from 'node:test';
import assert from 'node:assert/strict';
import * as E from '../../../app/core/engine.js';
import { solve } from '../../../app/core/solver.js';
import { solve as plainSolve } from './plain_solver.mjs';

// A small random position: a few pyramid cards from a deal, a short side, random turns.
function smallPosition(seed) {
  let s = seed;
  const rand = (k) => { s = (Math.imul(s, 1103515245) + 12345) >>> 0; return s % k; };
  const d = E.dealLayout(seed);
  const pyramid = d.pyramid.map((c, k) => (k >= 10 && rand(3) === 0 ? c : null));
  pyramid[27] = d.pyramid[27];
  const side = [...d.waste, ...d.stock].slice(0, 2 + rand(7));
  const w = rand(Math.min(3, side.length + 1));
  return { pyramid, waste: side.slice(0, w), stock: side.slice(w), turns_left: rand(3), points: 0, moves: 0 };
}

// A position met in play: deal `seed` after random legal moves under the rules (mostly
// removals) until only `left` pyramid cards remain.
export function playedPosition(seed, rules = {}, left = 9 + (seed % 6)) {
  let s = seed * 7919 + 17;
  const rand = (k) => { s = (Math.imul(s, 1103515245) + 12345) >>> 0; return (s >>> 8) % k; };
  let pos = E.openingPosition(seed);
  if (rules.turns !== undefined) pos.turns_left = rules.turns;
  for (let step = 0; step < 300 && pos.pyramid.filter(Boolean).length > left; step++) {
    const moves = E.legalMoves(pos, rules);
    if (moves.length === 0) break;
    const removals = moves.filter((m) => m.startsWith('pair') || m.startsWith('king'));
    const pick = removals.length && rand(4) !== 0 ? removals : moves;
    pos = E.applyMove(pos, pick[rand(pick.length)], rules);
  }
  return { ...pos, points: 0, moves: 0 };
}

const left = (p) => p.pyramid.filter(Boolean).length;

function checkGame(start, r, rules, label) {
  const end = r.game.reduce((pos, move) => E.applyMove(pos, move, rules), start);
  assert.equal(left(start) - left(end), r.max_removed, `${label}: the game removes what it claims`);
  assert.equal(r.game.length, r.shortest, label);
  const won = rules.strictWin ? left(end) === 0 && end.stock.length === 0 && end.waste.length === 0 : left(end) === 0;
  assert.equal(won, r.winnable, `${label}: the game wins exactly when a win exists`);
}

function agree(start, rules, label) {
  const fast = solve(start, { rules });
  const plain = plainSolve(start, { rules, kingFirst: false });
  assert.ok(fast.complete && plain.complete, label);
  assert.deepEqual([fast.max_removed, fast.shortest, fast.winnable], [plain.max_removed, plain.shortest, plain.winnable], label);
  checkGame(start, fast, rules, label);
  return fast;
}

test('the plain search on 300 small positions: the same count and fewest moves', () => {
  for (let seed = 1; seed <= 300; seed++) agree(smallPosition(seed), {}, `seed ${seed}`);
});

test('every variant, from positions met in play: the same answer as the plain search', () => {
  let won = 0, all = 0;
  for (const [name, rules] of Object.entries(E.VARIANTS)) {
    for (let seed = 1; seed <= 40; seed++, all++) {
      if (agree(playedPosition(seed, rules), rules, `${name}, seed ${seed}`).winnable) won++;
    }
  }
  assert.ok(won > 10 && won < all - 10, `a mix of won and lost (${won} of ${all} won)`);
});

test('every variant, small positions: the same answer as the plain search', () => {
  let won = 0, all = 0;
  for (const [name, rules] of Object.entries(E.VARIANTS)) {
    for (let seed = 301; seed <= 400; seed++, all++) if (agree(smallPosition(seed), rules, `${name}, seed ${seed}`).winnable) won++;
  }
  assert.ok(won > 10 && won < all - 10, `a mix of won and lost (${won} of ${all} won)`);
});

test('a won position needs nothing; a hopeless one removes nothing', () => {
  const won = { pyramid: Array(28).fill(null), stock: ['2C'], waste: [], turns_left: 2, points: 0, moves: 0 };
  assert.deepEqual([solve(won).max_removed, solve(won).shortest, solve(won).winnable], [0, 0, true]);
  const strict = solve(won, { rules: E.VARIANTS.strict });
  assert.deepEqual([strict.max_removed, strict.shortest, strict.winnable], [0, 0, false], 'strict: the 2 can never go');
  const hopeless = { pyramid: Array(28).fill(null), stock: [], waste: ['4D'], turns_left: 0, points: 0, moves: 0 };
  hopeless.pyramid[21] = '2S'; hopeless.pyramid[22] = '3S';
  const r = solve(hopeless);
  assert.deepEqual([r.max_removed, r.shortest, r.winnable], [0, 0, false]);
});

test('deal 7 opening: the same answer as the plain search, and its game replays', () => {
  const start = E.openingPosition(7);
  const r = agree(start, {}, 'deal 7');
  assert.ok(r.complete);
});

test('progress is reported and "stop" cancels the search; a position limit stops it too', () => {
  const calls = [];
  const r = solve(E.openingPosition(6), { progressEvery: 1000, onProgress: (bound, positions) => { calls.push([bound, positions]); return calls.length === 3 ? 'stop' : undefined; } });
  assert.equal(calls.length, 3);
  assert.ok(calls.every(([bound, positions]) => bound > 0 && positions > 0));
  assert.equal(r.complete, false);
  assert.equal(r.game, null);
  assert.equal(solve(E.openingPosition(6), { maxPositions: 10000 }).complete, false);
});

test('unknown rules options are refused', () => {
  assert.throws(() => solve(E.openingPosition(1), { rules: { strictWin: true, stockTop: true } }), /strictWin/);
  assert.throws(() => solve(E.openingPosition(1), { rules: { relaxed: true } }), /unknown rules options: relaxed/);
});

test('the Web Worker: solve with progress, a time limit, and the hint as before', async () => {
  const sent = [];
  globalThis.self = { postMessage: (m) => sent.push(m) };
  await import('../../../app/core/worker.js');
  const start = playedPosition(12);
  self.onmessage({ data: { id: 1, op: 'solve', position: start, rules: {} } });
  const answer = sent.at(-1);
  const plain = plainSolve(start, { kingFirst: false });
  assert.equal(answer.id, 1);
  assert.deepEqual([answer.solution.max_removed, answer.solution.shortest, answer.solution.complete], [plain.max_removed, plain.shortest, true]);
  checkGame(start, { ...answer.solution }, {}, 'worker');
  sent.length = 0;
  self.onmessage({ data: { id: 2, op: 'solve', position: E.openingPosition(6), maxMillis: 0 } });
  assert.ok(sent.some((m) => m.id === 2 && m.progress && m.progress.positions > 0), 'progress is posted');
  assert.equal(sent.at(-1).solution.complete, false, 'past maxMillis the search stops');
  self.onmessage({ data: { id: 3, op: 'solve', position: start, rules: { relaxed: true } } });
  assert.match(sent.at(-1).error, /unknown rules options/);
  // Hint's request (judge.js): the deal and the moves played, answered with what it found out.
  self.onmessage({ data: { id: 4, deal: 7, moves: [], known: null } });
  assert.deepEqual(Object.keys(sent.at(-1)).sort(), ['back', 'deal', 'id', 'move', 'result']);
  assert.equal(sent.at(-1).id, 4);
  assert.ok(['won', 'lost', 'undecided'].includes(sent.at(-1).result));
});
