use super::bytes::Cur;
use super::error::{Result, Site};
use super::token::TokenType;

/// One entry of a SESSIONSTATE token.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SessionStateEntry<'a> {
    /// The state's id.
    pub id: u8,
    /// The state's value.
    pub value: &'a [u8],
}

/// A SESSIONSTATE token's body, for connection resiliency (7.4)
/// [MS-TDS 2.2.7.21]: a sequence number, a status, and state entries
/// {id u8, length (u8, or 0xFF and a u32), value}.
///
/// No encoder: a client never sends this token.
///
/// ```
/// use leanwire_core::tds::SessionState;
///
/// let body = [7, 0, 0, 0, 1, 9, 2, 0xaa, 0xbb];
/// let state = SessionState::parse(&body)?;
/// assert_eq!((state.seq_no, state.recoverable()), (7, true));
/// assert_eq!(state.entries().next().unwrap().value, [0xaa, 0xbb]);
/// # Ok::<(), leanwire_core::tds::Error>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SessionState<'a> {
    /// The sequence number of this state change.
    pub seq_no: u32,
    /// Status bits; bit 0 = the session state is recoverable.
    pub status: u8,
    data: &'a [u8],
}

impl<'a> SessionState<'a> {
    /// Reads a body (after the u32 length), checking every entry's length.
    pub fn parse(body: &'a [u8]) -> Result<SessionState<'a>> {
        let mut cur = Cur::new(body, Site::token(TokenType::SessionState));
        let seq_no = cur.u32()?;
        let status = cur.u8()?;
        let data = cur.rest();
        while !cur.rest().is_empty() {
            cur.u8()?;
            let len = match cur.u8()? {
                0xFF => cur.u32()? as usize,
                n => usize::from(n),
            };
            cur.take(len)?;
        }
        Ok(SessionState {
            seq_no,
            status,
            data,
        })
    }

    /// Whether the session state is recoverable.
    pub const fn recoverable(&self) -> bool {
        self.status & 1 != 0
    }

    /// The state entries.
    pub fn entries(&self) -> impl Iterator<Item = SessionStateEntry<'a>> + 'a {
        let mut rest = self.data;
        core::iter::from_fn(move || {
            let (&id, tail) = rest.split_first()?;
            let (&short, tail) = tail.split_first()?;
            let (len, tail) = match short {
                0xFF => {
                    let (len, tail) = tail.split_first_chunk::<4>()?;
                    (u32::from_le_bytes(*len) as usize, tail)
                }
                n => (usize::from(n), tail),
            };
            let value = tail.get(..len)?;
            rest = &tail[len..];
            Some(SessionStateEntry { id, value })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tds::{Error, ErrorKind};

    #[test]
    fn long_entries_and_overruns() {
        let body = [1, 0, 0, 0, 0, 3, 0xff, 1, 0, 0, 0, 0x42];
        let state = SessionState::parse(&body).unwrap();
        assert_eq!(state.entries().count(), 1);
        assert!(!state.recoverable());
        let site = Site::token(TokenType::SessionState);
        assert_eq!(
            SessionState::parse(&body[..11]).unwrap_err(),
            Error::new(ErrorKind::LengthMismatch(site), 11)
        );
    }

    #[test]
    fn recoverable_is_the_low_status_bit() {
        for (status, recoverable) in [(0x00, false), (0x01, true), (0xfe, false), (0xff, true)] {
            let body = [9, 0, 0, 0, status];
            let state = SessionState::parse(&body).unwrap();
            assert_eq!(state.recoverable(), recoverable, "status {status:#04x}");
            assert_eq!(state.entries().count(), 0);
        }
    }
}
