//! ROW and NBCROW [MS-TDS 2.2.7.19, 2.2.7.15]: which of the two row tokens.

use core::fmt;

use super::token::TokenType;

/// Which row token.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum RowKind {
    /// ROW: every column carries its own length (and NULL marker).
    Row,
    /// NBCROW (7.3): a null bitmap first; NULL columns carry no bytes.
    NbcRow,
}

impl RowKind {
    /// The token byte.
    pub const fn token(self) -> TokenType {
        match self {
            RowKind::Row => TokenType::Row,
            RowKind::NbcRow => TokenType::NbcRow,
        }
    }
}

impl fmt::Display for RowKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.token())
    }
}
