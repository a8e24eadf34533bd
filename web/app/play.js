// The game page (/play/GAMEID?token=T): the map, the seat's decisions, the log, live updates
// and, when this browser holds several seats (hot-seat), the hand-over screen between them.

import { ApiError, GameSocket, fetchMap, request, savedGames, seatTitle } from './api.js';
import { HexMap, featureKind, isRoad, legendEntries, texturesDefs, Styles } from './hexmap.js';

const $ = (id) => document.getElementById(id);

/** Kinds of actions aimed at enemy counters: always confirmed with their odds first. */
const ATTACKS = new Set(['fire', 'melee', 'attack', 'charge', 'shoot']);
/** How many actions before the filter box appears. */
const FILTER_AT = 12;

const gameId = decodeURIComponent(location.pathname.replace(/\/+$/, '').split('/').pop() || '');
const urlToken = new URLSearchParams(location.search).get('token');

/** The seats this page plays: seat -> token; `null` key for a spectator. */
const tokens = new Map();
const saved = savedGames()[gameId];
if (saved && saved.hotseat && saved.tokens && Object.keys(saved.tokens).length) {
  for (const [seat, token] of Object.entries(saved.tokens)) tokens.set(seat, token);
}
if (!tokens.size) tokens.set(null, urlToken);
const hotseat = tokens.size > 1;

const ui = {
  /** Latest state document per seat key. */
  docs: new Map(),
  /** The seat whose view is shown (key of `tokens`). */
  shown: undefined,
  /** A seat waiting behind the hand-over screen. */
  handoverTo: undefined,
  selected: null,
  selectedHex: null,
  /** The selected counter's actions as last fetched: `{ seat, revision, counter, actions }`. */
  unit: null,
  sending: false,
  logCount: 0,
  logSeat: undefined,
};

const map = new HexMap($('map'), { onHex, onCounter, onHover });
texturesDefs($('map'));

// ---------------------------------------------------------------- state and connections

const linkStates = new Map();
const sockets = [];
for (const [seat, token] of tokens) {
  sockets.push(new GameSocket(gameId, token, {
    onState: (doc) => receive(seat, doc),
    onStatus: (s) => linkStatus(seat, s),
    onError: (status, msg) => showError(status, msg),
  }));
}
fetchAll();

/** Fetches every held seat's state (at start, after a conflict, on Refresh). */
async function fetchAll() {
  await Promise.all([...tokens].map(async ([seat, token]) => {
    try {
      const q = token ? `?token=${encodeURIComponent(token)}` : '';
      const doc = await request('GET', `/api/games/${encodeURIComponent(gameId)}/state${q}`);
      receive(seat, doc);
    } catch (e) {
      showError(e.status, e.message);
    }
  }));
}

function linkStatus(seat, s) {
  linkStates.set(seat, s);
  const all = [...linkStates.values()];
  const text = all.every((x) => x === 'live') ? 'live' : all.includes('reconnecting') ? 'reconnecting…' : 'connecting…';
  $('link').textContent = text === 'live' ? '● live' : `○ ${text}`;
  $('link').className = `link-state ${text === 'live' ? 'ok' : 'warn'}`;
}

/**
 * A new state document for a seat: its board is the map (fetched once per key) with the
 * document's counters; keep the newest, then decide what to show.
 */
async function receive(seat, raw) {
  if (!raw || typeof raw !== 'object') return;
  let mapDoc = {};
  if (raw.map) {
    try {
      mapDoc = await fetchMap(raw.map);
    } catch (e) {
      showError(e.status, e.message);
      return;
    }
  }
  const old = ui.docs.get(seat);
  if (old && typeof old.revision === 'number' && typeof raw.revision === 'number' && raw.revision < old.revision) return;
  const { version: _v, ...map } = mapDoc || {};
  ui.docs.set(seat, { ...raw, board: { ...map, ...(raw.board || {}) } });
  if (seat === ui.shown && ui.selected) loadUnit(ui.selected);
  choose();
}

/** Picks the seat to show; in hot-seat a change of seat goes through the hand-over screen. */
function choose() {
  let next = ui.shown;
  if (!hotseat) {
    next = [...tokens.keys()][0];
  } else {
    const deciding = [...tokens.keys()].filter((s) => ui.docs.get(s)?.your_turn);
    if (ui.shown === undefined || !deciding.includes(ui.shown)) {
      if (deciding.length) next = deciding[0];
      else if (ui.shown === undefined) next = [...tokens.keys()].find((s) => ui.docs.has(s));
    }
  }
  if (next === undefined || !ui.docs.has(next)) return;
  if (hotseat && next !== ui.shown) {
    if (ui.handoverTo !== next) handover(next);
    return;
  }
  ui.shown = next;
  show();
}

/** Hides everything and asks for the next player. */
function handover(seat) {
  ui.handoverTo = seat;
  ui.shown = undefined;
  clearSelection(false);
  document.body.classList.add('handing-over');
  $('main').hidden = true;
  map.root.replaceChildren();
  $('log').replaceChildren();
  $('actions').replaceChildren();
  $('stack').replaceChildren();
  $('unit-actions').replaceChildren();
  // Status lines may list the seat's own secret orders.
  $('status').replaceChildren();
  ui.logCount = 0;
  ui.logSeat = undefined;
  if ($('chooser').open) $('chooser').close();
  $('handover-title').textContent = `Pass to the ${seatTitle(seat)} player — click when ready`;
  $('seat').textContent = 'Hot-seat';
  hideError();
  $('handover').hidden = false;
  $('handover-ready').focus();
}

$('handover-ready').addEventListener('click', () => {
  const seat = ui.handoverTo;
  ui.handoverTo = undefined;
  $('handover').hidden = true;
  $('main').hidden = false;
  document.body.classList.remove('handing-over');
  ui.shown = seat;
  map.fitted = false;
  show();
  $('map').focus();
});

function doc() {
  return ui.docs.get(ui.shown);
}

// ---------------------------------------------------------------- drawing

/** Redraws everything from the shown seat's document. */
function show() {
  const d = doc();
  if (!d) return;
  document.title = `${d.title || d.scenario} — Crusades`;
  $('title').textContent = d.title || d.scenario || gameId;
  $('seat').textContent = d.seat ? `${seatTitle(d.seat)}${hotseat ? ' (hot-seat)' : ''}` : 'Spectator';
  $('seat').className = `seat-badge${d.seat ? '' : ' spectator'}`;
  if (d.seat) $('seat').style.setProperty('--side', new Styles(d.board?.styles).side(d.seat));

  // Drop a selection that no longer makes sense.
  if (ui.selected && !(d.board?.counters || []).some((c) => c.id === ui.selected) && !actionCount(ui.selected)) {
    ui.selected = null;
    ui.selectedHex = null;
  }
  const sel = ui.selected && (d.board?.counters || []).find((c) => c.id === ui.selected);
  if (sel) ui.selectedHex = sel.hex;
  drawMap();
  drawStatus(d);
  drawFailure(d);
  drawSelection();
  drawActions(d);
  drawLegend(d.board || {});
  drawLog(d);
  drawOutcome(d);
}

function actions() {
  return doc()?.actions || [];
}

/**
 * Actions whose actors include counter `id`: the selected counter's as fetched for this
 * revision, else those listed whole in the document (the rest are asked for on selection).
 */
function actionsOf(id) {
  const d = doc();
  const u = ui.unit;
  if (u && d && u.counter === id && u.seat === ui.shown && u.revision === d.revision) return u.actions;
  return actions().filter((a) => (a.counters || []).includes(id));
}

/** How many actions counter `id` has in document `d`. */
function actionCount(id, d = doc()) {
  const listed = (d?.actions || []).filter((a) => (a.counters || []).includes(id)).length;
  return listed + ((d?.actors || []).find((x) => x.counter === id)?.actions || 0);
}

/** Fetches the actions of counter `id` for the shown seat, then redraws. */
async function loadUnit(id) {
  const d = doc();
  const seat = ui.shown;
  if (!d || !d.your_turn || !(d.actors || []).some((x) => x.counter === id)) return;
  const u = ui.unit;
  if (u && u.counter === id && u.seat === seat && u.revision === d.revision) return;
  try {
    const q = `?counter=${encodeURIComponent(id)}`;
    const got = await request('GET', `/api/games/${encodeURIComponent(gameId)}/actions${q}`, { token: tokens.get(seat) });
    if (ui.shown !== seat || doc()?.revision !== got.revision || ui.selected !== id) return;
    ui.unit = { seat, revision: got.revision, counter: id, actions: got.actions || [] };
    drawMap();
    drawSelection();
    drawActions(doc());
  } catch (e) {
    showError(e.status, e.message);
  }
}

/** The lone `select` action of counter `id` when that is all it may do now. */
function selectAction(id) {
  if ((doc()?.actors || []).some((x) => x.counter === id)) return null;
  const own = actions().filter((a) => (a.counters || []).includes(id));
  return own.length === 1 && own[0].kind === 'select' ? own[0] : null;
}

/** The `deselect` action, when the game lists one. */
function deselectAction() {
  return actions().find((a) => a.kind === 'deselect') || null;
}

function isAttack(a) {
  return ATTACKS.has(a.kind) || (a.targets || []).length > 0;
}

function drawMap() {
  const d = doc();
  if (!d?.board) return;
  const moves = new Map();
  const targets = new Set();
  if (ui.selected) {
    for (const a of actionsOf(ui.selected)) {
      if (a.hex) {
        const kind = isAttack(a) ? 'attack' : 'move';
        if (moves.get(a.hex) !== 'attack') moves.set(a.hex, kind);
      }
      for (const t of a.targets || []) targets.add(t);
    }
  }
  map.render(d.board, {
    moves, targets, selected: ui.selected, selectedHex: ui.selectedHex, path: ui.path || [],
  });
}

function drawStatus(d) {
  const ul = $('status');
  ul.replaceChildren(...(d.status || []).map((line) => li(line)));
  const pending = d.pending || [];
  const ai = new Set(d.ai_seats || []);
  let turn;
  if (d.outcome) turn = 'Game over';
  else if (d.your_turn) turn = pending.length > 1 ? 'Your decision (secret, simultaneous)' : 'Your decision';
  else if (pending.length) turn = `Waiting for ${pending.map((s) => seatTitle(s) + (ai.has(s) ? ' (AI)' : '')).join(', ')}`;
  else turn = 'Waiting';
  const said = (d.status || []).some((l) => /decid|to move|pending/i.test(l));
  $('pending').textContent = d.outcome || said ? '' : `Deciding: ${pending.map(seatTitle).join(', ') || 'nobody'}`;
  $('turn').textContent = turn;
  $('turn').className = `turn-chip${d.your_turn ? ' yours' : ''}`;
  $('undo').hidden = !d.can_undo;
  $('dice-mode').hidden = d.dice !== 'manual';
}

/** An AI seat that stopped playing, told to every player. */
function drawFailure(d) {
  const box = $('ai-failure');
  box.hidden = !d.ai_failure;
  box.textContent = d.ai_failure ? `AI stopped: ${d.ai_failure}` : '';
}

function drawOutcome(d) {
  const b = $('banner');
  if (!d.outcome) {
    b.hidden = true;
    return;
  }
  const o = d.outcome;
  const who = o.winner ? `${seatTitle(o.winner)} wins` : 'Draw';
  b.replaceChildren(
    text('strong', `${who}${o.level ? ` — ${o.level} victory` : ''}`),
    text('span', o.reason ? ` · ${o.reason}` : ''),
  );
  b.className = `banner ${o.winner && o.winner === d.seat ? 'win' : o.winner ? 'loss' : ''}`;
  b.hidden = false;
}

function drawSelection() {
  const d = doc();
  const box = $('selection-box');
  const hexId = ui.selectedHex;
  if (!d || (!hexId && !ui.selected)) {
    box.hidden = true;
    return;
  }
  if (!hexId) {
    // A counter off the map (to be placed or entering): its actions only.
    box.hidden = false;
    $('selection-title').textContent = `${counterName(ui.selected)} (off the map)`;
    $('stack').replaceChildren();
    const own = actionsOf(ui.selected);
    $('unit-actions').replaceChildren(text('h3', `${own.length} possible: click a highlighted hex or choose here`), actionList(own, 40));
    return;
  }
  box.hidden = false;
  const hex = (d.board.hexes || []).find((h) => h.id === hexId);
  const styles = new Styles(d.board.styles);
  const where = hex ? `${hexId}${hex.label ? ` · ${hex.label}` : ''} · ${styles.name(hex.terrain)}${hex.elevation ? `, level ${hex.elevation}` : ''}` : hexId;
  $('selection-title').textContent = `Hex ${where}`;
  const stack = (d.board.counters || []).filter((c) => c.hex === hexId)
    .sort((a, b) => a.stack_position - b.stack_position);
  $('stack').replaceChildren(...stack.map((c) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = `counter-chip${c.id === ui.selected ? ' selected' : ''}`;
    b.style.setProperty('--side', styles.side(c.side));
    b.dataset.counter = c.id;
    b.setAttribute('aria-pressed', String(c.id === ui.selected));
    const n = c.id === ui.selected ? actionsOf(c.id).length : actionCount(c.id);
    b.replaceChildren(
      text('span', c.name, 'chip-name'),
      text('span', c.values, 'chip-values'),
      text('span', [c.facing ? `faces ${c.facing}` : '', ...(c.markers || [])].filter(Boolean).join(' · '), 'chip-extra'),
      text('span', n ? `${n} action${n > 1 ? 's' : ''}` : '', 'chip-count'),
    );
    b.addEventListener('click', () => selectCounter(c.id));
    return li(b);
  }));
  if (!stack.length) $('stack').replaceChildren(li('No counters here.'));
  // The selected counter's decisions, as buttons (the keyboard way to do what the map does).
  const own = ui.selected ? actionsOf(ui.selected) : [];
  const container = $('unit-actions');
  container.replaceChildren();
  if (own.length) {
    const name = stack.find((c) => c.id === ui.selected)?.name || ui.selected;
    container.append(text('h3', `${name}: ${own.length} possible`));
    container.append(actionList(own, 40));
  }
}

/**
 * The seat's decisions: the counters that can act on the map (select one, then click a
 * highlighted hex), and every other action as buttons grouped by kind. The filter searches
 * all of them.
 */
function drawActions(d) {
  const box = $('actions-box');
  const list = d.actions || [];
  box.hidden = !list.length && !(d.actors || []).length;
  const filter = $('filter');
  const own = ui.selected ? actionsOf(ui.selected).length : 0;
  filter.hidden = list.length + (d.actors || []).length + own <= FILTER_AT;
  const f = filter.hidden ? '' : filter.value.trim().toLowerCase();
  const out = $('actions');
  out.replaceChildren();
  if (f) {
    const sel = ui.selected ? actionsOf(ui.selected).filter((a) => !list.includes(a)) : [];
    const hits = [...list, ...sel].filter((a) => `${a.label || ''} ${a.notation} ${(a.details || []).join(' ')}`.toLowerCase().includes(f));
    out.append(hits.length ? actionList(hits, 60) : text('p', 'No action matches the filter.', 'muted'));
    return;
  }
  const onMap = d.actors || [];
  const others = list;
  if (onMap.length) {
    const actors = new Map(onMap.map((x) => [x.counter, x.actions]));
    const det = document.createElement('details');
    det.className = 'action-group actors';
    det.dataset.kind = 'map';
    det.open = true;
    const sum = document.createElement('summary');
    sum.textContent = `On the map: ${actors.size} counter${actors.size > 1 ? 's' : ''} can act`;
    const hint = text('p', 'Click a counter, then a highlighted hex (red: attack).', 'muted hint');
    const ul = document.createElement('ul');
    ul.className = 'actor-list';
    const counters = new Map((d.board?.counters || []).map((c) => [c.id, c]));
    const styles = new Styles(d.board?.styles);
    for (const [id, n] of actors) {
      const c = counters.get(id);
      const b = document.createElement('button');
      b.type = 'button';
      b.className = `actor${id === ui.selected ? ' selected' : ''}`;
      b.dataset.counter = id;
      if (c) b.style.setProperty('--side', styles.side(c.side));
      b.textContent = c ? `${c.name} · ${c.hex}` : `${counterName(id)} · off map`;
      b.title = `${n} action${n > 1 ? 's' : ''}`;
      b.addEventListener('click', () => {
        selectCounter(id);
        if (c) map.centreOn(c.hex);
      });
      ul.append(li(b));
    }
    det.append(sum, hint, ul);
    out.append(det);
  }
  const groups = new Map();
  for (const a of others) {
    const kind = a.kind || String(a.notation).split(' ')[0];
    if (!groups.has(kind)) groups.set(kind, []);
    groups.get(kind).push(a);
  }
  for (const [kind, group] of groups) {
    const det = document.createElement('details');
    det.className = 'action-group';
    det.dataset.kind = kind;
    det.open = group.length <= 12 || groups.size === 1;
    const sum = document.createElement('summary');
    sum.textContent = `${kindTitle(kind)} (${group.length})`;
    det.append(sum, actionList(group, 100));
    out.append(det);
  }
}
$('filter').addEventListener('input', () => drawActions(doc()));

/** A list of action buttons. */
function actionList(list, limit) {
  const ul = document.createElement('ul');
  ul.className = 'action-list';
  for (const a of list.slice(0, limit)) {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = `action${isAttack(a) ? ' attack' : ''}`;
    b.dataset.notation = a.notation;
    b.title = [a.notation, ...(a.details || [])].join('\n');
    b.textContent = a.label || a.notation;
    if (a.details && a.details.length) b.append(text('small', a.details.join(' · ')));
    b.addEventListener('click', () => choose1(a));
    b.addEventListener('mouseenter', () => preview(a));
    b.addEventListener('mouseleave', () => preview(null));
    b.addEventListener('focus', () => preview(a));
    b.addEventListener('blur', () => preview(null));
    ul.append(li(b));
  }
  if (list.length > limit) ul.append(li(text('span', `… and ${list.length - limit} more: use the filter`, 'muted')));
  return ul;
}

/** Shows an action's path on the map while its button is hovered. */
function preview(a) {
  const path = a ? [...(a.path || [])] : [];
  if (a && a.hex && !path.includes(a.hex)) path.push(a.hex);
  const start = a && (a.counters || [])[0] && (doc()?.board.counters || []).find((c) => c.id === a.counters[0]);
  ui.path = start && start.hex !== path[0] ? [start.hex, ...path] : path;
  map.showPath(ui.path);
}

/** Hovering a hex the selected counter may go to shows the way there. */
function onHover(id) {
  if (!ui.selected || !id) return preview(null);
  const there = actionsOf(ui.selected).filter((a) => a.hex === id);
  preview(there.find((a) => (a.path || []).length) || there[0] || null);
}

function kindTitle(kind) {
  const k = String(kind);
  return k.charAt(0).toUpperCase() + k.slice(1).replace(/[_-]/g, ' ');
}

function drawLegend(board) {
  const { terrains, features, elevation } = legendEntries(board);
  const styles = new Styles(board.styles);
  const items = [];
  for (const t of terrains) {
    const sw = text('span', '', `swatch tex-${t}`);
    sw.style.background = styles.colour(t);
    items.push(li(sw, text('span', styles.name(t))));
  }
  for (const f of features) {
    const kind = isRoad(board, f) ? 'road' : featureKind(f);
    const sw = text('span', '', `line-swatch line-${kind}`);
    sw.style.setProperty('--c', styles.colour(f));
    items.push(li(sw, text('span', styles.name(f))));
  }
  if (elevation) items.push(li(text('span', '', 'line-swatch line-contour'), text('span', 'Contour: ground steps down')));
  for (const side of new Set((board.counters || []).map((c) => c.side))) {
    const sw = text('span', '', 'swatch counter-swatch');
    sw.style.background = styles.side(side);
    items.push(li(sw, text('span', `${seatTitle(side)} counters`)));
  }
  $('legend').replaceChildren(...items);
}

/** The log, newest at the bottom; only new events are added between updates. */
function drawLog(d) {
  const log = d.log || [];
  const ol = $('log');
  if (ui.logSeat !== ui.shown || log.length < ui.logCount) {
    ol.replaceChildren();
    ui.logCount = 0;
    ui.logSeat = ui.shown;
  }
  // Follow the newest events unless the reader has scrolled up to older ones.
  const follow = ui.logCount === 0 || ol.scrollHeight - ol.scrollTop - ol.clientHeight < 40;
  for (let i = ui.logCount; i < log.length; i++) ol.append(eventItem(log[i], i + 1));
  ui.logCount = log.length;
  if (follow) ol.scrollTop = ol.scrollHeight;
}

function eventItem(ev, n) {
  const item = document.createElement('li');
  const secret = ev.public === false || (ev.visibility !== undefined && ev.visibility !== 'All');
  item.className = `event${secret ? ' secret' : ''}`;
  item.value = n;
  const head = document.createElement('div');
  head.className = 'event-head';
  head.append(text('span', ev.text || ''));
  if (ev.case) head.append(text('span', ev.case, 'case'));
  if (secret) head.append(text('span', 'secret', 'tag'));
  item.append(head);
  for (const r of ev.rolls || []) {
    const roll = document.createElement('div');
    roll.className = 'roll';
    if (r.purpose) roll.append(text('span', r.purpose, 'purpose'));
    const dice = document.createElement('span');
    dice.className = 'dice';
    dice.setAttribute('aria-label', `dice ${(r.dice || []).join(' and ')}`);
    for (const v of r.dice || []) dice.append(text('span', String(v), 'die'));
    roll.append(dice);
    for (const m of r.modifiers || []) {
      roll.append(text('span', `${m.value >= 0 ? '+' : '−'}${Math.abs(m.value)} ${m.reason}`, 'mod'));
    }
    if (typeof r.total === 'number') roll.append(text('span', `= ${r.total}`, 'total'));
    if (r.cell) roll.append(text('span', r.cell, 'cell'));
    if (r.result) roll.append(text('strong', `→ ${r.result}`, 'result'));
    item.append(roll);
  }
  return item;
}

// ---------------------------------------------------------------- choosing and acting

function onCounter(id, hex) {
  const d = doc();
  if (!d) return;
  if (ui.selected !== id) {
    // A unit that must be selected in the game first (a `select` action): at once.
    const sel = selectAction(id);
    if (sel) return pickUnit(id);
  }
  if (ui.selected && id !== ui.selected) {
    // Aimed at: the selected counter's attacks on it.
    const aimed = actionsOf(ui.selected).filter((a) => (a.targets || []).includes(id));
    if (aimed.length) return chooser(aimed, `Attack ${counterName(id)}`);
    // A counter standing in a hex the selected counter may enter and that has no choices itself.
    const into = actionsOf(ui.selected).filter((a) => a.hex === hex);
    if (into.length && !actionsOf(id).length) return chooser(into, `To ${hex}`);
  }
  if (ui.selected === id) {
    clearSelection();
    return;
  }
  selectCounter(id);
}

function onHex(id) {
  if (!doc()) return;
  if (ui.selected) {
    const here = actionsOf(ui.selected).filter((a) => a.hex === id);
    if (here.length) return chooser(here, `${counterName(ui.selected)} to ${id}`);
  }
  const top = (doc().board.counters || []).filter((c) => c.hex === id)
    .sort((a, b) => a.stack_position - b.stack_position)[0];
  // Empty map: put back a unit the game has selected.
  if (!top && deselectAction()) return cancel();
  ui.selected = top ? top.id : null;
  ui.selectedHex = id;
  drawMap();
  drawSelection();
}

/** Selects a counter: on the map, or off it (waiting to be placed) when it has actions. */
function selectCounter(id) {
  const c = (doc()?.board.counters || []).find((x) => x.id === id);
  if (!c && !actionCount(id)) return;
  ui.selected = id;
  ui.selectedHex = c ? c.hex : null;
  ui.path = [];
  drawMap();
  drawSelection();
  drawActions(doc());
  loadUnit(id);
}

/**
 * Picks a unit to act with: sends its `select` at once where the game asks for one (its
 * destinations come with the new view), else selects it here; `centre` brings it into view.
 */
function pickUnit(id, centre = false) {
  const sel = selectAction(id);
  const c = (doc()?.board.counters || []).find((x) => x.id === id);
  if (sel) {
    ui.selected = id;
    ui.selectedHex = c ? c.hex : null;
    act(sel.notation);
  } else {
    selectCounter(id);
  }
  if (c && centre) map.centreOn(c.hex);
}

/** Escape: drops the selection, and puts the unit back where the game has it selected. */
function cancel() {
  const de = deselectAction();
  clearSelection();
  if (de) act(de.notation);
}

function clearSelection(redraw = true) {
  ui.selected = null;
  ui.selectedHex = null;
  ui.path = [];
  ui.unit = null;
  if (redraw && doc()) {
    drawMap();
    drawSelection();
  }
}
$('deselect').addEventListener('click', () => cancel());

function counterName(id) {
  return (doc()?.board.counters || []).find((c) => c.id === id)?.name || String(id).replace(/-/g, ' ');
}

/** Arrows toward each vertex of a flat-topped hex. */
const FACING_ARROWS = { NNE: '↗', E: '→', SSE: '↘', SSW: '↙', W: '←', NNW: '↖' };

/**
 * Splits actions that differ only by their facing into groups of the same move (same kind,
 * counters, hex, path and words but the facing; nothing to confirm), or null when they do not.
 */
function facingGroups(list) {
  if (list.length < 2) return null;
  if (!list.every((a) => a.facing && !isAttack(a) && !(a.details || []).length)) return null;
  const groups = new Map();
  for (const a of list) {
    const words = String(a.notation).split(' ').filter((w) => w !== a.facing).join(' ');
    const key = `${a.kind}|${(a.counters || []).join(',')}|${a.hex}|${(a.path || []).join(',')}|${words}`;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(a);
  }
  const all = [...groups.values()];
  if (!all.every((g) => new Set(g.map((a) => a.facing)).size === g.length)) return null;
  return all.length <= 4 && all.some((g) => g.length > 1) ? all : null;
}

/** One action picked from a button: attacks and actions with details are confirmed. */
function choose1(a) {
  if (isAttack(a) || (a.details && a.details.length)) return chooser([a], a.label || a.notation);
  act(a.notation);
}

/**
 * Offers a choice between actions (or confirms one): each with its label and every detail
 * (odds, modifiers, costs). A single plain move is taken at once.
 */
function chooser(list, title) {
  if (list.length === 1 && !isAttack(list[0]) && !(list[0].details || []).length) {
    act(list[0].notation);
    return;
  }
  const dlg = $('chooser');
  $('chooser-title').textContent = list.length === 1 ? `Confirm: ${title}` : `${title}: choose`;
  const body = $('chooser-body');
  body.replaceChildren();
  const groups = facingGroups(list);
  if (groups) {
    // The same move with different facings: a compass of six buttons (one per variant).
    $('chooser-title').textContent = `${title}: which facing?`;
    for (const group of groups) {
      if (groups.length > 1) body.append(text('p', group[0].label.replace(/,?\s*facing \w+$/i, ''), 'choice-label'));
      const grid = document.createElement('div');
      grid.className = 'facing-grid';
      for (const v of ['NNW', 'NNE', 'W', 'E', 'SSW', 'SSE']) {
        const a = group.find((x) => x.facing === v);
        const b = document.createElement('button');
        b.type = 'button';
        b.className = a ? 'primary' : 'quiet';
        b.disabled = !a;
        b.textContent = `${FACING_ARROWS[v]} ${v}`;
        if (a) {
          b.dataset.notation = a.notation;
          b.title = a.label || a.notation;
          b.addEventListener('click', () => {
            dlg.close();
            act(a.notation);
          });
        }
        grid.append(b);
      }
      body.append(grid);
    }
    dlg.addEventListener('close', () => preview(null), { once: true });
    preview(list[0]);
    dlg.showModal();
    body.querySelector('button:not([disabled])')?.focus();
    return;
  }
  for (const a of list) {
    const card = document.createElement('div');
    card.className = `choice${isAttack(a) ? ' attack' : ''}`;
    card.append(text('p', a.label || a.notation, 'choice-label'));
    if (a.targets && a.targets.length) card.append(text('p', `Target: ${a.targets.map(counterName).join(', ')}`, 'muted'));
    if (a.details && a.details.length) {
      const ul = document.createElement('ul');
      ul.className = 'details';
      for (const det of a.details) ul.append(li(det));
      card.append(ul);
    }
    const go = document.createElement('button');
    go.type = 'button';
    go.className = 'primary';
    go.dataset.notation = a.notation;
    go.textContent = list.length === 1 ? 'Confirm' : (a.facing ? `Facing ${a.facing}` : 'Choose');
    go.addEventListener('click', () => {
      dlg.close();
      act(a.notation);
    });
    go.addEventListener('mouseenter', () => preview(a));
    go.addEventListener('focus', () => preview(a));
    card.append(go);
    body.append(card);
  }
  dlg.addEventListener('close', () => preview(null), { once: true });
  dlg.showModal();
  body.querySelector('button')?.focus();
}

/**
 * Sends an action with the current revision (and the dice entered for it); shows the result
 * or the error. In a game with manual dice, an action that rolls asks for the dice first.
 */
async function act(notation, dice) {
  const seat = ui.shown;
  const d = doc();
  if (!d || ui.sending) return;
  ui.sending = true;
  document.body.classList.add('busy');
  let retry = null;
  try {
    const body = { action: notation, revision: d.revision };
    if (dice) body.dice = dice;
    const next = await request('POST', `/api/games/${encodeURIComponent(gameId)}/actions`, {
      token: tokens.get(seat), body,
    });
    ui.path = [];
    hideError();
    if (ui.selected && !actionCount(ui.selected, next)) {
      ui.selected = null;
      ui.selectedHex = null;
      ui.unit = null;
    }
    receive(seat, next);
    // The other seats held here see the change too (the sockets bring it as well).
    if (hotseat) fetchAll();
  } catch (e) {
    if (e instanceof ApiError && e.status === 422 && e.body?.dice_needed) {
      retry = { notation, message: dice ? e.message : '' };
    } else {
      showError(e.status, e.message);
      if (e instanceof ApiError && (e.status === 409 || e.status === 403)) fetchAll();
    }
  } finally {
    ui.sending = false;
    document.body.classList.remove('busy');
  }
  if (retry) {
    const entered = await askDice(retry.notation, retry.message);
    if (entered) act(retry.notation, entered);
  }
}

/**
 * Asks for the dice rolled at the table for an action (manual dice); resolves with them, or
 * null when cancelled.
 */
function askDice(notation, problem) {
  const dlg = $('dice');
  const input = $('dice-input');
  $('dice-action').textContent = actions().find((a) => a.notation === notation)?.label || notation;
  $('dice-problem').textContent = problem;
  $('dice-problem').hidden = !problem;
  input.value = '';
  return new Promise((resolve) => {
    dlg.addEventListener('close', () => {
      const values = input.value.split(/[\s,]+/).filter(Boolean).map(Number);
      const ok = dlg.returnValue === 'roll' && values.length && values.every((v) => Number.isInteger(v) && v >= 0 && v <= 255);
      resolve(ok ? values : null);
    }, { once: true });
    dlg.showModal();
    input.focus();
  });
}

$('undo').addEventListener('click', async () => {
  const seat = ui.shown;
  const d = doc();
  if (!d) return;
  try {
    const next = await request('POST', `/api/games/${encodeURIComponent(gameId)}/undo`, {
      token: tokens.get(seat), body: { revision: d.revision },
    });
    hideError();
    clearSelection(false);
    receive(seat, next);
  } catch (e) {
    showError(e.status, e.message);
    if (e.status === 409) fetchAll();
  }
});
$('refresh').addEventListener('click', () => fetchAll());

// ---------------------------------------------------------------- errors

const ERROR_TITLES = {
  0: 'No connection', 401: 'Not your link', 403: 'Not your decision', 404: 'No such game',
  409: 'The game moved on', 422: 'Not allowed',
};
function showError(status, msg) {
  const title = ERROR_TITLES[status] || (status ? `Error ${status}` : 'Error');
  $('toast-text').textContent = `${title}: ${msg}`;
  $('toast').hidden = false;
}
function hideError() {
  $('toast').hidden = true;
}
$('toast-close').addEventListener('click', hideError);

// ---------------------------------------------------------------- zoom, keys

$('zoom-in').addEventListener('click', () => map.zoomAt(1.3));
$('zoom-out').addEventListener('click', () => map.zoomAt(1 / 1.3));
$('zoom-fit').addEventListener('click', () => map.fit());
/** The units that may act now, in the order Tab visits them. */
function cycleUnits() {
  const d = doc();
  if (!d || !d.your_turn) return [];
  const ids = (d.actors || []).map((x) => x.counter);
  for (const a of d.actions || []) {
    if (a.kind === 'select') for (const c of a.counters || []) if (!ids.includes(c)) ids.push(c);
  }
  return ids;
}

$('map').addEventListener('keydown', (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const step = 60;
  const keys = {
    ArrowLeft: () => map.panBy(step, 0), ArrowRight: () => map.panBy(-step, 0),
    ArrowUp: () => map.panBy(0, step), ArrowDown: () => map.panBy(0, -step),
    h: () => map.panBy(step, 0), l: () => map.panBy(-step, 0),
    k: () => map.panBy(0, step), j: () => map.panBy(0, -step),
    '+': () => map.zoomAt(1.3), '=': () => map.zoomAt(1.3), '-': () => map.zoomAt(1 / 1.3), 0: () => map.fit(),
    Tab: () => {
      // The next (Shift: previous) unit that may act.
      const ids = cycleUnits();
      if (!ids.length) return;
      const at = ids.indexOf(ui.selected);
      const next = ids[(at < 0 ? (e.shiftKey ? ids.length - 1 : 0) : at + (e.shiftKey ? ids.length - 1 : 1)) % ids.length];
      if (next !== ui.selected) pickUnit(next, true);
    },
    Enter: () => {
      // The selected unit's actions, to confirm one (Enter) or cancel (Escape).
      const own = ui.selected ? actionsOf(ui.selected) : [];
      if (own.length) chooser(own, counterName(ui.selected));
    },
  };
  if (keys[e.key]) {
    e.preventDefault();
    keys[e.key]();
  }
});
document.addEventListener('keydown', (e) => {
  if (e.key !== 'Escape' || $('chooser').open || $('dice').open) return;
  if (ui.selected || ui.selectedHex || deselectAction()) cancel();
});
window.addEventListener('resize', () => {
  if (!map.fitted) return;
  map.apply();
});

// ---------------------------------------------------------------- small DOM helpers

function text(tag, content, className) {
  const e = document.createElement(tag);
  e.textContent = content;
  if (className) e.className = className;
  return e;
}

function li(...children) {
  const e = document.createElement('li');
  for (const c of children) e.append(c);
  return e;
}

// For tests and debugging: what the page shows now.
window.crusades = { ui, map, tokens, hotseat, sockets, receive, doc };
