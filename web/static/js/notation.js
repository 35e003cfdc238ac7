// Reading the server's texts on the client: position text (for replays,
// where only the text of each position is known), move text (to mark the
// last move), rules strings, and move numbers as records write them.

// parsePosition reads "nine-mens-morris W2B4/8/8 b 8,8 - 0 2": the pieces by
// colour (point indices in board order), the marked points (X: pieces
// marked by a mill while placing, of no colour, under
// placing-captures=mark), side to move, pieces in hand, the removals each
// side owes (state entries xw, xb2) and whether they take the remover's
// own pieces (own), ply.
export function parsePosition(text) {
  const f = text.trim().split(/\s+/);
  const list = parseRuns(f[1] || '');
  const pieces = { white: [], black: [] };
  const marked = [];
  list.forEach((c, i) => {
    if (c === 'marked') marked.push(i);
    else if (c) pieces[c].push(i);
  });
  const [wh, bh] = (f[3] || '0,0').split(',').map(Number);
  const owed = { white: 0, black: 0 };
  let removesOwn = false;
  for (const e of (f[4] || '-').split(',')) {
    const m = /^x([wb])(\d*)$/.exec(e);
    if (m) owed[m[1] === 'w' ? 'white' : 'black'] = Number(m[2] || 1);
    if (e === 'own') removesOwn = true;
  }
  return {
    rules: f[0],
    pieces,
    marked,
    toMove: f[2] === 'b' ? 'black' : 'white',
    inHand: { white: wh || 0, black: bh || 0 },
    owed,
    removesOwn,
    ply: Number(f[6] || 0),
  };
}

// writePosition writes a position text (the server's format, see
// parsePosition) from a board set up by hand: cells in board order
// ('white', 'black' or null), the side to move, the pieces in hand, no
// removal owed, and ply the plies played to reach it.
export function writePosition({ rules, cells, toMove, inHand, ply }) {
  let field = '';
  let run = 0;
  cells.forEach((c, i) => {
    if (c) {
      if (run) field += run;
      run = 0;
      field += c === 'white' ? 'W' : 'B';
    } else {
      run++;
    }
    if ((i + 1) % 8 === 0 || i === cells.length - 1) {
      if (run) field += run;
      run = 0;
      if (i < cells.length - 1) field += '/';
    }
  });
  return `${rules} ${field} ${toMove === 'black' ? 'b' : 'w'} ${inHand.white},${inHand.black} - 0 ${ply}`;
}

// parseRuns reads the board field: a cell per point, 'white', 'black',
// 'marked' or null, in board order (the slashes between groups of eight
// points are skipped).
function parseRuns(field) {
  const cells = [];
  const re = /([WBXwbx])|(\d+)/g;
  let m;
  while ((m = re.exec(field))) {
    if (m[1]) cells.push({ W: 'white', B: 'black', X: 'marked' }[m[1].toUpperCase()]);
    else for (let i = 0; i < Number(m[2]); i++) cells.push(null);
  }
  return cells;
}

// pointIndex maps point names to indices for a board.
export function pointIndex(board) {
  const m = new Map();
  board.points.forEach((p, i) => m.set(p.name, i));
  return m;
}

// parseMove reads a move in standard notation ("d6", "d6-d5", "a4-a7xd2",
// "xd2", "pass") against the board: {from, to, captures, pass}, -1 for
// what is missing. Unknown text gives null.
export function parseMove(text, board) {
  if (!text) return null;
  const idx = pointIndex(board);
  const t = text.trim().toLowerCase();
  if (t === 'pass') return { from: -1, to: -1, captures: [], pass: true };
  const [main, ...caps] = t.split('x');
  const captures = caps.map((c) => idx.get(c)).filter((i) => i !== undefined);
  if (main === '') return { from: -1, to: -1, captures, pass: false };
  const parts = main.split('-');
  if (parts.length === 2) return { from: idx.get(parts[0]) ?? -1, to: idx.get(parts[1]) ?? -1, captures, pass: false };
  return { from: -1, to: idx.get(parts[0]) ?? -1, captures, pass: false };
}

// moveNumber labels the move of ply p as records do: "N." for even plies,
// "N..." for odd ones.
export function moveNumber(ply) {
  return Math.floor(ply / 2) + 1;
}

// presetOf returns the preset of a rules string "lasker,flying=never".
export function presetOf(rules) {
  return (rules || '').split(',')[0].trim();
}

// overridesOf returns the overrides of a rules string as a map.
export function overridesOf(rules) {
  const m = {};
  for (const part of (rules || '').split(',').slice(1)) {
    const [k, v] = part.split('=');
    if (k) m[k.trim()] = (v || '').trim();
  }
  return m;
}

// diagonalMills reports whether a game's diagonals make mills: the
// override, else the preset's (from the rules data of the client).
export function diagonalMills(rules, rulesData) {
  const o = overridesOf(rules);
  if ('diagonal-mills' in o) return o['diagonal-mills'] === 'yes' || o['diagonal-mills'] === 'true';
  const p = rulesData && rulesData.presets && rulesData.presets[presetOf(rules)];
  return !!(p && p.diagonalMills);
}

// boardOf returns the board id of a rules string.
export function boardOf(rules, variantList) {
  const o = overridesOf(rules);
  if (o.board) return o.board;
  const v = (variantList || []).find((x) => x.id === presetOf(rules));
  return v ? v.board : 'standard24';
}

// placingCaptures returns what a mill closed while placing does under a
// rules string (immediate, mark, hand, ...): the override, else the
// preset's (from the rules data of the client).
export function placingCaptures(rules, rulesData) {
  const o = overridesOf(rules);
  if ('placing-captures' in o) return o['placing-captures'];
  const p = rulesData && rulesData.presets && rulesData.presets[presetOf(rules)];
  return (p && p.placingCaptures) || 'immediate';
}

// adjacentNames tells whether two points, by name, are joined by a line of
// the board (a slide, not a flight).
export function adjacentNames(board, a, b) {
  if (!board) return true;
  const idx = pointIndex(board);
  const i = idx.get(a);
  const j = idx.get(b);
  return board.edges.some(([x, y]) => (x === i && y === j) || (x === j && y === i));
}
