// After the game: the result, the links (the record, the analysis board,
// another game against the engine), and the engine's review, which anyone
// may ask for: its progress, then the evaluation drawn along the game (a
// click on a point goes there), the marked moves with the better ones, and
// the marks in the move list.

import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { api } from '../api.js';
import { resultText } from '../ui.js';
import { ReviewPanel } from '../review.js';
import { shownPly } from './state.js';

export function gameResult(ctrl) {
  const { st, id } = ctrl;
  const box = h('div', { class: 'result-box', testid: 'result', hidden: true });
  const after = h('div', { class: 'after', testid: 'after-game' });
  const review = new ReviewPanel({ moveList: ctrl.moveList, onGo: (k) => ctrl.goTo(k), hidden: true });
  let reviewLoaded = false;

  function render() {
    if (!st.full || st.status === 'active') {
      box.hidden = true;
      replace(after);
      review.el.hidden = true;
      return;
    }
    if (!reviewLoaded) {
      reviewLoaded = true;
      followReview('GET'); // the review, if one was asked for
    } else if (review.rv && review.rv.status === 'done') {
      // The graph's current point follows the replay.
      review.showCursor(shownPly(st));
    }
    box.hidden = false;
    box.dataset.result = st.result;
    replace(box,
      h('div', { class: 'score' }, st.result),
      h('div', {}, resultText(st.result, st.method)));
    replace(after,
      h('a', { class: 'btn small', href: `/api/game/${id}/export`, download: `morris-${id}.pgn`, testid: 'export' }, t('game.export')),
      h('a', { class: 'btn small', href: `#/study/game/${id}`, testid: 'analyse' }, t('game.analyse')),
      st.full.engineLevel ? h('a', { class: 'btn small primary', href: '#/play', testid: 'play-again' }, t('game.playAgain')) : null);
  }

  // followReview reads the game's review (GET) or asks for one (POST), and
  // follows it while it runs.
  function followReview(method) {
    const url = `/api/game/${id}/review`;
    review.follow(api(method, url, undefined, { auth: false }), () => url, (x) => {
      if (!ctrl.alive) return;
      review.rv = x && x.status === 'none' ? null : x;
      renderReview();
    });
  }

  function renderReview() {
    review.el.hidden = !st.full || st.status === 'active';
    if (review.el.hidden) return;
    review.render(review.rv, shownPly(st), [
      h('p', { class: 'muted' }, t('review.intro')),
      h('button', { type: 'button', class: 'btn small primary', testid: 'review-request', onclick: () => followReview('POST') }, t('review.request'))]);
  }

  // debug is the review for morrisDebug.state().
  function debug() {
    const rv = review.rv;
    return rv ? { status: rv.status, done: rv.done, total: rv.total, marks: rv.moves ? rv.moves.filter((m) => m.mark).length : 0 } : null;
  }

  return {
    box, after, reviewEl: review.el, render, debug,
    markMoves: () => review.markMoves(),
    stop: () => review.stop(),
  };
}
