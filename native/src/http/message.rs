//! What a [`Handler`](super::Handler) sees of a request and writes of its response.

use std::io;

/// A parsed request head, borrowed from the connection's input buffer.
#[derive(Debug)]
pub struct Request<'a> {
    pub(crate) method: &'a str,
    pub(crate) path: &'a str,
    pub(crate) minor_version: u8,
    pub(crate) headers: &'a [httparse::Header<'a>],
    pub(crate) body: &'a [u8],
    pub(crate) head: bool,
}

impl<'a> Request<'a> {
    /// The method, such as `GET`. A `HEAD` request reads as `GET`, so that
    /// every handler answers it as it answers GET; the server then sends
    /// the status and headers without the body [RFC 9110 §9.3.2].
    pub fn method(&self) -> &'a str {
        self.method
    }

    /// Whether this is a `HEAD` request, whose response body is not sent: a
    /// handler may skip writing it (`Content-Length` then says 0).
    pub fn is_head(&self) -> bool {
        self.head
    }

    /// The request target as sent, such as `/json` or `/search?q=x`.
    pub fn path(&self) -> &'a str {
        self.path
    }

    /// The minor version of HTTP/1.x: `1` for HTTP/1.1, `0` for HTTP/1.0.
    pub fn minor_version(&self) -> u8 {
        self.minor_version
    }

    /// The value of the first header called `name` (compared without regard to case).
    pub fn header(&self, name: &str) -> Option<&'a [u8]> {
        self.headers()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, value)| value)
    }

    /// The request body, whole: read by its `Content-Length` or decoded
    /// from chunks (trailer fields are read and dropped). Empty when there
    /// is none.
    pub fn body(&self) -> &'a [u8] {
        self.body
    }

    /// Every header in the order sent, as (name, value).
    pub fn headers(&self) -> impl Iterator<Item = (&'a str, &'a [u8])> + '_ {
        self.headers.iter().map(|h| (h.name, h.value))
    }
}

/// A response status: a code and its reason phrase.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Status {
    code: u16,
    reason: &'static str,
}

impl Status {
    /// 200 OK.
    pub const OK: Status = Status::new(200, "OK");
    /// 400 Bad Request.
    pub const BAD_REQUEST: Status = Status::new(400, "Bad Request");
    /// 404 Not Found.
    pub const NOT_FOUND: Status = Status::new(404, "Not Found");
    /// 408 Request Timeout.
    pub const REQUEST_TIMEOUT: Status = Status::new(408, "Request Timeout");
    /// 413 Content Too Large.
    pub const CONTENT_TOO_LARGE: Status = Status::new(413, "Content Too Large");
    /// 431 Request Header Fields Too Large.
    pub const REQUEST_HEADER_FIELDS_TOO_LARGE: Status =
        Status::new(431, "Request Header Fields Too Large");
    /// 500 Internal Server Error.
    pub const INTERNAL_SERVER_ERROR: Status = Status::new(500, "Internal Server Error");
    /// 501 Not Implemented.
    pub const NOT_IMPLEMENTED: Status = Status::new(501, "Not Implemented");
    /// 503 Service Unavailable.
    pub const SERVICE_UNAVAILABLE: Status = Status::new(503, "Service Unavailable");

    /// A status with any code and reason phrase.
    pub const fn new(code: u16, reason: &'static str) -> Status {
        Status { code, reason }
    }

    /// The three-digit code.
    pub fn code(self) -> u16 {
        self.code
    }

    /// The reason phrase.
    pub fn reason(self) -> &'static str {
        self.reason
    }
}

/// The response a [`Handler`](super::Handler) fills in: 200 OK with an empty
/// body until told otherwise.
///
/// The body is written into a buffer the connection reuses from request to
/// request, so a handler that writes into it allocates nothing once the
/// buffer has grown to its largest body. The server adds `Server`, `Date`,
/// `Content-Length` and, when the connection is closing, `Connection: close`.
#[derive(Debug)]
pub struct Response<'a> {
    pub(crate) status: Status,
    pub(crate) content_type: Option<&'static str>,
    pub(crate) body: &'a mut Vec<u8>,
}

impl Response<'_> {
    /// Sets the status.
    pub fn set_status(&mut self, status: Status) {
        self.status = status;
    }

    /// Sets the `Content-Type` header.
    pub fn set_content_type(&mut self, content_type: &'static str) {
        self.content_type = Some(content_type);
    }

    /// The body written so far; write to it directly or through [`io::Write`].
    pub fn body(&mut self) -> &mut Vec<u8> {
        self.body
    }
}

impl io::Write for Response<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.body.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.body.extend_from_slice(buf);
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}
