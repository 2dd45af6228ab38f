// The end of a game: the end panel's content (won, or lost with no move left) and drawing it, the
// game's statistics data kept with its moves, the result counted once (won, lost, given up), the
// way back to a position that can still be won, the daily result shared.
// Methods of the game (game.js mixes them into Game): `this` is the game.

import { currentPosition, replay, scoreBreakdown } from '../core/engine.js';
import { newGameId, recordBeaten, recordResult, resultOf, statistics } from '../core/stats.js';
import { shareText } from '../core/daily.js';
import { STANDARD, variantOf } from './variants.js';
import { lostPanelMessage, turnsScoreMessage } from '../core/messages.js';
import { afterFrame } from './dom.js';

export const gameEnd = {
  // The end panel's content for `game`: the win (with `record` and `fresh` when it has just
  // been won here), the loss when no move is left, else null.
  endOf(game, meta, { record = null, fresh = false } = {}) {
    const pos = currentPosition(game);
    if (pos.status === 'won') {
      const share = this.dailyShare(pos, meta);
      const score = scoreBreakdown(game);
      return { kind: 'won', fresh, score, turnsRow: turnsScoreMessage(score, game.rules), moves: pos.moves, hints: meta?.hints ?? 0,
        ms: meta?.ms ?? 0, record, share };
    }
    if (pos.status === 'stuck') {
      return { kind: 'lost', fresh, stuck: true, why: lostPanelMessage(this.dealResult(game.deal)), share: this.dailyShare(pos, meta) };
    }
    return null;
  },

  // The daily deal's result to share (app/core/daily.js shareText), or null when the game is not one.
  dailyShare(pos, meta) {
    const daily = meta?.daily ?? null;
    return daily ? shareText(this.s.end, this.words, this.num, { won: pos.status === 'won', date: this.date(daily), moves: pos.moves,
      hints: meta.hints }) : null;
  },

  // The end panel closed by the player: the board it lay over is seen again, the message still
  // says how the game ended, and the keyboard goes to New game (the next thing most players do).
  closeEndPanel() {
    this.endPanel.hide();
    this.buttons.get('new-game').focus({ preventScroll: true });
  },

  renderEnd() {
    const { end } = this.state;
    if (end === this.drawn.end) return;
    this.drawn.end = end;
    if (!end) {
      // The panel goes with the end (Undo, a move): focus it held goes back to the board.
      const held = this.endPanel.el.contains(document.activeElement);
      this.endPanel.hide();
      if (held) this.board.focus(this.board.current ?? 'stock');
      return;
    }
    if (end.kind === 'won') {
      if (end.fresh) { // just won here: the cards rise from the discard pile, and the tune
        afterFrame(() => this.board.celebrate());
        this.sound('win');
      }
      this.endPanel.showWon({ ...end, timer: this.options.timer, hideScore: this.options.hideScore, focus: end.fresh });
    } else {
      this.endPanel.showLost({ ...end, canUndo: this.state.game.moves.length > 0, focus: end.fresh });
    }
  },

  // The game's statistics data after one more move: an id from its first move, the daily date
  // when it is today's daily deal, the time kept so far.
  metaAfterMove(game) {
    const meta = this.state.meta ?? { id: newGameId(), hints: 0, ms: 0, daily: null };
    // The daily deal is the app's rules' (status-line.js openDaily): the same deal under a variant is not it.
    const isDaily = game.moves.length === 1 && variantOf(game) === STANDARD && game.deal === this.dailyToday();
    const daily = meta.daily ?? (isDaily ? this.today : null);
    return { ...meta, daily, ms: Math.round(this.clock.ms) };
  },

  // Counts the game's end once (app/core/stats.js), and says what it beat among the games of its
  // own rules: the record line (with the hints that helped, when any did), or null.
  recordEnd(game, meta) {
    const pos = currentPosition(game);
    if (pos.status === 'playing') return null;
    const rules = variantOf(game);
    const before = statistics(rules).totals;
    const written = recordResult({ id: meta.id, rules, deal: game.deal, result: pos.status === 'won' ? 'won' : 'lost', moves: pos.moves,
      points: pos.points, hints: meta.hints, ms: meta.ms, daily: meta.daily });
    this.stats.refresh();
    const beaten = written && pos.status === 'won' ? recordBeaten(before, pos) : null;
    if (!beaten) return null;
    const e = this.s.end;
    const { fill, count } = this.words;
    const line = fill({ first: e.record_first, score: e.record_score, moves: e.record_moves }[beaten], {
      points: count('points', pos.points), moves: count('moves', pos.moves),
      before: this.num(beaten === 'score' ? before.bestScore : before.fewestMoves) });
    return meta.hints ? `${line} ${fill(e.record_hints, { hints: this.num(meta.hints) })}` : line;
  },

  // A Restart or New game before the end: the game (once it has a move) counts as given up.
  giveUp() {
    const { game, meta } = this.state;
    if (!meta || !game.moves.length || this.position.status !== 'playing' || resultOf(meta.id)) return;
    const pos = this.position;
    recordResult({ id: meta.id, rules: variantOf(game), deal: game.deal, result: 'given-up', moves: pos.moves, points: pos.points, hints: meta.hints,
      ms: Math.round(this.clock.ms), daily: meta.daily });
    this.stats.refresh();
  },

  // Back to the last position of this game that can still be won (app/core/rewind.js, in the worker).
  backToWinnable() {
    const { game } = this.state;
    const e = this.s.end;
    if (!game.moves.length) return;
    this.endPanel.searching(e.searching);
    this.rewind.start(game.positions, (answer) => {
      if (this.state.game !== game) return; // the game went on meanwhile
      if (answer.result === 'found') {
        const k = answer.index;
        const back = replay(game.deal, game.moves.slice(0, k), game.rules); // the same rules: the same variant's game
        const text = k === 0 ? e.back_start : this.words.fill(e.back_done, { moves: this.num(k) });
        return this.update({ game: back, redo: game.moves.slice(k).reverse(), message: this.message(text) }, { save: true });
      }
      if (answer.result === 'none') {
        this.openings.set(`${this.variant}:${game.deal}`, 'lost'); // the opening too: known lost from the start
        return this.endPanel.said(e.back_none, { fromStart: true });
      }
      this.endPanel.said(e.back_undecided);
    }, this.rules); // the game's own rules: under a variant the standard ones would answer for other moves
  },

  // Copies the daily result's text; where the clipboard is refused, the message shows it.
  share(text) {
    const e = this.s.end;
    const shown = () => this.update({ message: this.message(this.words.fill(e.share_shown, { text })) });
    try {
      navigator.clipboard.writeText(text).then(() => this.update({ message: this.message(e.share_copied) }), shown);
    } catch {
      shown();
    }
  },
};
