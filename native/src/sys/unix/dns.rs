//! `getaddrinfo(3)` behind an owned list.
//!
//! <https://man7.org/linux/man-pages/man3/getaddrinfo.3.html>,
//! <https://pubs.opengroup.org/onlinepubs/9799919799/functions/getaddrinfo.html>

use std::ffi::{CStr, c_int};
use std::io;
use std::marker::PhantomData;
use std::mem;
use std::net::{Ipv4Addr, Ipv6Addr, SocketAddr, SocketAddrV4, SocketAddrV6};
use std::ptr;

/// The longest name the stack buffer takes, not counting the NUL. The
/// resolver layer already stops at 254; this only keeps the copy in bounds.
const MAX_NAME: usize = 255;

/// The answer of one `getaddrinfo` call, freed with `freeaddrinfo` on drop.
pub(crate) struct AddrInfoList {
    /// The first node, or null for an answer with no nodes (POSIX promises
    /// at least one on success, but freeing null is not allowed, so we check).
    head: *mut libc::addrinfo,
}

impl AddrInfoList {
    /// Resolves `host` with `AF_UNSPEC` and `SOCK_STREAM` hints, and with
    /// `AI_CANONNAME` when `canonical_name` is set. Blocks.
    pub(crate) fn lookup(host: &str, canonical_name: bool) -> io::Result<AddrInfoList> {
        // The name goes to C NUL-terminated. A stack copy keeps the call free
        // of heap traffic (`CString::new` would allocate).
        let mut name = [0u8; MAX_NAME + 1];
        if host.len() > MAX_NAME || host.as_bytes().contains(&0) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "host name too long or contains a NUL byte",
            ));
        }
        name[..host.len()].copy_from_slice(host.as_bytes());

        // SAFETY: `addrinfo` is a C struct of integers and pointers, for which
        // all zeroes (null pointers) is the documented "no hints" value.
        let mut hints: libc::addrinfo = unsafe { mem::zeroed() };
        hints.ai_family = libc::AF_UNSPEC;
        // Without a socket type, glibc returns each address three times
        // (stream, datagram, raw).
        hints.ai_socktype = libc::SOCK_STREAM;
        // No AI_ADDRCONFIG: it hides `::1` for "localhost" on a host without
        // a global IPv6 address, and .NET does not set it either.
        hints.ai_flags = if canonical_name {
            libc::AI_CANONNAME
        } else {
            0
        };

        let mut head = ptr::null_mut();
        // SAFETY: `name` is NUL-terminated (the buffer is one longer than the
        // longest name) and outlives the call; a null service is allowed when
        // the node is not null; `hints` is initialized; `head` is a valid out
        // pointer. getaddrinfo is thread-safe (POSIX, "MT-Safe env locale" in
        // glibc's attributes).
        let rc = unsafe { libc::getaddrinfo(name.as_ptr().cast(), ptr::null(), &hints, &mut head) };
        if rc != 0 {
            return Err(gai_error(rc, host));
        }
        Ok(AddrInfoList { head })
    }

    /// The IPv4 and IPv6 answers, in the resolver's order.
    pub(crate) fn addrs(&self) -> Addrs<'_> {
        Addrs {
            next: self.head,
            _list: PhantomData,
        }
    }

    /// The canonical name, set only when asked for with `AI_CANONNAME`.
    pub(crate) fn canonical_name(&self) -> Option<CanonicalName<'_>> {
        // SAFETY: `head` is null or the first node of the list we own.
        let first = unsafe { self.head.as_ref() }?;
        if first.ai_canonname.is_null() {
            return None;
        }
        // SAFETY: getaddrinfo puts the canonical name, NUL-terminated, in the
        // first node; it lives in the list, which the returned borrow keeps.
        Some(CanonicalName(unsafe { CStr::from_ptr(first.ai_canonname) }))
    }
}

impl Drop for AddrInfoList {
    fn drop(&mut self) {
        if !self.head.is_null() {
            // SAFETY: `head` came from a successful getaddrinfo and is freed
            // once, here; no borrow of the list outlives it.
            unsafe { libc::freeaddrinfo(self.head) };
        }
    }
}

/// The addresses of an [`AddrInfoList`], read from the C list in place.
pub(crate) struct Addrs<'a> {
    next: *const libc::addrinfo,
    _list: PhantomData<&'a AddrInfoList>,
}

impl Iterator for Addrs<'_> {
    type Item = SocketAddr;

    fn next(&mut self) -> Option<SocketAddr> {
        loop {
            // SAFETY: `next` is null or a node of the list that `_list`
            // borrows, so it has not been freed.
            let node = unsafe { self.next.as_ref() }?;
            self.next = node.ai_next;
            if let Some(addr) = socket_addr(node) {
                return Some(addr);
            }
        }
    }
}

/// The node's address, if it is IPv4 or IPv6 and as long as its family says.
fn socket_addr(node: &libc::addrinfo) -> Option<SocketAddr> {
    if node.ai_addr.is_null() {
        return None;
    }
    let len = node.ai_addrlen as usize;
    match node.ai_family {
        libc::AF_INET if len >= mem::size_of::<libc::sockaddr_in>() => {
            // SAFETY: for AF_INET, `ai_addr` points at a `sockaddr_in` of
            // `ai_addrlen` bytes (checked above) inside the list. The read is
            // unaligned because `sockaddr` promises less alignment than
            // `sockaddr_in` needs.
            let sin = unsafe { ptr::read_unaligned(node.ai_addr.cast::<libc::sockaddr_in>()) };
            // `s_addr` holds the address in network order, as it sits in memory.
            let ip = Ipv4Addr::from(sin.sin_addr.s_addr.to_ne_bytes());
            Some(SocketAddr::V4(SocketAddrV4::new(
                ip,
                u16::from_be(sin.sin_port),
            )))
        }
        libc::AF_INET6 if len >= mem::size_of::<libc::sockaddr_in6>() => {
            // SAFETY: as above, for AF_INET6 and `sockaddr_in6`.
            let sin6 = unsafe { ptr::read_unaligned(node.ai_addr.cast::<libc::sockaddr_in6>()) };
            Some(SocketAddr::V6(SocketAddrV6::new(
                Ipv6Addr::from(sin6.sin6_addr.s6_addr),
                u16::from_be(sin6.sin6_port),
                sin6.sin6_flowinfo,
                sin6.sin6_scope_id,
            )))
        }
        _ => None,
    }
}

/// A canonical name, borrowed from its [`AddrInfoList`].
pub(crate) struct CanonicalName<'a>(&'a CStr);

impl CanonicalName<'_> {
    /// The name as text; bytes that are not UTF-8 become U+FFFD.
    pub(crate) fn to_string_lossy(&self) -> String {
        self.0.to_string_lossy().into_owned()
    }
}

/// Turns a nonzero getaddrinfo result into an `io::Error` with the
/// resolver's text.
fn gai_error(code: c_int, host: &str) -> io::Error {
    // EAI_SYSTEM means "look at errno"; read it before anything can change it.
    if code == libc::EAI_SYSTEM {
        return io::Error::last_os_error();
    }
    let kind = gai_kind(code);
    // SAFETY: gai_strerror returns null or a pointer to a static,
    // NUL-terminated message (glibc, musl, the BSDs and macOS all keep a
    // constant table; POSIX does not let the caller free it).
    let text = unsafe { libc::gai_strerror(code) };
    let detail = if text.is_null() {
        std::borrow::Cow::Borrowed("unknown getaddrinfo error")
    } else {
        // SAFETY: not null, so a static NUL-terminated string (see above).
        unsafe { CStr::from_ptr(text) }.to_string_lossy()
    };
    io::Error::new(
        kind,
        format!("failed to resolve `{host}`: {detail} (EAI {code})"),
    )
}

/// The `io::ErrorKind` for an `EAI_*` code other than `EAI_SYSTEM`.
fn gai_kind(code: c_int) -> io::ErrorKind {
    match code {
        libc::EAI_NONAME => io::ErrorKind::NotFound,
        // glibc's "No address associated with hostname": the name exists
        // but has no A or AAAA record. Not in POSIX, hence the cfg.
        #[cfg(any(target_os = "linux", target_os = "android", target_vendor = "apple"))]
        libc::EAI_NODATA => io::ErrorKind::NotFound,
        // getaddrinfo's EAGAIN: the server did not answer in time, try later.
        // std maps EAGAIN itself to WouldBlock.
        libc::EAI_AGAIN => io::ErrorKind::WouldBlock,
        libc::EAI_MEMORY => io::ErrorKind::OutOfMemory,
        libc::EAI_BADFLAGS | libc::EAI_FAMILY | libc::EAI_SOCKTYPE | libc::EAI_SERVICE => {
            io::ErrorKind::InvalidInput
        }
        // EAI_FAIL ("non-recoverable failure in name resolution") and any
        // code this list does not know.
        _ => io::ErrorKind::Other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eai_codes_map_to_kinds_with_the_resolver_text() {
        let err = gai_error(libc::EAI_NONAME, "x.invalid");
        assert_eq!(err.kind(), io::ErrorKind::NotFound);
        let text = err.to_string();
        assert!(
            text.starts_with("failed to resolve `x.invalid`: "),
            "{text}"
        );
        assert!(
            text.len() > "failed to resolve `x.invalid`: ".len() + 8,
            "{text}"
        );

        assert_eq!(
            gai_error(libc::EAI_AGAIN, "x").kind(),
            io::ErrorKind::WouldBlock
        );
        assert_eq!(
            gai_error(libc::EAI_MEMORY, "x").kind(),
            io::ErrorKind::OutOfMemory
        );
        assert_eq!(
            gai_error(libc::EAI_FAMILY, "x").kind(),
            io::ErrorKind::InvalidInput
        );
        assert_eq!(gai_error(libc::EAI_FAIL, "x").kind(), io::ErrorKind::Other);
        #[cfg(any(target_os = "linux", target_os = "android", target_vendor = "apple"))]
        assert_eq!(
            gai_error(libc::EAI_NODATA, "x").kind(),
            io::ErrorKind::NotFound
        );
    }

    #[test]
    fn localhost_answers_loopback_with_a_canonical_name() {
        let list = AddrInfoList::lookup("localhost", true).unwrap();
        assert!(list.addrs().count() > 0);
        assert!(list.addrs().all(|a| a.ip().is_loopback() && a.port() == 0));
        // "localhost", or a longer canonical form of it such as
        // "localhost.localdomain", depending on the hosts file.
        let name = list.canonical_name().unwrap().to_string_lossy();
        assert!(name.starts_with("localhost"), "{name}");
    }

    #[test]
    fn no_canonical_name_unless_asked() {
        let list = AddrInfoList::lookup("localhost", false).unwrap();
        assert!(list.canonical_name().is_none());
    }

    #[test]
    fn name_with_nul_is_refused_before_c_sees_it() {
        let err = AddrInfoList::lookup("local\0host", false).err().unwrap();
        assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
    }

    #[test]
    fn a_name_of_the_longest_length_goes_to_c_whole_and_a_longer_one_is_refused() {
        // `inet_aton` reads leading zeros as an octal prefix, so this
        // longest name is the numeric address 0.0.0.1 and needs no network.
        let longest = format!("{}1", "0".repeat(MAX_NAME - 1));
        let list = AddrInfoList::lookup(&longest, false).unwrap();
        assert_eq!(
            list.addrs().collect::<Vec<_>>(),
            [SocketAddr::from(([0, 0, 0, 1], 0))]
        );
        let err = AddrInfoList::lookup(&format!("0{longest}"), false)
            .err()
            .unwrap();
        assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
    }

    /// A list node holding `addr`, of which it claims `len` bytes.
    #[cfg(target_os = "linux")]
    fn node<T>(family: c_int, addr: &mut T, len: usize) -> libc::addrinfo {
        libc::addrinfo {
            ai_flags: 0,
            ai_family: family,
            ai_socktype: libc::SOCK_STREAM,
            ai_protocol: 0,
            ai_addrlen: len as libc::socklen_t,
            ai_addr: ptr::from_mut(addr).cast(),
            ai_canonname: ptr::null_mut(),
            ai_next: ptr::null_mut(),
        }
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn a_node_shorter_than_its_family_s_address_or_of_another_family_is_skipped() {
        let mut v4 = libc::sockaddr_in {
            sin_family: libc::AF_INET as libc::sa_family_t,
            sin_port: 8080u16.to_be(),
            sin_addr: libc::in_addr {
                s_addr: u32::from_ne_bytes([192, 0, 2, 7]),
            },
            sin_zero: [0; 8],
        };
        let v4_len = mem::size_of::<libc::sockaddr_in>();
        assert_eq!(
            socket_addr(&node(libc::AF_INET, &mut v4, v4_len)),
            Some(SocketAddr::from(([192, 0, 2, 7], 8080)))
        );
        assert_eq!(socket_addr(&node(libc::AF_INET, &mut v4, v4_len - 1)), None);

        let mut v6 = libc::sockaddr_in6 {
            sin6_family: libc::AF_INET6 as libc::sa_family_t,
            sin6_port: 53u16.to_be(),
            sin6_flowinfo: 9,
            sin6_addr: libc::in6_addr {
                s6_addr: Ipv6Addr::LOCALHOST.octets(),
            },
            sin6_scope_id: 3,
        };
        let v6_len = mem::size_of::<libc::sockaddr_in6>();
        assert_eq!(
            socket_addr(&node(libc::AF_INET6, &mut v6, v6_len)),
            Some(SocketAddr::V6(SocketAddrV6::new(
                Ipv6Addr::LOCALHOST,
                53,
                9,
                3
            )))
        );
        assert_eq!(
            socket_addr(&node(libc::AF_INET6, &mut v6, v6_len - 1)),
            None
        );

        assert_eq!(socket_addr(&node(libc::AF_UNIX, &mut v6, v6_len)), None);
        let mut null = node(libc::AF_INET, &mut v4, v4_len);
        null.ai_addr = ptr::null_mut();
        assert_eq!(socket_addr(&null), None);
    }
}
