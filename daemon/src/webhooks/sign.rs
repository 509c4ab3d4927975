//! The daemon's side of Standard Webhooks signing: making secrets and
//! reading the stored ones into keys. Signing itself is
//! [`modctl_types::signing`], the code the SDK verifies with.

use modctl_types::signing::{self, SigningKey};

/// Bytes of key in a generated secret.
const GENERATED_KEY_BYTES: usize = 32;

/// A new `whsec_<base64>` secret with a random 32-byte key.
pub fn generate_secret() -> String {
    let mut key = zeroize::Zeroizing::new(vec![0u8; GENERATED_KEY_BYTES]);
    getrandom::fill(key.as_mut()).expect("the OS random generator is available");
    SigningKey::from_bytes(key.to_vec()).to_secret()
}

/// The keys of a server's stored secrets (newest first), read as the
/// reference libraries read them. A current secret they cannot read (stored
/// before secrets were checked when set) signs nothing: the delivery fails
/// with how to replace it, rather than going out with a signature no
/// receiver can check. A previous one they cannot read is left out.
pub fn keys(secrets: &[String]) -> Result<Vec<SigningKey>, String> {
    let mut keys = Vec::with_capacity(secrets.len());
    for (i, secret) in secrets.iter().enumerate() {
        match SigningKey::read_stored(secret) {
            Ok(key) => keys.push(key),
            Err(_) if i > 0 => {}
            Err(_) => {
                return Err(format!(
                    "the server's signing secret is not a Standard Webhooks secret (`{}` and base64), \
                     so no receiver could check its signatures: replace it with POST \
                     /servers/{{id}}/webhooks/secret (`modctl webhooks rotate-secret SERVER`)",
                    signing::PREFIX
                ));
            }
        }
    }
    if keys.is_empty() {
        return Err(
            "no signing secret is stored: create one with POST /servers/{id}/webhooks/secret"
                .into(),
        );
    }
    Ok(keys)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_generated_secret_is_one_the_api_takes() {
        let secret = generate_secret();
        assert!(SigningKey::parse(&secret).is_ok());
        assert_ne!(generate_secret(), secret);
    }

    #[test]
    fn an_unreadable_current_secret_signs_nothing_and_an_old_one_is_left_out() {
        let good = generate_secret();
        assert_eq!(
            keys(&[good.clone(), "old secret here".into()])
                .unwrap()
                .len(),
            1
        );
        let refused = keys(&["old secret here".into(), good]).unwrap_err();
        assert!(refused.contains("rotate-secret"), "{refused}");
        assert!(!refused.contains("old secret here"), "{refused}");
        assert!(keys(&[]).is_err());
    }
}
