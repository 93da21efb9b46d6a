// SPDX-License-Identifier: GPL-2.0
/*
 * test_symbol.c - symbols and source lines through libdwfl, against test
 * programs with functions at known lines (tests/symbin): PIE, non-PIE, a
 * shared library, stripped with debuginfo found by .gnu_debuglink and by
 * build-id only; a live process's real mappings; the vdso; a file that
 * changed since recording.
 *
 * The expected addresses come from nm(1), an independent reader, and from
 * the program printing its own function pointers.  A function's first
 * instruction is on the line of its opening brace, one after the line its
 * #line directive names (addr2line(1) agrees).
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>

#include "helpers.h"
#include "streams.h"
#include "record/demangle.h"
#include "record/machine.h"
#include "record/recorder.h"
#include "record/symbol.h"

static char *bin(const char *name)
{
	char *p = NULL;

	assert_true(asprintf(&p, "%s/%s", symbin(), name) > 0);
	return p;
}

static uint64_t file_offset(const char *path, uint64_t vaddr)
{
	int fd = open(path, O_RDONLY);
	uint64_t off = 0;
	size_t n, i;
	Elf *e;

	assert_true(fd >= 0);
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	assert_non_null(e);
	assert_int_equal(elf_getphdrnum(e, &n), 0);
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_LOAD &&
		    vaddr >= ph.p_vaddr && vaddr < ph.p_vaddr + ph.p_filesz)
			off = vaddr - ph.p_vaddr + ph.p_offset;
	}
	elf_end(e);
	close(fd);
	assert_true(off != 0);
	return off;
}

struct ctx {
	struct sw_machine m;
	struct sw_symbolizer s;
	char warned[1024];
};

static void on_warn(void *arg, const char *msg)
{
	struct ctx *c = arg;

	snprintf(c->warned, sizeof(c->warned), "%s", msg);
}

static struct ctx *ctx_new(const char *dipath)
{
	struct ctx *c = calloc(1, sizeof(*c));

	assert_int_equal(sw_machine_init(&c->m), 0);
	assert_int_equal(sw_symbolizer_init(&c->s, &c->m, dipath), 0);
	c->s.warn = on_warn;
	c->s.warn_arg = c;
	return c;
}

static void ctx_free(struct ctx *c)
{
	sw_symbolizer_free(&c->s);
	sw_machine_free(&c->m);
	free(c);
}

/* Resolves @sym of @file (+@delta bytes) and checks name and line. */
static void check(struct ctx *c, const char *file, const char *nmfile,
		  const char *sym, uint64_t delta, const char *want_sym,
		  const char *want_src)
{
	char *path = bin(file), *rp = realpath(path, NULL);
	uint64_t off = file_offset(path, nm_addr(nmfile, sym) + delta);
	const struct sw_symres *r;
	int64_t img, id, id2;

	assert_non_null(rp);
	img = sw_machine_image(&c->m, SW_IMG_FILE, rp, 0, NULL, 0);
	assert_true(img >= 0);
	id = sw_symbolize(&c->s, (uint32_t)img, off, true);
	assert_true(id >= 0);
	r = sw_symres_get(&c->s, (uint32_t)id);
	assert_string_equal(sw_str(&c->m, r->sym), want_sym);
	assert_string_equal(sw_str(&c->m, r->srcline), want_src);
	assert_int_equal(r->sym_off, strcmp(want_sym, "[unknown]") ? delta : 0);
	/* Cached per (image, address). */
	id2 = sw_symbolize(&c->s, (uint32_t)img, off, true);
	assert_int_equal(id2, id);
	free(rp);
	free(path);
}

static void test_pie_nopie_lib(void **state)
{
	struct ctx *c = ctx_new(NULL);

	(void)state;
	check(c, "symprog-pie", "symprog-pie", "sym_hot", 0, "sym_hot",
	      "symprog.c:101");
	check(c, "symprog-pie", "symprog-pie", "sym_warm", 0, "sym_warm",
	      "symprog.c:121");
	check(c, "symprog-pie", "symprog-pie", "main", 0, "main",
	      "symprog.c:161");
	check(c, "symprog-nopie", "symprog-nopie", "sym_mid", 0, "sym_mid",
	      "symprog.c:141");
	check(c, "libsymlib.so", "libsymlib.so", "lib_hot", 0, "lib_hot",
	      "symlib.c:201");
	ctx_free(c);
}

/*
 * C++ and Rust names come out as written (libiberty's demangler), and
 * mangled with no_demangle; C names and kernel names are left alone.
 */
static void test_demangle(void **state)
{
	struct ctx *c = ctx_new(NULL);
	char *dm;

	(void)state;
	check(c, "symprog-pie", "symprog-pie", "_ZNK2sw4demo6Widget4spinEi", 0,
	      "sw::demo::Widget::spin(int) const", "symprog.c:181");
	check(c, "symprog-pie", "symprog-pie",
	      "_ZN6swdemo4leaf17h0123456789abcdefE", 0, "swdemo::leaf",
	      "symprog.c:191");
	ctx_free(c);

	c = ctx_new(NULL);
	c->s.no_demangle = true;
	check(c, "symprog-pie", "symprog-pie", "_ZNK2sw4demo6Widget4spinEi", 0,
	      "_ZNK2sw4demo6Widget4spinEi", "symprog.c:181");
	ctx_free(c);

	dm = sw_demangle("_RNvCs1234_7mycrate3foo");
	assert_non_null(dm);
	assert_string_equal(dm, "mycrate::foo");
	free(dm);
	dm = sw_demangle("_ZNSt6vectorIiSaIiEE9push_backERKi");
	assert_non_null(dm);
	assert_string_equal(dm,
		"std::vector<int, std::allocator<int> >::push_back(int const&)");
	free(dm);
	assert_null(sw_demangle("main"));
	assert_null(sw_demangle("_Zzz"));
	assert_null(sw_demangle("_R"));
	assert_null(sw_demangle(NULL));
}

/* Stripped: the symbols and lines come from separate debuginfo. */
static void test_separate_debuginfo(void **state)
{
	char *root = NULL, *dip = NULL;
	struct ctx *c;

	(void)state;
	/* .gnu_debuglink -> .debug/symprog-stripped.debug (default path) */
	c = ctx_new(NULL);
	check(c, "symprog-stripped", "symprog-pie", "sym_hot", 0, "sym_hot",
	      "symprog.c:101");
	check(c, "symprog-stripped", "symprog-pie", "sym_mid", 0, "sym_mid",
	      "symprog.c:141");
	ctx_free(c);

	/* build-id only: found when its tree is on the path ... */
	root = realpath(symbin(), NULL);
	assert_true(asprintf(&dip, ":.debug:%s/buildid-root", root) > 0);
	c = ctx_new(dip);
	check(c, "symprog-bidonly", "symprog-pie", "sym_warm", 0, "sym_warm",
	      "symprog.c:121");
	ctx_free(c);
	/* ... and not otherwise: no symbols in the stripped file. */
	c = ctx_new(":.debug");
	check(c, "symprog-bidonly", "symprog-pie", "sym_warm", 0, "[unknown]",
	      "[unknown]");
	ctx_free(c);
	free(dip);
	free(root);
}

static unsigned int wrong_build_id(void *arg, const char *path,
				   unsigned char *bid)
{
	(void)arg;
	(void)path;
	memset(bid, 0xab, 20);
	return 20;
}

/* A file rebuilt since recording: refused, not misattributed. */
static void test_stale_build_id(void **state)
{
	struct ctx *c = ctx_new(NULL);

	(void)state;
	c->s.build_id_of = wrong_build_id;
	check(c, "symprog-pie", "symprog-pie", "sym_hot", 0, "[unknown]",
	      "[unknown]");
	assert_non_null(strstr(c->warned, "differs from the recorded abababab"));
	ctx_free(c);
}

/*
 * A module's code gets its source lines from its .ko (a relocatable
 * file, found under kmod_dir by the module's name), placed through the
 * function's kallsyms name and offset: the load address does not matter.
 * A .ko whose build-id is not the recorded one is not used.
 */
static void test_module_srcline(void **state)
{
	static const char ks[] =
		"ffffffffc0a00000 t mod_hot\t[symmod]\n"
		"ffffffffc0a00400 t mod_warm\t[symmod]\n";
	const struct sw_symres *r;
	struct ctx *c = ctx_new(NULL);
	int64_t img, id;

	(void)state;
	assert_int_equal(sw_symbolizer_set_kallsyms(&c->s, ks, sizeof(ks) - 1,
						    NULL, 0), 0);
	c->s.kmod_dir = symbin();
	c->s.krelease = "0.0-test";
	img = sw_machine_image(&c->m, SW_IMG_MODULE, "[symmod]", 0, NULL, 0);
	assert_true(img >= 0);
	id = sw_symbolize(&c->s, (uint32_t)img, 0xffffffffc0a00000ull, true);
	assert_true(id >= 0);
	r = sw_symres_get(&c->s, (uint32_t)id);
	assert_string_equal(sw_str(&c->m, r->sym), "mod_hot");
	assert_string_equal(sw_str(&c->m, r->srcline), "symmod.c:301");
	id = sw_symbolize(&c->s, (uint32_t)img, 0xffffffffc0a00400ull, true);
	assert_true(id >= 0);
	r = sw_symres_get(&c->s, (uint32_t)id);
	assert_string_equal(sw_str(&c->m, r->sym), "mod_warm");
	assert_string_equal(sw_str(&c->m, r->srcline), "symmod.c:321");
	ctx_free(c);

	c = ctx_new(NULL);
	assert_int_equal(sw_symbolizer_set_kallsyms(&c->s, ks, sizeof(ks) - 1,
						    NULL, 0), 0);
	c->s.kmod_dir = symbin();
	c->s.build_id_of = wrong_build_id;
	img = sw_machine_image(&c->m, SW_IMG_MODULE, "[symmod]", 0, NULL, 0);
	id = sw_symbolize(&c->s, (uint32_t)img, 0xffffffffc0a00000ull, true);
	assert_true(id >= 0);
	r = sw_symres_get(&c->s, (uint32_t)id);
	assert_string_equal(sw_str(&c->m, r->sym), "mod_hot");
	assert_string_equal(sw_str(&c->m, r->srcline), "[unknown]");
	assert_non_null(strstr(c->warned, "[symmod]: "));
	assert_non_null(strstr(c->warned, "source lines are unknown"));
	ctx_free(c);
}

/*
 * A real PIE process with a shared library at randomized addresses: its
 * own function pointers, resolved through MMAP records made from its
 * /proc/self/maps, give its own names and lines.
 */
static void test_live_process(void **state)
{
	static const char *const names[] = { "sym_hot", "sym_warm", "sym_mid",
					     "main", "lib_hot" };
	static const char *const lines[] = { "symprog.c:101", "symprog.c:121",
					     "symprog.c:141", "symprog.c:161",
					     "symlib.c:201" };
	char *cmd = NULL, line[1024], *exe = bin("symprog-pie");
	uint64_t addr[5] = { 0 };
	struct tbuf b = { 0 };
	struct ctx *c = ctx_new(NULL);
	size_t off, i;
	FILE *p;

	(void)state;
	assert_true(asprintf(&cmd, "'%s' addrs", exe) > 0);
	p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(line, sizeof(line), p)) {
		unsigned long long lo, hi, pgoff, a;
		char perm[8], path[512], name[64];

		if (sscanf(line, "%63[a-z_]=%llx", name, &a) == 2) {
			for (i = 0; i < 5; i++)
				if (!strcmp(name, names[i]))
					addr[i] = a;
		} else if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %511s", &lo,
				  &hi, perm, &pgoff, path) == 5 &&
			   perm[2] == 'x' && path[0] == '/') {
			tb_mmap(&b, 1, 0, 4242, lo, hi - lo, pgoff, path);
		}
	}
	assert_int_equal(pclose(p), 0);
	for (off = 0; off < b.len;) {
		const struct sw_rec_header *h = (const void *)(b.p + off);

		assert_int_equal(sw_machine_record(&c->m, h), 0);
		off += h->size;
	}
	for (i = 0; i < 5; i++) {
		const struct sw_symres *r;
		uint32_t image;
		uint64_t rel;
		int64_t id;

		assert_true(addr[i] != 0);
		assert_true(sw_machine_locate(&c->m, 4242, addr[i], false,
					      &image, &rel));
		id = sw_symbolize(&c->s, image, rel, true);
		assert_true(id >= 0);
		r = sw_symres_get(&c->s, (uint32_t)id);
		assert_string_equal(sw_str(&c->m, r->sym), names[i]);
		assert_string_equal(sw_str(&c->m, r->srcline), lines[i]);
	}
	free(b.p);
	free(cmd);
	free(exe);
	ctx_free(c);
}

/* The vdso, from the copy a recording keeps. */
static void test_vdso(void **state)
{
	struct sw_facts facts;
	struct ctx *c = ctx_new(NULL);
	const struct sw_symres *r;
	Elf_Scn *scn = NULL;
	uint64_t vaddr = 0;
	int64_t img, id;
	Elf *e;

	(void)state;
	sw_facts_capture(&facts);
	if (!facts.vdso) {
		sw_facts_free(&facts);
		ctx_free(c);
		skip();
	}
	/* Where __vdso_clock_gettime is, by reading the image with libelf. */
	e = elf_memory(facts.vdso, facts.vdso_len);
	assert_non_null(e);
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		size_t i;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNSYM)
			continue;
		d = elf_getdata(scn, NULL);
		for (i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym s;
			const char *n;

			gelf_getsym(d, (int)i, &s);
			n = elf_strptr(e, sh.sh_link, s.st_name);
			if (n && !strcmp(n, "__vdso_clock_gettime"))
				vaddr = s.st_value;
		}
	}
	elf_end(e);
	assert_true(vaddr != 0);
	c->s.vdso = facts.vdso;
	c->s.vdso_size = facts.vdso_len;
	img = sw_machine_image(&c->m, SW_IMG_VDSO, "[vdso]", 0, NULL, 0);
	/* The vdso's file offsets equal its addresses. */
	id = sw_symbolize(&c->s, (uint32_t)img, vaddr + 2, false);
	r = sw_symres_get(&c->s, (uint32_t)id);
	assert_non_null(strstr(sw_str(&c->m, r->sym), "clock_gettime"));
	assert_string_equal(sw_str(&c->m, c->m.image[img].name_id), "[vdso]");
	ctx_free(c);
	sw_facts_free(&facts);
}

static void test_missing_file(void **state)
{
	struct ctx *c = ctx_new(NULL);
	const struct sw_symres *r;
	int64_t img, id;

	(void)state;
	img = sw_machine_image(&c->m, SW_IMG_FILE, "/nonexistent/lib.so", 0,
			       NULL, 0);
	id = sw_symbolize(&c->s, (uint32_t)img, 0x1234, true);
	r = sw_symres_get(&c->s, (uint32_t)id);
	assert_string_equal(sw_str(&c->m, r->sym), "[unknown]");
	assert_string_equal(sw_str(&c->m, c->m.image[img].name_id), "lib.so");
	assert_string_equal(c->warned,
			    "/nonexistent/lib.so: No such file or directory: its samples show as [unknown]");
	ctx_free(c);
}

static void test_build_id_read(void **state)
{
	unsigned char bid[SW_BUILD_ID_MAX];
	char *p = bin("symprog-pie"), *s = bin("symprog-stripped"), hex[41];
	int n;

	(void)state;
	n = sw_elf_build_id(p, bid);
	assert_int_equal(n, 20);
	/* The stripped copy keeps the note. */
	assert_int_equal(sw_elf_build_id(s, bid), 20);
	assert_int_equal(strlen(sw_build_id_hex(hex, bid, 20)), 40);
	assert_int_equal(sw_elf_build_id("/nonexistent", bid), -ENOENT);
	free(p);
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pie_nopie_lib),
		cmocka_unit_test(test_demangle),
		cmocka_unit_test(test_module_srcline),
		cmocka_unit_test(test_separate_debuginfo),
		cmocka_unit_test(test_stale_build_id),
		cmocka_unit_test(test_live_process),
		cmocka_unit_test(test_vdso),
		cmocka_unit_test(test_missing_file),
		cmocka_unit_test(test_build_id_read),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
