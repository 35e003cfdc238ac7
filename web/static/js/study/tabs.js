// The study board's tabs: analysis (a new board of any preset, the engine,
// the moves, the review, the explorer), set-up, import, export.

import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { presetOf } from '../notation.js';
import { variantSelect, errorText } from '../ui.js';

export function studyTabs(ctrl) {
  const { st } = ctrl;
  const el = h('div', { class: 'tabs', role: 'tablist' });
  const body = h('div', { class: 'tab-body' });

  function render() {
    const names = ['analysis', 'setup', 'import', 'export'];
    replace(el, names.map((n) => h('button', {
      type: 'button', role: 'tab', class: 'tab', testid: 'tab-' + n, 'aria-selected': st.tab === n ? 'true' : 'false',
      onclick: () => {
        if (n === st.tab) return;
        if (st.tab === 'setup') ctrl.setupTab.leave();
        st.tab = n;
        if (n === 'setup') ctrl.setupTab.enter();
        render();
      },
    }, t('study.tab.' + n))));
    if (st.tab === 'setup') ctrl.setupTab.renderTab();
    if (st.tab === 'analysis') {
      renderAnalysis();
      ctrl.moveList.set(st.moves, st.cursor); // scrolled now that it is in the page
    }
    if (st.tab === 'import') ctrl.importTab.renderTab();
    if (st.tab === 'export') ctrl.exportTab.renderTab();
  }

  function renderAnalysis() {
    const sel = variantSelect(ctrl.data.variants, presetOf(st.rules), { testid: 'study-variant-select', id: 'study-variant' });
    const over = h('input', { type: 'text', id: 'study-overrides', testid: 'study-overrides', placeholder: 'flying=never', value: st.rules.split(',').slice(1).join(','), autocomplete: 'off', spellcheck: 'false' });
    const err = h('p', { class: 'form-error', role: 'alert', testid: 'study-error' });
    replace(body,
      h('form', {
        class: 'inline-form', testid: 'study-new-form',
        onsubmit: async (ev) => {
          ev.preventDefault();
          err.textContent = '';
          const rules = over.value.trim() ? `${sel.value},${over.value.trim()}` : sel.value;
          try {
            await ctrl.ground.newBoard(rules);
          } catch (e) {
            err.textContent = errorText(e);
          }
        },
      },
      h('label', { class: 'field' }, h('span', {}, t('form.variant')), sel),
      h('label', { class: 'field' }, h('span', {}, t('study.overrides')), over),
      h('button', { type: 'submit', class: 'btn small', testid: 'study-new' }, t('study.newBoard')),
      err),
      h('div', { class: 'row engine-toggles' },
        h('label', { class: 'check engine-toggle' }, ctrl.engine.toggle, h('span', {}, t('study.engine'))),
        h('label', { class: 'check engine-device', title: t('device.explain') }, ctrl.engine.device, h('span', {}, t('device.onDevice')))),
      ctrl.engine.el,
      ctrl.moveList.el,
      ctrl.review.el,
      ctrl.explorer.el);
    ctrl.engine.toggle.checked = st.engineOn;
    ctrl.engine.render();
    ctrl.explorer.render();
    ctrl.review.render();
  }

  return { el, body, render };
}
