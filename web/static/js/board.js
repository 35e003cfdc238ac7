// The board: SVG drawn from the board data of GET /api/boards, pieces from
// a position view, and the moves of its legal list made by click or tap,
// by drag (pointer events) and by keyboard (every point is focusable;
// Enter or Space acts as a click, the arrow keys move to the nearest point
// in that direction).
//
// A move is chosen in steps: a placement is one click on an empty point; a
// slide or a flight is a click on the piece (its targets are marked) and
// one on the target, or a drag; when the move closes a mill the pieces it
// may take are marked and a click on each chooses them (a mark, da san
// qi, is chosen the same way); a removal (Shah, the removals owed when
// placing ends, a blocked side's) is a click on the piece to remove.
// onMove gets the legal move. Marked pieces (placing-captures=mark) are
// drawn grey with a cross: on the board, of no side, out of play.

import { h, s } from './dom.js';
import { t } from './i18n.js';

const UNIT = 100; // grid spacing in SVG units
const MARGIN = 80; // room for the coordinates
const DRAG_START = 8; // pixels before a press becomes a drag
const FULL = 6 * UNIT + 2 * MARGIN; // the drawn width of a 7x7 board (the 24-point boards)

export class Board {
  // data: a board of GET /api/boards. opts: {onMove, dashedDiagonals,
  // flipped, label}.
  constructor(data, opts = {}) {
    this.data = data;
    this.onMove = opts.onMove || (() => {});
    this.dashed = !!opts.dashedDiagonals;
    this.flipped = !!opts.flipped;
    this.static = !!opts.static; // a picture: no focus, no clicks
    this.cells = data.points.map(() => null);
    this.marked = new Set();
    this.inMills = new Set();
    this.legal = [];
    this.interactive = false;
    this.lastMove = null;
    this.selected = -1;
    this.pending = null; // {candidates, chosen: Set, move} while captures are chosen
    this.drag = null;
    this.suppressClick = 0;

    const w = (data.width - 1) * UNIT + 2 * MARGIN;
    const hgt = (data.height - 1) * UNIT + 2 * MARGIN;
    this.svg = s('svg', {
      class: 'board-svg', viewBox: `0 0 ${w} ${hgt}`, role: opts.static ? 'img' : 'group',
      'aria-label': opts.label || t('board.label'), testid: 'board-svg',
    });
    this.el = h('div', { class: 'board', testid: 'board', 'data-board': data.id }, this.svg);
    // Every board is drawn at the spacing of its grid (UNIT), and scaled to
    // the width it is given: a small board (3x3 or 5x5 points) would then
    // show pieces twice the size of the 24-point board's. It takes a share
    // of the width instead, at least 60%, centred.
    const share = Math.min(1, Math.max(0.6, w / FULL));
    if (share < 1) {
      this.el.style.maxWidth = `${Math.round(share * 100)}%`;
      this.el.style.marginInline = 'auto';
    }
    this.build();
    if (!this.static) this.listen();
  }

  xy(i) {
    const p = this.data.points[i];
    const x = this.flipped ? this.data.width - 1 - p.x : p.x;
    const y = this.flipped ? p.y : this.data.height - 1 - p.y;
    return [MARGIN + x * UNIT, MARGIN + y * UNIT];
  }

  build() {
    const svg = this.svg;
    const w = (this.data.width - 1) * UNIT + 2 * MARGIN;
    const hgt = (this.data.height - 1) * UNIT + 2 * MARGIN;
    svg.append(s('rect', { class: 'board-bg', x: 0, y: 0, width: w, height: hgt, rx: 18 }));
    this.linesG = s('g', { class: 'board-lines' });
    this.coordsG = s('g', { class: 'board-coords', 'aria-hidden': 'true' });
    this.pointsG = s('g', { class: 'board-points' });
    this.millG = s('g', { class: 'board-mills', 'pointer-events': 'none' });
    this.hintG = s('g', { class: 'board-hint', 'pointer-events': 'none', testid: 'board-hint' });
    this.dragG = s('g', { class: 'board-drag', 'pointer-events': 'none' });
    svg.append(this.linesG, this.millG, this.coordsG, this.pointsG, this.hintG, this.dragG);
    // Diagonal edges: those between two points of a diagonal line.
    const diag = new Set();
    for (const l of this.data.lines) {
      if (!l.diagonal) continue;
      diag.add(key(l.points[0], l.points[1]));
      diag.add(key(l.points[1], l.points[2]));
    }
    this.edges = this.data.edges.map(([a, b]) => ({ a, b, diagonal: diag.has(key(a, b)) }));
    this.pointEls = this.data.points.map((p, i) => {
      const g = s('g', {
        class: 'pt', tabindex: this.static ? undefined : (i === 0 ? 0 : -1), role: this.static ? undefined : 'button',
        testid: 'point-' + p.name, 'data-point': i, 'data-name': p.name, 'data-piece': '',
      },
      s('circle', { class: 'hit', r: 44 }),
      s('circle', { class: 'spot', r: 10 }),
      s('circle', { class: 'mark', r: 40 }),
      s('circle', { class: 'piece', r: 31 }),
      s('circle', { class: 'piece-inner', r: 20 }),
      s('circle', { class: 'target', r: 14 }),
      s('path', { class: 'cross', d: 'M-14 -14L14 14M14 -14L-14 14' }),
      s('path', { class: 'x-mark', d: 'M-15 -15L15 15M15 -15L-15 15' }),
      s('circle', { class: 'focus', r: 46 }));
      this.pointsG.append(g);
      return g;
    });
    this.layout();
  }

  layout() {
    const lines = [];
    for (const e of this.edges) {
      const [x1, y1] = this.xy(e.a);
      const [x2, y2] = this.xy(e.b);
      lines.push(s('line', { x1, y1, x2, y2, class: e.diagonal && this.dashed ? 'edge dashed' : (e.diagonal ? 'edge diagonal' : 'edge') }));
    }
    this.linesG.replaceChildren(...lines);
    this.pointEls.forEach((g, i) => {
      const [x, y] = this.xy(i);
      g.setAttribute('transform', `translate(${x} ${y})`);
    });
    this.drawMills();
    // Coordinates: files under the board, ranks on its left.
    const files = new Map();
    const ranks = new Map();
    for (const p of this.data.points) {
      files.set(p.x, p.name[0]);
      ranks.set(p.y, p.name.slice(1));
    }
    const labels = [];
    const hgt = (this.data.height - 1) * UNIT + 2 * MARGIN;
    for (const [x, name] of files) {
      const sx = MARGIN + (this.flipped ? this.data.width - 1 - x : x) * UNIT;
      labels.push(s('text', { x: sx, y: hgt - 22, 'text-anchor': 'middle' }, name));
    }
    for (const [y, name] of ranks) {
      const sy = MARGIN + (this.flipped ? y : this.data.height - 1 - y) * UNIT;
      labels.push(s('text', { x: 26, y: sy + 8, 'text-anchor': 'middle' }, name));
    }
    this.coordsG.replaceChildren(...labels);
  }

  // setHint shows a suggested move (the engine's best): an arrow for a
  // slide, a ring for a placement, crosses on the pieces it takes.
  setHint(m) {
    this.hint = m || null;
    this.hintG.dataset.move = (m && m.text) || '';
    this.drawHint();
  }

  drawHint() {
    const m = this.hint;
    const out = [];
    if (m) {
      if (m.from >= 0 && m.to >= 0) {
        const [x1, y1] = this.xy(m.from);
        const [x2, y2] = this.xy(m.to);
        const len = Math.hypot(x2 - x1, y2 - y1) || 1;
        const ux = (x2 - x1) / len;
        const uy = (y2 - y1) / len;
        const ex = x2 - ux * 12; // the tip, just short of the target's centre
        const ey = y2 - uy * 12;
        const bx = ex - ux * 34; // the base of the head
        const by = ey - uy * 34;
        out.push(s('line', { class: 'hint-line', x1, y1, x2: bx, y2: by }));
        out.push(s('path', { class: 'hint-head', d: `M${ex} ${ey} L${bx - uy * 20} ${by + ux * 20} L${bx + uy * 20} ${by - ux * 20}Z` }));
      } else if (m.to >= 0) {
        const [x, y] = this.xy(m.to);
        out.push(s('circle', { class: 'hint-ring', cx: x, cy: y, r: 38 }));
      }
      for (const c of m.captures || []) {
        const [x, y] = this.xy(c);
        out.push(s('circle', { class: 'hint-capture', cx: x, cy: y, r: 38 }));
      }
    }
    this.hintG.replaceChildren(...out);
  }

  setFlipped(f) {
    if (this.flipped === !!f) return;
    this.flipped = !!f;
    this.layout();
    if (this.hint) this.drawHint();
  }

  flip() {
    this.setFlipped(!this.flipped);
  }

  // update shows a position: view has pieces {white, black}, marked (the
  // marked points), inMills {white, black}; opts: legal (moves that may be
  // made), interactive, lastMove {from, to, captures}.
  update(view, opts = {}) {
    const before = this.cells;
    this.cells = this.data.points.map(() => null);
    for (const c of ['white', 'black']) for (const i of (view.pieces && view.pieces[c]) || []) this.cells[i] = c;
    this.marked = new Set(view.marked || []);
    this.inMills = new Set([...((view.inMills && view.inMills.white) || []), ...((view.inMills && view.inMills.black) || [])]);
    this.legal = opts.legal || [];
    this.interactive = !!opts.interactive && this.legal.length > 0;
    this.lastMove = opts.lastMove || null;
    this.sideToMove = view.toMove || 'white';
    // The same position and moves again (a redraw): keep what the user
    // is in the middle of choosing.
    const shown = this.cells.join() + '|' + [...this.marked].join() + '|' + this.legal.map((m) => m.text).join();
    const same = this.interactive && shown === this.shownKey;
    this.shownKey = shown;
    if (!same) {
      this.selected = -1;
      this.pending = null;
      this.cancelDrag();
    }
    this.render();
    if (opts.lastMove && !this.static) this.animate(before, opts.lastMove);
    // The page's blind mode (blind.js) reads the page again on each.
    this.el.dispatchEvent(new CustomEvent('board-update', { bubbles: true }));
  }

  // animate shows a move that took the board from cells before to the
  // cells now: a sliding or flying piece travels from its point, a placed
  // piece grows in, a captured one fades out. Nothing moves when the
  // change is not that move (a jump in a replay), and nothing at all for
  // a user who asks for reduced motion. data-animations counts the moves
  // shown so (for tests).
  animate(before, m) {
    if (!before || before.length !== this.cells.length || !this.pointEls[0].animate) return;
    if (window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches) return;
    const to = m.to;
    if (to === undefined || to < 0) return;
    const side = this.cells[to];
    if (!side || before[to] === side) return;
    // Only opacity changes on the points themselves, so that their boxes
    // (what a click or a tap finds) never move; the travelling piece is a
    // ghost in the drag layer, which takes no pointer.
    let ok = false;
    const parts = [...this.pointEls[to].querySelectorAll('.piece, .piece-inner')];
    if (m.from >= 0) {
      if (before[m.from] !== side || this.cells[m.from]) return;
      const [fx, fy] = this.xy(m.from);
      const [tx, ty] = this.xy(to);
      const ghost = s('circle', { class: 'piece ghost ' + side, cx: fx, cy: fy, r: 31 });
      this.dragG.append(ghost);
      ghost.animate([{ transform: 'translate(0px, 0px)' }, { transform: `translate(${tx - fx}px, ${ty - fy}px)` }], { duration: 220, easing: 'ease-out' })
        .onfinish = () => ghost.remove();
      for (const el of parts) el.animate([{ opacity: 0 }, { opacity: 0, offset: 0.9 }, { opacity: 1 }], { duration: 220 });
      ok = true;
    } else if (!before[to]) {
      for (const el of parts) el.animate([{ opacity: 0.15 }, { opacity: 1 }], { duration: 180, easing: 'ease-out' });
      ok = true;
    }
    for (const c of m.captures || []) {
      if (!before[c] || this.cells[c]) continue;
      const [x, y] = this.xy(c);
      const ghost = s('circle', { class: 'piece ghost ' + before[c], cx: x, cy: y, r: 31 });
      this.dragG.append(ghost);
      ghost.animate([{ opacity: 0.9 }, { opacity: 0 }], { duration: 300, easing: 'ease-in' }).onfinish = () => ghost.remove();
    }
    if (ok) this.el.dataset.animations = String(Number(this.el.dataset.animations || 0) + 1);
  }

  // drawMills marks the mills standing: the lines whose three points hold
  // pieces of one colour that the server counts in mills.
  drawMills() {
    const out = [];
    if (!this.pending) {
      for (const l of this.data.lines) {
        const [a, b, c] = l.points;
        const col = this.cells[a];
        if (!col || this.cells[b] !== col || this.cells[c] !== col) continue;
        if (!l.points.every((p) => this.inMills.has(p))) continue;
        if (l.diagonal && this.dashed) continue;
        const [x1, y1] = this.xy(a);
        const [x2, y2] = this.xy(c);
        out.push(s('line', { class: 'mill-line ' + col, x1, y1, x2, y2 }));
      }
    }
    this.millG.replaceChildren(...out);
  }

  // freeze stops interaction until the next update (a position is loading).
  freeze() {
    if (!this.interactive && !this.pending && this.selected < 0) return;
    this.interactive = false;
    this.selected = -1;
    this.pending = null;
    this.shownKey = '';
    this.cancelDrag();
    this.render();
  }

  // removals are the legal moves that only take a piece (Shah).
  removals() {
    return this.legal.filter((m) => m.kind === 'remove');
  }

  slidesFrom(p) {
    return this.legal.filter((m) => m.kind === 'slide' && m.from === p);
  }

  placesAt(p) {
    return this.legal.filter((m) => m.kind === 'place' && m.to === p);
  }

  // targets returns the points a click may act on now, and how.
  marks() {
    const targets = new Set();
    const capturable = new Set();
    const movable = new Set();
    if (!this.interactive) return { targets, capturable, movable };
    if (this.pending) {
      for (const m of this.eligible()) for (const c of m.captures) if (!this.pending.chosen.has(c)) capturable.add(c);
      return { targets, capturable, movable };
    }
    for (const m of this.legal) {
      if (m.kind === 'remove') for (const c of m.captures) capturable.add(c);
      if (m.kind === 'slide') movable.add(m.from);
    }
    if (this.selected >= 0) {
      for (const m of this.slidesFrom(this.selected)) targets.add(m.to);
    } else {
      for (const m of this.legal) if (m.kind === 'place') targets.add(m.to);
    }
    return { targets, capturable, movable };
  }

  // render sets the classes and labels of every point.
  render() {
    const { targets, capturable, movable } = this.marks();
    const lm = this.lastMove;
    const shown = this.cells.slice();
    if (this.pending) {
      const m = this.pending.candidates[0];
      if (m.from >= 0) shown[m.from] = null;
      if (m.to >= 0) shown[m.to] = this.pending.side;
    }
    this.pointEls.forEach((g, i) => {
      const marked = this.marked.has(i) && !shown[i];
      const piece = shown[i] || (marked ? 'marked' : '');
      const cls = ['pt'];
      if (piece) cls.push('has-piece', piece);
      if (this.inMills.has(i) && !this.pending) cls.push('in-mill');
      if (targets.has(i)) cls.push('is-target', this.selected >= 0 ? 'slide' : 'place');
      if (capturable.has(i)) cls.push('capturable');
      if (this.pending && this.pending.chosen.has(i)) cls.push('chosen');
      if (movable.has(i)) cls.push('movable');
      if (i === this.selected) cls.push('selected');
      if (this.pending && this.pending.candidates[0].to === i) cls.push('selected');
      if (lm && lm.to === i) cls.push('last-to');
      if (lm && lm.from === i) cls.push('last-from');
      if (lm && lm.captures && lm.captures.includes(i) && !piece) cls.push('last-capture');
      if (lm && lm.captures && lm.captures.includes(i) && marked) cls.push('last-mark');
      if (this.drag && this.drag.moved && this.drag.from === i) cls.push('dragging');
      if (this.premoveKey && this.premoveKey.split(',').map(Number).includes(i)) cls.push('premove');
      g.setAttribute('class', cls.join(' '));
      g.setAttribute('data-piece', piece);
      let label = t('board.point', { name: this.data.points[i].name, state: piece ? t('board.' + piece + 'Piece') : t('board.empty') });
      if (i === this.selected) label += ', ' + t('board.selected');
      else if (targets.has(i)) label += ', ' + t('board.target');
      else if (capturable.has(i)) label += ', ' + t('board.capturable');
      if (!this.static) g.setAttribute('aria-label', label);
    });
    this.drawMills();
    this.el.classList.toggle('interactive', this.interactive);
    this.el.classList.toggle('choosing-capture', !!this.pending);
  }

  // eligible: the pending candidates whose captures include every chosen piece.
  eligible() {
    const chosen = this.pending.chosen;
    return this.pending.candidates.filter((m) => [...chosen].every((c) => m.captures.includes(c)));
  }

  // resolve plays a move among candidates (same from and to), or starts
  // choosing the pieces to take.
  resolve(candidates) {
    if (candidates.length === 0) return;
    const plain = candidates.find((m) => m.captures.length === 0);
    if (candidates.length === 1 && candidates[0].captures.length === 0) {
      this.play(candidates[0]);
      return;
    }
    if (plain && candidates.every((m) => m.captures.length === 0)) {
      this.play(plain);
      return;
    }
    const side = this.cells[candidates[0].from] || this.sideToMove || 'white';
    this.pending = { candidates, chosen: new Set(), side };
    this.selected = -1;
    this.render();
    this.announce(t('board.chooseCapture'));
  }

  choose(p) {
    const chosen = this.pending.chosen;
    const els = this.eligible();
    if (!els.some((m) => m.captures.includes(p)) || chosen.has(p)) {
      // A click elsewhere cancels the move.
      this.pending = null;
      this.render();
      return;
    }
    chosen.add(p);
    const now = this.eligible();
    const exact = now.find((m) => m.captures.length === chosen.size);
    const more = now.some((m) => m.captures.length > chosen.size);
    if (exact && !more) {
      this.play(exact);
      return;
    }
    this.render();
  }

  play(m) {
    this.selected = -1;
    this.pending = null;
    this.interactive = false; // until the next position comes
    this.shownKey = '';
    this.render();
    this.onMove(m);
  }

  // setPremove marks a premove on the board (its from and to points), or
  // none.
  setPremove(m) {
    const key = m ? `${m.from},${m.to}` : '';
    if (this.premoveKey === key) return;
    this.premoveKey = key;
    this.pointEls.forEach((g, i) => {
      g.classList.toggle('premove', !!m && (i === m.from || i === m.to));
    });
  }

  // setEditor makes the board an editor (the study page's set-up): a
  // click, a tap or Enter on a point calls fn(point) instead of playing;
  // null ends it.
  setEditor(fn) {
    this.editor = fn;
    this.selected = -1;
    this.pending = null;
    this.el.classList.toggle('editing', !!fn);
  }

  // act is a click, a tap or Enter on point p.
  act(p) {
    if (this.editor) {
      this.editor(p);
      return;
    }
    if (!this.interactive) return;
    if (this.pending) {
      this.choose(p);
      return;
    }
    const rem = this.removals().filter((m) => m.captures.includes(p));
    if (rem.length) {
      this.play(rem[0]);
      return;
    }
    if (this.selected >= 0) {
      const slides = this.slidesFrom(this.selected).filter((m) => m.to === p);
      if (slides.length) {
        this.resolve(slides);
        return;
      }
      if (p === this.selected) {
        this.selected = -1;
        this.render();
        return;
      }
    }
    if (this.slidesFrom(p).length) {
      this.selected = p;
      this.render();
      const name = (i) => this.data.points[i].name;
      this.announce(t('board.selectedTargets', { name: name(p), targets: [...new Set(this.slidesFrom(p).map((m) => name(m.to)))].join(', ') }));
      return;
    }
    const places = this.placesAt(p);
    if (places.length) {
      this.selected = -1;
      this.resolve(places);
      return;
    }
    if (this.selected >= 0) {
      this.selected = -1;
      this.render();
    }
  }

  // cancel drops a selection or a capture being chosen (Escape).
  cancel() {
    this.selected = -1;
    this.pending = null;
    this.cancelDrag();
    this.render();
  }

  announce(text) {
    this.el.dispatchEvent(new CustomEvent('board-announce', { detail: text, bubbles: true }));
  }

  pointOf(target) {
    const g = target && target.closest && target.closest('[data-point]');
    return g ? Number(g.dataset.point) : -1;
  }

  // svgPoint converts client coordinates to the SVG's.
  svgPoint(cx, cy) {
    const m = this.svg.getScreenCTM();
    if (!m) return [0, 0];
    const p = new DOMPoint(cx, cy).matrixTransform(m.inverse());
    return [p.x, p.y];
  }

  nearest(cx, cy, within) {
    const [x, y] = this.svgPoint(cx, cy);
    let best = -1;
    let bd = within * within;
    this.data.points.forEach((_, i) => {
      const [px, py] = this.xy(i);
      const d = (px - x) ** 2 + (py - y) ** 2;
      if (d <= bd) {
        bd = d;
        best = i;
      }
    });
    return best;
  }

  listen() {
    const svg = this.svg;
    svg.addEventListener('click', (ev) => {
      if (Date.now() - this.suppressClick < 500) return;
      let p = this.pointOf(ev.target);
      if (p < 0 && ev.clientX !== undefined) p = this.nearest(ev.clientX, ev.clientY, 45);
      if (p >= 0) this.act(p);
      // A pointer leaves no focus on the point, so that the page's keys
      // (the replay arrows) keep working; the keyboard keeps its focus.
      const f = document.activeElement;
      if (f && f !== this.svg && this.svg.contains(f) && f.blur) f.blur();
    });
    svg.addEventListener('pointerdown', (ev) => {
      if (!this.interactive || this.pending || (ev.button !== undefined && ev.button !== 0)) return;
      const p = this.pointOf(ev.target);
      if (p < 0 || !this.slidesFrom(p).length) return;
      this.startDrag(ev, p, this.cells[p]);
    });
    svg.addEventListener('keydown', (ev) => {
      const p = this.pointOf(ev.target);
      if (p < 0) return;
      if (ev.key === 'Enter' || ev.key === ' ') {
        ev.preventDefault();
        this.act(p);
        const g = this.pointEls[p];
        if (document.activeElement !== g) g.focus();
        return;
      }
      if (ev.key === 'Escape') {
        this.cancel();
        return;
      }
      const dir = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[ev.key];
      if (!dir) return;
      ev.preventDefault();
      ev.stopPropagation();
      const n = this.neighbour(p, dir);
      if (n >= 0) this.focusPoint(n);
    });
  }

  // startDrag follows a press that may become a drag: of the piece on
  // point from, or (from = -1) of a piece from the hand of side. The window
  // gets the moves, so a drag may start outside the board.
  startDrag(ev, from, side) {
    this.cancelDrag();
    const d = { id: ev.pointerId, from, side, x: ev.clientX, y: ev.clientY, moved: false };
    const move = (e) => {
      if (e.pointerId !== d.id || this.drag !== d) return;
      if (!d.moved && Math.hypot(e.clientX - d.x, e.clientY - d.y) < DRAG_START) return;
      if (!d.moved) {
        d.moved = true;
        if (from >= 0) this.selected = from;
        d.ghost = s('circle', { class: 'piece ghost ' + side, r: 34 });
        this.dragG.replaceChildren(d.ghost);
        this.render();
      }
      const [x, y] = this.svgPoint(e.clientX, e.clientY);
      d.ghost.setAttribute('cx', x);
      d.ghost.setAttribute('cy', y);
      e.preventDefault();
    };
    const end = (e) => {
      if (e.pointerId !== d.id) return;
      d.stop();
      if (this.drag !== d) return;
      this.drag = null;
      this.dragG.replaceChildren();
      if (!d.moved) return; // a click: the click event does the rest
      this.suppressClick = Date.now();
      const to = e.type === 'pointerup' ? this.nearest(e.clientX, e.clientY, 50) : -1;
      const moves = to < 0 ? [] : from >= 0 ? this.slidesFrom(from).filter((m) => m.to === to) : this.placesAt(to);
      if (moves.length) {
        if (from >= 0) this.selected = from;
        this.resolve(moves);
      } else {
        if (from >= 0) this.selected = from; // dropped off target: keep the piece selected
        this.render();
      }
    };
    d.stop = () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', end);
      window.removeEventListener('pointercancel', end);
    };
    window.addEventListener('pointermove', move, { passive: false });
    window.addEventListener('pointerup', end);
    window.addEventListener('pointercancel', end);
    this.drag = d;
  }

  // handSource makes el (a pile of pieces in hand, beside the board) a
  // place to drag a piece from onto an empty point.
  handSource(el, side) {
    el.classList.add('hand-source');
    el.addEventListener('pointerdown', (ev) => {
      if (!this.interactive || this.pending || side !== this.sideToMove || (ev.button !== undefined && ev.button !== 0)) return;
      if (!this.legal.some((m) => m.kind === 'place')) return;
      ev.preventDefault();
      this.startDrag(ev, -1, side);
    });
  }

  focusPoint(i) {
    for (const g of this.pointEls) g.setAttribute('tabindex', '-1');
    const g = this.pointEls[i];
    g.setAttribute('tabindex', '0');
    g.focus();
  }

  // neighbour: the nearest point in a screen direction, preferring points
  // straight along it.
  neighbour(p, [dx, dy]) {
    const [x0, y0] = this.xy(p);
    let best = -1;
    let bs = Infinity;
    this.data.points.forEach((_, i) => {
      if (i === p) return;
      const [x, y] = this.xy(i);
      const along = (x - x0) * dx + (y - y0) * dy;
      if (along <= 0) return;
      const across = Math.abs((x - x0) * dy - (y - y0) * dx);
      const score = along + 2.5 * across;
      if (score < bs) {
        bs = score;
        best = i;
      }
    });
    return best;
  }

  cancelDrag() {
    if (this.drag && this.drag.stop) this.drag.stop();
    this.drag = null;
    if (this.dragG) this.dragG.replaceChildren();
  }
}

function key(a, b) {
  return a < b ? a + ',' + b : b + ',' + a;
}

// handStones draws the pieces in hand of a side as small stones.
export function handStones(side, count) {
  const shown = Math.min(count, 12);
  const stones = [];
  for (let i = 0; i < shown; i++) stones.push(h('span', { class: 'stone ' + side }));
  return h('span', { class: 'hand', testid: 'hand-' + side, 'data-count': count, title: t('game.inHand', { n: count }) },
    h('span', { class: 'stones', 'aria-hidden': 'true' }, stones),
    h('span', { class: 'hand-count' }, t('game.inHand', { n: count })));
}
