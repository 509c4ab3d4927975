//! Discord's rules for who may act on whom: role positions and permissions.
//!
//! The daemon checks them before calling Discord, so a refusal names its
//! reason and no doomed request is sent; the simulator enforces the same
//! function, standing in for Discord's own check.

/// `ADMINISTRATOR`: every permission, and cannot be timed out.
pub const ADMINISTRATOR: u64 = 1 << 3;
/// `KICK_MEMBERS`.
pub const KICK_MEMBERS: u64 = 1 << 1;
/// `BAN_MEMBERS`.
pub const BAN_MEMBERS: u64 = 1 << 2;
/// `MANAGE_ROLES`.
pub const MANAGE_ROLES: u64 = 1 << 28;
/// `MODERATE_MEMBERS` (timeouts).
pub const MODERATE_MEMBERS: u64 = 1 << 40;

/// A role.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Role {
    /// Role id; the `@everyone` role's id is the guild's id.
    pub id: String,
    /// Position; higher is more powerful.
    pub position: i64,
    /// Permission bits.
    pub permissions: u64,
    /// Managed by an integration (a bot's own role, the server booster
    /// role, a subscription's): only Discord gives and takes it.
    pub managed: bool,
}

/// A member and their role ids.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    /// User id.
    pub user_id: String,
    /// Role ids (without `@everyone`).
    pub roles: Vec<String>,
}

/// What the check needs to know about a guild.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hierarchy {
    /// The guild id, which is also the `@everyone` role's id.
    pub guild_id: String,
    /// The owner's user id.
    pub owner_id: String,
    /// Every role.
    pub roles: Vec<Role>,
    /// The bot's member.
    pub bot: Member,
    /// The target's member; `None` when they are not in the guild.
    pub target: Option<Member>,
}

/// The kind of act to check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Act<'a> {
    /// A timeout.
    Timeout,
    /// A kick.
    Kick,
    /// A ban.
    Ban,
    /// Lifting a ban.
    Unban,
    /// Changing the target's roles, e.g. to jail them with `jail_role`.
    ChangeRoles {
        /// A role the bot will give.
        granting: Option<&'a str>,
    },
}

impl Hierarchy {
    /// Whether `user` is the guild's owner or the target whose highest role
    /// is at or above the bot's (whom the bot could not act on): automod
    /// never filters them ([`super::RankMember`]).
    pub fn outranks_bot(&self, user: &str) -> bool {
        if self.owner_id == user {
            return true;
        }
        let highest = |roles: &[String]| {
            roles
                .iter()
                .filter_map(|id| self.role(id))
                .map(|r| r.position)
                .max()
                .unwrap_or(0)
        };
        self.target
            .as_ref()
            .is_some_and(|t| t.user_id == user && highest(&t.roles) >= highest(&self.bot.roles))
    }

    fn role(&self, id: &str) -> Option<&Role> {
        self.roles.iter().find(|r| r.id == id)
    }

    fn permissions(&self, member: &Member) -> u64 {
        member
            .roles
            .iter()
            .map(String::as_str)
            .chain(std::iter::once(self.guild_id.as_str()))
            .filter_map(|id| self.role(id))
            .fold(0, |bits, role| bits | role.permissions)
    }

    fn highest(&self, member: &Member) -> i64 {
        member
            .roles
            .iter()
            .filter_map(|id| self.role(id))
            .map(|r| r.position)
            .max()
            .unwrap_or(0)
    }

    /// The roles `member` holds.
    pub fn roles_of(&self, user_id: &str) -> Option<&[String]> {
        self.target
            .as_ref()
            .filter(|t| t.user_id == user_id)
            .map(|t| t.roles.as_slice())
    }

    /// Whether the bot may give `role` to a member or take it away. Discord
    /// refuses both for a role an integration manages (the role object's
    /// `managed`, discord-docs/permissions.mdx "Role Object"; answered `50028
    /// Invalid Role`) and for a role at or above the bot's highest
    /// ("Permission Hierarchy": "A bot can grant roles to other users that
    /// are of a lower position than its own highest role"); the owner is
    /// above the hierarchy, not above `managed`. An unknown role (deleted
    /// since) cannot be given either.
    pub fn bot_may_assign(&self, role: &str) -> bool {
        self.role(role).is_some_and(|r| {
            !r.managed
                && r.id != self.guild_id
                && (self.bot.user_id == self.owner_id || r.position < self.highest(&self.bot))
        })
    }

    /// Whether the bot may do `act` to the target; `Err` names the reason.
    pub fn check(&self, act: Act<'_>) -> Result<(), String> {
        let (needed, name) = match act {
            Act::Timeout => (MODERATE_MEMBERS, "Moderate Members"),
            Act::Kick => (KICK_MEMBERS, "Kick Members"),
            Act::Ban | Act::Unban => (BAN_MEMBERS, "Ban Members"),
            Act::ChangeRoles { .. } => (MANAGE_ROLES, "Manage Roles"),
        };
        let bot_permissions = self.permissions(&self.bot);
        if bot_permissions & ADMINISTRATOR == 0 && bot_permissions & needed == 0 {
            return Err(format!("the bot lacks the {name} permission"));
        }
        if act == Act::Unban {
            return Ok(());
        }
        let Some(target) = &self.target else {
            return match act {
                Act::Ban => Ok(()),
                _ => Err("the user is not a member of this server".to_owned()),
            };
        };
        if target.user_id == self.owner_id {
            return Err("the target is the server owner".to_owned());
        }
        if act == Act::Timeout && self.permissions(target) & ADMINISTRATOR != 0 {
            return Err("administrators cannot be timed out".to_owned());
        }
        let bot_highest = self.highest(&self.bot);
        if bot_highest <= self.highest(target) {
            return Err("bot's highest role is below the target's".to_owned());
        }
        if let Act::ChangeRoles {
            granting: Some(role),
        } = act
            && self.role(role).is_some_and(|r| r.position >= bot_highest)
        {
            return Err("the jail role is not below the bot's highest role".to_owned());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn guild(bot_roles: &[&str], target_roles: &[&str]) -> Hierarchy {
        Hierarchy {
            guild_id: "g".into(),
            owner_id: "owner".into(),
            roles: vec![
                Role {
                    id: "g".into(),
                    position: 0,
                    permissions: 0,
                    managed: false,
                },
                Role {
                    id: "mod".into(),
                    position: 5,
                    permissions: KICK_MEMBERS | BAN_MEMBERS | MODERATE_MEMBERS | MANAGE_ROLES,
                    managed: false,
                },
                Role {
                    id: "member".into(),
                    position: 1,
                    permissions: 0,
                    managed: false,
                },
                Role {
                    id: "admin".into(),
                    position: 9,
                    permissions: ADMINISTRATOR,
                    managed: false,
                },
                Role {
                    id: "jail".into(),
                    position: 2,
                    permissions: 0,
                    managed: false,
                },
            ],
            bot: Member {
                user_id: "bot".into(),
                roles: bot_roles.iter().map(|r| r.to_string()).collect(),
            },
            target: Some(Member {
                user_id: "t".into(),
                roles: target_roles.iter().map(|r| r.to_string()).collect(),
            }),
        }
    }

    #[test]
    fn automod_spares_the_owner_and_members_at_or_above_the_bot() {
        // (bot's roles, target's roles, user asked about) -> spared
        let table: [(&[&str], &[&str], &str, bool); 7] = [
            (&["mod"], &["member"], "t", false),
            (&["mod"], &[], "t", false),
            (&["mod"], &["mod"], "t", true),
            (&["mod"], &["admin"], "t", true),
            (&["mod"], &["member"], "owner", true),
            // No roles on either side: level, as Discord ranks them.
            (&[], &[], "t", true),
            // Someone else than the member read: not spared on their rank.
            (&["mod"], &["admin"], "other", false),
        ];
        for (bot, target, user, spared) in table {
            assert_eq!(
                guild(bot, target).outranks_bot(user),
                spared,
                "{bot:?} {target:?} {user}"
            );
        }
        let mut gone = guild(&["mod"], &["admin"]);
        gone.target = None;
        assert!(!gone.outranks_bot("t"));
    }

    #[test]
    fn a_bot_above_the_target_with_the_permission_may_act() {
        let h = guild(&["mod"], &["member"]);
        for act in [
            Act::Timeout,
            Act::Kick,
            Act::Ban,
            Act::Unban,
            Act::ChangeRoles {
                granting: Some("jail"),
            },
        ] {
            assert_eq!(h.check(act), Ok(()), "{act:?}");
        }
    }

    #[test]
    fn refusals_name_their_reason() {
        assert_eq!(
            guild(&["member"], &[]).check(Act::Kick),
            Err("the bot lacks the Kick Members permission".into())
        );
        assert_eq!(
            guild(&["mod"], &["mod"]).check(Act::Ban),
            Err("bot's highest role is below the target's".into())
        );
        assert_eq!(
            guild(&["admin"], &["admin"]).check(Act::Timeout),
            Err("administrators cannot be timed out".into())
        );
        let mut owner = guild(&["admin"], &[]);
        owner.target.as_mut().unwrap().user_id = "owner".into();
        assert_eq!(
            owner.check(Act::Kick),
            Err("the target is the server owner".into())
        );
        let mut absent = guild(&["mod"], &[]);
        absent.target = None;
        assert_eq!(
            absent.check(Act::Timeout),
            Err("the user is not a member of this server".into())
        );
        assert_eq!(absent.check(Act::Ban), Ok(()));
    }

    #[test]
    fn the_bot_assigns_only_unmanaged_roles_below_its_highest() {
        let mut h = guild(&["mod"], &["member"]);
        h.roles.push(Role {
            id: "booster".into(),
            position: 1,
            permissions: 0,
            managed: true,
        });
        assert!(h.bot_may_assign("member"));
        assert!(h.bot_may_assign("jail"));
        assert!(!h.bot_may_assign("booster"), "managed");
        assert!(!h.bot_may_assign("mod"), "the bot's own highest");
        assert!(!h.bot_may_assign("admin"), "above the bot");
        assert!(!h.bot_may_assign("gone"), "unknown");
        h.owner_id = "bot".into();
        assert!(h.bot_may_assign("admin"));
        assert!(!h.bot_may_assign("booster"));
    }
}
