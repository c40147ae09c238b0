//! `leanwire tds decode`: the output contract, the same output for every
//! `--chunk`, captures, and exit statuses.

mod support {
    pub mod cli;
}

#[path = "support/tds_stream.rs"]
#[allow(dead_code)]
mod tds_stream;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use support::cli::leanwire;

/// Streams and the lines `leanwire tds decode` printed for them; the wasm
/// tests check `decodeTds` and `TdsReader` against the same file.
const GOLDEN: &str = include_str!("golden/tds_decode.json");

fn cases() -> Vec<serde_json::Value> {
    let golden: serde_json::Value = serde_json::from_str(GOLDEN).unwrap();
    golden["cases"].as_array().unwrap().clone()
}

fn bytes(hex: &str) -> Vec<u8> {
    leanwire_native::core::hex::decode(hex)
        .collect::<Result<_, _>>()
        .unwrap()
}

/// Runs `tds decode` on `input` written to a file (stdin carries text only here).
fn decode(input: &[u8], extra: &[&str]) -> support::cli::Run {
    let path = std::env::temp_dir().join(format!(
        "leanwire-tds-{}-{}.bin",
        std::process::id(),
        input.len()
    ));
    std::fs::write(&path, input).unwrap();
    let path_text = path.to_str().unwrap().to_owned();
    let run = leanwire(&[&["tds", "decode", &path_text], extra].concat(), "");
    let _ = std::fs::remove_file(&path);
    run
}

#[test]
fn every_chunk_size_prints_the_golden_lines() {
    let cases = cases();
    assert!(cases.len() >= 4);
    for case in cases {
        let input = bytes(case["hex"].as_str().unwrap());
        let want: Vec<&str> = case["lines"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l.as_str().unwrap())
            .collect();
        let tokens_only = case["tokens_only"].as_bool().unwrap();
        for chunk in [None, Some("1"), Some("7"), Some("4096")] {
            let mut extra = Vec::new();
            if tokens_only {
                extra.push("--tokens-only");
            }
            if let Some(n) = chunk {
                extra.extend(["--chunk", n]);
            }
            let run = decode(&input, &extra);
            assert_eq!(
                run.stdout.lines().collect::<Vec<_>>(),
                want,
                "{} with {extra:?}",
                case["name"]
            );
            assert_eq!(
                run.status,
                case["exit"].as_i64().map(|c| c as i32),
                "{}",
                case["name"]
            );
        }
    }
}

#[test]
fn a_capture_decodes_to_the_same_tokens_as_its_stream() {
    let capture =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/vectors/tds/types.pcap");
    let run = leanwire(&["tds", "decode", "--pcap", capture.to_str().unwrap()], "");
    assert_eq!(run.status, Some(0), "{}", run.stderr);
    let types = &cases()[0];
    let want: Vec<&str> = types["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    assert_eq!(run.stdout.lines().collect::<Vec<_>>(), want);
}

#[test]
fn a_decode_error_is_the_last_line_and_exit_1() {
    let case = cases()
        .into_iter()
        .find(|c| c["name"].as_str().unwrap().contains("cut inside"))
        .unwrap();
    let last: serde_json::Value = serde_json::from_str(
        case["lines"]
            .as_array()
            .unwrap()
            .last()
            .unwrap()
            .as_str()
            .unwrap(),
    )
    .unwrap();
    assert!(
        last["error"].as_str().unwrap().contains("ROW column 7"),
        "{last}"
    );
    assert_eq!(last["offset"], 400);
    assert_eq!(case["exit"], 1);
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &["tds", "decode", "--chunk", "0"][..],
        &["tds", "decode", "--tokens-only", "--pcap"],
        &["tds", "decode", "--tds-version", "6.0"],
    ] {
        assert_eq!(leanwire(args, "").status, Some(2), "{args:?}");
    }
}

#[test]
fn a_missing_file_exits_1_with_a_message() {
    let run = leanwire(&["tds", "decode", "/nonexistent/leanwire.bin"], "");
    assert_eq!(run.status, Some(1));
    assert!(
        run.stderr.contains("/nonexistent/leanwire.bin"),
        "{}",
        run.stderr
    );
}

#[test]
fn arena_limit_stops_a_hostile_stream_at_its_offset() {
    let (tokens, first) = tds_stream::wide_result_sets(3, 4096);
    let run = decode(&tokens, &["--tokens-only", "--arena-limit", "65536"]);
    assert_eq!(run.status, Some(1), "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    // The narrow result set's COLMETADATA, ROW and DONE, then the error.
    assert_eq!(lines.len(), 4, "{}", run.stdout);
    let last: serde_json::Value = serde_json::from_str(lines[3]).unwrap();
    let offset = first + 1;
    assert_eq!(
        last["error"],
        format!("arena allocation limit reached in COLMETADATA at byte {offset}")
    );
    assert_eq!(last["offset"], offset);
}

#[test]
fn result_sets_past_the_arena_limit_in_all_decode_one_by_one() {
    // Ten result sets of 512 columns need more than 64 KiB of metadata in
    // all, but each one fits on its own.
    let (tokens, _) = tds_stream::wide_result_sets(10, 512);
    let run = decode(&tokens, &["--tokens-only", "--arena-limit", "65536"]);
    assert_eq!(
        run.status,
        Some(0),
        "{}",
        run.stdout.lines().last().unwrap()
    );
    let columns = run
        .stdout
        .lines()
        .filter(|line| line.starts_with(r#"{"token":"COLMETADATA""#))
        .count();
    assert_eq!(columns, 11);
}

#[test]
fn arena_limit_must_be_a_number() {
    for limit in ["", "-1", "16M"] {
        let run = leanwire(&["tds", "decode", "--arena-limit", limit], "");
        assert_eq!(run.status, Some(2), "{limit:?}");
    }
}

#[test]
fn tokens_are_printed_as_they_arrive() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_leanwire"))
        .args(["tds", "decode", "--tokens-only"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("leanwire runs");
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    let lines = std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if tx.send(line.unwrap()).is_err() {
                break;
            }
        }
    });
    // One result set; the stream stays open.
    let (tokens, first) = tds_stream::wide_result_sets(1, 2);
    stdin.write_all(&tokens[..first]).unwrap();
    stdin.flush().unwrap();
    let line = rx.recv_timeout(Duration::from_secs(20));
    // The rest of the stream, and its end.
    stdin.write_all(&tokens[first..]).unwrap();
    drop(stdin);
    let status = child.wait().unwrap();
    lines.join().unwrap();
    let line = line.expect("the first result set's COLMETADATA before the stream ended");
    assert!(line.starts_with(r#"{"token":"COLMETADATA""#), "{line}");
    assert!(status.success());
}
