// app/core/hint.js in Node: the quick suggestion, the survey's known deals, and the hint search's
// one-at-a-time rule with a stand-in Worker, so that a search the position left behind is
// stopped and never answers (make mutation MODULE=app-hint runs this file). The browser tests
// (test_game_browser.py) play the same with the real worker.
import test, { mock } from 'node:test';
import assert from 'node:assert/strict';
import { openingPosition, legalMoves } from '../../../app/core/engine.js';
import { quickSuggestion, KnownDeals, HintSearch } from '../../../app/core/hint.js';

// ------------------------------------------------------------------ the quick suggestion

function position(pyramid, stock = [], waste = [], turnsLeft = 2) {
  const cards = Array(28).fill(null);
  Object.assign(cards, pyramid);
  return { pyramid: cards, stock, waste, turns_left: turnsLeft, points: 0, moves: 0 };
}

test('the quick suggestion: a king, else a pair, else a draw, else a turn, else nothing', () => {
  assert.equal(quickSuggestion(position({ 21: 'KS', 22: '6H' }, ['7D'], ['7S'])), 'king KS');
  assert.equal(quickSuggestion(position({ 21: 'QS', 22: '6H' }, ['AD'], ['7S'])), 'pair 7S 6H');
  assert.equal(quickSuggestion(position({ 21: 'QS' }, ['AD'], ['7S'])), 'draw');
  assert.equal(quickSuggestion(position({ 21: 'QS' }, [], ['7S', '2D'])), 'turn');
  assert.equal(quickSuggestion(position({ 21: 'QS' }, [], ['7S', '2D'], 0)), null);
});

test('the quick suggestion follows the rules options it is given', () => {
  // Under stock-top the stock's top card pairs; under the standard rules only a draw is left.
  const pos = position({ 21: '6H' }, ['7S', 'AD'], ['JD']);
  assert.equal(quickSuggestion(pos), 'draw');
  assert.equal(quickSuggestion(pos, { stockTop: true }), 'pair 7S 6H');
});

test('the quick suggestion of every opening is one of its legal moves, of the first kind there is', () => {
  for (let n = 1; n <= 50; n++) {
    const pos = openingPosition(n);
    const moves = legalMoves(pos);
    const first = ['king', 'pair', 'draw', 'turn'].find((kind) => moves.some((m) => m.startsWith(kind)));
    const move = quickSuggestion(pos);
    assert.ok(moves.includes(move) && move.startsWith(first), `deal ${n}: ${move}`);
  }
});

// ------------------------------------------------------------------ the survey's known deals

// Deals 10 … 25: bit (n - 10) % 8 of byte (n - 10) >> 3, won for 10, 12, 17 and 25; 20 undecided.
const BYTES = [0b10000101, 0b10000000];
const DATA = { first: 10, last: 25, winnable: btoa(String.fromCharCode(...BYTES)), undecided: [20] };

test('known deals: each deal of the range by its bit, the undecided named, nothing outside', () => {
  const known = new KnownDeals(DATA);
  const won = [10, 12, 17, 25];
  for (let n = 10; n <= 25; n++) {
    assert.equal(known.result(n), n === 20 ? 'undecided' : won.includes(n) ? 'won' : 'lost', `deal ${n}`);
  }
  for (const n of [9, 26, 0, -1, NaN, undefined]) assert.equal(known.result(n), null, `deal ${n}`);
});

test('known deals without a list of undecided ones: every deal of the range is won or lost', () => {
  const known = new KnownDeals({ ...DATA, undecided: 'none' });
  assert.equal(known.result(20), 'lost');
  assert.equal(known.result(17), 'won');
});

test('known deals from data of the wrong shape know nothing', () => {
  const wrong = [
    undefined, null, {}, { ...DATA, winnable: '***' }, { ...DATA, first: '10' }, { ...DATA, last: 25.5 },
    { ...DATA, last: 33 }, // one byte too few for 24 deals
    { ...DATA, last: 17 }, // one byte too many for 8 deals
  ];
  for (const data of wrong) {
    const known = new KnownDeals(data);
    for (const n of [0, 1, 10, 12, 17, 20]) assert.equal(known.result(n), null, `${JSON.stringify(data)}: deal ${n}`);
  }
  // Exactly the bytes the range needs: 8 deals in one byte, 9 in two.
  assert.equal(new KnownDeals({ ...DATA, last: 17, winnable: btoa(String.fromCharCode(BYTES[0])) }).result(17), 'won');
  assert.equal(new KnownDeals({ ...DATA, last: 18 }).result(18), 'lost');
});

// ------------------------------------------------------------------ one search at a time

// A stand-in for the browser's Worker: records what it is sent and whether it was stopped;
// answer() plays the worker's reply, fail() its error event; with refuseToSend set, postMessage
// throws as a browser does for a request it cannot copy (DataCloneError).
class FakeWorker {
  static made = [];
  static refuseToSend = false;

  constructor(url, options) {
    this.url = url;
    this.options = options;
    this.sent = [];
    this.terminated = false;
    FakeWorker.made.push(this);
  }

  postMessage(message) {
    if (FakeWorker.refuseToSend) throw new Error('DataCloneError');
    this.sent.push(message);
  }

  terminate() { this.terminated = true; }

  answer(data) { this.onmessage({ data }); }

  fail() {
    let prevented = false;
    this.onerror({ preventDefault: () => { prevented = true; } });
    return prevented;
  }
}

function withWorkers(run) {
  const before = globalThis.Worker;
  globalThis.Worker = FakeWorker;
  FakeWorker.made = [];
  FakeWorker.refuseToSend = false;
  mock.timers.enable({ apis: ['setTimeout'] });
  try {
    run();
  } finally {
    mock.timers.reset();
    if (before === undefined) delete globalThis.Worker; else globalThis.Worker = before;
  }
}

const REQUEST = { deal: 7, moves: ['draw', 'pair 7S 6H'], known: 'won', rules: { stockTop: true } };
// What a search answers when it cannot be run.
const UNAVAILABLE = { result: 'unavailable', move: null, deal: null, back: null };

test('a search posts its request to a module worker and answers once, with what the worker said', () => {
  withWorkers(() => {
    const search = new HintSearch('worker.js');
    const answers = [];
    assert.equal(search.busy, false);
    search.start(REQUEST, (a) => answers.push(a));
    assert.equal(search.busy, true);
    const [worker] = FakeWorker.made;
    assert.deepEqual([worker.url, worker.options], ['worker.js', { type: 'module' }]);
    assert.deepEqual(worker.sent, [{ id: 1, deal: 7, moves: ['draw', 'pair 7S 6H'], known: 'won', rules: { stockTop: true } }]);
    const reply = { id: 1, result: 'won', move: 'draw', deal: 7, back: null };
    worker.answer(reply);
    worker.answer(reply); // said twice: answered once
    assert.deepEqual(answers, [reply]);
    assert.equal(search.busy, false);
    assert.equal(worker.terminated, false, 'an idle worker is kept for the next hint');
    mock.timers.tick(60000);
    assert.equal(answers.length, 1, 'the time limit of an answered search does nothing');
    assert.equal(worker.terminated, false, 'nor does it stop the idle worker');
  });
});

test('a request without known or rules sends null and the standard rules', () => {
  withWorkers(() => {
    new HintSearch('worker.js').start({ deal: 3, moves: [] }, () => {});
    assert.deepEqual(FakeWorker.made[0].sent, [{ id: 1, deal: 3, moves: [], known: null, rules: {} }]);
  });
});

test('an idle worker is used again, warm, for the next search', () => {
  withWorkers(() => {
    const search = new HintSearch('worker.js');
    const answers = [];
    search.start(REQUEST, (a) => answers.push(a));
    FakeWorker.made[0].answer({ id: 1, result: 'lost', move: null, deal: 5, back: 3 });
    search.start({ ...REQUEST, deal: 8 }, (a) => answers.push(a));
    assert.equal(FakeWorker.made.length, 1);
    assert.deepEqual(FakeWorker.made[0].sent.map((m) => [m.id, m.deal]), [[1, 7], [2, 8]]);
    FakeWorker.made[0].answer({ id: 2, result: 'won', move: 'draw', deal: 8, back: null });
    assert.deepEqual(answers.map((a) => a.result), ['lost', 'won']);
  });
});

test('cancel stops a busy worker, and the search it ran never answers', () => {
  withWorkers(() => {
    const search = new HintSearch('worker.js');
    const answers = [];
    search.start(REQUEST, (a) => answers.push(a));
    const [worker] = FakeWorker.made;
    search.cancel();
    assert.equal(worker.terminated, true);
    assert.equal(search.busy, false);
    worker.answer({ id: 1, result: 'won', move: 'draw', deal: 7, back: null }); // too late
    mock.timers.tick(60000);
    assert.deepEqual(answers, []);
    search.cancel(); // nothing running: nothing to stop
    assert.equal(FakeWorker.made.length, 1);
  });
});

test('the time limit of a cancelled search does not stop the search after it', () => {
  withWorkers(() => {
    const search = new HintSearch('worker.js');
    const answers = [];
    search.start(REQUEST, (a) => answers.push(['old', a.result]));
    mock.timers.tick(5000);
    search.cancel();
    search.start({ ...REQUEST, deal: 9 }, (a) => answers.push(['new', a.result]));
    mock.timers.tick(3000); // the cancelled search's limit would fall here
    assert.equal(FakeWorker.made[1].terminated, false);
    assert.deepEqual(answers, []);
    mock.timers.tick(5000); // and the new search's own here
    assert.deepEqual(answers, [['new', 'undecided']]);
  });
});

test('a request the worker cannot be sent answers unavailable once, and its time limit is not left to stop the next search', () => {
  withWorkers(() => {
    FakeWorker.refuseToSend = true;
    const search = new HintSearch('worker.js');
    const answers = [];
    search.start(REQUEST, (a) => answers.push(a));
    assert.deepEqual(answers, [UNAVAILABLE]);
    assert.equal(search.busy, false);
    FakeWorker.refuseToSend = false;
    mock.timers.tick(5000);
    search.start({ ...REQUEST, deal: 9 }, (a) => answers.push(a));
    mock.timers.tick(3000); // the first request's limit, had it been left set, falls here
    assert.equal(FakeWorker.made[0].terminated, false, "the next search's worker is left alone");
    assert.equal(answers.length, 1);
    mock.timers.tick(5000);
    assert.deepEqual(answers.map((a) => a.result), ['unavailable', 'undecided']);
  });
});

test('cancel with no search running keeps the idle worker', () => {
  withWorkers(() => {
    const search = new HintSearch('worker.js');
    search.start(REQUEST, () => {});
    FakeWorker.made[0].answer({ id: 1, result: 'won', move: 'draw', deal: 7, back: null });
    search.cancel();
    assert.equal(FakeWorker.made[0].terminated, false);
    search.start(REQUEST, () => {});
    assert.equal(FakeWorker.made.length, 1);
  });
});

test('a new search while one runs stops the old one in a new worker, and only the new one answers', () => {
  withWorkers(() => {
    const search = new HintSearch('worker.js');
    const answers = [];
    search.start(REQUEST, (a) => answers.push(['old', a.result]));
    search.start({ ...REQUEST, deal: 9 }, (a) => answers.push(['new', a.result]));
    const [old, fresh] = FakeWorker.made;
    assert.equal(old.terminated, true);
    assert.equal(fresh.terminated, false);
    assert.deepEqual(fresh.sent.map((m) => m.id), [2]);
    fresh.answer({ id: 1, result: 'won', move: 'draw', deal: 7, back: null }); // an old id: ignored
    assert.deepEqual(answers, []);
    fresh.answer({ id: 2, result: 'lost', move: null, deal: 9, back: null });
    assert.deepEqual(answers, [['new', 'lost']]);
  });
});

test('after its time limit a search answers undecided, once, and its worker is stopped', () => {
  withWorkers(() => {
    const search = new HintSearch('worker.js');
    const answers = [];
    search.start(REQUEST, (a) => answers.push(a));
    mock.timers.tick(7999);
    assert.deepEqual(answers, []);
    mock.timers.tick(1);
    assert.deepEqual(answers, [{ result: 'undecided', move: null, deal: null, back: null }]);
    assert.equal(FakeWorker.made[0].terminated, true);
    assert.equal(search.busy, false);
    FakeWorker.made[0].answer({ id: 1, result: 'won', move: 'draw', deal: 7, back: null });
    assert.equal(answers.length, 1);
    search.start(REQUEST, () => {});
    assert.equal(FakeWorker.made.length, 2, 'a stopped worker is made anew');
  });
});

test('a worker that fails answers unavailable, once, and is made anew for the next search', () => {
  withWorkers(() => {
    const search = new HintSearch('worker.js');
    const answers = [];
    search.start(REQUEST, (a) => answers.push(a));
    assert.equal(FakeWorker.made[0].fail(), true, 'the error is handled, not reported to the console');
    assert.deepEqual(answers, [UNAVAILABLE]);
    assert.equal(FakeWorker.made[0].terminated, true);
    assert.equal(search.busy, false);
    mock.timers.tick(60000);
    assert.equal(answers.length, 1);
    FakeWorker.made[0].fail(); // an error with no search running answers nothing
    assert.equal(answers.length, 1);
    search.start(REQUEST, () => {});
    assert.equal(FakeWorker.made.length, 2);
  });
});

test('without workers (an old or locked-down browser) a search answers unavailable at once', () => {
  const before = globalThis.Worker;
  globalThis.Worker = class { constructor() { throw new Error('blocked'); } };
  try {
    const search = new HintSearch('worker.js');
    const answers = [];
    search.start(REQUEST, (a) => answers.push(a));
    assert.deepEqual(answers, [UNAVAILABLE]);
    assert.equal(search.busy, false);
  } finally {
    if (before === undefined) delete globalThis.Worker; else globalThis.Worker = before;
  }
});
