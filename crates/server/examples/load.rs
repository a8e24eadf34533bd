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
//! Also reports the server's CPU time per action (given its process id) and the machine's
//! load average, and writes everything as JSON (`--json PATH`) and a Markdown table.
//!
//! Usage: load ADDR [GAMES] [SECONDS] [--json PATH] [--server-pid PID]

use std::net::TcpStream;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

type Socket = WebSocket<MaybeTlsStream<TcpStream>>;

const USAGE: &str = "usage: load ADDR [GAMES] [SECONDS] [--json PATH] [--server-pid PID]";

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
    update_bytes: AtomicU64,
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
                if t.starts_with("{\"type\":\"update\"") {
                    totals
                        .update_bytes
                        .fetch_add(t.len() as u64, Ordering::Relaxed);
                }
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
    fn take(&mut self, mut m: Value, totals: &Totals) -> bool {
        let last = self.doc.as_ref().and_then(|d| d["revision"].as_u64());
        match m["type"].as_str() {
            Some("state") => {
                totals.states.fetch_add(1, Ordering::Relaxed);
                let revision = m["state"]["revision"].as_u64();
                if last.is_some() && revision <= last {
                    totals.duplicated.fetch_add(1, Ordering::Relaxed);
                    return false;
                }
                self.doc = Some(m["state"].take());
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
                let ops = m["ops"].as_array().map_or(&[][..], Vec::as_slice);
                server::diff::apply(doc, ops).expect("an update applies");
                true
            }
            _ => false,
        }
    }
}

/// The spread of a list of latencies, in milliseconds.
struct Spread {
    samples: usize,
    p50: f64,
    p99: f64,
    max: f64,
}

impl Spread {
    fn of(mut v: Vec<f64>) -> Spread {
        v.sort_by(f64::total_cmp);
        let at = |p: f64| {
            v.get(((v.len() as f64 * p) as usize).min(v.len().saturating_sub(1)))
                .copied()
                .unwrap_or(f64::NAN)
        };
        Spread {
            samples: v.len(),
            p50: at(0.5),
            p99: at(0.99),
            max: v.last().copied().unwrap_or(f64::NAN),
        }
    }

    fn json(&self) -> Value {
        let ms = |x: f64| (x * 100.0).round() / 100.0;
        json!({ "samples": self.samples, "p50": ms(self.p50), "p99": ms(self.p99), "max": ms(self.max) })
    }
}

/// The CPU time a process has used so far, in seconds (Linux), if it can be read.
fn cpu_seconds(pid: u32) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The fields after the command name (in parentheses, which may hold spaces).
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

/// The machine's load average over the last minute.
fn load_average() -> Option<f64> {
    std::fs::read_to_string("/proc/loadavg")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// A small deterministic generator (xorshift), one per bot.
fn next(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

fn main() {
    let mut args = Vec::new();
    let mut json_path = None;
    let mut server_pid = None;
    let mut given = std::env::args().skip(1);
    while let Some(arg) = given.next() {
        match arg.as_str() {
            "--json" => json_path = Some(given.next().expect("--json PATH")),
            "--server-pid" => {
                server_pid = Some(
                    given
                        .next()
                        .and_then(|p| p.parse::<u32>().ok())
                        .expect("--server-pid PID"),
                )
            }
            _ => args.push(arg),
        }
    }
    let addr = args.first().expect(USAGE).clone();
    let games: usize = args.get(1).map_or(200, |s| s.parse().expect(USAGE));
    let seconds: u64 = args.get(2).map_or(60, |s| s.parse().expect(USAGE));
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
    let bot_count = bots.len();
    println!("{games} games, {bot_count} bots, {seconds} s");
    let load_before = load_average();
    let server_cpu_before = server_pid.and_then(cpu_seconds);
    let started = Instant::now();
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
                        copy.take(m, &totals);
                    }
                    let Some(state) = copy.doc.as_ref().filter(|s| s["your_turn"] == true) else {
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
                                Some(mut m) if m["type"] == "actions" => {
                                    if let Value::Array(a) = m["actions"].take() {
                                        list = a;
                                    }
                                    break;
                                }
                                Some(m) => {
                                    copy.take(m, &totals);
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
                        let Some(m) = read(&mut game, &totals) else {
                            continue;
                        };
                        if m["type"] == "error" {
                            // Refused (the other seat moved first): the next update tells.
                            totals.refused.fetch_add(1, Ordering::Relaxed);
                            break;
                        }
                        if copy.take(m, &totals) {
                            actions
                                .lock()
                                .expect("lock")
                                .push(sent.elapsed().as_secs_f64() * 1e3);
                            break;
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
    let elapsed = started.elapsed().as_secs_f64();
    let server_cpu = server_pid
        .and_then(cpu_seconds)
        .zip(server_cpu_before)
        .map(|(after, before)| after - before);
    let action = Spread::of(actions.lock().expect("lock").clone());
    let echo = Spread::of(echoes.lock().expect("lock").clone());
    let get = |c: &AtomicU64| c.load(Ordering::Relaxed);
    let ratio = action.p99 / echo.p99;
    let met = action.p99 <= 50.0
        && ratio <= 2.0
        && get(&totals.lost) == 0
        && get(&totals.duplicated) == 0;
    let report = json!({
        "benchmark": "server-load",
        "scenario": "crusades-ii/hattin",
        "games": games,
        "bots": bot_count,
        "seconds": seconds,
        "action_to_view_ms": action.json(),
        "echo_ms": echo.json(),
        "p99_over_echo_p99": (ratio * 100.0).round() / 100.0,
        "actions_per_s": (action.samples as f64 / elapsed * 10.0).round() / 10.0,
        "received_mb": (get(&totals.bytes) as f64 / 1e4).round() / 100.0,
        "whole_states": get(&totals.states),
        "updates": get(&totals.updates),
        "bytes_per_update": get(&totals.update_bytes) / get(&totals.updates).max(1),
        "lost": get(&totals.lost),
        "duplicated": get(&totals.duplicated),
        "refused": get(&totals.refused),
        "server_cpu_s": server_cpu.map(|c| (c * 100.0).round() / 100.0),
        "server_cpu_ms_per_action": server_cpu
            .filter(|_| action.samples > 0)
            .map(|c| (c * 1e5 / action.samples as f64).round() / 100.0),
        "load_average_before": load_before,
        "load_average_after": load_average(),
        "target": { "p99_ms": 50, "p99_over_echo_p99": 2 },
        "target_met": met,
    });
    if let Some(path) = &json_path {
        if let Some(dir) = std::path::Path::new(path).parent() {
            std::fs::create_dir_all(dir).expect("the JSON file's folder");
        }
        std::fs::write(path, format!("{report:#}\n")).expect("the JSON file is written");
    }
    let cpu = report["server_cpu_ms_per_action"]
        .as_f64()
        .map_or("?".to_string(), |c| format!("{c:.2} ms"));
    println!();
    println!(
        "| games | bots | s | actions/s | action → view p50 / p99 / max (ms) | echo p50 / p99 / max (ms) | p99 / echo p99 | lost | duplicated | server CPU per action | load average |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|");
    println!(
        "| {games} | {bot_count} | {seconds} | {} | {:.1} / {:.1} / {:.1} | {:.1} / {:.1} / {:.1} | {:.2} | {} | {} | {cpu} | {} → {} |",
        report["actions_per_s"],
        action.p50,
        action.p99,
        action.max,
        echo.p50,
        echo.p99,
        echo.max,
        ratio,
        get(&totals.lost),
        get(&totals.duplicated),
        load_before.map_or("?".into(), |l| format!("{l:.1}")),
        load_average().map_or("?".into(), |l| format!("{l:.1}")),
    );
    println!();
    println!(
        "{} whole states and {} updates ({} bytes each on average), {:.1} MB received; {} actions refused (the other seat moved first); target (p99 ≤ 50 ms and ≤ 2x echo p99, nothing lost or duplicated) {}",
        get(&totals.states),
        get(&totals.updates),
        report["bytes_per_update"],
        get(&totals.bytes) as f64 / 1e6,
        get(&totals.refused),
        if met { "met" } else { "not met" },
    );
}
