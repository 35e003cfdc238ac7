// The engine's review, one panel for the game page and the study board:
// the request while there is none, the progress while the engine works,
// then the evaluation drawn along the moves, each side's summary and the
// marked moves with the better ones, and the marks in the page's move list.

import { h, replace, s as svg } from './dom.js';
import { t, language } from './i18n.js';
import { api } from './api.js';
import { sideName, errorText, scoreWords } from './ui.js';

// ReviewPanel is the review's section of a page. The page tells it which
// review to follow (follow), keeps the answers it wants in rv, and draws it
// (render) with the position shown; onGo(k) shows the position after k
// moves.
export class ReviewPanel {
  constructor({ moveList, onGo, hidden = false }) {
    this.moveList = moveList;
    this.onGo = onGo;
    this.rv = null;
    this.stopFollowing = () => {};
    this.el = h('section', { class: 'review panel-sub', testid: 'review', hidden, 'aria-live': 'polite' });
  }

  // follow takes the first answer about a review (a promise) and reads it
  // again (GET url(rv)) while it waits or runs, calling onChange with each
  // answer; it stops the review followed before.
  follow(first, url, onChange) {
    this.stopFollowing();
    this.stopFollowing = followReview(first, url, onChange);
  }

  stop() {
    this.stopFollowing();
  }

  // render draws rv at cursor, the moves shown. With no review it shows
  // the title and request (elements), or nothing when request is null.
  render(rv, cursor, request) {
    const title = h('h2', {}, t('review.title'));
    if (!rv) {
      replace(this.el, request ? [title, ...request] : []);
      return;
    }
    if (rv.error) {
      replace(this.el, title, h('p', { class: 'form-error', testid: 'review-error' }, rv.error));
      return;
    }
    if (rv.status !== 'done') {
      replace(this.el, title,
        h('p', { class: 'muted' }, rv.status === 'queued' ? t('review.queued') : t('review.progress', { done: rv.done, total: rv.total })),
        h('progress', { testid: 'review-progress', max: String(rv.total), value: String(rv.done), 'data-done': rv.done, 'data-total': rv.total }));
      return;
    }
    replace(this.el, title, ...reviewDone(rv, { cursor, onGo: this.onGo }));
    markMoveList(this.moveList, rv);
  }

  // markMoves puts the marks of a finished review on the move list (which
  // the page may have drawn afresh).
  markMoves() {
    if (this.rv && this.rv.status === 'done') markMoveList(this.moveList, this.rv);
  }

  // showCursor marks the graph's point of the position shown.
  showCursor(cursor) {
    const g = this.el.querySelector('[data-testid="review-graph"]');
    if (g) for (const c of g.querySelectorAll('circle')) c.classList.toggle('current', c.dataset.testid === 'review-point-' + cursor);
  }
}

const MARKS = { inaccuracy: '?!', mistake: '?', blunder: '??' };

// reviewDone returns the elements of a finished review: the evaluation
// drawn along the moves (a point a position; a click calls onGo with it),
// how long the engine looked, the summary of each side, and the marked
// moves with the better ones (a click goes to where each was played).
function reviewDone(rv, { cursor, onGo }) {
  const sum = ['white', 'black'].map((side) => {
    const x = rv.summary[side];
    return x ? h('li', { testid: 'review-summary-' + side },
      t('review.summary', { side: sideName(side), inaccuracies: x.inaccuracies, mistakes: x.mistakes, blunders: x.blunders, loss: (x.averageLoss / 100).toLocaleString(language(), { minimumFractionDigits: 2, maximumFractionDigits: 2 }) })) : null;
  });
  const marked = rv.moves.filter((m) => m.mark);
  return [
    reviewGraph(rv, cursor, onGo),
    h('p', { class: 'muted small' }, rv.depth ? t('review.limitsDepth', { n: rv.depth }) : t('review.limitsMs', { n: rv.movetimeMs })),
    h('ul', { class: 'review-summary' }, sum),
    marked.length ? h('ol', { class: 'review-list', testid: 'review-list' }, marked.map((m) => h('li', {
      class: 'mark-' + m.mark, testid: 'review-item-' + m.ply, 'data-mark': m.mark, 'data-best': m.best, tabindex: '0',
      onclick: () => onGo(m.ply),
      onkeydown: (e) => { if (e.key === 'Enter') onGo(m.ply); },
    }, t('review.item', { move: m.move + MARKS[m.mark], mark: t('review.mark.' + m.mark), best: m.best, played: scoreWords(m.played, m.playedText, m.side, m.playedProved), score: scoreWords(m.score, m.scoreText, m.side, m.proved) }))))
      : h('p', { class: 'muted', testid: 'review-clean' }, t('review.clean')),
  ];
}

// reviewGraph draws the evaluation for white along the moves.
function reviewGraph(rv, cursor, onGo) {
  const W = 300;
  const H = 90;
  const n = rv.evals.length;
  const x = (i) => (n > 1 ? (i * (W - 8)) / (n - 1) + 4 : W / 2);
  const y = (v) => H / 2 - (v / 1000) * (H / 2 - 4);
  const points = rv.evals.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  return svg('svg', { class: 'review-graph', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': t('review.graph'), testid: 'review-graph', 'data-points': n },
    svg('rect', { x: 0, y: 0, width: W, height: H / 2, class: 'white-half' }),
    svg('line', { x1: 0, y1: H / 2, x2: W, y2: H / 2, class: 'mid' }),
    svg('polyline', { points, class: 'eval' }),
    rv.evals.map((v, i) => {
      const m = i > 0 ? rv.moves[i - 1] : null;
      return svg('circle', {
        cx: x(i).toFixed(1), cy: y(v).toFixed(1), r: m && m.mark ? 3.5 : 2.2,
        class: ['pt', m && m.mark ? 'mark-' + m.mark : '', i === cursor ? 'current' : ''].join(' ').trim(),
        testid: 'review-point-' + i, 'data-eval': v, onclick: () => onGo(i),
      }, svg('title', {}, i === 0 ? t('review.start') : `${m.move}${m.mark ? MARKS[m.mark] : ''} (${scoreWords(v, '', 'white')})`));
    }));
}

// markMoveList puts a finished review's marks on the moves of a move list.
function markMoveList(moveList, rv) {
  for (const m of rv.moves) {
    const b = moveList.list.querySelector(`[data-testid="move-${m.ply}"]`);
    if (!b || b.dataset.mark === (m.mark || '')) continue;
    b.dataset.mark = m.mark || '';
    if (m.mark) b.append(h('span', { class: 'mark mark-' + m.mark, 'aria-label': t('review.mark.' + m.mark) }, MARKS[m.mark]));
  }
}

// followReview reads the review again each second while it waits or runs
// (ReviewPanel.follow); a failure is an answer {error}. It returns a
// function that stops it.
function followReview(first, url, onChange) {
  let timer = 0;
  let stopped = false;
  const step = async (p) => {
    let rv;
    try {
      rv = await p;
    } catch (err) {
      rv = { error: errorText(err) };
    }
    if (stopped) return;
    onChange(rv);
    if (rv && !rv.error && (rv.status === 'queued' || rv.status === 'running')) {
      timer = setTimeout(() => step(api('GET', url(rv), undefined, { auth: false })), 1000);
    }
  };
  step(first);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
