// The export tab: the record of what is on the board, written here (or a
// stored game's, GET /api/game/ID/export, while unchanged), to copy or
// download.

import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { api, position as fetchPosition } from '../api.js';
import { parsePosition, presetOf } from '../notation.js';
import { errorText, copyButton } from '../ui.js';
import { writeRecord } from '../record.js';
import { key, body } from './state.js';

export function studyExport(ctrl) {
  const { st, app, views } = ctrl;

  // recordText is the record text of what is on the board.
  function recordText() {
    const v = views.get(key(st, st.moves.length));
    const src = st.source;
    const fresh = !st.start;
    const lot = ctrl.data.rules.presets[presetOf(st.rules)] && ctrl.data.rules.presets[presetOf(st.rules)].first === 'lot';
    const result = v && v.status !== '*' ? v.status : (src.kind === 'import' && !src.changed ? src.result : '*');
    return writeRecord({
      event: src.kind === 'import' && src.tags.Event ? src.tags.Event : t('study.recordEvent'),
      site: location.host,
      white: src.kind === 'import' ? src.tags.White : undefined,
      black: src.kind === 'import' ? src.tags.Black : undefined,
      result,
      termination: v && v.status !== '*' ? v.method : undefined,
      rules: st.rules,
      seed: fresh && lot ? 0 : undefined,
      position: fresh ? undefined : st.start,
      startPly: st.start ? parsePosition(st.start).ply : 0,
      moves: st.moves,
    });
  }

  // showPosition fills the fields of the position at the cursor.
  async function showPosition(posText, mfenText, mfenRow, mif) {
    let v = views.get(key(st, st.cursor));
    if (!v) {
      try {
        v = await fetchPosition(body(st, st.cursor));
        views.set(key(st, st.cursor), v);
      } catch {
        return;
      }
    }
    if (!ctrl.alive) return;
    posText.value = v.position;
    mfenText.value = v.mfen || '';
    mfenRow.hidden = !v.mfen;
    mif.row.hidden = true;
    if (!v.mfen) return;
    // The same position with its rules (MIFPOS) and the rules alone (MRS),
    // for a program that does not know ours: from the server only.
    try {
      const m = await api('POST', '/api/position/mif', body(st, st.cursor), { auth: false });
      if (!ctrl.alive) return;
      mif.pos.value = JSON.stringify(m.mifpos, null, 2);
      mif.rules.value = JSON.stringify(m.mrs, null, 2);
      mif.row.hidden = false;
    } catch { /* offline, or MIF cannot hold it: the MFEN alone */ }
  }

  async function renderTab() {
    if (st.tab !== 'export') return;
    const area = h('textarea', { rows: 12, readonly: true, testid: 'export-text', id: 'export-text', spellcheck: 'false' });
    const download = h('a', { class: 'btn small', testid: 'export-download', download: 'morris.pgn', href: '#' }, t('study.download'));
    const stored = st.source.kind === 'game' && !st.source.changed;
    // The position at the cursor, as our text and as MFEN (MIF 1.0, for
    // other Mill programs; the answer has none where MFEN cannot hold it).
    const posField = (id) => h('input', { type: 'text', readonly: true, id, testid: id, spellcheck: 'false' });
    const posText = posField('export-position');
    const mfenText = posField('export-mfen');
    const mfenRow = h('div', { hidden: true },
      h('label', { class: 'field' }, h('span', {}, t('study.mfen')), mfenText),
      h('div', { class: 'row' }, copyButton('export-mfen-copy', mfenText, app)));
    const jsonField = (id) => h('textarea', { rows: 6, readonly: true, id, testid: id, spellcheck: 'false' });
    const mif = { pos: jsonField('export-mifpos'), rules: jsonField('export-mrs') };
    mif.row = h('div', { hidden: true, testid: 'export-mif' },
      h('label', { class: 'field' }, h('span', {}, t('study.mifpos')), mif.pos),
      h('div', { class: 'row' }, copyButton('export-mifpos-copy', mif.pos, app)),
      h('label', { class: 'field' }, h('span', {}, t('study.mrs')), mif.rules),
      h('div', { class: 'row' }, copyButton('export-mrs-copy', mif.rules, app)));
    replace(ctrl.tabs.body,
      h('p', { class: 'muted' }, stored ? t('study.exportStored') : t('study.exportBoard')),
      h('label', { class: 'field' }, h('span', {}, t('study.record')), area),
      h('div', { class: 'row' }, copyButton('export-copy', area, app), download),
      h('label', { class: 'field' }, h('span', {}, t('study.positionText')), posText),
      h('div', { class: 'row' }, copyButton('export-position-copy', posText, app)),
      mfenRow, mif.row);
    showPosition(posText, mfenText, mfenRow, mif);
    let text;
    if (stored) {
      try {
        text = await api('GET', `/api/game/${st.source.id}/export`, undefined, { auth: false, text: true });
      } catch (err) {
        text = recordText();
        app.notify(errorText(err), 'error');
      }
    } else {
      // The view of the last position tells the result.
      if (!views.get(key(st, st.moves.length))) {
        try {
          views.set(key(st, st.moves.length), await fetchPosition(body(st, st.moves.length)));
        } catch { /* written without a result */ }
      }
      text = recordText();
    }
    if (!ctrl.alive) return;
    area.value = text;
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    download.href = url;
    download.download = stored ? `morris-${st.source.id}.pgn` : 'morris-analysis.pgn';
  }

  return { renderTab };
}
