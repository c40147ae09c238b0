//! The pcap reader (`pcap::flows`, `pcap::server_stream`), in two modes
//! picked by the low bit of the first byte.
//!
//! Even: the rest is a capture. No panic, and where every flow reads, the
//! server stream of each source port is its flows' bytes joined in order.
//!
//! Odd: the rest describes TCP segments of four flows, framed here as raw
//! IPv4 in a classic pcap. Every segment carries the true bytes of its flow
//! at its offset, from an initial sequence number the input picks (so a flow
//! may wrap past 2^32), in any order, resent and overlapping. The reader
//! must give each flow's true bytes from its start (after the SYN, or the
//! first segment when no SYN was sent) to the end of the covered range, or
//! fail on a flow whose covered range has a hole.
#![no_main]

use std::net::SocketAddr;

use leanwire_native::pcap::{Flow, flows, server_stream};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    match bytes.split_first() {
        Some((mode, rest)) if mode & 1 == 1 => segments(rest),
        Some((_, rest)) => capture(rest),
        None => {}
    }
});

fn capture(bytes: &[u8]) {
    let Ok(all) = flows(bytes) else {
        let _ = server_stream(bytes, 1433);
        return;
    };
    for flow in &all {
        let port = flow.source.port();
        assert_eq!(server_stream(bytes, port).unwrap(), joined_from(&all, port));
    }
}

/// The bytes of the flows from `port`, one after the other.
fn joined_from(all: &[Flow], port: u16) -> Vec<u8> {
    all.iter()
        .filter(|f| f.source.port() == port)
        .flat_map(|f| f.bytes.iter().copied())
        .collect()
}

/// The four flows' ends: two from the server to clients that share a port,
/// one back, and one to another port.
const ENDS: [([u8; 4], u16, [u8; 4], u16); 4] = [
    ([10, 0, 0, 1], 1433, [10, 0, 0, 2], 50000),
    ([10, 0, 0, 1], 1433, [10, 0, 0, 3], 50000),
    ([10, 0, 0, 2], 50000, [10, 0, 0, 1], 1433),
    ([10, 0, 0, 1], 1433, [10, 0, 0, 2], 50001),
];

/// The byte of flow `flow` at `offset` from its start.
fn truth(flow: usize, offset: usize) -> u8 {
    (offset as u8) ^ ((offset >> 8) as u8).rotate_left(3) ^ (flow as u8).wrapping_mul(0x55)
}

fn segments(bytes: &[u8]) {
    let Some((isns, rest)) = bytes.split_first_chunk::<16>() else {
        return;
    };
    let isn = |flow: usize| {
        u32::from_le_bytes([
            isns[4 * flow],
            isns[4 * flow + 1],
            isns[4 * flow + 2],
            isns[4 * flow + 3],
        ])
    };
    let mut capture = pcap_header();
    // Per flow: whether it was seen, its SYN was sent, and the ranges sent.
    let mut order = Vec::new();
    let mut syn = [false; 4];
    let mut ranges: [Vec<(usize, usize)>; 4] = Default::default();
    // Each segment: flow and SYN bit, offset (16 bits), length.
    for segment in rest.chunks_exact(4) {
        let flow = usize::from(segment[0] & 3);
        let is_syn = segment[0] & 4 != 0;
        let offset = usize::from(u16::from_le_bytes([segment[1], segment[2]]));
        let len = usize::from(segment[3]);
        if !order.contains(&flow) {
            order.push(flow);
        }
        if is_syn {
            syn[flow] = true;
            push_frame(&mut capture, flow, isn(flow), true, &[]);
        } else {
            let payload: Vec<u8> = (offset..offset + len).map(|at| truth(flow, at)).collect();
            let seq = isn(flow).wrapping_add(1).wrapping_add(offset as u32);
            push_frame(&mut capture, flow, seq, false, &payload);
            if len > 0 {
                ranges[flow].push((offset, offset + len));
            }
        }
    }
    // What each flow must read as: its bytes, or `None` for a hole.
    let expected: Vec<(usize, Option<Vec<u8>>)> = order
        .iter()
        .map(|&flow| (flow, expected_bytes(flow, syn[flow], &mut ranges[flow])))
        .collect();
    let flow_of = |flow: usize| {
        let (src, sport, dst, dport) = ENDS[flow];
        (
            SocketAddr::from((src, sport)),
            SocketAddr::from((dst, dport)),
        )
    };
    match flows(&capture) {
        Ok(got) => {
            let want: Vec<Flow> = expected
                .iter()
                .map(|(flow, bytes)| {
                    let (source, destination) = flow_of(*flow);
                    let bytes = bytes.clone().expect("a flow with a hole read");
                    Flow {
                        source,
                        destination,
                        bytes,
                    }
                })
                .collect();
            assert_eq!(got, want);
        }
        Err(e) => assert!(
            expected.iter().any(|(_, bytes)| bytes.is_none()),
            "every flow is whole, yet: {e}"
        ),
    }
    // The server's stream: flows 0, 1 and 3, in order of appearance.
    let server: Option<Vec<u8>> = expected
        .iter()
        .filter(|(flow, _)| *flow != 2)
        .map(|(_, bytes)| bytes.clone())
        .collect::<Option<Vec<_>>>()
        .map(|parts| parts.concat());
    match (server_stream(&capture, 1433), server) {
        (Ok(got), Some(want)) => assert_eq!(got, want),
        (Err(_), None) => {}
        (got, want) => panic!("server stream {got:?}, expected {want:?}"),
    }
}

/// The true bytes from the flow's start to the end of the covered range,
/// or `None` if the range has a hole.
fn expected_bytes(flow: usize, syn: bool, ranges: &mut [(usize, usize)]) -> Option<Vec<u8>> {
    ranges.sort_unstable();
    let Some(&(first, _)) = ranges.first() else {
        return Some(Vec::new());
    };
    let start = if syn { 0 } else { first };
    let mut end = start;
    for &(lo, hi) in ranges.iter() {
        if lo > end {
            return None;
        }
        end = end.max(hi);
    }
    Some((start..end).map(|at| truth(flow, at)).collect())
}

/// A classic little-endian pcap header for raw IP (LINKTYPE_RAW).
fn pcap_header() -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(&0xa1b2_c3d4_u32.to_le_bytes());
    out.extend_from_slice(&2u16.to_le_bytes());
    out.extend_from_slice(&4u16.to_le_bytes());
    out.extend_from_slice(&[0; 8]);
    out.extend_from_slice(&65535u32.to_le_bytes());
    out.extend_from_slice(&101u32.to_le_bytes());
    out
}

/// Appends one IPv4 packet with one TCP segment of `flow`. The checksums
/// are left zero: the reader does not check them.
fn push_frame(capture: &mut Vec<u8>, flow: usize, seq: u32, syn: bool, payload: &[u8]) {
    let (src, sport, dst, dport) = ENDS[flow];
    let total = 40 + payload.len();
    let mut frame = vec![0x45, 0];
    frame.extend_from_slice(&(total as u16).to_be_bytes());
    frame.extend_from_slice(&[0, 0, 0x40, 0, 64, 6, 0, 0]);
    frame.extend_from_slice(&src);
    frame.extend_from_slice(&dst);
    frame.extend_from_slice(&sport.to_be_bytes());
    frame.extend_from_slice(&dport.to_be_bytes());
    frame.extend_from_slice(&seq.to_be_bytes());
    frame.extend_from_slice(&0u32.to_be_bytes());
    frame.extend_from_slice(&[0x50, if syn { 0x02 } else { 0x18 }]);
    frame.extend_from_slice(&65535u16.to_be_bytes());
    frame.extend_from_slice(&[0; 4]);
    frame.extend_from_slice(payload);
    let len = (frame.len() as u32).to_le_bytes();
    capture.extend_from_slice(&[0; 8]);
    capture.extend_from_slice(&len);
    capture.extend_from_slice(&len);
    capture.extend_from_slice(&frame);
}
