// Saved progress: the deal number and the moves, in this browser's localStorage. Storage may be
// missing or refuse (private windows, full disk, blocked cookies): every access is guarded, and
// anything unexpected reads as "nothing saved", so the page never fails because of it.

export const KEY = 'pyramide.game.v1';
const VERSION = 1;
const MAX_MOVES = 2000; // far more than any real game; a longer list is not ours

function store() {
  try {
    return window.localStorage;
  } catch {
    return null; // reading the property itself throws when storage is blocked
  }
}

/** The saved {deal, moves}, or null when there is none or it is not in the expected shape. */
export function loadGame() {
  try {
    const text = store()?.getItem(KEY);
    if (!text) return null;
    const data = JSON.parse(text);
    if (!data || data.version !== VERSION || !Number.isInteger(data.deal)) return null;
    if (!Array.isArray(data.moves) || data.moves.length > MAX_MOVES) return null;
    if (!data.moves.every((m) => typeof m === 'string' && m.length < 20)) return null;
    return { deal: data.deal, moves: data.moves };
  } catch {
    return null;
  }
}

/** Saves the game's deal and moves; silently does nothing where storage is unavailable. */
export function saveGame(deal, moves) {
  try {
    store()?.setItem(KEY, JSON.stringify({ version: VERSION, deal, moves }));
  } catch {
    /* storage full or blocked: the game goes on unsaved */
  }
}

/** Forgets saved data that could not be used, so the next visit starts cleanly. */
export function clearGame() {
  try {
    store()?.removeItem(KEY);
  } catch {
    /* nothing to do */
  }
}
