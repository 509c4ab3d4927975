//! Simulated community activity, for `modctld demo`: a history of
//! [`HISTORY_DAYS`] days (messages, voice, joins, leaves, and the cases
//! moderators recorded) and a live trickle of events while the demo runs, so
//! both insights show something real-looking on the first try.
//!
//! The history goes through the same code as real activity
//! ([`crate::store::activity::ingest`], [`crate::store::cases::insert`]), so
//! the rollups are exactly what a real community would leave. Members of the
//! history are made-up ids beside the demo's named members, who are left
//! alone: their strikes and cases start empty, as the demo's lines expect.

use modctl_types::Platform;
use modctl_types::activity::ActivityKind;
use modctl_types::moderation::{Action, CaseSource, CaseState};

use crate::activity::ActivityEvent;
use crate::events::{Author, Event, EventKind, MemberRef, Membership, Message};
use crate::store::days::{DayFinder, server_timezone};
use crate::store::{StoreError, Tx, activity as rollups, cases};

/// Days of history the demo starts with.
pub const HISTORY_DAYS: i64 = 90;

/// Made-up members per server.
const MEMBERS: u64 = 240;

/// A small deterministic generator (xorshift64*): the demo looks the same
/// every time, and the daemon needs no random-number crate for it.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed` (any value).
    pub fn new(seed: u64) -> Rng {
        Rng(seed | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// Uniform in `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    /// Uniform in `[0, 1)`.
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A member rank in `0..n`, low ranks far more often (a few members
    /// write most messages, as in every community).
    fn skewed(&mut self, n: u64) -> u64 {
        ((n as f64) * self.unit().powf(2.5)) as u64
    }
}

/// The made-up member `rank` of a server on `platform`, in that platform's
/// id shape.
pub fn member_id(platform: Platform, rank: u64) -> String {
    match platform {
        Platform::Discord => format!("81{rank:016}"),
        Platform::Telegram => format!("2{rank:08}"),
        Platform::Slack => format!("U0SIM{rank:05}"),
        _ => crate::platform::new_platform(platform),
    }
}

/// Where activity happens: the community's text channels (on Telegram the
/// group itself: its other chats are the moderators' mod-log), and its
/// voice channels (or the first text one).
#[derive(Debug, Clone)]
struct Channels {
    text: Vec<String>,
    voice: Vec<String>,
}

fn channels(server_id: &str, platform: Platform) -> Channels {
    let community = super::demo::community(platform);
    let of = |voice: bool| -> Vec<String> {
        community
            .channels
            .iter()
            // Discord's channel types: 2 voice, 4 category.
            .filter(|c| c.kind != 4 && (c.kind == 2) == voice)
            .map(|c| c.channel_id.to_owned())
            .collect()
    };
    let mut text = of(false);
    if text.is_empty() || platform == Platform::Telegram {
        text.clear();
        text.push(server_id.to_owned());
    }
    let mut voice = of(true);
    if voice.is_empty() {
        voice.push(text[0].clone());
    }
    Channels { text, voice }
}

/// Messages on an ordinary weekday at the end of the history.
fn base_messages(platform: Platform) -> f64 {
    match platform {
        Platform::Discord => 420.0,
        Platform::Telegram => 160.0,
        Platform::Slack => 90.0,
        _ => crate::platform::new_platform(platform),
    }
}

/// `count` events of one day starting at `start` (unix seconds), for the
/// server's members and channels.
#[allow(clippy::too_many_arguments)]
fn day_events(
    rng: &mut Rng,
    server_id: &str,
    platform: Platform,
    channels: &Channels,
    start: i64,
    seconds: i64,
    messages: u64,
    id_prefix: &str,
) -> Vec<ActivityEvent> {
    let mut events = Vec::new();
    let mut push =
        |rng: &mut Rng, kind: ActivityKind, user: String, channel: Option<String>, minutes: u32| {
            let at = start + rng.below(seconds.max(1) as u64) as i64;
            events.push(ActivityEvent {
                server_id: server_id.into(),
                event_id: Some(format!("{id_prefix}-{start}-{}", rng.next())),
                kind,
                user_id: user,
                channel_id: channel,
                at: jiff::Timestamp::from_second(at).unwrap_or(jiff::Timestamp::UNIX_EPOCH),
                minutes,
            });
        };
    for _ in 0..messages {
        let user = member_id(platform, rng.skewed(MEMBERS));
        // Busy channels first, like the members.
        let channel = channels.text[rng.skewed(channels.text.len() as u64) as usize].clone();
        push(rng, ActivityKind::Message, user, Some(channel), 0);
    }
    if platform == Platform::Discord {
        for _ in 0..messages / 25 {
            let user = member_id(platform, rng.skewed(MEMBERS / 3));
            let minutes = 5 + rng.below(110) as u32;
            let channel = channels.voice[rng.below(channels.voice.len() as u64) as usize].clone();
            push(rng, ActivityKind::Voice, user, Some(channel), minutes);
        }
    }
    for _ in 0..rng.below(5) + 1 {
        let user = member_id(platform, MEMBERS + rng.below(10_000));
        push(rng, ActivityKind::Join, user, None, 0);
    }
    for _ in 0..rng.below(3) {
        let user = member_id(platform, rng.below(MEMBERS));
        push(rng, ActivityKind::Leave, user, None, 0);
    }
    events
}

/// The moderators of the history, as cases name their actor.
const MODERATORS: [&str; 3] = ["key:demo_mia", "key:demo_sam", "key:demo_lee"];

/// Writes [`HISTORY_DAYS`] days of activity and cases of `server_id`
/// ending at `now` (unix seconds), in the caller's transaction.
pub fn seed_history(
    tx: &Tx<'_>,
    server_id: &str,
    platform: Platform,
    now: i64,
) -> Result<(), StoreError> {
    let mut rng = Rng::new(now as u64 ^ server_id.len() as u64 ^ platform as u64);
    let channels = channels(server_id, platform);
    let mut days = DayFinder::new(server_timezone(tx, server_id)?);
    for back in (1..=HISTORY_DAYS).rev() {
        let start = now - back * 86_400;
        // Growing a little, busier at weekends, never the same twice.
        let growth = 0.7 + 0.3 * (HISTORY_DAYS - back) as f64 / HISTORY_DAYS as f64;
        let weekday = jiff::Timestamp::from_second(start)
            .map(|t| {
                t.to_zoned(jiff::tz::TimeZone::UTC)
                    .weekday()
                    .to_monday_zero_offset()
            })
            .unwrap_or(0);
        let weekend = if weekday >= 5 { 1.35 } else { 1.0 };
        let noise = 0.8 + 0.4 * rng.unit();
        let messages = (base_messages(platform) * growth * weekend * noise) as u64;
        let events = day_events(
            &mut rng, server_id, platform, &channels, start, 86_400, messages, "demo",
        );
        rollups::ingest(tx, server_id, &events, &mut days, now)?;
        for _ in 0..rng.below(6) + 1 {
            let at = start + rng.below(86_400) as i64;
            seed_case(tx, &mut rng, server_id, platform, at)?;
        }
    }
    Ok(())
}

/// A case of the history at `at`: mostly warnings and timeouts, some
/// bans, a few escalations, a few not applied.
fn seed_case(
    tx: &Tx<'_>,
    rng: &mut Rng,
    server_id: &str,
    platform: Platform,
    at: i64,
) -> Result<(), StoreError> {
    let (action, source) = match rng.below(100) {
        0..=44 => (Action::Warn, CaseSource::Api),
        45..=69 => (Action::Timeout, CaseSource::Api),
        70..=77 => (Action::Timeout, CaseSource::Escalation),
        78..=87 => (Action::Ban, CaseSource::Api),
        88..=93 => (Action::Kick, CaseSource::Api),
        _ => (Action::Note, CaseSource::Api),
    };
    let user = member_id(platform, rng.skewed(MEMBERS));
    let applied = rng.below(100) >= 8;
    let minutes = (action == Action::Timeout).then_some(60);
    cases::insert(
        tx,
        &cases::NewCase {
            server_id,
            action,
            user_id: &user,
            actor: MODERATORS[rng.skewed(MODERATORS.len() as u64) as usize],
            reason: Some(["spam", "off-topic", "rude", "raid", "links"][rng.below(5) as usize]),
            minutes,
            expires_at: minutes.map(|m| at + m * 60),
            delete_message_days: (action == Action::Ban).then_some(0),
            applied,
            platform,
            detail: if applied {
                "applied (demo history)"
            } else {
                "not applied (demo history)"
            },
            state: CaseState::Settled,
            source,
            linked_case_id: None,
            now: at,
            dm: None,
            // History, written before the demo's webhooks are set up.
            webhook_url: None,
        },
    )?;
    Ok(())
}

/// A few seconds' worth of live events for `server_id`, ending at `now`:
/// what the demo records every few seconds while it runs.
pub fn trickle(
    rng: &mut Rng,
    server_id: &str,
    platform: Platform,
    now: i64,
    seconds: i64,
) -> Vec<ActivityEvent> {
    let channels = channels(server_id, platform);
    // A day's messages spread over its seconds, at least one per tick.
    let per_tick = (base_messages(platform) * seconds as f64 / 86_400.0 * 20.0).max(1.0) as u64;
    let mut events = day_events(
        rng,
        server_id,
        platform,
        &channels,
        now - seconds,
        seconds,
        per_tick,
        "live",
    );
    // Joins and leaves are a few a day, not a few per tick.
    events.retain(|e| {
        matches!(e.kind, ActivityKind::Message | ActivityKind::Voice) || rng.below(200) == 0
    });
    events
}

/// A live event as the platform would have sent it, so the demo's trickle
/// goes through the event path ([`crate::events`]) like a gateway's: a
/// member's message (without text: the demo makes none up) in its channel,
/// a join, a leave. Voice minutes are what the voice sessions count from
/// voice states, not an event of their own: `Err` gives them back, to be
/// recorded as they are.
pub fn live_event(platform: Platform, event: ActivityEvent) -> Result<Event, ActivityEvent> {
    let membership = |e: &ActivityEvent| Membership {
        member: MemberRef {
            id: e.user_id.clone(),
            is_bot: false,
            display_name: None,
        },
        channel_id: e.channel_id.clone(),
        pending: false,
    };
    let kind = match event.kind {
        ActivityKind::Message => match &event.channel_id {
            Some(channel) => EventKind::MessageCreated(Message {
                id: event.event_id.clone().unwrap_or_default(),
                channel_id: channel.clone(),
                author: Author {
                    id: event.user_id.clone(),
                    ..Author::default()
                },
                ..Message::default()
            }),
            None => return Err(event),
        },
        ActivityKind::Join => EventKind::MemberJoined(membership(&event)),
        ActivityKind::Leave => EventKind::MemberLeft(membership(&event)),
        _ => return Err(event),
    };
    Ok(Event {
        platform,
        server_id: event.server_id,
        at: event.at,
        id: event.event_id,
        kind,
    })
}

#[cfg(test)]
mod live_tests {
    use super::*;

    /// Members talk in the community's text channels; on Telegram in the
    /// group itself, never in the moderators' mod-log chat.
    #[test]
    fn members_talk_where_members_are() {
        use super::super::demo::{DISCORD, TELEGRAM, discord_members, telegram_members};
        for (server, platform, never) in [
            (TELEGRAM, Platform::Telegram, telegram_members::MODLOG),
            // A category is no place to talk.
            (DISCORD, Platform::Discord, "700000000000000010"),
        ] {
            let channels = channels(server, platform);
            assert!(!channels.text.iter().any(|c| c == never), "{channels:?}");
            if platform == Platform::Telegram {
                assert_eq!(channels.text, [TELEGRAM]);
            } else {
                assert!(channels.text.iter().any(|c| c == discord_members::MODLOG));
            }
        }
    }

    #[test]
    fn live_events_count_as_the_trickle_did() {
        let mut rng = Rng::new(7);
        let events = trickle(
            &mut rng,
            "112233445566778899",
            Platform::Discord,
            1_800_000_000,
            5,
        );
        assert!(!events.is_empty());
        for event in events {
            match live_event(Platform::Discord, event.clone()) {
                Ok(live) => assert_eq!(crate::activity::events::activity_of(&live), Some(event)),
                Err(back) => assert_eq!((back.kind, back), (ActivityKind::Voice, event)),
            }
        }
    }
}
