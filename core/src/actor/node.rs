use core::cmp::Ordering;
use core::fmt;
use core::hash::{Hash, Hasher};

use bumpalo::Bump;

use super::address::Address;
use super::dialect::Dialect;
use super::element::split_name_and_uid;
use super::error::{Error, ErrorKind};
use super::path::ActorPath;
use super::view::PathView;

/// An actor path built in a [`Bump`] arena, one node per element, each node
/// pointing at its parent: Akka's `RootActorPath` and `ChildActorPath`.
///
/// [`child`](Self::child), [`parent`](Self::parent), [`root`](Self::root),
/// [`name`](Self::name), [`uid`](Self::uid) and [`depth`](Self::depth) are
/// O(1). Every node also keeps a jump pointer (Myers' skew-binary scheme), so
/// [`ancestor`](Self::ancestor) is O(log depth) and iterating the elements
/// from the root costs O(depth · log depth) with no buffer at all.
///
/// Nodes only borrow names: a name that is not already in the arena's
/// lifetime can be copied in with [`Bump::alloc_str`]. The only allocations
/// are the nodes themselves, in the arena; nothing touches the heap.
///
/// ```
/// use bumpalo::Bump;
/// use leanwire_core::actor::{Address, Dialect, PathNode, PathView};
///
/// let bump = Bump::new();
/// let root = PathNode::new_root(&bump, Address::new(Dialect::DotNet, "akka.tcp", "system", Some("127.0.0.1"), Some(1337)))?;
/// let child = root.child(&bump, "parent")?.child(&bump, "child#1")?;
/// assert_eq!(child.to_string(), "akka.tcp://system@127.0.0.1:1337/parent/child");
/// assert_eq!(child.serialization_format().to_string(), "akka.tcp://system@127.0.0.1:1337/parent/child#1");
/// assert_eq!(child.parent().unwrap().name(), "parent");
/// assert!(core::ptr::eq(child.root(), root));
/// # Ok::<(), leanwire_core::actor::Error>(())
/// ```
#[derive(Debug)]
pub struct PathNode<'b> {
    address: &'b Address<'b>,
    parent: Option<&'b PathNode<'b>>,
    /// An ancestor that lets [`ancestor`](Self::ancestor) skip ahead.
    jump: Option<&'b PathNode<'b>>,
    /// The root, for every node but the root itself.
    root: Option<&'b PathNode<'b>>,
    name: &'b str,
    uid: Option<i32>,
    depth: usize,
}

impl<'b> PathNode<'b> {
    /// The root path of `address`, allocated in `bump`.
    pub fn new_root(bump: &'b Bump, address: Address<'b>) -> Result<&'b PathNode<'b>, Error> {
        let address = alloc(bump, address)?;
        alloc(
            bump,
            PathNode {
                address,
                parent: None,
                jump: None,
                root: None,
                name: "",
                uid: None,
                depth: 0,
            },
        )
    }

    /// Parses `input` (see [`ActorPath::parse`]) into nodes in `bump`.
    ///
    /// The names borrow from `input`; nothing is copied.
    pub fn parse(
        bump: &'b Bump,
        input: &'b str,
        dialect: Dialect,
    ) -> Result<&'b PathNode<'b>, Error> {
        Self::from_path(bump, &ActorPath::parse(input, dialect)?)
    }

    /// Builds the nodes of a parsed path in `bump`.
    pub fn from_path(bump: &'b Bump, path: &ActorPath<'b>) -> Result<&'b PathNode<'b>, Error> {
        Self::new_root(bump, path.address())?.extend(bump, path)
    }

    /// The child `name#uid` of this path (Akka's `path / "name#uid"`).
    ///
    /// The name is the text before the first `#`; the text after it is the
    /// uid (see [`split_name_and_uid`](super::split_name_and_uid)). In the JVM
    /// dialect a name may not contain `/`.
    pub fn child(
        &'b self,
        bump: &'b Bump,
        name_and_uid: &'b str,
    ) -> Result<&'b PathNode<'b>, Error> {
        let dialect = self.address.dialect();
        let (name, uid) = split_name_and_uid(name_and_uid, dialect)?;
        if dialect == Dialect::Jvm
            && let Some(slash) = name.find('/')
        {
            return Err(Error::new(ErrorKind::NameHasSeparator, slash));
        }
        self.push(bump, name, uid)
    }

    /// The path `relative` leads to from this one, read with Akka.NET's
    /// `ActorPath.TryParse(basePath, uri)` rules: split on `/`, empty segments
    /// skipped, `#uid` on the last segment.
    ///
    /// ```
    /// use bumpalo::Bump;
    /// use leanwire_core::actor::{Dialect, PathNode, PathView};
    ///
    /// let bump = Bump::new();
    /// let base = PathNode::parse(&bump, "akka://sys@host:1234/abc", Dialect::DotNet)?;
    /// let joined = base.join(&bump, "/def//ghi#3")?;
    /// assert_eq!(joined.serialization_format().to_string(), "akka://sys@host:1234/abc/def/ghi#3");
    /// assert!(core::ptr::eq(joined.parent_of(-2), base));
    /// # Ok::<(), leanwire_core::actor::Error>(())
    /// ```
    pub fn join(&'b self, bump: &'b Bump, relative: &'b str) -> Result<&'b PathNode<'b>, Error> {
        self.extend(bump, &ActorPath::from_parts(*self.address, relative)?)
    }

    /// Appends every element of `path`, the last with `path`'s uid.
    fn extend(&'b self, bump: &'b Bump, path: &ActorPath<'b>) -> Result<&'b PathNode<'b>, Error> {
        let depth = path.elements().count();
        let mut node = self;
        for (i, name) in path.elements().enumerate() {
            let uid = if i + 1 == depth { path.uid() } else { None };
            node = node.push(bump, name, uid)?;
        }
        Ok(node)
    }

    /// Appends one child node, with no checks on the name.
    fn push(
        &'b self,
        bump: &'b Bump,
        name: &'b str,
        uid: Option<i32>,
    ) -> Result<&'b PathNode<'b>, Error> {
        // Myers' skew-binary jump pointers: jump twice as far as the parent
        // does when the parent's two jumps span equal distances.
        let jump = match self.jump.and_then(|j| Some((j, j.jump?))) {
            Some((j, jj)) if self.depth - j.depth == j.depth - jj.depth => jj,
            _ => self,
        };
        alloc(
            bump,
            PathNode {
                address: self.address,
                parent: Some(self),
                jump: Some(jump),
                root: Some(self.root()),
                name,
                uid,
                depth: self.depth + 1,
            },
        )
    }

    /// This path with another uid on its last element (`WithUid`). A root
    /// accepts only `None`.
    pub fn with_uid(&'b self, bump: &'b Bump, uid: Option<i32>) -> Result<&'b PathNode<'b>, Error> {
        match self.parent {
            None if uid.is_none() => Ok(self),
            None => Err(Error::new(ErrorKind::UidOnRoot, 0)),
            Some(parent) => parent.push(bump, self.name, uid),
        }
    }

    /// The parent path; `None` for a root.
    pub const fn parent(&self) -> Option<&'b PathNode<'b>> {
        self.parent
    }

    /// The root path.
    pub fn root<'r>(&'r self) -> &'r PathNode<'b> {
        self.root.unwrap_or(self)
    }

    /// The last element's name; `""` for a root.
    pub const fn name(&self) -> &'b str {
        self.name
    }

    /// The last element's uid; `None` when undefined and for a root.
    pub const fn uid(&self) -> Option<i32> {
        self.uid
    }

    /// How many elements the path has; 0 for a root.
    pub const fn depth(&self) -> usize {
        self.depth
    }

    /// The path's address.
    pub const fn address(&self) -> &'b Address<'b> {
        self.address
    }

    /// The ancestor at `depth` (0 is the root), or this path when it is not
    /// deeper than `depth`. O(log n).
    pub fn ancestor<'r>(&'r self, depth: usize) -> &'r PathNode<'b> {
        let mut node = self;
        while node.depth > depth {
            node = match (node.jump, node.parent) {
                (Some(jump), _) if jump.depth >= depth => jump,
                (_, Some(parent)) => parent,
                _ => break,
            };
        }
        node
    }

    /// Akka's `ParentOf(depth)`: for `depth >= 0` the ancestor at that depth,
    /// and for `depth < 0` the ancestor `-depth` levels up, stopping at the root.
    pub fn parent_of<'r>(&'r self, depth: isize) -> &'r PathNode<'b> {
        match usize::try_from(depth) {
            Ok(depth) => self.ancestor(depth),
            Err(_) => self.ancestor(self.depth.saturating_sub(depth.unsigned_abs())),
        }
    }

    /// The element names, root first.
    pub fn elements(&self) -> NodeElements<'_, 'b> {
        NodeElements {
            leaf: self,
            front: 1,
            back: self.depth,
        }
    }
}

fn alloc<T>(bump: &Bump, value: T) -> Result<&T, Error> {
    bump.try_alloc(value)
        .map(|v| &*v)
        .map_err(|_| Error::new(ErrorKind::ArenaFull, 0))
}

impl<'b> PathView<'b> for PathNode<'b> {
    type Elements<'s>
        = NodeElements<'s, 'b>
    where
        Self: 's;

    fn address(&self) -> Address<'b> {
        *self.address
    }

    fn elements(&self) -> NodeElements<'_, 'b> {
        PathNode::elements(self)
    }

    fn uid(&self) -> Option<i32> {
        self.uid
    }

    fn depth(&self) -> usize {
        self.depth
    }

    fn name(&self) -> &'b str {
        self.name
    }
}

/// The element names of a [`PathNode`], root first; each step is O(log depth).
#[derive(Clone, Debug)]
pub struct NodeElements<'r, 'b> {
    leaf: &'r PathNode<'b>,
    /// The depth of the next element from the front.
    front: usize,
    /// The depth of the next element from the back.
    back: usize,
}

impl<'b> Iterator for NodeElements<'_, 'b> {
    type Item = &'b str;

    fn next(&mut self) -> Option<&'b str> {
        if self.front > self.back {
            return None;
        }
        self.front += 1;
        Some(self.leaf.ancestor(self.front - 1).name)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = (self.back + 1).saturating_sub(self.front);
        (n, Some(n))
    }
}

impl DoubleEndedIterator for NodeElements<'_, '_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        if self.front > self.back {
            return None;
        }
        self.back -= 1;
        Some(self.leaf.ancestor(self.back + 1).name)
    }
}

impl ExactSizeIterator for NodeElements<'_, '_> {}

impl fmt::Display for PathNode<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.with_address(self.address), f)
    }
}

impl PartialEq for PathNode<'_> {
    fn eq(&self, other: &Self) -> bool {
        core::ptr::eq(self, other) || self.path_eq(other)
    }
}

impl<'a> PartialEq<ActorPath<'a>> for PathNode<'_> {
    fn eq(&self, other: &ActorPath<'a>) -> bool {
        self.path_eq(other)
    }
}

impl Eq for PathNode<'_> {}

impl Hash for PathNode<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.path_hash(state);
    }
}

impl PartialOrd for PathNode<'_> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for PathNode<'_> {
    fn cmp(&self, other: &Self) -> Ordering {
        self.path_cmp(other)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::hash::BuildHasher;
    use std::hash::RandomState;

    #[test]
    fn with_uid_replaces_the_last_uid_and_a_root_takes_none() {
        let bump = Bump::new();
        let root = PathNode::parse(&bump, "akka://s", Dialect::DotNet).unwrap();
        assert!(core::ptr::eq(root.with_uid(&bump, None).unwrap(), root));
        assert_eq!(
            root.with_uid(&bump, Some(1)).unwrap_err(),
            Error::new(ErrorKind::UidOnRoot, 0)
        );
        let path = PathNode::parse(&bump, "akka://s/a/b#3", Dialect::DotNet).unwrap();
        let other = path.with_uid(&bump, Some(4)).unwrap();
        assert_eq!(
            (other.uid(), other.name(), other.depth()),
            (Some(4), "b", 2)
        );
        assert_eq!(path.with_uid(&bump, None).unwrap().uid(), None);
        assert_eq!(path.uid(), Some(3));
    }

    #[test]
    fn a_node_reads_as_a_path_view() {
        fn view<'a>(path: &impl PathView<'a>) -> (usize, &'a str, Option<i32>, bool) {
            (path.depth(), path.name(), path.uid(), path.is_root())
        }
        let bump = Bump::new();
        let node = PathNode::parse(&bump, "akka://s/a/b/c#9", Dialect::DotNet).unwrap();
        assert_eq!(view(node), (3, "c", Some(9), false));
        assert_eq!(view(node.root()), (0, "", None, true));
        let mut elements = node.elements();
        assert_eq!(elements.len(), 3);
        assert_eq!((elements.next(), elements.len()), (Some("a"), 2));
        assert_eq!(
            (elements.next_back(), elements.size_hint()),
            (Some("c"), (1, Some(1)))
        );
        assert_eq!((elements.next(), elements.len()), (Some("b"), 0));
    }

    #[test]
    fn nodes_compare_and_hash_by_their_elements() {
        let bump = Bump::new();
        let parse = |text| PathNode::parse(&bump, text, Dialect::DotNet).unwrap();
        let hasher = RandomState::new();
        let (a, same, other) = (
            parse("akka://s/a/b#1"),
            parse("akka://s//a/b"),
            parse("akka://s/a/c"),
        );
        assert!(!core::ptr::eq(a, same));
        assert!(a == same && a != other);
        assert_eq!(hasher.hash_one(a), hasher.hash_one(same));
        assert_ne!(hasher.hash_one(a), hasher.hash_one(other));
        assert!(a < other);
        assert_eq!(other.cmp(a), Ordering::Greater);
        assert_eq!(a.partial_cmp(other), Some(Ordering::Less));
        let path = ActorPath::parse("akka://s/a/c", Dialect::DotNet).unwrap();
        assert!(*other == path && *a != path);
    }
}
