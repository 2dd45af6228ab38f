// The game on the page: `mount` builds the board and the buttons in a `.pyramide-game` container
// (see generator/render/game_embed.py) and plays what the player chooses through the engine; loaded by
// the page's <script type="module">, the module mounts every such container on the page.
// The engine decides every rule; this module only turns choices into moves and results into
// words. It is the controller: the state, update() and render(), the moves (play, Undo, Redo,
// Restart, New game). The buttons and keys come from the table of commands (commands.js); the
// features are modules of their own whose methods are the Game's: choosing cards (choosing.js),
// Hint (hint-flow.js), the status and daily lines (status-line.js), the end of a game and its
// statistics (game-end.js), which deal is on the board and its saved game (opening.js); the
// solution is its own view (solution.js).

import {
  newGame, playMove, undoMove, currentPosition, replay, RuleError, TARGET_SUM, TURNS_ALLOWED, MAX_DEAL,
  pairSum, cardAt, isAvailable, emptiedRows,
} from '../core/engine.js';
import { createBoard, makeWords } from './board.js';
import { HintSearch, KnownDeals } from '../core/hint.js';
import { coveredMessage, messageText, stockRefusal, stuckMessage, turnMessage } from '../core/messages.js';
import { saveGame, setTabDeal, MAX_UNDO, loadSetting, saveSetting } from '../core/storage.js';
import { afterInput, readJson, element, button, setAttr, setText } from './dom.js';
// The buttons and the keys, from one table of commands.
import { makeButtons, drawButtons, commandForKey } from './commands.js';
// The features, each in its module: their methods are the Game's (mixed in below the class).
import { choosing } from './choosing.js';
import { hintFlow } from './hint-flow.js';
import { statusLine } from './status-line.js';
import { gameEnd } from './game-end.js';
import { opening } from './opening.js';
import { dealField } from './deal-field.js';
// game: the end of a game, statistics, the daily deal, redo, the address, options (issue 27)
import { EndPanel } from './end-panel.js';
import { StatsView } from './stats-view.js';
import { todayIso } from '../core/daily.js';
import { numberFormatter, dateFormatter } from '../core/locale.js';
import { loadOptions, optionsView } from './options.js';
import { playSound } from './sound.js';
import { showDeal, isOwnEntry } from './history-nav.js';
import { RewindSearch } from '../core/rewind.js';
// VARIANTS (issue 28): the rules a game is played by, its links, the rules choice.
import { STANDARD, rulesOf, variantOf, readLink, linkHash, choiceEntries, RulesChoice } from './variants.js';
// SOLUTION (issue 28): the exact solver's shortest game from the position, step by step.
import { SolutionView } from './solution.js';

const WORKER_URL = new URL('../core/worker.js', import.meta.url);

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
    // Counts and bounds as the page writes numbers (nb «4 294 967 295», da «4.294.967.295»), dates as
    // it writes dates; deal and row numbers stay plain: they are names, typed in links.
    this.num = numberFormatter(this.s.locale);
    this.date = dateFormatter(this.s.locale);
    this.pool = pool;
    this.known = known; // the survey's verdicts on deals from the start (standard rules)
    this.variantEntries = variants; // VARIANTS: the rules choice's entries (app/ui/variants.js)
    this.openings = new Map(); // Hint's verdicts on deals from the start, by variant and deal
    this.state = { game: null, undoSteps: [], selected: null, hint: null, message: null, redo: [], meta: null, end: null };
    this.drawn = { hint: null, message: null, end: null }; // what render() wrote last of these
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
    this.dealNumber = element('span'); // written when the deal changes: the rest of the button stays
    this.dealButton.append(this.dealNumber, ' · ', element('span', 'pyr-deal-copy', s.address.copy));
    this.clockLine = element('span', 'pyr-clock');
    this.hintCount = element('span', 'pyr-hint-count');
    const counts = element('span', 'pyr-counts'); // the score with the hints and the time, on one side
    counts.append(this.score, this.hintCount, this.clockLine);
    // VARIANTS: the rules in play named at the board, unless they are the app's own.
    this.rulesName = element('span', 'pyr-rules-in-play');
    status.append(counts, this.rulesName, this.dealButton);
    this.dailyLine = element('p', 'pyr-daily-line');

    // The keys, folded under a short title: long on a phone, yet the board's description
    // (read from the paragraph, open or not) gives them whole to a screen reader.
    const help = element('details', 'pyr-help');
    const helpText = element('p', '', s.board.help);
    helpText.id = `pyr-help-${Math.random().toString(36).slice(2, 8)}`;
    help.append(element('summary', '', s.board.help_title), helpText);
    this.board = createBoard(container, this.words, {
      onActivate: (key) => this.activate(key), onDrop: (key, onto) => this.drop(key, onto), onMoved: (kind) => this.sound(kind),
    });
    this.board.el.setAttribute('aria-describedby', helpText.id);

    this.messageLine = element('p', 'pyr-message');
    this.messageLine.setAttribute('role', 'status');
    this.messageLine.setAttribute('aria-live', 'polite');

    // The buttons, from the table of commands (app/ui/commands.js) in its order: the four of every
    // game, then a smaller row (Redo, the daily deal, the solution, a deal by its number).
    this.today = todayIso();
    this.buttons = makeButtons(this);
    const buttons = element('div', 'pyr-buttons');
    const more = element('div', 'pyr-more');
    for (const made of this.buttons.values()) ('more' in made.dataset ? more : buttons).append(made);
    more.append(this.buildDealField());
    helpText.textContent += ` ${s.redo.keys}`;

    this.endPanel = new EndPanel(this.words, (v) => this.num(v), {
      newGame: () => this.newRandomGame(), undo: () => this.undo(), restart: () => this.restart(),
      back: () => this.backToWinnable(), showStats: () => this.stats.open(), share: (text) => this.share(text),
      close: () => this.closeEndPanel(),
    });
    this.stats = new StatsView(this.words, (v) => this.num(v), (text) => this.update({ message: this.message(text) }),
      { date: this.date, rules: this.variantEntries, current: () => this.variant });
    const options = optionsView(this.words, this.options, (next) => { this.options = next; this.showLook(); this.render(); });
    this.showLook();

    // Large print: bigger ranks on the cards. The player's choice is kept; until they make one,
    // it is on when the reader's own text size is large (the browser's default font size).
    this.largePrint = button('pyr-switch', s.buttons.large_print, () => this.setLargePrint(!this.isLargePrint()));
    this.setLargePrint(this.isLargePrint(), { keep: false });


    // Under the board: the four buttons, the message (a long one grows below them, so board and
    // buttons never move), the smaller row, the end panel, then one row of folded parts (game.css).
    // VARIANTS: the rules choice is first there: above the board it pushed the buttons off a small
    // phone's first screen. Board, buttons and message are seen together (game.css sizes the board).
    this.choice = this.variantEntries.length > 1 ? new RulesChoice(this.words, this.variantEntries, (id) => this.chooseVariant(id)) : null;
    // SOLUTION: its step controls in the four buttons' place, its panel under them.
    this.solution = new SolutionView(this, WORKER_URL, this.buttons.get('solution'));

    container.prepend(status);
    const tools = element('div', 'pyr-tools');
    tools.append(...[this.choice?.el, help, this.stats.el, options, this.largePrint].filter(Boolean));
    container.append(buttons, this.solution.controls, this.messageLine, this.dailyLine, more, this.solution.el, this.endPanel.el, tools);
    setInterval(() => this.tick(), 1000);
    document.addEventListener('visibilitychange', () => this.tick());
    container.addEventListener('keydown', (event) => this.key(event));
    window.addEventListener('popstate', (event) => { this.viaHistory = isOwnEntry(event); });
    // The page's "go to the game" link and the G key, from anywhere on the page: the game in
    // view and the keyboard on its board's first free card.
    document.addEventListener('keydown', (event) => this.key(event, true));
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

  // A key in the game, or (page) anywhere (G): its command's (app/ui/commands.js), unless taken or
  // typed in a field; which one runs is asked again when it runs, after the inputs before it.
  key(event, page = false) {
    if ((page && event.defaultPrevented) || !commandForKey(this, event, { page }) || typing(event)) return;
    event.preventDefault();
    if (!page) event.stopPropagation(); // the theme's keys (N, P: next, previous page) stay out
    afterInput(() => commandForKey(this, event, { page })?.run(this, event));
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
    // game: the address shows the deal on the board; at the first draw in a task of its own (a
    // page's first history call costs about 11 ms, kept out of the load's long task).
    if (this.started) this.showAddress();
    else setTimeout(() => this.showAddress());
  }

  showAddress() {
    const { game } = this.state;
    showDeal(game.deal, { variant: variantOf(game) });
  }

  // The options that change the table's look and motion: game.css reads them from the container
  // (data-back, data-table; data-still stops every animation, motion.js's too).
  showLook() {
    const { back, table, animations } = this.options;
    Object.assign(this.container.dataset, { back, table });
    this.container.toggleAttribute('data-still', !animations);
  }

  // A sound of app/ui/sound.js, when the player chose sound in the options.
  sound(name) {
    if (this.options.sound) playSound(name);
  }

  // Draws the state: the only method that writes to the game once it is built. (Keyboard focus
  // follows a removed card inside the board's own render, board.js keepFocus.)
  render() {
    const { game, selected, hint, message } = this.state;
    const pos = this.solution.shownPosition() ?? currentPosition(game); // SOLUTION: its step, while shown
    // SOLUTION: on a step, the next move's cards are marked as a hint's are
    const hinted = this.solution.shown ? this.solution.marked() : hint ? hint.keys : new Set();
    this.board.render(pos, { selected, hinted, unlimitedTurns: !!game.rules?.unlimitedTurns,
      stockTop: cardAt(pos, 'stock', game.rules) !== null });
    if (this.choice) this.choice.show(variantOf(game));
    const named = this.choice && variantOf(game) !== STANDARD;
    this.rulesName.hidden = !named;
    setText(this.rulesName, named ? this.words.fill(this.s.variants.current, { name: this.choice.nameOf(variantOf(game)) }) : '');
    setAttr(this.container, 'data-variant', variantOf(game));
    this.renderStatus(pos);
    setText(this.dealNumber, this.words.fill(this.s.board.deal, { deal: game.deal }));
    drawButtons(this, this.buttons);
    this.renderDaily(game);
    this.renderEnd();
    setAttr(this.container, 'data-status', pos.status);
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
      if (message.cards.length) this.sound('refuse');
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

  // ------------------------------------------------------------ moves
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
    this.finishMove(game, { redo: [] }, this.words.fill(this.s.redo.redone_all, { count: redo.length }));
  }

  // The message after `game` came to be: `text`, and when the game is won or stuck, that too,
  // with what the player can do next.
  withEnd(game, text) {
    const pos = currentPosition(game);
    const lead = text ? `${text} ` : '';
    if (pos.status === 'won') {
      return this.message(lead + this.words.fill(this.s.messages.won, { points: this.words.count('points', pos.points), moves: this.words.count('moves', pos.moves) }), 'won');
    }
    if (pos.status === 'stuck') return this.message(lead + this.say(stuckMessage(this.dealResult(game.deal))), 'stuck');
    return this.message(text);
  }

  canUndo() {
    const { game, undoSteps } = this.state;
    return game.moves.length > 0 || undoSteps.length > 0;
  }

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
      // The stock pressed: its reason read from the position, the same under every rule set.
      if (move === 'draw' || move === 'turn') {
        return this.update({ ...also, message: this.message(this.say(stockRefusal(before, move, this.rules)), 'refused') });
      }
      return this.update({ ...also, message: this.refusal(error.rule, this.refusalDetails(move), cards) });
    }
    const after = currentPosition(game);
    const { s, words } = this;
    const top = after.waste[after.waste.length - 1];
    // The row emptied by the winning move is not announced: the win says the pyramid is empty.
    let text = words.cap(move === 'turn' ? this.say(turnMessage(after, this.rules))
      : words.done(move, { card: top ? words.card(top) : '', turns: this.num(after.turns_left) }));
    if (after.status !== 'won') for (const row of emptiedRows(before, after)) text += ` ${words.fill(s.done.row, { row })}`;
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
      details.sum = this.num(pairSum(a, b));
      const blocked = this.blockedCard(move);
      if (blocked) details.card = this.words.card(blocked);
    }
    return details;
  }

  // The first card of `move` that cannot be chosen, or undefined.
  blockedCard(move) {
    return move.split(' ').slice(1).find((code) => { const key = this.keyOf(code); return !key || !isAvailable(this.position, key, this.rules); });
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
}
// The features each in a module of its own, their methods the Game's: they read and change the
// game only through its state, update() and message(), as its own methods do.
Object.assign(Game.prototype, choosing, hintFlow, statusLine, gameEnd, opening, dealField);

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

// Whether a key goes to a field being typed in or chosen from (the deal's number, the statistics'
// rules): it is the field's, not a command's (a D typed there draws no card).
function typing(event) {
  return !!(event.target.closest && event.target.closest('input:not([type=checkbox], [type=radio]), textarea, select, [contenteditable]'));
}

// When the page loads (its <script type="module">): every game on it.
document.querySelectorAll('.pyramide-game').forEach((container) => mount(container));
