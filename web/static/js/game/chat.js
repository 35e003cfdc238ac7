// The game's chat: the players write, spectators read. The lines of the
// players one blocks are not shown (the server leaves them out too, once
// the socket is signed in), and a signed-in reader may report a line to
// the moderators.

import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { session } from '../api.js';
import { blockedNames, onBlocks, reportForm } from '../moderation.js';

export function gameChat(ctrl) {
  const { st } = ctrl;
  let blocked = new Set();
  const list = h('ul', { class: 'chat-list', testid: 'chat-list', 'aria-live': 'polite' });
  const input = h('input', { type: 'text', maxlength: '500', autocomplete: 'off', testid: 'chat-input', 'aria-label': t('chat.input'), placeholder: t('chat.placeholder') });
  const form = h('form', { class: 'chat-form', testid: 'chat-form', onsubmit: (ev) => { ev.preventDefault(); send(); } },
    input, h('button', { type: 'submit', class: 'btn small', testid: 'chat-send' }, t('chat.send')));
  const note = h('p', { class: 'muted small', testid: 'chat-note' });
  const reporting = h('div', { class: 'chat-report', testid: 'chat-report-slot' });
  const el = h('section', { class: 'chat panel-sub', testid: 'chat', 'aria-label': t('chat.title') },
    h('h2', {}, t('chat.title')), list, reporting, form, note);

  blockedNames().then((set) => { blocked = set; render(); });
  const offBlocks = onBlocks((set) => { blocked = set; render(); });

  function render() {
    const s = session();
    replace(list, st.chat.filter((c) => !blocked.has(c.user)).map((c) => h('li', { class: 'chat-msg', testid: 'chat-message', 'data-version': c.version },
      h('strong', {}, c.user), ' ', h('span', {}, c.text),
      s && c.user !== s.name ? h('button', {
        type: 'button', class: 'chat-report-btn', testid: 'chat-report', 'data-version': c.version,
        title: t('report.line'), 'aria-label': t('report.line'),
        onclick: () => replace(reporting, reportForm({ game: st.id, version: c.version }, () => replace(reporting))),
      }) : null))); // the flag is the style's (::before), so that a line's text is its own
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

  return { el, render, setup, stop: offBlocks };
}
