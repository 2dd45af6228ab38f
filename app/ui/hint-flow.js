// Hint: the move to play next, said at once from a quick look (app/core/hint.js) and then checked by
// the search in the worker (HintSearch), or the position found lost and how far back it could still be
// won; the hinted cards framed on the board, the hint counted for the statistics.
// Methods of the game (game.js mixes them into Game): `this` is the game.

import { quickSuggestion } from '../core/hint.js';
import { lostMessage, lostPanelMessage } from '../core/messages.js';
import { newGameId } from '../core/stats.js';

export const hintFlow = {
  // A position that cannot be won is said by what made it so (app/core/messages.js): a deal lost
  // from the start is not the player's doing, so Undo is not offered; a game lost by play says
  // how many moves back it could still be won.
  hint() {
    this.solution.close({ quiet: true }); // SOLUTION: the hint is about the player's own position
    const pos = this.position;
    const { s, words } = this;
    const { game } = this.state;
    if (pos.status === 'won') return this.update({ message: this.message(s.hint.won) });
    this.countHint(); // game
    const lost = (deal, back = null) =>
      this.update({ hint: this.hinting(null, 'lost'), message: this.message(this.say(lostMessage(deal, back)), 'stuck'), ...this.lostByHint() });
    const known = this.dealResult(game.deal);
    if (known === 'lost') return lost('lost'); // known lost from the start: nothing to search
    const quick = quickSuggestion(pos, this.rules);
    if (quick) {
      this.update({ hint: this.hinting(quick, 'searching'), message: this.message(words.fill(s.hint.searching, { move: words.move(quick) })) });
    } else {
      this.update({ hint: this.hinting(null, 'searching') }); // no move at all: the search finds how far back
    }
    this.hints.start({ deal: game.deal, moves: game.moves, known, rules: this.rules }, (answer) => {
      if (answer.deal === 'won' || answer.deal === 'lost') this.openings.set(`${this.variant}:${game.deal}`, answer.deal);
      if (answer.result === 'won' && answer.move) {
        this.update({ hint: this.hinting(answer.move, 'checked'), message: this.message(words.fill(s.hint.checked, { move: words.move(answer.move) })) });
      } else if (answer.result === 'lost') {
        lost(answer.deal, answer.back);
      } else if (!quick) {
        lost(known); // no move at all is lost; how far back is not known
      } else {
        // Say why it is unchecked: a search that gave up is not a search that never started.
        const why = answer.result === 'unavailable' ? s.hint.unavailable : s.hint.unchecked;
        this.update({ hint: this.hinting(quick, 'unchecked'), message: this.message(words.fill(why, { move: words.move(quick) })) });
      }
    }, this.rules);
  },

  // game: a hint asked counts for the statistics; Hint found the position lost: the lost panel.
  countHint() {
    const meta = this.state.meta ?? { id: newGameId(), hints: 0, ms: 0, daily: null };
    this.update({ meta: { ...meta, hints: meta.hints + 1 } }, { save: true });
  },

  lostByHint() {
    const why = lostPanelMessage(this.dealResult(this.state.game.deal));
    const { end } = this.state;
    // Already shown (no move left): its words follow what Hint has just found out of the deal.
    if (end) return end.kind === 'lost' && end.why.key !== why.key ? { end: { ...end, fresh: false, why } } : {};
    return { end: { kind: 'lost', fresh: true, stuck: false, why } };
  },

  // The hint as state: its progress, and the places that show `move` (its cards, or the stock
  // for draw and turn; none when there is no move).
  hinting(move, state) {
    const [kind, a, b] = move ? move.split(' ') : [];
    const keys = new Set(kind === 'draw' || kind === 'turn' ? ['stock'] : [a, b].filter(Boolean).map((c) => this.keyOf(c)));
    return { state, keys };
  },
};
