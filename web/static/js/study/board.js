// The study board: moves played freely for both sides, stepped through and
// taken back; each position's view (legal moves, hands, mills) asked of the
// server once and kept; the hands beside the board, the pass button, and
// the engine's best move drawn on it.

import { h, replace, debounce } from '../dom.js';
import { t } from '../i18n.js';
import { position as fetchPosition } from '../api.js';
import { Board, handStones } from '../board.js';
import { parseMove, diagonalMills, boardOf, adjacentNames } from '../notation.js';
import { sideName, errorText } from '../ui.js';
import { play as playSound, moveKind } from '../sound.js';
import { key, body, currentView } from './state.js';
import { drawSetup } from './setup.js';

export function studyBoard(ctrl) {
  const { st, views } = ctrl;
  const holder = h('div', { class: 'board-holder', testid: 'board-holder' }, h('div', { class: 'board-placeholder' }));
  const hands = h('div', { class: 'hands', testid: 'study-hands' });
  const passBtn = h('button', { type: 'button', class: 'btn small primary', testid: 'pass', hidden: true, onclick: () => { const m = st.view.legal.find((x) => x.kind === 'pass'); if (m) play(m); } }, t('game.pass'));
  const showSoon = debounce(show, 60);

  // newBoard starts the board from the rules' start, or from the position
  // start, with moves played; source says where it comes from (free, a
  // stored game, an imported record) and may set the cursor.
  async function newBoard(rules, start, moves, source) {
    const v = await fetchPosition(start ? { position: start } : { rules });
    st.rules = v.rules;
    st.freshStart = start ? '' : v.start;
    if (start) {
      try {
        st.freshStart = (await fetchPosition({ rules: v.rules })).start;
      } catch { /* a rules string the server no longer knows: keep the Position tag */ }
    }
    st.start = start && start !== st.freshStart ? start : null;
    st.moves = moves ? moves.slice() : [];
    st.cursor = source && source.cursor !== undefined ? source.cursor : st.moves.length;
    st.source = source || { kind: 'free' };
    views.clear();
    st.view = null;
    st.viewKey = '';
    st.analysis = null;
    st.analysisKey = null;
    setupBoard(v.board);
    await show();
  }

  function setupBoard(boardId) {
    const bd = ctrl.data.boards[boardId] || ctrl.data.boards[boardOf(st.rules, ctrl.data.variants)];
    const board = ctrl.board;
    if (!board || ctrl.boardData !== bd || board.dashed !== dashedFor(bd)) {
      ctrl.boardData = bd;
      ctrl.board = new Board(bd, { onMove: play, dashedDiagonals: dashedFor(bd), flipped: board ? board.flipped : false });
      replace(holder, ctrl.board.el);
      if (st.setup) ctrl.setupTab.edit();
    }
  }

  function dashedFor(bd) {
    return bd.lines.some((l) => l.diagonal) && !diagonalMills(st.rules, ctrl.data.rules);
  }

  // show fetches the view of the position at the cursor and draws it.
  async function show() {
    const k = st.cursor;
    const kk = key(st, k);
    ctrl.renderAll();
    let v = views.get(kk);
    if (!v) {
      try {
        v = await fetchPosition(body(st, k));
      } catch (err) {
        ctrl.status.textContent = errorText(err);
        return;
      }
      views.set(kk, v);
    }
    if (!ctrl.alive || key(st, st.cursor) !== kk) return;
    st.view = v;
    st.viewKey = kk;
    ctrl.renderAll();
    ctrl.engine.analyse();
    ctrl.explorer.explore();
  }

  // go shows the position after k moves.
  function go(k) {
    st.cursor = Math.max(0, Math.min(st.moves.length, k));
    const cached = views.get(key(st, st.cursor));
    if (cached) {
      st.view = cached;
      st.viewKey = key(st, st.cursor);
      ctrl.renderAll();
      ctrl.engine.analyse();
      ctrl.explorer.explore();
    } else {
      showSoon();
    }
  }

  // play plays m at the cursor: the moves after it are dropped.
  function play(m) {
    st.moves = st.moves.slice(0, st.cursor).concat([m.text]);
    st.cursor = st.moves.length;
    if (st.source.kind !== 'free') st.source = { ...st.source, changed: true };
    playSound(moveKind(m.text, (a, b) => adjacentNames(ctrl.boardData, a, b)));
    show();
  }

  function takeBack() {
    if (st.cursor === 0) return;
    st.moves = st.moves.slice(0, st.cursor - 1);
    st.cursor = st.moves.length;
    go(st.cursor);
  }

  function render() {
    const board = ctrl.board;
    if (!board) return;
    if (st.setup) {
      drawSetup(ctrl, hands, passBtn);
      return;
    }
    const v = currentView(st);
    const lastMove = st.cursor > 0 ? parseMove(st.moves[st.cursor - 1], ctrl.boardData) : null;
    if (!v) {
      board.freeze();
      return;
    }
    board.update(v, { legal: v.legal, interactive: v.status === '*', lastMove });
    replace(hands, ['white', 'black'].map((side) => h('span', { class: 'hand-of' + (v.toMove === side && v.status === '*' ? ' to-move' : '') },
      h('span', { class: 'stone-icon ' + side, 'aria-hidden': 'true' }), ' ', sideName(side), ' ',
      v.inHand[side] > 0 ? fromHand(handStones(side, v.inHand[side]), side) : h('span', { class: 'hand', testid: 'hand-' + side, 'data-count': 0 }),
      v.flying[side] ? h('span', { class: 'badge flying', testid: 'flying-' + side }, t('game.flying')) : null)));
    passBtn.hidden = !v.legal.some((m) => m.kind === 'pass');
    const a = st.engineOn && st.analysis && st.analysisKey === key(st, st.cursor) ? st.analysis : null;
    board.setHint(a && a.best ? moveOf(a.best, v) : null);
  }

  function fromHand(el, side) {
    ctrl.board.handSource(el, side);
    return el;
  }

  function moveOf(text, v) {
    const m = v.legal.find((x) => x.text === text);
    return m || parseMove(text, ctrl.boardData);
  }

  return { holder, hands, passBtn, newBoard, show, go, play, takeBack, render };
}
