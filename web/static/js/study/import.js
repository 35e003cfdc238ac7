// Records brought to the study board: a record pasted in the import tab
// (POST /api/records; one of several chosen), a position text, a MIFPOS
// object (MIF 1.0, the position with its rules), an MFEN
// position (MIF 1.0) or Sanmill's FEN (under the rules shown) pasted there,
// or a stored game (#/study/game/ID) loaded to be replayed.

import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { api } from '../api.js';
import { errorText } from '../ui.js';

export function studyImport(ctrl) {
  const { st, app } = ctrl;

  function renderTab() {
    const text = h('textarea', { rows: 10, testid: 'import-text', id: 'import-text', spellcheck: 'false', placeholder: t('study.importPlaceholder') });
    const err = h('p', { class: 'form-error', role: 'alert', testid: 'import-error' });
    const list = h('div', { class: 'list', testid: 'import-games' });
    replace(ctrl.tabs.body,
      h('form', {
        testid: 'import-form',
        onsubmit: async (ev) => {
          ev.preventDefault();
          err.textContent = '';
          replace(list);
          const src = text.value.trim();
          if (!src) return;
          try {
            await load(src, err, list);
          } catch (e) {
            err.textContent = errorText(e);
          }
        },
      },
      h('label', { class: 'field' }, h('span', {}, t('study.importLabel')), text),
      h('button', { type: 'submit', class: 'btn primary', testid: 'import-submit' }, t('study.importSubmit')),
      err),
      list);
  }

  // load sets up the position text src, or reads the records of src: one
  // is loaded, several are listed, none is an error.
  async function load(src, err, list) {
    if (src.startsWith('{') && src.includes('MIFPOS/')) {
      // A MIFPOS object (MIF 1.0): the position with its own rules.
      const v = await api('POST', '/api/position', { position: src }, { auth: false });
      await ctrl.ground.newBoard(v.rules, v.position, [], { kind: 'free' });
      st.tab = 'analysis';
      ctrl.tabs.render();
      return;
    }
    if (src.startsWith('MFEN/') || /^[O@*X]{8}\/[O@*X]{8}\/[O@*X]{8}\s/.test(src)) {
      // An MFEN position (MIF 1.0) or Sanmill's FEN: they carry no rules,
      // so those shown.
      const v = await api('POST', '/api/position', { position: src, rules: st.rules }, { auth: false });
      await ctrl.ground.newBoard(v.rules, v.position, [], { kind: 'free' });
      st.tab = 'analysis';
      ctrl.tabs.render();
      return;
    }
    if (/^[a-z][\w-]*(,[^\s]*)?\s+\S+\s+[wb]\s+\d+,\d+\s/.test(src) && !src.startsWith('[')) {
      // A position text: set it up.
      await ctrl.ground.newBoard(src.split(/\s+/)[0], src, [], { kind: 'free' });
      st.tab = 'analysis';
      ctrl.tabs.render();
      return;
    }
    const games = await api('POST', '/api/records', { text: src }, { auth: false });
    if (!games.length) {
      err.textContent = t('study.importNone');
      return;
    }
    if (games.length === 1) {
      await loadRecord(games[0]);
      return;
    }
    replace(list, games.map((g, i) => h('button', {
      type: 'button', class: 'row-item', testid: 'import-game-' + i,
      onclick: () => loadRecord(g),
    }, `${i + 1}. ${g.tags.White || '?'} – ${g.tags.Black || '?'} · ${g.result} · ${t('study.movesCount', { n: g.moves.length })}`)));
  }

  async function loadRecord(g) {
    const rules = g.start.split(/\s+/)[0];
    await ctrl.ground.newBoard(rules, g.start, g.moves, { kind: 'import', tags: g.tags, result: g.result, cursor: 0 });
    st.tab = 'analysis';
    ctrl.tabs.render();
    app.notify(t('study.imported', { n: g.moves.length }));
  }

  async function loadStoredGame(id) {
    try {
      const g = await api('GET', '/api/game/' + id, undefined, { auth: false });
      await ctrl.ground.newBoard(g.rules || g.variant, g.start, g.state.moves, { kind: 'game', id, game: g, cursor: g.state.moves.length });
    } catch (err) {
      ctrl.status.textContent = errorText(err);
      await ctrl.ground.newBoard('nine-mens-morris');
    }
  }

  return { renderTab, loadStoredGame };
}
