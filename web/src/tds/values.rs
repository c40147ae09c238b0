//! Value records of the TDS tape, and the UTF-16 text area they point into.
//!
//! Every value is one record: a kind word, then the kind's payload words.
//! The JavaScript reader (`src/tds/values.js`) turns each into a JS value.
//!
//! | kind | payload | JavaScript value |
//! |---|---|---|
//! | [`NULL`] | none | `null` |
//! | [`INT`] | `i32` | number |
//! | [`BIGINT`] | low, high (two's complement) | string, or `bigint` in exact mode |
//! | [`BIT`] | 0 or 1 | boolean |
//! | [`FLOAT`] | low, high bits of an `f64` | number |
//! | [`REAL`] | bits of an `f32` | number |
//! | [`DECIMAL`] | `negative << 8 \| scale`, four magnitude words, low first | number |
//! | [`MONEY`] | high (`i32`), low, in ten-thousandths | number |
//! | [`DATETIME`] | days since 1900-01-01 (`i32`), 1/300 s ticks | `Date` |
//! | [`SMALL_DATETIME`] | days since 1900-01-01, minutes | `Date` |
//! | [`DATE`] | days since 0001-01-01 | `Date` |
//! | [`TIME`] | 100 ns units low, high | `Date` on 1970-01-01 |
//! | [`DATETIME2`] | days since 0001-01-01, 100 ns units low, high | `Date` |
//! | [`STRING`] | `[start, end)` in the text area, in UTF-16 units | string |
//! | [`BINARY`] | byte length, then the bytes packed into words | bytes |
//!
//! A datetimeoffset is a [`DATETIME2`] record of its UTC time. In exact mode
//! decimals, money, time, datetime2 and datetimeoffset are [`STRING`]s of
//! their exact text instead. The text area holds UTF-16LE, so that text from
//! the wire (UCS-2) is copied as it is and JavaScript decodes the whole area
//! once per call.

use core::fmt::{self, Write as _};

use leanwire_core::tds::{AnsiText, DataType, Guid, SqlValue, TypeInfo, Ucs2Str, Value};

/// NULL.
pub const NULL: u32 = 0;
/// tinyint, smallint, int.
pub const INT: u32 = 1;
/// bigint.
pub const BIGINT: u32 = 2;
/// bit.
pub const BIT: u32 = 3;
/// float.
pub const FLOAT: u32 = 4;
/// real.
pub const REAL: u32 = 5;
/// decimal, numeric.
pub const DECIMAL: u32 = 6;
/// money and smallmoney.
pub const MONEY: u32 = 7;
/// datetime.
pub const DATETIME: u32 = 9;
/// smalldatetime.
pub const SMALL_DATETIME: u32 = 10;
/// date.
pub const DATE: u32 = 11;
/// time.
pub const TIME: u32 = 12;
/// datetime2, and datetimeoffset as UTC.
pub const DATETIME2: u32 = 13;
/// Text of any kind: strings, GUIDs, exact numbers and times.
pub const STRING: u32 = 15;
/// binary, varbinary, image, UDT.
pub const BINARY: u32 = 16;

/// How values are written.
#[derive(Copy, Clone, Debug, Default)]
pub struct ValueOptions {
    /// Decimals, money and sub-millisecond times as exact text.
    pub exact: bool,
    /// GUIDs in lowercase (uppercase otherwise).
    pub lower_guids: bool,
}

/// The tape and text area of one call: a view over the shared output.
pub struct Tape<'o> {
    /// The words.
    pub words: &'o mut Vec<u32>,
    /// UTF-16LE text.
    pub text: &'o mut Vec<u8>,
}

impl Tape<'_> {
    /// Appends one word.
    pub fn push(&mut self, word: u32) {
        self.words.push(word);
    }

    /// Appends the words of a token record. Not inlined: one copy of the
    /// growth path keeps the package small; values, written far more
    /// often, extend the tape in place.
    #[inline(never)]
    pub fn put(&mut self, words: &[u32]) {
        self.words.extend_from_slice(words);
    }

    /// Appends a `u64` as low and high words.
    pub fn push_u64(&mut self, value: u64) {
        self.words.extend_from_slice(&[value as u32]);
        self.words.extend_from_slice(&[(value >> 32) as u32]);
    }

    /// The text area's length in UTF-16 units.
    fn units(&self) -> u32 {
        (self.text.len() / 2) as u32
    }

    /// Pushes `[start, end)` of the text written since unit `start`.
    fn push_range(&mut self, start: u32) {
        let end = self.units();
        self.words.extend_from_slice(&[start]);
        self.words.extend_from_slice(&[end]);
    }

    /// Copies UCS-2LE bytes into the text area and pushes their range.
    pub fn push_ucs2(&mut self, text: Ucs2Str<'_>) {
        let start = self.units();
        self.text.extend_from_slice(text.as_bytes());
        self.push_range(start);
    }

    /// Writes `value`'s `Display` into the text area and pushes its range.
    pub fn push_display(&mut self, value: impl fmt::Display) {
        let start = self.units();
        let _ = write!(Utf16(self.text), "{value}");
        self.push_range(start);
    }

    /// Appends `bytes` as a byte length and words.
    pub fn push_bytes(&mut self, bytes: &[u8]) {
        self.words.extend_from_slice(&[bytes.len() as u32]);
        let mut words = bytes.chunks_exact(4);
        for word in &mut words {
            self.words
                .push(u32::from_le_bytes([word[0], word[1], word[2], word[3]]));
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            let mut last = [0u8; 4];
            last[..rest.len()].copy_from_slice(rest);
            self.words.extend_from_slice(&[u32::from_le_bytes(last)]);
        }
    }

    /// Writes one value record.
    pub fn push_value(&mut self, value: &Value<'_>, options: ValueOptions) {
        let ucs2 = is_ucs2(value.type_info().data_type);
        match (value.bytes(), ucs2) {
            // N-types hold checked UCS-2: copied without decoding.
            (Some(bytes), true) => self.push_ucs2_bytes(bytes),
            _ => self.push_sql(value.get(), options),
        }
    }

    /// Writes the value record of a large value gathered in `bytes`.
    pub fn push_large(
        &mut self,
        type_info: Option<TypeInfo<'_>>,
        bytes: &[u8],
        options: ValueOptions,
    ) {
        match type_info {
            Some(ti) if is_ucs2(ti.data_type) => self.push_ucs2_bytes(bytes),
            Some(ti) => match Value::new(ti, Some(bytes)) {
                Some(value) => self.push_sql(value.get(), options),
                None => self.push_binary(bytes),
            },
            None => self.push_binary(bytes),
        }
    }

    fn push_ucs2_bytes(&mut self, bytes: &[u8]) {
        self.words.extend_from_slice(&[STRING]);
        let start = self.units();
        self.text.extend_from_slice(bytes);
        self.push_range(start);
    }

    fn push_binary(&mut self, bytes: &[u8]) {
        self.words.extend_from_slice(&[BINARY]);
        self.push_bytes(bytes);
    }

    fn push_string(&mut self, value: impl fmt::Display) {
        self.words.extend_from_slice(&[STRING]);
        self.push_display(value);
    }

    /// Writes the record of a decoded value.
    fn push_sql(&mut self, value: SqlValue<'_>, options: ValueOptions) {
        match value {
            SqlValue::Null => self.push(NULL),
            SqlValue::Bit(b) => self.words.extend_from_slice(&[BIT, b.into()]),
            SqlValue::TinyInt(n) => self.words.extend_from_slice(&[INT, n.into()]),
            SqlValue::SmallInt(n) => self.words.extend_from_slice(&[INT, n as i32 as u32]),
            SqlValue::Int(n) => self.words.extend_from_slice(&[INT, n as u32]),
            SqlValue::BigInt(n) => {
                self.push(BIGINT);
                self.push_u64(n as u64);
            }
            SqlValue::Real(x) => self.words.extend_from_slice(&[REAL, x.to_bits()]),
            SqlValue::Float(x) => {
                self.push(FLOAT);
                self.push_u64(x.to_bits());
            }
            SqlValue::Money(m) if options.exact => self.push_string(m),
            SqlValue::Decimal(d) if options.exact => self.push_string(d),
            SqlValue::Time(t) if options.exact => self.push_string(t),
            SqlValue::DateTime2(t) if options.exact => self.push_string(t),
            SqlValue::DateTimeOffset(t) if options.exact => self.push_string(t),
            SqlValue::Money(m) => {
                self.words
                    .extend_from_slice(&[MONEY, (m.0 >> 32) as u32, m.0 as u32])
            }
            SqlValue::Decimal(d) => {
                let head = u32::from(d.negative) << 8 | u32::from(d.scale);
                let m = d.magnitude;
                self.words.extend_from_slice(&[
                    DECIMAL,
                    head,
                    m as u32,
                    (m >> 32) as u32,
                    (m >> 64) as u32,
                    (m >> 96) as u32,
                ]);
            }
            SqlValue::DateTime(t) => {
                self.words
                    .extend_from_slice(&[DATETIME, t.days as u32, t.ticks])
            }
            SqlValue::SmallDateTime(t) => {
                self.words
                    .extend([SMALL_DATETIME, t.days.into(), t.minutes.into()])
            }
            SqlValue::Date(d) => self.words.extend_from_slice(&[DATE, d.days]),
            SqlValue::Time(t) => {
                self.push(TIME);
                self.push_u64(t.nanoseconds() / 100);
            }
            SqlValue::DateTime2(t) => {
                self.words.extend_from_slice(&[DATETIME2, t.date.days]);
                self.push_u64(t.time.nanoseconds() / 100);
            }
            SqlValue::DateTimeOffset(t) => {
                self.words.extend_from_slice(&[DATETIME2, t.utc.date.days]);
                self.push_u64(t.utc.time.nanoseconds() / 100);
            }
            SqlValue::Guid(g) => {
                self.push(STRING);
                self.push_guid(g, options.lower_guids);
            }
            SqlValue::Text(t) => {
                self.push(STRING);
                self.push_ansi(t);
            }
            SqlValue::NText(t) | SqlValue::Xml(t) => {
                self.push(STRING);
                self.push_ucs2(t);
            }
            SqlValue::Binary(b) => self.push_binary(b),
            other => self.push_string(other),
        }
    }

    /// Writes a GUID's canonical text and pushes its range.
    fn push_guid(&mut self, guid: Guid, lower: bool) {
        let digits: &[u8; 16] = if lower {
            b"0123456789abcdef"
        } else {
            b"0123456789ABCDEF"
        };
        let start = self.units();
        // 36 UTF-16 code units: 32 digits and four hyphens.
        let mut units = [0u8; 72];
        let mut at = 0;
        for (i, byte) in guid.to_u128().to_be_bytes().into_iter().enumerate() {
            if matches!(i, 4 | 6 | 8 | 10) {
                units[at] = b'-';
                at += 2;
            }
            units[at] = digits[usize::from(byte >> 4)];
            units[at + 2] = digits[usize::from(byte & 0xf)];
            at += 4;
        }
        self.text.extend_from_slice(&units);
        self.push_range(start);
    }

    /// Decodes code-page text into the text area and pushes its range.
    fn push_ansi(&mut self, text: AnsiText<'_>) {
        let start = self.units();
        if text.bytes.is_ascii() {
            self.text.reserve(text.bytes.len() * 2);
            for &b in text.bytes {
                self.text.extend_from_slice(&[b, 0]);
            }
        } else {
            let _ = write!(Utf16(self.text), "{text}");
        }
        self.push_range(start);
    }
}

/// Whether values of `data_type` are UCS-2 text.
fn is_ucs2(data_type: DataType) -> bool {
    matches!(
        data_type,
        DataType::NChar | DataType::NVarChar | DataType::NText | DataType::Xml
    )
}

/// `fmt::Write` into a vector of UTF-16LE bytes.
pub struct Utf16<'a>(pub &'a mut Vec<u8>);

impl fmt::Write for Utf16<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        if s.is_ascii() {
            for &b in s.as_bytes() {
                self.0.extend_from_slice(&[b, 0]);
            }
        } else {
            for unit in s.encode_utf16() {
                self.0.extend_from_slice(&unit.to_le_bytes());
            }
        }
        Ok(())
    }
}
