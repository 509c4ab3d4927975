//! What the store measures of itself for `GET /metrics` (issue #28): how
//! long writes queue for the writer thread, how long its commits take (the
//! fsync), how many writes a commit holds, and how long reads wait for a
//! free reader thread.
//!
//! The instruments are the Prometheus client's own types, kept here and
//! updated where the work happens (a relaxed atomic add, or a bucket's, per
//! write or read); [`crate::metrics`] registers them with the rest when the
//! daemon serves. The store names nothing above it, so it does not know
//! the registry: it hands out its instruments.

use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};

/// The store's instruments; cheap to clone (each is shared).
#[derive(Debug, Clone)]
pub struct StoreMetrics {
    /// Writes sent to the writer thread and not yet started.
    pub writer_queue: Gauge,
    /// Seconds a commit took (its fsync, with `synchronous = FULL`).
    pub commit_seconds: Histogram,
    /// Writes a committed transaction held (how well writes are grouped).
    pub writes_per_commit: Histogram,
    /// Seconds a read waited for a free reader thread.
    pub reader_wait_seconds: Histogram,
}

impl Default for StoreMetrics {
    fn default() -> Self {
        StoreMetrics {
            writer_queue: Gauge::default(),
            // 100 µs to about 3 s: a commit on a quiet SSD takes a few
            // hundred microseconds, one on a saturated disk seconds.
            commit_seconds: Histogram::new(exponential_buckets(0.0001, 2.0, 16)),
            // 1 to 64 (`writer::MAX_BATCH`).
            writes_per_commit: Histogram::new(exponential_buckets(1.0, 2.0, 7)),
            // 10 µs to about 2.6 s.
            reader_wait_seconds: Histogram::new(exponential_buckets(0.00001, 4.0, 10)),
        }
    }
}
