//! Reading a SQL Server response row by row: .NET's
//! `SqlDataReader.ReadAsync`, `IsDBNullAsync`, `GetFieldValue<T>` and
//! `NextResultAsync`, with no heap allocation per row and no re-parsing.
//!
//! # The vocabulary
//! - The *source* is a server-to-client byte stream of TDS packets, headers
//!   included: any [`futures_io::AsyncRead`], or a blocking
//!   [`std::io::Read`] wrapped in [`BlockingRead`].
//! - A *response* is what the server sends for one request: one message
//!   (packets up to the one marked end of message, EOM) holding any number
//!   of result sets, ERROR and INFO messages and DONE tokens
//!   [MS-TDS 2.2.4, 2.2.7].
//! - A *result set* is a COLMETADATA, its rows (ROW or NBCROW), and the DONE
//!   (or DONEINPROC) after them. [`TdsStream::columns`] describes the
//!   current one.
//! - The *current row* is the row the last [`TdsStream::read_row`] read.
//!   Its values stay readable, through [`TdsStream::get`] and
//!   [`TdsStream::field`], until the next `read_row` or `next_result`.
//!
//! # How values are kept
//!
//! The core [`Reader`] hands out each value as an event that borrows the
//! bytes it was fed, and the stream refills its input buffer from the start
//! on every read, so a row split across reads would lose its earlier values
//! while its later ones arrive. `read_row` reads the whole row, and keeps a
//! small table of where each column's bytes are:
//!
//! - A row that lies whole in what was read (the common case) is read in
//!   one walk ([`Reader::whole_row`]), with no step per value. Its values
//!   stay where they are in the input buffer, which is not read into again
//!   while the row is current; only a PLP value sent in several chunks is
//!   joined, in the *row buffer*, a byte buffer sized when the stream is
//!   made and reused for every row.
//! - A row split across reads has every non-NULL value's bytes copied,
//!   once, into the row buffer: one `memcpy` for a value that lay whole in
//!   what was read. A value split across reads (or a PLP value in several
//!   chunks) is assembled by the core reader directly in the row buffer's
//!   free space, so it is not copied again.
//! - A text value (CHAR, VARCHAR, TEXT, NCHAR, NVARCHAR, NTEXT, XML) gets
//!   its UTF-8 form only when it is first asked for (`get::<&str>`,
//!   [`Field::text`]), in a string its column keeps from row to row; later
//!   calls for the same value borrow that string, with no second pass over
//!   the text.
//!
//! Keeping every split row in the input buffer instead would mean a buffer
//! as large as the largest row and moving the unread rest down before each
//! read; copying costs one pass over the value's bytes, keeps the input
//! buffer at one packet, and makes the work O(bytes). Nothing is re-parsed:
//! when the source has no more bytes yet, the reader keeps its place inside
//! the value (or PLP chunk, or length prefix) and the future returns
//! `Pending`.
//!
//! The row buffer must hold a whole row: every non-NULL value's bytes. A
//! row that does not fit is an error of kind [`ErrorKind::BufferTooSmall`],
//! naming the column; the stream stops there. Only rows shorter than the
//! row buffer are read in one walk, so a row is refused or not whatever the
//! reads are. The default is 64 KiB ([`StreamOptions`]); a result set with
//! `nvarchar(max)` or `varbinary(max)` values needs room for its largest
//! row.
//!
//! # Memory and allocations
//!
//! | what | when |
//! |---|---|
//! | the input buffer, the row buffer, the message store | once, by [`TdsStream::new`] |
//! | the column table | at a COLMETADATA with more columns than any before |
//! | column metadata | in the stream's arena, at each COLMETADATA |
//! | the arena's pairing with new metadata | two small boxes at each COLMETADATA |
//! | a row: `read_row`, `is_null`, `get` of a borrowed or `Copy` type | nothing |
//! | the first `get::<&str>` of a text value | only when its column's string must grow: for a form longer than any of that column's before |
//! | `get::<String>`, `get::<Vec<u8>>` | the value's copy |
//! | an error | its message |
//!
//! The sync calls (`read_row_sync`, ...) poll the future once with a no-op
//! waker, and only when the source is not ready (never, for
//! [`BlockingRead`]) hand it to `pollster::block_on`, which allocates its
//! waker.
//!
//! Column metadata (names and types) goes into an arena the stream owns
//! ([`OwnedMetadata`]). The stream resets it
//! as each COLMETADATA with new columns begins, when the last result set's
//! columns are done with, so the arena holds one result set's columns
//! (and the RETURNVALUE headers since) however many result sets a
//! connection reads. Its limit, [`StreamOptions::arena_limit`] (16 MiB by
//! default), bounds it against a hostile server: a COLMETADATA that does
//! not fit is an error of kind [`ErrorKind::ArenaFull`] at the offset of
//! the field that did not fit (its column count, for the column table).
//!
//! # Async and sync
//!
//! The async calls are the one implementation. Their futures are
//! [`std::future::poll_fn`]s over `&mut self`: small, `Unpin`, never
//! boxed. All of the reading state lives in the stream, not the future, so
//! a future dropped before it completes loses nothing: the next call goes
//! on from the same byte (cancel-safe). The sync calls drive the same
//! futures on the calling thread.
//!
//! # Errors
//!
//! A defect in the stream is an [`io::Error`] of kind
//! [`InvalidData`](io::ErrorKind::InvalidData) whose inner error is the
//! core's [`tds::Error`](leanwire_core::tds::Error): its text names the
//! token, the column and the byte offset (in the token stream, packet
//! headers not counted; for a bad or cut packet, in the byte stream), and
//! `get_ref()` and `downcast_ref` give it back. After one, the stream
//! stops: every later call returns it again. A source that ends inside a
//! response, between two of its packets, is
//! [`UnexpectedEof`](io::ErrorKind::UnexpectedEof). The source's own errors
//! pass through unchanged (`Interrupted` is retried), and the stream can
//! be polled again after them. Asking for what is not there (no
//! current row, a column out of range, an `i32` from a `nvarchar`) is
//! [`InvalidInput`](io::ErrorKind::InvalidInput); NULL read into a type
//! that is not an `Option` is `InvalidData`.
//!
//! There is no encoder: a client never sends result sets.
//!
//! # Reading a response
//!
//! ```
//! use leanwire_native::tds::{BlockingRead, TdsStream};
//!
//! // One packet: COLMETADATA (an int "id" and an nvarchar(10) "n"), a ROW
//! // (1, "hi"), an NBCROW (2, NULL), and DONE with a row count of 2.
//! let payload = [
//!     0x81, 2, 0, //
//!     0, 0, 0, 0, 0, 0, 0x38, 2, b'i', 0, b'd', 0, //
//!     0, 0, 0, 0, 1, 0, 0xe7, 20, 0, 9, 4, 0xd0, 0, 0x34, 1, b'n', 0, //
//!     0xd1, 1, 0, 0, 0, 4, 0, b'h', 0, b'i', 0, //
//!     0xd2, 0b10, 2, 0, 0, 0, //
//!     0xfd, 0x10, 0, 0xc1, 0, 2, 0, 0, 0, 0, 0, 0, 0,
//! ];
//! let mut packet = vec![0x04, 0x01, 0, (8 + payload.len()) as u8, 0, 0, 1, 0];
//! packet.extend_from_slice(&payload);
//!
//! // Blocking, over a byte slice (a `TcpStream` works the same).
//! let mut stream = TdsStream::new(BlockingRead(&packet[..]));
//! let mut seen = Vec::new();
//! while stream.read_row_sync()? {
//!     let id: i32 = stream.get(0)?;
//!     let name: Option<&str> = stream.get(1)?;
//!     seen.push((id, name.map(str::to_owned), stream.is_null_sync(1)?));
//! }
//! assert_eq!(seen, [(1, Some("hi".to_owned()), false), (2, None, true)]);
//! assert_eq!(stream.columns()[1].name.to_string(), "n");
//! assert_eq!(stream.done().and_then(|done| done.row_count()), Some(2));
//! assert!(!stream.next_result_sync()?);
//!
//! // The same, async, over any `futures_io::AsyncRead`.
//! let mut stream = TdsStream::new(&packet[..]);
//! let ids = pollster::block_on(async {
//!     let mut ids = Vec::new();
//!     while stream.read_row().await? {
//!         ids.push(stream.get::<i32>(0)?);
//!     }
//!     Ok::<_, std::io::Error>(ids)
//! })?;
//! assert_eq!(ids, [1, 2]);
//! # Ok::<(), std::io::Error>(())
//! ```

use std::cell::{Cell, OnceCell};
use std::fmt;
use std::future::{Future, poll_fn};
use std::io::{self, Read};
use std::pin::Pin;
use std::task::{Context, Poll, Waker, ready};

use futures_io::AsyncRead;
use leanwire_core::tds::{
    CodePage, Column, DEFAULT_ARENA_LIMIT, DataType, Date, DateTime, DateTime2, DateTimeOffset,
    Decimal, Deframer, Done, ErrorKind, Event, Guid, INLINE_VALUE_LEN, Message, Money,
    OwnedMetadata, Reader, ReaderState, RowKind, Site, SmallDateTime, SqlValue, Status, TdsVersion,
    Time, Token, TypeInfo, Ucs2Str, Value, ValueSource,
};

/// The input buffer's default size: 8 KiB, a common packet size. Any size
/// works (packets may span reads); the packet size the connection
/// negotiated is a good one.
pub const DEFAULT_INPUT_LEN: usize = 8 * 1024;

/// The row buffer's default size: 64 KiB. See the [module docs](self) for
/// what it must hold.
pub const DEFAULT_ROW_BUFFER_LEN: usize = 64 * 1024;

/// How many ERROR and INFO messages a stream keeps: the most recent ones.
pub const MAX_MESSAGES: usize = 8;

/// The most UCS-2 bytes of a message's text that are kept (512 UTF-16
/// code units); a longer text is cut, and says so.
pub const MESSAGE_TEXT_LEN: usize = 1024;

/// The most UCS-2 bytes of a message's server and procedure names that
/// are kept (128 code units, SQL Server's limit for names).
pub const MESSAGE_NAME_LEN: usize = 256;

/// How a [`TdsStream`] is sized, and the TDS version it reads.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct StreamOptions {
    /// The TDS version the login agreed on (LOGINACK in the stream changes
    /// it). Default: 7.4.
    pub version: TdsVersion,
    /// Bytes asked of the source at a time: the input buffer's size.
    /// Default: [`DEFAULT_INPUT_LEN`]. At least 1.
    pub input_len: usize,
    /// The row buffer's size. Default: [`DEFAULT_ROW_BUFFER_LEN`].
    pub row_buffer_len: usize,
    /// The most bytes the metadata arena may hold: one result set's
    /// columns, and the RETURNVALUE headers since its COLMETADATA. Past
    /// it, reading fails with [`ErrorKind::ArenaFull`]. Default:
    /// [`DEFAULT_ARENA_LIMIT`] (16 MiB).
    pub arena_limit: usize,
}

impl Default for StreamOptions {
    fn default() -> Self {
        StreamOptions {
            version: TdsVersion::V7_4,
            input_len: DEFAULT_INPUT_LEN,
            row_buffer_len: DEFAULT_ROW_BUFFER_LEN,
            arena_limit: DEFAULT_ARENA_LIMIT,
        }
    }
}

/// A result-set reader over a server's TDS byte stream: .NET's
/// `SqlDataReader`, row by row, with no heap allocation per row.
///
/// See the [module docs](self) for how values are kept, what allocates,
/// and an example.
pub struct TdsStream<R> {
    engine: Engine<R>,
    meta: OwnedMetadata,
}

impl<R: AsyncRead + Unpin> TdsStream<R> {
    /// A stream over `source` (at the start of a response, or between
    /// responses), with the default [`StreamOptions`].
    pub fn new(source: R) -> Self {
        TdsStream::with_options(source, StreamOptions::default())
    }

    /// A stream over `source` sized by `options`.
    pub fn with_options(source: R, options: StreamOptions) -> Self {
        TdsStream {
            engine: Engine::new(source, options),
            meta: OwnedMetadata::new(options.arena_limit),
        }
    }

    /// Reads up to the first result set's COLMETADATA, if that has not
    /// happened yet: what `ExecuteReader` does before it returns, so that
    /// [`columns`](Self::columns) describes the first result set before any
    /// row is read. `true` if the response has a result set.
    /// [`read_row`](Self::read_row) and [`next_result`](Self::next_result)
    /// do this themselves.
    pub fn open(&mut self) -> impl Future<Output = io::Result<bool>> + '_ {
        poll_fn(move |cx| self.poll_open(cx))
    }

    /// Reads the next row of the current result set: `true` if it is now
    /// the current row, `false` if the result set ended (its DONE was
    /// read; [`done`](Self::done) has it) or the response did. After
    /// `false`, it keeps returning `false` until
    /// [`next_result`](Self::next_result).
    ///
    /// The whole row is read, so [`is_null`](Self::is_null) and
    /// [`get`](Self::get) never wait. The previous row stops being current
    /// at the first poll. Dropping the future before it completes loses
    /// nothing: the next call goes on with the same row, from the same
    /// byte.
    pub fn read_row(&mut self) -> impl Future<Output = io::Result<bool>> + '_ {
        poll_fn(move |cx| self.poll_read_row(cx))
    }

    /// Whether column `column` (0-based) of the current row is NULL,
    /// without decoding the value: .NET's `IsDBNullAsync`.
    ///
    /// As `read_row` reads whole rows, the future is ready at its first
    /// poll; it is a future so that callers written for a reader that
    /// reads ahead (SqlClient's sequential access) need no change.
    ///
    /// # Errors
    ///
    /// [`InvalidInput`](io::ErrorKind::InvalidInput) without a current row
    /// or for a column out of range.
    pub fn is_null(&mut self, column: usize) -> impl Future<Output = io::Result<bool>> + '_ {
        poll_fn(move |_| Poll::Ready(self.field(column).map(|field| field.is_null())))
    }

    /// Skips the rest of the current result set (its remaining rows are
    /// passed over without being copied or decoded) and moves to the next
    /// one: `true` if another COLMETADATA followed, `false` if the response
    /// ended. DONE tokens without a result set (an `UPDATE`'s row count)
    /// are passed over on the way, and [`done`](Self::done) keeps the
    /// latest.
    pub fn next_result(&mut self) -> impl Future<Output = io::Result<bool>> + '_ {
        poll_fn(move |cx| self.poll_next_result(cx))
    }

    /// [`open`](Self::open), polled: the building block for hand-written
    /// futures.
    pub fn poll_open(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<bool>> {
        self.engine.poll_open(&mut self.meta, cx)
    }

    /// [`read_row`](Self::read_row), polled.
    pub fn poll_read_row(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<bool>> {
        self.engine.poll_read_row(&mut self.meta, cx)
    }

    /// [`next_result`](Self::next_result), polled.
    pub fn poll_next_result(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<bool>> {
        self.engine.poll_next_result(&mut self.meta, cx)
    }

    /// [`open`](Self::open), on the calling thread.
    pub fn open_sync(&mut self) -> io::Result<bool> {
        wait(self.open())
    }

    /// [`read_row`](Self::read_row), on the calling thread.
    pub fn read_row_sync(&mut self) -> io::Result<bool> {
        wait(self.read_row())
    }

    /// [`is_null`](Self::is_null), on the calling thread.
    pub fn is_null_sync(&mut self, column: usize) -> io::Result<bool> {
        wait(self.is_null(column))
    }

    /// [`next_result`](Self::next_result), on the calling thread.
    pub fn next_result_sync(&mut self) -> io::Result<bool> {
        wait(self.next_result())
    }
}

impl<R> TdsStream<R> {
    /// Column `column` (0-based) of the current row, as a [`FromSql`] type:
    /// .NET's `GetFieldValue<T>`. Borrowed types (`&str`, `&[u8]`,
    /// [`Ucs2Str`], [`SqlValue`]) borrow the row buffer; `Option<T>` reads
    /// NULL as `None`.
    ///
    /// # Errors
    ///
    /// [`InvalidInput`](io::ErrorKind::InvalidInput) without a current row,
    /// for a column out of range, or for a type the column's values do not
    /// convert to; [`InvalidData`](io::ErrorKind::InvalidData) for NULL
    /// into a type that is not an `Option`.
    pub fn get<'r, T: FromSql<'r>>(&'r self, column: usize) -> io::Result<T> {
        T::from_sql(&self.field(column)?)
    }

    /// Column `column` (0-based) of the current row: its type, its bytes,
    /// and its UTF-8 text, without converting anything.
    ///
    /// # Errors
    ///
    /// As for [`get`](Self::get), but never for the type.
    pub fn field(&self, column: usize) -> io::Result<Field<'_>> {
        self.engine.field(self.meta.columns(), column)
    }

    /// Whether a row is current: the last `read_row` returned `true`.
    pub fn has_row(&self) -> bool {
        self.engine.has_row
    }

    /// The current result set's columns, in order: names, types, flags.
    /// Empty before the first COLMETADATA (see [`open`](Self::open)). They
    /// stay after the result set's rows end, until the next COLMETADATA.
    pub fn columns(&self) -> &[Column<'_>] {
        self.meta.columns()
    }

    /// The index of the first column named `name`: .NET's `GetOrdinal`.
    pub fn ordinal(&self, name: &str) -> Option<usize> {
        self.columns().iter().position(|c| c.name == name)
    }

    /// Bytes the metadata arena holds: about one result set's columns
    /// (see [`StreamOptions::arena_limit`]).
    pub fn arena_allocated_bytes(&self) -> usize {
        self.meta.allocated_bytes()
    }

    /// The latest DONE, DONEPROC or DONEINPROC read: after `read_row`
    /// returned `false`, the one that ended the result set, with its row
    /// count ([`Done::row_count`]).
    pub fn done(&self) -> Option<Done> {
        self.engine.done
    }

    /// The ERROR and INFO messages kept: the last [`MAX_MESSAGES`], oldest
    /// first. A message does not stop the stream; a failed statement shows
    /// as an ERROR here and a DONE with [`DoneStatus::error`](leanwire_core::tds::DoneStatus::error).
    pub fn messages(&self) -> impl ExactSizeIterator<Item = &ServerMessage> + '_ {
        self.engine.messages.iter()
    }

    /// How many ERROR and INFO messages were read in all, including those
    /// no longer kept.
    pub fn message_count(&self) -> u64 {
        self.engine.messages.total
    }

    /// Forgets the messages kept (the count goes on).
    pub fn clear_messages(&mut self) {
        self.engine.messages.clear();
    }

    /// Where the core reader is in the token stream, by name.
    pub fn reader_state(&self) -> ReaderState {
        self.engine.reader.state()
    }

    /// Bytes of the token stream read so far (packet headers not counted):
    /// the offsets that errors name count from here.
    pub fn offset(&self) -> u64 {
        self.engine.reader.offset()
    }

    /// Makes the stream ready for the next response on the same source,
    /// once this one was read to its end (`next_result` returned `false`).
    ///
    /// # Errors
    ///
    /// [`InvalidInput`](io::ErrorKind::InvalidInput) if the current
    /// response has not ended.
    pub fn next_response(&mut self) -> io::Result<()> {
        if self.engine.phase != Phase::End {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "the response has not ended: call next_result until it returns false",
            ));
        }
        self.engine.phase = Phase::Start;
        self.engine.result_sets = 0;
        self.engine.done = None;
        Ok(())
    }

    /// The source.
    pub fn get_ref(&self) -> &R {
        &self.engine.source
    }

    /// The source, to write requests to (for a duplex stream).
    pub fn get_mut(&mut self) -> &mut R {
        &mut self.engine.source
    }

    /// The source back. Bytes already read from it and not yet used are
    /// lost; at the end of a response there are none, as a server sends
    /// nothing more before the next request.
    pub fn into_inner(self) -> R {
        self.engine.source
    }
}

impl<R> fmt::Debug for TdsStream<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TdsStream")
            .field("phase", &self.engine.phase)
            .field("has_row", &self.engine.has_row)
            .field("columns", &self.columns().len())
            .field("offset", &self.engine.reader.offset())
            .field("state", &format_args!("{}", self.engine.reader.state()))
            .finish_non_exhaustive()
    }
}

/// A blocking [`Read`] as an [`AsyncRead`], for blocking callers: each
/// poll calls [`Read::read`] and blocks the thread until it returns, so
/// that one [`TdsStream`] works over a `std::net::TcpStream`, a file or a
/// `&[u8]`, driven by the `_sync` calls.
///
/// Do not hand it to an async executor: it would block the executor's
/// thread. A non-blocking source's `WouldBlock` is passed on as an error.
#[derive(Clone, Debug, Default)]
pub struct BlockingRead<R>(pub R);

impl<R: Read + Unpin> AsyncRead for BlockingRead<R> {
    fn poll_read(
        self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
        buf: &mut [u8],
    ) -> Poll<io::Result<usize>> {
        Poll::Ready(self.get_mut().0.read(buf))
    }
}

/// One column of the current row, unconverted: what [`FromSql`] converts
/// from. It borrows the stream's row buffer and column metadata.
#[derive(Copy, Clone, Debug)]
pub struct Field<'r> {
    index: usize,
    column: &'r Column<'r>,
    bytes: Option<&'r [u8]>,
    /// Where the value's UTF-8 form is kept once made.
    text: &'r TextForm,
}

impl<'r> Field<'r> {
    /// The column's index (0-based).
    pub fn index(&self) -> usize {
        self.index
    }

    /// The column: its name, type and flags.
    pub fn column(&self) -> &'r Column<'r> {
        self.column
    }

    /// The column's type.
    pub fn type_info(&self) -> &'r TypeInfo<'r> {
        &self.column.type_info
    }

    /// Whether the value is NULL.
    pub fn is_null(&self) -> bool {
        self.bytes.is_none()
    }

    /// The value's bytes as sent (no length prefix, PLP chunks joined), or
    /// `None` for NULL.
    pub fn bytes(&self) -> Option<&'r [u8]> {
        self.bytes
    }

    /// For a text column (CHAR, VARCHAR, TEXT, NCHAR, NVARCHAR, NTEXT, XML),
    /// the value as UTF-8; `None` for NULL and for other types. The first
    /// call for a value makes its UTF-8 form, and later ones borrow it.
    /// Code units the reader let through unpaired (a lone surrogate) and
    /// bytes of a UTF-8 collation that are not UTF-8 read as U+FFFD.
    pub fn text(&self) -> Option<&'r str> {
        let bytes = self.bytes?;
        let type_info = &self.column.type_info;
        match type_info.data_type {
            DataType::NChar | DataType::NVarChar | DataType::NText | DataType::Xml => {
                Some(self.text.get_or_make(|text| ucs2_to_utf8(bytes, text)))
            }
            DataType::Char
            | DataType::VarChar
            | DataType::BigChar
            | DataType::BigVarChar
            | DataType::Text => Some(self.text.get_or_make(|text| {
                let code_page = type_info.code_page();
                match std::str::from_utf8(bytes) {
                    Ok(utf8) if code_page == CodePage::Utf8 || utf8.is_ascii() => {
                        text.push_str(utf8);
                    }
                    // A `String` takes every character written to it.
                    _ => {
                        let _ = code_page.decode_to(bytes, text);
                    }
                }
            })),
            _ => None,
        }
    }

    /// The core's lazy view of the value (NULL included), which decodes to
    /// a [`SqlValue`] and prints every type. The reader checked the bytes
    /// as it read them, so nothing is checked again.
    pub fn value(&self) -> Value<'r> {
        Value::new_unchecked(self.column.type_info, self.bytes)
    }

    /// The value, or an error for NULL: for [`FromSql`] impls of types that
    /// cannot hold NULL.
    ///
    /// # Errors
    ///
    /// [`InvalidData`](io::ErrorKind::InvalidData) for NULL.
    pub fn non_null(&self) -> io::Result<Value<'r>> {
        if self.is_null() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("{} is NULL: read it as an Option", self.describe()),
            ));
        }
        Ok(self.value())
    }

    /// The error for a value that does not convert to `wanted` (a Rust
    /// type's name).
    pub fn mismatch(&self, wanted: &str) -> io::Error {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{} cannot be read as {wanted}", self.describe()),
        )
    }

    /// `column 3 "amount" (decimal(18,4))`, for errors.
    fn describe(&self) -> String {
        format!(
            "column {} {:?} ({})",
            self.index, self.column.name, self.column.type_info
        )
    }
}

impl fmt::Display for Field<'_> {
    /// The value as [`SqlValue`] prints it: `NULL`, `42`, `12.3400`, text.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.value())
    }
}

/// A type that a column value converts to, for [`TdsStream::get`].
///
/// Implemented for `i32`, `i64`, `i16`, `u8` (from the integer types that
/// fit), `f64` and `f32` (from float and real), `bool` (bit), `&str` and
/// `String` (text columns, as UTF-8), [`Ucs2Str`] (NCHAR, NVARCHAR, NTEXT,
/// XML as sent), `&[u8]` and `Vec<u8>` (binary columns), [`Decimal`],
/// [`Money`], [`Guid`], the date and time types, [`SqlValue`] and
/// [`Value`] (any column, NULL included), and `Option<T>` of each.
pub trait FromSql<'r>: Sized {
    /// Converts `field`.
    ///
    /// # Errors
    ///
    /// Per [`TdsStream::get`]: see [`Field::non_null`] and
    /// [`Field::mismatch`].
    fn from_sql(field: &Field<'r>) -> io::Result<Self>;
}

impl<'r, T: FromSql<'r>> FromSql<'r> for Option<T> {
    fn from_sql(field: &Field<'r>) -> io::Result<Self> {
        if field.is_null() {
            Ok(None)
        } else {
            T::from_sql(field).map(Some)
        }
    }
}

/// `FromSql` for `$ty` by matching the decoded [`SqlValue`].
macro_rules! from_sql_value {
    ($ty:ty, $name:literal, $($pattern:pat => $out:expr),+ $(,)?) => {
        impl<'r> FromSql<'r> for $ty {
            fn from_sql(field: &Field<'r>) -> io::Result<Self> {
                match field.non_null()?.get() {
                    $($pattern => Ok($out),)+
                    _ => Err(field.mismatch($name)),
                }
            }
        }
    };
}

from_sql_value!(i64, "i64",
    SqlValue::BigInt(n) => n,
    SqlValue::Int(n) => n.into(),
    SqlValue::SmallInt(n) => n.into(),
    SqlValue::TinyInt(n) => n.into(),
);
from_sql_value!(i32, "i32",
    SqlValue::Int(n) => n,
    SqlValue::SmallInt(n) => n.into(),
    SqlValue::TinyInt(n) => n.into(),
);
from_sql_value!(i16, "i16",
    SqlValue::SmallInt(n) => n,
    SqlValue::TinyInt(n) => n.into(),
);
from_sql_value!(u8, "u8", SqlValue::TinyInt(n) => n);
from_sql_value!(f64, "f64",
    SqlValue::Float(x) => x,
    SqlValue::Real(x) => x.into(),
);
from_sql_value!(f32, "f32", SqlValue::Real(x) => x);
from_sql_value!(bool, "bool", SqlValue::Bit(b) => b);
from_sql_value!(Decimal, "Decimal", SqlValue::Decimal(d) => d);
from_sql_value!(Money, "Money", SqlValue::Money(m) => m);
from_sql_value!(Guid, "Guid", SqlValue::Guid(g) => g);
from_sql_value!(DateTime2, "DateTime2", SqlValue::DateTime2(t) => t);
from_sql_value!(DateTime, "DateTime", SqlValue::DateTime(t) => t);
from_sql_value!(SmallDateTime, "SmallDateTime", SqlValue::SmallDateTime(t) => t);
from_sql_value!(Date, "Date", SqlValue::Date(t) => t);
from_sql_value!(Time, "Time", SqlValue::Time(t) => t);
from_sql_value!(DateTimeOffset, "DateTimeOffset", SqlValue::DateTimeOffset(t) => t);

impl<'r> FromSql<'r> for &'r str {
    fn from_sql(field: &Field<'r>) -> io::Result<Self> {
        field.non_null()?;
        field.text().ok_or_else(|| field.mismatch("&str"))
    }
}

impl<'r> FromSql<'r> for String {
    fn from_sql(field: &Field<'r>) -> io::Result<Self> {
        <&str>::from_sql(field).map(str::to_owned)
    }
}

impl<'r> FromSql<'r> for Ucs2Str<'r> {
    fn from_sql(field: &Field<'r>) -> io::Result<Self> {
        match field.non_null()?.get() {
            SqlValue::NText(text) | SqlValue::Xml(text) => Ok(text),
            _ => Err(field.mismatch("Ucs2Str")),
        }
    }
}

impl<'r> FromSql<'r> for &'r [u8] {
    fn from_sql(field: &Field<'r>) -> io::Result<Self> {
        let value = field.non_null()?;
        match value.type_info().data_type {
            DataType::Binary
            | DataType::VarBinary
            | DataType::BigBinary
            | DataType::BigVarBinary
            | DataType::Image
            | DataType::Udt => Ok(value.bytes().unwrap_or_default()),
            _ => Err(field.mismatch("&[u8]")),
        }
    }
}

impl<'r> FromSql<'r> for Vec<u8> {
    fn from_sql(field: &Field<'r>) -> io::Result<Self> {
        <&[u8]>::from_sql(field).map(<[u8]>::to_vec)
    }
}

impl<'r> FromSql<'r> for Value<'r> {
    fn from_sql(field: &Field<'r>) -> io::Result<Self> {
        Ok(field.value())
    }
}

impl<'r> FromSql<'r> for SqlValue<'r> {
    fn from_sql(field: &Field<'r>) -> io::Result<Self> {
        Ok(field.value().get())
    }
}

/// ERROR or INFO.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MessageKind {
    /// ERROR [MS-TDS 2.2.7.10].
    Error,
    /// INFO [MS-TDS 2.2.7.13].
    Info,
}

/// An ERROR or INFO message, kept by the stream in fixed space: its
/// numbers, and its text, server and procedure names as UCS-2, cut to
/// [`MESSAGE_TEXT_LEN`] and [`MESSAGE_NAME_LEN`] bytes.
#[derive(Clone)]
pub struct ServerMessage {
    kind: MessageKind,
    number: i32,
    state: u8,
    class: u8,
    line: i32,
    text: Kept<MESSAGE_TEXT_LEN>,
    server: Kept<MESSAGE_NAME_LEN>,
    procedure: Kept<MESSAGE_NAME_LEN>,
}

impl ServerMessage {
    const EMPTY: ServerMessage = ServerMessage {
        kind: MessageKind::Info,
        number: 0,
        state: 0,
        class: 0,
        line: 0,
        text: Kept::EMPTY,
        server: Kept::EMPTY,
        procedure: Kept::EMPTY,
    };

    /// ERROR or INFO.
    pub fn kind(&self) -> MessageKind {
        self.kind
    }

    /// The message number (5701: database changed, 208: invalid object
    /// name, ...).
    pub fn number(&self) -> i32 {
        self.number
    }

    /// The error state.
    pub fn state(&self) -> u8 {
        self.state
    }

    /// The severity class: 0 to 10 informational, 11 and up errors.
    pub fn class(&self) -> u8 {
        self.class
    }

    /// The line in the batch or procedure.
    pub fn line(&self) -> i32 {
        self.line
    }

    /// The message text (cut if it was longer than [`MESSAGE_TEXT_LEN`]
    /// bytes).
    pub fn text(&self) -> Ucs2Str<'_> {
        self.text.get()
    }

    /// The server's name.
    pub fn server(&self) -> Ucs2Str<'_> {
        self.server.get()
    }

    /// The stored procedure's name, or empty.
    pub fn procedure(&self) -> Ucs2Str<'_> {
        self.procedure.get()
    }

    /// Whether the text or a name was cut to fit.
    pub fn truncated(&self) -> bool {
        self.text.truncated || self.server.truncated || self.procedure.truncated
    }

    fn set(&mut self, kind: MessageKind, message: &Message<'_>) {
        self.kind = kind;
        self.number = message.number;
        self.state = message.state;
        self.class = message.class;
        self.line = message.line;
        self.text.set(message.text);
        self.server.set(message.server);
        self.procedure.set(message.procedure);
    }
}

impl fmt::Debug for ServerMessage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ServerMessage")
            .field("kind", &self.kind)
            .field("number", &self.number)
            .field("state", &self.state)
            .field("class", &self.class)
            .field("line", &self.line)
            .field("text", &self.text())
            .field("server", &self.server())
            .field("procedure", &self.procedure())
            .finish()
    }
}

impl fmt::Display for ServerMessage {
    /// `ERROR 208 state=1 class=16 "Invalid object name 'x'." server="db1" proc="" line=1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.kind {
            MessageKind::Error => "ERROR",
            MessageKind::Info => "INFO",
        };
        write!(
            f,
            "{kind} {} state={} class={} {:?} server={:?} proc={:?} line={}",
            self.number,
            self.state,
            self.class,
            self.text(),
            self.server(),
            self.procedure(),
            self.line
        )
    }
}

/// UCS-2 text kept in `N` bytes, cut at a code unit (never inside a
/// surrogate pair) when longer.
#[derive(Clone)]
struct Kept<const N: usize> {
    bytes: [u8; N],
    len: usize,
    truncated: bool,
}

impl<const N: usize> Kept<N> {
    const EMPTY: Kept<N> = Kept {
        bytes: [0; N],
        len: 0,
        truncated: false,
    };

    fn set(&mut self, text: Ucs2Str<'_>) {
        let bytes = text.as_bytes();
        let mut len = bytes.len().min(N) & !1;
        // A high surrogate whose pair was cut off would make the text invalid.
        if len < bytes.len() && len >= 2 && (0xD8..=0xDB).contains(&bytes[len - 1]) {
            len -= 2;
        }
        self.bytes[..len].copy_from_slice(&bytes[..len]);
        self.len = len;
        self.truncated = len < bytes.len();
    }

    fn get(&self) -> Ucs2Str<'_> {
        Ucs2Str::new(&self.bytes[..self.len]).unwrap_or(Ucs2Str::EMPTY)
    }
}

/// The last [`MAX_MESSAGES`] messages, in a ring allocated once.
struct Messages {
    ring: Box<[ServerMessage]>,
    /// Messages read in all; the next goes to `ring[total % MAX_MESSAGES]`.
    total: u64,
    /// How many of the ring's slots hold a message.
    kept: usize,
}

impl Messages {
    fn new() -> Messages {
        Messages {
            ring: vec![ServerMessage::EMPTY; MAX_MESSAGES].into_boxed_slice(),
            total: 0,
            kept: 0,
        }
    }

    fn push(&mut self, kind: MessageKind, message: &Message<'_>) {
        let slot = (self.total % MAX_MESSAGES as u64) as usize;
        self.ring[slot].set(kind, message);
        self.total += 1;
        self.kept = (self.kept + 1).min(MAX_MESSAGES);
    }

    fn clear(&mut self) {
        self.kept = 0;
    }

    fn iter(&self) -> impl ExactSizeIterator<Item = &ServerMessage> + '_ {
        let first = (self.total % MAX_MESSAGES as u64) as usize + MAX_MESSAGES - self.kept;
        (0..self.kept).map(move |i| &self.ring[(first + i) % MAX_MESSAGES])
    }
}

/// Where a stream is in its response.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Phase {
    /// Before the response's first COLMETADATA.
    Start,
    /// In a result set: its rows are being read.
    Rows,
    /// A result set's rows ended with its DONE; no COLMETADATA read since.
    Between,
    /// A COLMETADATA was read while skipping or reading rows, with no DONE
    /// before it: `next_result` reports it without reading.
    Pending,
    /// The response ended (its EOM packet was read), or the source did.
    End,
}

/// Where column values are in the row buffer.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Slot {
    /// Not read: the row was being skipped, or its read was cut short.
    Unread,
    /// NULL.
    Null,
    /// `len` bytes at `start` in the row buffer.
    Value { start: usize, len: usize },
    /// `len` bytes at `start` in the input buffer: the row lay whole in
    /// what was read, and the buffer is not read into again while it is
    /// current.
    Input { start: usize, len: usize },
}

/// A column's UTF-8 form of the current row's text value, made by
/// [`Field::text`] when first asked for, in a string the column keeps
/// from row to row.
#[derive(Default)]
struct TextForm {
    made: OnceCell<String>,
    /// The string of an earlier row, emptied, kept for its capacity.
    kept: Cell<String>,
}

impl TextForm {
    /// The form, made by `make` into the kept string if not made yet.
    fn get_or_make(&self, make: impl FnOnce(&mut String)) -> &str {
        self.made.get_or_init(|| {
            let mut text = self.kept.take();
            make(&mut text);
            text
        })
    }

    /// Forgets the form, for the next row, keeping its string.
    fn forget(&mut self) {
        if let Some(mut text) = self.made.take() {
            text.clear();
            *self.kept.get_mut() = text;
        }
    }
}

impl fmt::Debug for TextForm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("TextForm").field(&self.made.get()).finish()
    }
}

/// UCS-2LE (checked by the reader) as UTF-8, appended to `out`; a lone
/// surrogate reads as U+FFFD.
fn ucs2_to_utf8(ucs2: &[u8], out: &mut String) {
    let units = ucs2
        .chunks_exact(2)
        .map(|pair| u16::from_le_bytes([pair[0], pair[1]]));
    // Each code unit becomes at most 3 bytes; a pair, 4.
    out.reserve(ucs2.len() / 2 * 3);
    out.extend(char::decode_utf16(units).map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER)));
}

/// Where the reader left a value's bytes, from its event's
/// [`ValueSource`] (see [`Engine::feed`]).
#[derive(Copy, Clone, Debug)]
enum Loc {
    Null,
    /// In the row buffer at this offset: the reader assembled it there.
    Row(usize, usize),
    /// In the input buffer at this offset.
    Input(usize, usize),
    /// Copied out of the reader into `feed`'s local array.
    Local(usize),
}

/// What one reader event came to, once the event (and its borrows) is gone.
#[derive(Copy, Clone, Debug)]
enum Outcome {
    /// The reader took all of the current piece.
    Starved,
    /// A COLMETADATA with new columns begins: the arena can be reset.
    ColMetadataStart,
    RowStart(RowKind),
    Value(u16, Loc),
    RowEnd,
    ColMetadata(usize),
    Done(Done),
    Other,
}

/// What the stream's phase logic hears about.
#[derive(Copy, Clone, Debug)]
enum Step {
    ColMetadata,
    RowEnd,
    Done,
    /// The response's last packet was read (EOM), or the source ended.
    End,
}

/// Everything of a stream but its metadata, which the engine borrows
/// apart from itself (and resets) while it reads.
struct Engine<R> {
    source: R,
    deframer: Deframer,
    reader: Reader,
    /// Bytes read from the source.
    input: Box<[u8]>,
    /// `input[raw.0..raw.1]`: read, not yet given to the de-framer.
    raw: (usize, usize),
    /// `input[piece.0..piece.1]`: payload the de-framer handed out that
    /// the reader has not taken yet.
    piece: (usize, usize),
    /// The piece is the end of a message.
    piece_ends_message: bool,
    /// The reader took all of the piece and waits for more.
    starved: bool,
    /// The row buffer (see the module docs).
    row: Box<[u8]>,
    /// Bytes of the row buffer the current row's values use.
    used: usize,
    /// Where each column's value is.
    slots: Vec<Slot>,
    /// The UTF-8 forms of its text values, by column.
    texts: Vec<TextForm>,
    /// The kind of the current row, for error sites.
    row_kind: RowKind,
    /// A row's values are being read.
    in_row: bool,
    /// A row was read whole and is current.
    has_row: bool,
    phase: Phase,
    /// COLMETADATA tokens read in this response.
    result_sets: u32,
    done: Option<Done>,
    messages: Messages,
    /// The defect that stopped the stream, returned by every later call.
    failed: Option<leanwire_core::tds::Error>,
}

impl<R> Engine<R> {
    fn new(source: R, options: StreamOptions) -> Engine<R> {
        // A row's values stay where they lie until the next row: in the
        // input or row buffer, never inside the reader, so a row split
        // across reads goes value by value into the row buffer.
        let mut reader = Reader::new(options.version);
        reader.set_gather_rows(false);
        Engine {
            source,
            deframer: Deframer::new(),
            reader,
            input: vec![0; options.input_len.max(1)].into_boxed_slice(),
            raw: (0, 0),
            piece: (0, 0),
            piece_ends_message: false,
            starved: true,
            row: vec![0; options.row_buffer_len].into_boxed_slice(),
            used: 0,
            slots: Vec::new(),
            texts: Vec::new(),
            row_kind: RowKind::Row,
            in_row: false,
            has_row: false,
            phase: Phase::Start,
            result_sets: 0,
            done: None,
            messages: Messages::new(),
            failed: None,
        }
    }

    fn field<'r>(&'r self, columns: &'r [Column<'r>], index: usize) -> io::Result<Field<'r>> {
        if !self.has_row {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "no current row: read_row has not returned true",
            ));
        }
        let (Some(column), Some(slot), Some(text)) = (
            columns.get(index),
            self.slots.get(index),
            self.texts.get(index),
        ) else {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "column {index} is out of range: the result set has {}",
                    columns.len()
                ),
            ));
        };
        let bytes = match *slot {
            Slot::Null => None,
            Slot::Value { start, len } => Some(&self.row[start..start + len]),
            Slot::Input { start, len } => Some(&self.input[start..start + len]),
            Slot::Unread => {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!("column {index} of the current row was not read"),
                ));
            }
        };
        Ok(Field {
            index,
            column,
            bytes,
            text,
        })
    }
}

impl<R: AsyncRead + Unpin> Engine<R> {
    fn poll_open(
        &mut self,
        meta: &mut OwnedMetadata,
        cx: &mut Context<'_>,
    ) -> Poll<io::Result<bool>> {
        while self.phase == Phase::Start {
            match ready!(self.poll_step(meta, cx))? {
                Step::ColMetadata => self.phase = Phase::Rows,
                Step::End => self.phase = Phase::End,
                Step::Done | Step::RowEnd => {}
            }
        }
        Poll::Ready(Ok(self.result_sets > 0))
    }

    fn poll_read_row(
        &mut self,
        meta: &mut OwnedMetadata,
        cx: &mut Context<'_>,
    ) -> Poll<io::Result<bool>> {
        ready!(self.poll_open(meta, cx))?;
        if self.phase != Phase::Rows {
            return Poll::Ready(Ok(false));
        }
        // The current row is gone once the next is asked for: its space
        // may now hold what the reader assembles.
        self.has_row = false;
        match ready!(self.poll_step(meta, cx))? {
            Step::RowEnd => return Poll::Ready(Ok(true)),
            Step::Done => self.phase = Phase::Between,
            Step::ColMetadata => self.phase = Phase::Pending,
            Step::End => self.phase = Phase::End,
        }
        Poll::Ready(Ok(false))
    }

    fn poll_next_result(
        &mut self,
        meta: &mut OwnedMetadata,
        cx: &mut Context<'_>,
    ) -> Poll<io::Result<bool>> {
        ready!(self.poll_open(meta, cx))?;
        if self.phase == Phase::Rows {
            // Skipped columns are passed over by the reader without being
            // copied or decoded; the next COLMETADATA clears the marks.
            self.has_row = false;
            for column in 0..meta.columns().len() {
                self.reader.skip_column(column as u16, true);
            }
            while self.phase == Phase::Rows {
                match ready!(self.poll_step(meta, cx))? {
                    Step::RowEnd => self.has_row = false,
                    Step::Done => self.phase = Phase::Between,
                    Step::ColMetadata => self.phase = Phase::Pending,
                    Step::End => self.phase = Phase::End,
                }
            }
        }
        loop {
            match self.phase {
                Phase::Pending => {
                    self.phase = Phase::Rows;
                    return Poll::Ready(Ok(true));
                }
                Phase::Between => match ready!(self.poll_step(meta, cx))? {
                    Step::ColMetadata => self.phase = Phase::Pending,
                    Step::End => self.phase = Phase::End,
                    Step::Done | Step::RowEnd => {}
                },
                Phase::Start | Phase::Rows | Phase::End => return Poll::Ready(Ok(false)),
            }
        }
    }

    /// Runs the reader until something the phase logic hears about: takes
    /// from the current piece, asks the de-framer for the next, and reads
    /// the source when both are used up.
    fn poll_step(
        &mut self,
        meta: &mut OwnedMetadata,
        cx: &mut Context<'_>,
    ) -> Poll<io::Result<Step>> {
        if let Some(e) = self.failed {
            return Poll::Ready(Err(invalid(e)));
        }
        loop {
            if !self.starved {
                if let Some(step) = self.feed(meta)? {
                    return Poll::Ready(Ok(step));
                }
                continue;
            }
            if self.piece_ends_message {
                // A token never spans messages: the reader must be between
                // tokens here.
                self.piece_ends_message = false;
                if let Err(e) = self.reader.finish() {
                    return Poll::Ready(Err(self.fail(e)));
                }
                return Poll::Ready(Ok(Step::End));
            }
            if self.raw.0 < self.raw.1 {
                let mut raw = &self.input[self.raw.0..self.raw.1];
                let status = match self.deframer.next(&mut raw) {
                    Ok(status) => status,
                    Err(e) => return Poll::Ready(Err(self.fail(e))),
                };
                // The de-framer takes from the front, and a payload piece is
                // the tail of what it took (its header came first).
                let taken_to = self.raw.1 - raw.len();
                self.raw.0 = taken_to;
                if let Status::Complete(payload) = status {
                    self.piece = (taken_to - payload.bytes.len(), taken_to);
                    self.piece_ends_message = payload.message_end;
                    self.starved = false;
                }
                continue;
            }
            let read = ready!(Pin::new(&mut self.source).poll_read(cx, &mut self.input));
            match read {
                Ok(0) => {
                    if let Err(e) = self.deframer.finish() {
                        return Poll::Ready(Err(self.fail(e)));
                    }
                    if self.deframer.in_message() {
                        // Whole packets, but not the one with EOM: the
                        // response was cut short, which must not pass for
                        // its end.
                        return Poll::Ready(Err(io::Error::new(
                            io::ErrorKind::UnexpectedEof,
                            "the source ended inside a response, after a packet without EOM",
                        )));
                    }
                    if let Err(e) = self.reader.finish() {
                        return Poll::Ready(Err(self.fail(e)));
                    }
                    return Poll::Ready(Ok(Step::End));
                }
                Ok(n) => self.raw = (0, n.min(self.input.len())),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Poll::Ready(Err(e)),
            }
        }
    }

    /// Reads the row that starts the current piece in one walk, if it lies
    /// whole there: its values stay in the input buffer, and the row buffer
    /// holds only the PLP values it joins. Only a row within the row
    /// buffer's length is taken, so a row that would not fit there read in
    /// pieces is left to the reader's steps, which say so; either way the
    /// same rows are read, and the same row is refused.
    fn whole_row(&mut self, meta: &mut OwnedMetadata) -> bool {
        let (start, end) = self.piece;
        let reach = (end - start).min(1 + self.row.len());
        let mut bytes = &self.input[start..start + reach];
        let (reader, row, slots) = (&mut self.reader, &mut self.row[..], &mut self.slots);
        let kind = meta.with_mut(|meta| {
            let whole = reader.whole_row(&mut bytes, meta, row)?;
            let places = whole.values().zip(whole.sources());
            for (slot, (value, source)) in slots.iter_mut().zip(places) {
                let len = value.bytes().map_or(0, <[u8]>::len);
                *slot = match source {
                    None => Slot::Null,
                    Some(ValueSource::Chunk { offset }) => Slot::Input {
                        start: start + offset,
                        len,
                    },
                    Some(ValueSource::Buffer { offset }) => Slot::Value { start: offset, len },
                    Some(ValueSource::Inline) => Slot::Unread,
                };
            }
            Some(whole.kind())
        });
        let Some(kind) = kind else {
            return false;
        };
        self.piece.0 = start + reach - bytes.len();
        self.row_kind = kind;
        self.has_row = true;
        self.texts.iter_mut().for_each(TextForm::forget);
        true
    }

    /// Stops the stream at a defect: every later call returns it again
    /// (the reader and de-framer repeat their own errors, but not those of
    /// `finish`, nor the stream's).
    fn fail(&mut self, e: leanwire_core::tds::Error) -> io::Error {
        self.failed = Some(e);
        invalid(e)
    }

    /// Gives the reader the rest of the current piece and acts on the event
    /// it returns. `None`: nothing for the phase logic (a value, a message,
    /// or the piece is used up).
    fn feed(&mut self, meta: &mut OwnedMetadata) -> io::Result<Option<Step>> {
        if !self.in_row && self.whole_row(meta) {
            return Ok(Some(Step::RowEnd));
        }
        let (start, end) = self.piece;
        let mut bytes = &self.input[start..end];
        // An event's value borrows the input buffer (it lay whole in the
        // piece), the row buffer (the reader assembled it in `buf`, which is
        // the row buffer's free space), or the reader itself. The event also
        // borrows the reader and the row buffer, so the event's source says
        // where the value is, and it is moved once the event is gone; only
        // bytes inside the reader are copied out first, into `local`.
        let mut local = [0u8; INLINE_VALUE_LEN];
        // Inside a row, the reader gets the space after the row's values;
        // between rows, all of it (for a token body split across reads),
        // as no row is current then.
        let free = if self.in_row { self.used } else { 0 };
        let (reader, row, messages) = (&mut self.reader, &mut self.row[free..], &mut self.messages);
        let outcome = meta.with_mut(|meta| match reader.next(&mut bytes, meta, row) {
            Err(e) => Err(e),
            Ok(Status::Partial) => Ok(Outcome::Starved),
            Ok(Status::Complete(event)) => Ok(match event {
                Event::ColMetadataStart { .. } => Outcome::ColMetadataStart,
                Event::RowStart(kind) => Outcome::RowStart(kind),
                Event::Value {
                    column,
                    value,
                    source,
                } => {
                    let len = value.bytes().map_or(0, <[u8]>::len);
                    let loc = match source {
                        None => Loc::Null,
                        Some(ValueSource::Buffer { offset }) => Loc::Row(free + offset, len),
                        Some(ValueSource::Chunk { offset }) => Loc::Input(start + offset, len),
                        Some(ValueSource::Inline) => {
                            let data = value.bytes().unwrap_or_default();
                            local[..data.len()].copy_from_slice(data);
                            Loc::Local(data.len())
                        }
                    };
                    Outcome::Value(column, loc)
                }
                Event::RowEnd => Outcome::RowEnd,
                Event::Token(Token::ColMetadata(columns)) => {
                    Outcome::ColMetadata(columns.columns.len())
                }
                Event::Token(Token::Done(done)) => Outcome::Done(done),
                Event::Token(Token::Error(message)) => {
                    messages.push(MessageKind::Error, &message);
                    Outcome::Other
                }
                Event::Token(Token::Info(message)) => {
                    messages.push(MessageKind::Info, &message);
                    Outcome::Other
                }
                _ => Outcome::Other,
            }),
        });
        self.piece.0 = end - bytes.len();
        match outcome.map_err(|e| self.fail(e))? {
            Outcome::Starved => {
                self.starved = true;
                Ok(None)
            }
            Outcome::ColMetadataStart => {
                // The last result set's columns go; so does its current row,
                // which was read by them.
                meta.reset();
                self.in_row = false;
                self.has_row = false;
                Ok(None)
            }
            Outcome::RowStart(kind) => {
                self.in_row = true;
                self.has_row = false;
                self.used = 0;
                self.row_kind = kind;
                self.slots.fill(Slot::Unread);
                self.texts.iter_mut().for_each(TextForm::forget);
                Ok(None)
            }
            Outcome::Value(column, loc) => {
                // Outside a row, a value is a RETURNVALUE's: not kept.
                if self.in_row
                    && let Err(e) = self.store(column, loc, &local, meta.columns())
                {
                    return Err(self.fail(e));
                }
                Ok(None)
            }
            Outcome::RowEnd => {
                self.in_row = false;
                self.has_row = true;
                Ok(Some(Step::RowEnd))
            }
            Outcome::ColMetadata(columns) => {
                self.result_sets += 1;
                self.in_row = false;
                self.has_row = false;
                self.slots.clear();
                self.slots.resize(columns, Slot::Unread);
                self.texts.iter_mut().for_each(TextForm::forget);
                self.texts.resize_with(columns, TextForm::default);
                Ok(Some(Step::ColMetadata))
            }
            Outcome::Done(done) => {
                self.done = Some(done);
                self.in_row = false;
                self.has_row = false;
                Ok(Some(Step::Done))
            }
            Outcome::Other => Ok(None),
        }
    }

    /// Keeps column `column`'s value in the row buffer.
    fn store(
        &mut self,
        column: u16,
        loc: Loc,
        local: &[u8],
        columns: &[Column<'_>],
    ) -> Result<(), leanwire_core::tds::Error> {
        let index = usize::from(column);
        if index >= columns.len() {
            return Ok(());
        }
        let start = self.used;
        let len = match loc {
            Loc::Null => {
                self.slots[index] = Slot::Null;
                return Ok(());
            }
            Loc::Row(at, len) => {
                // The reader assembles at the start of the free space it was
                // given, so `at == start`; move it there if that changes.
                if at != start {
                    self.row.copy_within(at..at + len, start);
                }
                len
            }
            Loc::Input(at, len) => {
                self.fits(start + len, len, column)?;
                self.row[start..start + len].copy_from_slice(&self.input[at..at + len]);
                len
            }
            Loc::Local(len) => {
                self.fits(start + len, len, column)?;
                self.row[start..start + len].copy_from_slice(&local[..len]);
                len
            }
        };
        self.used = start + len;
        if let Some(slot) = self.slots.get_mut(index) {
            *slot = Slot::Value { start, len };
        }
        Ok(())
    }

    /// Whether the row buffer reaches `end`; else the error for column
    /// `column`'s `len`-byte value, which does not fit.
    fn fits(&self, end: usize, len: usize, column: u16) -> Result<(), leanwire_core::tds::Error> {
        if end <= self.row.len() {
            return Ok(());
        }
        let site = Site::column(self.row_kind.token(), column);
        let at = self.reader.offset().saturating_sub(len as u64);
        Err(tds_error(ErrorKind::BufferTooSmall(site), at))
    }
}

fn tds_error(kind: ErrorKind, offset: u64) -> leanwire_core::tds::Error {
    leanwire_core::tds::Error::new(kind, usize::try_from(offset).unwrap_or(usize::MAX))
}

/// A defect in the stream, as an `io::Error` that keeps the core error.
fn invalid(e: leanwire_core::tds::Error) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, e)
}

/// Runs a future to completion on this thread.
///
/// `pollster::block_on` builds an `Arc` for its waker on every call. One
/// poll with the no-op waker first lets a future whose source is ready (a
/// [`BlockingRead`] always is) finish without it, so that the sync calls
/// allocate nothing per row. A future that is not ready registered the
/// no-op waker; `block_on` polls it again at once with a real one.
fn wait<F: Future + Unpin>(mut future: F) -> F::Output {
    let mut cx = Context::from_waker(Waker::noop());
    match Pin::new(&mut future).poll(&mut cx) {
        Poll::Ready(out) => out,
        Poll::Pending => pollster::block_on(future),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cut_text_never_splits_a_surrogate_pair() {
        // "a😀" is 61 00 3d d8 00 de: kept in 4 bytes, only "a" survives.
        let text = Ucs2Str::new(&[0x61, 0, 0x3d, 0xd8, 0x00, 0xde]).unwrap();
        let mut kept = Kept::<4>::EMPTY;
        kept.set(text);
        assert_eq!(kept.get().to_string(), "a");
        assert!(kept.truncated);
        let mut kept = Kept::<6>::EMPTY;
        kept.set(text);
        assert_eq!(kept.get().to_string(), "a😀");
        assert!(!kept.truncated);
        // "abc😀" in 8 bytes: the pair's high half goes, and only it.
        let text = Ucs2Str::new(&[0x61, 0, 0x62, 0, 0x63, 0, 0x3d, 0xd8, 0x00, 0xde]).unwrap();
        let mut kept = Kept::<8>::EMPTY;
        kept.set(text);
        assert_eq!(kept.get().to_string(), "abc");
        assert!(kept.truncated);
    }

    #[test]
    fn ucs2_becomes_utf8_with_lone_surrogates_replaced() {
        let mut text = String::from("kept: ");
        ucs2_to_utf8(
            &[0xe9, 0, 0x3d, 0xd8, 0x00, 0xde, 0x3d, 0xd8, 0x61, 0],
            &mut text,
        );
        assert_eq!(text, "kept: é😀\u{fffd}a");
    }

    #[test]
    fn a_text_form_is_made_once_per_row_in_the_same_string() {
        let mut form = TextForm::default();
        let mut made = 0;
        let first = form.get_or_make(|text| {
            made += 1;
            text.push_str("first row");
        });
        assert_eq!(first, "first row");
        let again = form.get_or_make(|_| made += 1);
        assert!(std::ptr::eq(first, again));
        assert_eq!(made, 1);
        let at = first.as_ptr();
        form.forget();
        let next = form.get_or_make(|text| text.push_str("next"));
        assert_eq!(next, "next");
        assert_eq!(next.as_ptr(), at, "the kept string is reused");
    }

    #[test]
    fn messages_keep_the_latest() {
        let mut messages = Messages::new();
        let message = Message {
            number: 0,
            state: 1,
            class: 10,
            text: Ucs2Str::EMPTY,
            server: Ucs2Str::EMPTY,
            procedure: Ucs2Str::EMPTY,
            line: 1,
        };
        for number in 0..(MAX_MESSAGES as i32 + 3) {
            messages.push(MessageKind::Info, &Message { number, ..message });
        }
        let numbers: Vec<i32> = messages.iter().map(ServerMessage::number).collect();
        assert_eq!(numbers, (3..MAX_MESSAGES as i32 + 3).collect::<Vec<_>>());
        messages.clear();
        assert_eq!(messages.iter().len(), 0);
    }
}
