//! `modctld server ...`: claiming servers and connecting them to their
//! platform (a bot token, never from the command line, or the simulator).

use anyhow::Context;

use super::{ServerCommand, demo, print_rows};
use crate::store::connections::{self, ConnectionMode};
use crate::store::receivers::{self, Receiving};
use crate::store::{Store, StoreError, servers, teams};

pub(super) async fn server(store: Store, command: ServerCommand) -> anyhow::Result<()> {
    match command {
        ServerCommand::Claim {
            team,
            platform,
            id,
            name,
        } => {
            let team_name = team.clone();
            let server = store
                .write(move |tx| {
                    let team = teams::get_by_name(tx, &team)?;
                    crate::servers::claim(tx, team.id, platform, &id, &name, super::now())
                })
                .await
                .map_err(|e| match e {
                    crate::servers::ClaimError::Store(e) => {
                        super::accounts::no_team_hint(&team_name)(e)
                    }
                    e => e.into(),
                })?;
            eprintln!(
                "team {team_name} claimed {} server {} ({})",
                server.platform, server.id, server.name
            );
        }
        ServerCommand::List => {
            let secrets = store.secrets().clone();
            let rows = store
                .read(move |tx| {
                    let rows = servers::list_all(tx)?;
                    rows.into_iter()
                        .map(|(team, server)| {
                            let connection =
                                match connections::get(tx, &secrets, &server.id)?.map(|c| c.mode) {
                                    Some(ConnectionMode::Live { .. }) => "live",
                                    Some(ConnectionMode::Simulated) => "simulated",
                                    None => "none",
                                };
                            Ok((team, server, connection))
                        })
                        .collect::<Result<Vec<_>, StoreError>>()
                })
                .await?;
            print_rows(
                &["ID", "PLATFORM", "TEAM", "NAME", "CLAIMED AT", "CONNECTION"],
                rows.iter().map(|(team, s, connection)| {
                    vec![
                        s.id.clone(),
                        s.platform.to_string(),
                        team.clone(),
                        s.name.clone(),
                        s.claimed_at.to_string(),
                        (*connection).to_owned(),
                    ]
                }),
            );
        }
        ServerCommand::Connect {
            server_id,
            platform_token_env,
            platform_token_stdin: _,
            simulated,
            api_base,
            signing_secret_env,
            telegram_webhook_url,
            user_token_env,
        } => {
            let receiving = receiving(signing_secret_env, telegram_webhook_url)?;
            let user_token = user_token_env
                .map(|var| {
                    std::env::var(&var)
                        .ok()
                        .map(|t| t.trim().to_owned())
                        .filter(|t| !t.is_empty())
                        .with_context(|| format!("environment variable {var} is not set or empty"))
                })
                .transpose()?;
            let mode = if simulated {
                ConnectionMode::Simulated
            } else {
                let token = match platform_token_env {
                    Some(var) => std::env::var(&var)
                        .ok()
                        .filter(|t| !t.trim().is_empty())
                        .with_context(|| {
                            format!("environment variable {var} is not set or empty")
                        })?,
                    None => read_token_from_stdin()?,
                };
                if let Some(base) = &api_base
                    && !(base.starts_with("https://") || base.starts_with("http://"))
                {
                    anyhow::bail!("--api-base must be an http:// or https:// URL");
                }
                ConnectionMode::Live {
                    token: token.trim().to_owned(),
                    api_base,
                }
            };
            // Telegram: the group must be a supergroup, and one upgraded
            // since it was claimed is followed to its new chat id.
            let telegram_chat = match &mode {
                ConnectionMode::Live { token, api_base } => {
                    let id = server_id.clone();
                    let secrets = store.secrets().clone();
                    let found = store
                        .read(move |tx| {
                            let Some(record) = servers::find(tx, &id)? else {
                                return Ok::<_, StoreError>(None);
                            };
                            let chat = connections::get(tx, &secrets, &id)
                                .ok()
                                .flatten()
                                .and_then(|c| c.telegram_chat_id);
                            Ok(Some((record.server.platform, chat)))
                        })
                        .await?;
                    match found {
                        Some((modctl_types::Platform::Telegram, stored)) => {
                            check_telegram_group(&server_id, stored, token, api_base).await?
                        }
                        _ => None,
                    }
                }
                ConnectionMode::Simulated => None,
            };
            let id = server_id.clone();
            let secrets = store.secrets().clone();
            let hint_receiving = receiving.clone();
            let platform = store
                .write(move |tx| {
                    let record = servers::find(tx, &id)?.ok_or_else(|| {
                        StoreError::NotFound(format!(
                            "server `{id}` is not claimed: claim it with `modctld server claim`"
                        ))
                    })?;
                    let simulated = mode == ConnectionMode::Simulated;
                    check_receiving(record.server.platform, &receiving)?;
                    if user_token.is_some()
                        && record.server.platform != modctl_types::Platform::Slack
                    {
                        return Err(StoreError::Invalid(format!(
                            "--user-token-env is for Slack workspaces; server `{id}` is on {}",
                            record.server.platform
                        )));
                    }
                    let connection = connections::Connection {
                        user_token,
                        ..connections::Connection::new(mode)
                    };
                    connections::set(tx, &secrets, &id, &connection, super::now())?;
                    receivers::set_receiving(tx, &secrets, &id, &receiving)?;
                    if let Some(chat) = &telegram_chat {
                        connections::set_telegram_chat_id(tx, &id, chat.as_deref())?;
                    }
                    // Telegram: the bot's other groups and the webhook that
                    // serves them all, if any (one per bot).
                    let bot = if simulated
                        || record.server.platform != modctl_types::Platform::Telegram
                    {
                        None
                    } else {
                        let live = receivers::live_connections(tx, &secrets)?;
                        live.iter().find(|c| c.server_id == id).map(|me| {
                            let groups: Vec<_> = live
                                .iter()
                                .filter(|c| {
                                    c.platform == record.server.platform
                                        && c.token == me.token
                                        && c.api_base == me.api_base
                                })
                                .cloned()
                                .collect();
                            let others: Vec<String> = groups
                                .iter()
                                .filter(|c| c.server_id != id)
                                .map(|c| c.server_id.clone())
                                .collect();
                            let hook = crate::receive::webhook_of(&groups).and_then(|c| {
                                let base = c.receiving.hook_url.as_deref()?;
                                Some(crate::receive::hooks::telegram_hook_url(base, &c.server_id))
                            });
                            TelegramBot { others, hook }
                        })
                    };
                    if simulated && !crate::platform::simulator::has_community(tx, &id)? {
                        crate::platform::simulator::seed(
                            tx,
                            &id,
                            &demo::community(record.server.platform),
                        )?;
                    }
                    Ok::<_, StoreError>((record.server.platform, bot))
                })
                .await?;
            let (platform, bot) = platform;
            let how = if simulated {
                "the simulator"
            } else {
                "the platform API"
            };
            eprintln!("connected {platform} server {server_id} to {how}");
            if !simulated {
                let hint = match bot {
                    Some(bot) => telegram_hint(&bot),
                    None => activity_hint(platform, &server_id, &hint_receiving),
                };
                eprintln!("activity: {hint}");
            }
        }
    }
    Ok(())
}

/// Checks with `getChat` that Telegram group `server_id` (at `stored`, the
/// chat id recorded for it, if any) is a supergroup, following an upgrade
/// to one; returns the chat id to record (`Some(None)`: the server id
/// itself), or `None` to keep what is stored when Telegram could not be
/// asked (the onboarding checklist asks again). Refuses a basic group, a
/// channel or private chat, a chat the bot cannot see and a refused token,
/// saying what to do.
async fn check_telegram_group(
    server_id: &str,
    stored: Option<String>,
    token: &str,
    api_base: &Option<String>,
) -> anyhow::Result<Option<Option<String>>> {
    use crate::platform::telegram::{ChatKind, Telegram};
    use crate::platform::{PlatformClients, PlatformError, RetryPolicy};
    let clients = PlatformClients::new(RetryPolicy::default(), crate::clock::Clock::system());
    let mut chat = stored.unwrap_or_else(|| server_id.to_owned());
    // A group is upgraded once; a second `migrate_to_chat_id` would be a loop.
    for _ in 0..2 {
        let telegram = Telegram::new(clients.clone(), api_base.clone(), token.to_owned(), &chat);
        match telegram.chat_kind().await {
            Ok(ChatKind::Supergroup) => return Ok(Some((chat != server_id).then_some(chat))),
            Ok(ChatKind::MigratedTo(to)) => {
                eprintln!(
                    "Telegram group {chat} was upgraded to supergroup {to}: server {server_id} keeps its id and history, and the daemon calls Telegram with {to}"
                );
                chat = to.to_string();
            }
            Ok(ChatKind::BasicGroup) => anyhow::bail!(
                "Telegram group {chat} is a basic group: Telegram lets bots restrict members (timeout, jail) and lift bans only in supergroups. \
                 Upgrade it (in Telegram, the group's settings: make the chat history visible to new members, or give the group a public link; \
                 Telegram turns it into a supergroup), then connect {server_id} again: the daemon follows the upgrade to the supergroup's new id, \
                 and the server keeps its id and history"
            ),
            Ok(ChatKind::Other(kind)) => anyhow::bail!(
                "Telegram chat {chat} is a {kind}, not a group: claim and connect the id of the group (a supergroup's id starts with -100)"
            ),
            Err(PlatformError::NotFound(message)) => anyhow::bail!(
                "Telegram does not show chat {chat} to this bot ({message}): add the bot to the group as an administrator, check the id (a supergroup's starts with -100), and connect again"
            ),
            Err(PlatformError::Unauthorized) => anyhow::bail!(
                "Telegram refused the bot token: copy it again from @BotFather and connect again"
            ),
            Err(PlatformError::Forbidden(message)) => anyhow::bail!(
                "Telegram refused the bot access to chat {chat} ({message}): add the bot to the group as an administrator and connect again"
            ),
            Err(error) => {
                eprintln!(
                    "warning: could not check Telegram group {chat} with getChat ({error}); connected anyway: the onboarding checklist (`GET /api/v1/servers/{server_id}/onboarding`) checks it"
                );
                return Ok(None);
            }
        }
    }
    anyhow::bail!(
        "Telegram group {server_id} answers with one upgrade after another; connect it again later"
    )
}

/// How the connection receives events, from the command line.
fn receiving(
    signing_secret_env: Option<String>,
    telegram_webhook_url: Option<String>,
) -> anyhow::Result<Receiving> {
    let signing_secret = signing_secret_env
        .map(|var| {
            std::env::var(&var)
                .ok()
                .map(|s| s.trim().to_owned())
                .filter(|s| !s.is_empty())
                .with_context(|| format!("environment variable {var} is not set or empty"))
        })
        .transpose()?;
    let telegram_webhook_url = telegram_webhook_url
        .map(|url| crate::receive::hooks::check_telegram_webhook_base(&url))
        .transpose()
        .map_err(anyhow::Error::msg)?;
    let hook_secret = telegram_webhook_url.as_ref().map(|_| {
        // Telegram allows A-Z, a-z, 0-9, `_` and `-`: hex fits.
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes).expect("the system's random source works");
        bytes.iter().map(|b| format!("{b:02x}")).collect::<String>()
    });
    Ok(Receiving {
        signing_secret,
        hook_url: telegram_webhook_url,
        hook_secret,
    })
}

/// A Telegram group's bot as the receivers will serve it: its other groups
/// (connected with the same token) and the URL of the one webhook serving
/// them all, if any group asked for one.
struct TelegramBot {
    others: Vec<String>,
    hook: Option<String>,
}

/// How a Telegram group's updates will be received: Telegram keeps one
/// webhook per bot and refuses getUpdates while it is set, so a bot is
/// served by one webhook or one poller for all its groups.
fn telegram_hint(bot: &TelegramBot) -> String {
    let shared = if bot.others.is_empty() {
        String::new()
    } else {
        format!(
            " for this group and the bot's other group(s) {} (Telegram keeps one webhook or update queue per bot)",
            bot.others.join(", ")
        )
    };
    let privacy = "turn the bot's privacy mode off with @BotFather, or it sees no group messages";
    match &bot.hook {
        Some(url) => format!(
            "Telegram will post updates to {url}{shared}, registered when `modctld serve` starts ({privacy})"
        ),
        None => format!("getUpdates long polling{shared} while `modctld serve` runs ({privacy})"),
    }
}

/// How the server's activity will be received, for the operator.
fn activity_hint(platform: modctl_types::Platform, id: &str, receiving: &Receiving) -> String {
    use modctl_types::Platform;
    match (platform, receiving) {
        (Platform::Discord, _) => "a gateway session counts messages, voice and joins while `modctld serve` runs \
             (enable the Server Members intent for the bot)"
            .to_owned(),
        (Platform::Telegram, Receiving { hook_url: Some(url), .. }) => format!(
            "Telegram will post updates to {}, registered when `modctld serve` starts",
            crate::receive::hooks::telegram_hook_url(url, id)
        ),
        (Platform::Telegram, _) => "getUpdates long polling while `modctld serve` runs (turn the bot's \
             privacy mode off with @BotFather, or it sees no group messages)"
            .to_owned(),
        (Platform::Slack, Receiving { signing_secret: Some(_), .. }) => {
            "set the Slack app's Event Subscriptions request URL to https://<this daemon>/hooks/slack/events"
                .to_owned()
        }
        (Platform::Slack, _) => {
            "not received: connect again with --signing-secret-env to count Slack events".to_owned()
        }
        _ => crate::platform::new_platform(platform),
    }
}

/// Refuses options of another platform.
fn check_receiving(
    platform: modctl_types::Platform,
    receiving: &Receiving,
) -> Result<(), StoreError> {
    use modctl_types::Platform;
    if receiving.signing_secret.is_some() && platform != Platform::Slack {
        return Err(StoreError::Invalid(format!(
            "--signing-secret-env is for Slack servers; this one is on {platform}"
        )));
    }
    if receiving.hook_url.is_some() && platform != Platform::Telegram {
        return Err(StoreError::Invalid(format!(
            "--telegram-webhook-url is for Telegram groups; this one is on {platform}"
        )));
    }
    Ok(())
}

fn read_token_from_stdin() -> anyhow::Result<String> {
    let mut line = String::new();
    std::io::stdin()
        .read_line(&mut line)
        .context("cannot read the token from stdin")?;
    let token = line.trim().to_owned();
    if token.is_empty() {
        anyhow::bail!(
            "no token on stdin: pipe the bot token in, e.g. `modctld server connect ID --platform-token-stdin < token.txt`"
        );
    }
    Ok(token)
}
