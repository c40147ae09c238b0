//! The error type every codec shares: what was wrong, as the codec's own
//! small `Copy` kind enum, and the byte offset where it was found.

use core::fmt;

/// What was wrong (`K`, one enum per codec) and the byte offset in the input
/// where it was found. Small and `Copy`; printed as `<kind> at byte <offset>`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Error<K> {
    kind: K,
    offset: usize,
}

impl<K: Copy> Error<K> {
    /// An error of `kind` found at byte `offset` of the input.
    pub const fn new(kind: K, offset: usize) -> Self {
        Error { kind, offset }
    }

    /// What was wrong.
    pub const fn kind(self) -> K {
        self.kind
    }

    /// The byte offset in the input where the defect was found.
    pub const fn offset(self) -> usize {
        self.offset
    }

    /// The same error with its offset moved by `by` bytes, for a part that
    /// was parsed on its own and sits `by` bytes into the whole input.
    pub(crate) const fn shifted(self, by: usize) -> Self {
        Error::new(self.kind, self.offset + by)
    }
}

impl<K: fmt::Display> fmt::Display for Error<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}", self.kind, self.offset)
    }
}

impl<K: fmt::Debug + fmt::Display> core::error::Error for Error<K> {}
