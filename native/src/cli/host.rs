//! The report of `leanwire resolve`, one per host.

use std::net::IpAddr;

use serde::Serialize;

use crate::resolve::lookup_host;

/// The report for one host.
///
/// ```json
/// {"host":"localhost","ok":true,"addresses":["127.0.0.1","::1"]}
/// {"host":"x.invalid","ok":false,"error":"Name or service not known"}
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum HostReport<'a> {
    /// The distinct addresses, in the resolver's order.
    Resolved {
        /// The host as given.
        host: &'a str,
        /// Always `true`.
        ok: bool,
        /// The addresses.
        addresses: Box<[IpAddr]>,
    },
    /// The resolver's (or the host check's) error.
    Failed {
        /// The host as given.
        host: &'a str,
        /// Always `false`.
        ok: bool,
        /// Why it did not resolve.
        error: String,
    },
}

impl<'a> HostReport<'a> {
    /// Looks `host` up with [`lookup_host`].
    pub fn lookup(host: &'a str) -> Self {
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

    /// Whether the host resolved.
    pub fn is_ok(&self) -> bool {
        matches!(self, HostReport::Resolved { .. })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ip_literal_resolves_to_itself_and_a_bad_name_says_why() {
        let literal = HostReport::lookup("127.0.0.1");
        assert!(literal.is_ok());
        assert_eq!(
            serde_json::to_string(&literal).unwrap(),
            r#"{"host":"127.0.0.1","ok":true,"addresses":["127.0.0.1"]}"#
        );
        let bad = HostReport::lookup("bad..name");
        assert!(!bad.is_ok());
        let HostReport::Failed { error, .. } = &bad else {
            panic!("{bad:?}")
        };
        assert!(!error.is_empty());
    }
}
