// Which deal is on the board: the page's start (the link, this tab's deal, the last one played), a
// deal link, the rules chosen, a saved game restored (replayed through the engine), another tab's
// save of the same deal, New game's deal picked from the pool.
// Methods of the game (game.js mixes them into Game): `this` is the game.

import { newGame, replay, parseDealNumber, TARGET_SUM, MAX_DEAL, MIN_DEAL } from '../core/engine.js';
import { migrate, loadGame, forgetGame, lastPlayed, tabDeal, tabVariant, gameOfKey } from '../core/storage.js';
import { STANDARD, isVariant, rulesOf, readLink } from './variants.js';

// A link's text as a message echoes it: anyone can write a link, so of a long one (4,000
// characters, or 1.5 MB) only the start is shown, and the message line stays a line or two.
export const SHOWN_CHARS = 40;
export function shortForm(text) {
  if (text.length <= SHOWN_CHARS) return text;
  return `${Array.from(text.slice(0, 2 * SHOWN_CHARS)).slice(0, SHOWN_CHARS).join('')}…`; // whole characters
}

export const opening = {
  // A deal as it opens, {changes: {game, undoSteps}, restored}: its saved game when there is
  // one, else its opening. `restored` when the saved game has moves (only then is the player
  // welcomed back). Opening writes nothing, so its update saves nothing either.
  opened(deal, variant = this.state.game ? this.variant : STANDARD) {
    const saved = this.restore(deal, variant);
    if (!saved) return { changes: { game: newGame(deal, rulesOf(variant)), undoSteps: [], meta: null }, restored: false };
    return { changes: { game: saved.game, undoSteps: saved.undo, meta: saved.meta }, restored: saved.game.moves.length > 0 };
  },

  start() {
    migrate();
    const link = readLink(window.location.hash);
    // game: the address always shows the tab's deal, so a reload of it resumes, as before
    const own = link !== null && link.deal === String(tabDeal()) && (link.rules ?? STANDARD) === (tabVariant() ?? STANDARD);
    if (link !== null && !own) return this.openLink(link);
    const resumed = this.resumed();
    if (resumed && resumed.restored) {
      return this.update({ ...resumed.changes, message: this.withEnd(resumed.changes.game, this.s.messages.restored) });
    }
    const ready = this.message(this.words.fill(this.s.messages.ready, { target: this.num(TARGET_SUM) }));
    if (resumed) this.update({ ...resumed.changes, message: ready });
    else this.update({ game: newGame(this.randomDeal(STANDARD)), undoSteps: [], meta: null, message: ready }, { save: true });
  },

  // This tab's deal (kept across reloads), else the last played one, as opened(); null when
  // there is none to go back to.
  resumed() {
    const tab = tabDeal();
    const last = tab !== null ? { deal: tab, variant: tabVariant() ?? STANDARD } : lastPlayed();
    if (!last) return null;
    return this.opened(last.deal, isVariant(last.variant) ? last.variant : STANDARD);
  },

  // A deal link: any deal number, in the pool or not; that deal's saved game is resumed, and no
  // other deal's is touched. A malformed link changes nothing: the current game goes on (or the
  // tab's or last played one, when the page has just opened).
  // VARIANTS: `link` is readLink()'s {deal, rules}; rules names the variant (none: the app's
  // rules), and a link with rules only opens that variant as the rules choice does.
  openLink(link) {
    const { s, words } = this;
    if (link.rules !== null && !isVariant(link.rules)) return this.refuseLink(words.fill(s.variants.bad_rules, { value: shortForm(link.rules) }));
    const variant = link.rules ?? STANDARD;
    if (link.deal === null) {
      return this.chooseVariant(variant);
    }
    const value = link.deal;
    let deal;
    try {
      deal = parseDealNumber(value);
    } catch {
      return this.refuseLink(words.fill(s.messages.bad_deal, { value: shortForm(value), min: this.num(MIN_DEAL), max: this.num(MAX_DEAL) }));
    }
    if (this.state.game && this.state.game.deal === deal && this.variant === variant) return;
    // game: Back or Forward to a deal the page itself opened says so, not "opened from the link"
    const fromHistory = this.viaHistory;
    this.viaHistory = false;
    this.openDeal(deal, variant, { said: fromHistory ? s.address.back : null,
      fresh: variant === STANDARD ? s.messages.from_link : s.variants.from_link });
  },

  // Opens `deal` under `variant`'s rules, its saved game resumed: says `said`, else that the game
  // is back when it had moves, else `fresh` (each may name {deal} and the rules' {name}).
  openDeal(deal, variant, { said = null, fresh }) {
    const { s, words } = this;
    const { changes, restored } = this.opened(deal, variant);
    let text = words.cap(words.fill(said ?? (restored ? s.messages.restored : fresh), { deal, name: this.choice ? this.choice.nameOf(variant) : variant }));
    // Known lost from the start (the survey of the app's rules): said at once, so nobody plays it unawares.
    if (variant === STANDARD && this.known.result(deal) === 'lost') text += ` ${s.messages.lost_deal}`;
    this.update({ ...changes, message: restored ? this.withEnd(changes.game, text) : this.message(text) });
  },

  // A link refused (`refused` says why): the current game goes on, or the tab's or last played
  // one when the page has just opened, or a new one when there is none.
  refuseLink(refused) {
    const { s, words } = this;
    const going = this.state.game ? {} : this.resumed()?.changes;
    if (!going) {
      return this.update({ game: newGame(this.randomDeal(STANDARD)), undoSteps: [], meta: null, message: this.message(`${refused} ${s.messages.bad_deal_new}`, 'refused') },
        { save: true });
    }
    const kept = (going.game || this.state.game).deal;
    return this.update({ ...going, message: this.message(`${refused} ${words.fill(s.messages.bad_deal_kept, { deal: kept })}`, 'refused') });
  },

  // VARIANTS: the player chose other rules (or a #rules= link asked for them): that variant's
  // last game when one is saved, else a new deal from its pool. The game left stays saved
  // under its own rules.
  chooseVariant(variant) {
    if (this.state.game && this.variant === variant) return this.update({});
    // The game left is not given up: it stays saved under its rules, as a deal link leaves it, and
    // a look at other rules (without a move) must not count as a loss (issue 43).
    const last = lastPlayed(variant);
    const { s, words } = this;
    const name = this.choice ? this.choice.nameOf(variant) : variant;
    if (last) {
      const { changes, restored } = this.opened(last.deal, variant);
      const text = words.fill(restored ? s.messages.restored : s.variants.chosen, { deal: last.deal, name });
      return this.update({ ...changes, message: restored ? this.withEnd(changes.game, text) : this.message(text) });
    }
    const deal = this.randomDeal(variant);
    this.update({ game: newGame(deal, rulesOf(variant)), undoSteps: [], meta: null, message: this.message(words.fill(s.variants.chosen, { deal, name })) },
      { save: true });
  },

  // A deal's saved game under a variant's rules, replayed move by move through the engine
  // ({game, undo}); a game that does not replay is dropped (only that one).
  restore(deal, variant = this.variant) {
    const data = loadGame(deal, variant);
    if (!data) return null;
    try {
      return { game: replay(deal, data.moves, rulesOf(variant)), undo: data.undo, meta: data.meta };
    } catch {
      forgetGame(deal, variant);
      return null;
    }
  },

  // Another tab saved this tab's deal (the `storage` event fires only in the other tabs): the
  // last write wins, and this tab shows it rather than overwrite it with its older game later.
  changedElsewhere(event) {
    const changed = gameOfKey(event.key, event.newValue);
    const current = this.state.game;
    if (!changed || !current || changed[0] !== current.deal || changed[2] !== this.variant) return;
    const [deal, data] = changed;
    const moves = data ? data.moves : [];
    const undo = data ? data.undo : [];
    if (JSON.stringify([moves, undo]) === JSON.stringify([current.moves, this.state.undoSteps])) return;
    let game;
    try {
      game = replay(deal, moves, this.rules);
    } catch {
      return; // not a game this engine can replay: keep ours
    }
    this.update({ game, undoSteps: undo, meta: data ? data.meta : null, message: this.withEnd(game, this.words.fill(this.s.messages.other_tab, { deal })) });
  },

  // New game's deal: one of the variant's pool (the game's pool for the app's rules), not the
  // current one, preferably one with no saved game under those rules.
  randomDeal(variant = this.variant) {
    const current = this.state.game;
    const pool = (variant !== STANDARD && this.choice && this.choice.poolOf(variant)) || this.pool;
    const others = pool.filter((n) => !current || n !== current.deal);
    const unplayed = others.filter((n) => !loadGame(n, variant));
    const choices = unplayed.length ? unplayed : others.length ? others : pool;
    if (!choices.length) return 1 + Math.floor(Math.random() * MAX_DEAL); // no pool given
    return choices[Math.floor(Math.random() * choices.length)];
  },
};
