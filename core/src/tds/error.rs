use core::fmt;

use super::token::TokenType;

/// Where in a token stream a defect was found: the token, and, inside a
/// ROW or NBCROW, the column (0-based, in COLMETADATA order).
///
/// Small and `Copy`, so it rides inside [`ErrorKind`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Site {
    /// The token being read.
    pub token: TokenType,
    /// The column being read, for ROW and NBCROW; the COLMETADATA entry for
    /// COLMETADATA.
    pub column: Option<u16>,
}

impl Site {
    /// A defect in `token`, outside any column.
    pub const fn token(token: TokenType) -> Site {
        Site {
            token,
            column: None,
        }
    }

    /// A defect in column `column` of `token`.
    pub const fn column(token: TokenType, column: u16) -> Site {
        Site {
            token,
            column: Some(column),
        }
    }
}

impl fmt::Display for Site {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.column {
            Some(column) => write!(f, "{} column {column}", self.token),
            None => write!(f, "{}", self.token),
        }
    }
}

/// What was wrong with a TDS packet or token stream.
///
/// Defects inside a token carry a [`Site`] naming the token and, for rows,
/// the column. Running out of input is never an error: the reader returns
/// [`Status::Partial`](super::Status::Partial) and resumes when fed more.
/// Only [`Reader::finish`](super::Reader::finish), the caller's word that
/// the stream ended, turns an unfinished token into
/// [`ErrorKind::UnexpectedEof`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// Fewer than 8 bytes where a packet header was expected [MS-TDS 2.2.3.1].
    ShortHeader,
    /// A packet length below 8 (the header alone) or above 32768 [MS-TDS 2.2.3.1.3].
    BadPacketLength(u16),
    /// The stream ended in the middle of a packet.
    TruncatedPacket,
    /// A token byte that is no TDS token.
    UnknownToken(u8),
    /// A token leanwire does not decode (DATACLASSIFICATION, ALTMETADATA, ALTROW).
    UnsupportedToken(TokenType),
    /// The stream ended inside a token.
    UnexpectedEof(Site),
    /// A length larger than its limit: a value longer than its column's
    /// maximum, a count past its table, an offset outside its token.
    LengthOverflow(Site),
    /// A token's length field disagrees with the fields inside it.
    LengthMismatch(Site),
    /// A PLP value whose chunks do not add up to its announced total.
    PlpLengthMismatch(Site),
    /// A COLMETADATA token announcing more than 4096 columns.
    TooManyColumns(u16),
    /// A TYPE_INFO whose type byte is no TDS data type.
    UnknownDataType(Site, u8),
    /// A data type leanwire does not decode (JSON, VECTOR) or a feature it
    /// does not support (column encryption).
    Unsupported(Site),
    /// A TYPE_INFO with an impossible length, precision or scale.
    InvalidTypeInfo(Site),
    /// A value whose length or bytes do not fit its type.
    InvalidValue(Site),
    /// UCS-2 text with an odd byte count or an unpaired surrogate.
    InvalidUcs2(Site),
    /// A row without column metadata: no COLMETADATA came first, or the
    /// caller passed a different [`Metadata`](super::Metadata) than the one
    /// the reader filled.
    NoMetadata(Site),
    /// A value or token split across chunks is larger than the caller's buffer.
    BufferTooSmall(Site),
    /// The caller's arena refused an allocation (its allocation limit).
    ArenaFull(Site),
    /// LOGINACK names a TDS version leanwire does not read.
    UnsupportedVersion(u32),
}

impl ErrorKind {
    /// The variant's name, such as `UnknownToken`: a stable identifier for
    /// programs and for other languages' bindings.
    pub const fn name(self) -> &'static str {
        match self {
            ErrorKind::ShortHeader => "ShortHeader",
            ErrorKind::BadPacketLength(_) => "BadPacketLength",
            ErrorKind::TruncatedPacket => "TruncatedPacket",
            ErrorKind::UnknownToken(_) => "UnknownToken",
            ErrorKind::UnsupportedToken(_) => "UnsupportedToken",
            ErrorKind::UnexpectedEof(_) => "UnexpectedEof",
            ErrorKind::LengthOverflow(_) => "LengthOverflow",
            ErrorKind::LengthMismatch(_) => "LengthMismatch",
            ErrorKind::PlpLengthMismatch(_) => "PlpLengthMismatch",
            ErrorKind::TooManyColumns(_) => "TooManyColumns",
            ErrorKind::UnknownDataType(..) => "UnknownDataType",
            ErrorKind::Unsupported(_) => "Unsupported",
            ErrorKind::InvalidTypeInfo(_) => "InvalidTypeInfo",
            ErrorKind::InvalidValue(_) => "InvalidValue",
            ErrorKind::InvalidUcs2(_) => "InvalidUcs2",
            ErrorKind::NoMetadata(_) => "NoMetadata",
            ErrorKind::BufferTooSmall(_) => "BufferTooSmall",
            ErrorKind::ArenaFull(_) => "ArenaFull",
            ErrorKind::UnsupportedVersion(_) => "UnsupportedVersion",
        }
    }

    /// A fixed description of the defect, without its site.
    pub const fn description(self) -> &'static str {
        match self {
            ErrorKind::ShortHeader => "packet header shorter than 8 bytes",
            ErrorKind::BadPacketLength(_) => "packet length outside 8..=32768",
            ErrorKind::TruncatedPacket => "stream ends inside a packet",
            ErrorKind::UnknownToken(_) => "unknown token",
            ErrorKind::UnsupportedToken(_) => "token not supported",
            ErrorKind::UnexpectedEof(_) => "stream ends inside a token",
            ErrorKind::LengthOverflow(_) => "length out of bounds",
            ErrorKind::LengthMismatch(_) => "token length disagrees with its contents",
            ErrorKind::PlpLengthMismatch(_) => "PLP chunks disagree with the PLP total",
            ErrorKind::TooManyColumns(_) => "more than 4096 columns",
            ErrorKind::UnknownDataType(..) => "unknown data type",
            ErrorKind::Unsupported(_) => "not supported",
            ErrorKind::InvalidTypeInfo(_) => "invalid TYPE_INFO",
            ErrorKind::InvalidValue(_) => "invalid value",
            ErrorKind::InvalidUcs2(_) => "invalid UCS-2",
            ErrorKind::NoMetadata(_) => "row without column metadata",
            ErrorKind::BufferTooSmall(_) => "split value larger than the row buffer",
            ErrorKind::ArenaFull(_) => "arena allocation limit reached",
            ErrorKind::UnsupportedVersion(_) => "unsupported TDS version",
        }
    }

    /// The token (and column) where the defect was found, if it was inside one.
    pub const fn site(self) -> Option<Site> {
        match self {
            ErrorKind::UnexpectedEof(site)
            | ErrorKind::LengthOverflow(site)
            | ErrorKind::LengthMismatch(site)
            | ErrorKind::PlpLengthMismatch(site)
            | ErrorKind::UnknownDataType(site, _)
            | ErrorKind::Unsupported(site)
            | ErrorKind::InvalidTypeInfo(site)
            | ErrorKind::InvalidValue(site)
            | ErrorKind::InvalidUcs2(site)
            | ErrorKind::NoMetadata(site)
            | ErrorKind::BufferTooSmall(site)
            | ErrorKind::ArenaFull(site) => Some(site),
            ErrorKind::UnsupportedToken(token) => Some(Site::token(token)),
            ErrorKind::TooManyColumns(_) => Some(Site::token(TokenType::ColMetadata)),
            ErrorKind::ShortHeader
            | ErrorKind::BadPacketLength(_)
            | ErrorKind::TruncatedPacket
            | ErrorKind::UnknownToken(_)
            | ErrorKind::UnsupportedVersion(_) => None,
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.description())?;
        match *self {
            ErrorKind::BadPacketLength(len) => write!(f, " ({len})"),
            ErrorKind::UnknownToken(byte) => write!(f, " 0x{byte:02X}"),
            ErrorKind::UnsupportedToken(token) => write!(f, " {token}"),
            ErrorKind::TooManyColumns(count) => write!(f, " ({count})"),
            ErrorKind::UnknownDataType(site, id) => write!(f, " 0x{id:02X} in {site}"),
            ErrorKind::UnsupportedVersion(version) => write!(f, " 0x{version:08X}"),
            other => match other.site() {
                Some(site) => write!(f, " in {site}"),
                None => Ok(()),
            },
        }
    }
}

/// An error from the TDS codec: what was wrong ([`ErrorKind`], with the
/// token and column) and the byte offset where it was found, counted from
/// the first byte ever fed to the reader or de-framer.
///
/// ```
/// use leanwire_core::bumpalo::Bump;
/// use leanwire_core::tds::{ErrorKind, Metadata, Reader, TdsVersion};
///
/// let bump = Bump::new();
/// let mut meta = Metadata::new(&bump);
/// let mut reader = Reader::new(TdsVersion::V7_4);
/// let mut input: &[u8] = &[0x79, 0, 0, 0, 0, 0x12];
/// reader.next(&mut input, &mut meta, &mut []).unwrap(); // RETURNSTATUS 0
/// let err = reader.next(&mut input, &mut meta, &mut []).unwrap_err();
/// assert_eq!((err.kind(), err.offset()), (ErrorKind::UnknownToken(0x12), 5));
/// assert_eq!(err.to_string(), "unknown token 0x12 at byte 5");
/// ```
pub type Error = crate::error::Error<ErrorKind>;

/// Shorthand for the codec's results.
pub type Result<T> = core::result::Result<T, Error>;

/// An error at a stream offset kept as `u64`, clamped into `usize`.
pub(crate) fn error_at(kind: ErrorKind, offset: u64) -> Error {
    Error::new(kind, usize::try_from(offset).unwrap_or(usize::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::ToString;

    #[test]
    fn errors_name_token_and_column() {
        let kind = ErrorKind::InvalidUcs2(Site::column(TokenType::Row, 3));
        assert_eq!(kind.to_string(), "invalid UCS-2 in ROW column 3");
        assert_eq!(kind.site(), Some(Site::column(TokenType::Row, 3)));
        let kind = ErrorKind::UnknownDataType(Site::column(TokenType::ColMetadata, 0), 0x99);
        assert_eq!(
            kind.to_string(),
            "unknown data type 0x99 in COLMETADATA column 0"
        );
        assert!(core::mem::size_of::<Error>() <= 24);
    }
}
