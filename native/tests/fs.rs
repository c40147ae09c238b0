//! `leanwire_native::fs`: recursive create and remove of directories, each
//! test in a fresh directory under the system temp dir.
//!
//! On Linux all of them run; on Windows (under Wine in `scripts/test`) those
//! that need no unix symbolic links or modes, and no paths past `PATH_MAX`,
//! which the Windows backend refuses by design.
#![cfg(any(target_os = "linux", target_os = "android", windows))]

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Barrier};
use std::thread;

use leanwire_native::fs::{create_dir_all, remove_dir_all};

/// A fresh, empty directory, removed (with std) when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(test: &str) -> Scratch {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir =
            std::env::temp_dir().join(format!("leanwire-fs-{test}-{}-{n}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir(&dir).unwrap();
        Scratch(dir)
    }

    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// `depth` components of `d123456789`, relative.
fn chain(depth: usize) -> PathBuf {
    (0..depth).map(|_| "d123456789").collect()
}

/// Every entry under `dir`, as sorted relative paths with a trailing `/`
/// on directories.
fn listing(dir: &Path) -> Vec<String> {
    fn walk(top: &Path, dir: &Path, out: &mut Vec<String>) {
        for entry in fs::read_dir(dir).unwrap() {
            let entry = entry.unwrap();
            let path = entry.path();
            let rel = path.strip_prefix(top).unwrap().to_str().unwrap();
            let rel = rel.replace(std::path::MAIN_SEPARATOR, "/");
            if entry.file_type().unwrap().is_dir() {
                out.push(rel + "/");
                walk(top, &path, out);
            } else {
                out.push(rel);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

/// How many single-directory levels hang below `top`, each checked to be
/// named `d123456789` and to hold nothing else. Renames each level to `s`
/// on the way, which keeps std's paths short past `PATH_MAX`.
fn count_levels(top: &Path) -> usize {
    let mut levels = 0;
    let mut dir = top.to_owned();
    loop {
        let entries: Vec<_> = fs::read_dir(&dir).unwrap().map(Result::unwrap).collect();
        match entries.as_slice() {
            [] => return levels,
            [entry] => {
                assert_eq!(entry.file_name(), "d123456789", "{}", dir.display());
                assert!(entry.file_type().unwrap().is_dir());
                let short = dir.join("s");
                fs::rename(entry.path(), &short).unwrap();
                dir = short;
                levels += 1;
            }
            more => panic!("unexpected entries {more:?} in {}", dir.display()),
        }
    }
}

fn create_then_remove(depth: usize) {
    let scratch = Scratch::new(&format!("depth{depth}"));
    let top = scratch.path().join("top");
    let leaf = top.join(chain(depth));
    create_dir_all(&leaf).unwrap();
    // Creating it again is a no-op success.
    create_dir_all(&leaf).unwrap();
    assert_eq!(count_levels(&top), depth);
    remove_dir_all(&top).unwrap();
    assert_eq!(listing(scratch.path()), Vec::<String>::new());
}

#[test]
fn depth_1() {
    create_then_remove(1);
}

#[test]
fn depth_10() {
    create_then_remove(10);
}

#[test]
fn depth_100() {
    create_then_remove(100);
}

#[test]
#[cfg(unix)]
fn depth_1000_beyond_path_max() {
    let path = chain(1000);
    assert!(path.as_os_str().len() > 4096);
    create_then_remove(1000);
}

#[test]
#[cfg(unix)]
fn paths_beyond_path_max_in_both_calls() {
    let scratch = Scratch::new("longpaths");
    let top = scratch.path().join("top");
    create_dir_all(top.join(chain(1000))).unwrap();
    // Extending an existing deep chain by one level.
    create_dir_all(top.join(chain(1001))).unwrap();
    // Removing from level 600 down, by a path of over 6,000 bytes.
    remove_dir_all(top.join(chain(600))).unwrap();
    assert_eq!(count_levels(&top), 599);
    remove_dir_all(&top).unwrap();
    assert_eq!(listing(scratch.path()), Vec::<String>::new());
}

/// A path with a `/` at byte 4096, Linux's `PATH_MAX`: the piece before that
/// `/` would need one byte more than the buffer holds, with its NUL, so the
/// path must be cut at an earlier `/`.
#[test]
#[cfg(unix)]
fn a_slash_at_path_max_is_not_where_the_path_is_cut() {
    const PATH_MAX: usize = 4096;
    let scratch = Scratch::new("cut");
    let mut path = scratch.path().to_str().unwrap().to_owned();
    while PATH_MAX - path.len() > 256 {
        path.push('/');
        path.push_str(&"p".repeat(200));
    }
    let parent = path.clone();
    let last = "f".repeat(PATH_MAX - path.len() - 1);
    path.push('/');
    path.push_str(&last);
    path.push_str("/leaf");
    assert_eq!(path.as_bytes()[PATH_MAX], b'/');
    create_dir_all(&path).unwrap();
    let names: Vec<_> = fs::read_dir(&parent)
        .unwrap()
        .map(|entry| entry.unwrap().file_name())
        .collect();
    assert_eq!(names, [last.as_str()]);
}

#[test]
fn the_empty_path_is_success() {
    create_dir_all("").unwrap();
}

#[test]
#[cfg(unix)]
fn the_root_is_success_however_many_slashes_name_it() {
    for root in ["/", "//", "///"] {
        create_dir_all(root).unwrap_or_else(|e| panic!("{root:?}: {e}"));
    }
}

#[test]
fn existing_prefix_is_kept_and_extended() {
    let scratch = Scratch::new("prefix");
    let base = scratch.path();
    fs::create_dir_all(base.join("a/b")).unwrap();
    fs::write(base.join("a/b/keep"), "x").unwrap();
    create_dir_all(base.join("a/b/c/d")).unwrap();
    create_dir_all(base.join("a//b/./c/d/")).unwrap();
    assert_eq!(
        listing(base),
        ["a/", "a/b/", "a/b/c/", "a/b/c/d/", "a/b/keep"]
    );
    assert_eq!(fs::read_to_string(base.join("a/b/keep")).unwrap(), "x");
}

#[test]
fn file_in_the_way_is_not_a_directory_and_named() {
    let scratch = Scratch::new("file");
    let base = scratch.path();
    fs::create_dir(base.join("x")).unwrap();
    fs::write(base.join("x/f"), "").unwrap();
    let err = create_dir_all(base.join("x/f/y/z")).unwrap_err();
    assert_eq!(err.kind(), io::ErrorKind::NotADirectory, "{err}");
    let named = format!("'{}'", base.join("x/f").display());
    assert!(err.to_string().contains(&named), "{err}");
    assert_eq!(listing(base), ["x/", "x/f"]);

    // The leaf itself being a file: it exists, as something else.
    let err = create_dir_all(base.join("x/f")).unwrap_err();
    assert_eq!(err.kind(), io::ErrorKind::AlreadyExists, "{err}");
    assert!(err.to_string().contains(&named), "{err}");
    assert_eq!(listing(base), ["x/", "x/f"]);
}

#[test]
#[cfg(unix)]
fn name_too_long_is_invalid_filename() {
    let scratch = Scratch::new("toolong");
    let long = "n".repeat(300);
    let err = create_dir_all(scratch.path().join("a").join(&long).join("b")).unwrap_err();
    assert_eq!(err.kind(), io::ErrorKind::InvalidFilename, "{err}");
    assert!(err.to_string().contains(&long), "{err}");
    assert_eq!(listing(scratch.path()), ["a/"]);

    // The leaf alone too long, under a parent that exists.
    let err = create_dir_all(scratch.path().join(&long)).unwrap_err();
    assert_eq!(err.kind(), io::ErrorKind::InvalidFilename, "{err}");
    assert!(err.to_string().contains(&long), "{err}");
    assert_eq!(listing(scratch.path()), ["a/"]);
}

/// A symbolic link to nothing at the leaf exists as an entry, but is no
/// directory: the error names it, and nothing is made where it points.
#[test]
#[cfg(unix)]
fn a_dangling_link_at_the_leaf_is_named_and_not_followed() {
    let scratch = Scratch::new("dangling");
    let link = scratch.path().join("link");
    std::os::unix::fs::symlink(scratch.path().join("nowhere"), &link).unwrap();
    let err = create_dir_all(&link).unwrap_err();
    assert_eq!(err.kind(), io::ErrorKind::NotFound, "{err}");
    let named = format!("component '{}'", link.display());
    assert!(err.to_string().contains(&named), "{err}");
    assert_eq!(listing(scratch.path()), ["link"]);
}

/// A name longer than the whole buffer leaves no `/` to cut at: the path is
/// opened up to the name's parent, and the error names the path from there
/// up to the buffer's size. Nothing is made.
#[test]
#[cfg(unix)]
fn a_name_longer_than_path_max_is_named_up_to_the_buffer() {
    let scratch = Scratch::new("hugename");
    let parent = format!("{}/", scratch.path().to_str().unwrap());
    let path = format!("{parent}{}", "n".repeat(5000));
    for err in [
        create_dir_all(&path).unwrap_err(),
        remove_dir_all(&path).unwrap_err(),
    ] {
        assert_eq!(err.kind(), io::ErrorKind::InvalidFilename, "{err}");
        let named = format!("component '{}'", &path[..parent.len() + 4096]);
        assert!(err.to_string().contains(&named), "{err}");
    }
    assert_eq!(listing(scratch.path()), Vec::<String>::new());
}

/// A file where a long path is cut: the piece before the cut is opened as a
/// directory, and the file is named as the component in the way.
#[test]
#[cfg(unix)]
fn a_file_where_a_long_path_is_cut_is_not_a_directory() {
    let scratch = Scratch::new("longfile");
    let mut dirs = scratch.path().to_str().unwrap().to_owned();
    while dirs.len() + 101 <= 3900 {
        dirs.push('/');
        dirs.push_str(&"p".repeat(100));
    }
    fs::create_dir_all(&dirs).unwrap();
    let file = format!("{dirs}/{}", "f".repeat(4000 - dirs.len() - 1));
    fs::write(&file, "kept").unwrap();
    let path = format!("{file}/{}/x", "q".repeat(250));
    for err in [
        create_dir_all(&path).unwrap_err(),
        remove_dir_all(&path).unwrap_err(),
    ] {
        assert_eq!(err.kind(), io::ErrorKind::NotADirectory, "{err}");
        assert!(
            err.to_string().contains(&format!("component '{file}'")),
            "{err}"
        );
    }
    assert_eq!(fs::read_to_string(&file).unwrap(), "kept");
}

#[test]
#[cfg(unix)]
fn read_only_parent() {
    use std::os::unix::fs::PermissionsExt;

    let scratch = Scratch::new("readonly");
    let ro = scratch.path().join("ro");
    fs::create_dir(&ro).unwrap();
    fs::set_permissions(&ro, fs::Permissions::from_mode(0o555)).unwrap();
    let result = create_dir_all(ro.join("a/b"));
    // Root bypasses the mode bits (CAP_DAC_OVERRIDE): there the same call
    // must succeed, so either way the outcome is asserted.
    // The owner of /proc/self is the effective user of this process.
    let root = std::os::unix::fs::MetadataExt::uid(&fs::metadata("/proc/self").unwrap()) == 0;
    if root {
        result.unwrap();
        assert!(ro.join("a/b").is_dir());
    } else {
        let err = result.unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::PermissionDenied, "{err}");
        let named = format!("'{}'", ro.join("a").display());
        assert!(err.to_string().contains(&named), "{err}");
        assert_eq!(listing(&ro), Vec::<String>::new());
    }
    fs::set_permissions(&ro, fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn eight_threads_create_the_same_tree() {
    let scratch = Scratch::new("threads");
    let leaf = scratch.path().join("t").join(chain(20));
    for _ in 0..20 {
        let _ = fs::remove_dir_all(scratch.path().join("t"));
        let barrier = Arc::new(Barrier::new(8));
        let handles: Vec<_> = (0..8)
            .map(|_| {
                let (leaf, barrier) = (leaf.clone(), Arc::clone(&barrier));
                thread::spawn(move || {
                    barrier.wait();
                    create_dir_all(&leaf)
                })
            })
            .collect();
        for handle in handles {
            handle.join().unwrap().unwrap();
        }
        assert!(leaf.is_dir());
        assert_eq!(listing(&scratch.path().join("t")).len(), 20);
    }
}

#[test]
#[cfg(unix)]
fn symlink_inside_is_unlinked_not_followed() {
    let scratch = Scratch::new("symlink");
    let base = scratch.path();
    fs::create_dir_all(base.join("outside/sub")).unwrap();
    fs::write(base.join("outside/keep"), "k").unwrap();
    fs::write(base.join("outside/sub/keep"), "k").unwrap();
    fs::create_dir_all(base.join("tree/a")).unwrap();
    fs::write(base.join("tree/a/file"), "f").unwrap();
    std::os::unix::fs::symlink(base.join("outside"), base.join("tree/a/link")).unwrap();
    std::os::unix::fs::symlink("../../outside/keep", base.join("tree/a/filelink")).unwrap();
    remove_dir_all(base.join("tree")).unwrap();
    assert_eq!(
        listing(base),
        [
            "outside/",
            "outside/keep",
            "outside/sub/",
            "outside/sub/keep"
        ]
    );
}

#[test]
#[cfg(unix)]
fn symlink_at_the_root_is_unlinked_not_followed() {
    let scratch = Scratch::new("rootlink");
    let base = scratch.path();
    fs::create_dir(base.join("outside")).unwrap();
    fs::write(base.join("outside/keep"), "k").unwrap();
    std::os::unix::fs::symlink(base.join("outside"), base.join("link")).unwrap();
    remove_dir_all(base.join("link")).unwrap();
    assert_eq!(listing(base), ["outside/", "outside/keep"]);
}

#[test]
fn a_file_is_not_a_directory_to_remove() {
    let scratch = Scratch::new("rmfile");
    fs::write(scratch.path().join("f"), "").unwrap();
    let err = remove_dir_all(scratch.path().join("f")).unwrap_err();
    assert_eq!(err.kind(), io::ErrorKind::NotADirectory, "{err}");
    assert!(err.to_string().contains("f'"), "{err}");
    assert_eq!(listing(scratch.path()), ["f"]);
}

#[test]
fn wide_and_deep_tree_is_removed() {
    let scratch = Scratch::new("wide");
    let top = scratch.path().join("top");
    for i in 0..30 {
        let dir = top.join(format!("w{i}")).join(chain(i * 3));
        fs::create_dir_all(&dir).unwrap();
        for j in 0..20 {
            fs::write(dir.join(format!("f{j}")), "x").unwrap();
        }
    }
    remove_dir_all(&top).unwrap();
    assert_eq!(listing(scratch.path()), Vec::<String>::new());
}

#[test]
#[cfg(unix)]
fn symlink_swapped_in_during_removal_is_never_followed() {
    use std::sync::atomic::AtomicBool;

    let scratch = Scratch::new("swap");
    let base = scratch.path();
    let outside = base.join("outside");
    fs::create_dir_all(outside.join("deep")).unwrap();
    for i in 0..50 {
        fs::write(outside.join(format!("keep{i}")), "k").unwrap();
        fs::write(outside.join("deep").join(format!("keep{i}")), "k").unwrap();
    }
    let expected = listing(&outside);
    let moved = base.join("moved");
    fs::create_dir(&moved).unwrap();
    let mut swaps = 0;
    for round in 0..40 {
        let tree = base.join(format!("tree{round}"));
        for i in 0..40 {
            let dir = tree.join(format!("s{i}"));
            fs::create_dir_all(dir.join("x/y")).unwrap();
            fs::write(dir.join("f"), "").unwrap();
        }
        let stop = Arc::new(AtomicBool::new(false));
        let swapper = {
            let (tree, outside, moved, stop) = (
                tree.clone(),
                outside.clone(),
                moved.clone(),
                Arc::clone(&stop),
            );
            thread::spawn(move || {
                // Swap the first real subdirectory in listing order, which is
                // the one the removal is about to open, for a link to
                // `outside`.
                let mut swaps = 0;
                while !stop.load(Ordering::Relaxed) {
                    let Ok(entries) = fs::read_dir(&tree) else {
                        continue;
                    };
                    let first = entries
                        .filter_map(Result::ok)
                        .find(|e| e.file_type().is_ok_and(|t| t.is_dir()));
                    if let Some(entry) = first {
                        let aside = moved.join(format!("{round}-{swaps}"));
                        if fs::rename(entry.path(), &aside).is_ok() {
                            let _ = std::os::unix::fs::symlink(&outside, entry.path());
                            swaps += 1;
                        }
                    }
                }
                swaps
            })
        };
        // A pass can fail on an entry the swapper moved away: retry.
        let mut passes = 0;
        while tree.symlink_metadata().is_ok() && passes < 100 {
            let _ = remove_dir_all(&tree);
            passes += 1;
        }
        stop.store(true, Ordering::Relaxed);
        swaps += swapper.join().unwrap();
        let _ = remove_dir_all(&tree);
        assert!(tree.symlink_metadata().is_err(), "round {round}");
        assert_eq!(listing(&outside), expected, "round {round}");
    }
    assert!(swaps > 0, "the swapper never got a turn");
    remove_dir_all(&moved).unwrap();
    let mut left = vec!["outside/".to_owned()];
    left.extend(expected.iter().map(|e| format!("outside/{e}")));
    left.sort();
    assert_eq!(listing(base), left);
}

/// Each path in `cases` is refused with `InvalidInput` and leaves the tree
/// under `scratch` as it was; the tree is made again after a case that
/// changed it, so that every case is reported.
fn refused_and_nothing_removed(scratch: &Scratch, cases: &[String]) {
    let top = scratch.path().join("top");
    let make = || {
        fs::create_dir_all(top.join("inner")).unwrap();
        fs::write(top.join("inner").join("keep"), "k").unwrap();
    };
    let tree = ["top/", "top/inner/", "top/inner/keep"];
    let mut wrong = Vec::new();
    for case in cases {
        make();
        let result = remove_dir_all(case);
        let left = listing(scratch.path());
        let refused = matches!(&result, Err(e) if e.kind() == io::ErrorKind::InvalidInput);
        if !refused || left != tree {
            wrong.push(format!("{case}: {result:?}, left {left:?}"));
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn a_path_ending_in_dot_or_dot_dot_is_refused() {
    let scratch = Scratch::new("dots");
    let top = scratch.path().join("top");
    let top = top.to_str().unwrap();
    let separators: &[&str] = if cfg!(windows) { &["\\", "/"] } else { &["/"] };
    let mut cases = Vec::new();
    for s in separators {
        cases.push(format!("{top}{s}inner{s}.."));
        cases.push(format!("{top}{s}inner{s}..{s}"));
        cases.push(format!("{top}{s}inner{s}."));
        cases.push(format!("{top}{s}inner{s}.{s}{s}"));
        cases.push(format!("{top}{s}."));
    }
    if cfg!(windows) {
        // Win32 drops the trailing dots and spaces of the last component,
        // so these name `inner` or `top` with a `.` or `..` after it.
        // <https://learn.microsoft.com/en-us/dotnet/standard/io/file-path-formats#trim-characters>
        cases.push(format!("{top}\\inner\\.. "));
        cases.push(format!("{top}\\inner\\. "));
        cases.push(format!("{top}\\inner\\..."));
    }
    refused_and_nothing_removed(&scratch, &cases);
}

/// Drive and share roots are refused from the path alone. The drive letter
/// has no drive behind it and the share does not exist, so were the check
/// missing the lookup would fail with another kind, never reach a real
/// root (Wine maps `Z:` to the host's `/`).
#[test]
#[cfg(windows)]
fn drive_and_share_roots_are_refused_before_any_lookup() {
    let drive = ('D'..='Y')
        .rev()
        .find(|d| fs::metadata(format!("{d}:\\")).is_err())
        .expect("a drive letter with no drive");
    let share = format!("leanwire-no-such-share-{}", std::process::id());
    let cases = [
        format!("{drive}:\\"),
        format!("{drive}:/"),
        format!("{drive}:"),
        format!("{drive}:\\\\"),
        format!("{drive}:."),
        format!("{drive}:.."),
        format!("{drive}:\\ "),
        format!("\\\\?\\{drive}:\\"),
        format!("\\\\?\\{drive}:"),
        format!("\\\\.\\{drive}:\\"),
        format!("\\\\localhost\\{share}"),
        format!("\\\\localhost\\{share}\\"),
        format!("//localhost/{share}/"),
        format!("\\\\?\\UNC\\localhost\\{share}"),
        format!("\\\\?\\UNC\\localhost\\{share}\\"),
    ];
    let mut wrong = Vec::new();
    for case in &cases {
        match remove_dir_all(case) {
            Err(e) if e.kind() == io::ErrorKind::InvalidInput => {
                assert!(e.to_string().contains("refusing"), "{case}: {e}");
            }
            other => wrong.push(format!("{case}: {other:?}")),
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}
