//! The scenarios run against every kind of database.

use std::collections::BTreeMap;

use engine::{DiceMode, Viewer};
use serde_json::{json, Value};

use super::*;

/// The fields of every state document (docs/api.md), and no others: nothing else (no record,
/// no seed) leaves the server.
const STATE_FIELDS: [&str; 17] = [
    "actions",
    "ai_seats",
    "board",
    "can_undo",
    "game",
    "log",
    "outcome",
    "pending",
    "revision",
    "scenario",
    "seat",
    "seats",
    "status",
    "title",
    "version",
    "view",
    "your_turn",
];

/// Takes the first legal action of whichever seat must decide, `steps` times or until `stop`
/// says no for the next action; returns the actions taken (seat, notation).
fn play_first(
    server: &Server,
    id: &str,
    tokens: &BTreeMap<String, String>,
    steps: usize,
    stop: impl Fn(&Value) -> bool,
) -> Vec<(String, String)> {
    let mut taken = Vec::new();
    for _ in 0..steps {
        let public = server.state(id, None);
        let seat = public["pending"][0]
            .as_str()
            .expect("someone decides")
            .to_string();
        let doc = server.state(id, Some(&tokens[&seat]));
        let first = &doc["actions"][0];
        if stop(first) {
            break;
        }
        let notation = first["notation"].as_str().expect("notation").to_string();
        let (status, after) = server.act(id, Some(&tokens[&seat]), &notation, revision(&doc));
        assert_eq!(status, 200, "{seat} `{notation}`: {after}");
        assert_eq!(revision(&after), revision(&doc) + 1);
        taken.push((seat, notation));
    }
    taken
}

fn both_tokens(created: &Value) -> BTreeMap<String, String> {
    ["crusader", "muslim"]
        .iter()
        .map(|s| (s.to_string(), token(created, s)))
        .collect()
}

/// Create a game; each seat and a spectator get their own state document.
pub fn create_and_state(db: &dyn Db) {
    let server = Server::start(&db.fresh());
    let (status, list) = server.call("GET", "/api/scenarios", None, None);
    assert_eq!(status, 200);
    assert!(list["scenarios"]
        .as_array()
        .expect("scenarios")
        .iter()
        .any(|s| s["id"] == HATTIN && s["seats"] == json!(["crusader", "muslim"])));

    let (id, created) = server.create(11, json!({}));
    for seat in ["crusader", "muslim"] {
        let t = token(&created, seat);
        assert!(t.len() >= 32, "a token of at least 128 bits: {t}");
        assert_eq!(
            created["seats"][seat]["link"],
            format!("/play/{id}?token={t}")
        );
    }
    assert_eq!(created["spectator"], format!("/play/{id}"));
    assert_ne!(token(&created, "crusader"), token(&created, "muslim"));

    let muslim = server.state(&id, Some(&token(&created, "muslim")));
    let crusader = server.state(&id, Some(&token(&created, "crusader")));
    let spectator = server.state(&id, None);
    for doc in [&muslim, &crusader, &spectator] {
        let mut keys: Vec<&str> = doc
            .as_object()
            .expect("object")
            .keys()
            .map(String::as_str)
            .collect();
        keys.sort_unstable();
        assert_eq!(keys, STATE_FIELDS, "{doc}");
        assert_eq!(doc["version"], 1);
        assert_eq!(doc["scenario"], HATTIN);
        assert_eq!(doc["revision"], 0);
        assert_eq!(doc["pending"], json!(["muslim"]));
        assert_eq!(doc["ai_seats"], json!([]));
        assert!(doc["board"]["hexes"]
            .as_array()
            .is_some_and(|h| !h.is_empty()));
    }
    assert_eq!(muslim["seat"], "muslim");
    assert_eq!(muslim["your_turn"], true);
    let first = &muslim["actions"][0];
    assert!(
        first["notation"]
            .as_str()
            .is_some_and(|n| n.starts_with("place ")),
        "{first}"
    );
    assert_eq!(first["kind"], "place");
    assert_eq!(crusader["seat"], "crusader");
    assert_eq!(crusader["your_turn"], false);
    assert_eq!(crusader["actions"], json!([]));
    assert_eq!(spectator["seat"], Value::Null);
    assert_eq!(spectator["actions"], json!([]));
}

/// Act over HTTP and over the WebSocket; every connected client receives its own view.
pub fn act_and_push(db: &dyn Db) {
    let server = Server::start(&db.fresh());
    let (id, created) = server.create(12, json!({ "crusader": "human", "muslim": "human" }));
    let (c, m) = (token(&created, "crusader"), token(&created, "muslim"));
    let mut ws_c = server.ws(&id, Some(&c));
    let mut ws_m = server.ws(&id, Some(&m));
    let mut ws_s = server.ws(&id, None);
    let first_m = ws_m.next_state();
    assert_eq!(
        (ws_c.next_state()["seat"].clone(), revision(&first_m)),
        (json!("crusader"), 0)
    );
    assert_eq!(ws_s.next_state()["seat"], Value::Null);

    let action = first_m["actions"][0]["notation"]
        .as_str()
        .expect("action")
        .to_string();
    let (status, after) = server.act(&id, Some(&m), &action, 0);
    assert_eq!(status, 200, "{after}");
    assert_eq!(revision(&after), 1);
    assert_eq!(after["seat"], "muslim");
    for (ws, seat) in [
        (&mut ws_c, json!("crusader")),
        (&mut ws_m, json!("muslim")),
        (&mut ws_s, Value::Null),
    ] {
        let s = ws.until_revision(1);
        assert_eq!(revision(&s), 1);
        assert_eq!(s["seat"], seat);
    }
    assert_eq!(
        ws_m.seen.len(),
        2,
        "one state on connect, one after the action"
    );

    // The next action over the WebSocket; success shows as the next state.
    let now = server.state(&id, Some(&m));
    let action = now["actions"][0]["notation"]
        .as_str()
        .expect("action")
        .to_string();
    ws_m.send(json!({ "type": "act", "action": action, "revision": 1 }));
    for ws in [&mut ws_c, &mut ws_m, &mut ws_s] {
        assert_eq!(revision(&ws.until_revision(2)), 2);
    }
    let log = server.state(&id, None)["log"].clone();
    assert!(log.as_array().is_some_and(|l| l.len() >= 2), "{log}");

    // Undo over HTTP and the WebSocket.
    let (status, undone) = server.call(
        "POST",
        &format!("/api/games/{id}/undo"),
        Some(&m),
        Some(&json!({ "revision": 2 }).to_string()),
    );
    assert_eq!(status, 200, "{undone}");
    assert_eq!(revision(&undone), 3);
    assert_eq!(
        undone["actions"][0]["notation"].as_str(),
        Some(action.as_str())
    );
    assert_eq!(revision(&ws_c.until_revision(3)), 3);
}

/// A request that must be refused: what it is, method, path, token, body, status.
type Refusal<'a> = (&'a str, &'a str, &'a str, Option<&'a str>, String, u16);

/// A scenario run against a database.
pub type Scenario = fn(&dyn Db);

/// Every refusal is a 4xx with a message, and changes nothing.
pub fn bad_requests(db: &dyn Db) {
    let server = Server::start(&db.fresh());
    let (id, created) = server.create(13, json!({}));
    let tokens = both_tokens(&created);
    let (c, m) = (tokens["crusader"].as_str(), tokens["muslim"].as_str());
    play_first(&server, &id, &tokens, 2, |_| false);
    let before: Vec<Value> = [Some(c), Some(m), None]
        .iter()
        .map(|t| server.state(&id, *t))
        .collect();
    let rev = revision(&before[0]);
    assert_eq!(rev, 2);
    let legal = before[1]["actions"][0]["notation"]
        .as_str()
        .expect("muslim decides")
        .to_string();
    let act_body =
        |action: &str, revision: u64| json!({ "action": action, "revision": revision }).to_string();
    let actions = format!("/api/games/{id}/actions");
    let undo = format!("/api/games/{id}/undo");
    let wrong_state = format!("/api/games/{id}/state?token=feedbeef");
    let cases: Vec<Refusal> = vec![
        (
            "malformed JSON",
            "POST",
            &actions,
            Some(m),
            "{\"action\": ".into(),
            400,
        ),
        (
            "not an object",
            "POST",
            &actions,
            Some(m),
            "[1, 2]".into(),
            400,
        ),
        (
            "a field missing",
            "POST",
            &actions,
            Some(m),
            json!({ "action": legal }).to_string(),
            400,
        ),
        (
            "an unknown field",
            "POST",
            &actions,
            Some(m),
            json!({ "action": legal, "revision": rev, "seat": "muslim" }).to_string(),
            400,
        ),
        (
            "a wrong token",
            "POST",
            &actions,
            Some("0123456789abcdef0123456789abcdef"),
            act_body(&legal, rev),
            401,
        ),
        (
            "no token",
            "POST",
            &actions,
            None,
            act_body(&legal, rev),
            401,
        ),
        (
            "another seat's decision",
            "POST",
            &actions,
            Some(c),
            act_body(&legal, rev),
            403,
        ),
        (
            "a stale revision",
            "POST",
            &actions,
            Some(m),
            act_body(&legal, rev - 1),
            409,
        ),
        (
            "a revision from the future",
            "POST",
            &actions,
            Some(m),
            act_body(&legal, rev + 5),
            409,
        ),
        (
            "an illegal action",
            "POST",
            &actions,
            Some(m),
            act_body("place Saladin 9999 N", rev),
            422,
        ),
        (
            "not an action",
            "POST",
            &actions,
            Some(m),
            act_body("dance a jig", rev),
            422,
        ),
        (
            "undo another seat's action",
            "POST",
            &undo,
            Some(c),
            json!({ "revision": rev }).to_string(),
            422,
        ),
        (
            "undo with a stale revision",
            "POST",
            &undo,
            Some(m),
            json!({ "revision": 0 }).to_string(),
            409,
        ),
        (
            "undo without a token",
            "POST",
            &undo,
            None,
            json!({ "revision": rev }).to_string(),
            401,
        ),
        (
            "a state with a wrong token",
            "GET",
            &wrong_state,
            None,
            String::new(),
            401,
        ),
        (
            "an unknown game",
            "POST",
            "/api/games/0000000000aaaa/actions",
            Some(m),
            act_body(&legal, rev),
            404,
        ),
        (
            "an unknown game's state",
            "GET",
            "/api/games/nosuchgame/state",
            None,
            String::new(),
            404,
        ),
        (
            "an unknown API",
            "GET",
            "/api/nothing",
            None,
            String::new(),
            404,
        ),
        (
            "create: malformed JSON",
            "POST",
            "/api/games",
            None,
            "{".into(),
            400,
        ),
        (
            "create: unknown scenario",
            "POST",
            "/api/games",
            None,
            json!({ "scenario": "crusades-ii/agincourt" }).to_string(),
            422,
        ),
        (
            "create: unknown option",
            "POST",
            "/api/games",
            None,
            json!({ "scenario": HATTIN, "options": ["lasers"] }).to_string(),
            422,
        ),
        (
            "create: unknown seat",
            "POST",
            "/api/games",
            None,
            json!({ "scenario": HATTIN, "seats": { "mongol": "human" } }).to_string(),
            422,
        ),
        (
            "create: bad player",
            "POST",
            "/api/games",
            None,
            json!({ "scenario": HATTIN, "seats": { "muslim": "mcts:lots" } }).to_string(),
            422,
        ),
    ];
    for (what, method, path, token, body, status) in cases {
        let body = if body.is_empty() {
            None
        } else {
            Some(body.as_str())
        };
        let (got, doc) = server.call(method, path, token, body);
        assert_eq!(got, status, "{what}: {doc}");
        let message = doc["error"]
            .as_str()
            .unwrap_or_else(|| panic!("{what}: no error message in {doc}"));
        assert!(
            message.len() > 10,
            "{what}: a clear message, got {message:?}"
        );
    }
    // The duplicate send: the first is taken, the same request again is refused.
    let (first, _) = server.act(&id, Some(m), &legal, rev);
    assert_eq!(first, 200);
    let (again, doc) = server.act(&id, Some(m), &legal, rev);
    assert_eq!(again, 409, "{doc}");
    assert!(
        doc["error"]
            .as_str()
            .is_some_and(|e| e.contains("revision")),
        "{doc}"
    );
    // Over the WebSocket: errors come back as messages, and nothing changes.
    let mut ws = server.ws(&id, Some(m));
    let now = ws.next_state();
    ws.send_text("{ not json");
    let e = ws.next();
    assert_eq!(
        (e["type"].clone(), e["status"].clone()),
        (json!("error"), json!(400)),
        "{e}"
    );
    ws.send(json!({ "type": "act", "action": legal, "revision": rev }));
    let e = ws.next();
    assert_eq!(e["status"], 409, "{e}");
    ws.send(json!({ "type": "act", "action": "dance a jig", "revision": revision(&now) }));
    let e = ws.next();
    assert_eq!(e["status"], 422, "{e}");
    let mut spectator = server.ws(&id, None);
    spectator.next_state();
    spectator.send(json!({ "type": "act", "action": "dance a jig", "revision": revision(&now) }));
    assert_eq!(spectator.next()["status"], 401);
    // Nothing changed but the one action taken.
    let after = server.state(&id, Some(m));
    assert_eq!(revision(&after), rev + 1);
    same(&after, &now, "after the refusals");
    // And the refusals before it changed nothing either: undo the one action, and every
    // viewer's document is as before but for the revision.
    let (status, _) = server.call(
        "POST",
        &undo,
        Some(m),
        Some(&json!({ "revision": rev + 1 }).to_string()),
    );
    assert_eq!(status, 200);
    for (t, old) in [Some(c), Some(m), None].iter().zip(&before) {
        let mut doc = server.state(&id, *t);
        assert_eq!(revision(&doc), rev + 2);
        doc["revision"] = json!(rev);
        doc["can_undo"] = old["can_undo"].clone();
        same(&doc, old, "after undoing the one action");
    }
}

/// The chit a leader shows in a state document (`view.leaders[]`).
fn leader<'a>(doc: &'a Value, name: &str) -> &'a Value {
    doc["view"]["leaders"]
        .as_array()
        .expect("leaders")
        .iter()
        .find(|l| l["name"] == name)
        .unwrap_or_else(|| panic!("no leader {name}"))
}

/// In the order phase the Crusader's secret chit never reaches the Muslim seat or a
/// spectator, over HTTP or the WebSocket; each seat's view is exactly the engine's view.
pub fn secrecy(db: &dyn Db) {
    let server = Server::start(&db.fresh());
    let seed = 14;
    let (id, created) = server.create(seed, json!({}));
    let tokens = both_tokens(&created);
    let mut taken = play_first(&server, &id, &tokens, 200, |a| a["kind"] == "chit");
    let (c, m) = (tokens["crusader"].as_str(), tokens["muslim"].as_str());
    let doc_c = server.state(&id, Some(c));
    assert_eq!(
        doc_c["pending"],
        json!(["crusader", "muslim"]),
        "the order phase"
    );
    let mut ws_m = server.ws(&id, Some(m));
    let mut ws_s = server.ws(&id, None);
    ws_m.next_state();
    ws_s.next_state();

    let chit = "chit King-Guy reserve";
    assert!(doc_c["actions"]
        .as_array()
        .expect("actions")
        .iter()
        .any(|a| a["notation"] == chit));
    let (status, after) = server.act(&id, Some(c), chit, revision(&doc_c));
    assert_eq!(status, 200, "{after}");
    taken.push(("crusader".into(), chit.into()));
    assert_eq!(leader(&after, "King Guy")["chit"], "reserve");
    let rev = revision(&after);

    let secret = "takes a reserve command";
    assert!(
        after.to_string().contains(secret),
        "the Crusader sees his own order"
    );
    let pushed_m = ws_m.until_revision(rev);
    let pushed_s = ws_s.until_revision(rev);
    for (who, doc) in [
        ("muslim HTTP", server.state(&id, Some(m))),
        ("spectator HTTP", server.state(&id, None)),
        ("muslim WebSocket", pushed_m),
        ("spectator WebSocket", pushed_s),
    ] {
        let king = leader(&doc, "King Guy");
        assert_eq!(king["chit"], Value::Null, "{who}: {king}");
        assert_eq!(king["chit_hidden"], true, "{who}: {king}");
        assert!(
            !doc.to_string().contains(secret),
            "{who} sees the Crusader's order"
        );
        assert_eq!(
            doc["actions"].as_array().map(Vec::len).unwrap_or(0) > 0,
            who.starts_with("muslim")
        );
    }
    for line in ws_m.seen.iter().chain(&ws_s.seen) {
        assert!(
            !line.contains(secret),
            "a pushed message holds the secret order"
        );
        assert!(
            !line.contains("\"record\"") && !line.contains("\"seed\""),
            "no record leaves the server"
        );
    }

    // Each document's view and log are exactly what the engine shows that viewer, as
    // `crusades view` does.
    let data = registry::all_data(None).expect("data");
    let mut game =
        registry::new_game(HATTIN, &[], seed, DiceMode::Seeded, None, &data).expect("game");
    for (seat, action) in &taken {
        let s = game.seat_named(seat).expect("seat");
        game.act(s, action, &[]).expect("the same actions replay");
    }
    for (t, viewer) in [
        (
            Some(c),
            Viewer::Seat(game.seat_named("crusader").expect("seat")),
        ),
        (
            Some(m),
            Viewer::Seat(game.seat_named("muslim").expect("seat")),
        ),
        (None, Viewer::Spectator),
    ] {
        let doc = server.state(&id, t);
        assert_eq!(doc["view"], game.view_json(viewer)["state"], "{viewer:?}");
        assert_eq!(
            doc["board"],
            serde_json::to_value(game.board(viewer)).expect("board")
        );
        let texts: Vec<String> = game.events(viewer).iter().map(|e| e.text.clone()).collect();
        let got: Vec<String> = doc["log"]
            .as_array()
            .expect("log")
            .iter()
            .map(|e| e["text"].as_str().expect("text").to_string())
            .collect();
        assert_eq!(got, texts, "{viewer:?}");
    }
}

/// The first state pushed where the Crusader alone must decide (the AI seat has done all it
/// can).
fn only_crusader(ws: &mut Ws) -> Value {
    loop {
        let s = ws.next_state();
        if s["pending"] == json!(["crusader"]) {
            assert_eq!(s["your_turn"], true);
            return s;
        }
    }
}

/// Fails naming the top-level fields that differ (the documents are too big to print).
fn same(found: &Value, expected: &Value, what: &str) {
    let differ: Vec<&String> = expected
        .as_object()
        .expect("object")
        .iter()
        .filter(|(k, v)| found.get(k.as_str()) != Some(v))
        .map(|(k, _)| k)
        .collect();
    assert!(found == expected, "{what}: fields {differ:?} differ");
}

/// AI seats play inside the server, their actions committed like any other.
pub fn ai_seats(db: &dyn Db) {
    let url = db.fresh();
    let server = Server::start(&url);
    let (id, created) = server.create(15, json!({ "muslim": "random" }));
    assert!(
        created["seats"].get("muslim").is_none(),
        "an AI seat has no token: {created}"
    );
    let c = token(&created, "crusader");
    let mut ws = server.ws(&id, Some(&c));
    let doc = only_crusader(&mut ws);
    assert_eq!(doc["ai_seats"], json!(["muslim"]));
    assert!(
        revision(&doc) >= 10,
        "the AI placed its army: revision {}",
        revision(&doc)
    );
    assert!(doc["log"].as_array().is_some_and(|l| !l.is_empty()));
    // Two AI seats play a whole stretch of game by themselves, while the first game waits.
    let (bots, created) = server.create(16, json!({ "crusader": "random", "muslim": "random" }));
    assert_eq!(created["seats"], json!({}));
    let mut watch = server.ws(&bots, None);
    assert!(revision(&watch.until_revision(60)) >= 60);
    same(
        &server.state(&id, Some(&c)),
        &doc,
        "the first game waits for the Crusader",
    );
}

/// Kill the server (SIGKILL) while games are played and restart it on the same database:
/// nothing acknowledged is lost, and AI seats play on.
pub fn restart(db: &dyn Db) {
    let url = db.fresh();
    let server = Server::start(&url);
    let (humans, created) = server.create(17, json!({}));
    let tokens = both_tokens(&created);
    play_first(&server, &humans, &tokens, 6, |_| false);
    let (mixed, created_mixed) = server.create(18, json!({ "muslim": "random" }));
    let c_mixed = token(&created_mixed, "crusader");
    let (bots, _) = server.create(19, json!({ "crusader": "random", "muslim": "random" }));

    // An acknowledged state of each game just before the kill.
    let mut watch_mixed = server.ws(&mixed, Some(&c_mixed));
    let mixed_doc = only_crusader(&mut watch_mixed);
    let mut watch_bots = server.ws(&bots, None);
    let seen_bots = revision(&watch_bots.until_revision(20));
    let before: Vec<Value> = [
        Some(tokens["crusader"].as_str()),
        Some(tokens["muslim"].as_str()),
        None,
    ]
    .iter()
    .map(|t| server.state(&humans, *t))
    .collect();
    // A client acting as fast as the server answers, killed in the middle.
    let m = tokens["muslim"].clone();
    let c = tokens["crusader"].clone();
    let addr = server.addr.clone();
    let raced = humans.clone();
    let racer = std::thread::spawn(move || {
        let agent = ureq::AgentBuilder::new().timeout(PATIENCE).build();
        let mut acknowledged = None;
        for _ in 0..500 {
            let state = |t: &str| -> Option<Value> {
                agent
                    .get(&format!("http://{addr}/api/games/{raced}/state"))
                    .set("Authorization", &format!("Bearer {t}"))
                    .call()
                    .ok()?
                    .into_json()
                    .ok()
            };
            let Some(public) = state("") else { break };
            let seat = public["pending"][0].as_str().unwrap_or("").to_string();
            let t = if seat == "muslim" { &m } else { &c };
            let Some(doc) = state(t) else { break };
            let Some(action) = doc["actions"][0]["notation"].as_str() else {
                break;
            };
            let answer = agent
                .post(&format!("http://{addr}/api/games/{raced}/actions"))
                .set("Authorization", &format!("Bearer {t}"))
                .send_json(json!({ "action": action, "revision": revision(&doc) }));
            match answer {
                Ok(r) => acknowledged = Some(r.into_json::<Value>().expect("state")),
                Err(_) => break,
            }
        }
        acknowledged
    });
    // Let the racer get some actions acknowledged, then kill.
    let mut watch_humans = server.ws(&humans, None);
    watch_humans.until_revision(revision(&before[0]) + 5);
    server.kill();
    let acknowledged = racer
        .join()
        .expect("racer")
        .expect("some actions were acknowledged");

    let server = Server::start(&url);
    // Every game is there; the raced game kept every acknowledged action (the action being
    // answered at the kill may have been committed too, never more).
    let seat = acknowledged["seat"].as_str().expect("seat").to_string();
    let now = server.state(&humans, Some(&tokens[&seat]));
    let ack = revision(&acknowledged);
    assert!(
        revision(&now) == ack || revision(&now) == ack + 1,
        "acknowledged {ack}, found {}",
        revision(&now)
    );
    if revision(&now) == ack {
        same(&now, &acknowledged, "the state is exactly as acknowledged");
    }
    assert!(revision(&now) > revision(&before[0]));
    // The game goes on from there.
    let taken = play_first(&server, &humans, &tokens, 2, |_| false);
    assert_eq!(taken.len(), 2);
    // The mixed game waits for the Crusader exactly where it was.
    same(
        &server.state(&mixed, Some(&c_mixed)),
        &mixed_doc,
        "the mixed game after the restart",
    );
    // The AI game plays on by itself after the restart.
    let mut watch_bots = server.ws(&bots, None);
    let resumed = revision(&watch_bots.next_state());
    assert!(
        resumed >= seen_bots,
        "resumed at {resumed}, acknowledged {seen_bots}"
    );
    assert!(revision(&watch_bots.until_revision(resumed + 10)) >= resumed + 10);
}

/// The web client's files: the lobby at `/`, the game page at `/play/ID`, the rest by name;
/// `--web-dir` serves a folder instead.
pub fn web_files(db: &dyn Db) {
    let server = Server::start(&db.fresh());
    let index = std::fs::read_to_string(web_app().join("index.html")).expect("web/app/index.html");
    let play = std::fs::read_to_string(web_app().join("play.html")).expect("web/app/play.html");
    assert_eq!(server.call_text("GET", "/", None, None), (200, index));
    assert_eq!(
        server.call_text("GET", "/play/abc123", None, None),
        (200, play)
    );
    assert_eq!(
        server.call_text("GET", "/no-such-file.js", None, None).0,
        404
    );
    assert_eq!(server.call_text("GET", "/../Cargo.toml", None, None).0, 404);
    drop(server);

    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("index.html"), "<p>from disk</p>").expect("write");
    let dir_arg = dir.path().display().to_string();
    let server = Server::start_with(&db.fresh(), &["--web-dir", &dir_arg]);
    assert_eq!(
        server.call_text("GET", "/", None, None),
        (200, "<p>from disk</p>".to_string())
    );
}

/// Every scenario, in order.
pub const ALL: [(&str, Scenario); 7] = [
    ("create_and_state", create_and_state),
    ("act_and_push", act_and_push),
    ("bad_requests", bad_requests),
    ("secrecy", secrecy),
    ("ai_seats", ai_seats),
    ("restart", restart),
    ("web_files", web_files),
];
