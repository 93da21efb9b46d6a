/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sort.h - qsort(3) for arrays as they come: an empty one may be a NULL
 * pointer, which qsort's declaration forbids even with no elements (and
 * UBSan reports).
 */
#ifndef _SW_BASE_SORT_H
#define _SW_BASE_SORT_H

#include <stdlib.h>

static inline void sw_qsort(void *base, size_t n, size_t size,
			    int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(base, n, size, cmp);
}

static inline void sw_qsort_r(void *base, size_t n, size_t size,
			      int (*cmp)(const void *, const void *, void *),
			      void *arg)
{
	if (n > 1)
		qsort_r(base, n, size, cmp, arg);
}

#endif /* _SW_BASE_SORT_H */
