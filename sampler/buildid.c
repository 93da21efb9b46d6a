// SPDX-License-Identifier: GPL-2.0
/*
 * buildid.c - the GNU build-id of a mapped ELF file, read from its first
 * page in the page cache: the side-band stamps MMAP records with it, the
 * unwind tables check a map command against the file really mapped.
 */
#include <linux/elf.h>
#include <linux/fs.h>
#include <linux/highmem.h>
#include <linux/pagemap.h>
#include <stopwatch/abi.h>
#include "buildid.h"

#define SW_NT_GNU_BUILD_ID 3	/* ELF note type of the GNU build-id */

/*
 * The GNU build-id of an ELF file, from its first page in the page cache.
 * Only a page already cached and up to date is used (it is, for a file
 * just mapped for execution: its header was read to map it), so this never
 * sleeps or does I/O; a note outside the first page is not found.
 *
 * Context: process context (the page's last reference may be dropped
 * here, which takes sleeping locks under PREEMPT_RT).
 * Return: bytes of build-id copied to @id (at most SW_BUILD_ID_MAX), or 0.
 */
u8 sw_file_build_id(struct file *file, u8 *id)
{
	struct page *page = find_get_page(file->f_mapping, 0);
	const Elf64_Ehdr *eh;
	const char *p;
	u8 n = 0;
	int i;

	if (!page)
		return 0;
	if (!PageUptodate(page))
		goto out_put;
	p = kmap_local_page(page);
	eh = (const Elf64_Ehdr *)p;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_phentsize != sizeof(Elf64_Phdr) ||
	    eh->e_phoff > PAGE_SIZE ||
	    eh->e_phnum > (PAGE_SIZE - eh->e_phoff) / sizeof(Elf64_Phdr))
		goto out_unmap;
	for (i = 0; i < eh->e_phnum && !n; i++) {
		const Elf64_Phdr *ph = (const Elf64_Phdr *)(p + eh->e_phoff) + i;
		u64 off = ph->p_offset, end = ph->p_offset + ph->p_filesz;

		if (ph->p_type != PT_NOTE || end > PAGE_SIZE || end < off)
			continue;
		while (off + sizeof(Elf64_Nhdr) <= end) {
			const Elf64_Nhdr *nh = (const Elf64_Nhdr *)(p + off);
			u64 name = off + sizeof(*nh);
			u64 desc = name + ALIGN(nh->n_namesz, 4);
			u64 next = desc + ALIGN(nh->n_descsz, 4);

			if (next > end || next <= off)
				break;
			if (nh->n_type == SW_NT_GNU_BUILD_ID && nh->n_namesz == 4 &&
			    !memcmp(p + name, "GNU", 4) && nh->n_descsz &&
			    nh->n_descsz <= SW_BUILD_ID_MAX) {
				n = nh->n_descsz;
				memcpy(id, p + desc, n);
				break;
			}
			off = next;
		}
	}
out_unmap:
	kunmap_local(p);
out_put:
	put_page(page);
	return n;
}
