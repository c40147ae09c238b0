use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt::Write as _;

use serde::Serialize;

use crate::tds::{
    DEFAULT_ARENA_LIMIT, Deframer, EnvValue, Event, LargeValues, OwnedMetadata, Reader, RowKind,
    SqlValue, Status, TdsVersion, Token, TokenType, Value,
};

/// A value in a TDS report, as the `leanwire tds decode` contract writes it:
/// integers and floats as numbers (a 64-bit integer beyond 2^53 as a
/// string), bits as booleans, everything else as its text.
#[derive(Serialize, Debug, Clone, PartialEq)]
#[serde(untagged)]
pub enum JsonValue {
    /// NULL.
    Null,
    /// A bit.
    Bool(bool),
    /// An integer that a double holds exactly.
    Int(i64),
    /// A real or float.
    Float(f64),
    /// Any other value, as its text: decimals, money, dates and times,
    /// GUIDs, strings, and `0x...` for binary.
    Text(String),
}

/// The largest integer a JSON number (a double) holds exactly.
const MAX_SAFE: i64 = (1 << 53) - 1;

impl JsonValue {
    /// The report form of a value.
    pub fn of(value: &Value<'_>) -> JsonValue {
        match value.get() {
            SqlValue::Null => JsonValue::Null,
            SqlValue::Bit(b) => JsonValue::Bool(b),
            SqlValue::TinyInt(n) => JsonValue::Int(n.into()),
            SqlValue::SmallInt(n) => JsonValue::Int(n.into()),
            SqlValue::Int(n) => JsonValue::Int(n.into()),
            SqlValue::BigInt(n) if (-MAX_SAFE..=MAX_SAFE).contains(&n) => JsonValue::Int(n),
            SqlValue::Real(x) if x.is_finite() => JsonValue::Float(x.into()),
            SqlValue::Float(x) if x.is_finite() => JsonValue::Float(x),
            other => JsonValue::Text(other.to_string()),
        }
    }
}

/// One line of `leanwire tds decode`: `{"token":"DONE",...}`. The keys after
/// `token` depend on the token; see [`TokenBody`].
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct TokenReport {
    /// The token's name: `COLMETADATA`, `ROW`, `NBCROW`, `DONE`, ...
    pub token: String,
    /// The token's fields.
    #[serde(flatten)]
    pub body: TokenBody,
}

/// The fields of a [`TokenReport`], by token.
#[derive(Serialize, Debug, Clone, PartialEq)]
#[serde(untagged)]
pub enum TokenBody {
    /// COLMETADATA.
    Columns {
        /// The columns, in order.
        columns: Vec<ColumnReport>,
    },
    /// ROW and NBCROW: every column's value, NULLs included.
    Row {
        /// The values, in column order.
        values: Vec<JsonValue>,
    },
    /// DONE, DONEPROC and DONEINPROC.
    Done {
        /// The names of the status bits that are set: `MORE`, `ERROR`,
        /// `INXACT`, `COUNT`, `ATTN`, `RPCINBATCH`, `SRVERROR`.
        status: Vec<&'static str>,
        /// The command that finished (193 is SELECT).
        curcmd: u16,
        /// The row count, meaningful when `COUNT` is set.
        rowcount: u64,
    },
    /// RETURNSTATUS.
    Status {
        /// The procedure's return value.
        value: i32,
    },
    /// RETURNVALUE.
    ReturnValue {
        /// The parameter's position.
        ordinal: u16,
        /// The parameter's name, such as `@x`.
        name: String,
        /// Its value.
        value: JsonValue,
    },
    /// ERROR and INFO.
    Message {
        /// The message number.
        number: i32,
        /// The error state.
        state: u8,
        /// The severity.
        class: u8,
        /// The text.
        message: String,
        /// The server's name.
        server: String,
        /// The procedure it came from.
        procedure: String,
        /// The line in the batch or procedure.
        line: i32,
    },
    /// ENVCHANGE.
    EnvChange {
        /// What changed: `DATABASE`, `PACKET_SIZE`, `COLLATION`, ... (see
        /// [`EnvChangeType::upper`]), or `0XNN` for a type leanwire does
        /// not know.
        ///
        /// [`EnvChangeType::upper`]: crate::tds::EnvChangeType::upper
        #[serde(rename = "type")]
        kind: String,
        /// The new value: text; `0x...` for bytes, nothing for none;
        /// `server:port (protocol N)` for a routing target; `Raw([n, ...])`,
        /// the bytes in decimal, for the data of an unknown type.
        new: String,
        /// The old value.
        old: String,
    },
    /// LOGINACK.
    LoginAck {
        /// The interface (1 = SQL).
        interface: u8,
        /// The TDS version, such as `7.4`.
        tds_version: String,
        /// The server program, such as `Microsoft SQL Server`.
        prog_name: String,
        /// Its version, `major.minor.build`.
        prog_version: String,
    },
    /// ORDER.
    Order {
        /// The ordering columns, 1-based.
        columns: Vec<u16>,
    },
    /// Any other token, as text.
    Text {
        /// The token, as leanwire prints it.
        text: String,
    },
}

/// A column of a COLMETADATA report.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct ColumnReport {
    /// The column's name.
    pub name: String,
    /// The TYPE_INFO type, as MS-TDS names it: `INTN`, `NVARCHAR`, ...
    #[serde(rename = "type")]
    pub data_type: String,
    /// The maximum length in bytes; `null` for MAX types and fixed ones.
    pub length: Option<u32>,
    /// Whether the column can hold NULL.
    pub nullable: bool,
    /// The SQL type, such as `decimal(18,4)` or `nvarchar(max)`.
    pub sql_type: String,
}

/// A decode failure: `{"error":"...","offset":N}`. The offset counts bytes
/// of the token stream, packet headers not included.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct ErrorReport {
    /// What was wrong, and where.
    pub error: String,
    /// The offset in the token stream.
    pub offset: u64,
}

impl From<crate::tds::Error> for ErrorReport {
    fn from(e: crate::tds::Error) -> Self {
        ErrorReport {
            error: e.to_string(),
            offset: e.offset() as u64,
        }
    }
}

/// How [`TdsDecoder`] reads its input.
#[derive(Copy, Clone, Debug)]
pub struct DecodeOptions {
    /// The input is a bare token stream, without packet headers.
    pub tokens_only: bool,
    /// The TDS version to start with; LOGINACK may change it.
    pub version: TdsVersion,
    /// The most bytes the column metadata of one result set may take in
    /// the decoder's arena, which is reset at each COLMETADATA; past it
    /// the decode fails with `ArenaFull`. Default:
    /// [`DEFAULT_ARENA_LIMIT`] (16 MiB).
    pub arena_limit: usize,
}

impl Default for DecodeOptions {
    fn default() -> Self {
        DecodeOptions {
            tokens_only: false,
            version: TdsVersion::V7_4,
            arena_limit: DEFAULT_ARENA_LIMIT,
        }
    }
}

/// Turns a server's byte stream, fed in chunks of any size, into
/// [`TokenReport`]s: the driver behind `leanwire tds decode`. Large values
/// are streamed by the reader and joined here, so no value is too large for
/// the row buffer. Column metadata goes into an arena of the decoder's own,
/// reset at each COLMETADATA, so memory stays bounded over any number of
/// result sets.
pub struct TdsDecoder {
    deframer: Option<Deframer>,
    reader: Reader,
    meta: OwnedMetadata,
    row_buf: Vec<u8>,
    row: Option<(RowKind, Vec<JsonValue>)>,
    return_value: Option<(u16, String)>,
    large: Option<(u16, Vec<u8>)>,
}

impl TdsDecoder {
    /// A decoder at the start of a stream.
    pub fn new(options: DecodeOptions) -> Self {
        let mut reader = Reader::new(options.version);
        reader.set_large_values(LargeValues::Stream);
        TdsDecoder {
            deframer: (!options.tokens_only).then(Deframer::new),
            reader,
            meta: OwnedMetadata::new(options.arena_limit),
            row_buf: alloc::vec![0; 64 * 1024],
            row: None,
            return_value: None,
            large: None,
        }
    }

    /// Feeds `chunk`, appending a report to `out` for every token it
    /// completes. The caller may print and clear `out` between feeds.
    pub fn feed(&mut self, chunk: &[u8], out: &mut Vec<TokenReport>) -> Result<(), ErrorReport> {
        let mut input = chunk;
        if self.deframer.is_none() {
            return self.feed_tokens(input, out);
        }
        loop {
            let deframer = self.deframer.as_mut().ok_or_else(|| ErrorReport {
                error: "no deframer".into(),
                offset: 0,
            })?;
            let (bytes, message_end) = match deframer.next(&mut input)? {
                Status::Complete(payload) => (payload.bytes, payload.message_end),
                Status::Partial => return Ok(()),
            };
            self.feed_tokens(bytes, out)?;
            if message_end {
                self.reader.finish()?;
            }
        }
    }

    /// Says the input is over: fails if it ended inside a packet or a token.
    pub fn finish(&self) -> Result<(), ErrorReport> {
        if let Some(deframer) = &self.deframer {
            deframer.finish()?;
        }
        Ok(self.reader.finish()?)
    }

    /// Reads the tokens of `input`, resetting the arena at each
    /// COLMETADATA that brings new columns.
    fn feed_tokens(
        &mut self,
        mut input: &[u8],
        out: &mut Vec<TokenReport>,
    ) -> Result<(), ErrorReport> {
        loop {
            let (reader, row_buf) = (&mut self.reader, &mut self.row_buf[..]);
            let (row, return_value, large) =
                (&mut self.row, &mut self.return_value, &mut self.large);
            let start = self.meta.with_mut(|meta| {
                loop {
                    let event = match reader.next(&mut input, meta, row_buf)? {
                        Status::Complete(event) => event,
                        Status::Partial => return Ok::<_, ErrorReport>(false),
                    };
                    match event {
                        Event::ColMetadataStart { .. } => return Ok(true),
                        Event::Token(Token::ReturnValue(rv)) => {
                            *return_value = Some((rv.ordinal, rv.name.to_string()));
                        }
                        Event::Token(token) => out.push(token_report(&token)),
                        Event::RowStart(kind) => *row = Some((kind, Vec::new())),
                        Event::Value { value, .. } => {
                            push_value(row, return_value, JsonValue::of(&value), out);
                        }
                        Event::ValueStart { column, .. } => *large = Some((column, Vec::new())),
                        Event::ValueChunk { bytes, .. } => {
                            if let Some((_, data)) = large {
                                data.extend_from_slice(bytes);
                            }
                        }
                        Event::ValueEnd { column } => {
                            let data = large.take().map(|(_, data)| data).unwrap_or_default();
                            let type_info = match row {
                                Some(_) => {
                                    meta.columns().get(usize::from(column)).map(|c| c.type_info)
                                }
                                None => meta.return_value().map(|rv| rv.type_info),
                            };
                            let value = type_info
                                .and_then(|t| Value::new(t, Some(&data)))
                                .map_or(JsonValue::Null, |v| JsonValue::of(&v));
                            push_value(row, return_value, value, out);
                        }
                        Event::RowEnd => {
                            if let Some((kind, values)) = row.take() {
                                out.push(TokenReport {
                                    token: kind.token().to_string(),
                                    body: TokenBody::Row { values },
                                });
                            }
                        }
                    }
                }
            })?;
            if !start {
                return Ok(());
            }
            self.meta.reset();
        }
    }
}

/// A complete value: a row's, or the pending RETURNVALUE's.
fn push_value(
    row: &mut Option<(RowKind, Vec<JsonValue>)>,
    return_value: &mut Option<(u16, String)>,
    value: JsonValue,
    out: &mut Vec<TokenReport>,
) {
    match (row, return_value.take()) {
        (Some((_, values)), _) => values.push(value),
        (None, Some((ordinal, name))) => out.push(TokenReport {
            token: TokenType::ReturnValue.to_string(),
            body: TokenBody::ReturnValue {
                ordinal,
                name,
                value,
            },
        }),
        (None, None) => {}
    }
}

/// Decodes `bytes` in chunks of `chunk` bytes (0 for all at once): the
/// reports, and the error that stopped the decode, if any.
pub fn decode_tds(
    bytes: &[u8],
    options: DecodeOptions,
    chunk: usize,
) -> (Vec<TokenReport>, Option<ErrorReport>) {
    let mut decoder = TdsDecoder::new(options);
    let mut out = Vec::new();
    let size = if chunk == 0 {
        bytes.len().max(1)
    } else {
        chunk
    };
    for piece in bytes.chunks(size) {
        if let Err(e) = decoder.feed(piece, &mut out) {
            return (out, Some(e));
        }
    }
    let error = decoder.finish().err();
    (out, error)
}

fn token_report(token: &Token<'_>) -> TokenReport {
    let body = match token {
        Token::ColMetadata(meta) => TokenBody::Columns {
            columns: meta
                .columns
                .iter()
                .map(|c| ColumnReport {
                    name: c.name.to_string(),
                    data_type: c.type_info.data_type.to_string(),
                    length: (!c.type_info.is_plp() && c.type_info.max_len > 0)
                        .then_some(c.type_info.max_len),
                    nullable: c.flags.nullable(),
                    sql_type: c.type_info.to_string(),
                })
                .collect(),
        },
        Token::Done(done) => TokenBody::Done {
            status: done.status.names().collect(),
            curcmd: done.cur_cmd,
            rowcount: done.rows,
        },
        Token::ReturnStatus(status) => TokenBody::Status { value: status.0 },
        Token::Error(m) | Token::Info(m) => TokenBody::Message {
            number: m.number,
            state: m.state,
            class: m.class,
            message: m.text.to_string(),
            server: m.server.to_string(),
            procedure: m.procedure.to_string(),
            line: m.line,
        },
        Token::EnvChange(change) => TokenBody::EnvChange {
            kind: change.kind.upper().to_string(),
            new: env_text(&change.new),
            old: env_text(&change.old),
        },
        Token::LoginAck(ack) => {
            let [major, minor, ..] = ack.prog_version;
            TokenBody::LoginAck {
                interface: ack.interface,
                tds_version: ack
                    .version()
                    .map_or_else(|| format!("0x{:08x}", ack.tds_version), |v| v.to_string()),
                prog_name: ack.program_name().to_string(),
                prog_version: format!("{major}.{minor}.{}", ack.build()),
            }
        }
        Token::Order(order) => TokenBody::Order {
            columns: order.columns().collect(),
        },
        other => TokenBody::Text {
            text: other.to_string(),
        },
    };
    TokenReport {
        token: token.token_type().to_string(),
        body,
    }
}

/// An ENVCHANGE value as the report writes it: text as is, bytes as `0x`
/// and uppercase hex (nothing when there are none), a routing target as
/// `server:port (protocol N)`, and the data of an unknown type as
/// `Raw([n, ...])`, its bytes in decimal.
fn env_text(value: &EnvValue<'_>) -> String {
    match value {
        EnvValue::Text(text) => text.to_string(),
        EnvValue::Bytes([]) => String::new(),
        EnvValue::Bytes(_) | EnvValue::Routing { .. } => value.to_string(),
        EnvValue::Raw(bytes) => {
            let mut text = String::from("Raw([");
            for (i, b) in bytes.iter().enumerate() {
                let separator = if i == 0 { "" } else { ", " };
                let _ = write!(text, "{separator}{b}");
            }
            text.push_str("])");
            text
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tds::{DataType, TypeInfo};

    fn json(data_type: DataType, bytes: &[u8]) -> JsonValue {
        let value = Value::new(TypeInfo::new(data_type), Some(bytes)).expect("a valid value");
        JsonValue::of(&value)
    }

    #[test]
    fn a_bigint_is_a_number_only_while_a_double_holds_it_exactly() {
        let bigint = |n: i64| json(DataType::BigInt, &n.to_le_bytes());
        for n in [9_007_199_254_740_991, -9_007_199_254_740_991] {
            assert_eq!(bigint(n), JsonValue::Int(n));
        }
        assert_eq!(
            bigint(9_007_199_254_740_992),
            JsonValue::Text("9007199254740992".into())
        );
        assert_eq!(
            bigint(-9_007_199_254_740_992),
            JsonValue::Text("-9007199254740992".into())
        );
    }

    #[test]
    fn floats_are_numbers_unless_json_cannot_hold_them() {
        let real = |x: f32| json(DataType::Real, &x.to_le_bytes());
        let float = |x: f64| json(DataType::Float, &x.to_le_bytes());
        assert_eq!(real(9.5), JsonValue::Float(9.5));
        assert_eq!(float(-0.25), JsonValue::Float(-0.25));
        assert_eq!(real(f32::INFINITY), JsonValue::Text("inf".into()));
        assert_eq!(real(f32::NAN), JsonValue::Text("NaN".into()));
        assert_eq!(float(f64::NEG_INFINITY), JsonValue::Text("-inf".into()));
    }

    #[test]
    fn an_unknown_env_change_lists_its_bytes_in_decimal() {
        assert_eq!(env_text(&EnvValue::Raw(&[])), "Raw([])");
        assert_eq!(env_text(&EnvValue::Raw(&[7])), "Raw([7])");
        assert_eq!(env_text(&EnvValue::Raw(&[1, 0, 255])), "Raw([1, 0, 255])");
        assert_eq!(env_text(&EnvValue::Bytes(&[])), "");
        assert_eq!(env_text(&EnvValue::Bytes(&[0xab, 1])), "0xAB01");
    }
}
