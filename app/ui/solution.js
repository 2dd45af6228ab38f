// "Show the solution" (issue 28): the exact solver (solver.js), run in a Web Worker on the
// position the player is at, under the game's rules; then the answer stepped through on the
// board. The worker's op 'solve' (worker.js) reports progress and stops at a time limit; the
// page stops it sooner by terminating it, since a running search reads no messages. So the
// page never waits on the search, and a stopped search proves nothing (it says so).
//
// What it shows: when the position can be won, the shortest game that wins from it (no win is
// shorter); when it cannot, the most pyramid cards that can still be removed and the shortest
// game that removes that many. Both are exact: the solver has gone through every way on.
//
// The view lives beside the game (game.js) and draws through it: while a solution is shown,
// Game.render draws shownPosition() instead of the game's own position, and the game itself
// is untouched until the player takes over (the game then becomes the solution's, up to that
// step, saved like any other moves) or closes the view (the game is as it was).

import { currentPosition, playMove, placeOf } from '../core/engine.js';
import { element, gameButton } from './dom.js';
import { newGameId } from '../core/stats.js';

const MAX_MILLIS = 60_000; // beyond a minute the player is told the search gave up
const PLAY_EVERY_MS = 900; // one move shown per this long when playing
const PROGRESS_EVERY_MS = 500; // the progress line is redrawn at most this often

export class SolutionView {
  // `showButton`: the button that asks for the solution, made with the others from the table of
  // commands (app/ui/commands.js: it calls ask()); the view draws its aria-pressed.
  constructor(game, workerUrl, showButton) {
    this.game = game;
    this.workerUrl = workerUrl;
    this.button = showButton;
    this.worker = null;
    this.nextId = 0;
    this.phase = 'closed'; // 'closed', 'searching', 'shown'
    this.steps = []; // the engine's games along the solution: steps[0] the player's, steps[i] after i moves
    this.at = 0;
    this.timer = 0;
    this.build();
  }

  get s() {
    return this.game.s.solution;
  }

  get open() {
    return this.phase !== 'closed';
  }

  get shown() {
    return this.phase === 'shown';
  }

  /** The position the board shows while a solution is stepped through, else null. */
  shownPosition() {
    return this.shown ? currentPosition(this.steps[this.at]) : null;
  }

  build() {
    const { s } = this;
    const r = this.game.s.replay;
    this.el = element('section', 'pyr-solution-panel');
    this.el.hidden = true;
    this.el.setAttribute('aria-label', s.label);
    this.progress = element('p', 'pyr-solution-progress');
    this.proofLine = element('p', 'pyr-solution-proof'); // what was proved, kept in view while stepping
    this.stopButton = gameButton('pyr-button pyr-solution-stop', s.stop, () => this.stop());
    // The step controls stand in for the game's four buttons right under the board (game.js puts
    // them there; game.css hides the four while stepping), so the board and they are seen together.
    this.controls = element('div', 'pyr-buttons pyr-solution-controls');
    this.controls.hidden = true;
    this.previousButton = gameButton('pyr-button pyr-solution-previous', r.previous, () => this.go(this.at - 1));
    this.nextButton = gameButton('pyr-button pyr-solution-next', r.next, () => this.go(this.at + 1));
    this.playButton = gameButton('pyr-button pyr-solution-play', r.play, () => this.togglePlay());
    this.takeOverButton = gameButton('pyr-button pyr-solution-take-over', s.take_over, () => this.takeOver());
    this.closeButton = gameButton('pyr-button pyr-solution-close', s.close, () => this.close());
    this.controls.append(this.previousButton, this.nextButton, this.playButton, this.takeOverButton, this.closeButton);
    this.list = element('ol', 'pyr-solution-moves');
    this.el.append(this.progress, this.proofLine, this.stopButton, this.list);
  }

  // ------------------------------------------------------------ the search
  ask() {
    const { game, s } = this;
    this.close({ quiet: true });
    const position = game.position;
    if (position.status === 'won') return game.update({ message: game.message(s.won_already) });
    const from = game.state.game;
    const id = ++this.nextId;
    this.phase = 'searching';
    this.steps = [from];
    this.at = 0;
    this.drawPanel();
    this.progress.textContent = this.game.words.fill(s.searching, { positions: game.words.count('positions', 0) });
    let shownAt = 0;
    try {
      if (!this.worker) {
        this.worker = new Worker(this.workerUrl, { type: 'module' });
        this.worker.onerror = (event) => {
          event.preventDefault();
          this.stopWorker();
          if (this.phase === 'searching') this.finish(s.unavailable);
        };
      }
      this.worker.onmessage = ({ data }) => {
        if (data.id !== id || this.phase !== 'searching') return;
        if (data.progress) {
          if (Date.now() - shownAt < PROGRESS_EVERY_MS) return;
          shownAt = Date.now();
          this.progress.textContent = this.game.words.fill(s.searching, { positions: game.words.count('positions', data.progress.positions) });
          return;
        }
        this.answered(from, data);
      };
      this.worker.postMessage({ id, op: 'solve', position, rules: from.rules || {}, maxMillis: MAX_MILLIS });
    } catch {
      this.stopWorker();
      this.finish(s.unavailable);
    }
    if (this.phase === 'searching') game.update({ message: game.message(this.progress.textContent) });
  }

  // The worker's answer: a proof (won, or lost with the most that can be removed), or none.
  answered(from, data) {
    const { game, s } = this;
    const answer = data.solution;
    if (!answer) return this.finish(s.unavailable);
    const positions = game.words.count('positions', answer.positions);
    if (!answer.complete) return this.finish(game.words.fill(s.gave_up, { positions }));
    let steps = [from];
    try {
      for (const move of answer.game) steps.push(playMove(steps[steps.length - 1], move));
    } catch { // the engine refused the solver's move: never shown as a solution
      return this.finish(s.unavailable);
    }
    const left = currentPosition(from).pyramid.filter(Boolean).length;
    const moves = game.words.count('moves', answer.game.length);
    let text;
    if (answer.winnable) text = game.words.fill(s.winnable, { moves, positions });
    else if (answer.max_removed > 0) text = game.words.fill(s.lost, { moves, positions, count: left, removed: game.num(answer.max_removed) });
    else text = game.words.fill(s.lost_none, { count: left });
    this.phase = 'shown';
    this.steps = steps;
    this.at = 0;
    this.proof = text;
    this.proofLine.textContent = text;
    this.container().dataset.solution = answer.winnable ? 'winnable' : 'lost';
    this.container().dataset.solutionMoves = String(answer.game.length);
    this.drawList(answer.game);
    this.drawPanel();
    // The board and the step controls in view together (where G takes the reader), the keyboard on Next.
    this.container().scrollIntoView({ block: 'start', behavior: 'instant' });
    (steps.length > 1 ? this.nextButton : this.closeButton).focus({ preventScroll: true });
    game.update({ message: game.message(steps.length > 1 ? this.stepText() : text, answer.winnable ? 'info' : 'stuck') });
  }

  // The search ended without a solution to show: `text` says why; the view closes.
  finish(text) {
    this.phase = 'closed';
    this.drawPanel();
    this.game.update({ message: this.game.message(text, 'stuck') });
  }

  /** Stops the search (the worker is ended: a running search reads no messages). */
  stop() {
    if (this.phase !== 'searching') return;
    this.stopWorker();
    this.finish(this.s.stopped);
  }

  stopWorker() {
    if (this.worker) this.worker.terminate();
    this.worker = null;
  }

  // ------------------------------------------------------------ stepping
  go(at) {
    if (!this.shown) return;
    const last = this.steps.length - 1;
    this.at = Math.max(0, Math.min(last, at));
    if (this.at === last) this.pause();
    this.drawPanel();
    this.game.update({ message: this.game.message(this.stepText()) });
  }

  // The step in words: the move that led to it (at the start, what was proved and how many there
  // are: the proof is said here, and in the panel only from the first step on) and the next move,
  // whose cards the board marks.
  stepText() {
    const { game, s, at } = this;
    const last = this.steps.length - 1;
    const next = this.nextMove();
    const text = at === 0 ? `${this.proof} ${game.words.fill(s.start, { total: game.words.count('moves', last) })}`
      : game.words.fill(s.step, { step: game.num(at), total: game.num(last), move: game.words.move(this.steps[at].moves.at(-1)) });
    return next ? `${text} ${game.words.fill(s.next, { move: game.words.move(next) })}` : text;
  }

  nextMove() {
    return this.shown && this.at < this.steps.length - 1 ? this.steps[this.at + 1].moves.at(-1) : null;
  }

  /** The places of the next move's cards on the step shown (the stock for a draw or a turn): the
   * board marks them as it marks a hint. */
  marked() {
    const move = this.nextMove();
    if (!move) return new Set();
    const [kind, ...cards] = move.split(' ');
    if (kind === 'draw' || kind === 'turn') return new Set(['stock']);
    const step = this.steps[this.at];
    return new Set(cards.map((code) => placeOf(currentPosition(step), code, step.rules)).filter(Boolean));
  }

  togglePlay() {
    if (this.timer) return this.pause();
    if (this.at >= this.steps.length - 1) this.at = 0;
    this.timer = setInterval(() => this.go(this.at + 1), PLAY_EVERY_MS);
    this.go(this.at + 1);
  }

  pause() {
    clearInterval(this.timer);
    this.timer = 0;
    this.drawPanel();
  }

  // Is there play left at the step shown? At a finished step (the solution's last, won, or stuck)
  // there is nothing to play on: a game taken over there would end with no move of the player's,
  // never counted (game-end.js counts an end when a move makes it).
  canTakeOver() {
    return this.shown && currentPosition(this.steps[this.at]).status === 'playing';
  }

  /** The player plays on from the step shown: the game becomes the solution's up to there. Returns
   * whether it did; at a finished step it does not, and says so. */
  takeOver() {
    if (!this.shown) return false;
    if (!this.canTakeOver()) {
      this.game.update({ message: this.game.message(this.s.take_over_end, 'refused') });
      return false;
    }
    const game = this.steps[this.at];
    const step = this.at;
    this.close({ quiet: true });
    // Each move taken from the solution is a move shown, as a hint shows one: counted as a hint.
    const meta = this.game.state.meta ?? (step ? { id: newGameId(), hints: 0, ms: 0, daily: null } : null);
    const text = this.game.words.fill(this.s.taken_over, { step: this.game.num(step) });
    this.game.update({ game, meta: meta && { ...meta, hints: meta.hints + step },
      message: this.game.message(step ? `${text} ${this.s.counted}` : text) }, { save: true });
    return true;
  }

  /** Closes the view: the search stopped, the board back at the game's own position. */
  close({ quiet = false } = {}) {
    if (!this.open) return;
    if (this.phase === 'searching') this.stopWorker();
    this.pause();
    this.phase = 'closed';
    this.drawPanel();
    if (!quiet) this.game.update({ message: this.game.message(this.s.closed) });
  }

  // ------------------------------------------------------------ drawing
  container() {
    return this.game.container;
  }

  drawList(moves) {
    const { game } = this;
    this.list.replaceChildren(...moves.map((move, i) => {
      const item = element('li');
      item.dataset.move = move; // the move in notation, for whoever checks the answer (the tests)
      item.append(gameButton('pyr-solution-move', game.words.cap(game.words.move(move)), () => this.go(i + 1)));
      return item;
    }));
  }

  drawPanel() {
    const { phase } = this;
    this.el.hidden = phase === 'closed';
    this.el.dataset.phase = phase;
    if (phase === 'closed') {
      delete this.container().dataset.solution;
      delete this.container().dataset.solutionMoves;
      delete this.container().dataset.solutionStep;
    }
    this.progress.hidden = phase !== 'searching';
    this.proofLine.hidden = phase !== 'shown' || this.at === 0; // at the start the message says it
    this.stopButton.hidden = phase !== 'searching';
    const stepping = phase === 'shown' && this.steps.length > 1;
    this.list.hidden = !stepping;
    this.controls.hidden = phase !== 'shown';
    this.container().toggleAttribute('data-solution-shown', phase === 'shown');
    for (const control of [this.previousButton, this.nextButton, this.playButton, this.takeOverButton]) control.hidden = !stepping;
    this.button.setAttribute('aria-pressed', String(phase !== 'closed'));
    if (phase !== 'shown') return;
    const last = this.steps.length - 1;
    this.container().dataset.solutionStep = String(this.at);
    this.previousButton.setAttribute('aria-disabled', String(this.at === 0));
    this.nextButton.setAttribute('aria-disabled', String(this.at === last));
    this.takeOverButton.setAttribute('aria-disabled', String(!this.canTakeOver()));
    this.playButton.textContent = this.timer ? this.game.s.replay.pause : this.game.s.replay.play;
    this.playButton.setAttribute('aria-pressed', String(!!this.timer));
    [...this.list.children].forEach((item, i) => {
      if (i + 1 !== this.at) return item.removeAttribute('aria-current');
      item.setAttribute('aria-current', 'step');
      // The current move in view inside the list, without scrolling the page.
      const top = item.offsetTop - this.list.offsetTop;
      if (top < this.list.scrollTop || top + item.offsetHeight > this.list.scrollTop + this.list.clientHeight) {
        this.list.scrollTop = top - this.list.clientHeight / 2;
      }
    });
  }
}
