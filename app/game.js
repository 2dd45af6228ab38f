// The game on the page: finds every `.pyramide-game` container (see generator/game_embed.py),
// builds the board and the buttons, and plays what the player chooses through the engine.
// The engine decides every rule; this module only turns choices into moves and results into
// words.

import {
  newGame, playMove, undoMove, currentPosition, replay, parseDealNumber, RuleError,
  cardValue, compile, freeMask, ROWS, KING_VALUE, TARGET_SUM, TURNS_ALLOWED, MAX_DEAL, MIN_DEAL,
} from './engine.js';
import { createBoard, makeWords } from './board.js';
import { HintSearch, quickSuggestion } from './hint.js';
import { loadGame, saveGame, clearGame } from './storage.js';

const WORKER_URL = new URL('./worker.js', import.meta.url);
const DEAL_LINK = /^#deal=(.*)$/;

function readJson(container, cls) {
  try {
    return JSON.parse(container.querySelector(`script.${cls}`).textContent);
  } catch {
    return null;
  }
}

function element(tag, className, text) {
  const el = document.createElement(tag);
  if (className) el.className = className;
  if (text !== undefined) el.textContent = text;
  return el;
}

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

class Game {
  constructor(container, words, pool) {
    this.container = container;
    this.words = words;
    this.s = words.strings;
    this.numbers = numberFormat(this.s.lang || container.lang);
    this.pool = pool;
    this.game = null;
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
    this.dealLink = element('a', 'pyr-deal');
    this.dealLink.title = s.board.deal_link_title;
    status.append(this.score, this.dealLink);

    const help = element('p', 'pyr-help', s.board.help);
    help.id = `pyr-help-${Math.random().toString(36).slice(2, 8)}`;
    this.board = createBoard(container, this.words, { onActivate: (key) => this.activate(key) });
    this.board.el.setAttribute('aria-describedby', help.id);

    this.message = element('p', 'pyr-message');
    this.message.setAttribute('role', 'status');
    this.message.setAttribute('aria-live', 'polite');

    const buttons = element('div', 'pyr-buttons');
    const button = (name, action) => {
      const b = element('button', `pyr-button pyr-${name}`, s.buttons[name.replace('-', '_')]);
      b.type = 'button';
      b.addEventListener('click', action);
      buttons.append(b);
      return b;
    };
    this.undoButton = button('undo', () => this.undo());
    button('hint', () => this.hint());
    button('restart', () => this.restart());
    button('new-game', () => this.newRandomGame());

    container.prepend(status);
    container.append(this.message, buttons, help);
    container.addEventListener('keydown', (event) => this.key(event));
    window.addEventListener('hashchange', () => {
      const link = this.dealFromHash();
      if (link !== null) this.openLink(link);
    });
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
    this.dealLink.textContent = this.words.fill(this.s.board.deal, { deal: this.game.deal });
    this.dealLink.href = `#deal=${this.game.deal}`;
    this.undoButton.setAttribute('aria-disabled', String(this.game.moves.length === 0));
    this.container.dataset.status = pos.status;
  }

  // A new game object (start, restart, undo, a move): drop the selection and any running hint.
  setGame(game) {
    this.game = game;
    this.selected = null;
    this.clearHint();
    saveGame(game.deal, game.moves);
    this.render();
  }

  // ------------------------------------------------------------ starting
  start() {
    const link = this.dealFromHash();
    if (link !== null) return this.openLink(link);
    const saved = this.restore();
    if (saved) {
      this.setGame(saved);
      this.say(this.s.messages.restored);
      this.announceEnd();
    } else {
      this.setGame(newGame(this.randomDeal()));
      this.say(this.words.fill(this.s.messages.ready, { target: this.num(TARGET_SUM) }));
    }
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

  // A deal link: any deal number, in the pool or not; progress saved for that deal is kept.
  openLink(value) {
    let deal;
    try {
      deal = parseDealNumber(value);
    } catch {
      this.clearHash();
      this.setGame(newGame(this.randomDeal()));
      this.say(this.words.fill(this.s.messages.bad_deal, { value, min: this.num(MIN_DEAL), max: this.num(MAX_DEAL) }), 'refused');
      return;
    }
    if (this.game && this.game.deal === deal) return;
    const saved = this.restore(deal);
    this.setGame(saved || newGame(deal));
    this.say(this.words.fill(saved ? this.s.messages.restored : this.s.messages.from_link, { deal }));
    if (saved) this.announceEnd();
  }

  // The saved game, replayed move by move through the engine; anything unusable is dropped.
  restore(onlyDeal = null) {
    const data = loadGame();
    if (!data || (onlyDeal !== null && data.deal !== onlyDeal)) return null;
    try {
      return replay(data.deal, data.moves);
    } catch {
      clearGame();
      return null;
    }
  }

  randomDeal() {
    const others = this.pool.filter((n) => !this.game || n !== this.game.deal);
    const choices = others.length ? others : this.pool;
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
    if (!this.isAvailable(key)) return this.refuse('free.covered', { card: this.words.card(code) });
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

  undo() {
    if (this.game.moves.length === 0) return this.refuse('moves.undo');
    this.setGame(undoMove(this.game));
    this.say(this.s.messages.undone);
  }

  restart() {
    this.setGame(newGame(this.game.deal));
    this.say(this.words.fill(this.s.messages.restarted, { deal: this.game.deal }));
  }

  newRandomGame() {
    this.clearHash();
    this.setGame(newGame(this.randomDeal()));
    this.say(this.words.fill(this.s.messages.new_game, { deal: this.game.deal }));
  }

  // ------------------------------------------------------------ hint
  hint() {
    const pos = this.position;
    const { s, words } = this;
    if (pos.status === 'won') return this.say(s.hint.won);
    const quick = quickSuggestion(pos);
    if (!quick) { // stuck: nothing to search
      this.setHint(null, 'lost');
      return this.say(s.hint.lost, 'stuck');
    }
    this.setHint(quick, 'searching');
    this.say(words.fill(s.hint.searching, { move: words.move(quick) }));
    this.hints.start(pos, (answer) => {
      if (answer.result === 'won' && answer.move) {
        this.setHint(answer.move, 'checked');
        this.say(words.fill(s.hint.checked, { move: words.move(answer.move) }));
      } else if (answer.result === 'lost') {
        this.setHint(null, 'lost');
        this.say(s.hint.lost, 'stuck');
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
  new Game(container, makeWords(strings), pool);
}

document.querySelectorAll('.pyramide-game').forEach(mount);
