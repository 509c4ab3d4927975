//! Seeding community activity: the large data set's busiest server gets a
//! year of events (10 million in a full run), written through the daemon's
//! own ingestion ([`modctld::store::activity::ingest`]), the code path of
//! `POST /activity` and the receivers' flush, so the rollups and the
//! remembered event ids are exactly what a year of real traffic leaves.

use modctl_types::Timestamp;
use modctl_types::activity::ActivityKind;
use modctld::activity::ActivityEvent;
use modctld::store::Store;
use modctld::store::activity::ingest;
use modctld::store::days::{DayFinder, server_timezone};
use modctld::store::ranking;

use crate::skew::{Rng, Zipf};

/// Members who post, with a Zipf skew: a few very active ones, a long tail.
const MEMBERS: usize = 20_000;
/// Text and voice channels.
const CHANNELS: usize = 40;
/// Events per write: the most one `POST /activity` takes.
const CHUNK: u64 = 10_000;
/// The events span the year before the data set was seeded.
const SPAN_SECONDS: i64 = 365 * 86_400;

/// Writes `events` events of `server`, oldest first.
pub async fn seed(store: &Store, server: &'static str, events: u64) -> anyhow::Result<()> {
    let members = Zipf::new(MEMBERS, 1.0);
    let channels = Zipf::new(CHANNELS, 1.0);
    let mut rng = Rng::new(0x6163_7469_7669 ^ events);
    let now = jiff::Timestamp::now().as_second();
    let start = now - SPAN_SECONDS;
    let mut written = 0;
    while written < events {
        let n = CHUNK.min(events - written);
        let chunk: Vec<ActivityEvent> = (written..written + n)
            .map(|i| {
                let at = start + (i as i64 * SPAN_SECONDS) / events as i64;
                let kind = match rng.below(100) {
                    0..=89 => ActivityKind::Message,
                    90..=94 => ActivityKind::Voice,
                    95..=97 => ActivityKind::Join,
                    _ => ActivityKind::Leave,
                };
                let talks = matches!(kind, ActivityKind::Message | ActivityKind::Voice);
                ActivityEvent {
                    server_id: server.into(),
                    event_id: Some(format!("seed-{i}")),
                    kind,
                    user_id: format!("5{:017}", members.sample(&mut rng)),
                    channel_id: talks.then(|| format!("7{:017}", channels.sample(&mut rng))),
                    at: Timestamp::from_second(at).expect("a time of this year"),
                    minutes: if kind == ActivityKind::Voice {
                        5 + rng.below(115) as u32
                    } else {
                        0
                    },
                }
            })
            .collect();
        store
            .write(move |tx| {
                let mut days = DayFinder::new(server_timezone(tx, server)?);
                ingest(tx, server, &chunk, &mut days, now)
            })
            .await?;
        written += n;
    }
    // What the daemon's retention worker would have done on each day of the
    // year: the top lists' totals cover their windows ending today (the
    // year's, and the default month's). Left to the daemon, its first tick
    // would subtract eleven months of member rows from the month's totals
    // during the first scenario measured.
    store
        .write(move |tx| {
            ranking::advance(tx, |tx, server| {
                Ok(DayFinder::new(server_timezone(tx, server)?).today(now))
            })
        })
        .await?;
    Ok(())
}
