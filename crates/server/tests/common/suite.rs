//! The scenarios run against every kind of database.

use std::collections::BTreeMap;

use engine::{DiceMode, Viewer};
use serde_json::{json, Value};

use super::*;

/// The fields of every state document (docs/api.md), and no others: nothing else (no record,
/// no seed) leaves the server.
const STATE_FIELDS: [&str; 21] = [
    "actions",
    "actors",
    "ai_failure",
    "ai_seats",
    "board",
    "can_undo",
    "dice",
    "game",
    "log",
    "map",
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
        let first = &server
            .first_action(id, Some(&tokens[&seat]), &doc)
            .expect("an action");
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
        assert_eq!(doc["version"], 2);
        assert_eq!(doc["scenario"], HATTIN);
        assert_eq!(doc["revision"], 0);
        assert_eq!(doc["pending"], json!(["muslim"]));
        assert_eq!(doc["ai_seats"], json!([]));
        assert!(server.board(doc)["hexes"]
            .as_array()
            .is_some_and(|h| !h.is_empty()));
        assert_eq!(doc["map"], muslim["map"], "one map for every viewer");
        assert!(doc["board"].get("hexes").is_none(), "the map is sent apart");
        assert_eq!(doc["dice"], "seeded");
        assert_eq!(doc["ai_failure"], Value::Null);
    }
    let (status, text) = server.call_text("GET", "/api/maps/nosuchmap", None, None);
    assert_eq!(status, 404, "{text}");
    assert_eq!(muslim["seat"], "muslim");
    assert_eq!(muslim["your_turn"], true);
    let first = &server
        .first_action(&id, Some(&token(&created, "muslim")), &muslim)
        .expect("an action");
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
    assert_eq!(crusader["actors"], json!([]));
    assert_eq!(spectator["seat"], Value::Null);
    assert_eq!(spectator["actions"], json!([]));
    assert_eq!(spectator["actors"], json!([]));
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

    let action = server
        .first_action(&id, Some(&m), &first_m)
        .expect("action")["notation"]
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
    let action = server.first_action(&id, Some(&m), &now).expect("action")["notation"]
        .as_str()
        .expect("action")
        .to_string();
    ws_m.send(json!({ "type": "act", "action": action, "revision": 1 }));
    for ws in [&mut ws_c, &mut ws_m, &mut ws_s] {
        assert_eq!(revision(&ws.until_revision(2)), 2);
        assert!(ws.updates >= 1, "the changes come as updates");
    }
    // Applying the updates gives exactly the whole document.
    for (ws, t) in [(&ws_c, Some(&c)), (&ws_m, Some(&m)), (&ws_s, None)] {
        same(
            ws.doc.as_ref().expect("doc"),
            &server.state(&id, t.map(String::as_str)),
            "updates applied",
        );
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
        server.first_action(&id, Some(&m), &undone).expect("action")["notation"].as_str(),
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
    // Each viewer has its own revision: the Muslim's counts the two actions it saw.
    let rev = revision(&before[1]);
    assert_eq!(rev, 2);
    let legal = server
        .first_action(&id, Some(m), &before[1])
        .expect("action")["notation"]
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
            act_body(&legal, revision(&before[0])),
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
            json!({ "revision": revision(&before[0]) }).to_string(),
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
        if *t == Some(m) {
            assert_eq!(revision(&doc), rev + 2, "the Muslim acted and took it back");
        } else {
            assert!(revision(&doc) >= revision(old));
        }
        doc["revision"] = old["revision"].clone();
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
    let before_m = ws_m.next_state();
    let before_s = ws_s.next_state();

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

    let secret = "takes a reserve command";
    assert!(
        after.to_string().contains(secret),
        "the Crusader sees his own order"
    );
    // The secret order changes nothing the others see, not even their revisions: their
    // documents are exactly as before, and nothing was pushed to them (the next message on
    // each socket is the update of a later, visible change, from the document it had).
    let now_m = server.state(&id, Some(m));
    let now_s = server.state(&id, None);
    same(
        &now_m,
        &before_m,
        "the Muslim's document after the secret order",
    );
    same(
        &now_s,
        &before_s,
        "the spectator's document after the secret order",
    );
    // More secret orders, as long as there are chits to give.
    let mut more = 0;
    for _ in 0..6 {
        let doc = server.state(&id, Some(c));
        let Some(order) = doc["actions"]
            .as_array()
            .expect("actions")
            .iter()
            .filter_map(|a| a["notation"].as_str())
            .find(|a| a.starts_with("chit "))
            .map(str::to_string)
        else {
            break;
        };
        more += 1;
        let (status, answer) = server.act(&id, Some(c), &order, revision(&doc));
        assert_eq!(status, 200, "{order}: {answer}");
        taken.push(("crusader".into(), order));
    }
    assert_eq!(revision(&server.state(&id, Some(m))), revision(&before_m));
    assert_eq!(revision(&server.state(&id, None)), revision(&before_s));
    let rev = revision(&server.state(&id, Some(c)));
    assert_eq!(
        rev,
        revision(&after) + more,
        "the Crusader's own revision counts his orders"
    );
    let muslim_chit = server
        .first_action(&id, Some(m), &now_m)
        .expect("a Muslim order")["notation"]
        .as_str()
        .expect("notation")
        .to_string();
    let (status, _) = server.act(&id, Some(m), &muslim_chit, revision(&now_m));
    assert_eq!(status, 200);
    taken.push(("muslim".into(), muslim_chit));
    let next = ws_m.next();
    assert_eq!(next["type"], "update", "{next}");
    assert_eq!(
        next["base"],
        json!(revision(&before_m)),
        "nothing pushed before"
    );
    assert_eq!(next["revision"], json!(revision(&before_m) + 1));
    let pushed_m = ws_m.doc.clone().expect("doc");
    let pushed_s = ws_s.doc.clone().expect("doc");
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
        let offered = doc["actions"].as_array().map(Vec::len).unwrap_or(0)
            + doc["actors"].as_array().map(Vec::len).unwrap_or(0);
        assert_eq!(offered > 0, who.starts_with("muslim"), "{who}");
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
            server.board(&doc),
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

/// As [`same`], but for the revisions.
fn same_but_revision(found: &Value, expected: &Value, what: &str) {
    let mut found = found.clone();
    found["revision"] = expected["revision"].clone();
    same(&found, expected, what);
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
    // A seat's revision moves on only when its document is next made, so several commits
    // may share one: count the AI's set-up in the log instead.
    let placed = doc["log"]
        .as_array()
        .expect("log")
        .iter()
        .filter(|e| {
            e["text"]
                .as_str()
                .is_some_and(|t| t.contains(" sets up in "))
        })
        .count();
    assert_eq!(placed, 10, "the AI placed its army: {}", doc["log"]);
    assert!(revision(&doc) >= 1, "the Crusader saw the AI's moves");
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
            let listed = doc["actions"][0]["notation"].as_str().map(str::to_string);
            let asked = || -> Option<String> {
                let counter = doc["actors"][0]["counter"].as_str()?;
                let got: Value = agent
                    .get(&format!(
                        "http://{addr}/api/games/{raced}/actions?counter={counter}"
                    ))
                    .set("Authorization", &format!("Bearer {t}"))
                    .call()
                    .ok()?
                    .into_json()
                    .ok()?;
                got["actions"][0]["notation"].as_str().map(str::to_string)
            };
            let Some(action) = asked().or(listed) else {
                break;
            };
            let answer = agent
                .post(&format!("http://{addr}/api/games/{raced}/actions"))
                .set("Authorization", &format!("Bearer {t}"))
                .send_json(json!({ "action": action, "revision": revision(&doc) }));
            match answer {
                Ok(r) => acknowledged = Some(r.into_json::<Value>().expect("state")),
                Err(e) => {
                    eprintln!("the racer stops: {e}");
                    break;
                }
            }
        }
        acknowledged
    });
    // Let the racer get some actions acknowledged, then kill.
    let mut watch_humans = server.ws(&humans, None);
    watch_humans.until_revision(revision(&before[2]) + 5);
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
    // A rebuilt game's revisions start above any shown before (they are not stored).
    let ack = revision(&acknowledged);
    assert!(
        revision(&now) > ack,
        "acknowledged {ack}, found {}",
        revision(&now)
    );
    let log = |d: &Value| d["log"].as_array().expect("log").clone();
    if log(&now).len() == log(&acknowledged).len() {
        same_but_revision(&now, &acknowledged, "the state is exactly as acknowledged");
    } else {
        assert!(
            log(&now).starts_with(&log(&acknowledged)),
            "the action being answered was committed, after every acknowledged one"
        );
    }
    // The game goes on from there.
    let taken = play_first(&server, &humans, &tokens, 2, |_| false);
    assert_eq!(taken.len(), 2);
    // The mixed game waits for the Crusader exactly where it was.
    same_but_revision(
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
pub const ALL: [(&str, Scenario); 10] = [
    ("manual_dice", manual_dice),
    ("actions_on_demand", actions_on_demand),
    ("ai_failure", ai_failure),
    ("create_and_state", create_and_state),
    ("act_and_push", act_and_push),
    ("bad_requests", bad_requests),
    ("secrecy", secrecy),
    ("ai_seats", ai_seats),
    ("restart", restart),
    ("web_files", web_files),
];

/// A game with manual dice: chosen at creation, shown in every document, the dice sent with
/// an action reach the engine (an action that rolls none refuses any); AI seats and unknown
/// modes are refused.
pub fn manual_dice(db: &dyn Db) {
    let server = Server::start(&db.fresh());
    let create = |body: Value| server.call("POST", "/api/games", None, Some(&body.to_string()));
    let (status, e) =
        create(json!({ "scenario": HATTIN, "dice": "manual", "seats": { "muslim": "random" } }));
    assert_eq!(status, 422, "{e}");
    assert!(
        e["error"]
            .as_str()
            .is_some_and(|m| m.contains("manual dice")),
        "{e}"
    );
    let (status, e) = create(json!({ "scenario": HATTIN, "dice": "loaded" }));
    assert_eq!(status, 422, "{e}");
    assert!(
        e["error"].as_str().is_some_and(|m| m.contains("loaded")),
        "{e}"
    );
    let (status, created) = create(json!({ "scenario": HATTIN, "seed": 3, "dice": "manual" }));
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().expect("id").to_string();
    let m = token(&created, "muslim");
    let doc = server.state(&id, Some(&m));
    assert_eq!(doc["dice"], "manual");
    assert_eq!(server.state(&id, None)["dice"], "manual");
    let place = server
        .first_action(&id, Some(&m), &doc)
        .expect("a placement")["notation"]
        .as_str()
        .expect("notation")
        .to_string();
    let body = json!({ "action": place, "dice": [4], "revision": revision(&doc) }).to_string();
    let (status, e) = server.call(
        "POST",
        &format!("/api/games/{id}/actions"),
        Some(&m),
        Some(&body),
    );
    assert_eq!(status, 422, "{e}");
    assert!(
        e["error"].as_str().is_some_and(|m| m.contains("not used")),
        "{e}"
    );
    assert!(e.get("dice_needed").is_none(), "{e}");
    let (status, after) = server.act(&id, Some(&m), &place, revision(&doc));
    assert_eq!(status, 200, "{after}");
}

/// A counter's actions are asked for when it is selected: exactly the described actions
/// naming it, which the document's summary counts; only its seat may ask.
pub fn actions_on_demand(db: &dyn Db) {
    let server = Server::start(&db.fresh());
    let seed = 21;
    let (id, created) = server.create(seed, json!({}));
    let m = token(&created, "muslim");
    let doc = server.state(&id, Some(&m));
    let actors = doc["actors"].as_array().expect("actors").clone();
    assert!(!actors.is_empty(), "the set-up places counters: {doc}");
    let data = registry::all_data(None).expect("data");
    let game = registry::new_game(HATTIN, &[], seed, DiceMode::Seeded, None, &data).expect("game");
    let seat = game.seat_named("muslim").expect("seat");
    let all = serde_json::to_value(game.describe_actions(seat)).expect("actions");
    let all = all.as_array().expect("list");
    let mut asked = 0;
    for actor in &actors {
        let counter = actor["counter"].as_str().expect("counter");
        let path = format!(
            "/api/games/{id}/actions?counter={}",
            counter.replace(' ', "%20")
        );
        let (status, got) = server.call("GET", &path, Some(&m), None);
        assert_eq!(status, 200, "{got}");
        let expected: Vec<&Value> = all
            .iter()
            .filter(|a| {
                a["counters"]
                    .as_array()
                    .is_some_and(|c| c.iter().any(|c| c == counter))
            })
            .collect();
        let got_list: Vec<&Value> = got["actions"].as_array().expect("actions").iter().collect();
        assert_eq!(got_list, expected, "{counter}");
        let on_map = expected.iter().filter(|a| !a["hex"].is_null()).count();
        assert_eq!(actor["actions"], json!(on_map), "{counter}");
        asked += got_list.len();
    }
    assert!(asked > 0);
    let counter = actors[0]["counter"].as_str().expect("counter");
    let path = format!("/api/games/{id}/actions?counter={counter}");
    assert_eq!(
        server.call("GET", &path, None, None).0,
        401,
        "a spectator has no actions"
    );
    let c = token(&created, "crusader");
    let (status, got) = server.call("GET", &path, Some(&c), None);
    assert_eq!(
        (status, got["actions"].clone()),
        (200, json!([])),
        "not the Crusader's decision"
    );
    let (status, _) = server.call("GET", &format!("/api/games/{id}/actions"), Some(&m), None);
    assert_eq!(status, 400, "no counter named");
}

/// An AI seat that cannot play is reported to every viewer (without the details, which go
/// to the server's log). Here two AI seats play a game with manual dice (a database edited
/// by hand: the server refuses to create one) until the first die they cannot roll.
pub fn ai_failure(db: &dyn Db) {
    let url = db.fresh();
    let server = Server::start(&url);
    let body = json!({ "scenario": HATTIN, "seed": 4, "dice": "manual" }).to_string();
    let (status, created) = server.call("POST", "/api/games", None, Some(&body));
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().expect("id").to_string();
    server.kill();
    let seats = json!([
        { "seat": "crusader", "player": "random", "token_hash": null },
        { "seat": "muslim", "player": "random", "token_hash": null },
    ])
    .to_string();
    tokio::runtime::Runtime::new()
        .expect("runtime")
        .block_on(async {
            sqlx::any::install_default_drivers();
            let pool = sqlx::AnyPool::connect(&server::store::normalise_url(&url))
                .await
                .expect("the database");
            sqlx::query("UPDATE games SET seats = $1 WHERE id = $2")
                .bind(seats)
                .bind(id.as_str())
                .execute(&pool)
                .await
                .expect("update");
            pool.close().await;
        });
    let server = Server::start(&url);
    let mut ws = server.ws(&id, None);
    let failed = loop {
        let doc = ws.next_state();
        if !doc["ai_failure"].is_null() {
            break doc;
        }
    };
    let told = failed["ai_failure"].as_str().expect("a message");
    assert!(
        told.contains("random") && told.contains("could not play"),
        "{told}"
    );
    assert_eq!(server.state(&id, None)["ai_failure"], failed["ai_failure"]);
}
