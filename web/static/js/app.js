// The web client's entry: the router (hash routes, and path routes since
// the server answers index.html for every page path), the header, the
// notices, the account stream, and window.morrisDebug for browser tests.

import { loadLocale, t, translate, LANGUAGES, language, setLanguage, missingKeys } from './i18n.js';
import { h, replace } from './dom.js';
import { session, onSession, signOut, accountStream } from './api.js';
import { soundOn, setSound, play as playSound, sounds } from './sound.js';
import * as home from './pages/home.js';
import * as engine from './pages/engine.js';
import * as local from './pages/local.js';
import * as game from './pages/game.js';
import * as auth from './pages/auth.js';
import * as user from './pages/user.js';
import * as study from './pages/study.js';
import * as rules from './pages/rules.js';
import * as puzzle from './pages/puzzle.js';
import * as account from './pages/account.js';
import * as mod from './pages/mod.js';
import * as leaderboard from './pages/leaderboard.js';
import * as archive from './pages/archive.js';
import { accountStatus, showWarning, forgetWarnings } from './moderation.js';
import { eventRoutes, watchPairings } from './events.js';
import { deviceStats, warmEngine } from './device.js';
import { applySettings, blindToggle, settingsButton } from './settings.js';
import { announcements } from './blind.js';

const routes = [
  [/^\/?$/, home.mount, 'home'],
  [/^\/play$/, engine.mount, 'play'],
  [/^\/local\/([\w-]+)$/, local.mount, 'local'],
  [/^\/game\/(\d+)$/, game.mount, 'game'],
  [/^\/signin$/, auth.mountSignIn, 'signin'],
  [/^\/signup$/, auth.mountSignUp, 'signup'],
  [/^\/account$/, account.mount, 'account'],
  [/^\/user\/([^/]+)$/, user.mount, 'user'],
  [/^\/study$/, study.mount, 'study'],
  [/^\/study\/game\/(\d+)$/, study.mountGame, 'study'],
  [/^\/rules$/, rules.mountList, 'rules'],
  [/^\/rules\/([\w-]+)$/, rules.mount, 'rules'],
  [/^\/puzzle$/, puzzle.mount, 'puzzle'],
  [/^\/puzzle\/(\d+)$/, puzzle.mount, 'puzzle'],
  [/^\/mod$/, mod.mount, 'mod'],
  [/^\/leaderboard$/, leaderboard.mount, 'leaderboard'],
  [/^\/leaderboard\/([\w-]+)$/, leaderboard.mount, 'leaderboard'],
  [/^\/archive$/, archive.mount, 'archive'],
  ...eventRoutes,
];

let unmount = null;
let debugState = () => ({});
let debugHooks = {};
let currentPage = '';

// The app object given to pages.
const app = {
  // navigate goes to a route ("/game/12").
  navigate(route) {
    location.hash = '#' + route;
  },
  notify,
  // debug sets what morrisDebug.state() returns for the page, and its hooks.
  debug(fn, hooks) {
    debugState = fn;
    debugHooks = hooks || {};
  },
  title(text) {
    document.title = text ? `${text} · Morris` : 'Morris';
  },
};

// route returns the current route: the hash, or the path when there is no hash.
function route() {
  let r = location.hash.replace(/^#/, '');
  if (!r) r = location.pathname;
  const q = r.indexOf('?');
  const query = new URLSearchParams(q >= 0 ? r.slice(q + 1) : '');
  if (q >= 0) r = r.slice(0, q);
  return { path: r || '/', query };
}

function render() {
  if (unmount) {
    try {
      unmount();
    } catch (err) {
      console.error(err);
    }
  }
  unmount = null;
  debugState = () => ({});
  debugHooks = {};
  const main = document.getElementById('main');
  const { path, query } = route();
  for (const [re, mount, name] of routes) {
    const m = path.match(re);
    if (!m) continue;
    currentPage = name;
    replace(main);
    main.className = 'page-' + name;
    app.title('');
    unmount = mount(main, m.slice(1).map(decodeURIComponent), app, query) || null;
    markNav(name);
    foldMenu();
    return;
  }
  currentPage = 'notfound';
  main.className = 'page-notfound';
  replace(main, h('section', { class: 'panel narrow', testid: 'not-found' },
    h('h1', {}, t('notFound.title')),
    h('p', {}, t('notFound.text')),
    h('p', {}, h('a', { href: '#/' }, t('notFound.home')))));
  markNav('');
  foldMenu();
}

// The header's menu: on a phone held upright the links, the language and
// the account are folded behind one button, so that the page starts with
// the board; wider screens show them all and never see the button.
function setUpMenu() {
  const btn = document.getElementById('menu-btn');
  btn.addEventListener('click', () => {
    const open = btn.getAttribute('aria-expanded') !== 'true';
    btn.setAttribute('aria-expanded', String(open));
    document.querySelector('.topbar').classList.toggle('menu-open', open);
  });
}

// foldMenu closes the menu when a page is opened from it.
function foldMenu() {
  const btn = document.getElementById('menu-btn');
  if (!btn) return;
  btn.setAttribute('aria-expanded', 'false');
  document.querySelector('.topbar').classList.remove('menu-open');
}

function markNav(name) {
  for (const a of document.querySelectorAll('.nav a')) {
    const target = a.getAttribute('href').replace(/^#\/?/, '') || 'home';
    const active = target === name || (name === 'home' && target === 'home');
    if (active) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
}

// The header's account area: sign in / sign up, or the user, sound, sign out.
function renderAccount() {
  const el = document.getElementById('account');
  const s = session();
  const sound = h('button', {
    type: 'button', class: 'icon-btn', testid: 'sound-toggle', 'aria-pressed': soundOn() ? 'true' : 'false',
    title: t('sound.toggle'),
    onclick: () => {
      setSound(!soundOn());
      renderAccount();
      playSound('move');
    },
  }, soundOn() ? t('sound.on') : t('sound.off'));
  const prefs = headerSettings();
  if (!s) {
    replace(el, prefs.blind, prefs.btn, sound,
      h('a', { href: '#/signin', class: 'btn-link', testid: 'nav-signin' }, t('nav.signin')),
      h('a', { href: '#/signup', class: 'btn small', testid: 'nav-signup' }, t('nav.signup')));
    return;
  }
  // The moderators' page, for a moderator (GET /api/account says).
  const modLink = h('a', { href: '#/mod', class: 'btn-link', testid: 'nav-mod', hidden: true }, t('nav.moderation'));
  accountStatus().then((st) => { if (st && st.moderator && session() && session().token === s.token) modLink.hidden = false; });
  replace(el, prefs.blind, prefs.btn, sound, modLink,
    h('a', { href: '#/user/' + encodeURIComponent(s.name), class: 'me', testid: 'nav-me', 'data-name': s.name },
      s.name, s.guest ? h('span', { class: 'badge' }, t('account.guest')) : null),
    s.guest ? h('a', { href: '#/signup', class: 'btn-link', testid: 'nav-signup' }, t('nav.signup'))
      : h('a', { href: '#/account', class: 'btn-link', testid: 'nav-account' }, t('nav.account')),
    h('button', {
      type: 'button', class: 'btn-link', testid: 'nav-signout',
      onclick: async () => {
        await signOut();
        notify(t('account.signedOut'));
        app.navigate('/');
      },
    }, t('nav.signout')));
}

// headerSettings are the header's blind-mode toggle and settings button
// (made once, kept across the account area's redraws), the settings'
// panel put below the header.
let prefsMade = null;
function headerSettings() {
  if (!prefsMade) {
    const { btn, box } = settingsButton();
    prefsMade = { blind: blindToggle(), btn };
    document.querySelector('.topbar').after(box);
  }
  return prefsMade;
}

// The header's language switch, on every page.
function renderLanguage() {
  const el = document.getElementById('lang');
  const select = h('select', {
    testid: 'lang-select', 'aria-label': t('nav.language'), title: t('nav.language'),
    onchange: (e) => setLanguage(e.target.value),
  }, ...LANGUAGES.map(([code, name]) => h('option', { value: code, lang: code, selected: code === language() }, name)));
  replace(el, select);
}

let noticeTimer = 0;
// notify shows a short message at the top of the page; kind is 'info' or 'error'.
function notify(text, kind = 'info', action) {
  const el = document.getElementById('notice');
  replace(el, h('span', {}, text), action || null,
    h('button', { type: 'button', class: 'notice-close', 'aria-label': t('common.close'), onclick: () => { el.hidden = true; } }, '×'));
  el.dataset.kind = kind;
  el.hidden = false;
  // A page in blind mode says it in its own live region (blind.js), so that
  // a screen reader hears one voice: the notice is then shown, not spoken.
  const claimed = !window.dispatchEvent(new CustomEvent('morris-announce', { detail: text, cancelable: true }));
  if (claimed) {
    el.removeAttribute('role');
    el.setAttribute('aria-live', 'off');
  } else {
    el.setAttribute('role', 'status');
    el.setAttribute('aria-live', 'polite');
  }
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => { el.hidden = true; }, kind === 'error' ? 8000 : 5000);
}

// Incoming challenges are announced on every page but the lobby, which
// lists them itself.
accountStream.on((ev) => {
  const s = session();
  if (!s) return;
  if (ev.type === 'challenge' && ev.challenge && ev.challenge.to && ev.challenge.to.name === s.name &&
      ev.challenge.status === 'open' && currentPage !== 'home') {
    playSound('notify');
    notify(t('lobby.incoming', { name: ev.challenge.from.name }), 'info',
      h('a', { href: '#/', class: 'btn small', testid: 'notice-open-lobby' }, t('lobby.open')));
  }
  if (ev.type === 'reminder' && ev.game) {
    // A correspondence game has waited for this player's move a while.
    playSound('notify');
    notify(t('game.reminder', { id: ev.game.id }), 'info',
      h('a', { href: '#/game/' + ev.game.id, class: 'btn small', testid: 'notice-open-game' }, t('game.open')));
  }
  if (ev.type === 'warning' && ev.warning) {
    // A moderator's warning: on every page until acknowledged.
    playSound('notify');
    showWarning(ev.warning);
  }
  if (ev.type === 'challengeAccepted' && ev.challenge && ev.challenge.game && ev.challenge.from.name === s.name &&
      currentPage !== 'game') {
    playSound('start');
    app.navigate('/game/' + ev.challenge.game);
  }
});

window.morrisDebug = {
  state: () => ({ page: currentPage, ...debugState() }),
  // language is the client's language; missingKeys the keys it lacked.
  language: () => language(),
  // sounds are the kinds of the last sounds asked for (played or not).
  sounds: () => sounds(),
  missingKeys: () => missingKeys(),
  // dropConnection closes the game's WebSocket as a network failure would.
  dropConnection: () => debugHooks.drop && debugHooks.drop(),
  // device: whether the engine on this device was started, the calls
  // each side answered, and the setting (device.js).
  device: () => deviceStats(),
  // announcements: what blind mode's live region said on this page.
  announcements: () => announcements(),
};

// The app works offline and can be installed: the service worker (/sw.js)
// keeps the client, and the engine once used; installing keeps the engine
// at once.
if ('serviceWorker' in navigator) {
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('/sw.js').catch((err) => console.warn('service worker:', err));
  });
  window.addEventListener('appinstalled', () => { warmEngine(); });
}

async function start() {
  applySettings();
  await loadLocale();
  translate(document);
  setUpMenu();
  renderLanguage();
  renderAccount();
  onSession(() => {
    forgetWarnings();
    renderAccount();
    accountStream.sync();
    // A game page opened its socket with the old session (or none): open
    // it again, so that signing in (in another tab, say) makes this page
    // the player's and signing out a spectator's.
    if (currentPage === 'game') render();
  });
  watchPairings(app, () => ({ page: currentPage, ...debugState() }));
  accountStream.sync();
  window.addEventListener('hashchange', render);
  render();
}

start().catch((err) => {
  console.error(err);
  replace(document.getElementById('main'), h('p', { class: 'error', testid: 'boot-error' }, 'The page could not start: ' + err.message));
});
