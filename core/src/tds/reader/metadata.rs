//! [`Metadata`]: the caller's arena that COLMETADATA and RETURNVALUE headers
//! are read into, and the columns rows are read by.

use core::fmt;

use bumpalo::Bump;

use crate::tds::colmetadata::Column;
use crate::tds::returnvalue::ReturnValue;
use crate::tds::type_info::{DataType, TypeInfo};
use crate::tds::ucs2::Ucs2Str;

/// What the metadata machine has built of the COLMETADATA or RETURNVALUE
/// header in progress: kept with the arena it lives in, and published as
/// [`Metadata::columns`] or [`Metadata::return_value`] once complete.
pub(super) struct Builder<'a> {
    /// The columns, as they are read.
    pub(super) building: &'a mut [Column<'a>],
    /// The TABLENAME parts of a text column, as they are read.
    pub(super) table: &'a mut [Ucs2Str<'a>],
    /// The bytes of the name being read, as they arrive.
    pub(super) pending: &'a mut [u8],
    /// The column being read.
    pub(super) draft: Draft<'a>,
}

impl<'a> Builder<'a> {
    /// Nothing built yet.
    fn new() -> Builder<'a> {
        Builder {
            building: &mut [],
            table: &mut [],
            pending: &mut [],
            draft: Draft::EMPTY,
        }
    }
}

/// A column being read.
#[derive(Copy, Clone, Debug)]
pub(super) struct Draft<'a> {
    pub(super) ordinal: u16,
    pub(super) status: u8,
    pub(super) param_name: Ucs2Str<'a>,
    pub(super) user_type: u32,
    pub(super) flags: u16,
    pub(super) type_info: TypeInfo<'a>,
    pub(super) names: [Ucs2Str<'a>; 4],
}

impl Draft<'_> {
    pub(super) const EMPTY: Draft<'static> = Draft {
        ordinal: 0,
        status: 0,
        param_name: Ucs2Str::EMPTY,
        user_type: 0,
        flags: 0,
        type_info: TypeInfo::new(DataType::Null),
        names: [Ucs2Str::EMPTY; 4],
    };
}

/// The arena limit that leanwire's long-lived readers default to: 16 MiB,
/// room for the widest result set a server sends (4096 columns with
/// 128-character names) many times over.
pub const DEFAULT_ARENA_LIMIT: usize = 16 * 1024 * 1024;

/// Column metadata and the arena it lives in: what a [`Reader`](super::Reader) fills from
/// COLMETADATA (and RETURNVALUE headers), and reads rows by.
///
/// Give the reader the same `Metadata` from a COLMETADATA until the next
/// one. The arena grows only while a COLMETADATA or RETURNVALUE header is
/// read, so a reader of many result sets resets it: when the reader hands
/// out [`Event::ColMetadataStart`](super::Event::ColMetadataStart), the
/// last result set's columns are done with, and the caller drops this
/// `Metadata`, resets the arena and passes a new `Metadata` over it to
/// the next call ([`OwnedMetadata`](crate::tds::OwnedMetadata) does this for an
/// arena of its own). The reader notices a `Metadata` it did not fill and
/// reports [`ErrorKind::NoMetadata`](crate::tds::ErrorKind::NoMetadata) rather than misread a row. To bound
/// the arena against a hostile server, set [`Bump::set_allocation_limit`]
/// (exceeding it is [`ErrorKind::ArenaFull`](crate::tds::ErrorKind::ArenaFull)).
///
/// ```
/// use leanwire_core::bumpalo::Bump;
/// use leanwire_core::tds::{Event, Metadata, Reader, Status, TdsVersion};
///
/// // Two result sets of one int column each (`a`, then `b`), no rows.
/// let done = [0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
/// let mut tokens = vec![0x81, 1, 0, 0, 0, 0, 0, 0, 0, 0x38, 1, b'a', 0];
/// tokens.extend(done);
/// tokens.extend([0x81, 1, 0, 0, 0, 0, 0, 0, 0, 0x38, 1, b'b', 0]);
/// tokens.extend(done);
///
/// let mut bump = Bump::new();
/// bump.set_allocation_limit(Some(64 * 1024));
/// let mut meta = Metadata::new(&bump);
/// let mut reader = Reader::new(TdsVersion::V7_4);
/// let mut input = &tokens[..];
/// let mut names = Vec::new();
/// loop {
///     match reader.next(&mut input, &mut meta, &mut [])? {
///         Status::Complete(Event::ColMetadataStart { .. }) => {
///             bump.reset();
///             meta = Metadata::new(&bump);
///         }
///         Status::Complete(_) => {}
///         Status::Partial => break,
///     }
///     if let Some(column) = meta.columns().first() {
///         names.push(column.name.to_string());
///     }
/// }
/// names.dedup();
/// assert_eq!(names, ["a", "b"]);
/// # Ok::<(), leanwire_core::tds::Error>(())
/// ```
pub struct Metadata<'a> {
    pub(super) bump: &'a Bump,
    /// The reader generation whose COLMETADATA filled `columns` (0: none).
    pub(super) generation: u32,
    /// The reader stamp of the COLMETADATA or RETURNVALUE being read.
    pub(super) filling: u32,
    pub(super) columns: &'a [Column<'a>],
    pub(super) return_value: Option<ReturnValue<'a>>,
    pub(super) builder: Builder<'a>,
}

impl fmt::Debug for Metadata<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Metadata")
            .field("generation", &self.generation)
            .field("columns", &self.columns)
            .field("return_value", &self.return_value)
            .finish_non_exhaustive()
    }
}

impl<'a> Metadata<'a> {
    /// Empty metadata over `bump`.
    pub fn new(bump: &'a Bump) -> Metadata<'a> {
        Metadata {
            bump,
            generation: 0,
            filling: 0,
            columns: &[],
            return_value: None,
            builder: Builder::new(),
        }
    }

    /// The arena.
    pub fn bump(&self) -> &'a Bump {
        self.bump
    }

    /// The current result set's columns (empty before any COLMETADATA).
    pub fn columns(&self) -> &'a [Column<'a>] {
        self.columns
    }

    /// The index of the first column named `name`.
    pub fn position(&self, name: &str) -> Option<usize> {
        self.columns.iter().position(|c| c.name == name)
    }

    /// The last RETURNVALUE's header.
    pub fn return_value(&self) -> Option<&ReturnValue<'a>> {
        self.return_value.as_ref()
    }

    pub(super) fn generation(&self) -> u32 {
        self.generation
    }
}
