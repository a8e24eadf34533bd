// The SVG hex map of a Board (crates/engine/src/board.rs): geometry, drawing, zoom and pan.
//
// Geometry follows crates/hexgrid/src/pixel.rs: flat-topped hexes, x east, y south, axial
// (q, r) with q = printed column; the layout's column shove gives r from the printed row.

const SQRT3 = Math.sqrt(3);
/** Distance from a hex's centre to its corners, in SVG units. */
export const SIZE = 40;
/** Side of a unit counter's square. */
const COUNTER = 30;
/** How far each counter lower in a stack is shifted (right and down). */
const STACK_SHIFT = 4;
const SVG_NS = 'http://www.w3.org/2000/svg';

/** Corner offsets of a unit hex, in Vertex order NNE, E, SSE, SSW, W, NNW. */
const CORNERS = [
  [0.5, -SQRT3 / 2], [1, 0], [0.5, SQRT3 / 2], [-0.5, SQRT3 / 2], [-1, 0], [-0.5, -SQRT3 / 2],
];
/** Vertex names in index order. */
export const VERTICES = ['NNE', 'E', 'SSE', 'SSW', 'W', 'NNW'];
/** Axial offsets of the six sides, in Direction order N, NE, SE, S, SW, NW. */
const DIRECTIONS = [[0, -1], [1, -1], [1, 0], [0, 1], [-1, 1], [-1, 0]];

/**
 * Parses a printed id "CCRR".
 * @param {string} id
 * @returns {{col: number, row: number}}
 */
export function parseId(id) {
  const s = String(id).padStart(4, '0');
  return { col: Number(s.slice(0, 2)), row: Number(s.slice(2, 4)) };
}

/** The printed id of a column and row. */
export function formatId(col, row) {
  return String(col).padStart(2, '0') + String(row).padStart(2, '0');
}

/**
 * Axial coordinates of a printed id under a layout's shove.
 * @param {string} id
 * @param {string} shove "odd_columns_down" or "even_columns_down"
 */
export function toAxial(id, shove) {
  const { col, row } = parseId(id);
  const shift = shove === 'even_columns_down' ? Math.floor((col + 1) / 2) : Math.floor(col / 2);
  return { q: col, r: row - shift };
}

/** The printed id of axial (q, r), or null when out of 00..99. */
export function toId(q, r, shove) {
  const shift = shove === 'even_columns_down' ? Math.floor((q + 1) / 2) : Math.floor(q / 2);
  const row = r + shift;
  if (q < 0 || q > 99 || row < 0 || row > 99) return null;
  return formatId(q, row);
}

/** Pixel centre of axial (q, r). */
export function centre(q, r) {
  return [SIZE * 1.5 * q, SIZE * SQRT3 * (r + q / 2)];
}

/** The six corners of axial (q, r). */
export function corners(q, r) {
  const [cx, cy] = centre(q, r);
  return CORNERS.map(([dx, dy]) => [cx + dx * SIZE, cy + dy * SIZE]);
}

/** The direction index (0 = N ... 5 = NW) from a to its neighbour b, or -1. */
export function directionTo(a, b) {
  const dq = b.q - a.q;
  const dr = b.r - a.r;
  return DIRECTIONS.findIndex(([q, r]) => q === dq && r === dr);
}

/** Parses "#rgb"/"#rrggbb" into [r, g, b], or null. */
function rgb(colour) {
  const h = String(colour || '').trim().replace(/^#/, '');
  if (/^[0-9a-f]{3}$/i.test(h)) return [...h].map((c) => parseInt(c + c, 16));
  if (/^[0-9a-f]{6}$/i.test(h)) return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16));
  return null;
}

/** Mixes a colour toward another by t (0..1); non-hex colours are returned unchanged. */
function mix(colour, toward, t) {
  const a = rgb(colour);
  const b = rgb(toward);
  if (!a || !b) return colour;
  const c = a.map((v, i) => Math.round(v + (b[i] - v) * t));
  return '#' + c.map((v) => v.toString(16).padStart(2, '0')).join('');
}

/** Whether text on this colour should be white. */
export function isDark(colour) {
  const c = rgb(colour);
  if (!c) return true;
  return 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2] < 140;
}

/** Colours for well-known keys when the board has no style for them (as render.rs). */
const DEFAULT_COLOURS = [
  ['river', '#2f6fd6'], ['stream', '#5fa8e8'], ['wadi', '#c9a66b'], ['slope', '#8a5a2b'],
  ['escarp', '#6b3e1e'], ['wall', '#4a4a4a'], ['road', '#7a4f2a'], ['track', '#a57c52'],
  ['clear', '#e8e2c4'], ['rough', '#c8b88a'], ['hill', '#c9a86a'], ['wood', '#7fa65a'],
  ['town', '#d9a38c'], ['water', '#8fc1e8'],
];
/** Traditional counter colours of well-known sides, when the board gives none. */
const KNOWN_SIDES = [
  ['crusader', '#f1ead8'], ['frank', '#f1ead8'], ['christian', '#f1ead8'], ['templar', '#f1ead8'],
  ['muslim', '#2f6b3a'], ['saracen', '#2f6b3a'], ['ayyubid', '#2f6b3a'], ['fatimid', '#2f6b3a'],
  ['seljuk', '#7a3b1d'], ['turk', '#7a3b1d'], ['ottoman', '#7a3b1d'], ['byzant', '#5b2a86'],
  ['mongol', '#6b4f2a'], ['mamluk', '#b5651d'],
];
const SIDE_PALETTE = ['#b3261e', '#1f5aa6', '#2e7d32', '#6a3d9a', '#c77c02', '#37474f'];

/** Looks up colours and names of style keys. */
export class Styles {
  /** @param {Array<{key: string, name: string, colour: string}>} styles */
  constructor(styles) {
    this.byKey = new Map((styles || []).map((s) => [s.key, s]));
  }

  colour(key) {
    const s = this.byKey.get(key);
    if (s) return s.colour;
    const k = String(key).toLowerCase();
    const hit = DEFAULT_COLOURS.find(([name]) => k.includes(name));
    return hit ? hit[1] : '#d8d3c0';
  }

  side(side) {
    const s = this.byKey.get(side);
    if (s) return s.colour;
    const k = String(side).toLowerCase();
    const known = KNOWN_SIDES.find(([name]) => k.includes(name));
    if (known) return known[1];
    let sum = 0;
    for (const ch of String(side)) sum += ch.charCodeAt(0);
    return SIDE_PALETTE[sum % SIDE_PALETTE.length];
  }

  name(key) {
    const s = this.byKey.get(key);
    return s ? s.name : String(key).replace(/[_-]/g, ' ');
  }
}

/** Creates an SVG element with attributes. */
function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== undefined && v !== null) e.setAttribute(k, String(v));
  }
  if (parent) parent.appendChild(e);
  return e;
}

function pts(ps) {
  return ps.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' ');
}

/** The kind of a hexside feature, for its drawing. */
function featureKind(key) {
  const k = String(key).toLowerCase();
  if (k.includes('river')) return 'river';
  if (k.includes('stream') || k.includes('wadi')) return 'stream';
  if (k.includes('slope') || k.includes('escarp') || k.includes('cliff')) return 'slope';
  if (k.includes('wall')) return 'wall';
  return 'other';
}

/**
 * The interactive map. Call `render(board, highlights)` for every new state; it keeps
 * the zoom and pan. Emits `onHex(id)` and `onCounter(id)` for clicks (not drags).
 */
export class HexMap {
  /**
   * @param {SVGSVGElement} svg
   * @param {{onHex?: (id: string) => void, onCounter?: (id: string, hex: string) => void,
   *          onHover?: (id: string|null) => void}} handlers
   */
  constructor(svg, handlers = {}) {
    this.svg = svg;
    this.handlers = handlers;
    this.view = { x: 0, y: 0, k: 1 };
    this.fitted = false;
    this.bounds = { minX: 0, minY: 0, maxX: 100, maxY: 100 };
    this.root = el('g', { class: 'map-root' }, svg);
    this.pointers = new Map();
    this.gesture = null;
    this.installGestures();
  }

  /** Axial of a printed id under the current layout. */
  axial(id) {
    return toAxial(id, this.shove);
  }

  /** The pixel centre of a printed id. */
  at(id) {
    const { q, r } = this.axial(id);
    return centre(q, r);
  }

  /**
   * Draws the board.
   * @param {any} board the Board JSON
   * @param {{moves?: Map<string, string>, selected?: string|null, selectedHex?: string|null,
   *          path?: string[], targets?: Set<string>}} marks
   */
  render(board, marks = {}) {
    this.board = board;
    this.shove = board.layout?.shove || 'odd_columns_down';
    const styles = new Styles(board.styles);
    this.styles = styles;
    const root = this.root;
    root.replaceChildren();

    const hexes = board.hexes || [];
    const byId = new Map(hexes.map((h) => [h.id, h]));
    const axialKey = (q, r) => `${q},${r}`;
    const byAxial = new Map();
    let minX = Infinity;
    let minY = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    for (const h of hexes) {
      const a = this.axial(h.id);
      byAxial.set(axialKey(a.q, a.r), h);
      for (const [x, y] of corners(a.q, a.r)) {
        minX = Math.min(minX, x); minY = Math.min(minY, y);
        maxX = Math.max(maxX, x); maxY = Math.max(maxY, y);
      }
    }
    if (!hexes.length) { minX = 0; minY = 0; maxX = 100; maxY = 100; }
    this.bounds = { minX, minY, maxX, maxY };

    // Map sheet under the hexes.
    el('rect', {
      class: 'sheet', x: minX - 14, y: minY - 14, width: maxX - minX + 28, height: maxY - minY + 28,
      rx: 6,
    }, root);

    // Terrain, shaded by elevation: each level above the map's lowest is a little warmer and
    // darker (as a layered relief map), the lowest ground a little cooler.
    const gHex = el('g', { class: 'hexes' }, root);
    const lowest = hexes.reduce((m, h) => Math.min(m, h.elevation || 0), Infinity);
    for (const h of hexes) {
      const a = this.axial(h.id);
      const base = styles.colour(h.terrain);
      const lvl = (h.elevation || 0) - (Number.isFinite(lowest) ? lowest : 0);
      const fill = lvl > 0 ? mix(base, '#9c7440', Math.min(0.13 * lvl, 0.5)) : mix(base, '#dfe8e0', 0.18);
      el('polygon', {
        class: 'hex', 'data-hex': h.id, 'data-terrain': h.terrain, 'data-elevation': h.elevation || 0,
        points: pts(corners(a.q, a.r)), fill,
      }, gHex);
      const tex = textureFor(h.terrain);
      if (tex) el('polygon', { points: pts(corners(a.q, a.r)), fill: `url(#tex-${tex})`, 'pointer-events': 'none' }, gHex);
    }

    // Contours: wherever the ground steps down to a neighbour, a brown line on that edge.
    const gContour = el('g', { class: 'contours', 'pointer-events': 'none' }, root);
    let contourD = '';
    for (const h of hexes) {
      const a = this.axial(h.id);
      const cs = corners(a.q, a.r);
      DIRECTIONS.forEach(([dq, dr], k) => {
        const n = byAxial.get(axialKey(a.q + dq, a.r + dr));
        if (n && (n.elevation || 0) < (h.elevation || 0)) {
          const [x1, y1] = cs[(k + 5) % 6];
          const [x2, y2] = cs[k];
          contourD += `M${x1.toFixed(1)},${y1.toFixed(1)}L${x2.toFixed(1)},${y2.toFixed(1)}`;
        }
      });
    }
    if (contourD) el('path', { class: 'contour', d: contourD }, gContour);

    // Roads and tracks through hex centres, with a casing.
    const gRoads = el('g', { class: 'roads', 'pointer-events': 'none' }, root);
    for (const road of board.roads || []) {
      const d = roadPath(road.hexes.map((id) => this.at(id)));
      const colour = styles.colour(road.kind);
      const track = String(road.kind).toLowerCase().includes('track');
      el('path', { class: 'road-casing', d, 'stroke-width': track ? 5 : 7 }, gRoads);
      el('path', {
        class: 'road', 'data-kind': road.kind, d, stroke: colour, 'stroke-width': track ? 2.6 : 4,
        'stroke-dasharray': track ? '7 4' : null,
      }, gRoads);
    }

    // Hexside features along the shared edge.
    const gSides = el('g', { class: 'hexsides', 'pointer-events': 'none' }, root);
    for (const side of board.hexsides || []) {
      const a = this.axial(side.a);
      const b = this.axial(side.b);
      const k = directionTo(a, b);
      if (k < 0) continue;
      const cs = corners(a.q, a.r);
      const p1 = cs[(k + 5) % 6];
      const p2 = cs[k];
      const colour = styles.colour(side.feature);
      const kind = featureKind(side.feature);
      const attrs = { class: `hexside hexside-${kind}`, 'data-feature': side.feature };
      if (kind === 'slope') {
        // Ticks point downhill: toward the lower of the two hexes.
        const ea = byId.get(side.a)?.elevation ?? 0;
        const eb = byId.get(side.b)?.elevation ?? 0;
        const [ca, cb] = [centre(a.q, a.r), centre(b.q, b.r)];
        const down = eb <= ea ? [cb[0] - ca[0], cb[1] - ca[1]] : [ca[0] - cb[0], ca[1] - cb[1]];
        const len = Math.hypot(down[0], down[1]);
        const [ux, uy] = [down[0] / len, down[1] / len];
        let d = `M${p1[0].toFixed(1)},${p1[1].toFixed(1)}L${p2[0].toFixed(1)},${p2[1].toFixed(1)}`;
        for (let i = 1; i <= 5; i++) {
          const t = i / 6;
          const x = p1[0] + (p2[0] - p1[0]) * t;
          const y = p1[1] + (p2[1] - p1[1]) * t;
          d += `M${x.toFixed(1)},${y.toFixed(1)}l${(ux * 6).toFixed(1)},${(uy * 6).toFixed(1)}`;
        }
        el('path', { ...attrs, d, stroke: colour }, gSides);
      } else if (kind === 'river' || kind === 'stream') {
        // A slight bend so that water does not look ruled.
        const mx = (p1[0] + p2[0]) / 2;
        const my = (p1[1] + p2[1]) / 2;
        const ca = centre(a.q, a.r);
        const bend = kind === 'river' ? 0 : 0.12;
        const cx = mx + (mx - ca[0]) * bend;
        const cy = my + (my - ca[1]) * bend;
        const d = `M${p1[0].toFixed(1)},${p1[1].toFixed(1)}Q${cx.toFixed(1)},${cy.toFixed(1)} ${p2[0].toFixed(1)},${p2[1].toFixed(1)}`;
        el('path', { ...attrs, d, stroke: colour }, gSides);
      } else {
        el('line', {
          ...attrs, x1: p1[0], y1: p1[1], x2: p2[0], y2: p2[1], stroke: colour,
        }, gSides);
      }
    }

    // Hex ids and place names.
    const gLabels = el('g', { class: 'labels', 'pointer-events': 'none' }, root);
    const half = (SIZE * SQRT3) / 2;
    for (const h of hexes) {
      const [cx, cy] = this.at(h.id);
      const t = el('text', { class: 'hex-id', x: cx, y: cy - half + 9 }, gLabels);
      t.textContent = h.id;
    }
    for (const h of hexes) {
      if (!h.label) continue;
      const [cx, cy] = this.at(h.id);
      const t = el('text', { class: 'hex-label', x: cx, y: cy + half - 6 }, gLabels);
      t.textContent = h.label;
    }

    // Highlights: where the selected counter may go, its targets, the selection.
    const gMarks = el('g', { class: 'marks', 'pointer-events': 'none' }, root);
    for (const [id, kind] of marks.moves || new Map()) {
      const a = this.axial(id);
      const inner = corners(a.q, a.r).map(([x, y]) => {
        const [cx, cy] = centre(a.q, a.r);
        return [cx + (x - cx) * 0.88, cy + (y - cy) * 0.88];
      });
      el('polygon', { class: `mark mark-${kind}`, 'data-mark': id, points: pts(inner) }, gMarks);
    }
    this.pathLayer = el('g', { class: 'path-layer' }, gMarks);
    this.showPath(marks.path || []);
    if (marks.selectedHex && byId.has(marks.selectedHex)) {
      const a = this.axial(marks.selectedHex);
      el('polygon', { class: 'mark-selected-hex', points: pts(corners(a.q, a.r)) }, gMarks);
    }

    // Counters, deepest of each stack first.
    const gCounters = el('g', { class: 'counters' }, root);
    const counters = [...(board.counters || [])].sort((x, y) => (x.hex < y.hex ? -1 : x.hex > y.hex ? 1 : 0)
      || (y.stack_position - x.stack_position) || (x.id < y.id ? -1 : 1));
    const stackSize = new Map();
    for (const c of counters) stackSize.set(c.hex, (stackSize.get(c.hex) || 0) + 1);
    for (const c of counters) {
      const [hx, hy] = this.at(c.hex);
      const n = stackSize.get(c.hex);
      // Deeper counters peek out up and to the right; the stack stays centred in its hex.
      const depth = Math.min(c.stack_position, 4);
      const off = STACK_SHIFT * (depth - Math.min(n - 1, 4) / 2);
      const x = hx + off;
      const y = hy + 3 - off;
      this.drawCounter(gCounters, c, x, y, {
        selected: marks.selected === c.id,
        target: marks.targets?.has(c.id),
        stack: c.stack_position === 0 && n > 1 ? n : 0,
      });
    }

    if (!this.fitted && hexes.length) {
      this.fit();
      this.fitted = true;
    }
    this.apply();
  }

  /** Shows a path of hexes (a move's route) on the map, or nothing for an empty list. */
  showPath(ids) {
    if (!this.pathLayer) return;
    this.pathLayer.replaceChildren();
    const known = ids.filter((id) => (this.board?.hexes || []).some((h) => h.id === id));
    if (known.length > 1) {
      el('path', { class: 'mark-path', d: roadPath(known.map((id) => this.at(id))) }, this.pathLayer);
      const [x, y] = this.at(known[known.length - 1]);
      el('circle', { class: 'mark-path-end', cx: x, cy: y, r: 5 }, this.pathLayer);
    }
  }

  /** Draws one counter centred at (x, y). */
  drawCounter(parent, c, x, y, { selected, target, stack }) {
    const styles = this.styles;
    const size = c.kind === 'marker' ? COUNTER * 0.8 : c.kind === 'leader' ? COUNTER * 0.9 : COUNTER;
    const left = x - size / 2;
    const top = y - size / 2;
    const fill = styles.side(c.side);
    const ink = isDark(fill) ? '#ffffff' : '#141414';
    const g = el('g', {
      class: `counter counter-${c.kind}${selected ? ' selected' : ''}${target ? ' target' : ''}`,
      'data-counter': c.id, 'data-hex': c.hex, 'data-side': c.side,
    }, parent);
    const title = el('title', {}, g);
    title.textContent = `${c.name} (${c.values})${c.facing ? ', facing ' + c.facing : ''}${c.markers?.length ? ', ' + c.markers.join(', ') : ''} in ${c.hex}`;
    el('rect', { class: 'counter-shadow', x: left + 1.5, y: top + 2, width: size, height: size, rx: 3.5 }, g);
    el('rect', {
      class: 'counter-body', x: left, y: top, width: size, height: size, rx: 3.5, fill,
      'stroke-dasharray': c.kind === 'marker' ? '2 1.5' : null,
    }, g);
    if (c.band) {
      el('rect', { x: left + 1.2, y: top + 1.2, width: size - 2.4, height: 5, rx: 1.5, fill: c.band, class: 'counter-band' }, g);
    }
    const fit = (text, font) => {
      const chars = Math.max(String(text).length, 1);
      const room = size - 3;
      const f = Math.max(3.5, Math.min(font, room / (0.56 * chars)));
      return f;
    };
    const name = el('text', { class: 'counter-name', x, y: top + 14.5, fill: ink, 'font-size': fit(c.name, 7).toFixed(1) }, g);
    name.textContent = c.name;
    const values = el('text', {
      class: 'counter-values', x, y: top + size - 4.5, fill: ink, 'font-size': fit(c.values, 9).toFixed(1),
    }, g);
    values.textContent = c.values;
    if (c.kind === 'leader') {
      el('circle', { cx: left + size - 4, cy: top + 10, r: 2, fill: ink, opacity: 0.8 }, g);
    }
    if (c.facing) {
      const v = VERTICES.indexOf(c.facing);
      if (v >= 0) {
        const [ux, uy] = CORNERS[v];
        const [px, py] = [-uy, ux];
        const base = size / 2 + 0.5;
        const tip = [x + ux * (base + 7), y + uy * (base + 7)];
        const b1 = [x + ux * base + px * 4.5, y + uy * base + py * 4.5];
        const b2 = [x + ux * base - px * 4.5, y + uy * base - py * 4.5];
        el('polygon', { class: 'facing', 'data-vertex': c.facing, points: pts([tip, b1, b2]) }, g);
      }
    }
    if (c.markers && c.markers.length) {
      const text = c.markers.join(' · ');
      const w = Math.max(size, text.length * 3.6 + 6);
      el('rect', { class: 'marker-tag', x: x - w / 2, y: top + size + 1, width: w, height: 9, rx: 2 }, g);
      const t = el('text', { class: 'marker-text', x, y: top + size + 8 }, g);
      t.textContent = text;
    }
    if (stack) {
      el('circle', { class: 'stack-badge', cx: left + size, cy: top, r: 5.5 }, g);
      const t = el('text', { class: 'stack-count', x: left + size, y: top + 2.6 }, g);
      t.textContent = String(stack);
    }
  }

  /** Zooms so that the whole map fits the viewport. */
  fit() {
    const { minX, minY, maxX, maxY } = this.bounds;
    const r = this.svg.getBoundingClientRect();
    const w = r.width || 800;
    const h = r.height || 600;
    const k = Math.min(w / (maxX - minX + 40), h / (maxY - minY + 40));
    this.view.k = k;
    this.view.x = (w - (maxX - minX) * k) / 2 - minX * k;
    this.view.y = (h - (maxY - minY) * k) / 2 - minY * k;
    this.apply();
  }

  /** Centres the view on a hex, keeping the zoom. */
  centreOn(id) {
    const [cx, cy] = this.at(id);
    const r = this.svg.getBoundingClientRect();
    this.view.x = r.width / 2 - cx * this.view.k;
    this.view.y = r.height / 2 - cy * this.view.k;
    this.apply();
  }

  apply() {
    const { x, y, k } = this.view;
    this.root.setAttribute('transform', `translate(${x.toFixed(2)} ${y.toFixed(2)}) scale(${k.toFixed(4)})`);
    this.svg.dataset.zoom = k.toFixed(3);
    // Far out, hex ids would only be noise.
    this.svg.classList.toggle('far', k < 0.75);
  }

  /** Zooms by a factor around a screen point (client coordinates). */
  zoomAt(factor, clientX, clientY) {
    const r = this.svg.getBoundingClientRect();
    const px = clientX === undefined ? r.width / 2 : clientX - r.left;
    const py = clientY === undefined ? r.height / 2 : clientY - r.top;
    const k = Math.min(8, Math.max(0.15, this.view.k * factor));
    const f = k / this.view.k;
    this.view.x = px - (px - this.view.x) * f;
    this.view.y = py - (py - this.view.y) * f;
    this.view.k = k;
    this.apply();
  }

  /** Moves the map by screen pixels. */
  panBy(dx, dy) {
    this.view.x += dx;
    this.view.y += dy;
    this.apply();
  }

  installGestures() {
    const svg = this.svg;
    svg.addEventListener('wheel', (e) => {
      e.preventDefault();
      this.zoomAt(Math.exp(-e.deltaY * (e.deltaMode === 1 ? 0.05 : 0.0015)), e.clientX, e.clientY);
    }, { passive: false });
    svg.addEventListener('pointerdown', (e) => {
      if (e.button !== undefined && e.button > 0) return;
      svg.setPointerCapture?.(e.pointerId);
      this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (this.pointers.size === 1) {
        this.gesture = { startX: e.clientX, startY: e.clientY, moved: false, target: e.target };
      } else {
        this.gesture = { moved: true };
      }
    });
    svg.addEventListener('pointermove', (e) => {
      const p = this.pointers.get(e.pointerId);
      if (!p) {
        if (e.pointerType === 'mouse' && this.handlers.onHover) {
          const hex = e.target?.closest?.('[data-hex]');
          const id = hex ? hex.getAttribute('data-hex') : null;
          if (id !== this.hovered) {
            this.hovered = id;
            this.handlers.onHover(id);
          }
        }
        return;
      }
      if (this.pointers.size === 2) {
        const [a, b] = [...this.pointers.values()];
        const before = Math.hypot(a.x - b.x, a.y - b.y);
        const midBefore = [(a.x + b.x) / 2, (a.y + b.y) / 2];
        p.x = e.clientX; p.y = e.clientY;
        const [c, d] = [...this.pointers.values()];
        const after = Math.hypot(c.x - d.x, c.y - d.y);
        const midAfter = [(c.x + d.x) / 2, (c.y + d.y) / 2];
        if (before > 0) this.zoomAt(after / before, midAfter[0], midAfter[1]);
        this.panBy(midAfter[0] - midBefore[0], midAfter[1] - midBefore[1]);
        return;
      }
      const dx = e.clientX - p.x;
      const dy = e.clientY - p.y;
      p.x = e.clientX; p.y = e.clientY;
      const g = this.gesture;
      if (g && !g.moved && Math.hypot(e.clientX - g.startX, e.clientY - g.startY) > 6) g.moved = true;
      if (g && g.moved) {
        svg.classList.add('dragging');
        this.panBy(dx, dy);
      }
    });
    const end = (e) => {
      if (!this.pointers.has(e.pointerId)) return;
      this.pointers.delete(e.pointerId);
      const g = this.gesture;
      if (this.pointers.size === 0) {
        svg.classList.remove('dragging');
        this.gesture = null;
        if (g && !g.moved && e.type === 'pointerup') this.click(g.target, e);
      }
    };
    svg.addEventListener('pointerup', end);
    svg.addEventListener('pointercancel', end);
  }

  /** A click (not a drag) on the map. */
  click(target, e) {
    const counter = target?.closest?.('[data-counter]');
    if (counter && this.handlers.onCounter) {
      this.handlers.onCounter(counter.getAttribute('data-counter'), counter.getAttribute('data-hex'));
      return;
    }
    const hex = target?.closest?.('[data-hex]');
    if (hex && this.handlers.onHex) {
      this.handlers.onHex(hex.getAttribute('data-hex'));
      return;
    }
    // Outside the drawn hexes: pick by geometry.
    const r = this.svg.getBoundingClientRect();
    const x = (e.clientX - r.left - this.view.x) / this.view.k;
    const y = (e.clientY - r.top - this.view.y) / this.view.k;
    const id = this.pick(x, y);
    if (id && this.handlers.onHex) this.handlers.onHex(id);
  }

  /** The printed id of the hex under map point (x, y), if it is on the map. */
  pick(x, y) {
    const q = ((2 / 3) * x) / SIZE;
    const r = (-x / 3 + (SQRT3 / 3) * y) / SIZE;
    const s = -q - r;
    let rq = Math.round(q);
    let rr = Math.round(r);
    const rs = Math.round(s);
    const [eq, er, es] = [Math.abs(rq - q), Math.abs(rr - r), Math.abs(rs - s)];
    if (eq > er && eq > es) rq = -rr - rs;
    else if (er > es) rr = -rq - rs;
    const id = toId(rq, rr, this.shove);
    return id && (this.board?.hexes || []).some((h) => h.id === id) ? id : null;
  }
}

/** A smooth path through points (a polyline with rounded corners). */
function roadPath(points) {
  if (!points.length) return '';
  if (points.length < 3) return 'M' + points.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join('L');
  let d = `M${points[0][0].toFixed(1)},${points[0][1].toFixed(1)}`;
  for (let i = 1; i < points.length - 1; i++) {
    const [x, y] = points[i];
    const [nx, ny] = points[i + 1];
    const mx = (x + nx) / 2;
    const my = (y + ny) / 2;
    d += `Q${x.toFixed(1)},${y.toFixed(1)} ${mx.toFixed(1)},${my.toFixed(1)}`;
  }
  const last = points[points.length - 1];
  d += `L${last[0].toFixed(1)},${last[1].toFixed(1)}`;
  return d;
}

/** The texture pattern for a terrain key, if it has one (see texturesDefs). */
function textureFor(terrain) {
  const k = String(terrain).toLowerCase();
  if (k.includes('wood') || k.includes('forest') || k.includes('orchard') || k.includes('olive')) return 'wood';
  if (k.includes('rough') || k.includes('scrub') || k.includes('rock') || k.includes('broken')) return 'rough';
  if (k.includes('marsh') || k.includes('swamp')) return 'marsh';
  if (k.includes('town') || k.includes('village') || k.includes('city') || k.includes('castle')) return 'town';
  if (k.includes('sand') || k.includes('desert') || k.includes('dune')) return 'sand';
  return null;
}

/** The <defs> with terrain textures; put once in the map's <svg>. */
export function texturesDefs(svg) {
  const defs = el('defs', {}, null);
  const pattern = (id, w, h, draw) => {
    const p = el('pattern', { id: `tex-${id}`, width: w, height: h, patternUnits: 'userSpaceOnUse' }, defs);
    draw(p);
  };
  pattern('wood', 16, 14, (p) => {
    el('circle', { cx: 4, cy: 4, r: 2.6, fill: '#3d5f2a', opacity: 0.35 }, p);
    el('circle', { cx: 12, cy: 11, r: 2.2, fill: '#3d5f2a', opacity: 0.3 }, p);
  });
  pattern('rough', 12, 12, (p) => {
    el('circle', { cx: 3, cy: 3, r: 0.9, fill: '#5b4a2e', opacity: 0.45 }, p);
    el('circle', { cx: 9, cy: 8, r: 0.7, fill: '#5b4a2e', opacity: 0.4 }, p);
    el('path', { d: 'M6,11 l2,-2 l2,2', stroke: '#5b4a2e', 'stroke-width': 0.6, fill: 'none', opacity: 0.35 }, p);
  });
  pattern('marsh', 14, 8, (p) => {
    el('path', { d: 'M1,6 h6 M8,3 h5', stroke: '#2f5b66', 'stroke-width': 0.8, opacity: 0.45 }, p);
  });
  pattern('town', 10, 10, (p) => {
    el('rect', { x: 2, y: 2, width: 3.5, height: 3.5, fill: '#6b3b2a', opacity: 0.35 }, p);
  });
  pattern('sand', 9, 9, (p) => {
    el('circle', { cx: 2, cy: 2, r: 0.6, fill: '#8a6a30', opacity: 0.35 }, p);
    el('circle', { cx: 6.5, cy: 6, r: 0.5, fill: '#8a6a30', opacity: 0.3 }, p);
  });
  svg.insertBefore(defs, svg.firstChild);
}

/**
 * The legend's entries for a board: terrain keys, hexside and road features, in styles order.
 * @returns {{terrains: string[], features: string[], elevation: boolean}}
 */
export function legendEntries(board) {
  const order = (keys) => {
    const pos = (k) => {
      const i = (board.styles || []).findIndex((s) => s.key === k);
      return i < 0 ? Infinity : i;
    };
    return [...keys].sort((a, b) => pos(a) - pos(b) || (a < b ? -1 : 1));
  };
  const terrains = order(new Set((board.hexes || []).map((h) => h.terrain)));
  const features = order(new Set([
    ...(board.hexsides || []).map((s) => s.feature), ...(board.roads || []).map((r) => r.kind)]));
  const elevation = (board.hexes || []).some((h) => (h.elevation || 0) > 0);
  return { terrains, features, elevation };
}

/** Whether a feature key is drawn as a road (not a hexside). */
export function isRoad(board, key) {
  return (board.roads || []).some((r) => r.kind === key);
}

export { featureKind, textureFor };
