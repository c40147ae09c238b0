//! The reader's place in the stream, and the field it is gathering when a
//! chunk ends inside one.

use super::SCRATCH_LEN;
use crate::tds::bytes::le_uint;

/// Where the reader is: the stream offset of the next byte, and the bytes
/// of a fixed-size field (a length, a DONE body, a TYPE_INFO) gathered in
/// scratch space while its chunks arrive.
#[derive(Clone, Debug)]
pub(super) struct Cursor {
    /// Bytes taken in so far: the offset of the next byte.
    pub(super) pos: u64,
    pub(super) scratch: [u8; SCRATCH_LEN],
    /// Bytes of a field gathered in `scratch`.
    pub(super) have: u8,
}

impl Cursor {
    /// At the start of a stream.
    pub(super) const fn new() -> Cursor {
        Cursor {
            pos: 0,
            scratch: [0; SCRATCH_LEN],
            have: 0,
        }
    }

    /// Takes up to `n` bytes from the front of `input`.
    #[inline]
    pub(super) fn take<'c>(&mut self, input: &mut &'c [u8], n: usize) -> &'c [u8] {
        let (taken, rest) = input.split_at(n.min(input.len()));
        *input = rest;
        self.pos += taken.len() as u64;
        taken
    }

    /// Gathers a `need`-byte field in scratch; `true` once it is complete
    /// (then it is in `scratch[..need]`, and the next field starts afresh).
    pub(super) fn fill(&mut self, input: &mut &[u8], need: usize) -> bool {
        if self.gather(input, need) {
            return false;
        }
        let have = usize::from(self.have);
        let taken = self.take(input, need - have);
        copy(&mut self.scratch[have..need], taken);
        self.have = 0;
        true
    }

    /// Takes all of `input` into a `need`-byte field when the field needs
    /// more than that; `false`, with nothing taken, when `input` completes
    /// it (which [`fill`](Self::fill) goes on to do).
    #[inline]
    pub(super) fn gather(&mut self, input: &mut &[u8], need: usize) -> bool {
        let have = usize::from(self.have);
        let to = have + input.len();
        if to >= need {
            return false;
        }
        copy(&mut self.scratch[have..to], input);
        self.pos += input.len() as u64;
        self.have = to as u8;
        *input = &[];
        true
    }

    /// A little-endian unsigned integer from `scratch[..width]`.
    pub(super) fn scratch_uint(&self, width: usize) -> u64 {
        le_uint(&self.scratch[..width])
    }
}

/// Copies `from` into `to`, which is as long: a lone byte, as a chunk fed
/// a byte at a time brings, without a call to `memcpy`.
#[inline]
pub(super) fn copy(to: &mut [u8], from: &[u8]) {
    match (to, from) {
        ([to], [from]) => *to = *from,
        (to, from) => to.copy_from_slice(from),
    }
}
