// The lobby: open seeks (GET /api/challenge), a new seek or a challenge to
// a player, the challenges to and from you (live through the account
// stream), your games, the games of the players you follow (live through
// the account stream too), who is online, and the games in progress to
// watch.

import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { api, session, onSession, ensureToken, variants, accountStream, boards, position as fetchPosition } from '../api.js';
import { Board } from '../board.js';
import { variantName, controlText, gameForm, playerLink, errorText, ratingText, sideName } from '../ui.js';
import { play as playSound } from '../sound.js';
import { lobbyEvents } from './tournaments.js';

export function mount(main, _params, app, query) {
  app.title(t('lobby.title'));
  const st = {
    seeks: [], challenges: new Map(), myGames: new Map(), active: [],
    loadedSeeks: false, loadedActive: false,
    followed: new Map(), loadedFollowed: false, online: [], onlineCount: 0, guests: 0, onlineMore: false,
  };
  const followedEl = h('div', { class: 'list', testid: 'lobby-followed' });
  const onlineCount = h('p', { class: 'muted small', testid: 'lobby-online-count' });
  const onlineEl = h('ul', { class: 'online-list', testid: 'lobby-online-list' });
  const onlineMore = h('button', { type: 'button', class: 'btn small', testid: 'lobby-online-more', hidden: true, onclick: () => loadOnline(true) }, t('lobby.onlineMore'));
  const seeksEl = h('div', { class: 'list', testid: 'lobby-seeks' });
  const challengesEl = h('div', { class: 'list', testid: 'lobby-challenges' });
  const myGamesEl = h('div', { class: 'list', testid: 'lobby-my-games' });
  const activeEl = h('div', { class: 'list', testid: 'lobby-active-games' });
  const formBox = h('div', { class: 'form-box' });
  let timers = [];
  let alive = true;

  const tabs = { seek: null, challenge: null };
  let mode = query.get('challenge') ? 'challenge' : 'seek';

  // The puzzle of the day, when the server has puzzles.
  const daily = h('section', { class: 'panel daily-puzzle', testid: 'lobby-daily-puzzle', hidden: true });
  Promise.all([api('GET', '/api/puzzle/daily', undefined, { auth: false }), boards()]).then(async ([p, bs]) => {
    if (!p) return; // none on this server
    const v = await fetchPosition({ position: p.position });
    if (!alive) return;
    const b = new Board(bs[v.board], { static: true, label: t('puzzle.daily') });
    b.update(v, {});
    daily.dataset.id = p.id;
    replace(daily, h('h2', {}, t('puzzle.daily')),
      h('a', { href: '#/puzzle/' + p.id, class: 'daily-board', 'aria-label': t('puzzle.dailyLink') }, b.el),
      h('p', {}, t(p.goal === 'draw' ? 'puzzle.toDraw' : 'puzzle.toPlay', { side: sideName(p.toMove) }), ' · ', t('puzzle.rating', { n: p.rating, plays: p.plays })),
      h('a', { href: '#/puzzle/' + p.id, class: 'btn small primary', testid: 'lobby-daily-puzzle-link' }, t('puzzle.dailyLink')));
    daily.hidden = false;
  }).catch(() => { /* no puzzles on this server */ });

  main.append(
    h('div', { class: 'lobby' },
      h('section', { class: 'panel quick' },
        h('h1', {}, t('lobby.welcome')),
        h('p', { class: 'muted' }, t('lobby.intro')),
        h('div', { class: 'quick-actions' },
          h('a', { href: '#/play', class: 'btn primary big', testid: 'lobby-play-engine' }, t('lobby.playEngine')),
          h('a', { href: '#/study', class: 'btn big', testid: 'lobby-study' }, t('lobby.study')),
          h('a', { href: '#/rules', class: 'btn big', testid: 'lobby-rules' }, t('lobby.rules')),
          h('a', { href: '#/leaderboard', class: 'btn big', testid: 'lobby-leaderboard' }, t('nav.leaderboard')),
          h('a', { href: '#/archive', class: 'btn big', testid: 'lobby-archive' }, t('nav.archive')))),
      daily,
      h('section', { class: 'panel seeks-panel', 'aria-labelledby': 'seeks-h' },
        h('h2', { id: 'seeks-h' }, t('lobby.seeks')),
        seeksEl,
        h('h2', {}, t('lobby.challenges')),
        challengesEl),
      h('section', { class: 'panel create-panel', 'aria-labelledby': 'create-h' },
        h('h2', { id: 'create-h' }, t('lobby.create')),
        h('div', { class: 'tabs', role: 'tablist' },
          tabs.seek = h('button', { type: 'button', role: 'tab', class: 'tab', testid: 'tab-seek', onclick: () => setMode('seek') }, t('lobby.tabSeek')),
          tabs.challenge = h('button', { type: 'button', role: 'tab', class: 'tab', testid: 'tab-challenge', onclick: () => setMode('challenge') }, t('lobby.tabChallenge'))),
        formBox),
      lobbyEvents(),
      h('section', { class: 'panel games-panel' },
        h('h2', {}, t('lobby.myGames')),
        myGamesEl,
        h('h2', {}, t('lobby.followed')),
        followedEl,
        h('h2', {}, t('lobby.active')),
        activeEl),
      h('section', { class: 'panel online-panel', testid: 'lobby-online', 'aria-labelledby': 'online-h' },
        h('h2', { id: 'online-h' }, t('lobby.online')),
        onlineCount, onlineEl, onlineMore)));

  function setMode(m) {
    mode = m;
    for (const [k, b] of Object.entries(tabs)) b.setAttribute('aria-selected', k === m ? 'true' : 'false');
    renderForm();
  }

  async function renderForm() {
    const list = await variants().catch(() => []);
    if (!alive) return;
    if (mode === 'seek') {
      replace(formBox, gameForm({
        variants: list, prefix: 'seek', submitLabel: t('lobby.createSeek'),
        onSubmit: async (body) => {
          await ensureToken();
          await api('POST', '/api/seek', body);
          app.notify(t('lobby.seekCreated'));
          loadSeeks();
        },
      }));
    } else {
      const name = h('input', { id: 'challenge-user', type: 'text', required: true, autocomplete: 'off', testid: 'challenge-user', value: query.get('challenge') || '' });
      replace(formBox, gameForm({
        variants: list, prefix: 'challenge', submitLabel: t('lobby.sendChallenge'),
        extra: h('label', { class: 'field' }, h('span', {}, t('lobby.opponent')), name),
        onSubmit: async (body) => {
          if (!name.value.trim()) throw new Error(t('lobby.needName'));
          await ensureToken();
          const c = await api('POST', '/api/challenge/' + encodeURIComponent(name.value.trim()), body);
          st.challenges.set(c.id, c);
          renderChallenges();
          app.notify(t('lobby.challengeSent', { name: name.value.trim() }));
        },
      }));
    }
  }

  function seekRow(c) {
    const s = session();
    const mine = s && c.from.name === s.name;
    return h('div', { class: 'row-item seek', testid: 'seek-' + c.id, 'data-id': c.id },
      h('span', { class: 'who' }, playerLink(c.from), ' ', h('span', { class: 'muted' }, ratingText(c.from))),
      h('span', { class: 'what' }, variantName(c.variant)),
      h('span', { class: 'ctl' }, controlText(c.control)),
      h('span', { class: 'muted' }, c.rated ? t('lobby.rated') : t('lobby.casual')),
      mine
        ? h('span', { class: 'actions' },
          h('button', { type: 'button', class: 'btn small', testid: 'seek-link-' + c.id, onclick: () => copyLink(c) }, t('lobby.copyLink')),
          h('button', { type: 'button', class: 'btn small', testid: 'seek-cancel-' + c.id, onclick: () => closeChallenge(c, 'cancel') }, t('lobby.cancel')))
        : h('button', { type: 'button', class: 'btn small primary', testid: 'seek-accept-' + c.id, onclick: () => accept(c) }, t('lobby.join')));
  }

  function renderSeeks() {
    if (!session()) {
      replace(seeksEl, h('p', { class: 'muted', testid: 'lobby-seeks-signin' }, t('lobby.seeksSignIn'), ' ',
        h('a', { href: '#/signin' }, t('nav.signin')), ' · ',
        h('button', {
          type: 'button', class: 'btn-link', testid: 'lobby-guest',
          onclick: async () => {
            try {
              await ensureToken();
            } catch (err) {
              app.notify(errorText(err), 'error');
            }
          },
        }, t('lobby.asGuest'))));
      return;
    }
    if (!st.loadedSeeks) {
      replace(seeksEl, h('p', { class: 'muted' }, t('common.loading')));
      return;
    }
    if (!st.seeks.length) {
      replace(seeksEl, h('p', { class: 'muted empty', testid: 'lobby-seeks-empty' }, t('lobby.noSeeks')));
      return;
    }
    replace(seeksEl, st.seeks.map(seekRow));
  }

  function renderChallenges() {
    const s = session();
    const open = [...st.challenges.values()].filter((c) => c.status === 'open' && c.to);
    if (!s || !open.length) {
      replace(challengesEl, h('p', { class: 'muted empty' }, t('lobby.noChallenges')));
      return;
    }
    replace(challengesEl, open.map((c) => {
      const incoming = c.to.name === s.name;
      return h('div', { class: 'row-item challenge ' + (incoming ? 'incoming' : 'outgoing'), testid: 'challenge-' + c.id, 'data-id': c.id, 'data-direction': incoming ? 'in' : 'out' },
        h('span', { class: 'who' }, incoming ? t('lobby.from') : t('lobby.to'), ' ', playerLink(incoming ? c.from : c.to)),
        h('span', { class: 'what' }, variantName(c.variant)),
        h('span', { class: 'ctl' }, controlText(c.control)),
        incoming
          ? h('span', { class: 'actions' },
            h('button', { type: 'button', class: 'btn small primary', testid: 'challenge-accept-' + c.id, onclick: () => accept(c) }, t('lobby.accept')),
            h('button', { type: 'button', class: 'btn small', testid: 'challenge-decline-' + c.id, onclick: () => closeChallenge(c, 'decline') }, t('lobby.decline')))
          : h('button', { type: 'button', class: 'btn small', testid: 'challenge-cancel-' + c.id, onclick: () => closeChallenge(c, 'cancel') }, t('lobby.cancel')));
    }));
  }

  // moveNumber is the number of the move being played after ply plies,
  // as a record numbers moves ("1." white's and black's first): the
  // lobby says "move 12", not a count of plies.
  const moveNumber = (ply) => Math.floor(ply / 2) + 1;

  function gameRow(g, mine) {
    const s = session();
    const myTurn = mine && s && g.toMove && g[g.toMove] && g[g.toMove].name === s.name;
    return h('a', { href: '#/game/' + g.id, class: 'row-item game' + (myTurn ? ' my-turn' : ''), testid: (mine ? 'my-game-' : 'active-game-') + g.id, 'data-id': g.id },
      h('span', { class: 'who' }, g.white.name, ' – ', g.black.name),
      h('span', { class: 'what' }, variantName(g.variant)),
      h('span', { class: 'ctl' }, controlText(g.control)),
      h('span', { class: 'muted' }, myTurn ? t('lobby.yourTurn') : t('lobby.moveNumber', { n: moveNumber(g.ply) })));
  }

  function renderMyGames() {
    const list = [...st.myGames.values()].filter((g) => g.status === 'active');
    if (!list.length) replace(myGamesEl, h('p', { class: 'muted empty' }, t('lobby.noMyGames')));
    else replace(myGamesEl, list.map((g) => gameRow(g, true)));
  }

  function renderActive() {
    if (!st.loadedActive) replace(activeEl, h('p', { class: 'muted' }, t('common.loading')));
    else if (!st.active.length) replace(activeEl, h('p', { class: 'muted empty', testid: 'lobby-active-empty' }, t('lobby.noActive')));
    else replace(activeEl, st.active.map((g) => gameRow(g, false)));
  }

  function renderFollowed() {
    const s = session();
    if (!s || s.guest) {
      replace(followedEl, h('p', { class: 'muted', testid: 'lobby-followed-signin' }, t('lobby.followedSignIn')));
      return;
    }
    const list = [...st.followed.values()].sort((a, b) => b.id - a.id);
    if (!st.loadedFollowed) replace(followedEl, h('p', { class: 'muted' }, t('common.loading')));
    else if (!list.length) replace(followedEl, h('p', { class: 'muted empty', testid: 'lobby-followed-empty' }, t('lobby.noFollowed')));
    else {
      replace(followedEl, list.map((g) => {
        const row = gameRow(g, false);
        row.setAttribute('data-testid', 'followed-game-' + g.id);
        return row;
      }));
    }
  }

  // loadFollowed reads the games going on of the players followed: on
  // load, after the account stream (re)connects, and now and then.
  async function loadFollowed() {
    const s = session();
    if (!s || s.guest) {
      renderFollowed();
      return;
    }
    try {
      const r = await api('GET', '/api/account/following/games');
      if (!alive) return;
      st.followed = new Map(r.games.map((g) => [g.id, g]));
      st.loadedFollowed = true;
    } catch { /* try again on the next tick */ }
    renderFollowed();
  }

  function renderOnline() {
    replace(onlineCount, t('lobby.onlineCount', { n: st.onlineCount, guests: st.guests }));
    onlineCount.dataset.count = String(st.onlineCount);
    onlineCount.dataset.guests = String(st.guests);
    if (!st.online.length) replace(onlineEl, h('li', { class: 'muted empty' }, t('lobby.noOnline')));
    else replace(onlineEl, st.online.map((p) => h('li', { testid: 'online-' + p.name }, playerLink(p))));
    onlineMore.hidden = !st.onlineMore;
  }

  // loadOnline reads who is online: the first page, or the next one.
  async function loadOnline(next) {
    try {
      const after = next && st.online.length ? '&after=' + encodeURIComponent(st.online[st.online.length - 1].name) : '';
      const o = await api('GET', '/api/online?limit=30' + after);
      if (!alive) return;
      st.online = next ? st.online.concat(o.players) : o.players;
      st.onlineCount = o.count;
      st.guests = o.guests;
      st.onlineMore = o.more;
      renderOnline();
    } catch { /* try again on the next tick */ }
  }

  async function loadSeeks() {
    if (!session()) {
      renderSeeks();
      renderChallenges();
      return;
    }
    try {
      const a = await api('GET', '/api/challenge');
      if (!alive) return;
      st.seeks = a.seeks || [];
      for (const c of a.challenges || []) st.challenges.set(c.id, c);
      st.loadedSeeks = true;
    } catch (err) {
      if (!alive) return;
      if (err.status !== 401) app.notify(errorText(err), 'error');
    }
    renderSeeks();
    renderChallenges();
  }

  async function loadMyGames() {
    const s = session();
    if (!s) return;
    try {
      const list = await api('GET', `/api/user/${encodeURIComponent(s.name)}/games?status=active&limit=50`, undefined, { auth: false });
      if (!alive) return;
      st.myGames = new Map((list || []).map((g) => [g.id, g]));
      renderMyGames();
    } catch { /* try again on the next tick */ }
  }

  async function loadActive() {
    try {
      const list = await api('GET', '/api/games?status=active&limit=30', undefined, { auth: false });
      if (!alive) return;
      st.active = list || [];
      st.loadedActive = true;
      renderActive();
    } catch { /* try again on the next tick */ }
  }

  async function accept(c) {
    try {
      await ensureToken();
      const a = await api('POST', `/api/challenge/${c.id}/accept`);
      playSound('start');
      app.navigate('/game/' + a.game);
    } catch (err) {
      app.notify(errorText(err), 'error');
      loadSeeks();
    }
  }

  async function copyLink(c) {
    const url = `${location.origin}/#/?seek=${c.id}`;
    try {
      await navigator.clipboard.writeText(url);
      app.notify(t('lobby.linkCopied', { url }));
    } catch {
      app.notify(t('lobby.linkIs', { url }));
    }
  }

  // invitation shows the seek of a shared link (#/?seek=ID) with a button
  // to join it, for someone who may not be signed in yet.
  const invited = Number(query.get('seek') || 0);
  const invite = h('section', { class: 'panel invite', testid: 'invite', hidden: !invited },
    h('p', {}, t('lobby.invited', { id: invited })),
    h('button', { type: 'button', class: 'btn primary', testid: 'invite-join', onclick: () => accept({ id: invited }) }, t('lobby.join')));
  if (invited) main.firstChild.prepend(invite);

  async function closeChallenge(c, how) {
    try {
      await api('POST', `/api/challenge/${c.id}/${how}`);
      st.challenges.delete(c.id);
      st.seeks = st.seeks.filter((x) => x.id !== c.id);
      renderSeeks();
      renderChallenges();
    } catch (err) {
      app.notify(errorText(err), 'error');
    }
  }

  const offEvent = accountStream.on((ev) => {
    if (ev.challenge) {
      const c = ev.challenge;
      if (ev.type === 'challenge') {
        st.challenges.set(c.id, c);
        const s = session();
        if (c.to && s && c.to.name === s.name) playSound('notify');
      } else {
        st.challenges.delete(c.id);
        st.seeks = st.seeks.filter((x) => x.id !== c.id);
      }
      renderChallenges();
      renderSeeks();
    }
    if (ev.game && (ev.type === 'followedGameStart' || ev.type === 'followedGameFinish')) {
      // A game of a player followed.
      if (ev.type === 'followedGameStart') st.followed.set(ev.game.id, ev.game);
      else st.followed.delete(ev.game.id);
      renderFollowed();
      return;
    }
    if (ev.game) {
      if (ev.type === 'gameStart' || (ev.type === 'gameMove' && st.myGames.has(ev.game.id))) st.myGames.set(ev.game.id, ev.game);
      if (ev.type === 'gameFinish') st.myGames.delete(ev.game.id);
      renderMyGames();
    }
  });
  const offReset = accountStream.onReset(() => {
    st.myGames.clear();
    renderMyGames();
    loadFollowed(); // what the stream missed while it was away
  });

  setMode(mode);
  renderSeeks();
  renderChallenges();
  renderMyGames();
  renderActive();
  renderFollowed();
  loadSeeks();
  loadActive();
  loadMyGames();
  loadFollowed();
  loadOnline(false);
  timers.push(setInterval(loadSeeks, 5000), setInterval(() => { loadActive(); loadMyGames(); }, 10000),
    setInterval(() => { loadOnline(false); loadFollowed(); }, 30000));

  app.debug(() => ({
    seeks: st.seeks.map((c) => ({ id: c.id, from: c.from.name, variant: c.variant })),
    challenges: [...st.challenges.values()].map((c) => ({ id: c.id, from: c.from.name, to: c.to && c.to.name, status: c.status })),
    myGames: [...st.myGames.keys()],
    activeGames: st.active.map((g) => g.id),
    followedGames: [...st.followed.keys()],
    online: st.online.map((p) => p.name),
    onlineCount: st.onlineCount,
  }));

  const offSession = onSession(() => {
    st.loadedSeeks = false;
    st.challenges.clear();
    st.myGames.clear();
    st.followed.clear();
    st.loadedFollowed = false;
    renderMyGames();
    loadSeeks();
    loadMyGames();
    loadFollowed();
  });
  return () => {
    alive = false;
    for (const id of timers) clearInterval(id);
    timers = [];
    offEvent();
    offReset();
    offSession();
  };
}
