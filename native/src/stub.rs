//! A stub resolver: it sends one query, built by the core encoder, to the
//! configured servers over UDP, retries over TCP when the answer is
//! truncated, and hands back the checked response.
//!
//! Like [`resolve`](crate::resolve), the async form is primary and runs the
//! blocking socket exchange on the crate's small blocking pool; the sync form
//! is `pollster::block_on` of it.
//!
//! A response is accepted only if it is a well-formed response with the
//! query's ID and the query's question (name compared case-insensitively,
//! type and class); anything else that arrives on the socket is ignored, as
//! a stub resolver must [RFC 5452 §4].

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
use crate::core::dns::{Class, EdnsParams, Message, MessageBuilder, NameBuf, Rtype};

/// The DNS port.
pub const DNS_PORT: u16 = 53;

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
                            option.strip_prefix("timeout:").and_then(|s| s.parse().ok())
                        {
                            resolver = resolver.timeout(Duration::from_secs(seconds));
                        }
                        if let Some(n) = option
                            .strip_prefix("attempts:")
                            .and_then(|s| s.parse().ok())
                        {
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

    /// How long to wait for each answer.
    pub fn timeout(self, timeout: Duration) -> Self {
        self.with(|c| c.timeout = timeout)
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

    /// The servers, in the order they are tried.
    pub fn servers(&self) -> &[SocketAddr] {
        &self.config.servers
    }

    /// Asks for the `rtype` records of `name`. Negative answers (NXDOMAIN,
    /// REFUSED, ...) are responses too: look at the message's rcode.
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

/// Sends the query to each server in turn, `attempts` rounds, until one answers.
fn exchange(config: &Config, name: &NameBuf, rtype: Rtype) -> io::Result<Response> {
    let id = query_id();
    let mut buf = [0u8; 512];
    let mut builder = MessageBuilder::new(&mut buf).map_err(io::Error::other)?;
    builder.header_mut().id = id;
    builder.header_mut().rd = config.recursion_desired;
    builder
        .push_question(&name.as_name(), rtype, Class::In)
        .map_err(io::Error::other)?;
    let edns = EdnsParams {
        payload_size: config.payload_size,
        dnssec_ok: config.dnssec,
        ..EdnsParams::default()
    };
    builder.push_edns(&edns).map_err(io::Error::other)?;
    let query = builder.finish().map_err(io::Error::other)?;
    let expect = Expected { id, name, rtype };

    if config.servers.is_empty() {
        return Err(io::Error::new(
            io::ErrorKind::NotFound,
            "no DNS server configured",
        ));
    }
    let mut last = None;
    for _ in 0..config.attempts {
        for &server in &config.servers {
            let started = Instant::now();
            let outcome = if config.tcp_only {
                tcp_exchange(server, query, &expect, config.timeout).map(|b| (b, Transport::Tcp))
            } else {
                match udp_exchange(server, query, &expect, config.timeout) {
                    // TC=1: the answer did not fit; ask again over TCP [RFC 7766 §5].
                    Ok(bytes) if truncated(&bytes) => {
                        tcp_exchange(server, query, &expect, config.timeout)
                            .map(|b| (b, Transport::Tcp))
                    }
                    other => other.map(|b| (b, Transport::Udp)),
                }
            };
            match outcome {
                Ok((bytes, transport)) => {
                    return Ok(Response {
                        bytes,
                        server,
                        transport,
                        elapsed: started.elapsed(),
                    });
                }
                Err(e) => last = Some(e),
            }
        }
    }
    Err(last.unwrap_or_else(|| io::Error::new(io::ErrorKind::TimedOut, "no answer")))
}

fn truncated(bytes: &[u8]) -> bool {
    bytes.get(2).is_some_and(|flags| flags & 0x02 != 0)
}

/// What a response must carry to answer our query.
struct Expected<'q> {
    id: u16,
    name: &'q NameBuf,
    rtype: Rtype,
}

impl Expected<'_> {
    /// Why `bytes` does not answer the query, if it does not.
    fn mismatch(&self, bytes: &[u8]) -> Option<String> {
        let message = match Message::parse(bytes) {
            Ok(message) => message,
            Err(e) => return Some(format!("malformed response: {e}")),
        };
        let header = message.header();
        if !header.qr || header.id != self.id {
            return Some(format!(
                "response ID {} for query ID {}",
                header.id, self.id
            ));
        }
        let mut questions = message.questions();
        match (questions.next(), questions.next()) {
            (Some(q), None)
                if q.name == self.name.as_name()
                    && q.qtype == self.rtype
                    && q.qclass == Class::In =>
            {
                None
            }
            _ => Some("response to another question".into()),
        }
    }
}

fn udp_exchange(
    server: SocketAddr,
    query: &[u8],
    expect: &Expected<'_>,
    timeout: Duration,
) -> io::Result<Vec<u8>> {
    let local: SocketAddr = match server {
        SocketAddr::V4(_) => (Ipv4Addr::UNSPECIFIED, 0).into(),
        SocketAddr::V6(_) => (Ipv6Addr::UNSPECIFIED, 0).into(),
    };
    let socket = UdpSocket::bind(local)?;
    socket.connect(server)?;
    socket.send(query)?;
    let deadline = Instant::now() + timeout;
    let mut buf = vec![0u8; 65535];
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(io::Error::new(
                io::ErrorKind::TimedOut,
                format!("no answer from {server} within {timeout:?}"),
            ));
        }
        socket.set_read_timeout(Some(left))?;
        let n = match socket.recv(&mut buf) {
            Ok(n) => n,
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                ) =>
            {
                continue;
            }
            Err(e) => return Err(e),
        };
        // Anything that does not answer this query is ignored [RFC 5452 §4.3].
        if expect.mismatch(&buf[..n]).is_none() {
            buf.truncate(n);
            return Ok(buf);
        }
    }
}

fn tcp_exchange(
    server: SocketAddr,
    query: &[u8],
    expect: &Expected<'_>,
    timeout: Duration,
) -> io::Result<Vec<u8>> {
    let mut stream = TcpStream::connect_timeout(&server, timeout)?;
    stream.set_read_timeout(Some(timeout))?;
    stream.set_write_timeout(Some(timeout))?;
    stream.set_nodelay(true)?;
    // One write: the two-byte length, then the message [RFC 1035 §4.2.2].
    let mut framed = Vec::with_capacity(2 + query.len());
    framed.extend_from_slice(&(query.len() as u16).to_be_bytes());
    framed.extend_from_slice(query);
    stream.write_all(&framed)?;
    let mut len = [0u8; 2];
    stream.read_exact(&mut len)?;
    let mut bytes = vec![0u8; usize::from(u16::from_be_bytes(len))];
    stream.read_exact(&mut bytes)?;
    match expect.mismatch(&bytes) {
        None => Ok(bytes),
        Some(why) => Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{server} over TCP: {why}"),
        )),
    }
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
