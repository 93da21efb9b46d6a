# SPDX-License-Identifier: GPL-2.0
# tests/vm/suites/sampler.sh - the oprofile-style sampler in a VM: control
# file and errors, samples landing in a known function with the right
# pid/tid, image resolution after exit, kernel and user call stacks,
# exact accounting when buffers overflow, throttling, stack faults,
# filters, CPU hotplug, repeated start/stop and rmmod while sampling.
#
# x86_64 guests have no PMU: cpu-clock (hrtimer) is sampled and hardware
# events must be refused.  arm64 guests have an emulated PMUv3: cycles
# overflow for real (as a normal IRQ: QEMU has no pseudo-NMI).
#
# Runs in the guest with the repository top as the working directory; uses
# SW_ARCH, SW_REPO and the TAP helpers of tap.sh.

. "$SW_REPO/tests/vm/tap.sh"
. "$SW_REPO/tests/vm/lib.sh"
NCPU=$(grep -c '^processor' /proc/cpuinfo)

if [ "$SW_ARCH" = arm64 ]; then
	EV=cycles
else
	EV=cpu-clock
fi

# --- helpers ---------------------------------------------------------------

# ctl TEXT: here always the sampler file.
ctl() { "$P/swwrite" "$D/sampler" "$1"; }
kprobes_n() { kprobes_list | wc -l; }

# scol ROW COLUMN: a value of the sampler file's per-CPU table ("all" row
# for the sum), by column name.
scol() {
	awk -v r="$1" -v c="$2" '
		$1 == "cpu" { for (i = 1; i <= NF; i++) if ($i == c) k = i; t = 1; next }
		t && $1 == r && k { print $k; found = 1 }
		END { if (!found) print "absent" }' "$D/sampler"
}

# skey KEY: the rest of a "key value" line of the sampler file.
skey() { awk -v k="$1" '$1 == k { $1 = ""; sub(/^ /, ""); print; exit }' "$D/sampler"; }

# lost_sum: all causes of loss, summed over CPUs.
lost_sum() {
	echo $(($(scol all lost_full) + $(scol all lost_nested) + \
		$(scol all lost_stack) + $(scol all lost_throttled)))
}

# save DIR: copy every CPU's relay file (reading consumes it).
save() {
	rm -rf "$1"
	mkdir -p "$1"
	for f in "$D"/samples/cpu*; do
		cat "$f" >"$1/${f##*/}"
	done
}

sd() { "$P/swdump" "$@"; }

# sumv FILE KEY: a key=value of swdump summary output.
sumv() { awk -F= -v k="$2" '$1 == k { print $2 }' "$1"; }

# frac A B: 100 * A / B, integer.
pct() { [ "$2" -gt 0 ] && echo $((100 * $1 / $2)) || echo 0; }

invariant() {
	desc=$1
	taken=$(scol all taken)
	done=$(($(scol all written) + $(lost_sum)))
	is "$desc: taken ($taken) == written + lost ($done) exactly" "$taken" "$done"
	is "$desc: nothing left queued" "$(scol all queued)" 0
}

unload
if [ ! -r "$MOD" ]; then
	skip_all "module $MOD not built"
fi
if [ ! -x "$P/hotspot" ] || [ ! -x "$P/swdump" ]; then
	skip_all "test programs not built (make progs)"
fi
kp_base=$(kprobes_n)

# --- load, files, bad control writes ----------------------------------------

is "loads" "$(load)" ok
check "sampler control file exists" test -f "$D/sampler"
check "samples/ directory exists" test -d "$D/samples"
is "sampler file is root-only rw" "$(stat -c %a "$D/sampler")" 600
is "stopped after load" "$(skey state)" stopped

is "bogus event -> EINVAL" "$(ctl 'start event=bogus-event')" EINVAL
check "last_error names the event" grep -q bogus-event "$D/last_error"
is "freq=0 -> EINVAL" "$(ctl 'start freq=0')" EINVAL
check "last_error names freq=0" grep -q 'freq=0' "$D/last_error"
is "period and freq -> EINVAL" "$(ctl 'start period=100 freq=100')" EINVAL
is "unknown setting -> ENOENT" "$(ctl 'start colour=red')" ENOENT
is "bad callchain -> EINVAL" "$(ctl 'start callchain=sideways')" EINVAL
is "CPU that does not exist -> EINVAL" "$(ctl 'start cpus=4000')" EINVAL
check "last_error names cpus=4000" grep -q 'cpus=4000' "$D/last_error"
is "no such pid -> ESRCH" "$(ctl 'start pid=1073741000')" ESRCH
is "unknown command -> ENOENT" "$(ctl 'begin')" ENOENT
is "stop while stopped -> EINVAL" "$(ctl stop)" EINVAL
if [ "$SW_ARCH" = x86_64 ]; then
	is "event=cycles without a PMU -> ENOENT" "$(ctl 'start event=cycles')" ENOENT
	check "last_error says there is no hardware PMU" \
		grep -q 'no hardware PMU' "$D/last_error"
	is "default event falls back to cpu-clock" "$(ctl start)" ok
	check "sampler file says why cpu-clock" \
		sh -c "grep '^event' '$D/sampler' | grep -q 'cpu-clock.*no hardware PMU'"
	is "stop" "$(ctl stop)" ok
else
	is "default event is cycles on arm64" "$(ctl start)" ok
	check "event line says cycles" sh -c "grep -q '^event *cycles' '$D/sampler'"
	is "stop" "$(ctl stop)" ok
fi
is "still stopped after bad writes" "$(skey state)" stopped
check "no kprobes left by failed starts" test "$(kprobes_n)" -eq "$kp_base"

# --- samples land in the known function, right pid/tid; user stacks ---------

is "start $EV freq=1000 callchain=kernel,user" \
	"$(ctl "start event=$EV freq=1000 callchain=kernel,user")" ok
is "running" "$(skey state)" running
is "second start -> EBUSY" "$(ctl "start event=$EV")" EBUSY
"$P/hotspot" 3000 hot >"$TMP/hot.out" &
hp=$!
wait $hp
is "stop" "$(ctl stop)" ok
invariant "hotspot run"
save "$TMP/hot"
sd summary "$TMP"/hot/cpu* >"$TMP/hot.sum"
is "stream parses without malformed records" "$(sumv "$TMP/hot.sum" bad)" 0
is "one STREAM and one END per CPU" \
	"$(sumv "$TMP/hot.sum" streams) $(sumv "$TMP/hot.sum" ends)" "$NCPU $NCPU"
is "written == SAMPLE records in the stream" \
	"$(sumv "$TMP/hot.sum" samples)" "$(scol all written)"
is "END records total the counters" \
	"$(sumv "$TMP/hot.sum" end_taken) $(sumv "$TMP/hot.sum" end_written)" \
	"$(scol all taken) $(scol all written)"
# a reader must refuse another ABI major: bump the first record's major
cp "$TMP/hot/cpu0" "$TMP/major2"
printf '\002' | dd of="$TMP/major2" bs=1 seek=20 conv=notrunc 2>/dev/null
"$P/swdump" summary "$TMP/major2" >/dev/null 2>"$TMP/major2.err"
is "reader refuses ABI major 2 (exit 3)" "$?" 3
check "and says why" grep -q 'ABI major 2' "$TMP/major2.err"
sd top --pid $hp "$TMP"/hot/cpu* >"$TMP/hot.top"
total=$(awk '{ s += $1 } END { print s + 0 }' "$TMP/hot.top")
inhot=$(awk '$2 == "sw_hot" { print $1 }' "$TMP/hot.top")
diag "hotspot pid $hp: $total samples; top: $(head -n 4 "$TMP/hot.top" | tr '\n' ' ')"
cmp_ge "hotspot got at least 1000 samples" "$total" 1000
if [ -r /proc/lockdep ]; then
	# A checking kernel (lockdep; the debug kernel also has KASAN) runs
	# hotspot's clock reads many times slower: its share of the samples
	# grows.  sw_hot's part of the user work is what the program fixes.
	nuser=$(sd samples --pid $hp "$TMP"/hot/cpu* | awk '$5 == "U"' | wc -l)
	diag "a checking kernel: $nuser user-mode samples; sw_hot $(pct "${inhot:-0}" "$total")% of all"
	cmp_ge ">= 80% of its user-mode samples have ip in sw_hot (a checking kernel)" \
		"$(pct "${inhot:-0}" "$nuser")" 80
else
	cmp_ge ">= 80% of its samples have ip in sw_hot" "$(pct "${inhot:-0}" "$total")" 80
fi
is "every sample of pid $hp has tid $hp" \
	"$(sd tids --pid $hp "$TMP"/hot/cpu* | awk '{ print $2 }' | tr '\n' ' ')" "$hp "
check "samples carry the command name hotspot" \
	sh -c "'$P/swdump' samples --pid $hp '$TMP'/hot/cpu* | tail -n 1 | grep -q ' hotspot\$'"
sd ustack --pid $hp "$TMP"/hot/cpu* >"$TMP/hot.ustack"
leaf=$(grep -c '^sw_hot;' "$TMP/hot.ustack")
chain=$(grep -c '^sw_hot;sw_level2;sw_level1;main;' "$TMP/hot.ustack")
diag "user stacks: $(sort "$TMP/hot.ustack" | uniq -c | sort -rn | head -n 3 | tr '\n' '|')"
cmp_ge ">= 90% of sw_hot samples have user stack sw_hot;sw_level2;sw_level1;main" \
	"$(pct "$chain" "$leaf")" 90

# On arm64 'instructions' overflows too, but QEMU's PMU offers the event
# only with -icount (tests/vm/run.sh --icount); without it the kernel
# refuses it like any event the PMU does not have.
if [ "$SW_ARCH" = arm64 ]; then
	r=$(ctl 'start event=instructions period=1000000')
	if [ "$r" = ok ]; then
		"$P/hotspot" 2000 hot >/dev/null &
		ip=$!
		wait $ip
		is "stop" "$(ctl stop)" ok
		save "$TMP/insn"
		sd top --pid $ip "$TMP"/insn/cpu* >"$TMP/insn.top"
		total=$(awk '{ s += $1 } END { print s + 0 }' "$TMP/insn.top")
		inhot=$(awk '$2 == "sw_hot" { print $1 }' "$TMP/insn.top")
		diag "instructions: $total samples of pid $ip; top: $(head -n 3 "$TMP/insn.top" | tr '\n' ' ')"
		cmp_ge "instructions: pid $ip sampled" "$total" 100
		cmp_ge "instructions: >= 80% of samples in sw_hot" \
			"$(pct "${inhot:-0}" "$total")" 80
		invariant "instructions"
	else
		is "instructions refused by this PMU -> ENOENT" "$r" ENOENT
		check "last_error says the PMU lacks it" \
			grep -q 'not supported by this machine' "$D/last_error"
		skip "instructions not offered by QEMU's PMU without --icount"
	fi
else
	is "event=instructions without a PMU -> ENOENT" \
		"$(ctl 'start event=instructions period=1000000')" ENOENT
fi

# --- kernel call stacks for a known kernel path --------------------------------

is "start callchain=kernel" "$(ctl "start event=$EV freq=1000 callchain=kernel")" ok
"$P/hotspot" 2000 read >/dev/null &
rp=$!
wait $rp
is "stop" "$(ctl stop)" ok
save "$TMP/read"
sd kstack --pid $rp "$TMP"/read/cpu* >"$TMP/read.kstack"
ks=$(wc -l <"$TMP/read.kstack")
kchain=$(grep -c 'vfs_read;ksys_read;' "$TMP/read.kstack")
diag "kernel stacks of read(/dev/zero): $(sort "$TMP/read.kstack" | uniq -c | sort -rn | head -n 2 | tr '\n' '|')"
cmp_ge "read loop: at least 500 kernel-mode samples" "$ks" 500
# On the debug kernel (lockdep, KASAN) the syscall's entry and exit,
# outside vfs_read, take a larger share of the samples.
kmin=80 kwhy=
case $(uname -r) in *-swdebug) kmin=70 kwhy=" (debug kernel: instrumented syscall entry and exit)" ;; esac
diag "kernel stacks of read(/dev/zero): $kchain of $ks under vfs_read;ksys_read"
cmp_ge ">= $kmin% of them show ...vfs_read;ksys_read;... on the stack$kwhy" \
	"$(pct "$kchain" "$ks")" "$kmin"
check "user stacks not recorded when only kernel ones are asked for" \
	sh -c "'$P/swdump' samples --pid $rp '$TMP'/read/cpu* | awk '\$8 != 0 { exit 1 }'"

# --- a process that lived ~100 ms still resolves to its executable -------------

is "start (no stacks)" "$(ctl "start event=$EV freq=1000")" ok
"$P/hotspot" 100 hot >/dev/null &
sp=$!
wait $sp
sleep 1
check "process $sp is gone" test ! -d /proc/$sp
is "stop" "$(ctl stop)" ok
save "$TMP/short"
sd images --pid $sp "$TMP"/short/cpu* >"$TMP/short.img"
diag "images of pid $sp: $(tr '\n' '|' <"$TMP/short.img")"
exe=$(awk '$2 ~ /\/hotspot$/ { print $1 }' "$TMP/short.img")
cmp_ge "its user samples resolve to .../hotspot" "${exe:-0}" 10
is "no user sample unresolved" \
	"$(awk '$2 == "[unresolved]" { print $1 }' "$TMP/short.img")" ""
check "its samples in the executable hit sw_hot or sw_cold" \
	sh -c "'$P/swdump' top --pid $sp '$TMP'/short/cpu* | grep -q ' sw_hot\$'"
sd mmaps --pid $sp "$TMP"/short/cpu* >"$TMP/short.mmaps"
bid=$(awk '$6 ~ /\/hotspot$/ { print $5; exit }' "$TMP/short.mmaps")
diag "hotspot mapping build-id: ${bid:-none}"
if command -v readelf >/dev/null 2>&1; then
	is "MMAP build-id matches readelf -n" "$bid" \
		"$(readelf -n "$P/hotspot" | awk '/Build ID/ { print $3 }')"
else
	cmp_ge "MMAP build-id recorded (40 hex digits)" "${#bid}" 40
fi
sd summary "$TMP"/short/cpu* >"$TMP/short.sum"
cmp_ge "task records present (fork, exit, comm)" \
	"$(($(sumv "$TMP/short.sum" fork) > 0 && $(sumv "$TMP/short.sum" exit) > 0 && $(sumv "$TMP/short.sum" comm) > 0))" 1
cmp_ge "module records present" "$(sumv "$TMP/short.sum" module)" 1
is "one KERNEL record" "$(sumv "$TMP/short.sum" kernel)" 1

# --- filters ----------------------------------------------------------------------

# A starved guest vCPU can run the workload little within a fixed second:
# wait until it has run, then sample until it has been sampled (bounded).
"$P/hotspot" 20000 hot >/dev/null &
fp=$!
i=0
while [ "$(awk '{ print $14 }' /proc/$fp/stat 2>/dev/null || echo 0)" -lt 10 ] && [ $i -lt 100 ]; do
	sleep 0.1; i=$((i + 1))
done
is "start tgid=$fp" "$(ctl "start event=$EV freq=1000 tgid=$fp")" ok
i=0
while [ $i -lt 50 ]; do
	sleep 0.1; i=$((i + 1))
	[ $i -ge 10 ] && [ "$(scol all taken)" != absent ] && [ "$(scol all taken)" -ge 50 ] && break
done
is "stop" "$(ctl stop)" ok
kill $fp 2>/dev/null
wait $fp 2>/dev/null
save "$TMP/tgid"
cmp_ge "tgid filter: other tasks filtered out" "$(scol all filtered)" 1
check "tgid filter: only pid $fp in the stream" \
	sh -c "'$P/swdump' samples '$TMP'/tgid/cpu* | awk -v p=$fp '\$3 != p { exit 1 } END { exit NR == 0 }'"
invariant "tgid filter"

if [ "$NCPU" -ge 2 ]; then
	is "start cpus=0" "$(ctl "start event=$EV freq=1000 cpus=0")" ok
	"$P/hammer" 1
	is "stop" "$(ctl stop)" ok
	cmp_ge "cpus=0: CPU 0 sampled" "$(scol 0 taken)" 1
	is "cpus=0: CPU 1 not sampled" "$(scol 1 taken)" 0
	is "cpus line" "$(skey cpus)" 0
else
	skip "cpu filter needs 2 CPUs"
fi

# --- full buffers: exact accounting -------------------------------------------------

unload
is "load with tiny relay buffers" "$(load subbuf_size=8192 n_subbufs=2)" ok
is "start, nobody reading" "$(ctl "start event=$EV freq=1000 callchain=kernel,user")" ok
"$P/hotspot" 3000 hot >/dev/null
is "stop" "$(ctl stop)" ok
invariant "overflow"
cmp_ge "buffers overflowed: lost_full > 0" "$(scol all lost_full)" 1
is "no other loss cause" \
	"$(scol all lost_nested) $(scol all lost_stack) $(scol all lost_throttled)" "0 0 0"
save "$TMP/full"
sd summary "$TMP"/full/cpu* >"$TMP/full.sum"
is "every written sample is in the stream, exactly" \
	"$(sumv "$TMP/full.sum" samples)" "$(scol all written)"
cmp_le "the stream holds at most 2 x 8 KiB per CPU" \
	"$(cat "$TMP"/full/cpu* | wc -c)" $((NCPU * 16384))
diag "overflow: taken=$(scol all taken) written=$(scol all written) lost_full=$(scol all lost_full)"
# reading frees the buffers: the next session writes again
is "restart after reading" "$(ctl "start event=$EV freq=1000")" ok
sleep 1
is "stop" "$(ctl stop)" ok
cmp_ge "samples written again" "$(scol all written)" 1
invariant "after reading"
unload

# --- throttling and stack faults ------------------------------------------------------

is "load" "$(load)" ok
is "start max_rate=100" "$(ctl "start event=$EV freq=1000 max_rate=100")" ok
"$P/hotspot" 2000 hot >/dev/null
is "stop" "$(ctl stop)" ok
cmp_ge "over max_rate: lost_throttled > 0" "$(scol all lost_throttled)" 1
invariant "throttled"

# The kernel's own limit (guest-run.sh keeps it at 100000 and switches
# its lowering off): at 250 samples/s a tick allows one sample, so an
# event asking for 1000/s is stopped in every tick it runs.
pcpct=/proc/sys/kernel/perf_cpu_time_max_percent
pcrate=/proc/sys/kernel/perf_event_max_sample_rate
prate() { echo 25 >$pcpct && echo "$1" >$pcrate && echo 0 >$pcpct; }
if prate 250; then
	is "start freq=1000 with perf_event_max_sample_rate 250" \
		"$(ctl "start event=$EV freq=1000")" ok
	"$P/hotspot" 1000 hot >/dev/null
	is "stop" "$(ctl stop)" ok
	diag "kernel limit 250/s: taken $(scol all taken), kthrottled $(scol all kthrottled)"
	cmp_ge "the kernel's throttling is counted: kthrottled > 0" "$(scol all kthrottled)" 1
	is "and is no loss of the sampler's: lost_throttled 0" "$(scol all lost_throttled)" 0
	invariant "kernel-throttled"
	"$SW" record -e $EV -F 1000 -o "$TMP/kthr.swd" -- "$P/hotspot" 500 hot \
		>/dev/null 2>"$TMP/kthr.err"
	is "record under the kernel's limit exits 0" "$?" 0
	check "record says the kernel throttled the event" \
		grep -q 'the kernel throttled the event [1-9][0-9]* times' "$TMP/kthr.err"
	check "and names the limit in force, 250/s" \
		grep -q 'perf_event_max_sample_rate is 250/s' "$TMP/kthr.err"
	prate 100000
	is "limit back to 100000" "$(cat $pcrate)" 100000
else
	skip "perf_event_max_sample_rate not writable here"
	prate 100000
fi

"$P/hotspot" 30000 badfp >/dev/null &
bp=$!
sleep 1
is "start callchain=user tgid=$bp (keep)" \
	"$(ctl "start event=$EV freq=1000 callchain=user tgid=$bp")" ok
sleep 1
is "stop" "$(ctl stop)" ok
cmp_ge "faulting user stacks are kept and counted" "$(scol all ustack_fault)" 1
is "nothing lost for them" "$(scol all lost_stack)" 0
is "start stack_fail=drop" \
	"$(ctl "start event=$EV freq=1000 callchain=user tgid=$bp stack_fail=drop")" ok
sleep 1
is "stop" "$(ctl stop)" ok
kill $bp
wait $bp
cmp_ge "stack_fail=drop: lost_stack > 0" "$(scol all lost_stack)" 1
invariant "stack_fail=drop"

# --- CPU offline and online while sampling ---------------------------------------------

C1=/sys/devices/system/cpu/cpu1/online
if [ "$NCPU" -ge 2 ] && [ -w "$C1" ]; then
	is "start" "$(ctl "start event=$EV freq=1000 callchain=kernel,user")" ok
	"$P/hammer" 4 &
	hm=$!
	sleep 1
	echo 0 >"$C1"
	is "cpu1 offline" "$(cat "$C1")" 0
	sleep 1
	off1=$(scol 1 taken)
	echo 1 >"$C1"
	is "cpu1 online" "$(cat "$C1")" 1
	sleep 1
	is "stop" "$(ctl stop)" ok
	wait $hm
	cmp_gt "cpu1 sampled again after coming back" "$(scol 1 taken)" "$off1"
	is "no counter errors" "$(scol 1 error)" 0
	invariant "hotplug"
	save "$TMP/hp"
	sd summary "$TMP"/hp/cpu* >"$TMP/hp.sum"
	is "cpu1's stream was closed and reopened" \
		"$(sumv "$TMP/hp.sum" streams) $(sumv "$TMP/hp.sum" ends)" \
		"$((NCPU + 1)) $((NCPU + 1))"
	is "stream parses" "$(sumv "$TMP/hp.sum" bad)" 0
else
	skip "CPU hotplug needs a second, hot-pluggable CPU"
fi

# --- start and stop repeatedly ----------------------------------------------------------

n=0
nr=$(rounds 10 20)
for i in $(seq 1 "$nr"); do
	[ "$(ctl "start event=$EV freq=2000 callchain=kernel,user")" = ok ] &&
		[ "$(ctl stop)" = ok ] && n=$((n + 1))
done
is "$nr start/stop cycles" "$n" "$nr"
check "no kprobes left after stop" test "$(kprobes_n)" -eq "$kp_base"
unload

# --- module parameters ---------------------------------------------------------------------

is "insmod sample=$EV sample_freq=1000 callchain=kernel,user" \
	"$(load sample=$EV sample_freq=1000 callchain=kernel,user)" ok
is "sampling from load on" "$(skey state)" running
sleep 1
cmp_ge "samples taken" "$(scol all taken)" 1
unload
if [ "$SW_ARCH" = x86_64 ]; then
	dmesg -C 2>/dev/null
	is "insmod sample=cycles without a PMU -> ENOENT" "$(load sample=cycles)" ENOENT
	check "kernel log says no hardware PMU" sh -c "dmesg | grep -q 'no hardware PMU'"
fi
is "insmod subbuf_size=100 -> EINVAL" "$(load subbuf_size=100)" EINVAL
is "insmod stage_size=5000 -> EINVAL" "$(load stage_size=5000)" EINVAL
is "insmod callchain=bogus with sample= -> EINVAL" \
	"$(load sample=$EV callchain=bogus)" EINVAL
check "module not loaded after bad parameters" sh -c '! test -d /sys/module/stopwatch'

# --- a stage ring too small for the largest sample is refused at start ----------

is "load stage_size=4096" "$(load stage_size=4096)" ok
is "127-frame kernel+user stacks in a 4096-byte ring -> EINVAL" \
	"$(ctl "start event=$EV freq=1000 callchain=kernel,user kstack=127 ustack=127")" EINVAL
diag "$(cat "$D/last_error")"
check "the error names stage_size=4096 and the least size, 8192" \
	grep -q 'stage_size=4096 .*the least is 8192' "$D/last_error"
is "nothing started" "$(skey state)" stopped
is "64-frame stacks fit: start" \
	"$(ctl "start event=$EV freq=1000 callchain=kernel,user kstack=64 ustack=64")" ok
"$P/hammer" 1
is "stop" "$(ctl stop)" ok
is "64-frame stacks in 4096 bytes: nothing lost_full" "$(scol all lost_full)" 0
cmp_ge "64-frame stacks in 4096 bytes: samples written" "$(scol all written)" 1
unload

# --- mmap records of execs, mmaps and dlopens while recording ---------------------
# The kprobe on perf_event_mmap defers each record to the mapping task's
# task_work (d_path and the build-id may sleep under PREEMPT_RT): every
# exec during the session must have its record, none lost.  Nothing
# drains the buffers meanwhile, so the samples are kept few (100 Hz):
# at 1000 Hz a slow kernel's run filled them, and records were lost for
# want of room, not by the deferral this checks.

is "load" "$(load)" ok
is "start (user stacks)" "$(ctl "start event=$EV freq=100 callchain=user")" ok
sh -c "for i in \$(seq 1 60); do '$P/hotspot' 1 hot >/dev/null; done" &
ex=$!
if command -v python3 >/dev/null 2>&1; then
	python3 -c '
import ctypes, ctypes.util, mmap
for n in ("z", "m", "crypt", "bz2", "lzma"):
    p = ctypes.util.find_library(n)
    if p: ctypes.CDLL(p)
for i in range(200):
    m = mmap.mmap(-1, 4096, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS,
                  prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
    m.close()
' &
	py=$!
	wait $py && dl=ok || dl=fail
else
	dl=none
fi
wait $ex
is "stop" "$(ctl stop)" ok
save "$TMP/mm"
sd mmaps "$TMP"/mm/cpu* >"$TMP/mm.mmaps"
is "60 execs of hotspot: 60 processes with a hotspot MMAP record" \
	"$(awk '$6 ~ /\/hotspot$/ { print $1 }' "$TMP/mm.mmaps" | sort -u | wc -l)" 60
is "no mmap record lost: no deferred slot" "$(scol all sb_mmap_pool)" 0
is "no mmap record lost: task" "$(scol all sb_mmap_task)" 0
is "no mmap record lost: memory" "$(scol all sb_mmap_nomem)" 0
diag "execs and maps: written $(scol all written), lost_full $(scol all lost_full), sb_written $(scol all sb_written), sb_lost $(scol all sb_lost)"
is "no side-band record lost" "$(scol all sb_lost)" 0
if [ "$dl" = ok ]; then
	diag "python3 $py: $(awk -v p=$py '$1 == p { print $6 }' "$TMP/mm.mmaps" | sort | uniq -c | sort -rn | head -n 4 | tr '\n' '|')"
	cmp_ge "python3 $py: its 200 anonymous PROT_EXEC maps recorded" \
		"$(awk -v p=$py '$1 == p && $6 == "//anon"' "$TMP/mm.mmaps" | wc -l)" 200
else
	skip "dlopen and anonymous exec maps: no python3 in this guest ($dl)"
fi
unload

# --- kernel addresses follow kptr_restrict ------------------------------------------

kr0=$(cat /proc/sys/kernel/kptr_restrict)
is "load" "$(load)" ok
for kr in 2 1; do
	echo $kr >/proc/sys/kernel/kptr_restrict
	is "kptr_restrict=$kr: start callchain=kernel" \
		"$(ctl "start event=$EV freq=1000 callchain=kernel")" ok
	"$P/hammer" 1
	is "kptr_restrict=$kr: stop" "$(ctl stop)" ok
	save "$TMP/kr$kr"
	sd samples "$TMP"/kr$kr/cpu* >"$TMP/kr$kr.samples"
	nk=$(awk '$5 == "K"' "$TMP/kr$kr.samples" | wc -l)
	nz=$(awk '$5 == "K" && $6 != "0x0"' "$TMP/kr$kr.samples" | wc -l)
	nf=$(awk '$5 == "K" && $7 != 0' "$TMP/kr$kr.samples" | wc -l)
	cmp_ge "kptr_restrict=$kr: kernel-mode samples" "$nk" 1
	if [ $kr = 2 ]; then
		is "kptr_restrict=2: sampler says kaddr hidden" \
			"$(skey kaddr | cut -d' ' -f1)" hidden
		is "kptr_restrict=2: every kernel ip is 0" "$nz" 0
		is "kptr_restrict=2: no kernel frames" "$nf" 0
		sd summary "$TMP"/kr2/cpu* >"$TMP/kr2.sum"
		cmp_ge "kptr_restrict=2: MODULE and KERNEL records present" \
			"$(($(sumv "$TMP/kr2.sum" module) * $(sumv "$TMP/kr2.sum" kernel)))" 1
		is "kptr_restrict=2: no MODULE record with a base" \
			"$(sumv "$TMP/kr2.sum" module_with_base)" 0
		is "kptr_restrict=2: the KERNEL record has no reference address" \
			"$(sumv "$TMP/kr2.sum" kernel_with_ref)" 0
	else
		is "kptr_restrict=1 (root): sampler says kaddr shown" "$(skey kaddr)" shown
		is "kptr_restrict=1 (root): every kernel ip shown" "$nz" "$nk"
		cmp_ge "kptr_restrict=1 (root): kernel frames" "$nf" 1
		sd summary "$TMP"/kr1/cpu* >"$TMP/kr1.sum"
		is "kptr_restrict=1 (root): the KERNEL record has its reference address" \
			"$(sumv "$TMP/kr1.sum" kernel_with_ref)" 1
	fi
done
echo "$kr0" >/proc/sys/kernel/kptr_restrict
unload

# --- rmmod while sampling under load, with a reader, 3 times (6 in a long run) ------------------

rm_ok=0 rm_run=0
nr=$(rounds 3 6)
for i in $(seq 1 "$nr"); do
	load sample=$EV sample_freq=2000 callchain=kernel,user >/dev/null || continue
	"$P/hammer" 2 &
	hm=$!
	# a reader holding cpu0 open across the unload, reading again once
	# it is done (the flag file), not a fixed while later
	rm -f "$TMP/unloaded"
	(exec 3<"$D/samples/cpu0" && cat <&3 >/dev/null &&
		while [ ! -e "$TMP/unloaded" ]; do sleep 0.1; done &&
		cat <&3 >/dev/null) 2>/dev/null &
	rd=$!
	sleep 0.5
	[ "$(skey state)" = running ] && [ "$(scol all taken)" -gt 0 ] &&
		rm_run=$((rm_run + 1))
	rmmod stopwatch && rm_ok=$((rm_ok + 1))
	: >"$TMP/unloaded"
	kill $hm 2>/dev/null
	wait $hm
	wait $rd
done
rm -f "$TMP/unloaded"
is "$nr loads + rmmods while sampling succeeded" "$rm_ok" "$nr"
is "sampling was running in every round" "$rm_run" "$nr"
check "module gone afterwards" sh -c '! test -d /sys/module/stopwatch'
check "no kprobes left afterwards" test "$(kprobes_n)" -eq "$kp_base"

rm -rf "$TMP"
