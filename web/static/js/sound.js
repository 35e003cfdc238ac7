// Optional sound (off by default): short tones made with WebAudio, no
// files to load. The choice is kept in localStorage.

const KEY = 'morris.sound';
let ctx = null;

export function soundOn() {
  return localStorage.getItem(KEY) === 'on';
}

export function setSound(on) {
  localStorage.setItem(KEY, on ? 'on' : 'off');
  if (on) audio();
}

function audio() {
  if (!ctx) {
    const AC = window.AudioContext || window.webkitAudioContext;
    if (!AC) return null;
    ctx = new AC();
  }
  if (ctx.state === 'suspended') ctx.resume();
  return ctx;
}

function tone(freq, start, dur, type = 'sine', gain = 0.18) {
  const a = audio();
  if (!a) return;
  const o = a.createOscillator();
  const g = a.createGain();
  o.type = type;
  o.frequency.value = freq;
  const t0 = a.currentTime + start;
  g.gain.setValueAtTime(0.0001, t0);
  g.gain.exponentialRampToValueAtTime(gain, t0 + 0.01);
  g.gain.exponentialRampToValueAtTime(0.0001, t0 + dur);
  o.connect(g).connect(a.destination);
  o.start(t0);
  o.stop(t0 + dur + 0.02);
}

// play makes the sound of an event: move, capture, start, end, notify.
export function play(kind) {
  if (!soundOn()) return;
  switch (kind) {
    case 'move':
      tone(520, 0, 0.09, 'triangle');
      break;
    case 'capture':
      tone(330, 0, 0.12, 'triangle', 0.22);
      tone(220, 0.08, 0.16, 'triangle', 0.18);
      break;
    case 'start':
      tone(440, 0, 0.12);
      tone(660, 0.12, 0.18);
      break;
    case 'end':
      tone(660, 0, 0.14);
      tone(440, 0.14, 0.14);
      tone(330, 0.28, 0.25);
      break;
    default:
      tone(880, 0, 0.1);
  }
}
