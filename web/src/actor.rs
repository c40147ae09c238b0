//! `leanwire_core::actor` for JavaScript, read by the package's `src/actor.js`.
//!
//! The input string is in the shared input buffer as UTF-8. Strings in a
//! result are written as three words, `[kind, start, end)`:
//!
//! | kind | the string is |
//! |---|---|
//! | [`IN_INPUT`] | `input.substring(start, end)` |
//! | [`IN_INPUT_LOWERCASE`] | the same, ASCII-lowercased |
//! | [`IN_TEXT`] | `text.substring(start, end)` |
//! | [`NULL`] | `null` |
//!
//! with offsets in UTF-16 code units, so that JavaScript takes substrings of
//! the string it passed in and no text crosses for them at all.

use leanwire_core::actor::{
    self, ActorPath, Address, Dialect, Error, Folded, InvalidActorName, PathView, check_actor_name,
    split_name_and_uid,
};
use wasm_bindgen::prelude::*;

use crate::shared::{Output, with_input};

/// The string is a substring of the input.
const IN_INPUT: u32 = 0;
/// The string is a substring of the input, in ASCII lowercase.
const IN_INPUT_LOWERCASE: u32 = 1;
/// The string is a substring of the text area.
const IN_TEXT: u32 = 2;
/// There is no string: `null`.
const NULL: u32 = 3;

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
#[wasm_bindgen(js_name = actorParse)]
pub fn actor_parse(len: u32, dialect_code: u32) -> i32 {
    with_input(len, |input, out| {
        let Ok(input) = core::str::from_utf8(input) else {
            return out.fail("InvalidUtf8", 0, "input is not UTF-8");
        };
        match ActorPath::parse(input, dialect(dialect_code)) {
            Ok(path) => {
                let mut strings = Strings::new(input);
                write_address(&mut strings, out, &path.address());
                push_number(out, path.uid().map(|uid| uid as u32));
                let count_at = out.tape.len();
                out.push(0);
                for element in path.elements() {
                    let (start, end) = strings.range(element);
                    out.push(start);
                    out.push(end);
                }
                out.tape[count_at] = ((out.tape.len() - count_at - 1) / 2) as u32;
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
    with_input(len, |input, out| {
        let Ok(input) = core::str::from_utf8(input) else {
            return out.fail("InvalidUtf8", 0, "input is not UTF-8");
        };
        match ActorPath::parse(input, dialect(dialect_code)) {
            Ok(path) if with_uid == 1 => out.push_display(path.serialization_format()),
            Ok(path) => out.push_display(path),
            Err(error) => return fail(out, error),
        }
        out.tape.len() as i32
    })
}

/// Splits `name#uid` in the input buffer: the tape is the name's
/// `[start, end)` in the input, then the uid as a number (see [`actor_parse`]).
#[wasm_bindgen(js_name = actorSplitNameAndUid)]
pub fn actor_split_name_and_uid(len: u32, dialect_code: u32) -> i32 {
    with_input(len, |input, out| {
        let Ok(input) = core::str::from_utf8(input) else {
            return out.fail("InvalidUtf8", 0, "input is not UTF-8");
        };
        match split_name_and_uid(input, dialect(dialect_code)) {
            Ok((name, uid)) => {
                let (start, end) = Strings::new(input).range(name);
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
    with_input(len, |input, out| {
        let Ok(name) = core::str::from_utf8(input) else {
            return out.fail("InvalidUtf8", 0, "input is not UTF-8");
        };
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

fn write_address(strings: &mut Strings<'_>, out: &mut Output, address: &Address<'_>) {
    strings.push_folded(out, Some(address.protocol()));
    let (start, end) = strings.range(address.system());
    out.push(IN_INPUT);
    out.push(start);
    out.push(end);
    strings.push_folded(out, address.host());
    push_number(out, address.port());
}

/// Writes `[present, value]`.
fn push_number(out: &mut Output, number: Option<u32>) {
    out.push(u32::from(number.is_some()));
    out.push(number.unwrap_or(0));
}

/// Ranges of an input's substrings in UTF-16 code units.
struct Strings<'a> {
    input: &'a str,
    ascii: bool,
}

impl<'a> Strings<'a> {
    fn new(input: &'a str) -> Self {
        Strings {
            input,
            ascii: input.is_ascii(),
        }
    }

    /// Where `part`, a slice of the input, lies in it.
    fn range(&self, part: &str) -> (u32, u32) {
        let start = part.as_ptr().addr() - self.input.as_ptr().addr();
        let end = start + part.len();
        if self.ascii {
            (start as u32, end as u32)
        } else {
            let units = |bytes: &str| bytes.encode_utf16().count() as u32;
            let start_units = units(&self.input[..start]);
            (start_units, start_units + units(part))
        }
    }

    /// Whether `part` is a slice of the input (the parser's views always are).
    fn contains(&self, part: &str) -> bool {
        let input = self.input.as_bytes().as_ptr_range();
        let part = part.as_bytes().as_ptr_range();
        input.start <= part.start && part.end <= input.end
    }

    /// Writes a string that may read in lowercase, or `null`.
    fn push_folded(&mut self, out: &mut Output, text: Option<Folded<'_>>) {
        let Some(text) = text else {
            out.push(NULL);
            out.push(0);
            out.push(0);
            return;
        };
        let raw = text.raw();
        if self.contains(raw) && (text.as_str().is_some() || raw.is_ascii()) {
            let kind = if text.as_str().is_some() {
                IN_INPUT
            } else {
                IN_INPUT_LOWERCASE
            };
            let (start, end) = self.range(raw);
            out.push(kind);
            out.push(start);
            out.push(end);
        } else {
            out.push(IN_TEXT);
            out.push_display(text);
        }
    }
}
