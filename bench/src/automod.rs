//! The `automod` scenario (issue #25): messages/s through decoding and all
//! six filters, in this process, with the daemon's own code.
//!
//! Each message is a raw platform payload (a Discord gateway frame of
//! `MESSAGE_CREATE`, a Slack Events API `message` callback body, a Telegram
//! update), taken the way the daemon takes it: the transport's decoder
//! (`modctld::events::decode`), then the automod consumer's whole work on a
//! message before it spawns anything ([`modctld::automation::automod::act::screen`]:
//! the server's config from the in-memory `LiveConfig`, its compiled
//! `Automod`, the filters with the duplicates history). Nothing caught is
//! acted on here: deleting and recording run in tasks of their own in the
//! daemon, and `automod-latency` measures those.
//!
//! The config is the issue's: 500 blocked words, 200 allowed domains, all
//! six filters on, an exempt role and an exempt channel. The mix of messages
//! ([`samples`]) is mostly chat, some with allowed links and mentions, about
//! one in eight caught by a filter and a few exempt.
//!
//! The consumer handles its events one after another in one task, so the
//! product's number is the single-thread one; the run also measures the same
//! work on every core at once (shared config cache, compiled automod and
//! history, as a daemon with several consumers would share them), for
//! what the engine itself would allow.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use modctl_types::Platform;
use modctl_types::config::{SectionName, Sections};
use modctld::automation::automod::act::screen;
use modctld::automation::automod::{Compiled, Duplicates};
use modctld::automation::live::LiveConfig;
use modctld::clock::Clock;
use modctld::events::decode::{discord, slack, telegram};
use modctld::events::{Event, EventKind};
use serde::Serialize;
use serde_json::{Value, json};

/// The servers, one per platform.
pub const DISCORD_GUILD: &str = "910000000000000003";
const SLACK_TEAM: &str = "T0BENCH0AUTO";
const TELEGRAM_CHAT: &str = "-1009100000000004";

/// The role whose members no filter acts on.
pub const EXEMPT_ROLE: &str = "610000000000000009";
/// The channel where no filter acts (Discord; the other platforms get
/// theirs in [`channel_id`]).
const EXEMPT_CHANNEL: usize = 9;
/// Channels the messages are spread over.
const CHANNELS: usize = 10;
/// Members who write the messages.
const AUTHORS: usize = 500;

/// The `automod` section of the benchmark: 500 blocked words
/// (some with `*`), 200 allowed domains, all six filters on, exemptions.
pub fn config(platform: Platform) -> Value {
    let words: Vec<String> = (0..500)
        .map(|i| match i % 10 {
            0 => format!("scam{i}*"),
            _ => format!("blockedword{i}"),
        })
        .collect();
    let allow: Vec<String> = (0..200)
        .map(|i| format!("allowed{i}.example.com"))
        .collect();
    json!({
        "blocked_words": {"enabled": true, "action": "warn", "words": words},
        "invite_links": {"enabled": true, "action": "delete"},
        "links": {"enabled": true, "action": "delete", "allow": allow},
        "mention_spam": {"enabled": true, "action": "timeout", "threshold": 6},
        "caps": {"enabled": true, "action": "delete"},
        "duplicates": {"enabled": true, "action": "warn", "threshold": 3},
        "exempt_role_ids": exempt_roles(platform),
        "exempt_channel_ids": [channel_id(platform, EXEMPT_CHANNEL)],
    })
}

/// The exempt role on `platform` (Slack: a user group; Telegram has no
/// roles). Only Discord's messages carry their author's roles.
fn exempt_roles(platform: Platform) -> Vec<&'static str> {
    match platform {
        Platform::Discord => vec![EXEMPT_ROLE],
        Platform::Slack => vec!["S0BENCHROLE1"],
        _ => Vec::new(),
    }
}

/// Writes [`config`] as server `server`'s automod section, validated for
/// `platform` as `PUT /config` would.
pub fn write_config(
    tx: &modctld::store::Tx<'_>,
    secrets: &modctld::store::Secrets,
    platform: Platform,
    server: &str,
    now: i64,
) -> anyhow::Result<()> {
    let mut sections: Sections = modctld::store::config::load(tx, server)?.sections;
    sections
        .replace_from_json(SectionName::Automod, config(platform))
        .map_err(|e| anyhow::anyhow!("bench automod config: {e}"))?;
    let errors = sections.validate(platform);
    anyhow::ensure!(
        errors.is_empty(),
        "bench automod config is invalid: {errors:?}"
    );
    modctld::config::apply(
        tx,
        secrets,
        modctld::config::Change::by(server, "operator:bench", sections, now),
    )?;
    Ok(())
}

/// Channel `n` of `platform`'s server.
pub fn channel_id(platform: Platform, n: usize) -> String {
    match platform {
        Platform::Slack => format!("C0BENCH{n:04}"),
        // Telegram: forum topics of the group.
        Platform::Telegram => format!("{}", 100 + n),
        _ => format!("72000000000001{n:04}"),
    }
}

/// Member `n`'s user id on `platform`.
pub fn user_id(platform: Platform, n: usize) -> String {
    match platform {
        Platform::Slack => format!("U0BENCH{n:05}"),
        Platform::Telegram => format!("{}", 700_000_000 + n),
        _ => format!("80000000000{n:08}"),
    }
}

/// One message of the mix, before it is a platform's payload.
#[derive(Debug, Clone)]
pub struct Sample {
    /// Its author (an index: [`user_id`]).
    pub author: usize,
    /// Its channel (an index: [`channel_id`]).
    pub channel: usize,
    /// Its text; `{m}` stands for a mention of another member.
    pub text: String,
    /// The author has [`EXEMPT_ROLE`] (Discord, where messages carry roles).
    pub exempt_role: bool,
    /// Whether a filter should catch it (outside an exemption).
    pub caught: bool,
}

/// Chat as members write it.
const CLEAN: &[&str] = &[
    "hey everyone, how is it going today?",
    "lol that was great",
    "I'll be there at 5pm, see you",
    "Does anyone know how to fix this error in my build? The linker says it cannot find the symbol",
    "Ça va très bien, merci ! On se voit demain ?",
    "gg, that last round was close",
    "anyone up for a game tonight? we need two more",
    "brb, dinner",
    "this is fine 👍",
    "I think the patch notes said the cooldown went from 8 to 6 seconds",
    "Good morning! Coffee first, then the raid",
    "has anyone tried the new map yet? the north side is huge",
    "ok",
    "thanks for the help earlier, it works now",
    "Who is streaming this weekend?",
];

/// Chat with links the allow-list allows.
const LINKS: &[&str] = &[
    "check https://allowed7.example.com/page and tell me what you think",
    "the docs are at https://docs.allowed42.example.com/guide#setup",
    "screenshot: https://cdn.allowed150.example.com/img/1234.png",
];

/// Chat with one mention.
const MENTIONS: &[&str] = &["{m} did you see this?", "thanks {m}, that fixed it"];

/// What a filter catches: blocked words (raw, folded, wildcard), an
/// invite, a link outside the allow-list, capitals, mention spam.
const CAUGHT: &[&str] = &[
    "blockedword17 is not allowed here",
    "what a BL0CKEDW0RD23 thing to say",
    "those scam40ers again",
    "join discord.gg/abcdef for free stuff",
    "free skins at https://sketchy-site.example.net/claim",
    "WHY IS NOBODY ANSWERING MY QUESTION",
    "{m} {m} {m} {m} {m} {m} {m} look at this",
];

/// The mix: `n` messages, mostly chat, about one in eight caught, a few
/// exempt (by role and by channel), and now and then a member saying the
/// same thing three times in a row (duplicates).
pub fn samples(n: usize) -> Vec<Sample> {
    let mut out = Vec::with_capacity(n);
    let mut i = 0usize;
    while out.len() < n {
        // The author changes every message; a text is not said twice in a
        // row by one member unless on purpose.
        let author = (i * 7919) % AUTHORS;
        let channel = i % CHANNELS;
        let (text, caught, exempt_role, channel) = match i % 100 {
            0..=9 => (pick(LINKS, i), false, false, channel),
            10..=14 => (pick(MENTIONS, i), false, false, channel),
            15..=26 => (pick(CAUGHT, i), true, false, channel % (CHANNELS - 1)),
            // Caught text, but from an exempt role or in the exempt channel.
            27 => (pick(CAUGHT, i), false, true, channel % (CHANNELS - 1)),
            28 => (pick(CAUGHT, i), false, false, EXEMPT_CHANNEL),
            29 => {
                // Duplicates: one member, the same words three times.
                for k in 0..3 {
                    out.push(Sample {
                        author: AUTHORS + (i / 100) % 50,
                        channel: (channel + k) % (CHANNELS - 1),
                        text: "buy my stuff, link in bio".into(),
                        exempt_role: false,
                        caught: k == 2,
                    });
                }
                i += 1;
                continue;
            }
            _ => (pick(CLEAN, i), false, false, channel),
        };
        out.push(Sample {
            author,
            channel,
            text: text.to_owned(),
            exempt_role,
            caught,
        });
        i += 1;
    }
    out.truncate(n);
    out
}

fn pick<'a>(list: &[&'a str], i: usize) -> &'a str {
    list[(i / 100 + i) % list.len()]
}

/// A Discord gateway frame: `MESSAGE_CREATE` of `sample` as message `seq`,
/// a whole message object as gateway-events.mdx "Message Create" sends it.
pub fn discord_frame(seq: usize, sample: &Sample) -> String {
    let author = user_id(Platform::Discord, sample.author);
    let mentioned: Vec<String> = (0..sample.text.matches("{m}").count())
        .map(|k| user_id(Platform::Discord, (sample.author + 1 + k) % AUTHORS))
        .collect();
    let mut text = sample.text.clone();
    for id in &mentioned {
        text = text.replacen("{m}", &format!("<@{id}>"), 1);
    }
    let mentions: Vec<Value> = mentioned
        .iter()
        .map(|id| json!({"id": id, "username": format!("member{id}"), "discriminator": "0", "global_name": null, "avatar": null, "public_flags": 0}))
        .collect();
    let mut roles = vec!["610000000000000002".to_owned()];
    if sample.exempt_role {
        roles.push(EXEMPT_ROLE.to_owned());
    }
    json!({
        "op": 0, "t": "MESSAGE_CREATE", "s": seq,
        "d": {
            "id": format!("{}", 1_300_000_000_000_000_000u64 + seq as u64),
            "channel_id": channel_id(Platform::Discord, sample.channel),
            "guild_id": DISCORD_GUILD, "type": 0, "content": text, "tts": false,
            "timestamp": "2026-11-27T10:00:00.000000+00:00", "edited_timestamp": null,
            "flags": 0, "pinned": false, "nonce": format!("{}", 900_000 + seq),
            "mention_everyone": false, "mentions": mentions, "mention_roles": [],
            "attachments": [], "embeds": [], "components": [],
            "author": {"id": author, "username": format!("member{}", sample.author), "discriminator": "0",
                       "global_name": format!("Member {}", sample.author), "avatar": "8342729096ea3675442027381ff50dfe",
                       "public_flags": 0, "avatar_decoration_data": null, "clan": null},
            "member": {"roles": roles, "joined_at": "2025-03-01T12:00:00.000000+00:00", "deaf": false,
                       "mute": false, "flags": 0, "premium_since": null, "pending": false, "nick": null,
                       "avatar": null, "communication_disabled_until": null, "banner": null},
        }
    })
    .to_string()
}

/// A Slack Events API request body: an `event_callback` with a `message`
/// event of `sample` (Slack's markup for mentions and links).
pub fn slack_body(n: usize, sample: &Sample) -> Vec<u8> {
    let mut text = sample.text.clone();
    for k in 0..sample.text.matches("{m}").count() {
        let id = user_id(Platform::Slack, (sample.author + 1 + k) % AUTHORS);
        text = text.replacen("{m}", &format!("<@{id}>"), 1);
    }
    // Slack sends links as `<url>` markup.
    let text = text
        .split(' ')
        .map(|w| {
            if w.starts_with("https://") {
                format!("<{w}>")
            } else {
                w.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join(" ");
    let ts = format!("1764237600.{:06}", n % 1_000_000);
    json!({
        "token": "XXYYZZ", "team_id": SLACK_TEAM, "context_team_id": SLACK_TEAM,
        "api_app_id": "A0BENCH0001", "type": "event_callback",
        "event_id": format!("Ev0BENCH{n:08}"), "event_time": 1_764_237_600 + (n / 1000) as i64,
        "event_context": "4-eyJldCI6Im1lc3NhZ2UifQ",
        "authorizations": [{"enterprise_id": null, "team_id": SLACK_TEAM, "user_id": "U0BOT00001", "is_bot": true, "is_enterprise_install": false}],
        "is_ext_shared_channel": false,
        "event": {
            "type": "message", "channel": channel_id(Platform::Slack, sample.channel),
            "user": user_id(Platform::Slack, sample.author), "text": text, "ts": ts,
            "event_ts": ts, "channel_type": "channel", "team": SLACK_TEAM,
            "client_msg_id": format!("5c9d3f52-0000-4000-8000-{n:012}"),
            "blocks": [{"type": "rich_text", "block_id": "b1", "elements": [{"type": "rich_text_section", "elements": [{"type": "text", "text": text}]}]}],
        }
    })
    .to_string()
    .into_bytes()
}

/// A Telegram update (`getUpdates` gives these one by one in its `result`):
/// a `message` of `sample` in the group's forum topic, with its `mention`
/// and `url` entities (offsets in UTF-16 units).
pub fn telegram_update(n: usize, sample: &Sample) -> Vec<u8> {
    let mut text = sample.text.clone();
    for k in 0..sample.text.matches("{m}").count() {
        text = text.replacen(
            "{m}",
            &format!("@member{}", (sample.author + 1 + k) % AUTHORS),
            1,
        );
    }
    let mut entities = Vec::new();
    let mut offset = 0usize;
    for (k, word) in text.split(' ').enumerate() {
        if k > 0 {
            offset += 1;
        }
        let length = word.encode_utf16().count();
        let kind = if word.starts_with('@') {
            Some("mention")
        } else if word.starts_with("https://") || word.starts_with("discord.gg/") {
            Some("url")
        } else {
            None
        };
        if let Some(kind) = kind {
            entities.push(json!({"type": kind, "offset": offset, "length": length}));
        }
        offset += length;
    }
    let user = 700_000_000 + sample.author;
    json!({
        "update_id": 500_000_000 + n,
        "message": {
            "message_id": 10_000 + n, "message_thread_id": 100 + sample.channel, "is_topic_message": true,
            "from": {"id": user, "is_bot": false, "first_name": format!("Member {}", sample.author),
                     "username": format!("member{}", sample.author), "language_code": "en"},
            "chat": {"id": TELEGRAM_CHAT.parse::<i64>().unwrap_or_default(), "title": "Bench group", "type": "supergroup", "is_forum": true},
            "date": 1_764_237_600 + (n / 1000) as i64, "text": text, "entities": entities,
        }
    })
    .to_string()
    .into_bytes()
}

/// What a run found, as the JSON has it.
#[derive(Debug, Clone, Serialize)]
pub struct AutomodReport {
    /// Blocked words and allowed domains in the config.
    pub blocked_words: usize,
    /// Allowed domains.
    pub allowed_domains: usize,
    /// Distinct payloads per platform (cycled through).
    pub distinct_messages: usize,
    /// Of them, how many a filter should catch.
    pub caught_share: f64,
    /// One thread, as the consumer runs (the product's number), per platform.
    pub single_thread: Vec<PlatformRate>,
    /// Discord frames on every core at once.
    pub all_cores: Option<PlatformRate>,
    /// Decoding alone, one thread, per platform (what of the time is
    /// decoding).
    pub decode_only: Vec<PlatformRate>,
}

/// Messages through one platform's path.
#[derive(Debug, Clone, Serialize)]
pub struct PlatformRate {
    /// `discord`, `slack`, `telegram`.
    pub platform: String,
    /// Threads that ran it.
    pub threads: usize,
    /// Messages handled in the window.
    pub messages: u64,
    /// Messages a filter caught.
    pub caught: u64,
    /// The window.
    pub seconds: f64,
    /// messages / seconds (goal: at least 200,000 through decode and filters).
    pub per_second: f64,
}

/// The raw payloads of one platform and how to decode them.
#[derive(Clone, Copy)]
enum Raw<'a> {
    Discord(&'a [String]),
    Slack(&'a [Vec<u8>]),
    Telegram(&'a [Vec<u8>]),
}

impl Raw<'_> {
    fn name(&self) -> &'static str {
        match self {
            Raw::Discord(_) => "discord",
            Raw::Slack(_) => "slack",
            Raw::Telegram(_) => "telegram",
        }
    }

    fn len(&self) -> usize {
        match self {
            Raw::Discord(p) => p.len(),
            Raw::Slack(p) => p.len(),
            Raw::Telegram(p) => p.len(),
        }
    }

    /// Payload `i`'s events, decoded as the transport does; an error is
    /// the bench's (its payloads are valid).
    fn decode(&self, i: usize, clock: &Clock) -> anyhow::Result<Vec<Event>> {
        Ok(match self {
            Raw::Discord(frames) => discord::decode_frame(&frames[i], clock.now(), None)?
                .map(|(_, events)| events)
                .unwrap_or_default(),
            Raw::Slack(bodies) => match slack::decode(&bodies[i])? {
                Some(slack::Request::Event { events, .. }) => events,
                _ => Vec::new(),
            },
            // The chat id is the group's server id here, so the
            // transport's routing has nothing to change.
            Raw::Telegram(updates) => telegram::decode(&updates[i])?.events,
        })
    }
}

/// The daemon's parts the consumer reads per message.
#[derive(Clone)]
struct Parts {
    live: LiveConfig,
    compiled: Arc<Compiled>,
    history: Arc<Duplicates>,
    clock: Clock,
}

impl Parts {
    /// Decodes payload `i` and screens its messages as the consumer does:
    /// how many were caught.
    async fn one(&self, raw: Raw<'_>, i: usize) -> anyhow::Result<u64> {
        let mut caught = 0;
        for event in raw.decode(i, &self.clock)? {
            let (message, edited) = match &event.kind {
                EventKind::MessageCreated(m) => (m, false),
                EventKind::MessageEdited(m) => (m, true),
                _ => continue,
            };
            let screened = screen(
                &self.live,
                &self.compiled,
                &self.history,
                &self.clock,
                &event,
                message,
                edited,
            )
            .await;
            caught += u64::from(screened.is_some());
        }
        Ok(caught)
    }

    /// Cycles through `raw` for `window` on this thread.
    async fn run(&self, raw: Raw<'_>, window: Duration, decode_only: bool) -> anyhow::Result<Rate> {
        let started = Instant::now();
        let (mut messages, mut caught) = (0u64, 0u64);
        let mut i = 0;
        loop {
            for _ in 0..256 {
                if decode_only {
                    std::hint::black_box(raw.decode(i, &self.clock)?);
                } else {
                    caught += self.one(raw, i).await?;
                }
                messages += 1;
                i = (i + 1) % raw.len();
            }
            if started.elapsed() >= window {
                break;
            }
        }
        Ok(Rate {
            messages,
            caught,
            seconds: started.elapsed().as_secs_f64(),
        })
    }
}

struct Rate {
    messages: u64,
    caught: u64,
    seconds: f64,
}

impl Rate {
    fn report(&self, platform: &str, threads: usize) -> PlatformRate {
        PlatformRate {
            platform: platform.to_owned(),
            threads,
            messages: self.messages,
            caught: self.caught,
            seconds: self.seconds,
            per_second: self.messages as f64 / self.seconds.max(1e-9),
        }
    }
}

/// Runs the scenario for `window` per measurement, its database in
/// `run_dir`.
pub async fn run(run_dir: &Path, window: Duration) -> anyhow::Result<AutomodReport> {
    let db = run_dir.join("automod.db");
    let (store, team, _key) = crate::seed::fresh(&db, "automod bench").await?;
    let secrets = store.secrets().clone();
    let now = jiff::Timestamp::now().as_second();
    store
        .write(move |tx| {
            for (platform, id) in [
                (Platform::Discord, DISCORD_GUILD),
                (Platform::Slack, SLACK_TEAM),
                (Platform::Telegram, TELEGRAM_CHAT),
            ] {
                modctld::servers::claim(tx, team, platform, id, "automod bench", now)?;
                write_config(tx, &secrets, platform, id, now)?;
            }
            Ok::<_, anyhow::Error>(())
        })
        .await?;
    let clock = Clock::system();
    let parts = Parts {
        live: LiveConfig::new(store.clone(), clock.clone()),
        compiled: Arc::default(),
        history: Arc::default(),
        clock,
    };
    let mix = samples(1000);
    let caught_share = mix.iter().filter(|s| s.caught).count() as f64 / mix.len() as f64;
    let frames: Vec<String> = mix
        .iter()
        .enumerate()
        .map(|(n, s)| discord_frame(n + 1, s))
        .collect();
    let bodies: Vec<Vec<u8>> = mix
        .iter()
        .enumerate()
        .map(|(n, s)| slack_body(n, s))
        .collect();
    let updates: Vec<Vec<u8>> = mix
        .iter()
        .enumerate()
        .map(|(n, s)| telegram_update(n, s))
        .collect();
    let platforms = [
        Raw::Discord(&frames),
        Raw::Slack(&bodies),
        Raw::Telegram(&updates),
    ];

    // Every payload once first: each decodes, and what is caught is what
    // the mix says (a bench that catches nothing measures nothing).
    for raw in platforms {
        let caught = {
            let mut caught = 0;
            for i in 0..raw.len() {
                caught += parts.one(raw, i).await?;
            }
            caught
        };
        let expected = mix.iter().filter(|s| s.caught).count() as u64;
        anyhow::ensure!(
            caught >= expected * 9 / 10,
            "automod caught {caught} of the {expected} {} messages it should",
            raw.name()
        );
    }

    let mut single_thread = Vec::new();
    let mut decode_only = Vec::new();
    for raw in platforms {
        let rate = parts.run(raw, window, false).await?;
        single_thread.push(rate.report(raw.name(), 1));
        let rate = parts.run(raw, window, true).await?;
        decode_only.push(rate.report(raw.name(), 1));
    }

    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    let all_cores = if threads > 1 {
        let outcomes: Vec<anyhow::Result<Rate>> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads)
                .map(|_| {
                    let parts = parts.clone();
                    let frames = &frames;
                    scope.spawn(move || {
                        let runtime = tokio::runtime::Builder::new_current_thread()
                            .enable_all()
                            .build()?;
                        runtime.block_on(parts.run(Raw::Discord(frames), window, false))
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join()
                        .unwrap_or_else(|_| Err(anyhow::anyhow!("a thread panicked")))
                })
                .collect()
        });
        let mut total = Rate {
            messages: 0,
            caught: 0,
            seconds: 0.0,
        };
        for outcome in outcomes {
            let rate = outcome?;
            total.messages += rate.messages;
            total.caught += rate.caught;
            total.seconds = total.seconds.max(rate.seconds);
        }
        Some(total.report("discord", threads))
    } else {
        None
    };
    Ok(AutomodReport {
        blocked_words: 500,
        allowed_domains: 200,
        distinct_messages: mix.len(),
        caught_share,
        single_thread,
        all_cores,
        decode_only,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mix_is_mostly_clean_with_some_caught_and_some_exempt() {
        let mix = samples(1000);
        assert_eq!(mix.len(), 1000);
        let caught = mix.iter().filter(|s| s.caught).count();
        assert!((100..=180).contains(&caught), "{caught}");
        assert!(mix.iter().any(|s| s.exempt_role));
        assert!(mix.iter().any(|s| s.channel == EXEMPT_CHANNEL));
    }

    #[test]
    fn the_payloads_decode_into_the_messages_of_the_mix() {
        let sample = Sample {
            author: 3,
            channel: 2,
            text: "{m} see https://allowed7.example.com/x".into(),
            exempt_role: true,
            caught: false,
        };
        let clock = Clock::system();
        let frame = [discord_frame(1, &sample)];
        let body = [slack_body(1, &sample)];
        let update = [telegram_update(1, &sample)];
        for raw in [
            Raw::Discord(&frame),
            Raw::Slack(&body),
            Raw::Telegram(&update),
        ] {
            let events = raw.decode(0, &clock).unwrap();
            assert_eq!(events.len(), 1, "{}", raw.name());
            let EventKind::MessageCreated(m) = &events[0].kind else {
                panic!("{:?}", events[0])
            };
            let mentions = m.mentions.user_ids.len() + m.mentions.usernames.len();
            assert_eq!(mentions, 1, "{}: {m:?}", raw.name());
            assert!(
                m.content
                    .as_deref()
                    .unwrap_or_default()
                    .contains("allowed7"),
                "{m:?}"
            );
            if matches!(raw, Raw::Discord(_)) {
                assert!(m.author.role_ids.iter().any(|r| r == EXEMPT_ROLE));
            }
        }
    }
}
