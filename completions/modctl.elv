
use builtin;
use str;

set edit:completion:arg-completer[modctl] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'modctl'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'modctl'= {
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [default: from the profile]'
            cand --key 'API key (prefer the environment variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [default: the profile `modctl login` saved last]'
            cand -o 'Output format [default: table on a terminal, plain when piped]'
            cand --output 'Output format [default: table on a terminal, plain when piped]'
            cand --timeout 'Request timeout in seconds'
            cand --json 'Print JSON (shorthand for --output json)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand login 'Save a daemon URL and API key as a profile, after checking them'
            cand whoami 'Show the calling key: team, scopes, expiry, server count'
            cand servers 'List and show the servers your team has claimed'
            cand completions 'Print a shell completion script'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'modctl;login'= {
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [default: from the profile]'
            cand --key 'API key (prefer the environment variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [default: the profile `modctl login` saved last]'
            cand -o 'Output format [default: table on a terminal, plain when piped]'
            cand --output 'Output format [default: table on a terminal, plain when piped]'
            cand --timeout 'Request timeout in seconds'
            cand --with-key 'Read the API key from stdin (one line) instead of prompting, for scripts'
            cand --json 'Print JSON (shorthand for --output json)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'modctl;whoami'= {
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [default: from the profile]'
            cand --key 'API key (prefer the environment variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [default: the profile `modctl login` saved last]'
            cand -o 'Output format [default: table on a terminal, plain when piped]'
            cand --output 'Output format [default: table on a terminal, plain when piped]'
            cand --timeout 'Request timeout in seconds'
            cand --json 'Print JSON (shorthand for --output json)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'modctl;servers'= {
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [default: from the profile]'
            cand --key 'API key (prefer the environment variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [default: the profile `modctl login` saved last]'
            cand -o 'Output format [default: table on a terminal, plain when piped]'
            cand --output 'Output format [default: table on a terminal, plain when piped]'
            cand --timeout 'Request timeout in seconds'
            cand --json 'Print JSON (shorthand for --output json)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand list 'List your team''s servers (plain columns: id, platform, name, claimed at)'
            cand show 'Show one server'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'modctl;servers;list'= {
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [default: from the profile]'
            cand --key 'API key (prefer the environment variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [default: the profile `modctl login` saved last]'
            cand -o 'Output format [default: table on a terminal, plain when piped]'
            cand --output 'Output format [default: table on a terminal, plain when piped]'
            cand --timeout 'Request timeout in seconds'
            cand --json 'Print JSON (shorthand for --output json)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'modctl;servers;show'= {
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [default: from the profile]'
            cand --key 'API key (prefer the environment variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [default: the profile `modctl login` saved last]'
            cand -o 'Output format [default: table on a terminal, plain when piped]'
            cand --output 'Output format [default: table on a terminal, plain when piped]'
            cand --timeout 'Request timeout in seconds'
            cand --json 'Print JSON (shorthand for --output json)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'modctl;servers;help'= {
            cand list 'List your team''s servers (plain columns: id, platform, name, claimed at)'
            cand show 'Show one server'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'modctl;servers;help;list'= {
        }
        &'modctl;servers;help;show'= {
        }
        &'modctl;servers;help;help'= {
        }
        &'modctl;completions'= {
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [default: from the profile]'
            cand --key 'API key (prefer the environment variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [default: the profile `modctl login` saved last]'
            cand -o 'Output format [default: table on a terminal, plain when piped]'
            cand --output 'Output format [default: table on a terminal, plain when piped]'
            cand --timeout 'Request timeout in seconds'
            cand --json 'Print JSON (shorthand for --output json)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'modctl;help'= {
            cand login 'Save a daemon URL and API key as a profile, after checking them'
            cand whoami 'Show the calling key: team, scopes, expiry, server count'
            cand servers 'List and show the servers your team has claimed'
            cand completions 'Print a shell completion script'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'modctl;help;login'= {
        }
        &'modctl;help;whoami'= {
        }
        &'modctl;help;servers'= {
            cand list 'List your team''s servers (plain columns: id, platform, name, claimed at)'
            cand show 'Show one server'
        }
        &'modctl;help;servers;list'= {
        }
        &'modctl;help;servers;show'= {
        }
        &'modctl;help;completions'= {
        }
        &'modctl;help;help'= {
        }
    ]
    $completions[$command]
}
