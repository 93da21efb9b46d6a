// SPDX-License-Identifier: GPL-2.0
/*
 * upoint.c - resolve user points (BINARY:SYMBOL, BINARY:GLOB,
 * BINARY:0xOFFSET) to files and file offsets with elfutils.
 */
#include <ctype.h>
#include <dirent.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <gelf.h>
#include <glob.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/sort.h"
#include "control/upoint.h"

#if defined(__x86_64__)
#define SW_EM EM_X86_64
#elif defined(__aarch64__)
#define SW_EM EM_AARCH64
#else
#define SW_EM EM_NONE
#endif

bool sw_upoint_is_user(const char *pat, const char *avail)
{
	const char *colon = strchr(pat, ':'), *p;
	char tag[256];
	size_t len;

	if (!colon)
		return false;
	if (memchr(pat, '/', colon - pat) || !strncmp(colon + 1, "0x", 2))
		return true;
	len = (size_t)(colon - pat);
	if (!avail || len + 3 > sizeof(tag))
		return !avail;
	snprintf(tag, sizeof(tag), "[%.*s]", (int)len, pat);
	for (p = strstr(avail, tag); p; p = strstr(p + 1, tag))
		if (p[len + 2] == '\n' || p[len + 2] == '\0' ||
		    p[len + 2] == ' ')
			return false;
	return true;
}

/* Is @path a readable ELF file of this machine? */
static bool sw_elf_ok(const char *path)
{
	unsigned char h[20];
	bool ok = false;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	if (read(fd, h, sizeof(h)) == (ssize_t)sizeof(h) &&
	    !memcmp(h, ELFMAG, SELFMAG) && h[EI_CLASS] == ELFCLASS64)
		ok = SW_EM == EM_NONE ||
		     (h[EI_DATA] == ELFDATA2LSB && (h[18] | h[19] << 8) == SW_EM);
	close(fd);
	return ok;
}

/* Does file name @base answer to @want: itself, WANT.so*, libWANT.so*? */
static bool sw_lib_name_is(const char *base, const char *want)
{
	size_t n = strlen(want);

	if (!strcmp(base, want))
		return true;
	if (!strncmp(base, want, n) && !strncmp(base + n, ".so", 3))
		return true;
	return !strncmp(base, "lib", 3) && !strncmp(base + 3, want, n) &&
	       !strncmp(base + 3 + n, ".so", 3);
}

/* With -p: the first file of /proc/PID/maps answering to @want. */
static int sw_find_in_maps(pid_t pid, const char *want, char *out,
			   size_t size)
{
	char path[64], line[PATH_MAX + 128], *file, *base;
	int ret = -ENOENT;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (ret && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		file = strchr(line, '/');
		if (!file || strstr(file, " (deleted)"))
			continue;
		base = strrchr(file, '/') + 1;
		if (sw_lib_name_is(base, want) && sw_elf_ok(file) &&
		    (size_t)snprintf(out, size, "%s", file) < size)
			ret = 0;
	}
	fclose(f);
	return ret;
}

/* The first file of @dir answering to @want (sorted, exact name first). */
static int sw_find_in_dir(const char *dir, const char *want, char *out,
			  size_t size)
{
	struct dirent **ents;
	int n, i, ret = -ENOENT;
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, want);
	if (sw_elf_ok(path) && (size_t)snprintf(out, size, "%s", path) < size)
		return 0;
	n = scandir(dir, &ents, NULL, versionsort);
	if (n < 0)
		return -ENOENT;
	for (i = 0; i < n; i++) {
		if (ret && sw_lib_name_is(ents[i]->d_name, want)) {
			snprintf(path, sizeof(path), "%s/%s", dir,
				 ents[i]->d_name);
			if (sw_elf_ok(path) &&
			    (size_t)snprintf(out, size, "%s", path) < size)
				ret = 0;
		}
		free(ents[i]);
	}
	free(ents);
	return ret;
}

/* The directories of a ld.so.conf file, "include" globs followed. */
static int sw_ldconf(const char *file, const char *want, char *out,
		     size_t size, int depth)
{
	char line[PATH_MAX];
	int ret = -ENOENT;
	glob_t g;
	size_t i;
	FILE *f;

	if (depth > 4)
		return -ENOENT;
	f = fopen(file, "re");
	if (!f)
		return -ENOENT;
	while (ret && fgets(line, sizeof(line), f)) {
		char *s = line, *e;

		s[strcspn(s, "#\n")] = '\0';
		while (isspace((unsigned char)*s))
			s++;
		e = s + strlen(s);
		while (e > s && isspace((unsigned char)e[-1]))
			*--e = '\0';
		if (!strncmp(s, "include", 7) && isspace((unsigned char)s[7])) {
			s += 8;
			while (isspace((unsigned char)*s))
				s++;
			if (glob(s, 0, NULL, &g))
				continue;
			for (i = 0; ret && i < g.gl_pathc; i++)
				ret = sw_ldconf(g.gl_pathv[i], want, out, size,
						depth + 1);
			globfree(&g);
		} else if (*s == '/') {
			ret = sw_find_in_dir(s, want, out, size);
		}
	}
	fclose(f);
	return ret;
}

/* Each directory of a ':'-separated list. */
static int sw_find_in_list(const char *list, const char *want, char *out,
			   size_t size)
{
	char dir[PATH_MAX];
	const char *p = list, *c;

	while (p && *p) {
		c = strchrnul(p, ':');
		if (c > p && (size_t)(c - p) < sizeof(dir)) {
			snprintf(dir, sizeof(dir), "%.*s", (int)(c - p), p);
			if (!sw_find_in_dir(dir, want, out, size))
				return 0;
		}
		p = *c ? c + 1 : NULL;
	}
	return -ENOENT;
}

/* BINARY of a pattern to a file: see upoint.h. */
static int sw_find_file(const char *bin, pid_t pid, char *out,
			struct sw_err *err)
{
	static const char *const std_dirs =
#if defined(__x86_64__)
		"/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu:"
#elif defined(__aarch64__)
		"/lib/aarch64-linux-gnu:/usr/lib/aarch64-linux-gnu:"
#endif
		"/lib64:/usr/lib64:/lib:/usr/lib:/usr/local/lib";
	char found[PATH_MAX];
	const char *env;

	if (strchr(bin, '/')) {
		if (!realpath(bin, out))
			return sw_err_set(err, -errno, "%s: %s", bin,
					  strerror(errno));
		return 0;
	}
	if ((pid > 0 && !sw_find_in_maps(pid, bin, found, sizeof(found))) ||
	    ((env = getenv("LD_LIBRARY_PATH")) &&
	     !sw_find_in_list(env, bin, found, sizeof(found))) ||
	    !sw_ldconf("/etc/ld.so.conf", bin, found, sizeof(found), 0) ||
	    !sw_find_in_list(std_dirs, bin, found, sizeof(found)) ||
	    ((env = getenv("PATH")) &&
	     !sw_find_in_list(env, bin, found, sizeof(found)))) {
		if (!realpath(found, out))
			return sw_err_set(err, -errno, "%s: %s", found,
					  strerror(errno));
		return 0;
	}
	if (pid > 0)
		return sw_err_set(err, -ENOENT,
				  "'%s': process %d maps no such file, and no library or program of that name is in the loader's directories or $PATH",
				  bin, (int)pid);
	return sw_err_set(err, -ENOENT,
			  "'%s': no library or program of that name in the loader's directories or $PATH (give a path)",
			  bin);
}

/* A function symbol: its name, ELF address, binding, IFUNC or not. */
struct sw_fsym {
	const char *name;
	GElf_Addr addr;
	GElf_Xword size;
	int bind;
	bool ifunc;
	uint64_t off;
};

/* The file offset of ELF address @a through the PT_LOAD headers. */
static int sw_addr_to_off(Elf *elf, GElf_Addr a, uint64_t *off)
{
	size_t i, n;
	GElf_Phdr ph;

	if (elf_getphdrnum(elf, &n))
		return -EINVAL;
	for (i = 0; i < n; i++) {
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (a >= ph.p_vaddr && a < ph.p_vaddr + ph.p_filesz) {
			*off = a - ph.p_vaddr + ph.p_offset;
			return 0;
		}
	}
	return -ENOENT;
}

/* Preferred name of two at one address: global, fewer '_', shorter. */
static bool sw_fsym_better(const struct sw_fsym *a, const struct sw_fsym *b)
{
	size_t ua = strspn(a->name, "_"), ub = strspn(b->name, "_");

	if ((a->bind == STB_GLOBAL) != (b->bind == STB_GLOBAL))
		return a->bind == STB_GLOBAL;
	if (ua != ub)
		return ua < ub;
	if (strlen(a->name) != strlen(b->name))
		return strlen(a->name) < strlen(b->name);
	return strcmp(a->name, b->name) < 0;
}

static int sw_fsym_cmp(const void *a, const void *b)
{
	const struct sw_fsym *x = a, *y = b;

	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return sw_fsym_better(x, y) ? -1 : sw_fsym_better(y, x);
}

static int sw_push(struct sw_upoints *out, const char *path,
		   const char *base, const char *what, uint64_t off)
{
	struct sw_upoint *nv, *p;
	char *c;

	nv = realloc(out->v, (out->n + 1) * sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	out->v = nv;
	p = &out->v[out->n];
	memset(p, 0, sizeof(*p));
	if (asprintf(&p->name, "%s:%s", base, what) < 0) {
		p->name = NULL;
		return -ENOMEM;
	}
	for (c = p->name; *c; c++)
		if (*c <= ' ' || *c >= 0x7f || strchr(",=@/\\", *c))
			*c = '_';
	p->path = strdup(path);
	if (!p->path) {
		free(p->name);
		return -ENOMEM;
	}
	p->offset = off;
	out->n++;
	return 0;
}

/* Is BASE:NAME among @out's points (a static name seen twice)? */
static bool sw_has_name(const struct sw_upoints *out, const char *base,
			const char *name)
{
	size_t i, bl = strlen(base);

	for (i = 0; i < out->n; i++)
		if (!strncmp(out->v[i].name, base, bl) &&
		    out->v[i].name[bl] == ':' &&
		    !strcmp(out->v[i].name + bl + 1, name))
			return true;
	return false;
}

/* The function symbols of @mod with file offsets, sorted by offset. */
static int sw_fsyms(Dwfl_Module *mod, Elf *elf, struct sw_fsym **out,
		    size_t *nout)
{
	struct sw_fsym *v = NULL, *nv;
	size_t n = 0;
	int i, nsym = dwfl_module_getsymtab(mod);

	for (i = 1; i < nsym; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		GElf_Word shndx;
		const char *name = dwfl_module_getsym_info(mod, i, &sym, &addr,
							   &shndx, NULL, NULL);
		int type = GELF_ST_TYPE(sym.st_info);
		uint64_t off;

		if (!name || !*name || sym.st_shndx == SHN_UNDEF ||
		    (type != STT_FUNC && type != STT_GNU_IFUNC))
			continue;
		if (sw_addr_to_off(elf, addr, &off))
			continue;
		nv = realloc(v, (n + 1) * sizeof(*v));
		if (!nv) {
			free(v);
			return -ENOMEM;
		}
		v = nv;
		v[n].name = name;
		v[n].addr = addr;
		v[n].size = sym.st_size;
		v[n].bind = GELF_ST_BIND(sym.st_info);
		v[n].ifunc = type == STT_GNU_IFUNC;
		v[n].off = off;
		n++;
	}
	sw_qsort(v, n, sizeof(*v), sw_fsym_cmp);
	*out = v;
	*nout = n;
	return 0;
}

/* BINARY:0xOFFSET: must be a function's first instruction if one covers it. */
static int sw_expand_offset(const char *pat, const char *path,
			    const char *base, const char *what,
			    struct sw_fsym *v, size_t n,
			    struct sw_upoints *out, struct sw_err *err)
{
	char *end;
	uint64_t off;
	size_t i;

	errno = 0;
	off = strtoull(what, &end, 16);
	if (errno || *end || end == what + 2)
		return sw_err_set(err, -EINVAL,
				  "'%s': bad offset (hexadecimal, 0x...)", pat);
	for (i = 0; i < n; i++) {
		if (v[i].off == off)
			break;
		if (off > v[i].off && off < v[i].off + v[i].size)
			return sw_err_set(err, -EINVAL,
					  "'%s': 0x%" PRIx64 " is inside %s+0x%" PRIx64 ": a timed point must be a function's first instruction (its return is taken from the stack there)",
					  pat, off, v[i].name, off - v[i].off);
	}
	if (i == n)
		fprintf(stderr,
			"stopwatch: %s: no function symbol starts at 0x%" PRIx64 "; it must be a function's first instruction\n",
			path, off);
	return sw_push(out, path, base, what, off);
}

/* BINARY:SYMBOL or BINARY:GLOB over @v (sorted by offset). */
static int sw_expand_syms(const char *pat, const char *path,
			  const char *base, const char *what,
			  struct sw_fsym *v, size_t n,
			  struct sw_upoints *out, struct sw_err *err)
{
	bool glob = sw_pattern_is_glob(what);
	size_t i, hits = 0, locals = 0, first = n, nifunc = 0;
	uint64_t last = UINT64_MAX;
	int ret;

	for (i = 0; i < n; i++) {
		if (fnmatch(what, v[i].name, 0))
			continue;
		if (v[i].ifunc) {
			nifunc++;
			continue;
		}
		if (!glob) {
			/* One global wins; several locals are ambiguous. */
			if (v[i].bind != STB_LOCAL) {
				first = i;
				locals = 0;
				break;
			}
			if (first == n)
				first = i;
			if (v[i].off != v[first].off)
				locals++;
			continue;
		}
		/* Aliases share an offset: the best name comes first. */
		if (v[i].off == last || sw_has_name(out, base, v[i].name))
			continue;
		last = v[i].off;
		ret = sw_push(out, path, base, v[i].name, v[i].off);
		if (ret)
			return ret;
		hits++;
	}
	if (!glob && first < n && locals)
		return sw_err_set(err, -EINVAL,
				  "'%s': %zu local functions named %s in %s; name one by BINARY:0xOFFSET",
				  pat, locals + 1, what, path);
	if (!glob && first < n)
		return sw_push(out, path, base, v[first].name, v[first].off);
	if (hits)
		return 0;
	if (nifunc)
		return sw_err_set(err, -EINVAL,
				  "'%s': %s is an IFUNC in %s: its address is a resolver run once at load; probe the implementation it picks",
				  pat, what, path);
	return sw_err_set(err, -ENOENT, "'%s': no function %s in %s%s", pat,
			  what, path,
			  n ? "" : " (it has no function symbols: stripped, and no debuginfo found)");
}

int sw_upoint_expand(const char *pat, pid_t pid, const char *dbg,
		     struct sw_upoints *out, struct sw_err *err)
{
	char *debuginfo_path = (char *)(dbg ? dbg : "-.debug:/usr/lib/debug");
	Dwfl_Callbacks cb = {
		.find_elf = dwfl_build_id_find_elf,
		.find_debuginfo = dwfl_standard_find_debuginfo,
		.section_address = dwfl_offline_section_address,
		.debuginfo_path = &debuginfo_path,
	};
	const char *colon = strrchr(pat, ':'), *what, *base;
	char bin[PATH_MAX], path[PATH_MAX];
	struct sw_fsym *v = NULL;
	Dwfl_Module *mod;
	Dwfl *dwfl = NULL;
	Elf *elf = NULL;
	GElf_Ehdr eh;
	GElf_Addr bias;
	size_t n = 0;
	int fd = -1, ret;

	if (!colon || colon == pat || !colon[1] ||
	    (size_t)(colon - pat) >= sizeof(bin))
		return sw_err_set(err, -EINVAL,
				  "invalid user point '%s': expected BINARY:SYMBOL, BINARY:GLOB or BINARY:0xOFFSET",
				  pat);
	what = colon + 1;
	if (strpbrk(what, " \t\n,=@"))
		return sw_err_set(err, -EINVAL,
				  "invalid user point '%s': a symbol has no white space, ',', '=' or '@'",
				  pat);
	snprintf(bin, sizeof(bin), "%.*s", (int)(colon - pat), pat);
	ret = sw_find_file(bin, pid, path, err);
	if (ret)
		return ret;
	base = strrchr(path, '/') + 1;

	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = sw_err_set(err, -errno, "%s: %s", path, strerror(errno));
		goto cleanup;
	}
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh)) {
		ret = sw_err_set(err, -EINVAL,
				 "'%s': %s is not an ELF file", pat, path);
		goto cleanup;
	}
	if (eh.e_type != ET_EXEC && eh.e_type != ET_DYN) {
		ret = sw_err_set(err, -EINVAL,
				 "'%s': %s is neither an executable nor a shared library",
				 pat, path);
		goto cleanup;
	}
	if (SW_EM != EM_NONE && eh.e_machine != SW_EM) {
		ret = sw_err_set(err, -EINVAL,
				 "'%s': %s is for another machine (e_machine %u)",
				 pat, path, eh.e_machine);
		goto cleanup;
	}
	dwfl = dwfl_begin(&cb);
	if (!dwfl) {
		ret = sw_err_set(err, -ENOMEM, "elfutils: %s", dwfl_errmsg(-1));
		goto cleanup;
	}
	dwfl_report_begin(dwfl);
	/* At the link-time addresses: bias 0 for ET_DYN too. */
	mod = dwfl_report_elf(dwfl, base, path, -1, 0, false);
	dwfl_report_end(dwfl, NULL, NULL);
	if (!mod || !dwfl_module_getelf(mod, &bias)) {
		ret = sw_err_set(err, -EINVAL, "'%s': %s: %s", pat, path,
				 dwfl_errmsg(-1));
		goto cleanup;
	}
	ret = sw_fsyms(mod, elf, &v, &n);
	if (ret)
		goto cleanup;
	if (!strncmp(what, "0x", 2))
		ret = sw_expand_offset(pat, path, base, what, v, n, out, err);
	else
		ret = sw_expand_syms(pat, path, base, what, v, n, out, err);
cleanup:
	free(v);
	if (dwfl)
		dwfl_end(dwfl);
	if (elf)
		elf_end(elf);
	if (fd >= 0)
		close(fd);
	return ret;
}

void sw_upoints_free(struct sw_upoints *u)
{
	size_t i;

	for (i = 0; i < u->n; i++) {
		free(u->v[i].name);
		free(u->v[i].path);
	}
	free(u->v);
	u->v = NULL;
	u->n = 0;
}

char *sw_upoint_ctl(const struct sw_upoint *p)
{
	char *buf = NULL;
	size_t len = 0;
	const char *c;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	fputs("uprobe=", f);
	for (c = p->path; *c; c++) {
		if (isspace((unsigned char)*c) || *c == '\\')
			fprintf(f, "\\%03o", (unsigned char)*c);
		else
			fputc(*c, f);
	}
	fprintf(f, ":0x%" PRIx64, p->offset);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

int sw_expansion_add_upoints(struct sw_expansion *e,
			     const struct sw_upoints *u)
{
	char **nn, **ne;
	size_t i;

	if (!u->n)
		return 0;
	nn = realloc(e->name, (e->n + u->n) * sizeof(*nn));
	if (!nn)
		return -ENOMEM;
	e->name = nn;
	ne = realloc(e->extra, (e->n + u->n) * sizeof(*ne));
	if (!ne)
		return -ENOMEM;
	if (!e->extra)
		memset(ne, 0, e->n * sizeof(*ne));
	e->extra = ne;
	for (i = 0; i < u->n; i++) {
		size_t j;

		for (j = 0; j < e->n && strcmp(e->name[j], u->v[i].name); j++)
			;
		if (j < e->n)
			continue;	/* named by two patterns */
		e->name[e->n] = strdup(u->v[i].name);
		e->extra[e->n] = sw_upoint_ctl(&u->v[i]);
		if (!e->name[e->n] || !e->extra[e->n]) {
			free(e->name[e->n]);
			free(e->extra[e->n]);
			return -ENOMEM;
		}
		e->n++;
	}
	return 0;
}

/* Can @pat be told a user point without the kernel's module list? */
static bool sw_obviously_user(const char *pat)
{
	return sw_upoint_is_user(pat, NULL) &&
	       (strchr(pat, '/') || strstr(pat, ":0x"));
}

int sw_points_expand(char *const *pat, size_t npat, pid_t pid,
		     const char *dbg, struct sw_pattern_src *src,
		     struct sw_expansion *e, struct sw_err *err)
{
	struct sw_upoints u = { 0 };
	const char **kpat = NULL;
	size_t i, nk = 0;
	bool need_src = false, all_colon = true;
	int ret;

	memset(e, 0, sizeof(*e));
	if (!npat)
		return sw_err_set(err, -EINVAL, "no function pattern given");
	for (i = 0; i < npat; i++) {
		need_src |= !sw_obviously_user(pat[i]);
		all_colon &= strchr(pat[i], ':') != NULL;
	}
	if (need_src) {
		ret = sw_pattern_read_system(src, err);
		/* Without the kernel's lists, BINARY:NAME is a user point. */
		if (ret && !all_colon)
			return ret;
		need_src = !ret;
	}
	kpat = calloc(npat, sizeof(*kpat));
	if (!kpat)
		return -ENOMEM;
	for (i = 0; i < npat; i++)
		if (!sw_upoint_is_user(pat[i], need_src ? src->avail : NULL))
			kpat[nk++] = pat[i];
	if (nk && sw_pattern_needs_kallsyms(kpat, nk, src))
		sw_pattern_read_kallsyms(src);
	ret = nk ? sw_pattern_expand(kpat, nk, src, e, err) : 0;
	for (i = 0; !ret && i < npat; i++)
		if (sw_upoint_is_user(pat[i], need_src ? src->avail : NULL))
			ret = sw_upoint_expand(pat[i], pid, dbg, &u, err);
	if (!ret)
		ret = sw_expansion_add_upoints(e, &u);
	if (ret == -ENOMEM)
		sw_err_set(err, ret, "out of memory");
	sw_upoints_free(&u);
	free(kpat);
	return ret;
}
