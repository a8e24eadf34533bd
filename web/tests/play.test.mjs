// End-to-end tests of the web client against a real `crusades serve`: the lobby, hot-seat
// hand-over, moving by clicking, attacks confirmed with their odds, live updates, errors.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { api, serverAndBrowser, shot, watchErrors } from './helpers.mjs';

const SCENARIO = 'crusades-ii/hattin';
const env = serverAndBrowser();

/** A new page with a phone or desktop viewport, failing the test on script errors. */
async function newPage(viewport = { width: 1280, height: 860 }) {
  const context = await env.browser.newContext({ viewport });
  const page = await context.newPage();
  return { page, context, errors: watchErrors(page) };
}

/** Creates a game through the API. */
function createGame(seats, seed = 11) {
  return api(env.server.base, 'POST', '/api/games', { body: { scenario: SCENARIO, options: [], seed, seats } });
}

/** The state as a seat (or spectator) sees it, its board completed with its map. */
async function state(id, token) {
  const doc = await api(env.server.base, 'GET', `/api/games/${id}/state${token ? `?token=${token}` : ''}`);
  const { version: _v, ...map } = await api(env.server.base, 'GET', `/api/maps/${doc.map}`);
  return { ...doc, board: { ...map, ...doc.board } };
}

/** The actions of one counter, asked for as the client does. */
async function actionsOf(id, token, counter) {
  const got = await api(env.server.base, 'GET', `/api/games/${id}/actions?counter=${encodeURIComponent(counter)}`, { token });
  return got.actions;
}

/**
 * The actions a document offers: those listed whole, and the actions of its counters (of
 * every counter when there are a few, else of one chosen with `pick`).
 */
async function offered(id, token, doc, pick) {
  const list = [...doc.actions];
  const actors = doc.actors || [];
  const asked = actors.length <= 4 ? actors : [actors[pick(actors.length)]];
  for (const a of asked) {
    for (const x of await actionsOf(id, token, a.counter)) if (!list.some((y) => y.notation === x.notation)) list.push(x);
  }
  return list;
}

/** A small deterministic generator of choices for the API-driven plays. */
function chooser(seed) {
  let x = seed >>> 0;
  return (n) => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x % n;
  };
}

/**
 * Sends an action through the API; in a game with manual dice, an action refused for want
 * of dice is sent again with one more die (chosen with `pick`) until it has enough.
 */
async function sendAction(id, token, notation, revision, pick) {
  const dice = [];
  for (;;) {
    const res = await fetch(`${env.server.base}/api/games/${id}/actions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ action: notation, revision, dice }),
    });
    const data = await res.json();
    if (res.ok) return data;
    if (!(res.status === 422 && data.dice_needed && dice.length < 64)) {
      throw new Error(`${notation}: ${res.status} ${data.error}`);
    }
    dice.push(1 + pick(6));
  }
}

/**
 * Plays through the API as every human seat (choosing with `pick`) until `stop(doc, seat)`
 * is true for the deciding seat's state or `limit` actions were taken; returns that state.
 */
async function playUntil(game, stop, limit, pick) {
  const tokens = Object.fromEntries(Object.entries(game.seats).map(([s, v]) => [s, v.token]));
  for (let i = 0; i < limit; i++) {
    const pub = await state(game.id);
    if (pub.outcome) return null;
    const seat = pub.pending.find((s) => tokens[s]);
    if (!seat) {
      // An AI decides: wait for it. Another human's decision: this play is done.
      if (!pub.pending.some((s) => (pub.ai_seats || []).includes(s))) return null;
      await new Promise((r) => setTimeout(r, 50));
      continue;
    }
    const raw = await state(game.id, tokens[seat]);
    if (!raw.your_turn) continue;
    const doc = { ...raw, actions: await offered(game.id, tokens[seat], raw, pick) };
    if (!doc.actions.length) continue;
    if (stop(doc, seat)) return { doc, seat, token: tokens[seat] };
    const a = doc.actions[pick(doc.actions.length)];
    await sendAction(game.id, tokens[seat], a.notation, doc.revision, pick);
  }
  return null;
}

/** Clicks the centre of a hex on the map (a click, not a drag). */
async function clickHex(page, id) {
  const hex = page.locator(`#map polygon.hex[data-hex="${id}"]`);
  await hex.scrollIntoViewIfNeeded();
  const box = await hex.boundingBox();
  assert.ok(box, `hex ${id} is drawn`);
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
}

/** Zooms in on a hex so that it and its neighbours can be clicked. */
async function focusHex(page, id) {
  await page.evaluate((hex) => {
    const { map } = window.crusades;
    map.view.k = 1.6;
    map.centreOn(hex);
  }, id);
}

describe('lobby and hot-seat', () => {
  test('the lobby creates a game, shows the links and hands over between seats', async () => {
    const { page, context, errors } = await newPage();
    await page.goto(`${env.server.base}/`);
    await page.locator(`#scenario option[value="${SCENARIO}"]`).waitFor({ state: 'attached' });
    await page.selectOption('#scenario', SCENARIO);
    const seats = await page.locator('#seats select').evaluateAll((els) => els.map((e) => e.dataset.seat));
    assert.deepEqual(seats, ['crusader', 'muslim']);
    for (const seat of seats) await page.selectOption(`#seat-${seat}`, 'human');
    assert.ok(await page.locator('#options input[type=checkbox]').count() > 0, 'the options are offered');
    await page.fill('#seed', '5');
    await page.click('#create');
    await page.locator('#links li[data-seat="muslim"] code').waitFor();
    const links = await page.locator('#links code').allTextContents();
    assert.equal(links.length, 3, 'two secret links and the spectator link');
    assert.match(links[0], /\/play\/[^?]+\?token=.{16,}/);
    assert.match(links[2], /\/play\/[^?]+$/);
    await shot(page, 'lobby-created');

    // Hot-seat: the first decision is the Muslim set-up; the map stays hidden until ready.
    await page.click('#hotseat');
    await page.waitForURL(/\/play\//);
    await page.locator('#handover').waitFor({ state: 'visible' });
    assert.match(await page.textContent('#handover-title'), /Pass to the Muslim player/);
    assert.equal(await page.locator('#map .hex').count(), 0, 'nothing of the map while handing over');
    assert.equal(await page.locator('#main').isVisible(), false);
    await shot(page, 'handover-muslim');

    const gameId = new URL(page.url()).pathname.split('/').pop();
    const tokens = await page.evaluate((id) => JSON.parse(localStorage.getItem('crusades.games'))[id].tokens, gameId);
    assert.deepEqual(Object.keys(tokens).sort(), ['crusader', 'muslim']);
    const before = await state(gameId, tokens.muslim);
    assert.equal(before.your_turn, true);

    await page.click('#handover-ready');
    const map = await api(env.server.base, 'GET', `/api/maps/${before.map}`);
    await page.waitForFunction((n) => document.querySelectorAll('#map .hex').length === n, map.hexes.length);
    assert.match(await page.textContent('#seat'), /Muslim/);
    assert.match(await page.textContent('#status'), /Turn 1/);
    assert.equal(await page.isVisible('#actions-box'), true);

    // Place a counter by clicking: pick the first counter that can act, then a free hex.
    const actor = page.locator('.actor-list button').first();
    const counterId = await actor.getAttribute('data-counter');
    await actor.click();
    await page.locator('#map .mark-move').first().waitFor();
    const targets = await page.locator('#map .mark-move').evaluateAll((els) => els.map((e) => e.dataset.mark));
    const own = await actionsOf(gameId, tokens.muslim, counterId);
    const expected = new Set(own.filter((a) => a.hex).map((a) => a.hex));
    assert.deepEqual(new Set(targets), expected, 'every hex the counter may go to, and no other');
    const occupied = new Set(before.board.counters.map((c) => c.hex));
    const dest = targets.find((h) => !occupied.has(h));
    assert.ok(dest, 'a free hex to go to');
    await focusHex(page, dest);
    await shot(page, 'select-counter');
    await clickHex(page, dest);
    const choices = own.filter((a) => a.hex === dest);
    if (choices.length > 1) {
      // Several facings: a small chooser, one button per action.
      await page.locator('#chooser').waitFor({ state: 'visible' });
      assert.equal(await page.locator('#chooser-body button').count(), choices.length);
      await shot(page, 'chooser');
      await page.locator('#chooser-body button').first().click();
    }
    await page.locator(`#map [data-counter="${counterId}"][data-hex="${dest}"]`).waitFor();
    const afterPlace = await state(gameId, tokens.muslim);
    assert.equal(afterPlace.revision, before.revision + 1);
    assert.ok(afterPlace.board.counters.some((c) => c.id === counterId && c.hex === dest));
    assert.ok(await page.locator('#log li').count() > 0, 'the placement is in the log');
    await shot(page, 'placed');

    // The rest of the Muslim set-up through the API: the page follows live, and when the
    // Crusader must decide it hides the map again for the hand-over.
    const game = { id: gameId, seats: { muslim: { token: tokens.muslim } } };
    await playUntil(game, () => false, 400, chooser(3));
    await page.locator('#handover').waitFor({ state: 'visible' });
    assert.match(await page.textContent('#handover-title'), /Pass to the Crusader player/);
    assert.equal(await page.locator('#map .counter').count(), 0, 'the Muslim view is gone');
    await shot(page, 'handover-crusader');
    await page.click('#handover-ready');
    await page.waitForFunction(() => document.querySelectorAll('#map .hex').length > 0);
    assert.match(await page.textContent('#seat'), /Crusader/);
    assert.deepEqual(errors, []);
    await context.close();
  });
});

describe('quick start', () => {
  test('/?play=SCENARIO (serve --open) creates a game against the heuristic player and opens it', async () => {
    const { page, context, errors } = await newPage();
    await page.goto(`${env.server.base}/?play=${SCENARIO}`);
    await page.waitForURL(/\/play\/[^?]+\?token=/);
    const url = new URL(page.url());
    const id = url.pathname.split('/').pop();
    const state = await api(env.server.base, 'GET', `/api/games/${id}/state`, { token: url.searchParams.get('token') });
    assert.equal(state.seat, 'crusader');
    assert.deepEqual(state.ai_seats, ['muslim']);
    await page.locator('#map .hex').first().waitFor();
    assert.ok(await page.locator('#map .hex').count() > 100, 'the map is drawn');
    await shot(page, 'quick-start');
    assert.deepEqual(errors, []);
    await context.close();
  });
});

describe('playing one seat', () => {
  test('an attack shows its odds and modifiers before it is committed, then its dice', async () => {
    const game = await createGame({ crusader: 'human', muslim: 'human' }, 21);
    const isAttack = (a) => a.targets.length > 0;
    const found = await playUntil(game, (doc) => doc.actions.some(isAttack), 4000, chooser(9));
    assert.ok(found, 'random play reaches an attack');
    const { doc, token } = found;
    const attack = doc.actions.find(isAttack);
    const { page, context, errors } = await newPage();
    await page.goto(`${env.server.base}/play/${game.id}?token=${token}`);
    await page.waitForFunction(() => document.querySelectorAll('#map .counter').length > 0);
    const actor = attack.counters[0];
    await page.click(`.actor-list button[data-counter="${actor}"]`);
    await page.locator('#map .counter.target').first().waitFor();
    const target = attack.targets[0];
    const targetHex = doc.board.counters.find((c) => c.id === target).hex;
    await focusHex(page, targetHex);
    await page.locator(`#map .counter[data-counter="${target}"]`).click();
    await page.locator('#chooser').waitFor({ state: 'visible' });
    const shown = await page.textContent('#chooser');
    const aimed = doc.actions.filter((a) => a.counters.includes(actor) && a.targets.includes(target));
    for (const a of aimed) {
      assert.ok(shown.includes(a.label), `the label ${a.label} is shown`);
      for (const d of a.details) assert.ok(shown.includes(d), `the detail ${d} is shown`);
    }
    await shot(page, 'attack-confirm');
    const logBefore = (await state(game.id, token)).log.length;
    await page.locator('#chooser-body button').first().click();
    await page.waitForFunction((n) => document.querySelectorAll('#log > li').length > n, logBefore);
    const next = await state(game.id, token);
    assert.equal(next.revision, doc.revision + 1);
    assert.ok(next.log.slice(logBefore).some((e) => (e.rolls || []).length), 'the attack rolled dice');
    assert.ok(await page.locator('#log .die').count() > 0, 'dice are in the log');
    await shot(page, 'attack-result');
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('a move with several facings offers a chooser, and the chosen facing is taken', async () => {
    const game = await createGame({ crusader: 'human', muslim: 'human' }, 8);
    // A move (not a set-up placement) whose counter may end in one hex with several facings.
    const several = (doc) => {
      const seen = new Map();
      for (const a of doc.actions) {
        if (a.kind !== 'move' || !a.hex || !a.facing || a.targets.length || a.counters.length !== 1) continue;
        const key = `${a.counters[0]} ${a.hex}`;
        seen.set(key, [...(seen.get(key) || []), a]);
      }
      const occupied = new Set(doc.board.counters.map((c) => c.hex));
      return [...seen.values()].find((list) => list.length > 1 && !occupied.has(list[0].hex)
        && doc.board.counters.some((c) => c.id === list[0].counters[0]));
    };
    const found = await playUntil(game, (doc) => !!several(doc), 600, chooser(5));
    assert.ok(found, 'random play reaches a movement phase');
    const { doc, token } = found;
    const options = several(doc);
    const [unit, dest] = [options[0].counters[0], options[0].hex];
    const { page, context, errors } = await newPage();
    await page.goto(`${env.server.base}/play/${game.id}?token=${token}`);
    await page.waitForFunction(() => document.querySelectorAll('#map .counter').length > 0);
    // Many actions: a filter box finds them by their words (the selected unit's too).
    assert.ok(doc.actions.length > 12);
    await page.locator(`.actor-list button[data-counter="${unit}"]`).click();
    await page.locator(`#unit-actions button.action`).first().waitFor();
    await page.fill('#filter', options[0].label);
    const hits = await page.locator('#actions button.action').evaluateAll((els) => els.map((e) => e.dataset.notation));
    const words = options[0].label.toLowerCase();
    const matching = doc.actions.filter((a) => `${a.label} ${a.notation} ${a.details.join(' ')}`.toLowerCase().includes(words));
    assert.deepEqual(hits, matching.map((a) => a.notation).slice(0, 60));
    assert.ok(hits.includes(options[0].notation));
    await page.fill('#filter', '');
    const start = doc.board.counters.find((c) => c.id === unit).hex;
    await focusHex(page, start);
    await page.locator(`#map .mark-move[data-mark="${dest}"]`).waitFor({ state: 'attached' });
    // Hovering the destination draws the way there (the path, or straight when it has none).
    await focusHex(page, dest);
    const destHex = await page.locator(`#map polygon.hex[data-hex="${dest}"]`).boundingBox();
    await page.mouse.move(destHex.x + destHex.width / 2, destHex.y + destHex.height / 2);
    await page.locator('#map .mark-path').waitFor({ state: 'attached' });
    await focusHex(page, dest);
    await clickHex(page, dest);
    await page.locator('#chooser').waitFor({ state: 'visible' });
    const buttons = page.locator('#chooser-body button:not([disabled])');
    assert.equal(await buttons.count(), options.length, 'one choice per facing');
    await shot(page, 'chooser');
    const chosen = options[options.length - 1];
    await page.locator(`#chooser-body button[data-notation="${chosen.notation}"]`).click();
    await page.waitForFunction((r) => window.crusades.ui.docs.get(null)?.revision > r, doc.revision);
    const after = await state(game.id, token);
    const moved = after.board.counters.find((c) => c.id === unit);
    assert.equal(moved.hex, dest);
    assert.equal(moved.facing, chosen.facing);
    await page.locator(`#map .counter[data-counter="${unit}"][data-hex="${dest}"] .facing[data-vertex="${chosen.facing}"]`).waitFor();
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('a stale revision is refused and shown as an error; undo is offered and works', async () => {
    const game = await createGame({ crusader: 'human', muslim: 'human' }, 33);
    const token = game.seats.muslim.token;
    const first = await state(game.id, token);
    const [place] = await actionsOf(game.id, token, first.actors[0].counter);
    await api(env.server.base, 'POST', `/api/games/${game.id}/actions`, {
      token, body: { action: place.notation, revision: first.revision },
    });
    const { page, context, errors } = await newPage();
    await page.goto(`${env.server.base}/play/${game.id}?token=${token}`);
    await page.locator('.actor-list button').first().waitFor();
    // As if another tab had not seen the last move: this page's next send carries the revision
    // before it.
    const doc = await state(game.id, token);
    await page.route('**/actions', async (route) => {
      const body = JSON.parse(route.request().postData());
      await route.continue({ postData: JSON.stringify({ ...body, revision: body.revision - 1 }) });
    });
    await page.locator('.actor-list button').first().click();
    await page.locator('#unit-actions button.action').first().click();
    if (await page.locator('#chooser').isVisible()) await page.locator('#chooser-body button').first().click();
    await page.locator('#toast').waitFor({ state: 'visible' });
    assert.match(await page.textContent('#toast'), /moved on|revision|409/i);
    assert.equal((await state(game.id, token)).revision, doc.revision, 'nothing changed');
    await shot(page, 'error-stale');
    await page.unroute('**/actions');

    await page.click('#toast-close');
    await page.locator('#unit-actions button.action').first().click();
    if (await page.locator('#chooser').isVisible()) await page.locator('#chooser-body button').first().click();
    await page.waitForFunction((r) => window.crusades.ui.docs.get(null)?.revision === r, doc.revision + 1);
    const acted = await state(game.id, token);
    assert.equal(acted.can_undo, true, 'a set-up placement can be taken back');
    assert.equal(acted.board.counters.length, doc.board.counters.length + 1);
    await page.locator('#undo').waitFor({ state: 'visible' });
    await page.click('#undo');
    await page.waitForFunction((r) => window.crusades.ui.docs.get(null)?.revision > r, acted.revision);
    const undone = await state(game.id, token);
    assert.equal(undone.board.counters.length, doc.board.counters.length, 'the placement is taken back');
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('a spectator sees the map and the log but no decisions, on a phone-sized screen', async () => {
    const game = await createGame({ crusader: 'human', muslim: 'random' }, 4);
    const { page, context, errors } = await newPage({ width: 390, height: 844 });
    await page.goto(`${env.server.base}/play/${game.id}`);
    const pub = await state(game.id);
    await page.waitForFunction((n) => document.querySelectorAll('#map .hex').length === n, pub.board.hexes.length);
    assert.match(await page.textContent('#seat'), /Spectator/);
    assert.equal(await page.isVisible('#actions-box'), false);
    // The legend names every terrain of the map.
    const legend = await page.textContent('#legend');
    const names = new Map(pub.board.styles.map((s) => [s.key, s.name]));
    for (const t of new Set(pub.board.hexes.map((h) => h.terrain))) assert.ok(legend.includes(names.get(t) ?? t), t);
    // Zoom buttons change the zoom; the wheel too.
    const z0 = Number(await page.getAttribute('#map', 'data-zoom'));
    await page.click('#zoom-in');
    const z1 = Number(await page.getAttribute('#map', 'data-zoom'));
    assert.ok(z1 > z0);
    await shot(page, 'spectator-phone');

    // Live: the link drops and comes back by itself, and a move made elsewhere then shows.
    await page.locator('#link.ok').waitFor();
    await page.evaluate(() => window.crusades.sockets[0].ws.close());
    await page.locator('#link.warn').waitFor();
    await page.locator('#link.ok').waitFor();
    const seen = await page.evaluate(() => window.crusades.ui.docs.get(null).revision);
    const token = game.seats.crusader.token;
    // The AI sets up first; then the Crusader decides.
    let mine = await state(game.id, token);
    for (let i = 0; i < 600 && !mine.your_turn; i++) {
      await new Promise((r) => setTimeout(r, 100));
      mine = await state(game.id, token);
    }
    assert.equal(mine.your_turn, true, 'the Crusader decides once the AI has set up');
    // Actions until one the spectator sees (secret orders change nothing it sees).
    for (let i = 0; i < 20 && (await state(game.id)).revision <= seen; i++) {
      mine = await state(game.id, token);
      if (!mine.your_turn) {
        await new Promise((r) => setTimeout(r, 100));
        continue;
      }
      const list = await offered(game.id, token, mine, () => 0);
      const any = list.find((a) => a.hex) || list[0];
      await api(env.server.base, 'POST', `/api/games/${game.id}/actions`, {
        token, body: { action: any.notation, revision: mine.revision },
      });
    }
    await page.waitForFunction((r) => window.crusades.ui.docs.get(null).revision > r, seen);
    assert.deepEqual(errors, []);
    await context.close();
  });
});

describe('keyboard, manual dice, AI failures', () => {
  test('the map is played from the keyboard: pan, zoom, Tab to a unit, Enter, Escape', async () => {
    const game = await createGame({ crusader: 'human', muslim: 'human' }, 12);
    const token = game.seats.muslim.token;
    const { page, context, errors } = await newPage();
    await page.goto(`${env.server.base}/play/${game.id}?token=${token}`);
    await page.waitForFunction(() => document.querySelectorAll('#map .counter, #map .hex').length > 0);
    await page.locator('.actor-list button, #actions button.action').first().waitFor();
    await page.focus('#map');
    const view = () => page.evaluate(() => ({ ...window.crusades.map.view }));
    const v0 = await view();
    await page.keyboard.press('l');
    await page.keyboard.press('ArrowDown');
    const v1 = await view();
    assert.ok(v1.x < v0.x && v1.y < v0.y, 'l and ArrowDown pan');
    await page.keyboard.press('h');
    await page.keyboard.press('k');
    assert.deepEqual(await view(), v0, 'h and k pan back');
    await page.keyboard.press('+');
    assert.ok((await view()).k > v0.k, '+ zooms in');
    await page.keyboard.press('-');
    // Tab: the first unit that may act (sending its `select` where the game lists one).
    const doc = await state(game.id, token);
    const first = (doc.actors[0] || {}).counter
      || doc.actions.find((a) => a.kind === 'select')?.counters[0];
    assert.ok(first, 'a unit may act');
    await page.keyboard.press('Tab');
    await page.waitForFunction((id) => window.crusades.ui.selected === id, first);
    await page.locator('#map .mark-move').first().waitFor({ state: 'attached' });
    // Enter: its actions to choose from; Escape closes, Escape again drops the unit.
    await page.keyboard.press('Enter');
    await page.locator('#chooser').waitFor({ state: 'visible' });
    await shot(page, 'keyboard-chooser');
    await page.keyboard.press('Escape');
    await page.locator('#chooser').waitFor({ state: 'hidden' });
    await page.focus('#map');
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => window.crusades.ui.selected === null);
    assert.equal(await page.locator('#map .mark-move').count(), 0);
    // Tab twice: the next unit.
    const doc2 = await state(game.id, token);
    if ((doc2.actors || []).length > 1) {
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      await page.waitForFunction((id) => window.crusades.ui.selected === id, doc2.actors[1].counter);
    }
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('manual dice: the game says so, and an action that needs dice asks for them', async () => {
    const game = await api(env.server.base, 'POST', '/api/games', { body: { scenario: SCENARIO, seed: 2, dice: 'manual' } });
    const token = game.seats.muslim.token;
    const { page, context, errors } = await newPage();
    await page.goto(`${env.server.base}/play/${game.id}?token=${token}`);
    await page.locator('#dice-mode').waitFor({ state: 'visible' });
    // The server's answer when an action rolls more dice than were entered (as for a roll
    // at the table), then the real server for the action sent again with the dice.
    const sent = [];
    await page.route('**/actions', async (route) => {
      const body = JSON.parse(route.request().postData());
      sent.push(body);
      if (!body.dice) {
        await route.fulfill({
          status: 422, contentType: 'application/json',
          body: JSON.stringify({ error: 'dice: this action needs more dice than the 0 entered', dice_needed: true }),
        });
      } else {
        await route.continue();
      }
    });
    await page.locator('.actor-list button').first().click();
    await page.locator('#unit-actions button.action').first().click();
    if (await page.locator('#chooser').isVisible()) await page.locator('#chooser-body button').first().click();
    await page.locator('#dice').waitFor({ state: 'visible' });
    await page.fill('#dice-input', '4 2');
    await shot(page, 'dice-entry');
    await page.click('#dice-ok');
    // A placement rolls nothing: the real server refuses the two dice, and says why.
    await page.locator('#toast').waitFor({ state: 'visible' });
    assert.match(await page.textContent('#toast'), /not used/);
    assert.equal(sent.length, 2);
    assert.deepEqual(sent[1].dice, [4, 2]);
    assert.equal(sent[1].action, sent[0].action);
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('manual dice: an attack asks for its dice, and the log shows the dice entered', async () => {
    const game = await api(env.server.base, 'POST', '/api/games', {
      body: { scenario: SCENARIO, seed: 21, dice: 'manual', seats: { crusader: 'human', muslim: 'human' } },
    });
    const isAttack = (a) => a.targets.length > 0;
    const found = await playUntil(game, (doc) => doc.actions.some(isAttack), 4000, chooser(9));
    assert.ok(found, 'play with dice entered at every roll reaches an attack');
    const { doc, token } = found;
    assert.equal(doc.dice, 'manual');
    const attack = doc.actions.find(isAttack);
    const { page, context, errors } = await newPage();
    await page.goto(`${env.server.base}/play/${game.id}?token=${token}`);
    await page.locator('#dice-mode').waitFor({ state: 'visible' });
    await page.waitForFunction(() => document.querySelectorAll('#map .counter').length > 0);
    const [actor, target] = [attack.counters[0], attack.targets[0]];
    await page.click(`.actor-list button[data-counter="${actor}"]`);
    await page.locator('#map .counter.target').first().waitFor();
    await focusHex(page, doc.board.counters.find((c) => c.id === target).hex);
    await page.locator(`#map .counter[data-counter="${target}"]`).click();
    await page.locator('#chooser').waitFor({ state: 'visible' });
    const chosen = await page.locator('#chooser-body button').first().getAttribute('data-notation');
    const logBefore = (await state(game.id, token)).log.length;
    await page.locator('#chooser-body button').first().click();
    // The real server asks for the dice: they are typed into the dialog, one more each time
    // the server says the roll needs more.
    const faces = [4, 2, 5, 3, 6, 1, 4, 5];
    let entered = [];
    for (;;) {
      await page.locator('#dice').waitFor({ state: 'visible' });
      assert.ok((await page.textContent('#dice-action')).length > 0, 'the dialog names the action');
      if (entered.length) assert.match(await page.textContent('#dice-problem'), /needs more dice/);
      entered = faces.slice(0, entered.length + 1);
      assert.ok(entered.length < faces.length, 'the attack needs a few dice');
      await page.locator('#dice-input').click();
      await page.keyboard.type(entered.join(' '));
      if (entered.length === 1) await shot(page, 'dice-roll-entry');
      await page.click('#dice-ok');
      await page.waitForFunction((n) => document.getElementById('dice').open
        || document.querySelectorAll('#log > li').length > n, logBefore);
      if (!(await page.evaluate(() => document.getElementById('dice').open))) break;
    }
    const after = await state(game.id, token);
    assert.equal(after.revision, doc.revision + 1, 'the attack was taken once');
    const events = after.log.slice(logBefore);
    const rolled = events.flatMap((e) => (e.rolls || []).flatMap((r) => r.dice || []));
    assert.deepEqual(rolled, entered, `the attack ${chosen} rolled exactly the dice entered`);
    // The page's log shows the same dice.
    const shown = await page.locator('#log > li').evaluateAll(
      (items, n) => items.slice(n).flatMap((li) => [...li.querySelectorAll('.die')].map((d) => Number(d.textContent))),
      logBefore,
    );
    assert.deepEqual(shown, entered, 'the log in the page shows the dice entered');
    await page.locator('#log > li').nth(logBefore + events.findIndex((e) => (e.rolls || []).length))
      .scrollIntoViewIfNeeded();
    await shot(page, 'dice-roll-result');
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('an AI seat that stopped is told to the players', async () => {
    const game = await createGame({ crusader: 'human', muslim: 'human' }, 5);
    const token = game.seats.crusader.token;
    const { page, context, errors } = await newPage();
    await page.goto(`${env.server.base}/play/${game.id}?token=${token}`);
    await page.locator('#map .hex').first().waitFor({ state: 'attached' });
    assert.equal(await page.isVisible('#ai-failure'), false);
    // The document the server sends when an AI seat fails (crates/server tests make one).
    await page.evaluate(async () => {
      const raw = await (await fetch(location.pathname.replace('/play/', '/api/games/') + '/state' + location.search)).json();
      await window.crusades.receive(null, { ...raw, ai_failure: 'the AI player (random) of muslim could not play and has stopped; the server\'s log says why' });
    });
    await page.locator('#ai-failure').waitFor({ state: 'visible' });
    assert.match(await page.textContent('#ai-failure'), /could not play/);
    assert.deepEqual(errors, []);
    await context.close();
  });
});
