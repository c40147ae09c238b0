//! leanwire on a real operating system.
//!
//! This crate re-exports [`leanwire_core`] as [`core`](mod@crate::core) and adds
//! what needs `std`: host-name resolution ([`resolve`]), reading SQL Server
//! result sets row by row over any byte stream ([`tds`]), recursive create
//! and remove of directories without heap allocation ([`fs`]), an HTTP/1.1
//! server whose accepting thread serves what it accepts ([`http`]), and the
//! `leanwire` command.
//!
//! Each OS sits behind the private `sys` module, one backend per OS family
//! as in mio; it is the only place where `unsafe` is allowed.
//!
//! # Features
//! - `cli` (default): the `leanwire` command, and what only it uses: what
//!   it prints and how it picks its exit status (`cli`), the capture reader
//!   `pcap`, the TechEmpower handler `http::HelloWorld`, and
//!   `leanwire_core`'s `report` feature. A library that depends on this
//!   crate with `default-features = false` compiles none of the command's
//!   dependencies (clap, clap_complete, clap_mangen, serde, serde_json,
//!   ctrlc, pcap-parser, etherparse).
#![cfg_attr(docsrs, feature(doc_cfg))]
#![warn(missing_docs)]
#![deny(unsafe_code)]

pub use leanwire_core as core;

mod blocking;
#[cfg(feature = "cli")]
#[cfg_attr(docsrs, doc(cfg(feature = "cli")))]
pub mod cli;
pub mod fs;
pub mod http;
#[cfg(feature = "cli")]
#[cfg_attr(docsrs, doc(cfg(feature = "cli")))]
pub mod pcap;
mod queue;
pub mod resolve;
pub mod stub;
#[allow(unsafe_code)]
mod sys;
pub mod tds;

/// The crate's own README (the one crates.io shows), its example run as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct CrateReadmeDoctests;
