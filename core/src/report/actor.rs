use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde::Serialize;

use crate::actor::{ActorPath, Address, Dialect, InvalidActorName, PathView, check_actor_name};

/// The report for one `leanwire actor parse` input.
///
/// ```json
/// {"input":"akka://sys/a#1","ok":true,"address":{"protocol":"akka","system":"sys","host":null,"port":null},
///  "elements":["a"],"uid":1,"to_string":"akka://sys/a","to_serialization_format":"akka://sys/a#1"}
/// {"input":"x","ok":false,"error":"missing `scheme:` prefix at byte 1"}
/// ```
#[derive(Serialize, Debug)]
#[serde(untagged)]
pub enum ActorPathReport<'a> {
    /// The input parsed.
    Parsed {
        /// The input, as given.
        input: &'a str,
        /// Always `true`.
        ok: bool,
        /// The address, with the protocol and host as the dialect reads them.
        address: AddressReport<'a>,
        /// The element names, root first.
        elements: Vec<&'a str>,
        /// The uid of the last element, or `null` when undefined.
        uid: Option<i32>,
        /// `ToString()`: the path without its uid.
        to_string: String,
        /// `ToSerializationFormat()`: the path with its uid.
        to_serialization_format: String,
    },
    /// The input did not parse.
    Failed {
        /// The input, as given.
        input: &'a str,
        /// Always `false`.
        ok: bool,
        /// What was wrong, and at which byte.
        error: String,
    },
}

/// The `address` object of an [`ActorPathReport`].
#[derive(Serialize, Debug)]
pub struct AddressReport<'a> {
    /// The protocol, such as `akka.tcp`.
    pub protocol: String,
    /// The actor system's name.
    pub system: &'a str,
    /// The host, or `null` for a local address.
    pub host: Option<String>,
    /// The port, or `null`.
    pub port: Option<u32>,
}

impl<'a> ActorPathReport<'a> {
    /// Parses `input` in `dialect` and reports the outcome.
    pub fn parse(input: &'a str, dialect: Dialect) -> Self {
        match ActorPath::parse(input, dialect) {
            Ok(path) => ActorPathReport::Parsed {
                input,
                ok: true,
                address: AddressReport::new(&path.address()),
                elements: path.elements().collect(),
                uid: path.uid(),
                to_string: path.to_string(),
                to_serialization_format: path.serialization_format().to_string(),
            },
            Err(e) => ActorPathReport::Failed {
                input,
                ok: false,
                error: e.to_string(),
            },
        }
    }
}

impl<'a> AddressReport<'a> {
    /// The report of `address`.
    pub fn new(address: &Address<'a>) -> Self {
        AddressReport {
            protocol: address.protocol().to_string(),
            system: address.system(),
            host: address.host().map(|h| h.to_string()),
            port: address.port(),
        }
    }
}

/// The report for one `leanwire actor valid-element` input: `ok`, and Akka's
/// own message when the name is refused.
#[derive(Serialize, Debug)]
pub struct ElementReport<'a> {
    /// The input, as given; `null` only from bindings whose strings can be null.
    pub input: Option<&'a str>,
    /// Whether the name is a valid path element.
    pub ok: bool,
    /// Akka's `InvalidActorNameException` message, when `ok` is false.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl<'a> ElementReport<'a> {
    /// Checks `input` as an actor name in `dialect`.
    pub fn check(input: &'a str, dialect: Dialect) -> Self {
        let error = check_actor_name(input, dialect)
            .err()
            .map(|e| e.to_string());
        ElementReport {
            input: Some(input),
            ok: error.is_none(),
            error,
        }
    }

    /// The report for a null name, which Akka refuses.
    pub fn null(dialect: Dialect) -> Self {
        let error = InvalidActorName::null(dialect).to_string();
        ElementReport {
            input: None,
            ok: false,
            error: Some(error),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_come_in_contract_order() {
        let json = serde_json::to_string(&ActorPathReport::parse(
            "akka://sys@h:1/a#2",
            Dialect::DotNet,
        ))
        .unwrap();
        assert_eq!(
            json,
            r#"{"input":"akka://sys@h:1/a#2","ok":true,"address":{"protocol":"akka","system":"sys","host":"h","port":1},"elements":["a"],"uid":2,"to_string":"akka://sys@h:1/a","to_serialization_format":"akka://sys@h:1/a#2"}"#
        );
    }

    #[test]
    fn failure_names_the_defect_and_offset() {
        let json = serde_json::to_string(&ActorPathReport::parse("akka://s@h/a", Dialect::DotNet))
            .unwrap();
        assert_eq!(
            json,
            r#"{"input":"akka://s@h/a","ok":false,"error":"remote address needs `host:port` at byte 10"}"#
        );
    }
}
