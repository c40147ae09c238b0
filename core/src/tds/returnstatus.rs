use super::bytes::Cur;
use super::error::{Result, Site};
use super::token::TokenType;

/// A RETURNSTATUS token: a stored procedure's return value, an i32
/// [MS-TDS 2.2.7.17].
///
/// ```
/// use leanwire_core::tds::ReturnStatus;
///
/// let status = ReturnStatus::parse(&[0xfe, 0xff, 0xff, 0xff])?;
/// assert_eq!(status, ReturnStatus(-2));
/// let mut out = [0xa5; 4];
/// status.emit(&mut out);
/// assert_eq!(out, [0xfe, 0xff, 0xff, 0xff]);
/// # Ok::<(), leanwire_core::tds::Error>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct ReturnStatus(pub i32);

impl ReturnStatus {
    /// The body length after the token byte.
    pub const BODY_LEN: usize = 4;

    /// Reads the 4-byte body.
    pub fn parse(body: &[u8]) -> Result<ReturnStatus> {
        let mut cur = Cur::new(body, Site::token(TokenType::ReturnStatus));
        let value = cur.i32()?;
        cur.end()?;
        Ok(ReturnStatus(value))
    }

    /// Writes the 4-byte body.
    pub fn emit(&self, out: &mut [u8; 4]) {
        *out = self.0.to_le_bytes();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tds::{Error, ErrorKind};

    #[test]
    fn exactly_four_bytes() {
        let site = Site::token(TokenType::ReturnStatus);
        assert_eq!(
            ReturnStatus::parse(&[0, 0, 0]).unwrap_err(),
            Error::new(ErrorKind::LengthMismatch(site), 3)
        );
        assert_eq!(
            ReturnStatus::parse(&[0, 0, 0, 0, 0]).unwrap_err(),
            Error::new(ErrorKind::LengthMismatch(site), 4)
        );
    }
}
