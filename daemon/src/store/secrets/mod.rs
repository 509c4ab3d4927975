//! Platform tokens and webhook signing secrets, sealed at rest.
//!
//! # Why it looks like this
//!
//! The daemon must be able to read these values back (it sends the bot token
//! with every platform call and signs webhook deliveries with the secret), so
//! they cannot be hashed like API key secrets. What must not happen is that a
//! copy of the database file (a backup, a file handed over for debugging)
//! gives away the bot of every connected community. So each value is
//! encrypted with a key that never enters the database: it comes from
//! [`KEY_ENV`] or from a key file beside the database (see [`KeySource`]).
//!
//! - **Cipher**: XChaCha20-Poly1305 (an AEAD: tampering is detected, not just
//!   hidden). Its 24-byte nonce is large enough to pick at random for every
//!   value without ever worrying about a repeat, so no nonce state is kept.
//! - **Bound to its row**: the associated data is the table, the column and
//!   the server id, so a sealed token copied into another server's row (or
//!   into the webhook secret column) does not unseal.
//! - **Versioned text**: a stored value is `v<N>:<payload>`, and only the
//!   prefix says how to read it: `v1:` is base64 of nonce, ciphertext and tag;
//!   `v0:` is plaintext left by a modctld from before sealing, marked by
//!   migration V4 so that nothing has to guess whether a value is sealed
//!   (a webhook secret may well look like `v1:...`). [`seal_plaintext_rows`]
//!   seals those when the store opens; the daemon never reads `v0:` values.
//! - **One key per database, checked at open** ([`key`]).
//!
//! Key material never reaches `Debug`, logs or error messages.

pub mod key;

use crate::store::Tx;
use std::sync::Arc;

use base64::Engine;
use base64::engine::general_purpose::STANDARD_NO_PAD;
use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{XChaCha20Poly1305, XNonce};
use rusqlite::params;
use zeroize::Zeroizing;

pub use key::{
    KEY_ENV, KeyError, KeyOrigin, KeySource, Unlocked, key_file_path, mark_scrubbed, unlock,
};

/// Key length in bytes.
const KEY_LEN: usize = 32;
/// Nonce length of XChaCha20-Poly1305.
const NONCE_LEN: usize = 24;
/// Authentication tag length.
const TAG_LEN: usize = 16;

/// Prefix of a value sealed with XChaCha20-Poly1305 and the database key.
const SEALED_V1: &str = "v1:";
/// Prefix migration V4 put on plaintext left by an older modctld.
const PLAINTEXT_V0: &str = "v0:";

/// The columns that hold sealed values; each is keyed by `server_id`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SecretField {
    /// `platform_connections.token`: a live connection's bot token.
    PlatformToken,
    /// `webhook_secrets.secret`: the webhook signing secret.
    WebhookSecret,
    /// `webhook_secrets.previous_secret`: the signing secret a rotation
    /// replaced, signing next to the new one for a day.
    PreviousWebhookSecret,
    /// `platform_connections.signing_secret`: a Slack app's signing secret,
    /// which verifies the Events API requests.
    SlackSigningSecret,
    /// `platform_connections.hook_secret`: the `secret_token` the daemon
    /// gave Telegram's `setWebhook`, which checks the webhook's requests.
    TelegramHookSecret,
    /// `platform_connections.user_token`: a Slack admin's user token, with
    /// which automod deletes members' messages (`chat.delete`).
    SlackUserToken,
}

impl SecretField {
    const ALL: [SecretField; 6] = [
        SecretField::PlatformToken,
        SecretField::WebhookSecret,
        SecretField::PreviousWebhookSecret,
        SecretField::SlackSigningSecret,
        SecretField::TelegramHookSecret,
        SecretField::SlackUserToken,
    ];

    fn table(self) -> &'static str {
        match self {
            SecretField::PlatformToken
            | SecretField::SlackSigningSecret
            | SecretField::TelegramHookSecret
            | SecretField::SlackUserToken => "platform_connections",
            SecretField::WebhookSecret | SecretField::PreviousWebhookSecret => "webhook_secrets",
        }
    }

    fn column(self) -> &'static str {
        match self {
            SecretField::PlatformToken => "token",
            SecretField::WebhookSecret => "secret",
            SecretField::PreviousWebhookSecret => "previous_secret",
            SecretField::SlackSigningSecret => "signing_secret",
            SecretField::TelegramHookSecret => "hook_secret",
            SecretField::SlackUserToken => "user_token",
        }
    }

    /// `table.column NUL server_id`: the NUL cannot occur in the fixed names,
    /// so no two (field, server) pairs share associated data.
    fn associated_data(self, server_id: &str) -> Vec<u8> {
        format!("{}.{}\0{server_id}", self.table(), self.column()).into_bytes()
    }
}

/// Why a stored value could not be unsealed. Never contains the value.
#[derive(Debug, thiserror::Error)]
pub enum UnsealError {
    /// A `v0:` value: plaintext that should have been sealed at open.
    #[error("it is still plaintext; restart modctld so that it seals it")]
    NotSealed,
    /// Not a format this version knows, or a damaged payload.
    #[error("it is not a value modctld sealed (unknown format or damaged)")]
    Malformed,
    /// The authentication failed: altered, or sealed for another row.
    #[error("it does not unseal with this database's key (altered, or copied from another row)")]
    Rejected,
}

/// Seals and unseals secret values with the database's key. Cheap to clone.
#[derive(Clone)]
pub struct Secrets {
    // The cipher holds the key (and wipes it on drop); shared, not copied.
    cipher: Arc<XChaCha20Poly1305>,
    origin: KeyOrigin,
}

impl std::fmt::Debug for Secrets {
    // Never prints key material.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Secrets")
            .field("origin", &self.origin)
            .finish_non_exhaustive()
    }
}

impl Secrets {
    fn new(key: &[u8; KEY_LEN], origin: KeyOrigin) -> Secrets {
        Secrets {
            cipher: Arc::new(XChaCha20Poly1305::new(key.into())),
            origin,
        }
    }

    /// Where the key came from.
    pub fn origin(&self) -> &KeyOrigin {
        &self.origin
    }

    /// Seals `plaintext` for `field` of `server_id`.
    pub fn seal(&self, field: SecretField, server_id: &str, plaintext: &str) -> String {
        self.seal_with(&field.associated_data(server_id), plaintext)
    }

    /// Unseals what [`Secrets::seal`] stored for `field` of `server_id`.
    pub fn unseal(
        &self,
        field: SecretField,
        server_id: &str,
        stored: &str,
    ) -> Result<String, UnsealError> {
        self.unseal_with(&field.associated_data(server_id), stored)
    }

    fn seal_with(&self, aad: &[u8], plaintext: &str) -> String {
        let mut nonce = [0u8; NONCE_LEN];
        getrandom::fill(&mut nonce).expect("the OS random generator is available");
        let nonce = XNonce::from(nonce);
        let ciphertext = self
            .cipher
            .encrypt(
                &nonce,
                Payload {
                    msg: plaintext.as_bytes(),
                    aad,
                },
            )
            .expect("sealing a short value cannot fail");
        let mut payload = Vec::with_capacity(NONCE_LEN + ciphertext.len());
        payload.extend_from_slice(&nonce);
        payload.extend_from_slice(&ciphertext);
        format!("{SEALED_V1}{}", STANDARD_NO_PAD.encode(payload))
    }

    fn unseal_with(&self, aad: &[u8], stored: &str) -> Result<String, UnsealError> {
        let Some(encoded) = stored.strip_prefix(SEALED_V1) else {
            return Err(if stored.starts_with(PLAINTEXT_V0) {
                UnsealError::NotSealed
            } else {
                UnsealError::Malformed
            });
        };
        let payload = STANDARD_NO_PAD
            .decode(encoded)
            .map_err(|_| UnsealError::Malformed)?;
        if payload.len() < NONCE_LEN + TAG_LEN {
            return Err(UnsealError::Malformed);
        }
        let (nonce, ciphertext) = payload.split_at(NONCE_LEN);
        // `split_at(NONCE_LEN)` above makes the length exact.
        let nonce = XNonce::from_slice(nonce);
        let plaintext = self
            .cipher
            .decrypt(
                nonce,
                Payload {
                    msg: ciphertext,
                    aad,
                },
            )
            .map_err(|_| UnsealError::Rejected)?;
        // Sealed from a `&str`, so valid UTF-8 unless forged, which the tag rules out.
        String::from_utf8(plaintext).map_err(|_| UnsealError::Malformed)
    }
}

/// Seals every `v0:` value (plaintext an older modctld left, marked by
/// migration V4) in place; returns how many. Idempotent: sealed values are
/// left alone.
pub fn seal_plaintext_rows(tx: &Tx<'_>, secrets: &Secrets) -> rusqlite::Result<usize> {
    let mut sealed = 0;
    for field in SecretField::ALL {
        let (table, column) = (field.table(), field.column());
        // SQLite engine only: sealing at open, on the raw connection.
        let rows = tx
            .sql
            .sqlite()
            .prepare(&format!(
                "SELECT server_id, {column} AS value FROM {table} WHERE substr({column}, 1, 3) = ?1"
            ))?
            .query_map([PLAINTEXT_V0], |row| {
                Ok((
                    row.get::<_, String>("server_id")?,
                    row.get::<_, String>("value")?,
                ))
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        for (server_id, value) in rows {
            let plaintext = Zeroizing::new(value);
            let plaintext = &plaintext[PLAINTEXT_V0.len()..];
            tx.sql.sqlite().execute(
                &format!("UPDATE {table} SET {column} = ?1 WHERE server_id = ?2"),
                params![secrets.seal(field, &server_id, plaintext), server_id],
            )?;
            sealed += 1;
        }
    }
    Ok(sealed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secrets() -> Secrets {
        let mut key = [0u8; KEY_LEN];
        getrandom::fill(&mut key).unwrap();
        Secrets::new(&key, KeyOrigin::Environment)
    }

    #[test]
    fn sealed_values_unseal_only_for_their_own_row_and_key() {
        let secrets = secrets();
        let sealed = secrets.seal(SecretField::PlatformToken, "123", "Bot.token.value");
        assert!(sealed.starts_with("v1:"), "{sealed}");
        assert!(!sealed.contains("token.value"));
        assert_eq!(
            secrets
                .unseal(SecretField::PlatformToken, "123", &sealed)
                .unwrap(),
            "Bot.token.value"
        );
        // Another server, another column, another key: all refused.
        for (field, server) in [
            (SecretField::PlatformToken, "124"),
            (SecretField::WebhookSecret, "123"),
        ] {
            assert!(matches!(
                secrets.unseal(field, server, &sealed),
                Err(UnsealError::Rejected)
            ));
        }
        assert!(matches!(
            self::secrets().unseal(SecretField::PlatformToken, "123", &sealed),
            Err(UnsealError::Rejected)
        ));
    }

    #[test]
    fn every_seal_uses_a_fresh_nonce() {
        let secrets = secrets();
        let a = secrets.seal(SecretField::WebhookSecret, "1", "same");
        let b = secrets.seal(SecretField::WebhookSecret, "1", "same");
        assert_ne!(a, b);
    }

    #[test]
    fn damaged_and_unsealed_values_are_refused() {
        let secrets = secrets();
        let sealed = secrets.seal(SecretField::WebhookSecret, "1", "secret");
        let mut flipped = sealed.clone().into_bytes();
        let last = flipped.len() - 2;
        flipped[last] = if flipped[last] == b'A' { b'B' } else { b'A' };
        let flipped = String::from_utf8(flipped).unwrap();
        for (stored, expected) in [
            (flipped.as_str(), "does not unseal"),
            ("v0:secret", "still plaintext"),
            ("secret", "not a value modctld sealed"),
            ("v1:AAAA", "not a value modctld sealed"),
            ("v2:whatever", "not a value modctld sealed"),
        ] {
            let err = secrets
                .unseal(SecretField::WebhookSecret, "1", stored)
                .unwrap_err();
            assert!(err.to_string().contains(expected), "{stored}: {err}");
        }
    }
}
