//! `leanwire_core::tds` for JavaScript, read by the package's `src/tds.js`.
//!
//! A reader ([`tds_open`], [`tds_feed`], [`tds_finish`], [`tds_close`])
//! writes what each piece of a response completes as tape records
//! ([`tape`], [`values`]), one call per piece. A reader is a handle number
//! into a registry, so that every export takes and returns numbers only.

mod fast;
pub mod tape;
pub mod values;

use std::cell::RefCell;

use leanwire_core::tds::TdsVersion;
use wasm_bindgen::prelude::*;

use crate::shared::{with_input, with_output};

use tape::{TapeOptions, TdsTape};
use values::{Tape, ValueOptions};

/// The TDS version numbered as the JavaScript side numbers it: 71, 72, 73
/// or 74.
fn version(code: u32) -> TdsVersion {
    match code {
        71 => TdsVersion::V7_1,
        72 => TdsVersion::V7_2,
        73 => TdsVersion::V7_3B,
        _ => TdsVersion::V7_4,
    }
}

thread_local! {
    static READERS: RefCell<Vec<Option<TdsTape>>> = const { RefCell::new(Vec::new()) };
}

/// Bit of [`tds_open`]'s `flags`: the input is bare tokens, without packet headers.
pub const FLAG_TOKENS_ONLY: u32 = 1;
/// Bit of [`tds_open`]'s `flags`: exact values (see [`values`]).
pub const FLAG_EXACT: u32 = 2;
/// Bit of [`tds_open`]'s `flags`: GUIDs in lowercase.
pub const FLAG_LOWER_GUIDS: u32 = 4;

/// Opens a reader and returns its handle (1 or more). `flags` combines the
/// `FLAG_` bits; `version_code` is 71, 72, 73 or 74; `arena_limit` is the
/// most bytes one result set's column metadata may take.
#[wasm_bindgen(js_name = tdsOpen)]
pub fn tds_open(flags: u32, version_code: u32, arena_limit: u32) -> u32 {
    let tape = TdsTape::new(TapeOptions {
        tokens_only: flags & FLAG_TOKENS_ONLY != 0,
        version: version(version_code),
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
