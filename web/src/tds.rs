//! `leanwire_core::tds` for JavaScript, read by the package's `src/tds.js`.
//!
//! A reader ([`tds_open`], [`tds_feed`], [`tds_finish`], [`tds_close`])
//! writes what each piece of a response completes as tape records
//! ([`tape`], [`values`]), one call per piece. A reader is a handle number
//! into a registry, so that every export takes and returns numbers only.

pub mod tape;
pub mod values;

use std::cell::RefCell;

use leanwire_core::tds::TdsVersion;
use wasm_bindgen::prelude::*;

use crate::shared::{with_input, with_output};

use tape::{TapeOptions, TdsTape};
use values::{Tape, ValueOptions};

thread_local! {
    static READERS: RefCell<Vec<Option<TdsTape>>> = const { RefCell::new(Vec::new()) };
}

/// Bit of [`tds_open`]'s `flags`: the input is bare tokens, without packet headers.
pub const FLAG_TOKENS_ONLY: u32 = 1;
/// Bit of [`tds_open`]'s `flags`: exact values (see [`values`]).
pub const FLAG_EXACT: u32 = 2;
/// Bit of [`tds_open`]'s `flags`: GUIDs in lowercase.
pub const FLAG_LOWER_GUIDS: u32 = 4;

/// Opens a reader and returns its handle (1 or more), or 0 when the first
/// `version_len` bytes of the input buffer are not a name that
/// [`TdsVersion::from_name`] takes (`7.1` to `7.4`). `flags` combines the
/// `FLAG_` bits; `arena_limit` is the most bytes one result set's column
/// metadata may take.
#[wasm_bindgen(js_name = tdsOpen)]
pub fn tds_open(flags: u32, version_len: u32, arena_limit: u32) -> u32 {
    let version = with_input(version_len, |name, out| {
        // JavaScript's `TextEncoder` writes UTF-8 only.
        let name = core::str::from_utf8(name).unwrap_or("");
        let version = TdsVersion::from_name(name);
        if version.is_none() {
            out.fail_named(
                "UnknownVersion",
                0,
                format_args!("unknown TDS version \"{name}\": use 7.1, 7.2, 7.3 or 7.4"),
            );
        }
        version
    });
    let Some(version) = version else {
        return 0;
    };
    let tape = TdsTape::new(TapeOptions {
        tokens_only: flags & FLAG_TOKENS_ONLY != 0,
        version,
        values: ValueOptions {
            exact: flags & FLAG_EXACT != 0,
            lower_guids: flags & FLAG_LOWER_GUIDS != 0,
        },
        arena_limit: arena_limit as usize,
    });
    READERS.with_borrow_mut(|readers| match readers.iter().position(Option::is_none) {
        Some(free) => {
            readers[free] = Some(tape);
            free as u32 + 1
        }
        None => {
            readers.push(Some(tape));
            readers.len() as u32
        }
    })
}

/// Runs `call` on the reader `handle` names, if it is open.
fn with_reader<R>(handle: u32, call: impl FnOnce(&mut TdsTape) -> R) -> Option<R> {
    READERS.with_borrow_mut(|readers| {
        let slot = readers.get_mut((handle as usize).checked_sub(1)?)?;
        slot.as_mut().map(call)
    })
}

/// Feeds the first `len` bytes of the input buffer to reader `handle`:
/// the tape gets the records they complete (see [`tape`]). Returns the
/// tape's length in words, or [`FAILED`](crate::shared::FAILED) for a handle that is not open.
#[wasm_bindgen(js_name = tdsFeed)]
pub fn tds_feed(handle: u32, len: u32) -> i32 {
    with_input(len, |input, out| {
        let fed = with_reader(handle, |reader| {
            let mut tape = Tape {
                words: &mut out.tape,
                text: &mut out.text,
            };
            reader.feed(input, &mut tape)
        });
        match fed {
            Some(_) => out.tape.len() as i32,
            None => out.fail_named("Closed", 0, "the reader is closed"),
        }
    })
}

/// Says reader `handle`'s stream is over: 0, or [`FAILED`](crate::shared::FAILED) if it ended
/// inside a packet or a token (or the stream was bad).
#[wasm_bindgen(js_name = tdsFinish)]
pub fn tds_finish(handle: u32) -> i32 {
    with_output(|out| match with_reader(handle, |reader| reader.finish()) {
        Some(Ok(())) => 0,
        Some(Err(error)) => out.fail_named(error.kind().name(), error.offset(), error),
        None => out.fail_named("Closed", 0, "the reader is closed"),
    })
}

/// Closes reader `handle`, freeing its buffers.
#[wasm_bindgen(js_name = tdsClose)]
pub fn tds_close(handle: u32) {
    READERS.with_borrow_mut(|readers| {
        if let Some(slot) = (handle as usize)
            .checked_sub(1)
            .and_then(|at| readers.get_mut(at))
        {
            *slot = None;
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shared::{last_output, put_input};

    #[test]
    fn open_reads_version_names_as_core_does() {
        for name in ["7.1", "7.2", "7.3", "7.4", "7.3B"] {
            let handle = tds_open(0, put_input(name.as_bytes()), 1 << 20);
            assert!(handle > 0, "{name}");
            tds_close(handle);
        }
    }

    #[test]
    fn a_closed_reader_refuses_bytes_and_gives_its_slot_to_the_next() {
        let handle = tds_open(0, put_input(b"7.4"), 1 << 20);
        assert_eq!(tds_feed(handle, put_input(&[])), 0);
        tds_close(handle);
        assert!(tds_feed(handle, put_input(&[0xfd])) < 0);
        let (_, text) = last_output();
        assert!(text.starts_with(b"Closed\0"), "{text:?}");
        assert!(tds_finish(handle) < 0);
        let next = tds_open(0, put_input(b"7.4"), 1 << 20);
        assert_eq!(next, handle);
        tds_close(next);
    }

    #[test]
    fn open_refuses_an_unknown_version() {
        assert_eq!(tds_open(0, put_input(b"7_4"), 1 << 20), 0);
        let (tape, text) = last_output();
        assert_eq!(tape, [0]);
        assert_eq!(
            String::from_utf8(text).unwrap(),
            "UnknownVersion\0unknown TDS version \"7_4\": use 7.1, 7.2, 7.3 or 7.4"
        );
    }
}
