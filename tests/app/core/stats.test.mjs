// Unit tests of app/core/stats.js in Node, with a fake localStorage: one record per game id, counted
// once; corrupt records dropped alone; folding beyond MAX_RESULTS keeps every count; export and
// import refuse what is not theirs.
import test from 'node:test';
import assert from 'node:assert/strict';
import * as T from '../../../app/core/stats.js';

class FakeStorage {
  constructor() { this.map = new Map(); }
  get length() { return this.map.size; }
  key(i) { return [...this.map.keys()][i] ?? null; }
  getItem(k) { return this.map.has(k) ? this.map.get(k) : null; }
  setItem(k, v) { this.map.set(k, String(v)); }
  removeItem(k) { this.map.delete(k); }
}

function fresh() {
  const local = new FakeStorage();
  globalThis.localStorage = local;
  return local;
}

test.afterEach(() => { delete globalThis.localStorage; });

const game = (id, result, extra = {}) => ({ id, deal: 27, result, moves: 51, points: 515, hints: 0, ms: 0, daily: null, ...extra });

test('a game is counted once, and a loss undone and won becomes the win', () => {
  fresh();
  T.recordResult(game('aaaaaaaaaaaa', 'lost'));
  T.recordResult(game('aaaaaaaaaaaa', 'won'));
  T.recordResult(game('aaaaaaaaaaaa', 'won'));
  assert.equal(T.recordResult(game('aaaaaaaaaaaa', 'lost')), null); // a won game stays won
  const { totals } = T.statistics();
  assert.deepEqual([totals.played, totals.won, totals.lost, totals.streak, totals.bestScore], [1, 1, 0, 1, 515]);
});

test('streaks, best score and fewest moves', () => {
  fresh();
  let now = 1000;
  const realNow = Date.now;
  Date.now = () => now++;
  try {
    T.recordResult(game('b0000000000a', 'won', { points: 400, moves: 60 }));
    T.recordResult(game('b0000000000b', 'won', { points: 515, moves: 51 }));
    T.recordResult(game('b0000000000c', 'given-up', { hints: 3 }));
    T.recordResult(game('b0000000000d', 'won', { points: 300, moves: 70 }));
  } finally {
    Date.now = realNow;
  }
  const { totals } = T.statistics();
  assert.deepEqual([totals.played, totals.won, totals.givenUp, totals.streak, totals.bestStreak, totals.bestScore, totals.fewestMoves, totals.hints],
    [4, 3, 1, 1, 2, 515, 51, 3]);
});

test('a record that does not read is dropped alone', () => {
  const local = fresh();
  T.recordResult(game('cccccccccccc', 'won'));
  local.setItem(`${T.RESULT_PREFIX}dddddddddddd`, '{broken');
  local.setItem(`${T.RESULT_PREFIX}eeeeeeeeeeee`, JSON.stringify({ ...game('eeeeeeeeeeee', 'won'), version: 1, rules: 'standard', at: 1, moves: -1 }));
  local.setItem(`${T.RESULT_PREFIX}ffffffffffff`, JSON.stringify({ ...game('gggggggggggg', 'won'), version: 1, rules: 'standard', at: 1 })); // not its key
  assert.equal(T.statistics().totals.played, 1);
  assert.deepEqual([...local.map.keys()], [`${T.RESULT_PREFIX}cccccccccccc`]);
});

test('beyond MAX_RESULTS the oldest are folded into the summary, every count kept', () => {
  const local = fresh();
  const realNow = Date.now;
  let now = 1;
  Date.now = () => now++;
  try {
    for (let i = 0; i < T.MAX_RESULTS + 30; i++) {
      T.recordResult(game(`g${String(i).padStart(11, '0')}`, i % 3 ? 'won' : 'lost', { moves: 40 + (i % 50) }));
    }
  } finally {
    Date.now = realNow;
  }
  const records = [...local.map.keys()].filter((k) => k.startsWith(T.RESULT_PREFIX));
  assert.equal(records.length, T.MAX_RESULTS);
  assert.ok(local.getItem(T.SUMMARY_KEY));
  const { totals } = T.statistics();
  const n = T.MAX_RESULTS + 30;
  const lost = Math.ceil(n / 3);
  assert.deepEqual([totals.played, totals.won, totals.lost, totals.fewestMoves], [n, n - lost, lost, 40]);
});

test('export, then import, gives the same statistics; a foreign file changes nothing', () => {
  fresh();
  T.recordResult(game('hhhhhhhhhhhh', 'won'));
  T.recordResult(game('iiiiiiiiiiii', 'given-up'));
  const text = T.exportStatistics();
  const before = T.statistics().totals;
  T.resetStatistics();
  assert.equal(T.statistics().totals.played, 0);
  T.importStatistics(text);
  assert.deepEqual(T.statistics().totals, before);
  for (const bad of ['{', '{"format": "other"}', JSON.stringify({ ...JSON.parse(text), results: [{ id: 'x' }] })]) {
    assert.throws(() => T.importStatistics(bad));
    assert.deepEqual(T.statistics().totals, before);
  }
});

test('the daily streak counts days won in a row, as of today', () => {
  let t = T.emptyTotals();
  for (const daily of ['2026-12-01', '2026-12-02', '2026-12-02', '2026-12-04']) {
    t = T.addResult(t, { result: 'won', hints: 0, points: 1, moves: 1, daily });
  }
  assert.deepEqual([t.dailyStreak, t.dailyBest], [1, 2]);
  assert.equal(T.dailyStreakOn(t, '2026-12-05'), 1);
  assert.equal(T.dailyStreakOn(t, '2026-12-06'), 0);
});
