//! An async source that is not ready on every other poll (and wakes its
//! task at once), and otherwise hands out as many bytes as `piece` says.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use futures_io::AsyncRead;

/// Reads `data` in pieces, pending before each one.
pub struct Stutter<'a, F> {
    data: &'a [u8],
    ready: bool,
    piece: F,
}

impl<'a, F: FnMut() -> usize + Unpin> Stutter<'a, F> {
    /// A source over `data` whose reads return at most `piece()` bytes.
    pub fn new(data: &'a [u8], piece: F) -> Self {
        Stutter {
            data,
            ready: false,
            piece,
        }
    }
}

impl<F: FnMut() -> usize + Unpin> AsyncRead for Stutter<'_, F> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut [u8],
    ) -> Poll<io::Result<usize>> {
        self.ready = !self.ready;
        if !self.ready {
            cx.waker().wake_by_ref();
            return Poll::Pending;
        }
        let n = (self.piece)().min(self.data.len()).min(buf.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Poll::Ready(Ok(n))
    }
}
