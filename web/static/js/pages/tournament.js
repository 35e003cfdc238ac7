// A tournament (#/tournament/ID): the event, live from its stream (GET
// /api/tournament/ID/stream: NDJSON, the event in full first, then a line
// for each change), with a countdown to its start or an arena's end, the
// signed-in player's game ("your game"), joining and withdrawing, the
// organiser's start, pair and cancel, the standings with their
// tie-breaks, the crosstable, the pairings of every round with links to
// the games, the field, and the exports. When the player is paired, their
// board opens by itself (paired.js).

import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { api, session, readNDJSON, backoff, ApiError } from '../api.js';
import { errorText, playerLink, sideName } from '../ui.js';
import { summary, statusName, stateText, when, countdown, points } from '../tournament/text.js';
import { standings, crosstable, pairings, field, gameLink } from '../tournament/tables.js';
import { pairedGame } from '../paired.js';

// ARENA_WAVES is how many of an arena's waves of pairings the page keeps,
// as the server's event does.
const ARENA_WAVES = 20;

export function mount(main, params, app) {
  const id = Number(params[0]);
  let alive = true;
  const st = { ev: null, conn: 'connecting', lines: 0, error: '', actionError: '', confirm: '', busy: false, known: null };
  const me = () => {
    const s = session();
    return s ? s.name : '';
  };

  // The parts of the page, filled by render.
  const head = h('div', { class: 'event-head' }, h('p', { class: 'muted' }, t('common.loading')));
  const countdownEl = h('p', { class: 'countdown-line', testid: 'tournament-countdown', role: 'timer', 'aria-live': 'off' });
  const actions = h('div', { class: 'row event-actions', testid: 'tournament-actions' });
  const actionError = h('p', { class: 'form-error', role: 'alert', testid: 'tournament-action-error' });
  const live = h('span', { class: 'live-dot', testid: 'tournament-live', role: 'status' });
  const mine = h('section', { class: 'panel my-event-game', testid: 'tournament-my-game', hidden: true, 'aria-live': 'polite' });
  const standingsEl = h('div', { testid: 'tournament-standings' });
  const crossEl = h('section', { class: 'panel', testid: 'tournament-crosstable', hidden: true, 'aria-labelledby': 'xt-h' });
  const pairingsEl = h('div', { testid: 'tournament-pairings' });
  const fieldEl = h('div', { testid: 'tournament-entrants' });
  const exportsEl = h('p', { class: 'row exports', testid: 'tournament-exports' });
  const page = h('div', { class: 'event-layout', testid: 'tournament-page', 'data-id': id },
    h('div', { class: 'event-main' },
      h('section', { class: 'panel', 'aria-labelledby': 'event-h' }, head, countdownEl, actions, actionError, exportsEl),
      mine,
      h('section', { class: 'panel', 'aria-labelledby': 'standings-h' },
        h('div', { class: 'panel-head' }, h('h2', { id: 'standings-h' }, t('tournament.standings')), live), standingsEl),
      crossEl),
    h('div', { class: 'event-side' },
      h('section', { class: 'panel', 'aria-labelledby': 'pairings-h' }, h('h2', { id: 'pairings-h' }, t('tournament.pairings')), pairingsEl),
      h('section', { class: 'panel', 'aria-labelledby': 'field-h' }, h('h2', { id: 'field-h' }, t('tournament.field')), fieldEl)));
  main.append(page);

  // ---- the stream ----
  let abort = null;
  let attempt = 0;
  let timer = 0;
  function connect() {
    const ctrl = new AbortController();
    abort = ctrl;
    let alive2 = Date.now();
    const watchdog = setInterval(() => {
      // Keep-alives come every 7 s: silence means a dead connection.
      if (Date.now() - alive2 > 25000) ctrl.abort();
    }, 5000);
    readNDJSON(`/api/tournament/${id}/stream`, {
      signal: ctrl.signal,
      onOpen: () => {
        attempt = 0;
        st.conn = 'open';
        renderLive();
      },
      onAlive: () => { alive2 = Date.now(); },
      onLine: (line) => apply(line),
    }).catch((err) => err).then((err) => {
      clearInterval(watchdog);
      if (!alive || abort !== ctrl) return;
      if (err instanceof ApiError && (err.status === 404 || err.status === 400)) {
        st.error = err.status === 404 ? t('tournament.notFound') : errorText(err);
        st.conn = 'closed';
        render();
        return;
      }
      st.conn = 'reconnecting';
      renderLive();
      attempt++;
      timer = setTimeout(() => { if (alive && abort === ctrl) connect(); }, backoff(attempt));
    });
  }

  // apply takes a line of the stream into the page's event.
  function apply(line) {
    st.lines++;
    const type = line.type;
    if (type === 'tournament') {
      const { type: _, ...full } = line;
      st.ev = full;
    } else if (!st.ev) {
      return;
    } else if (type === 'status') {
      const { type: _, ...headPart } = line;
      Object.assign(st.ev, headPart);
    } else if (type === 'entrants') {
      st.ev.entrants = line.entrants;
    } else if (type === 'round') {
      const { type: _, ...round } = line;
      const i = st.ev.pairings.findIndex((r) => r.round === round.round);
      if (i >= 0) st.ev.pairings[i] = round;
      else st.ev.pairings.push(round);
      st.ev.pairings.sort((a, b) => a.round - b.round);
      if (st.ev.kind === 'arena' && st.ev.pairings.length > ARENA_WAVES) {
        st.ev.pairings.splice(0, st.ev.pairings.length - ARENA_WAVES);
        st.ev.pairingsMore = true;
      }
    } else if (type === 'result') {
      const r = st.ev.pairings.find((x) => x.round === line.round);
      if (r) {
        const i = r.games.findIndex((g) => g.game === line.game.game);
        if (i >= 0) r.games[i] = line.game;
      }
    } else if (type === 'standings') {
      st.ev.standings = line.standings;
      st.ev.tieBreaks = line.tieBreaks;
      st.ev.status = line.status;
      st.ev.round = line.round;
    }
    app.title(st.ev.name);
    schedule();
    newGames();
  }

  // newGames opens the player's board when a game of theirs appears that
  // the page had not seen (the games there when the page opened are known:
  // the page shows them, it does not jump to them).
  function newGames() {
    const name = me();
    const games = st.ev.pairings.flatMap((r) => r.games);
    if (!st.known) {
      st.known = new Set(games.map((g) => g.game));
      return;
    }
    for (const g of games) {
      if (st.known.has(g.game)) continue;
      st.known.add(g.game);
      if (name && g.status === 'active' && (g.white.name === name || g.black.name === name)) pairedGame(g.game, st.ev);
    }
  }

  let pending = false;
  function schedule() {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      if (alive) render();
    });
  }

  // ---- what the player and the organiser do ----
  async function act(path, done, body) {
    if (st.busy) return;
    st.busy = true;
    st.actionError = '';
    st.confirm = '';
    renderActions();
    try {
      const r = await api('POST', `/api/tournament/${id}/${path}`, body);
      if (done) done(r);
    } catch (err) {
      st.actionError = errorText(err);
    } finally {
      st.busy = false;
    }
    if (alive) renderActions();
  }

  function myEntrant() {
    const name = me();
    return st.ev && name ? st.ev.entrants.find((e) => e.name === name) : null;
  }

  // myGame is the player's game going on, the last round's first.
  function myGame() {
    const name = me();
    if (!st.ev || !name) return null;
    for (let i = st.ev.pairings.length - 1; i >= 0; i--) {
      const r = st.ev.pairings[i];
      const g = r.games.find((x) => x.status === 'active' && (x.white.name === name || x.black.name === name));
      if (g) return { round: r.round, game: g };
    }
    return null;
  }

  // ---- drawing ----
  function render() {
    if (st.error) {
      replace(head, h('h1', { id: 'event-h', testid: 'tournament-name' }, t('tournament.title')), h('p', { class: 'form-error', testid: 'tournament-error' }, st.error));
      return;
    }
    const ev = st.ev;
    if (!ev) return;
    page.dataset.status = ev.status;
    replace(head,
      h('div', { class: 'user-head' },
        h('h1', { id: 'event-h', testid: 'tournament-name' }, ev.name),
        h('span', { class: 'badge status-' + ev.status, testid: 'tournament-status', 'data-status': ev.cancelled ? 'cancelled' : ev.status }, statusName(ev))),
      h('p', { class: 'lead', testid: 'tournament-summary' }, summary(ev)),
      h('p', { class: 'muted' }, stateText(ev)),
      ev.note ? h('p', { class: 'status warn', testid: 'tournament-note' }, ev.note) : null,
      h('dl', { class: 'facts-list' },
        fact(t('tournament.organiser'), playerLink(ev.organiser)),
        ev.club ? fact(t('tournament.club'), h('a', { href: '#/club/' + ev.club.id, testid: 'tournament-club' }, ev.club.name)) : null,
        fact(t('tournament.playersTitle'), t('tournament.playersOf', { n: ev.players, max: ev.maxPlayers })),
        ev.minRating || ev.maxRating ? fact(t('tournament.ratingBand'), band(ev)) : null,
        ev.engineLevel ? fact(t('tournament.engine'), t('game.engineLevel', { level: ev.engineLevel })) : null,
        ev.manualPairing ? fact(t('tournament.pairing'), t('tournament.manualPairing')) : null,
        ev.seed ? fact(t('tournament.seed'), h('span', { class: 'mono small' }, ev.seed)) : null));
    renderCountdown();
    renderActions();
    renderMine();
    renderLive();
    replace(standingsEl, standings(ev, me()));
    const xt = ev.kind === 'arena' ? null : crosstable(ev);
    crossEl.hidden = !xt;
    if (xt) replace(crossEl, h('h2', { id: 'xt-h' }, t('tournament.crosstable')), xt);
    replace(pairingsEl, pairings(ev, me()));
    replace(fieldEl, field(ev));
    replace(exportsEl, ev.status === 'upcoming' ? null : [
      h('span', { class: 'muted small' }, t('tournament.export')),
      h('a', { href: `/api/tournament/${id}/records`, download: `morris-tournament-${id}.pgn`, class: 'btn small', testid: 'tournament-export-records' }, t('tournament.exportRecords')),
      h('a', { href: `/api/tournament/${id}/standings.csv`, download: `morris-tournament-${id}-standings.csv`, class: 'btn small', testid: 'tournament-export-csv' }, t('tournament.exportCsv')),
      h('a', { href: `/api/tournament/${id}/standings.json`, download: `morris-tournament-${id}-standings.json`, class: 'btn small', testid: 'tournament-export-json' }, t('tournament.exportJson'))]);
  }

  function fact(term, ...desc) {
    return [h('dt', {}, term), h('dd', {}, desc)];
  }

  function band(ev) {
    if (ev.minRating && ev.maxRating) return t('tournament.bandBetween', { min: ev.minRating, max: ev.maxRating });
    if (ev.minRating) return t('tournament.bandFrom', { min: ev.minRating });
    return t('tournament.bandUpTo', { max: ev.maxRating });
  }

  function renderCountdown() {
    const ev = st.ev;
    const w = ev && when(ev);
    countdownEl.hidden = !w;
    if (!w) return;
    const left = w.at - Date.now();
    countdownEl.dataset.ms = String(Math.max(0, left));
    countdownEl.textContent = t(w.key, { time: countdown(left) });
  }

  function renderLive() {
    live.dataset.connection = st.conn;
    live.textContent = st.conn === 'open' ? t('tournament.live') : st.conn === 'closed' ? '' : t('tournament.reconnecting');
  }

  function renderActions() {
    const ev = st.ev;
    if (!ev) return;
    actionError.textContent = st.actionError;
    const s = session();
    const entrant = myEntrant();
    const organiser = s && ev.organiser.name === s.name;
    const btn = (testid, label, fn, cls = 'btn small') => h('button', { type: 'button', class: cls, testid, disabled: st.busy, onclick: fn }, label);
    const confirmRow = (question, testid, label, fn) => [h('span', {}, question),
      btn(testid, label, fn, 'btn small danger'),
      btn(testid.replace(/-confirm$/, '-keep'), t('common.cancel'), () => { st.confirm = ''; renderActions(); })];
    const items = [];
    const finished = ev.status === 'finished';
    const entered = entrant && !entrant.withdrawn;
    if (!s && !finished) {
      items.push(h('span', { class: 'muted' }, t('tournament.signInToJoin'), ' ', h('a', { href: '#/signin' }, t('nav.signin'))));
    } else if (s && !finished) {
      if (entered) {
        items.push(h('span', { class: 'badge you', testid: 'tournament-entered' }, t('tournament.youAreIn')));
        if (st.confirm === 'withdraw') {
          items.push(...confirmRow(ev.status === 'running' ? t('tournament.withdrawSureRunning') : t('tournament.withdrawSure'),
            'tournament-withdraw-confirm', t('tournament.withdraw'), () => act('withdraw')));
        } else {
          items.push(btn('tournament-withdraw', t('tournament.withdraw'), () => {
            // Before the start a withdrawal takes nothing back: no question.
            if (ev.status === 'upcoming') act('withdraw');
            else {
              st.confirm = 'withdraw';
              renderActions();
            }
          }));
        }
      } else if (!s.guest && canJoin(ev, entrant)) {
        items.push(btn('tournament-join', entrant ? t('tournament.rejoin') : t('tournament.join'), () => act('join'), 'btn primary'));
      } else if (s.guest) {
        items.push(h('span', { class: 'muted' }, t('tournament.guestsNot')));
      }
    }
    if (entered && ev.kind === 'swiss' && !finished) items.push(...halfByes(ev, entrant, btn));
    if (organiser && ev.status === 'upcoming') {
      items.push(btn('tournament-start', t('tournament.startNow'), () => act('start'), 'btn small primary'));
      if (st.confirm === 'cancel') items.push(...confirmRow(t('tournament.cancelSure'), 'tournament-cancel-confirm', t('tournament.cancelEvent'), () => act('cancel')));
      else items.push(btn('tournament-cancel', t('tournament.cancelEvent'), () => { st.confirm = 'cancel'; renderActions(); }));
    }
    if (organiser && ev.status === 'running' && canPair(ev)) {
      items.push(btn('tournament-pair', ev.kind === 'arena' ? t('tournament.pairWaiting') : t('tournament.pairNext'), () => act('pair')));
    }
    replace(actions, items);
  }

  // halfByes are a Swiss player's half-point byes: each round asked for
  // and not yet paired, to take back; and, while fewer than two are
  // asked for, a round to sit out (any not paired but the last).
  function halfByes(ev, entrant, btn) {
    const asked = entrant.halfByes || [];
    const setByes = (r) => {
      const e = myEntrant();
      if (e) e.halfByes = r.halfByes || [];
      render();
    };
    const out = asked.filter((r) => r > ev.round).map((r) => h('span', { class: 'row', testid: 'tournament-sits-out-' + r },
      h('span', { class: 'badge' }, t('tournament.youSitOut', { n: r })),
      btn('tournament-unbye-' + r, t('tournament.takeBack'), () => act('unbye', setByes, { round: r }))));
    const free = [];
    for (let r = ev.round + 1; r < (ev.rounds || 0); r++) if (!asked.includes(r)) free.push(r);
    if (asked.length < 2 && free.length) {
      const pick = h('select', { testid: 'tournament-bye-round', 'aria-label': t('tournament.sitOut') },
        free.map((r) => h('option', { value: String(r) }, t('tournament.round', { n: r }))));
      out.push(h('span', { class: 'row' }, h('label', { class: 'muted small' }, t('tournament.sitOut'), ' ', pick),
        btn('tournament-bye', t('tournament.sitOutAsk'), () => act('bye', setByes, { round: Number(pick.value) }))));
    }
    return out;
  }

  // canPair: the organiser's pair button where it may do something: an
  // arena's players waiting, or a round robin's or Swiss's next round once
  // the last is over (the server pairs it itself in a moment, or, paired
  // by hand, waits for the organiser).
  function canPair(ev) {
    if (ev.kind === 'arena') return true;
    if (ev.kind === 'correspondence' || (ev.rounds && ev.round >= ev.rounds)) return false;
    const last = ev.pairings[ev.pairings.length - 1];
    return !last || last.games.every((g) => g.status !== 'active');
  }

  function canJoin(ev, entrant) {
    if (entrant && entrant.withdrawn && ev.kind !== 'arena') return false;
    if (ev.status === 'upcoming') return true;
    if (ev.status !== 'running') return false;
    if (ev.kind === 'arena') return true;
    return ev.kind === 'swiss' && ev.round < (ev.lateEntryUntil || 0);
  }

  // renderMine is the player's box: their game going on (and berserk in
  // an arena), their bye, or what they wait for.
  function renderMine() {
    const ev = st.ev;
    const entrant = myEntrant();
    mine.hidden = !entrant;
    if (!entrant) return;
    const name = me();
    const cur = myGame();
    mine.dataset.game = cur ? String(cur.game.game) : '';
    const title = h('h2', {}, t('tournament.yourGame'));
    if (cur) {
      const g = cur.game;
      const side = g.white.name === name ? 'white' : 'black';
      const opp = side === 'white' ? g.black : g.white;
      const berserked = side === 'white' ? g.whiteBerserk : g.blackBerserk;
      const canBerserk = ev.kind === 'arena' && !berserked && g.ply < (side === 'white' ? 1 : 2);
      replace(mine, title,
        h('p', {}, t('tournament.yourGameIs', { round: cur.round, side: sideName(side) }), ' ', playerLink(opp)),
        h('p', { class: 'row' },
          h('a', { href: gameLink(ev, g.game), class: 'btn primary', testid: 'tournament-my-game-link', 'data-game': g.game }, t('tournament.openGame')),
          canBerserk ? h('button', {
            type: 'button', class: 'btn', testid: 'tournament-berserk', title: t('tournament.berserkHint'),
            onclick: () => act('berserk', (r) => {
              const r0 = st.ev.pairings.find((x) => x.games.some((y) => y.game === r.game));
              if (r0) r0.games = r0.games.map((y) => (y.game === r.game ? r : y));
              render();
            }),
          }, t('tournament.berserk')) : null,
          berserked ? h('span', { class: 'badge' }, t('tournament.berserked')) : null));
      return;
    }
    let text;
    const last = ev.pairings[ev.pairings.length - 1];
    if (ev.status === 'upcoming') text = t('tournament.waitStart');
    else if (ev.status === 'finished') {
      const s = ev.standings.find((x) => x.player.name === name);
      text = s ? t('tournament.yourPlace', { rank: s.rank, points: points(s.points) }) : t('tournament.over');
    } else if (entrant.withdrawn) text = ev.kind === 'arena' ? t('tournament.paused') : t('tournament.youWithdrew');
    else if (ev.kind === 'arena') text = t('tournament.waitArena');
    else if (last && last.bye && last.bye.name === name) text = t('tournament.yourBye', { round: last.round });
    else if (last && (last.halfByes || []).some((p) => p.name === name)) text = t('tournament.yourHalfBye', { round: last.round });
    else text = t('tournament.waitRound');
    replace(mine, title, h('p', { testid: 'tournament-my-wait' }, text));
  }

  connect();
  const tick = setInterval(() => { if (st.ev) renderCountdown(); }, 1000);

  app.debug(() => {
    const ev = st.ev;
    const cur = myGame();
    return {
      id,
      connection: st.conn,
      lines: st.lines,
      error: st.error,
      status: ev ? ev.status : null,
      round: ev ? ev.round : 0,
      organiser: ev ? ev.organiser.name : null,
      entrants: ev ? ev.entrants.filter((e) => !e.withdrawn).map((e) => e.name) : [],
      standings: ev ? ev.standings.map((s) => ({ rank: s.rank, name: s.player.name, points: s.points, games: s.games })) : [],
      pairings: ev ? ev.pairings.map((r) => ({
        round: r.round, bye: r.bye ? r.bye.name : null, halfByes: (r.halfByes || []).map((p) => p.name),
        games: r.games.map((g) => ({ game: g.game, white: g.white.name, black: g.black.name, status: g.status, result: g.result })),
      })) : [],
      myGame: cur ? cur.game.game : null,
      actionError: st.actionError,
    };
  });

  return () => {
    alive = false;
    clearTimeout(timer);
    clearInterval(tick);
    if (abort) abort.abort();
    abort = null;
  };
}
