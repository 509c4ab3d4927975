//! `modctl servers list|show`.

use clap::Subcommand;
use modctl_types::Server;

use crate::commands::print;
use crate::context::Context;
use crate::exit::CliError;
use crate::output::{OutputMode, Rows, human_time, render_json};

/// `modctl servers ...`
#[derive(Debug, Subcommand)]
pub enum ServersCommand {
    /// List your team's servers (plain columns: id, platform, name, claimed at)
    List,
    /// Show one server
    Show {
        /// The server id (Telegram ids are negative)
        #[arg(allow_hyphen_values = true)]
        server: String,
    },
}

/// Runs a `servers` command.
pub async fn run(context: &Context, command: ServersCommand) -> Result<(), CliError> {
    let client = context.client()?;
    match command {
        ServersCommand::List => {
            let servers = client.servers().await?;
            print(&render_list(&servers, context.output));
        }
        ServersCommand::Show { server } => {
            let server = client.server(&server).await?;
            let text = match context.output {
                OutputMode::Json => render_json(&server),
                mode => render_list(std::slice::from_ref(&server), mode),
            };
            print(&text);
        }
    }
    Ok(())
}

/// Renders servers as a table, tab-separated rows, or a JSON array.
pub fn render_list(servers: &[Server], mode: OutputMode) -> String {
    if mode == OutputMode::Json {
        return render_json(servers);
    }
    let mut rows = Rows::new(vec!["ID", "PLATFORM", "NAME", "CLAIMED"])
        .long(&["NAME"])
        .droppable(&["CLAIMED"]);
    for server in servers {
        rows.push(vec![
            server.id.clone(),
            server.platform.to_string(),
            server.name.clone(),
            match mode {
                OutputMode::Plain => server.claimed_at.to_string(),
                _ => human_time(&server.claimed_at),
            },
        ]);
    }
    rows.render(mode)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn servers_at_60_and_120_columns() {
        let servers: Vec<Server> = serde_json::from_value(serde_json::json!([
            {"id": "112233445566778899", "name": "Demo Guild of the Long Name", "platform": "discord",
             "claimed_at": "2026-11-21T09:08:10Z"},
            {"id": "-1001234567890", "name": "Demo Group", "platform": "telegram",
             "claimed_at": "2026-11-21T09:08:11Z"},
            {"id": "T0DEMO0001", "name": "Demo Workspace", "platform": "slack",
             "claimed_at": "2026-11-21T09:08:12Z"},
        ]))
        .unwrap();
        insta::assert_snapshot!(crate::output::at_widths(|| render_list(
            &servers,
            OutputMode::Table
        )));
    }
}
