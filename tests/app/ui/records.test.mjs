// Unit tests in Node of the game's honest records (issue 43), through the game's own methods
// (app/ui/game-end.js, opening.js, deal-field.js) on a small stand-in for the page's Game, with
// fake storage and the real nb strings: a look at other rules gives up nothing, a restart still
// does; a win's record line is measured against its own rules and says the hints; a deal number
// typed is read as a link's and anything else refused in the page's words.
import test from 'node:test';
import assert from 'node:assert/strict';
import { newGame, playMove, currentPosition, VARIANTS, MAX_DEAL } from '../../../app/core/engine.js';
import { solve } from '../../../app/core/solver.js';
import { statistics } from '../../../app/core/stats.js';
import { makeWords } from '../../../app/ui/board.js';
import { gameEnd } from '../../../app/ui/game-end.js';
import { opening, SHOWN_CHARS } from '../../../app/ui/opening.js';
import { dealField } from '../../../app/ui/deal-field.js';
import { variantOf } from '../../../app/ui/variants.js';
import { pageStrings } from '../core/page_strings.mjs';
import { FakeStorage } from '../fake_storage.mjs';


const strings = pageStrings(['nb']).nb; // game.json with the locale data the page gives the game
const results = () => [...globalThis.localStorage.map.keys()].filter((k) => k.startsWith('pyramide.result.'));

// The Game's state and the few of its methods these mixins call, as game.js has them.
function fakeGame(deal = 27) {
  globalThis.localStorage = new FakeStorage();
  globalThis.sessionStorage = new FakeStorage();
  globalThis.window = { location: { pathname: '/', search: '', hash: '' } };
  globalThis.history = { pushState: (s, t, url) => { globalThis.window.location.hash = url.slice(url.indexOf('#')); }, replaceState() {} };
  const words = makeWords(strings);
  const game = {
    ...opening, ...gameEnd, ...dealField,
    get variant() { return variantOf(this.state.game); },
    get position() { return currentPosition(this.state.game); },
  };
  return Object.assign(Object.create(game), {
    words, s: strings, num: (n) => `<${n}>`, date: (d) => d, pool: [27, 8, 3], choice: null, known: { result: () => null },
    openings: new Map(), stats: { refresh() {} }, clock: { ms: 0 }, today: '2026-12-10', dailyToday: () => null,
    state: { game: newGame(deal), undoSteps: [], meta: null, redo: [] },
    update(changes) { Object.assign(this.state, changes); },
    message(text, kind = 'info') { return { text, kind }; },
    withEnd(game, text) { return { text }; },
  });
}

// A move as game.js finishMove makes it: the statistics' data, the end counted.
function move(g, m) {
  const game = playMove(g.state.game, m);
  const meta = g.metaAfterMove(game);
  const record = g.recordEnd(game, meta);
  g.state.game = game;
  g.state.meta = meta;
  return record;
}

const winning = (deal, rules) => {
  const answer = solve(currentPosition(newGame(deal, rules)), { rules });
  return answer.winnable ? answer.game : null;
};

test('a look at other rules, with or without a move there, gives up nothing; a restart still does', () => {
  const g = fakeGame();
  move(g, 'draw');
  g.chooseVariant('one-pass');
  assert.equal(g.variant, 'one-pass');
  move(g, 'draw');
  g.chooseVariant('standard');
  g.chooseVariant('one-pass');
  g.chooseVariant('standard');
  assert.deepEqual(results(), [], 'nothing counted');
  for (const rules of ['standard', 'one-pass']) assert.equal(statistics(rules).totals.played, 0);
  g.state.game = playMove(newGame(27), 'draw');
  g.state.meta = { id: 'abcdefgh1234', hints: 0, ms: 0, daily: null };
  g.giveUp();
  assert.equal(statistics('standard').totals.givenUp, 1, 'a game with a move given up by a restart or new game');
});

test('a game with no move is never given up', () => {
  const g = fakeGame();
  g.state.meta = { id: 'abcdefgh5678', hints: 0, ms: 0, daily: null };
  g.giveUp();
  assert.deepEqual(results(), []);
});

test('a win\'s record line is measured against its own rules and says the hints that helped', () => {
  const g = fakeGame(27);
  const standard = winning(27, VARIANTS.standard);
  let record = null;
  for (const m of standard) record = move(g, m);
  assert.equal(record, words('record_first', { points: makeWords(strings).count('points', currentPosition(g.state.game).points), moves: makeWords(strings).count('moves', standard.length) }));
  // A deal won under one-pass, with two hints: that rule set's first record, hints said.
  const deal = 147; // the first deal the survey won under one-pass
  const onePass = winning(deal, VARIANTS['one-pass']);
  g.state.game = newGame(deal, VARIANTS['one-pass']);
  g.state.meta = null;
  move(g, onePass[0]);
  g.state.meta = { ...g.state.meta, hints: 2 };
  for (const m of onePass.slice(1)) record = move(g, m);
  const pos = currentPosition(g.state.game);
  assert.equal(pos.status, 'won');
  assert.equal(record, `${words('record_first', { points: makeWords(strings).count('points', pos.points), moves: makeWords(strings).count('moves', onePass.length) })} ${words('record_hints', { hints: '<2>' })}`);
  assert.equal(statistics('one-pass').totals.hints, 2);
  assert.equal(statistics('standard').totals.played, 1);
});

function words(key, values) {
  return makeWords(strings).fill(strings.end[key], values);
}

test('a deal number typed opens that deal; anything else is refused and changes nothing', () => {
  const g = fakeGame(27);
  for (const bad of ['abc', '0', '-1', '1e3', '12.5', String(MAX_DEAL + 1), '', ' ']) {
    assert.equal(g.openTypedDeal(bad), false, bad);
    assert.equal(g.state.game.deal, 27);
    assert.equal(g.state.message.kind, 'refused');
    assert.ok(g.state.message.text.startsWith(bad.trim() ? `«${bad}»` : strings.open_deal.empty.split(' ')[0]), g.state.message.text);
    assert.ok(g.state.message.text.includes(`<${MAX_DEAL}>`), 'the bounds said');
  }
  // Typed (or pasted) text is echoed as a link's is: its first SHOWN_CHARS characters and «…».
  for (const long of ['9'.repeat(5000), `${'ø'.repeat(SHOWN_CHARS)}x`, '🂡'.repeat(SHOWN_CHARS + 1)]) {
    assert.equal(g.openTypedDeal(long), false);
    const echoed = g.state.message.text.match(/«([^»]*)»/)[1];
    assert.equal(echoed, `${Array.from(long).slice(0, SHOWN_CHARS).join('')}…`);
    assert.ok(g.state.message.text.length < 400, g.state.message.text.length);
  }
  assert.equal(g.openTypedDeal(` ${MAX_DEAL} `), true);
  assert.equal(g.state.game.deal, MAX_DEAL);
  assert.equal(globalThis.window.location.hash, `#deal=${MAX_DEAL}`);
  assert.equal(g.state.message.text, makeWords(strings).cap(makeWords(strings).fill(strings.open_deal.opened, { deal: MAX_DEAL })));
});
