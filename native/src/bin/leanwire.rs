//! `leanwire`: the command-line face of leanwire.
//!
//! ```text
//! leanwire actor parse [--dialect dotnet|jvm] [PATH... | -]
//! leanwire actor valid-element [--dialect dotnet|jvm] NAME... | -
//! leanwire dns decode [HEX... | -]
//! ```
//!
//! Each command prints one JSON object per input, on one line. A bad input is
//! reported in its object and does not change the exit status; a usage error
//! exits with 2.

use std::io::{self, BufRead, BufWriter, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use leanwire_native::core::actor::Dialect;
use leanwire_native::core::report::{ActorPathReport, DnsMessageReport, ElementReport};

#[derive(Parser)]
#[command(name = "leanwire", version, about = "Allocation-free protocol toolkit")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Akka actor paths and addresses.
    #[command(subcommand)]
    Actor(ActorCommand),
    /// DNS messages.
    #[command(subcommand)]
    Dns(DnsCommand),
}

#[derive(Subcommand)]
enum DnsCommand {
    /// Decode DNS messages given in hex, one JSON report per message.
    Decode {
        /// The messages in hex (spaces allowed); `-` reads one message per line from stdin.
        #[arg(required = true, value_name = "HEX")]
        inputs: Vec<String>,
    },
}

#[derive(Subcommand)]
enum ActorCommand {
    /// Parse actor paths, one JSON report per path.
    Parse {
        /// Which Akka implementation's grammar to follow.
        #[arg(long, value_enum, default_value_t = DialectArg::Dotnet)]
        dialect: DialectArg,
        /// The paths; `-` reads one path per line from stdin.
        #[arg(required = true, value_name = "PATH")]
        inputs: Vec<String>,
    },
    /// Check actor names (path elements), one JSON report per name.
    ValidElement {
        /// Which Akka implementation's rules to follow.
        #[arg(long, value_enum, default_value_t = DialectArg::Dotnet)]
        dialect: DialectArg,
        /// The names; `-` reads one name per line from stdin.
        #[arg(required = true, value_name = "NAME")]
        inputs: Vec<String>,
    },
}

#[derive(Copy, Clone, ValueEnum)]
enum DialectArg {
    /// Akka.NET.
    Dotnet,
    /// Akka JVM and Apache Pekko.
    Jvm,
}

impl From<DialectArg> for Dialect {
    fn from(d: DialectArg) -> Dialect {
        match d {
            DialectArg::Dotnet => Dialect::DotNet,
            DialectArg::Jvm => Dialect::Jvm,
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Actor(ActorCommand::Parse { dialect, inputs }) => {
            each_input(&inputs, |out, input| {
                serde_json::to_writer(out, &ActorPathReport::parse(input, dialect.into()))
            })
        }
        Command::Actor(ActorCommand::ValidElement { dialect, inputs }) => {
            each_input(&inputs, |out, input| {
                serde_json::to_writer(out, &ElementReport::check(input, dialect.into()))
            })
        }
        Command::Dns(DnsCommand::Decode { inputs }) => {
            let mut bytes = Vec::with_capacity(512);
            each_input(&inputs, |out, input| {
                let report = match decode_hex(input, &mut bytes) {
                    Ok(()) => DnsMessageReport::decode(&bytes),
                    Err(error) => DnsMessageReport::Failed { ok: false, error },
                };
                serde_json::to_writer(out, &report)
            })
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // A closed pipe (`leanwire ... | head`) is the reader's choice, not a failure.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("leanwire: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Runs `report` on each input, one line of output each, where `-` stands
/// for the lines of stdin.
fn each_input(
    inputs: &[String],
    mut report: impl FnMut(&mut dyn Write, &str) -> serde_json::Result<()>,
) -> io::Result<()> {
    let mut out = BufWriter::new(io::stdout().lock());
    let mut emit = |input: &str| -> io::Result<()> {
        report(&mut out, input)?;
        out.write_all(b"\n")
    };
    for input in inputs {
        if input != "-" {
            emit(input)?;
            continue;
        }
        let mut stdin = io::stdin().lock();
        let mut line = String::new();
        while stdin.read_line(&mut line)? != 0 {
            let text = line.strip_suffix('\n').unwrap_or(&line);
            emit(text.strip_suffix('\r').unwrap_or(text))?;
            line.clear();
        }
    }
    out.flush()
}

/// Reads hex digits into `out`, skipping ASCII whitespace.
fn decode_hex(text: &str, out: &mut Vec<u8>) -> Result<(), String> {
    out.clear();
    let mut high = None;
    for (at, b) in text.bytes().enumerate() {
        if b.is_ascii_whitespace() {
            continue;
        }
        let digit = (b as char)
            .to_digit(16)
            .ok_or_else(|| format!("invalid hex digit {:?} at offset {at}", b as char))?
            as u8;
        match high.take() {
            None => high = Some(digit),
            Some(h) => out.push(h << 4 | digit),
        }
    }
    match high {
        None => Ok(()),
        Some(_) => Err(format!("odd number of hex digits ({})", text.len())),
    }
}
