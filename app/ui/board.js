// The board: draws a position (pyramid, stock, waste) with the same cards as the site's SVG
// pictures (generator/render/svg.py) and turns clicks and arrow keys into "place activated" calls.
// It decides no rule: which cards are free comes from the engine, moves are played elsewhere.
// Every place is one persistent element, updated in place, so keyboard focus stays where it
// was when a card goes.

import { compile, freeMask, rowAndPlace, PYRAMID_CARDS, ROWS } from '../core/engine.js';
import { afterInput, element, setAttr, setText } from './dom.js';
import { CARD_DRAWING } from '../core/card-drawing.js';
import { countWordFormatter, numberFormatter, pluralCategory } from '../core/locale.js';
import { celebrate, flyAway, motionAllowed, slideIn } from './motion.js';

// ---------------------------------------------------------------- words
const SUIT_SYMBOLS = { S: '\u2660', H: '\u2665', D: '\u2666', C: '\u2663' }; // ♠ ♥ ♦ ♣
/** Text helpers for one language: card names, move descriptions, {placeholder} filling. */
export function makeWords(strings) {
  const { locale } = strings;
  const [plural, num, word] = locale ? [pluralCategory(locale), numberFormatter(locale), countWordFormatter(locale)] : [];
  // A counted text is an object with a form per CLDR plural category of the language (game.json,
  // docs/dev/game.md): its form is chosen by vars.count, a number, written with the locale's digits
  // as {count} or as the pages write small counts as {count_word}.
  const counted = (forms, vars) => {
    if (!plural) throw new Error('a counted text needs the locale data the page gives the game (strings.locale)');
    if (typeof vars.count !== 'number') throw new TypeError(`a counted text needs its count as a number, got ${vars.count}`);
    return [forms[plural(vars.count)], { ...vars, count: num(vars.count), count_word: word(vars.count) }];
  };
  const fill = (template, vars = {}) => {
    const [text, values] = typeof template === 'object' ? counted(template, vars) : [template, vars];
    return String(text).replace(/\{(\w+)\}/g, (m, key) => (key in values ? String(values[key]) : m));
  };
  // A count with its noun («51 trekk», «1 450 poeng»): the counted phrases of strings.counts, for
  // texts with more than one count (a text has one form per category of one count only).
  const count = (name, n) => fill(strings.counts[name], { count: n });
  const cap = (text) => text.charAt(0).toUpperCase() + text.slice(1);
  const card = (code) => `${strings.suits[code[1]]} ${strings.ranks[code[0]]}`;
  const labels = strings.card_labels || {};
  const label = (code) => labels[code[0]] || (code[0] === 'T' ? '10' : code[0]);
  // Exactly what the card face shows, "10♠": an accessible name starts with it (WCAG 2.5.3).
  const shown = (code) => label(code) + SUIT_SYMBOLS[code[1]];
  // A move in notation, described with the templates of one group ("moves" or "done").
  const move = (notation, group = strings.moves, vars = {}) => {
    const [kind, a, b] = notation.split(' ');
    if (kind === 'pair') return fill(group.pair, { ...vars, a: card(a), b: card(b) });
    if (kind === 'king') return fill(group.king, { ...vars, card: card(a) });
    return fill(group[kind], vars);
  };
  // What a move did (the "done" group), with its count of turns left: the last turn back says
  // so in words («Det var siste vending») instead of "0 left".
  const done = (notation, vars = {}) => {
    const last = notation === 'turn' && Number(vars.turns) === 0 && strings.done.turn_last;
    return move(notation, last ? { ...strings.done, turn: strings.done.turn_last } : strings.done, vars);
  };
  return { strings, fill, count, cap, card, label, shown, move, done };
}

// ---------------------------------------------------------------- the site's card pictures
// Geometry and suit shapes: app/core/card-drawing.js, which generator/render/svg.py reads too.
const { card: CARD, pyramid: PYRAMID, rank: RANK, corner_pip: CORNER, centre_pip: CENTRE, badge: BADGE,
  back: BACK, place: PLACE, suits: SUIT_PATHS } = CARD_DRAWING;
const { width: CARD_W, height: CARD_H, radius: RADIUS } = CARD;
const { gap: GAP, row_step: ROW_STEP, pad: PAD } = PYRAMID;
const COL_STEP = CARD_W + GAP;
const VIEW_W = 2 * PAD + 7 * CARD_W + 6 * GAP; // 752
const VIEW_H = 2 * PAD + 6 * ROW_STEP + CARD_H; // 552
const STOCK_XY = [PAD, PAD];
const WASTE_XY = [VIEW_W - PAD - CARD_W, PAD];
const WASTE_GHOST_XY = [WASTE_XY[0] - COL_STEP, PAD];
// The discard pile: a small card beside the waste, clear of the pyramid's second row.
const DISCARD_SCALE = 0.72;
const DISCARD_XY = [WASTE_XY[0] - GAP - CARD_W * DISCARD_SCALE, PAD];
const ALL_CARDS = 52;
// A card's centre in board units; how far `to`'s lies from `from`'s, in percent of a card (motion.js measures nothing).
const centreOf = ([x, y], scale = 1) => [x + (CARD_W * scale) / 2, y + (CARD_H * scale) / 2];
const offset = (from, to, toScale = 1) => {
  const [[ax, ay], [bx, by]] = [centreOf(from), centreOf(to, toScale)];
  return [((bx - ax) / CARD_W) * 100, ((by - ay) / CARD_H) * 100];
};

// A circular arrow (100 x 100 box): on the empty stock place while the waste can still be
// turned back, and beside the number of turns left under the stock.
const TURN_ICON = 'M55 24A30 30 0 1 1 22 44M8 52L22 44L28 59';
const turnIcon = (extra = '') => `<path class="turn-icon"${extra} d="${TURN_ICON}"/>`;

const pip = (suit, x, y, size, cls) =>
  `<path class="pip ${cls}" transform="translate(${x} ${y}) scale(${size / 100})" d="${SUIT_PATHS[suit]}"/>`;

const badge = (mark) =>
  `<circle class="badge" cx="${CARD_W - BADGE.inset}" cy="${CARD_H - BADGE.inset}" r="${BADGE.r}"/>` +
  `<path class="badge-mark" transform="translate(${CARD_W - BADGE.inset} ${CARD_H - BADGE.inset})" d="${mark}"/>`;

// A card's label is a translator's text (game.json card_labels): escaped here, and set once more
// as the rank element's textContent when the board draws it (setSlot), so it is never markup.
const escapeXml = (text) => String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
  .replace(/"/g, '&quot;');

/** One face-up card, as svg.py's card_svg(code, 0, 0, free=, highlight=) draws it. */
export function cardSvg(code, label, { free = false, ghost = false } = {}) {
  const suit = code[1];
  const classes = ['card', 'HD'.includes(suit) ? 'red' : 'black'];
  if (ghost) classes.push('ghost');
  else if (free) classes.push('free');
  const long = label.length > 1;
  const rank = long
    ? `<text class="rank long" x="${RANK.long_x}" y="${RANK.y}">${escapeXml(label)}</text>`
    : `<text class="rank" x="${RANK.short_x}" y="${RANK.y}" text-anchor="middle">${escapeXml(label)}</text>`;
  return `<g class="${classes.join(' ')}" data-code="${code}" transform="translate(0 0)">` +
    `<rect class="face" width="${CARD_W}" height="${CARD_H}" rx="${RADIUS}"/>${rank}` +
    pip(suit, long ? CORNER.long_x : CORNER.short_x, CORNER.y, CORNER.size, 'corner') +
    pip(suit, CENTRE.x, CENTRE.y, CENTRE.size, 'centre') +
    (ghost ? badge(BADGE.cross) : free ? badge(BADGE.check) : '') + '</g>';
}

/** An empty place, as svg.py's place_svg(0, 0, kind=) draws it; `extra`: markup drawn over it. */
export function placeSvg(kind, extra = '') {
  const i = PLACE.inset;
  return `<g class="place ${kind}" transform="translate(0 0)"><rect class="outline" x="${i}" y="${i}" ` +
    `width="${CARD_W - 2 * i}" height="${CARD_H - 2 * i}" rx="${RADIUS}"/>${extra}</g>`;
}

/** The face-down stock, as svg.py's back_svg(0, 0, count) draws it. */
export function backSvg(count) {
  const i = BACK.inset;
  return '<g class="back" transform="translate(0 0)">' +
    `<rect class="back-face" width="${CARD_W}" height="${CARD_H}" rx="${RADIUS}"/>` +
    `<rect class="back-inner" x="${i}" y="${i}" width="${CARD_W - 2 * i}" height="${CARD_H - 2 * i}" rx="${BACK.inner_radius}"/>` +
    `<text class="count stock-count" x="${CARD_W / 2}" y="${CARD_H / 2 + BACK.count_dy}" text-anchor="middle">${count}</text></g>`;
}

const svgBox = (inner) =>
  `<svg viewBox="0 0 ${CARD_W} ${CARD_H}" aria-hidden="true" focusable="false">${inner}</svg>`;

// ---------------------------------------------------------------- layout
/** Top-left corner of pyramid card k (0–27) in board units, as svg.py's pyramid_xy(row, place). */
export function pyramidXY(k) {
  const { row, place } = rowAndPlace(k);
  return [PAD + ((ROWS - row) * COL_STEP) / 2 + (place - 1) * COL_STEP, PAD + (row - 1) * ROW_STEP];
}

const pct = (v, total) => `${((v / total) * 100).toFixed(4)}%`;

function placeAt(el, [x, y], z) {
  Object.assign(el.style, {
    left: pct(x, VIEW_W), top: pct(y, VIEW_H), width: pct(CARD_W, VIEW_W), height: pct(CARD_H, VIEW_H), zIndex: z,
  });
}

// ---------------------------------------------------------------- the keyboard model
// The board is read in rows from the top, as it lies. The first row is the stock, the
// pyramid's top card and the waste, side by side; then the pyramid's rows 2–7. Only places
// that hold something are stops; the stock and the waste always are (their buttons draw, turn
// back or take the waste top). docs/<lang>/game.json board.help tells the player the same:
//   Left/Right  the previous/next stop in reading order, past a row's end into the next row;
//   Up/Down     the nearest row above/below that has a stop, at the stop nearest across;
//   Home/End    the stock/the waste.
// After a removal, focus goes to the nearest stop in the same row, else in the nearest row
// above (the cards a removal frees lie above it), else below.

const PILE_ROW = 1; // the stock and the waste lie level with the pyramid's top card

// A place's corner in board units, and where it is across the board.
const xyOf = (key) => (key === 'stock' ? STOCK_XY : key === 'waste' ? WASTE_XY : pyramidXY(Number(key.slice(1))));
const acrossOf = (key) => centreOf(xyOf(key))[0];

const rowOf = (key) => (key === 'stock' || key === 'waste' ? PILE_ROW : rowAndPlace(Number(key.slice(1))).row);

// The stops of row r (1–7), left to right.
function stopsInRow(present, r) {
  const first = (r * (r - 1)) / 2; // index of the row's first pyramid card
  const keys = [];
  for (let c = 0; c < r; c++) keys.push(`p${first + c}`);
  const row = r === PILE_ROW ? ['stock', ...keys, 'waste'] : keys;
  return row.filter((key) => present.has(key));
}

function nearestAcross(keys, x) {
  let best = null;
  for (const key of keys) if (best === null || Math.abs(acrossOf(key) - x) < Math.abs(acrossOf(best) - x)) best = key;
  return best;
}

/** The stop a key leads to from `from` (a stop), or null when there is none that way. */
export function stepFrom(present, from, key) {
  if (key === 'Home') return 'stock';
  if (key === 'End') return 'waste';
  const rows = [];
  for (let r = 1; r <= ROWS; r++) rows.push(stopsInRow(present, r));
  if (key === 'ArrowLeft' || key === 'ArrowRight') {
    const order = rows.flat();
    return order[order.indexOf(from) + (key === 'ArrowRight' ? 1 : -1)] || null;
  }
  const down = key === 'ArrowDown' ? 1 : -1;
  for (let r = rowOf(from) + down; r >= 1 && r <= ROWS; r += down) {
    if (rows[r - 1].length) return nearestAcross(rows[r - 1], acrossOf(from));
  }
  return null;
}

/** Where focus goes when the place `gone` no longer holds anything (see the model above). */
export function neighbourOf(present, gone) {
  const r0 = rowOf(gone);
  const x = acrossOf(gone);
  const order = [r0];
  for (let r = r0 - 1; r >= 1; r--) order.push(r);
  for (let r = r0 + 1; r <= ROWS; r++) order.push(r);
  for (const r of order) {
    const stops = stopsInRow(present, r);
    if (stops.length) return nearestAcross(stops, x);
  }
  return 'stock';
}

const MOVE_KEYS = new Set(['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End']);
const REFUSED_MS = 1200; // how long a refused card keeps its red frame (the shake takes .4 s)

// ---------------------------------------------------------------- the board
/**
 * Builds the board inside `host`. interactive: places are buttons that call
 * onActivate(key) on click, Enter or Space (keys: 'p0'…'p27', 'stock', 'waste') and
 * onDrop(key, onto) when a card is dragged onto another (onto its key) or off the board (null),
 * and onMoved('draw' | 'remove') when a drawn position shows a card drawn or cards removed;
 * otherwise a read-only picture (role img) for the replay.
 * Returns {el, render(position, view), focus(key), refuse(keys), celebrate(), current}.
 */
export function createBoard(host, words, { interactive = true, onActivate = () => {}, onDrop = () => {}, onMoved = () => {} } = {}) {
  const s = words.strings;
  const el = element('div', 'pyr pyr-board');
  if (interactive) {
    el.setAttribute('role', 'group');
    el.setAttribute('aria-label', s.board.label);
  } else {
    el.setAttribute('role', 'img');
  }
  const tag = interactive ? 'button' : 'div';
  const slots = new Map();
  const make = (key, xy, z) => {
    const slot = element(tag, 'pyr-slot');
    slot.dataset.key = key;
    if (interactive) { slot.type = 'button'; slot.tabIndex = -1; }
    placeAt(slot, xy, z);
    el.append(slot);
    slots.set(key, { el: slot, markup: '' });
    return slot;
  };
  // In the order the arrow keys go (the top row is the stock, the top card and the waste), so
  // a screen reader's own reading order is the same as the keyboard's.
  const pyramidSlot = (k) => {
    const { row, place } = rowAndPlace(k);
    const slot = make(`p${k}`, pyramidXY(k), row + 1);
    slot.dataset.row = row;
    slot.dataset.col = place;
  };
  make('stock', STOCK_XY, 1).dataset.pile = 'stock';
  pyramidSlot(0);
  make('waste', WASTE_XY, 1).dataset.pile = 'waste';
  for (let k = 1; k < PYRAMID_CARDS; k++) pyramidSlot(k);
  if (!interactive) make('ghost', WASTE_GHOST_XY, 1).dataset.pile = 'waste';

  const label = (cls, y, side) => {
    const div = element('div', `pyr-label ${cls}`);
    div.setAttribute('aria-hidden', 'true');
    div.style.top = pct(y, VIEW_H);
    div.style[side] = pct(PAD, VIEW_W);
    el.append(div);
    return div;
  };
  const stockName = label('pile-name', PAD + CARD_H + 6, 'left');
  const stockInfo = label('pile-info', PAD + CARD_H + 38, 'left');
  stockInfo.innerHTML = `<svg class="pyr-mini" viewBox="0 0 100 100" aria-hidden="true" focusable="false">${turnIcon()}</svg><span></span>`;
  const turnsLeft = stockInfo.lastChild;
  const wasteName = label('pile-name', PAD + CARD_H + 6, 'right');
  const wasteInfo = label('pile-info', PAD + CARD_H + 38, 'right');
  stockName.textContent = s.board.stock;
  wasteName.textContent = s.board.waste;

  // The discard pile (the playing board only): where removed cards go, with their count.
  const discard = interactive ? element('div', 'pyr-discard') : null;
  if (discard) {
    discard.setAttribute('aria-hidden', 'true'); // the waste's and the message's words say the same
    Object.assign(discard.style, { left: pct(DISCARD_XY[0], VIEW_W), top: pct(DISCARD_XY[1], VIEW_H),
      width: pct(CARD_W * DISCARD_SCALE, VIEW_W), height: pct(CARD_H * DISCARD_SCALE, VIEW_H) });
    el.append(discard);
    const name = label('pile-info discard-name', DISCARD_XY[1] + CARD_H * DISCARD_SCALE + 4, 'right');
    name.style.right = pct(VIEW_W - DISCARD_XY[0] - CARD_W * DISCARD_SCALE, VIEW_W); // under the pile, clear of the waste
    name.textContent = s.board.discard;
  }

  // Frames drawn above every card, so that they are seen whole even round a covered card:
  // the focus ring, the violet frame of a hinted place, and the red frame of a refused card.
  const frame = (cls) => {
    const div = element('div', cls);
    div.setAttribute('aria-hidden', 'true');
    div.hidden = true;
    el.append(div);
    return div;
  };
  const ring = interactive ? frame('pyr-overlay pyr-focus-ring') : null;
  const frameOver = (div, slot) => {
    for (const side of ['left', 'top', 'width', 'height']) div.style[side] = slot.style[side];
    div.classList.toggle('is-lifted', slot.classList.contains('is-selected'));
    div.hidden = false;
  };
  host.append(el);

  const hintFrames = new Map(); // key → its frame, while the place is hinted

  // One frame per hinted place that holds something, over it wherever it lies.
  function showHints(hinted) {
    for (const [key, div] of hintFrames) {
      if (!hinted.has(key)) { div.remove(); hintFrames.delete(key); }
    }
    for (const key of hinted) {
      const slot = slots.get(key);
      if (!slot || slot.el.classList.contains('is-removed')) continue;
      if (!hintFrames.has(key)) hintFrames.set(key, frame('pyr-overlay pyr-hint-frame'));
      frameOver(hintFrames.get(key), slot.el);
    }
  }

  let current = 'p27'; // the roving tab stop: the one place Tab lands on
  let steered = false; // whether the player has moved the tab stop; until then it is the first free card
  let present = new Set();
  let lastCards = null; // {key: code, free} of the pyramid as last drawn: what a move freed or took
  const spoken = interactive ? element('div', 'pyr-spoken') : null; // the cards a move freed, said
  if (spoken) { spoken.setAttribute('aria-live', 'polite'); el.append(spoken); }
  let lastPiles = null; // {stock, waste}: the piles' sizes as last drawn, to tell a draw from a removal
  const refusing = new Map(); // key → {frame, timer} while a refusal is shown

  function setSlot(key, markup, classes, aria, rank) {
    const slot = slots.get(key);
    slot.drawn = null;
    if (slot.markup !== markup) {
      slot.el.innerHTML = markup; // the board's own drawing; a card's label goes in as text below
      slot.markup = markup;
      const text = slot.el.querySelector('text.rank');
      if (text && rank !== undefined) text.textContent = rank;
    }
    if (refusing.has(key)) classes = [...classes, 'is-refused'];
    const className = ['pyr-slot', ...classes].join(' ');
    if (slot.el.className !== className) slot.el.className = className;
    if (interactive) {
      // An emptied place is no button for a screen reader (nor a tab stop): 28 "empty" buttons
      // would be noise. It stays in the page only so that focus can leave it gently.
      if (aria.gone) {
        setAttr(slot.el, 'aria-hidden', 'true');
        slot.el.removeAttribute('aria-label');
        slot.el.removeAttribute('aria-pressed');
      } else {
        slot.el.removeAttribute('aria-hidden');
        setAttr(slot.el, 'aria-label', aria.label);
        setAttr(slot.el, 'aria-pressed', String(!!aria.pressed));
      }
    }
    if (aria.code) setAttr(slot.el, 'data-code', aria.code);
    else delete slot.el.dataset.code;
  }

  /**
   * Draws a position. view: {selected: key|null, hinted: Set of keys,
   * ghosts: Set of codes removed by the last move (drawn faded at their places; read-only board)}.
   */
  function render(position, view = {}) {
    const selected = view.selected || null;
    const hinted = view.hinted || new Set();
    const ghosts = view.ghosts || new Set();
    const free = freeMask(compile(position).pyr);
    present = new Set(['stock', 'waste', ...position.pyramid.flatMap((code, k) => (code ? [`p${k}`] : []))]);
    if (interactive) focusOffGone();
    const moved = interactive ? pileMoves(position) : {};
    if (moved.removedTop) leave(moved.removedTop);
    for (let k = 0; k < PYRAMID_CARDS; k++) {
      const key = `p${k}`;
      const code = position.pyramid[k];
      const { row, place } = rowAndPlace(k);
      const ghost = !code && view.before && ghosts.has(view.before.pyramid[k]) ? view.before.pyramid[k] : null;
      if (code) {
        const isFree = ((free >> k) & 1) === 1;
        // A card shown as at the last drawing is left alone: a move changes a few of 28.
        const drawn = `${code} ${isFree} ${selected === key} ${hinted.has(key)}`;
        if (slots.get(key).drawn === drawn) continue;
        const parts = [words.fill(s.aria.card, { shown: words.shown(code), card: words.card(code), row }),
          isFree ? s.aria.free : s.aria.covered];
        if (hinted.has(key)) parts.push(s.aria.hinted);
        setSlot(key, svgBox(cardSvg(code, words.label(code), { free: isFree })),
          ['has-card', isFree ? 'is-free' : 'is-covered', selected === key ? 'is-selected' : '', hinted.has(key) ? 'is-hinted' : ''].filter(Boolean),
          { label: parts.join(', '), pressed: selected === key, code }, words.label(code));
        slots.get(key).drawn = drawn;
      } else if (ghost) {
        setSlot(key, svgBox(cardSvg(ghost, words.label(ghost), { ghost: true })), ['is-ghost'], { label: '', code: ghost },
          words.label(ghost));
      } else {
        if (interactive && lastCards && lastCards[key]) leave(key);
        setSlot(key, svgBox(placeSvg('removed')), ['is-removed'], { gone: true });
      }
    }
    renderPiles(position, { selected, hinted, ghosts, before: view.before, unlimitedTurns: view.unlimitedTurns, stockTop: view.stockTop });
    showHints(hinted);
    if (!interactive) {
      el.setAttribute('aria-label', describe(position, view.before, ghosts));
      return;
    }
    const removed = sayFreed(position, free) || moved.removedTop;
    if (moved.drawn) slideIn(slots.get('waste').el, offset(WASTE_XY, STOCK_XY));
    showDiscard(position);
    if (moved.drawn) onMoved('draw');
    else if (removed) onMoved('remove');
    if (!steered) current = firstFree(free);
    keepFocus();
  }

  // What the piles did since the last drawing: a card drawn (the stock one less, the waste one
  // more), or the top card of the waste (or, under stock-top, of the stock) removed.
  function pileMoves(position) {
    const before = lastPiles;
    const stock = position.stock.length, waste = position.waste.length;
    lastPiles = { stock, waste };
    if (!before) return {};
    if (stock === before.stock - 1 && waste === before.waste + 1) return { drawn: true };
    if (waste === before.waste - 1 && stock === before.stock) return { removedTop: 'waste' };
    if (stock === before.stock - 1 && waste === before.waste) return { removedTop: 'stock' };
    return {};
  }

  // The count of cards removed so far: those in none of the pyramid, the stock and the waste.
  function showDiscard(position) {
    const count = ALL_CARDS - position.pyramid.filter(Boolean).length - position.stock.length - position.waste.length;
    setText(discard, String(count));
    discard.classList.toggle('is-empty', count === 0);
  }

  // The first free pyramid card in the arrow keys' order (where Tab enters the board), else the waste.
  function firstFree(free) {
    for (const key of slots.keys()) {
      if (key.startsWith('p') && present.has(key) && ((free >> Number(key.slice(1))) & 1)) return key;
    }
    return 'waste';
  }

  // Says which cards a move freed: only when the pyramid lost cards and gained none (a move
  // played, not an Undo or another deal), the pyramid cards free now that were covered before.
  function sayFreed(position, free) {
    const now = {};
    for (let k = 0; k < PYRAMID_CARDS; k++) {
      if (position.pyramid[k]) now[`p${k}`] = { code: position.pyramid[k], free: ((free >> k) & 1) === 1 };
    }
    const before = lastCards;
    lastCards = now;
    if (!before) return;
    const keys = Object.keys(now);
    const onlyTaken = keys.length < Object.keys(before).length && keys.every((k) => before[k] && before[k].code === now[k].code);
    if (!onlyTaken) return false;
    // Said, not a control: the card's name once, without the face the buttons' names start with.
    const freed = keys.filter((k) => now[k].free && !before[k].free).map((k) => words.card(now[k].code));
    spoken.textContent = freed.length ? words.fill(s.aria.freed, { cards: freed.join(', ') }) : '';
    return true;
  }

  // A card just taken leaves: a copy of it flies from where it lay onto the discard pile (motion.js).
  function leave(key) {
    const slot = slots.get(key);
    if (!motionAllowed(el) || !slot.markup) return;
    const div = element('div', 'pyr-leaving');
    div.setAttribute('aria-hidden', 'true');
    for (const side of ['left', 'top', 'width', 'height']) div.style[side] = slot.el.style[side];
    div.append(slot.el.firstChild); // the card itself leaves (its place is drawn anew just after): nothing to parse
    el.append(div);
    flyAway(div, offset(xyOf(key), DISCARD_XY, DISCARD_SCALE), DISCARD_SCALE, { delay: el.querySelectorAll('.pyr-leaving').length > 1 ? 60 : 0 });
  }

  const focusedKey = () => (el.contains(document.activeElement) ? document.activeElement.dataset.key : null);

  // Focus never stays on an emptied place: it goes to its neighbour (in view, no scroll) before the
  // drawing writes anything, as focus() first brings the style up to date: clean, that is free.
  function focusOffGone() {
    const focused = focusedKey();
    if (focused && !present.has(focused)) focus(neighbourOf(present, focused), { preventScroll: true });
  }

  // Nor does the tab stop.
  function keepFocus() {
    if (!present.has(current)) current = neighbourOf(present, current);
    setTabStop(focusedKey() || current);
    showRing();
  }

  function renderPiles(position, { selected, hinted, ghosts, before, unlimitedTurns, stockTop }) {
    const view = { unlimitedTurns, stockTop };
    const named = (key, label) => (hinted.has(key) ? `${label}, ${s.aria.hinted}` : label); // a hinted pile says so
    const stockCount = position.stock.length;
    const turns = position.turns_left;
    if (stockCount > 0 && view.stockTop) {
      // VARIANTS: where the stock's top card is in play (stock-top), it lies face up.
      const top = position.stock[0];
      setSlot('stock', svgBox(cardSvg(top, words.label(top), { free: true })),
        ['has-card', 'is-free', selected === 'stock' ? 'is-selected' : '', hinted.has('stock') ? 'is-hinted' : ''].filter(Boolean),
        // Its name says what a tap does here: choose the card, a second tap draws it (review 3, E3).
        { label: named('stock', `${words.card(top)}, ${words.fill(s.aria.stock_top, { count: stockCount })}`), pressed: selected === 'stock', code: top });
    } else if (stockCount > 0) {
      setSlot('stock', svgBox(backSvg(stockCount)), ['has-card', hinted.has('stock') ? 'is-hinted' : ''].filter(Boolean),
        { label: named('stock', words.fill(s.aria.stock, { count: stockCount })) });
    } else {
      const canTurn = turns > 0 && position.waste.length > 0;
      const icon = canTurn ? turnIcon(' transform="translate(0 20)"') : '';
      setSlot('stock', svgBox(placeSvg('empty', icon)), ['is-empty', hinted.has('stock') ? 'is-hinted' : ''].filter(Boolean),
        // VARIANTS: with unlimited turns none is used up, so the name counts none (stock_turn_unlimited).
        { label: named('stock', words.fill(turns > 0 ? (view.unlimitedTurns && s.aria.stock_turn_unlimited) || s.aria.stock_turn
          : s.aria.stock_empty, { turns })) });
    }
    // Beside the turn-back arrow: «2 igjen» (short: on a phone it shares the width with the pyramid;
    // the stock's spoken name says «2 vendinger igjen» in full), none left in words. VARIANTS: with
    // unlimited turns (app/ui/variants.js) the count never goes down, and the label says so.
    const turnsText = (view.unlimitedTurns && s.variants?.turns_unlimited)
      || (turns === 0 && s.board.turns_left_none) || s.board.turns_left;
    setText(turnsLeft, words.fill(turnsText, { count: turns }));

    const top = position.waste[position.waste.length - 1];
    if (top) {
      setSlot('waste', svgBox(cardSvg(top, words.label(top))),
        ['has-card', selected === 'waste' ? 'is-selected' : '', hinted.has('waste') ? 'is-hinted' : ''].filter(Boolean),
        { label: named('waste', wasteTopName(top, position.waste.length)), pressed: selected === 'waste', code: top }, words.label(top));
    } else {
      setSlot('waste', svgBox(placeSvg('empty')), ['is-empty'], { label: s.aria.waste_empty });
    }
    setText(wasteInfo, words.fill(s.board.cards, { count: position.waste.length }));

    if (slots.has('ghost')) {
      // The waste top a move just removed, drawn beside the waste like svg.py does.
      const gone = before && before.waste[before.waste.length - 1];
      const show = gone && ghosts.has(gone) ? gone : null;
      setSlot('ghost', show ? svgBox(cardSvg(show, words.label(show), { ghost: true })) : '', show ? ['is-ghost'] : ['is-hidden'],
        { label: '', code: show }, show ? words.label(show) : undefined);
    }
  }

  const wasteTopName = (top, count) => words.fill(s.aria.waste, { shown: words.shown(top), card: words.card(top), count });

  // A text picture of the position, for the read-only board: row by row, like the pictures' <desc>.
  function describe(position, before, ghosts) {
    const free = freeMask(compile(position).pyr);
    const rows = [];
    for (let r = 1, k = 0; r <= ROWS; r++) {
      const names = [];
      for (let c = 1; c <= r; c++, k++) {
        const code = position.pyramid[k];
        const gone = before && ghosts.has(before.pyramid[k]) ? before.pyramid[k] : null;
        if (code) names.push(((free >> k) & 1) ? `${words.card(code)} (${s.aria.free})` : words.card(code));
        else if (gone) names.push(`${words.card(gone)} (${s.aria.just_removed})`);
      }
      rows.push(names.length ? words.fill(s.aria.row, { row: r, cards: names.join(', ') }) : words.fill(s.aria.row_empty, { row: r }));
    }
    const top = position.waste[position.waste.length - 1];
    rows.push(`${words.cap(s.board.stock)}: ${words.fill(s.board.cards, { count: position.stock.length })}.`);
    rows.push(top ? `${wasteTopName(top, position.waste.length)}.` : `${s.aria.waste_empty}.`);
    return rows.join(' ');
  }

  function setTabStop(key) {
    for (const [k, slot] of slots) {
      const index = k === key ? 0 : -1;
      if (slot.el.tabIndex !== index) slot.el.tabIndex = index; // each write costs a slow phone time
    }
    current = key;
  }

  function focus(key, options) {
    if (!slots.has(key)) return;
    slots.get(key).el.focus(options); // first: tabindex written on the focused place lays the page out
    setTabStop(key);
  }

  // The focus ring is drawn over the board only while a place has keyboard focus.
  function showRing() {
    if (!ring) return;
    const active = document.activeElement;
    const slot = active && el.contains(active) ? active.closest('.pyr-slot') : null;
    if (slot && slot.matches(':focus-visible')) frameOver(ring, slot);
    else ring.hidden = true;
  }

  /** Shows that a move with these places was refused: a red frame, and a short shake unless
   * the reader asked for reduced motion (game.css). keys: 'p0'…'p27', 'stock', 'waste'. */
  function refuse(keys) {
    for (const key of keys) {
      const slot = slots.get(key);
      if (!slot) continue;
      const old = refusing.get(key);
      if (old) { clearTimeout(old.timer); old.frame.remove(); }
      slot.el.classList.remove('is-refused');
      void slot.el.offsetWidth; // restart the shake when the same card is refused again
      slot.el.classList.add('is-refused');
      const div = frame('pyr-overlay pyr-refused');
      frameOver(div, slot.el);
      const timer = setTimeout(() => {
        div.remove();
        refusing.delete(key);
        slot.el.classList.remove('is-refused');
      }, REFUSED_MS);
      refusing.set(key, { frame: div, timer });
    }
  }

  // ---------------------------------------------------------------- drag and drop
  // Alongside tapping: a free card (or the waste top) dragged onto another card makes that pair
  // with it, a king dragged off the board is removed; both go through onDrop, which plays them
  // as two taps would (the rules decide). A short move is still a tap.
  const DRAG_PX = 8;
  let drag = null; // {key, slot, x, y, moved, id}
  let swallowClick = false;
  const draggable = (slot) => slot && slot.classList.contains('has-card') &&
    (slot.classList.contains('is-free') || slot.dataset.key === 'waste');
  function dropTarget(x, y) {
    for (const node of document.elementsFromPoint(x, y)) {
      const slot = node.closest && node.closest('.pyr-slot');
      if (slot && el.contains(slot) && slot !== drag.slot && slot.classList.contains('has-card')) return slot;
    }
    return null;
  }
  function endDrag(event, dropped) {
    const { slot, key, moved } = drag;
    const target = moved && dropped ? dropTarget(event.clientX, event.clientY) : null;
    drag = null;
    slot.classList.remove('is-dragged');
    slot.querySelector('svg')?.style.removeProperty('translate');
    for (const t of el.querySelectorAll('.is-drop-target')) t.classList.remove('is-drop-target');
    if (!moved || !dropped) return;
    swallowClick = true; // the click that follows the pointer's release is not a tap
    setTimeout(() => { swallowClick = false; }, 0);
    const r = el.getBoundingClientRect();
    const outside = event.clientX < r.left || event.clientX > r.right || event.clientY < r.top || event.clientY > r.bottom;
    const onto = target ? target.dataset.key : null;
    if (target || outside) afterInput(() => onDrop(key, onto));
  }

  if (interactive) {
    el.addEventListener('pointerdown', (event) => {
      const slot = event.target.closest('.pyr-slot');
      if (event.button !== 0 || !draggable(slot)) return;
      drag = { key: slot.dataset.key, slot, x: event.clientX, y: event.clientY, moved: false, id: event.pointerId };
    });
    el.addEventListener('pointermove', (event) => {
      if (!drag || event.pointerId !== drag.id) return;
      const dx = event.clientX - drag.x, dy = event.clientY - drag.y;
      if (!drag.moved && Math.hypot(dx, dy) < DRAG_PX) return;
      if (!drag.moved) {
        drag.moved = true;
        drag.slot.classList.add('is-dragged');
        el.setPointerCapture(event.pointerId);
      }
      drag.slot.querySelector('svg')?.style.setProperty('translate', `${dx}px ${dy}px`);
      for (const t of el.querySelectorAll('.is-drop-target')) t.classList.remove('is-drop-target');
      dropTarget(event.clientX, event.clientY)?.classList.add('is-drop-target');
    });
    el.addEventListener('pointerup', (event) => { if (drag && event.pointerId === drag.id) endDrag(event, true); });
    el.addEventListener('pointercancel', (event) => { if (drag && event.pointerId === drag.id) endDrag(event, false); });

    el.addEventListener('click', (event) => {
      const slot = event.target.closest('.pyr-slot');
      if (swallowClick) { swallowClick = false; return; }
      if (!slot) return;
      steered = true;
      const { key } = slot.dataset;
      afterInput(() => {
        if (!present.has(key)) return; // an empty place, or emptied meanwhile
        setTabStop(key);
        onActivate(key);
      });
    });
    el.addEventListener('keydown', (event) => {
      const slot = event.target.closest('.pyr-slot');
      if (slot) steered = true;
      if (!MOVE_KEYS.has(event.key) || !slot || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
      event.preventDefault();
      const from = present.has(slot.dataset.key) ? slot.dataset.key : neighbourOf(present, slot.dataset.key);
      const next = stepFrom(present, from, event.key);
      if (next) focus(next);
    });
    el.addEventListener('focusin', (event) => {
      const slot = event.target.closest('.pyr-slot');
      if (slot) setTabStop(slot.dataset.key);
      showRing();
    });
    el.addEventListener('focusout', showRing);
  }

  /** Focus on the board's tab stop (the first free card, until the player moved it). */
  const enter = () => focus(current);

  // A fresh win: cards rise from the discard pile.
  const win = () => celebrate(el, [((DISCARD_XY[0] + (CARD_W * DISCARD_SCALE) / 4) / VIEW_W) * 100, (DISCARD_XY[1] / VIEW_H) * 100],
    VIEW_H / VIEW_W);

  return { el, render, focus, enter, refuse, celebrate: win, get current() { return current; } };
}
