use core::fmt;
use core::iter::Peekable;
use core::str::Split;

use super::dialect::Dialect;
use super::uri;

/// Akka's `RelativeActorPath` extractor: the elements of a path that has no
/// scheme, or `None` for an absolute URI (and, in the JVM dialect, for text
/// that `java.net.URI` refuses).
///
/// Akka.NET drops leading `/`s and keeps later empty elements; `#` has no
/// special meaning. Akka JVM splits the URI path on every `/`, keeping a
/// leading empty element, drops the query, and puts `#fragment` back on the
/// last element.
///
/// ```
/// use leanwire_core::actor::{relative_elements, Dialect};
///
/// let parts = relative_elements("/foo/bar/baz#1234", Dialect::DotNet).unwrap();
/// assert!(parts.map(|p| p.to_string()).eq(["foo", "bar", "baz#1234"]));
/// assert!(relative_elements("akka://sys/user", Dialect::DotNet).is_none());
/// ```
pub fn relative_elements(input: &str, dialect: Dialect) -> Option<RelativeElements<'_>> {
    if has_scheme(input) {
        return None;
    }
    match dialect {
        Dialect::DotNet => {
            let trimmed = input.trim_start_matches('/');
            // An empty path has no elements, not one empty element.
            let parts = (!trimmed.is_empty()).then(|| trimmed.split('/').peekable());
            Some(RelativeElements {
                parts,
                fragment: None,
            })
        }
        Dialect::Jvm => {
            let path_end = input.find(['?', '#']).unwrap_or(input.len());
            let fragment_at = input.find('#').map(|i| i + 1);
            let query_end = fragment_at.map_or(input.len(), |f| f - 1);
            let path = &input[..path_end];
            uri::check(path, uri::PATH).ok()?;
            uri::check(input.get(path_end + 1..query_end).unwrap_or(""), uri::URIC).ok()?;
            let fragment = fragment_at.map(|at| &input[at..]);
            uri::check(fragment.unwrap_or(""), uri::URIC).ok()?;
            Some(RelativeElements {
                parts: Some(path.split('/').peekable()),
                fragment,
            })
        }
    }
}

/// Whether `input` starts with `scheme:`, which makes it an absolute URI.
fn has_scheme(input: &str) -> bool {
    let bytes = input.as_bytes();
    let Some(colon) = bytes.iter().position(|&b| !uri::is(uri::SCHEME, b)) else {
        return false;
    };
    colon > 0 && bytes[0].is_ascii_alphabetic() && bytes[colon] == b':'
}

/// The elements of a relative path; see [`relative_elements`].
#[derive(Clone, Debug)]
pub struct RelativeElements<'a> {
    parts: Option<Peekable<Split<'a, char>>>,
    fragment: Option<&'a str>,
}

impl<'a> Iterator for RelativeElements<'a> {
    type Item = RelativeElement<'a>;

    fn next(&mut self) -> Option<RelativeElement<'a>> {
        let parts = self.parts.as_mut()?;
        let name = parts.next()?;
        let fragment = if parts.peek().is_none() {
            self.fragment
        } else {
            None
        };
        Some(RelativeElement { name, fragment })
    }
}

/// One element of a relative path, printed as `name` or `name#fragment`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RelativeElement<'a> {
    /// The element's text.
    pub name: &'a str,
    /// The URI fragment, on the last element only (Akka JVM).
    pub fragment: Option<&'a str>,
}

impl fmt::Display for RelativeElement<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)?;
        match self.fragment {
            Some(fragment) => write!(f, "#{fragment}"),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(input: &str, dialect: Dialect) -> Option<([RelativeElement<'_>; 4], usize)> {
        let mut out = [RelativeElement {
            name: "",
            fragment: None,
        }; 4];
        let mut n = 0;
        for (slot, e) in out.iter_mut().zip(relative_elements(input, dialect)?) {
            *slot = e;
            n += 1;
        }
        Some((out, n))
    }

    #[test]
    fn dotnet_keeps_inner_empty_elements() {
        let (e, n) = names("//a//b/", Dialect::DotNet).unwrap();
        assert_eq!(n, 4);
        assert_eq!(
            [e[0].name, e[1].name, e[2].name, e[3].name],
            ["a", "", "b", ""]
        );
    }

    #[test]
    fn jvm_keeps_the_leading_empty_element_and_the_fragment() {
        let (e, n) = names("/a?q#7", Dialect::Jvm).unwrap();
        assert_eq!(n, 2);
        assert_eq!((e[0].name, e[1].name, e[1].fragment), ("", "a", Some("7")));
    }

    #[test]
    fn absolute_is_not_relative() {
        assert!(relative_elements("akka.tcp://s/a", Dialect::Jvm).is_none());
        assert!(relative_elements("a:b", Dialect::DotNet).is_none());
        assert!(relative_elements("1a:b", Dialect::DotNet).is_some());
    }

    #[test]
    fn jvm_refuses_a_space() {
        assert!(relative_elements("a b", Dialect::Jvm).is_none());
        assert!(relative_elements("a b", Dialect::DotNet).is_some());
    }

    #[test]
    fn empty_has_no_elements() {
        assert_eq!(names("", Dialect::DotNet).unwrap().1, 0);
    }
}
