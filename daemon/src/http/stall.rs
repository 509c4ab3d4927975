//! The write timeout: a connection whose client reads nothing of its
//! answers for [`super::HttpLimits::write_timeout`] is closed.
//!
//! hyper has a timer for reading a request head, none for writing: a client
//! that sends requests (or pipelines forty of them) and never reads the
//! answers leaves hyper waiting on a full socket buffer forever, holding
//! the connection, its file descriptor and the answers queued behind it.
//! [`WriteDeadline`] fails a write that has made no progress for the
//! timeout, and hyper then closes the connection. The clock restarts at
//! every write that goes through, so a slow reader is served at its pace;
//! only one that stops reading altogether is cut off.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::Sleep;

/// A stream whose writes fail once they have waited `timeout` without any
/// progress.
#[derive(Debug)]
pub struct WriteDeadline<S> {
    inner: S,
    timeout: Duration,
    /// Started at the first write that has to wait; dropped at progress.
    stalled: Option<Pin<Box<Sleep>>>,
}

impl<S> WriteDeadline<S> {
    /// `inner`, with writes bounded by `timeout`.
    pub fn new(inner: S, timeout: Duration) -> Self {
        WriteDeadline {
            inner,
            timeout,
            stalled: None,
        }
    }

    /// The inner stream.
    pub fn get_ref(&self) -> &S {
        &self.inner
    }

    /// Passes a write's result on, restarting the clock at progress; a
    /// write that waits starts it, and fails when it runs out.
    fn track<T>(
        &mut self,
        cx: &mut Context<'_>,
        polled: Poll<io::Result<T>>,
    ) -> Poll<io::Result<T>> {
        if polled.is_ready() {
            self.stalled = None;
            return polled;
        }
        let timeout = self.timeout;
        let stalled = self
            .stalled
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(timeout)));
        match stalled.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                format!("the client read nothing of its answer for {timeout:?}"),
            ))),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for WriteDeadline<S> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for WriteDeadline<S> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.inner).poll_write(cx, buf);
        this.track(cx, polled)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.inner).poll_write_vectored(cx, bufs);
        this.track(cx, polled)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.inner).poll_flush(cx);
        this.track(cx, polled)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.inner).poll_shutdown(cx);
        this.track(cx, polled)
    }
}

#[cfg(test)]
mod tests {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    use super::*;

    #[tokio::test(start_paused = true)]
    async fn a_write_nobody_reads_fails_after_the_timeout_and_a_slow_reader_is_served() {
        let (ours, mut theirs) = tokio::io::duplex(16);
        let mut ours = WriteDeadline::new(ours, Duration::from_secs(5));
        // Fills the pipe, then waits 5 s for a reader that never comes.
        let error = ours.write_all(&[0; 64]).await.unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::TimedOut);

        // A reader taking 4 s per 16 bytes keeps the write going: the clock
        // restarts at each bit of progress.
        let (ours, mut slow) = tokio::io::duplex(16);
        let mut ours = WriteDeadline::new(ours, Duration::from_secs(5));
        let reader = tokio::spawn(async move {
            let mut got = Vec::new();
            let mut chunk = [0; 16];
            while got.len() < 64 {
                tokio::time::sleep(Duration::from_secs(4)).await;
                let n = slow.read(&mut chunk).await.unwrap();
                got.extend_from_slice(&chunk[..n]);
            }
            got.len()
        });
        ours.write_all(&[1; 64]).await.unwrap();
        assert_eq!(reader.await.unwrap(), 64);
        drop(theirs.read(&mut [0; 1]).await);
    }
}
