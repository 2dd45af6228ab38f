// The tests' plain reference for the exact solver (app/core/solver.js): from a position, the
// largest number of pyramid cards that can still be removed and the fewest moves that remove
// that many (a win first in the strict variant), with one such game. It walks forward by
// number of moves (breadth first), remembers every position seen and uses the engine's own
// move generation (forEachMove) one move at a time: slow and big, but obviously the search the
// rules describe. (Until issue 28 this was app/core/solver.js.)

import { compile, forEachMove, moveNotation, bitCount, normaliseRules, isWon } from '../../../app/core/engine.js';

// A position of one game packs into two 32-bit words:
//   hi = pyramid mask (28 bits) | turns left << 28
//   lo = side mask (≤ 24 bits)  | waste boundary p (≤ 24, 5 bits) << 24
// Positions are stored in the order found, which is the order of depth, so each depth is a
// contiguous range of indices and no separate queue is needed.
class PositionStore {
  constructor(initialCapacity = 1 << 16) {
    this.size = 0;
    this.hi = new Uint32Array(initialCapacity);
    this.lo = new Uint32Array(initialCapacity);
    this.parent = new Int32Array(initialCapacity);
    this.slots = new Int32Array(initialCapacity * 2).fill(-1); // open addressing, index or -1
    this.slotMask = initialCapacity * 2 - 1;
  }

  static hash(hi, lo) {
    let h = Math.imul(hi ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(lo ^ 0x7f4a7c15, 0xc2b2ae35);
    h ^= h >>> 15;
    h = Math.imul(h, 0x27d4eb2f);
    return (h ^ (h >>> 13)) >>> 0;
  }

  /** Stores the position and returns its index, or -1 when it was already there. */
  add(hi, lo, parent) {
    let slot = PositionStore.hash(hi, lo) & this.slotMask;
    for (;;) {
      const at = this.slots[slot];
      if (at < 0) break;
      if (this.hi[at] === hi && this.lo[at] === lo) return -1;
      slot = (slot + 1) & this.slotMask;
    }
    const index = this.size++;
    this.slots[slot] = index;
    this.hi[index] = hi;
    this.lo[index] = lo;
    this.parent[index] = parent;
    if (this.size === this.hi.length) this.grow();
    return index;
  }

  // Doubling keeps the hash table at most half full, so probes stay short.
  grow() {
    const capacity = this.hi.length * 2;
    for (const name of ['hi', 'lo', 'parent']) {
      const bigger = new this[name].constructor(capacity);
      bigger.set(this[name]);
      this[name] = bigger;
    }
    this.slots = new Int32Array(capacity * 2).fill(-1);
    this.slotMask = capacity * 2 - 1;
    for (let i = 0; i < this.size; i++) {
      let slot = PositionStore.hash(this.hi[i], this.lo[i]) & this.slotMask;
      while (this.slots[slot] >= 0) slot = (slot + 1) & this.slotMask;
      this.slots[slot] = i;
    }
  }

  bytes() {
    return this.hi.byteLength + this.lo.byteLength + this.parent.byteLength + this.slots.byteLength;
  }
}

const PYR_BITS = 28;
const SIDE_BITS = 24;
const SIDE_MASK = (1 << SIDE_BITS) - 1;

/**
 * Solve a plain position (docs/positions.md). Options:
 *   onProgress(depth, positions)  called after each depth
 *   maxPositions                  stop with {complete: false} once this many are stored
 *   kingFirst (default true)      the free-king pruning below; false gives the plain search
 * Returns {max_removed, shortest, game, positions, winnable, complete}.
 *
 * Pruning — a free pyramid king is removed at once (kingFirst). Why the answer stays exact:
 * take a shortest game G reaching the largest count m from a position where king K is free.
 * G removes K at some move j: if it did not, G would not be won, and K stays free (cards are
 * only ever removed), so "king K" appended to G would remove m + 1 cards — more than the
 * largest. Move that removal to the front: K is in no other move, removing it only frees more
 * cards and never touches stock or waste, so every other move of G stays legal and the game
 * keeps its length and its count. So among the shortest best games there is one that takes
 * K first, and the search may ignore the other moves here. tests/app/core/solver.test.mjs compares
 * both numbers with the plain search.
 */
export function solve(position, options = {}) {
  const { onProgress = null, maxPositions = Infinity, kingFirst = true } = options;
  const rules = normaliseRules(options.rules ?? {});
  const { table, pyr, side, p, turns } = compile(position);
  const startCount = bitCount(pyr);
  const store = new PositionStore();
  store.add((pyr | (turns << PYR_BITS)) >>> 0, (side | (p << SIDE_BITS)) >>> 0, -1);

  let best = 0, bestIndex = 0, bestDepth = 0;
  let won = isWon(pyr, side, rules), complete = true;
  let wonIndex = -1; // strict: the first position where every card is gone
  let parentIndex = 0, depth = 0;

  const visit = (kind, a, b, pyr2, side2, p2, turns2) => {
    if (won) return;
    const index = store.add((pyr2 | (turns2 << PYR_BITS)) >>> 0, (side2 | (p2 << SIDE_BITS)) >>> 0, parentIndex);
    if (index < 0) return;
    const removed = startCount - bitCount(pyr2);
    if (removed > best) { best = removed; bestIndex = index; bestDepth = depth + 1; }
    if (isWon(pyr2, side2, rules)) { won = true; wonIndex = index; bestDepth = depth + 1; } // the first win found is a shortest one: stop here
  };

  let from = 0, to = store.size;
  while (!won && from < to) {
    for (parentIndex = from; parentIndex < to && !won; parentIndex++) {
      const hi = store.hi[parentIndex], lo = store.lo[parentIndex];
      forEachMove(table, hi & 0x0fffffff, lo & SIDE_MASK, lo >>> SIDE_BITS, hi >>> PYR_BITS, visit, kingFirst, rules);
    }
    depth++;
    from = to;
    to = store.size;
    if (onProgress) onProgress(depth, store.size);
    if (store.size >= maxPositions && !won && from < to) { complete = false; break; }
  }

  const startWon = isWon(pyr, side, rules);
  if (wonIndex >= 0) { bestIndex = wonIndex; best = startCount; }
  return {
    max_removed: best,
    shortest: startWon ? 0 : bestDepth,
    game: startWon ? [] : gameTo(store, table, bestIndex, kingFirst, rules),
    positions: store.size,
    winnable: startWon || wonIndex >= 0,
    complete,
    bytes: store.bytes(),
  };
}

// The moves from the start to a stored position: walk the parents back, then name each step
// by finding, among the parent's moves, the one that leads to the child.
function gameTo(store, table, index, kingFirst, rules) {
  const chain = [];
  for (let i = index; i >= 0; i = store.parent[i]) chain.push(i);
  chain.reverse();
  const game = [];
  for (let s = 1; s < chain.length; s++) {
    const from = chain[s - 1], to = chain[s];
    const hi = store.hi[from], lo = store.lo[from];
    let found = null;
    forEachMove(table, hi & 0x0fffffff, lo & SIDE_MASK, lo >>> SIDE_BITS, hi >>> PYR_BITS, (kind, a, b, pyr2, side2, p2, turns2) => {
      if (found === null && ((pyr2 | (turns2 << PYR_BITS)) >>> 0) === store.hi[to] && ((side2 | (p2 << SIDE_BITS)) >>> 0) === store.lo[to]) {
        found = moveNotation(table, kind, a, b);
      }
    }, kingFirst, rules);
    game.push(found);
  }
  return game;
}
