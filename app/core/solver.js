// The app's exact solver: from any position and under any rules options (engine.js VARIANTS),
// the shortest game that wins; when none wins, the largest number of pyramid cards that can
// still be removed and the fewest moves that remove that many, with one such game. It only
// uses the engine's own move generation (forEachMove), so it can only find games the app
// itself allows. No DOM access: the Web Worker and the checker's Node bridge run it unchanged.
//
// The design (issue 28: fast and small enough for a phone), each step exact:
//
// 1. Removals, not positions. Draws and turns never change which cards are there; between two
//    removals a game only walks down the chain of draws and turns of its card set, which is
//    fixed (turn.order). So the search walks settled positions (the start, and each position
//    just after a removal) and a step is "k draws or turns, then a removal", costing k + 1
//    moves. Every game that ends with a removal is such a sequence, and a game that ends with
//    draws or turns is never needed (they remove nothing, and the win is a removal).
// 2. Chain dominance (expand). Along the chain, a position with the same waste boundary p as
//    one met earlier on it has the same waste, stock and cards, fewer turns (or as many, with
//    unlimited turns) and costs more moves: whatever follows it follows the earlier one too,
//    for fewer moves. So the walk stops at the first repeated p. A removal of pyramid cards
//    only (pair of two, king, cover pair) gives the same position later on the chain as it
//    gives at once followed by the same draws: it is made only at the start of the chain, and
//    further down only the moves that take the waste top (or the playable stock top) are new.
// 3. A free pyramid king goes at once (forEachMove's kingFirst): tests/app/core/plain_solver.mjs
//    argues why the fewest moves and the count are kept; the argument holds in every variant.
// 4. Best first (A*) on the removal graph, with a lower bound on the moves still needed that
//    never overestimates and drops by at most the cost of a step (so the first goal taken
//    from the queue is a shortest one; a position reached again for fewer moves is expanded
//    again, so a bound that drops faster would still give the shortest game), in a bucket
//    queue by bound, last in first out. The goal is known before A* starts: maxRemovable, a
//    depth-first walk over card sets (the decider's card-set ranks, app/core/decider.js: exact for
//    the largest count and for "can it be won", which do not depend on the moves spent),
//    finds the largest count and whether a win exists. Then
//    - win: the bound counts the removals still needed and the draws that must bring needed
//      cards out of the stock (winBound); positions that provably cannot be won any more are
//      dropped: they lie on no winning game, so no shortest one is lost;
//    - no win: A* looks for the fewest moves to any position with that count removed
//      (countBound); positions that can no longer reach it (upperBound) are dropped.
//    The decider's other prunings are fine for "can it be won" but may cost a move a
//    shortest game does not spend (it may leave a waste king where it is): a waste king taken
//    at once serves maxRemovable only (it keeps the largest count and the win, see
//    wasteKing); the forced pairs are not used at all (a card that need not go may keep its
//    only partner for another).
// 5. Positions are two 32-bit words in typed arrays (PositionStore): 16 bytes a place with
//    their cost, bound, parent and state, 8 more of hash table, the store at least half full;
//    no object per position, and no table per card set (step 6 finds a card set's positions
//    through the store's own hash table). maxRemovable's table is dropped before A* starts.
// 6. Dominance within a card set (shortest): position X stands for position Y of the same
//    cards when X reaches, by draws and turns alone, Y's waste boundary with at least Y's
//    turns left, and X's moves so far plus those draws and turns are no more than Y's: every
//    game from Y is then a game from X, for no more moves. Y is not kept (or not expanded).
//
// Progress and cancellation (for the Web Worker): onProgress(bound, positions) is called every
// progressEvery positions expanded; returning 'stop' ends the search with {complete: false}.
// maxPositions bounds the memory the same way.

import {
  compile, forEachMove, freeMask, wasteTop, stockNext, chainStep, moveNotation, bitCount, normaliseRules, isWon,
  rowAndPlace, KING, DRAW, SIDE, KING_VALUE, TARGET_SUM, PYRAMID_CARDS, ROWS,
} from './engine.js';

const PYR_BITS = 28;
const SIDE_BITS = 24;
const SIDE_MASK = (1 << SIDE_BITS) - 1;
const PYR_MASK = (1 << PYR_BITS) - 1;
const NO_BOUND = -1;

// COVERED_BY[k]: the two cards directly covering k.
const COVERED_BY = new Int32Array(PYRAMID_CARDS);
for (let k = 0; k < PYRAMID_CARDS; k++) {
  const { row } = rowAndPlace(k);
  if (row < ROWS) COVERED_BY[k] = (1 << (k + row)) | (1 << (k + row + 1));
}

// The order of the positions of one card set along its chain (app/core/decider.js): a position
// reaches by draws and turns every position of its card set of lower rank.
const rank = (t, p) => t * 32 + 31 - p;

// Settled positions: hi = pyramid mask | turns << 28, lo = side mask | waste boundary p << 24;
// with the cost so far (g), the bound (h), the position reached from (parent) and whether it
// has been expanded. Open addressing, at most half full, hashed by the card set alone (pyr,
// side): linear probing then keeps every position of a card set on the run of slots from the
// set's home to the next empty one, which is how dominance (step 6) finds them, with no list
// of its own.
class PositionStore {
  constructor(capacity = 1 << 14) {
    this.size = 0;
    this.allocate(capacity);
  }

  allocate(capacity) {
    const old = this.size ? this : null;
    const fields = { hi: Uint32Array, lo: Uint32Array, parent: Int32Array, g: Uint16Array, h: Uint8Array, closed: Uint8Array };
    const next = {};
    for (const [name, Type] of Object.entries(fields)) {
      next[name] = new Type(capacity);
      if (old) next[name].set(old[name].subarray(0, this.size));
    }
    this.slots = null; // garbage before the new table is made
    Object.assign(this, next);
    this.slots = new Int32Array(capacity * 2).fill(-1);
    this.slotMask = capacity * 2 - 1;
    for (let i = 0; i < this.size; i++) {
      let slot = this.home(this.hi[i], this.lo[i]);
      while (this.slots[slot] >= 0) slot = (slot + 1) & this.slotMask;
      this.slots[slot] = i;
    }
  }

  /** The first slot of the position's card set. */
  home(hi, lo) {
    return hash(hi & PYR_MASK, lo & SIDE_MASK) & this.slotMask;
  }

  /** Index of the position, or -1. */
  find(hi, lo) {
    let slot = this.home(hi, lo);
    for (;;) {
      const at = this.slots[slot];
      if (at < 0) { this.freeSlot = slot; return -1; }
      if (this.hi[at] === hi && this.lo[at] === lo) return at;
      slot = (slot + 1) & this.slotMask;
    }
  }

  /** Adds a position find() has just not found; returns its index. */
  addAfterFind(hi, lo) {
    const index = this.size++;
    this.slots[this.freeSlot] = index;
    this.hi[index] = hi;
    this.lo[index] = lo;
    if (this.size === this.hi.length) this.allocate(this.hi.length * 2);
    return index;
  }

  bytes() {
    return this.hi.length * 16 + this.slots.byteLength;
  }
}

function hash(hi, lo) {
  let h = Math.imul(hi ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(lo ^ 0x7f4a7c15, 0xc2b2ae35);
  h ^= h >>> 15;
  h = Math.imul(h, 0x27d4eb2f);
  return (h ^ (h >>> 13)) >>> 0;
}

// Card sets with the highest rank entered at, for maxRemovable: key pyr, side; Int32 pairs.
class CardSetRanks {
  constructor(bits = 14) {
    this.keys = new Int32Array(2 << bits).fill(-1);
    this.ranks = new Uint8Array(1 << bits);
    this.mask = (1 << bits) - 1;
    this.size = 0;
  }

  /** Records rank r for the card set; returns the rank it had (0 when new). */
  raise(pyr, side, r) {
    let h = hash(pyr, side) & this.mask;
    for (;;) {
      if (this.keys[h << 1] === -1) break;
      if (this.keys[h << 1] === pyr && this.keys[(h << 1) + 1] === side) {
        const before = this.ranks[h];
        if (r > before) this.ranks[h] = r;
        return before;
      }
      h = (h + 1) & this.mask;
    }
    this.keys[h << 1] = pyr;
    this.keys[(h << 1) + 1] = side;
    this.ranks[h] = r;
    if (++this.size * 2 > this.mask) this.grow();
    return 0;
  }

  /** The rank the card set was entered at, 0 when never. */
  rankOf(pyr, side) {
    let h = hash(pyr, side) & this.mask;
    for (;;) {
      if (this.keys[h << 1] === -1) return 0;
      if (this.keys[h << 1] === pyr && this.keys[(h << 1) + 1] === side) return this.ranks[h];
      h = (h + 1) & this.mask;
    }
  }

  grow() {
    const { keys, ranks } = this;
    this.mask = this.mask * 2 + 1;
    this.keys = new Int32Array((this.mask + 1) * 2).fill(-1);
    this.ranks = new Uint8Array(this.mask + 1);
    for (let i = 0; i < ranks.length; i++) {
      if (keys[i << 1] === -1) continue;
      let h = hash(keys[i << 1], keys[(i << 1) + 1]) & this.mask;
      while (this.keys[h << 1] !== -1) h = (h + 1) & this.mask;
      this.keys[h << 1] = keys[i << 1];
      this.keys[(h << 1) + 1] = keys[(i << 1) + 1];
      this.ranks[h] = ranks[i];
    }
  }

  bytes() {
    return this.keys.byteLength + this.ranks.byteLength;
  }
}

/** Moves from (p1, t1) to a position at least as good as (p2, t2) of the same card set by draws
 *  and turns alone: to boundary p2 with at least t2 turns left; -1 when there is none. */
function chainDistance(side, p1, t1, p2, t2, unlimited) {
  if (!unlimited && t1 < t2) return -1;
  if (p2 >= p1) return bitCount(side & ((1 << p2) - 1) & ~((1 << p1) - 1)); // draws in this pass
  if (!unlimited && t1 - 1 < t2) return -1;
  // to the end of the stock, a turn, then from the start up to p2
  return bitCount(side & ~((1 << p1) - 1)) + 1 + bitCount(side & ((1 << p2) - 1));
}

class Stopped extends Error {}

class Search {
  constructor(table, rules, startCount, options) {
    this.table = table;
    this.rules = rules;
    this.startCount = startCount;
    this.onProgress = options.onProgress ?? null;
    this.progressEvery = options.progressEvery ?? 50_000;
    this.maxPositions = options.maxPositions ?? 8_000_000;
    this.expanded = 0;
    this.cov = new Int32Array(PYRAMID_CARDS);
    this.won = false;
    this.pyrOfValue = new Int32Array(KING_VALUE + 1);
    this.sideOfValue = new Int32Array(KING_VALUE + 1);
    table.pyrValues.forEach((v, k) => { if (v) this.pyrOfValue[v] |= 1 << k; });
    table.sideValues.forEach((v, i) => { this.sideOfValue[v] |= 1 << i; });
    this.kings = this.pyrOfValue[KING_VALUE];
    this.deep = new Int32Array(32);
    // expand's state: where on the chain the moves are generated, which cards they must take.
    this.steps = 0;
    this.out = null;
    this.removal = (kind, a, b, pyr, side, p, t) => {
      if (kind < DRAW) this.out(kind, a, b, pyr, side, p, t, this.steps);
    };
  }

  tick(bound, positions) {
    if (positions >= this.maxPositions) throw new Stopped();
    if (++this.expanded % this.progressEvery !== 0 || !this.onProgress) return;
    if (this.onProgress(bound, positions) === 'stop') throw new Stopped();
  }

  /** Every step from the settled position (pyr, side, p, t): emit(kind, a, b, pyr2, side2, p2,
   *  t2, steps) with the draws and turns made before the removal. Only the chain above rank
   *  `below` (NO_BOUND: all of it). See steps 2 and 3 of the module text. */
  expand(pyr, side, p, t, below, emit, wasteKings = false) {
    const free = freeMask(pyr);
    const freeKings = free & this.kings;
    if (freeKings !== 0) {
      const k = 31 - Math.clz32(freeKings & -freeKings);
      emit(KING, k, -1, pyr & ~(1 << k), side, p, t, 0);
      return;
    }
    const sv = this.table.sideValues;
    if (wasteKings && p > 0 && sv[p - 1] === KING_VALUE) { this.wasteKing(pyr, side, p, t, 0, emit); return; }
    this.out = emit;
    this.steps = 0;
    forEachMove(this.table, pyr, side, p, t, this.removal, false, this.rules);
    // Values whose card on the waste top (or stock top) has a move: kings, partners of free cards.
    let need = 1 << KING_VALUE;
    const pv = this.table.pyrValues;
    for (let f = free; f !== 0; f &= f - 1) need |= 1 << (TARGET_SUM - pv[31 - Math.clz32(f & -f)]);
    const { unlimitedTurns, stockTop } = this.rules;
    let seen = 1 << p;
    let q = p, u = t;
    for (let step = chainStep(side, q, u, unlimitedTurns); step >= 0; step = chainStep(side, q, u, unlimitedTurns)) {
      q = step & 255; u = step >> 8;
      this.steps++;
      if (seen & (1 << q)) break; // chain dominance: everything from here on was met above
      if (below !== NO_BOUND && !unlimitedTurns && rank(u, q) <= below) break;
      seen |= 1 << q;
      const top = q - 1; // the waste top: p is kept at its index + 1
      if (wasteKings && top >= 0 && sv[top] === KING_VALUE) { this.wasteKing(pyr, side, q, u, this.steps, emit); break; }
      const s = stockTop ? stockNext(side, q) : -1;
      if (s < 0 && (top < 0 || (need & (1 << sv[top])) === 0)) continue; // nothing takes the top here
      forEachMove(this.table, pyr, side, q, u, this.removal, false, this.rules, true);
    }
  }

  // For maxRemovable only (wasteKings): a king on the waste top goes at once, and stands for
  // the rest of the chain. Exact for the largest count and for a win, not for the fewest
  // moves (the decider's sideKings, app/core/decider.js): the game without the king can play any
  // game with it, move for move, skipping the draw that would bring the king up again, so it
  // removes as many pyramid cards and wins as often; a removal further down the chain is
  // made from the position without the king, reached by the same draws.
  wasteKing(pyr, side, p, t, steps, emit) {
    const top = p - 1, s2 = side & ~(1 << top);
    emit(KING, SIDE + top, -1, pyr, s2, wasteTop(s2, p) + 1, t, steps);
  }

  /** The cards beside the pyramid that may still be taken: all of them while a turn is left;
   *  with none left, a waste card under the top only comes up once every card above it has
   *  gone, so below a card that can never go (no card of the other value in the pyramid, nor
   *  in the stock for the stock-top variant; not a king) the waste is buried for good. */
  usable(pyr, side, p, t) {
    if (t > 0 || this.rules.unlimitedTurns || p === 0) return side;
    const sv = this.table.sideValues;
    const stock = side & ~((1 << p) - 1);
    const partnersBeside = this.rules.stockTop ? stock : 0;
    for (let m = side & ((1 << p) - 1); m !== 0;) {
      const top = 31 - Math.clz32(m);
      const w = TARGET_SUM - sv[top];
      if (w !== 0 && (pyr & this.table.pyrOfValue[w]) === 0 && (partnersBeside & this.sideOfValue[w]) === 0) {
        return side & ~((1 << top) - 1); // the cards under it never come up
      }
      m &= ~(1 << top);
    }
    return side;
  }

  /** The pyramid cards that may still go. covers[k] (coverers): the cards still covering k,
   *  directly or through other cards still there; k is only ever free once they are all gone,
   *  so k and any of them are never available together (in the cover-pair variant a card and
   *  one covering it directly may be). A card none of whose possible partners is left (a card
   *  of the other value beside the pyramid, or one in the pyramid in no such relation with
   *  it) can never go, nor can any card it covers; repeated until nothing changes. Exact as
   *  an upper bound: only cards that can never go are left out. side: usable(). */
  alive(pyr, side) {
    const pv = this.table.pyrValues;
    // Most cards have a partner beside the pyramid: then nothing is dead and cov is not needed.
    let lonely = 0; // the pyramid's cards of the values with no partner beside it
    for (let v = 1; v < KING_VALUE; v++) if ((side & this.sideOfValue[TARGET_SUM - v]) === 0) lonely |= this.pyrOfValue[v];
    if ((pyr & lonely) === 0) return pyr;
    const cov = this.coverers(pyr);
    const coverPair = this.rules.coverPair;
    let alive = pyr;
    for (let changed = true; changed;) {
      changed = false;
      for (let m = alive & lonely; m !== 0; m &= m - 1) { // a card with a partner beside the pyramid lives
        const k = 31 - Math.clz32(m & -m);
        if ((alive & (1 << k)) === 0) continue; // found covered by a dead card in this round
        const w = TARGET_SUM - pv[k];
        const near = coverPair ? COVERED_BY[k] : 0;
        let partners = alive & this.pyrOfValue[w] & ~(cov[k] & ~near);
        for (let q = partners; q !== 0; q &= q - 1) {
          const j = 31 - Math.clz32(q & -q);
          if ((cov[j] & ~(coverPair ? COVERED_BY[j] : 0) & (1 << k)) !== 0) partners &= ~(1 << j);
        }
        if (partners !== 0) continue;
        alive &= ~(1 << k);
        for (let q = alive; q !== 0; q &= q - 1) {
          const j = 31 - Math.clz32(q & -q);
          if ((cov[j] & (1 << k)) !== 0) alive &= ~(1 << j);
        }
        changed = true;
      }
    }
    return alive;
  }

  // cov[k]: the cards still there that cover k, directly or through cards still there.
  coverers(pyr) {
    const cov = this.cov;
    for (let k = PYRAMID_CARDS - 1; k >= 0; k--) {
      if ((pyr & (1 << k)) === 0) { cov[k] = 0; continue; }
      const direct = COVERED_BY[k] & pyr;
      let all = direct;
      for (let d = direct; d !== 0; d &= d - 1) all |= cov[31 - Math.clz32(d & -d)];
      cov[k] = all;
    }
    return cov;
  }

  /** Pyramid cards removed, at most, from a position on: the cards removed so far and the
   *  kings that may still go, and per pair of values v, 13 - v, of the a and b cards that may
   *  still go at most min(a, b + the side cards of value 13 - v) of value v (each needs a
   *  partner of its own) and the same the other way. side: usable(). (A largest matching of
   *  the pairs of two pyramid cards was tried here too: it never cut more on deals 1-40.) */
  upperBound(pyr, side, alive = this.alive(pyr, side)) {
    let bound = this.startCount - bitCount(pyr) + bitCount(alive & this.kings);
    for (let v = 1; v <= 6; v++) {
      const w = TARGET_SUM - v;
      const a = bitCount(alive & this.pyrOfValue[v]), b = bitCount(alive & this.pyrOfValue[w]);
      bound += Math.min(a, b + bitCount(side & this.sideOfValue[w])) + Math.min(b, a + bitCount(side & this.sideOfValue[v]));
    }
    return bound;
  }

  /** Fewest moves still needed to win, never too many; -1 when the position can no longer be won.
   *  Removals: every pair takes one card of value v and one of 13 - v, a king goes alone. So
   *  with a pyramid cards of value v and b of 13 - v, at least max(a, b) moves take them (the
   *  |a - b| left over pair with cards beside the pyramid, of which there must be enough); in
   *  the strict variant every card goes, so exactly a + c moves (c: side cards of value v) and
   *  the counts must match. Draws: a card beside the pyramid becomes available only on the
   *  waste top (or the stock top, in that variant: then draws are not counted), and draws
   *  bring the stock out in its order; so when n cards of value w must still come from the
   *  stock, at least as many draws are needed as there are stock cards up to the n-th of
   *  value w (strict: every stock card must be drawn). The largest of these counts is taken.
   *  A removal lowers the removal count by at most one and leaves the draw count (the card it
   *  takes from beside the pyramid was on the waste already), a draw lowers the draw count by
   *  at most one: so the bound drops by at most the cost of a step. */
  winBound(pyr, allSide, p, t) {
    const side = this.usable(pyr, allSide, p, t);
    if (this.alive(pyr, side) !== pyr) return -1;
    if (this.rules.strictWin && side !== allSide) return -1; // a buried card never goes
    const waste = p >= 32 ? side : side & ((1 << p) - 1);
    const stock = side & ~waste;
    const strict = this.rules.strictWin, stockTop = this.rules.stockTop;
    let moves = bitCount(pyr & this.kings), draws = 0;
    if (strict) {
      moves += bitCount(side & this.sideOfValue[KING_VALUE]);
      draws = bitCount(stock);
    }
    for (let v = 1; v <= 12; v++) {
      const w = TARGET_SUM - v;
      const a = bitCount(pyr & this.pyrOfValue[v]), b = bitCount(pyr & this.pyrOfValue[w]);
      if (strict) {
        if (v > 6) continue;
        const c = bitCount(side & this.sideOfValue[v]), d = bitCount(side & this.sideOfValue[w]);
        if (a + c !== b + d || c > b || d > a) return -1;
        moves += a + c;
        continue;
      }
      if (v <= 6) moves += a > b ? a : b;
      if (a <= b) continue;
      // a - b cards of value v pair with cards of value w from beside the pyramid.
      const sideW = side & this.sideOfValue[w];
      if (a - b > bitCount(sideW)) return -1;
      if (stockTop) continue;
      let fromStock = a - b - bitCount(sideW & waste);
      if (fromStock <= 0) continue;
      // The stock is drawn in order: the fromStock-th card of value w in it comes out after
      // every card before it, so it alone costs as many draws as there are cards up to it.
      let m = sideW & stock;
      while (--fromStock > 0) m &= m - 1;
      const at = 31 - Math.clz32(m & -m);
      const upTo = bitCount(stock & (at >= 31 ? -1 : (1 << (at + 1)) - 1));
      if (upTo > draws) draws = upTo;
    }
    return moves + draws;
  }

  /** Fewest moves to remove `target` pyramid cards in all, never too many; -1 when the position
   *  cannot get there (upperBound). With slack k = (cards removed and cards that may still go,
   *  alive) - target, a game reaching the target removes every card that may still go but at
   *  most k of them: so at least the
   *  removals and draws winBound counts for those cards, less one removal per card left out,
   *  and with the k cards left out where they save the most draws (taken off the value whose
   *  needed stock card lies deepest, one at a time). Never below the plain count: r cards
   *  still to go take r moves less one per pair of two pyramid cards. */
  countBound(pyr, allSide, p, t, target) {
    const removed = this.startCount - bitCount(pyr);
    const r = target - removed;
    if (r <= 0) return 0;
    const side = this.usable(pyr, allSide, p, t);
    const alive = this.alive(pyr, side);
    if (this.upperBound(pyr, side, alive) < target) return -1;
    const slack = removed + bitCount(alive) - target; // cards that may still go but need not
    const waste = p >= 32 ? side : side & ((1 << p) - 1);
    const stock = side & ~waste;
    let moves = bitCount(alive & this.kings), pairs = 0, nDeep = 0;
    const deep = this.deep; // per value still needing stock cards: how many
    for (let v = 1; v <= 12; v++) {
      const w = TARGET_SUM - v;
      const a = bitCount(alive & this.pyrOfValue[v]), b = bitCount(alive & this.pyrOfValue[w]);
      if (v <= 6) { moves += a > b ? a : b; pairs += a < b ? a : b; }
      if (a <= b || this.rules.stockTop) continue;
      const sideW = side & this.sideOfValue[w];
      const fromStock = Math.min(a - b, bitCount(sideW)) - bitCount(sideW & waste);
      if (fromStock > 0) { deep[nDeep++] = sideW & stock; deep[nDeep++] = fromStock; }
    }
    // Leave out up to `slack` needed cards, each time of the value with the deepest one.
    let draws = 0;
    for (let left = slack; ; left--) {
      let worst = -1, worstAt = 0;
      for (let i = 0; i < nDeep; i += 2) {
        if (deep[i + 1] <= 0) continue;
        let m = deep[i];
        for (let n = deep[i + 1]; --n > 0;) m &= m - 1;
        const at = 31 - Math.clz32(m & -m);
        const upTo = bitCount(stock & (at >= 31 ? -1 : (1 << (at + 1)) - 1));
        if (upTo > worstAt) { worstAt = upTo; worst = i; }
      }
      if (left === 0 || worst < 0) { draws = worstAt; break; }
      deep[worst + 1]--;
    }
    const plain = r - Math.min(pairs, r >> 1);
    const full = Math.max(0, moves - slack) + draws;
    return full > plain ? full : plain;
  }

  /** The largest number of pyramid cards that can be removed (step 4), and whether the game
   *  can be won (this.won): depth first over card sets, each entered at the highest rank met
   *  (a position of higher rank reaches every one of lower rank of its card set, hence every
   *  count and every win they reach), branches that cannot beat the best count found nor win
   *  (upperBound) cut; it stops at the first win. */
  maxRemovable(pyr, side, p, t) {
    const sets = this.sets = new CardSetRanks();
    const limit = this.upperBound(pyr, this.usable(pyr, side, p, t));
    let best = this.startCount - bitCount(pyr);
    let buf = new Int32Array(4096), end = 0;
    const push = (kind, a, b, pyr2, side2, p2, t2) => {
      if (end + 4 > buf.length) { const bigger = new Int32Array(buf.length * 2); bigger.set(buf); buf = bigger; }
      buf[end] = pyr2; buf[end + 1] = side2; buf[end + 2] = p2; buf[end + 3] = t2;
      end += 4;
    };
    const rankOf = (t2, p2) => (this.rules.unlimitedTurns ? 1 : rank(t2, p2));
    const strict = this.rules.strictWin, all = this.startCount;
    let done = false; // won, or the limit reached
    const visit = (vp, vs, vq, vt, below) => {
      this.tick(best, sets.size);
      const removed = all - bitCount(vp);
      if (removed > best) best = removed;
      if (isWon(vp, vs, this.rules)) this.won = true;
      if (this.won || (!strict && best === limit)) { done = true; return; }
      const from = end;
      this.expand(vp, vs, vq, vt, below, push, true);
      const to = end;
      for (let c = from; c < to && !done; c += 4) {
        const cp = buf[c], cs = buf[c + 1], cq = buf[c + 2], ct = buf[c + 3];
        const r = rankOf(ct, cq);
        if (sets.rankOf(cp, cs) >= r) continue; // entered before at this rank or higher
        // Cut what can neither beat the best count nor (strict) still win.
        const bound = this.upperBound(cp, this.usable(cp, cs, cq, ct));
        if (bound <= best && !(strict && bound === all)) continue;
        const before = sets.raise(cp, cs, r);
        visit(cp, cs, cq, ct, before === 0 ? NO_BOUND : before);
      }
      end = from;
    };
    sets.raise(pyr, side, rankOf(t, p));
    visit(pyr, side, p, t, NO_BOUND);
    this.sets = { size: sets.size, bytes: sets.bytes() }; // the table goes before A* needs its memory
    return best;
  }

  /** A* from the start to a goal (step 4): the win, or `target` pyramid cards removed. */
  shortest(pyr, side, p, t, target) {
    const win = target === null;
    const bound = win ? (bp, bs, bq, bt) => this.winBound(bp, bs, bq, bt) : (bp, bs, bq, bt) => this.countBound(bp, bs, bq, bt, target);
    const isGoal = win ? (gp, gs) => isWon(gp, gs, this.rules) : (gp) => this.startCount - bitCount(gp) >= target;
    const store = this.store = new PositionStore();
    const buckets = [];
    const pushOpen = (index, f) => { (buckets[f] ??= []).push(index); };
    const key = (kp, kt) => (kp | (kt << PYR_BITS)) >>> 0;
    const low = (ls, lp) => (ls | (lp << SIDE_BITS)) >>> 0;
    const h0 = bound(pyr, side, p, t);
    if (h0 < 0) return -1;
    store.find(key(pyr, t), low(side, p));
    const start = store.addAfterFind(key(pyr, t), low(side, p));
    store.g[start] = 0; store.h[start] = h0; store.parent[start] = -1;
    pushOpen(start, h0);
    let parent = -1, parentG = 0;
    // Dominance between positions of one card set (step 6): X stands for Y when X reaches, by
    // draws and turns, Y's boundary with at least Y's turns, for no more moves in all. The
    // positions of Y's card set are those on the run of slots find() has just walked.
    const unlimited = this.rules.unlimitedTurns;
    const child = (kind, a, b, cp, cs, cq, ct, steps) => {
      const g = parentG + steps + 1;
      const hi = key(cp, ct), lo = low(cs, cq);
      let index = store.find(hi, lo);
      if (index >= 0) {
        if (store.g[index] <= g) return;
        store.closed[index] = 0; // reached for fewer moves: (again) to be expanded
      } else {
        const { slots, slotMask, freeSlot } = store, home = store.home(hi, lo);
        for (let s = home; s !== freeSlot; s = (s + 1) & slotMask) {
          const x = slots[s];
          if ((store.hi[x] & PYR_MASK) !== cp || (store.lo[x] & SIDE_MASK) !== cs) continue;
          const d = chainDistance(cs, store.lo[x] >>> SIDE_BITS, store.hi[x] >>> PYR_BITS, cq, ct, unlimited);
          if (d >= 0 && store.g[x] + d <= g) return; // dominated
        }
        const h = bound(cp, cs, cq, ct);
        if (h < 0) return;
        for (let s = home; s !== freeSlot; s = (s + 1) & slotMask) {
          const x = slots[s];
          if (store.closed[x] || (store.hi[x] & PYR_MASK) !== cp || (store.lo[x] & SIDE_MASK) !== cs) continue;
          const d = chainDistance(cs, cq, ct, store.lo[x] >>> SIDE_BITS, store.hi[x] >>> PYR_BITS, unlimited);
          if (d >= 0 && g + d <= store.g[x]) store.closed[x] = 2; // dominated by the new one: not expanded
        }
        index = store.addAfterFind(hi, lo);
        store.h[index] = h;
      }
      store.g[index] = g;
      store.parent[index] = parent;
      pushOpen(index, g + store.h[index]);
    };
    for (let f = h0; f < buckets.length; f++) {
      const open = buckets[f];
      if (!open) continue;
      while (open.length) {
        const i = open.pop();
        if (store.closed[i] || store.g[i] + store.h[i] !== f) continue; // expanded, or reached cheaper since
        const ip = store.hi[i] & PYR_MASK, is = store.lo[i] & SIDE_MASK;
        if (isGoal(ip, is)) return i;
        store.closed[i] = 1;
        this.tick(f, store.size);
        parent = i; parentG = store.g[i];
        this.expand(ip, is, store.lo[i] >>> SIDE_BITS, store.hi[i] >>> PYR_BITS, NO_BOUND, child);
      }
      buckets[f] = null;
    }
    return -1;
  }

  /** The moves from the start to stored position `index`: per step, the draws and turns down
   *  the chain, then the removal that leads to the next position for that many moves. */
  gameTo(index) {
    const store = this.store;
    const chain = [];
    for (let i = index; i >= 0; i = store.parent[i]) chain.push(i);
    chain.reverse();
    const game = [];
    for (let s = 1; s < chain.length; s++) {
      const from = chain[s - 1], to = chain[s];
      const cost = store.g[to] - store.g[from];
      let found = null;
      const side = store.lo[from] & SIDE_MASK;
      this.expand(store.hi[from] & PYR_MASK, side, store.lo[from] >>> SIDE_BITS, store.hi[from] >>> PYR_BITS, NO_BOUND,
        (kind, a, b, cp, cs, cq, ct, steps) => {
          if (found === null && steps + 1 === cost && ((cp | (ct << PYR_BITS)) >>> 0) === store.hi[to]
              && ((cs | (cq << SIDE_BITS)) >>> 0) === store.lo[to]) found = { kind, a, b, steps };
        });
      let q = store.lo[from] >>> SIDE_BITS, u = store.hi[from] >>> PYR_BITS;
      for (let k = 0; k < found.steps; k++) {
        game.push(stockNext(side, q) >= 0 ? 'draw' : 'turn');
        const step = chainStep(side, q, u, this.rules.unlimitedTurns);
        q = step & 255; u = step >> 8;
      }
      game.push(moveNotation(this.table, found.kind, found.a, found.b));
    }
    return game;
  }
}

/**
 * Solve a position (docs/positions.md). Options:
 *   rules          engine.js rules options (default the app's rules)
 *   onProgress(bound, positions)  called every progressEvery positions expanded (default
 *                  50,000); return 'stop' to cancel
 *   maxPositions   stop with {complete: false} beyond this many positions (default 8,000,000:
 *                  some 200 MB at most)
 * Returns {max_removed, shortest, game, positions, winnable, complete, bytes}: max_removed
 * counts pyramid cards; winnable is the rules' win (in the strict variant every card gone).
 */
export function solve(position, options = {}) {
  const rules = normaliseRules(options.rules ?? {});
  const { table, pyr, side, p, turns } = compile(position);
  const t = turns;
  const startCount = bitCount(pyr);
  const answer = (fields) => ({ positions: 0, complete: true, bytes: 0, ...fields });
  if (isWon(pyr, side, rules)) return answer({ max_removed: 0, shortest: 0, game: [], winnable: true });
  const search = new Search(table, rules, startCount, options);
  try {
    const most = search.maxRemovable(pyr, side, p, t);
    const winnable = search.won;
    const target = winnable ? null : most;
    let game = [];
    if (winnable || target > 0) {
      const goal = search.shortest(pyr, side, p, t, target);
      if (goal < 0) throw new Error('solver: the goal was not reached (a bug: maxRemovable and shortest disagree)');
      game = search.gameTo(goal);
    }
    return answer({
      max_removed: winnable ? startCount : target, shortest: game.length, game, winnable,
      positions: (search.store?.size ?? 0) + (search.sets?.size ?? 0),
      bytes: (search.store?.bytes() ?? 0) + search.sets.bytes,
    });
  } catch (e) {
    if (!(e instanceof Stopped)) throw e;
    return answer({ max_removed: null, shortest: null, game: null, winnable: null, complete: false,
      positions: (search.store?.size ?? 0) + (search.sets?.size ?? 0) });
  }
}
