//! The HTTP server over real sockets on 127.0.0.1: keep-alive, pipelining,
//! both dispatch modes, and how it holds up against bad or slow clients,
//! crowds, and shutdown.
#![cfg(any(target_os = "linux", windows))]

#[path = "support/http_client.rs"]
mod http_client;
#[path = "support/http_server.rs"]
mod http_server;
#[path = "support/slow_reader.rs"]
mod slow_reader;

use std::io::{ErrorKind, Read, Write};
use std::net::TcpStream;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use http_client::Client;
use http_server::Running;
use leanwire_native::http::{Config, Dispatch, HelloWorld, Request, Response};
use slow_reader::SlowReader;
#[cfg(target_os = "linux")]
use slow_reader::{send_queue_limit, settled_send_queue};

fn config(dispatch: Dispatch) -> Config {
    Config {
        threads: 2,
        dispatch,
        ..Config::default()
    }
}

#[test]
fn keep_alive_serves_both_routes_and_404_in_either_dispatch_mode() {
    for dispatch in [Dispatch::Inline, Dispatch::Pool] {
        let server = Running::start(config(dispatch));
        let mut client = Client::connect(server.addr);
        for _ in 0..100 {
            let json = client.get("/json");
            assert_eq!(
                (json.status, &json.body[..]),
                (200, &br#"{"message":"Hello, World!"}"#[..])
            );
            let plain = client.get("/plaintext");
            assert_eq!(
                (plain.status, &plain.body[..]),
                (200, &b"Hello, World!"[..])
            );
            assert_eq!(client.get("/other").status, 404);
        }
        server.stop().unwrap();
    }
}

#[test]
fn pipelined_requests_come_back_in_order() {
    let server = Running::start(config(Dispatch::Inline));
    let mut client = Client::connect(server.addr);
    let mut batch = Vec::new();
    for i in 0..300 {
        let path = ["/json", "/plaintext", "/nope"][i % 3];
        batch.extend_from_slice(format!("GET {path} HTTP/1.1\r\n\r\n").as_bytes());
    }
    client.send(&batch);
    for i in 0..300 {
        let reply = client.reply().unwrap().unwrap();
        assert_eq!(reply.status, [200, 200, 404][i % 3], "response {i}");
    }
}

#[test]
fn a_malformed_request_gets_400_and_the_connection_is_closed() {
    let server = Running::start(config(Dispatch::Inline));
    let mut client = Client::connect(server.addr);
    client.send(b"GET /json HTTP/1.1\r\nno colon here\r\n\r\n");
    let reply = client.reply().unwrap().unwrap();
    assert_eq!(reply.status, 400);
    assert_eq!(reply.connection.as_deref(), Some("close"));
    assert!(client.closed_by_server());
    // The server goes on serving others.
    assert_eq!(Client::connect(server.addr).get("/json").status, 200);
}

#[test]
fn headers_over_8_kib_get_431() {
    let server = Running::start(config(Dispatch::Inline));
    let mut client = Client::connect(server.addr);
    let mut request = b"GET /json HTTP/1.1\r\nX-Filler: ".to_vec();
    request.resize(12 * 1024, b'a');
    request.extend_from_slice(b"\r\n\r\n");
    client.send(&request);
    let reply = client.reply().unwrap().unwrap();
    assert_eq!(reply.status, 431);
    assert!(client.closed_by_server());
}

#[test]
fn a_slow_client_times_out_without_delaying_others() {
    let server = Running::start(Config {
        header_timeout: Duration::from_secs(3),
        ..config(Dispatch::Inline)
    });
    let mut slow = Client::connect(server.addr);
    slow.send(b"GET /json HTTP/1.1\r\n");
    let dribbler = {
        let mut stream = slow.stream.try_clone().unwrap();
        thread::spawn(move || {
            use std::io::Write;
            // One header byte every 50 ms, never finishing, until the server hangs up.
            while stream.write_all(b"a").is_ok() {
                thread::sleep(Duration::from_millis(50));
            }
        })
    };
    let started = Instant::now();
    let mut fast = Client::connect(server.addr);
    for _ in 0..200 {
        assert_eq!(fast.get("/plaintext").status, 200);
    }
    // All 200 were served while the slow request was still waiting.
    slow.stream.set_nonblocking(true).unwrap();
    let mut probe = [0u8; 1];
    assert_eq!(
        slow.stream.read(&mut probe).unwrap_err().kind(),
        ErrorKind::WouldBlock,
        "the slow client was answered before its timeout"
    );
    slow.stream.set_nonblocking(false).unwrap();
    let reply = slow.reply().unwrap().unwrap();
    assert_eq!(reply.status, 408);
    assert!(
        started.elapsed() >= Duration::from_secs(3),
        "timed out early"
    );
    dribbler.join().unwrap();
}

#[test]
fn a_thousand_concurrent_connections_are_all_served() {
    for dispatch in [Dispatch::Inline, Dispatch::Pool] {
        let server = Running::start(config(dispatch));
        let mut clients: Vec<Client> = (0..1000).map(|_| Client::connect(server.addr)).collect();
        for client in &mut clients {
            client.send(b"GET /plaintext HTTP/1.1\r\n\r\n");
        }
        for (i, client) in clients.iter_mut().enumerate() {
            let reply = client
                .reply()
                .unwrap()
                .unwrap_or_else(|| panic!("connection {i} closed"));
            assert_eq!(
                (reply.status, &reply.body[..]),
                (200, &b"Hello, World!"[..]),
                "connection {i}"
            );
        }
        // Each stays open for another request.
        for client in clients.iter_mut().step_by(97) {
            assert_eq!(client.get("/json").status, 200);
        }
        drop(clients);
        server.stop().unwrap();
    }
}

#[test]
fn the_connection_limit_is_enforced_and_freed_places_are_reused() {
    let server = Running::start(Config {
        max_connections: 4,
        ..config(Dispatch::Inline)
    });
    let mut admitted: Vec<Client> = (0..4).map(|_| Client::connect(server.addr)).collect();
    for client in &mut admitted {
        assert_eq!(client.get("/json").status, 200);
    }
    let mut refused = Client::connect(server.addr);
    match refused.reply() {
        Ok(Some(reply)) => {
            assert_eq!(reply.status, 503);
            assert_eq!(reply.connection.as_deref(), Some("close"));
        }
        other => panic!("the fifth connection was not answered 503: {other:?}"),
    }
    // Closing one admitted connection frees its place.
    drop(admitted.pop());
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let mut next = Client::connect(server.addr);
        next.send(b"GET /json HTTP/1.1\r\n\r\n");
        match next.reply() {
            Ok(Some(reply)) if reply.status == 200 => break,
            Ok(Some(reply)) if reply.status == 503 && Instant::now() < deadline => {
                thread::sleep(Duration::from_millis(20));
            }
            other => panic!("a freed place was not reused: {other:?}"),
        }
    }
}

#[test]
fn shutdown_finishes_requests_in_flight_and_refuses_new_ones() {
    for (threads, dispatch) in [
        (2, Dispatch::Inline),
        (2, Dispatch::Pool),
        (1, Dispatch::Inline),
    ] {
        let server = Running::start(Config {
            threads,
            ..config(dispatch)
        });
        let mut in_flight = Client::connect(server.addr);
        assert_eq!(in_flight.get("/json").status, 200);
        in_flight.send(b"GET /plaintext HTTP/1.1\r\nHost: t");
        let mut idle = Client::connect(server.addr);
        assert_eq!(idle.get("/json").status, 200);

        server.shutdown.shutdown();
        // Once the listeners are closed, the shutdown has begun.
        let deadline = Instant::now() + Duration::from_secs(5);
        while TcpStream::connect(server.addr).is_ok() {
            assert!(Instant::now() < deadline, "still accepting after shutdown");
            thread::sleep(Duration::from_millis(10));
        }
        assert!(idle.closed_by_server(), "an idle connection stays open");
        in_flight.send(b"\r\n\r\n");
        let reply = in_flight.reply().unwrap().unwrap();
        assert_eq!(
            (reply.status, &reply.body[..]),
            (200, &b"Hello, World!"[..])
        );
        assert_eq!(reply.connection.as_deref(), Some("close"));
        assert!(in_flight.closed_by_server());
        server.stop().unwrap();
    }
}

#[test]
fn clients_that_never_read_are_closed_after_the_send_timeout() {
    for dispatch in [Dispatch::Inline, Dispatch::Pool] {
        let server = Running::start(Config {
            threads: 1,
            max_connections: 4,
            send_timeout: Duration::from_millis(400),
            ..config(dispatch)
        });
        let slow: Vec<_> = (0..4).map(|_| SlowReader::connect(server.addr)).collect();
        // Every place is taken by a slow reader until the send timeout frees it.
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let mut client = Client::connect(server.addr);
            if client.get("/plaintext").status == 200 {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "slow readers still hold every place"
            );
            thread::sleep(Duration::from_millis(100));
        }
        for reader in &slow {
            while !reader.is_closed() {
                assert!(Instant::now() < deadline, "a slow reader was not closed");
                thread::sleep(Duration::from_millis(50));
            }
        }
        server.stop().unwrap();
    }
}

#[test]
fn a_small_send_buffer_loses_no_answer() {
    let server = Running::start(Config {
        send_buffer: Some(4096),
        ..config(Dispatch::Inline)
    });
    let mut client = Client::connect(server.addr);
    let mut writer = client.stream.try_clone().unwrap();
    // Far more answers than the send buffer holds, so most writes are short.
    let requests = 2000;
    let pipeliner = thread::spawn(move || {
        writer
            .write_all(&b"GET /plaintext HTTP/1.1\r\n\r\n".repeat(requests))
            .unwrap();
    });
    for i in 0..requests {
        let reply = client.reply().unwrap().expect("a reply");
        assert_eq!(
            (reply.status, &reply.body[..]),
            (200, &b"Hello, World!"[..]),
            "answer {i}"
        );
    }
    pipeliner.join().unwrap();
    server.stop().unwrap();
}

/// What the kernel holds to send to one client that pipelines requests and
/// never reads, once it stops growing.
#[cfg(target_os = "linux")]
fn queued_for_a_slow_reader(send_buffer: Option<usize>) -> usize {
    let server = Running::start(Config {
        threads: 1,
        send_buffer,
        ..config(Dispatch::Inline)
    });
    let slow = SlowReader::connect(server.addr);
    let queued = settled_send_queue(server.addr);
    drop(slow);
    server.stop().unwrap();
    queued
}

#[cfg(target_os = "linux")]
#[test]
fn the_send_buffer_bounds_what_the_kernel_holds_for_a_client_that_never_reads() {
    const SEND_BUFFER: usize = 32 * 1024;
    let bounded = queued_for_a_slow_reader(Some(SEND_BUFFER));
    assert!(
        bounded <= send_queue_limit(SEND_BUFFER),
        "{bounded} bytes queued"
    );
    // Left to the OS, the queue grows far past that.
    let unbounded = queued_for_a_slow_reader(None);
    assert!(
        unbounded > 4 * send_queue_limit(SEND_BUFFER),
        "{unbounded} bytes queued"
    );
}

#[test]
fn head_is_answered_like_get_without_a_body() {
    let server = Running::start(config(Dispatch::Inline));
    let mut client = Client::connect(server.addr);
    client.send(b"HEAD /plaintext HTTP/1.1\r\n\r\nGET /plaintext HTTP/1.1\r\n\r\n");
    let mut response = vec![0; 4096];
    let mut got = Vec::new();
    while got.windows(13).filter(|w| w == b"Hello, World!").count() == 0 {
        let n = client.stream.read(&mut response).unwrap();
        assert!(n > 0, "closed early: {}", String::from_utf8_lossy(&got));
        got.extend_from_slice(&response[..n]);
    }
    let text = String::from_utf8(got).unwrap();
    let (head, get) = text.split_once("\r\n\r\n").unwrap();
    assert!(head.starts_with("HTTP/1.1 200 OK\r\n"), "{head}");
    assert!(head.contains("Content-Length: 13"), "{head}");
    assert!(get.starts_with("HTTP/1.1 200 OK\r\n"), "{get}");
    assert!(get.ends_with("\r\n\r\nHello, World!"), "{get}");
}

#[test]
fn a_handler_that_panics_gets_500_and_the_worker_serves_on() {
    let handler = |request: &Request<'_>, response: &mut Response<'_>| {
        if request.path() == "/panic" {
            panic!("handler failure under test");
        }
        leanwire_native::http::Handler::handle(&HelloWorld, request, response);
    };
    for dispatch in [Dispatch::Inline, Dispatch::Pool] {
        let server = Running::with_handler(
            Config {
                threads: 1,
                ..config(dispatch)
            },
            handler,
        );
        for _ in 0..3 {
            let mut client = Client::connect(server.addr);
            let reply = client.get("/panic");
            assert_eq!(reply.status, 500);
            assert!(client.closed_by_server());
            assert_eq!(Client::connect(server.addr).get("/json").status, 200);
        }
        server.stop().unwrap();
    }
}

#[test]
fn while_a_handler_holds_one_worker_the_other_serves_every_connection() {
    let gate = Arc::new((Mutex::new(false), Condvar::new()));
    let entered = Arc::new(AtomicBool::new(false));
    let handler = {
        let (gate, entered) = (Arc::clone(&gate), Arc::clone(&entered));
        move |request: &Request<'_>, response: &mut Response<'_>| {
            if request.path() == "/hold" {
                entered.store(true, Ordering::SeqCst);
                let (open, opened) = &*gate;
                // Bounded, so that a failing test still ends.
                let _ = opened
                    .wait_timeout_while(open.lock().unwrap(), Duration::from_secs(30), |open| {
                        !*open
                    })
                    .unwrap();
            }
            leanwire_native::http::Handler::handle(&HelloWorld, request, response);
        }
    };
    let server = Running::with_handler(config(Dispatch::Inline), handler);
    // Accepted before the hold, by either worker.
    let mut clients: Vec<Client> = (0..8).map(|_| Client::connect(server.addr)).collect();
    for client in &mut clients {
        assert_eq!(client.get("/plaintext").status, 200);
    }
    let mut held = Client::connect(server.addr);
    held.send(b"GET /hold HTTP/1.1\r\nHost: test\r\n\r\n");
    let deadline = Instant::now() + Duration::from_secs(10);
    while !entered.load(Ordering::SeqCst) {
        assert!(
            Instant::now() < deadline,
            "the held request never reached its handler"
        );
        thread::sleep(Duration::from_millis(1));
    }
    // One worker is held: the other answers the connections either of
    // them accepted, and accepts new ones. Each reply must come within the
    // client's 10 s read timeout, well before the handler lets go.
    for client in &mut clients {
        assert_eq!(client.get("/plaintext").status, 200);
    }
    for _ in 0..8 {
        assert_eq!(Client::connect(server.addr).get("/json").status, 200);
    }
    *gate.0.lock().unwrap() = true;
    gate.1.notify_all();
    // `HelloWorld` knows no `/hold`.
    assert_eq!(held.reply().unwrap().expect("the held reply").status, 404);
    server.stop().unwrap();
}

#[test]
fn inline_answers_on_the_receiving_thread_and_pool_on_a_pool_thread_for_every_request() {
    fn thread_name(_: &Request<'_>, response: &mut Response<'_>) {
        let name = thread::current().name().unwrap_or("").to_owned();
        response.body().extend_from_slice(name.as_bytes());
    }
    for (dispatch, prefix) in [
        (Dispatch::Inline, "leanwire-http-"),
        (Dispatch::Pool, "leanwire-http-pool-"),
    ] {
        let server = Running::with_handler(config(dispatch), thread_name);
        let mut client = Client::connect(server.addr);
        let mut names = Vec::new();
        for _ in 0..20 {
            names.push(client.get("/").body);
        }
        // Pipelined: each of the requests that arrive together is handed over too.
        client.send(&b"GET / HTTP/1.1\r\nHost: t\r\n\r\n".repeat(40));
        for _ in 0..40 {
            names.push(client.reply().unwrap().expect("a reply").body);
        }
        for name in &names {
            let name = String::from_utf8_lossy(name);
            let pooled = name.starts_with("leanwire-http-pool-");
            assert!(
                name.starts_with(prefix) && pooled == (dispatch == Dispatch::Pool),
                "{dispatch:?} ran a handler on {name:?}"
            );
        }
        server.stop().unwrap();
    }
}

/// The length of `body` and the sum of its bytes.
fn summary(body: &[u8]) -> String {
    let sum: u64 = body.iter().map(|&b| u64::from(b)).sum();
    format!("{} {sum}", body.len())
}

/// Answers with the [`summary`] of the request's body.
fn body_summary(request: &Request<'_>, response: &mut Response<'_>) {
    response
        .body()
        .extend_from_slice(summary(request.body()).as_bytes());
}

#[test]
fn a_body_larger_than_a_read_sent_at_once_is_read_whole() {
    // Sent in one write, so most of it waits in the kernel before the
    // server's first read, which fills the server's buffer: the server
    // must read on rather than wait for input that already came.
    let body: Vec<u8> = (0..512 * 1024).map(|i: u32| (i % 251) as u8).collect();
    for dispatch in [Dispatch::Inline, Dispatch::Pool] {
        let server = Running::with_handler(
            Config {
                header_timeout: Duration::from_secs(3),
                ..config(dispatch)
            },
            body_summary,
        );
        let mut client = Client::connect(server.addr);
        let mut request = format!(
            "POST /upload HTTP/1.1\r\nHost: t\r\nContent-Length: {}\r\n\r\n",
            body.len()
        )
        .into_bytes();
        request.extend_from_slice(&body);
        for round in 0..3 {
            client.send(&request);
            let reply = client.reply().unwrap().unwrap();
            assert_eq!(reply.status, 200, "{dispatch:?} round {round}");
            assert_eq!(String::from_utf8(reply.body).unwrap(), summary(&body));
        }
        drop(client);
        server.stop().unwrap();
    }
}

#[test]
fn a_connection_idle_across_sweeps_is_served_again() {
    // A 100 ms header timeout makes the workers sweep every 25 ms.
    let server = Running::start(Config {
        header_timeout: Duration::from_millis(100),
        ..config(Dispatch::Inline)
    });
    let mut client = Client::connect(server.addr);
    for _ in 0..3 {
        assert_eq!(client.get("/plaintext").status, 200);
        thread::sleep(Duration::from_millis(300));
    }
    server.stop().unwrap();
}

#[test]
fn a_request_that_stops_arriving_is_answered_408() {
    // Nothing more comes after the first line: only the sweep can see the
    // deadline pass, and it must answer as well as notice.
    for dispatch in [Dispatch::Inline, Dispatch::Pool] {
        let server = Running::start(Config {
            header_timeout: Duration::from_millis(200),
            ..config(dispatch)
        });
        let mut client = Client::connect(server.addr);
        client.send(b"GET /json HTTP/1.1\r\nHost: t");
        let reply = client.reply().unwrap().unwrap();
        assert_eq!(reply.status, 408, "{dispatch:?}");
        assert!(client.closed_by_server());
        server.stop().unwrap();
    }
}
