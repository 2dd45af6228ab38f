// The lines about the game: the status line (moves, points, hints, the time kept) with its clock,
// the daily deal's line and its button's deal opened.
// Methods of the game (game.js mixes them into Game): `this` is the game.

import { clockText } from './end-panel.js';
import { statistics, dailyStreakOn } from '../core/stats.js';
import { dailyDeal, todayIso } from '../core/daily.js';
import { showDeal } from './history-nav.js';
import { STANDARD } from './variants.js';
import { setAttr, setText } from './dom.js';

export const statusLine = {
  // The status line as the options ask: moves, points unless hidden, the hints used if shown.
  renderStatus(pos) {
    const { s, words, options } = this;
    setText(this.score, options.hideScore ? words.fill(s.options.status_moves, { moves: this.num(pos.moves) })
      : words.fill(s.board.status, { moves: this.num(pos.moves), points: this.num(pos.points) }));
    this.hintCount.hidden = !options.hintCount;
    setText(this.hintCount, options.hintCount ? ` · ${words.fill(s.options.status_hints, { hints: this.num(this.state.meta?.hints ?? 0) })}` : '');
    this.clockLine.hidden = !options.timer;
    setText(this.clockLine, options.timer ? ` · ${words.fill(s.options.status_time, { time: clockText(this.clock.ms) })}` : '');
  },

  // The time runs while a started game is played and the page is seen, only when it is kept.
  tick() {
    const now = Date.now();
    const pos = this.state.game && this.position;
    if (this.options.timer && pos && pos.moves > 0 && pos.status === 'playing' && document.visibilityState === 'visible') {
      this.clock.ms += Math.min(now - this.clock.last, 5000); // a sleeping computer is not play
    }
    this.clock.last = now;
    if (this.options.timer && pos) setText(this.clockLine, ` · ${this.words.fill(this.s.options.status_time, { time: clockText(this.clock.ms) })}`);
  },

  // Today's deal, when the pool has one: is this it?
  dailyToday() {
    this.today = todayIso();
    return dailyDeal(this.today, this.pool);
  },

  renderDaily(game) {
    const { s, words } = this;
    const date = this.date(this.today); // the daily button's label: drawButtons()
    const isDaily = this.pool.length > 0 && game.deal === dailyDeal(this.today, this.pool);
    this.dailyLine.hidden = !isDaily;
    // its own streak, as it stands today (app/core/stats.js)
    const streak = isDaily ? dailyStreakOn(statistics().totals, this.today) : 0;
    setText(this.dailyLine, !isDaily ? '' : words.fill(s.daily.this_is, { date })
      + (streak ? ` ${words.fill(s.daily.streak, { count: streak })}` : ''));
    setAttr(this.container, 'data-daily', String(isDaily));
  },

  // Today's deal, as a deal link would open it, in a new history entry.
  openDaily() {
    const deal = this.dailyToday();
    const date = this.date(this.today);
    if (deal === null) return;
    if (this.state.game.deal === deal) return this.update({ message: this.message(this.words.fill(this.s.daily.this_is, { date })) });
    showDeal(deal, { push: true });
    const { changes, restored } = this.opened(deal, STANDARD); // the daily deal is the app's rules'
    const text = this.words.fill(this.s.daily.opened, { date, deal });
    this.update({ ...changes, message: restored ? this.withEnd(changes.game, text) : this.message(text) });
  },
};
