//! TCP conversations read out of a packet capture: what `leanwire tds
//! decode --pcap` decodes.
//!
//! Both capture formats are read (classic pcap in either byte order and
//! precision, and pcapng), with Ethernet, raw IP, Linux cooked and BSD
//! loopback framing. A flow is one direction of a TCP connection, keyed by
//! its source and destination address and port; a SYN whose sequence
//! number differs from the SYN already seen on that key starts a new flow,
//! as the port pair was reused for a new connection. Its segments are put in
//! sequence order, with sequence numbers taken modulo 2^32 from where the
//! flow starts (the byte after its SYN, or the first segment seen when the
//! SYN was not captured), so a flow may wrap past 2^32. A byte sent twice (a
//! retransmission, or a longer resend that coalesces earlier segments)
//! counts once; a gap in the sequence is an error, because the bytes after
//! it could not be read in order.

use std::collections::{BTreeMap, HashMap};
use std::io;
use std::net::{IpAddr, SocketAddr};

use etherparse::{NetSlice, SlicedPacket, TransportSlice};
use pcap_parser::pcapng::Block;
use pcap_parser::traits::PcapNGPacketBlock;
use pcap_parser::{Linktype, PcapCapture, PcapNGCapture};

/// One direction of a TCP connection and the payload bytes it carried.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Flow {
    /// The address and port that sent the bytes.
    pub source: SocketAddr,
    /// The address and port they were sent to.
    pub destination: SocketAddr,
    /// The payload, in sequence order, each byte once.
    pub bytes: Vec<u8>,
}

/// Every TCP flow in the capture, in the order of their first segment; a
/// flow that carried no payload (a client's acknowledgments) has no bytes.
///
/// ```no_run
/// let capture = std::fs::read("types.pcap")?;
/// for flow in leanwire_native::pcap::flows(&capture)? {
///     println!("{} -> {}: {} bytes", flow.source, flow.destination, flow.bytes.len());
/// }
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn flows(capture: &[u8]) -> io::Result<Vec<Flow>> {
    collect(capture)?
        .into_iter()
        .map(Segments::into_flow)
        .collect()
}

/// The TCP payload bytes that `server_port` sent: each flow from that port
/// in sequence order, the flows one after the other in the order of their
/// first segment.
///
/// ```no_run
/// let capture = std::fs::read("types.pcap")?;
/// let stream = leanwire_native::pcap::server_stream(&capture, 1433)?;
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn server_stream(capture: &[u8], server_port: u16) -> io::Result<Vec<u8>> {
    sent_from(collect(capture)?, server_port)
}

/// The segments of every TCP flow in the capture, in the order of their
/// first segment.
fn collect(capture: &[u8]) -> io::Result<Vec<Segments>> {
    let mut flows = Flows::default();
    for_each_frame(capture, |linktype, frame| flows.add(linktype, frame))?;
    Ok(flows.list)
}

/// The bytes of the flows from `port`, joined one after the other.
fn sent_from(flows: Vec<Segments>, port: u16) -> io::Result<Vec<u8>> {
    let mut stream = Vec::new();
    for segments in flows {
        if segments.source.port() == port {
            stream.extend_from_slice(&segments.into_flow()?.bytes);
        }
    }
    Ok(stream)
}

/// Calls `each` with the link type and bytes of every captured frame.
///
/// A pcapng packet names its interface by its place among the section's
/// interface descriptions; a packet naming one not yet described is an
/// error, as its link type, and so its framing, is unknown.
fn for_each_frame(capture: &[u8], mut each: impl FnMut(Linktype, &[u8])) -> io::Result<()> {
    let invalid = |what: String| io::Error::new(io::ErrorKind::InvalidData, what);
    match capture.get(..4) {
        Some([0x0a, 0x0d, 0x0d, 0x0a]) => {
            let ng = PcapNGCapture::from_file(capture)
                .map_err(|e| invalid(format!("not a pcapng file: {e:?}")))?;
            for (section, blocks) in ng.sections.iter().enumerate() {
                // Each section numbers its own interfaces, in order of appearance.
                let mut interfaces = Vec::new();
                let linktype = |interfaces: &[Linktype], id: u32| {
                    interfaces.get(id as usize).copied().ok_or_else(|| {
                        invalid(format!(
                            "a packet in section {section} names interface {id}, \
                             but the section describes {} before it",
                            interfaces.len()
                        ))
                    })
                };
                for block in &blocks.blocks {
                    match block {
                        Block::InterfaceDescription(idb) => interfaces.push(idb.linktype),
                        Block::EnhancedPacket(epb) => {
                            each(linktype(&interfaces, epb.if_id)?, epb.packet_data());
                        }
                        // A simple packet is always from the first interface.
                        Block::SimplePacket(spb) => {
                            each(linktype(&interfaces, 0)?, spb.packet_data());
                        }
                        _ => {}
                    }
                }
            }
        }
        Some(_) => {
            let pcap = PcapCapture::from_file(capture)
                .map_err(|e| invalid(format!("not a pcap file: {e:?}")))?;
            for block in &pcap.blocks {
                let len = (block.caplen as usize).min(block.data.len());
                each(pcap.header.network, &block.data[..len]);
            }
        }
        None => {
            return Err(invalid(
                "the capture is shorter than its magic number".into(),
            ));
        }
    }
    Ok(())
}

/// The flows seen so far, and where the latest one of each address and port
/// pair is in the list.
#[derive(Default)]
struct Flows {
    list: Vec<Segments>,
    index: HashMap<(SocketAddr, SocketAddr), usize>,
}

impl Flows {
    fn add(&mut self, linktype: Linktype, frame: &[u8]) {
        let sliced = match linktype {
            Linktype::ETHERNET => SlicedPacket::from_ethernet(frame),
            Linktype::LINUX_SLL => SlicedPacket::from_linux_sll(frame),
            // BSD loopback: a 4-byte address family, then IP.
            Linktype::NULL | Linktype::LOOP => {
                SlicedPacket::from_ip(frame.get(4..).unwrap_or_default())
            }
            _ => SlicedPacket::from_ip(frame),
        };
        // Frames that are not TCP over IP are no flow's.
        let Ok(SlicedPacket {
            net: Some(net),
            transport: Some(TransportSlice::Tcp(tcp)),
            ..
        }) = sliced
        else {
            return;
        };
        let (source, destination): (IpAddr, IpAddr) = match &net {
            NetSlice::Ipv4(ip) => (
                ip.header().source_addr().into(),
                ip.header().destination_addr().into(),
            ),
            NetSlice::Ipv6(ip) => (
                ip.header().source_addr().into(),
                ip.header().destination_addr().into(),
            ),
            NetSlice::Arp(_) => return,
        };
        let key = (
            SocketAddr::new(source, tcp.source_port()),
            SocketAddr::new(destination, tcp.destination_port()),
        );
        let (seq, syn) = (tcp.sequence_number(), tcp.syn());
        let known = self
            .index
            .get(&key)
            .filter(|&&at| !(syn && self.list[at].is_other_connection(seq)));
        let at = match known {
            Some(&at) => at,
            None => {
                self.list.push(Segments::new(key.0, key.1));
                self.index.insert(key, self.list.len() - 1);
                self.list.len() - 1
            }
        };
        self.list[at].add(seq, syn, tcp.payload());
    }
}

/// One flow's payloads, by where they fall in the flow's sequence space
/// unwrapped past 2^32.
struct Segments {
    source: SocketAddr,
    destination: SocketAddr,
    /// The last segment's sequence number and its unwrapped place: the next
    /// one is placed by its distance from it, taken modulo 2^32 as a signed
    /// number, so the flow may wrap and segments may come out of order.
    last: Option<(u32, i64)>,
    /// Where the payload starts, once the SYN was seen: the SYN takes one
    /// sequence number.
    start: Option<i64>,
    /// The SYN's sequence number as on the wire, once seen.
    syn_seq: Option<u32>,
    /// Payloads by unwrapped sequence number.
    by_seq: BTreeMap<i64, Vec<u8>>,
}

impl Segments {
    fn new(source: SocketAddr, destination: SocketAddr) -> Segments {
        Segments {
            source,
            destination,
            last: None,
            start: None,
            syn_seq: None,
            by_seq: BTreeMap::new(),
        }
    }

    /// Whether a SYN at `seq` opens a new connection rather than repeat
    /// this flow's own: this flow already had a different SYN. A SYN after
    /// bytes of a flow without one is taken as that flow's, captured late:
    /// from the sequence numbers alone it cannot be told from a new
    /// connection's.
    fn is_other_connection(&self, seq: u32) -> bool {
        self.syn_seq.is_some_and(|syn_seq| syn_seq != seq)
    }

    fn add(&mut self, seq: u32, syn: bool, payload: &[u8]) {
        let mut at = match self.last {
            None => i64::from(seq),
            Some((last_seq, last_at)) => {
                let distance = i64::from(seq.wrapping_sub(last_seq).cast_signed());
                last_at.saturating_add(distance)
            }
        };
        self.last = Some((seq, at));
        if syn {
            at = at.saturating_add(1);
            self.start = Some(at);
            self.syn_seq = Some(seq);
        }
        if payload.is_empty() {
            return;
        }
        // A longer resend from the same place keeps what was seen first
        // and adds the rest.
        let held = self.by_seq.entry(at).or_default();
        if let Some(more) = payload.get(held.len()..) {
            held.extend_from_slice(more);
        }
    }

    /// The payloads joined in sequence order; overlaps are trimmed, gaps fail.
    fn into_flow(self) -> io::Result<Flow> {
        let mut bytes = Vec::new();
        let mut next = self.start;
        for (at, payload) in self.by_seq {
            let expected = *next.get_or_insert(at);
            if at > expected {
                // Sequence numbers are shown as on the wire, modulo 2^32.
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!(
                        "missing bytes from {} to {}: sequence {} to {} was not captured",
                        self.source, self.destination, expected as u32, at as u32
                    ),
                ));
            }
            // A payload wholly inside what was read adds nothing and moves nothing.
            let skip = usize::try_from(expected - at).unwrap_or(usize::MAX);
            if let Some(fresh) = payload.get(skip..) {
                bytes.extend_from_slice(fresh);
                next = Some(expected.saturating_add(fresh.len() as i64));
            }
        }
        Ok(Flow {
            source: self.source,
            destination: self.destination,
            bytes,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(sport: u16, seq: u32, payload: &[u8]) -> Vec<u8> {
        let builder = etherparse::PacketBuilder::ipv4([127, 0, 0, 2], [127, 0, 0, 1], 64)
            .tcp(sport, 50000, seq, 65535);
        let mut out = Vec::new();
        builder.write(&mut out, payload).unwrap();
        out
    }

    #[test]
    fn reorders_and_drops_retransmissions() {
        let mut flows = Flows::default();
        // "hello, world" from sequence 100: out of order, resent, and overlapping.
        for (seq, payload) in [
            (107, &b"world"[..]),
            (100, b"hello, "),
            (107, b"world"),
            (104, b"o, wo"),
            (101, b"el"),
        ] {
            flows.add(Linktype::RAW, &frame(1433, seq, payload));
        }
        flows.add(Linktype::RAW, &frame(50001, 100, b"client"));
        assert_eq!(sent_from(flows.list, 1433).unwrap(), b"hello, world");
    }

    #[test]
    fn a_gap_is_an_error() {
        let mut flows = Flows::default();
        flows.add(Linktype::RAW, &frame(1433, 100, b"abc"));
        flows.add(Linktype::RAW, &frame(1433, 200, b"def"));
        let err = sent_from(flows.list, 1433).unwrap_err();
        assert!(
            err.to_string()
                .contains("from 127.0.0.2:1433 to 127.0.0.1:50000: sequence 103 to 200"),
            "{err}"
        );
    }

    #[test]
    fn the_gap_is_shown_in_wire_sequence_numbers_across_the_wrap() {
        let mut flows = Flows::default();
        flows.add(Linktype::RAW, &frame(1433, u32::MAX - 1, b"ab"));
        flows.add(Linktype::RAW, &frame(1433, 5, b"def"));
        let err = sent_from(flows.list, 1433).unwrap_err();
        assert!(err.to_string().contains("sequence 0 to 5"), "{err}");
    }

    fn syn(sport: u16, seq: u32) -> Vec<u8> {
        let builder = etherparse::PacketBuilder::ipv4([127, 0, 0, 2], [127, 0, 0, 1], 64)
            .tcp(sport, 50000, seq, 65535)
            .syn();
        let mut out = Vec::new();
        builder.write(&mut out, &[]).unwrap();
        out
    }

    #[test]
    fn a_new_syn_on_a_reused_port_pair_starts_a_new_flow() {
        let mut flows = Flows::default();
        flows.add(Linktype::RAW, &syn(1433, 1000));
        flows.add(Linktype::RAW, &frame(1433, 1001, b"first "));
        // The same SYN again is a retransmission, not a new connection.
        flows.add(Linktype::RAW, &syn(1433, 1000));
        flows.add(Linktype::RAW, &frame(1433, 1007, b"one"));
        flows.add(Linktype::RAW, &syn(1433, 90_000));
        flows.add(Linktype::RAW, &frame(1433, 90_001, b", then the next"));
        assert_eq!(flows.list.len(), 2);
        assert_eq!(
            sent_from(flows.list, 1433).unwrap(),
            b"first one, then the next"
        );
    }

    #[test]
    fn a_syn_captured_after_its_bytes_belongs_to_their_flow() {
        let mut flows = Flows::default();
        flows.add(Linktype::RAW, &frame(1433, 4, b" head"));
        flows.add(Linktype::RAW, &syn(1433, 3));
        flows.add(Linktype::RAW, &frame(1433, 9, b" tail"));
        assert_eq!(flows.list.len(), 1);
        assert_eq!(sent_from(flows.list, 1433).unwrap(), b" head tail");
    }

    #[test]
    fn not_a_capture() {
        assert!(server_stream(b"ab", 1433).is_err());
        assert!(server_stream(b"not a pcap at all", 1433).is_err());
    }
}
