//! Rows that lie whole in the input, read in one call: their values are
//! framed and checked in one walk, with no state-machine step per value.

use crate::tds::colmetadata::Column;
use crate::tds::row::RowKind;
use crate::tds::type_info::{Layout, TypeInfo};
use crate::tds::ucs2::Ucs2Str;
use crate::tds::value::{Value, check_value};

/// The PLP total of a NULL.
const PLP_NULL: u64 = u64::MAX;
/// The PLP total of a value whose length the server did not announce.
const PLP_UNKNOWN: u64 = u64::MAX - 1;

/// A ROW or NBCROW that lay whole in the input, read by
/// [`Reader::whole_row`](super::Reader::whole_row): every value in it is
/// framed and checked, so [`values`](Self::values) only hands them out.
///
/// A value borrows the input, except a PLP value sent in more than one
/// chunk, which is joined in the caller's buffer.
#[derive(Copy, Clone, Debug)]
pub struct WholeRow<'r> {
    kind: RowKind,
    /// The NBCROW's null bitmap; empty for a ROW.
    nulls: &'r [u8],
    /// The values, framed as they were sent.
    body: &'r [u8],
    columns: &'r [Column<'r>],
    /// The joined PLP values, one after another in column order.
    joined: &'r [u8],
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
            row: *self,
            column: 0,
            rest: self.body,
            joined_at: 0,
        }
    }
}

/// The values of a [`WholeRow`], in column order.
#[derive(Clone, Debug)]
pub struct RowValues<'r> {
    row: WholeRow<'r>,
    column: usize,
    /// The framed values not yet handed out.
    rest: &'r [u8],
    /// Where the next joined PLP value starts in `row.joined`.
    joined_at: usize,
}

impl<'r> Iterator for RowValues<'r> {
    type Item = Value<'r>;

    fn next(&mut self) -> Option<Value<'r>> {
        let column = self.row.columns.get(self.column)?;
        let null = is_null_in(self.row.nulls, self.column);
        self.column += 1;
        let type_info = column.type_info;
        if null {
            return Some(Value::checked(type_info, None));
        }
        // The walk that made the row framed and checked these same bytes.
        let data = match frame(&mut self.rest, &type_info, false)? {
            Framed::Null => None,
            Framed::Data(data) => Some(data),
            Framed::Chunks { len, .. } => {
                let data = self.row.joined.get(self.joined_at..self.joined_at + len)?;
                self.joined_at += len;
                Some(data)
            }
        };
        Some(Value::checked(type_info, data))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.row.columns.len() - self.column;
        (left, Some(left))
    }
}

impl ExactSizeIterator for RowValues<'_> {}

/// Reads the ROW or NBCROW token whose body starts `input` (the token byte
/// already taken), if it lies whole there and every value is one this walk
/// reads and passes its checks. Returns the row and the bytes it took;
/// `None` leaves everything to the reader's steps, which then say what is
/// wrong, if anything, and where.
pub(super) fn read<'r>(
    kind: RowKind,
    input: &'r [u8],
    columns: &'r [Column<'r>],
    buf: &'r mut [u8],
) -> Option<(WholeRow<'r>, usize)> {
    let (nulls, mut rest) = match kind {
        RowKind::Row => (&[][..], input),
        RowKind::NbcRow => input.split_at_checked(columns.len().div_ceil(8))?,
    };
    let body = rest;
    let mut joined = 0;
    for (i, column) in columns.iter().enumerate() {
        if is_null_in(nulls, i) {
            continue;
        }
        let type_info = &column.type_info;
        let data = match frame(&mut rest, type_info, true)? {
            Framed::Null => continue,
            Framed::Data(data) => data,
            Framed::Chunks { chunks, len } => {
                let to = buf.get_mut(joined..joined + len)?;
                join(chunks, to);
                joined += len;
                &buf[joined - len..joined]
            }
        };
        let ucs2 = !type_info.data_type.is_ucs2() || Ucs2Str::new(data).is_ok();
        if !ucs2 || check_value(type_info, data).is_err() {
            return None;
        }
    }
    let taken = input.len() - rest.len();
    let row = WholeRow {
        kind,
        nulls,
        body: &body[..body.len() - rest.len()],
        columns,
        joined: &buf[..joined],
    };
    Some((row, taken))
}

/// Whether the null bitmap `nulls` (empty for a ROW) marks column `i`.
fn is_null_in(nulls: &[u8], i: usize) -> bool {
    nulls
        .get(i / 8)
        .is_some_and(|byte| byte & (1 << (i % 8)) != 0)
}

/// Where one value's data lies.
enum Framed<'a> {
    Null,
    /// In one piece.
    Data(&'a [u8]),
    /// A PLP value in more than one chunk: the chunks with their lengths,
    /// and the data's length.
    Chunks {
        chunks: &'a [u8],
        len: usize,
    },
}

/// Frames the value at the front of `rest` and moves past it; `None` if it
/// does not lie whole there or has a layout this walk leaves to the steps
/// (TEXT, NTEXT and IMAGE), or, when `check_len`, if its length does not
/// fit its type.
fn frame<'a>(rest: &mut &'a [u8], type_info: &TypeInfo<'_>, check_len: bool) -> Option<Framed<'a>> {
    let (len, null) = match type_info.layout() {
        Layout::Fixed(n) => return take(rest, usize::from(n)).map(Framed::Data),
        Layout::Plp => return frame_plp(rest),
        Layout::AlwaysNull => return Some(Framed::Null),
        Layout::Text => return None,
        Layout::Byte { null } => {
            let [len] = take_array(rest)?;
            (u32::from(len), len == null)
        }
        Layout::UShort => {
            let len = u16::from_le_bytes(take_array(rest)?);
            (u32::from(len), len == 0xFFFF)
        }
        Layout::Long => {
            let len = u32::from_le_bytes(take_array(rest)?);
            (len, len == 0)
        }
    };
    if null {
        return Some(Framed::Null);
    }
    if check_len && !type_info.value_len_ok(u64::from(len)) {
        return None;
    }
    take(rest, len as usize).map(Framed::Data)
}

/// Frames a PLP value: an 8-byte total, chunks, and a chunk of length 0.
fn frame_plp<'a>(rest: &mut &'a [u8]) -> Option<Framed<'a>> {
    let total = u64::from_le_bytes(take_array(rest)?);
    if total == PLP_NULL {
        return Some(Framed::Null);
    }
    let chunks = *rest;
    let (mut count, mut len, mut first) = (0, 0usize, &[][..]);
    loop {
        let chunk_len = u32::from_le_bytes(take_array(rest)?) as usize;
        if chunk_len == 0 {
            break;
        }
        first = take(rest, chunk_len)?;
        count += 1;
        len = len.checked_add(chunk_len)?;
    }
    if total != PLP_UNKNOWN && total != len as u64 {
        return None;
    }
    Some(match count {
        0 | 1 => Framed::Data(first),
        _ => Framed::Chunks {
            chunks: &chunks[..chunks.len() - rest.len()],
            len,
        },
    })
}

/// Copies the data of PLP `chunks` (framed and terminated) into `to`,
/// which is as long as the data.
fn join(mut chunks: &[u8], to: &mut [u8]) {
    let mut at = 0;
    while let Some(head) = take_array(&mut chunks) {
        let len = u32::from_le_bytes(head) as usize;
        if let Some(data) = take(&mut chunks, len).filter(|_| len > 0) {
            to[at..at + len].copy_from_slice(data);
            at += len;
        }
    }
}

/// Takes the next `N` bytes.
fn take_array<const N: usize>(rest: &mut &[u8]) -> Option<[u8; N]> {
    let (head, tail) = rest.split_first_chunk::<N>()?;
    *rest = tail;
    Some(*head)
}

/// Takes the next `n` bytes.
fn take<'a>(rest: &mut &'a [u8], n: usize) -> Option<&'a [u8]> {
    let (head, tail) = rest.split_at_checked(n)?;
    *rest = tail;
    Some(head)
}
