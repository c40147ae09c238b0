use core::cmp::Ordering;
use core::fmt;
use core::hash::{Hash, Hasher};

use super::address::Address;
use super::dialect::Dialect;
use super::element::parse_uid;
use super::error::Error;
use super::node::PathNode;
use super::scan::rfind_then_find;
use super::uri;
use super::view::PathView;

/// A parsed actor path that borrows every part from its input:
/// `akka.tcp://system@host:port/parent/child#uid`.
///
/// Parsing makes no allocation of any kind, and the elements are iterated
/// from the input on demand rather than collected. For a path that grows
/// (`child`, `parent`), build a [`PathNode`](super::PathNode) in an arena.
///
/// Equality, hashing and ordering follow Akka (see [`PathView`]): the uid is
/// ignored by all three.
///
/// ```
/// use leanwire_core::actor::{ActorPath, Dialect, PathView};
///
/// let path = ActorPath::parse("akka.tcp://system@127.0.0.1:1337/parent/child#1", Dialect::DotNet)?;
/// assert_eq!(path.address().system(), "system");
/// assert_eq!(path.address().port(), Some(1337));
/// assert!(path.elements().eq(["parent", "child"]));
/// assert_eq!(path.uid(), Some(1));
/// assert_eq!(path.to_string(), "akka.tcp://system@127.0.0.1:1337/parent/child");
/// assert_eq!(path.serialization_format().to_string(), "akka.tcp://system@127.0.0.1:1337/parent/child#1");
/// # Ok::<(), leanwire_core::actor::Error>(())
/// ```
#[derive(Copy, Clone, Debug)]
pub struct ActorPath<'a> {
    address: Address<'a>,
    /// The `/`-separated elements before the last one; empty segments are skipped.
    parents: &'a str,
    /// The last element's name, without its `#uid`.
    leaf: Option<&'a str>,
    uid: Option<i32>,
    /// The text the path was parsed from; empty for a path made from parts.
    source: &'a str,
}

impl<'a> ActorPath<'a> {
    /// Parses an absolute actor path in the given dialect.
    ///
    /// Akka.NET (`ActorPath.TryParse`) takes any text after the address: empty
    /// segments are skipped, `#` is only special in the last segment, and
    /// elements are not validated. Akka JVM (`ActorPath.fromString`) reads the
    /// input as a `java.net.URI`: the path must use URI characters, a query is
    /// dropped, and the fragment is the uid of the last element.
    pub fn parse(input: &'a str, dialect: Dialect) -> Result<Self, Error> {
        let (address, rest) = Address::split(input, dialect)?;
        let at = input.len() - rest.len();
        let path = match dialect {
            Dialect::DotNet => Self::with_dotnet_path(address, rest, input),
            Dialect::Jvm => Self::with_jvm_path(address, rest, input),
        };
        path.map_err(|e| e.shifted(at))
    }

    /// The root path of `address`.
    pub const fn root(address: Address<'a>) -> Self {
        ActorPath {
            address,
            parents: "",
            leaf: None,
            uid: None,
            source: "",
        }
    }

    /// The path `path` leads to under the root of `address`, read with
    /// Akka.NET's `ActorPath.TryParse(basePath, uri)` rules whatever the
    /// address's dialect: split on `/`, empty segments skipped, `#uid` read
    /// from the last segment only. Error offsets are relative to `path`.
    pub fn from_parts(address: Address<'a>, path: &'a str) -> Result<Self, Error> {
        Self::with_dotnet_path(address, path, "")
    }

    /// Akka.NET's path rules (see [`ActorPath::from_parts`]), for a path
    /// read from `source`.
    fn with_dotnet_path(
        address: Address<'a>,
        path: &'a str,
        source: &'a str,
    ) -> Result<Self, Error> {
        let (last_slash, hash) = rfind_then_find(path, b'/', b'#');
        let last_at = last_slash.map_or(0, |i| i + 1);
        let parents = &path[..last_slash.unwrap_or(0)];
        if last_at == path.len() {
            return Ok(ActorPath {
                address,
                parents,
                leaf: None,
                uid: None,
                source,
            });
        }
        let (leaf, uid) = match hash {
            None => (&path[last_at..], None),
            Some(hash) => {
                let uid_at = hash + 1;
                (
                    &path[last_at..hash],
                    parse_uid(&path.as_bytes()[uid_at..], Dialect::DotNet)
                        .map_err(|e| e.shifted(uid_at))?,
                )
            }
        };
        Ok(ActorPath {
            address,
            parents,
            leaf: Some(leaf),
            uid,
            source,
        })
    }

    /// Akka JVM's path, query and fragment rules from `java.net.URI`, for
    /// the rest of `source` after its address.
    fn with_jvm_path(address: Address<'a>, rest: &'a str, source: &'a str) -> Result<Self, Error> {
        let path_end = rest.find(['?', '#']).unwrap_or(rest.len());
        let fragment_at = rest.find('#').map(|i| i + 1);
        let path = &rest[..path_end];
        uri::check(path, uri::PATH)?;
        let query_end = fragment_at.map_or(rest.len(), |f| f - 1);
        if path_end < query_end {
            uri::check(&rest[path_end + 1..query_end], uri::URIC)
                .map_err(|e| e.shifted(path_end + 1))?;
        }
        if let Some(at) = fragment_at {
            uri::check(&rest[at..], uri::URIC).map_err(|e| e.shifted(at))?;
        }
        // `ActorPath.split` drops everything before the first `/`, and with it
        // the fragment of an empty path.
        let Some(last_slash) = path.rfind('/') else {
            return Ok(ActorPath {
                source,
                ..ActorPath::root(address)
            });
        };
        let parents = &path[..last_slash];
        let last = &path[last_slash + 1..];
        let (leaf, uid) = match fragment_at {
            Some(at) => (
                Some(last),
                parse_uid(&rest.as_bytes()[at..], Dialect::Jvm).map_err(|e| e.shifted(at))?,
            ),
            None => ((!last.is_empty()).then_some(last), None),
        };
        Ok(ActorPath {
            address,
            parents,
            leaf,
            uid,
            source,
        })
    }

    /// The elements after `root`: [`PathView::elements`] as an inherent method,
    /// so that callers need not import the trait.
    pub fn elements(&self) -> Elements<'a> {
        Elements {
            parents: self.parents,
            leaf: self.leaf,
        }
    }

    /// The path's address.
    pub const fn address(&self) -> Address<'a> {
        self.address
    }

    /// The uid of the last element; `None` when undefined (0) or for a root.
    pub const fn uid(&self) -> Option<i32> {
        self.uid
    }
}

impl<'a> PathView<'a> for ActorPath<'a> {
    type Elements<'s>
        = Elements<'a>
    where
        Self: 's;

    fn address(&self) -> Address<'a> {
        self.address
    }

    fn elements(&self) -> Elements<'a> {
        ActorPath::elements(self)
    }

    fn uid(&self) -> Option<i32> {
        self.uid
    }
}

/// The element names of an [`ActorPath`], root first.
#[derive(Clone, Debug)]
pub struct Elements<'a> {
    /// The `/`-separated elements not yet taken, before the leaf.
    parents: &'a str,
    leaf: Option<&'a str>,
}

impl<'a> Iterator for Elements<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        self.take_first_parent().or_else(|| self.leaf.take())
    }
}

impl DoubleEndedIterator for Elements<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.leaf.take().or_else(|| self.take_last_parent())
    }
}

impl<'a> Elements<'a> {
    /// Takes the first non-empty `/`-separated segment of the parents.
    #[inline]
    fn take_first_parent(&mut self) -> Option<&'a str> {
        let bytes = self.parents.as_bytes();
        let Some(start) = bytes.iter().position(|&b| b != b'/') else {
            self.parents = "";
            return None;
        };
        let len = bytes[start..]
            .iter()
            .position(|&b| b == b'/')
            .unwrap_or(bytes.len() - start);
        let (segment, rest) = self.parents[start..].split_at(len);
        self.parents = rest;
        Some(segment)
    }

    /// Takes the last non-empty `/`-separated segment of the parents.
    fn take_last_parent(&mut self) -> Option<&'a str> {
        let bytes = self.parents.as_bytes();
        let Some(last) = bytes.iter().rposition(|&b| b != b'/') else {
            self.parents = "";
            return None;
        };
        let start = bytes[..last]
            .iter()
            .rposition(|&b| b == b'/')
            .map_or(0, |slash| slash + 1);
        let (rest, segment) = self.parents[..=last].split_at(start);
        self.parents = rest;
        Some(segment)
    }
}

impl fmt::Display for ActorPath<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.with_address(&self.address), f)
    }
}

impl PartialEq for ActorPath<'_> {
    fn eq(&self, other: &Self) -> bool {
        // The same text read in the same dialect is the same path.
        if !self.source.is_empty()
            && self.source == other.source
            && self.address.dialect() == other.address.dialect()
        {
            return true;
        }
        // Equal text is equal elements; only differing text needs the walk,
        // since empty segments may make different text name the same path.
        self.address == other.address
            && ((self.parents == other.parents && self.leaf == other.leaf)
                || self.elements().eq(other.elements()))
    }
}

impl<'b> PartialEq<PathNode<'b>> for ActorPath<'_> {
    fn eq(&self, other: &PathNode<'b>) -> bool {
        self.path_eq(other)
    }
}

impl Eq for ActorPath<'_> {}

impl Hash for ActorPath<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.path_hash(state);
    }
}

impl PartialOrd for ActorPath<'_> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for ActorPath<'_> {
    fn cmp(&self, other: &Self) -> Ordering {
        self.path_cmp(other)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::actor::ErrorKind;
    use std::string::ToString;

    fn dotnet(s: &str) -> ActorPath<'_> {
        ActorPath::parse(s, Dialect::DotNet).unwrap()
    }

    fn jvm(s: &str) -> Result<ActorPath<'_>, Error> {
        ActorPath::parse(s, Dialect::Jvm)
    }

    #[test]
    fn empty_segments_are_skipped() {
        assert!(dotnet("akka://s//a///b/").elements().eq(["a", "b"]));
    }

    #[test]
    fn elements_from_either_end_are_the_non_empty_segments() {
        for path in [
            "",
            "/",
            "//",
            "/a",
            "a",
            "/ü/",
            "//ü//é/x",
            "/a//bc///d/",
            "/é",
            "ü/",
        ] {
            let expected: std::vec::Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
            let elements = Elements {
                parents: path,
                leaf: None,
            };
            assert!(elements.clone().eq(expected.iter().copied()), "{path:?}");
            assert!(
                elements.rev().eq(expected.iter().rev().copied()),
                "{path:?}"
            );
        }
    }

    #[test]
    fn hash_inside_a_parent_is_part_of_its_name() {
        let p = dotnet("akka://s/a#1/b");
        assert!(p.elements().eq(["a#1", "b"]));
        assert_eq!(p.uid(), None);
        assert_eq!(
            jvm("akka://s/a#1/b").unwrap_err().kind(),
            ErrorKind::InvalidUid
        );
    }

    #[test]
    fn uid_on_an_empty_last_segment_names_an_empty_child() {
        let p = dotnet("akka://s/a/#5");
        assert!(p.elements().eq(["a", ""]));
        assert_eq!(p.uid(), Some(5));
        assert!(jvm("akka://s/a/#5").unwrap().elements().eq(["a", ""]));
    }

    #[test]
    fn elements_run_backwards() {
        assert!(
            dotnet("akka://s/a/b/c#1")
                .elements()
                .rev()
                .eq(["c", "b", "a"])
        );
    }

    #[test]
    fn elements_meet_from_both_ends_over_empty_segments() {
        let p = dotnet("akka://s//a///b/c/#1");
        let mut elements = p.elements();
        assert_eq!(elements.next(), Some("a"));
        assert_eq!(elements.next_back(), Some(""));
        assert_eq!(elements.next_back(), Some("c"));
        assert_eq!(elements.next(), Some("b"));
        assert_eq!((elements.next(), elements.next_back()), (None, None));
    }

    #[test]
    fn root_prints_a_slash() {
        let p = dotnet("akka://s");
        assert!(p.is_root());
        assert_eq!(p.to_string(), "akka://s/");
        assert_eq!(p.without_address().to_string(), "/");
    }

    #[test]
    fn bad_uid_is_an_error_with_its_offset() {
        let err = ActorPath::parse("akka://s/a#x", Dialect::DotNet).unwrap_err();
        assert_eq!((err.kind(), err.offset()), (ErrorKind::InvalidUid, 11));
        let err = ActorPath::parse("akka://s/a#", Dialect::DotNet).unwrap_err();
        assert_eq!((err.kind(), err.offset()), (ErrorKind::InvalidUid, 11));
    }

    #[test]
    fn jvm_query_is_dropped() {
        let p = jvm("akka://s/a/b?x=1#3").unwrap();
        assert!(p.elements().eq(["a", "b"]));
        assert_eq!(p.uid(), Some(3));
    }

    #[test]
    fn jvm_fragment_of_an_empty_path_is_dropped() {
        assert!(jvm("akka://s#zz").unwrap().is_root());
    }

    #[test]
    fn jvm_rejects_space_in_path() {
        let err = jvm("akka://s/a b").unwrap_err();
        assert_eq!(
            (err.kind(), err.offset()),
            (ErrorKind::InvalidCharacter, 10)
        );
    }

    #[test]
    fn jvm_checks_the_query_and_the_fragment_where_they_are() {
        // A query or fragment is dropped, but java.net.URI reads it first.
        for (text, kind, offset) in [
            ("akka://s/a?x y#3", ErrorKind::InvalidCharacter, 12),
            ("akka://s/a?x%zz", ErrorKind::InvalidEscape, 12),
            ("akka://s/a?x#3 ", ErrorKind::InvalidCharacter, 14),
            ("akka://s/a#%1", ErrorKind::InvalidEscape, 11),
        ] {
            let err = jvm(text).unwrap_err();
            assert_eq!((err.kind(), err.offset()), (kind, offset), "{text}");
        }
        // `?`, `/` and escapes are URI characters in a query.
        let p = jvm("akka://s/a?x=/b?c%2F#3").unwrap();
        assert!(p.elements().eq(["a"]));
        assert_eq!(p.uid(), Some(3));
    }

    #[test]
    fn different_text_can_name_one_path() {
        let plain = dotnet("akka://s/a/b");
        for same in ["akka://s//a///b/", "akka://s/a/b#7", "akka://s/a/b/"] {
            assert_eq!(dotnet(same), plain, "{same}");
        }
        assert_ne!(dotnet("akka://s/a/b/c"), plain);
        // Paths made from parts keep no text: their elements decide.
        let address = plain.address();
        let a = ActorPath::from_parts(address, "/a/b").unwrap();
        let b = ActorPath::from_parts(address, "/a/c").unwrap();
        assert_ne!(a, b);
        assert_eq!(a, ActorPath::from_parts(address, "//a/b/").unwrap());
    }

    #[test]
    fn a_path_equals_the_node_of_its_elements_only() {
        let bump = bumpalo::Bump::new();
        let path = dotnet("akka://s/a/b");
        let node = PathNode::parse(&bump, "akka://s//a/b#3", Dialect::DotNet).unwrap();
        assert!(path == *node);
        let other = PathNode::parse(&bump, "akka://s/a/c", Dialect::DotNet).unwrap();
        assert!(path != *other);
    }

    #[test]
    fn equal_paths_hash_alike_and_others_do_not() {
        use std::hash::BuildHasher;
        let hasher = std::hash::RandomState::new();
        let hash = |path: &ActorPath<'_>| hasher.hash_one(path);
        let plain = dotnet("akka://s/a/b");
        assert_eq!(hash(&dotnet("akka://s//a/b#7")), hash(&plain));
        assert_ne!(hash(&dotnet("akka://s/a/b/#7")), hash(&plain));
        for other in ["akka://s/a/c", "akka://s/ab", "akka://t/a/b", "akka://s/a"] {
            assert_ne!(hash(&dotnet(other)), hash(&plain), "{other}");
        }
    }

    #[test]
    fn equality_ignores_uid() {
        assert_eq!(dotnet("akka://s/a#1"), dotnet("akka://s/a#2"));
        assert_ne!(dotnet("akka://s/a"), dotnet("akka://s/b"));
        assert_ne!(dotnet("akka://s/a"), dotnet("akka://t/a"));
    }

    #[test]
    fn equal_text_compares_as_the_walk_does() {
        for text in [
            "akka.tcp://Sys@Host.Example.COM:2552/user/a#7",
            "akka://s//a///b/",
            "akka://S",
            "akka://s/a%20b?q=1#3",
        ] {
            // Two paths parsed from one text, compared by their text.
            for dialect in [Dialect::DotNet, Dialect::Jvm] {
                if let Ok(path) = ActorPath::parse(text, dialect) {
                    assert_eq!(path, ActorPath::parse(text, dialect).unwrap(), "{text}");
                }
            }
            // `from_parts` keeps no text (and reads as Akka.NET does), so
            // this pair is compared field by field.
            let path = dotnet(text);
            let rest = &text[path.address().to_string().len()..];
            let rebuilt = ActorPath::from_parts(path.address(), rest).unwrap();
            assert_eq!(path, rebuilt, "{text}");
        }
        // The same text in two dialects is one path only if the walk says so:
        // Akka.NET lowercases the host, Akka JVM does not.
        let text = "akka://sys@HOST:1/a";
        let (net, jvm) = (dotnet(text), jvm(text).unwrap());
        assert_ne!(net, jvm);
        assert_eq!(net, dotnet("akka://sys@host:1/a"));
    }

    #[test]
    fn ordering_compares_from_the_leaf() {
        // "b" < "c" decides although "z" > "a".
        assert!(dotnet("akka://s/z/b") < dotnet("akka://s/a/c"));
        // The path that reaches its root first is greater.
        assert!(dotnet("akka://s/a/b") < dotnet("akka://s/b"));
        assert!(dotnet("akka://s/a") < dotnet("akka://s"));
        // Roots compare as printed: '.' sorts before ':'.
        assert!(dotnet("akka.tcp://s") < dotnet("akka://s"));
    }
}
