use core::fmt;

/// What was wrong with an actor path, an address or an actor name.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// No `scheme:` prefix (Akka.NET wants the `:` at byte 4 to 255).
    MissingScheme,
    /// The scheme has a character that RFC 2396 does not allow there.
    InvalidScheme,
    /// The protocol does not start with `akka` (Akka.NET only).
    UnsupportedProtocol,
    /// The scheme is not followed by `//`.
    MissingSlashes,
    /// The authority names no actor system.
    MissingSystem,
    /// A character that is not allowed in this part of the URI.
    InvalidCharacter,
    /// A `%` that is not followed by two hex digits.
    InvalidEscape,
    /// The host is not a valid host name, IPv4 or bracketed IPv6 literal.
    InvalidHost,
    /// `system@host` without the `:port` that remote addresses need.
    MissingPort,
    /// A port on a local address, which has no host (Akka JVM only).
    UnexpectedPort,
    /// The port is not a decimal number.
    InvalidPort,
    /// The port does not fit in a 32-bit signed integer, or is negative.
    PortOutOfRange,
    /// The text after `#` is not a decimal number.
    InvalidUid,
    /// The uid does not fit in a 32-bit signed integer.
    UidOutOfRange,
    /// A null actor name, from a binding whose strings can be null.
    NullName,
    /// An empty actor name.
    EmptyName,
    /// An actor name that starts with `$`, which is reserved for system actors.
    LeadingDollar,
    /// A character that actor names may not contain.
    IllegalNameCharacter,
    /// A child name that contains `/` or `#` (Akka JVM only).
    NameHasSeparator,
    /// A uid given to a root path, which cannot have one.
    UidOnRoot,
    /// The arena could not allocate a path node.
    ArenaFull,
}

impl ErrorKind {
    /// A fixed description of the defect.
    pub const fn description(self) -> &'static str {
        match self {
            ErrorKind::MissingScheme => "missing `scheme:` prefix",
            ErrorKind::InvalidScheme => "invalid character in scheme",
            ErrorKind::UnsupportedProtocol => "protocol must start with `akka`",
            ErrorKind::MissingSlashes => "expected `//` after the scheme",
            ErrorKind::MissingSystem => "missing actor system name",
            ErrorKind::InvalidCharacter => "character not allowed here",
            ErrorKind::InvalidEscape => "`%` must be followed by two hex digits",
            ErrorKind::InvalidHost => "invalid host",
            ErrorKind::MissingPort => "remote address needs `host:port`",
            ErrorKind::UnexpectedPort => "local address may not have a port",
            ErrorKind::InvalidPort => "port is not a number",
            ErrorKind::PortOutOfRange => "port out of range",
            ErrorKind::InvalidUid => "uid is not a number",
            ErrorKind::UidOutOfRange => "uid out of range",
            ErrorKind::NullName => "actor name must not be null",
            ErrorKind::EmptyName => "actor name must not be empty",
            ErrorKind::LeadingDollar => "actor name must not start with `$`",
            ErrorKind::IllegalNameCharacter => "illegal character in actor name",
            ErrorKind::NameHasSeparator => "actor name must not contain `/` or `#`",
            ErrorKind::UidOnRoot => "a root path has no uid",
            ErrorKind::ArenaFull => "arena allocation failed",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.description())
    }
}

/// An error from the actor-path parsers: what was wrong, and the byte offset
/// in the input where it was found.
///
/// ```
/// use leanwire_core::actor::{ActorPath, Dialect, ErrorKind};
///
/// let err = ActorPath::parse("akka://sys@host/a", Dialect::DotNet).unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::MissingPort);
/// assert_eq!(err.offset(), 15);
/// assert_eq!(err.to_string(), "remote address needs `host:port` at byte 15");
/// ```
pub type Error = crate::error::Error<ErrorKind>;
