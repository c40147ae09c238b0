use super::deframe::{Deframer, Payload};
use super::error::Result;
use super::status::Status;

/// A [`Deframer`] that hands out each packet's payload in one piece.
///
/// A packet that lies whole in the chunk fed comes straight from it, with
/// no copy, as from [`Deframer`]. A packet split across chunks is gathered
/// in the caller's buffer and comes out once its last byte is in, so the
/// [`Reader`](super::Reader) behind it reads whole packets however small
/// the chunks are, at the price of one copy of the split packets' bytes.
/// A packet longer than the buffer comes in pieces, as from [`Deframer`].
///
/// A buffer of the connection's packet size (4,096 bytes unless the login
/// changed it) keeps every packet whole; `MAX_PACKET_LEN - HEADER_LEN`
/// bytes keep any packet whole.
///
/// ```
/// use leanwire_core::tds::{PacketHeader, PacketStatus, PacketType, Status, WholePackets};
///
/// // One packet, "ABC" with EOM, fed one byte at a time.
/// let header = PacketHeader { packet_type: PacketType::TabularResult, status: PacketStatus::EOM,
///                             length: 11, spid: 0, packet_id: 1, window: 0 };
/// let mut stream = [0u8; 11];
/// header.emit((&mut stream[..8]).try_into().unwrap());
/// stream[8..].copy_from_slice(b"ABC");
///
/// let mut buf = [0u8; 4096];
/// let mut packets = WholePackets::new(&mut buf);
/// let mut pieces = Vec::new();
/// for mut chunk in stream.chunks(1) {
///     while let Status::Complete(payload) = packets.next(&mut chunk)? {
///         pieces.push((payload.bytes.to_vec(), payload.message_end));
///     }
/// }
/// packets.finish()?;
/// assert_eq!(pieces, [(b"ABC".to_vec(), true)]);
/// # Ok::<(), leanwire_core::tds::Error>(())
/// ```
#[derive(Debug)]
pub struct WholePackets<'b> {
    deframer: Deframer,
    buf: &'b mut [u8],
    /// Payload bytes of the current packet gathered in `buf`.
    len: usize,
}

impl<'b> WholePackets<'b> {
    /// At the start of a stream, gathering split packets in `buf`.
    pub fn new(buf: &'b mut [u8]) -> WholePackets<'b> {
        WholePackets {
            deframer: Deframer::new(),
            buf,
            len: 0,
        }
    }

    /// Takes bytes from the front of `input` and returns the next packet's
    /// payload, or `Partial` once `input` is used up.
    ///
    /// The payload has `packet_end` set, unless the packet is longer than
    /// the buffer. Errors are the [`Deframer`]'s.
    #[inline]
    pub fn next<'s, 'c: 's>(&'s mut self, input: &mut &'c [u8]) -> Result<Status<Payload<'s>>> {
        if self.len > 0
            && let Some(bytes) = self.deframer.take_inside_packet(input)
        {
            self.append(bytes);
            return Ok(Status::Partial);
        }
        let piece = match self.deframer.next(input)? {
            Status::Complete(piece) => piece,
            Status::Partial => return Ok(Status::Partial),
        };
        // A packet whole in `input`, or one longer than the buffer, whose
        // pieces pass through as they come.
        if self.len == 0 && (piece.packet_end || piece.header.payload_len() > self.buf.len()) {
            return Ok(Status::Complete(piece));
        }
        Ok(self.gather(piece))
    }

    /// Adds `piece`, of a packet split across chunks, to the buffer: the
    /// packet's whole payload once `piece` ends it.
    #[inline]
    fn gather<'s, 'c: 's>(&'s mut self, piece: Payload<'c>) -> Status<Payload<'s>> {
        self.append(piece.bytes);
        if !piece.packet_end {
            // The packet goes on past `input`, so all of it was taken.
            return Status::Partial;
        }
        let len = core::mem::take(&mut self.len);
        Status::Complete(Payload {
            bytes: &self.buf[..len],
            ..piece
        })
    }

    /// Adds `bytes` to the packet gathered in the buffer.
    #[inline]
    fn append(&mut self, bytes: &[u8]) {
        let at = self.len;
        match *bytes {
            [byte] => self.buf[at] = byte,
            _ => self.buf[at..at + bytes.len()].copy_from_slice(bytes),
        }
        self.len = at + bytes.len();
    }

    /// The caller's word that the stream ended: as [`Deframer::finish`].
    pub fn finish(&self) -> Result<()> {
        self.deframer.finish()
    }

    /// Whether the stream is inside a message: as [`Deframer::in_message`].
    pub fn in_message(&self) -> bool {
        self.deframer.in_message()
    }

    /// The bytes taken in so far, whether handed out yet or not.
    pub const fn offset(&self) -> u64 {
        self.deframer.offset()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tds::deframe::tests::{bad_length, packet, three_packets};
    use crate::tds::{Error, ErrorKind};
    use std::vec::Vec;

    /// Every piece handed out, as (bytes, packet end, message end), feeding
    /// `chunk` bytes at a time through a `buf_len`-byte buffer.
    fn run(stream: &[u8], chunk: usize, buf_len: usize) -> Result<Vec<(Vec<u8>, bool, bool)>> {
        let mut buf = std::vec![0u8; buf_len];
        let mut packets = WholePackets::new(&mut buf);
        let mut pieces = Vec::new();
        for mut input in stream.chunks(chunk) {
            while let Status::Complete(p) = packets.next(&mut input)? {
                pieces.push((p.bytes.to_vec(), p.packet_end, p.message_end));
            }
            assert!(input.is_empty());
        }
        packets.finish()?;
        Ok(pieces)
    }

    #[test]
    fn every_chunk_size_gives_whole_packets() {
        let stream = three_packets();
        let want = Vec::from([
            (b"hello".to_vec(), true, false),
            (Vec::new(), true, true),
            (b"world!".to_vec(), true, true),
        ]);
        for chunk in 1..=stream.len() {
            assert_eq!(run(&stream, chunk, 6).unwrap(), want, "chunk {chunk}");
        }
    }

    #[test]
    fn a_packet_longer_than_the_buffer_comes_in_pieces() {
        let mut stream = packet(0, b"abc");
        stream.extend(packet(1, b"longer"));
        // Fed 2 bytes at a time, "abc" ends inside a chunk, and so do the
        // second header and the "l" after it.
        let want = Vec::from([
            (b"abc".to_vec(), true, false),
            (b"l".to_vec(), false, false),
            (b"on".to_vec(), false, false),
            (b"ge".to_vec(), false, false),
            (b"r".to_vec(), true, true),
        ]);
        assert_eq!(run(&stream, 2, 3).unwrap(), want);
        // Whole in its chunk, it comes whole, buffer or not.
        let whole = run(&stream, stream.len(), 0).unwrap();
        assert_eq!(whole.len(), 2);
        assert_eq!(whole[1], (b"longer".to_vec(), true, true));
    }

    #[test]
    fn with_no_buffer_the_pieces_are_the_deframers() {
        let stream = three_packets();
        for chunk in 1..=stream.len() {
            let mut deframer = Deframer::new();
            let mut want = Vec::new();
            for mut input in stream.chunks(chunk) {
                while let Status::Complete(p) = deframer.next(&mut input).unwrap() {
                    want.push((p.bytes.to_vec(), p.packet_end, p.message_end));
                }
            }
            assert_eq!(run(&stream, chunk, 0).unwrap(), want, "chunk {chunk}");
        }
    }

    #[test]
    fn errors_and_ends_are_the_deframers() {
        let stream = bad_length();
        for chunk in [1, 3, stream.len()] {
            assert_eq!(
                run(&stream, chunk, 64).unwrap_err(),
                Error::new(ErrorKind::BadPacketLength(7), 12)
            );
        }
        let stream = packet(1, b"hello");
        for cut in 1..stream.len() {
            assert_eq!(
                run(&stream[..cut], 1, 64).unwrap_err(),
                Error::new(ErrorKind::TruncatedPacket, cut)
            );
        }
    }

    #[test]
    fn offset_counts_bytes_gathered() {
        let stream = packet(1, b"hello");
        let mut buf = [0u8; 8];
        let mut packets = WholePackets::new(&mut buf);
        for (at, byte) in stream.iter().enumerate() {
            let mut input = core::slice::from_ref(byte);
            let done = packets.next(&mut input).unwrap().complete().is_some();
            assert_eq!(done, at + 1 == stream.len(), "after {at}");
            assert_eq!(packets.offset(), at as u64 + 1);
            assert_eq!(packets.in_message(), at + 1 < stream.len());
        }
    }
}
