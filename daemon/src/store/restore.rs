//! Restore jobs: the job, its items with their outcomes, and the per-server
//! map of snapshot ids to the live ids restores created them as.
//!
//! The map is written in the same transaction as the outcome of the item
//! that created the id ([`record_item`]), so after a crash either both are
//! there or neither is (and the job then finds the item by name).

use crate::store::Tx;
use std::collections::HashMap;

use crate::store::sql::params;
use modctl_types::restore::{
    ItemOutcome, JobItem, JobState, KindProgress, PlanItem, PlanStep, PlanSummary, RemappedId,
    RestoreJob, RestorePlan,
};
use modctl_types::snapshot::StructureContent;

use modctl_types::config::WebhookEvent;

use super::{StoreError, scalar, timestamp, webhooks};

/// A job to record.
#[derive(Debug)]
pub struct NewJob<'a> {
    /// The server.
    pub server_id: &'a str,
    /// `key:<id>` or `operator`.
    pub actor: &'a str,
    /// Now (unix seconds).
    pub created_at: i64,
    /// The snapshot's content.
    pub content: &'a StructureContent,
    /// The plan made from it.
    pub plan: &'a RestorePlan,
}

/// A job's items as the worker works through them.
#[derive(Debug, Clone)]
pub struct RunItem {
    /// Its place in the job.
    pub seq: i64,
    /// The plan's item.
    pub planned: PlanItem,
    /// What became of it so far.
    pub outcome: ItemOutcome,
    /// Its live id once done.
    pub live_id: Option<String>,
}

/// What the worker needs to run (or resume) a job.
#[derive(Debug, Clone)]
pub struct JobRun {
    /// The job.
    pub id: i64,
    /// The server.
    pub server_id: String,
    /// The snapshot it restores.
    pub snapshot_id: i64,
    /// Who asked for it (`key:<id>` or `operator`).
    pub actor: String,
    /// The snapshot's content.
    pub content: StructureContent,
    /// Every item, in order.
    pub items: Vec<RunItem>,
    /// Whether the created roles were placed.
    pub roles_positioned: bool,
    /// Whether the config was remapped ([`set_config_remapped`]).
    pub config_remapped: bool,
}

fn outcome_name(outcome: ItemOutcome) -> &'static str {
    match outcome {
        ItemOutcome::Pending => "pending",
        ItemOutcome::Done => "done",
        ItemOutcome::Failed => "failed",
        ItemOutcome::Skipped => "skipped",
        _ => "failed",
    }
}

fn outcome_of(name: &str) -> Result<ItemOutcome, StoreError> {
    Ok(match name {
        "pending" => ItemOutcome::Pending,
        "done" => ItemOutcome::Done,
        "failed" => ItemOutcome::Failed,
        "skipped" => ItemOutcome::Skipped,
        other => {
            return Err(StoreError::Corrupt(format!(
                "unknown item outcome `{other}`"
            )));
        }
    })
}

fn state_of(name: &str) -> Result<JobState, StoreError> {
    Ok(match name {
        "queued" => JobState::Queued,
        "running" => JobState::Running,
        "done" => JobState::Done,
        "failed" => JobState::Failed,
        other => return Err(StoreError::Corrupt(format!("unknown job state `{other}`"))),
    })
}

/// Records a queued job with every planned item: present items are done
/// already (with their live id), skipped ones skipped, the rest pending.
pub fn create(tx: &Tx<'_>, new: &NewJob<'_>) -> Result<RestoreJob, StoreError> {
    let summary = new.plan.summary;
    let content = serde_json::to_string(new.content).expect("structures serialize");
    tx.sql
        .prepare(
            "INSERT INTO restore_jobs (server_id, snapshot_id, actor, state, created_at, content, \
         plan_present, plan_create, plan_update, plan_skip) \
         VALUES (?1, ?2, ?3, 'queued', ?4, ?5, ?6, ?7, ?8, ?9)",
        )?
        .execute(params![
            new.server_id,
            new.plan.snapshot_id,
            new.actor,
            new.created_at,
            content,
            summary.present,
            summary.create,
            summary.update,
            summary.skip,
        ])?;
    let id = tx.sql.last_insert_rowid();
    let mut insert = tx.sql.prepare(
        "INSERT INTO restore_job_items (job_id, seq, kind, planned, outcome, live_id, result) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?;
    for (seq, item) in new.plan.items.iter().enumerate() {
        let (outcome, result) = match item.step {
            PlanStep::Present => (ItemOutcome::Done, Some(item.detail.clone())),
            PlanStep::Skip => (ItemOutcome::Skipped, Some(item.detail.clone())),
            _ => (ItemOutcome::Pending, None),
        };
        insert.execute(params![
            id,
            seq as i64,
            item.kind.as_str(),
            serde_json::to_string(item).expect("plan items serialize"),
            outcome_name(outcome),
            item.live_id,
            result,
        ])?;
    }
    get(tx, new.server_id, id)?
        .ok_or_else(|| StoreError::Corrupt(format!("restore job {id} vanished after its insert")))
}

/// The server's queued or running job, if any.
pub fn unfinished_of(tx: &Tx<'_>, server_id: &str) -> Result<Option<i64>, StoreError> {
    tx.sql.opt_row(
        "SELECT id FROM restore_jobs WHERE server_id = ?1 AND state IN ('queued', 'running') \
             ORDER BY id LIMIT 1",
        [server_id],
        scalar,
    )
}

/// Every queued or running job, oldest first.
pub fn unfinished(tx: &Tx<'_>) -> Result<Vec<i64>, StoreError> {
    let mut stmt = tx
        .sql
        .prepare("SELECT id FROM restore_jobs WHERE state IN ('queued', 'running') ORDER BY id")?;
    let rows = stmt.rows([], scalar)?;
    Ok(rows)
}

fn items(tx: &Tx<'_>, job_id: i64) -> Result<Vec<(RunItem, Option<String>)>, StoreError> {
    let mut stmt = tx.sql.prepare(
        "SELECT seq, planned, outcome, live_id, result FROM restore_job_items \
         WHERE job_id = ?1 ORDER BY seq",
    )?;
    let rows = stmt.rows([job_id], |row| {
        Ok((
            row.get::<i64>("seq")?,
            row.get::<String>("planned")?,
            row.get::<String>("outcome")?,
            row.get::<Option<String>>("live_id")?,
            row.get::<Option<String>>("result")?,
        ))
    })?;
    let mut items = Vec::new();
    for (seq, planned, outcome, live_id, result) in rows {
        let planned: PlanItem = serde_json::from_str(&planned).map_err(|e| {
            StoreError::Corrupt(format!(
                "item {seq} of restore job {job_id} cannot be read: {e}"
            ))
        })?;
        let item = RunItem {
            seq,
            planned,
            outcome: outcome_of(&outcome)?,
            live_id,
        };
        items.push((item, result));
    }
    Ok(items)
}

/// Job `id` of the server, as the API answers it; `None` if the server has
/// no such job.
pub fn get(tx: &Tx<'_>, server_id: &str, id: i64) -> Result<Option<RestoreJob>, StoreError> {
    type Row = (
        i64,
        String,
        String,
        Option<String>,
        i64,
        Option<i64>,
        [u32; 4],
        Option<String>,
    );
    let row: Option<Row> = tx.sql.opt_row(
        "SELECT snapshot_id, actor, state, detail, created_at, finished_at, \
             plan_present, plan_create, plan_update, plan_skip, config_remapped \
             FROM restore_jobs WHERE server_id = ?1 AND id = ?2",
        params![server_id, id],
        |row| {
            Ok((
                row.get("snapshot_id")?,
                row.get("actor")?,
                row.get("state")?,
                row.get("detail")?,
                row.get("created_at")?,
                row.get("finished_at")?,
                [
                    row.get("plan_present")?,
                    row.get("plan_create")?,
                    row.get("plan_update")?,
                    row.get("plan_skip")?,
                ],
                row.get("config_remapped")?,
            ))
        },
    )?;
    let Some((snapshot_id, actor, state, detail, created_at, finished_at, counts, remapped)) = row
    else {
        return Ok(None);
    };
    let mut config_remapped: Vec<RemappedId> = match remapped {
        Some(json) => serde_json::from_str(&json).map_err(|e| {
            StoreError::Corrupt(format!("config_remapped of restore job {id}: {e}"))
        })?,
        None => Vec::new(),
    };
    let items: Vec<JobItem> = items(tx, id)?
        .into_iter()
        .map(|(item, result)| {
            let mut planned = item.planned;
            if item.live_id.is_some() {
                planned.live_id = item.live_id;
            }
            JobItem {
                planned,
                outcome: item.outcome,
                result,
            }
        })
        .collect();
    // Names beside ids (issue #27): what each remapped field points at now
    // is the item the job made with that id.
    for remapped in &mut config_remapped {
        remapped.name = items
            .iter()
            .find(|i| i.planned.live_id.as_deref() == Some(remapped.to.as_str()))
            .map(|i| i.planned.name.clone());
    }
    Ok(Some(RestoreJob {
        id,
        server_id: server_id.to_owned(),
        snapshot_id,
        actor,
        state: state_of(&state)?,
        detail,
        created_at: timestamp(created_at),
        finished_at: finished_at.map(timestamp),
        summary: PlanSummary {
            present: counts[0],
            create: counts[1],
            update: counts[2],
            skip: counts[3],
        },
        progress: progress(&items),
        items,
        config_remapped,
    }))
}

/// Done, failed, skipped and remaining items per kind, kinds in the order
/// the job meets them.
pub fn progress(items: &[JobItem]) -> Vec<KindProgress> {
    let mut progress: Vec<KindProgress> = Vec::new();
    for item in items {
        let kind = item.planned.kind;
        let index = match progress.iter().position(|p| p.kind == kind) {
            Some(index) => index,
            None => {
                progress.push(KindProgress {
                    kind,
                    done: 0,
                    failed: 0,
                    skipped: 0,
                    remaining: 0,
                });
                progress.len() - 1
            }
        };
        let entry = &mut progress[index];
        match item.outcome {
            ItemOutcome::Done => entry.done += 1,
            ItemOutcome::Failed => entry.failed += 1,
            ItemOutcome::Skipped => entry.skipped += 1,
            _ => entry.remaining += 1,
        }
    }
    progress
}

/// What the worker needs to run job `id`; `None` if there is no such job.
pub fn load(tx: &Tx<'_>, id: i64) -> Result<Option<JobRun>, StoreError> {
    type Row = (String, i64, String, String, bool, bool);
    let row: Option<Row> = tx.sql.opt_row(
        "SELECT server_id, snapshot_id, actor, content, roles_positioned, \
             config_remapped IS NOT NULL AS remapped \
             FROM restore_jobs WHERE id = ?1",
        [id],
        |row| {
            Ok((
                row.get("server_id")?,
                row.get("snapshot_id")?,
                row.get("actor")?,
                row.get("content")?,
                row.get("roles_positioned")?,
                row.get("remapped")?,
            ))
        },
    )?;
    let Some((server_id, snapshot_id, actor, content, roles_positioned, config_remapped)) = row
    else {
        return Ok(None);
    };
    let content = serde_json::from_str(&content).map_err(|e| {
        StoreError::Corrupt(format!(
            "the content of restore job {id} cannot be read: {e}"
        ))
    })?;
    Ok(Some(JobRun {
        id,
        server_id,
        snapshot_id,
        actor,
        content,
        items: items(tx, id)?.into_iter().map(|(item, _)| item).collect(),
        roles_positioned,
        config_remapped,
    }))
}

/// Sets the job's state; a final state stamps `finished_at` and, given the
/// URL its server's `snapshot_restored` events go to
/// ([`crate::webhooks::wanted`]), writes the event with the job's report, in
/// the same transaction.
pub fn set_state(
    tx: &Tx<'_>,
    id: i64,
    state: JobState,
    detail: Option<&str>,
    webhook_url: Option<&str>,
    now: i64,
) -> Result<(), StoreError> {
    let finished_at = state.is_final().then_some(now);
    let server_id: Option<String> = tx.sql.opt_row(
        "UPDATE restore_jobs SET state = ?2, detail = ?3, finished_at = ?4 WHERE id = ?1
             RETURNING server_id",
        params![id, state.as_str(), detail, finished_at],
        scalar,
    )?;
    if let Some(server_id) = server_id.filter(|_| state.is_final())
        && let Some(url) = webhook_url
    {
        let job = get(tx, &server_id, id)?.ok_or_else(|| {
            StoreError::Corrupt(format!("restore job {id} vanished after finishing"))
        })?;
        webhooks::write(
            tx,
            &server_id,
            WebhookEvent::SnapshotRestored,
            url,
            &job,
            now,
        )?;
    }
    Ok(())
}

/// Records the config fields job `id` remapped (possibly none): the job
/// has done its remapping, and its report lists them.
pub fn set_config_remapped(
    tx: &Tx<'_>,
    id: i64,
    remapped: &[RemappedId],
) -> Result<(), StoreError> {
    let json = serde_json::to_string(remapped).expect("remapped ids serialize");
    tx.sql
        .prepare("UPDATE restore_jobs SET config_remapped = ?2 WHERE id = ?1")?
        .execute(params![id, json])?;
    Ok(())
}

/// Records that the created roles were placed.
pub fn set_roles_positioned(tx: &Tx<'_>, id: i64) -> Result<(), StoreError> {
    tx.sql
        .prepare("UPDATE restore_jobs SET roles_positioned = 1 WHERE id = ?1")?
        .execute([id])?;
    Ok(())
}

/// An item's outcome; `restored` (snapshot id, live id) goes into the
/// server's id map in the same transaction.
#[derive(Debug)]
pub struct Outcome<'a> {
    /// The job.
    pub job_id: i64,
    /// The item.
    pub seq: i64,
    /// What became of it.
    pub outcome: ItemOutcome,
    /// Its live id, if it has one now.
    pub live_id: Option<&'a str>,
    /// What happened, in a sentence.
    pub result: &'a str,
    /// A new entry of the id map: (server, snapshot id, live id).
    pub restored: Option<(&'a str, &'a str, &'a str)>,
}

/// Records one item's outcome (and its id-map entry).
pub fn record_item(tx: &Tx<'_>, outcome: &Outcome<'_>) -> Result<(), StoreError> {
    tx.sql.prepare(
        "UPDATE restore_job_items SET outcome = ?3, live_id = COALESCE(?4, live_id), result = ?5 \
         WHERE job_id = ?1 AND seq = ?2",
    )?
    .execute(params![
        outcome.job_id,
        outcome.seq,
        outcome_name(outcome.outcome),
        outcome.live_id,
        outcome.result
    ])?;
    if let Some((server, snapshot_id, live_id)) = outcome.restored {
        tx.sql.prepare(
            "INSERT INTO restored_ids (server_id, snapshot_id, live_id, job_id) VALUES (?1, ?2, ?3, ?4) \
             ON CONFLICT (server_id, snapshot_id) DO UPDATE SET live_id = excluded.live_id, job_id = excluded.job_id",
        )?
        .execute(params![server, snapshot_id, live_id, outcome.job_id])?;
    }
    Ok(())
}

/// The server's id map: snapshot id -> the live id a restore created it as.
pub fn id_map(tx: &Tx<'_>, server_id: &str) -> Result<HashMap<String, String>, StoreError> {
    let mut stmt = tx
        .sql
        .prepare("SELECT snapshot_id, live_id FROM restored_ids WHERE server_id = ?1")?;
    let rows = stmt.rows([server_id], |row| {
        Ok((row.get("snapshot_id")?, row.get("live_id")?))
    })?;
    Ok(rows.into_iter().collect())
}

/// `server_id`'s newest restore job: its id and state.
pub fn latest_job(tx: &Tx<'_>, server_id: &str) -> Result<Option<(i64, String)>, StoreError> {
    tx.sql.opt_row(
        "SELECT id, state FROM restore_jobs WHERE server_id = ?1 ORDER BY id DESC LIMIT 1",
        [server_id],
        |row| Ok((row.get("id")?, row.get("state")?)),
    )
}

/// How many restore jobs are in each state (`queued`, `running`, `done`,
/// `failed`), for `GET /metrics`; states with none are left out.
pub fn count_by_state(tx: &Tx<'_>) -> Result<Vec<(String, i64)>, StoreError> {
    let mut stmt = tx
        .sql
        .prepare("SELECT state, COUNT(*) AS jobs FROM restore_jobs GROUP BY state")?;
    let rows = stmt.rows([], |row| Ok((row.get("state")?, row.get("jobs")?)))?;
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use modctl_types::restore::{ItemKind, MatchedBy};
    use modctl_types::snapshot::TelegramStructure;
    use modctl_types::{Plan, Platform};

    use super::*;
    use crate::store::{Store, servers, teams};

    const GROUP: &str = "-1001000000001";

    fn planned(kind: ItemKind, id: &str, step: PlanStep) -> PlanItem {
        PlanItem {
            kind,
            snapshot_id: id.to_owned(),
            name: id.to_owned(),
            step,
            matched_by: (step == PlanStep::Present).then_some(MatchedBy::Id),
            live_id: (step == PlanStep::Present).then(|| id.to_owned()),
            detail: format!("{} it", step.as_str()),
        }
    }

    #[tokio::test]
    async fn a_job_keeps_its_items_and_an_outcome_writes_the_id_map_with_it() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().join("db")).await.unwrap();
        store
            .write(|tx| {
                let team = teams::create(tx, "alpha", Plan::Pro, 0)?;
                servers::insert(tx, team.id, Platform::Telegram, GROUP, "a", 0)?;
                let content = StructureContent::Telegram(TelegramStructure {
                    title: "t".into(),
                    description: None,
                    default_permissions: Default::default(),
                    slow_mode_delay: None,
                    administrators: Vec::new(),
                });
                let plan = RestorePlan::new(
                    7,
                    vec![
                        planned(ItemKind::Role, "1", PlanStep::Present),
                        planned(ItemKind::Role, "2", PlanStep::Create),
                        planned(ItemKind::Channel, "3", PlanStep::Create),
                        planned(ItemKind::Channel, "4", PlanStep::Skip),
                    ],
                );
                let job = create(
                    tx,
                    &NewJob {
                        server_id: GROUP,
                        actor: "key:k",
                        created_at: 1,
                        content: &content,
                        plan: &plan,
                    },
                )?;
                assert_eq!(job.state, JobState::Queued);
                assert_eq!(unfinished_of(tx, GROUP)?, Some(job.id));
                let outcomes: Vec<_> = job.items.iter().map(|i| i.outcome).collect();
                assert_eq!(
                    outcomes,
                    [
                        ItemOutcome::Done,
                        ItemOutcome::Pending,
                        ItemOutcome::Pending,
                        ItemOutcome::Skipped
                    ]
                );

                record_item(
                    tx,
                    &Outcome {
                        job_id: job.id,
                        seq: 1,
                        outcome: ItemOutcome::Done,
                        live_id: Some("20"),
                        result: "created as 20",
                        restored: Some((GROUP, "2", "20")),
                    },
                )?;
                assert_eq!(
                    id_map(tx, GROUP)?,
                    HashMap::from([("2".into(), "20".into())])
                );
                let run = load(tx, job.id)?.unwrap();
                assert_eq!(run.items[1].live_id.as_deref(), Some("20"));
                assert_eq!(run.content, content);

                let job = get(tx, GROUP, job.id)?.unwrap();
                let roles = job.progress[0];
                assert_eq!(
                    (roles.kind, roles.done, roles.remaining),
                    (ItemKind::Role, 2, 0)
                );
                let channels = job.progress[1];
                assert_eq!((channels.skipped, channels.remaining), (1, 1));
                assert_eq!(job.items[1].planned.live_id.as_deref(), Some("20"));

                set_state(tx, job.id, JobState::Done, None, None, 9)?;
                assert_eq!(unfinished_of(tx, GROUP)?, None);
                assert_eq!(
                    get(tx, GROUP, job.id)?
                        .unwrap()
                        .finished_at
                        .unwrap()
                        .as_second(),
                    9
                );
                assert!(
                    get(tx, "other", job.id)?.is_none(),
                    "another server's job is not found"
                );
                Ok::<_, StoreError>(())
            })
            .await
            .unwrap();
    }
}
