use core::fmt;

use super::code::registry;
use super::codepage::CodePage;
use super::error::{ErrorKind, Site};
use super::ucs2::Ucs2Str;

registry! {
    /// A TYPE_INFO type byte [MS-TDS 2.2.5.4]. Printed with the spec's names
    /// (`INTN`, `BIGVARCHR`); see [`TypeInfo`]'s `Display` for SQL names.
    pub enum DataType: u8 {
        /// NULLTYPE: no value, always NULL.
        Null = 0x1F => "NULL",
        /// INT1TYPE: tinyint (1 byte).
        TinyInt = 0x30 => "INT1",
        /// BITTYPE: bit (1 byte).
        Bit = 0x32 => "BIT",
        /// INT2TYPE: smallint (2 bytes).
        SmallInt = 0x34 => "INT2",
        /// INT4TYPE: int (4 bytes).
        Int = 0x38 => "INT4",
        /// INT8TYPE: bigint (8 bytes).
        BigInt = 0x7F => "INT8",
        /// FLT4TYPE: real (4 bytes).
        Real = 0x3B => "FLT4",
        /// FLT8TYPE: float (8 bytes).
        Float = 0x3E => "FLT8",
        /// MONEY4TYPE: smallmoney (4 bytes).
        SmallMoney = 0x7A => "MONEY4",
        /// MONEYTYPE: money (8 bytes).
        Money = 0x3C => "MONEY",
        /// DATETIM4TYPE: smalldatetime (4 bytes).
        SmallDateTime = 0x3A => "DATETIM4",
        /// DATETIMETYPE: datetime (8 bytes).
        DateTime = 0x3D => "DATETIME",
        /// INTNTYPE: a nullable integer of 1, 2, 4 or 8 bytes.
        IntN = 0x26 => "INTN",
        /// BITNTYPE: a nullable bit.
        BitN = 0x68 => "BITN",
        /// FLTNTYPE: a nullable real or float.
        FloatN = 0x6D => "FLTN",
        /// MONEYNTYPE: a nullable smallmoney or money.
        MoneyN = 0x6E => "MONEYN",
        /// DATETIMNTYPE: a nullable smalldatetime or datetime.
        DateTimeN = 0x6F => "DATETIMN",
        /// GUIDTYPE: uniqueidentifier.
        Guid = 0x24 => "GUID",
        /// DECIMALTYPE (legacy; read like DECIMALN).
        Decimal = 0x37 => "DECIMAL",
        /// NUMERICTYPE (legacy; read like NUMERICN).
        Numeric = 0x3F => "NUMERIC",
        /// DECIMALNTYPE: decimal(p, s).
        DecimalN = 0x6A => "DECIMALN",
        /// NUMERICNTYPE: numeric(p, s).
        NumericN = 0x6C => "NUMERICN",
        /// DATENTYPE: date (7.3).
        Date = 0x28 => "DATEN",
        /// TIMENTYPE: time(n) (7.3).
        Time = 0x29 => "TIMEN",
        /// DATETIME2NTYPE: datetime2(n) (7.3).
        DateTime2 = 0x2A => "DATETIME2N",
        /// DATETIMEOFFSETNTYPE: datetimeoffset(n) (7.3).
        DateTimeOffset = 0x2B => "DATETIMEOFFSETN",
        /// CHARTYPE (legacy, 1-byte length).
        Char = 0x2F => "CHAR",
        /// VARCHARTYPE (legacy, 1-byte length).
        VarChar = 0x27 => "VARCHAR",
        /// BINARYTYPE (legacy, 1-byte length).
        Binary = 0x2D => "BINARY",
        /// VARBINARYTYPE (legacy, 1-byte length).
        VarBinary = 0x25 => "VARBINARY",
        /// BIGCHARTYPE: char(n).
        BigChar = 0xAF => "BIGCHAR",
        /// BIGVARCHRTYPE: varchar(n) or varchar(max).
        BigVarChar = 0xA7 => "BIGVARCHR",
        /// NCHARTYPE: nchar(n).
        NChar = 0xEF => "NCHAR",
        /// NVARCHARTYPE: nvarchar(n) or nvarchar(max).
        NVarChar = 0xE7 => "NVARCHAR",
        /// BIGBINARYTYPE: binary(n).
        BigBinary = 0xAD => "BIGBINARY",
        /// BIGVARBINTYPE: varbinary(n) or varbinary(max).
        BigVarBinary = 0xA5 => "BIGVARBIN",
        /// TEXTTYPE: text.
        Text = 0x23 => "TEXT",
        /// NTEXTTYPE: ntext.
        NText = 0x63 => "NTEXT",
        /// IMAGETYPE: image.
        Image = 0x22 => "IMAGE",
        /// XMLTYPE: xml (7.2).
        Xml = 0xF1 => "XML",
        /// UDTTYPE: a CLR user-defined type (7.2).
        Udt = 0xF0 => "UDT",
        /// SSVARIANTTYPE: sql_variant.
        Variant = 0x62 => "SSVARIANT",
        /// JSONTYPE: json (needs feature 0x0D; not decoded).
        Json = 0xF4 => "JSON",
        /// VECTORTYPE: vector (needs feature 0x0E; not decoded).
        Vector = 0xF5 => "VECTOR",
    }
}

/// A collation [MS-TDS 2.2.5.1.2]: 5 bytes, an LCID with flag bits and a
/// version in the first four (a little-endian u32), and a SortId.
///
/// ```
/// use leanwire_core::tds::{CodePage, Collation};
///
/// let collation = Collation::from_bytes([0x09, 0x04, 0xd0, 0x00, 0x34]);
/// assert_eq!((collation.lcid(), collation.sort_id, collation.flags()), (0x409, 52, 0x0d));
/// assert!(collation.ignore_case() && !collation.ignore_accent());
/// assert_eq!(collation.code_page(), CodePage::Windows(1252));
/// assert_eq!(collation.to_bytes(), [0x09, 0x04, 0xd0, 0x00, 0x34]);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Collation {
    /// LCID (bits 0-19), flags (bits 20-27) and version (bits 28-31).
    pub info: u32,
    /// The SQL sort order; 0 for a Windows collation.
    pub sort_id: u8,
}

impl Collation {
    /// Reads the 5 wire bytes.
    pub const fn from_bytes(bytes: [u8; 5]) -> Collation {
        Collation {
            info: u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]),
            sort_id: bytes[4],
        }
    }

    /// The 5 wire bytes.
    pub const fn to_bytes(self) -> [u8; 5] {
        let info = self.info.to_le_bytes();
        [info[0], info[1], info[2], info[3], self.sort_id]
    }

    /// The Windows locale id (20 bits).
    pub const fn lcid(self) -> u32 {
        self.info & 0x000F_FFFF
    }

    /// The eight flag bits, in wire order: ignore case, ignore accent,
    /// ignore kana, ignore width, binary, binary2, UTF-8, reserved.
    pub const fn flags(self) -> u8 {
        (self.info >> 20) as u8
    }

    /// The collation version (4 bits).
    pub const fn version(self) -> u8 {
        (self.info >> 28) as u8
    }

    /// Case-insensitive.
    pub const fn ignore_case(self) -> bool {
        self.flags() & 0x01 != 0
    }

    /// Accent-insensitive.
    pub const fn ignore_accent(self) -> bool {
        self.flags() & 0x02 != 0
    }

    /// Kana-insensitive.
    pub const fn ignore_kana(self) -> bool {
        self.flags() & 0x04 != 0
    }

    /// Width-insensitive.
    pub const fn ignore_width(self) -> bool {
        self.flags() & 0x08 != 0
    }

    /// A binary collation.
    pub const fn binary(self) -> bool {
        self.flags() & 0x10 != 0
    }

    /// A binary2 (code point) collation.
    pub const fn binary2(self) -> bool {
        self.flags() & 0x20 != 0
    }

    /// A UTF-8 collation (7.4 with the UTF-8 feature acknowledged).
    pub const fn utf8(self) -> bool {
        self.flags() & 0x40 != 0
    }

    /// The code page of CHAR/VARCHAR/TEXT data under this collation: UTF-8
    /// for a UTF-8 collation, else from the SortId for a SQL collation, else
    /// from the LCID's language.
    pub const fn code_page(self) -> CodePage {
        if self.utf8() {
            return CodePage::Utf8;
        }
        let page = if self.sort_id != 0 {
            code_page_by_sort_id(self.sort_id)
        } else {
            code_page_by_language((self.lcid() & 0xFFFF) as u16)
        };
        match page {
            0 => CodePage::Unknown,
            n => CodePage::Windows(n),
        }
    }
}

/// The code page of a SQL collation's sort order (0 = unknown).
const fn code_page_by_sort_id(sort_id: u8) -> u16 {
    match sort_id {
        30..=34 => 437,
        40..=44 | 49 | 55..=61 => 850,
        51..=54 | 183..=186 => 1252,
        80..=96 => 1250,
        104..=108 => 1251,
        112..=114 | 120..=122 | 124 => 1253,
        128..=130 => 1254,
        136..=138 => 1255,
        144..=146 => 1256,
        152..=160 => 1257,
        _ => 0,
    }
}

/// The ANSI code page of a Windows collation's language id (0 = unknown).
const fn code_page_by_language(language: u16) -> u16 {
    match language {
        0x0401 | 0x0420 | 0x0429 | 0x0480 | 0x048C => 1256,
        0x0404 | 0x0C04 | 0x1404 => 950,
        0x0405 | 0x040E | 0x0415 | 0x0418 | 0x041A | 0x041B | 0x041C | 0x0424 | 0x0442 | 0x081A
        | 0x141A => 1250,
        0x0406 | 0x0407 | 0x0409 | 0x040A | 0x040B | 0x040C | 0x040F | 0x0414 | 0x0417 | 0x042E
        | 0x0437 | 0x043B | 0x0452 | 0x0462 | 0x047A | 0x047C | 0x047E | 0x0483 | 0x083B
        | 0x085F | 0x0C0A => 1252,
        0x0408 => 1253,
        0x040D => 1255,
        0x0411 => 932,
        0x0412 => 949,
        0x0419 | 0x0422 | 0x042F | 0x043F | 0x0444 | 0x046D | 0x0485 | 0x082C | 0x0C1A | 0x201A => {
            1251
        }
        0x041E => 874,
        0x041F | 0x042C | 0x0443 => 1254,
        0x0425..=0x0427 => 1257,
        0x042A => 1258,
        0x0804 => 936,
        _ => 0,
    }
}

/// The names an XML or UDT TYPE_INFO carries [MS-TDS 2.2.5.5.3, 2.2.5.5.2].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TypeNames<'a> {
    /// An XML column bound to a schema collection.
    Xml {
        /// The database of the schema collection.
        database: Ucs2Str<'a>,
        /// The schema that owns the collection.
        owning_schema: Ucs2Str<'a>,
        /// The XML schema collection.
        collection: Ucs2Str<'a>,
    },
    /// A CLR user-defined type.
    Udt {
        /// The database of the type.
        database: Ucs2Str<'a>,
        /// The schema of the type.
        schema: Ucs2Str<'a>,
        /// The type's name.
        type_name: Ucs2Str<'a>,
        /// The assembly-qualified CLR type name.
        assembly: Ucs2Str<'a>,
    },
}

/// A column's (or parameter's) type: TYPE_INFO, decoded [MS-TDS 2.2.5.6].
///
/// A small `Copy` value; the rare names (XML schema, UDT) sit behind a
/// reference into the arena.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TypeInfo<'a> {
    /// The type byte.
    pub data_type: DataType,
    /// The length field of TYPE_INFO: the maximum byte length for
    /// variable-length types (0xFFFF means MAX, sent as PLP), the byte
    /// length for the INTN family, and the fixed size for fixed types.
    /// 0 for DATE, TIME, DATETIME2, DATETIMEOFFSET, XML.
    pub max_len: u32,
    /// Decimal/numeric precision (1-38); 0 otherwise.
    pub precision: u8,
    /// Decimal/numeric scale, or the fractional-second digits (0-7) of
    /// TIME, DATETIME2 and DATETIMEOFFSET; 0 otherwise.
    pub scale: u8,
    /// The collation of BIGCHAR, BIGVARCHR, NCHAR, NVARCHAR, TEXT and NTEXT
    /// (and of variant strings).
    pub collation: Option<Collation>,
    /// XML schema or UDT names, when the TYPE_INFO has them.
    pub names: Option<&'a TypeNames<'a>>,
}

/// How a type's value is framed in a row [MS-TDS 2.2.5.2].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Layout {
    /// No length prefix: always this many bytes.
    Fixed(u8),
    /// A 1-byte length; `null` is the length byte that means NULL.
    Byte { null: u8 },
    /// A 2-byte length; 0xFFFF is NULL.
    UShort,
    /// A 4-byte length; 0 is NULL (SQL_VARIANT).
    Long,
    /// TEXT/NTEXT/IMAGE: text pointer length (0 = NULL), text pointer,
    /// timestamp, 4-byte length.
    Text,
    /// Partially length-prefixed: an 8-byte total, then chunks.
    Plp,
    /// NULLTYPE: no bytes, always NULL.
    AlwaysNull,
}

impl Layout {
    /// The width of a value's leading length field in bytes: the length
    /// itself, or for TEXT the text pointer's. `None` for the layouts
    /// without one, or whose length is not a plain field (PLP).
    pub(crate) const fn prefix_width(self) -> Option<u8> {
        match self {
            Layout::Byte { .. } | Layout::Text => Some(1),
            Layout::UShort => Some(2),
            Layout::Long => Some(4),
            Layout::Fixed(_) | Layout::Plp | Layout::AlwaysNull => None,
        }
    }

    /// Whether the leading length field `len` means NULL.
    pub(crate) const fn is_null_prefix(self, len: u64) -> bool {
        match self {
            Layout::Byte { null } => len == null as u64,
            Layout::UShort => len == 0xFFFF,
            Layout::Long | Layout::Text => len == 0,
            Layout::Fixed(_) | Layout::Plp | Layout::AlwaysNull => false,
        }
    }
}

/// The lengths a type's non-NULL values may have: a set of the short
/// lengths, and a maximum for the others.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Lengths {
    /// Bit `n` set: a value of `n` bytes fits, for `n` below [`Self::SHORT`].
    short: u32,
    /// The longest value that fits, for values of [`Self::SHORT`] bytes or
    /// more; 0 when none does.
    long: u64,
}

impl Lengths {
    /// The lengths below this are a set.
    const SHORT: u64 = 32;

    /// No length at all.
    pub(crate) const NONE: Lengths = Lengths { short: 0, long: 0 };
    /// INTN's: 1, 2, 4 or 8 bytes.
    const INTN: Lengths = Lengths {
        short: 1 << 1 | 1 << 2 | 1 << 4 | 1 << 8,
        long: 0,
    };
    /// FLTN's, MONEYN's and DATETIMN's: 4 or 8 bytes.
    const FOUR_OR_EIGHT: Lengths = Lengths {
        short: 1 << 4 | 1 << 8,
        long: 0,
    };
    /// DECIMAL's and NUMERIC's: a sign byte and 1 to 16 bytes of magnitude.
    const DECIMAL: Lengths = Lengths::range(2, 17);

    /// Exactly `len` bytes, below [`Self::SHORT`].
    const fn exactly(len: u8) -> Lengths {
        Lengths {
            short: 1 << len,
            long: 0,
        }
    }

    /// The lengths from `min` (below [`Self::SHORT`]) to `max`.
    const fn range(min: u64, max: u64) -> Lengths {
        let from_min = u32::MAX << min;
        if max >= Self::SHORT {
            return Lengths {
                short: from_min,
                long: max,
            };
        }
        Lengths {
            short: from_min & (u32::MAX >> (Self::SHORT - 1 - max)),
            long: 0,
        }
    }

    /// Whether a value of `len` bytes fits.
    pub(crate) const fn fits(self, len: u64) -> bool {
        if len < Self::SHORT {
            self.short >> len & 1 != 0
        } else {
            len <= self.long
        }
    }
}

/// Every type byte, at the maximum lengths and scales where lengths and
/// checks change.
#[cfg(test)]
pub(crate) fn every_type_info() -> impl Iterator<Item = TypeInfo<'static>> {
    const MAX_LENS: [u32; 14] = [
        0,
        1,
        4,
        8,
        16,
        17,
        30,
        31,
        32,
        33,
        100,
        8000,
        0xFFFF,
        u32::MAX,
    ];
    (0..=u8::MAX).map(DataType::from).flat_map(|data_type| {
        MAX_LENS.into_iter().flat_map(move |max_len| {
            (0..=7).map(move |scale| TypeInfo {
                max_len,
                scale,
                ..TypeInfo::new(data_type)
            })
        })
    })
}

/// The length of a TIME value's time part at `scale` [MS-TDS 2.2.5.5.1.8].
pub(crate) const fn time_len(scale: u8) -> u8 {
    match scale {
        0..=2 => 3,
        3..=4 => 4,
        _ => 5,
    }
}

impl DataType {
    /// The length of the fixed part of TYPE_INFO after the type byte, or
    /// `None` for an unknown type.
    pub(crate) const fn info_len(self) -> Option<u8> {
        Some(match self {
            DataType::Null
            | DataType::TinyInt
            | DataType::Bit
            | DataType::SmallInt
            | DataType::Int
            | DataType::BigInt
            | DataType::Real
            | DataType::Float
            | DataType::SmallMoney
            | DataType::Money
            | DataType::SmallDateTime
            | DataType::DateTime
            | DataType::Date => 0,
            DataType::IntN
            | DataType::BitN
            | DataType::FloatN
            | DataType::MoneyN
            | DataType::DateTimeN
            | DataType::Guid
            | DataType::Time
            | DataType::DateTime2
            | DataType::DateTimeOffset
            | DataType::Char
            | DataType::VarChar
            | DataType::Binary
            | DataType::VarBinary => 1,
            DataType::Decimal | DataType::Numeric | DataType::DecimalN | DataType::NumericN => 3,
            DataType::BigBinary | DataType::BigVarBinary | DataType::Udt => 2,
            DataType::BigChar | DataType::BigVarChar | DataType::NChar | DataType::NVarChar => 7,
            DataType::Text | DataType::NText => 9,
            DataType::Image | DataType::Variant => 4,
            // XML's one byte (schema present) is read on its own, as it
            // decides whether names follow.
            DataType::Xml | DataType::Json | DataType::Vector => 0,
            DataType::Unknown(_) => return None,
        })
    }

    /// The size of a fixed-length type's value.
    pub(crate) const fn fixed_len(self) -> Option<u8> {
        Some(match self {
            DataType::TinyInt | DataType::Bit => 1,
            DataType::SmallInt => 2,
            DataType::Int | DataType::Real | DataType::SmallMoney | DataType::SmallDateTime => 4,
            DataType::BigInt | DataType::Float | DataType::Money | DataType::DateTime => 8,
            _ => return None,
        })
    }

    /// Whether values are UCS-2 text.
    pub(crate) const fn is_ucs2(self) -> bool {
        matches!(
            self,
            DataType::NChar | DataType::NVarChar | DataType::NText | DataType::Xml
        )
    }
}

impl TypeInfo<'static> {
    /// A type with no length, precision, scale, collation or names.
    pub const fn new(data_type: DataType) -> TypeInfo<'static> {
        TypeInfo {
            data_type,
            max_len: match data_type.fixed_len() {
                Some(n) => n as u32,
                None => 0,
            },
            precision: 0,
            scale: 0,
            collation: None,
            names: None,
        }
    }

    /// Reads the fixed part of a TYPE_INFO (`bytes`, exactly
    /// [`DataType::info_len`] long) for `data_type`, checking lengths,
    /// precision and scale. Errors carry `site` and an offset into `bytes`.
    pub(crate) fn parse_fixed(
        data_type: DataType,
        bytes: &[u8],
        site: Site,
    ) -> Result<TypeInfo<'static>, (ErrorKind, usize)> {
        let invalid = |at: usize| (ErrorKind::InvalidTypeInfo(site), at);
        let mut info = TypeInfo::new(data_type);
        let byte = |at: usize| bytes.get(at).copied().unwrap_or(0);
        let u16_at = |at: usize| u16::from(byte(at)) | u16::from(byte(at + 1)) << 8;
        let collation = |at: usize| {
            Collation::from_bytes([
                byte(at),
                byte(at + 1),
                byte(at + 2),
                byte(at + 3),
                byte(at + 4),
            ])
        };
        match data_type {
            DataType::Json | DataType::Vector => return Err((ErrorKind::Unsupported(site), 0)),
            DataType::Unknown(id) => return Err((ErrorKind::UnknownDataType(site, id), 0)),
            DataType::IntN
            | DataType::BitN
            | DataType::FloatN
            | DataType::MoneyN
            | DataType::DateTimeN
            | DataType::Guid => {
                let len = byte(0);
                let ok = match data_type {
                    DataType::IntN => matches!(len, 1 | 2 | 4 | 8),
                    DataType::BitN => len == 1,
                    DataType::Guid => len == 16,
                    _ => matches!(len, 4 | 8),
                };
                if !ok {
                    return Err(invalid(0));
                }
                info.max_len = u32::from(len);
            }
            DataType::Decimal | DataType::Numeric | DataType::DecimalN | DataType::NumericN => {
                let (len, precision, scale) = (byte(0), byte(1), byte(2));
                if !(2..=17).contains(&len) {
                    return Err(invalid(0));
                }
                if !(1..=38).contains(&precision) {
                    return Err(invalid(1));
                }
                if scale > precision {
                    return Err(invalid(2));
                }
                info.max_len = u32::from(len);
                (info.precision, info.scale) = (precision, scale);
            }
            DataType::Time | DataType::DateTime2 | DataType::DateTimeOffset => {
                if byte(0) > 7 {
                    return Err(invalid(0));
                }
                info.scale = byte(0);
            }
            DataType::Char | DataType::VarChar | DataType::Binary | DataType::VarBinary => {
                info.max_len = u32::from(byte(0));
            }
            DataType::BigBinary | DataType::BigVarBinary | DataType::Udt => {
                info.max_len = u32::from(u16_at(0));
                if data_type == DataType::BigBinary && info.max_len == 0xFFFF {
                    return Err(invalid(0));
                }
            }
            DataType::BigChar | DataType::BigVarChar | DataType::NChar | DataType::NVarChar => {
                info.max_len = u32::from(u16_at(0));
                let is_max = info.max_len == 0xFFFF;
                let odd = !info.max_len.is_multiple_of(2);
                let fixed = matches!(data_type, DataType::BigChar | DataType::NChar);
                if (data_type.is_ucs2() && !is_max && odd) || (fixed && is_max) {
                    return Err(invalid(0));
                }
                info.collation = Some(collation(2));
            }
            DataType::Text | DataType::NText | DataType::Image | DataType::Variant => {
                info.max_len = u32::from_le_bytes([byte(0), byte(1), byte(2), byte(3)]);
                if data_type != DataType::Image && data_type != DataType::Variant {
                    info.collation = Some(collation(4));
                }
            }
            _ => {}
        }
        Ok(info)
    }
}

impl<'a> TypeInfo<'a> {
    /// Whether values of this type are sent as PLP: the MAX types, XML and UDT.
    pub const fn is_plp(&self) -> bool {
        match self.data_type {
            DataType::Xml | DataType::Udt => true,
            DataType::BigVarChar | DataType::BigVarBinary | DataType::NVarChar => {
                self.max_len == 0xFFFF
            }
            _ => false,
        }
    }

    /// Whether values may be large enough to stream: PLP types and
    /// TEXT, NTEXT and IMAGE.
    pub const fn is_large(&self) -> bool {
        self.is_plp()
            || matches!(
                self.data_type,
                DataType::Text | DataType::NText | DataType::Image
            )
    }

    /// The code page of CHAR/VARCHAR/TEXT values: the collation's, or
    /// CP1252 when the type carries no collation (the legacy types).
    pub const fn code_page(&self) -> CodePage {
        match self.collation {
            Some(collation) => collation.code_page(),
            None => CodePage::Windows(1252),
        }
    }

    pub(crate) const fn layout(&self) -> Layout {
        if self.is_plp() {
            return Layout::Plp;
        }
        match self.data_type {
            DataType::Null => Layout::AlwaysNull,
            DataType::BigChar
            | DataType::BigVarChar
            | DataType::NChar
            | DataType::NVarChar
            | DataType::BigBinary
            | DataType::BigVarBinary => Layout::UShort,
            DataType::Char | DataType::VarChar | DataType::Binary | DataType::VarBinary => {
                Layout::Byte { null: 0xFF }
            }
            DataType::Text | DataType::NText | DataType::Image => Layout::Text,
            DataType::Variant => Layout::Long,
            other => match other.fixed_len() {
                Some(n) => Layout::Fixed(n),
                None => Layout::Byte { null: 0 },
            },
        }
    }

    /// The lengths a non-NULL value of this type may have.
    pub(crate) const fn lengths(&self) -> Lengths {
        let time = time_len(self.scale);
        match self.data_type {
            DataType::IntN => Lengths::INTN,
            DataType::BitN => Lengths::exactly(1),
            DataType::FloatN | DataType::MoneyN | DataType::DateTimeN => Lengths::FOUR_OR_EIGHT,
            DataType::Guid => Lengths::exactly(16),
            DataType::Decimal | DataType::Numeric | DataType::DecimalN | DataType::NumericN => {
                Lengths::DECIMAL
            }
            DataType::Date => Lengths::exactly(3),
            DataType::Time => Lengths::exactly(time),
            DataType::DateTime2 => Lengths::exactly(time + 3),
            DataType::DateTimeOffset => Lengths::exactly(time + 5),
            DataType::Variant => Lengths::range(2, self.max_len as u64),
            t => match t.fixed_len() {
                Some(n) => Lengths::exactly(n),
                None if self.is_plp() => Lengths::range(0, u64::MAX),
                None => Lengths::range(0, self.max_len as u64),
            },
        }
    }

    /// Whether a non-NULL value of `len` bytes fits this type.
    pub(crate) const fn value_len_ok(&self, len: u64) -> bool {
        self.lengths().fits(len)
    }
}

impl fmt::Display for TypeInfo<'_> {
    /// The SQL Server type name: `int`, `nvarchar(50)`, `varbinary(max)`,
    /// `decimal(38,4)`, `datetime2(3)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sized = |f: &mut fmt::Formatter<'_>, name: &str, divisor: u32| {
            if self.max_len == 0xFFFF && self.is_plp() {
                write!(f, "{name}(max)")
            } else {
                write!(f, "{name}({})", self.max_len / divisor)
            }
        };
        let by_len = |f: &mut fmt::Formatter<'_>, short: &str, long: &str| {
            f.write_str(if self.max_len == 4 { short } else { long })
        };
        match self.data_type {
            DataType::Null => f.write_str("null"),
            DataType::TinyInt => f.write_str("tinyint"),
            DataType::Bit | DataType::BitN => f.write_str("bit"),
            DataType::SmallInt => f.write_str("smallint"),
            DataType::Int => f.write_str("int"),
            DataType::BigInt => f.write_str("bigint"),
            DataType::Real => f.write_str("real"),
            DataType::Float => f.write_str("float"),
            DataType::SmallMoney => f.write_str("smallmoney"),
            DataType::Money => f.write_str("money"),
            DataType::SmallDateTime => f.write_str("smalldatetime"),
            DataType::DateTime => f.write_str("datetime"),
            DataType::IntN => f.write_str(match self.max_len {
                1 => "tinyint",
                2 => "smallint",
                4 => "int",
                _ => "bigint",
            }),
            DataType::FloatN => by_len(f, "real", "float"),
            DataType::MoneyN => by_len(f, "smallmoney", "money"),
            DataType::DateTimeN => by_len(f, "smalldatetime", "datetime"),
            DataType::Guid => f.write_str("uniqueidentifier"),
            DataType::Decimal | DataType::DecimalN => {
                write!(f, "decimal({},{})", self.precision, self.scale)
            }
            DataType::Numeric | DataType::NumericN => {
                write!(f, "numeric({},{})", self.precision, self.scale)
            }
            DataType::Date => f.write_str("date"),
            DataType::Time => write!(f, "time({})", self.scale),
            DataType::DateTime2 => write!(f, "datetime2({})", self.scale),
            DataType::DateTimeOffset => write!(f, "datetimeoffset({})", self.scale),
            DataType::Char | DataType::BigChar => sized(f, "char", 1),
            DataType::VarChar | DataType::BigVarChar => sized(f, "varchar", 1),
            DataType::NChar => sized(f, "nchar", 2),
            DataType::NVarChar => sized(f, "nvarchar", 2),
            DataType::Binary | DataType::BigBinary => sized(f, "binary", 1),
            DataType::VarBinary | DataType::BigVarBinary => sized(f, "varbinary", 1),
            DataType::Text => f.write_str("text"),
            DataType::NText => f.write_str("ntext"),
            DataType::Image => f.write_str("image"),
            DataType::Xml => f.write_str("xml"),
            DataType::Udt => match self.names {
                Some(TypeNames::Udt { type_name, .. }) => write!(f, "{type_name}"),
                _ => f.write_str("udt"),
            },
            DataType::Variant => f.write_str("sql_variant"),
            DataType::Json => f.write_str("json"),
            DataType::Vector => f.write_str("vector"),
            DataType::Unknown(id) => write!(f, "type 0x{id:02X}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tds::TokenType;
    use std::string::ToString;

    const SITE: Site = Site::column(TokenType::ColMetadata, 0);

    fn parse(id: u8, bytes: &[u8]) -> Result<TypeInfo<'static>, (ErrorKind, usize)> {
        let data_type = DataType::from(id);
        assert_eq!(data_type.info_len(), Some(bytes.len() as u8), "0x{id:02x}");
        TypeInfo::parse_fixed(data_type, bytes, SITE)
    }

    #[test]
    fn sql_names() {
        let cases: [(u8, &[u8], &str); 10] = [
            (0x26, &[8], "bigint"),
            (0x6a, &[17, 38, 4], "decimal(38,4)"),
            (0x2a, &[3], "datetime2(3)"),
            (0xe7, &[0xff, 0xff, 9, 4, 0xd0, 0, 0x34], "nvarchar(max)"),
            (0xe7, &[100, 0, 9, 4, 0xd0, 0, 0x34], "nvarchar(50)"),
            (0xa5, &[16, 0], "varbinary(16)"),
            (0x6e, &[4], "smallmoney"),
            (0x28, &[], "date"),
            (0x23, &[0xff, 0xff, 0xff, 0x7f, 9, 4, 0xd0, 0, 0x34], "text"),
            (0x62, &[0x10, 0x1f, 0, 0], "sql_variant"),
        ];
        for (id, bytes, name) in cases {
            assert_eq!(parse(id, bytes).unwrap().to_string(), name);
        }
    }

    /// A SQL Server collation, `SQL_Latin1_General_CP1_CI_AS`.
    const LATIN1: [u8; 5] = [9, 4, 0xd0, 0, 0x34];

    /// The fixed part of a sized type: its little-endian length field, then
    /// [`LATIN1`] for the types that carry a collation.
    fn fixed_part(len: &[u8], collated: bool) -> std::vec::Vec<u8> {
        let mut bytes = len.to_vec();
        if collated {
            bytes.extend(LATIN1);
        }
        bytes
    }

    #[test]
    fn every_type_has_its_sql_name() {
        let fixed: [(u8, &str); 13] = [
            (0x1f, "null"),
            (0x30, "tinyint"),
            (0x32, "bit"),
            (0x34, "smallint"),
            (0x38, "int"),
            (0x7f, "bigint"),
            (0x3b, "real"),
            (0x3e, "float"),
            (0x7a, "smallmoney"),
            (0x3c, "money"),
            (0x3a, "smalldatetime"),
            (0x3d, "datetime"),
            (0x28, "date"),
        ];
        for (id, name) in fixed {
            assert_eq!(parse(id, &[]).unwrap().to_string(), name, "0x{id:02x}");
        }
        let by_len: [(u8, u8, &str); 13] = [
            (0x26, 1, "tinyint"),
            (0x26, 2, "smallint"),
            (0x26, 4, "int"),
            (0x26, 8, "bigint"),
            (0x68, 1, "bit"),
            (0x6d, 4, "real"),
            (0x6d, 8, "float"),
            (0x6e, 4, "smallmoney"),
            (0x6e, 8, "money"),
            (0x6f, 4, "smalldatetime"),
            (0x6f, 8, "datetime"),
            (0x24, 16, "uniqueidentifier"),
            (0x29, 7, "time(7)"),
        ];
        for (id, len, name) in by_len {
            assert_eq!(parse(id, &[len]).unwrap().to_string(), name, "0x{id:02x}");
        }
        assert_eq!(parse(0x2a, &[0]).unwrap().to_string(), "datetime2(0)");
        assert_eq!(parse(0x2b, &[5]).unwrap().to_string(), "datetimeoffset(5)");
        for (id, name) in [
            (0x37, "decimal"),
            (0x6a, "decimal"),
            (0x3f, "numeric"),
            (0x6c, "numeric"),
        ] {
            assert_eq!(
                parse(id, &[9, 18, 2]).unwrap().to_string(),
                std::format!("{name}(18,2)")
            );
        }
        for (id, name) in [
            (0x2f, "char(10)"),
            (0x27, "varchar(10)"),
            (0x2d, "binary(10)"),
            (0x25, "varbinary(10)"),
        ] {
            assert_eq!(parse(id, &[10]).unwrap().to_string(), name, "0x{id:02x}");
        }
        let sized_types: [(u8, bool, &str, &str); 6] = [
            (0xaf, true, "char(20)", ""),
            (0xa7, true, "varchar(20)", "varchar(max)"),
            (0xef, true, "nchar(10)", ""),
            (0xe7, true, "nvarchar(10)", "nvarchar(max)"),
            (0xad, false, "binary(20)", ""),
            (0xa5, false, "varbinary(20)", "varbinary(max)"),
        ];
        for (id, collated, name, max) in sized_types {
            let info = parse(id, &fixed_part(&20u16.to_le_bytes(), collated)).unwrap();
            assert_eq!(info.to_string(), name, "0x{id:02x}");
            assert_eq!(info.collation.is_some(), collated, "0x{id:02x}");
            if !max.is_empty() {
                assert_eq!(
                    parse(id, &fixed_part(&[0xff, 0xff], collated))
                        .unwrap()
                        .to_string(),
                    max
                );
            }
        }
        let long = |collated| fixed_part(&0x7fff_ffffu32.to_le_bytes(), collated);
        assert_eq!(parse(0x23, &long(true)).unwrap().to_string(), "text");
        assert_eq!(parse(0x63, &long(true)).unwrap().to_string(), "ntext");
        assert_eq!(parse(0x22, &long(false)).unwrap().to_string(), "image");
        // Only a PLP type is `max`: a hand-made char of 0xFFFF bytes is not.
        let wide_char = TypeInfo {
            max_len: 0xffff,
            ..TypeInfo::new(DataType::BigChar)
        };
        assert_eq!(wide_char.to_string(), "char(65535)");
        for (data_type, name) in [
            (DataType::Xml, "xml"),
            (DataType::Udt, "udt"),
            (DataType::Json, "json"),
            (DataType::Vector, "vector"),
            (DataType::Unknown(0x99), "type 0x99"),
        ] {
            assert_eq!(TypeInfo::new(data_type).to_string(), name);
        }
    }

    #[test]
    fn collations_go_where_the_type_carries_one() {
        let collation = Some(Collation::from_bytes(LATIN1));
        let text = parse(0x23, &fixed_part(&[0, 0, 0, 1], true)).unwrap();
        let image = parse(0x22, &[0, 0, 0, 1]).unwrap();
        let variant = parse(0x62, &[0x10, 0x1f, 0, 0]).unwrap();
        assert_eq!((text.collation, text.max_len), (collation, 0x0100_0000));
        assert_eq!((image.collation, variant.collation), (None, None));
        assert_eq!(variant.max_len, 0x1f10);
        // Legacy types carry no collation and read as CP1252.
        let legacy = parse(0x27, &[10]).unwrap();
        assert_eq!(legacy.code_page(), CodePage::Windows(1252));
        let utf8 = parse(0xa7, &[10, 0, 9, 4, 0, 4, 0]).unwrap();
        assert_eq!(utf8.code_page(), CodePage::Utf8);
    }

    #[test]
    fn plp_and_large_types() {
        let cases: [(u8, &[u8], bool, bool); 9] = [
            (0xa7, &[0xff, 0xff, 9, 4, 0xd0, 0, 0x34], true, true),
            (0xa7, &[0xfe, 0xff, 9, 4, 0xd0, 0, 0x34], false, false),
            (0xe7, &[0xff, 0xff, 9, 4, 0xd0, 0, 0x34], true, true),
            (0xa5, &[0xff, 0xff], true, true),
            (0xf0, &[0xff, 0xff], true, true),
            (0x23, &[0, 0, 0, 1, 9, 4, 0xd0, 0, 0x34], false, true),
            (0x63, &[0, 0, 0, 1, 9, 4, 0xd0, 0, 0x34], false, true),
            (0x22, &[0, 0, 0, 1], false, true),
            (0x62, &[0, 0, 0, 1], false, false),
        ];
        for (id, bytes, plp, large) in cases {
            let info = parse(id, bytes).unwrap();
            assert_eq!((info.is_plp(), info.is_large()), (plp, large), "0x{id:02x}");
        }
        assert!(TypeInfo::new(DataType::Xml).is_plp());
        assert!(!TypeInfo::new(DataType::Int).is_large());
    }

    #[test]
    fn impossible_type_infos() {
        let bad = ErrorKind::InvalidTypeInfo(SITE);
        assert_eq!(parse(0x26, &[3]), Err((bad, 0)));
        assert_eq!(parse(0x6a, &[17, 39, 0]), Err((bad, 1)));
        assert_eq!(parse(0x6a, &[17, 10, 11]), Err((bad, 2)));
        assert_eq!(parse(0x29, &[8]), Err((bad, 0)));
        assert_eq!(parse(0xe7, &[3, 0, 0, 0, 0, 0, 0]), Err((bad, 0)));
        // Each length, precision and scale just past what the type allows.
        for (id, bytes, at) in [
            (0x68, &[2][..], 0),
            (0x68, &[0], 0),
            (0x24, &[15], 0),
            (0x6d, &[2], 0),
            (0x6e, &[16], 0),
            (0x6f, &[0], 0),
            (0x6a, &[1, 10, 0], 0),
            (0x6a, &[18, 10, 0], 0),
            (0x6a, &[17, 0, 0], 1),
            (0x3f, &[17, 39, 0], 1),
            (0x2a, &[8], 0),
            (0x2b, &[0xff], 0),
            (0xad, &[0xff, 0xff], 0),
            (0xaf, &[0xff, 0xff, 0, 0, 0, 0, 0], 0),
            (0xef, &[0xff, 0xff, 0, 0, 0, 0, 0], 0),
            (0xef, &[5, 0, 0, 0, 0, 0, 0], 0),
        ] {
            assert_eq!(parse(id, bytes), Err((bad, at)), "0x{id:02x} {bytes:?}");
        }
        // And just inside.
        for (id, bytes) in [
            (0x68, &[1][..]),
            (0x24, &[16]),
            (0x6a, &[2, 1, 1]),
            (0x6a, &[17, 38, 38]),
            (0x2a, &[7]),
            (0xa5, &[0xff, 0xff]),
            (0xa7, &[5, 0, 0, 0, 0, 0, 0]),
            (0xe7, &[0xff, 0xff, 0, 0, 0, 0, 0]),
        ] {
            assert!(parse(id, bytes).is_ok(), "0x{id:02x} {bytes:?}");
        }
        assert_eq!(
            TypeInfo::parse_fixed(DataType::from(0x99), &[], SITE),
            Err((ErrorKind::UnknownDataType(SITE, 0x99), 0))
        );
        assert_eq!(
            TypeInfo::parse_fixed(DataType::Json, &[], SITE),
            Err((ErrorKind::Unsupported(SITE), 0))
        );
    }

    /// The lengths a value may have, as [MS-TDS 2.2.5.4] states them.
    fn spec_len_ok(ti: &TypeInfo<'_>, len: u64) -> bool {
        let time = u64::from(time_len(ti.scale));
        match ti.data_type {
            DataType::IntN => matches!(len, 1 | 2 | 4 | 8),
            DataType::BitN => len == 1,
            DataType::FloatN | DataType::MoneyN | DataType::DateTimeN => matches!(len, 4 | 8),
            DataType::Guid => len == 16,
            DataType::Decimal | DataType::Numeric | DataType::DecimalN | DataType::NumericN => {
                (2..=17).contains(&len)
            }
            DataType::Date => len == 3,
            DataType::Time => len == time,
            DataType::DateTime2 => len == time + 3,
            DataType::DateTimeOffset => len == time + 5,
            DataType::Variant => len >= 2 && len <= u64::from(ti.max_len),
            t if t.fixed_len().is_some() => Some(len) == t.fixed_len().map(u64::from),
            _ if ti.is_plp() => true,
            _ => len <= u64::from(ti.max_len),
        }
    }

    #[test]
    fn value_lengths() {
        for ti in every_type_info() {
            let max_len = ti.max_len;
            let edges = [max_len - max_len.min(1), max_len, max_len.saturating_add(1)];
            let lens = (0..300).chain(edges).map(u64::from);
            for len in lens.chain([0xFFFF, u64::from(u32::MAX) + 1, u64::MAX]) {
                assert_eq!(ti.value_len_ok(len), spec_len_ok(&ti, len), "{ti:?}, {len}");
            }
        }
    }

    #[test]
    fn layouts() {
        assert_eq!(parse(0x38, &[]).unwrap().layout(), Layout::Fixed(4));
        assert_eq!(parse(0x30, &[]).unwrap().layout(), Layout::Fixed(1));
        assert_eq!(parse(0x3d, &[]).unwrap().layout(), Layout::Fixed(8));
        assert_eq!(parse(0x34, &[]).unwrap().layout(), Layout::Fixed(2));
        for id in [0x2f, 0x27, 0x2d, 0x25] {
            let layout = parse(id, &[10]).unwrap().layout();
            assert_eq!(layout, Layout::Byte { null: 0xff }, "0x{id:02x}");
        }
        for (id, collated) in [(0xaf, true), (0xef, true), (0xa7, true), (0xad, false)] {
            let layout = parse(id, &fixed_part(&10u16.to_le_bytes(), collated))
                .unwrap()
                .layout();
            assert_eq!(layout, Layout::UShort, "0x{id:02x}");
        }
        assert_eq!(parse(0x62, &[0, 1, 0, 0]).unwrap().layout(), Layout::Long);
        assert_eq!(
            parse(0x2a, &[7]).unwrap().layout(),
            Layout::Byte { null: 0 }
        );
        let ntext = fixed_part(&[0, 0, 0, 1], true);
        assert_eq!(parse(0x63, &ntext).unwrap().layout(), Layout::Text);
        assert_eq!(
            parse(0x26, &[4]).unwrap().layout(),
            Layout::Byte { null: 0 }
        );
        assert_eq!(parse(0xa5, &[0xff, 0xff]).unwrap().layout(), Layout::Plp);
        assert_eq!(parse(0xa5, &[10, 0]).unwrap().layout(), Layout::UShort);
        assert_eq!(parse(0x22, &[0, 0, 0, 1]).unwrap().layout(), Layout::Text);
        assert_eq!(parse(0x1f, &[]).unwrap().layout(), Layout::AlwaysNull);
    }

    #[test]
    fn length_prefixes_and_their_nulls() {
        let prefixed = [
            (Layout::Byte { null: 0xff }, 1, 0xff),
            (Layout::Byte { null: 0 }, 1, 0),
            (Layout::UShort, 2, 0xffff),
            (Layout::Long, 4, 0),
            (Layout::Text, 1, 0),
        ];
        for (layout, width, null) in prefixed {
            assert_eq!(layout.prefix_width(), Some(width), "{layout:?}");
            assert!(layout.is_null_prefix(null), "{layout:?}");
            assert!(!layout.is_null_prefix(null ^ 1), "{layout:?}");
        }
        for layout in [Layout::Fixed(4), Layout::Plp, Layout::AlwaysNull] {
            assert_eq!(layout.prefix_width(), None, "{layout:?}");
            assert!(!layout.is_null_prefix(0) && !layout.is_null_prefix(0xffff));
        }
    }

    #[test]
    fn collation_code_pages() {
        // tedious's colmetadata vector: SQL_Latin1_General_CP1257_CI_AS.
        let c = Collation::from_bytes([0x09, 0x04, 0x50, 0x78, 0x9a]);
        assert_eq!((c.lcid(), c.sort_id, c.version()), (1033, 154, 7));
        assert_eq!(c.code_page(), CodePage::Windows(1257));
        let utf8 = Collation::from_bytes([0x09, 0x04, 0x00, 0x04, 0x00]);
        assert_eq!(utf8.code_page(), CodePage::Utf8);
        let japanese = Collation::from_bytes([0x11, 0x04, 0, 0, 0]);
        assert_eq!(japanese.code_page(), CodePage::Windows(932));
        assert_eq!(
            Collation::from_bytes([0x99, 0x99, 0, 0, 0]).code_page(),
            CodePage::Unknown
        );
    }
}
