//! Linux: one edge-triggered epoll per worker thread, over its own
//! `SO_REUSEPORT` listener, non-blocking sockets from `accept4`, and an
//! `eventfd` to wake a worker from another thread: at a shutdown, or with
//! `Dispatch::Pool` when the pool hands a connection back with its answers.
//!
//! * epoll: <https://man7.org/linux/man-pages/man7/epoll.7.html>
//! * `SO_REUSEPORT`: <https://man7.org/linux/man-pages/man7/socket.7.html>
//! * `accept4`: <https://man7.org/linux/man-pages/man2/accept.2.html>
//! * `eventfd`: <https://man7.org/linux/man-pages/man2/eventfd.2.html>

use std::io::{self, Read, Write};
use std::mem;
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant, SystemTime};

use crate::http::{
    Connection, DATE_LEN, DateCache, Expiry, Handler, Next, OVER_LIMIT, Shared, later,
};

/// A listening TCP socket with `SO_REUSEPORT`, non-blocking and close-on-exec.
pub(crate) struct Listener(TcpListener);

impl Listener {
    /// Binds and listens on `addr`; other listeners may bind the same port.
    pub(crate) fn bind(addr: SocketAddr) -> io::Result<Listener> {
        let family = match addr {
            SocketAddr::V4(_) => libc::AF_INET,
            SocketAddr::V6(_) => libc::AF_INET6,
        };
        let kind = libc::SOCK_STREAM | libc::SOCK_NONBLOCK | libc::SOCK_CLOEXEC;
        // SAFETY: `socket` takes no pointers.
        let fd = syscall!(socket(family, kind, 0))?;
        // SAFETY: `socket` just returned `fd`, and nothing else owns it.
        let socket = unsafe { OwnedFd::from_raw_fd(fd) };
        set_option(&socket, libc::SO_REUSEADDR)?;
        set_option(&socket, libc::SO_REUSEPORT)?;
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

fn set_option(socket: &OwnedFd, name: libc::c_int) -> io::Result<()> {
    let on: libc::c_int = 1;
    // SAFETY: `on` is a live `c_int` and the length passed is its size.
    syscall!(setsockopt(
        socket.as_raw_fd(),
        libc::SOL_SOCKET,
        name,
        (&on as *const libc::c_int).cast(),
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

/// A worker's inbox: connections the pool hands back, by token, and an
/// `eventfd` that wakes its epoll when one arrives or the server stops.
pub(crate) struct Inbox {
    event: OwnedFd,
    queue: Mutex<Vec<(usize, Box<Connection>)>>,
}

impl Inbox {
    /// An empty inbox.
    pub(crate) fn new() -> io::Result<Inbox> {
        // SAFETY: `eventfd` takes no pointers.
        let fd = syscall!(eventfd(0, libc::EFD_NONBLOCK | libc::EFD_CLOEXEC))?;
        Ok(Inbox {
            // SAFETY: `eventfd` just returned `fd`, and nothing else owns it.
            event: unsafe { OwnedFd::from_raw_fd(fd) },
            queue: Mutex::new(Vec::new()),
        })
    }

    /// Wakes the worker.
    pub(crate) fn wake(&self) {
        let one = 1u64.to_ne_bytes();
        // SAFETY: `one` is 8 live bytes, the size an eventfd write takes. A
        // failure can only be a full counter, which wakes the worker anyway.
        let _ = syscall!(write(
            self.event.as_raw_fd(),
            one.as_ptr().cast(),
            one.len()
        ));
    }

    fn push(&self, token: usize, conn: Box<Connection>) {
        self.queue
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push((token, conn));
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
        let mut queue = self.queue.lock().unwrap_or_else(PoisonError::into_inner);
        mem::swap(&mut *queue, into);
    }
}

/// A connection with requests to answer, handed to the serving pool by
/// worker `worker`, whose slot `token` waits for it to come back.
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
        shared.inbox(self.worker).push(self.token, self.conn);
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

const LISTENER: u64 = u64::MAX;
const INBOX: u64 = u64::MAX - 1;
const EVENTS: usize = 256;
const CONNECTION: u32 = (libc::EPOLLIN | libc::EPOLLOUT | libc::EPOLLRDHUP | libc::EPOLLET) as u32;

/// Runs worker `index`, which accepts on `listener`, until the server stops
/// and its connections are done.
pub(crate) fn run<H: Handler>(
    listener: Listener,
    index: usize,
    shared: &Shared<H>,
) -> io::Result<()> {
    let inbox = shared.inbox(index);
    let epoll = Epoll::new()?;
    epoll.add(
        inbox.event.as_raw_fd(),
        (libc::EPOLLIN | libc::EPOLLET) as u32,
        INBOX,
    )?;
    epoll.add(
        listener.0.as_raw_fd(),
        (libc::EPOLLIN | libc::EPOLLET) as u32,
        LISTENER,
    )?;
    let mut worker = Worker {
        epoll,
        shared,
        index,
        listener: Some(listener),
        slots: Vec::new(),
        free: Vec::new(),
        live: 0,
        fresh: Vec::new(),
        ready: Vec::new(),
        handed: Vec::new(),
        date: DateCache::new(),
        now: Instant::now(),
        sweep_every: shared.sweep_interval(),
        drain_until: None,
    };
    worker.run()
}

/// One connection's place in a worker.
struct Slot {
    stream: Option<TcpStream>,
    /// `None` while the pool answers its requests; the slot is not reused
    /// until it is back, even if the stream is closed meanwhile.
    conn: Option<Box<Connection>>,
    /// The last read took all there was, and no event has come since.
    drained: bool,
}

/// One worker thread's loop: its epoll, its listener (until a shutdown),
/// and its connections, by token.
struct Worker<'s, H> {
    epoll: Epoll,
    shared: &'s Shared<H>,
    /// This worker's index among the server's, for the pool to hand back to.
    index: usize,
    listener: Option<Listener>,
    /// Connections by token; closed ones keep their session's buffers and
    /// wait in `free` for the next accept.
    slots: Vec<Slot>,
    free: Vec<usize>,
    live: usize,
    /// Connections accepted in this round, served once the listener is re-armed.
    fresh: Vec<usize>,
    /// Connections that used up their turn's budget with input left, served
    /// again once every other event of the round is.
    ready: Vec<usize>,
    /// Connections taken from the inbox, kept for its capacity.
    handed: Vec<(usize, Box<Connection>)>,
    date: DateCache,
    /// When the current batch of events was returned.
    now: Instant,
    sweep_every: Duration,
    /// Set when a shutdown begins: when to close whatever is still open.
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
            let n = self.epoll.wait(&mut events, timeout)?;
            self.now = Instant::now();
            self.date.refresh(SystemTime::now());
            for event in &events[..n] {
                match event.u64 {
                    LISTENER => self.accept_all(),
                    INBOX => self.take_handed(),
                    token => self.drive(token as usize),
                }
            }
            mem::swap(&mut self.ready, &mut again);
            for token in again.drain(..) {
                self.drive(token);
            }
            if self.shared.stopping() && self.drain_until.is_none() {
                self.start_drain();
            }
            if self.now >= next_sweep {
                self.sweep();
                next_sweep = self.now + self.sweep_every;
            }
            if let Some(until) = self.drain_until {
                if self.live == 0 {
                    return Ok(());
                }
                if self.now >= until {
                    for token in 0..self.slots.len() {
                        self.close(token);
                    }
                    return Ok(());
                }
            }
        }
    }

    /// Accepts until the listener would block, which re-arms its edge;
    /// then serves each new connection on this thread.
    fn accept_all(&mut self) {
        loop {
            let Some(listener) = &self.listener else {
                return;
            };
            let stream = match listener.accept() {
                Ok(stream) => stream,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                // A connection reset before it was accepted, or a signal.
                Err(e) if matches!(e.raw_os_error(), Some(libc::ECONNABORTED | libc::EINTR)) => {
                    continue;
                }
                // Out of descriptors or memory: the rest stay queued, and
                // the next sweep tries again.
                Err(_) => break,
            };
            if !self.shared.admit() {
                let _ = (&stream).write(OVER_LIMIT);
                let _ = stream.shutdown(Shutdown::Write);
                continue;
            }
            if let Some(token) = self.register(stream) {
                self.fresh.push(token);
            }
        }
        let mut fresh = mem::take(&mut self.fresh);
        for &token in &fresh {
            self.drive(token);
        }
        fresh.clear();
        self.fresh = fresh;
    }

    /// Puts the connections the pool handed back in their slots and goes
    /// on with them: sends their answers.
    fn take_handed(&mut self) {
        let mut handed = mem::take(&mut self.handed);
        self.shared.inbox(self.index).take(&mut handed);
        for (token, mut conn) in handed.drain(..) {
            let slot = &mut self.slots[token];
            if slot.stream.is_none() {
                // Closed while away.
                slot.conn = Some(conn);
                self.free.push(token);
                continue;
            }
            if self.drain_until.is_some() {
                conn.drain();
            }
            slot.conn = Some(conn);
            let drained = slot.drained;
            self.go(token, drained);
        }
        self.handed = handed;
    }

    /// Gives `stream` a slot and adds it to the epoll; on failure the
    /// connection is dropped and its place under the limit given back.
    fn register(&mut self, stream: TcpStream) -> Option<usize> {
        let token = match self.free.pop() {
            Some(token) => token,
            None => {
                self.slots.push(Slot {
                    stream: None,
                    conn: Some(Box::new(Connection::new(&self.shared.config, self.now))),
                    drained: false,
                });
                self.slots.len() - 1
            }
        };
        if self
            .epoll
            .add(stream.as_raw_fd(), CONNECTION, token as u64)
            .is_err()
        {
            self.free.push(token);
            self.shared.release();
            return None;
        }
        let slot = &mut self.slots[token];
        slot.stream = Some(stream);
        if let Some(conn) = &mut slot.conn {
            conn.open(self.now);
        }
        self.live += 1;
        Some(token)
    }

    /// Starts a turn of one connection, after an event or a yield.
    fn drive(&mut self, token: usize) {
        let Some(slot) = self.slots.get_mut(token) else {
            return;
        };
        match &mut slot.conn {
            Some(conn) => conn.begin_turn(),
            // The pool has it: this event is seen to when it is back.
            None => {
                slot.drained = false;
                return;
            }
        }
        self.go(token, false);
    }

    /// Reads, answers and writes on one connection until it would block,
    /// its turn's budget is spent, or its requests go to the pool.
    /// `drained`: no input has arrived since a read took all there was.
    fn go(&mut self, token: usize, mut drained: bool) {
        let now = self.now;
        let Some(Slot {
            stream: Some(stream),
            conn: Some(conn),
            ..
        }) = self.slots.get_mut(token)
        else {
            return;
        };
        let mut stream = &*stream;
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
                    Err(e) if e.kind() == io::ErrorKind::WouldBlock => return,
                    Err(_) => return self.close(token),
                },
                Next::ShutdownWrite => match stream.shutdown(Shutdown::Write) {
                    Ok(()) => conn.write_shut(now),
                    Err(_) => return self.close(token),
                },
                Next::Receive | Next::Discard if drained => return,
                Next::Receive | Next::Discard => {
                    let buf = conn.read_buf();
                    let room = buf.len();
                    match stream.read(buf) {
                        Ok(n) => {
                            drained = n > 0 && n < room;
                            conn.received(n, now);
                        }
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                        Err(e) if e.kind() == io::ErrorKind::WouldBlock => return,
                        Err(_) => return self.close(token),
                    }
                }
                Next::Yield => return self.ready.push(token),
                Next::Close => return self.close(token),
                Next::Serve => return self.hand(token, drained),
            }
        }
    }

    /// Hands the connection in `token`'s slot to the serving pool.
    fn hand(&mut self, token: usize, drained: bool) {
        let slot = &mut self.slots[token];
        let Some(conn) = slot.conn.take() else {
            return;
        };
        slot.drained = drained;
        self.shared.pool.push(Handed {
            worker: self.index,
            token,
            conn,
            date: *self.date.get(),
        });
    }

    /// Closes the connection in `token`'s slot, if one is open; the slot
    /// is free once its connection is back from the pool.
    fn close(&mut self, token: usize) {
        let slot = &mut self.slots[token];
        if slot.stream.take().is_some() {
            if slot.conn.is_some() {
                self.free.push(token);
            }
            self.live -= 1;
            self.shared.release();
        }
    }

    /// Acts on connections past their deadline, and retries accepts that
    /// failed for want of descriptors.
    fn sweep(&mut self) {
        for token in 0..self.slots.len() {
            let Slot {
                stream: Some(_),
                conn: Some(conn),
                ..
            } = &mut self.slots[token]
            else {
                continue;
            };
            match conn.expiry(self.now) {
                Expiry::NotYet => {}
                Expiry::Close => self.close(token),
                Expiry::TimedOut => {
                    conn.time_out(self.now, self.date.get());
                    self.drive(token);
                }
            }
        }
        self.accept_all();
    }

    /// Stops accepting, then lets each connection finish the request in
    /// progress and close; one the pool has is told when it is back.
    ///
    /// Input may have arrived after this turn's events were taken, and it
    /// may begin a request: each connection reads what is there before it
    /// is told to drain, so that it is not taken for idle and closed.
    fn start_drain(&mut self) {
        self.listener = None;
        self.drain_until = Some(later(self.now, self.shared.config.shutdown_timeout));
        for token in 0..self.slots.len() {
            if self.serving(token).is_none() {
                continue;
            }
            self.drive(token);
            if let Some(conn) = self.serving(token) {
                conn.drain();
                self.drive(token);
            }
        }
    }

    /// The connection in `token`'s slot, if it is open, here rather than
    /// with the pool, and not lingering after its close.
    fn serving(&mut self, token: usize) -> Option<&mut Connection> {
        match &mut self.slots[token] {
            Slot {
                stream: Some(_),
                conn: Some(conn),
                ..
            } if !conn.is_lingering() => Some(&mut **conn),
            _ => None,
        }
    }
}
