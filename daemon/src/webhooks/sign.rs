//! Standard Webhooks signing (standardwebhooks.com).
//!
//! `webhook-signature` is `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`.
//! The key is the base64-decoded part of a `whsec_<base64>` secret (the form
//! `POST /webhooks/secret` generates). A secret set through the config in
//! another form keeps working: its UTF-8 bytes are the key.
//!
//! While a rotation's overlap lasts, [`header`] carries one signature per
//! secret, space-separated, as the specification allows: a receiver still on
//! the old secret and one already on the new one both find theirs.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use hmac::{Hmac, Mac};
use sha2::Sha256;

/// The prefix of a secret in the Standard Webhooks form.
pub const SECRET_PREFIX: &str = "whsec_";

/// Bytes of key in a generated secret.
const GENERATED_KEY_BYTES: usize = 32;

/// A new `whsec_<base64>` secret with a random 32-byte key.
pub fn generate_secret() -> String {
    let mut key = zeroize::Zeroizing::new([0u8; GENERATED_KEY_BYTES]);
    getrandom::fill(key.as_mut()).expect("the OS random generator is available");
    format!("{SECRET_PREFIX}{}", STANDARD.encode(key.as_ref()))
}

/// The HMAC key of `secret`.
fn key_of(secret: &str) -> Vec<u8> {
    secret
        .strip_prefix(SECRET_PREFIX)
        .and_then(|b64| STANDARD.decode(b64).ok())
        .filter(|key| !key.is_empty())
        .unwrap_or_else(|| secret.as_bytes().to_vec())
}

/// The `webhook-signature` header of one delivery attempt.
pub fn signature(secret: &str, id: &str, timestamp: i64, body: &str) -> String {
    let mut mac =
        Hmac::<Sha256>::new_from_slice(&key_of(secret)).expect("HMAC takes a key of any length");
    // Fed piece by piece: `format!` would copy the whole body first.
    mac.update(id.as_bytes());
    mac.update(b".");
    mac.update(timestamp.to_string().as_bytes());
    mac.update(b".");
    mac.update(body.as_bytes());
    format!("v1,{}", STANDARD.encode(mac.finalize().into_bytes()))
}

/// The `webhook-signature` header signed with every one of `secrets`
/// (newest first), space-separated.
pub fn header(secrets: &[String], id: &str, timestamp: i64, body: &str) -> String {
    secrets
        .iter()
        .map(|secret| signature(secret, id, timestamp, body))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_header_carries_one_signature_per_secret() {
        let secrets = [
            "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw".to_owned(),
            "old secret here".to_owned(),
        ];
        let header = header(&secrets, "msg_1", 7, "{}");
        let parts: Vec<_> = header.split(' ').collect();
        assert_eq!(
            parts,
            [
                signature(&secrets[0], "msg_1", 7, "{}"),
                signature(&secrets[1], "msg_1", 7, "{}")
            ]
        );
        assert_ne!(parts[0], parts[1]);
    }

    /// The example of the Standard Webhooks specification.
    #[test]
    fn signs_the_specifications_example() {
        let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
        let id = "msg_p5jXN8AQM9LWM0D4loKWxJek";
        let body = r#"{"test": 2432232314}"#;
        assert_eq!(
            signature(secret, id, 1614265330, body),
            "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
        );
    }

    #[test]
    fn a_generated_secret_decodes_to_a_32_byte_key() {
        let secret = generate_secret();
        assert!(secret.starts_with(SECRET_PREFIX));
        assert_eq!(key_of(&secret).len(), 32);
        assert_ne!(generate_secret(), secret);
    }
}
