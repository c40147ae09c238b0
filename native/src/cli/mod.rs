//! What the `leanwire` command prints, and how it decides its exit status,
//! as a library: the dig-style text of a DNS response, the reports of
//! `resolve` and `tds decode`, and the reading of a `dns query` line. The
//! binary itself only parses arguments and calls these.

pub mod dig;
pub mod host;
pub mod lines;
pub mod query;
pub mod tds;

use std::io::{self, Write};

use serde::Serialize;

/// Writes `report` as one line of JSON.
pub fn json_line(out: &mut impl Write, report: &impl Serialize) -> io::Result<()> {
    serde_json::to_writer(&mut *out, report)?;
    out.write_all(b"\n")
}
