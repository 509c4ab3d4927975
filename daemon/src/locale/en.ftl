# English: the reference catalog. Every key here must be in every other
# catalog (a unit test checks it); a key missing from a catalog falls back
# to this one. Placeholders: $server (the server's name), $reason, $case
# (the case number), $duration (see duration-*).

## Direct messages to a member about a case (moderation.dm_on_action), used
## when moderation.templates has no template for the action.
dm-warn = You have been warned on { $server }: { $reason } (case #{ $case })
dm-timeout = You have been timed out on { $server } for { $duration }: { $reason } (case #{ $case })
dm-kick = You have been removed from { $server }: { $reason } (case #{ $case })
dm-ban = You have been banned from { $server }: { $reason } (case #{ $case })
dm-unban = Your ban from { $server } has been lifted (case #{ $case })
dm-jail = You have been jailed on { $server } { $duration }: { $reason } (case #{ $case })
dm-unjail = You have been released from jail on { $server } (case #{ $case })
dm-no-reason = no reason given

## Durations, for $duration.
duration-minutes = { $n ->
    [one] 1 minute
   *[other] { $n } minutes
}
duration-hours = { $n ->
    [one] 1 hour
   *[other] { $n } hours
}
duration-days = { $n ->
    [one] 1 day
   *[other] { $n } days
}
duration-for = for { $duration }
duration-until-released = until you are released

## Log channel posts (logging.*): titles and field names; the values
## filled in (ids, reasons, quoted messages) are never translated.
log-case-title = Case #{ $number }: { $action }
log-case-member = Member
log-case-moderator = Moderator
log-case-reason = Reason
log-case-no-reason = no reason given
log-case-duration = Duration
log-case-minutes = { $minutes } min
log-case-source = Source
log-case-linked = Because of
log-case-linked-value = case #{ $number }
log-case-outcome = Outcome
log-config-title = Config changed: { $section }
log-config-by = By
log-config-revision = Revision
log-config-change = { $before } → { $after }
log-automod-title = Automod: { $filter }
log-automod-member = Member
log-automod-channel = Channel
log-automod-matched = Matched
log-automod-action = Action
log-automod-outcome = Message
log-automod-case = Case
log-deleted-title = Message deleted
log-deleted-unknown = content unknown: the daemon did not see this message
log-message-author = Author
log-message-channel = Channel
log-message-id = Message
log-edited-title = Message edited
log-edited-before = Before
log-edited-after = After
log-edited-unknown = unknown
log-joined-title = Member joined
log-left-title = Member left
log-antinuke-title = Antinuke stopped someone
log-antinuke-executor = Executor
log-antinuke-action = Action
log-antinuke-outcome = Outcome
log-member-id = Member
log-member-name = Name
log-member-bot = Bot
log-member-channel = Channel
log-yes = yes

## Automod's notice to a Slack member whose message it could not delete.
automod-notice = Your message was caught by this workspace's automod ({ $filters }). Please remove it.

## Raid lockdowns (issue #26).
log-lockdown-started-title = Raid lockdown started
log-lockdown-ended-title = Raid lockdown ended
log-lockdown-by = Started by
log-lockdown-ended-by = Ended by
log-lockdown-until = Until
log-lockdown-why = Why
log-lockdown-platform = Platform
log-lockdown-held = Members held
