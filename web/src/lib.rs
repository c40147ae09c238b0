//! WebAssembly bindings for [`leanwire_core`], published to npm as `leanwire`.
//!
//! This crate only converts: JavaScript values in, a `leanwire_core` call,
//! JavaScript values out. Errors cross to JavaScript as `Error` objects
//! through one helper, [`js_error`].
//!
//! ```js
//! import init, { parseActorPath } from "leanwire";
//! await init();
//! parseActorPath("akka.tcp://sys@host:2552/user/a#7").uid; // 7
//! ```
//!
//! The `peers` feature adds the parsers that the visualizer page compares
//! against. Only the page's own build turns it on.
#![warn(missing_docs)]

mod actor;
mod alloc;
mod bench;
mod dns;
#[cfg(feature = "peers")]
mod peers;
mod tds;

pub use actor::{check_actor_name, is_valid_path_element, parse_actor_path, split_name_and_uid};
pub use alloc::{AllocStats, alloc_stats, reset_alloc_stats};
pub use bench::{BenchmarkRun, TdsRun, benchmark, benchmark_tds};
pub use dns::{build_dns_query, decode_dns_message};
pub use tds::{TdsReader, decode_tds_js};

use wasm_bindgen::JsError;

/// Every error that crosses to JavaScript goes through here, as an `Error`
/// whose message is the Rust error's `Display`.
pub fn js_error(error: impl core::fmt::Display) -> JsError {
    JsError::new(&error.to_string())
}

/// A plain JavaScript object (or array, number, string, `null`) for `value`,
/// as `JSON.parse` of its `serde_json` text would give: `None` is `null`.
fn to_js<T: serde::Serialize + ?Sized>(value: &T) -> Result<wasm_bindgen::JsValue, JsError> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(js_error)
}

/// Reads the optional `dialect` argument: `"dotnet"` (the default) or `"jvm"`.
fn dialect(name: Option<String>) -> Result<leanwire_core::actor::Dialect, JsError> {
    match name.as_deref() {
        None => Ok(leanwire_core::actor::Dialect::DotNet),
        Some(name) => leanwire_core::actor::Dialect::from_name(name).ok_or_else(|| {
            js_error(format_args!(
                "unknown dialect {name:?}: use \"dotnet\" or \"jvm\""
            ))
        }),
    }
}
