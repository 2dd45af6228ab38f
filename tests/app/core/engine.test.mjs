// Unit tests of app/core/engine.js in Node (node --test tests/app/core/).
import test from 'node:test';
import assert from 'node:assert/strict';
import * as E from '../../../app/core/engine.js';

test('rule constants', () => {
  assert.equal(E.PYRAMID_CARDS, 28);
  assert.equal(E.TARGET_SUM, 13);
  assert.equal(E.TURNS_ALLOWED, 2);
  assert.deepEqual({ ...E.POINTS }, { perCard: 5, rowCleared: 25, win: 100, perUnusedTurn: 50 });
});

test('deal numbers are refused outside 1 … 4294967295', () => {
  for (const bad of [0, -1, 4294967296, 1.5, 'abc', '', '1e3', null, undefined, NaN]) {
    assert.throws(() => E.dealLayout(bad), (e) => e.rule === 'deal.layout', String(bad));
  }
  assert.equal(E.dealLayout('42').deal, 42);
  assert.equal(E.dealLayout(4294967295).deal, 4294967295);
});

test('every deal has 52 different cards, 28 + 1 + 23', () => {
  for (let n = 1; n <= 500; n++) {
    const d = E.dealLayout(n);
    assert.equal(d.pyramid.length, 28);
    assert.equal(d.waste.length, 1);
    assert.equal(d.stock.length, 23);
    assert.equal(new Set([...d.pyramid, ...d.waste, ...d.stock]).size, 52);
  }
});

test('card codes: case, 10 for T, values', () => {
  assert.equal(E.parseCard('10d'), 'TD');
  assert.equal(E.parseCard(' qs '), 'QS');
  assert.throws(() => E.parseCard('1S'), (e) => e.rule === 'notation');
  assert.throws(() => E.parseCard('KX'), (e) => e.rule === 'notation');
  assert.deepEqual(['AS', '7H', 'TD', 'JC', 'QS', 'KD'].map(E.cardValue), [1, 7, 10, 11, 12, 13]);
});

test('free mask follows the covering rule', () => {
  const full = (1 << 28) - 1;
  assert.equal(E.freeMask(full), ((1 << 7) - 1) << 21); // only row 7
  const withoutTwo = full & ~(1 << 21) & ~(1 << 22); // (7,1) and (7,2) gone frees (6,1)
  assert.equal(E.freeMask(withoutTwo), (((1 << 5) - 1) << 23) | (1 << 15));
});

test('applying a move leaves the old position untouched, and positions are JSON', () => {
  const p = E.openingPosition(1);
  const copy = JSON.stringify(p);
  const q = E.applyMove(p, 'draw');
  assert.equal(JSON.stringify(p), copy);
  assert.deepEqual(JSON.parse(JSON.stringify(q)), q);
  assert.equal(q.moves, 1);
  assert.equal(q.waste.at(-1), p.stock[0]);
});

test('pairs are written higher value first, either order accepted', () => {
  assert.equal(E.formatMove(E.parseMove('pair 6s 7h')), 'pair 7H 6S');
  assert.equal(E.formatMove(E.parseMove('PAIR ah qc')), 'pair QC AH');
  assert.throws(() => E.parseMove('pair 7H 7H'), (e) => e.rule === 'notation');
  assert.throws(() => E.parseMove('jump'), (e) => e.rule === 'notation');
  assert.throws(() => E.parseMove('king'), (e) => e.rule === 'notation');
});

test('undo restores moves and points; nothing to undo is refused', () => {
  let g = E.newGame(1);
  g = E.playMove(g, 'king KD');
  g = E.playMove(g, 'draw');
  assert.equal(E.currentPosition(g).points, 5);
  g = E.undoMove(g);
  assert.equal(E.currentPosition(g).moves, 1);
  g = E.undoMove(g);
  assert.deepEqual(E.currentPosition(g), E.openingPosition(1));
  assert.throws(() => E.undoMove(g), (e) => e.rule === 'moves.undo');
});

test('replay names the first illegal move', () => {
  assert.throws(() => E.replay(1, ['draw', 'pair 7H 6S']), (e) => e.moveNumber === 2 && e.rule === 'free.covered');
});

// Typed-in text is read as verify/independent/deal.py and verify/independent/rules.py read it (issue 12): ASCII
// whitespace and digits only, ASCII case folding, nothing outside printable ASCII, bounded length.
test('deal numbers: ASCII digits only, bounded length, odd characters shown escaped', () => {
  for (const bad of ['١٢', '٣', '７', '1_0', '+5', '0x10', '\u00a07', '\ufeff7', '7\u2028', '4\x002', '9'.repeat(5000),
    ' '.repeat(30) + '123', []]) {
    assert.throws(() => E.parseDealNumber(bad), (e) => e.rule === 'deal.layout', JSON.stringify(bad));
  }
  assert.throws(() => E.parseDealNumber('4\x002'), (e) => e.message.endsWith("got '4\\x002'"));
  assert.throws(() => E.parseDealNumber('9'.repeat(5000)), (e) => e.message.endsWith('(5000 characters)'));
  assert.equal(E.parseDealNumber('\t7\r\n'), 7);
  assert.equal(E.parseDealNumber('007'), 7);
});

test('card codes: the long s is not a spade, no Unicode case folding or spaces', () => {
  for (const bad of ['Kſ', 'ſ', 'KＳ', 'K\u0405', '\u00a0KS', 'KS\ufeff', 'K\x00S', 'ı0S', 7, null]) {
    assert.throws(() => E.parseCard(bad), (e) => e.rule === 'notation', JSON.stringify(bad));
  }
  assert.throws(() => E.parseCard('Kſ'), (e) => e.message.startsWith("'K\\u017f'"));
  assert.equal(E.parseCard('\tks\n'), 'KS');
});

test('moves: words split on ASCII whitespace only; look-alikes, control characters and long text refused', () => {
  for (const bad of ['king\ufeffKS', 'king\u00a0KS', 'king\u2028KS', 'king\u3000KS', 'king\x1fKS', 'king Kſ',
    'draw\x00', 'draw' + ' '.repeat(70), 'constructor', '__proto__', 'toString', 'king constructor', '', null]) {
    assert.throws(() => E.parseMove(bad), (e) => e.rule === 'notation', JSON.stringify(bad));
  }
  assert.throws(() => E.parseMove('king\ufeffKS'), (e) => e.message.startsWith("'king\\ufeffKS' is not a move"));
  assert.deepEqual(E.parseMove('pair 7h\t6s'), { kind: 'pair', cards: ['7H', '6S'] });
  assert.deepEqual(E.parseMove('\r\ndraw\n'), { kind: 'draw', cards: [] });
  assert.throws(() => E.applyMove(E.openingPosition(7), 'king\ufeffKS'), (e) => e.rule === 'notation');
});

test('shown() escapes as Python repr does and cuts long text', () => {
  assert.equal(E.shown("a'b\\c\x00\t\u017f\u{1F600}"), "'a\\'b\\\\c\\x00\\t\\u017f\\U0001f600'");
  assert.equal(E.shown('x'.repeat(41)), `'${'x'.repeat(40)}'… (41 characters)`);
});

test('a game is played by the rules it was started with (issue 28: the variants in the game)', () => {
  const { VARIANTS } = E;
  // One pass: dealt with no turn back.
  const onePass = E.newGame(5, VARIANTS['one-pass']);
  assert.equal(E.currentPosition(onePass).turns_left, 0);
  let g = onePass;
  while (E.currentPosition(g).stock.length) g = E.playMove(g, 'draw');
  assert.throws(() => E.playMove(g, 'turn'), E.RuleError);
  assert.equal(E.newGame(5).positions[0].turns_left, E.TURNS_ALLOWED);
  // Unlimited: a turn back is never counted down.
  let u = E.newGame(5, VARIANTS.unlimited);
  for (let pass = 0; pass < 4; pass++) {
    while (E.currentPosition(u).stock.length) u = E.playMove(u, 'draw');
    u = E.playMove(u, 'turn');
    assert.equal(E.currentPosition(u).turns_left, E.TURNS_ALLOWED);
  }
  assert.equal(E.replay(5, u.moves, VARIANTS.unlimited).moves.length, u.moves.length);
  assert.throws(() => E.replay(5, u.moves), E.RuleError); // the app's rules allow two turns only
  // Strict: the pyramid gone is not yet a win while a card lies beside it.
  const pos = { pyramid: [...Array(27).fill(null), '6H'], stock: ['KC'], waste: ['7S'], turns_left: 0, points: 0, moves: 0 };
  assert.equal(E.applyMove(pos, 'pair 7S 6H').status, 'won');
  assert.equal(E.applyMove(pos, 'pair 7S 6H', VARIANTS.strict).status, 'playing');
  assert.equal(E.gameStatus(E.applyMove(E.applyMove(pos, 'pair 7S 6H', VARIANTS.strict), 'draw', VARIANTS.strict), VARIANTS.strict), 'playing');
  // Undo keeps the rules.
  assert.equal(E.undoMove(E.playMove(onePass, 'draw')).rules, VARIANTS['one-pass']);
});

// ---------------------------------------------------------------- exact refusals (issue 29)
// The rule of each refusal is held to the independent engine's by engine_moves.test.mjs; here
// the app's own words, which the player reads, one case per reason, in docs/positions.md's order.
const OPENING = E.openingPosition(1); // pyramid row 7: 2D 7C KD 5D 8S 9H 4H; waste KS; stock 2S JD QD …
const hand = (cards, stock, waste, turns = 2) => {
  const pyramid = Array(28).fill(null);
  for (const [k, code] of Object.entries(cards)) pyramid[k] = code;
  return { pyramid, stock, waste, turns_left: turns, points: 0, moves: 0 };
};

test('each illegal move is refused with its rule and the exact reason', () => {
  const played = (...moves) => moves.reduce((p, m) => E.applyMove(p, m), OPENING);
  const oneCover = { ...OPENING, pyramid: OPENING.pyramid.map((c, k) => (k === 22 ? null : c)) };
  const cases = [
    [hand({}, ['2S'], ['KS']), 'draw', 'draw: the game is already won (rule end.win)'],
    [hand({}, [], []), 'king ks', 'king KS: the game is already won (rule end.win)'],
    [played('king KD'), 'king KD', 'king KD: KD is not in play (removed, or not in this deal) (rule removed.gone)'],
    [hand({ 27: '9H' }, [], ['KS']), 'pair 4h 9h', 'pair 9H 4H: 4H is not in play (removed, or not in this deal) (rule removed.gone)'],
    [played('draw', 'draw'), 'pair 2s jd', 'pair JD 2S: at most one card of a pair may come from the waste (rule pair.one-waste)'],
    [played('draw', 'draw'), 'pair ks 2s', 'pair KS 2S: at most one card of a pair may come from the waste (rule pair.one-waste)'],
    [OPENING, 'pair JD 2D', 'pair JD 2D: JD is in the stock, not available (rule free.covered)'],
    [OPENING, 'pair 2D JD', 'pair JD 2D: JD is in the stock, not available (rule free.covered)'],
    [played('draw'), 'king KS', 'king KS: KS is under the waste top, not available (rule free.covered)'],
    [OPENING, 'pair 9D 4S', 'pair 9D 4S: 9D is covered by 9S and 2H (rule free.covered)'],
    [oneCover, 'pair 9H 4S', 'pair 9H 4S: 4S is covered by 2D (rule free.covered)'],
    [OPENING, 'king 4H', 'king 4H: 4H is not a king (rule king.alone)'],
    [OPENING, 'pair KD 9H', 'pair KD 9H: a king is removed alone, never in a pair (rule king.alone)'],
    [OPENING, 'pair 9H KD', 'pair KD 9H: a king is removed alone, never in a pair (rule king.alone)'],
    [OPENING, 'pair 9H 8S', 'pair 9H 8S: the values add up to 17, not 13 (rule pair.thirteen)'],
    [OPENING, 'pair 2D 4H', 'pair 4H 2D: the values add up to 6, not 13 (rule pair.thirteen)'],
    [hand({ 27: '9H' }, [], ['KS']), 'draw', 'draw: the stock is empty (rule draw.nonempty)'],
    [OPENING, 'turn', 'turn: the stock is not empty yet (rule turn.when)'],
    [hand({ 27: '9H' }, [], []), 'turn', 'turn: the waste is empty (rule turn.when)'],
    [hand({ 27: '9H' }, [], ['QS'], 0), 'turn', 'turn: no turns left (at most 2 per game) (rule turn.limit)'],
  ];
  for (const [position, move, message] of cases) {
    assert.throws(() => E.applyMove(position, move), (e) => e instanceof E.RuleError && e.message === message
      && e.rule === message.match(/\(rule ([a-z.-]+)\)$/)[1], `${move}: ${message}`);
  }
});

test('under a variant a refused move says so, whatever the reason', () => {
  for (const name of ['strict', 'unlimited', 'stock-top', 'cover-pair']) {
    assert.throws(() => E.applyMove(OPENING, 'pair 9h 8s', E.VARIANTS[name]),
      (e) => e.rule === 'variant' && e.message === 'pair 9H 8S: not a legal move under these rules', name);
  }
  // One pass is the standard rules from a deal with no turn back: its refusals name the rule.
  assert.throws(() => E.applyMove(OPENING, 'turn', E.VARIANTS['one-pass']), (e) => e.rule === 'turn.when');
});

test('rules options: every field set, frozen, refused when unknown, not an object or contradictory', () => {
  const plain = { strictWin: false, turns: null, unlimitedTurns: false, stockTop: false, coverPair: false };
  assert.deepEqual({ ...E.normaliseRules() }, { ...plain, standard: true });
  assert.deepEqual({ ...E.normaliseRules({}) }, { ...plain, standard: true });
  assert.deepEqual({ ...E.normaliseRules(E.VARIANTS['one-pass']) }, { ...plain, turns: 0, standard: true });
  assert.deepEqual({ ...E.normaliseRules({ turns: 1 }) }, { ...plain, turns: 1, standard: true });
  for (const [name, field] of [['strict', 'strictWin'], ['unlimited', 'unlimitedTurns'], ['stock-top', 'stockTop'],
    ['cover-pair', 'coverPair']]) {
    assert.deepEqual({ ...E.normaliseRules(E.VARIANTS[name]) }, { ...plain, [field]: true, standard: false }, name);
    assert.deepEqual({ ...E.normaliseRules({ [field]: 1 }) }, { ...plain, [field]: true, standard: false }, `${name}: truthy`);
  }
  assert.deepEqual({ ...E.normaliseRules({ strictWin: true, unlimitedTurns: true, coverPair: true, turns: 0 }) },
    { strictWin: true, turns: 0, unlimitedTurns: true, stockTop: false, coverPair: true, standard: false });
  const once = E.normaliseRules({ coverPair: true });
  assert.ok(Object.isFrozen(once));
  assert.equal(E.normaliseRules(once), once, 'normalised options are taken as they are');
  const refused = (rules, message) => assert.throws(() => E.normaliseRules(rules),
    (e) => e instanceof E.RuleError && e.rule === 'rules' && e.message === message, String(message));
  refused(null, 'rules options must be an object');
  refused(5, 'rules options must be an object');
  refused('strict', 'rules options must be an object');
  refused({ strict: true, turn: 1 }, 'unknown rules options: strict, turn');
  refused({ coverPair: true, stockTop: 1, extra: 0 }, 'unknown rules options: extra');
  refused({ strictWin: true, stockTop: true }, 'strictWin cannot be combined with stockTop');
  assert.throws(() => E.legalMoves(OPENING, { stockTop: true, strictWin: 1 }), (e) => e.rule === 'rules');
  assert.throws(() => E.applyMove(OPENING, 'draw', { nope: true }), (e) => e.rule === 'rules');
});

test('the winning move scores its cards, its row, the win and 50 per turn left, as the independent engine does', () => {
  // 235, 185 and 135 are verify/independent/rules.py's points for these moves.
  for (const [turns, points] of [[2, 235], [1, 185], [0, 135]]) {
    const after = E.applyMove(hand({ 27: '9H' }, [], ['4D'], turns), 'pair 9H 4D');
    assert.deepEqual([after.points, after.status], [points, 'won'], `${turns} turns left`);
  }
  assert.equal(E.applyMove(hand({ 26: '9H', 27: 'KS' }, [], ['4D'], 1), 'pair 9H 4D').points, 10);
});

test('a single card on the waste can be turned back; a move may be given as an object', () => {
  assert.deepEqual(E.legalMoves(hand({ 27: '9H' }, [], ['QS'], 1)), ['turn']);
  assert.deepEqual(E.applyMove(OPENING, { kind: 'draw', cards: [] }), E.applyMove(OPENING, 'draw'));
  assert.deepEqual(E.applyMove(OPENING, { kind: 'king', cards: ['KD'] }).pyramid[23], null);
});

test("the page's questions: kings, pairs, the sum a refusal shows, the rows a move emptied", () => {
  assert.ok(E.isKing('KS') && E.isKing('KD') && !E.isKing('QS') && !E.isKing('AS'));
  assert.ok(E.canPair('6H', '7S') && E.canPair('AS', 'QD') && E.canPair('TD', '3C'));
  assert.ok(!E.canPair('6H', '6S') && !E.canPair('KS', 'AS') && !E.canPair('AS', 'KS'));
  assert.equal(E.pairSum('TD', '3S'), 13);
  assert.equal(E.pairSum('KD', 'QS'), 25);
  const before = E.openingPosition(1);
  const after = { ...before, pyramid: before.pyramid.map((c, k) => (k === 0 || (k >= 3 && k < 6) ? null : c)) };
  assert.deepEqual(E.emptiedRows(before, after), [1, 3]);
  assert.deepEqual(E.emptiedRows(after, after), []);
  // The last row too, and a row emptied from one card left; a row with a card still in it is not.
  const lastTwo = { ...before, pyramid: before.pyramid.map((c, k) => (k === 21 || k === 22 ? c : null)) };
  const lastOne = { ...lastTwo, pyramid: lastTwo.pyramid.map((c, k) => (k === 21 ? null : c)) };
  const none = { ...lastTwo, pyramid: lastTwo.pyramid.map(() => null) };
  assert.deepEqual(E.emptiedRows(lastTwo, lastOne), []);
  assert.deepEqual(E.emptiedRows(lastOne, none), [7]);
  assert.deepEqual(E.emptiedRows(lastTwo, none), [7]);
  assert.equal(E.cardAt(before, 'elsewhere'), null);
  assert.equal(E.placeOf(before, before.pyramid[0]), 'p0');
  assert.equal(E.placeOf(before, before.stock[0]), null, 'a stock card is in play only under stockTop');
  assert.equal(E.placeOf(before, before.stock[0], { stockTop: true }), 'stock');
  assert.equal(E.placeOf(before, before.stock[1], { stockTop: true }), null, 'the card under the top is not');
});

test("the page's questions (cardAt, placeOf, isAvailable, canPair, isKing) agree with the legal moves", () => {
  for (const [name, rules] of Object.entries(E.VARIANTS)) {
    for (let deal = 1; deal <= 25; deal++) {
      let game = E.newGame(deal, rules);
      for (let i = 0; i < 60; i++) {
        const pos = E.currentPosition(game);
        const moves = E.legalMoves(pos, rules);
        if (!moves.length) break;
        const why = `${name}, deal ${deal}, move ${i + 1}`;
        const places = ['waste', 'stock', ...pos.pyramid.map((_, k) => `p${k}`)];
        for (const place of places) {
          const code = E.cardAt(pos, place, rules);
          if (code) assert.equal(E.placeOf(pos, code, rules), place, why);
          else assert.ok(!E.isAvailable(pos, place, rules), why);
        }
        assert.equal(E.cardAt(pos, 'stock', rules), rules.stockTop ? pos.stock[0] ?? null : null, why);
        const legal = new Set(moves);
        for (const move of moves) {
          const [kind, a, b] = move.split(' ');
          for (const code of [a, b].filter(Boolean)) assert.ok(E.isAvailable(pos, E.placeOf(pos, code, rules), rules), `${why}: ${move}`);
          if (kind === 'king') assert.ok(E.isKing(a), `${why}: ${move}`);
          if (kind === 'pair') assert.ok(E.canPair(a, b), `${why}: ${move}`);
        }
        // Two cards free by the covering rule alone that pair (at most one from beside the pyramid) make a legal move.
        const free = places.filter((p) => p.startsWith('p') && E.isAvailable(pos, p, {}));
        for (const p of free) {
          const x = E.cardAt(pos, p, rules);
          if (E.isKing(x)) assert.ok(legal.has(`king ${x}`), why);
          for (const q of [...free, 'waste', 'stock']) {
            const y = E.cardAt(pos, q, rules);
            if (y && p !== q && E.canPair(x, y)) {
              assert.ok(legal.has(E.formatMove(E.parseMove(`pair ${x} ${y}`))), `${why}: ${x} ${y}`);
            }
          }
        }
        game = E.playMove(game, moves[(deal * 7 + i * 3) % moves.length]);
      }
    }
  }
});

test('isAvailable: cover-pair lets a card with one free card on it be chosen, not one with two', () => {
  const pos = E.openingPosition(3);
  const pyramid = pos.pyramid.slice();
  for (let k = 21; k < 28; k++) if (k !== 22) pyramid[k] = null; // row 7: only its second card is left
  const lone = { ...pos, pyramid };
  // Card 15 (row 6, place 1) is covered by 21 (gone) and 22 (there, free); card 16 by 22 and 23 (gone).
  assert.ok(!E.isAvailable(lone, 'p15', {}) && !E.isAvailable(lone, 'p16', {}));
  assert.ok(E.isAvailable(lone, 'p15', { coverPair: true }) && E.isAvailable(lone, 'p16', { coverPair: true }));
  assert.ok(!E.isAvailable(pos, 'p15', { coverPair: true }), 'two cards on it');
  assert.ok(!E.isAvailable(lone, 'p21', { coverPair: true }), 'no card there');
  assert.ok(E.isAvailable(lone, 'p17', {}), 'nothing on it');
  // Card 10 (row 5) with one card on it, 15, which is itself covered by 21: not free under cover-pair.
  const deeper = pos.pyramid.map((c, k) => (k === 10 || k === 15 || k === 21 ? c : null));
  assert.ok(!E.isAvailable({ ...pos, pyramid: deeper }, 'p10', { coverPair: true }), 'the one card on it is not free');
  const freed = deeper.map((c, k) => (k === 21 ? null : c));
  assert.ok(E.isAvailable({ ...pos, pyramid: freed }, 'p10', { coverPair: true }), 'the one card on it is free');
});
