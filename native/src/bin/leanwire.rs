//! `leanwire`: the command-line face of leanwire. What it prints, and when
//! it fails, lives in the library ([`leanwire_native::cli`]); this file
//! reads the arguments.
//!
//! ```text
//! leanwire actor parse [--dialect dotnet|jvm] [PATH... | -]
//! leanwire actor valid-element [--dialect dotnet|jvm] NAME... | -
//! leanwire dns decode [HEX... | -]
//! leanwire dns query [-x ADDRESS | NAME] [TYPE] [CLASS] [@SERVER[:PORT]] [-p PORT]
//!                    [--short | --json] [--tcp] [--dnssec] [--timeout SECONDS]
//! leanwire resolve HOST... | -
//! leanwire tds decode [--tokens-only | --pcap] [--chunk N] [--arena-limit BYTES] [FILE | -]
//! leanwire mkdir [-p] PATH...
//! leanwire rm [-r] PATH...
//! leanwire serve [--addr 127.0.0.1:8080] [--threads N] [--dispatch inline|pool]
//! leanwire completions bash|zsh|fish|elvish|powershell
//! leanwire man DIRECTORY
//! ```
//!
//! `actor`, `dns decode` and `resolve` print one JSON object per input, on
//! one line, and `tds decode` one per token. A bad input is reported in its
//! object; `resolve` exits with 1 if any host failed to resolve, and the
//! others' status does not change. A usage error exits with 2.
//!
//! `dns query` asks one question and prints the response as dig does, with
//! `--short` only the answers' data, or with `--json` as the one-line report
//! of `dns decode`. A response is a success whatever its rcode (NXDOMAIN
//! included); no response at all exits with 9, as dig does, and any other
//! failure with 1.
//!
//! `mkdir` and `rm` act on each path in turn and print nothing on success;
//! a path that fails is reported on stderr, the rest are still tried, and
//! the exit status is 1.
//!
//! `serve` answers `GET /json` and `GET /plaintext` (the TechEmpower tests)
//! until SIGINT or SIGTERM, then finishes the requests in flight and exits 0.

use std::io::{self, BufWriter, Write};
use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::builder::{PossibleValuesParser, TypedValueParser as _};
use clap::error::ErrorKind;
use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};
use clap_complete::Shell;
use leanwire_native::cli::host::HostReport;
use leanwire_native::cli::query::{
    Format, QueryFailure, Question, WordsError, parse_seconds, parse_server, reverse_name,
    write_failure, write_response,
};
use leanwire_native::cli::{json_line, lines, tds};
use leanwire_native::core::actor::Dialect;
use leanwire_native::core::hex;
use leanwire_native::core::report::{
    ActorPathReport, DecodeOptions, DnsMessageReport, ElementReport,
};
use leanwire_native::core::tds::{DEFAULT_ARENA_LIMIT, TdsVersion};
use leanwire_native::fs;
use leanwire_native::http;
use leanwire_native::stub::{DNS_PORT, MAX_TIMEOUT, Response, StubResolver};

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
    /// TDS (SQL Server) server responses.
    #[command(subcommand)]
    Tds(TdsCommand),
    /// Resolve host names with the OS resolver, one JSON report per host.
    Resolve {
        /// Names or IP literals; `-` reads one host per line from stdin.
        #[arg(required = true, value_name = "HOST")]
        inputs: Vec<String>,
    },
    /// Create directories, without heap allocation.
    Mkdir {
        /// Create missing parents too, and accept a directory that exists.
        #[arg(short = 'p', long)]
        parents: bool,
        /// The directories to create.
        #[arg(required = true, value_name = "PATH")]
        paths: Vec<PathBuf>,
    },
    /// Remove files, or with -r whole trees, following no symbolic link.
    Rm {
        /// Remove directories and everything under them.
        #[arg(short = 'r', short_alias = 'R', long)]
        recursive: bool,
        /// The files or directories to remove.
        #[arg(required = true, value_name = "PATH")]
        paths: Vec<PathBuf>,
    },
    /// Serve GET /json and GET /plaintext over HTTP/1.1 until SIGINT or SIGTERM.
    Serve {
        /// The address to listen on; port 0 picks a free port.
        #[arg(long, default_value = "127.0.0.1:8080")]
        addr: SocketAddr,
        /// Worker threads, which share the listeners and connections [default: one per CPU].
        #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
        threads: Option<u16>,
        /// Which thread runs the handler: the one that received the request, or a separate pool
        /// that each request is handed to and its response handed back from.
        #[arg(long, value_enum, default_value_t = DispatchArg::Inline)]
        dispatch: DispatchArg,
        /// Connections open at once; one more is answered 503.
        #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..))]
        max_connections: u64,
        /// Seconds a request (head and body) may take to arrive before it is answered 408.
        #[arg(long, default_value = "10", value_name = "SECONDS", value_parser = parse_server_timeout)]
        header_timeout: Duration,
        /// Seconds a connection may wait between requests before it is closed.
        #[arg(long, default_value = "60", value_name = "SECONDS", value_parser = parse_server_timeout)]
        idle_timeout: Duration,
        /// Seconds a response may wait for a client that does not read it before the connection is closed.
        #[arg(long, default_value = "10", value_name = "SECONDS", value_parser = parse_server_timeout)]
        send_timeout: Duration,
        /// The kernel's send buffer of each connection in bytes (SO_SNDBUF), which bounds what a
        /// client that does not read can hold of the machine's TCP memory [default: the OS's].
        #[arg(long, value_name = "BYTES", value_parser = clap::value_parser!(u64).range(1..))]
        send_buffer: Option<u64>,
        /// The largest request body in bytes; a larger one is answered 413.
        #[arg(long, default_value_t = http::DEFAULT_MAX_BODY as u64, value_name = "BYTES")]
        max_body: u64,
    },
    /// Print the completion script of a shell: `leanwire completions bash > ~/.local/share/bash-completion/completions/leanwire`.
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: Shell,
    },
    /// Write the manual pages (leanwire.1 and one per subcommand) into a directory.
    #[command(hide = true)]
    Man {
        /// Where to write them; it is created if missing.
        #[arg(value_name = "DIRECTORY")]
        directory: PathBuf,
    },
}

#[derive(Copy, Clone, ValueEnum)]
enum DispatchArg {
    Inline,
    Pool,
}

#[derive(Subcommand)]
enum TdsCommand {
    /// Decode a server's TDS byte stream, one JSON object per token.
    Decode {
        /// The stream: a file, or `-` (the default) for stdin.
        #[arg(default_value = "-", value_name = "FILE")]
        input: String,
        /// The input is a bare token stream, without packet headers.
        #[arg(long, conflicts_with = "pcap")]
        tokens_only: bool,
        /// The input is a pcap or pcapng capture: decode what port 1433 sent.
        #[arg(long)]
        pcap: bool,
        /// Feed the decoder N bytes at a time, up to 1 MiB (the output is the same for every N).
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
        chunk: Option<u64>,
        /// The TDS version to read until a LOGINACK says otherwise.
        #[arg(
            long,
            default_value = "7.4",
            value_parser = PossibleValuesParser::new(["7.1", "7.2", "7.3", "7.4"])
                .try_map(|name| TdsVersion::from_name(&name).ok_or("not a TDS version")),
        )]
        tds_version: TdsVersion,
        /// The most bytes of memory one result set's column metadata may take;
        /// a stream that needs more stops with an ArenaFull error.
        #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_ARENA_LIMIT as u64)]
        arena_limit: u64,
    },
}

#[derive(Subcommand)]
enum DnsCommand {
    /// Decode DNS messages given in hex, one JSON report per message.
    Decode {
        /// The messages in hex (spaces allowed); `-` reads one message per line from stdin.
        #[arg(required = true, value_name = "HEX")]
        inputs: Vec<String>,
    },
    /// Ask a DNS server one question and print the response, like dig.
    Query(QueryArgs),
}

/// `dns query`: the words are read by [`Question::from_words`], since dig
/// lets `@SERVER` come anywhere.
#[derive(Args)]
#[command(
    override_usage = "leanwire dns query [OPTIONS] NAME [TYPE] [CLASS] [@SERVER[:PORT]]\n       \
                      leanwire dns query [OPTIONS] -x ADDRESS [TYPE] [CLASS] [@SERVER[:PORT]]"
)]
struct QueryArgs {
    /// NAME, then TYPE (any mnemonic or TYPEnnn, case ignored; default A)
    /// and CLASS (IN, CH, HS or CLASSnnn; default IN) in either order, and
    /// `@SERVER[:PORT]` in any position: an IPv4 or IPv6 address
    /// (`@[::1]:5353` with a port). Without it, the servers of
    /// /etc/resolv.conf are asked.
    // Not `required`: a lone `@SERVER` is missing its name as well, and
    // `Question::from_words` says so for both.
    #[arg(num_args = 0..=4, value_name = "ARG")]
    words: Vec<String>,
    /// Reverse lookup: ask for the PTR record of ADDRESS under in-addr.arpa
    /// or ip6.arpa.
    #[arg(short = 'x', value_name = "ADDRESS")]
    reverse: Option<IpAddr>,
    /// The port to ask on, for a server given without one and for those of
    /// /etc/resolv.conf.
    #[arg(short = 'p', long, value_name = "PORT", default_value_t = DNS_PORT)]
    port: u16,
    /// Print only the data of the answers, one record to a line, as
    /// `dig +short` does.
    #[arg(long, conflicts_with = "json")]
    short: bool,
    /// Ask over TCP from the start (UDP falls back to TCP anyway when the
    /// answer is truncated).
    #[arg(long)]
    tcp: bool,
    /// Set the DO bit, asking for DNSSEC records.
    #[arg(long)]
    dnssec: bool,
    /// Print the response as the one-line JSON report of `dns decode`.
    #[arg(long)]
    json: bool,
    /// How long each try with a server may take, in seconds (fractions
    /// allowed, at most 3600); each server is tried twice.
    #[arg(long, value_name = "SECONDS", value_parser = parse_timeout)]
    timeout: Option<Duration>,
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
                json_line(out, &ActorPathReport::parse(input, dialect.into()))
            })
        }
        Command::Actor(ActorCommand::ValidElement { dialect, inputs }) => {
            each_input(&inputs, |out, input| {
                json_line(out, &ElementReport::check(input, dialect.into()))
            })
        }
        Command::Dns(DnsCommand::Decode { inputs }) => {
            let mut bytes = Vec::with_capacity(512);
            each_input(&inputs, |out, input| {
                let report = match decode_hex(input, &mut bytes) {
                    Ok(()) => DnsMessageReport::decode(&bytes),
                    Err(error) => DnsMessageReport::Failed {
                        ok: false,
                        error: error.to_string(),
                    },
                };
                json_line(out, &report)
            })
        }
        Command::Dns(DnsCommand::Query(args)) => return dns_query(&args),
        Command::Tds(TdsCommand::Decode {
            input,
            tokens_only,
            pcap,
            chunk,
            tds_version,
            arena_limit,
        }) => {
            let options = DecodeOptions {
                tokens_only,
                version: tds_version,
                arena_limit: usize::try_from(arena_limit).unwrap_or(usize::MAX),
            };
            let chunk = chunk.map(|n| usize::try_from(n).unwrap_or(usize::MAX));
            return tds_decode(&input, pcap, chunk, options);
        }
        Command::Resolve { inputs } => {
            let mut failed = false;
            let written = each_input(&inputs, |out, host| {
                let report = HostReport::lookup(host);
                failed |= !report.is_ok();
                json_line(out, &report)
            });
            if written.is_ok() && failed {
                return ExitCode::FAILURE;
            }
            written
        }
        Command::Mkdir { parents, paths } => {
            let create: fn(&Path) -> io::Result<()> = if parents {
                |path: &Path| fs::create_dir_all(path)
            } else {
                |path: &Path| fs::create_dir(path)
            };
            return each_path(&paths, "cannot create directory", create);
        }
        Command::Rm { recursive, paths } => {
            let remove: fn(&Path) -> io::Result<()> = if recursive {
                |path: &Path| fs::remove_dir_all(path)
            } else {
                |path: &Path| fs::remove_file(path)
            };
            return each_path(&paths, "cannot remove", remove);
        }
        Command::Serve {
            addr,
            threads,
            dispatch,
            max_connections,
            header_timeout,
            idle_timeout,
            send_timeout,
            send_buffer,
            max_body,
        } => {
            let defaults = http::Config::default();
            let config = http::Config {
                threads: threads.map_or(defaults.threads, usize::from),
                dispatch: match dispatch {
                    DispatchArg::Inline => http::Dispatch::Inline,
                    DispatchArg::Pool => http::Dispatch::Pool,
                },
                max_connections: usize::try_from(max_connections).unwrap_or(usize::MAX),
                header_timeout,
                idle_timeout,
                send_timeout,
                send_buffer: send_buffer.map(|bytes| usize::try_from(bytes).unwrap_or(usize::MAX)),
                max_body: usize::try_from(max_body).unwrap_or(usize::MAX),
                ..defaults
            };
            serve(addr, config)
        }
        Command::Completions { shell } => {
            clap_complete::generate(shell, &mut Cli::command(), "leanwire", &mut io::stdout());
            Ok(())
        }
        Command::Man { directory } => fs::create_dir_all(&directory)
            .and_then(|()| clap_mangen::generate_to(Cli::command(), &directory)),
    };
    exit_status(result)
}

/// Success, or the failure reported on stderr; a closed pipe
/// (`leanwire ... | head`) is the reader's choice, not a failure.
fn exit_status(result: io::Result<()>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("leanwire: {e}");
            ExitCode::FAILURE
        }
    }
}

/// [`lines::each_input`] over stdin and stdout.
fn each_input(
    inputs: &[String],
    report: impl FnMut(&mut BufWriter<io::StdoutLock<'static>>, &str) -> io::Result<()>,
) -> io::Result<()> {
    let mut out = BufWriter::new(io::stdout().lock());
    lines::each_input(inputs, io::stdin().lock(), &mut out, report)
}

/// Runs `leanwire serve`: prints `listening on http://ADDR` once bound, and
/// shuts down gracefully on SIGINT or SIGTERM.
fn serve(addr: SocketAddr, config: http::Config) -> io::Result<()> {
    let server = http::Server::bind(addr, config, http::HelloWorld)?;
    let shutdown = server.shutdown_handle();
    ctrlc::set_handler(move || shutdown.shutdown()).map_err(io::Error::other)?;
    let mut out = io::stdout().lock();
    writeln!(out, "listening on http://{}", server.local_addr())?;
    out.flush()?;
    drop(out);
    server.run()
}

/// Runs `act` on each path, reporting each failure on stderr as
/// `leanwire: WHAT 'PATH': ERROR`; exits with 1 if any failed.
fn each_path(paths: &[PathBuf], what: &str, act: fn(&Path) -> io::Result<()>) -> ExitCode {
    let mut status = ExitCode::SUCCESS;
    for path in paths {
        if let Err(e) = act(path) {
            eprintln!("leanwire: {what} '{}': {e}", path.display());
            status = ExitCode::FAILURE;
        }
    }
    status
}

/// Reads hex digits into `out`, skipping ASCII whitespace.
fn decode_hex(text: &str, out: &mut Vec<u8>) -> Result<(), hex::Error> {
    out.clear();
    for byte in hex::decode(text) {
        out.push(byte?);
    }
    Ok(())
}

/// `leanwire tds decode`: see [`tds::decode`]; exits with 1 on a decode error.
fn tds_decode(input: &str, pcap: bool, chunk: Option<usize>, options: DecodeOptions) -> ExitCode {
    let mut source = match tds::open(input, pcap) {
        Ok(source) => source,
        Err(e) => {
            eprintln!("leanwire: {input}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut out = BufWriter::new(io::stdout().lock());
    match tds::decode(&mut source, &mut out, chunk, options) {
        Ok(Ok(())) => ExitCode::SUCCESS,
        Ok(Err(_)) => ExitCode::FAILURE,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("leanwire: {input}: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `dns query`: asks, prints the response (or why there is none), and picks
/// the exit status.
fn dns_query(args: &QueryArgs) -> ExitCode {
    let reverse = args.reverse.map(reverse_name);
    let question = match Question::from_words(&args.words, reverse.as_deref()) {
        Ok(question) => question,
        Err(e) => usage_error(
            match e {
                WordsError::MissingName => ErrorKind::MissingRequiredArgument,
                WordsError::SecondServer(_) => ErrorKind::ArgumentConflict,
                WordsError::Unexpected(_) => ErrorKind::UnknownArgument,
            },
            e,
        ),
    };
    let format = match (args.short, args.json) {
        (true, _) => Format::Short,
        (_, true) => Format::Json,
        _ => Format::Dig,
    };
    let mut out = io::stdout().lock();
    let (written, status) = match ask(args, &question)
        .and_then(|response| write_response(&mut out, &response, format))
    {
        Ok(written) => (written, ExitCode::SUCCESS),
        Err(failure) => {
            eprintln!("leanwire: {}", failure.message);
            let written = write_failure(&mut out, &failure, format);
            (written, ExitCode::from(failure.status))
        }
    };
    match written.and_then(|()| out.flush()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => exit_status(Err(e)),
        _ => status,
    }
}

/// Asks the server named after `@`, or else the system's.
fn ask(args: &QueryArgs, question: &Question<'_>) -> Result<Response, QueryFailure> {
    let resolver = match question.server {
        Some(text) => StubResolver::new([parse_server(text, args.port).ok_or_else(|| {
            QueryFailure::other(format!(
                "bad server {text:?}: expected an IPv4 or IPv6 address and an \
                 optional port (@192.0.2.1:5353, @[2001:db8::1]:5353)"
            ))
        })?]),
        None => StubResolver::from_system()
            .map_err(|e| QueryFailure::other(format!("/etc/resolv.conf: {e}")))?
            .port(args.port),
    };
    let mut resolver = resolver
        .recursion_desired(true)
        .dnssec(args.dnssec)
        .tcp_only(args.tcp)
        .class(question.class);
    if let Some(timeout) = args.timeout {
        resolver = resolver.timeout(timeout);
    }
    resolver
        .query_sync(question.name, question.rtype)
        .map_err(|e| QueryFailure::from_stub(e, resolver.servers()))
}

/// Exits with a clap usage error (status 2) that shows `dns query`'s usage.
fn usage_error(kind: ErrorKind, message: impl std::fmt::Display) -> ! {
    let mut cli = Cli::command();
    cli.build();
    match cli
        .find_subcommand_mut("dns")
        .and_then(|dns| dns.find_subcommand_mut("query"))
    {
        Some(query) => query.error(kind, message).exit(),
        None => cli.error(kind, message).exit(),
    }
}

/// `dns query --timeout`: see [`parse_seconds`], up to [`MAX_TIMEOUT`], an hour.
fn parse_timeout(text: &str) -> Result<Duration, String> {
    parse_seconds(text, MAX_TIMEOUT)
}

/// The timeouts of `serve`: see [`parse_seconds`], up to [`http::MAX_TIMEOUT`], a day.
fn parse_server_timeout(text: &str) -> Result<Duration, String> {
    parse_seconds(text, http::MAX_TIMEOUT)
}
