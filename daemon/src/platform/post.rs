//! A message the daemon posts ([`Post`]), in platform-neutral terms, and how
//! each platform is sent it ([`discord_message`], [`slack_message`],
//! [`telegram_message`]; the simulator keeps the post itself, as JSON, and
//! its [`Post::plain_text`]).
//!
//! What every rendering guarantees: the text is shown as written (each
//! platform's markup characters escaped where it has any) and **nobody is
//! pinged**, whatever the text holds (a member's message quoted in a log
//! post may contain `@everyone` or `<!channel>`). Each renderer is a pure
//! function, tested with tables below; the adapters only send its result.

use serde_json::{Map, Value, json};

/// A message to post: plain text (never markup), an optional title and
/// `name: value` fields (a log post's who, what, why). As JSON (what the
/// simulator keeps of a post, and `modctld simulate posts --json` shows):
/// `{"title": ..., "text": ..., "fields": [{"name": ..., "value": ...}]}`.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Post {
    /// A short heading, if any.
    pub title: Option<String>,
    /// The body, as plain text.
    pub text: String,
    /// Named values shown under the text, in order.
    #[serde(with = "named_fields")]
    pub fields: Vec<(String, String)>,
}

/// Fields as `[{"name": ..., "value": ...}]` rather than pairs, so a
/// reader of the JSON sees what each is.
mod named_fields {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    #[derive(Serialize, Deserialize)]
    struct Field<T> {
        name: T,
        value: T,
    }

    pub fn serialize<S: Serializer>(
        fields: &[(String, String)],
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(fields.iter().map(|(name, value)| Field { name, value }))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Vec<(String, String)>, D::Error> {
        let fields = Vec::<Field<String>>::deserialize(deserializer)?;
        Ok(fields.into_iter().map(|f| (f.name, f.value)).collect())
    }
}

impl Post {
    /// A post of `text` alone.
    pub fn text(text: impl Into<String>) -> Self {
        Post {
            text: text.into(),
            ..Post::default()
        }
    }

    /// The same post with a title.
    #[must_use]
    pub fn titled(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// The same post with one more field.
    #[must_use]
    pub fn field(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.fields.push((name.into(), value.into()));
        self
    }

    /// The post on one line, short, as a chat client's notification shows
    /// it: the title, the text, then the fields as `name: value`, `; `
    /// apart, with line breaks as spaces and cut to `max` characters (an
    /// ellipsis marks a cut). For showing what was posted in a terminal.
    pub fn one_line(&self, max: usize) -> String {
        let mut parts: Vec<String> = Vec::new();
        parts.extend(self.title.clone());
        if !self.text.is_empty() {
            parts.push(self.text.clone());
        }
        let fields: Vec<String> = self
            .fields
            .iter()
            .map(|(n, v)| format!("{n}: {v}"))
            .collect();
        if !fields.is_empty() {
            parts.push(fields.join("; "));
        }
        let line = parts.join(" | ").replace(['\n', '\t', '\r'], " ");
        cut(&line, max)
    }

    /// The post as one plain text: the title, the text, then one
    /// `name: value` line per field (a post of text alone is that text).
    pub fn plain_text(&self) -> String {
        let mut lines = Vec::new();
        lines.extend(self.title.clone());
        if !self.text.is_empty() {
            lines.push(self.text.clone());
        }
        lines.extend(self.fields.iter().map(|(n, v)| format!("{n}: {v}")));
        lines.join("\n")
    }
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

/// Discord limits: message content 2,000 characters
/// (discord-docs/channel.mdx, "Create Message"); embeds as in
/// discord-docs/message.mdx, "Embed Limits".
const DISCORD_CONTENT: usize = 2_000;
const DISCORD_TITLE: usize = 256;
const DISCORD_DESCRIPTION: usize = 4_096;
const DISCORD_FIELDS: usize = 25;
const DISCORD_FIELD_NAME: usize = 256;
const DISCORD_FIELD_VALUE: usize = 1_024;

/// The body of Discord's "Create Message" (`POST
/// /channels/{channel.id}/messages`, discord-docs/channel.mdx): `content`
/// for text alone, an embed for a post with a title or fields, and always
/// `allowed_mentions: {"parse": []}`, which "completely suppress[es] all
/// mentions" (discord-docs/message.mdx, "Allowed Mentions Object"): a
/// mention in the text still shows, but notifies nobody.
pub fn discord_message(post: &Post) -> Value {
    let mut body = Map::new();
    if post.title.is_none() && post.fields.is_empty() {
        body.insert("content".into(), json!(cut(&post.text, DISCORD_CONTENT)));
    } else {
        body.insert("embeds".into(), json!([discord_embed(post)]));
    }
    body.insert("allowed_mentions".into(), json!({ "parse": [] }));
    Value::Object(body)
}

/// Slack's text escaping: `&`, `<` and `>` become entities, so `<@U1>`,
/// `<!channel>` and `<!here>` are shown as written, never as mentions
/// (Slack's "Formatting text for app surfaces", "Escaping text").
pub fn slack_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Slack limits: a section's text 3,000 characters, at most 10 fields of
/// 2,000, a header's text 150 (Slack's Block Kit reference).
const SLACK_SECTION: usize = 3_000;
const SLACK_FIELDS: usize = 10;
const SLACK_FIELD: usize = 2_000;
const SLACK_HEADER: usize = 150;

/// The arguments of Slack's `chat.postMessage` and `chat.postEphemeral`
/// besides `channel` (and `user`): blocks (a header for the title, a section
/// for the text, one for the fields) and `text`, the notification's
/// fallback (slack-web-openapi.json, `chat.postMessage`: "text ... depends
/// on other fields"). Everything is escaped ([`slack_escape`]), `parse` is
/// `none` and `link_names` off, so no name becomes a mention; links are not
/// unfurled.
pub fn slack_message(post: &Post) -> Map<String, Value> {
    let mut blocks = Vec::new();
    if let Some(title) = &post.title {
        blocks.push(json!({
            "type": "header",
            "text": {"type": "plain_text", "text": cut(title, SLACK_HEADER), "emoji": false},
        }));
    }
    if !post.text.is_empty() {
        blocks.push(json!({
            "type": "section",
            "text": {"type": "mrkdwn", "text": cut(&slack_escape(&post.text), SLACK_SECTION), "verbatim": true},
        }));
    }
    if !post.fields.is_empty() {
        let fields: Vec<Value> = post
            .fields
            .iter()
            .take(SLACK_FIELDS)
            .map(|(name, value)| {
                let text = format!("*{}*\n{}", slack_escape(name), slack_escape(value));
                json!({"type": "mrkdwn", "text": cut(&text, SLACK_FIELD), "verbatim": true})
            })
            .collect();
        blocks.push(json!({"type": "section", "fields": fields}));
    }
    let fallback = match &post.title {
        Some(title) if !post.text.is_empty() => format!("{title}: {}", post.text),
        Some(title) => title.clone(),
        None => post.text.clone(),
    };
    let mut args = Map::new();
    args.insert("text".into(), json!(slack_escape(&fallback)));
    args.insert("blocks".into(), json!(blocks));
    args.insert("parse".into(), json!("none"));
    args.insert("link_names".into(), json!(false));
    args.insert("unfurl_links".into(), json!(false));
    args.insert("unfurl_media".into(), json!(false));
    args
}

/// Telegram's HTML escaping: "All `<`, `>` and `&` symbols that are not a
/// part of a tag or an HTML entity must be replaced with the corresponding
/// HTML entities" (Bot API, "Formatting options", HTML style).
pub fn telegram_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// `sendMessage` takes 1-4096 characters of text after entities parsing
/// (telegram-bot-api.json, `sendMessage.text`): the text is cut to leave
/// room for the title, and fields that would go past the limit are left
/// out (counted as shown: without tags, entities as one character).
const TELEGRAM_TEXT: usize = 3_500;
const TELEGRAM_TOTAL: usize = 4_096;

/// The arguments of Telegram's `sendMessage` besides `chat_id`: the post
/// as HTML (title and field names in bold, everything escaped), without
/// link previews (`link_preview_options.is_disabled`) and sent silently
/// (`disable_notification`: a log post notifies nobody).
pub fn telegram_message(post: &Post) -> Map<String, Value> {
    let mut lines = Vec::new();
    // What Telegram counts: the characters shown, newlines included.
    let mut shown = 0;
    if let Some(title) = &post.title {
        let title = cut(title, 256);
        shown += title.chars().count() + 1;
        lines.push(format!("<b>{}</b>", telegram_escape(&title)));
    }
    if !post.text.is_empty() {
        let text = cut(&post.text, TELEGRAM_TEXT);
        shown += text.chars().count() + 1;
        lines.push(telegram_escape(&text));
    }
    for (name, value) in &post.fields {
        let (name, value) = (cut(name, 256), cut(value, 1_024));
        shown += name.chars().count() + value.chars().count() + 3;
        if shown > TELEGRAM_TOTAL {
            break;
        }
        lines.push(format!(
            "<b>{}</b>: {}",
            telegram_escape(&name),
            telegram_escape(&value)
        ));
    }
    let mut args = Map::new();
    args.insert("text".into(), json!(lines.join("\n")));
    args.insert("parse_mode".into(), json!("HTML"));
    args.insert("link_preview_options".into(), json!({"is_disabled": true}));
    args.insert("disable_notification".into(), json!(true));
    args
}

/// As many of `posts`, from the first, as fit one message: at most
/// `max_items` and `max_size` in all as `size` measures each rendered
/// part; the first is always taken (each is within the platform's limits
/// alone). Answers the parts and how many posts they hold.
fn pack<T>(
    posts: &[Post],
    render: impl Fn(&Post) -> T,
    size: impl Fn(&T) -> usize,
    max_items: usize,
    max_size: usize,
) -> Vec<T> {
    let mut parts = Vec::new();
    let mut total = 0;
    for post in posts.iter().take(max_items) {
        let part = render(post);
        let part_size = size(&part);
        if !parts.is_empty() && total + part_size > max_size {
            break;
        }
        total += part_size;
        parts.push(part);
    }
    parts
}

/// Discord: "Up to 10 embeds" a message, and "the combined sum of
/// characters in all title, description, field.name, field.value,
/// footer.text, and author.name fields across all embeds attached to a
/// message must not exceed 6000 characters" (discord-docs/message.mdx,
/// "Embed Limits").
const DISCORD_EMBEDS: usize = 10;
const DISCORD_EMBED_TOTAL: usize = 6_000;

/// A post as one embed: its title, its text as the description, its
/// fields, each cut to Discord's limits.
fn discord_embed(post: &Post) -> Value {
    let mut embed = Map::new();
    if let Some(title) = &post.title {
        embed.insert("title".into(), json!(cut(title, DISCORD_TITLE)));
    }
    if !post.text.is_empty() {
        embed.insert(
            "description".into(),
            json!(cut(&post.text, DISCORD_DESCRIPTION)),
        );
    }
    let title = post
        .title
        .as_deref()
        .map_or(0, |t| cut(t, DISCORD_TITLE).chars().count());
    let mut total = title + cut(&post.text, DISCORD_DESCRIPTION).chars().count();
    // Fields past the embed's total are left out rather than refused.
    let mut fields = Vec::new();
    for (name, value) in post.fields.iter().take(DISCORD_FIELDS) {
        let (name, value) = (
            cut(name, DISCORD_FIELD_NAME),
            cut(value, DISCORD_FIELD_VALUE),
        );
        total += name.chars().count() + value.chars().count();
        if total > DISCORD_EMBED_TOTAL {
            break;
        }
        fields.push(json!({"name": name, "value": value, "inline": false}));
    }
    if !fields.is_empty() {
        embed.insert("fields".into(), json!(fields));
    }
    Value::Object(embed)
}

/// The characters of an embed that count towards [`DISCORD_EMBED_TOTAL`].
fn discord_embed_size(embed: &Value) -> usize {
    let chars = |v: &Value| v.as_str().map_or(0, |s| s.chars().count());
    chars(&embed["title"])
        + chars(&embed["description"])
        + embed["fields"].as_array().map_or(0, |fields| {
            fields
                .iter()
                .map(|f| chars(&f["name"]) + chars(&f["value"]))
                .sum()
        })
}

/// The body of one "Create Message" holding the first posts of `posts`,
/// one embed each (see [`DISCORD_EMBEDS`]), nobody pinged; and how many
/// posts it holds.
pub fn discord_batch(posts: &[Post]) -> (Value, usize) {
    let embeds = pack(
        posts,
        discord_embed,
        discord_embed_size,
        DISCORD_EMBEDS,
        DISCORD_EMBED_TOTAL,
    );
    let count = embeds.len();
    (
        json!({"embeds": embeds, "allowed_mentions": {"parse": []}}),
        count,
    )
}

/// Block Kit: "You can include up to 50 blocks in each message" (Slack's
/// Block Kit reference); a divider between posts counts as one.
const SLACK_BLOCKS: usize = 50;
/// The fallback `text` of a batch: the posts' titles, cut to a section's
/// length.
const SLACK_BATCH_FALLBACK: usize = SLACK_SECTION;

/// The arguments of one `chat.postMessage` holding the first posts of
/// `posts` (each as [`slack_message`] renders it, a divider between them,
/// at most [`SLACK_BLOCKS`] blocks), and how many posts it holds.
pub fn slack_batch(posts: &[Post]) -> (Map<String, Value>, usize) {
    let parts = pack(
        posts,
        slack_message,
        |args| args["blocks"].as_array().map_or(0, Vec::len) + 1,
        SLACK_BLOCKS,
        SLACK_BLOCKS + 1,
    );
    let count = parts.len();
    let mut blocks = Vec::new();
    let mut fallback = Vec::new();
    for (i, args) in parts.into_iter().enumerate() {
        if i > 0 {
            blocks.push(json!({"type": "divider"}));
        }
        if let Some(Value::Array(more)) = args.get("blocks") {
            blocks.extend(more.iter().cloned());
        }
        if let Some(text) = args.get("text").and_then(Value::as_str) {
            fallback.push(text.to_owned());
        }
    }
    let mut args = slack_message(&Post::text(""));
    args.insert(
        "text".into(),
        json!(cut(&fallback.join("\n"), SLACK_BATCH_FALLBACK)),
    );
    args.insert("blocks".into(), json!(blocks));
    (args, count)
}

/// `sendMessage`'s text: "1-4096 characters after entities parsing"
/// (telegram-bot-api.json); counted here before parsing, tags and entities
/// included, which is never less.
const TELEGRAM_MESSAGE: usize = 4_096;

/// The arguments of one `sendMessage` holding the first posts of `posts`
/// (each as [`telegram_message`] renders it, a blank line between them,
/// within [`TELEGRAM_MESSAGE`]), and how many posts it holds.
pub fn telegram_batch(posts: &[Post]) -> (Map<String, Value>, usize) {
    let texts = pack(
        posts,
        |post| {
            telegram_message(post)["text"]
                .as_str()
                .unwrap_or_default()
                .to_owned()
        },
        |text| text.chars().count() + 2,
        usize::MAX,
        TELEGRAM_MESSAGE + 2,
    );
    let count = texts.len();
    let mut args = telegram_message(&Post::text(""));
    args.insert("text".into(), json!(texts.join("\n\n")));
    (args, count)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn log_post() -> Post {
        Post::text("said <@&1> & @everyone")
            .titled("Message deleted")
            .field("Author", "<@42>")
            .field("Channel", "#general")
    }

    #[test]
    fn plain_text_is_title_text_and_fields() {
        for (post, want) in [
            (Post::text("hello"), "hello"),
            (Post::text("hi").titled("T"), "T\nhi"),
            (Post::text("").titled("T").field("a", "1"), "T\na: 1"),
            (
                Post::text("x").field("a", "1").field("b", "2"),
                "x\na: 1\nb: 2",
            ),
        ] {
            assert_eq!(post.plain_text(), want);
        }
    }

    #[test]
    fn one_line_is_title_text_and_fields_on_one_line_cut() {
        let case = Post::text("")
            .titled("Case #3: warn")
            .field("Member", "42")
            .field("Reason", "spam");
        for (post, max, want) in [
            (Post::text("hello"), 80, "hello"),
            (Post::text("two\nlines").titled("T"), 80, "T | two lines"),
            (case.clone(), 80, "Case #3: warn | Member: 42; Reason: spam"),
            (case, 20, "Case #3: warn | Mem…"),
            (Post::text("a\tb").field("k", "v\nw"), 80, "a b | k: v w"),
        ] {
            assert_eq!(post.one_line(max), want);
        }
    }

    /// What the simulator keeps of a post reads back as the same post, its
    /// fields named.
    #[test]
    fn posts_round_trip_as_json_with_named_fields() {
        let post = Post::text("x").titled("T").field("a", "1");
        let json = serde_json::to_value(&post).unwrap();
        assert_eq!(
            json,
            json!({"title": "T", "text": "x", "fields": [{"name": "a", "value": "1"}]})
        );
        assert_eq!(serde_json::from_value::<Post>(json).unwrap(), post);
    }

    #[test]
    fn discord_never_pings_and_uses_embeds_for_fields() {
        let plain = discord_message(&Post::text("hi <@1> @everyone"));
        assert_eq!(
            plain,
            json!({"content": "hi <@1> @everyone", "allowed_mentions": {"parse": []}})
        );
        let rich = discord_message(&log_post());
        assert_eq!(rich["allowed_mentions"], json!({"parse": []}));
        assert!(rich.get("content").is_none(), "{rich}");
        let embed = &rich["embeds"][0];
        assert_eq!(embed["title"], "Message deleted");
        assert_eq!(embed["description"], "said <@&1> & @everyone");
        assert_eq!(
            embed["fields"][0],
            json!({"name": "Author", "value": "<@42>", "inline": false})
        );
    }

    /// discord-docs/message.mdx, "Embed Limits"; channel.mdx: content 2,000.
    #[test]
    fn discord_limits_are_kept() {
        let long = "x".repeat(5_000);
        for (post, path, max) in [
            (Post::text(long.clone()), "/content", DISCORD_CONTENT),
            (
                Post::text(long.clone()).titled("t"),
                "/embeds/0/description",
                DISCORD_DESCRIPTION,
            ),
            (
                Post::text("").titled(long.clone()),
                "/embeds/0/title",
                DISCORD_TITLE,
            ),
            (
                Post::text("").field("n", long.clone()),
                "/embeds/0/fields/0/value",
                DISCORD_FIELD_VALUE,
            ),
        ] {
            let body = discord_message(&post);
            let text = body.pointer(path).and_then(Value::as_str).unwrap();
            assert_eq!(text.chars().count(), max, "{path}");
            assert!(text.ends_with('…'));
        }
        let fields = |post: &Post| {
            discord_message(post)["embeds"][0]["fields"]
                .as_array()
                .unwrap()
                .len()
        };
        let many = (0..30).fold(Post::text("x"), |p, i| p.field(i.to_string(), "v"));
        assert_eq!(fields(&many), DISCORD_FIELDS);
        // 4,096 of description and fields of 1,000 characters in all: a
        // second field would pass the embed's 6,000.
        let big = (0..10).fold(Post::text("d".repeat(4_096)), |p, i| {
            p.field(i.to_string(), "v".repeat(999))
        });
        assert_eq!(fields(&big), 1);
    }

    #[test]
    fn slack_escapes_everything_so_nothing_is_a_mention() {
        for (text, want) in [
            ("plain", "plain"),
            ("<@U1>", "&lt;@U1&gt;"),
            (
                "<!channel> & <!here>",
                "&lt;!channel&gt; &amp; &lt;!here&gt;",
            ),
            ("a &amp; b", "a &amp;amp; b"),
        ] {
            assert_eq!(slack_escape(text), want, "{text}");
        }
        let args = slack_message(&log_post());
        assert_eq!(
            args["text"],
            "Message deleted: said &lt;@&amp;1&gt; &amp; @everyone"
        );
        assert_eq!(args["parse"], "none");
        assert_eq!(args["link_names"], false);
        let blocks = args["blocks"].as_array().unwrap();
        assert_eq!(blocks[0]["type"], "header");
        assert_eq!(blocks[0]["text"]["text"], "Message deleted");
        assert_eq!(
            blocks[1]["text"]["text"],
            "said &lt;@&amp;1&gt; &amp; @everyone"
        );
        assert_eq!(blocks[2]["fields"][0]["text"], "*Author*\n&lt;@42&gt;");
        let plain = slack_message(&Post::text("hi"));
        assert_eq!(plain["text"], "hi");
        assert_eq!(plain["blocks"].as_array().unwrap().len(), 1);
    }

    #[test]
    fn telegram_leaves_out_fields_past_4096_characters() {
        let post = (0..10).fold(Post::text("t".repeat(3_000)), |p, i| {
            p.field(i.to_string(), "v".repeat(500))
        });
        let args = telegram_message(&post);
        let text = args["text"].as_str().unwrap();
        // 3,001 for the text, 504 per field: two fit.
        assert_eq!(text.matches("<b>").count(), 2, "{}", text.len());
        assert!(text.chars().count() - 2 * "<b></b>".len() <= TELEGRAM_TOTAL);
    }

    #[test]
    fn telegram_is_escaped_html_without_previews() {
        for (post, want) in [
            (Post::text("a < b & c > d"), "a &lt; b &amp; c &gt; d"),
            (Post::text("<b>not bold</b>"), "&lt;b&gt;not bold&lt;/b&gt;"),
            (
                log_post(),
                "<b>Message deleted</b>\nsaid &lt;@&amp;1&gt; &amp; @everyone\n<b>Author</b>: &lt;@42&gt;\n<b>Channel</b>: #general",
            ),
        ] {
            let args = telegram_message(&post);
            assert_eq!(args["text"], want);
            assert_eq!(args["parse_mode"], "HTML");
            assert_eq!(args["link_preview_options"], json!({"is_disabled": true}));
            assert_eq!(args["disable_notification"], true);
        }
    }

    /// Batches: as many posts a message as each platform's limits allow,
    /// never fewer than one, nobody pinged.
    #[test]
    fn batches_fill_one_message_within_each_platform_limits() {
        let small = |i: usize| log_post().field("n", i.to_string());
        let big = |i: usize| Post::text("x".repeat(3_000)).titled(format!("big {i}"));
        let posts = |make: &dyn Fn(usize) -> Post, n: usize| (0..n).map(make).collect::<Vec<_>>();
        // Discord: 10 embeds a message, 6,000 characters in all.
        for (batch, want) in [
            (posts(&small, 25), 10),
            (posts(&small, 3), 3),
            (posts(&big, 5), 1),
            (posts(&|_| Post::text("y".repeat(2_000)).titled("t"), 5), 2),
        ] {
            let (body, count) = discord_batch(&batch);
            assert_eq!(count, want);
            let embeds = body["embeds"].as_array().unwrap();
            assert_eq!(embeds.len(), want);
            assert!(embeds.iter().map(discord_embed_size).sum::<usize>() <= DISCORD_EMBED_TOTAL);
            assert_eq!(body["allowed_mentions"], json!({"parse": []}));
        }
        // One post too big for the total alone still goes (cut to its limits).
        assert_eq!(
            discord_batch(&[Post::text("z".repeat(9_000)).titled("t")]).1,
            1
        );
        assert_eq!(discord_batch(&[]).1, 0);

        // Slack: 50 blocks, a divider between posts.
        let (args, count) = slack_batch(&posts(&small, 40));
        let blocks = args["blocks"].as_array().unwrap();
        assert!(blocks.len() <= SLACK_BLOCKS, "{}", blocks.len());
        // header, section, fields: 3 blocks a post, 1 divider between.
        assert_eq!(count, 12);
        assert_eq!(blocks.len(), count * 4 - 1);
        assert_eq!(blocks[3]["type"], "divider");
        assert_eq!(args["parse"], "none");
        assert_eq!(args["link_names"], false);
        assert!(
            args["text"]
                .as_str()
                .unwrap()
                .starts_with("Message deleted: said &lt;@&amp;1&gt;")
        );

        // Telegram: 4,096 characters, a blank line between posts, escaped.
        let (args, count) = telegram_batch(&posts(&small, 200));
        let text = args["text"].as_str().unwrap();
        assert!(text.chars().count() <= TELEGRAM_MESSAGE);
        assert_eq!(text.matches("<b>Message deleted</b>").count(), count);
        assert!(count > 20, "{count}");
        assert!(text.contains("\n\n<b>Message deleted</b>"));
        assert_eq!(args["parse_mode"], "HTML");
        assert_eq!(telegram_batch(&posts(&big, 3)).1, 1);
    }
}
