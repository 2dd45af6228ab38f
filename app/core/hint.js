// Hint, as docs/rules.md ("Hint") describes it: a quick legal suggestion at once, then a search in a Web
// Worker from the same position that confirms a winning move, proves the position lost (and
// then how far back the game could still be won, judge.js), or gives up at its limit. The worker runs off the page's thread, so the page never freezes.

import { legalMoves } from './engine.js';

// The search gives up after this long; the quick suggestion then stays, marked "not checked".
const TIME_LIMIT_MS = 8000;

/** A legal move picked without searching (under the rules options): a king, else a pair, else
 *  draw, else turn; or null. */
export function quickSuggestion(position, rules = {}) {
  const moves = legalMoves(position, rules);
  for (const kind of ['king', 'pair', 'draw', 'turn']) {
    const move = moves.find((m) => m.startsWith(kind));
    if (move) return move;
  }
  return null;
}

/**
 * What the survey decided about deals from the start, from the page's
 * `script.pyramide-winnable` data (generator/render/game_embed.py): {first, last, winnable, undecided}
 * where `winnable` is base64 of a bitset, deal n at bit (n - first) % 8 of byte (n - first) >> 3,
 * and `undecided` lists the deals the survey could not decide. result(n) is 'won', 'lost',
 * 'undecided', or null outside the range (or without data: nothing is known then).
 */
export class KnownDeals {
  constructor(data) {
    this.first = 0;
    this.last = -1;
    try {
      const bytes = Uint8Array.from(atob(data.winnable), (c) => c.charCodeAt(0));
      const { first, last } = data;
      if (!Number.isInteger(first) || !Number.isInteger(last) || bytes.length !== Math.ceil((last - first + 1) / 8)) return;
      this.bytes = bytes;
      this.undecided = new Set(Array.isArray(data.undecided) ? data.undecided : []);
      this.first = first;
      this.last = last;
    } catch {
      /* no data, or not in the expected shape: nothing is known */
    }
  }

  result(deal) {
    if (!(deal >= this.first && deal <= this.last)) return null;
    if (this.undecided.has(deal)) return 'undecided';
    const i = deal - this.first;
    return (this.bytes[i >> 3] >> (i & 7)) & 1 ? 'won' : 'lost';
  }
}

/**
 * One search at a time. start({deal, moves, known, rules}, done) judges the game of `deal`
 * after `moves` under the rules options `rules` (judge.js; `known`: the survey's answer for the deal, or null) and calls
 * done({result: 'won'|'lost'|'undecided'|'unavailable', move, deal, back}) once, unless
 * cancel() came first ('unavailable': the worker could not
 * start — blocked, or its file could not be loaded, e.g. offline before the site was cached). A worker that is busy when the position changes is
 * terminated; an idle one is kept for the next hint, so it starts warm.
 */
export class HintSearch {
  constructor(workerUrl) {
    this.workerUrl = workerUrl;
    this.worker = null;
    this.pending = null; // {id, done, timer}
    this.nextId = 0;
  }

  start(request, done) {
    this.cancel();
    const id = ++this.nextId;
    const finish = (answer) => {
      if (!this.pending || this.pending.id !== id) return;
      clearTimeout(this.pending.timer);
      this.pending = null;
      done(answer);
    };
    try {
      if (!this.worker) {
        this.worker = new Worker(this.workerUrl, { type: 'module' });
        this.worker.onmessage = (event) => {
          if (this.pending && event.data.id === this.pending.id) this.pending.finish(event.data);
        };
        this.worker.onerror = (event) => {
          event.preventDefault();
          this.stopWorker();
          if (this.pending) this.pending.finish({ result: 'unavailable', move: null, deal: null, back: null });
        };
      }
      this.pending = { id, finish, timer: setTimeout(() => { this.stopWorker(); finish({ result: 'undecided', move: null, deal: null, back: null }); }, TIME_LIMIT_MS) };
      const { deal, moves, known = null, rules = {} } = request;
      this.worker.postMessage({ id, deal, moves, known, rules });
    } catch {
      // No workers here (very old browser, or blocked), or the request could not be sent: the
      // suggestion stays unchecked. A time limit already set would stop the next search's worker.
      if (this.pending) clearTimeout(this.pending.timer);
      this.pending = { id, finish, timer: 0 };
      finish({ result: 'unavailable', move: null, deal: null, back: null });
    }
  }

  /** Forget the running search (the position changed); a busy worker is stopped. */
  cancel() {
    if (!this.pending) return;
    clearTimeout(this.pending.timer);
    this.pending = null;
    this.stopWorker();
  }

  get busy() {
    return this.pending !== null;
  }

  stopWorker() {
    if (this.worker) this.worker.terminate();
    this.worker = null;
  }
}
