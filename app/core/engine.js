// The rules of Pyramide, as the app plays them. This module is the rules: the page, the Hint
// worker, the solver and the checker's Node bridge all import it unchanged. No DOM access.
//
// Two layers:
//  - a compact layer (a "table" of the cards in play plus four small integers of state) on
//    which the moves are generated once — the solver runs millions of positions through it;
//  - a plain-data layer (positions as JSON, moves as notation strings) for the page, saving
//    and the checker; it converts to the compact layer and back, and adds points and moves.
// The data format and rule ids are described in docs/positions.md.

import { VARIANT_REGISTRY } from './variant-registry.js';

// ---------------------------------------------------------------- rule constants
export const ROWS = 7;
export const PYRAMID_CARDS = (ROWS * (ROWS + 1)) / 2; // 28
export const DECK_SIZE = 52;
export const WASTE_AT_START = 1; // cards turned onto the waste by the deal
export const TARGET_SUM = 13;
export const KING_VALUE = 13;
export const TURNS_ALLOWED = 2;
export const PASSES = TURNS_ALLOWED + 1;
export const POINTS = Object.freeze({ perCard: 5, rowCleared: 25, win: 100, perUnusedTurn: 50 });
export const MIN_DEAL = 1;
export const MAX_DEAL = 4294967295;
export const RANKS = 'A23456789TJQK';
export const SUITS = 'SHDC';
// The 52 canonical codes with their values (cards.values: ace 1 … king 13, the suit never matters).
const CARD_VALUES = new Map([...SUITS].flatMap((suit) => [...RANKS].map((rank, i) => [rank + suit, i + 1])));

export class RuleError extends Error {
  // rule: a rule id of docs/positions.md (or 'notation'), so callers can say which rule broke.
  constructor(rule, message) {
    super(message);
    this.name = 'RuleError';
    this.rule = rule;
  }
}

// ---------------------------------------------------------------- typed-in text
// Deal numbers, card codes and moves are read with the same definitions as verify/independent/deal.py, so
// both engines refuse exactly the same input: whitespace is JSON's (space, tab, LF, CR; not
// what \s or trim() call a space, such as NBSP or the BOM), digits are ASCII 0-9, case is folded
// in ASCII only, and any character outside printable ASCII is refused, shown escaped.
const WHITESPACE = /[ \t\n\r]+/;
const PLAIN_TEXT = /^[\x20-\x7e\t\n\r]*$/; // printable ASCII and WHITESPACE
const DEAL_TEXT = /^[ \t\n\r]*[0-9]+[ \t\n\r]*$/;
const MAX_DEAL_TEXT = 32; // characters
const MAX_MOVE_TEXT = 64; // characters; 'pair 10H 3S' is 11
const MAX_SHOWN = 40; // characters of a refused text quoted in a message
const NOT_PLAIN = 'only letters, digits and spaces of plain ASCII are read (no control character, no look-alike)';

/** Text quoted for a one-line message, escaped as Python's repr would and cut after MAX_SHOWN characters. */
export function shown(text) {
  if (typeof text !== 'string') return String(text).slice(0, MAX_SHOWN);
  const chars = Array.from(text); // code points, as Python counts them
  const named = { '\\': '\\\\', "'": "\\'", '\t': '\\t', '\n': '\\n', '\r': '\\r' };
  const hex = (c, width) => c.toString(16).padStart(width, '0');
  const out = chars.slice(0, MAX_SHOWN).map((ch) => {
    const c = ch.codePointAt(0);
    if (named[ch]) return named[ch];
    if (c >= 0x20 && c <= 0x7e) return ch;
    return c < 0x100 ? `\\x${hex(c, 2)}` : c < 0x10000 ? `\\u${hex(c, 4)}` : `\\U${hex(c, 8)}`;
  });
  return `'${out.join('')}'` + (chars.length > MAX_SHOWN ? `… (${chars.length} characters)` : '');
}

const trimmed = (text) => text.replace(/^[ \t\n\r]+|[ \t\n\r]+$/g, '');

// ---------------------------------------------------------------- cards
/** Canonical code of a card written as text ('10d' → 'TD'); throws RuleError('notation'). */
export function parseCard(text) {
  if (CARD_VALUES.has(text)) return text; // already canonical: the engine's own codes, read often
  if (typeof text !== 'string') throw new RuleError('notation', `a card code must be text like 'TD' or 'KS', got ${shown(text)}`);
  // Plain ASCII first, so toUpperCase folds only a-z ('ſ' would become 'S').
  if (!PLAIN_TEXT.test(text)) throw new RuleError('notation', `${shown(text)} is not a card code: ${NOT_PLAIN}`);
  const m = /^(10|[A2-9TJQK])([SHDC])$/.exec(trimmed(text).toUpperCase());
  if (!m) throw new RuleError('notation', `${shown(text)} is not a card code (rank A 2-9 T/10 J Q K, then suit S H D C)`);
  return (m[1] === '10' ? 'T' : m[1]) + m[2];
}

/** Value of a card code: ace 1 … king 13; the suit never matters. */
export function cardValue(code) {
  return CARD_VALUES.get(code) ?? RANKS.indexOf(code[0]) + 1;
}

// ---------------------------------------------------------------- deal numbers and the shuffle
/** The deal number as an integer, or a RuleError('deal.layout') saying what is wrong. */
export function parseDealNumber(value) {
  let n = NaN;
  if (typeof value === 'number') n = value;
  // The length first: no 5,000-digit number is read (verify/independent/deal.py MAX_DEAL_TEXT).
  else if (typeof value === 'string' && value.length <= MAX_DEAL_TEXT && DEAL_TEXT.test(value)) n = Number(trimmed(value));
  if (!Number.isInteger(n) || n < MIN_DEAL || n > MAX_DEAL) {
    throw new RuleError('deal.layout', `deal number must be a whole number from ${MIN_DEAL} to ${MAX_DEAL}, got ${shown(value)}`);
  }
  return n;
}

/** Mulberry32, exactly as docs/shuffle.md writes it out: 32-bit unsigned arithmetic throughout. */
export function mulberry32(seed) {
  let s = seed >>> 0;
  return function next() {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1) >>> 0;
    t = (((t + Math.imul(t ^ (t >>> 7), t | 61)) >>> 0) ^ t) >>> 0;
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/** The deck in the documented base order: spades A…K, hearts, diamonds, clubs. */
function baseDeck() {
  const deck = [];
  for (const suit of SUITS) for (const rank of RANKS) deck.push(rank + suit);
  return deck;
}

/** Deal N: {deal, pyramid: 28 codes row 1 first, waste: [1 code], stock: 23 codes, first drawn first}. */
export function dealLayout(value) {
  const n = parseDealNumber(value);
  const deck = baseDeck();
  const next = mulberry32(n);
  for (let i = DECK_SIZE - 1; i >= 1; i--) {
    const j = Math.floor((next() * (i + 1)) / 4294967296); // exact: the product stays below 2^38
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return {
    deal: n,
    pyramid: deck.slice(0, PYRAMID_CARDS),
    waste: deck.slice(PYRAMID_CARDS, PYRAMID_CARDS + WASTE_AT_START),
    stock: deck.slice(PYRAMID_CARDS + WASTE_AT_START),
  };
}

// ---------------------------------------------------------------- pyramid geometry
/** Row (1-based) and place (1-based) of pyramid index k (0-based, row 1 first). */
export function rowAndPlace(k) {
  let r = 1;
  while (k >= r) { k -= r; r++; }
  return { row: r, place: k + 1 };
}

// Card (r, c) is covered by (r+1, c) and (r+1, c+1): in 0-based indices k+r and k+r+1.
// COVERS[k]: the cards k covers directly (the cover-pair variant pairs a card with one of them).
const COVERED_BY = new Int32Array(PYRAMID_CARDS);
const COVERS = new Int32Array(PYRAMID_CARDS);
const ROW_MASK = new Int32Array(ROWS);
for (let k = 0; k < PYRAMID_CARDS; k++) {
  const { row } = rowAndPlace(k);
  COVERED_BY[k] = row < ROWS ? (1 << (k + row)) | (1 << (k + row + 1)) : 0;
  if (row < ROWS) { COVERS[k + row] |= 1 << k; COVERS[k + row + 1] |= 1 << k; }
  ROW_MASK[row - 1] |= 1 << k;
}
const FULL_PYRAMID = (1 << PYRAMID_CARDS) - 1;

/** Number of set bits of a 32-bit integer. */
export function bitCount(x) {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24);
}

// ---------------------------------------------------------------- the compact layer
// A table holds the cards of one game: pyramid codes/values (fixed places) and the cards
// beside the pyramid in their drawing order (waste bottom first, then the stock). That order
// never changes: draws move the boundary, a turn moves it back to the start (rule turn.order).
// A compact state is four integers:
//   pyr   bit k set while pyramid card k is still there
//   side  bit i set while side card i is still there (removed cards never return: removed.gone)
//   p     side cards with index < p are on the waste, the others in the stock; kept normalised
//         to (index of the waste top) + 1, or 0 when the waste is empty
//   turns turns left
export function makeTable(pyramidCodes, sideCodes) {
  // Plain loops: Int8Array.from with a mapping function was most of the time of a move.
  const pyrValues = new Int8Array(pyramidCodes.length);
  const pyrOfValue = new Int32Array(KING_VALUE + 1); // the pyramid places of each value, as masks
  pyramidCodes.forEach((c, k) => { if (c) { pyrValues[k] = cardValue(c); pyrOfValue[pyrValues[k]] |= 1 << k; } });
  const sideValues = new Int8Array(sideCodes.length);
  sideCodes.forEach((c, i) => { sideValues[i] = cardValue(c); });
  return { pyrCodes: pyramidCodes.slice(), pyrValues, pyrOfValue, sideCodes: sideCodes.slice(), sideValues };
}

const ROW_START = Int32Array.from({ length: ROWS + 1 }, (_, r) => (r * (r + 1)) / 2); // row r+1 starts at ROW_START[r]

/** Pyramid cards that are there and uncovered (rule free.covered), as a bit mask. */
export function freeMask(pyr) {
  // Row by row with shifts: place o of row r is covered by places o and o+1 of row r+1.
  let free = (pyr >>> ROW_START[ROWS - 1]) << ROW_START[ROWS - 1]; // row 7 is never covered
  for (let r = 1; r < ROWS; r++) {
    const below = (pyr >>> ROW_START[r]) & ((1 << (r + 1)) - 1);
    const blocked = (below | (below >>> 1)) & ((1 << r) - 1);
    free |= (((pyr >>> ROW_START[r - 1]) & ~blocked & ((1 << r) - 1)) << ROW_START[r - 1]);
  }
  return free;
}

/** Index of the waste top (the only available side card), or -1. */
export function wasteTop(side, p) {
  const onWaste = p >= 32 ? side : side & ((1 << p) - 1);
  return 31 - Math.clz32(onWaste); // highest bit; -1 when none
}

/** Index of the stock's next card, or -1 when the stock is empty. */
export function stockNext(side, p) {
  const inStock = p >= 32 ? 0 : (side >>> p) << p;
  return inStock === 0 ? -1 : 31 - Math.clz32(inStock & -inStock); // lowest bit
}

function normalisedP(side, p) {
  return wasteTop(side, p) + 1;
}

// Move kinds of the compact layer. a, b: pyramid index (0…27) or side index + 32.
export const KING = 0, PAIR = 1, DRAW = 2, TURN = 3;
export const SIDE = 32;

// ---------------------------------------------------------------- rules options (variants)
// The traditional rule sets of the variants page, as options of the compact layer:
//   strictWin      all 52 cards must go, not only the 28 of the pyramid (end.win moves on)
//   turns          turns for a new deal: 2 by the rules, 0 = one pass only (a position carries
//                  its own turns_left, so from a position this option changes nothing)
//   unlimitedTurns the waste may be turned back as often as wanted
//   stockTop       the stock's top card is face up and available too
//   coverPair      a card may pair with the card directly covering it (when that one is free
//                  and is the only card still covering it)
// The variants, each a set of these options, are the registry's (variant-registry.js, the one
// list every part reads): VARIANTS is id → its rules options (frozen), the app's rules first.
export const VARIANTS = Object.freeze(Object.fromEntries(
  VARIANT_REGISTRY.map(({ id, rules }) => [id, Object.freeze({ ...rules })])));
const RULE_KEYS = ['strictWin', 'turns', 'unlimitedTurns', 'stockTop', 'coverPair'];

/** The rules options with every field set; throws RuleError('rules') on an unknown option. */
const NORMALISED = new WeakSet();
export function normaliseRules(rules = {}) {
  if (NORMALISED.has(rules)) return rules;
  if (rules === null || typeof rules !== 'object') throw new RuleError('rules', 'rules options must be an object');
  const unknown = Object.keys(rules).filter((k) => !RULE_KEYS.includes(k));
  if (unknown.length) throw new RuleError('rules', `unknown rules options: ${unknown.join(', ')}`);
  const r = {
    strictWin: !!rules.strictWin, turns: rules.turns ?? null, unlimitedTurns: !!rules.unlimitedTurns,
    stockTop: !!rules.stockTop, coverPair: !!rules.coverPair,
  };
  // With the pyramid gone a strict game goes on beside it; that end game is only written out
  // for the standard way of reaching the side cards.
  if (r.strictWin && r.stockTop) throw new RuleError('rules', 'strictWin cannot be combined with stockTop');
  r.standard = !r.strictWin && !r.unlimitedTurns && !r.stockTop && !r.coverPair;
  Object.freeze(r);
  NORMALISED.add(r);
  return r;
}

const STANDARD = normaliseRules({});

/** Is the game over and won? end.win; in the strict variant every card beside must be gone too. */
export function isWon(pyr, side, rules = STANDARD) {
  return pyr === 0 && (!rules.strictWin || side === 0);
}

/** The position after one more draw or turn, packed as turns << 8 | p; -1 when neither is
 *  possible (draw.nonempty, turn.when, turn.limit; unlimitedTurns never spends a turn). */
export function chainStep(side, p, turns, unlimited = false) {
  const next = stockNext(side, p);
  if (next >= 0) return (turns << 8) | (next + 1);
  if (wasteTop(side, p) >= 0 && (turns > 0 || unlimited)) return unlimited ? turns << 8 : (turns - 1) << 8;
  return -1;
}

/**
 * Every legal move of a compact state: emit(kind, a, b, pyr, side, p, turns) once per move with
 * the state it leads to. This is the one place where the app decides what is legal.
 * kingFirst: when a free pyramid king exists, emit only its removal (used by the solver; see
 * tests/app/core/plain_solver.mjs for why that keeps the answers exact). rules: normaliseRules()
 * options; the variants' extra moves are marked VARIANT RULE. sideOnly: only the moves that
 * take the waste top or the playable stock top (the solver's walk down the chain of draws).
 * Returns the number of moves emitted.
 */
export function forEachMove(table, pyr, side, p, turns, emit, kingFirst = false, rules = STANDARD, sideOnly = false) {
  if (pyr === 0 && (!rules.strictWin || side === 0)) return 0; // end.win: the game is over
  const values = table.pyrValues;
  const ofValue = table.pyrOfValue;
  const sideValues = table.sideValues;
  const free = freeMask(pyr);
  const top = wasteTop(side, p);
  const topValue = top >= 0 ? sideValues[top] : 0;
  let count = 0;
  // king.alone — a free pyramid king
  if (!sideOnly) {
    for (let f = free & ofValue[KING_VALUE]; f !== 0; f &= f - 1) {
      const k = 31 - Math.clz32(f & -f);
      emit(KING, k, -1, pyr & ~(1 << k), side, p, turns);
      count++;
      if (kingFirst) return count;
    }
  }
  // king.alone — a king on the waste top
  if (topValue === KING_VALUE) {
    const s2 = side & ~(1 << top);
    emit(KING, SIDE + top, -1, pyr, s2, normalisedP(s2, p), turns);
    count++;
  }
  // pair.thirteen with pair.one-waste: two free pyramid cards, or one and the waste top
  for (let f = free & ~ofValue[KING_VALUE]; f !== 0; f &= f - 1) {
    const i = 31 - Math.clz32(f & -f);
    const need = TARGET_SUM - values[i];
    if (!sideOnly) {
      for (let g = f & (f - 1) & ofValue[need]; g !== 0; g &= g - 1) {
        const j = 31 - Math.clz32(g & -g);
        emit(PAIR, i, j, pyr & ~(1 << i) & ~(1 << j), side, p, turns);
        count++;
      }
    }
    if (top >= 0 && topValue === need) {
      const s2 = side & ~(1 << top);
      emit(PAIR, i, SIDE + top, pyr & ~(1 << i), s2, normalisedP(s2, p), turns);
      count++;
    }
  }
  if (!rules.standard) {
    if (rules.coverPair && !sideOnly) count += forEachCoverPair(table, pyr, side, p, turns, emit);
    if (rules.stockTop) count += forEachStockTopMove(table, pyr, side, p, turns, free, emit);
  }
  if (sideOnly) return count;
  // draw.nonempty; turn.when + turn.limit: stock empty, waste not, a turn left; the order stays (turn.order)
  const step = chainStep(side, p, turns, rules.unlimitedTurns);
  if (step >= 0) {
    const next = stockNext(side, p);
    emit(next >= 0 ? DRAW : TURN, next >= 0 ? SIDE + next : -1, -1, pyr, side, step & 255, step >> 8);
    count++;
  }
  return count;
}

/** VARIANT RULE coverPair: a card x may also pair with a card y directly covering it, when y
 *  is free and is the only card still covering x. Returns the number of moves emitted. */
export function forEachCoverPair(table, pyr, side, p, turns, emit) {
  const values = table.pyrValues;
  let count = 0;
  for (let f = freeMask(pyr); f !== 0; f &= f - 1) {
    const y = 31 - Math.clz32(f & -f);
    for (let m = COVERS[y] & pyr; m !== 0; m &= m - 1) {
      const x = 31 - Math.clz32(m & -m);
      if ((pyr & COVERED_BY[x]) === 1 << y && values[x] + values[y] === TARGET_SUM) {
        emit(PAIR, x, y, pyr & ~(1 << x) & ~(1 << y), side, p, turns);
        count++;
      }
    }
  }
  return count;
}

/** VARIANT RULE stockTop: the stock's next card is available as well. It goes alone when it is
 *  a king, or pairs with a free pyramid card (free: freeMask(pyr)) or with the waste top (still
 *  at most one card from the waste). Taking it leaves the waste as it is. */
export function forEachStockTopMove(table, pyr, side, p, turns, free, emit) {
  const s = stockNext(side, p);
  if (s < 0) return 0;
  const { pyrValues, sideValues } = table;
  const v = sideValues[s];
  const side2 = side & ~(1 << s);
  if (v === KING_VALUE) { emit(KING, SIDE + s, -1, pyr, side2, p, turns); return 1; }
  let count = 0;
  for (let f = free; f !== 0; f &= f - 1) {
    const k = 31 - Math.clz32(f & -f);
    if (pyrValues[k] + v === TARGET_SUM) { emit(PAIR, k, SIDE + s, pyr & ~(1 << k), side2, p, turns); count++; }
  }
  const w = wasteTop(side, p);
  if (w >= 0 && sideValues[w] + v === TARGET_SUM) {
    const side3 = side2 & ~(1 << w);
    emit(PAIR, SIDE + w, SIDE + s, pyr, side3, wasteTop(side3, p) + 1, turns);
    count++;
  }
  return count;
}

/** Points earned by a move from pyr/turns (before) to pyr2 (after), removing `removed` cards. */
export function pointsForMove(pyr, pyr2, removed, turnsAfter) {
  const parts = pointsParts(pyr, pyr2, removed, turnsAfter);
  return parts.cards + parts.rows + parts.win + parts.turns;
}

/** The points of that move by what earns them (rules points.*): {cards, rows, win, turns}. */
export function pointsParts(pyr, pyr2, removed, turnsAfter) {
  let rows = 0;
  for (let r = 0; r < ROWS; r++) {
    if ((pyr & ROW_MASK[r]) !== 0 && (pyr2 & ROW_MASK[r]) === 0) rows += POINTS.rowCleared;
  }
  const won = pyr !== 0 && pyr2 === 0;
  return { cards: removed * POINTS.perCard, rows, win: won ? POINTS.win : 0, turns: won ? POINTS.perUnusedTurn * turnsAfter : 0 };
}

// ---------------------------------------------------------------- plain positions
/** The opening position of deal N; under rules with a number of turns (one-pass), that many. */
export function openingPosition(value, rules = STANDARD) {
  const d = dealLayout(value);
  const r = normaliseRules(rules);
  return withStatus({ pyramid: d.pyramid, stock: d.stock, waste: d.waste, turns_left: r.turns ?? TURNS_ALLOWED, points: 0, moves: 0 }, r);
}

/** Compact view of a plain position: {table, pyr, side, p, turns}. Validates the data. */
export function compile(position) {
  checkPosition(position);
  const sideCodes = position.waste.concat(position.stock);
  const table = makeTable(position.pyramid, sideCodes);
  let pyr = 0;
  position.pyramid.forEach((c, k) => { if (c) pyr |= 1 << k; });
  const side = sideCodes.length === 0 ? 0 : (2 ** sideCodes.length - 1) | 0;
  return { table, pyr, side, p: position.waste.length, turns: position.turns_left };
}

/** Plain position of a compact state; points and moves are carried by the caller. */
export function decompile(table, pyr, side, p, turns, points, moves, rules = STANDARD) {
  const pyramid = table.pyrCodes.map((c, k) => ((pyr >> k) & 1 ? c : null));
  const waste = [], stock = [];
  table.sideCodes.forEach((c, i) => {
    if ((side >> i) & 1) (i < p ? waste : stock).push(c);
  });
  return withStatus({ pyramid, stock, waste, turns_left: turns, points, moves }, rules);
}

function checkPosition(pos) {
  const bad = (what) => { throw new RuleError('notation', `invalid position: ${what}`); };
  if (!pos || typeof pos !== 'object') bad('not an object');
  if (!Array.isArray(pos.pyramid) || pos.pyramid.length !== PYRAMID_CARDS) bad(`pyramid must list ${PYRAMID_CARDS} entries`);
  if (!Array.isArray(pos.stock) || !Array.isArray(pos.waste)) bad('stock and waste must be lists');
  if (pos.stock.length + pos.waste.length > DECK_SIZE - PYRAMID_CARDS) bad('too many cards beside the pyramid');
  if (!Number.isInteger(pos.turns_left) || pos.turns_left < 0 || pos.turns_left > TURNS_ALLOWED) bad(`turns_left must be 0…${TURNS_ALLOWED}`);
  if (!Number.isInteger(pos.points) || !Number.isInteger(pos.moves)) bad('points and moves must be whole numbers');
  const seen = new Set();
  for (const c of [...pos.pyramid.filter((x) => x !== null), ...pos.stock, ...pos.waste]) {
    if (parseCard(c) !== c) bad(`'${c}' is not a canonical card code`);
    if (seen.has(c)) bad(`${c} appears twice`);
    seen.add(c);
  }
}

/** 'won' once the pyramid is empty, 'stuck' when no move is legal, else 'playing'. */
export function gameStatus(position, rules = STANDARD) {
  const { table, pyr, side, p, turns } = compile(position);
  return statusOf(table, pyr, side, p, turns, normaliseRules(rules));
}

// Under a variant's rules (normalised): strict is won only with every card gone, and the
// moves that are left are that variant's.
function statusOf(table, pyr, side, p, turns, rules = STANDARD) {
  if (isWon(pyr, side, rules)) return 'won';
  return forEachMove(table, pyr, side, p, turns, () => {}, false, rules) === 0 ? 'stuck' : 'playing';
}

function withStatus(pos, rules = STANDARD) {
  const c = compileUnchecked(pos);
  pos.status = statusOf(c.table, c.pyr, c.side, c.p, c.turns, rules);
  return pos;
}

function compileUnchecked(pos) {
  const sideCodes = pos.waste.concat(pos.stock);
  let pyr = 0;
  pos.pyramid.forEach((c, k) => { if (c) pyr |= 1 << k; });
  return { table: makeTable(pos.pyramid, sideCodes), pyr, side: (2 ** sideCodes.length - 1) | 0, p: pos.waste.length, turns: pos.turns_left };
}

// ---------------------------------------------------------------- moves as notation
/** Parse 'pair 7H 6S' / 'king KD' / 'draw' / 'turn' → {kind, cards}. Throws RuleError('notation'). */
export function parseMove(text) {
  const refuse = (why) => new RuleError('notation', `${shown(text)} is not a move: ${why}`);
  if (typeof text !== 'string') throw refuse('a move is text like \'pair 7H 6S\'');
  if (text.length > MAX_MOVE_TEXT) throw refuse(`longer than ${MAX_MOVE_TEXT} characters`);
  if (!PLAIN_TEXT.test(text)) throw refuse(NOT_PLAIN);
  const words = trimmed(text).split(WHITESPACE);
  const kind = words[0].toLowerCase();
  const arity = Object.hasOwn(MOVE_ARITY, kind) ? MOVE_ARITY[kind] : undefined;
  if (arity === undefined) throw refuse('use pair C1 C2, king C, draw or turn');
  if (words.length - 1 !== arity) throw refuse(`${kind} takes ${arity} card${arity === 1 ? '' : 's'}`);
  const cards = words.slice(1).map(parseCard);
  if (arity === 2 && cards[0] === cards[1]) throw refuse('it names the same card twice');
  return { kind, cards };
}

const MOVE_ARITY = Object.freeze({ pair: 2, king: 1, draw: 0, turn: 0 });

/** Canonical notation: a pair names the card with the higher value first. */
export function formatMove(move) {
  if (move.kind === 'pair') {
    const [a, b] = move.cards;
    return cardValue(a) >= cardValue(b) ? `pair ${a} ${b}` : `pair ${b} ${a}`;
  }
  return move.kind === 'king' ? `king ${move.cards[0]}` : move.kind;
}

function codeAt(table, i) {
  return i >= SIDE ? table.sideCodes[i - SIDE] : table.pyrCodes[i];
}

function notationOf(table, kind, a, b) {
  if (kind === PAIR) return formatMove({ kind: 'pair', cards: [codeAt(table, a), codeAt(table, b)] });
  if (kind === KING) return `king ${codeAt(table, a)}`;
  return kind === DRAW ? 'draw' : 'turn';
}

/** Compact move → canonical notation. */
export function moveNotation(table, kind, a, b) {
  return notationOf(table, kind, a, b);
}

/** Every legal move of a position (under the rules options, default the app's), as canonical notation strings. */
export function legalMoves(position, rules = STANDARD) {
  const r = rules === STANDARD ? rules : normaliseRules(rules);
  const { table, pyr, side, p, turns } = compile(position);
  const moves = [];
  forEachMove(table, pyr, side, p, turns, (kind, a, b) => moves.push(notationOf(table, kind, a, b)), false, r);
  return moves;
}

/** The position after a move (the old one is untouched), or a RuleError naming the broken rule.
 *  rules: the variants' options (normaliseRules); a move they refuse is refused with rule 'variant'. */
export function applyMove(position, moveText, rules = STANDARD) {
  const r = rules === STANDARD ? rules : normaliseRules(rules);
  const c = compile(position);
  const move = typeof moveText === 'string' ? parseMove(moveText) : moveText;
  const wanted = formatMove(move);
  let result = null;
  forEachMove(c.table, c.pyr, c.side, c.p, c.turns, (kind, a, b, pyr2, side2, p2, turns2) => {
    if (result || notationOf(c.table, kind, a, b) !== wanted) return;
    const removed = bitCount(c.pyr & ~pyr2) + bitCount(c.side & ~side2);
    const points = position.points + pointsForMove(c.pyr, pyr2, removed, turns2);
    result = decompile(c.table, pyr2, side2, p2, turns2, points, position.moves + 1, r);
  }, false, r);
  if (!result) {
    if (r.standard) throw explainIllegal(position, move, wanted);
    throw new RuleError('variant', `${wanted}: not a legal move under these rules`);
  }
  return result;
}

// Why a move is not among the legal ones, in the order docs/positions.md lists. This explains
// a refusal after the fact; it never decides legality (forEachMove does).
function explainIllegal(pos, move, text) {
  const refuse = (rule, why) => new RuleError(rule, `${text}: ${why} (rule ${rule})`);
  if (pos.pyramid.every((c) => c === null)) return refuse('end.win', 'the game is already won');
  const where = (code) => {
    const k = pos.pyramid.indexOf(code);
    if (k >= 0) return { in: 'pyramid', k };
    if (pos.waste.includes(code)) return { in: 'waste', top: pos.waste[pos.waste.length - 1] === code };
    if (pos.stock.includes(code)) return { in: 'stock' };
    return null;
  };
  const places = move.cards.map(where);
  move.cards.forEach((code, i) => {
    if (!places[i]) throw refuse('removed.gone', `${code} is not in play (removed, or not in this deal)`);
  });
  if (move.kind === 'pair' && places.every((w) => w.in === 'waste')) {
    throw refuse('pair.one-waste', 'at most one card of a pair may come from the waste');
  }
  move.cards.forEach((code, i) => {
    const w = places[i];
    if (w.in === 'stock') throw refuse('free.covered', `${code} is in the stock, not available`);
    if (w.in === 'waste' && !w.top) throw refuse('free.covered', `${code} is under the waste top, not available`);
    if (w.in === 'pyramid') {
      const { row } = rowAndPlace(w.k);
      const covers = row < ROWS ? [pos.pyramid[w.k + row], pos.pyramid[w.k + row + 1]].filter(Boolean) : [];
      if (covers.length) throw refuse('free.covered', `${code} is covered by ${covers.join(' and ')}`);
    }
  });
  if (move.kind === 'king') return refuse('king.alone', `${move.cards[0]} is not a king`);
  if (move.kind === 'pair') {
    if (move.cards.some((c) => cardValue(c) === KING_VALUE)) return refuse('king.alone', 'a king is removed alone, never in a pair');
    const sum = cardValue(move.cards[0]) + cardValue(move.cards[1]);
    return refuse('pair.thirteen', `the values add up to ${sum}, not ${TARGET_SUM}`);
  }
  if (move.kind === 'draw') return refuse('draw.nonempty', 'the stock is empty');
  if (pos.stock.length > 0) return refuse('turn.when', 'the stock is not empty yet');
  if (pos.waste.length === 0) return refuse('turn.when', 'the waste is empty');
  return refuse('turn.limit', `no turns left (at most ${TURNS_ALLOWED} per game)`);
}

// ---------------------------------------------------------------- a game with undo
/** A game: the deal number, its moves and every position so far (plain data, JSON-safe).
 *  rules: a variant's options (VARIANTS); the game keeps them, and every move is played by them. */
export function newGame(value, rules = {}) {
  const deal = parseDealNumber(value);
  normaliseRules(rules);
  return { deal, moves: [], positions: [openingPosition(deal, rules)], rules };
}

export function currentPosition(game) {
  return game.positions[game.positions.length - 1];
}

/** The game after one more move (rules as applyMove); the old game is untouched. */
export function playMove(game, moveText) {
  const rules = game.rules || {};
  const next = applyMove(currentPosition(game), moveText, normaliseRules(rules));
  const move = typeof moveText === 'string' ? formatMove(parseMove(moveText)) : formatMove(moveText);
  return { deal: game.deal, moves: [...game.moves, move], positions: [...game.positions, next], rules };
}

/** The game with its last move taken back: moves and points as they were (rule moves.undo). */
export function undoMove(game) {
  if (game.moves.length === 0) throw new RuleError('moves.undo', 'undo: there is no move to take back (rule moves.undo)');
  return { deal: game.deal, moves: game.moves.slice(0, -1), positions: game.positions.slice(0, -1), rules: game.rules || {} };
}

/**
 * A game's points by what earned them, {cards, rows, win, turns, total}: the same pointsParts
 * the moves were scored with, summed over the game's positions (total equals the last one's points).
 */
export function scoreBreakdown(game) {
  const sum = { cards: 0, rows: 0, win: 0, turns: 0 };
  for (let i = 1; i < game.positions.length; i++) {
    const a = compileUnchecked(game.positions[i - 1]);
    const b = compileUnchecked(game.positions[i]);
    const removed = bitCount(a.pyr & ~b.pyr) + a.table.sideCodes.length - b.table.sideCodes.length;
    const parts = pointsParts(a.pyr, b.pyr, removed, b.turns);
    for (const k of Object.keys(sum)) sum[k] += parts[k];
  }
  return { ...sum, total: sum.cards + sum.rows + sum.win + sum.turns };
}

/** Replays a list of moves from deal N; throws RuleError with .moveNumber (1-based) on the first illegal one. */
export function replay(value, moves, rules = {}) {
  let game = newGame(value, rules);
  moves.forEach((m, i) => {
    try {
      game = m === 'undo' ? undoMove(game) : playMove(game, m);
    } catch (e) {
      if (e instanceof RuleError) e.moveNumber = i + 1;
      throw e;
    }
  });
  return game;
}

// ---------------------------------------------------------------- the board's places, for the page
// The page (app/ui/) names the board's places 'p0'…'p27' (pyramid index k), 'waste' and 'stock', and
// asks these functions rather than working out a rule itself (tests/test_layout.py holds it to that).

/** Is this card a king (removed alone, rule king.alone)? */
export function isKing(code) {
  return cardValue(code) === KING_VALUE;
}

/** Do the two cards' values make a pair (rule pair.thirteen)? A king pairs with nothing (rule
 *  king.alone): any sum with its 13 is over 13. Only the values: whether both may be chosen is
 *  isAvailable's. */
export function canPair(a, b) {
  return pairSum(a, b) === TARGET_SUM;
}

/** The two cards' values added up, as rule pair.thirteen adds them (a refusal shows the sum). */
export function pairSum(a, b) {
  return cardValue(a) + cardValue(b);
}

/** The card in play at a place of the board, or null: the waste top, a pyramid card still there,
 *  and the stock's top card where the rules put it in play (VARIANT RULE stockTop). */
export function cardAt(position, place, rules = STANDARD) {
  if (place === 'waste') return position.waste[position.waste.length - 1] || null;
  if (place === 'stock') return normaliseRules(rules).stockTop ? position.stock[0] || null : null;
  return position.pyramid[Number(place.slice(1))] || null; // 'p0'…'p27'; any other name is no place: null
}

/** The place of a card in play (cardAt's places: the waste top first, then the pyramid, then the
 *  stock's top card under stockTop), or null. */
export function placeOf(position, code, rules = STANDARD) {
  if (position.waste[position.waste.length - 1] === code) return 'waste';
  const k = position.pyramid.indexOf(code);
  if (k >= 0) return `p${k}`;
  return cardAt(position, 'stock', rules) === code ? 'stock' : null;
}

/** May the card at `place` be chosen (rule free.covered)? The waste top and, under stockTop, the
 *  stock's top card; a pyramid card with nothing on it, or (VARIANT RULE coverPair) with one card
 *  on it, itself free (the one card it may then pair with). */
export function isAvailable(position, place, rules = STANDARD) {
  if (place === 'waste' || place === 'stock') return cardAt(position, place, rules) !== null;
  const k = Number(place.slice(1));
  if (!position.pyramid[k]) return false;
  const { pyr } = compile(position);
  const free = freeMask(pyr);
  if (((free >> k) & 1) === 1) return true;
  if (!normaliseRules(rules).coverPair) return false;
  const on = pyr & COVERED_BY[k];
  return (on & (on - 1)) === 0 && (free & on) === on;
}

/** The rows (1-based) a move from `before` to `after` emptied (each earns points, POINTS.rowCleared). */
export function emptiedRows(before, after) {
  const emptied = [];
  for (let r = 1, k = 0; r <= ROWS; k += r, r++) {
    const row = (pos) => pos.pyramid.slice(k, k + r);
    if (row(before).some(Boolean) && !row(after).some(Boolean)) emptied.push(r);
  }
  return emptied;
}
