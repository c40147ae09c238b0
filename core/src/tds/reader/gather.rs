//! Rows split across chunks, gathered whole: a ROW or NBCROW that does not
//! lie whole in its chunk is copied into the reader by its framing alone
//! (lengths, null bits, PLP chunk lengths), with no step per value, and
//! read as a whole row once its last byte arrives.
//!
//! The walk makes the same checks, at the same bytes, as the row machine,
//! and stops where it cannot follow: a value the machine would refuse, a
//! TEXT, NTEXT or IMAGE column, or a row too long for the space. The reader
//! then hands what was gathered to the row machine, which reads it as if it
//! had just arrived; so a row reads, and fails, the same however its bytes
//! are split.

use crate::tds::bytes::le_uint;
use crate::tds::colmetadata::Column;
use crate::tds::row::RowKind;
use crate::tds::type_info::Layout;
use crate::tds::ucs2::Ucs2Check;

use super::SCRATCH_LEN;
use super::cursor::copy;
use super::large::{PLP_NULL, PLP_UNKNOWN};
use super::plan::Plan;
use super::state::{ReaderState, ValuePart};

/// Bytes of a row the reader gathers at most; a longer row is read by the
/// row machine.
pub(super) const GATHER_LEN: usize = 512;

/// A row being gathered: its bytes so far, and where its framing walk is.
#[derive(Clone, Debug)]
pub(super) struct Gather {
    /// The row's bytes after its token byte.
    bytes: [u8; GATHER_LEN],
    /// Bytes gathered.
    len: usize,
    kind: RowKind,
    /// The stream offset of `bytes[0]`.
    base: u64,
    /// The column being walked.
    column: u16,
    /// Its plan.
    plan: Plan,
    /// The field being gathered, from `field_at` to `need`.
    field: Field,
    field_at: usize,
    need: usize,
    /// The shortest buffer the row machine would take the field's value
    /// into, had the input run out inside it (0: it needs none).
    need_buf: usize,
    /// Large values stream, so they need no buffer.
    stream: bool,
    /// A PLP value's announced total, if known, and its data so far.
    total: Option<u64>,
    got: u64,
    /// The UCS-2 check of the current value's text.
    ucs2: Option<Ucs2Check>,
}

/// A field of a row, as the walk sees it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Field {
    /// An NBCROW's null bitmap.
    Bitmap,
    /// A 1, 2 or 4-byte length prefix.
    Prefix,
    /// A sized value's data.
    Data,
    /// A PLP value's 8-byte total.
    PlpTotal,
    /// A PLP chunk's length, or the terminator.
    ChunkLength,
    /// A PLP chunk's data.
    Chunk,
}

/// Where a [`Gather::scan`] got to.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Scan {
    /// All of the input went into the row, which needs more.
    More,
    /// The row is complete.
    Row,
    /// The walk cannot go on: the row machine takes over.
    Stop,
}

/// What finishing a field led to.
enum Next {
    /// Another field to gather.
    Field,
    /// The row is complete.
    Row,
    /// The walk stops.
    Stop,
}

impl Gather {
    /// Nothing gathered.
    pub(super) const fn new() -> Gather {
        Gather {
            bytes: [0; GATHER_LEN],
            len: 0,
            kind: RowKind::Row,
            base: 0,
            column: 0,
            plan: Plan::UNMADE,
            field: Field::Bitmap,
            field_at: 0,
            need: 0,
            need_buf: 0,
            stream: false,
            total: None,
            got: 0,
            ucs2: None,
        }
    }

    /// Starts gathering a `kind` row of `columns`, whose first byte after
    /// the token byte is at stream offset `base`; large values `stream` or
    /// are assembled. [`Scan::More`], or [`Scan::Stop`] if the walk cannot
    /// even begin.
    pub(super) fn begin(
        &mut self,
        kind: RowKind,
        base: u64,
        stream: bool,
        columns: &[Column<'_>],
        plans: &[Plan],
    ) -> Scan {
        self.len = 0;
        self.need = 0;
        self.kind = kind;
        self.base = base;
        self.stream = stream;
        self.column = 0;
        self.ucs2 = None;
        let next = match kind {
            RowKind::NbcRow => self.field(columns.len().div_ceil(8), Field::Bitmap),
            RowKind::Row => self.column(columns, plans),
        };
        match next {
            Next::Field => Scan::More,
            Next::Row | Next::Stop => Scan::Stop,
        }
    }

    /// The row's token.
    pub(super) const fn kind(&self) -> RowKind {
        self.kind
    }

    /// The bytes gathered.
    pub(super) fn bytes(&self) -> &[u8] {
        &self.bytes[..self.len]
    }

    /// The stream offset of the first gathered byte.
    pub(super) const fn base(&self) -> u64 {
        self.base
    }

    /// Takes all of `input` when it ends inside the field being gathered,
    /// which needs no look then: [`Scan::More`], or [`Scan::Stop`] for
    /// text with a bad UCS-2 unit. `None`, with nothing taken, leaves it to
    /// [`scan`](Self::scan). `buf_len` is the caller's buffer's length.
    #[inline]
    pub(super) fn take_inside_field(
        &mut self,
        pos: &mut u64,
        input: &mut &[u8],
        buf_len: usize,
    ) -> Option<Scan> {
        if input.len() >= self.need - self.len || buf_len < self.need_buf {
            return None;
        }
        Some(match self.take(pos, input, input.len()) {
            true => Scan::More,
            false => Scan::Stop,
        })
    }

    /// Takes the first `n` bytes of `input` into the field being gathered,
    /// checking text as it arrives; `false` for a bad UCS-2 unit.
    #[inline]
    fn take(&mut self, pos: &mut u64, input: &mut &[u8], n: usize) -> bool {
        if n == 0 {
            return true;
        }
        let (taken, rest) = input.split_at(n);
        *input = rest;
        *pos += n as u64;
        let at = self.len;
        copy(&mut self.bytes[at..at + n], taken);
        self.len += n;
        if matches!(self.field, Field::Data | Field::Chunk)
            && let Some(check) = &mut self.ucs2
        {
            let at = self.base + at as u64;
            let checked = match *taken {
                [byte] => check.feed_byte(byte, at),
                _ => check.feed(taken, at),
            };
            return checked.is_ok();
        }
        true
    }

    /// Takes the row's bytes from the front of `input`, as far as the row
    /// goes, and walks them. `pos` is the stream offset of `input`'s first
    /// byte; it moves past what is taken. `buf_len` is the caller's
    /// buffer's length.
    pub(super) fn scan(
        &mut self,
        pos: &mut u64,
        input: &mut &[u8],
        columns: &[Column<'_>],
        plans: &[Plan],
        buf_len: usize,
    ) -> Scan {
        loop {
            let want = self.need - self.len;
            let n = want.min(input.len());
            if !self.take(pos, input, n) {
                return Scan::Stop;
            }
            if n < want {
                // The row machine would have refused a value that did not
                // lie whole in its chunk and does not fit the buffer.
                return match buf_len < self.need_buf {
                    true => Scan::Stop,
                    false => Scan::More,
                };
            }
            match self.field_done(columns, plans) {
                Next::Field => {}
                Next::Row => return Scan::Row,
                Next::Stop => return Scan::Stop,
            }
        }
    }

    /// The field ending at `need` is gathered: reads it and sets up the next.
    fn field_done(&mut self, columns: &[Column<'_>], plans: &[Plan]) -> Next {
        let field = &self.bytes[self.field_at..self.need];
        match self.field {
            Field::Bitmap => self.column(columns, plans),
            Field::Prefix => {
                let len = le_uint(field);
                let layout = self.plan.layout;
                if layout.is_null_prefix(len) {
                    return self.next_column(columns, plans);
                }
                if !self.plan.len_ok(len) {
                    return Next::Stop;
                }
                self.data(len as usize)
            }
            Field::Data => {
                let type_info = &columns[usize::from(self.column)].type_info;
                if !self.plan.data_ok(type_info, field) {
                    return Next::Stop;
                }
                self.next_column(columns, plans)
            }
            Field::PlpTotal => {
                let total = le_uint(field);
                if total == PLP_NULL {
                    return self.next_column(columns, plans);
                }
                self.total = (total != PLP_UNKNOWN).then_some(total);
                self.got = 0;
                self.ucs2 = self.plan.checks_ucs2().then(Ucs2Check::default);
                self.field(4, Field::ChunkLength)
            }
            Field::ChunkLength => {
                let len = le_uint(field);
                if len == 0 {
                    let ucs2 = self.ucs2.take().map_or(Ok(()), |mut check| check.finish());
                    if self.total.is_some_and(|total| total != self.got) || ucs2.is_err() {
                        return Next::Stop;
                    }
                    return self.next_column(columns, plans);
                }
                let sum = self.got + len;
                if self.total.is_some_and(|total| sum > total) {
                    return Next::Stop;
                }
                self.got = sum;
                self.field(len as usize, Field::Chunk)
            }
            Field::Chunk => self.field(4, Field::ChunkLength),
        }
    }

    /// The next field is `len` bytes of `field`, from where the last ended.
    fn field(&mut self, len: usize, field: Field) -> Next {
        if len > GATHER_LEN - self.need {
            return Next::Stop;
        }
        self.field = field;
        self.field_at = self.need;
        self.need += len;
        // A value that does not lie whole in its chunk goes into the
        // buffer: a sized one unless it fits the reader's scratch space, an
        // assembled PLP one chunk by chunk.
        self.need_buf = match field {
            Field::Data if len > SCRATCH_LEN => len,
            Field::ChunkLength | Field::Chunk if !self.stream => self.got as usize,
            _ => 0,
        };
        Next::Field
    }

    /// A sized value's `len` data bytes come next.
    fn data(&mut self, len: usize) -> Next {
        self.ucs2 = self.plan.checks_ucs2().then(Ucs2Check::default);
        self.field(len, Field::Data)
    }

    /// The current column's value is complete: on to the next column.
    fn next_column(&mut self, columns: &[Column<'_>], plans: &[Plan]) -> Next {
        self.ucs2 = None;
        self.column += 1;
        self.column(columns, plans)
    }

    /// Sets up the first field of the current column, or of the first
    /// column after it with bytes; [`Next::Row`] when there are none.
    fn column(&mut self, columns: &[Column<'_>], plans: &[Plan]) -> Next {
        loop {
            let i = usize::from(self.column);
            let Some(column) = columns.get(i) else {
                return Next::Row;
            };
            if self.kind == RowKind::NbcRow && self.bytes[i / 8] & (1 << (i % 8)) != 0 {
                self.column += 1;
                continue;
            }
            self.plan = match plans.get(i) {
                Some(plan) => *plan,
                None => Plan::new(&column.type_info),
            };
            return match self.plan.layout {
                Layout::AlwaysNull => {
                    self.column += 1;
                    continue;
                }
                Layout::Fixed(n) => self.data(usize::from(n)),
                Layout::Byte { .. } => self.field(1, Field::Prefix),
                Layout::UShort => self.field(2, Field::Prefix),
                Layout::Long => self.field(4, Field::Prefix),
                Layout::Plp if !self.plan.checks_value() => self.field(8, Field::PlpTotal),
                Layout::Plp | Layout::Text => Next::Stop,
            };
        }
    }

    /// Where the row machine would be, had it read the gathered bytes.
    pub(super) fn public(&self) -> ReaderState {
        let left = (self.need - self.len) as u32;
        let part = match self.field {
            Field::Bitmap => {
                return ReaderState::NullBitmap {
                    have: self.len as u16,
                };
            }
            Field::Prefix => ValuePart::Length,
            Field::Data => ValuePart::Data { left },
            Field::PlpTotal => ValuePart::PlpTotal,
            Field::ChunkLength => ValuePart::PlpChunkLength,
            Field::Chunk => ValuePart::PlpChunk { left },
        };
        ReaderState::Value {
            token: self.kind.token(),
            column: self.column,
            part,
        }
    }

    /// The column being gathered, for errors.
    pub(super) const fn column_index(&self) -> Option<u16> {
        match self.field {
            Field::Bitmap => None,
            _ => Some(self.column),
        }
    }
}
