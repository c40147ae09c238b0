//! The metadata machine: COLMETADATA [MS-TDS 2.2.7.4] and RETURNVALUE
//! headers [MS-TDS 2.2.7.18], read field by field into the caller's
//! [`Metadata`], resumable at any byte.

use super::cursor::Cursor;
use super::metadata::{Draft, Metadata};
use super::{MAX_COLUMNS, MetaPart, ReaderState};
use crate::tds::colmetadata::{Column, ColumnFlags};
use crate::tds::error::{ErrorKind, Result, Site, error_at};
use crate::tds::returnvalue::ReturnValue;
use crate::tds::token::TokenType;
use crate::tds::type_info::{DataType, TypeInfo, TypeNames};
use crate::tds::ucs2::Ucs2Str;
use crate::tds::version::TdsVersion;

/// The metadata machine: where a COLMETADATA or RETURNVALUE header read
/// is. It reads through the reader's [`Cursor`] into the caller's
/// [`Metadata`], and tells the reader what it read by its [`MetaStep`].
#[derive(Copy, Clone, Debug)]
pub(crate) struct MetaMachine {
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

/// What the metadata machine shares with the reader that drives it.
pub(super) struct MetaEnv<'r> {
    /// The stream position, the scratch space and the field being gathered.
    pub(super) cursor: &'r mut Cursor,
    /// The TDS version, which sets the width of some fields.
    pub(super) version: TdsVersion,
    /// The stamp put on the [`Metadata`] being filled, so that a different
    /// one passed in the middle of the token is noticed.
    pub(super) stamp: &'r mut u32,
    /// The reader's result-set generation, stamped on the columns it fills.
    pub(super) generation: &'r mut u32,
    /// The columns the caller skips, which each COLMETADATA resets.
    pub(super) skipped_columns: &'r mut [u8; MAX_COLUMNS as usize / 8],
}

/// What one [`MetaMachine::step`] did.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum MetaStep {
    /// The input ran out inside a field.
    Partial,
    /// A field was read: step again.
    Field,
    /// COLMETADATA's column count was read: `ColMetadataStart` is the event.
    Count(u16),
    /// The token is over: the columns are read, or there are none
    /// (`no_metadata`, the count 0xFFFF).
    Columns {
        /// The count was 0xFFFF.
        no_metadata: bool,
    },
    /// A RETURNVALUE header is read: its value comes next.
    ReturnValue,
}

impl MetaMachine {
    pub(super) const fn col_metadata() -> MetaMachine {
        MetaMachine {
            ret: false,
            count: 0,
            column: 0,
            step: Step::Count,
        }
    }

    pub(super) const fn return_value() -> MetaMachine {
        MetaMachine {
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

impl MetaMachine {
    /// Reads one field of COLMETADATA or a RETURNVALUE header from `input`
    /// into `meta`.
    pub(super) fn step<'a>(
        &mut self,
        env: &mut MetaEnv<'_>,
        input: &mut &[u8],
        meta: &mut Metadata<'a>,
    ) -> Result<MetaStep> {
        let site = self.site();
        let arena_full = |at: u64| error_at(ErrorKind::ArenaFull(site), at);
        // A different Metadata than the one being filled.
        if !matches!(self.step, Step::Count | Step::Columns | Step::Ordinal)
            && meta.filling != *env.stamp
        {
            return Err(error_at(ErrorKind::NoMetadata(site), env.cursor.pos));
        }
        Ok(match self.step {
            Step::Count => {
                if !env.cursor.fill(input, 2) {
                    return Ok(MetaStep::Partial);
                }
                let at = env.cursor.pos - 2;
                let count = env.cursor.scratch_uint(2) as u16;
                if count == 0xFFFF {
                    return Ok(MetaStep::Columns { no_metadata: true });
                }
                if count > MAX_COLUMNS {
                    return Err(error_at(ErrorKind::TooManyColumns(count), at));
                }
                self.count = count;
                self.step = Step::Columns;
                MetaStep::Count(count)
            }
            Step::Columns => {
                // Nothing was taken since the count.
                let at = env.cursor.pos - 2;
                *env.generation = env.generation.wrapping_add(1).max(1);
                *env.skipped_columns = [0; MAX_COLUMNS as usize / 8];
                env.stamp_metadata(meta);
                meta.generation = 0;
                meta.columns = &[];
                meta.builder.building = meta
                    .bump
                    .try_alloc_slice_fill_copy(usize::from(self.count), Column::EMPTY)
                    .map_err(|_| arena_full(at))?;
                meta.builder.draft = Draft::EMPTY;
                if self.count == 0 {
                    return Ok(env.finish_columns(meta));
                }
                self.next(Step::UserType)
            }
            Step::Ordinal => {
                if !env.cursor.fill(input, 2) {
                    return Ok(MetaStep::Partial);
                }
                env.stamp_metadata(meta);
                meta.builder.draft = Draft::EMPTY;
                meta.builder.draft.ordinal = env.cursor.scratch_uint(2) as u16;
                self.next(Step::StrLen {
                    slot: Slot::ParamName,
                })
            }
            Step::Status => {
                if !env.cursor.fill(input, 1) {
                    return Ok(MetaStep::Partial);
                }
                meta.builder.draft.status = env.cursor.scratch[0];
                self.next(Step::UserType)
            }
            Step::UserType => {
                let width = if env.version.is_7_2_or_later() { 4 } else { 2 };
                if !env.cursor.fill(input, width) {
                    return Ok(MetaStep::Partial);
                }
                meta.builder.draft.user_type = env.cursor.scratch_uint(width) as u32;
                self.next(Step::Flags)
            }
            Step::Flags => {
                if !env.cursor.fill(input, 2) {
                    return Ok(MetaStep::Partial);
                }
                meta.builder.draft.flags = env.cursor.scratch_uint(2) as u16;
                self.next(Step::TypeId)
            }
            Step::TypeId => {
                if !env.cursor.fill(input, 1) {
                    return Ok(MetaStep::Partial);
                }
                let at = env.cursor.pos - 1;
                let data_type = DataType::from(env.cursor.scratch[0]);
                let Some(len) = data_type.info_len() else {
                    return Err(error_at(
                        ErrorKind::UnknownDataType(site, env.cursor.scratch[0]),
                        at,
                    ));
                };
                self.next(Step::TypeFixed { data_type, len })
            }
            Step::TypeFixed { data_type, len } => {
                let len = usize::from(len);
                if !env.cursor.fill(input, len) {
                    return Ok(MetaStep::Partial);
                }
                let at = env.cursor.pos - len as u64 - 1;
                let info = TypeInfo::parse_fixed(data_type, &env.cursor.scratch[..len], site)
                    .map_err(|(kind, i)| error_at(kind, at + 1 + i as u64))?;
                meta.builder.draft.type_info = info;
                match data_type {
                    DataType::Xml => self.next(Step::XmlPresent),
                    DataType::Udt => self.next(Step::StrLen {
                        slot: Slot::TypeName(0),
                    }),
                    _ => self.after_type(env, meta, data_type)?,
                }
            }
            Step::XmlPresent => {
                if !env.cursor.fill(input, 1) {
                    return Ok(MetaStep::Partial);
                }
                match env.cursor.scratch[0] {
                    0 => self.after_type(env, meta, DataType::Xml)?,
                    1 => self.next(Step::StrLen {
                        slot: Slot::TypeName(0),
                    }),
                    _ => {
                        let at = env.cursor.pos - 1;
                        return Err(error_at(ErrorKind::InvalidTypeInfo(site), at));
                    }
                }
            }
            Step::TableParts => {
                if !env.cursor.fill(input, 1) {
                    return Ok(MetaStep::Partial);
                }
                let parts = usize::from(env.cursor.scratch[0]);
                meta.builder.table = meta
                    .bump
                    .try_alloc_slice_fill_copy(parts, Ucs2Str::EMPTY)
                    .map_err(|_| arena_full(env.cursor.pos - 1))?;
                self.next(Step::StrLen {
                    slot: if parts == 0 {
                        Slot::ColName
                    } else {
                        Slot::TablePart(0)
                    },
                })
            }
            Step::StrLen { slot } => {
                let width = match slot {
                    Slot::TablePart(_) => 2,
                    Slot::TypeName(i) => {
                        let last = if meta.builder.draft.type_info.data_type == DataType::Xml {
                            2
                        } else {
                            3
                        };
                        if i == last { 2 } else { 1 }
                    }
                    Slot::ParamName | Slot::ColName => 1,
                };
                if !env.cursor.fill(input, width) {
                    return Ok(MetaStep::Partial);
                }
                let len = env.cursor.scratch_uint(width) as u32 * 2;
                let at = env.cursor.pos;
                meta.builder.pending = meta
                    .bump
                    .try_alloc_slice_fill_copy(len as usize, 0u8)
                    .map_err(|_| arena_full(at - width as u64))?;
                self.next(Step::StrBytes {
                    slot,
                    len,
                    have: 0,
                    at,
                })
            }
            Step::StrBytes {
                slot,
                len,
                have,
                at,
            } => {
                let from = have as usize;
                let taken = env.cursor.take(input, (len - have) as usize);
                let to = from + taken.len();
                if let Some(dest) = meta.builder.pending.get_mut(from..to) {
                    dest.copy_from_slice(taken);
                }
                if to < len as usize {
                    self.step = Step::StrBytes {
                        slot,
                        len,
                        have: to as u32,
                        at,
                    };
                    return Ok(MetaStep::Partial);
                }
                let bytes: &'a mut [u8] = core::mem::take(&mut meta.builder.pending);
                let bytes: &'a [u8] = bytes;
                let text = Ucs2Str::new(bytes)
                    .map_err(|i| error_at(ErrorKind::InvalidUcs2(site), at + i as u64))?;
                match slot {
                    Slot::ParamName => {
                        meta.builder.draft.param_name = text;
                        self.next(Step::Status)
                    }
                    Slot::TypeName(i) => {
                        meta.builder.draft.names[usize::from(i)] = text;
                        let data_type = meta.builder.draft.type_info.data_type;
                        let last = if data_type == DataType::Xml { 2 } else { 3 };
                        if i < last {
                            self.step = Step::StrLen {
                                slot: Slot::TypeName(i + 1),
                            };
                        } else {
                            let names = &meta.builder.draft.names;
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
                                .map_err(|_| arena_full(env.cursor.pos))?;
                            meta.builder.draft.type_info.names = Some(names);
                            return self.after_type(env, meta, data_type);
                        }
                        MetaStep::Field
                    }
                    Slot::TablePart(i) => {
                        if let Some(part) = meta.builder.table.get_mut(usize::from(i)) {
                            *part = text;
                        }
                        self.next(Step::StrLen {
                            slot: if usize::from(i) + 1 < meta.builder.table.len() {
                                Slot::TablePart(i + 1)
                            } else {
                                Slot::ColName
                            },
                        })
                    }
                    Slot::ColName => {
                        let draft = meta.builder.draft;
                        let table: &'a mut [Ucs2Str<'a>] = core::mem::take(&mut meta.builder.table);
                        if let Some(column) =
                            meta.builder.building.get_mut(usize::from(self.column))
                        {
                            *column = Column {
                                user_type: draft.user_type,
                                flags: ColumnFlags(draft.flags),
                                type_info: draft.type_info,
                                table_name: table,
                                name: text,
                            };
                        }
                        self.column += 1;
                        if self.column == self.count {
                            return Ok(env.finish_columns(meta));
                        }
                        meta.builder.draft = Draft::EMPTY;
                        self.next(Step::UserType)
                    }
                }
            }
        })
    }

    /// Goes on to `step`: a field was read.
    fn next(&mut self, step: Step) -> MetaStep {
        self.step = step;
        MetaStep::Field
    }

    /// After a column's TYPE_INFO: on to the table name (TEXT types) or
    /// the column name; a RETURNVALUE's header is over, and its value next.
    fn after_type(
        &mut self,
        env: &MetaEnv<'_>,
        meta: &mut Metadata<'_>,
        data_type: DataType,
    ) -> Result<MetaStep> {
        if self.ret {
            let draft = meta.builder.draft;
            meta.return_value = Some(ReturnValue {
                ordinal: draft.ordinal,
                name: draft.param_name,
                status: draft.status,
                user_type: draft.user_type,
                flags: ColumnFlags(draft.flags),
                type_info: draft.type_info,
            });
            return Ok(MetaStep::ReturnValue);
        }
        let step = if !is_text(data_type) {
            Step::StrLen {
                slot: Slot::ColName,
            }
        } else if env.version.is_7_2_or_later() {
            Step::TableParts
        } else {
            // 7.1: one US_VARCHAR table name.
            meta.builder.table = meta
                .bump
                .try_alloc_slice_fill_copy(1, Ucs2Str::EMPTY)
                .map_err(|_| error_at(ErrorKind::ArenaFull(self.site()), env.cursor.pos))?;
            Step::StrLen {
                slot: Slot::TablePart(0),
            }
        };
        Ok(self.next(step))
    }
}

impl MetaEnv<'_> {
    /// All columns are read: they become the current result set.
    fn finish_columns(&mut self, meta: &mut Metadata<'_>) -> MetaStep {
        let columns = core::mem::take(&mut meta.builder.building);
        meta.columns = columns;
        meta.generation = *self.generation;
        MetaStep::Columns { no_metadata: false }
    }

    /// Marks `meta` as the metadata this token fills.
    fn stamp_metadata(&mut self, meta: &mut Metadata<'_>) {
        *self.stamp = self.stamp.wrapping_add(1).max(1);
        meta.filling = *self.stamp;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tds::{CodePage, Event, Reader, Status, TdsVersion, Token};
    use bumpalo::Bump;

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
