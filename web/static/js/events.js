// Clubs and tournaments in the client: their routes, for app.js's router,
// and the watch that opens a player's board when they are paired.

import * as clubs from './pages/clubs.js';
import * as club from './pages/club.js';
import * as tournaments from './pages/tournaments.js';
import * as tournamentForm from './pages/tournament-form.js';
import * as tournament from './pages/tournament.js';

export { watchPairings } from './paired.js';

// eventRoutes are [pattern, mount, page name] as app.js's routes.
export const eventRoutes = [
  [/^\/clubs$/, clubs.mount, 'clubs'],
  [/^\/club\/(\d+)$/, club.mount, 'club'],
  [/^\/tournaments$/, tournaments.mount, 'tournaments'],
  [/^\/tournaments\/new$/, tournamentForm.mount, 'tournament-new'],
  [/^\/tournament\/(\d+)$/, tournament.mount, 'tournament'],
];
