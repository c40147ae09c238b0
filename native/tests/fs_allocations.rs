//! Heap allocations of `leanwire_native::fs`, counted by a wrapping
//! `#[global_allocator]`.
//!
//! One `#[test]` only: the counters are global, and another test running
//! beside it would add its own allocations to them.

use std::alloc::System;
use std::path::PathBuf;

use leanwire_native::fs::{create_dir_all, remove_dir_all};
use stats_alloc::{INSTRUMENTED_SYSTEM, Region, StatsAlloc};

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

#[test]
fn create_and_remove_touch_no_heap() {
    let top = std::env::temp_dir().join(format!("leanwire-fs-alloc-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&top);
    for depth in [10, 100] {
        // Built before counting: the paths are the caller's.
        let leaf: PathBuf = (0..depth).fold(top.clone(), |p, _| p.join("d123456789"));
        // A second tree beside the first, so removal meets files and
        // several subdirectories per level.
        let beside = top.join("beside/x/y");

        let region = Region::new(GLOBAL);
        create_dir_all(&leaf).unwrap();
        create_dir_all(&beside).unwrap();
        let change = region.change();
        assert_eq!(
            change.allocations + change.reallocations,
            0,
            "create_dir_all at depth {depth}: {change:?}"
        );
        assert!(leaf.is_dir());
        std::fs::write(top.join("beside/x/file"), "x").unwrap();

        let region = Region::new(GLOBAL);
        remove_dir_all(&top).unwrap();
        let change = region.change();
        assert_eq!(
            change.allocations + change.reallocations,
            0,
            "remove_dir_all at depth {depth}: {change:?}"
        );
        assert!(!top.exists());
    }
}
