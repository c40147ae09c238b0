//! The two routes of the TechEmpower web framework benchmarks.

use serde::Serialize;

use super::{Handler, Request, Response, Status};

/// Answers `GET /json` with `{"message":"Hello, World!"}`, serialised by
/// serde_json for every request, and `GET /plaintext` with `Hello, World!`;
/// anything else is 404.
///
/// These are the TechEmpower "JSON serialization" and "plaintext" tests,
/// the workload `leanwire serve` and `scripts/bench-http` measure.
#[derive(Copy, Clone, Debug, Default)]
pub struct HelloWorld;

#[derive(Serialize)]
struct Message {
    message: &'static str,
}

impl Handler for HelloWorld {
    fn handle(&self, request: &Request<'_>, response: &mut Response<'_>) {
        match (request.method(), request.path()) {
            ("GET", "/json") => {
                response.set_content_type("application/json");
                let message = Message {
                    message: "Hello, World!",
                };
                serde_json::to_writer(response.body(), &message)
                    .expect("a struct of one string serialises into a Vec");
            }
            ("GET", "/plaintext") => {
                response.set_content_type("text/plain");
                response.body().extend_from_slice(b"Hello, World!");
            }
            _ => {
                response.set_status(Status::NOT_FOUND);
                response.set_content_type("text/plain");
                response.body().extend_from_slice(b"not found\n");
            }
        }
    }
}
