//! `leanwire tds decode`: a TDS response read from a file, stdin or a
//! capture, decoded as it arrives, one JSON line per token.

use std::io::{self, Read, Write};

use crate::core::report::{DecodeOptions, ErrorReport, TdsDecoder};

use super::json_line;

/// How much is fed to the decoder at a time: what one read returns, up to
/// this, unless a chunk size is given.
pub const PIECE: usize = 64 * 1024;

/// The largest chunk size a caller may ask for: 1 MiB.
pub const MAX_CHUNK: usize = 1 << 20;

/// Opens `input` (`-` for stdin). With `pcap`, the input is a capture: its
/// TCP stream from the server on port 1433 is taken apart whole and read.
pub fn open(input: &str, pcap: bool) -> io::Result<Box<dyn Read>> {
    let mut source: Box<dyn Read> = if input == "-" {
        Box::new(io::stdin().lock())
    } else {
        Box::new(std::fs::File::open(input)?)
    };
    if !pcap {
        return Ok(source);
    }
    let mut bytes = Vec::new();
    source.read_to_end(&mut bytes)?;
    let stream = crate::pcap::server_stream(&bytes, 1433)?;
    Ok(Box::new(io::Cursor::new(stream)))
}

/// Decodes `source` into `out`, one JSON line per token, flushed as each
/// piece is decoded. `chunk` feeds that many bytes at a time (at most
/// [`MAX_CHUNK`]); without it, what each read returns.
///
/// A decode error is written as a last `{"error":...,"offset":N}` line and
/// returned inside `Ok`; `Err` is a failure to read or write.
pub fn decode(
    source: &mut dyn Read,
    out: &mut impl Write,
    chunk: Option<usize>,
    options: DecodeOptions,
) -> io::Result<Result<(), ErrorReport>> {
    let mut decoder = TdsDecoder::new(options);
    let mut buf = vec![0; chunk.map_or(PIECE, |n| n.clamp(1, MAX_CHUNK))];
    let mut reports = Vec::new();
    loop {
        let n = match read_piece(source, &mut buf, chunk.is_some()) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) => {
                out.flush()?;
                return Err(e);
            }
        };
        let fed = decoder.feed(&buf[..n], &mut reports);
        for report in reports.drain(..) {
            json_line(out, &report)?;
        }
        if let Err(error) = fed {
            json_line(out, &error)?;
            out.flush()?;
            return Ok(Err(error));
        }
        // What this piece completed goes out before the next read waits.
        out.flush()?;
    }
    let finished = decoder.finish();
    if let Err(error) = &finished {
        json_line(out, error)?;
    }
    out.flush()?;
    Ok(finished)
}

/// Reads the next piece of the stream into `buf`: what one read returns,
/// or with `whole` all of `buf` unless the stream ends first. 0 at the end.
fn read_piece(source: &mut dyn Read, buf: &mut [u8], whole: bool) -> io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match source.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => {
                filled += n;
                if !whole {
                    break;
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::tds::{DEFAULT_ARENA_LIMIT, TdsVersion};

    fn options() -> DecodeOptions {
        DecodeOptions {
            tokens_only: true,
            version: TdsVersion::V7_4,
            arena_limit: DEFAULT_ARENA_LIMIT,
        }
    }

    /// A DONE token: status FINAL, curcmd 0xc1 (SELECT), one row.
    const DONE: [u8; 13] = [0xfd, 0, 0, 0xc1, 0, 1, 0, 0, 0, 0, 0, 0, 0];

    #[test]
    fn each_token_is_a_line_whatever_the_chunk() {
        let whole = {
            let mut out = Vec::new();
            decode(&mut &DONE[..], &mut out, None, options())
                .unwrap()
                .unwrap();
            out
        };
        let text = String::from_utf8(whole.clone()).unwrap();
        assert_eq!(text.lines().count(), 1, "{text}");
        assert!(text.contains(r#""token":"DONE""#), "{text}");
        for chunk in [1, 5] {
            let mut out = Vec::new();
            decode(&mut &DONE[..], &mut out, Some(chunk), options())
                .unwrap()
                .unwrap();
            assert_eq!(out, whole, "chunk {chunk}");
        }
    }

    #[test]
    fn a_cut_stream_ends_with_an_error_line() {
        let mut out = Vec::new();
        let result = decode(&mut &DONE[..7], &mut out, Some(3), options()).unwrap();
        assert!(result.is_err());
        let text = String::from_utf8(out).unwrap();
        let last = text.lines().last().unwrap();
        assert!(last.starts_with(r#"{"error":"#), "{text}");
        assert!(last.contains(r#""offset":"#), "{text}");
    }

    /// A reader that is interrupted before every read, hands out at most
    /// 4 bytes a read, and notes the size of every buffer it is given.
    struct Stuttering<'d> {
        data: &'d [u8],
        interrupted: bool,
        asked: Vec<usize>,
    }

    impl Read for Stuttering<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            self.asked.push(buf.len());
            self.interrupted = !self.interrupted;
            if self.interrupted {
                return Err(io::ErrorKind::Interrupted.into());
            }
            let n = buf.len().min(4).min(self.data.len());
            buf[..n].copy_from_slice(&self.data[..n]);
            self.data = &self.data[n..];
            Ok(n)
        }
    }

    #[test]
    fn an_interrupted_read_is_retried_and_a_full_piece_asks_no_more() {
        let mut source = Stuttering {
            data: &DONE,
            interrupted: false,
            asked: Vec::new(),
        };
        let mut buf = [0; 10];
        assert_eq!(read_piece(&mut source, &mut buf, true).unwrap(), 10);
        assert_eq!(buf, DONE[..10]);
        assert!(
            source.asked.iter().all(|&len| len > 0),
            "a full buffer was read into again: {:?}",
            source.asked
        );
        assert_eq!(read_piece(&mut source, &mut buf, false).unwrap(), 3);
        assert_eq!(buf[..3], DONE[10..]);
        assert_eq!(read_piece(&mut source, &mut buf, false).unwrap(), 0);
    }
}
