// The Hint search, off the page's thread: can the game still be won, and with which move; when
// not, since when (judge.js)? Answers {id, result: 'won' | 'lost' | 'undecided', move, deal,
// back}.

import { judge } from './judge.js';

// About a second or two of search per position, and at most some 64 MB of memory for the
// positions seen — enough for almost every position of a real game; beyond it the hint says
// "not checked".
const MAX_NODES = 4_000_000;

self.onmessage = (event) => {
  const { id, deal, moves, known } = event.data;
  let answer;
  try {
    answer = { id, ...judge(deal, moves, { maxNodes: MAX_NODES, known }) };
  } catch {
    answer = { id, result: 'undecided', move: null, deal: null, back: null };
  }
  self.postMessage(answer);
};
