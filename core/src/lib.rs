//! Allocation-free protocol codecs.
//!
//! `leanwire-core` parses and formats wire and text formats without touching the
//! heap. Parsers hand out views that borrow the input; when a value must be
//! built, it goes into a caller's [`bumpalo::Bump`] arena and nowhere else.
//!
//! The crate is `#![no_std]`, and its own code has no `unsafe`. The `alloc`
//! feature adds `String`-returning conveniences and `tds::OwnedMetadata`, an
//! arena paired with the metadata in it by the `self_cell` macro, whose
//! expansion holds that crate's audited `unsafe`; nothing else needs it.
//!
//! # Modules
//! - [`actor`]: Akka actor paths and addresses, in the Akka.NET and Akka JVM dialects.
//! - [`dns`]: DNS messages: decoding views, typed RDATA, and a compressing builder.
//! - [`error`]: the one error type they share: a codec's kind enum and a byte offset.
//! - [`hex`]: hex text to bytes, for fixtures and command lines.
//! - [`tds`]: TDS (SQL Server): packet de-framing and a resumable, sans-IO token-stream reader.
//! - `report` (feature `report`): the JSON-shaped results that the `leanwire`
//!   command prints and the npm package returns, defined once for both.
#![no_std]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![deny(unsafe_code)]
#![warn(missing_docs)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(test)]
extern crate std;

pub mod actor;
mod calendar;
pub mod dns;
pub mod error;
pub mod hex;
mod registry;
#[cfg(feature = "report")]
#[cfg_attr(docsrs, doc(cfg(feature = "report")))]
pub mod report;
pub mod tds;

pub use bumpalo;

/// The crate's README (the one crates.io shows), its example run as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
