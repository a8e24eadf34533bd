// The lobby (/): pick a scenario, its options and who plays each seat, create the game,
// then hand out the secret links or play every human seat here (hot-seat).

import { forgetGame, request, saveGame, savedGames, seatTitle } from './api.js';

const $ = (id) => document.getElementById(id);
/** Player kinds offered for a seat (the server accepts any `mcts:N` / `mcts:Ns` too). */
const PLAYERS = [
  ['human', 'Human'],
  ['heuristic', 'AI: heuristic'],
  ['mcts:2s', 'AI: MCTS, 2 seconds a decision'],
  ['mcts:200', 'AI: MCTS, 200 iterations'],
  ['random', 'AI: random moves'],
];

/** Whether scenario `s` offers player `value` (its `players` list; humans always). */
function offers(s, value) {
  if (value === 'human' || !Array.isArray(s?.players)) return true;
  return s.players.includes(value.split(':')[0]);
}

let scenarios = [];
let created = null;

async function load() {
  try {
    const data = await request('GET', '/api/scenarios');
    scenarios = data.scenarios || [];
  } catch (e) {
    $('form-error').textContent = `Cannot list the scenarios: ${e.message}`;
    $('scenario').replaceChildren(new Option('No scenarios', ''));
    return;
  }
  const sel = $('scenario');
  sel.replaceChildren();
  const byGame = new Map();
  for (const s of scenarios) {
    if (!byGame.has(s.game)) byGame.set(s.game, []);
    byGame.get(s.game).push(s);
  }
  for (const [game, list] of byGame) {
    const group = document.createElement('optgroup');
    group.label = game;
    for (const s of list) group.append(new Option(s.title || s.id, s.id));
    sel.append(group);
  }
  const params = new URLSearchParams(location.search);
  const wanted = params.get('play') || params.get('scenario');
  if (wanted && scenarios.some((s) => s.id === wanted)) sel.value = wanted;
  scenarioChanged();
  // `/?play=SCENARIO` (what `crusades serve --open` opens): create a game with the default
  // seats and go straight to the first human seat's page.
  if (params.get('play') && sel.value === params.get('play')) {
    await create();
    if (created) $('hotseat').click();
  }
}

function current() {
  return scenarios.find((s) => s.id === $('scenario').value);
}

function scenarioChanged() {
  const s = current();
  const opts = $('options');
  opts.replaceChildren();
  $('options-field').hidden = !s || !(s.options || []).length;
  for (const o of (s?.options || [])) {
    const id = `opt-${o.name}`;
    const label = document.createElement('label');
    label.htmlFor = id;
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.id = id;
    box.name = 'option';
    box.value = o.name;
    const textEl = document.createElement('span');
    textEl.append(document.createTextNode(o.name));
    const about = document.createElement('small');
    about.textContent = o.description || o.about || '';
    textEl.append(about);
    label.append(box, textEl);
    const item = document.createElement('li');
    item.append(label);
    opts.append(item);
  }
  const seats = $('seats');
  seats.replaceChildren();
  (s?.seats || []).forEach((seat, i) => {
    const row = document.createElement('div');
    row.className = 'seat-row';
    const label = document.createElement('label');
    label.htmlFor = `seat-${seat}`;
    label.textContent = seatTitle(seat);
    const sel = document.createElement('select');
    sel.id = `seat-${seat}`;
    sel.dataset.seat = seat;
    for (const [value, name] of PLAYERS) {
      if (offers(s, value)) sel.append(new Option(name, value));
    }
    // By default the first seat is human and the others the best quick AI the game has.
    sel.value = i === 0 ? 'human' : offers(s, 'heuristic') ? 'heuristic' : 'random';
    row.append(label, sel);
    seats.append(row);
  });
}

$('scenario').addEventListener('change', scenarioChanged);

$('new-game').addEventListener('submit', (e) => {
  e.preventDefault();
  create();
});

/** Creates a game from the form, then shows its links. */
async function create() {
  $('form-error').textContent = '';
  const s = current();
  if (!s) {
    $('form-error').textContent = 'Choose a scenario first.';
    return;
  }
  const body = {
    scenario: s.id,
    options: [...document.querySelectorAll('#options input:checked')].map((b) => b.value),
    seats: Object.fromEntries([...document.querySelectorAll('#seats select')].map((sel) => [sel.dataset.seat, sel.value])),
  };
  if ($('manual-dice').checked) body.dice = 'manual';
  const seed = $('seed').value.trim();
  if (seed !== '') {
    if (!/^\d+$/.test(seed)) {
      $('form-error').textContent = 'The seed must be a whole number of 0 or more.';
      return;
    }
    body.seed = Number(seed);
  }
  $('create').disabled = true;
  try {
    const game = await request('POST', '/api/games', { body });
    created = { ...game, title: s.title, scenario: s.id };
    const tokens = Object.fromEntries(Object.entries(game.seats || {}).map(([seat, v]) => [seat, v.token]));
    saveGame(game.id, {
      title: s.title, scenario: s.id, created: new Date().toISOString(), tokens,
      links: Object.fromEntries(Object.entries(game.seats || {}).map(([seat, v]) => [seat, v.link])),
      spectator: game.spectator, hotseat: false,
    });
    showCreated();
    listMine();
  } catch (err) {
    $('form-error').textContent = `Could not create the game: ${err.message}`;
  } finally {
    $('create').disabled = false;
  }
}

function absolute(link) {
  return new URL(link, location.origin).href;
}

function showCreated() {
  const g = created;
  $('created').hidden = false;
  $('created-title').textContent = `Game created: ${g.title}`;
  const ul = $('links');
  ul.replaceChildren();
  const seats = Object.entries(g.seats || {});
  for (const [seat, v] of seats) {
    const item = document.createElement('li');
    item.dataset.seat = seat;
    const name = document.createElement('strong');
    name.textContent = `${seatTitle(seat)}`;
    const code = document.createElement('code');
    code.textContent = absolute(v.link);
    const copy = document.createElement('button');
    copy.type = 'button';
    copy.textContent = 'Copy';
    copy.addEventListener('click', async () => {
      try {
        await navigator.clipboard.writeText(absolute(v.link));
        copy.textContent = 'Copied';
      } catch {
        copy.textContent = 'Select and copy the link';
      }
    });
    item.append(name, code, copy);
    ul.append(item);
  }
  const spect = document.createElement('li');
  spect.dataset.seat = '';
  const name = document.createElement('strong');
  name.textContent = 'Spectators';
  const code = document.createElement('code');
  code.textContent = absolute(g.spectator);
  spect.append(name, code, document.createElement('span'));
  ul.append(spect);
  $('watch').href = g.spectator;
  $('hotseat').hidden = seats.length === 0;
  $('hotseat').textContent = seats.length > 1 ? `Play hot-seat here (${seats.map(([s]) => seatTitle(s)).join(' and ')})` : `Play ${seatTitle(seats[0]?.[0])} here`;
  $('created').scrollIntoView({ block: 'start' });
}

$('hotseat').addEventListener('click', () => {
  const g = created;
  const seats = Object.entries(g.seats || {});
  if (!seats.length) return;
  saveGame(g.id, { hotseat: seats.length > 1 });
  location.href = seats[0][1].link;
});

/** The games this browser holds links to. */
function listMine() {
  const games = Object.entries(savedGames()).sort((a, b) => String(b[1].created).localeCompare(String(a[1].created)));
  $('mine').hidden = !games.length;
  const ul = $('games');
  ul.replaceChildren();
  for (const [id, g] of games.slice(0, 20)) {
    const item = document.createElement('li');
    const title = document.createElement('span');
    title.textContent = `${g.title || g.scenario || id} · ${g.created ? new Date(g.created).toLocaleString() : ''}`;
    item.append(title);
    for (const [seat, link] of Object.entries(g.links || {})) {
      const a = document.createElement('a');
      a.href = link;
      a.textContent = `play ${seatTitle(seat)}`;
      a.addEventListener('click', () => saveGame(id, { hotseat: false }));
      item.append(a);
    }
    if (Object.keys(g.links || {}).length > 1) {
      const a = document.createElement('a');
      a.href = Object.values(g.links)[0];
      a.textContent = 'hot-seat';
      a.addEventListener('click', () => saveGame(id, { hotseat: true }));
      item.append(a);
    }
    if (g.spectator) {
      const a = document.createElement('a');
      a.href = g.spectator;
      a.textContent = 'watch';
      item.append(a);
    }
    const del = document.createElement('button');
    del.type = 'button';
    del.className = 'quiet';
    del.textContent = 'Forget';
    del.setAttribute('aria-label', `Forget ${g.title || id}`);
    del.addEventListener('click', () => {
      forgetGame(id);
      listMine();
    });
    item.append(del);
    ul.append(item);
  }
}

listMine();
load();
