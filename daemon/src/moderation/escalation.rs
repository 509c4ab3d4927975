//! The strike ladder: which step an action reached, and the rule that an
//! escalation never weakens what is already in force.
//!
//! A ladder step is a minimum, not a replacement. Carried out blindly, a step
//! "timeout 60 min" reached by a 90-minute timeout would end the timeout half
//! an hour early, and a step "timeout" reached by a banned member would be a
//! pointless call. So before a step is carried out it is compared with the
//! member's punishments in force, and it is either applied or recorded as
//! skipped (a case with `applied: false` and a `skipped:` detail, so the
//! ladder's decision is visible in the case history):
//!
//! | step    | skipped when                                                   |
//! |---------|----------------------------------------------------------------|
//! | any     | the member is banned (a ban outweighs every step)              |
//! | timeout | a timeout ending at or after the step's end is running; on Telegram also a jail (a mute) ending at or after it, or never |
//! | jail    | the member is jailed; on Telegram also a timeout (a mute) running past the jail step's end |
//! | kick    | never (short of a ban)                                         |
//! | ban     | never (short of an existing ban)                               |
//!
//! A timeout step that ends later than the running timeout is applied: it
//! extends it. On Telegram a jail and a timeout are the same mute, so each
//! is weighed against the other too. Pure, so the rule is tested without a
//! platform.

use modctl_types::config::{LadderAction, LadderStep, Sections, StrikeWeights};
use modctl_types::moderation::Action;
use modctl_types::{Platform, Timestamp};

use super::validate::{self, Checked};

/// What the member has in force when a ladder step is reached.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct InForce {
    /// Banned (the latest applied ban has no applied unban after it).
    pub banned: bool,
    /// The end of the longest running timeout, if any.
    pub timeout_until: Option<Timestamp>,
    /// The member's jail, if jailed.
    pub jailed: Option<JailInForce>,
}

/// A jail in force.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JailInForce {
    /// The jail's case.
    pub case_id: i64,
    /// When it ends by itself; `None` = when unjailed.
    pub until: Option<Timestamp>,
}

/// What to do about a ladder step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Plan {
    /// Carry it out.
    Apply(Checked),
    /// Record it as not applied, with this detail.
    Skip(Checked, String),
}

/// The highest ladder step whose `at` lies in `(before, after]`, i.e. the
/// step this action's strikes crossed, if any. Only the highest step crossed
/// is applied.
pub fn reached(ladder: &[LadderStep], before: u32, after: u32) -> Option<&LadderStep> {
    ladder
        .iter()
        .filter(|step| before < step.at && step.at <= after)
        .max_by_key(|step| step.at)
}

/// The strikes an action adds under `weights`.
pub fn weight_of(weights: &StrikeWeights, action: Action) -> u32 {
    match action {
        Action::Note => weights.note,
        Action::Warn => weights.warn,
        Action::Timeout => weights.timeout,
        Action::Kick => weights.kick,
        Action::Ban => weights.ban,
        Action::Jail => weights.jail,
        _ => 0,
    }
}

/// Everything [`plan`] needs to know about the action that reached a step.
#[derive(Debug)]
pub struct Reached<'a> {
    /// The step.
    pub step: &'a LadderStep,
    /// The member.
    pub user_id: &'a str,
    /// The number of the case that reached it.
    pub case_number: i64,
    /// The member's active strikes after that case.
    pub active_strikes: u32,
    /// The server's platform and config.
    pub platform: Platform,
    /// The server's config.
    pub sections: &'a Sections,
    /// Now.
    pub now: Timestamp,
}

/// Decides whether the step is carried out, by the rule in the module docs.
pub fn plan(reached: &Reached<'_>, in_force: &InForce) -> Plan {
    let step = reached.step;
    let action = match step.action {
        LadderAction::Timeout => Action::Timeout,
        LadderAction::Kick => Action::Kick,
        LadderAction::Ban => Action::Ban,
        LadderAction::Jail => Action::Jail,
    };
    let input = Checked {
        action,
        user_id: reached.user_id.to_owned(),
        reason: Some(format!(
            "strike ladder: {} active strikes reached step `at {}` (case #{})",
            reached.active_strikes, step.at, reached.case_number
        )),
        minutes: step.minutes,
        delete_message_days: (action == Action::Ban)
            .then_some(reached.sections.moderation.default_ban_delete_days),
        defaulted: None,
    };
    let skip = |why: String| Plan::Skip(input.clone(), format!("skipped: {why}"));
    if in_force.banned {
        return skip(format!(
            "the member is banned, which outweighs this step's {action}; the ban stays in force"
        ));
    }
    // When the step's own restriction would end (`None`: never).
    let step_end = step
        .minutes
        .map(|m| reached.now.as_second() + i64::from(m) * 60);
    let telegram = reached.platform == Platform::Telegram;
    match action {
        Action::Timeout => {
            let minutes = step.minutes.unwrap_or(0);
            let step_end = step_end.unwrap_or(i64::MAX);
            match (in_force.timeout_until, in_force.jailed) {
                (Some(until), _) if until.as_second() >= step_end => skip(format!(
                    "a timeout until {until} is already in force, at least as long as this step's {minutes} minutes; it stays as it is"
                )),
                (_, Some(jail))
                    if telegram && jail.until.is_none_or(|u| u.as_second() >= step_end) =>
                {
                    skip(format!(
                        "the member is jailed (muted) {}, which this step's {minutes}-minute mute would cut short; the jail stays as it is",
                        jail.until
                            .map_or_else(|| "until unjailed".to_owned(), |u| format!("until {u}"))
                    ))
                }
                _ => Plan::Apply(input),
            }
        }
        Action::Jail => match (
            in_force.jailed,
            validate::jail_available(reached.platform, reached.sections),
        ) {
            (Some(jail), _) => skip(format!(
                "the member is already jailed (case #{}); the jail stays as it is",
                jail.case_id
            )),
            (None, Err(why)) => Plan::Skip(input.clone(), format!("not applied: {why}")),
            (None, Ok(())) => match (in_force.timeout_until, step_end) {
                (Some(until), Some(end)) if telegram && until.as_second() > end => skip(format!(
                    "a timeout (mute) until {until} is in force, which this step's shorter jail would end early; it stays as it is"
                )),
                _ => Plan::Apply(input),
            },
        },
        _ => Plan::Apply(input),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(at: u32, action: LadderAction, minutes: Option<u32>) -> LadderStep {
        LadderStep {
            at,
            action,
            minutes,
        }
    }

    #[test]
    fn on_telegram_a_jail_and_a_timeout_are_one_mute_and_neither_step_shortens_it() {
        let mut sections = Sections::default();
        sections.jail.enabled = true;
        let on_telegram = |step: &'static LadderStep| Reached {
            platform: Platform::Telegram,
            ..reached(step, &sections, now())
        };
        let at =
            |minutes: i64| Some(Timestamp::from_second(now().as_second() + minutes * 60).unwrap());

        static TIMEOUT_60: LadderStep = LadderStep {
            at: 2,
            action: LadderAction::Timeout,
            minutes: Some(60),
        };
        let jailed_for_good = InForce {
            jailed: Some(JailInForce {
                case_id: 1,
                until: None,
            }),
            ..InForce::default()
        };
        assert!(
            matches!(plan(&on_telegram(&TIMEOUT_60), &jailed_for_good), Plan::Skip(_, d) if d.contains("jailed (muted) until unjailed"))
        );
        let jailed_briefly = InForce {
            jailed: Some(JailInForce {
                case_id: 1,
                until: at(10),
            }),
            ..InForce::default()
        };
        assert!(matches!(
            plan(&on_telegram(&TIMEOUT_60), &jailed_briefly),
            Plan::Apply(_)
        ));
        // On Discord a jail is a role, and a timeout beside it weakens nothing.
        assert!(matches!(
            plan(&reached(&TIMEOUT_60, &sections, now()), &jailed_for_good),
            Plan::Apply(_)
        ));

        static JAIL_30: LadderStep = LadderStep {
            at: 2,
            action: LadderAction::Jail,
            minutes: Some(30),
        };
        let timed_out = InForce {
            timeout_until: at(90),
            ..InForce::default()
        };
        assert!(
            matches!(plan(&on_telegram(&JAIL_30), &timed_out), Plan::Skip(_, d) if d.contains("end early"))
        );
        static JAIL_FOREVER: LadderStep = LadderStep {
            at: 2,
            action: LadderAction::Jail,
            minutes: None,
        };
        assert!(matches!(
            plan(&on_telegram(&JAIL_FOREVER), &timed_out),
            Plan::Apply(_)
        ));
    }

    fn reached<'a>(step: &'a LadderStep, sections: &'a Sections, now: Timestamp) -> Reached<'a> {
        Reached {
            step,
            user_id: "42",
            case_number: 7,
            active_strikes: 3,
            platform: Platform::Discord,
            sections,
            now,
        }
    }

    fn now() -> Timestamp {
        "2026-11-22T10:00:00Z".parse().unwrap()
    }

    #[test]
    fn the_highest_step_crossed_is_reached_and_none_below_or_at_the_start() {
        let ladder = [
            step(2, LadderAction::Timeout, Some(15)),
            step(3, LadderAction::Kick, None),
            step(5, LadderAction::Ban, None),
        ];
        assert_eq!(reached_at(&ladder, 0, 1), None);
        assert_eq!(reached_at(&ladder, 1, 2), Some(2));
        assert_eq!(reached_at(&ladder, 1, 4), Some(3));
        assert_eq!(reached_at(&ladder, 2, 2), None, "already past step 2");
        assert_eq!(reached_at(&ladder, 0, 9), Some(5));
    }

    fn reached_at(ladder: &[LadderStep], before: u32, after: u32) -> Option<u32> {
        super::reached(ladder, before, after).map(|s| s.at)
    }

    #[test]
    fn a_shorter_timeout_step_never_cuts_a_running_timeout() {
        let sections = Sections::default();
        let step = step(2, LadderAction::Timeout, Some(60));
        let reached = reached(&step, &sections, now());
        let ninety = InForce {
            timeout_until: Some(Timestamp::from_second(now().as_second() + 90 * 60).unwrap()),
            ..InForce::default()
        };
        let Plan::Skip(_, detail) = plan(&reached, &ninety) else {
            panic!("a 60-minute step must not replace a 90-minute timeout");
        };
        assert!(detail.starts_with("skipped: a timeout until"), "{detail}");

        let thirty = InForce {
            timeout_until: Some(Timestamp::from_second(now().as_second() + 30 * 60).unwrap()),
            ..InForce::default()
        };
        assert!(matches!(plan(&reached, &thirty), Plan::Apply(c) if c.minutes == Some(60)));
        assert!(matches!(
            plan(&reached, &InForce::default()),
            Plan::Apply(_)
        ));
    }

    #[test]
    fn a_ban_outweighs_every_step_and_a_jail_is_not_jailed_again() {
        let sections = Sections::default();
        let banned = InForce {
            banned: true,
            ..InForce::default()
        };
        for action in [
            LadderAction::Ban,
            LadderAction::Kick,
            LadderAction::Jail,
            LadderAction::Timeout,
        ] {
            let step = step(2, action, Some(10));
            let plan = plan(&reached(&step, &sections, now()), &banned);
            assert!(
                matches!(&plan, Plan::Skip(_, d) if d.contains("the member is banned")),
                "{action:?}: {plan:?}"
            );
        }
        let jailed = InForce {
            jailed: Some(JailInForce {
                case_id: 3,
                until: None,
            }),
            ..InForce::default()
        };
        let step = step(2, LadderAction::Jail, None);
        assert!(matches!(
            plan(&reached(&step, &sections, now()), &jailed),
            Plan::Skip(_, d) if d.contains("already jailed")
        ));
    }
}
