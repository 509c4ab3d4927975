//! Community activity rollups: writing events into them, pruning them.
//!
//! [`ingest`] is the one write path, for batches posted to the API and for
//! what the platform receivers buffered alike: it drops the events whose id
//! was already counted, aggregates the rest in memory per day, per channel
//! and per member, and upserts each aggregate once. The reads of the
//! community insights are in [`crate::activity::insights`].

use std::collections::{HashMap, HashSet};

use modctl_types::activity::ActivityKind;
use rusqlite::{OptionalExtension, Transaction, params};
use sha2::{Digest, Sha256};

use super::StoreError;
use super::ranking::{self, Rollup};
use crate::activity::ActivityEvent;
use crate::activity::days::DayFinder;

/// How long per-member rows and remembered event ids are kept, in days, and
/// how old an event may be to be accepted. 400 covers the longest insights
/// window (365 days) with a month to spare for late imports; older per-day
/// and per-channel totals are kept (a few rows per day).
pub const RETENTION_DAYS: i64 = 400;

/// Seconds in a day, for the UTC day of the event-id table.
const DAY_SECONDS: i64 = 86_400;

/// What [`ingest`] did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Ingested {
    /// Events counted.
    pub counted: usize,
    /// Events skipped because their id was already counted.
    pub duplicates: usize,
}

#[derive(Debug, Default, Clone, Copy)]
struct DayTotals {
    messages: i64,
    voice_minutes: i64,
    joins: i64,
    leaves: i64,
}

#[derive(Debug, Default, Clone, Copy)]
struct Counts {
    messages: i64,
    voice_minutes: i64,
}

/// The key of event `event_id` of `server_id` in `activity_seen`: the first
/// 8 bytes of SHA-256(server, NUL, id). A keyed digest of both, so ids of
/// two servers never share a key and nobody can pick ids that collide with
/// another's (a collision would drop an event); 64 bits make an accidental
/// one negligible (about 3 in a million over ten million ids).
pub fn seen_key(server_id: &str, event_id: &str) -> i64 {
    let mut hash = Sha256::new();
    hash.update(server_id.as_bytes());
    hash.update([0]);
    hash.update(event_id.as_bytes());
    let digest = hash.finalize();
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    i64::from_le_bytes(first)
}

/// Counts `events` of `server_id` into the rollups, in the server's time
/// zone (`days`), at `now` (unix seconds). The caller validated them.
///
/// # Why a handful of statements, whatever the batch size
///
/// Each write runs in a savepoint (see the store's writer), and SQLite
/// keeps a copy of every page the savepoint changes in an in-memory
/// sub-journal; every statement that may need undoing on its own opens and
/// releases a statement savepoint, and releasing one walks that sub-journal.
/// One statement per event made a 10,000-event batch quadratic (90% of the
/// writer's time in `sqlite3BtreeSavepoint`). So the ids, the member rows
/// and the channel rows are each written by one statement over a JSON array
/// (`json_each`), and which ids and members are new is read back in sets.
pub fn ingest(
    tx: &Transaction<'_>,
    server_id: &str,
    events: &[ActivityEvent],
    days: &mut DayFinder,
    now: i64,
) -> Result<Ingested, StoreError> {
    let mut done = Ingested::default();
    // Remember every id at once; the keys SQLite inserted are the new ones.
    let keys: Vec<Option<i64>> = events
        .iter()
        .map(|e| e.event_id.as_deref().map(|id| seen_key(server_id, id)))
        .collect();
    let rows: Vec<(i64, i64)> = keys
        .iter()
        .zip(events)
        .filter_map(|(key, e)| key.map(|k| (k, e.at.as_second().div_euclid(DAY_SECONDS))))
        .collect();
    let mut new_keys: HashSet<(i64, i64)> = HashSet::with_capacity(rows.len());
    if !rows.is_empty() {
        let mut stmt = tx.prepare_cached(
            "INSERT OR IGNORE INTO activity_seen (key, day)
             SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?1)
             RETURNING key, day",
        )?;
        let mut inserted = stmt.query([json(&rows)])?;
        while let Some(row) = inserted.next()? {
            new_keys.insert((row.get(0)?, row.get(1)?));
        }
    }

    let mut totals: HashMap<i64, DayTotals> = HashMap::new();
    let mut channels: HashMap<(i64, &str), Counts> = HashMap::new();
    let mut members: HashMap<(i64, &str), Counts> = HashMap::new();
    let mut last_event_at: Option<i64> = None;
    for (event, key) in events.iter().zip(&keys) {
        // An id counts once: a key SQLite did not insert was known, and a
        // key it did insert counts for the first event holding it only.
        if let Some(key) = key
            && !new_keys.remove(&(*key, event.at.as_second().div_euclid(DAY_SECONDS)))
        {
            done.duplicates += 1;
            continue;
        }
        let at = event.at.as_second();
        done.counted += 1;
        last_event_at = last_event_at.max(Some(at));
        let day = days.day(at);
        let total = totals.entry(day).or_default();
        let (messages, minutes) = match event.kind {
            ActivityKind::Message => (1, 0),
            ActivityKind::Voice => (0, i64::from(event.minutes)),
            ActivityKind::Join => {
                total.joins += 1;
                continue;
            }
            ActivityKind::Leave => {
                total.leaves += 1;
                continue;
            }
            // A kind added later has no rollup yet: remembered, not counted.
            _ => continue,
        };
        if messages == 0 && minutes == 0 {
            continue; // a 0-minute voice event: nothing to count
        }
        total.messages += messages;
        total.voice_minutes += minutes;
        if let Some(channel) = &event.channel_id {
            let c = channels.entry((day, channel)).or_default();
            c.messages += messages;
            c.voice_minutes += minutes;
        }
        let m = members.entry((day, &event.user_id)).or_default();
        m.messages += messages;
        m.voice_minutes += minutes;
    }

    // Members active on a day count once: those without a row yet are new.
    let member_rows: Vec<(i64, &str, i64, i64)> = members
        .iter()
        .map(|((day, user), c)| (*day, *user, c.messages, c.voice_minutes))
        .collect();
    let mut new_members: HashMap<i64, i64> = HashMap::new();
    if !member_rows.is_empty() {
        let member_json = json(&member_rows);
        for (day, _, _, _) in &member_rows {
            *new_members.entry(*day).or_default() += 1;
        }
        let mut existing = tx.prepare_cached(
            // CROSS JOIN keeps json_each outside: one primary-key probe per member.
            "SELECT m.day FROM json_each(?2) AS j CROSS JOIN activity_member_days AS m
             WHERE m.server_id = ?1 AND m.day = json_extract(j.value, '$[0]')
                 AND m.user_id = json_extract(j.value, '$[1]')",
        )?;
        let mut found = existing.query(params![server_id, member_json])?;
        while let Some(row) = found.next()? {
            *new_members.entry(row.get(0)?).or_default() -= 1;
        }
        drop(found);
        tx.prepare_cached(
            "INSERT INTO activity_member_days (server_id, day, user_id, messages, voice_minutes)
             SELECT ?1, json_extract(value, '$[0]'), json_extract(value, '$[1]'),
                    json_extract(value, '$[2]'), json_extract(value, '$[3]')
             FROM json_each(?2) WHERE true
             ON CONFLICT DO UPDATE SET messages = messages + excluded.messages,
                 voice_minutes = voice_minutes + excluded.voice_minutes",
        )?
        .execute(params![server_id, member_json])?;
    }
    let from_day = ranking::window_start(tx, server_id, Rollup::Activity)?;
    let member_sums = members
        .iter()
        .map(|(&(day, user), c)| (day, user, c.messages, c.voice_minutes));
    ranking::add_activity(tx, ranking::MEMBERS, server_id, from_day, member_sums)?;
    let channel_sums = channels
        .iter()
        .map(|(&(day, id), c)| (day, id, c.messages, c.voice_minutes));
    ranking::add_activity(tx, ranking::CHANNELS, server_id, from_day, channel_sums)?;
    if !channels.is_empty() {
        let channel_rows: Vec<(i64, &str, i64, i64)> = channels
            .iter()
            .map(|((day, id), c)| (*day, *id, c.messages, c.voice_minutes))
            .collect();
        tx.prepare_cached(
            "INSERT INTO activity_channel_days (server_id, day, channel_id, messages, voice_minutes)
             SELECT ?1, json_extract(value, '$[0]'), json_extract(value, '$[1]'),
                    json_extract(value, '$[2]'), json_extract(value, '$[3]')
             FROM json_each(?2) WHERE true
             ON CONFLICT DO UPDATE SET messages = messages + excluded.messages,
                 voice_minutes = voice_minutes + excluded.voice_minutes",
        )?
        .execute(params![server_id, json(&channel_rows)])?;
    }
    // A batch spans a day or two: one statement per day.
    let mut day_row = tx.prepare_cached(
        "INSERT INTO activity_days (server_id, day, messages, active_members, voice_minutes, joins, leaves)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
         ON CONFLICT DO UPDATE SET messages = messages + excluded.messages,
             active_members = active_members + excluded.active_members,
             voice_minutes = voice_minutes + excluded.voice_minutes,
             joins = joins + excluded.joins, leaves = leaves + excluded.leaves",
    )?;
    for (day, t) in &totals {
        let active = new_members.get(day).copied().unwrap_or(0);
        day_row.execute(params![
            server_id,
            day,
            t.messages,
            active,
            t.voice_minutes,
            t.joins,
            t.leaves
        ])?;
    }
    if let Some(last) = last_event_at {
        tx.prepare_cached(
            "INSERT INTO activity_servers (server_id, last_event_at, last_received_at)
             VALUES (?1, ?2, ?3)
             ON CONFLICT DO UPDATE SET last_event_at = max(last_event_at, excluded.last_event_at),
                 last_received_at = excluded.last_received_at",
        )?
        .execute(params![server_id, last, now])?;
    }
    Ok(done)
}

/// `rows` as a JSON array of arrays, for `json_each`.
fn json<T: serde::Serialize>(rows: &T) -> String {
    serde_json::to_string(rows).expect("numbers and strings serialize")
}

/// Whether `server_id` is a claimed server (activity of others is dropped).
pub fn server_exists(tx: &Transaction<'_>, server_id: &str) -> Result<bool, StoreError> {
    Ok(tx
        .prepare_cached("SELECT 1 FROM servers WHERE id = ?1")?
        .query_row([server_id], |_| Ok(()))
        .optional()?
        .is_some())
}

/// The oldest event time (unix seconds) accepted at `now`.
pub fn oldest_accepted(now: i64) -> i64 {
    now - RETENTION_DAYS * DAY_SECONDS
}

/// Deletes per-member rows and remembered event ids older than the
/// retention window at `now`; returns how many rows went. Both are ranges
/// of their primary keys (per server and day, and by day). A day of margin
/// keeps every row an accepted event could still add to (a zone's days are
/// never a day off UTC's).
pub fn prune(tx: &Transaction<'_>, now: i64) -> Result<usize, StoreError> {
    let cutoff = oldest_accepted(now).div_euclid(DAY_SECONDS) - 1;
    let servers: Vec<String> = tx
        .prepare_cached("SELECT server_id FROM activity_servers")?
        .query_map([], |row| row.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    let mut deleted = 0;
    let mut members =
        tx.prepare_cached("DELETE FROM activity_member_days WHERE server_id = ?1 AND day < ?2")?;
    for server in &servers {
        deleted += members.execute(params![server, cutoff])?;
    }
    deleted += tx
        .prepare_cached("DELETE FROM activity_seen WHERE day < ?1")?
        .execute([cutoff])?;
    Ok(deleted)
}
