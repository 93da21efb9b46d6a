// SPDX-License-Identifier: GPL-2.0
/*
 * cfi.c - unwind tables from call-frame information.
 *
 * The frame descriptions are found through .eh_frame_hdr's sorted table
 * (dynamically linked programs and libraries have it; for static ones,
 * through the function symbols).  Code built without unwind tables
 * (-fno-asynchronous-unwind-tables) has its descriptions in .debug_frame
 * instead, when built with -g: then the function symbols are searched
 * too, and an address .eh_frame does not describe is looked up there.
 * libdw's CFI interface gives,
 * address range by address range, the rules of each, which become rows:
 * the CFA as stack or frame pointer plus an offset (or the x86-64 PLT
 * expression), where the return address and the caller's frame pointer
 * are saved, the outermost frame (return address undefined) and signal
 * trampolines (where the interrupted registers are in the signal frame on
 * the stack).  Equal
 * neighbours merge; a gap between descriptions gets a row without rule.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <gelf.h>

#include "record/cfi.h"

/* DWARF register numbers of one architecture. */
struct sw_cfi_regs {
	int sp, fp, ra;
};

static int sw_cfi_push(struct sw_cfi_table *t, size_t *cap,
		       const struct sw_unw_row *r)
{
	struct sw_unw_row *p;

	if (t->nr) {
		p = &t->rows[t->nr - 1];
		if (p->pc == r->pc) {
			*p = *r;	/* an empty range: the later rule wins */
			return 0;
		}
		if (p->cfa == r->cfa && p->cfa_off == r->cfa_off &&
		    p->fp == r->fp && p->fp_off == r->fp_off && p->ra == r->ra &&
		    p->ra_off == r->ra_off)
			return 0;
		if (p->pc > r->pc)
			return -EINVAL;
	}
	if (t->nr == *cap) {
		size_t n = *cap ? *cap * 2 : 1024;

		if (n > SW_UNW_ROWS_MAX)
			return -E2BIG;
		p = realloc(t->rows, n * sizeof(*p));
		if (!p)
			return -ENOMEM;
		t->rows = p;
		*cap = n;
	}
	t->rows[t->nr++] = *r;
	return 0;
}

/*
 * A saved register's rule "at CFA + N": libdw hands it as the expression
 * DW_OP_call_frame_cfa [DW_OP_plus_uconst N].  No operations mean
 * "unchanged" (same value) when libdw leaves *ops NULL, undefined when it
 * points them at the caller's room.  Return: 1 and *off for "at CFA + N",
 * 0 for unchanged, -1 for undefined, -2 otherwise.
 */
static int sw_cfi_saved(Dwarf_Frame *f, int reg, long *off)
{
	Dwarf_Op mem[3], *ops;
	size_t n;

	if (dwarf_frame_register(f, reg, mem, &ops, &n))
		return -2;
	if (!n)
		return ops ? -1 : 0;
	if (ops[0].atom != DW_OP_call_frame_cfa)
		return -2;
	if (n == 1) {
		*off = 0;
		return 1;
	}
	if (n == 2 && ops[1].atom == DW_OP_plus_uconst) {
		*off = (long)ops[1].number;
		return 1;
	}
	return -2;
}

/* The x86-64 PLT's CFA: rsp + 8, + 8 more when (rip & 15) >= N. */
static bool sw_cfi_plt(const Dwarf_Op *o, size_t n, struct sw_unw_row *r)
{
	if (n != 9 || o[0].atom != DW_OP_breg7 || o[1].atom != DW_OP_breg16 ||
	    o[1].number || o[2].atom != DW_OP_lit15 || o[3].atom != DW_OP_and ||
	    o[4].atom < DW_OP_lit0 || o[4].atom > DW_OP_lit15 ||
	    o[5].atom != DW_OP_ge || o[6].atom != DW_OP_lit3 ||
	    o[7].atom != DW_OP_shl || o[8].atom != DW_OP_plus)
		return false;
	r->cfa = SW_UNW_CFA_PLT;
	r->cfa_off = (int32_t)o[0].number;
	r->fp_off = (int16_t)(o[4].atom - DW_OP_lit0);
	return true;
}

/* The row of one libdw frame; cfa SW_UNW_CFA_NONE when not followable. */
static void sw_cfi_row(Dwarf_Frame *f, const struct sw_cfi_regs *rg,
		       int ra_reg, struct sw_unw_row *r)
{
	Dwarf_Op *ops;
	size_t n;
	long off;
	int k;

	memset(r, 0, sizeof(*r));
	k = sw_cfi_saved(f, ra_reg, &off);
	if (k == -1) {
		r->cfa = SW_UNW_CFA_END;
		return;
	}
	if (k == -2 || (k == 1 && (off < INT16_MIN || off > INT16_MAX)) ||
	    (k == 0 && ra_reg != rg->ra))
		return;
	r->ra = k == 0 ? SW_UNW_RA_LR : SW_UNW_RA_AT;
	r->ra_off = k == 1 ? (int16_t)off : 0;
	k = sw_cfi_saved(f, rg->fp, &off);
	if (k == 1 && off >= INT16_MIN && off <= INT16_MAX) {
		r->fp = SW_UNW_FP_AT;
		r->fp_off = (int16_t)off;
	} else if (k == -2) {
		r->ra = 0;
		r->ra_off = 0;
		return;
	}
	if (dwarf_frame_cfa(f, &ops, &n) || !n)
		return;
	if (n == 1 && ops[0].atom == DW_OP_bregx &&
	    (int64_t)ops[0].number2 >= INT32_MIN &&
	    (int64_t)ops[0].number2 <= INT32_MAX) {
		if ((int)ops[0].number == rg->sp)
			r->cfa = SW_UNW_CFA_SP;
		else if ((int)ops[0].number == rg->fp)
			r->cfa = SW_UNW_CFA_FP;
		r->cfa_off = (int32_t)ops[0].number2;
	} else if (rg->sp == 7 && !r->fp && sw_cfi_plt(ops, n, r)) {
		return;
	}
	if (r->cfa == SW_UNW_CFA_NONE)
		memset(r, 0, sizeof(*r));
}

/*
 * A DWARF expression "register @reg + N" (DW_OP_breg<reg> N or DW_OP_bregx
 * reg N), after @skip leading operations; with @deref, followed by
 * DW_OP_deref.  Return: whether it is one, *off set to N.
 */
static bool sw_cfi_breg(const Dwarf_Op *o, size_t n, size_t skip, int reg,
			bool deref, long *off)
{
	int64_t v;

	if (n != skip + 1 + deref)
		return false;
	o += skip;
	if (o[0].atom >= DW_OP_breg0 && o[0].atom <= DW_OP_breg31 &&
	    o[0].atom - DW_OP_breg0 == reg)
		v = (int64_t)o[0].number;
	else if (o[0].atom == DW_OP_bregx && (int)o[0].number == reg)
		v = (int64_t)o[0].number2;
	else
		return false;
	if (deref && o[1].atom != DW_OP_deref)
		return false;
	if (v < 0 || v >= SW_UNW_SIGNAL_MAX || (v & 7))
		return false;
	*off = (long)v;
	return true;
}

/*
 * A register saved in a signal frame: the rule "at sp + N" (an expression
 * rule, DW_CFA_expression DW_OP_breg<sp> N, which libdw hands with the
 * CFA pushed first).  Return: whether it is one, *off set to N.
 */
static bool sw_cfi_sigsaved(Dwarf_Frame *f, int reg, int sp, long *off)
{
	Dwarf_Op mem[3], *ops;
	size_t n;

	if (dwarf_frame_register(f, reg, mem, &ops, &n) || !n)
		return false;
	return sw_cfi_breg(ops, n, ops[0].atom == DW_OP_call_frame_cfa, sp,
			   false, off);
}

/*
 * The row of a signal trampoline's frame ('S' augmentation): the CFA is
 * the interrupted stack pointer, read from the signal frame (DW_OP_breg<sp>
 * N; DW_OP_deref), and the return address and frame pointer are the
 * interrupted pc and frame pointer saved in it.  x86-64 only (glibc's
 * __restore_rt): arm64's trampoline is the vDSO's, not handled yet.
 * Return: whether the rules have that form.
 */
static bool sw_cfi_sigrow(Dwarf_Frame *f, const struct sw_cfi_regs *rg,
			  int ra_reg, struct sw_unw_row *r)
{
	long cfa, pc, fp;
	Dwarf_Op *ops;
	size_t n;

	memset(r, 0, sizeof(*r));
	if (dwarf_frame_cfa(f, &ops, &n) ||
	    !sw_cfi_breg(ops, n, 0, rg->sp, true, &cfa) ||
	    !sw_cfi_sigsaved(f, ra_reg, rg->sp, &pc) ||
	    !sw_cfi_sigsaved(f, rg->fp, rg->sp, &fp))
		return false;
	if (rg->sp != 7)
		return false;
	r->cfa = SW_UNW_CFA_SIGNAL;
	r->cfa_off = (int32_t)cfa;
	r->fp = SW_UNW_FP_AT;
	r->fp_off = (int16_t)fp;
	r->ra = SW_UNW_RA_AT;
	r->ra_off = (int16_t)pc;
	return true;
}

/* Reads an encoded 4-byte value of .eh_frame_hdr; false if unsupported. */
static bool sw_cfi_hdr_val(const uint8_t *p, uint8_t enc, uint64_t pcaddr,
			   uint64_t dataaddr, uint64_t *v)
{
	int32_t s;

	memcpy(&s, p, 4);
	switch (enc) {
	case DW_EH_PE_udata4:
		*v = (uint32_t)s;
		return true;
	case DW_EH_PE_sdata4:
		*v = (uint64_t)(int64_t)s;
		return true;
	case DW_EH_PE_pcrel | DW_EH_PE_sdata4:
		*v = pcaddr + (int64_t)s;
		return true;
	case DW_EH_PE_datarel | DW_EH_PE_sdata4:
		*v = dataaddr + (int64_t)s;
		return true;
	default:
		return false;
	}
}

static int sw_u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Where to start looking for frame descriptions when there is no
 * .eh_frame_hdr (static programs are linked without one): the function
 * symbols, sorted.
 */
static int sw_cfi_sym_starts(Elf *elf, uint64_t **out, size_t *nout)
{
	uint64_t *starts = *out, *p;
	size_t n = *nout, cap = *nout, i;
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || !sh.sh_entsize ||
		    (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM))
			continue;
		d = elf_getdata(scn, NULL);
		for (i = 0; d && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym s;

			if (!gelf_getsym(d, (int)i, &s) || !s.st_value ||
			    GELF_ST_TYPE(s.st_info) != STT_FUNC)
				continue;
			if (n == cap) {
				cap = cap ? cap * 2 : 1024;
				p = realloc(starts, cap * sizeof(*p));
				if (!p) {
					*out = starts;
					*nout = n;
					return -ENOMEM;
				}
				starts = p;
			}
			starts[n++] = s.st_value;
		}
	}
	if (!n)
		return -ENODATA;
	qsort(starts, n, sizeof(*starts), sw_u64_cmp);
	*out = starts;
	*nout = n;
	return 0;
}

/* The sorted start addresses of every frame description. */
static int sw_cfi_fde_starts(Elf *elf, uint64_t **out, size_t *nout,
			     struct sw_err *err, const char *path)
{
	GElf_Phdr ph;
	size_t i, nph;
	Elf_Data *d = NULL;
	uint64_t hdr_vaddr = 0, count, *starts;
	const uint8_t *p;

	if (elf_getphdrnum(elf, &nph))
		return sw_err_set(err, -EINVAL, "%s: no program headers", path);
	for (i = 0; i < nph; i++) {
		if (!gelf_getphdr(elf, (int)i, &ph) ||
		    ph.p_type != PT_GNU_EH_FRAME)
			continue;
		d = elf_getdata_rawchunk(elf, (int64_t)ph.p_offset,
					 ph.p_filesz, ELF_T_BYTE);
		hdr_vaddr = ph.p_vaddr;
		break;
	}
	if (!d || d->d_size < 12) {
		*out = NULL;
		*nout = 0;
		if (!sw_cfi_sym_starts(elf, out, nout))
			return 0;
		free(*out);
		*out = NULL;
		return sw_err_set(err, -ENODATA,
				  "%s: no .eh_frame_hdr and no function symbols (no call-frame information found)",
				  path);
	}
	p = d->d_buf;
	if (p[0] != 1 ||
	    !sw_cfi_hdr_val(p + 8, p[2], hdr_vaddr + 8, hdr_vaddr, &count) ||
	    p[3] != (DW_EH_PE_datarel | DW_EH_PE_sdata4))
		return sw_err_set(err, -EOPNOTSUPP,
				  "%s: .eh_frame_hdr version %u, encodings %#x/%#x not supported",
				  path, p[0], p[2], p[3]);
	if (count > (d->d_size - 12) / 8 || count > SW_UNW_ROWS_MAX)
		return sw_err_set(err, -EINVAL,
				  "%s: .eh_frame_hdr claims %llu entries in %zu bytes",
				  path, (unsigned long long)count, d->d_size);
	starts = malloc((count + 1) * sizeof(*starts));
	if (!starts)
		return -ENOMEM;
	for (i = 0; i < count; i++)
		sw_cfi_hdr_val(p + 12 + 8 * i, p[3], 0, hdr_vaddr, &starts[i]);
	qsort(starts, count, sizeof(*starts), sw_u64_cmp);
	*out = starts;
	*nout = count;
	return 0;
}

/**
 * sw_cfi_build() - the unwind table of an ELF file.
 * @path: the file
 * @t:    filled; free with sw_cfi_free()
 * @err:  why not
 *
 * Return: 0, or a negative errno (-ENODATA: no call-frame information,
 * -EOPNOTSUPP: an architecture or encoding not handled).
 */
int sw_cfi_build(const char *path, struct sw_cfi_table *t, struct sw_err *err)
{
	struct sw_cfi_regs rg;
	struct sw_unw_row row;
	uint64_t *starts = NULL;
	size_t nstart = 0, cap = 0, i, k, nph;
	const void *bid;
	Dwarf_CFI *cfi = NULL, *dcfi = NULL;
	Dwarf *dw = NULL;
	GElf_Ehdr eh;
	GElf_Phdr ph;
	Elf *elf = NULL;
	int fd, ret, n;

	memset(t, 0, sizeof(*t));
	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return sw_err_set(err, -errno, "%s: %s", path, strerror(errno));
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || !gelf_getehdr(elf, &eh)) {
		ret = sw_err_set(err, -EINVAL, "%s: not an ELF file", path);
		goto out;
	}
	if (eh.e_machine == EM_X86_64 && eh.e_ident[EI_CLASS] == ELFCLASS64) {
		rg = (struct sw_cfi_regs){ .sp = 7, .fp = 6, .ra = 16 };
	} else if (eh.e_machine == EM_AARCH64) {
		rg = (struct sw_cfi_regs){ .sp = 31, .fp = 29, .ra = 30 };
	} else {
		ret = sw_err_set(err, -EOPNOTSUPP,
				 "%s: machine %u: only x86-64 and arm64", path,
				 eh.e_machine);
		goto out;
	}
	n = dwelf_elf_gnu_build_id(elf, &bid);
	if (n > 0) {
		t->build_id_size = (uint8_t)(n > SW_UNW_BUILD_ID_MAX ?
					     SW_UNW_BUILD_ID_MAX : n);
		memcpy(t->build_id, bid, t->build_id_size);
	}
	if (!elf_getphdrnum(elf, &nph))
		for (i = 0; i < nph && t->nseg < SW_UNW_SEGS_MAX; i++) {
			if (!gelf_getphdr(elf, (int)i, &ph) ||
			    ph.p_type != PT_LOAD)
				continue;
			t->seg[t->nseg].off = ph.p_offset;
			t->seg[t->nseg].vaddr = ph.p_vaddr;
			t->seg[t->nseg++].filesz = ph.p_filesz;
		}
	ret = sw_cfi_fde_starts(elf, &starts, &nstart, err, path);
	if (ret)
		goto out;
	cfi = dwarf_getcfi_elf(elf);
	dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL);
	if (dw)
		dcfi = dwarf_getcfi(dw);
	if (dcfi) {
		/* .debug_frame describes what .eh_frame_hdr may not list. */
		ret = sw_cfi_sym_starts(elf, &starts, &nstart);
		if (ret == -ENOMEM)
			goto out_push;
		ret = 0;
	}
	/* Each start once: the loop below takes the next one as an end. */
	for (i = 0, k = 0; i < nstart; i++)
		if (!k || starts[i] != starts[k - 1])
			starts[k++] = starts[i];
	nstart = k;
	if (!cfi && !dcfi) {
		ret = sw_err_set(err, -ENODATA,
				 "%s: no .eh_frame and no .debug_frame: %s",
				 path, dwarf_errmsg(-1));
		goto out;
	}
	for (i = 0; i < nstart; i++) {
		uint64_t a = starts[i], next = i + 1 < nstart ? starts[i + 1] :
					       UINT64_MAX;
		bool any = false, dbg = false;

		while (a < next) {
			Dwarf_Frame *f;
			Dwarf_Addr s, e;
			bool sig;
			int ra;

			if (!cfi || dwarf_cfi_addrframe(cfi, a, &f)) {
				if (!dcfi || dwarf_cfi_addrframe(dcfi, a, &f))
					break;
				dbg = true;
			}
			ra = dwarf_frame_info(f, &s, &e, &sig);
			if (sig && sw_cfi_sigrow(f, &rg, ra, &row))
				t->signal++;
			else if (!sig)
				sw_cfi_row(f, &rg, ra, &row);
			else
				memset(&row, 0, sizeof(row));
			free(f);
			if (a > UINT32_MAX) {
				ret = sw_err_set(err, -EOPNOTSUPP,
						 "%s: code at %#llx, above 4 GiB",
						 path, (unsigned long long)a);
				goto out;
			}
			if (row.cfa == SW_UNW_CFA_NONE)
				t->unsupported++;
			row.pc = (uint32_t)a;
			ret = sw_cfi_push(t, &cap, &row);
			if (ret)
				goto out_push;
			any = true;
			if (e <= a)
				break;
			a = e;
		}
		if (any) {
			t->fdes++;
			t->debug_fdes += dbg;
		}
		/* The end of the description: no rule until the next. */
		if (a < next && a <= UINT32_MAX) {
			memset(&row, 0, sizeof(row));
			row.pc = (uint32_t)a;
			ret = sw_cfi_push(t, &cap, &row);
			if (ret)
				goto out_push;
		}
	}
	if (!t->nr) {
		ret = sw_err_set(err, -ENODATA, "%s: no usable frame descriptions",
				 path);
		goto out;
	}
	ret = 0;
	goto out;
out_push:
	sw_err_set(err, ret, "%s: building the table: %s", path,
		   ret == -E2BIG ? "more than the most rows of a table" :
				   strerror(-ret));
out:
	free(starts);
	if (cfi)
		dwarf_cfi_end(cfi);
	if (dw)
		dwarf_end(dw);	/* ends its .debug_frame CFI too */
	if (elf)
		elf_end(elf);
	close(fd);
	if (ret)
		sw_cfi_free(t);
	return ret;
}

/** sw_cfi_free() - free a table's rows; @t may be zeroed or freed twice. */
void sw_cfi_free(struct sw_cfi_table *t)
{
	free(t->rows);
	t->rows = NULL;
	t->nr = 0;
}
