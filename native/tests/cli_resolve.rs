//! `leanwire resolve`: one JSON object per host, in order, and the exit
//! statuses. Only `localhost` goes to the OS resolver (it is in
//! /etc/hosts); `bad..name` has an empty label, which the resolver refuses
//! without asking a DNS server.

use std::net::IpAddr;

mod support {
    pub mod cli;
}

use support::cli::leanwire;

#[test]
fn one_line_per_host_in_order_and_a_failure_exits_1() {
    let (status, stdout) = run(leanwire(
        &["resolve", "localhost", "127.0.0.1", "::1", "bad..name"],
        "",
    ));
    assert_eq!(
        status,
        Some(1),
        "a host that fails fails the command, after every host is reported"
    );
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 4, "{stdout}");

    let localhost: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
    assert_eq!(
        (&localhost["host"], &localhost["ok"]),
        (&"localhost".into(), &true.into())
    );
    let addresses = localhost["addresses"].as_array().unwrap();
    assert!(!addresses.is_empty(), "{stdout}");
    for address in addresses {
        let ip: IpAddr = address.as_str().unwrap().parse().unwrap();
        assert!(ip.is_loopback(), "{ip}");
    }

    // A literal is its own answer; the key order is part of the contract.
    assert_eq!(
        lines[1],
        r#"{"host":"127.0.0.1","ok":true,"addresses":["127.0.0.1"]}"#
    );
    assert_eq!(lines[2], r#"{"host":"::1","ok":true,"addresses":["::1"]}"#);

    assert!(
        lines[3].starts_with(r#"{"host":"bad..name","ok":false,"error":""#),
        "{stdout}"
    );
    let failed: serde_json::Value = serde_json::from_str(lines[3]).unwrap();
    assert!(!failed["error"].as_str().unwrap().is_empty());
    assert_eq!(failed.get("addresses"), None);
}

#[test]
fn dash_reads_one_host_per_line_from_stdin() {
    let (status, stdout) = run(leanwire(
        &["resolve", "127.0.0.2", "-", "::1"],
        "[::1]\r\n\n192.0.2.1\n",
    ));
    assert_eq!(status, Some(1), "the empty line names no host");
    assert_eq!(
        stdout.lines().collect::<Vec<_>>(),
        [
            r#"{"host":"127.0.0.2","ok":true,"addresses":["127.0.0.2"]}"#,
            r#"{"host":"[::1]","ok":true,"addresses":["::1"]}"#,
            r#"{"host":"","ok":false,"error":"the host name is empty"}"#,
            r#"{"host":"192.0.2.1","ok":true,"addresses":["192.0.2.1"]}"#,
            r#"{"host":"::1","ok":true,"addresses":["::1"]}"#,
        ]
    );
}

#[test]
fn every_host_resolved_exits_0() {
    let (status, stdout) = run(leanwire(&["resolve", "127.0.0.1", "::1"], ""));
    assert_eq!(status, Some(0), "{stdout}");
    assert_eq!(stdout.lines().count(), 2);
}

#[test]
fn no_host_is_a_usage_error() {
    let (status, stdout) = run(leanwire(&["resolve"], "localhost\n"));
    assert_eq!(status, Some(2));
    assert_eq!(stdout, "");
}

/// The exit status and stdout of a run.
fn run(run: support::cli::Run) -> (Option<i32>, String) {
    (run.status, run.stdout)
}
