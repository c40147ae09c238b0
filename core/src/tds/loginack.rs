use core::fmt;

use super::bytes::Cur;
use super::error::{Result, Site};
use super::token::TokenType;
use super::ucs2::Ucs2Str;
use super::version::TdsVersion;

/// A LOGINACK token's body [MS-TDS 2.2.7.14]. The reader switches to the
/// TDS version it names.
///
/// ```text
/// Length u16 | Interface u8 | TDSVersion 4 bytes (big-endian) | ProgName B_VARCHAR
/// | ProgVersion: major, minor, build high, build low
/// ```
///
/// No encoder: a client never sends this token.
///
/// ```
/// use leanwire_core::tds::{LoginAck, TdsVersion};
///
/// let body = [1, 0x74, 0, 0, 4, 1, b'x', 0, 16, 0, 0x10, 0x3d];
/// let ack = LoginAck::parse(&body)?;
/// assert_eq!(ack.version(), Some(TdsVersion::V7_4));
/// assert_eq!(ack.to_string(), r#"interface=1 tds=0x74000004 prog="x" version=16.0.4157"#);
/// # Ok::<(), leanwire_core::tds::Error>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct LoginAck<'a> {
    /// The SQL interface: 1 = T-SQL.
    pub interface: u8,
    /// The TDS version, as a number (`0x74000004`).
    pub tds_version: u32,
    /// The server program's name. A real server sends
    /// `"Microsoft SQL Server\0\0"`, NULs included; see
    /// [`program_name`](Self::program_name).
    pub prog_name: Ucs2Str<'a>,
    /// The server version: major, minor, build (high byte), build (low byte).
    pub prog_version: [u8; 4],
}

impl<'a> LoginAck<'a> {
    /// Reads a body (after the length field).
    pub fn parse(body: &'a [u8]) -> Result<LoginAck<'a>> {
        let mut cur = Cur::new(body, Site::token(TokenType::LoginAck));
        let interface = cur.u8()?;
        let tds_version = u32::from_be_bytes(cur.array()?);
        let prog_name = cur.b_varchar()?;
        let prog_version = cur.array()?;
        cur.end()?;
        Ok(LoginAck {
            interface,
            tds_version,
            prog_name,
            prog_version,
        })
    }

    /// The TDS version, if leanwire reads it.
    pub const fn version(&self) -> Option<TdsVersion> {
        TdsVersion::from_wire(self.tds_version)
    }

    /// The server program's name without the NULs a real server pads it
    /// with: `Microsoft SQL Server`.
    pub fn program_name(&self) -> Ucs2Str<'a> {
        self.prog_name.trim_end_nuls()
    }

    /// The server's build number.
    pub const fn build(&self) -> u16 {
        u16::from_be_bytes([self.prog_version[2], self.prog_version[3]])
    }
}

impl fmt::Display for LoginAck<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "interface={} tds=0x{:08X} prog={:?} version={}.{}.{}",
            self.interface,
            self.tds_version,
            self.program_name(),
            self.prog_version[0],
            self.prog_version[1],
            self.build()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tds::{Error, ErrorKind};
    use std::string::ToString;

    #[test]
    fn real_server_name_has_nuls() {
        let mut body = std::vec::Vec::from([1, 0x73, 0x0b, 0, 3, 22]);
        for c in "Microsoft SQL Server\0\0".encode_utf16() {
            body.extend(c.to_le_bytes());
        }
        body.extend([10, 0, 0x15, 0x88]);
        let ack = LoginAck::parse(&body).unwrap();
        assert_eq!(ack.version(), Some(TdsVersion::V7_3B));
        assert!(ack.prog_name == "Microsoft SQL Server\0\0");
        assert_eq!(ack.program_name(), "Microsoft SQL Server");
        assert_eq!(ack.build(), 5512);
        assert_eq!(
            ack.to_string(),
            r#"interface=1 tds=0x730B0003 prog="Microsoft SQL Server" version=10.0.5512"#
        );
        body.push(0);
        assert_eq!(
            LoginAck::parse(&body).unwrap_err(),
            Error::new(
                ErrorKind::LengthMismatch(Site::token(TokenType::LoginAck)),
                54
            )
        );
    }
}
