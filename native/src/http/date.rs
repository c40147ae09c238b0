//! The `Date` header, formatted once per second.

use std::io::Write;
use std::time::{SystemTime, UNIX_EPOCH};

/// The length of an IMF-fixdate, `Sun, 06 Nov 1994 08:49:37 GMT`: the
/// `Date` value [`Session::process`](super::Session::process) takes.
pub const DATE_LEN: usize = 29;

/// The current time as an HTTP date, re-formatted only when the second changes.
pub(crate) struct DateCache {
    second: u64,
    text: [u8; DATE_LEN],
}

impl DateCache {
    /// A cache holding the current time.
    pub(crate) fn new() -> DateCache {
        let mut cache = DateCache {
            second: u64::MAX,
            text: [b' '; DATE_LEN],
        };
        cache.refresh(SystemTime::now());
        cache
    }

    /// Re-formats the date if `now` falls in a second other than the cached one.
    pub(crate) fn refresh(&mut self, now: SystemTime) {
        let second = now.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
        if second != self.second {
            self.second = second;
            let date = httpdate::HttpDate::from(now);
            // An IMF-fixdate is always 29 bytes, so the write fills the buffer exactly.
            let _ = write!(&mut self.text[..], "{date}");
        }
    }

    /// The cached date.
    pub(crate) fn get(&self) -> &[u8; DATE_LEN] {
        &self.text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn formats_an_imf_fixdate_and_changes_only_with_the_second() {
        let mut cache = DateCache::new();
        let t = UNIX_EPOCH + Duration::from_secs(784_111_777);
        cache.refresh(t);
        assert_eq!(cache.get(), b"Sun, 06 Nov 1994 08:49:37 GMT");
        cache.refresh(t + Duration::from_millis(999));
        assert_eq!(cache.get(), b"Sun, 06 Nov 1994 08:49:37 GMT");
        cache.refresh(t + Duration::from_secs(1));
        assert_eq!(cache.get(), b"Sun, 06 Nov 1994 08:49:38 GMT");
    }
}
