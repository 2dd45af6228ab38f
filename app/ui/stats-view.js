// The statistics on the page: a folded section under the game with the figures of one rule set
// (app/core/stats.js), chosen in a list when the page has several (the current game's when the
// section opens) and named above the figures; the results as a table; the chart over time
// (app/ui/stats-chart.js); the note on what counts; and reset (confirmed), export and import as a
// JSON file.

import { element, button } from './dom.js';
import {
  statistics, resetStatistics, exportStatistics, importStatistics, parseExport, dailyStreakOn, gamesOverTime, RULES,
} from '../core/stats.js';
import { todayIso } from '../core/daily.js';
import { drawTimeline } from './stats-chart.js';

/** The share of `part` in `whole` as a whole percent (0 for no games). */
export function percent(part, whole) {
  return whole ? Math.round((100 * part) / whole) : 0;
}

export class StatsView {
  // say(text): a message on the game's live line; date(iso): a date in the page's words;
  // rules: the page's rule sets [{id, name}] (none: the app's rules only); current(): the game's.
  constructor(words, num, say, { date, rules = [], current = () => RULES }) {
    this.words = words;
    this.s = words.strings.stats;
    this.num = num;
    this.say = say;
    this.date = date;
    this.current = current;
    this.names = new Map(rules.map((r) => [r.id, r.name]));
    this.el = element('details', 'pyr-stats');
    this.el.id = `pyr-stats-${Math.random().toString(36).slice(2, 8)}`;
    this.summary = element('summary', '', this.s.title);
    this.chooser = this.names.size > 1 ? this.rulesChooser() : null;
    this.forRules = element('p', 'pyr-stats-rules');
    this.figures = element('dl', 'pyr-stats-figures');
    this.chart = element('div', 'pyr-stats-chart');
    const notes = [element('p', 'pyr-stats-note', this.s.note), ...(this.names.size > 1 ? [element('p', 'pyr-stats-note', this.s.note_rules)] : [])];
    const buttons = element('div', 'pyr-stats-buttons');
    this.file = element('input', 'pyr-stats-file');
    this.file.type = 'file';
    this.file.accept = 'application/json,.json';
    this.file.hidden = true;
    this.file.addEventListener('change', () => this.importFile());
    buttons.append(
      button('pyr-button pyr-stats-export', this.s.export, () => this.exportFile()),
      button('pyr-button pyr-stats-import', this.s.import, () => this.file.click()),
      button('pyr-button pyr-stats-reset', this.s.reset, () => this.reset()),
      this.file,
    );
    this.el.append(this.summary, ...(this.chooser ? [this.chooser.parentElement] : []), this.forRules, this.figures, this.chart, ...notes, buttons);
    // Opened: the figures of the rules being played, until the player chooses others.
    this.el.addEventListener('toggle', () => this.el.open && this.render(this.current()));
    window.addEventListener('storage', (event) => {
      if (event.key === null || event.key.startsWith('pyramide.result.') || event.key.startsWith('pyramide.stats.')) this.refresh();
    });
  }

  // A <select> of the page's rule sets, in a label.
  rulesChooser() {
    const label = element('label', 'pyr-stats-chooser', `${this.s.rules} `);
    const select = element('select');
    for (const [id, name] of this.names) {
      const option = element('option', '', name);
      option.value = id;
      select.append(option);
    }
    select.addEventListener('change', () => this.render(select.value));
    label.append(select);
    return select;
  }

  /** The rule set whose figures are shown. */
  get rules() {
    return this.shownRules ?? RULES;
  }

  /** Opens the section on the game's rules and moves focus to it (from the win panel). */
  open() {
    this.el.open = true;
    this.render(this.current());
    this.summary.focus();
  }

  /** Draws the figures again when they are shown (a game was just counted). */
  refresh() {
    if (this.el.open) this.render(this.rules);
  }

  render(rules) {
    const { s, num } = this;
    const id = this.names.has(rules) || !this.names.size ? rules : RULES;
    if (this.chooser) this.chooser.value = id;
    this.shownRules = id;
    this.el.dataset.rules = id;
    this.forRules.textContent = this.names.has(id) ? this.words.fill(s.for_rules, { name: this.names.get(id) }) : '';
    this.forRules.hidden = !this.names.has(id);
    const { totals, records } = statistics(id);
    const none = (v) => (v === null ? s.none : num(v));
    const rows = [
      ['played', s.played, num(totals.played)], ['won', s.won, num(totals.won)],
      ['win_share', s.win_share, this.words.fill(s.percent, { value: num(percent(totals.won, totals.played)) })],
      ['streak', s.streak, num(totals.streak)], ['best_streak', s.best_streak, num(totals.bestStreak)],
      ['best_score', s.best_score, none(totals.bestScore)], ['fewest_moves', s.fewest_moves, none(totals.fewestMoves)],
      ['hints', s.hints, num(totals.hints)], ['daily_streak', s.daily_streak, num(dailyStreakOn(totals, todayIso()))],
    ];
    this.figures.replaceChildren(...rows.flatMap(([key, label, value]) => {
      const dt = element('dt', '', label);
      const dd = element('dd', '', value);
      dd.dataset.stat = key;
      return [dt, dd];
    }));
    if (!totals.played) return this.chart.replaceChildren(element('p', 'pyr-stats-empty', s.chart_empty));
    this.chart.replaceChildren(this.resultsTable(totals),
      ...drawTimeline(gamesOverTime(records, todayIso()), { s, fill: this.words.fill, num, date: this.date }));
  }

  // Won, lost and given up: each count and its share of the games.
  resultsTable(totals) {
    const { s, num } = this;
    const table = element('table', 'pyr-stats-table pyr-results-table');
    table.append(element('caption', '', this.words.fill(s.chart_caption, { count: num(totals.played) })));
    for (const [kind, count, label] of [['won', totals.won, s.won_one], ['lost', totals.lost, s.lost_one], ['given-up', totals.givenUp, s.given_up]]) {
      const tr = element('tr', `pyr-row-${kind}`);
      const th = element('th', '', label);
      th.scope = 'row';
      tr.append(th, element('td', '', num(count)), element('td', '', this.words.fill(s.percent, { value: num(percent(count, totals.played)) })));
      table.append(tr);
    }
    return table;
  }

  reset() {
    if (!window.confirm(this.s.confirm_reset)) return;
    resetStatistics();
    this.render(this.rules);
    this.say(this.s.was_reset);
  }

  exportFile() {
    const blob = new Blob([exportStatistics()], { type: 'application/json' });
    const a = element('a');
    a.href = URL.createObjectURL(blob);
    a.download = `pyramide-${this.s.title.toLowerCase()}-${todayIso()}.json`;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 0);
  }

  async importFile() {
    const file = this.file.files && this.file.files[0];
    this.file.value = '';
    if (!file) return;
    try {
      const text = await file.text();
      parseExport(text); // a file that does not read changes nothing, and asks nothing
      if (!window.confirm(this.s.confirm_import)) return;
      importStatistics(text);
      this.say(this.s.imported);
    } catch {
      this.say(this.s.import_failed);
    }
    this.render(this.rules);
  }
}
