//! The routes of the hyper peer, shared by `examples/hyper_reference.rs`
//! (over TCP, for `scripts/bench-http`) and `benches/http.rs` (in memory):
//! the same answers as `leanwire_native::http::HelloWorld`.

use std::convert::Infallible;

use bytes::Bytes;
use http_body_util::Full;
use hyper::header::{CONTENT_TYPE, HeaderValue, SERVER};
use hyper::{Method, Request, Response, StatusCode};
use serde::Serialize;

#[derive(Serialize)]
struct Message {
    message: &'static str,
}

fn respond(
    status: StatusCode,
    content_type: Option<&'static str>,
    body: Bytes,
) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(body));
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(SERVER, HeaderValue::from_static("hyper"));
    if let Some(content_type) = content_type {
        headers.insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    }
    response
}

/// Answers `GET /plaintext`, `GET /json` (serialised per request) and 404.
pub async fn route(
    request: Request<hyper::body::Incoming>,
) -> Result<Response<Full<Bytes>>, Infallible> {
    Ok(match (request.method(), request.uri().path()) {
        (&Method::GET, "/plaintext") => respond(
            StatusCode::OK,
            Some("text/plain"),
            Bytes::from_static(b"Hello, World!"),
        ),
        (&Method::GET, "/json") => {
            let body = serde_json::to_vec(&Message {
                message: "Hello, World!",
            })
            .expect("a struct of one string always serialises");
            respond(StatusCode::OK, Some("application/json"), Bytes::from(body))
        }
        _ => respond(StatusCode::NOT_FOUND, None, Bytes::new()),
    })
}
