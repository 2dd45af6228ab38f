// Unit tests of app/core/daily.js's share text in Node, with each language's real strings
// (docs/<lang>/game.json): the hints used are always said, won or not, and no card is named.
import test from 'node:test';
import assert from 'node:assert/strict';
import { shareText } from '../../../app/core/daily.js';
import { makeWords } from '../../../app/ui/board.js';
import { pageStrings } from './page_strings.mjs';

const LANGS = ['nb', 'da'];
const STRINGS = pageStrings(LANGS); // game.json with the locale data the page gives the game
const num = (n) => `<${n}>`; // marks where a number was written, and that it went through num

for (const lang of LANGS) {
  test(`${lang}: the daily share text says the moves and the hints, won or lost`, () => {
    const words = makeWords(STRINGS[lang]);
    const { fill, strings } = words;
    for (const won of [true, false]) {
      for (const hints of [0, 1, 67]) {
        const text = shareText(strings.end, words, num, { won, date: 'DATE', moves: 51, hints });
        assert.ok(text.includes('DATE') && text.includes(words.count('moves', 51)), text);
        assert.ok(text.includes(`<${hints}>`), `${text}: the hints are said`);
        assert.ok(text.startsWith(fill(won ? strings.end.share_won : strings.end.share_lost, { date: 'DATE', moves: words.count('moves', 51) })), text);
        assert.doesNotMatch(text, /\{\w+\}/, 'every value filled in');
        assert.doesNotMatch(text, /\b[2-9TJQKA][SHDC]\b/, 'no card named');
      }
    }
    const plain = shareText(strings.end, words, num, { won: true, date: 'D', moves: 51, hints: 0 });
    const helped = shareText(strings.end, words, num, { won: true, date: 'D', moves: 51, hints: 67 });
    assert.notEqual(plain, helped);
  });
}
