//! `leanwire actor ...`: the output contract, stdin mode and exit codes.

mod support {
    pub mod cli;
}

use support::cli::leanwire;

/// `dialect<TAB>report` lines; `web/tests` checks the npm package against the same file.
const GOLDEN: &str = include_str!("golden/actor_parse.tsv");

fn golden(dialect: &str) -> Vec<(String, &'static str)> {
    GOLDEN
        .lines()
        .filter_map(|line| line.split_once('\t'))
        .filter(|(d, _)| *d == dialect)
        .map(|(_, report)| {
            let parsed: serde_json::Value = serde_json::from_str(report).unwrap();
            (parsed["input"].as_str().unwrap().to_string(), report)
        })
        .collect()
}

#[test]
fn parse_matches_the_golden_reports_from_stdin() {
    for dialect in ["dotnet", "jvm"] {
        let cases = golden(dialect);
        assert!(cases.len() > 20);
        let stdin: String = cases
            .iter()
            .map(|(input, _)| format!("{input}\n"))
            .collect();
        let out = leanwire(&["actor", "parse", "--dialect", dialect, "-"], &stdin);
        assert_eq!(
            out.status,
            Some(0),
            "bad inputs do not change the exit status"
        );
        let stdout = out.stdout;
        let got: Vec<&str> = stdout.lines().collect();
        let want: Vec<&str> = cases.iter().map(|(_, report)| *report).collect();
        assert_eq!(got, want);
    }
}

#[test]
fn parse_arguments_and_stdin_mix_in_order() {
    let out = leanwire(
        &["actor", "parse", "akka://a/x", "-", "akka://c/z"],
        "akka://b/y\r\n",
    );
    let stdout = out.stdout;
    let systems: Vec<String> = stdout
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["address"]["system"].to_string()
        })
        .collect();
    assert_eq!(systems, ["\"a\"", "\"b\"", "\"c\""]);
}

#[test]
fn default_dialect_is_dotnet() {
    let out = leanwire(&["actor", "parse", "akka://host:1234/a"], "");
    assert!(out.stdout.contains(r#""system":"host:1234""#));
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &["actor", "parse"][..],
        &["actor", "parse", "--dialect", "scala", "x"],
        &["actor"],
        &["nope"],
    ] {
        let out = leanwire(args, "");
        assert_eq!(out.status, Some(2), "{args:?}");
        assert!(out.stdout.is_empty());
        assert!(!out.stderr.is_empty());
    }
}

#[test]
fn valid_element_reports_akkas_message() {
    let out = leanwire(&["actor", "valid-element", "ok-name", "$x", "a%2F"], "");
    assert_eq!(out.status, Some(0));
    let stdout = out.stdout;
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines[0], r#"{"input":"ok-name","ok":true}"#);
    assert!(lines[1].starts_with(r#"{"input":"$x","ok":false,"error":"Illegal actor name [$x]. Actor paths MUST: not start with `$`"#));
    assert_eq!(lines[2], r#"{"input":"a%2F","ok":true}"#);

    let out = leanwire(
        &["actor", "valid-element", "--dialect", "jvm", "-"],
        "a(b)\n",
    );
    let stdout = out.stdout;
    assert!(
        stdout.contains("illegal character [(] at position: 1"),
        "{stdout}"
    );
}
