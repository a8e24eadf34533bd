// Talking to the server (docs/api.md): JSON requests, the game's WebSocket with automatic
// reconnection, and the tokens this browser keeps per game.

/** An error answered by the server, with its HTTP status and the body it sent. */
export class ApiError extends Error {
  constructor(status, message, body = null) {
    super(message);
    this.status = status;
    this.body = body;
  }
}

/**
 * Applies the operations of an update message (docs/api.md, *Updates*) to a document, in
 * place; throws when one does not fit (the caller then asks for the whole document).
 */
export function applyOps(doc, ops) {
  let root = doc;
  for (const op of ops) {
    const path = op.path || [];
    if (!path.length) {
      if (op.op === 'set') root = op.value;
      else if (!growArray(root, op)) throw new Error(`bad operation ${op.op} at the root`);
      continue;
    }
    let at = root;
    for (const step of path.slice(0, -1)) {
      at = at?.[step];
      if (at === undefined || at === null || typeof at !== 'object') throw new Error(`no ${path.join('.')}`);
    }
    const last = path[path.length - 1];
    if (op.op === 'set') at[last] = op.value;
    else if (op.op === 'del') delete at[last];
    else if (!growArray(at[last], op)) throw new Error(`bad operation ${op.op} at ${path.join('.')}`);
  }
  return root;
}

/** Applies a `push` or `splice` to `array`; false when the operation does not fit it. */
function growArray(array, op) {
  if (!Array.isArray(array) || !Array.isArray(op.values)) return false;
  if (op.op === 'push') {
    for (const v of op.values) array.push(v);
    return true;
  }
  if (op.op !== 'splice') return false;
  const { at, remove } = op;
  if (!Number.isInteger(at) || !Number.isInteger(remove) || at < 0 || remove < 0 || at + remove > array.length) return false;
  array.splice(at, remove, ...op.values);
  return true;
}

const maps = new Map();

/** The map of a state document's `map` key (fetched once; never changes). */
export function fetchMap(key) {
  if (!maps.has(key)) {
    const p = request('GET', `/api/maps/${encodeURIComponent(key)}`);
    p.catch(() => maps.delete(key));
    maps.set(key, p);
  }
  return maps.get(key);
}

/**
 * Sends a JSON request; resolves with the parsed body or rejects with an ApiError naming
 * what went wrong (the server's `error` message where it gave one).
 */
export async function request(method, path, { body, token } = {}) {
  const headers = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    throw new ApiError(0, `cannot reach the server (${e.message})`);
  }
  const text = await res.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) {
    const msg = data && typeof data.error === 'string' ? data.error : text || res.statusText;
    throw new ApiError(res.status, msg, data);
  }
  return data;
}

/**
 * A live connection to one game for one token (or a spectator): calls `onState(doc)` with
 * every state the server pushes (whole, or rebuilt from an update of the last one), `onStatus(text)` when the link changes, `onError(status,
 * message)` for errors the server reports. Reconnects with backoff until closed.
 */
export class GameSocket {
  constructor(gameId, token, { onState, onStatus, onError }) {
    this.gameId = gameId;
    this.token = token;
    this.onState = onState;
    this.onStatus = onStatus || (() => {});
    this.onError = onError || (() => {});
    this.delay = 500;
    this.closed = false;
    this.ws = null;
    this.connect();
  }

  url() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const q = this.token ? `?token=${encodeURIComponent(this.token)}` : '';
    return `${proto}//${location.host}/api/games/${encodeURIComponent(this.gameId)}/ws${q}`;
  }

  connect() {
    if (this.closed) return;
    this.onStatus('connecting');
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch (e) {
      this.retry();
      return;
    }
    this.ws = ws;
    ws.addEventListener('open', () => {
      this.delay = 500;
      this.onStatus('live');
    });
    ws.addEventListener('message', (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (msg.type === 'state' && msg.state) {
        this.doc = msg.state;
        this.onState(structuredClone(this.doc));
      } else if (msg.type === 'update') {
        if (!this.doc || this.doc.revision !== msg.base) {
          // Not the document this update is from: reconnect for a whole one.
          this.doc = null;
          ws.close();
          return;
        }
        try {
          this.doc = applyOps(this.doc, msg.ops || []);
        } catch {
          this.doc = null;
          ws.close();
          return;
        }
        this.updates = (this.updates || 0) + 1;
        this.onState(structuredClone(this.doc));
      } else if (msg.type === 'error') this.onError(msg.status, msg.error, msg);
    });
    ws.addEventListener('close', () => {
      if (this.ws === ws) this.retry();
    });
    ws.addEventListener('error', () => {
      try { ws.close(); } catch { /* already closing */ }
    });
  }

  retry() {
    if (this.closed) return;
    this.onStatus('reconnecting');
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), this.delay);
    this.delay = Math.min(this.delay * 2, 10000);
  }

  /** Sends a message if the socket is open; returns whether it was sent. */
  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(msg));
      return true;
    }
    return false;
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.ws) this.ws.close();
  }
}

const KEY = 'crusades.games';

/**
 * Games this browser created or holds seats in:
 * `{ [gameId]: { title, scenario, created, hotseat, tokens: {seat: token}, links, spectator } }`.
 */
export function savedGames() {
  try {
    return JSON.parse(localStorage.getItem(KEY) || '{}') || {};
  } catch {
    return {};
  }
}

/** Saves (merges) what this browser knows of a game. */
export function saveGame(id, entry) {
  const all = savedGames();
  all[id] = { ...(all[id] || {}), ...entry };
  try {
    localStorage.setItem(KEY, JSON.stringify(all));
  } catch {
    // Private mode or full storage: hot-seat still works for this page's life.
  }
}

/** Forgets a game. */
export function forgetGame(id) {
  const all = savedGames();
  delete all[id];
  try {
    localStorage.setItem(KEY, JSON.stringify(all));
  } catch {
    // Nothing to do.
  }
}

/** A seat name as a title: "crusader" -> "Crusader". */
export function seatTitle(seat) {
  if (!seat) return 'Spectator';
  return String(seat).replace(/[_-]+/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase());
}
