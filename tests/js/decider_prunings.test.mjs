// app/decider.js's prunings, fast enough for `make mutation MODULE=app-decider` (seconds, where
// decider.test.mjs takes minutes): 540 small positions (tests/data/decider_positions.json, made
// by tests/data/make_decider_positions.py), each with whether it can be won under each variant
// as the independent decider's plain search and the independent solver both answer. Every
// pruning on its own and every one left out must give that answer, a win must replay to the
// end in the engine, and each pruning must save work, or it prunes nothing.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as E from '../../app/engine.js';
import { decide, decideDeal, VARIANTS } from '../../app/decider.js';

const DATA = JSON.parse(readFileSync(new URL('../data/decider_positions.json', import.meta.url), 'utf8'));
const PLAIN = { kingFirst: false, deadCards: false, sideKings: false, forcedPairs: false };
const PRUNINGS = Object.keys(PLAIN).flatMap((name) => [{ ...PLAIN, [name]: true }, { [name]: false }]);
// Card sets entered over every case, per pruning setting (filled by the tests of the variants).
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

for (const name of Object.keys(VARIANTS)) {
  test(`${name}: every pruning on and off gives the independent answer, and a win replays`, () => {
    const rules = VARIANTS[name];
    for (const [i, { position, result }] of DATA.cases.filter((c) => c.variant === name).entries()) {
      const replayed = new Set(); // most prunings find the same line: each is replayed once
      for (const prune of [{}, PLAIN, ...PRUNINGS]) {
        const d = decide(position, { rules, prune });
        assert.equal(d.result, result, `${name} #${i}, prune ${JSON.stringify(prune)}`);
        NODES.set(JSON.stringify(prune), (NODES.get(JSON.stringify(prune)) ?? 0) + d.nodes);
        if (result !== 'won') assert.equal(d.line, null);
        else if (!replayed.has(d.line.join())) {
          assert.ok(replaysToAWin(position, d.line, rules), `${name} #${i}: ${d.line.join(', ')}`);
          replayed.add(d.line.join());
        }
      }
    }
  });
}

test('each pruning on its own enters fewer card sets than the plain search, and all together fewest', () => {
  const nodes = (prune) => NODES.get(JSON.stringify(prune));
  assert.equal(NODES.size, 2 + PRUNINGS.length, 'every setting was run over every case above');
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
