// The clocks of a game: real-time clocks counted down here between the
// server's readings, a correspondence game's deadline, and the claim of a
// win when the opponent's time is out or the opponent has gone silent.

import { t } from '../i18n.js';

const CLAIM_AFTER_MS = 60000; // the server's default silence before a claim

// setClocks keeps the server's clocks c; fresh ones (just read, not carried
// by a move) set the skew between the server's time and this browser's.
export function setClocks(st, c, fresh) {
  st.clocks = c || null;
  if (c && fresh) st.skew = Date.now() - c.atMs;
}

// clockText writes ms left as h:mm:ss, mm:ss, or mm:ss.t under ten seconds.
export function clockText(ms) {
  if (ms === null) return '';
  const total = Math.floor(ms / 1000);
  const hh = Math.floor(total / 3600);
  const mm = Math.floor((total % 3600) / 60);
  const ss = total % 60;
  const pad = (n) => String(n).padStart(2, '0');
  if (hh > 0) return `${hh}:${pad(mm)}:${pad(ss)}`;
  if (ms < 10000) return `${pad(mm)}:${pad(ss)}.${Math.floor((ms % 1000) / 100)}`;
  return `${pad(mm)}:${pad(ss)}`;
}

// gameClock ticks every 100 ms once the game has come: the clocks on the
// page (clock-SIDE) and the claim button, which waits for time.
export function gameClock(ctrl) {
  const { st } = ctrl;
  let lastClaim = false;

  // left is the time side has now, or null without clocks.
  function left(side) {
    const c = st.clocks;
    if (!c) return null;
    let ms = side === 'white' ? c.whiteMs : c.blackMs;
    const running = c.running || (st.status === 'active' ? st.toMove : '');
    if (running === side && st.status === 'active') ms -= Date.now() - st.skew - c.atMs;
    return Math.max(0, ms);
  }

  // deadline says how long the side to move has in a correspondence game.
  function deadline() {
    if (!st.deadlineMs || st.status !== 'active') return '';
    const ms = st.deadlineMs - Date.now();
    if (ms <= 0) return t('game.deadlinePassed');
    const hours = Math.floor(ms / 3600000);
    if (hours >= 48) return t('game.daysLeft', { n: Math.floor(hours / 24) });
    if (hours >= 1) return t('game.hoursLeft', { n: hours });
    return t('game.minutesLeft', { n: Math.max(1, Math.floor(ms / 60000)) });
  }

  // canClaim reports whether this page's player may claim the win now.
  function canClaim() {
    if (!st.mySide || st.status !== 'active' || st.toMove === st.mySide) return false;
    if (st.clocks) return left(st.toMove) <= 0;
    if (st.deadlineMs) return Date.now() >= st.deadlineMs;
    return Date.now() - st.turnSince >= CLAIM_AFTER_MS;
  }

  function tick() {
    if (!st.full) return;
    for (const side of ['white', 'black']) {
      const el = ctrl.main.querySelector(`[data-testid="clock-${side}"]`);
      if (!el) continue;
      const ms = left(side);
      if (ms === null) continue;
      el.textContent = clockText(ms);
      el.dataset.ms = String(Math.round(ms));
      el.classList.toggle('low', ms < 20000);
    }
    const c = canClaim();
    if (c !== lastClaim) {
      lastClaim = c;
      ctrl.controls.render();
    }
  }

  const ticker = setInterval(tick, 100);
  return { left, deadline, canClaim, stop: () => clearInterval(ticker) };
}
