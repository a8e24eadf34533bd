//! What each action costs the server, measured in one process without the network (a
//! benchmark, not a test; bench/server-load-cost runs it): GAMES games of a scenario (Hattin
//! by default) with two human seats each, played with random legal actions chosen as the
//! load benchmark's bots choose them, every seat kept up to date as a connected WebSocket
//! would be. Reports the server's time per action (taking and committing it, then making
//! each seat's message) and the bytes of each update, and checks that every update applied
//! to the seat's copy gives exactly the seat's state document.
//!
//! The time is the thread's CPU time of the server's own calls, so it varies far less with
//! the machine's load than the latency of the load benchmark does.
//!
//! Usage: doc_cost [GAMES] [ACTIONS] [--scenario ID]; with DOC_COST_LARGEST=FILE the largest
//! update is written to FILE.

use std::sync::Arc;
use std::time::Instant;

use engine::Viewer;
use serde_json::Value;
use server::games::{ActRequest, CreateRequest, Games, Push, Slot};
use server::store::Store;

const USAGE: &str = "usage: doc_cost [GAMES] [ACTIONS] [--scenario ID]";

/// The CPU time of the calling thread, in seconds (Linux), if it can be read.
fn thread_cpu() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

/// One seat as a connected client: its token, viewer, last revision and document.
struct Seat {
    token: String,
    viewer: Viewer,
    had: Option<u64>,
    doc: Value,
}

/// A small deterministic generator (xorshift).
fn next(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// Totals over the run.
#[derive(Default)]
struct Totals {
    actions: u64,
    act_s: f64,
    push_s: f64,
    updates: u64,
    update_bytes: u64,
    states: u64,
    state_bytes: u64,
    largest_update: usize,
}

/// Brings a seat up to date as its WebSocket would; returns the seconds spent in the server.
async fn push(slot: &Slot, seat: &mut Seat, totals: &mut Totals) -> f64 {
    let t = Instant::now();
    let push = slot.push(seat.viewer, seat.had).await.expect("push");
    let spent = t.elapsed().as_secs_f64();
    if let Push::Message(revision, text) = push {
        let mut m: Value = serde_json::from_str(&text).expect("JSON");
        if m["type"] == "update" {
            totals.updates += 1;
            totals.update_bytes += text.len() as u64;
            if text.len() > totals.largest_update {
                totals.largest_update = text.len();
                if let Ok(path) = std::env::var("DOC_COST_LARGEST") {
                    std::fs::write(path, text.as_bytes()).expect("the largest update is written");
                }
            }
            assert_eq!(
                m["base"].as_u64(),
                seat.had,
                "an update from the document had"
            );
            let ops = m["ops"].as_array().expect("ops").clone();
            server::diff::apply(&mut seat.doc, &ops).expect("the update applies");
        } else {
            totals.states += 1;
            totals.state_bytes += text.len() as u64;
            seat.doc = m["state"].take();
        }
        seat.had = Some(revision);
        assert_eq!(seat.doc["revision"].as_u64(), Some(revision));
    }
    spent
}

fn main() {
    let mut args = Vec::new();
    let mut scenario = "crusades-ii/hattin".to_string();
    let mut given = std::env::args().skip(1);
    while let Some(arg) = given.next() {
        match arg.as_str() {
            "--scenario" => scenario = given.next().expect(USAGE),
            _ => args.push(arg),
        }
    }
    let games_n: usize = args.first().map_or(20, |s| s.parse().expect(USAGE));
    let actions_n: u64 = args.get(1).map_or(2000, |s| s.parse().expect(USAGE));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let dir = tempfile::tempdir().expect("a temporary folder");
    let url = format!("sqlite:{}", dir.path().join("cost.db").display());
    runtime.block_on(async {
        let store = Store::open(&url).await.expect("the database opens");
        let data = registry::all_data(None).expect("data");
        let games = Games::new(store, data);
        let mut tables: Vec<(Arc<Slot>, Vec<Seat>)> = Vec::new();
        for g in 0..games_n {
            let created = games
                .create(CreateRequest {
                    scenario: scenario.clone(),
                    options: Vec::new(),
                    seed: Some(g as u64),
                    seats: Default::default(),
                    dice: None,
                })
                .await
                .expect("create");
            let slot = games.slot(&created.id).await.expect("slot");
            let mut seats = Vec::new();
            for (_, token) in &created.tokens {
                let viewer = slot.viewer(Some(token)).await.expect("viewer");
                seats.push(Seat {
                    token: token.clone(),
                    viewer,
                    had: None,
                    doc: Value::Null,
                });
            }
            tables.push((slot, seats));
        }
        let mut totals = Totals::default();
        for (slot, seats) in &mut tables {
            for seat in seats.iter_mut() {
                push(slot, seat, &mut totals).await;
            }
        }
        let (states_before, state_bytes_before) = (totals.states, totals.state_bytes);
        totals.states = 0;
        totals.state_bytes = 0;
        let mut rng = 0x9e37_79b9_7f4a_7c15u64;
        let cpu_before = thread_cpu();
        let started = Instant::now();
        let mut stuck = 0;
        'play: while totals.actions < actions_n {
            let mut acted = false;
            for (slot, seats) in &mut tables {
                if totals.actions >= actions_n {
                    break 'play;
                }
                let Some(i) = seats.iter().position(|s| s.doc["your_turn"] == true) else {
                    continue;
                };
                let doc = &seats[i].doc;
                let revision = doc["revision"].as_u64().expect("revision");
                let mut list = doc["actions"].as_array().cloned().unwrap_or_default();
                let actors = doc["actors"].as_array().cloned().unwrap_or_default();
                if !actors.is_empty() && (list.is_empty() || next(&mut rng) % 2 == 0) {
                    let counter = actors[next(&mut rng) as usize % actors.len()]["counter"]
                        .as_str()
                        .expect("counter")
                        .to_string();
                    let (at, actions) = slot
                        .actions_of(Some(&seats[i].token), &counter)
                        .await
                        .expect("actions");
                    assert_eq!(at, revision);
                    list = actions
                        .iter()
                        .map(|a| serde_json::to_value(a).expect("actions serialise"))
                        .collect();
                }
                if list.is_empty() {
                    continue;
                }
                let action = list[next(&mut rng) as usize % list.len()]["notation"]
                    .as_str()
                    .expect("notation")
                    .to_string();
                let req = ActRequest {
                    action,
                    dice: Vec::new(),
                    revision,
                };
                let t = Instant::now();
                games
                    .act(slot, Some(&seats[i].token), &req, false)
                    .await
                    .expect("the action is taken");
                totals.act_s += t.elapsed().as_secs_f64();
                totals.actions += 1;
                acted = true;
                for seat in seats.iter_mut() {
                    totals.push_s += push(slot, seat, &mut totals).await;
                }
            }
            if !acted {
                stuck += 1;
                assert!(stuck < 3, "no game has a seat to decide");
            }
        }
        let cpu = thread_cpu().zip(cpu_before).map(|(a, b)| a - b);
        // The copies kept from the updates are the seats' documents.
        for (slot, seats) in &tables {
            for seat in seats {
                let text = slot.state(seat.viewer).await.expect("state");
                let doc: Value = serde_json::from_str(&text).expect("JSON");
                assert_eq!(doc, seat.doc, "a copy kept from updates is the document");
            }
        }
        let n = totals.actions.max(1) as f64;
        println!(
            "{scenario}: {games_n} games, {} actions in {:.2} s",
            totals.actions,
            started.elapsed().as_secs_f64()
        );
        println!(
            "server per action: {:.3} ms (act and commit {:.3} ms, messages {:.3} ms); thread CPU per action {}",
            (totals.act_s + totals.push_s) / n * 1e3,
            totals.act_s / n * 1e3,
            totals.push_s / n * 1e3,
            cpu.map_or("?".into(), |c| format!("{:.3} ms", c / n * 1e3)),
        );
        println!(
            "updates: {}, {:.0} bytes each on average, largest {}; whole states after the first: {} ({:.0} bytes each); first states {:.0} bytes each",
            totals.updates,
            totals.update_bytes as f64 / totals.updates.max(1) as f64,
            totals.largest_update,
            totals.states,
            totals.state_bytes as f64 / totals.states.max(1) as f64,
            state_bytes_before as f64 / states_before.max(1) as f64,
        );
    });
}
