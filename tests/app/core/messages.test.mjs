// The game's messages are true (app/core/messages.js, app/core/judge.js): 10,000 random games (deals
// 1 … 10,000, tests/app/core/message_games.mjs), and every claim each message makes checked with the
// app's engine and decider — the cards it names and how many cover a card, "can still be won",
// "no longer", how many moves back, stuck with no move at all — and its words in nb and da:
// no Undo offered where undoing cannot help, the count and the cards it names in the text.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as E from '../../../app/core/engine.js';
import { decide } from '../../../app/core/decider.js';
import { makeWords } from '../../../app/ui/board.js';
import { coveredMessage, lostMessage, messageText, stuckMessage } from '../../../app/core/messages.js';
import { MAX_NODES, playGame } from './message_games.mjs';

const GAMES = Number(process.env.MESSAGE_GAMES || 10_000);
const LANGS = ['nb', 'da'];
const WORDS = Object.fromEntries(LANGS.map((lang) =>
  [lang, makeWords(JSON.parse(readFileSync(new URL(`../../../docs/${lang}/game.json`, import.meta.url), 'utf8')))]));
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
        for (const [, text] of texts(claim)) assert.ok(text.includes(String(position.points)) && text.includes(String(position.moves)));
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
