//! `TdsStream` over any bytes: read whole, in random-sized reads from a
//! source that is pending before each one (sizes drawn from the input's
//! first bytes, with a random input buffer), and one byte at a time, it
//! reads the same result sets, rows, values and error. No panic, errors
//! point inside the input, and the metadata arena never passes its limit.
#![no_main]

#[path = "../../native/tests/support/stutter.rs"]
mod stutter;

use std::io;

use futures_io::AsyncRead;
use leanwire_core::tds::{DEFAULT_ARENA_LIMIT, Error, SqlValue};
use leanwire_native::tds::{BlockingRead, StreamOptions, TdsStream};
use libfuzzer_sys::fuzz_target;
use stutter::{OneByte, Stutter};

/// The error as a line, checking that a stream defect points inside the input.
fn error_line(e: &io::Error, len: usize) -> String {
    if let Some(inner) = e.get_ref().and_then(|inner| inner.downcast_ref::<Error>()) {
        assert!(inner.offset() <= len, "{inner} past {len}");
    }
    format!("error {:?} {e}", e.kind())
}

/// Everything `stream` reads from `len` bytes, one line per result set,
/// row and response end; the error last.
fn run<R: AsyncRead + Unpin>(mut stream: TdsStream<R>, len: usize, limit: usize) -> Vec<String> {
    let mut out = Vec::new();
    // A response takes at least one 8-byte packet.
    for _ in 0..=len / 8 {
        let before = stream.offset();
        let opened = match stream.open_sync() {
            Ok(opened) => opened,
            Err(e) => {
                out.push(error_line(&e, len));
                return out;
            }
        };
        if opened {
            out.push(format!("columns {:?}", stream.columns()));
        }
        loop {
            assert!(stream.arena_allocated_bytes() <= limit);
            match stream.read_row_sync() {
                Ok(true) => {
                    let mut row = Vec::new();
                    for i in 0..stream.columns().len() {
                        let null = stream.is_null_sync(i).map_err(|e| e.to_string());
                        let value = stream.get::<SqlValue>(i).map_err(|e| e.to_string());
                        row.push(format!("{value:?} {null:?}"));
                    }
                    out.push(format!("row {row:?}"));
                }
                Ok(false) => match stream.next_result_sync() {
                    Ok(true) => out.push(format!("columns {:?}", stream.columns())),
                    Ok(false) => break,
                    Err(e) => {
                        out.push(error_line(&e, len));
                        return out;
                    }
                },
                Err(e) => {
                    out.push(error_line(&e, len));
                    return out;
                }
            }
        }
        let messages: Vec<String> = stream.messages().map(|m| m.to_string()).collect();
        out.push(format!("end {:?} {messages:?}", stream.done()));
        // A response of no tokens: the source has ended (or sent an empty
        // message, which reads the same either way).
        if !opened && stream.offset() == before && stream.done().is_none() {
            break;
        }
        if stream.next_response().is_err() {
            break;
        }
    }
    out
}

fuzz_target!(|data: &[u8]| {
    let Some((&control, rest)) = data.split_first() else {
        return;
    };
    // Bit 0: a small arena limit; bits 1-2 the input buffer's size; the
    // rest how many of the next bytes give read sizes.
    let limit = if control & 1 == 0 {
        DEFAULT_ARENA_LIMIT
    } else {
        4096
    };
    let input_len = [1, 7, 512, 8192][usize::from((control >> 1) & 3)];
    let count = usize::from(control >> 3).min(rest.len());
    let (sizes, bytes) = rest.split_at(count);
    let sizes: Vec<usize> = sizes.iter().map(|&s| usize::from(s % 64) + 1).collect();
    let options = StreamOptions {
        // Room for any row of these bytes and its UTF-8 forms, so that
        // no read size makes a value too large.
        row_buffer_len: 3 * bytes.len() + 64,
        arena_limit: limit,
        ..StreamOptions::default()
    };
    let whole = run(
        TdsStream::with_options(BlockingRead(bytes), options),
        bytes.len(),
        limit,
    );
    let mut next = sizes.iter().copied().cycle();
    let pieces = Stutter::new(bytes, move || next.next().unwrap_or(usize::MAX));
    let chunked = run(
        TdsStream::with_options(
            pieces,
            StreamOptions {
                input_len,
                ..options
            },
        ),
        bytes.len(),
        limit,
    );
    assert_eq!(whole, chunked, "sizes {sizes:?}, input buffer {input_len}");
    let bytewise = run(
        TdsStream::with_options(BlockingRead(OneByte(bytes)), options),
        bytes.len(),
        limit,
    );
    assert_eq!(whole, bytewise);
});
