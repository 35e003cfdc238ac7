// The state of a game page: the game as the server last told it, the
// position shown (the replay's cursor), the connection, and what this page
// has sent. Turns need not alternate: a side may move several times running
// (removals owed, a blocked side's removal, the second player moving first),
// so whose turn it is always comes from the server's toMove, never from the
// ply.

import { session } from '../api.js';

// newState is the state of the page of game id before the game arrives.
export function newState(id) {
  return {
    id, full: null, moves: [], position: '', toMove: 'white', status: 'active', result: '*', method: '',
    version: -1, clocks: null, clocksAt: 0, skew: 0, offers: [], chat: [], deadlineMs: 0,
    view: null, viewFor: '', positions: [], cursor: null, mySide: null,
    conn: 'connecting', attempt: 0, turnSince: Date.now(), message: '', lastError: '', sent: 0, sending: false, confirmResign: false,
  };
}

// sideOf is the side the signed-in user plays in game f, or null for a
// spectator.
export function sideOf(f) {
  const s = session();
  return s && f.white.name === s.name ? 'white' : s && f.black.name === s.name ? 'black' : null;
}

// live reports whether the page shows the position of now, not one of the
// replay.
export function live(st) {
  return st.cursor === null || st.cursor >= st.moves.length;
}

// shownPly is the number of moves of the position shown.
export function shownPly(st) {
  return live(st) ? st.moves.length : st.cursor;
}

// currentView is the server's view of the position of now (its legal
// moves, mills, hands), once it has come.
export function currentView(st) {
  return st.view && st.viewFor === st.position ? st.view : null;
}

// canPlay reports whether this page may move now.
export function canPlay(st) {
  return !!st.mySide && st.status === 'active' && st.toMove === st.mySide && live(st) && st.conn !== 'closed';
}
