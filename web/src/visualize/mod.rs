//! What only the visualizer page draws: a DNS message's bytes annotated
//! field by field ([`dns_layout`]), and the `bumpalo` arena behind an
//! actor path ([`path_arena`]) or a TDS result set's columns
//! ([`tds_arena`]), block by block.
//!
//! Each export returns one JSON string, which the page reads with
//! `JSON.parse`: these run once per user action, not in a measured loop.

mod arena;
mod dns_layout;
mod path_arena;
mod tds_arena;

pub use dns_layout::dns_layout;
pub use path_arena::path_arena;
pub use tds_arena::tds_arena;
