//! `pcap::server_stream` and `pcap::flows`: on the captures in
//! `tests/vectors/tds/` (from shared/vectors/tds/pcap, made by its
//! `mkpcap.py` and checked with tshark), and on captures built here frame by
//! frame.

use std::net::SocketAddr;

use leanwire_native::pcap::{Flow, flows, server_stream};

fn vector(name: &str) -> Vec<u8> {
    std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/vectors/tds")
            .join(name),
    )
    .unwrap()
}

/// The payloads of the TDS packets in `stream`, headers removed.
fn tokens(stream: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut at = 0;
    while at + 8 <= stream.len() {
        let len = usize::from(u16::from_be_bytes([stream[at + 2], stream[at + 3]]));
        assert!(
            len >= 8 && at + len <= stream.len(),
            "packet at {at} claims {len} bytes"
        );
        out.extend_from_slice(&stream[at + 8..at + len]);
        at += len;
    }
    assert_eq!(at, stream.len(), "the stream ends inside a packet");
    out
}

#[test]
fn types_capture_holds_the_types_token_stream() {
    let stream = server_stream(&vector("types.pcap"), 1433).unwrap();
    assert_eq!(stream[0], 0x04, "a tabular-result packet");
    let hex = String::from_utf8(vector("types_tokens.hex")).unwrap();
    let want: Vec<u8> = leanwire_native::core::hex::decode(&hex)
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(tokens(&stream), want);
}

#[test]
fn login_capture_is_one_response_stream() {
    let stream = server_stream(&vector("pytds_login.pcap"), 1433).unwrap();
    let payload = tokens(&stream);
    assert!(payload.contains(&0xad), "a LOGINACK token");
}

#[test]
fn the_client_side_is_not_the_server_stream() {
    assert!(
        server_stream(&vector("types.pcap"), 50000)
            .unwrap()
            .starts_with(&[0x01]),
        "the client's SQL batch"
    );
}

/// An IPv4 address and TCP port.
type End = ([u8; 4], u16);

const SERVER: End = ([10, 0, 0, 1], 1433);
const CLIENT_A: End = ([10, 0, 0, 2], 50000);
const CLIENT_B: End = ([10, 0, 0, 3], 50000);

const SYN: u8 = 0x02;
const PSH_ACK: u8 = 0x18;

/// One TCP segment in an IPv4 packet, its checksums filled in.
fn ipv4_tcp(from: End, to: End, seq: u32, flags: u8, payload: &[u8]) -> Vec<u8> {
    let mut tcp = Vec::new();
    tcp.extend_from_slice(&from.1.to_be_bytes());
    tcp.extend_from_slice(&to.1.to_be_bytes());
    tcp.extend_from_slice(&seq.to_be_bytes());
    tcp.extend_from_slice(&1u32.to_be_bytes()); // acknowledgment
    tcp.extend_from_slice(&[0x50, flags]); // 20-byte header, flags
    tcp.extend_from_slice(&65535u16.to_be_bytes()); // window
    tcp.extend_from_slice(&[0; 4]); // checksum, urgent pointer
    tcp.extend_from_slice(payload);
    let mut pseudo = Vec::new();
    pseudo.extend_from_slice(&from.0);
    pseudo.extend_from_slice(&to.0);
    pseudo.extend_from_slice(&[0, 6]);
    pseudo.extend_from_slice(&(tcp.len() as u16).to_be_bytes());
    pseudo.extend_from_slice(&tcp);
    let sum = checksum(&pseudo);
    tcp[16..18].copy_from_slice(&sum.to_be_bytes());

    let mut ip = vec![0x45, 0];
    ip.extend_from_slice(&(20 + tcp.len() as u16).to_be_bytes());
    ip.extend_from_slice(&[0, 0, 0x40, 0, 64, 6, 0, 0]); // id, DF, TTL, TCP
    ip.extend_from_slice(&from.0);
    ip.extend_from_slice(&to.0);
    let sum = checksum(&ip);
    ip[10..12].copy_from_slice(&sum.to_be_bytes());
    ip.extend_from_slice(&tcp);
    ip
}

/// The framing a link type puts around an IP packet.
#[derive(Debug, Clone, Copy)]
enum Link {
    Ethernet,
    /// Linux cooked capture (`any` interface).
    LinuxSll,
    /// BSD loopback: the address family in the capturing host's byte order.
    Null,
    /// OpenBSD loopback: the address family in network byte order.
    Loop,
    /// Bare IP.
    Raw,
}

impl Link {
    const ALL: [Link; 5] = [
        Link::Ethernet,
        Link::LinuxSll,
        Link::Null,
        Link::Loop,
        Link::Raw,
    ];

    /// The `LINKTYPE_` number.
    fn linktype(self) -> u16 {
        match self {
            Link::Ethernet => 1,
            Link::LinuxSll => 113,
            Link::Null => 0,
            Link::Loop => 108,
            Link::Raw => 101,
        }
    }

    fn frame(self, ip: &[u8]) -> Vec<u8> {
        const AF_INET: u32 = 2;
        let mut frame = match self {
            Link::Ethernet => vec![2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 0x08, 0x00],
            Link::LinuxSll => {
                let mut header = vec![0, 4, 0, 1, 0, 6]; // sent by us, Ethernet, 6-byte address
                header.extend_from_slice(&[2, 0, 0, 0, 0, 1, 0, 0, 0x08, 0x00]);
                header
            }
            Link::Null => AF_INET.to_le_bytes().to_vec(),
            Link::Loop => AF_INET.to_be_bytes().to_vec(),
            Link::Raw => Vec::new(),
        };
        frame.extend_from_slice(ip);
        frame
    }

    /// A frame carrying one segment with data.
    fn data(self, from: End, to: End, seq: u32, payload: &[u8]) -> Vec<u8> {
        self.frame(&ipv4_tcp(from, to, seq, PSH_ACK, payload))
    }
}

/// A classic little-endian pcap file of one link type, built by hand.
struct Capture {
    bytes: Vec<u8>,
    link: Link,
}

impl Capture {
    fn new() -> Capture {
        Capture::of(Link::Ethernet)
    }

    fn of(link: Link) -> Capture {
        let mut bytes = Vec::new();
        bytes.extend_from_slice(&0xa1b2_c3d4_u32.to_le_bytes());
        bytes.extend_from_slice(&2u16.to_le_bytes());
        bytes.extend_from_slice(&4u16.to_le_bytes());
        bytes.extend_from_slice(&[0; 8]); // time zone, accuracy
        bytes.extend_from_slice(&65535u32.to_le_bytes()); // snap length
        bytes.extend_from_slice(&u32::from(link.linktype()).to_le_bytes());
        Capture { bytes, link }
    }

    /// Appends a frame carrying one TCP segment.
    fn tcp(mut self, from: End, to: End, seq: u32, flags: u8, payload: &[u8]) -> Capture {
        let frame = self.link.frame(&ipv4_tcp(from, to, seq, flags, payload));
        let n = self.bytes.len() as u32;
        self.bytes.extend_from_slice(&n.to_le_bytes()); // seconds: any increasing value
        self.bytes.extend_from_slice(&0u32.to_le_bytes());
        for _ in 0..2 {
            // captured and original length
            self.bytes
                .extend_from_slice(&(frame.len() as u32).to_le_bytes());
        }
        self.bytes.extend_from_slice(&frame);
        self
    }

    fn syn(self, from: End, to: End, isn: u32) -> Capture {
        self.tcp(from, to, isn, SYN, b"")
    }

    fn data(self, from: End, to: End, seq: u32, payload: &[u8]) -> Capture {
        self.tcp(from, to, seq, PSH_ACK, payload)
    }
}

/// A little-endian pcapng file, built block by block.
struct PcapNg(Vec<u8>);

impl PcapNg {
    fn new() -> PcapNg {
        PcapNg(Vec::new()).section()
    }

    fn block(mut self, kind: u32, body: &[u8]) -> PcapNg {
        let padding = body.len().next_multiple_of(4) - body.len();
        let total = (12 + body.len() + padding) as u32;
        self.0.extend_from_slice(&kind.to_le_bytes());
        self.0.extend_from_slice(&total.to_le_bytes());
        self.0.extend_from_slice(body);
        self.0.extend_from_slice(&[0; 3][..padding]);
        self.0.extend_from_slice(&total.to_le_bytes());
        self
    }

    /// A section header: the interfaces after it are numbered from 0 again.
    fn section(self) -> PcapNg {
        let mut body = 0x1a2b_3c4d_u32.to_le_bytes().to_vec();
        body.extend_from_slice(&[1, 0, 0, 0]); // version 1.0
        body.extend_from_slice(&(-1i64).to_le_bytes()); // section length not given
        self.block(0x0a0d_0d0a, &body)
    }

    fn interface(self, link: Link) -> PcapNg {
        let mut body = link.linktype().to_le_bytes().to_vec();
        body.extend_from_slice(&[0, 0]);
        body.extend_from_slice(&65535u32.to_le_bytes()); // snap length
        self.block(1, &body)
    }

    fn enhanced(self, interface: u32, frame: &[u8]) -> PcapNg {
        let mut body = interface.to_le_bytes().to_vec();
        body.extend_from_slice(&[0; 8]); // timestamp
        for _ in 0..2 {
            // captured and original length
            body.extend_from_slice(&(frame.len() as u32).to_le_bytes());
        }
        body.extend_from_slice(frame);
        self.block(6, &body)
    }

    fn simple(self, frame: &[u8]) -> PcapNg {
        let mut body = (frame.len() as u32).to_le_bytes().to_vec();
        body.extend_from_slice(frame);
        self.block(3, &body)
    }
}

/// The flow from `from` to `to` that carried `bytes`.
fn flow(from: End, to: End, bytes: &[u8]) -> Flow {
    Flow {
        source: SocketAddr::from(from),
        destination: SocketAddr::from(to),
        bytes: bytes.to_vec(),
    }
}

/// The internet checksum (RFC 1071).
fn checksum(bytes: &[u8]) -> u16 {
    let mut sum: u32 = bytes
        .chunks(2)
        .map(|c| u32::from(u16::from_be_bytes([c[0], *c.get(1).unwrap_or(&0)])))
        .sum();
    while sum > 0xffff {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    !(sum as u16)
}

#[test]
fn interleaved_flows_from_the_server_port_are_kept_apart() {
    // Both conversations number their bytes from the same sequence number,
    // and both clients use the same port.
    let capture = Capture::new()
        .data(CLIENT_A, SERVER, 1000, b"query a")
        .data(SERVER, CLIENT_A, 1000, b"alpha-1 ")
        .data(CLIENT_B, SERVER, 1000, b"query b")
        .data(SERVER, CLIENT_B, 1000, b"bravo-one ")
        .data(SERVER, CLIENT_A, 1008, b"alpha-2")
        .data(SERVER, CLIENT_B, 1010, b"bravo-two");
    assert_eq!(
        String::from_utf8(server_stream(&capture.bytes, 1433).unwrap()).unwrap(),
        "alpha-1 alpha-2bravo-one bravo-two"
    );
    assert_eq!(
        server_stream(&capture.bytes, 50000).unwrap(),
        b"query aquery b"
    );
}

#[test]
fn a_duplicate_retransmission_counts_once() {
    let capture = Capture::new()
        .data(SERVER, CLIENT_A, 1000, b"hello ")
        .data(SERVER, CLIENT_A, 1006, b"world")
        .data(SERVER, CLIENT_A, 1006, b"world")
        .data(SERVER, CLIENT_A, 1000, b"hello ")
        .data(SERVER, CLIENT_A, 1011, b"!");
    assert_eq!(
        server_stream(&capture.bytes, 1433).unwrap(),
        b"hello world!"
    );
}

#[test]
fn a_longer_retransmission_keeps_the_bytes_not_seen_before() {
    // The first two segments are seen, the third is lost; the resend
    // coalesces all three from the first sequence number.
    let capture = Capture::new()
        .data(SERVER, CLIENT_A, 1000, b"abc")
        .data(SERVER, CLIENT_A, 1003, b"def")
        .data(SERVER, CLIENT_A, 1000, b"abcdefghi")
        .data(SERVER, CLIENT_A, 1009, b"jk")
        // And one from the middle of a segment past the end of what was seen.
        .data(SERVER, CLIENT_A, 1010, b"klmn");
    assert_eq!(
        server_stream(&capture.bytes, 1433).unwrap(),
        b"abcdefghijklmn"
    );
}

#[test]
fn sequence_numbers_wrap_past_2_32() {
    // With a SYN, and a segment after the wrap that arrives first.
    let with_syn = Capture::new()
        .syn(SERVER, CLIENT_A, 0xffff_fff8)
        .data(SERVER, CLIENT_A, 0x0000_0003, b"abcdef")
        .data(SERVER, CLIENT_A, 0xffff_fff9, b"0123456789")
        .data(SERVER, CLIENT_A, 0x0000_0009, b"XYZ");
    assert_eq!(
        server_stream(&with_syn.bytes, 1433).unwrap(),
        b"0123456789abcdefXYZ"
    );
    // Without one, the first segment seen is the start of the flow.
    let without = Capture::new()
        .data(SERVER, CLIENT_B, 0xffff_fffe, b"12")
        .data(SERVER, CLIENT_B, 0x0000_0000, b"34")
        .data(SERVER, CLIENT_B, 0xffff_ffff, b"2345")
        .data(SERVER, CLIENT_B, 0x0000_0003, b"6");
    assert_eq!(server_stream(&without.bytes, 1433).unwrap(), b"123456");
}

#[test]
fn a_segment_missing_after_the_syn_is_a_gap() {
    let capture = Capture::new()
        .syn(SERVER, CLIENT_A, 5000)
        .data(SERVER, CLIENT_A, 5004, b"rest");
    let err = server_stream(&capture.bytes, 1433).unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::InvalidData);
    assert!(err.to_string().contains("sequence 5001 to 5004"), "{err}");
}

#[test]
fn flows_are_keyed_by_both_ends_in_order_of_their_first_segment() {
    let capture = Capture::new()
        .syn(CLIENT_A, SERVER, 7)
        .syn(SERVER, CLIENT_A, 0xffff_ffff)
        .data(CLIENT_A, SERVER, 8, b"query a")
        .data(SERVER, CLIENT_B, 1000, b"bravo")
        .data(SERVER, CLIENT_A, 0, b"alpha");
    assert_eq!(
        flows(&capture.bytes).unwrap(),
        [
            flow(CLIENT_A, SERVER, b"query a"),
            flow(SERVER, CLIENT_A, b"alpha"),
            flow(SERVER, CLIENT_B, b"bravo"),
        ]
    );
}

#[test]
fn every_link_type_of_a_classic_capture() {
    for link in Link::ALL {
        let capture = Capture::of(link)
            .syn(SERVER, CLIENT_A, 99)
            .data(SERVER, CLIENT_A, 104, b"world")
            .data(SERVER, CLIENT_A, 100, b"hell");
        assert_eq!(
            server_stream(&capture.bytes, 1433).unwrap(),
            b"hellworld",
            "{link:?}"
        );
    }
}

#[test]
fn pcapng_packets_are_framed_by_their_interface_in_their_section() {
    let capture = PcapNg::new()
        .interface(Link::Ethernet)
        .interface(Link::LinuxSll)
        .interface(Link::Null)
        .enhanced(1, &Link::LinuxSll.data(SERVER, CLIENT_A, 10, b"alpha "))
        .enhanced(2, &Link::Null.data(SERVER, CLIENT_B, 50, b"bravo"))
        .enhanced(0, &Link::Ethernet.data(SERVER, CLIENT_A, 16, b"one "))
        .simple(&Link::Ethernet.data(SERVER, CLIENT_A, 20, b"two"))
        // The next section numbers its interfaces afresh.
        .section()
        .interface(Link::Loop)
        .interface(Link::Raw)
        .enhanced(0, &Link::Loop.data(CLIENT_A, SERVER, 7, b"query "))
        .enhanced(1, &Link::Raw.data(CLIENT_A, SERVER, 13, b"a"))
        .simple(&Link::Loop.data(CLIENT_B, SERVER, 70, b"query b"));
    assert_eq!(
        flows(&capture.0).unwrap(),
        [
            flow(SERVER, CLIENT_A, b"alpha one two"),
            flow(SERVER, CLIENT_B, b"bravo"),
            flow(CLIENT_A, SERVER, b"query a"),
            flow(CLIENT_B, SERVER, b"query b"),
        ]
    );
}

#[test]
fn a_pcapng_packet_on_an_interface_not_described_is_an_error() {
    let frame = Link::Ethernet.data(SERVER, CLIENT_A, 10, b"alpha");
    let unknown = PcapNg::new()
        .interface(Link::Ethernet)
        .enhanced(0, &frame)
        .enhanced(1, &frame);
    let err = flows(&unknown.0).unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::InvalidData);
    assert_eq!(
        err.to_string(),
        "a packet in section 0 names interface 1, but the section describes 1 before it"
    );
    // The second section's interfaces start again from none.
    let simple = PcapNg::new()
        .interface(Link::Ethernet)
        .section()
        .simple(&frame);
    assert_eq!(
        flows(&simple.0).unwrap_err().to_string(),
        "a packet in section 1 names interface 0, but the section describes 0 before it"
    );
}
