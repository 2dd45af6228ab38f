// Unit tests of app/core/storage.js in Node, with a fake localStorage/sessionStorage (node --test tests/app/core/).
import test from 'node:test';
import assert from 'node:assert/strict';
import * as S from '../../../app/core/storage.js';
import { FakeStorage } from '../fake_storage.mjs';


function fresh() {
  const local = new FakeStorage();
  const session = new FakeStorage();
  globalThis.localStorage = local;
  globalThis.sessionStorage = session;
  return { local, session };
}

test.afterEach(() => {
  delete globalThis.localStorage;
  delete globalThis.sessionStorage;
});

test('each deal is saved under its own key and read back', () => {
  const { local } = fresh();
  S.saveGame(27, ['pair 7D 6C', 'draw'], [{ moves: ['draw'] }]);
  S.saveGame(8, ['draw']);
  assert.deepEqual([...local.map.keys()].sort(), [`${S.PREFIX}27`, `${S.PREFIX}8`]);
  const g = S.loadGame(27);
  assert.deepEqual([g.deal, g.moves, g.undo], [27, ['pair 7D 6C', 'draw'], [{ moves: ['draw'] }]]);
  assert.deepEqual(S.loadGame(8).moves, ['draw']);
  assert.equal(S.loadGame(3), null);
  assert.equal(S.lastPlayedDeal(), 8);
  S.saveGame(27, ['pair 7D 6C']);
  assert.equal(S.lastPlayedDeal(), 27);
});

test('a game with no moves and nothing to undo is not kept', () => {
  const { local } = fresh();
  S.saveGame(27, ['draw']);
  S.saveGame(27, []);
  assert.equal(local.length, 0);
  S.saveGame(8, [], [{ deal: 27 }]); // a New game that Undo can take back is kept
  assert.deepEqual(S.loadGame(8).undo, [{ deal: 27 }]);
});

test('the 20 most recently played deals are kept, the oldest beyond that dropped', () => {
  fresh();
  for (let deal = 1; deal <= 25; deal++) S.saveGame(deal, ['draw']);
  S.saveGame(3, ['draw', 'draw']); // played again: now among the newest, so it stays
  const kept = Array.from({ length: 25 }, (_, i) => i + 1).filter((d) => S.loadGame(d));
  assert.equal(kept.length, S.MAX_GAMES);
  assert.deepEqual(kept, [3, ...Array.from({ length: 19 }, (_, i) => i + 7)]);
  assert.equal(S.lastPlayedDeal(), 3);
});

test('v1 is migrated once to its deal, then removed', () => {
  const { local } = fresh();
  local.setItem(S.V1_KEY, JSON.stringify({ version: 1, deal: 459, moves: ['draw', 'draw'] }));
  S.migrate();
  assert.equal(local.getItem(S.V1_KEY), null);
  assert.deepEqual(S.loadGame(459).moves, ['draw', 'draw']);
  // A v1 written later (an old page still open) never overwrites that deal's v2 game.
  S.saveGame(459, ['draw']);
  local.setItem(S.V1_KEY, JSON.stringify({ version: 1, deal: 459, moves: ['draw', 'draw', 'draw'] }));
  S.migrate();
  assert.deepEqual(S.loadGame(459).moves, ['draw']);
  assert.equal(local.getItem(S.V1_KEY), null);
});

test('corrupt data reads as nothing saved', () => {
  const { local } = fresh();
  const bad = ['not json {', 'null', '[1,2]', JSON.stringify({ version: 1, deal: 5, moves: [] }),
    JSON.stringify({ version: 2, deal: 6, moves: [] }), // another deal's game under this key
    JSON.stringify({ version: 2, deal: 5, moves: 'draw' }),
    JSON.stringify({ version: 2, deal: 5, moves: [7] }),
    JSON.stringify({ version: 2, deal: 5, moves: Array(3000).fill('draw') })];
  for (const text of bad) {
    local.setItem(`${S.PREFIX}5`, text);
    assert.equal(S.loadGame(5), null, text.slice(0, 40));
    assert.equal(S.lastPlayedDeal(), null);
  }
  local.setItem(`${S.PREFIX}5`, JSON.stringify({ version: 2, deal: 5, moves: ['draw'], undo: [{ oops: 1 }], at: 1 }));
  assert.deepEqual(S.loadGame(5).undo, []); // unusable undo steps are dropped, the moves kept
  for (const text of ['{', JSON.stringify({ version: 1, deal: 0, moves: ['draw'] }), JSON.stringify({ version: 1, deal: 7, moves: 'x' })]) {
    local.setItem(S.V1_KEY, text);
    S.migrate();
    assert.equal(local.getItem(S.V1_KEY), null);
    assert.equal(S.loadGame(7), null);
  }
  local.setItem(`${S.PREFIX}abc`, '{}'); // not a deal's key: never read, never dropped
  S.saveGame(9, ['draw']);
  assert.equal(local.getItem(`${S.PREFIX}abc`), '{}');
});

test('a full or blocked storage is ignored', () => {
  const { local, session } = fresh();
  S.saveGame(27, ['draw']);
  local.full = true;
  session.full = true;
  assert.doesNotThrow(() => S.saveGame(27, ['draw', 'draw']));
  assert.deepEqual(S.loadGame(27).moves, ['draw']); // the last save that fitted
  assert.doesNotThrow(() => S.setTabDeal(27));
  Object.defineProperty(globalThis, 'localStorage', { configurable: true, get() { throw new Error('blocked'); } });
  Object.defineProperty(globalThis, 'sessionStorage', { configurable: true, get() { throw new Error('blocked'); } });
  assert.doesNotThrow(() => S.saveGame(27, ['draw']));
  assert.doesNotThrow(() => S.migrate());
  assert.equal(S.loadGame(27), null);
  assert.equal(S.lastPlayedDeal(), null);
  assert.equal(S.tabDeal(), null);
});

test('the tab keeps its own deal; the storage event names the deal that changed', () => {
  fresh();
  assert.equal(S.tabDeal(), null);
  S.setTabDeal(459);
  assert.equal(S.tabDeal(), 459);
  const text = JSON.stringify({ version: 2, deal: 27, moves: ['draw'], undo: [], at: 5 });
  const [deal, game] = S.gameOfKey(`${S.PREFIX}27`, text);
  assert.deepEqual([deal, game.moves], [27, ['draw']]);
  assert.deepEqual(S.gameOfKey(`${S.PREFIX}27`, null), [27, null, 'standard']); // removed in the other tab
  assert.equal(S.gameOfKey('something.else', text), null);
  assert.equal(S.gameOfKey(null, null), null); // storage.clear()
});

test('each variant keeps its own game of a deal; the standard key is as before', () => {
  const { local, session } = fresh();
  S.saveGame(27, ['draw'], []);
  S.saveGame(27, ['draw', 'draw'], [], null, 'one-pass');
  assert.deepEqual(S.loadGame(27).moves, ['draw']);
  assert.deepEqual(S.loadGame(27, 'one-pass').moves, ['draw', 'draw']);
  assert.equal(S.loadGame(27, 'strict'), null);
  assert.ok(local.getItem(`${S.PREFIX}27`));
  assert.equal(JSON.parse(local.getItem(`${S.PREFIX}one-pass.27`)).variant, 'one-pass');
  // A value moved under another variant's key is not that variant's game.
  local.setItem(`${S.PREFIX}strict.27`, local.getItem(`${S.PREFIX}one-pass.27`));
  assert.equal(S.loadGame(27, 'strict'), null);
  assert.deepEqual(S.lastPlayed(), { deal: 27, variant: 'one-pass' });
  assert.deepEqual(S.lastPlayed('standard'), { deal: 27, variant: 'standard' });
  assert.equal(S.lastPlayed('cover-pair'), null);
  const [deal, game, variant] = S.gameOfKey(`${S.PREFIX}one-pass.27`, local.getItem(`${S.PREFIX}one-pass.27`));
  assert.deepEqual([deal, game.moves, variant], [27, ['draw', 'draw'], 'one-pass']);
  assert.equal(S.gameOfKey(`${S.PREFIX}standard.27`, null), null); // the standard game has no name in its key
  S.forgetGame(27, 'one-pass');
  assert.equal(S.loadGame(27, 'one-pass'), null);
  assert.deepEqual(S.loadGame(27).moves, ['draw']);
  S.setTabDeal(27, 'unlimited');
  assert.equal(S.tabVariant(), 'unlimited');
  session.setItem(S.TAB_VARIANT_KEY, '<b>');
  assert.equal(S.tabVariant(), null);
});

test('the newest games are kept across every variant together', () => {
  fresh();
  for (let n = 1; n <= S.MAX_GAMES; n++) S.saveGame(n, ['draw'], [], null, n % 2 ? 'strict' : 'standard');
  S.saveGame(500, ['draw'], [], null, 'cover-pair');
  assert.equal(S.loadGame(1, 'strict'), null); // the oldest, a strict one, went
  assert.ok(S.loadGame(2));
  assert.ok(S.loadGame(500, 'cover-pair'));
});

// ---------------------------------------------------------------- exact saves (issue 29)
// What is written is a promise to every later visit and to the other tabs: the exact keys, the
// exact JSON, which games are dropped, and every shape of value that is refused.

/** Runs fn with Date.now() answering `now` (a number, or a function of the call's number). */
function at(now, fn) {
  const real = Date.now;
  let calls = 0;
  Date.now = () => (typeof now === 'function' ? now(calls++) : now);
  try { return fn(); } finally { Date.now = real; }
}

const META = { id: 'abc12345', hints: 2, ms: 61000, daily: '2026-12-01' };
const saved = (local, key) => JSON.parse(local.getItem(key));

test('the keys are the ones every earlier version of the page wrote', () => {
  const { local, session } = fresh();
  S.saveGame(27, ['draw']);
  S.saveGame(27, ['draw'], [], null, 'one-pass');
  S.setTabDeal(27, 'one-pass');
  S.saveSetting('largePrint', true);
  assert.deepEqual([...local.map.keys()].sort(),
    ['pyramide.game.v2.27', 'pyramide.game.v2.one-pass.27', 'pyramide.settings.v1']);
  assert.deepEqual([...session.map.entries()], [['pyramide.tab.v2', '27'], ['pyramide.tab.variant.v1', 'one-pass']]);
  assert.equal(S.V1_KEY, 'pyramide.game.v1');
});

test('a save is exactly this JSON: version, deal, moves, the undo steps, when, the statistics', () => {
  const { local } = fresh();
  const undo = [{ moves: ['draw'], meta: META }, { deal: 8 }];
  at(1000, () => S.saveGame(27, ['pair 7D 6C', 'draw'], undo, { ...META, extra: 'x' }));
  assert.equal(local.getItem('pyramide.game.v2.27'), '{"version":2,"deal":27,"moves":["pair 7D 6C","draw"],'
    + '"undo":[{"moves":["draw"],"meta":{"id":"abc12345","hints":2,"ms":61000,"daily":"2026-12-01"}},{"deal":8}],'
    + '"at":1000,"meta":{"id":"abc12345","hints":2,"ms":61000,"daily":"2026-12-01"}}');
  at(1000, () => S.saveGame(5, ['draw'], [], null, 'stock-top'));
  assert.equal(local.getItem('pyramide.game.v2.stock-top.5'),
    '{"version":2,"deal":5,"variant":"stock-top","moves":["draw"],"undo":[],"at":1001,"meta":null}');
  assert.deepEqual(S.loadGame(27), { deal: 27, variant: 'standard', moves: ['pair 7D 6C', 'draw'],
    undo: [{ moves: ['draw'], meta: META }, { deal: 8 }], at: 1000, meta: META });
  assert.deepEqual(S.loadGame(5, 'stock-top'), { deal: 5, variant: 'stock-top', moves: ['draw'], undo: [], at: 1001, meta: null });
});

test('each save is later than every saved game, even with the clock set back', () => {
  const { local } = fresh();
  at(5000, () => S.saveGame(1, ['draw']));
  at(100, () => S.saveGame(2, ['draw']));
  at(100, () => S.saveGame(3, ['draw']));
  assert.deepEqual([1, 2, 3].map((d) => saved(local, `pyramide.game.v2.${d}`).at), [5000, 5001, 5002]);
  assert.deepEqual(S.lastPlayed(), { deal: 3, variant: 'standard' });
  at(9000, () => S.saveGame(1, ['draw', 'draw']));
  assert.equal(saved(local, 'pyramide.game.v2.1').at, 9000);
  assert.equal(S.lastPlayedDeal(), 1);
});

test('only the last 50 undo steps are kept, and a list of 51 read back is refused whole', () => {
  const { local } = fresh();
  const steps = Array.from({ length: 51 }, (_, i) => ({ deal: i + 1 }));
  S.saveGame(7, ['draw'], steps);
  assert.deepEqual(saved(local, 'pyramide.game.v2.7').undo, steps.slice(1));
  assert.deepEqual(S.loadGame(7).undo, steps.slice(1));
  local.setItem('pyramide.game.v2.7', JSON.stringify({ version: 2, deal: 7, moves: ['draw'], undo: steps, at: 1 }));
  assert.deepEqual(S.loadGame(7).undo, []);
  assert.deepEqual(S.loadGame(7).moves, ['draw']);
});

test('the 20 most recently played are kept by when they were played, not by when first saved', () => {
  const { local } = fresh();
  at((n) => 1000 + n, () => {
    for (let deal = 1; deal <= 20; deal++) S.saveGame(deal, ['draw']);
    for (const deal of [5, 4, 3, 2, 1]) S.saveGame(deal, ['draw', 'draw']); // played again, newest last
    S.saveGame(21, ['draw']); // one too many: the least recently played (6) goes
  });
  const kept = [...local.map.keys()].map((k) => Number(k.split('.').pop())).sort((a, b) => a - b);
  assert.deepEqual(kept, [1, 2, 3, 4, 5, ...Array.from({ length: 14 }, (_, i) => i + 7), 21]);
  at((n) => 2000 + n, () => {
    S.saveGame(7, ['draw', 'draw']); // already saved: saving it again drops nothing
    S.saveGame(22, ['draw']); // 8 goes, then 9
    S.saveGame(23, ['draw']);
  });
  assert.equal(local.length, S.MAX_GAMES);
  assert.deepEqual([7, 8, 9, 22, 23].map((d) => local.getItem(`pyramide.game.v2.${d}`) !== null), [true, false, false, true, true]);
});

test('the oldest game is never dropped by its own save, nor spared for sharing its deal with it', () => {
  const { local } = fresh();
  at((n) => 1000 + n, () => {
    for (let deal = 1; deal <= 20; deal++) S.saveGame(deal, ['draw']);
    S.saveGame(1, ['draw', 'draw']); // the oldest, played again: all 20 stay
  });
  assert.equal(local.length, 20);
  assert.deepEqual(S.loadGame(1).moves, ['draw', 'draw']);
  at((n) => 2000 + n, () => S.saveGame(2, ['draw'], [], null, 'strict')); // now the oldest is standard deal 2
  assert.equal(local.length, 20);
  assert.equal(S.loadGame(2), null);
  assert.deepEqual(S.loadGame(2, 'strict').moves, ['draw']);
});

test('a game saved without a time is read as the oldest, and is still the last played when alone', () => {
  const { local } = fresh();
  local.setItem('pyramide.game.v2.12', JSON.stringify({ version: 2, deal: 12, moves: ['draw'] }));
  assert.deepEqual(S.loadGame(12), { deal: 12, variant: 'standard', moves: ['draw'], undo: [], at: 0, meta: null });
  assert.deepEqual(S.lastPlayed(), { deal: 12, variant: 'standard' });
  local.setItem('pyramide.game.v2.13', 'not json');
  S.saveGame(14, ['draw']);
  assert.equal(S.lastPlayedDeal(), 14);
});

test('deal numbers and move lists at their limits', () => {
  const { local } = fresh();
  S.saveGame(4294967295, ['draw']);
  assert.deepEqual(S.loadGame(4294967295).moves, ['draw']);
  assert.deepEqual(S.gameOfKey('pyramide.game.v2.4294967295', local.getItem('pyramide.game.v2.4294967295'))[0], 4294967295);
  assert.equal(S.gameOfKey('pyramide.game.v2.4294967296', '{}'), null);
  const longest = Array(2000).fill('pair 10H 3S xxxxxxx'); // 19 characters
  local.setItem('pyramide.game.v2.3', JSON.stringify({ version: 2, deal: 3, moves: longest, at: 1 }));
  assert.equal(S.loadGame(3).moves.length, 2000);
  for (const moves of [Array(2001).fill('draw'), ['pair 10H 3S xxxxxxxx'], [{ length: 1 }], [null]]) {
    local.setItem('pyramide.game.v2.3', JSON.stringify({ version: 2, deal: 3, moves, at: 1 }));
    assert.equal(S.loadGame(3), null, JSON.stringify(moves).slice(0, 40));
  }
});

test('keys that are not a saved game of ours are never read as one', () => {
  fresh();
  const text = JSON.stringify({ version: 2, deal: 5, moves: ['draw'], at: 1 });
  assert.equal(S.gameOfKey('pyramide.game.v2.5', text)[0], 5);
  for (const key of ['pyramide.game.v2.05', 'pyramide.game.v2.5 ', 'pyramide.game.v2. 5', 'pyramide.game.v2.5e0',
    'pyramide.game.v2.0', 'pyramide.game.v2.x5', 'pyramide.game.v2.Strict.5', 'pyramide.game.v2.one-pass!.5',
    'pyramide.game.v2.-strict.5', `pyramide.game.v2.${'a'.repeat(21)}.5`, 'pyramide.game.v2..5', 'pyramide.game.v3.5',
    'xpyramide.game.v2.5']) {
    assert.equal(S.gameOfKey(key, text), null, key);
  }
  const long = `pyramide.game.v2.${'a'.repeat(20)}.5`;
  assert.deepEqual(S.gameOfKey(long, JSON.stringify({ version: 2, deal: 5, variant: 'a'.repeat(20), moves: ['draw'] }))[2], 'a'.repeat(20));
});

test('a foreign key among the saves neither stops a save nor is dropped by one', () => {
  const { local } = fresh();
  local.setItem('other.site.key', 'x');
  local.setItem('pyramide.game.v2.Bad.5', 'y');
  S.saveGame(9, ['draw']);
  assert.deepEqual(S.loadGame(9).moves, ['draw']);
  assert.deepEqual([local.getItem('other.site.key'), local.getItem('pyramide.game.v2.Bad.5')], ['x', 'y']);
  assert.deepEqual(S.lastPlayed(), { deal: 9, variant: 'standard' });
});

test('the statistics data is kept only in its exact shape', () => {
  const { local } = fresh();
  const metaRead = (meta) => {
    local.setItem('pyramide.game.v2.2', JSON.stringify({ version: 2, deal: 2, moves: ['draw'], undo: [{ moves: [], meta }], at: 1, meta }));
    const g = S.loadGame(2);
    assert.deepEqual(g.undo[0].meta ?? null, g.meta, 'the same check for a step and the game');
    return g.meta;
  };
  for (const good of [META, { ...META, daily: null }, { id: 'a'.repeat(24), hints: 0, ms: 9999999999, daily: null },
    { id: '01234567', hints: 0, ms: 0, daily: '0001-01-01' }, { ...META, daily: '2024-02-29' }]) {
    assert.deepEqual(metaRead(good), good, JSON.stringify(good));
  }
  assert.deepEqual(metaRead({ ...META, extra: 1 }), META);
  for (const bad of [null, 'abc12345', [META], { ...META, id: 'abc1234' }, { ...META, id: 'a'.repeat(25) },
    { ...META, id: 'ABC12345' }, { ...META, id: '!abc12345' }, { ...META, id: 'abc12345!' }, { ...META, id: 12345678 },
    { ...META, hints: -1 }, { ...META, hints: 1.5 }, { ...META, hints: 1e10 }, { ...META, hints: '2' }, { ...META, ms: -1 },
    { ...META, ms: 1e10 }, { ...META, daily: undefined }, { ...META, daily: 20261201 }, { ...META, daily: 'x2026-12-01' },
    { ...META, daily: '2026-12-01x' }, { ...META, daily: ['2026-12-01'] }, { ...META, daily: '226-12-01' }, { ...META, daily: 'abcd-12-01' },
    { ...META, daily: '2026-1-01' }, { ...META, daily: '2026-ab-01' }, { ...META, daily: '2026-12-1' },
    { ...META, daily: '2026-12-ab' }, { ...META, daily: '0000-00-00' }, { ...META, daily: '2026-13-45' },
    { ...META, daily: '2026-02-30' }, { ...META, daily: '2025-02-29' }]) {
    assert.equal(metaRead(bad), null, JSON.stringify(bad));
  }
  assert.equal(S.isMeta(META), true);
  assert.equal(S.isMeta({ ...META, hints: -1 }), false);
});

test('undo lists: a wrong shape is dropped whole, the moves kept', () => {
  const { local } = fresh();
  const read = (undo) => {
    local.setItem('pyramide.game.v2.4', JSON.stringify({ version: 2, deal: 4, moves: ['draw'], undo, at: 3 }));
    const g = S.loadGame(4);
    assert.deepEqual(g.moves, ['draw'], JSON.stringify(undo));
    return g.undo;
  };
  assert.deepEqual(read(undefined), []);
  assert.deepEqual(read('xyz'), []);
  assert.deepEqual(read({ length: 1 }), []);
  assert.deepEqual(read([null]), []);
  assert.deepEqual(read([{ deal: 3 }, { oops: 1 }]), []);
  assert.deepEqual(read([{ deal: 3 }, 5]), []);
  assert.deepEqual(read([{ deal: 3 }, { moves: ['draw'], meta: { id: 'x' } }]), [{ deal: 3 }, { moves: ['draw'] }]);
  assert.deepEqual(read(Array(50).fill({ deal: 1 })).length, 50);
});

test('v1 is migrated as exactly this save, and nothing is written for a v1 that is not a game', () => {
  const { local } = fresh();
  local.setItem('pyramide.game.v1', JSON.stringify({ version: 1, deal: 459, moves: ['draw', 'draw'] }));
  at(777, () => S.migrate());
  assert.deepEqual([...local.map.entries()],
    [['pyramide.game.v2.459', '{"version":2,"deal":459,"moves":["draw","draw"],"undo":[],"at":777}']]);
  for (const bad of [{ version: 2, deal: 5, moves: ['draw'] }, { deal: 5, moves: ['draw'] }, { version: 1, deal: 0, moves: ['draw'] },
    { version: 1, deal: 5.5, moves: ['draw'] }, { version: 1, deal: 5, moves: [] }, { version: 1, deal: 5, moves: 'draw' },
    { version: 1, deal: 5, moves: [7] }, { version: 1, moves: ['draw'] }, null, 0, 'v1']) {
    const store = fresh().local;
    store.setItem('pyramide.game.v1', JSON.stringify(bad));
    S.migrate();
    assert.equal(store.length, 0, JSON.stringify(bad));
  }
});

/** A Storage that refuses one of its methods, as a browser's does when the user blocks it. */
function refusing(store, method) {
  store[method] = () => { throw new Error('SecurityError'); };
  return store;
}

test('a storage that refuses to be read reads as nothing saved, in every call', () => {
  const { local, session } = fresh();
  S.saveGame(27, ['draw']);
  S.setTabDeal(27, 'strict');
  S.saveSetting('largePrint', true);
  refusing(local, 'getItem');
  refusing(session, 'getItem');
  assert.equal(S.loadGame(27), null);
  assert.equal(S.lastPlayed(), null);
  assert.equal(S.lastPlayedDeal(), null);
  assert.equal(S.tabDeal(), null);
  assert.equal(S.tabVariant(), null);
  assert.equal(S.loadSetting('largePrint'), undefined);
  assert.doesNotThrow(() => S.saveSetting('largePrint', false));
  refusing(local, 'key');
  assert.equal(S.lastPlayed('standard'), null);
  assert.doesNotThrow(() => S.saveGame(28, ['draw']));
});

test('the tab keeps its deal only when it is a deal, its variant only when it is a name', () => {
  const { session } = fresh();
  for (const [text, deal] of [['4294967295', 4294967295], ['1', 1], ['0', null], ['4294967296', null], ['abc', null],
    ['2.5', null], ['', null]]) {
    session.setItem('pyramide.tab.v2', text);
    assert.equal(S.tabDeal(), deal, text);
  }
  for (const [text, variant] of [['strict', 'strict'], ['a'.repeat(20), 'a'.repeat(20)], ['a'.repeat(21), null],
    ['-strict', null], ['strict!', null], ['Strict', null], ['', null]]) {
    session.setItem('pyramide.tab.variant.v1', text);
    assert.equal(S.tabVariant(), variant, text);
  }
});

test('two tabs: each writes only its own deal, and the other tab hears exactly that game', () => {
  const { local } = fresh();
  const tab = () => new FakeStorage();
  const tabA = tab(), tabB = tab();
  globalThis.sessionStorage = tabA;
  S.setTabDeal(5);
  at(100, () => S.saveGame(5, ['draw']));
  globalThis.sessionStorage = tabB;
  S.setTabDeal(6, 'cover-pair');
  at(100, () => S.saveGame(6, ['draw', 'draw'], [], META, 'cover-pair'));
  // tab A plays on: its save leaves tab B's game as it was
  globalThis.sessionStorage = tabA;
  at(100, () => S.saveGame(5, ['draw', 'draw', 'draw']));
  assert.equal(S.tabDeal(), 5);
  assert.equal(S.tabVariant(), 'standard');
  assert.deepEqual(S.loadGame(6, 'cover-pair'), { deal: 6, variant: 'cover-pair', moves: ['draw', 'draw'], undo: [], at: 101, meta: META });
  // the storage event in tab B names tab A's deal with the game as saved
  assert.deepEqual(S.gameOfKey('pyramide.game.v2.5', local.getItem('pyramide.game.v2.5')),
    [5, { deal: 5, variant: 'standard', moves: ['draw', 'draw', 'draw'], undo: [], at: 102, meta: null }, 'standard']);
  globalThis.sessionStorage = tabB;
  assert.deepEqual([S.tabDeal(), S.tabVariant()], [6, 'cover-pair']);
  assert.deepEqual(S.lastPlayed(), { deal: 5, variant: 'standard' });
  assert.deepEqual(S.lastPlayed('cover-pair'), { deal: 6, variant: 'cover-pair' });
});

test('settings: one small object under its own key, read back; anything else reads as none', () => {
  const { local } = fresh();
  assert.equal(S.loadSetting('largePrint'), undefined);
  S.saveSetting('largePrint', true);
  S.saveSetting('other', 1);
  assert.equal(local.getItem('pyramide.settings.v1'), '{"largePrint":true,"other":1}');
  assert.equal(S.loadSetting('largePrint'), true);
  S.saveSetting('largePrint', false);
  assert.equal(local.getItem('pyramide.settings.v1'), '{"largePrint":false,"other":1}');
  for (const text of ['{', 'null', '[1]', '5', '"ab"', 'true']) {
    local.setItem('pyramide.settings.v1', text);
    assert.equal(S.loadSetting('largePrint'), undefined, text);
    assert.equal(S.loadSetting('0'), undefined, text);
    S.saveSetting('largePrint', true);
    assert.equal(local.getItem('pyramide.settings.v1'), '{"largePrint":true}', text);
  }
  local.full = true;
  assert.doesNotThrow(() => S.saveSetting('largePrint', false));
  assert.equal(S.loadSetting('largePrint'), true);
});
