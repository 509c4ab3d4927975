//! Discord voice sessions: a member's time in a voice channel, from the
//! voice state updates the gateway sends, counted in minutes per member and
//! channel when the session ends (a leave, or a move to another channel).
//!
//! Open sessions live in the store (`voice_sessions`), each change in its
//! own write, so a restart does not forget who is in voice. What a stop or a
//! crash leaves open is closed when the next session starts
//! ([`close_left_open`]) at the last moment the receiver was known to listen
//! (`activity_receivers.alive_at`, written every minute and at a clean
//! stop): the time the daemon was away is not counted, since nobody knows
//! whether the member stayed. The guild's `GUILD_CREATE` then says who is in
//! voice now, and those sessions start afresh ([`sync_guild`]).
//!
//! Minutes are rounded to the nearest whole minute; a session shorter than
//! half a minute counts nothing.

use modctl_types::Timestamp;
use modctl_types::activity::ActivityKind;

use crate::activity::ActivityEvent;
use crate::events::VoiceState;
use crate::store::receivers::{self, VoiceSession};
use crate::store::{Store, StoreError, Tx};

/// The event a session that ran from `session.started_at` to `end` counts,
/// if it lasted long enough to count.
fn closed(server: &str, session: &VoiceSession, end: i64) -> Option<ActivityEvent> {
    let seconds = (end - session.started_at).max(0);
    let minutes = u32::try_from((seconds + 30) / 60).unwrap_or(u32::MAX);
    (minutes > 0).then(|| ActivityEvent {
        server_id: server.into(),
        event_id: None,
        kind: ActivityKind::Voice,
        user_id: session.user_id.clone(),
        channel_id: Some(session.channel_id.clone()),
        at: Timestamp::from_second(end).unwrap_or(Timestamp::UNIX_EPOCH),
        minutes,
    })
}

/// Applies one member's voice state in `guild` at `now` inside `tx`; the
/// voice time it ends.
fn apply(
    tx: &Tx<'_>,
    guild: &str,
    state: &VoiceState,
    now: i64,
) -> Result<Option<ActivityEvent>, StoreError> {
    let current = receivers::voice_session(tx, guild, &state.user_id)?;
    if current.as_ref().map(|s| &s.channel_id) == state.channel_id.as_ref() {
        // A mute, a deafen, a stream: still in the same channel.
        return Ok(None);
    }
    let ended = current.and_then(|session| closed(guild, &session, now));
    match &state.channel_id {
        Some(channel) => receivers::open_voice(
            tx,
            guild,
            &VoiceSession {
                user_id: state.user_id.clone(),
                channel_id: channel.clone(),
                started_at: now,
            },
        )?,
        None => receivers::close_voice(tx, guild, &state.user_id)?,
    }
    Ok(ended)
}

/// A `VOICE_STATE_UPDATE`: a join opens a session, a move closes one and
/// opens the next, a leave closes it. Returns the voice time to count.
pub async fn update(
    store: &Store,
    guild_id: String,
    state: VoiceState,
    now: i64,
) -> Result<Option<ActivityEvent>, StoreError> {
    store
        .write(move |tx| apply(tx, &guild_id, &state, now))
        .await
}

/// A guild's `GUILD_CREATE` at the start of a session: who is in voice now.
/// Sessions of members no longer in voice end now (they left while the
/// session was down); members in voice without a session start one.
pub async fn sync_guild(
    store: &Store,
    guild_id: String,
    states: Vec<VoiceState>,
    now: i64,
) -> Result<Vec<ActivityEvent>, StoreError> {
    store
        .write(move |tx| {
            let mut events = Vec::new();
            for session in receivers::voice_sessions(tx, &guild_id)? {
                if !states.iter().any(|s| s.user_id == session.user_id) {
                    receivers::close_voice(tx, &guild_id, &session.user_id)?;
                    events.extend(closed(&guild_id, &session, now));
                }
            }
            for state in &states {
                events.extend(apply(tx, &guild_id, state, now)?);
            }
            Ok(events)
        })
        .await
}

/// Closes the sessions a stopped or crashed daemon left open in `guild_id`,
/// each at the last moment its receiver was known to listen (never before
/// the session started). Returns the voice time to count.
pub async fn close_left_open(
    store: &Store,
    guild_id: String,
) -> Result<Vec<ActivityEvent>, StoreError> {
    store
        .write(move |tx| {
            let alive_at = receivers::alive_at(tx, &guild_id)?;
            let mut events = Vec::new();
            for session in receivers::voice_sessions(tx, &guild_id)? {
                receivers::close_voice(tx, &guild_id, &session.user_id)?;
                let end = alive_at.unwrap_or(session.started_at);
                events.extend(closed(&guild_id, &session, end.max(session.started_at)));
            }
            Ok(events)
        })
        .await
}

#[cfg(test)]
mod tests {
    use super::*;

    const GUILD: &str = "100000000000000001";

    fn state(user: &str, channel: Option<&str>) -> VoiceState {
        VoiceState {
            user_id: user.into(),
            channel_id: channel.map(Into::into),
        }
    }

    async fn store() -> (tempfile::TempDir, Store) {
        crate::store::testing::store_with_server(modctl_types::Platform::Discord, GUILD).await
    }

    fn minutes(event: &Option<ActivityEvent>) -> Option<(&str, u32)> {
        event
            .as_ref()
            .map(|e| (e.channel_id.as_deref().unwrap(), e.minutes))
    }

    #[tokio::test]
    async fn join_move_and_leave_count_minutes_per_channel() {
        let (_dir, store) = store().await;
        let t = 1_800_000_000;
        assert_eq!(
            update(&store, GUILD.into(), state("U", Some("V1")), t)
                .await
                .unwrap(),
            None
        );
        // Muting changes nothing.
        assert_eq!(
            update(&store, GUILD.into(), state("U", Some("V1")), t + 60)
                .await
                .unwrap(),
            None
        );
        let moved = update(&store, GUILD.into(), state("U", Some("V2")), t + 600)
            .await
            .unwrap();
        assert_eq!(minutes(&moved), Some(("V1", 10)));
        let left = update(&store, GUILD.into(), state("U", None), t + 600 + 89)
            .await
            .unwrap();
        assert_eq!(minutes(&left), Some(("V2", 1)));
        assert_eq!(left.unwrap().at.as_second(), t + 689);
        // A leave without a session counts nothing.
        assert_eq!(
            update(&store, GUILD.into(), state("U", None), t + 700)
                .await
                .unwrap(),
            None
        );
    }

    #[tokio::test]
    async fn sessions_left_open_close_when_the_receiver_was_last_alive() {
        let (_dir, store) = store().await;
        let t = 1_800_000_000;
        update(&store, GUILD.into(), state("A", Some("V1")), t)
            .await
            .unwrap();
        update(&store, GUILD.into(), state("B", Some("V1")), t + 100)
            .await
            .unwrap();
        store
            .write(move |tx| receivers::set_alive(tx, &[GUILD.to_owned()], t + 1200))
            .await
            .unwrap();
        let closed = close_left_open(&store, GUILD.into()).await.unwrap();
        let counted: Vec<_> = closed
            .iter()
            .map(|e| (e.user_id.as_str(), e.minutes))
            .collect();
        assert_eq!(counted, vec![("A", 20), ("B", 18)]);
        assert!(closed.iter().all(|e| e.at.as_second() == t + 1200));
        let open = store
            .read(|tx| receivers::voice_sessions(tx, GUILD))
            .await
            .unwrap();
        assert!(open.is_empty());
    }

    #[tokio::test]
    async fn a_guild_snapshot_ends_who_left_and_starts_who_is_there() {
        let (_dir, store) = store().await;
        let t = 1_800_000_000;
        update(&store, GUILD.into(), state("A", Some("V1")), t)
            .await
            .unwrap();
        update(&store, GUILD.into(), state("B", Some("V1")), t)
            .await
            .unwrap();
        let events = sync_guild(
            &store,
            GUILD.into(),
            vec![state("B", Some("V1")), state("C", Some("V2"))],
            t + 300,
        )
        .await
        .unwrap();
        let counted: Vec<_> = events
            .iter()
            .map(|e| (e.user_id.as_str(), e.minutes))
            .collect();
        assert_eq!(counted, vec![("A", 5)]);
        let open: Vec<_> = store
            .read(|tx| receivers::voice_sessions(tx, GUILD))
            .await
            .unwrap()
            .into_iter()
            .map(|s| (s.user_id, s.started_at))
            .collect();
        assert_eq!(open, vec![("B".into(), t), ("C".into(), t + 300)]);
    }
}
