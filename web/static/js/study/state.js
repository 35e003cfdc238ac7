// The state of the study board: the rules, the start, the moves played and
// the cursor, the view of the position shown, the engine's analysis, the tab
// open, and the position being set up.

// newState is the state of a new study board (query: the page's
// ?rules=...).
export function newState(query) {
  return {
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
}

// key names the position after the first k moves among the views.
export function key(st, k) {
  return st.moves.slice(0, k).join(' ');
}

// body names the position after the first k moves for the API.
export function body(st, k) {
  const moves = st.moves.slice(0, k);
  return st.start ? { position: st.start, moves } : { rules: st.rules, moves };
}

// currentView is the view of the position at the cursor, once it has come.
export function currentView(st) {
  return st.view && st.viewKey === key(st, st.cursor) ? st.view : null;
}
