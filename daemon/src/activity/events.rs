//! The activity counts as a consumer of the event path ([`crate::events`]):
//! each [`Event`] a member caused becomes the [`ActivityEvent`] the insights
//! count, as the receivers counted them before the event path existed.
//!
//! - a message created by a member (not a bot, an app or a webhook): a
//!   message in its channel;
//! - a member joining (the server, or a Slack channel) or leaving: a join or
//!   a leave; bots are not members;
//! - Discord voice states: through the voice sessions ([`super::voice`]),
//!   which count minutes when a session ends;
//! - edits, deletions, AutoMod executions and kinds added later: nothing.
//!
//! The counted event keeps the event's id, so a redelivered event counts
//! once.

use async_trait::async_trait;
use modctl_types::activity::ActivityKind;

use super::{ActivityEvent, Ingestor, voice};
use crate::events::{Consumer, Event, EventKind};
use crate::store::Store;

/// The consumer's name, in the drop counts and for
/// [`crate::events::Fanout::publish_except`].
pub const NAME: &str = "activity";

/// What `event` counts for, when it is counted now (every kind but voice).
pub fn activity_of(event: &Event) -> Option<ActivityEvent> {
    let counted = |kind, user_id: &str, channel_id: Option<&String>| ActivityEvent {
        server_id: event.server_id.clone(),
        event_id: event.id.clone(),
        kind,
        user_id: user_id.to_owned(),
        channel_id: channel_id.cloned(),
        at: event.at,
        minutes: 0,
    };
    match &event.kind {
        EventKind::MessageCreated(m) if !m.author.is_bot => Some(counted(
            ActivityKind::Message,
            &m.author.id,
            Some(&m.channel_id),
        )),
        EventKind::MemberJoined(j) if !j.member.is_bot => Some(counted(
            ActivityKind::Join,
            &j.member.id,
            j.channel_id.as_ref(),
        )),
        EventKind::MemberLeft(l) if !l.member.is_bot => Some(counted(
            ActivityKind::Leave,
            &l.member.id,
            l.channel_id.as_ref(),
        )),
        _ => None,
    }
}

/// Counts events into the [`Ingestor`]'s buffer; voice states through the
/// voice sessions in the store.
#[derive(Debug, Clone)]
pub struct ActivityCounter {
    ingestor: Ingestor,
    store: Store,
}

impl ActivityCounter {
    /// Counts into `ingestor`, keeping voice sessions in `store`.
    pub fn new(ingestor: Ingestor, store: Store) -> ActivityCounter {
        ActivityCounter { ingestor, store }
    }
}

#[async_trait]
impl Consumer for ActivityCounter {
    fn name(&self) -> &'static str {
        NAME
    }

    async fn handle(&self, event: Event) {
        let guild = event.server_id.to_string();
        let now = event.at.as_second();
        let ended = match event.kind {
            EventKind::VoiceChanged(state) => voice::update(&self.store, guild, state, now)
                .await
                .map(|ended| ended.into_iter().collect()),
            EventKind::VoiceSnapshot(states) => {
                voice::sync_guild(&self.store, guild, states, now).await
            }
            _ => {
                if let Some(counted) = activity_of(&event) {
                    self.ingestor.record(counted);
                }
                return;
            }
        };
        match ended {
            Ok(events) => events.into_iter().for_each(|e| self.ingestor.record(e)),
            Err(error) => tracing::error!(%error, "cannot record a voice session"),
        }
    }
}

#[cfg(test)]
mod tests {
    use modctl_types::{Platform, Timestamp};

    use super::*;
    use crate::events::{Author, MemberRef, Membership, Message};

    fn event(kind: EventKind) -> Event {
        Event {
            platform: Platform::Slack,
            server_id: "T1".into(),
            at: Timestamp::from_second(1_800_000_000).unwrap(),
            id: Some("slack:Ev1".into()),
            kind,
        }
    }

    fn message(is_bot: bool) -> EventKind {
        EventKind::MessageCreated(Message {
            id: "1.1".into(),
            channel_id: "C1".into(),
            author: Author {
                id: "U1".into(),
                is_bot,
                ..Author::default()
            },
            ..Message::default()
        })
    }

    fn membership(is_bot: bool, channel: Option<&str>) -> Membership {
        Membership {
            member: MemberRef {
                id: "U2".into(),
                is_bot,
                display_name: None,
            },
            channel_id: channel.map(Into::into),
            pending: false,
        }
    }

    #[test]
    fn members_messages_joins_and_leaves_count_and_nothing_else() {
        let cases = [
            (
                message(false),
                Some((ActivityKind::Message, "U1", Some("C1"))),
            ),
            (message(true), None),
            (
                EventKind::MemberJoined(membership(false, Some("C9"))),
                Some((ActivityKind::Join, "U2", Some("C9"))),
            ),
            (
                EventKind::MemberLeft(membership(false, None)),
                Some((ActivityKind::Leave, "U2", None)),
            ),
            (EventKind::MemberJoined(membership(true, None)), None),
            (
                EventKind::MessageDeleted {
                    channel_id: "C1".into(),
                    message_id: "1.1".into(),
                },
                None,
            ),
            (EventKind::MessageEdited(Message::default()), None),
        ];
        for (kind, expected) in cases {
            let counted = activity_of(&event(kind.clone()));
            let got = counted
                .as_ref()
                .map(|c| (c.kind, c.user_id.as_str(), c.channel_id.as_deref()));
            assert_eq!(got, expected, "{kind:?}");
            if let Some(c) = counted {
                assert_eq!(
                    (
                        &*c.server_id,
                        c.event_id.as_deref(),
                        c.at.as_second(),
                        c.minutes
                    ),
                    ("T1", Some("slack:Ev1"), 1_800_000_000, 0)
                );
            }
        }
    }
}
