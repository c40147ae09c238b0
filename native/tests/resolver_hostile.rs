//! `StubResolver` against hostile servers on 127.0.0.1, started by each
//! test on its own threads: servers that trickle, forge, decline, send
//! garbage or say nothing. Every query runs on a thread of its own and is
//! given a few seconds at most, so that a resolver that hangs fails the test
//! instead of stalling it.

use std::io;
use std::net::Ipv4Addr;
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use leanwire_native::core::dns::{RData, Rcode, Rtype};
use leanwire_native::stub::{Response, StubResolver, Transport};

mod support {
    pub mod hostile;
}

use support::hostile::{
    REFUSED, SERVFAIL, Server, answer, cut_short, edns_of, no_qr, other_id, other_name, reply,
};

/// The address the honest servers give.
const REAL: Ipv4Addr = Ipv4Addr::new(192, 0, 2, 1);
/// The address the forgeries give.
const FORGED: Ipv4Addr = Ipv4Addr::new(192, 0, 2, 66);

/// The longest any query here may take before the test gives up on it.
const LIMIT: Duration = Duration::from_secs(10);

/// Runs `resolver.query_sync("example.test", A)` on a thread and waits
/// for it at most [`LIMIT`]; also returns how long it took.
fn query(resolver: StubResolver) -> (io::Result<Response>, Duration) {
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let started = Instant::now();
        let result = resolver.query_sync("example.test", Rtype::A);
        let _ = tx.send((result, started.elapsed()));
    });
    rx.recv_timeout(LIMIT)
        .unwrap_or_else(|_| panic!("the query was still running after {LIMIT:?}"))
}

/// The A records of `response`.
fn addresses(response: &Response) -> Vec<String> {
    let message = response.message().unwrap();
    message
        .answers()
        .filter_map(|r| match r.data() {
            Ok(RData::A(ip)) => Some(ip.to_string()),
            _ => None,
        })
        .collect()
}

#[test]
fn a_trickling_tcp_server_cannot_stretch_the_timeout() {
    // One byte every 0.4 s: each read would finish well within the timeout.
    let trickle = Server::tcp(|q| vec![answer(q, REAL)], Some(Duration::from_millis(400)));
    let resolver = StubResolver::new([trickle.addr()])
        .tcp_only(true)
        .timeout(Duration::from_secs(1))
        .attempts(2);
    let (result, took) = query(resolver);
    let err = result.unwrap_err();
    assert_eq!(err.kind(), io::ErrorKind::TimedOut, "{err}");
    assert_eq!(
        err.to_string(),
        format!("no answer from {} over TCP within 1s", trickle.addr())
    );
    assert!(
        took >= Duration::from_millis(1900) && took < Duration::from_secs(4),
        "{took:?}"
    );
}

#[test]
fn forged_udp_replies_are_ignored_until_the_real_one() {
    let server = Server::udp(|q| {
        vec![
            other_id(answer(q, FORGED)),
            other_name(answer(q, FORGED)),
            // Malformed, but not a response to this query: another ID, or
            // not a response at all.
            other_id(cut_short(answer(q, FORGED))),
            no_qr(cut_short(answer(q, FORGED))),
            answer(q, REAL),
        ]
    });
    let resolver = StubResolver::new([server.addr()]).timeout(Duration::from_secs(2));
    let (result, took) = query(resolver);
    let response = result.unwrap();
    assert_eq!(addresses(&response), [REAL.to_string()]);
    assert_eq!(response.transport(), Transport::Udp);
    assert_eq!(server.queries(), 1);
    assert!(took < Duration::from_secs(1), "{took:?}");
    assert_eq!(response.transport().to_string(), "UDP");
    assert!(response.elapsed() > Duration::ZERO && response.elapsed() <= took);
}

#[test]
fn forged_tcp_replies_are_skipped_until_the_real_one() {
    let server = Server::tcp(
        |q| {
            vec![
                other_id(answer(q, FORGED)),
                other_name(answer(q, FORGED)),
                other_id(cut_short(answer(q, FORGED))),
                no_qr(cut_short(answer(q, FORGED))),
                answer(q, REAL),
            ]
        },
        None,
    );
    let resolver = StubResolver::new([server.addr()])
        .tcp_only(true)
        .timeout(Duration::from_secs(2));
    let (result, took) = query(resolver);
    let response = result.unwrap();
    assert_eq!(addresses(&response), [REAL.to_string()]);
    assert_eq!(response.transport(), Transport::Tcp);
    assert_eq!(server.queries(), 1);
    assert!(took < Duration::from_secs(1), "{took:?}");
    assert_eq!(response.transport().to_string(), "TCP");
    assert!(response.elapsed() > Duration::ZERO && response.elapsed() <= took);
}

/// A server that answers every query with `respond`, then an honest one:
/// the answer must come from the second, at once.
fn moves_on_from(respond: support::hostile::Respond, tcp: bool) {
    let (bad, good) = if tcp {
        (
            Server::tcp(respond, None),
            Server::tcp(|q| vec![answer(q, REAL)], None),
        )
    } else {
        (Server::udp(respond), Server::udp(|q| vec![answer(q, REAL)]))
    };
    let timeout = Duration::from_secs(3);
    let resolver = StubResolver::new([bad.addr(), good.addr()])
        .tcp_only(tcp)
        .timeout(timeout);
    let (result, took) = query(resolver);
    let response = result.unwrap();
    assert_eq!(response.server(), good.addr());
    assert_eq!(addresses(&response), [REAL.to_string()]);
    assert_eq!((bad.queries(), good.queries()), (1, 1));
    assert!(took < timeout / 3, "waited {took:?} for the first server");
}

#[test]
fn servfail_moves_on_to_the_next_server() {
    moves_on_from(|q| vec![reply(q, SERVFAIL, None)], false);
    moves_on_from(|q| vec![reply(q, SERVFAIL, None)], true);
}

#[test]
fn refused_moves_on_to_the_next_server() {
    moves_on_from(|q| vec![reply(q, REFUSED, None)], false);
    moves_on_from(|q| vec![reply(q, REFUSED, None)], true);
}

#[test]
fn garbage_moves_on_to_the_next_server() {
    // Shorter than a header.
    moves_on_from(|_| vec![vec![0xde, 0xad, 0xbe]], false);
    moves_on_from(|_| vec![vec![0xde, 0xad, 0xbe]], true);
    // The query's ID, then a question cut off in the middle.
    moves_on_from(|q| vec![cut_short(answer(q, FORGED))], false);
    moves_on_from(|q| vec![cut_short(answer(q, FORGED))], true);
}

#[test]
fn a_server_that_always_declines_is_asked_each_attempt_and_its_reply_kept() {
    let server = Server::udp(|q| vec![reply(q, SERVFAIL, None)]);
    let resolver = StubResolver::new([server.addr()])
        .timeout(Duration::from_secs(2))
        .attempts(3);
    let (result, took) = query(resolver);
    // With nothing better, the decline is the response, as dig prints it.
    let response = result.unwrap();
    assert_eq!(response.message().unwrap().rcode(), Rcode::ServFail);
    assert_eq!(server.queries(), 3);
    assert!(took < Duration::from_secs(1), "{took:?}");
}

#[test]
fn silence_fails_within_timeout_times_attempts() {
    for tcp in [false, true] {
        let silent = || {
            if tcp {
                Server::tcp(|_| Vec::new(), None)
            } else {
                Server::udp(|_| Vec::new())
            }
        };
        let (first, second) = (silent(), silent());
        let resolver = StubResolver::new([first.addr(), second.addr()])
            .tcp_only(tcp)
            .timeout(Duration::from_millis(300))
            .attempts(2);
        let (result, took) = query(resolver);
        let err = result.unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::TimedOut, "{err}");
        let over = if tcp { " over TCP" } else { "" };
        assert_eq!(
            err.to_string(),
            format!("no answer from {}{over} within 300ms", second.addr())
        );
        // Two attempts at two servers, 300 ms each.
        assert!(
            took >= Duration::from_millis(1150) && took < Duration::from_secs(3),
            "{tcp}: {took:?}"
        );
        assert_eq!((first.queries(), second.queries()), (2, 2), "{tcp}");
    }
}

#[test]
fn a_huge_timeout_does_not_overflow() {
    let server = Server::udp(|q| vec![answer(q, REAL)]);
    for timeout in [Duration::MAX, Duration::from_secs(u64::MAX / 2)] {
        let resolver = StubResolver::new([server.addr()]).timeout(timeout);
        let (result, _) = query(resolver);
        assert_eq!(addresses(&result.unwrap()), [REAL.to_string()]);
    }
}

#[test]
fn queries_ask_for_1232_bytes_with_edns_and_set_do_when_told() {
    // Answers only a query whose OPT asks for 1232 bytes; DO decides the address.
    let server = Server::udp(|q| match edns_of(q) {
        Some((1232, dnssec)) => vec![answer(q, if dnssec { FORGED } else { REAL })],
        _ => vec![reply(q, REFUSED, None)],
    });
    for (dnssec, address) in [(false, REAL), (true, FORGED)] {
        let resolver = StubResolver::new([server.addr()])
            .dnssec(dnssec)
            .timeout(Duration::from_secs(2));
        let response = query(resolver).0.unwrap();
        assert_eq!(addresses(&response), [address.to_string()], "DO {dnssec}");
    }
}

#[test]
fn a_closed_port_is_refused_at_once_over_either_transport() {
    let udp = std::net::UdpSocket::bind((Ipv4Addr::LOCALHOST, 0))
        .and_then(|socket| socket.local_addr())
        .unwrap();
    let tcp = std::net::TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .and_then(|listener| listener.local_addr())
        .unwrap();
    for (server, tcp_only) in [(udp, false), (tcp, true)] {
        let resolver = StubResolver::new([server])
            .tcp_only(tcp_only)
            .timeout(Duration::from_secs(3));
        let (result, took) = query(resolver);
        let err = result.unwrap_err();
        assert_eq!(
            err.kind(),
            io::ErrorKind::ConnectionRefused,
            "TCP only {tcp_only}: {err}"
        );
        assert!(
            took < Duration::from_secs(1),
            "TCP only {tcp_only}: {took:?}"
        );
    }
}
