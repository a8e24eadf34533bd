// Talking to the server (docs/api.md): JSON requests, the game's WebSocket with automatic
// reconnection, and the tokens this browser keeps per game.

/** An error answered by the server, with its HTTP status. */
export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
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
    throw new ApiError(res.status, msg);
  }
  return data;
}

/**
 * A live connection to one game for one token (or a spectator): calls `onState(doc)` with
 * every state the server pushes, `onStatus(text)` when the link changes, `onError(status,
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
      if (msg.type === 'state' && msg.state) this.onState(msg.state);
      else if (msg.type === 'error') this.onError(msg.status, msg.error);
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
