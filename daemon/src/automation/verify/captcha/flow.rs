//! The captcha carried out per platform (the pure rules are in the parent
//! module): the challenge shown, the answer judged against the member's
//! stored [`Captcha`], and a right answer handed to the button's own
//! verification (claimed once against the deadline's kick, then granted).
//!
//! - **Discord**: a press of the shared verify button answers, within the
//!   interaction's 3 seconds, with an ephemeral message carrying the image
//!   (a multipart interaction callback) and two buttons, "Enter code" and
//!   "New challenge". Drawing the image takes a few milliseconds and the
//!   store write one, so the response is sent at once rather than deferred.
//!   "Enter code" answers with a modal; its submission is judged and
//!   answered ephemerally.
//! - **Telegram**: on join, the newcomer's prompt is a photo with an inline
//!   keypad naming them (digits, erase, new challenge); each digit is kept
//!   in the store and the member told their progress in the callback's
//!   notice; the whole code is judged on its last digit. Anyone else
//!   pressing is refused politely.
//! - **Slack**: the verify button of the greeting DM puts the image in
//!   that DM (Slack's external upload, shared in the DM) and, under it,
//!   "Enter code" and "New challenge". "Enter code" opens a modal with the
//!   press's `trigger_id`; its `view_submission` is judged while the
//!   interactivity request waits: a wrong code is an error under the field
//!   (the request's own answer, the only way Slack shows one), a right one
//!   closes the modal and the member is told by DM. A submission is the
//!   submitter's own (Slack names its user), so nobody answers for anyone
//!   else.

use modctl_types::config::Welcome;

use super::{
    CODE_LEN, Key, MAX_CHALLENGES, MAX_WRONG, Outcome, answer, discord_id, new_code, press, render,
    telegram_data, wrong_answer_text,
};
use crate::automation::automod::act::hit::Connected;
use crate::automation::verify::Verifying;
use crate::automation::verify::prompt::PromptError;
use crate::events::{ButtonPress, FormSubmit, MemberRef, PressReply};
use crate::platform::{Bot, DiscordBot, PlatformError, Post, SlackBot, TelegramBot};
use crate::store::verifications::{self, Captcha};

/// The modal's text field.
pub const FIELD_ID: &str = "code";

/// What a member is told when the daemon failed them.
const OUR_FAULT: &str = "Verification failed on our side: please try again in a minute.";

/// What a member with nothing pending is told.
const NOTHING_PENDING: &str = "There is nothing for you to verify here: you are verified already, or this is for members who have just joined.";

/// What a member out of tries is told.
const SPENT: &str = "You have no tries left: a moderator can still let you in; otherwise you will be removed when your time to verify is up.";

/// A challenge to show: the code drawn into an image, and whether it is a
/// new one.
struct Shown {
    image: Vec<u8>,
    note: &'static str,
}

impl Shown {
    /// What is said with the image (Discord's and Slack's, whose buttons
    /// are [`buttons`]).
    fn text(&self) -> String {
        format!(
            "{}: type the {CODE_LEN} digits in the image with \"Enter code\". {MAX_WRONG} wrong answers in all are allowed.",
            self.note
        )
    }
}

/// The buttons under a challenge's image on Discord and Slack (a
/// `custom_id`, a Slack `action_id`: the same ids).
fn buttons() -> [(&'static str, String); 2] {
    [
        ("Enter code", discord_id(Key::Enter)),
        ("New challenge", discord_id(Key::New)),
    ]
}

/// Why a challenge could not be shown.
enum NotShown {
    /// Nothing pending.
    Nothing,
    /// No tries left.
    Spent,
    /// No challenges left and none to show.
    NoChallenges,
    /// The daemon failed.
    Failed(String),
}

impl NotShown {
    fn text(&self) -> &'static str {
        match self {
            NotShown::Nothing => NOTHING_PENDING,
            NotShown::Spent => SPENT,
            NotShown::NoChallenges => {
                "You have asked for all the challenges you may: ask a moderator to let you in."
            }
            NotShown::Failed(_) => OUR_FAULT,
        }
    }
}

impl Verifying {
    /// `user`'s captcha on `server_id`, when pending.
    async fn captcha_of(&self, server_id: &str, user: &str) -> Result<Option<Captcha>, String> {
        let (server, who) = (server_id.to_owned(), user.to_owned());
        self.moderation
            .store
            .read(move |tx| verifications::captcha(tx, &server, &who))
            .await
            .map_err(|e| e.to_string())
    }

    /// The challenge to show `user`: their current one drawn again, or a
    /// new one when `fresh` (or when they have none yet), within the
    /// limits.
    async fn challenge(&self, server_id: &str, user: &str, fresh: bool) -> Result<Shown, NotShown> {
        let captcha = match self.captcha_of(server_id, user).await {
            Ok(Some(c)) => c,
            Ok(None) => return Err(NotShown::Nothing),
            Err(e) => return Err(NotShown::Failed(e)),
        };
        if captcha.wrong_answers >= MAX_WRONG {
            return Err(NotShown::Spent);
        }
        let (code, seed) = new_code().map_err(|e| NotShown::Failed(e.to_string()))?;
        let (code, note) = match captcha.code {
            Some(current) if !fresh => (current, "Your challenge"),
            current => {
                let (server, who, new) = (server_id.to_owned(), user.to_owned(), code.clone());
                let issued = self
                    .moderation
                    .store
                    .write(move |tx| {
                        verifications::issue_challenge(tx, &server, &who, &new, MAX_CHALLENGES)
                    })
                    .await
                    .map_err(|e| NotShown::Failed(e.to_string()))?;
                match (issued, current) {
                    (true, _) => (code, "A new challenge"),
                    (false, Some(current)) => (
                        current,
                        "No new challenges left: your current one, drawn again",
                    ),
                    (false, None) => return Err(NotShown::NoChallenges),
                }
            }
        };
        let image = render::render(&code, seed).map_err(|e| NotShown::Failed(e.to_string()))?;
        Ok(Shown { image, note })
    }

    /// Discord: a press of the verify button (`fresh` false) or of "New
    /// challenge" (`fresh`): answered with the image and the buttons.
    pub(in crate::automation::verify) async fn discord_challenge(
        &self,
        discord: &dyn DiscordBot,
        server_id: &str,
        user: &str,
        (id, token): (&str, &str),
        fresh: bool,
    ) {
        let answered = match self.challenge(server_id, user, fresh).await {
            Ok(shown) => {
                discord
                    .answer_press_image(id, token, &shown.text(), &shown.image, &buttons())
                    .await
            }
            Err(not) => {
                if let NotShown::Failed(e) = &not {
                    tracing::warn!(server = server_id, error = %e, "verification could not make a captcha");
                }
                discord.answer_press(id, token, not.text()).await
            }
        };
        if let Err(e) = answered {
            tracing::warn!(server = server_id, error = %e, "verification could not answer a captcha press");
        }
    }

    /// A press of one of the captcha's own buttons.
    pub(in crate::automation::verify) async fn captcha_pressed(
        &self,
        connected: &Connected,
        welcome: &Welcome,
        press: ButtonPress,
        named: Option<&str>,
        key: Key,
    ) {
        let server_id = connected.server.id.as_str();
        let user = press.user_id.as_str();
        match (&connected.bot, &press.reply) {
            (Bot::Discord(discord), PressReply::Discord { id, token }) => {
                let answered = match key {
                    Key::New => {
                        self.discord_challenge(
                            discord.as_ref(),
                            server_id,
                            user,
                            (id, token),
                            true,
                        )
                        .await;
                        Ok(())
                    }
                    Key::Enter => {
                        let label = format!("The {CODE_LEN} digits in the image");
                        discord
                            .answer_press_modal(
                                id,
                                token,
                                &discord_id(Key::Answer),
                                "Verification",
                                (FIELD_ID, &label),
                                CODE_LEN,
                            )
                            .await
                    }
                    // Keypad keys and the modal's id are not Discord
                    // buttons the daemon posts.
                    Key::Answer | Key::Digit(_) | Key::Erase => {
                        discord.answer_press(id, token, NOTHING_PENDING).await
                    }
                };
                if let Err(e) = answered {
                    tracing::warn!(server = server_id, error = %e, "verification could not answer a captcha press");
                }
            }
            (Bot::Telegram(telegram), PressReply::Telegram { query_id }) => {
                let (text, alert) = if named.is_some_and(|n| n != user) {
                    (
                        "Sorry, this keypad is for the new member it greets: it does nothing for you."
                            .to_owned(),
                        true,
                    )
                } else {
                    self.telegram_key(connected, telegram.as_ref(), welcome, user, key)
                        .await
                };
                if let Err(e) = telegram.answer_callback(query_id, &text, alert).await {
                    tracing::warn!(server = server_id, error = %e, "verification could not answer a keypad press");
                }
            }
            (Bot::Slack(slack), PressReply::Slack { trigger_id }) => {
                let opened = match (key, trigger_id) {
                    (Key::New, _) => {
                        self.slack_challenge(slack.as_ref(), server_id, user, true)
                            .await;
                        Ok(())
                    }
                    (Key::Enter, Some(trigger)) => {
                        let label = format!("The {CODE_LEN} digits in the image");
                        slack
                            .open_code_modal(
                                trigger,
                                &discord_id(Key::Answer),
                                "Verification",
                                (FIELD_ID, &label),
                                CODE_LEN,
                            )
                            .await
                    }
                    // Slack sends a press's `trigger_id`; without one no
                    // modal can be opened.
                    (Key::Enter, None) => slack.direct_message(user, &Post::text(OUR_FAULT)).await,
                    (Key::Answer | Key::Digit(_) | Key::Erase, _) => {
                        slack
                            .direct_message(user, &Post::text(NOTHING_PENDING))
                            .await
                    }
                };
                if let Err(e) = opened {
                    tracing::warn!(server = server_id, error = %e, "verification could not answer a captcha press");
                }
            }
            // A press of another platform's kind is a routing bug, said in
            // the log.
            _ => {
                tracing::warn!(
                    server = server_id,
                    "verification got a captcha press it cannot answer on this platform"
                );
            }
        }
    }

    /// Telegram: one key of `user`'s keypad; what to tell them, and
    /// whether as an alert.
    async fn telegram_key(
        &self,
        connected: &Connected,
        telegram: &dyn TelegramBot,
        welcome: &Welcome,
        user: &str,
        key: Key,
    ) -> (String, bool) {
        let server_id = connected.server.id.as_str();
        if key == Key::New {
            return match self.challenge(server_id, user, true).await {
                Ok(shown) => {
                    let name = MemberRef {
                        id: user.to_owned(),
                        ..MemberRef::default()
                    };
                    match self
                        .post_keypad(telegram, server_id, &name, &shown.image)
                        .await
                    {
                        Ok(()) => ("Here is a new challenge.".to_owned(), false),
                        Err(e) => {
                            tracing::warn!(server = server_id, error = %e, "verification could not post a new captcha");
                            (OUR_FAULT.to_owned(), true)
                        }
                    }
                }
                Err(not) => (not.text().to_owned(), true),
            };
        }
        // The read of the digits so far, and their write, as one step.
        let _one = self.answers.lock().await;
        let captcha = match self.captcha_of(server_id, user).await {
            Ok(Some(c)) => c,
            Ok(None) => return (NOTHING_PENDING.to_owned(), true),
            Err(e) => {
                tracing::warn!(server = server_id, error = %e, "verification could not read a captcha");
                return (OUR_FAULT.to_owned(), true);
            }
        };
        match press(&captcha, key) {
            Outcome::Partial(entered) => {
                let (server, who, kept) = (server_id.to_owned(), user.to_owned(), entered.clone());
                let stored = self
                    .moderation
                    .store
                    .write(move |tx| verifications::set_entered(tx, &server, &who, &kept))
                    .await;
                match stored {
                    Ok(()) => (
                        format!("{} of {CODE_LEN} digits entered.", entered.len()),
                        false,
                    ),
                    Err(e) => {
                        tracing::warn!(server = server_id, error = %e, "verification could not keep a keypad's digits");
                        (OUR_FAULT.to_owned(), true)
                    }
                }
            }
            outcome => (self.judged(connected, welcome, user, outcome).await, true),
        }
    }

    /// A judged answer carried out: a right one verifies, a wrong one is
    /// counted; what to tell the member.
    async fn judged(
        &self,
        connected: &Connected,
        welcome: &Welcome,
        user: &str,
        outcome: Outcome,
    ) -> String {
        match outcome {
            Outcome::Right => self.verify(connected, welcome, user).await,
            Outcome::Wrong => {
                let (server, who) = (connected.server.id.clone(), user.to_owned());
                match self
                    .moderation
                    .store
                    .write(move |tx| verifications::count_wrong(tx, &server, &who))
                    .await
                {
                    Ok(wrong) => wrong_answer_text(wrong),
                    Err(e) => {
                        tracing::warn!(server = %connected.server.id, error = %e, "verification could not count a wrong answer");
                        OUR_FAULT.to_owned()
                    }
                }
            }
            Outcome::Spent => SPENT.to_owned(),
            Outcome::NoChallenge => {
                "Press the verify button first: it shows you the image.".to_owned()
            }
            Outcome::Partial(_) => OUR_FAULT.to_owned(),
        }
    }

    /// The modal with the typed code was sent (Discord's, Slack's).
    pub(in crate::automation::verify) async fn captcha_submitted(
        &self,
        connected: &Connected,
        welcome: &Welcome,
        form: FormSubmit,
    ) {
        let typed = form
            .fields
            .iter()
            .find(|(field, _)| field == FIELD_ID)
            .map_or("", |(_, value)| value.as_str());
        let outcome = match self.captcha_of(&connected.server.id, &form.user_id).await {
            Ok(Some(captcha)) => Ok(answer(&captcha, typed)),
            Ok(None) => Err(NOTHING_PENDING),
            Err(e) => {
                tracing::warn!(server = %connected.server.id, error = %e, "verification could not read a captcha");
                Err(OUR_FAULT)
            }
        };
        let answered = match (&connected.bot, &form.reply) {
            (Bot::Discord(discord), PressReply::Discord { id, token }) => {
                let text = match outcome {
                    Ok(outcome) => {
                        self.judged(connected, welcome, &form.user_id, outcome)
                            .await
                    }
                    Err(text) => text.to_owned(),
                };
                discord.answer_press(id, token, &text).await
            }
            (Bot::Slack(slack), PressReply::SlackView(reply)) => {
                // A right code closes the modal at once (Slack waits 3
                // seconds for the request's answer; the user groups may
                // take longer) and the outcome is told by DM; anything
                // else is an error under the field, or by DM when the
                // request was not waiting any more.
                let right = outcome == Ok(Outcome::Right);
                if right {
                    reply.send(None);
                }
                let text = match outcome {
                    Ok(outcome) => {
                        self.judged(connected, welcome, &form.user_id, outcome)
                            .await
                    }
                    Err(text) => text.to_owned(),
                };
                if !right && reply.send(Some((FIELD_ID.to_owned(), text.clone()))) {
                    Ok(())
                } else {
                    slack.direct_message(&form.user_id, &Post::text(text)).await
                }
            }
            _ => return,
        };
        if let Err(e) = answered {
            tracing::warn!(server = %connected.server.id, error = %e, "verification could not answer a captcha's answer");
        }
    }

    /// Slack: a press of the verify button in the greeting DM (`fresh`
    /// false) or of "New challenge" (`fresh`): the image and its buttons
    /// in the member's DM.
    pub(in crate::automation::verify) async fn slack_challenge(
        &self,
        slack: &dyn SlackBot,
        server_id: &str,
        user: &str,
        fresh: bool,
    ) {
        let sent = match self.challenge(server_id, user, fresh).await {
            Ok(shown) => {
                slack
                    .direct_message_image(user, &shown.text(), &shown.image, &buttons())
                    .await
            }
            Err(not) => {
                if let NotShown::Failed(e) = &not {
                    tracing::warn!(server = server_id, error = %e, "verification could not make a captcha");
                }
                slack.direct_message(user, &Post::text(not.text())).await
            }
        };
        if let Err(e) = sent {
            tracing::warn!(server = server_id, error = %e, "verification could not send a captcha");
        }
    }

    /// Telegram: a newcomer's first challenge, posted as their prompt (the
    /// restriction is the caller's).
    pub(in crate::automation::verify) async fn prompt_telegram_captcha(
        &self,
        telegram: &dyn TelegramBot,
        server_id: &str,
        member: &MemberRef,
    ) -> Result<(), PromptError> {
        match self.challenge(server_id, &member.id, false).await {
            Ok(shown) => {
                self.post_keypad(telegram, server_id, member, &shown.image)
                    .await
            }
            Err(not) => Err(PromptError::Platform(PlatformError::Invalid(format!(
                "the captcha could not be made: {}",
                match not {
                    NotShown::Failed(e) => e,
                    other => other.text().to_owned(),
                }
            )))),
        }
    }

    /// Posts `image` with `member`'s keypad as their prompt, the one it
    /// replaces deleted.
    async fn post_keypad(
        &self,
        telegram: &dyn TelegramBot,
        server_id: &str,
        member: &MemberRef,
        image: &[u8],
    ) -> Result<(), PromptError> {
        let name = member.display_name.as_deref().unwrap_or("New member");
        let caption = format!(
            "{name}, welcome! Press the {CODE_LEN} digits you see in the image, within the time given, to verify that you are a person; until then you cannot send messages here."
        );
        let message = telegram
            .post_photo_keyboard(&caption, image, &keypad(&member.id))
            .await?;
        let (server, user) = (server_id.to_owned(), member.id.clone());
        let before = self
            .moderation
            .store
            .write(move |tx| {
                let before = verifications::get(tx, &server, &user)?;
                verifications::set_prompt(tx, &server, &user, &server, &message)?;
                Ok::<_, crate::store::StoreError>(before)
            })
            .await?;
        // The challenge it replaces goes (one already gone is fine).
        if let Some((channel, old)) =
            before.and_then(|b| b.prompt_channel_id.zip(b.prompt_message_id))
        {
            match telegram
                .delete_message(&channel, &old, Some("modctl: a new captcha"))
                .await
            {
                Ok(()) | Err(PlatformError::NotFound(_)) => {}
                Err(e) => {
                    tracing::warn!(server = server_id, error = %e, "verification could not delete a replaced captcha")
                }
            }
        }
        Ok(())
    }
}

/// The keypad of `user`'s Telegram prompt: three rows of digits, then
/// erase, 0 and a new challenge.
pub fn keypad(user: &str) -> Vec<Vec<(String, String)>> {
    let key = |label: &str, k: Key| (label.to_owned(), telegram_data(user, k));
    let digit = |d: char| key(&d.to_string(), Key::Digit(d));
    vec![
        "123".chars().map(digit).collect(),
        "456".chars().map(digit).collect(),
        "789".chars().map(digit).collect(),
        vec![
            key("⌫ Erase", Key::Erase),
            digit('0'),
            key("↻ New", Key::New),
        ],
    ]
}
