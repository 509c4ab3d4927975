# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_modctl_global_optspecs
    string join \n url= key= profile= json plain table wide timeout= h/help V/version
end

function __fish_modctl_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_modctl_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_modctl_using_subcommand
    set -l cmd (__fish_modctl_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c modctl -n "__fish_modctl_needs_command" -l url -d 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]' -r
complete -c modctl -n "__fish_modctl_needs_command" -l key -d 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)' -r
complete -c modctl -n "__fish_modctl_needs_command" -l profile -d 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]' -r
complete -c modctl -n "__fish_modctl_needs_command" -l timeout -d 'Request timeout in seconds' -r
complete -c modctl -n "__fish_modctl_needs_command" -l json -d 'Print JSON'
complete -c modctl -n "__fish_modctl_needs_command" -l plain -d 'Print tab-separated rows without a header (the default when piped)'
complete -c modctl -n "__fish_modctl_needs_command" -l table -d 'Print a table (the default on a terminal)'
complete -c modctl -n "__fish_modctl_needs_command" -l wide -d 'Show long columns (reason, detail) whole instead of cutting them to the terminal\'s width'
complete -c modctl -n "__fish_modctl_needs_command" -s h -l help -d 'Print help'
complete -c modctl -n "__fish_modctl_needs_command" -s V -l version -d 'Print version'
complete -c modctl -n "__fish_modctl_needs_command" -f -a "login" -d 'Save a daemon URL and API key as a profile, after checking them'
complete -c modctl -n "__fish_modctl_needs_command" -f -a "logout" -d 'Forget the profile in use (--profile, else the default) and its API key'
complete -c modctl -n "__fish_modctl_needs_command" -f -a "profile" -d 'List the saved profiles, choose the default one, remove one'
complete -c modctl -n "__fish_modctl_needs_command" -f -a "whoami" -d 'Show the calling key (team, scopes, expiry, server count) and the daemon URL and profile in use'
complete -c modctl -n "__fish_modctl_needs_command" -f -a "keys" -d 'List your team\'s API keys: status, expiry, last use, replacement (never a secret)'
complete -c modctl -n "__fish_modctl_needs_command" -f -a "servers" -d 'List and show the servers your team has claimed'
complete -c modctl -n "__fish_modctl_needs_command" -f -a "config" -d 'Show, change, export, import, clone, diff and audit a server\'s moderation config'
complete -c modctl -n "__fish_modctl_needs_command" -f -a "action" -d 'Moderate a member: note, warn, timeout, kick, ban, unban, jail, unjail'
complete -c modctl -n "__fish_modctl_needs_command" -f -a "cases" -d 'List, show, export, edit and void cases'
complete -c modctl -n "__fish_modctl_needs_command" -f -a "automod" -d 'Try a message against the server\'s automod filters'
complete -c modctl -n "__fish_modctl_needs_command" -f -a "snapshot" -d 'Capture, list, show and diff structure snapshots; restore a nuked server\'s roles and channels'
complete -c modctl -n "__fish_modctl_needs_command" -f -a "webhooks" -d 'Send a test event, list and show deliveries, redeliver one, rotate the signing secret'
complete -c modctl -n "__fish_modctl_needs_command" -f -a "lockdown" -d 'Start, end or show a raid lockdown (invites paused, joiners held until it ends)'
complete -c modctl -n "__fish_modctl_needs_command" -f -a "onboarding" -d 'The server\'s setup checklist: what is done and the command that fixes each open item (plain columns: status, id, title, detail, fix)'
complete -c modctl -n "__fish_modctl_needs_command" -f -a "insights" -d 'Moderation insights: cases per day by action and source, moderators, repeat targets'
complete -c modctl -n "__fish_modctl_needs_command" -f -a "activity" -d 'Community activity: messages, active members, voice, joins and leaves per day; top channels and members'
complete -c modctl -n "__fish_modctl_needs_command" -f -a "strikes" -d 'Strike counts per member, most active first; `strikes clear` pardons a member'
complete -c modctl -n "__fish_modctl_needs_command" -f -a "jails" -d 'Active jails, oldest first'
complete -c modctl -n "__fish_modctl_needs_command" -f -a "completions" -d 'Print a shell completion script'
complete -c modctl -n "__fish_modctl_needs_command" -f -a "watch" -d 'Watch a server\'s events as they happen: cases, automod hits, jails, config changes, joins'
complete -c modctl -n "__fish_modctl_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c modctl -n "__fish_modctl_using_subcommand login" -l url -d 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]' -r
complete -c modctl -n "__fish_modctl_using_subcommand login" -l key -d 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)' -r
complete -c modctl -n "__fish_modctl_using_subcommand login" -l profile -d 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]' -r
complete -c modctl -n "__fish_modctl_using_subcommand login" -l timeout -d 'Request timeout in seconds' -r
complete -c modctl -n "__fish_modctl_using_subcommand login" -l with-key -d 'Read the API key from stdin (one line) instead of prompting, for scripts'
complete -c modctl -n "__fish_modctl_using_subcommand login" -l default -d 'Make the profile the default one (the first profile, and a plain `modctl login` without --profile, always become it)'
complete -c modctl -n "__fish_modctl_using_subcommand login" -l json -d 'Print JSON'
complete -c modctl -n "__fish_modctl_using_subcommand login" -l plain -d 'Print tab-separated rows without a header (the default when piped)'
complete -c modctl -n "__fish_modctl_using_subcommand login" -l table -d 'Print a table (the default on a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand login" -l wide -d 'Show long columns (reason, detail) whole instead of cutting them to the terminal\'s width'
complete -c modctl -n "__fish_modctl_using_subcommand login" -s h -l help -d 'Print help'
complete -c modctl -n "__fish_modctl_using_subcommand login" -s V -l version -d 'Print version'
complete -c modctl -n "__fish_modctl_using_subcommand logout" -l url -d 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]' -r
complete -c modctl -n "__fish_modctl_using_subcommand logout" -l key -d 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)' -r
complete -c modctl -n "__fish_modctl_using_subcommand logout" -l profile -d 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]' -r
complete -c modctl -n "__fish_modctl_using_subcommand logout" -l timeout -d 'Request timeout in seconds' -r
complete -c modctl -n "__fish_modctl_using_subcommand logout" -l json -d 'Print JSON'
complete -c modctl -n "__fish_modctl_using_subcommand logout" -l plain -d 'Print tab-separated rows without a header (the default when piped)'
complete -c modctl -n "__fish_modctl_using_subcommand logout" -l table -d 'Print a table (the default on a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand logout" -l wide -d 'Show long columns (reason, detail) whole instead of cutting them to the terminal\'s width'
complete -c modctl -n "__fish_modctl_using_subcommand logout" -s h -l help -d 'Print help'
complete -c modctl -n "__fish_modctl_using_subcommand logout" -s V -l version -d 'Print version'
complete -c modctl -n "__fish_modctl_using_subcommand profile; and not __fish_seen_subcommand_from list use remove help" -l url -d 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]' -r
complete -c modctl -n "__fish_modctl_using_subcommand profile; and not __fish_seen_subcommand_from list use remove help" -l key -d 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)' -r
complete -c modctl -n "__fish_modctl_using_subcommand profile; and not __fish_seen_subcommand_from list use remove help" -l profile -d 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]' -r
complete -c modctl -n "__fish_modctl_using_subcommand profile; and not __fish_seen_subcommand_from list use remove help" -l timeout -d 'Request timeout in seconds' -r
complete -c modctl -n "__fish_modctl_using_subcommand profile; and not __fish_seen_subcommand_from list use remove help" -l json -d 'Print JSON'
complete -c modctl -n "__fish_modctl_using_subcommand profile; and not __fish_seen_subcommand_from list use remove help" -l plain -d 'Print tab-separated rows without a header (the default when piped)'
complete -c modctl -n "__fish_modctl_using_subcommand profile; and not __fish_seen_subcommand_from list use remove help" -l table -d 'Print a table (the default on a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand profile; and not __fish_seen_subcommand_from list use remove help" -l wide -d 'Show long columns (reason, detail) whole instead of cutting them to the terminal\'s width'
complete -c modctl -n "__fish_modctl_using_subcommand profile; and not __fish_seen_subcommand_from list use remove help" -s h -l help -d 'Print help'
complete -c modctl -n "__fish_modctl_using_subcommand profile; and not __fish_seen_subcommand_from list use remove help" -s V -l version -d 'Print version'
complete -c modctl -n "__fish_modctl_using_subcommand profile; and not __fish_seen_subcommand_from list use remove help" -f -a "list" -d 'The saved profiles and their daemon URLs; the default one is marked'
complete -c modctl -n "__fish_modctl_using_subcommand profile; and not __fish_seen_subcommand_from list use remove help" -f -a "use" -d 'Make a profile the default, used when --profile is not given'
complete -c modctl -n "__fish_modctl_using_subcommand profile; and not __fish_seen_subcommand_from list use remove help" -f -a "remove" -d 'Forget a profile and its API key'
complete -c modctl -n "__fish_modctl_using_subcommand profile; and not __fish_seen_subcommand_from list use remove help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c modctl -n "__fish_modctl_using_subcommand profile; and __fish_seen_subcommand_from list" -l url -d 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]' -r
complete -c modctl -n "__fish_modctl_using_subcommand profile; and __fish_seen_subcommand_from list" -l key -d 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)' -r
complete -c modctl -n "__fish_modctl_using_subcommand profile; and __fish_seen_subcommand_from list" -l profile -d 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]' -r
complete -c modctl -n "__fish_modctl_using_subcommand profile; and __fish_seen_subcommand_from list" -l timeout -d 'Request timeout in seconds' -r
complete -c modctl -n "__fish_modctl_using_subcommand profile; and __fish_seen_subcommand_from list" -l json -d 'Print JSON'
complete -c modctl -n "__fish_modctl_using_subcommand profile; and __fish_seen_subcommand_from list" -l plain -d 'Print tab-separated rows without a header (the default when piped)'
complete -c modctl -n "__fish_modctl_using_subcommand profile; and __fish_seen_subcommand_from list" -l table -d 'Print a table (the default on a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand profile; and __fish_seen_subcommand_from list" -l wide -d 'Show long columns (reason, detail) whole instead of cutting them to the terminal\'s width'
complete -c modctl -n "__fish_modctl_using_subcommand profile; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c modctl -n "__fish_modctl_using_subcommand profile; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c modctl -n "__fish_modctl_using_subcommand profile; and __fish_seen_subcommand_from use" -l url -d 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]' -r
complete -c modctl -n "__fish_modctl_using_subcommand profile; and __fish_seen_subcommand_from use" -l key -d 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)' -r
complete -c modctl -n "__fish_modctl_using_subcommand profile; and __fish_seen_subcommand_from use" -l profile -d 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]' -r
complete -c modctl -n "__fish_modctl_using_subcommand profile; and __fish_seen_subcommand_from use" -l timeout -d 'Request timeout in seconds' -r
complete -c modctl -n "__fish_modctl_using_subcommand profile; and __fish_seen_subcommand_from use" -l json -d 'Print JSON'
complete -c modctl -n "__fish_modctl_using_subcommand profile; and __fish_seen_subcommand_from use" -l plain -d 'Print tab-separated rows without a header (the default when piped)'
complete -c modctl -n "__fish_modctl_using_subcommand profile; and __fish_seen_subcommand_from use" -l table -d 'Print a table (the default on a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand profile; and __fish_seen_subcommand_from use" -l wide -d 'Show long columns (reason, detail) whole instead of cutting them to the terminal\'s width'
complete -c modctl -n "__fish_modctl_using_subcommand profile; and __fish_seen_subcommand_from use" -s h -l help -d 'Print help'
complete -c modctl -n "__fish_modctl_using_subcommand profile; and __fish_seen_subcommand_from use" -s V -l version -d 'Print version'
complete -c modctl -n "__fish_modctl_using_subcommand profile; and __fish_seen_subcommand_from remove" -l url -d 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]' -r
complete -c modctl -n "__fish_modctl_using_subcommand profile; and __fish_seen_subcommand_from remove" -l key -d 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)' -r
complete -c modctl -n "__fish_modctl_using_subcommand profile; and __fish_seen_subcommand_from remove" -l profile -d 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]' -r
complete -c modctl -n "__fish_modctl_using_subcommand profile; and __fish_seen_subcommand_from remove" -l timeout -d 'Request timeout in seconds' -r
complete -c modctl -n "__fish_modctl_using_subcommand profile; and __fish_seen_subcommand_from remove" -l json -d 'Print JSON'
complete -c modctl -n "__fish_modctl_using_subcommand profile; and __fish_seen_subcommand_from remove" -l plain -d 'Print tab-separated rows without a header (the default when piped)'
complete -c modctl -n "__fish_modctl_using_subcommand profile; and __fish_seen_subcommand_from remove" -l table -d 'Print a table (the default on a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand profile; and __fish_seen_subcommand_from remove" -l wide -d 'Show long columns (reason, detail) whole instead of cutting them to the terminal\'s width'
complete -c modctl -n "__fish_modctl_using_subcommand profile; and __fish_seen_subcommand_from remove" -s h -l help -d 'Print help'
complete -c modctl -n "__fish_modctl_using_subcommand profile; and __fish_seen_subcommand_from remove" -s V -l version -d 'Print version'
complete -c modctl -n "__fish_modctl_using_subcommand profile; and __fish_seen_subcommand_from help" -f -a "list" -d 'The saved profiles and their daemon URLs; the default one is marked'
complete -c modctl -n "__fish_modctl_using_subcommand profile; and __fish_seen_subcommand_from help" -f -a "use" -d 'Make a profile the default, used when --profile is not given'
complete -c modctl -n "__fish_modctl_using_subcommand profile; and __fish_seen_subcommand_from help" -f -a "remove" -d 'Forget a profile and its API key'
complete -c modctl -n "__fish_modctl_using_subcommand profile; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c modctl -n "__fish_modctl_using_subcommand whoami" -l url -d 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]' -r
complete -c modctl -n "__fish_modctl_using_subcommand whoami" -l key -d 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)' -r
complete -c modctl -n "__fish_modctl_using_subcommand whoami" -l profile -d 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]' -r
complete -c modctl -n "__fish_modctl_using_subcommand whoami" -l timeout -d 'Request timeout in seconds' -r
complete -c modctl -n "__fish_modctl_using_subcommand whoami" -l json -d 'Print JSON'
complete -c modctl -n "__fish_modctl_using_subcommand whoami" -l plain -d 'Print tab-separated rows without a header (the default when piped)'
complete -c modctl -n "__fish_modctl_using_subcommand whoami" -l table -d 'Print a table (the default on a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand whoami" -l wide -d 'Show long columns (reason, detail) whole instead of cutting them to the terminal\'s width'
complete -c modctl -n "__fish_modctl_using_subcommand whoami" -s h -l help -d 'Print help'
complete -c modctl -n "__fish_modctl_using_subcommand whoami" -s V -l version -d 'Print version'
complete -c modctl -n "__fish_modctl_using_subcommand keys" -l url -d 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]' -r
complete -c modctl -n "__fish_modctl_using_subcommand keys" -l key -d 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)' -r
complete -c modctl -n "__fish_modctl_using_subcommand keys" -l profile -d 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]' -r
complete -c modctl -n "__fish_modctl_using_subcommand keys" -l timeout -d 'Request timeout in seconds' -r
complete -c modctl -n "__fish_modctl_using_subcommand keys" -l json -d 'Print JSON'
complete -c modctl -n "__fish_modctl_using_subcommand keys" -l plain -d 'Print tab-separated rows without a header (the default when piped)'
complete -c modctl -n "__fish_modctl_using_subcommand keys" -l table -d 'Print a table (the default on a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand keys" -l wide -d 'Show long columns (reason, detail) whole instead of cutting them to the terminal\'s width'
complete -c modctl -n "__fish_modctl_using_subcommand keys" -s h -l help -d 'Print help'
complete -c modctl -n "__fish_modctl_using_subcommand keys" -s V -l version -d 'Print version'
complete -c modctl -n "__fish_modctl_using_subcommand servers; and not __fish_seen_subcommand_from list show help" -l url -d 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]' -r
complete -c modctl -n "__fish_modctl_using_subcommand servers; and not __fish_seen_subcommand_from list show help" -l key -d 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)' -r
complete -c modctl -n "__fish_modctl_using_subcommand servers; and not __fish_seen_subcommand_from list show help" -l profile -d 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]' -r
complete -c modctl -n "__fish_modctl_using_subcommand servers; and not __fish_seen_subcommand_from list show help" -l timeout -d 'Request timeout in seconds' -r
complete -c modctl -n "__fish_modctl_using_subcommand servers; and not __fish_seen_subcommand_from list show help" -l json -d 'Print JSON'
complete -c modctl -n "__fish_modctl_using_subcommand servers; and not __fish_seen_subcommand_from list show help" -l plain -d 'Print tab-separated rows without a header (the default when piped)'
complete -c modctl -n "__fish_modctl_using_subcommand servers; and not __fish_seen_subcommand_from list show help" -l table -d 'Print a table (the default on a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand servers; and not __fish_seen_subcommand_from list show help" -l wide -d 'Show long columns (reason, detail) whole instead of cutting them to the terminal\'s width'
complete -c modctl -n "__fish_modctl_using_subcommand servers; and not __fish_seen_subcommand_from list show help" -s h -l help -d 'Print help'
complete -c modctl -n "__fish_modctl_using_subcommand servers; and not __fish_seen_subcommand_from list show help" -s V -l version -d 'Print version'
complete -c modctl -n "__fish_modctl_using_subcommand servers; and not __fish_seen_subcommand_from list show help" -f -a "list" -d 'List your team\'s servers (plain columns: id, platform, name, claimed at)'
complete -c modctl -n "__fish_modctl_using_subcommand servers; and not __fish_seen_subcommand_from list show help" -f -a "show" -d 'Show one server'
complete -c modctl -n "__fish_modctl_using_subcommand servers; and not __fish_seen_subcommand_from list show help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c modctl -n "__fish_modctl_using_subcommand servers; and __fish_seen_subcommand_from list" -l url -d 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]' -r
complete -c modctl -n "__fish_modctl_using_subcommand servers; and __fish_seen_subcommand_from list" -l key -d 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)' -r
complete -c modctl -n "__fish_modctl_using_subcommand servers; and __fish_seen_subcommand_from list" -l profile -d 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]' -r
complete -c modctl -n "__fish_modctl_using_subcommand servers; and __fish_seen_subcommand_from list" -l timeout -d 'Request timeout in seconds' -r
complete -c modctl -n "__fish_modctl_using_subcommand servers; and __fish_seen_subcommand_from list" -l json -d 'Print JSON'
complete -c modctl -n "__fish_modctl_using_subcommand servers; and __fish_seen_subcommand_from list" -l plain -d 'Print tab-separated rows without a header (the default when piped)'
complete -c modctl -n "__fish_modctl_using_subcommand servers; and __fish_seen_subcommand_from list" -l table -d 'Print a table (the default on a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand servers; and __fish_seen_subcommand_from list" -l wide -d 'Show long columns (reason, detail) whole instead of cutting them to the terminal\'s width'
complete -c modctl -n "__fish_modctl_using_subcommand servers; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c modctl -n "__fish_modctl_using_subcommand servers; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c modctl -n "__fish_modctl_using_subcommand servers; and __fish_seen_subcommand_from show" -l url -d 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]' -r
complete -c modctl -n "__fish_modctl_using_subcommand servers; and __fish_seen_subcommand_from show" -l key -d 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)' -r
complete -c modctl -n "__fish_modctl_using_subcommand servers; and __fish_seen_subcommand_from show" -l profile -d 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]' -r
complete -c modctl -n "__fish_modctl_using_subcommand servers; and __fish_seen_subcommand_from show" -l timeout -d 'Request timeout in seconds' -r
complete -c modctl -n "__fish_modctl_using_subcommand servers; and __fish_seen_subcommand_from show" -l json -d 'Print JSON'
complete -c modctl -n "__fish_modctl_using_subcommand servers; and __fish_seen_subcommand_from show" -l plain -d 'Print tab-separated rows without a header (the default when piped)'
complete -c modctl -n "__fish_modctl_using_subcommand servers; and __fish_seen_subcommand_from show" -l table -d 'Print a table (the default on a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand servers; and __fish_seen_subcommand_from show" -l wide -d 'Show long columns (reason, detail) whole instead of cutting them to the terminal\'s width'
complete -c modctl -n "__fish_modctl_using_subcommand servers; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help'
complete -c modctl -n "__fish_modctl_using_subcommand servers; and __fish_seen_subcommand_from show" -s V -l version -d 'Print version'
complete -c modctl -n "__fish_modctl_using_subcommand servers; and __fish_seen_subcommand_from help" -f -a "list" -d 'List your team\'s servers (plain columns: id, platform, name, claimed at)'
complete -c modctl -n "__fish_modctl_using_subcommand servers; and __fish_seen_subcommand_from help" -f -a "show" -d 'Show one server'
complete -c modctl -n "__fish_modctl_using_subcommand servers; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c modctl -n "__fish_modctl_using_subcommand config; and not __fish_seen_subcommand_from show set edit export import clone rollback audit diff help" -l url -d 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]' -r
complete -c modctl -n "__fish_modctl_using_subcommand config; and not __fish_seen_subcommand_from show set edit export import clone rollback audit diff help" -l key -d 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)' -r
complete -c modctl -n "__fish_modctl_using_subcommand config; and not __fish_seen_subcommand_from show set edit export import clone rollback audit diff help" -l profile -d 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]' -r
complete -c modctl -n "__fish_modctl_using_subcommand config; and not __fish_seen_subcommand_from show set edit export import clone rollback audit diff help" -l timeout -d 'Request timeout in seconds' -r
complete -c modctl -n "__fish_modctl_using_subcommand config; and not __fish_seen_subcommand_from show set edit export import clone rollback audit diff help" -l json -d 'Print JSON'
complete -c modctl -n "__fish_modctl_using_subcommand config; and not __fish_seen_subcommand_from show set edit export import clone rollback audit diff help" -l plain -d 'Print tab-separated rows without a header (the default when piped)'
complete -c modctl -n "__fish_modctl_using_subcommand config; and not __fish_seen_subcommand_from show set edit export import clone rollback audit diff help" -l table -d 'Print a table (the default on a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand config; and not __fish_seen_subcommand_from show set edit export import clone rollback audit diff help" -l wide -d 'Show long columns (reason, detail) whole instead of cutting them to the terminal\'s width'
complete -c modctl -n "__fish_modctl_using_subcommand config; and not __fish_seen_subcommand_from show set edit export import clone rollback audit diff help" -s h -l help -d 'Print help'
complete -c modctl -n "__fish_modctl_using_subcommand config; and not __fish_seen_subcommand_from show set edit export import clone rollback audit diff help" -s V -l version -d 'Print version'
complete -c modctl -n "__fish_modctl_using_subcommand config; and not __fish_seen_subcommand_from show set edit export import clone rollback audit diff help" -f -a "show" -d 'Show the whole config, or one section (plain: `path<TAB>value` lines)'
complete -c modctl -n "__fish_modctl_using_subcommand config; and not __fish_seen_subcommand_from show set edit export import clone rollback audit diff help" -f -a "set" -d 'Set one field (`SECTION.FIELD VALUE`), several (`A=1 B=x`, one revision), or replace a whole section with the JSON in a file (`SECTION --file FILE`)'
complete -c modctl -n "__fish_modctl_using_subcommand config; and not __fish_seen_subcommand_from show set edit export import clone rollback audit diff help" -f -a "edit" -d 'Edit a section in $EDITOR; reopens with the error when the daemon refuses it'
complete -c modctl -n "__fish_modctl_using_subcommand config; and not __fish_seen_subcommand_from show set edit export import clone rollback audit diff help" -f -a "export" -d 'Print the export envelope (JSON) or write it to a file'
complete -c modctl -n "__fish_modctl_using_subcommand config; and not __fish_seen_subcommand_from show set edit export import clone rollback audit diff help" -f -a "import" -d 'Import an export envelope from a file or stdin; all sections or nothing (shows the changes and asks first; --yes without a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand config; and not __fish_seen_subcommand_from show set edit export import clone rollback audit diff help" -f -a "clone" -d 'Copy the config of another server of your team into this one (shows the changes and asks first; --yes without a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand config; and not __fish_seen_subcommand_from show set edit export import clone rollback audit diff help" -f -a "rollback" -d 'Put the settings of an earlier revision back (rebuilt from the audit trail), as a diff to confirm; written as one change at the current revision'
complete -c modctl -n "__fish_modctl_using_subcommand config; and not __fish_seen_subcommand_from show set edit export import clone rollback audit diff help" -f -a "audit" -d 'Recent config changes, newest first (plain columns: id, time, actor, section, source, revision, changes)'
complete -c modctl -n "__fish_modctl_using_subcommand config; and not __fish_seen_subcommand_from show set edit export import clone rollback audit diff help" -f -a "diff" -d 'Compare the configs of two servers; exits 0 when equal, 1 when different'
complete -c modctl -n "__fish_modctl_using_subcommand config; and not __fish_seen_subcommand_from show set edit export import clone rollback audit diff help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from show" -l url -d 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]' -r
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from show" -l key -d 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)' -r
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from show" -l profile -d 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]' -r
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from show" -l timeout -d 'Request timeout in seconds' -r
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from show" -l json -d 'Print JSON'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from show" -l plain -d 'Print tab-separated rows without a header (the default when piped)'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from show" -l table -d 'Print a table (the default on a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from show" -l wide -d 'Show long columns (reason, detail) whole instead of cutting them to the terminal\'s width'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from show" -s V -l version -d 'Print version'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from set" -s f -l file -d 'JSON file with the new section, or `-` for stdin' -r
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from set" -l if-revision -d 'With --file: refuse unless the config is still at this revision' -r
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from set" -l url -d 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]' -r
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from set" -l key -d 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)' -r
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from set" -l profile -d 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]' -r
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from set" -l timeout -d 'Request timeout in seconds' -r
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from set" -l json -d 'Print JSON'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from set" -l plain -d 'Print tab-separated rows without a header (the default when piped)'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from set" -l table -d 'Print a table (the default on a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from set" -l wide -d 'Show long columns (reason, detail) whole instead of cutting them to the terminal\'s width'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from set" -s h -l help -d 'Print help'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from set" -s V -l version -d 'Print version'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from edit" -l url -d 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]' -r
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from edit" -l key -d 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)' -r
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from edit" -l profile -d 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]' -r
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from edit" -l timeout -d 'Request timeout in seconds' -r
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from edit" -l json -d 'Print JSON'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from edit" -l plain -d 'Print tab-separated rows without a header (the default when piped)'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from edit" -l table -d 'Print a table (the default on a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from edit" -l wide -d 'Show long columns (reason, detail) whole instead of cutting them to the terminal\'s width'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from edit" -s h -l help -d 'Print help'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from edit" -s V -l version -d 'Print version'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from export" -s o -l output -d 'Write to this file instead of stdout' -r
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from export" -l url -d 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]' -r
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from export" -l key -d 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)' -r
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from export" -l profile -d 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]' -r
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from export" -l timeout -d 'Request timeout in seconds' -r
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from export" -l json -d 'Print JSON'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from export" -l plain -d 'Print tab-separated rows without a header (the default when piped)'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from export" -l table -d 'Print a table (the default on a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from export" -l wide -d 'Show long columns (reason, detail) whole instead of cutting them to the terminal\'s width'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from export" -s h -l help -d 'Print help'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from export" -s V -l version -d 'Print version'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from import" -l url -d 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]' -r
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from import" -l key -d 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)' -r
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from import" -l profile -d 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]' -r
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from import" -l timeout -d 'Request timeout in seconds' -r
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from import" -l dry-run -d 'Show what would change without changing anything'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from import" -l drop-foreign-ids -d 'Clear channel and role ids that are not this server\'s platform\'s (listed as warnings) instead of refusing the import'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from import" -s y -l yes -d 'Do not ask for confirmation'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from import" -l json -d 'Print JSON'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from import" -l plain -d 'Print tab-separated rows without a header (the default when piped)'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from import" -l table -d 'Print a table (the default on a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from import" -l wide -d 'Show long columns (reason, detail) whole instead of cutting them to the terminal\'s width'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from import" -s h -l help -d 'Print help'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from import" -s V -l version -d 'Print version'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from clone" -l from -d 'The server to copy from' -r
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from clone" -l url -d 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]' -r
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from clone" -l key -d 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)' -r
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from clone" -l profile -d 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]' -r
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from clone" -l timeout -d 'Request timeout in seconds' -r
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from clone" -l drop-foreign-ids -d 'Clear channel and role ids that are not this server\'s platform\'s (listed as warnings) instead of refusing the copy'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from clone" -l dry-run -d 'Show what the copy would change without changing anything'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from clone" -s y -l yes -d 'Do not ask for confirmation'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from clone" -l json -d 'Print JSON'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from clone" -l plain -d 'Print tab-separated rows without a header (the default when piped)'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from clone" -l table -d 'Print a table (the default on a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from clone" -l wide -d 'Show long columns (reason, detail) whole instead of cutting them to the terminal\'s width'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from clone" -s h -l help -d 'Print help'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from clone" -s V -l version -d 'Print version'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from rollback" -l to-revision -d 'The revision whose settings to restore (see `modctl config audit`)' -r
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from rollback" -l url -d 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]' -r
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from rollback" -l key -d 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)' -r
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from rollback" -l profile -d 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]' -r
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from rollback" -l timeout -d 'Request timeout in seconds' -r
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from rollback" -s y -l yes -d 'Do not ask for confirmation'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from rollback" -l json -d 'Print JSON'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from rollback" -l plain -d 'Print tab-separated rows without a header (the default when piped)'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from rollback" -l table -d 'Print a table (the default on a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from rollback" -l wide -d 'Show long columns (reason, detail) whole instead of cutting them to the terminal\'s width'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from rollback" -s h -l help -d 'Print help'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from rollback" -s V -l version -d 'Print version'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from audit" -l limit -d 'How many entries (1 to 500)' -r
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from audit" -l url -d 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]' -r
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from audit" -l key -d 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)' -r
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from audit" -l profile -d 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]' -r
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from audit" -l timeout -d 'Request timeout in seconds' -r
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from audit" -l json -d 'Print JSON'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from audit" -l plain -d 'Print tab-separated rows without a header (the default when piped)'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from audit" -l table -d 'Print a table (the default on a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from audit" -l wide -d 'Show long columns (reason, detail) whole instead of cutting them to the terminal\'s width'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from audit" -s h -l help -d 'Print help'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from audit" -s V -l version -d 'Print version'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from diff" -l url -d 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]' -r
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from diff" -l key -d 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)' -r
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from diff" -l profile -d 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]' -r
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from diff" -l timeout -d 'Request timeout in seconds' -r
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from diff" -l json -d 'Print JSON'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from diff" -l plain -d 'Print tab-separated rows without a header (the default when piped)'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from diff" -l table -d 'Print a table (the default on a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from diff" -l wide -d 'Show long columns (reason, detail) whole instead of cutting them to the terminal\'s width'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from diff" -s h -l help -d 'Print help'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from diff" -s V -l version -d 'Print version'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "show" -d 'Show the whole config, or one section (plain: `path<TAB>value` lines)'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "set" -d 'Set one field (`SECTION.FIELD VALUE`), several (`A=1 B=x`, one revision), or replace a whole section with the JSON in a file (`SECTION --file FILE`)'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "edit" -d 'Edit a section in $EDITOR; reopens with the error when the daemon refuses it'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "export" -d 'Print the export envelope (JSON) or write it to a file'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "import" -d 'Import an export envelope from a file or stdin; all sections or nothing (shows the changes and asks first; --yes without a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "clone" -d 'Copy the config of another server of your team into this one (shows the changes and asks first; --yes without a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "rollback" -d 'Put the settings of an earlier revision back (rebuilt from the audit trail), as a diff to confirm; written as one change at the current revision'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "audit" -d 'Recent config changes, newest first (plain columns: id, time, actor, section, source, revision, changes)'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "diff" -d 'Compare the configs of two servers; exits 0 when equal, 1 when different'
complete -c modctl -n "__fish_modctl_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c modctl -n "__fish_modctl_using_subcommand action" -s r -l reason -d 'Why (at most 512 characters)' -r
complete -c modctl -n "__fish_modctl_using_subcommand action" -s d -l duration -d 'How long, for timeout and jail: 90m, 2h, 7d, 1h30m (a bare number is minutes)' -r
complete -c modctl -n "__fish_modctl_using_subcommand action" -l delete-days -d 'Days of messages to delete, for ban (0 to 7)' -r
complete -c modctl -n "__fish_modctl_using_subcommand action" -l users-file -d 'Act on every user id in this file (one per line, `#` comments), or `-` for stdin' -r
complete -c modctl -n "__fish_modctl_using_subcommand action" -l idempotency-key -d 'Send this Idempotency-Key: a retry with the same key does nothing again' -r
complete -c modctl -n "__fish_modctl_using_subcommand action" -l url -d 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]' -r
complete -c modctl -n "__fish_modctl_using_subcommand action" -l key -d 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)' -r
complete -c modctl -n "__fish_modctl_using_subcommand action" -l profile -d 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]' -r
complete -c modctl -n "__fish_modctl_using_subcommand action" -l timeout -d 'Request timeout in seconds' -r
complete -c modctl -n "__fish_modctl_using_subcommand action" -s y -l yes -d 'Do not ask for confirmation'
complete -c modctl -n "__fish_modctl_using_subcommand action" -l dry-run -d 'Say what the action would do (platform call, DM, strikes, ladder step) without recording or doing anything'
complete -c modctl -n "__fish_modctl_using_subcommand action" -l json -d 'Print JSON'
complete -c modctl -n "__fish_modctl_using_subcommand action" -l plain -d 'Print tab-separated rows without a header (the default when piped)'
complete -c modctl -n "__fish_modctl_using_subcommand action" -l table -d 'Print a table (the default on a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand action" -l wide -d 'Show long columns (reason, detail) whole instead of cutting them to the terminal\'s width'
complete -c modctl -n "__fish_modctl_using_subcommand action" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c modctl -n "__fish_modctl_using_subcommand action" -s V -l version -d 'Print version'
complete -c modctl -n "__fish_modctl_using_subcommand cases; and not __fish_seen_subcommand_from list show edit void export help" -l url -d 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]' -r
complete -c modctl -n "__fish_modctl_using_subcommand cases; and not __fish_seen_subcommand_from list show edit void export help" -l key -d 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)' -r
complete -c modctl -n "__fish_modctl_using_subcommand cases; and not __fish_seen_subcommand_from list show edit void export help" -l profile -d 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]' -r
complete -c modctl -n "__fish_modctl_using_subcommand cases; and not __fish_seen_subcommand_from list show edit void export help" -l timeout -d 'Request timeout in seconds' -r
complete -c modctl -n "__fish_modctl_using_subcommand cases; and not __fish_seen_subcommand_from list show edit void export help" -l json -d 'Print JSON'
complete -c modctl -n "__fish_modctl_using_subcommand cases; and not __fish_seen_subcommand_from list show edit void export help" -l plain -d 'Print tab-separated rows without a header (the default when piped)'
complete -c modctl -n "__fish_modctl_using_subcommand cases; and not __fish_seen_subcommand_from list show edit void export help" -l table -d 'Print a table (the default on a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand cases; and not __fish_seen_subcommand_from list show edit void export help" -l wide -d 'Show long columns (reason, detail) whole instead of cutting them to the terminal\'s width'
complete -c modctl -n "__fish_modctl_using_subcommand cases; and not __fish_seen_subcommand_from list show edit void export help" -s h -l help -d 'Print help'
complete -c modctl -n "__fish_modctl_using_subcommand cases; and not __fish_seen_subcommand_from list show edit void export help" -s V -l version -d 'Print version'
complete -c modctl -n "__fish_modctl_using_subcommand cases; and not __fish_seen_subcommand_from list show edit void export help" -f -a "list" -d 'Recent cases, newest first, optionally filtered'
complete -c modctl -n "__fish_modctl_using_subcommand cases; and not __fish_seen_subcommand_from list show edit void export help" -f -a "show" -d 'One case, by its number on the server'
complete -c modctl -n "__fish_modctl_using_subcommand cases; and not __fish_seen_subcommand_from list show edit void export help" -f -a "edit" -d 'Replace a case\'s reason; the old one is kept in its corrections'
complete -c modctl -n "__fish_modctl_using_subcommand cases; and not __fish_seen_subcommand_from list show edit void export help" -f -a "void" -d 'Void a case, saying why: its strikes stop counting; the case stays, marked voided'
complete -c modctl -n "__fish_modctl_using_subcommand cases; and not __fish_seen_subcommand_from list show edit void export help" -f -a "export" -d 'Every case of a server as JSON lines or CSV, oldest first'
complete -c modctl -n "__fish_modctl_using_subcommand cases; and not __fish_seen_subcommand_from list show edit void export help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from list" -l user -d 'Only cases of this user: a user id, or `@name` for the one member known by that name' -r
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from list" -l action -d 'Only cases of this action' -r
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from list" -l actor -d 'Only cases by this actor: a key\'s display name (any case; every key of that name), a key id, key:<key id>, or system:expiry' -r
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from list" -l since -d 'Only cases recorded since then: a duration ago (30m, 12h, 7d, 2w) or a date (2026-11-01, 2026-11-01T09:00:00Z)' -r
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from list" -l until -d 'Only cases recorded before then (same forms as --since)' -r
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from list" -l limit -d 'How many (1 to 200)' -r
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from list" -s o -l output -d 'Output format: table, wide (a table with every value whole), plain or json' -r -f -a "table\t'A table fitted to the terminal'
wide\t'A table with every value whole'
plain\t'Tab-separated rows'
json\t'JSON'"
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from list" -l url -d 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]' -r
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from list" -l key -d 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)' -r
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from list" -l profile -d 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]' -r
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from list" -l timeout -d 'Request timeout in seconds' -r
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from list" -l applied -d 'Only cases the platform applied'
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from list" -l not-applied -d 'Only cases the platform did not apply'
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from list" -l all -d 'Every matching case, following the pages'
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from list" -l json -d 'Print JSON'
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from list" -l plain -d 'Print tab-separated rows without a header (the default when piped)'
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from list" -l table -d 'Print a table (the default on a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from list" -l wide -d 'Show long columns (reason, detail) whole instead of cutting them to the terminal\'s width'
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from show" -l url -d 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]' -r
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from show" -l key -d 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)' -r
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from show" -l profile -d 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]' -r
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from show" -l timeout -d 'Request timeout in seconds' -r
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from show" -l json -d 'Print JSON'
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from show" -l plain -d 'Print tab-separated rows without a header (the default when piped)'
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from show" -l table -d 'Print a table (the default on a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from show" -l wide -d 'Show long columns (reason, detail) whole instead of cutting them to the terminal\'s width'
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help'
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from show" -s V -l version -d 'Print version'
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from edit" -s r -l reason -d 'The new reason (1 to 512 characters)' -r
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from edit" -l url -d 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]' -r
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from edit" -l key -d 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)' -r
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from edit" -l profile -d 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]' -r
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from edit" -l timeout -d 'Request timeout in seconds' -r
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from edit" -l json -d 'Print JSON'
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from edit" -l plain -d 'Print tab-separated rows without a header (the default when piped)'
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from edit" -l table -d 'Print a table (the default on a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from edit" -l wide -d 'Show long columns (reason, detail) whole instead of cutting them to the terminal\'s width'
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from edit" -s h -l help -d 'Print help'
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from edit" -s V -l version -d 'Print version'
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from void" -s r -l reason -d 'Why (1 to 512 characters); kept with the void' -r
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from void" -l url -d 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]' -r
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from void" -l key -d 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)' -r
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from void" -l profile -d 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]' -r
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from void" -l timeout -d 'Request timeout in seconds' -r
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from void" -l json -d 'Print JSON'
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from void" -l plain -d 'Print tab-separated rows without a header (the default when piped)'
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from void" -l table -d 'Print a table (the default on a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from void" -l wide -d 'Show long columns (reason, detail) whole instead of cutting them to the terminal\'s width'
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from void" -s h -l help -d 'Print help'
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from void" -s V -l version -d 'Print version'
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from export" -l format -d 'The format' -r -f -a "jsonl\t'One JSON object per line'
csv\t'Comma-separated values with a header'"
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from export" -l url -d 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]' -r
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from export" -l key -d 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)' -r
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from export" -l profile -d 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]' -r
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from export" -l timeout -d 'Request timeout in seconds' -r
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from export" -l json -d 'Print JSON'
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from export" -l plain -d 'Print tab-separated rows without a header (the default when piped)'
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from export" -l table -d 'Print a table (the default on a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from export" -l wide -d 'Show long columns (reason, detail) whole instead of cutting them to the terminal\'s width'
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from export" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from export" -s V -l version -d 'Print version'
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from help" -f -a "list" -d 'Recent cases, newest first, optionally filtered'
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from help" -f -a "show" -d 'One case, by its number on the server'
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from help" -f -a "edit" -d 'Replace a case\'s reason; the old one is kept in its corrections'
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from help" -f -a "void" -d 'Void a case, saying why: its strikes stop counting; the case stays, marked voided'
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from help" -f -a "export" -d 'Every case of a server as JSON lines or CSV, oldest first'
complete -c modctl -n "__fish_modctl_using_subcommand cases; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c modctl -n "__fish_modctl_using_subcommand automod; and not __fish_seen_subcommand_from test hits help" -l url -d 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]' -r
complete -c modctl -n "__fish_modctl_using_subcommand automod; and not __fish_seen_subcommand_from test hits help" -l key -d 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)' -r
complete -c modctl -n "__fish_modctl_using_subcommand automod; and not __fish_seen_subcommand_from test hits help" -l profile -d 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]' -r
complete -c modctl -n "__fish_modctl_using_subcommand automod; and not __fish_seen_subcommand_from test hits help" -l timeout -d 'Request timeout in seconds' -r
complete -c modctl -n "__fish_modctl_using_subcommand automod; and not __fish_seen_subcommand_from test hits help" -l json -d 'Print JSON'
complete -c modctl -n "__fish_modctl_using_subcommand automod; and not __fish_seen_subcommand_from test hits help" -l plain -d 'Print tab-separated rows without a header (the default when piped)'
complete -c modctl -n "__fish_modctl_using_subcommand automod; and not __fish_seen_subcommand_from test hits help" -l table -d 'Print a table (the default on a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand automod; and not __fish_seen_subcommand_from test hits help" -l wide -d 'Show long columns (reason, detail) whole instead of cutting them to the terminal\'s width'
complete -c modctl -n "__fish_modctl_using_subcommand automod; and not __fish_seen_subcommand_from test hits help" -s h -l help -d 'Print help'
complete -c modctl -n "__fish_modctl_using_subcommand automod; and not __fish_seen_subcommand_from test hits help" -s V -l version -d 'Print version'
complete -c modctl -n "__fish_modctl_using_subcommand automod; and not __fish_seen_subcommand_from test hits help" -f -a "test" -d 'Try a message against the server\'s automod filters: which would act, on what, and how'
complete -c modctl -n "__fish_modctl_using_subcommand automod; and not __fish_seen_subcommand_from test hits help" -f -a "hits" -d 'The messages the server\'s automod caught, newest first'
complete -c modctl -n "__fish_modctl_using_subcommand automod; and not __fish_seen_subcommand_from test hits help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c modctl -n "__fish_modctl_using_subcommand automod; and __fish_seen_subcommand_from test" -l user -d 'The author\'s user id' -r
complete -c modctl -n "__fish_modctl_using_subcommand automod; and __fish_seen_subcommand_from test" -l channel -d 'The channel it is sent in (tries automod.exempt_channel_ids)' -r
complete -c modctl -n "__fish_modctl_using_subcommand automod; and __fish_seen_subcommand_from test" -l role -d 'A role of the author (tries automod.exempt_role_ids); repeat for several' -r
complete -c modctl -n "__fish_modctl_using_subcommand automod; and __fish_seen_subcommand_from test" -l url -d 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]' -r
complete -c modctl -n "__fish_modctl_using_subcommand automod; and __fish_seen_subcommand_from test" -l key -d 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)' -r
complete -c modctl -n "__fish_modctl_using_subcommand automod; and __fish_seen_subcommand_from test" -l profile -d 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]' -r
complete -c modctl -n "__fish_modctl_using_subcommand automod; and __fish_seen_subcommand_from test" -l timeout -d 'Request timeout in seconds' -r
complete -c modctl -n "__fish_modctl_using_subcommand automod; and __fish_seen_subcommand_from test" -l json -d 'Print JSON'
complete -c modctl -n "__fish_modctl_using_subcommand automod; and __fish_seen_subcommand_from test" -l plain -d 'Print tab-separated rows without a header (the default when piped)'
complete -c modctl -n "__fish_modctl_using_subcommand automod; and __fish_seen_subcommand_from test" -l table -d 'Print a table (the default on a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand automod; and __fish_seen_subcommand_from test" -l wide -d 'Show long columns (reason, detail) whole instead of cutting them to the terminal\'s width'
complete -c modctl -n "__fish_modctl_using_subcommand automod; and __fish_seen_subcommand_from test" -s h -l help -d 'Print help'
complete -c modctl -n "__fish_modctl_using_subcommand automod; and __fish_seen_subcommand_from test" -s V -l version -d 'Print version'
complete -c modctl -n "__fish_modctl_using_subcommand automod; and __fish_seen_subcommand_from hits" -l filter -d 'Only hits of this filter (blocked_words, invite_links, links, mention_spam, caps, duplicates)' -r
complete -c modctl -n "__fish_modctl_using_subcommand automod; and __fish_seen_subcommand_from hits" -l user -d 'Only hits of this member' -r
complete -c modctl -n "__fish_modctl_using_subcommand automod; and __fish_seen_subcommand_from hits" -l limit -d 'How many (1 to 200)' -r
complete -c modctl -n "__fish_modctl_using_subcommand automod; and __fish_seen_subcommand_from hits" -l before -d 'Only hits older than this one (the last id of the previous page)' -r
complete -c modctl -n "__fish_modctl_using_subcommand automod; and __fish_seen_subcommand_from hits" -s o -l output -d 'Output format: table, wide (a table with every value whole), plain or json' -r -f -a "table\t'A table fitted to the terminal'
wide\t'A table with every value whole'
plain\t'Tab-separated rows'
json\t'JSON'"
complete -c modctl -n "__fish_modctl_using_subcommand automod; and __fish_seen_subcommand_from hits" -l url -d 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]' -r
complete -c modctl -n "__fish_modctl_using_subcommand automod; and __fish_seen_subcommand_from hits" -l key -d 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)' -r
complete -c modctl -n "__fish_modctl_using_subcommand automod; and __fish_seen_subcommand_from hits" -l profile -d 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]' -r
complete -c modctl -n "__fish_modctl_using_subcommand automod; and __fish_seen_subcommand_from hits" -l timeout -d 'Request timeout in seconds' -r
complete -c modctl -n "__fish_modctl_using_subcommand automod; and __fish_seen_subcommand_from hits" -l json -d 'Print JSON'
complete -c modctl -n "__fish_modctl_using_subcommand automod; and __fish_seen_subcommand_from hits" -l plain -d 'Print tab-separated rows without a header (the default when piped)'
complete -c modctl -n "__fish_modctl_using_subcommand automod; and __fish_seen_subcommand_from hits" -l table -d 'Print a table (the default on a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand automod; and __fish_seen_subcommand_from hits" -l wide -d 'Show long columns (reason, detail) whole instead of cutting them to the terminal\'s width'
complete -c modctl -n "__fish_modctl_using_subcommand automod; and __fish_seen_subcommand_from hits" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c modctl -n "__fish_modctl_using_subcommand automod; and __fish_seen_subcommand_from hits" -s V -l version -d 'Print version'
complete -c modctl -n "__fish_modctl_using_subcommand automod; and __fish_seen_subcommand_from help" -f -a "test" -d 'Try a message against the server\'s automod filters: which would act, on what, and how'
complete -c modctl -n "__fish_modctl_using_subcommand automod; and __fish_seen_subcommand_from help" -f -a "hits" -d 'The messages the server\'s automod caught, newest first'
complete -c modctl -n "__fish_modctl_using_subcommand automod; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and not __fish_seen_subcommand_from capture list show diff restore job help" -l url -d 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]' -r
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and not __fish_seen_subcommand_from capture list show diff restore job help" -l key -d 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)' -r
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and not __fish_seen_subcommand_from capture list show diff restore job help" -l profile -d 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]' -r
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and not __fish_seen_subcommand_from capture list show diff restore job help" -l timeout -d 'Request timeout in seconds' -r
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and not __fish_seen_subcommand_from capture list show diff restore job help" -l json -d 'Print JSON'
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and not __fish_seen_subcommand_from capture list show diff restore job help" -l plain -d 'Print tab-separated rows without a header (the default when piped)'
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and not __fish_seen_subcommand_from capture list show diff restore job help" -l table -d 'Print a table (the default on a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and not __fish_seen_subcommand_from capture list show diff restore job help" -l wide -d 'Show long columns (reason, detail) whole instead of cutting them to the terminal\'s width'
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and not __fish_seen_subcommand_from capture list show diff restore job help" -s h -l help -d 'Print help'
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and not __fish_seen_subcommand_from capture list show diff restore job help" -s V -l version -d 'Print version'
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and not __fish_seen_subcommand_from capture list show diff restore job help" -f -a "capture" -d 'Capture the server\'s roles, channels and settings now (plain: field<TAB>value)'
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and not __fish_seen_subcommand_from capture list show diff restore job help" -f -a "list" -d 'The snapshots kept, newest first (plain columns: id, captured, source, actor, roles, channels, overwrites, user groups, administrators, size in bytes, content hash)'
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and not __fish_seen_subcommand_from capture list show diff restore job help" -f -a "show" -d 'One snapshot\'s metadata, or with --content what it holds (plain content columns: kind, id, name, parent, detail)'
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and not __fish_seen_subcommand_from capture list show diff restore job help" -f -a "diff" -d 'The snapshot against the server now: what is missing, what is present (and how it was recognised), what a restore would skip and why (plain columns: step, kind, snapshot id, name, matched by, live id, detail)'
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and not __fish_seen_subcommand_from capture list show diff restore job help" -f -a "restore" -d 'Restore the missing roles and channels from a snapshot; exits 1 when the job stopped or any item failed (plain report columns: outcome, kind, snapshot id, name, live id, what happened)'
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and not __fish_seen_subcommand_from capture list show diff restore job help" -f -a "job" -d 'A restore job\'s report; --wait follows it until it ends and exits 1 like restore (plain columns as restore\'s)'
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and not __fish_seen_subcommand_from capture list show diff restore job help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from capture" -l url -d 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]' -r
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from capture" -l key -d 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)' -r
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from capture" -l profile -d 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]' -r
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from capture" -l timeout -d 'Request timeout in seconds' -r
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from capture" -l json -d 'Print JSON'
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from capture" -l plain -d 'Print tab-separated rows without a header (the default when piped)'
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from capture" -l table -d 'Print a table (the default on a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from capture" -l wide -d 'Show long columns (reason, detail) whole instead of cutting them to the terminal\'s width'
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from capture" -s h -l help -d 'Print help'
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from capture" -s V -l version -d 'Print version'
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from list" -l url -d 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]' -r
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from list" -l key -d 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)' -r
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from list" -l profile -d 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]' -r
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from list" -l timeout -d 'Request timeout in seconds' -r
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from list" -l json -d 'Print JSON'
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from list" -l plain -d 'Print tab-separated rows without a header (the default when piped)'
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from list" -l table -d 'Print a table (the default on a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from list" -l wide -d 'Show long columns (reason, detail) whole instead of cutting them to the terminal\'s width'
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from show" -l url -d 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]' -r
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from show" -l key -d 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)' -r
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from show" -l profile -d 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]' -r
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from show" -l timeout -d 'Request timeout in seconds' -r
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from show" -l content -d 'Show the roles, channels and settings it holds'
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from show" -l json -d 'Print JSON'
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from show" -l plain -d 'Print tab-separated rows without a header (the default when piped)'
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from show" -l table -d 'Print a table (the default on a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from show" -l wide -d 'Show long columns (reason, detail) whole instead of cutting them to the terminal\'s width'
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help'
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from show" -s V -l version -d 'Print version'
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from diff" -l url -d 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]' -r
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from diff" -l key -d 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)' -r
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from diff" -l profile -d 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]' -r
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from diff" -l timeout -d 'Request timeout in seconds' -r
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from diff" -l json -d 'Print JSON'
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from diff" -l plain -d 'Print tab-separated rows without a header (the default when piped)'
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from diff" -l table -d 'Print a table (the default on a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from diff" -l wide -d 'Show long columns (reason, detail) whole instead of cutting them to the terminal\'s width'
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from diff" -s h -l help -d 'Print help'
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from diff" -s V -l version -d 'Print version'
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from restore" -l from -d 'The snapshot to restore [default: the latest]' -r
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from restore" -l url -d 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]' -r
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from restore" -l key -d 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)' -r
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from restore" -l profile -d 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]' -r
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from restore" -l timeout -d 'Request timeout in seconds' -r
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from restore" -l dry-run -d 'Show the plan and change nothing'
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from restore" -s y -l yes -d 'Do not ask for confirmation'
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from restore" -l json -d 'Print JSON'
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from restore" -l plain -d 'Print tab-separated rows without a header (the default when piped)'
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from restore" -l table -d 'Print a table (the default on a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from restore" -l wide -d 'Show long columns (reason, detail) whole instead of cutting them to the terminal\'s width'
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from restore" -s h -l help -d 'Print help'
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from restore" -s V -l version -d 'Print version'
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from job" -l url -d 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]' -r
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from job" -l key -d 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)' -r
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from job" -l profile -d 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]' -r
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from job" -l timeout -d 'Request timeout in seconds' -r
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from job" -l wait -d 'Draw progress until the job ends'
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from job" -l json -d 'Print JSON'
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from job" -l plain -d 'Print tab-separated rows without a header (the default when piped)'
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from job" -l table -d 'Print a table (the default on a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from job" -l wide -d 'Show long columns (reason, detail) whole instead of cutting them to the terminal\'s width'
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from job" -s h -l help -d 'Print help'
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from job" -s V -l version -d 'Print version'
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from help" -f -a "capture" -d 'Capture the server\'s roles, channels and settings now (plain: field<TAB>value)'
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from help" -f -a "list" -d 'The snapshots kept, newest first (plain columns: id, captured, source, actor, roles, channels, overwrites, user groups, administrators, size in bytes, content hash)'
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from help" -f -a "show" -d 'One snapshot\'s metadata, or with --content what it holds (plain content columns: kind, id, name, parent, detail)'
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from help" -f -a "diff" -d 'The snapshot against the server now: what is missing, what is present (and how it was recognised), what a restore would skip and why (plain columns: step, kind, snapshot id, name, matched by, live id, detail)'
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from help" -f -a "restore" -d 'Restore the missing roles and channels from a snapshot; exits 1 when the job stopped or any item failed (plain report columns: outcome, kind, snapshot id, name, live id, what happened)'
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from help" -f -a "job" -d 'A restore job\'s report; --wait follows it until it ends and exits 1 like restore (plain columns as restore\'s)'
complete -c modctl -n "__fish_modctl_using_subcommand snapshot; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and not __fish_seen_subcommand_from test deliveries delivery redeliver listen rotate-secret help" -l url -d 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]' -r
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and not __fish_seen_subcommand_from test deliveries delivery redeliver listen rotate-secret help" -l key -d 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)' -r
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and not __fish_seen_subcommand_from test deliveries delivery redeliver listen rotate-secret help" -l profile -d 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]' -r
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and not __fish_seen_subcommand_from test deliveries delivery redeliver listen rotate-secret help" -l timeout -d 'Request timeout in seconds' -r
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and not __fish_seen_subcommand_from test deliveries delivery redeliver listen rotate-secret help" -l json -d 'Print JSON'
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and not __fish_seen_subcommand_from test deliveries delivery redeliver listen rotate-secret help" -l plain -d 'Print tab-separated rows without a header (the default when piped)'
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and not __fish_seen_subcommand_from test deliveries delivery redeliver listen rotate-secret help" -l table -d 'Print a table (the default on a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and not __fish_seen_subcommand_from test deliveries delivery redeliver listen rotate-secret help" -l wide -d 'Show long columns (reason, detail) whole instead of cutting them to the terminal\'s width'
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and not __fish_seen_subcommand_from test deliveries delivery redeliver listen rotate-secret help" -s h -l help -d 'Print help'
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and not __fish_seen_subcommand_from test deliveries delivery redeliver listen rotate-secret help" -s V -l version -d 'Print version'
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and not __fish_seen_subcommand_from test deliveries delivery redeliver listen rotate-secret help" -f -a "test" -d 'Queue a `test` event to the server\'s webhook endpoint (plain: field<TAB>value)'
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and not __fish_seen_subcommand_from test deliveries delivery redeliver listen rotate-secret help" -f -a "deliveries" -d 'The delivery log, newest first (plain columns: id, event, kind, state, attempts, last status, last error, next attempt, created)'
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and not __fish_seen_subcommand_from test deliveries delivery redeliver listen rotate-secret help" -f -a "delivery" -d 'One delivery with every attempt (plain: field<TAB>value, then `attempt<TAB>n<TAB>at<TAB>status<TAB>ms<TAB>error` per attempt)'
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and not __fish_seen_subcommand_from test deliveries delivery redeliver listen rotate-secret help" -f -a "redeliver" -d 'Queue a delivery again: same event id, fresh attempts (plain as delivery\'s)'
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and not __fish_seen_subcommand_from test deliveries delivery redeliver listen rotate-secret help" -f -a "listen" -d 'A local receiver: verifies each delivery\'s signature and prints the events as they arrive (plain: created<TAB>kind<TAB>event<TAB>summary; --json: one event per line)'
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and not __fish_seen_subcommand_from test deliveries delivery redeliver listen rotate-secret help" -f -a "rotate-secret" -d 'Replace the signing secret and print the new one, once'
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and not __fish_seen_subcommand_from test deliveries delivery redeliver listen rotate-secret help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from test" -l url -d 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]' -r
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from test" -l key -d 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)' -r
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from test" -l profile -d 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]' -r
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from test" -l timeout -d 'Request timeout in seconds' -r
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from test" -l wait -d 'Wait until the delivery is no longer pending (or its next retry is over a minute off) and show it; exits 1 unless delivered'
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from test" -l json -d 'Print JSON'
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from test" -l plain -d 'Print tab-separated rows without a header (the default when piped)'
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from test" -l table -d 'Print a table (the default on a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from test" -l wide -d 'Show long columns (reason, detail) whole instead of cutting them to the terminal\'s width'
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from test" -s h -l help -d 'Print help'
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from test" -s V -l version -d 'Print version'
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from deliveries" -l state -d 'Only deliveries in this state: pending, delivered, failed or disabled' -r
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from deliveries" -l kind -d 'Only deliveries of this event kind: case_created, config_changed, jail_changed, snapshot_captured, snapshot_restored or test' -r
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from deliveries" -l limit -d 'At most this many (1 to 200) [default: 50]' -r
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from deliveries" -l before -d 'Only deliveries older than this one (the next page, as the table\'s footer names it)' -r
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from deliveries" -l url -d 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]' -r
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from deliveries" -l key -d 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)' -r
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from deliveries" -l profile -d 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]' -r
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from deliveries" -l timeout -d 'Request timeout in seconds' -r
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from deliveries" -l json -d 'Print JSON'
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from deliveries" -l plain -d 'Print tab-separated rows without a header (the default when piped)'
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from deliveries" -l table -d 'Print a table (the default on a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from deliveries" -l wide -d 'Show long columns (reason, detail) whole instead of cutting them to the terminal\'s width'
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from deliveries" -s h -l help -d 'Print help'
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from deliveries" -s V -l version -d 'Print version'
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from delivery" -l url -d 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]' -r
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from delivery" -l key -d 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)' -r
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from delivery" -l profile -d 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]' -r
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from delivery" -l timeout -d 'Request timeout in seconds' -r
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from delivery" -l json -d 'Print JSON'
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from delivery" -l plain -d 'Print tab-separated rows without a header (the default when piped)'
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from delivery" -l table -d 'Print a table (the default on a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from delivery" -l wide -d 'Show long columns (reason, detail) whole instead of cutting them to the terminal\'s width'
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from delivery" -s h -l help -d 'Print help'
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from delivery" -s V -l version -d 'Print version'
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from redeliver" -l url -d 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]' -r
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from redeliver" -l key -d 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)' -r
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from redeliver" -l profile -d 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]' -r
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from redeliver" -l timeout -d 'Request timeout in seconds' -r
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from redeliver" -l json -d 'Print JSON'
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from redeliver" -l plain -d 'Print tab-separated rows without a header (the default when piped)'
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from redeliver" -l table -d 'Print a table (the default on a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from redeliver" -l wide -d 'Show long columns (reason, detail) whole instead of cutting them to the terminal\'s width'
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from redeliver" -s h -l help -d 'Print help'
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from redeliver" -s V -l version -d 'Print version'
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from listen" -l port -d 'The port on 127.0.0.1 (0 picks a free one, printed on stderr)' -r
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from listen" -l secret-env -d 'The environment variable holding the signing secret' -r
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from listen" -l count -d 'Exit after this many verified events' -r
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from listen" -l url -d 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]' -r
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from listen" -l key -d 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)' -r
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from listen" -l profile -d 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]' -r
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from listen" -l timeout -d 'Request timeout in seconds' -r
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from listen" -l json -d 'Print JSON'
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from listen" -l plain -d 'Print tab-separated rows without a header (the default when piped)'
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from listen" -l table -d 'Print a table (the default on a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from listen" -l wide -d 'Show long columns (reason, detail) whole instead of cutting them to the terminal\'s width'
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from listen" -s h -l help -d 'Print help'
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from listen" -s V -l version -d 'Print version'
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from rotate-secret" -l url -d 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]' -r
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from rotate-secret" -l key -d 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)' -r
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from rotate-secret" -l profile -d 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]' -r
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from rotate-secret" -l timeout -d 'Request timeout in seconds' -r
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from rotate-secret" -s y -l yes -d 'Do not ask for confirmation'
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from rotate-secret" -l json -d 'Print JSON'
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from rotate-secret" -l plain -d 'Print tab-separated rows without a header (the default when piped)'
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from rotate-secret" -l table -d 'Print a table (the default on a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from rotate-secret" -l wide -d 'Show long columns (reason, detail) whole instead of cutting them to the terminal\'s width'
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from rotate-secret" -s h -l help -d 'Print help'
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from rotate-secret" -s V -l version -d 'Print version'
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from help" -f -a "test" -d 'Queue a `test` event to the server\'s webhook endpoint (plain: field<TAB>value)'
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from help" -f -a "deliveries" -d 'The delivery log, newest first (plain columns: id, event, kind, state, attempts, last status, last error, next attempt, created)'
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from help" -f -a "delivery" -d 'One delivery with every attempt (plain: field<TAB>value, then `attempt<TAB>n<TAB>at<TAB>status<TAB>ms<TAB>error` per attempt)'
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from help" -f -a "redeliver" -d 'Queue a delivery again: same event id, fresh attempts (plain as delivery\'s)'
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from help" -f -a "listen" -d 'A local receiver: verifies each delivery\'s signature and prints the events as they arrive (plain: created<TAB>kind<TAB>event<TAB>summary; --json: one event per line)'
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from help" -f -a "rotate-secret" -d 'Replace the signing secret and print the new one, once'
complete -c modctl -n "__fish_modctl_using_subcommand webhooks; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c modctl -n "__fish_modctl_using_subcommand lockdown; and not __fish_seen_subcommand_from start end status help" -l url -d 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]' -r
complete -c modctl -n "__fish_modctl_using_subcommand lockdown; and not __fish_seen_subcommand_from start end status help" -l key -d 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)' -r
complete -c modctl -n "__fish_modctl_using_subcommand lockdown; and not __fish_seen_subcommand_from start end status help" -l profile -d 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]' -r
complete -c modctl -n "__fish_modctl_using_subcommand lockdown; and not __fish_seen_subcommand_from start end status help" -l timeout -d 'Request timeout in seconds' -r
complete -c modctl -n "__fish_modctl_using_subcommand lockdown; and not __fish_seen_subcommand_from start end status help" -l json -d 'Print JSON'
complete -c modctl -n "__fish_modctl_using_subcommand lockdown; and not __fish_seen_subcommand_from start end status help" -l plain -d 'Print tab-separated rows without a header (the default when piped)'
complete -c modctl -n "__fish_modctl_using_subcommand lockdown; and not __fish_seen_subcommand_from start end status help" -l table -d 'Print a table (the default on a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand lockdown; and not __fish_seen_subcommand_from start end status help" -l wide -d 'Show long columns (reason, detail) whole instead of cutting them to the terminal\'s width'
complete -c modctl -n "__fish_modctl_using_subcommand lockdown; and not __fish_seen_subcommand_from start end status help" -s h -l help -d 'Print help'
complete -c modctl -n "__fish_modctl_using_subcommand lockdown; and not __fish_seen_subcommand_from start end status help" -s V -l version -d 'Print version'
complete -c modctl -n "__fish_modctl_using_subcommand lockdown; and not __fish_seen_subcommand_from start end status help" -f -a "start" -d 'Start a raid lockdown now (plain: field<TAB>value)'
complete -c modctl -n "__fish_modctl_using_subcommand lockdown; and not __fish_seen_subcommand_from start end status help" -f -a "end" -d 'End the running lockdown now (plain as start\'s)'
complete -c modctl -n "__fish_modctl_using_subcommand lockdown; and not __fish_seen_subcommand_from start end status help" -f -a "status" -d 'The running lockdown, else the last one (plain as start\'s; `state` is running, ended or none)'
complete -c modctl -n "__fish_modctl_using_subcommand lockdown; and not __fish_seen_subcommand_from start end status help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c modctl -n "__fish_modctl_using_subcommand lockdown; and __fish_seen_subcommand_from start" -l minutes -d 'How long, 1 to 1440 minutes [default: the server\'s antinuke.lockdown_minutes]' -r
complete -c modctl -n "__fish_modctl_using_subcommand lockdown; and __fish_seen_subcommand_from start" -l reason -d 'Why, shown in the log post and the webhook event' -r
complete -c modctl -n "__fish_modctl_using_subcommand lockdown; and __fish_seen_subcommand_from start" -l url -d 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]' -r
complete -c modctl -n "__fish_modctl_using_subcommand lockdown; and __fish_seen_subcommand_from start" -l key -d 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)' -r
complete -c modctl -n "__fish_modctl_using_subcommand lockdown; and __fish_seen_subcommand_from start" -l profile -d 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]' -r
complete -c modctl -n "__fish_modctl_using_subcommand lockdown; and __fish_seen_subcommand_from start" -l timeout -d 'Request timeout in seconds' -r
complete -c modctl -n "__fish_modctl_using_subcommand lockdown; and __fish_seen_subcommand_from start" -l json -d 'Print JSON'
complete -c modctl -n "__fish_modctl_using_subcommand lockdown; and __fish_seen_subcommand_from start" -l plain -d 'Print tab-separated rows without a header (the default when piped)'
complete -c modctl -n "__fish_modctl_using_subcommand lockdown; and __fish_seen_subcommand_from start" -l table -d 'Print a table (the default on a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand lockdown; and __fish_seen_subcommand_from start" -l wide -d 'Show long columns (reason, detail) whole instead of cutting them to the terminal\'s width'
complete -c modctl -n "__fish_modctl_using_subcommand lockdown; and __fish_seen_subcommand_from start" -s h -l help -d 'Print help'
complete -c modctl -n "__fish_modctl_using_subcommand lockdown; and __fish_seen_subcommand_from start" -s V -l version -d 'Print version'
complete -c modctl -n "__fish_modctl_using_subcommand lockdown; and __fish_seen_subcommand_from end" -l url -d 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]' -r
complete -c modctl -n "__fish_modctl_using_subcommand lockdown; and __fish_seen_subcommand_from end" -l key -d 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)' -r
complete -c modctl -n "__fish_modctl_using_subcommand lockdown; and __fish_seen_subcommand_from end" -l profile -d 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]' -r
complete -c modctl -n "__fish_modctl_using_subcommand lockdown; and __fish_seen_subcommand_from end" -l timeout -d 'Request timeout in seconds' -r
complete -c modctl -n "__fish_modctl_using_subcommand lockdown; and __fish_seen_subcommand_from end" -l json -d 'Print JSON'
complete -c modctl -n "__fish_modctl_using_subcommand lockdown; and __fish_seen_subcommand_from end" -l plain -d 'Print tab-separated rows without a header (the default when piped)'
complete -c modctl -n "__fish_modctl_using_subcommand lockdown; and __fish_seen_subcommand_from end" -l table -d 'Print a table (the default on a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand lockdown; and __fish_seen_subcommand_from end" -l wide -d 'Show long columns (reason, detail) whole instead of cutting them to the terminal\'s width'
complete -c modctl -n "__fish_modctl_using_subcommand lockdown; and __fish_seen_subcommand_from end" -s h -l help -d 'Print help'
complete -c modctl -n "__fish_modctl_using_subcommand lockdown; and __fish_seen_subcommand_from end" -s V -l version -d 'Print version'
complete -c modctl -n "__fish_modctl_using_subcommand lockdown; and __fish_seen_subcommand_from status" -l url -d 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]' -r
complete -c modctl -n "__fish_modctl_using_subcommand lockdown; and __fish_seen_subcommand_from status" -l key -d 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)' -r
complete -c modctl -n "__fish_modctl_using_subcommand lockdown; and __fish_seen_subcommand_from status" -l profile -d 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]' -r
complete -c modctl -n "__fish_modctl_using_subcommand lockdown; and __fish_seen_subcommand_from status" -l timeout -d 'Request timeout in seconds' -r
complete -c modctl -n "__fish_modctl_using_subcommand lockdown; and __fish_seen_subcommand_from status" -l json -d 'Print JSON'
complete -c modctl -n "__fish_modctl_using_subcommand lockdown; and __fish_seen_subcommand_from status" -l plain -d 'Print tab-separated rows without a header (the default when piped)'
complete -c modctl -n "__fish_modctl_using_subcommand lockdown; and __fish_seen_subcommand_from status" -l table -d 'Print a table (the default on a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand lockdown; and __fish_seen_subcommand_from status" -l wide -d 'Show long columns (reason, detail) whole instead of cutting them to the terminal\'s width'
complete -c modctl -n "__fish_modctl_using_subcommand lockdown; and __fish_seen_subcommand_from status" -s h -l help -d 'Print help'
complete -c modctl -n "__fish_modctl_using_subcommand lockdown; and __fish_seen_subcommand_from status" -s V -l version -d 'Print version'
complete -c modctl -n "__fish_modctl_using_subcommand lockdown; and __fish_seen_subcommand_from help" -f -a "start" -d 'Start a raid lockdown now (plain: field<TAB>value)'
complete -c modctl -n "__fish_modctl_using_subcommand lockdown; and __fish_seen_subcommand_from help" -f -a "end" -d 'End the running lockdown now (plain as start\'s)'
complete -c modctl -n "__fish_modctl_using_subcommand lockdown; and __fish_seen_subcommand_from help" -f -a "status" -d 'The running lockdown, else the last one (plain as start\'s; `state` is running, ended or none)'
complete -c modctl -n "__fish_modctl_using_subcommand lockdown; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c modctl -n "__fish_modctl_using_subcommand onboarding" -l url -d 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]' -r
complete -c modctl -n "__fish_modctl_using_subcommand onboarding" -l key -d 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)' -r
complete -c modctl -n "__fish_modctl_using_subcommand onboarding" -l profile -d 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]' -r
complete -c modctl -n "__fish_modctl_using_subcommand onboarding" -l timeout -d 'Request timeout in seconds' -r
complete -c modctl -n "__fish_modctl_using_subcommand onboarding" -l refresh -d 'Ask the platform now instead of using its answer of up to 5 minutes ago'
complete -c modctl -n "__fish_modctl_using_subcommand onboarding" -l json -d 'Print JSON'
complete -c modctl -n "__fish_modctl_using_subcommand onboarding" -l plain -d 'Print tab-separated rows without a header (the default when piped)'
complete -c modctl -n "__fish_modctl_using_subcommand onboarding" -l table -d 'Print a table (the default on a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand onboarding" -l wide -d 'Show long columns (reason, detail) whole instead of cutting them to the terminal\'s width'
complete -c modctl -n "__fish_modctl_using_subcommand onboarding" -s h -l help -d 'Print help'
complete -c modctl -n "__fish_modctl_using_subcommand onboarding" -s V -l version -d 'Print version'
complete -c modctl -n "__fish_modctl_using_subcommand insights" -l days -d 'Days in the window, ending today in the server\'s time zone (1 to 365) [default: 30]' -r
complete -c modctl -n "__fish_modctl_using_subcommand insights" -l chart -d 'Also write a bar chart of the daily series to this SVG file' -r -F
complete -c modctl -n "__fish_modctl_using_subcommand insights" -l watch -d 'Redraw in place every SECONDS (1 to 3600, default 5) until Ctrl-C; on a terminal only' -r
complete -c modctl -n "__fish_modctl_using_subcommand insights" -l url -d 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]' -r
complete -c modctl -n "__fish_modctl_using_subcommand insights" -l key -d 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)' -r
complete -c modctl -n "__fish_modctl_using_subcommand insights" -l profile -d 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]' -r
complete -c modctl -n "__fish_modctl_using_subcommand insights" -l timeout -d 'Request timeout in seconds' -r
complete -c modctl -n "__fish_modctl_using_subcommand insights" -l json -d 'Print JSON'
complete -c modctl -n "__fish_modctl_using_subcommand insights" -l plain -d 'Print tab-separated rows without a header (the default when piped)'
complete -c modctl -n "__fish_modctl_using_subcommand insights" -l table -d 'Print a table (the default on a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand insights" -l wide -d 'Show long columns (reason, detail) whole instead of cutting them to the terminal\'s width'
complete -c modctl -n "__fish_modctl_using_subcommand insights" -s h -l help -d 'Print help'
complete -c modctl -n "__fish_modctl_using_subcommand insights" -s V -l version -d 'Print version'
complete -c modctl -n "__fish_modctl_using_subcommand activity" -l days -d 'Days in the window, ending today in the server\'s time zone (1 to 365) [default: 30]' -r
complete -c modctl -n "__fish_modctl_using_subcommand activity" -l chart -d 'Also write a bar chart of the daily series to this SVG file' -r -F
complete -c modctl -n "__fish_modctl_using_subcommand activity" -l watch -d 'Redraw in place every SECONDS (1 to 3600, default 5) until Ctrl-C; on a terminal only' -r
complete -c modctl -n "__fish_modctl_using_subcommand activity" -l url -d 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]' -r
complete -c modctl -n "__fish_modctl_using_subcommand activity" -l key -d 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)' -r
complete -c modctl -n "__fish_modctl_using_subcommand activity" -l profile -d 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]' -r
complete -c modctl -n "__fish_modctl_using_subcommand activity" -l timeout -d 'Request timeout in seconds' -r
complete -c modctl -n "__fish_modctl_using_subcommand activity" -l json -d 'Print JSON'
complete -c modctl -n "__fish_modctl_using_subcommand activity" -l plain -d 'Print tab-separated rows without a header (the default when piped)'
complete -c modctl -n "__fish_modctl_using_subcommand activity" -l table -d 'Print a table (the default on a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand activity" -l wide -d 'Show long columns (reason, detail) whole instead of cutting them to the terminal\'s width'
complete -c modctl -n "__fish_modctl_using_subcommand activity" -s h -l help -d 'Print help'
complete -c modctl -n "__fish_modctl_using_subcommand activity" -s V -l version -d 'Print version'
complete -c modctl -n "__fish_modctl_using_subcommand strikes; and not __fish_seen_subcommand_from clear" -s o -l output -d 'Output format: table, wide (a table with every value whole), plain or json' -r -f -a "table\t'A table fitted to the terminal'
wide\t'A table with every value whole'
plain\t'Tab-separated rows'
json\t'JSON'"
complete -c modctl -n "__fish_modctl_using_subcommand strikes; and not __fish_seen_subcommand_from clear" -l url -d 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]' -r
complete -c modctl -n "__fish_modctl_using_subcommand strikes; and not __fish_seen_subcommand_from clear" -l key -d 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)' -r
complete -c modctl -n "__fish_modctl_using_subcommand strikes; and not __fish_seen_subcommand_from clear" -l profile -d 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]' -r
complete -c modctl -n "__fish_modctl_using_subcommand strikes; and not __fish_seen_subcommand_from clear" -l timeout -d 'Request timeout in seconds' -r
complete -c modctl -n "__fish_modctl_using_subcommand strikes; and not __fish_seen_subcommand_from clear" -l json -d 'Print JSON'
complete -c modctl -n "__fish_modctl_using_subcommand strikes; and not __fish_seen_subcommand_from clear" -l plain -d 'Print tab-separated rows without a header (the default when piped)'
complete -c modctl -n "__fish_modctl_using_subcommand strikes; and not __fish_seen_subcommand_from clear" -l table -d 'Print a table (the default on a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand strikes; and not __fish_seen_subcommand_from clear" -l wide -d 'Show long columns (reason, detail) whole instead of cutting them to the terminal\'s width'
complete -c modctl -n "__fish_modctl_using_subcommand strikes; and not __fish_seen_subcommand_from clear" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c modctl -n "__fish_modctl_using_subcommand strikes; and not __fish_seen_subcommand_from clear" -s V -l version -d 'Print version'
complete -c modctl -n "__fish_modctl_using_subcommand strikes; and not __fish_seen_subcommand_from clear" -a "clear" -d 'Clear a member\'s active strikes (a pardon), saying why'
complete -c modctl -n "__fish_modctl_using_subcommand strikes; and __fish_seen_subcommand_from clear" -s r -l reason -d 'Why (1 to 512 characters); kept with the clear' -r
complete -c modctl -n "__fish_modctl_using_subcommand strikes; and __fish_seen_subcommand_from clear" -l url -d 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]' -r
complete -c modctl -n "__fish_modctl_using_subcommand strikes; and __fish_seen_subcommand_from clear" -l key -d 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)' -r
complete -c modctl -n "__fish_modctl_using_subcommand strikes; and __fish_seen_subcommand_from clear" -l profile -d 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]' -r
complete -c modctl -n "__fish_modctl_using_subcommand strikes; and __fish_seen_subcommand_from clear" -l timeout -d 'Request timeout in seconds' -r
complete -c modctl -n "__fish_modctl_using_subcommand strikes; and __fish_seen_subcommand_from clear" -l json -d 'Print JSON'
complete -c modctl -n "__fish_modctl_using_subcommand strikes; and __fish_seen_subcommand_from clear" -l plain -d 'Print tab-separated rows without a header (the default when piped)'
complete -c modctl -n "__fish_modctl_using_subcommand strikes; and __fish_seen_subcommand_from clear" -l table -d 'Print a table (the default on a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand strikes; and __fish_seen_subcommand_from clear" -l wide -d 'Show long columns (reason, detail) whole instead of cutting them to the terminal\'s width'
complete -c modctl -n "__fish_modctl_using_subcommand strikes; and __fish_seen_subcommand_from clear" -s h -l help -d 'Print help'
complete -c modctl -n "__fish_modctl_using_subcommand strikes; and __fish_seen_subcommand_from clear" -s V -l version -d 'Print version'
complete -c modctl -n "__fish_modctl_using_subcommand jails" -s o -l output -d 'Output format: table, wide (a table with every value whole), plain or json' -r -f -a "table\t'A table fitted to the terminal'
wide\t'A table with every value whole'
plain\t'Tab-separated rows'
json\t'JSON'"
complete -c modctl -n "__fish_modctl_using_subcommand jails" -l url -d 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]' -r
complete -c modctl -n "__fish_modctl_using_subcommand jails" -l key -d 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)' -r
complete -c modctl -n "__fish_modctl_using_subcommand jails" -l profile -d 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]' -r
complete -c modctl -n "__fish_modctl_using_subcommand jails" -l timeout -d 'Request timeout in seconds' -r
complete -c modctl -n "__fish_modctl_using_subcommand jails" -l json -d 'Print JSON'
complete -c modctl -n "__fish_modctl_using_subcommand jails" -l plain -d 'Print tab-separated rows without a header (the default when piped)'
complete -c modctl -n "__fish_modctl_using_subcommand jails" -l table -d 'Print a table (the default on a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand jails" -l wide -d 'Show long columns (reason, detail) whole instead of cutting them to the terminal\'s width'
complete -c modctl -n "__fish_modctl_using_subcommand jails" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c modctl -n "__fish_modctl_using_subcommand jails" -s V -l version -d 'Print version'
complete -c modctl -n "__fish_modctl_using_subcommand completions" -l url -d 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]' -r
complete -c modctl -n "__fish_modctl_using_subcommand completions" -l key -d 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)' -r
complete -c modctl -n "__fish_modctl_using_subcommand completions" -l profile -d 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]' -r
complete -c modctl -n "__fish_modctl_using_subcommand completions" -l timeout -d 'Request timeout in seconds' -r
complete -c modctl -n "__fish_modctl_using_subcommand completions" -l json -d 'Print JSON'
complete -c modctl -n "__fish_modctl_using_subcommand completions" -l plain -d 'Print tab-separated rows without a header (the default when piped)'
complete -c modctl -n "__fish_modctl_using_subcommand completions" -l table -d 'Print a table (the default on a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand completions" -l wide -d 'Show long columns (reason, detail) whole instead of cutting them to the terminal\'s width'
complete -c modctl -n "__fish_modctl_using_subcommand completions" -s h -l help -d 'Print help'
complete -c modctl -n "__fish_modctl_using_subcommand completions" -s V -l version -d 'Print version'
complete -c modctl -n "__fish_modctl_using_subcommand watch" -l types -d 'Only these event types, comma-separated: case_created, automod_hit, jail_changed, config_changed, lockdown_started, lockdown_ended, antinuke_triggered, case_corrected, member_joined' -r
complete -c modctl -n "__fish_modctl_using_subcommand watch" -l since -d 'Start after this event id (an id printed before): the events since then come first' -r
complete -c modctl -n "__fish_modctl_using_subcommand watch" -l count -d 'Stop after this many events' -r
complete -c modctl -n "__fish_modctl_using_subcommand watch" -l url -d 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]' -r
complete -c modctl -n "__fish_modctl_using_subcommand watch" -l key -d 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)' -r
complete -c modctl -n "__fish_modctl_using_subcommand watch" -l profile -d 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]' -r
complete -c modctl -n "__fish_modctl_using_subcommand watch" -l timeout -d 'Request timeout in seconds' -r
complete -c modctl -n "__fish_modctl_using_subcommand watch" -l json -d 'Print JSON'
complete -c modctl -n "__fish_modctl_using_subcommand watch" -l plain -d 'Print tab-separated rows without a header (the default when piped)'
complete -c modctl -n "__fish_modctl_using_subcommand watch" -l table -d 'Print a table (the default on a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand watch" -l wide -d 'Show long columns (reason, detail) whole instead of cutting them to the terminal\'s width'
complete -c modctl -n "__fish_modctl_using_subcommand watch" -s h -l help -d 'Print help'
complete -c modctl -n "__fish_modctl_using_subcommand watch" -s V -l version -d 'Print version'
complete -c modctl -n "__fish_modctl_using_subcommand help; and not __fish_seen_subcommand_from login logout profile whoami keys servers config action cases automod snapshot webhooks lockdown onboarding insights activity strikes jails completions watch help" -f -a "login" -d 'Save a daemon URL and API key as a profile, after checking them'
complete -c modctl -n "__fish_modctl_using_subcommand help; and not __fish_seen_subcommand_from login logout profile whoami keys servers config action cases automod snapshot webhooks lockdown onboarding insights activity strikes jails completions watch help" -f -a "logout" -d 'Forget the profile in use (--profile, else the default) and its API key'
complete -c modctl -n "__fish_modctl_using_subcommand help; and not __fish_seen_subcommand_from login logout profile whoami keys servers config action cases automod snapshot webhooks lockdown onboarding insights activity strikes jails completions watch help" -f -a "profile" -d 'List the saved profiles, choose the default one, remove one'
complete -c modctl -n "__fish_modctl_using_subcommand help; and not __fish_seen_subcommand_from login logout profile whoami keys servers config action cases automod snapshot webhooks lockdown onboarding insights activity strikes jails completions watch help" -f -a "whoami" -d 'Show the calling key (team, scopes, expiry, server count) and the daemon URL and profile in use'
complete -c modctl -n "__fish_modctl_using_subcommand help; and not __fish_seen_subcommand_from login logout profile whoami keys servers config action cases automod snapshot webhooks lockdown onboarding insights activity strikes jails completions watch help" -f -a "keys" -d 'List your team\'s API keys: status, expiry, last use, replacement (never a secret)'
complete -c modctl -n "__fish_modctl_using_subcommand help; and not __fish_seen_subcommand_from login logout profile whoami keys servers config action cases automod snapshot webhooks lockdown onboarding insights activity strikes jails completions watch help" -f -a "servers" -d 'List and show the servers your team has claimed'
complete -c modctl -n "__fish_modctl_using_subcommand help; and not __fish_seen_subcommand_from login logout profile whoami keys servers config action cases automod snapshot webhooks lockdown onboarding insights activity strikes jails completions watch help" -f -a "config" -d 'Show, change, export, import, clone, diff and audit a server\'s moderation config'
complete -c modctl -n "__fish_modctl_using_subcommand help; and not __fish_seen_subcommand_from login logout profile whoami keys servers config action cases automod snapshot webhooks lockdown onboarding insights activity strikes jails completions watch help" -f -a "action" -d 'Moderate a member: note, warn, timeout, kick, ban, unban, jail, unjail'
complete -c modctl -n "__fish_modctl_using_subcommand help; and not __fish_seen_subcommand_from login logout profile whoami keys servers config action cases automod snapshot webhooks lockdown onboarding insights activity strikes jails completions watch help" -f -a "cases" -d 'List, show, export, edit and void cases'
complete -c modctl -n "__fish_modctl_using_subcommand help; and not __fish_seen_subcommand_from login logout profile whoami keys servers config action cases automod snapshot webhooks lockdown onboarding insights activity strikes jails completions watch help" -f -a "automod" -d 'Try a message against the server\'s automod filters'
complete -c modctl -n "__fish_modctl_using_subcommand help; and not __fish_seen_subcommand_from login logout profile whoami keys servers config action cases automod snapshot webhooks lockdown onboarding insights activity strikes jails completions watch help" -f -a "snapshot" -d 'Capture, list, show and diff structure snapshots; restore a nuked server\'s roles and channels'
complete -c modctl -n "__fish_modctl_using_subcommand help; and not __fish_seen_subcommand_from login logout profile whoami keys servers config action cases automod snapshot webhooks lockdown onboarding insights activity strikes jails completions watch help" -f -a "webhooks" -d 'Send a test event, list and show deliveries, redeliver one, rotate the signing secret'
complete -c modctl -n "__fish_modctl_using_subcommand help; and not __fish_seen_subcommand_from login logout profile whoami keys servers config action cases automod snapshot webhooks lockdown onboarding insights activity strikes jails completions watch help" -f -a "lockdown" -d 'Start, end or show a raid lockdown (invites paused, joiners held until it ends)'
complete -c modctl -n "__fish_modctl_using_subcommand help; and not __fish_seen_subcommand_from login logout profile whoami keys servers config action cases automod snapshot webhooks lockdown onboarding insights activity strikes jails completions watch help" -f -a "onboarding" -d 'The server\'s setup checklist: what is done and the command that fixes each open item (plain columns: status, id, title, detail, fix)'
complete -c modctl -n "__fish_modctl_using_subcommand help; and not __fish_seen_subcommand_from login logout profile whoami keys servers config action cases automod snapshot webhooks lockdown onboarding insights activity strikes jails completions watch help" -f -a "insights" -d 'Moderation insights: cases per day by action and source, moderators, repeat targets'
complete -c modctl -n "__fish_modctl_using_subcommand help; and not __fish_seen_subcommand_from login logout profile whoami keys servers config action cases automod snapshot webhooks lockdown onboarding insights activity strikes jails completions watch help" -f -a "activity" -d 'Community activity: messages, active members, voice, joins and leaves per day; top channels and members'
complete -c modctl -n "__fish_modctl_using_subcommand help; and not __fish_seen_subcommand_from login logout profile whoami keys servers config action cases automod snapshot webhooks lockdown onboarding insights activity strikes jails completions watch help" -f -a "strikes" -d 'Strike counts per member, most active first; `strikes clear` pardons a member'
complete -c modctl -n "__fish_modctl_using_subcommand help; and not __fish_seen_subcommand_from login logout profile whoami keys servers config action cases automod snapshot webhooks lockdown onboarding insights activity strikes jails completions watch help" -f -a "jails" -d 'Active jails, oldest first'
complete -c modctl -n "__fish_modctl_using_subcommand help; and not __fish_seen_subcommand_from login logout profile whoami keys servers config action cases automod snapshot webhooks lockdown onboarding insights activity strikes jails completions watch help" -f -a "completions" -d 'Print a shell completion script'
complete -c modctl -n "__fish_modctl_using_subcommand help; and not __fish_seen_subcommand_from login logout profile whoami keys servers config action cases automod snapshot webhooks lockdown onboarding insights activity strikes jails completions watch help" -f -a "watch" -d 'Watch a server\'s events as they happen: cases, automod hits, jails, config changes, joins'
complete -c modctl -n "__fish_modctl_using_subcommand help; and not __fish_seen_subcommand_from login logout profile whoami keys servers config action cases automod snapshot webhooks lockdown onboarding insights activity strikes jails completions watch help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c modctl -n "__fish_modctl_using_subcommand help; and __fish_seen_subcommand_from profile" -f -a "list" -d 'The saved profiles and their daemon URLs; the default one is marked'
complete -c modctl -n "__fish_modctl_using_subcommand help; and __fish_seen_subcommand_from profile" -f -a "use" -d 'Make a profile the default, used when --profile is not given'
complete -c modctl -n "__fish_modctl_using_subcommand help; and __fish_seen_subcommand_from profile" -f -a "remove" -d 'Forget a profile and its API key'
complete -c modctl -n "__fish_modctl_using_subcommand help; and __fish_seen_subcommand_from servers" -f -a "list" -d 'List your team\'s servers (plain columns: id, platform, name, claimed at)'
complete -c modctl -n "__fish_modctl_using_subcommand help; and __fish_seen_subcommand_from servers" -f -a "show" -d 'Show one server'
complete -c modctl -n "__fish_modctl_using_subcommand help; and __fish_seen_subcommand_from config" -f -a "show" -d 'Show the whole config, or one section (plain: `path<TAB>value` lines)'
complete -c modctl -n "__fish_modctl_using_subcommand help; and __fish_seen_subcommand_from config" -f -a "set" -d 'Set one field (`SECTION.FIELD VALUE`), several (`A=1 B=x`, one revision), or replace a whole section with the JSON in a file (`SECTION --file FILE`)'
complete -c modctl -n "__fish_modctl_using_subcommand help; and __fish_seen_subcommand_from config" -f -a "edit" -d 'Edit a section in $EDITOR; reopens with the error when the daemon refuses it'
complete -c modctl -n "__fish_modctl_using_subcommand help; and __fish_seen_subcommand_from config" -f -a "export" -d 'Print the export envelope (JSON) or write it to a file'
complete -c modctl -n "__fish_modctl_using_subcommand help; and __fish_seen_subcommand_from config" -f -a "import" -d 'Import an export envelope from a file or stdin; all sections or nothing (shows the changes and asks first; --yes without a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand help; and __fish_seen_subcommand_from config" -f -a "clone" -d 'Copy the config of another server of your team into this one (shows the changes and asks first; --yes without a terminal)'
complete -c modctl -n "__fish_modctl_using_subcommand help; and __fish_seen_subcommand_from config" -f -a "rollback" -d 'Put the settings of an earlier revision back (rebuilt from the audit trail), as a diff to confirm; written as one change at the current revision'
complete -c modctl -n "__fish_modctl_using_subcommand help; and __fish_seen_subcommand_from config" -f -a "audit" -d 'Recent config changes, newest first (plain columns: id, time, actor, section, source, revision, changes)'
complete -c modctl -n "__fish_modctl_using_subcommand help; and __fish_seen_subcommand_from config" -f -a "diff" -d 'Compare the configs of two servers; exits 0 when equal, 1 when different'
complete -c modctl -n "__fish_modctl_using_subcommand help; and __fish_seen_subcommand_from cases" -f -a "list" -d 'Recent cases, newest first, optionally filtered'
complete -c modctl -n "__fish_modctl_using_subcommand help; and __fish_seen_subcommand_from cases" -f -a "show" -d 'One case, by its number on the server'
complete -c modctl -n "__fish_modctl_using_subcommand help; and __fish_seen_subcommand_from cases" -f -a "edit" -d 'Replace a case\'s reason; the old one is kept in its corrections'
complete -c modctl -n "__fish_modctl_using_subcommand help; and __fish_seen_subcommand_from cases" -f -a "void" -d 'Void a case, saying why: its strikes stop counting; the case stays, marked voided'
complete -c modctl -n "__fish_modctl_using_subcommand help; and __fish_seen_subcommand_from cases" -f -a "export" -d 'Every case of a server as JSON lines or CSV, oldest first'
complete -c modctl -n "__fish_modctl_using_subcommand help; and __fish_seen_subcommand_from automod" -f -a "test" -d 'Try a message against the server\'s automod filters: which would act, on what, and how'
complete -c modctl -n "__fish_modctl_using_subcommand help; and __fish_seen_subcommand_from automod" -f -a "hits" -d 'The messages the server\'s automod caught, newest first'
complete -c modctl -n "__fish_modctl_using_subcommand help; and __fish_seen_subcommand_from snapshot" -f -a "capture" -d 'Capture the server\'s roles, channels and settings now (plain: field<TAB>value)'
complete -c modctl -n "__fish_modctl_using_subcommand help; and __fish_seen_subcommand_from snapshot" -f -a "list" -d 'The snapshots kept, newest first (plain columns: id, captured, source, actor, roles, channels, overwrites, user groups, administrators, size in bytes, content hash)'
complete -c modctl -n "__fish_modctl_using_subcommand help; and __fish_seen_subcommand_from snapshot" -f -a "show" -d 'One snapshot\'s metadata, or with --content what it holds (plain content columns: kind, id, name, parent, detail)'
complete -c modctl -n "__fish_modctl_using_subcommand help; and __fish_seen_subcommand_from snapshot" -f -a "diff" -d 'The snapshot against the server now: what is missing, what is present (and how it was recognised), what a restore would skip and why (plain columns: step, kind, snapshot id, name, matched by, live id, detail)'
complete -c modctl -n "__fish_modctl_using_subcommand help; and __fish_seen_subcommand_from snapshot" -f -a "restore" -d 'Restore the missing roles and channels from a snapshot; exits 1 when the job stopped or any item failed (plain report columns: outcome, kind, snapshot id, name, live id, what happened)'
complete -c modctl -n "__fish_modctl_using_subcommand help; and __fish_seen_subcommand_from snapshot" -f -a "job" -d 'A restore job\'s report; --wait follows it until it ends and exits 1 like restore (plain columns as restore\'s)'
complete -c modctl -n "__fish_modctl_using_subcommand help; and __fish_seen_subcommand_from webhooks" -f -a "test" -d 'Queue a `test` event to the server\'s webhook endpoint (plain: field<TAB>value)'
complete -c modctl -n "__fish_modctl_using_subcommand help; and __fish_seen_subcommand_from webhooks" -f -a "deliveries" -d 'The delivery log, newest first (plain columns: id, event, kind, state, attempts, last status, last error, next attempt, created)'
complete -c modctl -n "__fish_modctl_using_subcommand help; and __fish_seen_subcommand_from webhooks" -f -a "delivery" -d 'One delivery with every attempt (plain: field<TAB>value, then `attempt<TAB>n<TAB>at<TAB>status<TAB>ms<TAB>error` per attempt)'
complete -c modctl -n "__fish_modctl_using_subcommand help; and __fish_seen_subcommand_from webhooks" -f -a "redeliver" -d 'Queue a delivery again: same event id, fresh attempts (plain as delivery\'s)'
complete -c modctl -n "__fish_modctl_using_subcommand help; and __fish_seen_subcommand_from webhooks" -f -a "listen" -d 'A local receiver: verifies each delivery\'s signature and prints the events as they arrive (plain: created<TAB>kind<TAB>event<TAB>summary; --json: one event per line)'
complete -c modctl -n "__fish_modctl_using_subcommand help; and __fish_seen_subcommand_from webhooks" -f -a "rotate-secret" -d 'Replace the signing secret and print the new one, once'
complete -c modctl -n "__fish_modctl_using_subcommand help; and __fish_seen_subcommand_from lockdown" -f -a "start" -d 'Start a raid lockdown now (plain: field<TAB>value)'
complete -c modctl -n "__fish_modctl_using_subcommand help; and __fish_seen_subcommand_from lockdown" -f -a "end" -d 'End the running lockdown now (plain as start\'s)'
complete -c modctl -n "__fish_modctl_using_subcommand help; and __fish_seen_subcommand_from lockdown" -f -a "status" -d 'The running lockdown, else the last one (plain as start\'s; `state` is running, ended or none)'
complete -c modctl -n "__fish_modctl_using_subcommand help; and __fish_seen_subcommand_from strikes" -f -a "clear" -d 'Clear a member\'s active strikes (a pardon), saying why'
