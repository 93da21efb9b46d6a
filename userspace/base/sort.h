/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sort.h - qsort(3) for arrays as they come: an empty one may be a NULL
 * pointer, which qsort's declaration forbids even with no elements (and
 * UBSan reports); and the search of a sorted array for the first element
 * not below a key.
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

/*
 * The index of the first of @n elements of sorted @base that @cmp does not
 * put below @key (@n when all are): where @key's run of equal elements
 * starts, or where @key would go.
 */
static inline size_t sw_lower_bound(const void *base, size_t n, size_t size,
				    const void *key,
				    int (*cmp)(const void *, const void *))
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cmp((const char *)base + mid * size, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

#endif /* _SW_BASE_SORT_H */
