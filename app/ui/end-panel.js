// The end of a game on the page: the win panel (the score broken down as the engine counted it,
// moves, hints, time, a personal-record line, New game focused, a short celebration) and the lost
// panel (lost from the start, by play, or not known which; Undo, back to the last winnable position
// unless the deal is known lost from the start, Restart, New game). A region over the board that
// takes focus; game.js says when and with what. It lies over the board as a dialog does, so it has
// a Close button (and Escape, in game.js): the player may want to look at the board the game ended on.

import { afterFrame, element, button, gameButton } from './dom.js';
import { POINTS } from '../core/engine.js';
import { messageText } from '../core/messages.js';

/** Milliseconds as the clock shows them: m:ss, or h:mm:ss from an hour. */
export function clockText(ms) {
  const total = Math.floor(ms / 1000);
  const h = Math.floor(total / 3600), m = Math.floor((total % 3600) / 60), s = total % 60;
  const two = (n) => String(n).padStart(2, '0');
  return h ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
}

export class EndPanel {
  // actions: {newGame, undo, restart, back, showStats, share, close}
  constructor(words, num, actions) {
    this.words = words;
    this.s = words.strings.end;
    this.num = num;
    this.actions = actions;
    this.el = element('section', 'pyr-end');
    this.el.tabIndex = -1;
    this.el.hidden = true;
    this.heading = element('h2', 'pyr-end-title');
    this.heading.id = `pyr-end-${Math.random().toString(36).slice(2, 8)}`;
    this.el.setAttribute('aria-labelledby', this.heading.id);
    this.body = element('div', 'pyr-end-body');
    this.closeButton = gameButton('pyr-button pyr-end-close', this.s.close, () => this.actions.close());
    this.el.append(this.closeButton, this.heading, this.body);
    this.shown = null; // what the panel shows: 'won', 'lost' or null
  }

  get open() {
    return !this.el.hidden;
  }

  hide() {
    this.el.hidden = true;
    this.el.className = 'pyr-end';
    this.shown = null;
  }

  // The win: `score` is the engine's scoreBreakdown, `record` a line or null, `share` a text or null.
  showWon({ score, turnsRow, moves, hints, ms, timer, hideScore, record, share, focus }) {
    const { s, words, num } = this;
    this.el.className = 'pyr-end pyr-end-won';
    this.heading.textContent = s.won_title;
    const parts = [element('p', 'pyr-end-lead', s.won_lead)];
    if (!hideScore) parts.push(this.scoreTable(score, turnsRow));
    const facts = element('ul', 'pyr-end-facts');
    const fact = (text, cls) => facts.append(element('li', cls, text));
    fact(words.fill(s.moves, { moves: num(moves) }), 'pyr-end-moves');
    fact(words.fill(s.hints, { hints: num(hints) }), 'pyr-end-hints');
    if (timer) fact(words.fill(s.time, { time: clockText(ms) }), 'pyr-end-time');
    parts.push(facts);
    if (record) parts.push(element('p', 'pyr-end-record', record));
    const newGame = gameButton('pyr-button pyr-end-new', words.strings.buttons.new_game, this.actions.newGame);
    const buttons = element('div', 'pyr-end-buttons');
    buttons.append(newGame, button('pyr-button pyr-end-stats', s.show_stats, this.actions.showStats));
    if (share) buttons.append(button('pyr-button pyr-end-share', s.share, () => this.actions.share(share)));
    parts.push(buttons);
    this.body.replaceChildren(...parts);
    this.el.hidden = false;
    this.shown = 'won';
    // Over the board, in view: focused once drawn, with no scroll (nothing moves).
    if (focus) afterFrame(() => { if (this.shown === 'won' && newGame.isConnected) newGame.focus({ preventScroll: true }); });
  }

  // `turnsRow`: the words of the turns' row, by the rules (app/core/messages.js turnsScoreMessage).
  scoreTable(score, turnsRow) {
    const { s, words, num } = this;
    const table = element('table', 'pyr-end-score');
    table.append(element('caption', '', s.score_caption));
    const head = element('tr');
    head.append(element('th', '', s.part), element('th', '', s.points));
    head.children[0].scope = 'col';
    head.children[1].scope = 'col';
    table.append(head);
    const row = (label, value, cls) => {
      const tr = element('tr', cls);
      const th = element('th', '', label);
      th.scope = 'row';
      tr.append(th, element('td', '', num(value)));
      table.append(tr);
    };
    const count = (points, per) => num(Math.round(points / per));
    row(words.fill(s.cards, { count: count(score.cards, POINTS.perCard), per: num(POINTS.perCard) }), score.cards, 'pyr-score-cards');
    row(words.fill(s.rows, { count: count(score.rows, POINTS.rowCleared), per: num(POINTS.rowCleared) }), score.rows, 'pyr-score-rows');
    row(s.win, score.win, 'pyr-score-win');
    row(messageText(words, turnsRow, num), score.turns, 'pyr-score-turns');
    row(s.total, score.total, 'pyr-score-total');
    return table;
  }

  // The loss: `stuck` when no move is left (else Hint found it lost); `why`, its words and whether
  // the way back is offered, by what is known of the deal from its start (app/core/messages.js
  // lostPanelMessage, from game.js dealResult: the survey's verdict, or Hint's search of the opening).
  showLost({ stuck, why, canUndo, focus, share = null }) {
    const { s, words } = this;
    this.el.className = 'pyr-end pyr-end-lost';
    this.heading.textContent = stuck ? s.stuck_title : s.lost_title;
    this.why = element('p', 'pyr-end-why', messageText(words, why, this.num));
    this.backLine = element('p', 'pyr-end-back-said');
    this.backLine.setAttribute('role', 'status');
    const buttons = element('div', 'pyr-end-buttons');
    const undo = gameButton('pyr-button pyr-end-undo', words.strings.buttons.undo, this.actions.undo);
    // Known lost from the start: no position of the game can be won, so no way back to one.
    this.backButton = why.back ? gameButton('pyr-button pyr-end-back', s.back, this.actions.back) : null;
    buttons.append(undo, ...(this.backButton ? [this.backButton] : []),
      gameButton('pyr-button pyr-end-restart', words.strings.buttons.restart, this.actions.restart),
      gameButton('pyr-button pyr-end-new', words.strings.buttons.new_game, this.actions.newGame));
    if (share) buttons.append(button('pyr-button pyr-end-share', s.share, () => this.actions.share(share)));
    if (!canUndo) {
      undo.setAttribute('aria-disabled', 'true');
      if (this.backButton) this.backButton.setAttribute('aria-disabled', 'true');
    }
    this.body.replaceChildren(this.why, buttons, this.backLine);
    this.el.hidden = false;
    this.shown = 'lost';
    if (focus) afterFrame(() => { if (this.shown === 'lost') this.el.focus({ preventScroll: true }); });
  }

  // While the search back runs, and what it found (`text`; `fromStart` when it found none).
  searching(text) {
    if (this.backButton) this.backButton.setAttribute('aria-disabled', 'true');
    if (this.backLine) this.backLine.textContent = text;
  }

  said(text, { fromStart = false } = {}) {
    if (this.backLine) this.backLine.textContent = text;
    if (fromStart && this.why) this.why.textContent = this.s.lost_from_start;
  }
}
