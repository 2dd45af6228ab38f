// The stored options (app/ui/options.js): each read back as kept, anything not one of its values
// read as its default, so a hand-edited or older store never breaks the game.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CHOICES, DEFAULTS, OPTIONS_KEY, loadOptions, saveOptions } from '../../../app/ui/options.js';

const store = new Map();
globalThis.localStorage = { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => store.set(k, String(v)) };

test('sound is off and animations on until chosen', () => {
  store.clear();
  assert.equal(loadOptions().sound, false);
  assert.equal(loadOptions().animations, true);
});

test('every choice is kept and read back', () => {
  for (const [key, values] of Object.entries(CHOICES)) {
    for (const value of values) {
      saveOptions({ ...DEFAULTS, [key]: value, sound: true });
      assert.equal(loadOptions()[key], value);
      assert.equal(loadOptions().sound, true);
    }
  }
});

test('a value that is not one of its choices reads as the default', () => {
  store.set(OPTIONS_KEY, JSON.stringify({ version: 1, back: 'purple', table: 3, sound: 'yes', animations: false }));
  const read = loadOptions();
  assert.equal(read.back, DEFAULTS.back);
  assert.equal(read.table, DEFAULTS.table);
  assert.equal(read.sound, DEFAULTS.sound);
  assert.equal(read.animations, false);
});
