// The rating graph of a player's page: an SVG drawn from the points of
// GET /api/user/NAME/rating-history (the rating after each rated game, in
// order), one step a game, the lowest and highest ratings on the left,
// the first and last games' dates below; each point a link to its game.

import { s as svg } from './dom.js';
import { t } from './i18n.js';

const W = 600;
const H = 200;
const PAD = { left: 44, right: 10, top: 12, bottom: 24 };

function shortDate(ms) {
  return new Date(ms).toISOString().slice(0, 10);
}

// ratingGraph returns the graph of points ([{game, atMs, rating}]) with
// an accessible label; data-points is their count.
export function ratingGraph(points, label) {
  const el = svg('svg', {
    class: 'rating-graph', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': label,
    testid: 'rating-graph-svg', 'data-points': points.length,
  }, svg('title', {}, label));
  if (!points.length) return el;
  const rs = points.map((p) => p.rating);
  let lo = Math.min(...rs);
  let hi = Math.max(...rs);
  if (hi - lo < 40) {
    const mid = (hi + lo) / 2;
    lo = mid - 20;
    hi = mid + 20;
  }
  // The points stand clear of the axis and its labels.
  const x0 = PAD.left + 10;
  const x1 = W - PAD.right - 6;
  const x = (i) => x0 + (points.length === 1 ? (x1 - x0) / 2 : i * (x1 - x0) / (points.length - 1));
  const y = (r) => PAD.top + (hi - r) * (H - PAD.top - PAD.bottom) / (hi - lo);
  el.append(
    svg('line', { class: 'axis', x1: PAD.left, y1: PAD.top, x2: PAD.left, y2: H - PAD.bottom }),
    svg('line', { class: 'axis', x1: PAD.left, y1: H - PAD.bottom, x2: W - PAD.right, y2: H - PAD.bottom }),
    svg('text', { class: 'tick', x: PAD.left - 4, y: PAD.top + 4, 'text-anchor': 'end' }, String(Math.round(hi))),
    svg('text', { class: 'tick', x: PAD.left - 4, y: H - PAD.bottom, 'text-anchor': 'end' }, String(Math.round(lo))),
    svg('text', { class: 'tick', x: PAD.left, y: H - 6 }, shortDate(points[0].atMs)),
    svg('text', { class: 'tick', x: W - PAD.right, y: H - 6, 'text-anchor': 'end' }, shortDate(points[points.length - 1].atMs)),
    svg('polyline', { class: 'line', points: points.map((p, i) => `${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(' ') }));
  // Points to click, while they are few enough to tell apart.
  if (points.length <= 200) {
    points.forEach((p, i) => {
      el.append(svg('a', { href: '#/game/' + p.game, 'data-game': p.game },
        svg('circle', { class: 'pt', cx: x(i).toFixed(1), cy: y(p.rating).toFixed(1), r: 3.5 },
          svg('title', {}, t('user.graphPoint', { rating: Math.round(p.rating), date: shortDate(p.atMs), id: p.game })))));
    });
  }
  return el;
}
