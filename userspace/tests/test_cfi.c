// SPDX-License-Identifier: GPL-2.0
/*
 * test_cfi.c - unwind tables built from real ELF files: this test program
 * and the C library it runs with.  The expected facts come from the x86-64
 * and AArch64 ABIs: at a function's first instruction the CFA is the stack
 * pointer plus 8 (x86-64, the return address just pushed) or plus 0
 * (arm64, the return address still in x30); _start marks the return
 * address undefined (outermost frame).  Addresses come from the files'
 * symbol tables, read with libelf.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/syscall.h>
#include <gelf.h>
#include <time.h>
#include <unistd.h>

#include "helpers.h"
#include "lib/unwtab.h"
#include "record/cfi.h"

/* @name's address and size in @path's symbol table; 0 when absent. */
static uint64_t sym_size(const char *path, const char *name, uint64_t *size)
{
	int fd = open(path, O_RDONLY);
	Elf_Scn *scn = NULL;
	uint64_t v = 0;
	Elf *e;

	assert_true(fd >= 0);
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	assert_non_null(e);
	while (!v && (scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		size_t i;

		if (!gelf_getshdr(scn, &sh) ||
		    (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM))
			continue;
		d = elf_getdata(scn, NULL);
		for (i = 0; d && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym s;
			const char *n;

			if (!gelf_getsym(d, (int)i, &s) || !s.st_value)
				continue;
			n = elf_strptr(e, sh.sh_link, s.st_name);
			if (n && !strcmp(n, name)) {
				v = s.st_value;
				*size = s.st_size;
				break;
			}
		}
	}
	elf_end(e);
	close(fd);
	return v;
}

/* The ELF address of symbol @name in @path, or 0. */
static uint64_t sym_addr(const char *path, const char *name)
{
	uint64_t size;

	return sym_size(path, name, &size);
}

static void check_valid(const struct sw_cfi_table *t)
{
	const char *why = NULL;
	uint32_t bad = 0;

	assert_true(t->nr > 10);
	if (sw_unw_rows_check(t->rows, t->nr, &bad, &why))
		fail_msg("row %u: %s", bad, why);
}

static void test_self(void **state)
{
	struct sw_cfi_table t;
	struct sw_err err = { "" };
	const struct sw_unw_row *r;
	char self[4096];
	ssize_t n;
	uint64_t a;

	(void)state;
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	assert_true(n > 0);
	self[n] = '\0';
	if (sw_cfi_build(self, &t, &err))
		fail_msg("%s", err.msg);
	check_valid(&t);
	assert_int_equal(t.build_id_size, 20);
	assert_true(t.fdes > 5);
	a = sym_addr(self, "main");
	assert_true(a != 0);
	r = sw_unw_find(t.rows, t.nr, a);
	assert_non_null(r);
#if defined(__x86_64__)
	assert_int_equal(r->cfa, SW_UNW_CFA_SP);
	assert_int_equal(r->cfa_off, 8);
	assert_int_equal(r->ra, SW_UNW_RA_AT);
	assert_int_equal(r->ra_off, -8);
#elif defined(__aarch64__)
	assert_int_equal(r->cfa, SW_UNW_CFA_SP);
	assert_int_equal(r->cfa_off, 0);
	assert_int_equal(r->ra, SW_UNW_RA_LR);
#endif
	assert_int_equal(r->fp, SW_UNW_FP_SAME);
	a = sym_addr(self, "_start");
	assert_true(a != 0);
	r = sw_unw_find(t.rows, t.nr, a + 1);
	assert_non_null(r);
	assert_int_equal(r->cfa, SW_UNW_CFA_END);
	/* Below the first description: nothing. */
	assert_null(sw_unw_find(t.rows, t.nr, t.rows[0].pc - 1));
	sw_cfi_free(&t);
}

/* The C library: big, no frame pointers; its table is valid and quick. */
static void test_libc(void **state)
{
	struct sw_cfi_table t;
	struct sw_err err = { "" };
	struct timespec t0, t1;
	const struct sw_unw_row *r;
	char path[4096] = "";
	FILE *m = fopen("/proc/self/maps", "r");
	char line[4352];
	uint64_t a, adj;
	double s;

	(void)state;
	assert_non_null(m);
	while (fgets(line, sizeof(line), m)) {
		char *p = strchr(line, '/');

		if (p && strstr(p, "/libc.so.6")) {
			p[strcspn(p, "\n")] = '\0';
			snprintf(path, sizeof(path), "%s", p);
			break;
		}
	}
	fclose(m);
	if (!path[0])
		skip();
	/* CPU time: CI runs these tests at low priority beside busy guests. */
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	if (sw_cfi_build(path, &t, &err))
		fail_msg("%s", err.msg);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
	s = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	check_valid(&t);
	assert_true(t.fdes > 1000);
	assert_true(s < 5.0);
	a = sym_addr(path, "__libc_start_main");
	assert_true(a != 0);
	r = sw_unw_find(t.rows, t.nr, a);
	assert_non_null(r);
	assert_int_equal(r->cfa, SW_UNW_CFA_SP);
	/* The text segment's file offset maps back to its ELF address. */
	assert_int_equal(sw_unw_adj(t.seg, t.nseg, 0x7f0000001000ull,
				    t.seg[1].off & ~0xfffull, &adj), 0);
	assert_int_equal(0x7f0000001000ull + adj,
			 t.seg[1].vaddr - (t.seg[1].off & 0xfff));
	assert_int_equal(sw_unw_adj(t.seg, t.nseg, 0x7f0000001000ull,
				    1ull << 40, &adj), -ENOENT);
	sw_cfi_free(&t);
}

#if defined(__x86_64__)
static void sig_nop(int sig)
{
	(void)sig;
}

/*
 * The C library's signal trampoline (__restore_rt, not in the dynamic
 * symbols): the restorer glibc's sigaction() hands the kernel, read back
 * with the raw system call.  Its row is the signal rule with the offsets
 * of the kernel's struct rt_sigframe as the x86-64 ABI fixes them: at the
 * trampoline sp points at the ucontext, whose uc_mcontext (struct
 * sigcontext, after uc_flags, uc_link and uc_stack: 40 bytes) holds rbp,
 * rsp and rip at 40 + 8 * 10, 15 and 16.  The row also covers the byte
 * before it (a handler's return address minus one).
 */
static void test_libc_sigreturn(void **state)
{
	struct { void *handler; unsigned long flags; void *restorer;
		 uint64_t mask; } ks;
	struct sigaction sa = { .sa_handler = sig_nop }, old;
	struct sw_cfi_table t;
	struct sw_err err = { "" };
	const struct sw_unw_row *r;
	Dl_info info;
	uint64_t a;
	int k;

	(void)state;
	assert_int_equal(sigaction(SIGUSR2, &sa, &old), 0);
	assert_int_equal(syscall(SYS_rt_sigaction, SIGUSR2, NULL, &ks, 8), 0);
	assert_int_equal(sigaction(SIGUSR2, &old, NULL), 0);
	assert_non_null(ks.restorer);
	assert_true(dladdr(ks.restorer, &info) && info.dli_fname);
	if (!strstr(info.dli_fname, "libc.so"))
		skip();
	if (sw_cfi_build(info.dli_fname, &t, &err))
		fail_msg("%s", err.msg);
	check_valid(&t);
	assert_true(t.signal >= 1);
	a = (uint64_t)((uintptr_t)ks.restorer - (uintptr_t)info.dli_fbase);
	for (k = -1; k <= 0; k++) {
		r = sw_unw_find(t.rows, t.nr, a + k);
		assert_non_null(r);
		assert_int_equal(r->cfa, SW_UNW_CFA_SIGNAL);
		assert_int_equal(r->cfa_off, 40 + 8 * 15);
		assert_int_equal(r->ra, SW_UNW_RA_AT);
		assert_int_equal(r->ra_off, 40 + 8 * 16);
		assert_int_equal(r->fp, SW_UNW_FP_AT);
		assert_int_equal(r->fp_off, 40 + 8 * 10);
	}
	/* Its last instruction (syscall, 2 bytes) is still the trampoline. */
	r = sw_unw_find(t.rows, t.nr, a + 7);
	assert_int_equal(r->cfa, SW_UNW_CFA_SIGNAL);
	/* Ordinary code is not: __libc_start_main's row is an ordinary one. */
	r = sw_unw_find(t.rows, t.nr, sym_addr(info.dli_fname,
					       "__libc_start_main"));
	assert_int_not_equal(r->cfa, SW_UNW_CFA_SIGNAL);
	sw_cfi_free(&t);
}
#else
static void test_libc_sigreturn(void **state)
{
	(void)state;
	skip();	/* the signal rule is built for x86-64's C library only */
}
#endif

static void test_bad_files(void **state)
{
	struct sw_cfi_table t;
	struct sw_err err = { "" };

	(void)state;
	assert_int_equal(sw_cfi_build("/nonexistent/x", &t, &err), -ENOENT);
	assert_non_null(strstr(err.msg, "/nonexistent/x"));
	assert_int_equal(sw_cfi_build("/proc/self/status", &t, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "not an ELF file"));
	assert_null(t.rows);
}

/*
 * Code built without unwind tables keeps its call-frame information in
 * .debug_frame: the table built from it gives, at every byte of every
 * function of symprog.c, the rule the same code built with .eh_frame
 * gets (the two builds differ in their tables only).
 */
static void test_debug_frame(void **state)
{
	static const char *const fn[] = {
		"sym_hot", "sym_warm", "sym_mid", "_ZNK2sw4demo6Widget4spinEi",
		"_ZN6swdemo4leaf17h0123456789abcdefE", "main",
	};
	struct sw_cfi_table te, td;
	struct sw_err err = { "" };
	char *pe, *pd;
	size_t i;

	(void)state;
	assert_true(asprintf(&pe, "%s/cfiprog-eh", symbin()) > 0);
	assert_true(asprintf(&pd, "%s/cfiprog-debug", symbin()) > 0);
	if (sw_cfi_build(pe, &te, &err))
		fail_msg("%s", err.msg);
	if (sw_cfi_build(pd, &td, &err))
		fail_msg("%s", err.msg);
	check_valid(&td);
	assert_int_equal(te.debug_fdes, 0);
	assert_true(td.debug_fdes >= ARRAY_SIZE(fn));
	for (i = 0; i < ARRAY_SIZE(fn); i++) {
		uint64_t se = 0, sd = 0, ae = sym_size(pe, fn[i], &se),
			 ad = sym_size(pd, fn[i], &sd), k;

		assert_true(ae && ad && se && se == sd);
		for (k = 0; k < se; k++) {
			const struct sw_unw_row *re = sw_unw_find(te.rows, te.nr, ae + k),
						*rd = sw_unw_find(td.rows, td.nr, ad + k);

			assert_non_null(re);
			if (!rd)
				fail_msg("%s+%llu: no row from .debug_frame", fn[i],
					 (unsigned long long)k);
			if (re->cfa != rd->cfa || re->cfa_off != rd->cfa_off ||
			    re->ra != rd->ra || re->ra_off != rd->ra_off ||
			    re->fp != rd->fp || re->fp_off != rd->fp_off)
				fail_msg("%s+%llu: .debug_frame's rule differs from .eh_frame's",
					 fn[i], (unsigned long long)k);
		}
	}
	sw_cfi_free(&te);
	sw_cfi_free(&td);
	free(pe);
	free(pd);
}

/* The module's validation, run on the program's side too. */
static void test_rows_check(void **state)
{
	struct sw_unw_row r[3] = {
		{ .pc = 0x10, .cfa = SW_UNW_CFA_SP, .cfa_off = 8 },
		{ .pc = 0x20, .cfa = SW_UNW_CFA_SP, .cfa_off = 16 },
		{ .pc = 0x30 },
	};
	const char *why = NULL;
	uint32_t bad = 99;

	(void)state;
	assert_int_equal(sw_unw_rows_check(r, 3, &bad, &why), 0);
	assert_ptr_equal(sw_unw_find(r, 3, 0x1f), &r[0]);
	assert_ptr_equal(sw_unw_find(r, 3, 0x20), &r[1]);
	assert_ptr_equal(sw_unw_find(r, 3, 0x1000), &r[2]);
	assert_null(sw_unw_find(r, 3, 0xf));
	assert_null(sw_unw_find(r, 3, 0x100000000ull));
	r[2].pc = 0x20;
	assert_int_equal(sw_unw_rows_check(r, 3, &bad, &why), -EINVAL);
	assert_int_equal(bad, 2);
	assert_string_equal(why, "address not above the previous row's");
	r[2].pc = 0x30;
	r[1].cfa = SW_UNW_CFA_MAX;
	assert_int_equal(sw_unw_rows_check(r, 3, &bad, &why), -EINVAL);
	assert_int_equal(bad, 1);
	assert_string_equal(why, "CFA rule out of range");
	/* A signal rule: saved pc and frame pointer, aligned offsets. */
	r[1] = (struct sw_unw_row){ .pc = 0x20, .cfa = SW_UNW_CFA_SIGNAL,
				    .cfa_off = 160, .fp = SW_UNW_FP_AT,
				    .fp_off = 120, .ra_off = 168 };
	assert_int_equal(sw_unw_rows_check(r, 3, &bad, &why), 0);
	r[1].fp = SW_UNW_FP_SAME;
	assert_int_equal(sw_unw_rows_check(r, 3, &bad, &why), -EINVAL);
	assert_int_equal(bad, 1);
	assert_string_equal(why, "signal rule without saved pc and frame pointer");
	r[1].fp = SW_UNW_FP_AT;
	r[1].ra_off = 164;
	assert_int_equal(sw_unw_rows_check(r, 3, &bad, &why), -EINVAL);
	assert_string_equal(why, "signal rule's offset misaligned or outside the frame");
	r[1].ra_off = 168;
	r[1].cfa_off = SW_UNW_SIGNAL_MAX;
	assert_int_equal(sw_unw_rows_check(r, 3, &bad, &why), -EINVAL);
	r[1].cfa_off = 160;
	r[1].fp_off = -8;
	assert_int_equal(sw_unw_rows_check(r, 3, &bad, &why), -EINVAL);
	assert_string_equal(why, "signal rule's offset misaligned or outside the frame");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_self),
		cmocka_unit_test(test_libc),
		cmocka_unit_test(test_libc_sigreturn),
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_debug_frame),
		cmocka_unit_test(test_rows_check),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
