//! The reader threads: a fixed number of threads, each owning one read
//! connection, taking reads from one queue.
//!
//! SQLite engine only (issue #29): this module works on rusqlite
//! connections directly, not through [`crate::store::sql`].
//!
//! Why not tokio's blocking pool: under load it grows a thread per waiting
//! read (dozens), each hop to it costs two context switches, and the pool
//! still had to be fenced by a semaphore so that no more reads ran than there
//! were connections. Here the number of threads *is* the number of
//! connections, a read waiting for a free one is simply queued (the caller
//! awaits its answer, holding no thread), and a thread stays with its
//! connection, so SQLite's page cache and prepared statements stay warm.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Mutex, mpsc};
use std::thread::{self, JoinHandle, ThreadId};
use std::time::Instant;

use rusqlite::Connection;
use tokio::sync::oneshot;

use super::telemetry::StoreMetrics;

type Read = Box<dyn FnOnce(&mut Connection) + Send>;

/// The handle to the reader threads; they end when this is dropped.
pub struct Readers {
    sender: Option<mpsc::Sender<Read>>,
    metrics: StoreMetrics,
    threads: Vec<(ThreadId, JoinHandle<()>)>,
}

impl std::fmt::Debug for Readers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Readers")
            .field("threads", &self.threads.len())
            .finish()
    }
}

impl Readers {
    /// Starts one thread per connection.
    pub fn start(connections: Vec<Connection>, metrics: StoreMetrics) -> std::io::Result<Readers> {
        let (sender, receiver) = mpsc::channel::<Read>();
        // One queue for all threads: whichever thread is free takes the next
        // read. The lock is held only while a thread waits for the next read.
        let receiver = Arc::new(Mutex::new(receiver));
        let threads = connections
            .into_iter()
            .enumerate()
            .map(|(i, mut conn)| {
                let receiver = receiver.clone();
                let thread = thread::Builder::new()
                    .name(format!("modctld-reader-{i}"))
                    .spawn(move || {
                        loop {
                            let next = receiver
                                .lock()
                                .unwrap_or_else(|poisoned| poisoned.into_inner())
                                .recv();
                            match next {
                                Ok(read) => read(&mut conn),
                                Err(_) => return,
                            }
                        }
                    })?;
                Ok((thread.thread().id(), thread))
            })
            .collect::<std::io::Result<Vec<_>>>()?;
        Ok(Readers {
            sender: Some(sender),
            metrics,
            threads,
        })
    }

    /// Runs `f` on a free read connection and returns its result; a panic
    /// in `f` resumes in the caller.
    pub async fn run<T, F>(&self, f: F) -> T
    where
        F: FnOnce(&mut Connection) -> T + Send + 'static,
        T: Send + 'static,
    {
        let (reply, answer) = oneshot::channel::<thread::Result<T>>();
        let (queued, waits) = (Instant::now(), self.metrics.reader_wait_seconds.clone());
        self.sender
            .as_ref()
            .expect("present until drop")
            .send(Box::new(move |conn| {
                waits.observe(queued.elapsed().as_secs_f64());
                let _ = reply.send(catch_unwind(AssertUnwindSafe(|| f(conn))));
            }))
            .unwrap_or_else(|_| panic!("the reader threads have stopped"));
        super::receive(answer, "a reader thread stopped before answering").await
    }
}

impl Drop for Readers {
    fn drop(&mut self) {
        drop(self.sender.take());
        let me = thread::current().id();
        for (id, thread) in self.threads.drain(..) {
            if id != me {
                let _ = thread.join();
            }
        }
    }
}
