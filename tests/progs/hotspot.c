// SPDX-License-Identifier: GPL-2.0
/*
 * hotspot MS [MODE] - a workload with a known profile for the sampler tests,
 * running for MS milliseconds.  Built with frame pointers.
 *
 *   hot    (default) main -> sw_level1 -> sw_level2 -> sw_hot, which does
 *          nine tenths of the work; sw_cold the remaining tenth
 *   read   read(2) of /dev/zero in 1 MiB chunks: time in the kernel's
 *          read path (ksys_read -> vfs_read -> read_zero)
 *   badfp  like hot, but sw_badfp_loop spins with the frame-pointer
 *          register pointing at an unmapped address, so every user stack
 *          walk faults on its first frame
 *
 * Prints "pid=PID tid=TID" when done.
 */
#include "common.h"
#include <fcntl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/*
 * Every function keeps its own frame record and its caller's: no inlining,
 * no sibling calls, and sw_hot/sw_cold are not leaves (compilers may skip
 * the frame record of a leaf), so the user stack of a sample in sw_hot is
 * exactly sw_hot;sw_level2;sw_level1;main.
 */
#define NOINLINE __attribute__((noinline, noipa, \
				optimize("no-optimize-sibling-calls")))

static volatile unsigned long sink;

NOINLINE void sw_store(unsigned long x)
{
	sink = x;
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

NOINLINE void sw_hot(unsigned long n)
{
	unsigned long i, x = sink;

	for (i = 0; i < n; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	sw_store(x);
}

NOINLINE void sw_cold(unsigned long n)
{
	unsigned long i, x = sink;

	for (i = 0; i < n; i++)
		x = x * 2862933555777941757UL + 3037000493UL;
	sw_store(x);
}

/* Spins with a frame pointer no stack walk can follow. */
NOINLINE void sw_badfp_loop(unsigned long n)
{
#if defined(__x86_64__)
	__asm__ volatile("mov %%rbp, %%r12\n\t"
			 "mov $0x1000, %%rbp\n\t"
			 "1: dec %0\n\t"
			 "jnz 1b\n\t"
			 "mov %%r12, %%rbp"
			 : "+r"(n) : : "r12", "cc", "memory");
#elif defined(__aarch64__)
	__asm__ volatile("mov x19, x29\n\t"
			 "mov x29, #0x1000\n\t"
			 "1: subs %0, %0, #1\n\t"
			 "b.ne 1b\n\t"
			 "mov x29, x19"
			 : "+r"(n) : : "x19", "cc", "memory");
#else
	sw_hot(n);
#endif
}

NOINLINE void sw_level2(long long end, int badfp)
{
	while (now_ns() < end) {
		if (badfp) {
			sw_badfp_loop(200000);
		} else {
			sw_hot(90000);
			sw_cold(10000);
		}
	}
}

NOINLINE void sw_level1(long long end, int badfp)
{
	sw_level2(end, badfp);
	sw_store(0);
}

static void read_zero_loop(long long end)
{
	static char buf[1 << 20];
	int fd = open("/dev/zero", O_RDONLY);

	if (fd < 0) {
		perror("/dev/zero");
		exit(1);
	}
	while (now_ns() < end)
		if (read(fd, buf, sizeof(buf)) != sizeof(buf))
			break;
	close(fd);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 2 ? argv[2] : "hot";
	long long end;
	long ms;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: %s MS [hot|read|badfp]\n", argv[0]);
		return 2;
	}
	ms = arg_long(argv[0], "MS", argv[1]);
	end = now_ns() + ms * 1000000LL;
	if (!strcmp(mode, "hot")) {
		sw_level1(end, 0);
	} else if (!strcmp(mode, "badfp")) {
		sw_level1(end, 1);
	} else if (!strcmp(mode, "read")) {
		read_zero_loop(end);
	} else {
		fprintf(stderr, "%s: mode must be hot, read or badfp\n", argv[0]);
		return 2;
	}
	printf("pid=%d tid=%ld\n", getpid(), (long)syscall(SYS_gettid));
	return 0;
}
