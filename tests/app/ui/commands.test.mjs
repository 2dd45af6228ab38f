// Unit tests of app/ui/commands.js in Node: the table of commands takes each key as the game did
// when it wired its keys one by one (Ctrl or ⌘, Shift, Alt), and draws the buttons' states.
import test from 'node:test';
import assert from 'node:assert/strict';
import { COMMANDS, commandForKey, drawButtons } from '../../../app/ui/commands.js';

function fakeGame({ solutionOpen = false, endOpen = false, selected = null, redo = [], undo = false } = {}) {
  return {
    solution: { open: solutionOpen }, endPanel: { open: endOpen }, state: { selected, redo },
    canUndo: () => undo, pool: [1], today: '2024-01-01', date: (d) => d, s: {}, words: { fill: (t) => t },
  };
}
const press = (key, mods = {}) => ({ key, ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, ...mods });
const id = (game, event, page = false) => commandForKey(game, event, { page })?.id ?? null;

test('each key goes to the command the game gave it', () => {
  const g = fakeGame();
  const cases = [
    [press('z', { ctrlKey: true }), 'undo'], [press('z', { metaKey: true }), 'undo'], [press('u'), 'undo'], [press('U', { shiftKey: true }), 'undo'],
    [press('Z', { ctrlKey: true, shiftKey: true }), 'redo'], [press('y', { ctrlKey: true }), 'redo'], [press('Y', { ctrlKey: true, shiftKey: true }), 'redo'],
    [press('y'), 'redo'], [press('Y', { shiftKey: true }), 'redo-all'],
    [press('h'), 'hint'], [press('r'), 'restart'], [press('n'), 'new-game'], [press('N', { shiftKey: true }), 'new-game'], [press('d'), 'draw'],
    [press('z'), null], [press('u', { altKey: true }), null], [press('n', { ctrlKey: true }), null], [press('z', { ctrlKey: true, altKey: true }), null],
    [press('Escape'), null], [press('g'), null], [press('x'), null],
  ];
  for (const [event, want] of cases) assert.equal(id(g, event), want, JSON.stringify(event));
});

test('Escape closes the solution first, then the end panel, then drops the choice', () => {
  assert.equal(id(fakeGame({ solutionOpen: true, endOpen: true, selected: 'p3' }), press('Escape')), 'close-solution');
  assert.equal(id(fakeGame({ endOpen: true, selected: 'p3' }), press('Escape')), 'close-end');
  assert.equal(id(fakeGame({ selected: 'p3' }), press('Escape')), 'deselect');
  assert.equal(id(fakeGame({ selected: 'p3' }), press('Escape', { ctrlKey: true })), null);
});

test('G is a key of the whole page, never of the game alone', () => {
  const g = fakeGame();
  assert.equal(id(g, press('g'), true), 'enter');
  assert.equal(id(g, press('G', { shiftKey: true }), true), 'enter');
  assert.equal(id(g, press('g', { metaKey: true }), true), null);
  assert.equal(id(g, press('n'), true), null);
});

test('the buttons are in the order of the game, and their states drawn from the table', () => {
  assert.deepEqual(COMMANDS.filter((c) => c.words).map((c) => c.id),
    ['undo', 'hint', 'restart', 'new-game', 'redo', 'redo-all', 'daily', 'solution']);
  const made = new Map(['undo', 'hint', 'redo', 'redo-all', 'daily'].map((name) => [name, { attrs: {}, setAttribute(k, v) { this.attrs[k] = v; }, getAttribute(k) { return this.attrs[k] ?? null; } }]));
  const g = { ...fakeGame({ redo: ['draw'] }), s: { daily: { open: 'today {date}' } }, words: { fill: (t, v) => t.replace('{date}', v.date) } };
  drawButtons(g, made);
  assert.deepEqual(made.get('undo').attrs, { 'aria-disabled': 'true' });
  assert.deepEqual(made.get('redo').attrs, { 'aria-disabled': 'false' });
  assert.deepEqual(made.get('redo-all').attrs, { 'aria-disabled': 'false' });
  assert.deepEqual(made.get('hint').attrs, {}, 'a command that is always enabled gets no aria-disabled');
  assert.equal(made.get('daily').textContent, 'today 2024-01-01');
});

test('the four buttons of every game come first and alone; the others go in the row under the message', () => {
  const buttons = COMMANDS.filter((c) => c.words);
  assert.deepEqual(buttons.filter((c) => !c.more).map((c) => c.id), ['undo', 'hint', 'restart', 'new-game']);
  assert.deepEqual(buttons.filter((c) => c.more).map((c) => c.id), ['redo', 'redo-all', 'daily', 'solution']);
  assert.equal(buttons.findIndex((c) => c.more), 4, 'the first row is the table’s first four');
});
