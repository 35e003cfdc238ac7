// The set-up tab: the board as an editor. Pieces are put and taken by
// clicks on the board, with the side to move and the pieces in hand beside;
// the server checks the position, which is then analysed, played against
// the engine, or shared as a link (#/study?position=TEXT opens it).

import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { api, ensureToken, position as fetchPosition } from '../api.js';
import { presetOf, writePosition } from '../notation.js';
import { sideName, errorText, copyButton } from '../ui.js';
import { play as playSound } from '../sound.js';
import { currentView } from './state.js';
import { onDevice, unreachable } from '../device.js';
import { newOfflineGame } from '../offline.js';

export function studySetup(ctrl) {
  const { st, app } = ctrl;

  // enter starts from the position shown.
  function enter() {
    const v = currentView(st);
    const cells = ctrl.boardData.points.map(() => null);
    if (v) for (const c of ['white', 'black']) for (const i of v.pieces[c]) cells[i] = c;
    st.setup = {
      cells, toMove: v ? v.toMove : 'white', inHand: v ? { white: v.inHand.white, black: v.inHand.black } : { white: 0, black: 0 },
      tool: 'white', error: '',
    };
    edit();
    ctrl.renderAll();
  }

  function leave() {
    st.setup = null;
    if (ctrl.board) ctrl.board.setEditor(null);
    ctrl.renderAll();
  }

  // edit makes the board (a new one too) the editor.
  function edit() {
    ctrl.board.setEditor(editPoint);
  }

  // editPoint puts the chosen piece on p, or takes away the piece there.
  function editPoint(p) {
    const su = st.setup;
    if (!su) return;
    su.cells[p] = su.tool === 'empty' || su.cells[p] === su.tool ? null : su.tool;
    su.error = '';
    ctrl.ground.render();
    setupStatus(ctrl);
    renderTab();
  }

  function renderTab() {
    const su = st.setup;
    if (!su || st.tab !== 'setup') return;
    const n = piecesEach(st, ctrl.data);
    const changed = () => { su.error = ''; ctrl.ground.render(); renderTab(); };
    const tool = (name) => h('button', {
      type: 'button', class: 'btn small' + (su.tool === name ? ' primary' : ''), testid: 'setup-tool-' + name,
      'aria-pressed': su.tool === name ? 'true' : 'false', onclick: () => { su.tool = name; renderTab(); },
    }, t('setup.tool.' + name));
    const toMove = h('select', {
      id: 'setup-to-move', testid: 'setup-to-move',
      onchange: () => { su.toMove = toMove.value; su.error = ''; ctrl.ground.render(); setupStatus(ctrl); renderTab(); },
    }, ['white', 'black'].map((c) => h('option', { value: c, selected: su.toMove === c }, sideName(c))));
    const hand = (c) => {
      const input = h('input', {
        type: 'number', min: '0', max: String(n), step: '1', value: String(su.inHand[c]), id: 'setup-hand-' + c, testid: 'setup-hand-' + c, inputmode: 'numeric',
        onchange: () => { su.inHand[c] = Math.max(0, Math.min(n, Math.floor(Number(input.value) || 0))); changed(); },
      });
      return h('label', { class: 'field' }, h('span', {}, t('setup.hand', { side: sideName(c) })), input);
    };
    replace(ctrl.tabs.body,
      h('p', { class: 'muted' }, t('setup.help')),
      h('div', { class: 'row setup-tools', role: 'group', 'aria-label': t('setup.tool') }, tool('white'), tool('black'), tool('empty')),
      h('label', { class: 'field' }, h('span', {}, t('setup.toMove')), toMove),
      h('div', { class: 'row' }, hand('white'), hand('black')),
      h('div', { class: 'row' },
        h('button', { type: 'button', class: 'btn small', testid: 'setup-clear', onclick: () => { su.cells = su.cells.map(() => null); su.error = ''; ctrl.renderAll(); renderTab(); } }, t('setup.clear')),
        h('button', { type: 'button', class: 'btn small', testid: 'setup-start', onclick: setStart }, t('setup.start'))),
      h('p', { class: 'form-error', role: 'alert', testid: 'setup-error' }, su.error),
      h('div', { class: 'row' },
        h('button', { type: 'button', class: 'btn primary', testid: 'setup-check', onclick: check }, t('setup.check'))),
      playForm(play),
      linkForm(setupText(ctrl), app));
  }

  // setStart sets up the start of the rules shown.
  async function setStart() {
    const su = st.setup;
    try {
      const v = await fetchPosition({ rules: st.rules });
      su.cells = ctrl.boardData.points.map(() => null);
      for (const c of ['white', 'black']) for (const i of v.pieces[c]) su.cells[i] = c;
      su.toMove = v.toMove;
      su.inHand = { white: v.inHand.white, black: v.inHand.black };
      su.error = '';
    } catch (err) {
      su.error = errorText(err);
    }
    ctrl.renderAll();
    renderTab();
  }

  // check asks the server whether the position is legal; if it is, the
  // board shows it, with the engine's analysis, and the address is its
  // link.
  async function check() {
    const su = st.setup;
    const pos = setupText(ctrl);
    try {
      await fetchPosition({ position: pos });
    } catch (err) {
      su.error = errorText(err);
      renderTab();
      return;
    }
    st.setup = null;
    ctrl.board.setEditor(null);
    await ctrl.ground.newBoard(st.rules, pos, [], { kind: 'free' });
    history.replaceState(null, '', '#/study?position=' + encodeURIComponent(pos));
    st.tab = 'analysis';
    st.engineOn = true;
    ctrl.tabs.render();
    ctrl.engine.analyse();
    app.notify(t('setup.legal'));
  }

  // play starts a game against the engine from the position: on the
  // server, or on this device when the player chose it or the server
  // cannot be reached (../device.js).
  async function play(level, color) {
    const su = st.setup;
    const pos = setupText(ctrl);
    const local = () => {
      const g = newOfflineGame({ position: pos, level, color });
      playSound('start');
      app.navigate('/local/' + g.id);
    };
    try {
      await fetchPosition({ position: pos });
      if (onDevice()) {
        local();
        return;
      }
      await ensureToken();
      const g = await api('POST', '/api/challenge/ai', { position: pos, level, color });
      playSound('start');
      app.navigate('/game/' + g.id);
    } catch (err) {
      if (unreachable(err)) {
        local();
        return;
      }
      su.error = errorText(err);
      renderTab();
    }
  }

  return { enter, leave, edit, renderTab };
}

// drawSetup draws what is set up, and the hands.
export function drawSetup(ctrl, hands, passBtn) {
  const su = ctrl.st.setup;
  ctrl.board.update({ pieces: piecesOf(su.cells), toMove: su.toMove }, {});
  ctrl.board.setHint(null);
  passBtn.hidden = true;
  replace(hands, ['white', 'black'].map((side) => h('span', { class: 'hand-of' + (su.toMove === side ? ' to-move' : '') },
    h('span', { class: 'stone-icon ' + side, 'aria-hidden': 'true' }), ' ', sideName(side), ' ',
    h('span', { class: 'hand', testid: 'hand-' + side, 'data-count': su.inHand[side] }, String(su.inHand[side])))));
}

// setupStatus says how many pieces each side has and whose turn it is.
export function setupStatus(ctrl) {
  const { st, status } = ctrl;
  const n = (c) => st.setup.cells.filter((x) => x === c).length;
  status.textContent = t('setup.status', { white: n('white'), black: n('black'), side: sideName(st.setup.toMove) });
  status.dataset.toMove = st.setup.toMove;
  status.dataset.gameStatus = 'setup';
}

// setupText is the position text of what is set up.
export function setupText(ctrl) {
  const { st } = ctrl;
  const su = st.setup;
  const n = piecesEach(st, ctrl.data);
  const ply = (n - su.inHand.white) + (n - su.inHand.black);
  return writePosition({ rules: st.rules, cells: su.cells, toMove: su.toMove, inHand: su.inHand, ply: Math.max(ply, 0) });
}

// playForm chooses the engine's level and one's colour, and play(level,
// colour) starts the game.
function playForm(play) {
  const level = h('select', { id: 'setup-level', testid: 'setup-level' },
    Array.from({ length: 10 }, (_, i) => h('option', { value: String(i + 1), selected: i + 1 === 5 }, String(i + 1))));
  const color = h('select', { id: 'setup-color', testid: 'setup-color' },
    h('option', { value: 'white' }, t('form.colorWhite')),
    h('option', { value: 'black' }, t('form.colorBlack')));
  return h('div', { class: 'row' },
    h('label', { class: 'field' }, h('span', {}, t('form.level')), level),
    h('label', { class: 'field' }, h('span', {}, t('form.color')), color),
    h('button', { type: 'button', class: 'btn small', testid: 'setup-play', onclick: () => play(Number(level.value), color.value) }, t('setup.play')));
}

// linkForm shows the link to the position text, and copies it.
function linkForm(text, app) {
  const url = `${location.origin}${location.pathname}#/study?position=${encodeURIComponent(text)}`;
  const link = h('input', { type: 'text', readonly: true, id: 'setup-link', testid: 'setup-link', value: url, spellcheck: 'false' });
  return [
    h('label', { class: 'field' }, h('span', {}, t('setup.link')), link),
    h('div', { class: 'row' }, copyButton('setup-link-copy', link, app)),
  ];
}

function piecesOf(cells) {
  const out = { white: [], black: [] };
  cells.forEach((c, i) => { if (c) out[c].push(i); });
  return out;
}

// piecesEach is the number of pieces a side has in the rules shown.
function piecesEach(st, data) {
  const m = /(?:^|,)pieces=(\d+)/.exec(st.rules);
  if (m) return Number(m[1]);
  const p = data.rules.presets[presetOf(st.rules)];
  return p ? p.pieces : 9;
}
