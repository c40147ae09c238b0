use core::fmt;

use super::bytes::Cur;
use super::error::{Result, Site};
use super::token::TokenType;
use super::version::TdsVersion;

/// Which of the three DONE tokens [MS-TDS 2.2.7.6-8].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum DoneKind {
    /// DONE (0xFD): a SQL statement finished.
    Done,
    /// DONEPROC (0xFE): a stored procedure finished.
    DoneProc,
    /// DONEINPROC (0xFF): a statement inside a stored procedure finished.
    DoneInProc,
}

impl DoneKind {
    /// The token byte.
    pub const fn token(self) -> TokenType {
        match self {
            DoneKind::Done => TokenType::Done,
            DoneKind::DoneProc => TokenType::DoneProc,
            DoneKind::DoneInProc => TokenType::DoneInProc,
        }
    }
}

/// DONE status bits [MS-TDS 2.2.7.6]. Unknown bits are kept.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct DoneStatus(pub u16);

impl DoneStatus {
    /// More results follow in this response.
    pub const MORE: u16 = 0x0001;
    /// The statement failed.
    pub const ERROR: u16 = 0x0002;
    /// A transaction is in progress.
    pub const IN_XACT: u16 = 0x0004;
    /// The row count is valid.
    pub const COUNT: u16 = 0x0010;
    /// Acknowledges an attention (cancel).
    pub const ATTN: u16 = 0x0020;
    /// An RPC in a batch finished.
    pub const RPC_IN_BATCH: u16 = 0x0080;
    /// A server error: the result set must be dropped.
    pub const SRVERROR: u16 = 0x0100;

    /// Each known bit and its MS-TDS name without the `DONE_` prefix, in
    /// bit order.
    const NAMES: [(u16, &'static str); 7] = [
        (Self::MORE, "MORE"),
        (Self::ERROR, "ERROR"),
        (Self::IN_XACT, "INXACT"),
        (Self::COUNT, "COUNT"),
        (Self::ATTN, "ATTN"),
        (Self::RPC_IN_BATCH, "RPCINBATCH"),
        (Self::SRVERROR, "SRVERROR"),
    ];

    /// The names of the known bits that are set, lowest first, as MS-TDS
    /// names them without the `DONE_` prefix: `MORE`, `ERROR`, `INXACT`,
    /// `COUNT`, `ATTN`, `RPCINBATCH`, `SRVERROR`. Unknown bits have no name
    /// and are left out.
    pub fn names(self) -> impl Iterator<Item = &'static str> {
        Self::NAMES
            .into_iter()
            .filter(move |&(bit, _)| self.0 & bit != 0)
            .map(|(_, name)| name)
    }

    /// Whether more results follow.
    pub const fn more(self) -> bool {
        self.0 & Self::MORE != 0
    }

    /// Whether the statement failed.
    pub const fn error(self) -> bool {
        self.0 & Self::ERROR != 0
    }

    /// Whether the row count is valid.
    pub const fn count(self) -> bool {
        self.0 & Self::COUNT != 0
    }

    /// Whether this acknowledges an attention.
    pub const fn attention(self) -> bool {
        self.0 & Self::ATTN != 0
    }

    /// Whether a server error occurred.
    pub const fn server_error(self) -> bool {
        self.0 & Self::SRVERROR != 0
    }
}

/// A DONE, DONEPROC or DONEINPROC token [MS-TDS 2.2.7.6-8]: 12 bytes from
/// 7.2 on (a u64 row count), 8 before.
///
/// ```
/// use leanwire_core::tds::{Done, DoneKind, TdsVersion};
///
/// let body = [0x10, 0, 0xc1, 0, 2, 0, 0, 0, 0, 0, 0, 0];
/// let done = Done::parse(DoneKind::Done, &body, TdsVersion::V7_4)?;
/// assert_eq!((done.row_count(), done.cur_cmd), (Some(2), 0xc1));
/// let mut out = [0xa5; 12];
/// done.emit(&mut out, TdsVersion::V7_4);
/// assert_eq!(out, body);
/// # Ok::<(), leanwire_core::tds::Error>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Done {
    /// Which token.
    pub kind: DoneKind,
    /// Status bits.
    pub status: DoneStatus,
    /// The current command (0xC1 SELECT, 0xE0 EXECUTE, ...), for display.
    pub cur_cmd: u16,
    /// The row count field, valid only with [`DoneStatus::COUNT`].
    pub rows: u64,
}

impl Done {
    /// The body length after the token byte for `version`.
    pub const fn body_len(version: TdsVersion) -> usize {
        if version.is_7_2_or_later() { 12 } else { 8 }
    }

    /// Reads a body of exactly [`body_len`](Self::body_len) bytes.
    pub fn parse(kind: DoneKind, body: &[u8], version: TdsVersion) -> Result<Done> {
        let mut cur = Cur::new(body, Site::token(kind.token()));
        let status = DoneStatus(cur.u16()?);
        let cur_cmd = cur.u16()?;
        let rows = if version.is_7_2_or_later() {
            u64::from_le_bytes(cur.array()?)
        } else {
            u64::from(cur.u32()?)
        };
        cur.end()?;
        Ok(Done {
            kind,
            status,
            cur_cmd,
            rows,
        })
    }

    /// The row count, when the status says it is valid.
    pub const fn row_count(&self) -> Option<u64> {
        if self.status.count() {
            Some(self.rows)
        } else {
            None
        }
    }

    /// Writes the body (without the token byte) into `out`, which must hold
    /// [`body_len`](Self::body_len) bytes. Before 7.2 the row count is cut
    /// to 32 bits.
    pub fn emit(&self, out: &mut [u8], version: TdsVersion) {
        out[..2].copy_from_slice(&self.status.0.to_le_bytes());
        out[2..4].copy_from_slice(&self.cur_cmd.to_le_bytes());
        if version.is_7_2_or_later() {
            out[4..12].copy_from_slice(&self.rows.to_le_bytes());
        } else {
            out[4..8].copy_from_slice(&(self.rows as u32).to_le_bytes());
        }
    }
}

impl fmt::Display for Done {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} status=0x{:04X} cur_cmd=0x{:04X}",
            self.kind.token(),
            self.status.0,
            self.cur_cmd
        )?;
        match self.row_count() {
            Some(rows) => write!(f, " rows={rows}"),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tds::{Error, ErrorKind};
    use std::string::ToString;
    use std::vec::Vec;

    #[test]
    fn both_widths_round_trip() {
        let done = Done {
            kind: DoneKind::DoneInProc,
            status: DoneStatus(0x11),
            cur_cmd: 0xc1,
            rows: 2,
        };
        for version in [TdsVersion::V7_1, TdsVersion::V7_4] {
            let mut out = [0xa5; 12];
            done.emit(&mut out, version);
            let len = Done::body_len(version);
            assert_eq!(Done::parse(done.kind, &out[..len], version).unwrap(), done);
            if len == 8 {
                assert_eq!(out[8..], [0xa5; 4]);
            }
        }
        assert_eq!(
            done.to_string(),
            "DONEINPROC status=0x0011 cur_cmd=0x00C1 rows=2"
        );
    }

    #[test]
    fn status_names() {
        // MS-TDS 2.2.7.6-8: DONE_MORE 0x1, DONE_ERROR 0x2, DONE_INXACT 0x4,
        // DONE_COUNT 0x10, DONE_ATTN 0x20, DONE_RPCINBATCH 0x80,
        // DONE_SRVERROR 0x100.
        let names = |bits| DoneStatus(bits).names().collect::<Vec<_>>();
        assert!(names(0x0000).is_empty());
        assert_eq!(names(0x0011), ["MORE", "COUNT"]);
        assert_eq!(
            names(0xFFFF),
            [
                "MORE",
                "ERROR",
                "INXACT",
                "COUNT",
                "ATTN",
                "RPCINBATCH",
                "SRVERROR"
            ]
        );
        // DONE_FINAL is 0, no bit; 0x8, 0x40 and 0x200 up have no name.
        assert!(names(0xFE48).is_empty());
    }

    #[test]
    fn each_accessor_reads_its_own_bit() {
        let read = |status: DoneStatus| {
            [
                status.more(),
                status.error(),
                status.count(),
                status.attention(),
                status.server_error(),
            ]
        };
        let bits = [
            DoneStatus::MORE,
            DoneStatus::ERROR,
            DoneStatus::COUNT,
            DoneStatus::ATTN,
            DoneStatus::SRVERROR,
        ];
        for (i, bit) in bits.into_iter().enumerate() {
            let alone = read(DoneStatus(bit));
            assert_eq!(alone.iter().filter(|&&set| set).count(), 1, "{bit:#x}");
            assert!(alone[i], "{bit:#x}");
            assert!(!read(DoneStatus(!bit))[i], "all but {bit:#x}");
        }
    }

    #[test]
    fn short_body() {
        assert_eq!(
            Done::parse(DoneKind::Done, &[0; 8], TdsVersion::V7_2).unwrap_err(),
            Error::new(ErrorKind::LengthMismatch(Site::token(TokenType::Done)), 8)
        );
    }
}
