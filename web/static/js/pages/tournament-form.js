// A new tournament (#/tournaments/new, #/tournaments/new?club=ID): the
// kind, the preset, a real-time clock or days per move, rated or not, the
// rounds (a Swiss), the cycles (a round robin) or the duration (an arena),
// when it starts, who may join (a club the player leads, a rating band, the
// field's size) and the engine as a player at a chosen level. The form
// sends POST /api/tournament and opens the new event's page.

import { h } from '../dom.js';
import { t } from '../i18n.js';
import { api, session, variants } from '../api.js';
import { errorText, variantSelect } from '../ui.js';
import { KINDS, kindName } from '../tournament/text.js';

export function mount(main, _params, app, query) {
  app.title(t('tournament.newTitle'));
  let alive = true;
  const panel = h('section', { class: 'panel narrow wide-form', testid: 'tournament-new', 'aria-labelledby': 'tournament-new-h' },
    h('h1', { id: 'tournament-new-h' }, t('tournament.newTitle')));
  main.append(h('div', { class: 'single' }, panel));
  const s = session();
  if (!s || s.guest) {
    panel.append(h('p', { testid: 'tournament-new-signin' }, t('tournament.signInToCreate'), ' ', h('a', { href: '#/signin' }, t('nav.signin'))));
    return () => { alive = false; };
  }
  Promise.all([variants().catch(() => []), api('GET', '/api/user/' + encodeURIComponent(s.name), undefined, { auth: false }).catch(() => ({ clubs: [] }))]).then(([vs, u]) => {
    if (!alive) return;
    panel.append(form(vs, (u.clubs || []).filter((c) => c.leader), Number(query.get('club') || 0), app));
  });
  return () => { alive = false; };
}

// localInput is a datetime-local value for ms (the browser's time zone).
function localInput(ms) {
  const d = new Date(ms);
  const pad = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

function form(vs, led, club, app) {
  const id = (n) => 'tournament-' + n;
  const field = (label, input, hint) => h('label', { class: 'field' }, h('span', {}, label), input, hint ? h('span', { class: 'muted small hint' }, hint) : null);
  const num = (name, attrs) => h('input', { type: 'number', id: id(name), testid: id(name), inputmode: 'numeric', ...attrs });

  const name = h('input', { type: 'text', id: id('name'), testid: id('name'), required: true, minlength: '3', maxlength: '60', autocomplete: 'off' });
  const kind = h('select', { id: id('kind'), testid: id('kind') }, KINDS.map((k) => h('option', { value: k }, kindName(k))));
  const kindHint = h('p', { class: 'muted small', testid: id('kind-hint') });
  const variant = variantSelect(vs, 'nine-mens-morris', { id: id('variant'), testid: id('variant') });
  const control = h('select', { id: id('control'), testid: id('control') },
    h('option', { value: 'realtime' }, t('form.controlRealtime')),
    h('option', { value: 'days' }, t('form.controlDays')));
  const minutes = num('minutes', { min: '0.5', max: '180', step: '0.5', value: '5', inputmode: 'decimal' });
  const increment = num('increment', { min: '0', max: '60', step: '1', value: '3' });
  const days = num('days', { min: '1', max: '365', step: '1', value: '3' });
  const rated = h('input', { type: 'checkbox', id: id('rated'), testid: id('rated'), checked: true });
  const rounds = num('rounds', { min: '1', max: '20', step: '1', value: '5' });
  const cycles = h('select', { id: id('cycles'), testid: id('cycles') },
    h('option', { value: '1' }, t('tournament.cycles1')), h('option', { value: '2' }, t('tournament.cycles2')));
  const duration = num('duration', { min: '5', max: '720', step: '5', value: '60' });
  const manual = h('input', { type: 'checkbox', id: id('manual-pairing'), testid: id('manual-pairing') });
  const startMode = h('select', { id: id('start-mode'), testid: id('start-mode') },
    h('option', { value: 'manual' }, t('tournament.startManual')), h('option', { value: 'at' }, t('tournament.startAt')));
  const startsAt = h('input', { type: 'datetime-local', id: id('starts'), testid: id('starts'), value: localInput(Date.now() + 3600000 - (Date.now() % 300000)) });
  const clubSel = h('select', { id: id('club'), testid: id('club') },
    h('option', { value: '' }, t('tournament.openToAll')),
    led.map((c) => h('option', { value: String(c.id), selected: c.id === club }, t('tournament.membersOf', { name: c.name }))));
  const minRating = num('min-rating', { min: '0', max: '4000', step: '50', placeholder: '—' });
  const maxRating = num('max-rating', { min: '0', max: '4000', step: '50', placeholder: '—' });
  const maxPlayers = num('max-players', { min: '2', max: '200', step: '1', placeholder: '—' });
  const engine = h('input', { type: 'checkbox', id: id('engine'), testid: id('engine') });
  const levelOut = h('output', { for: id('engine-level'), testid: id('engine-level-value') }, '3');
  const level = h('input', { type: 'range', id: id('engine-level'), testid: id('engine-level'), min: '1', max: '10', step: '1', value: '3', oninput: () => { levelOut.textContent = level.value; } });
  const error = h('p', { class: 'form-error', role: 'alert', testid: id('error') });
  const submit = h('button', { type: 'submit', class: 'btn primary', testid: id('submit') }, t('tournament.createSubmit'));

  const clockRow = h('div', { class: 'row' }, field(t('form.minutes'), minutes), field(t('form.increment'), increment));
  const daysRow = field(t('form.days'), days);
  const roundsRow = field(t('tournament.rounds'), rounds, t('tournament.roundsHint'));
  const cyclesRow = field(t('tournament.cycles'), cycles);
  const durationRow = field(t('tournament.durationMinutes'), duration);
  const manualRow = h('label', { class: 'check' }, manual, h('span', {}, t('tournament.manualPairing')));
  const startsRow = field(t('tournament.startTime'), startsAt);
  const levelRow = h('label', { class: 'field' }, h('span', {}, t('form.level'), ' ', levelOut), level);

  // sync shows the fields of the kind, and its clock: an arena has a
  // real-time clock, a correspondence event days per move.
  function sync() {
    const k = kind.value;
    if (k === 'arena') control.value = 'realtime';
    if (k === 'correspondence') control.value = 'days';
    control.disabled = k === 'arena' || k === 'correspondence';
    clockRow.hidden = control.value !== 'realtime';
    daysRow.hidden = control.value !== 'days';
    roundsRow.hidden = manualRow.hidden = k !== 'swiss';
    cyclesRow.hidden = k !== 'roundrobin' && k !== 'correspondence';
    durationRow.hidden = k !== 'arena';
    startsRow.hidden = startMode.value !== 'at';
    levelRow.hidden = !engine.checked;
    kindHint.textContent = t('tournament.kindHint.' + k);
  }
  for (const el of [kind, control, startMode, engine]) el.addEventListener('change', sync);

  const f = h('form', {
    class: 'game-form tournament-form', testid: id('form'),
    onsubmit: async (ev) => {
      ev.preventDefault();
      error.textContent = '';
      const body = { name: name.value.trim(), kind: kind.value, variant: variant.value, rated: rated.checked };
      if (control.value === 'realtime') {
        const min = Number(minutes.value);
        const inc = Number(increment.value);
        if (!(min > 0) || !(inc >= 0)) {
          error.textContent = t('form.badClock');
          return;
        }
        body.clock = { initialMs: Math.round(min * 60000), incrementMs: Math.round(inc * 1000) };
      } else {
        body.days = Number(days.value);
      }
      if (kind.value === 'swiss') {
        body.rounds = Number(rounds.value);
        if (manual.checked) body.manualPairing = true;
      }
      if (kind.value === 'roundrobin' || kind.value === 'correspondence') body.cycles = Number(cycles.value);
      if (kind.value === 'arena') body.durationMs = Math.round(Number(duration.value) * 60000);
      if (startMode.value === 'at') {
        const at = new Date(startsAt.value).getTime();
        if (!(at > Date.now())) {
          error.textContent = t('tournament.badStart');
          return;
        }
        body.startsMs = at;
      }
      if (clubSel.value) body.club = Number(clubSel.value);
      if (minRating.value) body.minRating = Number(minRating.value);
      if (maxRating.value) body.maxRating = Number(maxRating.value);
      if (maxPlayers.value) body.maxPlayers = Number(maxPlayers.value);
      if (engine.checked) body.engineLevel = Number(level.value);
      submit.disabled = true;
      try {
        const full = await api('POST', '/api/tournament', body);
        app.notify(t('tournament.created', { name: full.name }));
        app.navigate('/tournament/' + full.id);
      } catch (err) {
        error.textContent = errorText(err);
      } finally {
        submit.disabled = false;
      }
    },
  },
  field(t('tournament.name'), name),
  h('div', { class: 'row' }, field(t('tournament.kind'), kind), field(t('form.variant'), variant)),
  kindHint,
  field(t('form.control'), control), clockRow, daysRow,
  roundsRow, manualRow, cyclesRow, durationRow,
  h('label', { class: 'check' }, rated, h('span', {}, t('form.rated'))),
  h('fieldset', {}, h('legend', {}, t('tournament.start')), field(t('tournament.startWhen'), startMode), startsRow),
  h('fieldset', {}, h('legend', {}, t('tournament.whoMayJoin')),
    led.length ? field(t('tournament.club'), clubSel) : null,
    h('div', { class: 'row' }, field(t('tournament.minRating'), minRating), field(t('tournament.maxRating'), maxRating)),
    field(t('tournament.maxPlayers'), maxPlayers, t('tournament.maxPlayersHint'))),
  h('fieldset', {}, h('legend', {}, t('tournament.engine')),
    h('label', { class: 'check' }, engine, h('span', {}, t('tournament.enginePlays'))), levelRow,
    h('p', { class: 'muted small' }, t('tournament.engineHint'))),
  error, submit);
  sync();
  return f;
}
