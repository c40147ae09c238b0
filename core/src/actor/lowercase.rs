//! Lowercase mapping of characters, as [`char::to_lowercase`] gives it, from
//! a table of runs.
//!
//! The standard library's table lists each of its 1,462 mappings as a pair of
//! characters, which is 11.7 KB in every binary that lowercases a `char`. Most
//! mappings come in runs: a block whose capitals all lie the same distance
//! from their small letters (Latin-1, Greek, Cyrillic), or alternating pairs
//! (`Ā ā Ă ă …`). [`RUNS`] lists those runs in a fifth of the space, and
//! ASCII needs no table at all. The tests check the result against
//! `char::to_lowercase` for every character.

/// Characters `first`, `first + step`, … (`len` of them), each of which
/// lowercases to itself plus `delta`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Run {
    first: u32,
    delta: i32,
    len: u8,
    step: u8,
}

/// A run, in the order the table lists its fields.
const fn run(first: u32, len: u8, step: u8, delta: i32) -> Run {
    Run {
        first,
        delta,
        len,
        step,
    }
}

/// The one character whose lowercase form is two characters.
const DOTTED_CAPITAL_I: char = '\u{130}';

/// The lowercase form of `c`: one character, or two for `İ` (U+0130), which
/// lowercases to `i` and a combining dot above.
pub(crate) fn lowercase(c: char) -> (char, Option<char>) {
    if c.is_ascii() {
        return (c.to_ascii_lowercase(), None);
    }
    if c == DOTTED_CAPITAL_I {
        return ('i', Some('\u{307}'));
    }
    let code = c as u32;
    let at = RUNS.partition_point(|run| run.first <= code);
    let Some(run) = at.checked_sub(1).map(|i| RUNS[i]) else {
        return (c, None);
    };
    let offset = code - run.first;
    let step = u32::from(run.step);
    if !offset.is_multiple_of(step) || offset / step >= u32::from(run.len) {
        return (c, None);
    }
    let lower = code.wrapping_add_signed(run.delta);
    (char::from_u32(lower).unwrap_or(c), None)
}

/// Every non-ASCII character that lowercases to another single character,
/// as runs sorted by their first character.
#[rustfmt::skip]
const RUNS: [Run; 184] = [
    run(0x00C0, 23, 1, 32),
    run(0x00D8, 7, 1, 32),
    run(0x0100, 24, 2, 1),
    run(0x0132, 3, 2, 1),
    run(0x0139, 8, 2, 1),
    run(0x014A, 23, 2, 1),
    run(0x0178, 1, 1, -121),
    run(0x0179, 3, 2, 1),
    run(0x0181, 1, 1, 210),
    run(0x0182, 2, 2, 1),
    run(0x0186, 1, 1, 206),
    run(0x0187, 1, 1, 1),
    run(0x0189, 2, 1, 205),
    run(0x018B, 1, 1, 1),
    run(0x018E, 1, 1, 79),
    run(0x018F, 1, 1, 202),
    run(0x0190, 1, 1, 203),
    run(0x0191, 1, 1, 1),
    run(0x0193, 1, 1, 205),
    run(0x0194, 1, 1, 207),
    run(0x0196, 1, 1, 211),
    run(0x0197, 1, 1, 209),
    run(0x0198, 1, 1, 1),
    run(0x019C, 1, 1, 211),
    run(0x019D, 1, 1, 213),
    run(0x019F, 1, 1, 214),
    run(0x01A0, 3, 2, 1),
    run(0x01A6, 1, 1, 218),
    run(0x01A7, 1, 1, 1),
    run(0x01A9, 1, 1, 218),
    run(0x01AC, 1, 1, 1),
    run(0x01AE, 1, 1, 218),
    run(0x01AF, 1, 1, 1),
    run(0x01B1, 2, 1, 217),
    run(0x01B3, 2, 2, 1),
    run(0x01B7, 1, 1, 219),
    run(0x01B8, 1, 1, 1),
    run(0x01BC, 1, 1, 1),
    run(0x01C4, 1, 1, 2),
    run(0x01C5, 1, 1, 1),
    run(0x01C7, 1, 1, 2),
    run(0x01C8, 1, 1, 1),
    run(0x01CA, 1, 1, 2),
    run(0x01CB, 9, 2, 1),
    run(0x01DE, 9, 2, 1),
    run(0x01F1, 1, 1, 2),
    run(0x01F2, 2, 2, 1),
    run(0x01F6, 1, 1, -97),
    run(0x01F7, 1, 1, -56),
    run(0x01F8, 20, 2, 1),
    run(0x0220, 1, 1, -130),
    run(0x0222, 9, 2, 1),
    run(0x023A, 1, 1, 10795),
    run(0x023B, 1, 1, 1),
    run(0x023D, 1, 1, -163),
    run(0x023E, 1, 1, 10792),
    run(0x0241, 1, 1, 1),
    run(0x0243, 1, 1, -195),
    run(0x0244, 1, 1, 69),
    run(0x0245, 1, 1, 71),
    run(0x0246, 5, 2, 1),
    run(0x0370, 2, 2, 1),
    run(0x0376, 1, 1, 1),
    run(0x037F, 1, 1, 116),
    run(0x0386, 1, 1, 38),
    run(0x0388, 3, 1, 37),
    run(0x038C, 1, 1, 64),
    run(0x038E, 2, 1, 63),
    run(0x0391, 17, 1, 32),
    run(0x03A3, 9, 1, 32),
    run(0x03CF, 1, 1, 8),
    run(0x03D8, 12, 2, 1),
    run(0x03F4, 1, 1, -60),
    run(0x03F7, 1, 1, 1),
    run(0x03F9, 1, 1, -7),
    run(0x03FA, 1, 1, 1),
    run(0x03FD, 3, 1, -130),
    run(0x0400, 16, 1, 80),
    run(0x0410, 32, 1, 32),
    run(0x0460, 17, 2, 1),
    run(0x048A, 27, 2, 1),
    run(0x04C0, 1, 1, 15),
    run(0x04C1, 7, 2, 1),
    run(0x04D0, 48, 2, 1),
    run(0x0531, 38, 1, 48),
    run(0x10A0, 38, 1, 7264),
    run(0x10C7, 1, 1, 7264),
    run(0x10CD, 1, 1, 7264),
    run(0x13A0, 80, 1, 38864),
    run(0x13F0, 6, 1, 8),
    run(0x1C89, 1, 1, 1),
    run(0x1C90, 43, 1, -3008),
    run(0x1CBD, 3, 1, -3008),
    run(0x1E00, 75, 2, 1),
    run(0x1E9E, 1, 1, -7615),
    run(0x1EA0, 48, 2, 1),
    run(0x1F08, 8, 1, -8),
    run(0x1F18, 6, 1, -8),
    run(0x1F28, 8, 1, -8),
    run(0x1F38, 8, 1, -8),
    run(0x1F48, 6, 1, -8),
    run(0x1F59, 4, 2, -8),
    run(0x1F68, 8, 1, -8),
    run(0x1F88, 8, 1, -8),
    run(0x1F98, 8, 1, -8),
    run(0x1FA8, 8, 1, -8),
    run(0x1FB8, 2, 1, -8),
    run(0x1FBA, 2, 1, -74),
    run(0x1FBC, 1, 1, -9),
    run(0x1FC8, 4, 1, -86),
    run(0x1FCC, 1, 1, -9),
    run(0x1FD8, 2, 1, -8),
    run(0x1FDA, 2, 1, -100),
    run(0x1FE8, 2, 1, -8),
    run(0x1FEA, 2, 1, -112),
    run(0x1FEC, 1, 1, -7),
    run(0x1FF8, 2, 1, -128),
    run(0x1FFA, 2, 1, -126),
    run(0x1FFC, 1, 1, -9),
    run(0x2126, 1, 1, -7517),
    run(0x212A, 1, 1, -8383),
    run(0x212B, 1, 1, -8262),
    run(0x2132, 1, 1, 28),
    run(0x2160, 16, 1, 16),
    run(0x2183, 1, 1, 1),
    run(0x24B6, 26, 1, 26),
    run(0x2C00, 48, 1, 48),
    run(0x2C60, 1, 1, 1),
    run(0x2C62, 1, 1, -10743),
    run(0x2C63, 1, 1, -3814),
    run(0x2C64, 1, 1, -10727),
    run(0x2C67, 3, 2, 1),
    run(0x2C6D, 1, 1, -10780),
    run(0x2C6E, 1, 1, -10749),
    run(0x2C6F, 1, 1, -10783),
    run(0x2C70, 1, 1, -10782),
    run(0x2C72, 1, 1, 1),
    run(0x2C75, 1, 1, 1),
    run(0x2C7E, 2, 1, -10815),
    run(0x2C80, 50, 2, 1),
    run(0x2CEB, 2, 2, 1),
    run(0x2CF2, 1, 1, 1),
    run(0xA640, 23, 2, 1),
    run(0xA680, 14, 2, 1),
    run(0xA722, 7, 2, 1),
    run(0xA732, 31, 2, 1),
    run(0xA779, 2, 2, 1),
    run(0xA77D, 1, 1, -35332),
    run(0xA77E, 5, 2, 1),
    run(0xA78B, 1, 1, 1),
    run(0xA78D, 1, 1, -42280),
    run(0xA790, 2, 2, 1),
    run(0xA796, 10, 2, 1),
    run(0xA7AA, 1, 1, -42308),
    run(0xA7AB, 1, 1, -42319),
    run(0xA7AC, 1, 1, -42315),
    run(0xA7AD, 1, 1, -42305),
    run(0xA7AE, 1, 1, -42308),
    run(0xA7B0, 1, 1, -42258),
    run(0xA7B1, 1, 1, -42282),
    run(0xA7B2, 1, 1, -42261),
    run(0xA7B3, 1, 1, 928),
    run(0xA7B4, 8, 2, 1),
    run(0xA7C4, 1, 1, -48),
    run(0xA7C5, 1, 1, -42307),
    run(0xA7C6, 1, 1, -35384),
    run(0xA7C7, 2, 2, 1),
    run(0xA7CB, 1, 1, -42343),
    run(0xA7CC, 8, 2, 1),
    run(0xA7DC, 1, 1, -42561),
    run(0xA7F5, 1, 1, 1),
    run(0xFF21, 26, 1, 32),
    run(0x10400, 40, 1, 40),
    run(0x104B0, 36, 1, 40),
    run(0x10570, 11, 1, 39),
    run(0x1057C, 15, 1, 39),
    run(0x1058C, 7, 1, 39),
    run(0x10594, 2, 1, 39),
    run(0x10C80, 51, 1, 64),
    run(0x10D50, 22, 1, 32),
    run(0x118A0, 32, 1, 32),
    run(0x16E40, 32, 1, 32),
    run(0x16EA0, 25, 1, 27),
    run(0x1E900, 34, 1, 34),
];

#[cfg(test)]
mod tests {
    use super::*;
    use std::fmt::Write as _;
    use std::vec::Vec;

    /// The runs of `char::to_lowercase`, each as long as it goes.
    fn runs_of_std() -> Vec<Run> {
        let mut runs: Vec<Run> = Vec::new();
        for c in (0x80..=0x10_FFFF).filter_map(char::from_u32) {
            let mut lower = c.to_lowercase();
            let (Some(l), None) = (lower.next(), lower.next()) else {
                continue;
            };
            if l == c {
                continue;
            }
            let (code, delta) = (c as u32, l as i32 - c as i32);
            if let Some(last) = runs.last_mut().filter(|last| last.delta == delta) {
                let gap = code - last.first;
                let next = last.first + u32::from(last.len) * u32::from(last.step);
                if last.len == 1 && gap <= 2 {
                    (last.len, last.step) = (2, gap as u8);
                    continue;
                }
                if last.len > 1 && last.len < u8::MAX && code == next {
                    last.len += 1;
                    continue;
                }
            }
            runs.push(run(code, 1, 1, delta));
        }
        runs
    }

    #[test]
    fn every_character_lowercases_as_std_does() {
        for c in (0..=0x10_FFFF).filter_map(char::from_u32) {
            let (first, second) = lowercase(c);
            let ours = [Some(first), second].into_iter().flatten();
            assert!(ours.eq(c.to_lowercase()), "U+{:04X}", c as u32);
        }
    }

    #[test]
    fn the_table_is_the_runs_of_std() {
        let runs = runs_of_std();
        let mut source = std::string::String::new();
        for r in &runs {
            let _ = writeln!(
                source,
                "    run(0x{:04X}, {}, {}, {}),",
                r.first, r.len, r.step, r.delta
            );
        }
        assert!(
            RUNS[..] == runs[..],
            "RUNS differs from this toolchain's char::to_lowercase; it should be \
             `[Run; {}]`:\n{source}",
            runs.len()
        );
    }
}
