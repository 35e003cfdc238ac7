// Play the engine: variant, level 1-10, colour and an optional clock. No
// account is needed: a guest token is made on the first game.

import { h } from '../dom.js';
import { t } from '../i18n.js';
import { api, ensureToken, variants, session } from '../api.js';
import { gameForm } from '../ui.js';
import { play as playSound } from '../sound.js';

export function mount(main, _params, app, query) {
  app.title(t('engine.title'));
  let alive = true;
  const box = h('div', { class: 'form-box' }, h('p', { class: 'muted' }, t('common.loading')));
  main.append(h('div', { class: 'single' },
    h('section', { class: 'panel narrow', testid: 'engine-page' },
      h('h1', {}, t('engine.title')),
      h('p', { class: 'muted' }, session() ? t('engine.introSignedIn') : t('engine.intro')),
      box)));
  variants().then((list) => {
    if (!alive) return;
    box.replaceChildren(gameForm({
      variants: list, engine: true, prefix: 'engine', submitLabel: t('engine.start'),
      onSubmit: async (body) => {
        await ensureToken();
        const g = await api('POST', '/api/challenge/ai', body);
        playSound('start');
        app.navigate('/game/' + g.id);
      },
    }));
    const sel = box.querySelector('select[name=variant]');
    const want = query && query.get('variant');
    if (sel && want && list.some((v) => v.id === want)) sel.value = want;
  }).catch((err) => {
    box.replaceChildren(h('p', { class: 'form-error' }, err.message));
  });
  app.debug(() => ({}));
  return () => { alive = false; };
}
