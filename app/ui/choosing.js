// Choosing cards: a card tapped, clicked or chosen by key (activate), a card dragged onto another
// (drop), the choice dropped (deselect), turned into the moves the game plays. Which card lies at a
// place, whether it may be chosen and what it pairs with are the engine's answers (app/core/engine.js).
// Methods of the game (game.js mixes them into Game): `this` is the game.

import { TARGET_SUM, isKing, canPair, cardAt, placeOf, isAvailable } from '../core/engine.js';

export const choosing = {
  // The card at a place of the board (the waste top, a pyramid card, the stock-top variant's stock
  // card), and a card's place: the engine's (cardAt, placeOf).
  codeAt(key) {
    return cardAt(this.position, key, this.rules);
  },

  keyOf(code) {
    return placeOf(this.position, code, this.rules);
  },

  activate(key) {
    // SOLUTION: a card chosen on a step plays on from it; at a finished step nothing is played
    if (this.solution.shown && !this.solution.takeOver()) return;
    const { s, words } = this;
    const { selected } = this.state;
    if (this.position.status === 'won') return this.update({ message: this.message(s.messages.already_won) });
    const code = this.codeAt(key); // VARIANTS: under stock-top the stock's top card, chosen like any free card
    if (key === 'stock' && !code) return this.draw();
    if (!code) return;
    // A king goes alone, with one choice; a second card makes a pair with the first. Either way
    // the choice is over, whatever the engine says.
    if (isKing(code)) return this.play(`king ${code}`, { selected: null });
    if (selected === key) return key === 'stock' ? this.draw() : this.deselect(); // the stock's card chosen twice: drawn
    if (selected) return this.play(`pair ${this.codeAt(selected)} ${code}`, { selected: null });
    if (!isAvailable(this.position, key, this.rules)) return this.update({ message: this.coveredRefusal(code, [key]) });
    const chosen = key === 'stock' ? s.messages.selected_stock : s.messages.selected;
    this.update({ selected: key, message: this.message(words.fill(chosen, { card: words.card(code), target: this.num(TARGET_SUM) })) });
  },

  // The stock pressed to draw (D, or the stock without a card in play): a card to the waste, or
  // the waste turned back. A chosen stock card goes to the waste with it, so the choice is dropped.
  draw() {
    if (this.solution.shown && !this.solution.takeOver()) return;
    if (this.position.status === 'won') return this.update({ message: this.message(this.s.messages.already_won) });
    const also = this.state.selected === 'stock' ? { selected: null } : {};
    this.play(this.position.stock.length ? 'draw' : 'turn', also);
  },

  // A card dragged onto another (`onto`, a key) or off the board (null): the pair of the two,
  // or a king alone, played as two taps would play them; anything else puts the card back.
  drop(key, onto) {
    if (this.solution.shown && !this.solution.takeOver()) return; // SOLUTION: as a card chosen on a step
    if (this.position.status === 'won') return;
    const code = this.codeAt(key);
    if (!code) return;
    if (isKing(code)) {
      if (onto === null) this.play(`king ${code}`, { selected: null });
      return;
    }
    const other = onto && this.codeAt(onto);
    if (other) this.play(`pair ${code} ${other}`, { selected: null });
  },

  deselect() {
    this.update({ selected: null, message: this.message(this.s.messages.deselected) });
  },
};
