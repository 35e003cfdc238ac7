// The game page (#/game/ID): live over the game's WebSocket (a player with
// a token plays, anyone else watches), moves sent with their ply, clocks
// counting down locally, offers, resign, claim, chat, reconnection with
// ?since so nothing is lost, and a replay of the moves. Turns need not
// alternate: a side may move several times running (removals owed, a
// blocked side's removal, the second player moving first), so whose turn it
// is always comes from the server's toMove, never from the ply. Once the
// game is over, anyone may ask for the engine's review: its progress, then
// the evaluation drawn along the game (a click on a point goes there), the
// marked moves with the better ones, and the marks in the move list.
// In a real-time game a player may premove on the opponent's turn (the
// move is played the moment the turn comes, if it is still legal); in a
// correspondence game a move can wait for a confirmation (a switch kept in
// the browser).

import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { api, session, GameSocket, boards, variants, rulesText, position as fetchPosition, ApiError } from '../api.js';
import { Board, handStones } from '../board.js';
import { parsePosition, parseMove, diagonalMills, boardOf, placingCaptures, adjacentNames } from '../notation.js';
import { MoveList, replayKeys, rulesName, controlText, resultText, sideName, playerLink, errorText, ratingText, reviewDone, markMoveList, showReviewCursor, followReview } from '../ui.js';
import { play as playSound, moveKind } from '../sound.js';

const CLAIM_AFTER_MS = 60000; // the server's default silence before a claim

export function mount(main, params, app) {
  const id = Number(params[0]);
  app.title(t('game.title', { id }));
  const st = {
    id, full: null, moves: [], position: '', toMove: 'white', status: 'active', result: '*', method: '',
    version: -1, clocks: null, clocksAt: 0, skew: 0, offers: [], chat: [], deadlineMs: 0,
    view: null, viewFor: '', positions: [], cursor: null, mySide: null,
    conn: 'connecting', attempt: 0, turnSince: Date.now(), message: '', lastError: '', sent: 0, sending: false, confirmResign: false,
  };
  let board = null;
  let boardData = null;
  let alive = true;
  let viewSeq = 0;

  // The layout, filled as the game arrives.
  const status = h('div', { class: 'status', role: 'status', 'aria-live': 'polite', testid: 'status' }, t('game.connecting'));
  const info = h('div', { class: 'game-info', testid: 'game-info' });
  const offers = h('div', { class: 'offers', testid: 'offers' });
  const controls = h('div', { class: 'controls', testid: 'game-controls' });
  const resultBox = h('div', { class: 'result-box', testid: 'result', hidden: true });
  const after = h('div', { class: 'after', testid: 'after-game' });
  const reviewBox = h('section', { class: 'review panel-sub', testid: 'review', hidden: true, 'aria-live': 'polite' });
  // The review: null until asked for (or read), then the server's answer.
  let rv = null;
  let stopReview = () => {};
  let reviewLoaded = false;
  const moveList = new MoveList({ onGo: (k) => goTo(k) });
  const chatList = h('ul', { class: 'chat-list', testid: 'chat-list', 'aria-live': 'polite' });
  const chatInput = h('input', { type: 'text', maxlength: '500', autocomplete: 'off', testid: 'chat-input', 'aria-label': t('chat.input'), placeholder: t('chat.placeholder') });
  const chatForm = h('form', { class: 'chat-form', testid: 'chat-form', onsubmit: (ev) => { ev.preventDefault(); sendChat(); } },
    chatInput, h('button', { type: 'submit', class: 'btn small', testid: 'chat-send' }, t('chat.send')));
  const chatNote = h('p', { class: 'muted small', testid: 'chat-note' });
  const chat = h('section', { class: 'chat panel-sub', testid: 'chat', 'aria-label': t('chat.title') },
    h('h2', {}, t('chat.title')), chatList, chatForm, chatNote);
  const cards = { top: h('div', { class: 'player-card top' }), bottom: h('div', { class: 'player-card bottom' }) };
  const boardHolder = h('div', { class: 'board-holder', testid: 'board-holder' }, h('div', { class: 'board-placeholder' }));
  const toolbar = h('div', { class: 'board-toolbar' },
    h('button', { type: 'button', class: 'btn small', testid: 'flip', onclick: () => { if (board) { board.flip(); renderCards(); } } }, t('game.flip')));
  const announcer = h('div', { class: 'sr-only', 'aria-live': 'assertive', testid: 'announcer' });
  main.append(h('div', { class: 'game-layout', testid: 'game-page', 'data-game': id },
    h('div', { class: 'board-col' }, cards.top, boardHolder, cards.bottom, toolbar),
    h('aside', { class: 'side-col panel' }, info, status, offers, controls, resultBox, moveList.el, after, reviewBox, chat),
    announcer));
  boardHolder.addEventListener('board-announce', (ev) => { announcer.textContent = ev.detail; });

  const socket = new GameSocket(id, { onEvent, onStatus });
  const offKeys = replayKeys(moveList);
  const ticker = setInterval(tick, 100);

  Promise.all([boards(), variants(), rulesText()]).then(([bs, vs, rd]) => {
    st.boards = bs;
    st.variants = vs;
    st.rulesData = rd;
    socket.connect();
  }).catch((err) => setMessage(errorText(err)));

  function onStatus(state, attempt) {
    st.conn = state;
    st.attempt = attempt;
    if (state === 'reconnecting' && (attempt === 1 && !st.full || attempt === 3)) checkGame();
    renderStatus();
    renderControls();
  }

  // checkGame finds out why the socket does not open: no such game (stop),
  // or a token the server no longer takes (api forgets it, and the next
  // attempt watches without it).
  async function checkGame() {
    try {
      await api('GET', '/api/game/' + id, undefined, { auth: false });
      if (session()) await api('GET', '/api/account');
    } catch (err) {
      if (err.status === 404 && alive) {
        socket.close();
        replace(main, h('section', { class: 'panel narrow', testid: 'not-found' },
          h('h1', {}, t('game.notFound', { id })),
          h('p', {}, h('a', { href: '#/' }, t('notFound.home')))));
      }
    }
  }

  function onEvent(ev) {
    switch (ev.type) {
      case 'gameFull': {
        st.full = ev;
        st.chat = ev.chat || [];
        // Who this page plays, before the state draws the controls.
        const s = session();
        st.mySide = s && ev.white.name === s.name ? 'white' : s && ev.black.name === s.name ? 'black' : null;
        applyState(ev.state, true);
        setup();
        renderChat();
        break;
      }
      case 'gameState':
        if (!st.full) return;
        applyState(ev, true);
        break;
      case 'move':
        if (!st.full) return;
        onMoveEvent(ev);
        break;
      case 'chat':
        if (!st.chat.some((c) => c.version === ev.version)) {
          st.chat.push(ev);
          renderChat();
        }
        break;
      default:
    }
  }

  function setClocks(c, fresh) {
    st.clocks = c || null;
    if (c && fresh) st.skew = Date.now() - c.atMs;
  }

  function applyState(s, fresh) {
    const before = st.moves.length;
    const wasActive = st.status === 'active';
    const changed = s.moves.length !== st.moves.length || s.moves.some((m, i) => m !== st.moves[i]);
    st.moves = s.moves.slice();
    st.version = s.version;
    st.position = s.position;
    if (st.toMove !== s.toMove) st.turnSince = Date.now();
    st.toMove = s.toMove;
    st.status = s.status;
    st.result = s.result;
    st.method = s.method || '';
    st.offers = s.offers || [];
    st.deadlineMs = s.deadlineMs || 0;
    setClocks(s.clocks, fresh);
    if (changed) {
      st.positions = [];
      if (st.full) st.positions[0] = st.full.start;
      st.positions[st.moves.length] = st.position;
      if (st.cursor !== null && st.cursor > st.moves.length) st.cursor = null;
    }
    if (st.moves.length > before && before > 0) playSound(soundOf(st.moves[st.moves.length - 1]));
    if (wasActive && st.status !== 'active' && st.full && before > 0) playSound('end');
    refresh();
  }

  function onMoveEvent(ev) {
    if (ev.ply < st.moves.length) {
      if (st.moves[ev.ply] === ev.move) return; // seen already
      socket.resync();
      return;
    }
    if (ev.ply > st.moves.length) {
      socket.resync(); // a gap: get the game afresh
      return;
    }
    st.moves.push(ev.move);
    st.positions[st.moves.length] = ev.position;
    st.version = Math.max(st.version, ev.version);
    st.position = ev.position;
    st.toMove = ev.toMove;
    st.turnSince = Date.now();
    const wasActive = st.status === 'active';
    st.status = ev.status;
    st.result = ev.result;
    st.method = ev.method || '';
    if (ev.clocks) setClocks({ ...ev.clocks, running: ev.clocks.running || (ev.status === 'active' ? ev.toMove : '') }, false);
    st.offers = []; // a move clears every offer
    // Our own move sounded when it was made.
    if (!(st.lastSent && st.lastSent.ply === ev.ply)) playSound(soundOf(ev.move));
    if (wasActive && st.status !== 'active') playSound('end');
    refresh();
  }

  // setup draws the board and the fixed facts when the game first arrives.
  function setup() {
    const f = st.full;
    const s = session();
    st.mySide = s && f.white.name === s.name ? 'white' : s && f.black.name === s.name ? 'black' : null;
    const boardId = boardOf(f.rules || f.variant, st.variants);
    const data = st.boards[boardId] || st.boards.standard24;
    if (!board || boardData !== data) {
      boardData = data;
      board = new Board(data, {
        onMove: sendMove,
        dashedDiagonals: data.lines.some((l) => l.diagonal) && !diagonalMills(f.rules || f.variant, st.rulesData),
        flipped: st.mySide === 'black',
        label: t('board.label'),
      });
      replace(boardHolder, board.el);
    }
    app.title(`${f.white.name} – ${f.black.name}`);
    replace(info,
      h('div', { class: 'variant', testid: 'game-variant', 'data-variant': f.variant },
        h('a', { href: '#/rules/' + f.variant }, rulesName(f.variant, f.rules))),
      h('div', { class: 'muted' },
        controlText(f.control), ' · ', f.rated ? t('lobby.rated') : t('lobby.casual'),
        f.engineLevel ? ' · ' + t('game.engineLevel', { level: f.engineLevel }) : ''),
      st.mySide ? null : h('div', { class: 'muted', testid: 'spectating' }, t('game.spectating')));
    chatForm.hidden = !st.mySide;
    chatNote.textContent = st.mySide ? '' : t('chat.spectator');
    renderCards();
  }

  // refresh asks for the view of the position (legal moves, mills) and
  // renders everything.
  function refresh() {
    renderAll();
    const text = st.position;
    if (!text || st.viewFor === text) return;
    const seq = ++viewSeq;
    fetchPosition({ position: text }).then((v) => {
      if (!alive || seq !== viewSeq) return;
      st.view = v;
      st.viewFor = text;
      renderAll();
    }).catch((err) => {
      if (alive && seq === viewSeq) setMessage(errorText(err));
    });
  }

  function renderAll() {
    renderBoard();
    renderCards();
    renderStatus();
    renderOffers();
    renderControls();
    renderMoves();
    renderResult();
  }

  // canPlay reports whether this page may move now.
  function canPlay() {
    return !!st.mySide && st.status === 'active' && st.toMove === st.mySide && live() && st.conn !== 'closed';
  }

  function live() {
    return st.cursor === null || st.cursor >= st.moves.length;
  }

  function renderBoard() {
    if (!board || !st.full) return;
    const k = live() ? st.moves.length : st.cursor;
    const lastMove = k > 0 ? parseMove(st.moves[k - 1], boardData) : null;
    if (live()) {
      const v = st.view && st.viewFor === st.position ? st.view : null;
      const shown = v || parsePosition(st.position);
      // While the socket reconnects, moves go over HTTP (command), and
      // their ply keeps a stale board from playing a wrong move.
      const myTurn = canPlay();
      if (!myTurn && canPremove()) {
        // The opponent's turn: the board takes a premove among the moves
        // this side would have here.
        const pv = st.preView && st.preView.for === st.position ? st.preView.view : null;
        board.update(shown, { legal: pv ? pv.legal : [], interactive: !!pv, lastMove });
        board.setPremove(st.premove);
        if (!pv) loadPreView();
        return;
      }
      board.setPremove(null);
      board.update(shown, { legal: v && myTurn && !st.sending && !st.pendingConfirm ? v.legal : [], interactive: myTurn && !st.sending && !st.pendingConfirm, lastMove });
      if (myTurn && v && st.premove) playPremove(v);
      return;
    }
    const text = st.positions[k];
    if (!text) {
      loadPositions();
      return;
    }
    board.update(replayView(text), { lastMove });
  }

  // replayView: the parsed position, with the mills once the server told them.
  const millCache = new Map();
  function replayView(text) {
    const p = parsePosition(text);
    const cached = millCache.get(text);
    if (cached) return { ...p, inMills: cached };
    clearTimeout(replayView.timer);
    replayView.timer = setTimeout(() => {
      fetchPosition({ position: text }).then((v) => {
        millCache.set(text, v.inMills);
        if (alive && !live() && st.positions[st.cursor] === text) renderBoard();
      }).catch(() => {});
    }, 150);
    return p;
  }

  let loadingPositions = false;
  function loadPositions() {
    if (loadingPositions || !st.full) return;
    loadingPositions = true;
    const moves = st.moves.slice();
    fetchPosition({ position: st.full.start, moves }).then((v) => {
      loadingPositions = false;
      if (!alive) return;
      if (moves.length <= st.moves.length && moves.every((m, i) => m === st.moves[i])) {
        st.positions[0] = st.full.start;
        v.history.forEach((p, i) => { st.positions[i + 1] = p; });
        renderBoard();
      }
    }).catch((err) => {
      loadingPositions = false;
      setMessage(errorText(err));
    });
  }

  function goTo(k) {
    st.cursor = k >= st.moves.length ? null : k;
    renderBoard();
    renderMoves();
    renderStatus();
    renderResult();
  }

  function clockLeft(side) {
    const c = st.clocks;
    if (!c) return null;
    let ms = side === 'white' ? c.whiteMs : c.blackMs;
    const running = c.running || (st.status === 'active' ? st.toMove : '');
    if (running === side && st.status === 'active') ms -= Date.now() - st.skew - c.atMs;
    return Math.max(0, ms);
  }

  function clockText(ms) {
    if (ms === null) return '';
    const total = Math.floor(ms / 1000);
    const hh = Math.floor(total / 3600);
    const mm = Math.floor((total % 3600) / 60);
    const ss = total % 60;
    const pad = (n) => String(n).padStart(2, '0');
    if (hh > 0) return `${hh}:${pad(mm)}:${pad(ss)}`;
    if (ms < 10000) return `${pad(mm)}:${pad(ss)}.${Math.floor((ms % 1000) / 100)}`;
    return `${pad(mm)}:${pad(ss)}`;
  }

  function deadlineText() {
    if (!st.deadlineMs || st.status !== 'active') return '';
    const left = st.deadlineMs - Date.now();
    if (left <= 0) return t('game.deadlinePassed');
    const hours = Math.floor(left / 3600000);
    if (hours >= 48) return t('game.daysLeft', { n: Math.floor(hours / 24) });
    if (hours >= 1) return t('game.hoursLeft', { n: hours });
    return t('game.minutesLeft', { n: Math.max(1, Math.floor(left / 60000)) });
  }

  // tick updates the clocks (and the claim button, which waits for time).
  let lastClaim = false;
  function tick() {
    if (!st.full) return;
    for (const side of ['white', 'black']) {
      const el = main.querySelector(`[data-testid="clock-${side}"]`);
      if (!el) continue;
      const ms = clockLeft(side);
      if (ms === null) continue;
      el.textContent = clockText(ms);
      el.dataset.ms = String(Math.round(ms));
      el.classList.toggle('low', ms < 20000);
    }
    const c = canClaim();
    if (c !== lastClaim) {
      lastClaim = c;
      renderControls();
    }
  }

  function player(side) {
    return st.full ? st.full[side] : null;
  }

  function renderCards() {
    if (!st.full || !board) return;
    const bottomSide = board.flipped ? 'black' : 'white';
    const topSide = bottomSide === 'white' ? 'black' : 'white';
    fillCard(cards.top, topSide);
    fillCard(cards.bottom, bottomSide);
  }

  function fillCard(card, side) {
    const p = player(side);
    const k = live() ? st.moves.length : st.cursor;
    const text = live() ? st.position : st.positions[k];
    const v = live() && st.view && st.viewFor === st.position ? st.view : (text ? parsePosition(text) : null);
    const inHand = v ? v.inHand[side] : 0;
    const flying = live() && st.status === 'active' && st.view && st.viewFor === st.position && st.view.flying && st.view.flying[side];
    const owes = st.status === 'active' && v && v.owed ? v.owed[side] : 0;
    const toMove = st.status === 'active' && st.toMove === side;
    card.dataset.testid = 'player-' + side;
    card.className = 'player-card ' + (card === cards.top ? 'top' : 'bottom') + (toMove ? ' to-move' : '');
    replace(card,
      h('span', { class: 'stone-icon ' + side, 'aria-hidden': 'true' }),
      h('span', { class: 'pname' }, playerLink(p, { testid: 'player-name-' + side }),
        p && p.bot ? h('span', { class: 'badge' }, t('game.bot')) : null,
        p && p.rating ? h('span', { class: 'muted rating' }, ratingText(p)) : null,
        st.mySide === side ? h('span', { class: 'badge you' }, t('game.you')) : null),
      h('span', { class: 'card-extra' },
        inHand > 0 ? handSource(handStones(side, inHand), side) : h('span', { class: 'hand', testid: 'hand-' + side, 'data-count': 0 }),
        flying ? h('span', { class: 'badge flying', testid: 'flying-' + side }, t('game.flying')) : null,
        owes > 0 ? h('span', { class: 'badge owes', testid: 'owes-' + side, 'data-count': owes }, t('game.owes', { n: owes })) : null),
      st.clocks ? h('span', { class: 'clock' + (toMove ? ' running' : ''), testid: 'clock-' + side, 'data-ms': '' }, clockText(clockLeft(side))) : null);
  }

  // handSource lets the player drag a piece from their hand to the board.
  function handSource(el, side) {
    if (side === st.mySide && live() && board) board.handSource(el, side);
    return el;
  }

  function connText() {
    if (st.conn === 'reconnecting') return t('game.reconnecting', { n: st.attempt });
    if (st.conn === 'connecting') return t('game.connecting');
    if (st.conn === 'closed') return t('game.closed');
    return '';
  }

  function renderStatus() {
    let text = connText();
    const v = st.view && st.viewFor === st.position ? st.view : null;
    if (!text && st.full) {
      if (st.status !== 'active') text = resultText(st.result, st.method);
      else if (st.mySide && st.toMove === st.mySide) {
        text = t('game.yourTurn');
        if (v && v.legal.length && v.legal.every((m) => m.kind === 'pass')) text = t('game.mustPass');
        else if (v && v.legal.length && v.legal.every((m) => m.kind === 'remove')) text = removalText(v);
        else if (v && v.inHand[st.mySide] > 0 && v.legal.some((m) => m.kind === 'place')) text = t('game.yourTurnPlace', { n: v.inHand[st.mySide] });
        else if (v && v.flying[st.mySide]) text = t('game.yourTurnFly');
      } else if (st.mySide) {
        const n = v && v.removal === st.toMove ? Math.max(1, v.owed[st.toMove]) : 0;
        const name = player(st.toMove).name;
        text = n > 1 ? t('game.waitingRemovals', { name, n }) : n ? t('game.waitingRemoval', { name }) : t('game.waiting', { name });
      } else {
        text = v && v.removal === st.toMove ? t('game.toMoveRemoval', { side: sideName(st.toMove) }) : t('game.toMove', { side: sideName(st.toMove) });
      }
      if (v && v.marked && v.marked.length && live()) text += ' · ' + t('game.marked', { n: v.marked.length });
      if (!live()) text += ' · ' + t('game.viewing', { n: st.cursor });
      const dl = deadlineText();
      if (dl) text += ' · ' + dl;
    }
    if (st.message) text = st.message + (text ? ' · ' + text : '');
    status.textContent = text;
    status.dataset.connection = st.conn;
    status.dataset.gameStatus = st.status;
    status.dataset.toMove = st.toMove;
    status.classList.toggle('warn', st.conn === 'reconnecting' || !!st.message);
  }

  // removalText says what a turn of removals asks: how many are owed,
  // one's own pieces (el filja with no mill), or a blocked side's removal
  // before it moves (zhi qi).
  function removalText(v) {
    const owed = v.owed ? v.owed[st.mySide] : 0;
    if (owed === 0 && v.removal) return t('game.blockedRemoval');
    if (v.removesOwn) return t('game.chooseOwnRemoval');
    if (owed > 1) return t('game.chooseRemovals', { n: owed });
    return t('game.chooseRemoval');
  }

  let messageTimer = 0;
  function setMessage(text) {
    st.message = text;
    if (text) st.lastError = text;
    renderStatus();
    clearTimeout(messageTimer);
    messageTimer = setTimeout(() => { st.message = ''; renderStatus(); }, 6000);
  }

  function renderOffers() {
    const list = [];
    for (const o of st.offers) {
      const mine = st.mySide && o.by === st.mySide;
      const label = t(o.kind === 'draw' ? (mine ? 'offer.drawSent' : 'offer.drawFrom') : (mine ? 'offer.takebackSent' : 'offer.takebackFrom'), { side: sideName(o.by) });
      list.push(h('div', { class: 'offer', testid: 'offer-banner-' + o.kind, 'data-kind': o.kind, 'data-by': o.by },
        h('span', {}, label),
        st.mySide && !mine && st.status === 'active'
          ? h('span', { class: 'actions' },
            h('button', { type: 'button', class: 'btn small primary', testid: o.kind + '-accept', onclick: () => command({ type: o.kind, action: 'accept' }) }, t('offer.accept')),
            h('button', { type: 'button', class: 'btn small', testid: o.kind + '-decline', onclick: () => command({ type: o.kind, action: 'decline' }) }, t('offer.decline')))
          : null));
    }
    replace(offers, list);
    offers.hidden = list.length === 0;
  }

  function canClaim() {
    if (!st.mySide || st.status !== 'active' || st.toMove === st.mySide) return false;
    if (st.clocks) return clockLeft(st.toMove) <= 0;
    if (st.deadlineMs) return Date.now() >= st.deadlineMs;
    return Date.now() - st.turnSince >= CLAIM_AFTER_MS;
  }

  function renderControls() {
    if (!st.full || !st.mySide || st.status !== 'active') {
      replace(controls);
      controls.hidden = true;
      return;
    }
    controls.hidden = false;
    const v = st.view && st.viewFor === st.position ? st.view : null;
    const myTurn = st.toMove === st.mySide;
    const canPass = myTurn && v && v.legal.some((m) => m.kind === 'pass');
    const offered = (kind) => st.offers.some((o) => o.kind === kind && o.by === st.mySide);
    // A take-back undoes my last move (and the replies to it), so it needs
    // a ply at which I was to move: with turns alternating, one ply when the
    // opponent is to move, two when I am; one whenever I moved first. The
    // server checks exactly (a side may have moved twice running).
    const iStarted = parsePosition(st.full.start).toMove === st.mySide;
    const takebackPlies = myTurn && !iStarted ? 2 : 1;
    const btn = (tid, label, fn, extra = {}) => h('button', { type: 'button', class: 'btn small', testid: tid, onclick: fn, ...extra }, label);
    const corr = !!(st.full.control && st.full.control.forfeitDays > 0);
    const pending = st.pendingConfirm;
    replace(controls,
      pending ? h('div', { class: 'confirm-move', testid: 'confirm-bar', 'data-move': pending.text },
        h('span', {}, t('game.confirmMove', { move: pending.text })), ' ',
        btn('confirm-move', t('game.confirm'), () => { const m = st.pendingConfirm; sendMove(m); }, { class: 'btn small primary' }),
        btn('cancel-move', t('common.cancel'), () => { st.pendingConfirm = null; renderAll(); })) : null,
      st.premove ? h('div', { class: 'premove-bar', testid: 'premove-bar', 'data-move': st.premove.text },
        h('span', {}, t('game.premoveSet', { move: st.premove.text })), ' ',
        btn('premove-cancel', t('common.cancel'), cancelPremove)) : null,
      corr ? h('label', { class: 'check small' }, h('input', {
        type: 'checkbox', testid: 'confirm-toggle', checked: localStorage.getItem(CONFIRM_KEY) === 'on',
        onchange: (e) => { localStorage.setItem(CONFIRM_KEY, e.target.checked ? 'on' : 'off'); },
      }), h('span', {}, t('game.confirmToggle'))) : null,
      canPass ? btn('pass', t('game.pass'), () => {
        const m = v.legal.find((x) => x.kind === 'pass');
        sendMove(m);
      }, { class: 'btn small primary' }) : null,
      btn('offer-draw', offered('draw') ? t('game.drawOffered') : t('game.offerDraw'), () => command({ type: 'draw', action: 'offer' }), { disabled: offered('draw') }),
      btn('offer-takeback', offered('takeback') ? t('game.takebackAsked') : t('game.askTakeback'), () => command({ type: 'takeback', action: 'offer' }), { disabled: offered('takeback') || st.moves.length < takebackPlies }),
      st.confirmResign
        ? h('span', { class: 'confirm' },
          btn('resign-confirm', t('game.resignConfirm'), () => { st.confirmResign = false; command({ type: 'resign' }); }, { class: 'btn small danger' }),
          btn('resign-cancel', t('common.cancel'), () => { st.confirmResign = false; renderControls(); }))
        : btn('resign', t('game.resign'), () => {
          st.confirmResign = true;
          renderControls();
          setTimeout(() => { if (st.confirmResign) { st.confirmResign = false; renderControls(); } }, 5000);
        }),
      canClaim() ? btn('claim-victory', t('game.claim'), () => command({ type: 'claim-victory' }), { class: 'btn small primary' }) : null);
  }

  function renderMoves() {
    const cursor = live() ? st.moves.length : st.cursor;
    moveList.set(st.moves, cursor, st.full ? parsePosition(st.full.start).ply : 0);
    markMoves();
  }

  // soundOf is the sound of a move: a placement, a slide, a flight, a
  // removal, a capture, a pass.
  function soundOf(text) {
    return moveKind(text, (a, b) => adjacentNames(boardData, a, b));
  }

  // The review (after the game).
  // loadReview reads the review of the finished game, if one was asked
  // for, and follows it while it runs; requestReview asks for one.
  function loadReview() {
    followReviewOf(api('GET', `/api/game/${id}/review`, undefined, { auth: false }));
  }

  function requestReview() {
    followReviewOf(api('POST', `/api/game/${id}/review`, undefined, { auth: false }));
  }

  function followReviewOf(first) {
    stopReview();
    stopReview = followReview(first, () => `/api/game/${id}/review`, (x) => {
      if (!alive) return;
      rv = x && x.status === 'none' ? null : x;
      renderReview();
    });
  }

  function renderReview() {
    reviewBox.hidden = !st.full || st.status === 'active';
    if (reviewBox.hidden) return;
    const title = h('h2', {}, t('review.title'));
    if (!rv) {
      replace(reviewBox, title, h('p', { class: 'muted' }, t('review.intro')),
        h('button', { type: 'button', class: 'btn small primary', testid: 'review-request', onclick: requestReview }, t('review.request')));
      return;
    }
    if (rv.error) {
      replace(reviewBox, title, h('p', { class: 'form-error', testid: 'review-error' }, rv.error));
      return;
    }
    if (rv.status !== 'done') {
      replace(reviewBox, title,
        h('p', { class: 'muted' }, rv.status === 'queued' ? t('review.queued') : t('review.progress', { done: rv.done, total: rv.total })),
        h('progress', { testid: 'review-progress', max: String(rv.total), value: String(rv.done), 'data-done': rv.done, 'data-total': rv.total }));
      return;
    }
    replace(reviewBox, title, ...reviewDone(rv, { cursor: live() ? st.moves.length : st.cursor, onGo: goTo }));
    markMoves();
  }

  // markMoves puts the review's marks on the moves of the move list.
  function markMoves() {
    if (rv && rv.status === 'done') markMoveList(moveList, rv);
  }

  function renderResult() {
    if (!st.full || st.status === 'active') {
      resultBox.hidden = true;
      replace(after);
      reviewBox.hidden = true;
      return;
    }
    if (!reviewLoaded) {
      reviewLoaded = true;
      loadReview();
    } else if (rv && rv.status === 'done') {
      // The graph's current point follows the replay.
      showReviewCursor(reviewBox, live() ? st.moves.length : st.cursor);
    }
    resultBox.hidden = false;
    resultBox.dataset.result = st.result;
    replace(resultBox,
      h('div', { class: 'score' }, st.result),
      h('div', {}, resultText(st.result, st.method)));
    replace(after,
      h('a', { class: 'btn small', href: `/api/game/${id}/export`, download: `morris-${id}.pgn`, testid: 'export' }, t('game.export')),
      h('a', { class: 'btn small', href: `#/study/game/${id}`, testid: 'analyse' }, t('game.analyse')),
      st.full.engineLevel ? h('a', { class: 'btn small primary', href: '#/play', testid: 'play-again' }, t('game.playAgain')) : null);
  }

  function renderChat() {
    replace(chatList, st.chat.map((c) => h('li', { class: 'chat-msg', testid: 'chat-message', 'data-version': c.version },
      h('strong', {}, c.user), ' ', h('span', {}, c.text))));
    chatList.scrollTop = chatList.scrollHeight;
  }

  // command sends a command on the socket, or over HTTP when the socket is
  // down (the API takes the same commands).
  async function command(msg) {
    try {
      if (socket.ws && socket.ws.readyState === WebSocket.OPEN) await socket.send(msg);
      else await http(msg);
      return true;
    } catch (err) {
      setMessage(errorText(err));
      return false;
    }
  }

  function http(msg) {
    const base = `/api/game/${id}`;
    switch (msg.type) {
      case 'move': return api('POST', base + '/move', { move: msg.move, ply: msg.ply });
      case 'resign': return api('POST', base + '/resign');
      case 'claim-victory': return api('POST', base + '/claim-victory');
      case 'draw':
      case 'takeback': return api('POST', `${base}/${msg.type}/${msg.action}`);
      case 'chat': return api('POST', base + '/chat', { text: msg.text });
      default: return Promise.reject(new ApiError(400, 'unknown command'));
    }
  }

  // Premoves (real-time games): canPremove tells whether this page may
  // premove now.
  function canPremove() {
    return !!st.mySide && st.status === 'active' && st.toMove !== st.mySide && live() && !!(st.full && st.full.control && st.full.control.initialMs);
  }

  // loadPreView asks for this side's moves in the position shown, as if it
  // were its turn: the premoves it may make.
  function loadPreView() {
    const text = st.position;
    if (st.preView && st.preView.loading === text) return;
    const f = text.split(/\s+/);
    f[2] = st.mySide === 'white' ? 'w' : 'b';
    f[4] = '-'; // no removal owed by this side now
    st.preView = { loading: text };
    fetchPosition({ position: f.join(' ') }).then((v) => {
      if (!alive || st.position !== text) return;
      st.preView = { for: text, view: v };
      renderBoard();
    }).catch(() => {
      st.preView = { for: text, view: { legal: [] } };
    });
  }

  // premove keeps a move for the turn to come.
  function premove(m) {
    st.premove = m;
    playSound('premove');
    renderBoard();
    renderControls();
  }

  function cancelPremove() {
    st.premove = null;
    renderBoard();
    renderControls();
  }

  // playPremove plays the premove when the turn has come, if it is legal.
  function playPremove(v) {
    const want = st.premove;
    st.premove = null;
    const m = v.legal.find((x) => x.text === want.text);
    if (m) {
      sendMove(m);
      return;
    }
    setMessage(t('game.premoveDropped', { move: want.text }));
    renderControls();
  }

  // The confirmation of moves in correspondence games.
  const CONFIRM_KEY = 'morris.confirmCorrespondence';
  function confirmOn() {
    return localStorage.getItem(CONFIRM_KEY) === 'on' && !!st.full && !!st.full.control && st.full.control.forfeitDays > 0;
  }

  async function sendMove(m) {
    if (st.sending) return;
    if (canPremove() && st.toMove !== st.mySide) {
      premove(m);
      return;
    }
    if (confirmOn() && !st.pendingConfirm) {
      st.pendingConfirm = m;
      showOptimistic(m);
      renderControls();
      renderStatus();
      return;
    }
    st.pendingConfirm = null;
    const ply = st.moves.length;
    st.sending = true;
    st.lastSent = { ply, text: m.text };
    st.sent++;
    showOptimistic(m);
    const ok = await command({ type: 'move', move: m.text, ply });
    st.sending = false;
    if (!ok) {
      // Not played: show the position as it is, playable again.
      renderBoard();
      return;
    }
    if (st.moves.length === ply) {
      // The event has not come yet; it will redraw.
      return;
    }
    renderBoard();
  }

  // showOptimistic draws the move at once, before the server's event.
  function showOptimistic(m) {
    const v = st.view;
    if (!v || !board) return;
    const side = st.mySide;
    const other = side === 'white' ? 'black' : 'white';
    const pieces = { white: v.pieces.white.slice(), black: v.pieces.black.slice() };
    const marked = (v.marked || []).slice();
    // A mark (da san qi) leaves the piece on its point; a removal of one's
    // own pieces (el filja) takes from the mover.
    const marks = m.kind === 'place' && m.captures.length > 0 && placingCaptures(st.full.rules || st.full.variant, st.rulesData) === 'mark';
    const victim = m.kind === 'remove' && v.removesOwn ? side : other;
    if (m.from >= 0) pieces[side] = pieces[side].filter((p) => p !== m.from);
    if (m.to >= 0) pieces[side].push(m.to);
    pieces[victim] = pieces[victim].filter((p) => !m.captures.includes(p));
    if (marks) marked.push(...m.captures);
    board.update({ pieces, marked, inMills: { white: [], black: [] }, toMove: other }, { lastMove: m });
    playSound(soundOf(m.text));
  }

  function sendChat() {
    const text = chatInput.value.trim();
    if (!text) return;
    command({ type: 'chat', text }).then((ok) => { if (ok) chatInput.value = ''; });
  }

  app.debug(() => ({
    id,
    version: st.version,
    moves: st.moves.slice(),
    ply: st.moves.length,
    status: st.status,
    result: st.result,
    method: st.method,
    toMove: st.toMove,
    position: st.position,
    mySide: st.mySide,
    connection: st.conn,
    cursor: st.cursor === null ? st.moves.length : st.cursor,
    legal: canPlay() && !st.sending && st.view && st.viewFor === st.position ? st.view.legal.map((m) => m.text) : [],
    sent: st.sent,
    lastError: st.lastError,
    offers: st.offers.slice(),
    chat: st.chat.map((c) => ({ user: c.user, text: c.text })),
    clocks: st.clocks ? { white: clockLeft('white'), black: clockLeft('black') } : null,
    animations: board ? Number(board.el.dataset.animations || 0) : 0,
    premove: st.premove ? st.premove.text : null,
    pendingConfirm: st.pendingConfirm ? st.pendingConfirm.text : null,
    review: rv ? { status: rv.status, done: rv.done, total: rv.total, marks: rv.moves ? rv.moves.filter((m) => m.mark).length : 0 } : null,
  }), { drop: () => socket.drop() });

  return () => {
    alive = false;
    socket.close();
    offKeys();
    clearInterval(ticker);
    clearTimeout(messageTimer);
    stopReview();
  };
}
