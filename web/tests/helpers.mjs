// Shared set-up of the browser tests: a real `crusades serve` on a free port with a fresh
// SQLite database, Debian's Chromium driven by playwright-core, and small API helpers.

import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before } from 'node:test';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.resolve(here, '..', '..');
export const SHOTS = path.join(here, 'screenshots');

/**
 * How to start the server: CRUSADES_BIN if set, else `crusades serve` (built here with
 * cargo), else the server package's own `crusades-server` binary (the same code).
 */
function serverCommand() {
  if (process.env.CRUSADES_BIN) return { bin: process.env.CRUSADES_BIN, args: ['serve'] };
  const cargo = (args) => spawnSync('cargo', ['build', '--release', ...args], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  if (cargo(['-p', 'crusades']).status !== 0) throw new Error('cargo build --release -p crusades failed');
  const cli = path.join(ROOT, 'target', 'release', 'crusades');
  if (spawnSync(cli, ['serve', '--help'], { stdio: 'ignore' }).status === 0) return { bin: cli, args: ['serve'] };
  if (cargo(['-p', 'server', '--bin', 'crusades-server']).status !== 0) throw new Error('cargo build --release -p server failed');
  return { bin: path.join(ROOT, 'target', 'release', 'crusades-server'), args: [] };
}

/** Chromium's flags: headless, and nothing that reaches the network on its own. */
const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Starts `crusades serve` (building it first unless CRUSADES_BIN names a binary) and waits
 * until it answers; CRUSADES_BASE (a URL) uses a server already running instead. Returns
 * `{ base, stop }`.
 */
export async function startServer() {
  if (process.env.CRUSADES_BASE) {
    // An already running server (for developing the client).
    return { base: process.env.CRUSADES_BASE, output: () => '', stop: async () => {} };
  }
  const command = serverCommand();
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crusades-web-'));
  const db = `sqlite:${path.join(dir, 'games.db')}`;
  // The client's files on disk, so that the tests always see the current ones.
  const args = [...command.args, '--addr', `127.0.0.1:${port}`, '--db', db, '--web-dir', path.join(ROOT, 'web', 'app')];
  const child = spawn(command.bin, args, {
    cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => { output += d; });
  child.stderr.on('data', (d) => { output += d; });
  const base = `http://127.0.0.1:${port}`;
  let exited = null;
  child.on('exit', (code) => { exited = code; });
  for (let i = 0; i < 600; i++) {
    if (exited !== null) throw new Error(`crusades serve exited with ${exited}:\n${output}`);
    try {
      const res = await fetch(`${base}/api/scenarios`);
      if (res.ok) break;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 100));
    if (i === 599) throw new Error(`crusades serve did not answer:\n${output}`);
  }
  return {
    base,
    output: () => output,
    stop: async () => {
      if (exited === null) {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Launches Debian's Chromium (never a downloaded browser). */
export function launchBrowser() {
  return chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

/**
 * A server and a browser for the tests of the calling file or `describe` block: started
 * before them, stopped after. Returns `{ server, browser }`, filled in once started.
 */
export function serverAndBrowser() {
  const env = { server: null, browser: null };
  before(async () => {
    env.server = await startServer();
    env.browser = await launchBrowser();
  });
  after(async () => {
    await env.browser?.close();
    await env.server?.stop();
  });
  return env;
}

/** A JSON request to the server; throws with the server's message on an error status. */
export async function api(base, method, p, { body, token } = {}) {
  const headers = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(base + p, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  const data = text ? JSON.parse(text) : null;
  if (!res.ok) {
    const err = new Error(`${method} ${p}: ${res.status} ${data?.error ?? text}`);
    err.status = res.status;
    throw err;
  }
  return data;
}

/** Saves a screenshot as web/tests/screenshots/NAME.png. */
export async function shot(page, name) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

/** Collects the page's script errors, to assert there were none. */
export function watchErrors(page) {
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}
