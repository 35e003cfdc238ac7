// The archive of finished games (#/archive?player=&vs=&color=&variant=
// &result=&from=&to=): a search form whose fields are the address's query
// (a search is a link to share), and its games, the latest end first,
// each a link to its replay. A page the server gives short (few of the
// games it looked at matched) is followed by the next at once, a few
// times, before "More games" is left to the reader.

import { h, replace, formatDate } from '../dom.js';
import { t } from '../i18n.js';
import { api, variants } from '../api.js';
import { variantName, controlText, resultText, methodName, errorText } from '../ui.js';

const PAGE = 30;
const FIELDS = ['player', 'vs', 'color', 'variant', 'result', 'from', 'to'];

export function mount(main, _params, app, query) {
  app.title(t('archive.title'));
  let alive = true;
  const q = {};
  for (const f of FIELDS) if (query.get(f)) q[f] = query.get(f);
  const searched = Object.keys(q).length > 0 || query.has('all');
  const st = { games: [], next: '', error: '', loading: false, done: false };

  const input = (name, testid, attrs) => h('input', { name, testid, value: q[name] || '', ...attrs });
  const player = input('player', 'archive-player', { type: 'text', autocomplete: 'off', maxlength: '20' });
  const vs = input('vs', 'archive-opponent', { type: 'text', autocomplete: 'off', maxlength: '20' });
  const from = input('from', 'archive-from', { type: 'date' });
  const to = input('to', 'archive-to', { type: 'date' });
  const color = h('select', { name: 'color', testid: 'archive-color' },
    h('option', { value: '' }, t('archive.anyColor')),
    h('option', { value: 'white', selected: q.color === 'white' }, t('side.white')),
    h('option', { value: 'black', selected: q.color === 'black' }, t('side.black')));
  const result = h('select', { name: 'result', testid: 'archive-result' },
    [['', t('archive.anyResult')], ['1-0', t('result.whiteWins')], ['0-1', t('result.blackWins')], ['draw', t('result.draw')],
      ['win', t('archive.playerWon')], ['loss', t('archive.playerLost')]]
      .map(([v, label]) => h('option', { value: v, selected: (q.result || '') === v }, label)));
  const variant = h('select', { name: 'variant', testid: 'archive-variant' }, h('option', { value: '' }, t('archive.anyVariant')));
  variants().then((list) => {
    for (const v of list) variant.append(h('option', { value: v.id, selected: q.variant === v.id }, variantName(v.id)));
  }).catch(() => {});
  const field = (label, el) => h('label', { class: 'field' }, h('span', {}, label), el);
  const error = h('p', { class: 'form-error', role: 'alert', testid: 'archive-error' });
  const list = h('div', { class: 'list', testid: 'archive-list' });
  const more = h('button', { type: 'button', class: 'btn small', testid: 'archive-more', hidden: true, onclick: () => load(PAGE) }, t('archive.more'));

  const form = h('form', {
    class: 'archive-form', testid: 'archive-form',
    onsubmit: (ev) => {
      ev.preventDefault();
      const params = new URLSearchParams();
      for (const el of [player, vs, color, variant, result, from, to]) {
        const v = el.value.trim();
        if (v) params.set(el.name, v);
      }
      if (![...params.keys()].length) params.set('all', '1');
      const target = '/archive?' + params.toString();
      if (location.hash !== '#' + target) {
        app.navigate(target); // the page again, with the search in its address
        return;
      }
      // The same search again: read it again.
      st.games = [];
      st.next = '';
      st.error = '';
      st.done = false;
      load(PAGE);
    },
  },
  h('div', { class: 'row' }, field(t('archive.player'), player), field(t('archive.opponent'), vs), field(t('archive.color'), color)),
  h('div', { class: 'row' }, field(t('user.variant'), variant), field(t('archive.result'), result),
    field(t('archive.from'), from), field(t('archive.to'), to)),
  error,
  h('button', { type: 'submit', class: 'btn primary', testid: 'archive-submit' }, t('archive.search')));

  main.append(h('div', { class: 'single wide' },
    h('section', { class: 'panel', testid: 'archive-page' },
      h('h1', {}, t('archive.title')), h('p', { class: 'muted small' }, t('archive.intro')), form),
    h('section', { class: 'panel archive-results', hidden: !searched }, list, more)));

  function row(g) {
    return h('a', { href: '#/game/' + g.id, class: 'row-item game archive-game', testid: 'archive-game-' + g.id, 'data-id': g.id, 'data-result': g.result },
      h('span', { class: 'who' }, g.white.name, ' – ', g.black.name),
      h('span', { class: 'what' }, variantName(g.variant), g.rated ? h('span', { class: 'muted small' }, ' · ' + t('lobby.rated')) : null),
      h('span', { class: 'ctl' }, controlText(g.control)),
      h('span', { class: 'res', title: resultText(g.result, g.method) }, g.result,
        g.method ? h('span', { class: 'muted small' }, ' (' + methodName(g.method) + ')') : null),
      h('span', { class: 'muted small' }, formatDate(g.updatedMs)));
  }

  function render() {
    replace(error, st.error);
    if (!st.games.length && st.done && !st.error) replace(list, h('p', { class: 'muted empty', testid: 'archive-empty' }, t('archive.empty')));
    else if (!st.games.length && st.loading) replace(list, h('p', { class: 'muted' }, t('common.loading')));
    else replace(list, st.games.map(row));
    more.hidden = !st.next || st.loading;
  }

  // load reads pages until want more games are shown, or five pages were
  // read, or the archive has no more.
  async function load(want) {
    st.loading = true;
    render();
    const goal = st.games.length + want;
    try {
      for (let i = 0; i < 5 && st.games.length < goal; i++) {
        const params = new URLSearchParams(q);
        params.set('limit', String(PAGE));
        if (st.next) params.set('before', st.next);
        const page = await api('GET', '/api/archive?' + params.toString(), undefined, { auth: false });
        if (!alive) return;
        st.games = st.games.concat(page.games);
        st.next = page.next || '';
        if (!st.next) break;
      }
      st.done = !st.next;
    } catch (err) {
      if (!alive) return;
      st.error = errorText(err);
    }
    st.loading = false;
    render();
  }
  if (searched) load(PAGE);

  app.debug(() => ({ query: q, games: st.games.map((g) => g.id), next: st.next, error: st.error, loading: st.loading }));
  return () => { alive = false; };
}
