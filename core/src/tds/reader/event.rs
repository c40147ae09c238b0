//! What the reader hands out: events, the tokens inside them, and where a
//! value's bytes lie.

use core::fmt;

use crate::tds::colmetadata::ColMetadata;
use crate::tds::done::Done;
use crate::tds::envchange::EnvChange;
use crate::tds::error_info::Message;
use crate::tds::featureextack::FeatureExtAck;
use crate::tds::fedauthinfo::FedAuthInfo;
use crate::tds::loginack::LoginAck;
use crate::tds::order::Order;
use crate::tds::returnstatus::ReturnStatus;
use crate::tds::returnvalue::ReturnValue;
use crate::tds::row::RowKind;
use crate::tds::sessionstate::SessionState;
use crate::tds::sspi::Sspi;
use crate::tds::token::TokenType;
use crate::tds::type_info::TypeInfo;
use crate::tds::value::Value;

#[cfg(doc)]
use super::{GATHERED_ROW_LEN, INLINE_VALUE_LEN, LargeValues, Metadata, Reader};

/// A token, decoded: everything but the row data, which comes as
/// [`Event::RowStart`], values and [`Event::RowEnd`].
#[derive(Copy, Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Token<'e> {
    /// COLMETADATA: a result set's columns, now in the caller's
    /// [`Metadata`].
    ColMetadata(ColMetadata<'e>),
    /// DONE, DONEPROC or DONEINPROC.
    Done(Done),
    /// ERROR.
    Error(Message<'e>),
    /// INFO.
    Info(Message<'e>),
    /// ENVCHANGE.
    EnvChange(EnvChange<'e>),
    /// LOGINACK. The reader now reads the version it names.
    LoginAck(LoginAck<'e>),
    /// RETURNSTATUS.
    ReturnStatus(ReturnStatus),
    /// RETURNVALUE's header. Its value follows as one value event (or a
    /// streamed value) with column 0.
    ReturnValue(ReturnValue<'e>),
    /// ORDER.
    Order(Order<'e>),
    /// FEATUREEXTACK.
    FeatureExtAck(FeatureExtAck<'e>),
    /// SSPI.
    Sspi(Sspi<'e>),
    /// FEDAUTHINFO.
    FedAuthInfo(FedAuthInfo<'e>),
    /// SESSIONSTATE.
    SessionState(SessionState<'e>),
    /// A length-prefixed token that leanwire passes on undecoded
    /// (TABNAME, COLINFO): its body.
    Raw {
        /// Which token.
        token: TokenType,
        /// Its body, after the length field.
        data: &'e [u8],
    },
}

impl Token<'_> {
    /// The token's type: the byte that started it.
    pub const fn token_type(&self) -> TokenType {
        match self {
            Token::ColMetadata(_) => TokenType::ColMetadata,
            Token::Done(done) => done.kind.token(),
            Token::Error(_) => TokenType::Error,
            Token::Info(_) => TokenType::Info,
            Token::EnvChange(_) => TokenType::EnvChange,
            Token::LoginAck(_) => TokenType::LoginAck,
            Token::ReturnStatus(_) => TokenType::ReturnStatus,
            Token::ReturnValue(_) => TokenType::ReturnValue,
            Token::Order(_) => TokenType::Order,
            Token::FeatureExtAck(_) => TokenType::FeatureExtAck,
            Token::Sspi(_) => TokenType::Sspi,
            Token::FedAuthInfo(_) => TokenType::FedAuthInfo,
            Token::SessionState(_) => TokenType::SessionState,
            Token::Raw { token, .. } => *token,
        }
    }
}

impl fmt::Display for Token<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Token::ColMetadata(meta) => write!(f, "COLMETADATA {meta}"),
            Token::Done(done) => write!(f, "{done}"),
            Token::Error(message) => write!(f, "ERROR {message}"),
            Token::Info(message) => write!(f, "INFO {message}"),
            Token::EnvChange(change) => write!(f, "ENVCHANGE {change}"),
            Token::LoginAck(ack) => write!(f, "LOGINACK {ack}"),
            Token::ReturnStatus(status) => write!(f, "RETURNSTATUS {}", status.0),
            Token::ReturnValue(rv) => write!(f, "RETURNVALUE {rv}"),
            Token::Order(order) => write!(f, "ORDER {order}"),
            Token::FeatureExtAck(ack) => write!(f, "FEATUREEXTACK {ack}"),
            Token::Sspi(sspi) => {
                f.write_str("SSPI ")?;
                crate::tds::value::write_hex(f, sspi.data)
            }
            Token::FedAuthInfo(info) => {
                f.write_str("FEDAUTHINFO")?;
                for option in info.options() {
                    write!(f, " {}=", option.id)?;
                    crate::tds::value::write_hex(f, option.data)?;
                }
                Ok(())
            }
            Token::SessionState(state) => write!(
                f,
                "SESSIONSTATE seq={} status={} entries={}",
                state.seq_no,
                state.status,
                state.entries().count()
            ),
            Token::Raw { token, data } => {
                write!(f, "{token} ")?;
                crate::tds::value::write_hex(f, data)
            }
        }
    }
}

/// What the reader read.
///
/// Events borrow the chunk being fed, the caller's [`Metadata`] and row
/// buffer, and the reader's scratch space; drop an event before the next
/// call to [`Reader::next`].
#[derive(Copy, Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Event<'e> {
    /// A COLMETADATA that brings new columns begins: its count was read,
    /// and its columns come next, ending in
    /// [`Token::ColMetadata`]. A COLMETADATA with "no metadata" (count
    /// 0xFFFF) keeps the last columns and has no start.
    ///
    /// From here on the reader reads nothing by the last result set's
    /// columns: this is where a caller of many result sets resets its
    /// arena (see [`Metadata`]). The new columns go into whichever
    /// `Metadata` the next call gets.
    ColMetadataStart {
        /// The columns announced.
        columns: u16,
    },
    /// A complete token other than a row.
    Token(Token<'e>),
    /// A ROW or NBCROW begins. For NBCROW, [`Reader::is_null`] now answers
    /// for every column.
    RowStart(RowKind),
    /// A complete value: of column `column` of the current row, or of the
    /// RETURNVALUE just announced (column 0).
    Value {
        /// The column (0-based).
        column: u16,
        /// The value.
        value: Value<'e>,
        /// Where its bytes lie, for a caller that keeps them after the
        /// event; `None` for NULL.
        source: Option<ValueSource>,
    },
    /// A large value begins, in [`LargeValues::Stream`] mode.
    ValueStart {
        /// The column (0-based).
        column: u16,
        /// The column's type, to read the pieces by (an nvarchar(max) comes
        /// as UCS-2 bytes, and a piece may end inside a code unit).
        type_info: TypeInfo<'e>,
        /// The announced total length, if the server sent one.
        total: Option<u64>,
    },
    /// A piece of a streamed value, borrowed from the chunk being fed.
    ValueChunk {
        /// The column (0-based).
        column: u16,
        /// The bytes.
        bytes: &'e [u8],
    },
    /// A streamed value is complete (and its length checked).
    ValueEnd {
        /// The column (0-based).
        column: u16,
    },
    /// The row is complete.
    RowEnd,
}

/// Where the bytes of an [`Event::Value`] lie: what a caller needs to keep
/// them once the event, which borrows the reader, is gone.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ValueSource {
    /// In the chunk passed to the call that returned the event, `offset`
    /// bytes from where that chunk began.
    Chunk {
        /// The offset of the first byte in the chunk.
        offset: usize,
    },
    /// In the buffer passed to that call, `offset` bytes from its start
    /// (always 0 for an event's value).
    Buffer {
        /// The offset of the first byte in the buffer.
        offset: usize,
    },
    /// Inside the reader, until the next call: at most [`INLINE_VALUE_LEN`]
    /// bytes, or [`GATHERED_ROW_LEN`] for a value of a row the reader
    /// gathered ([`Reader::set_gather_rows`]).
    Inline,
}

impl fmt::Display for Event<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::ColMetadataStart { columns } => write!(f, "COLMETADATA start {columns} columns"),
            Event::Token(token) => write!(f, "{token}"),
            Event::RowStart(kind) => write!(f, "{kind}"),
            Event::Value { column, value, .. } => write!(f, "  [{column}] {value}"),
            Event::ValueStart { column, total, .. } => match total {
                Some(total) => write!(f, "  [{column}] start {total} bytes"),
                None => write!(f, "  [{column}] start"),
            },
            Event::ValueChunk { column, bytes } => {
                write!(f, "  [{column}] chunk ")?;
                crate::tds::value::write_hex(f, bytes)
            }
            Event::ValueEnd { column } => write!(f, "  [{column}] end"),
            Event::RowEnd => f.write_str("ROWEND"),
        }
    }
}
