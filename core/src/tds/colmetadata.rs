//! COLMETADATA [MS-TDS 2.2.7.4]: the columns of a result set, as the
//! reader hands them out once the token is read.

use core::fmt;

use super::type_info::{DataType, TypeInfo};
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
    pub(crate) const EMPTY: Column<'static> = Column {
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
/// caller's [`Metadata`](super::Metadata).
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

#[cfg(test)]
mod tests {
    use super::*;

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
    fn each_flag_reads_its_own_bit_and_no_other() {
        // The single bits of MS-TDS 2.2.7.4, by accessor.
        type Accessor = fn(ColumnFlags) -> bool;
        let accessors: [(u16, Accessor); 10] = [
            (0x0001, ColumnFlags::nullable),
            (0x0002, ColumnFlags::case_sensitive),
            (0x0010, ColumnFlags::identity),
            (0x0020, ColumnFlags::computed),
            (0x0100, ColumnFlags::fixed_len_clr_type),
            (0x0400, ColumnFlags::sparse_column_set),
            (0x0800, ColumnFlags::encrypted),
            (0x2000, ColumnFlags::hidden),
            (0x4000, ColumnFlags::key),
            (0x8000, ColumnFlags::nullable_unknown),
        ];
        for (bit, read) in accessors {
            assert!(read(ColumnFlags(bit)), "{bit:#06x} alone");
            assert!(!read(ColumnFlags(!bit)), "every bit but {bit:#06x}");
        }
        for updateable in 0..4 {
            let flags = ColumnFlags(updateable << 2);
            assert_eq!(flags.updateable(), updateable as u8);
            assert_eq!(
                ColumnFlags(!(0x3 << 2) | flags.0).updateable(),
                updateable as u8
            );
        }
    }
}
