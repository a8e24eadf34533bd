#!/usr/bin/env python3
"""Writes BENCHMARKS.md from the measurements `bench/run` left in target/bench and
target/criterion: every game's figures (registry example `bench`), criterion means of the
Crusades II rules, random-game throughput, callgrind instruction counts, the OpenSpiel anchor
and, when run, the AI's strength, with the machine they ran on and each target of issue 5 met
or not, with what limits it."""
import datetime
import glob
import json
import math
import os
import platform
import re
import subprocess
import sys

out = sys.argv[1] if len(sys.argv) > 1 else "target/bench"


def criterion(name):
    """Mean time in nanoseconds of a criterion benchmark, or None."""
    # Criterion writes "a/b" as "a_b"; a benchmark group is a folder of its own.
    group, _, rest = name.partition(":")
    parts = [group, rest.replace("/", "_")] if rest else [name.replace("/", "_")]
    path = os.path.join("target", "criterion", *parts, "new", "estimates.json")
    try:
        with open(path) as f:
            return json.load(f)["mean"]["point_estimate"]
    except (OSError, KeyError, ValueError):
        return None


def load(path):
    try:
        with open(path) as f:
            return json.loads(f.read().strip() or "{}")
    except (OSError, ValueError):
        return {}


def fmt_ns(ns):
    if ns is None:
        return "not measured"
    if ns >= 1e6:
        return f"{ns / 1e6:.2f} ms"
    if ns >= 1e3:
        return f"{ns / 1e3:.1f} µs"
    return f"{ns:.0f} ns"


def machine():
    cpu = "unknown CPU"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = ""
    try:
        kb = int(re.search(r"MemTotal:\s+(\d+)", open("/proc/meminfo").read()).group(1))
        mem = f", {kb / 1024 / 1024:.0f} GiB"
    except (OSError, AttributeError):
        pass
    rustc = subprocess.run(["rustc", "--version"], capture_output=True, text=True).stdout.strip()
    return f"{os.cpu_count()} cores, {cpu}{mem}, {platform.system()} {platform.release()}, {rustc}"


def games_lines():
    """Every scenario's line of the registry example `bench`."""
    rows = []
    try:
        for line in open(os.path.join(out, "games.jsonl")):
            line = line.strip()
            if line:
                rows.append(json.loads(line))
    except (OSError, ValueError):
        pass
    return rows


def fmt_rate(x):
    if x is None:
        return "not measured"
    if x >= 100:
        return f"{x:,.0f}"
    if x >= 1:
        return f"{x:.1f}"
    return f"{x:.3f}"


def met(ok):
    return "met" if ok else "**not met**"


CII = ["hattin", "hab", "nicopolis", "tannenburg"]
rows = games_lines()
anchor = load(os.path.join(out, "anchor.json"))
anchor_pps = anchor.get("plies_per_s")
typed = {r["scenario"]: r.get("typed", {}) for r in rows}
sims = {r["scenario"]: r.get("simulate", {}) for r in rows}

lines = []
w = lines.append
w("# Benchmarks")
w("")
w(f"Measured by `bench/run` on {datetime.date.today().isoformat()}: {machine()}.")
try:
    w(f"The whole run took {int(open(os.path.join(out, 'seconds')).read()) / 60:.0f} minutes.")
except (OSError, ValueError):
    pass
w("Times are wall-clock means of release builds; instruction counts come from callgrind and do")
w("not depend on how busy the machine was. Tests never time anything; this file is where")
w("speed is measured. Regenerate it with `bench/run` (on a quiet machine: about 40 minutes).")
if os.environ.get("BENCH_NOTE"):
    w("")
    w(f"**Note on this run:** {os.environ['BENCH_NOTE']}")
w("")
w("## Every game")
w("")
w("Measured through the registry's table of games by `cargo run --release -p registry --example")
w("bench` (random players throughout; see the example's documentation). *Legal* and *apply* are")
w("per decision over whole random games; the *typical position* is a third of the way through")
w("the first random game; MCTS iterations each play one uniform random playout to the end, as")
w("the raw playouts do; `simulate` plays the same batch of random-player games on 1 and on 2")
w("threads (with the `crusades` binary's allocator). Its *steady* speed-up compares the")
w("throughputs while every thread is busy (games finished by the time the first thread finds")
w("no game left, over that time; the games then in progress are not counted, so the 2-thread")
w("figure is a little low): what a long batch reaches, and what the target is about. The")
w("*batch* speed-up compares the two batches' wall-clock times, the tail included, in which")
w("the threads' last games finish one by one. Both are the median of three rounds, each a")
w("batch on 1 thread, on 2 and on 1 again, the 2-thread batch set against the mean of the two")
w("around it, so that a steady drift of the machine's speed cancels out.")
w("")
if rows:
    w("| scenario | random-game plies/s | legal actions per decision: mean / 99% / worst | apply per decision | typical position: actions, legal actions, clone + apply | state (JSON / in memory) |")
    w("|---|---|---|---|---|---|")
    for r in rows:
        t = r.get("typed", {})
        g, p = t.get("random_games"), t.get("position")
        if not g or not p:
            w(f"| {r['scenario']} | {t.get('error', 'not measured')} | | | | |")
            continue
        w(f"| {r['scenario']} | {fmt_rate(g['plies_per_s'])} ({g['games']} games, {g['plies']:,} plies"
          f"{', %d cut at 100,000 plies' % g['unfinished'] if g.get('unfinished') else ''}) | "
          f"{fmt_ns(g['legal_mean_ns'])} / {fmt_ns(g['legal_p99_ns'])} / {fmt_ns(g['legal_max_ns'])} | "
          f"{fmt_ns(g['apply_mean_ns'])} | {p['legal_actions']}, {fmt_ns(p['legal_ns'])}, "
          f"{fmt_ns(p['clone_apply_ns'])} (clone alone {fmt_ns(p['clone_ns'])}) | "
          f"{p['state_json_bytes']:,} B / {p['state_size_of']:,} B + heap |")
    w("")
    w("| scenario | raw random playouts/s (plies each) | MCTS iterations/s | ratio (target ≥ 0.8) | `simulate` games/s, 1 thread | 2 threads | steady speed-up (target ≥ 1.8) | batch speed-up |")
    w("|---|---|---|---|---|---|---|---|")
    for r in rows:
        t, m = r.get("typed", {}), r.get("simulate", {})
        se = t.get("search")
        cells = ([f"{fmt_rate(se['playouts_per_s'])} ({se['playout_plies']:,.0f})",
                  f"{fmt_rate(se['mcts_iterations_per_s'])} ({se['mcts_iterations']} iterations)",
                  f"{se['ratio']:.2f}"]
                 if se else ["not measured"] * 3)
        if "steady_speedup" in m:
            cells += [f"{fmt_rate(m['steady_games_per_s_one'])} ({m['games']} games)",
                      fmt_rate(m["steady_games_per_s_two"]), f"{m['steady_speedup']:.2f}",
                      f"{m['speedup']:.2f}"]
        else:
            cells += [m.get("error", "not measured"), "", "", ""]
        w(f"| {r['scenario']} | {' | '.join(cells)} |")
    w("")
else:
    w("Not measured in this run (target/bench/games.jsonl is missing).")
    w("")

w("## Crusades II rules")
w("")
w("Criterion (`cargo bench -p crusades-ii --bench rules`), at the first movement of each battle")
w("(historical deployment and commands).")
w("")
w("| scenario | legal actions at the first movement | apply one move (select, then move; with a state clone) | clone |")
w("|---|---|---|---|")
for s in CII:
    w(f"| {s} | {fmt_ns(criterion(f'{s}/legal_actions_first_movement'))} | {fmt_ns(criterion(f'{s}/apply_one_move'))} | {fmt_ns(criterion(f'{s}/clone_state'))} |")
w("")
unit = criterion("hab/one_unit_moves")
bare = criterion("hab/bare_dijkstra_same_allowance")
ratio = f"{unit / bare:.1f}x" if unit and bare else "n/a"
w(f"One unit's legal moves (Hab, every hex and facing, command chit, ZOC and stacking rules): "
  f"{fmt_ns(unit)}; a bare Dijkstra over the same allowance and terrain costs "
  f"(`hexgrid::field_of_movement`): {fmt_ns(bare)} (ratio {ratio}; target at most 2x).")
w("")
instr = {}
try:
    for line in open(os.path.join(out, "instructions.json")):
        r = json.loads(line)
        instr[(r["scenario"], r["op"])] = r
except (OSError, ValueError):
    pass
iu, ib = instr.get(("hab", "unit")), instr.get(("hab", "bare"))
# One unit's moves against a bare Dijkstra, per game (bench/unit-moves: one JSON line a game).
unit_moves = {}
try:
    for line in open(os.path.join(out, "unit-moves.jsonl")):
        if line.strip():
            r = json.loads(line)
            unit_moves[r["scenario"]] = r
except (OSError, ValueError):
    pass
acre_unit = unit_moves.get("acre/siege")
tc_unit = unit_moves.get("the-crusades/third-crusade")
if acre_unit:
    w(f"Acre (`bench/unit-moves`, a siege position after 300 random actions; two combat units with "
      f"{acre_unit['destinations'][0]} and {acre_unit['destinations'][1]} places to go, listed in turn "
      f"as the legal actions list them, with zones of control, walls and the end-of-move rules): "
      f"{fmt_ns(acre_unit['unit_ns'])} a unit; a bare Dijkstra over the same allowances and entry "
      f"costs, read from a table: {fmt_ns(acre_unit['bare_ns'])} (ratio {acre_unit['ratio']:.2f}x). "
      f"In instructions {acre_unit['unit_instructions']:,} against {acre_unit['bare_instructions']:,} "
      f"(ratio {acre_unit['instruction_ratio']:.2f}x).")
    w("")
if tc_unit:
    w(f"The Crusades (`bench/unit-moves`, the Third Crusade's set-up; two leaders of one side at two "
      f"places, with {tc_unit['destinations'][0]} and {tc_unit['destinations'][1]} places to go, city "
      f"mini-hexes included, each with its path): a leader's routes depend only on the map, the weather, "
      f"where it starts and its allowance, so they are searched once per scenario and kept. The first "
      f"search: {fmt_ns(tc_unit['unit_ns'])} a leader, {tc_unit['unit_instructions']:,} instructions; "
      f"a bare Dijkstra over the same allowances and step costs, read from a table: "
      f"{fmt_ns(tc_unit['bare_ns'])}, {tc_unit['bare_instructions']:,} instructions (ratio "
      f"{tc_unit['ratio']:.2f}x in time, {tc_unit['instruction_ratio']:.2f}x in instructions). Every later "
      f"listing reads the kept routes: {fmt_ns(tc_unit['kept_ns'])}, {tc_unit['kept_instructions']:,} "
      f"instructions.")
    w("")
if instr:
    if iu and ib:
        w(f"In instructions (callgrind, `bench/instructions`): one unit's moves "
          f"{iu['instructions']:,}, the bare Dijkstra {ib['instructions']:,} "
          f"(ratio {iu['instructions'] / ib['instructions']:.2f}x).")
        w("")
    w("| scenario | instructions: legal actions at the first movement | apply one move | one ply of a random game |")
    w("|---|---|---|---|")
    for s_ in CII:
        cells = []
        for op in ["legal", "apply", "ply"]:
            r = instr.get((s_, op))
            cells.append(f"{r['instructions']:,}" if r else "not measured")
        w(f"| {s_} | {' | '.join(cells)} |")
    w("")
    ip, im = instr.get(("hab", "playout")), instr.get(("hab", "mcts"))
    if ip and im:
        w(f"Instructions, Hab from the first movement: a raw random playout to the end "
          f"{ip['instructions']:,}, an MCTS iteration with one such playout {im['instructions']:,} "
          f"(ratio {ip['instructions'] / im['instructions']:.2f}).")
        w("")
    ig = instr.get(("hab", "guided"))
    if ig:
        w(f"One iteration of the `mcts:N` player's search (guided by the doctrine, the leaf scored "
          f"by the evaluation), same position: {ig['instructions']:,} instructions.")
        w("")
w("### Random games of Crusades II")
w("")
w("`crusades-ii` example `random_games` (10 seeded games each, random set-up included):")
w("")
w("| scenario | games | plies | seconds | plies per second |")
w("|---|---|---|---|---|")
slowest = None
for s_ in CII:
    g = load(os.path.join(out, f"games-{s_}.json"))
    if g:
        w(f"| {g['scenario']} | {g['games']} | {g['plies']} | {g['seconds']} | {g['plies_per_s']:,.0f} |")
        slowest = g["plies_per_s"] if slowest is None else min(slowest, g["plies_per_s"])
w("")
cg = load(os.path.join(out, "games-callgrind.json"))
total = None
try:
    for line in open(os.path.join(out, "callgrind.out")):
        if line.startswith("summary:") or line.startswith("totals:"):
            total = int(line.split()[1])
except OSError:
    pass
if total and cg.get("plies"):
    w(f"Instructions (callgrind, one Hab game of {cg['plies']} plies, including start-up): "
      f"{total:,} in all, {total / cg['plies']:,.0f} per ply.")
    w("")
for s_ in CII:
    t = criterion(f"random_game:{s_}/plies")
    if t:
        w(f"Criterion, random games of {s_}: {fmt_ns(t)} per ply ({1e9 / t:,.0f} plies per second).")
        w("")
w("## Against the anchor")
w("")
if anchor_pps:
    w(f"OpenSpiel ({anchor.get('anchor')}), {anchor.get('game')}: {anchor_pps:,} plies "
      f"per second ({anchor.get('sims_per_s')} simulations/s of {anchor.get('mean_plies')} plies), "
      "measured in the same run.")
    w("")
    # Instructions a ply of random games (bench/ply-instructions, callgrind), every scenario.
    ply_ins = {}
    try:
        for l in open(os.path.join(out, "ply-instructions.jsonl")):
            if l.strip():
                x = json.loads(l)
                ply_ins[x["scenario"]] = x
    except OSError:
        pass
    w("| scenario | random-game plies/s | ratio to the anchor | instructions a ply (callgrind, `bench/ply-instructions`) |")
    w("|---|---|---|---|")
    for r in rows:
        g = r.get("typed", {}).get("random_games")
        if g:
            x = ply_ins.get(r["scenario"])
            ins = f"{x['instructions']:,} (over {x['plies']:,} plies)" if x else "not measured"
            w(f"| {r['scenario']} | {g['plies_per_s']:,.0f} | {g['plies_per_s'] / anchor_pps:.3f} | {ins} |")
else:
    w("The OpenSpiel anchor could not be measured on this run (tools/openspiel-anchor needs PyPI);")
    w("it measured about 136,000 plies per second on this machine before.")
w("")

# The game server under load (issue 6).
sl = load(os.path.join(out, "server-load.json"))
w("## The game server under load")
w("")
w("`bench/server-load [GAMES] [SECONDS]` (run by `bench/run` with 200 games for 60 s): a")
w("`crusades-server` on loopback with an SQLite file, GAMES games of Hattin with two bot")
w("clients each, every bot acting at most once a second when it must decide and keeping its")
w("state from the server's updates; the time from an action sent to the updated view received,")
w("against a bare WebSocket echo measured in the same run. Bots and server share the machine.")
w("")
if sl:
    a2v, echo = sl["action_to_view_ms"], sl["echo_ms"]
    w("| games | bots | actions/s | action → view p50 / p99 / max | echo p50 / p99 / max | p99 ÷ echo p99 | lost / duplicated | server CPU per action | load average before / after |")
    w("|---|---|---|---|---|---|---|---|---|---|")
    w(f"| {sl['games']} | {sl['bots']} | {sl['actions_per_s']} | {a2v['p50']} / {a2v['p99']} / {a2v['max']} ms "
      f"| {echo['p50']} / {echo['p99']} / {echo['max']} ms | {sl['p99_over_echo_p99']} | {sl['lost']} / {sl['duplicated']} "
      f"| {sl['server_cpu_ms_per_action']} ms | {sl['load_average_before']} / {sl['load_average_after']} |")
    w("")
    p99_ok = a2v["p99"] <= sl["target"]["p99_ms"]
    ratio_ok = sl["p99_over_echo_p99"] <= sl["target"]["p99_over_echo_p99"]
    w(f"Targets: p99 ≤ {sl['target']['p99_ms']} ms {met(p99_ok)}; p99 ≤ {sl['target']['p99_over_echo_p99']}x the echo's "
      f"{met(ratio_ok)}; no lost or duplicated update {met(sl['lost'] == 0 and sl['duplicated'] == 0)}.")
    if not p99_ok:
        w("")
        w("What limits it: the server's CPU per action is now mostly the game's own work for each")
        w("connected seat: its view as JSON (about a fifth), the action descriptions (a tenth), the")
        w("board picture (a twelfth), then the diff against the seat's last document (a tenth);")
        w("hashing the state is 2-2.5% and SQLite's group commit about 3%. When bots and server")
        w("share two busy cores, even the bare echo's p99 rises far above 50 ms. Next: the view")
        w("as typed data or text rather than a JSON tree, and smaller per-counter action replies")
        w("(about 28 KB each).")
else:
    w("Not run in this run.")
w("")

# The strength of the AI: every game of bench/strength/results.jsonl (the `strength`
# example appends to it; it is kept in the repository, so the sample grows run by run).
def wilson(k, n):
    if n == 0:
        return (0.0, 1.0)
    z = 1.959963984540054
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))

strength_file = os.path.join(os.path.dirname(os.path.abspath(__file__)), "strength", "results.jsonl")
duels = {}
try:
    for l in open(strength_file):
        if l.strip():
            g = json.loads(l)
            duels.setdefault((g["scenario"], g["first"], g["second"], g["judged_after"]), []).append(g)
except OSError:
    pass
w("## Strength of the AI")
w("")
w("`cargo run --release -p registry --example strength -- --pairs N --mcts mcts:1000")
w("--matches mcts-random,mcts-heuristic` plays issue 5's measurement for every two-seat")
w("scenario: games in pairs (sides swapped, shared dice seeds), MCTS at 1,000 iterations")
w("against random and against the heuristic, every game played to its end (`--turns T` judges")
w("a game after T turns by the game's evaluation instead, a draw within 0.02 of even; the table")
w("says which), with 95% Wilson intervals. Each game is appended to")
w("`bench/strength/results.jsonl` as it ends and a run plays only the games missing from it,")
w("so the sample grows from run to run (`STRENGTH_PAIRS=N bench/run` adds to it;")
w("`bench/strength-sections` rewrites this file's strength sections from it alone).")
w("")
strength_rows = []
if duels:
    w("| scenario | match | played | games (pairs) | won / drawn / lost | win rate [95%] | score [95%] | pairs won both / split / lost both | won as seat 0 / as seat 1 | finished | MCTS s a decision | decisions a game |")
    w("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for (scen, a, b, turns), games in sorted(duels.items()):
        n = len(games)
        wins = sum(1 for g in games if g["points"] == 1.0)
        draws = sum(1 for g in games if g["points"] == 0.5)
        points = sum(g["points"] for g in games)
        wl, wh = wilson(wins, n)
        sl, sh = wilson(points, n)
        dec = sum(g["decisions"][0] for g in games)
        secs = sum(g["seconds"][0] for g in games)
        pairs = len({g["dice"] for g in games})
        fin = sum(1 for g in games if g["finished"])
        played = "to the end" if turns == 0 else f"judged after {turns} turns"
        by_pair = {}
        for g in games:
            by_pair.setdefault(g["dice"], []).append(g["points"])
        whole = [p for p in by_pair.values() if len(p) == 2]
        both = sum(1 for p in whole if p == [1.0, 1.0])
        none = sum(1 for p in whole if p == [0.0, 0.0])
        halves = f"{both} / {len(whole) - both - none} / {none}"
        if len(whole) < len(by_pair):
            halves += f" ({len(by_pair) - len(whole)} unpaired)"
        seat_won = lambda k: (sum(1 for g in games if g["first_seat"] == k and g["points"] == 1.0),
                              sum(1 for g in games if g["first_seat"] == k))
        (w0, n0), (w1, n1) = seat_won(0), seat_won(1)
        w(f"| {scen} | {a} against {b} | {played} | {n} ({pairs}) | {wins} / {draws} / {n - wins - draws} | "
          f"{wins / n:.2f} [{wl:.2f}, {wh:.2f}] | {points / n:.2f} [{sl:.2f}, {sh:.2f}] | {halves} | "
          f"{w0} of {n0} / {w1} of {n1} | {fin} | {secs / max(dec, 1):.2f} | {dec / n:.0f} |")
        # What a game costs now: the games of the code that played last (the file is in the
        # order the games ended), the search's and its opponent's seconds together.
        newest = [g for g in games if g.get("commit") == games[-1].get("commit")]
        game_secs = sum(sum(g["seconds"]) for g in newest) / len(newest)
        strength_rows.append((scen, a, b, turns, n, wins / n, wl, wh, game_secs, len(newest)))
    w("")
    w("Seat 0 is the side the scenario lists first (the Crusaders; at Tannenburg the Teutonic")
    w("Knights; at Acre the Crusaders; in The Crusades the Crusaders). Seconds a decision are")
    w("from whatever machine played the game, often a busy one; the results themselves do not")
    w("depend on it (an iteration budget is deterministic).")
else:
    w("No game played yet.")
w("")
# Balance under the doctrine (bench/balance): what a paired game against the heuristic is up
# against.
def read_lines(name):
    """The JSON lines of a file of this run's folder (none if it is missing)."""
    try:
        return [json.loads(l) for l in open(os.path.join(out, name)) if l.strip()]
    except OSError:
        return []

balance = read_lines("balance.jsonl")
if balance:
    w("### Balance when the doctrine plays both sides")
    w("")
    w("`bench/balance` (`crusades simulate SCENARIO --games N --ai A=heuristic --ai B=heuristic --seed 1`).")
    w("Where one side nearly always wins, a pair of games between two players of equal strength")
    w("splits, one win each, whatever the dice: to score 60% against the heuristic, MCTS must win")
    w("a fifth of its games from the side the doctrine loses with, or more.")
    w("")
    w("| scenario | games | first side wins [95%] | second side wins [95%] | draws | mean length (actions) |")
    w("|---|---|---|---|---|---|")
    for b in balance:
        s0, s1 = b["seats"][0], b["seats"][1]
        cell = lambda x: f"{x['seat']} {x['wins']['rate']:.2f} [{x['wins']['low']:.2f}, {x['wins']['high']:.2f}]"
        w(f"| {b['scenario']} | {b['games']} | {cell(s0)} | {cell(s1)} | {b['draws']['rate']:.2f} | {b['length']['mean']:,.0f} |")
    w("")

# How often the search overrules its doctrine (registry example `agreement`).
agreement = read_lines("agreement.jsonl")
if agreement:
    w("### How often the search overrules its doctrine")
    w("")
    w("`cargo run --release -p registry --example agreement -- --mcts mcts:300 --decisions 150`: a")
    w("game played by the doctrine on every seat; at each decision with a choice the search is")
    w("asked too. A search that always agrees is its doctrine at a thousand times the cost.")
    w("")
    w("| scenario | search | decisions | chose otherwise | where (kind: otherwise / decisions) |")
    w("|---|---|---|---|---|")
    for a in agreement:
        kinds = ", ".join(f"{k['kind']} {k['differ']}/{k['decisions']}" for k in a["kinds"] if k["differ"])
        w(f"| {a['scenario']} | {a['search']} | {a['decisions']} | {a['differ']} ({a['share']:.0%}) | {kinds or 'nowhere'} |")
    w("")

# Each overrule of the scaled search judged by games played on (`agreement --judge`).
judged = read_lines("judged.jsonl")
if judged:
    w("### Are the overrules improvements?")
    w("")
    w("`agreement --mcts mcts:300:scaled --decisions 200 --judge 10`: rewards on the tree's own")
    w("scale, so that the search does overrule its doctrine; each decision where it does is")
    w("played on both ways, ten times each on the same freshly seeded dice, the rest of the game")
    w("by the doctrine on both sides. The gain is the deciding side's mean score after the")
    w("search's move less that after the doctrine's (one step of policy improvement: overrules")
    w("that gain make a player stronger than its doctrine). Interval: 95%, normal, over the")
    w("judged decisions.")
    w("")
    w("| scenario | search | decisions | overruled | mean gain [95%] |")
    w("|---|---|---|---|---|")
    for a in judged:
        g = a.get("gain")
        gain = f"{g['mean']:+.3f} [{g['low']:+.3f}, {g['high']:+.3f}]" if g else "none judged"
        w(f"| {a['scenario']} | {a['search']} | {a['decisions']} | {a['differ']} ({a['share']:.0%}) | {gain} |")
    w("")

# How well each evaluation foretells the result (registry example `calibration`).
calibration = read_lines("calibration.jsonl")
if calibration:
    w("### How well the evaluation foretells the result")
    w("")
    w("`cargo run --release -p registry --example calibration -- --games 40`: games played by the")
    w("doctrine on both sides (other seeds than those the Crusades II weights were fitted to);")
    w("every tenth decision the first seat's evaluation is read and scored against the first")
    w("seat's result by the Brier score (mean squared error; lower is better), beside the base")
    w("rate's (the first seat's mean result over the same games, which knows the answer on")
    w("average). An evaluation above the base rate misleads a search about who is winning.")
    w("")
    w("| scenario | first seat's result | Brier: evaluation / base rate | first third | second third | last third |")
    w("|---|---|---|---|---|---|")
    for c in calibration:
        thirds = " | ".join(f"{t['brier']:.3f} / {t['brier_base_rate']:.3f}" for t in c["thirds"])
        w(f"| {c['scenario']} | {c['first_seat_result']:.2f} | {c['brier']:.3f} / {c['brier_base_rate']:.3f} | {thirds} |")
    w("")

# Samples of players that have since changed (bench/strength/earlier/), one line each.
earlier_dir = os.path.join(os.path.dirname(strength_file), "earlier")
earlier = sorted(f for f in (os.listdir(earlier_dir) if os.path.isdir(earlier_dir) else []) if f.endswith(".jsonl"))
if earlier:
    w("Earlier samples, of players that have since changed (bench/strength/earlier/README.md says how):")
    w("")
    for f in earlier:
        games = [json.loads(l) for l in open(os.path.join(earlier_dir, f)) if l.strip()]
        by = {}
        for g in games:
            by.setdefault((g["first"], g["second"]), []).append(g["points"])
        parts = [f"{a} against {b}: {sum(p):g} points of {len(p)} games" for (a, b), p in sorted(by.items())]
        w(f"- `{f}`: " + "; ".join(parts) + ".")
    w("")

# Targets.
w("## Targets of issue 5")
w("")
w("| target | scenario | status | what limits it |")
w("|---|---|---|---|")
limits = {
    "crusades-ii": "a Crusades II ply is a rules-heavy decision: a selected unit's moves are a search over (hex, facing, free turn) states with its chit's end-of-move limits, and whether the phase may end asks whether any obliged unit can still move; see *What limits the speed*",
    "the-crusades": "a strategic decision lists some 210 orders (every leader's and fleet's marches); see *What limits the speed*",
    "acre": "the siege's decisions list every counter's moves (a search over the walls, foss and tunnels, about half of a ply), charges and fire; see *What limits the speed*",
}
for r in rows:
    g = r.get("typed", {}).get("random_games")
    if not g:
        continue
    ok = anchor_pps is not None and g["plies_per_s"] >= anchor_pps
    status = (f"{met(ok)}: {g['plies_per_s']:,.0f} plies/s"
              + (f", {g['plies_per_s'] / anchor_pps:.3f} of the anchor's {anchor_pps:,}" if anchor_pps else ", anchor not measured"))
    w(f"| random-game plies/s ≥ OpenSpiel chess | {r['scenario']} | {status} | {'' if ok else limits.get(r['game'], '')} |")
iratio = f", {iu['instructions'] / ib['instructions']:.2f}x in instructions" if iu and ib else ""
unit_ok = bool(unit and bare and unit <= 2 * bare)
w(f"| one unit's moves ≤ 2x a bare Dijkstra | crusades-ii/hab | {met(unit_ok)} ({ratio} in time{iratio}) | "
  f"{'' if unit_ok else 'the unit search has 12 states per hex (6 facings, free turn used or not, 6.15) where the bare Dijkstra has one, and applies ZOC, stacking and the chit limits'} |")
if acre_unit:
    acre_ok = acre_unit["ratio"] <= 2 and acre_unit["instruction_ratio"] <= 2
    w(f"| one unit's moves ≤ 2x a bare Dijkstra | acre/siege | {met(acre_ok)} ({acre_unit['ratio']:.2f}x in time, "
      f"{acre_unit['instruction_ratio']:.2f}x in instructions) | "
      f"{'' if acre_ok else 'the unit search applies zones of control, walls, breaches and the end-of-move rules'} |")
else:
    w("| one unit's moves ≤ 2x a bare Dijkstra | acre | **not measured** (target/bench/unit-moves.jsonl is missing) | |")
if tc_unit:
    tc_ok = tc_unit["ratio"] <= 2 and tc_unit["instruction_ratio"] <= 2
    w(f"| one unit's moves ≤ 2x a bare Dijkstra | the-crusades/third-crusade | {met(tc_ok)} (first search "
      f"{tc_unit['ratio']:.2f}x in time, {tc_unit['instruction_ratio']:.2f}x in instructions; kept routes "
      f"{tc_unit['kept_ratio']:.3f}x) | "
      f"{'' if tc_ok else 'the first search also keeps every place its path and enters city mini-hexes'} |")
else:
    w("| one unit's moves ≤ 2x a bare Dijkstra | the-crusades | **not measured** (target/bench/unit-moves.jsonl is missing) | |")
for r in rows:
    t = r.get("typed", {})
    g, p = t.get("random_games"), t.get("position")
    if not g or not p:
        continue
    retimed = g.get("legal_max_retimed_ns")
    ok = p["legal_ns"] < 1e6 and g["legal_p99_ns"] < 1e6 and (retimed is None or retimed < 1e6)
    worst = (f"worst as timed {fmt_ns(g['legal_max_ns'])}, timed again {fmt_ns(retimed)}"
             if retimed is not None else f"worst {fmt_ns(g['legal_max_ns'])}")
    w(f"| all legal actions < 1 ms | {r['scenario']} | {met(ok)}: typical position {fmt_ns(p['legal_ns'])}, "
      f"99% of decisions under {fmt_ns(g['legal_p99_ns'])} ({worst}) | "
      f"{'' if ok else limits.get(r['game'], '')} |")
if rows:
    legal = [criterion(f"{s}/legal_actions_first_movement") for s in CII]
    legal = [x for x in legal if x]
    if legal:
        w(f"| all legal actions < 1 ms (criterion, first movement) | crusades-ii | "
          f"{met(max(legal) < 1e6)}: worst {fmt_ns(max(legal))} | |")
for r in rows:
    se = r.get("typed", {}).get("search")
    if not se:
        continue
    ok = se["ratio"] >= 0.8
    w(f"| MCTS iterations ≥ 0.8x raw playouts | {r['scenario']} | {met(ok)}: {se['ratio']:.2f} "
      f"({fmt_rate(se['mcts_iterations_per_s'])} against {fmt_rate(se['playouts_per_s'])}/s) | "
      f"{'' if ok else 'each iteration also re-samples the hidden information and copies the state, walks the tree and backs up'} |")
for r in rows:
    m = r.get("simulate", {})
    if "steady_speedup" not in m:
        w(f"| `simulate` 2 threads ≥ 1.8x one | {r['scenario']} | not measured: {m.get('error', '')} | |")
        continue
    ok = m["steady_speedup"] >= 1.8
    rounds = ", ".join(f"{x:.2f}" for x in m.get("steady_speedups", []))
    rounds = f"; rounds {rounds}" if rounds else ""
    w(f"| `simulate` 2 threads ≥ 1.8x one | {r['scenario']} | {met(ok)}: {m['steady_speedup']:.2f}x while both threads "
      f"are busy, the median round ({m['speedup']:.2f}x over the whole batch of {m['games']} games{rounds}) | "
      f"{'' if ok else 'the speed of this 2-core virtual machine drifts between batches by more than the gap to the target (see *What limits the speed*)'} |")
for r in rows:
    p = r.get("typed", {}).get("position")
    if not p:
        continue
    ok = p["state_json_bytes"] < 64 * 1024
    w(f"| a game state < 64 KiB | {r['scenario']} | {met(ok)}: {p['state_json_bytes']:,} bytes as JSON "
      f"(larger than in memory; static data is shared) | |")
strength_games = {}
for (scen, a, b, turns, n, rate, lo, hi, game_secs, newest) in strength_rows:
    if a == "mcts:1000" and b in ("random", "heuristic") and turns == 0:
        strength_games.setdefault(scen, {})[b] = (n, rate, lo, hi, game_secs, newest)
# Issue 5's strength target: the least win rate against each opponent.
WIN_RATE_NEEDED = {"random": 0.9, "heuristic": 0.6}
for scen in sorted({r["scenario"] for r in rows} | {row[0] for row in strength_rows}):
    got = strength_games.get(scen, {})
    if not got:
        w(f"| MCTS at 1,000 iterations wins ≥ 90% against random, ≥ 60% against heuristic (400 paired games) | {scen} | "
          "**not measured** | no game of the `mcts` player in bench/strength/results.jsonl (games of players since changed are in bench/strength/earlier/) |")
        continue
    parts = []
    below = []
    ok = True
    for b, need in WIN_RATE_NEEDED.items():
        if b not in got:
            parts.append(f"against {b}: not measured")
            ok = False
            continue
        n, rate, lo, hi, _, _ = got[b]
        parts.append(f"against {b}: {rate:.2f} [{lo:.2f}, {hi:.2f}] over {n} games")
        ok = ok and n >= 400 and rate >= need
        if rate < need:
            below.append(f"below {need:.0%} against {b}" + (" (the whole interval)" if round(hi, 2) < need else ""))
    small = min(got[b][0] for b in got) < 400
    why = below + (["sample too small"] if small else [])
    limits = []
    if below:
        limits.append("the doctrine the search leans on: see *What limits the strength*")
    if small:
        missing = [(b, 400 - got[b][0], got[b][4], got[b][5]) for b in sorted(got) if got[b][0] < 400]
        hours = sum(k * secs for _, k, secs, _ in missing) / 3600
        each = ", ".join(f"{k} against {b} at about {secs:.0f} s a game (the mean of the {newest} games the newest code played)"
                         for b, k, secs, newest in missing)
        # Whether the 95% interval of a short sample already lies wholly on one side of its
        # target, so that the games missing would not change that half's verdict.
        decided, waiting = [], []
        for b, _, _, _ in missing:
            need = WIN_RATE_NEEDED[b]
            _, _, lo, hi, _, _ = got[b]
            if round(hi, 2) < need:
                decided.append(f"against {b} (the whole interval below {need:.0%})")
            elif round(lo, 2) >= need:
                decided.append(f"against {b} (the whole interval at or above {need:.0%})")
            else:
                waiting.append(f"against {b} (the interval across {need:.0%})")
        verdict = "; ".join(
            ([f"more games would not change the verdict{'s' if len(decided) > 1 else ''} {' and '.join(decided)}"] if decided else [])
            + ([f"the verdict{'s' if len(waiting) > 1 else ''} {' and '.join(waiting)} wait{'' if len(waiting) > 1 else 's'} on them"] if waiting else []))
        limits.append(f"sample smaller than 400 games: the games missing, {each}, are about "
                      f"{hours:.1f} core-hours; {verdict}")
    status = met(ok) if ok or not why else f"**not met** ({'; '.join(why)})"
    w(f"| MCTS at 1,000 iterations wins ≥ 90% against random, ≥ 60% against heuristic (400 paired games) | {scen} | "
      f"{status}: {'; '.join(parts)} | {'; '.join(limits)} |")
w("")
w("The worst single decision as timed includes whatever interrupted the process then; the 16")
w("slowest decisions of the random games are timed again from their positions (the least of five")
w("runs each), and \"timed again\" is the dearest of them: the decision's own cost. In Crusades II")
w("the dearest decisions are the set-up's, which list every unit, hex and facing at once (up to")
w("11,767 actions in Tannenburg). The Crusades lists a leader's marches from routes kept once")
w("searched, so a decision timed again may find them kept that the first timing searched (a")
w("first search is some 70k instructions, tens of microseconds). A search with few iterations")
w("(slow games) gives a rough MCTS ratio.")
w("")
w("## What limits the speed")
w("")
para = """Crusades II, by callgrind over random games (the `ply` row above): about 40-49k
instructions a ply (Hattin 48.8k, Hab 40.4k, Nicopolis 40.0k, Tannenburg 45.3k), down from
42-52k at the start of 2026-12-01's first session, 50-64k at the start of 2026-11-30's evening
session, 77-96k at the start of the one before and 290-350k seven sessions ago. The movement
search settles all the facings of a hex together (a hex's seven costs packed in one word, a
step's neighbour and cost in another) and hands a selection's moves straight to its store; a
reinforcement's entry search follows no turned state that is no cheaper than its unturned
sibling and relaxes a hex's free turns once, and its destinations are kept one by one by the
cost its chit allows; a battle is loaded once per process and shared by its games; a `select` checks only
its counter; fire reads lines of sight from a table by offset and passes over an enemy beyond
the Range Table's reach at once; set-up and command spans take one pass each; the map
analysis and the list of selectable counters pass over the units once; a map analysis not
in the cache is derived from the newest one kept, looking again only at the hexes a unit
left or entered (a side whose units all stand as before keeps its zones and distances);
whether some unit must still move asks first the unit found last, and remembers it with the
hexes its search reached, so that it is not searched again while only its own side moves
elsewhere. The plain searches stay as the references that tests/shortcuts.rs checks the
shortcuts against. What remains (callgrind, share of a ply): at Hab a selection's sweep and
listing (46%; the sweep's inner loop is at its limit as written), the phase's progress (9%),
whether any unit must still move (8%), the first look at the map analysis after a move (5%,
mostly building its lookup key), set-up and fire (5% each); at Hattin the reinforcement entry
search (13%, some 212k instructions a selection: ten entry hexes, each facing entering
unturned; about 140 instructions a state taken off its queue). Under 40k at Hattin would take
that search working as the sweep does (twelve cost slots a hex), which must keep exactly the
same entry hex among those of equal cost: the entry a destination keeps is fixed by the
order states leave the queue (in effect the path whose earlier steps are cheapest), and that
entry changes the next units' entry costs (12.1), so the slots need an explicit rank that
reproduces that order. Tried and not kept: asking last the units found unable to move the
time before, remembering up to eight units' answers, queueing no turned state already no
cheaper than its unturned sibling, and queueing a state's five turns as one entry (each cost
more than it saved). Building the map analysis's lookup key (about 15 instructions a unit) is
as tight as it will go. A guided MCTS iteration (Hab, from the first movement) is about 0.70M
instructions, down from 0.97M on 2026-12-06, most of it the doctrine scoring a selection by
each selectable counter's best move. It now keeps those best moves from one selection to the
next for the counters whose searches reached no hex a move since left or entered (nor one
next to those), scores a destination by the one facing it likes best (a move's score rises
with its facing term alone, so the best is the same number), keeps a reinforcement's entry
search for the next waiting unit that moves alike, and keeps each leader's destinations
with the part of their worth his command's units make (whole half points, so it is brought
up to date exactly unit by unit as they move); tests/shortcuts.rs and the doctrine's golden
scores check each bit for bit. Games the doctrine plays on both sides cost that much less
(instructions, the same games: Hattin -41%, Hab -34%, Nicopolis -26%, Tannenburg -41%).
What remains of a selection: the searches of the counters a move did touch (about half of
them: the lines stand close).

On 2026-12-07 a search's decisions became 7-19% cheaper, making the same decisions
(callgrind, the `mcts:1000` player against the heuristic on pair 0's dice: Hattin's Muslims,
their decisions 301-330, 7.67G instructions down to 6.25G, -18.5%; Hab's first 40 decisions
-11.5%; Tannenburg's decisions 201-240 -13.3%; Nicopolis's -6.7%). The evaluation's melee threat,
worked out at every leaf of a search, no longer builds the doctrine's board of who stands
where, which weighing a melee never reads; whether a skirmisher stands beside a formed enemy
is read from the hexes around each such enemy, not from a breadth-first search over the
whole map; and a selected counter's moves are worked out when first asked for (its legal
actions, or whether a move is one of them), so that a search whose tree ends at a `select`
scores the position without searching them. Random play costs what it did (Hattin 48,995
instructions a ply against 48,828). What remains of a search's decision (Hattin, as above):
the doctrine's scores 53% (its counters' best moves 39%), the selected counter's moves when
its move is checked 22% (every iteration replays the tree's path in a re-sampled world, and
the rules check each move it makes there), the evaluation 8%, and copying states 9%.
Later that day each decision of a search's tree came to keep the world it was first reached
in, and a later iteration's world reaching it takes over that world's moves of the selected
counter when nothing they follow from differs (the same position but for the dice and the
enemy's command chits, which a search re-samples and no move reads): the same decisions
again, Hattin's slice 6.25G down to 5.35G (-14.4%), Hab's 22.9G to 17.8G (-22.3%),
Tannenburg's 12.1G to 11.2G (-7.9%), Nicopolis's -0.5% (its slice has few moves). What
remains at Hattin: the doctrine's scores 61% (its counters' best moves 45%), the evaluation
9%, copying states 12%, comparing positions for the moves taken over 5%, and the moves
worked out afresh 3%. Then the evaluation came to count both sides' losses in one pass over the counters (it
had made four), and a re-sampled world to draw the enemy's chits after one pass over the
units for all his leaders: Hattin's slice 5.09G in all (-18.6% on the day), Hab's 17.5G
(-23.7%), Tannenburg's 10.8G (-11.3%), Nicopolis's 19.4G (-2.7%).

The Crusades: about 33k instructions a ply, down from 48k (and 3.8 million three sessions
ago). Paths are stored in place (at most 10 steps) so that listed orders allocate nothing
and touch no shared count; one pass over the order book marks who is ordered, carried,
commanding or named in the loss order; land routes are searched on the grid's dense index;
who stands at a place is a tighter scan. What remains: building the ~210 order actions
(about 7k), first-time route searches (3k), commanders and friendly ports (2.7k), and in
applying, supply searches that find no source (2.2k).

Acre: about 59-61k instructions a ply (siege 60.5k, siege-conrad 58.6k), down from 63-66k at
the start of 2026-12-01's second session, 78-81k at the start of its first,
99-101k at the start of 2026-11-30's night session, 134-138k at the start of its evening's
(and 5.7 million six sessions ago): the movement search runs on grid indices with a bucket
queue (a bucket a half Movement Point, each settled in ascending position, the order the
binary heap kept), each step straight into the queue, a hex settled shut to later steps, a
hex's open sides read as bits, the enemy's zones of control kept until they change, each
hex's entry cost packed in a word and worked out only when first entered, its destinations
read in map order from a set of bits, its working space and its last search kept; the map
keeps a table from hex to grid index; charges read the search's own tables; a hex's lines of
sight are one table of lines from (0, 0) moved to the hex, not drawn again; the rules are
parsed once per process for the same file texts and the historical deployment worked out
once for them; events are worded only when a log keeps them; the command-radius trace skips
hexes too far from its target; fire marks the enemy's hexes once and walks each firer's
reach by offsets; retreat options read one board of pieces by hex; a knight's charge line is walked only when
a Moslem unit stands beside its last hex; a piece set up is checked against each commanding
leader's trace to its one hex; the kept zones of control are checked unit by unit in place;
ending a step, selecting,
digging, filling the foss, bombarding, counter-bombarding, redeploying and placing a piece or
a leader are checked directly, by yes-or-no checks that word no refusal, not by listing every
legal action (tests/shortcuts.rs checks each against the plain rule). What remains (siege,
share of a ply): the movement search, 46-48% (about 0.37 searches a ply, some 61k
instructions each in its loop, about 84 a neighbour visit spread over lookups and pushes with
no single hot line), building its board of pieces (about 5.3k a search), comparing the kept
position for "the same position" (2.8k, nearly always a hit) and copying it on a miss
(1.8k); the regrouping's isolation trace (2%, some 500k a call). Under 55k would take a
tighter search loop and a version stamp on the position for the kept search, which first
needs the position's fields private, changed only through methods that bump it (they are
changed directly in some 43 places).

On 2026-12-07 a search's decisions at the siege became 39-54% cheaper, making the same
decisions (callgrind, the `mcts:1000` player against the heuristic on pair 0's dice, its
decisions 301-320: the Moslem's 14.48G instructions down to 6.68G, the Crusader's 6.49G to
3.97G). Each iteration of the Moslem's search re-draws the Crusader's hidden tunnels
(13.23), and asked of every hex next to a shaft's end whether the shaft may enter it with
the refusal worded (formatting hex ids) where a yes or no was wanted, going over every
shaft; it now asks yes or no, on a board of the tunnel hexes and of those he knows
(tests/shortcuts.rs holds it to the plain re-draw). And the last 128 moves searched are
kept on the thread, not the last one, so that a move an iteration replays finds its path
kept although the doctrine has searched other pieces since. Random play pays about 1.7%
more instructions a ply for going over the kept searches at every new listing."""
for line in para.split("\n"):
    w(line)
w("")
para = """Later on 2026-12-07 the searches became cheaper again, making the same decisions (callgrind,
the same slices; the instructions at the start of that session, then after): Hattin's
Muslims 5.09G to 3.92G (-23%), Hab 17.5G to 16.1G (-8%), Tannenburg 10.8G to 10.3G (-5%),
Nicopolis 19.4G to 18.8G (-3%), Acre's siege 6.68G to 3.53G for the Moslem (-47%) and 3.97G
to 1.95G for the Crusader (-51%), and the Third Crusade's Crusaders (their decisions 301-320)
31.2G to 14.8G (-53%). A search no longer copies its world before each step of a descent: a
game whose rules refuse an action before changing anything says so
(`Game::REFUSES_UNCHANGED`; Crusades II, Acre and The Crusades do, and the shared random-game
check holds them to it by applying earlier actions to the state itself). The Crusades II
doctrine keeps the best moves of the last 32 positions a seat scored, not of the last one, and
brings the nearest up to date: a search scores branch after branch (at Hattin it searched
33,706 counters' moves where it had searched 48,315). In Acre the evaluation goes over the
Wall and Tower hexes alone and counts the camps held unit by unit, the doctrine counts the
units beside a hex from a board of stacks, and the map's classes and neighbours are read by
grid index. The Crusades' doctrine weighs some 1,760 orders at a decision of the Order Phase:
it now takes its objectives' draws strongest first and stops at the first that cannot beat
the best found, reads the enemy's forces by grid index, and a search ranks the width it
considers without sorting every action (tests/doctrine_scores.rs pins every score's bits).
Random play costs what it did (Acre's siege 60,762 instructions a ply, the Third Crusade
33,318)."""
for line in para.split("\n"):
    w(line)
w("")
w("The ratios to the anchor, measured side by side in one run, are the fairer comparison, and")
w("the instruction counts the reliable one: this machine's speed moves from minute to minute.")
w("In the last half hour of 2026-11-30's evening session the anchor read 94,192, 134,703,")
w("120,634, 167,094 and 140,270 plies/s on a machine with nothing else running (the table")
w("uses the one measured right after the registry bench, as `bench/run` does); runs of the")
w("registry bench minutes apart read Nicopolis at 83,647, 125,688 and 121,081 plies/s. In the")
w("first run of 2026-12-01 the anchor read 193,429 plies/s, then 167,786, 156,597 and 131,079")
w("in the next five minutes, while Hattin read 138,159 and then 135,745, and Acre's siege")
w("137,788 and then 95,594. In this run (its second session) a first registry bench, on the")
w("same code, read Hattin at 91,971, Tannenburg at 92,108 and The Crusades at 208,558 plies/s")
w("with the anchor at 158,073 (168,692 a minute later); the one in the tables, minutes later")
w("on a machine with nothing else running, 114,822, 101,850 and 226,085 with the anchor at")
w("201,823. Crusades II read 18-25% fewer plies/s than in the first session's run, on the")
w("same or fewer instructions a ply (the table of instructions above). So a")
w("ratio within some 30% of a target, either side, says little: Crusades II at 40-49k")
w("instructions a ply and Acre at 59-61k stand against The Crusades' 33k, which meets the")
w("anchor in most runs. Acre's random-game plies/s nearly doubled on 2026-11-30's night")
w("session, more than its instructions a ply fell (by a fifth): the registry bench's plies/s")
w("count each game's start, and a game no longer parses the rules' data files nor works out")
w("the historical deployment again (`bench/ply-instructions` takes the start out).")
w("")
w("`simulate` on 2 threads: since 2026-12-01 a batch lasts about twice `--seconds` on one")
w("thread, sized after a warm probe; The Crusades, below 1.8x in the two runs before (1.59 and")
w("1.68, in 3 s batches), read 1.89x. In this run (2026-12-01, second session) every scenario")
w("met it, 1.88x to 2.04x; in the one before, on the same code, a first registry bench read The")
w("Crusades at 1.76x. In the first session's run Acre's siege read 1.71x (rounds 1.71, 2.09,")
w("1.68), 1.92x the run before; a second registry bench minutes later read 1.74x (rounds 2.24,")
w("1.71, 1.73), and the `crusades` binary itself, 120 games of seed 5, ran 1.70x and 2.11x in")
w("two rounds (4.9 and 5.4 s on one thread against 2.9 and 2.5 on two; 5.6 and 5.0 s of CPU on")
w("two threads against 4.9 and 5.3 on one). Nothing in a game is shared between threads but")
w("the scenario, its parsed rules and the kept tables, which are only read; where two threads")
w("spend more CPU than one for the same games, the virtual machine's two cores are slowing")
w("each other, which no change of the program's has been seen to move.")
w("")
w("The server load (p99 and the echo's) is from the run of 2026-11-30's evening (the server")
w("has not changed since). The balance was run again on 2026-12-01; the agreement, judged")
w("overrules and calibration then only for Hattin and Nicopolis, whose doctrine changed (the")
w("other scenarios' lines are from 2026-11-30's night session: their games play the same).")
w("In 2026-12-01's second session only the registry bench, the anchor, the random games of")
w("Crusades II and the instructions a ply were run again (the changes made no game play")
w("otherwise, and touched neither the criterion benches' positions nor the unit-moves")
w("searches); the rest is from its first session's run.")
w("")
w("## What limits the strength")
w("")
para = """The guided search is its doctrine at a thousand times the cost: at 1,000 iterations it
played the Crusades II doctrine's move in every one of 284 decisions measured (the first
sample in bench/strength/earlier/ split every pair by seat, as two copies of the doctrine
would). The evaluation of a leaf moves by thousandths to hundredths between one move and the
next, and the doctrine's prior outweighs any such difference. `Mcts::normalize` (a player
spec ending in `:scaled`) scales rewards to the range of the tree's means (MuZero's min-max
normalisation; now of their log-odds, never narrower than 0.2), and then the search does
overrule the doctrine (a test checks it). Its first games against the heuristic at 1,000
iterations, scaled as chances, lost more than the doctrine does (2 of 7 without a floor, 1 of
6 with one; bench/strength/earlier/), so the `mcts` player keeps the raw scale (the table
above measures it).

Why the overrules do not help is now measured two ways (the tables above). *Are the
overrules improvements?* plays each decision the scaled search overrules both ways, the rest
of the game by the doctrine: without the floor, at 300 iterations, the search overruled 5-30%
of a battle's first 200 decisions, and the mean gain an overrule was within 0.03 of nothing
at Hab, Hattin and Nicopolis; only at Tannenburg was it clearly positive (+0.04 a decision
over 60 overrules with the reckoning, +0.07 over 27 with the fitted weights; mostly in which
counter to move next). Scaled as chances with a floor of 0.05, the fitted evaluation left
almost no overrules: where one side wins 49 games in 50 its values sit near 1 and the tree's
means span less than the floor. Scaled as log-odds (the table above), the search overrules
at Hattin and Tannenburg (10 and 12 of 200 decisions) and gains +0.07 and +0.09 an overrule
there, not at Hab and Nicopolis: promising, on a sample still too small to switch the
`mcts` player over without games against the heuristic. A later session of 2026-12-01 tested
both at Hattin. Judged again over 600 decisions of another game (seed 2), the scaled search
overruled 38 (mostly which counter to move next, and four melees), and the mean gain was
-0.03 [-0.10, +0.04]: no better than its doctrine. Against the heuristic at 1,000
iterations the scaled search won 8 of 13 games (0.62; the strength table), three pairs 2-0,
two 0-2 and one split: within the noise of pairs whose shared dice decide them. *How well the evaluation foretells the result* shows why:
the reckoning by the victory rolls (11.0) foretold games between doctrines worse than their
bare base rate (Brier 0.39 against 0.18 at Hattin, 0.16 against 0.02 at Hab), and the
weights fitted to 200 such games (data/crusades-ii/*/evaluation.toml) bring it to about the
base rate: losses and the melees in prospect say little about who will win beyond which
side is playing, until the last third of a battle. A search one to four decisions deep on
such an evaluation knows no more than the doctrine it starts from; a stronger player needs
an evaluation that sees what the doctrine does not weigh (formation, command, the ground
each side holds), or a search deep enough to reach the melees its moves set up. In The
Crusades even the scaled search never overrules the doctrine (0 of 150 decisions at 300
iterations): its evaluation (the victory points, 16.5.1) moves only once written orders are
carried out, beyond a tree a few decisions deep. Tried and not kept: playing each iteration
on until the orders written are carried out (the rest left unwritten), with the ASPs lost
counted beside the points, made it overrule 7 of 60 decisions, every one of them which
leader to order next or the same march by another leader, and each gained exactly nothing
in games played on by the doctrine. In Acre the scaled search never overrules either (0 of
150 decisions; 0 of 40 with 30-action playouts before the evaluation)."""
for line in para.split("\n"):
    w(line)
w("")
para = """The doctrine is the search's prior and its opponent, so its weak spots are the search's.
Against random play it was weakest where the last turn decides the battle by something other
than losses: at Hattin the Crusaders lose when the last turn ends with no victory roll won
(12.1), and the doctrine's Crusaders, as careful as when time is no matter, killed too few
scattered Muslims too late (16 wins in 50 games); at Nicopolis the Turks win at the end only
if their units cut the Crusaders' roads (14.1), which the doctrine did not know (36 in 50).
On 2026-12-01 it learnt both: a side that loses at the end closes in harder and weighs its
melee losses less as the turns run out, and the Turks are drawn to the road hexes of the
Crusaders' paths still open. Against random play it now wins 76 of 100 games at Hattin (26
of 50 as the Crusaders) and 90 of 100 at Nicopolis (40 of 50 as the Turks; the table above,
the earlier games in bench/strength/earlier/2026-12-01-before-the-clock.jsonl); between
doctrines the balance moved within its noise (the balance table). Hattin's Crusaders still
lose nearly half their games to random Muslims that scatter: the victory table asks 70
Muslim losses before a roll, and the doctrine's counters keep to their leaders' command spans
rather than hunt loose enemies. Tried in a later session of 2026-12-01 and not kept (600
games each, seeds 21-23, heuristic Crusaders): closing in up to ten times harder as the turns
run out and drawing leaders towards the enemy, more so the fewer Muslim losses are made, won
73% against random Muslims (57% before) but 61% against the doctrine's (65% before): a
Crusader who hunts the loose enemies walks into the horse archers of one who keeps them at
range, and a human plays more like the doctrine than like random. Drawing counters to loose
enemies (routed, out of command or alone) moved neither; weighing melee losses less while
the side's own losses are far from the enemy's victory table moved nothing either: contact,
not the odds of the melees fought, limits the kills. On 2026-12-06 the doctrine learnt to
tell the two enemies apart by what the board shows: random Muslims leave a quarter to a half
of their formed units out of command in the morning turns (5.3), the doctrine's Muslims
nearly none, and such units may neither close with the Crusaders nor leave their zones of
control (5.33). A side pressed for time now closes in harder in proportion to the share of
the enemy's formed units marked out of command, past a tenth (`HUNT`, `STRAGGLERS` in
crates/crusades-ii/src/doctrine.rs). Over 1,200 games each (seeds 21-26) Hattin's heuristic
Crusaders won 67% against random Muslims (54% before) and 64% against the doctrine's, as
before; the same pull without the gate had traded one for the other (71% and 61%). The
games played before are in bench/strength/earlier/2026-12-06-before-the-hunt.jsonl. Then a
quarter of the hunters outran their leaders' command spans in the morning turns (7.9 of 38
Crusader units out of command at the start of a Crusader Movement Phase, 4.4 without the
hunt), and an out-of-command unit may not close with the enemy (5.33). Later on 2026-12-06
the leaders learnt to go with the hunt, drawn to the enemy as hard as their units, to two
hexes of him (4.2: a leader alone next to the enemy risks capture), so that the hunters stay
in their spans (5.31). Over 2,400 games (three sets of seeds, paired) the heuristic
Crusaders won 70% against random Muslims (66% before on the same seeds) and 62% against the
doctrine's (61%); a pull of 30 to 70 a hex read alike. Still, at Hattin the victory table
asks 70 Muslim losses before a roll: against random Muslims the doctrine's Crusaders (before
the leaders hunted, 100 games) reached them between the 0930 and 1000 turns on average (the
battle ends after 1130; its three night turns allow no fire nor entry into enemy zones of
control, 12.21), then rolled with a chance of one to three in ten a turn, and 27 of their
36 lost games ended with 70-95 Muslim losses and no roll won: making the losses sooner, not
surer, is what remains. Hattin's evaluation weights were fitted again to
the doctrine's games (data/crusades-ii/hattin/evaluation.toml). The games played before are
in bench/strength/earlier/2026-12-06-before-the-leaders-hunt.jsonl."""
for line in para.split("\n"):
    w(line)
w("")
w("Two things stand between that and 60% over 400 games. The scenarios are one-sided when the")
w("doctrine plays both sides (the balance table above): a pair between equal players splits,")
w("so MCTS must win from the side the doctrine loses with, where a few tactical improvements")
w("rarely turn the battle. And the sample is dear: a game against the heuristic is 500-1,500")
w("MCTS decisions at 0.05-0.7 s each (0.05-0.11 s in the Crusades II games of 2026-12-01, on a")
w("quiet machine after that session's speed-ups; 0.2-0.5 s on the busy machine of its second")
w("session), so 400 games a scenario were some 15-200 core-hours at 1,000 iterations (the targets")
w("table gives what the games still missing cost at the newest code's speed). The cost")
w("is almost all the doctrine, asked once per new tree node. Since 2026-12-06 a search stops")
w("once its most visited action leads every other by more than the iterations left (the same")
w("move the whole budget plays, a test checks it; `Mcts::stops_when_settled`): the doctrine's")
w("prior gives its first choice about half the visits and its second a quarter, so a search")
w("settles after some 840 of its 1,000 iterations (Hattin), a Hab game 15% sooner. The same")
w("day The Crusades' doctrine became some four times cheaper (each objective's land distances")
w("kept by the map, each leader's standing and each hex's attrition APs looked at once a")
w("decision; the same scores, which tests/doctrine_scores.rs pins), and a search's decision")
w("on the Third Crusade's first turn went from 0.51 to 0.19 s: the table's seconds for it are")
w("of games played before. Its first game against the heuristic since (pair 0, the search as")
w("the Crusaders) did not end within 20,000 actions: the search took 19,763 decisions by turn")
w("15 against the heuristic's 237, so it went round some loop of its own decisions. The")
w("likeliest: writing and cancelling")
w("its orders, since carrying them out brings on attrition, which a tree a decision or two")
w("deep reads as worse. The doctrine now marks cancelling as never done (scored minus")
w("infinity) and a guided search leaves such actions out of its candidates: on the same dice")
w("both games of that pair then ended (1,987 and 1,940 actions), and every earlier search game")
w("of the Third Crusade is in bench/strength/earlier/. Tried in a later session of")
w("2026-12-01 and not kept: keeping the moves a unit is found to have in a search's imagined")
w("worlds, by the whole position they depend on, so that neither the path each iteration")
w("re-plays nor the `select` the doctrine has just weighed searches them again. It halved the")
w("instructions of Hattin's first 20 decisions at 1,000 iterations (24.7G to 12.3G: the")
w("set-up and the Order Phase, where the iterations come back to a few positions) but not a")
w("whole game: past the opening every new tree node is a new position, whose units' moves the")
w("doctrine searches and weighs once, and keeping them costs more than the few found again")
w("save (Nicopolis 66 and 71 s a game against 58 and 61 s; Hattin no faster). Kept a position")
w("at a time, a word a move, it was no slower and no faster, for 30 MB more a thread.")
w("Against the heuristic in")
w("Crusades II, most of the plain search's pairs split (the table's pairs column): it wins")
w("from the side its doctrine wins with and loses from the other, as the doctrine itself")
def record(scen, b):
    """The plain search's games against `b` in `scen`: (won, games, won as seat 0, games as
    seat 0, won as seat 1, games as seat 1, 95% interval)."""
    games = duels.get((scen, "mcts:1000", b, 0), [])
    won = lambda gs: sum(1 for g in gs if g["points"] == 1.0)
    s0 = [g for g in games if g["first_seat"] == 0]
    s1 = [g for g in games if g["first_seat"] == 1]
    lo, hi = wilson(won(games), len(games))
    return (won(games), len(games), won(s0), len(s0), won(s1), len(s1), f"[{lo:.2f}, {hi:.2f}]")
hr, hh = record("crusades-ii/hattin", "random"), record("crusades-ii/hattin", "heuristic")
para = f"""would. Against random play Hattin was the exception: the search, as its doctrine, lost
many games as the Crusaders (5 of 12 won, in the earliest sample). Once its doctrine hunted
a loose enemy with its leaders along (above) the search won 30 of 36 against random play but
only 9 of 33 against the heuristic (7 of 17 as the Crusaders, 2 of 16 as the Muslims), where
on the same dice the doctrine itself wins 9 of 17 from either side. Asked at 754 decisions of
a doctrine game (`agreement --mcts mcts:1000 --decisions 1200 --scenario crusades-ii/hattin`)
it chose otherwise at 2, both ending a Movement Phase (of 11 such decisions) where the
doctrine would have moved more counters: a tree a few decisions deep reads the evaluation
before the moves left undone would have told, and a phase ended early leaves the hunters
short of contact. On 2026-12-07 the doctrine learnt never to end the phase while a counter
has a move worth making (scored minus infinity, so that a guided search does not consider it;
the heuristic plays the very same games). On 20 pairs of dice the search then won 14 of 40
(11 of 20 as the Crusaders, 3 of 20 as the Muslims): its Crusaders as good as the doctrine's
(8 of 17 on the first 17 pairs, the doctrine's own 9), its Muslims not (2 of 17, the
doctrine's 8). Those Muslims chose otherwise than their doctrine at about 2% of their
decisions, nearly all in the night turns, where the doctrine, finding no move that gains
anything, leaves its counters standing and the search moved some 190 of them over 17 games;
the rest were 19 facings after melee and a dozen fires, melees and ends of a phase. So the
doctrine now moves only counters with a move worth making while the phase may be ended, and
a guided search, again, does not consider the others. On the same 20 pairs the search won 19
of 40 (12 of 20 as the Crusaders, 7 of 20 as the Muslims). The games before each change are
in bench/strength/earlier/ (2026-12-07-*). Since, at Hattin, it has won {hr[0]} of {hr[1]}
{hr[6]} against random play, {hr[2]} of {hr[3]} as the Crusaders and {hr[4]} of {hr[5]} as the
Muslims; against the heuristic {hh[0]} of {hh[1]} {hh[6]} ({hh[2]} of {hh[3]} as the
Crusaders, {hh[4]} of {hh[5]} as the Muslims). So it gains from the Crusaders' side only
(2026-12-07, 400 games): between doctrines the Crusaders win 57% of 40 games (the balance
table), the search's Crusaders 72% against the doctrine's Muslims, while the doctrine's
Crusaders win 58% against the search's Muslims, as against their own. On the first 20 pairs its Muslims won 7 and the
doctrine's, on the same dice, 10; on the next 20 pairs the search won 26 of 40 (17 as the
Crusaders, 9 as the Muslims). Its Muslims overrule their doctrine once or twice a game (31
times in 20 games), and an overrule, or a tie broken otherwise, deals the rest of the game
other dice: three games in twenty is within that noise. Ruled out before that was clear: the
order of equal choices (the doctrine taking the first of equals rather than one at random won
45% of 200 games as the Muslims; 37.5% at random), and barring as well the ends of the Fire
and Melee Phases and of the facing after melee while the doctrine values a shot, a melee or a
turn (its Muslims won 1 of 17). The same search reading rewards on the tree's own scale
(`mcts:1000:scaled`, the table) won 43 of 80 games on the same 40 pairs of dice (23 as the
Crusaders, 20 as the Muslims), where the plain search won 45 (29 and 16): no stronger. Against random play that is short
of 90% as long as the Crusaders win fewer than four games in five: the doctrine's Crusaders
win seven in ten against random Muslims, and make their 70 Muslim losses late (above). Where
their kills go (2026-12-07, 40 games of the doctrine's Crusaders against random Muslims): a
Crusader unit that may attack always does (not one melee declined), some eight a Melee Phase
stand where they may, and the Muslims' rallies (10.2) took back 24 points of losses a game (263
units rallied in 40 games), a quarter of what the Crusaders made. A routed unit rallies in
its leader's or Saladin's span and out of our zones of control, which it may leave in its own
Movement Phase (6.25). Drawing the Crusaders beside routed Muslims (up to 20 a hex, by the
clock) and preferring melees against them (1 to 3 a routed defender) each moved nothing (65%
to 70% of 400 games, 69% before), nor did weighing melee losses less (0.8 or 0.5 against 1.1)
or running the clock half as fast again (69% to 73%). Holding the hunters in their leaders' spans
instead of drawing the leaders along (a hex beyond the span costing as much as a hex from the
enemy) kept them from the enemy altogether (22% against random Muslims). At Nicopolis,
before the Movement Phase ran its course, it won 43 of 50 games against random play: 25 of
25 as the Crusaders, 18 of 25 as the Turks, whose doctrine wins 78-80% of games against
random Crusaders (the Turk wins by losses or by holding the roads at the end, 14.1). Hunting
loose Crusaders as Hattin's Crusaders do moved that by under two points (80%), and doubling
the worth of the road hexes on the last turn by under one (80.0% against 79.7% of 800 games
on the same seeds, after +5.6 points on a first 400): within its noise, and neither is
kept. Since (2026-12-07, 400 games) the search has won 352 of 400 [0.84, 0.91] there
against random play: 200 of 200 as the Crusaders and 152 of 200 (76%) as the Turks, about
as often as the doctrine's (78-80%). Of the 48 games its Turks lost, 26 lasted all twelve
turns and 22 ended sooner. For 90% against random play its Turks must win four games in
five."""
for line in para.split("\n"):
    w(line)
w("")
w("**Planned searches (2026-12-06).** A Crusades II turn is dozens of small decisions, and a")
w("tree a few of them deep never reaches the melees its moves set up. A planned search")
w("(`:planned`, `Mcts::planned`) weighs only the decisions its doctrine deliberates (the")
w("orders, the melees with their retreats, the activations, a concession: some 80-140 a")
w("battle, both sides together), takes every other one as the doctrine does, at once, and")
w("plays each iteration on by the doctrine on both sides. First cut after 150 actions,")
w("scored by the evaluation and chosen as the plain search chooses (`mcts:100:d150:planned`,")
w("bench/strength/earlier/), it played as its doctrine: over a whole Hattin it overruled 1 of")
w("82 deliberated decisions (1 with rewards scaled), and its pairs against the heuristic split")
w("by seat. Is there room at those decisions at all? `agreement --room 20` plays each of the")
w("doctrine's six best actions on 20 times to the end on the same dice, takes the best, and")
w("judges it against the doctrine's on 20 fresh games (a best picked on noise gains nothing")
w("there). At Hattin the room was +0.012 [-0.009, +0.032] a decision over 82, most of it in")
w("the first turn's orders (Reserve rather than Advance for Raymond, +0.30; for King Guy,")
w("+0.15; for Saladin, +0.10); at Hab, which the Crusaders win 93 games in 100 between")
w("doctrines, none (-0.000 [-0.006, +0.006] over 138). So the planned search now plays to")
w("the end (`dend`), and its root tries its candidates in rounds, each round on one")
w("re-sampled world (common random numbers), playing the best mean: the brute force that")
w("`--room` measures, as a player. At 120 iterations (20 rounds of six) it costs 0.3-0.7 s")
w("a decision, some 10 minutes a game (`mcts:120:dend:planned`, its games now in")
w("bench/strength/earlier/2026-12-07-before-the-movement-phase-ran-its-course.jsonl). At Hattin")
w("(before its doctrine learnt to hunt a loose enemy: bench/strength/earlier/), on")
w("the same ten pairs of dice as the plain search's first ten, it won 12 of 20 games against")
w("the heuristic (5 of 10 as the Muslims), where the plain search won 9 (2 of 10 as the")
w("Muslims); its first six pairs had gone 9 of 12, the next four 3 of 8. At Nicopolis, which")
w("the Crusaders win 93 games in 100 between doctrines, it won 9 of 16 on the plain search's")
w("first eight pairs of dice, 2 of the 8 as the Turks, where the plain search also won 9 (1")
w("as the Turks, none in its first four pairs): it lost one game as the Crusaders that the")
w("plain search won. Together 21 of 36 (0.58 [0.42, 0.73]) where the plain search won 18 of")
w("the same 36: better from the side its doctrine loses with (7 of 18 against 3 of 18), no")
w("better from the other (14 of 18 against 15 of 18). The first sample's 15 of 20 was partly")
w("luck; what holds so far is that it wins more often from the losing side. At 120")
w("iterations (20 rounds a candidate, on outcomes that are won or lost) it cannot tell apart")
w("actions a few hundredths apart, which is all the room `--room` found. At Hab, where")
w("`--room` found none, its first two pairs split by seat, as the plain search's did on the")
w("same dice, and so did its first pair at Tannenburg. Against random play at Hattin, on the")
w("plain search's first six pairs of dice, it won 8 of 12: all six as the Muslims, two of")
w("six as the Crusaders, as the plain search did (each won one Crusader game the other")
w("lost). Its playouts")
w("take the enemy for the doctrine, not for a random player, and the doctrine's Crusaders")
w("lose about half their games against random Muslims. Its iterations are the doctrine's")
w("games, which now cost a quarter to two fifths fewer instructions (*What limits the speed*).")
w("Next: more iterations where they count (the first turn's orders), `--room` at Nicopolis")
w("and Tannenburg, and whether the `mcts` player should search so (at 1,000 iterations played")
w("to the end it would be some ten times dearer than the plain search).")
print("\n".join(lines))
