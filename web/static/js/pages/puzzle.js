// Puzzles (#/puzzle: the next one for this player, #/puzzle/ID): a
// position from perfect play where one move wins; the player moves on the
// board, each move is checked by the server (POST /api/puzzle/ID/moves),
// which answers with the best defence, until the puzzle is solved or a
// move is not the solution's. A wrong move does not show the solution: the
// player asks for it (POST /api/puzzle/ID/solution), and sees it on the
// board (the wrong move taken back, an arrow for the right one), or takes
// the wrong move back and tries again. A signed-in player's first attempt
// at a puzzle moves their puzzle rating (and the puzzle's); a try after it
// is practice.

import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { api, boards, session, position as fetchPosition, ApiError } from '../api.js';
import { Board } from '../board.js';
import { sideName, errorText } from '../ui.js';
import { play as playSound, moveKind } from '../sound.js';
import { adjacentNames, parseMove } from '../notation.js';
import { blindPanel } from '../blind.js';

export function mount(main, params, app) {
  const wanted = params[0] ? Number(params[0]) : 0;
  app.title(t('puzzle.title'));
  let alive = true;
  const st = { puzzle: null, line: [], mine: [], status: 'loading', answer: null, view: null, error: '', solution: null,
    wrong: '', before: null, retries: 0 }; // wrong: the move that failed; before: the view before it
  let board = null;
  let boardData = null;
  const boardHolder = h('div', { class: 'board-holder', testid: 'board-holder' }, h('div', { class: 'board-placeholder' }));
  const status = h('div', { class: 'status', role: 'status', 'aria-live': 'polite', testid: 'puzzle-status' }, t('common.loading'));
  const info = h('div', { class: 'game-info', testid: 'puzzle-info' });
  const result = h('div', { class: 'puzzle-result', testid: 'puzzle-result', hidden: true });
  const solutionText = h('p', { testid: 'puzzle-solution', hidden: true });
  const showSolution = h('button', { type: 'button', class: 'btn small', testid: 'puzzle-show-solution', hidden: true, onclick: reveal }, t('puzzle.showSolution'));
  const retry = h('button', { type: 'button', class: 'btn small', testid: 'puzzle-retry', hidden: true, onclick: tryAgain }, t('puzzle.retry'));
  const next = h('a', { class: 'btn primary', href: '#/puzzle', testid: 'puzzle-next', hidden: true,
    onclick: (e) => { e.preventDefault(); if (location.hash === '#/puzzle') location.reload(); else app.navigate('/puzzle'); } }, t('puzzle.next'));
  // blindSource is what blind mode reads of the page (blind.js): the line
  // played, the position shown, the puzzle's verdict as its note.
  const blind = blindPanel({
    root: main, play: (m) => move(m), source: () => {
      if (!board || !st.view) return null;
      const back = !!(answerMove() && st.before);
      const v = back ? st.before : st.view;
      return {
        data: boardData, view: v, key: v.position, moves: st.line, ply: st.line.length - (back ? 1 : 0), live: true,
        legal: st.status === 'solving' ? v.legal : [], startToMove: st.puzzle.toMove, mySide: st.puzzle.toMove,
        names: null, clocks: null, over: null, marks: false, note: status.textContent,
      };
    },
  });
  main.append(h('div', { class: 'game-layout', testid: 'puzzle-page' },
    h('div', { class: 'board-col' }, boardHolder, blind.el),
    h('aside', { class: 'side-col panel' }, h('h1', {}, t('puzzle.title')), info, status, solutionText, showSolution, retry, result, next)));

  blind.focus();
  load();

  async function load() {
    try {
      const [bs, p] = await Promise.all([boards(), api('GET', wanted ? `/api/puzzle/${wanted}` : '/api/puzzle/next', undefined, { auth: !!session() })]);
      if (!alive) return;
      if (!p) throw new ApiError(404, 'none'); // no puzzle (left) on this server
      st.puzzle = p;
      boardData = bs[Object.keys(bs).find((k) => k === 'standard24')] || Object.values(bs)[0];
      const v = await fetchPosition({ position: p.position });
      if (!alive) return;
      boardData = bs[v.board] || boardData;
      board = new Board(boardData, { onMove: move, flipped: p.toMove === 'black', label: t('board.label') });
      replace(boardHolder, board.el);
      st.view = v;
      st.status = 'solving';
      render();
    } catch (err) {
      if (!alive) return;
      st.status = 'error';
      st.error = err instanceof ApiError && err.status === 404 ? t('puzzle.none') : errorText(err);
      render();
    }
  }

  async function move(m) {
    if (st.status !== 'solving') return;
    st.status = 'checking';
    st.mine.push(m.text);
    playSound(moveKind(m.text, (a, b) => adjacentNames(boardData, a, b)));
    let ans;
    try {
      // A try after a wrong move is practice: sent without the session, so
      // that the player's record keeps the attempt that counted.
      ans = await api('POST', `/api/puzzle/${st.puzzle.id}/moves`, { moves: st.mine }, { auth: !!session() && st.retries === 0 });
    } catch (err) {
      st.mine.pop();
      st.status = 'solving';
      st.error = errorText(err);
      render();
      return;
    }
    if (!alive) return;
    st.answer = ans;
    if (!ans.correct) {
      st.wrong = m.text;
      st.before = st.view;
    }
    st.line.push(m.text);
    if (ans.correct && ans.reply) st.line.push(ans.reply);
    st.status = ans.done ? (ans.solved ? 'solved' : 'failed') : 'solving';
    st.error = '';
    try {
      st.view = await fetchPosition({ position: st.puzzle.position, moves: st.line });
    } catch (err) {
      st.error = errorText(err);
    }
    if (!alive) return;
    if (ans.reply) playSound(moveKind(ans.reply, (a, b) => adjacentNames(boardData, a, b)));
    if (ans.done) playSound(ans.solved ? 'end' : 'notify');
    render();
  }

  // tryAgain takes the wrong move back: the position before it, to solve.
  function tryAgain() {
    if (!st.wrong) return;
    st.mine.pop();
    st.line.pop();
    st.view = st.before;
    st.wrong = '';
    st.before = null;
    st.answer = null;
    st.solution = null;
    st.status = 'solving';
    st.retries++;
    render();
  }

  // answerMove is the solution's move at the position the player is to
  // solve (before a wrong move), or '' while the solution is not known.
  function answerMove() {
    if (!st.solution) return '';
    const i = st.mine.length - (st.wrong ? 1 : 0);
    return st.solution[2 * i] || '';
  }

  // reveal asks the server for the solution: giving up, which for a
  // signed-in player who has not failed yet is a failed attempt.
  async function reveal() {
    showSolution.disabled = true;
    try {
      const ans = await api('POST', `/api/puzzle/${st.puzzle.id}/solution`, undefined, { auth: !!session() });
      if (!alive) return;
      st.solution = ans.solution || [];
      if (st.status === 'solving') {
        st.status = 'failed';
        st.answer = ans;
      }
      st.error = '';
    } catch (err) {
      st.error = errorText(err);
    }
    showSolution.disabled = false;
    if (alive) render();
  }

  function render() {
    const p = st.puzzle;
    if (st.status === 'error') {
      if (!board) boardHolder.hidden = true; // no empty board above the message
      status.textContent = st.error;
      next.hidden = true;
      return;
    }
    if (!p || !board) return;
    replace(info,
      h('div', { testid: 'puzzle-id', 'data-id': p.id }, t('puzzle.number', { id: p.id })),
      h('div', { class: 'muted', testid: 'puzzle-rating', 'data-rating': p.rating }, t('puzzle.rating', { n: p.rating, plays: p.plays })),
      p.source && p.source.startsWith('game ') ? h('div', { class: 'muted', testid: 'puzzle-source' },
        h('a', { href: '#/game/' + p.source.slice(5) }, t('puzzle.fromGame', { game: t('puzzle.gameN', { id: p.source.slice(5) }) }))) : null);
    // The solution shown on the board: at the position to solve (a wrong
    // move taken back), an arrow or a ring for the move that wins.
    const answer = answerMove();
    const v = answer && st.before ? st.before : st.view;
    const solving = st.status === 'solving';
    board.update(v, { legal: solving ? v.legal : [], interactive: solving });
    board.setHint(answer ? { ...(v.legal.find((x) => x.text === answer) || parseMove(answer, boardData)), text: answer } : null);
    let text = t(p.goal === 'draw' ? 'puzzle.toDraw' : 'puzzle.toPlay', { side: sideName(p.toMove) });
    if (st.status === 'checking') text = t('common.loading');
    if (solving && st.mine.length) text = t('puzzle.correct');
    if (st.status === 'solved') text = t('puzzle.solved');
    if (st.status === 'failed') {
      if (!st.wrong) text = t('puzzle.failed');
      else text = st.solution ? t('puzzle.answerOnBoard', { move: answerMove() }) : t('puzzle.failedHow');
    }
    if (st.error) text = st.error + ' · ' + text;
    status.textContent = text;
    status.dataset.status = st.status;
    solutionText.hidden = !st.solution;
    solutionText.textContent = st.solution ? t('puzzle.solution', { line: st.solution.join(' ') }) : '';
    showSolution.hidden = !!st.solution || !(st.status === 'failed' || st.status === 'solving');
    retry.hidden = !(st.status === 'failed' && st.wrong);
    const a = st.answer;
    result.hidden = !(a && a.done);
    if (a && a.done) {
      replace(result, a.rating
        ? h('p', { testid: 'puzzle-rating-change', 'data-before': a.rating.before, 'data-after': a.rating.after },
          t('puzzle.ratingChange', { before: a.rating.before, after: a.rating.after }))
        : h('p', { class: 'muted' }, session() ? t('puzzle.unrated') : t('puzzle.signIn')));
    }
    next.hidden = !(a && a.done);
  }

  app.debug(() => ({
    id: st.puzzle ? st.puzzle.id : 0,
    status: st.status,
    moves: st.line.slice(),
    position: st.view ? st.view.position : null,
    legal: st.status === 'solving' && st.view ? st.view.legal.map((m) => m.text) : [],
    puzzleRating: st.answer && st.answer.rating ? st.answer.rating : null,
    solution: st.solution,
    wrong: st.wrong,
    answer: answerMove(),
    retries: st.retries,
  }));
  return () => {
    alive = false;
    blind.stop();
  };
}
