//! The HTTP/1.1 server session on arbitrary request bytes, fed in
//! random-sized chunks (sizes drawn from the first bytes): no panic, the
//! output is a run of whole, well-framed responses with known statuses,
//! an error status ends the conversation, and the statuses are the same as
//! when the bytes arrive all at once. The handler answers HEAD with an
//! empty body, so that every response frames itself by its Content-Length.
#![no_main]

use leanwire_native::http::{Handler, HelloWorld, Request, Response, Session};
use libfuzzer_sys::fuzz_target;

const DATE: &[u8; 29] = b"Sun, 06 Nov 1994 08:49:37 GMT";

/// `HelloWorld`, with no body for HEAD.
fn handler(request: &Request<'_>, response: &mut Response<'_>) {
    HelloWorld.handle(request, response);
    if request.is_head() {
        response.body().clear();
    }
}

/// Feeds `bytes` in chunks of `sizes` (cycled) and returns the output and
/// whether the session finished.
fn converse(bytes: &[u8], sizes: &[usize]) -> (Vec<u8>, bool) {
    let mut session = Session::new();
    let mut out = Vec::new();
    let mut rest = bytes;
    let mut sizes = sizes.iter().copied().cycle();
    while !rest.is_empty() && !session.is_finished() {
        let buf = session.read_buf();
        assert!(
            !buf.is_empty(),
            "a live session always takes input once its output is sent"
        );
        let n = sizes
            .next()
            .unwrap_or(rest.len())
            .clamp(1, rest.len())
            .min(buf.len());
        buf[..n].copy_from_slice(&rest[..n]);
        rest = &rest[n..];
        session.received(n);
        session.process(&handler, DATE);
        out.extend_from_slice(session.pending());
        let sent = session.pending().len();
        session.sent(sent);
        session.process(&handler, DATE);
        out.extend_from_slice(session.pending());
        let sent = session.pending().len();
        session.sent(sent);
    }
    (out, session.is_finished())
}

/// The statuses of the responses in `out`, checking each is whole and framed.
fn statuses(mut out: &[u8]) -> Vec<u16> {
    let mut codes = Vec::new();
    while !out.is_empty() {
        let mut headers = [httparse::EMPTY_HEADER; 16];
        let mut response = httparse::Response::new(&mut headers);
        let head = match response.parse(out) {
            Ok(httparse::Status::Complete(head)) => head,
            other => panic!("not a whole response head: {other:?}"),
        };
        let code = response.code.unwrap();
        assert!(
            [100, 200, 400, 404, 408, 413, 431, 501].contains(&code),
            "status {code}"
        );
        // An interim 100 Continue has no body and no length.
        let length: usize = match code {
            100 => 0,
            _ => response
                .headers
                .iter()
                .find(|h| h.name == "Content-Length")
                .map(|h| std::str::from_utf8(h.value).unwrap().parse().unwrap())
                .expect("every final response has a Content-Length"),
        };
        assert!(out.len() >= head + length, "a body cut short");
        codes.push(code);
        out = &out[head + length..];
    }
    codes
}

fuzz_target!(|data: &[u8]| {
    let Some((&count, rest)) = data.split_first() else {
        return;
    };
    let count = usize::from(count % 16).min(rest.len());
    let (sizes, bytes) = rest.split_at(count);
    let sizes: Vec<usize> = sizes.iter().map(|&s| usize::from(s) * 37 + 1).collect();

    let (whole, whole_finished) = converse(bytes, &[bytes.len()]);
    let codes = statuses(&whole);
    if let Some(position) = codes.iter().position(|&c| c >= 400 && c != 404) {
        assert_eq!(
            position,
            codes.len() - 1,
            "an error status ends the conversation"
        );
        assert!(whole_finished);
    }
    let (chunked, chunked_finished) = converse(bytes, &sizes);
    assert_eq!(codes, statuses(&chunked), "sizes {sizes:?}");
    assert_eq!(whole_finished, chunked_finished);
});
