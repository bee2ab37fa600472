// The table's sounds, made in the page with the Web Audio API (nothing is downloaded): a card played,
// a discard, a completed build pile, your turn, a win and a loss; in Spit the spit flip and the slap.
// A toggle on the table turns them on and off; the choice is kept in localStorage. Browsers let a
// page sound only after the player has touched it, so the audio context starts on the first
// pointer press or key.

import { esc } from "./html.js";
import { t } from "./i18n.js";

const SOUND_KEY = "spite.sound";
let ctx = null;

export function soundOn() {
  return localStorage.getItem(SOUND_KEY) !== "off";
}

export function setSound(on) {
  localStorage.setItem(SOUND_KEY, on ? "on" : "off");
}

function audio() {
  if (!ctx) {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return null;
    ctx = new Ctx();
  }
  if (ctx.state === "suspended") ctx.resume().catch(() => {});
  return ctx;
}

// the first touch or key of the page wakes the audio context up (autoplay rules)
for (const type of ["pointerdown", "keydown"]) {
  document.addEventListener(type, () => {
    if (soundOn()) audio();
  }, { once: true, capture: true });
}

/** One note: ``freq`` Hz (a list glides), ``dur`` seconds from ``at`` (seconds from now). */
function tone(ac, { freq, dur, at = 0, type = "sine", gain = 0.18 }) {
  const start = ac.currentTime + at;
  const osc = ac.createOscillator();
  const amp = ac.createGain();
  osc.type = type;
  const freqs = Array.isArray(freq) ? freq : [freq];
  osc.frequency.setValueAtTime(freqs[0], start);
  if (freqs.length > 1) osc.frequency.exponentialRampToValueAtTime(freqs[1], start + dur);
  amp.gain.setValueAtTime(0.0001, start);
  amp.gain.exponentialRampToValueAtTime(gain, start + 0.01);
  amp.gain.exponentialRampToValueAtTime(0.0001, start + dur);
  osc.connect(amp).connect(ac.destination);
  osc.start(start);
  osc.stop(start + dur + 0.02);
}

/** A burst of filtered noise (a card on the table, a slap). */
function noise(ac, { dur, at = 0, freq = 1800, q = 0.8, gain = 0.3 }) {
  const start = ac.currentTime + at;
  const buf = ac.createBuffer(1, Math.max(1, Math.floor(ac.sampleRate * dur)), ac.sampleRate);
  const data = buf.getChannelData(0);
  for (let i = 0; i < data.length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / data.length) ** 2;
  const src = ac.createBufferSource();
  src.buffer = buf;
  const filter = ac.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = freq;
  filter.Q.value = q;
  const amp = ac.createGain();
  amp.gain.value = gain;
  src.connect(filter).connect(amp).connect(ac.destination);
  src.start(start);
}

const SOUNDS = {
  play: (ac) => { noise(ac, { dur: 0.07, freq: 2400 }); tone(ac, { freq: 880, dur: 0.09, gain: 0.08, type: "triangle" }); },
  discard: (ac) => { noise(ac, { dur: 0.1, freq: 900, gain: 0.35 }); },
  complete: (ac) => { [523, 659, 784, 1047].forEach((f, i) => tone(ac, { freq: f, dur: 0.16, at: i * 0.07, type: "triangle", gain: 0.14 })); },
  turn: (ac) => { tone(ac, { freq: 660, dur: 0.14, gain: 0.12 }); tone(ac, { freq: 990, dur: 0.22, at: 0.12, gain: 0.12 }); },
  win: (ac) => { [523, 659, 784, 1047, 1319].forEach((f, i) => tone(ac, { freq: f, dur: i === 4 ? 0.5 : 0.15, at: i * 0.11, type: "square", gain: 0.07 })); },
  loss: (ac) => { [392, 349, 311, 262].forEach((f, i) => tone(ac, { freq: f, dur: i === 3 ? 0.5 : 0.2, at: i * 0.18, type: "triangle", gain: 0.12 })); },
  flip: (ac) => { noise(ac, { dur: 0.25, freq: 3000, q: 0.4, gain: 0.25 }); tone(ac, { freq: [300, 1200], dur: 0.2, gain: 0.06 }); },
  slap: (ac) => { noise(ac, { dur: 0.14, freq: 500, q: 0.5, gain: 0.6 }); tone(ac, { freq: [180, 60], dur: 0.15, gain: 0.2 }); },
};

/** Play sound ``name`` (a key of SOUNDS) if sounds are on. */
export function sound(name) {
  // before the player's first touch or key the browser would refuse to start the audio (and warn)
  if (!soundOn() || !SOUNDS[name] || navigator.userActivation?.hasBeenActive === false) return;
  const ac = audio();
  if (!ac) return;
  try {
    SOUNDS[name](ac);
    document.dispatchEvent(new CustomEvent("spite:sound", { detail: { name } })); // for tools that cannot hear
  } catch {
    /* a sound that cannot be made is not worth an error */
  }
}

/** The sound toggle (a button that says whether sound is on); bind it with ``bindSound``. */
export function soundHTML() {
  const on = soundOn();
  return `<button type="button" id="sound" class="small setting" aria-pressed="${on}">${esc(t(on ? "sound_on" : "sound_off"))}</button>`;
}

export function bindSound(root, redraw) {
  root.querySelector("#sound")?.addEventListener("click", () => {
    setSound(!soundOn());
    if (soundOn()) sound("play");
    redraw();
  });
}
