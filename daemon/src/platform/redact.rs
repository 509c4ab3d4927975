//! Keeping a connection's secrets out of what a platform says.
//!
//! A platform's error text is kept in cases, returned in API answers
//! (an action's detail, a snapshot capture's `502`, onboarding) and logged,
//! and it may quote what the daemon sent: Telegram's URL is
//! `/bot<TOKEN>/method`, so a description (or a proxy's page) that names the
//! request path carries the bot token, and `setWebhook` sends the webhook's
//! secret token (issue #22). Every live adapter therefore holds a
//! [`Redactor`] with the secrets of its connection (the bot token, Slack's
//! signing secret, Telegram's webhook secret token) and passes every text it
//! builds an error from through [`Redactor::redact`] where the error is built:
//! the answer's body, and a transport failure (whose URL reqwest already
//! leaves out; the rest of its text is redacted too). Nothing downstream has
//! to know.
//!
//! A secret is replaced wherever it appears as it was sent: as is, and
//! percent-encoded (a URL, a form). A Telegram token `<bot id>:<secret>` is
//! also replaced by its secret part alone; the bot id is public (it is the
//! bot's user id) and stays readable.

use std::sync::Arc;

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};

/// What a secret is replaced with.
pub const REDACTED: &str = "[redacted]";

/// Characters a URL or form leaves as they are (RFC 3986's unreserved).
const UNRESERVED: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'_')
    .remove(b'.')
    .remove(b'~');

/// Shortest secret part of a Telegram-style token replaced on its own: a
/// real one is 35 characters; a few characters would match ordinary words.
const MIN_SECRET_PART: usize = 16;

/// The secrets of one connection, in every form they are replaced in;
/// cheap to clone.
#[derive(Clone, Default)]
pub struct Redactor {
    /// Longest first, so a whole token is replaced before its secret part.
    forms: Arc<[String]>,
}

impl std::fmt::Debug for Redactor {
    // Never prints the secrets.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Redactor")
            .field("forms", &self.forms.len())
            .finish()
    }
}

impl Redactor {
    /// A redactor for `secrets` (empty ones are ignored).
    pub fn new<S: AsRef<str>>(secrets: impl IntoIterator<Item = S>) -> Redactor {
        Redactor::default().with(secrets)
    }

    /// This redactor, also replacing `secrets` (e.g. the secret token a
    /// call sends).
    pub fn with<S: AsRef<str>>(&self, secrets: impl IntoIterator<Item = S>) -> Redactor {
        let mut forms: Vec<String> = self.forms.to_vec();
        for secret in secrets {
            forms.extend(forms_of(secret.as_ref()));
        }
        forms.sort_by_key(|form| std::cmp::Reverse(form.len()));
        forms.dedup();
        Redactor {
            forms: forms.into(),
        }
    }

    /// `text` with every form of every secret replaced by [`REDACTED`]: the
    /// one function through which platform text passes before it is kept,
    /// returned or logged.
    pub fn redact(&self, text: &str) -> String {
        let mut text = text.to_owned();
        for form in self.forms.iter() {
            if text.contains(form.as_str()) {
                text = text.replace(form.as_str(), REDACTED);
            }
        }
        text
    }
}

/// The forms `secret` may appear in: as is, percent-encoded (upper- and
/// lower-case hex), and a Telegram token's secret part.
fn forms_of(secret: &str) -> Vec<String> {
    if secret.is_empty() {
        return Vec::new();
    }
    let mut forms = vec![secret.to_owned()];
    let encoded = utf8_percent_encode(secret, UNRESERVED).to_string();
    if encoded != secret {
        forms.push(lower_hex(&encoded));
        forms.push(encoded);
    }
    if let Some((id, part)) = secret.split_once(':')
        && !id.is_empty()
        && id.bytes().all(|b| b.is_ascii_digit())
        && part.len() >= MIN_SECRET_PART
    {
        forms.extend(forms_of(part));
    }
    forms
}

/// `encoded` with the hex digits of its `%XX` escapes in lower case.
fn lower_hex(encoded: &str) -> String {
    let mut out = String::with_capacity(encoded.len());
    let mut escape = 0;
    for c in encoded.chars() {
        if c == '%' {
            escape = 2;
            out.push(c);
        } else if escape > 0 {
            escape -= 1;
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// A platform's answer with `status` and `body`, for the adapters' tests of
/// the errors they build from it.
#[cfg(test)]
pub(super) fn answer(status: u16, body: serde_json::Value) -> reqwest::Response {
    axum::http::Response::builder()
        .status(status)
        .body(body.to_string())
        .expect("a valid response")
        .into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_of_a_secret_is_replaced_and_the_rest_kept() {
        let redactor = Redactor::new(["123456:AAE-secret_part-of-the-token", "s3cr3t/+="]);
        assert_eq!(
            redactor.redact(
                "Not Found: /bot123456:AAE-secret_part-of-the-token/banChatMember, \
                 /bot123456%3AAAE-secret_part-of-the-token/x, AAE-secret_part-of-the-token, \
                 secret s3cr3t/+= s3cr3t%2F%2B%3D s3cr3t%2f%2b%3d"
            ),
            "Not Found: /bot[redacted]/banChatMember, /bot[redacted]/x, [redacted], \
             secret [redacted] [redacted] [redacted]"
        );
        assert_eq!(redactor.redact("nothing secret"), "nothing secret");
    }

    #[test]
    fn empty_and_short_parts_are_not_secrets() {
        let redactor = Redactor::new(["", "1:short"]);
        assert_eq!(redactor.redact("1:short short"), "[redacted] short");
        assert_eq!(Redactor::default().redact("text"), "text");
        assert_eq!(format!("{redactor:?}"), "Redactor { forms: 3 }");
    }

    #[test]
    fn with_adds_secrets_and_keeps_the_earlier_ones() {
        let token = Redactor::new(["xoxb-1-2-token"]);
        let both = token.with(["hook-secret"]);
        assert_eq!(
            both.redact("xoxb-1-2-token hook-secret"),
            "[redacted] [redacted]"
        );
        assert_eq!(token.redact("hook-secret"), "hook-secret");
    }
}
