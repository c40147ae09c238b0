use core::fmt;

use super::dialect::Dialect;
use super::error::{Error, ErrorKind};
use super::number::{NumberError, parse_i32};
use super::scan::find;

const DOTNET: u8 = 1;
const JVM: u8 = 2;
const HEX: u8 = 4;

/// Akka.NET's `ActorPath.ValidSymbols`. Unlike the JVM's it has `"`, `(` and `)`.
pub const DOTNET_VALID_SYMBOLS: &str = "\"-_.*$+:@&=,!~';()";
/// Akka JVM's `ActorPath.ValidSymbols`.
pub const JVM_VALID_SYMBOLS: &str = "-_.*$+:@&=,!~';";

const fn element_classes() -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        if c.is_ascii_alphanumeric() {
            t[b] = DOTNET | JVM;
        }
        if c.is_ascii_hexdigit() {
            t[b] |= HEX;
        }
        b += 1;
    }
    let mut i = 0;
    while i < DOTNET_VALID_SYMBOLS.len() {
        t[DOTNET_VALID_SYMBOLS.as_bytes()[i] as usize] |= DOTNET;
        i += 1;
    }
    let mut i = 0;
    while i < JVM_VALID_SYMBOLS.len() {
        t[JVM_VALID_SYMBOLS.as_bytes()[i] as usize] |= JVM;
        i += 1;
    }
    t
}

/// One entry per byte: may it appear in a path element, and is it a hex digit.
static ELEMENT_CLASSES: [u8; 256] = element_classes();

/// Checks an actor name or path element the way `ActorPath.IsValidPathElement` does.
///
/// A valid element is not empty, does not start with `$`, and holds only ASCII
/// letters, digits, the dialect's valid symbols and `%XX` escapes. The error
/// gives the offset of the first byte that breaks the rule.
///
/// ```
/// use leanwire_core::actor::{validate_path_element, Dialect, ErrorKind};
///
/// assert!(validate_path_element("reliable%3a%2fx-1", Dialect::DotNet).is_ok());
/// let err = validate_path_element("a%2g", Dialect::DotNet).unwrap_err();
/// assert_eq!((err.kind(), err.offset()), (ErrorKind::IllegalNameCharacter, 1));
/// ```
pub fn validate_path_element(name: &str, dialect: Dialect) -> Result<(), Error> {
    let valid = match dialect {
        Dialect::DotNet => DOTNET,
        Dialect::Jvm => JVM,
    };
    let bytes = name.as_bytes();
    match bytes.first() {
        None => return Err(Error::new(ErrorKind::EmptyName, 0)),
        Some(b'$') => return Err(Error::new(ErrorKind::LeadingDollar, 0)),
        Some(_) => {}
    }
    let class = |i: usize| bytes.get(i).map_or(0, |&b| ELEMENT_CLASSES[b as usize]);
    let mut i = 0;
    while i < bytes.len() {
        if class(i) & valid != 0 {
            i += 1;
        } else if bytes[i] == b'%' && class(i + 1) & class(i + 2) & HEX != 0 {
            i += 3;
        } else {
            return Err(Error::new(ErrorKind::IllegalNameCharacter, i));
        }
    }
    Ok(())
}

/// Whether `name` is a valid path element; see [`validate_path_element`].
pub fn is_valid_path_element(name: &str, dialect: Dialect) -> bool {
    validate_path_element(name, dialect).is_ok()
}

/// Checks a name given to `ActorOf`, with the error Akka would raise.
///
/// ```
/// use leanwire_core::actor::{check_actor_name, Dialect};
///
/// let err = check_actor_name("hell>o", Dialect::Jvm).unwrap_err();
/// assert!(err.to_string().contains("illegal character [>] at position: 4"));
/// ```
pub fn check_actor_name(name: &str, dialect: Dialect) -> Result<(), InvalidActorName<'_>> {
    validate_path_element(name, dialect).map_err(|error| InvalidActorName {
        name: Some(name),
        dialect,
        error,
    })
}

/// An actor name that Akka would refuse, printed with Akka's own message
/// (`InvalidActorNameException`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct InvalidActorName<'a> {
    name: Option<&'a str>,
    dialect: Dialect,
    error: Error,
}

impl<'a> InvalidActorName<'a> {
    /// The error for a null name, for bindings whose strings can be null.
    pub const fn null(dialect: Dialect) -> Self {
        InvalidActorName {
            name: None,
            dialect,
            error: Error::new(ErrorKind::NullName, 0),
        }
    }

    /// The name that was refused; `None` for a null name.
    pub const fn name(&self) -> Option<&'a str> {
        self.name
    }

    /// What was wrong, and where in the name.
    pub const fn error(&self) -> Error {
        self.error
    }
}

impl fmt::Display for InvalidActorName<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = self.name.unwrap_or("");
        match (self.dialect, self.error.kind()) {
            (Dialect::DotNet, ErrorKind::NullName) => f.write_str("Actor name must not be null."),
            (Dialect::DotNet, ErrorKind::EmptyName) => f.write_str("Actor name must not be empty."),
            (Dialect::DotNet, _) => write!(
                f,
                "Illegal actor name [{name}]. Actor paths MUST: not start with `$`, not be empty, \
                 and only contain ASCII letters, digits and these special characters: \
                 `{DOTNET_VALID_SYMBOLS}`"
            ),
            (Dialect::Jvm, ErrorKind::NullName) => f.write_str("actor name must not be null"),
            (Dialect::Jvm, ErrorKind::EmptyName) => f.write_str("actor name must not be empty"),
            (Dialect::Jvm, _) => {
                let at = self.error.offset();
                let bad = name[at..].chars().next().unwrap_or('?');
                // Java counts positions in UTF-16 code units.
                let position: usize = name[..at].chars().map(char::len_utf16).sum();
                write!(
                    f,
                    "Invalid actor path element [{name}], illegal character [{bad}] at position: \
                     {position}. Actor paths MUST: not start with `$`, include only ASCII letters \
                     and can only contain these special characters: {JVM_VALID_SYMBOLS}."
                )
            }
        }
    }
}

impl core::error::Error for InvalidActorName<'_> {}

/// Splits `name#uid` into the name and its uid, as `ActorCell.GetNameAndUid`
/// (Akka.NET) and `splitNameAndUid` (Akka JVM) do.
///
/// The name is the text before the first `#`. A uid of 0 is Akka's "undefined"
/// uid and comes back as `None`, as does a name with no `#`.
///
/// ```
/// use leanwire_core::actor::{split_name_and_uid, Dialect};
///
/// assert_eq!(split_name_and_uid("foo#11241311", Dialect::DotNet), Ok(("foo", Some(11241311))));
/// assert_eq!(split_name_and_uid("foo", Dialect::DotNet), Ok(("foo", None)));
/// assert!(split_name_and_uid("foo#bar", Dialect::DotNet).is_err());
/// ```
#[inline]
pub fn split_name_and_uid(name: &str, dialect: Dialect) -> Result<(&str, Option<i32>), Error> {
    let Some(hash) = find(name, b'#') else {
        return Ok((name, None));
    };
    let uid = parse_uid(&name.as_bytes()[hash + 1..], dialect).map_err(|e| e.shifted(hash + 1))?;
    Ok((&name[..hash], uid))
}

/// Reads the text after `#`: an `i32`, where 0 means "undefined".
///
/// Akka.NET's parser takes an optional `-`; Java's `Integer.valueOf` also takes `+`.
#[cfg_attr(not(target_family = "wasm"), inline(always))]
#[cfg_attr(target_family = "wasm", inline)]
pub(crate) fn parse_uid(text: &[u8], dialect: Dialect) -> Result<Option<i32>, Error> {
    match parse_i32(text, dialect == Dialect::Jvm) {
        Ok(uid) => Ok((uid != 0).then_some(uid)),
        Err(e) => Err(uid_error(e)),
    }
}

/// The error for a uid that did not parse.
#[cold]
fn uid_error(e: NumberError) -> Error {
    match e {
        NumberError::Invalid(at) => Error::new(ErrorKind::InvalidUid, at),
        NumberError::Overflow => Error::new(ErrorKind::UidOutOfRange, 0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::ToString;

    #[test]
    fn dollar_allowed_after_the_first_byte() {
        assert!(is_valid_path_element("a$", Dialect::DotNet));
        assert_eq!(
            validate_path_element("$a", Dialect::Jvm),
            Err(Error::new(ErrorKind::LeadingDollar, 0))
        );
    }

    #[test]
    fn quote_and_parentheses_differ_by_dialect() {
        for name in ["a\"b", "a(b)"] {
            assert!(is_valid_path_element(name, Dialect::DotNet));
            assert!(!is_valid_path_element(name, Dialect::Jvm));
        }
    }

    #[test]
    fn every_ascii_byte_after_a_letter_in_each_dialect() {
        // `ActorPath.ValidSymbols` of Akka.NET and of Akka JVM, written out
        // here as their sources have them.
        for (dialect, symbols) in [
            (Dialect::DotNet, "\"-_.*$+:@&=,!~';()"),
            (Dialect::Jvm, "-_.*$+:@&=,!~';"),
        ] {
            for b in 0..0x80u8 {
                let name = [b'a', b];
                let name = core::str::from_utf8(&name).unwrap();
                let valid = b.is_ascii_alphanumeric() || symbols.contains(char::from(b));
                assert_eq!(
                    validate_path_element(name, dialect),
                    if valid {
                        Ok(())
                    } else {
                        Err(Error::new(ErrorKind::IllegalNameCharacter, 1))
                    },
                    "{name:?} in {dialect:?}"
                );
            }
        }
    }

    #[test]
    fn escape_at_the_end() {
        assert!(is_valid_path_element("a%2F", Dialect::DotNet));
        assert!(!is_valid_path_element("a%2", Dialect::DotNet));
        assert!(!is_valid_path_element("a%", Dialect::DotNet));
    }

    #[test]
    fn non_ascii_is_illegal() {
        assert_eq!(
            validate_path_element("aü", Dialect::DotNet),
            Err(Error::new(ErrorKind::IllegalNameCharacter, 1))
        );
    }

    #[test]
    fn nul_is_illegal() {
        assert_eq!(
            validate_path_element("a\0", Dialect::Jvm),
            Err(Error::new(ErrorKind::IllegalNameCharacter, 1))
        );
    }

    #[test]
    fn a_refused_name_keeps_the_name_and_the_error() {
        let refused = check_actor_name("hell>o", Dialect::Jvm).unwrap_err();
        assert_eq!(refused.name(), Some("hell>o"));
        assert_eq!(
            refused.error(),
            Error::new(ErrorKind::IllegalNameCharacter, 4)
        );
        let null = InvalidActorName::null(Dialect::DotNet);
        assert_eq!(null.name(), None);
        assert_eq!(null.error(), Error::new(ErrorKind::NullName, 0));
        assert_eq!(null.to_string(), "Actor name must not be null.");
    }

    #[test]
    fn jvm_position_counts_utf16_units() {
        let err = check_actor_name("a\u{1f600}>", Dialect::Jvm).unwrap_err();
        assert!(
            err.to_string()
                .contains("illegal character [\u{1f600}] at position: 1")
        );
        let err = check_actor_name("\u{1f600}>", Dialect::Jvm).unwrap_err();
        assert!(
            err.to_string()
                .contains("illegal character [\u{1f600}] at position: 0")
        );
        let err = check_actor_name("\u{1f600}a>", Dialect::Jvm).unwrap_err();
        assert!(
            err.to_string()
                .contains("illegal character [\u{1f600}] at position: 0")
        );
    }

    #[test]
    fn uid_zero_is_undefined() {
        assert_eq!(split_name_and_uid("a#0", Dialect::DotNet), Ok(("a", None)));
    }

    #[test]
    fn uid_sign_rules() {
        assert_eq!(
            split_name_and_uid("a#-5", Dialect::DotNet),
            Ok(("a", Some(-5)))
        );
        assert_eq!(split_name_and_uid("a#+5", Dialect::Jvm), Ok(("a", Some(5))));
        assert_eq!(
            split_name_and_uid("a#+5", Dialect::DotNet),
            Err(Error::new(ErrorKind::InvalidUid, 2))
        );
    }

    #[test]
    fn uid_errors_point_into_the_name() {
        assert_eq!(
            split_name_and_uid("ab#", Dialect::DotNet),
            Err(Error::new(ErrorKind::InvalidUid, 3))
        );
        assert_eq!(
            split_name_and_uid("ab#1x", Dialect::DotNet),
            Err(Error::new(ErrorKind::InvalidUid, 4))
        );
        assert_eq!(
            split_name_and_uid("a#2147483648", Dialect::DotNet),
            Err(Error::new(ErrorKind::UidOutOfRange, 2))
        );
    }

    #[test]
    fn uid_limits_with_leading_zeros() {
        // More than ten digits: read one at a time, to the same limits.
        for (text, uid) in [
            ("a#-002147483648", Ok(("a", Some(i32::MIN)))),
            ("a#002147483647", Ok(("a", Some(i32::MAX)))),
            (
                "a#002147483648",
                Err(Error::new(ErrorKind::UidOutOfRange, 2)),
            ),
            (
                "a#-002147483649",
                Err(Error::new(ErrorKind::UidOutOfRange, 2)),
            ),
        ] {
            assert_eq!(split_name_and_uid(text, Dialect::DotNet), uid, "{text}");
        }
    }
}
