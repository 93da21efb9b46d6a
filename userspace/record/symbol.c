// SPDX-License-Identifier: GPL-2.0
/*
 * symbol.c - symbols and source lines for sampled addresses, with elfutils
 * libdwfl for ELF images.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <elfutils/libdwfl.h>

#include "record/demangle.h"
#include "record/symbol.h"

#define SW_MAX_LOADS 16

/**
 * struct sw_dso - the symbolizer's state for one image.
 * @tried:     loading was attempted
 * @kernel:    a kernel or module image (addresses go through @kname)
 * @kother:    a file was found for it, but of another build (build-id)
 * @cb:        @dwfl's callbacks (libdwfl keeps the pointer: they live as
 *             long as the session)
 * @dwfl:      libdwfl session holding the one module, or NULL
 * @mod:       the module
 * @bias:      libdwfl's load bias of @mod (0: reported at link addresses)
 * @nload:     PT_LOAD segments
 * @load:      their file offset, size and virtual address
 * @perfmap:   JIT symbols of an anonymous image
 * @kname:     kernel and module images: the ELF file's function symbols by
 *             name (an address is found from its kallsyms name and offset,
 *             whatever KASLR or the module loader did); NULL name = a name
 *             the file has twice, not to be trusted
 * @nkname:    their number
 */
struct sw_dso {
	bool tried;
	bool kernel;
	bool kother;
	Dwfl_Callbacks cb;
	Dwfl *dwfl;
	Dwfl_Module *mod;
	GElf_Addr bias;
	unsigned int nload;
	struct {
		uint64_t offset;
		uint64_t filesz;
		uint64_t vaddr;
	} load[SW_MAX_LOADS];
	struct sw_symtab perfmap;
	struct sw_kname {
		const char *name;
		GElf_Addr addr;
	} *kname;
	size_t nkname;
};

static struct sw_dso *sw_dso_of(struct sw_machine *m, uint32_t image)
{
	struct sw_image *img = &m->image[image];

	if (!img->priv)
		img->priv = calloc(1, sizeof(struct sw_dso));
	return img->priv;
}

static void sw_dso_free(struct sw_dso *d)
{
	if (!d)
		return;
	if (d->dwfl)
		dwfl_end(d->dwfl);
	sw_symtab_free(&d->perfmap);
	free(d->kname);
	free(d);
}

char *sw_build_id_hex(char *out, const unsigned char *bid, unsigned int size)
{
	unsigned int i;

	for (i = 0; i < size; i++)
		sprintf(out + 2 * i, "%02x", bid[i]);
	out[2 * size] = '\0';
	return out;
}

/* The build-id note of an opened ELF. */
static int sw_elf_note_build_id(Elf *e, unsigned char *bid)
{
	Elf_Scn *scn = NULL;
	size_t i, nph;

	/* Program headers first (works on stripped files and the vdso). */
	if (!elf_getphdrnum(e, &nph)) {
		for (i = 0; i < nph; i++) {
			GElf_Phdr ph;
			Elf_Data *data;
			GElf_Nhdr nh;
			size_t off = 0, noff, doff;

			if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_NOTE)
				continue;
			data = elf_getdata_rawchunk(e, (int64_t)ph.p_offset,
						    ph.p_filesz,
						    ph.p_align == 8 ? ELF_T_NHDR8 :
						    ELF_T_NHDR);
			if (!data)
				continue;
			while ((off = gelf_getnote(data, off, &nh, &noff,
						   &doff)) > 0) {
				if (nh.n_type == NT_GNU_BUILD_ID &&
				    nh.n_namesz == 4 &&
				    !memcmp((char *)data->d_buf + noff, "GNU",
					    4) &&
				    nh.n_descsz && nh.n_descsz <= SW_BUILD_ID_MAX) {
					memcpy(bid, (char *)data->d_buf + doff,
					       nh.n_descsz);
					return (int)nh.n_descsz;
				}
			}
		}
	}
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;
		GElf_Nhdr nh;
		size_t off = 0, noff, doff;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		data = elf_getdata(scn, NULL);
		if (!data)
			continue;
		while ((off = gelf_getnote(data, off, &nh, &noff, &doff)) > 0)
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
			    !memcmp((char *)data->d_buf + noff, "GNU", 4) &&
			    nh.n_descsz && nh.n_descsz <= SW_BUILD_ID_MAX) {
				memcpy(bid, (char *)data->d_buf + doff,
				       nh.n_descsz);
				return (int)nh.n_descsz;
			}
	}
	return -ENODATA;
}

int sw_elf_build_id(const char *path, unsigned char *bid)
{
	Elf *e;
	int fd, ret;

	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF)
		ret = -ENOEXEC;
	else
		ret = sw_elf_note_build_id(e, bid);
	if (e)
		elf_end(e);
	close(fd);
	return ret;
}

int sw_symbolizer_init(struct sw_symbolizer *s, struct sw_machine *m,
		       const char *debuginfo_path)
{
	memset(s, 0, sizeof(*s));
	s->m = m;
	sw_intern_init(&s->cache);
	s->debuginfo_path = strdup(debuginfo_path && *debuginfo_path ?
				   debuginfo_path : ":.debug:/usr/lib/debug");
	if (!s->debuginfo_path)
		return -ENOMEM;
	elf_version(EV_CURRENT);
	return 0;
}

void sw_symbolizer_free(struct sw_symbolizer *s)
{
	uint32_t i;

	if (s->m)
		for (i = 0; i < s->m->nimage; i++) {
			sw_dso_free(s->m->image[i].priv);
			s->m->image[i].priv = NULL;
		}
	sw_intern_free(&s->cache);
	free(s->res);
	sw_symtab_free(&s->kallsyms);
	free(s->debuginfo_path);
	memset(s, 0, sizeof(*s));
}

int sw_symbolizer_set_kallsyms(struct sw_symbolizer *s, const char *text,
			       size_t len, const char *ref_name,
			       uint64_t ref_addr)
{
	const struct sw_ksym *ref;
	int ret;

	sw_symtab_free(&s->kallsyms);
	ret = sw_kallsyms_parse(text, len, &s->kallsyms);
	if (ret)
		return ret;
	s->kslide = 0;
	if (ref_name && *ref_name && ref_addr && !s->kallsyms.hidden) {
		ref = sw_symtab_byname(&s->kallsyms, ref_name);
		if (ref)
			s->kslide = (int64_t)(ref->start - ref_addr);
	}
	return 0;
}

static void sw_warn(struct sw_symbolizer *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void sw_warn(struct sw_symbolizer *s, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (!s->warn)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	s->warn(s->warn_arg, msg);
}

/* @d's libdwfl callbacks: offline images, debuginfo on the search path. */
static const Dwfl_Callbacks *sw_dso_callbacks(struct sw_symbolizer *s,
					      struct sw_dso *d)
{
	d->cb.find_elf = dwfl_build_id_find_elf;
	d->cb.find_debuginfo = dwfl_standard_find_debuginfo;
	d->cb.section_address = dwfl_offline_section_address;
	d->cb.debuginfo_path = &s->debuginfo_path;
	return &d->cb;
}

/* Opens an ELF image (a file or the vdso bytes) with libdwfl. */
static void sw_dso_load_elf(struct sw_symbolizer *s, uint32_t image,
			    struct sw_dso *d)
{
	struct sw_image *img = &s->m->image[image];
	unsigned char bid[SW_BUILD_ID_MAX];
	char h1[2 * SW_BUILD_ID_MAX + 1], h2[2 * SW_BUILD_ID_MAX + 1];
	const char *path = img->path;
	int fd = -1, n;
	size_t nph, i;
	Elf *e;

	if (img->kind == SW_IMG_VDSO) {
		if (!s->vdso) {
			sw_warn(s, "[vdso]: the recording has no copy of the vdso: its symbols are unknown");
			return;
		}
		fd = memfd_create("vdso", MFD_CLOEXEC);
		if (fd < 0 || write(fd, s->vdso, s->vdso_size) !=
				      (ssize_t)s->vdso_size) {
			if (fd >= 0)
				close(fd);
			return;
		}
	} else {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			sw_warn(s, "%s: %s: its samples show as [unknown]", path,
				strerror(errno));
			return;
		}
		unsigned char want[SW_BUILD_ID_MAX];
		unsigned int wsize = img->build_id_size;

		if (wsize)
			memcpy(want, img->build_id, wsize);
		else if (s->build_id_of)
			wsize = s->build_id_of(s->perfmap_arg, path, want);
		if (wsize) {

			n = sw_elf_build_id(path, bid);
			if (n > 0 && ((unsigned int)n != wsize ||
				      memcmp(bid, want, wsize))) {
				sw_warn(s, "%s: build-id %s differs from the recorded %s (the file changed since recording): its samples show as [unknown]",
					path, sw_build_id_hex(h1, bid, (unsigned int)n),
					sw_build_id_hex(h2, want, wsize));
				close(fd);
				return;
			}
		}
	}
	d->dwfl = dwfl_begin(sw_dso_callbacks(s, d));
	if (!d->dwfl) {
		close(fd);
		return;
	}
	dwfl_report_begin(d->dwfl);
	/* Report at the link-time addresses: bias 0 for ET_DYN too. */
	d->mod = dwfl_report_elf(d->dwfl, sw_str(s->m, img->name_id),
				 img->kind == SW_IMG_VDSO ? "[vdso]" : path, fd,
				 0, true);
	dwfl_report_end(d->dwfl, NULL, NULL);
	if (!d->mod) {
		sw_warn(s, "%s: %s: its samples show as [unknown]", path,
			dwfl_errmsg(-1));
		close(fd);
		dwfl_end(d->dwfl);
		d->dwfl = NULL;
		return;
	}
	e = dwfl_module_getelf(d->mod, &d->bias);
	if (!e || elf_getphdrnum(e, &nph))
		return;
	for (i = 0; i < nph && d->nload < SW_MAX_LOADS; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		d->load[d->nload].offset = ph.p_offset;
		d->load[d->nload].filesz = ph.p_filesz;
		d->load[d->nload].vaddr = ph.p_vaddr;
		d->nload++;
	}
}

static void sw_dso_load(struct sw_symbolizer *s, uint32_t image,
			struct sw_dso *d)
{
	struct sw_image *img = &s->m->image[image];
	const char *text;
	size_t len;

	d->tried = true;
	switch (img->kind) {
	case SW_IMG_FILE:
	case SW_IMG_VDSO:
		sw_dso_load_elf(s, image, d);
		break;
	case SW_IMG_ANON:
		if (s->perfmap_text &&
		    !s->perfmap_text(s->perfmap_arg, img->pid, &text, &len))
			sw_perfmap_parse(text, len, &d->perfmap);
		break;
	default:
		break;
	}
}

/* File offset -> ELF virtual address through the PT_LOAD segments. */
static uint64_t sw_dso_vaddr(const struct sw_dso *d, uint64_t off)
{
	unsigned int i;

	for (i = 0; i < d->nload; i++)
		if (off >= d->load[i].offset &&
		    off < d->load[i].offset + d->load[i].filesz)
			return off - d->load[i].offset + d->load[i].vaddr;
	if (d->nload)
		return off - d->load[0].offset + d->load[0].vaddr;
	return off;
}

static int sw_kname_cmp(const void *a, const void *b)
{
	return strcmp(((const struct sw_kname *)a)->name,
		      ((const struct sw_kname *)b)->name);
}

/* The function symbols of a kernel or module ELF file, sorted by name. */
static void sw_kdso_names(struct sw_dso *d)
{
	int n = dwfl_module_getsymtab(d->mod), i;
	size_t k = 0, j;

	if (n <= 0)
		return;
	d->kname = calloc((size_t)n, sizeof(*d->kname));
	if (!d->kname)
		return;
	for (i = 1; i < n; i++) {
		GElf_Addr addr;
		GElf_Sym sym;
		const char *name = dwfl_module_getsym_info(d->mod, i, &sym, &addr,
							   NULL, NULL, NULL);

		if (name && *name && GELF_ST_TYPE(sym.st_info) == STT_FUNC &&
		    sym.st_shndx != SHN_UNDEF) {
			d->kname[k].name = name;
			d->kname[k++].addr = addr;
		}
	}
	qsort(d->kname, k, sizeof(*d->kname), sw_kname_cmp);
	/* A name the file has twice (static functions) cannot be placed. */
	for (j = 1; j < k; j++)
		if (d->kname[j - 1].name && d->kname[j].name &&
		    !strcmp(d->kname[j - 1].name, d->kname[j].name)) {
			d->kname[j].addr = d->kname[j - 1].addr = 0;
		}
	d->nkname = k;
}

/* NAME.ko, NAME.ko.xz, ... (a '-' in a file name is '_' to the kernel). */
static bool sw_kmod_name_is(const char *file, const char *name)
{
	static const char *const ext[] = { ".ko", ".ko.xz", ".ko.zst",
					   ".ko.gz", ".ko.debug" };
	size_t n = strlen(name), i;

	for (i = 0; i < n; i++)
		if (!file[i] || (file[i] != name[i] &&
				 !((file[i] == '-' || file[i] == '_') &&
				   (name[i] == '-' || name[i] == '_'))))
			return false;
	for (i = 0; i < sizeof(ext) / sizeof(ext[0]); i++)
		if (!strcmp(file + n, ext[i]))
			return true;
	return false;
}

/*
 * Opens @path for a kernel image's source lines, if its build-id is the
 * recorded one (or none was recorded): true when it is taken.
 */
static bool sw_kdso_open(struct sw_symbolizer *s, struct sw_dso *d,
			 const char *image, const char *path)
{
	unsigned char want[SW_BUILD_ID_MAX];
	unsigned int wsize = 0;
	const unsigned char *bits;
	GElf_Addr vaddr;
	int n;

	if (s->build_id_of)
		wsize = s->build_id_of(s->perfmap_arg, image, want);
	d->dwfl = dwfl_begin(sw_dso_callbacks(s, d));
	if (!d->dwfl)
		return false;
	dwfl_report_begin(d->dwfl);
	d->mod = dwfl_report_offline(d->dwfl, image, path, -1);
	dwfl_report_end(d->dwfl, NULL, NULL);
	n = d->mod ? dwfl_module_build_id(d->mod, &bits, &vaddr) : -1;
	if (d->mod && (!wsize || ((unsigned int)n == wsize &&
				  !memcmp(bits, want, wsize)))) {
		sw_kdso_names(d);
		return true;
	}
	d->kother |= d->mod != NULL;
	dwfl_end(d->dwfl);
	d->dwfl = NULL;
	d->mod = NULL;
	return false;
}

/*
 * Looks for module @name's file under @dir, @depth folders deep, and
 * takes the first that sw_kdso_open() accepts (a build of another kernel
 * beside it is passed over).
 */
static bool sw_kmod_find(struct sw_symbolizer *s, struct sw_dso *d,
			 const char *image, const char *dir, const char *name,
			 int depth)
{
	char path[PATH_MAX];
	struct dirent *de;
	bool found = false;
	DIR *dp = opendir(dir);

	if (!dp)
		return false;
	while (!found && (de = readdir(dp))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (sw_kmod_name_is(de->d_name, name))
			found = !access(path, R_OK) &&
				sw_kdso_open(s, d, image, path);
		else if (depth > 0 && de->d_type == DT_DIR)
			found = sw_kmod_find(s, d, image, path, name, depth - 1);
	}
	closedir(dp);
	return found;
}

/*
 * A kernel or module image's ELF file with debug information: -k/--vmlinux
 * or --kmod-dir first, then where Debian's linux-image-*-dbg and the
 * module tree put them for the recorded release.
 */
static void sw_kdso_load(struct sw_symbolizer *s, uint32_t image,
			 struct sw_dso *d)
{
	struct sw_image *img = &s->m->image[image];
	const char *rel = s->krelease && *s->krelease ? s->krelease : NULL;
	char path[PATH_MAX], dir[PATH_MAX], name[256];
	const char *why = "no file with its debug information was found";
	bool ok = false;
	size_t n;

	d->tried = true;
	d->kernel = true;
	if (img->kind == SW_IMG_KERNEL) {
		/* Each a folder and a name, around the release. */
		static const char *const at[][2] = {
			{ "/usr/lib/debug/boot/vmlinux-", "" },
			{ "/usr/lib/debug/lib/modules/", "/vmlinux" },
			{ "/lib/modules/", "/build/vmlinux" },
			{ "/boot/vmlinux-", "" },
		};
		size_t i;

		if (s->vmlinux) {
			ok = sw_kdso_open(s, d, img->path, s->vmlinux);
			if (!ok)
				why = "the -k/--vmlinux file is not the recorded kernel";
		}
		for (i = 0; !ok && !s->vmlinux && rel &&
			    i < sizeof(at) / sizeof(at[0]); i++) {
			snprintf(path, sizeof(path), "%s%s%s", at[i][0], rel,
				 at[i][1]);
			if (!access(path, R_OK))
				ok = sw_kdso_open(s, d, img->path, path);
		}
	} else {
		n = strlen(img->path);
		if (n < 3 || n - 2 >= sizeof(name))
			return;
		memcpy(name, img->path + 1, n - 2);
		name[n - 2] = '\0';
		if (s->kmod_dir)
			ok = sw_kmod_find(s, d, img->path, s->kmod_dir, name, 4);
		if (!ok && rel) {
			snprintf(dir, sizeof(dir), "/usr/lib/debug/lib/modules/%s", rel);
			ok = sw_kmod_find(s, d, img->path, dir, name, 6);
		}
		if (!ok && rel) {
			snprintf(dir, sizeof(dir), "/lib/modules/%s", rel);
			ok = sw_kmod_find(s, d, img->path, dir, name, 6);
		}
	}
	if (!ok && d->kother)
		why = "the files found are other builds (their build-id is not the recorded one)";
	if (!ok)
		sw_warn(s, "%s: %s: its source lines are unknown", img->path, why);
}

/* An address inside a kernel or module function, in @d's ELF file. */
static bool sw_kdso_addr(const struct sw_dso *d, const char *sym,
			 uint64_t off, GElf_Addr *addr)
{
	struct sw_kname key = { .name = sym };
	const struct sw_kname *k;

	if (!d->nkname)
		return false;
	k = bsearch(&key, d->kname, d->nkname, sizeof(key), sw_kname_cmp);
	if (!k || !k->addr)
		return false;
	*addr = k->addr + off;
	return true;
}

static const char *sw_base(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

static int sw_res_srcline(struct sw_symbolizer *s, struct sw_symres *r,
			  struct sw_dso *d)
{
	const char *file = NULL;
	char buf[4096];
	int line = 0;
	int64_t id;

	r->flags |= SW_SYMRES_SRC;
	r->srcline = s->m->unknown;
	if (d && d->mod) {
		Dwfl_Line *l = NULL;
		GElf_Addr a;

		if (!d->kernel)
			l = dwfl_module_getsrc(d->mod, r->vaddr + d->bias);
		else if ((r->flags & SW_SYMRES_KNOWN) &&
			 sw_kdso_addr(d, sw_str(s->m, r->sym), r->sym_off, &a))
			l = dwfl_module_getsrc(d->mod, a);
		if (l)
			file = dwfl_lineinfo(l, NULL, &line, NULL, NULL, NULL);
	}
	if (!file || line <= 0)
		return 0;
	snprintf(buf, sizeof(buf), "%s:%d", sw_base(file), line);
	id = sw_intern_str(&s->m->str, buf);
	if (id < 0)
		return (int)id;
	r->srcline = (uint32_t)id;
	id = sw_intern_str(&s->m->str, file);
	if (id < 0)
		return (int)id;
	r->file = (uint32_t)id;
	r->line = (uint32_t)line;
	r->flags |= SW_SYMRES_LINE;
	return 0;
}

static int sw_res_fill(struct sw_symbolizer *s, struct sw_symres *r)
{
	struct sw_image *img = &s->m->image[r->image];
	const struct sw_ksym *k = NULL;
	const char *name = NULL;
	struct sw_dso *d = NULL;
	const char *kmod = NULL;
	char buf[SW_MODNAME_LEN + 4];
	int64_t id;

	r->sym = s->m->unknown;
	r->vaddr = r->rel;
	switch (img->kind) {
	case SW_IMG_FILE:
	case SW_IMG_VDSO:
	case SW_IMG_ANON:
		d = sw_dso_of(s->m, r->image);
		if (!d)
			return -ENOMEM;
		if (!d->tried)
			sw_dso_load(s, r->image, d);
		if (img->kind == SW_IMG_ANON) {
			k = sw_symtab_find(&d->perfmap, r->rel);
			if (k) {
				name = d->perfmap.names + k->name;
				r->sym_off = r->rel - k->start;
			}
			break;
		}
		r->vaddr = sw_dso_vaddr(d, r->rel);
		if (d->mod) {
			GElf_Off off = 0;
			GElf_Sym sym;

			name = dwfl_module_addrinfo(d->mod, r->vaddr + d->bias,
						    &off, &sym, NULL, NULL,
						    NULL);
			if (name)
				r->sym_off = off;
		}
		break;
	case SW_IMG_KERNEL:
	case SW_IMG_MODULE:
		if (s->kallsyms.hidden)
			break;
		k = sw_symtab_find(&s->kallsyms,
				   r->rel + (uint64_t)s->kslide);
		if (!k)
			break;
		kmod = s->kallsyms.names + k->module;
		/* A module address must find that module's symbol. */
		if (img->kind == SW_IMG_MODULE) {
			snprintf(buf, sizeof(buf), "[%s]", kmod);
			if (strcmp(buf, img->path))
				break;
		} else if (*kmod) {
			break;
		}
		name = s->kallsyms.names + k->name;
		r->sym_off = r->rel + (uint64_t)s->kslide - k->start;
		break;
	default:
		break;
	}
	if (name && *name) {
		char *dm = NULL;

		/* Kernel names are C; user code's may be C++ or Rust. */
		if (d && !s->no_demangle)
			dm = sw_demangle(name);
		id = sw_intern_str(&s->m->str, dm ? dm : name);
		free(dm);
		if (id < 0)
			return (int)id;
		r->sym = (uint32_t)id;
		r->flags |= SW_SYMRES_KNOWN;
	}
	return 0;
}

int64_t sw_symbolize(struct sw_symbolizer *s, uint32_t image, uint64_t rel,
		     bool srcline)
{
	struct {
		uint32_t image;
		uint32_t pad;
		uint64_t rel;
	} key = { image, 0, rel };
	struct sw_symres *r;
	int64_t id;
	int added, ret;

	id = sw_intern_add(&s->cache, &key, sizeof(key), &added);
	if (id < 0)
		return id;
	if (added) {
		if (s->nres == s->rescap) {
			uint32_t cap = s->rescap ? s->rescap * 2 : 1024;
			struct sw_symres *n = realloc(s->res, cap * sizeof(*n));

			if (!n)
				return -ENOMEM;
			s->res = n;
			s->rescap = cap;
		}
		r = &s->res[s->nres++];
		memset(r, 0, sizeof(*r));
		r->image = image;
		r->rel = rel;
		r->srcline = s->m->unknown;
		ret = sw_res_fill(s, r);
		if (ret)
			return ret;
	}
	r = &s->res[id];
	if (srcline && !s->no_src && !(r->flags & SW_SYMRES_SRC)) {
		struct sw_image *img = &s->m->image[image];
		struct sw_dso *d = NULL;

		if (img->kind == SW_IMG_FILE || img->kind == SW_IMG_VDSO) {
			d = img->priv;
		} else if (img->kind == SW_IMG_KERNEL ||
			   img->kind == SW_IMG_MODULE) {
			d = sw_dso_of(s->m, image);
			if (!d)
				return -ENOMEM;
			if (!d->tried)
				sw_kdso_load(s, image, d);
		}
		ret = sw_res_srcline(s, r, d);
		if (ret)
			return ret;
	}
	return id;
}
