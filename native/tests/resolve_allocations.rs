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
use std::task::{Context, Poll, Waker};

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

    // `lookup_host` of a literal: the one-element answer and nothing else
    // (not even the waker `pollster::block_on` would build).
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

    // `lookup_host` of a name: the answer is one allocation of exactly its
    // length, among the job's own (the `Arc` sent to the pool, the channel
    // slot, the waker).
    let region = Region::new(GLOBAL);
    let addrs = lookup_host("localhost").unwrap();
    let change = region.change();
    assert_eq!(change.reallocations, 0, "localhost: {change:?}");
    assert!(
        change.bytes_allocated >= addrs.len() * mem::size_of::<IpAddr>(),
        "localhost: {change:?}"
    );
}
