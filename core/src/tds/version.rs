use core::fmt;

/// A TDS protocol version, as LOGINACK reports it [MS-TDS 2.2.7.14].
///
/// The reader needs it because the token layouts changed between versions:
/// UserType and DONE's row count grew in 7.2, TEXT table names changed form,
/// and NBCROW and the date/time types arrived in 7.3. The variants are in
/// protocol order, so `version >= TdsVersion::V7_2` reads as expected.
///
/// ```
/// use leanwire_core::tds::TdsVersion;
///
/// let version = TdsVersion::from_wire(0x730B_0003).unwrap();
/// assert_eq!(version, TdsVersion::V7_3B);
/// assert_eq!(version.to_string(), "7.3B");
/// assert_eq!(version.to_wire().to_be_bytes(), [0x73, 0x0B, 0x00, 0x03]);
/// assert!(TdsVersion::from_wire(0x650B_0003).is_none());
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TdsVersion {
    /// TDS 7.1 (SQL Server 2000), `0x07010000`.
    V7_1,
    /// TDS 7.1 revision 1 (SQL Server 2000 SP1), `0x71000001`.
    V7_1Rev1,
    /// TDS 7.2 (SQL Server 2005), `0x72090002`.
    V7_2,
    /// TDS 7.3A (SQL Server 2008), `0x730A0003`.
    V7_3A,
    /// TDS 7.3B (SQL Server 2008 R2), `0x730B0003`.
    V7_3B,
    /// TDS 7.4 (SQL Server 2012 and later), `0x74000004`.
    V7_4,
    /// TDS 8.0 (strict encryption); its token stream is 7.4's, `0x08000000`.
    V8_0,
}

impl TdsVersion {
    /// The version for a LOGINACK TDSVersion field (read big-endian, as sent),
    /// or `None` for a version leanwire does not read (7.0 and older, or junk).
    pub const fn from_wire(value: u32) -> Option<TdsVersion> {
        Some(match value {
            0x0701_0000 => TdsVersion::V7_1,
            0x7100_0001 => TdsVersion::V7_1Rev1,
            0x7209_0002 => TdsVersion::V7_2,
            0x730A_0003 => TdsVersion::V7_3A,
            0x730B_0003 => TdsVersion::V7_3B,
            0x7400_0004 => TdsVersion::V7_4,
            0x0800_0000 => TdsVersion::V8_0,
            _ => return None,
        })
    }

    /// The TDSVersion field for this version.
    pub const fn to_wire(self) -> u32 {
        match self {
            TdsVersion::V7_1 => 0x0701_0000,
            TdsVersion::V7_1Rev1 => 0x7100_0001,
            TdsVersion::V7_2 => 0x7209_0002,
            TdsVersion::V7_3A => 0x730A_0003,
            TdsVersion::V7_3B => 0x730B_0003,
            TdsVersion::V7_4 => 0x7400_0004,
            TdsVersion::V8_0 => 0x0800_0000,
        }
    }

    /// The version's name, as `Display` writes it: `"7.1"`, `"7.1 rev 1"`,
    /// `"7.2"`, `"7.3A"`, `"7.3B"`, `"7.4"` or `"8.0"`.
    pub const fn name(self) -> &'static str {
        match self {
            TdsVersion::V7_1 => "7.1",
            TdsVersion::V7_1Rev1 => "7.1 rev 1",
            TdsVersion::V7_2 => "7.2",
            TdsVersion::V7_3A => "7.3A",
            TdsVersion::V7_3B => "7.3B",
            TdsVersion::V7_4 => "7.4",
            TdsVersion::V8_0 => "8.0",
        }
    }

    /// The version that [`name`](Self::name) calls `name`, or 7.3B for
    /// `"7.3"`, the short name that `leanwire tds decode --tds-version` and
    /// the npm package's `tdsVersion` option take for the later 7.3.
    ///
    /// ```
    /// use leanwire_core::tds::TdsVersion;
    ///
    /// assert_eq!(TdsVersion::from_name("7.4"), Some(TdsVersion::V7_4));
    /// assert_eq!(TdsVersion::from_name("7.3"), Some(TdsVersion::V7_3B));
    /// let name = TdsVersion::V7_3A.to_string();
    /// assert_eq!(TdsVersion::from_name(&name), Some(TdsVersion::V7_3A));
    /// assert_eq!(TdsVersion::from_name("7_4"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<TdsVersion> {
        Some(match name {
            "7.1" => TdsVersion::V7_1,
            "7.1 rev 1" => TdsVersion::V7_1Rev1,
            "7.2" => TdsVersion::V7_2,
            "7.3A" => TdsVersion::V7_3A,
            "7.3" | "7.3B" => TdsVersion::V7_3B,
            "7.4" => TdsVersion::V7_4,
            "8.0" => TdsVersion::V8_0,
            _ => return None,
        })
    }

    /// 7.2 and later: UserType is a u32, DONE's row count a u64, ERROR and
    /// INFO line numbers an i32, and TEXT table names come in parts.
    pub(crate) const fn is_7_2_or_later(self) -> bool {
        !matches!(self, TdsVersion::V7_1 | TdsVersion::V7_1Rev1)
    }
}

impl fmt::Display for TdsVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::ToString;

    #[test]
    fn every_version_round_trips_and_orders() {
        let all = [
            TdsVersion::V7_1,
            TdsVersion::V7_1Rev1,
            TdsVersion::V7_2,
            TdsVersion::V7_3A,
            TdsVersion::V7_3B,
            TdsVersion::V7_4,
            TdsVersion::V8_0,
        ];
        for pair in all.windows(2) {
            assert!(pair[0] < pair[1]);
        }
        for version in all {
            assert_eq!(TdsVersion::from_wire(version.to_wire()), Some(version));
            assert_eq!(version.to_string(), version.name());
            assert_eq!(TdsVersion::from_name(version.name()), Some(version));
        }
        assert!(!TdsVersion::V7_1Rev1.is_7_2_or_later());
        assert!(TdsVersion::V7_2.is_7_2_or_later());
        assert_eq!(TdsVersion::from_wire(0x0700_0000), None);
        for name in ["", "7", "7.0", "7.3a", "7_4", " 7.4", "74"] {
            assert_eq!(TdsVersion::from_name(name), None, "{name:?}");
        }
    }
}
