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

## Publicações nos canais de log (logging.*).
log-case-title = Caso #{ $number }: { $action }
log-case-member = Membro
log-case-moderator = Moderador
log-case-reason = Motivo
log-case-no-reason = nenhum motivo informado
log-case-duration = Duração
log-case-minutes = { $minutes } min
log-case-source = Origem
log-case-linked = Por causa de
log-case-linked-value = caso #{ $number }
log-case-outcome = Resultado
log-config-title = Configuração alterada: { $section }
log-config-by = Por
log-config-revision = Revisão
log-config-change = { $before } → { $after }
log-automod-title = Automod: { $filter }
log-automod-member = Membro
log-automod-channel = Canal
log-automod-matched = Correspondência
log-automod-action = Ação
log-automod-outcome = Mensagem
log-automod-case = Caso
log-deleted-title = Mensagem apagada
log-deleted-unknown = conteúdo desconhecido: o daemon não viu esta mensagem
log-message-author = Autor
log-message-channel = Canal
log-message-id = Mensagem
log-edited-title = Mensagem editada
log-edited-before = Antes
log-edited-after = Depois
log-edited-unknown = desconhecido
log-joined-title = Membro entrou
log-left-title = Membro saiu
log-antinuke-title = O antinuke deteve alguém
log-antinuke-executor = Executor
log-antinuke-action = Ação
log-antinuke-outcome = Resultado
log-member-id = Membro
log-member-name = Nome
log-member-bot = Bot
log-member-channel = Canal
log-yes = sim

## Aviso do automod a um membro do Slack.
automod-notice = Sua mensagem foi barrada pelo automod deste workspace ({ $filters }). Por favor, remova-a.

## Bloqueios contra raids (issue #26).
log-lockdown-started-title = Bloqueio contra raid iniciado
log-lockdown-ended-title = Bloqueio contra raid encerrado
log-lockdown-by = Iniciado por
log-lockdown-ended-by = Encerrado por
log-lockdown-until = Até
log-lockdown-why = Motivo
log-lockdown-platform = Plataforma
log-lockdown-held = Membros retidos
