// The review of the moves on the board, an imported record's too (POST
// /api/review, then read each second until done), in the review panel
// under the move list.

import { h } from '../dom.js';
import { t } from '../i18n.js';
import { api } from '../api.js';
import { ReviewPanel } from '../review.js';
import { body } from './state.js';

export function studyReview(ctrl) {
  const { st } = ctrl;
  const panel = new ReviewPanel({ moveList: ctrl.moveList, onGo: (k) => ctrl.ground.go(k) });
  let reviewFor = ''; // the start and moves of panel.rv

  function reviewKey() {
    return (st.start || st.rules) + '|' + st.moves.join(' ');
  }

  function request() {
    reviewFor = reviewKey();
    panel.follow(api('POST', '/api/review', body(st, st.moves.length), { auth: false }), (x) => '/api/review/' + x.id, (x) => {
      if (!ctrl.alive) return;
      panel.rv = x;
      render();
    });
  }

  // render draws the review of the moves on the board, or offers one.
  function render() {
    if (st.tab !== 'analysis') return;
    const current = panel.rv && reviewFor === reviewKey();
    panel.render(current ? panel.rv : null, st.cursor, st.moves.length ? [
      h('button', { type: 'button', class: 'btn small', testid: 'review-request', onclick: request }, t('review.requestMoves'))] : null);
  }

  // debug is the review for morrisDebug.state().
  function debug() {
    const rv = panel.rv;
    return rv && !rv.error ? { status: rv.status, done: rv.done, total: rv.total } : null;
  }

  return { el: panel.el, render, debug, stop: () => panel.stop() };
}
