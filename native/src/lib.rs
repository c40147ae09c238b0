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
#![warn(missing_docs)]
#![deny(unsafe_code)]

pub use leanwire_core as core;

mod blocking;
pub mod fs;
pub mod http;
pub mod pcap;
mod queue;
pub mod resolve;
pub mod stub;
#[allow(unsafe_code)]
mod sys;
pub mod tds;

/// The README's Rust example, compiled and run as a doctest.
#[doc = include_str!("../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
