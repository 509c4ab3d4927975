//! Community activity rollups: writing events into them, pruning them.
//!
//! [`ingest_batches`] is the one write path, for batches posted to the API
//! (several at a time, see [`crate::activity::batches`]) and for what the
//! platform receivers buffered ([`ingest`]) alike: it drops the events whose id
//! was already counted, aggregates the rest in memory per day, per channel
//! and per member, and upserts each aggregate once. The reads of the
//! community insights are in [`crate::activity::insights`].

use crate::store::Tx;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use modctl_types::Timestamp;

use crate::store::sql::params;
use modctl_types::activity::ActivityKind;
use sha2::{Digest, Sha256};

use super::ranking;
use super::{StoreError, scalar};
use crate::store::days::DayFinder;

/// How long per-member rows and remembered event ids are kept, in days, and
/// how old an event may be to be accepted. 400 covers the longest insights
/// window (365 days) with a month to spare for late imports; older per-day
/// and per-channel totals are kept (a few rows per day).
pub const RETENTION_DAYS: i64 = 400;

/// Seconds in a day, for the UTC day of the event-id table.
const DAY_SECONDS: i64 = 86_400;

/// One thing a member did, counted into the rollups: as a receiver decoded
/// it from a platform (or a batch), or as the demo made it up. Never holds
/// message content. (`crate::activity` gathers them.)
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActivityEvent {
    /// The server (the platform's id, as claimed) the event happened in;
    /// shared, so the events of one batch or update hold one copy of it.
    pub server_id: Arc<str>,
    /// An id that identifies the event at its source (the batch's event id,
    /// the platform's message or update id), so an event received twice is
    /// counted once. `None` when the source has no stable id.
    pub event_id: Option<String>,
    /// What happened.
    pub kind: ActivityKind,
    /// The member, by the platform's user id.
    pub user_id: String,
    /// The channel, for messages and voice.
    pub channel_id: Option<String>,
    /// When it happened (for voice: when the session, or the part of it
    /// being reported, ended).
    pub at: Timestamp,
    /// Voice minutes; 0 for the other kinds.
    pub minutes: u32,
}

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

/// What a batch adds to a member's or a channel's day.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    /// Messages.
    pub messages: i64,
    /// Voice minutes.
    pub voice_minutes: i64,
}

/// The key of event `event_id` of `server_id` in `activity_seen_hashed`,
/// where ids were remembered before migration V16: the first 8 bytes of
/// SHA-256(server, NUL, id). Ids are now remembered as they are (exact, and
/// ids given in order stay together); the hashes are still consulted until
/// they age out.
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
/// # Where the time goes, and why it is written this way
///
/// A 10,000-event batch is a few thousand B-tree writes, and what they cost
/// is mostly the pages they touch: every page a transaction changes is
/// written to the WAL (and later copied into the database), and a page not
/// in the writer's cache is read back first. So:
/// - event ids are remembered by their own text (up to 32 bytes; longer
///   ones by a 16-byte digest), in key order ([`remember_ids`]): ids given
///   in order (snowflakes, sequence numbers, a counter) land on the same few
///   pages, where a hash of each sent every id to a page of its own (a batch
///   rewrote thousands of pages);
/// - each aggregate is written once, in key order, by prepared single-row
///   statements ([`write_members`]);
/// - batches waiting for the writer are counted together
///   ([`ingest_batches`]), so a member's rows are written once for all of
///   them.
///
/// # Which statements may need a statement journal
///
/// Each write runs in a savepoint (see the store's writer), and SQLite
/// keeps a copy of every page the savepoint changes in an in-memory
/// sub-journal. A statement that may have to be undone on its own (one that
/// writes several rows, or has a trigger, which is how SQLite runs
/// `RETURNING`) opens a statement savepoint, and releasing it walks that
/// sub-journal from its start: one such statement per event made a batch
/// quadratic (60% of the writer's time in `sqlite3BtreeSavepoint`). So the
/// statements run per event, member or channel (ids, day rows, running
/// totals) are single-row `INSERT`s, upserts and `UPDATE`s without
/// triggers, which need none.
pub fn ingest(
    tx: &Tx<'_>,
    server_id: &str,
    events: &[ActivityEvent],
    days: &mut DayFinder,
    now: i64,
) -> Result<Ingested, StoreError> {
    let done = ingest_batches(tx, server_id, &[events], days, now)?;
    Ok(done[0])
}

/// Counts `batches` of `server_id`, in order, exactly as [`ingest`] would
/// count each in turn, and returns what each counted; but each member's and
/// channel's rows are written once for all of them. See
/// [`crate::activity::batches`] for why. The batches are read where they
/// are, never copied into one list (issue #22: a write of ten of the
/// largest batches held another 11 MiB that way).
pub fn ingest_batches(
    tx: &Tx<'_>,
    server_id: &str,
    batches: &[&[ActivityEvent]],
    days: &mut DayFinder,
    now: i64,
) -> Result<Vec<Ingested>, StoreError> {
    // Every event, in order, with the batch it belongs to.
    let events = || {
        batches
            .iter()
            .enumerate()
            .flat_map(|(batch, events)| events.iter().map(move |event| (batch, event)))
    };
    let new = remember_ids(tx, server_id, events().map(|(_, event)| event))?;
    let mut receipts = vec![Ingested::default(); batches.len()];
    let mut totals: HashMap<i64, DayTotals> = HashMap::new();
    let mut channels: HashMap<(i64, &str), Counts> = HashMap::new();
    let mut members = MemberDays::new();
    let mut last_event_at: Option<i64> = None;
    for ((batch, event), new) in events().zip(new) {
        let done = &mut receipts[batch];
        if !new {
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

    let new_members = write_members(tx, server_id, &members)?;
    // The top lists' running totals, in the same transaction.
    for members_ranking in [ranking::MEMBERS, ranking::MEMBERS_RECENT] {
        let sums = members
            .iter()
            .map(|(&(day, user), c)| (day, user, c.messages, c.voice_minutes));
        ranking::add_activity(tx, members_ranking, server_id, sums)?;
    }
    let channel_sums = channels
        .iter()
        .map(|(&(day, id), c)| (day, id, c.messages, c.voice_minutes));
    ranking::add_activity(tx, ranking::CHANNELS, server_id, channel_sums)?;
    write_channels(tx, server_id, channels)?;
    // A batch spans a day or two: one statement per day.
    let mut day_row = tx.sql.prepare(
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
        tx.sql
            .prepare(
                "INSERT INTO activity_servers (server_id, last_event_at, last_received_at)
             VALUES (?1, ?2, ?3)
             ON CONFLICT DO UPDATE SET last_event_at = max(last_event_at, excluded.last_event_at),
                 last_received_at = excluded.last_received_at",
            )?
            .execute(params![server_id, last, now])?;
    }
    Ok(receipts)
}

/// Messages and voice minutes per (day, member) of a batch, in key order.
pub type MemberDays<'a> = BTreeMap<(i64, &'a str), Counts>;

/// Remembers the ids of `events` (in `activity_seen`, and long ones by
/// digest in `activity_seen_digests`) and returns, per
/// event, whether it counts: it has no id, or its id was not remembered on
/// its UTC day before (by an earlier batch, or an earlier event of this one:
/// the first event holding an id counts).
///
/// The ids are inserted in key order, one prepared single-row `INSERT OR
/// IGNORE` each with the day and server bound once: consecutive ids go to
/// the same page, where SQLite's cursor already is, and whether a row was
/// inserted (`changes`) says whether the id is new. No statement journal
/// (see [`ingest`]), no JSON to build and parse, no set of the ids inserted.
fn remember_ids<'e>(
    tx: &Tx<'_>,
    server_id: &str,
    events: impl Iterator<Item = &'e ActivityEvent>,
) -> Result<Vec<bool>, StoreError> {
    // Equal ids sort by position: the first event holding an id counts.
    // Long ids sort by their digest, the key they are stored under, so that
    // they too go into their B-tree in key order: in the order they came,
    // 16-byte digests land on random pages, and a batch of 10,000 of them
    // touched as many pages, three times slower and holding the writer's
    // whole page cache dirty (issue #22's memory scenario).
    let mut count = 0;
    let mut short: Vec<(i64, &str, usize)> = Vec::new();
    let mut long: Vec<(i64, [u8; 16], &str, usize)> = Vec::new();
    for (i, e) in events.enumerate() {
        count = i + 1;
        let Some(id) = e.event_id.as_deref() else {
            continue;
        };
        let day = e.at.as_second().div_euclid(DAY_SECONDS);
        if id.len() > MAX_TEXT_ID_BYTES {
            long.push((day, LongIds::digest(id), id, i));
        } else {
            short.push((day, id, i));
        }
    }
    short.sort_unstable();
    long.sort_unstable();
    let mut new = vec![true; count];
    let mut insert = tx.sql.prepare(
        "INSERT OR IGNORE INTO activity_seen (day, server_id, event_id) VALUES (?1, ?2, ?3)",
    )?;
    insert.bind(2, server_id)?;
    let mut hashed = HashedIds {
        tx,
        server_id,
        days: HashMap::new(),
    };
    let mut previous: Option<(i64, &str)> = None;
    for &(day, id, i) in &short {
        if previous == Some((day, id)) {
            new[i] = false; // the same id again, in this batch
            continue;
        }
        previous = Some((day, id));
        // Bound per statement: the day only changes between runs of ids.
        insert.bind(1, day)?;
        insert.bind(3, id)?;
        let first_time = insert.execute_bound()? == 1;
        new[i] = first_time && !hashed.contains(day, id)?;
    }
    let mut remembered = LongIds::new(tx, server_id)?;
    let mut previous: Option<(i64, &str)> = None;
    for &(day, digest, id, i) in &long {
        if previous == Some((day, id)) {
            new[i] = false;
            continue;
        }
        previous = Some((day, id));
        let first_time = remembered.remember(day, &digest, id)?;
        new[i] = first_time && !hashed.contains(day, id)?;
    }
    Ok(new)
}

/// The longest event id remembered as it is; longer ones are remembered by
/// a digest ([`LongIds`]).
pub const MAX_TEXT_ID_BYTES: usize = 32;

/// Event ids longer than [`MAX_TEXT_ID_BYTES`], remembered by the first 16
/// bytes of their SHA-256 in `activity_seen_digests` (migration V21): a
/// 200-byte id costs 16 bytes for its 400 days. Such ids were kept as text
/// before V21; those are still consulted, on the days up to V21's.
struct LongIds<'t> {
    tx: &'t Tx<'t>,
    server_id: &'t str,
    insert: crate::store::sql::Stmt<'t>,
    /// The last day that may hold long ids as text.
    text_until: i64,
}

impl<'t> LongIds<'t> {
    fn new(tx: &'t Tx<'t>, server_id: &'t str) -> Result<Self, StoreError> {
        let mut insert = tx.sql.prepare(
            "INSERT OR IGNORE INTO activity_seen_digests (day, server_id, digest) VALUES (?1, ?2, ?3)",
        )?;
        insert.bind(2, server_id)?;
        let text_until = tx
            .sql
            .opt_row("SELECT day FROM activity_seen_long_text_until", [], scalar)?
            .unwrap_or(-1);
        Ok(LongIds {
            tx,
            server_id,
            insert,
            text_until,
        })
    }

    /// The key `id` is remembered under: the first 16 bytes of its SHA-256.
    fn digest(id: &str) -> [u8; 16] {
        let digest = Sha256::digest(id.as_bytes());
        let mut first = [0u8; 16];
        first.copy_from_slice(&digest[..16]);
        first
    }

    /// Remembers `id` (whose [`LongIds::digest`] is `digest`) on `day`;
    /// whether it was not remembered before.
    fn remember(&mut self, day: i64, digest: &[u8; 16], id: &str) -> Result<bool, StoreError> {
        self.insert.bind(1, day)?;
        self.insert.bind(3, &digest[..])?;
        if self.insert.execute_bound()? == 0 {
            return Ok(false);
        }
        if day > self.text_until {
            return Ok(true);
        }
        let as_text = self.tx.sql.opt_row(
            "SELECT 1 FROM activity_seen WHERE day = ?1 AND server_id = ?2 AND event_id = ?3",
            params![day, self.server_id, id],
            |_| Ok(()),
        )?;
        Ok(as_text.is_none())
    }
}

/// The ids remembered before migration V16 (as hashes, see [`seen_key`]),
/// consulted only on the days that still have some: they age out with the
/// retention window.
struct HashedIds<'t> {
    tx: &'t Tx<'t>,
    server_id: &'t str,
    /// Whether the table has rows on a day, per day asked.
    days: HashMap<i64, bool>,
}

impl HashedIds<'_> {
    fn contains(&mut self, day: i64, id: &str) -> Result<bool, StoreError> {
        let has_day = match self.days.get(&day) {
            Some(has) => *has,
            None => {
                let has = self
                    .tx
                    .sql
                    .opt_row(
                        "SELECT 1 FROM activity_seen_hashed WHERE day = ?1 LIMIT 1",
                        [day],
                        |_| Ok(()),
                    )?
                    .is_some();
                self.days.insert(day, has);
                has
            }
        };
        if !has_day {
            return Ok(false);
        }
        Ok(self
            .tx
            .sql
            .opt_row(
                "SELECT 1 FROM activity_seen_hashed WHERE day = ?1 AND key = ?2",
                params![day, seen_key(self.server_id, id)],
                |_| Ok(()),
            )?
            .is_some())
    }
}

/// Adds `members` to their per-member rows and returns, per day, how many
/// members had no row yet (the day's new active members).
///
/// Most members of a batch already have a row on its day: the `UPDATE`
/// comes first, and a member it found no row for is inserted. Neither an
/// upsert's `RETURNING` (SQLite runs it as a trigger, so the statement gets
/// a statement journal, see [`ingest`]) nor a separate probe is needed.
pub fn write_members(
    tx: &Tx<'_>,
    server_id: &str,
    members: &MemberDays<'_>,
) -> Result<HashMap<i64, i64>, StoreError> {
    let mut update = tx.sql.prepare(
        "UPDATE activity_member_days
         SET messages = messages + ?4, voice_minutes = voice_minutes + ?5
         WHERE server_id = ?1 AND day = ?2 AND user_id = ?3",
    )?;
    let mut insert = tx.sql.prepare(
        "INSERT INTO activity_member_days (server_id, day, user_id, messages, voice_minutes)
         VALUES (?1, ?2, ?3, ?4, ?5)",
    )?;
    // Bound once; each row binds what changes.
    update.bind(1, server_id)?;
    insert.bind(1, server_id)?;
    let mut new_members: HashMap<i64, i64> = HashMap::new();
    let bind = |statement: &mut crate::store::sql::Stmt<'_>, day: i64, user, c: &Counts| {
        statement.bind(2, day)?;
        statement.bind(3, user)?;
        statement.bind(4, c.messages)?;
        statement.bind(5, c.voice_minutes)
    };
    for (&(day, user), c) in members {
        bind(&mut update, day, user, c)?;
        if update.execute_bound()? == 0 {
            bind(&mut insert, day, user, c)?;
            insert.execute_bound()?;
            *new_members.entry(day).or_default() += 1;
        }
    }
    Ok(new_members)
}

/// Adds `channels` to their per-channel rows, in key order.
fn write_channels(
    tx: &Tx<'_>,
    server_id: &str,
    channels: HashMap<(i64, &str), Counts>,
) -> Result<(), StoreError> {
    let mut rows: Vec<_> = channels.into_iter().collect();
    rows.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    let mut upsert = tx.sql.prepare(
        "INSERT INTO activity_channel_days (server_id, day, channel_id, messages, voice_minutes)
         VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT DO UPDATE SET messages = messages + excluded.messages,
             voice_minutes = voice_minutes + excluded.voice_minutes",
    )?;
    for ((day, channel), c) in rows {
        upsert.execute(params![
            server_id,
            day,
            channel,
            c.messages,
            c.voice_minutes
        ])?;
    }
    Ok(())
}

/// Whether `server_id` is a claimed server (activity of others is dropped).
pub fn server_exists(tx: &Tx<'_>, server_id: &str) -> Result<bool, StoreError> {
    Ok(tx
        .sql
        .opt_row("SELECT 1 FROM servers WHERE id = ?1", [server_id], |_| {
            Ok(())
        })?
        .is_some())
}

/// Whether `server_id` is claimed by team `team_id` (a batch posted by the
/// team's key is written only while it is).
pub fn claimed_by(tx: &Tx<'_>, server_id: &str, team_id: i64) -> Result<bool, StoreError> {
    Ok(tx
        .sql
        .opt_row(
            "SELECT 1 FROM servers WHERE id = ?1 AND team_id = ?2",
            params![server_id, team_id],
            |_| Ok(()),
        )?
        .is_some())
}

/// The oldest event time (unix seconds) accepted at `now`.
pub fn oldest_accepted(now: i64) -> i64 {
    now - RETENTION_DAYS * DAY_SECONDS
}

/// Events `team_id`'s batches counted on UTC day `day` (the daily quota,
/// [`crate::plans::check_activity_quota`]).
pub fn quota_used(tx: &Tx<'_>, team_id: i64, day: i64) -> Result<u64, StoreError> {
    let used: Option<i64> = tx.sql.opt_row(
        "SELECT events FROM activity_quota_days WHERE team_id = ?1 AND day = ?2",
        params![team_id, day],
        scalar,
    )?;
    Ok(used.unwrap_or(0).max(0) as u64)
}

/// Adds `events` to what `team_id`'s batches counted on UTC day `day`.
pub fn add_quota_used(tx: &Tx<'_>, team_id: i64, day: i64, events: u64) -> Result<(), StoreError> {
    tx.sql
        .prepare(
            "INSERT INTO activity_quota_days (team_id, day, events) VALUES (?1, ?2, ?3)
         ON CONFLICT (team_id, day) DO UPDATE SET events = events + excluded.events",
        )?
        .execute(params![team_id, day, events as i64])?;
    Ok(())
}

/// The UTC day of unix time `at`, as the quota counts days.
pub fn utc_day(at: i64) -> i64 {
    at.div_euclid(DAY_SECONDS)
}

/// Deletes per-member rows and remembered event ids older than the
/// retention window at `now`; returns how many rows went. Both are ranges
/// of their primary keys (per server and day, and by day). A day of margin
/// keeps every row an accepted event could still add to (a zone's days are
/// never a day off UTC's).
pub fn prune(tx: &Tx<'_>, now: i64) -> Result<usize, StoreError> {
    let cutoff = oldest_accepted(now).div_euclid(DAY_SECONDS) - 1;
    let servers: Vec<String> = tx
        .sql
        .rows("SELECT server_id FROM activity_servers", [], scalar)?;
    let mut deleted = 0;
    let mut members = tx
        .sql
        .prepare("DELETE FROM activity_member_days WHERE server_id = ?1 AND day < ?2")?;
    for server in &servers {
        deleted += members.execute(params![server, cutoff])?;
    }
    for table in [
        "activity_seen",
        "activity_seen_digests",
        "activity_seen_hashed",
    ] {
        deleted += tx
            .sql
            .prepare(&format!("DELETE FROM {table} WHERE day < ?1"))?
            .execute([cutoff])?;
    }
    // Only today's quota is read; yesterday's is kept for a clock that
    // steps back over midnight.
    deleted += tx
        .sql
        .prepare("DELETE FROM activity_quota_days WHERE day < ?1")?
        .execute([utc_day(now) - 1])?;
    Ok(deleted)
}

#[cfg(test)]
mod tests {
    use jiff::tz::TimeZone;
    use modctl_types::{Plan, Platform, Timestamp};

    use super::*;
    use crate::store::{Store, servers, teams};

    const GUILD: &str = "100000000000000001";
    /// 2026-11-22T12:00:00Z.
    const NOON: i64 = 1_795_348_800;

    fn message(id: &str, user: &str, at: i64) -> ActivityEvent {
        ActivityEvent {
            server_id: GUILD.into(),
            event_id: Some(id.into()),
            kind: ActivityKind::Message,
            user_id: user.into(),
            channel_id: Some("c".into()),
            at: Timestamp::from_second(at).unwrap(),
            minutes: 0,
        }
    }

    /// (messages, active members) of `day`.
    fn day_row(tx: &Tx<'_>, day: i64) -> (i64, i64) {
        tx.sql.row(
            "SELECT messages, active_members FROM activity_days WHERE server_id = ?1 AND day = ?2",
            params![GUILD, day],
            |row| Ok((row.get("messages")?, row.get("active_members")?)),
        )
        .unwrap()
    }

    #[tokio::test]
    async fn ids_count_once_whether_remembered_as_text_or_as_a_hash_before_v16() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().join("db")).await.unwrap();
        let day = NOON.div_euclid(DAY_SECONDS);
        store
            .write(move |tx| {
                let team = teams::create(tx, "alpha", Plan::Pro, 0)?;
                servers::insert(tx, team.id, Platform::Discord, GUILD, "a", 0)?;
                // An id counted before migration V16 left only its hash.
                tx.sql.execute(
                    "INSERT INTO activity_seen_hashed (day, key) VALUES (?1, ?2)",
                    params![day, seen_key(GUILD, "old")],
                )?;
                let mut days = DayFinder::new(TimeZone::UTC);
                let first = [
                    message("old", "u1", NOON),
                    message("a", "u1", NOON),
                    message("a", "u2", NOON + 1), // the same id again
                    message("b", "u2", NOON + 2),
                ];
                let done = ingest(tx, GUILD, &first, &mut days, NOON)?;
                assert_eq!((done.counted, done.duplicates), (2, 2));
                assert_eq!(day_row(tx, day), (2, 2), "u1 and u2 are new that day");

                // A retry counts nothing; a new id of a known member adds a
                // message, not an active member; a new member adds both.
                let second = [
                    message("b", "u2", NOON + 2),
                    message("c", "u2", NOON + 3),
                    message("d", "u3", NOON + 4),
                ];
                let done = ingest(tx, GUILD, &second, &mut days, NOON)?;
                assert_eq!((done.counted, done.duplicates), (2, 1));
                assert_eq!(day_row(tx, day), (4, 3));
                let u2: i64 = tx.sql.row(
                    "SELECT messages FROM activity_member_days WHERE user_id = 'u2'",
                    [],
                    scalar,
                )?;
                assert_eq!(u2, 2, "b once, then c");
                Ok::<_, StoreError>(())
            })
            .await
            .unwrap();
    }

    #[tokio::test]
    async fn long_ids_are_remembered_by_a_digest_and_long_ids_kept_as_text_still_count_once() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().join("db")).await.unwrap();
        let day = NOON.div_euclid(DAY_SECONDS);
        let long = |n: u32| format!("{n:0>200}");
        store
            .write(move |tx| {
                let team = teams::create(tx, "alpha", Plan::Pro, 0)?;
                servers::insert(tx, team.id, Platform::Discord, GUILD, "a", 0)?;
                // A long id counted before migration V21 was kept as text,
                // on a day up to V21's.
                tx.sql.execute(
                    "INSERT INTO activity_seen (day, server_id, event_id) VALUES (?1, ?2, ?3)",
                    params![day, GUILD, long(0)],
                )?;
                tx.sql
                    .execute("UPDATE activity_seen_long_text_until SET day = ?1", [day])?;
                let mut days = DayFinder::new(TimeZone::UTC);
                let exactly_32 = "x".repeat(MAX_TEXT_ID_BYTES);
                let batch = [
                    message(&long(0), "u1", NOON),
                    message(&long(1), "u1", NOON),
                    message(&long(1), "u1", NOON + 1), // again, in the batch
                    message(&long(2), "u2", NOON),
                    message(&exactly_32, "u2", NOON),
                ];
                let done = ingest(tx, GUILD, &batch, &mut days, NOON)?;
                assert_eq!((done.counted, done.duplicates), (3, 2));
                let retry = ingest(tx, GUILD, &batch, &mut days, NOON)?;
                assert_eq!((retry.counted, retry.duplicates), (0, 5));

                // The long ids as 16-byte digests (the one from before V21
                // too, once seen again), nothing longer kept as text but that
                // one; the 32-byte id as it is.
                let digests: Vec<usize> = tx.sql.rows(
                    "SELECT length(digest) FROM activity_seen_digests",
                    [],
                    scalar,
                )?;
                assert_eq!(digests, [16, 16, 16]);
                let longest_text: usize = tx.sql.row(
                    "SELECT max(length(event_id)) FROM activity_seen WHERE event_id != ?1",
                    [long(0)],
                    scalar,
                )?;
                assert_eq!(longest_text, MAX_TEXT_ID_BYTES);
                Ok::<_, StoreError>(())
            })
            .await
            .unwrap();
    }
}

/// One day of a server's rollups, as stored: the day's number
/// ([`crate::store::days`]) and its counts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StoredDay {
    /// Days since 1970-01-01 in the server's zone.
    pub day: i64,
    /// Messages counted.
    pub messages: u64,
    /// Distinct members who were active.
    pub active_members: u64,
    /// Minutes spent in voice.
    pub voice_minutes: u64,
    /// Members who joined.
    pub joins: u64,
    /// Members who left.
    pub leaves: u64,
}

/// The days of `server_id` counted between `from` and `to` (day numbers,
/// both included), in no particular order; days without activity are absent.
pub fn days_between(
    tx: &Tx<'_>,
    server_id: &str,
    from: i64,
    to: i64,
) -> Result<Vec<StoredDay>, StoreError> {
    let mut stmt = tx.sql.prepare(
        "SELECT day, messages, active_members, voice_minutes, joins, leaves FROM activity_days
         WHERE server_id = ?1 AND day BETWEEN ?2 AND ?3",
    )?;
    let rows = stmt.rows(params![server_id, from, to], |row| {
        let get = |name| row.get::<i64>(name).map(|n| n.max(0) as u64);
        Ok(StoredDay {
            day: row.get("day")?,
            messages: get("messages")?,
            active_members: get("active_members")?,
            voice_minutes: get("voice_minutes")?,
            joins: get("joins")?,
            leaves: get("leaves")?,
        })
    })?;
    Ok(rows)
}

/// When `server_id`'s latest event happened and when it was received
/// (unix seconds); `None` before its first event.
pub fn last_event(tx: &Tx<'_>, server_id: &str) -> Result<Option<(i64, i64)>, StoreError> {
    tx.sql.opt_row(
        "SELECT last_event_at, last_received_at FROM activity_servers WHERE server_id = ?1",
        [server_id],
        |row| Ok((row.get("last_event_at")?, row.get("last_received_at")?)),
    )
}
