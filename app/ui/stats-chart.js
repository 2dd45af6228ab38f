// The statistics' chart over time: games and wins per day or week as bars, the best score of each
// as a line below them (app/core/stats.js gamesOverTime gives the figures). One SVG drawn here,
// no library: role="img" with a <title> and a <desc> that say what it shows, and a table of the
// same figures after it (every day or week with a game) for whoever cannot see the drawing. Its
// colours are the game's palette, by class (app/ui/game.css), in light and dark alike.

import { element } from './dom.js';

const SVG = 'http://www.w3.org/2000/svg';
// The drawing's own units; CSS scales it to the section's width.
const WIDTH = 320;
const LEFT = 30; // room for the axis figures
const GAMES = { top: 18, bottom: 96 }; // the bars' panel
const SCORES = { top: 140, bottom: 190 }; // the line's panel, under the dates of the bars'
const HEIGHT = 200;

function svgElement(tag, attrs, text) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  return el;
}

// A legend's entry in the drawing: a swatch of `kind`'s colour and its word.
function legend(x, y, kind, text) {
  const g = svgElement('g', { class: 'pyr-chart-legend' });
  g.append(svgElement('rect', { x, y: y - 7, width: 8, height: 8, class: `pyr-chart-${kind}` }),
    svgElement('text', { x: x + 11, y }, text));
  return g;
}

/**
 * The chart of `over` ({period, rows}, gamesOverTime's) and its table, as [svg, table].
 * `s` are the statistics' strings, `fill` fills their values, `num` writes a number, `date` a date.
 */
export function drawTimeline(over, { s, fill, num, date }) {
  const { period, rows } = over;
  const id = `pyr-chart-${Math.random().toString(36).slice(2, 8)}`;
  const title = fill(period === 'day' ? s.chart_day : s.chart_week, { from: date(rows[0].start), to: date(rows[rows.length - 1].start) });
  const played = rows.reduce((n, r) => n + r.played, 0);
  const won = rows.reduce((n, r) => n + r.won, 0);
  const scores = rows.map((r) => r.bestScore).filter((v) => v !== null);
  const best = scores.length ? Math.max(...scores) : null;
  const desc = fill(s.chart_desc, { played: num(played), won: num(won) }) + (best === null ? '' : ` ${fill(s.chart_best, { best: num(best) })}`);

  const svg = svgElement('svg', { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: 'pyr-stats-chart-svg', role: 'img',
    'aria-labelledby': `${id}-title ${id}-desc`, 'data-period': period });
  svg.append(svgElement('title', { id: `${id}-title` }, title), svgElement('desc', { id: `${id}-desc` }, desc));
  const slot = (WIDTH - LEFT) / rows.length;
  const mostGames = Math.max(1, ...rows.map((r) => r.played));
  const y = (panel, value, top) => panel.bottom - ((panel.bottom - panel.top) * value) / top;
  // The axes' figures: the panel's top value, and the first and last period under the bars.
  const axis = (panel, top) => [svgElement('text', { x: LEFT - 4, y: panel.top + 4, class: 'pyr-chart-axis', 'text-anchor': 'end' }, num(top)),
    svgElement('text', { x: LEFT - 4, y: panel.bottom, class: 'pyr-chart-axis', 'text-anchor': 'end' }, num(0)),
    svgElement('line', { x1: LEFT, x2: WIDTH, y1: panel.bottom + 0.5, y2: panel.bottom + 0.5, class: 'pyr-chart-base' })];
  svg.append(legend(LEFT, 9, 'played', s.col_played), legend(LEFT + 80, 9, 'won', s.col_won), ...axis(GAMES, mostGames));
  rows.forEach((r, i) => {
    const x = LEFT + i * slot + slot * 0.15;
    const w = slot * 0.7;
    if (r.played) svg.append(svgElement('rect', { x, y: y(GAMES, r.played, mostGames), width: w, height: GAMES.bottom - y(GAMES, r.played, mostGames), class: 'pyr-chart-played' }));
    if (r.won) svg.append(svgElement('rect', { x, y: y(GAMES, r.won, mostGames), width: w, height: GAMES.bottom - y(GAMES, r.won, mostGames), class: 'pyr-chart-won' }));
  });
  svg.append(svgElement('text', { x: LEFT, y: GAMES.bottom + 12, class: 'pyr-chart-axis' }, date(rows[0].start)),
    svgElement('text', { x: WIDTH, y: GAMES.bottom + 12, class: 'pyr-chart-axis', 'text-anchor': 'end' }, date(rows[rows.length - 1].start)));

  svg.append(legend(LEFT, SCORES.top - 8, 'score', s.col_best));
  if (best !== null) {
    svg.append(...axis(SCORES, best));
    const points = rows.map((r, i) => [LEFT + (i + 0.5) * slot, r.bestScore]).filter(([, v]) => v !== null)
      .map(([x, v]) => [x, y(SCORES, v, Math.max(1, best))]);
    svg.append(svgElement('polyline', { points: points.map((p) => p.join(',')).join(' '), class: 'pyr-chart-line' }),
      ...points.map(([cx, cy]) => svgElement('circle', { cx, cy, r: 2.5, class: 'pyr-chart-score' })));
  }
  return [svg, timelineTable(over, title, { s, num, date })];
}

// The same figures as a table: a row per day or week with a game.
function timelineTable({ period, rows }, caption, { s, num, date }) {
  const table = element('table', 'pyr-stats-table pyr-timeline-table');
  table.append(element('caption', '', caption));
  const head = element('tr');
  for (const text of [period === 'day' ? s.col_day : s.col_week, s.col_played, s.col_won, s.col_best]) {
    const th = element('th', '', text);
    th.scope = 'col';
    head.append(th);
  }
  table.append(head);
  for (const r of rows.filter((row) => row.played)) {
    const tr = element('tr');
    const th = element('th', '', date(r.start));
    th.scope = 'row';
    tr.append(th, element('td', '', num(r.played)), element('td', '', num(r.won)), element('td', '', r.bestScore === null ? s.none : num(r.bestScore)));
    table.append(tr);
  }
  return table;
}
