// The clubs (#/clubs, #/clubs?q=TEXT): the clubs by name, searched and
// paged (GET /api/clubs), the signed-in player's own clubs, and the form
// of a new club (POST /api/club). Also userClubs, a player's clubs on
// their page.

import { h, replace, debounce } from '../dom.js';
import { t } from '../i18n.js';
import { api, session } from '../api.js';
import { errorText } from '../ui.js';

const PAGE = 30;

// openBadge marks a club open (anyone joins) or closed (by request).
export function openBadge(open) {
  return h('span', { class: 'badge ' + (open ? 'open' : 'closed') }, open ? t('club.open') : t('club.closed'));
}

// userClubs is a player's clubs (GET /api/user/NAME's clubs), for their
// page (and one's own on the clubs page, under title).
export function userClubs(u, title) {
  const list = u.clubs || [];
  return h('section', { class: 'user-clubs', testid: 'user-clubs' },
    h('h2', {}, title || t('club.clubs')),
    list.length
      ? h('ul', { class: 'list plain' }, list.map((c) => h('li', { testid: 'user-club-' + c.id, 'data-leader': String(!!c.leader) },
        h('a', { href: '#/club/' + c.id }, c.name), c.leader ? h('span', { class: 'badge' }, t('club.leader')) : null)))
      : h('p', { class: 'muted empty' }, t('club.userNone')));
}

export function mount(main, _params, app, query) {
  app.title(t('club.clubs'));
  let alive = true;
  const st = { q: query.get('q') || '', clubs: [], more: false, mine: null, error: '' };
  let seq = 0;

  const input = h('input', {
    type: 'search', id: 'clubs-q', value: st.q, testid: 'clubs-search', autocomplete: 'off', maxlength: '40',
    oninput: debounce(() => { st.q = input.value.trim(); load(false); }, 250),
  });
  const list = h('div', { class: 'list', testid: 'clubs-list' }, h('p', { class: 'muted' }, t('common.loading')));
  const more = h('button', { type: 'button', class: 'btn small', testid: 'clubs-more', hidden: true, onclick: () => load(true) }, t('club.more'));
  const mine = h('div', { testid: 'clubs-mine' });
  const create = h('div', {});

  main.append(h('div', { class: 'events-layout' },
    h('section', { class: 'panel', 'aria-labelledby': 'clubs-h' },
      h('h1', { id: 'clubs-h' }, t('club.clubs')),
      h('p', { class: 'muted' }, t('club.intro')),
      h('form', { class: 'search-row', role: 'search', onsubmit: (ev) => { ev.preventDefault(); st.q = input.value.trim(); load(false); } },
        h('label', { for: 'clubs-q' }, t('club.search')), input),
      list, more),
    h('div', { class: 'events-side' }, mine, create)));

  async function load(next) {
    const my = ++seq;
    const q = new URLSearchParams({ limit: String(PAGE) });
    if (st.q) q.set('q', st.q);
    if (next && st.clubs.length) q.set('after', st.clubs[st.clubs.length - 1].name);
    try {
      const page = await api('GET', '/api/clubs?' + q, undefined, { auth: false });
      if (!alive || my !== seq) return;
      st.clubs = next ? st.clubs.concat(page.clubs) : page.clubs;
      st.more = page.more;
      st.error = '';
    } catch (err) {
      if (!alive || my !== seq) return;
      st.error = errorText(err);
    }
    render();
  }

  function render() {
    more.hidden = !st.more;
    if (st.error) {
      replace(list, h('p', { class: 'form-error', role: 'alert' }, st.error));
      return;
    }
    if (!st.clubs.length) {
      replace(list, h('p', { class: 'muted empty', testid: 'clubs-empty' }, st.q ? t('club.noneFound', { q: st.q }) : t('club.none')));
      return;
    }
    replace(list, st.clubs.map((c) => h('a', { href: '#/club/' + c.id, class: 'row-item club-row', testid: 'club-' + c.id, 'data-name': c.name },
      h('span', { class: 'who' }, c.name, openBadge(c.open)),
      h('span', { class: 'what muted' }, c.description),
      h('span', { class: 'ctl' }, t('club.members', { n: c.members })))));
  }

  // The player's own clubs, and the form of a new club.
  const s = session();
  if (!s || s.guest) {
    replace(create, h('section', { class: 'panel', testid: 'clubs-signin' },
      h('h2', {}, t('club.create')), h('p', { class: 'muted' }, t('club.signInToCreate'), ' ', h('a', { href: '#/signin' }, t('nav.signin')))));
  } else {
    api('GET', '/api/user/' + encodeURIComponent(s.name), undefined, { auth: false }).then((u) => {
      if (!alive) return;
      st.mine = u.clubs || [];
      replace(mine, h('section', { class: 'panel' }, userClubs(u, t('club.yours'))));
    }).catch(() => { /* the list without them */ });
    replace(create, h('section', { class: 'panel', 'aria-labelledby': 'club-new-h' }, h('h2', { id: 'club-new-h' }, t('club.create')), clubForm(app)));
  }

  load(false);
  app.debug(() => ({ clubs: st.clubs.map((c) => c.name), more: st.more, mine: st.mine ? st.mine.map((c) => c.name) : null }));
  return () => { alive = false; };
}

// clubForm is the form of a new club: name, description, open or closed.
function clubForm(app) {
  const name = h('input', { type: 'text', id: 'club-name', required: true, minlength: '3', maxlength: '40', autocomplete: 'off', testid: 'club-name' });
  const description = h('textarea', { id: 'club-description', rows: '3', maxlength: '1000', testid: 'club-description' });
  const open = h('input', { type: 'checkbox', id: 'club-open', testid: 'club-open-check' });
  const error = h('p', { class: 'form-error', role: 'alert', testid: 'club-error' });
  const submit = h('button', { type: 'submit', class: 'btn primary', testid: 'club-submit' }, t('club.createSubmit'));
  return h('form', {
    class: 'game-form', testid: 'club-form',
    onsubmit: async (ev) => {
      ev.preventDefault();
      error.textContent = '';
      submit.disabled = true;
      try {
        const c = await api('POST', '/api/club', { name: name.value.trim(), description: description.value, open: open.checked });
        app.notify(t('club.created', { name: c.name }));
        app.navigate('/club/' + c.id);
      } catch (err) {
        error.textContent = errorText(err);
      } finally {
        submit.disabled = false;
      }
    },
  },
  h('label', { class: 'field' }, h('span', {}, t('club.name')), name),
  h('label', { class: 'field' }, h('span', {}, t('club.description')), description),
  h('label', { class: 'check' }, open, h('span', {}, t('club.openLabel'))),
  h('p', { class: 'muted small' }, t('club.openHint')),
  error, submit);
}
