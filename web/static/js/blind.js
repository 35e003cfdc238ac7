// Blind mode, after lichess's: on every page with a board, a text field
// where a move is typed in either notation the rules core reads (the
// standard "d6-d5xb4" or pbmserv's "D6-D5,B4"), the legal moves offered as
// one types (an ARIA combobox over a listbox), commands typed in the same
// field that read the board, the pieces, the clocks, the last moves and
// the state of the game, and one live region (role=status) that says every
// change: a move of either side ("Black slides d7 to d6, closes a mill,
// takes e4"), a position of the replay, the end of the game, a clock
// running low, what the board asks while a move is chosen on it.
//
// The page gives source(), what it shows now, and play(move); the panel
// follows the board's "board-update" events (board.js), so it needs no
// call of its own when the page draws. The region is there with blind
// mode off too (the board's messages go to it); in blind mode the field
// shows and the page's other live regions (its status line) fall silent,
// so that a screen reader hears one voice.

import { h, replace } from './dom.js';
import { t } from './i18n.js';
import { parseMove, adjacentNames } from './notation.js';
import { sideName, resultText } from './ui.js';
import { blindOn } from './settings.js';

const LOW = [60000, 30000, 10000]; // the clock's warnings, in ms left
const SHOWN = 40; // the most options listed

let spoken = []; // every announcement of the page (for tests, morrisDebug)

// announcements are the texts the live region was given on this page.
export function announcements() {
  return spoken.slice();
}

// The source's fields: data (the board of GET /api/boards), view (the
// position shown: pieces, inHand, toMove, owed, flying, removal, marked),
// key (the position's identity), moves (the texts of the whole game), ply
// (the moves of the position shown), live (the position of now), legal
// (the moves this page may make now), startToMove, mySide (or null),
// names ({white, black} or null), clocks ({white, black} in ms, or null),
// over ({result, method} once the game is over, else null), marks (a
// mill closed while placing marks, not takes), note (what the page says
// of the position besides, as a puzzle's verdict: said when it changes).
export function blindPanel({ root, source, play }) {
  spoken = [];
  const region = h('div', { class: 'blind-live', role: 'status', 'aria-live': 'polite', 'aria-atomic': 'true', testid: 'blind-live' });
  const input = h('input', {
    type: 'text', id: 'blind-input', class: 'blind-input', testid: 'blind-input', autocomplete: 'off', spellcheck: 'false',
    role: 'combobox', 'aria-autocomplete': 'list', 'aria-expanded': 'false', 'aria-controls': 'blind-options',
    'aria-describedby': 'blind-help',
  });
  const list = h('ul', { id: 'blind-options', class: 'blind-options', role: 'listbox', testid: 'blind-options', 'aria-label': t('blind.options'), hidden: true });
  const form = h('div', { class: 'blind-form', testid: 'blind-form' },
    h('label', { for: 'blind-input' }, t('blind.inputLabel')), input, list,
    h('p', { id: 'blind-help', class: 'muted small' }, t('blind.inputHelp')));
  const el = h('section', { class: 'blind', testid: 'blind', 'aria-label': t('blind.title') }, form, region);
  let prev = null; // {key, ply, live, toMove, over}
  const movers = []; // movers[k]: the side that made move k, where seen
  let options = [];
  let active = -1;
  let warned = { white: Infinity, black: Infinity };
  let waiting = null; // a move typed on the player's turn before its legal moves came
  let heldSince = 0; // when a change was first held back for the legal moves (update)

  function say(text) {
    if (!text) return;
    spoken.push(text);
    // The same words again must still be heard: a region speaks a change.
    region.textContent = text === region.textContent ? text + '\u00a0' : text;
    region.dataset.count = String(spoken.length);
  }

  // The board's own messages (a capture to choose, a piece selected).
  root.addEventListener('board-announce', (ev) => say(ev.detail));
  // A page draws in steps (the board, then its status): the panel reads
  // it once the drawing is done.
  let queued = false;
  function schedule() {
    if (queued) return;
    queued = true;
    setTimeout(() => {
      queued = false;
      update();
    }, 0);
  }
  root.addEventListener('board-update', schedule);

  function mover(s, k) {
    if (movers[k]) return movers[k];
    const first = s.startToMove || 'white';
    return k % 2 === 0 ? first : other(first);
  }

  // describe says move text (made by side) in words.
  function describe(s, text, side) {
    const m = parseMove(text, s.data);
    const who = sideName(side);
    if (!m) return text;
    if (m.pass) return t('blind.pass', { side: who });
    const name = (i) => s.data.points[i].name;
    const caps = m.captures.map(name).join(', ');
    let out;
    if (m.to < 0) return t('blind.remove', { side: who, points: caps });
    if (m.from < 0) out = t('blind.place', { side: who, to: name(m.to) });
    else if (adjacentNames(s.data, name(m.from), name(m.to))) out = t('blind.slide', { side: who, from: name(m.from), to: name(m.to) });
    else out = t('blind.fly', { side: who, from: name(m.from), to: name(m.to) });
    if (caps) out += ', ' + t(s.marks && m.from < 0 ? 'blind.millMarks' : 'blind.millTakes', { points: caps });
    return out;
  }

  // after says what a position asks once a move is made: the end, a
  // removal owed, this player's turn.
  function after(s) {
    if (s.over) return t('blind.gameOver', { result: resultText(s.over.result, s.over.method) });
    const v = s.view;
    if (!v) return '';
    if (v.removal || (v.owed && v.owed[v.toMove] > 0)) return t('blind.mustRemove', { side: sideName(v.removal || v.toMove) });
    if (s.mySide && v.toMove === s.mySide) return t('blind.yourTurn');
    return '';
  }

  function update() {
    const s = source();
    if (!s || !s.view) return;
    if (s.view.toMove) movers[s.ply] = s.view.toMove;
    // A move typed as soon as "Your turn" was said, before the page had
    // the position's legal moves: played now that it has them.
    if (waiting && ((s.live && s.legal && s.legal.length) || !myTurn(s))) {
      const text = waiting;
      waiting = null;
      if (myTurn(s)) submit(text);
    }
    const key = s.ply + '|' + s.key + '|' + (s.over ? s.over.result : '') + '|' + (s.note || '');
    if (prev && key === prev.key) {
      refreshOptions(s);
      return;
    }
    // On the player's turn the page asks for the legal moves after the
    // position has come: "Your turn" is said once they are there (or after
    // a second and a half without them), so that a move typed or an "m"
    // asked at once finds them.
    if (myTurn(s) && !(s.legal && s.legal.length) && Date.now() - (heldSince || Date.now()) < 1500) {
      if (!heldSince) {
        heldSince = Date.now();
        setTimeout(schedule, 1600);
      }
      return;
    }
    heldSince = 0;
    const was = prev;
    prev = { key, ply: s.ply, live: s.live, over: !!s.over, note: s.note || '' };
    refreshOptions(s);
    if (!was) return; // the page's first position: nothing changed yet
    const parts = [];
    if (s.live && was.live && s.ply > was.ply && s.ply - was.ply <= 4) {
      for (let k = was.ply; k < s.ply; k++) parts.push(describe(s, s.moves[k], mover(s, k)));
    } else if (s.ply !== was.ply || s.live !== was.live) {
      parts.push(s.ply === 0 ? t('blind.startShown') : t('blind.shown', { n: s.ply, move: describe(s, s.moves[s.ply - 1], mover(s, s.ply - 1)) }));
    }
    if (s.over && !was.over) parts.push(t('blind.gameOver', { result: resultText(s.over.result, s.over.method) }));
    else if (parts.length && s.live) parts.push(after(s));
    if (s.note && s.note !== was.note) parts.push(s.note);
    say(parts.filter(Boolean).join('. '));
  }

  // The combobox: the legal moves whose text (either notation) starts
  // with what is typed.
  function refreshOptions(s) {
    s = s || source();
    const typed = normal(input.value);
    const legal = (s && s.live && s.legal) || [];
    options = typed ? legal.filter((m) => m.text.startsWith(typed) || normal(m.pbm || '').startsWith(typed)).slice(0, SHOWN) : [];
    if (active >= options.length) active = -1;
    const side = s && s.view ? s.view.toMove : 'white';
    replace(list, options.map((m, i) => h('li', {
      id: 'blind-option-' + i, role: 'option', class: 'blind-option', testid: 'blind-option-' + m.text, 'data-move': m.text,
      'aria-selected': i === active ? 'true' : 'false',
      onmousedown: (ev) => { ev.preventDefault(); choose(m); },
    }, m.text, h('span', { class: 'muted' }, ' · ', describe(s, m.text, side)))));
    list.hidden = options.length === 0;
    input.setAttribute('aria-expanded', options.length ? 'true' : 'false');
    if (active >= 0) input.setAttribute('aria-activedescendant', 'blind-option-' + active);
    else input.removeAttribute('aria-activedescendant');
  }

  function setActive(i) {
    active = i;
    refreshOptions();
  }

  function choose(m) {
    input.value = '';
    active = -1;
    refreshOptions();
    play(m);
  }

  input.addEventListener('input', () => { active = -1; refreshOptions(); });
  input.addEventListener('keydown', (ev) => {
    if (ev.key === 'ArrowDown' || ev.key === 'ArrowUp') {
      ev.preventDefault();
      if (!options.length) return;
      const d = ev.key === 'ArrowDown' ? 1 : -1;
      setActive(active < 0 ? (d > 0 ? 0 : options.length - 1) : (active + d + options.length) % options.length);
      return;
    }
    if (ev.key === 'Escape') {
      if (options.length) {
        ev.preventDefault();
        input.value = '';
        setActive(-1);
      }
      return;
    }
    if (ev.key !== 'Enter') return;
    ev.preventDefault();
    if (active >= 0 && options[active]) {
      choose(options[active]);
      return;
    }
    submit(input.value);
  });

  // myTurn: the page shows the live position of a game in play, and its
  // side to move is the player's.
  function myTurn(s) {
    return !!(s && s.live && !s.over && s.mySide && s.view && s.view.toMove === s.mySide);
  }

  // submit runs a command, or plays the move typed.
  function submit(text) {
    const s = source();
    const typed = normal(text);
    if (!typed || !s) return;
    const cmd = command(typed);
    if (cmd) {
      input.value = '';
      refreshOptions(s);
      say(cmd.run(s, cmd.arg));
      return;
    }
    const legal = (s.live && s.legal) || [];
    if (!legal.length && myTurn(s)) {
      waiting = text; // the legal moves are on their way (update plays it)
      return;
    }
    if (!legal.length) {
      input.select();
      say(s.over ? t('blind.gameOver', { result: resultText(s.over.result, s.over.method) }) : t('blind.notNow'));
      return;
    }
    const m = parseMove(typed, s.data);
    const same = (a, b) => a.length === b.length && a.every((x) => b.includes(x));
    const found = m && legal.filter((x) => (x.kind === 'pass') === !!m.pass && x.from === m.from && x.to === m.to && same(x.captures, m.captures));
    if (found && found.length === 1) {
      choose(found[0]);
      return;
    }
    const partial = m ? legal.filter((x) => x.from === m.from && x.to === m.to && m.captures.every((c) => x.captures.includes(c))) : [];
    if (partial.length) say(t('blind.which', { moves: partial.map((x) => x.text).join(', ') }));
    else say(t('blind.illegal', { move: text.trim() }));
    input.select(); // the next keys type the move again

  }

  // The commands, as lichess's: one letter, an argument for some.
  const COMMANDS = {
    b: { run: (s) => boardText(s) },
    p: { run: (s) => piecesText(s) },
    c: { run: (s) => clocksText(s) },
    l: { run: (s, n) => lastText(s, n) },
    s: { run: (s) => stateText(s) },
    m: { run: (s) => movesText(s) },
    h: { run: () => t('blind.help') },
  };
  function command(typed) {
    const m = /^([a-z?]+)(?:\s+(\d+))?$/.exec(typed.replace(/^\?$/, 'h'));
    if (!m) return null;
    const name = { board: 'b', pieces: 'p', clock: 'c', clocks: 'c', last: 'l', status: 's', moves: 'm', help: 'h' }[m[1]] || m[1];
    const c = COMMANDS[name];
    return c ? { run: c.run, arg: m[2] ? Number(m[2]) : undefined } : null;
  }

  function content(s, i) {
    const v = s.view;
    if (v.pieces.white.includes(i)) return t('board.whitePiece');
    if (v.pieces.black.includes(i)) return t('board.blackPiece');
    if ((v.marked || []).includes(i)) return t('board.markedPiece');
    return t('board.empty');
  }

  // boardText reads the board row by row, from the top as White sees it.
  function boardText(s) {
    const rows = new Map();
    s.data.points.forEach((p, i) => {
      if (!rows.has(p.y)) rows.set(p.y, []);
      rows.get(p.y).push(i);
    });
    return [...rows.keys()].sort((a, b) => b - a).map((y) => {
      const pts = rows.get(y).sort((a, b) => s.data.points[a].x - s.data.points[b].x);
      return t('blind.row', { row: s.data.points[pts[0]].name.slice(1), points: pts.map((i) => s.data.points[i].name + ' ' + content(s, i)).join(', ') });
    }).join('. ');
  }

  function piecesText(s) {
    const v = s.view;
    // The pieces in hand while either side has some (placing); after
    // that "0 in hand" twice would only be more to listen to.
    const hand = (c) => (v.inHand && v.inHand[c]) || 0;
    const placing = hand('white') + hand('black') > 0;
    const side = (c) => {
      const pts = v.pieces[c].map((i) => s.data.points[i].name).sort();
      return t('blind.pieces', { side: sideName(c), n: pts.length, points: pts.length ? pts.join(', ') : t('blind.none') }) +
        (placing ? ', ' + t('blind.inHand', { n: hand(c) }) : '');
    };
    const marked = (v.marked || []).length ? '. ' + t('blind.marked', { points: v.marked.map((i) => s.data.points[i].name).join(', ') }) : '';
    return side('white') + '. ' + side('black') + marked;
  }

  function clocksText(s) {
    if (!s.clocks) return t('blind.noClock');
    return ['white', 'black'].map((c) => t('blind.clock', { side: sideName(c), time: duration(s.clocks[c]) })).join(', ');
  }

  function lastText(s, n) {
    const count = Math.max(1, Math.min(n || 4, 50));
    if (s.ply === 0) return t('blind.noMoves');
    const from = Math.max(0, s.ply - count);
    const out = [];
    for (let k = from; k < s.ply; k++) out.push(t('blind.numbered', { n: k + 1, move: describe(s, s.moves[k], mover(s, k)) }));
    return out.join('. ');
  }

  // stateText: whose turn, the phase (placing, moving, flying), a removal
  // owed, the end; a position of the replay says so.
  function stateText(s) {
    const v = s.view;
    const parts = [];
    if (!s.live) parts.push(t('blind.viewing', { n: s.ply, total: s.moves.length }));
    if (s.over && s.live) {
      parts.push(t('blind.gameOver', { result: resultText(s.over.result, s.over.method) }));
      return parts.join('. ');
    }
    const side = v.toMove;
    const who = s.names && s.names[side] ? `${sideName(side)} (${s.names[side]})` : sideName(side);
    parts.push(s.mySide && s.live ? (side === s.mySide ? t('blind.yourTurn') : t('blind.theirTurn', { side: who })) : t('blind.toMove', { side: who }));
    let phase = 'moving';
    if (v.inHand && v.inHand[side] > 0) phase = 'placing';
    else if (v.flying && v.flying[side]) phase = 'flying';
    parts.push(t('blind.phase.' + phase));
    if (v.removal || (v.owed && v.owed[side] > 0)) parts.push(t('blind.mustRemove', { side: sideName(v.removal || side) }));
    return parts.join('. ');
  }

  function movesText(s) {
    const legal = (s.live && s.legal) || [];
    if (!legal.length) return t('blind.notNow');
    return t('blind.legal', { n: legal.length, moves: legal.map((m) => m.text).join(', ') });
  }

  // The clock's warnings: each threshold said once as this player's time
  // runs down (again after an increment takes it back above).
  const timer = setInterval(() => {
    const s = source();
    if (!s || !s.clocks || s.over || !s.live) return;
    const side = s.mySide;
    if (!side) return;
    const left = s.clocks[side];
    const below = LOW.filter((ms) => left < ms);
    const th = below.length ? below[below.length - 1] : Infinity;
    if (th < warned[side]) say(t('blind.clockLow', { time: duration(left) }));
    warned[side] = th;
  }, 500);

  // show puts the field on the page in blind mode, and silences the
  // page's other live regions meanwhile.
  function show() {
    const on = blindOn();
    form.hidden = !on;
    region.classList.toggle('sr-only', !on);
    const notice = document.getElementById('notice'); // the app's notices (app.js)
    for (const r of [...root.querySelectorAll('[aria-live], [role="status"], [data-blind-silenced]'), notice]) {
      if (!r || r === region) continue;
      if (on && !r.dataset.blindSilenced) {
        r.dataset.blindSilenced = JSON.stringify([r.getAttribute('role'), r.getAttribute('aria-live')]);
        r.removeAttribute('role');
        r.setAttribute('aria-live', 'off');
      } else if (!on && r.dataset.blindSilenced) {
        const [role, live] = JSON.parse(r.dataset.blindSilenced);
        if (role) r.setAttribute('role', role);
        if (live) r.setAttribute('aria-live', live);
        else r.removeAttribute('aria-live');
        delete r.dataset.blindSilenced;
      }
    }
  }
  const onSettings = () => show();
  window.addEventListener('morris-settings', onSettings);
  // The app's notices (app.js) are said here in blind mode.
  const onNotice = (ev) => {
    if (!blindOn() || !el.isConnected) return;
    ev.preventDefault();
    say(ev.detail);
  };
  window.addEventListener('morris-announce', onNotice);
  // The page's parts are built after the panel: silence them once placed.
  setTimeout(show, 0);
  show();

  return {
    el,
    say,
    update: schedule,
    // focus gives the field the focus in blind mode (a page just opened).
    focus: () => { if (blindOn()) input.focus(); },
    stop: () => {
      clearInterval(timer);
      window.removeEventListener('morris-settings', onSettings);
      window.removeEventListener('morris-announce', onNotice);
    },
  };
}

function other(side) {
  return side === 'white' ? 'black' : 'white';
}

// normal writes what was typed as the standard notation's lower case, so
// that pbmserv's "D6-D5,B4" and "X,D2" read as "d6-d5xb4" and "xd2".
function normal(text) {
  return text.trim().toLowerCase().replace(/\s+/g, ' ').replace(/^x,/, 'x').replace(/,/g, 'x');
}

// duration writes ms as m:ss (h:mm:ss from an hour).
function duration(ms) {
  const total = Math.max(0, Math.ceil((ms || 0) / 1000));
  const hh = Math.floor(total / 3600);
  const mm = Math.floor((total % 3600) / 60);
  const ss = String(total % 60).padStart(2, '0');
  return hh ? `${hh}:${String(mm).padStart(2, '0')}:${ss}` : `${mm}:${ss}`;
}
