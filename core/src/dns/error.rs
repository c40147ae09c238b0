use core::fmt;

/// What was wrong with a DNS message, or why one could not be built.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The message ends in the middle of a field.
    ShortInput,
    /// Bytes are left over after the last record the header counts.
    TrailingData,
    /// A record's RDLENGTH runs past the end of the message.
    RdataOverrun,
    /// RDATA that is too short, too long or malformed for its type.
    InvalidRdata,
    /// A compression pointer that does not point backwards, before the name it is part of.
    ForwardPointer,
    /// A compression pointer that leads back into the same name.
    PointerLoop,
    /// A label whose type bits are `01` or `10` (RFC 6891 §5 retired them).
    ReservedLabelType,
    /// A name longer than 255 octets (RFC 1035 §2.3.4).
    NameTooLong,
    /// A label longer than 63 octets, in a name being built.
    LabelTooLong,
    /// An empty label inside a name being built (`a..b`).
    EmptyLabel,
    /// A presentation-format escape that is not `\X` or `\DDD` with DDD ≤ 255.
    InvalidEscape,
    /// A compression pointer in RDATA whose type may not be compressed.
    UnexpectedPointer,
    /// More than one OPT record, or an OPT record that is not owned by the root.
    InvalidOpt,
    /// SVCB parameters whose keys are not in strictly ascending order (RFC 9460 §2.2).
    SvcbKeyOrder,
    /// A SVCB parameter value of the wrong length or form for its key.
    SvcbInvalidValue,
    /// A `mandatory` list that is empty, unsorted, names itself, or names a key that is absent.
    SvcbMandatory,
    /// SVCB `no-default-alpn` without `alpn` (RFC 9460 §7.1.1).
    SvcbAlpnMissing,
    /// SVCB parameters on a record in AliasMode (priority 0).
    SvcbAliasParams,
    /// The output buffer is full (the message would be truncated).
    Truncated,
    /// A count would not fit in the header's 16 bits.
    TooManyRecords,
    /// A question or record pushed into a section the builder has moved past.
    SectionOrder,
}

impl ErrorKind {
    /// A fixed description of the defect.
    pub const fn description(self) -> &'static str {
        match self {
            ErrorKind::ShortInput => "message ends inside a field",
            ErrorKind::TrailingData => "bytes after the last record",
            ErrorKind::RdataOverrun => "RDLENGTH runs past the end of the message",
            ErrorKind::InvalidRdata => "malformed RDATA",
            ErrorKind::ForwardPointer => "compression pointer does not point backwards",
            ErrorKind::PointerLoop => "compression pointer loop",
            ErrorKind::ReservedLabelType => "reserved label type",
            ErrorKind::NameTooLong => "name longer than 255 octets",
            ErrorKind::LabelTooLong => "label longer than 63 octets",
            ErrorKind::EmptyLabel => "empty label",
            ErrorKind::InvalidEscape => "invalid escape",
            ErrorKind::UnexpectedPointer => "compression pointer where none is allowed",
            ErrorKind::InvalidOpt => "misplaced or repeated OPT record",
            ErrorKind::SvcbKeyOrder => "SVCB keys out of order or repeated",
            ErrorKind::SvcbInvalidValue => "invalid SVCB parameter value",
            ErrorKind::SvcbMandatory => "invalid SVCB mandatory list",
            ErrorKind::SvcbAlpnMissing => "SVCB no-default-alpn without alpn",
            ErrorKind::SvcbAliasParams => "SVCB parameters in AliasMode",
            ErrorKind::Truncated => "output buffer full",
            ErrorKind::TooManyRecords => "more than 65535 records in a section",
            ErrorKind::SectionOrder => "sections must be written in order",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.description())
    }
}

/// An error from the DNS codec: what was wrong, and the byte offset in the
/// message (or, for text input, in the text) where it was found.
///
/// ```
/// use leanwire_core::dns::{ErrorKind, Message};
///
/// // A header that promises one question, and then nothing.
/// let err = Message::parse(&[0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0]).unwrap_err();
/// assert_eq!((err.kind(), err.offset()), (ErrorKind::ShortInput, 12));
/// assert_eq!(err.to_string(), "message ends inside a field at byte 12");
/// ```
pub type Error = crate::error::Error<ErrorKind>;

/// Shorthand for the codec's results.
pub type Result<T> = core::result::Result<T, Error>;
