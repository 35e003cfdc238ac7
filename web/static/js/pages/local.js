// A game against the engine on this device (#/local/ID): the board, the
// moves, the engine's replies computed by the engine in the browser
// (../device.js), hints, take-backs, resignation, and the record. The game
// is kept in the browser (../offline.js), so it goes on after a reload,
// with or without the server.

import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { boards, rulesText } from '../api.js';
import { deviceCall } from '../device.js';
import { offlineGame, saveOfflineGame, request, offlineRecord } from '../offline.js';
import { Board, handStones } from '../board.js';
import { parseMove, parsePosition, diagonalMills, adjacentNames, presetOf, placingCaptures } from '../notation.js';
import { MoveList, replayKeys, resultText, sideName, errorText, variantName, scoreWords } from '../ui.js';
import { play as playSound, moveKind } from '../sound.js';
import { blindPanel } from '../blind.js';

export function mount(main, params, app) {
  app.title(t('local.title'));
  const g = offlineGame(params[0]);
  if (!g) {
    main.append(h('section', { class: 'panel narrow', testid: 'local-missing' },
      h('h1', {}, t('local.title')), h('p', {}, t('local.missing')), h('p', {}, h('a', { href: '#/play' }, t('local.newGame')))));
    app.debug(() => ({ page: 'local', status: 'missing' }));
    return null;
  }
  const ctrl = { g, alive: true, view: null, viewKey: null, cursor: g.moves.length, thinking: false, error: '', hint: null, board: null, boardData: null, record: null };
  const holder = h('div', { class: 'board-holder', testid: 'board-holder' }, h('div', { class: 'board-placeholder' }));
  const hands = h('div', { class: 'hands', testid: 'local-hands' });
  const status = h('div', { class: 'status', role: 'status', 'aria-live': 'polite', testid: 'status' });
  const info = h('div', { class: 'game-info', testid: 'local-info' });
  const controls = h('div', { class: 'game-controls', testid: 'game-controls' });
  const out = h('div', { class: 'local-out' });
  const moveList = new MoveList({ onGo: (k) => go(k) });
  const views = new Map(); // moves joined -> the view

  const blind = blindPanel({ root: main, source: blindSource, play: (m) => playMine(m) });
  main.append(h('div', { class: 'game-layout', testid: 'local-page', 'data-game': g.id },
    h('div', { class: 'board-col' }, hands, holder,
      h('div', { class: 'board-toolbar' }, h('button', { type: 'button', class: 'btn small', testid: 'flip', onclick: () => ctrl.board && ctrl.board.flip() }, t('game.flip'))),
      blind.el),
    h('aside', { class: 'side-col panel' }, info, status, moveList.el, controls, out)));
  blind.focus();
  const offKeys = replayKeys(moveList);

  const live = () => ctrl.cursor === g.moves.length;
  const active = () => g.result === '*';
  const myTurn = () => active() && live() && ctrl.view && ctrl.view.status === '*' && ctrl.view.toMove === g.side;

  async function viewOf(k) {
    const moves = g.moves.slice(0, k);
    const kk = moves.join(' ');
    let v = views.get(kk);
    if (!v) {
      v = await deviceCall('position', request(g, moves));
      views.set(kk, v);
    }
    return v;
  }

  // show draws the position at the cursor, and lets the engine move when
  // it is its turn.
  async function show() {
    const k = ctrl.cursor;
    let v;
    try {
      v = await viewOf(k);
    } catch (err) {
      ctrl.error = errorText(err);
      render();
      return;
    }
    if (!ctrl.alive || k !== ctrl.cursor) return;
    ctrl.view = v;
    ctrl.viewKey = k;
    if (!ctrl.board) setupBoard(v.board);
    if (live() && active() && v.status !== '*') {
      g.result = v.status;
      g.method = v.method || '';
      saveOfflineGame(g);
      playSound('end');
    }
    render();
    if (live() && active() && v.status === '*' && v.toMove !== g.side) think();
  }

  function setupBoard(boardId) {
    const bd = ctrl.data.boards[boardId];
    ctrl.boardData = bd;
    ctrl.board = new Board(bd, {
      onMove: playMine,
      dashedDiagonals: bd.lines.some((l) => l.diagonal) && !diagonalMills(g.rules, ctrl.data.rules),
      flipped: g.side === 'black',
      label: t('board.label'),
    });
    replace(holder, ctrl.board.el);
  }

  async function think() {
    if (ctrl.thinking) return;
    ctrl.thinking = true;
    render();
    const ply = g.moves.length;
    try {
      const m = await deviceCall('move', { ...request(g), game: g.id, level: g.level });
      if (!ctrl.alive || g.moves.length !== ply || !active()) return;
      add(m.move);
    } catch (err) {
      ctrl.error = errorText(err);
    } finally {
      ctrl.thinking = false;
    }
    if (ctrl.alive) show();
  }

  function add(text) {
    g.moves.push(text);
    ctrl.cursor = g.moves.length;
    ctrl.hint = null;
    ctrl.record = null;
    saveOfflineGame(g);
    playSound(moveKind(text, (a, b) => adjacentNames(ctrl.boardData, a, b)));
  }

  function playMine(m) {
    if (!myTurn()) return;
    add(m.text);
    show();
  }

  function go(k) {
    ctrl.cursor = Math.max(0, Math.min(g.moves.length, k));
    ctrl.hint = null;
    show();
  }

  // takeBack takes back the engine's replies and the player's move before
  // them: back to the player's turn before.
  async function takeBack() {
    if (!active() || ctrl.thinking || g.moves.length === 0) return;
    let n = g.moves.length - 1;
    try {
      while (n > 0 && (await viewOf(n)).toMove !== g.side) n--;
    } catch (err) {
      ctrl.error = errorText(err);
      render();
      return;
    }
    g.moves = g.moves.slice(0, n);
    ctrl.cursor = n;
    ctrl.record = null;
    ctrl.hint = null;
    saveOfflineGame(g);
    show();
  }

  function resign() {
    if (!active()) return;
    g.result = g.side === 'white' ? '0-1' : '1-0';
    g.method = 'resignation';
    ctrl.record = null;
    saveOfflineGame(g);
    playSound('end');
    render();
  }

  async function hint() {
    if (!myTurn()) return;
    const ply = g.moves.length;
    ctrl.hint = { loading: true };
    render();
    try {
      const a = await deviceCall('analysis', { ...request(g), movetimeMs: 1000 });
      if (g.moves.length !== ply) return;
      ctrl.hint = a;
    } catch (err) {
      ctrl.hint = { error: errorText(err) };
    }
    render();
  }

  async function showRecord() {
    try {
      ctrl.record = await offlineRecord(g);
    } catch (err) {
      ctrl.record = null;
      ctrl.error = errorText(err);
    }
    render();
  }

  // blindSource is what blind mode reads of the page (blind.js).
  function blindSource() {
    const v = ctrl.view && ctrl.viewKey === ctrl.cursor ? ctrl.view : null;
    if (!v || !ctrl.boardData) return null;
    return {
      data: ctrl.boardData, view: v, key: v.position, moves: g.moves, ply: ctrl.cursor, live: live(),
      legal: myTurn() && !ctrl.thinking ? v.legal : [], startToMove: v.start ? parsePosition(v.start).toMove : 'white',
      mySide: g.side, names: null, clocks: null, over: active() ? null : { result: g.result, method: g.method },
      marks: placingCaptures(g.rules, ctrl.data.rules) === 'mark',
    };
  }

  function render() {
    const v = ctrl.view && ctrl.viewKey === ctrl.cursor ? ctrl.view : null;
    replace(info,
      h('div', { class: 'variant', testid: 'local-variant', 'data-variant': g.rules }, variantName(presetOf(g.rules)), ' · ', t('local.level', { n: g.level })),
      h('div', { class: 'muted small', testid: 'local-where' }, t('local.onDevice')));
    moveList.set(g.moves, ctrl.cursor, v && v.start ? parsePosition(v.start) : null);
    if (ctrl.board && v) {
      const lastMove = ctrl.cursor > 0 ? parseMove(g.moves[ctrl.cursor - 1], ctrl.boardData) : null;
      const mine = myTurn() && !ctrl.thinking;
      ctrl.board.update(v, { legal: mine ? v.legal : [], interactive: mine, lastMove });
      const hm = ctrl.hint && ctrl.hint.best ? v.legal.find((x) => x.text === ctrl.hint.best) : null;
      ctrl.board.setHint(hm || null);
      replace(hands, ['white', 'black'].map((side) => h('span', { class: 'hand-of' + (v.toMove === side && v.status === '*' ? ' to-move' : '') },
        h('span', { class: 'stone-icon ' + side, 'aria-hidden': 'true' }), ' ', sideName(side), side === g.side ? ' ' + t('local.you') : '', ' ',
        v.inHand[side] > 0 ? handStones(side, v.inHand[side]) : h('span', { class: 'hand', testid: 'hand-' + side, 'data-count': 0 }),
        v.flying[side] ? h('span', { class: 'badge flying', testid: 'flying-' + side }, t('game.flying')) : null)));
    }
    let text;
    if (ctrl.error) text = ctrl.error;
    else if (!active()) text = g.result + ' ' + resultText(g.result, g.method);
    else if (!v) text = t('common.loading');
    else if (!live()) text = t('local.replay');
    else if (ctrl.thinking) text = t('local.thinking');
    else text = v.toMove === g.side ? t('local.yourMove') : t('game.toMove', { side: sideName(v.toMove) });
    status.textContent = text;
    status.dataset.gameStatus = active() ? 'active' : 'finished';
    status.dataset.result = g.result;
    replace(controls,
      active() ? h('button', { type: 'button', class: 'btn small', testid: 'hint', disabled: !myTurn() || ctrl.thinking, onclick: hint }, t('game.hint')) : null,
      active() ? h('button', { type: 'button', class: 'btn small', testid: 'local-takeback', disabled: ctrl.thinking || g.moves.length === 0, onclick: takeBack }, t('local.takeback')) : null,
      active() ? h('button', { type: 'button', class: 'btn small danger', testid: 'resign', onclick: resign }, t('game.resign')) : null,
      h('button', { type: 'button', class: 'btn small', testid: 'local-export', onclick: showRecord }, t('local.record')),
      h('a', { class: 'btn small', href: '#/play', testid: 'local-new' }, t('local.newGame')));
    const hintLine = ctrl.hint && !ctrl.hint.loading
      ? h('p', { class: 'small', testid: 'hint-text', 'data-move': ctrl.hint.best || '' }, ctrl.hint.error ? ctrl.hint.error
        : ctrl.hint.best ? t('game.hintMove', { move: ctrl.hint.best, score: scoreWords(ctrl.hint.score, ctrl.hint.scoreText, g.side, ctrl.hint.proved) }) : t('game.hintNone'))
      : null;
    const rec = ctrl.record ? h('div', { class: 'record-out' },
      h('textarea', { class: 'mono', rows: 8, readonly: true, testid: 'local-record' }, ctrl.record),
      h('a', { class: 'btn small', testid: 'local-download', download: `morris-${g.id}.txt`, href: 'data:text/plain;charset=utf-8,' + encodeURIComponent(ctrl.record) }, t('game.export'))) : null;
    replace(out, hintLine, rec);
  }

  Promise.all([boards(), rulesText().catch(() => ({}))]).then(([bs, rd]) => {
    ctrl.data = { boards: bs, rules: rd };
    show();
  }).catch((err) => { status.textContent = errorText(err); });

  app.debug(() => {
    const v = ctrl.view && ctrl.viewKey === ctrl.cursor ? ctrl.view : null;
    return {
      page: 'local', localGame: g.id, moves: g.moves.slice(), ply: g.moves.length, cursor: ctrl.cursor,
      status: active() ? 'active' : 'finished', result: g.result, method: g.method, mySide: g.side, localLevel: g.level,
      toMove: v ? v.toMove : null, position: v ? v.position : '', thinking: ctrl.thinking,
      legal: v && myTurn() && !ctrl.thinking ? v.legal.map((m) => m.text) : [], lastError: ctrl.error,
      hint: ctrl.hint && ctrl.hint.best ? ctrl.hint.best : '', localRecord: ctrl.record || '',
    };
  });

  return () => {
    ctrl.alive = false;
    offKeys();
    blind.stop();
  };
}
