// "Back to the last position that can still be won": the decider (app/core/decider.js) over a game's
// history, newest first. Run in the Hint worker (app/core/worker.js), off the page's thread.
//
// Why newest first and stop at the first win: a position one move before a winnable one is
// winnable too (play that move, then the win), so the winnable positions of a game are exactly
// those up to some index. The first one found going back is therefore the last winnable one, and
// every later position has been decided lost on the way: exact, with no position skipped.

import { decide } from './decider.js';

/**
 * The index in `positions` (plain positions, the opening first) of the last one that can be
 * won: {result: 'found', index, lost}, or {result: 'none', lost} when not even the opening can
 * (lost from the start), or {result: 'undecided', index: null} when a search hit `maxNodes`.
 * `lost` lists the indices decided lost, newest first.
 */
export function lastWinnable(positions, { maxNodes = Infinity, rules = {} } = {}) {
  const lost = [];
  for (let i = positions.length - 1; i >= 0; i--) {
    const { result } = decide(positions[i], { maxNodes, rules });
    if (result === 'won') return { result: 'found', index: i, lost };
    if (result !== 'lost') return { result: 'undecided', index: null, lost };
    lost.push(i);
  }
  return { result: 'none', index: null, lost };
}

// The page's side: one search at a time in its own worker, answered once by `done`.
const TIME_LIMIT_MS = 30000;

export class RewindSearch {
  constructor(workerUrl) {
    this.workerUrl = workerUrl;
    this.worker = null;
    this.timer = 0;
  }

  start(positions, done, rules = {}) {
    this.cancel();
    const finish = (answer) => {
      this.cancel();
      done(answer);
    };
    try {
      this.worker = new Worker(this.workerUrl, { type: 'module' });
      this.worker.onmessage = (event) => finish(event.data.rewind ?? { result: 'undecided', index: null });
      this.worker.onerror = (event) => {
        event.preventDefault();
        finish({ result: 'unavailable', index: null });
      };
      this.timer = setTimeout(() => finish({ result: 'undecided', index: null }), TIME_LIMIT_MS);
      this.worker.postMessage({ id: 0, rewind: positions, rules });
    } catch {
      finish({ result: 'unavailable', index: null });
    }
  }

  cancel() {
    clearTimeout(this.timer);
    if (this.worker) this.worker.terminate();
    this.worker = null;
  }
}
