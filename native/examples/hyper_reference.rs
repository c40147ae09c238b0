//! The peer of `leanwire serve` in `scripts/bench-http`: the same two routes
//! on hyper 1 and a multi-threaded tokio runtime, HTTP/1.1 only, keep-alive on.
//!
//! - `GET /json` answers `{"message":"Hello, World!"}` (`application/json`),
//!   serialised with serde_json on every request, as a real handler would.
//! - `GET /plaintext` answers `Hello, World!` (`text/plain`).
//! - Anything else answers 404 with an empty body.
//!
//! Every response carries `Server: hyper`, hyper's own cached `Date`,
//! `Content-Type` and `Content-Length` (from the `Full` body's exact size).
//! Once bound it prints `listening on http://ADDR` (the real port, also for
//! port 0) and serves until it is killed.
//!
//! ```sh
//! cargo run --release -p leanwire-native --example hyper_reference -- --addr 127.0.0.1:0 --threads 2
//! ```

use std::io::{self, Write};
use std::net::SocketAddr;

use clap::Parser;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use tokio::net::TcpListener;

#[path = "support/hyper_routes.rs"]
mod hyper_routes;
use hyper_routes::route;

/// hyper reference server for `scripts/bench-http`.
#[derive(Parser)]
struct Args {
    /// Address to listen on; port 0 picks a free one.
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// Tokio worker threads.
    #[arg(long, default_value_t = 2)]
    threads: usize,
}

async fn serve(listener: TcpListener) -> io::Result<()> {
    loop {
        let (stream, _) = match listener.accept().await {
            Ok(accepted) => accepted,
            // A connection that died in the backlog, or a full fd table:
            // neither should stop the server.
            Err(e) => {
                eprintln!("hyper_reference: accept: {e}");
                continue;
            }
        };
        // Responses go out in one write, but every benchmarked hyper server
        // sets this; leaving it off could only make the peer look worse. A
        // socket that refuses it is served anyway.
        let _ = stream.set_nodelay(true);
        tokio::spawn(async move {
            // Keep-alive is hyper's default; wrk closing its connections at
            // the end of a run shows up here as an error worth ignoring.
            let _ = http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service_fn(route))
                .await;
        });
    }
}

fn main() -> io::Result<()> {
    let args = Args::parse();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(args.threads)
        .enable_io()
        .build()?;
    runtime.block_on(async {
        let listener = TcpListener::bind(args.addr).await?;
        let mut stdout = io::stdout().lock();
        writeln!(stdout, "listening on http://{}", listener.local_addr()?)?;
        stdout.flush()?;
        drop(stdout);
        serve(listener).await
    })
}
