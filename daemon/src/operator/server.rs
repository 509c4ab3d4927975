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
                    servers::claim(tx, team.id, platform, &id, &name)
                })
                .await?;
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
        } => {
            let receiving = receiving(signing_secret_env, telegram_webhook_url)?;
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
                    connections::set(tx, &secrets, &id, &connections::Connection::new(mode))?;
                    receivers::set_receiving(tx, &secrets, &id, &receiving)?;
                    if simulated && !crate::platform::simulator::has_community(tx, &id)? {
                        crate::platform::simulator::seed(
                            tx,
                            &id,
                            &demo::community(record.server.platform),
                        )?;
                    }
                    Ok::<_, StoreError>(record.server.platform)
                })
                .await?;
            let how = if simulated {
                "the simulator"
            } else {
                "the platform API"
            };
            eprintln!("connected {platform} server {server_id} to {how}");
            if !simulated {
                eprintln!(
                    "activity: {}",
                    activity_hint(platform, &server_id, &hint_receiving)
                );
            }
        }
    }
    Ok(())
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
        _ => "not received: connect again with --signing-secret-env to count Slack events".to_owned(),
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
