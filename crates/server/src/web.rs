//! The web client's files (web/app/): embedded in the binary at build time, or read from a
//! folder on disk with `--web-dir` while the client is being developed.

use std::path::{Component, Path, PathBuf};

use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use include_dir::{include_dir, Dir};

use crate::error::ApiError;

/// The files of web/app/ as they were when the server was built.
static EMBEDDED: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/../../web/app");

/// Where the web client's files come from.
#[derive(Clone, Debug)]
pub enum WebFiles {
    /// Built into the binary.
    Embedded,
    /// Read from this folder at each request.
    Folder(PathBuf),
}

impl WebFiles {
    /// The file at `path` (relative to web/app/, `/`-separated) as a response with its
    /// content type, or 404.
    pub async fn serve(&self, path: &str) -> Response {
        let path = path.trim_start_matches('/');
        let missing = || ApiError::not_found(format!("no page `/{path}` on this server"));
        let relative = Path::new(path);
        if path.is_empty()
            || !relative
                .components()
                .all(|c| matches!(c, Component::Normal(_)))
        {
            return missing().into_response();
        }
        let bytes = match self {
            WebFiles::Embedded => EMBEDDED.get_file(relative).map(|f| f.contents().to_vec()),
            WebFiles::Folder(dir) => tokio::fs::read(dir.join(relative)).await.ok(),
        };
        match bytes {
            Some(bytes) => {
                let mime = mime_guess::from_path(relative).first_or_octet_stream();
                let textual = mime.type_() == "text" || mime.subtype() == "javascript";
                let content_type = if textual {
                    format!("{}; charset=utf-8", mime.essence_str())
                } else {
                    mime.essence_str().to_string()
                };
                (
                    StatusCode::OK,
                    [
                        (header::CONTENT_TYPE, content_type),
                        (header::CACHE_CONTROL, "no-cache".to_string()),
                    ],
                    bytes,
                )
                    .into_response()
            }
            None => missing().into_response(),
        }
    }
}
