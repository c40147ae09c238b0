//! [`OwnedMetadata`]: column metadata with an arena of its own, for readers
//! that live as long as a connection.

use bumpalo::Bump;

use super::colmetadata::Column;
use super::reader::Metadata;
use super::returnvalue::ReturnValue;

self_cell::self_cell!(
    /// A `Metadata` and the arena it borrows, in one value.
    struct Cell {
        owner: Bump,
        // `Metadata` is invariant in its lifetime (it fills `&mut` slices
        // of columns), so it is lent out only inside a closure; `Column`
        // and `ReturnValue` are covariant and come out borrowing `self`.
        #[not_covariant]
        dependent: Metadata,
    }
);

/// Empty metadata over `bump`, paired with it.
fn cell(bump: Bump) -> Cell {
    Cell::new(bump, |bump| Metadata::new(bump))
}

/// Column metadata with an arena of its own: what a reader that outlives
/// one result set (a connection's, a decoder's) keeps, so that the arena
/// can be limited and reset.
///
/// Hand it to the reader with [`with_mut`](Self::with_mut), and
/// [`reset`](Self::reset) it whenever the reader hands out
/// [`Event::ColMetadataStart`](super::Event::ColMetadataStart): the
/// arena then holds one result set's columns at a time (and the
/// RETURNVALUE headers since), never more than its limit. A limit that
/// one result set needs more than is [`ErrorKind::ArenaFull`](super::ErrorKind::ArenaFull).
///
/// A reset keeps the arena's largest chunk for the next result set; pairing
/// the arena with new metadata takes two small heap allocations.
///
/// ```
/// use leanwire_core::tds::{Event, OwnedMetadata, Reader, Status, TdsVersion};
///
/// // Two result sets of one int column each (`a`, then `b`), no rows.
/// let done = [0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
/// let mut tokens = vec![0x81, 1, 0, 0, 0, 0, 0, 0, 0, 0x38, 1, b'a', 0];
/// tokens.extend(done);
/// tokens.extend([0x81, 1, 0, 0, 0, 0, 0, 0, 0, 0x38, 1, b'b', 0]);
/// tokens.extend(done);
///
/// let mut meta = OwnedMetadata::new(64 * 1024);
/// let mut reader = Reader::new(TdsVersion::V7_4);
/// let mut input = &tokens[..];
/// let mut names = Vec::new();
/// loop {
///     let start = meta.with_mut(|meta| match reader.next(&mut input, meta, &mut [])? {
///         Status::Complete(Event::ColMetadataStart { .. }) => Ok(Some(true)),
///         Status::Complete(_) => Ok(Some(false)),
///         Status::Partial => Ok::<_, leanwire_core::tds::Error>(None),
///     })?;
///     match start {
///         Some(true) => meta.reset(),
///         Some(false) => names.extend(meta.columns().iter().map(|c| c.name.to_string())),
///         None => break,
///     }
/// }
/// names.dedup();
/// assert_eq!(names, ["a", "b"]);
/// # Ok::<(), leanwire_core::tds::Error>(())
/// ```
pub struct OwnedMetadata {
    cell: Cell,
}

impl OwnedMetadata {
    /// Empty metadata over a new arena that may hold up to `limit` bytes
    /// ([`DEFAULT_ARENA_LIMIT`](super::DEFAULT_ARENA_LIMIT) is a sane
    /// one; `usize::MAX` for none).
    pub fn new(limit: usize) -> OwnedMetadata {
        let bump = Bump::new();
        bump.set_allocation_limit(Some(limit));
        OwnedMetadata { cell: cell(bump) }
    }

    /// The current result set's columns (empty before any COLMETADATA):
    /// [`Metadata::columns`].
    pub fn columns(&self) -> &[Column<'_>] {
        self.cell.with_dependent(|_, meta| meta.columns())
    }

    /// The last RETURNVALUE's header: [`Metadata::return_value`].
    pub fn return_value(&self) -> Option<&ReturnValue<'_>> {
        self.cell.with_dependent(|_, meta| meta.return_value())
    }

    /// Runs `read` with the metadata, to hand it to
    /// [`Reader::next`](super::Reader::next).
    pub fn with_mut<R>(&mut self, read: impl for<'a> FnOnce(&mut Metadata<'a>) -> R) -> R {
        self.cell.with_dependent_mut(|_, meta| read(meta))
    }

    /// Forgets the metadata (columns and return value) and empties the
    /// arena, keeping its limit and its largest chunk.
    pub fn reset(&mut self) {
        let mut bump = core::mem::replace(&mut self.cell, cell(Bump::new())).into_owner();
        bump.reset();
        self.cell = cell(bump);
    }

    /// The arena's limit in bytes.
    pub fn limit(&self) -> usize {
        self.cell
            .borrow_owner()
            .allocation_limit()
            .unwrap_or(usize::MAX)
    }

    /// Bytes the arena holds from the heap ([`Bump::allocated_bytes`]).
    pub fn allocated_bytes(&self) -> usize {
        self.cell.borrow_owner().allocated_bytes()
    }
}

impl core::fmt::Debug for OwnedMetadata {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("OwnedMetadata")
            .field("columns", &self.columns())
            .field("return_value", &self.return_value())
            .field("limit", &self.limit())
            .field("allocated_bytes", &self.allocated_bytes())
            .finish()
    }
}
