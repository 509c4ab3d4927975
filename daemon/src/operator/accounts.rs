//! `modctld team ...` and `modctld key ...`: the accounts an operator
//! manages (teams, their plans and rate limits; API keys).

use super::*;
use crate::store::StoreError;

/// The longest team name, in bytes (ASCII only).
const MAX_TEAM_NAME_LEN: usize = 64;

/// The longest key label, in characters.
const MAX_LABEL_LEN: usize = 100;

/// The longest display name of a key, in characters: a person's name, shown
/// in table columns.
const MAX_KEY_NAME_LEN: usize = 64;

/// A key's display name, trimmed: 1 to 64 characters, no control
/// characters (it is printed in tables and log posts), not a key id or
/// `key:`/`system:` (those already name actors in `cases list --actor`).
fn check_key_name(name: &str) -> anyhow::Result<String> {
    let name = name.trim();
    anyhow::ensure!(
        !name.is_empty() && name.chars().count() <= MAX_KEY_NAME_LEN,
        "a key's name must be 1 to {MAX_KEY_NAME_LEN} characters, got {}",
        name.chars().count()
    );
    anyhow::ensure!(
        !name.chars().any(char::is_control),
        "a key's name must not hold control characters (tabs, line breaks)"
    );
    anyhow::ensure!(
        !api_key::is_key_id(name) && !name.starts_with("key:") && !name.starts_with("system:"),
        "`{name}` reads as a key id or an actor: give the person's name, e.g. --name Mia"
    );
    Ok(name.to_owned())
}

/// A team name is 1 to 64 letters, digits, `-`, `_` or `.`: it is typed on
/// command lines and shown in tables.
fn check_team_name(name: &str) -> anyhow::Result<()> {
    let ok = !name.is_empty()
        && name.len() <= MAX_TEAM_NAME_LEN
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'));
    anyhow::ensure!(
        ok,
        "invalid team name `{name}`: use 1 to {MAX_TEAM_NAME_LEN} letters, digits, `-`, `_` or `.`"
    );
    Ok(())
}

/// What went wrong looking up team `name`, with how to create it when it
/// does not exist.
pub(super) fn no_team_hint(name: &str) -> impl FnOnce(StoreError) -> anyhow::Error + '_ {
    move |e| match e {
        StoreError::NotFound(m) => {
            anyhow::anyhow!("{m}: create it with `modctld team create {name}`")
        }
        e => e.into(),
    }
}

pub(super) async fn team(store: Store, command: TeamCommand) -> anyhow::Result<()> {
    match command {
        TeamCommand::Create { name, plan } => {
            check_team_name(&name)?;
            let team = store
                .write(move |tx| teams::create(tx, &name, plan, super::now()))
                .await?;
            eprintln!("created team {} ({} plan)", team.name, team.plan);
        }
        TeamCommand::SetPlan { name, plan } => {
            let team = store
                .write({
                    let name = name.clone();
                    move |tx| teams::set_plan(tx, &name, plan)
                })
                .await
                .map_err(no_team_hint(&name))?;
            eprintln!("team {} is now on the {} plan", team.name, team.plan);
        }
        TeamCommand::SetRateLimit {
            name,
            requests_per_minute: RateSetting(rate),
        } => {
            let team = store
                .write({
                    let name = name.clone();
                    move |tx| teams::set_rate_limit(tx, &name, rate)
                })
                .await
                .map_err(no_team_hint(&name))?;
            match rate {
                Some(n) => eprintln!("keys of team {} may make {n} requests a minute", team.name),
                None => eprintln!(
                    "keys of team {} are back to the {} plan's rate ({} a minute)",
                    team.name,
                    team.plan,
                    crate::plans::of(team.plan).requests_per_minute
                ),
            }
        }
        TeamCommand::SetActivityQuota {
            name,
            events_per_day: QuotaSetting(events),
        } => {
            let team = store
                .write({
                    let name = name.clone();
                    move |tx| teams::set_activity_quota(tx, &name, events)
                })
                .await
                .map_err(no_team_hint(&name))?;
            match events {
                Some(n) => eprintln!(
                    "batches of team {} may count {n} activity events a UTC day",
                    team.name
                ),
                None => eprintln!(
                    "batches of team {} are back to the {} plan's quota ({} events a UTC day)",
                    team.name,
                    team.plan,
                    crate::plans::of(team.plan).activity_events_per_day
                ),
            }
        }
        TeamCommand::List => {
            let rows = store.read(teams::list).await?;
            print_rows(
                &["NAME", "PLAN", "ID"],
                rows.iter()
                    .map(|t| vec![t.name.clone(), t.plan.to_string(), t.id.to_string()]),
            );
        }
    }
    Ok(())
}

pub(super) async fn key(store: Store, command: KeyCommand) -> anyhow::Result<()> {
    match command {
        KeyCommand::Create(args) => {
            let lifetime = args
                .expires
                .map(|span| span.as_secs())
                .or(args.expires_in_days.map(|days| u64::from(days) * 86_400));
            let name = args.name.as_deref().map(check_key_name).transpose()?;
            let created =
                create_named_key(&store, &args.team, args.scopes, args.label, name, lifetime)
                    .await?;
            eprintln!(
                "created key {} for team {} with scopes {}; store it now, it is not shown again",
                created.key_id,
                args.team,
                scope_list(args.scopes)
            );
            println!("{}", created.full);
        }
        KeyCommand::List { team } => {
            let now = super::now();
            let name = team.clone().unwrap_or_default();
            let rows = store
                .read(move |tx| {
                    let team_id = team
                        .map(|name| teams::get_by_name(tx, &name))
                        .transpose()?
                        .map(|t| t.id);
                    keys::list(tx, team_id)
                })
                .await
                .map_err(no_team_hint(&name))?;
            print_rows(
                &[
                    "KEY ID",
                    "TEAM",
                    "SCOPES",
                    "LABEL",
                    "CREATED",
                    "EXPIRES",
                    "LAST USED",
                    "STATUS",
                    "REPLACED BY",
                    "NAME",
                ],
                rows.iter().map(|k| {
                    vec![
                        k.key_id.clone(),
                        k.team_name.clone(),
                        scope_list(k.scope),
                        k.label.clone().unwrap_or_else(|| "-".into()),
                        k.created_at.to_string(),
                        k.expires_at
                            .map_or_else(|| "never".into(), |t| t.to_string()),
                        k.last_used_at
                            .map_or_else(|| "never".into(), |t| t.to_string()),
                        k.status(now).to_string(),
                        k.replaced_by.clone().unwrap_or_else(|| "-".into()),
                        k.name.clone().unwrap_or_else(|| "-".into()),
                    ]
                }),
            );
        }
        KeyCommand::Revoke { key_id } => {
            check_key_id(&key_id)?;
            let id = key_id.clone();
            store
                .write(move |tx| keys::revoke(tx, &id, super::now()))
                .await?;
            eprintln!("revoked key {key_id}");
        }
        KeyCommand::Rotate {
            key_id,
            grace,
            expires,
        } => {
            check_key_id(&key_id)?;
            let replacement = api_key::generate();
            let stored = replacement.clone();
            let id = key_id.clone();
            let now = super::now();
            let grace_until = now.saturating_add_unsigned(grace.as_secs());
            let old = store
                .write(move |tx| {
                    // Unless told, the replacement lasts as long as the old
                    // key was made to.
                    let lifetime = match expires {
                        Some(span) => Some(span.as_secs()),
                        None => keys::get(tx, &id)?.and_then(|old| {
                            let made = old.expires_at?.as_second() - old.created_at.as_second();
                            u64::try_from(made).ok()
                        }),
                    };
                    let expires_at = lifetime.map(|secs| now.saturating_add_unsigned(secs));
                    keys::rotate(tx, &id, stored.hashed(), expires_at, grace_until, now)
                })
                .await?;
            let ends = jiff::Timestamp::from_second(
                grace_until.min(old.expires_at.map_or(i64::MAX, |t| t.as_second())),
            )
            .map_or_else(|_| "never".to_owned(), |t| t.to_string());
            eprintln!(
                "rotated key {key_id} of team {}: its replacement is {} (scopes {}); the old key is accepted until {ends}, then refused with a message naming the replacement. Store the new key now, it is not shown again",
                old.team_name,
                replacement.key_id,
                scope_list(old.scope)
            );
            println!("{}", replacement.full);
        }
        KeyCommand::Rename {
            key_id,
            name,
            clear: _,
        } => {
            check_key_id(&key_id)?;
            let name = name.as_deref().map(check_key_name).transpose()?;
            let (id, new) = (key_id.clone(), name.clone());
            let old = store
                .write(move |tx| keys::rename(tx, &id, new.as_deref()))
                .await?;
            let was = old
                .name
                .map_or_else(|| "no name".to_owned(), |n| format!("`{n}`"));
            match name {
                Some(name) => eprintln!(
                    "key {key_id} is now named `{name}` (was {was}); cases recorded before keep the name they were recorded with"
                ),
                None => eprintln!("key {key_id} has no name now (was {was})"),
            }
        }
        KeyCommand::Enable { key_id } => {
            check_key_id(&key_id)?;
            let id = key_id.clone();
            store.write(move |tx| keys::enable(tx, &id)).await?;
            eprintln!("enabled key {key_id}: it is accepted again from the next request on");
        }
    }
    Ok(())
}

/// Refuses what is not a key id, saying what one is.
fn check_key_id(key_id: &str) -> anyhow::Result<()> {
    if !api_key::is_key_id(key_id) {
        anyhow::bail!("`{key_id}` is not a key id: pass the middle part of mdk_<key_id>_<secret>");
    }
    Ok(())
}

/// Creates a key for `team`; shared by `key create` and the demo.
pub(crate) async fn create_key(
    store: &Store,
    team: &str,
    scope: Scope,
    label: Option<String>,
    lifetime_secs: Option<u64>,
) -> anyhow::Result<api_key::NewKey> {
    create_named_key(store, team, scope, label, None, lifetime_secs).await
}

/// [`create_key`], with the display name of the person using it.
pub(crate) async fn create_named_key(
    store: &Store,
    team: &str,
    scope: Scope,
    label: Option<String>,
    display_name: Option<String>,
    lifetime_secs: Option<u64>,
) -> anyhow::Result<api_key::NewKey> {
    let key = api_key::generate();
    let stored = key.clone();
    let name = team.to_owned();
    let expires_at = lifetime_secs.map(|secs| super::now().saturating_add_unsigned(secs));
    store
        .write(move |tx| {
            let team = teams::get_by_name(tx, &name).map_err(no_team_hint(&name))?;
            // After the team: a missing team is the first thing to fix.
            if let Some(label) = &label {
                anyhow::ensure!(
                    label.chars().count() <= MAX_LABEL_LEN,
                    "label is too long: use at most {MAX_LABEL_LEN} characters"
                );
            }
            keys::insert_named(
                tx,
                stored.hashed(),
                team.id,
                scope,
                keys::Naming {
                    label: label.as_deref(),
                    name: display_name.as_deref(),
                },
                expires_at,
                super::now(),
            )?;
            Ok::<_, anyhow::Error>(())
        })
        .await?;
    Ok(key)
}

fn scope_list(scope: Scope) -> String {
    scope
        .expanded()
        .iter()
        .map(|s| s.as_str())
        .collect::<Vec<_>>()
        .join(",")
}
