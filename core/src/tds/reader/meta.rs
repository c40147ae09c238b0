//! The metadata machine: COLMETADATA [MS-TDS 2.2.7.4] and RETURNVALUE
//! headers [MS-TDS 2.2.7.18], read field by field into the caller's
//! [`Metadata`], resumable at any byte.

use super::metadata::{Draft, Metadata};
use super::row::Val;
use super::{MAX_COLUMNS, MetaPart, Out, Reader, ReaderState, State};
use crate::tds::colmetadata::{Column, ColumnFlags};
use crate::tds::error::{ErrorKind, Result, Site, error_at};
use crate::tds::returnvalue::ReturnValue;
use crate::tds::status::Status;
use crate::tds::token::TokenType;
use crate::tds::type_info::{DataType, TypeInfo, TypeNames};
use crate::tds::ucs2::Ucs2Str;

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
            return Err(error_at(ErrorKind::NoMetadata(site), self.cursor.pos));
        }
        let out = match state.step {
            Step::Count => {
                if !self.cursor.fill(input, 2) {
                    return Ok(Status::Partial);
                }
                let at = self.cursor.pos - 2;
                let count = self.cursor.scratch_uint(2) as u16;
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
                let at = self.cursor.pos - 2;
                self.generation = self.generation.wrapping_add(1).max(1);
                self.row.skip = [0; MAX_COLUMNS as usize / 8];
                self.stamp_metadata(meta);
                meta.generation = 0;
                meta.columns = &[];
                meta.builder.building = meta
                    .bump
                    .try_alloc_slice_fill_copy(usize::from(state.count), Column::EMPTY)
                    .map_err(|_| arena_full(at))?;
                meta.builder.draft = Draft::EMPTY;
                if state.count == 0 {
                    return Ok(Status::Complete(Some(self.finish_columns(meta))));
                }
                state.step = Step::UserType;
                None
            }
            Step::Ordinal => {
                if !self.cursor.fill(input, 2) {
                    return Ok(Status::Partial);
                }
                self.stamp_metadata(meta);
                meta.builder.draft = Draft::EMPTY;
                meta.builder.draft.ordinal = self.cursor.scratch_uint(2) as u16;
                state.step = Step::StrLen {
                    slot: Slot::ParamName,
                };
                None
            }
            Step::Status => {
                if !self.cursor.fill(input, 1) {
                    return Ok(Status::Partial);
                }
                meta.builder.draft.status = self.cursor.scratch[0];
                state.step = Step::UserType;
                None
            }
            Step::UserType => {
                let width = if self.version.is_7_2_or_later() { 4 } else { 2 };
                if !self.cursor.fill(input, width) {
                    return Ok(Status::Partial);
                }
                meta.builder.draft.user_type = self.cursor.scratch_uint(width) as u32;
                state.step = Step::Flags;
                None
            }
            Step::Flags => {
                if !self.cursor.fill(input, 2) {
                    return Ok(Status::Partial);
                }
                meta.builder.draft.flags = self.cursor.scratch_uint(2) as u16;
                state.step = Step::TypeId;
                None
            }
            Step::TypeId => {
                if !self.cursor.fill(input, 1) {
                    return Ok(Status::Partial);
                }
                let at = self.cursor.pos - 1;
                let data_type = DataType::from(self.cursor.scratch[0]);
                let Some(len) = data_type.info_len() else {
                    return Err(error_at(
                        ErrorKind::UnknownDataType(site, self.cursor.scratch[0]),
                        at,
                    ));
                };
                state.step = Step::TypeFixed { data_type, len };
                None
            }
            Step::TypeFixed { data_type, len } => {
                let len = usize::from(len);
                if !self.cursor.fill(input, len) {
                    return Ok(Status::Partial);
                }
                let at = self.cursor.pos - len as u64 - 1;
                let info = TypeInfo::parse_fixed(data_type, &self.cursor.scratch[..len], site)
                    .map_err(|(kind, i)| error_at(kind, at + 1 + i as u64))?;
                meta.builder.draft.type_info = info;
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
                if !self.cursor.fill(input, 1) {
                    return Ok(Status::Partial);
                }
                state.step = match self.cursor.scratch[0] {
                    0 => self.after_type(&state, meta, DataType::Xml)?,
                    1 => Step::StrLen {
                        slot: Slot::TypeName(0),
                    },
                    _ => {
                        let at = self.cursor.pos - 1;
                        return Err(error_at(ErrorKind::InvalidTypeInfo(site), at));
                    }
                };
                None
            }
            Step::TableParts => {
                if !self.cursor.fill(input, 1) {
                    return Ok(Status::Partial);
                }
                let parts = usize::from(self.cursor.scratch[0]);
                meta.builder.table = meta
                    .bump
                    .try_alloc_slice_fill_copy(parts, Ucs2Str::EMPTY)
                    .map_err(|_| arena_full(self.cursor.pos - 1))?;
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
                        let last = if meta.builder.draft.type_info.data_type == DataType::Xml {
                            2
                        } else {
                            3
                        };
                        if i == last { 2 } else { 1 }
                    }
                    Slot::ParamName | Slot::ColName => 1,
                };
                if !self.cursor.fill(input, width) {
                    return Ok(Status::Partial);
                }
                let len = self.cursor.scratch_uint(width) as u32 * 2;
                let at = self.cursor.pos;
                meta.builder.pending = meta
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
                let taken = self.cursor.take(input, (len - have) as usize);
                let to = from + taken.len();
                if let Some(dest) = meta.builder.pending.get_mut(from..to) {
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
                let bytes: &'a mut [u8] = core::mem::take(&mut meta.builder.pending);
                let bytes: &'a [u8] = bytes;
                let text = Ucs2Str::new(bytes)
                    .map_err(|i| error_at(ErrorKind::InvalidUcs2(site), at + i as u64))?;
                match slot {
                    Slot::ParamName => {
                        meta.builder.draft.param_name = text;
                        state.step = Step::Status;
                        None
                    }
                    Slot::TypeName(i) => {
                        meta.builder.draft.names[usize::from(i)] = text;
                        let data_type = meta.builder.draft.type_info.data_type;
                        let last = if data_type == DataType::Xml { 2 } else { 3 };
                        if i < last {
                            state.step = Step::StrLen {
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
                                .map_err(|_| arena_full(self.cursor.pos))?;
                            meta.builder.draft.type_info.names = Some(names);
                            state.step = self.after_type(&state, meta, data_type)?;
                        }
                        None
                    }
                    Slot::TablePart(i) => {
                        if let Some(part) = meta.builder.table.get_mut(usize::from(i)) {
                            *part = text;
                        }
                        state.step = Step::StrLen {
                            slot: if usize::from(i) + 1 < meta.builder.table.len() {
                                Slot::TablePart(i + 1)
                            } else {
                                Slot::ColName
                            },
                        };
                        None
                    }
                    Slot::ColName => {
                        let draft = meta.builder.draft;
                        let table: &'a mut [Ucs2Str<'a>] = core::mem::take(&mut meta.builder.table);
                        if let Some(column) =
                            meta.builder.building.get_mut(usize::from(state.column))
                        {
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
                        meta.builder.draft = Draft::EMPTY;
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
            let draft = meta.builder.draft;
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
            meta.builder.table = meta
                .bump
                .try_alloc_slice_fill_copy(1, Ucs2Str::EMPTY)
                .map_err(|_| error_at(ErrorKind::ArenaFull(state.site()), self.cursor.pos))?;
            Step::StrLen {
                slot: Slot::TablePart(0),
            }
        })
    }

    /// All columns are read: they become the current result set.
    fn finish_columns(&mut self, meta: &mut Metadata<'_>) -> Out<'static> {
        let columns = core::mem::take(&mut meta.builder.building);
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
    use crate::tds::{CodePage, Event, TdsVersion, Token};
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
