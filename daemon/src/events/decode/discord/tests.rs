//! The Discord decoder's tests: payloads as the gateway events reference
//! shows them.

use serde_json::json;

use super::*;
use crate::platform::Role;

const GUILD: &str = "100000000000000001";
const CHANNEL: &str = "300000000000000001";

fn at() -> Timestamp {
    "2026-11-22T10:00:00Z".parse().unwrap()
}

/// A `MESSAGE_CREATE` as the gateway events reference shows one (a
/// message object with `guild_id` and `member`).
fn message(author: Value, kind: u8) -> Value {
    json!({
        "id": "334385199974967042", "channel_id": CHANNEL, "guild_id": GUILD,
        "author": author, "type": kind, "content": "hello <@80351110224678912>",
        "timestamp": "2026-11-22T10:00:00Z", "edited_timestamp": null, "tts": false,
        "mention_everyone": false,
        "mentions": [{"id": "80351110224678912", "username": "Nelly",
                      "discriminator": "1337", "avatar": null, "public_flags": 0}],
        "mention_roles": ["41771983423143936"],
        "attachments": [{"id": "1", "filename": "cat.png", "size": 10,
                         "url": "https://cdn.discordapp.com/attachments/1/1/cat.png",
                         "proxy_url": "https://media.discordapp.net/attachments/1/1/cat.png",
                         "content_type": "image/png"}],
        "embeds": [], "pinned": false,
        "member": {"roles": ["41771983423143937"], "nick": "Nell", "joined_at": "2026-01-01T00:00:00Z",
                   "deaf": false, "mute": false, "flags": 0},
    })
}

fn one(events: Vec<Event>) -> Event {
    assert_eq!(events.len(), 1, "{events:?}");
    events.into_iter().next().unwrap()
}

/// A whole frame decodes as `dispatch_of` then `decode` do, messages
/// (read without a `Value`) and other dispatches alike; a frame that
/// is no dispatch is nothing; a message missing a required field is
/// an error that names it.
#[test]
fn a_frame_decodes_as_dispatch_of_then_decode() {
    let author = json!({"id": "53908232506183680", "username": "Mason", "discriminator": "0"});
    let member = json!({"guild_id": GUILD, "user": author.clone(), "roles": []});
    let mut update = message(author.clone(), 0);
    update["edited_timestamp"] = json!("2026-11-22T10:01:00Z");
    let frames = [
        json!({"op": 0, "t": "MESSAGE_CREATE", "s": 1, "d": message(author.clone(), 0)}),
        json!({"op": 0, "t": "MESSAGE_UPDATE", "s": 2, "d": update}),
        json!({"t": "GUILD_MEMBER_ADD", "s": 3, "op": 0, "d": member}),
        json!({"op": 0, "t": "MESSAGE_CREATE", "s": 4, "d": message(author.clone(), 6)}),
        json!({"op": 11, "d": null}),
        json!({"op": 0, "t": "TYPING_START", "s": 5, "d": {}}),
    ];
    for frame in frames {
        let text = frame.to_string();
        let slow = dispatch_of(&text)
            .unwrap()
            .map(|d| (d.name.clone(), decode(&d.name, d.data, at()).unwrap()));
        assert_eq!(decode_frame(&text, at(), None).unwrap(), slow, "{text}");
    }
    let mut broken = message(author, 0);
    broken.as_object_mut().unwrap().remove("channel_id");
    let frame = json!({"op": 0, "t": "MESSAGE_CREATE", "s": 6, "d": broken}).to_string();
    let error = decode_frame(&frame, at(), None).unwrap_err().to_string();
    assert!(error.contains("channel_id"), "{error}");
    assert!(decode_frame("{not json", at(), None).is_err());
}

#[test]
fn a_member_message_is_read_whole() {
    let author = json!({"id": "53908232506183680", "username": "Mason", "discriminator": "0"});
    let event = one(decode("MESSAGE_CREATE", message(author, 0), at()).unwrap());
    assert_eq!(&*event.server_id, GUILD);
    assert_eq!(event.platform, Platform::Discord);
    assert_eq!(
        event.id.as_deref(),
        Some("discord:message:334385199974967042")
    );
    let EventKind::MessageCreated(m) = event.kind else {
        panic!("{event:?}")
    };
    assert_eq!(
        m,
        Message {
            id: "334385199974967042".into(),
            channel_id: CHANNEL.into(),
            author: Author {
                id: "53908232506183680".into(),
                is_bot: false,
                role_ids: vec!["41771983423143937".into()],
                display_name: Some("Nell".into()),
            },
            content: Some("hello <@80351110224678912>".into()),
            links: vec![],
            mentions: Mentions {
                user_ids: vec!["80351110224678912".into()],
                usernames: vec![],
                role_ids: vec!["41771983423143936".into()],
                everyone: false,
            },
            attachments: vec![Attachment {
                file_name: Some("cat.png".into()),
                url: Some("https://cdn.discordapp.com/attachments/1/1/cat.png".into()),
            }],
            reply_to: None,
        }
    );
}

#[test]
fn without_the_content_intent_there_is_no_content() {
    // What Discord sends without MESSAGE_CONTENT: empty text and lists.
    let d = json!({"id": "9", "channel_id": CHANNEL, "guild_id": GUILD, "type": 19,
                   "author": {"id": "5", "username": "u"}, "content": "",
                   "timestamp": "2026-11-22T10:00:00Z",
                   "message_reference": {"message_id": "8", "channel_id": CHANNEL}});
    let event = one(decode("MESSAGE_CREATE", d, at()).unwrap());
    let EventKind::MessageCreated(m) = event.kind else {
        panic!()
    };
    assert_eq!((m.content, m.reply_to.as_deref()), (None, Some("8")));
    assert!(m.mentions.user_ids.is_empty() && m.attachments.is_empty());
}

#[test]
fn bots_and_webhooks_are_marked_system_messages_and_dms_left_out() {
    let cases = [
        (
            json!({"id": "7", "username": "b", "bot": true}),
            0,
            None,
            true,
            Some(true),
        ),
        (
            json!({"id": "7", "username": "w"}),
            0,
            Some("77"),
            true,
            Some(true),
        ),
        (json!({"id": "7", "username": "u"}), 6, None, true, None),
        (json!({"id": "7", "username": "u"}), 0, None, false, None),
    ];
    for (author, kind, webhook, in_guild, expected) in cases {
        let mut d = message(author.clone(), kind);
        if let Some(w) = webhook {
            d["webhook_id"] = json!(w);
        }
        if !in_guild {
            d.as_object_mut().unwrap().remove("guild_id");
        }
        let events = decode("MESSAGE_CREATE", d, at()).unwrap();
        let is_bot = events.first().map(|e| match &e.kind {
            EventKind::MessageCreated(m) => m.author.is_bot,
            other => panic!("{other:?}"),
        });
        assert_eq!(is_bot, expected, "{author} type {kind} webhook {webhook:?}");
    }
}

#[test]
fn edits_and_deletes_single_and_bulk() {
    let author = json!({"id": "5", "username": "u"});
    let mut update = message(author, 0);
    update["edited_timestamp"] = json!("2026-11-22T10:05:00Z");
    let edited = one(decode("MESSAGE_UPDATE", update, at()).unwrap());
    assert!(matches!(edited.kind, EventKind::MessageEdited(ref m) if m.content.is_some()));
    assert_eq!(
        edited.id.as_deref(),
        Some("discord:edited:334385199974967042:2026-11-22T10:05:00Z")
    );
    let deleted = one(decode(
        "MESSAGE_DELETE",
        json!({"id": "9", "channel_id": CHANNEL, "guild_id": GUILD}),
        at(),
    )
    .unwrap());
    assert_eq!(
        deleted.kind,
        EventKind::MessageDeleted {
            channel_id: CHANNEL.into(),
            message_id: "9".into()
        }
    );
    let bulk = decode(
        "MESSAGE_DELETE_BULK",
        json!({"ids": ["9", "10"], "channel_id": CHANNEL, "guild_id": GUILD}),
        at(),
    )
    .unwrap();
    let ids: Vec<_> = bulk
        .iter()
        .map(|e| match &e.kind {
            EventKind::MessageDeleted { message_id, .. } => message_id.as_str(),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(ids, ["9", "10"]);
}

#[test]
fn an_update_without_edited_timestamp_is_not_an_edit() {
    // What Discord sends when it unfurls a link's embed: the whole
    // message again, `edited_timestamp` null, the embed filled in.
    let author = json!({"id": "5", "username": "u"});
    let mut unfurled = message(author, 0);
    unfurled["content"] = json!("look https://example.com");
    unfurled["embeds"] = json!([{"type": "link", "url": "https://example.com",
                                  "title": "Example Domain"}]);
    assert_eq!(unfurled["edited_timestamp"], Value::Null);
    assert_eq!(
        decode("MESSAGE_UPDATE", unfurled.clone(), at()).unwrap(),
        vec![]
    );
    // Left out altogether (a partial update): not an edit either.
    unfurled.as_object_mut().unwrap().remove("edited_timestamp");
    assert_eq!(
        decode("MESSAGE_UPDATE", unfurled.clone(), at()).unwrap(),
        vec![]
    );
    // The member's edit carries its time.
    unfurled["edited_timestamp"] = json!("2026-11-22T10:05:00Z");
    let edited = one(decode("MESSAGE_UPDATE", unfurled, at()).unwrap());
    assert!(matches!(edited.kind, EventKind::MessageEdited(_)));
}

#[test]
fn an_automod_execution_is_read() {
    // The shape of "Auto Moderation Action Execution" in the gateway
    // events reference.
    let d = json!({
        "guild_id": GUILD, "action": {"type": 1, "metadata": {}},
        "rule_id": "200000000000000001", "rule_trigger_type": 1,
        "user_id": "5", "channel_id": CHANNEL, "message_id": "9",
        "alert_system_message_id": null, "content": "buy cheap stuff",
        "matched_keyword": "cheap*", "matched_content": "cheap"
    });
    let event = one(decode("AUTO_MODERATION_ACTION_EXECUTION", d.clone(), at()).unwrap());
    assert_eq!(
        event.kind,
        EventKind::AutoModAction(AutoModAction {
            rule_id: "200000000000000001".into(),
            trigger_type: 1,
            action_type: 1,
            user_id: "5".into(),
            channel_id: Some(CHANNEL.into()),
            message_id: Some("9".into()),
            matched_keyword: Some("cheap*".into()),
            matched_content: Some("cheap".into()),
            content: Some("buy cheap stuff".into()),
        })
    );
    // A blocked message has no id: the dispatch names it, when the
    // transport says where it came from.
    let mut blocked = d.clone();
    blocked.as_object_mut().unwrap().remove("message_id");
    let delivered = |delivery| {
        let events = decode_delivered(
            "AUTO_MODERATION_ACTION_EXECUTION",
            blocked.clone(),
            at(),
            delivery,
        );
        one(events.unwrap()).id
    };
    let table = [
        (
            Some(Delivery {
                session_id: "abc",
                seq: 41,
            }),
            Some("discord:automod:200000000000000001:dispatch:abc:41:1"),
        ),
        (
            Some(Delivery {
                session_id: "abd",
                seq: 41,
            }),
            Some("discord:automod:200000000000000001:dispatch:abd:41:1"),
        ),
        (None, None),
    ];
    for (delivery, id) in table {
        assert_eq!(delivered(delivery).as_deref(), id, "{delivery:?}");
    }
    // With a message id, that names it, wherever it came from.
    let with_id = decode_delivered(
        "AUTO_MODERATION_ACTION_EXECUTION",
        d.clone(),
        at(),
        Some(Delivery {
            session_id: "abc",
            seq: 41,
        }),
    );
    assert_eq!(
        one(with_id.unwrap()).id.as_deref(),
        Some("discord:automod:200000000000000001:9:1")
    );
    let mut no_rule = d;
    no_rule.as_object_mut().unwrap().remove("rule_id");
    let err = decode("AUTO_MODERATION_ACTION_EXECUTION", no_rule, at()).unwrap_err();
    assert!(err.to_string().contains("rule_id"), "{err}");
}

/// audit-log.mdx: an entry's `action_type` and `changes` (`$add` with
/// partial roles, `permissions` as strings) read into what antinuke
/// counts; a change key twilight does not know is skipped, not an error.
#[test]
fn audit_log_entries_say_what_was_done_by_whom() {
    let entry = |action: u16, changes: Value| {
        json!({"id": "900000000000000001", "guild_id": GUILD, "user_id": "500000000000000009",
               "target_id": "700000000000000005", "action_type": action, "changes": changes,
               "reason": ""})
    };
    let table = [
        (12, json!([]), AuditAction::ChannelDeleted),
        (32, json!([]), AuditAction::RoleDeleted),
        (22, json!([]), AuditAction::MemberBanned),
        (20, json!([]), AuditAction::MemberKicked),
        (21, json!([]), AuditAction::MembersPruned),
        (50, json!([]), AuditAction::WebhookCreated),
        (28, json!([]), AuditAction::BotAdded),
        (
            25,
            json!([{"key": "$add", "new_value": [{"id": "600000000000000003", "name": "Admins"}]},
                   {"key": "some_future_key", "new_value": 1}]),
            AuditAction::RolesGranted(vec!["600000000000000003".into()]),
        ),
        (
            31,
            json!([{"key": "permissions", "old_value": "2", "new_value": "10"}]),
            AuditAction::PermissionsGranted {
                granted: 8,
                before: Some(2),
                after: Some(10),
            },
        ),
        (
            30,
            json!([{"key": "permissions", "new_value": "4"}]),
            AuditAction::PermissionsGranted {
                granted: 4,
                before: None,
                after: Some(4),
            },
        ),
        (
            31,
            json!([{"key": "name", "new_value": "x"}]),
            AuditAction::PermissionsGranted {
                granted: 0,
                before: None,
                after: None,
            },
        ),
        (10, json!([]), AuditAction::Other(10)),
    ];
    for (action, changes, expected) in table {
        let events = decode("GUILD_AUDIT_LOG_ENTRY_CREATE", entry(action, changes), at());
        let event = one(events.unwrap());
        assert_eq!(event.server_id.as_ref(), GUILD);
        assert_eq!(
            event.id.as_deref(),
            Some("discord:audit:900000000000000001")
        );
        let EventKind::AuditLogEntry(e) = event.kind else {
            panic!("{:?}", event.kind)
        };
        assert_eq!(e.action, expected, "action_type {action}");
        assert_eq!(e.executor_id.as_deref(), Some("500000000000000009"));
        assert_eq!(e.target_id.as_deref(), Some("700000000000000005"));
        assert_eq!(e.reason, None);
    }
    let mut no_type = entry(12, json!([]));
    no_type.as_object_mut().unwrap().remove("action_type");
    let err = decode("GUILD_AUDIT_LOG_ENTRY_CREATE", no_type, at()).unwrap_err();
    assert!(err.to_string().contains("action_type"), "{err}");
}

#[test]
fn a_missing_field_or_a_bad_id_is_an_error_not_a_zero() {
    let mut no_author = message(json!({"id": "5", "username": "u"}), 0);
    no_author.as_object_mut().unwrap().remove("author");
    let err = decode("MESSAGE_CREATE", no_author, at()).unwrap_err();
    assert!(err.to_string().contains("author"), "{err}");
    let bad_id = message(json!({"id": "not a snowflake", "username": "u"}), 0);
    assert!(decode("MESSAGE_CREATE", bad_id, at()).is_err());
    let err = decode("GUILD_MEMBER_ADD", json!({"user": {"id": "5"}}), at()).unwrap_err();
    assert!(err.to_string().contains("guild_id"), "{err}");
    let err = decode(
        "VOICE_STATE_UPDATE",
        json!({"guild_id": GUILD, "user_id": "5"}),
        at(),
    )
    .unwrap_err();
    assert!(err.to_string().contains("channel_id"), "{err}");
    let err = decode("GUILD_CREATE", json!({"id": GUILD}), at()).unwrap_err();
    assert!(err.to_string().contains("voice_states"), "{err}");
}

/// receiving-and-responding.mdx, "Interaction Object": a guild button
/// press (type 3) is read with its reply handle; a slash command
/// (type 2), a DM press (no `guild_id`) and a payload without `token`
/// are not a press.
#[test]
fn a_button_press_is_read_and_other_interactions_are_not() {
    let press = |kind: u8, guild: Option<&str>| {
        json!({"id": "900", "type": kind, "token": "tok", "application_id": "1",
               "guild_id": guild, "channel_id": "70",
               "member": {"user": {"id": "5", "username": "n"}, "roles": []},
               "data": {"custom_id": "modctl:verify", "component_type": 2},
               "message": {"id": "71"}})
    };
    let event = one(decode("INTERACTION_CREATE", press(3, Some(GUILD)), at()).unwrap());
    assert_eq!(event.server_id.as_ref(), GUILD);
    assert_eq!(event.id.as_deref(), Some("discord:interaction:900"));
    assert_eq!(
        event.kind,
        EventKind::ButtonPressed(ButtonPress {
            user_id: "5".into(),
            custom_id: "modctl:verify".into(),
            channel_id: Some("70".into()),
            message_id: Some("71".into()),
            reply: PressReply::Discord {
                id: "900".into(),
                token: "tok".into()
            },
        })
    );
    let table = [press(2, Some(GUILD)), press(3, None)];
    for d in table {
        assert!(
            decode("INTERACTION_CREATE", d.clone(), at())
                .unwrap()
                .is_empty(),
            "{d}"
        );
    }
    let mut no_token = press(3, Some(GUILD));
    no_token.as_object_mut().unwrap().remove("token");
    let err = decode("INTERACTION_CREATE", no_token, at()).unwrap_err();
    assert!(err.to_string().contains("token"), "{err}");
}

/// receiving-and-responding.mdx, "Modal Submit Data Structure": a
/// guild modal submission (type 5) is read with its text fields, in an
/// action row (type 1) or a label (type 18) alike; one in a DM is not.
#[test]
fn a_modal_submission_is_read_with_its_fields() {
    let submit = |guild: Option<&str>| {
        json!({"id": "901", "type": 5, "token": "tok", "application_id": "1",
        "guild_id": guild, "channel_id": "70",
        "member": {"user": {"id": "5", "username": "n"}, "roles": []},
        "data": {"custom_id": "modctl:captcha:answer", "components": [
            {"type": 1, "components": [{"type": 4, "custom_id": "code", "value": "12345"}]},
            {"type": 18, "component": {"type": 4, "custom_id": "note", "value": "hi"}},
        ]}})
    };
    let event = one(decode("INTERACTION_CREATE", submit(Some(GUILD)), at()).unwrap());
    assert_eq!(event.id.as_deref(), Some("discord:interaction:901"));
    assert_eq!(
        event.kind,
        EventKind::FormSubmitted(FormSubmit {
            user_id: "5".into(),
            custom_id: "modctl:captcha:answer".into(),
            fields: vec![
                ("code".into(), "12345".into()),
                ("note".into(), "hi".into())
            ],
            reply: PressReply::Discord {
                id: "901".into(),
                token: "tok".into()
            },
        })
    );
    assert!(
        decode("INTERACTION_CREATE", submit(None), at())
            .unwrap()
            .is_empty()
    );
}

#[test]
fn joins_leaves_and_voice_states_are_read() {
    let join = one(decode(
        "GUILD_MEMBER_ADD",
        json!({"guild_id": GUILD, "user": {"id": "5", "username": "n"}, "roles": [],
                   "joined_at": "2026-11-22T10:00:00Z", "deaf": false, "mute": false}),
        at(),
    )
    .unwrap());
    assert_eq!(
        join.kind,
        EventKind::MemberJoined(Membership {
            member: MemberRef {
                id: "5".into(),
                is_bot: false,
                display_name: Some("n".into())
            },
            channel_id: None,
            pending: false
        })
    );
    let screened = one(decode(
        "GUILD_MEMBER_ADD",
        json!({"guild_id": GUILD, "user": {"id": "7", "username": "p"}, "roles": [],
                   "joined_at": "2026-11-22T10:00:00Z", "pending": true}),
        at(),
    )
    .unwrap());
    assert!(matches!(screened.kind, EventKind::MemberJoined(ref m) if m.pending));
    let passed = one(decode(
        "GUILD_MEMBER_UPDATE",
        json!({"guild_id": GUILD, "user": {"id": "7", "username": "p"}, "nick": "Pat",
               "roles": ["600000000000000009"], "joined_at": "2026-11-22T10:00:00Z",
               "pending": false}),
        at(),
    )
    .unwrap());
    assert_eq!(
        passed.kind,
        EventKind::MemberUpdated(MemberUpdate {
            member: MemberRef {
                id: "7".into(),
                is_bot: false,
                display_name: Some("Pat".into())
            },
            pending: false,
            role_ids: vec!["600000000000000009".into()],
        })
    );
    let err = decode(
        "GUILD_MEMBER_UPDATE",
        json!({"guild_id": GUILD, "user": {"id": "7"}, "roles": ["not a snowflake"]}),
        at(),
    )
    .unwrap_err();
    assert!(err.to_string().contains("roles"), "{err}");
    let leave = one(decode(
        "GUILD_MEMBER_REMOVE",
        json!({"guild_id": GUILD, "user": {"id": "6", "bot": true}}),
        at(),
    )
    .unwrap());
    assert!(matches!(leave.kind, EventKind::MemberLeft(ref m) if m.member.is_bot));

    let left = one(decode(
        "VOICE_STATE_UPDATE",
        json!({"guild_id": GUILD, "channel_id": null, "user_id": "5", "session_id": "s"}),
        at(),
    )
    .unwrap());
    assert_eq!(
        left.kind,
        EventKind::VoiceChanged(VoiceState {
            user_id: "5".into(),
            channel_id: None
        })
    );
    let mut guild = decode(
        "GUILD_CREATE",
        json!({"id": GUILD, "voice_states": [
            {"channel_id": "400000000000000001", "user_id": "5", "session_id": "s"},
            {"channel_id": "400000000000000001", "user_id": "6",
             "member": {"user": {"id": "6", "bot": true}}}
        ]}),
        at(),
    )
    .unwrap();
    assert_eq!(guild.len(), 2, "{guild:?}");
    let voice = guild.pop().unwrap();
    assert_eq!(
        guild[0].kind,
        EventKind::GuildChanged(GuildState {
            session_start: true,
            whole: None
        })
    );
    assert_eq!(
        voice.kind,
        EventKind::VoiceSnapshot(vec![VoiceState {
            user_id: "5".into(),
            channel_id: Some("400000000000000001".into())
        }])
    );
    let unavailable = decode(
        "GUILD_CREATE",
        json!({"id": GUILD, "unavailable": true}),
        at(),
    );
    assert_eq!(unavailable.unwrap(), vec![]);
}

/// gateway-events.mdx: `GUILD_CREATE` and `GUILD_UPDATE` carry the
/// guild's owner and roles (permissions as strings), the role events a
/// role object or its id; a guild object without them says nothing of
/// them.
#[test]
fn guild_and_role_dispatches_keep_the_hierarchy() {
    let role = |id: &str, position, permissions| Role {
        id: id.into(),
        position,
        permissions,
        managed: false,
    };
    let roles = json!([{"id": GUILD, "position": 0, "permissions": "0"},
                       {"id": "600000000000000001", "position": 3, "permissions": "8",
                        "managed": false}]);
    let whole = Some((
        "500000000000000002".to_owned(),
        vec![role(GUILD, 0, 0), role("600000000000000001", 3, 8)],
    ));
    let table = [
        (
            "GUILD_CREATE",
            json!({"id": GUILD, "voice_states": [], "owner_id": "500000000000000002",
                   "roles": roles}),
            EventKind::GuildChanged(GuildState {
                session_start: true,
                whole: whole.clone(),
            }),
        ),
        (
            "GUILD_UPDATE",
            json!({"id": GUILD, "owner_id": "500000000000000002", "roles": roles}),
            EventKind::GuildChanged(GuildState {
                session_start: false,
                whole,
            }),
        ),
        (
            "GUILD_UPDATE",
            json!({"id": GUILD, "name": "renamed"}),
            EventKind::GuildChanged(GuildState {
                session_start: false,
                whole: None,
            }),
        ),
        (
            "GUILD_ROLE_UPDATE",
            json!({"guild_id": GUILD, "role": {"id": "600000000000000001", "position": 3,
                   "permissions": "16", "managed": true}}),
            EventKind::RoleChanged(Role {
                managed: true,
                ..role("600000000000000001", 3, 16)
            }),
        ),
        (
            "GUILD_ROLE_DELETE",
            json!({"guild_id": GUILD, "role_id": "600000000000000001"}),
            EventKind::RoleRemoved("600000000000000001".into()),
        ),
    ];
    for (name, d, expected) in table {
        let events = decode(name, d, at()).unwrap();
        assert_eq!(events[0].server_id.as_ref(), GUILD);
        assert_eq!(events[0].kind, expected, "{name}");
    }
}

#[test]
fn only_dispatches_are_decoded() {
    let hello = r#"{"op": 10, "d": {"heartbeat_interval": 41250}}"#;
    assert_eq!(dispatch_of(hello).unwrap(), None);
    let dispatch = dispatch_of(r#"{"op": 0, "t": "READY", "s": 1, "d": {"v": 10}}"#)
        .unwrap()
        .unwrap();
    assert_eq!(
        dispatch,
        Dispatch {
            name: "READY".into(),
            seq: Some(1),
            data: json!({"v": 10})
        }
    );
    assert!(dispatch_of("not json").is_err());
    assert_eq!(decode("TYPING_START", json!({}), at()).unwrap(), vec![]);
}

/// guild.mdx "Guild Object" (`GUILD_CREATE`'s channels, roles and members)
/// and gateway-events.mdx "Channel Create": the names they give, a
/// member's nick before the global name before the username.
#[test]
fn guild_create_and_channel_dispatches_name_what_they_carry() {
    let guild = decode(
        "GUILD_CREATE",
        json!({"id": GUILD, "voice_states": [], "owner_id": "5",
        "roles": [{"id": "20", "name": "Mods", "position": 1, "permissions": "0"}],
        "channels": [{"id": "30", "name": "general", "type": 0}, {"id": "31", "type": 4}],
        "members": [
            {"user": {"id": "5", "username": "ada", "global_name": "Ada"}, "nick": "Ada L"},
            {"user": {"id": "6", "username": "bob", "global_name": null}, "nick": null},
            {"user": {"id": "7", "username": "cy", "global_name": "Cy"}},
        ]}),
        at(),
    )
    .unwrap();
    let seen = |kind, id: &str, name: &str| NameSeen {
        kind,
        id: id.into(),
        name: name.into(),
    };
    assert_eq!(
        guild.last().unwrap().kind,
        EventKind::NamesSeen(vec![
            seen(NameKind::Channel, "30", "general"),
            seen(NameKind::Role, "20", "Mods"),
            seen(NameKind::User, "5", "Ada L"),
            seen(NameKind::User, "6", "bob"),
            seen(NameKind::User, "7", "Cy"),
        ])
    );
    let channel = decode(
        "CHANNEL_UPDATE",
        json!({"id": "30", "guild_id": GUILD, "name": "announcements", "type": 0}),
        at(),
    )
    .unwrap();
    assert_eq!(
        channel[0].kind,
        EventKind::NamesSeen(vec![seen(NameKind::Channel, "30", "announcements")])
    );
    // A DM channel: no guild, no name.
    let dm = decode("CHANNEL_CREATE", json!({"id": "40", "type": 1}), at()).unwrap();
    assert_eq!(dm, vec![]);
}
