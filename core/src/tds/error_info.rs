use core::fmt;

use super::bytes::Cur;
use super::error::{Result, Site};
use super::token::TokenType;
use super::ucs2::Ucs2Str;
use super::version::TdsVersion;

/// An ERROR or INFO token's body; the two share one layout
/// [MS-TDS 2.2.7.10, 2.2.7.13].
///
/// ```text
/// Length u16 | Number i32 | State u8 | Class u8 | MsgText US_VARCHAR
/// | ServerName B_VARCHAR | ProcName B_VARCHAR | LineNumber (u16 before 7.2, i32)
/// ```
///
/// No encoder: leanwire reads what a server sends, and a client never sends
/// this token.
///
/// ```
/// use leanwire_core::tds::{Message, TdsVersion, TokenType};
///
/// let body = [3, 0, 0, 0, 4, 5, 1, 0, b'm', 0, 1, b's', 0, 0, 6, 0, 0, 0];
/// let info = Message::parse(TokenType::Info, &body, TdsVersion::V7_4)?;
/// assert_eq!((info.number, info.state, info.class, info.line), (3, 4, 5, 6));
/// assert!(info.text == "m" && info.server == "s" && info.procedure.is_empty());
/// # Ok::<(), leanwire_core::tds::Error>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Message<'a> {
    /// The message number (5701 = database changed, ...).
    pub number: i32,
    /// The error state.
    pub state: u8,
    /// The severity class (0-10 informational, 11+ errors).
    pub class: u8,
    /// The message text.
    pub text: Ucs2Str<'a>,
    /// The server's name.
    pub server: Ucs2Str<'a>,
    /// The stored procedure's name, or empty.
    pub procedure: Ucs2Str<'a>,
    /// The line number in the batch or procedure.
    pub line: i32,
}

impl<'a> Message<'a> {
    /// Reads a body (after the length field) for `token` (ERROR or INFO).
    pub fn parse(token: TokenType, body: &'a [u8], version: TdsVersion) -> Result<Message<'a>> {
        let mut cur = Cur::new(body, Site::token(token));
        let number = cur.i32()?;
        let state = cur.u8()?;
        let class = cur.u8()?;
        let text = cur.us_varchar()?;
        let server = cur.b_varchar()?;
        let procedure = cur.b_varchar()?;
        let line = if version.is_7_2_or_later() {
            cur.i32()?
        } else {
            i32::from(cur.u16()?)
        };
        cur.end()?;
        Ok(Message {
            number,
            state,
            class,
            text,
            server,
            procedure,
            line,
        })
    }
}

impl fmt::Display for Message<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} state={} class={} {:?} server={:?} proc={:?} line={}",
            self.number, self.state, self.class, self.text, self.server, self.procedure, self.line
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tds::{Error, ErrorKind};

    #[test]
    fn line_number_width_follows_the_version() {
        let mut body = std::vec::Vec::from([1, 0, 0, 0, 1, 16, 0, 0, 0, 0]);
        body.extend([7, 0]);
        let old = Message::parse(TokenType::Error, &body, TdsVersion::V7_1).unwrap();
        assert_eq!(old.line, 7);
        assert_eq!(
            Message::parse(TokenType::Error, &body, TdsVersion::V7_2).unwrap_err(),
            Error::new(ErrorKind::LengthMismatch(Site::token(TokenType::Error)), 12)
        );
    }

    #[test]
    fn unpaired_surrogate_in_message_text() {
        let body = [1, 0, 0, 0, 1, 16, 1, 0, 0x00, 0xdc, 0, 0, 1, 0, 0, 0];
        assert_eq!(
            Message::parse(TokenType::Error, &body, TdsVersion::V7_4).unwrap_err(),
            Error::new(ErrorKind::InvalidUcs2(Site::token(TokenType::Error)), 8)
        );
    }
}
