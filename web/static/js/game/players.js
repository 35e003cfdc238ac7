// Who plays what: the game's rules and time control above the moves, and a
// card for each player beside the board (name, rating, the pieces in hand
// to drag onto the board, flying, the removals owed, the clock).

import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { handStones } from '../board.js';
import { parsePosition } from '../notation.js';
import { rulesName, controlText, playerLink, ratingText } from '../ui.js';
import { live, shownPly, currentView } from './state.js';
import { clockText } from './clock.js';

export function gamePlayers(ctrl) {
  const { st } = ctrl;
  const info = h('div', { class: 'game-info', testid: 'game-info' });
  const top = h('div', { class: 'player-card top' });
  const bottom = h('div', { class: 'player-card bottom' });

  // renderInfo draws the fixed facts when the game first arrives.
  function renderInfo() {
    const f = st.full;
    ctrl.app.title(`${f.white.name} – ${f.black.name}`);
    replace(info,
      h('div', { class: 'variant', testid: 'game-variant', 'data-variant': f.variant },
        h('a', { href: '#/rules/' + f.variant }, rulesName(f.variant, f.rules))),
      h('div', { class: 'muted' },
        controlText(f.control), ' · ', f.rated ? t('lobby.rated') : t('lobby.casual'),
        f.engineLevel ? ' · ' + t('game.engineLevel', { level: f.engineLevel }) : ''),
      st.mySide ? null : h('div', { class: 'muted', testid: 'spectating' }, t('game.spectating')));
  }

  // renderCards draws the cards, white's at the bottom unless the board is
  // flipped.
  function renderCards() {
    if (!st.full || !ctrl.board) return;
    const bottomSide = ctrl.board.flipped ? 'black' : 'white';
    const topSide = bottomSide === 'white' ? 'black' : 'white';
    fillCard(top, topSide);
    fillCard(bottom, bottomSide);
  }

  function fillCard(card, side) {
    const p = st.full[side];
    const text = live(st) ? st.position : st.positions[shownPly(st)];
    const now = live(st) ? currentView(st) : null;
    const v = now || (text ? parsePosition(text) : null);
    const inHand = v ? v.inHand[side] : 0;
    const flying = now && st.status === 'active' && now.flying && now.flying[side];
    const owes = st.status === 'active' && v && v.owed ? v.owed[side] : 0;
    const toMove = st.status === 'active' && st.toMove === side;
    card.dataset.testid = 'player-' + side;
    card.className = 'player-card ' + (card === top ? 'top' : 'bottom') + (toMove ? ' to-move' : '');
    replace(card,
      h('span', { class: 'stone-icon ' + side, 'aria-hidden': 'true' }),
      h('span', { class: 'pname' }, playerLink(p, { testid: 'player-name-' + side }),
        p && p.bot ? h('span', { class: 'badge' }, t('game.bot')) : null,
        p && p.rating ? h('span', { class: 'muted rating' }, ratingText(p)) : null,
        st.mySide === side ? h('span', { class: 'badge you' }, t('game.you')) : null),
      h('span', { class: 'card-extra' },
        inHand > 0 ? handSource(handStones(side, inHand), side) : h('span', { class: 'hand', testid: 'hand-' + side, 'data-count': 0 }),
        flying ? h('span', { class: 'badge flying', testid: 'flying-' + side }, t('game.flying')) : null,
        owes > 0 ? h('span', { class: 'badge owes', testid: 'owes-' + side, 'data-count': owes }, t('game.owes', { n: owes })) : null),
      st.clocks ? h('span', { class: 'clock' + (toMove ? ' running' : ''), testid: 'clock-' + side, 'data-ms': '' }, clockText(ctrl.clock.left(side))) : null);
  }

  // handSource lets the player drag a piece from their hand to the board.
  function handSource(el, side) {
    if (side === st.mySide && live(st) && ctrl.board) ctrl.board.handSource(el, side);
    return el;
  }

  return { info, top, bottom, renderInfo, renderCards };
}
