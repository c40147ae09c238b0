//! Date and time values [MS-TDS 2.2.5.5.1.7-10], printed ISO 8601 style.

use core::fmt;

use super::bytes::le_uint;
use crate::calendar::civil_from_days;

/// Days from 0001-01-01 to 1900-01-01, the DATETIME epoch.
const DAYS_TO_1900: i64 = 693_595;
/// Days from 0001-01-01 to 1970-01-01.
const DAYS_TO_1970: i64 = 719_162;
const SECONDS_PER_DAY: u64 = 86_400;

/// The proleptic Gregorian (year, month, day) of a day count from
/// 0001-01-01.
const fn civil(days_from_0001: i64) -> (i64, u8, u8) {
    civil_from_days(days_from_0001 - DAYS_TO_1970)
}

fn write_date(f: &mut fmt::Formatter<'_>, days_from_0001: i64) -> fmt::Result {
    let (year, month, day) = civil(days_from_0001);
    write!(f, "{year:04}-{month:02}-{day:02}")
}

fn write_hms(f: &mut fmt::Formatter<'_>, seconds: u64) -> fmt::Result {
    write!(
        f,
        "{:02}:{:02}:{:02}",
        seconds / 3600,
        seconds / 60 % 60,
        seconds % 60
    )
}

/// A date: days since 0001-01-01 (DATE, 3 bytes).
///
/// ```
/// use leanwire_core::tds::Date;
///
/// let date = Date::from_bytes([0x58, 0x48, 0x0b]);
/// assert_eq!(date.to_string(), "2025-06-15");
/// assert_eq!(date.ymd(), (2025, 6, 15));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Date {
    /// Days since 0001-01-01.
    pub days: u32,
}

impl Date {
    /// A date from its 3 wire bytes.
    pub const fn from_bytes(b: [u8; 3]) -> Date {
        Date {
            days: u32::from_le_bytes([b[0], b[1], b[2], 0]),
        }
    }

    /// (year, month, day).
    pub const fn ymd(self) -> (i64, u8, u8) {
        civil(self.days as i64)
    }
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_date(f, i64::from(self.days))
    }
}

/// A time of day with `scale` fractional-second digits (TIME(n), and the
/// time part of DATETIME2 and DATETIMEOFFSET). Prints exactly `scale`
/// fraction digits, and no dot for scale 0.
///
/// ```
/// use leanwire_core::tds::Time;
///
/// let time = Time::from_bytes(&[0x07, 0xc4, 0xaa, 0xf4, 0x6e], 7).unwrap();
/// assert_eq!(time.to_string(), "13:14:15.1234567");
/// assert_eq!(Time { units: 47655, scale: 0 }.to_string(), "13:14:15");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Time {
    /// Time since midnight, in units of 10^-scale seconds.
    pub units: u64,
    /// Fractional-second digits (0-7).
    pub scale: u8,
}

impl Time {
    /// A time from its 3, 4 or 5 little-endian wire bytes. `None` for a
    /// scale over 7 or more than 5 bytes.
    pub fn from_bytes(bytes: &[u8], scale: u8) -> Option<Time> {
        if scale > 7 || bytes.len() > 5 {
            return None;
        }
        Some(Time {
            units: le_uint(bytes),
            scale,
        })
    }

    /// Units per second: 10^scale (a scale over 7 counts as 7).
    pub const fn units_per_second(self) -> u64 {
        const POWERS: [u64; 8] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000];
        let scale = if self.scale > 7 { 7 } else { self.scale };
        POWERS[scale as usize]
    }

    /// Nanoseconds since midnight (saturating, for a time no reader made).
    pub const fn nanoseconds(self) -> u64 {
        self.units
            .saturating_mul(1_000_000_000 / self.units_per_second())
    }

    /// Whether the time is before midnight of the next day.
    pub const fn is_valid(self) -> bool {
        self.scale <= 7 && self.units < SECONDS_PER_DAY * self.units_per_second()
    }
}

impl fmt::Display for Time {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let scale = self.scale.min(7);
        let unit = 10u64.pow(u32::from(scale));
        write_hms(f, self.units / unit)?;
        if scale > 0 {
            write!(
                f,
                ".{:0width$}",
                self.units % unit,
                width = usize::from(scale)
            )?;
        }
        Ok(())
    }
}

/// A DATETIME2(n): a date and a time of day.
///
/// ```
/// use leanwire_core::tds::DateTime2;
///
/// let dt = DateTime2::from_bytes(&[0x95, 0x2c, 0xb3, 0x02, 0x08, 0x3a, 0x0b], 3).unwrap();
/// assert_eq!(dt.to_string(), "2015-06-04T12:34:56.789");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct DateTime2 {
    /// The date.
    pub date: Date,
    /// The time of day.
    pub time: Time,
}

impl DateTime2 {
    /// A DATETIME2 from its wire bytes: the time (3-5 bytes by scale), then
    /// the 3-byte date.
    pub fn from_bytes(bytes: &[u8], scale: u8) -> Option<DateTime2> {
        let split = bytes.len().checked_sub(3)?;
        let (time, date) = bytes.split_at(split);
        Some(DateTime2 {
            date: Date::from_bytes(date.try_into().ok()?),
            time: Time::from_bytes(time, scale)?,
        })
    }
}

impl fmt::Display for DateTime2 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}T{}", self.date, self.time)
    }
}

/// A DATETIMEOFFSET(n): a UTC date and time and the offset of the local
/// time zone. Prints the local time and the offset, as SQL Server does
/// (`2024-01-31T13:45:30.12+05:30`).
///
/// ```
/// use leanwire_core::tds::DateTimeOffset;
///
/// // 13:14:15.1234567 UTC on 2024-02-29, at -05:00.
/// let bytes = [0x07, 0xc4, 0xaa, 0xf4, 0x6e, 0x80, 0x46, 0x0b, 0xd4, 0xfe];
/// let dto = DateTimeOffset::from_bytes(&bytes, 7).unwrap();
/// assert_eq!(dto.to_string(), "2024-02-29T08:14:15.1234567-05:00");
/// assert_eq!(dto.utc.to_string(), "2024-02-29T13:14:15.1234567");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct DateTimeOffset {
    /// The instant, in UTC.
    pub utc: DateTime2,
    /// The local time zone's offset from UTC, in minutes.
    pub offset_minutes: i16,
}

impl DateTimeOffset {
    /// A DATETIMEOFFSET from its wire bytes: a DATETIME2 in UTC, then an
    /// i16 offset in minutes.
    pub fn from_bytes(bytes: &[u8], scale: u8) -> Option<DateTimeOffset> {
        let split = bytes.len().checked_sub(2)?;
        let (utc, offset) = bytes.split_at(split);
        Some(DateTimeOffset {
            utc: DateTime2::from_bytes(utc, scale)?,
            offset_minutes: i16::from_le_bytes(offset.try_into().ok()?),
        })
    }

    /// The local date and time: UTC plus the offset (held at 0001-01-01
    /// for the few instants whose local date would fall before it).
    pub fn local(&self) -> DateTime2 {
        let (days, units) = self.local_parts();
        DateTime2 {
            date: Date {
                days: days.clamp(0, i64::from(u32::MAX)) as u32,
            },
            time: Time {
                units,
                scale: self.utc.time.scale.min(7),
            },
        }
    }

    /// Local days since 0001-01-01 (may be -1) and time units.
    fn local_parts(&self) -> (i64, u64) {
        let scale = u32::from(self.utc.time.scale.min(7));
        let per_day = (SECONDS_PER_DAY * 10u64.pow(scale)) as i64;
        let shift = i64::from(self.offset_minutes) * 60 * 10i64.pow(scale);
        let time = (self.utc.time.units as i64).min(per_day * 2) + shift;
        (
            i64::from(self.utc.date.days) + time.div_euclid(per_day),
            time.rem_euclid(per_day) as u64,
        )
    }
}

impl fmt::Display for DateTimeOffset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.offset_minutes < 0 { '-' } else { '+' };
        let abs = self.offset_minutes.unsigned_abs();
        let (days, units) = self.local_parts();
        let time = Time {
            units,
            scale: self.utc.time.scale.min(7),
        };
        write_date(f, days)?;
        write!(f, "T{time}{sign}{:02}:{:02}", abs / 60, abs % 60)
    }
}

/// A DATETIME: days since 1900-01-01 and 1/300-second ticks since
/// midnight. Prints milliseconds, rounded as SQL Server rounds them
/// (`.000`, `.003`, `.007`).
///
/// ```
/// use leanwire_core::tds::DateTime;
///
/// let dt = DateTime::from_bytes([0, 0, 0, 0, 0x2b, 0x01, 0, 0]);
/// assert_eq!(dt.to_string(), "1900-01-01T00:00:00.997");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct DateTime {
    /// Days since 1900-01-01 (negative back to 1753).
    pub days: i32,
    /// 1/300-second ticks since midnight.
    pub ticks: u32,
}

impl DateTime {
    /// A DATETIME from its 8 wire bytes.
    pub const fn from_bytes(b: [u8; 8]) -> DateTime {
        DateTime {
            days: i32::from_le_bytes([b[0], b[1], b[2], b[3]]),
            ticks: u32::from_le_bytes([b[4], b[5], b[6], b[7]]),
        }
    }

    /// Milliseconds since midnight, rounded to the nearest millisecond.
    pub const fn milliseconds(self) -> u64 {
        (self.ticks as u64 * 10 + 1) / 3
    }
}

impl fmt::Display for DateTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ms = self.milliseconds();
        let per_day = SECONDS_PER_DAY * 1000;
        write_date(
            f,
            i64::from(self.days) + DAYS_TO_1900 + (ms / per_day) as i64,
        )?;
        f.write_str("T")?;
        write_hms(f, ms % per_day / 1000)?;
        write!(f, ".{:03}", ms % 1000)
    }
}

/// A SMALLDATETIME: days since 1900-01-01 and minutes since midnight.
/// Prints with `:00` seconds and no fraction.
///
/// ```
/// use leanwire_core::tds::SmallDateTime;
///
/// assert_eq!(SmallDateTime::from_bytes([0xff, 0xff, 0x9f, 0x05]).to_string(), "2079-06-06T23:59:00");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct SmallDateTime {
    /// Days since 1900-01-01.
    pub days: u16,
    /// Minutes since midnight.
    pub minutes: u16,
}

impl SmallDateTime {
    /// A SMALLDATETIME from its 4 wire bytes.
    pub const fn from_bytes(b: [u8; 4]) -> SmallDateTime {
        SmallDateTime {
            days: u16::from_le_bytes([b[0], b[1]]),
            minutes: u16::from_le_bytes([b[2], b[3]]),
        }
    }
}

impl fmt::Display for SmallDateTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let minutes = u64::from(self.minutes);
        write_date(
            f,
            i64::from(self.days) + DAYS_TO_1900 + (minutes / 1440) as i64,
        )?;
        f.write_str("T")?;
        write_hms(f, minutes % 1440 * 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::ToString;

    #[test]
    fn calendar_edges() {
        assert_eq!(civil(0), (1, 1, 1));
        assert_eq!(Date { days: 3_652_058 }.to_string(), "9999-12-31");
        assert_eq!(Date { days: 639_905 }.to_string(), "1753-01-01");
        assert_eq!(
            Date::from_bytes([0x39, 0xf9, 0x0a]).to_string(),
            "1969-12-31"
        );
        // Years past 9999 still print (hostile data), as do leap days.
        assert_eq!(Date { days: 0xff_ffff }.to_string(), "45935-06-17");
        assert_eq!(
            Date::from_bytes([0x80, 0x46, 0x0b]).to_string(),
            "2024-02-29"
        );
    }

    #[test]
    fn time_at_every_scale() {
        let seconds = 13 * 3600 + 14 * 60 + 15;
        let want = [
            "13:14:15",
            "13:14:15.1",
            "13:14:15.12",
            "13:14:15.123",
            "13:14:15.1234",
            "13:14:15.12345",
            "13:14:15.123456",
            "13:14:15.1234567",
        ];
        for (scale, want) in want.iter().enumerate() {
            let unit = 10u64.pow(scale as u32);
            let frac = 1_234_567 / 10u64.pow(7 - scale as u32);
            let time = Time {
                units: seconds * unit + frac,
                scale: scale as u8,
            };
            assert_eq!(time.to_string(), *want);
            assert!(time.is_valid());
        }
        assert!(
            !Time {
                units: 864_000_000_000,
                scale: 7
            }
            .is_valid()
        );
        assert_eq!(Time { units: 5, scale: 2 }.nanoseconds(), 50_000_000);
        assert_eq!(Time { units: 5, scale: 9 }.units_per_second(), 10_000_000);
    }

    #[test]
    fn time_bytes_and_scale_limits() {
        assert!(Time::from_bytes(&[0; 5], 7).is_some());
        assert!(Time::from_bytes(&[0; 3], 8).is_none(), "scale 8");
        assert!(Time::from_bytes(&[0; 6], 7).is_none(), "6 bytes");
    }

    #[test]
    fn offsets_cross_midnight() {
        let utc = DateTime2 {
            date: Date { days: 0 },
            time: Time {
                units: 30,
                scale: 1,
            },
        };
        let west = DateTimeOffset {
            utc,
            offset_minutes: -90,
        };
        assert_eq!(west.to_string(), "0000-12-31T22:30:03.0-01:30");
        let east = DateTimeOffset {
            utc,
            offset_minutes: 14 * 60,
        };
        assert_eq!(east.to_string(), "0001-01-01T14:00:03.0+14:00");
        let zero = DateTimeOffset {
            utc,
            offset_minutes: 0,
        };
        assert_eq!(zero.to_string(), "0001-01-01T00:00:03.0+00:00");
        // A time of day five days long, which no reader makes, carries two
        // days at most.
        let hostile = DateTimeOffset {
            utc: DateTime2 {
                date: Date { days: 0 },
                time: Time {
                    units: 5 * 86_400,
                    scale: 0,
                },
            },
            offset_minutes: 0,
        };
        assert_eq!(hostile.to_string(), "0001-01-03T00:00:00+00:00");
    }

    #[test]
    fn datetime_rounding_and_range() {
        let dt = |days: i32, ticks: u32| DateTime { days, ticks }.to_string();
        assert_eq!(dt(-53_690, 0), "1753-01-01T00:00:00.000");
        assert_eq!(dt(2, 13_500), "1900-01-03T00:00:45.000");
        assert_eq!(dt(0, 1), "1900-01-01T00:00:00.003");
        assert_eq!(dt(0, 2), "1900-01-01T00:00:00.007");
        assert_eq!(dt(36_524, 25_919_700), "2000-01-01T23:59:59.000");
        assert_eq!(dt(2_958_463, 25_919_999), "9999-12-31T23:59:59.997");
        // Hostile ticks past midnight carry into the next day, no panic.
        assert_eq!(dt(0, u32::MAX), "1900-06-15T16:49:17.650");
        assert_eq!(dt(i32::MIN, 0), "-5877711-06-22T00:00:00.000");
        let small = SmallDateTime {
            days: 2,
            minutes: 14,
        };
        assert_eq!(small.to_string(), "1900-01-03T00:14:00");
        // Hostile minutes past midnight carry into the next day too.
        let small = SmallDateTime {
            days: 0,
            minutes: 1441,
        };
        assert_eq!(small.to_string(), "1900-01-02T00:01:00");
    }
}
