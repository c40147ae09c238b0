//! Runs the Akka conformance vectors (`vectors/actorpath/cases.json`) against
//! `leanwire_core::actor`. Shared by the native test and the wasm tests, so
//! that every target runs exactly the same checks.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::string::{String, ToString};
use std::vec::Vec;

use bumpalo::Bump;
use leanwire_core::actor::{
    ActorPath, Address, Dialect, InvalidActorName, PathNode, PathView, check_actor_name,
    is_valid_path_element, relative_elements, wildcard_match,
};
use serde_json::Value;

/// The vectors, embedded so that every target reads the same bytes.
pub const CASES_JSON: &str = include_str!("../vectors/actorpath/cases.json");

/// Ops that this crate does not model, and why. Every other op must be known.
const OUT_OF_SCOPE: &[(&str, &str)] = &[
    // Resolving a selection needs a running actor system with guardians and children.
    ("selection_resolve", "needs a live actor system"),
    // An `ActorSelection` is an anchor actor plus a pattern, which also needs an actor system.
    ("selection_to_string", "needs a live actor system"),
    (
        "selection_to_serialization_format",
        "needs a live actor system",
    ),
    // Roots here are unnamed: Akka.NET ignores the root name when printing, and
    // leanwire's roots always print as `address/`.
    ("root_path_new", "root names are not modelled"),
];

/// The outcome of one run over the vectors.
#[derive(Default, Debug)]
pub struct Report {
    /// Per op: (passed, out of scope, total).
    pub per_op: BTreeMap<String, (usize, usize, usize)>,
    /// One line per case that did not give the expected result.
    pub failures: Vec<String>,
}

impl Report {
    /// The per-op counts as a table, one op per line.
    pub fn table(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{:<36} {:>7} {:>7} {:>7}",
            "op", "passed", "skipped", "total"
        );
        for (op, (passed, skipped, total)) in &self.per_op {
            let _ = writeln!(out, "{op:<36} {passed:>7} {skipped:>7} {total:>7}");
        }
        out
    }
}

/// Runs every case in `json`.
pub fn run(json: &str) -> Report {
    let cases: Vec<Value> = serde_json::from_str(json).expect("cases.json is a JSON array");
    let mut report = Report::default();
    for (i, case) in cases.iter().enumerate() {
        let op = case["op"].as_str().unwrap_or("<missing>").to_string();
        let counts = report.per_op.entry(op.clone()).or_default();
        counts.2 += 1;
        if OUT_OF_SCOPE.iter().any(|(o, _)| *o == op) {
            counts.1 += 1;
            continue;
        }
        match run_case(case) {
            Ok(()) => counts.0 += 1,
            Err(why) => report
                .failures
                .push(format!("case {i} ({op}, {}): {why}", case["input"])),
        }
    }
    report
}

type Outcome = Result<(), String>;

fn check<T: PartialEq + std::fmt::Debug>(what: &str, got: T, want: T) -> Outcome {
    if got == want {
        Ok(())
    } else {
        Err(format!("{what}: got {got:?}, want {want:?}"))
    }
}

fn run_case(case: &Value) -> Outcome {
    let dialect = match case["impl"].as_str() {
        Some("dotnet") => Dialect::DotNet,
        Some("jvm") => Dialect::Jvm,
        other => return Err(format!("unknown impl {other:?}")),
    };
    let input = &case["input"];
    let expect = &case["expect"];
    let bump = Bump::new();
    match case["op"].as_str().unwrap_or("") {
        "parse_path" => parse_path(dialect, input, expect, &case["derived"]),
        "parse_address" => parse_address(dialect, input, expect, &case["derived"]),
        "rebase" => rebase(dialect, input, expect),
        "is_valid_element" => check(
            "valid",
            is_valid_path_element(str_of(input)?, dialect),
            bool_of(expect)?,
        ),
        "check_actor_name" => check_name(dialect, input, expect, &case["derived"]),
        "to_string" => {
            let path = build(&bump, dialect, input)?;
            check("to_string", path.to_string(), str_of(expect)?.to_string())
        }
        "to_string_without_address" => {
            let path = build(&bump, dialect, input)?;
            check(
                "without",
                path.without_address().to_string(),
                str_of(expect)?.to_string(),
            )
        }
        "to_string_with_address" => {
            let path = build(&bump, dialect, input)?;
            let with = address_of(dialect, &input["with_address"])?;
            check(
                "with",
                path.with_address(&with).to_string(),
                str_of(expect)?.to_string(),
            )
        }
        "elements" => {
            let path = build(&bump, dialect, input)?;
            check(
                "elements",
                path.elements().collect::<Vec<_>>(),
                strs_of(expect)?,
            )
        }
        "elements_with_uid" => {
            let path = build(&bump, dialect, input)?;
            let got: Vec<String> = path.elements_with_uid().map(|e| e.to_string()).collect();
            check(
                "elements_with_uid",
                got,
                strs_of(expect)?.into_iter().map(String::from).collect(),
            )
        }
        "path_equals" => {
            let a = parse(str_of(&input["a"])?, dialect)?;
            let b = parse(str_of(&input["b"])?, dialect)?;
            check("equal", a == b, bool_of(expect)?)
        }
        "address_new" => {
            let a = address_of(dialect, input)?;
            let host = a.host().map(|h| h.to_string());
            check("host", host.as_deref(), expect["host"].as_str())
        }
        "address_sort" => {
            let mut addresses = strs_of(input)?
                .into_iter()
                .map(|s| Address::parse(s, dialect).map_err(|e| format!("{s}: {e}")))
                .collect::<Result<Vec<_>, _>>()?;
            addresses.sort_by(|a, b| a.cmp_host_port(b));
            let got: Vec<String> = addresses.iter().map(|a| a.to_string()).collect();
            check(
                "order",
                got,
                strs_of(expect)?.into_iter().map(String::from).collect(),
            )
        }
        "relative_actor_path" => {
            let got: Vec<String> = relative_elements(str_of(input)?, dialect)
                .map(|parts| parts.map(|p| p.to_string()).collect())
                .unwrap_or_default();
            check(
                "elements",
                got,
                strs_of(expect)?.into_iter().map(String::from).collect(),
            )
        }
        "wildcard_match" => check(
            "match",
            wildcard_match(str_of(&input["text"])?, str_of(&input["pattern"])?),
            bool_of(expect)?,
        ),
        "address_has_invalid_host_chars" => {
            let a = address_of(dialect, &input["address"])?;
            check("invalid", a.has_invalid_host_characters(), bool_of(expect)?)
        }
        "address_check_host_chars" => {
            let a = address_of(dialect, &input["address"])?;
            check(
                "ok",
                a.check_host_characters().is_ok(),
                expect["ok"].as_bool() == Some(true),
            )
        }
        other => Err(format!(
            "unknown op {other:?}: add it, or list it in OUT_OF_SCOPE with a reason"
        )),
    }
}

fn parse(input: &str, dialect: Dialect) -> Result<ActorPath<'_>, String> {
    ActorPath::parse(input, dialect).map_err(|e| format!("parse failed: {e}"))
}

fn parse_path(dialect: Dialect, input: &Value, expect: &Value, derived: &Value) -> Outcome {
    let text = match input {
        Value::String(s) => s.clone(),
        Value::Object(o) => {
            let g = &o["generate"];
            let fill =
                str_of(&g["repeat_char"])?.repeat(g["repeat_count"].as_u64().unwrap_or(0) as usize);
            format!("{}{fill}", str_of(&g["prefix"])?)
        }
        _ => return Err("unreadable input".into()),
    };
    let parsed = ActorPath::parse(&text, dialect);
    if expect == "error" {
        return match parsed {
            Err(_) => Ok(()),
            Ok(p) => Err(format!("parsed as {p}, want an error")),
        };
    }
    let path = parsed.map_err(|e| format!("parse failed: {e}"))?;
    for facts in [expect, derived] {
        let Some(facts) = facts.as_object() else {
            continue;
        };
        for (key, want) in facts {
            match key.as_str() {
                "ok" => check("ok", true, want.as_bool() == Some(true))?,
                "to_string" => check("to_string", path.to_string(), str_of(want)?.to_string())?,
                "to_serialization_format" => check(
                    "to_serialization_format",
                    path.serialization_format().to_string(),
                    str_of(want)?.to_string(),
                )?,
                "uid" => check("uid", path.uid().map(i64::from), want.as_i64())?,
                "elements" => check(
                    "elements",
                    path.elements().collect::<Vec<_>>(),
                    strs_of(want)?,
                )?,
                "address" => {
                    let a = path.address();
                    check(
                        "protocol",
                        a.protocol().to_string(),
                        str_of(&want["protocol"])?.to_string(),
                    )?;
                    check("system", a.system(), str_of(&want["system"])?)?;
                    if let Some(host) = want.get("host") {
                        check(
                            "host",
                            a.host().map(|h| h.to_string()),
                            host.as_str().map(String::from),
                        )?;
                    }
                    if let Some(port) = want.get("port") {
                        check("port", a.port().map(u64::from), port.as_u64())?;
                    }
                }
                "equals" => {
                    let bump = Bump::new();
                    let other = build(&bump, dialect, want)?;
                    check("equals", path == *other, true)?;
                    check("equals (reversed)", *other == path, true)?;
                }
                "name_length" => check(
                    "name length",
                    path.name().len() as u64,
                    want.as_u64().unwrap_or(0),
                )?,
                "name_all_chars" => {
                    let c = str_of(want)?;
                    check(
                        "name chars",
                        path.name().chars().all(|n| c.starts_with(n)),
                        true,
                    )?
                }
                "to_string_with_address" => {
                    let want = if want == "<input>" {
                        text.as_str()
                    } else {
                        str_of(want)?
                    };
                    check(
                        "to_string_with_address",
                        path.with_address(&path.address()).to_string(),
                        want.into(),
                    )?
                }
                other => return Err(format!("unknown expectation {other:?}")),
            }
        }
    }
    Ok(())
}

fn parse_address(dialect: Dialect, input: &Value, expect: &Value, derived: &Value) -> Outcome {
    let parsed = Address::split(str_of(input)?, dialect);
    if expect == "error" {
        return match parsed {
            Err(_) => Ok(()),
            Ok((a, _)) => Err(format!("parsed as {a}, want an error")),
        };
    }
    let (address, rest) = parsed.map_err(|e| format!("parse failed: {e}"))?;
    check(
        "to_string",
        address.to_string(),
        str_of(&expect["to_string"])?.to_string(),
    )?;
    // Akka.NET reports an empty remainder as the root path, "/".
    let rest = if rest.is_empty() { "/" } else { rest };
    check("absolute_uri", rest, str_of(&expect["absolute_uri"])?)?;
    if derived.is_object() {
        check("system", address.system(), str_of(&derived["system"])?)?;
        check(
            "host",
            address.host().map(|h| h.to_string()),
            derived["host"].as_str().map(String::from),
        )?;
        check(
            "port",
            address.port().map(u64::from),
            derived["port"].as_u64(),
        )?;
    }
    Ok(())
}

fn rebase(dialect: Dialect, input: &Value, expect: &Value) -> Outcome {
    let bump = Bump::new();
    let root_text = bump.alloc_str(str_of(&input["root"])?);
    let root = PathNode::parse(&bump, root_text, dialect);
    check(
        "root parses",
        root.is_ok(),
        expect["root_parse_ok"].as_bool() == Some(true),
    )?;
    let root = root.map_err(|e| e.to_string())?;
    check(
        "root to_string",
        root.to_string(),
        str_of(&expect["root_to_string"])?.to_string(),
    )?;
    let mut saved: BTreeMap<String, &PathNode<'_>> = BTreeMap::new();
    saved.insert("root".into(), root);
    let steps = input["steps"].as_array().ok_or("steps")?;
    for step in steps {
        let base = saved
            .get(str_of(&step["base"])?)
            .copied()
            .ok_or("unknown base")?;
        let uri = bump.alloc_str(str_of(&step["uri"])?);
        let node = base.join(&bump, uri).map_err(|e| e.to_string())?;
        if let Some(name) = step["expect_equals"].as_str() {
            check("equals", node == saved[name], true)?;
        }
        if let Some(want) = step["expect_to_string_with_address"].as_str() {
            check(
                "to_string_with_address",
                node.with_address(node.address()).to_string(),
                want.into(),
            )?;
        }
        if let Some(parents) = step["expect_parent_of"].as_object() {
            for (depth, name) in parents {
                let depth: isize = depth.parse().map_err(|_| "depth")?;
                check(
                    "parent_of",
                    node.parent_of(depth) == saved[str_of(name)?],
                    true,
                )?;
            }
        }
        if let Some(name) = step["save_as"].as_str() {
            saved.insert(name.into(), node);
        }
    }
    check(
        "all steps ok",
        true,
        expect["all_steps_ok"].as_bool() == Some(true),
    )
}

fn check_name(dialect: Dialect, input: &Value, expect: &Value, derived: &Value) -> Outcome {
    let result = match input {
        Value::Null => Err(InvalidActorName::null(dialect)),
        Value::String(s) => check_actor_name(s, dialect),
        _ => return Err("unreadable input".into()),
    };
    let message = match result {
        Ok(()) => return Err("accepted, want an error".into()),
        Err(e) => e.to_string(),
    };
    if let Some(part) = expect["message_contains"].as_str() {
        check(
            &format!("message {message:?} contains {part:?}"),
            message.contains(part),
            true,
        )?;
    }
    if let Some(part) = expect["message_contains_ci"].as_str() {
        let found = message.to_lowercase().contains(&part.to_lowercase());
        check(
            &format!("message {message:?} contains {part:?} (any case)"),
            found,
            true,
        )?;
    }
    if let (Some(want), Value::String(s)) = (derived["is_valid_element"].as_bool(), input) {
        check("valid", is_valid_path_element(s, dialect), want)?;
    }
    Ok(())
}

/// Builds the path `{address, elements | elements_appended}` in `bump`.
fn build<'b>(bump: &'b Bump, dialect: Dialect, spec: &Value) -> Result<&'b PathNode<'b>, String> {
    let address = address_of(dialect, &spec["address"])?;
    let address = Address::new(
        dialect,
        bump.alloc_str(&address.protocol().to_string()),
        bump.alloc_str(address.system()),
        address.host().map(|h| &*bump.alloc_str(h.raw())),
        address.port(),
    );
    let mut node = PathNode::new_root(bump, address).map_err(|e| e.to_string())?;
    let names = spec
        .get("elements")
        .or_else(|| spec.get("elements_appended"))
        .ok_or("no elements")?;
    for name in strs_of(names)? {
        node = node
            .child(bump, bump.alloc_str(name))
            .map_err(|e| e.to_string())?;
    }
    Ok(node)
}

fn address_of(dialect: Dialect, spec: &Value) -> Result<Address<'_>, String> {
    let port = match &spec["port"] {
        Value::Null => None,
        p => Some(
            p.as_u64()
                .and_then(|p| u32::try_from(p).ok())
                .ok_or("port")?,
        ),
    };
    Ok(Address::new(
        dialect,
        str_of(&spec["protocol"])?,
        str_of(&spec["system"])?,
        spec["host"].as_str(),
        port,
    ))
}

fn str_of(v: &Value) -> Result<&str, String> {
    v.as_str()
        .ok_or_else(|| format!("expected a string, got {v}"))
}

fn bool_of(v: &Value) -> Result<bool, String> {
    v.as_bool()
        .ok_or_else(|| format!("expected a bool, got {v}"))
}

fn strs_of(v: &Value) -> Result<Vec<&str>, String> {
    v.as_array()
        .ok_or("expected a list")?
        .iter()
        .map(str_of)
        .collect()
}
