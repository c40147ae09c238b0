//! Writes TDS 7.4 server responses for the tests and benchmarks: a result
//! set of mixed types, sent in packets, so that leanwire and tedious can be
//! given the very same bytes.
//!
//! The layouts follow [MS-TDS] 2.2.7 (tokens) and 2.2.5 (TYPE_INFO and data).

/// The columns of [`result_set`]: `(name, nullable)`, in order.
pub const COLUMNS: [(&str, bool); 8] = [
    ("id", false),
    ("big", true),
    ("name", true),
    ("amount", true),
    ("ts", true),
    ("guid", true),
    ("note", true),
    ("body", true),
];

/// A collation: Latin1_General_CI_AS (LCID 0x0409, sort id 52).
const COLLATION: [u8; 5] = [0x09, 0x04, 0xd0, 0x00, 0x34];

fn ucs2(text: &str) -> Vec<u8> {
    text.encode_utf16().flat_map(u16::to_le_bytes).collect()
}

/// `B_VARCHAR`: a length in characters, then UCS-2.
fn b_varchar(out: &mut Vec<u8>, text: &str) {
    out.push(text.encode_utf16().count() as u8);
    out.extend(ucs2(text));
}

/// COLMETADATA for [`COLUMNS`] [MS-TDS 2.2.7.4].
pub fn colmetadata(out: &mut Vec<u8>) {
    out.push(0x81);
    out.extend((COLUMNS.len() as u16).to_le_bytes());
    for (name, nullable) in COLUMNS {
        out.extend(0u32.to_le_bytes()); // UserType
        out.extend(u16::from(nullable).to_le_bytes()); // Flags: fNullable
        match name {
            "id" => out.push(0x38),         // INT4
            "big" => out.extend([0x26, 8]), // INTN(8)
            "name" | "note" => {
                out.push(0xe7); // NVARCHAR(50)
                out.extend(100u16.to_le_bytes());
                out.extend(COLLATION);
            }
            "amount" => out.extend([0x6a, 9, 18, 4]), // DECIMALN(18,4)
            "ts" => out.extend([0x2a, 7]),            // DATETIME2(7)
            "guid" => out.extend([0x24, 16]),         // UNIQUEIDENTIFIER
            "body" => {
                out.push(0xe7); // NVARCHAR(MAX)
                out.extend(0xffffu16.to_le_bytes());
                out.extend(COLLATION);
            }
            _ => unreachable!("every column is listed"),
        }
        b_varchar(out, name);
    }
}

/// One row, numbered `i`: every fourth row leaves `note` and `guid` NULL and
/// goes as an NBCROW [MS-TDS 2.2.7.16]; the others go as a ROW.
pub fn row(out: &mut Vec<u8>, i: u32) {
    let nulls = i % 4 == 3;
    let name = format!("row {i:05} name");
    let note = "a note";
    let body = format!("body of row {i}, {}", "x".repeat((i % 7) as usize * 10));
    if nulls {
        out.push(0xd2);
        // Columns 5 (guid) and 6 (note) are NULL: bits 5 and 6 of the first byte.
        out.push(0b0110_0000);
    } else {
        out.push(0xd1);
    }
    out.extend(i.to_le_bytes()); // id
    out.push(8);
    out.extend((i64::from(i) * 1_000_000_007).to_le_bytes()); // big
    let name = ucs2(&name);
    out.extend((name.len() as u16).to_le_bytes());
    out.extend(&name);
    out.push(9); // amount = i + 0.1234, scale 4
    out.push(1); // positive
    out.extend((u64::from(i) * 10_000 + 1234).to_le_bytes());
    out.push(8); // ts: 3 bytes... time (5 bytes at scale 7) then days since 0001-01-01 (3 bytes)
    let ticks = (u64::from(i) % 86_400) * 10_000_000 + 1_234_567;
    out.extend(&ticks.to_le_bytes()[..5]);
    out.extend(&(738_945u32 + i % 1000).to_le_bytes()[..3]);
    if !nulls {
        out.push(16);
        out.extend((0..16u8).map(|b| b.wrapping_mul(17).wrapping_add(i as u8)));
        let note = ucs2(note);
        out.extend((note.len() as u16).to_le_bytes());
        out.extend(&note);
    }
    // body, as PLP: the total length, two chunks, the terminator [MS-TDS 2.2.5.2.3].
    let body = ucs2(&body);
    let (first, second) = body.split_at(body.len() / 2);
    out.extend((body.len() as u64).to_le_bytes());
    for chunk in [first, second] {
        out.extend((chunk.len() as u32).to_le_bytes());
        out.extend(chunk);
    }
    out.extend(0u32.to_le_bytes());
}

/// DONE with a row count [MS-TDS 2.2.7.6]: status COUNT, command 193 (SELECT).
pub fn done(out: &mut Vec<u8>, rows: u64) {
    out.push(0xfd);
    out.extend(0x0010u16.to_le_bytes());
    out.extend(193u16.to_le_bytes());
    out.extend(rows.to_le_bytes());
}

/// The token stream of a result set of `rows` rows.
pub fn result_set(rows: u32) -> Vec<u8> {
    let mut out = Vec::new();
    colmetadata(&mut out);
    for i in 0..rows {
        row(&mut out, i);
    }
    done(&mut out, u64::from(rows));
    out
}

/// `tokens` split into tabular-result packets of at most `packet_size`
/// bytes, headers included, the last one marked end of message [MS-TDS 2.2.3].
pub fn packets(tokens: &[u8], packet_size: usize) -> Vec<u8> {
    let body = packet_size - 8;
    let count = tokens.len().div_ceil(body).max(1);
    let mut out = Vec::with_capacity(tokens.len() + 8 * count);
    for (i, chunk) in tokens.chunks(body).enumerate() {
        let status = if i + 1 == count { 0x01 } else { 0x00 };
        out.extend([0x04, status]);
        out.extend(((chunk.len() + 8) as u16).to_be_bytes());
        out.extend([0, 0, (i + 1) as u8, 0]);
        out.extend(chunk);
    }
    out
}

/// A token stream that grows a reader's metadata arena with every result
/// set: one narrow result set (one int column `a`, a ROW with 7, a DONE),
/// then `wide` result sets of `columns` unnamed int columns, each with no
/// rows and a DONE. Returns the tokens and the offset of the first wide
/// COLMETADATA.
pub fn wide_result_sets(wide: usize, columns: u16) -> (Vec<u8>, usize) {
    let mut out = vec![0x81, 1, 0, 0, 0, 0, 0, 0, 0, 0x38];
    b_varchar(&mut out, "a");
    out.push(0xd1);
    out.extend(7i32.to_le_bytes());
    done(&mut out, 1);
    let first = out.len();
    for _ in 0..wide {
        out.push(0x81);
        out.extend(columns.to_le_bytes());
        for _ in 0..columns {
            // UserType, Flags, INT4, an empty name.
            out.extend([0, 0, 0, 0, 0, 0, 0x38, 0]);
        }
        done(&mut out, 0);
    }
    (out, first)
}
