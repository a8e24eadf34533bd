//! The server's load benchmark (run by bench/server-load, not a test): GAMES games of Hattin,
//! two human seats each, each seat a bot on its own WebSocket that keeps its state document
//! up to date from the server's updates and, at most once a second when it must decide,
//! takes a random legal action: one listed whole in its document, or one of a counter's
//! actions asked for over the socket, as the web client does. Each bot also pings the bare
//! echo endpoint once a second. Reports the latency from sending an action to receiving the
//! updated view (p50, p99, max), the echo round trip in the same run as the baseline, the
//! bytes received, and every update that did not follow the document the bot had (lost) or
//! repeated a revision (duplicated).
//!
//! Usage: load ADDR [GAMES] [SECONDS]

use std::net::TcpStream;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

type Socket = WebSocket<MaybeTlsStream<TcpStream>>;

fn connect(url: &str, timeout: Duration) -> Socket {
    let (socket, _) = tungstenite::connect(url).expect("WebSocket connects");
    if let MaybeTlsStream::Plain(s) = socket.get_ref() {
        s.set_read_timeout(Some(timeout)).expect("read timeout");
        s.set_nodelay(true).expect("nodelay");
    }
    socket
}

/// Counters shared by every bot.
#[derive(Default)]
struct Totals {
    bytes: AtomicU64,
    updates: AtomicU64,
    states: AtomicU64,
    lost: AtomicU64,
    duplicated: AtomicU64,
    refused: AtomicU64,
}

/// The next text message as JSON, or None when the read timed out.
fn read(socket: &mut Socket, totals: &Totals) -> Option<Value> {
    loop {
        match socket.read() {
            Ok(Message::Text(t)) => {
                totals.bytes.fetch_add(t.len() as u64, Ordering::Relaxed);
                return serde_json::from_str(&t).ok();
            }
            Ok(_) => continue,
            Err(tungstenite::Error::Io(e))
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                return None
            }
            Err(e) => panic!("WebSocket: {e}"),
        }
    }
}

/// A bot's copy of its state document, kept up to date from the messages received.
struct Copy {
    doc: Option<Value>,
}

impl Copy {
    /// Takes in a message; returns whether it brought a new revision.
    fn take(&mut self, m: &Value, totals: &Totals) -> bool {
        let last = self.doc.as_ref().and_then(|d| d["revision"].as_u64());
        match m["type"].as_str() {
            Some("state") => {
                totals.states.fetch_add(1, Ordering::Relaxed);
                let revision = m["state"]["revision"].as_u64();
                if last.is_some() && revision <= last {
                    totals.duplicated.fetch_add(1, Ordering::Relaxed);
                    return false;
                }
                self.doc = Some(m["state"].clone());
                true
            }
            Some("update") => {
                totals.updates.fetch_add(1, Ordering::Relaxed);
                let (base, revision) = (m["base"].as_u64(), m["revision"].as_u64());
                if last.is_some() && revision <= last {
                    totals.duplicated.fetch_add(1, Ordering::Relaxed);
                    return false;
                }
                let doc = match self.doc.as_mut() {
                    Some(doc) if base == last => doc,
                    _ => {
                        totals.lost.fetch_add(1, Ordering::Relaxed);
                        return false;
                    }
                };
                let ops = m["ops"].as_array().cloned().unwrap_or_default();
                server::diff::apply(doc, &ops).expect("an update applies");
                true
            }
            _ => false,
        }
    }
}

fn percentiles(name: &str, mut v: Vec<f64>) {
    if v.is_empty() {
        println!("{name}: no samples");
        return;
    }
    v.sort_by(f64::total_cmp);
    let at = |p: f64| v[((v.len() as f64 * p) as usize).min(v.len() - 1)];
    println!(
        "{name}: {} samples, p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        v.len(),
        at(0.5),
        at(0.99),
        v[v.len() - 1]
    );
}

/// A small deterministic generator (xorshift), one per bot.
fn next(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let addr = args
        .get(1)
        .expect("usage: load ADDR [GAMES] [SECONDS]")
        .clone();
    let games: usize = args.get(2).map_or(200, |s| s.parse().expect("GAMES"));
    let seconds: u64 = args.get(3).map_or(60, |s| s.parse().expect("SECONDS"));
    let agent = ureq::AgentBuilder::new()
        .timeout(Duration::from_secs(60))
        .build();
    let mut bots = Vec::new();
    for g in 0..games {
        let created: Value = agent
            .post(&format!("http://{addr}/api/games"))
            .send_json(json!({ "scenario": "crusades-ii/hattin", "seed": g }))
            .expect("create")
            .into_json()
            .expect("JSON");
        let id = created["id"].as_str().expect("id").to_string();
        for seat in ["crusader", "muslim"] {
            let token = created["seats"][seat]["token"]
                .as_str()
                .expect("token")
                .to_string();
            bots.push((id.clone(), token));
        }
    }
    println!("{games} games, {} bots, {seconds} s", bots.len());
    let actions = Arc::new(Mutex::new(Vec::new()));
    let echoes = Arc::new(Mutex::new(Vec::new()));
    let totals = Arc::new(Totals::default());
    let end = Instant::now() + Duration::from_secs(seconds);
    let threads: Vec<_> = bots
        .into_iter()
        .enumerate()
        .map(|(n, (id, token))| {
            let (addr, actions, echoes, totals) = (
                addr.clone(),
                actions.clone(),
                echoes.clone(),
                totals.clone(),
            );
            std::thread::spawn(move || {
                let mut rng = 0x9e37_79b9_7f4a_7c15u64 ^ (n as u64 + 1);
                let mut game = connect(
                    &format!("ws://{addr}/api/games/{id}/ws?token={token}"),
                    Duration::from_millis(20),
                );
                let mut echo = connect(&format!("ws://{addr}/api/echo"), Duration::from_secs(30));
                let mut copy = Copy { doc: None };
                while Instant::now() < end {
                    let tick = Instant::now();
                    let sent = Instant::now();
                    echo.send(Message::Text("{\"ping\":1}".into()))
                        .expect("echo send");
                    read(&mut echo, &totals).expect("echo reply");
                    echoes
                        .lock()
                        .expect("lock")
                        .push(sent.elapsed().as_secs_f64() * 1e3);
                    while let Some(m) = read(&mut game, &totals) {
                        copy.take(&m, &totals);
                    }
                    let Some(state) = copy.doc.clone().filter(|s| s["your_turn"] == true) else {
                        if let Some(rest) = Duration::from_secs(1).checked_sub(tick.elapsed()) {
                            std::thread::sleep(rest);
                        }
                        continue;
                    };
                    let revision = state["revision"].as_u64().expect("revision");
                    let whole = state["actions"].as_array().cloned().unwrap_or_default();
                    let actors = state["actors"].as_array().cloned().unwrap_or_default();
                    // Half the time (always when nothing else is listed) a counter's actions.
                    let mut list = whole;
                    if !actors.is_empty() && (list.is_empty() || next(&mut rng) % 2 == 0) {
                        let counter = &actors[next(&mut rng) as usize % actors.len()]["counter"];
                        game.send(Message::Text(
                            json!({ "type": "actions", "counter": counter })
                                .to_string()
                                .into(),
                        ))
                        .expect("send");
                        let asked = Instant::now();
                        list = Vec::new();
                        while asked.elapsed() < Duration::from_secs(30) {
                            match read(&mut game, &totals) {
                                Some(m) if m["type"] == "actions" => {
                                    list = m["actions"].as_array().cloned().unwrap_or_default();
                                    break;
                                }
                                Some(m) => {
                                    copy.take(&m, &totals);
                                }
                                None => {}
                            }
                        }
                    }
                    if list.is_empty() {
                        continue;
                    }
                    let action = list[next(&mut rng) as usize % list.len()]["notation"]
                        .as_str()
                        .expect("notation")
                        .to_string();
                    let sent = Instant::now();
                    game.send(Message::Text(
                        json!({ "type": "act", "action": action, "revision": revision })
                            .to_string()
                            .into(),
                    ))
                    .expect("send");
                    while sent.elapsed() < Duration::from_secs(30) {
                        match read(&mut game, &totals) {
                            Some(m) if m["type"] == "error" => {
                                // Refused (the other seat moved first): the next update tells.
                                totals.refused.fetch_add(1, Ordering::Relaxed);
                                break;
                            }
                            Some(m) if copy.take(&m, &totals) => {
                                actions
                                    .lock()
                                    .expect("lock")
                                    .push(sent.elapsed().as_secs_f64() * 1e3);
                                break;
                            }
                            Some(_) => {}
                            None => {}
                        }
                    }
                    if let Some(rest) = Duration::from_secs(1).checked_sub(tick.elapsed()) {
                        std::thread::sleep(rest);
                    }
                }
            })
        })
        .collect();
    for t in threads {
        t.join().expect("bot");
    }
    percentiles(
        "action -> updated view",
        actions.lock().expect("lock").clone(),
    );
    percentiles("echo round trip", echoes.lock().expect("lock").clone());
    let get = |c: &AtomicU64| c.load(Ordering::Relaxed);
    println!(
        "actions/s {:.1}; received {:.1} MB ({} whole states, {} updates); lost updates {}, duplicated {}, refused actions {}",
        actions.lock().expect("lock").len() as f64 / seconds as f64,
        get(&totals.bytes) as f64 / 1e6,
        get(&totals.states),
        get(&totals.updates),
        get(&totals.lost),
        get(&totals.duplicated),
        get(&totals.refused),
    );
}
