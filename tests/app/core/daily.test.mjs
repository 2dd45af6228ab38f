// Unit tests of app/core/daily.js's share text in Node, with each language's real strings
// (docs/<lang>/game.json): the hints used are always said, won or not, and no card is named.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { shareText } from '../../../app/core/daily.js';
import { makeWords } from '../../../app/ui/board.js';

const LANGS = ['nb', 'da'];
const stringsOf = (lang) => JSON.parse(readFileSync(new URL(`../../../docs/${lang}/game.json`, import.meta.url), 'utf8'));
const num = (n) => `<${n}>`; // marks where a number was written, and that it went through num

for (const lang of LANGS) {
  test(`${lang}: the daily share text says the moves and the hints, won or lost`, () => {
    const { fill, strings } = makeWords(stringsOf(lang));
    for (const won of [true, false]) {
      for (const hints of [0, 1, 67]) {
        const text = shareText(strings.end, fill, num, { won, date: 'DATE', moves: 51, hints });
        assert.ok(text.includes('DATE') && text.includes('<51>'), text);
        assert.ok(text.includes(`<${hints}>`), `${text}: the hints are said`);
        assert.ok(text.startsWith(fill(won ? strings.end.share_won : strings.end.share_lost, { date: 'DATE', moves: '<51>' })), text);
        assert.doesNotMatch(text, /\{\w+\}/, 'every value filled in');
        assert.doesNotMatch(text, /\b[2-9TJQKA][SHDC]\b/, 'no card named');
      }
    }
    const plain = shareText(strings.end, fill, num, { won: true, date: 'D', moves: 51, hints: 0 });
    const helped = shareText(strings.end, fill, num, { won: true, date: 'D', moves: 51, hints: 67 });
    assert.notEqual(plain, helped);
  });
}
