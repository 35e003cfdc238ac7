// Pieces of the interface shared by the pages: names of variants, time
// controls and results, the form of a new game, the move list with its
// replay buttons, a button that copies a field.

import { h, replace } from './dom.js';
import { t, has, language } from './i18n.js';
import { moveNumber } from './notation.js';

export function variantName(id) {
  return has('variant.' + id) ? t('variant.' + id) : id;
}

// rulesName names a rules string: the preset, and the overrides if any.
export function rulesName(variant, rules) {
  const name = variantName(variant);
  const extra = (rules || '').split(',').slice(1).join(', ');
  return extra ? `${name} (${extra})` : name;
}

export function controlText(c) {
  if (!c) return t('control.none');
  if (c.initialMs) {
    const min = c.initialMs / 60000;
    const m = Number.isInteger(min) ? String(min) : min.toFixed(1);
    return t('control.realtime', { min: m, inc: Math.round((c.incrementMs || 0) / 1000) });
  }
  if (c.forfeitDays) return t('control.days', { n: c.forfeitDays });
  return t('control.none');
}

function otherSide(side) {
  return side === 'black' ? 'white' : 'black';
}

export function sideName(side) {
  return t('side.' + side);
}

// scoreWords says an engine's score as the terminal client (morris play)
// does, for the side named: "+7.95 pieces for White" (score in hundredths
// of a piece, from side's view), or "White wins in 3 moves" where text,
// the protocol's words ("cp 795", "mate 3", "mate -2"), says a mate.
export function scoreWords(score, text, side, proved) {
  const m = /^mate (-?)(\d+)$/.exec(text || '');
  if (m) return t(m[1] ? 'score.loses' : 'score.wins', { side: sideName(side), n: Number(m[2]) });
  // A value of the endgame databases without a distance: a proof, not pieces.
  if (proved === 'win' || proved === 'loss') return t(proved === 'win' ? 'score.provedWin' : 'score.provedLoss', { side: sideName(side) });
  return t('score.pieces', { side: sideName(side), score: piecesText(score) });
}

// piecesText writes a score in hundredths of a piece as pieces, signed,
// in the page's language: "+7.95" ("+7,95" in German).
export function piecesText(score) {
  const pieces = (Number(score) || 0) / 100;
  return pieces.toLocaleString(language(), { minimumFractionDigits: 2, maximumFractionDigits: 2, signDisplay: 'always' });
}

export function methodName(method) {
  return has('method.' + method) ? t('method.' + method) : method;
}

// resultText: "White wins by resignation", "Draw by repetition".
export function resultText(result, method) {
  const m = method ? methodName(method) : '';
  switch (result) {
    case '1-0':
      return m ? t('result.whiteWinsBy', { method: m }) : t('result.whiteWins');
    case '0-1':
      return m ? t('result.blackWinsBy', { method: m }) : t('result.blackWins');
    case '1/2-1/2':
      return m ? t('result.drawBy', { method: m }) : t('result.draw');
    default:
      return t('result.ongoing');
  }
}

export function playerLink(p, extra) {
  if (!p || !p.name) return h('span', {}, '?');
  return h('a', { href: '#/user/' + encodeURIComponent(p.name), class: 'player-link', ...(extra || {}) }, p.name);
}

export function ratingText(p) {
  if (!p || !p.rating) return '';
  return Math.round(p.rating) + (p.provisional ? '?' : '');
}

// variantSelect builds a <select> of the presets.
export function variantSelect(list, value, attrs) {
  return h('select', attrs,
    list.map((v) => h('option', { value: v.id, selected: v.id === value }, variantName(v.id))));
}

// gameForm is the form of a new game: variant, time control, colour, and
// rated (people) or level (the engine). onSubmit gets the API body.
export function gameForm({ variants, engine, prefix, submitLabel, onSubmit, extra }) {
  const id = (n) => `${prefix}-${n}`;
  const variant = variantSelect(variants, 'nine-mens-morris', { id: id('variant'), name: 'variant', testid: id('variant') });
  const control = h('select', { id: id('control'), testid: id('control') },
    h('option', { value: 'none' }, t('form.controlNone')),
    h('option', { value: 'realtime', selected: !engine }, t('form.controlRealtime')),
    engine ? null : h('option', { value: 'days' }, t('form.controlDays')));
  const minutes = h('input', { id: id('minutes'), type: 'number', min: '0.5', max: '180', step: '0.5', value: engine ? '10' : '5', testid: id('minutes'), inputmode: 'decimal' });
  const increment = h('input', { id: id('increment'), type: 'number', min: '0', max: '60', step: '1', value: '3', testid: id('increment'), inputmode: 'numeric' });
  const days = h('input', { id: id('days'), type: 'number', min: '1', max: '14', step: '1', value: '3', testid: id('days'), inputmode: 'numeric' });
  const color = h('select', { id: id('color'), testid: id('color') },
    h('option', { value: 'random' }, t('form.colorRandom')),
    h('option', { value: 'white' }, t('form.colorWhite')),
    h('option', { value: 'black' }, t('form.colorBlack')));
  const levelOut = h('output', { for: id('level'), testid: id('level-value') }, '3');
  const level = h('input', {
    id: id('level'), type: 'range', min: '1', max: '10', step: '1', value: '3', testid: id('level'),
    oninput: () => { levelOut.textContent = level.value; },
  });
  const rated = h('input', { id: id('rated'), type: 'checkbox', testid: id('rated') });
  const error = h('p', { class: 'form-error', role: 'alert', testid: id('error') });
  const clockRow = h('div', { class: 'row' },
    h('label', { class: 'field' }, h('span', {}, t('form.minutes')), minutes),
    h('label', { class: 'field' }, h('span', {}, t('form.increment')), increment));
  const daysRow = h('label', { class: 'field' }, h('span', {}, t('form.days')), days);
  const sync = () => {
    clockRow.hidden = control.value !== 'realtime';
    daysRow.hidden = control.value !== 'days';
  };
  control.addEventListener('change', sync);
  const button = h('button', { type: 'submit', class: 'btn primary', testid: id('submit') }, submitLabel);
  const form = h('form', {
    class: 'game-form', testid: id('form'),
    onsubmit: async (ev) => {
      ev.preventDefault();
      error.textContent = '';
      const body = { variant: variant.value, color: color.value };
      if (control.value === 'realtime') {
        const min = Number(minutes.value);
        const inc = Number(increment.value);
        if (!(min > 0) || !(inc >= 0)) {
          error.textContent = t('form.badClock');
          return;
        }
        body.clock = { initialMs: Math.round(min * 60000), incrementMs: Math.round(inc * 1000) };
      } else if (control.value === 'days') {
        body.days = Number(days.value);
      }
      if (engine) body.level = Number(level.value);
      else body.rated = rated.checked;
      button.disabled = true;
      try {
        await onSubmit(body);
      } catch (err) {
        error.textContent = err.message || String(err);
      } finally {
        button.disabled = false;
      }
    },
  },
  extra || null,
  h('label', { class: 'field' }, h('span', {}, t('form.variant')), variant),
  engine ? h('label', { class: 'field' }, h('span', {}, t('form.level'), ' ', levelOut), level) : null,
  h('label', { class: 'field' }, h('span', {}, t('form.control')), control),
  clockRow, daysRow,
  h('label', { class: 'field' }, h('span', {}, t('form.color')), color),
  engine ? null : h('label', { class: 'check' }, rated, h('span', {}, t('form.rated'))),
  error, button);
  sync();
  return form;
}

// MoveList shows moves numbered as records number them (by ply), marks the
// one shown, and lets the user step through them: the first/prev/next/last
// buttons, a click on a move, and (set up by the page) the arrow keys.
// onGo(k) asks to show the position after k moves.
export class MoveList {
  constructor({ onGo, startPly = 0 }) {
    this.onGo = onGo;
    this.startPly = startPly;
    this.moves = [];
    this.cursor = 0;
    this.list = h('ol', { class: 'moves', testid: 'move-list', 'aria-label': t('moves.label') });
    const btn = (name, label, fn) => h('button', { type: 'button', class: 'btn icon', testid: 'replay-' + name, 'aria-label': t('replay.' + name), title: t('replay.' + name), onclick: fn }, label);
    this.buttons = h('div', { class: 'replay', testid: 'replay' },
      btn('first', '«', () => this.go(0)),
      btn('prev', '‹', () => this.go(this.cursor - 1)),
      btn('next', '›', () => this.go(this.cursor + 1)),
      btn('last', '»', () => this.go(this.moves.length)));
    this.el = h('div', { class: 'movelist' }, this.list, this.buttons);
  }

  go(k) {
    k = Math.max(0, Math.min(this.moves.length, k));
    this.onGo(k);
  }

  // set shows moves with the position after cursor moves marked. start,
  // when known, is the start position (parsePosition): its ply numbers the
  // moves and its side to move names the columns.
  set(moves, cursor, start) {
    const startPly = start ? start.ply : this.startPly;
    // The left column holds the even plies, as the record numbers them
    // ("N." then "N..."): the first mover's, which a lot may make black's.
    const left = start ? (start.ply % 2 === 0 ? start.toMove : otherSide(start.toMove)) : this.left || 'white';
    const same = moves.length >= this.moves.length && this.moves.every((m, i) => m === moves[i]) && this.list.children.length > 0 &&
      startPly === this.startPly && left === this.left;
    this.startPly = startPly;
    this.left = left;
    this.moves = moves.slice();
    this.cursor = cursor;
    if (!same) {
      replace(this.list, moves.length ? h('li', { class: 'move-row move-head', testid: 'move-head', 'data-left': left, 'aria-hidden': 'true' },
        h('span', { class: 'num' }), h('span', { class: 'side' }, sideName(left)), h('span', { class: 'side' }, sideName(otherSide(left)))) : null);
    }
    // Rows of two plies, each row numbered as records number moves.
    let row = this.list.lastElementChild;
    for (let i = same ? this.list.querySelectorAll('.mv').length : 0; i < moves.length; i++) {
      const ply = this.startPly + i;
      if (!row || ply % 2 === 0 || i === 0 || row.dataset.testid === 'move-head') {
        row = h('li', { class: 'move-row' }, h('span', { class: 'num' }, moveNumber(ply) + (ply % 2 ? '…' : '.')));
        if (ply % 2 === 1) row.append(h('span', { class: 'mv empty' }));
        this.list.append(row);
      }
      row.append(h('button', {
        type: 'button', class: 'mv', testid: 'move-' + i, 'data-ply': ply, 'data-index': i + 1,
        onclick: () => this.go(i + 1),
      }, moves[i]));
    }
    this.list.dataset.count = String(moves.length);
    for (const b of this.list.querySelectorAll('button.mv')) {
      const on = Number(b.dataset.index) === cursor;
      b.classList.toggle('current', on);
      if (on) b.setAttribute('aria-current', 'true');
      else b.removeAttribute('aria-current');
    }
    const cur = this.list.querySelector('.mv.current');
    if (cur && cur.scrollIntoView && cursor === moves.length) {
      const box = this.list;
      box.scrollTop = box.scrollHeight;
    } else if (cur) {
      const box = this.list;
      if (cur.offsetTop < box.scrollTop || cur.offsetTop > box.scrollTop + box.clientHeight - 30) box.scrollTop = cur.offsetTop - 40;
    }
    const [first, prev, next, last] = this.buttons.children;
    first.disabled = prev.disabled = cursor <= 0;
    next.disabled = last.disabled = cursor >= moves.length;
  }
}

// replayKeys makes the arrow keys (and Home, End) step through a move list
// unless a text field or the board has the focus. It returns the remover.
export function replayKeys(list) {
  const onKey = (ev) => {
    const tgt = ev.target;
    if (tgt && tgt.closest && (tgt.closest('input, textarea, select, [contenteditable="true"]') || tgt.closest('[data-point]'))) return;
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const k = { ArrowLeft: list.cursor - 1, ArrowRight: list.cursor + 1, Home: 0, End: list.moves.length, ArrowUp: 0, ArrowDown: list.moves.length }[ev.key];
    if (k === undefined) return;
    ev.preventDefault();
    list.go(k);
  };
  document.addEventListener('keydown', onKey);
  return () => document.removeEventListener('keydown', onKey);
}

export function errorText(err) {
  if (!err) return '';
  if (err.status === 0 && err.message === 'network') return t('error.network');
  if (err.status === 0 && err.message === 'disconnected') return t('error.disconnected');
  if (err.status === 429) return t('error.tooMany');
  return err.message || String(err);
}

// copyButton is a button that copies the text of field (an input or a
// textarea) to the clipboard; where the clipboard is closed to the page,
// the browser's copy of the selection.
export function copyButton(testid, field, app) {
  return h('button', {
    type: 'button', class: 'btn small', testid,
    onclick: async () => {
      field.select();
      try {
        await navigator.clipboard.writeText(field.value);
        app.notify(t('study.copied'));
      } catch {
        document.execCommand('copy');
      }
    },
  }, t('study.copy'));
}
