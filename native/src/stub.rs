//! A stub resolver: it sends one query, built by the core encoder, to the
//! configured servers over UDP, retries over TCP when the answer is
//! truncated, and hands back the checked response.
//!
//! Like [`resolve`](crate::resolve), the async form is primary and runs the
//! blocking socket exchange on the crate's small blocking pool; the sync form
//! is `pollster::block_on` of it.
//!
//! A *try* is one question put to one server: a UDP exchange, and a TCP one
//! after it if the UDP answer is truncated. Each try has one deadline, the
//! resolver's timeout after it starts, which bounds the connect, the writes
//! and every read; a server that trickles its answer a byte at a time cannot
//! stretch it. The servers are tried in order, for as many rounds as the
//! resolver has attempts, so a query that nothing answers gives up after
//! about timeout × attempts × servers.
//!
//! What arrives during a try is sorted much as glibc's `send_dg` sorts it:
//!
//! - a message with another ID, without QR, or with another question (name
//!   compared case-insensitively, type and class) is not a reply to this
//!   query: it is ignored and the try keeps waiting, as a stub resolver
//!   must [RFC 5452 §4.3];
//! - SERVFAIL, NOTIMP or REFUSED ends the try and moves on to the next
//!   server; if no server answers better, the last such reply is the
//!   response, so that its rcode can be seen;
//! - a message shorter than a header, or one with the query's ID that does
//!   not parse, ends the try as an error and moves on (glibc moves on from
//!   the first and waits on after the second);
//! - anything else is the response.

use std::collections::hash_map::RandomState;
use std::fmt;
use std::future::Future;
use std::hash::{BuildHasher, Hasher};
use std::io::{self, Read, Write};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, TcpStream, UdpSocket};
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use crate::blocking;
use crate::core::dns::{
    Class, EdnsParams, HEADER_LEN, Message, MessageBuilder, NameBuf, Rcode, Rtype,
};

/// The DNS port.
pub const DNS_PORT: u16 = 53;

/// The longest timeout a resolver takes; [`StubResolver::timeout`] clamps
/// longer ones to it.
pub const MAX_TIMEOUT: Duration = Duration::from_secs(3600);

/// The shortest timeout a resolver takes, so that every try gets a chance.
pub const MIN_TIMEOUT: Duration = Duration::from_millis(1);

/// The largest `timeout:` of a resolv.conf, in seconds: glibc's
/// `RES_MAXRETRANS` (`resolv/resolv.h`).
const RES_MAXRETRANS: u64 = 30;

/// The largest `attempts:` of a resolv.conf: glibc's `RES_MAXRETRY`.
const RES_MAXRETRY: u64 = 5;

/// How a response arrived.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Transport {
    /// One UDP datagram.
    Udp,
    /// A TCP stream, after a truncated UDP answer or when asked for.
    Tcp,
}

impl fmt::Display for Transport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Transport::Udp => "UDP",
            Transport::Tcp => "TCP",
        })
    }
}

/// A response that matched its query.
#[derive(Clone, Debug)]
pub struct Response {
    bytes: Vec<u8>,
    server: SocketAddr,
    transport: Transport,
    elapsed: Duration,
}

impl Response {
    /// The decoded message. It was checked when it arrived, so this only
    /// fails if that check and this one disagree, which they cannot.
    pub fn message(&self) -> crate::core::dns::Result<Message<'_>> {
        Message::parse(&self.bytes)
    }

    /// The message's bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The server that answered.
    pub fn server(&self) -> SocketAddr {
        self.server
    }

    /// How the answer came.
    pub fn transport(&self) -> Transport {
        self.transport
    }

    /// From sending the query to the answer.
    pub fn elapsed(&self) -> Duration {
        self.elapsed
    }
}

/// A stub resolver's settings; cheap to clone.
///
/// ```no_run
/// use leanwire_native::core::dns::Rtype;
/// use leanwire_native::stub::StubResolver;
///
/// let resolver = StubResolver::from_system()?;
/// let response = resolver.query_sync("example.com", Rtype::A)?;
/// for record in response.message().unwrap().answers() {
///     println!("{record}");
/// }
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct StubResolver {
    config: Arc<Config>,
}

#[derive(Clone, Debug)]
struct Config {
    servers: Vec<SocketAddr>,
    timeout: Duration,
    attempts: u32,
    payload_size: u16,
    dnssec: bool,
    recursion_desired: bool,
    tcp_only: bool,
    class: Class,
}

impl StubResolver {
    /// A resolver that asks `servers`, in order, with a 2-second timeout and
    /// two attempts per server, EDNS with a 1232-byte payload, and RD set.
    pub fn new(servers: impl IntoIterator<Item = SocketAddr>) -> Self {
        StubResolver {
            config: Arc::new(Config {
                servers: servers.into_iter().collect(),
                timeout: Duration::from_secs(2),
                attempts: 2,
                payload_size: 1232,
                dnssec: false,
                recursion_desired: true,
                tcp_only: false,
                class: Class::In,
            }),
        }
    }

    /// A resolver configured by `/etc/resolv.conf`.
    pub fn from_system() -> io::Result<Self> {
        let text = std::fs::read_to_string("/etc/resolv.conf")?;
        Self::from_resolv_conf(&text)
    }

    /// A resolver configured by the text of a `resolv.conf(5)`: its
    /// `nameserver` lines, and the `timeout:` and `attempts:` options.
    /// Fails if the text names no server.
    ///
    /// The options are read as glibc's `res_init` reads them: the digits at
    /// the start of the value, `timeout:` capped at 30 seconds and
    /// `attempts:` at 5. `timeout:0` waits one second, as glibc's `send_dg`
    /// does when the timeout works out to nothing, and `attempts:0` makes
    /// one attempt. A value that does not start with a digit (`timeout:-1`)
    /// is ignored, where glibc's `atoi` would take it.
    pub fn from_resolv_conf(text: &str) -> io::Result<Self> {
        let mut servers = Vec::new();
        let mut resolver = StubResolver::new([]);
        for line in text.lines() {
            let line = line.split(['#', ';']).next().unwrap_or("");
            let mut words = line.split_whitespace();
            match words.next() {
                Some("nameserver") => {
                    // A scoped IPv6 address (`fe80::1%eth0`) keeps only its address.
                    let address = words
                        .next()
                        .and_then(|w| w.split('%').next())
                        .and_then(|w| w.parse::<IpAddr>().ok());
                    if let Some(ip) = address {
                        servers.push(SocketAddr::new(ip, DNS_PORT));
                    }
                }
                Some("options") => {
                    for option in words {
                        if let Some(seconds) =
                            option.strip_prefix("timeout:").and_then(leading_number)
                        {
                            let seconds = seconds.clamp(1, RES_MAXRETRANS);
                            resolver = resolver.timeout(Duration::from_secs(seconds));
                        }
                        if let Some(n) = option.strip_prefix("attempts:").and_then(leading_number) {
                            // At most RES_MAXRETRY, so it fits.
                            let n = n.min(RES_MAXRETRY) as u32;
                            resolver = resolver.attempts(n);
                        }
                    }
                }
                _ => {}
            }
        }
        if servers.is_empty() {
            return Err(io::Error::new(
                io::ErrorKind::NotFound,
                "resolv.conf names no nameserver",
            ));
        }
        Arc::make_mut(&mut resolver.config).servers = servers;
        Ok(resolver)
    }

    fn with(mut self, change: impl FnOnce(&mut Config)) -> Self {
        change(Arc::make_mut(&mut self.config));
        self
    }

    /// How long each try, with one server, may take: connecting, sending
    /// and reading, all together. Clamped to [`MIN_TIMEOUT`] ..=
    /// [`MAX_TIMEOUT`].
    pub fn timeout(self, timeout: Duration) -> Self {
        self.with(|c| c.timeout = timeout.clamp(MIN_TIMEOUT, MAX_TIMEOUT))
    }

    /// How many rounds over the servers to try (at least one).
    pub fn attempts(self, attempts: u32) -> Self {
        self.with(|c| c.attempts = attempts.max(1))
    }

    /// Ask for DNSSEC records: sets the DO bit [RFC 3225].
    pub fn dnssec(self, dnssec: bool) -> Self {
        self.with(|c| c.dnssec = dnssec)
    }

    /// Whether to set RD, asking the server to recurse.
    pub fn recursion_desired(self, rd: bool) -> Self {
        self.with(|c| c.recursion_desired = rd)
    }

    /// Query over TCP from the start.
    pub fn tcp_only(self, tcp: bool) -> Self {
        self.with(|c| c.tcp_only = tcp)
    }

    /// The class to ask in (IN unless set; CH asks a server about itself,
    /// as in `version.bind`).
    pub fn class(self, class: Class) -> Self {
        self.with(|c| c.class = class)
    }

    /// Ask every server on `port` instead of the one it was given with.
    pub fn port(self, port: u16) -> Self {
        self.with(|c| c.servers.iter_mut().for_each(|s| s.set_port(port)))
    }

    /// The servers, in the order they are tried.
    pub fn servers(&self) -> &[SocketAddr] {
        &self.config.servers
    }

    /// Asks for the `rtype` records of `name`. Negative answers (NXDOMAIN,
    /// and SERVFAIL or REFUSED when no server answers better) are responses
    /// too: look at the message's rcode.
    pub fn query(&self, name: &str, rtype: Rtype) -> Query {
        let config = Arc::clone(&self.config);
        let state = match NameBuf::from_text(name) {
            Ok(name) => {
                QueryState::Running(blocking::spawn(move || exchange(&config, &name, rtype)))
            }
            Err(e) => QueryState::Invalid(Some(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("bad name {name:?}: {e}"),
            ))),
        };
        Query { state }
    }

    /// [`query`](Self::query), waited for on this thread.
    pub fn query_sync(&self, name: &str, rtype: Rtype) -> io::Result<Response> {
        pollster::block_on(self.query(name, rtype))
    }
}

/// The future of [`StubResolver::query`].
pub struct Query {
    state: QueryState,
}

enum QueryState {
    /// The name was refused; reported on the first poll.
    Invalid(Option<io::Error>),
    /// The exchange runs on the blocking pool.
    Running(blocking::Task<Response>),
}

impl Future for Query {
    type Output = io::Result<Response>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match &mut self.state {
            QueryState::Invalid(error) => Poll::Ready(Err(error.take().unwrap_or_else(|| {
                io::Error::other("a query future was polled after it completed")
            }))),
            QueryState::Running(task) => Pin::new(task).poll(cx),
        }
    }
}

/// A fresh, unpredictable query ID [RFC 5452 §9.2].
fn query_id() -> u16 {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut hasher = RandomState::new().build_hasher();
    hasher.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
    hasher.finish() as u16
}

/// The value of a resolv.conf option: the digits it starts with, as glibc's
/// `atoi` reads them but saturating rather than overflowing; `None` if it
/// does not start with a digit.
fn leading_number(text: &str) -> Option<u64> {
    text.bytes()
        .take_while(u8::is_ascii_digit)
        .fold(None, |n, digit| {
            let n: u64 = n.unwrap_or(0);
            Some(n.saturating_mul(10).saturating_add(u64::from(digit - b'0')))
        })
}

/// Sends the query to each server in turn, `attempts` rounds, until one answers.
fn exchange(config: &Config, name: &NameBuf, rtype: Rtype) -> io::Result<Response> {
    let id = query_id();
    let mut buf = [0u8; 512];
    let mut builder = MessageBuilder::new(&mut buf).map_err(io::Error::other)?;
    builder.header_mut().id = id;
    builder.header_mut().rd = config.recursion_desired;
    builder
        .push_question(&name.as_name(), rtype, config.class)
        .map_err(io::Error::other)?;
    let edns = EdnsParams {
        payload_size: config.payload_size,
        dnssec_ok: config.dnssec,
        ..EdnsParams::default()
    };
    builder.push_edns(&edns).map_err(io::Error::other)?;
    let query = builder.finish().map_err(io::Error::other)?;
    let expect = Expected {
        id,
        name,
        rtype,
        class: config.class,
    };

    if config.servers.is_empty() {
        return Err(io::Error::new(
            io::ErrorKind::NotFound,
            "no DNS server configured",
        ));
    }
    let mut declined = None;
    let mut last = None;
    for _ in 0..config.attempts {
        for &server in &config.servers {
            let started = Instant::now();
            let deadline = Deadline::after(started, config.timeout, server);
            match try_server(config, server, query, &expect, deadline) {
                Ok((bytes, transport, reply)) => {
                    let response = Response {
                        bytes,
                        server,
                        transport,
                        elapsed: started.elapsed(),
                    };
                    if reply == Reply::Answer {
                        return Ok(response);
                    }
                    declined = Some(response);
                }
                Err(e) => last = Some(e),
            }
        }
    }
    match declined {
        Some(response) => Ok(response),
        None => Err(last.unwrap_or_else(|| io::Error::new(io::ErrorKind::TimedOut, "no answer"))),
    }
}

/// One try with one server: UDP, then TCP if the answer is truncated, or
/// TCP alone; both within `deadline`.
fn try_server(
    config: &Config,
    server: SocketAddr,
    query: &[u8],
    expect: &Expected<'_>,
    deadline: Deadline,
) -> io::Result<(Vec<u8>, Transport, Reply)> {
    if !config.tcp_only {
        let (bytes, reply) = udp_exchange(server, query, expect, deadline)?;
        // TC=1: the answer did not fit; ask again over TCP [RFC 7766 §5].
        if reply == Reply::Declined || !truncated(&bytes) {
            return Ok((bytes, Transport::Udp, reply));
        }
    }
    let (bytes, reply) = tcp_exchange(server, query, expect, deadline)?;
    Ok((bytes, Transport::Tcp, reply))
}

fn truncated(bytes: &[u8]) -> bool {
    bytes.get(2).is_some_and(|flags| flags & 0x02 != 0)
}

/// When a try gives up: one instant for the whole try, so that every read
/// waits only for what is left of it.
#[derive(Copy, Clone, Debug)]
struct Deadline {
    at: Instant,
    timeout: Duration,
    server: SocketAddr,
}

impl Deadline {
    fn after(start: Instant, timeout: Duration, server: SocketAddr) -> Self {
        // The timeout is at most MAX_TIMEOUT, so only a clock at the very
        // end of its range overflows; then the try ends at once.
        let at = start.checked_add(timeout).unwrap_or(start);
        Deadline {
            at,
            timeout,
            server,
        }
    }

    /// The time left, never zero; the try's timeout error once there is none.
    fn left(&self, transport: Transport) -> io::Result<Duration> {
        let left = self.at.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(self.expired(transport));
        }
        Ok(left)
    }

    fn expired(&self, transport: Transport) -> io::Error {
        io::Error::new(
            io::ErrorKind::TimedOut,
            format!(
                "no answer from {}{} within {:?}",
                self.server,
                over(transport),
                self.timeout
            ),
        )
    }
}

/// Whether a socket call gave up because its timeout passed (`EAGAIN`
/// from `SO_RCVTIMEO` on unix, `WSAETIMEDOUT` on Windows), or was
/// interrupted: either way, look at the deadline and go again.
fn retry(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut | io::ErrorKind::Interrupted
    )
}

/// What a message from the server is to the query.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Reply {
    /// It answers the query.
    Answer,
    /// It answers with SERVFAIL, NOTIMP or REFUSED: ask the next server.
    Declined,
    /// It is not a reply to the query: another ID, no QR, or another question.
    Stray,
    /// It is shorter than a header, or has the query's ID and does not parse.
    Malformed(crate::core::dns::Error),
}

/// What a response must carry to answer our query.
struct Expected<'q> {
    id: u16,
    name: &'q NameBuf,
    rtype: Rtype,
    class: Class,
}

impl Expected<'_> {
    /// Sorts a message from the server.
    fn reply(&self, bytes: &[u8]) -> Reply {
        let message = match Message::parse(bytes) {
            Ok(message) => message,
            // A whole header that is not ours: someone else's, or forged.
            Err(_) if bytes.len() >= HEADER_LEN && !self.has_our_id(bytes) => return Reply::Stray,
            Err(e) => return Reply::Malformed(e),
        };
        let header = message.header();
        if !header.qr || header.id != self.id {
            return Reply::Stray;
        }
        let mut questions = message.questions();
        match (questions.next(), questions.next()) {
            (Some(q), None)
                if q.name == self.name.as_name()
                    && q.qtype == self.rtype
                    && q.qclass == self.class => {}
            _ => return Reply::Stray,
        }
        match message.rcode() {
            Rcode::ServFail | Rcode::NotImp | Rcode::Refused => Reply::Declined,
            _ => Reply::Answer,
        }
    }

    /// Whether the header at the start of `bytes` is a response with our ID.
    fn has_our_id(&self, bytes: &[u8]) -> bool {
        match bytes {
            [high, low, flags, ..] => {
                u16::from_be_bytes([*high, *low]) == self.id && flags & 0x80 != 0
            }
            _ => false,
        }
    }
}

/// The error for a malformed reply.
fn malformed(server: SocketAddr, transport: Transport, e: crate::core::dns::Error) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("malformed response from {server}{}: {e}", over(transport)),
    )
}

/// How an error message names the transport: UDP goes without saying.
fn over(transport: Transport) -> &'static str {
    match transport {
        Transport::Udp => "",
        Transport::Tcp => " over TCP",
    }
}

/// Sends the query in one datagram and waits for its reply, ignoring
/// strays, until `deadline`.
fn udp_exchange(
    server: SocketAddr,
    query: &[u8],
    expect: &Expected<'_>,
    deadline: Deadline,
) -> io::Result<(Vec<u8>, Reply)> {
    let local: SocketAddr = match server {
        SocketAddr::V4(_) => (Ipv4Addr::UNSPECIFIED, 0).into(),
        SocketAddr::V6(_) => (Ipv6Addr::UNSPECIFIED, 0).into(),
    };
    let socket = UdpSocket::bind(local)?;
    socket.connect(server)?;
    socket.send(query)?;
    let mut buf = vec![0u8; 65535];
    loop {
        socket.set_read_timeout(Some(deadline.left(Transport::Udp)?))?;
        let n = match socket.recv(&mut buf) {
            Ok(n) => n,
            Err(e) if retry(&e) => continue,
            Err(e) => return Err(e),
        };
        match expect.reply(&buf[..n]) {
            Reply::Stray => {}
            Reply::Malformed(e) => return Err(malformed(server, Transport::Udp, e)),
            reply => {
                buf.truncate(n);
                return Ok((buf, reply));
            }
        }
    }
}

/// Sends the query over a new connection and reads messages off it,
/// skipping strays, until its reply comes or `deadline` passes.
fn tcp_exchange(
    server: SocketAddr,
    query: &[u8],
    expect: &Expected<'_>,
    deadline: Deadline,
) -> io::Result<(Vec<u8>, Reply)> {
    let mut stream = match TcpStream::connect_timeout(&server, deadline.left(Transport::Tcp)?) {
        Ok(stream) => stream,
        Err(e) if e.kind() == io::ErrorKind::TimedOut => {
            return Err(deadline.expired(Transport::Tcp));
        }
        Err(e) => return Err(e),
    };
    stream.set_nodelay(true)?;
    // One write: the two-byte length, then the message [RFC 1035 §4.2.2].
    let mut framed = Vec::with_capacity(2 + query.len());
    framed.extend_from_slice(&(query.len() as u16).to_be_bytes());
    framed.extend_from_slice(query);
    write_all(&mut stream, &framed, deadline)?;
    let mut bytes = Vec::new();
    loop {
        let mut len = [0u8; 2];
        read_exact(&mut stream, &mut len, deadline)?;
        bytes.resize(usize::from(u16::from_be_bytes(len)), 0);
        read_exact(&mut stream, &mut bytes, deadline)?;
        match expect.reply(&bytes) {
            Reply::Stray => {}
            Reply::Malformed(e) => return Err(malformed(server, Transport::Tcp, e)),
            reply => return Ok((bytes, reply)),
        }
    }
}

/// `Write::write_all`, each write waiting only for what is left of `deadline`.
fn write_all(stream: &mut TcpStream, mut buf: &[u8], deadline: Deadline) -> io::Result<()> {
    while !buf.is_empty() {
        stream.set_write_timeout(Some(deadline.left(Transport::Tcp)?))?;
        match stream.write(buf) {
            Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
            Ok(n) => buf = &buf[n..],
            Err(e) if retry(&e) => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// `Read::read_exact`, each read waiting only for what is left of `deadline`.
fn read_exact(stream: &mut TcpStream, mut buf: &mut [u8], deadline: Deadline) -> io::Result<()> {
    while !buf.is_empty() {
        stream.set_read_timeout(Some(deadline.left(Transport::Tcp)?))?;
        match stream.read(buf) {
            Ok(0) => {
                return Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    format!(
                        "{} closed the TCP connection before its answer ended",
                        deadline.server
                    ),
                ));
            }
            Ok(n) => buf = &mut buf[n..],
            Err(e) if retry(&e) => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolv_conf_servers_and_options() {
        let text = "# comment\nsearch example.com\nnameserver 192.0.2.1\nnameserver fe80::1%eth0 ; scoped\n\
                    nameserver bogus\noptions ndots:2 timeout:5 attempts:3\n";
        let resolver = StubResolver::from_resolv_conf(text).unwrap();
        assert_eq!(
            resolver.servers(),
            [
                "192.0.2.1:53".parse().unwrap(),
                "[fe80::1]:53".parse().unwrap()
            ]
        );
        assert_eq!(
            (resolver.config.timeout, resolver.config.attempts),
            (Duration::from_secs(5), 3)
        );
    }

    fn options(options: &str) -> (Duration, u32) {
        let text = format!("nameserver 192.0.2.1\noptions {options}\n");
        let config = StubResolver::from_resolv_conf(&text).unwrap().config;
        (config.timeout, config.attempts)
    }

    #[test]
    fn resolv_conf_options_capped_as_glibc_caps_them() {
        assert_eq!(
            options("timeout:30 attempts:5"),
            (Duration::from_secs(30), 5)
        );
        assert_eq!(
            options("timeout:31 attempts:6"),
            (Duration::from_secs(30), 5)
        );
        let huge = "99999999999999999999999999";
        assert_eq!(
            options(&format!("timeout:{huge} attempts:{huge}")),
            (Duration::from_secs(30), 5)
        );
    }

    #[test]
    fn resolv_conf_timeout_0_waits_one_second() {
        assert_eq!(options("timeout:0 attempts:0"), (Duration::from_secs(1), 1));
    }

    #[test]
    fn resolv_conf_values_that_are_not_numbers_are_ignored() {
        assert_eq!(
            options("timeout:-1 attempts:x timeout: attempts:"),
            (Duration::from_secs(2), 2)
        );
    }

    #[test]
    fn resolv_conf_without_servers() {
        let err = StubResolver::from_resolv_conf("search example.com\n").unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::NotFound);
    }

    #[test]
    fn query_ids_vary() {
        let ids: std::collections::HashSet<u16> = (0..64).map(|_| query_id()).collect();
        assert!(ids.len() > 48);
    }

    #[test]
    fn a_bad_name_fails_on_first_poll() {
        let err = StubResolver::new([])
            .query_sync("a..b", Rtype::A)
            .unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
    }
}
