//! An async source that is not ready on every other poll (and wakes its
//! task at once), and otherwise hands out as many bytes as `piece` says;
//! and a blocking one that hands out a byte at a time.

use std::io::{self, Read};
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

/// A blocking source that hands out one byte per `read`.
pub struct OneByte<'a>(pub &'a [u8]);

impl Read for OneByte<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.0.len().min(buf.len()).min(1);
        buf[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}
