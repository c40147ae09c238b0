//! The results that the `leanwire` command prints as JSON, one object per
//! input on one line, and that the npm package's debugging views return.
//!
//! Other tools read these, so their keys and the order of the keys are a
//! stable contract. Defining them once here keeps the faces identical: both
//! serialize them with `serde_json`.

mod actor;
mod dns;
mod tds;

pub use actor::{ActorPathReport, AddressReport, ElementReport};
pub use dns::{
    DnsHeaderReport, DnsMessageReport, EdnsOptionReport, EdnsReport, QuestionReport, RecordReport,
};
pub use tds::{
    ColumnReport, DecodeOptions, ErrorReport, JsonValue, TdsDecoder, TokenBody, TokenReport,
    decode_tds,
};
