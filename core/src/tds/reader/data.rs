//! A value's data bytes once their count is known: where they go, the
//! checks they pass as they arrive, and the read itself, resumable at any
//! byte. The row machine reads every sized value's data with it, and the
//! large-value machine a TEXT, NTEXT or IMAGE value's.

use super::cursor::Cursor;
use super::{SCRATCH_LEN, Src};
use crate::tds::error::{Error, ErrorKind, Result, Site, error_at};
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
/// buffer, and the value's type and site (for errors).
pub(super) struct ValueCx<'x, 'a> {
    /// The stream position and scratch space.
    pub(super) cursor: &'x mut Cursor,
    /// The caller's row buffer.
    pub(super) buf: &'x mut [u8],
    /// The value's type.
    pub(super) ti: &'x TypeInfo<'a>,
    /// The token and column, for errors.
    pub(super) site: Site,
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
    pub(super) fn piece(&mut self, piece: &[u8], at: u64, site: Site) -> Result<()> {
        match &mut self.ucs2 {
            Some(check) => check
                .feed(piece, at)
                .map_err(|bad| error_at(ErrorKind::InvalidUcs2(site), bad)),
            None => Ok(()),
        }
    }

    /// The last piece arrived.
    pub(super) fn finish(&mut self, site: Site) -> Result<()> {
        match self.ucs2.take() {
            Some(mut check) => check
                .finish()
                .map_err(|bad| error_at(ErrorKind::InvalidUcs2(site), bad)),
            None => Ok(()),
        }
    }

    /// The type's own check of the whole value `data`.
    pub(super) fn whole(&self, ti: &TypeInfo<'_>, data: &[u8], site: Site) -> Result<()> {
        check_value(ti, data)
            .map_err(|i| error_at(ErrorKind::InvalidValue(site), self.at + i as u64))
    }

    /// The caller's buffer cannot hold the value (or was swapped for a
    /// smaller one while the value was being assembled in it).
    pub(super) fn too_small(&self, site: Site) -> Error {
        error_at(ErrorKind::BufferTooSmall(site), self.at)
    }
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
    /// `len` bytes to read into `dest`, beginning at the cursor's offset.
    pub(super) fn new(cx: &ValueCx<'_, '_>, len: u32, dest: Dest) -> Data {
        Data {
            left: len,
            len,
            dest,
            checks: Checks::begin(cx.ti, cx.cursor.pos, dest == Dest::Skip),
        }
    }

    /// Whether the value is handed out in pieces.
    pub(super) fn streams(&self) -> bool {
        self.dest == Dest::Stream
    }

    /// Reads on from the front of `input`.
    pub(super) fn step<'c>(
        &mut self,
        cx: &mut ValueCx<'_, '_>,
        input: &mut &'c [u8],
    ) -> Result<ValueStep<'c>> {
        let total = self.len as usize;
        let site = cx.site;
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
                    self.checks.finish(site)?;
                    return Ok(ValueStep::End);
                }
                if input.is_empty() {
                    return Ok(ValueStep::Partial);
                }
                let at = cx.cursor.pos;
                let piece = cx.cursor.take(input, self.left as usize);
                self.checks.piece(piece, at, site)?;
                self.left -= piece.len() as u32;
                Ok(ValueStep::Piece(piece))
            }
            Dest::Borrow => {
                if input.len() >= total {
                    let at = cx.cursor.pos;
                    let data = cx.cursor.take(input, total);
                    self.checks.piece(data, at, site)?;
                    self.checks.finish(site)?;
                    self.checks.whole(cx.ti, data, site)?;
                    return Ok(ValueStep::Whole(Src::Input(data, at)));
                }
                self.dest = if total <= SCRATCH_LEN {
                    Dest::Scratch
                } else if total <= cx.buf.len() {
                    Dest::Buf
                } else {
                    return Err(self.checks.too_small(site));
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
                    _ => cx
                        .buf
                        .get_mut(from..to)
                        .ok_or_else(|| self.checks.too_small(site))?
                        .copy_from_slice(piece),
                }
                self.checks.piece(piece, at, site)?;
                self.left = (total - to) as u32;
                if to < total {
                    return Ok(ValueStep::Partial);
                }
                self.checks.finish(site)?;
                let (data, src) = match self.dest {
                    Dest::Scratch => (&cx.cursor.scratch[..total], Src::Scratch(total)),
                    _ => (
                        cx.buf
                            .get(..total)
                            .ok_or_else(|| self.checks.too_small(site))?,
                        Src::Buf(total),
                    ),
                };
                self.checks.whole(cx.ti, data, site)?;
                Ok(ValueStep::Whole(src))
            }
        }
    }
}
