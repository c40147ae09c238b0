//! Host-name resolution: .NET's `Dns.GetHostAddresses` and
//! `Dns.GetHostEntry`, without the allocations.
//!
//! A *host* is what the caller passes: an *IP literal* (`127.0.0.1`, `::1`,
//! or bracketed `[::1]`) or a *name* (`localhost`). A literal is its own
//! answer: it is parsed with `core::net`, and the OS resolver never sees it.
//! A name goes to the OS resolver (`getaddrinfo` on unix, `GetAddrInfoW` on
//! Windows), asking for every address family. The *answer* is the distinct
//! addresses, in the resolver's order (which puts the preferred ones first,
//! RFC 6724), each once.
//!
//! The async calls are the primary API, as in the .NET seed: a name is
//! resolved on a small pool of blocking threads (2 to 4, started on first
//! use), so polling never blocks. The sync calls do what a future's job
//! does, with the same check of the host and the same answer, on the calling
//! thread, which is blocked waiting anyway: no job, no hop to a pool thread
//! and back, no waker. [`lookup_host_into`] asks the resolver on the calling
//! thread too, and writes into a buffer that the caller owns.
//!
//! | call | heap allocations of this crate |
//! |---|---|
//! | [`lookup_host_into`] | none, for a literal or a name |
//! | [`lookup_host`], [`lookup_host_async`], literal | one: the answer |
//! | [`lookup_host`], name | one: the answer (exactly sized) |
//! | [`lookup_host_async`], name | the answer; on a thread's first lookup also the job sent to the pool, which carries the name |
//!
//! Once its answer is taken, a future's job is kept by the thread that took
//! it, and reused for that thread's next lookup of the same kind.
//!
//! The OS resolver allocates memory of its own for a name (glibc's
//! `getaddrinfo` calls `malloc`); that is outside Rust's allocator and this
//! crate's reach.
//!
//! A host that is empty, holds a NUL byte, or is longer than 253 bytes (not
//! counting one trailing dot, the DNS root) is refused with
//! [`io::ErrorKind::InvalidInput`] before the resolver is asked. A name the
//! resolver does not know is [`io::ErrorKind::NotFound`], a temporary failure
//! (no answer from the DNS server in time) is [`io::ErrorKind::WouldBlock`];
//! either way the message is the resolver's own.
//!
//! ```
//! use leanwire_native::resolve::{lookup_host, lookup_host_async, lookup_host_into};
//! use std::net::{IpAddr, Ipv4Addr};
//!
//! // No heap at all: the answer goes into the caller's buffer.
//! let mut buf = [IpAddr::from(Ipv4Addr::UNSPECIFIED); 8];
//! let n = lookup_host_into("127.0.0.1", &mut buf)?;
//! assert_eq!(buf[..n], [IpAddr::from(Ipv4Addr::LOCALHOST)]);
//!
//! // One exact-sized allocation: the answer.
//! let addrs = lookup_host("localhost")?;
//! assert!(addrs.iter().all(IpAddr::is_loopback));
//!
//! // The same, as a future for any executor.
//! assert_eq!(pollster::block_on(lookup_host_async("localhost"))?, addrs);
//! # Ok::<(), std::io::Error>(())
//! ```

use std::cell::RefCell;
use std::fmt;
use std::future::Future;
use std::io;
use std::mem;
use std::panic::{self, AssertUnwindSafe};
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll, Waker};
use std::thread::LocalKey;

use ::core::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use crate::blocking::{self, Job};
use crate::sys::dns::AddrInfoList;

/// The longest name, in bytes, not counting one trailing dot: 255 octets on
/// the wire (RFC 1035 2.3.4) less the first length octet and the root label.
pub const MAX_NAME_LEN: usize = 253;

/// Resolves `host` into `out` and returns how many distinct addresses it
/// has: the allocation-free sync entry point.
///
/// The answer's first `out.len()` addresses are written to `out`, in order.
/// The return value is the answer's full length `n` even when it is longer
/// than `out`: then only `out.len()` addresses were written, and a caller
/// that wants them all can call again with `n` slots (the resolver may
/// answer differently the second time). When `n < out.len()`, `out[n..]` is
/// left as it was. A literal is one address, written without asking the
/// resolver.
///
/// Like [`lookup_host`], this asks the resolver on the calling thread and
/// blocks until it answers; unlike it, this never touches the heap unless it
/// returns an error (an `io::Error` with a message is boxed).
///
/// # Errors
///
/// [`io::ErrorKind::InvalidInput`] for an empty host, one with a NUL byte, or
/// one longer than [`MAX_NAME_LEN`]; otherwise the resolver's error, such as
/// [`io::ErrorKind::NotFound`] for an unknown name.
///
/// ```
/// use leanwire_native::resolve::lookup_host_into;
/// use std::net::{IpAddr, Ipv4Addr};
///
/// let mut buf = [IpAddr::from(Ipv4Addr::UNSPECIFIED); 4];
/// let n = lookup_host_into("localhost", &mut buf)?;
/// assert!(n >= 1);
/// assert!(buf[..n.min(buf.len())].iter().all(IpAddr::is_loopback));
///
/// // An empty buffer still learns the size of the answer.
/// assert_eq!(lookup_host_into("localhost", &mut [])?, n);
/// assert_eq!(lookup_host_into("127.0.0.1", &mut [])?, 1);
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn lookup_host_into(host: &str, out: &mut [IpAddr]) -> io::Result<usize> {
    let name = match classify(host)? {
        // A literal is its own answer.
        Host::Literal(ip) => {
            if let Some(first) = out.first_mut() {
                *first = ip;
            }
            return Ok(1);
        }
        Host::Name(name) => name,
    };
    let list = AddrInfoList::lookup(name, false)?;
    let mut n = 0;
    for ip in distinct(&list) {
        if let Some(slot) = out.get_mut(n) {
            *slot = ip;
        }
        n += 1;
    }
    Ok(n)
}

/// Resolves `host` to its distinct addresses, in the resolver's order:
/// .NET's `Dns.GetHostAddresses`.
///
/// The answer is one allocation of exactly its length. A literal answers
/// itself, in a one-element slice, without asking the resolver. The answer
/// is [`lookup_host_async`]'s, found on the calling thread.
///
/// # Errors
///
/// As for [`lookup_host_into`].
///
/// ```
/// use leanwire_native::resolve::lookup_host;
/// use std::net::{IpAddr, Ipv4Addr};
///
/// assert_eq!(*lookup_host("127.0.0.1")?, [IpAddr::from(Ipv4Addr::LOCALHOST)]);
/// assert!(lookup_host("localhost")?.iter().all(IpAddr::is_loopback));
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn lookup_host(host: &str) -> io::Result<Box<[IpAddr]>> {
    resolve_here(host)
}

/// Resolves `host` to its canonical name and addresses: .NET's
/// `Dns.GetHostEntry`.
///
/// For a name, this asks the resolver for the canonical name too
/// (`AI_CANONNAME`); where it gives none, the entry carries `host` as given.
/// For a literal, the canonical name is the address as text and nothing is
/// looked up: unlike .NET, there is no reverse (PTR) lookup.
///
/// The aliases are always empty on unix and Windows: `getaddrinfo` reports
/// only the canonical name, not the other names on the way to it. The field
/// is there for a resolver that does report them.
///
/// # Errors
///
/// As for [`lookup_host_into`].
///
/// ```
/// use leanwire_native::resolve::lookup_host_entry;
/// use std::net::{IpAddr, Ipv4Addr};
///
/// let entry = lookup_host_entry("localhost")?;
/// assert!(!entry.canonical_name.is_empty());
/// assert!(entry.addresses.iter().all(IpAddr::is_loopback));
///
/// let entry = lookup_host_entry("127.0.0.1")?;
/// assert_eq!(entry.canonical_name, "127.0.0.1");
/// assert_eq!(*entry.addresses, [IpAddr::from(Ipv4Addr::LOCALHOST)]);
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn lookup_host_entry(host: &str) -> io::Result<HostEntry> {
    resolve_here(host)
}

/// Resolves `host` as a future: .NET's `Dns.GetHostAddressesAsync`.
///
/// The host is checked now, and a name is copied into the job that will
/// resolve it, so the future borrows nothing. A literal, or a host refused
/// as invalid, completes on the first poll without any thread or any
/// allocation but the answer. A name's job is handed to the blocking pool on
/// the first poll, and the future completes when the pool wakes it. The answer is the
/// same as [`lookup_host`]'s. The future works with any executor; dropping
/// it early lets the lookup finish unseen.
///
/// ```
/// use leanwire_native::resolve::lookup_host_async;
/// use std::net::IpAddr;
///
/// let addrs = pollster::block_on(lookup_host_async("localhost"))?;
/// assert!(addrs.iter().all(IpAddr::is_loopback));
/// let addrs = pollster::block_on(lookup_host_async("127.0.0.1"))?;
/// assert_eq!(addrs.len(), 1);
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn lookup_host_async(host: &str) -> LookupHost {
    LookupHost(Op::new(host))
}

/// Resolves `host` to its canonical name and addresses, as a future: .NET's
/// `Dns.GetHostEntryAsync`. See [`lookup_host_entry`] for the answer and
/// [`lookup_host_async`] for how the future runs.
///
/// ```
/// use leanwire_native::resolve::lookup_host_entry_async;
///
/// let entry = pollster::block_on(lookup_host_entry_async("localhost"))?;
/// assert!(entry.aliases.is_empty());
/// assert!(!entry.addresses.is_empty());
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn lookup_host_entry_async(host: &str) -> LookupHostEntry {
    LookupHostEntry(Op::new(host))
}

/// A host's canonical name and addresses, from [`lookup_host_entry`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct HostEntry {
    /// The resolver's canonical name for the host; the host as given where
    /// it has none, and the address as text for a literal.
    pub canonical_name: String,
    /// Other names of the host. Always empty with `getaddrinfo`, which does
    /// not report them (see [`lookup_host_entry`]).
    pub aliases: Box<[String]>,
    /// The distinct addresses, in the resolver's order, as [`lookup_host`]
    /// gives them.
    pub addresses: Box<[IpAddr]>,
}

/// The future of [`lookup_host_async`].
#[must_use = "futures do nothing unless polled"]
pub struct LookupHost(Op<Box<[IpAddr]>>);

impl Future for LookupHost {
    type Output = io::Result<Box<[IpAddr]>>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        self.0.poll(cx)
    }
}

impl fmt::Debug for LookupHost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("LookupHost")
            .field(&format_args!("{}", self.0.state()))
            .finish()
    }
}

/// The future of [`lookup_host_entry_async`].
#[must_use = "futures do nothing unless polled"]
pub struct LookupHostEntry(Op<HostEntry>);

impl Future for LookupHostEntry {
    type Output = io::Result<HostEntry>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        self.0.poll(cx)
    }
}

impl fmt::Debug for LookupHostEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("LookupHostEntry")
            .field(&format_args!("{}", self.0.state()))
            .finish()
    }
}

/// Resolves `host` on this thread: the answer a lookup future's job finds.
fn resolve_here<T: Answer>(host: &str) -> io::Result<T> {
    match classify(host)? {
        Host::Literal(ip) => Ok(T::literal(ip)),
        Host::Name(name) => T::resolve(name),
    }
}

/// What the caller passed, once checked.
enum Host<'a> {
    /// An IP address in text, answered without the resolver.
    Literal(IpAddr),
    /// A name for the resolver.
    Name(&'a str),
}

fn invalid(message: &'static str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, message)
}

/// Checks `host` and sorts literals from names.
///
/// `core::net` takes only the strict forms: four decimal octets for IPv4,
/// RFC 4291 text for IPv6, no zone (`%eth0`). Anything else, such as
/// `127.1` or `fe80::1%eth0`, is a name here; the resolver may still read it
/// as an address (glibc does, with `inet_aton` rules).
// Inlined into each caller, which matches the `Host` where it is made: out
// of line, `lookup_host_into` of a name took 20 more instructions.
#[inline(always)]
fn classify(host: &str) -> io::Result<Host<'_>> {
    match literal(host)? {
        Some(ip) => Ok(Host::Literal(ip)),
        None => checked_name(host).map(Host::Name),
    }
}

/// `host` as an IP literal, plain or (IPv6) in brackets; `None` if it is not
/// one. Brackets around anything else are an error.
fn literal(host: &str) -> io::Result<Option<IpAddr>> {
    // An address starts with a hex digit or `:`, so most names are told
    // apart at their first byte, without a parse that fails.
    let may_be_ip = host
        .as_bytes()
        .first()
        .is_some_and(|&b| b.is_ascii_hexdigit() || b == b':');
    if may_be_ip && let Ok(ip) = host.parse::<IpAddr>() {
        return Ok(Some(ip));
    }
    match host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
        None => Ok(None),
        Some(inner) => match inner.parse::<Ipv6Addr>() {
            Ok(ip) => Ok(Some(IpAddr::V6(ip))),
            Err(_) => Err(invalid("the brackets of `[...]` must hold an IPv6 address")),
        },
    }
}

/// `host`, if it can be a name to give the resolver.
fn checked_name(host: &str) -> io::Result<&str> {
    if host.is_empty() {
        return Err(invalid("the host name is empty"));
    }
    if host.as_bytes().contains(&0) {
        return Err(invalid("the host name contains a NUL byte"));
    }
    let name = host.strip_suffix('.').unwrap_or(host);
    if name.len() > MAX_NAME_LEN {
        return Err(invalid(
            "the host name is longer than 253 bytes (not counting a trailing dot)",
        ));
    }
    Ok(host)
}

/// The list's addresses without repeats, in order. Quadratic in the length
/// of the list, which is short (a handful of records), and free of heap.
fn distinct(list: &AddrInfoList) -> impl Iterator<Item = IpAddr> + '_ {
    list.addrs()
        .map(|addr| addr.ip())
        .enumerate()
        .filter(move |&(i, ip)| !list.addrs().take(i).any(|seen| seen.ip() == ip))
        .map(|(_, ip)| ip)
}

/// The list's distinct addresses in one allocation of exactly their number:
/// counted first, then written.
fn collect(list: &AddrInfoList) -> Box<[IpAddr]> {
    let n = distinct(list).count();
    // `vec![x; n]` allocates exactly `n`, so the boxed slice keeps that
    // allocation rather than shrinking into a new one.
    let mut out = vec![IpAddr::V4(Ipv4Addr::UNSPECIFIED); n].into_boxed_slice();
    for (slot, ip) in out.iter_mut().zip(distinct(list)) {
        *slot = ip;
    }
    out
}

/// What a lookup future produces, for a literal and from the resolver.
trait Answer: Sized + Send + 'static {
    fn literal(ip: IpAddr) -> Self;
    /// Asks the resolver; blocks.
    fn resolve(name: &str) -> io::Result<Self>;
    /// This thread's spare job for a lookup of this kind (see [`Spare`]).
    fn spare() -> &'static LocalKey<Spare<Self>>;
}

/// A finished lookup's job, kept by the thread that polled it for its next
/// lookup of the same kind, so that a lookup allocates only its answer.
type Spare<T> = RefCell<Option<Arc<Lookup<T>>>>;

impl Answer for Box<[IpAddr]> {
    fn literal(ip: IpAddr) -> Self {
        Box::new([ip])
    }

    fn spare() -> &'static LocalKey<Spare<Self>> {
        thread_local!(static SPARE: Spare<Box<[IpAddr]>> = const { RefCell::new(None) });
        &SPARE
    }

    fn resolve(name: &str) -> io::Result<Self> {
        Ok(collect(&AddrInfoList::lookup(name, false)?))
    }
}

impl Answer for HostEntry {
    fn literal(ip: IpAddr) -> Self {
        HostEntry {
            canonical_name: ip.to_string(),
            aliases: Box::new([]),
            addresses: Box::new([ip]),
        }
    }

    fn spare() -> &'static LocalKey<Spare<Self>> {
        thread_local!(static SPARE: Spare<HostEntry> = const { RefCell::new(None) });
        &SPARE
    }

    fn resolve(name: &str) -> io::Result<Self> {
        let list = AddrInfoList::lookup(name, true)?;
        let canonical_name = match list.canonical_name() {
            Some(canonical) => canonical.to_string_lossy(),
            None => name.to_owned(),
        };
        Ok(HostEntry {
            canonical_name,
            aliases: Box::new([]),
            addresses: collect(&list),
        })
    }
}

/// A checked name, copied into the future so that it borrows nothing and
/// the copy needs no heap.
struct NameBuf {
    len: usize,
    bytes: [u8; MAX_NAME_LEN + 1],
}

impl NameBuf {
    /// `name` passed [`classify`], so it fits.
    fn new(name: &str) -> NameBuf {
        let mut bytes = [0; MAX_NAME_LEN + 1];
        let len = name.len().min(bytes.len());
        bytes[..len].copy_from_slice(&name.as_bytes()[..len]);
        NameBuf { len, bytes }
    }

    fn as_str(&self) -> io::Result<&str> {
        // Always whole UTF-8: it was copied from a `&str` that fitted.
        std::str::from_utf8(&self.bytes[..self.len])
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "host name copy is not UTF-8"))
    }
}

/// A lookup future's state.
enum Op<T> {
    /// Refused by [`classify`]; reported on the first poll.
    Invalid(io::Error),
    /// Answered on the first poll.
    Literal(IpAddr),
    /// Not yet run. The job is built with the future, so that the future
    /// stays small and the name lives in one place.
    Name(Arc<Lookup<T>>),
    /// On the pool; the job holds the answer when done.
    Waiting(Arc<Lookup<T>>),
    /// The answer was returned.
    Done,
}

impl<T: Answer> Op<T> {
    fn new(host: &str) -> Op<T> {
        match classify(host) {
            Err(err) => Op::Invalid(err),
            Ok(Host::Literal(ip)) => Op::Literal(ip),
            Ok(Host::Name(name)) => Op::Name(Lookup::new(name)),
        }
    }

    fn state(&self) -> &'static str {
        match self {
            Op::Invalid(_) => "Invalid",
            Op::Literal(_) => "Literal",
            Op::Name(..) => "Name",
            Op::Waiting(_) => "Waiting",
            Op::Done => "Done",
        }
    }

    fn poll(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<T>> {
        let job = match mem::replace(self, Op::Done) {
            Op::Invalid(err) => return Poll::Ready(Err(err)),
            Op::Literal(ip) => return Poll::Ready(Ok(T::literal(ip))),
            Op::Name(job) => {
                // The waker is stored below, under the lock: a job that is
                // already done by then has left its answer instead.
                blocking::submit(Arc::clone(&job) as Arc<dyn Job>);
                job
            }
            Op::Waiting(job) => job,
            Op::Done => {
                return Poll::Ready(Err(io::Error::other(
                    "a lookup future was polled after it completed",
                )));
            }
        };
        let mut state = job.state.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(answer) = state.answer.take() {
            drop(state);
            job.keep_as_spare();
            return Poll::Ready(answer);
        }
        if !state
            .waker
            .as_ref()
            .is_some_and(|w| w.will_wake(cx.waker()))
        {
            state.waker = Some(cx.waker().clone());
        }
        drop(state);
        *self = Op::Waiting(job);
        Poll::Pending
    }
}

/// One name on the pool: the name, and where the answer and the waker meet.
struct Lookup<T> {
    name: NameBuf,
    state: Mutex<LookupState<T>>,
}

struct LookupState<T> {
    answer: Option<io::Result<T>>,
    waker: Option<Waker>,
}

impl<T: Answer> Lookup<T> {
    /// A job for `name`: this thread's spare one if it has one, else a new one.
    fn new(name: &str) -> Arc<Self> {
        let fresh = Lookup {
            name: NameBuf::new(name),
            state: Mutex::new(LookupState {
                answer: None,
                waker: None,
            }),
        };
        if let Some(mut job) = T::spare().with_borrow_mut(Option::take)
            && let Some(reused) = Arc::get_mut(&mut job)
        {
            *reused = fresh;
            return job;
        }
        Arc::new(fresh)
    }

    /// Keeps this answered job for the thread's next lookup, which reuses
    /// it if the worker has let go of it by then (it lets go just after it
    /// leaves the answer).
    fn keep_as_spare(self: Arc<Self>) {
        T::spare().with_borrow_mut(|spare| *spare = Some(self));
    }
}

impl<T: Answer> Job for Lookup<T> {
    fn run(self: Arc<Self>) {
        let answer = panic::catch_unwind(AssertUnwindSafe(|| T::resolve(self.name.as_str()?)))
            .unwrap_or_else(|_| Err(io::Error::other("the resolver panicked")));
        let waker = {
            let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
            state.answer = Some(answer);
            state.waker.take()
        };
        drop(self);
        if let Some(waker) = waker {
            waker.wake();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bracketed_ipv4_is_refused() {
        let err = classify("[127.0.0.1]").err().unwrap();
        assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
    }

    #[test]
    fn literals_are_what_std_parses_as_addresses() {
        let hosts = [
            "127.0.0.1",
            "::1",
            "::",
            "fe80::1",
            "FE80::1",
            "2001:db8::1",
            "::ffff:192.0.2.1",
            "localhost",
            "example.com",
            "deadbeef",
            "db.local",
            ":",
            "1",
            "",
            "g::1",
            " ::1",
        ];
        for host in hosts {
            assert_eq!(literal(host).unwrap(), host.parse().ok(), "{host:?}");
        }
        // Every ASCII first byte, before the rest of an address.
        for first in 0..=0x7f_u8 {
            for rest in ["27.0.0.1", ":1", "e80::1", "::1"] {
                let host = format!("{}{rest}", char::from(first));
                assert_eq!(literal(&host).unwrap(), host.parse().ok(), "{host:?}");
            }
        }
    }

    #[test]
    fn trailing_dot_is_not_counted() {
        let name = format!("{}.", "a".repeat(MAX_NAME_LEN));
        assert!(matches!(classify(&name), Ok(Host::Name(_))));
        assert!(classify(&"a".repeat(MAX_NAME_LEN + 1)).is_err());
    }

    #[test]
    fn name_copy_round_trips() {
        let name = format!("{}.", "é".repeat(MAX_NAME_LEN / 2));
        assert!(matches!(classify(&name), Ok(Host::Name(_))));
        assert_eq!(NameBuf::new(&name).as_str().unwrap(), name);
    }
}
