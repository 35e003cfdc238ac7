// The leaderboard of a preset (#/leaderboard/VARIANT, nine men's morris
// by default): the best players with enough rated games and a rating that
// is no longer provisional (GET /api/leaderboard/VARIANT), in pages.

import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { api, variants } from '../api.js';
import { variantSelect, playerLink, errorText } from '../ui.js';

const PAGE = 50;

export function mount(main, params, app) {
  const variant = params[0] || 'nine-mens-morris';
  app.title(t('leaderboard.title'));
  let alive = true;
  const st = { variant, total: 0, entries: [], more: false, error: '' };
  const select = h('span', {});
  const rule = h('p', { class: 'muted small', testid: 'leaderboard-rule' });
  const body = h('div', { testid: 'leaderboard-list' }, h('p', { class: 'muted' }, t('common.loading')));
  const more = h('button', { type: 'button', class: 'btn small', testid: 'leaderboard-more', hidden: true, onclick: () => load() }, t('leaderboard.more'));
  main.append(h('div', { class: 'single wide' },
    h('section', { class: 'panel', testid: 'leaderboard-page', 'data-variant': variant },
      h('div', { class: 'user-head' }, h('h1', {}, t('leaderboard.title')), select),
      rule, body, more)));

  variants().then((list) => {
    if (!alive) return;
    replace(select, h('label', { class: 'inline-label' }, h('span', { class: 'sr-only' }, t('user.variant')),
      variantSelect(list, variant, {
        testid: 'leaderboard-variant', 'aria-label': t('user.variant'),
        onchange: (ev) => app.navigate('/leaderboard/' + ev.target.value),
      })));
  }).catch(() => {});

  function render() {
    if (st.error) {
      replace(body, h('p', { class: 'form-error', testid: 'leaderboard-error' }, st.error));
      return;
    }
    if (!st.entries.length) {
      replace(body, h('p', { class: 'muted empty', testid: 'leaderboard-empty' }, t('leaderboard.empty')));
      return;
    }
    replace(body, h('table', { class: 'table leaderboard', testid: 'leaderboard-table' },
      h('thead', {}, h('tr', {},
        h('th', { class: 'num' }, t('leaderboard.rank')), h('th', {}, t('leaderboard.player')),
        h('th', { class: 'num' }, t('user.rating')), h('th', { class: 'num' }, t('user.gamesCount')))),
      h('tbody', {}, st.entries.map((e) => h('tr', {
        testid: 'leaderboard-row-' + e.rank, 'data-name': e.user.name, 'data-rating': e.rating, 'data-games': e.games,
      },
      h('td', { class: 'num' }, e.rank),
      h('td', {}, playerLink(e.user)),
      h('td', { class: 'num', title: '±' + e.deviation }, e.rating),
      h('td', { class: 'num' }, e.games))))));
  }

  async function load() {
    more.disabled = true;
    try {
      const lb = await api('GET', `/api/leaderboard/${encodeURIComponent(variant)}?offset=${st.entries.length}&limit=${PAGE}`, undefined, { auth: false });
      if (!alive) return;
      st.entries = st.entries.concat(lb.entries);
      st.total = lb.total;
      st.more = lb.more;
      replace(rule, t('leaderboard.rule', { games: lb.minGames, rd: lb.maxDeviation }));
    } catch (err) {
      if (!alive) return;
      st.error = errorText(err);
    } finally {
      more.disabled = false;
    }
    more.hidden = !st.more;
    render();
  }
  load();

  app.debug(() => ({
    variant: st.variant, total: st.total, error: st.error,
    entries: st.entries.map((e) => ({ rank: e.rank, name: e.user.name, rating: e.rating, games: e.games })),
  }));
  return () => { alive = false; };
}
