// The rules: a list of the presets (#/rules) and a page per preset
// (#/rules/ID) with its board drawn and its rules in plain English, from
// data/rules.json (written in our own words, agreeing with docs/rules.md).

import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { boards, rulesText, variants } from '../api.js';
import { Board } from '../board.js';
import { variantName, errorText } from '../ui.js';

// facts are the rows of a preset's table; data is its board (GET /api/boards).
function facts(p, data) {
  const diagonals = !!(data && data.lines.some((l) => l.diagonal));
  return [
    [t('rules.fact.board'), t('board.name.' + p.board)],
    [t('rules.fact.pieces'), String(p.pieces)],
    [t('rules.fact.diagonalMills'), diagonals ? (p.diagonalMills ? t('common.yes') : t('common.no')) : '–'],
    [t('rules.fact.flying'), p.flying ? t('rules.flyingAt', { n: p.flying }) : t('rules.never')],
    [t('rules.fact.protection'), p.millWins ? t('rules.protection.millWins') : t('rules.protection.' + p.protection)],
    [t('rules.fact.blocked'), t('rules.blocked.' + p.blocked)],
    [t('rules.fact.first'), t('rules.first.' + p.first)],
    p.millWins ? null : [t('rules.fact.placingCaptures'), t('rules.placing.' + (p.placingCaptures || 'immediate'))],
    [t('rules.fact.fullBoard'), t('rules.fullBoard.' + (p.fullBoard || 'gridlock'))],
    p.secondMovesFirst ? [t('rules.fact.secondMovesFirst'), t('rules.secondMovesFirst')] : null,
    [t('rules.fact.source'), p.source],
  ].filter(Boolean);
}

function drawBoard(bs, p) {
  const data = bs[p.board];
  const b = new Board(data, { static: true, dashedDiagonals: data.lines.some((l) => l.diagonal) && !p.diagonalMills, label: t('board.name.' + p.board) });
  b.update({ pieces: { white: [], black: [] } }, {});
  return b.el;
}

export function mountList(main, _params, app) {
  app.title(t('rules.title'));
  const list = h('div', { class: 'rules-grid', testid: 'rules-list' }, h('p', { class: 'muted' }, t('common.loading')));
  main.append(h('div', { class: 'single wide' }, h('section', { class: 'panel' },
    h('h1', {}, t('rules.title')),
    h('p', { class: 'muted' }, t('rules.intro')),
    list)));
  let alive = true;
  Promise.all([boards(), rulesText(), variants()]).then(([bs, rd, vs]) => {
    if (!alive) return;
    replace(list, vs.map((v) => {
      const p = rd.presets[v.id];
      if (!p) return null;
      return h('a', { href: '#/rules/' + v.id, class: 'rules-card', testid: 'rules-card-' + v.id },
        h('div', { class: 'mini-board' }, drawBoard(bs, p)),
        h('h2', {}, variantName(v.id)),
        h('p', { class: 'muted' }, p.summary));
    }));
  }).catch((err) => replace(list, h('p', { class: 'form-error' }, errorText(err))));
  app.debug(() => ({}));
  return () => { alive = false; };
}

export function mount(main, params, app) {
  const id = params[0];
  app.title(variantName(id));
  let alive = true;
  const body = h('div', { class: 'rules-page', testid: 'rules-page', 'data-variant': id }, h('p', { class: 'muted' }, t('common.loading')));
  main.append(h('div', { class: 'single wide' }, body));
  Promise.all([boards(), rulesText()]).then(([bs, rd]) => {
    if (!alive) return;
    const p = rd.presets[id];
    if (!p) {
      replace(body, h('section', { class: 'panel' }, h('h1', {}, t('rules.unknown')), h('p', {}, h('a', { href: '#/rules' }, t('rules.all')))));
      return;
    }
    replace(body,
      h('div', { class: 'rules-top' },
        h('div', { class: 'rules-board' }, drawBoard(bs, p)),
        h('section', { class: 'panel' },
          h('p', { class: 'crumbs' }, h('a', { href: '#/rules' }, t('rules.all'))),
          h('h1', { testid: 'rules-title' }, variantName(id)),
          h('p', { class: 'lead' }, p.summary),
          h('table', { class: 'table facts', testid: 'rules-facts' },
            h('tbody', {}, facts(p, bs[p.board]).map(([k, v]) => h('tr', {}, h('th', { scope: 'row' }, k), h('td', {}, v))))),
          h('div', { class: 'row' },
            h('a', { href: '#/play?variant=' + id, class: 'btn primary', testid: 'rules-play' }, t('rules.play')),
            h('a', { href: '#/study?rules=' + id, class: 'btn', testid: 'rules-study' }, t('rules.study'))))),
      h('section', { class: 'panel', testid: 'rules-text' },
        h('h2', {}, t('rules.theRules')),
        h('ul', { class: 'rule-list' }, p.rules.map((r) => h('li', {}, r))),
        p.readings && p.readings.length
          ? [h('h2', {}, t('rules.readings')), h('p', { class: 'muted' }, t('rules.readingsIntro')), h('ul', { class: 'rule-list' }, p.readings.map((r) => h('li', {}, r)))]
          : null),
      h('section', { class: 'panel', testid: 'rules-general' },
        h('h2', {}, rd.general.title),
        rd.general.sections.map((sec) => [h('h3', {}, sec.heading), sec.text.map((x) => h('p', {}, x))])));
  }).catch((err) => replace(body, h('p', { class: 'form-error' }, errorText(err))));
  app.debug(() => ({ variant: id }));
  return () => { alive = false; };
}
