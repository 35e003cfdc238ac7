// The opening explorer (analysis tab): the moves this server's finished
// games played from the position shown, with their results and the book's
// values (GET /api/explorer); a click on a legal move plays it.

import { h, replace, debounce } from '../dom.js';
import { t } from '../i18n.js';
import { api } from '../api.js';
import { errorText, piecesText, scoreWords } from '../ui.js';
import { key, currentView } from './state.js';

export function studyExplorer(ctrl) {
  const { st } = ctrl;
  const el = h('section', { class: 'explorer', testid: 'explorer', 'aria-live': 'polite' });
  const explored = new Map(); // position text -> the explorer's answer

  // explore reads the explorer's answer for the position shown, once.
  const explore = debounce(async () => {
    const v = st.view;
    if (!v || st.viewKey !== key(st, st.cursor) || st.setup) return;
    if (!explored.has(v.position)) {
      try {
        const ex = await api('GET', '/api/explorer?position=' + encodeURIComponent(v.position), undefined, { auth: false });
        explored.set(v.position, ex);
      } catch (err) {
        if (!ctrl.alive) return;
        replace(el, h('p', { class: 'form-error' }, errorText(err)));
        return;
      }
    }
    if (ctrl.alive) render();
  }, 150);

  function render() {
    const v = currentView(st);
    const ex = v && explored.get(v.position);
    if (!ex) {
      replace(el, h('h2', {}, t('explorer.title')), h('p', { class: 'muted' }, t('common.loading')));
      return;
    }
    const rows = ex.moves.map((m) => row(m, v.legal.find((x) => x.text === m.move), v.toMove));
    replace(el,
      h('h2', {}, t('explorer.title')),
      h('p', { class: 'muted', testid: 'explorer-total', 'data-games': ex.games }, t('explorer.total', { n: ex.games })),
      rows.length ? h('table', { class: 'explorer-table' },
        h('thead', {}, h('tr', {},
          h('th', {}, t('explorer.move')), h('th', { class: 'num' }, t('explorer.games')),
          h('th', {}, t('explorer.results')), h('th', { class: 'num', title: t('score.explain') }, t('explorer.book'), h('span', { class: 'unit small muted' }, t('explorer.bookUnit'))))),
        h('tbody', {}, rows))
        : h('p', { class: 'muted', testid: 'explorer-empty' }, t('explorer.none')));
  }

  // row is the explorer's move m, played by a click when legal (the move of
  // the view) is not undefined.
  function row(m, legal, side) {
    const pct = (n, of) => (of ? Math.round((100 * n) / of) : 0);
    return h('tr', {
      testid: 'explorer-row-' + m.move, 'data-move': m.move, 'data-games': m.games, 'data-white': m.white,
      'data-draws': m.draws, 'data-black': m.black, 'data-book': m.book === undefined ? '' : m.book,
      class: legal ? 'playable' : '', tabindex: legal ? '0' : undefined,
      onclick: () => { if (legal) ctrl.ground.play(legal); },
      onkeydown: (e) => { if (legal && (e.key === 'Enter' || e.key === ' ')) { e.preventDefault(); ctrl.ground.play(legal); } },
    },
    h('td', { class: 'mono' }, m.move),
    h('td', { class: 'num' }, m.games ? String(m.games) : '–'),
    h('td', {}, m.games ? h('div', { class: 'result-bar', title: t('explorer.split', { white: m.white, draws: m.draws, black: m.black }) },
      h('span', { class: 'w', style: `width:${pct(m.white, m.games)}%` }, m.white ? String(m.white) : ''),
      h('span', { class: 'd', style: `width:${pct(m.draws, m.games)}%` }, m.draws ? String(m.draws) : ''),
      h('span', { class: 'b', style: `width:${pct(m.black, m.games)}%` }, m.black ? String(m.black) : '')) : null),
    // The book's value is for the side that plays the move: in pieces.
    m.book === undefined ? h('td', { class: 'num' }) : h('td', { class: 'num', title: scoreWords(m.book, '', side) }, piecesText(m.book)));
  }

  return { el, explore, render };
}
