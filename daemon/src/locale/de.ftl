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

## Beiträge in Log-Kanälen (logging.*).
log-case-title = Fall #{ $number }: { $action }
log-case-member = Mitglied
log-case-moderator = Moderator
log-case-reason = Grund
log-case-no-reason = kein Grund angegeben
log-case-duration = Dauer
log-case-minutes = { $minutes } Min.
log-case-source = Quelle
log-case-linked = Wegen
log-case-linked-value = Fall #{ $number }
log-case-outcome = Ergebnis
log-config-title = Konfiguration geändert: { $section }
log-config-by = Von
log-config-revision = Revision
log-config-change = { $before } → { $after }
log-automod-title = Automod: { $filter }
log-automod-member = Mitglied
log-automod-channel = Kanal
log-automod-matched = Treffer
log-automod-action = Aktion
log-automod-outcome = Nachricht
log-automod-case = Fall
log-deleted-title = Nachricht gelöscht
log-deleted-unknown = Inhalt unbekannt: der Daemon hat diese Nachricht nicht gesehen
log-message-author = Verfasser
log-message-channel = Kanal
log-message-id = Nachricht
log-edited-title = Nachricht bearbeitet
log-edited-before = Vorher
log-edited-after = Nachher
log-edited-unknown = unbekannt
log-joined-title = Mitglied beigetreten
log-left-title = Mitglied gegangen
log-antinuke-title = Antinuke hat jemanden gestoppt
log-antinuke-executor = Ausführender
log-antinuke-action = Maßnahme
log-antinuke-outcome = Ergebnis
log-member-id = Mitglied
log-member-name = Name
log-member-bot = Bot
log-member-channel = Kanal
log-yes = ja

## Hinweis des Automods an ein Slack-Mitglied.
automod-notice = Deine Nachricht wurde vom Automod dieses Workspaces erfasst ({ $filters }). Bitte entferne sie.

## Raid-Sperren (Issue #26).
log-lockdown-started-title = Raid-Sperre begonnen
log-lockdown-ended-title = Raid-Sperre beendet
log-lockdown-by = Begonnen von
log-lockdown-ended-by = Beendet von
log-lockdown-until = Bis
log-lockdown-why = Grund
log-lockdown-platform = Plattform
log-lockdown-held = Zurückgehaltene Mitglieder
