// An event's tables, drawn from its TournamentFull (docs/api.md): the
// standings with their tie-breaks (an arena's sheet and fire), the
// crosstable of a round robin or Swiss, the pairings of every round with
// links to the games, and the field.

import { h } from '../dom.js';
import { t } from '../i18n.js';
import { playerLink, resultText, sideName } from '../ui.js';
import { points, tieBreakName } from './text.js';

// gameLink is the way to a game of the event (its page knows the event).
export function gameLink(ev, game) {
  return `#/game/${game}?event=${ev.id}`;
}

function tieBreakValue(name, v) {
  return name === 'performance' ? String(Math.round(v)) : points(v);
}

// standings is the standings table; me is the signed-in player's name.
export function standings(ev, me) {
  const arena = ev.kind === 'arena';
  const tbs = ev.tieBreaks || [];
  if (!ev.standings.length) return h('p', { class: 'muted empty', testid: 'standings-empty' }, t('tournament.noStandings'));
  return h('div', { class: 'table-scroll' }, h('table', { class: 'table standings' },
    h('caption', { class: 'sr-only' }, t('tournament.standings')),
    h('thead', {}, h('tr', {},
      h('th', { scope: 'col', class: 'num' }, h('abbr', { title: t('tournament.rank') }, '#')),
      h('th', { scope: 'col' }, t('tournament.player')),
      h('th', { scope: 'col', class: 'num' }, t('tournament.rating')),
      h('th', { scope: 'col', class: 'num' }, t('tournament.points')),
      tbs.map((name) => {
        const [short, full] = tieBreakName(name);
        return h('th', { scope: 'col', class: 'num' }, h('abbr', { title: full }, short));
      }),
      h('th', { scope: 'col', class: 'num' }, arena ? t('tournament.sheet') : t('tournament.games')))),
    h('tbody', {}, ev.standings.map((s) => h('tr', {
      testid: 'standing-' + s.player.name, 'data-rank': s.rank, 'data-points': s.points,
      class: [s.player.name === me ? 'me' : '', s.withdrawn ? 'withdrawn' : ''],
    },
    h('td', { class: 'num' }, s.rank),
    h('th', { scope: 'row' }, playerLink(s.player), s.player.bot ? h('span', { class: 'badge' }, t('game.bot')) : null,
      s.withdrawn ? h('span', { class: 'badge' }, t('tournament.withdrawn')) : null,
      s.onFire ? h('span', { class: 'fire', title: t('tournament.onFire'), 'aria-label': t('tournament.onFire'), role: 'img' }, '🔥') : null),
    h('td', { class: 'num' }, s.rating),
    h('td', { class: 'num pts' }, points(s.points)),
    tbs.map((name, i) => h('td', { class: 'num' }, tieBreakValue(name, s.tieBreaks[i] || 0))),
    h('td', { class: 'num' }, arena ? h('span', { class: 'sheet' }, (s.sheet || []).join(' ')) : s.games))))));
}

// cellText is a crosstable cell in words (its title and label).
function cellText(c) {
  if (c.kind === 'bye') return t('tournament.cellBye', { points: points(c.points) });
  if (c.kind === 'halfBye') return t('tournament.cellHalfBye', { points: points(c.points) });
  if (c.kind === 'absent') return t('tournament.cellAbsent');
  const params = { side: sideName(c.colour), name: c.opponent ? c.opponent.name : '?' };
  return c.pending ? t('tournament.cellPending', params) : t('tournament.cellPlayed', { ...params, points: points(c.points) });
}

// crosstable is a round robin's or a Swiss's table: a row a player, in the
// standings' order, a cell a round: the points, the colour and the
// opponent's place, a link to the game.
export function crosstable(ev) {
  const rows = ev.standings;
  const n = Math.max(0, ...rows.map((s) => (s.rounds || []).length));
  if (!n) return null;
  const place = new Map(rows.map((s, i) => [s.player.name, i + 1]));
  const cell = (c) => {
    if (c.kind === 'bye') return h('td', { class: 'xt bye', title: cellText(c) }, t('tournament.byeShort'));
    if (c.kind === 'halfBye') return h('td', { class: 'xt bye', title: cellText(c) }, t('tournament.halfByeShort'));
    if (c.kind === 'absent') return h('td', { class: 'xt absent', title: cellText(c) }, '–');
    const text = [c.pending ? '*' : points(c.points), h('span', { class: 'stone-icon small ' + c.colour, 'aria-hidden': 'true' }), place.get(c.opponent.name) || '?'];
    return h('td', { class: 'xt' + (c.pending ? ' pending' : '') },
      h('a', { href: gameLink(ev, c.game), title: cellText(c), 'aria-label': cellText(c) }, text));
  };
  return h('div', { class: 'table-scroll' }, h('table', { class: 'table crosstable', testid: 'crosstable' },
    h('caption', { class: 'sr-only' }, t('tournament.crosstable')),
    h('thead', {}, h('tr', {},
      h('th', { scope: 'col', class: 'num' }, '#'),
      h('th', { scope: 'col' }, t('tournament.player')),
      Array.from({ length: n }, (_, i) => h('th', { scope: 'col', class: 'num' }, h('abbr', { title: t('tournament.round', { n: i + 1 }) }, String(i + 1)))),
      h('th', { scope: 'col', class: 'num' }, t('tournament.points')))),
    h('tbody', {}, rows.map((s, i) => h('tr', { testid: 'crosstable-' + s.player.name },
      h('td', { class: 'num' }, i + 1),
      h('th', { scope: 'row' }, s.player.name),
      Array.from({ length: n }, (_, r) => (s.rounds && s.rounds[r] ? cell(s.rounds[r]) : h('td', { class: 'xt' }, ''))),
      h('td', { class: 'num pts' }, points(s.points)))))));
}

function resultCell(g) {
  if (g.status === 'active') return h('span', { class: 'badge live' }, t('tournament.playing'));
  return h('span', { title: resultText(g.result, g.method) }, g.result === '1/2-1/2' ? '½-½' : g.result);
}

// pairings lists the rounds, the last first: each board's players, result
// and a link to watch or replay the game.
export function pairings(ev, me) {
  if (!ev.pairings.length) return h('p', { class: 'muted empty', testid: 'pairings-empty' }, t('tournament.noPairings'));
  const arena = ev.kind === 'arena';
  const rounds = ev.pairings.slice().reverse();
  return h('div', {},
    rounds.map((r) => h('section', { class: 'round', testid: 'round-' + r.round, 'aria-labelledby': 'round-h-' + r.round },
      h('h3', { id: 'round-h-' + r.round }, t(arena ? 'tournament.wave' : 'tournament.round', { n: r.round })),
      h('table', { class: 'table pairings' },
        h('thead', {}, h('tr', {},
          h('th', { scope: 'col', class: 'num' }, h('abbr', { title: t('tournament.board') }, '#')),
          h('th', { scope: 'col' }, sideName('white')),
          h('th', { scope: 'col' }, sideName('black')),
          h('th', { scope: 'col' }, t('tournament.result')),
          h('th', { scope: 'col' }, h('span', { class: 'sr-only' }, t('tournament.game'))))),
        h('tbody', {}, r.games.map((g) => h('tr', {
          testid: 'pairing-' + g.game, 'data-status': g.status, 'data-result': g.result,
          class: me && (g.white.name === me || g.black.name === me) ? 'me' : null,
        },
        h('td', { class: 'num' }, g.board),
        h('td', {}, playerLink(g.white), g.whiteBerserk ? h('span', { class: 'badge', title: t('tournament.berserked') }, '½') : null),
        h('td', {}, playerLink(g.black), g.blackBerserk ? h('span', { class: 'badge', title: t('tournament.berserked') }, '½') : null),
        h('td', {}, resultCell(g)),
        h('td', {}, h('a', { href: gameLink(ev, g.game), class: 'btn small', testid: 'pairing-open-' + g.game },
          g.status === 'active' ? t('tournament.watch') : t('tournament.replay'))))))),
      r.bye ? h('p', { class: 'muted small', testid: 'bye-' + r.round }, t('tournament.byeOf', { name: r.bye.name })) : null,
      (r.halfByes || []).length ? h('p', { class: 'muted small', testid: 'halfbyes-' + r.round },
        t('tournament.halfByesOf', { names: r.halfByes.map((p) => p.name).join(', ') })) : null)),
    ev.pairingsMore ? h('p', { class: 'muted small' }, t('tournament.olderInRecords')) : null);
}

// field lists the entrants.
export function field(ev) {
  if (!ev.entrants.length) return h('p', { class: 'muted empty', testid: 'entrants-empty' }, t('tournament.noEntrants'));
  return h('ol', { class: 'entrants' }, ev.entrants.map((e) => h('li', { testid: 'entrant-' + e.name, class: e.withdrawn ? 'withdrawn' : null },
    playerLink(e), ' ', h('span', { class: 'muted small' }, e.rating),
    e.bot ? h('span', { class: 'badge' }, t('game.bot')) : null,
    e.number ? h('span', { class: 'muted small' }, ' · ' + t('tournament.number', { n: e.number })) : null,
    e.fromRound ? h('span', { class: 'muted small' }, ' · ' + t('tournament.fromRound', { n: e.fromRound })) : null,
    (e.halfByes || []).length ? h('span', { class: 'muted small' }, ' · ' + t('tournament.sitsOut', { rounds: e.halfByes.join(', ') })) : null,
    e.withdrawn ? h('span', { class: 'badge' }, t('tournament.withdrawn')) : null)));
}
