//! The `Date` header, formatted once per second.

use std::io::Write;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// The length of an IMF-fixdate, `Sun, 06 Nov 1994 08:49:37 GMT`: the
/// `Date` value [`Session::process`](super::Session::process) takes.
pub const DATE_LEN: usize = 29;

/// 9999-12-31 23:59:59 in seconds since the epoch: the last second
/// `httpdate` formats, which panics past it (an IMF-fixdate has a
/// four-digit year) and before 1970.
const LAST_SECOND: u64 = 253_402_300_799;

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

    /// Re-formats the date if `now` falls in a second other than the cached
    /// one. A clock outside the years `httpdate` formats reads as the
    /// nearest end of them: 1970-01-01 00:00:00 before, 9999-12-31 23:59:59
    /// after.
    pub(crate) fn refresh(&mut self, now: SystemTime) {
        let second = now
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs().min(LAST_SECOND));
        if second != self.second {
            self.second = second;
            let date = httpdate::HttpDate::from(UNIX_EPOCH + Duration::from_secs(second));
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

    /// The average Gregorian year.
    const YEAR: Duration = Duration::from_secs(31_556_952);

    /// Times `offsets` from the epoch, backwards or forwards, that the
    /// platform's `SystemTime` can hold (Windows' range is narrower than
    /// Linux's).
    fn clock_times(offsets: &[Duration], back: bool) -> Vec<SystemTime> {
        offsets
            .iter()
            .filter_map(|&d| {
                if back {
                    UNIX_EPOCH.checked_sub(d)
                } else {
                    UNIX_EPOCH.checked_add(d)
                }
            })
            .collect()
    }

    #[test]
    fn a_clock_before_1970_reads_as_the_epoch() {
        let mut cache = DateCache::new();
        let before = clock_times(
            &[
                Duration::from_nanos(1),
                Duration::from_secs(1),
                YEAR * 100,
                YEAR * 300_000,
                Duration::from_secs(i64::MAX as u64 / 2),
            ],
            true,
        );
        assert!(before.len() >= 3, "{before:?}");
        for before in before {
            cache.refresh(UNIX_EPOCH + Duration::from_secs(784_111_777));
            cache.refresh(before);
            assert_eq!(cache.get(), b"Thu, 01 Jan 1970 00:00:00 GMT", "{before:?}");
        }
    }

    #[test]
    fn a_clock_after_9999_reads_as_its_last_second() {
        let mut cache = DateCache::new();
        let last = Duration::from_secs(LAST_SECOND);
        cache.refresh(UNIX_EPOCH + last);
        assert_eq!(cache.get(), b"Fri, 31 Dec 9999 23:59:59 GMT");
        let after = clock_times(
            &[
                last + Duration::from_secs(1),
                YEAR * 10_000,
                YEAR * 300_000,
                Duration::from_secs(i64::MAX as u64 / 2),
            ],
            false,
        );
        assert!(after.len() >= 2, "{after:?}");
        for after in after {
            cache.refresh(UNIX_EPOCH + Duration::from_secs(784_111_777));
            cache.refresh(after);
            assert_eq!(cache.get(), b"Fri, 31 Dec 9999 23:59:59 GMT", "{after:?}");
        }
    }
}
