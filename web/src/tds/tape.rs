//! The TDS reader behind the package's `TdsReader`: it decodes what each
//! feed completes and writes it as records on the tape.
//!
//! A record is a kind word and its payload. Strings are `[start, end)` in
//! the UTF-16 text area; `str` below means such a pair. Values are the
//! records of [`super::values`] (kinds below 32); the others are:
//!
//! | kind | payload |
//! |---|---|
//! | [`ROW`] | 0 for ROW or 1 for NBCROW, the column count; the values follow, then [`ROW_END`] |
//! | [`ROW_END`] | none |
//! | [`COLMETADATA`] | the column count, then per column: name `str`, type `str`, SQL type `str`, flags, max length (`u32::MAX` for none), precision, scale |
//! | [`DONE`] | 0 DONE, 1 DONEPROC or 2 DONEINPROC, status bits, command, row count low, high |
//! | [`MESSAGE`] | 1 for ERROR or 0 for INFO, number, state, class, text `str`, server `str`, procedure `str`, line |
//! | [`ENVCHANGE`] | type name `str`, then the new and the old value, each an [`ENV_TEXT`] `str`, an [`ENV_BYTES`] byte length and words, or an [`ENV_ROUTING`] protocol, port, server `str` |
//! | [`LOGINACK`] | interface, TDS version `str`, program name `str`, program version `str` |
//! | [`RETURN_STATUS`] | the `i32` |
//! | [`RETURN_VALUE`] | ordinal, name `str`, status; the value record follows |
//! | [`ORDER`] | the column count, then the 1-based columns |
//! | [`OTHER`] | token name `str`, the token as text `str` |
//! | [`FAIL`] | offset, kind `str`, message `str`: the stream is bad, and nothing follows |
//!
//! A row or a return value may start in one feed and end in a later one;
//! every value record is whole in the feed whose bytes complete it.

use leanwire_core::bumpalo::Bump;
use leanwire_core::tds::{
    Deframer, DoneKind, EnvValue, Error, Event, LargeValues, Message, Metadata, Reader, RowKind,
    Status, TdsVersion, Token, WholeRow,
};

use super::values::{Tape, ValueOptions};

/// A row begins.
pub const ROW: u32 = 32;
/// A row ends.
pub const ROW_END: u32 = 33;
/// COLMETADATA.
pub const COLMETADATA: u32 = 34;
/// DONE, DONEPROC, DONEINPROC.
pub const DONE: u32 = 35;
/// ERROR, INFO.
pub const MESSAGE: u32 = 36;
/// ENVCHANGE.
pub const ENVCHANGE: u32 = 37;
/// LOGINACK.
pub const LOGINACK: u32 = 38;
/// RETURNSTATUS.
pub const RETURN_STATUS: u32 = 39;
/// RETURNVALUE.
pub const RETURN_VALUE: u32 = 40;
/// ORDER.
pub const ORDER: u32 = 41;
/// Any other token, as text.
pub const OTHER: u32 = 42;
/// The stream is bad.
pub const FAIL: u32 = 43;

/// An ENVCHANGE value that is text.
pub const ENV_TEXT: u32 = 0;
/// An ENVCHANGE value that is bytes.
pub const ENV_BYTES: u32 = 1;
/// An ENVCHANGE routing target.
pub const ENV_ROUTING: u32 = 2;

/// The row buffer: a split value that is not a large one fits in 8 KiB.
const ROW_BUF: usize = 16 * 1024;

self_cell::self_cell!(
    /// A result set's column metadata and the arena it lives in.
    struct Columns {
        owner: Bump,
        #[not_covariant]
        dependent: Metadata,
    }
);

/// Empty metadata over a new arena of at most `limit` bytes.
fn columns(limit: usize) -> Columns {
    let bump = Bump::new();
    bump.set_allocation_limit(Some(limit));
    Columns::new(bump, |bump| Metadata::new(bump))
}

/// How a [`TdsTape`] reads.
#[derive(Copy, Clone, Debug)]
pub struct TapeOptions {
    /// The input is a bare token stream, without packet headers.
    pub tokens_only: bool,
    /// The TDS version to start with; LOGINACK may change it.
    pub version: TdsVersion,
    /// How values are written.
    pub values: ValueOptions,
    /// The most bytes one result set's column metadata may take.
    pub arena_limit: usize,
}

/// A TDS response read in pieces into tape records.
pub struct TdsTape {
    deframer: Option<Deframer>,
    reader: Reader,
    columns: Columns,
    arena_limit: usize,
    row_buf: Vec<u8>,
    /// A large value being gathered.
    large: Vec<u8>,
    in_row: bool,
    values: ValueOptions,
    failed: Option<Error>,
}

impl TdsTape {
    /// A reader at the start of a response.
    pub fn new(options: TapeOptions) -> TdsTape {
        let mut reader = Reader::new(options.version);
        reader.set_large_values(LargeValues::Stream);
        TdsTape {
            deframer: (!options.tokens_only).then(Deframer::new),
            reader,
            columns: columns(options.arena_limit),
            arena_limit: options.arena_limit,
            row_buf: vec![0; ROW_BUF],
            large: Vec::new(),
            in_row: false,
            values: options.values,
            failed: None,
        }
    }

    /// Decodes `chunk` and writes what it completes onto `tape`; a defect
    /// is written as the last record, and every later feed repeats it.
    pub fn feed(&mut self, chunk: &[u8], tape: &mut Tape<'_>) {
        let result = match self.failed {
            Some(error) => Err(error),
            None => self.feed_packets(chunk, tape),
        };
        if let Err(error) = result {
            self.failed = Some(error);
            push_fail(tape, &error);
        }
    }

    /// Says the stream is over: fails if it ended inside a packet or a token.
    pub fn finish(&self) -> Result<(), Error> {
        if let Some(error) = self.failed {
            return Err(error);
        }
        if let Some(deframer) = &self.deframer {
            deframer.finish()?;
        }
        self.reader.finish()
    }

    fn feed_packets(&mut self, chunk: &[u8], tape: &mut Tape<'_>) -> Result<(), Error> {
        let Some(mut deframer) = self.deframer.take() else {
            return self.feed_tokens(chunk, tape);
        };
        let result = self.feed_payloads(&mut deframer, chunk, tape);
        self.deframer = Some(deframer);
        result
    }

    fn feed_payloads(
        &mut self,
        deframer: &mut Deframer,
        mut input: &[u8],
        tape: &mut Tape<'_>,
    ) -> Result<(), Error> {
        loop {
            let (bytes, message_end) = match deframer.next(&mut input)? {
                Status::Complete(payload) => (payload.bytes, payload.message_end),
                Status::Partial => return Ok(()),
            };
            self.feed_tokens(bytes, tape)?;
            if message_end {
                self.reader.finish()?;
            }
        }
    }

    fn feed_tokens(&mut self, mut input: &[u8], tape: &mut Tape<'_>) -> Result<(), Error> {
        loop {
            let (reader, row_buf) = (&mut self.reader, &mut self.row_buf[..]);
            let (large, in_row, values) = (&mut self.large, &mut self.in_row, self.values);
            let whole = self.columns.with_dependent(|_, meta| {
                let row = reader.whole_row(&mut input, meta, row_buf)?;
                push_row(tape, &row, values);
                Some(())
            });
            if whole.is_some() {
                continue;
            }
            let done = self.columns.with_dependent_mut(|_, meta| {
                let event = match reader.next(&mut input, meta, row_buf)? {
                    Status::Complete(event) => event,
                    Status::Partial => return Ok(Some(true)),
                };
                match event {
                    // A new result set: the last one's metadata goes.
                    Event::ColMetadataStart { .. } => return Ok(None),
                    Event::Token(token) => push_token(tape, &token),
                    Event::RowStart(kind) => {
                        *in_row = true;
                        let ncols = meta.columns().len() as u32;
                        tape.put(&[ROW, u32::from(kind == RowKind::NbcRow), ncols]);
                    }
                    Event::Value { value, .. } => tape.push_value(&value, values),
                    Event::ValueStart { .. } => large.clear(),
                    Event::ValueChunk { bytes, .. } => large.extend_from_slice(bytes),
                    Event::ValueEnd { column } => {
                        let type_info = if *in_row {
                            meta.columns().get(usize::from(column)).map(|c| c.type_info)
                        } else {
                            meta.return_value().map(|rv| rv.type_info)
                        };
                        tape.push_large(type_info, large, values);
                    }
                    Event::RowEnd => {
                        *in_row = false;
                        tape.push(ROW_END);
                    }
                    _ => {}
                }
                Ok::<_, Error>(Some(false))
            });
            match done? {
                Some(true) => return Ok(()),
                Some(false) => {}
                None => self.columns = columns(self.arena_limit),
            }
        }
    }
}

/// Writes the records of a row read whole.
fn push_row(tape: &mut Tape<'_>, row: &WholeRow<'_>, values: ValueOptions) {
    let nbc = row.kind() == RowKind::NbcRow;
    tape.put(&[ROW, u32::from(nbc), row.len() as u32]);
    for value in row.values() {
        tape.push_value(&value, values);
    }
    tape.push(ROW_END);
}

/// Writes a [`FAIL`] record.
fn push_fail(tape: &mut Tape<'_>, error: &Error) {
    tape.push(FAIL);
    tape.push(u32::try_from(error.offset()).unwrap_or(u32::MAX));
    tape.push_display(error.kind().name());
    tape.push_display(error);
}

/// Writes the record of a token other than a row.
fn push_token(tape: &mut Tape<'_>, token: &Token<'_>) {
    match token {
        Token::ColMetadata(meta) => {
            tape.put(&[COLMETADATA, meta.columns.len() as u32]);
            for column in meta.columns {
                let ti = &column.type_info;
                tape.push_ucs2(column.name);
                tape.push_display(ti.data_type);
                tape.push_display(ti);
                let length = if !ti.is_plp() && ti.max_len > 0 {
                    ti.max_len
                } else {
                    u32::MAX
                };
                tape.put(&[
                    column.flags.0.into(),
                    length,
                    ti.precision.into(),
                    ti.scale.into(),
                ]);
            }
        }
        Token::Done(done) => {
            let kind = match done.kind {
                DoneKind::Done => 0,
                DoneKind::DoneProc => 1,
                DoneKind::DoneInProc => 2,
            };
            tape.put(&[DONE, kind, done.status.0.into(), done.cur_cmd.into()]);
            tape.push_u64(done.rows);
        }
        Token::Error(message) => push_message(tape, 1, message),
        Token::Info(message) => push_message(tape, 0, message),
        Token::EnvChange(change) => {
            tape.push(ENVCHANGE);
            tape.push_display(change.kind.upper());
            push_env(tape, &change.new);
            push_env(tape, &change.old);
        }
        Token::LoginAck(ack) => {
            tape.put(&[LOGINACK, ack.interface.into()]);
            match TdsVersion::from_wire(ack.tds_version) {
                Some(version) => tape.push_display(version),
                None => tape.push_display(format_args!("0x{:08x}", ack.tds_version)),
            }
            tape.push_ucs2(ack.prog_name.trim_end_nuls());
            let [major, minor, high, low] = ack.prog_version;
            tape.push_display(format_args!(
                "{major}.{minor}.{}",
                u16::from_be_bytes([high, low])
            ));
        }
        Token::ReturnStatus(status) => tape.put(&[RETURN_STATUS, status.0 as u32]),
        Token::ReturnValue(rv) => {
            tape.put(&[RETURN_VALUE, rv.ordinal.into()]);
            tape.push_ucs2(rv.name);
            tape.push(rv.status.into());
        }
        Token::Order(order) => {
            let at = tape.words.len();
            tape.put(&[ORDER, 0]);
            for column in order.columns() {
                tape.push(column.into());
            }
            tape.words[at + 1] = (tape.words.len() - at - 2) as u32;
        }
        other => {
            let (name, text) = other_text(other);
            tape.push(OTHER);
            tape.push_display(&name);
            let separator = if text.is_empty() { "" } else { " " };
            tape.push_display(format_args!("{name}{separator}{text}"));
        }
    }
}

/// The name and the text of a token that has no record of its own. Each
/// kind prints its own payload, so that the package does not carry the
/// printer of every token and value.
fn other_text(token: &Token<'_>) -> (String, String) {
    let hex = |bytes: &[u8]| {
        let digits: String = bytes.iter().map(|b| format!("{b:02X}")).collect();
        format!("0x{digits}")
    };
    match token {
        Token::FeatureExtAck(ack) => ("FEATUREEXTACK".into(), format!("{ack}")),
        Token::Sspi(sspi) => ("SSPI".into(), hex(sspi.data)),
        Token::FedAuthInfo(info) => {
            let options: Vec<String> = info
                .options()
                .map(|option| format!("{}={}", option.id, hex(option.data)))
                .collect();
            ("FEDAUTHINFO".into(), options.join(" "))
        }
        Token::SessionState(state) => (
            "SESSIONSTATE".into(),
            format!(
                "seq={} status={} entries={}",
                state.seq_no,
                state.status,
                state.entries().count()
            ),
        ),
        Token::Raw { token, data } => (format!("{token}"), hex(data)),
        _ => (String::new(), String::new()),
    }
}

fn push_message(tape: &mut Tape<'_>, error: u32, message: &Message<'_>) {
    tape.put(&[
        MESSAGE,
        error,
        message.number as u32,
        message.state.into(),
        message.class.into(),
    ]);
    tape.push_ucs2(message.text);
    tape.push_ucs2(message.server);
    tape.push_ucs2(message.procedure);
    tape.push(message.line as u32);
}

fn push_env(tape: &mut Tape<'_>, value: &EnvValue<'_>) {
    match value {
        EnvValue::Text(text) => {
            tape.push(ENV_TEXT);
            tape.push_ucs2(*text);
        }
        EnvValue::Bytes(bytes) | EnvValue::Raw(bytes) => {
            tape.push(ENV_BYTES);
            tape.push_bytes(bytes);
        }
        EnvValue::Routing {
            protocol,
            port,
            server,
        } => {
            tape.put(&[ENV_ROUTING, (*protocol).into(), (*port).into()]);
            tape.push_ucs2(*server);
        }
    }
}
