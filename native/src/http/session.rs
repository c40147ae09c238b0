//! One connection's HTTP/1.1 conversation without I/O: the event loop puts
//! received bytes in, takes response bytes out, and asks whether to go on.

use std::mem::MaybeUninit;
use std::panic::{self, AssertUnwindSafe};

use super::body::{BodyError, BodyFraming, BodyReader};
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
/// use leanwire_native::http::{Request, Response, Session};
///
/// let hello = |_: &Request<'_>, response: &mut Response<'_>| {
///     response.body().extend_from_slice(b"Hello, World!");
/// };
/// let mut session = Session::new();
/// let request = b"GET /plaintext HTTP/1.1\r\nHost: example\r\n\r\n";
/// session.read_buf()[..request.len()].copy_from_slice(request);
/// session.received(request.len());
/// session.process(&hello, b"Sun, 06 Nov 1994 08:49:37 GMT");
/// assert!(session.pending().starts_with(b"HTTP/1.1 200 OK\r\n"));
/// assert!(session.pending().ends_with(b"\r\n\r\nHello, World!"));
/// ```
#[derive(Debug)]
pub struct Session {
    input: Box<[u8]>,
    start: usize,
    end: usize,
    /// The body of the request in progress, while it arrives.
    reader: Option<BodyReader>,
    /// That request's head, copied out of `input` while its body arrives.
    head: Vec<u8>,
    /// That request's body.
    request_body: Vec<u8>,
    max_body: usize,
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

/// The largest request body a [`Session::new`] takes: 1 MiB.
pub const DEFAULT_MAX_BODY: usize = 1024 * 1024;

impl Session {
    /// A session for a new connection that takes request bodies of up to
    /// [`DEFAULT_MAX_BODY`] bytes.
    pub fn new() -> Session {
        Session::with_max_body(DEFAULT_MAX_BODY)
    }

    /// A session for a new connection that takes request bodies of up to
    /// `max_body` bytes; a larger one is answered 413.
    pub fn with_max_body(max_body: usize) -> Session {
        Session {
            input: vec![0; MAX_HEAD].into_boxed_slice(),
            start: 0,
            end: 0,
            reader: None,
            head: Vec::new(),
            request_body: Vec::new(),
            max_body,
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
        self.reader = None;
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
        self.process_at_most(handler, date, usize::MAX);
    }

    /// [`process`](Self::process), answering at most `requests` requests;
    /// returns how many it answered (a request whose body began to arrive
    /// counts too). An event loop shares its time between connections so.
    pub fn process_at_most<H: Handler + ?Sized>(
        &mut self,
        handler: &H,
        date: &[u8; DATE_LEN],
        requests: usize,
    ) -> usize {
        let mut answered = 0;
        while answered < requests
            && self.close != Close::AfterOutput
            && self.pending().len() < HIGH_WATER
        {
            if let Some(reader) = &mut self.reader {
                let input = &self.input[self.start..self.end];
                match reader.read(input, &mut self.request_body, self.max_body) {
                    Ok(n) => self.start += n,
                    Err(error) => {
                        self.fail_body(error, date);
                        break;
                    }
                }
                if !reader.is_done() {
                    break;
                }
                self.reader = None;
                self.answer_with_body(handler, date);
                continue;
            }
            if self.start == self.end {
                if self.close == Close::WhenIdle {
                    self.close = Close::AfterOutput;
                }
                break;
            }
            if !self.answer_one(handler, date) {
                break;
            }
            answered += 1;
        }
        answered
    }

    /// Parses and answers the request at the start of the input, or starts
    /// reading its body; false if it is not all here yet or was refused.
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
        let request = request(&parsed, &[]);
        let framing = match Framing::of(&request) {
            Ok(framing) => framing,
            Err((status, message)) => {
                self.fail(status, message, date);
                return false;
            }
        };
        match framing.body {
            None => {
                let mut out = Out {
                    output: &mut self.output,
                    body: &mut self.body,
                    close: &mut self.close,
                };
                let answered = out.answer(handler, &request, framing.keep_alive, date);
                self.start += len;
                answered
            }
            Some(BodyFraming::Length(n)) if n > self.max_body as u64 => {
                self.fail_body(BodyError::TooLarge, date);
                false
            }
            Some(body) => {
                if framing.expects_continue {
                    self.output
                        .extend_from_slice(b"HTTP/1.1 100 Continue\r\n\r\n");
                }
                self.head.clear();
                self.head
                    .extend_from_slice(&self.input[self.start..self.start + len]);
                self.request_body.clear();
                self.reader = Some(BodyReader::new(body));
                self.start += len;
                true
            }
        }
    }

    /// Answers the request whose head waits in `head` and whose body was
    /// read into `request_body`.
    fn answer_with_body<H: Handler + ?Sized>(&mut self, handler: &H, date: &[u8; DATE_LEN]) {
        let mut headers = [const { MaybeUninit::<httparse::Header<'_>>::uninit() }; MAX_HEADERS];
        let mut parsed = httparse::Request::new(&mut []);
        // The head parsed when it arrived, so it parses again.
        if parsed
            .parse_with_uninit_headers(&self.head, &mut headers)
            .is_err()
        {
            return self.fail(Status::BAD_REQUEST, "invalid request head", date);
        }
        let request = request(&parsed, &self.request_body);
        let keep_alive = Framing::of(&request).is_ok_and(|framing| framing.keep_alive);
        let mut out = Out {
            output: &mut self.output,
            body: &mut self.body,
            close: &mut self.close,
        };
        if !out.answer(handler, &request, keep_alive, date) {
            self.start = self.end;
        }
    }

    /// Answers a body that could not be read: 413 or 400, and a close.
    fn fail_body(&mut self, error: BodyError, date: &[u8; DATE_LEN]) {
        match error {
            BodyError::TooLarge => {
                self.fail(Status::CONTENT_TOO_LARGE, "request body is too large", date);
            }
            BodyError::Malformed(message) => self.fail(Status::BAD_REQUEST, message, date),
        }
    }

    /// Answers `status` with `message` as the body, closes after it, and
    /// drops whatever else was received.
    fn fail(&mut self, status: Status, message: &str, date: &[u8; DATE_LEN]) {
        self.start = self.end;
        self.reader = None;
        let mut out = Out {
            output: &mut self.output,
            body: &mut self.body,
            close: &mut self.close,
        };
        out.fail(status, message, date);
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
        self.start < self.end || self.reader.is_some()
    }

    /// Whether the connection is done: it is closing and everything is sent.
    pub fn is_finished(&self) -> bool {
        self.close == Close::AfterOutput && self.pending().is_empty()
    }

    /// The peer closed its side: what is sent is sent, and a partial
    /// request will never complete.
    pub fn peer_closed(&mut self) {
        self.start = self.end;
        self.reader = None;
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

/// The request `parsed` describes, with `body`. A `HEAD` request reads as
/// `GET` (see [`Request::method`]).
fn request<'a>(parsed: &'a httparse::Request<'_, 'a>, body: &'a [u8]) -> Request<'a> {
    let method = parsed.method.unwrap_or_default();
    let head = method == "HEAD";
    Request {
        method: if head { "GET" } else { method },
        path: parsed.path.unwrap_or_default(),
        minor_version: parsed.version.unwrap_or_default(),
        headers: parsed.headers,
        body,
        head,
    }
}

/// Where answers go: the output, the response body buffer, and whether the
/// connection closes after them.
struct Out<'s> {
    output: &'s mut Vec<u8>,
    body: &'s mut Vec<u8>,
    close: &'s mut Close,
}

impl Out<'_> {
    /// Runs `handler` on `request` and writes its response; false if the
    /// handler panicked, which is answered 500 and a close instead.
    fn answer<H: Handler + ?Sized>(
        &mut self,
        handler: &H,
        request: &Request<'_>,
        keep_alive: bool,
        date: &[u8; DATE_LEN],
    ) -> bool {
        self.body.clear();
        let mut response = Response {
            status: Status::OK,
            content_type: None,
            body: self.body,
        };
        // A handler that panics costs its request, not the worker: the
        // panic is answered 500 and the connection closed, as its state
        // is unknown.
        let handled = panic::catch_unwind(AssertUnwindSafe(|| {
            handler.handle(request, &mut response);
        }));
        let (status, content_type) = (response.status, response.content_type);
        if handled.is_err() {
            self.fail(
                Status::INTERNAL_SERVER_ERROR,
                "the request handler failed",
                date,
            );
            return false;
        }
        let connection = if !keep_alive || *self.close == Close::WhenIdle {
            *self.close = Close::AfterOutput;
            Some("close")
        } else if request.minor_version() == 0 {
            Some("keep-alive")
        } else {
            None
        };
        write_response(
            self.output,
            status,
            content_type,
            self.body,
            date,
            connection,
        );
        if request.is_head() {
            self.output.truncate(self.output.len() - self.body.len());
        }
        true
    }

    /// Answers `status` with `message` as the body and closes after it.
    fn fail(&mut self, status: Status, message: &str, date: &[u8; DATE_LEN]) {
        *self.close = Close::AfterOutput;
        self.body.clear();
        self.body.extend_from_slice(message.as_bytes());
        self.body.push(b'\n');
        write_response(
            self.output,
            status,
            Some("text/plain"),
            self.body,
            date,
            Some("close"),
        );
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
    body: Option<BodyFraming>,
    keep_alive: bool,
    expects_continue: bool,
}

impl Framing {
    fn of(request: &Request<'_>) -> Result<Framing, (Status, &'static str)> {
        let mut content_length = None;
        let mut chunked = false;
        let (mut close, mut keep_alive, mut expects_continue) = (false, false, false);
        for (name, value) in request.headers() {
            if name.eq_ignore_ascii_case("content-length") {
                let n = parse_content_length(value)
                    .ok_or((Status::BAD_REQUEST, "invalid Content-Length"))?;
                if content_length.is_some_and(|m| m != n) {
                    return Err((Status::BAD_REQUEST, "conflicting Content-Length headers"));
                }
                content_length = Some(n);
            } else if name.eq_ignore_ascii_case("transfer-encoding") {
                // Only chunked alone is read; a coding under it is not.
                if chunked || !value.trim_ascii().eq_ignore_ascii_case(b"chunked") {
                    return Err((
                        Status::NOT_IMPLEMENTED,
                        "only Transfer-Encoding: chunked is supported",
                    ));
                }
                chunked = true;
            } else if name.eq_ignore_ascii_case("connection") {
                for token in value.split(|&b| b == b',') {
                    let token = token.trim_ascii();
                    close |= token.eq_ignore_ascii_case(b"close");
                    keep_alive |= token.eq_ignore_ascii_case(b"keep-alive");
                }
            } else if name.eq_ignore_ascii_case("expect") {
                expects_continue |= value.trim_ascii().eq_ignore_ascii_case(b"100-continue");
            }
        }
        let body = match (chunked, content_length) {
            // Both is how requests are smuggled past a proxy [RFC 9112 §6.3].
            (true, Some(_)) => {
                return Err((
                    Status::BAD_REQUEST,
                    "both Transfer-Encoding and Content-Length",
                ));
            }
            (true, None) => Some(BodyFraming::Chunked),
            (false, Some(0) | None) => None,
            (false, Some(n)) => Some(BodyFraming::Length(n)),
        };
        let minor_version = request.minor_version();
        Ok(Framing {
            body,
            keep_alive: !close && (minor_version >= 1 || keep_alive),
            expects_continue: expects_continue && minor_version >= 1,
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

// The conversations are with `HelloWorld`, which comes with `cli`.
#[cfg(all(test, feature = "cli"))]
mod tests {
    use super::*;
    use crate::http::HelloWorld;

    const DATE: &[u8; DATE_LEN] = b"Sun, 06 Nov 1994 08:49:37 GMT";

    /// Puts `bytes` in the session's input, as received.
    fn put(session: &mut Session, bytes: &[u8]) {
        session.read_buf()[..bytes.len()].copy_from_slice(bytes);
        session.received(bytes.len());
    }

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
    fn output_sent_in_pieces_arrives_whole_and_in_order() {
        let input = b"GET /json HTTP/1.1\r\n\r\nGET /plaintext HTTP/1.1\r\n\r\n";
        let whole = converse(&mut Session::new(), input, input.len());
        let mut session = Session::new();
        put(&mut session, input);
        session.process(&HelloWorld, DATE);
        let mut out = Vec::new();
        while !session.pending().is_empty() {
            let n = session.pending().len().min(7);
            out.extend_from_slice(&session.pending()[..n]);
            session.sent(n);
        }
        assert_eq!(String::from_utf8(out).unwrap(), whole);
    }

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
            (b"GET / HTTP/1.1\r\nContent-Length: \r\n\r\n", "400"),
            // 19 digits always fit in a u64; 20 may not, and are refused.
            (
                b"GET / HTTP/1.1\r\nContent-Length: 9999999999999999999\r\n\r\n",
                "413",
            ),
            (
                b"GET / HTTP/1.1\r\nContent-Length: 00000000000000000001\r\n\r\n",
                "400",
            ),
            (
                b"GET / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
                "400",
            ),
            (
                b"POST / HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n",
                "501",
            ),
            (
                b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n",
                "400",
            ),
            (
                b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nx\r\n",
                "400",
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
        put(&mut session, again);
        session.process(&panics, DATE);
        assert!(session.pending().ends_with(b"fine"));
    }

    /// Answers with the request body, behind the method and path.
    fn echo(request: &Request<'_>, response: &mut Response<'_>) {
        let body = response.body();
        body.extend_from_slice(format!("{} {} ", request.method(), request.path()).as_bytes());
        body.extend_from_slice(request.body());
    }

    /// Feeds `input` in pieces to an echoing session with `max_body`.
    fn echoed(input: &[u8], chunk: usize, max_body: usize) -> (String, bool) {
        let mut session = Session::with_max_body(max_body);
        let mut out = Vec::new();
        for piece in input.chunks(chunk) {
            put(&mut session, piece);
            session.process(&echo, DATE);
            out.extend_from_slice(session.pending());
            let n = session.pending().len();
            session.sent(n);
            if session.is_finished() {
                break;
            }
        }
        (String::from_utf8(out).unwrap(), session.is_finished())
    }

    #[test]
    fn handlers_receive_bodies_by_length_and_in_chunks_whatever_the_pieces() {
        let input = b"POST /a HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello\
PUT /b HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2;x=y\r\nde\r\n0\r\nTrailer: t\r\n\r\n\
GET /c HTTP/1.1\r\n\r\n";
        for chunk in [1, 5, 64, input.len()] {
            let (out, finished) = echoed(input, chunk, 100);
            assert_eq!(
                statuses(&out),
                ["200", "200", "200"],
                "chunk {chunk}: {out}"
            );
            assert!(out.contains("\r\n\r\nPOST /a helloHTTP/1.1"), "{out}");
            assert!(out.contains("\r\n\r\nPUT /b abcdeHTTP/1.1"), "{out}");
            assert!(out.ends_with("\r\n\r\nGET /c "), "{out}");
            assert!(!finished);
        }
    }

    #[test]
    fn a_body_over_the_limit_gets_413_and_a_close() {
        let by_length = b"POST / HTTP/1.1\r\nContent-Length: 11\r\n\r\nhello world";
        let chunked =
            b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n6\r\nhello \r\n5\r\nworld\r\n0\r\n\r\n";
        for input in [&by_length[..], &chunked[..]] {
            let (out, finished) = echoed(input, 7, 10);
            assert_eq!(statuses(&out), ["413"], "{out}");
            assert!(out.contains("Connection: close\r\n"));
            assert!(finished);
            let (out, _) = echoed(input, 7, 11);
            assert_eq!(statuses(&out), ["200"], "{out}");
        }
    }

    #[test]
    fn expect_100_continue_is_answered_before_the_body_is_sent() {
        let head = b"POST /up HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n";
        let mut session = Session::new();
        put(&mut session, head);
        session.process(&echo, DATE);
        assert_eq!(session.pending(), b"HTTP/1.1 100 Continue\r\n\r\n");
        assert!(session.in_request());
        let n = session.pending().len();
        session.sent(n);
        put(&mut session, b"ok");
        session.process(&echo, DATE);
        let out = String::from_utf8(session.pending().to_vec()).unwrap();
        assert!(
            out.starts_with("HTTP/1.1 200 OK\r\n") && out.ends_with("POST /up ok"),
            "{out}"
        );
        // Too large: refused at once, with no 100.
        let big = b"POST / HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 99\r\n\r\n";
        let (out, finished) = echoed(big, 100, 10);
        assert_eq!(statuses(&out), ["413"]);
        assert!(finished);
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

    /// The limits as the documentation states them, in bytes.
    #[test]
    fn the_limits_are_8_kib_of_head_64_kib_of_output_and_1_mib_of_body() {
        let mut input = b"GET /plaintext HTTP/1.1\r\nX-Big: ".to_vec();
        input.resize(8192 - 4, b'a');
        input.extend_from_slice(b"\r\n\r\n");
        assert_eq!(
            statuses(&converse(&mut Session::new(), &input, 4096)),
            ["200"]
        );
        input.insert(40, b'a');
        assert_eq!(
            statuses(&converse(&mut Session::new(), &input, 4096)),
            ["431"]
        );

        let mut upload = b"PUT / HTTP/1.1\r\nContent-Length: 1048576\r\n\r\n".to_vec();
        upload.resize(upload.len() + 1024 * 1024, b'b');
        assert_eq!(
            statuses(&converse(&mut Session::new(), &upload, 4096)),
            ["404"]
        );
        let over = b"PUT / HTTP/1.1\r\nContent-Length: 1048577\r\n\r\n";
        assert_eq!(
            statuses(&converse(&mut Session::new(), over, 4096)),
            ["413"]
        );

        // Requests are answered until 64 KiB of output waits, and no further.
        let mut session = Session::new();
        let request = b"GET /plaintext HTTP/1.1\r\n\r\n";
        while session.wants_read() {
            put(&mut session, request);
            session.process(&HelloWorld, DATE);
        }
        let answer = converse(&mut Session::new(), request, request.len()).len();
        assert_eq!(
            session.pending().len(),
            (64 * 1024usize).div_ceil(answer) * answer
        );
    }

    #[test]
    fn process_at_most_answers_no_more_than_it_is_asked() {
        let request = b"GET /plaintext HTTP/1.1\r\n\r\n";
        let mut session = Session::new();
        let three = request.repeat(3);
        put(&mut session, &three);
        for answered in [2, 1, 0] {
            let before = session.pending().len();
            assert_eq!(session.process_at_most(&HelloWorld, DATE, 2), answered);
            let out = std::str::from_utf8(&session.pending()[before..]).unwrap();
            assert_eq!(statuses(out).len(), answered);
        }
        assert!(!session.in_request());
    }

    #[test]
    fn output_that_reaches_the_high_water_mark_exactly_stops_the_answers() {
        let request = b"GET / HTTP/1.1\r\n\r\n";
        let sized = |len: usize| {
            move |_: &Request<'_>, response: &mut Response<'_>| response.body().resize(len, b'x')
        };
        let answer = |len: usize| {
            let mut session = Session::new();
            put(&mut session, request);
            session.process(&sized(len), DATE);
            session.pending().len()
        };
        // A body that makes each answer 4 KiB, so that 16 of them fill the mark.
        let len = (0..4096)
            .find(|&len| answer(len) == 4096)
            .expect("a body length that makes a 4 KiB answer");
        let mut session = Session::new();
        put(&mut session, &request.repeat(17));
        session.process(&sized(len), DATE);
        assert_eq!(session.pending().len(), HIGH_WATER);
        assert!(!session.wants_read());
    }

    #[test]
    fn unanswered_bytes_move_to_the_front_only_once_the_buffer_is_full() {
        let mut session = Session::new();
        let first = b"GET /plaintext HTTP/1.1\r\n\r\n";
        let partial = b"GET /plain";
        put(&mut session, &[&first[..], partial].concat());
        session.process(&HelloWorld, DATE);
        // The answered request's bytes stay until the room after the partial
        // one runs out: no copy for each read.
        let room = session.read_buf().len();
        assert_eq!(room, MAX_HEAD - first.len() - partial.len());
        put(&mut session, &vec![b'x'; room]);
        assert_eq!(session.read_buf().len(), first.len());
        assert!(session.input.starts_with(partial));
    }

    /// Greets the name in the `X-Name` header, through `io::Write`.
    fn greet(request: &Request<'_>, response: &mut Response<'_>) {
        use std::io::Write;
        let name = request.header("x-name").unwrap_or(b"nobody");
        response.write_all(b"hello, ").unwrap();
        assert_eq!(response.write(name).unwrap(), name.len());
        write!(response, " ({} headers)", request.headers().count()).unwrap();
    }

    #[test]
    fn handlers_read_headers_by_any_case_and_write_through_io_write() {
        let input = b"GET / HTTP/1.1\r\nHost: h\r\nX-NAME: ada\r\nx-name: bob\r\n\r\nGET / HTTP/1.1\r\n\r\n";
        let mut session = Session::new();
        put(&mut session, input);
        session.process(&greet, DATE);
        let out = std::str::from_utf8(session.pending()).unwrap();
        let bodies: Vec<_> = out
            .split("HTTP/1.1 ")
            .skip(1)
            .map(|r| r.split("\r\n\r\n").nth(1).unwrap())
            .collect();
        assert_eq!(
            bodies,
            ["hello, ada (3 headers)", "hello, nobody (0 headers)"]
        );
    }
}
