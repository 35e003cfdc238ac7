// The game's chat: the players write, spectators read.

import { h, replace } from '../dom.js';
import { t } from '../i18n.js';

export function gameChat(ctrl) {
  const { st } = ctrl;
  const list = h('ul', { class: 'chat-list', testid: 'chat-list', 'aria-live': 'polite' });
  const input = h('input', { type: 'text', maxlength: '500', autocomplete: 'off', testid: 'chat-input', 'aria-label': t('chat.input'), placeholder: t('chat.placeholder') });
  const form = h('form', { class: 'chat-form', testid: 'chat-form', onsubmit: (ev) => { ev.preventDefault(); send(); } },
    input, h('button', { type: 'submit', class: 'btn small', testid: 'chat-send' }, t('chat.send')));
  const note = h('p', { class: 'muted small', testid: 'chat-note' });
  const el = h('section', { class: 'chat panel-sub', testid: 'chat', 'aria-label': t('chat.title') },
    h('h2', {}, t('chat.title')), list, form, note);

  function render() {
    replace(list, st.chat.map((c) => h('li', { class: 'chat-msg', testid: 'chat-message', 'data-version': c.version },
      h('strong', {}, c.user), ' ', h('span', {}, c.text))));
    list.scrollTop = list.scrollHeight;
  }

  // setup shows the form to the players and a note to the others.
  function setup() {
    form.hidden = !st.mySide;
    note.textContent = st.mySide ? '' : t('chat.spectator');
  }

  function send() {
    const text = input.value.trim();
    if (!text) return;
    ctrl.socket.command({ type: 'chat', text }).then((ok) => { if (ok) input.value = ''; });
  }

  return { el, render, setup };
}
