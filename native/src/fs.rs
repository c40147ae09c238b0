//! Directories created and removed recursively, without heap allocation.
//!
//! [`create_dir_all`] and [`remove_dir_all`] do what their `std::fs`
//! namesakes do, with these differences:
//!
//! * No heap traffic on success, at any depth: a path goes to the OS from a
//!   stack buffer, and the walk keeps directory descriptors, not paths. On
//!   Linux a path longer than `PATH_MAX` (4096 bytes) is cut at a `/` into
//!   pieces that fit, each looked up relative to the one before. The
//!   Windows backend takes paths of up to 4,095 UTF-16 units and refuses
//!   longer ones with [`io::ErrorKind::InvalidFilename`]. A failure
//!   allocates its message.
//! * Few system calls: [`create_dir_all`] tries the leaf first and, only on
//!   a missing parent, finds the deepest existing ancestor by bisection
//!   with `stat` (existence is monotone along a path), then creates
//!   forward. A fresh chain of `d` directories under an existing one costs
//!   `d + 1` `mkdir` calls and about `log2(d)` `stat` calls.
//! * Errors name the component at fault: `Not a directory (component
//!   'x/y')`, with the kind of the OS error ([`io::ErrorKind::NotADirectory`],
//!   [`io::ErrorKind::PermissionDenied`],
//!   [`io::ErrorKind::InvalidFilename`]...).
//!
//! [`remove_dir_all`] never follows a symbolic link. On Linux every
//! directory is opened `O_NOFOLLOW` relative to its parent's descriptor, so
//! a link swapped in for a subdirectory while the removal runs is unlinked,
//! not entered (the race of CVE-2022-21658). The Windows backend works on
//! paths and checks for a reparse point before it enters a directory, which
//! leaves that race open there.
//!
//! Other unix systems get [`io::ErrorKind::Unsupported`].
//!
//! ```
//! # fn main() -> std::io::Result<()> {
//! use leanwire_native::fs::{create_dir_all, remove_dir_all};
//!
//! let top = std::env::temp_dir().join(format!("leanwire-fs-doc-{}", std::process::id()));
//! create_dir_all(top.join("a/b/c"))?;
//! assert!(top.join("a/b/c").is_dir());
//! remove_dir_all(&top)?;
//! assert!(!top.exists());
//! # Ok(())
//! # }
//! ```

use std::io;
use std::path::Path;

use crate::sys;

/// Creates the directory `path` and every missing ancestor, without heap
/// allocation.
///
/// A directory that already exists, or that another thread or process
/// creates meanwhile, is success. An ancestor that is not a directory is
/// [`io::ErrorKind::NotADirectory`], and nothing past it is created; a leaf
/// that exists but is not a directory is [`io::ErrorKind::AlreadyExists`].
/// Any other OS error keeps its kind. The message names the component.
/// The empty path and `/` are success, as in `std`.
pub fn create_dir_all(path: impl AsRef<Path>) -> io::Result<()> {
    sys::fs::create_dir_all(path.as_ref())
}

/// Creates the one directory `path`: its parent must exist, and `path` must
/// not. The message of an error names the path.
pub fn create_dir(path: impl AsRef<Path>) -> io::Result<()> {
    sys::fs::create_dir(path.as_ref())
}

/// Removes the file or symbolic link `path` (never its target), without
/// heap allocation. A directory is an error.
pub fn remove_file(path: impl AsRef<Path>) -> io::Result<()> {
    sys::fs::remove_file(path.as_ref())
}

/// Removes the directory `path` and everything under it, without heap
/// allocation, following no symbolic link.
///
/// A symbolic link at `path` itself is removed, not followed; a file is
/// [`io::ErrorKind::NotADirectory`]. The empty path, a path that ends in
/// `.` or `..`, and a root are [`io::ErrorKind::InvalidInput`], decided
/// from the path alone before any lookup. The roots are `/` on Linux; on
/// Windows `\`, drive roots (`C:\`, `C:/`, `C:`) and share roots
/// (`\\server\share`, `\\?\C:\`, `\\?\UNC\server\share`), with or without a
/// trailing separator, and Windows also refuses a last component of dots
/// and spaces only (`...`, `.. `), since Win32 trims those characters off
/// the end of a path not in `\\?\` form. Entries that vanish while it runs
/// are skipped. The message of an error names the path, and the entry at
/// fault below it.
///
/// On Linux the walk keeps at most 128 levels below `path` open, whatever
/// the depth: going deeper closes the highest of them, and climbing back
/// past them starts again from `path` (never through `..`), which costs a
/// re-descent per 127 levels.
pub fn remove_dir_all(path: impl AsRef<Path>) -> io::Result<()> {
    sys::fs::remove_dir_all(path.as_ref())
}
