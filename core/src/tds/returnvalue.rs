use core::fmt;

use super::colmetadata::ColumnFlags;
use super::type_info::TypeInfo;
use super::ucs2::Ucs2Str;

/// A RETURNVALUE token's header: an output parameter, or a user-defined
/// function's return value [MS-TDS 2.2.7.18].
///
/// ```text
/// ParamOrdinal u16 | ParamName B_VARCHAR | Status u8 | UserType u32 | Flags u16
/// | TYPE_INFO | Value (TYPE_VARBYTE)
/// ```
///
/// The reader reads the header into the caller's [`Metadata`](super::Metadata)
/// (its TYPE_INFO may carry names) and then delivers the value like a
/// column's, as column 0. The token has no length field, so the header
/// cannot be parsed on its own; no encoder, as a client never sends it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ReturnValue<'a> {
    /// The parameter's position.
    pub ordinal: u16,
    /// The parameter's name (`@out`), or empty.
    pub name: Ucs2Str<'a>,
    /// 0x01 = an output parameter, 0x02 = a UDF's return value.
    pub status: u8,
    /// The user type id.
    pub user_type: u32,
    /// Flags, as in COLMETADATA.
    pub flags: ColumnFlags,
    /// The value's type.
    pub type_info: TypeInfo<'a>,
}

impl fmt::Display for ReturnValue<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} {} status={}",
            self.ordinal, self.name, self.type_info, self.status
        )
    }
}
