# Deutsch. Same keys as en.ftl.

## Direktnachrichten an ein Mitglied zu einem Fall.
dm-warn = Du wurdest auf { $server } verwarnt: { $reason } (Fall #{ $case })
dm-timeout = Du wurdest auf { $server } für { $duration } stummgeschaltet: { $reason } (Fall #{ $case })
dm-kick = Du wurdest von { $server } entfernt: { $reason } (Fall #{ $case })
dm-ban = Du wurdest von { $server } gebannt: { $reason } (Fall #{ $case })
dm-unban = Dein Bann von { $server } wurde aufgehoben (Fall #{ $case })
dm-jail = Du wurdest auf { $server } { $duration } isoliert: { $reason } (Fall #{ $case })
dm-unjail = Deine Isolation auf { $server } wurde aufgehoben (Fall #{ $case })
dm-no-reason = kein Grund angegeben

## Zeitdauern.
duration-minutes = { $n ->
    [one] 1 Minute
   *[other] { $n } Minuten
}
duration-hours = { $n ->
    [one] 1 Stunde
   *[other] { $n } Stunden
}
duration-days = { $n ->
    [one] 1 Tag
   *[other] { $n } Tage
}
duration-for = für { $duration }
duration-until-released = bis zur Freilassung
