//! The HTTP and WebSocket routes of docs/api.md, over [`crate::games::Games`].

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, RawQuery, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use engine::Viewer;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::error::ApiError;
use crate::games::{
    ActRequest, CounterActions, CreateRequest, Games, Push, Slot, UndoRequest, VERSION,
};
use crate::web::WebFiles;

/// What every handler shares.
#[derive(Clone)]
pub struct App {
    /// The games.
    pub games: Arc<Games>,
    /// The web client's files.
    pub web: WebFiles,
}

/// Every route of the server.
pub fn router(app: App) -> Router {
    Router::new()
        .route("/api/scenarios", get(scenarios))
        .route("/api/games", post(create))
        .route("/api/games/{id}/state", get(state))
        .route("/api/games/{id}/actions", get(actions_of).post(act))
        .route("/api/maps/{key}", get(map))
        .route("/api/games/{id}/undo", post(undo))
        .route("/api/games/{id}/ws", get(ws))
        .route("/api/echo", get(echo))
        .route("/api/{*rest}", get(no_api).post(no_api))
        .route("/", get(lobby))
        .route("/play/{id}", get(play))
        .route("/{*path}", get(file))
        .with_state(app)
}

/// The token of a request: `Authorization: Bearer TOKEN`, else `?token=TOKEN`; none (a
/// spectator) when neither is given or the token is empty.
fn token(headers: &HeaderMap, query: Option<&str>) -> Option<String> {
    let from_header = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim);
    let from_query = query.and_then(|q| q.split('&').find_map(|pair| pair.strip_prefix("token=")));
    from_header
        .or(from_query)
        .filter(|t| !t.is_empty())
        .map(str::to_string)
}

/// A JSON body, or 400 naming what is wrong with it.
fn body<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    serde_json::from_slice(bytes)
        .map_err(|e| ApiError::bad_request(format!("malformed request body: {e}")))
}

async fn scenarios(State(app): State<App>) -> Result<Json<Value>, ApiError> {
    let list = registry::scenarios(app.games.data())
        .map_err(|e| ApiError::internal(format!("bad data:\n{e}")))?;
    Ok(Json(json!({ "version": VERSION, "scenarios": list })))
}

async fn create(State(app): State<App>, bytes: Bytes) -> Result<Response, ApiError> {
    let req: CreateRequest = body(&bytes)?;
    let created = app.games.create(req).await?;
    let seats: serde_json::Map<String, Value> = created
        .tokens
        .iter()
        .map(|(seat, token)| {
            (
                seat.clone(),
                json!({ "token": token, "link": format!("/play/{}?token={token}", created.id) }),
            )
        })
        .collect();
    Ok((
        StatusCode::CREATED,
        Json(json!({
            "version": VERSION,
            "id": created.id,
            "seats": seats,
            "spectator": format!("/play/{}", created.id),
        })),
    )
        .into_response())
}

async fn state(
    State(app): State<App>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let slot = app.games.slot(&id).await?;
    let viewer = slot
        .viewer(token(&headers, query.as_deref()).as_deref())
        .await?;
    Ok(json_text(slot.state(viewer).await?))
}

/// A query's value for `name`, percent-decoded.
fn query_value(query: Option<&str>, name: &str) -> Option<String> {
    let raw = query?
        .split('&')
        .find_map(|pair| pair.strip_prefix(name)?.strip_prefix('='))?;
    let bytes = raw.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match bytes[i] {
            b'%' if i + 2 < bytes.len() => match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                (Some(h), Some(l)) => {
                    out.push((h * 16 + l) as u8);
                    i += 3;
                    continue;
                }
                _ => out.push(b'%'),
            },
            b'+' => out.push(b' '),
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8(out).ok()
}

/// The actions of one counter (`GET /api/games/ID/actions?counter=C`, a seat's token).
async fn actions_of(
    State(app): State<App>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let slot = app.games.slot(&id).await?;
    let counter = query_value(query.as_deref(), "counter").ok_or_else(|| {
        ApiError::bad_request("name the counter: /api/games/ID/actions?counter=COUNTER")
    })?;
    let token = token(&headers, query.as_deref());
    let (revision, actions) = slot.actions_of(token.as_deref(), &counter).await?;
    Ok(json_text(Arc::new(actions_text(
        None, revision, &counter, &actions,
    ))))
}

/// A counter's actions as JSON text: the answer of `GET .../actions` (with the version) or
/// of an `actions` message over the WebSocket (with its type), written straight from the
/// actions.
fn actions_text(
    kind: Option<&str>,
    revision: u64,
    counter: &str,
    actions: &CounterActions,
) -> String {
    #[derive(serde::Serialize)]
    struct Answer<'a> {
        #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
        kind: Option<&'a str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        version: Option<u32>,
        revision: u64,
        counter: &'a str,
        actions: &'a CounterActions,
    }
    let answer = Answer {
        kind,
        version: kind.is_none().then_some(VERSION),
        revision,
        counter,
        actions,
    };
    serde_json::to_string(&answer).expect("actions serialise")
}

/// A map by its key (`GET /api/maps/KEY`): never changes, so it may be cached for good.
async fn map(State(app): State<App>, Path(key): Path<String>) -> Result<Response, ApiError> {
    let text = app.games.map(&key).ok_or_else(|| {
        ApiError::not_found(format!(
            "no map `{key}` (a map's key comes from a state document)"
        ))
    })?;
    Ok((
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CACHE_CONTROL, "public, max-age=31536000, immutable"),
        ],
        text.as_ref().clone(),
    )
        .into_response())
}

/// A JSON document already written as text.
fn json_text(text: Arc<String>) -> Response {
    (
        [(header::CONTENT_TYPE, "application/json")],
        text.as_ref().clone(),
    )
        .into_response()
}

async fn act(
    State(app): State<App>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
    bytes: Bytes,
) -> Result<Response, ApiError> {
    let slot = app.games.slot(&id).await?;
    let req: ActRequest = body(&bytes)?;
    let token = token(&headers, query.as_deref());
    let doc = app.games.act(&slot, token.as_deref(), &req, true).await?;
    doc.map(json_text)
        .ok_or_else(|| ApiError::internal("the action was taken but no document was made"))
}

async fn undo(
    State(app): State<App>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
    bytes: Bytes,
) -> Result<Response, ApiError> {
    let slot = app.games.slot(&id).await?;
    let req: UndoRequest = body(&bytes)?;
    let token = token(&headers, query.as_deref());
    Ok(json_text(
        app.games.undo(&slot, token.as_deref(), &req).await?,
    ))
}

async fn ws(
    State(app): State<App>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let slot = app.games.slot(&id).await?;
    let token = token(&headers, query.as_deref());
    let viewer = slot.viewer(token.as_deref()).await?;
    Ok(upgrade
        // A client sends short messages: a small read buffer (the default, 128 KiB, is
        // zeroed at every read) that grows for a longer one, up to the largest accepted.
        .read_buffer_size(READ_BUFFER)
        .max_message_size(MAX_CLIENT_MESSAGE)
        .on_upgrade(move |socket| live_socket(app, slot, viewer, token, socket)))
}

/// The WebSocket's read buffer, in bytes (enough for any message a client sends).
const READ_BUFFER: usize = 4096;

/// The longest message a client may send over the WebSocket, in bytes.
const MAX_CLIENT_MESSAGE: usize = 1 << 20;

/// A message from a client over the WebSocket.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
enum ClientMessage {
    Act {
        action: String,
        #[serde(default)]
        dice: Vec<u8>,
        revision: u64,
    },
    Undo {
        revision: u64,
    },
    Actions {
        counter: String,
    },
}

fn error_message(e: &ApiError) -> Message {
    let mut body = e.body();
    body["type"] = json!("error");
    body["status"] = json!(e.status.as_u16());
    Message::Text(body.to_string().into())
}

/// One client's WebSocket: its viewer's state on connect, then an update each time its
/// document changes; its actions, undos and requests for a counter's actions, with errors
/// answered on the socket.
async fn live_socket(
    app: App,
    slot: Arc<Slot>,
    viewer: Viewer,
    token: Option<String>,
    mut socket: WebSocket,
) {
    let mut changes = slot.subscribe();
    changes.mark_changed();
    let mut had = None;
    loop {
        tokio::select! {
            changed = changes.changed() => {
                if changed.is_err() {
                    return;
                }
                changes.borrow_and_update();
                let message = match slot.push(viewer, had).await {
                    Ok(Push::Nothing) => continue,
                    Ok(Push::Message(revision, text)) => {
                        had = Some(revision);
                        Message::Text(text.as_str().into())
                    }
                    Err(e) => {
                        let _ = socket.send(error_message(&e)).await;
                        return;
                    }
                };
                if socket.send(message).await.is_err() {
                    return;
                }
            }
            received = socket.recv() => {
                let text = match received {
                    Some(Ok(Message::Text(text))) => text,
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return,
                    Some(Ok(Message::Binary(_))) => {
                        let e = ApiError::bad_request("send messages as JSON text, not binary");
                        if socket.send(error_message(&e)).await.is_err() {
                            return;
                        }
                        continue;
                    }
                    Some(Ok(_)) => continue,
                };
                let done = match body::<ClientMessage>(text.as_bytes()) {
                    Err(e) => Err(e),
                    Ok(ClientMessage::Act { action, dice, revision }) => {
                        let req = ActRequest { action, dice, revision };
                        app.games.act(&slot, token.as_deref(), &req, false).await.map(drop)
                    }
                    Ok(ClientMessage::Undo { revision }) => {
                        let req = UndoRequest { revision };
                        app.games.undo(&slot, token.as_deref(), &req).await.map(drop)
                    }
                    Ok(ClientMessage::Actions { counter }) => {
                        match slot.actions_of(token.as_deref(), &counter).await {
                            Ok((revision, actions)) => {
                                let reply = actions_text(Some("actions"), revision, &counter, &actions);
                                if socket.send(Message::Text(reply.into())).await.is_err() {
                                    return;
                                }
                                Ok(())
                            }
                            Err(e) => Err(e),
                        }
                    }
                };
                if let Err(e) = done {
                    if socket.send(error_message(&e)).await.is_err() {
                        return;
                    }
                }
            }
        }
    }
}

/// A bare WebSocket echo, for the load benchmark's baseline (bench/server-load).
async fn echo(upgrade: WebSocketUpgrade) -> Response {
    upgrade.on_upgrade(|mut socket| async move {
        while let Some(Ok(message)) = socket.recv().await {
            let echoed = matches!(message, Message::Text(_) | Message::Binary(_));
            if matches!(message, Message::Close(_))
                || (echoed && socket.send(message).await.is_err())
            {
                return;
            }
        }
    })
}

async fn no_api(Path(rest): Path<String>) -> ApiError {
    ApiError::not_found(format!("no API `/api/{rest}` (docs/api.md lists them)"))
}

async fn lobby(State(app): State<App>) -> Response {
    app.web.serve("index.html").await
}

/// The game page; the page itself asks for the game and shows any error.
async fn play(State(app): State<App>) -> Response {
    app.web.serve("play.html").await
}

async fn file(State(app): State<App>, Path(path): Path<String>) -> Response {
    app.web.serve(&path).await
}

#[cfg(test)]
mod tests {
    use axum::http::{header, HeaderMap, HeaderValue};

    use super::token;

    #[test]
    fn the_header_wins_over_the_query_and_empty_is_a_spectator() {
        let mut headers = HeaderMap::new();
        assert_eq!(token(&headers, Some("a=1&token=abc")), Some("abc".into()));
        assert_eq!(token(&headers, Some("token=")), None);
        assert_eq!(token(&headers, None), None);
        headers.insert(
            header::AUTHORIZATION,
            HeaderValue::from_static("Bearer xyz"),
        );
        assert_eq!(token(&headers, Some("token=abc")), Some("xyz".into()));
        headers.insert(header::AUTHORIZATION, HeaderValue::from_static("Bearer "));
        assert_eq!(token(&headers, None), None);
    }
}
