use core::cmp::Ordering;
use core::fmt;
use core::hash::{Hash, Hasher};

use super::dialect::Dialect;
use super::error::{Error, ErrorKind};
use super::folded::{Folded, cmp_utf16, utf16_units};
use super::number::{Decimal, NumberError, is_dotnet_space, parse_i32};
use super::scan::{TOPS, find, find_noting_folds, fold_bits, match_bits, range_bits};
use super::uri;

/// The address part of an actor path: `protocol://system[@host:port]`.
///
/// An `Address` borrows its text from the input it was parsed from, or from
/// the strings it was built with. Akka.NET reads the protocol and the host in
/// lowercase; the view keeps the original bytes and folds case as it compares
/// and prints (see [`Folded`]).
///
/// ```
/// use leanwire_core::actor::{Address, Dialect};
///
/// let (addr, rest) = Address::split("akka.tcp://sys@Example.COM:2552/user/a", Dialect::DotNet)?;
/// assert_eq!(addr.system(), "sys");
/// assert_eq!(addr.host().unwrap().to_string(), "example.com");
/// assert_eq!(addr.port(), Some(2552));
/// assert_eq!(rest, "/user/a");
/// assert_eq!(addr.to_string(), "akka.tcp://sys@example.com:2552");
/// # Ok::<(), leanwire_core::actor::Error>(())
/// ```
#[derive(Copy, Clone, Debug)]
pub struct Address<'a> {
    // The protocol and the host are kept as their text and a flag each,
    // rather than as `Folded`s, so that an address, and a path holding one,
    // stays small enough to be moved without a call to `memcpy`.
    protocol: &'a str,
    system: &'a str,
    host: Option<&'a str>,
    port: Option<u32>,
    /// Whether the protocol reads in lowercase (see [`Folded`]).
    protocol_folds: bool,
    /// Whether the host reads in lowercase.
    host_folds: bool,
    dialect: Dialect,
}

impl<'a> Address<'a> {
    /// An address built the way the dialect's `Address` constructor builds it.
    ///
    /// Akka.NET reads the host in lowercase; Akka JVM keeps every field as given.
    pub fn new(
        dialect: Dialect,
        protocol: &'a str,
        system: &'a str,
        host: Option<&'a str>,
        port: Option<u32>,
    ) -> Self {
        let host = match dialect {
            Dialect::DotNet => host.map(Folded::lowercase),
            Dialect::Jvm => host.map(Folded::verbatim),
        };
        Address::of(Folded::verbatim(protocol), system, host, port, dialect)
    }

    /// A local address, `protocol://system`, with no host and no port.
    pub const fn local(dialect: Dialect, protocol: &'a str, system: &'a str) -> Self {
        Address::of(Folded::verbatim(protocol), system, None, None, dialect)
    }

    /// An address of these parts, as they read.
    const fn of(
        protocol: Folded<'a>,
        system: &'a str,
        host: Option<Folded<'a>>,
        port: Option<u32>,
        dialect: Dialect,
    ) -> Self {
        let (host, host_folds) = match host {
            Some(host) => (Some(host.raw()), host.folds()),
            None => (None, false),
        };
        Address {
            protocol: protocol.raw(),
            system,
            host,
            port,
            protocol_folds: protocol.folds(),
            host_folds,
            dialect,
        }
    }

    /// Parses an address and returns it with the rest of the input: the path,
    /// which is empty or starts with `/` (or, in the JVM dialect, `?` or `#`).
    pub fn split(input: &'a str, dialect: Dialect) -> Result<(Self, &'a str), Error> {
        match dialect {
            Dialect::DotNet => split_dotnet(input),
            Dialect::Jvm => split_jvm(input),
        }
    }

    /// Parses an address that is the whole input.
    ///
    /// ```
    /// use leanwire_core::actor::{Address, Dialect, ErrorKind};
    ///
    /// assert!(Address::parse("akka://sys@h:1", Dialect::Jvm).is_ok());
    /// let err = Address::parse("akka://sys/user", Dialect::Jvm).unwrap_err();
    /// assert_eq!((err.kind(), err.offset()), (ErrorKind::InvalidCharacter, 10));
    /// ```
    pub fn parse(input: &'a str, dialect: Dialect) -> Result<Self, Error> {
        let (address, rest) = Self::split(input, dialect)?;
        if rest.is_empty() {
            Ok(address)
        } else {
            Err(Error::new(
                ErrorKind::InvalidCharacter,
                input.len() - rest.len(),
            ))
        }
    }

    /// The protocol (URI scheme), such as `akka.tcp`.
    pub const fn protocol(&self) -> Folded<'a> {
        Folded::folding_if(self.protocol, self.protocol_folds)
    }

    /// The actor system's name.
    pub const fn system(&self) -> &'a str {
        self.system
    }

    /// The host, for a remote address. Bracketed IPv6 literals keep their brackets.
    pub const fn host(&self) -> Option<Folded<'a>> {
        match self.host {
            Some(host) => Some(Folded::folding_if(host, self.host_folds)),
            None => None,
        }
    }

    /// The port, for a remote address.
    pub const fn port(&self) -> Option<u32> {
        self.port
    }

    /// The dialect whose printing rules this address follows.
    pub const fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// Whether this is a local address: one with no host, or an empty one.
    pub fn has_local_scope(&self) -> bool {
        self.host.is_none_or(str::is_empty)
    }

    /// The host and port as printed. Akka.NET skips a blank host, and a port
    /// without a host; the JVM prints whichever is present.
    fn printed_host_port(&self) -> (Option<Folded<'a>>, Option<u32>) {
        match self.dialect {
            Dialect::DotNet => {
                let host = self
                    .host()
                    .filter(|h| !h.raw().bytes().all(is_dotnet_space));
                (host, self.port.filter(|_| host.is_some()))
            }
            Dialect::Jvm => (self.host(), self.port),
        }
    }

    /// Whether a path keeps this, its own address, when it is printed with
    /// another one (`ToStringWithAddress`). Akka.NET keeps it when it has a host
    /// and a port; the JVM when it has a host.
    pub fn is_fully_qualified(&self) -> bool {
        match self.dialect {
            Dialect::DotNet => self.host.is_some() && self.port.is_some(),
            Dialect::Jvm => self.host.is_some(),
        }
    }

    /// Akka Cluster's member ordering: by host, then by port (absent as 0).
    pub fn cmp_host_port(&self, other: &Address<'_>) -> Ordering {
        let empty = Folded::verbatim("");
        self.host()
            .unwrap_or(empty)
            .cmp(&other.host().unwrap_or(empty))
            .then(self.port.unwrap_or(0).cmp(&other.port.unwrap_or(0)))
    }

    /// Akka JVM's `hasInvalidHostCharacters`: an `_` with no `.` after it
    /// (`_[^.]*$`), which `java.net.URI` would refuse as a host name.
    pub fn has_invalid_host_characters(&self) -> bool {
        self.host.is_some_and(|raw| {
            let tail = raw.rfind('.').map_or(raw, |dot| &raw[dot..]);
            tail.contains('_')
        })
    }

    /// Akka JVM's `checkHostCharacters`: fails on [invalid host
    /// characters](Self::has_invalid_host_characters), at the first `_` after the last `.`.
    pub fn check_host_characters(&self) -> Result<(), Error> {
        if !self.has_invalid_host_characters() {
            return Ok(());
        }
        let raw = self.host.unwrap_or("");
        let from = raw.rfind('.').unwrap_or(0);
        let at = raw[from..].find('_').map_or(from, |i| from + i);
        Err(Error::new(ErrorKind::InvalidHost, at))
    }

    /// Compares the printed forms ordinally, as Akka compares two root paths
    /// (`ToString()` against `ToString()`), without printing either.
    pub fn cmp_printed(&self, other: &Address<'_>) -> Ordering {
        utf16_units(self.printed_chars()).cmp(utf16_units(other.printed_chars()))
    }

    /// The characters that [`Display`](fmt::Display) prints.
    fn printed_chars(&self) -> impl Iterator<Item = char> + '_ {
        let (host, port) = self.printed_host_port();
        let host = host
            .into_iter()
            .flat_map(|h| core::iter::once('@').chain(h.chars()));
        let port = port
            .into_iter()
            .flat_map(|p| core::iter::once(':').chain(Decimal::new(p.into()).chars()));
        self.protocol()
            .chars()
            .chain("://".chars())
            .chain(self.system.chars())
            .chain(host)
            .chain(port)
    }

    /// `host:port` with whatever of the two the address prints (`HostPort()`).
    pub fn host_port(&self) -> HostPort<'_, 'a> {
        HostPort(self)
    }
}

/// Prints what follows `protocol://` in an [`Address`]; see [`Address::host_port`].
#[derive(Copy, Clone, Debug)]
pub struct HostPort<'r, 'a>(&'r Address<'a>);

impl fmt::Display for HostPort<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let a = self.0;
        f.write_str(a.system)?;
        let (host, port) = a.printed_host_port();
        if let Some(host) = host {
            f.write_str("@")?;
            fmt::Display::fmt(&host, f)?;
        }
        if let Some(port) = port {
            f.write_str(":")?;
            fmt::Display::fmt(&Decimal::new(port.into()), f)?;
        }
        Ok(())
    }
}

impl fmt::Display for Address<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.protocol(), f)?;
        f.write_str("://")?;
        fmt::Display::fmt(&self.host_port(), f)
    }
}

impl PartialEq for Address<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.port == other.port
            && self.system == other.system
            && self.host() == other.host()
            && self.protocol() == other.protocol()
    }
}

impl Eq for Address<'_> {}

impl Hash for Address<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.protocol().hash(state);
        self.system.hash(state);
        self.host().hash(state);
        self.port.hash(state);
    }
}

impl PartialOrd for Address<'_> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Akka.NET's `Address.Comparer`: protocol, system, host (absent as `""`),
/// then port (absent as 0), each ordinal. Ties that Akka leaves equal but that
/// are not [`Eq`] (an absent host against an empty one) put the absent one first.
impl Ord for Address<'_> {
    fn cmp(&self, other: &Self) -> Ordering {
        self.protocol()
            .cmp(&other.protocol())
            .then_with(|| cmp_utf16(self.system, other.system))
            .then_with(|| self.cmp_host_port(other))
            .then_with(|| self.host.is_some().cmp(&other.host.is_some()))
            .then_with(|| self.port.is_some().cmp(&other.port.is_some()))
    }
}

/// Whether `//` follows the scheme's `:` at `colon`.
fn has_slashes(input: &str, colon: usize) -> bool {
    let b = input.as_bytes();
    b.get(colon + 1) == Some(&b'/') && b.get(colon + 2) == Some(&b'/')
}

/// Akka.NET's `Address.TryParse`.
fn split_dotnet(input: &str) -> Result<(Address<'_>, &str), Error> {
    let (colon, protocol_folds) = find_noting_folds(input, b':');
    let colon = colon.ok_or(Error::new(ErrorKind::MissingScheme, input.len()))?;
    if !(4..=255).contains(&colon) {
        return Err(Error::new(ErrorKind::MissingScheme, colon));
    }
    let protocol = &input[..colon];
    // `akka` in any case: setting bit 5 lowercases the four letters at once.
    let starts_akka = protocol.as_bytes().first_chunk::<4>().is_some_and(|first| {
        u32::from_le_bytes(*first) | 0x2020_2020 == u32::from_le_bytes(*b"akka")
    });
    if !starts_akka {
        return Err(Error::new(ErrorKind::UnsupportedProtocol, 0));
    }
    let authority_at = colon + 3;
    if !has_slashes(input, colon) {
        return Err(Error::new(ErrorKind::MissingSlashes, colon + 1));
    }
    // Every mark is an ASCII byte, so each split below is at a char boundary;
    // `split_at` checks one end where a range would check two.
    let marks = AuthorityMarks::scan(&input.as_bytes()[authority_at..]);
    let (authority, rest) = input[authority_at..].split_at(marks.end);
    let protocol = Folded::folding_if(protocol, protocol_folds);

    let Some(at) = marks.at else {
        let address = Address::of(protocol, authority, None, None, Dialect::DotNet);
        return Ok((address, rest));
    };
    let system = &authority[..at];
    let (host, port_colon) = match marks.brackets {
        Some((open, close)) => (&authority[open..=close], marks.colon_after_close),
        None => {
            let host_end = marks.colon.unwrap_or(marks.end);
            (authority[..host_end].split_at(at + 1).1, marks.colon)
        }
    };
    let authority_end = authority_at + marks.end;
    let port_colon = port_colon.ok_or(Error::new(ErrorKind::MissingPort, authority_end))?;
    let port_at = authority_at + port_colon + 1;
    let port =
        parse_dotnet_port(authority.split_at(port_colon + 1).1).map_err(|e| e.shifted(port_at))?;
    Ok((
        Address::of(
            protocol,
            system,
            Some(Folded::folding_if(host, marks.server_folds)),
            Some(port),
            Dialect::DotNet,
        ),
        rest,
    ))
}

/// Where the parts of an Akka.NET authority (`system[@host:port]`) are, found
/// in one pass: offsets from the authority's start.
#[derive(Debug, PartialEq, Eq)]
struct AuthorityMarks {
    /// The first `/`, which ends the authority, or the input's end.
    end: usize,
    /// The first `@`.
    at: Option<usize>,
    /// The first `[` after the `@`, and the first `]` after it: a bracketed host.
    brackets: Option<(usize, usize)>,
    /// The first `:` after the `@`.
    colon: Option<usize>,
    /// The first `:` after the bracketed host.
    colon_after_close: Option<usize>,
    /// Whether lowercasing might change a byte after the `@`.
    server_folds: bool,
}

impl AuthorityMarks {
    /// Marks for an authority of `len` bytes, before any byte is taken in.
    fn new(len: usize) -> Self {
        AuthorityMarks {
            end: len,
            at: None,
            brackets: None,
            colon: None,
            colon_after_close: None,
            server_folds: false,
        }
    }

    fn scan(authority: &[u8]) -> Self {
        let mut marks = AuthorityMarks::new(authority.len());
        let mut open = None;
        // Most bytes are none of these: a word of eight with none is passed
        // over whole, and only the flagged bytes of the others are looked at.
        // `@` to `]` holds `@`, the capitals and the brackets (and `\`,
        // which is looked at for nothing). Once one byte after the `@` is
        // known to fold, the capitals and non-ASCII bytes are not flagged.
        let (words, tail) = authority.as_chunks::<8>();
        for (w, word) in words.iter().enumerate() {
            let word = u64::from_le_bytes(*word);
            let mut flagged = range_bits(word, b'@', b']')
                | word & TOPS
                | match_bits(word, b'/')
                | match_bits(word, b':');
            if marks.server_folds {
                flagged &= !fold_bits(word);
            }
            while flagged != 0 {
                let i = w * 8 + flagged.trailing_zeros() as usize / 8;
                if !marks.note(i, authority[i], &mut open) {
                    return marks;
                }
                flagged &= flagged - 1;
            }
        }
        let tail_at = authority.len() - tail.len();
        for (i, &b) in tail.iter().enumerate() {
            if !marks.note(tail_at + i, b, &mut open) {
                break;
            }
        }
        marks
    }

    /// Takes in the byte `b` at `i`, with `open` the first `[` after the
    /// `@`; false at the `/` that ends the authority.
    #[inline]
    fn note(&mut self, i: usize, b: u8, open: &mut Option<usize>) -> bool {
        match (b, self.at) {
            (b'/', _) => {
                self.end = i;
                return false;
            }
            (b'@', None) => self.at = Some(i),
            (_, None) => {}
            (b'[', Some(_)) if open.is_none() => *open = Some(i),
            (b']', Some(_)) if self.brackets.is_none() => {
                self.brackets = open.map(|open| (open, i));
            }
            (b':', Some(_)) => {
                self.colon.get_or_insert(i);
                if self.brackets.is_some() {
                    self.colon_after_close.get_or_insert(i);
                }
            }
            (b, Some(_)) => self.server_folds |= Folded::would_fold(b),
        }
        true
    }
}

/// `int.TryParse(s, NumberStyles.Integer)`, then `port >= 0`.
#[cfg_attr(not(target_family = "wasm"), inline(always))]
fn parse_dotnet_port(text: &str) -> Result<u32, Error> {
    let digit = |b: Option<&u8>| b.is_some_and(u8::is_ascii_digit);
    let bytes = text.as_bytes();
    if digit(bytes.first()) && digit(bytes.last()) {
        // Nothing to trim: the common case.
        return match parse_i32(bytes, false) {
            Ok(port) => Ok(port as u32),
            Err(NumberError::Overflow) => Err(Error::new(ErrorKind::PortOutOfRange, 0)),
            Err(NumberError::Invalid(at)) => Err(Error::new(ErrorKind::InvalidPort, at)),
        };
    }
    let start = text
        .bytes()
        .position(|b| !is_dotnet_space(b))
        .unwrap_or(text.len());
    let end = text
        .bytes()
        .rposition(|b| !is_dotnet_space(b))
        .map_or(start, |i| i + 1);
    match parse_i32(&bytes[start..end], true) {
        Ok(port) => u32::try_from(port).map_err(|_| Error::new(ErrorKind::PortOutOfRange, start)),
        Err(NumberError::Overflow) => Err(Error::new(ErrorKind::PortOutOfRange, start)),
        Err(NumberError::Invalid(at)) => Err(Error::new(ErrorKind::InvalidPort, start + at)),
    }
}

/// `AddressFromURIString` over `java.net.URI`: a hierarchical URI with a
/// server-based authority.
fn split_jvm(input: &str) -> Result<(Address<'_>, &str), Error> {
    let bytes = input.as_bytes();
    if !bytes.first().is_some_and(u8::is_ascii_alphabetic) {
        return Err(Error::new(ErrorKind::MissingScheme, 0));
    }
    let colon = bytes
        .iter()
        .position(|&b| !uri::is(uri::SCHEME, b))
        .unwrap_or(bytes.len());
    match bytes.get(colon) {
        Some(b':') => {}
        None | Some(b'/' | b'?' | b'#') => return Err(Error::new(ErrorKind::MissingScheme, colon)),
        Some(_) => return Err(Error::new(ErrorKind::InvalidScheme, colon)),
    }
    let authority_at = colon + 3;
    if !has_slashes(input, colon) {
        return Err(Error::new(ErrorKind::MissingSlashes, colon + 1));
    }
    let authority_end = bytes[authority_at..]
        .iter()
        .position(|b| matches!(b, b'/' | b'?' | b'#'))
        .map_or(bytes.len(), |i| authority_at + i);
    let (authority, rest) = input[authority_at..].split_at(authority_end - authority_at);
    if authority.is_empty() {
        return Err(Error::new(ErrorKind::MissingSystem, authority_at));
    }
    let protocol = Folded::verbatim(&input[..colon]);
    let address = match find(authority, b'@') {
        None => {
            let (system, port) = split_server(authority).map_err(|e| e.shifted(authority_at))?;
            if port.is_some() {
                return Err(Error::new(
                    ErrorKind::UnexpectedPort,
                    authority_at + system.len(),
                ));
            }
            Address::of(protocol, system, None, None, Dialect::Jvm)
        }
        Some(at) => {
            let system = &authority[..at];
            uri::check(system, uri::USERINFO).map_err(|e| e.shifted(authority_at))?;
            let server_at = authority_at + at + 1;
            let (host, port) =
                split_server(&authority[at + 1..]).map_err(|e| e.shifted(server_at))?;
            let port = port.ok_or(Error::new(ErrorKind::MissingPort, authority_end))?;
            let host = Some(Folded::verbatim(host));
            Address::of(protocol, system, host, Some(port), Dialect::Jvm)
        }
    };
    Ok((address, rest))
}

/// `java.net.URI`'s `parseServer`: `host [":" [port]]`, where the host is a
/// bracketed IPv6 literal, a dotted IPv4 address or an RFC 2396 host name.
fn split_server(server: &str) -> Result<(&str, Option<u32>), Error> {
    let bytes = server.as_bytes();
    let host_end = if bytes.first() == Some(&b'[') {
        let close = find(server, b']').ok_or(Error::new(ErrorKind::InvalidHost, 0))?;
        let literal = &bytes[1..close];
        let ipv6 = literal.contains(&b':')
            && literal
                .iter()
                .all(|&b| b.is_ascii_hexdigit() || b == b':' || b == b'.');
        if !ipv6 {
            return Err(Error::new(ErrorKind::InvalidHost, 1));
        }
        close + 1
    } else {
        let end = bytes.iter().position(|&b| b == b':').unwrap_or(bytes.len());
        check_host(&server[..end])?;
        end
    };
    let host = &server[..host_end];
    match bytes.get(host_end) {
        None => Ok((host, None)),
        Some(b':') if host_end + 1 == bytes.len() => Ok((host, None)),
        Some(b':') => {
            let digits = &server[host_end + 1..];
            if let Some(bad) = digits.bytes().position(|b| !b.is_ascii_digit()) {
                return Err(Error::new(ErrorKind::InvalidPort, host_end + 1 + bad));
            }
            let port = parse_i32(digits.as_bytes(), false)
                .map_err(|_| Error::new(ErrorKind::PortOutOfRange, host_end + 1))?;
            Ok((host, Some(port as u32)))
        }
        Some(_) => Err(Error::new(ErrorKind::InvalidHost, host_end)),
    }
}

/// `java.net.URI`'s host rule: a dotted-quad IPv4 address, or
///
/// ```text
/// hostname    = domainlabel [ "." ] | 1*( domainlabel "." ) toplabel [ "." ]
/// domainlabel = alphanum | alphanum *( alphanum | "-" ) alphanum
/// toplabel    = alpha | alpha *( alphanum | "-" ) alphanum
/// ```
fn check_host(host: &str) -> Result<(), Error> {
    if is_ipv4(host) {
        return Ok(());
    }
    let mut labels = 0;
    let mut last_label_at = 0;
    let mut at = 0;
    let trimmed = host.strip_suffix('.').unwrap_or(host);
    for label in trimmed.split('.') {
        let b = label.as_bytes();
        let ok = !b.is_empty()
            && b[0].is_ascii_alphanumeric()
            && b[b.len() - 1].is_ascii_alphanumeric()
            && b.iter().all(|&c| c.is_ascii_alphanumeric() || c == b'-');
        if !ok {
            let bad = b
                .iter()
                .position(|&c| !(c.is_ascii_alphanumeric() || c == b'-'));
            let offset = bad.unwrap_or(if b.is_empty() { 0 } else { b.len() - 1 });
            return Err(Error::new(ErrorKind::InvalidHost, at + offset));
        }
        labels += 1;
        last_label_at = at;
        at += label.len() + 1;
    }
    if labels > 1 && !host.as_bytes()[last_label_at].is_ascii_alphabetic() {
        return Err(Error::new(ErrorKind::InvalidHost, last_label_at));
    }
    Ok(())
}

fn is_ipv4(host: &str) -> bool {
    let mut parts = 0;
    for part in host.split('.') {
        parts += 1;
        let ok = (1..=3).contains(&part.len())
            && part.bytes().all(|b| b.is_ascii_digit())
            && part.parse::<u8>().is_ok();
        if !ok || parts > 4 {
            return false;
        }
    }
    parts == 4
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::ToString;

    fn dotnet(s: &str) -> Result<(Address<'_>, &str), Error> {
        Address::split(s, Dialect::DotNet)
    }

    #[test]
    fn the_word_scan_finds_what_a_byte_by_byte_one_does() {
        let text = b"sYs@[::1]:80:\\x@Q]/a[b]:9\x80@/";
        for start in 0..text.len() {
            for end in start..=text.len() {
                let authority = &text[start..end];
                let mut want = AuthorityMarks::new(authority.len());
                let mut open = None;
                for (i, &b) in authority.iter().enumerate() {
                    if !want.note(i, b, &mut open) {
                        break;
                    }
                }
                assert_eq!(AuthorityMarks::scan(authority), want, "{authority:?}");
            }
        }
    }

    fn jvm(s: &str) -> Result<(Address<'_>, &str), Error> {
        Address::split(s, Dialect::Jvm)
    }

    #[test]
    fn dotnet_remote() {
        let (a, rest) = dotnet("akka.tcp://sys@host:1234/a").unwrap();
        assert_eq!((a.system(), a.port(), rest), ("sys", Some(1234), "/a"));
        assert!(a.host().unwrap() == "host");
    }

    #[test]
    fn dotnet_local_keeps_authority_verbatim() {
        let (a, _) = dotnet("akka://host:1234/abc").unwrap();
        assert_eq!(
            (a.system(), a.host().is_none(), a.port()),
            ("host:1234", true, None)
        );
        assert_eq!(a.to_string(), "akka://host:1234");
    }

    #[test]
    fn dotnet_lowercases_protocol_and_host_only() {
        let (a, _) = dotnet("AKKA.Tcp://SyS@HoSt:1").unwrap();
        assert_eq!(a.to_string(), "akka.tcp://SyS@host:1");
        assert_eq!(a.protocol().raw(), "AKKA.Tcp");
    }

    #[test]
    fn dotnet_ipv6_keeps_brackets() {
        let (a, _) = dotnet("akka://sys@[::1]:80/x").unwrap();
        assert!(a.host().unwrap() == "[::1]");
        assert_eq!(a.port(), Some(80));
    }

    #[test]
    fn dotnet_port_allows_sign_and_spaces() {
        assert_eq!(dotnet("akka://s@h: +12 ").unwrap().0.port(), Some(12));
        assert_eq!(
            dotnet("akka://s@h:2147483647").unwrap().0.port(),
            Some(i32::MAX as u32)
        );
    }

    #[test]
    fn dotnet_host_without_port() {
        assert_eq!(
            dotnet("akka://sys@host/a").unwrap_err(),
            Error::new(ErrorKind::MissingPort, 15)
        );
    }

    #[test]
    fn dotnet_port_not_a_number() {
        assert_eq!(
            dotnet("akka://s@h:1x").unwrap_err(),
            Error::new(ErrorKind::InvalidPort, 12)
        );
    }

    #[test]
    fn dotnet_negative_port() {
        assert_eq!(
            dotnet("akka://s@h:-1").unwrap_err().kind(),
            ErrorKind::PortOutOfRange
        );
    }

    #[test]
    fn dotnet_port_overflow() {
        assert_eq!(
            dotnet("akka://s@h:2147483648").unwrap_err().kind(),
            ErrorKind::PortOutOfRange
        );
    }

    #[test]
    fn dotnet_scheme_too_short() {
        assert_eq!(
            dotnet("s://dd@h:1").unwrap_err(),
            Error::new(ErrorKind::MissingScheme, 1)
        );
        assert_eq!(
            dotnet("no colon").unwrap_err(),
            Error::new(ErrorKind::MissingScheme, 8)
        );
    }

    #[test]
    fn dotnet_http_is_not_akka() {
        assert_eq!(
            dotnet("http://sys").unwrap_err().kind(),
            ErrorKind::UnsupportedProtocol
        );
    }

    #[test]
    fn dotnet_single_slash() {
        assert_eq!(
            dotnet("akka:/sys").unwrap_err(),
            Error::new(ErrorKind::MissingSlashes, 5)
        );
    }

    #[test]
    fn dotnet_blank_host_not_printed() {
        let (a, _) = dotnet("akka://sys@:12/x").unwrap();
        assert_eq!(a.to_string(), "akka://sys");
    }

    #[test]
    fn jvm_keeps_case() {
        let (a, _) = jvm("aKKa://sYstEm@hOst:4711/a").unwrap();
        assert_eq!(a.to_string(), "aKKa://sYstEm@hOst:4711");
    }

    #[test]
    fn jvm_accepts_any_scheme() {
        assert!(jvm("http://sys/a").is_ok());
    }

    #[test]
    fn jvm_rejects_port_without_user_info() {
        assert_eq!(
            jvm("akka://host:1234/a").unwrap_err(),
            Error::new(ErrorKind::UnexpectedPort, 11)
        );
    }

    #[test]
    fn jvm_rejects_underscore_in_host() {
        assert_eq!(
            jvm("akka://my_sys/user").unwrap_err(),
            Error::new(ErrorKind::InvalidHost, 9)
        );
        assert_eq!(
            jvm("akka://sys@in_valid:5001").unwrap_err().kind(),
            ErrorKind::InvalidHost
        );
    }

    #[test]
    fn jvm_top_label_starts_with_a_letter() {
        assert!(jvm("akka://s@127.0.0.1:1").is_ok());
        assert_eq!(
            jvm("akka://s@1.2.3.400:1").unwrap_err().kind(),
            ErrorKind::InvalidHost
        );
        assert!(jvm("akka://s@host.example.:1").is_ok());
    }

    #[test]
    fn jvm_ipv6() {
        let (a, _) = jvm("akka://s@[::1]:9/a").unwrap();
        assert!(a.host().unwrap() == "[::1]");
        assert_eq!(
            jvm("akka://s@[zz]:9").unwrap_err().kind(),
            ErrorKind::InvalidHost
        );
    }

    #[test]
    fn jvm_host_needs_port_with_user_info() {
        assert_eq!(
            jvm("akka://s@h/a").unwrap_err(),
            Error::new(ErrorKind::MissingPort, 10)
        );
    }

    #[test]
    fn jvm_server_errors_point_at_the_defect() {
        // An IPv6 literal has only hex digits and colons, and may end in IPv4.
        assert!(jvm("akka://s@[::ffff:1.2.3.4]:9").is_ok());
        for (input, kind, at) in [
            ("akka://s@[::g]:9", ErrorKind::InvalidHost, 10),
            ("akka://s@[::1]x:9", ErrorKind::InvalidHost, 14),
            ("akka://s@h:12x", ErrorKind::InvalidPort, 13),
            // An empty port is no port, which an address with user info needs.
            ("akka://s@h:", ErrorKind::MissingPort, 11),
        ] {
            assert_eq!(jvm(input).unwrap_err(), Error::new(kind, at), "{input}");
        }
    }

    #[test]
    fn jvm_port_out_of_range() {
        assert_eq!(
            jvm("akka://s@h:99999999999").unwrap_err(),
            Error::new(ErrorKind::PortOutOfRange, 11)
        );
    }

    #[test]
    fn jvm_prints_port_without_host() {
        let a = Address::new(Dialect::Jvm, "akka", "sys", None, Some(1));
        assert_eq!(a.to_string(), "akka://sys:1");
        let b = Address::new(Dialect::DotNet, "akka", "sys", None, Some(1));
        assert_eq!(b.to_string(), "akka://sys");
    }

    #[test]
    fn ordering_is_protocol_system_host_port() {
        let a = Address::new(Dialect::DotNet, "akka", "a", Some("z"), Some(1));
        let b = Address::new(Dialect::DotNet, "akka", "b", Some("a"), Some(1));
        let c = Address::new(Dialect::DotNet, "akka", "b", Some("a"), Some(2));
        assert!(a < b && b < c);
        assert_eq!(a.cmp_host_port(&b), Ordering::Greater);
    }

    #[test]
    fn local_scope_and_full_qualification_by_dialect() {
        let address = |dialect, host, port| Address::new(dialect, "akka", "s", host, port);
        for dialect in [Dialect::DotNet, Dialect::Jvm] {
            assert!(address(dialect, None, None).has_local_scope());
            assert!(address(dialect, Some(""), Some(1)).has_local_scope());
            assert!(!address(dialect, Some("h"), None).has_local_scope());
            assert!(address(dialect, Some("h"), Some(1)).is_fully_qualified());
            assert!(!address(dialect, None, Some(1)).is_fully_qualified());
        }
        assert!(!address(Dialect::DotNet, Some("h"), None).is_fully_qualified());
        assert!(address(Dialect::Jvm, Some("h"), None).is_fully_qualified());
    }

    #[test]
    fn jvm_host_check_points_at_the_underscore_after_the_last_dot() {
        let address = |host| Address::new(Dialect::Jvm, "akka", "s", Some(host), Some(1));
        assert_eq!(
            address("in_valid.example.b_ad").check_host_characters(),
            Err(Error::new(ErrorKind::InvalidHost, 18))
        );
        assert!(!address("in_valid.example").has_invalid_host_characters());
        assert_eq!(address("in_valid.example").check_host_characters(), Ok(()));
    }

    #[test]
    fn hash_covers_every_field() {
        use core::hash::BuildHasher;
        let hash = |a: &Address<'_>| {
            std::hash::BuildHasherDefault::<std::hash::DefaultHasher>::default().hash_one(a)
        };
        let base = Address::new(Dialect::DotNet, "akka", "s", Some("h"), Some(1));
        for other in [
            Address::new(Dialect::DotNet, "akka.tcp", "s", Some("h"), Some(1)),
            Address::new(Dialect::DotNet, "akka", "t", Some("h"), Some(1)),
            Address::new(Dialect::DotNet, "akka", "s", Some("i"), Some(1)),
            Address::new(Dialect::DotNet, "akka", "s", Some("h"), Some(2)),
        ] {
            assert_ne!(hash(&base), hash(&other), "{other}");
        }
        let same = Address::new(Dialect::DotNet, "akka", "s", Some("h"), Some(1));
        assert_eq!(hash(&base), hash(&same));
    }

    #[test]
    fn absent_and_empty_host_differ_but_order_together() {
        let none = Address::new(Dialect::DotNet, "akka", "s", None, None);
        let empty = Address::new(Dialect::DotNet, "akka", "s", Some(""), None);
        assert_ne!(none, empty);
        assert_eq!(none.cmp_host_port(&empty), Ordering::Equal);
        assert_eq!(none.cmp(&empty), Ordering::Less);
    }
}
