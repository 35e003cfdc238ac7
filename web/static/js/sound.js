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

// heard are the last sounds asked for, on or off (for tests).
const heard = [];

export function sounds() {
  return heard.slice();
}

// moveKind is the sound of a move in standard notation: place (d6), slide
// (d6-d5 along a line of the board), fly (to any point), remove (xd2: a
// removal of its own), capture (a move that takes), pass. adjacent(a, b)
// tells whether two point names are neighbours.
export function moveKind(text, adjacent) {
  if (!text) return 'move';
  if (text === 'pass') return 'pass';
  if (text.startsWith('x')) return 'remove';
  if (text.includes('x')) return 'capture';
  const [from, to] = text.split('-');
  if (!to) return 'place';
  return adjacent(from, to) ? 'slide' : 'fly';
}

// play makes the sound of an event: a move's kind (place, slide, fly,
// remove, capture, pass), start, end, notify.
export function play(kind) {
  heard.push(kind);
  if (heard.length > 100) heard.shift();
  if (!soundOn()) return;
  switch (kind) {
    case 'place':
      tone(520, 0, 0.08, 'triangle');
      break;
    case 'slide':
      tone(440, 0, 0.05, 'triangle', 0.14);
      tone(560, 0.05, 0.07, 'triangle', 0.14);
      break;
    case 'fly':
      tone(620, 0, 0.06, 'sine', 0.14);
      tone(820, 0.06, 0.1, 'sine', 0.12);
      break;
    case 'remove':
      tone(260, 0, 0.12, 'square', 0.08);
      break;
    case 'pass':
      tone(380, 0, 0.14, 'sine', 0.1);
      break;
    case 'premove':
      tone(700, 0, 0.05, 'sine', 0.08);
      break;
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
