//! `leanwire_core::actor` for JavaScript.

use js_sys::{Array, Object, Reflect};
use leanwire_core::actor::{self, ActorPath, InvalidActorName, PathView};
use wasm_bindgen::prelude::*;

use crate::{dialect, js_error};

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = r#"
/** What `parseActorPath` returns: the same keys as `leanwire actor parse`. */
export type ActorPathReport =
  | {
      input: string;
      ok: true;
      address: { protocol: string; system: string; host: string | null; port: number | null };
      elements: string[];
      uid: number | null;
      to_string: string;
      to_serialization_format: string;
    }
  | { input: string; ok: false; error: string };

/** What `checkActorName` returns: the same keys as `leanwire actor valid-element`. */
export type ActorNameReport = { input: string | null; ok: boolean; error?: string };

/** An actor name and the uid after its `#`, or null when it has none. */
export type NameAndUid = { name: string; uid: number | null };

/** `"dotnet"` (Akka.NET, the default) or `"jvm"` (Akka JVM and Pekko). */
export type Dialect = "dotnet" | "jvm";
"#;

/// Parses an actor path. Returns a plain object with exactly the keys that
/// `leanwire actor parse` prints; a bad path gives `ok: false` and an `error`
/// that names the defect and its byte offset.
#[wasm_bindgen(js_name = parseActorPath, unchecked_return_type = "ActorPathReport")]
pub fn parse_actor_path(
    input: &str,
    #[wasm_bindgen(js_name = dialect, unchecked_optional_param_type = "Dialect")]
    dialect_name: Option<String>,
) -> Result<JsValue, JsError> {
    let report = match ActorPath::parse(input, dialect(dialect_name)?) {
        Ok(path) => {
            let a = path.address();
            let address = object(&[
                ("protocol", a.protocol().to_string().into()),
                ("system", a.system().into()),
                ("host", nullable(a.host().map(|h| h.to_string()))),
                ("port", nullable(a.port())),
            ]);
            object(&[
                ("input", input.into()),
                ("ok", true.into()),
                ("address", address.into()),
                (
                    "elements",
                    path.elements().map(JsValue::from).collect::<Array>().into(),
                ),
                ("uid", nullable(path.uid())),
                ("to_string", path.to_string().into()),
                (
                    "to_serialization_format",
                    path.serialization_format().to_string().into(),
                ),
            ])
        }
        Err(e) => object(&[
            ("input", input.into()),
            ("ok", false.into()),
            ("error", e.to_string().into()),
        ]),
    };
    Ok(report.into())
}

/// Splits `name#uid` (Akka's `GetNameAndUid`). Throws on a uid that is not a
/// 32-bit integer.
#[wasm_bindgen(js_name = splitNameAndUid, unchecked_return_type = "NameAndUid")]
pub fn split_name_and_uid(
    input: &str,
    #[wasm_bindgen(js_name = dialect, unchecked_optional_param_type = "Dialect")]
    dialect_name: Option<String>,
) -> Result<JsValue, JsError> {
    let (name, uid) = actor::split_name_and_uid(input, dialect(dialect_name)?).map_err(js_error)?;
    Ok(object(&[("name", name.into()), ("uid", nullable(uid))]).into())
}

/// Whether `name` is a valid path element (`ActorPath.IsValidPathElement`).
#[wasm_bindgen(js_name = isValidPathElement)]
pub fn is_valid_path_element(
    name: &str,
    #[wasm_bindgen(js_name = dialect, unchecked_optional_param_type = "Dialect")]
    dialect_name: Option<String>,
) -> Result<bool, JsError> {
    Ok(actor::is_valid_path_element(name, dialect(dialect_name)?))
}

/// Checks an actor name as `ActorOf` does. Returns the keys that
/// `leanwire actor valid-element` prints, with Akka's own message on failure.
/// A `null` name is refused, as in Akka.
#[wasm_bindgen(js_name = checkActorName, unchecked_return_type = "ActorNameReport")]
pub fn check_actor_name(
    name: Option<String>,
    #[wasm_bindgen(js_name = dialect, unchecked_optional_param_type = "Dialect")]
    dialect_name: Option<String>,
) -> Result<JsValue, JsError> {
    let dialect = dialect(dialect_name)?;
    let result = match name.as_deref() {
        Some(name) => actor::check_actor_name(name, dialect),
        None => Err(InvalidActorName::null(dialect)),
    };
    let mut fields = vec![
        ("input", nullable(name.as_deref())),
        ("ok", result.is_ok().into()),
    ];
    if let Err(e) = result {
        fields.push(("error", e.to_string().into()));
    }
    Ok(object(&fields).into())
}

/// `null` for `None`, as JSON has it (`Option`'s own conversion gives `undefined`).
fn nullable<T: Into<JsValue>>(value: Option<T>) -> JsValue {
    value.map_or(JsValue::NULL, Into::into)
}

/// A plain object with `fields` set in order, so that `JSON.stringify` keeps it.
fn object(fields: &[(&str, JsValue)]) -> Object {
    let object = Object::new();
    for (key, value) in fields {
        // Setting a data property on a fresh plain object cannot fail.
        let _ = Reflect::set(&object, &JsValue::from_str(key), value);
    }
    object
}
