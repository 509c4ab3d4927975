//! The fan-out: every decoded [`Event`] to every consumer, each through its
//! own bounded queue and task.
//!
//! A transport publishes without waiting ([`Fanout::publish`] never awaits):
//! a consumer that falls behind (a slow disk, a platform that rate-limits
//! its deletes) fills its own queue, and what arrives while it is full is
//! dropped for that consumer alone and counted ([`Fanout::dropped`], shown
//! by onboarding). The gateway's heartbeats, the poller's offsets and the
//! other consumers go on as before. A queue holds [`QUEUE_CAPACITY`] events:
//! seconds of a busy guild, so only a consumer that is stuck drops.
//!
//! Consumers are given at start ([`Fanout::new`], [`Fanout::with`]); each
//! one's task starts with the first event published, on the runtime the
//! transports run on, and handles its events one after another, in the
//! order published.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use tokio::sync::mpsc;

use super::Event;

/// Events a consumer's queue holds before the next are dropped for it.
pub const QUEUE_CAPACITY: usize = 16_384;

/// Something done with every event: the activity counts, the automation.
#[async_trait]
pub trait Consumer: Send + Sync + 'static {
    /// Its name in logs and in the drop counts (`activity`, `automation`).
    fn name(&self) -> &'static str;

    /// Handles one event. Events come one at a time, in the order
    /// published; while this runs, later ones wait in the queue (and are
    /// dropped once it is full). Errors are the consumer's to log.
    async fn handle(&self, event: Event);
}

/// The consumers and their queues; cheap to clone.
#[derive(Clone)]
pub struct Fanout {
    lanes: Arc<[Lane]>,
    capacity: usize,
}

/// One consumer's queue and what it dropped.
struct Lane {
    consumer: Arc<dyn Consumer>,
    queue: mpsc::Sender<Event>,
    /// The queue's receiving end until the consumer's task takes it.
    waiting: Mutex<Option<mpsc::Receiver<Event>>>,
    started: AtomicBool,
    dropped: AtomicU64,
    /// Events queued or being handled.
    pending: Arc<AtomicU64>,
}

impl std::fmt::Debug for Fanout {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Fanout")
            .field("consumers", &self.names())
            .field("capacity", &self.capacity)
            .finish()
    }
}

impl Fanout {
    /// A fan-out to `consumers`, each with a queue of [`QUEUE_CAPACITY`].
    pub fn new(consumers: Vec<Arc<dyn Consumer>>) -> Fanout {
        Fanout::with_capacity(consumers, QUEUE_CAPACITY)
    }

    /// A fan-out to `consumers`, each with a queue of `capacity` events.
    pub fn with_capacity(consumers: Vec<Arc<dyn Consumer>>, capacity: usize) -> Fanout {
        let lanes = consumers
            .into_iter()
            .map(|consumer| {
                let (queue, receiver) = mpsc::channel(capacity.max(1));
                Lane {
                    consumer,
                    queue,
                    waiting: Mutex::new(Some(receiver)),
                    started: AtomicBool::new(false),
                    dropped: AtomicU64::new(0),
                    pending: Arc::new(AtomicU64::new(0)),
                }
            })
            .collect();
        Fanout { lanes, capacity }
    }

    /// A new fan-out to these consumers and `consumer` (fresh queues: build
    /// it before anything is published).
    pub fn with(&self, consumer: Arc<dyn Consumer>) -> Fanout {
        let mut consumers: Vec<Arc<dyn Consumer>> =
            self.lanes.iter().map(|l| l.consumer.clone()).collect();
        consumers.push(consumer);
        Fanout::with_capacity(consumers, self.capacity)
    }

    /// The consumers' names, in order.
    pub fn names(&self) -> Vec<&'static str> {
        self.lanes.iter().map(|l| l.consumer.name()).collect()
    }

    /// Hands `event` to every consumer's queue; never waits.
    pub fn publish(&self, event: Event) {
        self.publish_except(event, None);
    }

    /// Hands `event` to every consumer but the one named `handled`, which the
    /// caller has given it already (a hook writes the activity counts before
    /// it answers the platform); never waits.
    pub fn publish_except(&self, event: Event, handled: Option<&str>) {
        let lanes: Vec<&Lane> = self
            .lanes
            .iter()
            .filter(|l| Some(l.consumer.name()) != handled)
            .collect();
        let Some((last, others)) = lanes.split_last() else {
            return;
        };
        for lane in others {
            lane.offer(event.clone());
        }
        last.offer(event);
    }

    /// Events dropped per consumer (a full queue) since the daemon started,
    /// in the order of [`Fanout::names`].
    pub fn dropped(&self) -> Vec<(&'static str, u64)> {
        self.lanes
            .iter()
            .map(|l| (l.consumer.name(), l.dropped.load(Ordering::Relaxed)))
            .collect()
    }

    /// The events queued for each consumer now (not yet handled).
    pub fn queued(&self) -> Vec<(&'static str, usize)> {
        self.lanes
            .iter()
            .map(|l| (l.consumer.name(), self.capacity - l.queue.capacity()))
            .collect()
    }

    /// Waits until every consumer has handled what was published to it, or
    /// `deadline` has passed; whether they all did. A stopping daemon calls
    /// it once the transports have stopped, so what they received is
    /// handled (and counted by the last flush) rather than lost with the
    /// queues.
    pub async fn drain(&self, deadline: std::time::Duration) -> bool {
        let idle = || {
            self.lanes
                .iter()
                .all(|l| l.pending.load(Ordering::Acquire) == 0)
        };
        let until = tokio::time::Instant::now() + deadline;
        while !idle() {
            if tokio::time::Instant::now() >= until {
                tracing::warn!(
                    queued = ?self.queued(),
                    "event consumers did not handle what they were given before the daemon stopped"
                );
                return false;
            }
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
        true
    }
}

impl Lane {
    fn offer(&self, event: Event) {
        self.start();
        // Counted before it is sent, so the task never sees it handled
        // before it was counted.
        self.pending.fetch_add(1, Ordering::AcqRel);
        if self.queue.try_send(event).is_err() {
            self.pending.fetch_sub(1, Ordering::AcqRel);
            let dropped = self.dropped.fetch_add(1, Ordering::Relaxed);
            // One line per 10,000 drops, not one per event.
            if dropped.is_multiple_of(10_000) {
                tracing::warn!(
                    consumer = self.consumer.name(),
                    dropped = dropped + 1,
                    "an event consumer is not keeping up (its queue is full): dropping its events"
                );
            }
        }
    }

    /// Starts the consumer's task the first time (on the publisher's
    /// runtime, so a fan-out can be built outside one).
    fn start(&self) {
        if self.started.load(Ordering::Acquire) {
            return;
        }
        // Through a panic: the slot is taken whole or not at all.
        let receiver = crate::sync::lock(&self.waiting).take();
        let Some(mut receiver) = receiver else {
            return;
        };
        self.started.store(true, Ordering::Release);
        let consumer = self.consumer.clone();
        let pending = self.pending.clone();
        tokio::spawn(async move {
            while let Some(event) = receiver.recv().await {
                consumer.handle(event).await;
                pending.fetch_sub(1, Ordering::AcqRel);
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicUsize;

    use modctl_types::Platform;
    use tokio::sync::Semaphore;

    use super::*;
    use crate::events::EventKind;

    struct Counting {
        name: &'static str,
        handled: AtomicUsize,
        /// A permit per event it may handle: none, and it is stuck.
        gate: Option<Semaphore>,
    }

    #[async_trait]
    impl Consumer for Counting {
        fn name(&self) -> &'static str {
            self.name
        }

        async fn handle(&self, _event: Event) {
            if let Some(gate) = &self.gate {
                gate.acquire().await.unwrap().forget();
            }
            self.handled.fetch_add(1, Ordering::SeqCst);
        }
    }

    fn consumer(name: &'static str, stuck: bool) -> Arc<Counting> {
        Arc::new(Counting {
            name,
            handled: AtomicUsize::new(0),
            gate: stuck.then(|| Semaphore::new(0)),
        })
    }

    fn event(n: usize) -> Event {
        Event {
            platform: Platform::Discord,
            server_id: "1".into(),
            at: modctl_types::Timestamp::UNIX_EPOCH,
            id: Some(n.to_string()),
            kind: EventKind::MessageDeleted {
                channel_id: "2".into(),
                message_id: n.to_string(),
            },
        }
    }

    async fn settle() {
        for _ in 0..10 {
            tokio::task::yield_now().await;
        }
    }

    #[tokio::test]
    async fn a_stuck_consumer_neither_blocks_the_others_nor_the_publisher() {
        let slow = consumer("slow", true);
        let fast = consumer("fast", false);
        let fanout = Fanout::with_capacity(vec![slow.clone(), fast.clone()], 2);
        for n in 0..10 {
            fanout.publish(event(n));
            // The tasks run between publishes, as they would between
            // gateway messages.
            settle().await;
        }
        assert_eq!(fast.handled.load(Ordering::SeqCst), 10);
        // The stuck one holds one event in hand and two queued; the other
        // seven were dropped, for it alone.
        assert_eq!(fanout.dropped(), vec![("slow", 7), ("fast", 0)]);
        assert_eq!(fanout.queued(), vec![("slow", 2), ("fast", 0)]);
        let timeout = std::time::Duration::from_millis(50);
        assert!(
            !fanout.drain(timeout).await,
            "the stuck one still holds three"
        );
        slow.gate.as_ref().unwrap().add_permits(10);
        assert!(fanout.drain(timeout).await);
        assert_eq!(slow.handled.load(Ordering::SeqCst), 3);
    }

    #[tokio::test]
    async fn a_consumer_that_handled_an_event_already_is_skipped() {
        let activity = consumer("activity", false);
        let other = consumer("automation", false);
        let fanout = Fanout::new(vec![activity.clone()]).with(other.clone());
        assert_eq!(fanout.names(), ["activity", "automation"]);
        fanout.publish_except(event(1), Some("activity"));
        fanout.publish(event(2));
        settle().await;
        assert_eq!(activity.handled.load(Ordering::SeqCst), 1);
        assert_eq!(other.handled.load(Ordering::SeqCst), 2);
    }
}
