//! Heap allocations of `leanwire_native::resolve`, counted by a wrapping
//! `#[global_allocator]`.
//!
//! One `#[test]` only: the counters are global, and another test running
//! beside it would add its own allocations to them.
//!
//! This counts Rust's allocator. The OS resolver's own `malloc` calls (glibc's
//! `getaddrinfo` makes some for a name) do not go through it and are not
//! counted; for IP literals the resolver is never called at all.

use std::alloc::System;
use std::future::Future;
use std::mem;
use std::net::{IpAddr, Ipv4Addr};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};
use std::thread::{self, Thread};

use leanwire_native::resolve::{lookup_host, lookup_host_async, lookup_host_into};
use stats_alloc::{INSTRUMENTED_SYSTEM, Region, StatsAlloc};

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

const LITERALS: [&str; 5] = ["127.0.0.1", "::1", "[::1]", "2001:db8::1", "[2001:db8::1]"];

#[test]
fn literals_touch_the_heap_only_for_a_boxed_answer() {
    let mut buf = [IpAddr::V4(Ipv4Addr::UNSPECIFIED); 4];
    // Warm up anything lazy (the pool, the resolver's files) before counting.
    lookup_host_into("localhost", &mut buf).unwrap();
    drop(lookup_host("localhost").unwrap());

    // `lookup_host_into` of a literal: nothing.
    for host in LITERALS {
        let region = Region::new(GLOBAL);
        let n = lookup_host_into(host, &mut buf).unwrap();
        let change = region.change();
        assert_eq!(n, 1, "{host}");
        assert_eq!(
            change.allocations + change.reallocations,
            0,
            "{host}: {change:?}"
        );
    }

    // `lookup_host` of a literal: the one-element answer and nothing else.
    for host in LITERALS {
        let region = Region::new(GLOBAL);
        let addrs = lookup_host(host).unwrap();
        let change = region.change();
        assert_eq!(addrs.len(), 1, "{host}");
        assert_eq!(change.allocations, 1, "{host}: {change:?}");
        assert_eq!(change.reallocations, 0, "{host}: {change:?}");
        assert_eq!(
            change.bytes_allocated,
            mem::size_of::<IpAddr>(),
            "{host}: {change:?}"
        );
        drop(addrs);
    }

    // The future of a literal: ready on the first poll, with only its answer.
    let region = Region::new(GLOBAL);
    let mut future = lookup_host_async("127.0.0.1");
    let Poll::Ready(Ok(addrs)) =
        Pin::new(&mut future).poll(&mut Context::from_waker(Waker::noop()))
    else {
        panic!("a literal must be ready on the first poll");
    };
    let change = region.change();
    assert_eq!(change.allocations, 1, "{change:?}");
    drop(addrs);

    // `lookup_host_into` of a name: no heap of ours either (see the top).
    let region = Region::new(GLOBAL);
    let n = lookup_host_into("localhost", &mut buf).unwrap();
    let change = region.change();
    assert!(n >= 1);
    assert_eq!(
        change.allocations + change.reallocations,
        0,
        "localhost: {change:?}"
    );

    // `lookup_host` of a name: the answer, one allocation of exactly its
    // length, and nothing else.
    let region = Region::new(GLOBAL);
    let addrs = lookup_host("localhost").unwrap();
    let change = region.change();
    assert_eq!(change.allocations, 1, "localhost: {change:?}");
    assert_eq!(change.reallocations, 0, "localhost: {change:?}");
    assert_eq!(
        change.bytes_allocated,
        addrs.len() * mem::size_of::<IpAddr>(),
        "localhost: {change:?}"
    );

    // The async lookup of a name, after a first one on this thread: only
    // the answer, since the thread reuses the job it kept from the last one.
    // (A job that a worker still held when the next lookup began is replaced,
    // so allow a few of those.)
    let waker = Waker::from(Arc::new(Unpark(thread::current())));
    drop(block_on(lookup_host_async("localhost"), &waker).unwrap());
    const LOOKUPS: usize = 50;
    let region = Region::new(GLOBAL);
    for _ in 0..LOOKUPS {
        drop(block_on(lookup_host_async("localhost"), &waker).unwrap());
    }
    let change = region.change();
    assert_eq!(change.reallocations, 0, "{change:?}");
    assert!(
        (LOOKUPS..=LOOKUPS + LOOKUPS / 10).contains(&change.allocations),
        "{LOOKUPS} async lookups: {change:?}"
    );

    // The resolver's own answers, which its `malloc` makes, are given back:
    // 50,000 lookups of a name leave the resident set where it was. Each
    // answer kept would be about 80 bytes, 4 MB in all.
    #[cfg(target_os = "linux")]
    {
        const NAMES: usize = 50_000;
        let before = resident_bytes();
        for _ in 0..NAMES {
            lookup_host_into("localhost", &mut buf).unwrap();
        }
        let grown = resident_bytes().saturating_sub(before);
        assert!(
            grown < 1 << 20,
            "{NAMES} lookups grew the resident set by {grown} bytes"
        );
    }
}

/// The process's resident set, from `/proc/self/statm` (in pages of 4 KiB
/// on every Linux this runs on; only growth is compared).
#[cfg(target_os = "linux")]
fn resident_bytes() -> usize {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap();
    let pages: usize = statm.split(' ').nth(1).unwrap().parse().unwrap();
    pages * 4096
}

/// Drives `future` on this thread with a waker made beforehand, so that the
/// counts hold only what the lookup allocates (`pollster` makes a waker per call).
fn block_on<F: Future + Unpin>(mut future: F, waker: &Waker) -> F::Output {
    let mut cx = Context::from_waker(waker);
    loop {
        if let Poll::Ready(out) = Pin::new(&mut future).poll(&mut cx) {
            return out;
        }
        thread::park();
    }
}

/// Wakes a parked thread.
struct Unpark(Thread);

impl Wake for Unpark {
    fn wake(self: Arc<Self>) {
        self.0.unpark();
    }
}
