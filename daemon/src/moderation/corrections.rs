//! Corrections of cases (issue #27): the rules a correction's words follow
//! before the store records it. Editing a reason, voiding a case and
//! clearing a member's strikes each need a reason, as an action's reason is
//! bounded: the audit trail keeps it whole, and Discord's audit log (the
//! bound of [`super::validate::MAX_REASON_CHARS`]) is where such reasons are
//! read beside the platform's own.

use super::ModerationError;
use super::validate::MAX_REASON_CHARS;

/// `reason` as a correction records it, trimmed: refused when it is empty
/// or only spaces (a correction says why), or longer than an action's
/// reason may be. `field` names it in the refusal (`reason`).
pub fn check_reason(field: &'static str, reason: &str) -> Result<String, ModerationError> {
    let trimmed = reason.trim();
    if trimmed.is_empty() {
        return Err(ModerationError::InvalidField {
            field,
            message: format!(
                "{field} must not be empty: say why, in 1 to {MAX_REASON_CHARS} characters"
            ),
        });
    }
    let length = trimmed.chars().count();
    if length > MAX_REASON_CHARS {
        return Err(ModerationError::InvalidField {
            field,
            message: format!(
                "{field} is too long: at most {MAX_REASON_CHARS} characters, got {length}"
            ),
        });
    }
    Ok(trimmed.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasons_are_trimmed_and_bounded() {
        let long = "x".repeat(MAX_REASON_CHARS);
        let too_long = "x".repeat(MAX_REASON_CHARS + 1);
        let cases: [(&str, Result<&str, &str>); 6] = [
            ("wrong member", Ok("wrong member")),
            ("  spaced out \n", Ok("spaced out")),
            (long.as_str(), Ok(long.as_str())),
            ("", Err("reason must not be empty")),
            ("   \t", Err("reason must not be empty")),
            (too_long.as_str(), Err("at most 512 characters, got 513")),
        ];
        for (input, expected) in cases {
            match (check_reason("reason", input), expected) {
                (Ok(got), Ok(want)) => assert_eq!(got, want, "{input:?}"),
                (Err(e), Err(want)) => assert!(e.to_string().contains(want), "{input:?}: {e}"),
                (got, want) => panic!("{input:?}: got {got:?}, want {want:?}"),
            }
        }
    }
}
