// The client's side of the WebSocket's updates (docs/api.md, *Updates*): applyOps on
// operations written by hand, and a page's copy of its document, kept from the updates of
// a real server over many random actions, against the document the server gives.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { applyOps } from '../app/api.js';
import { api, serverAndBrowser, watchErrors } from './helpers.mjs';

describe('applyOps', () => {
  test('set, del, push and splice apply in order', () => {
    const doc = { a: 1, gone: true, log: [1], counters: [{ id: 'x', hex: '0101' }, { id: 'y' }, { id: 'z' }] };
    const out = applyOps(doc, [
      { op: 'set', path: ['a'], value: { b: 2 } },
      { op: 'del', path: ['gone'] },
      { op: 'push', path: ['log'], values: [2, 3] },
      { op: 'set', path: ['counters', 0, 'hex'], value: '0202' },
      { op: 'splice', path: ['counters'], at: 1, remove: 1, values: [{ id: 'new' }, { id: 'other' }] },
      { op: 'splice', path: ['counters'], at: 4, remove: 0, values: [{ id: 'last' }] },
    ]);
    assert.deepEqual(out, {
      a: { b: 2 },
      log: [1, 2, 3],
      counters: [{ id: 'x', hex: '0202' }, { id: 'new' }, { id: 'other' }, { id: 'z' }, { id: 'last' }],
    });
    assert.deepEqual(applyOps([1, 2, 3], [{ op: 'splice', path: [], at: 0, remove: 2, values: [] }]), [3]);
    assert.deepEqual(applyOps({}, [{ op: 'set', path: [], value: [1] }]), [1]);
  });

  test('operations that do not fit are refused', () => {
    const bad = [
      { op: 'splice', path: ['l'], at: 1, remove: 2, values: [] },
      { op: 'splice', path: ['l'], at: -1, remove: 0, values: [] },
      { op: 'splice', path: ['l'], at: 0, remove: 0 },
      { op: 'splice', path: ['a'], at: 0, remove: 0, values: [] },
      { op: 'push', path: ['a'], values: [1] },
      { op: 'twist', path: ['l'] },
      { op: 'set', path: ['x', 'y'], value: 1 },
    ];
    for (const op of bad) assert.throws(() => applyOps({ a: 1, l: [1, 2] }, [op]), undefined, JSON.stringify(op));
  });
});

describe('a page kept up to date by updates', () => {
  const env = serverAndBrowser();

  test('equals the server\'s document after each of many random actions', async () => {
    const game = await api(env.server.base, 'POST', '/api/games', {
      body: { scenario: 'crusades-ii/hattin', options: [], seed: 5, seats: { crusader: 'human', muslim: 'human' } },
    });
    const tokens = { crusader: game.seats.crusader.token, muslim: game.seats.muslim.token };
    const context = await env.browser.newContext({ viewport: { width: 1280, height: 860 } });
    // Counts the operations of every update the page receives.
    await context.addInitScript(() => {
      window.opsSeen = {};
      const Native = window.WebSocket;
      window.WebSocket = class extends Native {
        constructor(...args) {
          super(...args);
          this.addEventListener('message', (ev) => {
            for (const op of JSON.parse(ev.data).ops || []) window.opsSeen[op.op] = (window.opsSeen[op.op] || 0) + 1;
          });
        }
      };
    });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${env.server.base}/play/${game.id}?token=${tokens.crusader}`);
    await page.locator('#map .hex').first().waitFor({ state: 'attached' });
    let seed = 12345;
    const pick = (n) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    let compared = 0;
    for (let step = 0; step < 60; step++) {
      const docs = {};
      for (const seat of Object.keys(tokens)) {
        docs[seat] = await api(env.server.base, 'GET', `/api/games/${game.id}/state`, { token: tokens[seat] });
      }
      // The page's copy, once it has caught up with the crusader's revision.
      const expected = docs.crusader;
      await page.waitForFunction((r) => window.crusades.sockets[0]?.doc?.revision === r, expected.revision);
      const copy = await page.evaluate(() => window.crusades.sockets[0].doc);
      assert.deepEqual(copy, expected, `the page's document after ${step} actions`);
      compared++;
      const seat = Object.keys(tokens).find((s) => docs[s].your_turn);
      if (!seat) break;
      const doc = docs[seat];
      let list = doc.actions;
      if (doc.actors.length && (!list.length || pick(2) === 0)) {
        const counter = doc.actors[pick(doc.actors.length)].counter;
        list = (await api(env.server.base, 'GET', `/api/games/${game.id}/actions?counter=${encodeURIComponent(counter)}`, { token: tokens[seat] })).actions;
      }
      if (!list.length) continue;
      await api(env.server.base, 'POST', `/api/games/${game.id}/actions`, {
        token: tokens[seat], body: { action: list[pick(list.length)].notation, revision: doc.revision },
      });
    }
    assert.ok(compared > 20, `compared ${compared} documents`);
    const updates = await page.evaluate(() => window.crusades.sockets[0].updates || 0);
    assert.ok(updates > 0, 'the page was kept up to date by updates, not whole states');
    const seen = await page.evaluate(() => window.opsSeen);
    for (const op of ['set', 'push', 'splice']) assert.ok(seen[op] > 0, `some updates had a ${op}: ${JSON.stringify(seen)}`);
    assert.deepEqual(errors, []);
    await context.close();
  });
});
