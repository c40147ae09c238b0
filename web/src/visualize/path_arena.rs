//! The arena behind a `PathNode` chain: the address and one node per
//! element, and nothing else.

use bumpalo::Bump;
use leanwire_core::actor::{Dialect, Error, PathNode};
use wasm_bindgen::prelude::*;

use super::arena::{Labelled, Picture, picture};
use crate::js_error;

/// Parses the actor path `input` into `PathNode`s in a fresh arena and
/// draws the arena, block by block.
///
/// Returns JSON: `{"chunks": [{"index", "size", "used"}], "blocks":
/// [{"chunk", "offset", "size", "label"}], "arenaBytes",
/// "arenaCapacity"}`, the blocks in allocation order. `dialect` is
/// `"dotnet"` (the default) or `"jvm"`; a path that does not parse is an
/// error.
#[wasm_bindgen(js_name = pathArena)]
pub fn path_arena(
    input: &str,
    #[wasm_bindgen(js_name = dialect, unchecked_optional_param_type = "Dialect")]
    dialect_name: Option<String>,
) -> Result<String, JsError> {
    let dialect = crate::bench::dialect(dialect_name)?;
    let arena = path_picture(input, dialect).map_err(js_error)?;
    serde_json::to_string(&arena).map_err(js_error)
}

/// The picture of the arena that `PathNode::parse` fills from `input`.
pub(super) fn path_picture(input: &str, dialect: Dialect) -> Result<Picture, Error> {
    let mut bump = Bump::new();
    let labelled = {
        let leaf = PathNode::parse(&bump, input, dialect)?;
        let address = leaf.address();
        let mut labelled = vec![Labelled::of(address, format!("Address ({address})"))];
        let mut node = Some(leaf);
        while let Some(this) = node {
            let label = match this.parent() {
                Some(_) => format!("PathNode {:?} depth {}", this.name(), this.depth()),
                None => "PathNode (root) depth 0".to_string(),
            };
            labelled.push(Labelled::of(this, label));
            labelled.push(Labelled::of(this.name(), format!("name {:?}", this.name())));
            node = this.parent();
        }
        labelled
    };
    Ok(picture(&mut bump, labelled, &[]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn address_and_three_nodes() {
        let arena = path_picture("akka.tcp://sys@host:1/a/b", Dialect::DotNet).unwrap();
        let blocks = &arena.blocks;
        let labels: Vec<&str> = blocks.iter().map(|b| b.label.as_str()).collect();
        let addresses = labels.iter().filter(|l| l.starts_with("Address")).count();
        let nodes = labels.iter().filter(|l| l.starts_with("PathNode")).count();
        assert_eq!((addresses, nodes), (1, 3), "{labels:?}");
        assert_eq!(labels[0], "Address (akka.tcp://sys@host:1)");
        assert!(labels.contains(&"PathNode \"b\" depth 2"), "{labels:?}");
        // The names borrow the input: none of them is in the arena.
        assert!(!labels.iter().any(|l| l.starts_with("name")), "{labels:?}");
        assert_eq!(
            blocks.iter().map(|b| b.size).sum::<usize>(),
            arena.arena_bytes
        );
    }

    #[test]
    fn a_bad_path_is_an_error() {
        assert!(path_picture("not a path", Dialect::DotNet).is_err());
    }
}
