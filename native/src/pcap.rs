//! The server's side of a TCP conversation, read out of a packet capture:
//! what `leanwire tds decode --pcap` decodes.
//!
//! Both capture formats are read (classic pcap in either byte order and
//! precision, and pcapng), with Ethernet, raw IP, Linux cooked and BSD
//! loopback framing. TCP segments sent from the server's port are put in
//! sequence order; a segment seen twice (a retransmission) counts once, and
//! a gap in the sequence is an error, because the bytes after it could not
//! be read in order.

use std::collections::BTreeMap;
use std::io;

use etherparse::{SlicedPacket, TransportSlice};
use pcap_parser::pcapng::Block;
use pcap_parser::{Linktype, PcapCapture, PcapNGCapture};

/// The TCP payload bytes that `server_port` sent, in sequence order.
///
/// ```no_run
/// let capture = std::fs::read("types.pcap")?;
/// let stream = leanwire_native::pcap::server_stream(&capture, 1433)?;
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn server_stream(capture: &[u8], server_port: u16) -> io::Result<Vec<u8>> {
    let mut segments = Segments::default();
    for_each_frame(capture, |linktype, frame| {
        segments.add(linktype, frame, server_port)
    })?;
    segments.into_stream()
}

/// Calls `each` with the link type and bytes of every captured frame.
fn for_each_frame(capture: &[u8], mut each: impl FnMut(Linktype, &[u8])) -> io::Result<()> {
    let invalid = |what: String| io::Error::new(io::ErrorKind::InvalidData, what);
    match capture.get(..4) {
        Some([0x0a, 0x0d, 0x0d, 0x0a]) => {
            let ng = PcapNGCapture::from_file(capture)
                .map_err(|e| invalid(format!("not a pcapng file: {e:?}")))?;
            for section in &ng.sections {
                // Each section numbers its own interfaces, in order of appearance.
                let mut interfaces = Vec::new();
                for block in &section.blocks {
                    match block {
                        Block::InterfaceDescription(idb) => interfaces.push(idb.linktype),
                        Block::EnhancedPacket(epb) => {
                            let linktype = interfaces
                                .get(epb.if_id as usize)
                                .copied()
                                .unwrap_or(Linktype::ETHERNET);
                            let len = (epb.caplen as usize).min(epb.data.len());
                            each(linktype, &epb.data[..len]);
                        }
                        Block::SimplePacket(spb) => {
                            each(
                                interfaces.first().copied().unwrap_or(Linktype::ETHERNET),
                                spb.data,
                            );
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

/// The server's segments by sequence number.
#[derive(Default)]
struct Segments {
    by_seq: BTreeMap<u32, Vec<u8>>,
}

impl Segments {
    fn add(&mut self, linktype: Linktype, frame: &[u8], server_port: u16) {
        let sliced = match linktype {
            Linktype::ETHERNET => SlicedPacket::from_ethernet(frame),
            Linktype::LINUX_SLL => SlicedPacket::from_linux_sll(frame),
            // BSD loopback: a 4-byte address family, then IP.
            Linktype::NULL | Linktype::LOOP => {
                SlicedPacket::from_ip(frame.get(4..).unwrap_or_default())
            }
            _ => SlicedPacket::from_ip(frame),
        };
        // Frames that are not TCP, or not from the server, are not the stream.
        let Ok(SlicedPacket {
            transport: Some(TransportSlice::Tcp(tcp)),
            ..
        }) = sliced
        else {
            return;
        };
        if tcp.source_port() == server_port && !tcp.payload().is_empty() {
            self.by_seq
                .entry(tcp.sequence_number())
                .or_insert_with(|| tcp.payload().to_vec());
        }
    }

    /// The payloads joined in sequence order; overlaps are trimmed, gaps fail.
    fn into_stream(self) -> io::Result<Vec<u8>> {
        let mut stream = Vec::new();
        let mut next: Option<u32> = None;
        for (seq, payload) in self.by_seq {
            let skip = match next {
                None => 0,
                Some(expected) if seq > expected => {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidData,
                        format!(
                            "missing server bytes: sequence {expected} to {seq} was not captured"
                        ),
                    ));
                }
                Some(expected) => (expected - seq) as usize,
            };
            // A segment wholly inside what was read adds nothing and moves nothing.
            if let Some(fresh) = payload.get(skip..) {
                stream.extend_from_slice(fresh);
                next = Some(seq.wrapping_add(payload.len() as u32));
            }
        }
        Ok(stream)
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
        let mut segments = Segments::default();
        // "hello, world" from sequence 100: out of order, resent, and overlapping.
        for (seq, payload) in [
            (107, &b"world"[..]),
            (100, b"hello, "),
            (107, b"world"),
            (104, b"o, wo"),
            (101, b"el"),
        ] {
            segments.add(Linktype::RAW, &frame(1433, seq, payload), 1433);
        }
        segments.add(Linktype::RAW, &frame(50001, 100, b"client"), 1433);
        assert_eq!(segments.into_stream().unwrap(), b"hello, world");
    }

    #[test]
    fn a_gap_is_an_error() {
        let mut segments = Segments::default();
        segments.add(Linktype::RAW, &frame(1433, 100, b"abc"), 1433);
        segments.add(Linktype::RAW, &frame(1433, 200, b"def"), 1433);
        let err = segments.into_stream().unwrap_err();
        assert!(err.to_string().contains("sequence 103 to 200"), "{err}");
    }

    #[test]
    fn not_a_capture() {
        assert!(server_stream(b"ab", 1433).is_err());
        assert!(server_stream(b"not a pcap at all", 1433).is_err());
    }
}
