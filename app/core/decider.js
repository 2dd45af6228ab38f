// The app's decider: can this position still be won? A different question from the solver's
// (app/core/solver.js finds the shortest game and must see every position up to that depth): here
// a depth-first search stops at the first win, walks card sets rather than positions,
// remembers them in a typed-array hash table, and cuts branches that are provably lost. It
// backs the survey of random deals (verify/survey/) and the in-browser Hint. No DOM access.
//
// The standard rules come from engine.js's forEachMove, unchanged. The variants of the survey
// (strict win, other numbers of passes, a playable stock top, pairing with the covering card)
// are options of this module only; where a variant adds moves, the extra move generation is
// below, marked VARIANT RULE.

import {
  compile, forEachMove, freeMask, wasteTop, stockNext, moveNotation, rowAndPlace, openingPosition,
  chainStep, normaliseRules, forEachCoverPair, forEachStockTopMove, VARIANTS,
  KING, PAIR, SIDE, PYRAMID_CARDS, ROWS, KING_VALUE, TARGET_SUM,
} from './engine.js';

// ---------------------------------------------------------------- rules options
// The variants' options (strictWin, turns, unlimitedTurns, stockTop, coverPair) and their extra
// moves live in engine.js (VARIANTS, normaliseRules, forEachCoverPair, forEachStockTopMove).
export { VARIANTS };

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

// ---------------------------------------------------------------- the search, by card sets
// Between two removals a game only draws and turns, and those never change which cards are
// still there. So the search walks card sets — the pyramid mask and the side mask — and
// treats all the positions of one card set together. For one card set the positions are
// ordered by what can still follow: the stock is drawn in a fixed order and a turn starts it
// again (turn.order), so from (turns t, waste boundary p) draws and turns reach exactly the
// positions with fewer turns, or the same turns and a later boundary. RANK encodes that
// order; a position reaches, by draws and turns alone, every position of its card set of lower
// rank, so whatever can be won from one of those can be won from it.
//
// PRUNING card sets — a card set entered at rank r stands for all its positions of rank ≤ r.
// Its children are the removals possible at any of them; a removal that can be made at
// several ranks is kept only at the highest (the result is the same card set at a higher rank,
// which reaches the others). When a card set comes up again at a rank no higher than one
// already entered, it is skipped. Exact: every move removes a card, so a card set is never
// its own descendant; the earlier entry is therefore finished, and was lost (the search stops
// at the first win), and it could reach everything the new one can.
const rank = (t, p) => t * 32 + 31 - p; // p ≤ 24, so rank ≥ 7 and 0 can mean "not entered"

// Card sets entered, with the highest rank each was entered at: open addressing, at most half
// full, one slot = 2 ints in a row — pyramid mask | search stamp << 28, and side mask | rank
// << 24 (ranks < 128) — so a probe touches one cache line and 4 M card sets fit in 64 MB. A
// slot belongs to the current search only when it carries its stamp, so one table serves
// search after search without being allocated again (the survey decides thousands of deals
// per process); it is cleared once every 15 searches, and a very large one is let go.
const KEEP_SLOTS = 1 << 22; // 32 MB
const SIDE_BITS = 0xffffff;
let spare = null;

class CardSets {
  static forSearch() {
    const sets = spare ?? new CardSets(12);
    spare = null;
    sets.size = 0;
    if (++sets.stamp === 16) { sets.slots.fill(0); sets.stamp = 1; }
    return sets;
  }

  constructor(bits) {
    this.slots = new Int32Array(2 << bits);
    this.mask = (1 << bits) - 1;
    this.size = 0;
    this.stamp = 0;
  }

  release() {
    if (this.mask < KEEP_SLOTS) spare = this;
  }

  /** Records rank r for the card set; returns the rank it had (0 when new). */
  raise(pyr, side, r) {
    const slots = this.slots, stamp = this.stamp, first = pyr | (stamp << 28);
    let h = slotOf(pyr, side) & this.mask;
    for (;;) {
      const at = slots[h << 1];
      if (at >>> 28 !== stamp) break;
      if (at === first && (slots[(h << 1) + 1] & SIDE_BITS) === side) {
        const before = slots[(h << 1) + 1] >>> 24;
        if (r > before) slots[(h << 1) + 1] = side | (r << 24);
        return before;
      }
      h = (h + 1) & this.mask;
    }
    slots[h << 1] = first;
    slots[(h << 1) + 1] = side | (r << 24);
    if (++this.size * 2 > this.mask) this.grow();
    return 0;
  }

  /** The rank the card set was entered at, 0 when never. */
  rankOf(pyr, side) {
    const slots = this.slots, stamp = this.stamp, first = pyr | (stamp << 28);
    let h = slotOf(pyr, side) & this.mask;
    for (;;) {
      const at = slots[h << 1];
      if (at >>> 28 !== stamp) return 0;
      if (at === first && (slots[(h << 1) + 1] & SIDE_BITS) === side) return slots[(h << 1) + 1] >>> 24;
      h = (h + 1) & this.mask;
    }
  }

  grow() {
    const old = this.slots, stamp = this.stamp;
    this.slots = new Int32Array(old.length * 2);
    this.mask = this.mask * 2 + 1;
    for (let i = 0; i < old.length; i += 2) {
      if (old[i] >>> 28 !== stamp) continue;
      let h = slotOf(old[i] & 0xfffffff, old[i + 1] & SIDE_BITS) & this.mask;
      while (this.slots[h << 1] >>> 28 === stamp) h = (h + 1) & this.mask;
      this.slots[h << 1] = old[i];
      this.slots[(h << 1) + 1] = old[i + 1];
    }
  }
}

function slotOf(hi, lo) {
  let h = Math.imul(hi ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(lo ^ 0x7f4a7c15, 0xc2b2ae35);
  h ^= h >>> 15;
  h = Math.imul(h, 0x27d4eb2f);
  return h ^ (h >>> 13);
}

// Children of the card sets on the current path sit in one growing buffer, STRIDE ints each:
// the move (kind, a, b), the position it leads to (pyr, side, p, t) and where in the chain of
// draws and turns it is made (mp, mt).
const STRIDE = 9;
const MAX_DEPTH = 64; // every step removes a card: at most 28 + 24 steps
const UNLIMITED = 1; // the turns field under unlimitedTurns: one left, never spent

/**
 * Can the position (docs/positions.md) be won? Options:
 *   maxNodes  stop with 'undecided' after entering this many card sets
 *   rules     the rules options above (default: the app's rules)
 *   prune     {kingFirst, deadCards, sideKings, forcedPairs}: all true by default; false turns
 *             one off (tests)
 *   firstChildren  room for this many children before the buffer first grows (1024; tests
 *             start it at 1, since no search of theirs fills 1024)
 * Returns {result: 'won' | 'lost' | 'undecided', line, nodes}: line is a winning game from the
 * position in canonical notation when won, else null; nodes counts the card sets entered.
 */
export function decide(position, { maxNodes = Infinity, rules = {}, prune = {}, firstChildren = 1024 } = {}) {
  const r = normaliseRules(rules);
  const { table, pyr, side, p, turns } = compile(position);
  const search = new Search(table, r, prune, firstChildren);
  try {
    return search.run(pyr, side, p, r.unlimitedTurns ? UNLIMITED : turns, maxNodes);
  } finally {
    search.seen.release();
  }
}

/** decide() for the opening of deal n; rules.turns sets the turns of the new game. */
export function decideDeal(n, options = {}) {
  const position = openingPosition(n);
  const turns = options.rules?.turns;
  if (turns !== undefined && turns !== null) position.turns_left = turns;
  return decide(position, options);
}

class Search {
  constructor(table, rules, { kingFirst = true, deadCards = true, sideKings = true, forcedPairs = true } = {}, firstChildren = 1024) {
    this.table = table;
    this.rules = rules;
    this.kingFirst = kingFirst;
    this.deadCards = deadCards;
    this.sideKings = sideKings;
    this.forcedPairs = forcedPairs;
    this.soleFor = new Int8Array(32); // see soleSidePartners
    this.mustPyr = new Int32Array(8); this.mustSide = new Int32Array(8); // see partnersLeft
    this.related = rules.coverPair ? RELATED_COVER_PAIR : RELATED;
    // Cards of each value: pyramid places and side indices, as bit masks.
    this.pyrOfValue = new Int32Array(KING_VALUE + 1);
    this.sideOfValue = new Int32Array(KING_VALUE + 1);
    table.pyrValues.forEach((v, k) => { this.pyrOfValue[v] |= 1 << k; });
    table.sideValues.forEach((v, i) => { this.sideOfValue[v] |= 1 << i; });
    this.seen = CardSets.forSearch();
    this.buf = new Int32Array(STRIDE * firstChildren);
    this.end = 0; // used length of buf
    this.win = -1; // buffer offset of a winning child, once found
    // The path: per depth the position entered, its range of children and the next to try.
    this.fP = new Int32Array(MAX_DEPTH); this.fT = new Int32Array(MAX_DEPTH); this.fSide = new Int32Array(MAX_DEPTH);
    this.fAt = new Int32Array(MAX_DEPTH); this.fNext = new Int32Array(MAX_DEPTH);
    this.fTo = new Int32Array(MAX_DEPTH); this.fFrom = new Int32Array(MAX_DEPTH);
    // The move being generated from: its card set and place in the chain (for push).
    this.cur = { pyr: 0, side: 0, p: 0, t: 0, only: -1 };
    this.emit = (kind, a, b, pyr, side, p, t) => {
      const c = this.cur;
      // Along the chain only the moves that take the waste top are new (see expand).
      if (c.only >= 0 && a !== c.only && b !== c.only) return;
      if (kind <= PAIR) this.push(kind, a, b, pyr, side, p, t);
    };
    this.keep = (kind, a, b, pyr, side, p, t) => this.push(kind, a, b, pyr, side, p, t);
  }

  run(pyr, side, p, turns, maxNodes) {
    if (this.isWon(pyr, side)) return { result: 'won', line: this.finish([], pyr, side, p), nodes: 0 };
    if (pyr === 0 || this.hasDeadCard(pyr, side, ALL_VALUES)) return { result: 'lost', line: null, nodes: 0 };
    let nodes = 1, depth = 0;
    this.enter(0, -1, pyr, side, p, turns);
    for (;;) {
      if (this.win >= 0) return { result: 'won', line: this.lineTo(depth, this.win), nodes };
      if (this.fNext[depth] === this.fTo[depth]) { // every child tried: lost from here
        this.end = this.fFrom[depth];
        if (depth === 0) return { result: 'lost', line: null, nodes };
        depth--;
        continue;
      }
      const c = this.fNext[depth];
      this.fNext[depth] += STRIDE;
      const b = this.buf;
      const cPyr = b[c + 3], cSide = b[c + 4], cP = b[c + 5], cT = b[c + 6];
      if (this.seen.rankOf(cPyr, cSide) >= this.rankOf(cT, cP)) continue;
      if (++nodes > maxNodes) return { result: 'undecided', line: null, nodes: nodes - 1 };
      this.enter(++depth, c, cPyr, cSide, cP, cT);
    }
  }

  // With unlimited turns every position of a card set reaches every other: one rank for all.
  rankOf(t, p) {
    return this.rules.unlimitedTurns ? 1 : rank(t, p);
  }

  // Puts the card set on the path at `depth` and lists its children.
  enter(depth, at, pyr, side, p, t) {
    this.fP[depth] = p; this.fT[depth] = t; this.fSide[depth] = side; this.fAt[depth] = at;
    this.fFrom[depth] = this.fNext[depth] = this.end;
    const before = this.seen.raise(pyr, side, this.rankOf(t, p));
    this.expand(pyr, side, p, t, before);
    this.fTo[depth] = this.end;
  }

  // The removals of card set (pyr, side) from position (p, t) or any later one in its chain of
  // draws and turns, down to rank `below` (exclusive: those were listed when it was entered
  // before). Appended to buf.
  expand(pyr, side, p, t, below) {
    const c = this.cur;
    c.pyr = pyr; c.side = side; c.p = p; c.t = t; c.only = -1;
    const free = freeMask(pyr);
    if (this.kingFirst && (free & this.pyrOfValue[KING_VALUE]) !== 0) {
      // PRUNING kingFirst — a free pyramid king is removed at once (forEachMove's kingFirst).
      // Exact for "can it be won": a win must remove that king (it is a pyramid card); moving
      // its removal to the front keeps every other move legal (it is in no other move,
      // removing it only frees cards, and it never touches stock or waste); the other way
      // round a win after removing it is a win from here. Holds in every variant below too.
      forEachMove(this.table, pyr, side, p, t, this.emit, true);
      return;
    }
    const sole = this.soleSidePartners(pyr, side, free);
    if (sole < 0 || this.forced(pyr, side, p, t, free, sole)) return;
    // Here: every removal, pyramid-only ones included. Made later in the chain, a
    // pyramid-only removal leads to the same card set at a lower rank, so it is not repeated.
    forEachMove(this.table, pyr, side, p, t, this.emit, false);
    if (this.rules.coverPair) this.coverPairMoves(pyr, side, p, t);
    if (this.rules.stockTop) this.stockTopMoves(pyr, side, p, t, free);
    // Down the chain: the moves that take the waste top (or, in the variant, the stock top).
    // A card that was the waste top higher up the chain gives nothing new lower down.
    let need = 1 << KING_VALUE; // values whose card on the waste top has a move
    for (let f = free; f !== 0; f &= f - 1) need |= 1 << (TARGET_SUM - this.table.pyrValues[31 - Math.clz32(f & -f)]);
    const sv = this.table.sideValues;
    const unlimited = this.rules.unlimitedTurns;
    let done = 0; // side cards that have been the waste top
    const top0 = wasteTop(side, p);
    if (top0 >= 0) done |= 1 << top0;
    for (let step = chainStep(side, p, t, unlimited); step >= 0; step = chainStep(side, step & 255, step >> 8, unlimited)) {
      const q = step & 255, u = step >> 8;
      if (unlimited ? q === p : rank(u, q) <= below) break; // back at the start, or covered before
      c.p = q; c.t = u;
      // A forced removal here also covers every later position of the chain (reached from here).
      if (this.forced(pyr, side, q, u, free, sole)) break;
      if (this.rules.stockTop) this.stockTopMoves(pyr, side, q, u, free);
      const top = q - 1;
      if (top < 0 || (done & (1 << top)) !== 0) continue;
      done |= 1 << top;
      if ((need & (1 << sv[top])) === 0) continue;
      c.only = SIDE + top;
      forEachMove(this.table, pyr, side, q, u, this.emit, false);
      c.only = -1;
      if (done === side && !this.rules.stockTop) break; // every side card has been the top
    }
  }

  // Forced removals. Both prunings below rest on one exchange argument. Say a card c beside
  // the pyramid is taken off now instead of later. Every game from here can be played from the
  // position without c, move for move: skip the draw that would bring c up (and a turn that
  // would leave only c to turn, which leaves more turns), and play every other move as it is.
  // The stock and waste stay those of the game minus c, so every card the game has available
  // (c apart) is available too. Taking a pyramid card off earlier only frees other cards. So a
  // removal that a win must contain somewhere, and whose cards no other move of it uses, can
  // go first: it is then the only child needed at that position, and it also stands for every
  // later position of the chain (reached from that one by draws and turns).
  //
  // PRUNING sideKings — a king on the waste top (or the playable stock top) goes at once:
  // it is in no other move, and the game without it wins whenever the game with it does.
  // PRUNING forcedPairs — a card that must go (a free pyramid card; in the strict variant the
  // waste top too) and has exactly one possible partner left goes with it as soon as both are
  // available: every win pairs the two, and neither card is in any other move of it.

  // Sets this.soleFor[y] = x for each side card y that is the only partner left of a free
  // pyramid card x, and returns those y as a mask; or pushes a forced pair of two free pyramid
  // cards and returns -1 (the same all along the chain, so only looked for on entering).
  soleSidePartners(pyr, side, free) {
    if (!this.forcedPairs) return 0;
    const pv = this.table.pyrValues;
    let sole = 0;
    for (let f = free; f !== 0; f &= f - 1) {
      const x = 31 - Math.clz32(f & -f);
      const w = TARGET_SUM - pv[x];
      if (w === 0) continue; // a king: kingFirst's business
      const inPyr = pyr & this.pyrOfValue[w] & ~this.related[x];
      const inSide = side & this.sideOfValue[w];
      if (inPyr === 0 && inSide !== 0 && (inSide & (inSide - 1)) === 0) {
        sole |= inSide;
        this.soleFor[31 - Math.clz32(inSide)] = x;
      } else if (inSide === 0 && (inPyr & free) !== 0 && (inPyr & (inPyr - 1)) === 0) {
        const y = 31 - Math.clz32(inPyr);
        this.push(PAIR, Math.min(x, y), Math.max(x, y), pyr & ~(1 << x) & ~inPyr, side, this.cur.p, this.cur.t);
        return -1;
      }
    }
    return sole;
  }

  // A forced removal at position (p, t) of the card set, pushed; returns whether there was one.
  forced(pyr, side, p, t, free, sole) {
    const sv = this.table.sideValues;
    const top = wasteTop(side, p);
    if (top >= 0) {
      const s2 = side & ~(1 << top);
      const p2 = wasteTop(s2, p) + 1;
      if (this.kingOrSolePartner(top, pyr, s2, p2, t, sole)) return true;
      if (this.rules.strictWin && this.forcedPairs && sv[top] !== KING_VALUE) {
        const partners = pyr & this.pyrOfValue[TARGET_SUM - sv[top]]; // the waste top must go too
        if ((partners & free) !== 0 && (partners & (partners - 1)) === 0) {
          this.push(PAIR, 31 - Math.clz32(partners), SIDE + top, pyr & ~partners, s2, p2, t);
          return true;
        }
      }
    }
    const next = this.rules.stockTop ? stockNext(side, p) : -1;
    return next >= 0 && this.kingOrSolePartner(next, pyr, side & ~(1 << next), p, t, sole);
  }

  // Side card c (the waste top or the playable stock top) goes at once when it is a king, or
  // the only partner left of a free pyramid card; (side2, p2) is the position without it.
  kingOrSolePartner(c, pyr, side2, p2, t, sole) {
    if (this.table.sideValues[c] === KING_VALUE && this.sideKings) {
      this.push(KING, SIDE + c, -1, pyr, side2, p2, t);
      return true;
    }
    if (sole & (1 << c)) {
      const x = this.soleFor[c];
      this.push(PAIR, x, SIDE + c, pyr & ~(1 << x), side2, p2, t);
      return true;
    }
    return false;
  }

  // Keeps a child unless provably lost.
  push(kind, a, b, pyr, side, p, t) {
    if (this.win >= 0) return;
    const won = this.isWon(pyr, side);
    if (!won) {
      if (pyr === 0) return; // strict: the pyramid is gone but a card beside it can never go
      // PRUNING deadCards — a position is lost once some pyramid card can no longer get a
      // partner: every card of the complementary value is gone, or is a pyramid card in a
      // covering relation with it (RELATED). Exact: a non-king pyramid card only ever goes in a
      // pair, and both cards of a pair are available at the same time, which a card and one
      // covering it (at any distance) never are. Only the values whose partners this move
      // removed can have changed, so only those are looked at.
      if (kind === PAIR && this.deadCards) {
        const c = this.cur;
        if (this.hasDeadCard(pyr, side, this.valuesOf(c.pyr & ~pyr, c.side & ~side))) return;
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
    buf[o + 3] = pyr; buf[o + 4] = side; buf[o + 5] = p; buf[o + 6] = t;
    buf[o + 7] = this.cur.p; buf[o + 8] = this.cur.t;
    this.end += STRIDE;
    if (won) this.win = o;
  }

  isWon(pyr, side) {
    if (pyr !== 0) return false;
    // strict: with the pyramid gone, only a king can still go (a pair needs a pyramid card,
    // as at most one card of it comes from the waste), and kings left beside the pyramid can
    // always go: each is taken off the waste top as it comes up (finish).
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

  // Can some value in `values` (1 << v) no longer be paired off? See partnersLeft.
  hasDeadCard(pyr, side, values) {
    if (!this.deadCards) return false;
    for (let v = 1; v <= 6; v++) {
      if ((values & ((1 << v) | (1 << (TARGET_SUM - v)))) === 0) continue;
      if (!this.partnersLeft(pyr, side, v, TARGET_SUM - v) || !this.partnersLeft(pyr, side, TARGET_SUM - v, v)) {
        return true;
      }
    }
    return false;
  }

  // PRUNING deadCards — every card of value v that must go (a pyramid card; in the strict
  // variant a side card too) needs a partner of value w = 13 - v of its own: a card that can be
  // available at the same time, so not a pyramid card in a covering relation with it
  // (RELATED), and not a second side card (only the waste top is available beside the
  // pyramid). Hall's theorem: such distinct partners exist exactly when every group of those
  // cards has at least as many possible partners between them as it has cards; at most four
  // cards, so all groups are tried. Exact: a position without them cannot be won. Checking
  // v → w and w → v apart is enough (Mendelsohn–Dulmage: then one pairing serves both).
  partnersLeft(pyr, side, v, w) {
    const mustPyr = this.mustPyr, mustSide = this.mustSide; // each card's possible partners
    const partnerPyr = pyr & this.pyrOfValue[w];
    const partnerSide = side & this.sideOfValue[w];
    let n = 0;
    for (let m = pyr & this.pyrOfValue[v]; m !== 0; m &= m - 1) {
      mustPyr[n] = partnerPyr & ~this.related[31 - Math.clz32(m & -m)];
      mustSide[n++] = partnerSide;
    }
    if (this.rules.strictWin) {
      for (let m = side & this.sideOfValue[v]; m !== 0; m &= m - 1) {
        mustPyr[n] = partnerPyr;
        mustSide[n++] = this.rules.stockTop ? partnerSide : 0;
      }
    }
    for (let group = 1; group < 1 << n; group++) {
      let inPyr = 0, inSide = 0, size = 0;
      for (let i = 0; i < n; i++) {
        if (group & (1 << i)) { inPyr |= mustPyr[i]; inSide |= mustSide[i]; size++; }
      }
      if (popCount(inPyr) + popCount(inSide) < size) return false;
    }
    return true;
  }

  // VARIANT RULE stockTop and coverPair: the moves as engine.js makes them, kept unless lost.
  stockTopMoves(pyr, side, p, t, free) {
    forEachStockTopMove(this.table, pyr, side, p, t, free, this.keep);
  }

  coverPairMoves(pyr, side, p, t) {
    forEachCoverPair(this.table, pyr, side, p, t, this.keep);
  }

  // The winning game: for each step of the path, the draws and turns down the chain to where
  // its move is made, then the move; last the winning move.
  lineTo(depth, win) {
    const line = [];
    const b = this.buf;
    for (let d = 1; d <= depth + 1; d++) {
      const at = d <= depth ? this.fAt[d] : win;
      const side = this.fSide[d - 1];
      let p = this.fP[d - 1], t = this.fT[d - 1];
      while (p !== b[at + 7] || t !== b[at + 8]) {
        line.push(stockNext(side, p) >= 0 ? 'draw' : 'turn');
        const step = chainStep(side, p, t, this.rules.unlimitedTurns);
        p = step & 255; t = step >> 8;
      }
      line.push(moveNotation(this.table, b[at], b[at + 1], b[at + 2]));
    }
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

function popCount(x) {
  let n = 0;
  for (; x !== 0; x &= x - 1) n++;
  return n;
}
