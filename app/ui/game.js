// The game on the page: `mount` builds the board and the buttons in a `.pyramide-game` container
// (see generator/render/game_embed.py) and plays what the player chooses through the engine; loaded by
// the page's <script type="module">, the module mounts every such container on the page.
// The engine decides every rule; this module only turns choices into moves and results into
// words.

import {
  newGame, playMove, undoMove, currentPosition, replay, parseDealNumber, RuleError,
  cardValue, compile, freeMask, rowAndPlace, ROWS, KING_VALUE, TARGET_SUM, TURNS_ALLOWED, MAX_DEAL, MIN_DEAL,
  scoreBreakdown,
} from '../core/engine.js';
import { createBoard, makeWords } from './board.js';
import { HintSearch, KnownDeals, quickSuggestion } from '../core/hint.js';
import { coveredMessage, lostMessage, messageText, stuckMessage } from '../core/messages.js';
import {
  migrate, loadGame, saveGame, forgetGame, lastPlayedDeal, lastPlayed, tabDeal, tabVariant, setTabDeal, gameOfKey, MAX_UNDO,
  loadSetting, saveSetting,
} from '../core/storage.js';
import { readJson, element, button } from './dom.js';
// game: the end of a game, statistics, the daily deal, redo, the address, options (issue 27)
import { EndPanel, clockText } from './end-panel.js';
import { StatsView } from './stats-view.js';
import { newGameId, recordResult, resultOf, statistics, dailyStreakOn } from '../core/stats.js';
import { dailyDeal, todayIso } from '../core/daily.js';
import { numberFormatter, dateFormatter } from '../core/locale.js';
import { loadOptions, optionsView } from './options.js';
import { showDeal, isOwnEntry } from './history-nav.js';
import { RewindSearch } from '../core/rewind.js';
// VARIANTS (issue 28): the rules a game is played by, its links, the rules choice.
import { STANDARD, isVariant, rulesOf, variantOf, readLink, linkHash, choiceEntries, RulesChoice } from './variants.js';
// SOLUTION (issue 28): the exact solver's shortest game from the position, step by step.
import { SolutionView } from './solution.js';

const WORKER_URL = new URL('../core/worker.js', import.meta.url);

// Rows (1-based) that a move emptied: worth telling the player, they earn points.
function rowsEmptied(before, after) {
  const emptied = [];
  for (let r = 1, k = 0; r <= ROWS; k += r, r++) {
    const row = (pos) => pos.pyramid.slice(k, k + r);
    if (row(before).some(Boolean) && !row(after).some(Boolean)) emptied.push(r);
  }
  return emptied;
}

// The page's state is `this.state`, changed only by update(), which draws it once (render())
// and then saves the deal's game when asked:
//   game       the engine's game (app/core/engine.js): the deal and its moves;
//   undoSteps  the steps Undo takes back once the moves are all taken back, newest last: {moves}
//              (a Restart set them aside) or {deal} (New game came from that deal); saved with the
//              deal's game (app/core/storage.js), so a reload keeps them;
//   selected   the key of the chosen card, 'p0'…'p27' or 'waste', or null;
//   hint       {state, keys}: the hint's progress (data-hint: 'searching', 'checked', 'lost',
//              'unchecked') and the places it frames; null when there is no hint;
//   message    what the page said last ({text, kind, cards}, made by message()).
//   redo       the moves Undo took back, newest last: Redo plays them again; a new move empties it;
//   meta       what the statistics need of this game (app/core/storage.js isMeta), or null before it
//              has one: {id, hints, ms, daily};
//   end        the end panel's content ({kind: 'won' | 'lost', ...}, made by endOf()), or null.
class Game {
  constructor(container, words, pool, known, variants = [], largeDefaultText = false) {
    this.container = container;
    this.largeDefaultText = largeDefaultText; // the reader's default text is large (defaultTextIsLarge)
    this.words = words;
    this.s = words.strings;
    // Counts and bounds in messages as the page writes numbers (nb «4 294 967 295», da «4.294.967.295»),
    // dates as it writes dates; deal and row numbers stay plain: they are names, and a deal's is typed in links.
    this.num = numberFormatter(this.s.locale);
    this.date = dateFormatter(this.s.locale);
    this.pool = pool;
    this.known = known; // what the survey decided about deals from the start (standard rules)
    this.variantEntries = variants; // VARIANTS: the rules choice's entries (app/ui/variants.js)
    this.openings = new Map(); // what Hint's search found out about other deals from the start, by variant and deal
    this.state = { game: null, undoSteps: [], selected: null, hint: null, message: null, redo: [], meta: null, end: null };
    this.drawn = { hint: null, message: null, end: null }; // what render() wrote last of these (see there)
    this.hints = new HintSearch(WORKER_URL);
    this.rewind = new RewindSearch(WORKER_URL);
    this.options = loadOptions();
    this.clock = { id: null, ms: 0, last: Date.now() }; // the time kept of this game while it is played (options.timer)
    this.build();
    this.start();
    this.started = true;
  }

  // ------------------------------------------------------------ page
  // The elements, made once; render() fills them in.
  build() {
    const { s, container } = this;
    container.querySelectorAll('noscript').forEach((n) => n.remove());
    const status = element('p', 'pyr-status');
    this.score = element('span', 'pyr-score');
    // The deal number copies the deal's link: a button, since it acts and goes nowhere.
    this.dealButton = button('pyr-deal', undefined, () => this.copyLink());
    this.dealButton.title = s.board.deal_link_title;
    this.clockLine = element('span', 'pyr-clock');
    this.hintCount = element('span', 'pyr-hint-count');
    const counts = element('span', 'pyr-counts'); // the score with the hints and the time, on one side
    counts.append(this.score, this.hintCount, this.clockLine);
    status.append(counts, this.dealButton);
    this.dailyLine = element('p', 'pyr-daily-line');

    // The keys, folded under a short title: long on a phone, yet the board's description
    // (read from the paragraph, open or not) gives them whole to a screen reader.
    const help = element('details', 'pyr-help');
    const helpText = element('p', '', s.board.help);
    helpText.id = `pyr-help-${Math.random().toString(36).slice(2, 8)}`;
    help.append(element('summary', '', s.board.help_title), helpText);
    this.board = createBoard(container, this.words, {
      onActivate: (key) => this.activate(key), onDrop: (key, onto) => this.drop(key, onto),
    });
    this.board.el.setAttribute('aria-describedby', helpText.id);

    this.messageLine = element('p', 'pyr-message');
    this.messageLine.setAttribute('role', 'status');
    this.messageLine.setAttribute('aria-live', 'polite');

    const buttons = element('div', 'pyr-buttons');
    const named = (name, action) => button(`pyr-button pyr-${name}`, s.buttons[name.replace('-', '_')], action);
    this.undoButton = named('undo', () => this.undo());
    this.newGameButton = named('new-game', () => this.newRandomGame());
    this.redoButton = button('pyr-button pyr-redo', s.redo.redo, () => this.redo());
    this.redoAllButton = button('pyr-button pyr-redo-all', s.redo.redo_all, () => this.redoAll());
    // The four buttons of every game first (on a small phone they are the ones on the first
    // screen), then Redo and Redo all, and the daily deal.
    buttons.append(this.undoButton, named('hint', () => this.hint()), named('restart', () => this.restart()),
      this.newGameButton, this.redoButton, this.redoAllButton);
    this.today = todayIso();
    this.dailyButton = button('pyr-button pyr-daily', this.words.fill(s.daily.open, { date: this.date(this.today) }),
      () => this.openDaily());
    if (this.pool.length) buttons.append(this.dailyButton);
    helpText.textContent += ` ${s.redo.keys}`;

    this.endPanel = new EndPanel(this.words, (v) => this.num(v), {
      newGame: () => this.newRandomGame(), undo: () => this.undo(), restart: () => this.restart(),
      back: () => this.backToWinnable(), showStats: () => this.stats.open(), share: (text) => this.share(text),
      close: () => this.closeEndPanel(),
    });
    this.stats = new StatsView(this.words, (v) => this.num(v), (text) => this.update({ message: this.message(text) }));
    const options = optionsView(this.words, this.options, (next) => { this.options = next; this.render(); });

    // Large print: bigger ranks on the cards. The player's choice is kept; until they make one,
    // it is on when the reader's own text size is large (the browser's default font size).
    this.largePrint = button('pyr-switch', s.buttons.large_print, () => this.setLargePrint(!this.isLargePrint()));
    this.setLargePrint(this.isLargePrint(), { keep: false });
    const tools = element('div', 'pyr-tools');
    tools.append(help, this.largePrint);

    // Under the board the buttons, then the message: a long message grows below them and
    // never moves the board or the buttons (game.css holds its room). The end panel, the
    // statistics and the options follow.
    // VARIANTS: the rules choice (only when the page lists the variants), first under the
    // message with the keys: above the board it pushed the buttons off a small phone's first
    // screen. Its summary line names the rules being played.
    this.choice = this.variantEntries.length > 1 ? new RulesChoice(this.words, this.variantEntries, (id) => this.chooseVariant(id)) : null;
    // SOLUTION: its button among the others, its panel under them.
    this.solution = new SolutionView(this, WORKER_URL);
    buttons.append(this.solution.button);

    container.prepend(status, this.dailyLine);
    if (this.choice) tools.prepend(this.choice.el);
    container.append(buttons, this.messageLine, this.solution.el, this.endPanel.el, tools, this.stats.el, options);
    setInterval(() => this.tick(), 1000);
    document.addEventListener('visibilitychange', () => this.tick());
    container.addEventListener('keydown', (event) => this.key(event));
    window.addEventListener('popstate', (event) => { this.viaHistory = isOwnEntry(event); });
    // The page's "go to the game" link and the G key, from anywhere on the page: the game in
    // view and the keyboard on its board's first free card.
    document.addEventListener('keydown', (event) => {
      if (event.key.toLowerCase() !== 'g' || event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
      if (event.target.closest && event.target.closest('input, textarea, select, [contenteditable]')) return;
      event.preventDefault();
      this.enter();
    });
    if (container.id) {
      for (const link of document.querySelectorAll(`a[href="#${CSS.escape(container.id)}"]`)) {
        link.addEventListener('click', (event) => { event.preventDefault(); this.enter(); });
      }
    }
    window.addEventListener('hashchange', () => {
      const link = readLink(window.location.hash);
      if (link !== null) this.openLink(link);
    });
    window.addEventListener('storage', (event) => this.changedElsewhere(event));
  }

  key(event) {
    const k = event.key.toLowerCase();
    const ctrl = event.ctrlKey || event.metaKey;
    if (ctrl && !event.altKey && ((k === 'z' && event.shiftKey) || k === 'y')) return this.handled(event, () => this.redo());
    if (ctrl && k === 'z' && !event.altKey) return this.handled(event, () => this.undo());
    if (!ctrl && !event.altKey && k === 'y') return this.handled(event, () => (event.shiftKey ? this.redoAll() : this.redo()));
    if (ctrl || event.altKey) return;
    if (k === 'd') return this.handled(event, () => this.activate('stock'));
    if (k === 'u') return this.handled(event, () => this.undo());
    if (k === 'h') return this.handled(event, () => this.hint());
    if (k === 'escape' && this.solution.open) return this.handled(event, () => this.solution.close());
    if (k === 'r') return this.handled(event, () => this.restart());
    if (k === 'n') return this.handled(event, () => this.newRandomGame());
    if (k === 'escape' && this.endPanel.open) return this.handled(event, () => this.closeEndPanel());
    if (k === 'escape' && this.state.selected) return this.handled(event, () => this.deselect());
  }

  handled(event, action) {
    event.preventDefault();
    event.stopPropagation(); // the theme's own keys (N and P go to the next and previous page) stay out of the game
    action();
  }

  // Brings the game into view and the keyboard onto the board.
  enter() {
    this.container.scrollIntoView({ block: 'start', behavior: 'instant' });
    this.board.enter();
  }

  isLargePrint() {
    const kept = loadSetting('largePrint');
    return typeof kept === 'boolean' ? kept : this.largeDefaultText;
  }

  setLargePrint(on, { keep = true } = {}) {
    if (keep) saveSetting('largePrint', on);
    this.largePrint.setAttribute('aria-pressed', String(on));
    if (on) this.container.dataset.largePrint = '';
    else delete this.container.dataset.largePrint;
  }

  // A message chosen by app/core/messages.js ({key, values}) in words.
  say(choice) {
    return messageText(this.words, choice, (value) => this.num(value));
  }

  // What is known of the deal from its start: 'won', 'lost', or 'undecided' / null (unknown).
  dealResult(deal) {
    // The page's survey verdicts are the standard rules'; under a variant only Hint's own search knows.
    const surveyed = this.variant === STANDARD ? this.known.result(deal) : null;
    if (surveyed === 'won' || surveyed === 'lost') return surveyed;
    return this.openings.get(`${this.variant}:${deal}`) ?? surveyed;
  }

  // ------------------------------------------------------------ state, drawn, then saved
  get position() {
    return currentPosition(this.state.game);
  }

  // VARIANTS: the current game's variant id and its engine rules.
  get variant() {
    return variantOf(this.state.game);
  }

  get rules() {
    return rulesOf(this.variant);
  }

  // The one way the state changes: sets the fields in `changes`, draws them once, then saves the
  // deal's game when `save` is set (it is not when the game is as saved already: opened, or
  // changed by another tab). A new game (a move, Undo, Restart, another deal) drops the choice
  // and the hint, which were about the position that went, and stops the hint's search.
  update(changes, { save = false } = {}) {
    const gameChanged = 'game' in changes;
    if (gameChanged) {
      this.hints.cancel();
      this.solution.close({ quiet: true }); // SOLUTION: it was about the position that went
    }
    // game: a new game empties Redo unless it says otherwise; the end panel follows the game
    const cleared = gameChanged ? { selected: null, hint: null, redo: [] } : {};
    this.state = { ...this.state, ...cleared, ...changes };
    if (gameChanged && !('end' in changes)) this.state.end = this.endOf(this.state.game, this.state.meta);
    if (gameChanged) this.rewind.cancel();
    const id = this.state.meta?.id ?? null;
    if (gameChanged && this.clock.id !== id) this.clock = { id, ms: this.state.meta?.ms ?? 0, last: Date.now() };
    if (changes.undoSteps) this.state.undoSteps = changes.undoSteps.slice(-MAX_UNDO);
    this.render();
    const { game, undoSteps, meta } = this.state;
    if (save) saveGame(game.deal, game.moves, undoSteps, meta, variantOf(game));
    if (gameChanged) setTabDeal(game.deal, variantOf(game));
    // game: the address shows the deal on the board. The page's first draw writes it in a task of
    // its own: a page's first history call costs about 11 ms, kept out of the load's long task.
    if (this.started) this.showAddress();
    else setTimeout(() => this.showAddress());
  }

  showAddress() {
    const { game } = this.state;
    showDeal(game.deal, { variant: variantOf(game) });
  }

  // Draws the state: the only method that writes to the game once it is built. (Keyboard focus
  // follows a removed card inside the board's own render, board.js keepFocus.)
  render() {
    const { game, selected, hint, message } = this.state;
    const pos = this.solution.shownPosition() ?? currentPosition(game); // SOLUTION: its step, while shown
    this.board.render(pos, { selected, hinted: hint ? hint.keys : new Set(), unlimitedTurns: !!game.rules?.unlimitedTurns, stockTop: !!game.rules?.stockTop });
    if (this.choice) this.choice.show(variantOf(game));
    this.container.dataset.variant = variantOf(game);
    this.renderStatus(pos);
    this.dealButton.replaceChildren(this.words.fill(this.s.board.deal, { deal: game.deal }), ' · ',
      element('span', 'pyr-deal-copy', this.s.address.copy));
    this.undoButton.setAttribute('aria-disabled', String(!this.canUndo()));
    this.redoButton.setAttribute('aria-disabled', String(!this.state.redo.length));
    this.redoAllButton.setAttribute('aria-disabled', String(!this.state.redo.length));
    this.renderDaily(game);
    this.renderEnd();
    this.container.dataset.status = pos.status;
    // The hint and the message are written once each, when they are new (a new object, even in
    // the same words): writing the live region is what makes a screen reader say it, so a new
    // message is said even when it repeats the last one, and a redraw for any other reason says
    // nothing again; data-hint changes as often as the hint does, for whoever watches it.
    if (hint !== this.drawn.hint) {
      this.drawn.hint = hint;
      if (hint) this.container.dataset.hint = hint.state;
      else delete this.container.dataset.hint;
    }
    if (message !== this.drawn.message) {
      this.drawn.message = message;
      this.board.refuse(message.cards); // the refusal's cue on its cards, a moment's red frame
      this.messageLine.textContent = message.text;
      this.messageLine.dataset.kind = message.kind;
    }
  }

  // A message for the state: `text` with a capital first letter, `kind` (its data-kind: info,
  // refused, won or stuck) and `cards`, the places a refusal shows on the board. A new object
  // each time: render() says each one, even in the same words as the last.
  message(text, kind = 'info', cards = []) {
    return { text: text ? this.words.cap(text) : '', kind, cards };
  }

  // ------------------------------------------------------------ game: status line, daily line, end panel
  // The status line as the options ask: moves, points unless hidden, the hints used if shown.
  renderStatus(pos) {
    const { s, words, options } = this;
    this.score.textContent = options.hideScore ? words.fill(s.options.status_moves, { moves: this.num(pos.moves) })
      : words.fill(s.board.status, { moves: this.num(pos.moves), points: this.num(pos.points) });
    this.hintCount.hidden = !options.hintCount;
    this.hintCount.textContent = options.hintCount ? ` · ${words.fill(s.options.status_hints, { hints: this.num(this.state.meta?.hints ?? 0) })}` : '';
    this.clockLine.hidden = !options.timer;
    this.clockLine.textContent = options.timer ? ` · ${words.fill(s.options.status_time, { time: clockText(this.clock.ms) })}` : '';
  }

  // The time runs while a started game is played and the page is seen, only when it is kept.
  tick() {
    const now = Date.now();
    const pos = this.state.game && this.position;
    if (this.options.timer && pos && pos.moves > 0 && pos.status === 'playing' && document.visibilityState === 'visible') {
      this.clock.ms += Math.min(now - this.clock.last, 5000); // a sleeping computer is not play
    }
    this.clock.last = now;
    if (this.options.timer && pos) this.clockLine.textContent = ` · ${this.words.fill(this.s.options.status_time, { time: clockText(this.clock.ms) })}`;
  }

  // Today's deal, when the pool has one: is this it?
  dailyToday() {
    this.today = todayIso();
    return dailyDeal(this.today, this.pool);
  }

  renderDaily(game) {
    const { s, words } = this;
    const date = this.date(this.today);
    this.dailyButton.textContent = words.fill(s.daily.open, { date });
    const isDaily = this.pool.length > 0 && game.deal === dailyDeal(this.today, this.pool);
    this.dailyLine.hidden = !isDaily;
    // its own streak, as it stands today (app/core/stats.js)
    const streak = isDaily ? dailyStreakOn(statistics().totals, this.today) : 0;
    this.dailyLine.textContent = !isDaily ? '' : words.fill(s.daily.this_is, { date })
      + (streak ? ` ${words.fill(s.daily.streak, { count: this.num(streak) })}` : '');
    this.container.dataset.daily = String(isDaily);
  }

  // The end panel's content for `game`: the win (with `record` and `fresh` when it has just
  // been won here), the loss when no move is left, else null.
  endOf(game, meta, { record = null, fresh = false } = {}) {
    const pos = currentPosition(game);
    if (pos.status === 'won') {
      const daily = meta?.daily ?? null;
      const share = daily ? this.words.fill(this.s.end.share_won, { date: this.date(daily), moves: this.num(pos.moves) }) : null;
      return { kind: 'won', fresh, score: scoreBreakdown(game), moves: pos.moves, hints: meta?.hints ?? 0, ms: meta?.ms ?? 0, record, share };
    }
    if (pos.status === 'stuck') {
      const daily = meta?.daily ?? null;
      const share = daily ? this.words.fill(this.s.end.share_lost, { date: this.date(daily), moves: this.num(pos.moves) }) : null;
      return { kind: 'lost', fresh, stuck: true, fromStart: this.dealResult(game.deal) === 'lost', share };
    }
    return null;
  }

  // The end panel closed by the player: the board it lay over is seen again, the message still
  // says how the game ended, and the keyboard goes to New game (the next thing most players do).
  closeEndPanel() {
    this.endPanel.hide();
    this.newGameButton.focus({ preventScroll: true });
  }

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
      this.endPanel.showWon({ ...end, timer: this.options.timer, hideScore: this.options.hideScore, focus: end.fresh });
    } else {
      this.endPanel.showLost({ ...end, canUndo: this.state.game.moves.length > 0, focus: end.fresh });
    }
  }

  // The game's statistics data after one more move: an id from its first move, the daily date
  // when it is today's daily deal, the time kept so far.
  metaAfterMove(game) {
    const meta = this.state.meta ?? { id: newGameId(), hints: 0, ms: 0, daily: null };
    const daily = meta.daily ?? (game.moves.length === 1 && game.deal === this.dailyToday() ? this.today : null);
    return { ...meta, daily, ms: Math.round(this.clock.ms) };
  }

  // Counts the game's end once (app/core/stats.js), and says what it beat: the record line, or null.
  recordEnd(game, meta) {
    const pos = currentPosition(game);
    if (pos.status === 'playing') return null;
    const before = statistics().totals;
    const written = recordResult({ id: meta.id, rules: variantOf(game), deal: game.deal, result: pos.status === 'won' ? 'won' : 'lost', moves: pos.moves,
      points: pos.points, hints: meta.hints, ms: meta.ms, daily: meta.daily });
    this.stats.refresh();
    if (!written || pos.status !== 'won') return null;
    const e = this.s.end;
    const fill = (t, v) => this.words.fill(t, v);
    if (before.bestScore === null) return fill(e.record_first, { points: this.num(pos.points), moves: this.num(pos.moves) });
    if (pos.points > before.bestScore) return fill(e.record_score, { points: this.num(pos.points), before: this.num(before.bestScore) });
    if (pos.moves < before.fewestMoves) return fill(e.record_moves, { moves: this.num(pos.moves), before: this.num(before.fewestMoves) });
    return null;
  }

  // A Restart or New game before the end: the game (once it has a move) counts as given up.
  giveUp() {
    const { game, meta } = this.state;
    if (!meta || !game.moves.length || this.position.status !== 'playing' || resultOf(meta.id)) return;
    const pos = this.position;
    recordResult({ id: meta.id, rules: variantOf(game), deal: game.deal, result: 'given-up', moves: pos.moves, points: pos.points, hints: meta.hints,
      ms: Math.round(this.clock.ms), daily: meta.daily });
    this.stats.refresh();
  }

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
        const back = replay(game.deal, game.moves.slice(0, k));
        const text = k === 0 ? e.back_start : this.words.fill(e.back_done, { moves: this.num(k) });
        return this.update({ game: back, redo: game.moves.slice(k).reverse(), message: this.message(text) }, { save: true });
      }
      if (answer.result === 'none') return this.endPanel.said(e.back_none, { fromStart: true });
      this.endPanel.said(e.back_undecided);
    });
  }

  // Copies the daily result's text; where the clipboard is refused, the message shows it.
  share(text) {
    const e = this.s.end;
    const shown = () => this.update({ message: this.message(this.words.fill(e.share_shown, { text })) });
    try {
      navigator.clipboard.writeText(text).then(() => this.update({ message: this.message(e.share_copied) }), shown);
    } catch {
      shown();
    }
  }

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
  }

  // Redo plays the last move Undo took back; Redo all plays them all.
  redo() {
    const { redo } = this.state;
    if (!redo.length) return this.update({ message: this.message(this.s.redo.nothing) });
    this.play(redo[redo.length - 1], { redo: redo.slice(0, -1) });
  }

  redoAll() {
    const { redo } = this.state;
    if (!redo.length) return this.update({ message: this.message(this.s.redo.nothing) });
    let game = this.state.game;
    for (const move of [...redo].reverse()) game = playMove(game, move);
    this.finishMove(game, { redo: [] }, this.words.fill(this.s.redo.redone_all, { count: this.num(redo.length) }));
  }

  // The message after `game` came to be: `text`, and when the game is won or stuck, that too,
  // with what the player can do next.
  withEnd(game, text) {
    const pos = currentPosition(game);
    const lead = text ? `${text} ` : '';
    if (pos.status === 'won') {
      return this.message(lead + this.words.fill(this.s.messages.won, { points: this.num(pos.points), moves: this.num(pos.moves) }), 'won');
    }
    if (pos.status === 'stuck') return this.message(lead + this.say(stuckMessage(this.dealResult(game.deal))), 'stuck');
    return this.message(text);
  }

  canUndo() {
    const { game, undoSteps } = this.state;
    return game.moves.length > 0 || undoSteps.length > 0;
  }

  // A deal as it opens, {changes: {game, undoSteps}, restored}: its saved game when there is
  // one, else its opening. `restored` when the saved game has moves (only then is the player
  // welcomed back). Opening writes nothing, so its update saves nothing either.
  opened(deal, variant = this.state.game ? this.variant : STANDARD) {
    const saved = this.restore(deal, variant);
    if (!saved) return { changes: { game: newGame(deal, rulesOf(variant)), undoSteps: [], meta: null }, restored: false };
    return { changes: { game: saved.game, undoSteps: saved.undo, meta: saved.meta }, restored: saved.game.moves.length > 0 };
  }

  // ------------------------------------------------------------ starting
  start() {
    migrate();
    const link = readLink(window.location.hash);
    // game: the address always shows the tab's deal, so a reload of it resumes, as before
    const own = link !== null && link.deal === String(tabDeal()) && (link.rules ?? STANDARD) === (tabVariant() ?? STANDARD);
    if (link !== null && !own) return this.openLink(link);
    const resumed = this.resumed();
    if (resumed && resumed.restored) {
      return this.update({ ...resumed.changes, message: this.withEnd(resumed.changes.game, this.s.messages.restored) });
    }
    const ready = this.message(this.words.fill(this.s.messages.ready, { target: this.num(TARGET_SUM) }));
    if (resumed) this.update({ ...resumed.changes, message: ready });
    else this.update({ game: newGame(this.randomDeal(STANDARD)), undoSteps: [], meta: null, message: ready }, { save: true });
  }

  // This tab's deal (kept across reloads), else the last played one, as opened(); null when
  // there is none to go back to.
  resumed() {
    const tab = tabDeal();
    const last = tab !== null ? { deal: tab, variant: tabVariant() ?? STANDARD } : lastPlayed();
    if (!last) return null;
    return this.opened(last.deal, isVariant(last.variant) ? last.variant : STANDARD);
  }

  // A deal link: any deal number, in the pool or not; that deal's saved game is resumed, and no
  // other deal's is touched. A malformed link changes nothing: the current game goes on (or the
  // tab's or last played one, when the page has just opened).
  // VARIANTS: `link` is readLink()'s {deal, rules}; rules names the variant (none: the app's
  // rules), and a link with rules only opens that variant as the rules choice does.
  openLink(link) {
    const { s, words } = this;
    if (link.rules !== null && !isVariant(link.rules)) return this.refuseLink(words.fill(s.variants.bad_rules, { value: link.rules }));
    const variant = link.rules ?? STANDARD;
    if (link.deal === null) {
      return this.chooseVariant(variant);
    }
    const value = link.deal;
    let deal;
    try {
      deal = parseDealNumber(value);
    } catch {
      return this.refuseLink(words.fill(s.messages.bad_deal, { value, min: this.num(MIN_DEAL), max: this.num(MAX_DEAL) }));
    }
    if (this.state.game && this.state.game.deal === deal && this.variant === variant) return;
    const { changes, restored } = this.opened(deal, variant);
    // game: Back or Forward to a deal the page itself opened says so, not "opened from the link"
    const fromHistory = this.viaHistory;
    this.viaHistory = false;
    const fromLink = variant === STANDARD ? s.messages.from_link : s.variants.from_link;
    const said = fromHistory ? s.address.back : restored ? s.messages.restored : fromLink;
    let text = words.cap(words.fill(said, { deal, name: this.choice ? this.choice.nameOf(variant) : variant }));
    // Known lost from the start (the survey of the app's rules): said at once, so nobody plays it unawares.
    if (variant === STANDARD && this.known.result(deal) === 'lost') text += ` ${s.messages.lost_deal}`;
    this.update({ ...changes, message: restored ? this.withEnd(changes.game, text) : this.message(text) });
  }

  // A link refused (`refused` says why): the current game goes on, or the tab's or last played
  // one when the page has just opened, or a new one when there is none.
  refuseLink(refused) {
    const { s, words } = this;
    const going = this.state.game ? {} : this.resumed()?.changes;
    if (!going) {
      return this.update({ game: newGame(this.randomDeal(STANDARD)), undoSteps: [], meta: null, message: this.message(`${refused} ${s.messages.bad_deal_new}`, 'refused') },
        { save: true });
    }
    const kept = (going.game || this.state.game).deal;
    return this.update({ ...going, message: this.message(`${refused} ${words.fill(s.messages.bad_deal_kept, { deal: kept })}`, 'refused') });
  }

  // VARIANTS: the player chose other rules (or a #rules= link asked for them): that variant's
  // last game when one is saved, else a new deal from its pool. The game left stays saved
  // under its own rules.
  chooseVariant(variant) {
    if (this.state.game && this.variant === variant) return this.update({});
    if (this.state.game) this.giveUp(); // game: leaving a game mid-way counts as given up
    const last = lastPlayed(variant);
    const { s, words } = this;
    const name = this.choice ? this.choice.nameOf(variant) : variant;
    if (last) {
      const { changes, restored } = this.opened(last.deal, variant);
      const text = words.fill(restored ? s.messages.restored : s.variants.chosen, { deal: last.deal, name });
      return this.update({ ...changes, message: restored ? this.withEnd(changes.game, text) : this.message(text) });
    }
    const deal = this.randomDeal(variant);
    this.update({ game: newGame(deal, rulesOf(variant)), undoSteps: [], meta: null, message: this.message(words.fill(s.variants.chosen, { deal, name })) },
      { save: true });
  }

  // A deal's saved game under a variant's rules, replayed move by move through the engine
  // ({game, undo}); a game that does not replay is dropped (only that one).
  restore(deal, variant = this.variant) {
    const data = loadGame(deal, variant);
    if (!data) return null;
    try {
      return { game: replay(deal, data.moves, rulesOf(variant)), undo: data.undo, meta: data.meta };
    } catch {
      forgetGame(deal, variant);
      return null;
    }
  }

  // Another tab saved this tab's deal (the `storage` event fires only in the other tabs): the
  // last write wins, and this tab shows it rather than overwrite it with its older game later.
  changedElsewhere(event) {
    const changed = gameOfKey(event.key, event.newValue);
    const current = this.state.game;
    if (!changed || !current || changed[0] !== current.deal || changed[2] !== this.variant) return;
    const [deal, data] = changed;
    const moves = data ? data.moves : [];
    const undo = data ? data.undo : [];
    if (JSON.stringify([moves, undo]) === JSON.stringify([current.moves, this.state.undoSteps])) return;
    let game;
    try {
      game = replay(deal, moves, this.rules);
    } catch {
      return; // not a game this engine can replay: keep ours
    }
    this.update({ game, undoSteps: undo, meta: data ? data.meta : null, message: this.withEnd(game, this.words.fill(this.s.messages.other_tab, { deal })) });
  }

  // New game's deal: one of the variant's pool (the game's pool for the app's rules), not the
  // current one, preferably one with no saved game under those rules.
  randomDeal(variant = this.variant) {
    const current = this.state.game;
    const pool = (variant !== STANDARD && this.choice && this.choice.poolOf(variant)) || this.pool;
    const others = pool.filter((n) => !current || n !== current.deal);
    const unplayed = others.filter((n) => !loadGame(n, variant));
    const choices = unplayed.length ? unplayed : others.length ? others : pool;
    if (!choices.length) return 1 + Math.floor(Math.random() * MAX_DEAL); // no pool given
    return choices[Math.floor(Math.random() * choices.length)];
  }

  // ------------------------------------------------------------ choosing cards
  codeAt(key) {
    const pos = this.position;
    if (key === 'waste') return pos.waste[pos.waste.length - 1] || null;
    if (key === 'stock') return this.rules.stockTop ? pos.stock[0] || null : null; // VARIANTS: stock-top
    if (key.startsWith('p')) return pos.pyramid[Number(key.slice(1))];
    return null;
  }

  keyOf(code) {
    const pos = this.position;
    if (pos.waste[pos.waste.length - 1] === code) return 'waste';
    const k = pos.pyramid.indexOf(code);
    if (k < 0 && this.rules.stockTop && pos.stock[0] === code) return 'stock'; // VARIANTS: stock-top
    return k >= 0 ? `p${k}` : null;
  }

  // Free in the engine's sense: the waste top, or a pyramid card with nothing on it.
  isAvailable(key) {
    if (key === 'waste' || key === 'stock') return true;
    const free = freeMask(compile(this.position).pyr);
    const k = Number(key.slice(1));
    if (((free >> k) & 1) === 1) return true;
    // VARIANTS: cover-pair: a card with one card on it, itself free, may pair with that card.
    if (!this.rules.coverPair) return false;
    const { row } = rowAndPlace(k);
    const on = [k + row, k + row + 1].filter((j) => this.position.pyramid[j]);
    return on.length === 1 && ((free >> on[0]) & 1) === 1;
  }

  activate(key) {
    if (this.solution.shown) this.solution.takeOver(); // SOLUTION: a card chosen on a step plays on from it
    const { s, words } = this;
    const { selected } = this.state;
    if (this.position.status === 'won') return this.update({ message: this.message(s.messages.already_won) });
    if (key === 'stock' && this.rules.stockTop && this.position.stock.length) { // VARIANTS: the stock's top card is in play
      const top = this.position.stock[0];
      if (cardValue(top) === KING_VALUE) return this.play(`king ${top}`, { selected: null });
      if (selected && selected !== 'stock' && cardValue(this.codeAt(selected)) + cardValue(top) === TARGET_SUM) {
        return this.play(`pair ${this.codeAt(selected)} ${top}`, { selected: null });
      }
      return this.play('draw', { selected: null });
    }
    if (key === 'stock') return this.play(this.position.stock.length ? 'draw' : 'turn');
    const code = this.codeAt(key);
    if (!code) return;
    // A king goes alone, with one choice; a second card makes a pair with the first. Either way
    // the choice is over, whatever the engine says.
    if (cardValue(code) === KING_VALUE) return this.play(`king ${code}`, { selected: null });
    if (selected === key) return this.deselect();
    if (selected) return this.play(`pair ${this.codeAt(selected)} ${code}`, { selected: null });
    if (!this.isAvailable(key)) return this.update({ message: this.coveredRefusal(code, [key]) });
    this.update({ selected: key, message: this.message(words.fill(s.messages.selected, { card: words.card(code), target: this.num(TARGET_SUM) })) });
  }

  // A card dragged onto another (`onto`, a key) or off the board (null): the pair of the two,
  // or a king alone, played as two taps would play them; anything else puts the card back.
  drop(key, onto) {
    if (this.position.status === 'won') return;
    const code = this.codeAt(key);
    if (!code) return;
    if (cardValue(code) === KING_VALUE) {
      if (onto === null) this.play(`king ${code}`, { selected: null });
      return;
    }
    const other = onto && this.codeAt(onto);
    if (other) this.play(`pair ${code} ${other}`, { selected: null });
  }

  deselect() {
    this.update({ selected: null, message: this.message(this.s.messages.deselected) });
  }

  // ------------------------------------------------------------ moves
  // Plays `move`; `also` are changes made with it, played or refused (the choice dropped).
  play(move, also = {}) {
    const before = this.position;
    let game;
    try {
      game = playMove(this.state.game, move);
    } catch (error) {
      if (!(error instanceof RuleError)) throw error;
      const cards = move.split(' ').slice(1).map((code) => this.keyOf(code)).filter(Boolean); // a cue on the cards
      const blocked = error.rule === 'free.covered' ? this.blockedCard(move) : null;
      if (blocked) return this.update({ ...also, message: this.coveredRefusal(blocked, cards) });
      return this.update({ ...also, message: this.refusal(error.rule, this.refusalDetails(move), cards) });
    }
    const after = currentPosition(game);
    const { s, words } = this;
    const top = after.waste[after.waste.length - 1];
    // The row emptied by the winning move is not announced: the win says the pyramid is empty.
    let text = words.cap(words.done(move, { card: top ? words.card(top) : '', turns: this.num(after.turns_left) }));
    if (after.status !== 'won') for (const row of rowsEmptied(before, after)) text += ` ${words.fill(s.done.row, { row })}`;
    // game: Redo keeps its moves only when this move is the next of them (a new move empties it)
    const { redo } = this.state;
    const next = redo.length && redo[redo.length - 1] === game.moves[game.moves.length - 1] ? redo.slice(0, -1) : [];
    this.finishMove(game, { redo: next, ...also }, text);
  }

  // game: a move (or several, Redo all) made: the statistics' data, the end counted, then drawn.
  finishMove(game, also, text) {
    const meta = this.metaAfterMove(game);
    const record = this.recordEnd(game, meta);
    const end = this.endOf(game, meta, { record, fresh: true });
    this.update({ ...also, game, meta, end, message: this.withEnd(game, text) }, { save: true });
  }

  // The words a refusal may use: the two cards, their sum, the card that is not free.
  refusalDetails(move) {
    const [, a, b] = move.split(' ');
    const details = { target: this.num(TARGET_SUM), turns: this.num(TURNS_ALLOWED) };
    if (a) {
      details.a = this.words.card(a);
      details.card = details.a;
    }
    if (b) {
      details.b = this.words.card(b);
      details.sum = this.num(cardValue(a) + cardValue(b));
      const blocked = this.blockedCard(move);
      if (blocked) details.card = this.words.card(blocked);
    }
    return details;
  }

  // The first card of `move` that cannot be chosen, or undefined.
  blockedCard(move) {
    return move.split(' ').slice(1).find((code) => { const key = this.keyOf(code); return !key || !this.isAvailable(key); });
  }

  // Refuses a card that is not free: which cards still lie over it, one or two.
  coveredRefusal(code, cards) {
    const pos = this.position;
    const k = pos.pyramid.indexOf(code);
    const choice = k >= 0 ? coveredMessage(pos, k) : null;
    if (!choice) return this.refusal('free.covered', { card: this.words.card(code) }, cards);
    return this.message(this.say(choice), 'refused', cards);
  }

  // The message refusing a move by the rule `rule` (its id, as the engine names it); `cards`
  // are the places the board shows refused.
  refusal(rule, details = {}, cards = []) {
    const template = this.s.refused[rule] || this.s.refused.other;
    return this.message(this.words.fill(template, details), 'refused', cards);
  }

  // Undo takes back the last move; at the deal's start, the last Restart or New game.
  undo() {
    const { s, words } = this;
    const { game, undoSteps } = this.state;
    if (game.moves.length > 0) {
      const redo = [...this.state.redo, game.moves[game.moves.length - 1]]; // game: Redo plays it again
      return this.update({ game: undoMove(game), redo, message: this.message(s.messages.undone) }, { save: true });
    }
    const step = undoSteps[undoSteps.length - 1];
    if (!step) return this.update({ message: this.refusal('moves.undo') });
    const rest = undoSteps.slice(0, -1);
    if (step.moves) { // a Restart: the game as it was before it
      let restarted;
      try {
        restarted = replay(game.deal, step.moves, this.rules);
      } catch { // saved by another version of the rules: nothing to go back to
        return this.update({ game, undoSteps: rest, message: this.refusal('moves.undo') }, { save: true });
      }
      return this.update({ game: restarted, undoSteps: rest, meta: step.meta ?? null, message: this.withEnd(restarted, s.messages.restart_undone) },
        { save: true });
    }
    // A New game: back to the deal it came from, with its own saved game. The deal left keeps
    // its game without the step taken back: saved here, as update() saves the deal it shows.
    saveGame(game.deal, game.moves, rest, this.state.meta, this.variant);
    const { changes } = this.opened(step.deal);
    this.update({ ...changes, message: this.withEnd(changes.game, words.fill(s.messages.new_game_undone, { deal: step.deal })) });
  }

  restart() {
    // The moves are set aside as a step Undo takes back; at the start there is nothing to keep.
    this.giveUp(); // game: counted as given up
    const { game, undoSteps, meta } = this.state;
    const steps = game.moves.length ? [...undoSteps, { moves: game.moves, meta }] : undoSteps;
    this.update({ game: newGame(game.deal, this.rules), undoSteps: steps, meta: null, message: this.message(this.words.fill(this.s.messages.restarted, { deal: game.deal })) },
      { save: true });
  }

  newRandomGame() {
    const from = this.state.game.deal;
    const deal = this.randomDeal();
    if (deal === from) return this.restart(); // a pool of one deal: the same game, from its start
    this.giveUp(); // game: counted as given up
    showDeal(deal, { push: true, variant: this.variant }); // game: Back returns to the deal left
    // The new deal starts fresh; a game saved for it earlier is set aside, not lost (Undo).
    const saved = this.restore(deal);
    const steps = saved ? [...saved.undo, ...(saved.game.moves.length ? [{ moves: saved.game.moves, meta: saved.meta }] : [])] : [];
    this.update({ game: newGame(deal, this.rules), undoSteps: [...steps, { deal: from }], meta: null, message: this.message(this.words.fill(this.s.messages.new_game, { deal })) },
      { save: true });
  }

  // Copies the deal's full link; where the clipboard is refused, the message shows the link.
  copyLink() {
    const { s, words } = this;
    const deal = this.state.game.deal;
    const link = `${window.location.href.split('#')[0]}${linkHash(deal, this.variant)}`;
    const say = (text) => this.update({ message: this.message(text) });
    const shown = () => say(words.fill(s.messages.link_shown, { deal, link }));
    try {
      navigator.clipboard.writeText(link).then(() => say(words.fill(s.messages.link_copied, { deal })), shown);
    } catch { // no clipboard here (an insecure page, an old browser)
      shown();
    }
  }

  // ------------------------------------------------------------ hint
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
  }

  // game: a hint asked counts for the statistics; Hint found the position lost: the lost panel.
  countHint() {
    const meta = this.state.meta ?? { id: newGameId(), hints: 0, ms: 0, daily: null };
    this.update({ meta: { ...meta, hints: meta.hints + 1 } }, { save: true });
  }

  lostByHint() {
    if (this.state.end) return {}; // already shown (no move left)
    return { end: { kind: 'lost', fresh: true, stuck: false, fromStart: this.dealResult(this.state.game.deal) === 'lost' } };
  }

  // The hint as state: its progress, and the places that show `move` (its cards, or the stock
  // for draw and turn; none when there is no move).
  hinting(move, state) {
    const [kind, a, b] = move ? move.split(' ') : [];
    const keys = new Set(kind === 'draw' || kind === 'turn' ? ['stock'] : [a, b].filter(Boolean).map((c) => this.keyOf(c)));
    return { state, keys };
  }
}

/** Builds the game in `container`, a `.pyramide-game`, from the data it carries; once. */
export function mount(container) {
  if (container.dataset.mounted) return;
  const strings = readJson(container, 'pyramide-strings');
  if (!strings) return; // nothing to say things with: leave the <noscript>-less page as it is
  // The reserve (game.css) holds at least the game's height from the first paint; the game keeps
  // that height when drawn, so what follows it never moves up either (until the window changes).
  const reserved = container.getBoundingClientRect().height;
  const largeDefaultText = defaultTextIsLarge(); // measured while the layout is fresh: no style pass of its own
  container.style.minHeight = `${reserved}px`;
  window.addEventListener('resize', () => { container.style.minHeight = ''; }, { once: true });
  container.dataset.mounted = 'true';
  const pool = (readJson(container, 'pyramide-pool') || []).filter((n) => Number.isInteger(n) && n >= 1 && n <= MAX_DEAL);
  new Game(container, makeWords(strings), pool, new KnownDeals(readJson(container, 'pyramide-winnable')),
    choiceEntries(readJson(container, 'pyramide-variants')), largeDefaultText);
}

// Whether the reader's default text size is 150 % or more (the browser's setting, not the page's).
function defaultTextIsLarge() {
  const probe = element('div');
  probe.style.fontSize = 'medium';
  document.body.append(probe);
  const size = parseFloat(getComputedStyle(probe).fontSize);
  probe.remove();
  return size >= 24;
}

// When the page loads (its <script type="module">): every game on it.
document.querySelectorAll('.pyramide-game').forEach((container) => mount(container));
