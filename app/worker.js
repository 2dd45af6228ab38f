// The searches, off the page's thread.
//  - Hint (a message without op, {id, position, rules}): can the position still be won under
//    the rules options (default the app's), and with which move?
//    Answers {id, result: 'won' | 'lost' | 'undecided', move}: move is the first move of a
//    winning line when won, else null.
//  - {id, op: 'solve', position, rules, maxMillis}: the exact solver (solver.js) under the
//    rules options. While it runs, {id, progress: {bound, positions}} now and then (bound: the
//    fewest moves the answer can still have); then {id, solution: {max_removed, shortest, game,
//    winnable, complete, positions}}. complete is false when it gave up: past maxMillis, or at
//    MAX_SOLVE_POSITIONS. A search cannot be interrupted by a message (it never yields), so
//    the page stops one by terminating the worker and starting a new one.

import { decide } from './decider.js';
import { solve } from './solver.js';

// About a second or two of search, and at most some 64 MB of memory for the positions seen —
// enough for almost every position of a real game; beyond it the hint says "not checked".
const MAX_NODES = 4_000_000;
// Some 100 MB at most for the solver's positions: what a phone's browser gives a worker.
const MAX_SOLVE_POSITIONS = 3_000_000;
const PROGRESS_EVERY = 20_000; // positions expanded, some tens of milliseconds

function hint(id, position, rules = {}) {
  try {
    const { result, line } = decide(position, { maxNodes: MAX_NODES, rules });
    return { id, result, move: result === 'won' && line && line.length ? line[0] : null };
  } catch {
    return { id, result: 'undecided', move: null };
  }
}

function solution(id, { position, rules = {}, maxMillis = Infinity }) {
  const started = Date.now();
  try {
    const r = solve(position, {
      rules, maxPositions: MAX_SOLVE_POSITIONS, progressEvery: PROGRESS_EVERY,
      onProgress: (bound, positions) => {
        self.postMessage({ id, progress: { bound, positions } });
        return Date.now() - started > maxMillis ? 'stop' : undefined;
      },
    });
    const { max_removed, shortest, game, winnable, complete, positions } = r;
    return { id, solution: { max_removed, shortest, game, winnable, complete, positions } };
  } catch (e) {
    return { id, error: e.message };
  }
}

self.onmessage = (event) => {
  const { id, op, position, rules } = event.data;
  self.postMessage(op === 'solve' ? solution(id, event.data) : hint(id, position, rules));
};
