//! A drop-in for npm's dns-packet 5.6.1, read by the package's
//! `src/dns-packet/*.js`: whole messages, and each piece dns-packet exports,
//! decoded here into one tape per call.
//!
//! # Decoding
//! [`dns_packet_decode`] takes the caller's whole buffer (compression
//! pointers count from its start) and an offset. Its tape starts with the
//! byte count dns-packet reports as `decode.bytes`, then the item:
//!
//! | item | words |
//! |---|---|
//! | message | `id flags qdcount ancount nscount arcount`, the questions, then the records of the three sections |
//! | question | `name type class` |
//! | record | `name type`, then for OPT `udpPayloadSize extendedRcode ednsVersion flags` and the OPT data, else `class ttl` and the data of the type |
//!
//! A *name* or other string is two words, its `[start, end)` in the text
//! area in UTF-16 code units; *bytes* are two words, their `[start, end)` in
//! the caller's buffer, which JavaScript slices. The data of each type:
//!
//! | type | words |
//! |---|---|
//! | A, AAAA, NS, PTR, CNAME, DNAME | a string |
//! | SOA | `mname rname serial refresh retry expire minimum` |
//! | TXT | `count`, then bytes for each string |
//! | HINFO | `cpu os` |
//! | SRV | `priority weight port target` |
//! | CAA | `flags tag value` |
//! | MX | `preference exchange` |
//! | OPT | `count`, then each option: `code` and its bytes, then for code 8 `family sourcePrefixLength scopePrefixLength ip`, for 11 `hasTimeout timeout`, for 14 `count tags…` |
//! | DNSKEY | `flags algorithm key` |
//! | RRSIG | `typeCovered algorithm labels originalTTL expiration inception keyTag signersName signature` |
//! | RP | `mbox txt` |
//! | NSEC | `nextDomain count types…` |
//! | NSEC3 | `algorithm flags iterations salt nextDomain count types…` |
//! | DS | `keyTag algorithm digestType digest` |
//! | SSHFP | `algorithm hash fingerprint` |
//! | NAPTR | `order preference flags services regexp replacement` |
//! | TLSA | `usage selector matchingType certificate` |
//! | any other | the bytes |
//!
//! A failure's kind is one of [`decode::Fault`]'s; for `Range` the offset is
//! where the read started and the message its width.
//!
//! # Encoding
//! [`dns_packet_encode`] reads a tape that `src/dns-packet/encode.js`
//! flattens a packet into (see [`encode`]): the same words as the decode
//! tape, in the same order, except that
//! - strings and byte fields alike are byte ranges of the area after the
//!   tape, strings in UTF-8; A and AAAA data are their address bytes, an
//!   SSHFP fingerprint its bytes;
//! - a record has the number of its data's codec after its type (41 for
//!   OPT, 0 for `unknown`), since dns-packet picks the codec by mnemonic;
//! - an EDNS option is `code declaredLength data`, its data as dns-packet
//!   writes it and its length as dns-packet's `encodingLength` counts it.
//!
//! The bytes written are the text area, and the tape is dns-packet's
//! `encodingLength` of them, which differs from their length where
//! dns-packet's does (a name with a `\` in mail form, an empty name).
//!
//! # Core's codec first, dns-packet's order for the rest
//! A whole message at offset 0 is decoded by `leanwire_core::dns`
//! ([`checked`]): core checks it once, and the tape is written from core's
//! views and typed record data. Core is the stricter reader: it checks
//! every RDLENGTH against its type, allows only backward pointers, and
//! refuses trailing bytes. dns-packet reads leniently and in its own order
//! (A, MX, SOA and PTR data ignore RDLENGTH; after bad data its position
//! can become `NaN`), and a drop-in must give its values and throw its
//! errors there too. So what core refuses, and every piece decoded on its
//! own, is read by [`decode`], in dns-packet's order of reads.
//!
//! # Where the results differ from dns-packet
//! Only on malformed input. Where dns-packet reads past the end of the
//! buffer without a check (`buf[i]` is `undefined`, a slice is clamped) it
//! returns made-up values, such as `"192.0.undefined.undefined"` or a
//! shortened key, and a `decode.bytes` that may be `NaN`. This decode
//! follows it past such a record, so that it throws whatever dns-packet
//! throws later, and where dns-packet would return, it throws a
//! `RangeError`, `Record data runs past the end of the buffer`, instead.
//!
//! Names follow dns-packet's rules (a pointer must lead before the labels
//! being read; at most 254 bytes of labels), which differ from
//! `leanwire_core::dns::Name`'s, so that every malformed name fails with
//! dns-packet's message.
//!
//! Encoding writes the whole packet first and then copies it: into a
//! caller's buffer that is too small it throws `RangeError: offset is out
//! of bounds`, where dns-packet throws at its first checked write past the
//! end and drops its unchecked ones. Values out of range throw Node's own
//! `ERR_OUT_OF_RANGE` as dns-packet does, but a packet object missing a
//! field dns-packet reads may fail with a different `TypeError` message.

pub mod checked;
pub mod decode;
pub mod encode;
pub mod text;
pub mod written;

use wasm_bindgen::prelude::*;

use crate::shared::{Output, with_input};
use decode::{Decoder, Read};
use encode::Encoder;

/// What [`dns_packet_decode`] decodes.
#[derive(Copy, Clone)]
enum Item {
    Message,
    Question,
    Answer,
    Data(u16),
    Name { mail: bool },
    Option,
}

impl Item {
    fn from_code(code: u32, rtype: u32) -> Item {
        match code {
            1 => Item::Question,
            2 => Item::Answer,
            3 => Item::Data(rtype as u16),
            4 => Item::Name { mail: false },
            5 => Item::Name { mail: true },
            6 => Item::Option,
            _ => Item::Message,
        }
    }

    fn decode(self, decoder: &mut Decoder<'_, '_>, at: usize) -> Read<usize> {
        match self {
            Item::Message => decoder.message(at),
            Item::Question => decoder.question(at),
            Item::Answer => decoder.answer(at),
            Item::Data(rtype) => decoder.data(rtype, at),
            Item::Name { mail } => decoder.name(at, mail),
            Item::Option => decoder.option(at),
        }
    }
}

/// Decodes an item at `offset` of the `len` bytes in the input buffer:
/// `what` is 0 for a message, 1 a question, 2 a record, 3 the data of type
/// `rtype` (from its RDLENGTH on), 4 a name, 5 a name in mail form, 6 an
/// EDNS option. The tape is the byte count, then the item (see the module).
#[wasm_bindgen(js_name = dnsPacketDecode)]
pub fn dns_packet_decode(len: u32, offset: u32, what: u32, rtype: u32) -> i32 {
    with_input(len, |input, out| {
        decode_into(input, offset as usize, Item::from_code(what, rtype), out)
    })
}

fn decode_into(input: &[u8], at: usize, item: Item, out: &mut Output) -> i32 {
    out.push(0);
    let start = out.mark();
    let mut decoder = Decoder::new(input, out);
    if let (Item::Message, 0) = (item, at)
        && let Some(bytes) = checked::message(&mut decoder, input)
    {
        out.tape[0] = bytes as u32;
        return out.tape.len() as i32;
    }
    out.rewind(start);
    let mut decoder = Decoder::new(input, out);
    match item.decode(&mut decoder, at) {
        Ok(bytes) => {
            out.tape[0] = bytes as u32;
            out.tape.len() as i32
        }
        Err(fault) => {
            let (kind, offset, detail) = fault.parts();
            out.fail(format_args!("{kind}"), offset, detail)
        }
    }
}

/// Encodes the tape in the first `len` bytes of the input buffer (see
/// [`encode`]) as item `what` (numbered as for [`dns_packet_decode`]; 3 is
/// the data of type `codec`). The text area is the encoded bytes, the tape
/// dns-packet's `encodingLength`; returns the number of bytes.
#[wasm_bindgen(js_name = dnsPacketEncode)]
pub fn dns_packet_encode(len: u32, what: u32, codec: u32) -> i32 {
    with_input(len, |input, out| {
        let mut encoder = Encoder::new(input, &mut out.text);
        match Item::from_code(what, codec) {
            Item::Message => encoder.message(),
            Item::Question => encoder.question(),
            Item::Answer => encoder.answer(),
            Item::Data(codec) => encoder.data(codec),
            Item::Name { mail } => encoder.name(mail),
            Item::Option => encoder.option(),
        }
        let length = encoder.length;
        out.push(length as u32);
        out.text.len() as i32
    })
}
