//! An HTTP/1.1 server whose accepting thread serves what it accepts.
//!
//! [`Server`] runs one loop per worker thread. On Linux each worker has its
//! own `SO_REUSEPORT` listener, so the kernel spreads new connections over
//! several accept queues, and the workers share one edge-triggered epoll
//! over every listener and connection, so whichever worker is free serves
//! whatever is ready, as the threads of a completion port do on Windows.
//! In the default [`Dispatch::Inline`] mode the thread whose accept
//! completes re-arms the listener and then serves the new connection
//! itself, and the thread that reads a request runs its handler and sends
//! the response, with no hop to another thread: the "no double dispatch"
//! rule of HTTP.sys. [`Dispatch::Pool`] is the rule's "before",
//! kept for comparison: each request is handed to a pool thread, and its
//! response handed back to the thread that sends it.
//!
//! Requests are parsed with `httparse`; keep-alive and pipelining are
//! supported; heads over [`MAX_HEAD`] bytes are answered 431, broken ones
//! 400, and both close the connection. Handlers get request bodies, framed
//! by `Content-Length` or chunked, up to [`Config::max_body`] (a larger one
//! is answered 413), and `Expect: 100-continue` is honoured. `HEAD` is
//! answered as `GET` without the body. A handler that panics costs its
//! request a 500, not the worker. A slow client is answered 408 after
//! [`Config::header_timeout`], and one that does not read its responses is
//! closed after [`Config::send_timeout`], without delaying anyone else.
//! Every buffer a connection uses is reused from request to request, so a
//! request without a body makes no heap allocation in steady state.
//!
//! ```no_run
//! use leanwire_native::http::{Config, Request, Response, Server};
//!
//! let hello = |_: &Request<'_>, response: &mut Response<'_>| {
//!     response.set_content_type("text/plain");
//!     response.body().extend_from_slice(b"Hello, World!");
//! };
//! let addr = ([127, 0, 0, 1], 8080).into();
//! let server = Server::bind(addr, Config::default(), hello)?;
//! println!("listening on http://{}", server.local_addr());
//! server.run()?;
//! # Ok::<(), std::io::Error>(())
//! ```
//!
//! With the `cli` feature (on by default), `HelloWorld` is the handler
//! `leanwire serve` runs: the TechEmpower JSON and plaintext routes.

mod body;
mod connection;
mod date;
#[cfg(feature = "cli")]
mod hello;
mod message;
mod server;
mod session;

#[cfg(feature = "cli")]
#[cfg_attr(docsrs, doc(cfg(feature = "cli")))]
pub use hello::HelloWorld;
pub use message::{Request, Response, Status};
pub use server::{Config, Dispatch, MAX_TIMEOUT, Server, ShutdownHandle};
pub use session::{DATE_LEN, DEFAULT_MAX_BODY, MAX_HEAD, MAX_HEADERS, Session};

pub(crate) use connection::{Connection, Expiry, Next, later};
pub(crate) use date::DateCache;
pub(crate) use server::{OVER_LIMIT, Shared};

/// Answers requests: called once per request, on the thread that received
/// it, or with [`Dispatch::Pool`] on a thread of the serving pool.
pub trait Handler: Send + Sync + 'static {
    /// Fills in `response`, which starts as an empty 200 OK, for `request`.
    fn handle(&self, request: &Request<'_>, response: &mut Response<'_>);
}

impl<F> Handler for F
where
    F: Fn(&Request<'_>, &mut Response<'_>) + Send + Sync + 'static,
{
    fn handle(&self, request: &Request<'_>, response: &mut Response<'_>) {
        self(request, response)
    }
}
