// The game's sounds, made in the page by Web Audio oscillators (no sound files): a tick for a
// draw, a soft two-note chime for a removal, a short rising tune for a win, a low buzz for a
// refusal. Off until the player turns Sound on in the options; no AudioContext exists before the
// first sound is played (a browser starts one only after the player has acted on the page).

let context = null;

// Each sound: notes as [frequency in Hz, start in s, length in s], one wave shape, one loudness.
const SOUNDS = {
  draw: { wave: 'triangle', gain: 0.08, notes: [[660, 0, 0.05]] },
  remove: { wave: 'sine', gain: 0.12, notes: [[784, 0, 0.09], [1047, 0.07, 0.14]] },
  win: { wave: 'triangle', gain: 0.12, notes: [[523, 0, 0.12], [659, 0.11, 0.12], [784, 0.22, 0.12], [1047, 0.33, 0.35]] },
  refuse: { wave: 'square', gain: 0.04, notes: [[150, 0, 0.12]] },
};

/** Plays one of SOUNDS; nothing where the browser has no Web Audio. */
export function playSound(name) {
  const sound = SOUNDS[name];
  const Context = globalThis.AudioContext ?? globalThis.webkitAudioContext;
  if (!sound || !Context) return;
  context ??= new Context();
  if (context.state === 'suspended') context.resume();
  const now = context.currentTime;
  for (const [hz, start, length] of sound.notes) {
    const osc = context.createOscillator();
    const gain = context.createGain();
    osc.type = sound.wave;
    osc.frequency.value = hz;
    // A quick rise and an exponential fall: no click at either end.
    gain.gain.setValueAtTime(0.0001, now + start);
    gain.gain.exponentialRampToValueAtTime(sound.gain, now + start + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
    osc.connect(gain).connect(context.destination);
    osc.start(now + start);
    osc.stop(now + start + length + 0.02);
  }
}
