//! One connection's lifecycle without I/O, the same for every backend: the
//! [`Session`] it serves, its deadlines, lingering after the last response,
//! draining at shutdown, and a byte budget per turn.
//!
//! A backend does readiness or completion I/O and nothing else. It asks
//! [`Connection::advance`] what to do next ([`Next`]), does it, reports
//! what happened ([`received`](Connection::received),
//! [`sent`](Connection::sent), [`write_shut`](Connection::write_shut)),
//! and asks [`expiry`](Connection::expiry) what to do once the
//! [`deadline`](Connection::deadline) has passed. With [`Dispatch::Pool`]
//! the handler never runs on the backend's thread: `advance` says
//! [`Next::Serve`], and the backend hands the connection to a pool thread,
//! which calls [`Connection::serve`] and hands it back.
//!
//! The deadlines:
//!
//! | while | the connection may wait | then |
//! |---|---|---|
//! | a request head or body arrives | [`Config::header_timeout`] from its first byte | 408 and close |
//! | nothing is in progress | [`Config::idle_timeout`] | close |
//! | output waits for the peer to read it | [`Config::send_timeout`] since the last byte it took | close |
//! | lingering after the last response | [`LINGER`] | close |

use std::time::{Duration, Instant};

use super::server::{Config, Dispatch, LINGER};
use super::session::DATE_LEN;
use super::{Handler, Session};

/// The most bytes one connection reads in one turn before the worker
/// serves the others: one fast sender cannot hold a worker.
pub(crate) const TURN_BUDGET: usize = 64 * 1024;

/// The most requests one connection has answered in one turn before the
/// worker serves the others: one pipeliner cannot hold a worker either.
pub(crate) const TURN_REQUESTS: usize = 16;

/// What the backend does next with a connection.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Next {
    /// Send [`Connection::pending`].
    Send,
    /// Receive into [`Connection::read_buf`].
    Receive,
    /// Shut the write side, then report it with [`Connection::write_shut`].
    ShutdownWrite,
    /// Receive into [`Connection::read_buf`]; the bytes are discarded.
    Discard,
    /// This turn has read or answered its budget: serve other connections,
    /// then come back (input may be waiting in the session already).
    Yield,
    /// Hand the connection to a pool thread, which calls
    /// [`Connection::serve`] and hands it back; then ask again. Only with
    /// [`Dispatch::Pool`].
    Serve,
    /// Close the socket and free the slot.
    Close,
}

/// What [`Connection::expiry`] found.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Expiry {
    /// No deadline has passed.
    NotYet,
    /// A request did not arrive in time: [`Connection::time_out`] answers it.
    TimedOut,
    /// The connection must close now.
    Close,
}

/// The timeouts of [`Config`] a connection keeps.
#[derive(Copy, Clone, Debug)]
struct Timeouts {
    header: Duration,
    idle: Duration,
    send: Duration,
}

/// One connection: its [`Session`] and where it is in its lifecycle.
#[derive(Debug)]
pub(crate) struct Connection {
    session: Session,
    timeouts: Timeouts,
    /// The last response is sent and the write side shut; input is read and
    /// discarded until the peer closes or the deadline passes.
    lingering: bool,
    /// The peer closed its side.
    peer_closed: bool,
    /// When the request in progress must have arrived.
    request_by: Option<Instant>,
    /// When the output waiting to be sent must have moved.
    send_by: Option<Instant>,
    /// When an idle connection, or a lingering one, is closed.
    idle_by: Instant,
    /// Bytes received in this turn.
    turn: usize,
    /// Requests answered in this turn.
    turn_requests: usize,
    /// Requests are answered by [`serve`](Self::serve) on a pool thread,
    /// never by [`advance`](Self::advance).
    hands_off: bool,
    /// Something happened since the last [`serve`](Self::serve) that may
    /// let it answer more: input arrived, or output left.
    unserved: bool,
}

impl Connection {
    /// A connection slot for a server with `config`, not yet open.
    pub(crate) fn new(config: &Config, now: Instant) -> Connection {
        Connection {
            session: Session::with_max_body(config.max_body),
            timeouts: Timeouts {
                header: config.header_timeout,
                idle: config.idle_timeout,
                send: config.send_timeout,
            },
            lingering: false,
            peer_closed: false,
            request_by: None,
            send_by: None,
            idle_by: now,
            turn: 0,
            turn_requests: 0,
            hands_off: config.dispatch == Dispatch::Pool,
            unserved: false,
        }
    }

    /// Starts serving a newly accepted connection in this slot, keeping the
    /// buffers of the last one.
    pub(crate) fn open(&mut self, now: Instant) {
        self.session.reset();
        self.lingering = false;
        self.peer_closed = false;
        self.request_by = None;
        self.send_by = None;
        self.idle_by = later(now, self.timeouts.idle);
        self.turn = 0;
        self.turn_requests = 0;
        self.unserved = false;
    }

    /// Whether the response is sent and input is only being discarded.
    pub(crate) fn is_lingering(&self) -> bool {
        self.lingering
    }

    /// Where received bytes go: the session's input, or while lingering a
    /// buffer whose contents are thrown away.
    pub(crate) fn read_buf(&mut self) -> &mut [u8] {
        self.session.read_buf()
    }

    /// The response bytes not yet sent.
    pub(crate) fn pending(&self) -> &[u8] {
        self.session.pending()
    }

    /// Records `n` bytes received into [`read_buf`](Self::read_buf); 0 means
    /// the peer closed its side.
    pub(crate) fn received(&mut self, n: usize, now: Instant) {
        self.turn = self.turn.saturating_add(n);
        if n == 0 {
            self.peer_closed = true;
            self.session.peer_closed();
        } else if !self.lingering {
            if !self.session.in_request() {
                self.request_by = Some(later(now, self.timeouts.header));
            }
            self.session.received(n);
            self.unserved = true;
        }
    }

    /// Records that the first `n` bytes of [`pending`](Self::pending) were sent.
    pub(crate) fn sent(&mut self, n: usize, now: Instant) {
        self.session.sent(n);
        if n > 0 {
            self.send_by = Some(later(now, self.timeouts.send));
            self.unserved = true;
        }
    }

    /// Records that the write side was shut after the last response: the
    /// connection lingers until the peer closes, for at most [`LINGER`].
    pub(crate) fn write_shut(&mut self, now: Instant) {
        self.lingering = true;
        self.request_by = None;
        self.send_by = None;
        self.idle_by = later(now, LINGER);
    }

    /// Starts a turn: the byte budget is full again.
    pub(crate) fn begin_turn(&mut self) {
        self.turn = 0;
        self.turn_requests = 0;
    }

    /// Answers what was received (unless requests are handed off, when it
    /// may say [`Next::Serve`] instead) and says what to do next.
    pub(crate) fn advance<H: Handler + ?Sized>(
        &mut self,
        handler: &H,
        date: &[u8; DATE_LEN],
        now: Instant,
    ) -> Next {
        if self.lingering {
            return match () {
                () if self.peer_closed => Next::Close,
                () if self.turn >= TURN_BUDGET => Next::Yield,
                () => Next::Discard,
            };
        }
        if !self.hands_off {
            self.serve(handler, date);
        } else if self.unserved && self.session.in_request() {
            return match self.turn_requests < TURN_REQUESTS {
                true => Next::Serve,
                false => Next::Yield,
            };
        }
        if !self.session.in_request() {
            self.request_by = None;
        }
        let session = &self.session;
        if !session.pending().is_empty() {
            if self.send_by.is_none() {
                self.send_by = Some(later(now, self.timeouts.send));
            }
            return Next::Send;
        }
        self.send_by = None;
        if session.is_finished() {
            return if self.peer_closed {
                Next::Close
            } else {
                Next::ShutdownWrite
            };
        }
        if self.request_by.is_none() && self.turn > 0 {
            self.idle_by = later(now, self.timeouts.idle);
        }
        if self.turn >= TURN_BUDGET || self.turn_requests >= TURN_REQUESTS {
            Next::Yield
        } else {
            Next::Receive
        }
    }

    /// Answers the complete requests received, as many as this turn's
    /// budget has left. [`advance`](Self::advance) calls it, or with
    /// [`Dispatch::Pool`] a pool thread after [`Next::Serve`].
    pub(crate) fn serve<H: Handler + ?Sized>(&mut self, handler: &H, date: &[u8; DATE_LEN]) {
        let left = TURN_REQUESTS.saturating_sub(self.turn_requests);
        self.turn_requests += self.session.process_at_most(handler, date, left);
        self.unserved = false;
    }

    /// When [`expiry`](Self::expiry) next has something to say.
    pub(crate) fn deadline(&self) -> Instant {
        match (self.request_by, self.send_by) {
            (None, None) => self.idle_by,
            (Some(by), None) | (None, Some(by)) => by,
            (Some(request), Some(send)) => request.min(send),
        }
    }

    /// What a passed deadline calls for; reads nothing but the clock, so a
    /// backend may ask while an operation is in flight.
    pub(crate) fn expiry(&self, now: Instant) -> Expiry {
        if now < self.deadline() {
            return Expiry::NotYet;
        }
        let stalled = self.send_by.is_some_and(|by| now >= by);
        match self.request_by {
            Some(by) if now >= by && !stalled && !self.lingering => Expiry::TimedOut,
            // Output the peer does not read, a lingering end, or an idle one.
            _ => Expiry::Close,
        }
    }

    /// Answers the request that did not arrive in time with 408, which the
    /// backend then sends, and closes after it.
    pub(crate) fn time_out(&mut self, now: Instant, date: &[u8; DATE_LEN]) {
        self.request_by = None;
        self.session.timed_out(date);
        self.send_by = Some(later(now, self.timeouts.send));
    }

    /// The server is shutting down: finish the request in progress, if any,
    /// and close.
    pub(crate) fn drain(&mut self) {
        self.session.drain();
    }
}

/// `now + after`, or far in the future if that is past what `Instant` holds.
pub(crate) fn later(now: Instant, after: Duration) -> Instant {
    now.checked_add(after)
        .unwrap_or_else(|| now + Duration::from_secs(100 * 365 * 24 * 3600))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::{Request, Response};

    const DATE: &[u8; DATE_LEN] = b"Sun, 06 Nov 1994 08:49:37 GMT";

    fn ok(_: &Request<'_>, response: &mut Response<'_>) {
        response.body().extend_from_slice(b"ok");
    }

    /// A connection opened at `now` with the default configuration.
    fn opened(now: Instant) -> Connection {
        let mut connection = Connection::new(&Config::default(), now);
        connection.open(now);
        connection
    }

    fn receive(connection: &mut Connection, bytes: &[u8], now: Instant) {
        connection.read_buf()[..bytes.len()].copy_from_slice(bytes);
        connection.received(bytes.len(), now);
    }

    #[test]
    fn a_lingering_connection_discards_64_kib_a_turn_until_the_peer_closes() {
        let t0 = Instant::now();
        let mut connection = opened(t0);
        assert!(!connection.is_lingering());
        connection.write_shut(t0);
        assert!(connection.is_lingering());
        assert_eq!(connection.deadline(), t0 + LINGER);
        connection.begin_turn();
        connection.received(65_535, t0);
        assert_eq!(connection.advance(&ok, DATE, t0), Next::Discard);
        connection.received(1, t0);
        assert_eq!(connection.advance(&ok, DATE, t0), Next::Yield);
        connection.begin_turn();
        assert_eq!(connection.advance(&ok, DATE, t0), Next::Discard);
        connection.received(0, t0);
        assert_eq!(connection.advance(&ok, DATE, t0), Next::Close);
        assert_eq!(connection.expiry(t0 + LINGER), Expiry::Close);
    }

    #[test]
    fn only_a_turn_that_read_something_moves_the_idle_deadline() {
        let t0 = Instant::now();
        let idle = Config::default().idle_timeout;
        let mut connection = opened(t0);
        assert_eq!(connection.deadline(), t0 + idle);
        let t1 = t0 + Duration::from_secs(30);
        connection.begin_turn();
        assert_eq!(connection.advance(&ok, DATE, t1), Next::Receive);
        assert_eq!(connection.deadline(), t0 + idle);
        receive(&mut connection, b"GET / HTTP/1.1\r\n\r\n", t1);
        assert_eq!(connection.advance(&ok, DATE, t1), Next::Send);
        let n = connection.pending().len();
        connection.sent(n, t1);
        assert_eq!(connection.advance(&ok, DATE, t1), Next::Receive);
        assert_eq!(connection.deadline(), t1 + idle);
    }

    #[test]
    fn only_a_send_that_moved_bytes_moves_the_send_deadline() {
        let t0 = Instant::now();
        let send = Config::default().send_timeout;
        let mut connection = opened(t0);
        receive(&mut connection, b"GET / HTTP/1.1\r\n\r\n", t0);
        assert_eq!(connection.advance(&ok, DATE, t0), Next::Send);
        assert_eq!(connection.deadline(), t0 + send);
        let t1 = t0 + Duration::from_secs(5);
        connection.sent(0, t1);
        assert_eq!(connection.deadline(), t0 + send);
        assert_eq!(connection.expiry(t0 + send), Expiry::Close);
        connection.sent(1, t1);
        assert_eq!(connection.deadline(), t1 + send);
        assert_eq!(connection.expiry(t0 + send), Expiry::NotYet);
    }

    #[test]
    fn a_head_that_stops_arriving_times_out_from_its_first_byte() {
        let t0 = Instant::now();
        let header = Config::default().header_timeout;
        let mut connection = opened(t0);
        receive(&mut connection, b"GET / HT", t0);
        assert_eq!(connection.advance(&ok, DATE, t0), Next::Receive);
        receive(&mut connection, b"TP/1.1\r\n", t0 + Duration::from_secs(1));
        assert_eq!(connection.deadline(), t0 + header);
        assert_eq!(connection.expiry(t0 + header), Expiry::TimedOut);
    }

    #[test]
    fn a_turn_answers_16_requests_then_yields() {
        let t0 = Instant::now();
        let mut connection = opened(t0);
        let requests = b"GET / HTTP/1.1\r\n\r\n".repeat(17);
        receive(&mut connection, &requests, t0);
        assert_eq!(connection.advance(&ok, DATE, t0), Next::Send);
        let sent = connection.pending().len();
        connection.sent(sent, t0);
        assert_eq!(connection.advance(&ok, DATE, t0), Next::Yield);
        connection.begin_turn();
        assert_eq!(connection.advance(&ok, DATE, t0), Next::Send);
        // The seventeenth answer, and sixteen like it before.
        assert_eq!(16 * connection.pending().len(), sent);
    }

    /// A request that stops arriving while the peer reads none of the
    /// output before it: no 408 goes to a peer that does not read.
    #[test]
    fn a_stalled_send_closes_rather_than_times_out_the_next_request() {
        let t0 = Instant::now();
        let config = Config::default();
        let mut connection = opened(t0);
        receive(&mut connection, b"GET / HTTP/1.1\r\n\r\nGET / HT", t0);
        assert_eq!(connection.advance(&ok, DATE, t0), Next::Send);
        let by = t0 + config.header_timeout.max(config.send_timeout);
        assert_eq!(connection.expiry(by), Expiry::Close);
    }

    #[test]
    fn a_deadline_past_what_instant_holds_is_far_away() {
        let now = Instant::now();
        let far = later(now, Duration::MAX);
        assert!(far > now + Duration::from_secs(50 * 365 * 24 * 3600));
    }
}
