//! Heap allocations of `leanwire_native::fs`, counted on the calling thread
//! by `allocation-counter`'s allocator. The harness's own threads, which
//! allocate while the test runs, are not counted.

use std::path::PathBuf;

use leanwire_native::fs::{create_dir_all, remove_dir_all};

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

        let heap = allocation_counter::measure(|| {
            create_dir_all(&leaf).unwrap();
            create_dir_all(&beside).unwrap();
        });
        assert_eq!(
            heap.count_total, 0,
            "create_dir_all at depth {depth}: {heap:?}"
        );
        assert!(leaf.is_dir());
        std::fs::write(top.join("beside/x/file"), "x").unwrap();

        let heap = allocation_counter::measure(|| remove_dir_all(&top).unwrap());
        assert_eq!(
            heap.count_total, 0,
            "remove_dir_all at depth {depth}: {heap:?}"
        );
        assert!(!top.exists());
    }
}
