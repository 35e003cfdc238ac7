// Study (#/study, #/study/game/ID): an analysis board for any preset where
// moves are played freely for both sides, the engine's evaluation and best
// line (POST /api/analysis), take-back, stepping through the moves; a
// record imported (POST /api/records) or a stored game loaded and replayed;
// the record exported (GET /api/game/ID/export for a stored game, written
// here otherwise); a position set up by hand (the set-up tab: pieces put
// and taken on the board, the side to move, the pieces in hand), checked
// by the server, then analysed, played against the engine, or shared as a
// link (#/study?position=TEXT opens it); the opening explorer: the moves
// this server's finished games played from the position shown, with their
// results and the book's values (GET /api/explorer); the engine's review of
// the moves on the board, an imported record's say (POST /api/review).

import { h, replace, debounce } from '../dom.js';
import { t } from '../i18n.js';
import { api, boards, variants, rulesText, ensureToken, position as fetchPosition } from '../api.js';
import { Board, handStones } from '../board.js';
import { parsePosition, parseMove, diagonalMills, boardOf, presetOf, writePosition, adjacentNames } from '../notation.js';
import { MoveList, replayKeys, variantSelect, resultText, sideName, errorText, rulesName } from '../ui.js';
import { ReviewPanel } from '../review.js';
import { writeRecord } from '../record.js';
import { play as playSound, moveKind } from '../sound.js';

export function mountGame(main, params, app, query) {
  return mount(main, params, app, query, Number(params[0]));
}

export function mount(main, _params, app, query, gameId) {
  app.title(t('study.title'));
  let alive = true;
  const st = {
    rules: query.get('rules') || 'nine-mens-morris',
    start: null, // a position text when the game does not start from the preset's start
    freshStart: '', // the preset's start (seed 0), to know whether start is set up
    moves: [],
    cursor: 0,
    view: null, // the view of the position at cursor
    viewKey: '',
    source: { kind: 'free' },
    engineOn: false,
    analysis: null,
    analysisKey: null, // key() of the position analysed, null for none ('' is the start position)
    tab: 'analysis',
    // setup, while the set-up tab is open: the position being set up
    // ({cells, toMove, inHand, tool, error}); the board edits it.
    setup: null,
  };
  const views = new Map();
  let board = null;
  let boardData = null;
  let data = null;

  // Layout.
  const boardHolder = h('div', { class: 'board-holder', testid: 'board-holder' }, h('div', { class: 'board-placeholder' }));
  const status = h('div', { class: 'status', role: 'status', 'aria-live': 'polite', testid: 'status' });
  const title = h('div', { class: 'game-info', testid: 'study-info' });
  const moveList = new MoveList({ onGo: (k) => go(k) });
  const engineOut = h('div', { class: 'engine-out', testid: 'engine-output', hidden: true });
  const explorerOut = h('section', { class: 'explorer', testid: 'explorer', 'aria-live': 'polite' });
  const explored = new Map(); // position text -> the explorer's answer
  // The review of the moves on the board: its rv is null, or the server's
  // answer, with reviewFor, the start and moves it is of.
  const review = new ReviewPanel({ moveList, onGo: (k) => go(k) });
  let reviewFor = '';
  const engineToggle = h('input', { type: 'checkbox', testid: 'engine-toggle', onchange: () => { st.engineOn = engineToggle.checked; analyse(); } });
  const passBtn = h('button', { type: 'button', class: 'btn small primary', testid: 'pass', hidden: true, onclick: () => { const m = st.view.legal.find((x) => x.kind === 'pass'); if (m) play(m); } }, t('game.pass'));
  const hands = h('div', { class: 'hands', testid: 'study-hands' });
  const toolbar = h('div', { class: 'board-toolbar' },
    h('button', { type: 'button', class: 'btn small', testid: 'flip', onclick: () => board && board.flip() }, t('game.flip')),
    h('button', { type: 'button', class: 'btn small', testid: 'takeback', onclick: takeBack }, t('study.takeback')),
    passBtn);
  const tabsEl = h('div', { class: 'tabs', role: 'tablist' });
  const tabBody = h('div', { class: 'tab-body' });
  main.append(h('div', { class: 'game-layout study', testid: 'study-page' },
    h('div', { class: 'board-col' }, hands, boardHolder, toolbar),
    h('aside', { class: 'side-col panel' }, title, status, tabsEl, tabBody)));

  const offKeys = replayKeys(moveList);

  Promise.all([boards(), variants(), rulesText()]).then(async ([bs, vs, rd]) => {
    data = { boards: bs, variants: vs, rules: rd };
    const shared = query.get('position');
    if (gameId) await loadStoredGame(gameId);
    else if (shared) {
      try {
        await newBoard(shared.trim().split(/\s+/)[0], shared.trim(), [], { kind: 'free' });
      } catch (err) {
        await newBoard(st.rules);
        status.textContent = t('setup.badLink', { error: errorText(err) });
      }
    } else await newBoard(st.rules);
    renderTabs();
  }).catch((err) => { status.textContent = errorText(err); });

  // body names the position after the first k moves for the API.
  function body(k) {
    const moves = st.moves.slice(0, k);
    return st.start ? { position: st.start, moves } : { rules: st.rules, moves };
  }

  function key(k) {
    return st.moves.slice(0, k).join(' ');
  }

  async function newBoard(rules, start, moves, source) {
    const v = await fetchPosition(start ? { position: start } : { rules });
    st.rules = v.rules;
    st.freshStart = start ? '' : v.start;
    if (start) {
      try {
        st.freshStart = (await fetchPosition({ rules: v.rules })).start;
      } catch { /* a rules string the server no longer knows: keep the Position tag */ }
    }
    st.start = start && start !== st.freshStart ? start : null;
    st.moves = moves ? moves.slice() : [];
    st.cursor = source && source.cursor !== undefined ? source.cursor : st.moves.length;
    st.source = source || { kind: 'free' };
    views.clear();
    st.view = null;
    st.viewKey = '';
    st.analysis = null;
    st.analysisKey = null;
    setupBoard(v.board);
    await show();
  }

  function setupBoard(boardId) {
    const bd = data.boards[boardId] || data.boards[boardOf(st.rules, data.variants)];
    if (!board || boardData !== bd || board.dashed !== dashedFor(bd)) {
      boardData = bd;
      board = new Board(bd, { onMove: play, dashedDiagonals: dashedFor(bd), flipped: board ? board.flipped : false });
      replace(boardHolder, board.el);
      if (st.setup) board.setEditor(editPoint);
    }
  }

  function dashedFor(bd) {
    return bd.lines.some((l) => l.diagonal) && !diagonalMills(st.rules, data.rules);
  }

  // show fetches the view of the position at the cursor and draws it.
  async function show() {
    const k = st.cursor;
    const kk = key(k);
    renderAll();
    let v = views.get(kk);
    if (!v) {
      try {
        v = await fetchPosition(body(k));
      } catch (err) {
        status.textContent = errorText(err);
        return;
      }
      views.set(kk, v);
    }
    if (!alive || key(st.cursor) !== kk) return;
    st.view = v;
    st.viewKey = kk;
    renderAll();
    analyse();
    explore();
  }

  const showSoon = debounce(show, 60);

  function go(k) {
    st.cursor = Math.max(0, Math.min(st.moves.length, k));
    const cached = views.get(key(st.cursor));
    if (cached) {
      st.view = cached;
      st.viewKey = key(st.cursor);
      renderAll();
      analyse();
      explore();
    } else {
      showSoon();
    }
  }

  function play(m) {
    st.moves = st.moves.slice(0, st.cursor).concat([m.text]);
    st.cursor = st.moves.length;
    if (st.source.kind !== 'free') st.source = { ...st.source, changed: true };
    playSound(moveKind(m.text, (a, b) => adjacentNames(boardData, a, b)));
    show();
  }

  function takeBack() {
    if (st.cursor === 0) return;
    st.moves = st.moves.slice(0, st.cursor - 1);
    st.cursor = st.moves.length;
    go(st.cursor);
  }

  function renderAll() {
    renderBoard();
    renderStatus();
    moveList.set(st.moves, st.cursor, st.start ? parsePosition(st.start).ply : 0);
    renderReview();
    renderEngine();
    renderInfo();
    if (st.tab === 'export') renderExport();
  }

  function renderBoard() {
    if (!board) return;
    if (st.setup) {
      const su = st.setup;
      board.update({ pieces: piecesOf(su.cells), toMove: su.toMove }, {});
      board.setHint(null);
      passBtn.hidden = true;
      replace(hands, ['white', 'black'].map((side) => h('span', { class: 'hand-of' + (su.toMove === side ? ' to-move' : '') },
        h('span', { class: 'stone-icon ' + side, 'aria-hidden': 'true' }), ' ', sideName(side), ' ',
        h('span', { class: 'hand', testid: 'hand-' + side, 'data-count': su.inHand[side] }, String(su.inHand[side])))));
      return;
    }
    const v = st.view && st.viewKey === key(st.cursor) ? st.view : null;
    const lastMove = st.cursor > 0 ? parseMove(st.moves[st.cursor - 1], boardData) : null;
    if (!v) {
      board.freeze();
      return;
    }
    board.update(v, { legal: v.legal, interactive: v.status === '*', lastMove });
    replace(hands, ['white', 'black'].map((side) => h('span', { class: 'hand-of' + (v.toMove === side && v.status === '*' ? ' to-move' : '') },
      h('span', { class: 'stone-icon ' + side, 'aria-hidden': 'true' }), ' ', sideName(side), ' ',
      v.inHand[side] > 0 ? fromHand(handStones(side, v.inHand[side]), side) : h('span', { class: 'hand', testid: 'hand-' + side, 'data-count': 0 }),
      v.flying[side] ? h('span', { class: 'badge flying', testid: 'flying-' + side }, t('game.flying')) : null)));
    passBtn.hidden = !v.legal.some((m) => m.kind === 'pass');
    const a = st.engineOn && st.analysis && st.analysisKey === key(st.cursor) ? st.analysis : null;
    board.setHint(a && a.best ? moveOf(a.best, v) : null);
  }

  function fromHand(el, side) {
    board.handSource(el, side);
    return el;
  }

  function moveOf(text, v) {
    const m = v.legal.find((x) => x.text === text);
    return m || parseMove(text, boardData);
  }

  function renderStatus() {
    if (st.setup) {
      const n = (c) => st.setup.cells.filter((x) => x === c).length;
      status.textContent = t('setup.status', { white: n('white'), black: n('black'), side: sideName(st.setup.toMove) });
      status.dataset.toMove = st.setup.toMove;
      status.dataset.gameStatus = 'setup';
      return;
    }
    const v = st.view && st.viewKey === key(st.cursor) ? st.view : null;
    if (!v) {
      status.textContent = t('common.loading');
      return;
    }
    let text;
    if (v.status !== '*') text = resultText(v.status, v.method);
    else if (v.removal) {
      const side = sideName(v.toMove);
      const owed = v.owed ? v.owed[v.toMove] : 1;
      if (owed === 0) text = t('study.blockedRemoval', { side });
      else if (v.removesOwn) text = t('study.removalOwn', { side });
      else if (owed > 1) text = t('study.removals', { side, n: owed });
      else text = t('study.removal', { side });
    }
    else if (v.legal.length && v.legal.every((m) => m.kind === 'pass')) text = t('study.mustPass', { side: sideName(v.toMove) });
    else text = t('game.toMove', { side: sideName(v.toMove) });
    if (v.status === '*') {
      const parts = [];
      for (const side of ['white', 'black']) {
        if (v.inHand[side] > 0) parts.push(t('study.hand', { side: sideName(side), n: v.inHand[side] }));
        if (v.flying[side]) parts.push(t('study.flying', { side: sideName(side) }));
      }
      if (v.marked && v.marked.length) parts.push(t('study.marked', { n: v.marked.length }));
      if (parts.length) text += ' · ' + parts.join(' · ');
    }
    status.textContent = text;
    status.dataset.toMove = v.toMove;
    status.dataset.gameStatus = v.status === '*' ? 'active' : 'finished';
  }

  function renderInfo() {
    const src = st.source;
    let what = rulesName(presetOf(st.rules), st.rules);
    if (src.kind === 'game') {
      what = t('study.fromGame', { id: src.id }) + ' · ' + what;
      const gs = src.game.state;
      if (gs.status !== 'active') what += ' · ' + gs.result + ' ' + resultText(gs.result, gs.method);
    }
    if (src.kind === 'import') what = t('study.fromImport', { white: src.tags.White || '?', black: src.tags.Black || '?' }) + ' · ' + what;
    replace(title, h('div', { class: 'variant', testid: 'study-variant', 'data-rules': st.rules }, what),
      src.kind === 'game' ? h('a', { href: '#/game/' + src.id, class: 'small' }, t('study.backToGame')) : null);
  }

  // Engine analysis of the position at the cursor, when switched on.
  let analysisCtl = null;
  const analyse = debounce(async () => {
    if (!st.engineOn) {
      renderEngine();
      renderBoard();
      return;
    }
    const k = st.cursor;
    const kk = key(k);
    const v = st.view;
    if (!v || st.viewKey !== kk || st.analysisKey === kk) {
      renderEngine();
      return;
    }
    if (v.status !== '*') {
      st.analysis = null;
      renderEngine();
      return;
    }
    if (analysisCtl) analysisCtl.abort();
    const ctl = new AbortController();
    analysisCtl = ctl;
    engineOut.hidden = false;
    engineOut.classList.add('thinking');
    try {
      const a = await api('POST', '/api/analysis', { ...body(k), movetimeMs: 1500 }, { auth: false, signal: ctl.signal });
      if (!alive || analysisCtl !== ctl) return;
      st.analysis = a;
      st.analysisKey = kk;
    } catch (err) {
      if (err.name === 'AbortError' || !alive) return;
      st.analysis = { error: errorText(err) };
      st.analysisKey = null;
    } finally {
      if (analysisCtl === ctl) {
        analysisCtl = null;
        engineOut.classList.remove('thinking');
      }
    }
    renderEngine();
    renderBoard();
  }, 250);

  // The opening explorer of the position shown (analysis tab).
  const explore = debounce(async () => {
    const v = st.view;
    if (!v || st.viewKey !== key(st.cursor) || st.setup) return;
    if (!explored.has(v.position)) {
      try {
        const ex = await api('GET', '/api/explorer?position=' + encodeURIComponent(v.position), undefined, { auth: false });
        explored.set(v.position, ex);
      } catch (err) {
        if (!alive) return;
        replace(explorerOut, h('p', { class: 'form-error' }, errorText(err)));
        return;
      }
    }
    if (alive) renderExplorer();
  }, 150);

  function renderExplorer() {
    const v = st.view && st.viewKey === key(st.cursor) ? st.view : null;
    const ex = v && explored.get(v.position);
    if (!ex) {
      replace(explorerOut, h('h2', {}, t('explorer.title')), h('p', { class: 'muted' }, t('common.loading')));
      return;
    }
    const pct = (n, of) => (of ? Math.round((100 * n) / of) : 0);
    const rows = ex.moves.map((m) => {
      const legal = v.legal.find((x) => x.text === m.move);
      return h('tr', {
        testid: 'explorer-row-' + m.move, 'data-move': m.move, 'data-games': m.games, 'data-white': m.white,
        'data-draws': m.draws, 'data-black': m.black, 'data-book': m.book === undefined ? '' : m.book,
        class: legal ? 'playable' : '', tabindex: legal ? '0' : undefined,
        onclick: () => { if (legal) play(legal); },
        onkeydown: (e) => { if (legal && (e.key === 'Enter' || e.key === ' ')) { e.preventDefault(); play(legal); } },
      },
      h('td', { class: 'mono' }, m.move),
      h('td', { class: 'num' }, m.games ? String(m.games) : '–'),
      h('td', {}, m.games ? h('div', { class: 'result-bar', title: t('explorer.split', { white: m.white, draws: m.draws, black: m.black }) },
        h('span', { class: 'w', style: `width:${pct(m.white, m.games)}%` }, m.white ? String(m.white) : ''),
        h('span', { class: 'd', style: `width:${pct(m.draws, m.games)}%` }, m.draws ? String(m.draws) : ''),
        h('span', { class: 'b', style: `width:${pct(m.black, m.games)}%` }, m.black ? String(m.black) : '')) : null),
      h('td', { class: 'num' }, m.book === undefined ? '' : (m.book > 0 ? '+' : '') + m.book));
    });
    replace(explorerOut,
      h('h2', {}, t('explorer.title')),
      h('p', { class: 'muted', testid: 'explorer-total', 'data-games': ex.games }, t('explorer.total', { n: ex.games })),
      rows.length ? h('table', { class: 'explorer-table' },
        h('thead', {}, h('tr', {},
          h('th', {}, t('explorer.move')), h('th', { class: 'num' }, t('explorer.games')),
          h('th', {}, t('explorer.results')), h('th', { class: 'num' }, t('explorer.book')))),
        h('tbody', {}, rows))
        : h('p', { class: 'muted', testid: 'explorer-empty' }, t('explorer.none')));
  }

  // The review of the moves on the board (off the request path: asked
  // for, then read each second until done).
  function reviewKey() {
    return (st.start || st.rules) + '|' + st.moves.join(' ');
  }

  function requestReview() {
    const body = st.start ? { position: st.start, moves: st.moves } : { rules: st.rules, moves: st.moves };
    reviewFor = reviewKey();
    review.follow(api('POST', '/api/review', body, { auth: false }), (x) => '/api/review/' + x.id, (x) => {
      if (!alive) return;
      review.rv = x;
      renderReview();
    });
  }

  function renderReview() {
    if (st.tab !== 'analysis') return;
    const current = review.rv && reviewFor === reviewKey();
    review.render(current ? review.rv : null, st.cursor, st.moves.length ? [
      h('button', { type: 'button', class: 'btn small', testid: 'review-request', onclick: requestReview }, t('review.requestMoves'))] : null);
  }

  function renderEngine() {
    engineOut.hidden = !st.engineOn;
    if (!st.engineOn) return;
    const a = st.analysis;
    const current = a && (a.error || st.analysisKey === key(st.cursor));
    if (!current) {
      replace(engineOut, h('p', { class: 'muted' }, t('study.thinking')));
      return;
    }
    if (a.error) {
      replace(engineOut, h('p', { class: 'form-error', testid: 'engine-error' }, a.error));
      return;
    }
    replace(engineOut,
      h('div', { class: 'engine-line' },
        h('span', { class: 'score', testid: 'engine-score', 'data-score': a.score }, a.scoreText),
        h('span', { class: 'muted' }, t('study.depth', { n: a.depth })),
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

  // tbText says a value of the databases ("win in 12", "draw", "loss in
  // 3", as the server writes it) in the page's language.
  function tbText(v) {
    const m = /^(win|loss) in (\d+)$/.exec(v);
    if (m) return t(`study.tb.${m[1]}`, { n: m[2] });
    return v === 'draw' ? t('study.tb.draw') : v;
  }

  // Tabs: analysis (preset, engine, moves), import, export.
  function renderTabs() {
    const names = ['analysis', 'setup', 'import', 'export'];
    replace(tabsEl, names.map((n) => h('button', {
      type: 'button', role: 'tab', class: 'tab', testid: 'tab-' + n, 'aria-selected': st.tab === n ? 'true' : 'false',
      onclick: () => {
        if (n === st.tab) return;
        if (st.tab === 'setup') leaveSetup();
        st.tab = n;
        if (n === 'setup') enterSetup();
        renderTabs();
      },
    }, t('study.tab.' + n))));
    if (st.tab === 'setup') renderSetupTab();
    if (st.tab === 'analysis') {
      renderAnalysisTab();
      moveList.set(st.moves, st.cursor); // scrolled now that it is in the page
    }
    if (st.tab === 'import') renderImportTab();
    if (st.tab === 'export') renderExport();
  }

  function renderAnalysisTab() {
    const sel = variantSelect(data.variants, presetOf(st.rules), { testid: 'study-variant-select', id: 'study-variant' });
    const over = h('input', { type: 'text', id: 'study-overrides', testid: 'study-overrides', placeholder: 'flying=never', value: st.rules.split(',').slice(1).join(','), autocomplete: 'off', spellcheck: 'false' });
    const err = h('p', { class: 'form-error', role: 'alert', testid: 'study-error' });
    replace(tabBody,
      h('form', {
        class: 'inline-form', testid: 'study-new-form',
        onsubmit: async (ev) => {
          ev.preventDefault();
          err.textContent = '';
          const rules = over.value.trim() ? `${sel.value},${over.value.trim()}` : sel.value;
          try {
            await newBoard(rules);
          } catch (e) {
            err.textContent = errorText(e);
          }
        },
      },
      h('label', { class: 'field' }, h('span', {}, t('form.variant')), sel),
      h('label', { class: 'field' }, h('span', {}, t('study.overrides')), over),
      h('button', { type: 'submit', class: 'btn small', testid: 'study-new' }, t('study.newBoard')),
      err),
      h('label', { class: 'check engine-toggle' }, engineToggle, h('span', {}, t('study.engine'))),
      engineOut,
      moveList.el,
      review.el,
      explorerOut);
    engineToggle.checked = st.engineOn;
    renderEngine();
    renderExplorer();
    renderReview();
  }

  // The set-up tab: the board as an editor.
  function piecesOf(cells) {
    const out = { white: [], black: [] };
    cells.forEach((c, i) => { if (c) out[c].push(i); });
    return out;
  }

  // piecesEach is the number of pieces a side has in the rules shown.
  function piecesEach() {
    const m = /(?:^|,)pieces=(\d+)/.exec(st.rules);
    if (m) return Number(m[1]);
    const p = data.rules.presets[presetOf(st.rules)];
    return p ? p.pieces : 9;
  }

  // enterSetup starts from the position shown.
  function enterSetup() {
    const v = st.view && st.viewKey === key(st.cursor) ? st.view : null;
    const cells = boardData.points.map(() => null);
    if (v) for (const c of ['white', 'black']) for (const i of v.pieces[c]) cells[i] = c;
    st.setup = {
      cells, toMove: v ? v.toMove : 'white', inHand: v ? { white: v.inHand.white, black: v.inHand.black } : { white: 0, black: 0 },
      tool: 'white', error: '',
    };
    board.setEditor(editPoint);
    renderAll();
  }

  function leaveSetup() {
    st.setup = null;
    if (board) board.setEditor(null);
    renderAll();
  }

  // editPoint puts the chosen piece on p, or takes away the piece there.
  function editPoint(p) {
    const su = st.setup;
    if (!su) return;
    su.cells[p] = su.tool === 'empty' || su.cells[p] === su.tool ? null : su.tool;
    su.error = '';
    renderBoard();
    renderStatus();
    renderSetupTab();
  }

  // setupText is the position text of what is set up.
  function setupText() {
    const su = st.setup;
    const n = piecesEach();
    const ply = (n - su.inHand.white) + (n - su.inHand.black);
    return writePosition({ rules: st.rules, cells: su.cells, toMove: su.toMove, inHand: su.inHand, ply: Math.max(ply, 0) });
  }

  function shareURL(text) {
    return `${location.origin}${location.pathname}#/study?position=${encodeURIComponent(text)}`;
  }

  function renderSetupTab() {
    const su = st.setup;
    if (!su || st.tab !== 'setup') return;
    const n = piecesEach();
    const tool = (name) => h('button', {
      type: 'button', class: 'btn small' + (su.tool === name ? ' primary' : ''), testid: 'setup-tool-' + name,
      'aria-pressed': su.tool === name ? 'true' : 'false', onclick: () => { su.tool = name; renderSetupTab(); },
    }, t('setup.tool.' + name));
    const toMove = h('select', {
      id: 'setup-to-move', testid: 'setup-to-move',
      onchange: () => { su.toMove = toMove.value; su.error = ''; renderBoard(); renderStatus(); renderSetupTab(); },
    }, ['white', 'black'].map((c) => h('option', { value: c, selected: su.toMove === c }, sideName(c))));
    const hand = (c) => {
      const input = h('input', {
        type: 'number', min: '0', max: String(n), step: '1', value: String(su.inHand[c]), id: 'setup-hand-' + c, testid: 'setup-hand-' + c, inputmode: 'numeric',
        onchange: () => {
          su.inHand[c] = Math.max(0, Math.min(n, Math.floor(Number(input.value) || 0)));
          su.error = '';
          renderBoard();
          renderSetupTab();
        },
      });
      return h('label', { class: 'field' }, h('span', {}, t('setup.hand', { side: sideName(c) })), input);
    };
    const level = h('select', { id: 'setup-level', testid: 'setup-level' },
      Array.from({ length: 10 }, (_, i) => h('option', { value: String(i + 1), selected: i + 1 === 5 }, String(i + 1))));
    const color = h('select', { id: 'setup-color', testid: 'setup-color' },
      h('option', { value: 'white' }, t('form.colorWhite')),
      h('option', { value: 'black' }, t('form.colorBlack')));
    const text = setupText();
    const link = h('input', { type: 'text', readonly: true, id: 'setup-link', testid: 'setup-link', value: shareURL(text), spellcheck: 'false' });
    replace(tabBody,
      h('p', { class: 'muted' }, t('setup.help')),
      h('div', { class: 'row setup-tools', role: 'group', 'aria-label': t('setup.tool') }, tool('white'), tool('black'), tool('empty')),
      h('label', { class: 'field' }, h('span', {}, t('setup.toMove')), toMove),
      h('div', { class: 'row' }, hand('white'), hand('black')),
      h('div', { class: 'row' },
        h('button', { type: 'button', class: 'btn small', testid: 'setup-clear', onclick: () => { su.cells = su.cells.map(() => null); su.error = ''; renderAll(); renderSetupTab(); } }, t('setup.clear')),
        h('button', { type: 'button', class: 'btn small', testid: 'setup-start', onclick: setupStart }, t('setup.start'))),
      h('p', { class: 'form-error', role: 'alert', testid: 'setup-error' }, su.error),
      h('div', { class: 'row' },
        h('button', { type: 'button', class: 'btn primary', testid: 'setup-check', onclick: checkSetup }, t('setup.check'))),
      h('div', { class: 'row' },
        h('label', { class: 'field' }, h('span', {}, t('form.level')), level),
        h('label', { class: 'field' }, h('span', {}, t('form.color')), color),
        h('button', { type: 'button', class: 'btn small', testid: 'setup-play', onclick: () => playSetup(Number(level.value), color.value) }, t('setup.play'))),
      h('label', { class: 'field' }, h('span', {}, t('setup.link')), link),
      h('div', { class: 'row' },
        h('button', {
          type: 'button', class: 'btn small', testid: 'setup-link-copy',
          onclick: async () => {
            link.select();
            try {
              await navigator.clipboard.writeText(link.value);
              app.notify(t('study.copied'));
            } catch {
              document.execCommand('copy');
            }
          },
        }, t('study.copy'))));
  }

  // setupStart sets up the start of the rules shown.
  async function setupStart() {
    const su = st.setup;
    try {
      const v = await fetchPosition({ rules: st.rules });
      su.cells = boardData.points.map(() => null);
      for (const c of ['white', 'black']) for (const i of v.pieces[c]) su.cells[i] = c;
      su.toMove = v.toMove;
      su.inHand = { white: v.inHand.white, black: v.inHand.black };
      su.error = '';
    } catch (err) {
      su.error = errorText(err);
    }
    renderAll();
    renderSetupTab();
  }

  // checkSetup asks the server whether the position is legal; if it is,
  // the board shows it, with the engine's analysis, and the address is
  // its link.
  async function checkSetup() {
    const su = st.setup;
    const text = setupText();
    try {
      await fetchPosition({ position: text });
    } catch (err) {
      su.error = errorText(err);
      renderSetupTab();
      return;
    }
    st.setup = null;
    board.setEditor(null);
    await newBoard(st.rules, text, [], { kind: 'free' });
    history.replaceState(null, '', '#/study?position=' + encodeURIComponent(text));
    st.tab = 'analysis';
    st.engineOn = true;
    renderTabs();
    analyse();
    app.notify(t('setup.legal'));
  }

  // playSetup starts a game against the engine from the position.
  async function playSetup(level, color) {
    const su = st.setup;
    const text = setupText();
    try {
      await fetchPosition({ position: text });
      await ensureToken();
      const g = await api('POST', '/api/challenge/ai', { position: text, level, color });
      playSound('start');
      app.navigate('/game/' + g.id);
    } catch (err) {
      su.error = errorText(err);
      renderSetupTab();
    }
  }

  function renderImportTab() {
    const text = h('textarea', { rows: 10, testid: 'import-text', id: 'import-text', spellcheck: 'false', placeholder: t('study.importPlaceholder') });
    const err = h('p', { class: 'form-error', role: 'alert', testid: 'import-error' });
    const list = h('div', { class: 'list', testid: 'import-games' });
    replace(tabBody,
      h('form', {
        testid: 'import-form',
        onsubmit: async (ev) => {
          ev.preventDefault();
          err.textContent = '';
          replace(list);
          const src = text.value.trim();
          if (!src) return;
          try {
            if (/^[a-z][\w-]*(,[^\s]*)?\s+\S+\s+[wb]\s+\d+,\d+\s/.test(src) && !src.startsWith('[')) {
              // A position text: set it up.
              await newBoard(src.split(/\s+/)[0], src, [], { kind: 'free' });
              st.tab = 'analysis';
              renderTabs();
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

  async function loadRecord(g) {
    const rules = g.start.split(/\s+/)[0];
    await newBoard(rules, g.start, g.moves, { kind: 'import', tags: g.tags, result: g.result, cursor: 0 });
    st.tab = 'analysis';
    renderTabs();
    app.notify(t('study.imported', { n: g.moves.length }));
  }

  async function loadStoredGame(id) {
    try {
      const g = await api('GET', '/api/game/' + id, undefined, { auth: false });
      await newBoard(g.rules || g.variant, g.start, g.state.moves, { kind: 'game', id, game: g, cursor: g.state.moves.length });
    } catch (err) {
      status.textContent = errorText(err);
      await newBoard('nine-mens-morris');
    }
  }

  // The record text of what is on the board.
  function recordText() {
    const v = views.get(key(st.moves.length));
    const src = st.source;
    const fresh = !st.start;
    const lot = data.rules.presets[presetOf(st.rules)] && data.rules.presets[presetOf(st.rules)].first === 'lot';
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

  async function renderExport() {
    if (st.tab !== 'export') return;
    const area = h('textarea', { rows: 12, readonly: true, testid: 'export-text', id: 'export-text', spellcheck: 'false' });
    const copy = h('button', {
      type: 'button', class: 'btn small', testid: 'export-copy',
      onclick: async () => {
        area.select();
        try {
          await navigator.clipboard.writeText(area.value);
          app.notify(t('study.copied'));
        } catch {
          document.execCommand('copy');
        }
      },
    }, t('study.copy'));
    const download = h('a', { class: 'btn small', testid: 'export-download', download: 'morris.pgn', href: '#' }, t('study.download'));
    const stored = st.source.kind === 'game' && !st.source.changed;
    replace(tabBody,
      h('p', { class: 'muted' }, stored ? t('study.exportStored') : t('study.exportBoard')),
      h('label', { class: 'field' }, h('span', {}, t('study.record')), area),
      h('div', { class: 'row' }, copy, download));
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
      if (!views.get(key(st.moves.length))) {
        try {
          views.set(key(st.moves.length), await fetchPosition(body(st.moves.length)));
        } catch { /* written without a result */ }
      }
      text = recordText();
    }
    if (!alive) return;
    area.value = text;
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    download.href = url;
    download.download = stored ? `morris-${st.source.id}.pgn` : 'morris-analysis.pgn';
  }

  app.debug(() => ({
    setup: st.setup ? { position: setupText(), error: st.setup.error } : null,
    rules: st.rules,
    start: st.start,
    moves: st.moves.slice(),
    cursor: st.cursor,
    version: st.moves.length,
    status: st.view ? (st.view.status === '*' ? 'active' : 'finished') : 'loading',
    result: st.view ? st.view.status : '*',
    toMove: st.view ? st.view.toMove : null,
    position: st.view ? st.view.position : null,
    legal: st.view && st.viewKey === key(st.cursor) ? st.view.legal.map((m) => m.text) : [],
    analysis: st.analysis,
    review: review.rv && !review.rv.error ? { status: review.rv.status, done: review.rv.done, total: review.rv.total } : null,
  }));

  return () => {
    alive = false;
    review.stop();
    offKeys();
    if (analysisCtl) analysisCtl.abort();
  };
}
