//! Heap allocations of the HTTP server per request in steady state, counted
//! by a wrapping `#[global_allocator]` over every thread of the process.
//!
//! One test function only: the counters are global, and another test running
//! beside it would add its own allocations to them.
#![cfg(any(target_os = "linux", windows))]

#[path = "support/http_server.rs"]
mod http_server;

use std::alloc::System;
use std::io::{Read, Write};
use std::net::TcpStream;

use http_server::Running;
use leanwire_native::http::{Config, Dispatch};
use stats_alloc::{INSTRUMENTED_SYSTEM, Region, StatsAlloc};

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

const REQUESTS: &[u8] =
    b"GET /json HTTP/1.1\r\nHost: t\r\n\r\nGET /plaintext HTTP/1.1\r\nHost: t\r\n\r\n";

/// Sends both requests and reads both responses whole, into `buf`, without
/// allocating. The plaintext response comes last, so its body ends the exchange.
fn round_trip(stream: &mut TcpStream, buf: &mut [u8; 4096]) {
    stream.write_all(REQUESTS).unwrap();
    let mut got = 0;
    while !buf[..got].ends_with(b"\r\n\r\nHello, World!") {
        let n = stream.read(&mut buf[got..]).unwrap();
        assert_ne!(n, 0, "the server closed the connection");
        got += n;
    }
    let text = &buf[..got];
    assert_eq!(
        text.windows(15).filter(|w| w == b"HTTP/1.1 200 OK").count(),
        2
    );
    assert!(
        text.windows(27)
            .any(|w| w == br#"{"message":"Hello, World!"}"#)
    );
}

#[test]
fn a_request_allocates_nothing_in_steady_state() {
    for dispatch in [Dispatch::Inline, Dispatch::Pool] {
        let server = Running::start(Config {
            threads: 2,
            dispatch,
            ..Config::default()
        });
        let mut streams: Vec<TcpStream> = (0..4)
            .map(|_| TcpStream::connect(server.addr).unwrap())
            .collect();
        let mut buf = [0u8; 4096];
        for _ in 0..200 {
            for stream in &mut streams {
                round_trip(stream, &mut buf);
            }
        }
        let region = Region::new(GLOBAL);
        for _ in 0..2_500 {
            for stream in &mut streams {
                round_trip(stream, &mut buf);
            }
        }
        let change = region.change();
        assert_eq!(
            change.allocations + change.reallocations,
            0,
            "20,000 requests with {dispatch:?} dispatch: {change:?}"
        );
        drop(streams);
        server.stop().unwrap();
    }
    a_stopped_server_frees_its_connections_while_a_handle_to_it_lives();
}

/// Part of the one test above, which it shares the counters with.
fn a_stopped_server_frees_its_connections_while_a_handle_to_it_lives() {
    let region = Region::new(GLOBAL);
    let server = Running::start(Config {
        threads: 2,
        ..Config::default()
    });
    let handle = server.shutdown.clone();
    let mut streams: Vec<TcpStream> = (0..4)
        .map(|_| TcpStream::connect(server.addr).unwrap())
        .collect();
    let mut buf = [0u8; 4096];
    for stream in &mut streams {
        round_trip(stream, &mut buf);
    }
    drop(streams);
    server.stop().unwrap();
    let change = region.change();
    // What the handle keeps is the server's wake-up machinery, a few hundred
    // bytes; four connections' buffers would be tens of kilobytes.
    let kept = change.bytes_allocated - change.bytes_deallocated;
    assert!(kept < 1024, "{kept} bytes kept: {change:?}");
    drop(handle);
}
