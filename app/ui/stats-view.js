// The statistics on the page: a folded section under the game with the figures (app/core/stats.js),
// a bar of results drawn here as SVG (hidden from screen readers, which read the table beside it
// instead), the note on what counts, and reset (confirmed), export and import as a JSON file.

import { element, button } from './dom.js';
import {
  statistics, resetStatistics, exportStatistics, importStatistics, parseExport, dailyStreakOn, RULES,
} from '../core/stats.js';
import { todayIso } from '../core/daily.js';

const SVG = 'http://www.w3.org/2000/svg';
const BAR_WIDTH = 300; // the drawing's own units; CSS scales it to the section's width
const BAR_HEIGHT = 24;

function svgElement(tag, attrs) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

/** The share of `part` in `whole` as a whole percent (0 for no games). */
export function percent(part, whole) {
  return whole ? Math.round((100 * part) / whole) : 0;
}

export class StatsView {
  // say(text): a message on the game's live line
  constructor(words, num, say) {
    this.words = words;
    this.s = words.strings.stats;
    this.num = num;
    this.say = say;
    this.el = element('details', 'pyr-stats');
    this.el.id = `pyr-stats-${Math.random().toString(36).slice(2, 8)}`;
    this.summary = element('summary', '', this.s.title);
    this.figures = element('dl', 'pyr-stats-figures');
    this.chart = element('div', 'pyr-stats-chart');
    const note = element('p', 'pyr-stats-note', this.s.note);
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
    this.el.append(this.summary, this.figures, this.chart, note, buttons);
    this.el.addEventListener('toggle', () => this.el.open && this.render());
    window.addEventListener('storage', (event) => {
      if (event.key === null || event.key.startsWith('pyramide.result.') || event.key.startsWith('pyramide.stats.')) this.render();
    });
  }

  /** Opens the section and moves focus to it (from the win panel). */
  open() {
    this.el.open = true;
    this.render();
    this.summary.focus();
  }

  /** Draws the figures again when they are shown (a game was just counted). */
  refresh() {
    if (this.el.open) this.render();
  }

  render() {
    const { s, num } = this;
    const { totals } = statistics(RULES);
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
    this.chart.replaceChildren(...this.drawChart(totals));
  }

  // One bar, split into won, lost and given up in proportion; the table says the same in words.
  drawChart(totals) {
    const { s, num } = this;
    if (!totals.played) return [element('p', 'pyr-stats-empty', s.chart_empty)];
    const parts = [['won', totals.won, s.won_one], ['lost', totals.lost, s.lost_one], ['given-up', totals.givenUp, s.given_up]];
    const svg = svgElement('svg', { viewBox: `0 0 ${BAR_WIDTH} ${BAR_HEIGHT}`, class: 'pyr-stats-bar', 'aria-hidden': 'true', focusable: 'false' });
    let x = 0;
    for (const [kind, count] of parts) {
      if (!count) continue;
      const w = (BAR_WIDTH * count) / totals.played;
      svg.append(svgElement('rect', { x, y: 0, width: w, height: BAR_HEIGHT, class: `pyr-bar-${kind}` }));
      x += w;
    }
    const table = element('table', 'pyr-stats-table');
    table.append(element('caption', '', this.words.fill(s.chart_caption, { count: num(totals.played) })));
    for (const [kind, count, label] of parts) {
      const tr = element('tr', `pyr-row-${kind}`);
      const th = element('th', '', label);
      th.scope = 'row';
      const swatch = element('span', `pyr-swatch pyr-bar-${kind}`);
      swatch.setAttribute('aria-hidden', 'true');
      th.prepend(swatch);
      tr.append(th, element('td', '', num(count)), element('td', '', this.words.fill(s.percent, { value: num(percent(count, totals.played)) })));
      table.append(tr);
    }
    return [svg, table];
  }

  reset() {
    if (!window.confirm(this.s.confirm_reset)) return;
    resetStatistics();
    this.render();
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
    this.render();
  }
}
