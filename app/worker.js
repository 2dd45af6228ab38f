// The Hint search, off the page's thread: can the position still be won, and with which move?
// Answers {id, result: 'won' | 'lost' | 'undecided', move}: move is the first move of a winning
// line when won, else null.

import { decide } from './decider.js';
import { lastWinnable } from './rewind.js';

// About a second or two of search, and at most some 64 MB of memory for the positions seen —
// enough for almost every position of a real game; beyond it the hint says "not checked".
const MAX_NODES = 4_000_000;

self.onmessage = (event) => {
  // game: back to the last winnable position (app/rewind.js), {id, rewind: positions} → {id, rewind}
  if (event.data.rewind) return self.postMessage({ id: event.data.id, rewind: lastWinnable(event.data.rewind, { maxNodes: MAX_NODES }) });
  const { id, position } = event.data;
  let answer;
  try {
    const { result, line } = decide(position, { maxNodes: MAX_NODES });
    answer = { id, result, move: result === 'won' && line && line.length ? line[0] : null };
  } catch {
    answer = { id, result: 'undecided', move: null };
  }
  self.postMessage(answer);
};
