// Package web is the web client, embedded in the binary and served by
// morris serve (cmd/morris/serve.go passes Handler() as httpapi.Config.Web).
//
// It is plain ES modules, HTML and CSS written by hand: no build step, no
// npm dependencies, nothing fetched from another site at run time. Handler
// serves the files of static/ with their content types, an ETag and
// Cache-Control: no-cache (icons: a day), gzipped when the browser takes
// it, and index.html (with a Content-Security-Policy) for every path whose
// last segment has no dot, so that hash routes (/#/game/12) and path routes
// (/game/12) both load the client. A missing file is a 404.
//
// The client is an installable app that works offline (docs/offline.md):
// manifest.webmanifest and its icons, and a service worker (sw.js) that
// keeps, when installed, the files /shell.json lists (every file, the
// engine's too, but its own: Handler makes the list). The engine runs in
// the browser too: engine/morris.wasm is cmd/morris-wasm built for js/wasm
// (application/wasm; committed gzipped as engine/morris.wasm.gz and served
// as it is, so that no server gzips 5 MB at its start), run in a Web Worker started when first
// needed, for the study board's analysis and games against the engine "on
// this device" (a setting) or when the server cannot be reached.
// TestEngineUpToDate fails when the committed .wasm is not what its sources
// build (engine.txt says what it was built from), TestIconsUpToDate when
// the icons are not the logo drawn again; -update makes them.
//
// # Where things are
//
//	web.go                        Handler: the embedded files, types, caching, gzip, /shell.json
//	engine.txt                    what static/engine/morris.wasm.gz was built from (TestEngineUpToDate)
//	static/sw.js                  the service worker: the client and the engine kept for offline use
//	static/manifest.webmanifest   the app's manifest: names, colours, icons (img/icon-192.png, img/icon-512.png:
//	                              the logo drawn by icon_test.go)
//	static/engine/                the engine in the browser: morris.wasm.gz (built from cmd/morris-wasm, committed gzipped),
//	                              wasm_exec.js (Go's, copied by the same build), worker.js (the Web Worker)
//	static/js/device.js           the engine on this device: the worker started when first needed, the setting
//	                              "on this device", the calls that go to it (chosen, or the server out of reach)
//	static/js/offline.js          games against the engine on this device, kept in localStorage, and their records
//	static/index.html             the page: header, notices, the moderators' warnings, main
//	static/css/app.css            the look: colours (light and dark, WCAG AA), layouts, the board's SVG classes
//	static/js/app.js              the router (#/..., or the path), the header, notices, window.morrisDebug
//	static/js/api.js              session (token in localStorage), JSON calls, the account stream (NDJSON over
//	                              fetch + ReadableStream), GameSocket (WebSocket, commands with ids, reconnection
//	                              with exponential backoff and ?since=<last version>), cached boards/variants/rules
//	static/js/board.js            Board: the SVG board from GET /api/boards; click, tap, drag and keyboard; captures chosen;
//	                              "board-update" and "board-announce" events for blind.js
//	static/js/blind.js            blind mode (docs/accessibility.md): moves typed in either notation with the legal ones
//	                              offered (a combobox), read commands, one live region announcing every change
//	static/js/settings.js         the player's settings in localStorage: blind mode, theme (auto, light, dark, high
//	                              contrast), board and piece styles; the header's toggle and panel, the account page's
//	static/js/notation.js         position text, move text and rules strings read on the client
//	static/js/record.js           a game record written on the client (the analysis board's export)
//	static/js/ui.js               shared parts: names, the new-game form, MoveList with the replay buttons and keys
//	static/js/dom.js              the DOM without a framework: h and s (HTML and SVG elements), clear, replace, isTyping,
//	                              debounce, dates
//	static/js/review.js           the engine's review, one panel for the game page and the study board: the request,
//	                              the progress, the evaluation graph, the summaries, the marked moves and their marks
//	                              in the move list
//	static/js/sound.js            optional WebAudio tones (off by default)
//	static/js/moderation.js       the account's standing (moderator, muted), the players one blocks, the report form
//	                              (a player or a chat line), the moderators' warnings shown until acknowledged
//	static/js/graph.js            the rating graph of a player's page: an SVG drawn from the rating history's points
//	static/js/i18n.js             t(key, params) over i18n/LANG.json; en is the fallback; LANGUAGES, the switch's list
//	static/js/pages/*.js          the pages: home (lobby), engine, game, auth, account, user, study, rules, puzzle,
//	                              mod (the moderators'), leaderboard, archive;
//	static/js/events.js           clubs and tournaments in the client: their routes (for app.js) and the pairing watch
//	static/js/paired.js           a player's board opens by itself when they are paired in a tournament (the event's
//	                              page, or the account stream's gameStart looked up among the running events), or a
//	                              prompt when they are on a game going on or the game is a correspondence one
//	static/js/i18n.js             t(key, params) over i18n/LANG.json; en is the fallback; LANGUAGES, the switch's list
//	static/js/pages/*.js          the pages: home (lobby), engine, local (a game on this device), game, auth, account, user, study, rules, puzzle,
//	                              mod (the moderators'), clubs (the list, search, a new club; a player's clubs), club,
//	                              tournaments (the list by status, preset and club; the lobby's section), tournament-form
//	                              (a new event), tournament (an event, live from its stream);
//	                              game.js and study.js are the wiring of game/ and study/ (the parts of a page share
//	                              one ctrl: the state and each other)
//	static/js/game/state.js       what the page knows (the game, the position shown, the connection), whose turn
//	static/js/game/socket.js      the WebSocket, reconnection, the server's events applied, commands (HTTP while down)
//	static/js/game/board.js       the board (the position of now or of the replay) and the moves made on it
//	static/js/game/premove.js     moves that wait: premoves (real-time games), confirmations (correspondence)
//	static/js/game/clock.js       the clocks counted down, a correspondence deadline, when a win may be claimed
//	static/js/game/players.js     the game's facts and the player cards (hand, flying, removals owed, clock)
//	static/js/game/status.js      the status line and the passing messages
//	static/js/game/controls.js    pass, offers and answers, resign, claim; the premove and confirmation bars
//	static/js/game/result.js      after the game: the result, the links, the review
//	static/js/game/chat.js        the chat: the lines of the players one blocks hidden, a line reported
//	static/js/game/event.js       a tournament's game (#/game/ID?event=E): the way back to the event, berserk in an arena
//	static/js/tournament/text.js  the words of events: kinds, statuses, an event in one line, points with halves,
//	                              durations, countdowns, the tie-breaks' names
//	static/js/tournament/tables.js an event's standings (tie-breaks; an arena's sheet and fire), crosstable, pairings
//	                              (links to the games), field
//	static/js/study/state.js      the study board's state: rules, start, moves, cursor, the view shown, the tab
//	static/js/study/board.js      the moves played freely, stepped through, taken back; the positions' views; the hands
//	static/js/study/tabs.js       the tabs, and the analysis tab (a new board of any preset)
//	static/js/study/engine.js     the engine's analysis of the position shown, the endgame databases' values
//	static/js/study/explorer.js   the opening explorer of the position shown
//	static/js/study/review.js     the review of the moves on the board (in review.js's panel)
//	static/js/study/setup.js      the set-up tab: the board as an editor, the check, the game and the link from it
//	static/js/study/import.js     records imported (or a position text), a stored game loaded
//	static/js/study/export.js     the record of the board, to copy or download
//	static/i18n/en.json           every visible string; i18n/LANG.json the same keys in another language
//	static/data/rules.json        the rules of every preset in plain English, in our own words (agreeing with docs/rules.md; TestRulesDataAgrees checks the facts against mill);
//	                              data/rules.LANG.json the same prose in another language, the same facts
//	static/img/logo.svg           the logo and icon
//
// # Languages
//
// The client speaks English, German (de), Dutch (nl), French (fr), Spanish
// (es) and Chinese (zh). It starts in the language chosen with the switch
// in the header (kept in localStorage under morris.lang), else the
// browser's first language it has, else English; a choice reloads the
// page. The server's own answers (error messages, pbmserv) stay English.
// A new language is its two files and a line in LANGUAGES (i18n.js);
// TestLanguagesComplete fails while a key, a placeholder or a rule's text is
// missing in any language, or a string of several words is left in
// English, and the browser test TestBrowserLanguages switches languages on
// every page and fails on a string shown untranslated.
//
// # Pages
//
//	#/                 lobby: open seeks, a new seek or challenge, your challenges (live), your games, the games of
//	                   the players you follow (live), games to watch, who is online (a count and a list in pages);
//	                   #/?seek=ID opens an invitation to a seek, #/?challenge=NAME the challenge form for NAME
//	#/play             play the engine: variant, level 1-10, colour, clock; a guest token when nobody is signed in
//	                   (#/play?variant=ID preselects the variant); "on this device" plays it in the browser
//	                   (as when the server cannot be reached); the games kept on this device, their records
//	#/local/ID         a game against the engine on this device (kept in the browser; no clock): hint,
//	                   take-back, resignation, the record
//	#/game/ID          a game: live over /api/game/ID/ws (the token in its first message, to play), replay when it is over
//	#/signin, #/signup the account (the token in localStorage under morris.session)
//	#/account          a new password (the other sessions signed out), sign out everywhere, delete the
//	                   account (the password and a tick to confirm)
//	#/user/NAME        online or last seen, ratings per variant (provisional marked), results by preset and
//	                   colour, the rating graph of a preset, game history (and a link to search it in the
//	                   archive); the counts of follows; on one's own page the vacation form, whether one takes
//	                   challenges by text command (pbmserv) game by game, and whom one follows and who
//	                   follows one; on another's, signed in, follow or unfollow, block or unblock them and
//	                   report them
//	#/leaderboard, #/leaderboard/VARIANT  the best players of a preset (enough rated games, a rating not
//	                   provisional), ranked, in pages
//	#/archive?player=&vs=&color=&variant=&result=&from=&to=  the archive of finished games: the search (its
//	                   fields the address's query) and its games, each opening its replay
//	#/user/NAME        ratings per variant (provisional marked), game history; on one's own page the vacation
//	                   form and, game by game, whether one takes challenges by text command (pbmserv); on
//	                   another's, signed in, block or unblock them and report them
//	#/clubs            the clubs by name, searched and paged (#/clubs?q=TEXT), one's own clubs, the form of a new club
//	#/club/ID          a club: description, open or closed, leaders, members in pages; join, ask to join, withdraw the
//	                   request, leave; a leader answers requests, removes members, makes and sets down leaders (and
//	                   steps down); the club's events
//	#/tournaments      the events by status (?status=upcoming|running|finished), preset (&variant=ID) and club (&club=ID);
//	                   the lobby shows those running and to come
//	#/tournaments/new  a new event: kind, preset, clock or days, rated, rounds, cycles or duration, start time, a club
//	                   one leads, a rating band, the field's size, the engine at a level (?club=ID preselects the club)
//	#/tournament/ID    an event, live from GET /api/tournament/ID/stream: countdown, one's game, join, withdraw, the
//	                   organiser's start, pair and cancel, standings, crosstable, pairings, field, exports; when the
//	                   signed-in player is paired, their board opens by itself (paired.js)
//	#/mod              the moderators' page (a moderator only; the header links it for them): the reports'
//	                   queue, a player's standing and the actions on them, the moderators' log
//	#/study            analysis board (any preset, engine evaluation), import and export of records
//	                   (#/study?rules=RULES starts from a preset with overrides, "lasker,flying=never";
//	                   #/study?position=TEXT from a position, the link the set-up tab gives); the set-up
//	                   tab: a position put together by clicks on the board, checked by the server,
//	                   then analysed, played against the engine, or shared
//	#/study/game/ID    a stored game on the analysis board
//	#/rules, #/rules/ID the presets, and one preset's board and rules
//	#/puzzle, #/puzzle/ID a puzzle (the next one for this player, or one by id): the only winning move
//	                   to find, then the replies of the best defence; the lobby shows the puzzle of the day
//
// # For browser tests
//
// window.morrisDebug.sounds() lists the kinds of the last sounds asked for,
// whether sound is on or not: place, slide, fly, remove, capture, pass
// (a move's), start, end, notify. The board counts the moves it animated in
// its data-animations (a piece sliding or flying from its point, a placed
// piece growing in, a captured one fading; none under prefers-reduced-motion).
// window.morrisDebug.device() says whether the engine on this device was
// started (started), the calls it answered (device), those the server
// answered (server) and those it took over from an unreachable server
// (fallbacks), and the setting (onDevice).
// window.morrisDebug.announcements() lists what blind mode's live region
// (blind-live) said on the page, in order.
// window.morrisDebug.language() is the client's language code and
// window.morrisDebug.missingKeys() the keys the pages asked for that its
// file lacked (shown in English). window.morrisDebug.state() returns the
// page's state as plain JSON:
// always page ("home", "play", "local", "game", "signin", "signup", "account", "user", "study",
// "rules", "puzzle", "mod", "leaderboard", "archive", "notfound"); on #/play localGames (the ids of
// the games kept on this device); on a game on this device (#/local/ID) localGame (its id), moves,
// ply, cursor, status ("active", "finished", or "missing"), result, method, mySide, localLevel,
// toMove, position, thinking (the engine's move awaited), legal (on the player's turn), lastError,
// hint (the hint's move, or "") and localRecord (the record shown, or ""); on the leaderboard variant,
// total, entries (rank, name, rating, games) and error; on the archive query (the search's
// fields), games (ids), next (the key of the next page, or "") and error; on a player's page
// also online, seenMs, follow (followed, followers, following: null on a page not loaded),
// stats (variant, white and black as [wins, draws, losses]) and graph (variant, points); on the moderators' page allowed, reports (id, status,
// "rules", "puzzle", "mod", "clubs", "club", "tournaments", "tournament-new", "tournament", "notfound");
// on the clubs page clubs (names), more and mine (one's clubs' names, or null); on a club's page id,
// name, open, role ("leader", "member", "requested", "none"), leaders, members (the names of the
// pages read), requests (names; a leader's), events (ids) and result; on the tournaments page status,
// variant, club, events (ids) and loaded; on an event's page id, connection ("connecting", "open",
// "reconnecting", "closed"), lines (the stream's lines read), error, status, round, organiser,
// entrants (names, withdrawn left out), standings (rank, name, points, games), pairings (round, bye,
// games: game, white, black, status, result), myGame (the player's game going on, or null) and
// actionError; on the moderators' page allowed, reports (id, status,
// user, reason, line), user (name, muted, closed, warnings, openReports), log (id, action,
// user, note) and result; on a player's page also blocked; on the puzzle page id, status, moves (the
// line played, the defence's replies included), position, legal,
// puzzleRating (the rating change of an attempt just ended, or null), solution, wrong (the
// move that failed, until taken back), answer (the solution's move at the position to solve,
// once the solution is known) and retries; on a game page also id, version (the last version
// seen), moves, ply, status ("active", "finished"), result, method, toMove,
// position, mySide ("white", "black", or null for a spectator), connection
// ("connecting", "open", "reconnecting", "closed"), cursor (the position
// shown: moves after the start), legal (the moves in standard notation this
// page can play now on its board: empty when it is not its turn, while a
// move is being sent, or when the game is over), sent (how many moves this
// page has sent), lastError (the last error it showed, kept after the
// message goes), offers, chat, clocks (ms left), animations (the moves the board animated),
// premove and pendingConfirm (a move's text, or null), and review (null, or its status, done,
// total and the number of marked moves); on the study page rules, start, moves, cursor,
// status, result, toMove, position, legal, analysis and setup (null, or
// the position text being set up and the error its check gave); on the lobby seeks,
// challenges, myGames, activeGames, followedGames (the ids of the games of the players
// followed), online (names) and onlineCount. window.morrisDebug.dropConnection()
// closes the game's WebSocket as a network failure would: the page
// reconnects with ?since. While it reconnects, moves and commands go over
// HTTP (POST /api/game/ID/move with the ply), so a player is never stuck.
//
// A move on the board, by clicks: a placement is a click on the empty
// point; a slide or flight a click on the piece and one on the target; each
// capture (or mark, da san qi) then a click on the piece to take; a
// removal (Shah, the removals owed when placing ends, a blocked side's in
// zhi qi) a click on the piece; a pass the pass button. chromedp.Click on
// the points works (they are SVG groups with a hit area). A side may move
// several times running: toMove, not the ply, says whose turn it is.
//
// The stable data-testid values (ID, NAME, SIDE, N stand for the variable
// part; white or black for SIDE):
//
//	page frame      topbar, nav, nav-home, nav-lobby, nav-play, nav-study, nav-rules, nav-signin, nav-signup,
//	                nav-signout, nav-me (data-name = the user), account, sound-toggle (aria-pressed), notice,
//	                lang, lang-select (the language switch: a select of the codes of LANGUAGES), nav-menu
//	                (the menu's button, aria-expanded: on a phone's width the links, the language and the
//	                account are folded in menu behind it),
//	                notice-open-lobby, notice-open-game (a correspondence reminder), main, not-found, boot-error;
//	                blind-toggle (blind mode, aria-pressed), settings-toggle (aria-expanded) and the panel below
//	                the header: settings-panel, settings-panel-blind (a tick), settings-panel-NAME-VALUE (radio
//	                buttons: theme auto, light, dark, contrast; boardStyle wood, plain; pieceStyle plain, marked),
//	                settings-close; the same panel on the account page with the prefix account-settings
//	board           board (data-board = the board id), board-svg, board-holder, board-hint (the engine's
//	                best move on the study board, the hint of a game against the engine, a puzzle's
//	                answer; data-move = its text);
//	                blind mode (blind.js, on the game, local, study and puzzle pages): blind (the section),
//	                blind-form (shown in blind mode), blind-input (the combobox), blind-options (its listbox),
//	                blind-option-MOVE (an option, data-move), blind-live (the page's live region: every
//	                announcement, the board's messages too; data-count = how many were made);
//	                point-NAME for every point, e.g. point-d6, with data-piece = "white", "black",
//	                "marked" (a piece marked by a mill while placing, da san qi: drawn grey with a
//	                cross, of no side) or "", data-point = its index, aria-label "d6, empty" / "d6,
//	                white piece" (then ", legal move", ", selected" or ", can be taken"), and classes
//	                has-piece, marked, is-target, selected, movable, capturable, chosen, in-mill,
//	                last-from, last-to, last-capture, last-mark
//	game page       game-page (data-game = ID), game-info, game-variant (data-variant), spectating, status
//	                (data-connection, data-game-status, data-to-move), player-SIDE (the cards),
//	                player-name-SIDE, clock-SIDE (data-ms = ms left), hand-SIDE (data-count), flying-SIDE,
//	                owes-SIDE (the removals the side owes, data-count),
//	                flip, game-controls, pass, offer-draw, offer-takeback, resign, resign-confirm,
//	                resign-cancel, claim-victory, hint and hint-text (data-move: the engine's suggestion in
//	                a game against the engine, on the player's turn), offers, offer-banner-draw and offer-banner-takeback
//	                (data-by), draw-accept, draw-decline, takeback-accept, takeback-decline, result
//	                (data-result), after-game, export, analyse, play-again; the review (after the
//	                game): review, review-request, review-progress (data-done, data-total), review-error,
//	                review-graph (data-points), review-point-N (the position after N moves; data-eval,
//	                a click goes there), review-summary-SIDE, review-list, review-item-PLY (data-mark,
//	                data-best), review-clean; a reviewed move's move-N gets data-mark; a premove
//	                (real-time games, on the opponent's turn): premove-bar (data-move), premove-cancel, its
//	                points with the class premove; the confirmation (correspondence games): confirm-toggle,
//	                confirm-bar (data-move), confirm-move, cancel-move
//	move list       move-list (data-count), move-head (the columns' heads, data-left = the side of the left
//	                column: the first mover's, as the record numbers moves), move-N (the N-th move from 0,
//	                data-ply, data-index = N+1),
//	                replay, replay-first, replay-prev, replay-next, replay-last (the arrow keys, Home and
//	                End do the same when no text field or board point has the focus)
//	chat            chat, chat-list, chat-message (data-version), chat-form, chat-input, chat-send, chat-note,
//	                chat-report (a line's, data-version: opens the report form in chat-report-slot)
//	moderation      report-form, report-reason, report-text, report-submit, report-cancel, report-error,
//	                report-done; warnings (the box of the moderators' warnings), warning-notice (data-id),
//	                warning-ack; nav-mod (the header's link to #/mod, for moderators); on the player page
//	                user-block (data-blocked), user-block-result, user-report; the moderators' page
//	                mod-page, mod-none, mod-reports, mod-reports-status, mod-reports-list, mod-reports-empty,
//	                mod-reports-more, mod-report-ID (data-status), mod-report-line-ID, mod-resolve-note-ID,
//	                mod-resolve-ID, mod-open-user-ID, mod-user, mod-user-form, mod-user-name, mod-user-find,
//	                mod-user-panel, mod-user-muted, mod-user-closed, mod-for-report, mod-note, mod-warn-text,
//	                mod-warn, mod-mute-hours, mod-mute, mod-unmute, mod-close, mod-reopen, mod-annul,
//	                mod-user-result, mod-user-error, mod-log, mod-log-list, mod-log-more, mod-log-ID
//	                (data-action)
//	lobby           lobby-play-engine, lobby-study, lobby-rules, lobby-seeks, lobby-seeks-empty,
//	                lobby-seeks-signin, lobby-guest, seek-ID (data-id), seek-accept-ID, seek-cancel-ID,
//	                seek-link-ID (copies the link #/?seek=ID), invite and invite-join (the lobby opened
//	                by such a link),
//	                lobby-challenges, challenge-ID (data-direction "in" or "out"), challenge-accept-ID,
//	                challenge-decline-ID, challenge-cancel-ID, lobby-my-games, my-game-ID,
//	                lobby-active-games, active-game-ID, lobby-active-empty, tab-seek, tab-challenge,
//	                challenge-user (the name to challenge); lobby-leaderboard, lobby-archive, lobby-followed,
//	                followed-game-ID, lobby-followed-empty, lobby-followed-signin, lobby-online,
//	                lobby-online-count (data-count, data-guests), lobby-online-list, online-NAME,
//	                lobby-online-more
//	community       nav-leaderboard, nav-archive; leaderboard-page (data-variant), leaderboard-variant,
//	                leaderboard-rule, leaderboard-list, leaderboard-table, leaderboard-row-RANK (data-name,
//	                data-rating, data-games), leaderboard-empty, leaderboard-error, leaderboard-more;
//	                archive-page, archive-form, archive-player, archive-opponent, archive-color,
//	                archive-variant, archive-result, archive-from, archive-to, archive-submit,
//	                archive-error, archive-list, archive-game-ID (data-result), archive-empty, archive-more
//	new-game forms  PREFIX-form, PREFIX-variant, PREFIX-control ("none", "realtime", "days"), PREFIX-minutes,
//	                PREFIX-increment, PREFIX-days, PREFIX-color ("random", "white", "black"), PREFIX-rated,
//	                PREFIX-level and PREFIX-level-value (the engine), PREFIX-error, PREFIX-submit; PREFIX is
//	                seek, challenge (lobby) or engine (#/play, inside engine-page); engine-device (the
//	                setting "on this device", on #/play and the study board)
//	device games    on #/play local-games, local-game-ID (data-result), local-games-empty, local-export-all,
//	                local-export-text; #/local/ID: local-page (data-game), local-missing, local-info,
//	                local-variant (data-variant), local-where, local-hands, status (data-game-status,
//	                data-result), game-controls, hint, hint-text (data-move), local-takeback, resign,
//	                local-export, local-record, local-download, local-new, flip, the board and the move list
//	accounts        signin-form, signin-name, signin-password, signin-submit, signin-error, signin-to-signup,
//	                signup-form, signup-name, signup-password, signup-email, signup-submit, signup-error,
//	                signup-to-signin; nav-account (the header's link to #/account), account-page,
//	                account-none (not signed in, or a guest), password-form, password-current,
//	                password-new, password-submit, password-error, password-done, signout-all,
//	                signout-all-error, delete-form, delete-password, delete-confirm (the tick),
//	                delete-submit (disabled until ticked), delete-error
//	player page     user-name, user-ratings, rating-VARIANT (data-provisional), user-games, user-game-ID,
//	                user-games-more, user-challenge, user-error, user-presence (data-online, data-seen),
//	                user-follow (data-followed), user-follow-result, user-followers and user-following
//	                (data-count), user-stats, stats-VARIANT (data-white, data-black: "wins/draws/losses"),
//	                stats-total (data-total), rating-graph (data-variant, data-points), rating-graph-variant,
//	                rating-graph-svg (data-points; its points are links to their games), user-archive,
//	                user-follows, user-following-list, following-NAME (data-online), user-followers-list,
//	                follower-NAME, user-followers-more (on one's own page),
//	                vacation-form, vacation-days, vacation-submit, vacation-result,
//	                pbm-prefs-section, pbm-prefs, pbm-accept-VARIANT (a checkbox), pbm-prefs-result (on one's own page)
//	study           study-page, study-info, study-variant (data-rules), status, study-hands (with
//	                hand-SIDE and flying-SIDE), tab-analysis, tab-setup, tab-import,
//	                tab-export, study-new-form, study-variant-select, study-overrides, study-new, study-error,
//	                engine-toggle, engine-device, engine-output, engine-score (data-score, data-side: the side it is for),
//	                engine-where (data-where: "server" or "device"), engine-best, engine-pv,
//	                engine-tablebase (data-value), tablebase-moves (li: data-move, data-keeps),
//	                engine-error, takeback, flip, pass, import-form, import-text, import-submit,
//	                import-error, import-games, import-game-N, export-text, export-copy, export-download,
//	                export-position, export-position-copy, export-mfen, export-mfen-copy, export-mif
//	                (MIF 1.0: export-mifpos, export-mifpos-copy, export-mrs, export-mrs-copy);
//	                the set-up tab: setup-tool-white, setup-tool-black, setup-tool-empty (aria-pressed),
//	                setup-to-move, setup-hand-white, setup-hand-black, setup-clear, setup-start,
//	                setup-check, setup-error, setup-level, setup-color, setup-play, setup-link (the
//	                position's address), setup-link-copy; the board has the class editing meanwhile;
//	                the review of the moves on the board (analysis tab): review, review-request and
//	                the review's ids of the game page;
//	                the opening explorer (analysis tab): explorer, explorer-total (data-games),
//	                explorer-empty, explorer-row-MOVE (data-move, data-games, data-white, data-draws,
//	                data-black, data-book: the book's value or ""; a click plays the move)
//	puzzles         nav-puzzles, puzzle-page, puzzle-info, puzzle-id (data-id), puzzle-rating (data-rating), puzzle-source,
//	                puzzle-status (data-status: loading, solving, checking, solved, failed, error),
//	                puzzle-result, puzzle-rating-change (data-before, data-after), puzzle-next,
//	                puzzle-show-solution (asks for the line: giving up; shown on the board too), puzzle-solution,
//	                puzzle-retry (takes a wrong move back to try again);
//	                lobby-daily-puzzle (data-id), lobby-daily-puzzle-link; on a player's page
//	                user-puzzles, user-puzzle-rating (data-rating, data-plays), user-puzzle-ID
//	                (data-solved, data-rated)
//	clubs           nav-clubs, clubs-search, clubs-list, club-ID (data-name), clubs-more, clubs-empty, clubs-mine,
//	                clubs-signin, club-form, club-name, club-description, club-open-check, club-error, club-submit;
//	                a club's page: club-page (data-club), club-name, club-open (data-open), club-description,
//	                club-actions (data-role), club-join, club-leave, club-leave-confirm, club-leave-cancel,
//	                club-step-down, club-edit, club-edit-form, club-edit-description, club-edit-open,
//	                club-edit-save, club-edit-cancel, club-result, club-error, club-not-found, club-leaders, club-members,
//	                club-member-NAME (data-leader), club-member-leader-NAME (make a leader, set down; not on one's own row),
//	                club-member-remove-NAME, club-members-more, club-requests, club-requests-count,
//	                club-request-NAME, club-accept-NAME, club-decline-NAME, club-events, club-event-ID,
//	                club-new-event; on a player's page user-clubs, user-club-ID (data-leader)
//	tournaments     nav-tournaments; the lobby's lobby-events, lobby-events-list, lobby-event-ID (data-status),
//	                lobby-events-empty, lobby-events-all, lobby-events-new, lobby-clubs; the list's tournaments-tabs,
//	                tournaments-tab-STATUS (aria-current), tournaments-filters, tournaments-variant,
//	                tournaments-club, tournaments-list, event-ID (data-status), tournaments-more,
//	                tournaments-empty, tournaments-new; the new event's form (inside tournament-new, or
//	                tournament-new-signin): tournament-form, tournament-name, tournament-kind,
//	                tournament-kind-hint, tournament-variant, tournament-control ("realtime", "days"),
//	                tournament-minutes, tournament-increment, tournament-days, tournament-rounds,
//	                tournament-manual-pairing, tournament-cycles, tournament-duration (minutes),
//	                tournament-rated, tournament-start-mode ("manual", "at"), tournament-starts (a
//	                datetime-local), tournament-club, tournament-min-rating, tournament-max-rating,
//	                tournament-max-players, tournament-engine, tournament-engine-level and
//	                tournament-engine-level-value, tournament-error, tournament-submit; an event's page:
//	                tournament-page (data-id, data-status), tournament-name, tournament-status (data-status:
//	                upcoming, running, finished, cancelled), tournament-summary, tournament-note,
//	                tournament-club, tournament-countdown (data-ms), tournament-live (data-connection),
//	                tournament-actions, tournament-join, tournament-withdraw, tournament-withdraw-confirm,
//	                tournament-withdraw-keep, tournament-entered, tournament-start, tournament-pair,
//	                tournament-cancel, tournament-cancel-confirm, tournament-cancel-keep,
//	                tournament-action-error, tournament-exports, tournament-export-records,
//	                tournament-export-csv, tournament-export-json, tournament-my-game (data-game),
//	                tournament-my-game-link (data-game), tournament-berserk, tournament-my-wait,
//	                tournament-bye-round, tournament-bye, tournament-sits-out-N, tournament-unbye-N,
//	                tournament-standings, standing-NAME (data-rank, data-points), standings-empty,
//	                tournament-crosstable, crosstable, crosstable-NAME, tournament-pairings, round-N,
//	                pairing-GAME (data-status, data-result), pairing-open-GAME, bye-N, halfbyes-N, pairings-empty,
//	                tournament-entrants, entrant-NAME, entrants-empty, tournament-error; a new pairing's
//	                prompt: paired-prompt (data-game), paired-open, paired-dismiss; on a tournament's game
//	                page game-event (data-event), game-event-link, game-berserk, game-berserked
//	rules           rules-list, rules-card-ID, rules-page (data-variant), rules-title, rules-facts,
//	                rules-text, rules-general, rules-play, rules-study
//
// TestTestIDsDocumented fails when a page sets a literal data-testid that
// is not in this list; TestStringsTranslated when a t('key') is not in
// en.json; TestEveryFileReachable when a file of static/ is not reachable
// from index.html.
package web
