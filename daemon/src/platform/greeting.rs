//! The welcome greeting (issue #26): `welcome.message` with `{user}` and
//! `{server}` filled in, rendered for each platform by pure functions.
//!
//! Unlike a [`super::Post`], which pings nobody, a greeting mentions (and
//! notifies) exactly one member: the one who joined. Everything else in it
//! is inert, whatever the member or the server is called:
//!
//! | | `{user}` | `{server}` | the template's own text |
//! |---|---|---|---|
//! | Discord | `<@id>` (Discord shows the name; it never enters the text); `allowed_mentions` `{"parse": [], "users": [id]}` | every ASCII punctuation mark backslash-escaped | markdown as written (the moderators'); its mentions ping nobody (`parse: []`) |
//! | Slack | `<@id>` | `&`, `<`, `>` as entities, `*_~` and backquotes followed by a zero-width space | `&`, `<`, `>` as entities: no `<!channel>`, `<!here>` or `<@U..>` of its own; mrkdwn (`*bold*`) works |
//! | Telegram | `<a href="tg://user?id=ID">name</a>`, the name HTML-escaped (link text: no entity inside is parsed) | HTML-escaped | HTML-escaped (plain text) |
//! | simulator | `@name` | as is | as is |
//!
//! Why so: Discord's markdown treats a backslash before any punctuation
//! as "show this character" (its parser's escape rule), which is the only
//! way to keep `*`, `_`, `` ` ``, `<@1>` and `discord.gg/x` from becoming
//! markup, mentions or invite embeds; Slack has no escape but the three
//! entities ("Formatting text for app surfaces", "Escaping text"), so its
//! formatting characters are broken up instead; Telegram's HTML mode needs
//! only the three entities ("Formatting options", HTML style), and a text
//! inside `<a>` is one entity, so an `@username` or link in a name is not
//! detected as one.

use serde_json::{Map, Value, json};

/// A greeting to render: the moderators' template and what fills it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Greeting {
    /// `welcome.message`, with `{user}` and `{server}` placeholders.
    pub template: String,
    /// The member who joined (the platform's user id).
    pub member_id: String,
    /// Their display name, when the platform gave one.
    pub member_name: Option<String>,
    /// The server's name (as claimed).
    pub server_name: String,
    /// Slack: the verify button the greeting DM carries when verification
    /// is on, (label, `action_id`): one DM, not a greeting and then a
    /// second DM with the button (issue #26). Unused elsewhere (Discord's
    /// verify message is the server's, Telegram's prompt the member's own).
    pub slack_button: Option<(String, String)>,
}

/// A piece of a template.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Piece<'a> {
    Text(&'a str),
    User,
    Server,
}

/// `template` cut at its placeholders. An unknown `{...}` is text (the
/// config's validation refuses one; an older config may hold it).
fn pieces(template: &str) -> Vec<Piece<'_>> {
    let mut out = Vec::new();
    let mut rest = template;
    loop {
        let next = [("{user}", Piece::User), ("{server}", Piece::Server)]
            .into_iter()
            .filter_map(|(token, piece)| rest.find(token).map(|at| (at, token, piece)))
            .min_by_key(|(at, _, _)| *at);
        let Some((at, token, piece)) = next else {
            if !rest.is_empty() {
                out.push(Piece::Text(rest));
            }
            return out;
        };
        if at > 0 {
            out.push(Piece::Text(&rest[..at]));
        }
        out.push(piece);
        rest = &rest[at + token.len()..];
    }
}

/// `template` rendered with `text` for its own text, `user` for `{user}`
/// and `server` for `{server}`.
fn fill(greeting: &Greeting, text: impl Fn(&str) -> String, user: &str, server: &str) -> String {
    pieces(&greeting.template)
        .into_iter()
        .map(|piece| match piece {
            Piece::Text(t) => text(t),
            Piece::User => user.to_owned(),
            Piece::Server => server.to_owned(),
        })
        .collect()
}

/// What a name is shown as when the platform gave none.
const NO_NAME: &str = "new member";

/// `text` with every ASCII punctuation mark backslash-escaped: Discord
/// shows it as written, never as markdown, a mention, an emoji, a link or
/// an invite.
pub fn discord_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len() * 2);
    for c in text.chars() {
        if c.is_ascii_punctuation() {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Discord's "Create Message" content limit (discord-docs/channel.mdx).
const DISCORD_CONTENT: usize = 2_000;

/// The body of Discord's "Create Message" for the greeting: `content`,
/// and `allowed_mentions` that lets only the member be notified
/// (discord-docs/message.mdx, "Allowed Mentions Object": `parse` empty,
/// `users` the one id; "users: Array of user_ids to mention").
pub fn discord_greeting(greeting: &Greeting) -> Value {
    let content = fill(
        greeting,
        str::to_owned,
        &format!("<@{}>", greeting.member_id),
        &discord_escape(&greeting.server_name),
    );
    json!({
        "content": cut(&content, DISCORD_CONTENT),
        "allowed_mentions": {"parse": [], "users": [greeting.member_id]},
    })
}

/// `text` with Slack's three entities and its formatting characters
/// broken up (a zero-width space after each), so a name neither mentions
/// nor formats.
pub fn slack_inert(text: &str) -> String {
    let mut out = String::with_capacity(text.len() * 2);
    for c in super::post::slack_escape(text).chars() {
        out.push(c);
        if matches!(c, '*' | '_' | '~' | '`') {
            out.push('\u{200b}');
        }
    }
    out
}

/// The arguments of Slack's `chat.postMessage` for the greeting (without
/// `channel`, the member's DM): `text` in mrkdwn, `link_names` off and
/// `parse` `none` (slack-web-openapi.json, `chat.postMessage`), so only
/// the `<@id>` the daemon writes mentions anyone; no unfurling.
pub fn slack_greeting(greeting: &Greeting) -> Map<String, Value> {
    let text = fill(
        greeting,
        super::post::slack_escape,
        &format!("<@{}>", greeting.member_id),
        &slack_inert(&greeting.server_name),
    );
    let mut args = Map::new();
    args.insert("text".into(), json!(text));
    args.insert("parse".into(), json!("none"));
    args.insert("link_names".into(), json!(false));
    args.insert("unfurl_links".into(), json!(false));
    args.insert("unfurl_media".into(), json!(false));
    if let Some((label, action_id)) = &greeting.slack_button {
        // The text stays as the notification's; the blocks show it, then
        // what the button is for, then the button (Block Kit: a `section`
        // of mrkdwn, an `actions` block with one `button`, `text` a
        // `plain_text` of at most 75 characters).
        args.insert(
            "blocks".into(),
            json!([
                {"type": "section", "text": {"type": "mrkdwn", "text": text, "verbatim": true}},
                {"type": "section", "text": {"type": "mrkdwn", "verbatim": true,
                    "text": "Press the button below to verify that you are a person; it adds you to the workspace's member groups."}},
                {"type": "actions", "elements": [{"type": "button", "action_id": action_id,
                    "style": "primary", "text": {"type": "plain_text", "text": label, "emoji": false}}]},
            ]),
        );
    }
    args
}

/// The arguments of Telegram's `sendMessage` for the greeting (without
/// `chat_id`): HTML, the member as a text mention (Bot API, "Formatting
/// options": `<a href="tg://user?id=123456789">inline mention of a
/// user</a>`), without link previews. Not silent: the member is meant to
/// see it.
pub fn telegram_greeting(greeting: &Greeting) -> Map<String, Value> {
    let escape = super::post::telegram_escape;
    let name = greeting.member_name.as_deref().unwrap_or(NO_NAME);
    let mention = match greeting.member_id.parse::<i64>() {
        Ok(id) => format!("<a href=\"tg://user?id={id}\">{}</a>", escape(name)),
        // Telegram's user ids are integers: anything else is only a name.
        Err(_) => escape(name),
    };
    let text = fill(greeting, escape, &mention, &escape(&greeting.server_name));
    let mut args = Map::new();
    let text = cut_html(&text, TELEGRAM_TEXT);
    args.insert("text".into(), json!(text));
    args.insert("parse_mode".into(), json!("HTML"));
    args.insert("link_preview_options".into(), json!({"is_disabled": true}));
    args
}

/// The greeting as plain text, as the simulator keeps it: `@name` (or
/// `@id`) for `{user}`.
pub fn plain_greeting(greeting: &Greeting) -> String {
    let name = greeting
        .member_name
        .as_deref()
        .unwrap_or(&greeting.member_id);
    fill(
        greeting,
        str::to_owned,
        &format!("@{name}"),
        &greeting.server_name,
    )
}

/// `text` cut to at most `max` characters (an ellipsis marks a cut).
fn cut(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let mut kept: String = text.chars().take(max.saturating_sub(1)).collect();
    kept.push('…');
    kept
}

/// `sendMessage`'s text: "1-4096 characters after entities parsing"
/// (telegram-bot-api.json, `sendMessage.text`). Counted here before
/// parsing, tags and entities included, which is never less.
const TELEGRAM_TEXT: usize = 4_096;

/// The closing tag of the member's mention, the only tag a greeting holds.
const CLOSE_MENTION: &str = "</a>";

/// `html` (Telegram HTML as [`telegram_greeting`] writes it: escaped text,
/// entities, the mention's `<a>`) cut to at most `max` characters, an
/// ellipsis marking the cut: never inside an entity (`&amp;`) or a tag,
/// and a mention cut in its text still closed, so Telegram can parse what
/// is left ("All <, > and & symbols that are not a part of a tag or an
/// HTML entity must be replaced", Bot API, "Formatting options").
fn cut_html(html: &str, max: usize) -> String {
    if html.chars().count() <= max {
        return html.to_owned();
    }
    // Room for the ellipsis and a closing tag.
    let budget = max.saturating_sub(1 + CLOSE_MENTION.len());
    let (mut out, mut used, mut open, mut rest) = (String::new(), 0, false, html);
    while let Some(c) = rest.chars().next() {
        // Every `&` of escaped text starts an entity, every `<` a tag.
        let end = match c {
            '<' => rest.find('>').map_or(rest.len(), |i| i + 1),
            '&' => rest.find(';').map_or(c.len_utf8(), |i| i + 1),
            _ => c.len_utf8(),
        };
        let token = &rest[..end];
        let chars = token.chars().count();
        if used + chars > budget {
            break;
        }
        if c == '<' {
            open = !token.starts_with("</");
        }
        out.push_str(token);
        used += chars;
        rest = &rest[end..];
    }
    out.push('…');
    if open {
        out.push_str(CLOSE_MENTION);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Names that would be markup, a mention or an invite if shown raw.
    const HOSTILE: [&str; 6] = [
        "@everyone",
        "<@123>",
        "discord.gg/x",
        "*bold*",
        "<b>x</b>",
        "<!channel>",
    ];

    fn greeting(template: &str, name: Option<&str>, server: &str) -> Greeting {
        Greeting {
            template: template.into(),
            member_id: "42".into(),
            member_name: name.map(str::to_owned),
            server_name: server.into(),
            slack_button: None,
        }
    }

    #[test]
    fn templates_are_cut_at_their_placeholders() {
        for (template, want) in [
            ("", vec![]),
            ("hi", vec![Piece::Text("hi")]),
            (
                "Welcome to {server}, {user}!",
                vec![
                    Piece::Text("Welcome to "),
                    Piece::Server,
                    Piece::Text(", "),
                    Piece::User,
                    Piece::Text("!"),
                ],
            ),
            ("{user}{user}", vec![Piece::User, Piece::User]),
            ("{nope} {user", vec![Piece::Text("{nope} {user")]),
        ] {
            assert_eq!(pieces(template), want, "{template}");
        }
    }

    #[test]
    fn discord_mentions_the_member_alone_and_escapes_the_server_name() {
        for (template, server, want) in [
            (
                "Welcome to {server}, {user}!",
                "Acme",
                "Welcome to Acme, <@42>!",
            ),
            ("{server}", "@everyone", "\\@everyone"),
            ("{server}", "<@123>", "\\<\\@123\\>"),
            ("{server}", "discord.gg/x", "discord\\.gg\\/x"),
            ("{server}", "*bold*", "\\*bold\\*"),
            ("{server}", "<b>x</b>", "\\<b\\>x\\<\\/b\\>"),
            (
                "{server}",
                "a_b `c` ~d~ |e|",
                "a\\_b \\`c\\` \\~d\\~ \\|e\\|",
            ),
            // The moderators' own markdown stays; its mentions ping nobody.
            ("**Hi** {user} @here", "s", "**Hi** <@42> @here"),
        ] {
            let body = discord_greeting(&greeting(template, Some("ignored"), server));
            assert_eq!(body["content"], want, "{template} / {server}");
            assert_eq!(
                body["allowed_mentions"],
                json!({"parse": [], "users": ["42"]})
            );
        }
        for name in HOSTILE {
            let body = discord_greeting(&greeting("{user}", Some(name), "s"));
            assert_eq!(body["content"], "<@42>", "the name never enters the text");
        }
        // A long name of punctuation doubles when escaped: cut, marked.
        let long = discord_greeting(&greeting("Hi {server}", None, &"./".repeat(600)));
        let long = long["content"].as_str().unwrap();
        assert_eq!(long.chars().count(), DISCORD_CONTENT, "cut");
        assert!(
            long.starts_with("Hi \\.\\/") && long.ends_with('…'),
            "{long}"
        );
    }

    /// A Telegram greeting past `sendMessage`'s 4096 characters is cut,
    /// never inside an entity or the mention's tags.
    #[test]
    fn telegram_greetings_are_cut_whole_entities_and_tags() {
        let entities = ["&amp;", "&lt;", "&gt;"];
        // A name of `&`, `<`, `>`: each an entity of 4-5 characters.
        for shift in 0..5 {
            let template = format!("{}{{server}}", "x".repeat(shift));
            let args = telegram_greeting(&greeting(&template, None, &"&<>".repeat(2_000)));
            let text = args["text"].as_str().unwrap();
            assert!(text.chars().count() <= TELEGRAM_TEXT, "{shift}");
            assert!(text.ends_with('…'), "{shift}");
            let body = text.trim_start_matches('x').trim_end_matches('…');
            assert!(
                body.split_inclusive(';').all(|e| entities.contains(&e)),
                "an entity cut: {shift}"
            );
        }
        // Cut in the mention's text: the tag is closed.
        let template = format!("{}{{user}}", "x".repeat(4_000));
        let args = telegram_greeting(&greeting(&template, Some(&"&".repeat(500)), "s"));
        let text = args["text"].as_str().unwrap();
        assert!(text.chars().count() <= TELEGRAM_TEXT);
        assert!(text.ends_with("&amp;…</a>"), "{}", &text[text.len() - 30..]);
        // Short ones are left alone.
        let short = telegram_greeting(&greeting("Hi {user}", Some("&"), "s"));
        assert_eq!(short["text"], "Hi <a href=\"tg://user?id=42\">&amp;</a>");
    }

    #[test]
    fn slack_mentions_the_member_alone_and_nothing_else() {
        for (template, server, want) in [
            (
                "Welcome to {server}, {user}!",
                "Acme",
                "Welcome to Acme, <@42>!",
            ),
            ("{server}", "<!channel>", "&lt;!channel&gt;"),
            ("{server}", "<@U1> & co", "&lt;@U1&gt; &amp; co"),
            ("{server}", "*bold*", "*\u{200b}bold*\u{200b}"),
            (
                "{server}",
                "_i_ ~s~ `c`",
                "_\u{200b}i_\u{200b} ~\u{200b}s~\u{200b} `\u{200b}c`\u{200b}",
            ),
            // The template's own mentions and broadcasts are text; its
            // mrkdwn stays.
            (
                "*Hi* {user} <!here> <@U9>",
                "s",
                "*Hi* <@42> &lt;!here&gt; &lt;@U9&gt;",
            ),
        ] {
            let args = slack_greeting(&greeting(template, Some("n"), server));
            assert_eq!(args["text"], want, "{template} / {server}");
            assert_eq!(args["parse"], "none");
            assert_eq!(args["link_names"], false);
        }
    }

    #[test]
    fn telegram_mentions_the_member_by_an_escaped_name() {
        for (template, name, server, want) in [
            (
                "Welcome to {server}, {user}!",
                Some("Ada"),
                "Acme",
                "Welcome to Acme, <a href=\"tg://user?id=42\">Ada</a>!",
            ),
            (
                "{user}",
                Some("<b>x</b>"),
                "s",
                "<a href=\"tg://user?id=42\">&lt;b&gt;x&lt;/b&gt;</a>",
            ),
            (
                "{user}",
                Some("@everyone t.me/x"),
                "s",
                "<a href=\"tg://user?id=42\">@everyone t.me/x</a>",
            ),
            (
                "{user}",
                None,
                "s",
                "<a href=\"tg://user?id=42\">new member</a>",
            ),
            ("{server}", None, "A & <B>", "A &amp; &lt;B&gt;"),
            // The template is plain text too.
            (
                "<i>hi</i> {user}",
                Some("n"),
                "s",
                "&lt;i&gt;hi&lt;/i&gt; <a href=\"tg://user?id=42\">n</a>",
            ),
        ] {
            let args = telegram_greeting(&greeting(template, name, server));
            assert_eq!(args["text"], want, "{template} / {name:?}");
            assert_eq!(args["parse_mode"], "HTML");
            assert_eq!(args["link_preview_options"], json!({"is_disabled": true}));
        }
    }

    #[test]
    fn the_simulator_keeps_plain_text() {
        for (name, want) in [(Some("Ada"), "Hi @Ada in S"), (None, "Hi @42 in S")] {
            assert_eq!(
                plain_greeting(&greeting("Hi {user} in {server}", name, "S")),
                want
            );
        }
    }
}
