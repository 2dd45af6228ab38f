// app/core/engine.js's move generation and apply against the independent engine's answers
// (tests/data/engine_moves.json, written by tests/data/make_engine_moves.py from
// verify/independent/rules.py and, for the variants, the replayer of verify/independent/decider.py):
// at every step of a few random games, the same legal moves, the same position after the move
// played, and the same rule for each refused move. Fast, so `make mutation MODULE=app-engine`
// runs it for each mutant (tests/verify/test_differential.py does the same through the Node bridge
// over 10,000 games).
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as E from '../../../app/core/engine.js';

const DATA = JSON.parse(readFileSync(new URL('../../data/engine_moves.json', import.meta.url), 'utf8'));
// The variants whose refusals say only "not a legal move under these rules" (rule 'variant');
// one pass is the standard rules from a deal with no turn back, so its refusals name the rule.
const OWN_REFUSAL = new Set(['strict', 'unlimited', 'stock-top', 'cover-pair']);

test('the data holds games to replay, standard and under every variant', () => {
  assert.ok(DATA.games.length >= 8);
  assert.ok(DATA.games.every((g) => g.steps.length >= 10));
  const variants = new Set(DATA.games.map((g) => g.variant ?? 'standard'));
  assert.deepEqual([...variants].sort(), Object.keys(E.VARIANTS).sort());
});

// The two narrower views the solvers ask of forEachMove, checked against the legal moves:
// sideOnly, the moves that take the waste top (or, under stock-top, the stock's next card);
// kingFirst, only the removal of the first free pyramid king when there is one.
function solverViews(position, rules) {
  const { table, pyr, side, p, turns } = E.compile(position);
  const r = E.normaliseRules(rules);
  const view = (kingFirst, sideOnly) => {
    const moves = [];
    E.forEachMove(table, pyr, side, p, turns, (kind, a, b) => moves.push(E.moveNotation(table, kind, a, b)), kingFirst, r, sideOnly);
    return moves.sort();
  };
  return [view(false, true), view(true, false)];
}

const names = (move, card) => card !== undefined && move.split(' ').slice(1).includes(card);

function sideMoves(legal, position, rules) {
  return legal.filter((m) => names(m, position.waste.at(-1)) || (rules.stockTop && names(m, position.stock[0])));
}

function kingAlone(legal, position) {
  const kings = legal.filter((m) => m.startsWith('king ') && position.pyramid.includes(m.slice(5)));
  if (!kings.length) return legal;
  const first = Math.min(...kings.map((m) => position.pyramid.indexOf(m.slice(5))));
  return [`king ${position.pyramid[first]}`];
}

/** The position without its points: the variants' replayer keeps no score. */
const withoutPoints = ({ points, ...rest }) => rest;

for (const game of DATA.games) {
  const variant = game.variant ?? 'standard';
  const rules = E.VARIANTS[variant];
  const scored = !OWN_REFUSAL.has(variant);
  const same = scored ? (p) => p : withoutPoints;
  test(`deal ${game.deal} (${variant}): legal moves, apply and refusals as the independent engine says`, () => {
    let position = E.openingPosition(game.deal, rules);
    assert.deepEqual(same(position), game.start, 'the opening');
    game.steps.forEach((step, i) => {
      assert.deepEqual([...E.legalMoves(position, rules)].sort(), step.legal, `step ${i + 1}: the legal moves`);
      const [sideOnly, kingFirst] = solverViews(position, rules);
      assert.deepEqual(sideOnly, sideMoves(step.legal, position, rules), `step ${i + 1}: the moves of the waste top (sideOnly)`);
      assert.deepEqual(kingFirst, kingAlone(step.legal, position), `step ${i + 1}: a free king first (kingFirst)`);
      for (const refusal of step.refused) {
        const [text, rule] = scored ? refusal : [refusal, 'variant'];
        const message = scored ? null : `${text}: not a legal move under these rules`;
        assert.throws(() => E.applyMove(position, text, rules),
          (e) => e instanceof E.RuleError && e.rule === rule && (message === null || e.message === message),
          `step ${i + 1}: ${text} refused for ${rule}`);
      }
      if (step.move) {
        const after = E.applyMove(position, step.move, rules);
        assert.deepEqual(same(after), step.after, `step ${i + 1}: ${step.move}`);
        position = after;
      }
    });
  });
}
