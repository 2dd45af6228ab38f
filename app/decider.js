// The app's decider: can this position still be won? A different question from the solver's
// (app/solver.js finds the shortest game and must see every position up to that depth): here
// a depth-first search stops at the first win, remembers every position it has entered in a
// typed-array hash set, and cuts branches that are provably lost. It backs the survey of
// random deals (verify/survey.py) and the in-browser Hint. No DOM access.
//
// The standard rules come from engine.js's forEachMove, unchanged. The variants of the survey
// (strict win, other numbers of passes, a playable stock top, pairing with the covering card)
// are options of this module only; where a variant adds moves, the extra move generation is
// below, marked VARIANT RULE.

import {
  compile, forEachMove, freeMask, wasteTop, stockNext, moveNotation, rowAndPlace, openingPosition,
  KING, PAIR, SIDE, PYRAMID_CARDS, ROWS, KING_VALUE, TARGET_SUM,
} from './engine.js';

// ---------------------------------------------------------------- rules options
// strictWin      all 52 cards must go, not only the 28 of the pyramid
// turns          turns for a new deal (decideDeal): 2 by the rules, 0 = one pass only
// unlimitedTurns the waste may be turned back as often as wanted
// stockTop       the stock's top card is face up and available too
// coverPair      a card may pair with the card directly covering it (when that one is free
//                and is the only card still covering it)
export const VARIANTS = Object.freeze({
  standard: Object.freeze({}),
  strict: Object.freeze({ strictWin: true }),
  'one-pass': Object.freeze({ turns: 0 }),
  unlimited: Object.freeze({ unlimitedTurns: true }),
  'stock-top': Object.freeze({ stockTop: true }),
  'cover-pair': Object.freeze({ coverPair: true }),
});

function normaliseRules(rules) {
  const r = {
    strictWin: !!rules.strictWin, turns: rules.turns ?? null, unlimitedTurns: !!rules.unlimitedTurns,
    stockTop: !!rules.stockTop, coverPair: !!rules.coverPair,
  };
  // With the pyramid gone a strict game goes on beside it; that end game is only written out
  // for the standard way of reaching the side cards (see strictFinish).
  if (r.strictWin && r.stockTop) throw new Error('rules: strictWin cannot be combined with stockTop');
  return r;
}

// ---------------------------------------------------------------- pyramid relations
// COVERED_BY[k]: the two cards directly covering k. COVERS[k]: the cards k directly covers.
// RELATED[k]: every card in a covering relation with k, either way and at any distance:
// one of the two is only ever free once the other is gone, so they can never be a pair.
// RELATED_COVER_PAIR[k]: the same without the direct neighbours, which the cover-pair variant
// allows to pair (a card further away still has a card in between that must go first, and
// that card can only go once the far one has gone — through it or under it).
const COVERED_BY = new Int32Array(PYRAMID_CARDS);
const COVERS = new Int32Array(PYRAMID_CARDS);
const RELATED = new Int32Array(PYRAMID_CARDS);
const RELATED_COVER_PAIR = new Int32Array(PYRAMID_CARDS);
{
  const above = new Int32Array(PYRAMID_CARDS); // every card covering k, transitively
  for (let k = PYRAMID_CARDS - 1; k >= 0; k--) {
    const { row } = rowAndPlace(k);
    if (row < ROWS) {
      COVERED_BY[k] = (1 << (k + row)) | (1 << (k + row + 1));
      COVERS[k + row] |= 1 << k;
      COVERS[k + row + 1] |= 1 << k;
      above[k] = COVERED_BY[k] | above[k + row] | above[k + row + 1];
    }
  }
  for (let k = 0; k < PYRAMID_CARDS; k++) {
    RELATED[k] |= above[k];
    for (let j = 0; j < PYRAMID_CARDS; j++) if (above[j] & (1 << k)) RELATED[k] |= 1 << j;
    RELATED_COVER_PAIR[k] = RELATED[k] & ~COVERED_BY[k] & ~COVERS[k];
  }
}

// ---------------------------------------------------------------- the set of positions seen
// Keys as in solver.js: hi = pyramid mask | turns << 28 (never 0: a position with an empty
// pyramid is final and never stored), lo = side mask | p << 24. Open addressing, at most half
// full; 8 bytes a slot.
class SeenSet {
  constructor(bits = 14) {
    this.hi = new Int32Array(1 << bits);
    this.lo = new Int32Array(1 << bits);
    this.mask = (1 << bits) - 1;
    this.size = 0;
  }

  /** Adds the key; false when it was there already. */
  add(hi, lo) {
    let h = slotOf(hi, lo) & this.mask;
    for (;;) {
      const at = this.hi[h];
      if (at === 0) break;
      if (at === hi && this.lo[h] === lo) return false;
      h = (h + 1) & this.mask;
    }
    this.hi[h] = hi;
    this.lo[h] = lo;
    if (++this.size * 2 > this.mask) this.grow();
    return true;
  }

  has(hi, lo) {
    let h = slotOf(hi, lo) & this.mask;
    for (;;) {
      const at = this.hi[h];
      if (at === 0) return false;
      if (at === hi && this.lo[h] === lo) return true;
      h = (h + 1) & this.mask;
    }
  }

  grow() {
    const { hi, lo } = this;
    const size = hi.length * 2;
    this.hi = new Int32Array(size);
    this.lo = new Int32Array(size);
    this.mask = size - 1;
    for (let i = 0; i < hi.length; i++) {
      if (hi[i] === 0) continue;
      let h = slotOf(hi[i], lo[i]) & this.mask;
      while (this.hi[h] !== 0) h = (h + 1) & this.mask;
      this.hi[h] = hi[i];
      this.lo[h] = lo[i];
    }
  }
}

function slotOf(hi, lo) {
  let h = Math.imul(hi ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(lo ^ 0x7f4a7c15, 0xc2b2ae35);
  h ^= h >>> 15;
  h = Math.imul(h, 0x27d4eb2f);
  return h ^ (h >>> 13);
}

// ---------------------------------------------------------------- the search
// Children of the positions on the current path sit in one growing buffer, STRIDE ints each.
const STRIDE = 7; // kind, a, b, pyr, side, p, turns
const UNLIMITED = 1; // the turns field under unlimitedTurns: always one left, never spent

/**
 * Can the position (docs/positions.md) be won? Options:
 *   maxNodes  stop with 'undecided' after entering this many positions
 *   rules     the rules options above (default: the app's rules)
 *   prune     {kingFirst, deadCards} both true by default; false gives the plain search (tests)
 * Returns {result: 'won' | 'lost' | 'undecided', line, nodes}: line is a winning game from the
 * position in canonical notation when won, else null; nodes counts the positions entered.
 */
export function decide(position, { maxNodes = Infinity, rules = {}, prune = {} } = {}) {
  const r = normaliseRules(rules);
  const { table, pyr, side, p, turns } = compile(position);
  return new Search(table, r, prune).run(pyr, side, p, r.unlimitedTurns ? UNLIMITED : turns, maxNodes);
}

/** decide() for the opening of deal n; rules.turns sets the turns of the new game. */
export function decideDeal(n, options = {}) {
  const position = openingPosition(n);
  const turns = options.rules?.turns;
  if (turns !== undefined && turns !== null) position.turns_left = turns;
  return decide(position, options);
}

class Search {
  constructor(table, rules, { kingFirst = true, deadCards = true } = {}) {
    this.table = table;
    this.rules = rules;
    this.kingFirst = kingFirst;
    this.deadCards = deadCards;
    this.related = rules.coverPair ? RELATED_COVER_PAIR : RELATED;
    // Cards of each value: pyramid places and side indices, as bit masks.
    this.pyrOfValue = new Int32Array(KING_VALUE + 1);
    this.sideOfValue = new Int32Array(KING_VALUE + 1);
    table.pyrValues.forEach((v, k) => { this.pyrOfValue[v] |= 1 << k; });
    table.sideValues.forEach((v, i) => { this.sideOfValue[v] |= 1 << i; });
    this.seen = new SeenSet();
    this.buf = new Int32Array(STRIDE * 1024);
    this.end = 0; // used length of buf
    this.win = -1; // buffer offset of a winning child, once found
    this.emit = this.push.bind(this);
  }

  run(pyr, side, p, turns, maxNodes) {
    if (this.isWon(pyr, side)) return { result: 'won', line: this.finish([], pyr, side, p), nodes: 0 };
    if (pyr === 0 || this.hasDeadCard(pyr, side, ALL_VALUES)) return { result: 'lost', line: null, nodes: 0 };
    // The path: for each depth, the position, the range of its children and the next to try.
    const path = [];
    let nodes = 1;
    this.seen.add((pyr | (turns << 28)) | 0, side | (p << 24));
    path.push({ at: -1, from: this.end, next: this.end, to: this.expand(pyr, side, p, turns) });
    while (path.length > 0) {
      if (this.win >= 0) return { result: 'won', line: this.lineTo(path, this.win), nodes };
      const top = path[path.length - 1];
      if (top.next === top.to) { // every child tried: lost from here
        this.end = top.from;
        path.pop();
        continue;
      }
      const c = top.next;
      top.next += STRIDE;
      const b = this.buf;
      const cPyr = b[c + 3], cSide = b[c + 4], cP = b[c + 5], cTurns = b[c + 6];
      if (!this.seen.add((cPyr | (cTurns << 28)) | 0, cSide | (cP << 24))) continue;
      if (++nodes > maxNodes) return { result: 'undecided', line: null, nodes: nodes - 1 };
      const from = this.end;
      path.push({ at: c, from, next: from, to: this.expand(cPyr, cSide, cP, cTurns) });
    }
    return { result: 'lost', line: null, nodes };
  }

  // Appends the children of a position worth trying to buf; returns the end offset.
  expand(pyr, side, p, turns) {
    this.parent = pyr; this.parentSide = side;
    const kingFree = (freeMask(pyr) & this.pyrOfValue[KING_VALUE]) !== 0;
    // PRUNING kingFirst — a free pyramid king is removed at once (forEachMove's kingFirst).
    // Exact for "can it be won": a win must remove that king (it is a pyramid card); moving its
    // removal to the front keeps every other move legal (it is in no other move, removing it only
    // frees cards, and it never touches stock or waste), and the other way round any win after
    // removing it is a win from here. This holds in every variant below as well.
    forEachMove(this.table, pyr, side, p, this.rules.unlimitedTurns ? UNLIMITED : turns, this.emit, this.kingFirst);
    if (!(this.kingFirst && kingFree)) {
      if (this.rules.stockTop) this.stockTopMoves(pyr, side, p, turns);
      if (this.rules.coverPair) this.coverPairMoves(pyr, side, p, turns);
    }
    return this.end;
  }

  // emit() of forEachMove: keep a child unless already seen or provably lost.
  push(kind, a, b, pyr, side, p, turns) {
    if (this.win >= 0) return;
    if (this.rules.unlimitedTurns) turns = UNLIMITED;
    const won = this.isWon(pyr, side);
    if (!won) {
      if (pyr === 0) return; // strict: the pyramid is gone but a card beside it can never go
      if (this.seen.has((pyr | (turns << 28)) | 0, side | (p << 24))) return;
      // PRUNING deadCards — a position is lost once some pyramid card can no longer get a
      // partner: every card of the complementary value is gone, or is a pyramid card in a
      // covering relation with it (RELATED). Exact: a non-king pyramid card only ever goes in a
      // pair, and both cards of a pair are available at the same time, which a card and one
      // covering it (at any distance) never are. Only the values whose partners this move
      // removed can have changed, so only those are looked at.
      if (kind === PAIR && this.deadCards) {
        const removedPyr = this.parent & ~pyr, removedSide = this.parentSide & ~side;
        if (this.hasDeadCard(pyr, side, this.valuesOf(removedPyr, removedSide))) return;
      }
    }
    if (this.end + STRIDE > this.buf.length) {
      const bigger = new Int32Array(this.buf.length * 2);
      bigger.set(this.buf);
      this.buf = bigger;
    }
    const o = this.end;
    const buf = this.buf;
    buf[o] = kind; buf[o + 1] = a; buf[o + 2] = b;
    buf[o + 3] = pyr; buf[o + 4] = side; buf[o + 5] = p; buf[o + 6] = turns;
    this.end += STRIDE;
    if (won) this.win = o;
  }

  isWon(pyr, side) {
    if (pyr !== 0) return false;
    // strict: with the pyramid gone, only a king can still go (a pair needs a pyramid card,
    // as at most one card of it comes from the waste), and kings left beside the pyramid can
    // always go: each is taken off the waste top as it comes up (strictFinish).
    return !this.rules.strictWin || (side & ~this.sideOfValue[KING_VALUE]) === 0;
  }

  // Bit set of the values (1 << v) of the removed cards.
  valuesOf(removedPyr, removedSide) {
    let values = 0;
    const pv = this.table.pyrValues, sv = this.table.sideValues;
    for (let m = removedPyr; m !== 0; m &= m - 1) values |= 1 << pv[31 - Math.clz32(m & -m)];
    for (let m = removedSide; m !== 0; m &= m - 1) values |= 1 << sv[31 - Math.clz32(m & -m)];
    return values;
  }

  // Is there a card whose partners (values 13 - v for v in `values`) are all out of reach?
  hasDeadCard(pyr, side, values) {
    if (!this.deadCards) return false;
    for (let v = 1; v < KING_VALUE; v++) {
      if (!(values & (1 << v))) continue;
      const w = TARGET_SUM - v; // the cards of value w lost a partner of value v
      const partnersPyr = pyr & this.pyrOfValue[v];
      if (side & this.sideOfValue[v]) continue; // a side card is never related to a pyramid card
      for (let m = pyr & this.pyrOfValue[w]; m !== 0; m &= m - 1) {
        const k = 31 - Math.clz32(m & -m);
        if ((partnersPyr & ~this.related[k]) === 0) return true;
      }
      // strict: a card beside the pyramid must go too, and its partner must be a pyramid card
      if (this.rules.strictWin && (side & this.sideOfValue[w]) !== 0 && partnersPyr === 0) return true;
    }
    return false;
  }

  // VARIANT RULE stockTop: the stock's next card is available as well. It goes alone when it
  // is a king, or pairs with a free pyramid card or with the waste top (still at most one card
  // from the waste). Taking it leaves the waste as it is.
  stockTopMoves(pyr, side, p, turns) {
    const s = stockNext(side, p);
    if (s < 0) return;
    const { pyrValues, sideValues } = this.table;
    const v = sideValues[s];
    const side2 = side & ~(1 << s);
    if (v === KING_VALUE) { this.push(KING, SIDE + s, -1, pyr, side2, p, turns); return; }
    for (let f = freeMask(pyr); f !== 0; f &= f - 1) {
      const k = 31 - Math.clz32(f & -f);
      if (pyrValues[k] + v === TARGET_SUM) this.push(PAIR, k, SIDE + s, pyr & ~(1 << k), side2, p, turns);
    }
    const t = wasteTop(side, p);
    if (t >= 0 && sideValues[t] + v === TARGET_SUM) {
      const side3 = side2 & ~(1 << t);
      this.push(PAIR, SIDE + t, SIDE + s, pyr, side3, wasteTop(side3, p) + 1, turns);
    }
  }

  // VARIANT RULE coverPair: a card x may also pair with a card y directly covering it, when y
  // is free and is the only card still covering x.
  coverPairMoves(pyr, side, p, turns) {
    const values = this.table.pyrValues;
    for (let f = freeMask(pyr); f !== 0; f &= f - 1) {
      const y = 31 - Math.clz32(f & -f);
      for (let m = COVERS[y] & pyr; m !== 0; m &= m - 1) {
        const x = 31 - Math.clz32(m & -m);
        if ((pyr & COVERED_BY[x]) === 1 << y && values[x] + values[y] === TARGET_SUM) {
          this.push(PAIR, x, y, pyr & ~(1 << x) & ~(1 << y), side, p, turns);
        }
      }
    }
  }

  // The winning game: the moves into each position of the path, then the winning move.
  lineTo(path, win) {
    const line = [];
    const b = this.buf;
    for (const step of path) if (step.at >= 0) line.push(moveNotation(this.table, b[step.at], b[step.at + 1], b[step.at + 2]));
    line.push(moveNotation(this.table, b[win], b[win + 1], b[win + 2]));
    return this.finish(line, b[win + 3], b[win + 4], b[win + 5]);
  }

  // strict: after the pyramid, the kings left beside it: off the waste top, then draw and take.
  finish(line, pyr, side, p) {
    if (!this.rules.strictWin) return line;
    const codes = this.table.sideCodes;
    for (let t = wasteTop(side, p); t >= 0; t = wasteTop(side, p)) {
      line.push(`king ${codes[t]}`);
      side &= ~(1 << t);
    }
    for (let s = stockNext(side, p); s >= 0; s = stockNext(side, p)) {
      line.push('draw', `king ${codes[s]}`);
      side &= ~(1 << s);
      p = s + 1;
    }
    return line;
  }
}

const ALL_VALUES = 0x3ffe; // 1 << v for v = 1 … 13
