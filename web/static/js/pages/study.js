// Study (#/study, #/study/game/ID): an analysis board for any preset where
// moves are played freely for both sides, with the engine, the review, the
// opening explorer, a position set up by hand, records imported and
// exported. This file wires the parts of ../study/: state, board (the
// moves and the positions' views), tabs, engine, explorer, review, setup,
// import, export.

import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { boards, variants, rulesText } from '../api.js';
import { parsePosition, presetOf, placingCaptures } from '../notation.js';
import { blindPanel } from '../blind.js';
import { MoveList, replayKeys, resultText, sideName, errorText, rulesName } from '../ui.js';
import { newState, key, currentView } from '../study/state.js';
import { studyBoard } from '../study/board.js';
import { studyTabs } from '../study/tabs.js';
import { studyEngine } from '../study/engine.js';
import { studyExplorer } from '../study/explorer.js';
import { studyReview } from '../study/review.js';
import { studySetup, setupStatus, setupText } from '../study/setup.js';
import { studyImport } from '../study/import.js';
import { studyExport } from '../study/export.js';

export function mountGame(main, params, app, query) {
  return mount(main, params, app, query, Number(params[0]));
}

export function mount(main, _params, app, query, gameId) {
  app.title(t('study.title'));
  // ctrl is what the parts share: the state, the views of the positions,
  // the board and its data (set once loaded), the parts themselves.
  const st = newState(query);
  const ctrl = { app, st, alive: true, data: null, board: null, boardData: null, views: new Map() };
  ctrl.status = h('div', { class: 'status', role: 'status', 'aria-live': 'polite', testid: 'status' });
  ctrl.info = h('div', { class: 'game-info', testid: 'study-info' });
  ctrl.moveList = new MoveList({ onGo: (k) => ctrl.ground.go(k) });
  ctrl.ground = studyBoard(ctrl);
  ctrl.engine = studyEngine(ctrl);
  ctrl.explorer = studyExplorer(ctrl);
  ctrl.review = studyReview(ctrl);
  ctrl.setupTab = studySetup(ctrl);
  ctrl.importTab = studyImport(ctrl);
  ctrl.exportTab = studyExport(ctrl);
  ctrl.tabs = studyTabs(ctrl);
  ctrl.renderAll = () => renderAll(ctrl);
  ctrl.blind = blindPanel({ root: main, source: () => blindSource(ctrl), play: (m) => ctrl.ground.play(m) });
  main.append(layout(ctrl));
  ctrl.blind.focus();

  const offKeys = replayKeys(ctrl.moveList);

  Promise.all([boards(), variants(), rulesText()]).then(async ([bs, vs, rd]) => {
    ctrl.data = { boards: bs, variants: vs, rules: rd };
    const shared = query.get('position');
    if (gameId) await ctrl.importTab.loadStoredGame(gameId);
    else if (shared) {
      try {
        await ctrl.ground.newBoard(shared.trim().split(/\s+/)[0], shared.trim(), [], { kind: 'free' });
      } catch (err) {
        await ctrl.ground.newBoard(st.rules);
        ctrl.status.textContent = t('setup.badLink', { error: errorText(err) });
      }
    } else await ctrl.ground.newBoard(st.rules);
    ctrl.tabs.render();
  }).catch((err) => { ctrl.status.textContent = errorText(err); });

  app.debug(() => debugState(ctrl));

  return () => {
    ctrl.alive = false;
    ctrl.review.stop();
    offKeys();
    ctrl.engine.stop();
    ctrl.blind.stop();
  };
}

// layout puts the parts on the page: the board between the hands and its
// buttons, and beside it the facts, the status and the tabs.
function layout(ctrl) {
  const toolbar = h('div', { class: 'board-toolbar' },
    h('button', { type: 'button', class: 'btn small', testid: 'flip', onclick: () => ctrl.board && ctrl.board.flip() }, t('game.flip')),
    h('button', { type: 'button', class: 'btn small', testid: 'takeback', onclick: () => ctrl.ground.takeBack() }, t('study.takeback')),
    ctrl.ground.passBtn);
  return h('div', { class: 'game-layout study', testid: 'study-page' },
    h('div', { class: 'board-col' }, ctrl.ground.hands, ctrl.ground.holder, toolbar, ctrl.blind.el),
    h('aside', { class: 'side-col panel' }, ctrl.info, ctrl.status, ctrl.tabs.el, ctrl.tabs.body));
}

// blindSource is what blind mode reads of the page (blind.js): the moves
// are played for both sides at the cursor, as on the board.
function blindSource(ctrl) {
  const { st } = ctrl;
  const v = currentView(st);
  if (!v || st.setup || !ctrl.boardData) return null;
  return {
    data: ctrl.boardData, view: v, key: v.position, moves: st.moves, ply: st.cursor, live: true,
    legal: v.status === '*' ? v.legal : [], startToMove: parsePosition(st.start || st.freshStart || v.start).toMove,
    mySide: null, names: null, clocks: null, over: v.status !== '*' ? { result: v.status, method: v.method } : null,
    marks: placingCaptures(st.rules, ctrl.data && ctrl.data.rules) === 'mark',
  };
}

function renderAll(ctrl) {
  const { st } = ctrl;
  ctrl.ground.render();
  renderStatus(ctrl);
  ctrl.moveList.set(st.moves, st.cursor, st.start || st.freshStart ? parsePosition(st.start || st.freshStart) : null);
  ctrl.review.render();
  ctrl.engine.render();
  renderInfo(ctrl);
  if (st.tab === 'export') ctrl.exportTab.renderTab();
}

// renderStatus says whose turn it is and what it asks, the hands and
// flying, or the result.
function renderStatus(ctrl) {
  const { st, status } = ctrl;
  if (st.setup) {
    setupStatus(ctrl);
    return;
  }
  const v = currentView(st);
  if (!v) {
    status.textContent = t('common.loading');
    return;
  }
  let text;
  if (v.status !== '*') text = resultText(v.status, v.method);
  else if (v.removal) {
    const side = sideName(v.toMove);
    const owed = v.owed ? v.owed[v.toMove] : 1;
    if (owed === 0) text = t('study.blockedRemoval', { side });
    else if (v.removesOwn) text = t('study.removalOwn', { side });
    else if (owed > 1) text = t('study.removals', { side, n: owed });
    else text = t('study.removal', { side });
  }
  else if (v.legal.length && v.legal.every((m) => m.kind === 'pass')) text = t('study.mustPass', { side: sideName(v.toMove) });
  else text = t('game.toMove', { side: sideName(v.toMove) });
  if (v.status === '*') {
    const parts = [];
    for (const side of ['white', 'black']) {
      if (v.inHand[side] > 0) parts.push(t('study.hand', { side: sideName(side), n: v.inHand[side] }));
      if (v.flying[side]) parts.push(t('study.flying', { side: sideName(side) }));
    }
    if (v.marked && v.marked.length) parts.push(t('study.marked', { n: v.marked.length }));
    if (parts.length) text += ' · ' + parts.join(' · ');
  }
  status.textContent = text;
  status.dataset.toMove = v.toMove;
  status.dataset.gameStatus = v.status === '*' ? 'active' : 'finished';
}

// renderInfo says what is on the board: the rules, and the stored game or
// the imported record it comes from.
function renderInfo(ctrl) {
  const { st } = ctrl;
  const src = st.source;
  let what = rulesName(presetOf(st.rules), st.rules);
  if (src.kind === 'game') {
    what = t('study.fromGame', { id: src.id }) + ' · ' + what;
    const gs = src.game.state;
    if (gs.status !== 'active') what += ' · ' + gs.result + ' ' + resultText(gs.result, gs.method);
  }
  if (src.kind === 'import') what = t('study.fromImport', { white: src.tags.White || '?', black: src.tags.Black || '?' }) + ' · ' + what;
  replace(ctrl.info, h('div', { class: 'variant', testid: 'study-variant', 'data-rules': st.rules }, what),
    src.kind === 'game' ? h('a', { href: '#/game/' + src.id, class: 'small' }, t('study.backToGame')) : null);
}

// debugState is the page's state for window.morrisDebug.state() (doc.go).
function debugState(ctrl) {
  const { st } = ctrl;
  return {
    setup: st.setup ? { position: setupText(ctrl), error: st.setup.error } : null,
    rules: st.rules,
    start: st.start,
    moves: st.moves.slice(),
    cursor: st.cursor,
    version: st.moves.length,
    status: st.view ? (st.view.status === '*' ? 'active' : 'finished') : 'loading',
    result: st.view ? st.view.status : '*',
    toMove: st.view ? st.view.toMove : null,
    position: st.view ? st.view.position : null,
    legal: st.view && st.viewKey === key(st, st.cursor) ? st.view.legal.map((m) => m.text) : [],
    // The analysis of the position shown (or its error): none while it is awaited.
    analysis: st.analysis && (st.analysis.error || st.analysisKey === key(st, st.cursor)) ? st.analysis : null,
    review: ctrl.review.debug(),
  };
}
