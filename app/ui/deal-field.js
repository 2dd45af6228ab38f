// The field that opens a deal by its number (issue 43), in the row under the message: what a deal
// link does, without typing the address. The number is read as a link's is (engine.js
// parseDealNumber: a whole number from MIN_DEAL to MAX_DEAL); anything else is refused on the
// message line in the page's words, echoed in a link's short form (opening.js shortForm: a pasted
// page of text stays a line), the field marked invalid and the game left as it was.
// Methods of the game (game.js mixes them into Game): `this` is the game.

import { parseDealNumber, MIN_DEAL, MAX_DEAL } from '../core/engine.js';
import { afterInput, element } from './dom.js';
import { showDeal } from './history-nav.js';
import { shortForm } from './opening.js';
import { STANDARD } from './variants.js';

export const dealField = {
  // The form: a labelled text field and its button (a submit, so Enter in the field opens too).
  buildDealField() {
    const s = this.s.open_deal;
    const form = element('form', 'pyr-open-deal');
    const id = `pyr-open-deal-${Math.random().toString(36).slice(2, 8)}`;
    const label = element('label', '', s.label);
    label.htmlFor = id;
    const input = element('input', 'pyr-open-deal-number');
    Object.assign(input, { id, type: 'text', inputMode: 'numeric', autocomplete: 'off', size: 10, enterKeyHint: 'go' });
    const submit = element('button', 'pyr-button pyr-open-deal-button', s.button);
    submit.type = 'submit';
    form.append(label, input, submit);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      afterInput(() => {
        const opened = this.openTypedDeal(input.value);
        input.setAttribute('aria-invalid', String(!opened));
        if (opened) input.value = '';
      });
    });
    return form;
  },

  // Opens the deal typed (under the rules being played) in a new history entry, as New game
  // does; returns whether it was a deal number.
  openTypedDeal(value) {
    const { s, words } = this;
    const bounds = { value: shortForm(value.trim()), min: this.num(MIN_DEAL), max: this.num(MAX_DEAL) };
    let deal;
    try {
      deal = parseDealNumber(value.trim());
    } catch {
      const refused = words.fill(value.trim() ? s.messages.bad_deal : s.open_deal.empty, bounds); // nothing typed: what to type
      this.update({ message: this.message(`${refused} ${words.fill(s.messages.bad_deal_kept, { deal: this.state.game.deal })}`, 'refused') });
      return false;
    }
    const { variant } = this;
    showDeal(deal, { push: true, variant });
    this.openDeal(deal, variant, { fresh: variant === STANDARD ? s.open_deal.opened : s.open_deal.opened_variant });
    return true;
  },
};
