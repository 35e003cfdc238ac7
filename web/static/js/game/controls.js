// The players' controls: pass, offers of a draw or a take-back and the
// answers to them, resign (confirmed), claim the win, the engine's hint in
// a game against the engine (POST /api/analysis); the bars of a
// premove and of a move waiting for its confirmation, and the switch for
// confirmations in a correspondence game.

import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { parsePosition } from '../notation.js';
import { api } from '../api.js';
import { sideName, scoreWords, errorText } from '../ui.js';
import { currentView } from './state.js';
import { confirmWanted, setConfirmWanted } from './premove.js';

// gameOffers shows the offers standing, with the answers for the player
// they were made to.
export function gameOffers(ctrl) {
  const { st } = ctrl;
  const el = h('div', { class: 'offers', testid: 'offers' });
  const command = (msg) => ctrl.socket.command(msg);

  function render() {
    const list = [];
    for (const o of st.offers) {
      const mine = st.mySide && o.by === st.mySide;
      const label = t(o.kind === 'draw' ? (mine ? 'offer.drawSent' : 'offer.drawFrom') : (mine ? 'offer.takebackSent' : 'offer.takebackFrom'), { side: sideName(o.by) });
      list.push(h('div', { class: 'offer', testid: 'offer-banner-' + o.kind, 'data-kind': o.kind, 'data-by': o.by },
        h('span', {}, label),
        st.mySide && !mine && st.status === 'active'
          ? h('span', { class: 'actions' },
            h('button', { type: 'button', class: 'btn small primary', testid: o.kind + '-accept', onclick: () => command({ type: o.kind, action: 'accept' }) }, t('offer.accept')),
            h('button', { type: 'button', class: 'btn small', testid: o.kind + '-decline', onclick: () => command({ type: o.kind, action: 'decline' }) }, t('offer.decline')))
          : null));
    }
    replace(el, list);
    el.hidden = list.length === 0;
  }

  return { el, render };
}

export function gameControls(ctrl) {
  const { st } = ctrl;
  const el = h('div', { class: 'controls', testid: 'game-controls' });
  const command = (msg) => ctrl.socket.command(msg);
  const btn = (tid, label, fn, extra = {}) => h('button', { type: 'button', class: 'btn small', testid: tid, onclick: fn, ...extra }, label);

  function render() {
    if (!st.full || !st.mySide || st.status !== 'active') {
      replace(el);
      el.hidden = true;
      return;
    }
    el.hidden = false;
    const v = currentView(st);
    const myTurn = st.toMove === st.mySide;
    const canPass = myTurn && v && v.legal.some((m) => m.kind === 'pass');
    const offered = (kind) => st.offers.some((o) => o.kind === kind && o.by === st.mySide);
    // A take-back undoes my last move (and the replies to it), so it needs
    // a ply at which I was to move: with turns alternating, one ply when the
    // opponent is to move, two when I am; one whenever I moved first. The
    // server checks exactly (a side may have moved twice running).
    const iStarted = parsePosition(st.full.start).toMove === st.mySide;
    const takebackPlies = myTurn && !iStarted ? 2 : 1;
    replace(el,
      waitingMove(),
      canPass ? btn('pass', t('game.pass'), () => {
        const m = v.legal.find((x) => x.kind === 'pass');
        ctrl.ground.sendMove(m);
      }, { class: 'btn small primary' }) : null,
      btn('offer-draw', offered('draw') ? t('game.drawOffered') : t('game.offerDraw'), () => command({ type: 'draw', action: 'offer' }), { disabled: offered('draw') }),
      btn('offer-takeback', offered('takeback') ? t('game.takebackAsked') : t('game.askTakeback'), () => command({ type: 'takeback', action: 'offer' }), { disabled: offered('takeback') || st.moves.length < takebackPlies }),
      hintButton(myTurn),
      resign(),
      ctrl.clock.canClaim() ? btn('claim-victory', t('game.claim'), () => command({ type: 'claim-victory' }), { class: 'btn small primary' }) : null);
  }

  // waitingMove: the bars of a move waiting for its confirmation and of a
  // premove, and the switch for confirmations (correspondence games).
  function waitingMove() {
    const corr = !!(st.full.control && st.full.control.forfeitDays > 0);
    const pending = st.pendingConfirm;
    return [
      pending ? h('div', { class: 'confirm-move', testid: 'confirm-bar', 'data-move': pending.text },
        h('span', {}, t('game.confirmMove', { move: pending.text })), ' ',
        btn('confirm-move', t('game.confirm'), () => { const m = st.pendingConfirm; ctrl.ground.sendMove(m); }, { class: 'btn small primary' }),
        btn('cancel-move', t('common.cancel'), () => { st.pendingConfirm = null; ctrl.renderAll(); })) : null,
      st.premove ? h('div', { class: 'premove-bar', testid: 'premove-bar', 'data-move': st.premove.text },
        h('span', {}, t('game.premoveSet', { move: st.premove.text })), ' ',
        btn('premove-cancel', t('common.cancel'), () => ctrl.premove.cancel())) : null,
      corr ? h('label', { class: 'check small' }, h('input', {
        type: 'checkbox', testid: 'confirm-toggle', checked: confirmWanted(),
        onchange: (e) => { setConfirmWanted(e.target.checked); },
      }), h('span', {}, t('game.confirmToggle'))) : null,
    ];
  }

  // hintButton: in a game against the engine, on the player's turn, the
  // engine's best move at full strength, drawn on the board and said with
  // its score, for the position of now only (st.hint.ply).
  function hintButton(myTurn) {
    if (!st.full.engineLevel || !myTurn) return null;
    const ply = st.moves.length;
    const hint = st.hint && st.hint.ply === ply ? st.hint : null;
    const ask = async () => {
      st.hint = { ply, asking: true };
      render();
      let a;
      try {
        a = await api('POST', '/api/analysis', { position: st.full.start, moves: st.moves.slice(), movetimeMs: 1000 }, { auth: false });
      } catch (err) {
        a = { error: errorText(err) };
      }
      if (!st.hint || st.hint.ply !== ply || st.moves.length !== ply) return; // a move came meanwhile
      st.hint = a.error ? { ply, error: a.error } : { ply, move: a.best || '', words: a.best ? scoreWords(a.score, a.scoreText, st.mySide, a.proved) : '' };
      ctrl.renderAll();
    };
    return h('span', { class: 'hint-box' },
      btn('hint', t('game.hint'), ask, { disabled: !!(hint && hint.asking), title: t('game.hintTitle') }),
      hint && !hint.asking ? h('span', { class: hint.error ? 'form-error' : 'hint-text', testid: 'hint-text', 'data-move': hint.move || '' },
        hint.error || (hint.move ? t('game.hintMove', { move: hint.move, score: hint.words }) : t('game.hintNone'))) : null);
  }

  // resign asks for a confirmation, forgotten after five seconds.
  function resign() {
    if (st.confirmResign) {
      return h('span', { class: 'confirm' },
        btn('resign-confirm', t('game.resignConfirm'), () => { st.confirmResign = false; command({ type: 'resign' }); }, { class: 'btn small danger' }),
        btn('resign-cancel', t('common.cancel'), () => { st.confirmResign = false; render(); }));
    }
    return btn('resign', t('game.resign'), () => {
      st.confirmResign = true;
      render();
      setTimeout(() => { if (st.confirmResign) { st.confirmResign = false; render(); } }, 5000);
    });
  }

  return { el, render };
}
