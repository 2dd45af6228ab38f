// app/engine.js's move generation and apply against the independent engine's answers
// (tests/data/engine_moves.json, written by tests/data/make_engine_moves.py from
// verify/independent/rules.py): at every step of a few random games, the same legal moves,
// the same position after the move played, and the same rule for each refused move. Fast, so
// `make mutation MODULE=app-engine` runs it for each mutant (tests/test_differential.py does
// the same through the Node bridge over 10,000 games).
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as E from '../../app/engine.js';

const DATA = JSON.parse(readFileSync(new URL('../data/engine_moves.json', import.meta.url), 'utf8'));

test('the data holds games to replay', () => {
  assert.ok(DATA.games.length >= 8);
  assert.ok(DATA.games.every((g) => g.steps.length >= 10));
});

for (const game of DATA.games) {
  test(`deal ${game.deal}: legal moves, apply and refusals as the independent engine says`, () => {
    let position = game.start;
    assert.deepEqual(E.openingPosition(game.deal), position, 'the opening');
    game.steps.forEach((step, i) => {
      assert.deepEqual([...E.legalMoves(position)].sort(), step.legal, `step ${i + 1}: the legal moves`);
      for (const [text, rule] of step.refused) {
        assert.throws(() => E.applyMove(position, text), (e) => e.rule === rule, `step ${i + 1}: ${text} refused for ${rule}`);
      }
      if (step.move) {
        const after = E.applyMove(position, step.move);
        assert.deepEqual(after, step.after, `step ${i + 1}: ${step.move}`);
        position = after;
      }
    });
  });
}
