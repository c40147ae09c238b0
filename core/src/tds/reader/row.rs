//! The row machine: ROW and NBCROW values [MS-TDS 2.2.7.19, 2.2.7.15], read
//! one column at a time, resumable at any byte; RETURNVALUE's value is read
//! the same way.

use super::metadata::Metadata;
use super::{
    LargeValues, MAX_COLUMNS, Out, Reader, SCRATCH_LEN, Src, State, ValuePart, ValueSource, le_uint,
};
use crate::tds::error::{ErrorKind, Result, Site, error_at};
use crate::tds::row::RowKind;
use crate::tds::status::Status;
use crate::tds::type_info::{DataType, Layout, TypeInfo};
use crate::tds::ucs2::{Ucs2Check, Ucs2Str};
use crate::tds::value::{Value, check_value};

/// The row machine's own state: which row token is being read, which of
/// its columns are NULL, which the caller skips, and where the value being
/// read began.
#[derive(Clone, Debug)]
pub(super) struct RowMachine {
    /// The current row's token: ROW or NBCROW.
    pub(super) kind: RowKind,
    /// Columns of the current row.
    pub(super) columns: u16,
    /// Null bits of the current row (the NBC bitmap, or set as each
    /// column's length is read), for the first `known` columns.
    pub(super) nulls: [u8; MAX_COLUMNS as usize / 8],
    pub(super) known: u16,
    /// Columns the caller asked to skip.
    pub(super) skip: [u8; MAX_COLUMNS as usize / 8],
    /// UCS-2 check of the value being read, when it is text.
    pub(super) ucs2: Option<Ucs2Check>,
    /// Where the current value's data began (for checks of whole values).
    pub(super) value_at: u64,
}

impl RowMachine {
    /// Before any row.
    pub(super) const fn new() -> RowMachine {
        RowMachine {
            kind: RowKind::Row,
            columns: 0,
            nulls: [0; MAX_COLUMNS as usize / 8],
            known: 0,
            skip: [0; MAX_COLUMNS as usize / 8],
            ucs2: None,
            value_at: 0,
        }
    }
}

/// Where a value's data goes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Dest {
    /// Not decided: borrowed if it all lies in the chunk.
    Borrow,
    /// Assembled in the reader's scratch space.
    Scratch,
    /// Assembled in the caller's buffer.
    Buf,
    /// Handed out in pieces.
    Stream,
    /// Passed over.
    Skip,
}

/// Where a value read is.
#[derive(Copy, Clone, Debug)]
pub(crate) enum Val {
    /// Before the value.
    Start,
    /// A 1, 2 or 4-byte length prefix (or a text pointer length).
    Prefix { width: u8 },
    /// A text pointer and timestamp to pass over.
    TextPtr { left: u16 },
    /// A TEXT value's u32 length.
    TextLen,
    /// `left` of `len` data bytes to go.
    Data { left: u32, len: u32, dest: Dest },
    /// A PLP total length.
    PlpTotal,
    /// A PLP chunk length; `got` data bytes so far.
    PlpChunkLen {
        got: u64,
        total: Option<u64>,
        dest: Dest,
    },
    /// `left` bytes of a PLP chunk to go.
    PlpChunk {
        left: u32,
        got: u64,
        total: Option<u64>,
        dest: Dest,
    },
}

impl Val {
    pub(super) fn part(self) -> ValuePart {
        match self {
            Val::Start => ValuePart::Start,
            Val::Prefix { .. } | Val::TextLen => ValuePart::Length,
            Val::TextPtr { .. } => ValuePart::TextPointer,
            Val::Data { left, .. } => ValuePart::Data { left },
            Val::PlpTotal => ValuePart::PlpTotal,
            Val::PlpChunkLen { .. } => ValuePart::PlpChunkLength,
            Val::PlpChunk { left, .. } => ValuePart::PlpChunk { left },
        }
    }
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

impl Reader {
    /// A ROW or NBCROW token was read at `at`: checks that the caller's
    /// metadata is the one this reader filled.
    pub(super) fn begin_row(&mut self, kind: RowKind, meta: &Metadata<'_>, at: u64) -> Result<()> {
        if self.generation == 0 || meta.generation() != self.generation {
            return Err(error_at(
                ErrorKind::NoMetadata(Site::token(kind.token())),
                at,
            ));
        }
        let ncols = meta.columns().len() as u16;
        self.row.kind = kind;
        self.row.columns = ncols;
        self.row.known = 0;
        let bytes = usize::from(ncols).div_ceil(8);
        self.row.nulls[..bytes].fill(0);
        self.state = match (kind, ncols) {
            (RowKind::NbcRow, _) => State::Bitmap { have: 0 },
            (RowKind::Row, 0) => State::RowEnd,
            (RowKind::Row, _) => State::Value {
                column: 0,
                ret: false,
                val: Val::Start,
            },
        };
        Ok(())
    }

    /// One step inside a row (or a RETURNVALUE's value). `Complete(None)`:
    /// progress was made, go on.
    pub(super) fn step_row<'c>(
        &mut self,
        input: &mut &'c [u8],
        meta: &Metadata<'_>,
        buf: &mut [u8],
    ) -> Step<'c> {
        match self.state {
            State::Bitmap { have } => {
                let need = usize::from(self.row.columns).div_ceil(8);
                let from = usize::from(have);
                let taken = self.cursor.take(input, need - from);
                self.row.nulls[from..from + taken.len()].copy_from_slice(taken);
                let have = from + taken.len();
                if have < need {
                    self.state = State::Bitmap { have: have as u16 };
                    return Ok(Status::Partial);
                }
                self.row.known = self.row.columns;
                self.state = match self.row.columns {
                    0 => State::RowEnd,
                    _ => State::Value {
                        column: 0,
                        ret: false,
                        val: Val::Start,
                    },
                };
                Ok(Status::Complete(Some(Out::RowStart(RowKind::NbcRow))))
            }
            State::Value { column, ret, val } => {
                let ti = self.type_info(meta, column, ret)?;
                self.step_value(input, buf, column, ret, val, &ti)
            }
            _ => Ok(Status::Complete(None)),
        }
    }

    fn set_val(&mut self, column: u16, ret: bool, val: Val) {
        self.state = State::Value { column, ret, val };
    }

    /// The value of `column` is done: on to the next column, the row's end,
    /// or (for a RETURNVALUE) the next token.
    fn column_done(&mut self, column: u16, ret: bool) {
        self.state = if ret {
            State::Token
        } else if column + 1 >= self.row.columns {
            State::RowEnd
        } else {
            State::Value {
                column: column + 1,
                ret,
                val: Val::Start,
            }
        };
    }

    /// A NULL value: marks it, and moves on.
    fn mark_null(&mut self, column: u16, ret: bool) {
        if !ret {
            self.set_null(column, true);
        }
        self.column_done(column, ret);
    }

    /// A NULL value: its event, unless the column is skipped.
    fn null(&mut self, column: u16, ret: bool, skip: bool) -> Option<Out<'static>> {
        self.mark_null(column, ret);
        (!skip).then_some(Out::Value {
            column,
            ret,
            src: None,
        })
    }

    fn check_text(&mut self, piece: &[u8], at: u64, site: Site) -> Result<()> {
        match &mut self.row.ucs2 {
            Some(check) => check
                .feed(piece, at)
                .map_err(|bad| error_at(ErrorKind::InvalidUcs2(site), bad)),
            None => Ok(()),
        }
    }

    fn finish_text(&mut self, site: Site) -> Result<()> {
        match self.row.ucs2.take() {
            Some(mut check) => check
                .finish()
                .map_err(|bad| error_at(ErrorKind::InvalidUcs2(site), bad)),
            None => Ok(()),
        }
    }

    /// The caller's buffer cannot hold the value (or was swapped for a
    /// smaller one while the value was being assembled in it).
    fn buffer_too_small(&self, site: Site) -> crate::tds::error::Error {
        error_at(ErrorKind::BufferTooSmall(site), self.row.value_at)
    }

    fn check_whole(&self, ti: &TypeInfo<'_>, data: &[u8], site: Site) -> Result<()> {
        check_value(ti, data)
            .map_err(|i| error_at(ErrorKind::InvalidValue(site), self.row.value_at + i as u64))
    }

    /// Where a value with data starts going.
    fn dest(&mut self, ti: &TypeInfo<'_>, skip: bool) -> Dest {
        self.row.value_at = self.cursor.pos;
        self.row.ucs2 = (ti.data_type.is_ucs2() && !skip).then(Ucs2Check::default);
        if skip {
            Dest::Skip
        } else if self.large == LargeValues::Stream && ti.is_large() {
            Dest::Stream
        } else {
            Dest::Borrow
        }
    }

    /// A value of `len` data bytes begins.
    fn begin_data(
        &mut self,
        column: u16,
        ret: bool,
        ti: &TypeInfo<'_>,
        len: u32,
        skip: bool,
    ) -> Option<Out<'static>> {
        let dest = self.dest(ti, skip);
        self.set_val(
            column,
            ret,
            Val::Data {
                left: len,
                len,
                dest,
            },
        );
        (dest == Dest::Stream).then_some(Out::ValueStart {
            column,
            ret,
            total: Some(u64::from(len)),
        })
    }

    fn step_value<'c>(
        &mut self,
        input: &mut &'c [u8],
        buf: &mut [u8],
        column: u16,
        ret: bool,
        val: Val,
        ti: &TypeInfo<'_>,
    ) -> Step<'c> {
        let site = self.value_site(column, ret);
        let skip = !ret && self.is_skipped(column);
        let done = |out| Ok(Status::Complete(out));
        match val {
            Val::Start => {
                if !ret && self.row.kind == RowKind::NbcRow && self.is_null(column) == Some(true) {
                    return done(self.null(column, ret, skip));
                }
                if let Some(value) = self.whole_value(input, column, ret, ti, site, skip)? {
                    return done(Some(Out::Value {
                        column,
                        ret,
                        src: value.map(|(data, at)| Src::Input(data, at)),
                    }));
                }
                let layout = ti.layout();
                let next = match (layout, layout.prefix_width()) {
                    (_, Some(width)) => Val::Prefix { width },
                    (Layout::AlwaysNull, _) => return done(self.null(column, ret, skip)),
                    (Layout::Fixed(n), _) => {
                        if !ret {
                            self.set_null(column, false);
                        }
                        return done(self.begin_data(column, ret, ti, u32::from(n), skip));
                    }
                    _ => Val::PlpTotal,
                };
                self.set_val(column, ret, next);
                done(None)
            }
            Val::Prefix { width } => {
                let width = usize::from(width);
                if !self.cursor.fill(input, width) {
                    return Ok(Status::Partial);
                }
                let at = self.cursor.pos - width as u64;
                let len = self.cursor.scratch_uint(width);
                let layout = ti.layout();
                if layout.is_null_prefix(len) {
                    return done(self.null(column, ret, skip));
                }
                if !ret {
                    self.set_null(column, false);
                }
                if layout == Layout::Text {
                    self.set_val(
                        column,
                        ret,
                        Val::TextPtr {
                            left: len as u16 + 8,
                        },
                    );
                    return done(None);
                }
                if !ti.value_len_ok(len) {
                    let kind = if is_variable(ti.data_type) && len > u64::from(ti.max_len) {
                        ErrorKind::LengthOverflow(site)
                    } else {
                        ErrorKind::InvalidValue(site)
                    };
                    return Err(error_at(kind, at));
                }
                done(self.begin_data(column, ret, ti, len as u32, skip))
            }
            Val::TextPtr { left } => {
                let taken = self.cursor.take(input, usize::from(left)).len() as u16;
                if taken < left {
                    self.set_val(column, ret, Val::TextPtr { left: left - taken });
                    return Ok(Status::Partial);
                }
                self.set_val(column, ret, Val::TextLen);
                done(None)
            }
            Val::TextLen => {
                if !self.cursor.fill(input, 4) {
                    return Ok(Status::Partial);
                }
                let len = self.cursor.scratch_uint(4);
                if len > u64::from(ti.max_len) {
                    return Err(error_at(
                        ErrorKind::LengthOverflow(site),
                        self.cursor.pos - 4,
                    ));
                }
                done(self.begin_data(column, ret, ti, len as u32, skip))
            }
            Val::Data { left, len, dest } => {
                self.step_data(input, buf, column, ret, ti, site, left, len, dest)
            }
            Val::PlpTotal => {
                if !self.cursor.fill(input, 8) {
                    return Ok(Status::Partial);
                }
                let total = self.cursor.scratch_uint(8);
                if total == u64::MAX {
                    return done(self.null(column, ret, skip));
                }
                if !ret {
                    self.set_null(column, false);
                }
                let total = (total != u64::MAX - 1).then_some(total);
                let dest = self.dest(ti, skip);
                self.set_val(
                    column,
                    ret,
                    Val::PlpChunkLen {
                        got: 0,
                        total,
                        dest,
                    },
                );
                done((dest == Dest::Stream).then_some(Out::ValueStart { column, ret, total }))
            }
            Val::PlpChunkLen { got, total, dest } => {
                if dest == Dest::Borrow
                    && got == 0
                    && self.cursor.have == 0
                    && let Some(out) = self.plp_in_one_piece(input, column, ret, ti, site, total)?
                {
                    return done(Some(out));
                }
                if !self.cursor.fill(input, 4) {
                    return Ok(Status::Partial);
                }
                let at = self.cursor.pos - 4;
                let len = self.cursor.scratch_uint(4);
                if len == 0 {
                    if total.is_some_and(|total| total != got) {
                        return Err(error_at(ErrorKind::PlpLengthMismatch(site), at));
                    }
                    self.finish_text(site)?;
                    self.column_done(column, ret);
                    let got = got as usize;
                    return done(match dest {
                        Dest::Stream => Some(Out::ValueEnd { column }),
                        Dest::Skip => None,
                        Dest::Borrow => Some(Out::Value {
                            column,
                            ret,
                            src: Some(Src::Input(&[], self.cursor.pos)),
                        }),
                        Dest::Buf | Dest::Scratch => {
                            let data = buf.get(..got).ok_or_else(|| self.buffer_too_small(site))?;
                            self.check_whole(ti, data, site)?;
                            Some(Out::Value {
                                column,
                                ret,
                                src: Some(Src::Buf(got)),
                            })
                        }
                    });
                }
                let sum = got + len;
                if total.is_some_and(|total| sum > total) {
                    return Err(error_at(ErrorKind::PlpLengthMismatch(site), at));
                }
                let dest = if dest == Dest::Borrow {
                    Dest::Buf
                } else {
                    dest
                };
                if dest == Dest::Buf && sum > buf.len() as u64 {
                    return Err(error_at(ErrorKind::BufferTooSmall(site), at));
                }
                self.set_val(
                    column,
                    ret,
                    Val::PlpChunk {
                        left: len as u32,
                        got,
                        total,
                        dest,
                    },
                );
                done(None)
            }
            Val::PlpChunk {
                left,
                got,
                total,
                dest,
            } => {
                if left == 0 {
                    self.set_val(column, ret, Val::PlpChunkLen { got, total, dest });
                    return done(None);
                }
                if input.is_empty() {
                    return Ok(Status::Partial);
                }
                let at = self.cursor.pos;
                let piece = self.cursor.take(input, left as usize);
                self.check_text(piece, at, site)?;
                let n = piece.len();
                if dest == Dest::Buf {
                    let from = got as usize;
                    let dest = buf
                        .get_mut(from..from + n)
                        .ok_or_else(|| self.buffer_too_small(site))?;
                    dest.copy_from_slice(piece);
                }
                self.set_val(
                    column,
                    ret,
                    Val::PlpChunk {
                        left: left - n as u32,
                        got: got + n as u64,
                        total,
                        dest,
                    },
                );
                done((dest == Dest::Stream).then_some(Out::ValueChunk {
                    column,
                    bytes: piece,
                }))
            }
        }
    }

    /// A row's value that lies whole in `input` (or a NULL), read straight
    /// into its event without the state machine's dispatch; `None` leaves
    /// it to [`step_value`](Self::step_value), as [`whole_value`](Self::whole_value) does.
    pub(super) fn value_in_chunk<'r, 'c: 'r, 'a: 'r>(
        &mut self,
        input: &mut &'c [u8],
        meta: &Metadata<'a>,
        column: u16,
    ) -> Result<Option<(Value<'r>, Option<ValueSource>)>> {
        let ti = self.type_info(meta, column, false)?;
        if self.row.kind == RowKind::NbcRow && self.is_null(column) == Some(true) {
            return Ok(None);
        }
        if self.is_skipped(column) {
            return Ok(None);
        }
        let site = self.value_site(column, false);
        let Some(value) = self.whole_value(input, column, false, &ti, site, false)? else {
            return Ok(None);
        };
        let source = value.map(|(_, at)| ValueSource::Chunk {
            offset: (at - self.call_at) as usize,
        });
        Ok(Some((
            Value::checked(ti, value.map(|(data, _)| data)),
            source,
        )))
    }

    /// A value whose length prefix and data both lie in `input`, the common
    /// case, read in one step. `None` leaves it to the steps it stands for:
    /// a split value, a skipped one, the text and PLP layouts (the ones that
    /// may stream), and a length that is not valid for the type. It checks
    /// the same things, in the same order and at the same offsets, as those
    /// steps.
    fn whole_value<'c>(
        &mut self,
        input: &mut &'c [u8],
        column: u16,
        ret: bool,
        ti: &TypeInfo<'_>,
        site: Site,
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
            self.cursor.take(input, width);
            self.mark_null(column, ret);
            return Ok(Some(None));
        }
        if (width > 0 && !ti.value_len_ok(len)) || ((input.len() - width) as u64) < len {
            return Ok(None);
        }
        self.cursor.take(input, width);
        if !ret {
            self.set_null(column, false);
        }
        self.row.value_at = self.cursor.pos;
        let at = self.cursor.pos;
        let data = self.cursor.take(input, len as usize);
        if ti.data_type.is_ucs2() {
            Ucs2Str::new(data)
                .map_err(|bad| error_at(ErrorKind::InvalidUcs2(site), at + bad as u64))?;
        }
        self.check_whole(ti, data, site)?;
        self.column_done(column, ret);
        Ok(Some(Some((data, at))))
    }

    /// A known-length value's data.
    #[allow(clippy::too_many_arguments)]
    fn step_data<'c>(
        &mut self,
        input: &mut &'c [u8],
        buf: &mut [u8],
        column: u16,
        ret: bool,
        ti: &TypeInfo<'_>,
        site: Site,
        left: u32,
        len: u32,
        dest: Dest,
    ) -> Step<'c> {
        let total = len as usize;
        match dest {
            Dest::Skip => {
                let taken = self.cursor.take(input, left as usize).len() as u32;
                if taken < left {
                    self.set_val(
                        column,
                        ret,
                        Val::Data {
                            left: left - taken,
                            len,
                            dest,
                        },
                    );
                    return Ok(Status::Partial);
                }
                self.column_done(column, ret);
                Ok(Status::Complete(None))
            }
            Dest::Stream => {
                if left == 0 {
                    self.finish_text(site)?;
                    self.column_done(column, ret);
                    return Ok(Status::Complete(Some(Out::ValueEnd { column })));
                }
                if input.is_empty() {
                    return Ok(Status::Partial);
                }
                let at = self.cursor.pos;
                let piece = self.cursor.take(input, left as usize);
                self.check_text(piece, at, site)?;
                self.set_val(
                    column,
                    ret,
                    Val::Data {
                        left: left - piece.len() as u32,
                        len,
                        dest,
                    },
                );
                Ok(Status::Complete(Some(Out::ValueChunk {
                    column,
                    bytes: piece,
                })))
            }
            Dest::Borrow => {
                if input.len() >= total {
                    let at = self.cursor.pos;
                    let data = self.cursor.take(input, total);
                    self.check_text(data, at, site)?;
                    self.finish_text(site)?;
                    self.check_whole(ti, data, site)?;
                    self.column_done(column, ret);
                    return Ok(Status::Complete(Some(Out::Value {
                        column,
                        ret,
                        src: Some(Src::Input(data, at)),
                    })));
                }
                let dest = if total <= SCRATCH_LEN {
                    Dest::Scratch
                } else if total <= buf.len() {
                    Dest::Buf
                } else {
                    return Err(error_at(ErrorKind::BufferTooSmall(site), self.row.value_at));
                };
                self.set_val(column, ret, Val::Data { left, len, dest });
                Ok(Status::Complete(None))
            }
            Dest::Scratch | Dest::Buf => {
                let from = total - left as usize;
                let at = self.cursor.pos;
                let piece = self.cursor.take(input, left as usize);
                let to = from + piece.len();
                match dest {
                    Dest::Scratch => self.cursor.scratch[from..to].copy_from_slice(piece),
                    _ => buf
                        .get_mut(from..to)
                        .ok_or_else(|| self.buffer_too_small(site))?
                        .copy_from_slice(piece),
                }
                self.check_text(piece, at, site)?;
                if to < total {
                    self.set_val(
                        column,
                        ret,
                        Val::Data {
                            left: (total - to) as u32,
                            len,
                            dest,
                        },
                    );
                    return Ok(Status::Partial);
                }
                self.finish_text(site)?;
                let src = match dest {
                    Dest::Scratch => {
                        self.check_whole(ti, &self.cursor.scratch[..total], site)?;
                        Src::Scratch(total)
                    }
                    _ => {
                        let data = buf
                            .get(..total)
                            .ok_or_else(|| self.buffer_too_small(site))?;
                        self.check_whole(ti, data, site)?;
                        Src::Buf(total)
                    }
                };
                self.column_done(column, ret);
                Ok(Status::Complete(Some(Out::Value {
                    column,
                    ret,
                    src: Some(src),
                })))
            }
        }
    }

    /// A PLP value that is one chunk and the terminator, all in this
    /// chunk: borrowed whole. Checks the same things, in the same order and
    /// at the same offsets, as reading it piece by piece would.
    #[allow(clippy::too_many_arguments)]
    fn plp_in_one_piece<'c>(
        &mut self,
        input: &mut &'c [u8],
        column: u16,
        ret: bool,
        ti: &TypeInfo<'_>,
        site: Site,
        total: Option<u64>,
    ) -> Result<Option<Out<'c>>> {
        let Some(head) = input.first_chunk::<4>() else {
            return Ok(None);
        };
        let len = u32::from_le_bytes(*head) as usize;
        let end = len.checked_add(8);
        let terminated = end
            .and_then(|end| input.get(end - 4..end))
            .is_some_and(|tail| tail == [0, 0, 0, 0]);
        if len == 0 || !terminated {
            return Ok(None);
        }
        if total.is_some_and(|total| len as u64 > total) {
            return Err(error_at(
                ErrorKind::PlpLengthMismatch(site),
                self.cursor.pos,
            ));
        }
        self.cursor.take(input, 4);
        let at = self.cursor.pos;
        let data = self.cursor.take(input, len);
        self.check_text(data, at, site)?;
        let terminator_at = self.cursor.pos;
        self.cursor.take(input, 4);
        if total.is_some_and(|total| total != len as u64) {
            return Err(error_at(ErrorKind::PlpLengthMismatch(site), terminator_at));
        }
        self.finish_text(site)?;
        self.check_whole(ti, data, site)?;
        self.column_done(column, ret);
        Ok(Some(Out::Value {
            column,
            ret,
            src: Some(Src::Input(data, at)),
        }))
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
