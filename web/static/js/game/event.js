// The game's event, for a game opened from a tournament (#/game/ID?event=E):
// the way back to the event with the round, and in an arena the berserk
// button (half one's clock for a point more) until one's first move. The
// event is read once and the game looked for in its pairings: a link with
// another event's number shows nothing.

import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { api } from '../api.js';
import { errorText } from '../ui.js';

export function gameEvent(ctrl, query) {
  const { st } = ctrl;
  const eventId = Number((query && query.get('event')) || 0);
  const el = h('div', { class: 'game-event', testid: 'game-event', hidden: true });
  let ev = null;
  let game = null;
  let round = 0;
  let error = '';
  let busy = false;

  if (eventId) {
    api('GET', `/api/tournament/${eventId}`, undefined, { auth: false }).then((full) => {
      for (const r of full.pairings) {
        const g = r.games.find((x) => x.game === ctrl.id);
        if (g) {
          ev = full;
          game = g;
          round = r.round;
        }
      }
      if (ctrl.alive) render();
    }).catch(() => { /* a game without its event's bar */ });
  }

  // berserkable: an arena's game going on where this player has not moved
  // (the server says so too, with a reason, if the page is wrong).
  function berserkable() {
    if (!ev || ev.kind !== 'arena' || !st.mySide || st.status !== 'active') return false;
    if (st.mySide === 'white' ? game.whiteBerserk : game.blackBerserk) return false;
    return st.moves.length < (st.mySide === 'white' ? 1 : 2);
  }

  function render() {
    if (!ev) return;
    el.hidden = false;
    el.dataset.event = String(ev.id);
    const mine = st.mySide && (st.mySide === 'white' ? game.whiteBerserk : game.blackBerserk);
    replace(el,
      h('a', { href: '#/tournament/' + ev.id, testid: 'game-event-link' },
        t(ev.kind === 'arena' ? 'tournament.gameOfArena' : 'tournament.gameOfRound', { name: ev.name, n: round })),
      berserkable() ? h('button', {
        type: 'button', class: 'btn small', testid: 'game-berserk', disabled: busy, title: t('tournament.berserkHint'),
        onclick: async () => {
          busy = true;
          error = '';
          render();
          try {
            game = await api('POST', `/api/tournament/${ev.id}/berserk`);
          } catch (err) {
            error = errorText(err);
          } finally {
            busy = false;
          }
          if (ctrl.alive) render();
        },
      }, t('tournament.berserk')) : null,
      mine ? h('span', { class: 'badge', testid: 'game-berserked' }, t('tournament.berserked')) : null,
      error ? h('span', { class: 'form-error', role: 'alert' }, error) : null);
  }

  return { el, render };
}
