//! TDS, the SQL Server wire protocol: packets and the server's token
//! stream [MS-TDS], read without touching the heap.
//!
//! # The vocabulary
//! - [`PacketHeader`] is the 8-byte packet header as a value (`split`,
//!   `emit`); [`Deframer`] takes a server-to-client byte stream in chunks of
//!   any size and hands out each packet's payload as zero-copy
//!   [`Payload`] pieces, marking where messages end (EOM);
//!   [`WholePackets`] hands out each payload whole, joining a packet split
//!   across chunks in the caller's buffer.
//! - [`Reader`] is a sans-IO state machine over the token stream (the
//!   payloads, joined). Fed chunks of any size, it yields [`Event`]s:
//!   whole [`Token`]s (DONE, ENVCHANGE, INFO, LOGINACK, COLMETADATA, ...),
//!   and rows as [`Event::RowStart`], one [`Event::Value`] per column and
//!   [`Event::RowEnd`]. Running out of input is a [`Status::Partial`],
//!   never an error; the reader keeps partial fields in fixed scratch space
//!   and a named [`ReaderState`], and never re-parses.
//! - [`Metadata`] holds a result set's [`Column`]s in the caller's
//!   `bumpalo` arena. After COLMETADATA, rows allocate nothing. The reader
//!   says when a COLMETADATA with new columns begins
//!   ([`Event::ColMetadataStart`]), which is when a caller of many result
//!   sets resets the arena; `OwnedMetadata` (feature `alloc`) is
//!   metadata with an arena of its own that does so.
//! - [`Value`] is a lazy view of one value: its [`TypeInfo`] and bytes,
//!   borrowed from the chunk when they lay in one piece there, else from the
//!   caller's row buffer. [`SqlValue`] is what it decodes to; both print
//!   every SQL Server type in one fixed form. Large values (MAX types, TEXT)
//!   can instead be streamed ([`LargeValues::Stream`]).
//! - Each token has its own type and file ([`Done`], [`EnvChange`],
//!   [`Message`] for ERROR and INFO, [`LoginAck`], ...), and each registry
//!   ([`TokenType`], [`DataType`], [`PacketType`], [`EnvChangeType`],
//!   [`FeatureId`]) keeps unknown code points.
//! - Errors are one small `Copy` type, [`Error`]: an [`ErrorKind`] naming
//!   the token and column ([`Site`]), and the byte offset in the stream.
//!
//! # Reading a response
//!
//! ```
//! use leanwire_core::bumpalo::Bump;
//! use leanwire_core::tds::{Deframer, Event, Metadata, Reader, Status, TdsVersion};
//!
//! // One packet: COLMETADATA (nvarchar(10) "n"), a ROW with "hi", DONE.
//! let payload = [
//!     0x81, 1, 0, 0, 0, 0, 0, 1, 0, 0xe7, 20, 0, 9, 4, 0xd0, 0, 0x34, 1, b'n', 0,
//!     0xd1, 4, 0, b'h', 0, b'i', 0,
//!     0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
//! ];
//! let mut packet = vec![0x04, 0x01, 0, (8 + payload.len()) as u8, 0, 0, 1, 0];
//! packet.extend_from_slice(&payload);
//!
//! let bump = Bump::new();
//! let mut meta = Metadata::new(&bump);
//! let mut reader = Reader::new(TdsVersion::V7_4);
//! let mut deframer = Deframer::new();
//! let mut row_buf = [0u8; 8192];
//! let mut seen = Vec::new();
//! let mut input = &packet[..];
//! while let Status::Complete(piece) = deframer.next(&mut input)? {
//!     let mut bytes = piece.bytes;
//!     while let Status::Complete(event) = reader.next(&mut bytes, &mut meta, &mut row_buf)? {
//!         if let Event::Value { value, .. } = event {
//!             seen.push(value.to_string());
//!         }
//!     }
//!     if piece.message_end {
//!         reader.finish()?;
//!     }
//! }
//! assert_eq!(seen, ["hi"]);
//! # Ok::<(), leanwire_core::tds::Error>(())
//! ```

mod bytes;
mod code;
mod codepage;
mod colmetadata;
mod deframe;
mod done;
mod envchange;
mod error;
mod error_info;
mod featureextack;
mod fedauthinfo;
mod loginack;
mod numeric;
mod order;
#[cfg(feature = "alloc")]
mod owned;
mod packet;
mod reader;
mod returnstatus;
mod returnvalue;
mod row;
mod sessionstate;
mod sspi;
mod status;
mod temporal;
mod token;
mod type_info;
mod ucs2;
mod value;
mod version;
mod whole_packets;

pub use codepage::CodePage;
pub use colmetadata::{ColMetadata, Column, ColumnFlags};
pub use deframe::{Deframer, Payload};
pub use done::{Done, DoneKind, DoneStatus};
pub use envchange::{EnvChange, EnvChangeType, EnvValue, UpperName};
pub use error::{Error, ErrorKind, Result, Site};
pub use error_info::Message;
pub use featureextack::{FeatureAck, FeatureExtAck, FeatureId};
pub use fedauthinfo::{FedAuthInfo, FedAuthInfoId, FedAuthOption};
pub use loginack::LoginAck;
pub use numeric::{Decimal, Money};
pub use order::Order;
#[cfg(feature = "alloc")]
pub use owned::OwnedMetadata;
pub use packet::{HEADER_LEN, MAX_PACKET_LEN, PacketHeader, PacketStatus, PacketType};
pub use reader::{
    DEFAULT_ARENA_LIMIT, Event, GATHERED_ROW_LEN, INLINE_VALUE_LEN, LargeValues, MAX_COLUMNS,
    MetaPart, Metadata, Reader, ReaderState, RowSources, RowValues, Token, ValuePart, ValueSource,
    WholeRow,
};
pub use returnstatus::ReturnStatus;
pub use returnvalue::ReturnValue;
pub use row::RowKind;
pub use sessionstate::{SessionState, SessionStateEntry};
pub use sspi::Sspi;
pub use status::Status;
pub use temporal::{Date, DateTime, DateTime2, DateTimeOffset, SmallDateTime, Time};
pub use token::TokenType;
pub use type_info::{Collation, DataType, TypeInfo, TypeNames};
pub use ucs2::Ucs2Str;
pub use value::{AnsiText, Guid, SqlValue, Value};
pub use version::TdsVersion;
pub use whole_packets::WholePackets;
