use core::fmt;

use super::error::{Error, ErrorKind, Result, Site};
use super::token::TokenType;

/// An ORDER token's body: the 1-based numbers of the columns a result set
/// is sorted by, u16 each [MS-TDS 2.2.7.16].
///
/// ```
/// use leanwire_core::tds::Order;
///
/// let order = Order::parse(&[3, 0, 4, 0])?;
/// assert_eq!(order.columns().collect::<Vec<_>>(), [3, 4]);
/// let mut out = [0xa5; 4];
/// order.emit(&mut out);
/// assert_eq!(out, [3, 0, 4, 0]);
/// # Ok::<(), leanwire_core::tds::Error>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Order<'a> {
    bytes: &'a [u8],
}

impl<'a> Order<'a> {
    /// Reads a body (after the length field): an even number of bytes.
    pub fn parse(body: &'a [u8]) -> Result<Order<'a>> {
        if !body.len().is_multiple_of(2) {
            let site = Site::token(TokenType::Order);
            return Err(Error::new(ErrorKind::LengthMismatch(site), body.len() - 1));
        }
        Ok(Order { bytes: body })
    }

    /// The column numbers.
    pub fn columns(&self) -> impl Iterator<Item = u16> + 'a {
        self.bytes
            .chunks_exact(2)
            .map(|pair| u16::from_le_bytes([pair[0], pair[1]]))
    }

    /// How many columns.
    pub const fn len(&self) -> usize {
        self.bytes.len() / 2
    }

    /// Whether there are none.
    pub const fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// Writes the body (2 bytes per column) into `out`.
    pub fn emit(&self, out: &mut [u8]) {
        out[..self.bytes.len()].copy_from_slice(self.bytes);
    }

    /// The bytes [`emit`](Self::emit) writes.
    pub const fn emitted_len(&self) -> usize {
        self.bytes.len()
    }
}

impl fmt::Display for Order<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[")?;
        for (i, column) in self.columns().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{column}")?;
        }
        f.write_str("]")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::ToString;

    #[test]
    fn an_odd_body_is_refused_at_its_last_byte() {
        let site = Site::token(TokenType::Order);
        assert_eq!(
            Order::parse(&[3, 0, 4]).unwrap_err(),
            Error::new(ErrorKind::LengthMismatch(site), 2)
        );
        assert_eq!(
            Order::parse(&[1]).unwrap_err(),
            Error::new(ErrorKind::LengthMismatch(site), 0)
        );
    }

    #[test]
    fn counts_columns_and_writes_only_its_own_bytes() {
        let empty = Order::parse(&[]).unwrap();
        assert!(empty.is_empty());
        assert_eq!((empty.len(), empty.emitted_len()), (0, 0));
        assert_eq!(empty.to_string(), "[]");

        let order = Order::parse(&[2, 0, 0x01, 0x01, 7, 0]).unwrap();
        assert!(!order.is_empty());
        assert_eq!((order.len(), order.emitted_len()), (3, 6));
        assert_eq!(order.columns().collect::<std::vec::Vec<_>>(), [2, 257, 7]);
        assert_eq!(order.to_string(), "[2, 257, 7]");
        assert_eq!(Order::parse(&[9, 0]).unwrap().to_string(), "[9]");

        let mut out = [0xa5; 8];
        order.emit(&mut out);
        assert_eq!(out, [2, 0, 1, 1, 7, 0, 0xa5, 0xa5]);
    }
}
