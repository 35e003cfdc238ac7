// The words of tournaments, shared by the lobby's list, the tournaments
// page and an event's page: kinds, statuses, an event in one line, points
// with halves, durations and countdowns.

import { t } from '../i18n.js';
import { variantName, controlText } from '../ui.js';
import { formatDate } from '../dom.js';

// KINDS are the kinds of events, in the order the forms offer them.
export const KINDS = ['swiss', 'roundrobin', 'arena', 'correspondence'];

export function kindName(kind) {
  return t('tournament.kind.' + kind);
}

// kindText is the kind with its size: "Swiss of 5 rounds", "Arena of 1 h".
export function kindText(ev) {
  switch (ev.kind) {
    case 'swiss':
      return ev.rounds ? t('tournament.swissOf', { n: ev.rounds }) : kindName('swiss');
    case 'roundrobin':
      return ev.cycles === 2 ? t('tournament.doubleRoundRobin') : kindName('roundrobin');
    case 'arena':
      return t('tournament.arenaOf', { duration: durationText(ev.durationMs) });
    default:
      return kindName(ev.kind);
  }
}

// summary is an event in one line: kind, preset, clock, rated.
export function summary(ev) {
  return [kindText(ev), variantName(ev.variant), controlText(ev.control), ev.rated ? t('lobby.rated') : t('lobby.casual')].join(' · ');
}

// statusName: upcoming, running, finished or cancelled.
export function statusName(ev) {
  return t('tournament.status.' + (ev.cancelled ? 'cancelled' : ev.status));
}

// durationText: "30 min", "2 h", "1 h 30 min".
export function durationText(ms) {
  const min = Math.round((ms || 0) / 60000);
  const hours = Math.floor(min / 60);
  if (!hours) return t('tournament.minutes', { n: min });
  if (min % 60 === 0) return t('tournament.hours', { n: hours });
  return t('tournament.hoursMinutes', { h: hours, m: min % 60 });
}

const pad = (n) => String(n).padStart(2, '0');

// countdown: "4:05", "1:02:03", "3 d 04:05:06"; nothing below zero.
export function countdown(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const d = Math.floor(s / 86400);
  const hh = Math.floor((s % 86400) / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = s % 60;
  const time = d || hh ? `${d ? pad(hh) : hh}:${pad(mm)}:${pad(ss)}` : `${mm}:${pad(ss)}`;
  return d ? t('tournament.daysAnd', { d, time }) : time;
}

// when is the moment the event waits for, if any: {label, at} (the start
// of an upcoming event with a time, the end of a running arena).
export function when(ev) {
  if (ev.status === 'upcoming' && ev.startsMs) return { key: 'tournament.startsIn', at: ev.startsMs };
  if (ev.status === 'running' && ev.kind === 'arena' && ev.endsMs) return { key: 'tournament.endsIn', at: ev.endsMs };
  return null;
}

// stateText is where an event stands, without a countdown: "Round 2 of 5",
// "Starts when its organiser starts it", "Finished on ...".
export function stateText(ev) {
  if (ev.status === 'upcoming') return ev.startsMs ? t('tournament.startsAt', { date: formatDate(ev.startsMs) }) : t('tournament.startsByOrganiser');
  if (ev.status === 'running') {
    if (ev.kind === 'arena') return t('tournament.arenaRunning', { n: ev.round });
    if (ev.kind === 'correspondence') return t('tournament.allUnderWay');
    return ev.rounds ? t('tournament.roundOf', { n: ev.round, of: ev.rounds }) : t('tournament.round', { n: ev.round });
  }
  if (ev.cancelled) return t('tournament.cancelledOn', { date: formatDate(ev.finishedMs) });
  return t('tournament.finishedOn', { date: formatDate(ev.finishedMs) });
}

// points writes a score with halves: 2, 1½, ½.
export function points(x) {
  const whole = Math.floor(x + 1e-9);
  const half = x - whole > 0.25;
  if (!half) return String(whole);
  return (whole ? String(whole) : '') + '½';
}

// TIE_BREAKS name the server's tie-breaks: [key of the short name, key of
// the full name].
const TIE_BREAKS = {
  'Sonneborn-Berger': ['tournament.tb.sbShort', 'tournament.tb.sb'],
  Buchholz: ['tournament.tb.buchholzShort', 'tournament.tb.buchholz'],
  'median Buchholz': ['tournament.tb.medianShort', 'tournament.tb.median'],
  performance: ['tournament.tb.performanceShort', 'tournament.tb.performance'],
};

// tieBreakName is [short, full] for a tie-break the server names.
export function tieBreakName(name) {
  const keys = TIE_BREAKS[name];
  return keys ? [t(keys[0]), t(keys[1])] : [name, name];
}
