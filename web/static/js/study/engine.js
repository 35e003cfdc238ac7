// The engine on the study board: when switched on, the evaluation, depth,
// best move and line of the position shown (POST /api/analysis, or the
// engine on this device when the player chose it or the server cannot be
// reached: ../device.js), and the endgame databases' value of it and of
// each move when they hold it (the server's only).

import { h, replace, debounce } from '../dom.js';
import { t } from '../i18n.js';
import { api } from '../api.js';
import { ask, whereCheckbox } from '../device.js';
import { errorText, scoreWords } from '../ui.js';
import { key, body } from './state.js';

export function studyEngine(ctrl) {
  const { st } = ctrl;
  const el = h('div', { class: 'engine-out', testid: 'engine-output', hidden: true });
  const toggle = h('input', { type: 'checkbox', testid: 'engine-toggle', onchange: () => { st.engineOn = toggle.checked; analyse(); } });
  // The setting "on this device": a change analyses again where chosen.
  const device = whereCheckbox({ 'data-testid': 'engine-device' }, () => {
    st.analysisKey = null;
    analyse();
  });
  let analysisCtl = null;

  // analyse asks for the analysis of the position at the cursor, when the
  // engine is on and it has not been analysed; one at a time.
  const analyse = debounce(async () => {
    if (!st.engineOn) {
      render();
      ctrl.ground.render();
      return;
    }
    const k = st.cursor;
    const kk = key(st, k);
    const v = st.view;
    if (!v || st.viewKey !== kk || st.analysisKey === kk) {
      render();
      return;
    }
    if (v.status !== '*') {
      st.analysis = null;
      render();
      return;
    }
    if (analysisCtl) analysisCtl.abort();
    const ctl = new AbortController();
    analysisCtl = ctl;
    el.hidden = false;
    el.classList.add('thinking');
    try {
      const req = { ...body(st, k), movetimeMs: 1500 };
      const { value: a, where } = await ask(() => api('POST', '/api/analysis', req, { auth: false, signal: ctl.signal }), 'analysis', req);
      if (!ctrl.alive || analysisCtl !== ctl) return;
      st.analysis = { ...a, side: v.toMove, where }; // the score is the side to move's
      st.analysisKey = kk;
    } catch (err) {
      if (err.name === 'AbortError' || !ctrl.alive) return;
      st.analysis = { error: errorText(err) };
      st.analysisKey = null;
    } finally {
      if (analysisCtl === ctl) {
        analysisCtl = null;
        el.classList.remove('thinking');
      }
    }
    render();
    ctrl.ground.render();
  }, 250);

  function render() {
    el.hidden = !st.engineOn;
    if (!st.engineOn) return;
    const a = st.analysis;
    const current = a && (a.error || st.analysisKey === key(st, st.cursor));
    if (!current) {
      replace(el, h('p', { class: 'muted' }, t('study.thinking')));
      return;
    }
    if (a.error) {
      replace(el, h('p', { class: 'form-error', testid: 'engine-error' }, a.error));
      return;
    }
    replace(el,
      h('div', { class: 'engine-line' },
        h('span', { class: 'score', testid: 'engine-score', 'data-score': a.score, 'data-side': a.side, title: t('score.explain') },
          scoreWords(a.score, a.scoreText, a.side, a.proved)),
        h('span', { class: 'muted' }, t('study.depth', { n: a.depth })),
        h('span', { class: 'muted', testid: 'engine-where', 'data-where': a.where }, a.where === 'device' ? t('device.ranHere') : t('device.ranServer')),
        h('span', {}, t('study.best'), ' ', h('strong', { testid: 'engine-best' }, a.best || '–'))),
      h('div', { class: 'pv', testid: 'engine-pv' }, (a.pv || []).join(' ')),
      // The endgame databases (serve -tablebases), when they hold the
      // position: its exact value, and every move with what it keeps.
      a.tablebase ? h('div', { class: 'tablebase', testid: 'engine-tablebase', 'data-value': a.tablebase },
        h('strong', {}, t('study.tb.label')), ' ', tbText(a.tablebase)) : null,
      a.tablebaseMoves ? h('ul', { class: 'tb-moves', testid: 'tablebase-moves' },
        a.tablebaseMoves.map((m) => h('li', { class: m.keeps ? 'keeps' : 'muted', 'data-move': m.move, 'data-keeps': String(m.keeps) },
          h('span', { class: 'mono' }, m.move), ' ', tbText(m.value)))) : null);
  }

  return { el, toggle, device, analyse, render, stop: () => { if (analysisCtl) analysisCtl.abort(); } };
}

// tbText says a value of the databases ("win in 12", "draw", "loss in
// 3", as the server writes it) in the page's language.
function tbText(v) {
  const m = /^(win|loss) in (\d+)$/.exec(v);
  if (m) return t(`study.tb.${m[1]}`, { n: m[2] });
  return v === 'draw' ? t('study.tb.draw') : v;
}
