// Writing a game record on the client (for the analysis board), in the
// canonical form of record/doc.go: the seven roster tags, the game's tags,
// a blank line, numbered moves wrapped at 80 columns, the result.

function quote(v) {
  return '"' + String(v).replace(/\\/g, '\\\\').replace(/"/g, '\\"') + '"';
}

function today() {
  const d = new Date();
  const p = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}.${p(d.getMonth() + 1)}.${p(d.getDate())}`;
}

// writeRecord returns the record text. g: {event, site, white, black,
// result ('*', '1-0', ...), termination, rules ('preset,overrides'), seed
// (for presets that draw lots, or undefined), position (a set-up start,
// or undefined), startPly, moves}.
export function writeRecord(g) {
  const [variant, ...over] = (g.rules || 'nine-mens-morris').split(',');
  const tags = [
    ['Event', g.event || '?'],
    ['Site', g.site || '?'],
    ['Date', g.date || today()],
    ['Round', '?'],
    ['White', g.white || '?'],
    ['Black', g.black || '?'],
    ['Result', g.result || '*'],
    ['Variant', variant],
  ];
  if (over.length) tags.push(['Rules', over.join(',')]);
  if (g.position) tags.push(['Position', g.position]);
  else if (g.seed !== undefined && g.seed !== null) tags.push(['Seed', String(g.seed)]);
  if (g.termination && g.result && g.result !== '*') tags.push(['Termination', g.termination]);
  const lines = tags.map(([k, v]) => `[${k} ${quote(v)}]`);
  lines.push('');
  const tokens = [];
  const start = g.startPly || 0;
  g.moves.forEach((m, i) => {
    const ply = start + i;
    const n = Math.floor(ply / 2) + 1;
    if (ply % 2 === 0) tokens.push(`${n}.`);
    else if (i === 0) tokens.push(`${n}...`);
    tokens.push(m);
  });
  tokens.push(g.result || '*');
  let line = '';
  for (const tok of tokens) {
    if (line && line.length + 1 + tok.length > 80) {
      lines.push(line);
      line = tok;
    } else {
      line = line ? line + ' ' + tok : tok;
    }
  }
  if (line) lines.push(line);
  return lines.join('\n') + '\n';
}
