// Sign in and sign up. The token is kept in localStorage (api.js).

import { h } from '../dom.js';
import { t } from '../i18n.js';
import { signIn, signUp, session } from '../api.js';
import { errorText } from '../ui.js';

function back(app, query) {
  const to = query.get('to');
  app.navigate(to && to.startsWith('/') ? to : '/');
}

function field(label, input, hint) {
  return h('label', { class: 'field' }, h('span', {}, label), input, hint ? h('small', { class: 'muted' }, hint) : null);
}

export function mountSignIn(main, _params, app, query) {
  app.title(t('auth.signInTitle'));
  const name = h('input', { id: 'signin-name', name: 'username', type: 'text', required: true, autocomplete: 'username', autocapitalize: 'off', spellcheck: 'false', testid: 'signin-name' });
  const password = h('input', { id: 'signin-password', name: 'password', type: 'password', required: true, autocomplete: 'current-password', testid: 'signin-password' });
  const error = h('p', { class: 'form-error', role: 'alert', testid: 'signin-error' });
  const button = h('button', { type: 'submit', class: 'btn primary', testid: 'signin-submit' }, t('auth.signIn'));
  const s = session();
  main.append(h('div', { class: 'single' }, h('section', { class: 'panel narrow auth' },
    h('h1', {}, t('auth.signInTitle')),
    s && s.guest ? h('p', { class: 'muted' }, t('auth.guestNote', { name: s.name })) : null,
    h('form', {
      testid: 'signin-form',
      onsubmit: async (ev) => {
        ev.preventDefault();
        error.textContent = '';
        button.disabled = true;
        try {
          await signIn(name.value.trim(), password.value);
          app.notify(t('auth.welcome', { name: name.value.trim() }));
          back(app, query);
        } catch (err) {
          error.textContent = err.status === 401 || err.status === 404 || err.status === 403 ? t('auth.badLogin') : errorText(err);
        } finally {
          button.disabled = false;
        }
      },
    }, field(t('auth.name'), name), field(t('auth.password'), password), error, button),
    h('p', { class: 'muted' }, t('auth.noAccount'), ' ', h('a', { href: '#/signup', testid: 'signin-to-signup' }, t('auth.signUp'))))));
  name.focus();
  app.debug(() => ({}));
}

export function mountSignUp(main, _params, app, query) {
  app.title(t('auth.signUpTitle'));
  const name = h('input', { id: 'signup-name', name: 'username', type: 'text', required: true, minlength: '2', maxlength: '20', autocomplete: 'username', autocapitalize: 'off', spellcheck: 'false', testid: 'signup-name' });
  const password = h('input', { id: 'signup-password', name: 'password', type: 'password', required: true, minlength: '8', maxlength: '128', autocomplete: 'new-password', testid: 'signup-password' });
  const email = h('input', { id: 'signup-email', name: 'email', type: 'email', autocomplete: 'email', testid: 'signup-email' });
  const error = h('p', { class: 'form-error', role: 'alert', testid: 'signup-error' });
  const button = h('button', { type: 'submit', class: 'btn primary', testid: 'signup-submit' }, t('auth.signUp'));
  main.append(h('div', { class: 'single' }, h('section', { class: 'panel narrow auth' },
    h('h1', {}, t('auth.signUpTitle')),
    h('form', {
      testid: 'signup-form',
      onsubmit: async (ev) => {
        ev.preventDefault();
        error.textContent = '';
        button.disabled = true;
        try {
          await signUp(name.value.trim(), password.value, email.value.trim());
          app.notify(t('auth.welcome', { name: name.value.trim() }));
          back(app, query);
        } catch (err) {
          error.textContent = errorText(err);
        } finally {
          button.disabled = false;
        }
      },
    },
    field(t('auth.name'), name, t('auth.nameHint')),
    field(t('auth.password'), password, t('auth.passwordHint')),
    field(t('auth.email'), email, t('auth.emailHint')),
    error, button),
    h('p', { class: 'muted' }, t('auth.haveAccount'), ' ', h('a', { href: '#/signin', testid: 'signup-to-signin' }, t('auth.signIn'))))));
  name.focus();
  app.debug(() => ({}));
}
