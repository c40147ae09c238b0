//! The memory that results cross to JavaScript through.
//!
//! A call writes its input into the [`input`](reserve_input) buffer, runs,
//! and leaves its result as a *tape* of `u32` words and a *text* area of
//! UTF-8 bytes (UTF-16LE for the TDS reader, whose strings arrive in it);
//! the four words of [`result_header`] say where both are. The
//! JavaScript side reads the tape with one typed-array view and turns text
//! into strings with one decode per call (or takes substrings of its own
//! input string), instead of building objects field by field across the
//! boundary.
//!
//! The tape layout of each call is documented beside the function that
//! writes it, and read by the matching file of the npm package's `src/`.
//!
//! A failure leaves the tape `[offset]` and the text `kind` NUL `message`,
//! and the call returns [`FAILED`].

use core::cell::{Cell, RefCell};
use core::fmt::{self, Write as _};

use wasm_bindgen::prelude::*;

/// What a call returns when it failed; its tape then describes the error.
pub const FAILED: i32 = -1;

/// The words of the result header: tape pointer and length in words, text
/// pointer and length in bytes.
const HEADER_WORDS: usize = 4;

thread_local! {
    static HEADER: [Cell<u32>; HEADER_WORDS] = const { [const { Cell::new(0) }; HEADER_WORDS] };
    static INPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static OUTPUT: RefCell<Output> = const { RefCell::new(Output::new()) };
}

/// Where the result header lives; it never moves.
#[wasm_bindgen(js_name = resultHeader)]
pub fn result_header() -> u32 {
    HEADER.with(|header| header.as_ptr() as u32)
}

/// Makes the input buffer at least `len` bytes long and returns where it
/// starts. The address stays valid until a larger reservation.
#[wasm_bindgen(js_name = reserveInput)]
pub fn reserve_input(len: u32) -> u32 {
    INPUT.with_borrow_mut(|input| {
        let len = len as usize;
        if input.len() < len {
            input.resize(len.next_power_of_two(), 0);
        }
        input.as_ptr() as u32
    })
}

/// Copies `bytes` into the input buffer, as JavaScript does; returns their
/// length, the `len` that the exports take.
pub fn put_input(bytes: &[u8]) -> u32 {
    reserve_input(bytes.len() as u32);
    INPUT.with_borrow_mut(|input| input[..bytes.len()].copy_from_slice(bytes));
    bytes.len() as u32
}

/// A copy of the last call's tape and text area, as JavaScript sees them.
pub fn last_output() -> (Vec<u32>, Vec<u8>) {
    OUTPUT.with_borrow(|output| (output.tape.clone(), output.text.clone()))
}

/// Runs `call` on the first `len` bytes of the input buffer and an emptied
/// [`Output`], then publishes the output's location in the result header.
pub fn with_input<R>(len: u32, call: impl FnOnce(&[u8], &mut Output) -> R) -> R {
    INPUT.with_borrow(|input| {
        let input = input.get(..len as usize).unwrap_or(&[]);
        with_output(|output| call(input, output))
    })
}

/// [`with_input`] for a string: the bytes JavaScript's `TextEncoder` wrote.
/// Bytes that are not UTF-8 fail with `InvalidUtf8` at their offset.
pub fn with_text_input(len: u32, call: impl FnOnce(&str, &mut Output) -> i32) -> i32 {
    with_input(len, |input, out| match core::str::from_utf8(input) {
        Ok(text) => call(text, out),
        Err(error) => out.fail_named("InvalidUtf8", error.valid_up_to(), "input is not UTF-8"),
    })
}

/// Runs `call` on an emptied [`Output`], then publishes its location.
pub fn with_output<R>(call: impl FnOnce(&mut Output) -> R) -> R {
    OUTPUT.with_borrow_mut(|output| {
        output.clear();
        let result = call(output);
        HEADER.with(|header| {
            header[0].set(output.tape.as_ptr() as u32);
            header[1].set(output.tape.len() as u32);
            header[2].set(output.text.as_ptr() as u32);
            header[3].set(output.text.len() as u32);
        });
        result
    })
}

/// A call's result: the tape and the text area.
pub struct Output {
    /// Words the JavaScript reader takes in order.
    pub tape: Vec<u32>,
    /// UTF-8 text; tape words point into it in UTF-16 code units, the
    /// offsets that JavaScript's `substring` takes once it is decoded.
    pub text: Vec<u8>,
    /// The text's length in UTF-16 code units.
    units: u32,
}

impl Output {
    /// An empty output.
    pub(crate) const fn new() -> Self {
        Output {
            tape: Vec::new(),
            text: Vec::new(),
            units: 0,
        }
    }

    /// Where the tape and the text end now, to [`rewind`](Self::rewind) to.
    pub fn mark(&self) -> Mark {
        Mark {
            tape: self.tape.len(),
            text: self.text.len(),
            units: self.units,
        }
    }

    /// Drops what was written after `mark`.
    pub fn rewind(&mut self, mark: Mark) {
        self.tape.truncate(mark.tape);
        self.text.truncate(mark.text);
        self.units = mark.units;
    }

    /// Appends one word. Not inlined: a result is hundreds of pushes, and
    /// one copy of the growth path keeps the package small.
    #[inline(never)]
    pub fn push(&mut self, word: u32) {
        self.tape.push(word);
    }

    /// Appends words. Not inlined, as [`push`](Self::push) is not.
    #[inline(never)]
    pub fn push_all(&mut self, words: &[u32]) {
        self.tape.extend_from_slice(words);
    }

    /// Writes `value`'s `Display` into the text area and pushes its `[start, end)`.
    pub fn push_display(&mut self, value: impl fmt::Display) {
        let (start, end) = self.write_display(value);
        self.tape.extend_from_slice(&[start, end]);
    }

    /// Writes `value`'s `Display` into the text area; returns its `[start, end)`.
    pub fn write_display(&mut self, value: impl fmt::Display) -> (u32, u32) {
        let from = self.text.len();
        let _ = write!(TextWriter(&mut self.text), "{value}");
        self.written_since(from)
    }

    /// Pushes `[start, end)` of the text written since byte `from`, which
    /// must be whole UTF-8 characters.
    pub fn push_written(&mut self, from: usize) {
        let (start, end) = self.written_since(from);
        self.tape.extend_from_slice(&[start, end]);
    }

    /// [`push_written`](Self::push_written) for text known to be ASCII,
    /// whose length is the same in bytes and in code units.
    pub fn push_ascii_written(&mut self, from: usize) {
        debug_assert!(self.text[from..].is_ascii());
        let (start, end) = self.advance((self.text.len() - from) as u32);
        self.tape.extend_from_slice(&[start, end]);
    }

    /// The text's length in UTF-16 code units.
    pub fn units(&self) -> u32 {
        self.units
    }

    /// `[start, end)` of the text written since byte `from`.
    fn written_since(&mut self, from: usize) -> (u32, u32) {
        self.advance(utf16_len(&self.text[from..]))
    }

    /// Counts `units` more of text; returns their `[start, end)`.
    fn advance(&mut self, units: u32) -> (u32, u32) {
        let start = self.units;
        self.units += units;
        (start, self.units)
    }

    /// Replaces whatever was written with the description of a failure:
    /// the tape becomes `[offset]` and the text `kind` NUL `message`, the
    /// kind named by its variant (`UnknownToken(0x12)` is `UnknownToken`).
    pub fn fail(
        &mut self,
        kind: impl fmt::Debug,
        offset: usize,
        message: impl fmt::Display,
    ) -> i32 {
        self.clear();
        let _ = write!(TextWriter(&mut self.text), "{}", VariantName(kind));
        self.end_failure(offset, message)
    }

    /// [`fail`](Self::fail) with a kind that no error enum names.
    pub fn fail_named(&mut self, kind: &str, offset: usize, message: impl fmt::Display) -> i32 {
        self.clear();
        self.text.extend_from_slice(kind.as_bytes());
        self.end_failure(offset, message)
    }

    fn clear(&mut self) {
        self.tape.clear();
        self.text.clear();
        self.units = 0;
    }

    fn end_failure(&mut self, offset: usize, message: impl fmt::Display) -> i32 {
        self.text.push(0);
        let _ = write!(TextWriter(&mut self.text), "{message}");
        self.tape.push(u32::try_from(offset).unwrap_or(u32::MAX));
        FAILED
    }
}

/// A point in an [`Output`] that it can be rewound to.
#[derive(Copy, Clone)]
pub struct Mark {
    tape: usize,
    text: usize,
    units: u32,
}

/// An error enum's variant name, as a failure's kind: its `Debug` up to the
/// first `(`, so `UnknownToken(0x12)` prints `UnknownToken`.
pub struct VariantName<K>(pub K);

impl<K: fmt::Debug> fmt::Display for VariantName<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        /// Passes text on until a `(`, then drops the rest.
        struct UpToParen<'f, 'g> {
            out: &'f mut fmt::Formatter<'g>,
            done: bool,
        }
        impl fmt::Write for UpToParen<'_, '_> {
            fn write_str(&mut self, s: &str) -> fmt::Result {
                if self.done {
                    return Ok(());
                }
                match s.find('(') {
                    Some(paren) => {
                        self.done = true;
                        self.out.write_str(&s[..paren])
                    }
                    None => self.out.write_str(s),
                }
            }
        }
        write!(
            UpToParen {
                out: f,
                done: false
            },
            "{:?}",
            self.0
        )
    }
}

/// The length in UTF-16 code units of valid UTF-8 `bytes`.
fn utf16_len(bytes: &[u8]) -> u32 {
    if bytes.is_ascii() {
        return bytes.len() as u32;
    }
    // Every byte that does not continue a character starts one, and the
    // four-byte characters take two units.
    bytes
        .iter()
        .map(|&b| u32::from(b & 0xc0 != 0x80) + u32::from(b >= 0xf0))
        .sum()
}

/// `fmt::Write` into a byte vector.
struct TextWriter<'a>(&'a mut Vec<u8>);

impl fmt::Write for TextWriter<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0.extend_from_slice(s.as_bytes());
        Ok(())
    }
}
