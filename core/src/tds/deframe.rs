use super::error::{ErrorKind, Result, error_at};
use super::packet::{HEADER_LEN, PacketHeader, PacketStatus, PacketType};
use super::status::Status;

/// A piece of one packet's payload, borrowed from the chunk it arrived in
/// (or, from [`WholePackets`](super::WholePackets), from the buffer it was
/// joined in).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Payload<'c> {
    /// The header of the packet the bytes belong to.
    pub header: PacketHeader,
    /// Payload bytes: a sub-slice of the chunk that was fed, or of the
    /// buffer a split packet was joined in. Empty only for a packet with no
    /// payload at all (length 8).
    pub bytes: &'c [u8],
    /// Whether these are the packet's last payload bytes.
    pub packet_end: bool,
    /// Whether these are the message's last bytes: the packet's last bytes,
    /// in a packet with EOM set.
    pub message_end: bool,
}

/// A resumable packet de-framer for a server-to-client byte stream
/// [MS-TDS 2.2.3].
///
/// Feed it the stream in chunks of any size, even with packet headers split
/// across chunks; it hands out each packet's payload as zero-copy sub-slices
/// of the chunks, checks every packet length, and reports where messages end
/// (EOM). It keeps a partly read header in a fixed `[u8; 8]` and never
/// touches the heap.
///
/// ```
/// use leanwire_core::tds::{Deframer, PacketHeader, PacketStatus, PacketType, Status};
///
/// // One message in two packets: "ABC" without EOM, then "DE" with it.
/// let header = PacketHeader { packet_type: PacketType::TabularResult, status: PacketStatus(0),
///                             length: 11, spid: 0, packet_id: 1, window: 0 };
/// let mut stream = [0u8; 21];
/// header.emit((&mut stream[..8]).try_into().unwrap());
/// stream[8..11].copy_from_slice(b"ABC");
/// let last = PacketHeader { status: PacketStatus::EOM, length: 10, packet_id: 2, ..header };
/// last.emit((&mut stream[11..19]).try_into().unwrap());
/// stream[19..].copy_from_slice(b"DE");
///
/// // Fed in two chunks that split the second header.
/// let mut deframer = Deframer::new();
/// let mut message = Vec::new();
/// let mut ends = 0;
/// for mut chunk in [&stream[..13], &stream[13..]] {
///     while let Status::Complete(piece) = deframer.next(&mut chunk)? {
///         message.extend_from_slice(piece.bytes);
///         ends += usize::from(piece.message_end);
///     }
/// }
/// deframer.finish()?;
/// assert_eq!((&message[..], ends), (&b"ABCDE"[..], 1));
/// # Ok::<(), leanwire_core::tds::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Deframer {
    /// A header read in part.
    header: [u8; HEADER_LEN],
    have: u8,
    /// The packet whose payload is being handed out, while `left` is not 0.
    current: PacketHeader,
    /// Payload bytes of `current` not yet handed out.
    left: u16,
    /// Whether the last packet handed out completely ended a message.
    at_message_start: bool,
    /// The stream offset of the current packet's first byte (between
    /// packets, of the next one's); [`offset`](Self::offset) adds what has
    /// been taken of the packet since.
    packet_at: u64,
    failed: Option<super::Error>,
}

impl Default for Deframer {
    fn default() -> Self {
        Deframer::new()
    }
}

impl Deframer {
    /// A de-framer at the start of a stream.
    pub const fn new() -> Deframer {
        Deframer {
            header: [0; HEADER_LEN],
            have: 0,
            // Read only while `left` is not 0, so never before a first packet.
            current: PacketHeader {
                packet_type: PacketType::TabularResult,
                status: PacketStatus(0),
                length: HEADER_LEN as u16,
                spid: 0,
                packet_id: 0,
                window: 0,
            },
            left: 0,
            at_message_start: true,
            packet_at: 0,
            failed: None,
        }
    }

    /// Takes bytes from the front of `input` and returns the next piece of
    /// payload, or `Partial` once `input` is used up.
    ///
    /// Each packet yields one or more pieces; the last has `packet_end` set.
    /// A packet length below 8 or above 32768 is an error at the offset of
    /// its length field, and every later call returns the same error.
    #[inline]
    pub fn next<'c>(&mut self, input: &mut &'c [u8]) -> Result<Status<Payload<'c>>> {
        // A de-framer fails only on a header, so it has no current packet
        // once it has failed: `next_packet` returns the error.
        if self.left > 0 {
            Ok(self.payload(input))
        } else {
            self.next_packet(input)
        }
    }

    /// Reads the next packet's header, then hands out the first piece of
    /// its payload. Out of line: it runs once a packet.
    #[inline(never)]
    fn next_packet<'c>(&mut self, input: &mut &'c [u8]) -> Result<Status<Payload<'c>>> {
        if let Some(e) = self.failed {
            return Err(e);
        }
        let have = usize::from(self.have);
        let take = (HEADER_LEN - have).min(input.len());
        self.header[have..have + take].copy_from_slice(&input[..take]);
        *input = &input[take..];
        self.have += take as u8;
        if usize::from(self.have) < HEADER_LEN {
            return Ok(Status::Partial);
        }
        self.have = 0;
        let start = self.packet_at;
        let header = match PacketHeader::from_bytes(&self.header) {
            Ok(header) => header,
            Err(e) => {
                self.packet_at += HEADER_LEN as u64;
                let e = error_at(e.kind(), start + e.offset() as u64);
                self.failed = Some(e);
                return Err(e);
            }
        };
        self.left = header.length - HEADER_LEN as u16;
        self.at_message_start = false;
        if self.left == 0 {
            self.packet_at += HEADER_LEN as u64;
            self.at_message_start = header.status.is_eom();
            return Ok(Status::Complete(Payload {
                header,
                bytes: &[],
                packet_end: true,
                message_end: header.status.is_eom(),
            }));
        }
        self.current = header;
        Ok(self.payload(input))
    }

    /// The next piece of the current packet's payload.
    #[inline]
    fn payload<'c>(&mut self, input: &mut &'c [u8]) -> Status<Payload<'c>> {
        let header = self.current;
        if input.is_empty() {
            return Status::Partial;
        }
        let take = usize::from(self.left).min(input.len());
        let (bytes, rest) = input.split_at(take);
        *input = rest;
        self.left -= take as u16;
        let packet_end = self.left == 0;
        if packet_end {
            self.packet_at += u64::from(header.length);
            self.at_message_start = header.status.is_eom();
        }
        Status::Complete(Payload {
            header,
            bytes,
            packet_end,
            message_end: packet_end && header.status.is_eom(),
        })
    }

    /// Takes all of `input` when it ends inside the current packet's
    /// payload, which then needs no piece of its own: the bytes taken.
    /// `None`, with nothing taken, leaves it to [`next`](Self::next).
    #[inline]
    pub(super) fn take_inside_packet<'c>(&mut self, input: &mut &'c [u8]) -> Option<&'c [u8]> {
        if input.len() >= usize::from(self.left) {
            return None;
        }
        let bytes = core::mem::take(input);
        self.left -= bytes.len() as u16;
        Some(bytes)
    }

    /// The caller's word that the stream ended: `Ok` between packets, else
    /// [`ErrorKind::TruncatedPacket`] at the current offset.
    ///
    /// A stream that ends between packets of one message (after a packet
    /// without EOM) is not a de-framing error; [`in_message`](Self::in_message)
    /// tells.
    pub fn finish(&self) -> Result<()> {
        if let Some(e) = self.failed {
            return Err(e);
        }
        if self.have > 0 || self.left > 0 {
            return Err(error_at(ErrorKind::TruncatedPacket, self.offset()));
        }
        Ok(())
    }

    /// Whether the stream is inside a message: a packet has begun, or the
    /// last complete packet lacked EOM.
    pub fn in_message(&self) -> bool {
        self.have > 0 || self.left > 0 || !self.at_message_start
    }

    /// The bytes taken in so far.
    pub const fn offset(&self) -> u64 {
        let in_packet = match self.left {
            0 => 0,
            left => self.current.length - left,
        };
        self.packet_at + self.have as u64 + in_packet as u64
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::tds::Error;
    use std::vec::Vec;

    /// A packet of `payload`, with `status`.
    pub(in crate::tds) fn packet(status: u8, payload: &[u8]) -> Vec<u8> {
        let mut out = Vec::from([0x04, status]);
        out.extend_from_slice(&((payload.len() + 8) as u16).to_be_bytes());
        out.extend_from_slice(&[0, 0x33, 1, 0]);
        out.extend_from_slice(payload);
        out
    }

    /// (payload, message ends) per packet, feeding `chunk` bytes at a time.
    fn run(stream: &[u8], chunk: usize) -> Result<Vec<(Vec<u8>, bool)>> {
        let mut deframer = Deframer::new();
        let mut packets = Vec::new();
        let mut current = Vec::new();
        for mut piece in stream.chunks(chunk) {
            while let Status::Complete(p) = deframer.next(&mut piece)? {
                current.extend_from_slice(p.bytes);
                if p.packet_end {
                    packets.push((core::mem::take(&mut current), p.message_end));
                }
            }
        }
        deframer.finish()?;
        Ok(packets)
    }

    /// "hello" without EOM, an empty packet with EOM, "world!" with EOM.
    pub(in crate::tds) fn three_packets() -> Vec<u8> {
        let mut stream = packet(0, b"hello");
        stream.extend(packet(1, b""));
        stream.extend(packet(1, b"world!"));
        stream
    }

    #[test]
    fn every_chunk_size_gives_the_same_packets() {
        let stream = three_packets();
        let want = Vec::from([
            (b"hello".to_vec(), false),
            (Vec::new(), true),
            (b"world!".to_vec(), true),
        ]);
        for chunk in 1..=stream.len() {
            assert_eq!(run(&stream, chunk).unwrap(), want, "chunk {chunk}");
        }
    }

    /// "ok" with EOM, then a header whose length, 7, is shorter than a
    /// header: an error at byte 12, the length field.
    pub(in crate::tds) fn bad_length() -> Vec<u8> {
        let mut stream = packet(1, b"ok");
        stream.extend([0x04, 0x01, 0x00, 0x07, 0, 0, 0, 0]);
        stream
    }

    #[test]
    fn bad_length_is_reported_at_its_field() {
        let stream = bad_length();
        for chunk in [1, 3, stream.len()] {
            assert_eq!(
                run(&stream, chunk).unwrap_err(),
                Error::new(ErrorKind::BadPacketLength(7), 12)
            );
        }
    }

    #[test]
    fn truncated_packet() {
        let stream = packet(1, b"hello");
        for cut in 1..stream.len() {
            assert_eq!(
                run(&stream[..cut], 2).unwrap_err(),
                Error::new(ErrorKind::TruncatedPacket, cut)
            );
        }
        let mut deframer = Deframer::new();
        let mut input = &packet(0, b"x")[..];
        while deframer.next(&mut input).unwrap().complete().is_some() {}
        assert!(deframer.in_message());
        assert!(deframer.finish().is_ok());
    }

    #[test]
    fn in_message_and_offset_after_every_byte() {
        // In a message from its first byte to the end of its EOM packet;
        // the offset counts every byte taken, headers included.
        let mut stream = packet(0, b"first");
        stream.extend(packet(1, b"last"));
        stream.extend(packet(1, b""));
        let eoms = [stream.len() - HEADER_LEN, stream.len()];
        let mut deframer = Deframer::new();
        assert!(!deframer.in_message());
        for (at, byte) in stream.iter().enumerate() {
            let mut input = core::slice::from_ref(byte);
            while deframer.next(&mut input).unwrap().complete().is_some() {}
            let done = at + 1;
            assert_eq!(
                deframer.in_message(),
                !eoms.contains(&done),
                "after {done} bytes"
            );
            assert_eq!(deframer.offset(), done as u64);
        }
    }
}
