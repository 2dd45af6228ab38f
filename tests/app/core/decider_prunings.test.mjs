// app/core/decider.js's prunings, fast enough for `make mutation MODULE=app-decider` (seconds, where
// decider.test.mjs takes minutes): 540 small positions (tests/data/decider_positions.json, made
// by tests/data/make_decider_positions.py), each with whether it can be won under each variant
// as the independent decider's plain search and the independent solver both answer. Every
// pruning on its own and every one left out must give that answer, a win must replay to the
// end in the engine, and each pruning must save work, about as much as in the independent decider.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as E from '../../../app/core/engine.js';
import { decide, decideDeal, VARIANTS } from '../../../app/core/decider.js';

const DATA = JSON.parse(readFileSync(new URL('../../data/decider_positions.json', import.meta.url), 'utf8'));
const PLAIN = { kingFirst: false, deadCards: false, sideKings: false, forcedPairs: false };
const PRUNINGS = Object.keys(PLAIN).flatMap((name) => [{ ...PLAIN, [name]: true }, { [name]: false }]);
// Card sets entered over every case, per pruning setting (filled by the test of the answers).
const NODES = new Map();

function replaysToAWin(start, line, rules) {
  const end = line.reduce((pos, move) => E.applyMove(pos, move, rules), start);
  return end.status === 'won';
}

test('the data holds won and lost positions under every variant', () => {
  for (const name of Object.keys(VARIANTS)) {
    const results = DATA.cases.filter((c) => c.variant === name).map((c) => c.result);
    assert.ok(results.filter((r) => r === "won").length >= 10 && results.filter((r) => r === "lost").length >= 10, name);
  }
});

// One test over every case, in the data's order (each position under each variant in turn), so
// that a wrong answer ends the file at once: a mutant costs seconds only when it survives.
test('every variant: every pruning on and off gives the independent answer, and a win replays', () => {
  for (const [i, { variant, position, result }] of DATA.cases.entries()) {
    const rules = VARIANTS[variant];
    const replayed = new Set(); // most prunings find the same line: each is replayed once
    for (const prune of [{}, PLAIN, ...PRUNINGS]) {
      const d = decide(position, { rules, prune });
      assert.equal(d.result, result, `case ${i} (${variant}), prune ${JSON.stringify(prune)}`);
      NODES.set(JSON.stringify(prune), (NODES.get(JSON.stringify(prune)) ?? 0) + d.nodes);
      if (result !== 'won') assert.equal(d.line, null);
      else if (!replayed.has(d.line.join())) {
        assert.ok(replaysToAWin(position, d.line, rules), `case ${i} (${variant}): ${d.line.join(', ')}`);
        replayed.add(d.line.join());
      }
    }
  }
});

// The independent decider prunes the same way, so each setting enters about as many card sets
// there (tests/data: its count over all the cases). Not exactly: the two order a card set's
// children a little differently, so a won search may stop a few card sets sooner or later (under
// 0.5 % apart when the data was made); a pruning weakened or lost shows as several per cent.
const CLOSE = 0.01;

test('each setting enters as many card sets as the independent decider does, within 1 %', () => {
  assert.equal(NODES.size, 2 + PRUNINGS.length, 'every setting was run over every case above');
  assert.deepEqual([...NODES.keys()].sort(), Object.keys(DATA.nodes).sort());
  for (const [setting, theirs] of Object.entries(DATA.nodes)) {
    const mine = NODES.get(setting);
    assert.ok(Math.abs(mine - theirs) <= CLOSE * theirs, `${setting}: ${mine} card sets, the independent decider ${theirs}`);
  }
});

test('each pruning on its own enters fewer card sets than the plain search, and all together fewest', () => {
  const nodes = (prune) => NODES.get(JSON.stringify(prune));
  const plain = nodes(PLAIN);
  const all = nodes({});
  for (const name of Object.keys(PLAIN)) {
    const alone = nodes({ ...PLAIN, [name]: true });
    assert.ok(alone < plain, `${name} alone: ${alone} < ${plain}`);
    const without = nodes({ [name]: false });
    assert.ok(all < without, `all ${all} < all but ${name} ${without}`);
  }
});

test('a node limit stops the search undecided, at exactly that many card sets', () => {
  const { position } = DATA.cases.find((c) => c.variant === 'standard' && c.result === 'lost'
    && decide(c.position, { prune: PLAIN }).nodes > 5);
  assert.deepEqual(decide(position, { prune: PLAIN, maxNodes: 3 }), { result: 'undecided', line: null, nodes: 3 });
  const r = decideDeal(9, { maxNodes: 100 });
  assert.deepEqual([r.result, r.line, r.nodes], ['undecided', null, 100]);
});

test('deadCards: two cards whose only partner is one and the same card are seen at once (Hall)', () => {
  // 6H and 6D at the top need a 7: 7S and 7H cover both, so only the stock's 7D can pair with
  // either; the 6C beside them could take any 7, so there are as many 7s as 6s, and only the
  // two together show the loss. The independent decider and solver say lost too (the decider
  // at once, its plain search after 13 card sets).
  const pyramid = Array(28).fill(null);
  Object.assign(pyramid, { 0: 'KS', 1: '6H', 2: '6D', 3: 'KH', 4: '7S', 5: '6C', 7: '7H' });
  const start = { pyramid, stock: ['7D', '6S'], waste: [], turns_left: 2, points: 0, moves: 0 };
  assert.deepEqual(decide(start), { result: 'lost', line: null, nodes: 0 });
  assert.equal(decide(start, { prune: PLAIN }).result, 'lost');
});
