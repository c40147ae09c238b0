//! One connection's HTTP/1.1 conversation without I/O: the event loop puts
//! received bytes in, takes response bytes out, and asks whether to go on.

use std::mem::MaybeUninit;
use std::panic::{self, AssertUnwindSafe};

pub use super::date::DATE_LEN;
use super::{Handler, Request, Response, Status};

/// The most bytes a request head (request line and headers) may take; a
/// longer one is answered 431.
pub const MAX_HEAD: usize = 8 * 1024;

/// The most headers a request may have; more is answered 431.
pub const MAX_HEADERS: usize = 64;

/// Once this much output waits for the peer, pipelined requests wait too.
const HIGH_WATER: usize = 64 * 1024;

/// When the connection closes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Close {
    /// When the peer asks or a request is broken.
    Never,
    /// After the response to the request in progress, or now if there is none.
    WhenIdle,
    /// Once the output is sent.
    AfterOutput,
}

/// One connection's HTTP/1.1 server side without I/O: its input and output
/// buffers, and what the framing of the request in progress still owes.
///
/// The [`Server`](super::Server) drives one per connection; any other event
/// loop can too. Receive into [`read_buf`](Self::read_buf) and report the
/// count with [`received`](Self::received), call [`process`](Self::process),
/// send [`pending`](Self::pending) and report it with [`sent`](Self::sent);
/// close the connection once [`is_finished`](Self::is_finished).
///
/// Every buffer is allocated when the session is made and reused for each
/// request after, so a request costs no heap allocation once the output
/// buffers have grown to the largest response.
///
/// ```
/// use leanwire_native::http::{HelloWorld, Session};
///
/// let mut session = Session::new();
/// let request = b"GET /plaintext HTTP/1.1\r\nHost: example\r\n\r\n";
/// session.read_buf()[..request.len()].copy_from_slice(request);
/// session.received(request.len());
/// session.process(&HelloWorld, b"Sun, 06 Nov 1994 08:49:37 GMT");
/// assert!(session.pending().starts_with(b"HTTP/1.1 200 OK\r\n"));
/// assert!(session.pending().ends_with(b"\r\n\r\nHello, World!"));
/// ```
#[derive(Debug)]
pub struct Session {
    input: Box<[u8]>,
    start: usize,
    end: usize,
    body_left: u64,
    output: Vec<u8>,
    flushed: usize,
    body: Vec<u8>,
    close: Close,
}

impl Default for Session {
    fn default() -> Session {
        Session::new()
    }
}

impl Session {
    /// A session for a new connection.
    pub fn new() -> Session {
        Session {
            input: vec![0; MAX_HEAD].into_boxed_slice(),
            start: 0,
            end: 0,
            body_left: 0,
            output: Vec::with_capacity(4096),
            flushed: 0,
            body: Vec::with_capacity(1024),
            close: Close::Never,
        }
    }

    /// Makes the session ready for another connection, keeping its buffers.
    pub fn reset(&mut self) {
        self.start = 0;
        self.end = 0;
        self.body_left = 0;
        self.output.clear();
        self.flushed = 0;
        self.close = Close::Never;
    }

    /// Where the next received bytes go; pass their count to [`received`](Self::received).
    pub fn read_buf(&mut self) -> &mut [u8] {
        if self.start == self.end {
            self.start = 0;
            self.end = 0;
        } else if self.end == self.input.len() && self.start > 0 {
            self.input.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.start = 0;
        }
        &mut self.input[self.end..]
    }

    /// Records that `n` bytes were written at the start of
    /// [`read_buf`](Self::read_buf); more than it holds counts as all of it.
    pub fn received(&mut self, n: usize) {
        self.end = (self.end + n).min(self.input.len());
    }

    /// Answers every complete request received so far, in order, into the
    /// output; stops early once the output is past its high-water mark.
    /// `date` is the `Date` header's value, an IMF-fixdate such as
    /// `Sun, 06 Nov 1994 08:49:37 GMT`.
    pub fn process<H: Handler + ?Sized>(&mut self, handler: &H, date: &[u8; DATE_LEN]) {
        while self.close != Close::AfterOutput && self.pending().len() < HIGH_WATER {
            if self.body_left > 0 {
                let n = self.body_left.min((self.end - self.start) as u64);
                self.start += n as usize;
                self.body_left -= n;
                if self.body_left > 0 {
                    return;
                }
            }
            if self.start == self.end {
                if self.close == Close::WhenIdle {
                    self.close = Close::AfterOutput;
                }
                return;
            }
            if !self.answer_one(handler, date) {
                return;
            }
        }
    }

    /// Parses and answers the request at the start of the input; false if
    /// it is not all here yet.
    fn answer_one<H: Handler + ?Sized>(&mut self, handler: &H, date: &[u8; DATE_LEN]) -> bool {
        let mut headers = [const { MaybeUninit::<httparse::Header<'_>>::uninit() }; MAX_HEADERS];
        let mut parsed = httparse::Request::new(&mut []);
        let head = &self.input[self.start..self.end];
        let len = match parsed.parse_with_uninit_headers(head, &mut headers) {
            Ok(httparse::Status::Complete(len)) => len,
            Ok(httparse::Status::Partial) => {
                if self.start == 0 && self.end == self.input.len() {
                    self.fail(
                        Status::REQUEST_HEADER_FIELDS_TOO_LARGE,
                        "request head is over 8192 bytes",
                        date,
                    );
                }
                return false;
            }
            Err(e) => {
                let status = match e {
                    httparse::Error::TooManyHeaders => Status::REQUEST_HEADER_FIELDS_TOO_LARGE,
                    _ => Status::BAD_REQUEST,
                };
                self.fail(status, parse_error(e), date);
                return false;
            }
        };
        let method = parsed.method.unwrap_or_default();
        let head = method == "HEAD";
        let request = Request {
            method: if head { "GET" } else { method },
            path: parsed.path.unwrap_or_default(),
            minor_version: parsed.version.unwrap_or_default(),
            headers: parsed.headers,
            head,
        };
        let framing = match Framing::of(&request) {
            Ok(framing) => framing,
            Err((status, message)) => {
                self.fail(status, message, date);
                return false;
            }
        };
        self.body.clear();
        let mut response = Response {
            status: Status::OK,
            content_type: None,
            body: &mut self.body,
        };
        // A handler that panics costs its request, not the worker: the
        // panic is answered 500 and the connection closed, as its state
        // is unknown.
        let handled = panic::catch_unwind(AssertUnwindSafe(|| {
            handler.handle(&request, &mut response);
        }));
        if handled.is_err() {
            self.fail(
                Status::INTERNAL_SERVER_ERROR,
                "the request handler failed",
                date,
            );
            return false;
        }
        let (status, content_type) = (response.status, response.content_type);

        self.start += len;
        self.body_left = framing.content_length;
        let closing = !framing.keep_alive || self.close == Close::WhenIdle;
        let connection = if closing {
            self.close = Close::AfterOutput;
            Some("close")
        } else if request.minor_version() == 0 {
            Some("keep-alive")
        } else {
            None
        };
        write_response(
            &mut self.output,
            status,
            content_type,
            &self.body,
            date,
            connection,
        );
        if head {
            self.output.truncate(self.output.len() - self.body.len());
        }
        true
    }

    /// Answers `status` with `message` as the body, closes after it, and
    /// drops whatever else was received.
    fn fail(&mut self, status: Status, message: &str, date: &[u8; DATE_LEN]) {
        self.start = self.end;
        self.body_left = 0;
        self.close = Close::AfterOutput;
        self.body.clear();
        self.body.extend_from_slice(message.as_bytes());
        self.body.push(b'\n');
        write_response(
            &mut self.output,
            status,
            Some("text/plain"),
            &self.body,
            date,
            Some("close"),
        );
    }

    /// The response bytes not yet sent.
    pub fn pending(&self) -> &[u8] {
        &self.output[self.flushed..]
    }

    /// Records that the first `n` bytes of [`pending`](Self::pending) were sent.
    pub fn sent(&mut self, n: usize) {
        self.flushed = (self.flushed + n).min(self.output.len());
        if self.flushed == self.output.len() {
            self.output.clear();
            self.flushed = 0;
        }
    }

    /// Whether reading more now would be useful: the connection stays open,
    /// and the output is not backed up.
    pub fn wants_read(&self) -> bool {
        self.close != Close::AfterOutput && self.pending().len() < HIGH_WATER
    }

    /// Whether part of a request (its head or its body) has been received.
    pub fn in_request(&self) -> bool {
        self.start < self.end || self.body_left > 0
    }

    /// Whether the connection is done: it is closing and everything is sent.
    pub fn is_finished(&self) -> bool {
        self.close == Close::AfterOutput && self.pending().is_empty()
    }

    /// The peer closed its side: what is sent is sent, and a partial
    /// request will never complete.
    pub fn peer_closed(&mut self) {
        self.start = self.end;
        self.body_left = 0;
        self.close = Close::AfterOutput;
    }

    /// The connection waited too long: a partial request is answered 408,
    /// an idle connection is closed quietly.
    pub fn timed_out(&mut self, date: &[u8; DATE_LEN]) {
        if self.in_request() {
            self.fail(
                Status::REQUEST_TIMEOUT,
                "request not received within the timeout",
                date,
            );
        } else {
            self.close = Close::AfterOutput;
        }
    }

    /// The server is shutting down: finish the request in progress, if any,
    /// and close.
    pub fn drain(&mut self) {
        if self.close == Close::Never {
            self.close = Close::WhenIdle;
        }
        if !self.in_request() && self.close == Close::WhenIdle {
            self.close = Close::AfterOutput;
        }
    }
}

/// What `error` says was wrong with the request head.
fn parse_error(error: httparse::Error) -> &'static str {
    match error {
        httparse::Error::HeaderName => "invalid header name",
        httparse::Error::HeaderValue => "invalid header value",
        httparse::Error::NewLine => "invalid line ending",
        httparse::Error::Status => "invalid status",
        httparse::Error::Token => "invalid method or request target",
        httparse::Error::TooManyHeaders => "request has over 64 headers",
        httparse::Error::Version => "invalid HTTP version",
    }
}

/// What a request's headers say about its body and its connection.
struct Framing {
    content_length: u64,
    keep_alive: bool,
}

impl Framing {
    fn of(request: &Request<'_>) -> Result<Framing, (Status, &'static str)> {
        let mut content_length = None;
        let (mut close, mut keep_alive) = (false, false);
        for (name, value) in request.headers() {
            if name.eq_ignore_ascii_case("content-length") {
                let n = parse_content_length(value)
                    .ok_or((Status::BAD_REQUEST, "invalid Content-Length"))?;
                if content_length.is_some_and(|m| m != n) {
                    return Err((Status::BAD_REQUEST, "conflicting Content-Length headers"));
                }
                content_length = Some(n);
            } else if name.eq_ignore_ascii_case("transfer-encoding") {
                return Err((
                    Status::NOT_IMPLEMENTED,
                    "request bodies with Transfer-Encoding are not supported",
                ));
            } else if name.eq_ignore_ascii_case("connection") {
                for token in value.split(|&b| b == b',') {
                    let token = token.trim_ascii();
                    close |= token.eq_ignore_ascii_case(b"close");
                    keep_alive |= token.eq_ignore_ascii_case(b"keep-alive");
                }
            }
        }
        let minor_version = request.minor_version();
        Ok(Framing {
            content_length: content_length.unwrap_or(0),
            keep_alive: !close && (minor_version >= 1 || keep_alive),
        })
    }
}

fn parse_content_length(value: &[u8]) -> Option<u64> {
    if value.is_empty() || value.len() > 19 || !value.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(value.iter().fold(0, |n, &d| n * 10 + u64::from(d - b'0')))
}

fn write_response(
    out: &mut Vec<u8>,
    status: Status,
    content_type: Option<&str>,
    body: &[u8],
    date: &[u8; DATE_LEN],
    connection: Option<&str>,
) {
    let mut code = itoa::Buffer::new();
    let mut length = itoa::Buffer::new();
    out.extend_from_slice(b"HTTP/1.1 ");
    out.extend_from_slice(code.format(status.code()).as_bytes());
    out.push(b' ');
    out.extend_from_slice(status.reason().as_bytes());
    out.extend_from_slice(b"\r\nServer: leanwire\r\nDate: ");
    out.extend_from_slice(date);
    if let Some(content_type) = content_type {
        out.extend_from_slice(b"\r\nContent-Type: ");
        out.extend_from_slice(content_type.as_bytes());
    }
    out.extend_from_slice(b"\r\nContent-Length: ");
    out.extend_from_slice(length.format(body.len()).as_bytes());
    if let Some(connection) = connection {
        out.extend_from_slice(b"\r\nConnection: ");
        out.extend_from_slice(connection.as_bytes());
    }
    out.extend_from_slice(b"\r\n\r\n");
    out.extend_from_slice(body);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::HelloWorld;

    const DATE: &[u8; DATE_LEN] = b"Sun, 06 Nov 1994 08:49:37 GMT";

    /// Feeds `input` in pieces of `chunk` bytes, answering after each, and
    /// returns everything the session sent.
    fn converse(session: &mut Session, input: &[u8], chunk: usize) -> String {
        let mut out = Vec::new();
        for piece in input.chunks(chunk) {
            let mut rest = piece;
            while !rest.is_empty() {
                let buf = session.read_buf();
                assert!(!buf.is_empty(), "the session stopped taking input");
                let n = buf.len().min(rest.len());
                buf[..n].copy_from_slice(&rest[..n]);
                session.received(n);
                rest = &rest[n..];
                session.process(&HelloWorld, DATE);
                out.extend_from_slice(session.pending());
                let sent = session.pending().len();
                session.sent(sent);
                if session.is_finished() {
                    return String::from_utf8(out).unwrap();
                }
            }
        }
        String::from_utf8(out).unwrap()
    }

    fn statuses(output: &str) -> Vec<&str> {
        output.split("HTTP/1.1 ").skip(1).map(|r| &r[..3]).collect()
    }

    const JSON: &str = "HTTP/1.1 200 OK\r\nServer: leanwire\r\nDate: Sun, 06 Nov 1994 08:49:37 GMT\r\n\
Content-Type: application/json\r\nContent-Length: 27\r\n\r\n{\"message\":\"Hello, World!\"}";

    #[test]
    fn answers_one_request_exactly() {
        let mut session = Session::new();
        let out = converse(&mut session, b"GET /json HTTP/1.1\r\nHost: a\r\n\r\n", 4096);
        assert_eq!(out, JSON);
        assert!(!session.is_finished());
        assert!(!session.in_request());
    }

    #[test]
    fn pipelined_requests_are_answered_in_order_whatever_the_chunking() {
        let input =
            b"GET /json HTTP/1.1\r\n\r\nGET /plaintext HTTP/1.1\r\n\r\nGET /x HTTP/1.1\r\n\r\n";
        let whole = converse(&mut Session::new(), input, input.len());
        assert_eq!(statuses(&whole), ["200", "200", "404"]);
        assert!(whole.starts_with(JSON));
        assert!(whole.contains("\r\n\r\nHello, World!HTTP/1.1 404"));
        for chunk in [1, 2, 7, 30] {
            assert_eq!(
                converse(&mut Session::new(), input, chunk),
                whole,
                "chunk {chunk}"
            );
        }
    }

    #[test]
    fn a_malformed_request_gets_400_and_closes() {
        let mut session = Session::new();
        let out = converse(
            &mut session,
            b"GET /json HTTP/1.1\r\nBad Header\r\n\r\nGET /json HTTP/1.1\r\n\r\n",
            4096,
        );
        assert_eq!(statuses(&out), ["400"]);
        assert!(out.contains("Connection: close\r\n"));
        assert!(out.ends_with("invalid header name\n"));
        assert!(session.is_finished());
    }

    #[test]
    fn a_head_over_8_kib_gets_431() {
        let mut input = b"GET /json HTTP/1.1\r\nX-Big: ".to_vec();
        input.resize(MAX_HEAD + 100, b'a');
        let mut session = Session::new();
        let out = converse(&mut session, &input, 1000);
        assert_eq!(statuses(&out), ["431"]);
        assert!(session.is_finished());
    }

    #[test]
    fn a_head_of_exactly_8_kib_is_served() {
        let mut input = b"GET /plaintext HTTP/1.1\r\nX-Big: ".to_vec();
        input.resize(MAX_HEAD - 4, b'a');
        input.extend_from_slice(b"\r\n\r\n");
        assert_eq!(input.len(), MAX_HEAD);
        assert_eq!(
            statuses(&converse(&mut Session::new(), &input, 1000)),
            ["200"]
        );
    }

    #[test]
    fn too_many_headers_get_431() {
        let mut input = b"GET /json HTTP/1.1\r\n".to_vec();
        for i in 0..=MAX_HEADERS {
            input.extend_from_slice(format!("X-{i}: 1\r\n").as_bytes());
        }
        input.extend_from_slice(b"\r\n");
        let out = converse(&mut Session::new(), &input, 4096);
        assert_eq!(statuses(&out), ["431"]);
        assert!(out.ends_with("request has over 64 headers\n"));
    }

    #[test]
    fn a_body_is_skipped_by_its_content_length() {
        let input = b"POST /plaintext HTTP/1.1\r\nContent-Length: 6\r\n\r\nGET /xGET /json HTTP/1.1\r\n\r\n";
        for chunk in [1, 3, 4096] {
            let out = converse(&mut Session::new(), input, chunk);
            assert_eq!(statuses(&out), ["404", "200"], "chunk {chunk}");
        }
    }

    #[test]
    fn framing_errors_close_the_connection() {
        for (input, status) in [
            (&b"GET / HTTP/1.1\r\nContent-Length: x\r\n\r\n"[..], "400"),
            (
                b"GET / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
                "400",
            ),
            (
                b"GET / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n",
                "501",
            ),
        ] {
            let mut session = Session::new();
            let out = converse(&mut session, input, 4096);
            assert_eq!(
                statuses(&out),
                [status],
                "{:?}",
                String::from_utf8_lossy(input)
            );
            assert!(session.is_finished());
        }
    }

    #[test]
    fn connection_close_and_http_1_0_end_the_connection() {
        let mut session = Session::new();
        let out = converse(
            &mut session,
            b"GET /json HTTP/1.1\r\nConnection: close\r\n\r\nGET /json HTTP/1.1\r\n\r\n",
            4096,
        );
        assert_eq!(statuses(&out), ["200"]);
        assert!(out.contains("Connection: close\r\n"));
        assert!(session.is_finished());

        let mut session = Session::new();
        converse(&mut session, b"GET /json HTTP/1.0\r\n\r\n", 4096);
        assert!(session.is_finished());

        let mut session = Session::new();
        let out = converse(
            &mut session,
            b"GET /json HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n",
            4096,
        );
        assert!(out.contains("Connection: keep-alive\r\n"));
        assert!(!session.is_finished());
    }

    #[test]
    fn a_timeout_answers_408_mid_request_and_closes_quietly_when_idle() {
        let mut session = Session::new();
        converse(&mut session, b"GET /json HTTP/1.1\r\nHo", 4096);
        session.timed_out(DATE);
        assert!(
            String::from_utf8_lossy(session.pending())
                .starts_with("HTTP/1.1 408 Request Timeout\r\n")
        );

        let mut session = Session::new();
        converse(&mut session, b"GET /json HTTP/1.1\r\n\r\n", 4096);
        session.timed_out(DATE);
        assert!(session.is_finished());
        assert!(session.pending().is_empty());
    }

    #[test]
    fn draining_finishes_the_request_in_progress_then_closes() {
        let mut session = Session::new();
        converse(&mut session, b"GET /json HTTP/1.1\r\n", 4096);
        session.drain();
        assert!(!session.is_finished());
        let out = converse(&mut session, b"\r\n", 4096);
        assert_eq!(statuses(&out), ["200"]);
        assert!(out.contains("Connection: close\r\n"));
        assert!(session.is_finished());

        let mut idle = Session::new();
        idle.drain();
        assert!(idle.is_finished());
    }

    #[test]
    fn head_gets_the_status_and_headers_of_get_without_the_body() {
        let input = b"HEAD /plaintext HTTP/1.1\r\n\r\nHEAD /x HTTP/1.1\r\n\r\nGET /plaintext HTTP/1.1\r\n\r\n";
        let get = converse(
            &mut Session::new(),
            b"GET /plaintext HTTP/1.1\r\n\r\n",
            4096,
        );
        let (get_head, get_body) = get.split_once("\r\n\r\n").unwrap();
        assert_eq!(get_body, "Hello, World!");
        for chunk in [1, 4096] {
            let out = converse(&mut Session::new(), input, chunk);
            assert_eq!(statuses(&out), ["200", "404", "200"], "chunk {chunk}");
            let (first, rest) = out.split_once("\r\n\r\n").unwrap();
            assert_eq!(first, get_head);
            assert!(rest.starts_with("HTTP/1.1 404 Not Found\r\n"), "{rest}");
            assert!(
                rest.contains("Content-Length: 10\r\n\r\nHTTP/1.1 200"),
                "{rest}"
            );
            assert!(out.ends_with("\r\n\r\nHello, World!"));
        }
    }

    #[test]
    fn a_handler_that_panics_gets_500_and_a_close() {
        let panics = |request: &Request<'_>, response: &mut Response<'_>| {
            if request.path() == "/panic" {
                panic!("handler failure under test");
            }
            response.body().extend_from_slice(b"fine");
        };
        let mut session = Session::new();
        let input = b"GET /ok HTTP/1.1\r\n\r\nGET /panic HTTP/1.1\r\n\r\nGET /ok HTTP/1.1\r\n\r\n";
        let buf = session.read_buf();
        buf[..input.len()].copy_from_slice(input);
        session.received(input.len());
        session.process(&panics, DATE);
        let out = String::from_utf8(session.pending().to_vec()).unwrap();
        assert_eq!(statuses(&out), ["200", "500"]);
        assert!(out.ends_with("Connection: close\r\n\r\nthe request handler failed\n"));
        let n = session.pending().len();
        session.sent(n);
        assert!(session.is_finished());
        // The session, like the worker that drives it, goes on serving.
        session.reset();
        let again = b"GET /ok HTTP/1.1\r\n\r\n";
        session.read_buf()[..again.len()].copy_from_slice(again);
        session.received(again.len());
        session.process(&panics, DATE);
        assert!(session.pending().ends_with(b"fine"));
    }

    #[test]
    fn output_past_the_high_water_mark_holds_back_pipelined_requests() {
        let mut session = Session::new();
        let request = b"GET /json HTTP/1.1\r\n\r\n";
        let mut answered = 0;
        loop {
            let buf = session.read_buf();
            if buf.len() < request.len() {
                break;
            }
            buf[..request.len()].copy_from_slice(request);
            session.received(request.len());
            session.process(&HelloWorld, DATE);
            if !session.wants_read() {
                break;
            }
        }
        assert!(!session.wants_read());
        assert!(session.pending().len() >= HIGH_WATER);
        while !session.pending().is_empty() || session.in_request() {
            answered += statuses(std::str::from_utf8(session.pending()).unwrap()).len();
            let n = session.pending().len();
            session.sent(n);
            session.process(&HelloWorld, DATE);
        }
        assert!(answered > HIGH_WATER / JSON.len());
        assert!(session.wants_read());
    }
}
