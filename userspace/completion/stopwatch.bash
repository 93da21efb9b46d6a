# SPDX-License-Identifier: GPL-2.0
# bash completion for stopwatch(1): commands, their options, kernel
# functions (what the kernel can trace) and event names (what
# "stopwatch events list" prints).  Installed by "make install" into
# share/bash-completion/completions/stopwatch; plain bash, no
# bash-completion helpers needed.  zsh uses it through bashcompinit.
#
# Kernel functions come from tracefs' available_filter_functions, else
# from /proc/kallsyms; the shell variable _STOPWATCH_FUNCS may name
# another file of one function a line (first word).

# The commands, from "stopwatch help".
_stopwatch_commands()
{
	"$1" help 2>/dev/null |
		awk '/^Commands:/ { on = 1; next } on && /^ +[a-z]/ { print $1 } on && /^$/ { exit }'
}

# The options of "$@" (program and command words), from its --help:
# each on a line; "-x ARG" marks those that take an argument.
_stopwatch_options()
{
	"$@" --help 2>/dev/null | awk '
		/^  +-/ && match($0, /^ +/) && RLENGTH <= 6 {
			for (i = 1; i <= NF; i++) {
				t = $i
				sub(/,$/, "", t)
				if (t !~ /^-/)
					break
				opt[++n] = t
			}
			arg = (i <= NF && $i ~ /^[A-Z]/) ? " ARG" : ""
			for (j = 1; j <= n; j++)
				print opt[j] arg
			n = 0
		}'
}

# Kernel functions starting with $1.
_stopwatch_functions()
{
	local f src=
	for f in "${_STOPWATCH_FUNCS:-}" /sys/kernel/tracing/available_filter_functions \
		/sys/kernel/debug/tracing/available_filter_functions; do
		if [ -n "$f" ] && [ -r "$f" ]; then
			src=$f
			break
		fi
	done
	if [ -n "$src" ] && [[ $1 == [A-Za-z0-9_]*:* ]]; then
		# MODULE:FUNCTION, as the patterns spell it.
		awk -v m="${1%%:*}" -v p="${1#*:}" \
			'$2 == "[" m "]" && index($1, p) == 1 { print m ":" $1 }' "$src"
	elif [ -n "$src" ]; then
		awk -v p="$1" 'index($1, p) == 1 { print $1 }' "$src"
	elif [ -r /proc/kallsyms ]; then
		awk -v p="$1" '$2 ~ /^[tT]$/ && index($3, p) == 1 { print $3 }' /proc/kallsyms
	fi 2>/dev/null | sort -u | head -n 2000
}

# Event names, from "stopwatch events list" (generic, cache, PAPI, PMU/NAME/).
_stopwatch_events()
{
	"$1" events list 2>/dev/null |
		awk '/^  [^ (]/ && $1 !~ /^(rNNNN|TYPE:CONFIG|ALIAS=TYPE:CONFIG)$/ { print $1 }'
}

# Sets COMPREPLY to the words of $2... that start with $1.
_stopwatch_reply()
{
	local cur=$1 w
	shift
	COMPREPLY=()
	for w in "$@"; do
		[[ $w == "$cur"* ]] && COMPREPLY+=("$w")
	done
}

_stopwatch()
{
	local prog=${COMP_WORDS[0]} cur line cmd= verb= prev= w i n opts= want=
	local -a words

	# The words as typed, ':' and '=' included (bash splits at those).
	line=${COMP_LINE:0:COMP_POINT}
	read -ra words <<<"$line"
	n=${#words[@]}
	if [[ $line == *[[:space:]] ]]; then
		cur=
		words+=("")
		n=$((n + 1))
	else
		cur=${words[n-1]}
	fi
	[ "$n" -ge 2 ] && prev=${words[n-2]}
	command -v "$prog" >/dev/null 2>&1 || prog=stopwatch
	# The command, then (skipping options and their arguments) its verb.
	for ((i = 1; i < n - 1; i++)); do
		w=${words[i]}
		if [ -z "$cmd" ]; then
			[[ $w == -* ]] || { cmd=$w; opts=$(_stopwatch_options "$prog" "$cmd"); }
		elif [[ $w == -* ]]; then
			[[ $w != *=* ]] && grep -qxe "$w ARG" <<<"$opts" && i=$((i + 1))
		elif [ -z "$verb" ]; then
			verb=$w
		fi
	done

	if [ -z "$cmd" ]; then
		if [[ $cur == -* ]]; then
			_stopwatch_reply "$cur" --help --version
		else
			mapfile -t words < <(_stopwatch_commands "$prog")
			_stopwatch_reply "$cur" "${words[@]}"
		fi
		return 0
	fi

	# An option's argument.
	[ "$cmd" = probe ] && [ -n "$verb" ] && opts=$(_stopwatch_options "$prog" probe "$verb")
	if [[ $prev == -* && $cur != -* ]] && grep -qxe "$prev ARG" <<<"$opts"; then
		case $prev in
		-e | --event | --events)
			want=events ;;
		--start | --stop | --probe)
			want=functions ;;
		--attach)
			_stopwatch_reply "$cur" auto kretprobe trampoline; return 0 ;;
		--call-graph)
			_stopwatch_reply "$cur" fp kernel user kernel,user none; return 0 ;;
		-u | --unit)
			_stopwatch_reply "$cur" ns us ms s; return 0 ;;
		--by)
			_stopwatch_reply "$cur" pid tgid comm cpu caller retval arg0 arg1 arg2 arg3 arg4 arg5; return 0 ;;
		--debugfs | --sysfs)
			mapfile -t COMPREPLY < <(compgen -d -- "$cur"); return 0 ;;
		-o | --output | -i | --input | --module | --svg | --pprof | --folded)
			[[ $cmd == stat || $cmd == time || $cmd == span ]] && [[ $prev == -i ]] && return 0
			mapfile -t COMPREPLY < <(compgen -f -- "$cur"); return 0 ;;
		*)
			return 0 ;;
		esac
	elif [[ $cur == -* ]]; then
		mapfile -t words < <(awk '!seen[$1]++ { print $1 }' <<<"$opts")
		_stopwatch_reply "$cur" "${words[@]}"
		return 0
	else
		case $cmd in
		time)
			want=functions ;;
		probe)
			if [ -z "$verb" ]; then
				_stopwatch_reply "$cur" add remove list; return 0
			fi
			[ "$verb" = add ] && want=functions ;;
		events)
			case $verb in
			"") _stopwatch_reply "$cur" set resolve list; return 0 ;;
			set | resolve) want=events ;;
			list)
				mapfile -t words < <(ls "${STOPWATCH_SYSFS:-/sys}/bus/event_source/devices" 2>/dev/null)
				_stopwatch_reply "$cur" "${words[@]}"; return 0 ;;
			esac ;;
		help)
			mapfile -t words < <(_stopwatch_commands "$prog")
			_stopwatch_reply "$cur" "${words[@]}"; return 0 ;;
		record)
			mapfile -t COMPREPLY < <(compgen -c -- "$cur"); return 0 ;;
		esac
	fi

	case $want in
	functions)
		mapfile -t COMPREPLY < <(_stopwatch_functions "$cur") ;;
	events)
		# Lists: complete the item after the last comma.
		local head=
		[[ $cur == *,* ]] && head=${cur%,*},
		mapfile -t words < <(_stopwatch_events "$prog")
		_stopwatch_reply "${cur##*,}" "${words[@]}"
		for i in "${!COMPREPLY[@]}"; do
			COMPREPLY[i]=$head${COMPREPLY[i]}
		done
		[ ${#COMPREPLY[@]} -eq 1 ] && [ -n "$head" ] && compopt -o nospace 2>/dev/null ;;
	*)
		return 0 ;;
	esac
	# bash splits words at ':' and '=': give back what follows the last.
	if [[ $cur == *[:=]* ]]; then
		local ch pre=${cur%[:=]*}
		ch=${cur:${#pre}:1}
		if [[ ${COMP_WORDBREAKS-} == *"$ch"* ]]; then
			for i in "${!COMPREPLY[@]}"; do
				COMPREPLY[i]=${COMPREPLY[i]#"$pre$ch"}
			done
		fi
	fi
	return 0
}

complete -F _stopwatch stopwatch
