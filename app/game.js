// The game on the page: `mount` builds the board and the buttons in a `.pyramide-game` container
// (see generator/game_embed.py) and plays what the player chooses through the engine; loaded by
// the page's <script type="module">, the module mounts every such container on the page.
// The engine decides every rule; this module only turns choices into moves and results into
// words.

import {
  newGame, playMove, undoMove, currentPosition, replay, parseDealNumber, RuleError,
  cardValue, compile, freeMask, rowAndPlace, ROWS, KING_VALUE, TARGET_SUM, TURNS_ALLOWED, MAX_DEAL, MIN_DEAL,
} from './engine.js';
import { createBoard, makeWords } from './board.js';
import { HintSearch, KnownDeals, quickSuggestion } from './hint.js';
import {
  migrate, loadGame, saveGame, forgetGame, lastPlayed, tabDeal, tabVariant, setTabDeal, gameOfKey, MAX_UNDO,
} from './storage.js';
import { readJson, element, button } from './dom.js';
// VARIANTS (issue 28): the rules a game is played by, its links, the rules choice.
import { STANDARD, isVariant, rulesOf, variantOf, readLink, linkHash, choiceEntries, RulesChoice } from './variants.js';
// SOLUTION (issue 28): the exact solver's shortest game from the position, step by step.
import { SolutionView } from './solution.js';

const WORKER_URL = new URL('./worker.js', import.meta.url);

// Rows (1-based) that a move emptied: worth telling the player, they earn points.
function rowsEmptied(before, after) {
  const emptied = [];
  for (let r = 1, k = 0; r <= ROWS; k += r, r++) {
    const row = (pos) => pos.pyramid.slice(k, k + r);
    if (row(before).some(Boolean) && !row(after).some(Boolean)) emptied.push(r);
  }
  return emptied;
}

// Counts and bounds in messages, written as the page's language writes numbers: Intl uses the
// same CLDR data as Babel on the pages (nb «4 294 967 295» with no-break spaces, da
// «4.294.967.295»). Deal and row numbers stay plain: they are names, and a deal's is typed in links.
function numberFormat(lang) {
  try {
    return new Intl.NumberFormat(lang);
  } catch { // not a language tag Intl knows: the browser's own way is still better than none
    return new Intl.NumberFormat();
  }
}

// The page's state is `this.state`, changed only by update(), which draws it once (render())
// and then saves the deal's game when asked:
//   game       the engine's game (app/engine.js): the deal and its moves;
//   undoSteps  the steps Undo takes back once the moves are all taken back, newest last: {moves}
//              (a Restart set them aside) or {deal} (New game came from that deal); saved with the
//              deal's game (app/storage.js), so a reload keeps them;
//   selected   the key of the chosen card, 'p0'…'p27' or 'waste', or null;
//   hint       {state, keys}: the hint's progress (data-hint: 'searching', 'checked', 'lost',
//              'unchecked') and the places it frames; null when there is no hint;
//   message    what the page said last ({text, kind, cards}, made by message()).
class Game {
  constructor(container, words, pool, known, variants = []) {
    this.container = container;
    this.words = words;
    this.s = words.strings;
    this.numbers = numberFormat(this.s.lang || container.lang);
    this.pool = pool;
    this.known = known; // what the survey decided about deals from the start (standard rules)
    this.variantEntries = variants; // VARIANTS: the rules choice's entries (app/variants.js)
    this.state = { game: null, undoSteps: [], selected: null, hint: null, message: null };
    this.drawn = { hint: null, message: null }; // what render() wrote last of these two (see there)
    this.hints = new HintSearch(WORKER_URL);
    this.build();
    this.start();
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
    status.append(this.score, this.dealButton);

    // The keys, folded under a short title: long on a phone, yet the board's description
    // (read from the paragraph, open or not) gives them whole to a screen reader.
    const help = element('details', 'pyr-help');
    const helpText = element('p', '', s.board.help);
    helpText.id = `pyr-help-${Math.random().toString(36).slice(2, 8)}`;
    help.append(element('summary', '', s.board.help_title), helpText);
    this.board = createBoard(container, this.words, { onActivate: (key) => this.activate(key) });
    this.board.el.setAttribute('aria-describedby', helpText.id);

    this.messageLine = element('p', 'pyr-message');
    this.messageLine.setAttribute('role', 'status');
    this.messageLine.setAttribute('aria-live', 'polite');

    const buttons = element('div', 'pyr-buttons');
    const named = (name, action) => button(`pyr-button pyr-${name}`, s.buttons[name.replace('-', '_')], action);
    this.undoButton = named('undo', () => this.undo());
    buttons.append(this.undoButton, named('hint', () => this.hint()), named('restart', () => this.restart()),
      named('new-game', () => this.newRandomGame()));

    // VARIANTS: the rules choice, above the board (only when the page lists the variants).
    this.choice = this.variantEntries.length > 1 ? new RulesChoice(this.words, this.variantEntries, (id) => this.chooseVariant(id)) : null;
    // SOLUTION: its button among the others, its panel under them.
    this.solution = new SolutionView(this, WORKER_URL);
    buttons.append(this.solution.button);

    container.prepend(status);
    if (this.choice) status.after(this.choice.el);
    container.append(this.messageLine, buttons, this.solution.el, help);
    container.addEventListener('keydown', (event) => this.key(event));
    window.addEventListener('hashchange', () => {
      const link = readLink(window.location.hash);
      if (link !== null) this.openLink(link);
    });
    window.addEventListener('storage', (event) => this.changedElsewhere(event));
  }

  key(event) {
    const k = event.key.toLowerCase();
    const ctrl = event.ctrlKey || event.metaKey;
    if (ctrl && k === 'z' && !event.altKey) return this.handled(event, () => this.undo());
    if (ctrl || event.altKey) return;
    if (k === 'd') return this.handled(event, () => this.activate('stock'));
    if (k === 'u') return this.handled(event, () => this.undo());
    if (k === 'h') return this.handled(event, () => this.hint());
    if (k === 'escape' && this.solution.open) return this.handled(event, () => this.solution.close());
    if (k === 'escape' && this.state.selected) return this.handled(event, () => this.deselect());
  }

  handled(event, action) {
    event.preventDefault();
    action();
  }

  num(value) {
    return this.numbers.format(value);
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
    this.state = { ...this.state, ...(gameChanged ? { selected: null, hint: null } : {}), ...changes };
    if (changes.undoSteps) this.state.undoSteps = changes.undoSteps.slice(-MAX_UNDO);
    this.render();
    const { game, undoSteps } = this.state;
    if (save) saveGame(game.deal, game.moves, undoSteps, variantOf(game));
    if (gameChanged) setTabDeal(game.deal, variantOf(game));
  }

  // Draws the state: the only method that writes to the game once it is built. (Keyboard focus
  // follows a removed card inside the board's own render, board.js keepFocus.)
  render() {
    const { game, selected, hint, message } = this.state;
    const pos = this.solution.shownPosition() ?? currentPosition(game); // SOLUTION: its step, while shown
    this.board.render(pos, { selected, hinted: hint ? hint.keys : new Set(), unlimitedTurns: !!game.rules?.unlimitedTurns, stockTop: !!game.rules?.stockTop });
    if (this.choice) this.choice.show(variantOf(game));
    this.container.dataset.variant = variantOf(game);
    this.score.textContent = this.words.fill(this.s.board.status, { moves: this.num(pos.moves), points: this.num(pos.points) });
    this.dealButton.textContent = this.words.fill(this.s.board.deal, { deal: game.deal });
    this.undoButton.setAttribute('aria-disabled', String(!this.canUndo()));
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

  // The message after `game` came to be: `text`, and when the game is won or stuck, that too,
  // with what the player can do next.
  withEnd(game, text) {
    const pos = currentPosition(game);
    const lead = text ? `${text} ` : '';
    if (pos.status === 'won') {
      return this.message(lead + this.words.fill(this.s.messages.won, { points: this.num(pos.points), moves: this.num(pos.moves) }), 'won');
    }
    if (pos.status === 'stuck') return this.message(lead + this.s.messages.stuck, 'stuck');
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
    if (!saved) return { changes: { game: newGame(deal, rulesOf(variant)), undoSteps: [] }, restored: false };
    return { changes: { game: saved.game, undoSteps: saved.undo }, restored: saved.game.moves.length > 0 };
  }

  // ------------------------------------------------------------ starting
  start() {
    migrate();
    const link = readLink(window.location.hash);
    if (link !== null) return this.openLink(link);
    const resumed = this.resumed();
    if (resumed && resumed.restored) {
      return this.update({ ...resumed.changes, message: this.withEnd(resumed.changes.game, this.s.messages.restored) });
    }
    const ready = this.message(this.words.fill(this.s.messages.ready, { target: this.num(TARGET_SUM) }));
    if (resumed) this.update({ ...resumed.changes, message: ready });
    else this.update({ game: newGame(this.randomDeal(STANDARD)), undoSteps: [], message: ready }, { save: true });
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
      this.clearHash();
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
    const fromLink = variant === STANDARD ? s.messages.from_link : s.variants.from_link;
    let text = words.cap(words.fill(restored ? s.messages.restored : fromLink, { deal, name: this.choice ? this.choice.nameOf(variant) : variant }));
    // Known lost from the start (the survey of the app's rules): said at once, so nobody plays it unawares.
    if (variant === STANDARD && this.known.result(deal) === 'lost') text += ` ${s.messages.lost_deal}`;
    this.update({ ...changes, message: restored ? this.withEnd(changes.game, text) : this.message(text) });
  }

  // A link refused (`refused` says why): the current game goes on, or the tab's or last played
  // one when the page has just opened, or a new one when there is none.
  refuseLink(refused) {
    const { s, words } = this;
    this.clearHash();
    const going = this.state.game ? {} : this.resumed()?.changes;
    if (!going) {
      return this.update({ game: newGame(this.randomDeal(STANDARD)), undoSteps: [], message: this.message(`${refused} ${s.messages.bad_deal_new}`, 'refused') },
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
    const last = lastPlayed(variant);
    const { s, words } = this;
    const name = this.choice ? this.choice.nameOf(variant) : variant;
    if (last) {
      const { changes, restored } = this.opened(last.deal, variant);
      const text = words.fill(restored ? s.messages.restored : s.variants.chosen, { deal: last.deal, name });
      return this.update({ ...changes, message: restored ? this.withEnd(changes.game, text) : this.message(text) });
    }
    const deal = this.randomDeal(variant);
    this.update({ game: newGame(deal, rulesOf(variant)), undoSteps: [], message: this.message(words.fill(s.variants.chosen, { deal, name })) },
      { save: true });
  }

  // A deal's saved game under a variant's rules, replayed move by move through the engine
  // ({game, undo}); a game that does not replay is dropped (only that one).
  restore(deal, variant = this.variant) {
    const data = loadGame(deal, variant);
    if (!data) return null;
    try {
      return { game: replay(deal, data.moves, rulesOf(variant)), undo: data.undo };
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
    this.update({ game, undoSteps: undo, message: this.withEnd(game, this.words.fill(this.s.messages.other_tab, { deal })) });
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

  clearHash() {
    if (readLink(window.location.hash) !== null) {
      history.replaceState(history.state, '', window.location.pathname + window.location.search);
    }
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
    if (!this.isAvailable(key)) {
      return this.update({ message: this.refusal('free.covered', { card: words.card(code) }, [key]) });
    }
    this.update({ selected: key, message: this.message(words.fill(s.messages.selected, { card: words.card(code), target: this.num(TARGET_SUM) })) });
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
      return this.update({ ...also, message: this.refusal(error.rule, this.refusalDetails(move), cards) });
    }
    const after = currentPosition(game);
    const { s, words } = this;
    const top = after.waste[after.waste.length - 1];
    // The row emptied by the winning move is not announced: the win says the pyramid is empty.
    let text = words.cap(words.done(move, { card: top ? words.card(top) : '', turns: this.num(after.turns_left) }));
    if (after.status !== 'won') for (const row of rowsEmptied(before, after)) text += ` ${words.fill(s.done.row, { row })}`;
    this.update({ ...also, game, message: this.withEnd(game, text) }, { save: true });
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
      const blocked = [a, b].find((code) => { const key = this.keyOf(code); return !key || !this.isAvailable(key); });
      if (blocked) details.card = this.words.card(blocked);
    }
    return details;
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
      return this.update({ game: undoMove(game), message: this.message(s.messages.undone) }, { save: true });
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
      return this.update({ game: restarted, undoSteps: rest, message: this.withEnd(restarted, s.messages.restart_undone) },
        { save: true });
    }
    // A New game: back to the deal it came from, with its own saved game. The deal left keeps
    // its game without the step taken back: saved here, as update() saves the deal it shows.
    saveGame(game.deal, game.moves, rest, this.variant);
    this.clearHash();
    const { changes } = this.opened(step.deal);
    this.update({ ...changes, message: this.withEnd(changes.game, words.fill(s.messages.new_game_undone, { deal: step.deal })) });
  }

  restart() {
    // The moves are set aside as a step Undo takes back; at the start there is nothing to keep.
    const { game, undoSteps } = this.state;
    const steps = game.moves.length ? [...undoSteps, { moves: game.moves }] : undoSteps;
    this.update({ game: newGame(game.deal, this.rules), undoSteps: steps, message: this.message(this.words.fill(this.s.messages.restarted, { deal: game.deal })) },
      { save: true });
  }

  newRandomGame() {
    this.clearHash();
    const from = this.state.game.deal;
    const deal = this.randomDeal();
    if (deal === from) return this.restart(); // a pool of one deal: the same game, from its start
    // The new deal starts fresh; a game saved for it earlier is set aside, not lost (Undo).
    const saved = this.restore(deal);
    const steps = saved ? [...saved.undo, ...(saved.game.moves.length ? [{ moves: saved.game.moves }] : [])] : [];
    this.update({ game: newGame(deal, this.rules), undoSteps: [...steps, { deal: from }], message: this.message(this.words.fill(this.s.messages.new_game, { deal })) },
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
  hint() {
    this.solution.close({ quiet: true }); // SOLUTION: the hint is about the player's own position
    const pos = this.position;
    const { s, words } = this;
    const { game } = this.state;
    if (pos.status === 'won') return this.update({ message: this.message(s.hint.won) });
    // "Undo some moves" only when there are moves to undo: at the start, a lost deal is lost as dealt.
    const lost = game.moves.length ? s.hint.lost : s.hint.lost_from_start;
    const quick = quickSuggestion(pos, this.rules);
    if (!quick || (!game.moves.length && this.variant === STANDARD && this.known.result(game.deal) === 'lost')) {
      // stuck, or known lost from the start: nothing to search
      return this.update({ hint: this.hinting(null, 'lost'), message: this.message(lost, 'stuck') });
    }
    this.update({ hint: this.hinting(quick, 'searching'), message: this.message(words.fill(s.hint.searching, { move: words.move(quick) })) });
    this.hints.start(pos, (answer) => {
      if (answer.result === 'won' && answer.move) {
        this.update({ hint: this.hinting(answer.move, 'checked'), message: this.message(words.fill(s.hint.checked, { move: words.move(answer.move) })) });
      } else if (answer.result === 'lost') {
        this.update({ hint: this.hinting(null, 'lost'), message: this.message(lost, 'stuck') });
      } else {
        // Say why it is unchecked: a search that gave up is not a search that never started.
        const why = answer.result === 'unavailable' ? s.hint.unavailable : s.hint.unchecked;
        this.update({ hint: this.hinting(quick, 'unchecked'), message: this.message(words.fill(why, { move: words.move(quick) })) });
      }
    }, this.rules);
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
  container.dataset.mounted = 'true';
  const pool = (readJson(container, 'pyramide-pool') || []).filter((n) => Number.isInteger(n) && n >= 1 && n <= MAX_DEAL);
  new Game(container, makeWords(strings), pool, new KnownDeals(readJson(container, 'pyramide-winnable')),
    choiceEntries(readJson(container, 'pyramide-variants')));
}

// When the page loads (its <script type="module">): every game on it.
document.querySelectorAll('.pyramide-game').forEach((container) => mount(container));
