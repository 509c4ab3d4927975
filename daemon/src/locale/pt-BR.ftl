# Português do Brasil. Same keys as en.ftl.

## Mensagens diretas a um membro sobre um caso.
dm-warn = Você recebeu uma advertência em { $server }: { $reason } (caso #{ $case })
dm-timeout = Você foi silenciado em { $server } por { $duration }: { $reason } (caso #{ $case })
dm-kick = Você foi removido de { $server }: { $reason } (caso #{ $case })
dm-ban = Você foi banido de { $server }: { $reason } (caso #{ $case })
dm-unban = Seu banimento de { $server } foi revogado (caso #{ $case })
dm-jail = Você foi isolado em { $server } { $duration }: { $reason } (caso #{ $case })
dm-unjail = Você foi liberado do isolamento em { $server } (caso #{ $case })
dm-no-reason = nenhum motivo informado

## Durações.
duration-minutes = { $n ->
    [one] 1 minuto
   *[other] { $n } minutos
}
duration-hours = { $n ->
    [one] 1 hora
   *[other] { $n } horas
}
duration-days = { $n ->
    [one] 1 dia
   *[other] { $n } dias
}
duration-for = por { $duration }
duration-until-released = até ser liberado
