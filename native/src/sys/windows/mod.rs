//! The Windows backend: `windows-sys` calls behind safe wrappers.

pub(crate) mod dns;
pub(crate) mod fs;
pub(crate) mod net;
