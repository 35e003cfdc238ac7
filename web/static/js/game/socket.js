// The game's connection: the WebSocket (a player's token in its first
// message, anyone else watches), reconnection with ?since so nothing is
// lost, the server's events applied to the page's state, and commands sent
// on the socket or, while it is down, over HTTP (a move with its ply), so
// that a player is never stuck.

import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { api, session, GameSocket, ApiError } from '../api.js';
import { errorText } from '../ui.js';
import { play as playSound } from '../sound.js';
import { setClocks } from './clock.js';
import { sideOf } from './state.js';

export function gameSocket(ctrl) {
  const { st, id } = ctrl;
  const socket = new GameSocket(id, { onEvent, onStatus });

  function onStatus(state, attempt) {
    st.conn = state;
    st.attempt = attempt;
    if (state === 'reconnecting' && (attempt === 1 && !st.full || attempt === 3)) checkGame();
    ctrl.status.render();
    ctrl.controls.render();
  }

  // checkGame finds out why the socket does not open: no such game (stop),
  // or a token the server no longer takes (api forgets it, and the next
  // attempt watches without it).
  async function checkGame() {
    try {
      await api('GET', '/api/game/' + id, undefined, { auth: false });
      if (session()) await api('GET', '/api/account');
    } catch (err) {
      if (err.status === 404 && ctrl.alive) {
        socket.close();
        replace(ctrl.main, h('section', { class: 'panel narrow', testid: 'not-found' },
          h('h1', {}, t('game.notFound', { id })),
          h('p', {}, h('a', { href: '#/' }, t('notFound.home')))));
      }
    }
  }

  function onEvent(ev) {
    switch (ev.type) {
      case 'gameFull':
        st.full = ev;
        st.chat = ev.chat || [];
        // Who this page plays, before the state draws the controls.
        st.mySide = sideOf(ev);
        applyState(ev.state, true);
        ctrl.setup();
        ctrl.chat.render();
        break;
      case 'gameState':
        if (!st.full) return;
        applyState(ev, true);
        break;
      case 'move':
        if (!st.full) return;
        applyMove(ev);
        break;
      case 'chat':
        if (!st.chat.some((c) => c.version === ev.version)) {
          st.chat.push(ev);
          ctrl.chat.render();
        }
        break;
      default:
    }
  }

  function applyState(s, fresh) {
    const before = st.moves.length;
    const wasActive = st.status === 'active';
    const changed = s.moves.length !== st.moves.length || s.moves.some((m, i) => m !== st.moves[i]);
    st.moves = s.moves.slice();
    st.version = s.version;
    st.position = s.position;
    if (st.toMove !== s.toMove) st.turnSince = Date.now();
    st.toMove = s.toMove;
    st.status = s.status;
    st.result = s.result;
    st.method = s.method || '';
    st.offers = s.offers || [];
    st.deadlineMs = s.deadlineMs || 0;
    setClocks(st, s.clocks, fresh);
    if (changed) {
      st.positions = [];
      if (st.full) st.positions[0] = st.full.start;
      st.positions[st.moves.length] = st.position;
      if (st.cursor !== null && st.cursor > st.moves.length) st.cursor = null;
    }
    if (st.moves.length > before && before > 0) playSound(ctrl.ground.soundOf(st.moves[st.moves.length - 1]));
    if (wasActive && st.status !== 'active' && st.full && before > 0) playSound('end');
    ctrl.refresh();
  }

  function applyMove(ev) {
    if (ev.ply < st.moves.length) {
      if (st.moves[ev.ply] === ev.move) return; // seen already
      socket.resync();
      return;
    }
    if (ev.ply > st.moves.length) {
      socket.resync(); // a gap: get the game afresh
      return;
    }
    st.moves.push(ev.move);
    st.positions[st.moves.length] = ev.position;
    st.version = Math.max(st.version, ev.version);
    st.position = ev.position;
    st.toMove = ev.toMove;
    st.turnSince = Date.now();
    const wasActive = st.status === 'active';
    st.status = ev.status;
    st.result = ev.result;
    st.method = ev.method || '';
    if (ev.clocks) setClocks(st, { ...ev.clocks, running: ev.clocks.running || (ev.status === 'active' ? ev.toMove : '') }, false);
    st.offers = []; // a move clears every offer
    // Our own move sounded when it was made.
    if (!(st.lastSent && st.lastSent.ply === ev.ply)) playSound(ctrl.ground.soundOf(ev.move));
    if (wasActive && st.status !== 'active') playSound('end');
    ctrl.refresh();
  }

  // command sends a command on the socket, or over HTTP when the socket is
  // down (the API takes the same commands). It reports whether it was
  // taken; a refusal is shown.
  async function command(msg) {
    try {
      if (socket.ws && socket.ws.readyState === WebSocket.OPEN) await socket.send(msg);
      else await httpCommand(id, msg);
      return true;
    } catch (err) {
      ctrl.status.setMessage(errorText(err));
      return false;
    }
  }

  return {
    connect: () => socket.connect(),
    command,
    drop: () => socket.drop(),
    close: () => socket.close(),
  };
}

// httpCommand sends a command of the socket over HTTP, the API's way.
function httpCommand(id, msg) {
  const base = `/api/game/${id}`;
  switch (msg.type) {
    case 'move': return api('POST', base + '/move', { move: msg.move, ply: msg.ply });
    case 'resign': return api('POST', base + '/resign');
    case 'claim-victory': return api('POST', base + '/claim-victory');
    case 'draw':
    case 'takeback': return api('POST', `${base}/${msg.type}/${msg.action}`);
    case 'chat': return api('POST', base + '/chat', { text: msg.text });
    default: return Promise.reject(new ApiError(400, 'unknown command'));
  }
}
