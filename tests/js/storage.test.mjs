// Unit tests of app/storage.js in Node, with a fake localStorage/sessionStorage (node --test tests/js/).
import test from 'node:test';
import assert from 'node:assert/strict';
import * as S from '../../app/storage.js';

/** A Storage with the Web API's methods; `full` makes setItem throw as a full disk does. */
class FakeStorage {
  constructor() { this.map = new Map(); this.full = false; }
  get length() { return this.map.size; }
  key(i) { return [...this.map.keys()][i] ?? null; }
  getItem(k) { return this.map.has(k) ? this.map.get(k) : null; }
  setItem(k, v) {
    if (this.full) throw Object.assign(new Error('quota'), { name: 'QuotaExceededError' });
    this.map.set(k, String(v));
  }
  removeItem(k) { this.map.delete(k); }
}

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
  S.saveGame(27, ['draw', 'draw'], [], 'one-pass');
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
  for (let n = 1; n <= S.MAX_GAMES; n++) S.saveGame(n, ['draw'], [], n % 2 ? 'strict' : 'standard');
  S.saveGame(500, ['draw'], [], 'cover-pair');
  assert.equal(S.loadGame(1, 'strict'), null); // the oldest, a strict one, went
  assert.ok(S.loadGame(2));
  assert.ok(S.loadGame(500, 'cover-pair'));
});
