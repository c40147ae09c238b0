//! The sans-IO token reader: a state machine fed token-stream bytes in
//! chunks of any size.

use super::colmetadata::ColMetadata;
use super::done::{Done, DoneKind};
use super::envchange::EnvChange;
use super::error::{Error, ErrorKind, Result, Site, error_at};
use super::error_info::Message;
use super::featureextack::{FeatureExtAck, FeatureId};
use super::fedauthinfo::FedAuthInfo;
use super::loginack::LoginAck;
use super::order::Order;
use super::returnstatus::ReturnStatus;
use super::row::RowKind;
use super::sessionstate::SessionState;
use super::sspi::Sspi;
use super::status::Status;
use super::token::TokenType;
use super::value::Value;
use super::version::TdsVersion;
use cursor::Cursor;
use data::Fast;
use gather::{GATHER_LEN, Gather, Scan};
use meta::{MetaEnv, MetaMachine, MetaStep};
use plan::Plans;
use row::RowMachine;

mod cursor;
mod data;
mod event;
mod gather;
mod large;
mod meta;
mod metadata;
mod plan;
mod row;
mod state;
mod whole_row;

pub use event::{Event, Token, ValueSource};
pub use metadata::{DEFAULT_ARENA_LIMIT, Metadata};
pub use state::{MetaPart, ReaderState, ValuePart};
pub use whole_row::{RowSources, RowValues, WholeRow};

/// Bytes of fixed scratch space: enough for any fixed field (a DONE body,
/// a PLP total, a TYPE_INFO, a text pointer length) and for whole values
/// up to this size (decimals, GUIDs, datetimeoffsets, short strings) that
/// arrive split across chunks.
pub(crate) const SCRATCH_LEN: usize = 32;

/// The most bytes of a value split across chunks that the reader hands
/// out from inside itself ([`ValueSource::Inline`]).
pub const INLINE_VALUE_LEN: usize = SCRATCH_LEN;

/// The most bytes of a row that the reader gathers whole (see
/// [`Reader::whole_row`]); the values of such a row, and of one it hands
/// to [`Reader::next`] after gathering it, lie inside the reader
/// ([`ValueSource::Inline`]).
pub const GATHERED_ROW_LEN: usize = GATHER_LEN;

/// The most columns a COLMETADATA may announce (SQL Server's own limit).
pub const MAX_COLUMNS: u16 = 4096;

/// What the reader does with a large value: a PLP value (varchar(max),
/// nvarchar(max), varbinary(max), xml, UDT) or a TEXT, NTEXT or IMAGE
/// value.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum LargeValues {
    /// Deliver it whole, as one [`Event::Value`]: borrowed from the chunk if
    /// it lay in one piece there, else assembled in the caller's row buffer
    /// (too large for it is [`ErrorKind::BufferTooSmall`]).
    #[default]
    Assemble,
    /// Deliver it in pieces: [`Event::ValueStart`], any number of
    /// [`Event::ValueChunk`]s (zero-copy sub-slices of the fed chunks), and
    /// [`Event::ValueEnd`]. A 1 GiB varbinary(max) needs no buffer at all.
    /// NULL is still one [`Event::Value`].
    Stream,
}

/// Where a value's bytes are, while the reader builds its event.
#[derive(Copy, Clone, Debug)]
pub(super) enum Src<'c> {
    /// In the chunk being fed, from stream offset `at`.
    Input(&'c [u8], u64),
    /// In the first `n` bytes of the scratch space.
    Scratch(usize),
    /// In the first `n` bytes of the caller's buffer.
    Buf(usize),
    /// In the row the reader gathered, `len` bytes from `start`.
    Gathered { start: usize, len: usize },
}

/// What a step produced, before it borrows the reader, the metadata and the
/// buffer to become an [`Event`].
#[derive(Copy, Clone, Debug)]
pub(super) enum Out<'c> {
    Body {
        token: TokenType,
        src: Src<'c>,
        at: u64,
    },
    Done(Done),
    ReturnStatus(i32),
    ColMetadataStart {
        columns: u16,
    },
    ColMetadata {
        no_metadata: bool,
    },
    ReturnValue,
    RowStart(RowKind),
    Value {
        column: u16,
        ret: bool,
        src: Option<Src<'c>>,
    },
    ValueStart {
        column: u16,
        ret: bool,
        total: Option<u64>,
    },
    ValueChunk {
        column: u16,
        bytes: &'c [u8],
    },
    /// A piece of a streamed value, in the row the reader gathered.
    GatheredChunk {
        column: u16,
        start: usize,
        len: usize,
    },
    ValueEnd {
        column: u16,
    },
    RowEnd,
}

/// Where the FEATUREEXTACK walk is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum FeatureStep {
    Id,
    Len { have: u8, len: u32 },
    Data { left: u32 },
}

#[derive(Copy, Clone, Debug)]
pub(super) enum State {
    /// At a token boundary.
    Token,
    /// A fixed-size token body (DONE*, RETURNSTATUS) into scratch.
    Fixed { token: TokenType, len: u8 },
    /// A token's u16 or u32 length field into scratch.
    Length { token: TokenType, width: u8 },
    /// A length-prefixed body; `have` bytes copied into the buffer so far.
    Body {
        token: TokenType,
        len: u32,
        have: u32,
        at: u64,
    },
    /// FEATUREEXTACK entries; `copied` bytes copied into the buffer so far.
    Feature {
        copied: u32,
        step: FeatureStep,
        at: u64,
    },
    /// COLMETADATA or a RETURNVALUE header.
    Meta(MetaMachine),
    /// A ROW or NBCROW, or a RETURNVALUE's value, in the row machine.
    Row,
    /// A ROW or NBCROW split across chunks, being gathered whole; once
    /// `stopped`, the row machine is to read what was gathered.
    Gather { stopped: bool },
    /// The row machine reading the gathered row, from byte `from` on.
    Replay { from: usize },
    /// An error stopped the reader.
    Failed,
}

/// A sans-IO reader for a server's token stream [MS-TDS 2.2.7].
///
/// Feed it the token stream (the payload bytes after
/// [de-framing](super::Deframer)) in chunks of any size; each call to
/// [`next`](Self::next) takes bytes from the front of the chunk and returns
/// the next [`Event`], or [`Status::Partial`] once the chunk is used up.
///
/// It never re-parses. When input runs out at any byte (inside a token
/// header, an integer, a UCS-2 code unit, a PLP chunk length), it keeps what
/// it has in fixed scratch space, or in the caller's row buffer for a
/// value, and a named [`ReaderState`], and resumes exactly there: total work
/// is O(bytes fed). A row that [`whole_row`](Self::whole_row) gathers is
/// walked once as it arrives and read once when whole. It holds no heap
/// memory; column metadata goes into the caller's [`Metadata`] (a
/// `bumpalo` arena), and after the first COLMETADATA, rows touch neither
/// the heap nor the arena.
///
/// Three things come with each call:
/// - the chunk, `&mut &[u8]`, advanced past what was taken;
/// - the [`Metadata`] (arena) that COLMETADATA fills; pass the same one
///   until the next [`Event::ColMetadataStart`], and from there the same
///   one or a new one over the reset arena;
/// - the row buffer, `&mut [u8]`, where a value (or token) that arrives
///   split across chunks is assembled. It must hold the largest such value
///   that is not streamed ([`LargeValues::Stream`]); a value that lies in
///   one piece in its chunk is borrowed and never copied, and a split value
///   of up to 32 bytes uses the reader's own scratch space. The buffer is
///   the caller's so that its size is the caller's choice (8 KiB covers
///   every non-MAX type) and it is reused across rows with no allocation.
///   Pass the same buffer on every call: a value being assembled in it
///   stays there between calls.
///
/// ```
/// use leanwire_core::bumpalo::Bump;
/// use leanwire_core::tds::{Event, Metadata, Reader, Status, TdsVersion, Token};
///
/// // COLMETADATA (one INT column "id"), ROW 42, DONE with a row count.
/// let stream = [
///     0x81, 1, 0, 0, 0, 0, 0, 0, 0, 0x38, 2, b'i', 0, b'd', 0,
///     0xd1, 42, 0, 0, 0,
///     0xfd, 0x10, 0, 0xc1, 0, 1, 0, 0, 0, 0, 0, 0, 0,
/// ];
/// let bump = Bump::new();
/// let mut meta = Metadata::new(&bump);
/// let mut reader = Reader::new(TdsVersion::V7_4);
/// let mut buf = [0u8; 64];
/// let mut lines = Vec::new();
/// // Fed in 3-byte chunks: the result is the same for any chunking.
/// for mut chunk in stream.chunks(3) {
///     while let Status::Complete(event) = reader.next(&mut chunk, &mut meta, &mut buf)? {
///         if let Event::Value { value, .. } = event {
///             assert_eq!(value.to_string(), "42");
///         }
///         lines.push(event.to_string());
///     }
/// }
/// reader.finish()?;
/// assert_eq!(lines, [
///     "COLMETADATA start 1 columns",
///     "COLMETADATA [id int]",
///     "ROW",
///     "  [0] 42",
///     "ROWEND",
///     "DONE status=0x0010 cur_cmd=0x00C1 rows=1",
/// ]);
/// # Ok::<(), leanwire_core::tds::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Reader {
    version: TdsVersion,
    large: LargeValues,
    /// Where the reader is in the stream, and the field it is gathering.
    cursor: Cursor,
    /// `cursor.pos` when the current call to [`next`](Self::next) began.
    call_at: u64,
    state: State,
    /// Where the current token began.
    token_at: u64,
    /// The generation stamped on the [`Metadata`] this reader filled last
    /// (0: none yet).
    generation: u32,
    /// The row machine's own state: the current row's NULLs and the value
    /// being read.
    row: RowMachine,
    /// How whole rows of the current result set read its columns.
    plans: Plans,
    /// The row being gathered whole while its chunks arrive.
    gather: Gather,
    /// Whether [`whole_row`](Self::whole_row) gathers rows split across
    /// chunks.
    gather_rows: bool,
    /// FEATUREEXTACK acknowledged column encryption: COLMETADATA would
    /// carry a CEK table, which leanwire does not read.
    column_encryption: bool,
    /// Stamped on the [`Metadata`] a COLMETADATA or RETURNVALUE header is
    /// being read into.
    meta_stamp: u32,
    failed: Option<Error>,
}

impl Reader {
    /// A reader at the start of a token stream of `version` (the version
    /// the client asked for in LOGIN7; LOGINACK then sets the real one).
    pub const fn new(version: TdsVersion) -> Reader {
        Reader {
            version,
            large: LargeValues::Assemble,
            cursor: Cursor::new(),
            call_at: 0,
            state: State::Token,
            token_at: 0,
            generation: 0,
            row: RowMachine::new(),
            plans: Plans::new(),
            gather: Gather::new(),
            gather_rows: true,
            column_encryption: false,
            meta_stamp: 0,
            failed: None,
        }
    }

    /// The TDS version the reader reads by.
    pub const fn version(&self) -> TdsVersion {
        self.version
    }

    /// Sets the TDS version (LOGINACK does this by itself).
    pub fn set_version(&mut self, version: TdsVersion) {
        self.version = version;
    }

    /// How large values are delivered from the next value on.
    pub fn set_large_values(&mut self, mode: LargeValues) {
        self.large = mode;
    }

    /// The current mode for large values.
    pub const fn large_values(&self) -> LargeValues {
        self.large
    }

    /// Whether [`whole_row`](Self::whole_row) gathers a row that does not
    /// lie whole in its chunk (`true`, the default), or leaves it to
    /// [`next`](Self::next) with nothing taken (`false`). A caller that
    /// keeps a row's values past the next call wants them in its own
    /// buffers, not inside the reader, and turns this off.
    pub fn set_gather_rows(&mut self, gather: bool) {
        self.gather_rows = gather;
    }

    /// Skips (`true`) or delivers (`false`) column `column` of every row of
    /// the current result set. A skipped column's bytes are passed over
    /// without being copied or decoded, and it yields no event;
    /// [`is_null`](Self::is_null) still answers for it. Reset by each
    /// COLMETADATA. Columns past [`MAX_COLUMNS`] are ignored.
    pub fn skip_column(&mut self, column: u16, skip: bool) {
        self.row.skip_column(column, skip);
        // A row being gathered is read by the row machine, which skips.
        if let State::Gather { .. } = self.state {
            self.state = State::Gather { stopped: true };
        }
    }

    /// Whether column `column` of the current (or last) row is NULL, known
    /// without decoding its value: for every column of an NBCROW (from its
    /// null bitmap), and for a ROW's columns once the reader has read their
    /// length. `None` when not known yet.
    pub fn is_null(&self, column: u16) -> Option<bool> {
        self.row.is_null(column)
    }

    /// Bytes taken in so far (the offset of the next byte).
    pub fn offset(&self) -> u64 {
        match self.state {
            // The row machine is behind: it reads the gathered row again.
            State::Replay { from } => self.cursor.pos + (self.gather.bytes().len() - from) as u64,
            _ => self.cursor.pos,
        }
    }

    /// Where the reader is, by name.
    pub fn state(&self) -> ReaderState {
        match self.state {
            State::Token => ReaderState::TokenStart,
            State::Fixed { token, len } => ReaderState::TokenBody {
                token,
                have: u32::from(self.cursor.have),
                len: u32::from(len),
            },
            State::Length { token, .. } => ReaderState::TokenLength { token },
            State::Body {
                token, len, have, ..
            } => ReaderState::TokenBody { token, have, len },
            State::Feature { .. } => ReaderState::FeatureExtAck,
            State::Meta(meta) => meta.public(),
            State::Row | State::Replay { .. } => self.row.public(),
            State::Gather { .. } => self.gather.public(),
            State::Failed => ReaderState::Failed,
        }
    }

    /// The token and column being read, for errors.
    pub(super) fn site(&self) -> Site {
        match self.state {
            State::Token | State::Failed => Site::token(TokenType::Unknown(0)),
            State::Fixed { token, .. }
            | State::Length { token, .. }
            | State::Body { token, .. } => Site::token(token),
            State::Feature { .. } => Site::token(TokenType::FeatureExtAck),
            State::Meta(meta) => meta.site(),
            State::Row | State::Replay { .. } => self.row.current_site(),
            State::Gather { .. } => match self.gather.column_index() {
                Some(column) => Site::column(self.gather.kind().token(), column),
                None => Site::token(TokenType::NbcRow),
            },
        }
    }

    /// The caller's word that the stream ended. `Ok` at a token boundary;
    /// inside a token, [`ErrorKind::UnexpectedEof`] naming the token (and
    /// column) at the current offset.
    pub fn finish(&self) -> Result<()> {
        if let Some(e) = self.failed {
            return Err(e);
        }
        match self.state {
            State::Token => Ok(()),
            State::Row if self.row.at_boundary() => Ok(()),
            _ => Err(error_at(
                ErrorKind::UnexpectedEof(self.site()),
                self.offset(),
            )),
        }
    }

    /// Takes bytes from the front of `input` and returns the next event, or
    /// `Partial` once `input` is used up (everything in it taken in).
    ///
    /// Events that need no more bytes (the end of a row, an NBCROW's NULL
    /// columns) come even from an empty `input`, so call until `Partial`.
    /// After an error the reader stops: every later call returns it again.
    #[inline(always)]
    pub fn next<'r, 'c: 'r, 'a: 'r>(
        &'r mut self,
        input: &mut &'c [u8],
        meta: &'r mut Metadata<'a>,
        buf: &'r mut [u8],
    ) -> Result<Status<Event<'r>>> {
        // A value split across many small chunks mostly takes this path:
        // all of `input` goes into the value, and there is nothing to say,
        // or the value streams, and `input` is its next piece.
        if let (State::Row, None) = (self.state, self.failed) {
            match self.row.fast_step(&mut self.cursor, input, buf) {
                Ok(Some((_, Fast::Taken))) => return Ok(Status::Partial),
                Ok(Some((column, Fast::Piece(bytes)))) => {
                    return Ok(Status::Complete(Event::ValueChunk { column, bytes }));
                }
                Ok(None) => {}
                Err(e) => return Err(self.fail(e)),
            }
        }
        // A row being gathered waits for its next chunk.
        if let (State::Gather { stopped: false }, []) = (self.state, *input) {
            return Ok(Status::Partial);
        }
        self.next_event(input, meta, buf)
    }

    /// [`next`](Self::next) beyond its fast path.
    #[inline(never)]
    fn next_event<'r, 'c: 'r, 'a: 'r>(
        &'r mut self,
        input: &mut &'c [u8],
        meta: &'r mut Metadata<'a>,
        buf: &'r mut [u8],
    ) -> Result<Status<Event<'r>>> {
        if let Some(e) = self.failed {
            return Err(e);
        }
        self.call_at = self.offset();
        if let State::Row = self.state {
            match self
                .row
                .value_in_chunk(&mut self.cursor, input, meta, self.call_at)
            {
                Ok(Some((column, value, source))) => {
                    return Ok(Status::Complete(Event::Value {
                        column,
                        value,
                        source,
                    }));
                }
                Ok(None) => {}
                Err(e) => return Err(self.fail(e)),
            }
        }
        let out = match self.step(input, meta, buf) {
            Ok(Status::Complete(out)) => out,
            Ok(Status::Partial) => return Ok(Status::Partial),
            Err(e) => return Err(self.fail(e)),
        };
        self.event(out, meta, buf).map(Status::Complete)
    }

    /// Reads the next token in one call when it is a ROW or NBCROW that
    /// lies whole at the front of `input`, with every value checked: the
    /// fast path for rows, with no event per value. Takes the row's bytes
    /// from `input`. `buf` holds where each value lies (8 bytes a column)
    /// and, joined, the PLP values sent in more than one chunk.
    ///
    /// A row that begins in `input` but does not end there is gathered:
    /// its bytes are taken into the reader (up to [`GATHERED_ROW_LEN`]) by their
    /// framing alone, and `None` comes back with `input` used up. Call
    /// `whole_row` again with the next chunk, and the row comes whole once
    /// its last byte is in; its values then lie inside the reader
    /// ([`ValueSource::Inline`]). [`next`](Self::next), called in between,
    /// waits for more (`Partial` on an empty `input`), or reads the
    /// gathered bytes as if they had just arrived, and goes on from there.
    /// So a row split across many small chunks costs a copy of its bytes
    /// and one whole-row read, not a step per field. Turn this off with
    /// [`set_gather_rows`](Self::set_gather_rows).
    ///
    /// Otherwise `None`, with nothing taken, when the reader is not at a
    /// token's start, the next token is not a row, the row does not fit in
    /// `buf`, the caller skips a column, a column is TEXT, NTEXT or IMAGE,
    /// or a value fails a check. [`next`](Self::next) then reads the row,
    /// and reports what is wrong with it. [`is_null`](Self::is_null) speaks
    /// of rows read by `next`.
    ///
    /// ```
    /// use leanwire_core::bumpalo::Bump;
    /// use leanwire_core::tds::{Metadata, Reader, Status, TdsVersion};
    ///
    /// // COLMETADATA (one INT column "id"), ROW 42, ROW 7.
    /// let stream = [
    ///     0x81, 1, 0, 0, 0, 0, 0, 0, 0, 0x38, 2, b'i', 0, b'd', 0,
    ///     0xd1, 42, 0, 0, 0,
    ///     0xd1, 7, 0, 0, 0,
    /// ];
    /// let bump = Bump::new();
    /// let mut meta = Metadata::new(&bump);
    /// let mut reader = Reader::new(TdsVersion::V7_4);
    /// let mut buf = [0u8; 64];
    /// let mut input = &stream[..];
    /// let mut ids = Vec::new();
    /// loop {
    ///     if let Some(row) = reader.whole_row(&mut input, &meta, &mut buf) {
    ///         ids.extend(row.values().map(|value| value.to_string()));
    ///         continue;
    ///     }
    ///     match reader.next(&mut input, &mut meta, &mut buf)? {
    ///         Status::Complete(_) => {}
    ///         Status::Partial => break,
    ///     }
    /// }
    /// assert_eq!(ids, ["42", "7"]);
    /// # Ok::<(), leanwire_core::tds::Error>(())
    /// ```
    #[inline(always)]
    pub fn whole_row<'r, 'c: 'r, 'a: 'r>(
        &'r mut self,
        input: &mut &'c [u8],
        meta: &'r Metadata<'a>,
        buf: &'r mut [u8],
    ) -> Option<WholeRow<'r>> {
        match self.state {
            State::Token => self.whole_row_at_token(input, meta, buf),
            State::Gather { stopped: false } => {
                match self
                    .gather
                    .take_inside_field(&mut self.cursor.pos, input, buf.len())
                {
                    Some(Scan::More) => None,
                    Some(_) => {
                        self.state = State::Gather { stopped: true };
                        None
                    }
                    None => self.gather_row(input, meta, buf),
                }
            }
            _ => None,
        }
    }

    /// [`whole_row`](Self::whole_row) at a token's start.
    #[inline(never)]
    fn whole_row_at_token<'r, 'c: 'r, 'a: 'r>(
        &'r mut self,
        input: &mut &'c [u8],
        meta: &'r Metadata<'a>,
        buf: &'r mut [u8],
    ) -> Option<WholeRow<'r>> {
        let (&byte, body) = input.split_first()?;
        let kind = match TokenType::from(byte) {
            TokenType::Row => RowKind::Row,
            TokenType::NbcRow => RowKind::NbcRow,
            _ => return None,
        };
        let columns = meta.columns();
        let ready = self.failed.is_none()
            && self.generation != 0
            && meta.generation() == self.generation
            && !columns.is_empty()
            && !self.row.skips_any(columns.len());
        if !ready {
            return None;
        }
        let plans = self.plans.of(self.generation, columns);
        let buf_len = buf.len();
        if let Some((row, taken)) = whole_row::read(kind, body, columns, plans, buf) {
            self.token_at = self.cursor.pos;
            self.cursor.take(input, 1 + taken);
            return Some(row);
        }
        if !self.gather_rows {
            return None;
        }
        self.token_at = self.cursor.pos;
        self.cursor.take(input, 1);
        let stream = self.large == LargeValues::Stream;
        let scan = match self
            .gather
            .begin(kind, self.cursor.pos, stream, columns, plans)
        {
            Scan::More => self
                .gather
                .scan(&mut self.cursor.pos, input, columns, plans, buf_len),
            Scan::Row | Scan::Stop => Scan::Stop,
        };
        // A row that lay whole in `input` yet was refused goes to the row
        // machine too, which says why.
        self.state = State::Gather {
            stopped: scan != Scan::More,
        };
        None
    }

    /// [`whole_row`](Self::whole_row) inside a row being gathered.
    #[inline(never)]
    fn gather_row<'r, 'c: 'r, 'a: 'r>(
        &'r mut self,
        input: &mut &'c [u8],
        meta: &'r Metadata<'a>,
        buf: &'r mut [u8],
    ) -> Option<WholeRow<'r>> {
        let columns = meta.columns();
        if meta.generation() != self.generation {
            self.state = State::Gather { stopped: true };
            return None;
        }
        let plans = self.plans.of(self.generation, columns);
        match self
            .gather
            .scan(&mut self.cursor.pos, input, columns, plans, buf.len())
        {
            Scan::More => return None,
            Scan::Row => {}
            Scan::Stop => {
                self.state = State::Gather { stopped: true };
                return None;
            }
        }
        let gathered = self.gather.bytes();
        match whole_row::read(self.gather.kind(), gathered, columns, plans, buf) {
            Some((row, taken)) if taken == gathered.len() => {
                self.state = State::Token;
                Some(row.in_reader())
            }
            _ => {
                self.state = State::Gather { stopped: true };
                None
            }
        }
    }

    fn fail(&mut self, e: Error) -> Error {
        self.failed = Some(e);
        self.state = State::Failed;
        e
    }

    /// One step of the state machine: runs until it has something to hand
    /// out, or input runs out.
    fn step<'c>(
        &mut self,
        input: &mut &'c [u8],
        meta: &mut Metadata<'_>,
        buf: &mut [u8],
    ) -> Result<Status<Out<'c>>> {
        loop {
            match self.state {
                State::Token => {
                    let Some(&byte) = input.first() else {
                        return Ok(Status::Partial);
                    };
                    let at = self.cursor.pos;
                    self.cursor.take(input, 1);
                    self.token_at = at;
                    if let Some(out) = self.start_token(byte, at, meta)? {
                        return Ok(Status::Complete(out));
                    }
                }
                State::Fixed { token, len } => {
                    let len = usize::from(len);
                    if !self.cursor.fill(input, len) {
                        return Ok(Status::Partial);
                    }
                    self.state = State::Token;
                    let at = self.cursor.pos - len as u64;
                    let body = &self.cursor.scratch[..len];
                    let out = match token {
                        TokenType::ReturnStatus => Out::ReturnStatus(
                            ReturnStatus::parse(body).map_err(|e| shift(e, at))?.0,
                        ),
                        _ => {
                            let kind = match token {
                                TokenType::DoneProc => DoneKind::DoneProc,
                                TokenType::DoneInProc => DoneKind::DoneInProc,
                                _ => DoneKind::Done,
                            };
                            Out::Done(
                                Done::parse(kind, body, self.version).map_err(|e| shift(e, at))?,
                            )
                        }
                    };
                    return Ok(Status::Complete(out));
                }
                State::Length { token, width } => {
                    let width = usize::from(width);
                    if !self.cursor.fill(input, width) {
                        return Ok(Status::Partial);
                    }
                    let len = self.cursor.scratch_uint(width) as u32;
                    self.state = State::Body {
                        token,
                        len,
                        have: 0,
                        at: self.cursor.pos,
                    };
                }
                State::Body {
                    token,
                    len,
                    have,
                    at,
                } => {
                    let total = len as usize;
                    if have == 0 && input.len() >= total {
                        let body = self.cursor.take(input, total);
                        self.state = State::Token;
                        return Ok(Status::Complete(Out::Body {
                            token,
                            src: Src::Input(body, at),
                            at,
                        }));
                    }
                    // Checked at every call: the caller might pass a smaller
                    // buffer than last time.
                    if total > buf.len() {
                        return Err(error_at(ErrorKind::BufferTooSmall(Site::token(token)), at));
                    }
                    let have = have as usize;
                    let taken = self.cursor.take(input, total - have);
                    buf[have..have + taken.len()].copy_from_slice(taken);
                    let have = have + taken.len();
                    if have < total {
                        self.state = State::Body {
                            token,
                            len,
                            have: have as u32,
                            at,
                        };
                        return Ok(Status::Partial);
                    }
                    self.state = State::Token;
                    return Ok(Status::Complete(Out::Body {
                        token,
                        src: Src::Buf(total),
                        at,
                    }));
                }
                State::Feature { copied, step, at } => {
                    return self.walk_features(input, buf, copied, step, at);
                }
                State::Meta(machine) => {
                    if let Some(done) = self.step_meta(machine, input, meta)? {
                        return Ok(done);
                    }
                }
                State::Row => {
                    let stream_large = self.large == LargeValues::Stream;
                    let step = self
                        .row
                        .step(&mut self.cursor, input, meta, buf, stream_large)?;
                    if self.row.is_idle() {
                        self.state = State::Token;
                    }
                    match step {
                        Status::Complete(Some(out)) => return Ok(Status::Complete(out)),
                        Status::Complete(None) => {}
                        Status::Partial => return Ok(Status::Partial),
                    }
                }
                // `next` waits, with no call here, while a row is being
                // gathered and there is no input.
                State::Gather { .. } => {
                    // The row machine reads the row from its start.
                    let kind = self.gather.kind();
                    self.begin_row(kind, meta, self.token_at)?;
                    self.cursor.pos = self.gather.base();
                    self.state = State::Replay { from: 0 };
                    if kind == RowKind::Row {
                        return Ok(Status::Complete(Out::RowStart(kind)));
                    }
                }
                State::Replay { from } => {
                    let gathered = self.gather.bytes();
                    if from == gathered.len() || self.row.is_idle() {
                        debug_assert_eq!(from, gathered.len(), "the gathered row ended early");
                        self.state = match self.row.is_idle() {
                            true => State::Token,
                            false => State::Row,
                        };
                        continue;
                    }
                    let mut pending = &gathered[from..];
                    let stream_large = self.large == LargeValues::Stream;
                    let step =
                        self.row
                            .step(&mut self.cursor, &mut pending, meta, buf, stream_large)?;
                    self.state = State::Replay {
                        from: gathered.len() - pending.len(),
                    };
                    if let Status::Complete(Some(out)) = step {
                        let (base, end) = (self.gather.base(), self.cursor.pos);
                        return Ok(Status::Complete(detach(out, base, end)));
                    }
                }
                State::Failed => {
                    return Err(error_at(
                        ErrorKind::UnexpectedEof(self.site()),
                        self.cursor.pos,
                    ));
                }
            }
        }
    }

    /// Runs the metadata machine one field on; `None`: go on stepping.
    /// Out of line: metadata is read once per result set, rows many times.
    #[inline(never)]
    fn step_meta(
        &mut self,
        mut machine: MetaMachine,
        input: &mut &[u8],
        meta: &mut Metadata<'_>,
    ) -> Result<Option<Status<Out<'static>>>> {
        let mut env = MetaEnv {
            cursor: &mut self.cursor,
            version: self.version,
            stamp: &mut self.meta_stamp,
            generation: &mut self.generation,
            skipped_columns: self.row.skipped_columns(),
        };
        let step = machine.step(&mut env, input, meta)?;
        self.state = State::Meta(machine);
        let out = match step {
            MetaStep::Partial => return Ok(Some(Status::Partial)),
            MetaStep::Field => return Ok(None),
            MetaStep::Count(columns) => Out::ColMetadataStart { columns },
            MetaStep::Columns { no_metadata } => {
                self.state = State::Token;
                Out::ColMetadata { no_metadata }
            }
            MetaStep::ReturnValue => {
                self.row.begin_return_value();
                self.state = State::Row;
                Out::ReturnValue
            }
        };
        Ok(Some(Status::Complete(out)))
    }

    /// Starts the token whose byte was just read at `at`.
    fn start_token(
        &mut self,
        byte: u8,
        at: u64,
        meta: &mut Metadata<'_>,
    ) -> Result<Option<Out<'static>>> {
        let token = TokenType::from(byte);
        self.state = match token {
            TokenType::Done | TokenType::DoneProc | TokenType::DoneInProc => State::Fixed {
                token,
                len: Done::body_len(self.version) as u8,
            },
            TokenType::ReturnStatus => State::Fixed {
                token,
                len: ReturnStatus::BODY_LEN as u8,
            },
            TokenType::Error
            | TokenType::Info
            | TokenType::EnvChange
            | TokenType::LoginAck
            | TokenType::Order
            | TokenType::Sspi
            | TokenType::TabName
            | TokenType::ColInfo => State::Length { token, width: 2 },
            TokenType::FedAuthInfo | TokenType::SessionState => State::Length { token, width: 4 },
            TokenType::FeatureExtAck => State::Feature {
                copied: 0,
                step: FeatureStep::Id,
                at: self.cursor.pos,
            },
            TokenType::ColMetadata => {
                if self.column_encryption {
                    return Err(error_at(ErrorKind::Unsupported(Site::token(token)), at));
                }
                State::Meta(MetaMachine::col_metadata())
            }
            TokenType::ReturnValue => State::Meta(MetaMachine::return_value()),
            TokenType::Row => {
                self.begin_row(RowKind::Row, meta, at)?;
                self.state = State::Row;
                return Ok(Some(Out::RowStart(RowKind::Row)));
            }
            TokenType::NbcRow => {
                self.begin_row(RowKind::NbcRow, meta, at)?;
                State::Row
            }
            TokenType::DataClassification | TokenType::AltMetadata | TokenType::AltRow => {
                return Err(error_at(ErrorKind::UnsupportedToken(token), at));
            }
            TokenType::Unknown(byte) => {
                return Err(error_at(ErrorKind::UnknownToken(byte), at));
            }
        };
        Ok(None)
    }

    /// Walks FEATUREEXTACK entries to find the token's end, looking at each
    /// byte once. The body is borrowed when it ends in this chunk and
    /// nothing was copied yet; otherwise what was walked is copied into the
    /// buffer.
    fn walk_features<'c>(
        &mut self,
        input: &mut &'c [u8],
        buf: &mut [u8],
        copied: u32,
        mut step: FeatureStep,
        at: u64,
    ) -> Result<Status<Out<'c>>> {
        let mut i = 0usize;
        let mut ended = false;
        while i < input.len() && !ended {
            match step {
                FeatureStep::Id => {
                    if input[i] == 0xFF {
                        ended = true;
                    } else {
                        step = FeatureStep::Len { have: 0, len: 0 };
                    }
                    i += 1;
                }
                FeatureStep::Len { have, len } => {
                    let len = len | u32::from(input[i]) << (8 * have);
                    i += 1;
                    step = match have {
                        3 => FeatureStep::Data { left: len },
                        _ => FeatureStep::Len {
                            have: have + 1,
                            len,
                        },
                    };
                }
                FeatureStep::Data { left } => {
                    let n = (left as usize).min(input.len() - i);
                    i += n;
                    let left = left - n as u32;
                    if left == 0 {
                        step = FeatureStep::Id;
                    } else {
                        step = FeatureStep::Data { left };
                    }
                }
            }
        }
        let site = Site::token(TokenType::FeatureExtAck);
        if ended && copied == 0 {
            let body = self.cursor.take(input, i);
            self.state = State::Token;
            return Ok(Status::Complete(Out::Body {
                token: TokenType::FeatureExtAck,
                src: Src::Input(body, at),
                at,
            }));
        }
        let from = copied as usize;
        let to = from.checked_add(i).filter(|&to| to <= buf.len());
        let Some(to) = to else {
            return Err(error_at(ErrorKind::BufferTooSmall(site), at));
        };
        let walked = self.cursor.take(input, i);
        buf[from..to].copy_from_slice(walked);
        if ended {
            self.state = State::Token;
            return Ok(Status::Complete(Out::Body {
                token: TokenType::FeatureExtAck,
                src: Src::Buf(to),
                at,
            }));
        }
        self.state = State::Feature {
            copied: to as u32,
            step,
            at,
        };
        Ok(Status::Partial)
    }

    /// Turns a step's output into an event, borrowing what it needs. An
    /// error stops the reader here (the caller cannot, once the event
    /// borrows it).
    fn event<'r, 'c: 'r, 'a: 'r>(
        &'r mut self,
        out: Out<'c>,
        meta: &'r Metadata<'a>,
        buf: &'r [u8],
    ) -> Result<Event<'r>> {
        Ok(match out {
            Out::Body { token, src, at } => {
                let body: &'r [u8] = match src {
                    Src::Input(bytes, _) => bytes,
                    Src::Buf(n) => &buf[..n],
                    // Bodies are never gathered in scratch, nor in a row.
                    Src::Scratch(_) | Src::Gathered { .. } => &[],
                };
                match self.body_token(token, body) {
                    Ok(token) => Event::Token(token),
                    Err(e) => return Err(self.fail(shift(e, at))),
                }
            }
            Out::Done(done) => Event::Token(Token::Done(done)),
            Out::ReturnStatus(value) => Event::Token(Token::ReturnStatus(ReturnStatus(value))),
            Out::ColMetadataStart { columns } => Event::ColMetadataStart { columns },
            Out::ColMetadata { no_metadata } => Event::Token(Token::ColMetadata(ColMetadata {
                columns: meta.columns(),
                no_metadata,
            })),
            Out::ReturnValue => match meta.return_value() {
                Some(rv) => Event::Token(Token::ReturnValue(*rv)),
                None => {
                    let site = Site::token(TokenType::ReturnValue);
                    return Err(self.fail(error_at(ErrorKind::NoMetadata(site), self.cursor.pos)));
                }
            },
            Out::RowStart(kind) => Event::RowStart(kind),
            Out::Value { column, ret, src } => {
                let type_info = match self.row.type_info(meta, column, ret, self.cursor.pos) {
                    Ok(type_info) => type_info,
                    Err(e) => return Err(self.fail(e)),
                };
                let (data, source): (Option<&'r [u8]>, _) = match src {
                    None => (None, None),
                    Some(Src::Input(bytes, at)) => (
                        Some(bytes),
                        Some(ValueSource::Chunk {
                            offset: (at - self.call_at) as usize,
                        }),
                    ),
                    Some(Src::Buf(n)) => (Some(&buf[..n]), Some(ValueSource::Buffer { offset: 0 })),
                    Some(Src::Scratch(n)) => {
                        (Some(&self.cursor.scratch[..n]), Some(ValueSource::Inline))
                    }
                    Some(Src::Gathered { start, len }) => (
                        Some(&self.gather.bytes()[start..start + len]),
                        Some(ValueSource::Inline),
                    ),
                };
                Event::Value {
                    column,
                    value: Value::new_unchecked(type_info, data),
                    source,
                }
            }
            Out::ValueStart { column, ret, total } => {
                match self.row.type_info(meta, column, ret, self.cursor.pos) {
                    Ok(type_info) => Event::ValueStart {
                        column,
                        type_info,
                        total,
                    },
                    Err(e) => return Err(self.fail(e)),
                }
            }
            Out::ValueChunk { column, bytes } => Event::ValueChunk { column, bytes },
            Out::GatheredChunk { column, start, len } => Event::ValueChunk {
                column,
                bytes: &self.gather.bytes()[start..start + len],
            },
            Out::ValueEnd { column } => Event::ValueEnd { column },
            Out::RowEnd => Event::RowEnd,
        })
    }

    /// A ROW or NBCROW token was read at `at`: checks that the caller's
    /// metadata is the one this reader filled, and starts the row machine.
    fn begin_row(&mut self, kind: RowKind, meta: &Metadata<'_>, at: u64) -> Result<()> {
        if self.generation == 0 || meta.generation() != self.generation {
            return Err(error_at(
                ErrorKind::NoMetadata(Site::token(kind.token())),
                at,
            ));
        }
        self.row.begin_row(kind, meta.columns().len() as u16);
        Ok(())
    }

    /// Decodes a length-prefixed token's complete body (offsets relative to
    /// the body), and applies what it changes in the reader.
    fn body_token<'b>(&mut self, token: TokenType, body: &'b [u8]) -> Result<Token<'b>> {
        Ok(match token {
            TokenType::Error => Token::Error(Message::parse(token, body, self.version)?),
            TokenType::Info => Token::Info(Message::parse(token, body, self.version)?),
            TokenType::EnvChange => Token::EnvChange(EnvChange::parse(body)?),
            TokenType::LoginAck => {
                let ack = LoginAck::parse(body)?;
                match ack.version() {
                    Some(version) => self.version = version,
                    None => {
                        return Err(Error::new(
                            ErrorKind::UnsupportedVersion(ack.tds_version),
                            1,
                        ));
                    }
                }
                Token::LoginAck(ack)
            }
            TokenType::Order => Token::Order(Order::parse(body)?),
            TokenType::Sspi => Token::Sspi(Sspi::parse(body)?),
            TokenType::FedAuthInfo => Token::FedAuthInfo(FedAuthInfo::parse(body)?),
            TokenType::SessionState => Token::SessionState(SessionState::parse(body)?),
            TokenType::FeatureExtAck => {
                let ack = FeatureExtAck::parse(body)?;
                if ack.get(FeatureId::ColumnEncryption).is_some() {
                    self.column_encryption = true;
                }
                Token::FeatureExtAck(ack)
            }
            _ => Token::Raw { token, data: body },
        })
    }
}

/// A step's output over the gathered row, whose first byte is at stream
/// offset `base`, with its borrows of that row turned into places in it;
/// the step ended at stream offset `end`.
fn detach(out: Out<'_>, base: u64, end: u64) -> Out<'static> {
    let place = |src: Src<'_>| match src {
        Src::Input(bytes, at) => Src::Gathered {
            start: (at - base) as usize,
            len: bytes.len(),
        },
        Src::Scratch(n) => Src::Scratch(n),
        Src::Buf(n) => Src::Buf(n),
        Src::Gathered { start, len } => Src::Gathered { start, len },
    };
    match out {
        Out::Body { token, src, at } => Out::Body {
            token,
            src: place(src),
            at,
        },
        Out::Value { column, ret, src } => Out::Value {
            column,
            ret,
            src: src.map(place),
        },
        // A piece is the last thing a step takes.
        Out::ValueChunk { column, bytes } => Out::GatheredChunk {
            column,
            start: (end - base) as usize - bytes.len(),
            len: bytes.len(),
        },
        Out::GatheredChunk { column, start, len } => Out::GatheredChunk { column, start, len },
        Out::Done(done) => Out::Done(done),
        Out::ReturnStatus(status) => Out::ReturnStatus(status),
        Out::ColMetadataStart { columns } => Out::ColMetadataStart { columns },
        Out::ColMetadata { no_metadata } => Out::ColMetadata { no_metadata },
        Out::ReturnValue => Out::ReturnValue,
        Out::RowStart(kind) => Out::RowStart(kind),
        Out::ValueStart { column, ret, total } => Out::ValueStart { column, ret, total },
        Out::ValueEnd { column } => Out::ValueEnd { column },
        Out::RowEnd => Out::RowEnd,
    }
}

/// Moves an error found in a part (offsets relative to it) to the part's
/// stream offset `at`.
pub(super) fn shift(e: Error, at: u64) -> Error {
    error_at(e.kind(), at.saturating_add(e.offset() as u64))
}

#[cfg(test)]
mod tests {
    use super::*;
    use bumpalo::Bump;
    use std::string::{String, ToString};
    use std::vec::Vec;

    /// The events of `bytes` fed `chunk` bytes at a time, printed.
    fn read(bytes: &[u8], chunk: usize, version: TdsVersion) -> Result<Vec<String>> {
        let bump = Bump::new();
        let mut meta = Metadata::new(&bump);
        let mut reader = Reader::new(version);
        let mut buf = [0u8; 256];
        let mut out = Vec::new();
        for mut piece in bytes.chunks(chunk) {
            while let Status::Complete(event) = reader.next(&mut piece, &mut meta, &mut buf)? {
                out.push(event.to_string());
            }
        }
        reader.finish()?;
        Ok(out)
    }

    #[test]
    fn envchange_resumes_at_every_byte() {
        // tedious's "should parse database change".
        let bytes = crate::hex::vec("e30f0001036e0065007700036f006c006400");
        for chunk in 1..=bytes.len() {
            assert_eq!(
                read(&bytes, chunk, TdsVersion::V7_2).unwrap(),
                [r#"ENVCHANGE database new="new" old="old""#]
            );
        }
    }

    #[test]
    fn done_width_follows_the_version() {
        let done = crate::hex::vec("fd10000100020000000000000000");
        assert_eq!(
            read(&done[..13], 1, TdsVersion::V7_4).unwrap(),
            ["DONE status=0x0010 cur_cmd=0x0001 rows=2"]
        );
        // The same bytes in 7.1: an 8-byte DONE, then a DONE token byte 0x00.
        let e = read(&done, 1, TdsVersion::V7_1).unwrap_err();
        assert_eq!((e.kind(), e.offset()), (ErrorKind::UnknownToken(0), 9));
    }

    #[test]
    fn loginack_switches_the_version() {
        // tedious's LOGINACK vector: TDS 7.2, then a 12-byte DONE.
        let mut bytes = crate::hex::vec("ad1200017209000204700072006f00670001020304");
        bytes.extend(crate::hex::vec("fd000000000000000000000000"));
        let bump = Bump::new();
        let mut meta = Metadata::new(&bump);
        let mut reader = Reader::new(TdsVersion::V7_1);
        let mut input = &bytes[..];
        reader.next(&mut input, &mut meta, &mut []).unwrap();
        assert_eq!(reader.version(), TdsVersion::V7_2);
        assert!(matches!(
            reader.next(&mut input, &mut meta, &mut []).unwrap(),
            Status::Complete(Event::Token(Token::Done(_)))
        ));
        assert!(input.is_empty());
    }

    #[test]
    fn token_types_are_the_token_bytes() {
        // One of each, by the token values of MS-TDS 2.2.7.
        let bytes = crate::hex::vec(concat!(
            "810100000000000100260400",
            "aa0e000000000000000000000000000000",
            "ab0e000000000000000000000000000000",
            "e30f0001036e0065007700036f006c006400",
            "ad1200017209000204700072006f00670001020304",
            "7900000000",
            "a902000100",
            "ed0100aa",
            "a4010000",
            "fd000000000000000000000000",
            "fe000000000000000000000000",
            "ff000000000000000000000000",
        ));
        let bump = Bump::new();
        let mut meta = Metadata::new(&bump);
        let mut reader = Reader::new(TdsVersion::V7_4);
        let mut input = &bytes[..];
        let mut types = Vec::new();
        while let Status::Complete(event) = reader.next(&mut input, &mut meta, &mut []).unwrap() {
            if let Event::Token(token) = event {
                types.push(u8::from(token.token_type()));
            }
        }
        assert!(input.is_empty());
        assert_eq!(
            types,
            [
                0x81, 0xAA, 0xAB, 0xE3, 0xAD, 0x79, 0xA9, 0xED, 0xA4, 0xFD, 0xFE, 0xFF
            ]
        );
    }

    #[test]
    fn states_have_names() {
        let bytes = crate::hex::vec("ab300003000000");
        let bump = Bump::new();
        let mut meta = Metadata::new(&bump);
        let mut reader = Reader::new(TdsVersion::V7_4);
        let mut input = &bytes[..2];
        assert!(
            reader
                .next(&mut input, &mut meta, &mut [])
                .unwrap()
                .is_partial()
        );
        assert_eq!(reader.state().to_string(), "in INFO, reading its length");
        let mut input = &bytes[2..];
        let mut buf = [0u8; 64];
        assert!(
            reader
                .next(&mut input, &mut meta, &mut buf)
                .unwrap()
                .is_partial()
        );
        assert_eq!(reader.state().to_string(), "in INFO, 4 of 48 body bytes");
        let e = reader.finish().unwrap_err();
        assert_eq!(
            e.to_string(),
            "stream ends inside a token in INFO at byte 7"
        );
        let _: String = e.kind().to_string();
    }
}
