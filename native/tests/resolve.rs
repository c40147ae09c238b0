//! `leanwire_native::resolve` against the machine's own resolver, with
//! loopback names only: `localhost`, IP literals, and a name under
//! `.invalid` (RFC 6761: never registered) for the not-found path.
//!
//! The allocation counts are in `resolve_allocations.rs`, alone, so that
//! these tests' threads do not disturb them.

use std::future::Future;
use std::io;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::task::{Context, Poll, Wake, Waker};
use std::thread::{self, Thread};
use std::time::{Duration, Instant};

use leanwire_native::resolve::{
    HostEntry, MAX_NAME_LEN, lookup_host, lookup_host_async, lookup_host_entry,
    lookup_host_entry_async, lookup_host_into,
};

/// What no answer can be; fills buffers so an unwritten slot shows.
const SENTINEL: IpAddr = IpAddr::V4(Ipv4Addr::new(192, 0, 2, 255));

const LITERALS: [(&str, IpAddr); 7] = [
    ("127.0.0.1", IpAddr::V4(Ipv4Addr::LOCALHOST)),
    ("192.0.2.7", IpAddr::V4(Ipv4Addr::new(192, 0, 2, 7))),
    ("::1", IpAddr::V6(Ipv6Addr::LOCALHOST)),
    ("[::1]", IpAddr::V6(Ipv6Addr::LOCALHOST)),
    (
        "2001:db8::1",
        IpAddr::V6(Ipv6Addr::new(0x2001, 0xdb8, 0, 0, 0, 0, 0, 1)),
    ),
    (
        "[2001:db8::1]",
        IpAddr::V6(Ipv6Addr::new(0x2001, 0xdb8, 0, 0, 0, 0, 0, 1)),
    ),
    (
        "::ffff:192.0.2.1",
        IpAddr::V6(Ipv6Addr::new(0, 0, 0, 0, 0, 0xffff, 0xc000, 0x0201)),
    ),
];

const UNKNOWN: &str = "nonexistent.invalid";

#[test]
fn ip_literals_answer_exactly_themselves() {
    for (host, ip) in LITERALS {
        let mut buf = [SENTINEL; 3];
        assert_eq!(lookup_host_into(host, &mut buf).unwrap(), 1, "{host}");
        assert_eq!(buf, [ip, SENTINEL, SENTINEL], "{host}");
        assert_eq!(*lookup_host(host).unwrap(), [ip], "{host}");
        assert_eq!(
            *pollster::block_on(lookup_host_async(host)).unwrap(),
            [ip],
            "{host}"
        );
    }
}

#[test]
fn ip_literal_into_an_empty_buffer_still_counts_one() {
    assert_eq!(lookup_host_into("127.0.0.1", &mut []).unwrap(), 1);
    assert_eq!(lookup_host_into("[::1]", &mut []).unwrap(), 1);
}

#[test]
fn ip_literal_entry_is_the_address_without_a_reverse_lookup() {
    for (host, ip) in LITERALS {
        let expected = HostEntry {
            canonical_name: ip.to_string(),
            aliases: Box::new([]),
            addresses: Box::new([ip]),
        };
        assert_eq!(lookup_host_entry(host).unwrap(), expected, "{host}");
        assert_eq!(
            pollster::block_on(lookup_host_entry_async(host)).unwrap(),
            expected,
            "{host}"
        );
    }
}

#[test]
fn ip_literal_future_is_ready_on_the_first_poll() {
    let mut future = lookup_host_async("127.0.0.1");
    let Poll::Ready(answer) = poll_once(&mut future) else {
        panic!("a literal must not wait for the pool");
    };
    assert_eq!(*answer.unwrap(), [IpAddr::V4(Ipv4Addr::LOCALHOST)]);
}

#[test]
fn localhost_is_loopback() {
    let addrs = lookup_host("localhost").unwrap();
    assert!(!addrs.is_empty());
    assert!(addrs.iter().all(IpAddr::is_loopback), "{addrs:?}");
}

#[test]
fn localhost_answer_is_exactly_as_long_as_the_count() {
    let addrs = lookup_host("localhost").unwrap();
    let mut buf = [SENTINEL; 32];
    let n = lookup_host_into("localhost", &mut buf).unwrap();
    assert_eq!(addrs.len(), n);
    assert_eq!(&buf[..n], &*addrs);
    assert!(
        buf[n..].iter().all(|&ip| ip == SENTINEL),
        "wrote past the answer"
    );
}

#[test]
fn localhost_has_no_repeats() {
    let addrs = lookup_host("localhost").unwrap();
    for (i, ip) in addrs.iter().enumerate() {
        assert!(!addrs[..i].contains(ip), "{ip} twice in {addrs:?}");
    }
}

#[test]
fn short_buffer_gets_a_prefix_and_the_full_count() {
    let full = lookup_host("localhost").unwrap();
    assert_eq!(lookup_host_into("localhost", &mut []).unwrap(), full.len());
    let mut one = [SENTINEL];
    assert_eq!(lookup_host_into("localhost", &mut one).unwrap(), full.len());
    assert_eq!(one[0], full[0]);
}

#[test]
fn localhost_entry_has_a_name_and_the_same_addresses() {
    let entry = lookup_host_entry("localhost").unwrap();
    assert!(!entry.canonical_name.is_empty());
    assert!(!entry.canonical_name.contains('\0'));
    assert!(entry.aliases.is_empty(), "getaddrinfo reports no aliases");
    assert_eq!(entry.addresses, lookup_host("localhost").unwrap());
    assert_eq!(
        pollster::block_on(lookup_host_entry_async("localhost")).unwrap(),
        entry
    );
}

#[test]
fn unknown_name_is_an_error_with_a_message() {
    let errors = [
        lookup_host_into(UNKNOWN, &mut [SENTINEL; 4]).err(),
        lookup_host(UNKNOWN).err(),
        lookup_host_entry(UNKNOWN).err(),
        pollster::block_on(lookup_host_async(UNKNOWN)).err(),
        pollster::block_on(lookup_host_entry_async(UNKNOWN)).err(),
    ];
    for err in errors {
        let err = err.expect("`.invalid` names never resolve");
        assert!(!err.to_string().is_empty());
        assert_ne!(err.kind(), io::ErrorKind::InvalidInput, "{err}");
    }
}

#[test]
fn unknown_name_is_not_found_naming_the_host() {
    let err = lookup_host(UNKNOWN).unwrap_err();
    // A sandbox whose DNS server does not answer gives a temporary failure
    // instead; either way the resolver's text names the host.
    assert!(
        matches!(
            err.kind(),
            io::ErrorKind::NotFound | io::ErrorKind::WouldBlock
        ),
        "{:?}: {err}",
        err.kind()
    );
    assert!(err.to_string().contains(UNKNOWN), "{err}");
}

#[test]
fn async_equals_sync() {
    assert_eq!(
        pollster::block_on(lookup_host_async("localhost")).unwrap(),
        lookup_host("localhost").unwrap()
    );
}

#[test]
fn many_concurrent_futures_on_one_thread_all_finish() {
    let expected = localhost_without_the_pool();
    let futures = (0..32).map(|_| lookup_host_async("localhost")).collect();
    for answer in join_all(futures) {
        assert_eq!(answer.unwrap(), expected);
    }
}

#[test]
fn sync_lookup_on_a_fresh_thread_returns() {
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || tx.send(lookup_host("localhost").map_err(|e| e.to_string())));
    let answer = rx
        .recv_timeout(Duration::from_secs(30))
        .expect("lookup_host never returned");
    assert_eq!(*answer.unwrap(), *localhost_without_the_pool());
}

#[test]
fn concurrent_lookups_from_many_threads_all_finish() {
    let expected = localhost_without_the_pool();
    let threads: Vec<_> = (0..32)
        .map(|i| {
            thread::spawn(move || match i % 3 {
                0 => pollster::block_on(lookup_host_async("localhost")),
                1 => lookup_host("localhost"),
                _ => lookup_host_entry("localhost").map(|entry| entry.addresses),
            })
        })
        .collect();
    for thread in threads {
        assert_eq!(thread.join().unwrap().unwrap(), expected);
    }
}

#[test]
fn dropped_future_does_not_stall_the_pool() {
    for _ in 0..16 {
        let mut future = lookup_host_async("localhost");
        let _ = poll_once(&mut future);
        drop(future);
    }
    assert!(!lookup_host("localhost").unwrap().is_empty());
}

#[test]
fn future_polled_after_completion_errs_instead_of_panicking() {
    for host in ["127.0.0.1", "localhost", ""] {
        let mut future = lookup_host_async(host);
        let _ = pollster::block_on(&mut future);
        let Poll::Ready(again) = poll_once(&mut future) else {
            panic!("a finished future must stay finished");
        };
        assert_eq!(again.unwrap_err().kind(), io::ErrorKind::Other);
    }
}

#[test]
fn invalid_hosts_are_invalid_input_everywhere() {
    let too_long = "a".repeat(MAX_NAME_LEN + 1);
    let too_long_with_dot = format!("{too_long}.");
    let cases: [(&str, &str); 6] = [
        ("", "empty"),
        ("local\0host", "NUL"),
        ("\0", "NUL"),
        (&too_long, "253"),
        (&too_long_with_dot, "253"),
        ("[127.0.0.1]", "IPv6"),
    ];
    for (host, says) in cases {
        let errors = [
            lookup_host_into(host, &mut [SENTINEL; 2]).unwrap_err(),
            lookup_host(host).unwrap_err(),
            lookup_host_entry(host).unwrap_err(),
            pollster::block_on(lookup_host_async(host)).unwrap_err(),
            pollster::block_on(lookup_host_entry_async(host)).unwrap_err(),
        ];
        for err in errors {
            assert_eq!(err.kind(), io::ErrorKind::InvalidInput, "{host:?}: {err}");
            assert!(err.to_string().contains(says), "{host:?}: {err}");
        }
    }
}

#[test]
fn longest_name_reaches_the_resolver() {
    // 253 bytes in labels of at most 63, under `.invalid`: valid as a name,
    // so the resolver answers (not found), not our length check.
    let mut name = String::new();
    while name.len() + 64 + ".invalid".len() <= MAX_NAME_LEN {
        name.push_str(&"a".repeat(63));
        name.push('.');
    }
    let rest = MAX_NAME_LEN - name.len() - ".invalid".len();
    name.push_str(&"b".repeat(rest));
    name.push_str(".invalid");
    assert_eq!(name.len(), MAX_NAME_LEN);
    for host in [name.clone(), format!("{name}.")] {
        let err = lookup_host(&host).unwrap_err();
        assert_ne!(err.kind(), io::ErrorKind::InvalidInput, "{err}");
    }
}

#[test]
fn futures_and_entries_are_debug() {
    let future = lookup_host_async("localhost");
    assert_eq!(format!("{future:?}"), "LookupHost(Name)");
    let future = lookup_host_entry_async("");
    assert_eq!(format!("{future:?}"), "LookupHostEntry(Invalid)");
}

/// `localhost`'s answer from the blocking call that does not use the pool.
fn localhost_without_the_pool() -> Box<[IpAddr]> {
    let mut buf = [SENTINEL; 32];
    let n = lookup_host_into("localhost", &mut buf).unwrap();
    buf[..n].into()
}

/// Polls once with a waker that does nothing.
fn poll_once<F: Future + Unpin>(future: &mut F) -> Poll<F::Output> {
    Pin::new(future).poll(&mut Context::from_waker(Waker::noop()))
}

/// Wakes the thread that runs [`join_all`], and says that it did.
struct Unpark {
    thread: Thread,
    woken: AtomicBool,
}

impl Wake for Unpark {
    fn wake(self: Arc<Self>) {
        self.woken.store(true, Ordering::SeqCst);
        self.thread.unpark();
    }
}

/// A tiny executor: polls every future on this thread until all are done,
/// sleeping between rounds until a waker is called. A lost wake-up fails the
/// test at the deadline instead of hanging it.
fn join_all<F: Future + Unpin>(mut futures: Vec<F>) -> Vec<F::Output> {
    let unpark = Arc::new(Unpark {
        thread: thread::current(),
        woken: AtomicBool::new(false),
    });
    let waker = Waker::from(Arc::clone(&unpark));
    let mut cx = Context::from_waker(&waker);
    let mut outputs: Vec<Option<F::Output>> = futures.iter().map(|_| None).collect();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        for (future, output) in futures.iter_mut().zip(&mut outputs) {
            if output.is_none()
                && let Poll::Ready(out) = Pin::new(future).poll(&mut cx)
            {
                *output = Some(out);
            }
        }
        if outputs.iter().all(Option::is_some) {
            return outputs.into_iter().map(Option::unwrap).collect();
        }
        // Sleep until a waker is called; `park` may also return spuriously.
        while !unpark.woken.swap(false, Ordering::SeqCst) {
            let left = deadline.saturating_duration_since(Instant::now());
            assert!(!left.is_zero(), "a pending lookup never woke its task");
            thread::park_timeout(left);
        }
    }
}
