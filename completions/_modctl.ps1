
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'modctl' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'modctl'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'modctl' {
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'Print tab-separated rows without a header (the default when piped)')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print a table (the default on a terminal)')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('login', 'login', [CompletionResultType]::ParameterValue, 'Save a daemon URL and API key as a profile, after checking them')
            [CompletionResult]::new('logout', 'logout', [CompletionResultType]::ParameterValue, 'Forget the profile in use (--profile, else the default) and its API key')
            [CompletionResult]::new('profile', 'profile', [CompletionResultType]::ParameterValue, 'List the saved profiles, choose the default one, remove one')
            [CompletionResult]::new('whoami', 'whoami', [CompletionResultType]::ParameterValue, 'Show the calling key (team, scopes, expiry, server count) and the daemon URL and profile in use')
            [CompletionResult]::new('keys', 'keys', [CompletionResultType]::ParameterValue, 'List your team''s API keys: status, expiry, last use, replacement (never a secret)')
            [CompletionResult]::new('servers', 'servers', [CompletionResultType]::ParameterValue, 'List and show the servers your team has claimed')
            [CompletionResult]::new('config', 'config', [CompletionResultType]::ParameterValue, 'Show, change, export, import, clone, diff and audit a server''s moderation config')
            [CompletionResult]::new('action', 'action', [CompletionResultType]::ParameterValue, 'Moderate a member: note, warn, timeout, kick, ban, unban, jail, unjail')
            [CompletionResult]::new('cases', 'cases', [CompletionResultType]::ParameterValue, 'List, show, export, edit and void cases')
            [CompletionResult]::new('automod', 'automod', [CompletionResultType]::ParameterValue, 'Try a message against the server''s automod filters')
            [CompletionResult]::new('snapshot', 'snapshot', [CompletionResultType]::ParameterValue, 'Capture, list, show and diff structure snapshots; restore a nuked server''s roles and channels')
            [CompletionResult]::new('webhooks', 'webhooks', [CompletionResultType]::ParameterValue, 'Send a test event, list and show deliveries, redeliver one, rotate the signing secret')
            [CompletionResult]::new('lockdown', 'lockdown', [CompletionResultType]::ParameterValue, 'Start, end or show a raid lockdown (invites paused, joiners held until it ends)')
            [CompletionResult]::new('onboarding', 'onboarding', [CompletionResultType]::ParameterValue, 'The server''s setup checklist: what is done and the command that fixes each open item (plain columns: status, id, title, detail, fix)')
            [CompletionResult]::new('insights', 'insights', [CompletionResultType]::ParameterValue, 'Moderation insights: cases per day by action and source, moderators, repeat targets')
            [CompletionResult]::new('activity', 'activity', [CompletionResultType]::ParameterValue, 'Community activity: messages, active members, voice, joins and leaves per day; top channels and members')
            [CompletionResult]::new('strikes', 'strikes', [CompletionResultType]::ParameterValue, 'Strike counts per member, most active first; `strikes clear` pardons a member')
            [CompletionResult]::new('jails', 'jails', [CompletionResultType]::ParameterValue, 'Active jails, oldest first')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('watch', 'watch', [CompletionResultType]::ParameterValue, 'Watch a server''s events as they happen: cases, automod hits, jails, config changes, joins')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'modctl;login' {
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('--with-key', '--with-key', [CompletionResultType]::ParameterName, 'Read the API key from stdin (one line) instead of prompting, for scripts')
            [CompletionResult]::new('--default', '--default', [CompletionResultType]::ParameterName, 'Make the profile the default one (the first profile, and a plain `modctl login` without --profile, always become it)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'Print tab-separated rows without a header (the default when piped)')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print a table (the default on a terminal)')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'modctl;logout' {
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'Print tab-separated rows without a header (the default when piped)')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print a table (the default on a terminal)')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'modctl;profile' {
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'Print tab-separated rows without a header (the default when piped)')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print a table (the default on a terminal)')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'The saved profiles and their daemon URLs; the default one is marked')
            [CompletionResult]::new('use', 'use', [CompletionResultType]::ParameterValue, 'Make a profile the default, used when --profile is not given')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Forget a profile and its API key')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'modctl;profile;list' {
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'Print tab-separated rows without a header (the default when piped)')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print a table (the default on a terminal)')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'modctl;profile;use' {
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'Print tab-separated rows without a header (the default when piped)')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print a table (the default on a terminal)')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'modctl;profile;remove' {
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'Print tab-separated rows without a header (the default when piped)')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print a table (the default on a terminal)')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'modctl;profile;help' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'The saved profiles and their daemon URLs; the default one is marked')
            [CompletionResult]::new('use', 'use', [CompletionResultType]::ParameterValue, 'Make a profile the default, used when --profile is not given')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Forget a profile and its API key')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'modctl;profile;help;list' {
            break
        }
        'modctl;profile;help;use' {
            break
        }
        'modctl;profile;help;remove' {
            break
        }
        'modctl;profile;help;help' {
            break
        }
        'modctl;whoami' {
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'Print tab-separated rows without a header (the default when piped)')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print a table (the default on a terminal)')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'modctl;keys' {
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'Print tab-separated rows without a header (the default when piped)')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print a table (the default on a terminal)')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'modctl;servers' {
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'Print tab-separated rows without a header (the default when piped)')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print a table (the default on a terminal)')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List your team''s servers (plain columns: id, platform, name, claimed at)')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show one server')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'modctl;servers;list' {
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'Print tab-separated rows without a header (the default when piped)')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print a table (the default on a terminal)')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'modctl;servers;show' {
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'Print tab-separated rows without a header (the default when piped)')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print a table (the default on a terminal)')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'modctl;servers;help' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List your team''s servers (plain columns: id, platform, name, claimed at)')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show one server')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'modctl;servers;help;list' {
            break
        }
        'modctl;servers;help;show' {
            break
        }
        'modctl;servers;help;help' {
            break
        }
        'modctl;config' {
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'Print tab-separated rows without a header (the default when piped)')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print a table (the default on a terminal)')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show the whole config, or one section (plain: `path<TAB>value` lines)')
            [CompletionResult]::new('set', 'set', [CompletionResultType]::ParameterValue, 'Set one field (`SECTION.FIELD VALUE`), several (`A=1 B=x`, one revision), or replace a whole section with the JSON in a file (`SECTION --file FILE`)')
            [CompletionResult]::new('edit', 'edit', [CompletionResultType]::ParameterValue, 'Edit a section in $EDITOR; reopens with the error when the daemon refuses it')
            [CompletionResult]::new('export', 'export', [CompletionResultType]::ParameterValue, 'Print the export envelope (JSON) or write it to a file')
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Import an export envelope from a file or stdin; all sections or nothing (shows the changes and asks first; --yes without a terminal)')
            [CompletionResult]::new('clone', 'clone', [CompletionResultType]::ParameterValue, 'Copy the config of another server of your team into this one (shows the changes and asks first; --yes without a terminal)')
            [CompletionResult]::new('rollback', 'rollback', [CompletionResultType]::ParameterValue, 'Put the settings of an earlier revision back (rebuilt from the audit trail), as a diff to confirm; written as one change at the current revision')
            [CompletionResult]::new('audit', 'audit', [CompletionResultType]::ParameterValue, 'Recent config changes, newest first (plain columns: id, time, actor, section, source, revision, changes)')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'Compare the configs of two servers; exits 0 when equal, 1 when different')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'modctl;config;show' {
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'Print tab-separated rows without a header (the default when piped)')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print a table (the default on a terminal)')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'modctl;config;set' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'JSON file with the new section, or `-` for stdin')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'JSON file with the new section, or `-` for stdin')
            [CompletionResult]::new('--if-revision', '--if-revision', [CompletionResultType]::ParameterName, 'With --file: refuse unless the config is still at this revision')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'Print tab-separated rows without a header (the default when piped)')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print a table (the default on a terminal)')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'modctl;config;edit' {
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'Print tab-separated rows without a header (the default when piped)')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print a table (the default on a terminal)')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'modctl;config;export' {
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Write to this file instead of stdout')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Write to this file instead of stdout')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'Print tab-separated rows without a header (the default when piped)')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print a table (the default on a terminal)')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'modctl;config;import' {
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Show what would change without changing anything')
            [CompletionResult]::new('--drop-foreign-ids', '--drop-foreign-ids', [CompletionResultType]::ParameterName, 'Clear channel and role ids that are not this server''s platform''s (listed as warnings) instead of refusing the import')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'Print tab-separated rows without a header (the default when piped)')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print a table (the default on a terminal)')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'modctl;config;clone' {
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'The server to copy from')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('--drop-foreign-ids', '--drop-foreign-ids', [CompletionResultType]::ParameterName, 'Clear channel and role ids that are not this server''s platform''s (listed as warnings) instead of refusing the copy')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Show what the copy would change without changing anything')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'Print tab-separated rows without a header (the default when piped)')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print a table (the default on a terminal)')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'modctl;config;rollback' {
            [CompletionResult]::new('--to-revision', '--to-revision', [CompletionResultType]::ParameterName, 'The revision whose settings to restore (see `modctl config audit`)')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'Print tab-separated rows without a header (the default when piped)')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print a table (the default on a terminal)')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'modctl;config;audit' {
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'How many entries (1 to 500)')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'Print tab-separated rows without a header (the default when piped)')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print a table (the default on a terminal)')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'modctl;config;diff' {
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'Print tab-separated rows without a header (the default when piped)')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print a table (the default on a terminal)')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'modctl;config;help' {
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show the whole config, or one section (plain: `path<TAB>value` lines)')
            [CompletionResult]::new('set', 'set', [CompletionResultType]::ParameterValue, 'Set one field (`SECTION.FIELD VALUE`), several (`A=1 B=x`, one revision), or replace a whole section with the JSON in a file (`SECTION --file FILE`)')
            [CompletionResult]::new('edit', 'edit', [CompletionResultType]::ParameterValue, 'Edit a section in $EDITOR; reopens with the error when the daemon refuses it')
            [CompletionResult]::new('export', 'export', [CompletionResultType]::ParameterValue, 'Print the export envelope (JSON) or write it to a file')
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Import an export envelope from a file or stdin; all sections or nothing (shows the changes and asks first; --yes without a terminal)')
            [CompletionResult]::new('clone', 'clone', [CompletionResultType]::ParameterValue, 'Copy the config of another server of your team into this one (shows the changes and asks first; --yes without a terminal)')
            [CompletionResult]::new('rollback', 'rollback', [CompletionResultType]::ParameterValue, 'Put the settings of an earlier revision back (rebuilt from the audit trail), as a diff to confirm; written as one change at the current revision')
            [CompletionResult]::new('audit', 'audit', [CompletionResultType]::ParameterValue, 'Recent config changes, newest first (plain columns: id, time, actor, section, source, revision, changes)')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'Compare the configs of two servers; exits 0 when equal, 1 when different')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'modctl;config;help;show' {
            break
        }
        'modctl;config;help;set' {
            break
        }
        'modctl;config;help;edit' {
            break
        }
        'modctl;config;help;export' {
            break
        }
        'modctl;config;help;import' {
            break
        }
        'modctl;config;help;clone' {
            break
        }
        'modctl;config;help;rollback' {
            break
        }
        'modctl;config;help;audit' {
            break
        }
        'modctl;config;help;diff' {
            break
        }
        'modctl;config;help;help' {
            break
        }
        'modctl;action' {
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Why (at most 512 characters)')
            [CompletionResult]::new('--reason', '--reason', [CompletionResultType]::ParameterName, 'Why (at most 512 characters)')
            [CompletionResult]::new('-d', '-d', [CompletionResultType]::ParameterName, 'How long, for timeout and jail: 90m, 2h, 7d, 1h30m (a bare number is minutes)')
            [CompletionResult]::new('--duration', '--duration', [CompletionResultType]::ParameterName, 'How long, for timeout and jail: 90m, 2h, 7d, 1h30m (a bare number is minutes)')
            [CompletionResult]::new('--delete-days', '--delete-days', [CompletionResultType]::ParameterName, 'Days of messages to delete, for ban (0 to 7)')
            [CompletionResult]::new('--users-file', '--users-file', [CompletionResultType]::ParameterName, 'Act on every user id in this file (one per line, `#` comments), or `-` for stdin')
            [CompletionResult]::new('--idempotency-key', '--idempotency-key', [CompletionResultType]::ParameterName, 'Send this Idempotency-Key: a retry with the same key does nothing again')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Say what the action would do (platform call, DM, strikes, ladder step) without recording or doing anything')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'Print tab-separated rows without a header (the default when piped)')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print a table (the default on a terminal)')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'modctl;cases' {
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'Print tab-separated rows without a header (the default when piped)')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print a table (the default on a terminal)')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'Recent cases, newest first, optionally filtered')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'One case, by its number on the server')
            [CompletionResult]::new('edit', 'edit', [CompletionResultType]::ParameterValue, 'Replace a case''s reason; the old one is kept in its corrections')
            [CompletionResult]::new('void', 'void', [CompletionResultType]::ParameterValue, 'Void a case, saying why: its strikes stop counting; the case stays, marked voided')
            [CompletionResult]::new('export', 'export', [CompletionResultType]::ParameterValue, 'Every case of a server as JSON lines or CSV, oldest first')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'modctl;cases;list' {
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'Only cases of this user: a user id, or `@name` for the one member known by that name')
            [CompletionResult]::new('--action', '--action', [CompletionResultType]::ParameterName, 'Only cases of this action')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Only cases by this actor: a key''s display name (any case; every key of that name), a key id, key:<key id>, or system:expiry')
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Only cases recorded since then: a duration ago (30m, 12h, 7d, 2w) or a date (2026-11-01, 2026-11-01T09:00:00Z)')
            [CompletionResult]::new('--until', '--until', [CompletionResultType]::ParameterName, 'Only cases recorded before then (same forms as --since)')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'How many (1 to 200)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: table, wide (a table with every value whole), plain or json')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: table, wide (a table with every value whole), plain or json')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('--applied', '--applied', [CompletionResultType]::ParameterName, 'Only cases the platform applied')
            [CompletionResult]::new('--not-applied', '--not-applied', [CompletionResultType]::ParameterName, 'Only cases the platform did not apply')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Every matching case, following the pages')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'Print tab-separated rows without a header (the default when piped)')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print a table (the default on a terminal)')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'modctl;cases;show' {
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'Print tab-separated rows without a header (the default when piped)')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print a table (the default on a terminal)')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'modctl;cases;edit' {
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'The new reason (1 to 512 characters)')
            [CompletionResult]::new('--reason', '--reason', [CompletionResultType]::ParameterName, 'The new reason (1 to 512 characters)')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'Print tab-separated rows without a header (the default when piped)')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print a table (the default on a terminal)')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'modctl;cases;void' {
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Why (1 to 512 characters); kept with the void')
            [CompletionResult]::new('--reason', '--reason', [CompletionResultType]::ParameterName, 'Why (1 to 512 characters); kept with the void')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'Print tab-separated rows without a header (the default when piped)')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print a table (the default on a terminal)')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'modctl;cases;export' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'The format')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'Print tab-separated rows without a header (the default when piped)')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print a table (the default on a terminal)')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'modctl;cases;help' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'Recent cases, newest first, optionally filtered')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'One case, by its number on the server')
            [CompletionResult]::new('edit', 'edit', [CompletionResultType]::ParameterValue, 'Replace a case''s reason; the old one is kept in its corrections')
            [CompletionResult]::new('void', 'void', [CompletionResultType]::ParameterValue, 'Void a case, saying why: its strikes stop counting; the case stays, marked voided')
            [CompletionResult]::new('export', 'export', [CompletionResultType]::ParameterValue, 'Every case of a server as JSON lines or CSV, oldest first')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'modctl;cases;help;list' {
            break
        }
        'modctl;cases;help;show' {
            break
        }
        'modctl;cases;help;edit' {
            break
        }
        'modctl;cases;help;void' {
            break
        }
        'modctl;cases;help;export' {
            break
        }
        'modctl;cases;help;help' {
            break
        }
        'modctl;automod' {
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'Print tab-separated rows without a header (the default when piped)')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print a table (the default on a terminal)')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('test', 'test', [CompletionResultType]::ParameterValue, 'Try a message against the server''s automod filters: which would act, on what, and how')
            [CompletionResult]::new('hits', 'hits', [CompletionResultType]::ParameterValue, 'The messages the server''s automod caught, newest first')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'modctl;automod;test' {
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The author''s user id')
            [CompletionResult]::new('--channel', '--channel', [CompletionResultType]::ParameterName, 'The channel it is sent in (tries automod.exempt_channel_ids)')
            [CompletionResult]::new('--role', '--role', [CompletionResultType]::ParameterName, 'A role of the author (tries automod.exempt_role_ids); repeat for several')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'Print tab-separated rows without a header (the default when piped)')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print a table (the default on a terminal)')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'modctl;automod;hits' {
            [CompletionResult]::new('--filter', '--filter', [CompletionResultType]::ParameterName, 'Only hits of this filter (blocked_words, invite_links, links, mention_spam, caps, duplicates)')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'Only hits of this member')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'How many (1 to 200)')
            [CompletionResult]::new('--before', '--before', [CompletionResultType]::ParameterName, 'Only hits older than this one (the last id of the previous page)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: table, wide (a table with every value whole), plain or json')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: table, wide (a table with every value whole), plain or json')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'Print tab-separated rows without a header (the default when piped)')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print a table (the default on a terminal)')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'modctl;automod;help' {
            [CompletionResult]::new('test', 'test', [CompletionResultType]::ParameterValue, 'Try a message against the server''s automod filters: which would act, on what, and how')
            [CompletionResult]::new('hits', 'hits', [CompletionResultType]::ParameterValue, 'The messages the server''s automod caught, newest first')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'modctl;automod;help;test' {
            break
        }
        'modctl;automod;help;hits' {
            break
        }
        'modctl;automod;help;help' {
            break
        }
        'modctl;snapshot' {
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'Print tab-separated rows without a header (the default when piped)')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print a table (the default on a terminal)')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('capture', 'capture', [CompletionResultType]::ParameterValue, 'Capture the server''s roles, channels and settings now (plain: field<TAB>value)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'The snapshots kept, newest first (plain columns: id, captured, source, actor, roles, channels, overwrites, user groups, administrators, size in bytes, content hash)')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'One snapshot''s metadata, or with --content what it holds (plain content columns: kind, id, name, parent, detail)')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'The snapshot against the server now: what is missing, what is present (and how it was recognised), what a restore would skip and why (plain columns: step, kind, snapshot id, name, matched by, live id, detail)')
            [CompletionResult]::new('restore', 'restore', [CompletionResultType]::ParameterValue, 'Restore the missing roles and channels from a snapshot; exits 1 when the job stopped or any item failed (plain report columns: outcome, kind, snapshot id, name, live id, what happened)')
            [CompletionResult]::new('job', 'job', [CompletionResultType]::ParameterValue, 'A restore job''s report; --wait follows it until it ends and exits 1 like restore (plain columns as restore''s)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'modctl;snapshot;capture' {
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'Print tab-separated rows without a header (the default when piped)')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print a table (the default on a terminal)')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'modctl;snapshot;list' {
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'Print tab-separated rows without a header (the default when piped)')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print a table (the default on a terminal)')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'modctl;snapshot;show' {
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('--content', '--content', [CompletionResultType]::ParameterName, 'Show the roles, channels and settings it holds')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'Print tab-separated rows without a header (the default when piped)')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print a table (the default on a terminal)')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'modctl;snapshot;diff' {
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'Print tab-separated rows without a header (the default when piped)')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print a table (the default on a terminal)')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'modctl;snapshot;restore' {
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'The snapshot to restore [default: the latest]')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Show the plan and change nothing')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'Print tab-separated rows without a header (the default when piped)')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print a table (the default on a terminal)')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'modctl;snapshot;job' {
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('--wait', '--wait', [CompletionResultType]::ParameterName, 'Draw progress until the job ends')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'Print tab-separated rows without a header (the default when piped)')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print a table (the default on a terminal)')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'modctl;snapshot;help' {
            [CompletionResult]::new('capture', 'capture', [CompletionResultType]::ParameterValue, 'Capture the server''s roles, channels and settings now (plain: field<TAB>value)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'The snapshots kept, newest first (plain columns: id, captured, source, actor, roles, channels, overwrites, user groups, administrators, size in bytes, content hash)')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'One snapshot''s metadata, or with --content what it holds (plain content columns: kind, id, name, parent, detail)')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'The snapshot against the server now: what is missing, what is present (and how it was recognised), what a restore would skip and why (plain columns: step, kind, snapshot id, name, matched by, live id, detail)')
            [CompletionResult]::new('restore', 'restore', [CompletionResultType]::ParameterValue, 'Restore the missing roles and channels from a snapshot; exits 1 when the job stopped or any item failed (plain report columns: outcome, kind, snapshot id, name, live id, what happened)')
            [CompletionResult]::new('job', 'job', [CompletionResultType]::ParameterValue, 'A restore job''s report; --wait follows it until it ends and exits 1 like restore (plain columns as restore''s)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'modctl;snapshot;help;capture' {
            break
        }
        'modctl;snapshot;help;list' {
            break
        }
        'modctl;snapshot;help;show' {
            break
        }
        'modctl;snapshot;help;diff' {
            break
        }
        'modctl;snapshot;help;restore' {
            break
        }
        'modctl;snapshot;help;job' {
            break
        }
        'modctl;snapshot;help;help' {
            break
        }
        'modctl;webhooks' {
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'Print tab-separated rows without a header (the default when piped)')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print a table (the default on a terminal)')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('test', 'test', [CompletionResultType]::ParameterValue, 'Queue a `test` event to the server''s webhook endpoint (plain: field<TAB>value)')
            [CompletionResult]::new('deliveries', 'deliveries', [CompletionResultType]::ParameterValue, 'The delivery log, newest first (plain columns: id, event, kind, state, attempts, last status, last error, next attempt, created)')
            [CompletionResult]::new('delivery', 'delivery', [CompletionResultType]::ParameterValue, 'One delivery with every attempt (plain: field<TAB>value, then `attempt<TAB>n<TAB>at<TAB>status<TAB>ms<TAB>error` per attempt)')
            [CompletionResult]::new('redeliver', 'redeliver', [CompletionResultType]::ParameterValue, 'Queue a delivery again: same event id, fresh attempts (plain as delivery''s)')
            [CompletionResult]::new('listen', 'listen', [CompletionResultType]::ParameterValue, 'A local receiver: verifies each delivery''s signature and prints the events as they arrive (plain: created<TAB>kind<TAB>event<TAB>summary; --json: one event per line)')
            [CompletionResult]::new('rotate-secret', 'rotate-secret', [CompletionResultType]::ParameterValue, 'Replace the signing secret and print the new one, once')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'modctl;webhooks;test' {
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('--wait', '--wait', [CompletionResultType]::ParameterName, 'Wait until the delivery is no longer pending (or its next retry is over a minute off) and show it; exits 1 unless delivered')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'Print tab-separated rows without a header (the default when piped)')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print a table (the default on a terminal)')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'modctl;webhooks;deliveries' {
            [CompletionResult]::new('--state', '--state', [CompletionResultType]::ParameterName, 'Only deliveries in this state: pending, delivered, failed or disabled')
            [CompletionResult]::new('--kind', '--kind', [CompletionResultType]::ParameterName, 'Only deliveries of this event kind: case_created, config_changed, jail_changed, snapshot_captured, snapshot_restored or test')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'At most this many (1 to 200) [default: 50]')
            [CompletionResult]::new('--before', '--before', [CompletionResultType]::ParameterName, 'Only deliveries older than this one (the next page, as the table''s footer names it)')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'Print tab-separated rows without a header (the default when piped)')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print a table (the default on a terminal)')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'modctl;webhooks;delivery' {
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'Print tab-separated rows without a header (the default when piped)')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print a table (the default on a terminal)')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'modctl;webhooks;redeliver' {
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'Print tab-separated rows without a header (the default when piped)')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print a table (the default on a terminal)')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'modctl;webhooks;listen' {
            [CompletionResult]::new('--port', '--port', [CompletionResultType]::ParameterName, 'The port on 127.0.0.1 (0 picks a free one, printed on stderr)')
            [CompletionResult]::new('--secret-env', '--secret-env', [CompletionResultType]::ParameterName, 'The environment variable holding the signing secret')
            [CompletionResult]::new('--count', '--count', [CompletionResultType]::ParameterName, 'Exit after this many verified events')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'Print tab-separated rows without a header (the default when piped)')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print a table (the default on a terminal)')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'modctl;webhooks;rotate-secret' {
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'Print tab-separated rows without a header (the default when piped)')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print a table (the default on a terminal)')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'modctl;webhooks;help' {
            [CompletionResult]::new('test', 'test', [CompletionResultType]::ParameterValue, 'Queue a `test` event to the server''s webhook endpoint (plain: field<TAB>value)')
            [CompletionResult]::new('deliveries', 'deliveries', [CompletionResultType]::ParameterValue, 'The delivery log, newest first (plain columns: id, event, kind, state, attempts, last status, last error, next attempt, created)')
            [CompletionResult]::new('delivery', 'delivery', [CompletionResultType]::ParameterValue, 'One delivery with every attempt (plain: field<TAB>value, then `attempt<TAB>n<TAB>at<TAB>status<TAB>ms<TAB>error` per attempt)')
            [CompletionResult]::new('redeliver', 'redeliver', [CompletionResultType]::ParameterValue, 'Queue a delivery again: same event id, fresh attempts (plain as delivery''s)')
            [CompletionResult]::new('listen', 'listen', [CompletionResultType]::ParameterValue, 'A local receiver: verifies each delivery''s signature and prints the events as they arrive (plain: created<TAB>kind<TAB>event<TAB>summary; --json: one event per line)')
            [CompletionResult]::new('rotate-secret', 'rotate-secret', [CompletionResultType]::ParameterValue, 'Replace the signing secret and print the new one, once')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'modctl;webhooks;help;test' {
            break
        }
        'modctl;webhooks;help;deliveries' {
            break
        }
        'modctl;webhooks;help;delivery' {
            break
        }
        'modctl;webhooks;help;redeliver' {
            break
        }
        'modctl;webhooks;help;listen' {
            break
        }
        'modctl;webhooks;help;rotate-secret' {
            break
        }
        'modctl;webhooks;help;help' {
            break
        }
        'modctl;lockdown' {
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'Print tab-separated rows without a header (the default when piped)')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print a table (the default on a terminal)')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('start', 'start', [CompletionResultType]::ParameterValue, 'Start a raid lockdown now (plain: field<TAB>value)')
            [CompletionResult]::new('end', 'end', [CompletionResultType]::ParameterValue, 'End the running lockdown now (plain as start''s)')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'The running lockdown, else the last one (plain as start''s; `state` is running, ended or none)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'modctl;lockdown;start' {
            [CompletionResult]::new('--minutes', '--minutes', [CompletionResultType]::ParameterName, 'How long, 1 to 1440 minutes [default: the server''s antinuke.lockdown_minutes]')
            [CompletionResult]::new('--reason', '--reason', [CompletionResultType]::ParameterName, 'Why, shown in the log post and the webhook event')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'Print tab-separated rows without a header (the default when piped)')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print a table (the default on a terminal)')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'modctl;lockdown;end' {
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'Print tab-separated rows without a header (the default when piped)')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print a table (the default on a terminal)')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'modctl;lockdown;status' {
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'Print tab-separated rows without a header (the default when piped)')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print a table (the default on a terminal)')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'modctl;lockdown;help' {
            [CompletionResult]::new('start', 'start', [CompletionResultType]::ParameterValue, 'Start a raid lockdown now (plain: field<TAB>value)')
            [CompletionResult]::new('end', 'end', [CompletionResultType]::ParameterValue, 'End the running lockdown now (plain as start''s)')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'The running lockdown, else the last one (plain as start''s; `state` is running, ended or none)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'modctl;lockdown;help;start' {
            break
        }
        'modctl;lockdown;help;end' {
            break
        }
        'modctl;lockdown;help;status' {
            break
        }
        'modctl;lockdown;help;help' {
            break
        }
        'modctl;onboarding' {
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('--refresh', '--refresh', [CompletionResultType]::ParameterName, 'Ask the platform now instead of using its answer of up to 5 minutes ago')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'Print tab-separated rows without a header (the default when piped)')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print a table (the default on a terminal)')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'modctl;insights' {
            [CompletionResult]::new('--days', '--days', [CompletionResultType]::ParameterName, 'Days in the window, ending today in the server''s time zone (1 to 365) [default: 30]')
            [CompletionResult]::new('--chart', '--chart', [CompletionResultType]::ParameterName, 'Also write a bar chart of the daily series to this SVG file')
            [CompletionResult]::new('--watch', '--watch', [CompletionResultType]::ParameterName, 'Redraw in place every SECONDS (1 to 3600, default 5) until Ctrl-C; on a terminal only')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'Print tab-separated rows without a header (the default when piped)')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print a table (the default on a terminal)')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'modctl;activity' {
            [CompletionResult]::new('--days', '--days', [CompletionResultType]::ParameterName, 'Days in the window, ending today in the server''s time zone (1 to 365) [default: 30]')
            [CompletionResult]::new('--chart', '--chart', [CompletionResultType]::ParameterName, 'Also write a bar chart of the daily series to this SVG file')
            [CompletionResult]::new('--watch', '--watch', [CompletionResultType]::ParameterName, 'Redraw in place every SECONDS (1 to 3600, default 5) until Ctrl-C; on a terminal only')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'Print tab-separated rows without a header (the default when piped)')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print a table (the default on a terminal)')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'modctl;strikes' {
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: table, wide (a table with every value whole), plain or json')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: table, wide (a table with every value whole), plain or json')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'Print tab-separated rows without a header (the default when piped)')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print a table (the default on a terminal)')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('clear', 'clear', [CompletionResultType]::ParameterValue, 'Clear a member''s active strikes (a pardon), saying why')
            break
        }
        'modctl;strikes;clear' {
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Why (1 to 512 characters); kept with the clear')
            [CompletionResult]::new('--reason', '--reason', [CompletionResultType]::ParameterName, 'Why (1 to 512 characters); kept with the clear')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'Print tab-separated rows without a header (the default when piped)')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print a table (the default on a terminal)')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'modctl;jails' {
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: table, wide (a table with every value whole), plain or json')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: table, wide (a table with every value whole), plain or json')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'Print tab-separated rows without a header (the default when piped)')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print a table (the default on a terminal)')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'modctl;completions' {
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'Print tab-separated rows without a header (the default when piped)')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print a table (the default on a terminal)')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'modctl;watch' {
            [CompletionResult]::new('--types', '--types', [CompletionResultType]::ParameterName, 'Only these event types, comma-separated: case_created, automod_hit, jail_changed, config_changed, lockdown_started, lockdown_ended, antinuke_triggered, case_corrected, member_joined')
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Start after this event id (an id printed before): the events since then come first')
            [CompletionResult]::new('--count', '--count', [CompletionResultType]::ParameterName, 'Stop after this many events')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'Print tab-separated rows without a header (the default when piped)')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print a table (the default on a terminal)')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'modctl;help' {
            [CompletionResult]::new('login', 'login', [CompletionResultType]::ParameterValue, 'Save a daemon URL and API key as a profile, after checking them')
            [CompletionResult]::new('logout', 'logout', [CompletionResultType]::ParameterValue, 'Forget the profile in use (--profile, else the default) and its API key')
            [CompletionResult]::new('profile', 'profile', [CompletionResultType]::ParameterValue, 'List the saved profiles, choose the default one, remove one')
            [CompletionResult]::new('whoami', 'whoami', [CompletionResultType]::ParameterValue, 'Show the calling key (team, scopes, expiry, server count) and the daemon URL and profile in use')
            [CompletionResult]::new('keys', 'keys', [CompletionResultType]::ParameterValue, 'List your team''s API keys: status, expiry, last use, replacement (never a secret)')
            [CompletionResult]::new('servers', 'servers', [CompletionResultType]::ParameterValue, 'List and show the servers your team has claimed')
            [CompletionResult]::new('config', 'config', [CompletionResultType]::ParameterValue, 'Show, change, export, import, clone, diff and audit a server''s moderation config')
            [CompletionResult]::new('action', 'action', [CompletionResultType]::ParameterValue, 'Moderate a member: note, warn, timeout, kick, ban, unban, jail, unjail')
            [CompletionResult]::new('cases', 'cases', [CompletionResultType]::ParameterValue, 'List, show, export, edit and void cases')
            [CompletionResult]::new('automod', 'automod', [CompletionResultType]::ParameterValue, 'Try a message against the server''s automod filters')
            [CompletionResult]::new('snapshot', 'snapshot', [CompletionResultType]::ParameterValue, 'Capture, list, show and diff structure snapshots; restore a nuked server''s roles and channels')
            [CompletionResult]::new('webhooks', 'webhooks', [CompletionResultType]::ParameterValue, 'Send a test event, list and show deliveries, redeliver one, rotate the signing secret')
            [CompletionResult]::new('lockdown', 'lockdown', [CompletionResultType]::ParameterValue, 'Start, end or show a raid lockdown (invites paused, joiners held until it ends)')
            [CompletionResult]::new('onboarding', 'onboarding', [CompletionResultType]::ParameterValue, 'The server''s setup checklist: what is done and the command that fixes each open item (plain columns: status, id, title, detail, fix)')
            [CompletionResult]::new('insights', 'insights', [CompletionResultType]::ParameterValue, 'Moderation insights: cases per day by action and source, moderators, repeat targets')
            [CompletionResult]::new('activity', 'activity', [CompletionResultType]::ParameterValue, 'Community activity: messages, active members, voice, joins and leaves per day; top channels and members')
            [CompletionResult]::new('strikes', 'strikes', [CompletionResultType]::ParameterValue, 'Strike counts per member, most active first; `strikes clear` pardons a member')
            [CompletionResult]::new('jails', 'jails', [CompletionResultType]::ParameterValue, 'Active jails, oldest first')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('watch', 'watch', [CompletionResultType]::ParameterValue, 'Watch a server''s events as they happen: cases, automod hits, jails, config changes, joins')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'modctl;help;login' {
            break
        }
        'modctl;help;logout' {
            break
        }
        'modctl;help;profile' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'The saved profiles and their daemon URLs; the default one is marked')
            [CompletionResult]::new('use', 'use', [CompletionResultType]::ParameterValue, 'Make a profile the default, used when --profile is not given')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Forget a profile and its API key')
            break
        }
        'modctl;help;profile;list' {
            break
        }
        'modctl;help;profile;use' {
            break
        }
        'modctl;help;profile;remove' {
            break
        }
        'modctl;help;whoami' {
            break
        }
        'modctl;help;keys' {
            break
        }
        'modctl;help;servers' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List your team''s servers (plain columns: id, platform, name, claimed at)')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show one server')
            break
        }
        'modctl;help;servers;list' {
            break
        }
        'modctl;help;servers;show' {
            break
        }
        'modctl;help;config' {
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show the whole config, or one section (plain: `path<TAB>value` lines)')
            [CompletionResult]::new('set', 'set', [CompletionResultType]::ParameterValue, 'Set one field (`SECTION.FIELD VALUE`), several (`A=1 B=x`, one revision), or replace a whole section with the JSON in a file (`SECTION --file FILE`)')
            [CompletionResult]::new('edit', 'edit', [CompletionResultType]::ParameterValue, 'Edit a section in $EDITOR; reopens with the error when the daemon refuses it')
            [CompletionResult]::new('export', 'export', [CompletionResultType]::ParameterValue, 'Print the export envelope (JSON) or write it to a file')
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Import an export envelope from a file or stdin; all sections or nothing (shows the changes and asks first; --yes without a terminal)')
            [CompletionResult]::new('clone', 'clone', [CompletionResultType]::ParameterValue, 'Copy the config of another server of your team into this one (shows the changes and asks first; --yes without a terminal)')
            [CompletionResult]::new('rollback', 'rollback', [CompletionResultType]::ParameterValue, 'Put the settings of an earlier revision back (rebuilt from the audit trail), as a diff to confirm; written as one change at the current revision')
            [CompletionResult]::new('audit', 'audit', [CompletionResultType]::ParameterValue, 'Recent config changes, newest first (plain columns: id, time, actor, section, source, revision, changes)')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'Compare the configs of two servers; exits 0 when equal, 1 when different')
            break
        }
        'modctl;help;config;show' {
            break
        }
        'modctl;help;config;set' {
            break
        }
        'modctl;help;config;edit' {
            break
        }
        'modctl;help;config;export' {
            break
        }
        'modctl;help;config;import' {
            break
        }
        'modctl;help;config;clone' {
            break
        }
        'modctl;help;config;rollback' {
            break
        }
        'modctl;help;config;audit' {
            break
        }
        'modctl;help;config;diff' {
            break
        }
        'modctl;help;action' {
            break
        }
        'modctl;help;cases' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'Recent cases, newest first, optionally filtered')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'One case, by its number on the server')
            [CompletionResult]::new('edit', 'edit', [CompletionResultType]::ParameterValue, 'Replace a case''s reason; the old one is kept in its corrections')
            [CompletionResult]::new('void', 'void', [CompletionResultType]::ParameterValue, 'Void a case, saying why: its strikes stop counting; the case stays, marked voided')
            [CompletionResult]::new('export', 'export', [CompletionResultType]::ParameterValue, 'Every case of a server as JSON lines or CSV, oldest first')
            break
        }
        'modctl;help;cases;list' {
            break
        }
        'modctl;help;cases;show' {
            break
        }
        'modctl;help;cases;edit' {
            break
        }
        'modctl;help;cases;void' {
            break
        }
        'modctl;help;cases;export' {
            break
        }
        'modctl;help;automod' {
            [CompletionResult]::new('test', 'test', [CompletionResultType]::ParameterValue, 'Try a message against the server''s automod filters: which would act, on what, and how')
            [CompletionResult]::new('hits', 'hits', [CompletionResultType]::ParameterValue, 'The messages the server''s automod caught, newest first')
            break
        }
        'modctl;help;automod;test' {
            break
        }
        'modctl;help;automod;hits' {
            break
        }
        'modctl;help;snapshot' {
            [CompletionResult]::new('capture', 'capture', [CompletionResultType]::ParameterValue, 'Capture the server''s roles, channels and settings now (plain: field<TAB>value)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'The snapshots kept, newest first (plain columns: id, captured, source, actor, roles, channels, overwrites, user groups, administrators, size in bytes, content hash)')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'One snapshot''s metadata, or with --content what it holds (plain content columns: kind, id, name, parent, detail)')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'The snapshot against the server now: what is missing, what is present (and how it was recognised), what a restore would skip and why (plain columns: step, kind, snapshot id, name, matched by, live id, detail)')
            [CompletionResult]::new('restore', 'restore', [CompletionResultType]::ParameterValue, 'Restore the missing roles and channels from a snapshot; exits 1 when the job stopped or any item failed (plain report columns: outcome, kind, snapshot id, name, live id, what happened)')
            [CompletionResult]::new('job', 'job', [CompletionResultType]::ParameterValue, 'A restore job''s report; --wait follows it until it ends and exits 1 like restore (plain columns as restore''s)')
            break
        }
        'modctl;help;snapshot;capture' {
            break
        }
        'modctl;help;snapshot;list' {
            break
        }
        'modctl;help;snapshot;show' {
            break
        }
        'modctl;help;snapshot;diff' {
            break
        }
        'modctl;help;snapshot;restore' {
            break
        }
        'modctl;help;snapshot;job' {
            break
        }
        'modctl;help;webhooks' {
            [CompletionResult]::new('test', 'test', [CompletionResultType]::ParameterValue, 'Queue a `test` event to the server''s webhook endpoint (plain: field<TAB>value)')
            [CompletionResult]::new('deliveries', 'deliveries', [CompletionResultType]::ParameterValue, 'The delivery log, newest first (plain columns: id, event, kind, state, attempts, last status, last error, next attempt, created)')
            [CompletionResult]::new('delivery', 'delivery', [CompletionResultType]::ParameterValue, 'One delivery with every attempt (plain: field<TAB>value, then `attempt<TAB>n<TAB>at<TAB>status<TAB>ms<TAB>error` per attempt)')
            [CompletionResult]::new('redeliver', 'redeliver', [CompletionResultType]::ParameterValue, 'Queue a delivery again: same event id, fresh attempts (plain as delivery''s)')
            [CompletionResult]::new('listen', 'listen', [CompletionResultType]::ParameterValue, 'A local receiver: verifies each delivery''s signature and prints the events as they arrive (plain: created<TAB>kind<TAB>event<TAB>summary; --json: one event per line)')
            [CompletionResult]::new('rotate-secret', 'rotate-secret', [CompletionResultType]::ParameterValue, 'Replace the signing secret and print the new one, once')
            break
        }
        'modctl;help;webhooks;test' {
            break
        }
        'modctl;help;webhooks;deliveries' {
            break
        }
        'modctl;help;webhooks;delivery' {
            break
        }
        'modctl;help;webhooks;redeliver' {
            break
        }
        'modctl;help;webhooks;listen' {
            break
        }
        'modctl;help;webhooks;rotate-secret' {
            break
        }
        'modctl;help;lockdown' {
            [CompletionResult]::new('start', 'start', [CompletionResultType]::ParameterValue, 'Start a raid lockdown now (plain: field<TAB>value)')
            [CompletionResult]::new('end', 'end', [CompletionResultType]::ParameterValue, 'End the running lockdown now (plain as start''s)')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'The running lockdown, else the last one (plain as start''s; `state` is running, ended or none)')
            break
        }
        'modctl;help;lockdown;start' {
            break
        }
        'modctl;help;lockdown;end' {
            break
        }
        'modctl;help;lockdown;status' {
            break
        }
        'modctl;help;onboarding' {
            break
        }
        'modctl;help;insights' {
            break
        }
        'modctl;help;activity' {
            break
        }
        'modctl;help;strikes' {
            [CompletionResult]::new('clear', 'clear', [CompletionResultType]::ParameterValue, 'Clear a member''s active strikes (a pardon), saying why')
            break
        }
        'modctl;help;strikes;clear' {
            break
        }
        'modctl;help;jails' {
            break
        }
        'modctl;help;completions' {
            break
        }
        'modctl;help;watch' {
            break
        }
        'modctl;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
