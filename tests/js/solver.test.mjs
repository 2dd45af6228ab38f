// The app's solver: the free-king pruning against the plain search, and games that replay.
import test from 'node:test';
import assert from 'node:assert/strict';
import * as E from '../../app/engine.js';
import { solve } from '../../app/solver.js';

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

function replayGame(start, game) {
  return game.reduce((pos, move) => E.applyMove(pos, move), start);
}

test('free-king pruning keeps both numbers of the plain search (300 small positions)', () => {
  for (let seed = 1; seed <= 300; seed++) {
    const start = smallPosition(seed);
    const pruned = solve(start);
    const plain = solve(start, { kingFirst: false });
    assert.equal(pruned.max_removed, plain.max_removed, `seed ${seed}`);
    assert.equal(pruned.shortest, plain.shortest, `seed ${seed}`);
    assert.ok(pruned.positions <= plain.positions);
  }
});

test('the game found replays legally and reaches the answer', () => {
  for (let seed = 1; seed <= 100; seed++) {
    const start = smallPosition(seed);
    const r = solve(start);
    const end = replayGame(start, r.game);
    const left = (p) => p.pyramid.filter(Boolean).length;
    assert.equal(left(start) - left(end), r.max_removed);
    assert.equal(r.game.length, r.shortest);
    assert.equal(r.winnable, left(end) === 0);
  }
});

test('a won position needs nothing; a hopeless one removes nothing', () => {
  const won = { pyramid: Array(28).fill(null), stock: ['2C'], waste: [], turns_left: 2, points: 0, moves: 0 };
  assert.deepEqual([solve(won).max_removed, solve(won).shortest, solve(won).winnable], [0, 0, true]);
  const hopeless = { pyramid: Array(28).fill(null), stock: [], waste: ['4D'], turns_left: 0, points: 0, moves: 0 };
  hopeless.pyramid[21] = '2S'; hopeless.pyramid[22] = '3S';
  const r = solve(hopeless);
  assert.deepEqual([r.max_removed, r.shortest, r.winnable], [0, 0, false]);
});

test('deal 7 opening: solved and its game replays to the count', () => {
  const start = E.openingPosition(7);
  const r = solve(start);
  const end = replayGame(start, r.game);
  assert.equal(28 - end.pyramid.filter(Boolean).length, r.max_removed);
  assert.ok(r.complete);
});

test('a position limit stops the search and says it is incomplete', () => {
  const r = solve(E.openingPosition(6), { maxPositions: 10000 });
  assert.equal(r.complete, false);
});
