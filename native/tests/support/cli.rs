//! Runs the built `leanwire` command, for the CLI tests.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// What a run of `leanwire` left behind.
pub struct Run {
    /// The exit status, `None` if a signal ended it.
    pub status: Option<i32>,
    /// Everything printed on stdout.
    pub stdout: String,
    /// Everything printed on stderr.
    #[allow(
        dead_code,
        reason = "read by some of the test files that include this module"
    )]
    pub stderr: String,
}

/// Runs `leanwire ARGS...` with `stdin` as its standard input.
pub fn leanwire(args: &[&str], stdin: &str) -> Run {
    run(
        Command::new(env!("CARGO_BIN_EXE_leanwire")).args(args),
        stdin,
    )
}

/// Runs `leanwire ARGS...` in the working directory `dir`, with `stdin` as
/// its standard input.
#[allow(
    dead_code,
    reason = "used by some of the test files that include this module"
)]
pub fn leanwire_in(dir: &Path, args: &[&str], stdin: &str) -> Run {
    run(
        Command::new(env!("CARGO_BIN_EXE_leanwire"))
            .current_dir(dir)
            .args(args),
        stdin,
    )
}

/// Runs `command`, a `leanwire` with its arguments, with `stdin` as its
/// standard input.
fn run(command: &mut Command, stdin: &str) -> Run {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("leanwire runs");
    let written = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    // A command that fails early (a usage error) may exit before it reads.
    if let Err(e) = written {
        assert_eq!(
            e.kind(),
            std::io::ErrorKind::BrokenPipe,
            "writing to leanwire: {e}"
        );
    }
    let out = child.wait_with_output().unwrap();
    Run {
        status: out.status.code(),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}
