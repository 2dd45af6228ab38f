// The game's commands, one table: what each button and key does. The buttons under the board, their
// order, their aria-disabled state and the keyboard's keys are all made from it (makeButtons,
// drawButtons, commandForKey); a new button is one entry here and its words in docs/<lang>/game.json.
//
// An entry:
//   id       the button's class (`pyr-button pyr-<id>`); for a command without a button, its name
//   words    the strings key of the button's label ('buttons.undo' is strings.buttons.undo); none: no button
//   more     the button goes in the smaller row under the message (the four of every game, without it,
//            sit right under the board, so that board, buttons and message are seen together)
//   values   (game) → the values filled into the label, redrawn with the game (the date of the daily deal)
//   shown    (game) → whether the page has the button at all (made once; default: it has)
//   keys     the key bindings: {key, ctrl, shift, page}. key is event.key lower-cased; ctrl (Ctrl or ⌘)
//            must be as given (default: not held); shift when given must be as given, else either;
//            Alt is never held. page: the key works anywhere on the page, not only in the game, and
//            never while typing in a field
//   run      (game, event) → the action
//   enabled  (game) → false draws the button aria-disabled (pressed anyway, the action says why not)
//   when     (game) → whether the command's keys are taken now; when not, the key is left to others
//
// Key order: the first entry whose binding matches (and whose `when` holds) takes the key.

import { gameButton, setAttr, setText } from './dom.js';

export const COMMANDS = [
  {
    id: 'undo', words: 'buttons.undo', run: (g) => g.undo(), enabled: (g) => g.canUndo(),
    keys: [{ key: 'z', ctrl: true, shift: false }, { key: 'u' }],
  },
  { id: 'hint', words: 'buttons.hint', run: (g) => g.hint(), keys: [{ key: 'h' }] },
  { id: 'restart', words: 'buttons.restart', run: (g) => g.restart(), keys: [{ key: 'r' }] },
  { id: 'new-game', words: 'buttons.new_game', run: (g) => g.newRandomGame(), keys: [{ key: 'n' }] },
  {
    id: 'redo', words: 'redo.redo', more: true, run: (g) => g.redo(), enabled: (g) => g.state.redo.length > 0,
    keys: [{ key: 'y', ctrl: true }, { key: 'z', ctrl: true, shift: true }, { key: 'y', shift: false }],
  },
  {
    id: 'redo-all', words: 'redo.redo_all', more: true, run: (g) => g.redoAll(), enabled: (g) => g.state.redo.length > 0,
    keys: [{ key: 'y', shift: true }],
  },
  {
    id: 'daily', words: 'daily.open', more: true, values: (g) => ({ date: g.date(g.today) }), shown: (g) => g.pool.length > 0,
    run: (g) => g.openDaily(),
  },
  { id: 'solution', words: 'buttons.solution', more: true, run: (g) => g.solution.ask() },
  // Keys without a button.
  { id: 'draw', run: (g) => g.draw(), keys: [{ key: 'd' }] },
  { id: 'close-solution', run: (g) => g.solution.close(), when: (g) => g.solution.open, keys: [{ key: 'escape' }] },
  { id: 'close-end', run: (g) => g.closeEndPanel(), when: (g) => g.endPanel.open, keys: [{ key: 'escape' }] },
  { id: 'deselect', run: (g) => g.deselect(), when: (g) => !!g.state.selected, keys: [{ key: 'escape' }] },
  { id: 'enter', run: (g) => g.enter(), keys: [{ key: 'g', page: true }] },
];

// The strings at `path` ('buttons.undo') of the game's strings.
function wordsAt(strings, path) {
  return path.split('.').reduce((at, name) => at[name], strings);
}

function label(game, command) {
  const text = wordsAt(game.s, command.words);
  return command.values ? game.words.fill(text, command.values(game)) : text;
}

/** The buttons of the table, in its order: a Map id → <button>, each as dom.js button() makes it
    (its `dataset.more` set for a button of the row under the message). */
export function makeButtons(game, commands = COMMANDS) {
  const made = new Map();
  for (const command of commands) {
    if (!command.words || (command.shown && !command.shown(game))) continue;
    const made_button = gameButton(`pyr-button pyr-${command.id}`, label(game, command), () => command.run(game));
    if (command.more) made_button.dataset.more = '';
    made.set(command.id, made_button);
  }
  return made;
}

/** Draws the buttons' state: aria-disabled where the command has `enabled`, a label with values anew. */
export function drawButtons(game, buttons, commands = COMMANDS) {
  for (const command of commands) {
    const b = buttons.get(command.id);
    if (!b) continue;
    if (command.values) setText(b, label(game, command));
    if (command.enabled) setAttr(b, 'aria-disabled', String(!command.enabled(game)));
  }
}

function matches(binding, event) {
  const ctrl = event.ctrlKey || event.metaKey;
  return event.key.toLowerCase() === binding.key && ctrl === !!binding.ctrl && !event.altKey
    && (binding.shift === undefined || binding.shift === event.shiftKey);
}

/** The command a key press inside the game (page: false) or anywhere on the page (page: true)
 *  asks for, or null. */
export function commandForKey(game, event, { page = false } = {}, commands = COMMANDS) {
  for (const command of commands) {
    if (!(command.keys || []).some((binding) => !!binding.page === page && matches(binding, event))) continue;
    if (!command.when || command.when(game)) return command;
  }
  return null;
}
