use core::fmt;

use super::code::registry;
use super::error::{Error, ErrorKind, Result};

/// Byte offsets of the header fields [MS-TDS 2.2.3.1].
mod field {
    pub const TYPE: usize = 0;
    pub const STATUS: usize = 1;
    pub const LENGTH: usize = 2;
    pub const SPID: usize = 4;
    pub const PACKET_ID: usize = 6;
    pub const WINDOW: usize = 7;
}

/// The length of a packet header on the wire.
pub const HEADER_LEN: usize = 8;

/// The largest packet length accepted: the 32767-byte negotiated maximum,
/// rounded up to the power of two some servers send [MS-TDS 2.2.3.1.3].
pub const MAX_PACKET_LEN: u16 = 32768;

registry! {
    /// A packet's type [MS-TDS 2.2.3.1.1].
    pub enum PacketType: u8 {
        /// A SQL batch.
        SqlBatch = 0x01 => "SQL_BATCH",
        /// A pre-TDS7 login.
        PreTds7Login = 0x02 => "PRE_TDS7_LOGIN",
        /// A remote procedure call.
        RpcRequest = 0x03 => "RPC_REQUEST",
        /// Every server reply: a token stream, or a PRELOGIN answer.
        TabularResult = 0x04 => "TABULAR_RESULT",
        /// An attention (cancel) signal.
        Attention = 0x06 => "ATTENTION",
        /// Bulk load data.
        BulkLoad = 0x07 => "BULK_LOAD",
        /// A federated authentication token.
        FedAuthToken = 0x08 => "FEDAUTH_TOKEN",
        /// A transaction manager request.
        TransactionManager = 0x0E => "TRANSACTION_MANAGER",
        /// A TDS7+ login.
        Login7 = 0x10 => "LOGIN7",
        /// SSPI (integrated authentication) data.
        Sspi = 0x11 => "SSPI",
        /// PRELOGIN, and the TLS handshake inside it in 7.x.
        PreLogin = 0x12 => "PRELOGIN",
    }
}

/// A packet's status bits [MS-TDS 2.2.3.1.2]. Unknown bits are kept.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct PacketStatus(pub u8);

impl PacketStatus {
    /// End of message: the last packet of a request or response.
    pub const EOM: PacketStatus = PacketStatus(0x01);
    /// Ignore this message (client to server, with EOM); SqlClient also reads
    /// it from a server as an attention acknowledgement.
    pub const IGNORE: PacketStatus = PacketStatus(0x02);
    /// Reset the connection before this request (7.1+).
    pub const RESET_CONNECTION: PacketStatus = PacketStatus(0x08);
    /// Reset the connection but keep the transaction state (7.3+).
    pub const RESET_CONNECTION_SKIP_TRAN: PacketStatus = PacketStatus(0x10);

    /// Whether every bit of `bits` is set.
    pub const fn contains(self, bits: PacketStatus) -> bool {
        self.0 & bits.0 == bits.0
    }

    /// Whether this is the last packet of its message.
    pub const fn is_eom(self) -> bool {
        self.contains(PacketStatus::EOM)
    }
}

impl fmt::Display for PacketStatus {
    /// The names of the set bits, space-separated, as tedious prints them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for (bit, name) in [
            (PacketStatus::EOM, "EOM"),
            (PacketStatus::IGNORE, "IGNORE"),
            (PacketStatus::RESET_CONNECTION, "RESETCONNECTION"),
            (
                PacketStatus::RESET_CONNECTION_SKIP_TRAN,
                "RESETCONNECTIONSKIPTRAN",
            ),
        ] {
            if self.contains(bit) {
                if !first {
                    f.write_str(" ")?;
                }
                f.write_str(name)?;
                first = false;
            }
        }
        Ok(())
    }
}

/// A packet header, as a value [MS-TDS 2.2.3.1].
///
/// ```text
///  0        1        2        3        4        5        6         7
/// | Type   | Status | Length (BE)     | SPID (BE)       | PacketID | Window |
/// ```
///
/// `length` counts the header too. Unlike everything after it, the header is
/// big-endian.
///
/// ```
/// use leanwire_core::tds::{PacketHeader, PacketType};
///
/// let (header, rest) = PacketHeader::split(&[0x12, 0x01, 0x00, 0x0a, 0, 0, 0, 0, 0x01, 0xff])?;
/// assert_eq!(header.packet_type, PacketType::PreLogin);
/// assert!(header.status.is_eom());
/// assert_eq!((header.length, header.payload_len()), (10, 2));
/// assert_eq!(rest, [0x01, 0xff]);
/// let mut out = [0xa5; 8];
/// header.emit(&mut out);
/// assert_eq!(out, [0x12, 0x01, 0x00, 0x0a, 0, 0, 0, 0]);
/// # Ok::<(), leanwire_core::tds::Error>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct PacketHeader {
    /// What the packet carries.
    pub packet_type: PacketType,
    /// EOM and the other status bits.
    pub status: PacketStatus,
    /// The packet's length, header included.
    pub length: u16,
    /// The server process id (0 from a client).
    pub spid: u16,
    /// A counter, +1 per packet mod 256; receivers ignore it.
    pub packet_id: u8,
    /// Unused; always 0.
    pub window: u8,
}

fn be16(b: &[u8], at: usize) -> u16 {
    u16::from_be_bytes([b[at], b[at + 1]])
}

impl PacketHeader {
    /// Reads a header and returns it with the bytes after it (not cut to the
    /// packet's length: they may hold less, or more, than one payload).
    ///
    /// Fails with [`ErrorKind::ShortHeader`] for fewer than 8 bytes, and with
    /// [`ErrorKind::BadPacketLength`] (at the length field) for a length
    /// below 8 or above [`MAX_PACKET_LEN`].
    pub fn split(bytes: &[u8]) -> Result<(PacketHeader, &[u8])> {
        let Some(header) = bytes.first_chunk::<HEADER_LEN>() else {
            return Err(Error::new(ErrorKind::ShortHeader, bytes.len()));
        };
        let header = PacketHeader::from_bytes(header)?;
        Ok((header, &bytes[HEADER_LEN..]))
    }

    /// Reads a header from exactly 8 bytes, checking its length.
    pub fn from_bytes(bytes: &[u8; HEADER_LEN]) -> Result<PacketHeader> {
        let header = PacketHeader {
            packet_type: PacketType::from(bytes[field::TYPE]),
            status: PacketStatus(bytes[field::STATUS]),
            length: be16(bytes, field::LENGTH),
            spid: be16(bytes, field::SPID),
            packet_id: bytes[field::PACKET_ID],
            window: bytes[field::WINDOW],
        };
        if usize::from(header.length) < HEADER_LEN || header.length > MAX_PACKET_LEN {
            return Err(Error::new(
                ErrorKind::BadPacketLength(header.length),
                field::LENGTH,
            ));
        }
        Ok(header)
    }

    /// The payload bytes that follow the header (`length - 8`, or 0 for a
    /// header that was never checked).
    pub const fn payload_len(&self) -> usize {
        (self.length as usize).saturating_sub(HEADER_LEN)
    }

    /// Writes the header into `out`.
    pub fn emit(&self, out: &mut [u8; HEADER_LEN]) {
        out[field::TYPE] = self.packet_type.into();
        out[field::STATUS] = self.status.0;
        out[field::LENGTH..field::LENGTH + 2].copy_from_slice(&self.length.to_be_bytes());
        out[field::SPID..field::SPID + 2].copy_from_slice(&self.spid.to_be_bytes());
        out[field::PACKET_ID] = self.packet_id;
        out[field::WINDOW] = self.window;
    }

    /// The bytes [`emit`](Self::emit) writes: always [`HEADER_LEN`].
    pub const fn emitted_len(&self) -> usize {
        HEADER_LEN
    }
}

impl fmt::Display for PacketHeader {
    /// Tedious's `headerToString` layout: `type:0x04(TABULAR_RESULT),
    /// status:0x01(EOM), length:0x0010, spid:0x0000, packetId:0x01, window:0x00`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "type:0x{:02X}({}), status:0x{:02X}({}), length:0x{:04X}, spid:0x{:04X}, packetId:0x{:02X}, window:0x{:02X}",
            u8::from(self.packet_type),
            self.packet_type.name().unwrap_or("unknown"),
            self.status.0,
            self.status,
            self.length,
            self.spid,
            self.packet_id,
            self.window
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::ToString;

    #[test]
    fn header_round_trips_through_a_prefilled_buffer() {
        let header = PacketHeader {
            packet_type: PacketType::TabularResult,
            status: PacketStatus(0x19),
            length: 0x1234,
            spid: 0xabcd,
            packet_id: 7,
            window: 0,
        };
        let mut out = [0xa5; HEADER_LEN];
        header.emit(&mut out);
        assert_eq!(out, [0x04, 0x19, 0x12, 0x34, 0xab, 0xcd, 0x07, 0x00]);
        let (back, rest) = PacketHeader::split(&out).unwrap();
        assert_eq!((back, rest), (header, &[][..]));
        assert_eq!(header.emitted_len(), 8);
    }

    #[test]
    fn unknown_type_and_status_bits_survive() {
        let bytes = [0x7f, 0xe4, 0x00, 0x08, 0, 0, 0, 9];
        let (header, _) = PacketHeader::split(&bytes).unwrap();
        assert_eq!(header.packet_type, PacketType::Unknown(0x7f));
        let mut out = [0xa5; HEADER_LEN];
        header.emit(&mut out);
        assert_eq!(out, bytes);
    }

    #[test]
    fn prints_like_tedious() {
        let (header, _) =
            PacketHeader::split(&[0x12, 0x03, 0x00, 0x0a, 0x00, 0x01, 0x02, 0x03]).unwrap();
        assert_eq!(
            header.to_string(),
            "type:0x12(PRELOGIN), status:0x03(EOM IGNORE), length:0x000A, spid:0x0001, packetId:0x02, window:0x03"
        );
    }

    #[test]
    fn length_below_header_or_above_max() {
        for (length, ok) in [
            (7u16, false),
            (8, true),
            (32768, true),
            (32769, false),
            (0, false),
        ] {
            let mut bytes = [0x04, 0x01, 0, 0, 0, 0, 0, 0];
            bytes[2..4].copy_from_slice(&length.to_be_bytes());
            let result = PacketHeader::split(&bytes);
            match ok {
                true => assert_eq!(result.unwrap().0.length, length),
                false => assert_eq!(
                    result.unwrap_err(),
                    Error::new(ErrorKind::BadPacketLength(length), 2)
                ),
            }
        }
    }

    #[test]
    fn short_header() {
        assert_eq!(
            PacketHeader::split(&[4, 1, 0]).unwrap_err(),
            Error::new(ErrorKind::ShortHeader, 3)
        );
        assert_eq!(PacketStatus(0).to_string(), "");
    }
}
