// The daily deal: the same deal for every player on a calendar date, chosen from New game's pool
// (deals whose win was checked) by the function docs/daily.md writes out; verify/independent/daily.py
// computes it again, and tests/verify/independent/test_daily.py holds the two equal. No DOM here.

import { mulberry32 } from './engine.js';

const MS_PER_DAY = 86400000;
const TWO_32 = 4294967296;

/** The player's calendar date today (their own time zone) as 'YYYY-MM-DD'. */
export function todayIso(now = new Date()) {
  const pad = (n, w = 2) => String(n).padStart(w, '0');
  return `${pad(now.getFullYear(), 4)}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

// What a stored date or time may be (the saved games and statistics read them, app/core/storage.js
// and stats.js): a date the calendar has, and a time a Date holds. The form alone lets '2026-13-45'
// through, and its date arithmetic then throws; a time of 1e308 outlasts every later one.
export const MAX_TIME = 8.64e15; // ms: the latest time a JavaScript Date holds

/** A calendar date 'YYYY-MM-DD' of year 1 or later (no 2026-13-45, no 2026-02-30). */
export function isIsoDate(s) {
  if (typeof s !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(s) || s < '0001') return false;
  const t = Date.parse(`${s}T00:00:00Z`);
  return Number.isFinite(t) && new Date(t).toISOString().slice(0, 10) === s;
}

/** A time (ms since 1970) that a Date holds and is not before 1970. */
export const isTime = (t) => Number.isFinite(t) && t >= 0 && t <= MAX_TIME;

/** Days from 1970-01-01 to the date 'YYYY-MM-DD' (proleptic Gregorian calendar; may be negative). */
export function dayNumber(iso) {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!m) throw new RangeError(`not a date: ${iso}`);
  return Math.round(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / MS_PER_DAY);
}

/** The deal of date `iso` from `pool` (deal numbers, in the page's order), or null without a pool. */
export function dailyDeal(iso, pool) {
  if (!pool.length) return null;
  const next = mulberry32(dayNumber(iso) >>> 0); // the day number modulo 2^32 seeds it
  return pool[Math.floor((next() * pool.length) / TWO_32)];
}

/**
 * The daily result to share, in the page's words `end` (game.json's end strings; `fill` fills in
 * their values, `num` writes a number): the date, won or not, the moves and the hints used, always
 * said (a win with hints is not the same feat); no card named.
 */
export function shareText(end, words, num, { won, date, moves, hints }) {
  return `${words.fill(won ? end.share_won : end.share_lost, { date, moves: words.count('moves', moves) })} ${words.fill(end.share_hints, { hints: num(hints) })}`;
}
