//! Decoding through `leanwire_core::dns`: a message whose questions and
//! records core's codec accepts is read from core's views, and gives the
//! same tape as [`Decoder::message`] does.
//!
//! Core's codec is the stricter reader: every name checked, every RDLENGTH
//! inside the message and checked against its type's data. Where it accepts
//! a message, dns-packet reads the same fields from the same bytes, with four
//! exceptions that this module checks and declines: a DNSKEY protocol other
//! than 3 (dns-packet throws), an SSHFP fingerprint of another length than
//! its hash type's (dns-packet reads the hash type's length), an EDNS option
//! too short for the fields dns-packet reads from it, and a name whose
//! pointer leads into its own labels (dns-packet refuses it). Names are
//! written by [`Decoder::name`], which applies dns-packet's rules.

use leanwire_core::dns::rdata::EdnsOption;
use leanwire_core::dns::{HEADER_LEN, Header, Name, Question, RData, Record, Rtype, TypeBitmap};

use super::decode::{Decoder, option_code, rtype};
use super::text;

/// Decodes the message at the start of `buf` with core's codec, in one
/// pass, and writes the message's tape; returns the bytes it took, which
/// like dns-packet's count leave out any bytes after the last record.
/// `None` when core refuses a piece of it or dns-packet would read it
/// otherwise (see the module); the tape is then partly written, and the
/// caller decodes in dns-packet's order.
pub fn message(decoder: &mut Decoder<'_, '_>, buf: &[u8]) -> Option<usize> {
    let (header, _) = Header::split(buf).ok()?;
    let records = [header.ancount, header.nscount, header.arcount];
    decoder.push_all(&[
        header.id.into(),
        header.flags().into(),
        header.qdcount.into(),
        records[0].into(),
        records[1].into(),
        records[2].into(),
    ]);
    let mut pos = HEADER_LEN;
    for _ in 0..header.qdcount {
        let (question, next) = Question::parse(buf, pos).ok()?;
        name(decoder, &question.name, false)?;
        decoder.push_all(&[
            u16::from(question.qtype).into(),
            u16::from(question.qclass).into(),
        ]);
        pos = next;
    }
    for _ in 0..records.iter().map(|&count| u32::from(count)).sum::<u32>() {
        let (record, next) = Record::parse(buf, pos).ok()?;
        self::record(decoder, buf, &record)?;
        pos = next;
    }
    Some(pos)
}

/// A record: `name type`, then the OPT fields or `class ttl`, then the data.
fn record(decoder: &mut Decoder<'_, '_>, buf: &[u8], record: &Record<'_>) -> Option<()> {
    name(decoder, &record.name, false)?;
    let code = u16::from(record.rtype);
    let (class, ttl) = (record.class.into(), record.ttl);
    if record.rtype == Rtype::Opt {
        // OPT's class is its UDP payload size; its TTL, the extended
        // rcode, the EDNS version and the flags.
        decoder.push_all(&[
            code.into(),
            class,
            ttl >> 24,
            ttl >> 16 & 0xff,
            ttl & 0xffff,
        ]);
    } else {
        decoder.push_all(&[code.into(), class, ttl]);
    }
    if !rtype::TYPED.contains(&code) {
        bytes(decoder, buf, record.rdata());
        return Some(());
    }
    data(decoder, buf, record.data().ok()?)
}

/// The words of a record's data (see [`super`]).
fn data(decoder: &mut Decoder<'_, '_>, buf: &[u8], data: RData<'_>) -> Option<()> {
    match data {
        RData::A(a) => decoder.push_ascii(|s| text::ipv4(s, a.address.octets())),
        RData::Aaaa(aaaa) => decoder.push_ascii(|s| text::ipv6(s, aaaa.address.octets())),
        RData::Ns(ns) => name(decoder, &ns.nsdname, false)?,
        RData::Cname(cname) => name(decoder, &cname.cname, false)?,
        RData::Ptr(ptr) => name(decoder, &ptr.ptrdname, false)?,
        RData::Dname(dname) => name(decoder, &dname.target, false)?,
        RData::Soa(soa) => {
            name(decoder, &soa.mname, false)?;
            name(decoder, &soa.rname, true)?;
            for value in [soa.serial, soa.refresh, soa.retry, soa.expire, soa.minimum] {
                decoder.push(value);
            }
        }
        RData::Txt(txt) => {
            let count = decoder.push_slot();
            let mut n = 0;
            for string in txt.strings() {
                bytes(decoder, buf, string);
                n += 1;
            }
            decoder.set(count, n);
        }
        RData::Hinfo(hinfo) => {
            string(decoder, hinfo.cpu);
            string(decoder, hinfo.os);
        }
        RData::Srv(srv) => {
            for value in [srv.priority, srv.weight, srv.port] {
                push_u16(decoder, value);
            }
            name(decoder, &srv.target, false)?;
        }
        RData::Caa(caa) => {
            decoder.push(caa.flags.into());
            string(decoder, caa.tag);
            string(decoder, caa.value);
        }
        RData::Mx(mx) => {
            push_u16(decoder, mx.preference);
            name(decoder, &mx.exchange, false)?;
        }
        RData::Opt(opt) => options(decoder, buf, opt.as_bytes())?,
        RData::Dnskey(key) => {
            if key.protocol != 3 {
                return None;
            }
            push_u16(decoder, key.flags);
            decoder.push(key.algorithm.into());
            bytes(decoder, buf, key.public_key);
        }
        RData::Rrsig(sig) => {
            push_u16(decoder, u16::from(sig.type_covered));
            decoder.push(sig.algorithm.into());
            decoder.push(sig.labels.into());
            for value in [sig.original_ttl, sig.expiration, sig.inception] {
                decoder.push(value);
            }
            push_u16(decoder, sig.key_tag);
            name(decoder, &sig.signer_name, false)?;
            bytes(decoder, buf, sig.signature);
        }
        RData::Rp(rp) => {
            name(decoder, &rp.mbox, true)?;
            name(decoder, &rp.txt, false)?;
        }
        RData::Nsec(nsec) => {
            name(decoder, &nsec.next_domain, false)?;
            types(decoder, nsec.types);
        }
        RData::Nsec3(nsec3) => {
            decoder.push(nsec3.hash_algorithm.into());
            decoder.push(nsec3.flags.into());
            push_u16(decoder, nsec3.iterations);
            bytes(decoder, buf, nsec3.salt);
            bytes(decoder, buf, nsec3.next_hashed_owner);
            types(decoder, nsec3.types);
        }
        RData::Ds(ds) => {
            push_u16(decoder, ds.key_tag);
            decoder.push(ds.algorithm.into());
            decoder.push(ds.digest_type.into());
            bytes(decoder, buf, ds.digest);
        }
        RData::Sshfp(sshfp) => {
            let expected = match sshfp.fingerprint_type {
                1 => 20,
                2 => 32,
                _ => return None,
            };
            if sshfp.fingerprint.len() != expected {
                return None;
            }
            decoder.push(sshfp.algorithm.into());
            decoder.push(sshfp.fingerprint_type.into());
            decoder.push_ascii(|s| text::upper_hex(s, sshfp.fingerprint));
        }
        RData::Naptr(naptr) => {
            push_u16(decoder, naptr.order);
            push_u16(decoder, naptr.preference);
            for field in [naptr.flags, naptr.services, naptr.regexp] {
                string(decoder, field);
            }
            name(decoder, &naptr.replacement, false)?;
        }
        RData::Tlsa(tlsa) => {
            decoder.push(tlsa.usage.into());
            decoder.push(tlsa.selector.into());
            decoder.push(tlsa.matching_type.into());
            bytes(decoder, buf, tlsa.data);
        }
        RData::Unknown(unknown) => bytes(decoder, buf, unknown.data),
        _ => return None,
    }
    Some(())
}

/// `count`, then each option: `code` and its bytes, then for
/// CLIENT_SUBNET `family sourcePrefixLength scopePrefixLength ip`, for
/// TCP_KEEPALIVE `hasTimeout timeout`, for KEY_TAG `count tags…`.
fn options(decoder: &mut Decoder<'_, '_>, buf: &[u8], options: &[u8]) -> Option<()> {
    let base = range(buf, options).0;
    let mut count = 0;
    let count_at = decoder.push_slot();
    let mut pos = 0;
    while pos < options.len() {
        let (option, next) = EdnsOption::split(options, pos).ok()?;
        let data = &options[pos + 4..next];
        decoder.push(option.code().into());
        decoder.push_bytes(base + pos + 4, base + next);
        match option {
            EdnsOption::ClientSubnet {
                family,
                source_prefix,
                scope_prefix,
                address,
            } => {
                decoder.push(family.into());
                decoder.push(source_prefix.into());
                decoder.push(scope_prefix.into());
                let mut padded = [0u8; 16];
                padded[..address.len()].copy_from_slice(address);
                if family == 1 {
                    let octets = [padded[0], padded[1], padded[2], padded[3]];
                    decoder.push_ascii(|s| text::ipv4(s, octets));
                } else {
                    decoder.push_ascii(|s| text::ipv6(s, padded));
                }
            }
            _ if option.code() == option_code::TCP_KEEPALIVE => {
                let timeout = match *data {
                    [] => None,
                    [high, low, ..] => Some(u16::from_be_bytes([high, low])),
                    [_] => return None,
                };
                decoder.push(timeout.is_some().into());
                push_u16(decoder, timeout.unwrap_or(0));
            }
            _ if option.code() == option_code::KEY_TAG => {
                if !data.len().is_multiple_of(2) {
                    return None;
                }
                decoder.push((data.len() / 2) as u32);
                for tag in data.chunks_exact(2) {
                    decoder.push(u16::from_be_bytes([tag[0], tag[1]]).into());
                }
            }
            _ => {}
        }
        count += 1;
        pos = next;
    }
    decoder.set(count_at, count);
    Some(())
}

/// `count types…`.
fn types(decoder: &mut Decoder<'_, '_>, bitmap: TypeBitmap<'_>) {
    let count = decoder.push_slot();
    let mut n = 0;
    for rtype in bitmap.types() {
        push_u16(decoder, rtype.into());
        n += 1;
    }
    decoder.set(count, n);
}

fn push_u16(decoder: &mut Decoder<'_, '_>, value: u16) {
    decoder.push(value.into());
}

/// Pushes where `part`, a slice of `buf`, lies in it.
fn bytes(decoder: &mut Decoder<'_, '_>, buf: &[u8], part: &[u8]) {
    let (start, end) = range(buf, part);
    decoder.push_bytes(start, end);
}

/// A `<character-string>`'s text, decoded as dns-packet decodes it.
fn string(decoder: &mut Decoder<'_, '_>, bytes: &[u8]) {
    decoder.push_text(bytes);
}

/// A name's text by dns-packet's rules, which refuse some pointers core
/// allows (one that leads into the labels it follows).
fn name(decoder: &mut Decoder<'_, '_>, name: &Name<'_>, mail: bool) -> Option<()> {
    decoder.name(name.offset(), mail).ok().map(drop)
}

/// Where `part`, a slice of `buf`, lies in it.
fn range(buf: &[u8], part: &[u8]) -> (usize, usize) {
    let start = part.as_ptr() as usize - buf.as_ptr() as usize;
    (start, start + part.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shared::Output;
    use leanwire_core::dns::NameBuf;

    /// The tape and text of core's decode, if it takes the message.
    fn through_core(buf: &[u8]) -> Option<(usize, Vec<u32>, Vec<u8>)> {
        let mut out = Output::new();
        let bytes = message(&mut Decoder::new(buf, &mut out), buf)?;
        Some((bytes, out.tape, out.text))
    }

    /// The tape and text of the decode in dns-packet's order.
    fn in_dns_packet_order(buf: &[u8]) -> Option<(usize, Vec<u32>, Vec<u8>)> {
        let mut out = Output::new();
        let bytes = Decoder::new(buf, &mut out).message(0).ok()?;
        Some((bytes, out.tape, out.text))
    }

    #[test]
    fn core_takes_the_vectors_and_reads_them_as_dns_packet_does() {
        let vectors = crate::vectors::dns_messages();
        let mut taken = 0;
        for buf in &vectors {
            if let Some(core) = through_core(buf) {
                assert_eq!(Some(core), in_dns_packet_order(buf), "{buf:02x?}");
                taken += 1;
            }
            // Bytes after the last record are left out of the count.
            let padded = [&buf[..], b"\0\x01\xff"].concat();
            assert_eq!(through_core(&padded), in_dns_packet_order(&padded));
        }
        // Core refuses only the vectors that break its rules.
        assert!(
            taken * 10 >= vectors.len() * 9,
            "{taken} of {}",
            vectors.len()
        );
    }

    #[test]
    fn where_core_takes_a_corrupted_message_dns_packet_reads_the_same() {
        let mut compared = 0;
        for buf in crate::vectors::dns_messages() {
            for at in 0..buf.len() {
                for flip in [0x01, 0x40, 0x80, 0xff] {
                    let mut corrupt = buf.clone();
                    corrupt[at] ^= flip;
                    if let Some(core) = through_core(&corrupt) {
                        assert_eq!(
                            Some(core),
                            in_dns_packet_order(&corrupt),
                            "byte {at} ^ {flip:#04x} of {buf:02x?}"
                        );
                        compared += 1;
                    }
                }
            }
        }
        assert!(compared > 1000, "{compared}");
    }

    /// `name` in wire form, uncompressed.
    fn wire(name: &str) -> Vec<u8> {
        NameBuf::from_text(name).unwrap().as_bytes().to_vec()
    }

    /// A `<character-string>`.
    fn string(text: &[u8]) -> Vec<u8> {
        [&[text.len() as u8][..], text].concat()
    }

    /// A response to `example.com. IN rtype` with one answer of that type
    /// holding `rdata`, its owner a pointer to the question's name.
    fn with_answer(rtype: u16, rdata: &[u8]) -> Vec<u8> {
        let mut m = vec![0x12, 0x34, 0x81, 0x80, 0, 1, 0, 1, 0, 0, 0, 0];
        m.extend(wire("example.com."));
        m.extend(rtype.to_be_bytes());
        m.extend([0, 1, 0xc0, 12]);
        m.extend(rtype.to_be_bytes());
        m.extend([0, 1, 0, 0, 0x0e, 0x10]);
        m.extend((rdata.len() as u16).to_be_bytes());
        m.extend_from_slice(rdata);
        m
    }

    #[test]
    fn core_takes_the_types_the_vectors_lack_and_reads_them_as_dns_packet_does() {
        let hash = [0x5a; 20];
        let cases: [(&str, u16, Vec<u8>); 8] = [
            ("DNAME", 39, wire("frobozz-division.acme.example.")),
            ("HINFO", 13, [string(b"NeXT"), string(b"UNIX")].concat()),
            (
                "RP",
                17,
                [wire("louie.trantor.umd.edu."), wire("LAM1.people.umd.edu.")].concat(),
            ),
            (
                "NSEC3",
                50,
                [
                    &[1, 1, 0, 12, 4, 0xaa, 0xbb, 0xcc, 0xdd, 20][..],
                    &hash,
                    &[0, 6, 0x40, 0x01, 0, 0, 0, 0x03],
                ]
                .concat(),
            ),
            ("SSHFP", 44, [&[2, 1][..], &hash].concat()),
            ("SSHFP", 44, [&[4, 2][..], &[0x33; 32]].concat()),
            (
                "NAPTR",
                35,
                [
                    &[0, 100, 0, 10][..],
                    &string(b"S"),
                    &string(b"SIP+D2U"),
                    &string(b""),
                    &wire("_sip._udp.example.com."),
                ]
                .concat(),
            ),
            ("TLSA", 52, [&[3, 1, 1][..], &[0x7e; 32]].concat()),
        ];
        for (name, rtype, rdata) in cases {
            let buf = with_answer(rtype, &rdata);
            let core = through_core(&buf);
            assert!(core.is_some(), "core's codec declines the {name} record");
            assert_eq!(core, in_dns_packet_order(&buf), "{name}");
        }
    }

    /// An OPT record, in a response's additional section, whose data is `options`.
    fn with_options(options: &[u8]) -> Vec<u8> {
        let mut m = vec![0x12, 0x34, 0x81, 0x80, 0, 0, 0, 0, 0, 0, 0, 1];
        m.extend([0, 0, 41, 0x04, 0xd0, 0, 0, 0, 0]);
        m.extend((options.len() as u16).to_be_bytes());
        m.extend_from_slice(options);
        m
    }

    #[test]
    fn core_takes_the_edns_options_dns_packet_reads_fields_from() {
        let cases: [(&str, &[u8]); 5] = [
            ("CLIENT_SUBNET v4", &[0, 8, 0, 7, 0, 1, 24, 0, 192, 0, 2]),
            (
                "CLIENT_SUBNET v6",
                &[0, 8, 0, 8, 0, 2, 32, 0, 0x20, 1, 0x0d, 0xb8],
            ),
            ("TCP_KEEPALIVE with a timeout", &[0, 11, 0, 2, 0x01, 0x2c]),
            ("TCP_KEEPALIVE without one", &[0, 11, 0, 0]),
            ("KEY_TAG", &[0, 14, 0, 4, 0x4f, 0x66, 0x9c, 0x1a]),
        ];
        for (name, options) in cases {
            let buf = with_options(options);
            let core = through_core(&buf);
            assert!(core.is_some(), "core's codec declines {name}");
            assert_eq!(core, in_dns_packet_order(&buf), "{name}");
        }
    }

    #[test]
    fn core_declines_what_dns_packet_reads_otherwise() {
        let declined: [(&str, Vec<u8>); 5] = [
            // dns-packet reads the hash type's length, not RDLENGTH's.
            (
                "SSHFP SHA-1 of 32 bytes",
                with_answer(44, &[[2, 1].as_slice(), &[0; 32]].concat()),
            ),
            (
                "SSHFP of hash type 3",
                with_answer(44, &[[2, 3].as_slice(), &[0; 32]].concat()),
            ),
            // dns-packet throws on a protocol other than 3.
            (
                "DNSKEY protocol 4",
                with_answer(48, &[1, 1, 4, 8, 0xaa, 0xbb]),
            ),
            // Too short for the fields dns-packet reads.
            ("TCP_KEEPALIVE of 1 byte", with_options(&[0, 11, 0, 1, 9])),
            ("KEY_TAG of 3 bytes", with_options(&[0, 14, 0, 3, 1, 2, 3])),
        ];
        for (name, buf) in declined {
            assert_eq!(through_core(&buf), None, "{name}");
        }
    }
}
