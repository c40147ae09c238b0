//! Recursive create and remove of directories, on the `*at` system calls,
//! with no heap allocation.
//!
//! <https://man7.org/linux/man-pages/man2/mkdirat.2.html>,
//! <https://man7.org/linux/man-pages/man2/openat.2.html>,
//! <https://man7.org/linux/man-pages/man2/getdents64.2.html>,
//! <https://man7.org/linux/man-pages/man2/unlinkat.2.html>
//!
//! A path goes to the kernel from a stack buffer of `PATH_MAX` bytes. A
//! longer path is cut at a `/` into pieces that fit: each piece but the last
//! is opened with `O_PATH` and the next one is looked up relative to it, so
//! any length works without the heap.

use std::ffi::{OsStr, c_char, c_int};
use std::fmt;
use std::io;
use std::mem;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

/// The size of the stack buffer, NUL included (`ENAMETOOLONG` beyond it).
const PATH_MAX: usize = libc::PATH_MAX as usize;

/// The longest file name, not counting the NUL.
const NAME_MAX: usize = 255;

/// How many directory levels `remove_dir_all` keeps open at once (each a
/// descriptor and a name: 33 KiB of stack in all). Deeper levels are closed
/// as it descends, and reached again from the top.
const HELD_LEVELS: usize = 128;

/// Creates `path` and every missing ancestor.
pub(crate) fn create_dir_all(path: &Path) -> io::Result<()> {
    let whole = checked(path)?;
    let whole = trim_trailing_slashes(whole);
    if whole.is_empty() || whole.iter().all(|&b| b == b'/') {
        // "" is std's no-op, and "/" always exists.
        return Ok(());
    }
    let (base, start) = walk_long(whole, true)?;
    let mut tail = CPath::new(&whole[start..]);
    create_at(raw(&base), &mut tail, whole, start, true)
}

/// Creates `path`, whose parent must exist.
pub(crate) fn create_dir(path: &Path) -> io::Result<()> {
    let whole = checked(path)?;
    let (base, start) = walk_long(whole, false)?;
    let mut tail = CPath::new(&whole[start..]);
    let len = tail.len;
    tail.mkdir(raw(&base), len)
        .map_err(|code| component_error(code, whole, whole.len()))
}

/// Removes the file or symbolic link `path`, never a directory.
pub(crate) fn remove_file(path: &Path) -> io::Result<()> {
    let whole = checked(path)?;
    let (base, start) = walk_long(whole, false)?;
    let tail = CPath::new(&whole[start..]);
    // SAFETY: `tail` is NUL-terminated and outlives the call; the base is
    // AT_FDCWD or a descriptor we own.
    syscall!(unlinkat(raw(&base), tail.as_ptr(), 0))
        .map(drop)
        .map_err(|e| path_error(e, whole))
}

/// Removes `path` and everything under it, following no symbolic link.
pub(crate) fn remove_dir_all(path: &Path) -> io::Result<()> {
    let whole = trim_trailing_slashes(checked(path)?);
    let last = whole.rsplit(|&b| b == b'/').next().unwrap_or_default();
    if last.is_empty() || last == b"." || last == b".." {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "refusing to remove '{}': it names no entry of a parent",
                display(path.as_os_str().as_bytes())
            ),
        ));
    }
    let (base, start) = walk_long(whole, false)?;
    let dir = raw(&base);
    let tail = CPath::new(&whole[start..]);
    // O_NOFOLLOW makes a symbolic link here fail with ELOOP instead of
    // opening its target; every open below is relative to its parent's
    // descriptor, so no path is looked up twice (CVE-2022-21658).
    let flags = libc::O_RDONLY | libc::O_DIRECTORY | libc::O_NOFOLLOW | libc::O_CLOEXEC;
    // SAFETY: `tail` is NUL-terminated and outlives the call.
    let root = match syscall!(openat(dir, tail.as_ptr(), flags)) {
        Ok(fd) => Fd(fd),
        Err(e) if matches!(e.raw_os_error(), Some(libc::ELOOP | libc::ENOTDIR)) => {
            let st = lstat_at(dir, tail.as_ptr()).map_err(|e| path_error(e, whole))?;
            if st.st_mode & libc::S_IFMT != libc::S_IFLNK {
                return Err(path_error(e, whole));
            }
            // SAFETY: as for `openat` above.
            return syscall!(unlinkat(dir, tail.as_ptr(), 0))
                .map(drop)
                .map_err(|e| path_error(e, whole));
        }
        Err(e) => return Err(path_error(e, whole)),
    };
    empty_dir(&root, whole)?;
    drop(root);
    // SAFETY: as for `openat` above.
    syscall!(unlinkat(dir, tail.as_ptr(), libc::AT_REMOVEDIR))
        .map(drop)
        .map_err(|e| path_error(e, whole))
}

/// The path's bytes, refused when they hold a NUL (C would cut the path there).
fn checked(path: &Path) -> io::Result<&[u8]> {
    let bytes = path.as_os_str().as_bytes();
    if bytes.contains(&0) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "path contains a NUL byte",
        ));
    }
    Ok(bytes)
}

fn trim_trailing_slashes(bytes: &[u8]) -> &[u8] {
    match bytes.iter().rposition(|&b| b != b'/') {
        Some(last) => &bytes[..=last],
        // All slashes: keep one, the root.
        None => &bytes[..bytes.len().min(1)],
    }
}

/// Opens the leading pieces of a path longer than the buffer, creating
/// them first when `create` is set, and returns the directory the rest is
/// relative to (`None`: the working directory) and where the rest starts.
fn walk_long(whole: &[u8], create: bool) -> io::Result<(Option<Fd>, usize)> {
    let mut base = None;
    let mut start = 0;
    while whole.len() - start >= PATH_MAX {
        let rest = &whole[start..];
        let cut = rest[..PATH_MAX - 1]
            .iter()
            .rposition(|&b| b == b'/')
            .filter(|&cut| rest[..cut].iter().any(|&b| b != b'/'))
            .ok_or_else(|| component_error(libc::ENAMETOOLONG, whole, start + PATH_MAX))?;
        let mut piece = CPath::new(&rest[..cut]);
        if create {
            create_at(raw(&base), &mut piece, whole, start, false)?;
        }
        let flags = libc::O_PATH | libc::O_DIRECTORY | libc::O_CLOEXEC;
        // SAFETY: `piece` is NUL-terminated and outlives the call.
        let fd = syscall!(openat(raw(&base), piece.as_ptr(), flags))
            .map_err(|e| component_error(errno(&e), whole, start + cut))?;
        base = Some(Fd(fd));
        start += cut;
        while whole.get(start) == Some(&b'/') {
            start += 1;
        }
    }
    Ok((base, start))
}

/// `mkdir -p` of `path` (no trailing slash) relative to `dir`. The leaf is
/// tried first; only when a parent is missing does it look for the deepest
/// ancestor that exists, by bisection with `fstatat` (existence is monotone
/// along a path), and create forward from there. A fresh chain of `d`
/// directories costs `d + 1` `mkdir` calls and about `log2(d)` `fstatat`s.
/// `whole[start..]` is `path`, for the messages. `leaf_is_target`: a
/// non-directory at the leaf is `AlreadyExists` rather than
/// `NotADirectory`.
fn create_at(
    dir: c_int,
    path: &mut CPath,
    whole: &[u8],
    start: usize,
    leaf_is_target: bool,
) -> io::Result<()> {
    let len = path.len;
    let mut end = match path.mkdir(dir, len) {
        Ok(()) => return Ok(()),
        Err(libc::EEXIST) => return ensure_dir(dir, path, len, whole, start, leaf_is_target),
        // ENOTDIR: a file stands in the way; the bisection finds it.
        Err(libc::ENOENT | libc::ENOTDIR) => deepest_existing(dir, path, whole, start)?,
        Err(code) => return Err(component_error(code, whole, start + len)),
    };
    while let Some(next) = next_end(&path.buf[..len], end) {
        end = next;
        match path.mkdir(dir, end) {
            Ok(()) => {}
            // Another thread or process made it between our calls: fine if
            // it is a directory.
            Err(libc::EEXIST) => {
                ensure_dir(dir, path, end, whole, start, leaf_is_target && end == len)?
            }
            Err(code) => return Err(component_error(code, whole, start + end)),
        }
    }
    Ok(())
}

/// Where the deepest existing directory on `path` ends (0: `dir` itself),
/// given that the leaf is missing. An existing ancestor that is not a
/// directory is `NotADirectory`, named.
fn deepest_existing(dir: c_int, path: &mut CPath, whole: &[u8], start: usize) -> io::Result<usize> {
    let (mut exists, mut missing) = (0, path.len);
    while let Some(mid) = boundary_between(&path.buf[..path.len], exists, missing) {
        // SAFETY: `stat` is plain integers, for which zeroes are valid.
        let mut st: libc::stat = unsafe { mem::zeroed() };
        // SAFETY: the prefix is NUL-terminated while the closure runs, and
        // `st` is a valid out pointer.
        match path.with_prefix(mid, |p| syscall!(fstatat(dir, p, &mut st, 0))) {
            Ok(_) if st.st_mode & libc::S_IFMT == libc::S_IFDIR => exists = mid,
            Ok(_) => return Err(component_error(libc::ENOTDIR, whole, start + mid)),
            Err(e) if matches!(errno(&e), libc::ENOENT | libc::ENOTDIR) => missing = mid,
            Err(e) => return Err(component_error(errno(&e), whole, start + mid)),
        }
    }
    Ok(exists)
}

/// The end of a component strictly between `lo` and `hi`, near the middle.
fn boundary_between(path: &[u8], lo: usize, hi: usize) -> Option<usize> {
    let is_end = |i: usize| path[i - 1] != b'/' && (i == path.len() || path[i] == b'/');
    let mid = lo + (hi - lo) / 2;
    (mid.max(lo + 1)..hi)
        .find(|&i| is_end(i))
        .or_else(|| (lo + 1..mid).rev().find(|&i| is_end(i)))
}

/// After `EEXIST`: Ok if `path[..end]` is a directory (or a link to one).
fn ensure_dir(
    dir: c_int,
    path: &mut CPath,
    end: usize,
    whole: &[u8],
    start: usize,
    is_leaf: bool,
) -> io::Result<()> {
    // SAFETY: `stat` is plain integers, for which zeroes are valid.
    let mut st: libc::stat = unsafe { mem::zeroed() };
    // SAFETY: the prefix is NUL-terminated while the closure runs, and `st`
    // is a valid out pointer.
    path.with_prefix(end, |p| syscall!(fstatat(dir, p, &mut st, 0)))
        .map_err(|e| component_error(errno(&e), whole, start + end))?;
    if st.st_mode & libc::S_IFMT == libc::S_IFDIR {
        Ok(())
    } else if is_leaf {
        Err(component_error(libc::EEXIST, whole, start + end))
    } else {
        Err(component_error(libc::ENOTDIR, whole, start + end))
    }
}

/// Where the component after `path[..end]` ends, or `None` at the leaf.
fn next_end(path: &[u8], end: usize) -> Option<usize> {
    let mut i = end;
    while i < path.len() && path[i] == b'/' {
        i += 1;
    }
    if i == path.len() {
        return None;
    }
    while i < path.len() && path[i] != b'/' {
        i += 1;
    }
    Some(i)
}

/// One directory level below the top that `empty_dir` holds open: the
/// descriptor and the name in its parent, NUL-terminated.
struct Level {
    fd: Fd,
    name: [u8; NAME_MAX + 1],
}

/// Removes everything in the directory `top` (opened from `whole`).
///
/// Depth-first and iterative: it descends into the first subdirectory it
/// meets, unlinking the other entries on the way, and removes a directory
/// once it is empty. The `HELD_LEVELS` deepest levels stay open, in a ring;
/// when the walk climbs above them, it starts again from `top` (whatever it
/// already removed is gone, so that costs only the re-descent). A directory
/// is re-read from its start after each child, rather than keeping a buffer
/// per level. Every open is `O_NOFOLLOW` relative to the parent's
/// descriptor, so a symbolic link swapped in is unlinked, never entered.
fn empty_dir(top: &Fd, whole: &[u8]) -> io::Result<()> {
    let mut levels: [Option<Level>; HELD_LEVELS] = [const { None }; HELD_LEVELS];
    let mut depth = 0;
    let mut held = 0;
    let mut dents = DirentBuf([0; 8192]);
    let mut name = [0u8; NAME_MAX + 1];
    loop {
        let cur = match depth {
            0 => top.0,
            _ => match &levels[depth % HELD_LEVELS] {
                Some(level) => level.fd.0,
                None => unreachable!("levels above `held` are never read"),
            },
        };
        if first_subdir(cur, &mut dents, &mut name, whole)? {
            let flags = libc::O_RDONLY | libc::O_DIRECTORY | libc::O_NOFOLLOW | libc::O_CLOEXEC;
            // SAFETY: `name` is NUL-terminated and outlives the call; `cur`
            // is open.
            match syscall!(openat(cur, name.as_ptr().cast(), flags)) {
                Ok(fd) => {
                    depth += 1;
                    held = (held + 1).min(HELD_LEVELS);
                    // Replacing the slot closes the level `HELD_LEVELS` up.
                    levels[depth % HELD_LEVELS] = Some(Level { fd: Fd(fd), name });
                }
                // Swapped for a symbolic link or a file since it was read:
                // unlink that instead.
                Err(e) if matches!(errno(&e), libc::ELOOP | libc::ENOTDIR) => {
                    unlink_entry(cur, &name, 0, whole)?
                }
                Err(e) if errno(&e) == libc::ENOENT => {}
                Err(e) => return Err(entry_error(errno(&e), &name, whole)),
            }
            continue;
        }
        if depth == 0 {
            return Ok(());
        }
        let Some(done) = levels[depth % HELD_LEVELS].take() else {
            unreachable!("the current level is held")
        };
        depth -= 1;
        held -= 1;
        let parent = match depth {
            0 => top.0,
            _ if held == 0 => {
                // The parent was closed on the way down: start again from
                // the top, which leads back here with the parent held.
                depth = 0;
                continue;
            }
            _ => match &levels[depth % HELD_LEVELS] {
                Some(level) => level.fd.0,
                None => unreachable!("a held level is in the ring"),
            },
        };
        drop(done.fd);
        unlink_entry(parent, &done.name, libc::AT_REMOVEDIR, whole)?;
    }
}

/// Reads `dir` from its start, unlinking every entry that is not a
/// directory, until it meets a directory: its name goes to `name` and the
/// answer is `true`. `false`: `dir` is now empty.
fn first_subdir(
    dir: c_int,
    dents: &mut DirentBuf,
    name: &mut [u8; NAME_MAX + 1],
    whole: &[u8],
) -> io::Result<bool> {
    // SAFETY: `dir` is an open directory; rewinding restarts its listing.
    syscall!(lseek(dir, 0, libc::SEEK_SET)).map_err(|e| path_error(e, whole))?;
    loop {
        // SAFETY: the buffer is writable for its whole length and aligned
        // for `linux_dirent64`; getdents64 has no glibc wrapper before 2.30.
        let read = syscall!(syscall(
            libc::SYS_getdents64,
            dir,
            dents.0.as_mut_ptr(),
            dents.0.len()
        ))
        .map_err(|e| path_error(e, whole))?;
        if read == 0 {
            return Ok(false);
        }
        let filled = &dents.0[..usize::try_from(read).unwrap_or(0)];
        let mut at = 0;
        while at < filled.len() {
            let entry = Dirent::at(filled, at).ok_or_else(|| {
                io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!("malformed directory listing under '{}'", display(whole)),
                )
            })?;
            at += entry.len;
            if entry.name == b"." || entry.name == b".." {
                continue;
            }
            name.fill(0);
            name[..entry.name.len()].copy_from_slice(entry.name);
            let is_dir = match entry.kind {
                libc::DT_DIR => true,
                // Some file systems (XFS without ftype, some FUSE) leave the
                // type out of the listing.
                libc::DT_UNKNOWN => match lstat_at(dir, name.as_ptr().cast()) {
                    Ok(st) => st.st_mode & libc::S_IFMT == libc::S_IFDIR,
                    Err(e) if errno(&e) == libc::ENOENT => continue,
                    Err(e) => return Err(entry_error(errno(&e), name, whole)),
                },
                _ => false,
            };
            if is_dir {
                return Ok(true);
            }
            // SAFETY: `name` is NUL-terminated and outlives the call.
            match syscall!(unlinkat(dir, name.as_ptr().cast(), 0)) {
                Ok(_) => {}
                Err(e) if errno(&e) == libc::ENOENT => {}
                // Replaced by a directory since it was read.
                Err(e) if errno(&e) == libc::EISDIR => return Ok(true),
                Err(e) => return Err(entry_error(errno(&e), name, whole)),
            }
        }
    }
}

/// `unlinkat(dir, name, flags)`, where an entry already gone is fine, and
/// so is a directory that is not empty (something was added to it: the
/// walk reads it again).
fn unlink_entry(
    dir: c_int,
    name: &[u8; NAME_MAX + 1],
    flags: c_int,
    whole: &[u8],
) -> io::Result<()> {
    // SAFETY: `name` is NUL-terminated and outlives the call.
    match syscall!(unlinkat(dir, name.as_ptr().cast(), flags)) {
        Ok(_) => Ok(()),
        Err(e) if matches!(errno(&e), libc::ENOENT | libc::ENOTEMPTY | libc::EEXIST) => Ok(()),
        Err(e) => Err(entry_error(errno(&e), name, whole)),
    }
}

/// `fstatat(dir, name, AT_SYMLINK_NOFOLLOW)`.
fn lstat_at(dir: c_int, name: *const c_char) -> io::Result<libc::stat> {
    // SAFETY: `stat` is plain integers, for which zeroes are valid.
    let mut st: libc::stat = unsafe { mem::zeroed() };
    // SAFETY: the caller passes a NUL-terminated name; `st` is a valid out
    // pointer.
    syscall!(fstatat(dir, name, &mut st, libc::AT_SYMLINK_NOFOLLOW))?;
    Ok(st)
}

/// The byte buffer `getdents64` fills, aligned for its records.
#[repr(C, align(8))]
struct DirentBuf([u8; 8192]);

/// One `linux_dirent64` record, read field by field from the bytes.
struct Dirent<'a> {
    len: usize,
    kind: u8,
    name: &'a [u8],
}

impl<'a> Dirent<'a> {
    /// The record at `at`: `d_ino: u64, d_off: i64, d_reclen: u16,
    /// d_type: u8, d_name: [u8]` (NUL-terminated, then padding).
    fn at(buf: &'a [u8], at: usize) -> Option<Dirent<'a>> {
        const NAME: usize = 19;
        let head = buf.get(at..at + NAME)?;
        let len = usize::from(u16::from_ne_bytes([head[16], head[17]]));
        let record = buf.get(at..at + len).filter(|_| len > NAME)?;
        let name = &record[NAME..];
        let name = &name[..name.iter().position(|&b| b == 0)?];
        (name.len() <= NAME_MAX).then_some(Dirent {
            len,
            kind: head[18],
            name,
        })
    }
}

/// A path (or the tail of a long one), NUL-terminated for the kernel.
struct CPath {
    buf: [u8; PATH_MAX],
    len: usize,
}

impl CPath {
    /// Copies `bytes`, which the callers keep shorter than `PATH_MAX`.
    fn new(bytes: &[u8]) -> CPath {
        let mut buf = [0; PATH_MAX];
        let len = bytes.len().min(PATH_MAX - 1);
        buf[..len].copy_from_slice(&bytes[..len]);
        CPath { buf, len }
    }

    fn as_ptr(&self) -> *const c_char {
        self.buf.as_ptr().cast()
    }

    /// Runs `f` on `buf[..end]`, NUL-terminated for the call.
    fn with_prefix<T>(&mut self, end: usize, f: impl FnOnce(*const c_char) -> T) -> T {
        let saved = self.buf[end];
        self.buf[end] = 0;
        let out = f(self.buf.as_ptr().cast());
        self.buf[end] = saved;
        out
    }

    /// `mkdirat(dir, buf[..end], 0o777)`, failing with the bare errno so
    /// that the expected `ENOENT` and `EEXIST` build no message.
    fn mkdir(&mut self, dir: c_int, end: usize) -> Result<(), c_int> {
        // SAFETY: the prefix is NUL-terminated while the closure runs.
        self.with_prefix(end, |p| syscall!(mkdirat(dir, p, 0o777)))
            .map(drop)
            .map_err(|e| errno(&e))
    }
}

/// An open file descriptor, closed on drop.
struct Fd(c_int);

impl Drop for Fd {
    fn drop(&mut self) {
        // SAFETY: we own the descriptor and nothing uses it after this. An
        // error from close (EINTR) leaves nothing to retry on Linux.
        let _ = syscall!(close(self.0));
    }
}

/// The descriptor a relative path starts from.
fn raw(base: &Option<Fd>) -> c_int {
    base.as_ref().map_or(libc::AT_FDCWD, |fd| fd.0)
}

fn errno(e: &io::Error) -> c_int {
    e.raw_os_error().unwrap_or(libc::EIO)
}

fn display(bytes: &[u8]) -> std::path::Display<'_> {
    Path::new(OsStr::from_bytes(bytes)).display()
}

/// The OS error `code`, its text followed by `(detail)`, of the kind std
/// maps `code` to.
fn os_error(code: c_int, detail: fmt::Arguments<'_>) -> io::Error {
    let os = io::Error::from_raw_os_error(code);
    let text = os.to_string();
    let text = text.split(" (os error").next().unwrap_or(&text);
    io::Error::new(os.kind(), format!("{text} ({detail})"))
}

/// `code` at the component `whole[..end]`.
fn component_error(code: c_int, whole: &[u8], end: usize) -> io::Error {
    let end = end.min(whole.len());
    os_error(code, format_args!("component '{}'", display(&whole[..end])))
}

/// `e` at the path `whole` itself.
fn path_error(e: io::Error, whole: &[u8]) -> io::Error {
    os_error(errno(&e), format_args!("path '{}'", display(whole)))
}

/// `code` at the entry `name` somewhere under `whole`.
fn entry_error(code: c_int, name: &[u8; NAME_MAX + 1], whole: &[u8]) -> io::Error {
    let len = name.iter().position(|&b| b == 0).unwrap_or(name.len());
    os_error(
        code,
        format_args!(
            "entry '{}' under '{}'",
            display(&name[..len]),
            display(whole)
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::{NAME_MAX, boundary_between, component_error, entry_error, next_end};
    use std::io;

    #[test]
    fn boundary_between_finds_component_ends_only() {
        assert_eq!(boundary_between(b"a//b", 0, 4), Some(1));
        assert_eq!(boundary_between(b"/a", 0, 2), None);
        assert_eq!(boundary_between(b"a", 0, 1), None);
        assert_eq!(boundary_between(b"a/b/c", 0, 5), Some(3));
        assert_eq!(boundary_between(b"a/b/c", 3, 5), None);
        assert_eq!(boundary_between(b"aaaa/b/c", 0, 8), Some(4));
        assert_eq!(boundary_between(b"aaaa/b/c", 4, 8), Some(6));
        assert_eq!(boundary_between(b"a/bbbbbbbb/c", 0, 12), Some(10));
        assert_eq!(boundary_between(b"a/bbbbbbbb/c", 0, 10), Some(1));
    }

    #[test]
    fn next_end_stops_at_the_leaf() {
        assert_eq!(next_end(b"a//b", 1), Some(4));
        assert_eq!(next_end(b"a/b", 3), None);
    }

    #[test]
    fn errors_name_the_entry_or_the_component() {
        let mut name = [0; NAME_MAX + 1];
        name[..5].copy_from_slice(b"stuck");
        let e = entry_error(libc::EBUSY, &name, b"/top");
        assert!(
            e.to_string().ends_with("(entry 'stuck' under '/top')"),
            "{e}"
        );
        let e = component_error(libc::ENOTDIR, b"/a/file/b", 7);
        assert_eq!(e.kind(), io::ErrorKind::NotADirectory);
        assert!(e.to_string().ends_with("(component '/a/file')"), "{e}");
        let e = component_error(libc::ENOENT, b"/a", 99);
        assert!(e.to_string().ends_with("(component '/a')"), "{e}");
    }
}
