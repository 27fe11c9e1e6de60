/// The shell completion scripts `stint completions` prints.
///
/// Each script is small: it hands the words typed so far to `stint __complete` (the same program the
/// user is typing, `$COMP_WORDS[0]`, `$words[1]` or the first token) and offers what it prints. So verbs,
/// options and fixed choices always match the installed binary, and tag names and record ids come from
/// the log the line names (its `--log`, else `STINT_LOG`, else the default).
enum CompletionScripts {
    static let shells = ["bash", "zsh", "fish"]

    static func script(for shell: String) -> String? {
        switch shell {
        case "bash": return bash
        case "zsh": return zsh
        case "fish": return fish
        default: return nil
        }
    }

    static let bash = #"""
        # bash completion for stint, printed by 'stint completions bash' (see docs/completions.md).
        _stint_complete() {
            local cur=${COMP_WORDS[COMP_CWORD]}
            local IFS=$'\n'
            local -a lines
            lines=($("${COMP_WORDS[0]}" __complete --line "${COMP_LINE:0:COMP_POINT}" 2>/dev/null)) || return 0
            COMPREPLY=()
            [[ ${#lines[@]} -gt 0 ]] || return 0
            local header=${lines[0]}
            local kind=${header%%$'\t'*} typed=${header#*$'\t'}
            if [[ $kind == ":files" ]]; then
                compopt -o filenames 2>/dev/null
                COMPREPLY=($(compgen -f -- "$cur"))
                return 0
            fi
            # bash splits words at '=' and ':'; drop what it already holds before the current word.
            local strip=$(( ${#typed} - ${#cur} ))
            (( strip < 0 )) && strip=0
            local line value
            for line in "${lines[@]:1}"; do
                value=${line%%$'\t'*}
                value=${value:strip}
                if [[ $cur != \"* && $cur != \'* ]]; then
                    printf -v value '%q' "$value"
                fi
                COMPREPLY+=("$value")
            done
            return 0
        }
        complete -F _stint_complete stint

        """#

    static let zsh = #"""
        #compdef stint
        # zsh completion for stint, printed by 'stint completions zsh' (see docs/completions.md).
        _stint() {
            local -a output values displays
            local header kind line value description
            output=("${(@f)$(${(Q)words[1]} __complete -- "${(@Q)words[2,CURRENT-1]}" "${(Q)PREFIX}" 2>/dev/null)}")
            header=${output[1]}
            kind=${header%%$'\t'*}
            if [[ $kind == ":files" ]]; then
                _files
                return
            fi
            for line in "${(@)output[2,-1]}"; do
                [[ -z $line ]] && continue
                value=${line%%$'\t'*}
                values+=("$value")
                if [[ $line == *$'\t'* ]]; then
                    description=${line#*$'\t'}
                    displays+=("${value}  -- ${description}")
                else
                    displays+=("$value")
                fi
            done
            (( ${#values} )) || return 1
            compadd -l -d displays -a values
        }
        if [[ "${funcstack[1]}" == "_stint" ]]; then
            _stint "$@"
        else
            compdef _stint stint
        fi

        """#

    static let fish = #"""
        # fish completion for stint, printed by 'stint completions fish' (see docs/completions.md).
        function __stint_complete
            set -l tokens (commandline -opc)
            set -l current (commandline -ct)
            set -l output ($tokens[1] __complete -- $tokens[2..-1] $current 2>/dev/null)
            or return
            set -l kind (string split -m 1 \t -- $output[1])[1]
            if test "$kind" = ":files"
                __fish_complete_path $current
                return
            end
            for line in $output[2..-1]
                echo $line
            end
        end
        complete -c stint -f -a '(__stint_complete)'

        """#
}
