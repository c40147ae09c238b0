//! Where a reader is, by name: for errors, and for callers that watch it
//! resume.

use core::fmt;

use crate::tds::token::TokenType;

#[cfg(doc)]
use super::{Event, Reader};

/// Where a [`Reader`] is, by name, with the token and column it is inside.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ReaderState {
    /// Between tokens.
    TokenStart,
    /// Reading a token's length field.
    TokenLength {
        /// The token.
        token: TokenType,
    },
    /// Collecting a token's body: `have` of `len` bytes.
    TokenBody {
        /// The token.
        token: TokenType,
        /// Bytes collected.
        have: u32,
        /// Bytes in all.
        len: u32,
    },
    /// Walking FEATUREEXTACK's entries.
    FeatureExtAck,
    /// Inside COLMETADATA, or a RETURNVALUE's header.
    Metadata {
        /// COLMETADATA or RETURNVALUE.
        token: TokenType,
        /// The column being described.
        column: u16,
        /// The field being read.
        part: MetaPart,
    },
    /// Reading an NBCROW's null bitmap: `have` bytes so far.
    NullBitmap {
        /// Bytes read.
        have: u16,
    },
    /// Inside a value.
    Value {
        /// ROW, NBCROW or RETURNVALUE.
        token: TokenType,
        /// The column.
        column: u16,
        /// The part of the value being read.
        part: ValuePart,
    },
    /// A row is complete; [`Event::RowEnd`] comes next.
    RowEnd,
    /// An error stopped the reader.
    Failed,
}

/// A field of a column description (COLMETADATA) or a RETURNVALUE header.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum MetaPart {
    /// COLMETADATA's column count.
    ColumnCount,
    /// RETURNVALUE's parameter ordinal.
    ParamOrdinal,
    /// RETURNVALUE's status byte.
    ParamStatus,
    /// UserType.
    UserType,
    /// Flags.
    Flags,
    /// The TYPE_INFO type byte.
    TypeId,
    /// The rest of the fixed TYPE_INFO (lengths, precision, collation).
    TypeInfo,
    /// XML's schema-present byte.
    XmlSchemaPresent,
    /// A text table name's part count.
    TableNameParts,
    /// A name's character count.
    NameLength,
    /// A name's characters.
    Name,
}

/// A part of a value in a row.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ValuePart {
    /// Before the value.
    Start,
    /// Its length prefix.
    Length,
    /// A TEXT/NTEXT/IMAGE text pointer and timestamp.
    TextPointer,
    /// Its data: `left` bytes to go.
    Data {
        /// Bytes to go.
        left: u32,
    },
    /// A PLP value's total length.
    PlpTotal,
    /// A PLP chunk's length.
    PlpChunkLength,
    /// A PLP chunk's data: `left` bytes to go in this chunk.
    PlpChunk {
        /// Bytes to go in the chunk.
        left: u32,
    },
}

impl fmt::Display for MetaPart {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MetaPart::ColumnCount => "the column count",
            MetaPart::ParamOrdinal => "the parameter ordinal",
            MetaPart::ParamStatus => "the parameter status",
            MetaPart::UserType => "UserType",
            MetaPart::Flags => "Flags",
            MetaPart::TypeId => "the TYPE_INFO type",
            MetaPart::TypeInfo => "TYPE_INFO",
            MetaPart::XmlSchemaPresent => "the XML schema flag",
            MetaPart::TableNameParts => "the table name's part count",
            MetaPart::NameLength => "a name's length",
            MetaPart::Name => "a name",
        })
    }
}

impl fmt::Display for ValuePart {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ValuePart::Start => f.write_str("the start"),
            ValuePart::Length => f.write_str("the length"),
            ValuePart::TextPointer => f.write_str("the text pointer"),
            ValuePart::Data { left } => write!(f, "the data ({left} bytes to go)"),
            ValuePart::PlpTotal => f.write_str("the PLP total length"),
            ValuePart::PlpChunkLength => f.write_str("a PLP chunk length"),
            ValuePart::PlpChunk { left } => write!(f, "a PLP chunk ({left} bytes to go)"),
        }
    }
}

impl fmt::Display for ReaderState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReaderState::TokenStart => f.write_str("at a token boundary"),
            ReaderState::TokenLength { token } => write!(f, "in {token}, reading its length"),
            ReaderState::TokenBody { token, have, len } => {
                write!(f, "in {token}, {have} of {len} body bytes")
            }
            ReaderState::FeatureExtAck => f.write_str("in FEATUREEXTACK, walking its entries"),
            ReaderState::Metadata {
                token,
                column,
                part,
            } => write!(f, "in {token} column {column}, reading {part}"),
            ReaderState::NullBitmap { have } => {
                write!(f, "in NBCROW, {have} bytes of the null bitmap")
            }
            ReaderState::Value {
                token,
                column,
                part,
            } => write!(f, "in {token} column {column}, reading {part}"),
            ReaderState::RowEnd => f.write_str("at the end of a row"),
            ReaderState::Failed => f.write_str("stopped by an error"),
        }
    }
}
