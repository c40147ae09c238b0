//! Directory chains: leanwire's heap-free recursive create and remove, next
//! to `std::fs`'s on the same paths.
//!
//! | op | leanwire | peer |
//! |---|---|---|
//! | create_remove | `fs::create_dir_all(root/a/.../a)`, then `fs::remove_dir_all(root)` | `std::fs::create_dir_all`, then `std::fs::remove_dir_all` |
//!
//! The op is .NET's `RecursiveCreateDeleteDirectory` (dotnet/performance,
//! `Perf.Directory.cs`): a root that does not exist yet, `depth` components
//! named `a` below it, created at once and then removed from the root. The
//! arg is the depth, 10 or 100, so one op makes and removes `depth + 1`
//! directories.
//!
//! The root sits in a tmpfs when there is one to use (`/dev/shm`, if it is a
//! writable tmpfs), so the table times the file system code rather than a
//! disk; otherwise in `std::env::temp_dir()`. `main` says which on stderr and
//! writes it to `target/fs-bench.json` for `scripts/bench-table`. Before
//! anything is timed, `main` checks that both sides build the same tree and
//! leave nothing behind, each undoing the other's work too.
//!
//! `scripts/bench` runs this and turns divan's output into `BENCHMARKS.md`.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use divan::{AllocProfiler, Bencher};
use leanwire_native::fs;

#[global_allocator]
static ALLOC: AllocProfiler = AllocProfiler::system();

/// The depths of the chain below the root, as in the seed's benchmark.
const DEPTHS: [usize; 2] = [10, 100];

/// The tmpfs tried first for the base directory.
const TMPFS: &str = "/dev/shm";

fn main() {
    let base = base();
    eprintln!(
        "fs bench: directories under {} ({})",
        base.path.display(),
        base.fs_type
    );
    write_base();
    check_sides_agree();
    divan::main();
}

/// Where the roots go, and the type of the file system holding it.
struct Base {
    path: PathBuf,
    fs_type: String,
}

/// The base directory: [`TMPFS`] if it is a tmpfs this process can create
/// directories in, else `std::env::temp_dir()`. Chosen once.
fn base() -> &'static Base {
    static BASE: OnceLock<Base> = OnceLock::new();
    BASE.get_or_init(|| {
        let tmpfs = Path::new(TMPFS);
        let path = if fs_type(tmpfs).as_deref() == Some("tmpfs") && writable(tmpfs) {
            tmpfs.to_path_buf()
        } else {
            std::env::temp_dir()
        };
        let fs_type = fs_type(&path).unwrap_or_else(|| "unknown file system".to_owned());
        Base { path, fs_type }
    })
}

/// The type of the file system mounted deepest over `path`, from
/// `/proc/self/mounts`.
fn fs_type(path: &Path) -> Option<String> {
    let path = path.canonicalize().ok()?;
    let mounts = std::fs::read_to_string("/proc/self/mounts").ok()?;
    mounts
        .lines()
        .filter_map(|line| {
            let mut fields = line.split(' ');
            let _device = fields.next()?;
            let point = fields.next()?.replace("\\040", " ");
            let kind = fields.next()?;
            path.starts_with(&point)
                .then(|| (point.len(), kind.to_owned()))
        })
        .max_by_key(|(len, _)| *len)
        .map(|(_, kind)| kind)
}

/// Whether a directory can be created and removed in `dir`.
fn writable(dir: &Path) -> bool {
    let probe = dir.join(format!("leanwire-fs-probe-{}", std::process::id()));
    std::fs::create_dir(&probe).is_ok() && std::fs::remove_dir(&probe).is_ok()
}

/// A root of its own for each side and depth, so no run meets another's
/// leftovers.
fn root(side: &str, depth: usize) -> PathBuf {
    base().path.join(format!(
        "leanwire-fs-bench-{}-{side}-{depth}",
        std::process::id()
    ))
}

/// `root` and `depth` components named `a` below it: `root/a/a/.../a`.
fn chain(root: &Path, depth: usize) -> PathBuf {
    let mut path = root.to_path_buf();
    for _ in 0..depth {
        path.push("a");
    }
    path
}

/// The workspace's `target` directory.
fn target_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target")
}

/// Writes the base directory and its file system for `scripts/bench-table`.
fn write_base() {
    let base = base();
    let dir = target_dir();
    std::fs::create_dir_all(&dir).expect("a target directory");
    let json = serde_json::json!({
        "base": base.path.display().to_string(),
        "fs_type": base.fs_type,
        "tmpfs": base.fs_type == "tmpfs",
    });
    std::fs::write(dir.join("fs-bench.json"), json.to_string())
        .expect("target/fs-bench.json written");
}

/// What one create left: the directories under the root (the root counted)
/// and whether the leaf is a directory.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Tree {
    dirs: usize,
    leaf_is_dir: bool,
}

/// Counts the directories at and under `root`, following no link.
fn tree(root: &Path, leaf: &Path) -> Tree {
    let mut dirs = 0;
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let meta = std::fs::symlink_metadata(&dir).expect("a directory in the tree");
        assert!(meta.is_dir(), "{} is not a directory", dir.display());
        dirs += 1;
        for entry in std::fs::read_dir(&dir).expect("a readable directory") {
            stack.push(entry.expect("an entry").path());
        }
    }
    Tree {
        dirs,
        leaf_is_dir: leaf.is_dir(),
    }
}

type Create = fn(&Path) -> std::io::Result<()>;
type Remove = fn(&Path) -> std::io::Result<()>;

const LEANWIRE: (Create, Remove) = (
    |path| fs::create_dir_all(path),
    |path| fs::remove_dir_all(path),
);

const STD: (Create, Remove) = (
    |path| std::fs::create_dir_all(path),
    |path| std::fs::remove_dir_all(path),
);

/// Fails, before anything is timed, unless both sides (and each mixed with
/// the other) create the same `depth + 1` directories and remove them all.
fn check_sides_agree() {
    for depth in DEPTHS {
        let expected = Tree {
            dirs: depth + 1,
            leaf_is_dir: true,
        };
        for (name, (create, _), (_, remove)) in [
            ("leanwire", LEANWIRE, LEANWIRE),
            ("std", STD, STD),
            ("leanwire create, std remove", LEANWIRE, STD),
            ("std create, leanwire remove", STD, LEANWIRE),
        ] {
            let root = root("check", depth);
            let leaf = chain(&root, depth);
            assert!(!root.exists(), "{} is left from before", root.display());
            create(&leaf).unwrap_or_else(|e| panic!("{name}: create at depth {depth}: {e}"));
            assert_eq!(tree(&root, &leaf), expected, "{name}: depth {depth}");
            create(&leaf).unwrap_or_else(|e| panic!("{name}: create again: {e}"));
            remove(&root).unwrap_or_else(|e| panic!("{name}: remove at depth {depth}: {e}"));
            assert!(
                !root.exists(),
                "{name}: depth {depth} left {}",
                root.display()
            );
        }
    }
}

/// Benchmarks one create and remove of a fresh chain `depth` deep.
fn bench_chain(bencher: Bencher, side: &str, depth: usize, (create, remove): (Create, Remove)) {
    let root = root(side, depth);
    let leaf = chain(&root, depth);
    bencher.bench_local(|| {
        create(&leaf).expect("the chain created");
        remove(&root).expect("the chain removed");
    });
    assert!(!root.exists(), "{} left behind", root.display());
}

mod create_remove {
    use super::*;

    #[divan::bench(args = DEPTHS)]
    fn leanwire(bencher: Bencher, depth: usize) {
        bench_chain(bencher, "leanwire", depth, LEANWIRE);
    }

    #[divan::bench(args = DEPTHS)]
    fn peer(bencher: Bencher, depth: usize) {
        bench_chain(bencher, "peer", depth, STD);
    }
}
