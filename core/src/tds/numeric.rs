//! Exact decimal values: money and decimal/numeric, printed without floats.

use core::fmt;

use super::bytes::le_u128;

/// A money or smallmoney value: an amount in ten-thousandths
/// [MS-TDS 2.2.5.5.1.4]. Prints with exactly four decimals (`12.3400`).
///
/// ```
/// use leanwire_core::tds::Money;
///
/// // money is sent as two 32-bit halves, the high half first.
/// let money = Money::from_bytes([0, 0, 0, 0, 0x80, 0xd6, 0x12, 0]);
/// assert_eq!(money.to_string(), "123.4560");
/// assert_eq!(Money(-50_000).to_string(), "-5.0000");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Money(pub i64);

impl Money {
    /// A money value from its 8 wire bytes (high 32 bits first, each half
    /// little-endian).
    pub const fn from_bytes(b: [u8; 8]) -> Money {
        let high = i32::from_le_bytes([b[0], b[1], b[2], b[3]]) as i64;
        let low = u32::from_le_bytes([b[4], b[5], b[6], b[7]]) as i64;
        Money(high << 32 | low)
    }

    /// A smallmoney value from its 4 wire bytes.
    pub const fn from_small_bytes(b: [u8; 4]) -> Money {
        Money(i32::from_le_bytes(b) as i64)
    }

    /// The amount as a float (inexact beyond 2^53 ten-thousandths).
    pub fn to_f64(self) -> f64 {
        self.0 as f64 / 10_000.0
    }
}

impl fmt::Display for Money {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let abs = self.0.unsigned_abs();
        write!(f, "{sign}{}.{:04}", abs / 10_000, abs % 10_000)
    }
}

/// A decimal or numeric value: sign, magnitude and scale
/// [MS-TDS 2.2.5.5.1.5]. Prints exactly, with `scale` decimals (`-5.00`).
///
/// ```
/// use leanwire_core::tds::Decimal;
///
/// let d = Decimal::from_bytes(&[1, 0x15, 0xcd, 0x5b, 0x07], 38, 4).unwrap();
/// assert_eq!(d.to_string(), "12345.6789");
/// let d = Decimal::from_bytes(&[0, 0xf4, 0x01, 0, 0], 5, 2).unwrap();
/// assert_eq!(d.to_string(), "-5.00");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Decimal {
    /// Whether the value is below zero.
    pub negative: bool,
    /// The digits, as an integer: the value is `magnitude / 10^scale`.
    pub magnitude: u128,
    /// The declared precision (1-38).
    pub precision: u8,
    /// The digits after the decimal point (0-38).
    pub scale: u8,
}

impl Decimal {
    /// A value from its wire bytes after the length: a sign byte (1 = +,
    /// 0 = -) and a little-endian magnitude of up to 16 bytes. `None` for
    /// another sign byte, a magnitude over 16 bytes, or a scale over 38.
    pub fn from_bytes(bytes: &[u8], precision: u8, scale: u8) -> Option<Decimal> {
        let (&sign, digits) = bytes.split_first()?;
        if sign > 1 || digits.len() > 16 || scale > 38 {
            return None;
        }
        Some(Decimal {
            negative: sign == 0,
            magnitude: le_u128(digits),
            precision,
            scale,
        })
    }

    /// The value as a float (inexact).
    pub fn to_f64(self) -> f64 {
        let mut unit = 1.0f64;
        for _ in 0..self.scale {
            unit *= 10.0;
        }
        let value = self.magnitude as f64 / unit;
        if self.negative { -value } else { value }
    }
}

impl fmt::Display for Decimal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.negative && self.magnitude != 0 {
            f.write_str("-")?;
        }
        let scale = u32::from(self.scale.min(38));
        let unit = 10u128.pow(scale);
        write!(f, "{}", self.magnitude / unit)?;
        if scale > 0 {
            write!(
                f,
                ".{:0width$}",
                self.magnitude % unit,
                width = scale as usize
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::ToString;

    #[test]
    fn money_extremes() {
        assert_eq!(Money(i64::MIN).to_string(), "-922337203685477.5808");
        assert_eq!(Money(i64::MAX).to_string(), "922337203685477.5807");
        assert_eq!(Money(0).to_string(), "0.0000");
        assert_eq!(Money(-1).to_string(), "-0.0001");
        assert_eq!(
            Money::from_small_bytes([0x80, 0xd6, 0x12, 0]).to_string(),
            "123.4560"
        );
        // tedious's 8-byte MONEYN: 123456789012345.11 as a float.
        let m = Money::from_bytes([0xf4, 0x10, 0x22, 0x11, 0xdc, 0x6a, 0xe9, 0x7d]);
        assert_eq!(m.to_string(), "123456789012345.1100");
    }

    #[test]
    fn decimal_scales_and_signs() {
        let d = |bytes: &[u8], scale| Decimal::from_bytes(bytes, 38, scale).unwrap().to_string();
        assert_eq!(d(&[1, 0x5d, 0, 0, 0], 1), "9.3");
        assert_eq!(d(&[0, 0x5d, 0, 0, 0], 1), "-9.3");
        assert_eq!(d(&[1, 5, 0, 0, 0], 3), "0.005");
        assert_eq!(d(&[0, 0, 0, 0, 0], 2), "0.00");
        assert_eq!(d(&[1, 7, 0, 0, 0], 0), "7");
        let max = [&[1u8][..], &[0xff; 16][..]].concat();
        assert_eq!(d(&max, 38), "3.40282366920938463463374607431768211455");
        assert!(Decimal::from_bytes(&[2, 1, 0, 0, 0], 5, 0).is_none());
        assert!(Decimal::from_bytes(&[], 5, 0).is_none());
        assert!(Decimal::from_bytes(&[1; 17], 38, 38).is_some());
        assert!(
            Decimal::from_bytes(&[1; 18], 38, 0).is_none(),
            "17 magnitude bytes"
        );
        assert!(
            Decimal::from_bytes(&[1, 7, 0, 0, 0], 38, 39).is_none(),
            "scale 39"
        );
    }

    #[test]
    fn floats() {
        assert_eq!(Money(1_234_500).to_f64(), 123.45);
        assert_eq!(Money(-50_000).to_f64(), -5.0);
        let d = |bytes: &[u8], scale| Decimal::from_bytes(bytes, 38, scale).unwrap().to_f64();
        assert_eq!(d(&[1, 0x15, 0xcd, 0x5b, 0x07], 4), 12345.6789);
        assert_eq!(d(&[0, 0xf4, 0x01, 0, 0], 2), -5.0);
        assert_eq!(d(&[1, 7, 0, 0, 0], 0), 7.0);
    }
}
