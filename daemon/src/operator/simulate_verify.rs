//! `modctld simulate verify SERVER USER [--answer CODE]`: a member who
//! joined a simulated server with verification on verifies (issue #26).
//!
//! Like `simulate join`, it runs the daemon's own verification on the same
//! database, in this process: with `welcome.verification: button` the
//! member presses the verify button; with `captcha` they answer the
//! challenge (on Discord typed in the modal, on Telegram pressed on the
//! keypad, on Slack typed in the modal the DM's "Enter code" opens).
//! Without `--answer` the
//! simulator answers with the code it drew, and prints it: only a local
//! simulator can, since on a platform the code is only in the image.
//! With `--answer` it answers with that (a wrong code is counted, like
//! the member's). It prints the verification's state after, and the
//! member's roles.

use anyhow::Context as _;
use modctl_types::Platform;
use modctl_types::config::Verification;

use crate::AppState;
use crate::automation::verify::{CUSTOM_ID, captcha, telegram_callback_data};
use crate::events::{ButtonPress, Event, EventKind, FormSubmit, PressReply, ViewAnswer};
use crate::store::{Store, StoreError, servers, simulator as sim, verifications};

/// `modctld simulate verify`.
pub(super) async fn verify(
    store: Store,
    server_id: String,
    user: String,
    answer: Option<String>,
) -> anyhow::Result<()> {
    let state = AppState::new(store.clone());
    let verifying = state.verifying();
    let (id, who) = (server_id.clone(), user.clone());
    let (platform, pending) = store
        .read(move |tx| {
            let record = servers::find(tx, &id)?.ok_or_else(|| {
                StoreError::NotFound(format!(
                    "server `{id}` is not claimed: claim it with `modctld server claim`"
                ))
            })?;
            Ok::<_, StoreError>((record.server.platform, verifications::get(tx, &id, &who)?))
        })
        .await?;
    if pending.as_ref().map(|p| p.state.as_str()) != Some("pending") {
        anyhow::bail!(
            "{user} has no pending verification on {server_id}: turn verification on \
             (`modctl config set {server_id} welcome.verification button`, or captcha) and \
             have them join (`modctld simulate join {server_id} {user}`)"
        );
    }
    let welcome = state
        .live_config
        .get(&server_id)
        .await
        .context("reading the server's config")?
        .sections
        .welcome
        .clone();
    let event = |kind| Event {
        platform,
        server_id: server_id.as_str().into(),
        at: state.clock.now(),
        id: None,
        kind,
    };
    let reply = match platform {
        Platform::Discord => PressReply::Discord {
            id: "simulated".into(),
            token: "simulated".into(),
        },
        Platform::Telegram => PressReply::Telegram {
            query_id: "simulated".into(),
        },
        // Slack, and a platform added later: answered by DM.
        _ => PressReply::Slack { trigger_id: None },
    };
    let press = |custom_id: String| {
        event(EventKind::ButtonPressed(ButtonPress {
            user_id: user.clone(),
            custom_id,
            channel_id: None,
            message_id: None,
            reply: reply.clone(),
        }))
    };
    let captcha_here = welcome.verification == Verification::Captcha;
    if !captcha_here {
        let custom_id = match platform {
            Platform::Telegram => telegram_callback_data(&user),
            _ => CUSTOM_ID.to_owned(),
        };
        verifying.handle_now(press(custom_id)).await;
    } else {
        if platform != Platform::Telegram {
            // The verify button shows the challenge (issuing the first).
            verifying.handle_now(press(CUSTOM_ID.to_owned())).await;
        }
        let code = match answer {
            Some(code) => code,
            None => {
                let (id, who) = (server_id.clone(), user.clone());
                let drawn = store
                    .read(move |tx| verifications::captcha(tx, &id, &who))
                    .await?
                    .and_then(|c| c.code)
                    .context("no challenge was drawn for this member")?;
                eprintln!(
                    "the simulator answers with the code it drew, {drawn} (only a simulator \
                     can: on a platform the code is only in the image)"
                );
                drawn
            }
        };
        if platform != Platform::Telegram {
            // Slack's modal: nobody waits for the request's answer here
            // (the member is told by DM when it cannot be given).
            let reply = match &reply {
                PressReply::Slack { .. } => PressReply::SlackView(ViewAnswer::default()),
                other => other.clone(),
            };
            let form = FormSubmit {
                user_id: user.clone(),
                custom_id: captcha::discord_id(captcha::Key::Answer),
                fields: vec![(captcha::flow::FIELD_ID.to_owned(), code)],
                reply,
            };
            verifying
                .handle_now(event(EventKind::FormSubmitted(form)))
                .await;
        } else {
            for digit in code.chars() {
                let key = captcha::Key::Digit(digit);
                verifying
                    .handle_now(press(captcha::telegram_data(&user, key)))
                    .await;
            }
        }
    }
    let (id, who) = (server_id.clone(), user.clone());
    let (after, captcha, roles) = store
        .read(move |tx| {
            Ok::<_, StoreError>((
                verifications::get(tx, &id, &who)?,
                verifications::captcha(tx, &id, &who)?,
                sim::member_roles(tx, &id, &who)?.unwrap_or_default(),
            ))
        })
        .await?;
    let state_after = after.map_or_else(|| "none".to_owned(), |p| p.state);
    let tries = captcha
        .filter(|_| captcha_here)
        .map(|c| {
            format!(
                " ({} of {} wrong answers)",
                c.wrong_answers,
                captcha::MAX_WRONG
            )
        })
        .unwrap_or_default();
    let roles = if roles.is_empty() {
        "none".to_owned()
    } else {
        roles.join(", ")
    };
    eprintln!(
        "{user}'s verification on {server_id}: {state_after}{tries}; their roles now: {roles}"
    );
    Ok(())
}
