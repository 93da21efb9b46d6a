# tests/vm/tap.sh - TAP helpers for the VM test suites (POSIX sh; sourced).
#
# Works under dash, bash and busybox ash.  Suites started by guest-run.sh
# get this library sourced automatically; sourcing it again is harmless.
#
#   ok DESC                 record a pass                        (returns 0)
#   not_ok DESC             record a failure                     (returns 1)
#   skip WHY                record a skipped test                (returns 0)
#   skip_all WHY            record one skip and end the suite (exit 0)
#   check DESC CMD [ARG..]  pass if CMD exits 0; on failure its output is
#                           shown as diagnostics            (returns 0/1)
#   is DESC GOT EXPECTED    pass if the two strings are equal (returns 0/1)
#   cmp_ge DESC A B         pass if number A >= B (also cmp_le, cmp_gt,
#                           cmp_lt, cmp_eq; integers or decimals)
#   diag MSG...             write "# MSG" (arguments joined by spaces;
#                           embedded newlines give several "#" lines)
#   tap_init                reset the counters (guest-run.sh does this once)
#   tap_summary             write a "# ..." summary line of the counts
#   cmdarg NAME             the value of NAME= on the guest's kernel command
#                           line (the last one; empty if none)
#   exact_run CMD [ARG..]   CMD prints "N MIN MAX ..." of exact counts; run
#                           it again (three runs at most) while MIN != MAX
#                           and interrupts were serviced during the run
#
# Test numbers are kept in the file $SW_TAP_STATE, so they run on
# consecutively across suites, each of which runs in its own process.
# Every TAP line goes to stdout and, when SW_TAP_FILE is set, is appended
# to that file too (the TAP stream the host collects).
# Descriptions are prefixed with "$SW_SUITE: " when SW_SUITE is set.
# A test reached 4 s or more after the one before it is preceded by
# "# slow: N s since the previous test" (where a suite's time goes).
# When SW_TAP_TIMES is set, each result also appends "UPTIME N" (seconds
# since boot, to the hundredth) to that file: run.sh adds up the time
# each test took from it (times.txt).

if [ -z "${_SW_TAP_LOADED:-}" ]; then
_SW_TAP_LOADED=1

: "${SW_TAP_STATE:=${TMPDIR:-/tmp}/sw-tap-state.$$}"

_tap_load() {
    _tap_n=0 _tap_pass=0 _tap_fail=0 _tap_skip=0 _tap_t=
    if [ -r "$SW_TAP_STATE" ]; then
        read -r _tap_n _tap_pass _tap_fail _tap_skip _tap_t < "$SW_TAP_STATE" || :
    fi
}

# Seconds since boot, whole (no process started).
_tap_now() {
    _tap_up=0
    if [ -r /proc/uptime ]; then
        read -r _tap_up _tap_idle < /proc/uptime || :
    fi
    _tap_upf=$_tap_up
    _tap_up=${_tap_up%%.*}
}

_tap_save() {
    _tap_now
    printf '%s %s %s %s %s\n' "$_tap_n" "$_tap_pass" "$_tap_fail" "$_tap_skip" \
        "$_tap_up" > "$SW_TAP_STATE"
}

_tap_emit() {
    printf '%s\n' "$1"
    if [ -n "${SW_TAP_FILE:-}" ]; then
        printf '%s\n' "$1" >> "$SW_TAP_FILE"
    fi
}

_tap_nl='
'
_tap_tab=$(printf '\t')

# One-line description, '#' escaped so it is not taken for a directive.
# Most descriptions need neither: they are taken as they are, with no
# process started (a guest's process costs tens of milliseconds).
_tap_desc() {
    case $* in
    *'#'* | *"$_tap_nl"* | *"$_tap_tab"*)
        _tap_d=$(printf '%s' "$*" | tr '\n\t' '  ' | sed 's/#/\\#/g') ;;
    *) _tap_d=$* ;;
    esac
    if [ -n "${SW_SUITE:-}" ]; then
        _tap_d="$SW_SUITE: $_tap_d"
    fi
}

# _tap_result pass|fail|skip DESC [REASON]
_tap_result() {
    _tap_load
    _tap_n=$((_tap_n + 1))
    _tap_desc "$2"
    case $1 in
    pass)
        _tap_pass=$((_tap_pass + 1))
        _tap_line="ok $_tap_n - $_tap_d" ;;
    fail)
        _tap_fail=$((_tap_fail + 1))
        _tap_line="not ok $_tap_n - $_tap_d" ;;
    skip)
        _tap_skip=$((_tap_skip + 1))
        _tap_r=$(printf '%s' "${3:-}" | tr '\n\t' '  ')
        _tap_line="ok $_tap_n - $_tap_d # SKIP $_tap_r" ;;
    esac
    _tap_save
    if [ -n "${_tap_t:-}" ] && [ $((_tap_up - _tap_t)) -ge 4 ]; then
        _tap_emit "# slow: $((_tap_up - _tap_t)) s since the previous test"
    fi
    _tap_emit "$_tap_line"
    if [ -n "${SW_TAP_TIMES:-}" ]; then
        printf '%s %s\n' "$_tap_upf" "$_tap_n" >> "$SW_TAP_TIMES"
    fi
}

tap_init() {
    _tap_n=0 _tap_pass=0 _tap_fail=0 _tap_skip=0
    _tap_save
}

diag() {
    printf '%s\n' "$*" | while IFS= read -r _tap_l; do
        _tap_emit "# $_tap_l"
    done
}

ok() {
    _tap_result pass "$*"
    return 0
}

not_ok() {
    _tap_result fail "$*"
    return 1
}

skip() {
    _tap_result skip "skipped" "$*"
    return 0
}

skip_all() {
    _tap_result skip "all tests" "$*"
    exit 0
}

check() {
    _tap_cd=$1
    shift
    # One output file per suite, reused: no process started for it.
    # (A check inside a checked command is not supported.)
    _tap_out=${TMPDIR:-/tmp}/sw-check.$$
    if "$@" > "$_tap_out" 2>&1; then
        [ ! -s "$_tap_out" ] || cat "$_tap_out"
        ok "$_tap_cd"
        return 0
    else
        _tap_rc=$?
        cat "$_tap_out"
        not_ok "$_tap_cd"
        diag "  command: $*"
        diag "  exit status: $_tap_rc"
        if [ -s "$_tap_out" ]; then
            diag "  output (last 20 lines):"
            tail -n 20 "$_tap_out" | while IFS= read -r _tap_l; do
                diag "    $_tap_l"
            done
        fi
        return 1
    fi
}

is() {
    if [ "$2" = "$3" ]; then
        ok "$1"
        return 0
    fi
    not_ok "$1"
    diag "       got: '$2'"
    diag "  expected: '$3'"
    return 1
}

# Plain integer (optional leading '-') short enough for shell arithmetic.
_tap_isint() {
    set -- "${1#-}"
    case $1 in
    '' | *[!0-9]*) return 1 ;;
    esac
    [ ${#1} -le 18 ]
}

_tap_isnum() {
    awk -v x="$1" 'BEGIN {
        exit !(x ~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/) }'
}

# _tap_cmp OP DESC A B   with OP one of ge le gt lt eq
_tap_cmp() {
    _tap_op=$1 _tap_cd=$2 _tap_a=$3 _tap_b=$4
    if _tap_isint "$_tap_a" && _tap_isint "$_tap_b"; then
        :
    elif ! _tap_isnum "$_tap_a" || ! _tap_isnum "$_tap_b"; then
        not_ok "$_tap_cd"
        diag "  not numbers: '$_tap_a' $_tap_op '$_tap_b'"
        return 1
    fi
    if _tap_isint "$_tap_a" && _tap_isint "$_tap_b"; then
        case $_tap_op in
        ge) [ "$_tap_a" -ge "$_tap_b" ] ;;
        le) [ "$_tap_a" -le "$_tap_b" ] ;;
        gt) [ "$_tap_a" -gt "$_tap_b" ] ;;
        lt) [ "$_tap_a" -lt "$_tap_b" ] ;;
        *) [ "$_tap_a" -eq "$_tap_b" ] ;;
        esac
    else
        awk -v a="$_tap_a" -v b="$_tap_b" -v op="$_tap_op" 'BEGIN {
            a += 0; b += 0
            if (op == "ge") r = (a >= b); else if (op == "le") r = (a <= b)
            else if (op == "gt") r = (a > b); else if (op == "lt") r = (a < b)
            else r = (a == b)
            exit !r }'
    fi
    if [ $? -eq 0 ]; then
        ok "$_tap_cd"
        return 0
    fi
    not_ok "$_tap_cd"
    case $_tap_op in
    ge) _tap_w='>=' ;; le) _tap_w='<=' ;; gt) _tap_w='>' ;;
    lt) _tap_w='<' ;; *) _tap_w='==' ;;
    esac
    diag "  expected $_tap_a $_tap_w $_tap_b"
    return 1
}

cmp_ge() { _tap_cmp ge "$@"; }
cmp_le() { _tap_cmp le "$@"; }
cmp_gt() { _tap_cmp gt "$@"; }
cmp_lt() { _tap_cmp lt "$@"; }
cmp_eq() { _tap_cmp eq "$@"; }

tap_summary() {
    _tap_load
    _tap_emit "# guest totals: $_tap_n tests, pass=$_tap_pass fail=$_tap_fail skip=$_tap_skip"
}

cmdarg() {
    _tap_v='' _tap_f=1
    read -r _tap_l < /proc/cmdline || :
    for _tap_w in $_tap_l; do
        case $_tap_w in "$1"=*) _tap_v=${_tap_w#*=} _tap_f=0 ;; esac
    done
    [ "$_tap_f" = 1 ] || printf '%s\n' "$_tap_v"
}

# Interrupts serviced since boot, all CPUs (/proc/stat's "intr" total).
irqs_total() { awk '$1 == "intr" { print $2 }' /proc/stat; }

# exact_run CMD [ARG..]: CMD's output "N MIN MAX ...", where MIN and MAX are
# exact event counts of intervals that should all be equal.  The events
# count kernel and user, so an interval that an interrupt landed in counts
# the handler's instructions too: while MIN != MAX and the interrupt total
# moved during the run, the run is repeated (three runs at most), and each
# repeat is said (on stderr, as the output is the caller's value).  With
# no interrupt in a run, a difference stands.
exact_run() {
    _er_n=1
    while :; do
        _er_i0=$(irqs_total)
        _er_out=$("$@")
        _er_irqs=$(($(irqs_total) - _er_i0))
        _er_mm=$(printf '%s\n' "$_er_out" | awk '{ print $2, $3 }')
        if [ "${_er_mm% *}" = "${_er_mm#* }" ] || [ "$_er_irqs" = 0 ] ||
            [ "$_er_n" -ge 3 ]; then
            break
        fi
        diag "$*: min ${_er_mm% *} != max ${_er_mm#* } with $_er_irqs interrupts during the run: again (run $((_er_n + 1)) of 3)" >&2
        _er_n=$((_er_n + 1))
    done
    printf '%s\n' "$_er_out"
}

fi
