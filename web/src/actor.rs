//! `leanwire_core::actor` for JavaScript, read by the package's `src/actor.js`.
//!
//! The input string is in the shared input buffer as UTF-8. Strings in a
//! result are written as three words, `[kind, start, end)`:
//!
//! | kind | the string is |
//! |---|---|
//! | 0, `IN_INPUT` | `input.substring(start, end)` |
//! | 1, `IN_INPUT_LOWERCASE` | the same, ASCII-lowercased |
//! | 2, `IN_TEXT` | `text.substring(start, end)` |
//! | 3, `NULL` | `null` |
//!
//! with offsets in UTF-16 code units, so that JavaScript takes substrings of
//! the string it passed in and no text crosses for them at all.

use leanwire_core::actor::{
    self, ActorPath, Dialect, Error, Folded, InvalidActorName, PathView, check_actor_name,
    split_name_and_uid,
};
use wasm_bindgen::prelude::*;

use crate::shared::{Output, with_input, with_text_input};

/// The string is a substring of the input.
const IN_INPUT: u32 = 0;
/// The string is a substring of the input, in ASCII lowercase.
const IN_INPUT_LOWERCASE: u32 = 1;
/// The string is a substring of the text area.
const IN_TEXT: u32 = 2;
/// There is no string: `null`.
const NULL: u32 = 3;
/// The words before the elements of a parsed path.
const HEAD_WORDS: usize = 14;

/// The dialect numbered as the JavaScript side numbers it.
fn dialect(code: u32) -> Dialect {
    match code {
        1 => Dialect::Jvm,
        _ => Dialect::DotNet,
    }
}

/// Parses the actor path in the input buffer. The tape is
/// `protocol system host` (strings), `port uid` (numbers), then the element
/// count and each element's `[start, end)` in the input.
///
/// A number is two words, `[present, value]`; the uid's value is its
/// two's-complement bits.
///
/// `units` is the string's length in UTF-16 code units (its JavaScript
/// `length`): where it equals `len` the string is ASCII, and its offsets
/// need no counting.
#[wasm_bindgen(js_name = actorParse)]
pub fn actor_parse(len: u32, units: u32, dialect_code: u32) -> i32 {
    with_text_input(len, |input, out| {
        match ActorPath::parse(input, dialect(dialect_code)) {
            Ok(path) => {
                let strings = Strings::new(input, units);
                let address = path.address();
                let [protocol, host] = [Some(address.protocol()), address.host()]
                    .map(|text| strings.folded(out, text));
                let (system_start, system_end) = strings.range(address.system());
                let [port, uid] = [address.port(), path.uid().map(|uid| uid as u32)]
                    .map(|n| [u32::from(n.is_some()), n.unwrap_or(0)]);
                let head = [
                    protocol[0],
                    protocol[1],
                    protocol[2],
                    IN_INPUT,
                    system_start,
                    system_end,
                    host[0],
                    host[1],
                    host[2],
                    port[0],
                    port[1],
                    uid[0],
                    uid[1],
                    0,
                ];
                out.tape.extend_from_slice(&head);
                let mut count = 0;
                for element in path.elements() {
                    let (start, end) = strings.range(element);
                    out.tape.extend_from_slice(&[start, end]);
                    count += 1;
                }
                out.tape[HEAD_WORDS - 1] = count;
                out.tape.len() as i32
            }
            Err(error) => fail(out, error),
        }
    })
}

/// `ToString()` (`with_uid` 0) or `ToSerializationFormat()` (1) of the path
/// in the input buffer, as the whole text area.
#[wasm_bindgen(js_name = actorFormat)]
pub fn actor_format(len: u32, dialect_code: u32, with_uid: u32) -> i32 {
    with_text_input(len, |input, out| {
        match ActorPath::parse(input, dialect(dialect_code)) {
            Ok(path) if with_uid == 1 => out.push_display(path.serialization_format()),
            Ok(path) => out.push_display(path),
            Err(error) => return fail(out, error),
        }
        out.tape.len() as i32
    })
}

/// Splits `name#uid` in the input buffer: the tape is the name's
/// `[start, end)` in the input, then the uid as a number (see [`actor_parse`],
/// also for `units`).
#[wasm_bindgen(js_name = actorSplitNameAndUid)]
pub fn actor_split_name_and_uid(len: u32, units: u32, dialect_code: u32) -> i32 {
    with_text_input(len, |input, out| {
        match split_name_and_uid(input, dialect(dialect_code)) {
            Ok((name, uid)) => {
                let (start, end) = Strings::new(input, units).range(name);
                out.push(start);
                out.push(end);
                push_number(out, uid.map(|uid| uid as u32));
                out.tape.len() as i32
            }
            Err(error) => fail(out, error),
        }
    })
}

/// Whether the input buffer holds a valid path element: returns 1 or 0.
#[wasm_bindgen(js_name = actorIsValidPathElement)]
pub fn actor_is_valid_path_element(len: u32, dialect_code: u32) -> i32 {
    with_input(len, |input, _| {
        core::str::from_utf8(input)
            .is_ok_and(|name| actor::is_valid_path_element(name, dialect(dialect_code)))
            .into()
    })
}

/// Checks the actor name in the input buffer (or a null name, when `null`
/// is 1) as `ActorOf` does: an empty tape when it is valid, else the failure
/// with Akka's own message.
#[wasm_bindgen(js_name = actorCheckName)]
pub fn actor_check_name(len: u32, dialect_code: u32, null: u32) -> i32 {
    with_text_input(len, |name, out| {
        let checked = if null == 1 {
            Err(InvalidActorName::null(dialect(dialect_code)))
        } else {
            check_actor_name(name, dialect(dialect_code))
        };
        match checked {
            Ok(()) => 0,
            Err(invalid) => out.fail(invalid.error().kind(), invalid.error().offset(), invalid),
        }
    })
}

fn fail(out: &mut Output, error: Error) -> i32 {
    out.fail(error.kind(), error.offset(), error)
}

/// Writes `[present, value]`.
fn push_number(out: &mut Output, number: Option<u32>) {
    out.tape
        .extend_from_slice(&[u32::from(number.is_some()), number.unwrap_or(0)]);
}

/// Ranges of an input's substrings in UTF-16 code units.
struct Strings<'a> {
    input: &'a str,
    ascii: bool,
}

impl<'a> Strings<'a> {
    /// The strings of `input`, which is `units` UTF-16 code units long: as
    /// many as its bytes only when every one is ASCII.
    fn new(input: &'a str, units: u32) -> Self {
        Strings {
            input,
            ascii: input.len() == units as usize,
        }
    }

    /// Where `part`, a slice of the input, lies in it.
    #[inline(always)]
    fn range(&self, part: &str) -> (u32, u32) {
        let start = part.as_ptr().addr() - self.input.as_ptr().addr();
        if self.ascii {
            (start as u32, (start + part.len()) as u32)
        } else {
            self.count_units(start, part)
        }
    }

    /// [`range`](Self::range) of `part`, at byte `start`, in an input that
    /// is not ASCII: its code units counted.
    #[inline(never)]
    fn count_units(&self, start: usize, part: &str) -> (u32, u32) {
        let units = |bytes: &str| bytes.encode_utf16().count() as u32;
        let start_units = units(&self.input[..start]);
        (start_units, start_units + units(part))
    }

    /// Whether `part` is a slice of the input (the parser's views always are).
    fn contains(&self, part: &str) -> bool {
        let input = self.input.as_bytes().as_ptr_range();
        let part = part.as_bytes().as_ptr_range();
        input.start <= part.start && part.end <= input.end
    }

    /// The three words of a string that may read in lowercase, or `null`;
    /// text that is not a plain substring goes into the text area.
    fn folded(&self, out: &mut Output, text: Option<Folded<'_>>) -> [u32; 3] {
        let Some(text) = text else {
            return [NULL, 0, 0];
        };
        let raw = text.raw();
        let kind = match text.as_str() {
            Some(_) => IN_INPUT,
            None if self.ascii || raw.is_ascii() => IN_INPUT_LOWERCASE,
            None => IN_TEXT,
        };
        if kind != IN_TEXT && self.contains(raw) {
            let (start, end) = self.range(raw);
            [kind, start, end]
        } else {
            let (start, end) = out.write_display(text);
            [IN_TEXT, start, end]
        }
    }
}
