//! Windows: I/O completion ports, `AcceptEx`, and overlapped `WSARecv` and
//! `WSASend`, one operation in flight per connection.
//!
//! * I/O completion ports: <https://learn.microsoft.com/en-us/windows/win32/fileio/i-o-completion-ports>
//! * `AcceptEx`: <https://learn.microsoft.com/en-us/windows/win32/api/mswsock/nf-mswsock-acceptex>
//! * `GetQueuedCompletionStatusEx`: <https://learn.microsoft.com/en-us/windows/win32/fileio/getqueuedcompletionstatusex-func>
//! * `CancelIoEx`: <https://learn.microsoft.com/en-us/windows/win32/fileio/cancelioex-func>
//!
//! # One listening socket per address
//!
//! Windows has no `SO_REUSEPORT`, and its `SO_REUSEADDR` lets a second socket
//! take over a port in use rather than share its connections
//! (<https://learn.microsoft.com/en-us/windows/win32/winsock/using-so-reuseaddr-and-so-exclusiveaddruse>),
//! so the one `Listener::bind` per thread of `Server::bind` cannot each
//! make a socket. Instead a process-wide registry holds every live
//! listening socket (weakly) under the address it is bound to, and binding
//! the exact address of one that no server runs yet returns that socket
//! again: all the workers of a server share one socket, bound once with
//! the default (neither option) sharing mode. A second server on an address a running one
//! serves gets a fresh `bind`, which fails with "address in use".
//!
//! # One completion port per listening socket
//!
//! A socket reports to a single completion port, so every `AcceptEx` on the
//! shared socket completes on one port, and every worker accepting from it
//! must wait on that port. The connections they accept join the same port:
//! a [`Hub`] is a port plus the connection slots whose sockets complete on
//! it, and whichever thread of the hub dequeues a completion handles it.
//! The thread whose accept completes first posts the next `AcceptEx` and
//! then serves the new connection itself; later completions of that
//! connection go to whichever thread of the hub is free, which is the
//! thread-pool model completion ports are made for. With `Dispatch::Pool`
//! a received request is handed to the serving pool instead, which answers
//! it and posts a completion of its own to the hub to have it sent. The price is a lock per connection, which
//! only the sweep of timeouts ever contends.
//!
//! # One operation in flight per connection
//!
//! A connection has at most one overlapped operation in flight: a `WSASend`
//! of its session's pending output, a `WSARecv` into its read buffer, or
//! its requests with the serving pool, and nothing else touches the session
//! until it completes. A timeout or a drain sets
//! a flag and, if a receive is in flight, cancels it; the flag is acted on
//! when the cancelled receive completes. A close cancels whatever is in
//! flight and frees the slot only once that has completed, so no buffer is
//! reused or freed under the kernel. Slots are `Arc`s that never move; a
//! socket's completion key is its slot's index, and the completion's
//! `OVERLAPPED` pointer, compared with the slot's two, says which operation
//! finished.

use std::cell::UnsafeCell;
use std::io;
use std::mem::{self, ManuallyDrop};
use std::net::{Ipv4Addr, Ipv6Addr, SocketAddr, SocketAddrV4, SocketAddrV6};
use std::ptr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Once, PoisonError, RwLock, Weak};
use std::time::{Duration, Instant, SystemTime};

use windows_sys::Win32::Foundation::{
    CloseHandle, FALSE, HANDLE, INVALID_HANDLE_VALUE, WAIT_TIMEOUT,
};
use windows_sys::Win32::Networking::WinSock::{
    self as winsock, ADDRESS_FAMILY, AF_INET, AF_INET6, AcceptEx, IN_ADDR, IN_ADDR_0, IN6_ADDR,
    IN6_ADDR_0, INVALID_SOCKET, IPPROTO_TCP, SD_SEND, SO_SNDBUF, SO_UPDATE_ACCEPT_CONTEXT,
    SOCK_STREAM, SOCKADDR_IN, SOCKADDR_IN6, SOCKADDR_IN6_0, SOCKADDR_STORAGE, SOCKET, SOCKET_ERROR,
    SOL_SOCKET, WSA_FLAG_NO_HANDLE_INHERIT, WSA_FLAG_OVERLAPPED, WSA_IO_PENDING,
    WSA_OPERATION_ABORTED, WSABUF, WSADATA, WSAECONNRESET, WSAGetLastError, WSAGetOverlappedResult,
    WSARecv, WSASend, WSASocketW, WSAStartup,
};
use windows_sys::Win32::System::IO::{
    CancelIoEx, CreateIoCompletionPort, GetQueuedCompletionStatusEx, OVERLAPPED, OVERLAPPED_ENTRY,
    PostQueuedCompletionStatus,
};

use crate::http::{
    Config, Connection, DATE_LEN, DateCache, Expiry, Handler, Next, OVER_LIMIT, Shared, later,
};

/// The completion key of a wake-up.
const WAKE: usize = usize::MAX;
/// The completion key of the listening socket; a connection's is its slot index.
const ACCEPT: usize = usize::MAX - 1;
/// Completions dequeued at once.
const ENTRIES: usize = 128;
/// `AcceptEx` calls kept in flight per listening socket: enough that a
/// burst of connections rarely waits for a re-post; the backlog holds the rest.
const ACCEPTS: usize = 32;
/// The room `AcceptEx` needs for each address: the largest the transport
/// uses, plus 16 bytes.
const ADDR_ROOM: usize = mem::size_of::<SOCKADDR_IN6>() + 16;
/// winsock2.h's `SOMAXCONN`, "the provider's maximum"; windows-sys exports
/// winsock.h's value, 5.
/// <https://learn.microsoft.com/en-us/windows/win32/api/winsock2/nf-winsock2-listen>
const BACKLOG: i32 = 0x7fff_ffff;

/// Winsock must be started before its first call, in every process. Like std,
/// start it once and never call `WSACleanup`: the process exit does that.
/// <https://learn.microsoft.com/en-us/windows/win32/api/winsock/nf-winsock-wsastartup>
fn start_winsock() {
    static START: Once = Once::new();
    START.call_once(|| {
        let mut data = WSADATA::default();
        // SAFETY: `data` is a valid out pointer for the call. A failure shows
        // up as WSANOTINITIALISED from the socket call that follows.
        let _ = unsafe { WSAStartup(0x0202, &mut data) };
    });
}

/// The calling thread's last Winsock error code.
fn wsa_code() -> i32 {
    // SAFETY: `WSAGetLastError` takes no arguments.
    unsafe { WSAGetLastError() }
}

fn wsa_error() -> io::Error {
    io::Error::from_raw_os_error(wsa_code())
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// An overlapped TCP socket that child processes do not inherit, closed on drop.
struct Socket(SOCKET);

impl Socket {
    fn new(family: ADDRESS_FAMILY) -> io::Result<Socket> {
        start_winsock();
        let flags = WSA_FLAG_OVERLAPPED | WSA_FLAG_NO_HANDLE_INHERIT;
        // SAFETY: a null protocol info is allowed: the other arguments pick
        // the provider.
        let raw = unsafe {
            WSASocketW(
                i32::from(family),
                SOCK_STREAM,
                IPPROTO_TCP,
                ptr::null(),
                0,
                flags,
            )
        };
        if raw == INVALID_SOCKET {
            return Err(wsa_error());
        }
        Ok(Socket(raw))
    }

    /// The socket as the kernel handle it also is, for the I/O calls.
    fn handle(&self) -> HANDLE {
        self.0 as HANDLE
    }

    /// Sets the `SOL_SOCKET` option `name` of the socket to `value`.
    fn set_option<T: Copy>(&self, name: i32, value: T) -> io::Result<()> {
        // SAFETY: `value` is live for the call, and the length is its size.
        let rc = unsafe {
            winsock::setsockopt(
                self.0,
                SOL_SOCKET,
                name,
                (&value as *const T).cast(),
                mem::size_of::<T>() as i32,
            )
        };
        if rc == SOCKET_ERROR {
            return Err(wsa_error());
        }
        Ok(())
    }

    /// Cancels the operation of `overlapped` on this socket, or every one
    /// with null, whichever thread posted it. Each still completes, with
    /// `WSA_OPERATION_ABORTED` unless it finished first.
    fn cancel(&self, overlapped: *const OVERLAPPED) {
        // SAFETY: the socket is open; CancelIoEx only compares `overlapped`
        // with the operations in flight. ERROR_NOT_FOUND (nothing left to
        // cancel) is fine.
        unsafe { CancelIoEx(self.handle(), overlapped) };
    }

    /// The byte count or Winsock error of an operation on this socket whose
    /// completion was just dequeued.
    fn outcome(&self, overlapped: *const OVERLAPPED) -> Result<usize, i32> {
        let (mut bytes, mut flags) = (0u32, 0u32);
        // SAFETY: the operation of `overlapped` has completed, so the OS is
        // done with it; the out pointers are live for the call.
        let ok =
            unsafe { WSAGetOverlappedResult(self.0, overlapped, &mut bytes, FALSE, &mut flags) };
        if ok == FALSE {
            Err(wsa_code())
        } else {
            Ok(bytes as usize)
        }
    }
}

impl Drop for Socket {
    fn drop(&mut self) {
        // SAFETY: the socket is open and closed once, here. Nothing is in
        // flight on it, except after a worker failed: then the operations
        // complete as aborted, into slots that were leaked for them (see
        // the `Drop` of `Hub` and `ListenSocket`).
        unsafe { winsock::closesocket(self.0) };
    }
}

fn sockaddr(addr: SocketAddr) -> (SOCKADDR_STORAGE, i32) {
    let mut storage = SOCKADDR_STORAGE::default();
    let len = match addr {
        SocketAddr::V4(v4) => {
            let sin = SOCKADDR_IN {
                sin_family: AF_INET,
                sin_port: v4.port().to_be(),
                sin_addr: IN_ADDR {
                    S_un: IN_ADDR_0 {
                        S_addr: u32::from_ne_bytes(v4.ip().octets()),
                    },
                },
                sin_zero: [0; 8],
            };
            // SAFETY: `SOCKADDR_STORAGE` is larger than and aligned for
            // every `SOCKADDR_*`.
            unsafe { ptr::write((&mut storage as *mut SOCKADDR_STORAGE).cast(), sin) };
            mem::size_of::<SOCKADDR_IN>()
        }
        SocketAddr::V6(v6) => {
            let sin6 = SOCKADDR_IN6 {
                sin6_family: AF_INET6,
                sin6_port: v6.port().to_be(),
                sin6_flowinfo: v6.flowinfo(),
                sin6_addr: IN6_ADDR {
                    u: IN6_ADDR_0 {
                        Byte: v6.ip().octets(),
                    },
                },
                Anonymous: SOCKADDR_IN6_0 {
                    sin6_scope_id: v6.scope_id(),
                },
            };
            // SAFETY: as above.
            unsafe { ptr::write((&mut storage as *mut SOCKADDR_STORAGE).cast(), sin6) };
            mem::size_of::<SOCKADDR_IN6>()
        }
    };
    (storage, len as i32)
}

/// The address `socket` is bound to.
fn local_addr(socket: &Socket) -> io::Result<SocketAddr> {
    let mut storage = SOCKADDR_STORAGE::default();
    let mut len = mem::size_of::<SOCKADDR_STORAGE>() as i32;
    // SAFETY: `storage` is writable for `len` bytes, and `len` is live.
    let rc = unsafe {
        winsock::getsockname(
            socket.0,
            (&mut storage as *mut SOCKADDR_STORAGE).cast(),
            &mut len,
        )
    };
    if rc == SOCKET_ERROR {
        return Err(wsa_error());
    }
    let at = &storage as *const SOCKADDR_STORAGE;
    match storage.ss_family {
        AF_INET => {
            // SAFETY: for AF_INET the storage holds a `SOCKADDR_IN`, and it
            // is larger than and aligned for one.
            let sin = unsafe { ptr::read(at.cast::<SOCKADDR_IN>()) };
            // SAFETY: every field of the `IN_ADDR` union views the same four bytes.
            let raw = unsafe { sin.sin_addr.S_un.S_addr };
            let ip = Ipv4Addr::from(raw.to_ne_bytes());
            Ok(SocketAddr::V4(SocketAddrV4::new(
                ip,
                u16::from_be(sin.sin_port),
            )))
        }
        AF_INET6 => {
            // SAFETY: as above, for AF_INET6 and `SOCKADDR_IN6`.
            let sin6 = unsafe { ptr::read(at.cast::<SOCKADDR_IN6>()) };
            // SAFETY: both fields of each union view the same bytes.
            let (bytes, scope_id) =
                unsafe { (sin6.sin6_addr.u.Byte, sin6.Anonymous.sin6_scope_id) };
            Ok(SocketAddr::V6(SocketAddrV6::new(
                Ipv6Addr::from(bytes),
                u16::from_be(sin6.sin6_port),
                sin6.sin6_flowinfo,
                scope_id,
            )))
        }
        _ => Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "getsockname gave an address that is neither IPv4 nor IPv6",
        )),
    }
}

/// An I/O completion port, closed on drop.
struct Port(HANDLE);

// SAFETY: a completion port is made to be posted to and waited on from any thread.
unsafe impl Send for Port {}
// SAFETY: as above.
unsafe impl Sync for Port {}

impl Port {
    fn new() -> io::Result<Port> {
        // SAFETY: INVALID_HANDLE_VALUE without an existing port makes a new
        // port; concurrency 0 means one running thread per CPU.
        let port = unsafe { CreateIoCompletionPort(INVALID_HANDLE_VALUE, ptr::null_mut(), 0, 0) };
        if port.is_null() {
            return Err(io::Error::last_os_error());
        }
        Ok(Port(port))
    }

    /// Makes every overlapped operation on `socket` complete here, under `key`.
    fn add(&self, socket: &Socket, key: usize) -> io::Result<()> {
        // SAFETY: both handles are open; each socket joins a port once,
        // right after it is made or accepted.
        let port = unsafe { CreateIoCompletionPort(socket.handle(), self.0, key, 0) };
        if port.is_null() {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }

    /// Queues a completion with `key` and no operation. A failure (out of
    /// memory) is not reported: the waiter's sweep looks at the same state.
    fn post(&self, key: usize) {
        self.post_as(key, ptr::null());
    }

    /// Queues a completion with `key` and `overlapped`, which the OS never
    /// reads: it only says which operation of the connection completed.
    /// Fails only when out of memory, which leaves the connection to its
    /// deadline.
    fn post_as(&self, key: usize, overlapped: *const OVERLAPPED) {
        // SAFETY: the port is open; the OVERLAPPED pointer is passed through
        // to the waiter untouched.
        unsafe { PostQueuedCompletionStatus(self.0, 0, key, overlapped) };
    }

    /// Waits up to `timeout` for completions and fills `entries` with them.
    fn wait(&self, entries: &mut [OVERLAPPED_ENTRY], timeout: Duration) -> io::Result<usize> {
        // Rounded up, and kept below INFINITE.
        let ms = timeout
            .as_millis()
            .saturating_add(1)
            .min(u128::from(u32::MAX - 1)) as u32;
        let max = entries.len().min(u32::MAX as usize) as u32;
        let mut n = 0u32;
        // SAFETY: `entries` has room for `max` entries, and `n` is live.
        let ok = unsafe {
            GetQueuedCompletionStatusEx(self.0, entries.as_mut_ptr(), max, &mut n, ms, FALSE)
        };
        if ok != FALSE {
            return Ok(n as usize);
        }
        let e = io::Error::last_os_error();
        if e.raw_os_error() == Some(WAIT_TIMEOUT as i32) {
            Ok(0)
        } else {
            Err(e)
        }
    }
}

impl Drop for Port {
    fn drop(&mut self) {
        // SAFETY: the handle is open and closed once, here.
        unsafe { CloseHandle(self.0) };
    }
}

/// A completion port, and the connection slots whose sockets complete on
/// it: the hub of one listening socket.
struct Hub {
    port: Port,
    /// Indexed by completion key; grows, never shrinks, and an `Arc` never moves.
    conns: RwLock<Vec<Arc<Conn>>>,
    free: Mutex<Vec<usize>>,
    /// Open connections, including those whose last operation is being cancelled.
    live: AtomicUsize,
    draining: AtomicBool,
    /// The address of the `Shared` of the server whose workers wait here; 0 before the first.
    owner: AtomicUsize,
    /// When the next sweep of `conns` is due, so that its workers take turns.
    next_sweep: Mutex<Option<Instant>>,
}

impl Hub {
    fn new() -> io::Result<Hub> {
        Ok(Hub {
            port: Port::new()?,
            conns: RwLock::new(Vec::new()),
            free: Mutex::new(Vec::new()),
            live: AtomicUsize::new(0),
            draining: AtomicBool::new(false),
            owner: AtomicUsize::new(0),
            next_sweep: Mutex::new(None),
        })
    }

    fn conn(&self, key: usize) -> Option<Arc<Conn>> {
        let conns = self.conns.read().unwrap_or_else(PoisonError::into_inner);
        conns.get(key).cloned()
    }

    /// Lets a worker of `shared`'s server wait here; the workers of
    /// another server must not, or they would serve its connections.
    fn join<H>(&self, shared: &Shared<H>) -> io::Result<()> {
        let me = (shared as *const Shared<H>).addr();
        match self
            .owner
            .compare_exchange(0, me, Ordering::AcqRel, Ordering::Acquire)
        {
            Ok(_) => Ok(()),
            Err(owner) if owner == me => Ok(()),
            Err(_) => Err(io::Error::new(
                io::ErrorKind::AddrInUse,
                "another server of this process already serves this address",
            )),
        }
    }

    /// Whether the caller is the one to sweep now.
    fn claim_sweep(&self, now: Instant, every: Duration) -> bool {
        let mut next = lock(&self.next_sweep);
        if next.is_some_and(|next| now < next) {
            return false;
        }
        *next = Some(now + every);
        true
    }

    /// Frees the slots and their buffers once the drain is over: no
    /// connection is open and no accept is pending, so no operation can
    /// complete into a slot, and a handle to the server that outlives it
    /// keeps only the hub.
    fn free_slots(&self) {
        self.conns
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .clear();
        lock(&self.free).clear();
    }
}

impl Drop for Hub {
    fn drop(&mut self) {
        if *self.live.get_mut() != 0 {
            // A worker failed with connections open: their operations may
            // still complete into these slots, so leak rather than free them.
            let conns = self.conns.get_mut().unwrap_or_else(PoisonError::into_inner);
            mem::forget(mem::take(conns));
        }
    }
}

/// Which operation of a connection is in flight.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Op {
    Recv,
    Send,
    /// The serving pool answers the requests received.
    Serve,
}

/// An operation of the OS on a connection's socket: what `post` starts.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Io {
    Recv,
    Send,
}

impl From<Io> for Op {
    fn from(io: Io) -> Op {
        match io {
            Io::Recv => Op::Recv,
            Io::Send => Op::Send,
        }
    }
}

/// One connection slot. The OS writes an `OVERLAPPED` while its operation
/// is in flight, so both sit outside the lock, at an address that never
/// changes.
struct Conn {
    recv: UnsafeCell<OVERLAPPED>,
    send: UnsafeCell<OVERLAPPED>,
    /// Never given to the OS: its address marks the completion the serving
    /// pool posts when it is done.
    served: OVERLAPPED,
    state: Mutex<ConnState>,
}

// SAFETY: the `OVERLAPPED`s are only used through raw pointers: written by
// this code under the `state` lock while no operation uses them, and by the
// OS while one does. The rest is behind the lock.
unsafe impl Send for Conn {}
// SAFETY: as above.
unsafe impl Sync for Conn {}

struct ConnState {
    /// None while the slot is free.
    socket: Option<Socket>,
    conn: Connection,
    in_flight: Option<Op>,
    /// Cancelled: the slot is freed when the operation in flight completes.
    closing: bool,
    /// The server is stopping; acted on once nothing is in flight.
    drain: bool,
    /// A request did not arrive in time; acted on once nothing is in flight.
    timed_out: bool,
}

impl Conn {
    fn new(config: &Config, now: Instant) -> Conn {
        Conn {
            recv: UnsafeCell::new(OVERLAPPED::default()),
            send: UnsafeCell::new(OVERLAPPED::default()),
            served: OVERLAPPED::default(),
            state: Mutex::new(ConnState {
                socket: None,
                conn: Connection::new(config, now),
                in_flight: None,
                closing: false,
                drain: false,
                timed_out: false,
            }),
        }
    }
}

/// One `AcceptEx` that may be in flight on a listening socket.
struct Accept {
    overlapped: UnsafeCell<OVERLAPPED>,
    /// Where `AcceptEx` writes the local and remote addresses.
    addrs: UnsafeCell<[u8; 2 * ADDR_ROOM]>,
    /// The socket being accepted into, while the `AcceptEx` is in flight.
    socket: Mutex<Option<Socket>>,
}

// SAFETY: `overlapped` and `addrs` are only used through raw pointers:
// written by this code under the `socket` lock while it is None (nothing in
// flight), and by the OS while an `AcceptEx` is in flight.
unsafe impl Send for Accept {}
// SAFETY: as above.
unsafe impl Sync for Accept {}

/// A listening socket and its hub, shared by every [`Listener`] of one address.
struct ListenSocket {
    /// Closed by [`stop`](Self::stop) when the server drains, or on drop.
    socket: ManuallyDrop<Socket>,
    /// Whether `socket` is still open: read-locked around every use of its
    /// handle, write-locked to close it.
    open: RwLock<bool>,
    family: ADDRESS_FAMILY,
    addr: SocketAddr,
    /// The `SO_SNDBUF` of each socket accepted into, if set.
    send_buffer: Option<i32>,
    hub: Arc<Hub>,
    accepts: Box<[Accept]>,
    /// `AcceptEx` calls in flight.
    accepting: AtomicUsize,
}

impl ListenSocket {
    fn open(addr: SocketAddr, send_buffer: Option<usize>) -> io::Result<ListenSocket> {
        let family = match addr {
            SocketAddr::V4(_) => AF_INET,
            SocketAddr::V6(_) => AF_INET6,
        };
        let socket = Socket::new(family)?;
        // Neither SO_REUSEADDR (port theft, see the module docs) nor
        // SO_EXCLUSIVEADDRUSE: the default mode.
        let (raw, len) = sockaddr(addr);
        // SAFETY: `raw` holds a valid address of `len` bytes for the
        // socket's family.
        let rc = unsafe { winsock::bind(socket.0, (&raw as *const SOCKADDR_STORAGE).cast(), len) };
        if rc == SOCKET_ERROR {
            let e = wsa_error();
            return Err(io::Error::new(e.kind(), format!("cannot bind {addr}: {e}")));
        }
        // SAFETY: `listen` takes no pointers.
        if unsafe { winsock::listen(socket.0, BACKLOG) } == SOCKET_ERROR {
            return Err(wsa_error());
        }
        let addr = local_addr(&socket)?;
        let hub = Arc::new(Hub::new()?);
        hub.port.add(&socket, ACCEPT)?;
        let accepts = (0..ACCEPTS)
            .map(|_| Accept {
                overlapped: UnsafeCell::new(OVERLAPPED::default()),
                addrs: UnsafeCell::new([0; 2 * ADDR_ROOM]),
                socket: Mutex::new(None),
            })
            .collect();
        Ok(ListenSocket {
            socket: ManuallyDrop::new(socket),
            open: RwLock::new(true),
            family,
            addr,
            send_buffer: send_buffer.map(|bytes| i32::try_from(bytes).unwrap_or(i32::MAX)),
            hub,
            accepts,
            accepting: AtomicUsize::new(0),
        })
    }

    /// Posts an `AcceptEx` on every idle slot. A failure leaves the slot
    /// idle, and the next sweep tries again.
    fn arm_all(&self) {
        for accept in &self.accepts {
            let _ = self.arm(accept);
        }
    }

    /// Posts an `AcceptEx` on `accept` unless it has one in flight or the
    /// hub is draining.
    fn arm(&self, accept: &Accept) -> io::Result<()> {
        let mut pending = lock(&accept.socket);
        // Checked under the slot's lock, which `cancel_all` also takes: no
        // AcceptEx is posted after a drain has cancelled them.
        if pending.is_some() || self.hub.draining.load(Ordering::SeqCst) {
            return Ok(());
        }
        let open = self.open.read().unwrap_or_else(PoisonError::into_inner);
        if !*open {
            return Ok(());
        }
        loop {
            let socket = Socket::new(self.family)?;
            if let Some(bytes) = self.send_buffer {
                socket.set_option(SO_SNDBUF, bytes)?;
            }
            // SAFETY: nothing is in flight on this slot (`pending` is None),
            // so the OS does not use its OVERLAPPED.
            unsafe { accept.overlapped.get().write(OVERLAPPED::default()) };
            self.accepting.fetch_add(1, Ordering::SeqCst);
            let mut received = 0u32;
            // SAFETY: both sockets are open; `addrs` has ADDR_ROOM bytes for
            // each address, as AcceptEx requires, and no room for data
            // (length 0), so it completes on connect. `addrs` and the
            // OVERLAPPED stay where they are until the completion is
            // dequeued: the slot lives as long as the listening socket, and
            // its `Drop` leaks the slots if an AcceptEx is still in flight.
            let ok = unsafe {
                AcceptEx(
                    self.socket.0,
                    socket.0,
                    accept.addrs.get().cast(),
                    0,
                    ADDR_ROOM as u32,
                    ADDR_ROOM as u32,
                    &mut received,
                    accept.overlapped.get(),
                )
            };
            // Done at once or pending, the completion is queued either way
            // (FILE_SKIP_COMPLETION_PORT_ON_SUCCESS is not set).
            let code = if ok == FALSE { wsa_code() } else { 0 };
            if ok != FALSE || code == WSA_IO_PENDING {
                *pending = Some(socket);
                return Ok(());
            }
            self.accepting.fetch_sub(1, Ordering::SeqCst);
            // A connection reset while queued; the next may be fine.
            if code != WSAECONNRESET {
                return Err(io::Error::from_raw_os_error(code));
            }
        }
    }

    /// Cancels every `AcceptEx` in flight; each still completes.
    ///
    /// Locks are taken slot first, then `open`, here as everywhere, so no
    /// two threads wait on each other.
    fn cancel_all(&self) {
        for accept in &self.accepts {
            let pending = lock(&accept.socket);
            let open = self.open.read().unwrap_or_else(PoisonError::into_inner);
            if pending.is_some() && *open {
                self.socket.cancel(accept.overlapped.get());
            }
        }
    }

    /// Stops listening: cancels the `AcceptEx` calls in flight (each still
    /// completes) and closes the socket, so new connections are refused
    /// rather than left in a backlog nobody accepts from.
    fn stop(&self) {
        self.cancel_all();
        let mut open = self.open.write().unwrap_or_else(PoisonError::into_inner);
        if *open {
            *open = false;
            // SAFETY: the socket is open (`open` was true) and is closed
            // once, here; every other use of its handle holds `open` for
            // reading and checks it first.
            unsafe { winsock::closesocket(self.socket.0) };
        }
    }
}

impl Drop for ListenSocket {
    fn drop(&mut self) {
        if *self.open.get_mut().unwrap_or_else(PoisonError::into_inner) {
            // SAFETY: the socket is still open, and this is its last use.
            unsafe { ManuallyDrop::drop(&mut self.socket) };
        }
        if *self.accepting.get_mut() != 0 {
            // A worker failed with AcceptEx calls in flight: they may still
            // complete into their slots, so leak rather than free them.
            mem::forget(mem::take(&mut self.accepts));
        }
    }
}

/// The listening sockets of this process, by the address each is bound to.
static BOUND: Mutex<Vec<(SocketAddr, Weak<ListenSocket>)>> = Mutex::new(Vec::new());

/// A listening TCP socket, overlapped and not inherited, shared by every
/// `Listener` bound to its address until a server runs on it (see the
/// module docs).
pub(crate) struct Listener(Arc<ListenSocket>);

impl Listener {
    /// Binds and listens on `addr`, or shares the listening socket already
    /// bound to exactly `addr` if no server runs on it yet. The sockets it
    /// accepts into get an `SO_SNDBUF` of `send_buffer` bytes, if given.
    pub(crate) fn bind(addr: SocketAddr, send_buffer: Option<usize>) -> io::Result<Listener> {
        let mut bound = lock(&BOUND);
        bound.retain(|(_, socket)| socket.strong_count() > 0);
        if addr.port() != 0 {
            let unserved = bound
                .iter()
                .filter(|(at, _)| *at == addr)
                .filter_map(|(_, socket)| socket.upgrade())
                .find(|socket| socket.hub.owner.load(Ordering::Acquire) == 0);
            if let Some(socket) = unserved {
                return Ok(Listener(socket));
            }
        }
        let socket = Arc::new(ListenSocket::open(addr, send_buffer)?);
        bound.push((socket.addr, Arc::downgrade(&socket)));
        Ok(Listener(socket))
    }

    /// The address bound, with the port the OS chose for port 0.
    pub(crate) fn local_addr(&self) -> io::Result<SocketAddr> {
        Ok(self.0.addr)
    }
}

/// How a worker is woken: a port to post to, its own until the worker
/// waits on its listening socket's hub. The serving pool posts to that
/// hub directly.
pub(crate) struct Inbox {
    hub: Mutex<Arc<Hub>>,
}

impl Inbox {
    /// The inboxes of a server with `workers` worker threads: one for
    /// each, with a hub of its own until its worker waits on its listening
    /// socket's.
    pub(crate) fn for_workers(workers: usize) -> io::Result<Vec<Arc<Inbox>>> {
        (0..workers).map(|_| Inbox::new().map(Arc::new)).collect()
    }

    /// An inbox with a hub of its own.
    fn new() -> io::Result<Inbox> {
        Ok(Inbox {
            hub: Mutex::new(Arc::new(Hub::new()?)),
        })
    }

    /// Wakes the worker (or, on a shared hub, one of its workers).
    pub(crate) fn wake(&self) {
        lock(&self.hub).port.post(WAKE);
    }

    /// Sends later wake-ups to `hub`, where the worker waits instead.
    fn wake_into(&self, hub: &Arc<Hub>) {
        *lock(&self.hub) = Arc::clone(hub);
    }
}

/// A connection whose requests the serving pool answers: slot `key` of `hub`.
pub(crate) struct Handed {
    hub: Arc<Hub>,
    conn: Arc<Conn>,
    key: usize,
    date: [u8; DATE_LEN],
}

impl Handed {
    /// Answers the requests on this thread, then has a thread of the hub
    /// send the answers.
    pub(crate) fn serve<H: Handler>(self, shared: &Shared<H>) {
        lock(&self.conn.state)
            .conn
            .serve(&shared.handler, &self.date);
        self.hub.port.post_as(self.key, &self.conn.served);
    }
}

/// Runs worker `index` until the server stops and the connections of its
/// hub are done: a loop over batches of completions from
/// `GetQueuedCompletionStatusEx`, with a sweep for timeouts.
pub(crate) fn run<H: Handler>(
    listener: Listener,
    index: usize,
    shared: &Shared<H>,
) -> io::Result<()> {
    // A wake-up posted before this is lost, but `stopping` is read after it.
    shared.inbox(index).wake_into(&listener.0.hub);
    let hub = Arc::clone(&listener.0.hub);
    hub.join(shared)?;
    let mut worker = Worker {
        shared,
        hub,
        listener: Some(listener),
        date: DateCache::new(),
        now: Instant::now(),
        sweep_every: shared.config.sweep_interval(),
        drain_until: None,
        forced: false,
    };
    if let Some(listener) = &worker.listener {
        listener.0.arm_all();
    }
    worker.run()
}

struct Worker<'s, H> {
    shared: &'s Shared<H>,
    hub: Arc<Hub>,
    /// Kept while draining too: its `AcceptEx` calls must complete first.
    listener: Option<Listener>,
    date: DateCache,
    now: Instant,
    sweep_every: Duration,
    drain_until: Option<Instant>,
    /// The shutdown timeout passed and every connection was closed.
    forced: bool,
}

impl<H: Handler> Worker<'_, H> {
    fn run(&mut self) -> io::Result<()> {
        let mut entries = [OVERLAPPED_ENTRY {
            lpCompletionKey: 0,
            lpOverlapped: ptr::null_mut(),
            Internal: 0,
            dwNumberOfBytesTransferred: 0,
        }; ENTRIES];
        let mut next_sweep = self.now + self.sweep_every;
        // A stop before `run` woke the inbox's own port, not this one.
        if self.shared.stopping() {
            self.start_drain();
        }
        loop {
            let wake_at = match self.drain_until {
                Some(until) if !self.forced => next_sweep.min(until),
                _ => next_sweep,
            };
            let n = self
                .hub
                .port
                .wait(&mut entries, wake_at.saturating_duration_since(self.now))?;
            self.now = Instant::now();
            self.date.refresh(SystemTime::now());
            for entry in &entries[..n] {
                match entry.lpCompletionKey {
                    WAKE => {}
                    ACCEPT => self.accepted(entry.lpOverlapped),
                    key => self.completed(key, entry.lpOverlapped),
                }
            }
            if self.shared.stopping() && self.drain_until.is_none() {
                self.start_drain();
            }
            if self.now >= next_sweep {
                self.sweep();
                next_sweep = self.now + self.sweep_every;
            }
            if let Some(until) = self.drain_until {
                let accepting = self
                    .listener
                    .as_ref()
                    .map_or(0, |l| l.0.accepting.load(Ordering::SeqCst));
                if self.hub.live.load(Ordering::SeqCst) == 0 && accepting == 0 {
                    self.hub.free_slots();
                    // Pass the news to a worker of the hub that may sleep.
                    self.hub.port.post(WAKE);
                    return Ok(());
                }
                if self.now >= until && !self.forced {
                    self.forced = true;
                    self.close_all();
                }
            }
        }
    }

    /// An `AcceptEx` completed: re-arm it first, then serve the connection
    /// on this thread.
    fn accepted(&mut self, overlapped: *mut OVERLAPPED) {
        let Some(listener) = self.listener.as_ref().map(|l| Arc::clone(&l.0)) else {
            return;
        };
        let Some(accept) = listener
            .accepts
            .iter()
            .find(|a| ptr::eq(a.overlapped.get(), overlapped))
        else {
            return;
        };
        let (socket, outcome) = {
            let mut pending = lock(&accept.socket);
            let Some(socket) = pending.take() else {
                return;
            };
            let open = listener.open.read().unwrap_or_else(PoisonError::into_inner);
            // Read before the slot is re-armed, which reuses its OVERLAPPED;
            // once the listener is closed, every AcceptEx counts as aborted.
            let outcome = if *open {
                listener.socket.outcome(overlapped)
            } else {
                Err(WSA_OPERATION_ABORTED)
            };
            (socket, outcome)
        };
        listener.accepting.fetch_sub(1, Ordering::SeqCst);
        let _ = listener.arm(accept);
        let open = listener.open.read().unwrap_or_else(PoisonError::into_inner);
        // Failed (reset before it was accepted), cancelled, or too late.
        if outcome.is_err() || !*open || self.hub.draining.load(Ordering::SeqCst) {
            return;
        }
        // Without this, `shutdown` fails on the accepted socket. The value
        // is the listening SOCKET, which `open` keeps open for the call.
        // <https://learn.microsoft.com/en-us/windows/win32/winsock/sol-socket-socket-options>
        let updated = socket.set_option(SO_UPDATE_ACCEPT_CONTEXT, listener.socket.0);
        drop(open);
        if updated.is_err() {
            return;
        }
        if !self.shared.admit() {
            return refuse(&socket);
        }
        self.serve(socket);
    }

    /// Gives `socket`, admitted under the limit, a slot on this worker's
    /// hub and starts serving it; on failure the connection is dropped and
    /// its place under the limit given back.
    fn serve(&self, socket: Socket) {
        let popped = lock(&self.hub.free).pop();
        let slot = match popped {
            Some(key) => self.hub.conn(key).map(|conn| (key, conn)),
            None => {
                let conn = Arc::new(Conn::new(&self.shared.config, self.now));
                let mut conns = self
                    .hub
                    .conns
                    .write()
                    .unwrap_or_else(PoisonError::into_inner);
                conns.push(Arc::clone(&conn));
                Some((conns.len() - 1, conn))
            }
        };
        let Some((key, conn)) = slot else {
            return self.shared.release();
        };
        if self.hub.port.add(&socket, key).is_err() {
            lock(&self.hub.free).push(key);
            return self.shared.release();
        }
        let mut st = lock(&conn.state);
        st.socket = Some(socket);
        st.conn.open(self.now);
        self.hub.live.fetch_add(1, Ordering::SeqCst);
        // Read after the slot is filled: a drain starting now sees it, or it sees the drain.
        st.drain = self.hub.draining.load(Ordering::SeqCst);
        self.drive(key, &conn, &mut st);
    }

    /// An operation of the connection in slot `key` completed.
    fn completed(&self, key: usize, overlapped: *mut OVERLAPPED) {
        let Some(conn) = self.hub.conn(key) else {
            return;
        };
        let op = if ptr::eq(overlapped, conn.recv.get()) {
            Op::Recv
        } else if ptr::eq(overlapped, conn.send.get()) {
            Op::Send
        } else if ptr::eq(overlapped, &conn.served) {
            Op::Serve
        } else {
            return;
        };
        let mut st = lock(&conn.state);
        if st.in_flight != Some(op) {
            return;
        }
        st.in_flight = None;
        let Some(socket) = &st.socket else {
            return;
        };
        let outcome = match op {
            Op::Serve => Ok(0),
            Op::Recv | Op::Send => socket.outcome(overlapped),
        };
        if st.closing {
            return self.finish(key, &mut st);
        }
        match (op, outcome) {
            (Op::Serve, _) => {}
            (Op::Send, Ok(n)) => st.conn.sent(n, self.now),
            (Op::Recv, Ok(n)) => st.conn.received(n, self.now),
            // Cancelled for a timeout or a drain, whose flag says what next.
            (_, Err(WSA_OPERATION_ABORTED)) => {}
            (_, Err(_)) => return self.close(key, &mut st),
        }
        self.drive(key, &conn, &mut st);
    }

    /// Moves a connection with nothing in flight on: acts on a drain or a
    /// timeout, then does what its lifecycle says next. Each completion is
    /// a turn of its own.
    fn drive(&self, key: usize, conn: &Conn, st: &mut ConnState) {
        if mem::take(&mut st.drain) {
            st.conn.drain();
        }
        if mem::take(&mut st.timed_out) {
            match st.conn.expiry(self.now) {
                Expiry::NotYet => {}
                Expiry::TimedOut => st.conn.time_out(self.now, self.date.get()),
                Expiry::Close => return self.close(key, st),
            }
        }
        st.conn.begin_turn();
        loop {
            match st
                .conn
                .advance(&self.shared.handler, self.date.get(), self.now)
            {
                Next::Send => return self.post(key, conn, st, Io::Send),
                Next::Receive | Next::Discard => return self.post(key, conn, st, Io::Recv),
                // Completions queue behind each other's, so each send already
                // lets the others in; input waiting in the session is served on.
                Next::Yield => st.conn.begin_turn(),
                Next::ShutdownWrite => {
                    let Some(raw) = st.socket.as_ref().map(|s| s.0) else {
                        return;
                    };
                    // SAFETY: `shutdown` takes no pointers.
                    if unsafe { winsock::shutdown(raw, SD_SEND) } == SOCKET_ERROR {
                        return self.close(key, st);
                    }
                    st.conn.write_shut(self.now);
                }
                Next::Close => return self.close(key, st),
                Next::Serve => return self.hand(key, st),
            }
        }
    }

    /// Hands the requests of the connection in slot `key` to the serving
    /// pool; the hub hears back through a completion of `Conn::served`.
    fn hand(&self, key: usize, st: &mut ConnState) {
        let Some(conn) = self.hub.conn(key) else {
            return;
        };
        st.in_flight = Some(Op::Serve);
        self.shared.pool.push(Handed {
            hub: Arc::clone(&self.hub),
            conn,
            key,
            date: *self.date.get(),
        });
    }

    /// Posts a receive into the session's read buffer, or a send of its
    /// pending output; closes the connection if that fails.
    fn post(&self, key: usize, conn: &Conn, st: &mut ConnState, io: Io) {
        let Some(raw) = st.socket.as_ref().map(|s| s.0) else {
            return;
        };
        let (buf, len, overlapped) = match io {
            Io::Recv => {
                let buf = st.conn.read_buf();
                (buf.as_mut_ptr(), buf.len(), conn.recv.get())
            }
            Io::Send => {
                let buf = st.conn.pending();
                (buf.as_ptr().cast_mut(), buf.len(), conn.send.get())
            }
        };
        let wsabuf = WSABUF {
            len: len.min(u32::MAX as usize) as u32,
            buf,
        };
        // SAFETY: nothing is in flight on this connection, so the OS does
        // not use the OVERLAPPED.
        unsafe { overlapped.write(OVERLAPPED::default()) };
        // Winsock copies the WSABUF array during the call; the buffer it
        // points into is the session's, which nothing touches until the
        // completion (the session is only used with nothing in flight) and
        // which lives in the slot, freed only with nothing in flight. A null
        // byte count is what the docs ask for with an OVERLAPPED.
        // <https://learn.microsoft.com/en-us/windows/win32/api/winsock2/nf-winsock2-wsarecv>
        let rc = match io {
            Io::Recv => {
                let mut flags = 0u32;
                // SAFETY: see above; `flags` is live for the call.
                unsafe {
                    WSARecv(
                        raw,
                        &wsabuf,
                        1,
                        ptr::null_mut(),
                        &mut flags,
                        overlapped,
                        None,
                    )
                }
            }
            // SAFETY: see above.
            Io::Send => unsafe { WSASend(raw, &wsabuf, 1, ptr::null_mut(), 0, overlapped, None) },
        };
        // Done at once or pending, the completion is queued either way.
        if rc == SOCKET_ERROR && wsa_code() != WSA_IO_PENDING {
            return self.close(key, st);
        }
        st.in_flight = Some(io.into());
    }

    /// Closes the connection: at once if nothing is in flight, otherwise
    /// once the cancelled operation completes, as its buffers must outlive it.
    fn close(&self, key: usize, st: &mut ConnState) {
        if st.in_flight.is_none() {
            return self.finish(key, st);
        }
        if let Some(socket) = &st.socket {
            st.closing = true;
            socket.cancel(ptr::null());
        }
    }

    /// Closes the socket of a connection with nothing in flight and frees its slot.
    fn finish(&self, key: usize, st: &mut ConnState) {
        if st.socket.take().is_none() {
            return;
        }
        st.closing = false;
        st.drain = false;
        st.timed_out = false;
        lock(&self.hub.free).push(key);
        self.hub.live.fetch_sub(1, Ordering::SeqCst);
        self.shared.release();
    }

    /// Gets a flag just set acted on: now if nothing is in flight, after a
    /// receive in flight is cancelled, or once a send in flight completes.
    fn nudge(&self, key: usize, conn: &Conn, st: &mut ConnState) {
        match (st.in_flight, &st.socket) {
            (None, _) => self.drive(key, conn, st),
            (Some(Op::Recv), Some(socket)) => socket.cancel(conn.recv.get()),
            _ => {}
        }
    }

    /// Times out connections past their deadline (one worker of the hub per
    /// period), and retries `AcceptEx` calls that could not be posted.
    fn sweep(&self) {
        if self.hub.claim_sweep(self.now, self.sweep_every) {
            for key in 0.. {
                let Some(conn) = self.hub.conn(key) else {
                    break;
                };
                let mut st = lock(&conn.state);
                if st.socket.is_none() || st.closing {
                    continue;
                }
                match st.conn.expiry(self.now) {
                    Expiry::NotYet => {}
                    // A send in flight that the peer does not take is cancelled too.
                    Expiry::Close => self.close(key, &mut st),
                    Expiry::TimedOut => {
                        st.timed_out = true;
                        self.nudge(key, &conn, &mut st);
                    }
                }
            }
        }
        if let Some(listener) = &self.listener {
            listener.0.arm_all();
        }
    }

    /// Stops accepting, then lets each connection of the hub finish the
    /// request in progress and close.
    fn start_drain(&mut self) {
        self.drain_until = Some(later(self.now, self.shared.config.shutdown_timeout));
        // The stop may have woken only this worker of a shared hub.
        self.hub.port.post(WAKE);
        if self.hub.draining.swap(true, Ordering::SeqCst) {
            return;
        }
        if let Some(listener) = &self.listener {
            listener.0.stop();
        }
        self.each_open(|key, conn, st| {
            if !st.closing && !st.conn.is_lingering() {
                st.drain = true;
                self.nudge(key, conn, st);
            }
        });
    }

    /// The shutdown timeout passed: cancels everything; the slots are freed
    /// as the cancelled operations complete.
    fn close_all(&self) {
        if let Some(listener) = &self.listener {
            listener.0.stop();
        }
        self.each_open(|key, _, st| {
            if !st.closing {
                self.close(key, st);
            }
        });
    }

    /// Calls `f` with each connection of the hub that has an open socket,
    /// under its lock.
    fn each_open(&self, mut f: impl FnMut(usize, &Conn, &mut ConnState)) {
        for key in 0.. {
            let Some(conn) = self.hub.conn(key) else {
                break;
            };
            let mut st = lock(&conn.state);
            if st.socket.is_some() {
                f(key, &conn, &mut st);
            }
        }
    }
}

/// Answers 503 on a connection over the limit; dropping it then closes it.
/// The blocking `send` returns at once: a new connection's send buffer is
/// empty and far larger than the answer.
fn refuse(socket: &Socket) {
    // SAFETY: `OVER_LIMIT` is live for the call and its length fits an i32.
    unsafe { winsock::send(socket.0, OVER_LIMIT.as_ptr(), OVER_LIMIT.len() as i32, 0) };
    // SAFETY: `shutdown` takes no pointers.
    unsafe { winsock::shutdown(socket.0, SD_SEND) };
}
