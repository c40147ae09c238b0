//! Akka actor paths and addresses.
//!
//! An actor path names an actor in a tree of actors:
//!
//! ```text
//! akka.tcp://system@127.0.0.1:1337/user/parent/child#1
//! \______/   \____/ \_______/ \__/ \_______________/ \/
//! protocol   system   host    port      elements     uid
//! \__________________________________/
//!               address
//! ```
//!
//! Two dialects are supported, chosen with [`Dialect`]: Akka.NET (the
//! default) and Akka JVM / Apache Pekko. Akka.NET reads the protocol and host
//! in lowercase, accepts any text in the path and only requires the scheme to
//! start with `akka`; Akka JVM reads the whole path as a `java.net.URI`, so it
//! accepts any scheme but checks every character.
//!
//! # The vocabulary
//! - [`ActorPath`] is a zero-copy view of a parsed path. Parsing it allocates
//!   nothing, not even in an arena; its elements are iterated from the input.
//! - [`PathNode`] is a path built in a [`bumpalo::Bump`], one node per
//!   element, for paths that grow: `child`, `parent`, `root` are O(1).
//! - [`Address`] is the `protocol://system@host:port` part, which both share.
//! - [`PathView`] holds what the two path types share: the printing forms,
//!   Akka's equality (the uid is ignored) and Akka's ordering.
//! - [`split_name_and_uid`], [`validate_path_element`] and [`check_actor_name`]
//!   read and check single elements.
//! - Errors are one small `Copy` type, [`Error`]: an [`ErrorKind`] and the byte
//!   offset where the input went wrong.
//!
//! Nothing here allocates on the heap. Printing goes through
//! [`core::fmt::Write`], so a reused `String` or a stack buffer will do.

mod address;
mod dialect;
mod element;
mod error;
mod folded;
mod lowercase;
mod node;
mod number;
mod path;
mod relative;
mod scan;
mod uri;
mod view;
mod wildcard;

pub use address::{Address, HostPort};
pub use dialect::Dialect;
pub use element::{
    DOTNET_VALID_SYMBOLS, InvalidActorName, JVM_VALID_SYMBOLS, check_actor_name,
    is_valid_path_element, split_name_and_uid, validate_path_element,
};
pub use error::{Error, ErrorKind};
pub use folded::{Chars, Folded, cmp_utf16};
pub use node::{NodeElements, PathNode};
pub use path::{ActorPath, Elements};
pub use relative::{RelativeElement, RelativeElements, relative_elements};
pub use view::{ElementWithUid, ElementsWithUid, Formatted, PathView};
pub use wildcard::wildcard_match;
