//! A value's data bytes once their count is known: where they go, the
//! checks they pass as they arrive, and the read itself, resumable at any
//! byte. The row machine reads every sized value's data with it, and the
//! large-value machine a TEXT, NTEXT or IMAGE value's.

use super::cursor::{Cursor, copy};
use super::metadata::Metadata;
use super::{SCRATCH_LEN, Src};
use crate::tds::error::{Error, ErrorKind, Result, Site, error_at};
use crate::tds::row::RowKind;
use crate::tds::token::TokenType;
use crate::tds::type_info::TypeInfo;
use crate::tds::ucs2::Ucs2Check;
use crate::tds::value::check_value;

/// Where a value's data goes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Dest {
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

impl Dest {
    /// Where a value of type `ti` goes first: passed over if the caller
    /// skips it, in pieces if it is large and large values stream, else
    /// borrowed if it can be.
    pub(super) fn first(ti: &TypeInfo<'_>, skip: bool, stream_large: bool) -> Dest {
        if skip {
            Dest::Skip
        } else if stream_large && ti.is_large() {
            Dest::Stream
        } else {
            Dest::Borrow
        }
    }
}

/// What a value machine reads with: the reader's cursor, the caller's
/// buffer, and which value it is. The value's type and its site (for
/// errors) are looked up only when a step needs them: most steps of a value
/// split across chunks just take bytes.
pub(super) struct ValueCx<'x, 'a> {
    /// The stream position and scratch space.
    pub(super) cursor: &'x mut Cursor,
    /// The caller's row buffer.
    pub(super) buf: &'x mut [u8],
    /// The columns the value's type is in.
    pub(super) meta: &'x Metadata<'a>,
    /// The row's token.
    pub(super) kind: RowKind,
    /// The column (0 for a return value).
    pub(super) column: u16,
    /// The value is a RETURNVALUE's.
    pub(super) ret: bool,
}

impl<'a> ValueCx<'_, 'a> {
    /// The token and column, for errors. Out of line: only errors need it.
    #[cold]
    #[inline(never)]
    pub(super) fn site(&self) -> Site {
        value_site(self.kind, self.column, self.ret)
    }

    /// The error for a bad UCS-2 unit of the value at stream offset `at`.
    #[cold]
    pub(super) fn bad_ucs2(&self, at: u64) -> Error {
        error_at(ErrorKind::InvalidUcs2(self.site()), at)
    }

    /// The value's type. Out of line: it has many callers, and each one
    /// needs it once per value at most.
    #[inline(never)]
    pub(super) fn type_info(&self) -> Result<TypeInfo<'a>> {
        type_info(self.meta, self.kind, self.column, self.ret, self.cursor.pos)
    }
}

/// Where a value of `column` of a `kind` row, or a return value (`ret`),
/// is, for errors.
pub(super) fn value_site(kind: RowKind, column: u16, ret: bool) -> Site {
    if ret {
        Site::token(TokenType::ReturnValue)
    } else {
        Site::column(kind.token(), column)
    }
}

/// The type of column `column` of a `kind` row (or of the return value);
/// without one, an error at stream offset `at`.
pub(super) fn type_info<'a>(
    meta: &Metadata<'a>,
    kind: RowKind,
    column: u16,
    ret: bool,
    at: u64,
) -> Result<TypeInfo<'a>> {
    let found = if ret {
        meta.return_value().map(|rv| rv.type_info)
    } else {
        meta.columns().get(usize::from(column)).map(|c| c.type_info)
    };
    found.ok_or_else(|| error_at(ErrorKind::NoMetadata(value_site(kind, column, ret)), at))
}

/// The checks a value's data passes: UCS-2 piece by piece as text arrives
/// (a code unit or surrogate pair may straddle pieces), and the type's own
/// check once the value is whole.
#[derive(Copy, Clone, Debug, Default)]
pub(super) struct Checks {
    /// The stream offset of the value's first data byte.
    at: u64,
    ucs2: Option<Ucs2Check>,
}

impl Checks {
    /// The data of a value of type `ti` begins at `at`; `skip`ped text is
    /// not checked.
    pub(super) fn begin(ti: &TypeInfo<'_>, at: u64, skip: bool) -> Checks {
        Checks {
            at,
            ucs2: (ti.data_type.is_ucs2() && !skip).then(Ucs2Check::default),
        }
    }

    /// `piece`, whose first byte is at stream offset `at`, arrived.
    pub(super) fn piece(&mut self, cx: &ValueCx<'_, '_>, piece: &[u8], at: u64) -> Result<()> {
        self.feed(piece, at).map_err(|bad| cx.bad_ucs2(bad))
    }

    /// [`piece`](Self::piece), failing with the stream offset of a bad
    /// UCS-2 unit.
    #[inline]
    pub(super) fn feed(&mut self, piece: &[u8], at: u64) -> core::result::Result<(), u64> {
        match &mut self.ucs2 {
            Some(check) => check.feed(piece, at),
            None => Ok(()),
        }
    }

    /// Takes up to `n` of the value's bytes from the front of `input` and
    /// checks them, failing with the stream offset of a bad UCS-2 unit.
    #[inline]
    pub(super) fn take<'c>(
        &mut self,
        cursor: &mut Cursor,
        input: &mut &'c [u8],
        n: usize,
    ) -> core::result::Result<&'c [u8], u64> {
        let at = cursor.pos;
        let piece = cursor.take(input, n);
        self.feed(piece, at)?;
        Ok(piece)
    }

    /// The last piece arrived.
    pub(super) fn finish(&mut self, cx: &ValueCx<'_, '_>) -> Result<()> {
        match self.ucs2.take() {
            Some(mut check) => check.finish().map_err(|bad| cx.bad_ucs2(bad)),
            None => Ok(()),
        }
    }

    /// The type's own check of the whole value `data`.
    pub(super) fn whole(&self, cx: &ValueCx<'_, '_>, data: &[u8]) -> Result<()> {
        check_value(&cx.type_info()?, data)
            .map_err(|i| error_at(ErrorKind::InvalidValue(cx.site()), self.at + i as u64))
    }

    /// The caller's buffer cannot hold the value (or was swapped for a
    /// smaller one while the value was being assembled in it).
    pub(super) fn too_small(&self, cx: &ValueCx<'_, '_>) -> Error {
        error_at(ErrorKind::BufferTooSmall(cx.site()), self.at)
    }
}

/// What a fast step of a value machine did (see [`Data::fast_step`]).
#[derive(Copy, Clone, Debug)]
pub(super) enum Fast<'c> {
    /// All of the input went into the field or value being read, which
    /// needs more: there is nothing to hand out.
    Taken,
    /// The next piece of a streamed value.
    Piece(&'c [u8]),
}

/// The read of `len` data bytes, `left` of them to go.
#[derive(Copy, Clone, Debug)]
pub(super) struct Data {
    pub(super) left: u32,
    len: u32,
    dest: Dest,
    checks: Checks,
}

/// What one step of a value's read did: of [`Data::step`], or of the
/// large-value machine's.
#[derive(Copy, Clone, Debug)]
pub(super) enum ValueStep<'c> {
    /// The input ran out inside a field.
    Partial,
    /// A field was read, or the destination settled: step again.
    Field,
    /// The value is NULL, and over.
    Null,
    /// The value is not NULL: its data, `total` bytes if the server said,
    /// comes next; `stream`: in pieces.
    Length { total: Option<u64>, stream: bool },
    /// A piece of a streamed value.
    Piece(&'c [u8]),
    /// A streamed value is over.
    End,
    /// The value is whole, there, and over.
    Whole(Src<'c>),
    /// A passed-over value is over.
    Skipped,
}

impl Data {
    /// `len` bytes of a value of type `ti` to read into `dest`, beginning
    /// at stream offset `at`.
    pub(super) fn new(ti: &TypeInfo<'_>, at: u64, len: u32, dest: Dest) -> Data {
        Data {
            left: len,
            len,
            dest,
            checks: Checks::begin(ti, at, dest == Dest::Skip),
        }
    }

    /// Whether the value is handed out in pieces.
    pub(super) fn streams(&self) -> bool {
        self.dest == Dest::Stream
    }

    /// One step of the value without the machine's dispatch, when it
    /// needs no decision: all of `input` goes into a value assembled or
    /// passed over that needs more than that ([`Fast::Taken`]), or the
    /// front of it is a streamed value's next piece ([`Fast::Piece`]).
    /// `Ok(None)`, with nothing taken, leaves `input` to
    /// [`step`](Self::step); an error is the stream offset of a bad UCS-2
    /// unit.
    #[inline]
    pub(super) fn fast_step<'c>(
        &mut self,
        cursor: &mut Cursor,
        input: &mut &'c [u8],
        buf: &mut [u8],
    ) -> core::result::Result<Option<Fast<'c>>, u64> {
        let n = input.len();
        let from = (self.len - self.left) as usize;
        let to = from + n;
        match self.dest {
            Dest::Stream if self.left == 0 || n == 0 => return Ok(None),
            Dest::Stream => return self.piece(cursor, input).map(|p| Some(Fast::Piece(p))),
            _ if n >= self.left as usize => return Ok(None),
            Dest::Scratch => copy(&mut cursor.scratch[from..to], input),
            Dest::Buf => match buf.get_mut(from..to) {
                Some(place) => copy(place, input),
                None => return Ok(None),
            },
            Dest::Skip => {}
            Dest::Borrow => return Ok(None),
        }
        self.checks.take(cursor, input, n)?;
        self.left -= n as u32;
        Ok(Some(Fast::Taken))
    }

    /// The next piece of a streamed value: as much of the front of `input`
    /// as the value has left, checked; an error is the stream offset of a
    /// bad UCS-2 unit.
    #[inline]
    fn piece<'c>(
        &mut self,
        cursor: &mut Cursor,
        input: &mut &'c [u8],
    ) -> core::result::Result<&'c [u8], u64> {
        let piece = self.checks.take(cursor, input, self.left as usize)?;
        self.left -= piece.len() as u32;
        Ok(piece)
    }

    /// Reads on from the front of `input`.
    pub(super) fn step<'c>(
        &mut self,
        cx: &mut ValueCx<'_, '_>,
        input: &mut &'c [u8],
    ) -> Result<ValueStep<'c>> {
        let total = self.len as usize;
        match self.dest {
            Dest::Skip => {
                self.left -= cx.cursor.take(input, self.left as usize).len() as u32;
                Ok(match self.left {
                    0 => ValueStep::Skipped,
                    _ => ValueStep::Partial,
                })
            }
            Dest::Stream => {
                if self.left == 0 {
                    self.checks.finish(cx)?;
                    return Ok(ValueStep::End);
                }
                if input.is_empty() {
                    return Ok(ValueStep::Partial);
                }
                self.piece(cx.cursor, input)
                    .map(ValueStep::Piece)
                    .map_err(|bad| cx.bad_ucs2(bad))
            }
            Dest::Borrow => {
                if input.len() >= total {
                    let at = cx.cursor.pos;
                    let data = cx.cursor.take(input, total);
                    self.checks.piece(cx, data, at)?;
                    self.checks.finish(cx)?;
                    self.checks.whole(cx, data)?;
                    return Ok(ValueStep::Whole(Src::Input(data, at)));
                }
                self.dest = if total <= SCRATCH_LEN {
                    Dest::Scratch
                } else if total <= cx.buf.len() {
                    Dest::Buf
                } else {
                    return Err(self.checks.too_small(cx));
                };
                Ok(ValueStep::Field)
            }
            Dest::Scratch | Dest::Buf => {
                let from = total - self.left as usize;
                let at = cx.cursor.pos;
                let piece = cx.cursor.take(input, self.left as usize);
                let to = from + piece.len();
                match self.dest {
                    Dest::Scratch => cx.cursor.scratch[from..to].copy_from_slice(piece),
                    _ if to > cx.buf.len() => return Err(self.checks.too_small(cx)),
                    _ => cx.buf[from..to].copy_from_slice(piece),
                }
                self.checks.piece(cx, piece, at)?;
                self.left = (total - to) as u32;
                if to < total {
                    return Ok(ValueStep::Partial);
                }
                self.checks.finish(cx)?;
                let (data, src) = match self.dest {
                    Dest::Scratch => (&cx.cursor.scratch[..total], Src::Scratch(total)),
                    _ => (
                        cx.buf
                            .get(..total)
                            .ok_or_else(|| self.checks.too_small(cx))?,
                        Src::Buf(total),
                    ),
                };
                self.checks.whole(cx, data)?;
                Ok(ValueStep::Whole(src))
            }
        }
    }
}
