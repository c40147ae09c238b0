//! Recursive create and remove of directories on paths, with no heap
//! allocation.
//!
//! <https://learn.microsoft.com/en-us/windows/win32/api/fileapi/nf-fileapi-createdirectoryw>,
//! <https://learn.microsoft.com/en-us/windows/win32/api/fileapi/nf-fileapi-findfirstfilew>,
//! <https://learn.microsoft.com/en-us/windows/win32/api/fileapi/nf-fileapi-removedirectoryw>
//!
//! A path goes to the OS as UTF-16 from a stack buffer of `MAX_UNITS`
//! units; a longer one is `ERROR_FILENAME_EXCED_RANGE`. The removal works
//! on paths, appending each name to the buffer: it checks for a reparse
//! point (symbolic link, junction) before it enters a directory and removes
//! the link itself instead, but a link swapped in between that check and
//! the next lookup is followed (unlike the unix backend's descriptors).

use std::fmt;
use std::io;
use std::os::windows::ffi::OsStrExt;
use std::path::{Component, Path, Prefix};
use std::ptr;

use windows_sys::Win32::Foundation::{
    ERROR_ALREADY_EXISTS, ERROR_DIRECTORY, ERROR_FILE_NOT_FOUND, ERROR_FILENAME_EXCED_RANGE,
    ERROR_NO_MORE_FILES, ERROR_PATH_NOT_FOUND, HANDLE, INVALID_HANDLE_VALUE,
};
use windows_sys::Win32::Storage::FileSystem::{
    CreateDirectoryW, DeleteFileW, FILE_ATTRIBUTE_DIRECTORY, FILE_ATTRIBUTE_REPARSE_POINT,
    FindClose, FindFirstFileW, FindNextFileW, GetFileAttributesW, INVALID_FILE_ATTRIBUTES,
    RemoveDirectoryW, WIN32_FIND_DATAW,
};

/// The size of the stack buffer in UTF-16 units, NUL included.
const MAX_UNITS: usize = 4096;

/// Creates `path` and every missing ancestor.
pub(crate) fn create_dir_all(path: &Path) -> io::Result<()> {
    let mut buf = WidePath::new(path)?;
    let len = trim_trailing_separators(&buf.units[..buf.len]);
    if len == 0 {
        return Ok(());
    }
    buf.len = len;
    // The leaf first; on a missing parent, bisect for the deepest existing
    // ancestor (existence is monotone along a path) and create forward.
    let mut end = match buf.create(len) {
        Ok(()) => return Ok(()),
        Err(ERROR_ALREADY_EXISTS) => return buf.ensure_dir(len, true),
        Err(ERROR_PATH_NOT_FOUND | ERROR_DIRECTORY) => buf.deepest_existing()?,
        Err(code) => return Err(buf.error(code, len)),
    };
    while let Some(next) = next_end(&buf.units[..len], end) {
        end = next;
        match buf.create(end) {
            Ok(()) => {}
            Err(ERROR_ALREADY_EXISTS) => buf.ensure_dir(end, end == len)?,
            Err(code) => return Err(buf.error(code, end)),
        }
    }
    Ok(())
}

/// Creates `path`, whose parent must exist.
pub(crate) fn create_dir(path: &Path) -> io::Result<()> {
    let mut buf = WidePath::new(path)?;
    let len = buf.len;
    buf.create(len).map_err(|code| buf.error(code, len))
}

/// Removes the file or symbolic link `path`, never a directory.
pub(crate) fn remove_file(path: &Path) -> io::Result<()> {
    let mut buf = WidePath::new(path)?;
    let len = buf.len;
    buf.delete_file(len).map_err(|code| buf.error(code, len))
}

/// Removes `path` and everything under it, following no reparse point.
pub(crate) fn remove_dir_all(path: &Path) -> io::Result<()> {
    if names_no_entry(path) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "refusing to remove '{}': it names no entry of a parent",
                path.display()
            ),
        ));
    }
    let mut buf = WidePath::new(path)?;
    let top = trim_trailing_separators(&buf.units[..buf.len]);
    buf.len = top;
    let attrs = buf.attributes(top).map_err(|code| buf.error(code, top))?;
    if attrs & FILE_ATTRIBUTE_REPARSE_POINT != 0 {
        // A link at the top is removed, not followed.
        let removed = if attrs & FILE_ATTRIBUTE_DIRECTORY != 0 {
            buf.remove_dir(top)
        } else {
            buf.delete_file(top)
        };
        return removed.map_err(|code| buf.error(code, top));
    }
    if attrs & FILE_ATTRIBUTE_DIRECTORY == 0 {
        return Err(buf.error(ERROR_DIRECTORY, top));
    }
    // Depth-first with the path buffer as the stack: enter the first real
    // subdirectory, deleting everything else on the way; remove a
    // directory once it is empty and go back to its parent, which is read
    // again from its start.
    let mut len = top;
    loop {
        match buf.first_subdir(len)? {
            Some(child) => len = child,
            None => {
                match buf.remove_dir(len) {
                    Ok(()) | Err(ERROR_FILE_NOT_FOUND | ERROR_PATH_NOT_FOUND) => {}
                    Err(code) => return Err(buf.error(code, len)),
                }
                if len == top {
                    return Ok(());
                }
                len = match parent_end(&buf.units[..len]) {
                    Some(parent) if parent >= top => parent,
                    _ => top,
                };
            }
        }
    }
}

/// Whether `path` names no entry that a parent directory holds: the empty
/// path, a drive or share root (`C:\`, `C:`, `\\server\share`, and their
/// `\\?\` and `\\.\` forms), a device in NT's namespace
/// (`\\?\GLOBALROOT\Device\HarddiskVolume1`), or a path whose last
/// component is `.` or `..`.
/// Decided from the text alone, before any lookup.
fn names_no_entry(path: &Path) -> bool {
    let mut components = path.components();
    let prefix = match components.clone().next() {
        Some(Component::Prefix(prefix)) => Some(prefix),
        _ => None,
    };
    // A prefix, a root, `.` or `..` last; this also covers `C:.` and `C:..`.
    if !matches!(components.next_back(), Some(Component::Normal(_))) {
        return true;
    }
    // `\\?\GLOBALROOT` is the root of NT's object namespace: its next two
    // names (`Device\HarddiskVolume1`) are a device, such as a volume,
    // whose root no parent holds.
    // <https://learn.microsoft.com/en-us/windows/win32/fileio/naming-a-file#nt-namespaces>
    if let Some(Prefix::Verbatim(name) | Prefix::DeviceNS(name)) = prefix.map(|p| p.kind())
        && name.eq_ignore_ascii_case("GLOBALROOT")
        && path
            .components()
            .filter(|c| matches!(c, Component::Normal(_)))
            .count()
            <= 2
    {
        return true;
    }
    // `components` drops a `.` that is not first (`foo\.` reads as `foo`),
    // so the last name is also read from the text, after any prefix.
    let bytes = path.as_os_str().as_encoded_bytes();
    let rest = &bytes[prefix.map_or(0, |p| p.as_os_str().len())..];
    let is_separator = |b: &u8| *b == b'\\' || *b == b'/';
    let end = rest
        .iter()
        .rposition(|b| !is_separator(b))
        .map_or(0, |i| i + 1);
    let start = rest[..end]
        .iter()
        .rposition(is_separator)
        .map_or(0, |i| i + 1);
    let last = &rest[start..end];
    if prefix.is_some_and(|p| p.kind().is_verbatim()) {
        // `/` is no separator in a `\\?\` path, but the walk trims it as
        // one: `\\?\C:\/` would come down to the volume's root.
        last.is_empty() || last == b"." || last == b".."
    } else {
        // Win32 drops trailing dots and spaces from the last component of a
        // path not in `\\?\` form, so `.. ` and `...` name a parent too.
        // <https://learn.microsoft.com/en-us/dotnet/standard/io/file-path-formats#trim-characters>
        last.iter().all(|&b| b == b'.' || b == b' ')
    }
}

fn is_separator(unit: u16) -> bool {
    unit == u16::from(b'\\') || unit == u16::from(b'/')
}

fn trim_trailing_separators(units: &[u16]) -> usize {
    units
        .iter()
        .rposition(|&u| !is_separator(u))
        .map_or(0, |last| last + 1)
}

/// Where the parent of `prefix` ends, or `None` at the first component.
fn parent_end(prefix: &[u16]) -> Option<usize> {
    let mut i = prefix.len();
    while i > 0 && is_separator(prefix[i - 1]) {
        i -= 1;
    }
    while i > 0 && !is_separator(prefix[i - 1]) {
        i -= 1;
    }
    while i > 0 && is_separator(prefix[i - 1]) {
        i -= 1;
    }
    (i > 0).then_some(i)
}

/// The end of a component strictly between `lo` and `hi`, near the middle.
fn boundary_between(path: &[u16], lo: usize, hi: usize) -> Option<usize> {
    let is_end =
        |i: usize| !is_separator(path[i - 1]) && (i == path.len() || is_separator(path[i]));
    let mid = lo + (hi - lo) / 2;
    (mid.max(lo + 1)..hi)
        .find(|&i| is_end(i))
        .or_else(|| (lo + 1..mid).rev().find(|&i| is_end(i)))
}

/// Where the component after `path[..end]` ends, or `None` at the leaf.
fn next_end(path: &[u16], end: usize) -> Option<usize> {
    let mut i = end;
    while i < path.len() && is_separator(path[i]) {
        i += 1;
    }
    if i == path.len() {
        return None;
    }
    while i < path.len() && !is_separator(path[i]) {
        i += 1;
    }
    Some(i)
}

/// A UTF-16 path with room to append names, NUL-terminated for each call.
struct WidePath {
    units: [u16; MAX_UNITS],
    len: usize,
}

/// A find handle, closed on drop.
struct Find(HANDLE);

impl Drop for Find {
    fn drop(&mut self) {
        // SAFETY: the handle came from FindFirstFileW and is closed once.
        unsafe { FindClose(self.0) };
    }
}

impl WidePath {
    fn new(path: &Path) -> io::Result<WidePath> {
        let mut out = WidePath {
            units: [0; MAX_UNITS],
            len: 0,
        };
        for unit in path.as_os_str().encode_wide() {
            if unit == 0 {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    "path contains a NUL character",
                ));
            }
            if out.len == MAX_UNITS - 3 {
                return Err(os_error(
                    ERROR_FILENAME_EXCED_RANGE,
                    format_args!("path '{}'", path.display()),
                ));
            }
            out.units[out.len] = unit;
            out.len += 1;
        }
        Ok(out)
    }

    /// Runs `f` on `units[..end]`, NUL-terminated for the call, and gives
    /// back `GetLastError` when it returns `false`.
    fn call(&mut self, end: usize, f: impl FnOnce(*const u16) -> bool) -> Result<(), u32> {
        let saved = self.units[end];
        self.units[end] = 0;
        let ok = f(self.units.as_ptr());
        self.units[end] = saved;
        if ok { Ok(()) } else { Err(last_error()) }
    }

    fn create(&mut self, end: usize) -> Result<(), u32> {
        // SAFETY: the path is NUL-terminated during the call; a null
        // security descriptor means the default one.
        self.call(end, |p| unsafe { CreateDirectoryW(p, ptr::null()) } != 0)
    }

    fn remove_dir(&mut self, end: usize) -> Result<(), u32> {
        // SAFETY: the path is NUL-terminated during the call.
        self.call(end, |p| unsafe { RemoveDirectoryW(p) } != 0)
    }

    fn delete_file(&mut self, end: usize) -> Result<(), u32> {
        // SAFETY: the path is NUL-terminated during the call.
        self.call(end, |p| unsafe { DeleteFileW(p) } != 0)
    }

    fn attributes(&mut self, end: usize) -> Result<u32, u32> {
        let mut attrs = INVALID_FILE_ATTRIBUTES;
        self.call(end, |p| {
            // SAFETY: the path is NUL-terminated during the call.
            attrs = unsafe { GetFileAttributesW(p) };
            attrs != INVALID_FILE_ATTRIBUTES
        })?;
        Ok(attrs)
    }

    /// Where the deepest existing directory on the path ends (0: none),
    /// given that the leaf is missing. An existing ancestor that is not a
    /// directory is `ERROR_DIRECTORY`, named.
    fn deepest_existing(&mut self) -> io::Result<usize> {
        let (mut exists, mut missing) = (0, self.len);
        while let Some(mid) = boundary_between(&self.units[..self.len], exists, missing) {
            match self.attributes(mid) {
                Ok(attrs) if attrs & FILE_ATTRIBUTE_DIRECTORY != 0 => exists = mid,
                Ok(_) => return Err(self.error(ERROR_DIRECTORY, mid)),
                Err(ERROR_FILE_NOT_FOUND | ERROR_PATH_NOT_FOUND | ERROR_DIRECTORY) => missing = mid,
                Err(code) => return Err(self.error(code, mid)),
            }
        }
        Ok(exists)
    }

    /// After `ERROR_ALREADY_EXISTS`: Ok if `units[..end]` is a directory.
    fn ensure_dir(&mut self, end: usize, is_leaf: bool) -> io::Result<()> {
        let attrs = self.attributes(end).map_err(|code| self.error(code, end))?;
        if attrs & FILE_ATTRIBUTE_DIRECTORY != 0 {
            Ok(())
        } else if is_leaf {
            Err(self.error(ERROR_ALREADY_EXISTS, end))
        } else {
            Err(self.error(ERROR_DIRECTORY, end))
        }
    }

    /// Lists the directory `units[..len]`, deleting each entry that is not
    /// a real directory (files, and links to directories, which are
    /// removed as links), until it meets a real directory: its name is
    /// appended and the new length returned. `None`: the directory is now
    /// empty.
    fn first_subdir(&mut self, len: usize) -> io::Result<Option<usize>> {
        if len + 3 > MAX_UNITS {
            return Err(self.error(ERROR_FILENAME_EXCED_RANGE, len));
        }
        self.units[len] = u16::from(b'\\');
        self.units[len + 1] = u16::from(b'*');
        self.units[len + 2] = 0;
        let mut data = WIN32_FIND_DATAW::default();
        // SAFETY: the pattern is NUL-terminated and `data` a valid out
        // pointer.
        let handle = unsafe { FindFirstFileW(self.units.as_ptr(), &mut data) };
        if handle == INVALID_HANDLE_VALUE {
            let code = last_error();
            return match code {
                ERROR_FILE_NOT_FOUND => Ok(None),
                _ => Err(self.error(code, len)),
            };
        }
        let find = Find(handle);
        loop {
            let name_len = data
                .cFileName
                .iter()
                .position(|&u| u == 0)
                .unwrap_or(data.cFileName.len());
            let name = &data.cFileName[..name_len];
            let dot = u16::from(b'.');
            if name != [dot] && name != [dot, dot] {
                let end = len + 1 + name_len;
                if end + 1 > MAX_UNITS {
                    return Err(self.error(ERROR_FILENAME_EXCED_RANGE, len));
                }
                self.units[len] = u16::from(b'\\');
                self.units[len + 1..end].copy_from_slice(name);
                let attrs = data.dwFileAttributes;
                let is_dir = attrs & FILE_ATTRIBUTE_DIRECTORY != 0;
                if is_dir && attrs & FILE_ATTRIBUTE_REPARSE_POINT == 0 {
                    return Ok(Some(end));
                }
                let removed = if is_dir {
                    self.remove_dir(end)
                } else {
                    self.delete_file(end)
                };
                match removed {
                    Ok(()) | Err(ERROR_FILE_NOT_FOUND) => {}
                    Err(code) => return Err(self.error(code, end)),
                }
            }
            // SAFETY: `find` is open and `data` a valid out pointer.
            if unsafe { FindNextFileW(find.0, &mut data) } == 0 {
                let code = last_error();
                return match code {
                    ERROR_NO_MORE_FILES => Ok(None),
                    _ => Err(self.error(code, len)),
                };
            }
        }
    }

    /// `code` at the component `units[..end]`.
    fn error(&self, code: u32, end: usize) -> io::Error {
        let name = OsString16(&self.units[..end]);
        os_error(code, format_args!("component '{name}'"))
    }
}

/// A UTF-16 path shown lossily.
struct OsString16<'a>(&'a [u16]);

impl fmt::Display for OsString16<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in char::decode_utf16(self.0.iter().copied()) {
            fmt::Write::write_char(f, c.unwrap_or(char::REPLACEMENT_CHARACTER))?;
        }
        Ok(())
    }
}

fn last_error() -> u32 {
    io::Error::last_os_error()
        .raw_os_error()
        .and_then(|code| u32::try_from(code).ok())
        .unwrap_or(0)
}

/// The OS error `code`, its text followed by `(detail)`, of the kind std
/// maps `code` to.
fn os_error(code: u32, detail: fmt::Arguments<'_>) -> io::Error {
    let os = io::Error::from_raw_os_error(i32::try_from(code).unwrap_or(i32::MAX));
    let text = os.to_string();
    let text = text.split(" (os error").next().unwrap_or(&text);
    io::Error::new(os.kind(), format!("{text} ({detail})"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roots_and_dot_components_name_no_entry() {
        for path in [
            "",
            "\\",
            "/",
            "C:\\",
            "C:/",
            "C:",
            "C:\\\\",
            "c:\\",
            "C:.",
            "C:..",
            "C:...",
            "C:\\ ",
            ".",
            "..",
            ".\\",
            "..\\",
            "...",
            " ",
            "foo\\.",
            "foo\\..",
            "foo\\..\\",
            "foo/..",
            "foo/./",
            "foo\\.. ",
            "C:\\foo\\..",
            "C:foo\\.",
            "\\\\server\\share",
            "\\\\server\\share\\",
            "//server/share/",
            "\\\\server\\share\\.",
            "\\\\server\\share\\dir\\..",
            "\\\\?\\C:\\",
            "\\\\?\\C:",
            "\\\\?\\C:\\/",
            "\\\\?\\C:\\foo\\.",
            "\\\\?\\C:\\foo\\..",
            "\\\\?\\UNC\\server\\share",
            "\\\\?\\UNC\\server\\share\\",
            "\\\\.\\C:\\",
            "\\\\.\\C:",
            "\\\\?\\GLOBALROOT\\Device\\HarddiskVolume1",
            "\\\\?\\GLOBALROOT\\Device\\HarddiskVolume1\\",
            "\\\\?\\globalroot\\Device",
            "\\\\.\\GLOBALROOT\\Device\\HarddiskVolume1",
        ] {
            assert!(names_no_entry(Path::new(path)), "{path:?}");
        }
    }

    #[test]
    fn names_in_a_parent_are_entries() {
        for path in [
            "foo",
            "foo\\",
            "foo\\bar",
            "..\\foo",
            ".\\foo",
            "foo\\..\\bar",
            "foo\\...bar",
            "foo\\.bar",
            "C:foo",
            "C:\\foo",
            "C:/foo/",
            "\\foo",
            "\\\\server\\share\\dir",
            "\\\\?\\C:\\foo",
            "\\\\?\\C:\\...",
            "\\\\?\\C:\\foo ",
            "\\\\?\\UNC\\server\\share\\dir",
            "\\\\?\\GLOBALROOT\\Device\\HarddiskVolume1\\foo",
        ] {
            assert!(!names_no_entry(Path::new(path)), "{path:?}");
        }
    }
}
