// A player's page (#/user/NAME): online or when last seen, ratings per
// variant (provisional marked), results by preset and colour, the rating
// graph of a preset, and the game history, newest first, in pages of 30;
// on one's own page, the vacation form, whom one takes challenges by text
// command from, and whom one follows and who follows one; on another's,
// signed in, follow or unfollow them, block or unblock them and report
// them to the moderators.

import { h, replace, formatDate, formatAgo } from '../dom.js';
import { t } from '../i18n.js';
import { api, session } from '../api.js';
import { variantName, controlText, resultText, methodName, errorText, variantSelect, playerLink } from '../ui.js';
import { blockedNames, setBlocked, reportForm } from '../moderation.js';
import { ratingGraph } from '../graph.js';
import { userClubs } from './clubs.js';

const PAGE = 30;

// vacationForm lets players stop their correspondence timers for some
// days (POST /api/account/vacation): no reminder and no forfeit meanwhile.
function vacationForm() {
  const days = h('input', { type: 'number', min: '1', max: '60', value: '7', class: 'input-small', testid: 'vacation-days', 'aria-label': t('user.vacationDays') });
  const out = h('span', { class: 'muted small', role: 'status', testid: 'vacation-result' });
  return h('form', {
    class: 'vacation', testid: 'vacation-form',
    onsubmit: (ev) => {
      ev.preventDefault();
      api('POST', '/api/account/vacation', { days: Number(days.value) }).then((v) => {
        replace(out, t('user.vacationUntil', { date: formatDate(v.toMs) }));
      }).catch((err) => replace(out, errorText(err)));
    },
  }, h('label', {}, t('user.vacation'), ' ', days, ' ', t('user.vacationDaysUnit')), ' ',
  h('button', { type: 'submit', class: 'btn small', testid: 'vacation-submit' }, t('user.vacationStart')), ' ', out);
}

// pbmPrefs shows and changes, game by game, whether the player takes
// challenges by text command (GET and POST /api/account/pbm-challenges).
// Such a challenge starts a game at once, with no step of the player's,
// so none is taken until the player ticks the game here (or says so with
// the pbmserv accept or limit command).
function pbmPrefs(st) {
  const list = h('div', { testid: 'pbm-prefs' }, h('p', { class: 'muted' }, t('common.loading')));
  const out = h('p', { class: 'muted small', role: 'status', testid: 'pbm-prefs-result' });
  function row(p) {
    const box = h('input', {
      type: 'checkbox', checked: p.acceptAll, testid: 'pbm-accept-' + p.variant, 'data-variant': p.variant,
      onchange: () => {
        const want = box.checked;
        box.disabled = true;
        api('POST', '/api/account/pbm-challenges', { variant: p.variant, acceptAll: want }).then((np) => {
          st.pbm = st.pbm.map((q) => (q.variant === np.variant ? np : q));
          box.checked = np.acceptAll;
          replace(out, t(np.acceptAll ? 'user.pbmOn' : 'user.pbmOff', { variant: variantName(np.variant) }));
        }).catch((err) => {
          box.checked = !want;
          replace(out, errorText(err));
        }).finally(() => { box.disabled = false; });
      },
    });
    const notes = [];
    if (p.limit >= 0) notes.push(t('user.pbmLimit', { n: p.limit }));
    if (p.allow.length) notes.push(t('user.pbmAllow', { names: p.allow.join(', ') }));
    if (p.deny.length) notes.push(t('user.pbmDeny', { names: p.deny.join(', ') }));
    return h('li', {}, h('label', {}, box, ' ', variantName(p.variant)),
      notes.length ? h('span', { class: 'muted small' }, ' (' + notes.join('; ') + ')') : null);
  }
  api('GET', '/api/account/pbm-challenges').then((r) => {
    st.pbm = r.variants;
    replace(list, h('ul', { class: 'list plain pbm-prefs' }, r.variants.map(row)));
  }).catch((err) => replace(list, h('p', { class: 'form-error' }, errorText(err))));
  return h('section', { testid: 'pbm-prefs-section' },
    h('h2', {}, t('user.pbmTitle')), h('p', { class: 'muted small' }, t('user.pbmHint')), out, list);
}

// statsTable shows a player's results (GET /api/user/NAME/stats): by
// preset, as white and as black, wins, draws and losses.
function statsTable(stats) {
  if (!stats.results.length) return h('p', { class: 'muted empty' }, t('user.noStats'));
  const wdl = (r) => [h('td', { class: 'num' }, r.wins), h('td', { class: 'num' }, r.draws), h('td', { class: 'num' }, r.losses)];
  const sum = (a, b) => ({ wins: a.wins + b.wins, draws: a.draws + b.draws, losses: a.losses + b.losses });
  const heads = () => [t('user.winsShort'), t('user.drawsShort'), t('user.lossesShort')].map((x) => h('th', { class: 'num' }, x));
  return h('table', { class: 'table stats' },
    h('thead', {},
      h('tr', {}, h('th', {}), h('th', { colspan: 3, class: 'group' }, t('user.asWhite')), h('th', { colspan: 3, class: 'group' }, t('user.asBlack')),
        h('th', { colspan: 3, class: 'group' }, t('user.total'))),
      h('tr', {}, h('th', {}, t('user.variant')), heads(), heads(), heads())),
    h('tbody', {}, stats.results.map((r) => h('tr', {
      testid: 'stats-' + r.variant,
      'data-white': `${r.white.wins}/${r.white.draws}/${r.white.losses}`, 'data-black': `${r.black.wins}/${r.black.draws}/${r.black.losses}`,
    }, h('td', {}, variantName(r.variant)), wdl(r.white), wdl(r.black), wdl(sum(r.white, r.black))))),
    h('tfoot', {}, h('tr', { testid: 'stats-total', 'data-total': `${stats.total.wins}/${stats.total.draws}/${stats.total.losses}` },
      h('th', {}, t('user.total')), h('td', { colspan: 6 }), wdl(stats.total))));
}

// followLists shows, on one's own page, whom one follows (online marked)
// and who follows one, in pages.
function followLists() {
  const following = h('ul', { class: 'list plain follows', testid: 'user-following-list' }, h('li', { class: 'muted' }, t('common.loading')));
  const followers = h('ul', { class: 'list plain follows', testid: 'user-followers-list' });
  const more = h('button', { type: 'button', class: 'btn small', testid: 'user-followers-more', hidden: true, onclick: () => loadFollowers() }, t('user.more'));
  let after = 0;
  const item = (f, prefix, online) => h('li', { testid: prefix + f.user.name, 'data-online': online ? String(!!f.online) : null },
    online ? h('span', { class: 'dot' + (f.online ? ' on' : ''), title: f.online ? t('user.online') : '' }) : null,
    playerLink(f.user), ' ', h('span', { class: 'muted small' }, formatDate(f.sinceMs)));
  api('GET', '/api/account/following').then((r) => {
    if (!r.following.length) replace(following, h('li', { class: 'muted empty' }, t('user.noFollowing')));
    else replace(following, r.following.map((f) => item(f, 'following-', true)));
  }).catch((err) => replace(following, h('li', { class: 'form-error' }, errorText(err))));
  async function loadFollowers() {
    try {
      const r = await api('GET', '/api/account/followers?limit=50' + (after ? '&after=' + after : ''));
      if (!after && !r.followers.length) followers.append(h('li', { class: 'muted empty' }, t('user.noFollowers')));
      followers.append(...r.followers.map((f) => item(f, 'follower-', false)));
      if (r.followers.length) after = r.followers[r.followers.length - 1].user.id;
      more.hidden = !r.more;
    } catch (err) {
      followers.append(h('li', { class: 'form-error' }, errorText(err)));
    }
  }
  loadFollowers();
  return h('section', { testid: 'user-follows' },
    h('h2', {}, t('user.followingTitle')), following,
    h('h2', {}, t('user.followersTitle')), followers, more);
}

export function mount(main, params, app) {
  const name = params[0];
  app.title(name);
  let alive = true;
  const st = { user: null, games: [], more: false, error: '', pbm: null, stats: null, graph: null, follow: null };
  const head = h('div', { class: 'user-head' }, h('h1', { testid: 'user-name' }, name));
  const presence = h('p', { class: 'muted small presence', testid: 'user-presence' });
  const follow = h('div', { class: 'user-follow' }); // counts, and follow or unfollow
  const ratings = h('div', { testid: 'user-ratings' }, h('p', { class: 'muted' }, t('common.loading')));
  const stats = h('div', { testid: 'user-stats' });
  const graph = h('div', { testid: 'rating-graph', hidden: true });
  const games = h('div', { class: 'list', testid: 'user-games' }, h('p', { class: 'muted' }, t('common.loading')));
  const more = h('button', { type: 'button', class: 'btn small', testid: 'user-games-more', hidden: true, onclick: () => loadGames() }, t('user.more'));
  const puzzles = h('div', { testid: 'user-puzzles' });
  const own = h('div', {}); // the player's own settings, on their own page
  const follows = h('div', {}); // whom they follow and who follows them, on their own page
  const moderation = h('div', { class: 'user-moderation' }); // block and report, on another's
  main.append(h('div', { class: 'user-layout' },
    h('section', { class: 'panel' }, head, presence, follow, moderation, h('h2', {}, t('user.ratings')), ratings,
      h('h2', {}, t('user.puzzles')), puzzles, own, follows),
    h('section', { class: 'panel' },
      h('h2', {}, t('user.stats')), stats, graph,
      h('h2', {}, t('user.games'), ' ',
        h('a', { href: '#/archive?player=' + encodeURIComponent(name), class: 'btn small', testid: 'user-archive' }, t('user.searchArchive'))),
      games, more)));

  // The results by preset and colour.
  api('GET', '/api/user/' + encodeURIComponent(name) + '/stats', undefined, { auth: false }).then((r) => {
    if (!alive) return;
    st.stats = r;
    replace(stats, statsTable(r));
  }).catch(() => { replace(stats); });

  // showGraph draws the rating history of a variant.
  async function showGraph(variant, choices) {
    try {
      const r = await api('GET', `/api/user/${encodeURIComponent(name)}/rating-history?variant=${encodeURIComponent(variant)}`, undefined, { auth: false });
      if (!alive) return;
      st.graph = { variant, points: r.points.length };
      graph.dataset.variant = variant;
      graph.dataset.points = String(r.points.length);
      const label = t('user.graphLabel', { variant: variantName(variant) });
      replace(graph, h('div', { class: 'graph-head' }, h('h2', {}, t('user.ratingGraph')),
        choices.length > 1 ? variantSelect(choices.map((id) => ({ id })), variant, {
          testid: 'rating-graph-variant', 'aria-label': t('user.variant'), onchange: (ev) => showGraph(ev.target.value, choices),
        }) : null),
      r.points.length ? ratingGraph(r.points, label) : h('p', { class: 'muted empty' }, t('user.noHistory')),
      r.more ? h('p', { class: 'muted small' }, t('user.graphLast', { n: r.points.length })) : null);
      graph.hidden = false;
    } catch { /* the graph stays hidden */ }
  }

  // followTools: the counts of follows and, signed in on another's page,
  // follow or unfollow them.
  function followTools(u) {
    const s = session();
    const me = s && s.name === u.name;
    st.follow = { followed: !!u.followed, followers: u.followers, following: u.following };
    const out = h('span', { class: 'muted small', role: 'status', testid: 'user-follow-result' });
    const counts = h('span', { class: 'muted small' });
    const button = h('button', {
      type: 'button', class: 'btn small', testid: 'user-follow',
      onclick: async () => {
        button.disabled = true;
        try {
          if (st.follow.followed) {
            await api('DELETE', '/api/account/following/' + encodeURIComponent(u.name));
            st.follow.followers--;
          } else {
            await api('POST', '/api/account/following', { user: u.name });
            st.follow.followers++;
          }
          st.follow.followed = !st.follow.followed;
          replace(out, t(st.follow.followed ? 'user.followed' : 'user.unfollowed', { name: u.name }));
        } catch (err) {
          replace(out, errorText(err));
        } finally {
          button.disabled = false;
          show();
        }
      },
    });
    function show() {
      replace(counts,
        h('span', { testid: 'user-followers', 'data-count': st.follow.followers }, t('user.followersCount', { n: st.follow.followers })), ' · ',
        h('span', { testid: 'user-following', 'data-count': st.follow.following }, t('user.followingCount', { n: st.follow.following })));
      button.textContent = st.follow.followed ? t('user.unfollow') : t('user.follow');
      button.dataset.followed = String(st.follow.followed);
    }
    show();
    const canFollow = s && !s.guest && !me && !u.bot && !u.name.startsWith('guest-');
    replace(follow, h('div', { class: 'row' }, canFollow ? button : null, counts), out);
  }

  // The puzzle rating and the last attempts.
  api('GET', '/api/user/' + encodeURIComponent(name) + '/puzzles', undefined, { auth: false }).then((ph) => {
    if (!alive) return;
    replace(puzzles,
      h('p', { testid: 'user-puzzle-rating', 'data-rating': ph.rating, 'data-plays': ph.plays }, t('user.puzzleRating', { n: ph.rating, plays: ph.plays })),
      ph.attempts.length ? h('ul', { class: 'list plain' }, ph.attempts.map((a) => h('li', { testid: 'user-puzzle-' + a.puzzle, 'data-solved': String(a.solved), 'data-rated': String(a.rated) },
        h('a', { href: '#/puzzle/' + a.puzzle }, t('puzzle.number', { id: a.puzzle })), ' · ',
        a.solved ? t('user.puzzleSolved') : t('user.puzzleFailed'),
        a.rated ? ` · ${a.before} → ${a.after}` : ''))) : h('p', { class: 'muted' }, t('user.noPuzzles')));
  }).catch(() => { replace(puzzles); });

  // With the token: the answer says whether this player is followed.
  api('GET', '/api/user/' + encodeURIComponent(name)).then((u) => {
    if (!alive) return;
    st.user = u;
    const s = session();
    const me = s && s.name === u.name;
    presence.dataset.online = String(!!u.online);
    presence.dataset.seen = String(u.seenMs || 0);
    replace(presence, u.online ? h('span', {}, h('span', { class: 'dot on' }), t('user.online'))
      : u.seenMs ? t('user.lastSeen', { when: formatAgo(u.seenMs) }) : '');
    followTools(u);
    if (me && !s.guest) replace(follows, followLists());
    // The rating graph: of the preset of most rated games.
    const rated = (u.ratings || []).slice().sort((a, b) => b.games - a.games).map((r) => r.variant);
    if (rated.length) showGraph(rated[0], rated);
    replace(head, h('h1', { testid: 'user-name' }, u.name),
      u.bot ? h('span', { class: 'badge' }, t('game.bot')) : null,
      me ? h('span', { class: 'badge you' }, t('game.you')) : null,
      !me && !u.bot && !u.name.startsWith('guest-')
        ? h('a', { class: 'btn small primary', href: '#/?challenge=' + encodeURIComponent(u.name), testid: 'user-challenge' }, t('user.challenge'))
        : null,
      me && !s.guest ? vacationForm() : null);
    if (me && !s.guest) replace(own, pbmPrefs(st));
    if (s && !me && !u.bot) moderationTools(u.name);
    moderation.after(userClubs(u));
    if (!u.ratings || !u.ratings.length) {
      replace(ratings, h('p', { class: 'muted empty' }, t('user.noRatings')));
      return;
    }
    replace(ratings, h('table', { class: 'table' },
      h('thead', {}, h('tr', {}, h('th', {}, t('user.variant')), h('th', {}, t('user.rating')), h('th', {}, t('user.deviation')), h('th', {}, t('user.gamesCount')))),
      h('tbody', {}, u.ratings.map((r) => h('tr', { testid: 'rating-' + r.variant, 'data-provisional': r.provisional ? 'true' : 'false' },
        h('td', {}, variantName(r.variant)),
        h('td', {}, Math.round(r.rating), r.provisional ? h('span', { class: 'provisional', title: t('user.provisionalHint') }, '?') : null,
          r.provisional ? h('span', { class: 'muted small' }, ' ' + t('user.provisional')) : null),
        h('td', {}, '±' + Math.round(r.deviation)),
        h('td', {}, r.games))))));
  }).catch((err) => {
    if (!alive) return;
    replace(head, h('h1', { testid: 'user-name' }, name));
    replace(ratings, h('p', { class: 'form-error', testid: 'user-error' }, err.status === 404 ? t('user.notFound') : errorText(err)));
  });

  // moderationTools: block or unblock the player, and report them.
  async function moderationTools(who) {
    const blocked = await blockedNames();
    if (!alive) return;
    st.blocked = blocked.has(who);
    const out = h('p', { class: 'muted small', role: 'status', testid: 'user-block-result' });
    const slot = h('div', {});
    const block = h('button', {
      type: 'button', class: 'btn small', testid: 'user-block',
      onclick: async () => {
        block.disabled = true;
        try {
          await setBlocked(who, !st.blocked);
          st.blocked = !st.blocked;
          replace(out, st.blocked ? t('block.done', { name: who }) : t('block.undone', { name: who }));
        } catch (err) {
          replace(out, errorText(err));
        } finally {
          block.disabled = false;
          show();
        }
      },
    });
    const report = h('button', {
      type: 'button', class: 'btn small', testid: 'user-report',
      onclick: () => replace(slot, reportForm({ user: who }, () => replace(slot))),
    }, t('report.player'));
    function show() {
      block.textContent = st.blocked ? t('block.unblock') : t('block.block');
      block.dataset.blocked = String(st.blocked);
    }
    show();
    replace(moderation, h('div', { class: 'row' }, block, report), out, slot);
  }

  function gameRow(g) {
    const side = g.white.name === name ? 'white' : 'black';
    const opp = side === 'white' ? g.black : g.white;
    let outcome = 'ongoing';
    if (g.status !== 'active') {
      if (g.result === '1/2-1/2') outcome = 'draw';
      else if ((g.result === '1-0') === (side === 'white')) outcome = 'win';
      else outcome = 'loss';
    }
    return h('a', { href: '#/game/' + g.id, class: 'row-item game outcome-' + outcome, testid: 'user-game-' + g.id, 'data-id': g.id },
      h('span', { class: 'who' }, h('span', { class: 'stone-icon small ' + side, 'aria-hidden': 'true' }), ' ', t('user.versus', { name: opp.name })),
      h('span', { class: 'what' }, variantName(g.variant)),
      h('span', { class: 'ctl' }, controlText(g.control)),
      h('span', { class: 'res', title: resultText(g.result, g.method) }, g.status === 'active' ? t('user.playing') : `${g.result} · ${t('user.' + outcome)}`,
        g.method ? h('span', { class: 'muted small' }, ' (' + methodName(g.method) + ')') : null),
      h('span', { class: 'muted small' }, formatDate(g.updatedMs)));
  }

  async function loadGames() {
    const before = st.games.length ? '&before=' + st.games[st.games.length - 1].id : '';
    try {
      const list = await api('GET', `/api/user/${encodeURIComponent(name)}/games?limit=${PAGE}${before}`, undefined, { auth: false });
      if (!alive) return;
      st.games = st.games.concat(list || []);
      st.more = (list || []).length === PAGE;
      if (!st.games.length) replace(games, h('p', { class: 'muted empty' }, t('user.noGames')));
      else replace(games, st.games.map(gameRow));
      more.hidden = !st.more;
    } catch (err) {
      if (alive) replace(games, h('p', { class: 'form-error' }, errorText(err)));
    }
  }
  loadGames();

  app.debug(() => ({
    user: st.user ? st.user.name : null,
    ratings: st.user ? st.user.ratings : [],
    games: st.games.map((g) => g.id),
    pbm: st.pbm,
    blocked: !!st.blocked,
    online: st.user ? !!st.user.online : null,
    seenMs: st.user ? st.user.seenMs || 0 : 0,
    follow: st.follow,
    stats: st.stats ? st.stats.results.map((r) => ({ variant: r.variant, white: [r.white.wins, r.white.draws, r.white.losses], black: [r.black.wins, r.black.draws, r.black.losses] })) : null,
    graph: st.graph,
  }));
  return () => { alive = false; };
}
