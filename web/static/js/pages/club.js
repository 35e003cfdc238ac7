// A club (#/club/ID): its name, description, openness, leaders and
// members (in pages), and its events. A player joins (an open club), asks
// to join (a closed one), withdraws the request or leaves; a leader also
// answers the requests, removes members, makes a member a leader or sets a
// leader down (themselves included: stepping down), edits the club's
// description and openness, and makes an event
// for the club's members (docs/api.md, "Clubs").

import { h, replace, formatDate } from '../dom.js';
import { t, language } from '../i18n.js';
import { api, session } from '../api.js';
import { errorText, playerLink } from '../ui.js';
import { openBadge } from './clubs.js';
import { summary, statusName } from '../tournament/text.js';

const PAGE = 50;

// day is a date without the time, in the client's language.
function day(ms) {
  return new Date(ms).toLocaleDateString(language(), { year: 'numeric', month: 'short', day: 'numeric' });
}

export function mount(main, params, app) {
  const id = Number(params[0]);
  let alive = true;
  const st = { club: null, members: [], more: false, events: [], error: '', result: '', busy: false, confirmLeave: false, editing: false };

  const head = h('div', { class: 'club-head' }, h('p', { class: 'muted' }, t('common.loading')));
  const actions = h('div', { class: 'club-actions', testid: 'club-actions' });
  const result = h('p', { class: 'muted small', role: 'status', testid: 'club-result' });
  const error = h('p', { class: 'form-error', role: 'alert', testid: 'club-error' });
  const requests = h('section', { class: 'panel', testid: 'club-requests', hidden: true });
  const leaders = h('div', { testid: 'club-leaders' });
  const members = h('div', { testid: 'club-members' });
  const more = h('button', { type: 'button', class: 'btn small', testid: 'club-members-more', hidden: true, onclick: () => loadMembers(true) }, t('club.more'));
  const events = h('div', { class: 'list', testid: 'club-events' });
  const eventLinks = h('p', { class: 'row' });

  main.append(h('div', { class: 'club-layout', testid: 'club-page', 'data-club': id },
    h('section', { class: 'panel club-main' }, head, actions, error, result,
      h('h2', {}, t('club.leaders')), leaders,
      h('h2', {}, t('club.membersTitle')), members, more),
    h('div', { class: 'events-side' }, requests,
      h('section', { class: 'panel', 'aria-labelledby': 'club-events-h' },
        h('h2', { id: 'club-events-h' }, t('club.events')), events, eventLinks))));

  const me = () => (session() ? session().name : '');
  const isLeader = () => st.club && st.club.role === 'leader';

  async function load() {
    try {
      const c = await api('GET', `/api/club/${id}?limit=${PAGE}`);
      if (!alive) return;
      st.club = c;
      st.members = c.page;
      st.more = c.more;
      st.error = '';
      app.title(c.name);
    } catch (err) {
      if (!alive) return;
      st.error = err.status === 404 ? t('club.notFound') : errorText(err);
    }
    render();
  }

  async function loadMembers(next) {
    const after = st.members.length ? st.members[st.members.length - 1].id : 0;
    try {
      const c = await api('GET', `/api/club/${id}?limit=${PAGE}${next && after ? '&after=' + after : ''}`);
      if (!alive) return;
      st.members = next ? st.members.concat(c.page) : c.page;
      st.more = c.more;
      renderMembers();
    } catch (err) {
      error.textContent = errorText(err);
    }
  }

  async function loadEvents() {
    try {
      const list = await api('GET', `/api/tournaments?club=${id}&limit=10`, undefined, { auth: false });
      if (!alive) return;
      st.events = list.tournaments;
      renderEvents();
    } catch { /* the club without its events */ }
  }

  // act runs a club call, shows its outcome and reads the club again.
  async function act(method, path, body, done) {
    if (st.busy) return;
    st.busy = true;
    error.textContent = '';
    try {
      const r = await api(method, path, body);
      if (!alive) return;
      st.result = done(r);
      if (r && r.dissolved) {
        app.notify(st.result);
        app.navigate('/clubs');
        return;
      }
    } catch (err) {
      if (alive) error.textContent = errorText(err);
    } finally {
      st.busy = false;
      st.confirmLeave = false;
    }
    if (alive) load();
  }

  function render() {
    if (st.error) {
      replace(head, h('h1', { testid: 'club-name' }, t('club.title')), h('p', { class: 'form-error', testid: 'club-not-found' }, st.error));
      replace(actions);
      return;
    }
    const c = st.club;
    replace(head,
      h('div', { class: 'user-head' }, h('h1', { testid: 'club-name' }, c.name),
        h('span', { testid: 'club-open', 'data-open': String(c.open) }, openBadge(c.open))),
      c.description ? h('p', { class: 'club-description', testid: 'club-description' }, c.description) : null,
      h('p', { class: 'muted small' }, t('club.members', { n: c.members }), ' · ', t('club.since', { date: day(c.createdMs) })));
    result.textContent = st.result;
    renderActions();
    replace(leaders, h('ul', { class: 'list plain inline-list' }, c.leaders.map((m) => h('li', {}, playerLink(m)))));
    renderMembers();
    renderRequests();
    renderEvents();
  }

  function renderActions() {
    const c = st.club;
    const s = session();
    actions.dataset.role = c.role || 'none';
    if (!s) {
      replace(actions, h('p', { class: 'muted' }, t('club.signInToJoin'), ' ', h('a', { href: '#/signin' }, t('nav.signin'))));
      return;
    }
    const btn = (testid, label, fn, cls = 'btn small') => h('button', { type: 'button', class: cls, testid, onclick: fn }, label);
    const leave = () => act('POST', `/api/club/${id}/leave`, undefined, () => t('club.left'));
    const items = [];
    switch (c.role) {
      case 'leader':
      case 'member':
        items.push(h('span', { class: 'badge you' }, c.role === 'leader' ? t('club.youLead') : t('club.youMember')));
        if (st.confirmLeave) {
          items.push(h('span', {}, t('club.leaveSure')), btn('club-leave-confirm', t('club.leave'), leave, 'btn small danger'),
            btn('club-leave-cancel', t('common.cancel'), () => { st.confirmLeave = false; renderActions(); }));
        } else {
          items.push(btn('club-leave', t('club.leave'), () => { st.confirmLeave = true; renderActions(); }));
        }
        if (c.role === 'leader') {
          items.push(btn('club-step-down', t('club.stepDown'), () => act('POST', `/api/club/${id}/leader`, { user: me(), leader: false }, () => t('club.steppedDown'))));
          if (!st.editing) items.push(btn('club-edit', t('club.edit'), () => { st.editing = true; renderActions(); }));
        }
        break;
      case 'requested':
        items.push(h('span', { class: 'muted' }, t('club.requestWaits')),
          btn('club-leave', t('club.withdrawRequest'), () => act('POST', `/api/club/${id}/leave`, undefined, () => t('club.requestWithdrawn'))));
        break;
      default:
        if (s.guest) {
          items.push(h('span', { class: 'muted' }, t('club.guestsNot')));
          break;
        }
        items.push(btn('club-join', c.open ? t('club.join') : t('club.askToJoin'),
          () => act('POST', `/api/club/${id}/join`, undefined, (r) => (r.role === 'requested' ? t('club.requested') : t('club.joined'))), 'btn small primary'));
    }
    replace(actions, h('div', { class: 'row' }, items), c.role === 'leader' && st.editing ? editForm(c) : null);
  }

  // editForm is a leader's form for the club's description and openness
  // (its name stays).
  function editForm(c) {
    const desc = h('textarea', { id: 'club-edit-description', testid: 'club-edit-description', rows: 4, maxlength: 1000 });
    desc.value = c.description || '';
    const open = h('input', { type: 'checkbox', id: 'club-edit-open', testid: 'club-edit-open' });
    open.checked = !!c.open;
    const save = (e) => {
      e.preventDefault();
      st.editing = false;
      act('POST', `/api/club/${id}/edit`, { description: desc.value, open: open.checked }, () => t('club.edited'));
    };
    return h('form', { class: 'club-edit', testid: 'club-edit-form', onsubmit: save },
      h('div', { class: 'field' }, h('label', { for: 'club-edit-description' }, t('club.description')), desc),
      h('div', { class: 'field check' }, open, ' ', h('label', { for: 'club-edit-open' }, t('club.openLabel'))),
      c.open ? null : h('p', { class: 'muted small' }, t('club.editOpenNote')),
      h('div', { class: 'row' },
        h('button', { type: 'submit', class: 'btn small primary', testid: 'club-edit-save' }, t('club.editSave')),
        h('button', { type: 'button', class: 'btn small', testid: 'club-edit-cancel', onclick: () => { st.editing = false; renderActions(); } }, t('common.cancel'))));
  }

  function renderMembers() {
    more.hidden = !st.more;
    const lead = isLeader();
    replace(members, h('table', { class: 'table' },
      h('caption', { class: 'sr-only' }, t('club.membersTitle')),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('club.player')), h('th', { scope: 'col' }, t('club.joinedOn')),
        lead ? h('th', { scope: 'col' }, h('span', { class: 'sr-only' }, t('club.actions'))) : null)),
      h('tbody', {}, st.members.map((m) => h('tr', { testid: 'club-member-' + m.name, 'data-leader': String(!!m.leader) },
        h('th', { scope: 'row' }, playerLink(m), m.leader ? h('span', { class: 'badge' }, t('club.leader')) : null),
        h('td', {}, day(m.joinedMs)),
        lead ? h('td', { class: 'actions' }, memberActions(m)) : null)))));
  }

  // memberActions are a leader's buttons for another member (their own
  // are above: leave, step down).
  function memberActions(m) {
    if (m.name === me()) return null;
    return h('span', { class: 'row' },
      h('button', {
        type: 'button', class: 'btn small', testid: 'club-member-leader-' + m.name,
        onclick: () => act('POST', `/api/club/${id}/leader`, { user: m.name, leader: !m.leader },
          () => (m.leader ? t('club.setDown', { name: m.name }) : t('club.madeLeader', { name: m.name }))),
      }, m.leader ? t('club.unmakeLeader') : t('club.makeLeader')),
      h('button', {
        type: 'button', class: 'btn small', testid: 'club-member-remove-' + m.name,
        onclick: () => act('POST', `/api/club/${id}/remove`, { user: m.name }, () => t('club.removed', { name: m.name })),
      }, t('club.remove')));
  }

  function renderRequests() {
    const r = st.club.requests;
    requests.hidden = !isLeader();
    if (!isLeader() || !r) return;
    replace(requests, h('h2', {}, t('club.requests'), ' ', h('span', { class: 'badge', testid: 'club-requests-count' }, r.count)),
      r.count ? h('ul', { class: 'list plain' }, r.oldest.map((q) => h('li', { class: 'request', testid: 'club-request-' + q.name },
        playerLink(q), ' ', h('span', { class: 'muted small' }, formatDate(q.atMs)), ' ',
        h('button', {
          type: 'button', class: 'btn small primary', testid: 'club-accept-' + q.name,
          onclick: () => act('POST', `/api/club/${id}/accept`, { user: q.name }, () => t('club.accepted', { name: q.name })),
        }, t('club.accept')), ' ',
        h('button', {
          type: 'button', class: 'btn small', testid: 'club-decline-' + q.name,
          onclick: () => act('POST', `/api/club/${id}/accept`, { user: q.name, decline: true }, () => t('club.declined', { name: q.name })),
        }, t('club.decline')))))
        : h('p', { class: 'muted empty' }, t('club.noRequests')));
  }

  function renderEvents() {
    if (!st.events.length) replace(events, h('p', { class: 'muted empty' }, t('club.noEvents')));
    else {
      replace(events, st.events.map((ev) => h('a', { href: '#/tournament/' + ev.id, class: 'row-item event-row', testid: 'club-event-' + ev.id },
        h('span', { class: 'who' }, ev.name), h('span', { class: 'what muted' }, summary(ev)), h('span', { class: 'ctl' }, statusName(ev)))));
    }
    replace(eventLinks,
      h('a', { href: `#/tournaments?club=${id}&status=finished` }, t('club.pastEvents')),
      isLeader() ? h('a', { href: `#/tournaments/new?club=${id}`, class: 'btn small', testid: 'club-new-event' }, t('club.newEvent')) : null);
  }

  load();
  loadEvents();
  app.debug(() => {
    const c = st.club;
    return {
      id,
      name: c ? c.name : null,
      open: c ? c.open : null,
      role: c ? c.role || 'none' : null,
      leaders: c ? c.leaders.map((m) => m.name) : [],
      members: st.members.map((m) => m.name),
      requests: c && c.requests ? c.requests.oldest.map((q) => q.name) : [],
      events: st.events.map((ev) => ev.id),
      result: st.result,
    };
  });
  return () => { alive = false; };
}
