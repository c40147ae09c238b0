/// The result of feeding bytes: an item, or a request for more input
/// (httparse's vocabulary). Running out of input is never an error.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Status<T> {
    /// An item was read.
    Complete(T),
    /// Every byte fed so far has been taken in (and, where it could not be
    /// handed out yet, kept); feed more to go on.
    Partial,
}

impl<T> Status<T> {
    /// The item, or `None` for `Partial`.
    pub fn complete(self) -> Option<T> {
        match self {
            Status::Complete(item) => Some(item),
            Status::Partial => None,
        }
    }

    /// Whether more input is needed.
    pub const fn is_partial(&self) -> bool {
        matches!(self, Status::Partial)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partial_is_no_item() {
        assert_eq!(Status::Complete(3).complete(), Some(3));
        assert!(Status::<u8>::Partial.is_partial());
        assert_eq!(Status::<u8>::Partial.complete(), None);
    }
}
