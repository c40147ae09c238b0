//! Rows that lie whole in the input, read in one call: their values are
//! framed and checked in one walk, with no state-machine step per value.

use core::slice::{self, ChunksExact};

use crate::tds::colmetadata::Column;
use crate::tds::row::RowKind;
use crate::tds::type_info::Layout;
use crate::tds::value::Value;

use super::ValueSource;
use super::large::{PLP_NULL, PLP_UNKNOWN};
use super::plan::Plan;

/// Bytes of a value's entry in the row's index: where its data starts, and
/// its length, each a little-endian `u32`.
const ENTRY: usize = 8;
/// Marks an entry's start as an offset into the joined PLP values.
const JOINED: u32 = 1 << 31;
/// The length of a NULL's entry.
const NULL_LEN: u32 = u32::MAX;

/// A ROW or NBCROW that lay whole in the input, read by
/// [`Reader::whole_row`](super::Reader::whole_row): every value in it is
/// framed and checked, so [`values`](Self::values) only hands them out.
///
/// A value borrows the input (or, for a row the reader gathered, the
/// reader), except a PLP value sent in more than one chunk, which is joined
/// in the caller's buffer. The buffer also holds where each value lies, so
/// that handing them out frames nothing again.
#[derive(Copy, Clone, Debug)]
pub struct WholeRow<'r> {
    kind: RowKind,
    /// The row's bytes after its token byte.
    body: &'r [u8],
    columns: &'r [Column<'r>],
    /// An entry per column: where its value's data lies.
    index: &'r [u8],
    /// The joined PLP values, one after another in column order.
    joined: &'r [u8],
    /// `body` lies inside the reader, which gathered the row.
    gathered: bool,
}

impl<'r> WholeRow<'r> {
    /// ROW or NBCROW.
    pub const fn kind(&self) -> RowKind {
        self.kind
    }

    /// How many values the row has: one per column.
    pub const fn len(&self) -> usize {
        self.columns.len()
    }

    /// Whether the row has no values (never, for a row the reader read).
    pub const fn is_empty(&self) -> bool {
        self.columns.is_empty()
    }

    /// The values in column order, NULLs included.
    pub fn values(&self) -> RowValues<'r> {
        RowValues {
            columns: self.columns.iter(),
            entries: self.index.chunks_exact(ENTRY),
            body: self.body,
            joined: self.joined,
        }
    }

    /// Where each value's bytes lie, in column order: in the input passed
    /// to [`Reader::whole_row`](super::Reader::whole_row), counted from its
    /// token byte, in the buffer passed to it, or inside the reader for a
    /// row it gathered; `None` for a NULL. What a caller needs to keep a
    /// value once the row, which borrows all three, is gone.
    pub fn sources(&self) -> RowSources<'r> {
        RowSources {
            entries: self.index.chunks_exact(ENTRY),
            index_len: self.index.len(),
            gathered: self.gathered,
        }
    }

    /// The same row, read from the bytes the reader gathered.
    pub(super) fn in_reader(self) -> WholeRow<'r> {
        WholeRow {
            gathered: true,
            ..self
        }
    }
}

/// The values of a [`WholeRow`], in column order.
#[derive(Clone, Debug)]
pub struct RowValues<'r> {
    /// The columns of the values not handed out yet.
    columns: slice::Iter<'r, Column<'r>>,
    /// Their index entries.
    entries: ChunksExact<'r, u8>,
    body: &'r [u8],
    joined: &'r [u8],
}

impl<'r> Iterator for RowValues<'r> {
    type Item = Value<'r>;

    #[inline]
    fn next(&mut self) -> Option<Value<'r>> {
        let column = self.columns.next()?;
        // The walk that made the row framed and checked these bytes.
        let data = match read_entry(self.entries.next()?)? {
            Place::Null => None,
            Place::Body { start, len } => self.body.get(start..start + len),
            Place::Joined { start, len } => self.joined.get(start..start + len),
        };
        Some(Value::new_unchecked(column.type_info, data))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.columns.size_hint()
    }
}

impl ExactSizeIterator for RowValues<'_> {}

/// Where the values of a [`WholeRow`] lie, in column order.
#[derive(Clone, Debug)]
pub struct RowSources<'r> {
    /// The index entries of the values not handed out yet.
    entries: ChunksExact<'r, u8>,
    /// The index's length: where the joined values start in the buffer.
    index_len: usize,
    /// The row's body lies inside the reader.
    gathered: bool,
}

impl Iterator for RowSources<'_> {
    type Item = Option<ValueSource>;

    fn next(&mut self) -> Option<Option<ValueSource>> {
        Some(match read_entry(self.entries.next()?)? {
            Place::Null => None,
            Place::Body { .. } if self.gathered => Some(ValueSource::Inline),
            // The body follows the token byte.
            Place::Body { start, .. } => Some(ValueSource::Chunk { offset: 1 + start }),
            // The joined values follow the index.
            Place::Joined { start, .. } => Some(ValueSource::Buffer {
                offset: self.index_len + start,
            }),
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.entries.size_hint()
    }
}

impl ExactSizeIterator for RowSources<'_> {}

/// Reads the ROW or NBCROW token whose body starts `input` (the token byte
/// already taken), if it lies whole there and every value is one this walk
/// reads and passes its checks. `plans` are the plans of the first columns.
/// The row's index goes at the start of `buf`, and the joined PLP values
/// after it. Returns the row and the bytes it took; `None` leaves
/// everything to the reader's steps, which then say what is wrong, if
/// anything, and where.
pub(super) fn read<'r>(
    kind: RowKind,
    input: &'r [u8],
    columns: &'r [Column<'r>],
    plans: &[Plan],
    buf: &'r mut [u8],
) -> Option<(WholeRow<'r>, usize)> {
    let nulls = match kind {
        RowKind::Row => &[][..],
        RowKind::NbcRow => input.get(..columns.len().div_ceil(8))?,
    };
    // Offsets of the row's bytes, and of the joined values, must fit an entry.
    let input = input.get(..input.len().min(JOINED as usize - 1))?;
    let (index, space) = buf.split_at_mut_checked(columns.len() * ENTRY)?;
    let space = space.get_mut(..space.len().min(JOINED as usize - 1))?;
    let mut at = nulls.len();
    let mut joined = 0;
    for (i, (column, entry)) in columns
        .iter()
        .zip(index.chunks_exact_mut(ENTRY))
        .enumerate()
    {
        // An NBCROW's NULL has no bytes.
        if is_null_in(nulls, i) {
            write_entry(entry, 0, NULL_LEN);
            continue;
        }
        let made;
        let plan = match plans.get(i) {
            Some(plan) => plan,
            None => {
                made = Plan::new(&column.type_info);
                &made
            }
        };
        let (start, data) = match frame(input, &mut at, plan)? {
            Framed::Null => {
                write_entry(entry, 0, NULL_LEN);
                continue;
            }
            Framed::Data { at, len } => (at as u32, &input[at..at + len]),
            Framed::Chunks { at, end, len } => {
                let to = space.get_mut(joined..joined + len)?;
                join(&input[at..end], to);
                joined += len;
                ((joined - len) as u32 | JOINED, &space[joined - len..joined])
            }
        };
        if !plan.data_ok(&column.type_info, data) {
            return None;
        }
        write_entry(entry, start, data.len() as u32);
    }
    let (index, space): (&'r [u8], &'r [u8]) = (index, space);
    let row = WholeRow {
        kind,
        body: input,
        columns,
        index,
        joined: &space[..joined],
        gathered: false,
    };
    Some((row, at))
}

/// Writes an index entry: where a value's data starts, and its length.
fn write_entry(entry: &mut [u8], start: u32, len: u32) {
    entry[..4].copy_from_slice(&start.to_le_bytes());
    entry[4..ENTRY].copy_from_slice(&len.to_le_bytes());
}

/// Where an index entry puts a value's data.
enum Place {
    /// Nowhere: the value is NULL.
    Null,
    /// In the row's body, counted from after its token byte.
    Body { start: usize, len: usize },
    /// In the joined PLP values.
    Joined { start: usize, len: usize },
}

/// Reads the index entry at the start of `entry`.
fn read_entry(entry: &[u8]) -> Option<Place> {
    let (start, rest) = entry.split_first_chunk::<4>()?;
    let (start, len) = (
        u32::from_le_bytes(*start),
        u32::from_le_bytes(*rest.first_chunk::<4>()?),
    );
    Some(match (len, start & JOINED) {
        (NULL_LEN, _) => Place::Null,
        (len, 0) => Place::Body {
            start: start as usize,
            len: len as usize,
        },
        (len, _) => Place::Joined {
            start: (start & !JOINED) as usize,
            len: len as usize,
        },
    })
}

/// Whether the null bitmap `nulls` (empty for a ROW) marks column `i`.
fn is_null_in(nulls: &[u8], i: usize) -> bool {
    nulls
        .get(i / 8)
        .is_some_and(|byte| byte & (1 << (i % 8)) != 0)
}

/// Where one value's data lies, as offsets into the row.
enum Framed {
    Null,
    /// In one piece.
    Data {
        at: usize,
        len: usize,
    },
    /// A PLP value in more than one chunk: its chunks with their lengths
    /// (`at..end`), and the data's length.
    Chunks {
        at: usize,
        end: usize,
        len: usize,
    },
}

/// Frames the value at `*at` in `row` and moves past it; `None` if it does
/// not lie whole there, has a layout this walk leaves to the steps (TEXT,
/// NTEXT and IMAGE), or its length does not fit its type.
fn frame(row: &[u8], at: &mut usize, plan: &Plan) -> Option<Framed> {
    let layout = plan.layout;
    let len = match layout {
        Layout::Fixed(n) => usize::from(n),
        Layout::Plp => return frame_plp(row, at),
        Layout::AlwaysNull => return Some(Framed::Null),
        Layout::Text => return None,
        Layout::Byte { .. } | Layout::UShort | Layout::Long => {
            let len = match layout {
                Layout::Byte { .. } => u64::from(u8::from_le_bytes(take_array(row, at)?)),
                Layout::UShort => u64::from(u16::from_le_bytes(take_array(row, at)?)),
                _ => u64::from(u32::from_le_bytes(take_array(row, at)?)),
            };
            if layout.is_null_prefix(len) {
                return Some(Framed::Null);
            }
            if !plan.len_ok(len) {
                return None;
            }
            usize::try_from(len).ok()?
        }
    };
    take(row, at, len).map(|at| Framed::Data { at, len })
}

/// Frames a PLP value: an 8-byte total, chunks, and a chunk of length 0.
fn frame_plp(row: &[u8], at: &mut usize) -> Option<Framed> {
    let total = u64::from_le_bytes(take_array(row, at)?);
    if total == PLP_NULL {
        return Some(Framed::Null);
    }
    let chunks_at = *at;
    let (mut count, mut len, mut first) = (0, 0usize, *at);
    loop {
        let chunk_len = u32::from_le_bytes(take_array(row, at)?) as usize;
        if chunk_len == 0 {
            break;
        }
        first = take(row, at, chunk_len)?;
        count += 1;
        len = len.checked_add(chunk_len)?;
    }
    if total != PLP_UNKNOWN && total != len as u64 {
        return None;
    }
    Some(match count {
        0 | 1 => Framed::Data { at: first, len },
        _ => Framed::Chunks {
            at: chunks_at,
            end: *at,
            len,
        },
    })
}

/// Copies the data of PLP `chunks` (framed and terminated) into `to`,
/// which is as long as the data.
fn join(chunks: &[u8], to: &mut [u8]) {
    let (mut at, mut filled) = (0, 0);
    while let Some(head) = take_array(chunks, &mut at) {
        let len = u32::from_le_bytes(head) as usize;
        if let Some(start) = take(chunks, &mut at, len) {
            to[filled..filled + len].copy_from_slice(&chunks[start..start + len]);
            filled += len;
        }
    }
}

/// Takes the `N` bytes at `*at`.
fn take_array<const N: usize>(row: &[u8], at: &mut usize) -> Option<[u8; N]> {
    let bytes = row.get(*at..)?.first_chunk::<N>()?;
    *at += N;
    Some(*bytes)
}

/// Takes the `n` bytes at `*at`; returns where they start.
fn take(row: &[u8], at: &mut usize, n: usize) -> Option<usize> {
    let start = *at;
    let end = start.checked_add(n).filter(|&end| end <= row.len())?;
    *at = end;
    Some(start)
}
