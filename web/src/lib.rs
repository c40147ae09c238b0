//! WebAssembly bindings for [`leanwire_core`], published to npm as `leanwire`.
//!
//! This crate only converts. Each exported function reads its input from a
//! buffer shared with JavaScript, makes one `leanwire_core` call, and writes
//! the result as a compact tape of words and one text area (see [`shared`]).
//! The package's hand-written JavaScript reads the tape into plain objects,
//! so that a call crosses the boundary once each way and a string is decoded
//! once per call, not once per field.
//!
//! ```js
//! import { parseActorPath } from "leanwire";
//! parseActorPath("akka.tcp://sys@host:2552/user/a#7").uid; // 7
//! ```
//!
//! The `peers` feature adds what only the visualizer page needs: the peer
//! parsers, a counting allocator, the loops that measure inside wasm, and
//! the annotated layouts and arena pictures the page draws.
#![warn(missing_docs)]

pub mod actor;
pub mod dns;
pub mod dns_packet;
pub mod shared;
pub mod tds;
#[cfg(test)]
mod vectors;

/// The repository README's Rust examples, compiled and run as doctests.
/// They live in this crate, which is not published, because they use
/// both `leanwire-core` and `leanwire-native` and the README is outside
/// either crate's package.
#[doc = include_str!("../../README.md")]
#[cfg(all(doctest, not(target_arch = "wasm32")))]
pub struct ReadmeDoctests;

#[cfg(feature = "peers")]
mod alloc;

/// The package's allocator (the page's own build counts allocations with
/// a wrapper around the standard one instead).
#[cfg(all(target_arch = "wasm32", not(feature = "peers")))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();
#[cfg(feature = "peers")]
mod bench;
#[cfg(feature = "peers")]
mod peers;
#[cfg(feature = "peers")]
mod visualize;

#[cfg(feature = "peers")]
pub use alloc::{AllocStats, alloc_stats, reset_alloc_stats};
#[cfg(feature = "peers")]
pub use bench::{BenchmarkRun, TdsRun, benchmark, benchmark_tds};
#[cfg(feature = "peers")]
pub use visualize::{dns_layout, path_arena, tds_arena};

/// Every error that crosses to JavaScript by `wasm-bindgen` goes through
/// here, as an `Error` whose message is the Rust error's `Display`.
pub fn js_error(error: impl core::fmt::Display) -> wasm_bindgen::JsError {
    wasm_bindgen::JsError::new(&error.to_string())
}
