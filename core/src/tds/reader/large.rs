//! The large-value machine: a PLP value [MS-TDS 2.2.5.2.3]
//! (varchar(max), nvarchar(max), varbinary(max), xml, UDT) or a TEXT,
//! NTEXT or IMAGE value [MS-TDS 2.2.5.2.2], read field by field and piece
//! by piece, resumable at any byte: borrowed whole, assembled in the
//! caller's buffer, handed out in pieces, or passed over.

use super::cursor::{Cursor, copy};
use super::data::{Checks, Data, Dest, Fast, ValueCx, ValueStep};
use super::{Src, ValuePart};
use crate::tds::error::{ErrorKind, Result, error_at};

/// The PLP total of a NULL.
pub(super) const PLP_NULL: u64 = u64::MAX;
/// The PLP total of a value whose length the server did not announce.
pub(super) const PLP_UNKNOWN: u64 = u64::MAX - 1;

/// Where the read of a large value is.
#[derive(Copy, Clone, Debug)]
pub(super) struct LargeMachine {
    part: Part,
    dest: Dest,
}

#[derive(Copy, Clone, Debug)]
enum Part {
    /// TEXT's text pointer and timestamp: `left` bytes to pass over.
    TextPointer { left: u16 },
    /// TEXT's 4-byte length.
    TextLength,
    /// TEXT's data.
    TextData(Data),
    /// PLP's 8-byte total length.
    PlpTotal,
    /// A PLP chunk's length; `plp.got` data bytes so far.
    ChunkLength(Plp),
    /// `left` bytes of a PLP chunk to go.
    Chunk { left: u32, plp: Plp },
}

/// A PLP value's progress.
#[derive(Copy, Clone, Debug)]
struct Plp {
    /// Data bytes so far.
    got: u64,
    /// The announced total length (`None`: unknown).
    total: Option<u64>,
    checks: Checks,
}

impl LargeMachine {
    /// A TEXT, NTEXT or IMAGE value whose text pointer length,
    /// `pointer_len`, was read (and was not 0, NULL).
    pub(super) fn text(pointer_len: u8, dest: Dest) -> LargeMachine {
        LargeMachine {
            part: Part::TextPointer {
                left: u16::from(pointer_len) + 8,
            },
            dest,
        }
    }

    /// A PLP value, from its total length.
    pub(super) fn plp(dest: Dest) -> LargeMachine {
        LargeMachine {
            part: Part::PlpTotal,
            dest,
        }
    }

    /// The part being read, by name.
    pub(super) fn public(&self) -> ValuePart {
        match self.part {
            Part::TextPointer { .. } => ValuePart::TextPointer,
            Part::TextLength => ValuePart::Length,
            Part::TextData(data) => ValuePart::Data { left: data.left },
            Part::PlpTotal => ValuePart::PlpTotal,
            Part::ChunkLength(_) => ValuePart::PlpChunkLength,
            Part::Chunk { left, .. } => ValuePart::PlpChunk { left },
        }
    }

    /// Reads on from the front of `input`.
    pub(super) fn step<'c>(
        &mut self,
        cx: &mut ValueCx<'_, '_>,
        input: &mut &'c [u8],
    ) -> Result<ValueStep<'c>> {
        match &mut self.part {
            &mut Part::TextPointer { left } => {
                let taken = cx.cursor.take(input, usize::from(left)).len() as u16;
                if taken < left {
                    self.part = Part::TextPointer { left: left - taken };
                    return Ok(ValueStep::Partial);
                }
                self.part = Part::TextLength;
                Ok(ValueStep::Field)
            }
            Part::TextLength => {
                if !cx.cursor.fill(input, 4) {
                    return Ok(ValueStep::Partial);
                }
                let len = cx.cursor.scratch_uint(4);
                let ti = cx.type_info()?;
                if len > u64::from(ti.max_len) {
                    let at = cx.cursor.pos - 4;
                    return Err(error_at(ErrorKind::LengthOverflow(cx.site()), at));
                }
                let data = Data::new(&ti, cx.cursor.pos, len as u32, self.dest);
                self.part = Part::TextData(data);
                Ok(ValueStep::Length {
                    total: Some(len),
                    stream: data.streams(),
                })
            }
            Part::TextData(data) => data.step(cx, input),
            Part::PlpTotal => {
                if !cx.cursor.fill(input, 8) {
                    return Ok(ValueStep::Partial);
                }
                let total = cx.cursor.scratch_uint(8);
                if total == PLP_NULL {
                    return Ok(ValueStep::Null);
                }
                let total = (total != PLP_UNKNOWN).then_some(total);
                self.part = Part::ChunkLength(Plp {
                    got: 0,
                    total,
                    checks: Checks::begin(&cx.type_info()?, cx.cursor.pos, self.dest == Dest::Skip),
                });
                Ok(ValueStep::Length {
                    total,
                    stream: self.dest == Dest::Stream,
                })
            }
            &mut Part::ChunkLength(plp) => self.chunk_length(cx, input, plp),
            Part::Chunk { left, plp } => {
                if *left == 0 {
                    self.part = Part::ChunkLength(*plp);
                    return Ok(ValueStep::Field);
                }
                if input.is_empty() {
                    return Ok(ValueStep::Partial);
                }
                let at = cx.cursor.pos;
                let piece = cx.cursor.take(input, *left as usize);
                take_piece(self.dest, cx, plp, piece, at)?;
                *left -= piece.len() as u32;
                Ok(match self.dest {
                    Dest::Stream => ValueStep::Piece(piece),
                    _ => ValueStep::Field,
                })
            }
        }
    }

    /// One step without the machine's dispatch: a length being gathered,
    /// a TEXT value's data or a PLP chunk's, taken whole or handed out as
    /// the next piece; see [`Data::fast_step`]. `Ok(None)`, with nothing
    /// taken, leaves `input` to [`step`](Self::step).
    #[inline]
    pub(super) fn fast_step<'c>(
        &mut self,
        cursor: &mut Cursor,
        input: &mut &'c [u8],
        buf: &mut [u8],
    ) -> core::result::Result<Option<Fast<'c>>, u64> {
        let (left, plp) = match &mut self.part {
            Part::TextData(data) => return data.fast_step(cursor, input, buf),
            Part::Chunk { left, plp } => (left, plp),
            Part::PlpTotal => return Ok(cursor.gather(input, 8).then_some(Fast::Taken)),
            Part::ChunkLength(_) | Part::TextLength => {
                return Ok(cursor.gather(input, 4).then_some(Fast::Taken));
            }
            Part::TextPointer { .. } => return Ok(None),
        };
        let n = input.len();
        match self.dest {
            Dest::Stream if *left == 0 || n == 0 => return Ok(None),
            Dest::Stream => {}
            _ if n >= *left as usize => return Ok(None),
            Dest::Buf => {
                let from = plp.got as usize;
                let Some(place) = buf.get_mut(from..from + n) else {
                    return Ok(None);
                };
                copy(place, input);
            }
            Dest::Skip => {}
            Dest::Borrow | Dest::Scratch => return Ok(None),
        }
        let piece = plp.checks.take(cursor, input, *left as usize)?;
        plp.got += piece.len() as u64;
        *left -= piece.len() as u32;
        Ok(Some(match self.dest {
            Dest::Stream => Fast::Piece(piece),
            _ => Fast::Taken,
        }))
    }

    /// A PLP chunk's length, or the terminator (a length of 0).
    fn chunk_length<'c>(
        &mut self,
        cx: &mut ValueCx<'_, '_>,
        input: &mut &'c [u8],
        mut plp: Plp,
    ) -> Result<ValueStep<'c>> {
        if self.dest == Dest::Borrow
            && plp.got == 0
            && cx.cursor.have == 0
            && let Some(src) = in_one_piece(cx, input, &mut plp)?
        {
            return Ok(ValueStep::Whole(src));
        }
        if cx.cursor.have == 0 && self.dest != Dest::Stream {
            self.whole_chunks(cx, input, &mut plp)?;
            self.part = Part::ChunkLength(plp);
        }
        if !cx.cursor.fill(input, 4) {
            return Ok(ValueStep::Partial);
        }
        let at = cx.cursor.pos - 4;
        let len = cx.cursor.scratch_uint(4);
        if len == 0 {
            if plp.total.is_some_and(|total| total != plp.got) {
                return Err(error_at(ErrorKind::PlpLengthMismatch(cx.site()), at));
            }
            plp.checks.finish(cx)?;
            let got = plp.got as usize;
            return Ok(match self.dest {
                Dest::Stream => ValueStep::End,
                Dest::Skip => ValueStep::Skipped,
                Dest::Borrow => ValueStep::Whole(Src::Input(&[], cx.cursor.pos)),
                Dest::Buf | Dest::Scratch => {
                    let data = cx.buf.get(..got).ok_or_else(|| plp.checks.too_small(cx))?;
                    plp.checks.whole(cx, data)?;
                    ValueStep::Whole(Src::Buf(got))
                }
            });
        }
        self.begin_chunk(cx, &plp, len, at)?;
        self.part = Part::Chunk {
            left: len as u32,
            plp,
        };
        Ok(ValueStep::Field)
    }

    /// Reads the chunks that lie whole in `input`, length and data, without
    /// a step each; the terminator and a split chunk are left to the steps.
    /// Checks the same things, in the same order and at the same offsets,
    /// as those steps.
    fn whole_chunks(
        &mut self,
        cx: &mut ValueCx<'_, '_>,
        input: &mut &[u8],
        plp: &mut Plp,
    ) -> Result<()> {
        while let Some(head) = input.first_chunk::<4>() {
            let len = u32::from_le_bytes(*head) as usize;
            if len == 0 || input.len() - 4 < len {
                break;
            }
            let at = cx.cursor.pos;
            self.begin_chunk(cx, plp, len as u64, at)?;
            cx.cursor.take(input, 4);
            let piece = cx.cursor.take(input, len);
            take_piece(self.dest, cx, plp, piece, at + 4)?;
        }
        Ok(())
    }

    /// A chunk of `len` bytes begins, its length at `at`: checked against
    /// the announced total and the buffer, which it goes into unless the
    /// value streams or is passed over.
    fn begin_chunk(&mut self, cx: &ValueCx<'_, '_>, plp: &Plp, len: u64, at: u64) -> Result<()> {
        let sum = plp.got + len;
        if plp.total.is_some_and(|total| sum > total) {
            return Err(error_at(ErrorKind::PlpLengthMismatch(cx.site()), at));
        }
        if self.dest == Dest::Borrow {
            self.dest = Dest::Buf;
        }
        if self.dest == Dest::Buf && sum > cx.buf.len() as u64 {
            return Err(error_at(ErrorKind::BufferTooSmall(cx.site()), at));
        }
        Ok(())
    }
}

/// `piece` of a chunk, which began at stream offset `at`, arrived: checked,
/// and copied into the buffer if the value goes there (`dest`).
fn take_piece(
    dest: Dest,
    cx: &mut ValueCx<'_, '_>,
    plp: &mut Plp,
    piece: &[u8],
    at: u64,
) -> Result<()> {
    plp.checks.piece(cx, piece, at)?;
    if dest == Dest::Buf {
        let (from, to) = (plp.got as usize, plp.got as usize + piece.len());
        if to > cx.buf.len() {
            return Err(plp.checks.too_small(cx));
        }
        cx.buf[from..to].copy_from_slice(piece);
    }
    plp.got += piece.len() as u64;
    Ok(())
}

/// A PLP value that is one chunk and the terminator, all in `input`:
/// borrowed whole. Checks the same things, in the same order and at the
/// same offsets, as reading it piece by piece would.
fn in_one_piece<'c>(
    cx: &mut ValueCx<'_, '_>,
    input: &mut &'c [u8],
    plp: &mut Plp,
) -> Result<Option<Src<'c>>> {
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
    if plp.total.is_some_and(|total| len as u64 > total) {
        return Err(error_at(
            ErrorKind::PlpLengthMismatch(cx.site()),
            cx.cursor.pos,
        ));
    }
    cx.cursor.take(input, 4);
    let at = cx.cursor.pos;
    let data = cx.cursor.take(input, len);
    plp.checks.piece(cx, data, at)?;
    let terminator_at = cx.cursor.pos;
    cx.cursor.take(input, 4);
    if plp.total.is_some_and(|total| total != len as u64) {
        return Err(error_at(
            ErrorKind::PlpLengthMismatch(cx.site()),
            terminator_at,
        ));
    }
    plp.checks.finish(cx)?;
    plp.checks.whole(cx, data)?;
    Ok(Some(Src::Input(data, at)))
}
