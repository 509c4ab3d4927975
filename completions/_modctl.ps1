
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
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key (prefer the environment variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [default: the profile `modctl login` saved last]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format [default: table on a terminal, plain when piped]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: table on a terminal, plain when piped]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON (shorthand for --output json)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('login', 'login', [CompletionResultType]::ParameterValue, 'Save a daemon URL and API key as a profile, after checking them')
            [CompletionResult]::new('whoami', 'whoami', [CompletionResultType]::ParameterValue, 'Show the calling key: team, scopes, expiry, server count')
            [CompletionResult]::new('servers', 'servers', [CompletionResultType]::ParameterValue, 'List and show the servers your team has claimed')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'modctl;login' {
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key (prefer the environment variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [default: the profile `modctl login` saved last]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format [default: table on a terminal, plain when piped]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: table on a terminal, plain when piped]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('--with-key', '--with-key', [CompletionResultType]::ParameterName, 'Read the API key from stdin (one line) instead of prompting, for scripts')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON (shorthand for --output json)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'modctl;whoami' {
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key (prefer the environment variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [default: the profile `modctl login` saved last]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format [default: table on a terminal, plain when piped]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: table on a terminal, plain when piped]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON (shorthand for --output json)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'modctl;servers' {
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key (prefer the environment variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [default: the profile `modctl login` saved last]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format [default: table on a terminal, plain when piped]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: table on a terminal, plain when piped]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON (shorthand for --output json)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List your team''s servers (plain columns: id, platform, name, claimed at)')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show one server')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'modctl;servers;list' {
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key (prefer the environment variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [default: the profile `modctl login` saved last]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format [default: table on a terminal, plain when piped]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: table on a terminal, plain when piped]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON (shorthand for --output json)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'modctl;servers;show' {
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key (prefer the environment variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [default: the profile `modctl login` saved last]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format [default: table on a terminal, plain when piped]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: table on a terminal, plain when piped]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON (shorthand for --output json)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
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
        'modctl;completions' {
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Daemon URL, e.g. http://127.0.0.1:7878 [default: from the profile]')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'API key (prefer the environment variable: arguments are visible to other users)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use [default: the profile `modctl login` saved last]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format [default: table on a terminal, plain when piped]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: table on a terminal, plain when piped]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Request timeout in seconds')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON (shorthand for --output json)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'modctl;help' {
            [CompletionResult]::new('login', 'login', [CompletionResultType]::ParameterValue, 'Save a daemon URL and API key as a profile, after checking them')
            [CompletionResult]::new('whoami', 'whoami', [CompletionResultType]::ParameterValue, 'Show the calling key: team, scopes, expiry, server count')
            [CompletionResult]::new('servers', 'servers', [CompletionResultType]::ParameterValue, 'List and show the servers your team has claimed')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'modctl;help;login' {
            break
        }
        'modctl;help;whoami' {
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
        'modctl;help;completions' {
            break
        }
        'modctl;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
