//! The proleptic Gregorian calendar, for DNS signature times and TDS dates.

/// The (year, month, day) of a count of days from 1970-01-01, negative
/// before it (Howard Hinnant's `civil_from_days`).
pub(crate) const fn civil_from_days(days: i64) -> (i64, u8, u8) {
    let z = days + 719_468;
    let era = if z >= 0 { z } else { z - 146_096 } / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u8;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u8;
    let year = yoe + era * 400 + if month <= 2 { 1 } else { 0 };
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Days from 0001-01-01 to 1970-01-01.
    const DAYS_FROM_0001: i64 = 719_162;

    #[test]
    fn epoch_and_its_neighbours() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
        assert_eq!(civil_from_days(-DAYS_FROM_0001), (1, 1, 1));
        assert_eq!(civil_from_days(-DAYS_FROM_0001 - 1), (0, 12, 31));
    }

    #[test]
    fn every_day_from_0001_to_9999_against_a_day_by_day_count() {
        let leap = |y: i64| y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
        let (mut year, mut month, mut day) = (1i64, 1u8, 1u8);
        for days in -DAYS_FROM_0001..=2_932_896 {
            assert_eq!(civil_from_days(days), (year, month, day), "day {days}");
            let month_len = match month {
                2 if leap(year) => 29,
                2 => 28,
                4 | 6 | 9 | 11 => 30,
                _ => 31,
            };
            day += 1;
            if day > month_len {
                day = 1;
                month += 1;
                if month > 12 {
                    month = 1;
                    year += 1;
                }
            }
        }
        assert_eq!((year, month, day), (10_000, 1, 1));
    }
}
