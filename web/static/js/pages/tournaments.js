// The tournaments (#/tournaments?status=upcoming|running|finished&variant=ID&club=ID):
// the events of a status, newest first, in pages (GET /api/tournaments),
// filtered by preset and club, with the way to a new one. Also
// lobbyEvents, the lobby's short list of the events running and to come.

import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { api, session, variants } from '../api.js';
import { errorText, variantSelect } from '../ui.js';
import { summary, stateText, when, countdown } from '../tournament/text.js';

const PAGE = 30;
const STATUSES = ['upcoming', 'running', 'finished'];

// eventRow is an event in a list, a link to its page.
function eventRow(ev, testid) {
  const w = when(ev);
  return h('a', { href: '#/tournament/' + ev.id, class: 'row-item event-row', testid, 'data-id': ev.id, 'data-status': ev.status },
    h('span', { class: 'who' }, h('strong', {}, ev.name), ev.club ? h('span', { class: 'badge' }, ev.club.name) : null),
    h('span', { class: 'what muted' }, summary(ev)),
    h('span', { class: 'ctl' }, t('tournament.players', { n: ev.players })),
    h('span', { class: 'muted small' }, w ? h('span', { class: 'countdown', 'data-at': w.at }, t(w.key, { time: countdown(w.at - Date.now()) })) : stateText(ev)));
}

// tick refreshes the countdowns of a list (data-at) once a second.
function tick(root) {
  for (const el of root.querySelectorAll('.countdown[data-at]')) {
    const row = el.closest('[data-status]');
    const key = row && row.dataset.status === 'running' ? 'tournament.endsIn' : 'tournament.startsIn';
    el.textContent = t(key, { time: countdown(Number(el.dataset.at) - Date.now()) });
  }
}

// lobbyEvents is the lobby's section: the events running, then those to
// come, a few of each, read again every 15 s while the section is on the
// page.
export function lobbyEvents() {
  const list = h('div', { class: 'list events-list', testid: 'lobby-events-list' }, h('p', { class: 'muted' }, t('common.loading')));
  const el = h('section', { class: 'panel events-panel', testid: 'lobby-events', 'aria-labelledby': 'lobby-events-h' },
    h('div', { class: 'panel-head' },
      h('h2', { id: 'lobby-events-h' }, t('tournament.lobbyTitle')),
      h('a', { href: '#/tournaments', testid: 'lobby-events-all' }, t('tournament.all')),
      h('a', { href: '#/clubs', testid: 'lobby-clubs' }, t('club.clubs')),
      h('a', { href: '#/tournaments/new', class: 'btn small', testid: 'lobby-events-new' }, t('tournament.create'))),
    list);
  async function load() {
    try {
      const [running, upcoming] = await Promise.all(['running', 'upcoming'].map((s) => api('GET', `/api/tournaments?status=${s}&limit=6`, undefined, { auth: false })));
      const evs = running.tournaments.concat(upcoming.tournaments.sort((a, b) => (a.startsMs || Infinity) - (b.startsMs || Infinity)));
      if (!evs.length) replace(list, h('p', { class: 'muted empty', testid: 'lobby-events-empty' }, t('tournament.noneNow')));
      else replace(list, evs.map((ev) => eventRow(ev, 'lobby-event-' + ev.id)));
    } catch { /* read again on the next round */ }
  }
  load();
  // The lobby's page does not tell this section it is gone: it stops
  // itself when it is no longer on the page (it is put there as soon as
  // it is made, long before the first tick).
  let n = 0;
  const timer = setInterval(() => {
    if (!el.isConnected) {
      clearInterval(timer);
      return;
    }
    tick(el);
    if (++n % 15 === 0) load();
  }, 1000);
  return el;
}

export function mount(main, _params, app, query) {
  app.title(t('tournament.tournaments'));
  let alive = true;
  const status = STATUSES.includes(query.get('status')) ? query.get('status') : 'running';
  const variant = query.get('variant') || '';
  const club = Number(query.get('club') || 0);
  const st = { events: [], more: false, error: '', loaded: false };
  const list = h('div', { class: 'list', testid: 'tournaments-list' }, h('p', { class: 'muted' }, t('common.loading')));
  const more = h('button', { type: 'button', class: 'btn small', testid: 'tournaments-more', hidden: true, onclick: () => load(true) }, t('club.more'));
  const filters = h('form', { class: 'row filters', testid: 'tournaments-filters', onsubmit: (ev) => ev.preventDefault() });

  // go shows the list with other settings (a route of its own: a link to keep).
  const go = (changes) => {
    const q = new URLSearchParams({ status, variant, club: club ? String(club) : '' , ...changes });
    for (const [k, v] of [...q]) if (!v) q.delete(k);
    app.navigate('/tournaments?' + q);
  };
  const s = session();
  main.append(h('section', { class: 'panel single-wide', 'aria-labelledby': 'tournaments-h' },
    h('div', { class: 'panel-head' },
      h('h1', { id: 'tournaments-h' }, t('tournament.tournaments')),
      s && !s.guest ? h('a', { href: '#/tournaments/new' + (club ? '?club=' + club : ''), class: 'btn primary small', testid: 'tournaments-new' }, t('tournament.create')) : null),
    h('nav', { class: 'tabs', 'aria-label': t('tournament.byStatus'), testid: 'tournaments-tabs' },
      STATUSES.map((x) => h('a', {
        href: '#/tournaments?' + new URLSearchParams({ status: x, ...(variant ? { variant } : {}), ...(club ? { club: String(club) } : {}) }),
        class: 'tab', testid: 'tournaments-tab-' + x, 'aria-current': x === status ? 'page' : null,
      }, t('tournament.tab.' + x)))),
    filters, list, more));

  // The filters: the preset, and the club (the player's clubs, and the
  // one asked for).
  Promise.all([variants().catch(() => []), s ? api('GET', '/api/user/' + encodeURIComponent(s.name), undefined, { auth: false }).catch(() => null) : null]).then(([vs, u]) => {
    if (!alive) return;
    const vsel = variantSelect(vs, variant, { id: 'tournaments-variant', testid: 'tournaments-variant', onchange: () => go({ variant: vsel.value }) });
    vsel.prepend(h('option', { value: '', selected: !variant }, t('tournament.anyPreset')));
    if (!variant) vsel.value = '';
    const clubs = (u && u.clubs) || [];
    const csel = h('select', { id: 'tournaments-club', testid: 'tournaments-club', onchange: () => go({ club: csel.value }) },
      h('option', { value: '' }, t('tournament.anyClub')),
      clubs.map((c) => h('option', { value: String(c.id), selected: c.id === club }, c.name)),
      club && !clubs.some((c) => c.id === club) ? h('option', { value: String(club), selected: true }, t('tournament.clubNumber', { id: club })) : null);
    replace(filters,
      h('label', { class: 'field' }, h('span', {}, t('form.variant')), vsel),
      h('label', { class: 'field' }, h('span', {}, t('tournament.club')), csel));
  });

  async function load(next) {
    const q = new URLSearchParams({ status, limit: String(PAGE) });
    if (variant) q.set('variant', variant);
    if (club) q.set('club', String(club));
    if (next && st.events.length) q.set('before', String(st.events[st.events.length - 1].id));
    try {
      const page = await api('GET', '/api/tournaments?' + q, undefined, { auth: false });
      if (!alive) return;
      st.events = next ? st.events.concat(page.tournaments) : page.tournaments;
      st.more = page.more;
      st.error = '';
    } catch (err) {
      if (!alive) return;
      st.error = errorText(err);
    }
    st.loaded = true;
    render();
  }

  function render() {
    more.hidden = !st.more;
    if (st.error) replace(list, h('p', { class: 'form-error', role: 'alert' }, st.error));
    else if (!st.events.length) replace(list, h('p', { class: 'muted empty', testid: 'tournaments-empty' }, t('tournament.none.' + status)));
    else replace(list, st.events.map((ev) => eventRow(ev, 'event-' + ev.id)));
  }

  load(false);
  const timer = setInterval(() => tick(list), 1000);
  app.debug(() => ({ status, variant, club, events: st.events.map((ev) => ev.id), loaded: st.loaded }));
  return () => {
    alive = false;
    clearInterval(timer);
  };
}
