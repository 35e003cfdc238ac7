// The account page: a new password (the other sessions are signed out),
// signing out everywhere, and deleting the account, each asking for what
// the server asks for (docs/api.md, "Account").

import { h } from '../dom.js';
import { t } from '../i18n.js';
import { api, session, setSession } from '../api.js';
import { errorText } from '../ui.js';
import { settingsPanel } from '../settings.js';

function field(label, input, hint) {
  return h('label', { class: 'field' }, h('span', {}, label), input, hint ? h('small', { class: 'muted' }, hint) : null);
}

// wrongPassword words a refusal: a 401 here is the password, not the
// session (the calls keep the session on a 401).
function wrongPassword(err) {
  return err.status === 401 ? t('accountPage.wrongPassword') : errorText(err);
}

export function mount(main, _params, app) {
  app.title(t('accountPage.title'));
  const s = session();
  if (!s || s.guest) {
    main.append(h('div', { class: 'single' }, h('section', { class: 'panel narrow auth', testid: 'account-none' },
      h('h1', {}, t('accountPage.title')),
      h('p', {}, s ? t('accountPage.guest') : t('accountPage.signIn'), ' ',
        h('a', { href: s ? '#/signup' : '#/signin?to=/account' }, s ? t('auth.signUp') : t('auth.signIn'))),
      h('h2', {}, t('settings.title')), settingsPanel('account-settings'))));
    app.debug(() => ({}));
    return;
  }

  // A new password.
  const current = h('input', { type: 'password', required: true, autocomplete: 'current-password', testid: 'password-current' });
  const next = h('input', { type: 'password', required: true, minlength: '8', maxlength: '128', autocomplete: 'new-password', testid: 'password-new' });
  const pwError = h('p', { class: 'form-error', role: 'alert', testid: 'password-error' });
  const pwDone = h('p', { class: 'muted', role: 'status', testid: 'password-done' });
  const pwButton = h('button', { type: 'submit', class: 'btn primary', testid: 'password-submit' }, t('accountPage.changePassword'));
  const passwordForm = h('form', {
    testid: 'password-form',
    onsubmit: async (ev) => {
      ev.preventDefault();
      pwError.textContent = '';
      pwDone.textContent = '';
      pwButton.disabled = true;
      try {
        await api('POST', '/api/account/password', { password: current.value, new: next.value }, { keepSession: true });
        current.value = '';
        next.value = '';
        pwDone.textContent = t('accountPage.passwordChanged');
      } catch (err) {
        pwError.textContent = wrongPassword(err);
        if (err.status === 401) current.value = '';
      } finally {
        pwButton.disabled = false;
      }
    },
  }, field(t('accountPage.currentPassword'), current), field(t('accountPage.newPassword'), next, t('auth.passwordHint')), pwError, pwDone, pwButton);

  // Signing out everywhere.
  const allError = h('p', { class: 'form-error', role: 'alert', testid: 'signout-all-error' });
  const allButton = h('button', {
    type: 'button', class: 'btn', testid: 'signout-all',
    onclick: async () => {
      allError.textContent = '';
      allButton.disabled = true;
      try {
        await api('POST', '/api/account/signout-all', undefined, { keepSession: true });
        setSession(null);
        app.notify(t('accountPage.signedOutEverywhere'));
        app.navigate('/');
      } catch (err) {
        allError.textContent = errorText(err);
        allButton.disabled = false;
      }
    },
  }, t('accountPage.signOutEverywhere'));

  // Deleting the account: the password and a tick that says what it does.
  const delPassword = h('input', { type: 'password', required: true, autocomplete: 'current-password', testid: 'delete-password' });
  const delButton = h('button', { type: 'submit', class: 'btn danger', disabled: true, testid: 'delete-submit' }, t('accountPage.delete'));
  const sure = h('input', { type: 'checkbox', testid: 'delete-confirm', onchange: () => { delButton.disabled = !sure.checked; } });
  const delError = h('p', { class: 'form-error', role: 'alert', testid: 'delete-error' });
  const deleteForm = h('form', {
    testid: 'delete-form',
    onsubmit: async (ev) => {
      ev.preventDefault();
      if (!sure.checked) return;
      delError.textContent = '';
      delButton.disabled = true;
      try {
        await api('DELETE', '/api/account', { password: delPassword.value }, { keepSession: true });
        setSession(null);
        app.notify(t('accountPage.deleted'));
        app.navigate('/');
      } catch (err) {
        delError.textContent = wrongPassword(err);
        if (err.status === 401) delPassword.value = '';
        delButton.disabled = !sure.checked;
      }
    },
  },
  h('p', {}, t('accountPage.deleteWhat')),
  field(t('auth.password'), delPassword),
  h('label', { class: 'check' }, sure, ' ', t('accountPage.deleteSure', { name: s.name })),
  delError, delButton);

  main.append(h('div', { class: 'single' }, h('section', { class: 'panel narrow auth', testid: 'account-page' },
    h('h1', {}, t('accountPage.title'), ' ', h('span', { class: 'muted' }, s.name)),
    h('h2', {}, t('accountPage.changePassword')),
    h('p', { class: 'muted' }, t('accountPage.passwordWhat')),
    passwordForm,
    h('h2', {}, t('accountPage.signOutEverywhere')),
    h('p', { class: 'muted' }, t('accountPage.signOutWhat')),
    allError, allButton,
    h('h2', {}, t('accountPage.delete')),
    deleteForm,
    h('h2', {}, t('settings.title')),
    settingsPanel('account-settings'))));
  current.focus();
  app.debug(() => ({}));
}
