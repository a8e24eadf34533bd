//! What the server's tests share: a real server process on loopback, an HTTP and WebSocket
//! client, databases (SQLite files, PostgreSQL databases), and the scenarios every database
//! is tested with (each a function taking a [`Db`]).

#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::{json, Value};

pub mod suite;
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

/// How long any one read may wait before a test fails instead of hanging (not a measurement).
pub const PATIENCE: Duration = Duration::from_secs(120);

/// The scenario every test plays.
pub const HATTIN: &str = "crusades-ii/hattin";

/// A source of fresh, empty databases.
pub trait Db {
    /// The URL of a new empty database.
    fn fresh(&self) -> String;
}

/// SQLite files in a temporary folder.
pub struct Sqlite {
    dir: tempfile::TempDir,
    count: std::cell::Cell<u32>,
}

impl Sqlite {
    /// A folder for the files.
    pub fn new() -> Self {
        Sqlite {
            dir: tempfile::tempdir().expect("temp dir"),
            count: std::cell::Cell::new(0),
        }
    }
}

impl Db for Sqlite {
    fn fresh(&self) -> String {
        self.count.set(self.count.get() + 1);
        format!(
            "sqlite:{}",
            self.dir
                .path()
                .join(format!("games-{}.db", self.count.get()))
                .display()
        )
    }
}

/// A running server process.
pub struct Server {
    child: Child,
    /// `127.0.0.1:PORT`.
    pub addr: String,
    agent: ureq::Agent,
}

impl Server {
    /// Starts the server on a free loopback port with this database.
    pub fn start(db: &str) -> Server {
        Self::start_with(db, &[])
    }

    /// Starts the server with more arguments.
    pub fn start_with(db: &str, extra: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_crusades-server"))
            .args(["--addr", "127.0.0.1:0", "--db", db])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the server binary starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout"))
            .read_line(&mut line)
            .expect("the server prints its address");
        let addr = line
            .split("http://")
            .nth(1)
            .and_then(|s| s.split_whitespace().next())
            .unwrap_or_else(|| panic!("no address in the server's first line: {line:?}"))
            .to_string();
        let agent = ureq::AgentBuilder::new().timeout(PATIENCE).build();
        Server { child, addr, agent }
    }

    /// Kills the process at once (SIGKILL), as a crash would.
    pub fn kill(mut self) {
        self.child.kill().expect("kill -9 the server");
        self.child.wait().expect("reap the server");
    }

    /// A request; returns the status and the JSON body (`null` when the body is not JSON).
    pub fn call(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&str>,
    ) -> (u16, Value) {
        let (status, text) = self.call_text(method, path, token, body);
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    /// A request; returns the status and the body as text.
    pub fn call_text(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&str>,
    ) -> (u16, String) {
        let mut req = self
            .agent
            .request(method, &format!("http://{}{path}", self.addr));
        if let Some(t) = token {
            req = req.set("Authorization", &format!("Bearer {t}"));
        }
        let result = match body {
            Some(b) => req.set("Content-Type", "application/json").send_string(b),
            None => req.call(),
        };
        match result {
            Ok(r) => (r.status(), r.into_string().expect("body")),
            Err(ureq::Error::Status(code, r)) => (code, r.into_string().expect("body")),
            Err(e) => panic!("{method} {path}: {e}"),
        }
    }

    /// Creates a game; returns its id and the answer.
    pub fn create(&self, seed: u64, seats: Value) -> (String, Value) {
        let body = json!({ "scenario": HATTIN, "seed": seed, "seats": seats }).to_string();
        let (status, doc) = self.call("POST", "/api/games", None, Some(&body));
        assert_eq!(status, 201, "create: {doc}");
        (doc["id"].as_str().expect("id").to_string(), doc)
    }

    /// The state document of a token (or a spectator), which must be served.
    pub fn state(&self, id: &str, token: Option<&str>) -> Value {
        let (status, doc) = self.call("GET", &format!("/api/games/{id}/state"), token, None);
        assert_eq!(status, 200, "state: {doc}");
        doc
    }

    /// Takes an action; returns the status and body.
    pub fn act(&self, id: &str, token: Option<&str>, action: &str, revision: u64) -> (u16, Value) {
        let body = json!({ "action": action, "revision": revision }).to_string();
        self.call(
            "POST",
            &format!("/api/games/{id}/actions"),
            token,
            Some(&body),
        )
    }

    /// The first action a seat's document offers: the first of the first counter's actions,
    /// asked for as a client does, else the first listed whole.
    pub fn first_action(&self, id: &str, token: Option<&str>, doc: &Value) -> Option<Value> {
        let Some(counter) = doc["actors"][0]["counter"].as_str() else {
            return doc["actions"].as_array()?.first().cloned();
        };
        let (status, got) = self.call(
            "GET",
            &format!(
                "/api/games/{id}/actions?counter={}",
                counter.replace(' ', "%20")
            ),
            token,
            None,
        );
        assert_eq!(status, 200, "actions of {counter}: {got}");
        assert_eq!(got["revision"], doc["revision"], "the same revision");
        got["actions"].as_array()?.first().cloned()
    }

    /// The map of a document, merged with its counters into a whole board.
    pub fn board(&self, doc: &Value) -> Value {
        let key = doc["map"].as_str().expect("a map key");
        let (status, mut map) = self.call("GET", &format!("/api/maps/{key}"), None, None);
        assert_eq!(status, 200, "map {key}: {map}");
        let o = map.as_object_mut().expect("a map object");
        o.remove("version");
        for (k, v) in doc["board"].as_object().expect("board") {
            o.insert(k.clone(), v.clone());
        }
        map
    }

    /// Opens a WebSocket for a token (or a spectator).
    pub fn ws(&self, id: &str, token: Option<&str>) -> Ws {
        let q = token.map(|t| format!("?token={t}")).unwrap_or_default();
        let (socket, _) = tungstenite::connect(format!("ws://{}/api/games/{id}/ws{q}", self.addr))
            .expect("WebSocket connects");
        if let MaybeTlsStream::Plain(s) = socket.get_ref() {
            s.set_read_timeout(Some(PATIENCE)).expect("read timeout");
        }
        Ws {
            socket,
            seen: Vec::new(),
            doc: None,
            updates: 0,
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A client's WebSocket, keeping every message it received and its state document up to
/// date from the server's updates, as a client does.
pub struct Ws {
    socket: WebSocket<MaybeTlsStream<TcpStream>>,
    /// Every text message received, in order.
    pub seen: Vec<String>,
    /// The state document as the messages so far make it.
    pub doc: Option<Value>,
    /// How many updates (rather than whole states) were applied.
    pub updates: usize,
}

impl Ws {
    /// The next message (JSON); a state or an update also brings `doc` up to date (an update
    /// must follow the document this socket has).
    pub fn next(&mut self) -> Value {
        loop {
            match self.socket.read().expect("a WebSocket message in time") {
                Message::Text(t) => {
                    self.seen.push(t.to_string());
                    let m: Value = serde_json::from_str(&t).expect("messages are JSON");
                    match m["type"].as_str() {
                        Some("state") => self.doc = Some(m["state"].clone()),
                        Some("update") => {
                            let doc = self.doc.as_mut().expect("an update after a state");
                            assert_eq!(doc["revision"], m["base"], "an update of another revision");
                            let ops = m["ops"].as_array().expect("ops");
                            server::diff::apply(doc, ops).expect("the update applies");
                            assert_eq!(doc["revision"], m["revision"]);
                            self.updates += 1;
                        }
                        _ => {}
                    }
                    return m;
                }
                Message::Close(_) => panic!("the server closed the WebSocket"),
                _ => {}
            }
        }
    }

    /// The next state document (whole, or rebuilt from an update); fails on an error
    /// message.
    pub fn next_state(&mut self) -> Value {
        let m = self.next();
        assert!(
            m["type"] == "state" || m["type"] == "update",
            "expected a state, got {m}"
        );
        self.doc.clone().expect("a document")
    }

    /// States until one of at least this revision; returns it.
    pub fn until_revision(&mut self, revision: u64) -> Value {
        loop {
            let s = self.next_state();
            if s["revision"].as_u64().expect("revision") >= revision {
                return s;
            }
        }
    }

    /// Sends a JSON message.
    pub fn send(&mut self, message: Value) {
        self.socket
            .send(Message::Text(message.to_string().into()))
            .expect("send");
    }

    /// Sends raw text.
    pub fn send_text(&mut self, text: &str) {
        self.socket
            .send(Message::Text(text.to_string().into()))
            .expect("send");
    }
}

/// The token of a seat in a create answer.
pub fn token(created: &Value, seat: &str) -> String {
    created["seats"][seat]["token"]
        .as_str()
        .unwrap_or_else(|| panic!("no token for {seat} in {created}"))
        .to_string()
}

/// The revision of a state document.
pub fn revision(doc: &Value) -> u64 {
    doc["revision"].as_u64().expect("revision")
}

/// The folder of the web client's files.
pub fn web_app() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web/app")
}
