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
//! * `fs`, directories created and removed without heap allocation on a
//!   path that fits the backend's stack buffer; every call takes `&Path`,
//!   returns `io::Result<()>`, and names the path or component at fault in
//!   its error message:
//!   * `fs::create_dir_all(path)`: tries the leaf first, and on a missing
//!     parent bisects for the deepest existing ancestor and creates
//!     forward. An existing directory (made by a concurrent caller, say) is
//!     success; a non-directory ancestor is `ErrorKind::NotADirectory`, a
//!     non-directory leaf `ErrorKind::AlreadyExists`.
//!   * `fs::create_dir(path)`: the leaf only.
//!   * `fs::remove_file(path)`: a file or symbolic link, never a directory.
//!   * `fs::remove_dir_all(path)`: the tree, following no symbolic link or
//!     reparse point; one at `path` itself is removed, not followed.
//! * `net`, the HTTP server's accept loops (see `crate::http`):
//!   * `net::Listener::bind(addr: SocketAddr, send_buffer: Option<usize>)
//!     -> io::Result<Listener>`: a listening socket that other listeners of
//!     the same server can bind to the same port (one per worker thread),
//!     whose connections get a `send_buffer`-byte `SO_SNDBUF` if given, and
//!     `Listener::local_addr(&self) -> io::Result<SocketAddr>`.
//!   * `net::Inbox`: how a worker is woken from another thread, and handed
//!     back what the serving pool answered: `Inbox::for_workers(workers:
//!     usize) -> io::Result<Vec<Arc<Inbox>>>`, one for each worker thread
//!     of a server, and `Inbox::wake(&self)`.
//!   * `net::Handed`: a connection whose requests wait in `Shared::pool`,
//!     and `Handed::serve(self, shared: &http::Shared<H>)`, which a pool
//!     thread calls to answer them and hand the connection back.
//!   * `net::run(listener: Listener, index: usize, shared:
//!     &http::Shared<H>) -> io::Result<()>`: the loop of worker `index`
//!     (its inbox is `Shared::inbox(index)`). When an accept completes, the
//!     worker re-arms the accept first, then serves the connection itself.
//!     Each connection is an `http::Connection` driven without blocking;
//!     on `Next::Serve` (with `Dispatch::Pool`) it goes to the pool as a
//!     `Handed` and is left alone until it is back. The loop applies the
//!     timeouts, the connection limit (`Shared::admit`, answered 503 when
//!     full) and, once `Shared::stopping`, the graceful drain, and returns
//!     when its last connection is closed. Which thread serves a
//!     connection is the backend's to choose: on Linux and on Windows,
//!     any worker of the server that is free.
//!
//! An OS that is neither unix nor Windows gets `unsupported`, whose every
//! call returns `io::ErrorKind::Unsupported`; so does `fs` on a unix other
//! than Linux and Android, which lack `getdents64`, and `net` there, which
//! is written for epoll.
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

#[cfg(not(any(windows, target_os = "linux", target_os = "android")))]
#[cfg_attr(unix, allow(dead_code, reason = "unix uses only its `fs`"))]
mod unsupported;
#[cfg(not(any(unix, windows)))]
pub(crate) use unsupported::*;
