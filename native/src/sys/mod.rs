//! The operating-system backends: the only place in this crate with `unsafe`.
//!
//! One module per OS family is compiled in and re-exported here, so the rest
//! of the crate writes `sys::dns::AddrInfoList` and never names an OS. Every
//! backend provides:
//!
//! * `dns::AddrInfoList`: the answer of one `getaddrinfo` call, owned, freed
//!   on drop, and read without allocating:
//!   * `AddrInfoList::lookup(host: &str, canonical_name: bool) -> io::Result<AddrInfoList>`
//!     asks for every family (`AF_UNSPEC`) and one socket type
//!     (`SOCK_STREAM`, so each address appears once), without
//!     `AI_ADDRCONFIG`, and with `AI_CANONNAME` when `canonical_name` is
//!     set. It blocks. A name the resolver does not know is
//!     `ErrorKind::NotFound`, a temporary failure is `ErrorKind::WouldBlock`,
//!     and the message is the resolver's own text.
//!   * `AddrInfoList::addrs(&self) -> impl Iterator<Item = SocketAddr>`: the
//!     IPv4 and IPv6 answers in the resolver's order, duplicates included.
//!   * `AddrInfoList::canonical_name(&self) -> Option<dns::CanonicalName<'_>>`:
//!     the name asked for with `canonical_name`, borrowed from the list.
//! * `dns::CanonicalName<'a>`, with `to_string_lossy(&self) -> String`.
//!
//! An OS that is neither unix nor Windows gets `unsupported`, whose every
//! call returns `io::ErrorKind::Unsupported`.
//!
//! Rules here: every `unsafe` block carries a `// SAFETY:` comment, and each
//! OS quirk a comment with a link to the man page or the documentation.

#[cfg(unix)]
mod unix;
#[cfg(unix)]
pub(crate) use unix::*;

#[cfg(windows)]
mod windows;
#[cfg(windows)]
pub(crate) use windows::*;

#[cfg(not(any(unix, windows)))]
mod unsupported;
#[cfg(not(any(unix, windows)))]
pub(crate) use unsupported::*;
