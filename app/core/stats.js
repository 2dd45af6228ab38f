// Statistics: every finished game of this browser, kept like the saved games (app/core/storage.js):
// versioned, validated, bounded, every access guarded, and a record that does not read is
// dropped alone. No DOM here: the page's words for them are in app/ui/stats-view.js.
//
// Format v1: ONE KEY PER FINISHED GAME, `pyramide.result.v1.<id>` →
//   {version: 1, id, rules, deal, result: 'won' | 'lost' | 'given-up', moves, points, hints, ms,
//    daily: 'YYYY-MM-DD' | null, at}
// where `id` is the game's own id (given at its first move and saved with the game, so every tab
// showing that game knows it). Why a key per game: two tabs that finish games at the same moment
// each write only their own key, so neither can overwrite the other's count; and a tab that sees
// a game finish that was already counted (the other tab on the same deal) writes the same key
// again, so a finish is counted once. A later result of the same game replaces an earlier one
// (a loss undone and then won counts as the win), never adds a game.
// Beyond MAX_RESULTS records the oldest are folded into one summary, `pyramide.stats.v1`
// ({version: 1, until, rules: {<rules id>: totals}}): records at or before `until` are counted in
// it and are then removed (a record left behind by a closed tab is skipped, not counted twice).
// A game counts as played once a move is made; a Restart or New game before the end counts as
// given up (a loss for the streak). Choosing other rules or opening another deal gives up nothing:
// the game stays saved under its rules and deal, to be played on.

import { todayIso, isIsoDate as isDate, isTime } from './daily.js';

export const RESULT_PREFIX = 'pyramide.result.v1.';
export const SUMMARY_KEY = 'pyramide.stats.v1';
const VERSION = 1;
export const MAX_RESULTS = 500; // records kept one by one; older ones are folded into the summary
export const RULES = 'standard'; // the app's own rules; a variant's games are kept under its id (core/variant-registry.js)
const RESULTS = ['won', 'lost', 'given-up'];
const MAX_COUNT = 1e9; // larger than any real count; a bigger number is not ours

function local() {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

const isCount = (n) => Number.isInteger(n) && n >= 0 && n <= MAX_COUNT;
const isId = (s) => typeof s === 'string' && /^[0-9a-z]{8,24}$/.test(s);
const isRules = (s) => typeof s === 'string' && /^[a-z][a-z-]{0,23}$/.test(s);

/** A new game id: 16 random base-36 letters (crypto where there is one). */
export function newGameId() {
  const bytes = new Uint8Array(16);
  try {
    crypto.getRandomValues(bytes);
  } catch {
    for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(Math.random() * 256);
  }
  return Array.from(bytes, (b) => (b % 36).toString(36)).join('');
}

/** A result record in the expected shape, copied field by field, or null. */
export function readRecord(data) {
  if (!data || typeof data !== 'object' || data.version !== VERSION) return null;
  const { id, rules, deal, result, moves, points, hints, ms, daily, at } = data;
  if (!isId(id) || !isRules(rules) || !isCount(deal) || deal < 1 || !RESULTS.includes(result)) return null;
  if (![moves, points, hints, ms].every(isCount) || !(daily === null || isDate(daily)) || !isTime(at)) return null;
  return { version: VERSION, id, rules, deal, result, moves, points, hints, ms, daily, at };
}

// ---------------------------------------------------------------- totals
/** Totals of no game. `dailyLast` is the date of the last daily deal won, for its streak. */
export function emptyTotals() {
  return { played: 0, won: 0, lost: 0, givenUp: 0, streak: 0, bestStreak: 0, bestScore: null, fewestMoves: null,
    hints: 0, dailyStreak: 0, dailyBest: 0, dailyLast: null };
}

function readTotals(t) {
  if (!t || typeof t !== 'object') return null;
  const counts = ['played', 'won', 'lost', 'givenUp', 'streak', 'bestStreak', 'hints', 'dailyStreak', 'dailyBest'];
  if (!counts.every((k) => isCount(t[k])) || t.won + t.lost + t.givenUp !== t.played) return null;
  if (![t.bestScore, t.fewestMoves].every((v) => v === null || isCount(v)) || !(t.dailyLast === null || isDate(t.dailyLast))) return null;
  const out = emptyTotals();
  for (const k of Object.keys(out)) out[k] = t[k];
  return out;
}

const dayBefore = (date) => new Date(Date.parse(`${date}T00:00:00Z`) - 86400000).toISOString().slice(0, 10);

/** The totals after one more game `r` (records are added in the order they finished). */
export function addResult(totals, r) {
  const t = { ...totals, played: totals.played + 1, hints: totals.hints + r.hints };
  if (r.result === 'won') {
    t.won += 1;
    t.streak += 1;
    t.bestStreak = Math.max(t.bestStreak, t.streak);
    t.bestScore = t.bestScore === null ? r.points : Math.max(t.bestScore, r.points);
    t.fewestMoves = t.fewestMoves === null ? r.moves : Math.min(t.fewestMoves, r.moves);
    if (r.daily && r.daily !== t.dailyLast) {
      t.dailyStreak = t.dailyLast === dayBefore(r.daily) ? t.dailyStreak + 1 : 1;
      t.dailyBest = Math.max(t.dailyBest, t.dailyStreak);
      t.dailyLast = r.daily;
    }
  } else {
    t[r.result === 'lost' ? 'lost' : 'givenUp'] += 1;
    t.streak = 0;
  }
  return t;
}

/** Which record a win of `points` in `moves` sets against the totals `before` it: 'first' (the first
 *  win), 'score' (more points than ever), 'moves' (fewer moves than ever), or null (none). */
export function recordBeaten(before, { points, moves }) {
  if (before.bestScore === null) return 'first';
  if (points > before.bestScore) return 'score';
  if (before.fewestMoves !== null && moves < before.fewestMoves) return 'moves';
  return null;
}

/** The daily streak as it stands on `today`: kept only while the last daily win was today or yesterday. */
export function dailyStreakOn(totals, today) {
  return totals.dailyLast === today || totals.dailyLast === dayBefore(today) ? totals.dailyStreak : 0;
}

// ---------------------------------------------------------------- storage
function readSummary(store) {
  try {
    const data = JSON.parse(store.getItem(SUMMARY_KEY));
    if (!data || data.version !== VERSION || !isTime(data.until) || !data.rules || typeof data.rules !== 'object') return null;
    const rules = {};
    for (const [id, t] of Object.entries(data.rules)) {
      const totals = readTotals(t);
      if (isRules(id) && totals) rules[id] = totals;
    }
    return { until: data.until, rules };
  } catch {
    return null;
  }
}

/** Every readable record, oldest first; a record that does not read is removed (that one alone). */
function readRecords(store) {
  const records = [];
  const broken = [];
  for (let i = 0; i < store.length; i++) {
    const key = store.key(i);
    if (!key || !key.startsWith(RESULT_PREFIX)) continue;
    let record = null;
    try {
      record = readRecord(JSON.parse(store.getItem(key)));
    } catch { /* not JSON */ }
    if (record && key === RESULT_PREFIX + record.id) records.push(record);
    else broken.push(key);
  }
  for (const key of broken) store.removeItem(key);
  return records.sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : 1));
}

/** The summary and the records not yet in it: {summary, records}. */
function readAll(store) {
  const summary = readSummary(store) ?? { until: -Infinity, rules: {} };
  if (store.getItem(SUMMARY_KEY) !== null && !readSummary(store)) store.removeItem(SUMMARY_KEY); // dropped alone
  return { summary, records: readRecords(store).filter((r) => r.at > summary.until) };
}

/** The record of game `id`, or null. */
export function resultOf(id) {
  try {
    const text = local()?.getItem(RESULT_PREFIX + id);
    const record = text ? readRecord(JSON.parse(text)) : null;
    return record?.id === id ? record : null; // another game's record under this key is not this game's
  } catch {
    return null;
  }
}

/**
 * Counts a finished game, once per id: a game already counted as won stays won; any other
 * earlier result of it is replaced. Returns the record written, or null (nothing written).
 */
export function recordResult(fields) {
  try {
    const store = local();
    if (!store) return null;
    const earlier = resultOf(fields.id);
    if (earlier && earlier.result === 'won') return null;
    // Later than the summary's time, so the game is counted even when the clock was set back.
    const until = readSummary(store)?.until ?? -1;
    const record = readRecord({ version: VERSION, rules: RULES, daily: null, ...fields, at: Math.max(Date.now(), until + 1) });
    if (!record) return null;
    store.setItem(RESULT_PREFIX + record.id, JSON.stringify(record));
    fold(store);
    return record;
  } catch {
    return null; // storage full or blocked: this game goes uncounted
  }
}

// Folds the oldest records beyond MAX_RESULTS into the summary, which is written before they
// are removed: a tab closed in between leaves records the summary already counts, skipped by
// `until`.
function fold(store) {
  const { summary, records } = readAll(store);
  if (records.length <= MAX_RESULTS) return;
  const old = records.slice(0, records.length - MAX_RESULTS);
  const rules = { ...summary.rules };
  for (const r of old) rules[r.rules] = addResult(rules[r.rules] ?? emptyTotals(), r);
  store.setItem(SUMMARY_KEY, JSON.stringify({ version: VERSION, until: old[old.length - 1].at, rules }));
  for (const r of old) store.removeItem(RESULT_PREFIX + r.id);
}

/**
 * The statistics of one rules id: {totals, recent} where totals are as addResult makes them and
 * recent are the last records (newest last) for the chart. Nothing stored: empty totals.
 */
export function statistics(rules = RULES, recentCount = 20) {
  try {
    const store = local();
    if (!store) return { totals: emptyTotals(), recent: [] };
    const { summary, records } = readAll(store);
    const mine = records.filter((r) => r.rules === rules);
    const totals = mine.reduce(addResult, summary.rules[rules] ?? emptyTotals());
    return { totals, recent: mine.slice(-recentCount), records: mine };
  } catch {
    return { totals: emptyTotals(), recent: [], records: [] };
  }
}

// ---------------------------------------------------------------- over time
export const CHART_DAYS = 14; // by day while every game kept is of the last CHART_DAYS days
export const CHART_WEEKS = 12; // else by week (Monday to Sunday), the last CHART_WEEKS weeks

const DAY_MS = 86400000;
const dateShift = (date, days) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const mondayOf = (date) => dateShift(date, -((new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7));

/**
 * The games of `records` over time, for the chart: {period: 'day' | 'week', rows}, rows oldest
 * first, one per day (or week, by its Monday) up to `today`'s, those without a game too (the
 * chart's time runs evenly): {start: 'YYYY-MM-DD', played, won, bestScore (null: no win)}.
 * `dateOf(at)` is a record's date in the player's time zone. Games before the first row (and
 * those folded into the summary, which keeps no dates) are in the totals only.
 */
export function gamesOverTime(records, today, dateOf = (at) => todayIso(new Date(at))) {
  const dated = records.map((r) => ({ r, date: dateOf(r.at) })).filter(({ date }) => isDate(date)); // a record from the store has a date; a hand-made one may not
  const byDay = dated.every(({ date }) => date > dateShift(today, -CHART_DAYS));
  const period = byDay ? 'day' : 'week';
  const last = byDay ? today : mondayOf(today);
  const step = byDay ? 1 : 7;
  const count = byDay ? CHART_DAYS : CHART_WEEKS;
  const rows = Array.from({ length: count }, (_, i) => ({ start: dateShift(last, (i - count + 1) * step), played: 0, won: 0, bestScore: null }));
  const index = new Map(rows.map((row, i) => [row.start, i]));
  for (const { r, date } of dated) {
    const row = rows[index.get(byDay ? date : mondayOf(date))];
    if (!row) continue; // before the chart's first row, or after today (a clock set back)
    row.played += 1;
    if (r.result !== 'won') continue;
    row.won += 1;
    row.bestScore = Math.max(row.bestScore ?? 0, r.points);
  }
  return { period, rows };
}

/** Removes every record and the summary (the player confirmed). */
export function resetStatistics() {
  try {
    const store = local();
    if (!store) return;
    const keys = [];
    for (let i = 0; i < store.length; i++) {
      const key = store.key(i);
      if (key && (key.startsWith(RESULT_PREFIX) || key === SUMMARY_KEY)) keys.push(key);
    }
    keys.forEach((k) => store.removeItem(k));
  } catch { /* nothing to do */ }
}

// ---------------------------------------------------------------- export and import
export const EXPORT_FORMAT = 'pyramide-statistics';
const MAX_IMPORT_CHARS = 2_000_000; // far above MAX_RESULTS records; a bigger file is not ours

/** Everything stored, as the text of a JSON file. */
export function exportStatistics() {
  const store = local();
  const { summary, records } = store ? readAll(store) : { summary: { until: -Infinity, rules: {} }, records: [] };
  const until = Number.isFinite(summary.until) ? summary.until : null;
  return JSON.stringify({ format: EXPORT_FORMAT, version: VERSION, summary: { until, rules: summary.rules }, results: records }, null, 1);
}

/**
 * Reads an exported file's text: {summary, records}, or throws an Error whose message says what
 * is wrong (shown to the player in their words by the caller, which knows only that it failed).
 */
export function parseExport(text) {
  if (typeof text !== 'string' || text.length > MAX_IMPORT_CHARS) throw new Error('too long');
  const data = JSON.parse(text);
  if (!data || data.format !== EXPORT_FORMAT || data.version !== VERSION) throw new Error('not a statistics file');
  if (!Array.isArray(data.results) || data.results.length > MAX_RESULTS * 2) throw new Error('results');
  const records = data.results.map(readRecord);
  if (records.some((r) => r === null)) throw new Error('a result does not read');
  const rules = {};
  const given = data.summary && typeof data.summary === 'object' ? data.summary : { until: null, rules: {} };
  for (const [id, t] of Object.entries(given.rules || {})) {
    const totals = readTotals(t);
    if (!isRules(id) || !totals) throw new Error('summary');
    rules[id] = totals;
  }
  if (typeof given.until === 'number' && !isTime(given.until)) throw new Error('summary time');
  const until = Number.isFinite(given.until) ? given.until : null;
  return { summary: { until, rules }, records };
}

/** Replaces the stored statistics with a file's (read by parseExport). */
export function importStatistics(text) {
  const { summary, records } = parseExport(text);
  const store = local();
  if (!store) throw new Error('no storage');
  resetStatistics();
  if (summary.until !== null) store.setItem(SUMMARY_KEY, JSON.stringify({ version: VERSION, until: summary.until, rules: summary.rules }));
  for (const r of records) store.setItem(RESULT_PREFIX + r.id, JSON.stringify(r));
  fold(store);
}
