//! The names a decode has written, by where their labels lie in the
//! message: a compression pointer to one of them takes its text as it was
//! written, instead of reading its labels again.

/// How many labels are remembered; a later one replaces the oldest.
const SLOTS: usize = 16;

/// The text of a name from one of its labels on, as written: ASCII, so
/// that its length is the same in bytes and in UTF-16 code units.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Suffix {
    /// Where the label lies in the message (a pointer's 14 bits).
    pub at: u16,
    /// The labels' bytes with their length bytes, as dns-packet counts
    /// them against its limit of 254.
    pub total: u16,
    /// Where the text starts in the text area, in bytes.
    pub byte: u32,
    /// Where the text starts, in UTF-16 code units.
    pub unit: u32,
    /// The text's length.
    pub len: u32,
}

/// The suffixes written so far: text that is all ASCII, of names that are
/// not in mail form, read by dns-packet's rules without a fault.
#[derive(Debug, Default)]
pub struct Written {
    slots: [Suffix; SLOTS],
    len: usize,
    next: usize,
}

impl Written {
    /// The suffix whose first label lies at `at`.
    pub fn find(&self, at: usize) -> Option<Suffix> {
        self.slots[..self.len]
            .iter()
            .find(|suffix| usize::from(suffix.at) == at)
            .copied()
    }

    /// Remembers `suffix`, in place of the oldest when all slots are taken.
    pub fn remember(&mut self, suffix: Suffix) {
        self.slots[self.next] = suffix;
        self.next = (self.next + 1) % SLOTS;
        self.len = (self.len + 1).min(SLOTS);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn suffix(at: u16) -> Suffix {
        Suffix {
            at,
            ..Suffix::default()
        }
    }

    #[test]
    fn finds_what_it_remembers_and_forgets_the_oldest() {
        let mut written = Written::default();
        assert_eq!(written.find(0), None);
        for at in 0..SLOTS as u16 + 3 {
            written.remember(suffix(at));
        }
        for at in 0..3 {
            assert_eq!(written.find(at), None, "{at}");
        }
        for at in 3..SLOTS + 3 {
            assert_eq!(written.find(at), Some(suffix(at as u16)), "{at}");
        }
    }
}
