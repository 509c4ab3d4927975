//! Standard Webhooks signatures (<https://www.standardwebhooks.com/>): the
//! one implementation the daemon signs with and the SDK verifies with.
//!
//! A secret is `whsec_` followed by the standard base64 (with `=` padding)
//! of its key; `webhook-signature` is `v1,<base64 HMAC-SHA256 of
//! "{webhook-id}.{webhook-timestamp}.{body}">`, several entries separated by
//! spaces. Keys are read the way the specification's reference libraries
//! read them (`Webhook::new` of the `standardwebhooks` crate and its
//! siblings: an optional `whsec_` prefix, then base64), so a receiver on any
//! of them accepts what the daemon signs.
//!
//! A secret **set** through the API must be a proper one ([`SigningKey::parse`]:
//! the prefix, and 24 to 64 bytes of key, the range the reference
//! libraries' generated secrets and the specification's recommendation
//! fall in). Secrets stored before that rule are read as the reference
//! libraries read them ([`SigningKey::read_stored`]).

use std::fmt;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use hmac::{Hmac, Mac};
use sha2::Sha256;

/// The prefix of a Standard Webhooks secret.
pub const PREFIX: &str = "whsec_";
/// The fewest bytes of key a secret set through the API may have.
pub const MIN_KEY_BYTES: usize = 24;
/// The most bytes of key a secret set through the API may have.
pub const MAX_KEY_BYTES: usize = 64;

/// Why a secret was refused. The messages never quote the secret.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SecretError {
    /// Not `whsec_` followed by base64.
    NotStandard,
    /// Base64 of a key shorter or longer than allowed: its length in bytes.
    KeyLength(usize),
}

impl fmt::Display for SecretError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SecretError::NotStandard => write!(
                f,
                "must be a Standard Webhooks secret: `{PREFIX}` followed by the base64 of {MIN_KEY_BYTES} to \
                 {MAX_KEY_BYTES} random bytes (`=` padding included)"
            )?,
            SecretError::KeyLength(n) => write!(
                f,
                "must have a key of {MIN_KEY_BYTES} to {MAX_KEY_BYTES} bytes, and its base64 decodes to {n}"
            )?,
        }
        write!(
            f,
            "; `modctl webhooks rotate-secret SERVER` makes one and sets it, or `echo {PREFIX}$(openssl rand -base64 32)` prints one"
        )
    }
}

impl std::error::Error for SecretError {}

/// The HMAC key of a secret. Its `Debug` never shows the key.
#[derive(Clone, PartialEq, Eq)]
pub struct SigningKey(Vec<u8>);

impl fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SigningKey(<redacted>)")
    }
}

impl SigningKey {
    /// A secret as the API takes it: `whsec_` and the base64 of 24 to 64
    /// bytes.
    ///
    /// ```
    /// use modctl_types::signing::SigningKey;
    /// assert!(SigningKey::parse("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw").is_ok());
    /// assert!(SigningKey::parse("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw").is_err());
    /// assert!(SigningKey::parse("whsec_c2hvcnQ=").is_err());
    /// ```
    pub fn parse(secret: &str) -> Result<SigningKey, SecretError> {
        let key = secret
            .strip_prefix(PREFIX)
            .and_then(|b64| STANDARD.decode(b64).ok())
            .ok_or(SecretError::NotStandard)?;
        if !(MIN_KEY_BYTES..=MAX_KEY_BYTES).contains(&key.len()) {
            return Err(SecretError::KeyLength(key.len()));
        }
        Ok(SigningKey(key))
    }

    /// A secret as the reference libraries read one (an optional `whsec_`,
    /// then base64 of at least one byte): how secrets stored before
    /// [`SigningKey::parse`] was enforced, and secrets given to
    /// [`verify`](crate::signing::SigningKey::verify), are read.
    pub fn read_stored(secret: &str) -> Result<SigningKey, SecretError> {
        STANDARD
            .decode(secret.strip_prefix(PREFIX).unwrap_or(secret))
            .ok()
            .filter(|key| !key.is_empty())
            .map(SigningKey)
            .ok_or(SecretError::NotStandard)
    }

    /// A key of these bytes (e.g. freshly generated).
    pub fn from_bytes(key: Vec<u8>) -> SigningKey {
        SigningKey(key)
    }

    /// The key as a secret, `whsec_<base64>`.
    pub fn to_secret(&self) -> String {
        format!("{PREFIX}{}", STANDARD.encode(&self.0))
    }

    fn mac(&self, id: &str, timestamp: i64, body: &[u8]) -> Hmac<Sha256> {
        let mut mac =
            Hmac::<Sha256>::new_from_slice(&self.0).expect("HMAC takes a key of any length");
        // Fed piece by piece: formatting would copy the whole body first.
        mac.update(id.as_bytes());
        mac.update(b".");
        mac.update(timestamp.to_string().as_bytes());
        mac.update(b".");
        mac.update(body);
        mac
    }

    /// One `v1,<base64>` entry of `webhook-signature`.
    ///
    /// ```
    /// // The example of the Standard Webhooks specification.
    /// use modctl_types::signing::SigningKey;
    /// let key = SigningKey::read_stored("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw").unwrap();
    /// assert_eq!(
    ///     key.sign("msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, br#"{"test": 2432232314}"#),
    ///     "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
    /// );
    /// ```
    pub fn sign(&self, id: &str, timestamp: i64, body: &[u8]) -> String {
        let tag = self.mac(id, timestamp, body).finalize().into_bytes();
        format!("v1,{}", STANDARD.encode(tag))
    }

    /// Whether one `v1,` entry of `signatures` (a `webhook-signature`
    /// header) is this key's signature of `id`, `timestamp` and `body`,
    /// compared in constant time.
    pub fn verify(&self, id: &str, timestamp: i64, body: &[u8], signatures: &str) -> bool {
        let expected = self.mac(id, timestamp, body).finalize().into_bytes();
        signatures.split(' ').any(|entry| {
            // An empty `v1,` must never match: it decodes to no bytes.
            entry
                .strip_prefix("v1,")
                .and_then(|sig| STANDARD.decode(sig).ok())
                .is_some_and(|sig| {
                    use subtle::ConstantTimeEq;
                    sig.len() == expected.len() && bool::from(sig.ct_eq(&expected))
                })
        })
    }
}

/// The `webhook-signature` header signed with every one of `keys` (newest
/// first), space-separated: while a rotation's overlap lasts, a receiver on
/// the old secret and one already on the new one both find theirs.
pub fn header(keys: &[SigningKey], id: &str, timestamp: i64, body: &[u8]) -> String {
    keys.iter()
        .map(|key| key.sign(id, timestamp, body))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_standard_secrets_of_24_to_64_bytes_are_taken() {
        let of = |n: usize| format!("{PREFIX}{}", STANDARD.encode(vec![7u8; n]));
        assert_eq!(SigningKey::parse(&of(23)), Err(SecretError::KeyLength(23)));
        assert!(SigningKey::parse(&of(24)).is_ok());
        assert!(SigningKey::parse(&of(64)).is_ok());
        assert_eq!(SigningKey::parse(&of(65)), Err(SecretError::KeyLength(65)));
        for bad in [
            "a plain passphrase of some length",
            "whsec_not base64 at all!!!!!!!!!!!!!!",
            "",
        ] {
            assert_eq!(
                SigningKey::parse(bad),
                Err(SecretError::NotStandard),
                "{bad}"
            );
        }
        assert_eq!(SigningKey::parse("whsec_"), Err(SecretError::KeyLength(0)));
        // The message tells how to make one and never quotes the secret.
        let message = SecretError::NotStandard.to_string();
        assert!(message.contains("rotate-secret"), "{message}");
    }

    #[test]
    fn stored_secrets_are_read_as_the_reference_libraries_read_them() {
        let key = SigningKey::read_stored("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw").unwrap();
        assert_eq!(
            key,
            SigningKey::read_stored("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw").unwrap()
        );
        assert!(SigningKey::read_stored("old secret here").is_err());
        assert!(SigningKey::read_stored("whsec_").is_err());
    }

    #[test]
    fn a_header_carries_one_signature_per_key_and_each_verifies() {
        let new = SigningKey::from_bytes(vec![1; 32]);
        let old = SigningKey::from_bytes(vec![2; 32]);
        let header = header(&[new.clone(), old.clone()], "msg_1", 7, b"{}");
        assert_eq!(header.split(' ').count(), 2);
        assert!(new.verify("msg_1", 7, b"{}", &header));
        assert!(old.verify("msg_1", 7, b"{}", &header));
        assert!(!new.verify("msg_1", 8, b"{}", &header));
        assert!(!SigningKey::from_bytes(vec![3; 32]).verify("msg_1", 7, b"{}", &header));
        assert!(!new.verify("msg_1", 7, b"{}", "v1,"));
        assert_eq!(format!("{new:?}"), "SigningKey(<redacted>)");
    }
}
