// Games against the engine on this device: kept in the browser
// (localStorage under morris.offline.games, newest first), played by the
// engine of ../engine/ (device.js), and written as records by the same
// code as the server's exports (cmd/morris-wasm's record call).

import { deviceCall } from './device.js';
import { session } from './api.js';

const KEY = 'morris.offline.games';
const MAX = 200; // the oldest beyond these are dropped

// offlineGames returns the games kept, newest first.
export function offlineGames() {
  try {
    const list = JSON.parse(localStorage.getItem(KEY) || '[]');
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

export function offlineGame(id) {
  return offlineGames().find((g) => g.id === id) || null;
}

// saveOfflineGame keeps g (first in the list).
export function saveOfflineGame(g) {
  g.updated = Date.now();
  const list = offlineGames().filter((x) => x.id !== g.id);
  list.unshift(g);
  localStorage.setItem(KEY, JSON.stringify(list.slice(0, MAX)));
}

// newOfflineGame makes a game of the play form's body ({variant, level,
// color}) or the set-up tab's ({position, level, color}): the player's side
// drawn when it is random, a seed for the rules that draw the first player
// by lot.
export function newOfflineGame({ variant, position, level, color }) {
  const side = color === 'white' || color === 'black' ? color : (Math.random() < 0.5 ? 'white' : 'black');
  const g = {
    id: 'd' + Date.now().toString(36) + Math.floor(Math.random() * 1e6).toString(36),
    rules: position ? position.trim().split(/\s+/)[0] : variant, position: position || '',
    seed: Math.floor(Math.random() * 1e9), level: Math.max(1, Math.min(10, Number(level) || 3)),
    side, player: (session() && session().name) || '', moves: [], result: '*', method: '', created: Date.now(),
  };
  saveOfflineGame(g);
  return g;
}

// request names the game's position for the engine (view.Request).
export function request(g, moves = g.moves) {
  return g.position ? { position: g.position, moves } : { rules: g.rules, seed: g.seed, moves };
}

function date(ms) {
  const d = new Date(ms);
  const p = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}.${p(d.getMonth() + 1)}.${p(d.getDate())}`;
}

// offlineRecord is g's record, as the server exports a game.
export function offlineRecord(g) {
  const me = g.player || 'Player';
  const engine = `Morris engine (level ${g.level})`;
  const over = g.result !== '*';
  return deviceCall('record', {
    ...request(g),
    tags: { Event: 'Morris game on this device', Site: 'this device', Date: date(g.created), White: g.side === 'white' ? me : engine, Black: g.side === 'black' ? me : engine },
    result: over ? g.result : '', termination: over ? g.method : '',
  });
}

// allRecords is every game's record, one after another, oldest first.
export async function allRecords() {
  const out = [];
  for (const g of offlineGames().slice().reverse()) out.push(await offlineRecord(g));
  return out.join('\n');
}
