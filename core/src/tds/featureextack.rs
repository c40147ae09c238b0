use core::fmt;

use super::bytes::Cur;
use super::code::registry;
use super::error::{Result, Site};
use super::token::TokenType;
use super::value::write_hex;

registry! {
    /// A feature extension id [MS-TDS 2.2.6.4, 2.2.7.11].
    pub enum FeatureId: u8 {
        /// Session recovery (connection resiliency).
        SessionRecovery = 0x01 => "SESSIONRECOVERY",
        /// Federated authentication.
        FedAuth = 0x02 => "FEDAUTH",
        /// Always Encrypted column encryption.
        ColumnEncryption = 0x04 => "COLUMNENCRYPTION",
        /// Global transactions.
        GlobalTransactions = 0x05 => "GLOBALTRANSACTIONS",
        /// Azure SQL support.
        AzureSqlSupport = 0x08 => "AZURESQLSUPPORT",
        /// Data classification.
        DataClassification = 0x09 => "DATACLASSIFICATION",
        /// UTF-8 collations.
        Utf8Support = 0x0A => "UTF8_SUPPORT",
        /// Azure SQL DNS caching.
        AzureSqlDnsCaching = 0x0B => "AZURESQLDNSCACHING",
        /// The JSON type.
        JsonSupport = 0x0D => "JSONSUPPORT",
        /// The VECTOR type.
        VectorSupport = 0x0E => "VECTORSUPPORT",
    }
}

/// One acknowledged feature.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct FeatureAck<'a> {
    /// The feature.
    pub id: FeatureId,
    /// Its acknowledgement data.
    pub data: &'a [u8],
}

/// A FEATUREEXTACK token's body (7.4) [MS-TDS 2.2.7.11]: entries of
/// {FeatureId u8, length u32, data}, ended by FeatureId 0xFF. The token has
/// no overall length; the reader finds its end by walking the entries.
///
/// No encoder: a client never sends this token.
///
/// ```
/// use leanwire_core::tds::{FeatureExtAck, FeatureId};
///
/// let body = [0x0a, 1, 0, 0, 0, 1, 0xff];
/// let ack = FeatureExtAck::parse(&body)?;
/// let utf8 = ack.features().next().unwrap();
/// assert_eq!((utf8.id, utf8.data), (FeatureId::Utf8Support, &[1][..]));
/// assert_eq!(ack.to_string(), "[UTF8_SUPPORT 0x01]");
/// # Ok::<(), leanwire_core::tds::Error>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct FeatureExtAck<'a> {
    body: &'a [u8],
}

impl<'a> FeatureExtAck<'a> {
    /// Reads a body: entries and the 0xFF terminator, and nothing after it.
    pub fn parse(body: &'a [u8]) -> Result<FeatureExtAck<'a>> {
        let mut cur = Cur::new(body, Site::token(TokenType::FeatureExtAck));
        while cur.u8()? != 0xFF {
            let len = cur.u32()?;
            cur.take(len as usize)?;
        }
        cur.end()?;
        Ok(FeatureExtAck { body })
    }

    /// The acknowledged features.
    pub fn features(&self) -> impl Iterator<Item = FeatureAck<'a>> + 'a {
        let mut rest = self.body;
        core::iter::from_fn(move || {
            let (&id, tail) = rest.split_first()?;
            if id == 0xFF {
                return None;
            }
            let (len, tail) = tail.split_first_chunk::<4>()?;
            let len = u32::from_le_bytes(*len) as usize;
            let data = tail.get(..len)?;
            rest = &tail[len..];
            Some(FeatureAck {
                id: FeatureId::from(id),
                data,
            })
        })
    }

    /// The data of feature `id`, if it was acknowledged.
    pub fn get(&self, id: FeatureId) -> Option<&'a [u8]> {
        self.features().find(|f| f.id == id).map(|f| f.data)
    }
}

impl fmt::Display for FeatureExtAck<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[")?;
        for (i, feature) in self.features().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{} ", feature.id)?;
            write_hex(f, feature.data)?;
        }
        f.write_str("]")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tds::{Error, ErrorKind};

    #[test]
    fn terminator_is_required_and_final() {
        let site = Site::token(TokenType::FeatureExtAck);
        assert_eq!(
            FeatureExtAck::parse(&[1, 0, 0, 0, 0]).unwrap_err(),
            Error::new(ErrorKind::LengthMismatch(site), 5)
        );
        assert_eq!(
            FeatureExtAck::parse(&[0xff, 0]).unwrap_err(),
            Error::new(ErrorKind::LengthMismatch(site), 1)
        );
        assert_eq!(FeatureExtAck::parse(&[0xff]).unwrap().features().count(), 0);
    }
}
