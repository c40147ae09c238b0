//! COLMETADATA [MS-TDS 2.2.7.4]: the columns of a result set, read field by
//! field into the caller's arena; and the RETURNVALUE header, which shares
//! its TYPE_INFO reading.

use core::fmt;

use bumpalo::Bump;

use super::error::{ErrorKind, Result, Site, error_at};
use super::reader::{MAX_COLUMNS, MetaPart, Out, Reader, ReaderState, State};
use super::returnvalue::ReturnValue;
use super::row::Val;
use super::status::Status;
use super::token::TokenType;
use super::type_info::{DataType, TypeInfo, TypeNames};
use super::ucs2::Ucs2Str;

/// A column's flags, as a little-endian u16 [MS-TDS 2.2.7.4]. Unknown bits
/// are kept.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct ColumnFlags(pub u16);

impl ColumnFlags {
    /// The column allows NULL: fNullable, bit 0 [MS-TDS 2.2.7.4].
    pub const fn nullable(self) -> bool {
        self.0 & 0x0001 != 0
    }

    /// The column's collation is case-sensitive.
    pub const fn case_sensitive(self) -> bool {
        self.0 & 0x0002 != 0
    }

    /// Updateability: 0 read-only, 1 read/write, 2 unknown.
    pub const fn updateable(self) -> u8 {
        ((self.0 >> 2) & 0x3) as u8
    }

    /// An identity column.
    pub const fn identity(self) -> bool {
        self.0 & 0x0010 != 0
    }

    /// A computed column.
    pub const fn computed(self) -> bool {
        self.0 & 0x0020 != 0
    }

    /// A fixed-length CLR type.
    pub const fn fixed_len_clr_type(self) -> bool {
        self.0 & 0x0100 != 0
    }

    /// The sparse column set.
    pub const fn sparse_column_set(self) -> bool {
        self.0 & 0x0400 != 0
    }

    /// An encrypted column (Always Encrypted).
    pub const fn encrypted(self) -> bool {
        self.0 & 0x0800 != 0
    }

    /// A hidden column (browse mode).
    pub const fn hidden(self) -> bool {
        self.0 & 0x2000 != 0
    }

    /// A key column (browse mode).
    pub const fn key(self) -> bool {
        self.0 & 0x4000 != 0
    }

    /// Nullability unknown.
    pub const fn nullable_unknown(self) -> bool {
        self.0 & 0x8000 != 0
    }
}

/// One column of a result set, in the arena.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Column<'a> {
    /// The user type id (u16 before 7.2).
    pub user_type: u32,
    /// Flags.
    pub flags: ColumnFlags,
    /// The type.
    pub type_info: TypeInfo<'a>,
    /// For TEXT, NTEXT and IMAGE: the table name, in parts
    /// (server.database.schema.table); empty otherwise.
    pub table_name: &'a [Ucs2Str<'a>],
    /// The column name (empty for an unnamed expression).
    pub name: Ucs2Str<'a>,
}

impl Column<'_> {
    const EMPTY: Column<'static> = Column {
        user_type: 0,
        flags: ColumnFlags(0),
        type_info: TypeInfo::new(DataType::Null),
        table_name: &[],
        name: Ucs2Str::EMPTY,
    };
}

impl fmt::Display for Column<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.name, self.type_info)
    }
}

/// A COLMETADATA token, read: the result set's columns, which live in the
/// caller's [`Metadata`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ColMetadata<'a> {
    /// The columns.
    pub columns: &'a [Column<'a>],
    /// The server sent count 0xFFFF, "no metadata" (the client asked for
    /// it): the previous result set's columns stay in effect and are
    /// `columns`.
    pub no_metadata: bool,
}

impl fmt::Display for ColMetadata<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.no_metadata {
            f.write_str("(no metadata) ")?;
        }
        f.write_str("[")?;
        for (i, column) in self.columns.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{column}")?;
        }
        f.write_str("]")
    }
}

/// A column being read.
#[derive(Copy, Clone, Debug)]
struct Draft<'a> {
    ordinal: u16,
    status: u8,
    param_name: Ucs2Str<'a>,
    user_type: u32,
    flags: u16,
    type_info: TypeInfo<'a>,
    names: [Ucs2Str<'a>; 4],
}

impl Draft<'_> {
    const EMPTY: Draft<'static> = Draft {
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

/// Column metadata and the arena it lives in: what a [`Reader`] fills from
/// COLMETADATA (and RETURNVALUE headers), and reads rows by.
///
/// Give the reader the same `Metadata` from a COLMETADATA until the next
/// one. The arena grows only while a COLMETADATA or RETURNVALUE header is
/// read, so a reader of many result sets resets it: when the reader hands
/// out [`Event::ColMetadataStart`](super::Event::ColMetadataStart), the
/// last result set's columns are done with, and the caller drops this
/// `Metadata`, resets the arena and passes a new `Metadata` over it to
/// the next call ([`OwnedMetadata`](super::OwnedMetadata) does this for an
/// arena of its own). The reader notices a `Metadata` it did not fill and
/// reports [`ErrorKind::NoMetadata`] rather than misread a row. To bound
/// the arena against a hostile server, set [`Bump::set_allocation_limit`]
/// (exceeding it is [`ErrorKind::ArenaFull`]).
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
    bump: &'a Bump,
    /// The reader generation whose COLMETADATA filled `columns` (0: none).
    generation: u32,
    /// The reader stamp of the COLMETADATA or RETURNVALUE being read.
    filling: u32,
    columns: &'a [Column<'a>],
    return_value: Option<ReturnValue<'a>>,
    building: &'a mut [Column<'a>],
    table: &'a mut [Ucs2Str<'a>],
    pending: &'a mut [u8],
    draft: Draft<'a>,
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
            building: &mut [],
            table: &mut [],
            pending: &mut [],
            draft: Draft::EMPTY,
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

/// Where a COLMETADATA or RETURNVALUE header read is.
#[derive(Copy, Clone, Debug)]
pub(crate) struct MetaState {
    /// Reading a RETURNVALUE header (else COLMETADATA).
    ret: bool,
    count: u16,
    column: u16,
    step: Step,
}

#[derive(Copy, Clone, Debug)]
enum Step {
    Count,
    /// COLMETADATA's count was read (and handed out as
    /// `ColMetadataStart`): room for the columns is next.
    Columns,
    Ordinal,
    Status,
    UserType,
    Flags,
    TypeId,
    TypeFixed {
        data_type: DataType,
        len: u8,
    },
    XmlPresent,
    TableParts,
    StrLen {
        slot: Slot,
    },
    StrBytes {
        slot: Slot,
        len: u32,
        have: u32,
        at: u64,
    },
}

/// Which name is being read.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Slot {
    ParamName,
    /// XML schema or UDT names, in TYPE_INFO order.
    TypeName(u8),
    TablePart(u8),
    ColName,
}

impl MetaState {
    pub(super) const fn col_metadata() -> MetaState {
        MetaState {
            ret: false,
            count: 0,
            column: 0,
            step: Step::Count,
        }
    }

    pub(super) const fn return_value() -> MetaState {
        MetaState {
            ret: true,
            count: 1,
            column: 0,
            step: Step::Ordinal,
        }
    }

    fn token(&self) -> TokenType {
        if self.ret {
            TokenType::ReturnValue
        } else {
            TokenType::ColMetadata
        }
    }

    pub(super) fn site(&self) -> Site {
        match (self.ret, self.step) {
            (true, _) | (false, Step::Count | Step::Columns) => Site::token(self.token()),
            (false, _) => Site::column(TokenType::ColMetadata, self.column),
        }
    }

    pub(super) fn public(&self) -> ReaderState {
        ReaderState::Metadata {
            token: self.token(),
            column: self.column,
            part: match self.step {
                Step::Count | Step::Columns => MetaPart::ColumnCount,
                Step::Ordinal => MetaPart::ParamOrdinal,
                Step::Status => MetaPart::ParamStatus,
                Step::UserType => MetaPart::UserType,
                Step::Flags => MetaPart::Flags,
                Step::TypeId => MetaPart::TypeId,
                Step::TypeFixed { .. } => MetaPart::TypeInfo,
                Step::XmlPresent => MetaPart::XmlSchemaPresent,
                Step::TableParts => MetaPart::TableNameParts,
                Step::StrLen { .. } => MetaPart::NameLength,
                Step::StrBytes { .. } => MetaPart::Name,
            },
        }
    }
}

fn is_text(data_type: DataType) -> bool {
    matches!(
        data_type,
        DataType::Text | DataType::NText | DataType::Image
    )
}

impl Reader {
    /// One field of COLMETADATA or a RETURNVALUE header. `Complete(None)`:
    /// a field was read, go on.
    pub(super) fn step_meta<'c, 'a>(
        &mut self,
        input: &mut &'c [u8],
        meta: &mut Metadata<'a>,
    ) -> Result<Status<Option<Out<'c>>>> {
        let State::Meta(mut state) = self.state else {
            return Ok(Status::Complete(None));
        };
        let site = state.site();
        let arena_full = |at: u64| error_at(ErrorKind::ArenaFull(site), at);
        // A different Metadata than the one being filled.
        if !matches!(state.step, Step::Count | Step::Columns | Step::Ordinal)
            && meta.filling != self.stamp()
        {
            return Err(error_at(ErrorKind::NoMetadata(site), self.pos));
        }
        let out = match state.step {
            Step::Count => {
                if !self.fill(input, 2) {
                    return Ok(Status::Partial);
                }
                let at = self.pos - 2;
                let count = self.scratch_uint(2) as u16;
                if count == 0xFFFF {
                    self.state = State::Token;
                    return Ok(Status::Complete(Some(Out::ColMetadata {
                        no_metadata: true,
                    })));
                }
                if count > MAX_COLUMNS {
                    return Err(error_at(ErrorKind::TooManyColumns(count), at));
                }
                state.count = count;
                state.step = Step::Columns;
                Some(Out::ColMetadataStart { columns: count })
            }
            Step::Columns => {
                // Nothing was taken since the count.
                let at = self.pos - 2;
                self.generation = self.generation.wrapping_add(1).max(1);
                self.skip = [0; MAX_COLUMNS as usize / 8];
                self.stamp_metadata(meta);
                meta.generation = 0;
                meta.columns = &[];
                meta.building = meta
                    .bump
                    .try_alloc_slice_fill_copy(usize::from(state.count), Column::EMPTY)
                    .map_err(|_| arena_full(at))?;
                meta.draft = Draft::EMPTY;
                if state.count == 0 {
                    return Ok(Status::Complete(Some(self.finish_columns(meta))));
                }
                state.step = Step::UserType;
                None
            }
            Step::Ordinal => {
                if !self.fill(input, 2) {
                    return Ok(Status::Partial);
                }
                self.stamp_metadata(meta);
                meta.draft = Draft::EMPTY;
                meta.draft.ordinal = self.scratch_uint(2) as u16;
                state.step = Step::StrLen {
                    slot: Slot::ParamName,
                };
                None
            }
            Step::Status => {
                if !self.fill(input, 1) {
                    return Ok(Status::Partial);
                }
                meta.draft.status = self.scratch[0];
                state.step = Step::UserType;
                None
            }
            Step::UserType => {
                let width = if self.version.is_7_2_or_later() { 4 } else { 2 };
                if !self.fill(input, width) {
                    return Ok(Status::Partial);
                }
                meta.draft.user_type = self.scratch_uint(width) as u32;
                state.step = Step::Flags;
                None
            }
            Step::Flags => {
                if !self.fill(input, 2) {
                    return Ok(Status::Partial);
                }
                meta.draft.flags = self.scratch_uint(2) as u16;
                state.step = Step::TypeId;
                None
            }
            Step::TypeId => {
                if !self.fill(input, 1) {
                    return Ok(Status::Partial);
                }
                let at = self.pos - 1;
                let data_type = DataType::from(self.scratch[0]);
                let Some(len) = data_type.info_len() else {
                    return Err(error_at(
                        ErrorKind::UnknownDataType(site, self.scratch[0]),
                        at,
                    ));
                };
                state.step = Step::TypeFixed { data_type, len };
                None
            }
            Step::TypeFixed { data_type, len } => {
                let len = usize::from(len);
                if !self.fill(input, len) {
                    return Ok(Status::Partial);
                }
                let at = self.pos - len as u64 - 1;
                let info = TypeInfo::parse_fixed(data_type, &self.scratch[..len], site)
                    .map_err(|(kind, i)| error_at(kind, at + 1 + i as u64))?;
                meta.draft.type_info = info;
                state.step = match data_type {
                    DataType::Xml => Step::XmlPresent,
                    DataType::Udt => Step::StrLen {
                        slot: Slot::TypeName(0),
                    },
                    _ => self.after_type(&state, meta, data_type)?,
                };
                None
            }
            Step::XmlPresent => {
                if !self.fill(input, 1) {
                    return Ok(Status::Partial);
                }
                state.step = match self.scratch[0] {
                    0 => self.after_type(&state, meta, DataType::Xml)?,
                    1 => Step::StrLen {
                        slot: Slot::TypeName(0),
                    },
                    _ => {
                        let at = self.pos - 1;
                        return Err(error_at(ErrorKind::InvalidTypeInfo(site), at));
                    }
                };
                None
            }
            Step::TableParts => {
                if !self.fill(input, 1) {
                    return Ok(Status::Partial);
                }
                let parts = usize::from(self.scratch[0]);
                meta.table = meta
                    .bump
                    .try_alloc_slice_fill_copy(parts, Ucs2Str::EMPTY)
                    .map_err(|_| arena_full(self.pos - 1))?;
                state.step = Step::StrLen {
                    slot: if parts == 0 {
                        Slot::ColName
                    } else {
                        Slot::TablePart(0)
                    },
                };
                None
            }
            Step::StrLen { slot } => {
                let width = match slot {
                    Slot::TablePart(_) => 2,
                    Slot::TypeName(i) => {
                        let last = if meta.draft.type_info.data_type == DataType::Xml {
                            2
                        } else {
                            3
                        };
                        if i == last { 2 } else { 1 }
                    }
                    Slot::ParamName | Slot::ColName => 1,
                };
                if !self.fill(input, width) {
                    return Ok(Status::Partial);
                }
                let len = self.scratch_uint(width) as u32 * 2;
                let at = self.pos;
                meta.pending = meta
                    .bump
                    .try_alloc_slice_fill_copy(len as usize, 0u8)
                    .map_err(|_| arena_full(at - width as u64))?;
                state.step = Step::StrBytes {
                    slot,
                    len,
                    have: 0,
                    at,
                };
                None
            }
            Step::StrBytes {
                slot,
                len,
                have,
                at,
            } => {
                let from = have as usize;
                let taken = self.take(input, (len - have) as usize);
                let to = from + taken.len();
                if let Some(dest) = meta.pending.get_mut(from..to) {
                    dest.copy_from_slice(taken);
                }
                if to < len as usize {
                    state.step = Step::StrBytes {
                        slot,
                        len,
                        have: to as u32,
                        at,
                    };
                    self.state = State::Meta(state);
                    return Ok(Status::Partial);
                }
                let bytes: &'a mut [u8] = core::mem::take(&mut meta.pending);
                let bytes: &'a [u8] = bytes;
                let text = Ucs2Str::new(bytes)
                    .map_err(|i| error_at(ErrorKind::InvalidUcs2(site), at + i as u64))?;
                match slot {
                    Slot::ParamName => {
                        meta.draft.param_name = text;
                        state.step = Step::Status;
                        None
                    }
                    Slot::TypeName(i) => {
                        meta.draft.names[usize::from(i)] = text;
                        let data_type = meta.draft.type_info.data_type;
                        let last = if data_type == DataType::Xml { 2 } else { 3 };
                        if i < last {
                            state.step = Step::StrLen {
                                slot: Slot::TypeName(i + 1),
                            };
                        } else {
                            let names = &meta.draft.names;
                            let value = match data_type {
                                DataType::Xml => TypeNames::Xml {
                                    database: names[0],
                                    owning_schema: names[1],
                                    collection: names[2],
                                },
                                _ => TypeNames::Udt {
                                    database: names[0],
                                    schema: names[1],
                                    type_name: names[2],
                                    assembly: names[3],
                                },
                            };
                            let names: &'a TypeNames<'a> = meta
                                .bump
                                .try_alloc(value)
                                .map_err(|_| arena_full(self.pos))?;
                            meta.draft.type_info.names = Some(names);
                            state.step = self.after_type(&state, meta, data_type)?;
                        }
                        None
                    }
                    Slot::TablePart(i) => {
                        if let Some(part) = meta.table.get_mut(usize::from(i)) {
                            *part = text;
                        }
                        state.step = Step::StrLen {
                            slot: if usize::from(i) + 1 < meta.table.len() {
                                Slot::TablePart(i + 1)
                            } else {
                                Slot::ColName
                            },
                        };
                        None
                    }
                    Slot::ColName => {
                        let draft = meta.draft;
                        let table: &'a mut [Ucs2Str<'a>] = core::mem::take(&mut meta.table);
                        if let Some(column) = meta.building.get_mut(usize::from(state.column)) {
                            *column = Column {
                                user_type: draft.user_type,
                                flags: ColumnFlags(draft.flags),
                                type_info: draft.type_info,
                                table_name: table,
                                name: text,
                            };
                        }
                        state.column += 1;
                        if state.column == state.count {
                            return Ok(Status::Complete(Some(self.finish_columns(meta))));
                        }
                        meta.draft = Draft::EMPTY;
                        state.step = Step::UserType;
                        None
                    }
                }
            }
        };
        // `after_type` may have finished a RETURNVALUE header.
        if let State::Meta(_) = self.state {
            self.state = State::Meta(state);
        }
        if core::mem::take(&mut self.return_value_ready) {
            return Ok(Status::Complete(Some(Out::ReturnValue)));
        }
        Ok(Status::Complete(out))
    }

    /// The step after a column's TYPE_INFO: the table name (TEXT types),
    /// the column name, or, for a RETURNVALUE, the value.
    fn after_type(
        &mut self,
        state: &MetaState,
        meta: &mut Metadata<'_>,
        data_type: DataType,
    ) -> Result<Step> {
        if state.ret {
            let draft = meta.draft;
            meta.return_value = Some(ReturnValue {
                ordinal: draft.ordinal,
                name: draft.param_name,
                status: draft.status,
                user_type: draft.user_type,
                flags: ColumnFlags(draft.flags),
                type_info: draft.type_info,
            });
            self.state = State::Value {
                column: 0,
                ret: true,
                val: Val::Start,
            };
            self.return_value_ready = true;
            return Ok(Step::Count);
        }
        Ok(if !is_text(data_type) {
            Step::StrLen {
                slot: Slot::ColName,
            }
        } else if self.version.is_7_2_or_later() {
            Step::TableParts
        } else {
            // 7.1: one US_VARCHAR table name.
            meta.table = meta
                .bump
                .try_alloc_slice_fill_copy(1, Ucs2Str::EMPTY)
                .map_err(|_| error_at(ErrorKind::ArenaFull(state.site()), self.pos))?;
            Step::StrLen {
                slot: Slot::TablePart(0),
            }
        })
    }

    /// All columns are read: they become the current result set.
    fn finish_columns(&mut self, meta: &mut Metadata<'_>) -> Out<'static> {
        let columns = core::mem::take(&mut meta.building);
        meta.columns = columns;
        meta.generation = self.generation;
        self.state = State::Token;
        Out::ColMetadata { no_metadata: false }
    }

    /// The stamp of the metadata token being read.
    fn stamp(&self) -> u32 {
        self.meta_stamp
    }

    /// Marks `meta` as the metadata this token fills.
    fn stamp_metadata(&mut self, meta: &mut Metadata<'_>) {
        self.meta_stamp = self.meta_stamp.wrapping_add(1).max(1);
        meta.filling = self.meta_stamp;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tds::{CodePage, Event, Status, TdsVersion, Token};

    #[test]
    fn flags_bits() {
        let flags = ColumnFlags(0x0001 | 0x0008 | 0x0010 | 0x2000);
        assert!(flags.nullable() && flags.identity() && flags.hidden());
        assert!(!flags.case_sensitive() && !flags.computed() && !flags.key());
        assert_eq!(flags.updateable(), 2);
        // fNullable is bit 0 alone [MS-TDS 2.2.7.4].
        assert!(ColumnFlags(0x0001).nullable() && !ColumnFlags(0xFFFE).nullable());
    }

    #[test]
    fn varchar_column_from_tedious() {
        // tedious's "should parse VarChar column metadata".
        let bytes = [
            0x81, 1, 0, 2, 0, 0, 0, 3, 0, 0xa7, 3, 0, 0x09, 0x04, 0x50, 0x78, 0x9a, 4, b'n', 0,
            b'a', 0, b'm', 0, b'e', 0,
        ];
        for chunk in 1..=bytes.len() {
            let bump = Bump::new();
            let mut meta = Metadata::new(&bump);
            let mut reader = Reader::new(TdsVersion::V7_2);
            let mut columns = 0;
            for mut piece in bytes.chunks(chunk) {
                while let Status::Complete(event) =
                    reader.next(&mut piece, &mut meta, &mut []).unwrap()
                {
                    if let Event::Token(Token::ColMetadata(cm)) = event {
                        columns = cm.columns.len();
                    }
                }
            }
            assert_eq!(columns, 1);
            let column = meta.columns()[0];
            assert!(column.name == "name");
            assert_eq!((column.user_type, column.flags.0), (2, 3));
            assert_eq!(column.type_info.max_len, 3);
            let collation = column.type_info.collation.unwrap();
            assert_eq!(collation.code_page(), CodePage::Windows(1257));
            assert_eq!(meta.position("name"), Some(0));
        }
    }
}
