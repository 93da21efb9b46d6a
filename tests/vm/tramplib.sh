# SPDX-License-Identifier: GPL-2.0
# tests/vm/tramplib.sh - what the trampoline suites share (tramp,
# trampstress; POSIX sh, sourced after lib.sh).
#
#   TR                the tracing directory (tracefs or debugfs/tracing)
#   direct_calls      whether this kernel has ftrace direct calls (x86_64
#                     6.1 and 6.12, arm64 6.12; not arm64 6.1): its API is
#                     in kallsyms where it exists
#   SW                the stopwatch program for this guest's architecture
#   TRAMP_MAX_ARGS    the argument registers a trampoline may pass (6 on
#                     x86_64, 8 on arm64)
#   btf_args FUNC..   "FUNC N" for each FUNC the kernel's BTF describes, N
#                     its argument registers as the stopwatch program
#                     counts them for args= (what the module checks args=
#                     against)
#   hot_functions N   the first N candidates this kernel can trace (in
#                     available_filter_functions, not on the kprobes
#                     blacklist) whose arguments BTF says are all in
#                     registers, one a line
#   hot_wrappers N    without BTF: the first N hot system calls' wrappers
#                     this kernel can trace (args=1: the registers)
#   shared_name EX..  a traceable name several functions share, not EX
#   tramp_adds FUNC.. the probes line putting each FUNC on a trampoline,
#                     with its args= from BTF (a FUNC BTF does not
#                     describe is left out)
#   hot_adds FUNC..   the same for functions the last hot_functions
#                     returned, from the argument counts it looked up
#   on_trampolines    how many probes in stats are on a trampoline
#   calls_total       the calls of every probe in stats, summed
#
# Hot candidates: functions that return promptly (so that the calls
# counted in a second are many), called by file, memory, fork, exec and
# scheduler work; hot_functions keeps those whose arguments BTF says are
# all in registers.  Listed in order of preference; some are inlined or
# renamed on one kernel or another, so there are more than 100.

TR=/sys/kernel/tracing
[ -r $TR/available_filter_functions ] || TR=/sys/kernel/debug/tracing

direct_calls() {
	awk '$3 == "register_ftrace_direct" { f = 1 } END { exit !f }' /proc/kallsyms
}

HOT_CANDIDATES="fput dput kfree kmem_cache_free getname putname path_put vfs_getattr
security_file_permission rw_verify_area link_path_walk generic_permission
inode_permission touch_atime __fsnotify_parent try_to_wake_up wake_up_process
__wake_up handle_mm_fault __handle_mm_fault find_vma hrtimer_interrupt
update_process_times account_process_tick irq_exit_rcu handle_irq_event
vfs_fstat vfs_statx lookup_fast step_into d_alloc_parallel __d_lookup_rcu
generic_file_read_iter seq_read_iter filemap_read filemap_get_pages
copy_page_to_iter copy_page_from_iter folio_mark_accessed __folio_put
alloc_pages_mpol __alloc_pages __alloc_pages_noprof free_unref_page
free_unref_folios release_pages vma_alloc_folio vma_alloc_folio_noprof
__kmalloc __kmalloc_noprof kmem_cache_alloc kmem_cache_alloc_noprof
kmem_cache_alloc_lru_noprof kmalloc_trace __kmalloc_cache_noprof
kvfree kfree_rcu_monitor mntput dget_parent lockref_get_not_dead
lockref_put_return security_file_open do_dentry_open vfs_open
complete_walk terminate_walk path_init filename_lookup user_path_at_empty
__check_object_size check_stack_object __virt_addr_valid
fd_install alloc_fd get_unused_fd_flags put_unused_fd close_fd
filp_close __fput_sync task_work_add task_work_run
anon_vma_clone anon_vma_fork unlink_anon_vmas free_pgtables
__pte_offset_map __pte_offset_map_lock do_wp_page wp_page_copy
page_add_file_rmap folio_add_file_rmap_ptes folio_add_lru
lru_add_fn lru_add_drain lru_add_drain_cpu mod_objcg_state
obj_cgroup_charge __mod_memcg_lruvec_state __mod_lruvec_page_state
__count_memcg_events __might_fault
percpu_counter_add_batch up_read down_read_trylock
update_rq_clock ttwu_do_activate
select_task_rq_fair enqueue_task_fair dequeue_task_fair
pick_next_task_fair put_prev_task_fair check_preempt_wakeup
update_curr update_load_avg __update_load_avg_se
__update_load_avg_cfs_rq reweight_entity update_cfs_group
generic_fillattr do_filp_open path_openat may_open getname_flags
do_sys_openat2 build_open_flags alloc_empty_file __fput cp_new_stat
vfs_fstatat kernel_clone copy_process wake_up_new_task sched_fork dup_mm
exit_mmap unmap_vmas tlb_finish_mmu do_open open_last_lookups lookup_open
d_lookup __d_lookup walk_component path_lookupat mm_release exit_files
put_files_struct __mmput mmput dup_fd alloc_pid free_pid
__memcg_slab_post_alloc_hook kmalloc_slab __kmem_cache_alloc_node
__kmem_cache_free vm_mmap_pgoff ksys_mmap_pgoff mmap_region vm_area_alloc
vm_area_free vm_area_dup __vm_munmap do_vmi_munmap get_unmapped_area
vm_unmapped_area perf_event_mmap setup_arg_pages do_execveat_common
bprm_execve begin_new_exec load_elf_binary"

# awk: the kprobes blacklist (awk variable bl) into deny[].
DENY_AWK='while ((getline l < bl) > 0) { k = split(l, a, /[ \t]+/); deny[a[k]] = 1 }'
KP_BLACKLIST=/sys/kernel/debug/kprobes/blacklist

TRAMP_MAX_ARGS=6
[ "$SW_ARCH" = arm64 ] && TRAMP_MAX_ARGS=8

# The program's "probe add" writes its probes line into a directory of
# plain files given as --debugfs (no module needed): the args= it wrote.
btf_args() {
	_bd=$TMP/btf-args
	rm -rf "$_bd"
	mkdir -p "$_bd"
	: >"$_bd/stats"
	: >"$_bd/probes"
	"$SW" probe add --debugfs "$_bd" "$@" >"$_bd/out" 2>&1
	tr ' ' '\n' <"$_bd/probes" | awk '
		/^\+/ { f = substr($0, 2); next }
		/^args=/ && f != "" { print f, substr($0, 6); f = "" }'
}

# One pass over each list (a grep per candidate took 45 s under TCG).
# traceable: the names read, one a line, that ftrace can trace and that
# are not on the kprobes blacklist, in the order read.
traceable() {
	awk -v bl=$KP_BLACKLIST -v av="$TR/available_filter_functions" '
		BEGIN {
			'"$DENY_AWK"'
			while ((getline l < av) > 0) if (l !~ /[ \t]/) ok[l] = 1
		}
		$0 in ok && !($0 in deny)'
}

hot_functions() {
	echo "$HOT_CANDIDATES" | tr ' ' '\n' | grep . | traceable >"$TMP/hot.cand"
	# shellcheck disable=SC2046
	btf_args $(cat "$TMP/hot.cand") >"$TMP/hot.args"
	awk -v n="$1" -v max=$TRAMP_MAX_ARGS -v args="$TMP/hot.args" '
		BEGIN { while ((getline l < args) > 0) { split(l, a, " "); na[a[1]] = a[2] } }
		($0 in na) && na[$0] <= max && got < n { print; got++ }' "$TMP/hot.cand"
}

# Hot system calls that return to their caller as they were entered (no
# exit, exec, fork, clone or sigreturn): their wrappers, __x64_sys_NAME
# or __arm64_sys_NAME, take one argument, the registers, on every kernel.
HOT_SYSCALLS="read write pread64 pwrite64 readv writev openat close newfstatat
newfstat newlstat newstat statx lseek getdents64 mmap munmap mprotect brk
madvise getppid getpid gettid getuid geteuid getgid getegid nanosleep
clock_nanosleep clock_gettime gettimeofday sched_yield rt_sigprocmask
rt_sigaction ioctl fcntl dup dup2 dup3 pipe2 access faccessat faccessat2
readlink readlinkat uname prlimit64 getrlimit set_tid_address
set_robust_list futex wait4 poll ppoll select pselect6 epoll_wait sysinfo
umask getcwd chdir fchdir times getrusage kill tgkill sigaltstack rseq
getrandom"

# hot_wrappers N: without BTF, the first N of those wrappers this kernel
# can trace (not on the kprobes blacklist), one a line; args=1 for each.
hot_wrappers() {
	case $SW_ARCH in arm64) _pre=__arm64_sys_ ;; *) _pre=__x64_sys_ ;; esac
	echo "$HOT_SYSCALLS" | tr ' ' '\n' | grep . | sed "s/^/$_pre/" |
		traceable | head -n "$1"
}

# shared_name EXCLUDE...: the first name several traceable functions of
# the kernel share (not a module's, not on the blacklist, not EXCLUDE).
shared_name() {
	awk -v bl=$KP_BLACKLIST -v ex="$*" '
		BEGIN { '"$DENY_AWK"'; split(ex, x, " "); for (i in x) deny[x[i]] = 1 }
		!/[ \t]/ && !($0 in deny) && n[$0]++ == 1 { print; exit }' \
		"$TR/available_filter_functions"
}

# adds_line: "FUNC ARGS" lines in, the probes line putting each on a
# trampoline out.
adds_line() { awk '{ printf "+%s attach=trampoline args=%s ", $1, $2 }'; }

tramp_adds() {
	btf_args "$@" | adds_line
}

# hot_adds FUNC..: tramp_adds for functions hot_functions returned, from
# the argument counts it looked up (one BTF lookup fewer: the program
# reads the kernel's BTF for each, seconds under TCG).
hot_adds() {
	printf '%s\n' "$@" | awk -v args="$TMP/hot.args" '
		BEGIN { while ((getline l < args) > 0) { split(l, a, " "); na[a[1]] = a[2] } }
		$0 in na { print $0, na[$0] }' | adds_line
}

on_trampolines() {
	awk 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "attach") k = i; next }
		k && $k == 1 { n++ } END { print n + 0 }' "$D/stats"
}

calls_total() {
	awk 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "calls") k = i; next }
		k { s += $k } END { print s + 0 }' "$D/stats"
}
