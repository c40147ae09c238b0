//! `decode_tds` next to two decoders leanwire shares no code with: what npm
//! tedious and FreeTDS's `tsql` printed for the captures in
//! `tests/vectors/tds/`, and npm tedious run now, on result sets that
//! `support/tds_stream.rs` writes.
//!
//! Each oracle prints values its own way (tedious: dates as UTC `Date`s
//! plus `nanosecondsDelta`, decimals as doubles; FreeTDS: `Feb 29 2024
//! 01:14PM`, uppercase GUIDs), so both sides are brought to one [`Canon`]
//! form per column type, at the precision the oracle keeps, and compared
//! value by value.
//!
//! The live tedious run needs `node` and `www/node_modules/tedious`
//! (`scripts/setup` installs both); without them the test fails.

#[path = "support/tds_stream.rs"]
#[allow(dead_code)]
mod tds_stream;

use std::path::{Path, PathBuf};
use std::process::Command;

use leanwire_native::core::report::{DecodeOptions, decode_tds};
use leanwire_native::pcap::server_stream;
use serde_json::Value as Json;

fn manifest_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn vector(name: &str) -> Vec<u8> {
    let path = manifest_dir().join("tests/vectors/tds").join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn vector_json(name: &str) -> Json {
    serde_json::from_slice(&vector(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// leanwire's reports for `stream` (TDS packets), fed `chunk` bytes at a
/// time (0: all at once), as the JSON the CLI prints.
fn leanwire(stream: &[u8], chunk: usize) -> Vec<Json> {
    let (reports, error) = decode_tds(stream, DecodeOptions::default(), chunk);
    assert_eq!(
        error,
        None,
        "leanwire stopped after {} tokens",
        reports.len()
    );
    reports
        .iter()
        .map(|r| serde_json::to_value(r).unwrap())
        .collect()
}

/// The messages in a server stream: packets up to and including each EOM.
fn messages(stream: &[u8]) -> Vec<&[u8]> {
    let (mut out, mut start, mut at) = (Vec::new(), 0, 0);
    while at + 8 <= stream.len() {
        let len = usize::from(u16::from_be_bytes([stream[at + 2], stream[at + 3]]));
        assert!(len >= 8, "a packet of {len} bytes at {at}");
        at += len;
        if stream[at - len + 1] & 0x01 != 0 {
            out.push(&stream[start..at]);
            start = at;
        }
    }
    assert_eq!(start, stream.len(), "the stream ends inside a message");
    out
}

// ---------------------------------------------------------------------------
// Values in one form.

/// A value as both sides can agree on it.
#[derive(Clone, Debug, PartialEq)]
enum Canon {
    Null,
    Bool(bool),
    Int(i128),
    /// A double: tedious's form of decimal and money, and every side's float.
    Float(f64),
    /// An exact decimal, trailing fraction zeros removed.
    Decimal(String),
    /// Days since 1970-01-01 and 100 ns ticks since midnight (days 0 for a
    /// time of day).
    Instant {
        days: i64,
        ticks: i64,
    },
    Text(String),
    Bytes(Vec<u8>),
}

/// Which oracle a value is brought into line with: it fixes the precision
/// and the time zone.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Oracle {
    /// Doubles for decimals; instants in UTC, to 100 ns.
    Tedious,
    /// Exact decimals; instants in local time, to the minute.
    FreeTds,
}

const TICKS_PER_DAY: i64 = 86_400 * 10_000_000;
const TICKS_PER_MINUTE: i64 = 60 * 10_000_000;

/// Days from 1970-01-01 to a civil date (H. Hinnant's `days_from_civil`).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (m + if m > 2 { -3 } else { 9 }) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn num(text: &str) -> i64 {
    text.parse()
        .unwrap_or_else(|_| panic!("{text:?} is not a number"))
}

/// `HH:MM:SS[.fffffff]` as ticks.
fn time_ticks(text: &str) -> i64 {
    let (hms, frac) = text.split_once('.').unwrap_or((text, ""));
    let parts: Vec<i64> = hms.split(':').map(num).collect();
    let [h, m, s] = parts[..] else {
        panic!("{text:?} is not a time")
    };
    assert!(frac.len() <= 7, "{text:?} is finer than 100 ns");
    let frac = if frac.is_empty() {
        0
    } else {
        num(frac) * 10i64.pow(7 - frac.len() as u32)
    };
    ((h * 60 + m) * 60 + s) * 10_000_000 + frac
}

/// `YYYY-MM-DD` as days.
fn date_days(text: &str) -> i64 {
    let parts: Vec<i64> = text.split('-').map(num).collect();
    let [y, m, d] = parts[..] else {
        panic!("{text:?} is not a date")
    };
    days_from_civil(y, m, d)
}

/// An ISO 8601 date, time or timestamp, with an optional `Z` or `±hh:mm`:
/// days, ticks and the offset in minutes.
fn iso(text: &str) -> (i64, i64, i64) {
    let Some((date, time)) = text.split_once('T') else {
        return if text.contains(':') {
            (0, time_ticks(text), 0)
        } else {
            (date_days(text), 0, 0)
        };
    };
    let (time, offset) = if let Some(time) = time.strip_suffix('Z') {
        (time, 0)
    } else if let Some(at) = time.rfind(['+', '-']) {
        let (h, m) = time[at + 1..].split_once(':').expect("an offset hh:mm");
        let minutes = num(h) * 60 + num(m);
        let sign = if time.as_bytes()[at] == b'-' { -1 } else { 1 };
        (&time[..at], sign * minutes)
    } else {
        (time, 0)
    };
    (date_days(date), time_ticks(time), offset)
}

fn instant(days: i64, ticks: i64) -> Canon {
    let total = days * TICKS_PER_DAY + ticks;
    Canon::Instant {
        days: total.div_euclid(TICKS_PER_DAY),
        ticks: total.rem_euclid(TICKS_PER_DAY),
    }
}

fn to_minute(canon: Canon) -> Canon {
    match canon {
        Canon::Instant { days, ticks } => Canon::Instant {
            days,
            ticks: ticks - ticks % TICKS_PER_MINUTE,
        },
        other => other,
    }
}

fn exact(text: &str) -> Canon {
    let text = if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.')
    } else {
        text
    };
    Canon::Decimal(text.to_string())
}

fn hex(text: &str) -> Vec<u8> {
    leanwire_native::core::hex::decode(text.trim_start_matches("0x"))
        .collect::<Result<_, _>>()
        .unwrap_or_else(|error| panic!("{text:?}: {error}"))
}

fn int(v: &Json) -> i128 {
    match v {
        Json::Number(n) => i128::from(n.as_i64().expect("an integer")),
        Json::String(s) => s.parse().expect("an integer string"),
        other => panic!("{other} is not an integer"),
    }
}

fn text(v: &Json) -> &str {
    v.as_str().unwrap_or_else(|| panic!("{v} is not a string"))
}

/// leanwire's value (a `decode_tds` report value) of a column whose
/// TYPE_INFO type is `kind`, as `oracle` keeps it.
fn leanwire_canon(kind: &str, v: &Json, oracle: Oracle) -> Canon {
    if v.is_null() {
        return Canon::Null;
    }
    let canon = match kind {
        "INT1" | "INT2" | "INT4" | "INT8" | "INTN" => Canon::Int(int(v)),
        "BIT" | "BITN" => Canon::Bool(v.as_bool().expect("a bool")),
        "FLT4" | "FLT8" | "FLTN" => Canon::Float(v.as_f64().expect("a number")),
        "DECIMALN" | "NUMERICN" | "MONEY" | "MONEY4" | "MONEYN" => match oracle {
            Oracle::Tedious => Canon::Float(text(v).parse().expect("a decimal")),
            Oracle::FreeTds => exact(text(v)),
        },
        "DATEN" | "TIMEN" | "DATETIME2N" | "DATETIME" | "DATETIM4" | "DATETIMN" => {
            let (days, ticks, _) = iso(text(v));
            instant(days, ticks)
        }
        // leanwire prints the local time and its offset; tedious keeps the
        // UTC instant only, and FreeTDS prints the local time.
        "DATETIMEOFFSETN" => {
            let (days, ticks, offset) = iso(text(v));
            match oracle {
                Oracle::Tedious => instant(days, ticks - offset * TICKS_PER_MINUTE),
                Oracle::FreeTds => instant(days, ticks),
            }
        }
        "GUID" => Canon::Text(text(v).to_lowercase()),
        "BIGVARBIN" | "BIGBINARY" | "VARBINARY" | "BINARY" | "IMAGE" => Canon::Bytes(hex(text(v))),
        _ => Canon::Text(text(v).to_string()),
    };
    match oracle {
        Oracle::Tedious => canon,
        Oracle::FreeTds => to_minute(canon),
    }
}

/// tedious's value (`tedious_decode.js`'s JSON) of a column of type `kind`.
fn tedious_canon(kind: &str, v: &Json) -> Canon {
    if v.is_null() {
        return Canon::Null;
    }
    match kind {
        "INT1" | "INT2" | "INT4" | "INT8" | "INTN" => Canon::Int(int(v)),
        "BIT" | "BITN" => Canon::Bool(v.as_bool().expect("a bool")),
        "FLT4" | "FLT8" | "FLTN" | "DECIMALN" | "NUMERICN" | "MONEY" | "MONEY4" | "MONEYN" => {
            Canon::Float(v.as_f64().expect("a number"))
        }
        "DATEN" | "TIMEN" | "DATETIME2N" | "DATETIMEOFFSETN" | "DATETIME" | "DATETIM4"
        | "DATETIMN" => {
            let (days, ticks, offset) = iso(text(&v["date"]));
            assert_eq!(offset, 0, "tedious runs with useUTC");
            // The fraction past the Date's milliseconds, in seconds.
            let delta = v["nanosecondsDelta"].as_f64().unwrap_or(0.0);
            let ticks = ticks + (delta * 1e7).round() as i64;
            if kind == "TIMEN" {
                // A time of day comes as that time on 1970-01-01.
                assert_eq!(days, 0, "tedious's time is on 1970-01-01: {v}");
            }
            instant(days, ticks)
        }
        "GUID" => Canon::Text(text(v).to_lowercase()),
        "BIGVARBIN" | "BIGBINARY" | "VARBINARY" | "BINARY" | "IMAGE" => {
            Canon::Bytes(hex(text(&v["hex"])))
        }
        _ => Canon::Text(text(v).to_string()),
    }
}

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// FreeTDS's `Feb 29 2024 01:14PM` (its default date format, to the minute).
fn freetds_datetime(text: &str) -> (i64, i64) {
    let parts: Vec<&str> = text.split_whitespace().collect();
    let [month, day, year, clock] = parts[..] else {
        panic!("{text:?} is not a FreeTDS date")
    };
    let month = MONTHS
        .iter()
        .position(|&m| m == month)
        .unwrap_or_else(|| panic!("{month:?} is not a month")) as i64
        + 1;
    let (clock, pm) = match (clock.strip_suffix("AM"), clock.strip_suffix("PM")) {
        (Some(clock), _) => (clock, false),
        (_, Some(clock)) => (clock, true),
        _ => panic!("{text:?} has no AM or PM"),
    };
    let (h, m) = clock.split_once(':').expect("hh:mm");
    let hour = num(h) % 12 + if pm { 12 } else { 0 };
    let days = days_from_civil(num(year), month, num(day));
    (days, (hour * 60 + num(m)) * TICKS_PER_MINUTE)
}

/// FreeTDS `tsql`'s printed value of a column of type `kind`.
fn freetds_canon(kind: &str, v: &str) -> Canon {
    if v == "NULL" {
        return Canon::Null;
    }
    match kind {
        "INT1" | "INT2" | "INT4" | "INT8" | "INTN" => Canon::Int(v.parse().expect("an integer")),
        "BIT" | "BITN" => Canon::Bool(v == "1"),
        "FLT4" | "FLT8" | "FLTN" => Canon::Float(v.parse().expect("a float")),
        "DECIMALN" | "NUMERICN" | "MONEY" | "MONEY4" | "MONEYN" => exact(v),
        "DATEN" | "TIMEN" | "DATETIME2N" | "DATETIMEOFFSETN" | "DATETIME" | "DATETIM4"
        | "DATETIMN" => {
            let (days, ticks) = freetds_datetime(v);
            if kind == "TIMEN" {
                // tsql shows a time of day on SQL Server's day zero.
                assert_eq!(days, days_from_civil(1900, 1, 1), "{v:?}");
                return instant(0, ticks);
            }
            instant(days, ticks)
        }
        "GUID" => Canon::Text(v.to_lowercase()),
        "BIGVARBIN" | "BIGBINARY" | "VARBINARY" | "BINARY" | "IMAGE" => Canon::Bytes(hex(v)),
        _ => Canon::Text(v.to_string()),
    }
}

/// Compares two values of one column; `Float`s must be the same double
/// (tedious divides the exact integer once, so a correctly rounded decimal
/// gives the very same double).
fn assert_same(what: &str, ours: Canon, theirs: Canon) {
    assert_eq!(ours, theirs, "{what}");
}

// ---------------------------------------------------------------------------
// Tokens.

/// tedious's type names for the TYPE_INFO types in these streams.
fn tedious_type(kind: &str) -> &'static str {
    match kind {
        "INT4" => "Int",
        "INTN" => "IntN",
        "DECIMALN" => "DecimalN",
        "GUID" => "UniqueIdentifier",
        "DATEN" => "Date",
        "TIMEN" => "Time",
        "DATETIME2N" => "DateTime2",
        "DATETIMEOFFSETN" => "DateTimeOffset",
        "MONEYN" => "MoneyN",
        "FLTN" => "FloatN",
        "BITN" => "BitN",
        "DATETIMN" => "DateTimeN",
        "BIGVARBIN" => "VarBinary",
        "NVARCHAR" => "NVarChar",
        other => panic!("no tedious name for {other} yet"),
    }
}

/// The types of a COLMETADATA report's columns.
fn kinds(colmetadata: &Json) -> Vec<String> {
    colmetadata["columns"]
        .as_array()
        .expect("columns")
        .iter()
        .map(|c| text(&c["type"]).to_string())
        .collect()
}

fn assert_colmetadata_matches_tedious(ours: &Json, theirs: &Json) {
    let (ours, theirs) = (
        ours["columns"].as_array().unwrap(),
        theirs["columns"].as_array().unwrap(),
    );
    assert_eq!(ours.len(), theirs.len(), "column counts");
    for (i, (o, t)) in ours.iter().zip(theirs).enumerate() {
        let kind = text(&o["type"]);
        let at = format!("column {i} ({})", o["name"]);
        assert_eq!(o["name"], t["colName"], "{at}: name");
        assert_eq!(text(&t["type"]), tedious_type(kind), "{at}: type");
        assert_eq!(
            o["nullable"].as_bool().unwrap(),
            t["flags"].as_u64().unwrap() & 1 != 0,
            "{at}: nullable"
        );
        // tedious keeps MAX as 65535; leanwire reports no length for it, and
        // none for types whose TYPE_INFO has none.
        match (o["length"].as_u64(), t["dataLength"].as_u64()) {
            (None, Some(65535)) => assert!(text(&o["sql_type"]).ends_with("(max)"), "{at}"),
            // tedious gives no length for fixed-length types.
            (_, None) if kind == "INT4" => {}
            (ours, theirs) => assert_eq!(ours, theirs, "{at}: length"),
        }
        let sql_type = text(&o["sql_type"]);
        if let (Some(p), Some(s)) = (t["precision"].as_u64(), t["scale"].as_u64()) {
            assert!(
                sql_type.ends_with(&format!("({p},{s})")),
                "{at}: {sql_type}"
            );
        } else if let Some(s) = t["scale"].as_u64() {
            assert!(sql_type.ends_with(&format!("({s})")), "{at}: {sql_type}");
        }
    }
}

fn assert_row_matches_tedious(at: &str, kinds: &[String], ours: &Json, theirs: &Json) {
    let values = ours["values"].as_array().expect("values");
    let columns = theirs["columns"].as_array().expect("columns");
    assert_eq!(values.len(), columns.len(), "{at}: value counts");
    for (c, (kind, (o, t))) in kinds.iter().zip(values.iter().zip(columns)).enumerate() {
        assert_same(
            &format!(
                "{at}, column {c} ({kind}): leanwire {o}, tedious {}",
                t["value"]
            ),
            leanwire_canon(kind, o, Oracle::Tedious),
            tedious_canon(kind, &t["value"]),
        );
    }
}

/// DONE, DONEPROC, DONEINPROC.
fn assert_done_matches_tedious(at: &str, ours: &Json, theirs: &Json) {
    let status: Vec<&str> = ours["status"]
        .as_array()
        .unwrap()
        .iter()
        .map(text)
        .collect();
    for (bit, field) in [
        ("MORE", "more"),
        ("ERROR", "sqlError"),
        ("ATTN", "attention"),
        ("SRVERROR", "serverError"),
    ] {
        assert_eq!(
            status.contains(&bit),
            theirs[field].as_bool().unwrap(),
            "{at}: {bit}"
        );
    }
    assert_eq!(ours["curcmd"], theirs["curCmd"], "{at}: curcmd");
    // tedious gives a row count only when COUNT is set.
    let count = theirs["rowCount"].as_u64();
    assert_eq!(status.contains(&"COUNT"), count.is_some(), "{at}: COUNT");
    if let Some(count) = count {
        assert_eq!(ours["rowcount"].as_u64(), Some(count), "{at}: rowcount");
    }
}

/// ERROR and INFO.
fn assert_message_matches_tedious(at: &str, ours: &Json, theirs: &Json) {
    for (o, t) in [
        ("number", "number"),
        ("state", "state"),
        ("class", "class"),
        ("message", "message"),
        ("server", "serverName"),
        ("procedure", "procName"),
        ("line", "lineNumber"),
    ] {
        assert_eq!(ours[o], theirs[t], "{at}: {o}");
    }
}

/// An ENVCHANGE's value as tedious gives it: text, a number (packet size),
/// or a collation's fields.
fn assert_env_value_matches_tedious(at: &str, kind: &str, ours: &Json, theirs: &Json) {
    let ours = text(ours);
    match theirs {
        Json::Null => assert_eq!(ours, "", "{at}: tedious has no value"),
        Json::String(t) => assert_eq!(ours, t, "{at}"),
        Json::Number(n) => assert_eq!(ours, n.to_string(), "{at}"),
        Json::Object(t) if kind == "COLLATION" => {
            // tedious's Collation.fromBuffer.
            let b = hex(ours);
            assert_eq!(b.len(), 5, "{at}: a 5-byte collation");
            let lcid = (u64::from(b[2] & 0x0f) << 16) | u64::from(b[1]) << 8 | u64::from(b[0]);
            let flags = u64::from(b[2] >> 4) | u64::from(b[3] & 0x0f) << 4;
            let version = u64::from(b[3] >> 4);
            for (field, value) in [
                ("lcid", lcid),
                ("flags", flags),
                ("version", version),
                ("sortId", u64::from(b[4])),
            ] {
                assert_eq!(t[field].as_u64(), Some(value), "{at}: {field}");
            }
        }
        other => panic!("{at}: tedious's {other} is new to this test"),
    }
}

fn assert_token_matches_tedious(at: &str, kinds: &mut Vec<String>, ours: &Json, theirs: &Json) {
    let name = text(&ours["token"]);
    assert_eq!(name, text(&theirs["token"]), "{at}: token");
    match name {
        "COLMETADATA" => {
            assert_colmetadata_matches_tedious(ours, theirs);
            *kinds = self::kinds(ours);
        }
        "ROW" | "NBCROW" => assert_row_matches_tedious(at, kinds, ours, theirs),
        "DONE" | "DONEPROC" | "DONEINPROC" => assert_done_matches_tedious(at, ours, theirs),
        "RETURNSTATUS" => assert_eq!(ours["value"], theirs["value"], "{at}"),
        "INFO" | "ERROR" => assert_message_matches_tedious(at, ours, theirs),
        "ENVCHANGE" => {
            let kind = text(&ours["type"]);
            let theirs_kind = match text(&theirs["type"]) {
                "SQL_COLLATION" => "COLLATION",
                other => other,
            };
            assert_eq!(kind, theirs_kind, "{at}: type");
            assert_env_value_matches_tedious(at, kind, &ours["new"], &theirs["newValue"]);
            assert_env_value_matches_tedious(at, kind, &ours["old"], &theirs["oldValue"]);
        }
        "LOGINACK" => {
            let interface = match text(&theirs["interface"]) {
                "SQL_DFLT" => 0,
                "SQL_TSQL" => 1,
                other => panic!("{at}: interface {other}"),
            };
            assert_eq!(ours["interface"], interface, "{at}: interface");
            // tedious's "7_3_B" is leanwire's "7.3B".
            let version = text(&theirs["tdsVersion"])
                .replacen('_', ".", 1)
                .replace('_', "");
            assert_eq!(text(&ours["tds_version"]), version, "{at}: TDS version");
            assert_eq!(
                text(&ours["prog_name"]),
                text(&theirs["progName"]).trim_end_matches('\0'),
                "{at}: program name (servers pad it with NULs)"
            );
            let v = &theirs["progVersion"];
            let build =
                v["buildNumHi"].as_u64().unwrap() * 256 + v["buildNumLow"].as_u64().unwrap();
            assert_eq!(
                text(&ours["prog_version"]),
                format!("{}.{}.{build}", v["major"], v["minor"]),
                "{at}: program version"
            );
        }
        "FEATUREEXTACK" => {
            // leanwire reports it as text: `FEATUREEXTACK [NAME 0xHEX, ...]`.
            let list = text(&ours["text"])
                .strip_prefix("FEATUREEXTACK [")
                .and_then(|t| t.strip_suffix(']'))
                .expect("FEATUREEXTACK [...]");
            let acks: Vec<(&str, Vec<u8>)> = list
                .split(", ")
                .map(|a| {
                    let (name, data) = a.split_once(' ').expect("NAME 0xHEX");
                    (name, hex(data))
                })
                .collect();
            let theirs = theirs.as_object().unwrap();
            let known = ["token", "name"];
            assert_eq!(
                acks.len(),
                theirs
                    .keys()
                    .filter(|k| !known.contains(&k.as_str()))
                    .count(),
                "{at}: acknowledgements"
            );
            for (name, data) in acks {
                match name {
                    "FEDAUTH" => assert_eq!(data, hex(text(&theirs["fedAuth"]["hex"])), "{at}"),
                    "UTF8_SUPPORT" => {
                        assert_eq!(Json::Bool(data == [1]), theirs["utf8Support"], "{at}")
                    }
                    other => panic!("{at}: {other} is new to this test"),
                }
            }
        }
        other => panic!("{at}: {other} is new to this test"),
    }
}

fn assert_tokens_match_tedious(what: &str, ours: &[Json], theirs: &[Json]) {
    let names = |tokens: &[Json]| -> Vec<String> {
        tokens
            .iter()
            .map(|t| text(&t["token"]).to_string())
            .collect()
    };
    assert_eq!(names(ours), names(theirs), "{what}: the token sequence");
    let mut kinds = Vec::new();
    for (i, (o, t)) in ours.iter().zip(theirs).enumerate() {
        assert_token_matches_tedious(&format!("{what}, token {i}"), &mut kinds, o, t);
    }
}

// ---------------------------------------------------------------------------
// The captures.

#[test]
fn types_capture_values_match_tedious() {
    let ours = leanwire(&server_stream(&vector("types.pcap"), 1433).unwrap(), 0);
    let theirs = vector_json("types.tedious.json");
    let theirs = theirs.as_array().expect("an array of tokens");
    assert_tokens_match_tedious("types.pcap", &ours, theirs);
    // Every type of the capture made it into a compared row.
    assert_eq!(kinds(&ours[0]).len(), 14);
    assert!(
        ours[1]["values"]
            .as_array()
            .unwrap()
            .iter()
            .all(|v| !v.is_null())
    );
}

/// FreeTDS `tsql`'s output: a header line of column names after the
/// prompts, tab-separated rows, `(N rows affected)`, `(return status = N)`.
struct Tsql {
    names: Vec<String>,
    rows: Vec<Vec<String>>,
    affected: u64,
    status: i64,
}

fn tsql(output: &str) -> Tsql {
    let mut lines = output.lines().skip_while(|l| !l.contains('\t'));
    let header = lines.next().expect("a header line");
    let header = header.trim_start_matches(|c: char| c.is_ascii_digit() || c == '>' || c == ' ');
    let names = header.split('\t').map(str::to_string).collect();
    let mut rows = Vec::new();
    let mut affected = None;
    let mut status = None;
    for line in lines {
        if let Some(n) = line
            .strip_prefix('(')
            .and_then(|l| l.strip_suffix(" rows affected)"))
        {
            affected = Some(num(n) as u64);
        } else if let Some(n) = line
            .strip_prefix("(return status = ")
            .and_then(|l| l.strip_suffix(')'))
        {
            status = Some(num(n));
        } else if line.contains('\t') {
            rows.push(line.split('\t').map(str::to_string).collect());
        }
    }
    Tsql {
        names,
        rows,
        affected: affected.expect("(N rows affected)"),
        status: status.expect("(return status = N)"),
    }
}

#[test]
fn types_capture_values_match_freetds() {
    let ours = leanwire(&server_stream(&vector("types.pcap"), 1433).unwrap(), 0);
    let theirs = tsql(&String::from_utf8(vector("types.freetds_tsql.txt")).unwrap());
    let columns = ours[0]["columns"].as_array().unwrap();
    let names: Vec<&str> = columns.iter().map(|c| text(&c["name"])).collect();
    assert_eq!(names, theirs.names, "column names");
    let kinds = kinds(&ours[0]);
    let rows: Vec<&Json> = ours
        .iter()
        .filter(|t| matches!(text(&t["token"]), "ROW" | "NBCROW"))
        .collect();
    assert_eq!(rows.len(), theirs.rows.len(), "rows");
    for (r, (o, t)) in rows.iter().zip(&theirs.rows).enumerate() {
        let values = o["values"].as_array().unwrap();
        assert_eq!(values.len(), t.len(), "row {r}: value counts");
        for (c, (kind, (o, t))) in kinds.iter().zip(values.iter().zip(t)).enumerate() {
            assert_same(
                &format!("row {r}, column {c} ({kind}): leanwire {o}, FreeTDS {t:?}"),
                leanwire_canon(kind, o, Oracle::FreeTds),
                freetds_canon(kind, t),
            );
        }
    }
    let done = ours
        .iter()
        .find(|t| t["token"] == "DONEINPROC")
        .expect("DONEINPROC");
    assert_eq!(
        done["rowcount"].as_u64(),
        Some(theirs.affected),
        "rows affected"
    );
    let status = ours
        .iter()
        .find(|t| t["token"] == "RETURNSTATUS")
        .expect("RETURNSTATUS");
    assert_eq!(
        status["value"].as_i64(),
        Some(theirs.status),
        "return status"
    );
}

#[test]
fn login_response_matches_tedious() {
    let stream = server_stream(&vector("pytds_login.pcap"), 1433).unwrap();
    // pytds's fixtures from lines 194, 196 and 389 of its unit tests, in order.
    let messages = messages(&stream);
    assert_eq!(messages.len(), 3, "three login responses");
    let l389 = messages[2];
    assert_eq!(l389.len(), 474, "the line-389 fixture's length");
    let ours = leanwire(l389, 0);
    let theirs = vector_json("pytds_login_L389.tedious.json");
    assert_tokens_match_tedious("pytds_login L389", &ours, theirs.as_array().unwrap());
    for token in ["ENVCHANGE", "INFO", "LOGINACK", "FEATUREEXTACK", "DONE"] {
        assert!(ours.iter().any(|t| t["token"] == token), "a {token}");
    }
}

// ---------------------------------------------------------------------------
// tedious, run now on generated streams.

/// npm tedious's tokens for `packets`, fed to it one byte at a time by
/// `tests/tedious_decode.js`.
fn run_tedious(packets: &[u8], name: &str) -> Vec<Json> {
    let modules = manifest_dir().join("../www/node_modules");
    assert!(
        modules.join("tedious/package.json").is_file(),
        "npm tedious is not in {}: run scripts/setup (it installs www/'s npm packages)",
        modules.display()
    );
    let input = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}.hex"));
    let hex: String = packets.iter().map(|b| format!("{b:02x}")).collect();
    std::fs::write(&input, hex).unwrap();
    let script = manifest_dir().join("tests/tedious_decode.js");
    let output = Command::new("node")
        .arg(&script)
        .arg(format!("@{}", input.display()))
        .args(["7_4", "--packets"])
        .env("NODE_PATH", &modules)
        .output()
        .unwrap_or_else(|e| panic!("cannot run node ({e}): run scripts/setup, which installs it"));
    assert!(
        output.status.success(),
        "tedious_decode.js failed on {name}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let tokens: Json = serde_json::from_slice(&output.stdout).expect("tedious's JSON");
    tokens.as_array().expect("an array of tokens").clone()
}

#[test]
fn generated_result_sets_match_tedious() {
    const ROWS: u32 = 300;
    let tokens = tds_stream::result_set(ROWS);
    let packets = tds_stream::packets(&tokens, 4096);
    let theirs = run_tedious(&packets, "tds_oracles_result_set");
    assert_eq!(
        theirs.len(),
        ROWS as usize + 2,
        "tedious read COLMETADATA, every row and DONE"
    );
    // The same tokens in other packet sizes, and fed in other chunks, must
    // decode to the same values.
    for packet_size in [4096, 512, 9] {
        let packets = tds_stream::packets(&tokens, packet_size);
        for chunk in [0, 1, 4096] {
            let ours = leanwire(&packets, chunk);
            let what = format!("{ROWS} rows in {packet_size}-byte packets, {chunk}-byte chunks");
            assert_tokens_match_tedious(&what, &ours, &theirs);
        }
    }
    // NBCROWs, NULLs and every body length came up.
    let nbc = theirs.iter().filter(|t| t["token"] == "NBCROW").count();
    assert_eq!(nbc, ROWS as usize / 4);
}
