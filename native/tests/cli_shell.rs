//! `leanwire completions SHELL` and `leanwire man DIRECTORY`: what a
//! packager installs next to the command.

use std::process::Command;

mod support {
    pub mod cli;
}

use support::cli::leanwire;

#[test]
fn completions_name_every_subcommand_and_bash_reads_its_script() {
    for shell in ["bash", "zsh", "fish"] {
        let run = leanwire(&["completions", shell], "");
        assert_eq!(run.status, Some(0), "{shell}: {}", run.stderr);
        for word in [
            "actor", "dns", "tds", "resolve", "mkdir", "rm", "serve", "dialect", "short",
        ] {
            assert!(run.stdout.contains(word), "{shell} completions lack {word}");
        }
        if shell == "bash" {
            let checked = Command::new("bash")
                .args(["-n", "-c", &run.stdout])
                .output()
                .expect("bash runs");
            assert!(
                checked.status.success(),
                "{}",
                String::from_utf8_lossy(&checked.stderr)
            );
        }
    }
    let run = leanwire(&["completions", "tcsh"], "");
    assert_eq!(run.status, Some(2), "an unknown shell is a usage error");
}

#[test]
fn man_writes_a_page_per_command_that_groff_renders_cleanly() {
    let dir = std::env::temp_dir().join(format!("leanwire-man-{}", std::process::id()));
    let run = leanwire(&["man", dir.to_str().unwrap()], "");
    assert_eq!(run.status, Some(0), "{}", run.stderr);
    for page in [
        "leanwire.1",
        "leanwire-dns.1",
        "leanwire-dns-query.1",
        "leanwire-tds-decode.1",
    ] {
        let path = dir.join(page);
        let roff = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{page}: {e}"));
        assert!(roff.contains(".TH "), "{page}");
        // groff is part of man-db, which every Debian has; -ww warns of all, -z renders nothing.
        let rendered = Command::new("groff")
            .args(["-man", "-Tutf8", "-ww", "-z"])
            .arg(&path)
            .output()
            .expect("groff runs");
        assert!(rendered.status.success(), "{page}");
        assert_eq!(String::from_utf8_lossy(&rendered.stderr), "", "{page}");
    }
    let query = std::fs::read_to_string(dir.join("leanwire-dns-query.1")).unwrap();
    assert!(query.contains("Reverse lookup"), "{query}");
    std::fs::remove_dir_all(&dir).unwrap();
}
