//! `GetAddrInfoW` behind an owned list.
//!
//! <https://learn.microsoft.com/en-us/windows/win32/api/ws2tcpip/nf-ws2tcpip-getaddrinfow>

use std::io;
use std::marker::PhantomData;
use std::mem;
use std::net::{Ipv4Addr, Ipv6Addr, SocketAddr, SocketAddrV4, SocketAddrV6};
use std::ptr;
use std::slice;
use std::sync::Once;

use windows_sys::Win32::Networking::WinSock::{
    ADDRINFOW, AF_INET, AF_INET6, AF_UNSPEC, AI_CANONNAME, FreeAddrInfoW, GetAddrInfoW,
    SOCK_STREAM, SOCKADDR_IN, SOCKADDR_IN6, WSA_NOT_ENOUGH_MEMORY, WSADATA, WSAEAFNOSUPPORT,
    WSAEINVAL, WSAESOCKTNOSUPPORT, WSAHOST_NOT_FOUND, WSANO_DATA, WSAStartup, WSATRY_AGAIN,
    WSATYPE_NOT_FOUND,
};

/// The longest name the stack buffer takes, in UTF-16 units, not counting
/// the NUL. The resolver layer already stops at 254 bytes, which is never
/// more units than that.
const MAX_NAME: usize = 255;

// `ai_family` is an `i32` while the `AF_*` constants are `u16`.
const FAMILY_INET: i32 = AF_INET as i32;
const FAMILY_INET6: i32 = AF_INET6 as i32;

/// Winsock must be started before its first call, in every process. Like std,
/// start it once and never call `WSACleanup`: the process exit does that.
/// <https://learn.microsoft.com/en-us/windows/win32/api/winsock/nf-winsock-wsastartup>
fn start_winsock() {
    static START: Once = Once::new();
    START.call_once(|| {
        let mut data = WSADATA::default();
        // SAFETY: `data` is a valid out pointer for the call. Version 2.2 is
        // what every Windows since 95 OSR2 supports. A failure is not
        // reported here: GetAddrInfoW then fails with WSANOTINITIALISED,
        // and that is the error the caller sees.
        let _ = unsafe { WSAStartup(0x0202, &mut data) };
    });
}

/// The answer of one `GetAddrInfoW` call, freed with `FreeAddrInfoW` on drop.
pub(crate) struct AddrInfoList {
    /// The first node, or null for an answer with no nodes.
    head: *mut ADDRINFOW,
}

impl AddrInfoList {
    /// Resolves `host` with `AF_UNSPEC` and `SOCK_STREAM` hints, and with
    /// `AI_CANONNAME` when `canonical_name` is set. Blocks.
    pub(crate) fn lookup(host: &str, canonical_name: bool) -> io::Result<AddrInfoList> {
        // The wide, NUL-terminated name lives on the stack, so the call makes
        // no heap traffic of ours.
        let mut name = [0u16; MAX_NAME + 1];
        for (i, unit) in host.encode_utf16().enumerate() {
            if i == MAX_NAME || unit == 0 {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    "host name too long or contains a NUL",
                ));
            }
            name[i] = unit;
        }
        start_winsock();

        let hints = ADDRINFOW {
            ai_family: i32::from(AF_UNSPEC),
            // One socket type, so each address appears once.
            ai_socktype: SOCK_STREAM,
            // No AI_ADDRCONFIG, as on unix.
            ai_flags: if canonical_name {
                AI_CANONNAME as i32
            } else {
                0
            },
            ..ADDRINFOW::default()
        };
        let mut head = ptr::null_mut();
        // SAFETY: `name` is NUL-terminated (the buffer is one longer than the
        // longest name) and outlives the call; a null service name is allowed
        // with a node name; `hints` is initialized with null pointers where
        // the documentation requires them; `head` is a valid out pointer.
        let rc = unsafe { GetAddrInfoW(name.as_ptr(), ptr::null(), &hints, &mut head) };
        if rc != 0 {
            return Err(wsa_error(rc, host));
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
        let start = first.ai_canonname;
        if start.is_null() {
            return None;
        }
        let mut len = 0;
        // SAFETY: GetAddrInfoW puts the canonical name, NUL-terminated, in
        // the first node, so every unit up to and including the NUL is
        // readable.
        while unsafe { *start.add(len) } != 0 {
            len += 1;
        }
        // SAFETY: the `len` units before the NUL were just read; they live in
        // the list, which the returned borrow keeps.
        Some(CanonicalName(unsafe { slice::from_raw_parts(start, len) }))
    }
}

impl Drop for AddrInfoList {
    fn drop(&mut self) {
        if !self.head.is_null() {
            // SAFETY: `head` came from a successful GetAddrInfoW and is freed
            // once, here; no borrow of the list outlives it.
            unsafe { FreeAddrInfoW(self.head) };
        }
    }
}

/// The addresses of an [`AddrInfoList`], read from the list in place.
pub(crate) struct Addrs<'a> {
    next: *const ADDRINFOW,
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
fn socket_addr(node: &ADDRINFOW) -> Option<SocketAddr> {
    if node.ai_addr.is_null() {
        return None;
    }
    match node.ai_family {
        FAMILY_INET if node.ai_addrlen >= mem::size_of::<SOCKADDR_IN>() => {
            // SAFETY: for AF_INET, `ai_addr` points at a `SOCKADDR_IN` of
            // `ai_addrlen` bytes (checked above) inside the list; the read is
            // unaligned because `SOCKADDR` promises less alignment.
            let sin = unsafe { ptr::read_unaligned(node.ai_addr.cast::<SOCKADDR_IN>()) };
            // SAFETY: every field of the `IN_ADDR` union is a plain integer
            // view of the same four bytes, in network order.
            let raw = unsafe { sin.sin_addr.S_un.S_addr };
            let ip = Ipv4Addr::from(raw.to_ne_bytes());
            Some(SocketAddr::V4(SocketAddrV4::new(
                ip,
                u16::from_be(sin.sin_port),
            )))
        }
        FAMILY_INET6 if node.ai_addrlen >= mem::size_of::<SOCKADDR_IN6>() => {
            // SAFETY: as above, for AF_INET6 and `SOCKADDR_IN6`.
            let sin6 = unsafe { ptr::read_unaligned(node.ai_addr.cast::<SOCKADDR_IN6>()) };
            // SAFETY: both fields of each union are plain views of the same
            // bytes: the address as 16 bytes, the scope id as a `u32`.
            let (bytes, scope_id) =
                unsafe { (sin6.sin6_addr.u.Byte, sin6.Anonymous.sin6_scope_id) };
            Some(SocketAddr::V6(SocketAddrV6::new(
                Ipv6Addr::from(bytes),
                u16::from_be(sin6.sin6_port),
                sin6.sin6_flowinfo,
                scope_id,
            )))
        }
        _ => None,
    }
}

/// A canonical name in UTF-16, borrowed from its [`AddrInfoList`].
pub(crate) struct CanonicalName<'a>(&'a [u16]);

impl CanonicalName<'_> {
    /// The name as text; unpaired surrogates become U+FFFD.
    pub(crate) fn to_string_lossy(&self) -> String {
        String::from_utf16_lossy(self.0)
    }
}

/// Turns a nonzero GetAddrInfoW result (a Winsock error code, the same that
/// `WSAGetLastError` would give) into an `io::Error` with the system's text.
/// Windows' `gai_strerror` is a header-only wrapper over `FormatMessage`,
/// which `io::Error::from_raw_os_error` already calls for its `Display`.
/// <https://learn.microsoft.com/en-us/windows/win32/api/ws2tcpip/nf-ws2tcpip-gai_strerrorw>
fn wsa_error(code: i32, host: &str) -> io::Error {
    let kind = match code {
        WSAHOST_NOT_FOUND | WSANO_DATA => io::ErrorKind::NotFound,
        // Winsock's EAI_AGAIN.
        WSATRY_AGAIN => io::ErrorKind::WouldBlock,
        WSA_NOT_ENOUGH_MEMORY => io::ErrorKind::OutOfMemory,
        WSAEINVAL | WSAEAFNOSUPPORT | WSATYPE_NOT_FOUND | WSAESOCKTNOSUPPORT => {
            io::ErrorKind::InvalidInput
        }
        // Anything else is a system error in its own right (WSANO_RECOVERY,
        // WSANOTINITIALISED, ...): keep its code.
        _ => return io::Error::from_raw_os_error(code),
    };
    let detail = io::Error::from_raw_os_error(code);
    io::Error::new(kind, format!("failed to resolve `{host}`: {detail}"))
}
