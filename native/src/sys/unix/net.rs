//! Linux: one edge-triggered epoll shared by a server's worker threads,
//! over their `SO_REUSEPORT` listeners and every connection, so that
//! whichever worker is free serves whatever is ready; non-blocking sockets
//! from `accept4`; and an `eventfd` to wake a worker from another thread:
//! at a shutdown, or with `Dispatch::Pool` when the pool hands a
//! connection back with its answers.
//!
//! * epoll: <https://man7.org/linux/man-pages/man7/epoll.7.html>
//! * `SO_REUSEPORT`: <https://man7.org/linux/man-pages/man7/socket.7.html>
//! * `accept4`: <https://man7.org/linux/man-pages/man2/accept.2.html>
//! * `eventfd`: <https://man7.org/linux/man-pages/man2/eventfd.2.html>

use std::io::{self, Read, Write};
use std::mem;
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, RwLock};
use std::time::{Duration, Instant, SystemTime};

use crate::http::{
    Connection, DATE_LEN, DateCache, Expiry, Handler, Next, OVER_LIMIT, Shared, later,
};

/// A listening TCP socket with `SO_REUSEPORT`, non-blocking and close-on-exec.
pub(crate) struct Listener(TcpListener);

impl Listener {
    /// Binds and listens on `addr`; other listeners may bind the same port.
    /// The connections it accepts take on its `SO_SNDBUF` of `send_buffer`
    /// bytes, if given.
    pub(crate) fn bind(addr: SocketAddr, send_buffer: Option<usize>) -> io::Result<Listener> {
        let family = match addr {
            SocketAddr::V4(_) => libc::AF_INET,
            SocketAddr::V6(_) => libc::AF_INET6,
        };
        let kind = libc::SOCK_STREAM | libc::SOCK_NONBLOCK | libc::SOCK_CLOEXEC;
        // SAFETY: `socket` takes no pointers.
        let fd = syscall!(socket(family, kind, 0))?;
        // SAFETY: `socket` just returned `fd`, and nothing else owns it.
        let socket = unsafe { OwnedFd::from_raw_fd(fd) };
        set_option(&socket, libc::SO_REUSEADDR, 1)?;
        set_option(&socket, libc::SO_REUSEPORT, 1)?;
        if let Some(bytes) = send_buffer {
            let bytes = libc::c_int::try_from(bytes).unwrap_or(libc::c_int::MAX);
            set_option(&socket, libc::SO_SNDBUF, bytes)?;
        }
        let (raw, len) = sockaddr(addr);
        // SAFETY: `raw` is a `sockaddr_storage` holding a valid address of
        // `len` bytes for the socket's family.
        syscall!(bind(
            socket.as_raw_fd(),
            (&raw as *const libc::sockaddr_storage).cast(),
            len
        ))
        .map_err(|e| io::Error::new(e.kind(), format!("cannot bind {addr}: {e}")))?;
        // SAFETY: `listen` takes no pointers.
        syscall!(listen(socket.as_raw_fd(), libc::SOMAXCONN))?;
        Ok(Listener(TcpListener::from(socket)))
    }

    /// The address bound, with the port the OS chose for port 0.
    pub(crate) fn local_addr(&self) -> io::Result<SocketAddr> {
        self.0.local_addr()
    }

    /// The next pending connection, non-blocking and close-on-exec from the start.
    fn accept(&self) -> io::Result<TcpStream> {
        let flags = libc::SOCK_NONBLOCK | libc::SOCK_CLOEXEC;
        // SAFETY: null address and length pointers are allowed and mean
        // "the peer's address is not wanted".
        let fd = syscall!(accept4(
            self.0.as_raw_fd(),
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            flags
        ))?;
        // SAFETY: `accept4` just returned `fd`, and nothing else owns it.
        Ok(TcpStream::from(unsafe { OwnedFd::from_raw_fd(fd) }))
    }
}

/// Sets the `SOL_SOCKET` option `name` of `socket` to `value`.
fn set_option(socket: &OwnedFd, name: libc::c_int, value: libc::c_int) -> io::Result<()> {
    // SAFETY: `value` is a live `c_int` and the length passed is its size.
    syscall!(setsockopt(
        socket.as_raw_fd(),
        libc::SOL_SOCKET,
        name,
        (&value as *const libc::c_int).cast(),
        mem::size_of::<libc::c_int>() as libc::socklen_t
    ))?;
    Ok(())
}

fn sockaddr(addr: SocketAddr) -> (libc::sockaddr_storage, libc::socklen_t) {
    // SAFETY: `sockaddr_storage` is plain old data; all zeroes is a valid value.
    let mut storage: libc::sockaddr_storage = unsafe { mem::zeroed() };
    let len = match addr {
        SocketAddr::V4(v4) => {
            let sin = libc::sockaddr_in {
                sin_family: libc::AF_INET as libc::sa_family_t,
                sin_port: v4.port().to_be(),
                sin_addr: libc::in_addr {
                    s_addr: u32::from_ne_bytes(v4.ip().octets()),
                },
                sin_zero: [0; 8],
            };
            // SAFETY: `sockaddr_storage` is larger than and aligned for
            // every `sockaddr_*`.
            unsafe { std::ptr::write((&mut storage as *mut libc::sockaddr_storage).cast(), sin) };
            mem::size_of::<libc::sockaddr_in>()
        }
        SocketAddr::V6(v6) => {
            let sin6 = libc::sockaddr_in6 {
                sin6_family: libc::AF_INET6 as libc::sa_family_t,
                sin6_port: v6.port().to_be(),
                sin6_flowinfo: v6.flowinfo(),
                sin6_addr: libc::in6_addr {
                    s6_addr: v6.ip().octets(),
                },
                sin6_scope_id: v6.scope_id(),
            };
            // SAFETY: as above.
            unsafe { std::ptr::write((&mut storage as *mut libc::sockaddr_storage).cast(), sin6) };
            mem::size_of::<libc::sockaddr_in6>()
        }
    };
    (storage, len as libc::socklen_t)
}

/// A worker's inbox, where other threads wake it. Every inbox of a server
/// leads to the server's one [`Hub`], so a wake-up goes to whichever of its
/// workers is free.
pub(crate) struct Inbox {
    hub: Hub,
}

impl Inbox {
    /// The inboxes of a server with `workers` worker threads: one for each,
    /// all on one new hub.
    pub(crate) fn for_workers(workers: usize) -> io::Result<Vec<Arc<Inbox>>> {
        let inbox = Arc::new(Inbox {
            hub: Hub::new(workers)?,
        });
        Ok(vec![inbox; workers])
    }

    /// Wakes one of the server's workers.
    pub(crate) fn wake(&self) {
        self.hub.wake();
    }
}

/// What the workers of one server share, so that whichever of them is
/// free serves whatever is ready: one epoll over every listener and
/// connection, the connections' slots, and an `eventfd` that wakes a
/// worker at a shutdown or when the pool hands connections back.
///
/// Everything is edge-triggered, so each event goes to one worker. A
/// thread serves a connection only while it holds the connection's claim
/// (see [`Slot::claim`]): an event that comes while another thread holds
/// it makes that thread take one more turn before it lets go, so no event
/// is lost and no two threads serve one connection at once.
struct Hub {
    epoll: Epoll,
    event: OwnedFd,
    /// The listeners, by worker index; emptied when the drain begins.
    listeners: Mutex<Vec<Option<Listener>>>,
    /// Indexed by token; grows, never shrinks, and a slot never moves.
    slots: RwLock<Vec<Arc<Slot>>>,
    /// Tokens of closed connections, whose slots wait for the next accept.
    free: Mutex<Vec<usize>>,
    /// Connections the pool handed back, by token.
    handed: Mutex<Vec<(usize, Box<Connection>)>>,
    /// Set by the first worker that sees the shutdown.
    draining: AtomicBool,
    /// When the next sweep is due, so that the workers take turns at it.
    next_sweep: Mutex<Option<Instant>>,
    /// Workers that have not returned; the last to return closes what is left.
    running: AtomicUsize,
}

impl Hub {
    fn new(workers: usize) -> io::Result<Hub> {
        let epoll = Epoll::new()?;
        // SAFETY: `eventfd` takes no pointers.
        let fd = syscall!(eventfd(0, libc::EFD_NONBLOCK | libc::EFD_CLOEXEC))?;
        // SAFETY: `eventfd` just returned `fd`, and nothing else owns it.
        let event = unsafe { OwnedFd::from_raw_fd(fd) };
        epoll.add(
            event.as_raw_fd(),
            (libc::EPOLLIN | libc::EPOLLET) as u32,
            WAKE,
        )?;
        Ok(Hub {
            epoll,
            event,
            listeners: Mutex::new((0..workers).map(|_| None).collect()),
            slots: RwLock::new(Vec::new()),
            free: Mutex::new(Vec::new()),
            handed: Mutex::new(Vec::new()),
            draining: AtomicBool::new(false),
            next_sweep: Mutex::new(None),
            running: AtomicUsize::new(workers),
        })
    }

    /// Wakes one worker, or the next to wait if none is waiting.
    fn wake(&self) {
        let one = 1u64.to_ne_bytes();
        // SAFETY: `one` is 8 live bytes, the size an eventfd write takes. A
        // failure can only be a full counter, which wakes a worker anyway.
        let _ = syscall!(write(
            self.event.as_raw_fd(),
            one.as_ptr().cast(),
            one.len()
        ));
    }

    /// Takes back a connection from the pool, and wakes a worker to go on with it.
    fn push(&self, token: usize, conn: Box<Connection>) {
        lock(&self.handed).push((token, conn));
        self.wake();
    }

    /// Moves what was handed back into `into`, which keeps its capacity
    /// from call to call, and resets the eventfd.
    fn take(&self, into: &mut Vec<(usize, Box<Connection>)>) {
        let mut counter = [0u8; 8];
        // SAFETY: `counter` is 8 writable bytes. `EAGAIN` (no wake-up since
        // the last read) is fine.
        let _ = syscall!(read(
            self.event.as_raw_fd(),
            counter.as_mut_ptr().cast(),
            counter.len()
        ));
        mem::swap(&mut *lock(&self.handed), into);
    }

    /// Adds worker `index`'s listener, on which every worker accepts. A
    /// worker that starts after the drain began accepts nothing.
    fn listen(&self, index: usize, listener: Listener) -> io::Result<()> {
        let mut listeners = lock(&self.listeners);
        if self.draining.load(Ordering::Acquire) {
            return Ok(());
        }
        self.epoll.add(
            listener.0.as_raw_fd(),
            (libc::EPOLLIN | libc::EPOLLET) as u32,
            FIRST_LISTENER + index as u64,
        )?;
        listeners[index] = Some(listener);
        Ok(())
    }

    /// A worker returns. The last one closes the listeners and connections
    /// that are left and frees their buffers, even if a handle to the server
    /// outlives it.
    fn leave(&self) {
        if self.running.fetch_sub(1, Ordering::AcqRel) == 1 {
            lock(&self.listeners).clear();
            self.slots
                .write()
                .unwrap_or_else(PoisonError::into_inner)
                .clear();
            lock(&self.free).clear();
            lock(&self.handed).clear();
        }
    }

    /// How many slots there are; tokens run from 0 to this.
    fn slot_count(&self) -> usize {
        self.slots
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
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
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A connection with requests to answer, handed to the serving pool by
/// worker `worker`; its slot `token` stays claimed until it is back.
pub(crate) struct Handed {
    worker: usize,
    token: usize,
    conn: Box<Connection>,
    date: [u8; DATE_LEN],
}

impl Handed {
    /// Answers the requests on this thread, and hands the connection back.
    pub(crate) fn serve<H: Handler>(mut self, shared: &Shared<H>) {
        self.conn.serve(&shared.handler, &self.date);
        shared.inbox(self.worker).hub.push(self.token, self.conn);
    }
}

/// An epoll instance, edge-triggered for everything registered.
struct Epoll(OwnedFd);

impl Epoll {
    fn new() -> io::Result<Epoll> {
        // SAFETY: `epoll_create1` takes no pointers.
        let fd = syscall!(epoll_create1(libc::EPOLL_CLOEXEC))?;
        // SAFETY: `epoll_create1` just returned `fd`, and nothing else owns it.
        Ok(Epoll(unsafe { OwnedFd::from_raw_fd(fd) }))
    }

    fn add(&self, fd: RawFd, events: u32, token: u64) -> io::Result<()> {
        let mut event = libc::epoll_event { events, u64: token };
        // SAFETY: `event` is live for the call; the kernel copies it.
        syscall!(epoll_ctl(
            self.0.as_raw_fd(),
            libc::EPOLL_CTL_ADD,
            fd,
            &mut event
        ))?;
        Ok(())
    }

    fn wait(&self, events: &mut [libc::epoll_event], timeout: Duration) -> io::Result<usize> {
        let ms = timeout.as_millis().saturating_add(1).min(i32::MAX as u128) as i32;
        let max = events.len().min(i32::MAX as usize) as i32;
        // SAFETY: `events` has room for `max` entries.
        match syscall!(epoll_wait(self.0.as_raw_fd(), events.as_mut_ptr(), max, ms)) {
            Ok(n) => Ok(n as usize),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => Ok(0),
            Err(e) => Err(e),
        }
    }
}

/// The token of the hub's eventfd.
const WAKE: u64 = u64::MAX;
/// The token of worker 0's listener; worker `i`'s is this plus `i`.
const FIRST_LISTENER: u64 = 1 << 62;
/// Events a worker takes from the epoll at once. Few: what a worker holds
/// waits for it if the scheduler preempts it, while whatever stays in the
/// epoll goes to the next worker to wait. With the load generator on the
/// same two cores, taking 4 at a time rather than 256 cut the p99 from
/// about 3 ms to under 1 ms, at no cost in CPU time that could be measured.
const EVENTS: usize = 4;
const CONNECTION: u32 = (libc::EPOLLIN | libc::EPOLLOUT | libc::EPOLLRDHUP | libc::EPOLLET) as u32;

/// Runs worker `index` until the server stops and its connections are
/// done: it waits on the hub with the other workers, accepts on any of
/// their listeners, and serves any connection that is ready.
pub(crate) fn run<H: Handler>(
    listener: Listener,
    index: usize,
    shared: &Shared<H>,
) -> io::Result<()> {
    let hub = &shared.inbox(index).hub;
    let result = hub.listen(index, listener).and_then(|()| {
        Worker {
            hub,
            shared,
            index,
            slots: Vec::new(),
            accepted: Vec::new(),
            ready: Vec::new(),
            handed: Vec::new(),
            date: DateCache::new(),
            now: Instant::now(),
            sweep_every: shared.config.sweep_interval(),
            drain_until: None,
        }
        .run()
    });
    hub.leave();
    result
}

/// One connection's place in the hub.
struct Slot {
    /// [`IDLE`], [`CLAIMED`] or [`CLAIMED_AGAIN`]: see [`claim`](Slot::claim).
    claim: AtomicU8,
    state: Mutex<SlotState>,
}

/// No thread serves the connection.
const IDLE: u8 = 0;
/// A thread serves the connection, or the pool has it.
const CLAIMED: u8 = 1;
/// As [`CLAIMED`], and something came for the connection since: the
/// thread that holds the claim takes one more turn before it lets go.
const CLAIMED_AGAIN: u8 = 2;

/// What a [`Slot`] holds: a connection, or the buffers of the last one.
struct SlotState {
    stream: Option<TcpStream>,
    /// `None` while the pool answers its requests.
    conn: Option<Box<Connection>>,
    /// When handed to the pool: the last read took all there was.
    drained: bool,
}

impl Slot {
    fn new(conn: Box<Connection>) -> Slot {
        Slot {
            claim: AtomicU8::new(IDLE),
            state: Mutex::new(SlotState {
                stream: None,
                conn: Some(conn),
                drained: false,
            }),
        }
    }

    /// Claims the connection for a turn. False if another thread holds the
    /// claim; that thread then takes one more turn before it lets go.
    fn claim(&self) -> bool {
        self.shift(IDLE, CLAIMED, CLAIMED_AGAIN)
    }

    /// Claims the connection if no thread holds the claim, and otherwise
    /// leaves it be.
    fn try_claim(&self) -> bool {
        self.claim
            .compare_exchange(IDLE, CLAIMED, Ordering::AcqRel, Ordering::Acquire)
            .is_ok()
    }

    /// Ends a turn. True if something came for the connection during it:
    /// the caller keeps the claim, for one more turn.
    fn release(&self) -> bool {
        self.shift(CLAIMED_AGAIN, CLAIMED, IDLE)
    }

    /// Moves the claim to `to` if it is `from`, and to `otherwise` if not;
    /// whether it was `from`.
    fn shift(&self, from: u8, to: u8, otherwise: u8) -> bool {
        let was = self
            .claim
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |claim| {
                Some(if claim == from { to } else { otherwise })
            });
        was == Ok(from)
    }
}

/// Why [`Worker::advance`] stopped.
enum After {
    /// The connection waits for its socket, or yielded its turn.
    Wait,
    Close,
    /// Its requests go to the pool; `drained` as in [`SlotState`].
    Serve {
        drained: bool,
    },
}

/// One worker thread's loop over the hub.
struct Worker<'s, H> {
    hub: &'s Hub,
    shared: &'s Shared<H>,
    /// This worker's index among the server's, for the pool to hand back to.
    index: usize,
    /// The hub's slots this worker has looked up, by token.
    slots: Vec<Arc<Slot>>,
    /// Connections accepted in this round, served once the listener is re-armed.
    accepted: Vec<TcpStream>,
    /// Connections that used up their turn's budget with input left, served
    /// again once every other event of the round is.
    ready: Vec<usize>,
    /// Connections taken from the hub, kept for its capacity.
    handed: Vec<(usize, Box<Connection>)>,
    date: DateCache,
    /// When the current batch of events was returned.
    now: Instant,
    sweep_every: Duration,
    /// Set when this worker sees the shutdown: when to close whatever is still open.
    drain_until: Option<Instant>,
}

impl<H: Handler> Worker<'_, H> {
    fn run(&mut self) -> io::Result<()> {
        // SAFETY: `epoll_event` is plain old data; all zeroes is a valid value.
        let mut events = [unsafe { mem::zeroed::<libc::epoll_event>() }; EVENTS];
        let mut next_sweep = self.now + self.sweep_every;
        let mut again = Vec::new();
        loop {
            let timeout = match self.ready.is_empty() {
                true => next_sweep.saturating_duration_since(self.now),
                false => Duration::ZERO,
            };
            let n = self.hub.epoll.wait(&mut events, timeout)?;
            self.now = Instant::now();
            self.date.refresh(SystemTime::now());
            for event in &events[..n] {
                let token = event.u64;
                match token {
                    WAKE => self.take_handed(),
                    token if token >= FIRST_LISTENER => {
                        self.accept_all((token - FIRST_LISTENER) as usize);
                    }
                    token => self.turn(token as usize),
                }
            }
            mem::swap(&mut self.ready, &mut again);
            for token in again.drain(..) {
                self.turn(token);
            }
            if self.shared.stopping() && self.drain_until.is_none() {
                self.start_drain();
            }
            if self.now >= next_sweep {
                if self.hub.claim_sweep(self.now, self.sweep_every) {
                    self.sweep();
                }
                next_sweep = self.now + self.sweep_every;
            }
            if let Some(until) = self.drain_until {
                if self.shared.open.load(Ordering::Acquire) == 0 {
                    // Pass the news to a worker that may sleep.
                    self.hub.wake();
                    return Ok(());
                }
                if self.now >= until {
                    self.close_all();
                    self.hub.wake();
                    return Ok(());
                }
            }
        }
    }

    /// The slot of `token`.
    fn slot(&mut self, token: usize) -> Option<Arc<Slot>> {
        if token >= self.slots.len() {
            let slots = self
                .hub
                .slots
                .read()
                .unwrap_or_else(PoisonError::into_inner);
            self.slots
                .extend_from_slice(slots.get(self.slots.len()..).unwrap_or_default());
        }
        self.slots.get(token).cloned()
    }

    /// Accepts on worker `index`'s listener until it would block, which
    /// re-arms its edge; then serves each new connection on this thread.
    fn accept_all(&mut self, index: usize) {
        {
            let listeners = lock(&self.hub.listeners);
            let Some(Some(listener)) = listeners.get(index) else {
                return;
            };
            loop {
                match listener.accept() {
                    Ok(stream) => self.accepted.push(stream),
                    // A connection reset before it was accepted, or a signal.
                    Err(e)
                        if matches!(e.raw_os_error(), Some(libc::ECONNABORTED | libc::EINTR)) => {}
                    // None left (`EAGAIN`), or out of descriptors or memory:
                    // then the rest stay queued, and the next sweep tries again.
                    Err(_) => break,
                }
            }
        }
        let mut accepted = mem::take(&mut self.accepted);
        for stream in accepted.drain(..) {
            if !self.shared.admit() {
                let _ = (&stream).write(OVER_LIMIT);
                let _ = stream.shutdown(Shutdown::Write);
                continue;
            }
            if let Some(token) = self.register(stream) {
                self.turn(token);
            }
        }
        self.accepted = accepted;
    }

    /// Gives `stream` a slot and adds it to the epoll; on failure the
    /// connection is dropped and its place under the limit given back.
    fn register(&mut self, stream: TcpStream) -> Option<usize> {
        let popped = lock(&self.hub.free).pop();
        let token = match popped {
            Some(token) => token,
            None => {
                let conn = Box::new(Connection::new(&self.shared.config, self.now));
                let mut slots = self
                    .hub
                    .slots
                    .write()
                    .unwrap_or_else(PoisonError::into_inner);
                slots.push(Arc::new(Slot::new(conn)));
                slots.len() - 1
            }
        };
        let slot = self.slot(token)?;
        let fd = stream.as_raw_fd();
        {
            let mut state = lock(&slot.state);
            if let Some(conn) = &mut state.conn {
                conn.open(self.now);
            }
            state.stream = Some(stream);
            state.drained = false;
        }
        if self.hub.epoll.add(fd, CONNECTION, token as u64).is_err() {
            lock(&slot.state).stream = None;
            lock(&self.hub.free).push(token);
            self.shared.release();
            return None;
        }
        Some(token)
    }

    /// Serves the connection of `token` now, unless another thread holds
    /// its claim; that thread then serves it again before it lets go.
    fn turn(&mut self, token: usize) {
        if let Some(slot) = self.slot(token)
            && slot.claim()
        {
            self.turns(token, &slot, None);
        }
    }

    /// Takes turns on the connection of `token`, whose claim this thread
    /// holds, until nothing came during the last one; then lets go of the
    /// claim, unless the connection went to the pool. The first turn
    /// begins afresh, or with `resumed` goes on with a connection back
    /// from the pool (see [`go`](Self::go) for `drained`).
    fn turns(&mut self, token: usize, slot: &Slot, mut resumed: Option<bool>) {
        loop {
            let handed = {
                let mut state = lock(&slot.state);
                self.one_turn(token, &mut state, resumed.take())
            };
            if handed || !slot.release() {
                return;
            }
        }
    }

    /// One turn: true if the connection went to the pool. Once the server
    /// is draining, the connection reads what is there, which may begin a
    /// request, before it is told to drain, so that it is not taken for
    /// idle and closed.
    fn one_turn(&mut self, token: usize, state: &mut SlotState, resumed: Option<bool>) -> bool {
        let drained = match (resumed, &mut state.conn) {
            (Some(drained), _) => drained,
            (None, Some(conn)) => {
                conn.begin_turn();
                false
            }
            (None, None) => return false,
        };
        let handed = self.go(token, state, drained);
        if handed || !self.hub.draining.load(Ordering::Acquire) {
            return handed;
        }
        // A connection back from the pool left it with all its input read,
        // but more may have come since: its edge waits in the hub for a turn
        // that would find the connection closed.
        if drained && self.go(token, state, false) {
            return true;
        }
        match state {
            SlotState {
                stream: Some(_),
                conn: Some(conn),
                ..
            } if !conn.is_lingering() => conn.drain(),
            _ => return false,
        }
        self.go(token, state, false)
    }

    /// Reads, answers and writes on one connection until it would block,
    /// its turn's budget is spent, or its requests go to the pool (then
    /// true). `drained`: no input has arrived since a read took all there
    /// was.
    fn go(&mut self, token: usize, state: &mut SlotState, drained: bool) -> bool {
        let after = match state {
            SlotState {
                stream: Some(stream),
                conn: Some(conn),
                ..
            } => self.advance(token, stream, conn, drained),
            _ => return false,
        };
        match after {
            After::Wait => false,
            After::Close => {
                self.close(token, state);
                false
            }
            After::Serve { drained } => {
                let Some(conn) = state.conn.take() else {
                    return false;
                };
                state.drained = drained;
                self.shared.pool.push(Handed {
                    worker: self.index,
                    token,
                    conn,
                    date: *self.date.get(),
                });
                true
            }
        }
    }

    /// The loop of [`go`](Self::go).
    fn advance(
        &mut self,
        token: usize,
        mut stream: &TcpStream,
        conn: &mut Connection,
        mut drained: bool,
    ) -> After {
        let now = self.now;
        // A read that fills less than the buffer took all there was, and
        // on a stream socket anything arriving later raises a new edge
        // (epoll(7), "can also be detected by checking the amount of data
        // read"), so a short read ends the turn without one more read to
        // see `EAGAIN`.
        loop {
            match conn.advance(&self.shared.handler, self.date.get(), now) {
                Next::Send => match stream.write(conn.pending()) {
                    Ok(n) => conn.sent(n, now),
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) if e.kind() == io::ErrorKind::WouldBlock => return After::Wait,
                    Err(_) => return After::Close,
                },
                Next::ShutdownWrite => match stream.shutdown(Shutdown::Write) {
                    Ok(()) => conn.write_shut(now),
                    Err(_) => return After::Close,
                },
                Next::Receive | Next::Discard if drained => return After::Wait,
                Next::Receive | Next::Discard => {
                    let buf = conn.read_buf();
                    let room = buf.len();
                    match stream.read(buf) {
                        Ok(n) => {
                            drained = n > 0 && n < room;
                            conn.received(n, now);
                        }
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                        Err(e) if e.kind() == io::ErrorKind::WouldBlock => return After::Wait,
                        Err(_) => return After::Close,
                    }
                }
                Next::Yield => {
                    self.ready.push(token);
                    return After::Wait;
                }
                Next::Close => return After::Close,
                Next::Serve => return After::Serve { drained },
            }
        }
    }

    /// Goes on with the connections the pool handed back: sends their
    /// answers. Each one's claim was kept while it was away.
    fn take_handed(&mut self) {
        let mut handed = mem::take(&mut self.handed);
        self.hub.take(&mut handed);
        for (token, conn) in handed.drain(..) {
            let Some(slot) = self.slot(token) else {
                continue;
            };
            let drained = {
                let mut state = lock(&slot.state);
                state.conn = Some(conn);
                state.drained
            };
            self.turns(token, &slot, Some(drained));
        }
        self.handed = handed;
    }

    /// Closes the connection in `state`, if one is open; the slot is free
    /// for the next accept.
    fn close(&mut self, token: usize, state: &mut SlotState) {
        if state.stream.take().is_some() {
            lock(&self.hub.free).push(token);
            self.shared.release();
        }
    }

    /// Acts on connections past their deadline, and retries accepts that
    /// failed for want of descriptors. A connection that a thread is
    /// serving is not past its deadline.
    fn sweep(&mut self) {
        let count = self.hub.slot_count();
        for token in 0..count {
            let Some(slot) = self.slot(token) else {
                continue;
            };
            if !slot.try_claim() {
                continue;
            }
            let expiry = {
                let mut state = lock(&slot.state);
                let expiry = match &*state {
                    SlotState {
                        stream: Some(_),
                        conn: Some(conn),
                        ..
                    } => conn.expiry(self.now),
                    _ => Expiry::NotYet,
                };
                match (expiry, &mut state.conn) {
                    (Expiry::Close, _) => self.close(token, &mut state),
                    (Expiry::TimedOut, Some(conn)) => conn.time_out(self.now, self.date.get()),
                    _ => {}
                }
                expiry
            };
            if expiry == Expiry::TimedOut || slot.release() {
                self.turns(token, &slot, None);
            }
        }
        let listeners = lock(&self.hub.listeners).len();
        for index in 0..listeners {
            self.accept_all(index);
        }
    }

    /// Stops accepting, and gives every connection a turn, in which it is
    /// told to drain (see [`one_turn`](Self::one_turn)). The first worker
    /// to see the shutdown does this; each wakes the next.
    fn start_drain(&mut self) {
        self.drain_until = Some(later(self.now, self.shared.config.shutdown_timeout));
        if !self.hub.draining.swap(true, Ordering::AcqRel) {
            lock(&self.hub.listeners).iter_mut().for_each(|l| *l = None);
            let count = self.hub.slot_count();
            for token in 0..count {
                self.turn(token);
            }
        }
        self.hub.wake();
    }

    /// Closes every connection that no other thread holds, when the
    /// shutdown's time is up.
    fn close_all(&mut self) {
        let count = self.hub.slot_count();
        for token in 0..count {
            let Some(slot) = self.slot(token) else {
                continue;
            };
            if slot.try_claim() {
                self.close(token, &mut lock(&slot.state));
                // Whatever came meanwhile is moot: let go for good.
                while slot.release() {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicUsize;
    use std::thread;

    use super::*;
    use crate::http::Config;

    fn slot() -> Slot {
        Slot::new(Box::new(Connection::new(
            &Config::default(),
            Instant::now(),
        )))
    }

    #[test]
    fn claims_taken_while_one_is_held_are_one_more_turn_for_the_holder() {
        let slot = slot();
        assert!(slot.claim());
        assert!(!slot.claim());
        assert!(!slot.claim());
        assert!(!slot.try_claim());
        assert!(slot.release(), "events came during the turn: one more turn");
        assert!(!slot.try_claim());
        assert!(!slot.release(), "nothing came during the second turn");
        assert!(slot.try_claim());
        assert!(!slot.release());
        assert!(slot.claim());
    }

    #[test]
    fn no_event_is_lost_and_no_two_threads_take_turns_at_once() {
        let slot = slot();
        let posted = AtomicUsize::new(0);
        let served = AtomicUsize::new(0);
        let in_turn = AtomicBool::new(false);
        thread::scope(|scope| {
            for _ in 0..4 {
                scope.spawn(|| {
                    for _ in 0..20_000 {
                        posted.fetch_add(1, Ordering::SeqCst);
                        if !slot.claim() {
                            continue;
                        }
                        loop {
                            assert!(!in_turn.swap(true, Ordering::SeqCst), "two turns at once");
                            // A turn serves every event posted before it began.
                            served.store(posted.load(Ordering::SeqCst), Ordering::SeqCst);
                            in_turn.store(false, Ordering::SeqCst);
                            if !slot.release() {
                                break;
                            }
                        }
                    }
                });
            }
        });
        assert_eq!(served.into_inner(), posted.into_inner());
    }
}
