// The board's motion: a drawn card slides from the stock to the waste, a removed card flies to
// the discard pile, a won game throws its cards up from the pile. Web Animations on transform and
// opacity only (nothing is laid out again while they run). One switch for all of it: none under
// `prefers-reduced-motion: reduce`, none when the player turned Animations off (the game's
// container carries data-still; game.css stops its own CSS motion by the same attribute).

export const motionAllowed = (node) =>
  !window.matchMedia('(prefers-reduced-motion: reduce)').matches && !node.closest('[data-still]');

// Distances come from the board's drawing (percent of the element, or the board's cqw): reading
// the layout here would lay the move's changes out twice.

/** Slides `node` into its place from `[x, y]` away (percent of its own width and height); `z` lifts it meanwhile. */
export function slideIn(node, [x, y], { ms = 240, z = 30 } = {}) {
  if (!motionAllowed(node)) return null;
  const zIndex = node.style.zIndex;
  node.style.zIndex = z; // over the top card it passes
  const run = node.animate([{ transform: `translate(${x}%, ${y}%)` }, { transform: 'none' }],
    { duration: ms, easing: 'cubic-bezier(.2,.7,.3,1)' });
  run.finished.then(() => { node.style.zIndex = zIndex; }, () => { node.style.zIndex = zIndex; });
  return run;
}

/** Flies `node` (a copy of a card, already in the board) `[x, y]` away (percent of its own size),
 * shrinking to `scale`, then removes it. */
export function flyAway(node, [x, y], scale, { ms = 320, delay = 0 } = {}) {
  const run = node.animate([
    { transform: 'none', opacity: 1 },
    { transform: `translate(${x / 2}%, ${y / 2 - 15}%) scale(${(1 + scale) / 2}) rotate(-6deg)`, opacity: 1 },
    { transform: `translate(${x}%, ${y}%) scale(${scale})`, opacity: .2 },
  ], { duration: ms, delay, easing: 'ease-in', fill: 'backwards' });
  run.finished.then(() => node.remove(), () => node.remove());
  return run;
}

const SUITS = [['\u2660', 'black'], ['\u2665', 'red'], ['\u2666', 'red'], ['\u2663', 'black']];

/** A won game: cards rise from `[left, top]` (the discard pile, percent of the board's width and
 * height) in fountains and fall away over the board, whose height is `tall` times its width. */
export function celebrate(board, [left, top], tall, { cards = 24, ms = 1600 } = {}) {
  if (!motionAllowed(board)) return [];
  const runs = [];
  for (let i = 0; i < cards; i++) {
    const [suit, ink] = SUITS[i % 4];
    const card = document.createElement('div');
    card.className = `pyr-fountain ${ink}`;
    card.setAttribute('aria-hidden', 'true');
    card.textContent = suit;
    card.style.left = `${left}%`;
    card.style.top = `${top}%`;
    board.append(card);
    // Each card leaves at its own angle and speed, up and to the left over the pyramid, then falls
    // (cqw: percent of the board's width, game.css makes the board their container).
    const dx = -(15 + 80 * Math.random());
    const rise = -tall * (15 + 35 * Math.random());
    const turn = (Math.random() - 0.5) * 720;
    const run = card.animate([
      { transform: 'translate(0, 0) rotate(0)', opacity: 0 },
      { transform: `translate(${dx * 0.5}cqw, ${rise}cqw) rotate(${turn / 2}deg)`, opacity: 1, offset: 0.45 },
      { transform: `translate(${dx}cqw, ${tall * 90}cqw) rotate(${turn}deg)`, opacity: 0 },
    ], { duration: ms, delay: i * 22, easing: 'cubic-bezier(.3,.6,.6,1)', fill: 'backwards' });
    run.finished.then(() => card.remove(), () => card.remove());
    runs.push(run);
  }
  return runs;
}
