// app/core/decider.js at the edges of a search, in milliseconds (make mutation MODULE=app-decider runs
// this file with decider_prunings.test.mjs): a position won before any move, one lost before any
// move, a win whose move is the very first child the search lists, and searches whose children
// outgrow the buffer they start with.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { decide, VARIANTS } from '../../../app/core/decider.js';

const DATA = JSON.parse(readFileSync(new URL('../../data/decider_positions.json', import.meta.url), 'utf8'));
const PLAIN = { kingFirst: false, deadCards: false, sideKings: false, forcedPairs: false };

function position(pyramid, stock = [], waste = []) {
  const cards = Array(28).fill(null);
  Object.assign(cards, pyramid);
  return { pyramid: cards, stock, waste, turns_left: 2, points: 0, moves: 0 };
}

test('a position already won is won with no move and no card set entered', () => {
  // The standard game is won once the pyramid is gone, cards beside it or not.
  assert.deepEqual(decide(position({}, ['2C'])), { result: 'won', line: [], nodes: 0 });
  assert.deepEqual(decide(position({}), { rules: VARIANTS.strict }), { result: 'won', line: [], nodes: 0 });
});

test('the strict game with the pyramid gone and a card that can never go is lost at once', () => {
  // QH needs a king, and no card is left to pair it with.
  for (const prune of [{}, PLAIN]) {
    assert.deepEqual(decide(position({}, ['QH']), { rules: VARIANTS.strict, prune }),
      { result: 'lost', line: null, nodes: 0 }, JSON.stringify(prune));
  }
});

test('a win whose move is the first child listed is found, whatever comes after it', () => {
  // KS alone at the apex: its removal is the search's first child, at the buffer's very start.
  for (const prune of [{}, PLAIN]) {
    assert.deepEqual(decide(position({ 0: 'KS' }), { prune }), { result: 'won', line: ['king KS'], nodes: 1 },
      JSON.stringify(prune));
    assert.deepEqual(decide(position({ 0: 'KS' }, ['5D'], ['KH']), { prune }).result, 'won', JSON.stringify(prune));
  }
});

test('a search whose children outgrow the buffer it starts with answers as with room to spare', () => {
  // No search here lists 1024 children at once, so the buffer starts with room for one: it
  // grows on the second child, and again and again on the longer searches.
  let grown = 0;
  for (const [i, { variant, position: start, result }] of DATA.cases.entries()) {
    if (i % 9) continue; // 60 of the 540 cases, every variant among them
    for (const prune of [{}, PLAIN]) {
      const roomy = decide(start, { rules: VARIANTS[variant], prune });
      const tight = decide(start, { rules: VARIANTS[variant], prune, firstChildren: 1 });
      assert.equal(roomy.result, result, `case ${i} (${variant})`);
      assert.deepEqual(tight, roomy, `case ${i} (${variant}), prune ${JSON.stringify(prune)}`);
      grown += roomy.nodes > 1;
    }
  }
  assert.ok(grown >= 30, `${grown} of the searches entered more than one card set`);
});
