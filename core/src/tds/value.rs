//! Decoded values: a lazy [`Value`] view over a column's bytes, and the
//! typed [`SqlValue`] it decodes to.

use core::fmt;

use super::codepage::CodePage;
use super::numeric::{Decimal, Money};
use super::temporal::{Date, DateTime, DateTime2, DateTimeOffset, SmallDateTime, Time};
use super::type_info::{Collation, DataType, TypeInfo, time_len};
use super::ucs2::{Ucs2Check, Ucs2Str};

/// A uniqueidentifier: 16 bytes as sent (Data1-3 little-endian, Data4 as
/// is). Prints lowercase canonical.
///
/// ```
/// use leanwire_core::tds::Guid;
///
/// let guid = Guid([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]);
/// assert_eq!(guid.to_string(), "04030201-0605-0807-090a-0b0c0d0e0f10");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Guid(pub [u8; 16]);

impl Guid {
    /// The GUID as a big-endian 128-bit number (canonical text order).
    pub const fn to_u128(self) -> u128 {
        let b = self.0;
        u128::from_be_bytes([
            b[3], b[2], b[1], b[0], b[5], b[4], b[7], b[6], b[8], b[9], b[10], b[11], b[12], b[13],
            b[14], b[15],
        ])
    }
}

impl fmt::Display for Guid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.to_u128();
        write!(
            f,
            "{:08x}-{:04x}-{:04x}-{:04x}-{:012x}",
            n >> 96,
            (n >> 80) & 0xffff,
            (n >> 64) & 0xffff,
            (n >> 48) & 0xffff,
            n & 0xffff_ffff_ffff
        )
    }
}

/// CHAR/VARCHAR/TEXT bytes with the code page their collation names,
/// decoded when printed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct AnsiText<'a> {
    /// The raw bytes.
    pub bytes: &'a [u8],
    /// Their code page.
    pub code_page: CodePage,
}

impl fmt::Display for AnsiText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.code_page.decode_to(self.bytes, f)
    }
}

/// Writes `bytes` as `0x` and uppercase hex.
pub(crate) fn write_hex(f: &mut fmt::Formatter<'_>, bytes: &[u8]) -> fmt::Result {
    f.write_str("0x")?;
    for b in bytes {
        write!(f, "{b:02X}")?;
    }
    Ok(())
}

/// A column value, decoded: what a [`Value`] holds.
///
/// `Display` prints each type in one fixed form: integers as numbers, bit as
/// `true`/`false`, money and decimal as exact decimals (`12.3400`, `-5.00`),
/// dates and times ISO 8601 style (`2024-01-31T13:45:30.997`), datetimeoffset
/// as local time with its offset, GUIDs lowercase, text as text, binary as
/// `0x` and uppercase hex, and NULL as `NULL`.
#[derive(Copy, Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum SqlValue<'a> {
    /// NULL.
    Null,
    /// bit.
    Bit(bool),
    /// tinyint.
    TinyInt(u8),
    /// smallint.
    SmallInt(i16),
    /// int.
    Int(i32),
    /// bigint.
    BigInt(i64),
    /// real.
    Real(f32),
    /// float.
    Float(f64),
    /// money or smallmoney.
    Money(Money),
    /// decimal or numeric.
    Decimal(Decimal),
    /// smalldatetime.
    SmallDateTime(SmallDateTime),
    /// datetime.
    DateTime(DateTime),
    /// date.
    Date(Date),
    /// time(n).
    Time(Time),
    /// datetime2(n).
    DateTime2(DateTime2),
    /// datetimeoffset(n).
    DateTimeOffset(DateTimeOffset),
    /// uniqueidentifier.
    Guid(Guid),
    /// char, varchar, text.
    Text(AnsiText<'a>),
    /// nchar, nvarchar, ntext.
    NText(Ucs2Str<'a>),
    /// xml (UTF-16 text).
    Xml(Ucs2Str<'a>),
    /// binary, varbinary, image, and UDT bytes.
    Binary(&'a [u8]),
}

impl fmt::Display for SqlValue<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SqlValue::Null => f.write_str("NULL"),
            SqlValue::Bit(b) => write!(f, "{b}"),
            SqlValue::TinyInt(n) => write!(f, "{n}"),
            SqlValue::SmallInt(n) => write!(f, "{n}"),
            SqlValue::Int(n) => write!(f, "{n}"),
            SqlValue::BigInt(n) => write!(f, "{n}"),
            SqlValue::Real(x) => write!(f, "{x}"),
            SqlValue::Float(x) => write!(f, "{x}"),
            SqlValue::Money(m) => write!(f, "{m}"),
            SqlValue::Decimal(d) => write!(f, "{d}"),
            SqlValue::SmallDateTime(t) => write!(f, "{t}"),
            SqlValue::DateTime(t) => write!(f, "{t}"),
            SqlValue::Date(t) => write!(f, "{t}"),
            SqlValue::Time(t) => write!(f, "{t}"),
            SqlValue::DateTime2(t) => write!(f, "{t}"),
            SqlValue::DateTimeOffset(t) => write!(f, "{t}"),
            SqlValue::Guid(g) => write!(f, "{g}"),
            SqlValue::Text(t) => write!(f, "{t}"),
            SqlValue::NText(t) | SqlValue::Xml(t) => write!(f, "{t}"),
            SqlValue::Binary(b) => write_hex(f, b),
        }
    }
}

/// One column's value (or a RETURNVALUE's), as a lazy view: its type and
/// its bytes, decoded only when asked ([`get`](Self::get), `Display`).
///
/// The bytes are the value's data without any framing: no length prefix,
/// PLP chunks joined, a TEXT value without its text pointer. They borrow the
/// chunk the value arrived in when it lay in one piece, and otherwise the
/// reader's scratch space (values up to 32 bytes) or the caller's row
/// buffer. The reader checked them when it read them (as [`new`](Self::new)
/// checks bytes from elsewhere), so decoding cannot fail.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Value<'a> {
    type_info: TypeInfo<'a>,
    data: Option<&'a [u8]>,
}

impl<'a> Value<'a> {
    /// A view over `data` (`None` for NULL) of type `type_info`, checked as
    /// the reader checks values: `None` if the bytes do not fit the type.
    pub fn new(type_info: TypeInfo<'a>, data: Option<&'a [u8]>) -> Option<Value<'a>> {
        if let Some(bytes) = data {
            let ucs2 = !type_info.data_type.is_ucs2() || Ucs2Str::new(bytes).is_ok();
            if !type_info.value_len_ok(bytes.len() as u64)
                || check_value(&type_info, bytes).is_err()
                || !ucs2
            {
                return None;
            }
        }
        Some(Value { type_info, data })
    }

    /// A view over `data` that is not checked again: for bytes a
    /// [`Reader`](super::Reader) checked as it read them, and that the
    /// caller kept, so that reading them again costs nothing. Bytes that do
    /// not fit `type_info` decode to unspecified values, never to a panic.
    pub const fn new_unchecked(type_info: TypeInfo<'a>, data: Option<&'a [u8]>) -> Value<'a> {
        Value { type_info, data }
    }

    /// Whether the value is NULL (known without decoding anything).
    pub const fn is_null(&self) -> bool {
        self.data.is_none()
    }

    /// The value's bytes, or `None` for NULL.
    pub const fn bytes(&self) -> Option<&'a [u8]> {
        self.data
    }

    /// The column's (or parameter's) type.
    pub const fn type_info(&self) -> &TypeInfo<'a> {
        &self.type_info
    }

    /// The value, decoded. A SQL_VARIANT decodes to its inner value.
    #[inline]
    pub fn get(&self) -> SqlValue<'a> {
        match self.data {
            None => SqlValue::Null,
            Some(bytes) => decode(&self.type_info, bytes),
        }
    }

    /// For a SQL_VARIANT value: the inner value's type (without names).
    pub fn variant_type(&self) -> Option<TypeInfo<'static>> {
        match (self.type_info.data_type, self.data) {
            (DataType::Variant, Some(bytes)) => split_variant(bytes).map(|(ti, _)| ti),
            _ => None,
        }
    }
}

impl fmt::Display for Value<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.get())
    }
}

/// The first `N` bytes of `bytes`, padded with zeros if it is shorter (as a
/// checked value never is).
fn array<const N: usize>(bytes: &[u8]) -> [u8; N] {
    if let Some(first) = bytes.first_chunk::<N>() {
        return *first;
    }
    let mut out = [0u8; N];
    out[..bytes.len()].copy_from_slice(bytes);
    out
}

/// Decodes checked bytes. Bytes that somehow do not fit decode as binary
/// rather than panic.
fn decode<'a>(ti: &TypeInfo<'a>, bytes: &'a [u8]) -> SqlValue<'a> {
    let int = |bytes: &[u8]| match bytes.len() {
        1 => SqlValue::TinyInt(bytes[0]),
        2 => SqlValue::SmallInt(i16::from_le_bytes(array(bytes))),
        4 => SqlValue::Int(i32::from_le_bytes(array(bytes))),
        _ => SqlValue::BigInt(i64::from_le_bytes(array(bytes))),
    };
    let fallback = SqlValue::Binary(bytes);
    match ti.data_type {
        DataType::Null => SqlValue::Null,
        DataType::TinyInt | DataType::SmallInt | DataType::Int | DataType::BigInt => int(bytes),
        DataType::IntN => int(bytes),
        DataType::Bit | DataType::BitN => SqlValue::Bit(bytes.first().is_some_and(|&b| b != 0)),
        DataType::Real => SqlValue::Real(f32::from_le_bytes(array(bytes))),
        DataType::Float => SqlValue::Float(f64::from_le_bytes(array(bytes))),
        DataType::FloatN => match bytes.len() {
            4 => SqlValue::Real(f32::from_le_bytes(array(bytes))),
            _ => SqlValue::Float(f64::from_le_bytes(array(bytes))),
        },
        DataType::SmallMoney => SqlValue::Money(Money::from_small_bytes(array(bytes))),
        DataType::Money => SqlValue::Money(Money::from_bytes(array(bytes))),
        DataType::MoneyN => match bytes.len() {
            4 => SqlValue::Money(Money::from_small_bytes(array(bytes))),
            _ => SqlValue::Money(Money::from_bytes(array(bytes))),
        },
        DataType::SmallDateTime => SqlValue::SmallDateTime(SmallDateTime::from_bytes(array(bytes))),
        DataType::DateTime => SqlValue::DateTime(DateTime::from_bytes(array(bytes))),
        DataType::DateTimeN => match bytes.len() {
            4 => SqlValue::SmallDateTime(SmallDateTime::from_bytes(array(bytes))),
            _ => SqlValue::DateTime(DateTime::from_bytes(array(bytes))),
        },
        DataType::Guid => SqlValue::Guid(Guid(array(bytes))),
        DataType::Decimal | DataType::Numeric | DataType::DecimalN | DataType::NumericN => {
            Decimal::from_bytes(bytes, ti.precision, ti.scale).map_or(fallback, SqlValue::Decimal)
        }
        DataType::Date => SqlValue::Date(Date::from_bytes(array(bytes))),
        DataType::Time => Time::from_bytes(bytes, ti.scale).map_or(fallback, SqlValue::Time),
        DataType::DateTime2 => {
            DateTime2::from_bytes(bytes, ti.scale).map_or(fallback, SqlValue::DateTime2)
        }
        DataType::DateTimeOffset => {
            DateTimeOffset::from_bytes(bytes, ti.scale).map_or(fallback, SqlValue::DateTimeOffset)
        }
        DataType::Char
        | DataType::VarChar
        | DataType::BigChar
        | DataType::BigVarChar
        | DataType::Text => SqlValue::Text(AnsiText {
            bytes,
            code_page: ti.code_page(),
        }),
        DataType::NChar | DataType::NVarChar | DataType::NText => {
            SqlValue::NText(Ucs2Str::from_checked(bytes))
        }
        DataType::Xml => SqlValue::Xml(Ucs2Str::from_checked(bytes)),
        DataType::Variant => match split_variant(bytes) {
            Some((inner, data)) => decode(&inner, data),
            None => fallback,
        },
        DataType::Binary
        | DataType::VarBinary
        | DataType::BigBinary
        | DataType::BigVarBinary
        | DataType::Image
        | DataType::Udt
        | DataType::Json
        | DataType::Vector
        | DataType::Unknown(_) => fallback,
    }
}

/// Splits a SQL_VARIANT value into its inner type and data
/// [MS-TDS 2.2.5.5.4]: base type, property byte count, properties, data.
fn split_variant(bytes: &[u8]) -> Option<(TypeInfo<'static>, &[u8])> {
    let (&base, rest) = bytes.split_first()?;
    let (&count, rest) = rest.split_first()?;
    let props = rest.get(..usize::from(count))?;
    let data = &rest[usize::from(count)..];
    let data_type = DataType::from(base);
    let mut ti = TypeInfo::new(data_type);
    let want = match data_type {
        _ if data_type.fixed_len().is_some() => 0,
        DataType::Guid | DataType::Date => 0,
        DataType::DecimalN | DataType::NumericN => {
            (ti.precision, ti.scale) = (props.first().copied()?, props.get(1).copied()?);
            if !(1..=38).contains(&ti.precision) || ti.scale > ti.precision {
                return None;
            }
            2
        }
        DataType::Time | DataType::DateTime2 | DataType::DateTimeOffset => {
            ti.scale = *props.first()?;
            if ti.scale > 7 {
                return None;
            }
            1
        }
        DataType::BigBinary | DataType::BigVarBinary => {
            ti.max_len = u32::from(u16::from_le_bytes([*props.first()?, *props.get(1)?]));
            2
        }
        DataType::BigChar | DataType::BigVarChar | DataType::NChar | DataType::NVarChar => {
            let c: [u8; 5] = props.get(..5)?.try_into().ok()?;
            ti.collation = Some(Collation::from_bytes(c));
            ti.max_len = u32::from(u16::from_le_bytes([*props.get(5)?, *props.get(6)?]));
            7
        }
        _ => return None,
    };
    if usize::from(count) != want {
        return None;
    }
    if data_type == DataType::Guid {
        ti.max_len = 16;
    }
    Some((ti, data))
}

/// Whether [`check_value`] looks at the bytes of values of `data_type`:
/// for the other types, any bytes of a length that fits are a value.
pub(crate) const fn is_checked(data_type: DataType) -> bool {
    matches!(
        data_type,
        DataType::Decimal
            | DataType::Numeric
            | DataType::DecimalN
            | DataType::NumericN
            | DataType::DateTime
            | DataType::DateTimeN
            | DataType::SmallDateTime
            | DataType::Time
            | DataType::DateTime2
            | DataType::DateTimeOffset
            | DataType::Variant
    )
}

/// Checks a complete non-NULL value beyond its length (which the reader
/// checked when it read the length). `Err` holds the offset of the bad byte
/// within `bytes`. UCS-2 of top-level N-types is checked as it arrives, by
/// the reader; the text inside a SQL_VARIANT is checked here.
pub(crate) fn check_value(ti: &TypeInfo<'_>, bytes: &[u8]) -> Result<(), usize> {
    match ti.data_type {
        DataType::Decimal | DataType::Numeric | DataType::DecimalN | DataType::NumericN => {
            match bytes.first() {
                Some(0 | 1) => Ok(()),
                _ => Err(0),
            }
        }
        DataType::DateTime | DataType::DateTimeN if bytes.len() == 8 => {
            let ticks = u32::from_le_bytes(array(&bytes[4..]));
            if ticks < 300 * 86_400 { Ok(()) } else { Err(4) }
        }
        DataType::SmallDateTime | DataType::DateTimeN => {
            let minutes = u16::from_le_bytes(array(bytes.get(2..).unwrap_or(&[])));
            if minutes < 1440 { Ok(()) } else { Err(2) }
        }
        DataType::Time | DataType::DateTime2 | DataType::DateTimeOffset => {
            let n = usize::from(time_len(ti.scale)).min(bytes.len());
            let time = Time::from_bytes(&bytes[..n], ti.scale).ok_or(0usize)?;
            if !time.is_valid() {
                return Err(0);
            }
            if ti.data_type == DataType::DateTimeOffset {
                let offset = i16::from_le_bytes(array(bytes.get(n + 3..).unwrap_or(&[])));
                if !(-840..=840).contains(&offset) {
                    return Err(n + 3);
                }
            }
            Ok(())
        }
        DataType::Variant => {
            let (inner, data) = split_variant(bytes).ok_or(0usize)?;
            let at = bytes.len() - data.len();
            let fits = match inner.data_type {
                DataType::Guid => data.len() == 16,
                DataType::BigBinary
                | DataType::BigVarBinary
                | DataType::BigChar
                | DataType::BigVarChar
                | DataType::NChar
                | DataType::NVarChar => data.len() <= inner.max_len as usize,
                _ => inner.value_len_ok(data.len() as u64),
            };
            if !fits {
                return Err(at);
            }
            if inner.data_type.is_ucs2() {
                let mut check = Ucs2Check::default();
                check
                    .feed(data, at as u64)
                    .and_then(|()| check.finish())
                    .map_err(|e| e as usize)?;
            }
            check_value(&inner, data).map_err(|e| e + at)
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::ToString;

    fn show(ti: TypeInfo<'_>, bytes: &[u8]) -> std::string::String {
        Value::new(ti, Some(bytes)).expect("valid").to_string()
    }

    fn ti(data_type: DataType, max_len: u32) -> TypeInfo<'static> {
        TypeInfo {
            max_len,
            ..TypeInfo::new(data_type)
        }
    }

    #[test]
    fn unchecked_views_decode_as_checked_ones_and_never_panic() {
        // Lengths around every fixed size, with bytes that fail most checks
        // (lone surrogates, sign bytes past 1, days past any calendar), and
        // bytes that pass many.
        let odd: std::vec::Vec<u8> = (0..40u8).map(|i| 0xd8 ^ i.wrapping_mul(37)).collect();
        let plain = [1u8; 40];
        let mut checked = 0;
        for ti in crate::tds::type_info::every_type_info() {
            for bytes in [&odd[..], &plain[..]] {
                for len in 0..bytes.len() {
                    let data = Some(&bytes[..len]);
                    let value = Value::new_unchecked(ti, data);
                    assert_eq!(value.bytes(), data);
                    let (sql, text) = (value.get(), value.to_string());
                    if let Some(value) = Value::new(ti, data) {
                        assert_eq!((value.get(), value.to_string()), (sql, text), "{ti:?}");
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 10_000, "{checked} views passed the checks");
    }

    #[test]
    fn fixed_and_nullable_numbers() {
        assert_eq!(show(ti(DataType::Int, 4), &[0xd2, 4, 0, 0]), "1234");
        assert_eq!(
            show(ti(DataType::IntN, 8), &(-1234567890123i64).to_le_bytes()),
            "-1234567890123"
        );
        assert_eq!(show(ti(DataType::IntN, 1), &[255]), "255");
        let int_n = |bytes: &'static [u8]| Value::new(ti(DataType::IntN, 8), Some(bytes)).unwrap();
        assert_eq!(int_n(&[255]).get(), SqlValue::TinyInt(255));
        assert_eq!(int_n(&[0xfe, 0xff]).get(), SqlValue::SmallInt(-2));
        assert_eq!(int_n(&[0xfe, 0xff, 0xff, 0xff]).get(), SqlValue::Int(-2));
        assert_eq!(
            int_n(&[0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]).get(),
            SqlValue::BigInt(-2)
        );
        assert_eq!(show(ti(DataType::BitN, 1), &[1]), "true");
        assert_eq!(show(ti(DataType::Bit, 1), &[0]), "false");
        assert_eq!(show(ti(DataType::Real, 4), &9.5f32.to_le_bytes()), "9.5");
        assert_eq!(show(ti(DataType::FloatN, 8), &3.5f64.to_le_bytes()), "3.5");
        assert_eq!(
            show(ti(DataType::MoneyN, 8), &[0, 0, 0, 0, 0x87, 0xd6, 0x12, 0]),
            "123.4567"
        );
        assert_eq!(
            show(ti(DataType::SmallMoney, 4), &(-50_000i32).to_le_bytes()),
            "-5.0000"
        );
    }

    #[test]
    fn text_binary_guid_null() {
        let latin1 = TypeInfo {
            collation: Some(Collation::from_bytes([9, 4, 0xd0, 0, 0x34])),
            ..ti(DataType::BigVarChar, 10)
        };
        assert_eq!(show(latin1, b"abcd\xe9"), "abcd\u{e9}");
        assert_eq!(show(ti(DataType::NVarChar, 10), &[0x68, 0, 0x69, 0]), "hi");
        assert_eq!(show(ti(DataType::BigVarBinary, 10), &[1, 0xab]), "0x01AB");
        assert_eq!(show(ti(DataType::BigVarBinary, 10), &[]), "0x");
        let guid = [
            0xff, 0x19, 0x96, 0x6f, 0x86, 0x8b, 0x11, 0xd0, 0xb4, 0x2d, 0, 0xc0, 0x4f, 0xc9, 0x64,
            0xff,
        ];
        assert_eq!(
            show(ti(DataType::Guid, 16), &guid),
            "6f9619ff-8b86-d011-b42d-00c04fc964ff"
        );
        let null = Value::new(ti(DataType::IntN, 4), None).unwrap();
        assert!(null.is_null());
        assert_eq!(null.to_string(), "NULL");
    }

    #[test]
    fn checks_reject_impossible_values() {
        let dec = TypeInfo {
            precision: 5,
            scale: 2,
            ..ti(DataType::DecimalN, 5)
        };
        assert!(Value::new(dec, Some(&[2, 0, 0, 0, 0])).is_none());
        assert!(Value::new(ti(DataType::IntN, 4), Some(&[1, 2, 3])).is_none());
        assert!(Value::new(ti(DataType::NVarChar, 10), Some(&[0, 0xdc])).is_none());
        let time = TypeInfo {
            scale: 0,
            ..ti(DataType::Time, 0)
        };
        assert!(Value::new(time, Some(&[0x80, 0x51, 0x01])).is_none()); // 86400 s
        assert!(Value::new(time, Some(&[0x7f, 0x51, 0x01])).is_some());
        assert!(
            Value::new(
                ti(DataType::DateTime, 8),
                Some(&[0, 0, 0, 0, 0, 0x8c, 0x8b, 0x01])
            )
            .is_none()
        );
    }

    #[test]
    fn variants_decode_to_their_inner_value() {
        let v = ti(DataType::Variant, 8016);
        // int 7
        assert_eq!(show(v, &[0x38, 0, 7, 0, 0, 0]), "7");
        // nvarchar(10) "hi" with a collation and a max length
        assert_eq!(
            show(v, &[0xe7, 7, 9, 4, 0xd0, 0, 0x34, 10, 0, 0x68, 0, 0x69, 0]),
            "hi"
        );
        // decimal(5,2) -5.00
        assert_eq!(show(v, &[0x6a, 2, 5, 2, 0, 0xf4, 1, 0, 0]), "-5.00");
        // time(7) needs one property byte
        assert!(Value::new(v, Some(&[0x29, 0, 0, 0, 0])).is_none());
        // an nvarchar with a lone surrogate
        assert!(Value::new(v, Some(&[0xe7, 7, 9, 4, 0xd0, 0, 0x34, 10, 0, 0, 0xdc])).is_none());
        // a variant inside a variant
        assert!(Value::new(v, Some(&[0x62, 0, 0x38, 0])).is_none());
        let inner = Value::new(v, Some(&[0x38, 0, 7, 0, 0, 0]))
            .unwrap()
            .variant_type()
            .unwrap();
        assert_eq!(inner.to_string(), "int");
        assert_eq!(inner.max_len, TypeInfo::new(DataType::Int).max_len);
    }

    /// The value a SQL_VARIANT of `bytes` holds, its inner type, and the
    /// same data decoded under that type directly.
    fn variant_and_direct(bytes: &[u8]) -> Option<(SqlValue<'_>, TypeInfo<'static>, SqlValue<'_>)> {
        let value = Value::new(ti(DataType::Variant, 8016), Some(bytes))?;
        let inner = value.variant_type().expect("a variant's inner type");
        let data = &bytes[2 + usize::from(bytes[1])..];
        Some((value.get(), inner, Value::new(inner, Some(data))?.get()))
    }

    #[test]
    fn variants_of_each_property_layout() {
        let guid = [
            0x24, 0, 0xff, 0x19, 0x96, 0x6f, 0x86, 0x8b, 0x11, 0xd0, 0xb4, 0x2d, 0, 0xc0, 0x4f,
            0xc9, 0x64, 0xff,
        ];
        let (value, inner, direct) = variant_and_direct(&guid).unwrap();
        assert!(matches!(value, SqlValue::Guid(_)) && value == direct);
        assert_eq!((inner.data_type, inner.max_len), (DataType::Guid, 16));
        assert!(
            variant_and_direct(&guid[..17]).is_none(),
            "15 bytes of GUID"
        );

        let (value, inner, direct) = variant_and_direct(&[0x28, 0, 0x0a, 0x46, 0x0b]).unwrap();
        assert!(matches!(value, SqlValue::Date(_)) && value == direct);
        assert_eq!(inner.data_type, DataType::Date);

        // time(3) of 1.5 s, and a datetime2(7) and a datetimeoffset(0).
        let (value, inner, direct) = variant_and_direct(&[0x29, 1, 3, 0xdc, 0x05, 0, 0]).unwrap();
        assert!(matches!(value, SqlValue::Time(_)) && value == direct);
        assert_eq!((inner.data_type, inner.scale), (DataType::Time, 3));
        let datetime2 = [0x2a, 1, 7, 1, 0, 0, 0, 0, 0x0a, 0x46, 0x0b];
        let (value, inner, direct) = variant_and_direct(&datetime2).unwrap();
        assert!(matches!(value, SqlValue::DateTime2(_)) && value == direct);
        assert_eq!(inner.scale, 7);
        let offset = [0x2b, 1, 0, 1, 0, 0, 0x0a, 0x46, 0x0b, 0x3c, 0];
        let (value, _, direct) = variant_and_direct(&offset).unwrap();
        assert!(matches!(value, SqlValue::DateTimeOffset(_)) && value == direct);
        // A scale past 7.
        assert!(variant_and_direct(&[0x29, 1, 8, 0, 0, 0, 0, 0]).is_none());

        let (value, inner, _) = variant_and_direct(&[0xa5, 2, 4, 0, 0xab, 0xcd]).unwrap();
        assert_eq!(value, SqlValue::Binary(&[0xab, 0xcd]));
        assert_eq!(
            (inner.data_type, inner.max_len),
            (DataType::BigVarBinary, 4)
        );
        let (value, inner, _) = variant_and_direct(&[0xad, 2, 2, 0, 0xab, 0xcd]).unwrap();
        assert_eq!(value, SqlValue::Binary(&[0xab, 0xcd]));
        assert_eq!((inner.data_type, inner.max_len), (DataType::BigBinary, 2));
        assert!(
            variant_and_direct(&[0xa5, 2, 1, 0, 0xab, 0xcd]).is_none(),
            "past its max length"
        );
    }

    #[test]
    fn datetime_ticks_stop_short_of_a_whole_day() {
        let datetime = ti(DataType::DateTime, 8);
        // 300 ticks a second: 25,920,000 is midnight of the next day.
        assert_eq!(
            check_value(&datetime, &[0, 0, 0, 0, 0xff, 0x81, 0x8b, 0x01]),
            Ok(())
        );
        assert_eq!(
            check_value(&datetime, &[0, 0, 0, 0, 0x00, 0x82, 0x8b, 0x01]),
            Err(4)
        );
    }

    #[test]
    fn variant_errors_are_at_the_inner_bytes_that_are_wrong() {
        let variant = ti(DataType::Variant, 8016);
        // A datetime whose ticks pass a day: its data starts at 2.
        let datetime = [0x3d, 0, 0, 0, 0, 0, 0x00, 0x82, 0x8b, 0x01];
        assert_eq!(check_value(&variant, &datetime), Err(6));
        // An nvarchar whose second unit is a lone low surrogate: data at 9.
        let text = [0xe7, 7, 9, 4, 0xd0, 0, 0x34, 10, 0, b'a', 0, 0, 0xdc];
        assert_eq!(check_value(&variant, &text), Err(11));
        // Data that does not fit its type is refused where the data starts.
        let guid = [0x24, 0, 1, 2, 3];
        assert_eq!(check_value(&variant, &guid), Err(2));
        assert_eq!(
            check_value(&variant, &guid[..2]),
            Err(2),
            "a GUID of no bytes"
        );
        let binary = [0xa5, 2, 1, 0, 0xab, 0xcd];
        assert_eq!(check_value(&variant, &binary), Err(4));
        let varchar = [0xa7, 7, 9, 4, 0xd0, 0, 0x34, 1, 0, b'a', b'b'];
        assert_eq!(check_value(&variant, &varchar), Err(9));
        assert_eq!(check_value(&variant, &varchar[..10]), Ok(()));
    }

    #[test]
    fn variant_decimals_hold_precision_1_to_38_and_scale_up_to_it() {
        let decimal = |precision: u8, scale: u8| {
            let bytes = [0x6a, 2, precision, scale, 1, 7, 0, 0, 0];
            variant_and_direct(&bytes).map(|(value, inner, direct)| {
                assert_eq!(value, direct);
                (inner.precision, inner.scale)
            })
        };
        assert_eq!(decimal(1, 0), Some((1, 0)));
        assert_eq!(decimal(2, 2), Some((2, 2)));
        assert_eq!(decimal(38, 38), Some((38, 38)));
        assert_eq!(decimal(0, 0), None);
        assert_eq!(decimal(39, 0), None);
        assert_eq!(decimal(2, 3), None);
    }
}
