// Saved games: one per deal, in this browser's localStorage, shared by every tab and both
// languages of the site. Storage may be missing or refuse (private windows, full disk, blocked
// cookies): every access is guarded, and anything unexpected reads as "nothing saved", so the
// page never fails because of it.
//
// Format v2: ONE KEY PER DEAL, `pyramide.game.v2.<deal>` →
//   {version: 2, deal, moves: ["pair 7H 6S", ...], undo: [step, ...], at, meta}
// where each undo step is what Undo at move 0 takes back, newest last: {moves: [...], meta} (the
// moves a Restart set aside) or {deal: N} (New game came here from deal N). `meta` (optional, see
// isMeta) is what the statistics need of a game (app/core/stats.js): its id, hints used, time kept. `at` orders the games by
// last play (to keep the newest MAX_GAMES and to find the last played one); a game reads with `at`
// clamped to a Date's times, and ranks by it only while it is an exact integer (a stored 1e308
// would tie with every later save: it ranks as the oldest instead).
// Why a key per deal and no index: a tab writes only the key of its own deal, so it can never
// overwrite another deal's game, even when two tabs save at the same moment; the `storage`
// event then names exactly the deal that changed. An index would be one more shared value that
// two tabs could clobber, and the keys themselves already are the index.
// VARIANTS: a game under a variant's rules (app/ui/variants.js) has a key of its own,
// `pyramide.game.v2.<variant>.<deal>` (the same value, with `variant` in it), so each variant
// keeps its own game of each deal; a standard game keeps the key it always had. MAX_GAMES
// counts the games of every variant together.
// The tab's own current deal is kept in sessionStorage (one per tab, kept across reloads).
// v1 (`pyramide.game.v1`, {version: 1, deal, moves}, one slot for everything) is migrated once:
// copied to its deal's key unless that deal already has a v2 game, then removed.

import { MAX_DEAL, VARIANTS } from './engine.js';
import { isIsoDate, MAX_TIME } from './daily.js';

export const PREFIX = 'pyramide.game.v2.';
export const V1_KEY = 'pyramide.game.v1';
export const TAB_KEY = 'pyramide.tab.v2';
export const TAB_VARIANT_KEY = 'pyramide.tab.variant.v1';
const STANDARD = 'standard';
const VARIANT_NAME = /^[a-z][a-z-]{0,19}$/;
const VERSION = 2;
export const MAX_GAMES = 20; // games kept; the least recently played beyond this are dropped
const MAX_MOVES = 2000; // far more than any real game; a longer list is not ours
export const MAX_UNDO = 50; // restarts and new games that Undo can take back, per deal

function local() {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null; // reading the property itself throws when storage is blocked
  }
}

function session() {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    return null;
  }
}

const isDeal = (n) => Number.isInteger(n) && n >= 1 && n <= MAX_DEAL;
const isMoves = (m) => Array.isArray(m) && m.length <= MAX_MOVES
  && m.every((x) => typeof x === 'string' && x.length < 20);
const isStep = (s) => !!s && typeof s === 'object' && (isMoves(s.moves) || isDeal(s.deal));
// A game's statistics data: id (given at its first move, so a finish is counted once, whichever
// tab saw it), hints asked, milliseconds kept by the clock, the daily deal's date when it is one.
const isCount = (n) => Number.isInteger(n) && n >= 0 && n < 1e10;
export const isMeta = (m) => !!m && typeof m === 'object' && !Array.isArray(m)
  && typeof m.id === 'string' && /^[0-9a-z]{8,24}$/.test(m.id) && isCount(m.hints) && isCount(m.ms)
  && (m.daily === null || isIsoDate(m.daily));
const metaOf = (m) => (isMeta(m) ? { id: m.id, hints: m.hints, ms: m.ms, daily: m.daily } : null);

const MAX_RANK = Number.MAX_SAFE_INTEGER; // beyond it, `at + 1` is no later than `at`
const UNREADABLE = -Infinity; // the rank of a save that does not read: dropped first, never last played
const UNTIMED = -Number.MAX_VALUE; // a readable save whose time is no exact number: older than any other
const rankOf = (at) => (Number.isFinite(at) && at <= MAX_RANK ? at : UNTIMED);
const clampTime = (at) => (Number.isFinite(at) ? Math.min(Math.max(at, 0), MAX_TIME) : 0);

const keyOf = (deal, variant = STANDARD) => (variant === STANDARD ? PREFIX + deal : `${PREFIX}${variant}.${deal}`);

/** The game saved under a key's text, or null when it is not one in the expected shape. */
function parseGame(text, deal, variant = STANDARD) {
  try {
    const data = JSON.parse(text);
    if (!data || data.version !== VERSION || data.deal !== deal || !isMoves(data.moves)) return null;
    if ((data.variant ?? STANDARD) !== variant) return null;
    const undo = Array.isArray(data.undo) && data.undo.length <= MAX_UNDO && data.undo.every(isStep) ? data.undo : [];
    const step = (s) => {
      if (!isMoves(s.moves)) return { deal: s.deal };
      const meta = metaOf(s.meta);
      return meta ? { moves: s.moves, meta } : { moves: s.moves };
    };
    return { deal, variant, moves: data.moves, undo: undo.map(step), at: clampTime(data.at), meta: metaOf(data.meta) };
  } catch {
    return null;
  }
}

// A saved game's key → {deal, variant}, or null when it is not one.
function slotOfKey(key) {
  if (typeof key !== 'string' || !key.startsWith(PREFIX)) return null;
  const text = key.slice(PREFIX.length);
  const dot = text.lastIndexOf('.');
  const variant = dot < 0 ? STANDARD : text.slice(0, dot);
  if (variant === STANDARD && dot >= 0) return null; // the standard key has no name in it
  const digits = text.slice(dot + 1);
  const n = /^[1-9][0-9]{0,9}$/.test(digits) ? Number(digits) : NaN;
  return isDeal(n) && VARIANT_NAME.test(variant) ? { deal: n, variant } : null;
}

/** Every saved game's {deal, variant, rank}: its stored time, or UNTIMED, or UNREADABLE. */
function savedGames(store) {
  const games = [];
  for (let i = 0; i < store.length; i++) {
    const key = store.key(i);
    const slot = slotOfKey(key);
    if (slot === null) continue;
    const text = store.getItem(key);
    const rank = parseGame(text, slot.deal, slot.variant) ? rankOf(JSON.parse(text).at) : UNREADABLE;
    games.push({ ...slot, rank });
  }
  return games;
}

/** Copies a v1 game to its deal's key (unless that deal has a v2 game), then removes v1. */
export function migrate() {
  try {
    const store = local();
    const text = store?.getItem(V1_KEY);
    if (text === null || text === undefined) return;
    try {
      const data = JSON.parse(text);
      if (data && data.version === 1 && isDeal(data.deal) && isMoves(data.moves) && data.moves.length
          && !loadGame(data.deal)) {
        store.setItem(PREFIX + data.deal, JSON.stringify({ version: VERSION, deal: data.deal, moves: data.moves, undo: [], at: Date.now() }));
      }
    } catch { /* not JSON: nothing to keep */ }
    store.removeItem(V1_KEY);
  } catch {
    /* storage refused: try again next visit */
  }
}

/** The game saved for a deal (under a variant's rules, default standard): {deal, variant,
 *  moves, undo, at, meta}, or null when none (or unusable). */
export function loadGame(deal, variant = STANDARD) {
  try {
    const text = local()?.getItem(keyOf(deal, variant));
    return text ? parseGame(text, deal, variant) : null;
  } catch {
    return null;
  }
}

/** The game saved under a storage key, for the `storage` event: [deal, game or null, variant]
 *  or null. */
export function gameOfKey(key, text) {
  const slot = slotOfKey(key);
  if (slot === null) return null;
  return [slot.deal, text ? parseGame(text, slot.deal, slot.variant) : null, slot.variant];
}

/**
 * Saves a deal's game; a game with no moves and nothing to undo is nothing to keep, so its key
 * is removed. Then only the MAX_GAMES most recently played games are kept (never dropping this
 * one). Silently does nothing where storage is unavailable or full.
 */
export function saveGame(deal, moves, undo = [], meta = null, variant = STANDARD) {
  try {
    const store = local();
    if (!store) return;
    const key = keyOf(deal, variant);
    if (!moves.length && !undo.length) {
      store.removeItem(key);
      return;
    }
    const games = savedGames(store);
    // Later than every saved game, even within one millisecond or with a clock set back.
    let at = Math.max(Date.now(), ...games.map((g) => g.rank + 1));
    if (at > MAX_RANK) { // a game was stored at the very last rank (by hand): it steps back one
      at = MAX_RANK;
      for (const g of games.filter((o) => o.rank === MAX_RANK)) {
        const otherKey = keyOf(g.deal, g.variant);
        store.setItem(otherKey, JSON.stringify({ ...JSON.parse(store.getItem(otherKey)), at: MAX_RANK - 1 }));
      }
    }
    const named = variant === STANDARD ? {} : { variant };
    store.setItem(key, JSON.stringify({ version: VERSION, deal, ...named, moves, undo: undo.slice(-MAX_UNDO), at, meta: metaOf(meta) }));
    const others = games.filter((g) => g.deal !== deal || g.variant !== variant).sort((a, b) => a.rank - b.rank);
    for (const old of others.slice(0, Math.max(0, others.length - (MAX_GAMES - 1)))) store.removeItem(keyOf(old.deal, old.variant));
  } catch {
    /* storage full or blocked: the game goes on unsaved */
  }
}

/** Forgets a deal's saved game (it could not be replayed), so the next visit starts cleanly. */
export function forgetGame(deal, variant = STANDARD) {
  try {
    local()?.removeItem(keyOf(deal, variant));
  } catch {
    /* nothing to do */
  }
}

/** The deal of the most recently saved game, or null. */
export function lastPlayedDeal() {
  return lastPlayed()?.deal ?? null;
}

/** The most recently saved game's {deal, variant} of a variant this page knows (only that
 *  variant's when one is named), or null. */
export function lastPlayed(variant = null) {
  try {
    const store = local();
    if (!store) return null;
    const games = savedGames(store).filter((g) => g.rank > UNREADABLE && Object.hasOwn(VARIANTS, g.variant)
      && (variant === null || g.variant === variant)).sort((a, b) => b.rank - a.rank);
    return games.length ? { deal: games[0].deal, variant: games[0].variant } : null;
  } catch {
    return null;
  }
}

/** The deal this tab was playing (kept across reloads of the tab), or null. */
export function tabDeal() {
  try {
    const n = Number(session()?.getItem(TAB_KEY));
    return isDeal(n) ? n : null;
  } catch {
    return null;
  }
}

/** The variant this tab was playing, or null (standard, or nothing kept). */
export function tabVariant() {
  try {
    const v = session()?.getItem(TAB_VARIANT_KEY);
    return v && VARIANT_NAME.test(v) ? v : null;
  } catch {
    return null;
  }
}

export function setTabDeal(deal, variant = STANDARD) {
  try {
    session()?.setItem(TAB_KEY, String(deal));
    session()?.setItem(TAB_VARIANT_KEY, variant);
  } catch {
    /* the tab forgets its deal on reload: the last played game opens instead */
  }
}

// The player's settings of the game's look (large print), one small object under its own key,
// apart from the games (so no game's key or count is touched): {largePrint: true|false}.
export const SETTINGS_KEY = 'pyramide.settings.v1';

function settings() {
  try {
    const data = JSON.parse(local()?.getItem(SETTINGS_KEY) ?? 'null');
    return data && typeof data === 'object' && !Array.isArray(data) ? data : {};
  } catch {
    return {};
  }
}

/** The setting `name` as saved, or undefined when there is none. */
export function loadSetting(name) {
  return settings()[name];
}

export function saveSetting(name, value) {
  try {
    local()?.setItem(SETTINGS_KEY, JSON.stringify({ ...settings(), [name]: value }));
  } catch {
    // storage full or refused: the setting holds for this visit only
  }
}
