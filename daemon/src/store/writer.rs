//! The writer thread: every write of the daemon, committed in groups.
//!
//! SQLite engine only (issue #29): this module works on rusqlite
//! connections directly, not through [`crate::store::sql`].
//!
//! # Why a thread, and why groups
//!
//! With `synchronous = FULL` every commit waits for an fsync, and an fsync
//! costs the same for one changed row as for a hundred. Committing each write
//! alone caps the daemon at one fsync per write (a few thousand a second on
//! an SSD, far fewer on a busy disk), however many requests wait. So writes
//! are *jobs* sent to one thread that owns the writer connection:
//!
//! 1. it takes the first job waiting, opens a `BEGIN IMMEDIATE` transaction
//!    and runs the job inside a savepoint;
//! 2. while more jobs are already waiting (up to [`MAX_BATCH`]), it runs each
//!    in its own savepoint in the same transaction;
//! 3. it commits once, and only then tells every job of the batch its result.
//!
//! What the one-transaction-per-write design promised still holds:
//!
//! - **A write commits whole or not at all.** A job whose closure fails is
//!   rolled back to its savepoint, alone; the jobs before and after it in the
//!   batch are untouched. A job that panics is rolled back the same way and
//!   its panic is resumed in the caller.
//! - **Acknowledged means durable.** No job learns its result before the
//!   commit that holds it returned; if that commit fails, every job of the
//!   batch gets the error, and none of them was acknowledged.
//! - **Writes are serial.** Jobs run one after the other on one connection,
//!   in the order they were sent, each seeing the ones before it, exactly as
//!   if each had its own transaction.
//!
//! A batch never waits for more jobs to arrive: a lone write commits at once,
//! so grouping only ever happens when writes already queue, and it costs a
//! lone write nothing.
//!
//! # Writes that run alone
//!
//! A savepoint's price is memory: SQLite keeps a copy of every page a
//! savepoint changes (the sub-journal) until the transaction ends, in memory
//! (`temp_store = MEMORY`, see `configure`). For the small writes of the API
//! that is a few pages; for a write of activity batches it is every page of
//! their rollups and remembered ids, and 96 concurrent batches of the largest
//! size held tens of MiB that way (issue #22). A write that touches many
//! pages is therefore sent with [`Writer::write_alone`]: the batch before it
//! is committed first, and it runs in a transaction of its own with no
//! savepoint, so nothing is copied, and its failure rolls back that
//! transaction (it alone).
//!
//! If SQLite itself ends the transaction (it rolls back on some I/O and
//! out-of-memory errors) or a savepoint statement fails, the whole batch is
//! rolled back and every job in it fails: nothing half-done is committed.

use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::thread::{self, JoinHandle, ThreadId};
use std::time::Duration;

use rusqlite::{Connection, Transaction, TransactionBehavior};
use tokio::sync::oneshot;

use super::telemetry::StoreMetrics;
use super::{StoreError, Tx};

/// The most jobs committed together. Bounds how long the first job of a
/// batch waits for the others to run (each is a few hundred microseconds).
pub const MAX_BATCH: usize = 64;

/// A write: runs against the batch's transaction and returns whether it
/// failed (so its savepoint is rolled back) and how to deliver its result
/// once the batch's commit is known. Called with `None` when the job cannot
/// run at all (the transaction could not be opened): its closure is then
/// skipped and the completion delivers the error it is given.
type Run = Box<dyn FnOnce(Option<&Transaction<'_>>) -> (bool, Completion) + Send>;

/// A write queued for the writer thread.
struct Job {
    run: Run,
    /// Runs in a transaction of its own, without a savepoint (see the module
    /// header).
    alone: bool,
}

/// Delivers a job's result: called with the batch's commit outcome.
type Completion = Box<dyn FnOnce(Result<(), &rusqlite::Error>) + Send>;

/// The result a caller receives: its closure's result, or the panic payload
/// of a closure that panicked.
type Delivered<T> = thread::Result<T>;

/// Counts of the writer's work since the store opened.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WriterStats {
    /// Transactions committed.
    pub commits: u64,
    /// Writes (jobs) those transactions held, failed ones included.
    pub writes: u64,
}

#[derive(Debug, Default)]
struct Counters {
    commits: AtomicU64,
    writes: AtomicU64,
    /// What `GET /metrics` shows of the same work.
    metrics: StoreMetrics,
}

/// The handle to the writer thread; the thread ends when this is dropped.
pub struct Writer {
    sender: Option<mpsc::Sender<Job>>,
    stats: Arc<Counters>,
    thread: Option<JoinHandle<()>>,
    thread_id: ThreadId,
}

impl std::fmt::Debug for Writer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Writer").finish_non_exhaustive()
    }
}

impl Writer {
    /// Starts the writer thread on `conn`.
    pub fn start(conn: Connection, metrics: StoreMetrics) -> std::io::Result<Writer> {
        let (sender, receiver) = mpsc::channel();
        let stats = Arc::new(Counters {
            metrics,
            ..Counters::default()
        });
        let counters = stats.clone();
        let thread = thread::Builder::new()
            .name("modctld-writer".into())
            .spawn(move || run(conn, receiver, &counters))?;
        Ok(Writer {
            sender: Some(sender),
            stats,
            thread_id: thread.thread().id(),
            thread: Some(thread),
        })
    }

    /// Queues `f` as one write (see the module header) at once, in call
    /// order, and returns a future of its result, ready once the commit that
    /// holds it is durable.
    pub fn write<T, E, F>(&self, f: F) -> impl Future<Output = Result<T, E>> + Send + 'static
    where
        F: FnOnce(&Tx<'_>) -> Result<T, E> + Send + 'static,
        T: Send + 'static,
        E: From<StoreError> + Send + 'static,
    {
        self.queue(f, false)
    }

    /// Like [`Writer::write`], but `f` runs in a transaction of its own,
    /// without a savepoint: for a write that changes many pages (see the
    /// module header).
    pub fn write_alone<T, E, F>(&self, f: F) -> impl Future<Output = Result<T, E>> + Send + 'static
    where
        F: FnOnce(&Tx<'_>) -> Result<T, E> + Send + 'static,
        T: Send + 'static,
        E: From<StoreError> + Send + 'static,
    {
        self.queue(f, true)
    }

    fn queue<T, E, F>(
        &self,
        f: F,
        alone: bool,
    ) -> impl Future<Output = Result<T, E>> + Send + 'static
    where
        F: FnOnce(&Tx<'_>) -> Result<T, E> + Send + 'static,
        T: Send + 'static,
        E: From<StoreError> + Send + 'static,
    {
        let (reply, answer) = oneshot::channel::<Delivered<Result<T, E>>>();
        let queue = self.stats.metrics.writer_queue.clone();
        let run: Run = Box::new(move |tx| {
            // Called once per job, when it starts (or cannot).
            queue.dec();
            let outcome = tx.map(|tx| catch_unwind(AssertUnwindSafe(|| f(&Tx::new(tx)))));
            let failed = !matches!(outcome, Some(Ok(Ok(_))));
            let completion: Completion = Box::new(move |commit| {
                let delivered = match (outcome, commit) {
                    (Some(Ok(Ok(value))), Ok(())) => Ok(Ok(value)),
                    (Some(Ok(Ok(_))) | None, Err(e)) => {
                        Ok(Err(E::from(StoreError::from(copy_error(e)))))
                    }
                    (None, Ok(())) => Ok(Err(E::from(StoreError::from(rolled_back())))),
                    (Some(Ok(Err(e))), _) => Ok(Err(e)),
                    (Some(Err(panic)), _) => Err(panic),
                };
                // The caller may have gone (its request was dropped): the
                // write stands; there is nobody to tell.
                let _ = reply.send(delivered);
            });
            (failed, completion)
        });
        self.send(Job { run, alone });
        super::receive(answer, "the writer thread stopped before answering")
    }

    /// How many transactions the writer has committed, and how many writes
    /// they held: their ratio is how well writes are grouped.
    pub fn stats(&self) -> WriterStats {
        WriterStats {
            commits: self.stats.commits.load(Ordering::Relaxed),
            writes: self.stats.writes.load(Ordering::Relaxed),
        }
    }

    fn send(&self, job: Job) {
        self.stats.metrics.writer_queue.inc();
        self.sender
            .as_ref()
            .expect("present until drop")
            .send(job)
            .unwrap_or_else(|_| panic!("the writer thread has stopped"));
    }
}

impl Drop for Writer {
    fn drop(&mut self) {
        // Closing the channel ends the thread once the jobs already sent are
        // done; waiting for it means the connection is closed when the store
        // is, so the database can be reopened at once (tests restart daemons).
        drop(self.sender.take());
        if let Some(thread) = self.thread.take()
            && thread::current().id() != self.thread_id
        {
            let _ = thread.join();
        }
    }
}

/// How long the writer waits without a write before it gives its page
/// cache's memory back (see [`run`]).
pub const IDLE_BEFORE_SHRINK: Duration = Duration::from_secs(5);

fn run(mut conn: Connection, jobs: mpsc::Receiver<Job>, counters: &Counters) {
    // A job that ran into a batch it must not join: it starts the next.
    let mut next: Option<Job> = None;
    loop {
        let first = match next.take() {
            Some(job) => job,
            None => match wait(&conn, &jobs) {
                Some(job) => job,
                None => return,
            },
        };
        next = if first.alone {
            run_alone(&mut conn, first, counters);
            None
        } else {
            run_batch(&mut conn, first, &jobs, counters)
        };
    }
}

/// The next job, giving the page cache back while none comes; `None` once
/// the store is dropped.
fn wait(conn: &Connection, jobs: &mpsc::Receiver<Job>) -> Option<Job> {
    match jobs.recv_timeout(IDLE_BEFORE_SHRINK) {
        Ok(job) => Some(job),
        Err(mpsc::RecvTimeoutError::Disconnected) => None,
        Err(mpsc::RecvTimeoutError::Timeout) => {
            shrink(conn);
            // Nothing more to give back until the next write.
            jobs.recv().ok()
        }
    }
}

/// Frees what the connection's page cache holds. Under a burst of writes
/// the writer's cache fills to its 32 MiB (`WRITER_PAGE_CACHE_KIB`) and
/// SQLite keeps it for the connection's life; a daemon that has stopped
/// writing gives it back (issue #22: a burst of activity batches left the
/// daemon's memory high for good). The next write reads its pages again,
/// from the operating system's file cache.
fn shrink(conn: &Connection) {
    if let Err(e) = conn.execute_batch("PRAGMA shrink_memory") {
        tracing::warn!(error = %e, "cannot shrink the writer's page cache");
    }
}

/// Runs `first` and the jobs already waiting behind it in one transaction,
/// commits, and delivers every result. Returns a job that must run alone
/// (see the module header) if one was next: it waits for the next round.
fn run_batch(
    conn: &mut Connection,
    first: Job,
    jobs: &mpsc::Receiver<Job>,
    counters: &Counters,
) -> Option<Job> {
    let tx = match conn.transaction_with_behavior(TransactionBehavior::Immediate) {
        Ok(tx) => tx,
        Err(e) => {
            fail_unrun(first, &e);
            return None;
        }
    };
    let mut completions = Vec::new();
    let mut next = None;
    let mut broken = run_in_savepoint(&tx, first, &mut completions).err();
    while broken.is_none() && completions.len() < MAX_BATCH {
        match jobs.try_recv() {
            Ok(job) if job.alone => {
                next = Some(job);
                break;
            }
            Ok(job) => broken = run_in_savepoint(&tx, job, &mut completions).err(),
            Err(_) => break,
        }
    }
    let outcome = match broken {
        // Dropping the transaction rolls it back.
        Some(e) => Err(e),
        None => timed_commit(tx, counters),
    };
    finish(outcome, completions, counters);
    next
}

/// Runs `job` in a transaction of its own, with no savepoint: its failure
/// rolls the transaction back.
fn run_alone(conn: &mut Connection, job: Job, counters: &Counters) {
    let tx = match conn.transaction_with_behavior(TransactionBehavior::Immediate) {
        Ok(tx) => tx,
        Err(e) => return fail_unrun(job, &e),
    };
    let (failed, completion) = (job.run)(Some(&tx));
    if failed {
        // Dropping the transaction rolls it back (nothing was committed, so
        // nothing is counted); the job's own error or panic is what its
        // caller gets, whatever the commit outcome passed.
        drop(tx);
        return completion(Ok(()));
    }
    let outcome = if tx.is_autocommit() {
        // SQLite rolled the transaction back under the job's feet.
        Err(rolled_back())
    } else {
        timed_commit(tx, counters)
    };
    finish(outcome, vec![completion], counters);
}

/// Commits `tx`, timing it for `GET /metrics`.
fn timed_commit(tx: Transaction<'_>, counters: &Counters) -> rusqlite::Result<()> {
    let started = std::time::Instant::now();
    let outcome = tx.commit();
    counters
        .metrics
        .commit_seconds
        .observe(started.elapsed().as_secs_f64());
    outcome
}

/// Counts a transaction's end and tells each of its jobs.
fn finish(outcome: rusqlite::Result<()>, completions: Vec<Completion>, counters: &Counters) {
    if outcome.is_ok() {
        counters.commits.fetch_add(1, Ordering::Relaxed);
        counters
            .writes
            .fetch_add(completions.len() as u64, Ordering::Relaxed);
        counters
            .metrics
            .writes_per_commit
            .observe(completions.len() as f64);
    }
    for completion in completions {
        completion(outcome.as_ref().map(|_| ()));
    }
}

/// Runs `job` in a savepoint of `tx`, rolling the savepoint back when the job
/// fails. An error here means the transaction itself is no longer usable.
fn run_in_savepoint(
    tx: &Transaction<'_>,
    job: Job,
    completions: &mut Vec<Completion>,
) -> rusqlite::Result<()> {
    // Prepared once, like every statement on this path.
    let run = |sql: &str| tx.prepare_cached(sql)?.execute([]).map(drop);
    if let Err(e) = run("SAVEPOINT job") {
        fail_unrun(job, &e);
        return Err(e);
    }
    let (failed, completion) = (job.run)(Some(tx));
    completions.push(completion);
    if tx.is_autocommit() {
        // SQLite rolled the whole transaction back under the job's feet.
        return Err(rolled_back());
    }
    if failed {
        run("ROLLBACK TO job")?;
    }
    run("RELEASE job")
}

/// Fails a job that could not run: its closure is skipped.
fn fail_unrun(job: Job, error: &rusqlite::Error) {
    let (_, completion) = (job.run)(None);
    completion(Err(error));
}

fn rolled_back() -> rusqlite::Error {
    rusqlite::Error::SqliteFailure(
        rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_ABORT),
        Some("the transaction was rolled back by SQLite during a write".into()),
    )
}

/// A copy of a commit error for every job of the batch (`rusqlite::Error`
/// is not `Clone`); it keeps the error's code.
pub(super) fn copy_error(error: &rusqlite::Error) -> rusqlite::Error {
    match error {
        rusqlite::Error::SqliteFailure(code, message) => {
            rusqlite::Error::SqliteFailure(*code, message.clone())
        }
        other => rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_ERROR),
            Some(other.to_string()),
        ),
    }
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc as std_mpsc;

    use modctl_types::Plan;

    use crate::store::{Store, teams};

    async fn store() -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().join("db")).await.unwrap();
        (dir, store)
    }

    /// Queues a write that holds the writer until the returned sender is
    /// used, and waits until it does: the writes queued meanwhile all join
    /// the next batch.
    fn hold_writer(store: &Store) -> (std_mpsc::Sender<()>, impl Future<Output = ()>) {
        let (started, has_started) = std_mpsc::channel();
        let (release, released) = std_mpsc::channel::<()>();
        let held = store.write(move |tx| {
            started.send(()).unwrap();
            released.recv().unwrap();
            teams::create(tx, "first", Plan::Free, 0).map(|_| ())
        });
        has_started.recv().unwrap();
        (release, async move { held.await.unwrap() })
    }

    async fn team_names(store: &Store) -> Vec<String> {
        let mut names: Vec<String> = store
            .read(teams::list)
            .await
            .unwrap()
            .into_iter()
            .map(|t| t.name)
            .collect();
        names.sort();
        names
    }

    #[tokio::test]
    async fn writes_queued_together_commit_together_and_a_failing_one_rolls_back_alone() {
        let (_dir, store) = store().await;
        let before = store.writer_stats();
        let (release, held) = hold_writer(&store);
        let good = store.write(|tx| teams::create(tx, "good", Plan::Free, 0));
        let bad = store.write(|tx| -> anyhow::Result<()> {
            teams::create(tx, "bad", Plan::Free, 0)?;
            anyhow::bail!("refused after its insert")
        });
        let panics = tokio::spawn(store.write(|tx| -> anyhow::Result<()> {
            teams::create(tx, "panics", Plan::Free, 0)?;
            panic!("a bug in a write")
        }));
        let last = store.write(|tx| teams::create(tx, "last", Plan::Free, 0));
        release.send(()).unwrap();

        held.await;
        good.await.unwrap();
        assert_eq!(
            bad.await.unwrap_err().to_string(),
            "refused after its insert"
        );
        assert!(
            panics.await.unwrap_err().is_panic(),
            "the panic reaches the caller"
        );
        last.await.unwrap();

        assert_eq!(team_names(&store).await, ["first", "good", "last"]);
        let after = store.writer_stats();
        assert_eq!(
            after.commits - before.commits,
            1,
            "one commit for the batch"
        );
        assert_eq!(after.writes - before.writes, 5);
    }

    #[tokio::test]
    async fn a_write_alone_never_joins_a_batch_and_its_failure_rolls_back_only_itself() {
        let (_dir, store) = store().await;
        let before = store.writer_stats();
        let (release, held) = hold_writer(&store);
        let joins = store.write(|tx| teams::create(tx, "joins", Plan::Free, 0));
        let alone = store.write_alone(|tx| teams::create(tx, "alone", Plan::Free, 0));
        let refused = store.write_alone(|tx| -> anyhow::Result<()> {
            teams::create(tx, "refused", Plan::Free, 0)?;
            anyhow::bail!("refused after its insert")
        });
        let panics = tokio::spawn(store.write_alone(|tx| -> anyhow::Result<()> {
            teams::create(tx, "panics", Plan::Free, 0)?;
            panic!("a bug in a write")
        }));
        let after_it = store.write(|tx| teams::create(tx, "after", Plan::Free, 0));
        release.send(()).unwrap();

        held.await;
        joins.await.unwrap();
        alone.await.unwrap();
        assert_eq!(
            refused.await.unwrap_err().to_string(),
            "refused after its insert"
        );
        assert!(panics.await.unwrap_err().is_panic());
        after_it.await.unwrap();

        assert_eq!(
            team_names(&store).await,
            ["after", "alone", "first", "joins"]
        );
        let after = store.writer_stats();
        // {first, joins}, {alone}, {after}: the failed ones commit nothing.
        assert_eq!(after.commits - before.commits, 3);
        assert_eq!(after.writes - before.writes, 4);
    }

    #[tokio::test]
    async fn a_lone_write_commits_at_once_and_later_writes_see_earlier_ones() {
        let (_dir, store) = store().await;
        store
            .write(|tx| teams::create(tx, "alpha", Plan::Free, 0))
            .await
            .unwrap();
        // A duplicate name is refused by the store, inside the next write:
        // writes run in order, each seeing the ones before it.
        let (release, held) = hold_writer(&store);
        let second = store.write(|tx| teams::create(tx, "beta", Plan::Free, 0));
        let duplicate = store.write(|tx| teams::create(tx, "beta", Plan::Free, 0));
        release.send(()).unwrap();
        held.await;
        second.await.unwrap();
        assert!(duplicate.await.is_err(), "the second `beta` sees the first");
        assert_eq!(team_names(&store).await, ["alpha", "beta", "first"]);
    }

    #[tokio::test]
    async fn a_write_whose_caller_has_gone_still_commits() {
        let (_dir, store) = store().await;
        let (release, held) = hold_writer(&store);
        drop(store.write(|tx| teams::create(tx, "orphan", Plan::Free, 0)));
        release.send(()).unwrap();
        held.await;
        // A read queued after the batch sees it.
        store
            .write(|_tx| Ok::<_, crate::store::StoreError>(()))
            .await
            .unwrap();
        assert_eq!(team_names(&store).await, ["first", "orphan"]);
    }

    #[tokio::test]
    async fn the_checkpoint_copies_committed_pages_into_the_database() {
        let (_dir, store) = store().await;
        for i in 0..20 {
            store
                .write(move |tx| teams::create(tx, &format!("team{i}"), Plan::Free, 0))
                .await
                .unwrap();
        }
        let done = store.checkpoint().await.unwrap();
        assert!(done.wal_frames > 0, "the writes are in the WAL: {done:?}");
        assert_eq!(done.behind(), 0, "all of it copied: {done:?}");
    }
}
