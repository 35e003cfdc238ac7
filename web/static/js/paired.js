// When the signed-in player is paired in a tournament, their board opens
// by itself: the page goes to the game (#/game/ID?event=EVENT), or, when
// the player is on a game going on (theirs or one they watch), or the game
// is a correspondence one, a prompt says so with a button to open it.
//
// Two things tell of a pairing: the event's page, which follows the
// event's stream and calls pairedGame with each new game of the player's;
// and, on any other page, the account stream's gameStart, whose game is
// looked up among the running events (the account stream does not say
// which event a game belongs to: a few GETs, once per game started). Each
// game is opened or offered once.

import { h } from './dom.js';
import { t } from './i18n.js';
import { api, session, accountStream } from './api.js';
import { play as playSound } from './sound.js';

const offered = new Set(); // games opened or offered already
let app = null;
let pageState = () => ({});
let prompt = null;

// watchPairings starts the watch: app navigates, pageState() is the page's
// morrisDebug state (page, and on a game page id and status).
export function watchPairings(theApp, state) {
  app = theApp;
  pageState = state;
  // The account stream sends a gameStart for every game going on when it
  // connects: those of the first connection of a session are known games,
  // not pairings. On a reconnection, a game not seen before was paired
  // while the connection was down.
  const known = new Set();
  let token = null;
  let quietUntil = 0;
  accountStream.onReset(() => {
    const s = session();
    if (s && s.token !== token) {
      token = s.token;
      known.clear();
      quietUntil = Date.now() + 3000;
    }
  });
  accountStream.on((ev) => {
    const s = session();
    const g = ev.game;
    if (ev.type !== 'gameStart' || !g || !s || known.has(g.id)) return;
    known.add(g.id);
    if (Date.now() < quietUntil || offered.has(g.id) || g.status !== 'active' || g.ply > 2) return;
    if (g.white.name !== s.name && g.black.name !== s.name) return;
    eventOf(g).then((full) => {
      if (full) pairedGame(g.id, full);
    }).catch(() => { /* not an event's, or the server is busy: no board opens */ });
  });
  window.addEventListener('hashchange', () => {
    // Gone to the game by another way: the prompt has done its work.
    if (prompt && location.hash.startsWith(`#/game/${prompt.dataset.game}`)) closePrompt();
  });
}

// eventOf finds the running event whose pairings hold game g (a summary):
// one of the same preset and clock.
async function eventOf(g) {
  const list = await api('GET', `/api/tournaments?status=running&variant=${encodeURIComponent(g.variant)}&limit=50`, undefined, { auth: false });
  const same = list.tournaments.filter((ev) => sameControl(ev.control, g.control)).slice(0, 5);
  for (const ev of same) {
    const full = await api('GET', `/api/tournament/${ev.id}`, undefined, { auth: false });
    if (full.pairings.some((r) => r.games.some((x) => x.game === g.id))) return full;
  }
  return null;
}

function sameControl(a, b) {
  const keys = ['initialMs', 'incrementMs', 'nagDays', 'forfeitDays'];
  return keys.every((k) => (a[k] || 0) === ((b || {})[k] || 0));
}

// pairedGame opens game (of event ev, a Tournament) for its player, or
// offers it, once.
export function pairedGame(game, ev) {
  if (!app || offered.has(game)) return;
  offered.add(game);
  const st = pageState();
  if (st.page === 'game' && st.id === game) return;
  const route = `/game/${game}?event=${ev.id}`;
  const realtime = !!(ev.control && ev.control.initialMs);
  if (!realtime || (st.page === 'game' && st.status === 'active')) {
    showPrompt(game, ev, route);
    return;
  }
  playSound('start');
  app.navigate(route);
}

function showPrompt(game, ev, route) {
  closePrompt();
  playSound('notify');
  prompt = h('div', { class: 'paired-prompt', role: 'alert', testid: 'paired-prompt', 'data-game': game },
    h('span', {}, t('tournament.pairedPrompt', { name: ev.name })),
    h('span', { class: 'actions' },
      h('button', {
        type: 'button', class: 'btn small primary', testid: 'paired-open',
        onclick: () => { closePrompt(); app.navigate(route); },
      }, t('tournament.openGame')),
      h('button', { type: 'button', class: 'btn small', testid: 'paired-dismiss', onclick: closePrompt }, t('tournament.pairedLater'))));
  document.getElementById('notice').after(prompt);
}

function closePrompt() {
  if (prompt) prompt.remove();
  prompt = null;
}
