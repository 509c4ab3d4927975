//! Claiming a server for a team: the rules a claim follows. The store
//! records it ([`crate::store::servers::insert`]); what may be claimed, by
//! whom and how many is decided here, so the store holds no plan rule.

use modctl_types::{Platform, Server};

use crate::plans::{self, PlanLimit};
use crate::store::{StoreError, Tx, servers, teams};

/// The longest server name, in characters.
const MAX_NAME_LEN: usize = 100;

/// Why a claim was refused.
#[derive(Debug, thiserror::Error)]
pub enum ClaimError {
    /// The id or name is not one the platform or we accept; says what to fix.
    #[error("{0}")]
    Invalid(String),
    /// Another team (or this one) has the server already.
    #[error("{0}")]
    Conflict(String),
    /// The team's plan allows no more servers.
    #[error(transparent)]
    Plan(#[from] PlanLimit),
    /// The store failed, or the team does not exist.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Claims `id` for `team_id` at `now` (unix seconds): the id has the
/// platform's shape, the name 1 to 100 characters (trimmed), the server is
/// nobody's yet (a server is claimed by at most one team) and the team's plan
/// allows one more.
pub fn claim(
    tx: &Tx<'_>,
    team_id: i64,
    platform: Platform,
    id: &str,
    name: &str,
    now: i64,
) -> Result<Server, ClaimError> {
    platform
        .validate_server_id(id)
        .map_err(ClaimError::Invalid)?;
    let name = name.trim();
    if name.is_empty() || name.chars().count() > MAX_NAME_LEN {
        return Err(ClaimError::Invalid(format!(
            "invalid server name: use 1 to {MAX_NAME_LEN} characters"
        )));
    }
    if servers::find(tx, id)?.is_some() {
        return Err(ClaimError::Conflict(format!(
            "server `{id}` is already claimed"
        )));
    }
    let team = teams::get(tx, team_id)?;
    plans::check_servers(&team, servers::count_for_team(tx, team_id)?)?;
    Ok(servers::insert(tx, team_id, platform, id, name, now)?)
}

#[cfg(test)]
mod tests {
    use modctl_types::Plan;

    use super::*;
    use crate::store::Store;

    const GUILD: &str = "100000000000000001";

    async fn store() -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().join("db")).await.unwrap();
        (dir, store)
    }

    #[tokio::test]
    async fn a_claim_follows_the_shape_the_owner_and_the_plan() {
        let (_dir, store) = store().await;
        let outcome = store
            .write(|tx| {
                let team = teams::create(tx, "t", Plan::Free, 0)?;
                let other = teams::create(tx, "u", Plan::Free, 0)?;
                let bad_id = claim(tx, team.id, Platform::Discord, "abc", "a", 0);
                let bad_name = claim(tx, team.id, Platform::Discord, GUILD, "  ", 0);
                let claimed = claim(tx, team.id, Platform::Discord, GUILD, " a ", 5)?;
                let again = claim(tx, other.id, Platform::Discord, GUILD, "b", 0);
                let mut limited = None;
                for i in 2..10 {
                    let id = format!("10000000000000000{i}");
                    if let Err(e) = claim(tx, team.id, Platform::Discord, &id, "x", 0) {
                        limited = Some(e);
                        break;
                    }
                }
                Ok::<_, ClaimError>((bad_id, bad_name, claimed, again, limited))
            })
            .await
            .unwrap();
        let (bad_id, bad_name, claimed, again, limited) = outcome;
        assert!(matches!(bad_id, Err(ClaimError::Invalid(_))), "{bad_id:?}");
        assert!(
            matches!(&bad_name, Err(ClaimError::Invalid(m)) if m.contains("1 to 100")),
            "{bad_name:?}"
        );
        assert_eq!(
            (claimed.name.as_str(), claimed.claimed_at.as_second()),
            ("a", 5)
        );
        assert!(
            matches!(&again, Err(ClaimError::Conflict(m)) if m.contains(GUILD)),
            "{again:?}"
        );
        assert!(
            matches!(limited, Some(ClaimError::Plan(_))),
            "the free plan stops claims: {limited:?}"
        );
    }
}
