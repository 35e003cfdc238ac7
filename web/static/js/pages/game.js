// The game page (#/game/ID): live over the game's WebSocket (a player with
// a token plays, anyone else watches), a replay of the moves, and the
// review once the game is over. This file wires the parts of ../game/:
// state (what the page knows), socket (the connection and the commands),
// board (the board and the moves made on it), premove (moves that wait),
// clock, players (the info and the cards), status, controls (and offers),
// result (and the review), chat, event (a tournament's game: the way back,
// berserk).

import { h } from '../dom.js';
import { t } from '../i18n.js';
import { boards, variants, rulesText, position as fetchPosition } from '../api.js';
import { parsePosition, placingCaptures } from '../notation.js';
import { blindPanel } from '../blind.js';
import { MoveList, replayKeys, errorText } from '../ui.js';
import { newState, canPlay, shownPly, live, currentView } from '../game/state.js';
import { gameSocket } from '../game/socket.js';
import { gameBoard } from '../game/board.js';
import { premoves } from '../game/premove.js';
import { gameClock } from '../game/clock.js';
import { gamePlayers } from '../game/players.js';
import { gameStatus } from '../game/status.js';
import { gameControls, gameOffers } from '../game/controls.js';
import { gameResult } from '../game/result.js';
import { gameChat } from '../game/chat.js';
import { gameEvent } from '../game/event.js';

export function mount(main, params, app, query) {
  const id = Number(params[0]);
  app.title(t('game.title', { id }));
  // ctrl is what the parts share: the state, the board (set when the game
  // arrives), the parts themselves, and the page's own functions below.
  const st = newState(id);
  const ctrl = { id, app, main, st, alive: true, board: null, boardData: null };
  ctrl.moveList = new MoveList({ onGo: (k) => goTo(k) });
  ctrl.status = gameStatus(ctrl);
  ctrl.offers = gameOffers(ctrl);
  ctrl.controls = gameControls(ctrl);
  ctrl.result = gameResult(ctrl);
  ctrl.chat = gameChat(ctrl);
  ctrl.event = gameEvent(ctrl, query);
  ctrl.players = gamePlayers(ctrl);
  ctrl.ground = gameBoard(ctrl);
  ctrl.premove = premoves(ctrl);
  Object.assign(ctrl, { setup, refresh, renderAll, goTo });
  ctrl.blind = blindPanel({ root: main, source: () => blindSource(ctrl), play: (m) => ctrl.ground.sendMove(m) });
  main.append(layout(ctrl));
  ctrl.blind.focus();

  ctrl.socket = gameSocket(ctrl);
  const offKeys = replayKeys(ctrl.moveList);
  ctrl.clock = gameClock(ctrl);

  Promise.all([boards(), variants(), rulesText()]).then(([bs, vs, rd]) => {
    st.boards = bs;
    st.variants = vs;
    st.rulesData = rd;
    ctrl.socket.connect();
  }).catch((err) => ctrl.status.setMessage(errorText(err)));

  // setup draws the board and the fixed facts when the game first arrives.
  function setup() {
    ctrl.ground.setup();
    ctrl.players.renderInfo();
    ctrl.chat.setup();
    ctrl.players.renderCards();
  }

  // refresh asks for the view of the position (legal moves, mills) and
  // renders everything.
  let viewSeq = 0;
  function refresh() {
    renderAll();
    const text = st.position;
    if (!text || st.viewFor === text) return;
    const seq = ++viewSeq;
    fetchPosition({ position: text }).then((v) => {
      if (!ctrl.alive || seq !== viewSeq) return;
      st.view = v;
      st.viewFor = text;
      renderAll();
    }).catch((err) => {
      if (ctrl.alive && seq === viewSeq) ctrl.status.setMessage(errorText(err));
    });
  }

  function renderAll() {
    ctrl.ground.render();
    ctrl.players.renderCards();
    ctrl.status.render();
    ctrl.offers.render();
    ctrl.controls.render();
    renderMoves();
    ctrl.result.render();
    ctrl.event.render();
  }

  function renderMoves() {
    ctrl.moveList.set(st.moves, shownPly(st), st.full ? parsePosition(st.full.start) : null);
    ctrl.result.markMoves();
  }

  // goTo shows the position after k moves (the replay); k at the end is
  // the game of now.
  function goTo(k) {
    st.cursor = k >= st.moves.length ? null : k;
    ctrl.ground.render();
    renderMoves();
    ctrl.status.render();
    ctrl.result.render();
  }

  app.debug(() => debugState(ctrl), { drop: () => ctrl.socket.drop() });

  return () => {
    ctrl.alive = false;
    ctrl.socket.close();
    offKeys();
    ctrl.clock.stop();
    ctrl.status.stop();
    ctrl.result.stop();
    ctrl.chat.stop();
    ctrl.blind.stop();
  };
}

// layout puts the parts on the page: the board between the cards, and
// beside it the game's facts, status, controls, moves, result, review and
// chat.
function layout(ctrl) {
  const holder = ctrl.ground.holder;
  const toolbar = h('div', { class: 'board-toolbar' },
    h('button', { type: 'button', class: 'btn small', testid: 'flip', onclick: () => { if (ctrl.board) { ctrl.board.flip(); ctrl.players.renderCards(); } } }, t('game.flip')));
  return h('div', { class: 'game-layout', testid: 'game-page', 'data-game': ctrl.id },
    h('div', { class: 'board-col' }, ctrl.players.top, holder, ctrl.players.bottom, toolbar, ctrl.blind.el),
    h('aside', { class: 'side-col panel' }, ctrl.players.info, ctrl.event.el, ctrl.status.el, ctrl.offers.el, ctrl.controls.el,
      ctrl.result.box, ctrl.moveList.el, ctrl.result.after, ctrl.result.reviewEl, ctrl.chat.el));
}

// blindSource is what blind mode reads of the page (blind.js): the
// position shown (of now, or of the replay once its text has come), the
// moves this player may make, the clocks, the end.
function blindSource(ctrl) {
  const { st } = ctrl;
  if (!st.full || !ctrl.boardData) return null;
  const k = shownPly(st);
  const now = live(st);
  const text = now ? st.position : st.positions[k];
  if (!text) return null;
  const v = now ? currentView(st) || parsePosition(text) : parsePosition(text);
  const rules = st.full.rules || st.full.variant;
  return {
    data: ctrl.boardData, view: v, key: text, moves: st.moves, ply: k, live: now,
    legal: canPlay(st) && !st.sending && !st.pendingConfirm && currentView(st) ? currentView(st).legal : [],
    startToMove: parsePosition(st.full.start).toMove, mySide: st.mySide,
    names: { white: st.full.white.name, black: st.full.black.name },
    clocks: st.clocks ? { white: ctrl.clock.left('white'), black: ctrl.clock.left('black') } : null,
    over: st.status !== 'active' ? { result: st.result, method: st.method } : null,
    marks: placingCaptures(rules, st.rulesData) === 'mark',
  };
}

// debugState is the page's state for window.morrisDebug.state() (doc.go).
function debugState(ctrl) {
  const { st, board } = ctrl;
  return {
    id: st.id,
    version: st.version,
    moves: st.moves.slice(),
    ply: st.moves.length,
    status: st.status,
    result: st.result,
    method: st.method,
    toMove: st.toMove,
    position: st.position,
    mySide: st.mySide,
    connection: st.conn,
    cursor: st.cursor === null ? st.moves.length : st.cursor,
    legal: canPlay(st) && !st.sending && st.view && st.viewFor === st.position ? st.view.legal.map((m) => m.text) : [],
    sent: st.sent,
    lastError: st.lastError,
    offers: st.offers.slice(),
    chat: st.chat.map((c) => ({ user: c.user, text: c.text })),
    clocks: st.clocks ? { white: ctrl.clock.left('white'), black: ctrl.clock.left('black') } : null,
    animations: board ? Number(board.el.dataset.animations || 0) : 0,
    premove: st.premove ? st.premove.text : null,
    pendingConfirm: st.pendingConfirm ? st.pendingConfirm.text : null,
    review: ctrl.result.debug(),
  };
}
