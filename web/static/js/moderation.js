// Moderation on the client: the account's standing (a moderator, muted),
// the players one blocks (their chat hidden), the report form for a
// player or a chat line, and the moderators' warnings, shown on every page
// until acknowledged (docs/api.md, "Moderation").

import { h, replace, formatDate } from './dom.js';
import { t } from './i18n.js';
import { api, session } from './api.js';
import { errorText } from './ui.js';

// REASONS are the server's reasons of a report, in its order.
export const REASONS = ['abuse', 'spam', 'cheating', 'name', 'other'];

// cached keeps one answer per session's token.
function cached(load) {
  let token = null;
  let promise = null;
  return {
    get() {
      const s = session();
      if (!s) return Promise.resolve(null);
      if (token !== s.token || !promise) {
        token = s.token;
        promise = load().catch(() => null);
      }
      return promise;
    },
    reset() { promise = null; },
  };
}

const status = cached(() => api('GET', '/api/account'));

// accountStatus is GET /api/account for the session (moderator, muted), or
// null when nobody is signed in.
export function accountStatus() {
  return status.get();
}

const blocks = cached(() => api('GET', '/api/account/blocks').then((r) => new Set(r.blocks.map((b) => b.user.name))));
const blockListeners = new Set();

// blockedNames is the set of the names the session blocks (empty when
// nobody is signed in).
export async function blockedNames() {
  return (await blocks.get()) || new Set();
}

// onBlocks calls fn when a block is made or lifted on this page.
export function onBlocks(fn) {
  blockListeners.add(fn);
  return () => blockListeners.delete(fn);
}

// setBlocked blocks or unblocks a player.
export async function setBlocked(name, on) {
  if (on) await api('POST', '/api/account/blocks', { user: name });
  else await api('DELETE', '/api/account/blocks/' + encodeURIComponent(name));
  const set = await blockedNames();
  if (on) set.add(name);
  else set.delete(name);
  for (const fn of blockListeners) fn(set);
}

// reportForm is the form that reports a player ({user}) or a chat line
// ({game, version}): a reason and, for "other" necessarily, a few words.
// onClose is called when it is cancelled or done.
export function reportForm(target, onClose) {
  const reason = h('select', { testid: 'report-reason', 'aria-label': t('report.reason') },
    REASONS.map((r) => h('option', { value: r }, t('report.reason.' + r))));
  const text = h('textarea', { rows: '2', maxlength: '500', testid: 'report-text', 'aria-label': t('report.text'), placeholder: t('report.text') });
  const error = h('p', { class: 'form-error', role: 'alert', testid: 'report-error' });
  const submit = h('button', { type: 'submit', class: 'btn small primary', testid: 'report-submit' }, t('report.send'));
  const form = h('form', {
    class: 'report-form', testid: 'report-form',
    onsubmit: async (ev) => {
      ev.preventDefault();
      error.textContent = '';
      submit.disabled = true;
      try {
        await api('POST', '/api/report', { ...target, reason: reason.value, text: text.value });
        replace(form, h('p', { class: 'muted small', role: 'status', testid: 'report-done' }, t('report.done')));
        setTimeout(() => { if (onClose) onClose(); }, 4000);
      } catch (err) {
        error.textContent = errorText(err);
        submit.disabled = false;
      }
    },
  }, h('label', { class: 'field' }, h('span', {}, t('report.reason')), reason),
  h('label', { class: 'field' }, h('span', {}, t('report.text')), text), error,
  h('div', { class: 'row' }, submit, ' ', h('button', { type: 'button', class: 'btn small', testid: 'report-cancel', onclick: () => { if (onClose) onClose(); } }, t('common.cancel'))));
  return form;
}

// Warnings: each shown until its player acknowledges it, on whatever page.
const shown = new Set();

// showWarning puts a moderator's warning at the top of the page (the
// account stream sends the pending ones on each connection, and each new
// one); it stays until acknowledged.
export function showWarning(w) {
  const box = document.getElementById('warnings');
  if (!box || !w || shown.has(w.id)) return;
  shown.add(w.id);
  const error = h('p', { class: 'form-error', role: 'alert' });
  const el = h('div', { class: 'warning-notice', role: 'alertdialog', testid: 'warning-notice', 'data-id': w.id, 'aria-label': t('warning.title') },
    h('strong', {}, t('warning.title')),
    h('p', { class: 'warning-text' }, w.text),
    h('p', { class: 'muted small' }, formatDate(w.atMs)), error,
    h('button', {
      type: 'button', class: 'btn small primary', testid: 'warning-ack',
      onclick: async (ev) => {
        ev.target.disabled = true;
        try {
          await api('POST', `/api/account/warnings/${w.id}/ack`);
          el.remove();
        } catch (err) {
          if (err.status === 409 || err.status === 404) el.remove();
          else {
            error.textContent = errorText(err);
            ev.target.disabled = false;
          }
        }
        box.hidden = !box.children.length;
      },
    }, t('warning.ack')));
  box.append(el);
  box.hidden = false;
}

// forgetWarnings clears the warnings shown (another session).
export function forgetWarnings() {
  const box = document.getElementById('warnings');
  shown.clear();
  status.reset();
  blocks.reset();
  if (box) {
    replace(box);
    box.hidden = true;
  }
}
