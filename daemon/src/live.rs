//! The live view (issue #27): what `GET /servers/{id}/events/stream` sends,
//! as it happens. See `docs/api.md`, "Live view (issue #27)".
//!
//! Two kinds of events, reaching a stream two ways:
//!
//! - **stored** ones (cases, automod hits, jail changes, config changes,
//!   lockdowns, antinuke): written to `live_events` in the transaction of the
//!   change that causes them ([`crate::store::live_events`]), numbered per
//!   server. A stream reads them from the store after the last id it sent,
//!   so a client that reconnects with `Last-Event-ID` gets exactly what it
//!   missed (within the window kept), also across a restart of the daemon,
//!   and a stream that is slow to read simply reads later: nothing is
//!   buffered for it. The [`run_hub`] task learns that new ones were stored
//!   (by any process: `modctld simulate message` writes from its own) by
//!   watching the database's change feed, and tells the watching streams
//!   through [`LiveBroadcast`].
//! - **live-only** ones (members joining): not stored; the [`JoinFeed`]
//!   consumer of the event path publishes them through [`LiveBroadcast`],
//!   whose bounded channel drops what a slow stream has not taken (it is
//!   told: `event: lagged`). Never replayed.
//!
//! Streams are capped per key, per team and in all ([`StreamCaps`]), and end
//! when the daemon begins to stop ([`Live::stopping`]): a long-lived answer
//! must not hold the shutdown for its whole deadline.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_trait::async_trait;
use modctl_types::live::{Lagged, LiveEvent, LiveEventKind, MemberJoined, Reset};
use tokio::sync::broadcast::{self, error::RecvError};
use tokio_util::sync::CancellationToken;

use crate::coordination::{ChangeFeed, LiveBroadcast, LiveNotice};
use crate::events::{Consumer, Event, EventKind};
use crate::store::{Store, StoreError, live_events};

/// How often the hub looks whether something was committed.
pub const HUB_TICK: Duration = Duration::from_millis(250);

/// Stored events a stream reads from the store at a time.
const READ_BATCH: u32 = 100;

/// The caps on open streams: per key, per team, in all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StreamLimits {
    /// Streams one key may hold open.
    pub per_key: usize,
    /// Streams the keys of one team may hold open together.
    pub per_team: usize,
    /// Streams the daemon serves at once (each holds a connection, within
    /// `--max-connections`).
    pub total: usize,
}

impl StreamLimits {
    /// 4 per key (a terminal or two, a dashboard), 16 per team, 256 in all
    /// (a quarter of the default connection cap, so streams cannot take the
    /// connections requests need).
    pub const DEFAULT: StreamLimits = StreamLimits {
        per_key: 4,
        per_team: 16,
        total: 256,
    };
}

/// The streams open now, counted against [`StreamLimits`]; per process
/// (see `crate::coordination`).
#[derive(Debug, Clone)]
pub struct StreamCaps {
    limits: StreamLimits,
    open: Arc<Mutex<Open>>,
}

#[derive(Debug, Default)]
struct Open {
    total: usize,
    keys: HashMap<String, usize>,
    teams: HashMap<i64, usize>,
}

/// Which cap a stream would exceed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OverCap {
    /// The key's.
    Key(usize),
    /// The team's.
    Team(usize),
    /// The daemon's.
    Total(usize),
}

impl OverCap {
    /// What the client is told.
    pub fn message(&self) -> String {
        match self {
            OverCap::Key(n) => format!(
                "this key has {n} event streams open already, the most one key may: close one (or use another key of the team)"
            ),
            OverCap::Team(n) => format!(
                "your team's keys have {n} event streams open already, the most one team may: close one"
            ),
            OverCap::Total(n) => format!(
                "the daemon serves {n} event streams already, the most it serves at once: retry in a minute"
            ),
        }
    }
}

/// A place among the open streams, given back when dropped.
#[derive(Debug)]
pub struct StreamSlot {
    open: Arc<Mutex<Open>>,
    key_id: String,
    team_id: i64,
}

impl Drop for StreamSlot {
    fn drop(&mut self) {
        let mut open = crate::sync::lock(&self.open);
        open.total = open.total.saturating_sub(1);
        if let Some(n) = open.keys.get_mut(&self.key_id) {
            *n -= 1;
            if *n == 0 {
                open.keys.remove(&self.key_id);
            }
        }
        if let Some(n) = open.teams.get_mut(&self.team_id) {
            *n -= 1;
            if *n == 0 {
                open.teams.remove(&self.team_id);
            }
        }
    }
}

impl StreamCaps {
    /// Caps at `limits`, nothing open.
    pub fn new(limits: StreamLimits) -> StreamCaps {
        StreamCaps {
            limits,
            open: Arc::default(),
        }
    }

    /// A place for a stream of `key_id` of team `team_id`, or the cap it
    /// would exceed.
    pub fn admit(&self, key_id: &str, team_id: i64) -> Result<StreamSlot, OverCap> {
        let mut open = crate::sync::lock(&self.open);
        let limits = self.limits;
        if open.keys.get(key_id).copied().unwrap_or(0) >= limits.per_key {
            return Err(OverCap::Key(limits.per_key));
        }
        if open.teams.get(&team_id).copied().unwrap_or(0) >= limits.per_team {
            return Err(OverCap::Team(limits.per_team));
        }
        if open.total >= limits.total {
            return Err(OverCap::Total(limits.total));
        }
        open.total += 1;
        *open.keys.entry(key_id.to_owned()).or_default() += 1;
        *open.teams.entry(team_id).or_default() += 1;
        Ok(StreamSlot {
            open: self.open.clone(),
            key_id: key_id.to_owned(),
            team_id,
        })
    }
}

/// The live view's part of the daemon; cheap to clone.
#[derive(Debug, Clone)]
pub struct Live {
    /// The caps on open streams.
    pub caps: StreamCaps,
    /// Cancelled when the daemon begins to stop: every stream ends, and
    /// the hub.
    pub stopping: CancellationToken,
}

impl Default for Live {
    fn default() -> Self {
        Live {
            caps: StreamCaps::new(StreamLimits::DEFAULT),
            stopping: CancellationToken::new(),
        }
    }
}

/// Tells the watching streams of each server when its stored events move
/// on: every [`HUB_TICK`], when the change feed says something was
/// committed (or cannot say), reads the newest id of each watched server
/// and publishes the ones that changed. Returns when `stopping` is
/// cancelled.
pub async fn run_hub(
    store: Store,
    changes: Arc<dyn ChangeFeed>,
    broadcast: Arc<dyn LiveBroadcast>,
    stopping: CancellationToken,
) {
    let mut seen: Option<i64> = None;
    let mut known: HashMap<String, i64> = HashMap::new();
    let mut tick = tokio::time::interval(HUB_TICK);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            () = stopping.cancelled() => return,
            _ = tick.tick() => {}
        }
        let watched = broadcast.watched();
        known.retain(|server, _| watched.contains(server));
        if watched.is_empty() {
            continue;
        }
        let version = changes.version();
        let new_watchers = watched.iter().any(|server| !known.contains_key(server));
        if version.is_some() && version == seen && !new_watchers {
            continue;
        }
        seen = version;
        let newest = store
            .read(move |tx| {
                watched
                    .into_iter()
                    .map(|server| {
                        let newest = live_events::newest(tx, &server)?;
                        Ok((server, newest))
                    })
                    .collect::<Result<Vec<_>, StoreError>>()
            })
            .await;
        match newest {
            Ok(newest) => {
                for (server, newest) in newest {
                    if known.insert(server.clone(), newest) != Some(newest) {
                        broadcast.publish(&server, LiveNotice::Stored(newest));
                    }
                }
            }
            Err(error) => {
                // The next tick asks again.
                seen = None;
                tracing::warn!(%error, "the live view cannot read the newest events");
            }
        }
    }
}

/// The event path's consumer that publishes members joining to the
/// streams (live only).
#[derive(Debug)]
pub struct JoinFeed {
    broadcast: Arc<dyn LiveBroadcast>,
}

impl JoinFeed {
    /// Publishing through `broadcast`.
    pub fn new(broadcast: Arc<dyn LiveBroadcast>) -> JoinFeed {
        JoinFeed { broadcast }
    }
}

#[async_trait]
impl Consumer for JoinFeed {
    fn name(&self) -> &'static str {
        "live_view"
    }

    async fn handle(&self, event: Event) {
        let EventKind::MemberJoined(joined) = &event.kind else {
            return;
        };
        let data = MemberJoined {
            user_id: joined.member.id.clone(),
            name: joined.member.display_name.clone(),
            is_bot: joined.member.is_bot,
            channel_id: joined.channel_id.clone(),
        };
        let event = LiveEvent {
            id: None,
            kind: LiveEventKind::MemberJoined,
            created_at: event.at,
            server_id: event.server_id.to_string(),
            data: serde_json::to_value(data).unwrap_or_default(),
        };
        self.broadcast
            .publish(&event.server_id.clone(), LiveNotice::Live(Arc::new(event)));
    }
}

/// Where a stream starts, from the `Last-Event-ID` a client sent and the
/// ids the server holds (`(oldest, newest)`, `None` when none).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Start {
    /// Send the stored events after this id.
    After(i64),
    /// The id cannot be resumed from: tell the client ([`Reset`]) and go on
    /// after the newest.
    Reset(Reset),
}

/// Decides where a stream starts: without an id, after the newest event
/// (only what happens from now on); with one, after it, when every event
/// after it is still kept; else a reset.
pub fn start(last_event_id: Option<i64>, held: Option<(i64, i64)>) -> Start {
    let newest = held.map_or(0, |(_, newest)| newest);
    let Some(last) = last_event_id else {
        return Start::After(newest);
    };
    let reset = |reason: String| {
        Start::Reset(Reset {
            reason,
            last_id: newest,
        })
    };
    match held {
        _ if last > newest => reset(format!(
            "event {last} is newer than any this server has (the newest is {newest}): the daemon's database was replaced; refetch"
        )),
        Some((oldest, _)) if last < oldest - 1 => reset(format!(
            "events after {last} are no longer kept (the oldest kept is {oldest}): refetch what you show"
        )),
        _ => Start::After(last),
    }
}

/// One item of a stream.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    /// An event.
    Event(LiveEvent),
    /// The resume point was lost.
    Reset(Reset),
    /// Live-only events dropped for this stream.
    Lagged(Lagged),
}

/// A stream of one server's events, read by [`Stream::next`].
#[derive(Debug)]
pub struct Stream {
    store: Store,
    server_id: String,
    kinds: Vec<LiveEventKind>,
    after: i64,
    notices: broadcast::Receiver<LiveNotice>,
    stopping: CancellationToken,
    pending: VecDeque<Item>,
    /// Whether the store may hold events after `after`.
    unread: bool,
    _slot: StreamSlot,
}

impl Stream {
    /// The stream of `server_id`'s events of `kinds` (every kind when
    /// empty), from `start`, holding `slot`. `notices` must be subscribed
    /// before the store's bounds were read for `start`, so nothing stored in
    /// between is missed.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        store: Store,
        server_id: String,
        kinds: Vec<LiveEventKind>,
        start: Start,
        notices: broadcast::Receiver<LiveNotice>,
        stopping: CancellationToken,
        slot: StreamSlot,
    ) -> Stream {
        let (after, pending) = match start {
            Start::After(after) => (after, VecDeque::new()),
            Start::Reset(reset) => (reset.last_id, VecDeque::from([Item::Reset(reset)])),
        };
        Stream {
            store,
            server_id,
            kinds,
            after,
            notices,
            stopping,
            pending,
            unread: true,
            _slot: slot,
        }
    }

    fn wants(&self, kind: LiveEventKind) -> bool {
        self.kinds.is_empty() || self.kinds.contains(&kind)
    }

    /// The next item; `None` once the daemon is stopping, the broadcast is
    /// gone, or the store cannot be read (the client reconnects).
    pub async fn next(&mut self) -> Option<Item> {
        loop {
            if let Some(item) = self.pending.pop_front() {
                return Some(item);
            }
            if self.stopping.is_cancelled() {
                return None;
            }
            if self.unread {
                let (server_id, kinds, after) =
                    (self.server_id.clone(), self.kinds.clone(), self.after);
                let read = self
                    .store
                    .read(move |tx| live_events::after(tx, &server_id, after, &kinds, READ_BATCH))
                    .await;
                match read {
                    Ok((events, last)) => {
                        // Looked at nothing new: read again only when told.
                        self.unread = last != self.after;
                        self.after = last;
                        self.pending.extend(events.into_iter().map(Item::Event));
                        continue;
                    }
                    Err(error) => {
                        tracing::warn!(%error, server = %self.server_id, "an event stream cannot read its events; ending it");
                        return None;
                    }
                }
            }
            tokio::select! {
                () = self.stopping.cancelled() => return None,
                notice = self.notices.recv() => match notice {
                    Ok(LiveNotice::Stored(newest)) => self.unread = newest > self.after,
                    Ok(LiveNotice::Live(event)) => {
                        if self.wants(event.kind) {
                            self.pending.push_back(Item::Event((*event).clone()));
                        }
                    }
                    Err(RecvError::Lagged(missed)) => {
                        // Stored events are read from where the stream is;
                        // only live-only ones are gone.
                        self.unread = true;
                        if self.wants(LiveEventKind::MemberJoined) {
                            self.pending.push_back(Item::Lagged(Lagged { missed }));
                        }
                    }
                    Err(RecvError::Closed) => return None,
                },
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn where_a_stream_starts() {
        /// The ids held: (oldest, newest).
        type Held = Option<(i64, i64)>;
        // (Last-Event-ID, held, Ok(after) or Err(the reset's last_id))
        let cases: &[(Option<i64>, Held, Result<i64, i64>)] = &[
            (None, None, Ok(0)),
            (None, Some((1, 9)), Ok(9)),
            (Some(0), None, Ok(0)),
            (Some(0), Some((1, 9)), Ok(0)),
            (Some(4), Some((1, 9)), Ok(4)),
            (Some(9), Some((1, 9)), Ok(9)),
            (Some(4), Some((5, 9)), Ok(4)),
            (Some(3), Some((5, 9)), Err(9)),
            (Some(10), Some((5, 9)), Err(9)),
            (Some(3), None, Err(0)),
        ];
        for &(last, held, want) in cases {
            let got = match start(last, held) {
                Start::After(after) => Ok(after),
                Start::Reset(reset) => Err(reset.last_id),
            };
            assert_eq!(got, want, "{last:?} {held:?}");
        }
    }

    #[test]
    fn streams_are_capped_per_key_team_and_in_all_and_places_come_back() {
        let caps = StreamCaps::new(StreamLimits {
            per_key: 2,
            per_team: 3,
            total: 4,
        });
        let a1 = caps.admit("a", 1).unwrap();
        let _a2 = caps.admit("a", 1).unwrap();
        assert_eq!(caps.admit("a", 1).unwrap_err(), OverCap::Key(2));
        let _b1 = caps.admit("b", 1).unwrap();
        assert_eq!(caps.admit("c", 1).unwrap_err(), OverCap::Team(3));
        let _d1 = caps.admit("d", 2).unwrap();
        assert_eq!(caps.admit("e", 3).unwrap_err(), OverCap::Total(4));
        drop(a1);
        let _a3 = caps.admit("a", 1).expect("a place came back");
    }
}
