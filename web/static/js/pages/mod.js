// The moderators' page (#/mod): the queue of reports (open, resolved or
// all, in pages), a player's standing and the actions on them (warn, mute,
// lift the mute, close and reopen the account, annul their rated games),
// each with a note for the log, and the moderators' log in pages. Only a
// moderator sees it (the server refuses anyone else's calls: 403).

import { h, replace, formatDate } from '../dom.js';
import { t } from '../i18n.js';
import { api } from '../api.js';
import { errorText } from '../ui.js';
import { accountStatus } from '../moderation.js';

const PAGE = 20;

// The mute lengths offered, in hours; 0 is until lifted.
const MUTES = [[1, 'mod.hours1'], [24, 'mod.hours24'], [168, 'mod.hours168'], [0, 'mod.hoursForever']];

export function mount(main, _params, app) {
  app.title(t('mod.title'));
  let alive = true;
  const st = { allowed: null, status: 'open', reports: [], moreReports: false, user: null, report: 0, log: [], moreLog: false, result: '' };
  app.debug(() => ({
    allowed: st.allowed,
    reports: st.reports.map((r) => ({ id: r.id, status: r.status, user: r.user.name, reason: r.reason, line: r.line ? r.line.text : null })),
    user: st.user ? { name: st.user.user.name, muted: st.user.muted, closed: !!st.user.closedMs, warnings: st.user.warnings.length, openReports: st.user.openReports } : null,
    log: st.log.map((a) => ({ id: a.id, action: a.action, user: a.user.name, note: a.note })),
    result: st.result,
  }));

  accountStatus().then((acc) => {
    if (!alive) return;
    st.allowed = !!(acc && acc.moderator);
    if (!st.allowed) {
      main.append(h('section', { class: 'panel narrow', testid: 'mod-none' }, h('h1', {}, t('mod.title')), h('p', {}, t('mod.none'))));
      return;
    }
    build();
  });

  function build() {
    // The queue.
    const statusSelect = h('select', {
      testid: 'mod-reports-status', 'aria-label': t('mod.reports'),
      onchange: () => { st.status = statusSelect.value; st.reports = []; loadReports(); },
    }, ['open', 'resolved', 'all'].map((s) => h('option', { value: s }, t('mod.status.' + s))));
    const reportList = h('div', { class: 'list', testid: 'mod-reports-list' });
    const reportsMore = h('button', { type: 'button', class: 'btn small', testid: 'mod-reports-more', hidden: true, onclick: () => loadReports(true) }, t('mod.more'));
    const reportsError = h('p', { class: 'form-error', role: 'alert' });

    // A player.
    const nameInput = h('input', { type: 'text', maxlength: '20', testid: 'mod-user-name', 'aria-label': t('mod.userName'), placeholder: t('mod.userName') });
    const userPanel = h('div', { testid: 'mod-user-panel' });
    const findForm = h('form', {
      class: 'row', testid: 'mod-user-form',
      onsubmit: (ev) => { ev.preventDefault(); openUser(nameInput.value.trim(), 0); },
    }, nameInput, h('button', { type: 'submit', class: 'btn small', testid: 'mod-user-find' }, t('mod.findUser')));

    // The log.
    const logList = h('div', { class: 'list', testid: 'mod-log-list' });
    const logMore = h('button', { type: 'button', class: 'btn small', testid: 'mod-log-more', hidden: true, onclick: () => loadLog(true) }, t('mod.more'));

    main.append(h('div', { class: 'mod-layout', testid: 'mod-page' },
      h('section', { class: 'panel', testid: 'mod-reports' }, h('h1', {}, t('mod.title')),
        h('div', { class: 'row' }, h('h2', {}, t('mod.reports')), statusSelect), reportsError, reportList, reportsMore),
      h('section', { class: 'panel', testid: 'mod-user' }, h('h2', {}, t('mod.player')), findForm, userPanel),
      h('section', { class: 'panel', testid: 'mod-log' }, h('h2', {}, t('mod.log')), logList, logMore)));

    async function loadReports(more) {
      const q = new URLSearchParams({ status: st.status, limit: String(PAGE) });
      if (more && st.reports.length) q.set('before', String(st.reports[st.reports.length - 1].id));
      try {
        const p = await api('GET', '/api/mod/reports?' + q);
        if (!alive) return;
        st.reports = more ? st.reports.concat(p.reports) : p.reports;
        st.moreReports = p.more;
        reportsError.textContent = '';
      } catch (err) {
        reportsError.textContent = errorText(err);
      }
      renderReports();
    }

    function renderReports() {
      reportsMore.hidden = !st.moreReports;
      if (!st.reports.length) {
        replace(reportList, h('p', { class: 'muted empty', testid: 'mod-reports-empty' }, t('mod.noReports')));
        return;
      }
      replace(reportList, st.reports.map(reportRow));
    }

    function reportRow(r) {
      const note = h('input', { type: 'text', maxlength: '1000', testid: 'mod-resolve-note-' + r.id, 'aria-label': t('mod.resolveNote'), placeholder: t('mod.resolveNote') });
      const error = h('p', { class: 'form-error', role: 'alert' });
      return h('div', { class: 'mod-report', testid: 'mod-report-' + r.id, 'data-status': r.status },
        h('p', {}, h('strong', {}, t('mod.reportedBy', { reporter: r.reporter.name, user: r.user.name })), ' · ',
          t('report.reason.' + r.reason), ' · ', h('span', { class: 'muted small' }, formatDate(r.createdMs))),
        r.text ? h('p', { class: 'mod-quote' }, r.text) : null,
        r.line ? h('p', { class: 'mod-line', testid: 'mod-report-line-' + r.id },
          h('a', { href: '#/game/' + r.line.game }, t('mod.line', { id: r.line.game })), ' ', h('q', {}, r.line.text)) : null,
        r.status === 'open'
          ? h('form', {
            class: 'row',
            onsubmit: async (ev) => {
              ev.preventDefault();
              try {
                const done = await api('POST', `/api/mod/reports/${r.id}/resolve`, { note: note.value });
                st.reports = st.reports.map((x) => (x.id === r.id ? done : x));
                renderReports();
                loadLog();
                // The player's standing shown counts their open reports.
                if (st.user && st.user.user.name === r.user.name) openUser(r.user.name, st.report);
              } catch (err) {
                error.textContent = errorText(err);
              }
            },
          }, note, h('button', { type: 'submit', class: 'btn small primary', testid: 'mod-resolve-' + r.id }, t('mod.resolve')),
          h('button', { type: 'button', class: 'btn small', testid: 'mod-open-user-' + r.id, onclick: () => openUser(r.user.name, r.id) }, t('mod.openUser', { name: r.user.name })))
          : h('p', { class: 'muted small' }, t('mod.resolvedBy', { name: r.resolvedBy ? r.resolvedBy.name : '', note: r.resolution })),
        error);
    }

    async function openUser(name, report) {
      if (!name) return;
      nameInput.value = name;
      st.report = report;
      try {
        st.user = await api('GET', '/api/mod/user/' + encodeURIComponent(name));
        st.result = '';
      } catch (err) {
        st.user = null;
        replace(userPanel, h('p', { class: 'form-error', testid: 'mod-user-error' }, errorText(err)));
        return;
      }
      renderUser();
    }

    function renderUser() {
      const u = st.user;
      const noteInput = h('input', { type: 'text', maxlength: '1000', testid: 'mod-note', 'aria-label': t('mod.note'), placeholder: t('mod.note') });
      const warnText = h('textarea', { rows: '2', maxlength: '1000', testid: 'mod-warn-text', 'aria-label': t('mod.warnText'), placeholder: t('mod.warnText') });
      const hours = h('select', { testid: 'mod-mute-hours', 'aria-label': t('mod.muteFor') }, MUTES.map(([n, key]) => h('option', { value: String(n) }, t(key))));
      const result = h('p', { class: 'muted small', role: 'status', testid: 'mod-user-result' }, st.result);
      const error = h('p', { class: 'form-error', role: 'alert', testid: 'mod-user-error' });
      const act = async (action, body, done) => {
        error.textContent = '';
        try {
          const out = await api('POST', `/api/mod/user/${encodeURIComponent(u.user.name)}/${action}`, { ...body, report: st.report || 0 });
          st.result = done(out);
          if (action !== 'warn' && action !== 'annul') st.user = out;
          else st.user = await api('GET', '/api/mod/user/' + encodeURIComponent(u.user.name));
          renderUser();
          loadLog();
        } catch (err) {
          error.textContent = errorText(err);
        }
      };
      const button = (testid, label, onclick, cls) => h('button', { type: 'button', class: 'btn small ' + (cls || ''), testid, onclick }, label);
      const standing = [];
      if (u.moderator) standing.push(h('span', { class: 'badge' }, t('mod.isModerator')));
      if (u.muted) standing.push(h('span', { class: 'badge', testid: 'mod-user-muted' }, u.mutedUntilMs ? t('mod.muted', { date: formatDate(u.mutedUntilMs) }) : t('mod.mutedForever')));
      if (u.closedMs) standing.push(h('span', { class: 'badge', testid: 'mod-user-closed' }, t('mod.closed', { date: formatDate(u.closedMs) })));
      replace(userPanel,
        h('div', { class: 'mod-user-head', 'data-name': u.user.name, 'data-muted': String(u.muted), 'data-closed': String(!!u.closedMs) },
          h('h3', {}, h('a', { href: '#/user/' + encodeURIComponent(u.user.name) }, u.user.name)), ...standing),
        st.report ? h('p', { class: 'muted small', testid: 'mod-for-report' }, t('mod.forReport', { id: st.report })) : null,
        h('p', { class: 'muted small' }, t('mod.openReports', { n: u.openReports })),
        u.warnings.length ? h('div', {}, h('h4', {}, t('mod.warnings')), h('ul', { class: 'list plain' }, u.warnings.map((w) => h('li', {},
          h('span', { class: 'muted small' }, formatDate(w.atMs)), ' ', w.text, ' ',
          h('span', { class: 'muted small' }, '(' + (w.acknowledgedMs ? t('mod.acknowledged') : t('mod.pending')) + ')'))))) : null,
        h('label', { class: 'field' }, h('span', {}, t('mod.warnText')), warnText),
        h('div', { class: 'row' }, button('mod-warn', t('mod.warn'), () => act('warn', { text: warnText.value }, () => t('mod.done')))),
        h('label', { class: 'field' }, h('span', {}, t('mod.note')), noteInput),
        h('div', { class: 'row' },
          hours, button('mod-mute', t('mod.mute'), () => act('mute', { hours: Number(hours.value), note: noteInput.value }, () => t('mod.done'))),
          u.muted ? button('mod-unmute', t('mod.unmute'), () => act('unmute', { note: noteInput.value }, () => t('mod.done'))) : null),
        h('div', { class: 'row' },
          u.closedMs ? button('mod-reopen', t('mod.reopen'), () => act('reopen', { note: noteInput.value }, () => t('mod.done')))
            : button('mod-close', t('mod.close'), () => act('close', { note: noteInput.value }, () => t('mod.done')), 'danger'),
          button('mod-annul', t('mod.annul'), () => act('annul', { note: noteInput.value }, (a) => t('mod.annulled', { n: a.games.length })), 'danger')),
        error, result);
    }

    async function loadLog(more) {
      const q = new URLSearchParams({ limit: String(PAGE) });
      if (more && st.log.length) q.set('before', String(st.log[st.log.length - 1].id));
      try {
        const l = await api('GET', '/api/mod/log?' + q);
        if (!alive) return;
        st.log = more ? st.log.concat(l.actions) : l.actions;
        st.moreLog = l.more;
      } catch (err) {
        replace(logList, h('p', { class: 'form-error' }, errorText(err)));
        return;
      }
      logMore.hidden = !st.moreLog;
      if (!st.log.length) {
        replace(logList, h('p', { class: 'muted empty' }, t('mod.noLog')));
        return;
      }
      replace(logList, st.log.map((a) => h('div', { class: 'mod-log-line', testid: 'mod-log-' + a.id, 'data-action': a.action },
        h('span', { class: 'muted small' }, formatDate(a.atMs)), ' ',
        t('mod.action.' + a.action, { who: a.moderator ? a.moderator.name : t('mod.operator'), user: a.user.name }),
        a.detail ? h('span', { class: 'muted small' }, ' (' + a.detail + ')') : null,
        a.report ? h('span', { class: 'muted small' }, ' · ' + t('mod.forReport', { id: a.report })) : null,
        a.note ? h('p', { class: 'mod-quote' }, a.note) : null)));
    }

    loadReports();
    loadLog();
  }

  return () => { alive = false; };
}
