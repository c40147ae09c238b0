//! `leanwire tds decode`: the output contract, the same output for every
//! `--chunk`, captures, and exit statuses.

mod support {
    pub mod cli;
}

use support::cli::leanwire;

/// Streams and the lines `leanwire tds decode` printed for them; the wasm
/// tests check `decodeTds` and `TdsReader` against the same file.
const GOLDEN: &str = include_str!("golden/tds_decode.json");

fn cases() -> Vec<serde_json::Value> {
    let golden: serde_json::Value = serde_json::from_str(GOLDEN).unwrap();
    golden["cases"].as_array().unwrap().clone()
}

fn bytes(hex: &str) -> Vec<u8> {
    (0..hex.len() / 2)
        .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap())
        .collect()
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
