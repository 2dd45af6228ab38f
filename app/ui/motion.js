// The board's motion: a drawn card slides from the stock to the waste, a removed card flies to
// the discard pile, a won game throws its cards up from the pile. Web Animations on transform and
// opacity only (nothing is laid out again while they run). One switch for all of it: none under
// `prefers-reduced-motion: reduce`, none when the player turned Animations off (the game's
// container carries data-still; game.css stops its own CSS motion by the same attribute).

export const motionAllowed = (node) =>
  !window.matchMedia('(prefers-reduced-motion: reduce)').matches && !node.closest('[data-still]');

const centre = (rect) => [rect.left + rect.width / 2, rect.top + rect.height / 2];

/** Slides `node` into its place from where `from` (an element) lies; `z` lifts it meanwhile. */
export function slideIn(node, from, { ms = 240, z = 30 } = {}) {
  if (!motionAllowed(node)) return null;
  const [ax, ay] = centre(from.getBoundingClientRect());
  const [bx, by] = centre(node.getBoundingClientRect());
  const zIndex = node.style.zIndex;
  node.style.zIndex = z; // over the top card it passes
  const run = node.animate([{ transform: `translate(${ax - bx}px, ${ay - by}px)` }, { transform: 'none' }],
    { duration: ms, easing: 'cubic-bezier(.2,.7,.3,1)' });
  run.finished.then(() => { node.style.zIndex = zIndex; }, () => { node.style.zIndex = zIndex; });
  return run;
}

/** Flies `node` (a copy of a card, already in the board) onto `to`, shrinking to its size, then removes it. */
export function flyAway(node, to, { ms = 320, delay = 0 } = {}) {
  const a = node.getBoundingClientRect();
  const b = to.getBoundingClientRect();
  const [ax, ay] = centre(a);
  const [bx, by] = centre(b);
  const scale = a.width ? b.width / a.width : 1;
  const run = node.animate([
    { transform: 'none', opacity: 1 },
    { transform: `translate(${(bx - ax) / 2}px, ${(by - ay) / 2 - a.height * .15}px) scale(${(1 + scale) / 2}) rotate(-6deg)`, opacity: 1 },
    { transform: `translate(${bx - ax}px, ${by - ay}px) scale(${scale})`, opacity: .2 },
  ], { duration: ms, delay, easing: 'ease-in', fill: 'backwards' });
  run.finished.then(() => node.remove(), () => node.remove());
  return run;
}

const SUITS = [['\u2660', 'black'], ['\u2665', 'red'], ['\u2666', 'red'], ['\u2663', 'black']];

/** A won game: cards rise from the discard pile in fountains and fall away over the board. */
export function celebrate(board, pile, { cards = 24, ms = 1600 } = {}) {
  if (!motionAllowed(board)) return [];
  const box = board.getBoundingClientRect();
  const from = pile.getBoundingClientRect();
  const runs = [];
  for (let i = 0; i < cards; i++) {
    const [suit, ink] = SUITS[i % 4];
    const card = document.createElement('div');
    card.className = `pyr-fountain ${ink}`;
    card.setAttribute('aria-hidden', 'true');
    card.textContent = suit;
    card.style.left = `${from.left - box.left + from.width / 4}px`;
    card.style.top = `${from.top - box.top}px`;
    board.append(card);
    // Each card leaves at its own angle and speed, up and to the left over the pyramid, then falls.
    const dx = -box.width * (0.15 + 0.8 * Math.random());
    const rise = -box.height * (0.15 + 0.35 * Math.random());
    const turn = (Math.random() - 0.5) * 720;
    const run = card.animate([
      { transform: 'translate(0, 0) rotate(0)', opacity: 0 },
      { transform: `translate(${dx * 0.5}px, ${rise}px) rotate(${turn / 2}deg)`, opacity: 1, offset: 0.45 },
      { transform: `translate(${dx}px, ${box.height * 0.9}px) rotate(${turn}deg)`, opacity: 0 },
    ], { duration: ms, delay: i * 22, easing: 'cubic-bezier(.3,.6,.6,1)', fill: 'backwards' });
    run.finished.then(() => card.remove(), () => card.remove());
    runs.push(run);
  }
  return runs;
}
