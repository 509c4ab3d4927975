//! `modctld simulate join SERVER USER [--name NAME]`: a member joins a
//! simulated server, and `welcome` greets them (issue #26).
//!
//! Like `simulate message` ([`super::simulate_message`]), it does what the
//! daemon does with such a join, with the daemon's own code on the same
//! database, in this process: the member is added to the simulated
//! community (`sim_members`, without roles), and the join the simulator
//! stands for is handed to the welcome consumer
//! ([`crate::automation::welcome`]), which greets them (posted to the
//! simulator: `simulate posts` shows it) and gives them
//! `welcome.auto_role_ids`. It prints what the bot posted for the join and
//! the roles the member holds after it. What differs from the daemon: the
//! memory of whom it greeted lately is this process's, so each command
//! greets.

use anyhow::Context as _;

use super::print_rows;
use super::simulate_posts::{place, shown};
use crate::AppState;
use crate::events::{Consumer, Event, EventKind, MemberRef, Membership};
use crate::store::connections::{self, ConnectionMode};
use crate::store::{Store, StoreError, servers, simulator as sim};

/// What a join made: the posts and the member's roles after it.
#[derive(Debug)]
pub struct Joined {
    /// The messages the bot posted for it, oldest first.
    pub posted: Vec<super::simulate_posts::ShownMessage>,
    /// The member's roles (Slack: user groups) after it.
    pub roles: Vec<String>,
}

/// `modctld simulate join`: prints one row per post (message, where, the
/// post on one line), then the member's roles.
pub(super) async fn join(
    store: Store,
    server_id: String,
    user: String,
    name: Option<String>,
) -> anyhow::Result<()> {
    let state = AppState::new(store.clone());
    let event = enter(&store, state.clock.now(), &server_id, &user, name).await?;
    let joined = welcome(&state, event).await?;
    if joined.posted.is_empty() {
        eprintln!(
            "{user} joined simulated server {server_id}; nobody greeted them: welcome is off \
             (`modctl config set {server_id} welcome.enabled true`, with welcome.channel_id)"
        );
    } else {
        print_rows(
            &["MESSAGE", "WHERE", "POST"],
            joined.posted.iter().flat_map(|m| {
                m.posts.iter().map(move |post| {
                    vec![
                        m.message_id.to_string(),
                        place(m),
                        post.one_line(usize::MAX),
                    ]
                })
            }),
        );
    }
    let roles = if joined.roles.is_empty() {
        "none".to_owned()
    } else {
        joined.roles.join(", ")
    };
    eprintln!("{user} joined simulated server {server_id}; their roles now: {roles}");
    Ok(())
}

/// Adds `user` (shown as `name`, else `user-USER`) to simulated server
/// `server_id` at `now` and answers the join the simulator stands for
/// (what a gateway would hand over): for `simulate join` and the demo's
/// trickle. Refused for a member already there or a banned user, as the
/// platforms would refuse them.
pub async fn enter(
    store: &Store,
    now: modctl_types::Timestamp,
    server_id: &str,
    user: &str,
    name: Option<String>,
) -> anyhow::Result<Event> {
    let (id, secrets, member) = (
        server_id.to_owned(),
        store.secrets().clone(),
        user.to_owned(),
    );
    let shown_name = name.clone().unwrap_or_else(|| format!("user-{user}"));
    let platform = store
        .write(move |tx| {
            let record = servers::find(tx, &id)?.ok_or_else(|| {
                StoreError::NotFound(format!(
                    "server `{id}` is not claimed: claim it with `modctld server claim`"
                ))
            })?;
            if !matches!(
                connections::get(tx, &secrets, &id)?.map(|c| c.mode),
                Some(ConnectionMode::Simulated)
            ) {
                return Err(StoreError::Invalid(format!(
                    "server {id} is not connected to the simulator: simulate join only adds \
                     members to simulated servers (`modctld server connect {id} --simulated`)"
                )));
            }
            if sim::is_banned(tx, &id, &member)? {
                return Err(StoreError::Invalid(format!(
                    "user {member} is banned from simulated server {id}: unban them first \
                     (`modctl action unban {id} {member}`)"
                )));
            }
            if !sim::add_member(tx, &id, &member, &shown_name)? {
                return Err(StoreError::Invalid(format!(
                    "user {member} is already a member of simulated server {id}: \
                     give another user id"
                )));
            }
            Ok(record.server.platform)
        })
        .await?;
    Ok(Event {
        platform,
        server_id: server_id.into(),
        at: now,
        id: Some(format!("sim:join:{user}:{}", now.as_second())),
        kind: EventKind::MemberJoined(Membership {
            member: MemberRef {
                id: user.to_owned(),
                is_bot: false,
                display_name: name,
            },
            channel_id: None,
            pending: false,
        }),
    })
}

/// Hands `event` (a join) to the welcome consumer of `state` and answers
/// what it posted and the member's roles after it.
async fn welcome(state: &AppState, event: Event) -> anyhow::Result<Joined> {
    let server = event.server_id.to_string();
    let user = match &event.kind {
        EventKind::MemberJoined(m) => m.member.id.clone(),
        _ => unreachable!("enter makes a join"),
    };
    let before = state
        .store
        .read(sim::latest_message_id)
        .await
        .context("reading the simulator's posts")?;
    state.welcome.bind(state.welcoming());
    state.welcome.handle(event.clone()).await;
    // Verification too: a pending one, and its prompt (`simulate verify`
    // answers it).
    state.verifying().handle_now(event).await;
    // The consumer acts in a task of its own (in-flight work): done once
    // the tracker, closed, is empty.
    state.in_flight.close();
    state.in_flight.wait().await;
    let (id, member) = (server.clone(), user.clone());
    let (posted, roles) = state
        .store
        .read(move |tx| {
            let posted = sim::posts_after(tx, before, 100)?
                .into_iter()
                .filter(|p| p.server_id == id)
                .map(shown)
                .collect::<Result<Vec<_>, StoreError>>()?;
            let roles = sim::member_roles(tx, &id, &member)?.unwrap_or_default();
            Ok::<_, StoreError>((posted, roles))
        })
        .await?;
    Ok(Joined { posted, roles })
}
