//! leanwire on a real operating system.
//!
//! This crate re-exports [`leanwire_core`] as [`core`](mod@crate::core) and adds
//! what needs `std`: the JSON reports that the `leanwire` command prints.
#![warn(missing_docs)]
#![deny(unsafe_code)]

pub use leanwire_core as core;

pub mod report;

/// The README's Rust example, compiled and run as a doctest.
#[doc = include_str!("../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
