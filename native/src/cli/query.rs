//! `leanwire dns query`: the words of a question as dig reads them, the
//! reverse-lookup name of an address, and the exit status of a failure.

use std::fmt::Write as _;
use std::io::{self, Write};
use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::time::Duration;

use crate::core::dns::{Class, Rtype};
use crate::core::report::DnsMessageReport;
use crate::stub::Response;

use super::dig::{DigText, Exchange, ShortText};
use super::json_line;

/// The exit status when no server answered, as dig's.
pub const EXIT_NO_ANSWER: u8 = 9;

/// A question as given on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Question<'w> {
    /// The name, as typed.
    pub name: &'w str,
    /// The type: A unless given.
    pub rtype: Rtype,
    /// The class: IN unless given.
    pub class: Class,
    /// The text after `@`, if any.
    pub server: Option<&'w str>,
}

/// Why the words of a question do not make one: a usage error.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum WordsError<'w> {
    /// No name.
    MissingName,
    /// A second `@SERVER`.
    SecondServer(&'w str),
    /// A word after NAME that is no type or class, or one too many.
    Unexpected(&'w str),
}

impl std::fmt::Display for WordsError<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WordsError::MissingName => {
                f.write_str("the following required arguments were not provided:\n  NAME")
            }
            WordsError::SecondServer(word) => {
                write!(f, "a second server '{word}': one @SERVER at most")
            }
            WordsError::Unexpected(word) => write!(
                f,
                "unexpected argument '{word}': after NAME come a TYPE (a mnemonic such as \
                 AAAA, or TYPEnnn) and a CLASS (IN, CH, HS or CLASSnnn), once each"
            ),
        }
    }
}

impl<'w> Question<'w> {
    /// Reads `words` as dig does: `@SERVER` anywhere; NAME first among the
    /// rest, then a TYPE and a CLASS in either order, each told apart by
    /// its mnemonic (case ignored). With `name` given (a reverse lookup),
    /// every word is a type, a class or the server, and the type is PTR
    /// unless given.
    pub fn from_words(
        words: &'w [String],
        name: Option<&'w str>,
    ) -> Result<Question<'w>, WordsError<'w>> {
        let (mut named, mut rtype, mut class, mut server) = (name, None, None, None);
        for word in words {
            if let Some(text) = word.strip_prefix('@') {
                if server.replace(text).is_some() {
                    return Err(WordsError::SecondServer(word));
                }
            } else if named.is_none() {
                named = Some(word);
            } else if let (None, Some(given)) = (rtype, Rtype::from_mnemonic(word)) {
                rtype = Some(given);
            } else if let (None, Some(given)) = (class, Class::from_mnemonic(word)) {
                class = Some(given);
            } else {
                return Err(WordsError::Unexpected(word));
            }
        }
        Ok(Question {
            name: named.ok_or(WordsError::MissingName)?,
            rtype: rtype.unwrap_or(if name.is_some() { Rtype::Ptr } else { Rtype::A }),
            class: class.unwrap_or(Class::In),
            server,
        })
    }
}

/// The name a reverse lookup of `address` asks for: `4.3.2.1.in-addr.arpa.`
/// [RFC 1035 §3.5], or the 32 nibbles of an IPv6 address, last first,
/// under `ip6.arpa.` [RFC 3596 §2.5].
///
/// ```
/// use leanwire_native::cli::query::reverse_name;
/// assert_eq!(reverse_name("192.0.2.1".parse().unwrap()), "1.2.0.192.in-addr.arpa.");
/// assert_eq!(
///     reverse_name("2001:db8::567:89ab".parse().unwrap()),
///     "b.a.9.8.7.6.5.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa."
/// );
/// ```
pub fn reverse_name(address: IpAddr) -> String {
    let mut name = String::with_capacity(73);
    match address {
        IpAddr::V4(v4) => {
            for octet in v4.octets().iter().rev() {
                let _ = write!(name, "{octet}.");
            }
            name.push_str("in-addr.arpa.");
        }
        IpAddr::V6(v6) => {
            for octet in v6.octets().iter().rev() {
                let _ = write!(name, "{:x}.{:x}.", octet & 0xf, octet >> 4);
            }
            name.push_str("ip6.arpa.");
        }
    }
    name
}

/// `SERVER[:PORT]` after the `@`: `192.0.2.1`, `192.0.2.1:5353`,
/// `2001:db8::1`, `[2001:db8::1]` or `[2001:db8::1]:5353`, on `port`
/// unless it names its own. A bare IPv6 address takes no port: its last
/// group would be read as one.
pub fn parse_server(text: &str, port: u16) -> Option<SocketAddr> {
    if let Ok(ip) = text.parse::<IpAddr>() {
        return Some(SocketAddr::new(ip, port));
    }
    if let Ok(address) = text.parse::<SocketAddr>() {
        return Some(address);
    }
    let inner = text.strip_prefix('[')?.strip_suffix(']')?;
    let ip = inner.parse::<Ipv6Addr>().ok()?;
    Some(SocketAddr::new(ip.into(), port))
}

/// A number of seconds greater than 0 and at most `max`; NaN, infinities
/// and anything larger are refused.
pub fn parse_seconds(text: &str, max: Duration) -> Result<Duration, String> {
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
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueryFailure {
    /// 1, or [`EXIT_NO_ANSWER`] when no server answered.
    pub status: u8,
    /// What went wrong.
    pub message: String,
}

impl QueryFailure {
    /// A failure that is not the servers' silence: status 1.
    pub fn other(message: String) -> Self {
        QueryFailure { status: 1, message }
    }

    /// No server answered: status [`EXIT_NO_ANSWER`].
    pub fn no_answer(message: String) -> Self {
        QueryFailure {
            status: EXIT_NO_ANSWER,
            message,
        }
    }

    /// Sorts an error of [`StubResolver::query`](crate::stub::StubResolver::query):
    /// a query refused before it was sent (a bad name) is status 1; anything
    /// on the way to or from the servers means they gave no answer, status 9.
    pub fn from_stub(e: io::Error, servers: &[SocketAddr]) -> Self {
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

/// How `dns query` prints a response.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Format {
    /// As dig does.
    Dig,
    /// Only the answers' data, as `dig +short` does.
    Short,
    /// The one-line JSON report of `dns decode`.
    Json,
}

/// Writes `response` in `format`. A response that does not decode is a
/// [`QueryFailure`]: printing its report would say `"ok":false` with
/// status 0. The inner result is the writing's.
pub fn write_response(
    out: &mut impl Write,
    response: &Response,
    format: Format,
) -> Result<io::Result<()>, QueryFailure> {
    let undecodable = |error: &dyn std::fmt::Display| {
        QueryFailure::other(format!(
            "the response from {} does not decode: {error}",
            response.server()
        ))
    };
    // The stub resolver checked the message when it arrived; RDATA that is
    // malformed for its type prints in the RFC 3597 form, but in JSON fails.
    if format == Format::Json {
        return match DnsMessageReport::decode(response.bytes()) {
            DnsMessageReport::Failed { error, .. } => Err(undecodable(&error)),
            report => Ok(json_line(out, &report)),
        };
    }
    let message = response.message().map_err(|e| undecodable(&e))?;
    Ok(if format == Format::Short {
        write!(out, "{}", ShortText(message))
    } else {
        write!(
            out,
            "{}",
            DigText::new(message, Some(Exchange::of(response)))
        )
    })
}

/// Writes what `format` says of a failure on stdout: in JSON, the failed
/// report; otherwise nothing, since the message goes to stderr.
pub fn write_failure(
    out: &mut impl Write,
    failure: &QueryFailure,
    format: Format,
) -> io::Result<()> {
    match format {
        Format::Json => json_line(
            out,
            &DnsMessageReport::Failed {
                ok: false,
                error: failure.message.clone(),
            },
        ),
        Format::Dig | Format::Short => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn type_and_class_come_after_the_name_in_either_order_and_the_server_anywhere() {
        let w = words("@192.0.2.1 example.com ch txt");
        let q = Question::from_words(&w, None).unwrap();
        assert_eq!(q.name, "example.com");
        assert_eq!((q.rtype, q.class), (Rtype::Txt, Class::Ch));
        assert_eq!(q.server, Some("192.0.2.1"));
        let w = words("example.com MX");
        let q = Question::from_words(&w, None).unwrap();
        assert_eq!((q.rtype, q.class, q.server), (Rtype::Mx, Class::In, None));
        let w = words("example.com");
        assert_eq!(Question::from_words(&w, None).unwrap().rtype, Rtype::A);
    }

    #[test]
    fn a_reverse_lookup_asks_for_ptr_unless_told_otherwise() {
        let q = Question::from_words(&[], Some("1.2.0.192.in-addr.arpa.")).unwrap();
        assert_eq!((q.name, q.rtype), ("1.2.0.192.in-addr.arpa.", Rtype::Ptr));
        let w = words("any @::1");
        let q = Question::from_words(&w, Some("x.arpa.")).unwrap();
        assert_eq!((q.rtype, q.server), (Rtype::Any, Some("::1")));
    }

    #[test]
    fn bad_words_are_named() {
        let cases = [
            ("", WordsError::MissingName),
            ("@::1", WordsError::MissingName),
            ("a.example A IN AAAA", WordsError::Unexpected("AAAA")),
            ("a.example NOTATYPE", WordsError::Unexpected("NOTATYPE")),
            ("@::1 a.example @::2", WordsError::SecondServer("@::2")),
        ];
        for (text, want) in cases {
            assert_eq!(
                Question::from_words(&words(text), None),
                Err(want),
                "{text}"
            );
        }
    }

    #[test]
    fn servers_take_the_port_unless_they_name_one() {
        let cases = [
            ("192.0.2.1", 5353, Some("192.0.2.1:5353")),
            ("192.0.2.1:53", 5353, Some("192.0.2.1:53")),
            ("[::1]", 5353, Some("[::1]:5353")),
            ("2001:db8::1", 53, Some("[2001:db8::1]:53")),
            ("host.example", 53, None),
        ];
        for (text, port, want) in cases {
            let want = want.map(|address| address.parse().unwrap());
            assert_eq!(parse_server(text, port), want, "{text}");
        }
    }

    #[test]
    fn seconds_are_positive_finite_and_bounded() {
        let max = Duration::from_secs(10);
        assert_eq!(parse_seconds("0.5", max), Ok(Duration::from_millis(500)));
        for bad in ["0", "-1", "NaN", "inf", "11", "x"] {
            assert!(parse_seconds(bad, max).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_stub_error_says_which_servers_gave_no_answer_unless_it_already_does() {
        let servers: [SocketAddr; 2] =
            ["192.0.2.1:53".parse().unwrap(), "[::1]:53".parse().unwrap()];
        let bare = QueryFailure::from_stub(io::ErrorKind::TimedOut.into(), &servers);
        assert_eq!(
            bare,
            QueryFailure::no_answer("no answer from 192.0.2.1:53, [::1]:53: timed out".into())
        );
        let would_block = QueryFailure::from_stub(io::ErrorKind::WouldBlock.into(), &servers);
        assert_eq!(would_block, bare);
        let said = "no answer from 192.0.2.1:53 within 2s";
        assert_eq!(
            QueryFailure::from_stub(io::Error::new(io::ErrorKind::TimedOut, said), &servers),
            QueryFailure::no_answer(said.into())
        );
        let refused = QueryFailure::from_stub(io::ErrorKind::ConnectionRefused.into(), &servers);
        assert_eq!(refused.status, EXIT_NO_ANSWER);
        assert!(
            refused
                .message
                .starts_with("no answer from 192.0.2.1:53, [::1]:53: "),
            "{refused:?}"
        );
        let bad_name = QueryFailure::from_stub(
            io::Error::new(io::ErrorKind::InvalidInput, "label too long"),
            &servers,
        );
        assert_eq!(bad_name, QueryFailure::other("label too long".into()));
    }
}
