// The game on the page: finds every `.pyramide-game` container (see generator/game_embed.py),
// builds the board and the buttons, and plays what the player chooses through the engine.
// The engine decides every rule; this module only turns choices into moves and results into
// words.

import {
  newGame, playMove, undoMove, currentPosition, replay, parseDealNumber, RuleError,
  cardValue, compile, freeMask, ROWS, KING_VALUE, TARGET_SUM, TURNS_ALLOWED, MAX_DEAL, MIN_DEAL,
} from './engine.js';
import { createBoard, makeWords } from './board.js';
import { HintSearch, KnownDeals, quickSuggestion } from './hint.js';
import {
  migrate, loadGame, saveGame, forgetGame, lastPlayedDeal, tabDeal, setTabDeal, gameOfKey, MAX_UNDO,
} from './storage.js';
import { readJson, element, button } from './dom.js';

const WORKER_URL = new URL('./worker.js', import.meta.url);
const DEAL_LINK = /^#deal=(.*)$/;

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

// Play state beyond the engine's game: `undoSteps` are the steps Undo takes back once the
// moves are all taken back, newest last: {moves} (a Restart set them aside) or {deal} (New game
// came from that deal). They are saved with the deal's game (app/storage.js), so a reload keeps them.
class Game {
  constructor(container, words, pool, known) {
    this.container = container;
    this.words = words;
    this.s = words.strings;
    this.numbers = numberFormat(this.s.lang || container.lang);
    this.pool = pool;
    this.known = known; // what the survey decided about deals from the start
    this.game = null;
    this.undoSteps = [];
    this.selected = null; // key of the chosen card: 'p0'…'p27' or 'waste'
    this.hinted = new Set();
    this.hints = new HintSearch(WORKER_URL);
    this.build();
    this.start();
  }

  // ------------------------------------------------------------ page
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

    this.message = element('p', 'pyr-message');
    this.message.setAttribute('role', 'status');
    this.message.setAttribute('aria-live', 'polite');

    const buttons = element('div', 'pyr-buttons');
    const named = (name, action) => button(`pyr-button pyr-${name}`, s.buttons[name.replace('-', '_')], action);
    this.undoButton = named('undo', () => this.undo());
    buttons.append(this.undoButton, named('hint', () => this.hint()), named('restart', () => this.restart()),
      named('new-game', () => this.newRandomGame()));

    container.prepend(status);
    container.append(this.message, buttons, help);
    container.addEventListener('keydown', (event) => this.key(event));
    window.addEventListener('hashchange', () => {
      const link = this.dealFromHash();
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
    if (k === 'escape' && this.selected) return this.handled(event, () => this.deselect());
  }

  handled(event, action) {
    event.preventDefault();
    action();
  }

  num(value) {
    return this.numbers.format(value);
  }

  say(text, kind = 'info') {
    this.message.textContent = text ? this.words.cap(text) : '';
    this.message.dataset.kind = kind;
  }

  get position() {
    return currentPosition(this.game);
  }

  render() {
    const pos = this.position;
    this.board.render(pos, { selected: this.selected, hinted: this.hinted });
    this.score.textContent = this.words.fill(this.s.board.status, { moves: this.num(pos.moves), points: this.num(pos.points) });
    this.dealButton.textContent = this.words.fill(this.s.board.deal, { deal: this.game.deal });
    this.undoButton.setAttribute('aria-disabled', String(!this.canUndo()));
    this.container.dataset.status = pos.status;
  }

  // A new game object (start, restart, undo, a move): drop the selection and any running hint.
  // `steps` are its undo steps (see the class comment); the same deal keeps its own by default.
  // `save: false` when the game is as saved already (opened, or changed by another tab).
  setGame(game, steps = this.undoSteps, { save = true } = {}) {
    this.game = game;
    this.undoSteps = steps.slice(-MAX_UNDO);
    this.selected = null;
    this.clearHint();
    if (save) saveGame(game.deal, game.moves, this.undoSteps);
    setTabDeal(game.deal);
    this.render();
  }

  canUndo() {
    return this.game.moves.length > 0 || this.undoSteps.length > 0;
  }

  // Opens a deal: its saved game when there is one, else its opening; opening writes nothing.
  // True when a game with moves was restored (only then is the player welcomed back).
  openDeal(deal) {
    const saved = this.restore(deal);
    this.setGame(saved ? saved.game : newGame(deal), saved ? saved.undo : [], { save: false });
    return !!saved && saved.game.moves.length > 0;
  }

  // ------------------------------------------------------------ starting
  start() {
    migrate();
    const link = this.dealFromHash();
    if (link !== null) return this.openLink(link);
    const resumed = this.resume();
    if (resumed === 'restored') {
      this.say(this.s.messages.restored);
      this.announceEnd();
    } else {
      if (!resumed) this.setGame(newGame(this.randomDeal()), []);
      this.say(this.words.fill(this.s.messages.ready, { target: this.num(TARGET_SUM) }));
    }
  }

  // This tab's deal (kept across reloads), else the last played one: 'restored' (with moves),
  // 'opened' (at its start), or null when there is none to go back to.
  resume() {
    const deal = tabDeal() ?? lastPlayedDeal();
    if (deal === null) return null;
    return this.openDeal(deal) ? 'restored' : 'opened';
  }

  dealFromHash() {
    const m = DEAL_LINK.exec(window.location.hash);
    if (!m) return null;
    try {
      return decodeURIComponent(m[1]);
    } catch {
      return m[1];
    }
  }

  // A deal link: any deal number, in the pool or not; that deal's saved game is resumed, and no
  // other deal's is touched. A malformed link changes nothing: the current game goes on (or the
  // tab's or last played one, when the page has just opened).
  openLink(value) {
    const { s, words } = this;
    let deal;
    try {
      deal = parseDealNumber(value);
    } catch {
      this.clearHash();
      const going = this.game || this.resume();
      if (!going) this.setGame(newGame(this.randomDeal()), []);
      const next = going ? words.fill(s.messages.bad_deal_kept, { deal: this.game.deal }) : s.messages.bad_deal_new;
      this.say(`${words.fill(s.messages.bad_deal, { value, min: this.num(MIN_DEAL), max: this.num(MAX_DEAL) })} ${next}`, 'refused');
      return;
    }
    if (this.game && this.game.deal === deal) return;
    const restored = this.openDeal(deal);
    let text = words.cap(words.fill(restored ? s.messages.restored : s.messages.from_link, { deal }));
    // Known lost from the start (the survey): said at once, so nobody plays it unawares.
    if (this.known.result(deal) === 'lost') text += ` ${s.messages.lost_deal}`;
    this.say(text);
    if (restored) this.announceEnd();
  }

  // A deal's saved game, replayed move by move through the engine ({game, undo}); a game that
  // does not replay is dropped (only that deal's).
  restore(deal) {
    const data = loadGame(deal);
    if (!data) return null;
    try {
      return { game: replay(deal, data.moves), undo: data.undo };
    } catch {
      forgetGame(deal);
      return null;
    }
  }

  // Another tab saved this tab's deal (the `storage` event fires only in the other tabs): the
  // last write wins, and this tab shows it rather than overwrite it with its older game later.
  changedElsewhere(event) {
    const changed = gameOfKey(event.key, event.newValue);
    if (!changed || !this.game || changed[0] !== this.game.deal) return;
    const [deal, data] = changed;
    const moves = data ? data.moves : [];
    const undo = data ? data.undo : [];
    if (JSON.stringify([moves, undo]) === JSON.stringify([this.game.moves, this.undoSteps])) return;
    let game;
    try {
      game = replay(deal, moves);
    } catch {
      return; // not a game this engine can replay: keep ours
    }
    this.setGame(game, undo, { save: false });
    this.say(this.words.fill(this.s.messages.other_tab, { deal }));
    this.announceEnd();
  }

  // New game's deal: one of the pool, not the current one, preferably one with no saved game.
  randomDeal() {
    const others = this.pool.filter((n) => !this.game || n !== this.game.deal);
    const unplayed = others.filter((n) => !loadGame(n));
    const choices = unplayed.length ? unplayed : others.length ? others : this.pool;
    if (!choices.length) return 1 + Math.floor(Math.random() * MAX_DEAL); // no pool given
    return choices[Math.floor(Math.random() * choices.length)];
  }

  clearHash() {
    if (DEAL_LINK.test(window.location.hash)) {
      history.replaceState(history.state, '', window.location.pathname + window.location.search);
    }
  }

  // ------------------------------------------------------------ choosing cards
  codeAt(key) {
    const pos = this.position;
    if (key === 'waste') return pos.waste[pos.waste.length - 1] || null;
    if (key.startsWith('p')) return pos.pyramid[Number(key.slice(1))];
    return null;
  }

  keyOf(code) {
    const pos = this.position;
    if (pos.waste[pos.waste.length - 1] === code) return 'waste';
    const k = pos.pyramid.indexOf(code);
    return k >= 0 ? `p${k}` : null;
  }

  // Free in the engine's sense: the waste top, or a pyramid card with nothing on it.
  isAvailable(key) {
    if (key === 'waste') return true;
    return ((freeMask(compile(this.position).pyr) >> Number(key.slice(1))) & 1) === 1;
  }

  activate(key) {
    if (this.position.status === 'won') return this.say(this.s.messages.already_won);
    if (key === 'stock') return this.play(this.position.stock.length ? 'draw' : 'turn');
    const code = this.codeAt(key);
    if (!code) return;
    if (cardValue(code) === KING_VALUE) { // a king goes alone, with one choice
      this.selected = null;
      return this.play(`king ${code}`);
    }
    if (this.selected === key) return this.deselect();
    if (this.selected) {
      const first = this.codeAt(this.selected);
      this.selected = null;
      return this.play(`pair ${first} ${code}`);
    }
    if (!this.isAvailable(key)) {
      this.board.refuse([key]);
      return this.refuse('free.covered', { card: this.words.card(code) });
    }
    this.selected = key;
    this.render();
    this.say(this.words.fill(this.s.messages.selected, { card: this.words.card(code), target: this.num(TARGET_SUM) }));
  }

  deselect() {
    this.selected = null;
    this.render();
    this.say(this.s.messages.deselected);
  }

  // ------------------------------------------------------------ moves
  play(move) {
    const before = this.position;
    let game;
    try {
      game = playMove(this.game, move);
    } catch (error) {
      if (!(error instanceof RuleError)) throw error;
      this.render();
      this.board.refuse(move.split(' ').slice(1).map((code) => this.keyOf(code)).filter(Boolean)); // a cue on the cards
      return this.refuse(error.rule, this.refusalDetails(move));
    }
    this.setGame(game);
    const after = this.position;
    const { s, words } = this;
    const top = after.waste[after.waste.length - 1];
    let text = words.cap(words.move(move, s.done, { card: top ? words.card(top) : '', turns: this.num(after.turns_left) }));
    for (const row of rowsEmptied(before, after)) text += ` ${words.fill(s.done.row, { row })}`;
    this.say(text);
    this.announceEnd(text);
  }

  // Won or stuck: say so, with what the player can do next.
  announceEnd(prefix = this.message.textContent) {
    const pos = this.position;
    const lead = prefix ? `${prefix} ` : '';
    if (pos.status === 'won') {
      this.say(lead + this.words.fill(this.s.messages.won, { points: this.num(pos.points), moves: this.num(pos.moves) }), 'won');
    } else if (pos.status === 'stuck') {
      this.say(lead + this.s.messages.stuck, 'stuck');
    }
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

  refuse(rule, details = {}) {
    const template = this.s.refused[rule] || this.s.refused.other;
    this.say(this.words.fill(template, details), 'refused');
  }

  // Undo takes back the last move; at the deal's start, the last Restart or New game.
  undo() {
    const { s, words } = this;
    if (this.game.moves.length > 0) {
      this.setGame(undoMove(this.game));
      return this.say(s.messages.undone);
    }
    const step = this.undoSteps[this.undoSteps.length - 1];
    if (!step) return this.refuse('moves.undo');
    const rest = this.undoSteps.slice(0, -1);
    if (step.moves) { // a Restart: the game as it was before it
      let game;
      try {
        game = replay(this.game.deal, step.moves);
      } catch { // saved by another version of the rules: nothing to go back to
        this.setGame(this.game, rest);
        return this.refuse('moves.undo');
      }
      this.setGame(game, rest);
      this.say(s.messages.restart_undone);
    } else { // a New game: back to the deal it came from, with its own saved game
      saveGame(this.game.deal, this.game.moves, rest);
      this.clearHash();
      this.openDeal(step.deal);
      this.say(words.fill(s.messages.new_game_undone, { deal: step.deal }));
    }
    this.announceEnd();
  }

  restart() {
    // The moves are set aside as a step Undo takes back; at the start there is nothing to keep.
    const steps = this.game.moves.length ? [...this.undoSteps, { moves: this.game.moves }] : this.undoSteps;
    this.setGame(newGame(this.game.deal), steps);
    this.say(this.words.fill(this.s.messages.restarted, { deal: this.game.deal }));
  }

  newRandomGame() {
    this.clearHash();
    const from = this.game.deal;
    const deal = this.randomDeal();
    if (deal === from) return this.restart(); // a pool of one deal: the same game, from its start
    // The new deal starts fresh; a game saved for it earlier is set aside, not lost (Undo).
    const saved = this.restore(deal);
    const steps = saved ? [...saved.undo, ...(saved.game.moves.length ? [{ moves: saved.game.moves }] : [])] : [];
    this.setGame(newGame(deal), [...steps, { deal: from }]);
    this.say(this.words.fill(this.s.messages.new_game, { deal }));
  }

  // Copies the deal's full link; where the clipboard is refused, the message shows the link.
  copyLink() {
    const { s, words } = this;
    const deal = this.game.deal;
    const link = `${window.location.href.split('#')[0]}#deal=${deal}`;
    const shown = () => this.say(words.fill(s.messages.link_shown, { deal, link }));
    try {
      navigator.clipboard.writeText(link).then(() => this.say(words.fill(s.messages.link_copied, { deal })), shown);
    } catch { // no clipboard here (an insecure page, an old browser)
      shown();
    }
  }

  // ------------------------------------------------------------ hint
  hint() {
    const pos = this.position;
    const { s, words } = this;
    if (pos.status === 'won') return this.say(s.hint.won);
    // "Undo some moves" only when there are moves to undo: at the start, a lost deal is lost as dealt.
    const lost = this.game.moves.length ? s.hint.lost : s.hint.lost_from_start;
    const quick = quickSuggestion(pos);
    if (!quick || (!this.game.moves.length && this.known.result(this.game.deal) === 'lost')) {
      this.setHint(null, 'lost'); // stuck, or known lost from the start: nothing to search
      return this.say(lost, 'stuck');
    }
    this.setHint(quick, 'searching');
    this.say(words.fill(s.hint.searching, { move: words.move(quick) }));
    this.hints.start(pos, (answer) => {
      if (answer.result === 'won' && answer.move) {
        this.setHint(answer.move, 'checked');
        this.say(words.fill(s.hint.checked, { move: words.move(answer.move) }));
      } else if (answer.result === 'lost') {
        this.setHint(null, 'lost');
        this.say(lost, 'stuck');
      } else {
        // Say why it is unchecked: a search that gave up is not a search that never started.
        const why = answer.result === 'unavailable' ? s.hint.unavailable : s.hint.unchecked;
        this.setHint(quick, 'unchecked');
        this.say(words.fill(why, { move: words.move(quick) }));
      }
    });
  }

  setHint(move, state) {
    const [kind, a, b] = move ? move.split(' ') : [];
    this.hinted = new Set(kind === 'draw' || kind === 'turn' ? ['stock'] : [a, b].filter(Boolean).map((c) => this.keyOf(c)));
    this.container.dataset.hint = state;
    this.render();
  }

  clearHint() {
    this.hints.cancel();
    this.hinted = new Set();
    delete this.container.dataset.hint;
  }
}

function mount(container) {
  if (container.dataset.mounted) return;
  const strings = readJson(container, 'pyramide-strings');
  if (!strings) return; // nothing to say things with: leave the <noscript>-less page as it is
  container.dataset.mounted = 'true';
  const pool = (readJson(container, 'pyramide-pool') || []).filter((n) => Number.isInteger(n) && n >= 1 && n <= MAX_DEAL);
  new Game(container, makeWords(strings), pool, new KnownDeals(readJson(container, 'pyramide-winnable')));
}

document.querySelectorAll('.pyramide-game').forEach(mount);
