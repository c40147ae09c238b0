//! `leanwire`: the command-line face of leanwire.
//!
//! ```text
//! leanwire actor parse [--dialect dotnet|jvm] [PATH... | -]
//! leanwire actor valid-element [--dialect dotnet|jvm] NAME... | -
//! leanwire dns decode [HEX... | -]
//! leanwire dns query NAME [TYPE] [@SERVER[:PORT]] [--tcp] [--dnssec] [--json] [--timeout SECONDS]
//! leanwire resolve HOST... | -
//! leanwire tds decode [--tokens-only | --pcap] [--chunk N] [--arena-limit BYTES] [FILE | -]
//! leanwire mkdir [-p] PATH...
//! leanwire rm [-r] PATH...
//! leanwire serve [--addr 127.0.0.1:8080] [--threads N] [--dispatch inline|pool]
//! ```
//!
//! Each command but `dns query` prints one JSON object per input, on one
//! line. A bad input is reported in its object and does not change the exit
//! status; a usage error exits with 2.
//!
//! `dns query` asks one question and prints the response as dig does, or
//! with `--json` as the one-line report of `dns decode`. A response is a
//! success whatever its rcode (NXDOMAIN included); no response at all exits
//! with 9, as dig does, and any other failure with 1.
//!
//! `mkdir` and `rm` act on each path in turn and print nothing on success;
//! a path that fails is reported on stderr, the rest are still tried, and
//! the exit status is 1.
//!
//! `serve` answers `GET /json` and `GET /plaintext` (the TechEmpower tests)
//! until SIGINT or SIGTERM, then finishes the requests in flight and exits 0.

use std::fmt::{self, Write as _};
use std::io::{self, BufRead, BufWriter, Read, Write};
use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::error::ErrorKind;
use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};
use leanwire_native::core::actor::Dialect;
use leanwire_native::core::dns::{Message, Record, Rtype};
use leanwire_native::core::report::{
    ActorPathReport, DecodeOptions, DnsMessageReport, ElementReport, ErrorReport, TdsDecoder,
};
use leanwire_native::core::tds::{DEFAULT_ARENA_LIMIT, TdsVersion};
use leanwire_native::fs;
use leanwire_native::http;
use leanwire_native::resolve::lookup_host;
use leanwire_native::stub::{DNS_PORT, MAX_TIMEOUT, Response, StubResolver};
use serde::Serialize;

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
        /// Worker threads, each with its own listener [default: one per CPU].
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
        /// The largest request body in bytes; a larger one is answered 413.
        #[arg(long, default_value_t = http::DEFAULT_MAX_BODY as u64, value_name = "BYTES")]
        max_body: u64,
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
        #[arg(long, value_enum, default_value_t = TdsVersionArg::V7_4)]
        tds_version: TdsVersionArg,
        /// The most bytes of memory one result set's column metadata may take;
        /// a stream that needs more stops with an ArenaFull error.
        #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_ARENA_LIMIT as u64)]
        arena_limit: u64,
    },
}

#[derive(Copy, Clone, ValueEnum)]
enum TdsVersionArg {
    #[value(name = "7.1")]
    V7_1,
    #[value(name = "7.2")]
    V7_2,
    #[value(name = "7.3")]
    V7_3,
    #[value(name = "7.4")]
    V7_4,
}

impl From<TdsVersionArg> for TdsVersion {
    fn from(v: TdsVersionArg) -> TdsVersion {
        match v {
            TdsVersionArg::V7_1 => TdsVersion::V7_1,
            TdsVersionArg::V7_2 => TdsVersion::V7_2,
            TdsVersionArg::V7_3 => TdsVersion::V7_3B,
            TdsVersionArg::V7_4 => TdsVersion::V7_4,
        }
    }
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

/// `dns query`: the words are parsed by [`QueryArgs::question`], since dig
/// lets `@SERVER` come anywhere.
#[derive(Args)]
#[command(override_usage = "leanwire dns query [OPTIONS] NAME [TYPE] [@SERVER[:PORT]]")]
struct QueryArgs {
    /// NAME, then TYPE (any mnemonic or TYPEnnn, case ignored; default A),
    /// and `@SERVER[:PORT]` in any position: an IPv4 or IPv6 address
    /// (`@[::1]:5353` with a port). Without it, the servers of
    /// /etc/resolv.conf are asked.
    // Not `required`: a lone `@SERVER` is missing its name as well, and
    // `question` says so for both.
    #[arg(num_args = 1..=3, value_name = "ARG")]
    words: Vec<String>,
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
                version: tds_version.into(),
                arena_limit: usize::try_from(arena_limit).unwrap_or(usize::MAX),
            };
            return tds_decode(&input, pcap, chunk, options);
        }
        Command::Resolve { inputs } => each_input(&inputs, |out, host| {
            serde_json::to_writer(out, &HostReport::lookup(host))
        }),
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
                max_body: usize::try_from(max_body).unwrap_or(usize::MAX),
                ..defaults
            };
            serve(addr, config)
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

/// The exit status when no server answered, as dig's.
const EXIT_NO_ANSWER: u8 = 9;

/// `dns query`: asks, prints the response (or why there is none), and picks
/// the exit status.
fn dns_query(args: &QueryArgs) -> ExitCode {
    let (name, rtype, server) = args.question();
    let mut out = io::stdout().lock();
    let printed = args.ask(name, rtype, server).and_then(|response| {
        if !args.json {
            // RDATA that is malformed for its type prints in the RFC 3597 form.
            return Ok(print_dig(&mut out, &response));
        }
        match DnsMessageReport::decode(response.bytes()) {
            // The report fails a message with malformed RDATA; printing it
            // would say `"ok":false` with status 0.
            DnsMessageReport::Failed { error, .. } => Err(QueryFailure::other(format!(
                "the response from {} does not decode: {error}",
                response.server()
            ))),
            report => Ok(json_line(&mut out, &report)),
        }
    });
    let (written, status) = match printed {
        Ok(written) => (written, ExitCode::SUCCESS),
        Err(failure) => {
            eprintln!("leanwire: {}", failure.message);
            let written = if args.json {
                let report = DnsMessageReport::Failed {
                    ok: false,
                    error: failure.message,
                };
                json_line(&mut out, &report)
            } else {
                Ok(())
            };
            (written, ExitCode::from(failure.status))
        }
    };
    match written.and_then(|()| out.flush()) {
        Ok(()) => status,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => status,
        Err(e) => {
            eprintln!("leanwire: {e}");
            ExitCode::FAILURE
        }
    }
}

impl QueryArgs {
    /// The name, the type and the server's text from the words, which dig
    /// lets come in any order but NAME before TYPE. A missing name, a bad
    /// type or a word too many is a usage error: exits with 2.
    fn question(&self) -> (&str, Rtype, Option<&str>) {
        let mut server = None;
        let mut rest = Vec::with_capacity(2);
        for word in &self.words {
            match word.strip_prefix('@') {
                Some(_) if server.is_some() => usage_error(
                    ErrorKind::ArgumentConflict,
                    format!("a second server '{word}': one @SERVER at most"),
                ),
                Some(text) => server = Some(text),
                None => rest.push(word.as_str()),
            }
        }
        let (name, rtype) = match rest[..] {
            [name] => (name, Rtype::A),
            [name, rtype] => match Rtype::from_mnemonic(rtype) {
                Some(rtype) => (name, rtype),
                None => usage_error(
                    ErrorKind::InvalidValue,
                    format!(
                        "invalid value '{rtype}' for 'TYPE': not a DNS type \
                         (a mnemonic such as AAAA, or TYPEnnn)"
                    ),
                ),
            },
            [] => usage_error(
                ErrorKind::MissingRequiredArgument,
                "the following required arguments were not provided:\n  NAME",
            ),
            [_, _, extra, ..] => usage_error(
                ErrorKind::UnknownArgument,
                format!("unexpected argument '{extra}': NAME and TYPE are already given"),
            ),
        };
        (name, rtype, server)
    }

    /// Asks the server named after `@`, or else the system's.
    fn ask(
        &self,
        name: &str,
        rtype: Rtype,
        server: Option<&str>,
    ) -> Result<Response, QueryFailure> {
        let resolver = match server {
            Some(text) => StubResolver::new([parse_server(text).ok_or_else(|| {
                QueryFailure::other(format!(
                    "bad server {text:?}: expected an IPv4 or IPv6 address and an \
                     optional port (@192.0.2.1:5353, @[2001:db8::1]:5353)"
                ))
            })?]),
            None => StubResolver::from_system()
                .map_err(|e| QueryFailure::other(format!("/etc/resolv.conf: {e}")))?,
        };
        let mut resolver = resolver
            .recursion_desired(true)
            .dnssec(self.dnssec)
            .tcp_only(self.tcp);
        if let Some(timeout) = self.timeout {
            resolver = resolver.timeout(timeout);
        }
        resolver
            .query_sync(name, rtype)
            .map_err(|e| QueryFailure::from_stub(e, resolver.servers()))
    }
}

/// Exits with a clap usage error (status 2) that shows `dns query`'s usage.
fn usage_error(kind: ErrorKind, message: impl fmt::Display) -> ! {
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

/// `SERVER[:PORT]` after the `@`: `192.0.2.1`, `192.0.2.1:5353`,
/// `2001:db8::1`, `[2001:db8::1]` or `[2001:db8::1]:5353`. A bare IPv6
/// address takes no port: its last group would be read as one.
fn parse_server(text: &str) -> Option<SocketAddr> {
    if let Ok(ip) = text.parse::<IpAddr>() {
        return Some(SocketAddr::new(ip, DNS_PORT));
    }
    if let Ok(address) = text.parse::<SocketAddr>() {
        return Some(address);
    }
    let inner = text.strip_prefix('[')?.strip_suffix(']')?;
    let ip = inner.parse::<std::net::Ipv6Addr>().ok()?;
    Some(SocketAddr::new(ip.into(), DNS_PORT))
}

/// `dns query --timeout`: see [`parse_seconds`], up to [`MAX_TIMEOUT`], an hour.
fn parse_timeout(text: &str) -> Result<Duration, String> {
    parse_seconds(text, MAX_TIMEOUT)
}

/// The timeouts of `serve`: see [`parse_seconds`], up to [`http::MAX_TIMEOUT`], a day.
fn parse_server_timeout(text: &str) -> Result<Duration, String> {
    parse_seconds(text, http::MAX_TIMEOUT)
}

/// A number of seconds greater than 0 and at most `max`; NaN, infinities
/// and anything larger are refused.
fn parse_seconds(text: &str, max: Duration) -> Result<Duration, String> {
    let max = max.as_secs_f64();
    match text.parse::<f64>() {
        Ok(seconds) if seconds > 0.0 && seconds <= max => {
            Duration::try_from_secs_f64(seconds).map_err(|e| e.to_string())
        }
        _ => Err(format!(
            "expected a number of seconds greater than 0 and at most {max}"
        )),
    }
}

/// Why `dns query` has no response to print, and the exit status that says so.
struct QueryFailure {
    status: u8,
    message: String,
}

impl QueryFailure {
    /// A failure that is not the servers' silence: status 1.
    fn other(message: String) -> Self {
        QueryFailure { status: 1, message }
    }

    fn no_answer(message: String) -> Self {
        QueryFailure {
            status: EXIT_NO_ANSWER,
            message,
        }
    }

    /// Sorts an error of `StubResolver::query`: a query refused before it
    /// was sent (a bad name) is status 1; anything on the way to or from the
    /// servers means they gave no answer, status 9.
    fn from_stub(e: io::Error, servers: &[SocketAddr]) -> Self {
        let servers = servers
            .iter()
            .map(SocketAddr::to_string)
            .collect::<Vec<_>>()
            .join(", ");
        match e.kind() {
            io::ErrorKind::InvalidInput | io::ErrorKind::NotFound | io::ErrorKind::Other => {
                QueryFailure::other(e.to_string())
            }
            // The resolver's own errors already say which server, and how long
            // or what was wrong: "no answer from 192.0.2.1:53 within 2s".
            io::ErrorKind::TimedOut | io::ErrorKind::InvalidData if e.get_ref().is_some() => {
                QueryFailure::no_answer(e.to_string())
            }
            // A timeout the OS reported without saying more.
            io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock => {
                QueryFailure::no_answer(format!("no answer from {servers}: timed out"))
            }
            _ => QueryFailure::no_answer(format!("no answer from {servers}: {e}")),
        }
    }
}

/// Writes `report` as one line of JSON.
fn json_line(out: &mut impl Write, report: &impl Serialize) -> io::Result<()> {
    serde_json::to_writer(&mut *out, report)?;
    out.write_all(b"\n")
}

/// Writes `response` as dig does.
fn print_dig(out: &mut impl Write, response: &Response) -> io::Result<()> {
    // The stub resolver checked the message when it arrived.
    let message = response
        .message()
        .map_err(|e| io::Error::other(format!("malformed response: {e}")))?;
    write!(out, "{}", DigText { response, message })
}

/// dig's columns: a record's TTL, class, type and RDATA start at these, with
/// tab stops every 8 (`dns_master_stylecreate(.., 24, 32, 40, 48, 80, 8, ..)`
/// in BIND's `bin/dig/dig.c`). A question's class and type go to the same
/// columns as a record's, counted from after the question's `;`.
const TTL_COLUMN: usize = 24;
const CLASS_COLUMN: usize = 32;
const TYPE_COLUMN: usize = 40;
const RDATA_COLUMN: usize = 48;
const TAB_WIDTH: usize = 8;

/// A response in dig's text form: the header, the OPT pseudosection, the
/// sections that are not empty, and the query's statistics.
struct DigText<'a> {
    response: &'a Response,
    message: Message<'a>,
}

impl fmt::Display for DigText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let message = &self.message;
        let h = message.header();
        writeln!(
            f,
            ";; ->>HEADER<<- opcode: {}, status: {}, id: {}",
            h.opcode,
            message.rcode(),
            h.id
        )?;
        f.write_str(";; flags:")?;
        let flags = [
            (h.qr, "qr"),
            (h.aa, "aa"),
            (h.tc, "tc"),
            (h.rd, "rd"),
            (h.ra, "ra"),
            (h.ad, "ad"),
            (h.cd, "cd"),
        ];
        for (_, flag) in flags.iter().filter(|(set, _)| *set) {
            write!(f, " {flag}")?;
        }
        if h.z {
            f.write_str("; MBZ: 0x4")?;
        }
        writeln!(
            f,
            "; QUERY: {}, ANSWER: {}, AUTHORITY: {}, ADDITIONAL: {}",
            h.qdcount, h.ancount, h.nscount, h.arcount
        )?;

        if let Some(edns) = message.edns() {
            f.write_str("\n;; OPT PSEUDOSECTION:\n")?;
            write!(f, "; EDNS: version: {}, flags:", edns.version)?;
            if edns.dnssec_ok {
                f.write_str(" do")?;
            }
            if edns.z != 0 {
                write!(f, "; MBZ: {:#06x},", edns.z)?;
            }
            writeln!(f, "; udp: {}", edns.payload_size)?;
            for option in edns.options() {
                writeln!(f, "; {option}")?;
            }
        }

        let mut questions = message.questions().peekable();
        if questions.peek().is_some() {
            f.write_str("\n;; QUESTION SECTION:\n")?;
            for q in questions {
                let (name, class, qtype) = (q.name.to_string(), q.qclass, q.qtype);
                // dig counts the columns from after the `;`.
                f.write_char(';')?;
                columns(
                    f,
                    &name,
                    [
                        (CLASS_COLUMN, &*class.to_string()),
                        (TYPE_COLUMN, &*qtype.to_string()),
                    ],
                )?;
            }
        }

        let sections = [
            ("ANSWER", message.answers()),
            ("AUTHORITY", message.authority()),
            // The OPT record is the pseudosection above.
            ("ADDITIONAL", message.additional()),
        ];
        for (title, records) in sections {
            let mut records = records.filter(|r| r.rtype != Rtype::Opt).peekable();
            if records.peek().is_none() {
                continue;
            }
            write!(f, "\n;; {title} SECTION:\n")?;
            for record in records {
                record_line(f, &record)?;
            }
        }

        let server = self.response.server();
        write!(
            f,
            "\n;; Query time: {} msec\n;; SERVER: {}#{}({})\n;; MSG SIZE  rcvd: {}\n",
            self.response.elapsed().as_millis(),
            server.ip(),
            server.port(),
            self.response.transport(),
            self.response.bytes().len()
        )
    }
}

/// A record as dig prints it: `Record`'s text with its first four spaces
/// turned into tabs to dig's columns. A name prints a space as `\032`, and
/// TTL, class and type have none, so those four are the spaces between the
/// fields; the RDATA keeps its own.
fn record_line(f: &mut fmt::Formatter<'_>, record: &Record<'_>) -> fmt::Result {
    let text = record.to_string();
    let mut fields = text.splitn(5, ' ');
    let name = fields.next().unwrap_or_default();
    let stops = [TTL_COLUMN, CLASS_COLUMN, TYPE_COLUMN, RDATA_COLUMN];
    columns(f, name, stops.into_iter().zip(fields))
}

/// Writes `first`, then each field at its column, and ends the line.
///
/// Tabs pad to the column as in dig. Where the text before a field runs
/// past its column, dig writes one space; this writes one tab, so that the
/// fields always split on tabs.
fn columns<'t>(
    f: &mut fmt::Formatter<'_>,
    first: &str,
    fields: impl IntoIterator<Item = (usize, &'t str)>,
) -> fmt::Result {
    f.write_str(first)?;
    let mut column = first.len();
    for (stop, field) in fields {
        loop {
            f.write_char('\t')?;
            column = (column / TAB_WIDTH + 1) * TAB_WIDTH;
            if column >= stop {
                break;
            }
        }
        f.write_str(field)?;
        column += field.len();
    }
    f.write_char('\n')
}

/// The report for one host of `leanwire resolve`.
///
/// ```json
/// {"host":"localhost","ok":true,"addresses":["127.0.0.1","::1"]}
/// {"host":"x.invalid","ok":false,"error":"Name or service not known"}
/// ```
#[derive(Serialize)]
#[serde(untagged)]
enum HostReport<'a> {
    /// The distinct addresses, in the resolver's order.
    Resolved {
        host: &'a str,
        ok: bool,
        addresses: Box<[IpAddr]>,
    },
    /// The resolver's (or the host check's) error.
    Failed {
        host: &'a str,
        ok: bool,
        error: String,
    },
}

impl<'a> HostReport<'a> {
    fn lookup(host: &'a str) -> Self {
        match lookup_host(host) {
            Ok(addresses) => HostReport::Resolved {
                host,
                ok: true,
                addresses,
            },
            Err(e) => HostReport::Failed {
                host,
                ok: false,
                error: e.to_string(),
            },
        }
    }
}

/// How much `leanwire tds decode` feeds the decoder at a time: what one
/// read returns, up to this; with `--chunk N`, N bytes (at most 1 MiB).
const TDS_PIECE: usize = 64 * 1024;

/// `leanwire tds decode`: one JSON line per token, printed as the input
/// completes it; on a decode error, a last `{"error":...,"offset":N}` line
/// and exit status 1.
fn tds_decode(input: &str, pcap: bool, chunk: Option<u64>, options: DecodeOptions) -> ExitCode {
    let opened: io::Result<Box<dyn Read>> = if input == "-" {
        Ok(Box::new(io::stdin().lock()))
    } else {
        std::fs::File::open(input).map(|file| Box::new(file) as Box<dyn Read>)
    };
    // A capture is taken apart whole; a stream is decoded as it is read.
    let source = opened.and_then(|mut source| {
        if !pcap {
            return Ok(source);
        }
        let mut bytes = Vec::new();
        source.read_to_end(&mut bytes)?;
        let stream = leanwire_native::pcap::server_stream(&bytes, 1433)?;
        Ok(Box::new(io::Cursor::new(stream)) as Box<dyn Read>)
    });
    let mut source = match source {
        Ok(source) => source,
        Err(e) => {
            eprintln!("leanwire: {input}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut decoder = TdsDecoder::new(options);
    let mut buf = vec![0; chunk.map_or(TDS_PIECE, |n| n.min(1 << 20) as usize)];
    let mut reports = Vec::new();
    let mut out = BufWriter::new(io::stdout().lock());
    let decoded = (|| -> io::Result<Result<(), ErrorReport>> {
        loop {
            let n = match read_piece(&mut source, &mut buf, chunk.is_some()) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) => {
                    out.flush()?;
                    return Err(io::Error::new(e.kind(), format!("{input}: {e}")));
                }
            };
            let fed = decoder.feed(&buf[..n], &mut reports);
            for report in reports.drain(..) {
                json_line(&mut out, &report)?;
            }
            if let Err(error) = fed {
                json_line(&mut out, &error)?;
                out.flush()?;
                return Ok(Err(error));
            }
            // What this piece completed goes out before the next read waits.
            out.flush()?;
        }
        let finished = decoder.finish();
        if let Err(error) = &finished {
            json_line(&mut out, error)?;
        }
        out.flush()?;
        Ok(finished)
    })();
    match decoded {
        Ok(Ok(())) => ExitCode::SUCCESS,
        Ok(Err(_)) => ExitCode::FAILURE,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("leanwire: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Reads the next piece of the stream into `buf`: what one read returns,
/// or with `whole` all of `buf` unless the stream ends first. 0 at the end.
fn read_piece(source: &mut dyn Read, buf: &mut [u8], whole: bool) -> io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match source.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => {
                filled += n;
                if !whole {
                    break;
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}
