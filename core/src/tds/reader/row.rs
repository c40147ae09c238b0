//! The row machine: ROW and NBCROW values [MS-TDS 2.2.7.19, 2.2.7.15], read
//! one column at a time, resumable at any byte; RETURNVALUE's value is read
//! the same way. Large values go to the large-value machine.

use super::cursor::Cursor;
use super::data::{Data, Dest, Fast, ValueCx, ValueStep, type_info, value_site};
use super::large::LargeMachine;
use super::metadata::Metadata;
use super::{MAX_COLUMNS, Out, ReaderState, Src, ValuePart, ValueSource};
use crate::tds::bytes::le_uint;
use crate::tds::error::{Error, ErrorKind, Result, Site, error_at};
use crate::tds::row::RowKind;
use crate::tds::status::Status;
use crate::tds::token::TokenType;
use crate::tds::type_info::{DataType, Layout, TypeInfo};
use crate::tds::ucs2::Ucs2Str;
use crate::tds::value::{Value, check_value};

/// The row machine: which row token is being read, which of its columns
/// are NULL, which the caller skips, and where the read is.
#[derive(Clone, Debug)]
pub(super) struct RowMachine {
    /// The current row's token: ROW or NBCROW.
    kind: RowKind,
    /// Columns of the current row.
    columns: u16,
    /// Null bits of the current row (the NBC bitmap, or set as each
    /// column's length is read), for the first `known` columns.
    nulls: [u8; MAX_COLUMNS as usize / 8],
    known: u16,
    /// Columns the caller asked to skip.
    skip: [u8; MAX_COLUMNS as usize / 8],
    at: At,
    /// Where the read of the value at [`At::Value`] is.
    val: Val,
}

/// Where the row machine is.
#[derive(Copy, Clone, Debug)]
enum At {
    /// Reading no row or return value.
    Idle,
    /// An NBCROW's null bitmap: `have` of its bytes read.
    Bitmap { have: u16 },
    /// A value of a row (or of a RETURNVALUE, `ret`), at `val`.
    Value { column: u16, ret: bool },
    /// The row is complete; RowEnd is next.
    End,
}

/// Where a value's read is.
#[derive(Copy, Clone, Debug)]
enum Val {
    /// Before the value.
    Start,
    /// A 1, 2 or 4-byte length prefix (or TEXT's text pointer length).
    Prefix { width: u8 },
    /// The data of a value whose length is known.
    Data(Data),
    /// A PLP or TEXT value, in the large-value machine.
    Large(LargeMachine),
}

/// Types whose length is a byte count bounded by TYPE_INFO's length (as
/// opposed to types whose length is fixed by the type).
fn is_variable(data_type: DataType) -> bool {
    matches!(
        data_type,
        DataType::Char
            | DataType::VarChar
            | DataType::Binary
            | DataType::VarBinary
            | DataType::BigChar
            | DataType::BigVarChar
            | DataType::NChar
            | DataType::NVarChar
            | DataType::BigBinary
            | DataType::BigVarBinary
            | DataType::Text
            | DataType::NText
            | DataType::Image
            | DataType::Variant
    )
}

type Step<'c> = Result<Status<Option<Out<'c>>>>;

/// A value read in one step: its bytes and their stream offset, or `None`
/// for NULL.
type WholeValue<'c> = Option<(&'c [u8], u64)>;

/// A value handed out by [`RowMachine::value_in_chunk`]: its column, the
/// value and where its bytes lie.
pub(super) type ChunkValue<'r> = (u16, Value<'r>, Option<ValueSource>);

impl RowMachine {
    /// Before any row.
    pub(super) const fn new() -> RowMachine {
        RowMachine {
            kind: RowKind::Row,
            columns: 0,
            nulls: [0; MAX_COLUMNS as usize / 8],
            known: 0,
            skip: [0; MAX_COLUMNS as usize / 8],
            at: At::Idle,
            val: Val::Start,
        }
    }

    /// A ROW or NBCROW of `columns` columns begins. A ROW's first value
    /// comes next; an NBCROW's null bitmap.
    pub(super) fn begin_row(&mut self, kind: RowKind, columns: u16) {
        self.kind = kind;
        self.columns = columns;
        self.known = 0;
        self.nulls[..usize::from(columns).div_ceil(8)].fill(0);
        self.val = Val::Start;
        self.at = match (kind, columns) {
            (RowKind::NbcRow, _) => At::Bitmap { have: 0 },
            (RowKind::Row, 0) => At::End,
            (RowKind::Row, _) => At::Value {
                column: 0,
                ret: false,
            },
        };
    }

    /// A RETURNVALUE's header was read: its value comes next.
    pub(super) fn begin_return_value(&mut self) {
        self.at = At::Value {
            column: 0,
            ret: true,
        };
        self.val = Val::Start;
    }

    /// The row (or return value) is over: the reader is at a token
    /// boundary.
    pub(super) fn is_idle(&self) -> bool {
        matches!(self.at, At::Idle)
    }

    /// Whether the caller can stop here: between rows, or with only the
    /// row's end to hand out.
    pub(super) fn at_boundary(&self) -> bool {
        matches!(self.at, At::Idle | At::End)
    }

    /// The columns the caller skips, which each COLMETADATA resets.
    pub(super) fn skipped_columns(&mut self) -> &mut [u8; MAX_COLUMNS as usize / 8] {
        &mut self.skip
    }

    /// Skips (`true`) or delivers (`false`) column `column`.
    pub(super) fn skip_column(&mut self, column: u16, skip: bool) {
        if let Some(byte) = self.skip.get_mut(usize::from(column / 8)) {
            let bit = 1 << (column % 8);
            if skip {
                *byte |= bit;
            } else {
                *byte &= !bit;
            }
        }
    }

    /// Whether the caller skips any of the first `columns` columns.
    pub(super) fn skips_any(&self, columns: usize) -> bool {
        self.skip
            .get(..columns.div_ceil(8))
            .is_none_or(|bits| bits.iter().any(|&byte| byte != 0))
    }

    fn is_skipped(&self, column: u16) -> bool {
        self.skip
            .get(usize::from(column / 8))
            .is_some_and(|byte| byte & (1 << (column % 8)) != 0)
    }

    /// Whether column `column` of the current (or last) row is NULL, if
    /// known yet.
    pub(super) fn is_null(&self, column: u16) -> Option<bool> {
        if column >= self.known {
            return None;
        }
        let byte = self.nulls[usize::from(column / 8)];
        Some(byte & (1 << (column % 8)) != 0)
    }

    fn set_null(&mut self, column: u16, ret: bool, null: bool) {
        if ret {
            return;
        }
        if let Some(byte) = self.nulls.get_mut(usize::from(column / 8)) {
            let bit = 1 << (column % 8);
            if null {
                *byte |= bit;
            } else {
                *byte &= !bit;
            }
        }
        self.known = self.known.max(column + 1);
    }

    /// Where the machine is, by name.
    pub(super) fn public(&self) -> ReaderState {
        match self.at {
            At::Idle | At::End => ReaderState::RowEnd,
            At::Bitmap { have } => ReaderState::NullBitmap { have },
            At::Value { column, ret } => ReaderState::Value {
                token: self.site(column, ret).token,
                column,
                part: match self.val {
                    Val::Start => ValuePart::Start,
                    Val::Prefix { .. } => ValuePart::Length,
                    Val::Data(data) => ValuePart::Data { left: data.left },
                    Val::Large(large) => large.public(),
                },
            },
        }
    }

    /// The token and column being read, for errors.
    pub(super) fn current_site(&self) -> Site {
        match self.at {
            At::Idle | At::End => Site::token(TokenType::Unknown(0)),
            At::Bitmap { .. } => Site::token(TokenType::NbcRow),
            At::Value { column, ret, .. } => self.site(column, ret),
        }
    }

    fn site(&self, column: u16, ret: bool) -> Site {
        value_site(self.kind, column, ret)
    }

    /// The type of column `column` (or of the return value), for an event
    /// or a read at stream offset `at`.
    pub(super) fn type_info<'a>(
        &self,
        meta: &Metadata<'a>,
        column: u16,
        ret: bool,
        at: u64,
    ) -> Result<TypeInfo<'a>> {
        type_info(meta, self.kind, column, ret, at)
    }

    /// One step: `Complete(None)`, progress was made, go on.
    pub(super) fn step<'c>(
        &mut self,
        cursor: &mut Cursor,
        input: &mut &'c [u8],
        meta: &Metadata<'_>,
        buf: &mut [u8],
        stream_large: bool,
    ) -> Step<'c> {
        match self.at {
            At::Idle => Ok(Status::Complete(None)),
            At::End => {
                self.at = At::Idle;
                Ok(Status::Complete(Some(Out::RowEnd)))
            }
            At::Bitmap { have } => {
                let need = usize::from(self.columns).div_ceil(8);
                let from = usize::from(have);
                let taken = cursor.take(input, need - from);
                self.nulls[from..from + taken.len()].copy_from_slice(taken);
                let have = from + taken.len();
                if have < need {
                    self.at = At::Bitmap { have: have as u16 };
                    return Ok(Status::Partial);
                }
                self.known = self.columns;
                self.at = match self.columns {
                    0 => At::End,
                    _ => At::Value {
                        column: 0,
                        ret: false,
                    },
                };
                Ok(Status::Complete(Some(Out::RowStart(RowKind::NbcRow))))
            }
            At::Value { column, ret } => {
                let mut cx = ValueCx {
                    cursor,
                    buf,
                    meta,
                    kind: self.kind,
                    column,
                    ret,
                };
                self.step_value(&mut cx, input, stream_large)
            }
        }
    }

    /// The value of `column` is done: on to the next column, the row's end,
    /// or (for a RETURNVALUE) the next token.
    fn column_done(&mut self, column: u16, ret: bool) {
        self.at = if ret {
            At::Idle
        } else if column + 1 >= self.columns {
            At::End
        } else {
            self.val = Val::Start;
            At::Value {
                column: column + 1,
                ret,
            }
        };
    }

    /// A NULL value: marks it, moves on, and hands out its event unless
    /// the column is skipped.
    fn null(&mut self, column: u16, ret: bool, skip: bool) -> Option<Out<'static>> {
        self.set_null(column, ret, true);
        self.column_done(column, ret);
        (!skip).then_some(Out::Value {
            column,
            ret,
            src: None,
        })
    }

    fn step_value<'c>(
        &mut self,
        cx: &mut ValueCx<'_, '_>,
        input: &mut &'c [u8],
        stream_large: bool,
    ) -> Step<'c> {
        let (column, ret) = (cx.column, cx.ret);
        let skip = !ret && self.is_skipped(column);
        let done = |out| Ok(Status::Complete(out));
        let step = match &mut self.val {
            Val::Start => {
                if !ret && self.kind == RowKind::NbcRow && self.is_null(column) == Some(true) {
                    return done(self.null(column, ret, skip));
                }
                let ti = cx.type_info()?;
                if let Some(value) = self.whole_value(cx.cursor, input, column, ret, &ti, skip)? {
                    return done(Some(Out::Value {
                        column,
                        ret,
                        src: value.map(|(data, at)| Src::Input(data, at)),
                    }));
                }
                let layout = ti.layout();
                let dest = Dest::first(&ti, skip, stream_large);
                let next = match (layout, layout.prefix_width()) {
                    (_, Some(width)) => Val::Prefix { width },
                    (Layout::AlwaysNull, _) => return done(self.null(column, ret, skip)),
                    (Layout::Fixed(n), _) => {
                        self.set_null(column, ret, false);
                        Val::Data(Data::new(&ti, cx.cursor.pos, u32::from(n), dest))
                    }
                    _ => Val::Large(LargeMachine::plp(dest)),
                };
                self.val = next;
                return done(None);
            }
            &mut Val::Prefix { width } => {
                let width = usize::from(width);
                if !cx.cursor.fill(input, width) {
                    return Ok(Status::Partial);
                }
                let at = cx.cursor.pos - width as u64;
                let len = cx.cursor.scratch_uint(width);
                let ti = cx.type_info()?;
                let layout = ti.layout();
                if layout.is_null_prefix(len) {
                    return done(self.null(column, ret, skip));
                }
                self.set_null(column, ret, false);
                let dest = Dest::first(&ti, skip, stream_large);
                if layout == Layout::Text {
                    self.val = Val::Large(LargeMachine::text(len as u8, dest));
                    return done(None);
                }
                if !ti.value_len_ok(len) {
                    let kind = if is_variable(ti.data_type) && len > u64::from(ti.max_len) {
                        ErrorKind::LengthOverflow(cx.site())
                    } else {
                        ErrorKind::InvalidValue(cx.site())
                    };
                    return Err(error_at(kind, at));
                }
                let data = Data::new(&ti, cx.cursor.pos, len as u32, dest);
                self.val = Val::Data(data);
                ValueStep::Length {
                    total: Some(len),
                    stream: data.streams(),
                }
            }
            Val::Data(data) => data.step(cx, input)?,
            Val::Large(large) => large.step(cx, input)?,
        };
        Ok(match step {
            ValueStep::Partial => Status::Partial,
            ValueStep::Field => Status::Complete(None),
            ValueStep::Null => Status::Complete(self.null(column, ret, skip)),
            ValueStep::Length { total, stream } => {
                self.set_null(column, ret, false);
                Status::Complete(stream.then_some(Out::ValueStart { column, ret, total }))
            }
            ValueStep::Piece(bytes) => Status::Complete(Some(Out::ValueChunk { column, bytes })),
            ValueStep::End => {
                self.column_done(column, ret);
                Status::Complete(Some(Out::ValueEnd { column }))
            }
            ValueStep::Whole(src) => {
                self.column_done(column, ret);
                Status::Complete(Some(Out::Value {
                    column,
                    ret,
                    src: Some(src),
                }))
            }
            ValueStep::Skipped => {
                self.column_done(column, ret);
                Status::Complete(None)
            }
        })
    }

    /// One step of the value being read without the machine's dispatch:
    /// see [`Data::fast_step`] and [`LargeMachine::fast_step`]. A piece
    /// comes with its column. `Ok(None)` leaves `input` to
    /// [`step`](Self::step).
    #[inline]
    pub(super) fn fast_step<'c>(
        &mut self,
        cursor: &mut Cursor,
        input: &mut &'c [u8],
        buf: &mut [u8],
    ) -> Result<Option<(u16, Fast<'c>)>> {
        let At::Value { column, ret } = self.at else {
            return Ok(None);
        };
        let fast = match &mut self.val {
            Val::Data(data) => data.fast_step(cursor, input, buf),
            Val::Large(large) => large.fast_step(cursor, input, buf),
            &mut Val::Prefix { width } => Ok(cursor
                .gather(input, usize::from(width))
                .then_some(Fast::Taken)),
            Val::Start => return Ok(None),
        };
        match fast {
            Ok(fast) => Ok(fast.map(|fast| (column, fast))),
            Err(bad) => Err(self.bad_ucs2(column, ret, bad)),
        }
    }

    /// A value's text has a bad UCS-2 unit at stream offset `at`.
    #[cold]
    fn bad_ucs2(&self, column: u16, ret: bool, at: u64) -> Error {
        error_at(ErrorKind::InvalidUcs2(self.site(column, ret)), at)
    }

    /// A row's value that lies whole in `input` (or a NULL), read straight
    /// into its event without the machine's dispatch; `None` leaves it to
    /// [`step`](Self::step), as [`whole_value`](Self::whole_value) does.
    /// `call_at` is the stream offset where the caller's chunk began.
    pub(super) fn value_in_chunk<'r, 'c: 'r, 'a: 'r>(
        &mut self,
        cursor: &mut Cursor,
        input: &mut &'c [u8],
        meta: &Metadata<'a>,
        call_at: u64,
    ) -> Result<Option<ChunkValue<'r>>> {
        let (At::Value { column, ret: false }, Val::Start) = (self.at, &self.val) else {
            return Ok(None);
        };
        let ti = self.type_info(meta, column, false, cursor.pos)?;
        if self.kind == RowKind::NbcRow && self.is_null(column) == Some(true) {
            return Ok(None);
        }
        if self.is_skipped(column) {
            return Ok(None);
        }
        let Some(value) = self.whole_value(cursor, input, column, false, &ti, false)? else {
            return Ok(None);
        };
        let source = value.map(|(_, at)| ValueSource::Chunk {
            offset: (at - call_at) as usize,
        });
        Ok(Some((
            column,
            Value::new_unchecked(ti, value.map(|(data, _)| data)),
            source,
        )))
    }

    /// A value whose length prefix and data both lie in `input`, the common
    /// case, read in one step. `None` leaves it to the steps it stands for:
    /// a split value, a skipped one, the text and PLP layouts (the ones that
    /// may stream), and a length that is not valid for the type. It checks
    /// the same things, in the same order and at the same offsets, as those
    /// steps.
    #[allow(clippy::too_many_arguments)]
    fn whole_value<'c>(
        &mut self,
        cursor: &mut Cursor,
        input: &mut &'c [u8],
        column: u16,
        ret: bool,
        ti: &TypeInfo<'_>,
        skip: bool,
    ) -> Result<Option<WholeValue<'c>>> {
        if skip {
            return Ok(None);
        }
        let layout = ti.layout();
        let (width, len) = match (layout, layout.prefix_width()) {
            (Layout::Fixed(n), _) => (0, u64::from(n)),
            (Layout::Text, _) | (_, None) => return Ok(None),
            (_, Some(width)) => {
                let width = usize::from(width);
                match input.get(..width) {
                    Some(prefix) => (width, le_uint(prefix)),
                    None => return Ok(None),
                }
            }
        };
        if layout.is_null_prefix(len) {
            cursor.take(input, width);
            self.set_null(column, ret, true);
            self.column_done(column, ret);
            return Ok(Some(None));
        }
        if (width > 0 && !ti.value_len_ok(len)) || ((input.len() - width) as u64) < len {
            return Ok(None);
        }
        cursor.take(input, width);
        self.set_null(column, ret, false);
        let at = cursor.pos;
        let data = cursor.take(input, len as usize);
        if ti.data_type.is_ucs2() {
            Ucs2Str::new(data).map_err(|bad| self.bad_ucs2(column, ret, at + bad as u64))?;
        }
        check_value(ti, data).map_err(|i| {
            error_at(
                ErrorKind::InvalidValue(self.site(column, ret)),
                at + i as u64,
            )
        })?;
        self.column_done(column, ret);
        Ok(Some(Some((data, at))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tds::{Event, Metadata, Reader, TdsVersion, TokenType, ValueSource};
    use bumpalo::Bump;
    use std::string::{String, ToString};
    use std::vec::Vec;

    /// Two INTN(4) columns, then an NBCROW with the first NULL and a ROW.
    const STREAM: [u8; 32] = [
        0x81, 2, 0, //
        0, 0, 0, 0, 1, 0, 0x26, 4, 1, b'a', 0, //
        0, 0, 0, 0, 1, 0, 0x26, 4, 0, //
        0xd2, 0b01, 4, 7, 0, 0, 0, //
        0xd1, 0,
    ];

    #[test]
    fn nbcrow_nulls_carry_no_bytes() {
        for chunk in 1..=STREAM.len() {
            let bump = Bump::new();
            let mut meta = Metadata::new(&bump);
            let mut reader = Reader::new(TdsVersion::V7_4);
            let mut out: Vec<String> = Vec::new();
            for mut piece in STREAM.chunks(chunk) {
                while let Status::Complete(event) =
                    reader.next(&mut piece, &mut meta, &mut []).unwrap()
                {
                    if !matches!(event, Event::Token(_) | Event::ColMetadataStart { .. }) {
                        out.push(event.to_string());
                    }
                }
            }
            // The ROW's second column is missing: the stream ends inside it.
            assert_eq!(
                out,
                [
                    "NBCROW",
                    "  [0] NULL",
                    "  [1] 7",
                    "ROWEND",
                    "ROW",
                    "  [0] NULL"
                ]
            );
            let e = reader.finish().unwrap_err();
            assert_eq!(
                e.kind(),
                ErrorKind::UnexpectedEof(Site::column(TokenType::Row, 1))
            );
            assert_eq!(reader.is_null(0), Some(true));
            assert_eq!(reader.is_null(1), None);
        }
    }

    #[test]
    fn value_sources_say_where_the_bytes_are() {
        let mut buf = [0u8; 64];
        for (chunk, want) in [
            // The call that returns the value starts at its length byte.
            (STREAM.len(), ValueSource::Chunk { offset: 1 }),
            (27, ValueSource::Inline),
            (1, ValueSource::Inline),
        ] {
            let bump = Bump::new();
            let mut meta = Metadata::new(&bump);
            let mut reader = Reader::new(TdsVersion::V7_4);
            let mut seen = None;
            for mut piece in STREAM.chunks(chunk) {
                loop {
                    let fed = piece;
                    let Status::Complete(event) =
                        reader.next(&mut piece, &mut meta, &mut buf).unwrap()
                    else {
                        break;
                    };
                    if let Event::Value {
                        value,
                        source: Some(source),
                        ..
                    } = event
                    {
                        let bytes = value.bytes().unwrap();
                        if let ValueSource::Chunk { offset } = source {
                            assert_eq!(&fed[offset..offset + bytes.len()], bytes);
                        }
                        seen = Some((source, bytes.to_vec()));
                    }
                }
            }
            assert_eq!(
                seen,
                Some((want, std::vec![7, 0, 0, 0])),
                "chunks of {chunk}"
            );
        }
    }
}
