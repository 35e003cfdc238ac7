// Moves that wait. In a real-time game a player may premove on the
// opponent's turn: the move is played the moment the turn comes, if it is
// still legal. In a correspondence game a move can wait for a confirmation
// (a switch kept in the browser).

import { t } from '../i18n.js';
import { position as fetchPosition } from '../api.js';
import { play as playSound } from '../sound.js';
import { live } from './state.js';

const CONFIRM_KEY = 'morris.confirmCorrespondence';

// confirmWanted reports whether the switch for confirmations is on.
export function confirmWanted() {
  return localStorage.getItem(CONFIRM_KEY) === 'on';
}

export function setConfirmWanted(on) {
  localStorage.setItem(CONFIRM_KEY, on ? 'on' : 'off');
}

// confirmOn reports whether a move waits for a confirmation in this game.
export function confirmOn(st) {
  return confirmWanted() && !!st.full && !!st.full.control && st.full.control.forfeitDays > 0;
}

// canPremove reports whether this page may premove now.
export function canPremove(st) {
  return !!st.mySide && st.status === 'active' && st.toMove !== st.mySide && live(st) && !!(st.full && st.full.control && st.full.control.initialMs);
}

export function premoves(ctrl) {
  const { st } = ctrl;

  // loadView asks for this side's moves in the position shown, as if it
  // were its turn: the premoves it may make.
  function loadView() {
    const text = st.position;
    if (st.preView && st.preView.loading === text) return;
    const f = text.split(/\s+/);
    f[2] = st.mySide === 'white' ? 'w' : 'b';
    f[4] = '-'; // no removal owed by this side now
    st.preView = { loading: text };
    fetchPosition({ position: f.join(' ') }).then((v) => {
      if (!ctrl.alive || st.position !== text) return;
      st.preView = { for: text, view: v };
      ctrl.ground.render();
    }).catch(() => {
      st.preView = { for: text, view: { legal: [] } };
    });
  }

  // set keeps a move for the turn to come.
  function set(m) {
    st.premove = m;
    playSound('premove');
    ctrl.ground.render();
    ctrl.controls.render();
  }

  function cancel() {
    st.premove = null;
    ctrl.ground.render();
    ctrl.controls.render();
  }

  // play plays the premove when the turn has come, if it is legal in v.
  function play(v) {
    const want = st.premove;
    st.premove = null;
    const m = v.legal.find((x) => x.text === want.text);
    if (m) {
      ctrl.ground.sendMove(m);
      return;
    }
    ctrl.status.setMessage(t('game.premoveDropped', { move: want.text }));
    ctrl.controls.render();
  }

  return { loadView, set, cancel, play };
}
