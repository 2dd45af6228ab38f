// The rules in action: a shown game, step by step, on the game's own board (read only).
// `mount` replays a `.pyramide-replay` container's moves (see generator/render/game_embed.py) through
// the engine and builds the stepper around the static pictures already on the page: each
// chapter's picture becomes the frame shown at that chapter's step (nothing sent is thrown
// away), and the board draws the steps in between, made the first time one is shown. Loaded by
// the page's <script type="module">, the module mounts every such container once the page has
// loaded, long before a reader has scrolled down to it: the pictures give way to one frame
// while no one is looking there, and the page never grows shorter under a reader's eyes.

import { replay } from '../core/engine.js';
import { createBoard, makeWords } from './board.js';
import { readJson, element, button, onceContentLoaded } from './dom.js';

const STEP_MS = 1400;

// The static pictures as frames: step (move_index) → that chapter's <figure>. Used only when
// there is one figure per chapter, in order, as generator/render/pages.py writes them; otherwise the
// board draws every step and the pictures stay where they are.
function chapterFrames(container, chapters) {
  const figures = [...container.querySelectorAll('.pyramide-replay-fallback figure')];
  if (figures.length === 0 || figures.length !== chapters.length) return new Map();
  return new Map(chapters.map((chapter, i) => [chapter.move_index, figures[i]]));
}

class Replay {
  constructor(container, words, data) {
    this.words = words;
    this.s = words.strings.replay;
    this.data = data;
    this.total = data.moves.length; // the last step's number: one step per move after the opening
    this.positionsMade = null; // every step's position, worked out when a step needs one
    this.frames = chapterFrames(container, data.chapters);
    this.places = new Map(); // a frame moved into the stage → a mark where it lay in the fallback
    this.step = 0;
    this.timer = null;
    this.container = container;
    this.build(container);
    this.show(0);
    // On paper the replay is its fallback again (site.css prints it in the player's place): every
    // chapter's title and picture in order, so each frame goes back to its place until printed.
    window.addEventListener('beforeprint', () => this.toPaper());
    window.addEventListener('afterprint', () => this.show(this.step));
  }

  toPaper() {
    for (const [frame, mark] of this.places) {
      frame.classList.remove('pyr-frame');
      frame.hidden = false;
      mark.after(frame);
    }
  }

  build(container) {
    const { s, words } = this;
    const box = element('div', 'pyr-replay');
    box.setAttribute('role', 'region');
    box.setAttribute('aria-label', words.fill(s.label, { deal: this.data.deal }));

    const chapters = element('ul', 'pyr-chapters');
    chapters.setAttribute('aria-label', s.chapters);
    this.chapterButtons = this.data.chapters.map((chapter) => {
      const li = element('li');
      const b = button('pyr-button pyr-chapter', chapter.title, () => this.go(chapter.move_index));
      li.append(b);
      chapters.append(li);
      return b;
    });

    this.caption = element('p', 'pyr-replay-caption');
    this.caption.setAttribute('aria-live', 'polite');

    const stage = element('div', 'pyr-replay-stage');
    stage.tabIndex = 0; // a place to stand for the arrow keys and space
    const help = element('p', 'pyr-help', s.help);
    help.id = `pyr-replay-help-${Math.random().toString(36).slice(2, 8)}`;
    stage.setAttribute('aria-describedby', help.id);
    this.stage = stage;
    this.boardMade = null; // the board, made when a step that no picture shows is first shown

    const controls = element('div', 'pyr-replay-controls');
    this.prevButton = button('pyr-button pyr-previous', s.previous, () => this.go(this.step - 1));
    this.playButton = button('pyr-button pyr-play', s.play, () => this.toggle());
    this.nextButton = button('pyr-button pyr-next', s.next, () => this.go(this.step + 1));
    controls.append(this.prevButton, this.playButton, this.nextButton);

    box.append(chapters, this.caption, stage, controls, help);
    this.box = box;
    box.addEventListener('keydown', (event) => this.key(event));
    // The fallback steps aside: its chapter titles are now the chapter buttons, and its pictures
    // wait there until their step is first shown (show). Pictures that are no frames stay visible.
    const fallback = container.querySelector('.pyramide-replay-fallback');
    if (fallback && (this.frames.size > 0 || !fallback.querySelector('figure'))) fallback.hidden = true;
    container.append(box);
  }

  // Every step's position, the engine's replay of the moves, worked out the first time a step
  // needs one: the opening is a picture, and the replay is most of the mounting's script (15 ms
  // cold here, some four times that on a phone) for readers who may never take a step.
  get positions() {
    this.positionsMade ??= replay(this.data.deal, this.data.moves).positions;
    return this.positionsMade;
  }

  // The static pictures back as the page sent them, for good: the engine refused the game (the
  // checker replays every shown move before a page is published, so only a broken build gets here).
  giveUp() {
    this.stop();
    this.toPaper();
    this.box.remove();
    const fallback = this.container.querySelector('.pyramide-replay-fallback');
    if (fallback) fallback.hidden = false;
    this.broken = true;
  }

  // The board that draws the steps between the pictures; made on first use, since the opening
  // step is a picture and most readers only look at the pictures (it is the bulk of the mounting).
  get board() {
    this.boardMade ??= createBoard(this.stage, this.words, { interactive: false });
    return this.boardMade;
  }

  key(event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const onButton = event.target.closest('button');
    const actions = {
      ArrowLeft: () => this.go(this.step - 1),
      ArrowRight: () => this.go(this.step + 1),
      Home: () => this.go(0),
      End: () => this.go(this.total),
      ' ': onButton ? null : () => this.toggle(), // on a button, space presses that button
    };
    const action = actions[event.key];
    if (!action) return;
    event.preventDefault();
    if (event.key !== ' ') this.stop();
    action();
  }

  go(step) {
    if (step < 0 || step > this.total) return;
    if (this.timer && step !== this.step + 1) this.stop(); // a jump ends the playing
    this.show(step);
  }

  show(step) {
    if (this.broken) return;
    try {
      this.draw(step);
    } catch {
      this.giveUp();
    }
  }

  draw(step) {
    const { words, s, total } = this;
    const move = step > 0 ? this.data.moves[step - 1] : null;
    // The cards the move took away, drawn as ghosts where they were.
    const [kind, ...cards] = move ? move.split(' ') : [];
    const ghosts = new Set(kind === 'pair' || kind === 'king' ? cards : []);
    // A chapter's step shows its picture (the same position, drawn by the build) instead of
    // the board, which then need not draw at all. Each picture moves into the stage the first
    // time its step is shown (moved, not copied: it keeps its title and description); until then
    // it waits in the hidden fallback, so that the mounting, done while the page loads, moves one
    // picture and not seven.
    const frame = this.frames.get(step);
    const position = frame && !move ? null : this.positions[step]; // the opening's picture needs none
    if (frame && frame.parentNode !== this.stage) {
      if (!this.places.has(frame)) this.places.set(frame, frame.parentNode.insertBefore(document.createComment(''), frame));
      frame.classList.add('pyr-frame');
      this.stage.append(frame);
    }
    if (!frame) this.board.render(position, { ghosts, before: step > 0 ? this.positions[step - 1] : null });
    if (this.boardMade) this.boardMade.el.hidden = Boolean(frame);
    for (const figure of this.stage.querySelectorAll(':scope > .pyr-frame')) figure.hidden = figure !== frame;
    if (move) {
      const top = position.waste[position.waste.length - 1];
      const said = words.cap(words.done(move, { card: top ? words.card(top) : '', turns: position.turns_left }));
      this.caption.textContent = words.fill(s.step, { step, total, move: said });
    } else {
      this.caption.textContent = s.start;
    }
    this.step = step;
    this.prevButton.setAttribute('aria-disabled', String(step === 0));
    this.nextButton.setAttribute('aria-disabled', String(step === total));
    let current = -1;
    this.data.chapters.forEach((chapter, i) => { if (chapter.move_index <= step) current = i; });
    this.chapterButtons.forEach((b, i) => {
      if (i === current) b.setAttribute('aria-current', 'step');
      else b.removeAttribute('aria-current');
    });
  }

  toggle() {
    if (this.timer) return this.stop();
    if (this.step >= this.total) this.show(0);
    this.playButton.textContent = this.s.pause;
    this.playButton.setAttribute('aria-pressed', 'true');
    const tick = () => {
      if (this.step >= this.total) return this.stop();
      this.show(this.step + 1);
      this.timer = setTimeout(tick, STEP_MS);
    };
    this.timer = setTimeout(tick, STEP_MS);
  }

  stop() {
    clearTimeout(this.timer);
    this.timer = null;
    this.playButton.textContent = this.s.play;
    this.playButton.setAttribute('aria-pressed', 'false');
  }
}

/** Builds the replay in `container`, a `.pyramide-replay`, from the data it carries; once. */
export function mount(container) {
  if (container.dataset.mounted) return;
  const strings = readJson(container, 'pyramide-strings');
  const data = readJson(container, 'pyramide-replay-data');
  if (!strings || !data || !Array.isArray(data.moves) || !Array.isArray(data.chapters)) return;
  container.dataset.mounted = 'true';
  new Replay(container, makeWords(strings), data);
}

// When the page loads (its <script type="module">): every replay on it, in a task of its own
// after the page's DOMContentLoaded work (the game is drawn by then: it mounts as its module runs).
onceContentLoaded(() => document.querySelectorAll('.pyramide-replay').forEach((container) => mount(container)));
