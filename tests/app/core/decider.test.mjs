// The app's decider: against the exhaustive solver, each pruning against the plain search,
// winning lines that replay, the variants' options, and the speed the Hint needs.
import test from 'node:test';
import assert from 'node:assert/strict';
import * as E from '../../../app/core/engine.js';
import { solve } from './plain_solver.mjs';
import { decide, decideDeal, VARIANTS } from '../../../app/core/decider.js';
import { solve as exhaustive } from '../../../app/core/solver.js';

const PLAIN = { kingFirst: false, deadCards: false, sideKings: false, forcedPairs: false };
// Every pruning on its own, and every one left out.
const PRUNINGS = Object.keys(PLAIN).flatMap((name) => [{ ...PLAIN, [name]: true }, { [name]: false }]);

// Deal n with the top rows of the pyramid and the end of the stock left out: small enough for
// the exhaustive solver, and about half of them can be won.
function dealPosition(n, cut = 14, stock = 18) {
  const o = E.openingPosition(n);
  return { ...o, pyramid: o.pyramid.map((c, k) => (k < cut ? null : c)), stock: o.stock.slice(0, stock) };
}

// A position met in play: deal `seed` after random legal moves (mostly removals) until only
// `left` pyramid cards remain. About a third of them can still be won.
function playedPosition(seed, left = 8 + (seed % 9)) {
  let s = seed * 7919 + 17;
  const rand = (k) => { s = (Math.imul(s, 1103515245) + 12345) >>> 0; return (s >>> 8) % k; };
  let pos = E.openingPosition(seed);
  for (let step = 0; step < 300 && pos.pyramid.filter(Boolean).length > left; step++) {
    const moves = E.legalMoves(pos);
    if (moves.length === 0) break;
    const removals = moves.filter((m) => m.startsWith('pair') || m.startsWith('king'));
    const pick = removals.length && rand(4) !== 0 ? removals : moves;
    pos = E.applyMove(pos, pick[rand(pick.length)]);
  }
  return { ...pos, points: 0, moves: 0 };
}

function replayWins(start, line) {
  const end = line.reduce((pos, move) => E.applyMove(pos, move), start);
  return end.status === 'won';
}

test('200 deals (reduced): the decider and the exhaustive solver agree on winnability', () => {
  let won = 0;
  for (let n = 1; n <= 200; n++) {
    const start = dealPosition(n);
    const exhaustive = solve(start, { kingFirst: false });
    const d = decide(start);
    assert.equal(d.result, exhaustive.winnable ? 'won' : 'lost', `deal ${n}`);
    if (d.result === 'won') {
      won++;
      assert.ok(replayWins(start, d.line), `deal ${n}: the winning line replays`);
    }
  }
  assert.ok(won > 50 && won < 150, `a mix of won and lost (${won} won)`);
});

test('each pruning against the plain search and the solver (400 positions met in play)', () => {
  let won = 0;
  for (let seed = 1; seed <= 400; seed++) {
    const start = playedPosition(seed);
    const truth = solve(start, { kingFirst: false }).winnable ? 'won' : 'lost';
    for (const prune of [{}, PLAIN, ...PRUNINGS]) {
      const d = decide(start, { prune });
      assert.equal(d.result, truth, `seed ${seed}, prune ${JSON.stringify(prune)}`);
      if (d.result === 'won') assert.ok(replayWins(start, d.line), `seed ${seed}: line replays`);
    }
    if (truth === 'won') won++;
  }
  assert.ok(won > 60 && won < 340, `a mix of won and lost (${won} won)`);
});

test('every variant: each pruning keeps the answer of the plain search', () => {
  for (const [name, rules] of Object.entries(VARIANTS)) {
    for (let seed = 1; seed <= 150; seed++) {
      const start = playedPosition(seed);
      if (rules.turns !== undefined) start.turns_left = rules.turns;
      const plain = decide(start, { rules, prune: PLAIN }).result;
      for (const prune of [{}, ...PRUNINGS]) {
        assert.equal(decide(start, { rules, prune }).result, plain, `${name}, seed ${seed}, ${JSON.stringify(prune)}`);
      }
    }
  }
});

test('each pruning on its own enters fewer card sets than the plain search', () => {
  const nodes = (prune) => {
    let sum = 0;
    for (let n = 1; n <= 40; n++) sum += decide(dealPosition(n), { prune }).nodes;
    return sum;
  };
  const plain = nodes(PLAIN);
  for (const name of Object.keys(PLAIN)) {
    const alone = nodes({ ...PLAIN, [name]: true });
    assert.ok(alone < plain, `${name}: ${alone} < ${plain}`);
  }
  assert.ok(nodes({}) < plain);
});

test('full deals: winning lines replay in the engine and end the game', () => {
  for (let n = 1; n <= 60; n++) {
    const r = decideDeal(n);
    assert.ok(['won', 'lost'].includes(r.result));
    if (r.result === 'won') {
      const game = E.replay(n, r.line);
      assert.equal(E.currentPosition(game).status, 'won', `deal ${n}`);
    } else {
      assert.equal(r.line, null);
    }
  }
});

test('whole deals 1-10: the decider says what the exhaustive solver finds, won and lost both met', () => {
  // The answers are the solver's, worked out here (about 5 s), not copied from an earlier run.
  const seen = new Set();
  for (let n = 1; n <= 10; n++) {
    const expected = exhaustive(E.openingPosition(n)).winnable ? 'won' : 'lost';
    assert.equal(decideDeal(n).result, expected, `deal ${n}`);
    seen.add(expected);
  }
  assert.deepEqual([...seen].sort(), ['lost', 'won']);
});

test('a won position, a hopeless one, and a node limit', () => {
  const empty = { pyramid: Array(28).fill(null), stock: ['2C'], waste: [], turns_left: 2, points: 0, moves: 0 };
  assert.deepEqual(decide(empty), { result: 'won', line: [], nodes: 0 });
  const hopeless = { ...empty, stock: [], waste: ['4D'] };
  hopeless.pyramid = Array(28).fill(null);
  hopeless.pyramid[21] = '2S'; hopeless.pyramid[22] = '3S';
  assert.equal(decide(hopeless).result, 'lost');
  const r = decideDeal(9, { maxNodes: 100 });
  assert.deepEqual([r.result, r.line, r.nodes], ['undecided', null, 100]);
});

test('a card whose only partners cover it is seen at once (dead card)', () => {
  // 6H at the apex of a small pyramid, the only 7 covers it: lost without searching.
  const pyramid = Array(28).fill(null);
  pyramid[15] = '6H'; pyramid[21] = '7S'; pyramid[22] = 'KD';
  const start = { pyramid, stock: ['AC', '2C'], waste: [], turns_left: 2, points: 0, moves: 0 };
  const r = decide(start);
  assert.deepEqual([r.result, r.nodes], ['lost', 0]);
  assert.equal(decide(start, { prune: PLAIN }).result, 'lost');
});

test('variants: strict needs the side cleared, one pass, the stock top, the covering pair', () => {
  const pyramid = Array(28).fill(null);
  pyramid[21] = '6H'; pyramid[22] = '7S';
  const base = { pyramid, stock: ['5C'], waste: [], turns_left: 2, points: 0, moves: 0 };
  assert.equal(decide(base).result, 'won');
  assert.equal(decide(base, { rules: VARIANTS.strict }).result, 'lost'); // the 5C can never go
  const kingsLeft = { ...base, stock: ['KC', 'KH'], waste: ['KS'] };
  const strict = decide(kingsLeft, { rules: VARIANTS.strict });
  assert.deepEqual(strict.line, ['pair 7S 6H', 'king KS', 'draw', 'king KC', 'draw', 'king KH']);
  // The 8 needed for the 5 was drawn past with no turn left: lost on one pass, won with turns.
  const drawnPast = { pyramid: Array(28).fill(null), stock: [], waste: ['8D', 'AC'], turns_left: 0, points: 0, moves: 0 };
  drawnPast.pyramid[27] = '5S';
  assert.equal(decide(drawnPast).result, 'lost');
  assert.equal(decide(drawnPast, { rules: VARIANTS.unlimited }).result, 'won');
  assert.equal(decide({ ...drawnPast, turns_left: 1 }).result, 'won');
  // Stock top playable: the 8 under the stock's first card pairs at once.
  const underTop = { ...drawnPast, waste: [], stock: ['8D', 'AC'] };
  assert.deepEqual(decide(underTop, { rules: VARIANTS['stock-top'] }).line, ['pair 8D 5S']);
  assert.deepEqual(decide(underTop).line, ['draw', 'pair 8D 5S']);
  // Covering pair: 4H covered by 9C only (its other cover gone).
  const covering = { pyramid: Array(28).fill(null), stock: [], waste: [], turns_left: 0, points: 0, moves: 0 };
  covering.pyramid[15] = '4H'; covering.pyramid[21] = '9C';
  assert.equal(decide(covering).result, 'lost');
  assert.deepEqual(decide(covering, { rules: VARIANTS['cover-pair'] }).line, ['pair 9C 4H']);
  assert.throws(() => decide(base, { rules: { strictWin: true, stockTop: true } }));
});

test('the Hint: a typical opening is answered in well under 0.2 s (median)', () => {
  const ms = [];
  for (let n = 1; n <= 41; n++) {
    const t = performance.now();
    decideDeal(n);
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  assert.ok(ms[20] < 200, `median ${ms[20].toFixed(1)} ms`);
});
