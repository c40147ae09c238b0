//! [`Server`]: its listeners, its worker threads, and how they stop.

use std::io;
use std::net::SocketAddr;
use std::num::NonZeroUsize;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread;
use std::time::Duration;

use super::Handler;
use super::session::DEFAULT_MAX_BODY;
use crate::queue::Queue;
use crate::sys::net::{Handed, Inbox, Listener};

/// Which thread runs the handler for a request.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Dispatch {
    /// The thread that received it, which also sends the response: no hop
    /// between threads. A new connection's first request is received by
    /// the thread that accepted it, right after it re-armed the listener.
    #[default]
    Inline,
    /// A thread of a separate serving pool. The thread that receives a
    /// request hands it to the pool, and the pool hands the response back
    /// to be sent: two cross-thread hops per request, the double dispatch
    /// that HTTP.sys's managed server did before it served inline.
    Pool,
}

/// How a [`Server`] runs. `Config::default()` suits a production server;
/// tests shorten the timeouts.
#[derive(Clone, Debug)]
pub struct Config {
    /// Worker threads, which share the server's listeners and connections
    /// (and, with [`Dispatch::Pool`], as many serving threads again).
    /// Default: one per CPU.
    pub threads: usize,
    /// Which thread runs the handler. Default: [`Dispatch::Inline`].
    pub dispatch: Dispatch,
    /// Connections open at once across all threads; one more is answered
    /// 503 and closed. Default: 10,000.
    pub max_connections: usize,
    /// How long a request, head and body, may take to arrive, from its
    /// first byte; then it is answered 408 and the connection closed.
    /// Default: 10 s.
    pub header_timeout: Duration,
    /// How long a connection may sit between requests. Default: 60 s.
    pub idle_timeout: Duration,
    /// How long response bytes may wait for a peer that does not read them
    /// before the connection is closed. Default: 10 s.
    pub send_timeout: Duration,
    /// The kernel's send buffer for each connection, in bytes
    /// (`SO_SNDBUF`). `None` leaves it to the OS: Linux grows it for a peer that
    /// does not read, up to `net.ipv4.tcp_wmem`'s maximum (4 MiB by
    /// default), so each such peer can hold that much of the machine's TCP
    /// memory until [`send_timeout`](Self::send_timeout) closes it. Linux
    /// doubles the value for its own bookkeeping. Default: `None`.
    pub send_buffer: Option<usize>,
    /// The largest request body a handler is given; a larger one is
    /// answered 413 and the connection closed. Default: 1 MiB.
    pub max_body: usize,
    /// How long [`ShutdownHandle::shutdown`] waits for requests in flight
    /// before closing what is left. Default: 10 s.
    pub shutdown_timeout: Duration,
}

/// The longest any timeout of a [`Config`] is taken to be: a day.
pub const MAX_TIMEOUT: Duration = Duration::from_secs(24 * 3600);

impl Config {
    /// This configuration with every timeout at most [`MAX_TIMEOUT`] and at
    /// least 1 ms.
    pub fn clamped(mut self) -> Config {
        for timeout in [
            &mut self.header_timeout,
            &mut self.idle_timeout,
            &mut self.send_timeout,
            &mut self.shutdown_timeout,
        ] {
            *timeout = (*timeout).clamp(Duration::from_millis(1), MAX_TIMEOUT);
        }
        self
    }

    /// How often a worker looks for connections past their deadline: a
    /// quarter of the shortest timeout, [`LINGER`] included, and so at
    /// most 250 ms, but no more often than every 10 ms.
    pub(crate) fn sweep_interval(&self) -> Duration {
        let shortest = self
            .header_timeout
            .min(self.idle_timeout)
            .min(self.send_timeout)
            .min(LINGER);
        (shortest / 4).max(Duration::from_millis(10))
    }
}

impl Default for Config {
    fn default() -> Config {
        Config {
            threads: thread::available_parallelism().map_or(1, NonZeroUsize::get),
            dispatch: Dispatch::Inline,
            max_connections: 10_000,
            header_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(60),
            send_timeout: Duration::from_secs(10),
            send_buffer: None,
            max_body: DEFAULT_MAX_BODY,
            shutdown_timeout: Duration::from_secs(10),
        }
    }
}

/// An HTTP/1.1 server, bound and ready to [`run`](Server::run).
///
/// Binding happens in [`bind`](Server::bind), so the address (with the
/// port the OS chose for port 0) is known before any thread starts.
pub struct Server<H> {
    shared: Shared<H>,
    listeners: Vec<Listener>,
    local_addr: SocketAddr,
}

/// Stops a running [`Server`] gracefully from any thread: the listeners
/// close, requests in flight are answered (with `Connection: close`), idle
/// connections close, and [`Server::run`] returns once every connection is
/// done or [`Config::shutdown_timeout`] has passed.
#[derive(Clone)]
pub struct ShutdownHandle(Arc<Stop>);

impl ShutdownHandle {
    /// Starts the shutdown; returns at once. Calling it again does nothing more.
    pub fn shutdown(&self) {
        self.0.stop();
    }
}

/// The stop flag, and how to wake every worker to see it.
pub(crate) struct Stop {
    stopping: AtomicBool,
    inboxes: Vec<Arc<Inbox>>,
}

impl Stop {
    fn stop(&self) {
        self.stopping.store(true, Ordering::Release);
        for inbox in &self.inboxes {
            inbox.wake();
        }
    }
}

/// How long a closing connection is read from and discarded, so that the
/// client receives the last response before the socket is closed. Closing
/// with unread input would send a reset, which can destroy that response.
pub(crate) const LINGER: Duration = Duration::from_secs(1);

/// The answer to a connection over the limit.
pub(crate) const OVER_LIMIT: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\nServer: leanwire\r\n\
Content-Type: text/plain\r\nContent-Length: 25\r\nConnection: close\r\n\r\n\
too many open connections";

/// What every worker of one server shares.
pub(crate) struct Shared<H> {
    pub(crate) handler: H,
    pub(crate) config: Config,
    /// Connections open across all workers, counted against
    /// [`Config::max_connections`].
    pub(crate) open: AtomicUsize,
    /// With [`Dispatch::Pool`], the requests waiting for a pool thread.
    pub(crate) pool: Queue<Handed>,
    stop: Arc<Stop>,
}

impl<H> Shared<H> {
    /// Whether a shutdown has begun.
    pub(crate) fn stopping(&self) -> bool {
        self.stop.stopping.load(Ordering::Acquire)
    }

    /// Takes a place under the connection limit; false if it is full.
    pub(crate) fn admit(&self) -> bool {
        let max = self.config.max_connections;
        self.open
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < max).then_some(n + 1)
            })
            .is_ok()
    }

    /// The inbox of worker `index`, where the pool hands its requests back.
    pub(crate) fn inbox(&self, index: usize) -> &Inbox {
        &self.stop.inboxes[index]
    }

    /// Gives back a place taken by [`admit`](Self::admit).
    pub(crate) fn release(&self) {
        self.open.fetch_sub(1, Ordering::AcqRel);
    }
}

impl<H: Handler> Server<H> {
    /// Binds `config.threads` listeners to `addr`; port 0 picks one free
    /// port for all.
    ///
    /// On Linux the listeners share the port through `SO_REUSEPORT`, and
    /// the kernel spreads new connections over them. That option lets any
    /// socket of the same user join the port, another process's too, and
    /// then take its share of the connections; a port already bound
    /// without it is refused (`AddrInUse`).
    /// Timeouts are [`clamped`](Config::clamped).
    pub fn bind(addr: SocketAddr, config: Config, handler: H) -> io::Result<Server<H>> {
        let config = config.clamped();
        if config.threads == 0 {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "a server needs at least one thread",
            ));
        }
        let first = Listener::bind(addr, config.send_buffer)?;
        let local_addr = first.local_addr()?;
        let mut listeners = vec![first];
        for _ in 1..config.threads {
            listeners.push(Listener::bind(local_addr, config.send_buffer)?);
        }
        let inboxes = Inbox::for_workers(listeners.len())?;
        let stop = Arc::new(Stop {
            stopping: AtomicBool::new(false),
            inboxes,
        });
        Ok(Server {
            shared: Shared {
                handler,
                config,
                open: AtomicUsize::new(0),
                pool: Queue::new(),
                stop,
            },
            listeners,
            local_addr,
        })
    }

    /// The address the listeners are bound to.
    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    /// A handle that stops this server from another thread (or a signal handler's thread).
    pub fn shutdown_handle(&self) -> ShutdownHandle {
        ShutdownHandle(Arc::clone(&self.shared.stop))
    }

    /// Runs the workers (and with [`Dispatch::Pool`] the serving pool)
    /// until a shutdown completes. If a worker fails, the others are shut
    /// down and its error is returned.
    pub fn run(self) -> io::Result<()> {
        let shared = &self.shared;
        let pooled = match shared.config.dispatch {
            Dispatch::Inline => 0,
            Dispatch::Pool => shared.config.threads,
        };
        thread::scope(|scope| {
            let mut outcome = Ok(());
            let mut pool = Vec::with_capacity(pooled);
            for i in 0..pooled {
                let spawned = thread::Builder::new()
                    .name(format!("leanwire-http-pool-{i}"))
                    .spawn_scoped(scope, move || {
                        while let Some(handed) = shared.pool.next() {
                            handed.serve(shared);
                        }
                        Ok(())
                    });
                match spawned {
                    Ok(thread) => pool.push(thread),
                    Err(e) => {
                        outcome = Err(e);
                        break;
                    }
                }
            }
            let mut workers = Vec::with_capacity(self.listeners.len());
            if outcome.is_ok() {
                for (i, listener) in self.listeners.into_iter().enumerate() {
                    let spawned = thread::Builder::new()
                        .name(format!("leanwire-http-{i}"))
                        .spawn_scoped(scope, move || {
                            let result = crate::sys::net::run(listener, i, shared);
                            if result.is_err() {
                                shared.stop.stop();
                            }
                            result
                        });
                    match spawned {
                        Ok(thread) => workers.push(thread),
                        Err(e) => {
                            shared.stop.stop();
                            outcome = Err(e);
                            break;
                        }
                    }
                }
            }
            // The pool outlives the workers: each waits for its requests to come back.
            outcome = join(workers, outcome);
            shared.pool.close();
            join(pool, outcome)
        })
    }
}

/// Waits for `threads`; the first error of `outcome` and theirs.
fn join(
    threads: Vec<thread::ScopedJoinHandle<'_, io::Result<()>>>,
    mut outcome: io::Result<()>,
) -> io::Result<()> {
    for thread in threads {
        let result = thread
            .join()
            .unwrap_or_else(|_| Err(io::Error::other("a server thread panicked")));
        if outcome.is_ok() {
            outcome = result;
        }
    }
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timeouts_are_clamped_between_a_millisecond_and_a_day() {
        let config = Config {
            header_timeout: Duration::ZERO,
            idle_timeout: Duration::MAX,
            send_timeout: Duration::from_secs(5),
            shutdown_timeout: Duration::from_secs(2 * 86_400),
            ..Config::default()
        }
        .clamped();
        assert_eq!(config.header_timeout, Duration::from_millis(1));
        assert_eq!(config.idle_timeout, Duration::from_secs(86_400));
        assert_eq!(config.send_timeout, Duration::from_secs(5));
        assert_eq!(config.shutdown_timeout, Duration::from_secs(86_400));
    }

    #[test]
    fn the_sweep_runs_at_a_quarter_of_the_shortest_timeout() {
        let with = |header_ms, idle_ms, send_ms| {
            Config {
                header_timeout: Duration::from_millis(header_ms),
                idle_timeout: Duration::from_millis(idle_ms),
                send_timeout: Duration::from_millis(send_ms),
                ..Config::default()
            }
            .sweep_interval()
        };
        assert_eq!(with(400, 800, 900), Duration::from_millis(100));
        assert_eq!(with(800, 200, 900), Duration::from_millis(50));
        assert_eq!(with(800, 900, 120), Duration::from_millis(30));
        // Lingering, 1 s, bounds it when every timeout is longer.
        assert_eq!(
            Config::default().sweep_interval(),
            Duration::from_millis(250)
        );
        // Never more often than every 10 ms.
        assert_eq!(with(1, 1, 1), Duration::from_millis(10));
    }
}
