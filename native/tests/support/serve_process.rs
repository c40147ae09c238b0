//! `leanwire serve` as a child process on a port of its choosing.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};

/// A running `leanwire serve`, killed when dropped, so that a test that fails
/// leaves no server behind (one would hold the test's output pipe open).
pub struct Server {
    /// The process.
    pub child: Child,
    /// Where it listens.
    pub addr: SocketAddr,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `leanwire serve ARGS` on 127.0.0.1:0 and reads the address it reports.
pub fn serve(args: &[&str]) -> Server {
    let child = Command::new(env!("CARGO_BIN_EXE_leanwire"))
        .args(["serve", "--addr", "127.0.0.1:0"])
        .args(args)
        .stdout(Stdio::piped())
        .spawn()
        .expect("leanwire serve starts");
    // The guard is made first, so that a failure below leaves no server behind.
    let mut server = Server {
        child,
        addr: SocketAddr::from(([127, 0, 0, 1], 0)),
    };
    let mut line = String::new();
    let _ = BufReader::new(server.child.stdout.take().unwrap()).read_line(&mut line);
    server.addr = line
        .trim()
        .strip_prefix("listening on http://")
        .and_then(|addr| addr.parse().ok())
        .unwrap_or_else(|| panic!("leanwire serve reported {line:?} where its address was due"));
    server
}
