// The game's messages are true (app/core/messages.js, app/core/judge.js): 10,000 random games (deals
// 1 … 10,000, tests/app/core/message_games.mjs), and every claim each message makes checked with the
// app's engine and decider — the cards it names and how many cover a card, "can still be won",
// "no longer", how many moves back, stuck with no move at all — and its words in nb and da:
// no Undo offered where undoing cannot help, the count and the cards it names in the text.
import test from 'node:test';
import assert from 'node:assert/strict';
import * as E from '../../../app/core/engine.js';
import { decide } from '../../../app/core/decider.js';
import { makeWords } from '../../../app/ui/board.js';
import { solve } from '../../../app/core/solver.js';
import { lastWinnable } from '../../../app/core/rewind.js';
import { VARIANT_REGISTRY } from '../../../app/core/variant-registry.js';
import { coveredMessage, lostMessage, lostPanelMessage, messageText, stockRefusal, stuckMessage, turnMessage,
  turnsScoreMessage } from '../../../app/core/messages.js';
import { MAX_NODES, playGame } from './message_games.mjs';
import { pageStrings } from './page_strings.mjs';
import { numberFormatter } from '../../../app/core/locale.js';

const GAMES = Number(process.env.MESSAGE_GAMES || 10_000);
const LANGS = ['nb', 'da'];
const STRINGS = pageStrings(LANGS);
const WORDS = Object.fromEntries(LANGS.map((lang) => [lang, makeWords(STRINGS[lang])]));
// The Undo button's verb, and "no longer", in each language's words.
const UNDO = { nb: /\bangre\b/i, da: /\bfortryd\b/i };
const NO_LONGER = { nb: /\bikke lenger\b/i, da: /\bikke længere\b/i };

const result = (position) => decide(position, { maxNodes: MAX_NODES }).result;
const freeAt = (position, k) => ((E.freeMask(E.compile(position).pyr) >> k) & 1) === 1;
const without = (position, cards) => ({ ...position, pyramid: position.pyramid.map((c) => (cards.includes(c) ? null : c)) });

// Each message's text in both languages, with what it must and must not say.
function texts(choice) {
  return LANGS.map((lang) => [lang, messageText(WORDS[lang], choice)]);
}

function checkCovered(position, claim) {
  const { card } = claim.values;
  const k = position.pyramid.indexOf(card);
  assert.ok(k >= 0 && !freeAt(position, k), `${card} is said to be covered`);
  const over = claim.key === 'refused.free.covered_one' ? [claim.values.over] : [claim.values.a, claim.values.b];
  assert.equal(claim.key, over.length === 1 ? 'refused.free.covered_one' : 'refused.free.covered_two');
  for (const c of over) assert.ok(position.pyramid.includes(c), `${c} is said to lie over ${card}`);
  assert.ok(freeAt(without(position, over), k), `without ${over} nothing lies over ${card}`);
  if (over.length === 2) { // both are needed: neither alone frees it
    for (const c of over) assert.ok(!freeAt(without(position, [c]), k), `${c} alone does not free ${card}`);
  }
  for (const [lang, text] of texts(claim)) {
    for (const c of [card, ...over]) assert.ok(text.includes(WORDS[lang].card(c)), `${lang}: ${text} names ${c}`);
    assert.equal(/\bbegge\b/i.test(text), over.length === 2, `${lang}: ${text}`);
  }
}

// Hint's answer; returns what was checked ('skipped' when the decider gives up here).
function checkHint(game, positions, claim) {
  const position = positions[claim.n];
  if (claim.result === 'won') {
    assert.ok(E.legalMoves(position).includes(claim.move), `${claim.move} is legal`);
    const after = result(E.applyMove(position, claim.move));
    assert.notEqual(after, 'lost', `after ${claim.move} the game can still be won`);
    return 'hint.checked';
  }
  if (claim.result !== 'lost') return 'skipped';
  assert.notEqual(result(position), 'won', 'a position said to be lost');
  const opening = game.opening;
  assert.deepEqual({ key: claim.key, values: claim.values }, lostMessage(claim.deal, claim.back));
  if (claim.key === 'hint.lost_from_start') assert.equal(opening, 'lost', 'said lost from the start');
  if (claim.key === 'hint.lost' || claim.key === 'hint.lost_back') {
    assert.equal(opening, 'won', 'said lost by play: the deal could be won');
    assert.ok(claim.n > 0);
  }
  if (claim.key === 'hint.lost_back') {
    const back = claim.values.count;
    assert.ok(back >= 1 && back <= claim.n);
    assert.equal(result(positions[claim.n - back]), 'won', `${back} moves back it could be won`);
    assert.equal(result(positions[claim.n - back + 1]), 'lost', `${back - 1} moves back it could not`);
  }
  for (const [lang, text] of texts(claim)) {
    const byPlay = claim.key === 'hint.lost' || claim.key === 'hint.lost_back';
    assert.equal(UNDO[lang].test(text), byPlay, `${lang} ${claim.key}: ${text}`);
    assert.equal(NO_LONGER[lang].test(text), byPlay, `${lang} ${claim.key}: ${text}`);
    if (claim.key === 'hint.lost_back') assert.ok(text.includes(` ${claim.values.count} `), text);
  }
  return claim.key;
}

function checkStuck(game, position, claim) {
  assert.equal(position.status, 'stuck');
  assert.deepEqual(E.legalMoves(position), [], 'stuck: no move at all');
  if (claim.key === 'messages.stuck_lost_deal') assert.equal(game.opening, 'lost');
  if (claim.key === 'messages.stuck') assert.equal(game.opening, 'won');
  assert.deepEqual({ key: claim.key, values: claim.values }, stuckMessage(
    claim.key === 'messages.stuck_unknown' ? null : game.opening));
  for (const [lang, text] of texts(claim)) {
    if (claim.key === 'messages.stuck_lost_deal') assert.ok(!UNDO[lang].test(text), `${lang}: ${text}`);
    if (claim.key === 'messages.stuck') assert.ok(UNDO[lang].test(text), `${lang}: ${text}`);
  }
  return claim.key;
}

test('every message of 10,000 random games is true', () => {
  const seen = {};
  for (let deal = 1; deal <= GAMES; deal++) {
    const game = playGame(deal, { known: deal % 4 < 2 });
    let replayed = E.newGame(deal);
    for (const move of game.moves) replayed = E.playMove(replayed, move);
    const positions = replayed.positions;
    for (const claim of game.claims) {
      const position = positions[claim.n];
      let kind = claim.key;
      if (claim.kind === 'covered') checkCovered(position, claim);
      else if (claim.kind === 'hint') kind = checkHint(game, positions, claim);
      else if (claim.kind === 'stuck') kind = checkStuck(game, position, claim);
      else if (claim.kind === 'won') {
        assert.equal(position.status, 'won');
        for (const lang of LANGS) { // as game.js says it: each count with its noun (strings.counts)
          const w = WORDS[lang];
          const text = w.fill(w.strings.messages.won, { points: w.count('points', position.points), moves: w.count('moves', position.moves) });
          const num = numberFormatter(w.strings.locale);
          assert.ok(text.includes(num(position.points)) && text.includes(num(position.moves)), text);
        }
      }
      seen[kind] = (seen[kind] || 0) + 1;
    }
  }
  // Every message was met, many times: the games reach each state.
  for (const key of ['refused.free.covered_one', 'refused.free.covered_two', 'hint.checked', 'hint.lost_back',
    'hint.lost_from_start', 'messages.stuck', 'messages.stuck_lost_deal', 'messages.stuck_unknown', 'messages.won']) {
    assert.ok(seen[key] >= 50, `${key}: ${seen[key]}`);
  }
  assert.ok((seen.skipped || 0) < GAMES / 100, `undecided: ${seen.skipped}`);
});

test('a covered card names the one card or the two cards still over it', () => {
  // Deal 27: row 6, place 1 (index 15) lies under indexes 21 and 22 (row 7).
  const opening = E.openingPosition(27);
  const two = coveredMessage(opening, 15);
  assert.deepEqual(two, { key: 'refused.free.covered_two',
    values: { card: opening.pyramid[15], a: opening.pyramid[21], b: opening.pyramid[22] } });
  const one = coveredMessage(without(opening, [opening.pyramid[21]]), 15);
  assert.deepEqual(one, { key: 'refused.free.covered_one', values: { card: opening.pyramid[15], over: opening.pyramid[22] } });
  assert.equal(coveredMessage(without(opening, [opening.pyramid[21], opening.pyramid[22]]), 15), null);
  assert.equal(coveredMessage(opening, 21), null); // row 7 is free
  assert.equal(messageText(WORDS.nb, one), `${WORDS.nb.card(opening.pyramid[15])} er dekket av ${WORDS.nb.card(opening.pyramid[22])}, som må bort først.`);
});

test('a deal lost from the start never offers Undo; one lost by play says how far back', () => {
  assert.equal(lostMessage('lost', 5).key, 'hint.lost_from_start');
  assert.equal(lostMessage('won', 3).key, 'hint.lost_back');
  assert.deepEqual(lostMessage('won', 3).values, { count: 3 });
  assert.equal(lostMessage('won', null).key, 'hint.lost');
  assert.equal(lostMessage('undecided', null).key, 'hint.lost_unknown');
  assert.equal(lostMessage(null, null).key, 'hint.lost_unknown');
  assert.equal(stuckMessage('lost').key, 'messages.stuck_lost_deal');
  assert.equal(stuckMessage('won').key, 'messages.stuck');
  assert.equal(stuckMessage('undecided').key, 'messages.stuck_unknown');
  for (const lang of LANGS) {
    for (const choice of [lostMessage('lost'), lostMessage('undecided'), stuckMessage('lost')]) {
      assert.ok(!UNDO[lang].test(messageText(WORDS[lang], choice)), `${lang} ${choice.key}`);
      assert.ok(!NO_LONGER[lang].test(messageText(WORDS[lang], choice)), `${lang} ${choice.key}`);
    }
  }
});

// ---------------------------------------------------------------- every rule set of the registry
// The messages whose truth depends on the rules (review 3, A1–A4, A11), checked under each rule set
// of app/core/variant-registry.js with the app's engine and decider: seeded random games played
// by the rules, and what each message claims there.
const RULE_SETS = VARIANT_REGISTRY.map(({ id }) => [id, E.VARIANTS[id]]);
const ALREADY = { nb: /\ballerede\b/i, da: /\ballerede\b/i }; // "already turned back as often as allowed"

// Deal `deal` played at random by `rules` (a removal three times in four when there is one), with
// `visit(game)` called at each of its positions, the last (won or stuck) included; at most `limit`
// moves (with unlimited turns, draws and turns never run out).
function playByRules(deal, rules, visit, limit = 400) {
  let s = (deal * 7919 + 17) >>> 0;
  const rand = (k) => { s = (Math.imul(s, 1103515245) + 12345) >>> 0; return (s >>> 8) % k; };
  let game = E.newGame(deal, rules);
  for (;;) {
    visit(game);
    const pos = E.currentPosition(game);
    if (pos.status !== 'playing' || game.moves.length >= limit) return game;
    const moves = E.legalMoves(pos, rules);
    const removals = moves.filter((m) => m.startsWith('pair') || m.startsWith('king'));
    const pick = removals.length && rand(4) !== 0 ? removals : moves;
    game = E.playMove(game, pick[rand(pick.length)]);
  }
}

const turnsPlayed = (game) => game.moves.filter((m) => m === 'turn').length;

test('the stock pressed and refused says the true reason under every rule set', () => {
  const seen = {};
  for (const [id, rules] of RULE_SETS) {
    for (let deal = 1; deal <= 40; deal++) {
      playByRules(deal, rules, (game) => {
        const pos = E.currentPosition(game);
        if (pos.status === 'won') return;
        const move = pos.stock.length ? 'draw' : 'turn'; // what pressing the stock plays (choosing.js)
        let rule = null;
        try { E.applyMove(pos, move, rules); } catch (error) { rule = error.rule; }
        if (rule === null) return; // played, not refused
        const choice = stockRefusal(pos, move, rules);
        const where = `${id} deal ${deal} after ${game.moves.length} moves: ${choice.key}`;
        const opening = game.positions[0].turns_left;
        if (choice.key === 'refused.draw.nonempty') assert.equal(pos.stock.length, 0, where);
        else if (choice.key === 'refused.turn.when') assert.ok(pos.stock.length > 0 || pos.waste.length === 0, where);
        else if (choice.key === 'refused.turn.limit') { // turned back as often as these rules allow
          assert.ok(!rules.unlimitedTurns && opening > 0 && turnsPlayed(game) === opening && pos.turns_left === 0, where);
        } else if (choice.key === 'refused.turn.none') { // these rules give no turn at all
          assert.ok(opening === 0 && turnsPlayed(game) === 0 && pos.stock.length === 0 && pos.waste.length > 0, where);
        } else assert.fail(`${where}: no reason given`);
        if (rules === E.VARIANTS.standard) assert.equal(choice.key, `refused.${rule}`, where); // the engine's own reason
        for (const [lang, text] of texts(choice)) {
          assert.equal(ALREADY[lang].test(text), choice.key === 'refused.turn.limit', `${where} ${lang}: ${text}`);
        }
        seen[`${id} ${choice.key}`] = (seen[`${id} ${choice.key}`] || 0) + 1;
      });
    }
  }
  // The states the review met: the empty stock after the last turn (cover-pair among them), and
  // with no turn at all (one-pass).
  for (const id of ['standard', 'strict', 'stock-top', 'cover-pair']) assert.ok(seen[`${id} refused.turn.limit`] > 0, `${id}: ${JSON.stringify(seen)}`);
  assert.ok(seen['one-pass refused.turn.none'] > 0, JSON.stringify(seen));
});

test('a turn counts the turns left only where the rules count them', () => {
  for (const [id, rules] of RULE_SETS) {
    for (let deal = 1; deal <= 10; deal++) {
      // Draw to the stock's end and turn the waste back, again and again while it may.
      let game = E.newGame(deal, rules);
      for (let turns = 0; turns < 4; turns++) {
        while (E.currentPosition(game).stock.length) game = E.playMove(game, 'draw');
        if (!E.legalMoves(E.currentPosition(game), rules).includes('turn')) break;
        game = E.playMove(game, 'turn');
        const after = E.currentPosition(game);
        const choice = turnMessage(after, rules);
        const where = `${id} deal ${deal}, turn ${turnsPlayed(game)}: ${choice.key}`;
        const left = game.positions[0].turns_left - turnsPlayed(game); // what "turns left" means
        if (choice.key === 'done.turn') assert.ok(!rules.unlimitedTurns && choice.values.turns === left && left > 0, where);
        else if (choice.key === 'done.turn_last') assert.ok(!rules.unlimitedTurns && left === 0, where);
        else if (choice.key === 'done.turn_unlimited') assert.ok(rules.unlimitedTurns, where);
        else assert.fail(where);
        assert.ok(E.legalMoves(after, rules).length > 0);
        for (const [lang, text] of texts(choice)) {
          assert.equal(/\d/.test(text), choice.key === 'done.turn', `${where} ${lang}: ${text}`); // a count only where one is kept
        }
      }
    }
  }
});

test('the win panel says what the points for turns are paid for under every rule set', () => {
  for (const [id, rules] of RULE_SETS) {
    // The first deal these rules can win, won by the solver's shortest game, and the same after one
    // more pass through the stock where the rules allow a turn.
    let deal = 1;
    while (decide(E.openingPosition(deal, rules), { rules, maxNodes: MAX_NODES }).result !== 'won') deal++;
    const games = [];
    for (const start of [[], ['draw', 'turn']]) {
      let game = E.newGame(deal, rules);
      try {
        for (const move of start) while (E.legalMoves(E.currentPosition(game), rules).includes(move)) {
          game = E.playMove(game, move);
          if (move === 'turn') break;
        }
      } catch { continue; }
      const answer = solve(E.currentPosition(game), { rules });
      if (!answer.winnable) continue;
      for (const move of answer.game) game = E.playMove(game, move);
      games.push(game);
    }
    assert.ok(games.length > 0, id);
    for (const game of games) {
      assert.equal(E.currentPosition(game).status, 'won');
      const score = E.scoreBreakdown(game);
      const choice = turnsScoreMessage(score, rules);
      const where = `${id} deal ${deal}, ${turnsPlayed(game)} turns: ${choice.key}`;
      if (choice.key === 'end.turns') { // so many turns not used, at so many points each
        assert.ok(!rules.unlimitedTurns, where);
        assert.equal(choice.values.count, game.positions[0].turns_left - turnsPlayed(game), where);
        assert.equal(choice.values.count * choice.values.per, score.turns, where);
        assert.equal(choice.values.per, E.POINTS.perUnusedTurn, where);
      } else if (choice.key === 'end.turns_unlimited') { // a fixed bonus: the same whatever was played
        assert.ok(rules.unlimitedTurns, where);
        assert.equal(score.turns, E.POINTS.perUnusedTurn * E.TURNS_ALLOWED, where);
      } else assert.fail(where);
      for (const [lang, text] of texts(choice)) assert.ok(text.length > 0 && !text.includes('{'), `${where} ${lang}: ${text}`);
    }
  }
});

test('the lost panel claims only what is known of the deal, and offers no way back from a deal lost from the start', () => {
  const seen = {};
  for (const [id, rules] of RULE_SETS) {
    for (let deal = 1; deal <= 12; deal++) {
      const game = playByRules(deal, rules, () => {});
      if (E.currentPosition(game).status !== 'stuck') continue;
      const opening = decide(game.positions[0], { rules, maxNodes: MAX_NODES }).result;
      // What the page may know of the deal: the survey's verdict or Hint's search (the rules'
      // own), or nothing (a variant or a deal outside the survey, before Hint has been asked).
      for (const known of [opening, 'undecided', null]) {
        const choice = lostPanelMessage(known);
        const where = `${id} deal ${deal}, known ${known}: ${choice.key}`;
        if (choice.key === 'end.lost_by_play') assert.ok(known === 'won' && opening === 'won', where);
        else if (choice.key === 'end.lost_from_start') assert.ok(known === 'lost' && opening === 'lost', where);
        else if (choice.key === 'end.lost_unknown') assert.ok(known !== 'won' && known !== 'lost', where);
        else assert.fail(where);
        // The way back is offered unless no position of the game can be won; known winnable, one can.
        assert.equal(choice.back, choice.key !== 'end.lost_from_start', where);
        if (choice.key === 'end.lost_by_play') assert.equal(lastWinnable(game.positions, { rules }).result, 'found', where);
        for (const [lang, text] of texts(choice)) {
          const s = WORDS[lang].strings.end;
          if (text.includes(s.back)) assert.ok(choice.back, `${where} ${lang}: names a button not offered`);
          if (choice.key !== 'end.lost_by_play') assert.notEqual(text, s.lost_by_play, where);
        }
        seen[choice.key] = (seen[choice.key] || 0) + 1;
      }
    }
  }
  for (const key of ['end.lost_by_play', 'end.lost_from_start', 'end.lost_unknown']) assert.ok(seen[key] > 0, JSON.stringify(seen));
});
