// Unit tests of app/core/stats.js in Node, with a fake localStorage: one record per game id, counted
// once; corrupt records dropped alone; folding beyond MAX_RESULTS keeps every count; export and
// import refuse what is not theirs.
import test from 'node:test';
import assert from 'node:assert/strict';
import * as T from '../../../app/core/stats.js';
import { FakeStorage } from '../fake_storage.mjs';


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

// ---------------------------------------------------------------- issue 43: honest records
const utcDate = (at) => new Date(at).toISOString().slice(0, 10);
const noon = (date) => Date.parse(`${date}T12:00:00Z`);
const shift = (date, days) => utcDate(noon(date) + days * 86400000);

test('each rule set has its own figures: a variant\'s games are not the standard\'s', () => {
  fresh();
  T.recordResult(game('r0000000000a', 'won', { rules: 'strict', points: 600 }));
  T.recordResult(game('r0000000000b', 'lost', { rules: 'strict' }));
  T.recordResult(game('r0000000000c', 'won', { points: 300 }));
  const strict = T.statistics('strict');
  const standard = T.statistics('standard');
  assert.deepEqual([strict.totals.played, strict.totals.won, strict.totals.bestScore], [2, 1, 600]);
  assert.deepEqual([standard.totals.played, standard.totals.won, standard.totals.bestScore], [1, 1, 300]);
  assert.deepEqual(strict.records.map((r) => r.id).sort(), ['r0000000000a', 'r0000000000b']);
  assert.equal(T.statistics('one-pass').totals.played, 0);
});

test('games over time: by day while every game is of the last CHART_DAYS days, each day counted', () => {
  const today = '2026-12-07';
  const records = [
    { at: noon(today), result: 'won', points: 500 }, { at: noon(today) + 1, result: 'won', points: 620 },
    { at: noon(today) + 2, result: 'lost', points: 90 }, { at: noon(shift(today, -3)), result: 'given-up', points: 10 },
    { at: noon(shift(today, -(T.CHART_DAYS - 1))), result: 'won', points: 415 },
  ];
  const { period, rows } = T.gamesOverTime(records, today, utcDate);
  assert.equal(period, 'day');
  assert.equal(rows.length, T.CHART_DAYS);
  assert.deepEqual(rows.map((r) => r.start), Array.from({ length: T.CHART_DAYS }, (_, i) => shift(today, i - T.CHART_DAYS + 1)));
  const at = (date) => rows.find((r) => r.start === date);
  assert.deepEqual(at(today), { start: today, played: 3, won: 2, bestScore: 620 });
  assert.deepEqual(at(shift(today, -3)), { start: shift(today, -3), played: 1, won: 0, bestScore: null });
  assert.deepEqual(at(rows[0].start), { start: rows[0].start, played: 1, won: 1, bestScore: 415 });
  assert.equal(rows.reduce((n, r) => n + r.played, 0), records.length);
});

test('games over time: by week (from Monday) once a game is older, the weeks before the chart left out', () => {
  const today = '2026-12-10'; // a Thursday
  const records = [
    { at: noon(shift(today, -T.CHART_DAYS)), result: 'won', points: 515 }, // one day too old for days
    { at: noon(today), result: 'won', points: 300 },
    { at: noon(shift(today, -7 * T.CHART_WEEKS)), result: 'won', points: 999 }, // before the first week
  ];
  const { period, rows } = T.gamesOverTime(records, today, utcDate);
  assert.equal(period, 'week');
  assert.equal(rows.length, T.CHART_WEEKS);
  for (const [i, r] of rows.entries()) {
    assert.equal(new Date(`${r.start}T00:00:00Z`).getUTCDay(), 1, `${r.start} is a Monday`);
    if (i) assert.equal(r.start, shift(rows[i - 1].start, 7));
  }
  const last = rows[rows.length - 1].start;
  assert.ok(last <= today && today < shift(last, 7), 'the last week holds today');
  const weekOf = (date) => rows.find((r) => r.start <= date && date < shift(r.start, 7));
  assert.deepEqual(weekOf(shift(today, -T.CHART_DAYS)), { start: weekOf(shift(today, -T.CHART_DAYS)).start, played: 1, won: 1, bestScore: 515 });
  assert.equal(weekOf(today).bestScore, 300);
  assert.equal(rows.reduce((n, r) => n + r.played, 0), 2, 'the game before the first week is in the totals only');
  assert.equal(T.gamesOverTime([], today, utcDate).period, 'day');
  // A time with no date (the store accepts any finite one) is left out of the chart, not thrown on.
  const far = T.gamesOverTime([...records, { at: 1e308, result: 'won', points: 1 }], today);
  assert.equal(far.rows.reduce((n, r) => n + r.played, 0), 2);
});

test('the record a win sets: the first, more points, fewer moves, or none (equal is none)', () => {
  const before = T.addResult(T.emptyTotals(), { result: 'won', hints: 0, points: 500, moves: 50, daily: null });
  assert.equal(T.recordBeaten(T.emptyTotals(), { points: 1, moves: 99 }), 'first');
  assert.equal(T.recordBeaten(before, { points: 501, moves: 60 }), 'score');
  assert.equal(T.recordBeaten(before, { points: 500, moves: 49 }), 'moves');
  assert.equal(T.recordBeaten(before, { points: 500, moves: 50 }), null);
  assert.equal(T.recordBeaten(before, { points: 499, moves: 51 }), null);
});
