// When the signed-in player is paired in a tournament, their board opens
// by itself: the page goes to the game (#/game/ID?event=EVENT), or, when
// the player is on a game going on (theirs or one they watch), or the game
// is a correspondence one, a prompt says so with a button to open it.
//
// Two things tell of a pairing: the event's page, which follows the
// event's stream and calls pairedGame with each new game of the player's;
// and, on any other page, the account stream's gameStart, whose game
// names its event (game.event; one GET for the event's name and pairings;
// a server that does not name it has the game looked up among the running
// events). Each game is opened or offered once.

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
  // connects, then a synced line: the games before it on the first
  // connection of a session are known games, not pairings. On a
  // reconnection, a game not seen before was paired while the connection
  // was down.
  const known = new Set();
  let token = null;
  let first = false; // in the state of a session's first connection
  accountStream.onReset(() => {
    const s = session();
    if (s && s.token !== token) {
      token = s.token;
      known.clear();
      first = true;
    }
  });
  accountStream.on((ev) => {
    if (ev.type === 'synced') first = false;
    const s = session();
    const g = ev.game;
    if (ev.type !== 'gameStart' || !g || !s || known.has(g.id)) return;
    known.add(g.id);
    if (first || offered.has(g.id) || g.status !== 'active' || g.ply > 2) return;
    if (g.white.name !== s.name && g.black.name !== s.name) return;
    withRetry(() => (g.event ? api('GET', `/api/tournament/${g.event}`) : eventOf(g))).then((full) => {
      if (full) pairedGame(g.id, full);
    }).catch(() => { /* not an event's, or the server stayed busy: no board opens */ });
  });
  window.addEventListener('hashchange', () => {
    // Gone to the game by another way: the prompt has done its work.
    if (prompt && location.hash.startsWith(`#/game/${prompt.dataset.game}`)) closePrompt();
  });
}

// withRetry runs f, and again up to twice more if it fails (the server
// busy a moment, a rate limit), after half a second and then a second.
async function withRetry(f) {
  for (let i = 0; ; i++) {
    try {
      return await f();
    } catch (err) {
      if (i === 2) throw err;
      await new Promise((r) => setTimeout(r, 500 * (i + 1)));
    }
  }
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
  // A game page still showing the player's last game of this event as
  // going on has not heard of its end yet: the next wave is paired the
  // moment a game ends, and the account stream can tell of the new game
  // before the game's own stream tells of the result. The event knows.
  const ended = st.page === 'game' && endedIn(ev, st.id);
  const busy = st.page === 'game' && st.status === 'active' && !ended;
  if (!realtime || busy) {
    showPrompt(game, ev, route);
    return;
  }
  if (ended) {
    // On the board of the event's game that just ended: the player sees
    // its end (the last move, the result) a moment, with the prompt to
    // open the next at once or stay; then the next board opens.
    showPrompt(game, ev, route);
    setTimeout(() => {
      const now = pageState();
      if (!prompt || prompt.dataset.game !== String(game) || now.page !== 'game' || now.id !== st.id) return;
      closePrompt();
      playSound('start');
      app.navigate(route);
    }, NEXT_BOARD_PAUSE);
    return;
  }
  playSound('start');
  app.navigate(route);
}

// NEXT_BOARD_PAUSE is how long the end of an event's game stays on the
// screen before the player's next board of the event opens (ms).
const NEXT_BOARD_PAUSE = 2500;

// endedIn reports whether game id is one of event ev's games that is over.
function endedIn(ev, id) {
  return (ev.pairings || []).some((r) => r.games.some((x) => x.game === id && x.status !== 'active'));
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
