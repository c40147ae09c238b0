//! HINFO, RP, SSHFP, NAPTR, TLSA and DNAME: RDATA written out by hand from
//! the RFCs' examples, read inside a message, checked field by field and
//! against the presentation text, and written back byte for byte; then
//! truncated, padded and compressed RDATA.

use leanwire_core::dns::rdata::{Dname, Hinfo, Naptr, Rp, Sshfp, Tlsa};
use leanwire_core::dns::{
    Class, ErrorKind, Message, MessageBuilder, NameBuf, RData, Record, Rtype, Section,
};

/// A name's wire form, written in full.
fn wire(text: &str) -> Vec<u8> {
    NameBuf::from_text(text).unwrap().as_bytes().to_vec()
}

/// A name's labels without the root, to end in a compression pointer.
fn labels(text: &str) -> Vec<u8> {
    let mut bytes = wire(text);
    assert_eq!(bytes.pop(), Some(0));
    bytes
}

/// A `<character-string>`: its length octet, then the bytes.
fn string(bytes: &[u8]) -> Vec<u8> {
    let mut out = vec![u8::try_from(bytes.len()).unwrap()];
    out.extend_from_slice(bytes);
    out
}

fn unhex(text: &str) -> Vec<u8> {
    leanwire_core::hex::decode(text)
        .collect::<Result<_, _>>()
        .unwrap()
}

/// A response with the question `owner IN rtype` and one answer, whose
/// owner is a pointer to the question's name and whose RDATA is `rdata`.
fn message(owner: &str, rtype: Rtype, rdata: &[u8]) -> Vec<u8> {
    let mut m = vec![0x12, 0x34, 0x81, 0x80, 0, 1, 0, 1, 0, 0, 0, 0];
    m.extend(wire(owner));
    m.extend(u16::from(rtype).to_be_bytes());
    m.extend([0, 1]);
    m.extend([0xc0, 12]);
    m.extend(u16::from(rtype).to_be_bytes());
    m.extend([0, 1]);
    m.extend(3600u32.to_be_bytes());
    m.extend(u16::try_from(rdata.len()).unwrap().to_be_bytes());
    m.extend_from_slice(rdata);
    m
}

/// A compression pointer to where `suffix` starts inside `owner`, the
/// question's name in a [`message`].
fn pointer_into(owner: &str, suffix: &str) -> [u8; 2] {
    let at = 12 + wire(owner).len() - wire(suffix).len();
    assert_eq!(wire(owner)[at - 12..], wire(suffix)[..]);
    (0xc000 | u16::try_from(at).unwrap()).to_be_bytes()
}

/// The answer of a [`message`].
fn answer<'m>(message: &Message<'m>) -> Record<'m> {
    message.answers().next().unwrap()
}

/// The record written again through a builder whose question has the same
/// owner, so that any name with a suffix in common could be compressed;
/// returns the RDATA it wrote, read back from the new message.
fn rewritten(record: &Record<'_>) -> Vec<u8> {
    let mut buf = [0u8; 1024];
    let mut builder = MessageBuilder::new(&mut buf).unwrap();
    builder
        .push_question(&record.name, record.rtype, Class::In)
        .unwrap();
    builder.push(Section::Answer, record).unwrap();
    let out = builder.finish().unwrap();
    let again = Message::parse(out).unwrap();
    let copy = answer(&again);
    assert_eq!(copy.rtype, record.rtype);
    assert_eq!(copy.to_string(), record.to_string());
    copy.rdata().to_vec()
}

/// Reads `rdata` as the answer of a message owned by `owner`, checks its
/// text against `text` (the RDATA as dig prints it) and that writing it
/// back gives the same bytes, and hands the typed RDATA to `fields`.
fn round_trip(owner: &str, rtype: Rtype, rdata: &[u8], text: &str, fields: impl FnOnce(RData<'_>)) {
    let bytes = message(owner, rtype, rdata);
    let message = Message::parse(&bytes).unwrap();
    let record = answer(&message);
    let data = record.data().unwrap();
    assert_eq!(data.rtype(), rtype);
    assert_eq!(data.to_string(), text);
    assert_eq!(
        record.to_string(),
        format!("{owner} 3600 IN {rtype} {text}")
    );
    assert_eq!(rewritten(&record), rdata, "{record}");
    fields(data);
}

/// The error of reading `rdata` as the answer of a message owned by
/// `owner`, as (kind, offset from the start of the RDATA).
fn rdata_error(owner: &str, rtype: Rtype, rdata: &[u8]) -> (ErrorKind, usize) {
    let bytes = message(owner, rtype, rdata);
    let message = Message::parse(&bytes).unwrap();
    let record = answer(&message);
    let err = record.data().unwrap_err();
    // A record whose RDATA does not read prints in the RFC 3597 form.
    assert!(
        record.to_string().contains(&format!(" {rtype} \\# ")),
        "{record}"
    );
    (err.kind(), err.offset() - record.rdata_offset())
}

#[test]
fn hinfo_from_rfc_1183_and_rfc_4035() {
    // RFC 1183 §2.3: `sayshell.umiacs.umd.edu. HINFO NeXT UNIX`.
    let rdata = [string(b"NeXT"), string(b"UNIX")].concat();
    round_trip(
        "sayshell.umiacs.umd.edu.",
        Rtype::Hinfo,
        &rdata,
        "\"NeXT\" \"UNIX\"",
        |data| {
            let RData::Hinfo(hinfo) = data else {
                panic!("{data:?}")
            };
            assert_eq!((hinfo.cpu, hinfo.os), (&b"NeXT"[..], &b"UNIX"[..]));
        },
    );
    // RFC 4035 Appendix A: `ai.example. HINFO "KLH-10" "ITS"`.
    let rdata = [string(b"KLH-10"), string(b"ITS")].concat();
    round_trip(
        "ai.example.",
        Rtype::Hinfo,
        &rdata,
        "\"KLH-10\" \"ITS\"",
        |_| {},
    );
}

#[test]
fn hinfo_quotes_and_escapes_both_strings() {
    let rdata = [string(b"a \"b\""), string(b"")].concat();
    round_trip(
        "h.example.",
        Rtype::Hinfo,
        &rdata,
        "\"a \\\"b\\\"\" \"\"",
        |_| {},
    );
}

#[test]
fn hinfo_malformed() {
    let full = [string(b"NeXT"), string(b"UNIX")].concat();
    // The OS string is cut short: the error is where its bytes start.
    assert_eq!(
        rdata_error("h.example.", Rtype::Hinfo, &full[..8]),
        (ErrorKind::InvalidRdata, 6)
    );
    // No OS string at all.
    assert_eq!(
        rdata_error("h.example.", Rtype::Hinfo, &full[..5]),
        (ErrorKind::InvalidRdata, 5)
    );
    assert_eq!(
        rdata_error("h.example.", Rtype::Hinfo, &[]),
        (ErrorKind::InvalidRdata, 0)
    );
    // A byte after the second string.
    let padded = [&full[..], &[0]].concat();
    assert_eq!(
        rdata_error("h.example.", Rtype::Hinfo, &padded),
        (ErrorKind::InvalidRdata, 10)
    );
}

#[test]
fn character_strings_over_255_octets_are_not_written() {
    let long = [b'x'; 256];
    let hinfo = RData::Hinfo(Hinfo {
        cpu: &long,
        os: b"UNIX",
    });
    let mut buf = [0u8; 1024];
    let mut builder = MessageBuilder::new(&mut buf).unwrap();
    let owner = NameBuf::from_text("h.example").unwrap();
    let err = builder
        .push_record(Section::Answer, &owner.as_name(), 1, 3600, &hinfo)
        .unwrap_err();
    // The length octet follows the header, the owner, and the 10 fixed octets.
    assert_eq!(
        (err.kind(), err.offset()),
        (ErrorKind::InvalidRdata, 12 + 11 + 10)
    );
    let naptr = RData::Naptr(Naptr {
        order: 1,
        preference: 1,
        flags: b"",
        services: b"",
        regexp: &long,
        replacement: owner.as_name(),
    });
    let err = builder
        .push_record(Section::Answer, &owner.as_name(), 1, 3600, &naptr)
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidRdata);
    // Both failures left the message as it was.
    let out = builder.finish().unwrap();
    assert_eq!(out.len(), 12);
}

#[test]
fn rp_from_rfc_1183() {
    // RFC 1183 §2.3: `sayshell.umiacs.umd.edu. RP louie.trantor.umd.edu. LAM1.people.umd.edu.`
    let rdata = [wire("louie.trantor.umd.edu."), wire("LAM1.people.umd.edu.")].concat();
    round_trip(
        "sayshell.umiacs.umd.edu.",
        Rtype::Rp,
        &rdata,
        "louie.trantor.umd.edu. LAM1.people.umd.edu.",
        |data| {
            let RData::Rp(rp) = data else {
                panic!("{data:?}")
            };
            assert_eq!(rp.mbox.to_string(), "louie.trantor.umd.edu.");
            assert!(
                rp.txt
                    .eq_exact(&NameBuf::from_text("LAM1.people.umd.edu").unwrap().as_name())
            );
        },
    );
    // RFC 1183 §2.2: the root where there is no TXT name.
    let rdata = [wire("louie.trantor.umd.edu."), wire(".")].concat();
    round_trip(
        "sayshell.umiacs.umd.edu.",
        Rtype::Rp,
        &rdata,
        "louie.trantor.umd.edu. .",
        |data| {
            let RData::Rp(rp) = data else {
                panic!("{data:?}")
            };
            assert!(rp.txt.is_root());
        },
    );
}

#[test]
fn rp_reads_compressed_names_and_writes_them_in_full() {
    let owner = "sayshell.umiacs.umd.edu.";
    let compressed = [
        &labels("louie.trantor.")[..],
        &pointer_into(owner, "umd.edu."),
        &labels("LAM1.people."),
        &pointer_into(owner, "umd.edu."),
    ]
    .concat();
    let bytes = message(owner, Rtype::Rp, &compressed);
    let message = Message::parse(&bytes).unwrap();
    let record = answer(&message);
    let RData::Rp(rp) = record.data().unwrap() else {
        panic!("{record}")
    };
    assert_eq!(rp.mbox.to_string(), "louie.trantor.umd.edu.");
    assert_eq!(rp.txt.to_string(), "LAM1.people.umd.edu.");
    // RFC 3597 §4: RP is not a well-known type, so nothing is compressed on the way out.
    let full = [wire("louie.trantor.umd.edu."), wire("LAM1.people.umd.edu.")].concat();
    assert_eq!(rewritten(&record), full);
}

#[test]
fn rp_malformed() {
    let owner = "rp.example.";
    let mbox = wire("louie.trantor.umd.edu.");
    // No TXT name: the name reader runs out at the end of the RDATA.
    assert_eq!(
        rdata_error(owner, Rtype::Rp, &mbox),
        (ErrorKind::ShortInput, mbox.len())
    );
    // The TXT name is cut inside a label.
    let cut = [&mbox[..], &wire("LAM1.people.umd.edu.")[..7]].concat();
    assert_eq!(
        rdata_error(owner, Rtype::Rp, &cut),
        (ErrorKind::ShortInput, cut.len())
    );
    // A byte after the TXT name.
    let padded = [&mbox[..], &wire(".")[..], &[0]].concat();
    assert_eq!(
        rdata_error(owner, Rtype::Rp, &padded),
        (ErrorKind::InvalidRdata, mbox.len() + 1)
    );
}

#[test]
fn sshfp_from_rfc_4255() {
    // RFC 4255 §3.3: `host.example. SSHFP 2 1 123456789abcdef67890123456789abcdef67890`.
    let fingerprint = unhex("123456789abcdef67890123456789abcdef67890");
    let rdata = [&[2, 1][..], &fingerprint].concat();
    round_trip(
        "host.example.",
        Rtype::Sshfp,
        &rdata,
        "2 1 123456789abcdef67890123456789abcdef67890",
        |data| {
            let RData::Sshfp(sshfp) = data else {
                panic!("{data:?}")
            };
            assert_eq!(
                sshfp,
                Sshfp {
                    algorithm: 2,
                    fingerprint_type: 1,
                    fingerprint: &fingerprint,
                }
            );
        },
    );
}

#[test]
fn sshfp_malformed() {
    // No fingerprint.
    assert_eq!(
        rdata_error("host.example.", Rtype::Sshfp, &[2, 1]),
        (ErrorKind::InvalidRdata, 2)
    );
    // No fingerprint type.
    assert_eq!(
        rdata_error("host.example.", Rtype::Sshfp, &[2]),
        (ErrorKind::InvalidRdata, 1)
    );
}

/// The cid.urn.arpa rule of RFC 3403 §6: `100 10 "" "" "!^urn:cid:.+@([^\.]+\.)(.*)$!\2!i" .`
const CID_REGEXP: &[u8] = br"!^urn:cid:.+@([^\.]+\.)(.*)$!\2!i";

fn cid_rdata() -> Vec<u8> {
    [
        &[0, 100, 0, 10][..],
        &string(b""),
        &string(b""),
        &string(CID_REGEXP),
        &wire("."),
    ]
    .concat()
}

#[test]
fn naptr_from_rfc_3403() {
    // dig escapes each `\` of the regexp as `\\`.
    round_trip(
        "cid.urn.arpa.",
        Rtype::Naptr,
        &cid_rdata(),
        r#"100 10 "" "" "!^urn:cid:.+@([^\\.]+\\.)(.*)$!\\2!i" ."#,
        |data| {
            let RData::Naptr(naptr) = data else {
                panic!("{data:?}")
            };
            assert_eq!((naptr.order, naptr.preference), (100, 10));
            assert_eq!((naptr.flags, naptr.services), (&b""[..], &b""[..]));
            assert_eq!(naptr.regexp, CID_REGEXP);
            assert!(naptr.replacement.is_root());
        },
    );
    // A terminal rule that leads to SRV records, as in RFC 3403 §6: flags
    // and services set, no regexp, a replacement.
    let rdata = [
        &[0, 100, 0, 50][..],
        &string(b"s"),
        &string(b"http+I2L+I2C+I2R"),
        &string(b""),
        &wire("_http._tcp.gatech.edu."),
    ]
    .concat();
    round_trip(
        "thinkingcat.example.",
        Rtype::Naptr,
        &rdata,
        r#"100 50 "s" "http+I2L+I2C+I2R" "" _http._tcp.gatech.edu."#,
        |data| {
            let RData::Naptr(naptr) = data else {
                panic!("{data:?}")
            };
            assert_eq!((naptr.order, naptr.preference), (100, 50));
            assert_eq!(naptr.flags, b"s");
            assert_eq!(naptr.services, b"http+I2L+I2C+I2R");
            assert_eq!(naptr.regexp, b"");
            assert_eq!(naptr.replacement.to_string(), "_http._tcp.gatech.edu.");
        },
    );
}

#[test]
fn naptr_replacement_is_written_in_full() {
    // The owner shares `example.com.` with the replacement; a compressing
    // writer would point at it.
    let rdata = [
        &[0, 10, 0, 100][..],
        &string(b"S"),
        &string(b"SIP+D2U"),
        &string(b""),
        &wire("_sip._udp.example.com."),
    ]
    .concat();
    round_trip(
        "example.com.",
        Rtype::Naptr,
        &rdata,
        r#"10 100 "S" "SIP+D2U" "" _sip._udp.example.com."#,
        |_| {},
    );
}

#[test]
fn naptr_reads_a_compressed_replacement_and_writes_it_in_full() {
    // RFC 3597 §4: receivers decompress NAPTR, senders write it in full.
    let owner = "example.com.";
    let head = [
        &[0, 10, 0, 100][..],
        &string(b"S"),
        &string(b"SIP+D2U"),
        &string(b""),
    ]
    .concat();
    let compressed = [
        &head[..],
        &labels("_sip._udp."),
        &pointer_into(owner, "example.com."),
    ]
    .concat();
    let bytes = message(owner, Rtype::Naptr, &compressed);
    let message = Message::parse(&bytes).unwrap();
    let record = answer(&message);
    let RData::Naptr(naptr) = record.data().unwrap() else {
        panic!("{record}")
    };
    assert_eq!(naptr.replacement.to_string(), "_sip._udp.example.com.");
    let full = [&head[..], &wire("_sip._udp.example.com.")].concat();
    assert_eq!(rewritten(&record), full);
}

#[test]
fn naptr_malformed() {
    let owner = "cid.urn.arpa.";
    let full = cid_rdata();
    // Cut inside the regexp: the error is where the regexp's bytes start.
    assert_eq!(
        rdata_error(owner, Rtype::Naptr, &full[..10]),
        (ErrorKind::InvalidRdata, 7)
    );
    // Cut inside the preference.
    assert_eq!(
        rdata_error(owner, Rtype::Naptr, &full[..3]),
        (ErrorKind::InvalidRdata, 2)
    );
    // No replacement.
    let no_name = &full[..full.len() - 1];
    assert_eq!(
        rdata_error(owner, Rtype::Naptr, no_name),
        (ErrorKind::ShortInput, no_name.len())
    );
    // A byte after the replacement.
    let padded = [&full[..], &[0]].concat();
    assert_eq!(
        rdata_error(owner, Rtype::Naptr, &padded),
        (ErrorKind::InvalidRdata, full.len())
    );
}

#[test]
fn tlsa_from_rfc_6698() {
    // RFC 6698 §2.3, the first two examples.
    let data = unhex("d2abde240d7cd3ee6b4b28c54df034b97983a1d16e8a410e4561cb106618e971");
    let rdata = [&[0, 0, 1][..], &data].concat();
    round_trip(
        "_443._tcp.www.example.com.",
        Rtype::Tlsa,
        &rdata,
        "0 0 1 d2abde240d7cd3ee6b4b28c54df034b97983a1d16e8a410e4561cb106618e971",
        |got| {
            let RData::Tlsa(tlsa) = got else {
                panic!("{got:?}")
            };
            assert_eq!(
                tlsa,
                Tlsa {
                    usage: 0,
                    selector: 0,
                    matching_type: 1,
                    data: &data,
                }
            );
        },
    );
    let hash = "92003ba34942dc74152e2f2c408d29eca5a520e7f2e06bb944f4dca346baf63c\
                1b177615d466f6c4b71c216a50292bd58c9ebdd2f74e38fe51ffd48c43326cbc";
    let data = unhex(hash);
    let rdata = [&[1, 1, 2][..], &data].concat();
    round_trip(
        "_443._tcp.www.example.com.",
        Rtype::Tlsa,
        &rdata,
        &format!("1 1 2 {hash}"),
        |got| {
            let RData::Tlsa(tlsa) = got else {
                panic!("{got:?}")
            };
            assert_eq!((tlsa.usage, tlsa.selector, tlsa.matching_type), (1, 1, 2));
            assert_eq!(tlsa.data.len(), 64);
        },
    );
}

#[test]
fn tlsa_malformed() {
    let owner = "_443._tcp.www.example.com.";
    // No association data.
    assert_eq!(
        rdata_error(owner, Rtype::Tlsa, &[3, 1, 1]),
        (ErrorKind::InvalidRdata, 3)
    );
    // No matching type.
    assert_eq!(
        rdata_error(owner, Rtype::Tlsa, &[3, 1]),
        (ErrorKind::InvalidRdata, 2)
    );
}

#[test]
fn dname_from_rfc_6672() {
    // RFC 6672's example: `frobozz.example. DNAME frobozz-division.acme.example.`
    let rdata = wire("frobozz-division.acme.example.");
    round_trip(
        "frobozz.example.",
        Rtype::Dname,
        &rdata,
        "frobozz-division.acme.example.",
        |data| {
            let RData::Dname(dname) = data else {
                panic!("{data:?}")
            };
            assert_eq!(dname.target.to_string(), "frobozz-division.acme.example.");
            assert_eq!(dname.target.label_count(), 3);
        },
    );
}

#[test]
fn dname_reads_a_compressed_target_and_writes_it_in_full() {
    let owner = "frobozz.example.";
    let compressed = [
        &labels("frobozz-division.acme.")[..],
        &pointer_into(owner, "example."),
    ]
    .concat();
    let bytes = message(owner, Rtype::Dname, &compressed);
    let message = Message::parse(&bytes).unwrap();
    let record = answer(&message);
    assert_eq!(
        record.data().unwrap(),
        RData::Dname(Dname {
            target: NameBuf::from_text("frobozz-division.acme.example")
                .unwrap()
                .as_name()
        })
    );
    assert_eq!(rewritten(&record), wire("frobozz-division.acme.example."));
}

#[test]
fn dname_malformed() {
    let owner = "frobozz.example.";
    let target = wire("frobozz-division.acme.example.");
    assert_eq!(
        rdata_error(owner, Rtype::Dname, &target[..10]),
        (ErrorKind::ShortInput, 10)
    );
    assert_eq!(
        rdata_error(owner, Rtype::Dname, &[]),
        (ErrorKind::ShortInput, 0)
    );
    let padded = [&target[..], &[0]].concat();
    assert_eq!(
        rdata_error(owner, Rtype::Dname, &padded),
        (ErrorKind::InvalidRdata, target.len())
    );
}

#[test]
fn rdata_parse_takes_the_bounds_it_is_given() {
    // The same RDATA read straight from a buffer, at an offset, with bytes after it.
    let rdata = [&[3, 1, 1][..], &[0xab; 32]].concat();
    let buf = [&[0xff; 7][..], &rdata, &[0xee; 5]].concat();
    let data = RData::parse(Rtype::Tlsa, &buf, 7, 7 + rdata.len()).unwrap();
    assert_eq!(data.to_string(), format!("3 1 1 {}", "ab".repeat(32)));
    let hinfo = [string(b"NeXT"), string(b"UNIX")].concat();
    let buf = [&[0xff; 7][..], &hinfo, &[0xee; 5]].concat();
    let data = RData::parse(Rtype::Hinfo, &buf, 7, 7 + hinfo.len()).unwrap();
    assert_eq!(
        data,
        RData::Hinfo(Hinfo {
            cpu: b"NeXT",
            os: b"UNIX"
        })
    );
    // Reading one byte further takes in a trailing byte.
    let err = RData::parse(Rtype::Hinfo, &buf, 7, 8 + hinfo.len()).unwrap_err();
    assert_eq!(
        (err.kind(), err.offset()),
        (ErrorKind::InvalidRdata, 7 + hinfo.len())
    );
    // Bounds past the message, or backwards, are refused before any type
    // reads them.
    for (at, end) in [(7, buf.len() + 1), (8, 7), (buf.len() + 1, buf.len() + 1)] {
        for rtype in [Rtype::A, Rtype::Hinfo, Rtype::Unknown(65_280)] {
            let err = RData::parse(rtype, &buf, at, end).unwrap_err();
            assert_eq!(
                (err.kind(), err.offset()),
                (ErrorKind::RdataOverrun, buf.len()),
                "{rtype} at {at}..{end}"
            );
        }
    }
}

#[test]
fn each_type_reads_as_its_own_variant() {
    let cases: [(Rtype, Vec<u8>); 6] = [
        (Rtype::Hinfo, [string(b"a"), string(b"b")].concat()),
        (Rtype::Rp, [wire("a."), wire("b.")].concat()),
        (Rtype::Sshfp, vec![1, 1, 0]),
        (Rtype::Naptr, cid_rdata()),
        (Rtype::Tlsa, vec![3, 1, 1, 0]),
        (Rtype::Dname, wire("a.")),
    ];
    for (rtype, rdata) in cases {
        let data = RData::parse(rtype, &rdata, 0, rdata.len()).unwrap();
        assert_eq!(data.rtype(), rtype);
        let typed = match data {
            RData::Hinfo(_) => Rtype::Hinfo,
            RData::Rp(_) => Rtype::Rp,
            RData::Sshfp(_) => Rtype::Sshfp,
            RData::Naptr(_) => Rtype::Naptr,
            RData::Tlsa(_) => Rtype::Tlsa,
            RData::Dname(_) => Rtype::Dname,
            other => panic!("{rtype} read as {other:?}"),
        };
        assert_eq!(typed, rtype);
    }
    // Rp keeps its names' case.
    let rdata = [wire("Louie.Example."), wire(".")].concat();
    let RData::Rp(Rp { mbox, .. }) = RData::parse(Rtype::Rp, &rdata, 0, rdata.len()).unwrap()
    else {
        panic!()
    };
    assert_eq!(mbox.to_string(), "Louie.Example.");
}
