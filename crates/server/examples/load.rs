//! The server's load benchmark (run by bench/server-load, not a test): GAMES games of Hattin,
//! two human seats each, each seat a bot on its own WebSocket taking its first legal action
//! at most once a second when it must decide, and pinging the bare echo endpoint once a
//! second. Reports the latency from sending an action to receiving the updated view (p50,
//! p99, max), and the echo round trip in the same run as the baseline.
//!
//! Usage: load ADDR [GAMES] [SECONDS]

use std::net::TcpStream;
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
    }
    socket
}

/// The next text message as JSON, or None when the read timed out.
fn read(socket: &mut Socket) -> Option<Value> {
    loop {
        match socket.read() {
            Ok(Message::Text(t)) => return serde_json::from_str(&t).ok(),
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
    let end = Instant::now() + Duration::from_secs(seconds);
    let threads: Vec<_> = bots
        .into_iter()
        .map(|(id, token)| {
            let (addr, actions, echoes) = (addr.clone(), actions.clone(), echoes.clone());
            std::thread::spawn(move || {
                let mut game = connect(
                    &format!("ws://{addr}/api/games/{id}/ws?token={token}"),
                    Duration::from_millis(20),
                );
                let mut echo = connect(&format!("ws://{addr}/api/echo"), Duration::from_secs(30));
                let mut latest: Option<Value> = None;
                while Instant::now() < end {
                    let tick = Instant::now();
                    let sent = Instant::now();
                    echo.send(Message::Text("{\"ping\":1}".into()))
                        .expect("echo send");
                    read(&mut echo).expect("echo reply");
                    echoes
                        .lock()
                        .expect("lock")
                        .push(sent.elapsed().as_secs_f64() * 1e3);
                    while let Some(m) = read(&mut game) {
                        if m["type"] == "state" {
                            latest = Some(m["state"].clone());
                        }
                    }
                    if let Some(state) = latest.as_ref().filter(|s| s["your_turn"] == true) {
                        let revision = state["revision"].as_u64().expect("revision");
                        if let Some(action) = state["actions"][0]["notation"].as_str() {
                            let sent = Instant::now();
                            game.send(Message::Text(
                                json!({ "type": "act", "action": action, "revision": revision })
                                    .to_string()
                                    .into(),
                            ))
                            .expect("send");
                            while sent.elapsed() < Duration::from_secs(30) {
                                match read(&mut game) {
                                    Some(m) if m["type"] == "state" => {
                                        let newer =
                                            m["state"]["revision"].as_u64() > Some(revision);
                                        latest = Some(m["state"].clone());
                                        if newer {
                                            actions
                                                .lock()
                                                .expect("lock")
                                                .push(sent.elapsed().as_secs_f64() * 1e3);
                                            break;
                                        }
                                    }
                                    // Refused (the other seat moved first): the next state tells.
                                    Some(_) => break,
                                    None => {}
                                }
                            }
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
}
