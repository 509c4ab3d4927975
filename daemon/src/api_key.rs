//! The API key format: `mdk_<key_id>_<secret>`.
//!
//! - `mdk` is the fixed prefix; it makes keys recognisable to secret scanners.
//! - `key_id` is 12 characters of `[a-z0-9]`. It is public: it names the key in
//!   listings and in case actors (`key:<key_id>`).
//! - `secret` is 40 characters of `[A-Za-z0-9]`, about 238 random bits from the
//!   OS generator. Only its SHA-256 is stored. A plain fast hash is the right
//!   tool here (as for GitHub and Stripe tokens): the secret has far too much
//!   entropy to brute-force, so a slow password hash would only cost latency on
//!   every request.
//!
//! Hash comparison is constant-time so response timing does not reveal how
//! much of a guessed secret matched.

use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use modctl_types::auth::{KEY_ID_ALPHABET, KEY_ID_LEN};

use crate::store::ids::{ALPHANUMERIC, random_string};
use crate::store::keys::Hashed;

/// The fixed prefix of every key.
pub const PREFIX: &str = "mdk";
const SECRET_LEN: usize = 40;
const SECRET_ALPHABET: &[u8] = ALPHANUMERIC;

/// A freshly generated key. The whole key is shown to the operator once and
/// then forgotten; only [`NewKey::secret_hash`] is stored.
#[derive(Clone)]
pub struct NewKey {
    /// The public id.
    pub key_id: String,
    /// The full key, `mdk_<key_id>_<secret>`.
    pub full: String,
    /// SHA-256 of the secret.
    pub secret_hash: [u8; 32],
}

impl std::fmt::Debug for NewKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NewKey")
            .field("key_id", &self.key_id)
            .finish_non_exhaustive()
    }
}

impl NewKey {
    /// What the store keeps of it: the id and the secret's hash.
    pub fn hashed(&self) -> Hashed<'_> {
        Hashed {
            key_id: &self.key_id,
            secret_hash: &self.secret_hash,
        }
    }
}

/// Generates a new random key.
pub fn generate() -> NewKey {
    let key_id = random_string(KEY_ID_ALPHABET, KEY_ID_LEN);
    let secret = random_string(SECRET_ALPHABET, SECRET_LEN);
    NewKey {
        full: format!("{PREFIX}_{key_id}_{secret}"),
        secret_hash: hash_secret(&secret),
        key_id,
    }
}

/// A key as presented by a caller, split into its parts. Holds the secret only
/// for as long as the request needs it.
pub struct PresentedKey<'a> {
    /// The public id.
    pub key_id: &'a str,
    secret: &'a str,
}

impl std::fmt::Debug for PresentedKey<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PresentedKey")
            .field("key_id", &self.key_id)
            .finish_non_exhaustive()
    }
}

impl<'a> PresentedKey<'a> {
    /// Splits `mdk_<key_id>_<secret>`; `None` when the shape is wrong.
    pub fn parse(key: &'a str) -> Option<Self> {
        let mut parts = key.split('_');
        let (prefix, key_id, secret) = (parts.next()?, parts.next()?, parts.next()?);
        let well_formed = parts.next().is_none()
            && prefix == PREFIX
            && is_key_id(key_id)
            && secret.len() == SECRET_LEN
            && secret.bytes().all(|b| SECRET_ALPHABET.contains(&b));
        well_formed.then_some(PresentedKey { key_id, secret })
    }

    /// Whether the secret matches the stored hash, compared in constant time.
    pub fn matches(&self, stored_hash: &[u8]) -> bool {
        hash_secret(self.secret).ct_eq(stored_hash).into()
    }
}

/// Whether `key_id` has the shape of a key id (for operator input).
pub use modctl_types::auth::is_key_id;

fn hash_secret(secret: &str) -> [u8; 32] {
    Sha256::digest(secret.as_bytes()).into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_keys_parse_and_verify() {
        let key = generate();
        let parsed = PresentedKey::parse(&key.full).expect("well formed");
        assert_eq!(parsed.key_id, key.key_id);
        assert!(parsed.matches(&key.secret_hash));
        assert!(!parsed.matches(&generate().secret_hash));
    }

    #[test]
    fn keys_are_unique() {
        assert_ne!(generate().full, generate().full);
    }

    #[test]
    fn malformed_keys_are_rejected() {
        let key = generate().full;
        for bad in [
            "",
            "mdk",
            "mdk__",
            &key.replacen("mdk", "sk", 1),
            &format!("{key}_extra"),
            &key[..key.len() - 1],
            &key.replace('_', "-"),
        ] {
            assert!(
                PresentedKey::parse(bad).is_none(),
                "{bad:?} should not parse"
            );
        }
    }
}
