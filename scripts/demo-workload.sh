# SPDX-License-Identifier: GPL-2.0
# scripts/demo-workload.sh - sourced by scripts/run.sh and the VM demo suite:
# the default probe set, a short workload that exercises it, and the guided
# first run (sw_demo): the commands a user would type, each shown before
# its output.

SW_DEMO_PROBES=${SW_DEMO_PROBES:-vfs_read,vfs_write,do_sys_openat2,hrtimer_nanosleep}

sw_demo_workload() {
	dd if=/dev/zero of=/dev/null bs=1 count=2000 2>/dev/null
	for i in 1 2 3 4 5 6 7 8 9 10; do
		cat /proc/version /proc/uptime >/dev/null
		sleep 0.01
	done
	ls -lR /etc >/dev/null 2>&1 || ls -lR /bin >/dev/null 2>&1
}

# sw_demo_run CMD...: show a command as typed, then run it; the first
# failure's status is kept in sw_demo_rc.
sw_demo_run() {
	printf '\n$ %s\n' "$*" | sed "s|$SW_DEMO_BIN|stopwatch|"
	"$@"
	sw_demo_r=$?
	[ "$sw_demo_r" = 0 ] || [ "$sw_demo_rc" != 0 ] || sw_demo_rc=$sw_demo_r
}

# sw_demo_note TEXT: a line of explanation between the commands.
sw_demo_note() {
	printf '\n# %s\n' "$*"
}

# sw_demo SW: the guided first run with the stopwatch program SW, which
# loads stopwatch.ko when it is not (SW_DEMO_MODULE: from that file).
# A function sw_demo_check, where defined, runs before the probes are
# removed (the demo suite's checks).  Returns the first failing status.
sw_demo() {
	SW_DEMO_BIN=$1
	set -- ${SW_DEMO_MODULE:+--module "$SW_DEMO_MODULE"}
	sw_demo_probes=$(echo "$SW_DEMO_PROBES" | tr ',' ' ')
	sw_demo_rc=0
	sw_demo_note "Time two functions while one command runs: every call dd makes, only dd's."
	sw_demo_note "attach=auto (the default) puts a trampoline on each function where the kernel has ftrace direct calls, else a kretprobe."
	sw_demo_run "$SW_DEMO_BIN" time "$@" vfs_read vfs_write -- \
		dd if=/dev/zero of=/dev/null bs=1 count=2000 status=none
	sw_demo_note "Probes that stay: add them, run anything, read them with stat (the attach column says how each is attached)."
	# shellcheck disable=SC2086
	sw_demo_run "$SW_DEMO_BIN" probe add "$@" $sw_demo_probes
	sw_demo_note "workload: dd, cat, sleep 0.01 (ten times), ls -lR"
	sw_demo_workload
	sw_demo_run "$SW_DEMO_BIN" stat
	if command -v sw_demo_check >/dev/null; then
		sw_demo_check
	fi
	# shellcheck disable=SC2086
	sw_demo_run "$SW_DEMO_BIN" probe remove $sw_demo_probes
	return $sw_demo_rc
}
