//! .NET's "Remove allocations from `Dns.GetHostAddresses`", each call next to
//! a peer on the same host name, in the same run.
//!
//! | group | leanwire | peer |
//! |---|---|---|
//! | ip_literal | `lookup_host_into("127.0.0.1", &mut buf)` | `"127.0.0.1".parse::<IpAddr>()` |
//! | ip_literal_std | `lookup_host("127.0.0.1")` | `("127.0.0.1", 0).to_socket_addrs()`, collected |
//! | localhost | `lookup_host_into("localhost", &mut buf)` | raw `libc::getaddrinfo` + `freeaddrinfo`, copied into `buf` (unix only) |
//! | localhost_std | `lookup_host("localhost")` | `("localhost", 0).to_socket_addrs()`, collected |
//! | async_localhost | `pollster::block_on(lookup_host_async("localhost"))` | `tokio::net::lookup_host(("localhost", 0))` on a started multi-thread runtime, collected |
//!
//! The `localhost` groups call the machine's real resolver (on glibc, a read
//! of `/etc/hosts` per call), so their times are microseconds and depend on
//! the machine. `async_localhost` puts the async API beside tokio's, which
//! also hands the name to a pool of blocking threads and waits to be woken.
//!
//! The literal groups take nanoseconds, so their samples are 4,096 runs each
//! (divan's timer resolves only 20 ns here); `--sample-size` overrides that.
//!
//! Run with `cargo bench -p leanwire-native --bench resolve`, and turn the
//! output into a table with `scripts/bench-table resolve`.

use std::net::{IpAddr, Ipv4Addr, SocketAddr, ToSocketAddrs};

use divan::{AllocProfiler, Bencher, black_box};
use leanwire_native::resolve::{lookup_host, lookup_host_async, lookup_host_into};

#[global_allocator]
static ALLOC: AllocProfiler = AllocProfiler::system();

fn main() {
    divan::main();
}

/// Room for every answer `localhost` has on any machine.
fn buffer() -> [IpAddr; 16] {
    [IpAddr::V4(Ipv4Addr::UNSPECIFIED); 16]
}

#[divan::bench_group(sample_size = 4096)]
mod ip_literal {
    use super::*;

    #[divan::bench]
    fn leanwire(bencher: Bencher) {
        let mut buf = buffer();
        bencher.bench_local(|| lookup_host_into(black_box("127.0.0.1"), &mut buf).unwrap());
    }

    #[divan::bench]
    fn peer(bencher: Bencher) {
        bencher.bench_local(|| black_box("127.0.0.1").parse::<IpAddr>().unwrap());
    }
}

#[divan::bench_group(sample_size = 4096)]
mod ip_literal_std {
    use super::*;

    #[divan::bench]
    fn leanwire(bencher: Bencher) {
        bencher.bench_local(|| lookup_host(black_box("127.0.0.1")).unwrap());
    }

    #[divan::bench]
    fn peer(bencher: Bencher) {
        bencher.bench_local(|| {
            (black_box("127.0.0.1"), 0)
                .to_socket_addrs()
                .unwrap()
                .collect::<Vec<SocketAddr>>()
        });
    }
}

#[cfg(unix)]
mod localhost {
    use super::*;

    #[divan::bench]
    fn leanwire(bencher: Bencher) {
        let mut buf = buffer();
        bencher.bench_local(|| lookup_host_into(black_box("localhost"), &mut buf).unwrap());
    }

    #[divan::bench]
    fn peer(bencher: Bencher) {
        let mut buf = buffer();
        bencher.bench_local(|| raw::getaddrinfo_into(black_box(c"localhost"), &mut buf));
    }
}

mod localhost_std {
    use super::*;

    #[divan::bench]
    fn leanwire(bencher: Bencher) {
        bencher.bench_local(|| lookup_host(black_box("localhost")).unwrap());
    }

    #[divan::bench]
    fn peer(bencher: Bencher) {
        bencher.bench_local(|| {
            (black_box("localhost"), 0)
                .to_socket_addrs()
                .unwrap()
                .collect::<Vec<SocketAddr>>()
        });
    }
}

mod async_localhost {
    use super::*;

    /// The async API, driven by `pollster`.
    #[divan::bench]
    fn leanwire(bencher: Bencher) {
        bencher
            .bench_local(|| pollster::block_on(lookup_host_async(black_box("localhost"))).unwrap());
    }

    /// tokio's, on the runtime `#[tokio::main]` builds, started once.
    #[divan::bench]
    fn peer(bencher: Bencher) {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .unwrap();
        bencher.bench_local(|| {
            runtime.block_on(async {
                tokio::net::lookup_host((black_box("localhost"), 0))
                    .await
                    .unwrap()
                    .collect::<Vec<SocketAddr>>()
            })
        });
    }
}

/// The floor for `localhost`: getaddrinfo called directly, with the hints
/// leanwire uses, copying each address (repeats included) into the buffer.
/// `unsafe` is unavoidable for a raw C call; the crate itself keeps its own
/// in `sys/`.
#[cfg(unix)]
#[allow(unsafe_code)]
mod raw {
    use std::ffi::CStr;
    use std::mem;
    use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
    use std::ptr;

    pub fn getaddrinfo_into(host: &CStr, out: &mut [IpAddr]) -> usize {
        // SAFETY: all zeroes is the "no hints" `addrinfo`.
        let mut hints: libc::addrinfo = unsafe { mem::zeroed() };
        hints.ai_family = libc::AF_UNSPEC;
        hints.ai_socktype = libc::SOCK_STREAM;
        let mut head = ptr::null_mut();
        // SAFETY: `host` is NUL-terminated, `hints` initialized, `head` a
        // valid out pointer; a null service is allowed with a host.
        let rc = unsafe { libc::getaddrinfo(host.as_ptr(), ptr::null(), &hints, &mut head) };
        assert_eq!(rc, 0, "getaddrinfo failed");
        let mut n = 0;
        let mut node = head.cast_const();
        // SAFETY: `node` walks the list getaddrinfo returned, which is freed
        // only after the loop; each `ai_addr` of family AF_INET / AF_INET6
        // points at a `sockaddr_in` / `sockaddr_in6`.
        while let Some(ai) = unsafe { node.as_ref() } {
            let ip = match ai.ai_family {
                libc::AF_INET => {
                    let sin =
                        unsafe { ptr::read_unaligned(ai.ai_addr.cast::<libc::sockaddr_in>()) };
                    Some(IpAddr::V4(Ipv4Addr::from(
                        sin.sin_addr.s_addr.to_ne_bytes(),
                    )))
                }
                libc::AF_INET6 => {
                    let sin6 =
                        unsafe { ptr::read_unaligned(ai.ai_addr.cast::<libc::sockaddr_in6>()) };
                    Some(IpAddr::V6(Ipv6Addr::from(sin6.sin6_addr.s6_addr)))
                }
                _ => None,
            };
            if let (Some(ip), Some(slot)) = (ip, out.get_mut(n)) {
                *slot = ip;
                n += 1;
            }
            node = ai.ai_next;
        }
        // SAFETY: `head` came from the successful call above, freed once.
        unsafe { libc::freeaddrinfo(head) };
        n
    }
}
