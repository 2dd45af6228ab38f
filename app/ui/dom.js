// Making the page's elements, shared by the game (game.js), its board (board.js) and the replay
// (replay.js). Nothing here runs on import, so Node can load the modules that use it (the tests
// draw cards with board.js there, without a DOM).

/** The JSON data of a `script.<cls>` inside `container` (generator/render/game_embed.py), or null when
 * it is missing or not JSON. */
export function readJson(container, cls) {
  try {
    return JSON.parse(container.querySelector(`script.${cls}`).textContent);
  } catch {
    return null;
  }
}

/** A new `<tag>` with these classes and text (either may be left out). */
export function element(tag, className, text) {
  const el = document.createElement(tag);
  if (className) el.className = className;
  if (text !== undefined) el.textContent = text;
  return el;
}

/** Writes `text` only when it differs: a write is laid out again, and every move redraws every line. */
export function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}

/** Sets an attribute only when it differs: a write, same value or not, restyles all below
 * where a rule names the attribute (`.pyramide-game[data-status] …`). */
export function setAttr(el, name, value) {
  if (el.getAttribute(name) !== value) el.setAttribute(name, value);
}

/** Runs `work` in a task after the input's: Chromium draws a frame in a tap's task, and a move's
 * script there made one long task of both. All that changes the game goes so, in input order. */
export const afterInput = (work) => setTimeout(work);

/** Runs `work` in a task after the next frame (a focus lays the page out at once). */
export const afterFrame = (work) => requestAnimationFrame(() => setTimeout(work));

/** A button that changes the game: its action in a task after the click. */
export const gameButton = (className, text, action) => button(className, text, () => afterInput(action));

/** A `<button type="button">` (it acts, it submits nothing) that calls `action` when pressed. */
export function button(className, text, action) {
  const b = element('button', className, text);
  b.type = 'button';
  b.addEventListener('click', action);
  return b;
}

/** Calls `work` in a task of its own after the page's DOMContentLoaded listeners have run (the
 * theme's among them), or at once in a new task when they already have: a module's mounting is
 * then a task apart from the theme's work, each shorter than both together. */
export function onceContentLoaded(work) {
  const later = () => setTimeout(work);
  const [navigation] = performance.getEntriesByType('navigation');
  if (navigation && navigation.domContentLoadedEventEnd > 0) later();
  else document.addEventListener('DOMContentLoaded', later, { once: true });
}
