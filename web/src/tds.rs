//! `leanwire_core::tds` for JavaScript.

use leanwire_core::bumpalo::Bump;
use leanwire_core::report::{DecodeOptions, ErrorReport, TdsDecoder, TokenReport, decode_tds};
use leanwire_core::tds::TdsVersion;
use serde::Deserialize;
use wasm_bindgen::prelude::*;

use crate::{js_error, to_js};

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = r#"
/** One token of a TDS response, as `leanwire tds decode` prints it:
 *  `{ token: "ROW", values: [...] }`, `{ token: "DONE", status, curcmd, rowcount }`, ... */
export type TdsTokenReport = { token: string; [field: string]: unknown };

/** A decode failure: what was wrong and the offset in the token stream. */
export type TdsErrorReport = { error: string; offset: number };

/** Options of `TdsReader` and `decodeTds`. */
export type TdsOptions = {
  /** The input is a bare token stream, without 8-byte packet headers (default false). */
  tokensOnly?: boolean;
  /** Feed the decoder this many bytes at a time (decodeTds only; the result is the same). */
  chunk?: number;
  /** "7.1", "7.2", "7.3" or "7.4" (the default), until a LOGINACK says otherwise. */
  tdsVersion?: string;
};
"#;

/// The options object of [`TdsReader`] and [`decode_tds_js`].
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct Options {
    tokens_only: bool,
    chunk: usize,
    tds_version: Option<String>,
}

fn options(value: JsValue) -> Result<(DecodeOptions, usize), JsError> {
    let options: Options = if value.is_undefined() || value.is_null() {
        Options::default()
    } else {
        serde_wasm_bindgen::from_value(value).map_err(js_error)?
    };
    let version = match options.tds_version.as_deref() {
        None | Some("7.4") => TdsVersion::V7_4,
        Some("7.3") => TdsVersion::V7_3B,
        Some("7.2") => TdsVersion::V7_2,
        Some("7.1") => TdsVersion::V7_1,
        Some(other) => {
            return Err(js_error(format_args!(
                "unknown TDS version {other:?}: use 7.1, 7.2, 7.3 or 7.4"
            )));
        }
    };
    Ok((
        DecodeOptions {
            tokens_only: options.tokens_only,
            version,
        },
        options.chunk,
    ))
}

/// Decodes a server's TDS response: one report per token, in the shape of
/// `leanwire tds decode`'s lines; a decode error ends the list as
/// `{ error, offset }`.
#[wasm_bindgen(js_name = decodeTds, unchecked_return_type = "(TdsTokenReport | TdsErrorReport)[]")]
pub fn decode_tds_js(
    bytes: &[u8],
    #[wasm_bindgen(unchecked_optional_param_type = "TdsOptions")] options_value: JsValue,
) -> Result<JsValue, JsError> {
    let (options, chunk) = options(options_value)?;
    let (reports, error) = decode_tds(bytes, options, chunk);
    let mut lines: Vec<JsValue> = Vec::with_capacity(reports.len() + 1);
    for report in &reports {
        lines.push(to_js(report)?);
    }
    if let Some(error) = &error {
        lines.push(to_js(error)?);
    }
    Ok(lines.into_iter().collect::<js_sys::Array>().into())
}

self_cell::self_cell!(
    /// A decoder and the arena its column metadata lives in.
    struct Decoding {
        owner: Bump,
        #[not_covariant]
        dependent: TdsDecoder,
    }
);

/// Reads a TDS response fed in pieces: `feed` bytes as they arrive, then
/// call `next` until it returns `null`, which means it needs more bytes.
/// The reader resumes exactly where the last piece ended; nothing is read
/// twice.
#[wasm_bindgen]
pub struct TdsReader {
    decoding: Decoding,
    ready: Vec<TokenReport>,
    taken: usize,
    /// The error that stopped decoding, until `next` hands it out.
    error: Option<ErrorReport>,
    /// Decoding stopped; later pieces are ignored.
    failed: bool,
}

#[wasm_bindgen]
impl TdsReader {
    /// A reader; see `TdsOptions` (`chunk` does not apply).
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_optional_param_type = "TdsOptions")] options_value: JsValue,
    ) -> Result<TdsReader, JsError> {
        let (options, _) = options(options_value)?;
        let decoding = Decoding::new(Bump::new(), |bump| TdsDecoder::new(bump, options));
        Ok(TdsReader {
            decoding,
            ready: Vec::new(),
            taken: 0,
            error: None,
            failed: false,
        })
    }

    /// Takes in the next piece of the stream.
    pub fn feed(&mut self, bytes: &[u8]) {
        if self.failed {
            return;
        }
        if self.taken == self.ready.len() {
            self.ready.clear();
            self.taken = 0;
        }
        let ready = &mut self.ready;
        let result = self
            .decoding
            .with_dependent_mut(|_, decoder| decoder.feed(bytes, ready));
        if let Err(error) = result {
            self.error = Some(error);
            self.failed = true;
        }
    }

    /// The next token report, the error report once if decoding failed, or
    /// `null` when the bytes fed so far are used up.
    #[wasm_bindgen(js_name = next, unchecked_return_type = "TdsTokenReport | TdsErrorReport | null")]
    pub fn next_report(&mut self) -> Result<JsValue, JsError> {
        if let Some(report) = self.ready.get(self.taken) {
            self.taken += 1;
            return to_js(report);
        }
        match self.error.take() {
            Some(error) => to_js(&error),
            None => Ok(JsValue::NULL),
        }
    }

    /// Says the stream is over: throws if it ended inside a packet or a token.
    pub fn finish(&self) -> Result<(), JsError> {
        self.decoding
            .with_dependent(|_, decoder| decoder.finish())
            .map_err(|e| js_error(e.error))
    }
}
