//! Request bodies without I/O: `Content-Length` and chunked framing
//! [RFC 9112 §6.2, §7.1], read into a buffer the connection reuses.

use super::session::MAX_HEAD;

/// How a request's body is framed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum BodyFraming {
    /// Exactly this many bytes.
    Length(u64),
    /// Chunks, the last of size 0, then trailer fields.
    Chunked,
}

/// Why a body could not be read.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum BodyError {
    /// The body is larger than the limit: 413.
    TooLarge,
    /// The chunked framing is broken: 400, with what was wrong.
    Malformed(&'static str),
}

/// The longest chunk-size line (size, extensions, CRLF) taken.
const MAX_CHUNK_LINE: usize = 1024;

/// Where a body's framing is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum State {
    /// Bytes of a `Content-Length` body still to come.
    Length(u64),
    /// Before a chunk-size line.
    ChunkSize,
    /// Bytes of the current chunk still to come.
    ChunkData(u64),
    /// The CRLF after a chunk's data; the count says how much of it was read.
    ChunkEnd(u8),
    /// Trailer fields, discarded: the bytes of the current line, and of all.
    Trailers { line: usize, seen: usize },
    /// The body is complete.
    Done,
}

/// Reads one request body, in pieces as they arrive.
#[derive(Debug)]
pub(crate) struct BodyReader {
    state: State,
}

impl BodyReader {
    /// A reader of a body framed as `framing`.
    pub(crate) fn new(framing: BodyFraming) -> BodyReader {
        let state = match framing {
            BodyFraming::Length(0) => State::Done,
            BodyFraming::Length(n) => State::Length(n),
            BodyFraming::Chunked => State::ChunkSize,
        };
        BodyReader { state }
    }

    /// Whether the body is complete.
    pub(crate) fn is_done(&self) -> bool {
        self.state == State::Done
    }

    /// Takes what it can of the body from the start of `input`, appending
    /// its content to `body`, which may hold at most `max` bytes. Returns
    /// the bytes of `input` taken; [`is_done`](Self::is_done) then says
    /// whether the body is complete.
    pub(crate) fn read(
        &mut self,
        mut input: &[u8],
        body: &mut Vec<u8>,
        max: usize,
    ) -> Result<usize, BodyError> {
        let before = input.len();
        while !input.is_empty() && self.state != State::Done {
            let taken = match &mut self.state {
                State::Length(left) => {
                    let n = take(input, left, body);
                    if *left == 0 {
                        self.state = State::Done;
                    }
                    n
                }
                State::ChunkSize => match httparse::parse_chunk_size(input) {
                    Ok(httparse::Status::Complete((n, 0))) => {
                        self.state = State::Trailers { line: 0, seen: 0 };
                        n
                    }
                    Ok(httparse::Status::Complete((n, size))) => {
                        if size > (max - body.len()) as u64 {
                            return Err(BodyError::TooLarge);
                        }
                        self.state = State::ChunkData(size);
                        n
                    }
                    Ok(httparse::Status::Partial) if input.len() < MAX_CHUNK_LINE => break,
                    Ok(httparse::Status::Partial) => {
                        return Err(BodyError::Malformed("chunk size line too long"));
                    }
                    Err(_) => return Err(BodyError::Malformed("invalid chunk size")),
                },
                State::ChunkData(left) => {
                    let n = take(input, left, body);
                    if *left == 0 {
                        self.state = State::ChunkEnd(0);
                    }
                    n
                }
                State::ChunkEnd(read) => {
                    if input[0] != b"\r\n"[usize::from(*read)] {
                        return Err(BodyError::Malformed("chunk data not followed by CRLF"));
                    }
                    *read += 1;
                    if *read == 2 {
                        self.state = State::ChunkSize;
                    }
                    1
                }
                State::Trailers { line, seen } => {
                    let mut n = 0;
                    for &byte in input {
                        n += 1;
                        *seen += 1;
                        if *seen > MAX_HEAD {
                            return Err(BodyError::Malformed("trailer fields over 8192 bytes"));
                        }
                        if byte != b'\n' {
                            *line += 1;
                        } else if *line <= 1 {
                            // An empty line (CRLF, or a bare LF) ends the trailers.
                            self.state = State::Done;
                            break;
                        } else {
                            *line = 0;
                        }
                    }
                    n
                }
                State::Done => 0,
            };
            input = &input[taken..];
        }
        Ok(before - input.len())
    }
}

/// Moves up to `left` bytes from the start of `input` into `body`.
fn take(input: &[u8], left: &mut u64, body: &mut Vec<u8>) -> usize {
    let n = usize::try_from(*left).map_or(input.len(), |left| left.min(input.len()));
    body.extend_from_slice(&input[..n]);
    *left -= n as u64;
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads `input` in pieces of `chunk` bytes; returns the body and the
    /// bytes left after it.
    fn read_all(
        framing: BodyFraming,
        input: &[u8],
        chunk: usize,
        max: usize,
    ) -> Result<(Vec<u8>, usize), BodyError> {
        let mut reader = BodyReader::new(framing);
        let mut body = Vec::new();
        let (mut at, mut end) = (0, 0);
        while !reader.is_done() {
            if end == input.len() && at == end {
                break;
            }
            end = (end + chunk).min(input.len());
            at += reader.read(&input[at..end], &mut body, max)?;
        }
        assert!(reader.is_done(), "body incomplete: {:?}", reader.state);
        Ok((body, input.len() - at))
    }

    #[test]
    fn a_content_length_body_is_read_whole_in_any_pieces() {
        for chunk in [1, 3, 100] {
            let (body, left) =
                read_all(BodyFraming::Length(11), b"hello worldGET /", chunk, 100).unwrap();
            assert_eq!((&body[..], left), (&b"hello world"[..], 5));
        }
    }

    #[test]
    fn chunked_bodies_decode_with_extensions_and_trailers_in_any_pieces() {
        // RFC 9112 §7.1: sizes in hex, extensions ignored, trailers discarded.
        let input = b"4;name=value\r\nWiki\r\n5\r\npedia\r\nE\r\n in\r\n\r\nchunks.\r\n0\r\nExpires: never\r\nX-Other: 1\r\n\r\nGET /next";
        for chunk in [1, 2, 7, input.len()] {
            let (body, left) = read_all(BodyFraming::Chunked, input, chunk, 1024).unwrap();
            assert_eq!(body, b"Wikipedia in\r\n\r\nchunks.", "chunk {chunk}");
            assert_eq!(left, b"GET /next".len());
        }
        let (body, left) = read_all(BodyFraming::Chunked, b"0\r\n\r\n", 1, 10).unwrap();
        assert_eq!((body.len(), left), (0, 0));
    }

    #[test]
    fn broken_chunked_framing_is_refused_with_its_reason() {
        for (input, reason) in [
            (&b"zz\r\n"[..], "invalid chunk size"),
            (b"3\r\nabcX", "chunk data not followed by CRLF"),
            (b"3\r\nabc\rX", "chunk data not followed by CRLF"),
        ] {
            let error = read_all(BodyFraming::Chunked, input, 1, 100).unwrap_err();
            assert_eq!(error, BodyError::Malformed(reason));
        }
        let long = [&b"1;"[..], &[b'x'; MAX_CHUNK_LINE]].concat();
        assert_eq!(
            read_all(BodyFraming::Chunked, &long, long.len(), 100).unwrap_err(),
            BodyError::Malformed("chunk size line too long")
        );
        // A size line of up to MAX_CHUNK_LINE - 1 bytes may yet end.
        let mut line = b"1;".to_vec();
        line.resize(MAX_CHUNK_LINE - 1, b'x');
        let mut reader = BodyReader::new(BodyFraming::Chunked);
        assert_eq!(reader.read(&line, &mut Vec::new(), 100), Ok(0));
        line.push(b'x');
        assert_eq!(
            reader.read(&line, &mut Vec::new(), 100),
            Err(BodyError::Malformed("chunk size line too long"))
        );
        // Trailer fields of MAX_HEAD bytes, their blank line included, and
        // one byte more.
        let mut trailers = b"X: ".to_vec();
        trailers.resize(MAX_HEAD - 4, b'a');
        trailers.extend_from_slice(b"\r\n\r\n");
        let whole = [&b"0\r\n"[..], &trailers].concat();
        assert_eq!(
            read_all(BodyFraming::Chunked, &whole, 100, 100),
            Ok((Vec::new(), 0))
        );
        trailers.insert(3, b'a');
        let whole = [&b"0\r\n"[..], &trailers].concat();
        assert_eq!(
            read_all(BodyFraming::Chunked, &whole, 100, 100).unwrap_err(),
            BodyError::Malformed("trailer fields over 8192 bytes")
        );
        let mut trailers = b"0\r\n".to_vec();
        trailers.resize(MAX_HEAD + 10, b'a');
        assert_eq!(
            read_all(BodyFraming::Chunked, &trailers, 100, 100).unwrap_err(),
            BodyError::Malformed("trailer fields over 8192 bytes")
        );
    }

    #[test]
    fn a_chunked_body_over_the_limit_is_too_large() {
        let input = b"8\r\n12345678\r\n8\r\n12345678\r\n0\r\n\r\n";
        assert!(read_all(BodyFraming::Chunked, input, 5, 16).is_ok());
        assert_eq!(
            read_all(BodyFraming::Chunked, input, 5, 15).unwrap_err(),
            BodyError::TooLarge
        );
        // A size past what u64 holds is no size at all.
        assert_eq!(
            read_all(BodyFraming::Chunked, b"fffffffffffffffff\r\n", 64, 15).unwrap_err(),
            BodyError::Malformed("invalid chunk size")
        );
    }
}
