//! The strings of dns-packet's objects, written as UTF-8 the way dns-packet
//! writes them: names, IP addresses, character strings and hex fingerprints.

/// Appends labels that lie one after another, each after its length byte,
/// as dns-packet's `name.decode` joins them: with a `.` between labels, each
/// written by [`label`]. Returns whether what it appended is ASCII.
pub fn labels(out: &mut Vec<u8>, run: &[u8], mail: bool) -> bool {
    let Some((&first, text)) = run.split_first() else {
        return true;
    };
    if !mail && text.is_ascii() {
        // The run as it lies, each length byte after the first becoming a dot.
        let start = out.len();
        out.extend_from_slice(text);
        let mut at = usize::from(first) + 1;
        while let Some(&len) = run.get(at) {
            out[start + at - 1] = b'.';
            at += usize::from(len) + 1;
        }
        return true;
    }
    let mut ascii = true;
    let mut rest = run;
    while let Some((&len, after)) = rest.split_first() {
        let (one, next) = after.split_at(usize::from(len).min(after.len()));
        if rest.len() < run.len() {
            out.push(b'.');
        }
        ascii &= label(out, one, mail);
        rest = next;
    }
    ascii
}

/// Appends a label as dns-packet's `name.decode` writes it: decoded as
/// UTF-8 with replacement characters, and in `mail` form (an SOA `rname`,
/// an RP `mbox`) with each `.` inside it as `\.`. Returns whether the label
/// was ASCII, in which case so is what it appended.
pub fn label(out: &mut Vec<u8>, label: &[u8], mail: bool) -> bool {
    if mail && label.contains(&b'.') {
        let mut ascii = true;
        for (i, part) in label.split(|&b| b == b'.').enumerate() {
            if i > 0 {
                out.extend_from_slice(b"\\.");
            }
            ascii &= lossy(out, part);
        }
        ascii
    } else {
        lossy(out, label)
    }
}

/// Appends bytes decoded as UTF-8, each invalid sequence a U+FFFD, as
/// `Buffer.toString('utf-8')` and `TextDecoder` decode them. Returns whether
/// the bytes were ASCII, and so appended as they are.
pub fn lossy(out: &mut Vec<u8>, bytes: &[u8]) -> bool {
    if bytes.is_ascii() {
        out.extend_from_slice(bytes);
        return true;
    }
    for chunk in bytes.utf8_chunks() {
        out.extend_from_slice(chunk.valid().as_bytes());
        if !chunk.invalid().is_empty() {
            out.extend_from_slice("\u{fffd}".as_bytes());
        }
    }
    false
}

/// Appends four octets as `a.b.c.d`.
pub fn ipv4(out: &mut Vec<u8>, octets: [u8; 4]) {
    let mut text = [0u8; 15];
    let mut len = 0;
    for (i, octet) in octets.into_iter().enumerate() {
        if i > 0 {
            text[len] = b'.';
            len += 1;
        }
        if octet >= 100 {
            text[len] = b'0' + octet / 100;
            len += 1;
        }
        if octet >= 10 {
            text[len] = b'0' + octet / 10 % 10;
            len += 1;
        }
        text[len] = b'0' + octet % 10;
        len += 1;
    }
    out.extend_from_slice(&text[..len]);
}

/// Appends sixteen octets as `@leichtgewicht/ip-codec` prints them: eight
/// groups in lowercase hex without leading zeros, and the leftmost run of
/// two or more zero groups (not the longest) as `::`.
pub fn ipv6(out: &mut Vec<u8>, octets: [u8; 16]) {
    let groups: [u16; 8] =
        core::array::from_fn(|i| u16::from_be_bytes([octets[2 * i], octets[2 * i + 1]]));
    match leftmost_zero_run(&groups) {
        Some((start, end)) => {
            hex_groups(out, &groups[..start]);
            out.extend_from_slice(b"::");
            hex_groups(out, &groups[end..]);
        }
        None => hex_groups(out, &groups),
    }
}

/// The first run of two or more zero groups, as `[start, end)`.
fn leftmost_zero_run(groups: &[u16; 8]) -> Option<(usize, usize)> {
    let start = (0..7).find(|&i| groups[i] == 0 && groups[i + 1] == 0)?;
    let end = (start..8).find(|&i| groups[i] != 0).unwrap_or(8);
    Some((start, end))
}

const HEX_LOWER: &[u8; 16] = b"0123456789abcdef";
const HEX_UPPER: &[u8; 16] = b"0123456789ABCDEF";

/// Groups in hex without leading zeros, joined by `:`.
fn hex_groups(out: &mut Vec<u8>, groups: &[u16]) {
    for (i, &group) in groups.iter().enumerate() {
        if i > 0 {
            out.push(b':');
        }
        let digits = (16 - group.leading_zeros()).div_ceil(4).max(1);
        for d in (0..digits).rev() {
            out.push(HEX_LOWER[usize::from(group >> (4 * d) & 0xf)]);
        }
    }
}

/// Appends bytes in uppercase hex.
pub fn upper_hex(out: &mut Vec<u8>, bytes: &[u8]) {
    for &b in bytes {
        out.push(HEX_UPPER[usize::from(b >> 4)]);
        out.push(HEX_UPPER[usize::from(b & 0xf)]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v6(hex: &str) -> String {
        let bytes: Vec<u8> = leanwire_core::hex::decode(hex)
            .collect::<Result<_, _>>()
            .unwrap();
        let mut out = Vec::new();
        ipv6(&mut out, bytes.try_into().unwrap());
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn ipv6_compresses_the_leftmost_run_as_ip_codec_does() {
        assert_eq!(v6("00000000000000000000000000000000"), "::");
        assert_eq!(v6("00000000000000000000000000000001"), "::1");
        assert_eq!(v6("20010db8000000000000000000000001"), "2001:db8::1");
        assert_eq!(v6("20010db8000000010000000000000000"), "2001:db8:0:1::");
        assert_eq!(v6("00010000000100000000000000000001"), "1:0:1::1");
        assert_eq!(v6("00010000000000010000000000000001"), "1::1:0:0:0:1");
        assert_eq!(v6("fe800000000000000000000000000abc"), "fe80::abc");
    }

    #[test]
    fn ipv4_is_dotted_decimal() {
        let mut out = Vec::new();
        ipv4(&mut out, [192, 0, 10, 255]);
        assert_eq!(out, b"192.0.10.255");
    }

    #[test]
    fn mail_labels_escape_their_dots() {
        let mut out = Vec::new();
        label(&mut out, b"john.doe", true);
        assert_eq!(out, b"john\\.doe");
        out.clear();
        label(&mut out, b"john.doe", false);
        assert_eq!(out, b"john.doe");
    }

    #[test]
    fn a_run_of_labels_is_joined_by_dots() {
        let mut out = b"x.".to_vec();
        assert!(labels(&mut out, b"\x03www\x07example\x03com", false));
        assert_eq!(out, b"x.www.example.com");
        out.clear();
        assert!(labels(&mut out, b"\x08john.doe\x07example", true));
        assert_eq!(out, b"john\\.doe.example");
        out.clear();
        assert!(!labels(&mut out, "\x05j\u{f6}hn\x01a".as_bytes(), false));
        assert_eq!(core::str::from_utf8(&out), Ok("j\u{f6}hn.a"));
        out.clear();
        assert!(labels(&mut out, b"", false));
        assert!(out.is_empty());
    }

    #[test]
    fn a_label_is_ascii_only_if_every_part_is() {
        let mut out = Vec::new();
        assert!(label(&mut out, b"john.doe", true));
        assert!(!label(&mut out, "jöhn.doe".as_bytes(), true));
        assert!(!label(&mut out, "john.döe".as_bytes(), true));
        assert!(!label(&mut out, "jöhn".as_bytes(), false));
        assert!(label(&mut out, b"", false));
    }

    #[test]
    fn invalid_utf8_reads_as_replacement_characters() {
        let mut out = Vec::new();
        lossy(&mut out, b"a\xffb\xe2\x82");
        assert_eq!(String::from_utf8(out).unwrap(), "a\u{fffd}b\u{fffd}");
    }
}
