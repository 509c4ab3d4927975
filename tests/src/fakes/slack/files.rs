//! Issue #26's Slack captcha, as Slack's references document it:
//!
//! - `files.getUploadURLExternal` (docs.slack.dev, methods reference:
//!   `filename` and `length`, "Size in bytes of the file being uploaded",
//!   both required) answers an `upload_url` and a `file_id`; the bytes are
//!   POSTed to the `upload_url` without a token (the fake's is
//!   `/upload/<file_id>` on itself), and Slack answers it `200`.
//! - `files.completeUploadExternal` ("Finishes an upload started with
//!   files.getUploadURLExternal": `files`, an array of `{id, title}`,
//!   required; `channel_id`, "Channel ID where the file will be shared";
//!   `initial_comment`, "The message text introducing the file") shares
//!   the uploaded file: the fake keeps a message in the channel, its text
//!   the comment, its arguments what was sent. A file never uploaded, or
//!   completed twice, is `file_not_found`; an unknown channel
//!   `channel_not_found`.
//! - `views.open` (slack-web-openapi.json: `trigger_id` and `view`
//!   required) opens a modal; the fake keeps it ([`FakeSlack::views`]) and
//!   answers it with an id. A `trigger_id` is good once (Slack: a trigger
//!   is exchanged for a view) and must be given (`invalid_arguments`
//!   otherwise).

use serde_json::{Map, Value, json};

use super::{FakeSlack, SlackMessage, Workspace, failure, success, text};
use crate::fakes::server::{Recorded, Reply};

/// A file being uploaded.
#[derive(Debug, Clone, Default)]
pub(super) struct Upload {
    /// The `length` declared.
    length: usize,
    /// Bytes received at its `upload_url` (its `Content-Length`), once
    /// POSTed.
    received: Option<usize>,
    /// Whether `files.completeUploadExternal` shared it.
    completed: bool,
}

/// A modal opened with `views.open`.
#[derive(Debug, Clone, PartialEq)]
pub struct OpenedView {
    /// The `trigger_id` it was opened with.
    pub trigger_id: String,
    /// The `view` as sent.
    pub view: Value,
}

impl Workspace {
    pub(super) fn upload_url(&mut self, request: &Recorded, args: &Map<String, Value>) -> Reply {
        let length = match args.get("length") {
            Some(Value::String(s)) => s.parse().ok(),
            Some(Value::Number(n)) => n.as_u64().and_then(|n| usize::try_from(n).ok()),
            _ => None,
        };
        let (Some(length), false) = (length, text(args, "filename").is_empty()) else {
            return failure("invalid_arguments");
        };
        let id = self.new_id("F");
        self.uploads.insert(
            id.clone(),
            Upload {
                length,
                ..Upload::default()
            },
        );
        let host = request.header("host").unwrap_or("127.0.0.1");
        success(json!({ "upload_url": format!("http://{host}/upload/{id}"), "file_id": id }))
    }

    /// A POST to an `upload_url`.
    pub(super) fn receive_upload(&mut self, request: &Recorded, id: &str) -> Reply {
        let Some(upload) = self.uploads.get_mut(id) else {
            return Reply::empty(404);
        };
        let bytes = request
            .header("content-length")
            .and_then(|l| l.parse().ok())
            .unwrap_or(0);
        upload.received = Some(bytes);
        Reply::empty(200)
    }

    pub(super) fn complete_upload(&mut self, args: &Map<String, Value>) -> Reply {
        let Some(files) = args.get("files").and_then(Value::as_array) else {
            return failure("invalid_arguments");
        };
        let channel = text(args, "channel_id").to_owned();
        if !self.channels.contains_key(&channel) {
            return failure("channel_not_found");
        }
        for file in files {
            let id = file["id"].as_str().unwrap_or_default();
            match self.uploads.get_mut(id) {
                Some(u) if !u.completed && u.received.is_some() => u.completed = true,
                _ => return failure("file_not_found"),
            }
        }
        let ts = self.next_ts();
        let comment = text(args, "initial_comment").to_owned();
        if let Some(c) = self.channels.get_mut(&channel) {
            c.messages.push(SlackMessage {
                ts,
                user: super::BOT.to_owned(),
                text: comment,
                args: Value::Object(args.clone()),
                deleted: false,
            });
        }
        success(json!({ "files": files }))
    }

    pub(super) fn open_view(&mut self, args: &Map<String, Value>) -> Reply {
        let trigger_id = text(args, "trigger_id").to_owned();
        let view = match args.get("view") {
            Some(Value::String(s)) => serde_json::from_str(s).unwrap_or(Value::Null),
            Some(v) => v.clone(),
            None => Value::Null,
        };
        if trigger_id.is_empty() || !view.is_object() {
            return failure("invalid_arguments");
        }
        if self.views.iter().any(|v| v.trigger_id == trigger_id) {
            return failure("expired_trigger_id");
        }
        let id = self.new_id("V");
        self.views.push(OpenedView { trigger_id, view });
        success(json!({ "view": { "id": id } }))
    }
}

impl FakeSlack {
    /// The modals opened so far, oldest first.
    pub fn views(&self) -> Vec<OpenedView> {
        self.state().views.clone()
    }

    /// How many files were uploaded and shared, and the bytes of each.
    pub fn shared_files(&self) -> Vec<(usize, usize)> {
        self.state()
            .uploads
            .values()
            .filter(|u| u.completed)
            .map(|u| (u.length, u.received.unwrap_or(0)))
            .collect()
    }
}
