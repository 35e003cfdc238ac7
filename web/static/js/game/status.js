// The game's status line: the connection while it is not open, whose turn
// it is and what the turn asks (a placement, a removal, a pass), the result,
// the deadline of a correspondence game, and a passing message (an error,
// a dropped premove) in front for a few seconds.

import { h } from '../dom.js';
import { t } from '../i18n.js';
import { resultText, sideName } from '../ui.js';
import { live, currentView } from './state.js';

export function gameStatus(ctrl) {
  const { st } = ctrl;
  const el = h('div', { class: 'status', role: 'status', 'aria-live': 'polite', testid: 'status' }, t('game.connecting'));
  let messageTimer = 0;

  function connText() {
    if (st.conn === 'reconnecting') return t('game.reconnecting', { n: st.attempt });
    if (st.conn === 'connecting') return t('game.connecting');
    if (st.conn === 'closed') return t('game.closed');
    return '';
  }

  function render() {
    let text = connText();
    if (!text && st.full) text = gameText(currentView(st));
    if (st.message) text = st.message + (text ? ' · ' + text : '');
    el.textContent = text;
    el.dataset.connection = st.conn;
    el.dataset.gameStatus = st.status;
    el.dataset.toMove = st.toMove;
    el.classList.toggle('warn', st.conn === 'reconnecting' || !!st.message);
  }

  // gameText says where the game stands, with v the view of the position
  // of now if it has come.
  function gameText(v) {
    let text;
    if (st.status !== 'active') text = resultText(st.result, st.method);
    else if (st.mySide && st.toMove === st.mySide) {
      text = t('game.yourTurn');
      if (v && v.legal.length && v.legal.every((m) => m.kind === 'pass')) text = t('game.mustPass');
      else if (v && v.legal.length && v.legal.every((m) => m.kind === 'remove')) text = removalText(v);
      else if (v && v.inHand[st.mySide] > 0 && v.legal.some((m) => m.kind === 'place')) text = t('game.yourTurnPlace', { n: v.inHand[st.mySide] });
      else if (v && v.flying[st.mySide]) text = t('game.yourTurnFly');
    } else if (st.mySide) {
      const n = v && v.removal === st.toMove ? Math.max(1, v.owed[st.toMove]) : 0;
      const name = st.full[st.toMove].name;
      text = n > 1 ? t('game.waitingRemovals', { name, n }) : n ? t('game.waitingRemoval', { name }) : t('game.waiting', { name });
    } else {
      text = v && v.removal === st.toMove ? t('game.toMoveRemoval', { side: sideName(st.toMove) }) : t('game.toMove', { side: sideName(st.toMove) });
    }
    if (v && v.marked && v.marked.length && live(st)) text += ' · ' + t('game.marked', { n: v.marked.length });
    if (!live(st)) text += ' · ' + t('game.viewing', { n: st.cursor });
    const dl = ctrl.clock.deadline();
    if (dl) text += ' · ' + dl;
    return text;
  }

  // removalText says what a turn of removals asks: how many are owed,
  // one's own pieces (el filja with no mill), or a blocked side's removal
  // before it moves (zhi qi).
  function removalText(v) {
    const owed = v.owed ? v.owed[st.mySide] : 0;
    if (owed === 0 && v.removal) return t('game.blockedRemoval');
    if (v.removesOwn) return t('game.chooseOwnRemoval');
    if (owed > 1) return t('game.chooseRemovals', { n: owed });
    return t('game.chooseRemoval');
  }

  // setMessage shows text in front of the status for six seconds; an
  // error is kept as the last (for the tests).
  function setMessage(text) {
    st.message = text;
    if (text) st.lastError = text;
    render();
    clearTimeout(messageTimer);
    messageTimer = setTimeout(() => { st.message = ''; render(); }, 6000);
  }

  return { el, render, setMessage, stop: () => clearTimeout(messageTimer) };
}
