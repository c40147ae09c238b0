//! `leanwire_core::actor` for JavaScript.

use leanwire_core::actor;
use leanwire_core::report::{ActorPathReport, ElementReport};
use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::{dialect, js_error, to_js};

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
    to_js(&ActorPathReport::parse(input, dialect(dialect_name)?))
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
    to_js(&NameAndUid { name, uid })
}

/// The object [`split_name_and_uid`] returns.
#[derive(Serialize)]
struct NameAndUid<'a> {
    name: &'a str,
    uid: Option<i32>,
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
    match name.as_deref() {
        Some(name) => to_js(&ElementReport::check(name, dialect)),
        None => to_js(&ElementReport::null(dialect)),
    }
}
