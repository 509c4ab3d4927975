//! Names beside ids (issue #27): how the CLI shows a member's name with
//! their id, and takes `@name` where a user id is expected.
//!
//! A table shows `name (id)` in the id's column; piped rows keep the id
//! column as it is and add the name in a column at the end, so scripts
//! that read the columns by position keep working. A name is the
//! platform's untrusted text: a tab or line break in it would break a
//! row, so it is shown with them as spaces whatever the daemon sent.
//!
//! `@alice` (a leading `@`) where a user id is expected is looked up with
//! `GET /servers/{id}/members?name=alice`: exactly one member of that name
//! must be known; several is a usage error (exit 2) listing each
//! `name (id)`, none a not-found (exit 5) with a hint to give the id.

use modctl_client::Client;
use modctl_types::moderation::KnownMember;

use crate::exit::{self, CliError, api_error};
use crate::words::Flag;

/// `name` with control characters (tabs, line breaks) as spaces.
pub fn clean(name: &str) -> String {
    name.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect::<String>()
        .trim()
        .to_owned()
}

/// `name (id)` when the name is known (and not empty), else the id.
pub fn named(id: &str, name: Option<&str>) -> String {
    match name.map(clean).filter(|n| !n.is_empty()) {
        Some(name) => format!("{name} ({id})"),
        None => id.to_owned(),
    }
}

/// The name column's cell of a piped row: the name, or empty when unknown.
pub fn name_cell(name: Option<&str>) -> String {
    name.map(clean).unwrap_or_default()
}

/// The user id `user` stands for on `server`: itself, or for `@name` the
/// one member known by that name.
pub async fn resolve_user(
    client: &Client,
    server: &str,
    user: &str,
    flags: &'static [Flag],
) -> Result<String, CliError> {
    Ok(resolve_member(client, server, user, flags).await?.0)
}

/// [`resolve_user`], with the member's name when `user` was an `@name`
/// (as the daemon knows it, e.g. `Alice` for `@alice`).
pub async fn resolve_member(
    client: &Client,
    server: &str,
    user: &str,
    flags: &'static [Flag],
) -> Result<(String, Option<String>), CliError> {
    let Some(name) = user.strip_prefix('@') else {
        return Ok((user.to_owned(), None));
    };
    if name.trim().is_empty() {
        return Err(CliError::usage(
            "`@` needs a name after it: `@alice`, or give the member's user id",
        ));
    }
    let found = client
        .members_named(server, name)
        .await
        .map_err(api_error(flags))?;
    pick(name, &found).map(|m| (m.user_id.clone(), Some(m.name.clone())))
}

/// The one member of `found` for `@name`, or the error that says why not.
pub fn pick<'a>(name: &str, found: &'a [KnownMember]) -> Result<&'a KnownMember, CliError> {
    match found {
        [one] => Ok(one),
        [] => Err(CliError::with_code(
            exit::NOT_FOUND,
            format!("no member called `@{}` is known on this server", clean(name)),
        )
        .hint(
            "the daemon knows the names it has seen in the platform's events; give the member's user id instead",
        )),
        many => {
            let listed: Vec<String> = many
                .iter()
                .map(|m| format!("  {}", named(&m.user_id, Some(&m.name))))
                .collect();
            Err(CliError::usage(format!(
                "`@{}` is ambiguous: {} members are called that:\n{}",
                clean(name),
                many.len(),
                listed.join("\n")
            ))
            .hint("give the user id of the one you mean"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn member(id: &str, name: &str) -> KnownMember {
        KnownMember {
            user_id: id.into(),
            name: name.into(),
        }
    }

    #[test]
    fn a_name_is_shown_beside_its_id_without_what_breaks_a_row() {
        for (id, name, shown) in [
            ("1", Some("alice"), "alice (1)"),
            ("1", None, "1"),
            ("1", Some(""), "1"),
            ("1", Some(" \t "), "1"),
            ("1", Some("a\tb\nc"), "a b c (1)"),
        ] {
            assert_eq!(named(id, name), shown, "{name:?}");
        }
        assert_eq!(name_cell(Some("x\ty\r\n")), "x y");
        assert_eq!(name_cell(None), "");
    }

    #[test]
    fn a_name_must_match_one_member() {
        let one = [member("1", "alice")];
        assert_eq!(pick("alice", &one).unwrap().user_id, "1");

        let none = pick("alice", &[]).unwrap_err();
        assert_eq!(none.code(), exit::NOT_FOUND);
        assert!(none.message().contains("@alice"), "{}", none.message());
        assert!(none.hint_text().unwrap().contains("user id"));

        let two = [member("1", "alice"), member("2", "Alice")];
        let ambiguous = pick("alice", &two).unwrap_err();
        assert_eq!(ambiguous.code(), exit::USAGE);
        let text = ambiguous.message();
        assert!(
            text.contains("alice (1)") && text.contains("Alice (2)"),
            "{text}"
        );
    }
}
