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
