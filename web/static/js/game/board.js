// The game's board: the position of now (with its legal moves on this
// page's turn, or the premoves it may make on the opponent's), or a position
// of the replay; and the moves made on it: held as premoves, waiting for a
// confirmation, or sent with their ply and drawn at once.

import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { position as fetchPosition } from '../api.js';
import { Board } from '../board.js';
import { parsePosition, parseMove, diagonalMills, boardOf, placingCaptures, adjacentNames } from '../notation.js';
import { errorText } from '../ui.js';
import { play as playSound, moveKind } from '../sound.js';
import { live, shownPly, currentView, canPlay } from './state.js';
import { canPremove, confirmOn } from './premove.js';

export function gameBoard(ctrl) {
  const { st } = ctrl;
  const holder = h('div', { class: 'board-holder', testid: 'board-holder' }, h('div', { class: 'board-placeholder' }));
  const millCache = new Map(); // position text -> its mills, for the replay
  let millTimer = 0;
  let loadingPositions = false;

  // setup draws the board of the game's rules when the game first arrives.
  function setup() {
    const f = st.full;
    const data = st.boards[boardOf(f.rules || f.variant, st.variants)] || st.boards.standard24;
    if (ctrl.board && ctrl.boardData === data) return;
    ctrl.boardData = data;
    ctrl.board = new Board(data, {
      onMove: sendMove,
      dashedDiagonals: data.lines.some((l) => l.diagonal) && !diagonalMills(f.rules || f.variant, st.rulesData),
      flipped: st.mySide === 'black',
      label: t('board.label'),
    });
    replace(holder, ctrl.board.el);
  }

  function render() {
    const board = ctrl.board;
    if (!board || !st.full) return;
    const k = shownPly(st);
    const lastMove = k > 0 ? parseMove(st.moves[k - 1], ctrl.boardData) : null;
    if (live(st)) {
      const v = currentView(st);
      const shown = v || parsePosition(st.position);
      // While the socket reconnects, moves go over HTTP (command), and
      // their ply keeps a stale board from playing a wrong move.
      const myTurn = canPlay(st);
      if (!myTurn && canPremove(st)) {
        // The opponent's turn: the board takes a premove among the moves
        // this side would have here.
        const pv = st.preView && st.preView.for === st.position ? st.preView.view : null;
        board.update(shown, { legal: pv ? pv.legal : [], interactive: !!pv, lastMove });
        board.setHint(null);
        board.setPremove(st.premove);
        if (!pv) ctrl.premove.loadView();
        return;
      }
      board.setPremove(null);
      board.update(shown, { legal: v && myTurn && !st.sending && !st.pendingConfirm ? v.legal : [], interactive: myTurn && !st.sending && !st.pendingConfirm, lastMove });
      // The engine's hint (a game against the engine), while its position is on the board.
      const hint = myTurn && st.hint && st.hint.ply === st.moves.length && st.hint.move ? st.hint.move : null;
      board.setHint(hint ? { ...((v && v.legal.find((x) => x.text === hint)) || parseMove(hint, ctrl.boardData)), text: hint } : null);
      if (myTurn && v && st.premove) ctrl.premove.play(v);
      return;
    }
    const text = st.positions[k];
    if (!text) {
      loadPositions();
      return;
    }
    board.setHint(null);
    board.update(replayView(text), { lastMove });
  }

  // replayView: the parsed position, with the mills once the server told them.
  function replayView(text) {
    const p = parsePosition(text);
    const cached = millCache.get(text);
    if (cached) return { ...p, inMills: cached };
    clearTimeout(millTimer);
    millTimer = setTimeout(() => {
      fetchPosition({ position: text }).then((v) => {
        millCache.set(text, v.inMills);
        if (ctrl.alive && !live(st) && st.positions[st.cursor] === text) render();
      }).catch(() => {});
    }, 150);
    return p;
  }

  // loadPositions reads the positions of the replay.
  function loadPositions() {
    if (loadingPositions || !st.full) return;
    loadingPositions = true;
    const moves = st.moves.slice();
    fetchPosition({ position: st.full.start, moves }).then((v) => {
      loadingPositions = false;
      if (!ctrl.alive) return;
      if (moves.length <= st.moves.length && moves.every((m, i) => m === st.moves[i])) {
        st.positions[0] = st.full.start;
        v.history.forEach((p, i) => { st.positions[i + 1] = p; });
        render();
      }
    }).catch((err) => {
      loadingPositions = false;
      ctrl.status.setMessage(errorText(err));
    });
  }

  // sendMove plays m, made on the board (or the pass button): kept as a
  // premove on the opponent's turn, held for a confirmation, or sent.
  async function sendMove(m) {
    if (st.sending) return;
    if (canPremove(st) && st.toMove !== st.mySide) {
      ctrl.premove.set(m);
      return;
    }
    if (confirmOn(st) && !st.pendingConfirm) {
      st.pendingConfirm = m;
      showOptimistic(m);
      ctrl.controls.render();
      ctrl.status.render();
      return;
    }
    st.pendingConfirm = null;
    const ply = st.moves.length;
    st.sending = true;
    st.lastSent = { ply, text: m.text };
    st.sent++;
    showOptimistic(m);
    const ok = await ctrl.socket.command({ type: 'move', move: m.text, ply });
    st.sending = false;
    if (!ok) {
      // Not played: show the position as it is, playable again.
      render();
      return;
    }
    if (st.moves.length === ply) {
      // The event has not come yet; it will redraw.
      return;
    }
    render();
  }

  // showOptimistic draws the move at once, before the server's event.
  function showOptimistic(m) {
    const v = st.view;
    if (!v || !ctrl.board) return;
    ctrl.board.update(afterMove(st, v, m), { lastMove: m });
    playSound(soundOf(m.text));
  }

  // soundOf is the sound of a move: a placement, a slide, a flight, a
  // removal, a capture, a pass.
  function soundOf(text) {
    return moveKind(text, (a, b) => adjacentNames(ctrl.boardData, a, b));
  }

  return { holder, setup, render, sendMove, soundOf };
}

// afterMove is the position of view v after this page's player made m, as
// the board draws it before the server has answered.
function afterMove(st, v, m) {
  const side = st.mySide;
  const other = side === 'white' ? 'black' : 'white';
  const pieces = { white: v.pieces.white.slice(), black: v.pieces.black.slice() };
  const marked = (v.marked || []).slice();
  // A mark (da san qi) leaves the piece on its point; a removal of one's
  // own pieces (el filja) takes from the mover.
  const marks = m.kind === 'place' && m.captures.length > 0 && placingCaptures(st.full.rules || st.full.variant, st.rulesData) === 'mark';
  const victim = m.kind === 'remove' && v.removesOwn ? side : other;
  if (m.from >= 0) pieces[side] = pieces[side].filter((p) => p !== m.from);
  if (m.to >= 0) pieces[side].push(m.to);
  pieces[victim] = pieces[victim].filter((p) => !m.captures.includes(p));
  if (marks) marked.push(...m.captures);
  return { pieces, marked, inMills: { white: [], black: [] }, toMove: other };
}
