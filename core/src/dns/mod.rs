//! DNS messages: a zero-allocation codec [RFC 1035 and its successors].
//!
//! # The vocabulary
//! - [`Message`] is a checked view over a message's bytes. Its sections are
//!   iterated lazily; [`Question`]s and [`Record`]s borrow from the message.
//! - [`Name`] is a view of a (possibly compressed) name inside a message;
//!   [`NameBuf`] is the value type, a name written out in full, from text.
//! - [`RData`] is a record's typed RDATA, one type per file under `rdata`,
//!   each printing the presentation format that dig and dnspython print.
//! - [`MessageBuilder`] writes messages into a `&mut [u8]` or an arena
//!   vector, compressing names with a fixed-size table.
//! - [`Rtype`], [`Class`], [`Opcode`] and [`Rcode`] keep unknown code points.
//! - Errors are one small `Copy` type, [`Error`]: an [`ErrorKind`] and the
//!   byte offset where the message went wrong.
//!
//! Nothing here touches the heap.

mod builder;
mod class;
mod code;
mod edns;
mod error;
mod header;
mod message;
mod name;
mod opcode;
mod question;
mod rcode;
pub mod rdata;
mod record;
mod rtype;
mod text;

pub use builder::{Compress, EdnsParams, MessageBuilder, Section, Writer};
pub use class::Class;
pub use edns::Edns;
pub use error::{Error, ErrorKind, Result};
pub use header::{HEADER_LEN, Header};
pub use message::{Message, Questions, Records};
pub use name::{Labels, MAX_LABEL_LEN, MAX_NAME_LEN, Name, NameBuf};
pub use opcode::Opcode;
pub use question::Question;
pub use rcode::Rcode;
pub use rdata::RData;
pub use record::{DataText, Record};
pub use rtype::Rtype;
pub use text::TypeBitmap;
