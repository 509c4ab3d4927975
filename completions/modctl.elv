
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
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]'
            cand --key 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]'
            cand --timeout 'Request timeout in seconds'
            cand --json 'Print JSON'
            cand --plain 'Print tab-separated rows without a header (the default when piped)'
            cand --table 'Print a table (the default on a terminal)'
            cand --wide 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand login 'Save a daemon URL and API key as a profile, after checking them'
            cand logout 'Forget the profile in use (--profile, else the default) and its API key'
            cand profile 'List the saved profiles, choose the default one, remove one'
            cand whoami 'Show the calling key (team, scopes, expiry, server count) and the daemon URL and profile in use'
            cand keys 'List your team''s API keys: status, expiry, last use, replacement (never a secret)'
            cand servers 'List and show the servers your team has claimed'
            cand config 'Show, change, export, import, clone, diff and audit a server''s moderation config'
            cand action 'Moderate a member: note, warn, timeout, kick, ban, unban, jail, unjail'
            cand cases 'List, show, export, edit and void cases'
            cand automod 'Try a message against the server''s automod filters'
            cand snapshot 'Capture, list, show and diff structure snapshots; restore a nuked server''s roles and channels'
            cand webhooks 'Send a test event, list and show deliveries, redeliver one, rotate the signing secret'
            cand lockdown 'Start, end or show a raid lockdown (invites paused, joiners held until it ends)'
            cand onboarding 'The server''s setup checklist: what is done and the command that fixes each open item (plain columns: status, id, title, detail, fix)'
            cand insights 'Moderation insights: cases per day by action and source, moderators, repeat targets'
            cand activity 'Community activity: messages, active members, voice, joins and leaves per day; top channels and members'
            cand strikes 'Strike counts per member, most active first; `strikes clear` pardons a member'
            cand jails 'Active jails, oldest first'
            cand completions 'Print a shell completion script'
            cand watch 'Watch a server''s events as they happen: cases, automod hits, jails, config changes, joins'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'modctl;login'= {
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]'
            cand --key 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]'
            cand --timeout 'Request timeout in seconds'
            cand --with-key 'Read the API key from stdin (one line) instead of prompting, for scripts'
            cand --default 'Make the profile the default one (the first profile, and a plain `modctl login` without --profile, always become it)'
            cand --json 'Print JSON'
            cand --plain 'Print tab-separated rows without a header (the default when piped)'
            cand --table 'Print a table (the default on a terminal)'
            cand --wide 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'modctl;logout'= {
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]'
            cand --key 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]'
            cand --timeout 'Request timeout in seconds'
            cand --json 'Print JSON'
            cand --plain 'Print tab-separated rows without a header (the default when piped)'
            cand --table 'Print a table (the default on a terminal)'
            cand --wide 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'modctl;profile'= {
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]'
            cand --key 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]'
            cand --timeout 'Request timeout in seconds'
            cand --json 'Print JSON'
            cand --plain 'Print tab-separated rows without a header (the default when piped)'
            cand --table 'Print a table (the default on a terminal)'
            cand --wide 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand list 'The saved profiles and their daemon URLs; the default one is marked'
            cand use 'Make a profile the default, used when --profile is not given'
            cand remove 'Forget a profile and its API key'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'modctl;profile;list'= {
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]'
            cand --key 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]'
            cand --timeout 'Request timeout in seconds'
            cand --json 'Print JSON'
            cand --plain 'Print tab-separated rows without a header (the default when piped)'
            cand --table 'Print a table (the default on a terminal)'
            cand --wide 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'modctl;profile;use'= {
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]'
            cand --key 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]'
            cand --timeout 'Request timeout in seconds'
            cand --json 'Print JSON'
            cand --plain 'Print tab-separated rows without a header (the default when piped)'
            cand --table 'Print a table (the default on a terminal)'
            cand --wide 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'modctl;profile;remove'= {
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]'
            cand --key 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]'
            cand --timeout 'Request timeout in seconds'
            cand --json 'Print JSON'
            cand --plain 'Print tab-separated rows without a header (the default when piped)'
            cand --table 'Print a table (the default on a terminal)'
            cand --wide 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'modctl;profile;help'= {
            cand list 'The saved profiles and their daemon URLs; the default one is marked'
            cand use 'Make a profile the default, used when --profile is not given'
            cand remove 'Forget a profile and its API key'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'modctl;profile;help;list'= {
        }
        &'modctl;profile;help;use'= {
        }
        &'modctl;profile;help;remove'= {
        }
        &'modctl;profile;help;help'= {
        }
        &'modctl;whoami'= {
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]'
            cand --key 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]'
            cand --timeout 'Request timeout in seconds'
            cand --json 'Print JSON'
            cand --plain 'Print tab-separated rows without a header (the default when piped)'
            cand --table 'Print a table (the default on a terminal)'
            cand --wide 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'modctl;keys'= {
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]'
            cand --key 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]'
            cand --timeout 'Request timeout in seconds'
            cand --json 'Print JSON'
            cand --plain 'Print tab-separated rows without a header (the default when piped)'
            cand --table 'Print a table (the default on a terminal)'
            cand --wide 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'modctl;servers'= {
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]'
            cand --key 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]'
            cand --timeout 'Request timeout in seconds'
            cand --json 'Print JSON'
            cand --plain 'Print tab-separated rows without a header (the default when piped)'
            cand --table 'Print a table (the default on a terminal)'
            cand --wide 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand list 'List your team''s servers (plain columns: id, platform, name, claimed at)'
            cand show 'Show one server'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'modctl;servers;list'= {
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]'
            cand --key 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]'
            cand --timeout 'Request timeout in seconds'
            cand --json 'Print JSON'
            cand --plain 'Print tab-separated rows without a header (the default when piped)'
            cand --table 'Print a table (the default on a terminal)'
            cand --wide 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'modctl;servers;show'= {
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]'
            cand --key 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]'
            cand --timeout 'Request timeout in seconds'
            cand --json 'Print JSON'
            cand --plain 'Print tab-separated rows without a header (the default when piped)'
            cand --table 'Print a table (the default on a terminal)'
            cand --wide 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width'
            cand -h 'Print help'
            cand --help 'Print help'
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
        &'modctl;config'= {
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]'
            cand --key 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]'
            cand --timeout 'Request timeout in seconds'
            cand --json 'Print JSON'
            cand --plain 'Print tab-separated rows without a header (the default when piped)'
            cand --table 'Print a table (the default on a terminal)'
            cand --wide 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand show 'Show the whole config, or one section (plain: `path<TAB>value` lines)'
            cand set 'Set one field (`SECTION.FIELD VALUE`), several (`A=1 B=x`, one revision), or replace a whole section with the JSON in a file (`SECTION --file FILE`)'
            cand edit 'Edit a section in $EDITOR; reopens with the error when the daemon refuses it'
            cand export 'Print the export envelope (JSON) or write it to a file'
            cand import 'Import an export envelope from a file or stdin; all sections or nothing (shows the changes and asks first; --yes without a terminal)'
            cand clone 'Copy the config of another server of your team into this one (shows the changes and asks first; --yes without a terminal)'
            cand rollback 'Put the settings of an earlier revision back (rebuilt from the audit trail), as a diff to confirm; written as one change at the current revision'
            cand audit 'Recent config changes, newest first (plain columns: id, time, actor, section, source, revision, changes)'
            cand diff 'Compare the configs of two servers; exits 0 when equal, 1 when different'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'modctl;config;show'= {
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]'
            cand --key 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]'
            cand --timeout 'Request timeout in seconds'
            cand --json 'Print JSON'
            cand --plain 'Print tab-separated rows without a header (the default when piped)'
            cand --table 'Print a table (the default on a terminal)'
            cand --wide 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'modctl;config;set'= {
            cand -f 'JSON file with the new section, or `-` for stdin'
            cand --file 'JSON file with the new section, or `-` for stdin'
            cand --if-revision 'With --file: refuse unless the config is still at this revision'
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]'
            cand --key 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]'
            cand --timeout 'Request timeout in seconds'
            cand --json 'Print JSON'
            cand --plain 'Print tab-separated rows without a header (the default when piped)'
            cand --table 'Print a table (the default on a terminal)'
            cand --wide 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'modctl;config;edit'= {
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]'
            cand --key 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]'
            cand --timeout 'Request timeout in seconds'
            cand --json 'Print JSON'
            cand --plain 'Print tab-separated rows without a header (the default when piped)'
            cand --table 'Print a table (the default on a terminal)'
            cand --wide 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'modctl;config;export'= {
            cand -o 'Write to this file instead of stdout'
            cand --output 'Write to this file instead of stdout'
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]'
            cand --key 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]'
            cand --timeout 'Request timeout in seconds'
            cand --json 'Print JSON'
            cand --plain 'Print tab-separated rows without a header (the default when piped)'
            cand --table 'Print a table (the default on a terminal)'
            cand --wide 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'modctl;config;import'= {
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]'
            cand --key 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]'
            cand --timeout 'Request timeout in seconds'
            cand --dry-run 'Show what would change without changing anything'
            cand --drop-foreign-ids 'Clear channel and role ids that are not this server''s platform''s (listed as warnings) instead of refusing the import'
            cand -y 'Do not ask for confirmation'
            cand --yes 'Do not ask for confirmation'
            cand --json 'Print JSON'
            cand --plain 'Print tab-separated rows without a header (the default when piped)'
            cand --table 'Print a table (the default on a terminal)'
            cand --wide 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'modctl;config;clone'= {
            cand --from 'The server to copy from'
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]'
            cand --key 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]'
            cand --timeout 'Request timeout in seconds'
            cand --drop-foreign-ids 'Clear channel and role ids that are not this server''s platform''s (listed as warnings) instead of refusing the copy'
            cand --dry-run 'Show what the copy would change without changing anything'
            cand -y 'Do not ask for confirmation'
            cand --yes 'Do not ask for confirmation'
            cand --json 'Print JSON'
            cand --plain 'Print tab-separated rows without a header (the default when piped)'
            cand --table 'Print a table (the default on a terminal)'
            cand --wide 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'modctl;config;rollback'= {
            cand --to-revision 'The revision whose settings to restore (see `modctl config audit`)'
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]'
            cand --key 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]'
            cand --timeout 'Request timeout in seconds'
            cand -y 'Do not ask for confirmation'
            cand --yes 'Do not ask for confirmation'
            cand --json 'Print JSON'
            cand --plain 'Print tab-separated rows without a header (the default when piped)'
            cand --table 'Print a table (the default on a terminal)'
            cand --wide 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'modctl;config;audit'= {
            cand --limit 'How many entries (1 to 500)'
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]'
            cand --key 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]'
            cand --timeout 'Request timeout in seconds'
            cand --json 'Print JSON'
            cand --plain 'Print tab-separated rows without a header (the default when piped)'
            cand --table 'Print a table (the default on a terminal)'
            cand --wide 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'modctl;config;diff'= {
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]'
            cand --key 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]'
            cand --timeout 'Request timeout in seconds'
            cand --json 'Print JSON'
            cand --plain 'Print tab-separated rows without a header (the default when piped)'
            cand --table 'Print a table (the default on a terminal)'
            cand --wide 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'modctl;config;help'= {
            cand show 'Show the whole config, or one section (plain: `path<TAB>value` lines)'
            cand set 'Set one field (`SECTION.FIELD VALUE`), several (`A=1 B=x`, one revision), or replace a whole section with the JSON in a file (`SECTION --file FILE`)'
            cand edit 'Edit a section in $EDITOR; reopens with the error when the daemon refuses it'
            cand export 'Print the export envelope (JSON) or write it to a file'
            cand import 'Import an export envelope from a file or stdin; all sections or nothing (shows the changes and asks first; --yes without a terminal)'
            cand clone 'Copy the config of another server of your team into this one (shows the changes and asks first; --yes without a terminal)'
            cand rollback 'Put the settings of an earlier revision back (rebuilt from the audit trail), as a diff to confirm; written as one change at the current revision'
            cand audit 'Recent config changes, newest first (plain columns: id, time, actor, section, source, revision, changes)'
            cand diff 'Compare the configs of two servers; exits 0 when equal, 1 when different'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'modctl;config;help;show'= {
        }
        &'modctl;config;help;set'= {
        }
        &'modctl;config;help;edit'= {
        }
        &'modctl;config;help;export'= {
        }
        &'modctl;config;help;import'= {
        }
        &'modctl;config;help;clone'= {
        }
        &'modctl;config;help;rollback'= {
        }
        &'modctl;config;help;audit'= {
        }
        &'modctl;config;help;diff'= {
        }
        &'modctl;config;help;help'= {
        }
        &'modctl;action'= {
            cand -r 'Why (at most 512 characters)'
            cand --reason 'Why (at most 512 characters)'
            cand -d 'How long, for timeout and jail: 90m, 2h, 7d, 1h30m (a bare number is minutes)'
            cand --duration 'How long, for timeout and jail: 90m, 2h, 7d, 1h30m (a bare number is minutes)'
            cand --delete-days 'Days of messages to delete, for ban (0 to 7)'
            cand --users-file 'Act on every user id in this file (one per line, `#` comments), or `-` for stdin'
            cand --idempotency-key 'Send this Idempotency-Key: a retry with the same key does nothing again'
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]'
            cand --key 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]'
            cand --timeout 'Request timeout in seconds'
            cand -y 'Do not ask for confirmation'
            cand --yes 'Do not ask for confirmation'
            cand --dry-run 'Say what the action would do (platform call, DM, strikes, ladder step) without recording or doing anything'
            cand --json 'Print JSON'
            cand --plain 'Print tab-separated rows without a header (the default when piped)'
            cand --table 'Print a table (the default on a terminal)'
            cand --wide 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'modctl;cases'= {
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]'
            cand --key 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]'
            cand --timeout 'Request timeout in seconds'
            cand --json 'Print JSON'
            cand --plain 'Print tab-separated rows without a header (the default when piped)'
            cand --table 'Print a table (the default on a terminal)'
            cand --wide 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand list 'Recent cases, newest first, optionally filtered'
            cand show 'One case, by its number on the server'
            cand edit 'Replace a case''s reason; the old one is kept in its corrections'
            cand void 'Void a case, saying why: its strikes stop counting; the case stays, marked voided'
            cand export 'Every case of a server as JSON lines or CSV, oldest first'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'modctl;cases;list'= {
            cand --user 'Only cases of this user: a user id, or `@name` for the one member known by that name'
            cand --action 'Only cases of this action'
            cand --actor 'Only cases by this actor: a key''s display name (any case; every key of that name), a key id, key:<key id>, or system:expiry'
            cand --since 'Only cases recorded since then: a duration ago (30m, 12h, 7d, 2w) or a date (2026-11-01, 2026-11-01T09:00:00Z)'
            cand --until 'Only cases recorded before then (same forms as --since)'
            cand --limit 'How many (1 to 200)'
            cand -o 'Output format: table, wide (a table with every value whole), plain or json'
            cand --output 'Output format: table, wide (a table with every value whole), plain or json'
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]'
            cand --key 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]'
            cand --timeout 'Request timeout in seconds'
            cand --applied 'Only cases the platform applied'
            cand --not-applied 'Only cases the platform did not apply'
            cand --all 'Every matching case, following the pages'
            cand --json 'Print JSON'
            cand --plain 'Print tab-separated rows without a header (the default when piped)'
            cand --table 'Print a table (the default on a terminal)'
            cand --wide 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'modctl;cases;show'= {
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]'
            cand --key 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]'
            cand --timeout 'Request timeout in seconds'
            cand --json 'Print JSON'
            cand --plain 'Print tab-separated rows without a header (the default when piped)'
            cand --table 'Print a table (the default on a terminal)'
            cand --wide 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'modctl;cases;edit'= {
            cand -r 'The new reason (1 to 512 characters)'
            cand --reason 'The new reason (1 to 512 characters)'
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]'
            cand --key 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]'
            cand --timeout 'Request timeout in seconds'
            cand --json 'Print JSON'
            cand --plain 'Print tab-separated rows without a header (the default when piped)'
            cand --table 'Print a table (the default on a terminal)'
            cand --wide 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'modctl;cases;void'= {
            cand -r 'Why (1 to 512 characters); kept with the void'
            cand --reason 'Why (1 to 512 characters); kept with the void'
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]'
            cand --key 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]'
            cand --timeout 'Request timeout in seconds'
            cand --json 'Print JSON'
            cand --plain 'Print tab-separated rows without a header (the default when piped)'
            cand --table 'Print a table (the default on a terminal)'
            cand --wide 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'modctl;cases;export'= {
            cand --format 'The format'
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]'
            cand --key 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]'
            cand --timeout 'Request timeout in seconds'
            cand --json 'Print JSON'
            cand --plain 'Print tab-separated rows without a header (the default when piped)'
            cand --table 'Print a table (the default on a terminal)'
            cand --wide 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'modctl;cases;help'= {
            cand list 'Recent cases, newest first, optionally filtered'
            cand show 'One case, by its number on the server'
            cand edit 'Replace a case''s reason; the old one is kept in its corrections'
            cand void 'Void a case, saying why: its strikes stop counting; the case stays, marked voided'
            cand export 'Every case of a server as JSON lines or CSV, oldest first'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'modctl;cases;help;list'= {
        }
        &'modctl;cases;help;show'= {
        }
        &'modctl;cases;help;edit'= {
        }
        &'modctl;cases;help;void'= {
        }
        &'modctl;cases;help;export'= {
        }
        &'modctl;cases;help;help'= {
        }
        &'modctl;automod'= {
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]'
            cand --key 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]'
            cand --timeout 'Request timeout in seconds'
            cand --json 'Print JSON'
            cand --plain 'Print tab-separated rows without a header (the default when piped)'
            cand --table 'Print a table (the default on a terminal)'
            cand --wide 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand test 'Try a message against the server''s automod filters: which would act, on what, and how'
            cand hits 'The messages the server''s automod caught, newest first'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'modctl;automod;test'= {
            cand --user 'The author''s user id'
            cand --channel 'The channel it is sent in (tries automod.exempt_channel_ids)'
            cand --role 'A role of the author (tries automod.exempt_role_ids); repeat for several'
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]'
            cand --key 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]'
            cand --timeout 'Request timeout in seconds'
            cand --json 'Print JSON'
            cand --plain 'Print tab-separated rows without a header (the default when piped)'
            cand --table 'Print a table (the default on a terminal)'
            cand --wide 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'modctl;automod;hits'= {
            cand --filter 'Only hits of this filter (blocked_words, invite_links, links, mention_spam, caps, duplicates)'
            cand --user 'Only hits of this member'
            cand --limit 'How many (1 to 200)'
            cand --before 'Only hits older than this one (the last id of the previous page)'
            cand -o 'Output format: table, wide (a table with every value whole), plain or json'
            cand --output 'Output format: table, wide (a table with every value whole), plain or json'
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]'
            cand --key 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]'
            cand --timeout 'Request timeout in seconds'
            cand --json 'Print JSON'
            cand --plain 'Print tab-separated rows without a header (the default when piped)'
            cand --table 'Print a table (the default on a terminal)'
            cand --wide 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'modctl;automod;help'= {
            cand test 'Try a message against the server''s automod filters: which would act, on what, and how'
            cand hits 'The messages the server''s automod caught, newest first'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'modctl;automod;help;test'= {
        }
        &'modctl;automod;help;hits'= {
        }
        &'modctl;automod;help;help'= {
        }
        &'modctl;snapshot'= {
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]'
            cand --key 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]'
            cand --timeout 'Request timeout in seconds'
            cand --json 'Print JSON'
            cand --plain 'Print tab-separated rows without a header (the default when piped)'
            cand --table 'Print a table (the default on a terminal)'
            cand --wide 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand capture 'Capture the server''s roles, channels and settings now (plain: field<TAB>value)'
            cand list 'The snapshots kept, newest first (plain columns: id, captured, source, actor, roles, channels, overwrites, user groups, administrators, size in bytes, content hash)'
            cand show 'One snapshot''s metadata, or with --content what it holds (plain content columns: kind, id, name, parent, detail)'
            cand diff 'The snapshot against the server now: what is missing, what is present (and how it was recognised), what a restore would skip and why (plain columns: step, kind, snapshot id, name, matched by, live id, detail)'
            cand restore 'Restore the missing roles and channels from a snapshot; exits 1 when the job stopped or any item failed (plain report columns: outcome, kind, snapshot id, name, live id, what happened)'
            cand job 'A restore job''s report; --wait follows it until it ends and exits 1 like restore (plain columns as restore''s)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'modctl;snapshot;capture'= {
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]'
            cand --key 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]'
            cand --timeout 'Request timeout in seconds'
            cand --json 'Print JSON'
            cand --plain 'Print tab-separated rows without a header (the default when piped)'
            cand --table 'Print a table (the default on a terminal)'
            cand --wide 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'modctl;snapshot;list'= {
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]'
            cand --key 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]'
            cand --timeout 'Request timeout in seconds'
            cand --json 'Print JSON'
            cand --plain 'Print tab-separated rows without a header (the default when piped)'
            cand --table 'Print a table (the default on a terminal)'
            cand --wide 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'modctl;snapshot;show'= {
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]'
            cand --key 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]'
            cand --timeout 'Request timeout in seconds'
            cand --content 'Show the roles, channels and settings it holds'
            cand --json 'Print JSON'
            cand --plain 'Print tab-separated rows without a header (the default when piped)'
            cand --table 'Print a table (the default on a terminal)'
            cand --wide 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'modctl;snapshot;diff'= {
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]'
            cand --key 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]'
            cand --timeout 'Request timeout in seconds'
            cand --json 'Print JSON'
            cand --plain 'Print tab-separated rows without a header (the default when piped)'
            cand --table 'Print a table (the default on a terminal)'
            cand --wide 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'modctl;snapshot;restore'= {
            cand --from 'The snapshot to restore [default: the latest]'
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]'
            cand --key 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]'
            cand --timeout 'Request timeout in seconds'
            cand --dry-run 'Show the plan and change nothing'
            cand -y 'Do not ask for confirmation'
            cand --yes 'Do not ask for confirmation'
            cand --json 'Print JSON'
            cand --plain 'Print tab-separated rows without a header (the default when piped)'
            cand --table 'Print a table (the default on a terminal)'
            cand --wide 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'modctl;snapshot;job'= {
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]'
            cand --key 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]'
            cand --timeout 'Request timeout in seconds'
            cand --wait 'Draw progress until the job ends'
            cand --json 'Print JSON'
            cand --plain 'Print tab-separated rows without a header (the default when piped)'
            cand --table 'Print a table (the default on a terminal)'
            cand --wide 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'modctl;snapshot;help'= {
            cand capture 'Capture the server''s roles, channels and settings now (plain: field<TAB>value)'
            cand list 'The snapshots kept, newest first (plain columns: id, captured, source, actor, roles, channels, overwrites, user groups, administrators, size in bytes, content hash)'
            cand show 'One snapshot''s metadata, or with --content what it holds (plain content columns: kind, id, name, parent, detail)'
            cand diff 'The snapshot against the server now: what is missing, what is present (and how it was recognised), what a restore would skip and why (plain columns: step, kind, snapshot id, name, matched by, live id, detail)'
            cand restore 'Restore the missing roles and channels from a snapshot; exits 1 when the job stopped or any item failed (plain report columns: outcome, kind, snapshot id, name, live id, what happened)'
            cand job 'A restore job''s report; --wait follows it until it ends and exits 1 like restore (plain columns as restore''s)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'modctl;snapshot;help;capture'= {
        }
        &'modctl;snapshot;help;list'= {
        }
        &'modctl;snapshot;help;show'= {
        }
        &'modctl;snapshot;help;diff'= {
        }
        &'modctl;snapshot;help;restore'= {
        }
        &'modctl;snapshot;help;job'= {
        }
        &'modctl;snapshot;help;help'= {
        }
        &'modctl;webhooks'= {
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]'
            cand --key 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]'
            cand --timeout 'Request timeout in seconds'
            cand --json 'Print JSON'
            cand --plain 'Print tab-separated rows without a header (the default when piped)'
            cand --table 'Print a table (the default on a terminal)'
            cand --wide 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand test 'Queue a `test` event to the server''s webhook endpoint (plain: field<TAB>value)'
            cand deliveries 'The delivery log, newest first (plain columns: id, event, kind, state, attempts, last status, last error, next attempt, created)'
            cand delivery 'One delivery with every attempt (plain: field<TAB>value, then `attempt<TAB>n<TAB>at<TAB>status<TAB>ms<TAB>error` per attempt)'
            cand redeliver 'Queue a delivery again: same event id, fresh attempts (plain as delivery''s)'
            cand listen 'A local receiver: verifies each delivery''s signature and prints the events as they arrive (plain: created<TAB>kind<TAB>event<TAB>summary; --json: one event per line)'
            cand rotate-secret 'Replace the signing secret and print the new one, once'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'modctl;webhooks;test'= {
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]'
            cand --key 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]'
            cand --timeout 'Request timeout in seconds'
            cand --wait 'Wait until the delivery is no longer pending (or its next retry is over a minute off) and show it; exits 1 unless delivered'
            cand --json 'Print JSON'
            cand --plain 'Print tab-separated rows without a header (the default when piped)'
            cand --table 'Print a table (the default on a terminal)'
            cand --wide 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'modctl;webhooks;deliveries'= {
            cand --state 'Only deliveries in this state: pending, delivered, failed or disabled'
            cand --kind 'Only deliveries of this event kind: case_created, config_changed, jail_changed, snapshot_captured, snapshot_restored or test'
            cand --limit 'At most this many (1 to 200) [default: 50]'
            cand --before 'Only deliveries older than this one (the next page, as the table''s footer names it)'
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]'
            cand --key 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]'
            cand --timeout 'Request timeout in seconds'
            cand --json 'Print JSON'
            cand --plain 'Print tab-separated rows without a header (the default when piped)'
            cand --table 'Print a table (the default on a terminal)'
            cand --wide 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'modctl;webhooks;delivery'= {
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]'
            cand --key 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]'
            cand --timeout 'Request timeout in seconds'
            cand --json 'Print JSON'
            cand --plain 'Print tab-separated rows without a header (the default when piped)'
            cand --table 'Print a table (the default on a terminal)'
            cand --wide 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'modctl;webhooks;redeliver'= {
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]'
            cand --key 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]'
            cand --timeout 'Request timeout in seconds'
            cand --json 'Print JSON'
            cand --plain 'Print tab-separated rows without a header (the default when piped)'
            cand --table 'Print a table (the default on a terminal)'
            cand --wide 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'modctl;webhooks;listen'= {
            cand --port 'The port on 127.0.0.1 (0 picks a free one, printed on stderr)'
            cand --secret-env 'The environment variable holding the signing secret'
            cand --count 'Exit after this many verified events'
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]'
            cand --key 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]'
            cand --timeout 'Request timeout in seconds'
            cand --json 'Print JSON'
            cand --plain 'Print tab-separated rows without a header (the default when piped)'
            cand --table 'Print a table (the default on a terminal)'
            cand --wide 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'modctl;webhooks;rotate-secret'= {
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]'
            cand --key 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]'
            cand --timeout 'Request timeout in seconds'
            cand -y 'Do not ask for confirmation'
            cand --yes 'Do not ask for confirmation'
            cand --json 'Print JSON'
            cand --plain 'Print tab-separated rows without a header (the default when piped)'
            cand --table 'Print a table (the default on a terminal)'
            cand --wide 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'modctl;webhooks;help'= {
            cand test 'Queue a `test` event to the server''s webhook endpoint (plain: field<TAB>value)'
            cand deliveries 'The delivery log, newest first (plain columns: id, event, kind, state, attempts, last status, last error, next attempt, created)'
            cand delivery 'One delivery with every attempt (plain: field<TAB>value, then `attempt<TAB>n<TAB>at<TAB>status<TAB>ms<TAB>error` per attempt)'
            cand redeliver 'Queue a delivery again: same event id, fresh attempts (plain as delivery''s)'
            cand listen 'A local receiver: verifies each delivery''s signature and prints the events as they arrive (plain: created<TAB>kind<TAB>event<TAB>summary; --json: one event per line)'
            cand rotate-secret 'Replace the signing secret and print the new one, once'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'modctl;webhooks;help;test'= {
        }
        &'modctl;webhooks;help;deliveries'= {
        }
        &'modctl;webhooks;help;delivery'= {
        }
        &'modctl;webhooks;help;redeliver'= {
        }
        &'modctl;webhooks;help;listen'= {
        }
        &'modctl;webhooks;help;rotate-secret'= {
        }
        &'modctl;webhooks;help;help'= {
        }
        &'modctl;lockdown'= {
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]'
            cand --key 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]'
            cand --timeout 'Request timeout in seconds'
            cand --json 'Print JSON'
            cand --plain 'Print tab-separated rows without a header (the default when piped)'
            cand --table 'Print a table (the default on a terminal)'
            cand --wide 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand start 'Start a raid lockdown now (plain: field<TAB>value)'
            cand end 'End the running lockdown now (plain as start''s)'
            cand status 'The running lockdown, else the last one (plain as start''s; `state` is running, ended or none)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'modctl;lockdown;start'= {
            cand --minutes 'How long, 1 to 1440 minutes [default: the server''s antinuke.lockdown_minutes]'
            cand --reason 'Why, shown in the log post and the webhook event'
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]'
            cand --key 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]'
            cand --timeout 'Request timeout in seconds'
            cand --json 'Print JSON'
            cand --plain 'Print tab-separated rows without a header (the default when piped)'
            cand --table 'Print a table (the default on a terminal)'
            cand --wide 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'modctl;lockdown;end'= {
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]'
            cand --key 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]'
            cand --timeout 'Request timeout in seconds'
            cand --json 'Print JSON'
            cand --plain 'Print tab-separated rows without a header (the default when piped)'
            cand --table 'Print a table (the default on a terminal)'
            cand --wide 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'modctl;lockdown;status'= {
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]'
            cand --key 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]'
            cand --timeout 'Request timeout in seconds'
            cand --json 'Print JSON'
            cand --plain 'Print tab-separated rows without a header (the default when piped)'
            cand --table 'Print a table (the default on a terminal)'
            cand --wide 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'modctl;lockdown;help'= {
            cand start 'Start a raid lockdown now (plain: field<TAB>value)'
            cand end 'End the running lockdown now (plain as start''s)'
            cand status 'The running lockdown, else the last one (plain as start''s; `state` is running, ended or none)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'modctl;lockdown;help;start'= {
        }
        &'modctl;lockdown;help;end'= {
        }
        &'modctl;lockdown;help;status'= {
        }
        &'modctl;lockdown;help;help'= {
        }
        &'modctl;onboarding'= {
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]'
            cand --key 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]'
            cand --timeout 'Request timeout in seconds'
            cand --refresh 'Ask the platform now instead of using its answer of up to 5 minutes ago'
            cand --json 'Print JSON'
            cand --plain 'Print tab-separated rows without a header (the default when piped)'
            cand --table 'Print a table (the default on a terminal)'
            cand --wide 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'modctl;insights'= {
            cand --days 'Days in the window, ending today in the server''s time zone (1 to 365) [default: 30]'
            cand --chart 'Also write a bar chart of the daily series to this SVG file'
            cand --watch 'Redraw in place every SECONDS (1 to 3600, default 5) until Ctrl-C; on a terminal only'
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]'
            cand --key 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]'
            cand --timeout 'Request timeout in seconds'
            cand --json 'Print JSON'
            cand --plain 'Print tab-separated rows without a header (the default when piped)'
            cand --table 'Print a table (the default on a terminal)'
            cand --wide 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'modctl;activity'= {
            cand --days 'Days in the window, ending today in the server''s time zone (1 to 365) [default: 30]'
            cand --chart 'Also write a bar chart of the daily series to this SVG file'
            cand --watch 'Redraw in place every SECONDS (1 to 3600, default 5) until Ctrl-C; on a terminal only'
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]'
            cand --key 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]'
            cand --timeout 'Request timeout in seconds'
            cand --json 'Print JSON'
            cand --plain 'Print tab-separated rows without a header (the default when piped)'
            cand --table 'Print a table (the default on a terminal)'
            cand --wide 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'modctl;strikes'= {
            cand -o 'Output format: table, wide (a table with every value whole), plain or json'
            cand --output 'Output format: table, wide (a table with every value whole), plain or json'
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]'
            cand --key 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]'
            cand --timeout 'Request timeout in seconds'
            cand --json 'Print JSON'
            cand --plain 'Print tab-separated rows without a header (the default when piped)'
            cand --table 'Print a table (the default on a terminal)'
            cand --wide 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand clear 'Clear a member''s active strikes (a pardon), saying why'
        }
        &'modctl;strikes;clear'= {
            cand -r 'Why (1 to 512 characters); kept with the clear'
            cand --reason 'Why (1 to 512 characters); kept with the clear'
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]'
            cand --key 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]'
            cand --timeout 'Request timeout in seconds'
            cand --json 'Print JSON'
            cand --plain 'Print tab-separated rows without a header (the default when piped)'
            cand --table 'Print a table (the default on a terminal)'
            cand --wide 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'modctl;jails'= {
            cand -o 'Output format: table, wide (a table with every value whole), plain or json'
            cand --output 'Output format: table, wide (a table with every value whole), plain or json'
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]'
            cand --key 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]'
            cand --timeout 'Request timeout in seconds'
            cand --json 'Print JSON'
            cand --plain 'Print tab-separated rows without a header (the default when piped)'
            cand --table 'Print a table (the default on a terminal)'
            cand --wide 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'modctl;completions'= {
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]'
            cand --key 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]'
            cand --timeout 'Request timeout in seconds'
            cand --json 'Print JSON'
            cand --plain 'Print tab-separated rows without a header (the default when piped)'
            cand --table 'Print a table (the default on a terminal)'
            cand --wide 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'modctl;watch'= {
            cand --types 'Only these event types, comma-separated: case_created, automod_hit, jail_changed, config_changed, lockdown_started, lockdown_ended, antinuke_triggered, case_corrected, member_joined'
            cand --since 'Start after this event id (an id printed before): the events since then come first'
            cand --count 'Stop after this many events'
            cand --url 'Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]'
            cand --key 'API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)'
            cand --profile 'Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]'
            cand --timeout 'Request timeout in seconds'
            cand --json 'Print JSON'
            cand --plain 'Print tab-separated rows without a header (the default when piped)'
            cand --table 'Print a table (the default on a terminal)'
            cand --wide 'Show long columns (reason, detail) whole instead of cutting them to the terminal''s width'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'modctl;help'= {
            cand login 'Save a daemon URL and API key as a profile, after checking them'
            cand logout 'Forget the profile in use (--profile, else the default) and its API key'
            cand profile 'List the saved profiles, choose the default one, remove one'
            cand whoami 'Show the calling key (team, scopes, expiry, server count) and the daemon URL and profile in use'
            cand keys 'List your team''s API keys: status, expiry, last use, replacement (never a secret)'
            cand servers 'List and show the servers your team has claimed'
            cand config 'Show, change, export, import, clone, diff and audit a server''s moderation config'
            cand action 'Moderate a member: note, warn, timeout, kick, ban, unban, jail, unjail'
            cand cases 'List, show, export, edit and void cases'
            cand automod 'Try a message against the server''s automod filters'
            cand snapshot 'Capture, list, show and diff structure snapshots; restore a nuked server''s roles and channels'
            cand webhooks 'Send a test event, list and show deliveries, redeliver one, rotate the signing secret'
            cand lockdown 'Start, end or show a raid lockdown (invites paused, joiners held until it ends)'
            cand onboarding 'The server''s setup checklist: what is done and the command that fixes each open item (plain columns: status, id, title, detail, fix)'
            cand insights 'Moderation insights: cases per day by action and source, moderators, repeat targets'
            cand activity 'Community activity: messages, active members, voice, joins and leaves per day; top channels and members'
            cand strikes 'Strike counts per member, most active first; `strikes clear` pardons a member'
            cand jails 'Active jails, oldest first'
            cand completions 'Print a shell completion script'
            cand watch 'Watch a server''s events as they happen: cases, automod hits, jails, config changes, joins'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'modctl;help;login'= {
        }
        &'modctl;help;logout'= {
        }
        &'modctl;help;profile'= {
            cand list 'The saved profiles and their daemon URLs; the default one is marked'
            cand use 'Make a profile the default, used when --profile is not given'
            cand remove 'Forget a profile and its API key'
        }
        &'modctl;help;profile;list'= {
        }
        &'modctl;help;profile;use'= {
        }
        &'modctl;help;profile;remove'= {
        }
        &'modctl;help;whoami'= {
        }
        &'modctl;help;keys'= {
        }
        &'modctl;help;servers'= {
            cand list 'List your team''s servers (plain columns: id, platform, name, claimed at)'
            cand show 'Show one server'
        }
        &'modctl;help;servers;list'= {
        }
        &'modctl;help;servers;show'= {
        }
        &'modctl;help;config'= {
            cand show 'Show the whole config, or one section (plain: `path<TAB>value` lines)'
            cand set 'Set one field (`SECTION.FIELD VALUE`), several (`A=1 B=x`, one revision), or replace a whole section with the JSON in a file (`SECTION --file FILE`)'
            cand edit 'Edit a section in $EDITOR; reopens with the error when the daemon refuses it'
            cand export 'Print the export envelope (JSON) or write it to a file'
            cand import 'Import an export envelope from a file or stdin; all sections or nothing (shows the changes and asks first; --yes without a terminal)'
            cand clone 'Copy the config of another server of your team into this one (shows the changes and asks first; --yes without a terminal)'
            cand rollback 'Put the settings of an earlier revision back (rebuilt from the audit trail), as a diff to confirm; written as one change at the current revision'
            cand audit 'Recent config changes, newest first (plain columns: id, time, actor, section, source, revision, changes)'
            cand diff 'Compare the configs of two servers; exits 0 when equal, 1 when different'
        }
        &'modctl;help;config;show'= {
        }
        &'modctl;help;config;set'= {
        }
        &'modctl;help;config;edit'= {
        }
        &'modctl;help;config;export'= {
        }
        &'modctl;help;config;import'= {
        }
        &'modctl;help;config;clone'= {
        }
        &'modctl;help;config;rollback'= {
        }
        &'modctl;help;config;audit'= {
        }
        &'modctl;help;config;diff'= {
        }
        &'modctl;help;action'= {
        }
        &'modctl;help;cases'= {
            cand list 'Recent cases, newest first, optionally filtered'
            cand show 'One case, by its number on the server'
            cand edit 'Replace a case''s reason; the old one is kept in its corrections'
            cand void 'Void a case, saying why: its strikes stop counting; the case stays, marked voided'
            cand export 'Every case of a server as JSON lines or CSV, oldest first'
        }
        &'modctl;help;cases;list'= {
        }
        &'modctl;help;cases;show'= {
        }
        &'modctl;help;cases;edit'= {
        }
        &'modctl;help;cases;void'= {
        }
        &'modctl;help;cases;export'= {
        }
        &'modctl;help;automod'= {
            cand test 'Try a message against the server''s automod filters: which would act, on what, and how'
            cand hits 'The messages the server''s automod caught, newest first'
        }
        &'modctl;help;automod;test'= {
        }
        &'modctl;help;automod;hits'= {
        }
        &'modctl;help;snapshot'= {
            cand capture 'Capture the server''s roles, channels and settings now (plain: field<TAB>value)'
            cand list 'The snapshots kept, newest first (plain columns: id, captured, source, actor, roles, channels, overwrites, user groups, administrators, size in bytes, content hash)'
            cand show 'One snapshot''s metadata, or with --content what it holds (plain content columns: kind, id, name, parent, detail)'
            cand diff 'The snapshot against the server now: what is missing, what is present (and how it was recognised), what a restore would skip and why (plain columns: step, kind, snapshot id, name, matched by, live id, detail)'
            cand restore 'Restore the missing roles and channels from a snapshot; exits 1 when the job stopped or any item failed (plain report columns: outcome, kind, snapshot id, name, live id, what happened)'
            cand job 'A restore job''s report; --wait follows it until it ends and exits 1 like restore (plain columns as restore''s)'
        }
        &'modctl;help;snapshot;capture'= {
        }
        &'modctl;help;snapshot;list'= {
        }
        &'modctl;help;snapshot;show'= {
        }
        &'modctl;help;snapshot;diff'= {
        }
        &'modctl;help;snapshot;restore'= {
        }
        &'modctl;help;snapshot;job'= {
        }
        &'modctl;help;webhooks'= {
            cand test 'Queue a `test` event to the server''s webhook endpoint (plain: field<TAB>value)'
            cand deliveries 'The delivery log, newest first (plain columns: id, event, kind, state, attempts, last status, last error, next attempt, created)'
            cand delivery 'One delivery with every attempt (plain: field<TAB>value, then `attempt<TAB>n<TAB>at<TAB>status<TAB>ms<TAB>error` per attempt)'
            cand redeliver 'Queue a delivery again: same event id, fresh attempts (plain as delivery''s)'
            cand listen 'A local receiver: verifies each delivery''s signature and prints the events as they arrive (plain: created<TAB>kind<TAB>event<TAB>summary; --json: one event per line)'
            cand rotate-secret 'Replace the signing secret and print the new one, once'
        }
        &'modctl;help;webhooks;test'= {
        }
        &'modctl;help;webhooks;deliveries'= {
        }
        &'modctl;help;webhooks;delivery'= {
        }
        &'modctl;help;webhooks;redeliver'= {
        }
        &'modctl;help;webhooks;listen'= {
        }
        &'modctl;help;webhooks;rotate-secret'= {
        }
        &'modctl;help;lockdown'= {
            cand start 'Start a raid lockdown now (plain: field<TAB>value)'
            cand end 'End the running lockdown now (plain as start''s)'
            cand status 'The running lockdown, else the last one (plain as start''s; `state` is running, ended or none)'
        }
        &'modctl;help;lockdown;start'= {
        }
        &'modctl;help;lockdown;end'= {
        }
        &'modctl;help;lockdown;status'= {
        }
        &'modctl;help;onboarding'= {
        }
        &'modctl;help;insights'= {
        }
        &'modctl;help;activity'= {
        }
        &'modctl;help;strikes'= {
            cand clear 'Clear a member''s active strikes (a pardon), saying why'
        }
        &'modctl;help;strikes;clear'= {
        }
        &'modctl;help;jails'= {
        }
        &'modctl;help;completions'= {
        }
        &'modctl;help;watch'= {
        }
        &'modctl;help;help'= {
        }
    ]
    $completions[$command]
}
