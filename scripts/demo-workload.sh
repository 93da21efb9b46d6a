# SPDX-License-Identifier: GPL-2.0
# scripts/demo-workload.sh - sourced by scripts/run.sh and the VM demo suite:
# the default probe set and a short workload that exercises it.

SW_DEMO_PROBES=${SW_DEMO_PROBES:-vfs_read,vfs_write,do_sys_openat2,hrtimer_nanosleep}

sw_demo_workload() {
	dd if=/dev/zero of=/dev/null bs=1 count=20000 2>/dev/null
	for i in 1 2 3 4 5 6 7 8 9 10; do
		cat /proc/version /proc/uptime >/dev/null
		sleep 0.01
	done
	ls -lR /usr/share/doc >/dev/null 2>&1 || ls -lR /bin >/dev/null 2>&1
}
