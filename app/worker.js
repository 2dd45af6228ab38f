// The Hint search, off the page's thread: can the game still be won, and with which move; when
// not, since when (judge.js)? Answers {id, result: 'won' | 'lost' | 'undecided', move, deal,
// back}.

import { judge } from './judge.js';
import { lastWinnable } from './rewind.js';

// About a second or two of search per position, and at most some 64 MB of memory for the
// positions seen — enough for almost every position of a real game; beyond it the hint says
// "not checked".
const MAX_NODES = 4_000_000;

self.onmessage = (event) => {
  // game: back to the last winnable position (app/rewind.js), {id, rewind: positions} → {id, rewind}
  if (event.data.rewind) return self.postMessage({ id: event.data.id, rewind: lastWinnable(event.data.rewind, { maxNodes: MAX_NODES }) });
  const { id, deal, moves, known } = event.data;
  let answer;
  try {
    answer = { id, ...judge(deal, moves, { maxNodes: MAX_NODES, known }) };
  } catch {
    answer = { id, result: 'undecided', move: null, deal: null, back: null };
  }
  self.postMessage(answer);
};
