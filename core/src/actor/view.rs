use core::cmp::Ordering;
use core::fmt;
use core::hash::Hasher;

use super::address::Address;
use super::folded::cmp_utf16;
use super::number::Decimal;

/// What both actor-path types share: an address, the element names from the
/// root down, and the uid of the last element. The printing forms, equality
/// and ordering are built on these, so [`ActorPath`](super::ActorPath) views
/// and arena-built [`PathNode`](super::PathNode)s compare with each other.
///
/// Formatting never allocates: every printing form is a [`Formatted`] value
/// that writes into any [`fmt::Write`].
///
/// ```
/// use core::fmt::Write;
/// use leanwire_core::actor::{ActorPath, Address, Dialect, PathView};
///
/// let path = ActorPath::parse("akka://sys/user/a#7", Dialect::DotNet)?;
/// let remote = Address::new(Dialect::DotNet, "akka.tcp", "sys", Some("h"), Some(1));
/// let mut out = String::new();
/// write!(out, "{}", path.serialization_format_with_address(&remote)).unwrap();
/// assert_eq!(out, "akka.tcp://sys@h:1/user/a#7");
/// assert_eq!(path.without_address().to_string(), "/user/a");
/// # Ok::<(), leanwire_core::actor::Error>(())
/// ```
pub trait PathView<'a> {
    /// The iterator over element names, root first.
    type Elements<'s>: DoubleEndedIterator<Item = &'a str> + Clone
    where
        Self: 's;

    /// The address of the path's root.
    fn address(&self) -> Address<'a>;

    /// The element names from the root down; empty for a root path.
    fn elements(&self) -> Self::Elements<'_>;

    /// The uid of the last element; `None` when it is undefined (0) and for a root.
    fn uid(&self) -> Option<i32>;

    /// How many elements the path has; 0 for a root.
    fn depth(&self) -> usize {
        self.elements().count()
    }

    /// Whether the path has no elements.
    fn is_root(&self) -> bool {
        self.elements().next().is_none()
    }

    /// The last element's name, or `""` for a root.
    fn name(&self) -> &'a str {
        self.elements().next_back().unwrap_or("")
    }

    /// The elements, the last one printed with `#uid` when it has a uid
    /// (`ElementsWithUid`).
    fn elements_with_uid(&self) -> ElementsWithUid<'a, Self::Elements<'_>> {
        let depth = self.depth();
        ElementsWithUid {
            inner: self.elements().enumerate(),
            depth,
            uid: self.uid(),
        }
    }

    /// `/a/b`: the path without its address (`ToStringWithoutAddress`).
    fn without_address(&self) -> Formatted<'a, Self::Elements<'_>> {
        Formatted {
            address: None,
            elements: self.elements(),
            uid: None,
        }
    }

    /// The path with `address` instead of its own, unless its own is fully
    /// qualified (`ToStringWithAddress`); see [`Address::is_fully_qualified`].
    fn with_address(&self, address: &Address<'a>) -> Formatted<'a, Self::Elements<'_>> {
        Formatted {
            address: Some(self.address_or(address)),
            elements: self.elements(),
            uid: None,
        }
    }

    /// The path with its uid: `akka://sys/a#17` (`ToSerializationFormat`).
    fn serialization_format(&self) -> Formatted<'a, Self::Elements<'_>> {
        Formatted {
            address: Some(self.address()),
            elements: self.elements(),
            uid: self.uid(),
        }
    }

    /// [`with_address`](Self::with_address) with the uid
    /// (`ToSerializationFormatWithAddress`).
    fn serialization_format_with_address(
        &self,
        address: &Address<'a>,
    ) -> Formatted<'a, Self::Elements<'_>> {
        Formatted {
            address: Some(self.address_or(address)),
            elements: self.elements(),
            uid: self.uid(),
        }
    }

    /// This path's address if it is fully qualified, else `fallback`.
    #[doc(hidden)]
    fn address_or(&self, fallback: &Address<'a>) -> Address<'a> {
        let own = self.address();
        if own.is_fully_qualified() {
            own
        } else {
            *fallback
        }
    }

    /// Akka's `Equals`: the same address and the same names. The uid is ignored.
    fn path_eq<'b, P: PathView<'b> + ?Sized>(&self, other: &P) -> bool {
        self.address() == other.address() && self.elements().eq(other.elements())
    }

    /// Akka's `CompareTo`. Names are compared ordinally from the leaf upward and
    /// the first difference decides; a path that reaches its root first is the
    /// greater one; two roots compare as their printed addresses. Paths that
    /// Akka ranks equal but that are not [`path_eq`](Self::path_eq) are ordered
    /// by address fields, so the order stays consistent with equality.
    fn path_cmp<'b, P: PathView<'b> + ?Sized>(&self, other: &P) -> Ordering {
        let (mut left, mut right) = (self.elements(), other.elements());
        loop {
            match (left.next_back(), right.next_back()) {
                (Some(a), Some(b)) => match cmp_utf16(a, b) {
                    Ordering::Equal => {}
                    unequal => return unequal,
                },
                (None, Some(_)) => return Ordering::Greater,
                (Some(_), None) => return Ordering::Less,
                (None, None) => break,
            }
        }
        let (a, b) = (self.address(), other.address());
        a.cmp_printed(&b).then_with(|| a.cmp(&b))
    }

    /// Feeds what [`path_eq`](Self::path_eq) compares to `state`.
    fn path_hash<H: Hasher>(&self, state: &mut H) {
        core::hash::Hash::hash(&self.address(), state);
        for name in self.elements() {
            state.write(name.as_bytes());
            state.write_u8(0xff);
        }
    }

    /// [`without_address`](Self::without_address) as a `String`.
    #[cfg(feature = "alloc")]
    fn to_string_without_address(&self) -> alloc::string::String {
        alloc::string::ToString::to_string(&self.without_address())
    }

    /// [`with_address`](Self::with_address) as a `String`.
    #[cfg(feature = "alloc")]
    fn to_string_with_address(&self, address: &Address<'a>) -> alloc::string::String {
        alloc::string::ToString::to_string(&self.with_address(address))
    }

    /// [`serialization_format`](Self::serialization_format) as a `String`.
    #[cfg(feature = "alloc")]
    fn to_serialization_format(&self) -> alloc::string::String {
        alloc::string::ToString::to_string(&self.serialization_format())
    }
}

/// A printing form of an actor path: `[address]/a/b[#uid]`.
///
/// A root prints as `address/`, or `/` without its address.
#[derive(Clone, Debug)]
pub struct Formatted<'a, E> {
    address: Option<Address<'a>>,
    elements: E,
    uid: Option<i32>,
}

impl<'a, E: Iterator<Item = &'a str> + Clone> fmt::Display for Formatted<'a, E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(address) = &self.address {
            fmt::Display::fmt(address, f)?;
        }
        let mut elements = self.elements.clone().peekable();
        if elements.peek().is_none() {
            return f.write_str("/");
        }
        for name in elements {
            f.write_str("/")?;
            f.write_str(name)?;
        }
        write_uid(f, self.uid)
    }
}

/// The elements of a path with `#uid` on the last one; see
/// [`PathView::elements_with_uid`].
#[derive(Clone, Debug)]
pub struct ElementsWithUid<'a, E: Iterator<Item = &'a str>> {
    inner: core::iter::Enumerate<E>,
    depth: usize,
    uid: Option<i32>,
}

impl<'a, E: Iterator<Item = &'a str>> Iterator for ElementsWithUid<'a, E> {
    type Item = ElementWithUid<'a>;

    fn next(&mut self) -> Option<ElementWithUid<'a>> {
        let (i, name) = self.inner.next()?;
        let uid = if i + 1 == self.depth { self.uid } else { None };
        Some(ElementWithUid { name, uid })
    }
}

/// A path element with its uid, printed as `name` or `name#uid`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ElementWithUid<'a> {
    /// The element's name.
    pub name: &'a str,
    /// The uid, on the last element only.
    pub uid: Option<i32>,
}

impl fmt::Display for ElementWithUid<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)?;
        write_uid(f, self.uid)
    }
}

/// `#uid`, when there is one.
fn write_uid(f: &mut fmt::Formatter<'_>, uid: Option<i32>) -> fmt::Result {
    match uid {
        Some(uid) => {
            f.write_str("#")?;
            fmt::Display::fmt(&Decimal::new(uid.into()), f)
        }
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use std::string::ToString;
    use std::vec::Vec;

    use super::*;
    use crate::actor::{ActorPath, Dialect};

    fn dotnet(text: &str) -> ActorPath<'_> {
        ActorPath::parse(text, Dialect::DotNet).unwrap()
    }

    #[test]
    fn only_a_path_without_elements_is_a_root() {
        assert!(dotnet("akka://s").is_root());
        assert!(dotnet("akka://s/").is_root());
        assert!(!dotnet("akka://s/a").is_root());
        assert!(!dotnet("akka://s//a/").is_root());
    }

    #[test]
    fn the_uid_goes_on_the_last_element_only() {
        let printed = |text| {
            dotnet(text)
                .elements_with_uid()
                .map(|element| element.to_string())
                .collect::<Vec<_>>()
        };
        assert_eq!(printed("akka://s/a/b/c#-5"), ["a", "b", "c#-5"]);
        assert_eq!(printed("akka://s/a/b"), ["a", "b"]);
        assert_eq!(printed("akka://s/a#9"), ["a#9"]);
        assert!(printed("akka://s").is_empty());
        let last = dotnet("akka://s/a/b#3").elements_with_uid().last();
        assert_eq!(
            last,
            Some(ElementWithUid {
                name: "b",
                uid: Some(3)
            })
        );
    }

    #[cfg(feature = "alloc")]
    #[test]
    fn each_printing_form_as_a_string() {
        let path = dotnet("akka://s/a/b#12");
        let remote = Address::new(Dialect::DotNet, "akka.tcp", "s", Some("h"), Some(7));
        assert_eq!(path.to_string_without_address(), "/a/b");
        assert_eq!(path.to_string_with_address(&remote), "akka.tcp://s@h:7/a/b");
        assert_eq!(path.to_serialization_format(), "akka://s/a/b#12");
        assert_eq!(
            path.serialization_format_with_address(&remote).to_string(),
            "akka.tcp://s@h:7/a/b#12"
        );
        // A fully qualified address is kept, whatever is offered instead.
        let own = dotnet("akka.tcp://s@own:1/a");
        assert_eq!(own.to_string_with_address(&remote), "akka.tcp://s@own:1/a");
    }

    #[test]
    fn a_root_prints_a_slash_in_every_form() {
        let root = dotnet("akka://s");
        assert_eq!(root.serialization_format().to_string(), "akka://s/");
        assert_eq!(root.without_address().to_string(), "/");
        let remote = Address::new(Dialect::DotNet, "akka.tcp", "s", Some("h"), Some(7));
        assert_eq!(root.with_address(&remote).to_string(), "akka.tcp://s@h:7/");
    }
}
