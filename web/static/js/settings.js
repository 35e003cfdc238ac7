// The player's display settings, kept in localStorage and applied to the
// whole page: blind mode (the typed moves, the read commands and the
// announcements of ./blind.js on every board), the theme (the system's,
// light, dark or high contrast), the board's style (wood or plain) and the
// pieces' (plain, or marked with shapes that tell the sides apart without
// colour). The header's button opens the panel; the account page shows the
// same panel. A change fires "morris-settings" on window.

import { h } from './dom.js';
import { t } from './i18n.js';

const PREFIX = 'morris.';

// CHOICES are the settings with their values, the first the default.
export const CHOICES = {
  theme: ['auto', 'light', 'dark', 'contrast'],
  boardStyle: ['wood', 'plain'],
  pieceStyle: ['plain', 'marked'],
};

function read(name) {
  try {
    return localStorage.getItem(PREFIX + name);
  } catch {
    return null;
  }
}

function write(name, value) {
  try {
    localStorage.setItem(PREFIX + name, value);
  } catch { /* storage closed: the choice lasts for the page */ }
}

// setting returns a setting's value (one of CHOICES, the default when the
// stored one is unknown).
export function setting(name) {
  const v = read(name);
  return CHOICES[name].includes(v) ? v : CHOICES[name][0];
}

export function blindOn() {
  return read('blind') === 'on';
}

export function setBlind(on) {
  write('blind', on ? 'on' : 'off');
  changed();
}

export function setSetting(name, value) {
  if (!CHOICES[name].includes(value)) return;
  write(name, value);
  changed();
}

function changed() {
  applySettings();
  window.dispatchEvent(new CustomEvent('morris-settings'));
}

// applySettings puts the settings on <html>: data-theme, data-board-style,
// data-piece-style and data-blind, which app.css reads.
export function applySettings() {
  const d = document.documentElement.dataset;
  d.theme = setting('theme');
  d.boardStyle = setting('boardStyle');
  d.pieceStyle = setting('pieceStyle');
  d.blind = blindOn() ? 'on' : 'off';
}

// blindToggle is the header's button that turns blind mode on and off.
export function blindToggle() {
  const b = h('button', {
    type: 'button', class: 'icon-btn', testid: 'blind-toggle', 'aria-pressed': blindOn() ? 'true' : 'false',
    onclick: () => setBlind(!blindOn()),
  }, t('settings.blind'));
  window.addEventListener('morris-settings', () => b.setAttribute('aria-pressed', blindOn() ? 'true' : 'false'));
  return b;
}

// settingsPanel is the panel of every setting: blind mode as a tick, the
// others as groups of radio buttons. testid names it (settings-panel in
// the header's dialog, account-settings on the account page).
export function settingsPanel(testid) {
  const id = testid;
  const blind = h('input', {
    type: 'checkbox', id: id + '-blind', testid: id + '-blind', checked: blindOn(),
    onchange: (e) => setBlind(e.target.checked),
  });
  const groups = Object.entries(CHOICES).map(([name, values]) => h('fieldset', { class: 'settings-group' },
    h('legend', {}, t('settings.' + name)),
    values.map((v) => h('label', { class: 'settings-choice' },
      h('input', {
        type: 'radio', name: id + '-' + name, value: v, testid: `${id}-${name}-${v}`, checked: setting(name) === v,
        onchange: () => setSetting(name, v),
      }),
      ' ', t(`settings.${name}.${v}`)))));
  const el = h('section', { class: 'settings-panel', testid, 'aria-label': t('settings.title') },
    h('p', {}, h('label', { for: id + '-blind' }, blind, ' ', t('settings.blindLong'))),
    h('p', { class: 'muted small' }, t('settings.blindHelp')),
    groups);
  // The account page draws a panel of its own at each visit: once it is
  // gone from the page, its listener goes too.
  window.addEventListener('morris-settings', function follow() {
    if (!el.isConnected) {
      window.removeEventListener('morris-settings', follow);
      return;
    }
    blind.checked = blindOn();
    for (const input of el.querySelectorAll('input[type=radio]')) {
      const name = input.name.slice(id.length + 1);
      input.checked = setting(name) === input.value;
    }
  });
  return el;
}

// settingsButton is the header's button that shows and hides the panel
// below the header (a disclosure: Escape closes it and gives the focus
// back).
export function settingsButton() {
  const panel = settingsPanel('settings-panel');
  const box = h('div', { class: 'settings-box', id: 'settings-box', hidden: true }, panel,
    h('button', { type: 'button', class: 'btn small', testid: 'settings-close', onclick: () => show(false) }, t('common.close')));
  const btn = h('button', {
    type: 'button', class: 'icon-btn', testid: 'settings-toggle', 'aria-expanded': 'false', 'aria-controls': 'settings-box',
    onclick: () => show(box.hidden),
  }, t('settings.title'));
  function show(on) {
    box.hidden = !on;
    btn.setAttribute('aria-expanded', on ? 'true' : 'false');
    if (on) {
      const first = box.querySelector('input');
      if (first) first.focus();
    } else {
      btn.focus();
    }
  }
  box.addEventListener('keydown', (ev) => {
    if (ev.key === 'Escape') {
      ev.preventDefault();
      show(false);
    }
  });
  return { btn, box };
}
