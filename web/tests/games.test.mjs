// End-to-end tests of the web client on the project's other games, The Crusades (the Third
// Crusade: secret written orders) and Acre (historical set-up, secret Allocation plans,
// movement): the map drawn from the scenario's data, decisions taken by clicking, secrets kept.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { api, serverAndBrowser, shot, watchErrors } from './helpers.mjs';

const env = serverAndBrowser();

/** A new desktop page, collecting script errors and console errors. */
async function newPage() {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  const errors = watchErrors(page);
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  return { page, context, errors };
}

/** Creates a game of `scenario` through the API, every seat human. */
function createGame(scenario, seed) {
  return api(env.server.base, 'POST', '/api/games', { body: { scenario, options: [], seed, seats: {} } });
}

/** The state as one seat (or a spectator) sees it, without its map. */
function state(id, token) {
  return api(env.server.base, 'GET', `/api/games/${id}/state${token ? `?token=${token}` : ''}`);
}

/** The scenario's map, as the client fetches it once. */
function mapOf(doc) {
  return api(env.server.base, 'GET', `/api/maps/${doc.map}`);
}

/** Opens a seat's link and waits until the whole map is drawn. */
async function openSeat(game, seat, hexes) {
  const opened = await newPage();
  await opened.page.goto(`${env.server.base}${game.seats[seat].link}`);
  await opened.page.waitForFunction((n) => document.querySelectorAll('#map polygon.hex').length === n, hexes);
  return opened;
}

/** Waits until the page has seen a revision after `r`. */
function nextRevision(page, r) {
  return page.waitForFunction((rev) => window.crusades.ui.docs.get(null)?.revision > rev, r);
}

/** Clicks an action's button, opening its group first when it is folded. */
async function clickAction(page, kind, notation) {
  const group = page.locator(`#actions details.action-group[data-kind="${kind}"]`);
  if (!(await group.evaluate((d) => d.open))) await group.locator('summary').click();
  const button = group.locator(`button.action[data-notation="${notation}"]`);
  await button.scrollIntoViewIfNeeded();
  await button.click();
  if (await page.locator('#chooser').isVisible()) await page.locator(`#chooser-body button[data-notation="${notation}"]`).click();
}

describe('The Crusades: the Third Crusade', () => {
  const SCENARIO = 'the-crusades/third-crusade';

  /** The actions of one counter, as the page asks for them when it is selected. */
  function actionsOf(id, token, counter) {
    return api(env.server.base, 'GET', `/api/games/${id}/actions?counter=${encodeURIComponent(counter)}`, { token });
  }

  /** Zooms in on a hex so that it and the counters in it can be clicked. */
  async function focusHex(page, hex) {
    await page.evaluate((h) => {
      const { map } = window.crusades;
      map.view.k = 1.6;
      map.centreOn(h);
    }, hex);
  }

  /** Clicks the centre of a hex on the map (a click, not a drag). */
  async function clickHex(page, hex) {
    const box = await page.locator(`#map polygon.hex[data-hex="${hex}"]`).boundingBox();
    assert.ok(box, `hex ${hex} is drawn`);
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  }

  /**
   * A leader on top of his stack whose orders include a march to a hex with no counter and
   * no other choice there, with his actions: `{ leader, actions, order }`.
   */
  async function pickMarch(doc, id, token) {
    const occupied = new Set(doc.board.counters.map((c) => c.hex));
    const leaders = doc.board.counters.filter((c) => c.kind === 'leader' && c.stack_position === 0
      && doc.actors.some((a) => a.counter === c.id));
    for (const leader of leaders) {
      const { actions } = await actionsOf(id, token, leader.id);
      const order = actions.find((a) => a.kind === 'move' && a.counters.length === 1 && a.path.length >= 2
        && !occupied.has(a.hex) && actions.filter((b) => b.hex === a.hex).length === 1);
      if (order) return { leader, actions, order };
    }
    return null;
  }

  /**
   * Writes a march from the map: a click on the leader shows every place he may go to, the
   * route shows when the destination is pointed at (saved as the screenshot named), and a
   * click on it writes the order.
   */
  async function writeMarch(page, { leader, actions, order }, screenshot) {
    await focusHex(page, leader.hex);
    await page.locator(`#map .counter[data-counter="${leader.id}"]`).click();
    await page.locator('#map .mark-move').first().waitFor();
    const marked = await page.locator('#map .mark-move').evaluateAll((els) => els.map((e) => e.dataset.mark));
    assert.deepEqual(new Set(marked), new Set(actions.filter((a) => a.hex).map((a) => a.hex)),
      'every place the leader may be ordered to, and no other');
    assert.ok(marked.includes(order.hex));
    await focusHex(page, order.hex);
    const box = await page.locator(`#map polygon.hex[data-hex="${order.hex}"]`).boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.locator('#map .mark-path').waitFor({ state: 'attached' });
    const route = order.path[0] === leader.hex ? order.path : [leader.hex, ...order.path];
    assert.deepEqual(await page.evaluate(() => window.crusades.ui.path), route, 'the route of the order is drawn');
    await shot(page, screenshot);
    await clickHex(page, order.hex);
  }

  test('the map of the Middle East is drawn, and orders written from the map stay secret until both commit', async () => {
    const game = await createGame(SCENARIO, 7);
    const crusaders = game.seats.crusaders.token;
    const saracens = game.seats.saracens.token;
    const first = await state(game.id, crusaders);
    const map = await mapOf(first);
    assert.ok(map.hexes.length > 500, 'the whole Middle East');

    const cru = await openSeat(game, 'crusaders', map.hexes.length);
    const sar = await openSeat(game, 'saracens', map.hexes.length);
    // Cities named on the map, the rivers and mountain hexsides, the counters on it.
    const labels = await cru.page.locator('#map text.hex-label').allTextContents();
    const named = map.hexes.filter((h) => h.label).map((h) => h.label);
    assert.ok(named.length > 20, 'the scenario names its cities');
    assert.deepEqual(labels.sort(), [...named].sort(), 'every named place, and no other');
    for (const city of ['Acre', 'Jerusalem', 'Damascus']) assert.ok(labels.includes(city), `${city} is named`);
    for (const feature of new Set(map.hexsides.map((s) => s.feature))) {
      assert.ok(await cru.page.locator(`#map .hexside[data-feature="${feature}"]`).count() > 0, `${feature} hexsides`);
    }
    const onMap = first.board.counters.filter((c) => c.hex);
    assert.ok(onMap.length > 10);
    for (const c of onMap.slice(0, 5)) {
      assert.equal(await cru.page.locator(`#map .counter[data-counter="${c.id}"]`).count(), 1, `${c.id} is drawn`);
    }
    // Control of every city, the siege of Acre, garrisons and fleets: on the map and in the status.
    const acre = first.board.counters.find((c) => c.id === 'site-1619');
    assert.equal(acre.side, 'saracens', 'the Saracens hold Acre');
    assert.ok(acre.markers.includes('besieged by the crusaders'));
    assert.match(await cru.page.textContent('#map .counter[data-counter="site-1619"]'), /besieged by the crusaders/);
    assert.ok(first.board.counters.some((c) => c.id.startsWith('asps-saracens-')), 'leaderless ASPs are shown');
    assert.ok(first.board.counters.some((c) => (c.markers || []).includes('blockade')), 'the blockade of Acre is shown');
    const status = await cru.page.textContent('#status');
    for (const line of ['Siege of Acre: the crusaders besiege the saracens', 'Cities and castles held', 'Your orders']) {
      assert.ok(status.includes(line), `status: ${line}`);
    }
    await shot(cru.page, 'third-crusade-map');

    // Both seats write their orders at once: only what acts on no counter is listed as
    // buttons (no group of buttons per leader); a leader's orders are on the map.
    assert.equal(first.your_turn, true);
    assert.equal((await state(game.id, saracens)).your_turn, true);
    const leaderIds = new Set(first.board.counters.filter((c) => c.kind === 'leader').map((c) => c.id));
    const kinds = await cru.page.locator('#actions details.action-group').evaluateAll((els) => els.map((e) => e.dataset.kind));
    assert.ok(kinds.includes('commit'));
    assert.ok(!kinds.some((k) => leaderIds.has(k)), `no group of buttons per leader: ${kinds}`);
    assert.ok(!first.actions.some((a) => a.kind === 'move'), 'marches are not listed whole');
    const march = await pickMarch(first, game.id, crusaders);
    assert.ok(march, 'a leader may march to an empty hex');
    const { order, leader } = march;
    assert.deepEqual(order.counters, [leader.id]);
    assert.equal(order.hex, order.path[order.path.length - 1]);
    const saracensBefore = await state(game.id, saracens);
    await writeMarch(cru.page, march, 'third-crusade-destinations');
    await nextRevision(cru.page, first.revision);
    const written = await state(game.id, crusaders);
    assert.deepEqual(written.view.my_orders, [order.notation], 'the order is written');
    const marker = `order: move → ${order.notation.split(' ').pop()}`;
    assert.ok(written.board.counters.find((c) => c.id === leader.id).markers.includes(marker), 'the order is marked on the leader');
    await cru.page.waitForFunction(([id, m]) => document.querySelector(`#map .counter[data-counter="${id}"]`)?.textContent.includes(m), [leader.id, marker]);
    assert.ok((await cru.page.textContent('#status')).includes(order.notation), 'the Crusaders\' status lists their order');
    await shot(cru.page, 'third-crusade-order-written');

    // The Saracens see nothing of it: not in their state, not on their page.
    const seen = await state(game.id, saracens);
    const seenJson = JSON.stringify(seen);
    for (const secret of [order.notation, marker, 'order:']) {
      const at = seenJson.indexOf(secret);
      assert.ok(at < 0, `\`${secret}\` is not in the Saracens' state: ${seenJson.slice(Math.max(0, at - 200), at + 100)}`);
    }
    assert.deepEqual(seen.view.my_orders, [], 'the Saracens have written no order');
    assert.equal(seen.log.length, saracensBefore.log.length, 'nothing logged for the Saracens');
    assert.deepEqual(seen.board, saracensBefore.board, 'the Saracens\' board is unchanged');
    const sarText = await sar.page.textContent('body');
    assert.ok(!sarText.includes(order.notation) && !sarText.includes('order:'), 'the order is not on the Saracens\' page');
    assert.equal(await sar.page.evaluate(() => window.crusades.ui.docs.get(null)?.revision), seen.revision,
      'the Saracens\' page saw no change');
    assert.equal(seen.revision, saracensBefore.revision);

    // The Crusaders commit by clicking: the Saracens learn only that the orders are written.
    // (Each seat has its own revision: the Saracens' does not count the secret order.)
    assert.ok((await cru.page.textContent('#log')).includes(order.notation), 'the Crusaders\' log has their order');
    const before = await state(game.id, crusaders);
    await clickAction(cru.page, 'commit', 'commit');
    await sar.page.waitForFunction((r) => window.crusades.ui.docs.get(null)?.revision > r, seen.revision);
    const told = await state(game.id, saracens);
    assert.ok(!JSON.stringify(told).includes(order.notation), 'still secret after one side commits');
    assert.ok(!JSON.stringify(told).includes('order:'), 'no order marker after one side commits');
    assert.ok(told.log.some((e) => /crusaders have written their orders/.test(e.text)));
    assert.ok(!(await sar.page.textContent('body')).includes(order.notation));
    assert.deepEqual(told.pending, ['saracens']);
    await shot(sar.page, 'third-crusade-saracens-after-commit');

    // The Saracens commit too: the turn goes on.
    const committed = await state(game.id, crusaders);
    assert.ok(committed.revision > before.revision);
    await clickAction(sar.page, 'commit', 'commit');
    await cru.page.waitForFunction((r) => window.crusades.ui.docs.get(null)?.revision > r, committed.revision);
    const after = await state(game.id, crusaders);
    assert.ok(after.log.length > before.log.length, 'the orders were carried out');
    assert.ok(await cru.page.locator('#log li').count() > 0, 'the log is shown');
    await shot(cru.page, 'third-crusade-after-orders');

    assert.deepEqual(cru.errors, []);
    assert.deepEqual(sar.errors, []);
    await cru.context.close();
    await sar.context.close();
  });
  test('hot-seat: the lobby starts the game, and the hand-over hides one side\'s orders from the other', async () => {
    const { page, context, errors } = await newPage();
    await page.goto(`${env.server.base}/`);
    await page.locator(`#scenario option[value="${SCENARIO}"]`).waitFor({ state: 'attached' });
    await page.selectOption('#scenario', SCENARIO);
    const seats = await page.locator('#seats select').evaluateAll((els) => els.map((e) => e.dataset.seat));
    assert.deepEqual(seats, ['crusaders', 'saracens']);
    for (const seat of seats) await page.selectOption(`#seat-${seat}`, 'human');
    await page.fill('#seed', '9');
    await page.click('#create');
    await page.locator('#links li[data-seat="saracens"] code').waitFor();
    await page.click('#hotseat');
    await page.waitForURL(/\/play\//);
    await page.locator('#handover').waitFor({ state: 'visible' });
    assert.match(await page.textContent('#handover-title'), /Pass to the Crusaders player/);
    await page.click('#handover-ready');
    await page.waitForFunction(() => document.querySelectorAll('#map polygon.hex').length > 500);
    assert.match(await page.textContent('#seat'), /Crusaders/);

    const gameId = new URL(page.url()).pathname.split('/').pop();
    const tokens = await page.evaluate((id) => JSON.parse(localStorage.getItem('crusades.games'))[id].tokens, gameId);
    const first = await state(gameId, tokens.crusaders);
    const march = await pickMarch(first, gameId, tokens.crusaders);
    assert.ok(march, 'a leader may march to an empty hex');
    const { order } = march;
    await writeMarch(page, march, 'third-crusade-hotseat-destinations');
    await page.waitForFunction((n) => document.querySelector('#log')?.textContent.includes(n), order.notation);
    assert.deepEqual((await state(gameId, tokens.crusaders)).view.my_orders, [order.notation]);
    await clickAction(page, 'commit', 'commit');

    // The Saracens' turn to write: nothing of the Crusaders' view is left, before or after.
    await page.locator('#handover').waitFor({ state: 'visible' });
    assert.match(await page.textContent('#handover-title'), /Pass to the Saracens player/);
    assert.equal(await page.locator('#map .counter').count(), 0, 'the Crusaders\' view is gone');
    assert.ok(!(await page.textContent('body')).includes(order.notation), 'no trace of the order');
    await shot(page, 'third-crusade-handover');
    await page.click('#handover-ready');
    await page.waitForFunction(() => document.querySelectorAll('#map .counter').length > 0);
    assert.match(await page.textContent('#seat'), /Saracens/);
    const body = await page.textContent('body');
    assert.ok(!body.includes(order.notation) && !body.includes('order:'), 'no trace of the order for the Saracens');
    assert.ok((await page.textContent('#log')).includes('the crusaders have written their orders'));
    await shot(page, 'third-crusade-hotseat-saracens');
    await clickAction(page, 'commit', 'commit');
    await page.waitForFunction((id) => {
      const d = window.crusades.ui.docs.get('crusaders');
      return d && d.status.join(' ') !== id;
    }, first.status.join(' '));
    assert.deepEqual(errors, []);
    await context.close();
  });
});

describe('Acre: the siege', () => {
  const SCENARIO = 'acre/siege';

  test('the city is drawn; historical set-up, a secret Allocation plan and a move by clicking', async () => {
    const game = await createGame(SCENARIO, 3);
    const crusader = game.seats.crusader.token;
    const moslem = game.seats.moslem.token;
    const first = await state(game.id, crusader);
    const map = await mapOf(first);
    assert.ok(map.hexes.length > 500);

    const cru = await openSeat(game, 'crusader', map.hexes.length);
    const mos = await openSeat(game, 'moslem', map.hexes.length);
    // The walls, towers and foss of Acre, and the named towers.
    for (const terrain of ['wall', 'tower', 'accursed_tower', 'foss', 'outerworks', 'sea', 'camp']) {
      const n = map.hexes.filter((h) => h.terrain === terrain).length;
      assert.ok(n > 0, `the map has ${terrain}`);
      assert.equal(await cru.page.locator(`#map polygon.hex[data-terrain="${terrain}"]`).count(), n, `${terrain} is drawn`);
    }
    const labels = await cru.page.locator('#map text.hex-label').allTextContents();
    for (const name of ['Accursed Tower', 'Prison Tower', 'Tower of Flies']) assert.ok(labels.includes(name), `${name} is named`);
    const legend = await cru.page.textContent('#legend');
    for (const name of ['Wall', 'Accursed Tower', 'Foss']) assert.ok(legend.includes(name), `${name} in the legend`);

    // Set-up: each side deploys as in the historical quick start, by clicking.
    await clickAction(cru.page, 'deploy-historical', 'deploy-historical');
    await mos.page.waitForFunction(() => window.crusades.ui.docs.get(null)?.your_turn === true);
    await clickAction(mos.page, 'deploy-historical', 'deploy-historical');
    // Allocation: the Crusader's plan is secret until both have planned.
    await cru.page.waitForFunction(() => !!document.querySelector('#actions button[data-notation^="plan "]'));
    const deployed = await state(game.id, crusader);
    assert.ok(deployed.board.counters.length > 30, 'both sides are on the map');
    await cru.page.waitForFunction((n) => document.querySelectorAll('#map .counter').length === n, deployed.board.counters.length);
    await shot(cru.page, 'acre-deployed');
    const plans = deployed.actions.filter((a) => a.notation.startsWith('plan '));
    assert.ok(plans.length >= 2);
    const plan = plans.find((a) => a.notation === 'plan bombard') || plans[0];
    const word = plan.notation.split(' ')[1];
    await clickAction(cru.page, plan.kind, plan.notation);
    await mos.page.waitForFunction(() => document.querySelector('#log')?.textContent.includes('the Crusader has made his secret plan'));
    const mine = await state(game.id, crusader);
    assert.deepEqual(mine.view.allocation.crusader, { revealed: word }, 'the Crusader sees his own plan');
    const theirs = await state(game.id, moslem);
    assert.equal(theirs.view.allocation.crusader, 'hidden', 'the Moslem sees only that there is a plan');
    assert.ok(!theirs.log.some((e) => e.text.includes(word)), 'nor in the Moslem log');
    const mosText = await mos.page.textContent('body');
    assert.ok(!new RegExp(`crusader will ${word}`, 'i').test(mosText), 'nor on the Moslem page');
    assert.ok(!mosText.includes(plan.label), 'the plan is not on the Moslem page');
    assert.ok((await cru.page.textContent('#log')).includes(`will ${word}`), 'the Crusader\'s log has it');
    await shot(mos.page, 'acre-moslem-allocation');

    // The Moslem plans by clicking (his choices are many: through the filter).
    const mosDoc = await state(game.id, moslem);
    const mosPlan = mosDoc.actions[0];
    if (await mos.page.locator('#filter').isVisible()) await mos.page.fill('#filter', mosPlan.notation);
    const planButton = mos.page.locator(`#actions button.action[data-notation="${mosPlan.notation}"]`);
    if (await planButton.isVisible()) {
      await planButton.click();
    } else {
      await clickAction(mos.page, mosPlan.kind, mosPlan.notation);
    }
    if (await mos.page.locator('#chooser').isVisible()) await mos.page.locator(`#chooser-body button[data-notation="${mosPlan.notation}"]`).click();
    await cru.page.waitForFunction(() => (window.crusades.ui.docs.get(null)?.actions || []).some((a) => a.kind === 'select'));

    // Strategic movement: select a unit by clicking it on the map, then a highlighted hex.
    const moving = await state(game.id, crusader);
    assert.equal(moving.your_turn, true, `the Crusader moves: ${moving.status.join('; ')}`);
    const select = moving.actions.find((a) => a.kind === 'select');
    assert.ok(select, 'units to select');
    const unit = select.counters[0];
    const at = moving.board.counters.find((c) => c.id === unit).hex;
    await cru.page.evaluate((hex) => {
      const { map: m } = window.crusades;
      m.view.k = 1.6;
      m.centreOn(hex);
    }, at);
    await cru.page.locator(`#map .counter[data-counter="${unit}"]`).click();
    await cru.page.waitForFunction((id) => window.crusades.ui.selected === id, unit);
    await cru.page.locator('#map .mark-move').first().waitFor({ state: 'attached' });
    const selected = await state(game.id, crusader);
    const moves = (await api(env.server.base, 'GET', `/api/games/${game.id}/actions?counter=${unit}`, { token: crusader })).actions
      .filter((a) => a.kind === 'move' && a.hex);
    assert.ok(moves.length > 0, 'the unit may move');
    const marks = await cru.page.locator('#map .mark-move').evaluateAll((els) => els.map((e) => e.dataset.mark));
    assert.deepEqual(new Set(marks), new Set(moves.map((a) => a.hex)), 'every hex it may go to, and no other');
    const occupied = new Set(selected.board.counters.map((c) => c.hex));
    const dest = moves.map((a) => a.hex).find((h) => !occupied.has(h)) || moves[0].hex;
    await cru.page.evaluate((hex) => window.crusades.map.centreOn(hex), dest);
    await shot(cru.page, 'acre-select');
    const box = await cru.page.locator(`#map polygon.hex[data-hex="${dest}"]`).boundingBox();
    await cru.page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    if (await cru.page.locator('#chooser').isVisible()) await cru.page.locator('#chooser-body button').first().click();
    await cru.page.locator(`#map .counter[data-counter="${unit}"][data-hex="${dest}"]`).waitFor();
    const moved = await state(game.id, crusader);
    assert.equal(moved.board.counters.find((c) => c.id === unit).hex, dest);
    await mos.page.locator(`#map .counter[data-counter="${unit}"][data-hex="${dest}"]`).waitFor();
    await shot(cru.page, 'acre-moved');

    assert.deepEqual(cru.errors, []);
    assert.deepEqual(mos.errors, []);
    await cru.context.close();
    await mos.context.close();
  });
});
