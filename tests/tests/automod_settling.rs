//! Automod acting carried to its end once (issue #25, review): native
//! executions credited through the daemon's own synced rule ids (hand-made
//! rules ignored), a replayed execution making one hit, a message caught
//! twice at once acted on once, hits a stopped daemon left finished at the
//! next start, a case given up suppressing no later case, and the bound on
//! messages acted on at once.

use std::time::Duration;

use modctl_e2e::fakes::discord::OWNER;
use modctl_e2e::fakes::telegram::FakeTelegram;
use modctl_e2e::{ALPHA_DISCORD, NETWORK_DEADLINE, eventually};
use modctl_types::automod::{AutomodHitRecord, EnforcedBy, FilterName, HitOutcome};
use modctl_types::config::{FilterAction, SectionName};
use modctl_types::moderation::Action;
use modctld::automation::automod::act::MAX_ACTING;
use modctld::automation::native::{INVITE_PATTERNS, Placement};
use modctld::store::automod_hits::{self, NewHit};
use serde_json::json;

use crate::automod_act::{
    AUTOMOD_LOG, Discord, GENERAL, MEMBER, automod_cases, discord, hits, settled_hits, telegram,
};

/// The id of the daemon's rule for `filter`, once the native sync has
/// recorded it (the test's config writes go to the store directly, so the
/// sync is driven here rather than waited for).
pub(crate) fn synced_rule(d: &Discord, filter: FilterName) -> String {
    let daemon = &d.fixture.daemon;
    let found = || {
        daemon
            .block_on(modctld::workers::native_rules(daemon.state()))
            .expect("the native sync");
        let last = daemon
            .block_on(
                daemon
                    .store()
                    .read(|tx| modctld::store::native_rules::last(tx, ALPHA_DISCORD)),
            )
            .expect("the last sync");
        let (report, _) = modctld::automation::native::sync::read_report(last.as_ref())?;
        report.filters.into_iter().find_map(|f| match f.placement {
            Placement::Native { rule_id: Some(id) } if f.filter == filter => Some(id),
            _ => None,
        })
    };
    eventually(&format!("the {filter} rule to be synced"), || {
        found().is_some()
    });
    found().expect("synced")
}

/// Blocked words and invite links on, both `delete`, the automod log set.
fn words_and_invites(d: &Discord) {
    d.fixture.daemon.set_config(
        ALPHA_DISCORD,
        SectionName::Automod,
        json!({
            "blocked_words": {"enabled": true, "words": ["badword"], "action": "delete"},
            "invite_links": {"enabled": true, "action": "delete"},
        }),
    );
    d.log_automod();
}

/// The entries posted to the automod log so far.
fn logged(d: &Discord) -> usize {
    // The daemon's own delivery may hold the channel (a run at a time), so
    // this one may post nothing: once no entry waits in the outbox, every
    // entry written so far is posted.
    eventually("the log entries to be posted", || {
        d.fixture.daemon.deliver_logs();
        let waiting: i64 = d.fixture.daemon.sql(|c| {
            c.query_row(
                "SELECT COUNT(*) FROM log_outbox WHERE channel_id = ?1 AND state = 'waiting'",
                [AUTOMOD_LOG],
                |r| r.get(0),
            )
        });
        waiting == 0
    });
    d.discord
        .posted(AUTOMOD_LOG)
        .iter()
        .map(|p| p.body["embeds"].as_array().map_or(0, Vec::len))
        .sum()
}

/// An execution is credited to the filter its rule was synced for, never
/// guessed from what matched: the invite rule's regex pattern is an invite,
/// and a rule made by hand in Discord is not the daemon's at all.
#[test]
fn native_executions_are_credited_by_the_daemons_own_rule_ids() {
    let d = discord("delete");
    words_and_invites(&d);
    let invites = synced_rule(&d, FilterName::InviteLinks);
    let hand = d
        .discord
        .seed_rule(
            OWNER,
            json!({"name": "no crypto", "event_type": 1, "trigger_type": 1,
                   "trigger_metadata": {"keyword_filter": ["crypto"]},
                   "actions": [{"type": 1}], "enabled": true}),
        )
        .expect("a hand-made rule");
    // Without the message-content intent Discord sends no content: what
    // matched is only the rule's keyword or pattern.
    d.gateway.automod_execution(
        ALPHA_DISCORD,
        &hand,
        1,
        MEMBER,
        GENERAL,
        "",
        Some("crypto"),
        "",
    );
    d.gateway.automod_execution(
        ALPHA_DISCORD,
        &invites,
        1,
        MEMBER,
        GENERAL,
        "",
        Some(INVITE_PATTERNS[0]),
        "",
    );
    let found = settled_hits(&d.fixture, ALPHA_DISCORD, 1);
    assert_eq!(
        (found[0].filter, found[0].enforced_by),
        (FilterName::InviteLinks, EnforcedBy::Native)
    );
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(
        hits(&d.fixture, ALPHA_DISCORD).len(),
        1,
        "the hand-made rule's execution made no hit"
    );
}

/// A blocked message has no id, and without the message-content intent its
/// execution says nothing of what was written: two messages a member had
/// blocked in one channel are two hits all the same (their dispatches
/// differ), while the same dispatch delivered again (its session and `s`:
/// a resumed session's replay) is the one hit, logged once.
#[test]
fn native_executions_are_told_apart_by_their_dispatch() {
    let d = discord("warn");
    words_and_invites(&d);
    let rule = synced_rule(&d, FilterName::BlockedWords);
    // As Discord sends it without MESSAGE_CONTENT: no content, nothing of
    // what matched but the keyword.
    let execute = || {
        d.gateway.automod_execution(
            ALPHA_DISCORD,
            &rule,
            1,
            MEMBER,
            GENERAL,
            "",
            Some("badword"),
            "",
        );
    };
    execute();
    settled_hits(&d.fixture, ALPHA_DISCORD, 1);
    d.fixture.daemon.clock().advance(Duration::from_secs(5));
    execute();
    settled_hits(&d.fixture, ALPHA_DISCORD, 2);
    // The second dispatch again, later, as a resume from before it
    // replays it.
    d.fixture.daemon.clock().advance(Duration::from_secs(5));
    d.gateway.send_last_again();
    // A third, new execution after it (the sentinel): the gateway delivers
    // in order and automod handles in order, so once the sentinel's hit is
    // settled the replay was handled; then whatever it started has ended.
    d.fixture.daemon.clock().advance(Duration::from_secs(5));
    execute();
    settled_hits(&d.fixture, ALPHA_DISCORD, 3);
    d.fixture.daemon.events_handled();
    let found = hits(&d.fixture, ALPHA_DISCORD);
    assert_eq!(found.len(), 3, "the replay is no hit: {found:#?}");
    assert_eq!(logged(&d), 3);
}

/// A message caught when sent and again by its edit (an unfurl's
/// MESSAGE_UPDATE while the first delivery still deletes) is claimed by the
/// first: one delete request, one log entry.
#[test]
fn a_message_caught_twice_at_once_is_deleted_and_logged_once() {
    let d = discord("delete");
    words_and_invites(&d);
    let id = d.discord.seed_message(GENERAL, MEMBER, "a badword");
    let path = format!("/channels/{GENERAL}/messages/{id}");
    let gate = d.discord.hold("DELETE", &path);
    d.redeliver(GENERAL, &id, "a badword");
    d.gateway
        .message_update(ALPHA_DISCORD, GENERAL, &id, MEMBER, "a badword, unfurled");
    assert!(gate.wait_arrived(NETWORK_DEADLINE), "the first delete");
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(
        gate.arrivals(),
        1,
        "the edit's delivery does not delete too"
    );
    gate.release();
    settled_hits(&d.fixture, ALPHA_DISCORD, 1);
    assert!(d.discord.is_deleted(GENERAL, &id));
    assert_eq!(d.discord.requests_to("DELETE", &path).len(), 1);
    assert_eq!(logged(&d), 1);
}

/// Records a blocked-words hit of `MEMBER`'s message `id` in `GENERAL`
/// with `action`, and nothing else: as a daemon killed right after the
/// claim leaves it.
fn claimed_only(d: &Discord, id: &str, action: FilterAction) {
    let (message, now) = (id.to_owned(), d.fixture.daemon.now_unix());
    d.fixture.daemon.write(move |tx| {
        automod_hits::record(
            tx,
            &NewHit {
                server_id: ALPHA_DISCORD,
                message_id: &message,
                channel_id: Some(GENERAL),
                user_id: MEMBER,
                filter: FilterName::BlockedWords,
                matched: "badword",
                normalized: None,
                action,
                enforced_by: EnforcedBy::Daemon,
                burst_window: 60,
                now,
            },
        )
    });
}

/// A hit written but not carried out (the daemon killed between the claim
/// and the delete) is finished when the daemon starts again: the message
/// deleted, the hit logged, its case made.
#[test]
fn a_hit_left_unsettled_is_finished_at_the_next_start() {
    let d = discord("warn");
    d.log_automod();
    let id = d.discord.seed_message(GENERAL, MEMBER, "a badword");
    // As the crash left it: claimed, nothing else.
    claimed_only(&d, &id, FilterAction::Warn);
    let Discord {
        fixture,
        discord: fake,
        gateway: _gateway,
    } = d;
    let fixture = fixture.restart();
    let found = settled_hits(&fixture, ALPHA_DISCORD, 1);
    assert_eq!(
        (found[0].deleted, found[0].outcome, found[0].case_id),
        (Some(true), HitOutcome::Case, Some(1))
    );
    assert!(fake.is_deleted(GENERAL, &id));
    let cases = automod_cases(&fixture, ALPHA_DISCORD);
    assert_eq!(cases.len(), 1, "{cases:?}");
    assert_eq!((cases[0].0, cases[0].1.as_str()), (Action::Warn, MEMBER));
    fixture.daemon.deliver_logs();
    assert_eq!(fake.posted(AUTOMOD_LOG).len(), 1);
}

/// The sweep claims each message through the daemon's work claims
/// (`coordination`: with several daemons, another one may be acting on
/// it): a message someone else holds is left alone, and finished once free.
#[test]
fn the_sweep_leaves_a_message_claimed_elsewhere_alone() {
    let d = discord("delete");
    let id = d.discord.seed_message(GENERAL, MEMBER, "a badword");
    claimed_only(&d, &id, FilterAction::Delete);
    let daemon = &d.fixture.daemon;
    let work = modctld::coordination::Work::AutomodMessage {
        server_id: ALPHA_DISCORD.into(),
        message_id: id.clone(),
    };
    let claims = daemon.state().coordination.work.clone();
    let held = daemon
        .block_on(claims.claim(work, Duration::from_secs(60)))
        .expect("the message is free");
    let sweep = || {
        daemon
            .block_on(modctld::workers::automod_sweep(daemon.state()))
            .expect("the sweep")
    };
    assert_eq!(sweep(), 0);
    assert!(!d.discord.is_deleted(GENERAL, &id));
    drop(held);
    assert_eq!(sweep(), 1);
    assert!(d.discord.is_deleted(GENERAL, &id));
}

/// A daemon stopped while its automod ban was at Discord, and down for more
/// than a day (so the case's idempotency key is forgotten), makes no second
/// case at the next start: the hit named its case in the transaction that
/// wrote the case pending, so the sweep finds nothing to open, and recovery
/// settles the one case from what Discord shows.
#[test]
fn a_case_cut_short_is_not_made_again_after_a_day_down() {
    let d = discord("ban");
    let ban = format!("/guilds/{ALPHA_DISCORD}/bans/{MEMBER}");
    let gate = d.discord.hold("PUT", &ban);
    d.say(GENERAL, "a badword");
    eventually("the ban to reach Discord", || gate.waiting() == 1);
    let Discord {
        fixture,
        discord: fake,
        gateway: _gateway,
    } = d;
    // More than the idempotency window (24 h) passes before the next start.
    fixture
        .daemon
        .clock()
        .advance(Duration::from_secs(25 * 3600));
    let fixture = fixture.restart();
    // Discord carries out the ban it had received.
    gate.release();
    eventually("the held ban to be carried out", || fake.is_banned(MEMBER));
    let found = settled_hits(&fixture, ALPHA_DISCORD, 1);
    assert_eq!(
        (found[0].outcome, found[0].case_id),
        (HitOutcome::Case, Some(1))
    );
    // The sweep ran at the start; once more finds nothing left either.
    let daemon = &fixture.daemon;
    daemon
        .block_on(modctld::workers::automod_sweep(daemon.state()))
        .expect("the sweep");
    let cases = automod_cases(&fixture, ALPHA_DISCORD);
    assert_eq!(cases.len(), 1, "{cases:?}");
    assert_eq!(fake.requests_to("PUT", &ban).len(), 1);
}

/// A hit whose case the durable path refused (an earlier action on the
/// member still pending) is settled with why, and does not make the
/// member's next caught message within the window a mere burst.
#[test]
fn a_case_given_up_does_not_suppress_the_next_case() {
    let d = discord("warn");
    let daemon = &d.fixture.daemon;
    daemon.orphan_ban(ALPHA_DISCORD, MEMBER, None);
    d.say(GENERAL, "a badword");
    let given_up = |found: &[AutomodHitRecord]| {
        found.len() == 1 && found[0].case_detail.is_some() && found[0].deleted.is_some()
    };
    eventually("the first case to be given up", || {
        given_up(&hits(&d.fixture, ALPHA_DISCORD))
    });
    let first = hits(&d.fixture, ALPHA_DISCORD).remove(0);
    assert_eq!((first.outcome, first.case_id), (HitOutcome::Case, None));
    assert!(
        first
            .case_detail
            .as_deref()
            .unwrap_or_default()
            .contains("still being settled"),
        "{first:?}"
    );
    // Recovery settles the pending ban (Discord says it never happened).
    assert_eq!(daemon.tick_workers().recovered, 1);
    d.say(GENERAL, "another badword");
    eventually("the second hit's case", || {
        hits(&d.fixture, ALPHA_DISCORD)
            .iter()
            .any(|h| h.message_id != first.message_id && h.case_id.is_some())
    });
    let second = hits(&d.fixture, ALPHA_DISCORD)
        .into_iter()
        .find(|h| h.message_id != first.message_id)
        .expect("the second hit");
    assert_eq!(second.outcome, HitOutcome::Case);
    let cases = automod_cases(&d.fixture, ALPHA_DISCORD);
    assert_eq!(cases.len(), 1, "{cases:?}");
}

/// A raid does not become a task per message: with every delete stalled,
/// no more than [`MAX_ACTING`] messages are acted on at once, and the rest
/// follow once they finish.
#[test]
fn no_more_than_the_bound_are_acted_on_at_once() {
    let (fixture, fake, chat, now) = telegram();
    let daemon = &fixture.daemon;
    let raid = MAX_ACTING + 6;
    for _ in 0..raid {
        fake.push_in(chat, 5, json!({"text": "so badword", "date": now}));
    }
    let path = FakeTelegram::path("deleteMessage");
    let gate = fake.hold("POST", &path);
    assert_eq!(daemon.start_receivers(), 1);
    eventually("the bound to be reached", || gate.waiting() >= MAX_ACTING);
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(gate.waiting(), MAX_ACTING, "in flight at once");
    assert_eq!(gate.arrivals(), MAX_ACTING);
    gate.release();
    eventually("every caught message to be deleted", || {
        fake.requests_to("POST", &path).len() == raid
    });
    eventually("every hit to be settled", || {
        let deleted: i64 = daemon.sql(|sql| {
            sql.query_row(
                "SELECT count(*) FROM automod_hits WHERE deleted = 1",
                [],
                |row| row.get(0),
            )
        });
        deleted == raid as i64
    });
}
