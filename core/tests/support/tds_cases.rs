//! Runs the TDS vectors (`vectors/tds/`) against `leanwire_core::tds`.
//! Shared by the native tests and the wasm tests, so every target runs
//! exactly the same checks: std and serde_json only.
//!
//! Every record of `vectors.json` and every pytds fixture is run. Records
//! leanwire does not model, or models differently on purpose, are listed in
//! [`OUT_OF_SCOPE`] and [`DELIBERATELY_DIFFERENT`] with the reason; any
//! other mismatch is a failure.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::string::{String, ToString};
use std::vec::Vec;

use leanwire_core::bumpalo::Bump;
use leanwire_core::tds::{
    Deframer, EnvValue, ErrorKind, Event, FeatureId, GATHERED_ROW_LEN, INLINE_VALUE_LEN,
    LargeValues, Metadata, PacketHeader, Payload, Reader, Site, SqlValue, Status, TdsVersion, Time,
    Token, TokenType, Value, ValueSource, WholePackets,
};
use serde_json::{Value as Json, json};

/// The tedious and pytds records.
pub const VECTORS_JSON: &str = include_str!("../vectors/tds/vectors.json");
/// pytds's raw server-byte fixtures.
pub const PYTDS_FIXTURES_JSON: &str = include_str!("../vectors/tds/pytds_unit_test_fixtures.json");
/// A 14-type token stream, with tedious's and FreeTDS's decodes.
pub const TYPES_TOKENS_HEX: &str = include_str!("../vectors/tds/pcap/types_tokens.hex");
/// tedious's decode of `TYPES_TOKENS_HEX`.
pub const TYPES_TEDIOUS_JSON: &str = include_str!("../vectors/tds/pcap/types.tedious.json");
/// FreeTDS tsql's output for `TYPES_TOKENS_HEX`.
pub const TYPES_FREETDS_TXT: &str = include_str!("../vectors/tds/pcap/types.freetds_tsql.txt");
/// tedious's decode of pytds's line-389 login response.
pub const L389_TEDIOUS_JSON: &str =
    include_str!("../vectors/tds/pcap/pytds_login_L389.tedious.json");
/// A SELECT response in two packets and two TCP segments.
pub const DEMO_PCAP: &[u8] = include_bytes!("../vectors/tds/pcap/demo.pcap");
/// `TYPES_TOKENS_HEX` in a packet.
pub const TYPES_PCAP: &[u8] = include_bytes!("../vectors/tds/pcap/types.pcap");
/// pytds's three login responses.
pub const PYTDS_LOGIN_PCAP: &[u8] = include_bytes!("../vectors/tds/pcap/pytds_login.pcap");

/// `vectors.json` records leanwire does not model, by index, with the
/// reason. They are still run as far as they go (see `check_record`).
pub const OUT_OF_SCOPE: &[(usize, &str)] = &[
    // PRELOGIN replies are an option table (type, offset, length entries),
    // not a token stream: leanwire has no PRELOGIN codec. Their packet
    // framing is checked; their payload is not decoded.
    (
        104,
        "PRELOGIN reply payload (option table) is not a token stream",
    ),
    (
        108,
        "PRELOGIN reply payload (option table) is not a token stream",
    ),
];

/// `vectors.json` records where leanwire disagrees with the expectation on
/// purpose, by index, with what leanwire does instead.
pub const DELIBERATELY_DIFFERENT: &[(usize, &str)] = &[
    // tedious's `createDbChangeBuffer` writes the ENVCHANGE length into a
    // copy of its buffer (`buffer.data.writeUInt16LE`), so the bytes carry
    // Length = 0 ahead of a 15-byte body; tedious reads by fields and never
    // looks. leanwire trusts Length (it is what lets a reader skip unknown
    // types, and SqlClient does the same) and reports the mismatch.
    (43, "ENVCHANGE Length 0 with a 15-byte body: LengthMismatch"),
    (44, "ENVCHANGE Length 0 with a 15-byte body: LengthMismatch"),
    (45, "ENVCHANGE Length 0 with a 15-byte body: LengthMismatch"),
];

/// Expected fields leanwire does not produce, with the reason.
pub const FIELDS_NOT_MODELED: &[(&str, &str)] = &[
    (
        "ntlmpacket",
        "leanwire hands SSPI blobs over as bytes (compared as ntlmpacketBuffer); it does not parse NTLM",
    ),
    ("$class", "tedious's class name"),
    ("name", "checked as the token type"),
];

pub fn hex(text: &str) -> Vec<u8> {
    leanwire_core::hex::decode(text)
        .collect::<Result<_, _>>()
        .expect("hex")
}

fn to_hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        write!(out, "{b:02x}").unwrap();
    }
    out
}

/// A token stream to read: COLMETADATA to feed first (whole), then the
/// bytes under test.
#[derive(Clone, Debug)]
pub struct Stream {
    pub name: String,
    pub version: TdsVersion,
    pub prime: Vec<u8>,
    pub bytes: Vec<u8>,
}

/// Everything read from a stream: one JSON object per event (values in a
/// tedious-like form), or the error that stopped it.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    pub events: Vec<Json>,
    pub error: Option<(ErrorKind, usize)>,
    /// The reader's state at the end, when it did not fail.
    pub finish: Option<(ErrorKind, usize)>,
}

/// The version tedious names `name` (`"7_2"`, `"7_3_B"`).
fn version_named(name: &str) -> TdsVersion {
    let name = name.replacen('_', ".", 1).replace('_', "");
    TdsVersion::from_name(&name).unwrap_or_else(|| panic!("unknown TDS version {name:?}"))
}

fn version_name(version: TdsVersion) -> &'static str {
    match version {
        TdsVersion::V7_1 | TdsVersion::V7_1Rev1 => "7_1",
        TdsVersion::V7_2 => "7_2",
        TdsVersion::V7_3A => "7_3_A",
        TdsVersion::V7_3B => "7_3_B",
        _ => "7_4",
    }
}

/// A value as JSON: its text, bytes, NULL-ness, and for dates and times
/// the UTC instant as tedious's `Date` (milliseconds) and
/// `nanosecondsDelta` (the rest, in seconds).
pub fn value_json(value: &Value<'_>) -> Json {
    let mut out = json!({
        "type": u8::from(value.type_info().data_type),
        "null": value.is_null(),
        "text": value.to_string(),
        "hex": to_hex(value.bytes().unwrap_or(&[])),
    });
    let instant = match value.get() {
        SqlValue::Date(d) => Some((format!("{d}T00:00:00.000Z"), 0.0)),
        SqlValue::DateTime(d) => Some((format!("{d}Z"), 0.0)),
        SqlValue::SmallDateTime(d) => Some((format!("{d}.000Z"), 0.0)),
        SqlValue::Time(t) => Some(tedious_time("1970-01-01", t)),
        SqlValue::DateTime2(d) => Some(tedious_time(&d.date.to_string(), d.time)),
        SqlValue::DateTimeOffset(d) => Some(tedious_time(&d.utc.date.to_string(), d.utc.time)),
        _ => None,
    };
    if let Some((utc, delta)) = instant {
        out["utc"] = json!(utc);
        out["delta"] = json!(delta);
    }
    out
}

/// tedious's reading of a time: whole milliseconds in the `Date`, the rest
/// (in seconds) as `nanosecondsDelta`.
fn tedious_time(date: &str, time: Time) -> (String, f64) {
    let ticks = time.nanoseconds() / 100; // 100 ns units
    let ms = ticks / 10_000;
    let rest = ticks % 10_000;
    let seconds = ms / 1000;
    let utc = format!(
        "{date}T{:02}:{:02}:{:02}.{:03}Z",
        seconds / 3600,
        seconds / 60 % 60,
        seconds % 60,
        ms % 1000
    );
    (utc, rest as f64 / 1e7)
}

/// A token as JSON, in tedious's field names where tedious has the token.
pub fn token_json(token: &Token<'_>) -> Json {
    match token {
        Token::ColMetadata(meta) => json!({
            "name": "COLMETADATA",
            "no_metadata": meta.no_metadata,
            "columns": meta.columns.iter().map(|c| {
                let ti = c.type_info;
                let mut column = json!({
                    "colName": c.name.to_string(),
                    "type": { "id": u8::from(ti.data_type) },
                    "userType": c.user_type,
                    "flags": c.flags.0,
                    "dataLength": ti.max_len,
                    "precision": ti.precision,
                    "scale": ti.scale,
                    "sql": ti.to_string(),
                    "table": c.table_name.iter().map(|p| p.to_string()).collect::<Vec<_>>(),
                });
                if let Some(collation) = ti.collation {
                    column["collation"] = json!({
                        "bytes": to_hex(&collation.to_bytes()),
                        "lcid": collation.lcid(),
                        "flags": collation.flags(),
                        "version": collation.version(),
                        "sortId": collation.sort_id,
                        "codepage": collation.code_page().to_string(),
                    });
                }
                column
            }).collect::<Vec<_>>(),
        }),
        Token::Done(done) => {
            let mut out = json!({
                "name": done.kind.token().to_string(),
                "status": done.status.0,
                "more": done.status.more(),
                "sqlError": done.status.error(),
                "attention": done.status.attention(),
                "serverError": done.status.server_error(),
                "curCmd": done.cur_cmd,
                "rows": done.rows,
            });
            if let Some(rows) = done.row_count() {
                out["rowCount"] = json!(rows);
            }
            out
        }
        Token::Error(m) | Token::Info(m) => json!({
            "name": if matches!(token, Token::Error(_)) { "ERROR" } else { "INFO" },
            "number": m.number,
            "state": m.state,
            "class": m.class,
            "message": m.text.to_string(),
            "serverName": m.server.to_string(),
            "procName": m.procedure.to_string(),
            "lineNumber": m.line,
        }),
        Token::EnvChange(change) => {
            let side = |v: &EnvValue<'_>| match v {
                EnvValue::Text(t) => json!(t.to_string()),
                EnvValue::Bytes(b) | EnvValue::Raw(b) => json!({ "hex": to_hex(b) }),
                EnvValue::Routing {
                    protocol,
                    port,
                    server,
                } => {
                    json!({ "protocol": protocol, "port": port, "server": server.to_string() })
                }
            };
            let mut out = json!({
                "name": "ENVCHANGE",
                "typeId": u8::from(change.kind),
                "type": change.kind.to_string(),
                "newValue": side(&change.new),
                "oldValue": side(&change.old),
            });
            if let Some(size) = change.packet_size() {
                out["packetSize"] = json!(size);
            }
            if let Some(c) = change.collation() {
                out["collation"] = json!({
                    "lcid": c.lcid(), "flags": c.flags(), "version": c.version(),
                    "sortId": c.sort_id, "codepage": c.code_page().to_string(),
                });
            }
            out
        }
        Token::LoginAck(ack) => json!({
            "name": "LOGINACK",
            "interface": ack.interface,
            "tdsVersion": ack.version().map(version_name),
            "tdsVersionWire": ack.tds_version,
            "progName": ack.prog_name.to_string(),
            "progVersion": {
                "major": ack.prog_version[0],
                "minor": ack.prog_version[1],
                "buildNumHi": ack.prog_version[2],
                "buildNumLow": ack.prog_version[3],
            },
        }),
        Token::ReturnStatus(status) => json!({ "name": "RETURNSTATUS", "value": status.0 }),
        Token::ReturnValue(rv) => json!({
            "name": "RETURNVALUE",
            "paramOrdinal": rv.ordinal,
            "paramName": rv.name.to_string(),
            "status": rv.status,
            "type": u8::from(rv.type_info.data_type),
        }),
        Token::Order(order) => json!({
            "name": "ORDER",
            "orderColumns": order.columns().collect::<Vec<_>>(),
        }),
        Token::FeatureExtAck(ack) => {
            let mut out = json!({
                "name": "FEATUREEXTACK",
                "features": ack.features().map(|f| json!({
                    "id": u8::from(f.id), "hex": to_hex(f.data),
                })).collect::<Vec<_>>(),
            });
            if let Some(data) = ack.get(FeatureId::FedAuth) {
                out["fedAuth"] = json!({ "hex": to_hex(data) });
            }
            if let Some(data) = ack.get(FeatureId::Utf8Support) {
                out["utf8Support"] = json!(data.first() == Some(&1));
            }
            out
        }
        Token::Sspi(sspi) => json!({
            "name": "SSPI",
            "ntlmpacketBuffer": { "hex": to_hex(sspi.data) },
        }),
        Token::FedAuthInfo(info) => json!({
            "name": "FEDAUTHINFO",
            "spn": info.spn().map(|s| s.to_string()),
            "stsurl": info.sts_url().map(|s| s.to_string()),
        }),
        Token::SessionState(state) => json!({
            "name": "SESSIONSTATE",
            "seqNo": state.seq_no,
            "status": state.status,
        }),
        Token::Raw { token, data } => json!({
            "name": token.to_string(),
            "hex": to_hex(data),
        }),
        _ => json!({ "name": "?" }),
    }
}

/// An event as JSON (see [`Run`]).
pub fn event_json(event: &Event<'_>) -> Json {
    match event {
        Event::ColMetadataStart { columns } => {
            json!({ "event": "colmetadata_start", "columns": columns })
        }
        Event::Token(token) => json!({ "event": "token", "token": token_json(token) }),
        Event::RowStart(kind) => json!({ "event": "row", "kind": kind.to_string() }),
        Event::Value { column, value, .. } => value_event_json(*column, value),
        Event::ValueStart {
            column,
            type_info,
            total,
        } => json!({
            "event": "start", "column": column, "total": total,
            "type": u8::from(type_info.data_type), "maxLen": type_info.max_len,
            "precision": type_info.precision, "scale": type_info.scale,
            "collation": type_info.collation.map(|c| to_hex(&c.to_bytes())),
        }),
        Event::ValueChunk { column, bytes } => {
            json!({ "event": "chunk", "column": column, "hex": to_hex(bytes) })
        }
        Event::ValueEnd { column } => json!({ "event": "end", "column": column }),
        Event::RowEnd => json!({ "event": "rowend" }),
        _ => json!({ "event": "?" }),
    }
}

/// The JSON of a value event: the value of column `column`, wherever its
/// bytes lie.
pub fn value_event_json(column: u16, value: &Value<'_>) -> Json {
    json!({ "event": "value", "column": column, "value": value_json(value) })
}

/// Reads `stream`: `prime` whole, then `bytes` in chunks of the sizes in
/// `chunks` (cycled; an empty list means one chunk), with a row buffer of
/// `buf_len` bytes.
pub fn read(stream: &Stream, chunks: &[usize], large: LargeValues, buf_len: usize) -> Run {
    read_rows(stream, chunks, large, buf_len, Rows::Events).0
}

/// How [`read_rows`] takes rows.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Rows {
    /// Only through `Reader::next`, an event at a time.
    Events,
    /// Through `Reader::whole_row` where it reads them, written down as
    /// the events `next` would have given.
    Whole,
}

/// [`read`], taking rows as `rows` says; also returns how many rows
/// `Reader::whole_row` read.
pub fn read_rows(
    stream: &Stream,
    chunks: &[usize],
    large: LargeValues,
    buf_len: usize,
    rows: Rows,
) -> (Run, usize) {
    let bump = Bump::new();
    let mut meta = Metadata::new(&bump);
    let mut reader = Reader::new(stream.version);
    reader.set_large_values(large);
    let mut buf = vec![0u8; buf_len];
    let mut whole_rows = 0;
    let mut run = Run {
        events: Vec::new(),
        error: None,
        finish: None,
    };
    let mut prime = &stream.prime[..];
    loop {
        match reader.next(&mut prime, &mut meta, &mut buf) {
            Ok(Status::Complete(_)) => {}
            Ok(Status::Partial) => break,
            Err(e) => {
                run.error = Some((e.kind(), e.offset()));
                return (run, whole_rows);
            }
        }
    }
    let base = stream.prime.len();
    let mut rest = &stream.bytes[..];
    let mut sizes = chunks.iter().copied().filter(|&n| n > 0).cycle();
    while !rest.is_empty() {
        let n = sizes.next().unwrap_or(rest.len()).min(rest.len());
        let (mut chunk, tail) = rest.split_at(n);
        rest = tail;
        loop {
            let before = chunk;
            if rows == Rows::Whole
                && let Some(row) = reader.whole_row(&mut chunk, &meta, &mut buf)
            {
                assert_eq!(row.sources().len(), row.len(), "a source per value");
                run.events.push(event_json(&Event::RowStart(row.kind())));
                let mut placed = Vec::new();
                for (column, (value, source)) in row.values().zip(row.sources()).enumerate() {
                    run.events.push(value_event_json(column as u16, &value));
                    let at = value.bytes().map(|b| b.as_ptr() as usize);
                    placed.push((value.bytes().map(<[u8]>::to_vec), at, source));
                }
                run.events.push(event_json(&Event::RowEnd));
                whole_rows += 1;
                for (value, at, source) in placed {
                    if source == Some(ValueSource::Inline) {
                        // Gathered into the reader: in neither the input nor the buffer.
                        let at = at.expect("an inline value has bytes");
                        let outside =
                            |within: &[u8]| !within.as_ptr_range().contains(&(at as *const u8));
                        assert!(
                            outside(before) && outside(&buf),
                            "an inline value is inside the reader"
                        );
                        assert!(value.as_ref().is_some_and(|v| v.len() <= GATHERED_ROW_LEN));
                        continue;
                    }
                    assert_eq!(
                        placed_bytes(source, value.as_deref(), before, &buf),
                        value,
                        "a whole row's value is where its source says"
                    );
                }
                continue;
            }
            match reader.next(&mut chunk, &mut meta, &mut buf) {
                Ok(Status::Complete(event)) => {
                    run.events.push(event_json(&event));
                    if let Event::Value { value, source, .. } = event {
                        let at = value.bytes().map(|b| (b.as_ptr() as usize, b.len()));
                        // Read after gathering, a row's values lie in the reader.
                        let inline = match rows {
                            Rows::Whole => GATHERED_ROW_LEN,
                            Rows::Events => INLINE_VALUE_LEN,
                        };
                        check_source(source, at, before, &buf, inline);
                    }
                }
                Ok(Status::Partial) => break,
                Err(e) => {
                    run.error = Some((e.kind(), e.offset() - base));
                    return (run, whole_rows);
                }
            }
        }
    }
    if let Err(e) = reader.finish() {
        run.finish = Some((e.kind(), e.offset() - base));
    }
    (run, whole_rows)
}

/// The bytes `source` points at, as long as `value`: in `chunk`, the input
/// the row was read from, or in `buf`; `None` for a NULL.
fn placed_bytes(
    source: Option<ValueSource>,
    value: Option<&[u8]>,
    chunk: &[u8],
    buf: &[u8],
) -> Option<Vec<u8>> {
    let (bytes, offset, len) = match (source?, value) {
        (ValueSource::Chunk { offset }, Some(value)) => (chunk, offset, value.len()),
        (ValueSource::Buffer { offset }, Some(value)) => (buf, offset, value.len()),
        (source, value) => panic!("{source:?} for a whole row's value {value:?}"),
    };
    Some(bytes[offset..offset + len].to_vec())
}

/// Checks that an event's value, whose bytes lie at address and length
/// `value`, is where its `source` says: borrowed from `chunk`, the input of
/// the call, or from `buf`, or at most `inline` bytes inside the reader.
fn check_source(
    source: Option<ValueSource>,
    value: Option<(usize, usize)>,
    chunk: &[u8],
    buf: &[u8],
    inline: usize,
) {
    let (within, offset, len) = match (source, value) {
        (None, None) => return,
        (Some(ValueSource::Chunk { offset }), Some((_, len))) => (chunk, offset, len),
        (Some(ValueSource::Buffer { offset }), Some((_, len))) => (buf, offset, len),
        (Some(ValueSource::Inline), Some((_, len))) => {
            assert!(len <= inline, "{len} bytes inline");
            return;
        }
        (source, value) => panic!("{source:?} for a value at {value:?}"),
    };
    let place = &within[offset..offset + len];
    // An empty value has no address to compare.
    if len > 0 {
        assert_eq!(
            value,
            Some((place.as_ptr() as usize, len)),
            "the value lies where {source:?} says"
        );
    }
}

/// Events grouped the way tedious reports them: rows as one object with
/// their values, streamed values joined and decoded.
pub fn group(events: &[Json]) -> Result<Vec<Json>, String> {
    let mut tokens = Vec::new();
    let mut row: Option<Json> = None;
    let mut stream: Option<(Json, Vec<u8>)> = None;
    for event in events {
        match event["event"].as_str().unwrap_or("") {
            // The COLMETADATA token that follows has the columns.
            "colmetadata_start" => {}
            "token" => tokens.push(event["token"].clone()),
            "row" => row = Some(json!({ "name": event["kind"], "columns": [] })),
            "value" => {
                let value = event["value"].clone();
                match row.as_mut() {
                    Some(row) => row["columns"].as_array_mut().unwrap().push(value),
                    None => tokens.push(json!({ "name": "RETURNVALUE.value", "value": value })),
                }
            }
            "start" => stream = Some((event.clone(), Vec::new())),
            "chunk" => match stream.as_mut() {
                Some((_, bytes)) => bytes.extend(hex(event["hex"].as_str().unwrap_or(""))),
                None => return Err("a chunk outside a streamed value".into()),
            },
            "end" => {
                let Some((start, bytes)) = stream.take() else {
                    return Err("an end outside a streamed value".into());
                };
                let value = streamed_value(&start, &bytes)?;
                match row.as_mut() {
                    Some(row) => row["columns"].as_array_mut().unwrap().push(value),
                    None => tokens.push(json!({ "name": "RETURNVALUE.value", "value": value })),
                }
            }
            "rowend" => tokens.extend(row.take()),
            other => return Err(format!("unknown event {other}")),
        }
    }
    if let Some(row) = row {
        tokens.push(json!({ "partial": row }));
    }
    Ok(tokens)
}

/// A streamed value's pieces, joined and decoded as the reader would have.
fn streamed_value(start: &Json, bytes: &[u8]) -> Result<Json, String> {
    use leanwire_core::tds::{Collation, DataType, TypeInfo};
    let mut ti = TypeInfo::new(DataType::from(start["type"].as_u64().unwrap_or(0) as u8));
    ti.max_len = start["maxLen"].as_u64().unwrap_or(0) as u32;
    ti.precision = start["precision"].as_u64().unwrap_or(0) as u8;
    ti.scale = start["scale"].as_u64().unwrap_or(0) as u8;
    ti.collation = start["collation"]
        .as_str()
        .map(|h| Collation::from_bytes(hex(h).try_into().unwrap_or([0; 5])));
    if let Some(total) = start["total"].as_u64()
        && total != bytes.len() as u64
    {
        return Err(format!("streamed {} bytes of {total}", bytes.len()));
    }
    let value = Value::new(ti, Some(bytes)).ok_or("streamed bytes do not decode")?;
    Ok(value_json(&value))
}

/// COLMETADATA for tedious's `colMetadata_before` descriptions.
pub fn colmetadata(columns: &[Json]) -> Vec<u8> {
    let mut out = vec![0x81];
    out.extend((columns.len() as u16).to_le_bytes());
    for (i, column) in columns.iter().enumerate() {
        let id = column["type"]["id"].as_u64().expect("type id") as u8;
        out.extend((column["userType"].as_u64().unwrap_or(0) as u32).to_le_bytes());
        out.extend((column["flags"].as_u64().unwrap_or(0) as u16).to_le_bytes());
        out.push(id);
        let len = column["dataLength"].as_u64();
        let collation = column["collation"]["bytes"]
            .as_str()
            .unwrap_or("0904d00034");
        match id {
            // IntN, FloatN, MoneyN, DateTimeN, BitN, UniqueIdentifier
            0x26 | 0x6d | 0x6e | 0x6f => out.push(len.unwrap_or(8) as u8),
            0x68 => out.push(1),
            0x24 => out.push(16),
            // NumericN, DecimalN
            0x6a | 0x6c => {
                let precision = column["precision"].as_u64().unwrap_or(18) as u8;
                let len = match precision {
                    1..=9 => 5,
                    10..=19 => 9,
                    20..=28 => 13,
                    _ => 17,
                };
                out.extend([len, precision, column["scale"].as_u64().unwrap_or(0) as u8]);
            }
            // Time, DateTime2, DateTimeOffset
            0x29..=0x2b => out.push(column["scale"].as_u64().unwrap_or(7) as u8),
            // VarChar, Char, NVarChar, NChar
            0xa7 | 0xaf | 0xe7 | 0xef => {
                out.extend((len.unwrap_or(8000) as u16).to_le_bytes());
                out.extend(hex(collation));
            }
            // VarBinary, Binary
            0xa5 | 0xad => out.extend((len.unwrap_or(8000) as u16).to_le_bytes()),
            _ => {}
        }
        let name = column["colName"]
            .as_str()
            .map(str::to_string)
            .unwrap_or_else(|| format!("col{i}"));
        let units: Vec<u16> = name.encode_utf16().collect();
        out.push(units.len() as u8);
        for unit in units {
            out.extend(unit.to_le_bytes());
        }
    }
    out
}

/// Compares one expected value (tedious's JSON) with one of ours.
fn compare_value(want: &Json, got: &Json) -> Result<(), String> {
    let text = got["text"].as_str().unwrap_or("");
    let ok = match want {
        Json::Null => got["null"] == json!(true),
        Json::Bool(b) => text == b.to_string(),
        Json::Number(n) => {
            let want = n.as_f64().unwrap_or(f64::NAN);
            let got: f64 = text.parse().unwrap_or(f64::NAN);
            // tedious computes money in floating point (high * 2^32 + low,
            // then / 10^4), which can land one unit in the last place away
            // from the exact value's nearest float.
            got == want || (got - want).abs() <= f64::EPSILON * want.abs()
        }
        Json::String(s) => text == s || (s.len() == 36 && text.eq_ignore_ascii_case(s)),
        Json::Object(o) => {
            if let Some(h) = o.get("$hex").or_else(|| o.get("hex")) {
                got["hex"] == *h && got["null"] == json!(false)
            } else if let Some(d) = o.get("$date").or_else(|| o.get("date")) {
                let delta = o
                    .get("nanosecondsDelta")
                    .and_then(Json::as_f64)
                    .unwrap_or(0.0);
                got["utc"] == *d && (got["delta"].as_f64().unwrap_or(-1.0) - delta).abs() < 1e-9
            } else {
                false
            }
        }
        Json::Array(_) => false,
    };
    if ok {
        Ok(())
    } else {
        Err(format!("value: want {want}, got {got}"))
    }
}

/// Compares an expected token (tedious's JSON) with ours: every field the
/// expectation has, in tedious's terms.
fn compare_token(want: &Json, got: &Json) -> Result<(), String> {
    let name = want["name"].as_str().unwrap_or("");
    let got_name = got["name"].as_str().unwrap_or("");
    let same_name = match name {
        "SSPICHALLENGE" => got_name == "SSPI",
        _ => got_name == name,
    };
    if !same_name {
        return Err(format!("token: want {name}, got {got_name}"));
    }
    let Some(fields) = want.as_object() else {
        return Err("expected token is not an object".into());
    };
    for (key, value) in fields {
        if FIELDS_NOT_MODELED.iter().any(|(field, _)| field == key) || key == "token" {
            continue;
        }
        let mismatch = |got: &Json| Err(format!("{name}.{key}: want {value}, got {got}"));
        match (name, key.as_str()) {
            ("ROW" | "NBCROW", "columns") => {
                let want = value.as_array().ok_or("columns")?;
                let got = got["columns"].as_array().ok_or("no columns")?;
                let count = fields.get("columns_count").and_then(Json::as_u64);
                match count {
                    Some(n) if got.len() as u64 != n => return mismatch(&json!(got.len())),
                    None if got.len() != want.len() => return mismatch(&json!(got.len())),
                    _ => {}
                }
                for (i, (w, g)) in want.iter().zip(got).enumerate() {
                    if w.get("...").is_some() {
                        break;
                    }
                    compare_value(&w["value"], g).map_err(|e| format!("{name} column {i}: {e}"))?;
                }
                if count.is_some() {
                    // The truncated list: column i holds i.to_string().
                    for (i, g) in got.iter().enumerate() {
                        if g["text"] != json!(i.to_string()) {
                            return Err(format!("{name} column {i}: got {g}"));
                        }
                    }
                }
            }
            ("COLMETADATA", "columns") => {
                let want = value.as_array().ok_or("columns")?;
                let got = got["columns"].as_array().ok_or("no columns")?;
                let count = fields.get("columns_count").and_then(Json::as_u64);
                if got.len() as u64 != count.unwrap_or(want.len() as u64) {
                    return mismatch(&json!(got.len()));
                }
                for (w, g) in want.iter().zip(got) {
                    if w.get("...").is_some() {
                        break;
                    }
                    compare_column(w, g)?;
                }
            }
            (_, "columns_count") => {}
            ("LOGINACK", "interface") => {
                let want = if value == "SQL_TSQL" {
                    json!(1)
                } else {
                    value.clone()
                };
                if got["interface"] != want {
                    return mismatch(&got["interface"]);
                }
            }
            ("ENVCHANGE", "type") => {
                let want = match value.as_str().unwrap_or("") {
                    "DATABASE" => "database",
                    "LANGUAGE" => "language",
                    "PACKET_SIZE" => "packet_size",
                    "SQL_COLLATION" => "collation",
                    other => other,
                };
                if got["type"] != want {
                    return mismatch(&got["type"]);
                }
            }
            ("ENVCHANGE", "newValue" | "oldValue") if got["type"] == "packet_size" => {
                let side = &got[key.as_str()];
                let n: Option<u64> = side.as_str().and_then(|s| s.parse().ok());
                if n != value.as_u64() {
                    return mismatch(side);
                }
            }
            ("ENVCHANGE", "newValue") if got["type"] == "collation" => {
                for (field, want) in value.as_object().ok_or("collation")? {
                    if got["collation"][field] != *want {
                        return mismatch(&got["collation"]);
                    }
                }
            }
            ("DONE" | "DONEPROC" | "DONEINPROC", "rowCount") => {
                if got["rowCount"] != *value {
                    return mismatch(&got["rowCount"]);
                }
            }
            ("SSPICHALLENGE", "ntlmpacketBuffer") => {
                let want = value.get("$hex").unwrap_or(&Json::Null);
                if got["ntlmpacketBuffer"]["hex"] != *want {
                    return mismatch(&got["ntlmpacketBuffer"]);
                }
            }
            (_, _) => {
                let got = &got[key.as_str()];
                let want = match value.get("$hex") {
                    Some(h) => json!({ "hex": h }),
                    None => value.clone(),
                };
                if *got != want {
                    return mismatch(got);
                }
            }
        }
    }
    // tedious leaves `rowCount` out when DONE_COUNT is clear.
    if name.starts_with("DONE") && got.get("rowCount").is_some() && want.get("rowCount").is_none() {
        return Err(format!("{name}: unexpected rowCount {}", got["rowCount"]));
    }
    Ok(())
}

fn compare_column(want: &Json, got: &Json) -> Result<(), String> {
    for (key, value) in want.as_object().ok_or("column")? {
        let ok = match key.as_str() {
            "type" => got["type"]["id"] == value["id"],
            "collation" => value
                .as_object()
                .ok_or("collation")?
                .iter()
                .all(|(k, v)| got["collation"][k] == *v),
            _ => got[key.as_str()] == *value,
        };
        if !ok {
            return Err(format!(
                "column {}: {key} want {value}, got {got}",
                want["colName"]
            ));
        }
    }
    Ok(())
}

/// Compares tokens: tedious leaves out ENVCHANGEs of types it does not
/// know (it skips them by Length), so those are dropped from ours first.
fn compare_tokens(want: &[Json], got: &[Json]) -> Result<(), String> {
    let got: Vec<&Json> = got
        .iter()
        .filter(|t| {
            !(t["name"] == "ENVCHANGE" && t["type"].as_str().is_some_and(|s| s.starts_with("0x")))
        })
        .collect();
    if want.len() != got.len() {
        return Err(format!(
            "want {} tokens, got {}: {got:?}",
            want.len(),
            got.len()
        ));
    }
    for (w, g) in want.iter().zip(got) {
        compare_token(w, g)?;
    }
    Ok(())
}

fn count(counts: &mut BTreeMap<String, usize>, tokens: &[Json]) {
    for token in tokens {
        let name = token["name"].as_str().unwrap_or("?").to_string();
        *counts.entry(name).or_default() += 1;
    }
}

/// The record's stream, as the token reader sees it.
pub fn record_stream(index: usize, record: &Json) -> Option<Stream> {
    let layer = record["layer"].as_str().unwrap_or("");
    let kind = record["token_or_type"].as_str().unwrap_or("");
    let name = format!("vectors.json #{index}");
    let options = &record["context"]["options"];
    let version = version_named(options["tdsVersion"].as_str().unwrap_or("7_4"));
    if layer.starts_with("token_stream") {
        let prime = match &record["context"]["colMetadata_before"] {
            Json::Array(columns) => colmetadata(columns),
            Json::Object(o) if o.contains_key("note") => {
                // "1024 columns; see test source": 1024 VarChar columns.
                let first = &o["first"][0];
                let columns: Vec<Json> = (0..1024)
                    .map(|i| {
                        let mut c = first.clone();
                        c["colName"] = json!(format!("col{i}"));
                        c
                    })
                    .collect();
                colmetadata(&columns)
            }
            _ => Vec::new(),
        };
        return Some(Stream {
            name,
            version,
            prime,
            bytes: hex(record["hex"].as_str()?),
        });
    }
    if layer.contains("TYPE_VARBYTE value") {
        let metadata = record["context"]["metadata"].clone();
        let mut bytes = vec![0xd1];
        bytes.extend(hex(record["hex"].as_str()?));
        return Some(Stream {
            name,
            version: TdsVersion::V7_4,
            prime: colmetadata(&[metadata]),
            bytes,
        });
    }
    if layer.starts_with("packet (") && !kind.starts_with("PRELOGIN") {
        return Some(Stream {
            name,
            version: TdsVersion::V7_4,
            prime: Vec::new(),
            bytes: deframe(&hex(record["hex"].as_str()?)).ok()?.0,
        });
    }
    None
}

/// Every token stream in the vectors (for the chunking and robustness
/// tests): each record's, the types stream, and the pcaps' responses.
pub fn all_streams() -> Vec<Stream> {
    let records: Vec<Json> = serde_json::from_str(VECTORS_JSON).expect("vectors.json");
    let mut streams: Vec<Stream> = records
        .iter()
        .enumerate()
        .filter_map(|(i, r)| record_stream(i, r))
        .collect();
    streams.push(Stream {
        name: "types_tokens.hex".into(),
        version: TdsVersion::V7_4,
        prime: Vec::new(),
        bytes: hex(TYPES_TOKENS_HEX),
    });
    streams.push(Stream {
        name: "wide_rows (built)".into(),
        version: TdsVersion::V7_4,
        prime: Vec::new(),
        bytes: wide_rows(),
    });
    streams.push(stream("joined_plp_values (built)", joined_plp_values()));
    for (name, pcap) in [
        ("demo.pcap", DEMO_PCAP),
        ("pytds_login.pcap", PYTDS_LOGIN_PCAP),
    ] {
        if let Ok((bytes, _)) = deframe(&server_bytes(pcap)) {
            streams.push(Stream {
                name: name.into(),
                version: TdsVersion::V7_4,
                prime: Vec::new(),
                bytes,
            });
        }
    }
    streams
}

/// A result set wider than the columns a reader keeps plans for: 34 INT4
/// columns, an NVARCHAR(10) and an INTN(4), then a ROW, an NBCROW whose
/// last two values are NULL, and a DONE [MS-TDS 2.2.7.4, 2.2.7.19, 2.2.7.15].
fn wide_rows() -> Vec<u8> {
    const INTS: u16 = 34;
    let name = |i: u16| -> Vec<u8> {
        let text: Vec<u16> = format!("c{i}").encode_utf16().collect();
        let mut out = vec![text.len() as u8];
        out.extend(text.iter().flat_map(|unit| unit.to_le_bytes()));
        out
    };
    let mut out = vec![0x81];
    out.extend((INTS + 2).to_le_bytes());
    for i in 0..INTS + 2 {
        out.extend([0, 0, 0, 0, 1, 0]); // UserType, Flags: fNullable
        match i {
            INTS => out.extend([0xe7, 20, 0, 0x09, 0x04, 0xd0, 0x00, 0x34]),
            i if i > INTS => out.extend([0x26, 4]),
            _ => out.push(0x38),
        }
        out.extend(name(i));
    }
    out.push(0xd1);
    for i in 0..i32::from(INTS) {
        out.extend((i * 1000 - 7).to_le_bytes());
    }
    out.extend([4, 0, b'h', 0, b'i', 0]);
    out.push(4);
    out.extend((-42i32).to_le_bytes());
    out.push(0xd2);
    out.extend([0, 0, 0, 0, 0b1100]);
    for i in 0..i32::from(INTS) {
        out.extend((-i).to_le_bytes());
    }
    out.push(0xfd);
    out.extend([0x10, 0, 0xc1, 0]);
    out.extend(2u64.to_le_bytes());
    out
}

/// Rows with more than one PLP value sent in several chunks, which a whole
/// row joins one after another in the caller's buffer: a VARBINARY(MAX),
/// an NVARCHAR(MAX) whose chunks split its UCS-2 units, an INT and another
/// VARBINARY(MAX); then a ROW whose NVARCHAR(MAX) is NULL and whose last
/// value has an unknown length [MS-TDS 2.2.5.2.3].
fn joined_plp_values() -> Vec<u8> {
    use build::{COLLATION, Tokens, plp, ucs2};
    let text = ucs2("héllo, wörld");
    let null = u64::MAX.to_le_bytes().to_vec();
    Tokens::new()
        .colmetadata(&[
            ("a", vec![0xa5, 0xff, 0xff]),
            ("b", [&[0xe7, 0xff, 0xff][..], &COLLATION].concat()),
            ("i", vec![0x38]),
            ("d", vec![0xa5, 0xff, 0xff]),
        ])
        .row(&[
            plp(Some(9), &[b"abc", b"defg", b"hi"]),
            plp(
                Some(text.len() as u64),
                &[&text[..3], &text[3..14], &text[14..]],
            ),
            7i32.to_le_bytes().to_vec(),
            plp(Some(5), &[b"vwxyz"]),
        ])
        .row(&[
            plp(None, &[b"one piece"]),
            null,
            (-7i32).to_le_bytes().to_vec(),
            plp(None, &[b"012", b"3456", b"789"]),
        ])
        .done(2)
        .0
}

/// A de-framed message: packet type, SPID, payload.
pub type Message = (u8, u16, Vec<u8>);

/// De-frames a byte stream: the joined payloads, and each message's
/// (packet type, spid, payload). Fed one byte at a time through
/// [`WholePackets`] with a 512-byte buffer (so a longer packet comes in
/// pieces), the stream must give the same, and every packet that fits the
/// buffer in one piece.
pub fn deframe(bytes: &[u8]) -> Result<(Vec<u8>, Vec<Message>), (ErrorKind, usize)> {
    let mut deframer = Deframer::new();
    let mut input = bytes;
    let mut whole = Messages::default();
    let whole = loop {
        match deframer.next(&mut input) {
            Ok(Status::Complete(piece)) => whole.add(&piece),
            Ok(Status::Partial) => break deframer.finish().map(|()| whole),
            Err(e) => break Err(e),
        }
    };
    const BUF_LEN: usize = 512;
    let mut buf = [0; BUF_LEN];
    let mut packets = WholePackets::new(&mut buf);
    let mut joined = Messages::default();
    let joined = 'stream: {
        for mut input in bytes.chunks(1) {
            loop {
                match packets.next(&mut input) {
                    Ok(Status::Complete(piece)) => {
                        let fits = piece.header.payload_len() <= BUF_LEN;
                        assert!(piece.packet_end || !fits, "a packet that fits, in pieces");
                        joined.add(&piece);
                    }
                    Ok(Status::Partial) => break,
                    Err(e) => break 'stream Err(e),
                }
            }
        }
        packets.finish().map(|()| joined)
    };
    assert_eq!(whole, joined, "WholePackets fed 1 byte at a time");
    let whole = whole.map_err(|e| (e.kind(), e.offset()))?;
    Ok((whole.all, whole.messages))
}

/// What [`deframe`] collects.
#[derive(Debug, Default, PartialEq)]
struct Messages {
    /// Every payload byte.
    all: Vec<u8>,
    /// The messages ended so far.
    messages: Vec<Message>,
    /// The payload of the message not ended yet.
    current: Vec<u8>,
}

impl Messages {
    fn add(&mut self, piece: &Payload<'_>) {
        self.all.extend_from_slice(piece.bytes);
        self.current.extend_from_slice(piece.bytes);
        if piece.message_end {
            let h = piece.header;
            let payload = std::mem::take(&mut self.current);
            self.messages
                .push((u8::from(h.packet_type), h.spid, payload));
        }
    }
}

/// The server-to-client TCP payload of a classic pcap with one
/// conversation (server port 1433), in order.
pub fn server_bytes(pcap: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut at = 24;
    while at + 16 <= pcap.len() {
        let len = u32::from_le_bytes(pcap[at + 8..at + 12].try_into().unwrap()) as usize;
        let frame = &pcap[at + 16..at + 16 + len];
        at += 16 + len;
        let ip = 14;
        let tcp = ip + usize::from(frame[ip] & 0x0f) * 4;
        let source_port = u16::from_be_bytes([frame[tcp], frame[tcp + 1]]);
        let data = tcp + usize::from(frame[tcp + 12] >> 4) * 4;
        if source_port == 1433 {
            out.extend_from_slice(&frame[data..]);
        }
    }
    out
}

/// Reads a stream whole, in assembled mode, and checks that every other
/// way of feeding it (one byte at a time, streamed large values) agrees.
fn read_checked(stream: &Stream) -> Result<Run, String> {
    let whole = read(stream, &[], LargeValues::Assemble, 1 << 16);
    let bytewise = read(stream, &[1], LargeValues::Assemble, 1 << 16);
    if bytewise != whole {
        return Err(format!("byte-at-a-time differs: {bytewise:?} vs {whole:?}"));
    }
    let streamed = read(stream, &[1], LargeValues::Stream, 1 << 16);
    let grouped = |run: &Run| group(&run.events).map(|t| (t, run.error, run.finish));
    if grouped(&streamed)? != grouped(&whole)? {
        return Err(format!("streamed differs: {streamed:?} vs {whole:?}"));
    }
    Ok(whole)
}

/// Checks one `vectors.json` record.
pub fn check_record(
    index: usize,
    record: &Json,
    counts: &mut BTreeMap<String, usize>,
) -> Result<(), String> {
    let layer = record["layer"].as_str().unwrap_or("");
    let kind = record["token_or_type"].as_str().unwrap_or("");
    let expected = &record["expected"];
    let bytes = hex(record["hex"].as_str().ok_or("no hex")?);

    if kind == "PACKET_HEADER" {
        let (header, rest) = PacketHeader::split(&bytes).map_err(|e| e.to_string())?;
        *counts.entry("PACKET_HEADER".into()).or_default() += 1;
        if let Some(text) = expected["text"].as_str() {
            return (header.to_string() == text)
                .then_some(())
                .ok_or(format!("header prints {header}"));
        }
        let got = json!({
            "type": u8::from(header.packet_type), "status": header.status.0,
            "eom": header.status.is_eom(), "length": header.length,
            "data_hex": to_hex(&rest[..header.payload_len().min(rest.len())]),
        });
        for (key, want) in expected.as_object().ok_or("expected")? {
            if got[key.as_str()] != *want {
                return Err(format!("{key}: want {want}, got {}", got[key.as_str()]));
            }
        }
        let mut out = [0xa5; 8];
        header.emit(&mut out);
        return (out[..] == bytes[..8])
            .then_some(())
            .ok_or("emit differs".into());
    }
    if kind == "PACKET_FRAMING" {
        *counts.entry("PACKET_FRAMING".into()).or_default() += 1;
        let (_, messages) = deframe(&bytes).map_err(|e| format!("{e:?}"))?;
        let want = expected["messages"].as_array().ok_or("messages")?;
        let got: Vec<Json> = messages
            .iter()
            .map(|(t, spid, payload)| {
                json!({ "type": t, "spid": spid, "payload_ascii": String::from_utf8_lossy(payload) })
            })
            .collect();
        return (got == *want)
            .then_some(())
            .ok_or(format!("messages {got:?}"));
    }
    if layer.starts_with("packet (") {
        return check_pytds(index, kind, expected, &bytes, counts);
    }

    let stream = record_stream(index, record).ok_or("no stream")?;
    let run = read_checked(&stream)?;
    // The chunking the record names, too.
    if let Some(sizes) = record["chunk_sizes"].as_array() {
        let sizes: Vec<usize> = sizes
            .iter()
            .filter_map(Json::as_u64)
            .map(|n| n as usize)
            .collect();
        if read(&stream, &sizes, LargeValues::Assemble, 1 << 16) != run {
            return Err("the record's own chunking differs".into());
        }
    }
    if let Some(&(_, why)) = DELIBERATELY_DIFFERENT.iter().find(|(i, _)| *i == index) {
        let site = Site::token(TokenType::EnvChange);
        return match run.error {
            Some((ErrorKind::LengthMismatch(s), 3)) if s == site => {
                *counts
                    .entry("ENVCHANGE (deliberate LengthMismatch)".into())
                    .or_default() += 1;
                Ok(())
            }
            other => Err(format!("{why}: got {other:?}")),
        };
    }

    if layer.contains("TYPE_VARBYTE value") {
        if let Some(e) = run.error.or(run.finish) {
            return Err(format!("error {e:?}"));
        }
        let tokens = group(&run.events)?;
        let row = tokens.first().ok_or("no row")?;
        let value = row["columns"].get(0).ok_or("no value")?;
        compare_value(&expected["value"], value)?;
        let end = expected["end_offset"].as_u64().unwrap_or(0) as usize;
        if end + 1 != stream.bytes.len() {
            return Err(format!("end offset {end} vs {}", stream.bytes.len() - 1));
        }
        let type_name = kind.split('(').next().unwrap_or("");
        *counts.entry(format!("value {type_name}")).or_default() += 1;
        return Ok(());
    }

    // A token stream with expected tokens or an expected error.
    let want_tokens = expected["tokens"].as_array().ok_or("no expected tokens")?;
    let tokens = group(&run.events)?;
    if let Some(error) = expected["error"].as_str() {
        // tedious: "Partially Length-prefixed Bytes unmatched lengths".
        let site = Site::column(TokenType::Row, 0);
        return match run.error {
            Some((ErrorKind::PlpLengthMismatch(s), _))
                if s == site && error.contains("unmatched lengths") =>
            {
                *counts.entry("ROW (expected error)".into()).or_default() += 1;
                Ok(())
            }
            other => Err(format!("want error {error:?}, got {other:?}")),
        };
    }
    if let Some(e) = run.error.or(run.finish) {
        return Err(format!("error {e:?}"));
    }
    compare_tokens(want_tokens, &tokens)?;
    count(counts, &tokens);
    Ok(())
}

/// The pytds packet records (104-111).
fn check_pytds(
    index: usize,
    kind: &str,
    expected: &Json,
    bytes: &[u8],
    counts: &mut BTreeMap<String, usize>,
) -> Result<(), String> {
    if kind == "TRUNCATED" {
        // The header promises 0x1AD bytes; 14 arrived. The de-framer wants
        // more, and the reader is inside the first ENVCHANGE.
        match deframe(bytes) {
            Err((ErrorKind::TruncatedPacket, 14)) => {}
            other => return Err(format!("deframe: {other:?}")),
        }
        let stream = Stream {
            name: "truncated".into(),
            version: TdsVersion::V7_4,
            prime: Vec::new(),
            bytes: bytes[8..].to_vec(),
        };
        let run = read_checked(&stream)?;
        let site = Site::token(TokenType::EnvChange);
        return match (run.events.len(), run.error, run.finish) {
            (0, None, Some((ErrorKind::UnexpectedEof(s), 6))) if s == site => {
                *counts.entry("TRUNCATED".into()).or_default() += 1;
                Ok(())
            }
            other => Err(format!("truncated: {other:?}")),
        };
    }
    let (payload, messages) = deframe(bytes).map_err(|e| format!("deframe {e:?}"))?;
    if messages.len() != 1 || messages[0].0 != 4 || payload.len() + 8 != bytes.len() {
        return Err(format!("framing: {messages:?}"));
    }
    if OUT_OF_SCOPE.iter().any(|(i, _)| *i == index) {
        *counts.entry("PRELOGIN (framing only)".into()).or_default() += 1;
        return Ok(());
    }
    let stream = Stream {
        name: format!("vectors.json #{index}"),
        version: TdsVersion::V7_4,
        prime: Vec::new(),
        bytes: payload,
    };
    let run = read_checked(&stream)?;
    let tokens = group(&run.events)?;
    match kind {
        "LOGINACK(bad version)" => {
            // pytds raises InterfaceError; leanwire cannot read by a version
            // it does not know. The LOGINACK token is at byte 329 of the
            // payload, its body at 332, and the version field at 333.
            return match run.error {
                Some((ErrorKind::UnsupportedVersion(0x650b_0003), 333)) => {
                    *counts.entry("LOGINACK (bad version)".into()).or_default() += 1;
                    Ok(())
                }
                other => Err(format!("bad version: {other:?}")),
            };
        }
        _ => {
            if let Some(e) = run.error.or(run.finish) {
                return Err(format!("error {e:?}"));
            }
        }
    }
    if let Some(decode) = expected["tshark_4.0.17_decode"].as_array() {
        compare_tshark(decode, &tokens)?;
    } else if kind.contains("FEATUREEXTACK") {
        let want: Vec<Json> = serde_json::from_str(L389_TEDIOUS_JSON).map_err(|e| e.to_string())?;
        compare_tokens(&want, &tokens)?;
    } else if kind == "ENVCHANGE(unknown type)" {
        // Record 105's tokens with the collation ENVCHANGE's type byte
        // changed to 0xAB: pytds skips it, leanwire keeps it raw (the
        // whole body after the type byte).
        let third = &tokens[2];
        if third["typeId"] != 0xab || third["newValue"]["hex"] != "05090400010000" {
            return Err(format!("unknown ENVCHANGE: {third}"));
        }
        if tokens.len() != 8 {
            return Err(format!("{} tokens", tokens.len()));
        }
    } else {
        return Err(format!("no check for {kind}"));
    }
    count(counts, &tokens);
    Ok(())
}

/// Compares with tshark 4.0.17's decode (pytds records 105 and 106).
fn compare_tshark(decode: &[Json], tokens: &[Json]) -> Result<(), String> {
    if decode.len() != tokens.len() {
        return Err(format!(
            "tshark: {} tokens, got {}",
            decode.len(),
            tokens.len()
        ));
    }
    for (want, got) in decode.iter().zip(tokens) {
        let name = want["token"].as_str().unwrap_or("");
        let mut checks: Vec<(Json, Json)> = vec![(json!(name), got["name"].clone())];
        let field = |k: &str| want[k].clone();
        match name {
            "ENVCHANGE" => {
                checks.push((field("type"), got["typeId"].clone()));
                if let Some(new) = want.get("new") {
                    checks.push((new.clone(), got["newValue"].clone()));
                    checks.push((field("old"), got["oldValue"].clone()));
                }
                if let Some(h) = want.get("new_collation_hex").or(want.get("new_hex")) {
                    checks.push((h.clone(), got["newValue"]["hex"].clone()));
                    let old = got["oldValue"]["hex"].as_str().unwrap_or("");
                    checks.push((field("old_len"), json!(old.len() / 2)));
                }
            }
            "INFO" => {
                for (t, ours) in [
                    ("number", "number"),
                    ("state", "state"),
                    ("class", "class"),
                    ("message", "message"),
                    ("server", "serverName"),
                    ("line", "lineNumber"),
                ] {
                    checks.push((field(t), got[ours].clone()));
                }
                if let Some(p) = want.get("proc") {
                    checks.push((p.clone(), got["procName"].clone()));
                }
            }
            "LOGINACK" => {
                checks.push((field("interface"), got["interface"].clone()));
                let wire = format!("0x{:08x}", got["tdsVersionWire"].as_u64().unwrap_or(0));
                let tds = want["tds_version"].as_str().unwrap_or("");
                checks.push((json!(tds.starts_with(&wire)), json!(true)));
                let prog = got["progName"]
                    .as_str()
                    .unwrap_or("")
                    .trim_end_matches('\0');
                checks.push((field("prog_name"), json!(prog)));
                let v = &got["progVersion"];
                let build = v["buildNumHi"].as_u64().unwrap_or(0) * 256
                    + v["buildNumLow"].as_u64().unwrap_or(0);
                checks.push((
                    field("prog_version"),
                    json!(format!("{}.{}.{build}", v["major"], v["minor"])),
                ));
            }
            "DONE" => {
                checks.push((field("status"), got["status"].clone()));
                checks.push((field("curcmd"), got["curCmd"].clone()));
                checks.push((field("rowcount"), got["rows"].clone()));
            }
            other => return Err(format!("tshark token {other}")),
        }
        for (w, g) in checks {
            if w != g {
                return Err(format!("tshark {name}: want {w}, got {g} in {got}"));
            }
        }
    }
    Ok(())
}

/// A pytds fixture: the same checks as its `vectors.json` record, found by
/// its bytes; the two PRELOGIN variants with no record are framing only.
pub fn check_fixture(
    fixture: &Json,
    records: &[Json],
    counts: &mut BTreeMap<String, usize>,
) -> Result<(), String> {
    let bytes = fixture["hex"].as_str().ok_or("hex")?;
    if hex(bytes).len() as u64 != fixture["len"].as_u64().unwrap_or(0) {
        return Err("length".into());
    }
    if let Some(i) = records.iter().position(|r| r["hex"] == bytes) {
        let mut ignored = BTreeMap::new();
        return check_record(i, &records[i], &mut ignored);
    }
    // PRELOGIN replies (lines 272, 283): out of scope like records 104 and
    // 108; one packet, EOM, its payload whole.
    let (payload, messages) = deframe(&hex(bytes)).map_err(|e| format!("{e:?}"))?;
    if messages.len() == 1
        && payload.len() + 8 == hex(bytes).len()
        && payload[..5] == [0, 0, 0x1a, 0, 6]
    {
        *counts.entry("PRELOGIN (framing only)".into()).or_default() += 1;
        return Ok(());
    }
    Err("fixture not found".into())
}

/// FreeTDS's `Mon DD YYYY HH:MMAM` for an ISO date-time.
fn freetds_date(iso: &str) -> String {
    let months = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let (date, time) = iso.split_once('T').unwrap_or((iso, "00:00"));
    let parts: Vec<u32> = date.split('-').filter_map(|p| p.parse().ok()).collect();
    let hm: Vec<u32> = time
        .split(':')
        .take(2)
        .filter_map(|p| p.parse().ok())
        .collect();
    let (h, m) = (
        hm.first().copied().unwrap_or(0),
        hm.get(1).copied().unwrap_or(0),
    );
    let (h12, ampm) = match h {
        0 => (12, "AM"),
        1..=11 => (h, "AM"),
        12 => (12, "PM"),
        _ => (h - 12, "PM"),
    };
    format!(
        "{} {:>2} {} {:02}:{:02}{ampm}",
        months[(parts[1] - 1) as usize],
        parts[2],
        parts[0],
        h12,
        m
    )
}

/// The types stream against tedious's decode and FreeTDS's printout, and
/// leanwire's own printed forms.
pub fn check_types(counts: &mut BTreeMap<String, usize>) -> Result<(), String> {
    let stream = Stream {
        name: "types_tokens.hex".into(),
        version: TdsVersion::V7_4,
        prime: Vec::new(),
        bytes: hex(TYPES_TOKENS_HEX),
    };
    let run = read_checked(&stream)?;
    if let Some(e) = run.error.or(run.finish) {
        return Err(format!("error {e:?}"));
    }
    let tokens = group(&run.events)?;
    let mut want: Vec<Json> =
        serde_json::from_str(TYPES_TEDIOUS_JSON).map_err(|e| e.to_string())?;
    // tedious's column entries name the type by name only; compare the rest.
    for column in want[0]["columns"].as_array_mut().ok_or("columns")? {
        let column = column.as_object_mut().ok_or("column")?;
        column.remove("type");
        if let Some(c) = column.get_mut("collation").and_then(Json::as_object_mut) {
            c.remove("codepage");
        }
    }
    compare_tokens(&want, &tokens)?;

    // leanwire's printed forms.
    let texts: Vec<&str> = tokens[1]["columns"]
        .as_array()
        .ok_or("row")?
        .iter()
        .map(|v| v["text"].as_str().unwrap_or(""))
        .collect();
    let printed = [
        "-1234567890123",
        "12345.6789",
        "6f9619ff-8b86-d011-b42d-00c04fc964ff",
        "2024-02-29",
        "13:14:15.1234567",
        "2024-02-29T13:14:15.456",
        "2024-02-29T08:14:15.1234567-05:00",
        "123.4567",
        "3.5",
        "true",
        "2024-02-29T12:00:00.000",
        "0x010203",
        "plp text",
        "7",
    ];
    if texts != printed {
        return Err(format!("printed {texts:?}"));
    }

    // FreeTDS tsql's rows: numbers and text as printed; dates in its
    // `Mon DD YYYY HH:MMAM` form (time alone on 1900-01-01, datetimeoffset
    // in local time); varbinary without 0x; bit as 1.
    let lines: Vec<&str> = TYPES_FREETDS_TXT.lines().collect();
    let row = lines
        .iter()
        .find(|l| l.starts_with("-1234567890123"))
        .ok_or("freetds row")?;
    let freetds: Vec<&str> = row.split('\t').collect();
    let ours: Vec<String> = printed
        .iter()
        .enumerate()
        .map(|(i, text)| match i {
            3 | 5 | 6 | 10 => freetds_date(text),
            4 => freetds_date(&format!("1900-01-01T{text}")),
            9 => "1".into(),
            11 => text.trim_start_matches("0x").into(),
            _ => text.to_string(),
        })
        .collect();
    for (i, (f, o)) in freetds.iter().zip(&ours).enumerate() {
        if !f.eq_ignore_ascii_case(o) {
            return Err(format!("FreeTDS column {i}: {f:?} vs {o:?}"));
        }
    }
    let nulls = lines
        .iter()
        .find(|l| l.starts_with("NULL"))
        .ok_or("freetds null row")?;
    let nbc: Vec<&str> = tokens[2]["columns"]
        .as_array()
        .ok_or("nbcrow")?
        .iter()
        .map(|v| v["text"].as_str().unwrap_or(""))
        .collect();
    if nulls.split('\t').collect::<Vec<_>>() != nbc {
        return Err(format!("FreeTDS NULL row vs {nbc:?}"));
    }
    count(counts, &tokens);
    Ok(())
}

/// The three pcaps: de-framed from their TCP payloads and read.
pub fn check_pcaps(counts: &mut BTreeMap<String, usize>) -> Result<(), String> {
    // demo.pcap, against tshark's decode (demo.tshark.txt in the shared set).
    let (payload, messages) = deframe(&server_bytes(DEMO_PCAP)).map_err(|e| format!("{e:?}"))?;
    if messages.len() != 1 {
        return Err(format!("demo: {} messages", messages.len()));
    }
    let stream = Stream {
        name: "demo.pcap".into(),
        version: TdsVersion::V7_4,
        prime: Vec::new(),
        bytes: payload,
    };
    let run = read_checked(&stream)?;
    let lines: Vec<String> = run
        .events
        .iter()
        .map(|e| match e["event"].as_str() {
            Some("token") => e["token"]["name"].as_str().unwrap_or("").to_string(),
            Some("value") => e["value"]["text"].as_str().unwrap_or("").to_string(),
            other => other.unwrap_or("").to_string(),
        })
        .collect();
    let want = [
        "colmetadata_start",
        "COLMETADATA",
        "row",
        "42",
        "hello",
        "rowend",
        "row",
        "-7",
        "NULL",
        "rowend",
        "DONE",
    ];
    if lines != want || run.error.is_some() || run.finish.is_some() {
        return Err(format!("demo: {lines:?}"));
    }
    let tokens = group(&run.events)?;
    let columns = &tokens[0]["columns"];
    if columns[0]["sql"] != "int" || columns[1]["sql"] != "nvarchar(50)" || columns[1]["flags"] != 9
    {
        return Err(format!("demo columns: {columns}"));
    }
    if tokens[3]["rowCount"] != 2 || tokens[3]["curCmd"] != 0xc1 {
        return Err(format!("demo DONE: {}", tokens[3]));
    }
    count(counts, &tokens);

    // types.pcap: the types stream in a packet.
    let (payload, _) = deframe(&server_bytes(TYPES_PCAP)).map_err(|e| format!("{e:?}"))?;
    if payload != hex(TYPES_TOKENS_HEX) {
        return Err("types.pcap payload differs from types_tokens.hex".into());
    }

    // pytds_login.pcap: pytds's lines 194, 196 and 389, one message each.
    let (_, messages) = deframe(&server_bytes(PYTDS_LOGIN_PCAP)).map_err(|e| format!("{e:?}"))?;
    let records: Vec<Json> = serde_json::from_str(VECTORS_JSON).map_err(|e| e.to_string())?;
    if messages.len() != 3 {
        return Err(format!("login: {} messages", messages.len()));
    }
    for ((_, _, payload), record) in messages.iter().zip([105, 106, 109]) {
        if hex(records[record]["hex"].as_str().unwrap_or(""))[8..] != payload[..] {
            return Err(format!("login message differs from record {record}"));
        }
    }
    Ok(())
}

/// Runs everything: (cases run, failures, tokens and values checked by type).
pub fn run_all_counted() -> (usize, Vec<String>, BTreeMap<String, usize>) {
    let mut failures = Vec::new();
    let mut counts = BTreeMap::new();
    let mut ran = 0;
    let records: Vec<Json> = serde_json::from_str(VECTORS_JSON).expect("vectors.json");
    for (i, record) in records.iter().enumerate() {
        ran += 1;
        if let Err(e) = check_record(i, record, &mut counts) {
            failures.push(format!("vectors.json #{i} ({}): {e}", record["test"]));
        }
    }
    let fixtures: Vec<Json> = serde_json::from_str(PYTDS_FIXTURES_JSON).expect("fixtures");
    for fixture in &fixtures {
        ran += 1;
        if let Err(e) = check_fixture(fixture, &records, &mut counts) {
            failures.push(format!("pytds fixture line {}: {e}", fixture["line"]));
        }
    }
    ran += 1;
    if let Err(e) = check_types(&mut counts) {
        failures.push(format!("types_tokens.hex: {e}"));
    }
    ran += 1;
    if let Err(e) = check_pcaps(&mut counts) {
        failures.push(format!("pcaps: {e}"));
    }
    (ran, failures, counts)
}

/// Runs everything: (cases run, failures).
pub fn run_all() -> (usize, Vec<String>) {
    let (ran, failures, _) = run_all_counted();
    (ran, failures)
}

/// Builders for hand-made token streams (hostile and coverage tests).
pub mod build {
    use std::vec::Vec;

    /// UCS-2LE bytes of `s`.
    pub fn ucs2(s: &str) -> Vec<u8> {
        s.encode_utf16().flat_map(u16::to_le_bytes).collect()
    }

    /// B_VARCHAR: a u8 character count and UCS-2.
    pub fn b_varchar(s: &str) -> Vec<u8> {
        let mut out = vec![s.encode_utf16().count() as u8];
        out.extend(ucs2(s));
        out
    }

    /// US_VARCHAR: a u16 character count and UCS-2.
    pub fn us_varchar(s: &str) -> Vec<u8> {
        let mut out = (s.encode_utf16().count() as u16).to_le_bytes().to_vec();
        out.extend(ucs2(s));
        out
    }

    /// A PLP value: the total (`None`: unknown length), the chunks, and
    /// the terminator.
    pub fn plp(total: Option<u64>, chunks: &[&[u8]]) -> Vec<u8> {
        let mut out = total.unwrap_or(u64::MAX - 1).to_le_bytes().to_vec();
        // An empty chunk would be the terminator.
        for chunk in chunks.iter().filter(|c| !c.is_empty()) {
            out.extend((chunk.len() as u32).to_le_bytes());
            out.extend_from_slice(chunk);
        }
        out.extend([0, 0, 0, 0]);
        out
    }

    /// A u16-length value.
    pub fn us_value(bytes: &[u8]) -> Vec<u8> {
        let mut out = (bytes.len() as u16).to_le_bytes().to_vec();
        out.extend_from_slice(bytes);
        out
    }

    /// A u8-length value.
    pub fn b_value(bytes: &[u8]) -> Vec<u8> {
        let mut out = vec![bytes.len() as u8];
        out.extend_from_slice(bytes);
        out
    }

    /// The collation every builder column uses: Latin1_General, CP1252.
    pub const COLLATION: [u8; 5] = [0x09, 0x04, 0xd0, 0x00, 0x34];

    /// A token stream, built token by token (7.2+ layouts).
    #[derive(Clone, Debug, Default)]
    pub struct Tokens(pub Vec<u8>);

    impl Tokens {
        pub fn new() -> Tokens {
            Tokens(Vec::new())
        }

        /// COLMETADATA: (name, TYPE_INFO from the type byte on, plus any
        /// table name), user type 0, flags "nullable".
        pub fn colmetadata(mut self, columns: &[(&str, Vec<u8>)]) -> Tokens {
            self.0.push(0x81);
            self.0.extend((columns.len() as u16).to_le_bytes());
            for (name, type_info) in columns {
                self.0.extend([0, 0, 0, 0, 1, 0]);
                self.0.extend(type_info);
                self.0.extend(b_varchar(name));
            }
            self
        }

        /// ROW: the values' TYPE_VARBYTE bytes, joined.
        pub fn row(mut self, values: &[Vec<u8>]) -> Tokens {
            self.0.push(0xd1);
            for value in values {
                self.0.extend(value);
            }
            self
        }

        /// NBCROW over `columns` columns, `nulls` NULL, then the other
        /// values' bytes.
        pub fn nbcrow(mut self, columns: usize, nulls: &[usize], values: &[Vec<u8>]) -> Tokens {
            self.0.push(0xd2);
            let mut bitmap = vec![0u8; columns.div_ceil(8)];
            for &i in nulls {
                bitmap[i / 8] |= 1 << (i % 8);
            }
            self.0.extend(bitmap);
            for value in values {
                self.0.extend(value);
            }
            self
        }

        /// DONE with a row count.
        pub fn done(mut self, rows: u64) -> Tokens {
            self.0.extend([0xfd, 0x10, 0, 0xc1, 0]);
            self.0.extend(rows.to_le_bytes());
            self
        }

        /// Any bytes.
        pub fn raw(mut self, bytes: &[u8]) -> Tokens {
            self.0.extend_from_slice(bytes);
            self
        }
    }
}

/// A hand-made stream.
pub fn stream(name: &str, bytes: Vec<u8>) -> Stream {
    Stream {
        name: name.into(),
        version: TdsVersion::V7_4,
        prime: Vec::new(),
        bytes,
    }
}

/// The events of `bytes` as printed lines (their `Display`), fed in chunks
/// of `chunk` bytes, with a 64 KiB row buffer; or the error.
pub fn lines(
    bytes: &[u8],
    chunk: usize,
    large: LargeValues,
) -> Result<Vec<String>, leanwire_core::tds::Error> {
    let bump = Bump::new();
    let mut meta = Metadata::new(&bump);
    let mut reader = Reader::new(TdsVersion::V7_4);
    reader.set_large_values(large);
    let mut buf = vec![0u8; 1 << 16];
    let mut out = Vec::new();
    for mut piece in bytes.chunks(chunk.max(1)) {
        while let Status::Complete(event) = reader.next(&mut piece, &mut meta, &mut buf)? {
            out.push(event.to_string());
        }
    }
    reader.finish()?;
    Ok(out)
}
