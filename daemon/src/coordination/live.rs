//! The live view's broadcast (issue #27) within one process: a bounded
//! `tokio::sync::broadcast` channel per watched server.

use std::collections::HashMap;
use std::sync::Mutex;

use tokio::sync::broadcast;

use super::{LiveBroadcast, LiveNotice};

/// Notices a server's channel holds for its slowest stream; one that falls
/// further behind is told it lagged (`RecvError::Lagged`) and reads the
/// replayable events from the store where it is.
pub const CHANNEL_CAPACITY: usize = 256;

/// [`LiveBroadcast`] within this process.
#[derive(Debug, Default)]
pub struct LocalBroadcast {
    channels: Mutex<HashMap<String, broadcast::Sender<LiveNotice>>>,
}

impl LiveBroadcast for LocalBroadcast {
    fn publish(&self, server_id: &str, notice: LiveNotice) {
        let mut channels = crate::sync::lock(&self.channels);
        if let Some(sender) = channels.get(server_id)
            && sender.send(notice).is_err()
        {
            // Nobody listens any more: the channel goes until someone does.
            channels.remove(server_id);
        }
    }

    fn subscribe(&self, server_id: &str) -> broadcast::Receiver<LiveNotice> {
        crate::sync::lock(&self.channels)
            .entry(server_id.to_owned())
            .or_insert_with(|| broadcast::channel(CHANNEL_CAPACITY).0)
            .subscribe()
    }

    fn watched(&self) -> Vec<String> {
        let mut channels = crate::sync::lock(&self.channels);
        channels.retain(|_, sender| sender.receiver_count() > 0);
        channels.keys().cloned().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notices_reach_the_servers_subscribers_only_and_unwatched_servers_are_forgotten() {
        let live = LocalBroadcast::default();
        live.publish("1", LiveNotice::Stored(1));
        let mut one = live.subscribe("1");
        let mut two = live.subscribe("2");
        assert_eq!(
            {
                let mut w = live.watched();
                w.sort();
                w
            },
            vec!["1".to_owned(), "2".to_owned()]
        );
        live.publish("1", LiveNotice::Stored(7));
        assert!(matches!(one.try_recv(), Ok(LiveNotice::Stored(7))));
        assert!(two.try_recv().is_err(), "another server's notice");
        drop(two);
        assert_eq!(live.watched(), vec!["1".to_owned()]);
        for n in 0..(CHANNEL_CAPACITY as i64 + 3) {
            live.publish("1", LiveNotice::Stored(n));
        }
        assert!(
            matches!(
                one.try_recv(),
                Err(broadcast::error::TryRecvError::Lagged(3))
            ),
            "a slow subscriber is told, not buffered for"
        );
    }
}
