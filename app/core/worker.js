// The searches, off the page's thread.
//  - Hint ({id, deal, moves, known, rules}): can the game still be won under the rules options
//    (default the app's), and with which move; when not, since when (judge.js)? Answers
//    {id, result: 'won' | 'lost' | 'undecided', move, deal, back}.
//  - {id, rewind: positions}: the last position of the game's history that can still be won
//    (rewind.js), for the lost panel's "back to the last winnable position".
//  - {id, op: 'solve', position, rules, maxMillis}: the exact solver (solver.js) under the
//    rules options. While it runs, {id, progress: {bound, positions}} now and then (bound: the
//    fewest moves the answer can still have); then {id, solution: {max_removed, shortest, game,
//    winnable, complete, positions}}. complete is false when it gave up: past maxMillis, or at
//    MAX_SOLVE_POSITIONS. A search cannot be interrupted by a message (it never yields), so
//    the page stops one by terminating the worker and starting a new one.

import { judge } from './judge.js';
import { lastWinnable } from './rewind.js';
import { solve } from './solver.js';

// About a second or two of search per position, and at most some 64 MB of memory for the
// positions seen — enough for almost every position of a real game; beyond it the hint says
// "not checked".
const MAX_NODES = 4_000_000;
// Some 100 MB at most for the solver's positions: what a phone's browser gives a worker.
const MAX_SOLVE_POSITIONS = 3_000_000;
const PROGRESS_EVERY = 20_000; // positions expanded, some tens of milliseconds

function hint(id, { deal, moves, known, rules = {} }) {
  try {
    return { id, ...judge(deal, moves, { maxNodes: MAX_NODES, known, rules }) };
  } catch {
    return { id, result: 'undecided', move: null, deal: null, back: null };
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
  const { id, op, rewind, rules = {} } = event.data;
  if (rewind) return self.postMessage({ id, rewind: lastWinnable(rewind, { maxNodes: MAX_NODES, rules }) });
  self.postMessage(op === 'solve' ? solution(id, event.data) : hint(id, event.data));
};
