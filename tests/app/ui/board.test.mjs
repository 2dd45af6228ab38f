// A card's label comes from a translator (game.json card_labels): in the board's markup it is
// text, never an element (issue 22). board.js loads without a DOM (see app/ui/dom.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cardSvg } from '../../../app/ui/board.js';

test('a hostile card label is escaped in the card markup', () => {
  const svg = cardSvg('AS', '<img src=x onerror=alert(1)>');
  assert.ok(!svg.includes('<img'), svg);
  assert.ok(svg.includes('&lt;img src=x onerror=alert(1)&gt;'), svg);
});

test('an ordinary label is drawn as before', () => {
  assert.ok(cardSvg('TS', '10').includes('<text class="rank long" x="6" y="45">10</text>'));
  assert.ok(cardSvg('AS', 'A').includes('<text class="rank" x="25" y="45" text-anchor="middle">A</text>'));
});
