// Play the engine: variant, level 1-10, colour and an optional clock. No
// account is needed: a guest token is made on the first game. "On this
// device" (the setting of ../device.js) plays it in the browser instead,
// without a clock, kept in the browser (#/local/ID), as it is when the
// server cannot be reached; the games kept are listed, and their records
// can be had one by one or all together.

import { h } from '../dom.js';
import { t } from '../i18n.js';
import { api, ensureToken, variants, session } from '../api.js';
import { play as playSound } from '../sound.js';
import { onDevice, whereCheckbox, unreachable } from '../device.js';
import { offlineGames, newOfflineGame, allRecords } from '../offline.js';
import { presetOf } from '../notation.js';
import { gameForm, resultText, variantName, sideName, errorText } from '../ui.js';

export function mount(main, _params, app, query) {
  app.title(t('engine.title'));
  let alive = true;
  const box = h('div', { class: 'form-box' }, h('p', { class: 'muted' }, t('common.loading')));
  const kept = h('section', { class: 'panel narrow', testid: 'local-games' });
  main.append(h('div', { class: 'single' },
    h('section', { class: 'panel narrow', testid: 'engine-page' },
      h('h1', {}, t('engine.title')),
      h('p', { class: 'muted' }, session() ? t('engine.introSignedIn') : t('engine.intro')),
      box),
    kept));
  const local = (body) => {
    const g = newOfflineGame(body);
    playSound('start');
    app.navigate('/local/' + g.id);
  };
  variants().then((list) => {
    if (!alive) return;
    const where = h('label', { class: 'check', title: t('device.explain') },
      whereCheckbox({ 'data-testid': 'engine-device' }), h('span', {}, t('device.onDevice')));
    box.replaceChildren(gameForm({
      variants: list, engine: true, prefix: 'engine', submitLabel: t('engine.start'),
      extra: h('div', { class: 'field' }, where, h('p', { class: 'muted small' }, t('device.gameNote'))),
      onSubmit: async (body) => {
        if (onDevice()) {
          local(body);
          return;
        }
        try {
          await ensureToken();
          const g = await api('POST', '/api/challenge/ai', body);
          playSound('start');
          app.navigate('/game/' + g.id);
        } catch (err) {
          // The server out of reach: the game is played here.
          if (!unreachable(err)) throw err;
          local(body);
        }
      },
    }));
    const sel = box.querySelector('select[name=variant]');
    const want = query && query.get('variant');
    if (sel && want && list.some((v) => v.id === want)) sel.value = want;
  }).catch((err) => {
    box.replaceChildren(h('p', { class: 'form-error' }, err.message));
  });
  renderKept(kept);
  app.debug(() => ({ localGames: offlineGames().map((g) => g.id) }));
  return () => { alive = false; };
}

// renderKept lists the games kept on this device, with their records.
function renderKept(el) {
  const games = offlineGames();
  const out = h('div', {});
  el.replaceChildren(h('h2', {}, t('local.kept')),
    games.length ? h('ul', { class: 'plain-list' }, games.map((g) => h('li', { testid: 'local-game-' + g.id, 'data-result': g.result },
      h('a', { href: '#/local/' + g.id }, variantName(presetOf(g.rules)), ' · ', t('local.level', { n: g.level }), ' · ', sideName(g.side), ' · ',
        g.result === '*' ? t('local.goingOn') + ' · ' + t('lobby.moveNumber', { n: Math.floor(g.moves.length / 2) + 1 }) : g.result + ' ' + resultText(g.result, g.method)))))
      : h('p', { class: 'muted', testid: 'local-games-empty' }, t('local.none')),
    games.length ? h('button', {
      type: 'button', class: 'btn small', testid: 'local-export-all',
      onclick: async () => {
        try {
          const text = await allRecords();
          out.replaceChildren(h('textarea', { class: 'mono', rows: 8, readonly: true, testid: 'local-export-text' }, text),
            h('a', { class: 'btn small', download: 'morris-games.txt', href: 'data:text/plain;charset=utf-8,' + encodeURIComponent(text) }, t('game.export')));
        } catch (err) {
          out.replaceChildren(h('p', { class: 'form-error' }, errorText(err)));
        }
      },
    }, t('local.exportAll')) : null,
    out);
}
