//! `leanwire serve` as a process: it reports its address, serves, and on
//! SIGINT or SIGTERM finishes the request in flight and exits 0.
#![cfg(target_os = "linux")]

#[path = "support/http_client.rs"]
mod http_client;
#[path = "support/serve_process.rs"]
mod serve_process;
#[allow(dead_code)]
#[path = "support/slow_reader.rs"]
mod slow_reader;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command};
use std::thread;
use std::time::{Duration, Instant};

use http_client::Client;
use serve_process::serve;
use slow_reader::{SlowReader, send_queue_limit, settled_send_queue};

fn signal(child: &Child, name: &str) {
    let status = Command::new("kill")
        .args(["-s", name, &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success(), "kill -s {name} failed");
}

/// Waits for `child` to exit, for at most 10 s, and returns its exit code.
fn exit_code(child: &mut Child) -> Option<i32> {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status.code();
        }
        if Instant::now() > deadline {
            panic!("leanwire serve did not exit within 10 s");
        }
        thread::sleep(Duration::from_millis(20));
    }
}

fn finishes_the_request_in_flight_on(signal_name: &str, dispatch: &str) {
    let mut server = serve(&["--threads", "2", "--dispatch", dispatch]);
    let addr = server.addr;
    let mut client = Client::connect(addr);
    assert_eq!(client.get("/json").status, 200);
    client.send(b"GET /plaintext HTTP/1.1\r\nHost: t");

    signal(&server.child, signal_name);
    let deadline = Instant::now() + Duration::from_secs(5);
    while TcpStream::connect(addr).is_ok() {
        assert!(
            Instant::now() < deadline,
            "still accepting after {signal_name}"
        );
        thread::sleep(Duration::from_millis(10));
    }
    assert!(
        server.child.try_wait().unwrap().is_none(),
        "exited with a request in flight"
    );

    client.send(b"\r\n\r\n");
    let reply = client.reply().unwrap().unwrap();
    assert_eq!(
        (reply.status, &reply.body[..]),
        (200, &b"Hello, World!"[..])
    );
    assert_eq!(reply.connection.as_deref(), Some("close"));
    assert!(client.closed_by_server());
    assert_eq!(exit_code(&mut server.child), Some(0));
}

#[test]
fn sigterm_finishes_the_request_in_flight_and_exits_0() {
    finishes_the_request_in_flight_on("TERM", "inline");
}

#[test]
fn sigint_finishes_the_request_in_flight_and_exits_0() {
    finishes_the_request_in_flight_on("INT", "pool");
}

#[test]
fn an_address_taken_by_another_socket_is_a_clear_error() {
    // A listener without SO_REUSEPORT, which leanwire's listeners cannot share.
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_leanwire"))
        .args(["serve", "--addr", &addr.to_string()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!("cannot bind {addr}: Address already in use")),
        "{stderr}"
    );
}

#[test]
fn timeouts_out_of_range_are_usage_errors() {
    for (flag, value) in [
        ("--header-timeout", "1e19"),
        ("--idle-timeout", "0"),
        ("--send-timeout", "-1"),
        ("--send-timeout", "NaN"),
        ("--header-timeout", "86401"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_leanwire"))
            .args(["serve", "--addr", "127.0.0.1:0", &format!("{flag}={value}")])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{flag} {value}: {stderr}");
        assert!(
            stderr.contains("expected a number of seconds greater than 0 and at most 86400"),
            "{flag} {value}: {stderr}"
        );
    }
}

#[test]
fn a_send_buffer_that_is_not_a_positive_count_is_a_usage_error() {
    for value in ["0", "-1", "64k"] {
        let out = Command::new(env!("CARGO_BIN_EXE_leanwire"))
            .args([
                "serve",
                "--addr",
                "127.0.0.1:0",
                &format!("--send-buffer={value}"),
            ])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{value}: {stderr}");
        assert!(
            stderr.contains(&format!(
                "invalid value '{value}' for '--send-buffer <BYTES>'"
            )),
            "{value}: {stderr}"
        );
    }
}

#[test]
fn the_send_buffer_is_taken_from_its_flag() {
    let mut server = serve(&["--send-buffer", "32768"]);
    let slow = SlowReader::connect(server.addr);
    // Left to the OS, the queue grows to megabytes.
    let queued = settled_send_queue(server.addr);
    drop(slow);
    signal(&server.child, "TERM");
    assert_eq!(exit_code(&mut server.child), Some(0));
    assert!(queued <= send_queue_limit(32768), "{queued} bytes queued");
}

#[test]
fn send_timeout_and_max_body_are_taken_from_flags() {
    let mut server = serve(&["--send-timeout", "0.5", "--max-body", "4"]);
    let mut stream = TcpStream::connect(server.addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    stream
        .write_all(b"POST /json HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello")
        .unwrap();
    let mut reply = String::new();
    stream.read_to_string(&mut reply).unwrap();
    assert!(
        reply.starts_with("HTTP/1.1 413 Content Too Large\r\n"),
        "{reply}"
    );
    signal(&server.child, "TERM");
    assert_eq!(exit_code(&mut server.child), Some(0));
}
