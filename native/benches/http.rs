//! HTTP/1.1 requests without sockets: leanwire's `http::Session` next to
//! hyper 1's server connection, on the same request bytes.
//!
//! | op | leanwire | peer |
//! |---|---|---|
//! | plaintext | `GET /plaintext` into a `Session`: parse, `HelloWorld`, response out | the same request through `hyper::server::conn::http1` over an in-memory `tokio::io::duplex`, on a current-thread runtime |
//! | json | `GET /json`, the body serialised by serde_json per request | the same, with `examples/support/hyper_routes.rs` |
//! | pipelined | 16 requests in one read, `/plaintext` and `/json` in turn | the same 16 in one write |
//!
//! This is the HTTP layer alone, the user-space part of a request that
//! `scripts/bench-http` measures over loopback TCP. hyper cannot be driven
//! without an async runtime, so its side includes the wake-ups of a tokio
//! task through the duplex pipe: what hyper costs per request when
//! everything below it is free. A current-thread runtime keeps all of it on
//! the benchmark's thread, where divan counts the allocations. Before
//! anything is timed, `main` checks that both sides answer every op with
//! the same statuses and bodies.
//!
//! `scripts/bench` runs this and turns divan's output into `BENCHMARKS.md`.

use divan::{AllocProfiler, Bencher};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use leanwire_native::http::{DATE_LEN, HelloWorld, Session};
use tokio::io::{AsyncReadExt, AsyncWriteExt, DuplexStream};
use tokio::runtime::Runtime;

#[path = "../examples/support/hyper_routes.rs"]
mod hyper_routes;

#[global_allocator]
static ALLOC: AllocProfiler = AllocProfiler::system();

const DATE: &[u8; DATE_LEN] = b"Sun, 06 Nov 1994 08:49:37 GMT";
const PLAINTEXT: &[u8] = b"GET /plaintext HTTP/1.1\r\nHost: bench\r\n\r\n";
const JSON: &[u8] = b"GET /json HTTP/1.1\r\nHost: bench\r\n\r\n";

/// 16 requests, `/plaintext` and `/json` in turn, as one read.
fn pipelined() -> Vec<u8> {
    (0..16)
        .flat_map(|i| if i % 2 == 0 { PLAINTEXT } else { JSON })
        .copied()
        .collect()
}

fn main() {
    for request in [PLAINTEXT.to_vec(), JSON.to_vec(), pipelined()] {
        let ours = answers(leanwire_exchange(&mut Session::new(), &request));
        let mut hyper = Hyper::new(&request);
        let theirs = answers(hyper.exchange(&request));
        assert_eq!(ours, theirs, "leanwire and hyper answer differently");
        assert!(ours.iter().all(|(status, _)| *status == 200));
    }
    divan::main();
}

/// Puts `request` into `session` as one read and returns the responses; the
/// previous call's responses count as sent.
fn leanwire_exchange<'s>(session: &'s mut Session, request: &[u8]) -> &'s [u8] {
    let sent = session.pending().len();
    session.sent(sent);
    session.read_buf()[..request.len()].copy_from_slice(request);
    session.received(request.len());
    session.process(&HelloWorld, DATE);
    session.pending()
}

/// The (status, body) of each response in `bytes`.
fn answers(mut bytes: &[u8]) -> Vec<(u16, Vec<u8>)> {
    let mut answers = Vec::new();
    while !bytes.is_empty() {
        let (status, head, length) = response_head(bytes).expect("a whole response");
        answers.push((status, bytes[head..head + length].to_vec()));
        bytes = &bytes[head + length..];
    }
    answers
}

/// The status, head length and body length of the response at the start of
/// `bytes`, if its head is all there.
fn response_head(bytes: &[u8]) -> Option<(u16, usize, usize)> {
    let mut headers = [httparse::EMPTY_HEADER; 16];
    let mut response = httparse::Response::new(&mut headers);
    let httparse::Status::Complete(head) = response.parse(bytes).ok()? else {
        return None;
    };
    let length = response
        .headers
        .iter()
        .find(|h| h.name.eq_ignore_ascii_case("content-length"))
        .and_then(|h| std::str::from_utf8(h.value).ok()?.parse().ok())?;
    Some((response.code?, head, length))
}

/// A hyper HTTP/1 connection served on a current-thread runtime, with the
/// client's end of its in-memory pipe.
struct Hyper {
    runtime: Runtime,
    client: DuplexStream,
    /// The bytes of the responses to one request batch (they have a fixed
    /// length: even the Date header's is fixed).
    response_len: usize,
    buf: Vec<u8>,
}

impl Hyper {
    /// Starts the connection and learns the responses' length from one exchange of `request`.
    fn new(request: &[u8]) -> Hyper {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let (client, server) = tokio::io::duplex(64 * 1024);
        runtime.spawn(async move {
            let _ = http1::Builder::new()
                .serve_connection(TokioIo::new(server), service_fn(hyper_routes::route))
                .await;
        });
        let expected = answers(leanwire_exchange(&mut Session::new(), request)).len();
        let mut hyper = Hyper {
            runtime,
            client,
            response_len: 0,
            buf: vec![0; 64 * 1024],
        };
        let mut got = Vec::new();
        hyper.runtime.block_on(async {
            hyper.client.write_all(request).await.unwrap();
            while complete(&got) < expected {
                let n = hyper.client.read(&mut hyper.buf).await.unwrap();
                assert_ne!(n, 0, "hyper closed the connection");
                got.extend_from_slice(&hyper.buf[..n]);
            }
        });
        hyper.response_len = got.len();
        hyper
    }

    /// Writes `request` and reads its responses.
    fn exchange(&mut self, request: &[u8]) -> &[u8] {
        let Hyper {
            runtime,
            client,
            response_len,
            buf,
        } = self;
        runtime.block_on(async {
            client.write_all(request).await.unwrap();
            client.read_exact(&mut buf[..*response_len]).await.unwrap();
        });
        &buf[..*response_len]
    }
}

/// How many whole responses `bytes` holds.
fn complete(mut bytes: &[u8]) -> usize {
    let mut count = 0;
    while let Some((_, head, length)) = response_head(bytes) {
        if bytes.len() < head + length {
            break;
        }
        bytes = &bytes[head + length..];
        count += 1;
    }
    count
}

fn bench_leanwire(bencher: Bencher, request: &[u8]) {
    let mut session = Session::new();
    bencher.bench_local(|| leanwire_exchange(&mut session, divan::black_box(request)).len());
}

fn bench_peer(bencher: Bencher, request: &[u8]) {
    let mut hyper = Hyper::new(request);
    bencher.bench_local(|| hyper.exchange(divan::black_box(request)).len());
}

mod plaintext {
    use super::*;

    #[divan::bench]
    fn leanwire(bencher: Bencher) {
        bench_leanwire(bencher, PLAINTEXT);
    }

    #[divan::bench]
    fn peer(bencher: Bencher) {
        bench_peer(bencher, PLAINTEXT);
    }
}

mod json {
    use super::*;

    #[divan::bench]
    fn leanwire(bencher: Bencher) {
        bench_leanwire(bencher, JSON);
    }

    #[divan::bench]
    fn peer(bencher: Bencher) {
        bench_peer(bencher, JSON);
    }
}

mod pipelined {
    use super::*;

    #[divan::bench]
    fn leanwire(bencher: Bencher) {
        bench_leanwire(bencher, &pipelined());
    }

    #[divan::bench]
    fn peer(bencher: Bencher) {
        bench_peer(bencher, &pipelined());
    }
}
