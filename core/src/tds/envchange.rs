use core::fmt;

use super::bytes::Cur;
use super::code::registry;
use super::error::{ErrorKind, Result, Site};
use super::token::TokenType;
use super::type_info::Collation;
use super::ucs2::Ucs2Str;
use super::value::write_hex;

registry! {
    /// The type of an ENVCHANGE [MS-TDS 2.2.7.9].
    pub enum EnvChangeType: u8 {
        /// The current database (B_VARCHAR values).
        Database = 1 => "database",
        /// The session language (B_VARCHAR).
        Language = 2 => "language",
        /// The character set, 7.0 only (B_VARCHAR).
        CharacterSet = 3 => "charset",
        /// The packet size, as decimal text (B_VARCHAR).
        PacketSize = 4 => "packet_size",
        /// The Unicode sorting locale id (B_VARCHAR).
        UnicodeLocaleId = 5 => "unicode_lcid",
        /// The Unicode comparison flags (B_VARCHAR).
        UnicodeComparisonFlags = 6 => "unicode_comparison_flags",
        /// The SQL collation (B_VARBYTE: 5 bytes, or empty).
        SqlCollation = 7 => "collation",
        /// A transaction began (B_VARBYTE descriptor).
        BeginTransaction = 8 => "begin_transaction",
        /// A transaction committed (B_VARBYTE).
        CommitTransaction = 9 => "commit_transaction",
        /// A transaction rolled back (B_VARBYTE).
        RollbackTransaction = 10 => "rollback_transaction",
        /// A DTC transaction was enlisted (B_VARBYTE).
        EnlistDtcTransaction = 11 => "enlist_dtc_transaction",
        /// A transaction was defected (B_VARBYTE).
        DefectTransaction = 12 => "defect_transaction",
        /// The database mirroring partner (B_VARCHAR).
        MirroringPartner = 13 => "mirroring_partner",
        /// A transaction was promoted (L_VARBYTE, then a zero byte).
        PromoteTransaction = 15 => "promote_transaction",
        /// The transaction manager's address (B_VARBYTE).
        TransactionManagerAddress = 16 => "transaction_manager_address",
        /// A transaction ended (B_VARBYTE).
        TransactionEnded = 17 => "transaction_ended",
        /// RESETCONNECTION was honoured (B_VARBYTE, empty).
        ResetConnectionAck = 18 => "reset_connection_ack",
        /// A user instance started; its name (B_VARCHAR).
        UserInstance = 19 => "user_instance",
        /// Routing to another server (Azure SQL redirects).
        Routing = 20 => "routing",
    }
}

impl EnvChangeType {
    /// The [`name`](Self::name) of a known type in upper case
    /// (`DATABASE`, `PACKET_SIZE`, `COLLATION`, ...), or `None` for an
    /// unknown one.
    pub const fn upper_name(self) -> Option<&'static str> {
        Some(match self {
            EnvChangeType::Database => "DATABASE",
            EnvChangeType::Language => "LANGUAGE",
            EnvChangeType::CharacterSet => "CHARSET",
            EnvChangeType::PacketSize => "PACKET_SIZE",
            EnvChangeType::UnicodeLocaleId => "UNICODE_LCID",
            EnvChangeType::UnicodeComparisonFlags => "UNICODE_COMPARISON_FLAGS",
            EnvChangeType::SqlCollation => "COLLATION",
            EnvChangeType::BeginTransaction => "BEGIN_TRANSACTION",
            EnvChangeType::CommitTransaction => "COMMIT_TRANSACTION",
            EnvChangeType::RollbackTransaction => "ROLLBACK_TRANSACTION",
            EnvChangeType::EnlistDtcTransaction => "ENLIST_DTC_TRANSACTION",
            EnvChangeType::DefectTransaction => "DEFECT_TRANSACTION",
            EnvChangeType::MirroringPartner => "MIRRORING_PARTNER",
            EnvChangeType::PromoteTransaction => "PROMOTE_TRANSACTION",
            EnvChangeType::TransactionManagerAddress => "TRANSACTION_MANAGER_ADDRESS",
            EnvChangeType::TransactionEnded => "TRANSACTION_ENDED",
            EnvChangeType::ResetConnectionAck => "RESET_CONNECTION_ACK",
            EnvChangeType::UserInstance => "USER_INSTANCE",
            EnvChangeType::Routing => "ROUTING",
            EnvChangeType::Unknown(_) => return None,
        })
    }

    /// Prints the [`upper_name`](Self::upper_name) of a known type, and
    /// `0XNN` for an unknown one.
    pub const fn upper(self) -> UpperName {
        UpperName(self)
    }
}

/// An ENVCHANGE type printed in upper case; see [`EnvChangeType::upper`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct UpperName(EnvChangeType);

impl fmt::Display for UpperName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.upper_name() {
            Some(name) => f.write_str(name),
            None => write!(f, "0X{:02X}", u8::from(self.0)),
        }
    }
}

/// One side (new or old) of an ENVCHANGE.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum EnvValue<'a> {
    /// Text (B_VARCHAR).
    Text(Ucs2Str<'a>),
    /// Bytes (B_VARBYTE or L_VARBYTE).
    Bytes(&'a [u8]),
    /// A routing target.
    Routing {
        /// The protocol (0 = TCP).
        protocol: u8,
        /// The TCP port.
        port: u16,
        /// The server to connect to.
        server: Ucs2Str<'a>,
    },
    /// The unparsed data of an unknown type (all of it, in `new`; `old` is
    /// empty).
    Raw(&'a [u8]),
}

impl fmt::Display for EnvValue<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EnvValue::Text(text) => write!(f, "{text:?}"),
            EnvValue::Bytes(bytes) | EnvValue::Raw(bytes) => write_hex(f, bytes),
            EnvValue::Routing {
                protocol,
                port,
                server,
            } => write!(f, "{server}:{port} (protocol {protocol})"),
        }
    }
}

/// An ENVCHANGE token's body [MS-TDS 2.2.7.9]: a type and new and old
/// values, whose form depends on the type. A type leanwire does not know is
/// kept raw (the token's length says how far it runs).
///
/// No encoder: a client never sends this token.
///
/// ```
/// use leanwire_core::tds::{EnvChange, EnvChangeType};
///
/// let body = [4, 4, b'2', 0, b'0', 0, b'4', 0, b'8', 0, 0];
/// let change = EnvChange::parse(&body)?;
/// assert_eq!(change.kind, EnvChangeType::PacketSize);
/// assert_eq!(change.packet_size(), Some(2048));
/// assert_eq!(change.to_string(), r#"packet_size new="2048" old="""#);
/// # Ok::<(), leanwire_core::tds::Error>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct EnvChange<'a> {
    /// What changed.
    pub kind: EnvChangeType,
    /// The new value.
    pub new: EnvValue<'a>,
    /// The old value.
    pub old: EnvValue<'a>,
}

impl<'a> EnvChange<'a> {
    /// Reads a body (after the length field); it must be used up exactly.
    pub fn parse(body: &'a [u8]) -> Result<EnvChange<'a>> {
        let mut cur = Cur::new(body, Site::token(TokenType::EnvChange));
        let kind = EnvChangeType::from(cur.u8()?);
        let (new, old) = match kind {
            EnvChangeType::Database
            | EnvChangeType::Language
            | EnvChangeType::CharacterSet
            | EnvChangeType::PacketSize
            | EnvChangeType::UnicodeLocaleId
            | EnvChangeType::UnicodeComparisonFlags
            | EnvChangeType::MirroringPartner
            | EnvChangeType::UserInstance => (
                EnvValue::Text(cur.b_varchar()?),
                EnvValue::Text(cur.b_varchar()?),
            ),
            EnvChangeType::SqlCollation
            | EnvChangeType::BeginTransaction
            | EnvChangeType::CommitTransaction
            | EnvChangeType::RollbackTransaction
            | EnvChangeType::EnlistDtcTransaction
            | EnvChangeType::DefectTransaction
            | EnvChangeType::TransactionManagerAddress
            | EnvChangeType::TransactionEnded
            | EnvChangeType::ResetConnectionAck => (
                EnvValue::Bytes(cur.b_varbyte()?),
                EnvValue::Bytes(cur.b_varbyte()?),
            ),
            EnvChangeType::PromoteTransaction => {
                let len = cur.u32()?;
                let new = cur.take(len as usize)?;
                (EnvValue::Bytes(new), EnvValue::Bytes(cur.b_varbyte()?))
            }
            EnvChangeType::Routing => {
                let len = usize::from(cur.u16()?);
                let start = cur.at();
                let protocol = cur.u8()?;
                let port = cur.u16()?;
                let server = cur.us_varchar()?;
                if cur.at() - start != len {
                    return Err(cur.error(ErrorKind::LengthMismatch, start - 2));
                }
                let old = cur.take(2)?;
                if old != [0, 0] {
                    return Err(cur.error(ErrorKind::LengthMismatch, cur.at() - 2));
                }
                (
                    EnvValue::Routing {
                        protocol,
                        port,
                        server,
                    },
                    EnvValue::Bytes(&[]),
                )
            }
            EnvChangeType::Unknown(_) => (
                EnvValue::Raw(cur.take(cur.rest().len())?),
                EnvValue::Raw(&[]),
            ),
        };
        cur.end()?;
        Ok(EnvChange { kind, new, old })
    }

    /// For a packet size change: the new size.
    pub fn packet_size(&self) -> Option<u32> {
        match (self.kind, self.new) {
            (EnvChangeType::PacketSize, EnvValue::Text(text)) => parse_decimal(text),
            _ => None,
        }
    }

    /// For a collation change: the new collation (`None` if it was empty).
    pub fn collation(&self) -> Option<Collation> {
        match (self.kind, self.new) {
            (EnvChangeType::SqlCollation, EnvValue::Bytes(bytes)) => {
                bytes.try_into().ok().map(Collation::from_bytes)
            }
            _ => None,
        }
    }
}

/// Decimal digits, as text, to a number.
fn parse_decimal(text: Ucs2Str<'_>) -> Option<u32> {
    let mut n: u32 = 0;
    if text.is_empty() {
        return None;
    }
    for unit in text.units() {
        let digit = u32::from(unit)
            .checked_sub(u32::from(b'0'))
            .filter(|&d| d < 10)?;
        n = n.checked_mul(10)?.checked_add(digit)?;
    }
    Some(n)
}

impl fmt::Display for EnvChange<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            EnvChangeType::Unknown(n) => write!(f, "type {n} {}", self.new),
            kind => write!(f, "{kind} new={} old={}", self.new, self.old),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tds::Error;
    use std::string::ToString;

    #[test]
    fn every_value_form() {
        let db = EnvChange::parse(&[1, 1, b'a', 0, 0]).unwrap();
        assert_eq!(db.to_string(), r#"database new="a" old="""#);
        let collation = EnvChange::parse(&[7, 5, 9, 4, 0, 1, 0, 0]).unwrap();
        assert_eq!(collation.collation().unwrap().lcid(), 0x409);
        let begin = EnvChange::parse(&[8, 2, 1, 2, 0]).unwrap();
        assert_eq!(begin.to_string(), "begin_transaction new=0x0102 old=0x");
        let promote = EnvChange::parse(&[15, 2, 0, 0, 0, 0xaa, 0xbb, 0]).unwrap();
        assert_eq!(promote.new, EnvValue::Bytes(&[0xaa, 0xbb]));
        let routing = EnvChange::parse(&[20, 7, 0, 0, 0x99, 0x05, 1, 0, b'h', 0, 0, 0]).unwrap();
        assert_eq!(
            routing.to_string(),
            "routing new=h:1433 (protocol 0) old=0x"
        );
        let unknown = EnvChange::parse(&[0xab, 5, 9, 4]).unwrap();
        assert_eq!(unknown.kind, EnvChangeType::Unknown(0xab));
        assert_eq!(unknown.new, EnvValue::Raw(&[5, 9, 4]));
    }

    /// A PACKET_SIZE change whose new value is `text` (ASCII), old value empty.
    fn packet_size(text: &str) -> Option<u32> {
        let mut body = std::vec![4, text.len() as u8];
        for b in text.bytes() {
            body.extend_from_slice(&[b, 0]);
        }
        body.push(0);
        EnvChange::parse(&body).unwrap().packet_size()
    }

    #[test]
    fn packet_size_is_the_new_value_in_decimal() {
        assert_eq!(packet_size("4096"), Some(4096));
        assert_eq!(packet_size("0"), Some(0));
        assert_eq!(packet_size("4294967295"), Some(u32::MAX));
        // Not a number: empty, past u32, or with a byte beside '0'..='9'.
        for text in ["", "4294967296", "40/96", "40:96", "4096 "] {
            assert_eq!(packet_size(text), None, "{text:?}");
        }
        // Another type has no packet size, even with digits for its value.
        let database = EnvChange::parse(&[1, 1, b'8', 0, 0]).unwrap();
        assert_eq!(database.packet_size(), None);
    }

    #[test]
    fn routing_old_value_must_be_empty() {
        let site = Site::token(TokenType::EnvChange);
        assert_eq!(
            EnvChange::parse(&[20, 7, 0, 0, 0x99, 0x05, 1, 0, b'h', 0, 1, 0]).unwrap_err(),
            Error::new(ErrorKind::LengthMismatch(site), 10)
        );
    }

    #[test]
    fn upper_names() {
        // The type numbers of MS-TDS 2.2.7.9.
        for (number, name) in [
            (1, "DATABASE"),
            (4, "PACKET_SIZE"),
            (7, "COLLATION"),
            (8, "BEGIN_TRANSACTION"),
            (18, "RESET_CONNECTION_ACK"),
            (20, "ROUTING"),
        ] {
            assert_eq!(EnvChangeType::from(number).upper_name(), Some(name));
        }
        // MS-TDS defines no type 14, nor any past 20.
        assert_eq!(EnvChangeType::from(14).upper_name(), None);
        assert_eq!(EnvChangeType::from(21).upper_name(), None);
        assert_eq!(EnvChangeType::from(4).upper().to_string(), "PACKET_SIZE");
        assert_eq!(EnvChangeType::from(0xab).upper().to_string(), "0XAB");
        assert_eq!(EnvChangeType::from(14).upper().to_string(), "0X0E");
        for number in 0..=255 {
            let kind = EnvChangeType::from(number);
            assert_eq!(
                kind.upper_name().map(str::to_string),
                kind.name().map(str::to_ascii_uppercase),
                "type {number}"
            );
        }
    }

    #[test]
    fn lengths_that_disagree() {
        let site = Site::token(TokenType::EnvChange);
        // The body ends inside the old value.
        assert_eq!(
            EnvChange::parse(&[1, 1, b'a', 0, 1]).unwrap_err(),
            Error::new(ErrorKind::LengthMismatch(site), 5)
        );
        // Bytes left over.
        assert_eq!(
            EnvChange::parse(&[1, 0, 0, 0]).unwrap_err(),
            Error::new(ErrorKind::LengthMismatch(site), 3)
        );
        // Routing data length that disagrees with the server name.
        assert_eq!(
            EnvChange::parse(&[20, 8, 0, 0, 0x99, 0x05, 1, 0, b'h', 0, 0, 0]).unwrap_err(),
            Error::new(ErrorKind::LengthMismatch(site), 1)
        );
        assert_eq!(EnvChange::parse(&[]).unwrap_err().offset(), 0);
    }
}
