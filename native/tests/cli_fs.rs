//! `leanwire mkdir` and `leanwire rm`: what they leave behind, their
//! messages on stderr, and their exit statuses.

use std::fs;
use std::path::{Path, PathBuf};

mod support {
    pub mod cli;
}

use support::cli::{leanwire, leanwire_in};

/// A fresh directory under the system temp dir, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(test: &str) -> Scratch {
        let dir =
            std::env::temp_dir().join(format!("leanwire-cli-fs-{test}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir(&dir).unwrap();
        Scratch(dir)
    }

    fn join(&self, rel: &str) -> String {
        self.0.join(rel).to_str().unwrap().to_owned()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

#[test]
fn mkdir_p_creates_chains_and_reports_a_file_in_the_way() {
    let s = Scratch::new("mkdirp");
    fs::write(s.join("x"), "").unwrap();
    let run = leanwire(
        &[
            "mkdir",
            "-p",
            &s.join("x/y"),
            &s.join("a/b/c"),
            &s.join("a/b"),
        ],
        "",
    );
    assert_eq!(run.status, Some(1), "{}", run.stderr);
    assert_eq!(run.stdout, "");
    assert_eq!(
        run.stderr,
        format!(
            "leanwire: cannot create directory '{}': Not a directory (component '{}')\n",
            s.join("x/y"),
            s.join("x")
        )
    );
    // The path after the failure was still created.
    assert!(Path::new(&s.join("a/b/c")).is_dir());
    assert!(!Path::new(&s.join("x/y")).exists());
}

#[test]
fn relative_paths_are_made_and_removed_under_the_working_directory() {
    let s = Scratch::new("relative");
    let run = leanwire_in(&s.0, &["mkdir", "-p", "solo", "a/b/c", "./d"], "");
    assert_eq!((run.status, run.stderr.as_str()), (Some(0), ""));
    for made in ["solo", "a/b/c", "d"] {
        assert!(Path::new(&s.join(made)).is_dir(), "{made}");
    }
    let run = leanwire_in(&s.0, &["rm", "-r", "solo", "a", "d"], "");
    assert_eq!((run.status, run.stderr.as_str()), (Some(0), ""));
    assert_eq!(fs::read_dir(&s.0).unwrap().count(), 0);
}

/// `mkdir -p` tries the leaf first, then makes each missing directory with
/// one call: a chain of `depth` new directories costs `depth + 1` mkdir
/// calls, counted with strace (which `scripts/setup` installs).
#[test]
fn mkdir_p_makes_each_missing_directory_with_one_call() {
    let s = Scratch::new("mkdircalls");
    let trace = s.join("trace");
    let mkdir_calls = |path: &str| {
        let status = std::process::Command::new("strace")
            .args(["-f", "-qq", "-e", "trace=mkdir,mkdirat", "-o", &trace])
            .args([env!("CARGO_BIN_EXE_leanwire"), "mkdir", "-p", path])
            .status()
            .expect("strace runs (scripts/setup installs it)");
        assert!(
            status.success(),
            "strace leanwire mkdir -p {path}: {status}"
        );
        let calls = fs::read_to_string(&trace).unwrap();
        calls.lines().filter(|line| line.contains("mkdir")).count()
    };
    let chain = |name: &str| s.join(&[name; 10].join("/"));
    assert_eq!(mkdir_calls(&chain("a")), 11, "a fresh chain of 10");
    assert_eq!(mkdir_calls(&chain("a")), 1, "the chain is there");
    fs::create_dir_all(s.join("b/b/b/b")).unwrap();
    assert_eq!(mkdir_calls(&chain("b")), 7, "4 of the 10 are there");
    assert!(Path::new(&chain("b")).is_dir());
}

#[test]
fn mkdir_p_all_fine_is_status_0() {
    let s = Scratch::new("mkdirok");
    let run = leanwire(&["mkdir", "-p", &s.join("a/b"), &s.join("a/b")], "");
    assert_eq!((run.status, run.stderr.as_str()), (Some(0), ""));
    assert!(Path::new(&s.join("a/b")).is_dir());
}

#[test]
fn mkdir_without_p_needs_the_parent_and_no_leaf() {
    let s = Scratch::new("mkdir");
    let run = leanwire(&["mkdir", &s.join("a"), &s.join("b/c"), &s.join("a")], "");
    assert_eq!(run.status, Some(1));
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(lines.len(), 2, "{}", run.stderr);
    assert!(
        lines[0].starts_with(&format!(
            "leanwire: cannot create directory '{}': ",
            s.join("b/c")
        )),
        "{}",
        lines[0]
    );
    assert!(
        lines[1].starts_with(&format!(
            "leanwire: cannot create directory '{}': ",
            s.join("a")
        )),
        "{}",
        lines[1]
    );
    assert!(Path::new(&s.join("a")).is_dir());
    assert!(!Path::new(&s.join("b")).exists());
}

#[test]
fn rm_removes_files_only_and_rm_r_trees() {
    let s = Scratch::new("rm");
    fs::create_dir_all(s.join("t/u")).unwrap();
    fs::write(s.join("t/u/f"), "").unwrap();
    fs::write(s.join("f"), "").unwrap();

    let run = leanwire(&["rm", &s.join("t"), &s.join("f")], "");
    assert_eq!(run.status, Some(1));
    assert!(
        run.stderr
            .starts_with(&format!("leanwire: cannot remove '{}': ", s.join("t"))),
        "{}",
        run.stderr
    );
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(Path::new(&s.join("t/u/f")).exists());
    assert!(!Path::new(&s.join("f")).exists());

    let run = leanwire(&["rm", "-r", &s.join("missing"), &s.join("t")], "");
    assert_eq!(run.status, Some(1));
    assert!(
        run.stderr.starts_with(&format!(
            "leanwire: cannot remove '{}': ",
            s.join("missing")
        )),
        "{}",
        run.stderr
    );
    assert!(!Path::new(&s.join("t")).exists());
    assert_eq!(fs::read_dir(&s.0).unwrap().count(), 0);
}

#[test]
fn no_path_is_a_usage_error() {
    for args in [
        &["mkdir"][..],
        &["mkdir", "-p"],
        &["rm", "-r"],
        &["rm", "-x", "a"],
    ] {
        let run = leanwire(args, "");
        assert_eq!(run.status, Some(2), "{args:?}: {}", run.stderr);
    }
}

#[test]
fn rm_r_refuses_a_path_ending_in_dot_or_dot_dot_and_keeps_the_tree() {
    let s = Scratch::new("rmdots");
    fs::create_dir_all(s.join("t/u")).unwrap();
    fs::write(s.join("t/u/f"), "").unwrap();
    let paths = [s.join("t/u/.."), s.join("t/u/."), s.join("t/.")];
    let run = leanwire(&["rm", "-r", &paths[0], &paths[1], &paths[2]], "");
    assert_eq!(run.status, Some(1), "{}", run.stderr);
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(lines.len(), paths.len(), "{}", run.stderr);
    for (line, path) in lines.iter().zip(&paths) {
        assert_eq!(
            *line,
            format!(
                "leanwire: cannot remove '{path}': refusing to remove '{path}': it names no entry of a parent"
            )
        );
    }
    assert!(Path::new(&s.join("t/u/f")).exists());
}
