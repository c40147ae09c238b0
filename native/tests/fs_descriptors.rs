//! `leanwire_native::fs` closes every descriptor it opens: after deep and
//! long-path creates and removes, the process holds the same descriptors
//! as before. One test alone in its binary, so that no other test opens or
//! closes descriptors while it counts.
#![cfg(target_os = "linux")]

use std::fs;
use std::path::PathBuf;

use leanwire_native::fs::{create_dir_all, remove_dir_all};

/// The descriptors this process holds, from `/proc/self/fd`.
fn open_descriptors() -> usize {
    // The listing's own descriptor is counted every time, so it cancels out.
    fs::read_dir("/proc/self/fd").unwrap().count()
}

#[test]
fn deep_and_long_paths_leave_no_descriptor_open() {
    let top = std::env::temp_dir().join(format!("leanwire-fs-fds-{}", std::process::id()));
    let _ = fs::remove_dir_all(&top);
    // 300 levels: past `PATH_MAX` in bytes, and past the levels that a
    // removal keeps open at once.
    let leaf: PathBuf = top.join((0..300).map(|_| "d123456789").collect::<PathBuf>());
    let before = open_descriptors();
    create_dir_all(&leaf).unwrap();
    create_dir_all(&leaf).unwrap();
    remove_dir_all(leaf.parent().unwrap()).unwrap();
    assert_eq!(
        remove_dir_all(&leaf).unwrap_err().kind(),
        std::io::ErrorKind::NotFound
    );
    remove_dir_all(&top).unwrap();
    assert_eq!(open_descriptors(), before);
    assert!(!top.exists());
}
