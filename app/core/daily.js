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
