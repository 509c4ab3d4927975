-- A Telegram group upgraded to a supergroup gets a new chat id (Bot API,
-- Message `migrate_to_chat_id` / `migrate_from_chat_id`, ResponseParameters
-- `migrate_to_chat_id`); the old id answers nothing any more (issue #23).
-- The server keeps its id in the store, with its history (cases, activity,
-- config, snapshots refer to it), and this column records the chat id the
-- platform calls use from then on. NULL: the server id itself.
ALTER TABLE platform_connections ADD COLUMN telegram_chat_id TEXT;
