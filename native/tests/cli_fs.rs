//! `leanwire mkdir` and `leanwire rm`: what they leave behind, their
//! messages on stderr, and their exit statuses.

use std::fs;
use std::path::{Path, PathBuf};

mod support {
    pub mod cli;
}

use support::cli::leanwire;

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
