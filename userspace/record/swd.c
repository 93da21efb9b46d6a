// SPDX-License-Identifier: GPL-2.0
/*
 * swd.c - write and read the stopwatch data file (see swd.h for the layout).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include <stopwatch/abi.h>

#include "record/swd.h"

_Static_assert(sizeof(struct swd_header) == 64, "swd_header is 64 bytes");
_Static_assert(sizeof(struct swd_sec) == 40, "swd_sec is 40 bytes");

/* Inflated sections larger than this are refused as damaged. */
#define SWD_MAX_RAW (1ULL << 31)

static const char *const swd_names[SWD_SEC_TYPE_MAX] = {
	[SWD_SEC_META] = "meta",
	[SWD_SEC_KALLSYMS] = "kallsyms",
	[SWD_SEC_MODULES] = "modules",
	[SWD_SEC_RECORDS] = "records",
	[SWD_SEC_BUILDIDS] = "build-ids",
	[SWD_SEC_PERFMAP] = "perf-map",
	[SWD_SEC_VDSO] = "vdso",
	[SWD_SEC_COUNTERS] = "counters",
	[SWD_SEC_STATE] = "state",
	[SWD_SEC_END] = "end",
};

const char *swd_sec_name(unsigned int type)
{
	if (type < SWD_SEC_TYPE_MAX && swd_names[type])
		return swd_names[type];
	return "unknown";
}

uint32_t swd_crc32(uint32_t crc, const void *buf, size_t len)
{
	return (uint32_t)crc32_z(crc, buf, len);
}

static uint32_t swd_sec_hdr_crc(const struct swd_sec *s)
{
	return swd_crc32(0, s, offsetof(struct swd_sec, hdr_crc));
}

bool swd_sec_valid(const struct swd_sec *s)
{
	return s->magic == SWD_SEC_MAGIC && s->hdr_crc == swd_sec_hdr_crc(s) &&
	       s->type != 0 && (s->flags & SWD_SEC_F_DEFLATE ||
				s->raw_size == s->size);
}

/* ---- writing ------------------------------------------------------------- */

static void swd_put(struct swd_writer *w, const void *p, size_t n)
{
	if (w->error || !n)
		return;
	if (fwrite(p, 1, n, w->f) != n)
		w->error = errno ? -errno : -EIO;
	else
		w->bytes += n;
}

int swd_writer_open(struct swd_writer *w, const char *path,
		    struct sw_err *err)
{
	struct swd_header h;
	struct timespec ts;
	int ret;

	memset(w, 0, sizeof(*w));
	w->path = strdup(path);
	if (!w->path)
		return sw_err_set(err, -ENOMEM, "out of memory");
	w->f = fopen(path, "w");
	if (!w->f) {
		ret = sw_err_set(err, -errno, "cannot create %s: %s", path,
				 strerror(errno));
		free(w->path);
		w->path = NULL;
		return ret;
	}
	memset(&h, 0, sizeof(h));
	memcpy(h.magic, SWD_MAGIC, sizeof(h.magic));
	h.bom = SWD_BOM;
	h.major = SWD_MAJOR;
	h.minor = SWD_MINOR;
	h.header_size = sizeof(h);
	h.abi_major = SW_ABI_MAJOR;
	h.abi_minor = SW_ABI_MINOR;
	clock_gettime(CLOCK_REALTIME, &ts);
	h.created_ns = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
	swd_put(w, &h, sizeof(h));
	if (w->error)
		return sw_err_set(err, w->error, "%s: %s", path,
				  strerror(-w->error));
	return 0;
}

static int swd_put_section(struct swd_writer *w, unsigned int type,
			   uint32_t arg, unsigned int flags, const void *payload,
			   size_t plen, size_t raw_len)
{
	static const char zeros[8];
	struct swd_sec s;

	if (w->error)
		return w->error;
	memset(&s, 0, sizeof(s));
	s.magic = SWD_SEC_MAGIC;
	s.type = (uint16_t)type;
	s.flags = (uint16_t)flags;
	s.arg = arg;
	s.raw_size = raw_len;
	s.size = plen;
	s.crc = swd_crc32(0, payload, plen);
	s.hdr_crc = swd_sec_hdr_crc(&s);
	swd_put(w, &s, sizeof(s));
	swd_put(w, payload, plen);
	swd_put(w, zeros, (8 - plen % 8) % 8);
	if (!w->error)
		w->nsecs++;
	return w->error;
}

int swd_deflate(const void *data, size_t len, void **out, size_t *olen)
{
	uLongf zlen = compressBound((uLong)len);
	unsigned char *z;

	*out = NULL;
	*olen = 0;
	if (len <= 256)
		return 0;
	z = malloc(zlen);
	if (!z)
		return -ENOMEM;
	/* Speed over size: the recorder compresses while buffers fill. */
	if (compress2(z, &zlen, data, (uLong)len, Z_BEST_SPEED) != Z_OK ||
	    zlen >= len) {
		free(z);
		return 0;
	}
	*out = z;
	*olen = zlen;
	return 0;
}

int swd_write_deflated(struct swd_writer *w, unsigned int type, uint32_t arg,
		       const void *z, size_t zlen, size_t raw_len)
{
	return swd_put_section(w, type, arg, SWD_SEC_F_DEFLATE, z, zlen,
			       raw_len);
}

int swd_write_section(struct swd_writer *w, unsigned int type, uint32_t arg,
		      const void *data, size_t len, bool deflate)
{
	void *z = NULL;
	size_t zlen = 0;
	int ret;

	if (deflate && swd_deflate(data, len, &z, &zlen))
		z = NULL;
	if (z)
		ret = swd_put_section(w, type, arg, SWD_SEC_F_DEFLATE, z, zlen,
				      len);
	else
		ret = swd_put_section(w, type, arg, 0, data, len, len);
	free(z);
	return ret;
}

int swd_writer_close(struct swd_writer *w, struct sw_err *err)
{
	int ret = w->error;

	if (!w->f)
		return ret;
	if (fflush(w->f) && !ret)
		ret = errno ? -errno : -EIO;
	if (!ret && fsync(fileno(w->f)) && errno != EINVAL && errno != EROFS)
		ret = -errno;
	if (fclose(w->f) && !ret)
		ret = errno ? -errno : -EIO;
	w->f = NULL;
	if (ret)
		sw_err_set(err, ret, "write error on %s: %s", w->path,
			   strerror(-ret));
	free(w->path);
	w->path = NULL;
	return ret;
}

/* ---- reading ------------------------------------------------------------- */

static int swd_problem(struct swd_file *f, uint64_t offset, uint64_t lost,
		       const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int swd_problem(struct swd_file *f, uint64_t offset, uint64_t lost,
		       const char *fmt, ...)
{
	struct swd_problem *p;
	va_list ap;

	p = realloc(f->prob, (f->nprob + 1) * sizeof(*p));
	if (!p)
		return -ENOMEM;
	f->prob = p;
	p += f->nprob++;
	p->offset = offset;
	p->lost = lost;
	va_start(ap, fmt);
	vsnprintf(p->msg, sizeof(p->msg), fmt, ap);
	va_end(ap);
	f->bytes_lost += lost;
	return 0;
}

static int swd_add(struct swd_file *f, const struct swd_section *s)
{
	struct swd_section *n;

	/* Room for 16, then doubled each time a power of two is reached:
	 * a file of many sections is indexed in linear time. */
	if (!f->nsec || (f->nsec >= 16 && !(f->nsec & (f->nsec - 1)))) {
		n = realloc(f->sec, (f->nsec ? 2 * f->nsec : 16) * sizeof(*n));
		if (!n)
			return -ENOMEM;
		f->sec = n;
	}
	f->sec[f->nsec++] = *s;
	return 0;
}

/* Bytes of whole, plausible records at the start of @p. */
static size_t swd_whole_records(const unsigned char *p, size_t n)
{
	size_t off = 0;

	while (n - off >= sizeof(struct sw_rec_header)) {
		const struct sw_rec_header *h = (const void *)(p + off);

		if (h->size < sizeof(*h) || h->size % SW_REC_ALIGN ||
		    h->size > n - off || !h->type)
			break;
		off += h->size;
	}
	return off;
}

/* Offset of the next valid section header after @from, or @end. */
static uint64_t swd_resync(const unsigned char *map, uint64_t from,
			   uint64_t end)
{
	uint64_t o;

	for (o = from; o + sizeof(struct swd_sec) <= end; o += 8)
		if (swd_sec_valid((const struct swd_sec *)(map + o)))
			return o;
	return end;
}

static int swd_inflate(struct swd_section *out, const void *z, size_t zlen,
		       uint64_t raw)
{
	uLongf n = (uLongf)raw;
	void *buf;

	if (raw > SWD_MAX_RAW)
		return -EFBIG;
	buf = malloc(raw ? raw : 1);
	if (!buf)
		return -ENOMEM;
	if (uncompress(buf, &n, z, (uLong)zlen) != Z_OK || n != raw) {
		free(buf);
		return -EBADMSG;
	}
	out->data = buf;
	out->size = raw;
	out->owned = true;
	return 0;
}

static int swd_index(struct swd_file *f)
{
	const unsigned char *map = f->map;
	uint64_t end = f->map_size, off = f->hdr->header_size;
	int ret;

	while (off < end) {
		const struct swd_sec *s = (const void *)(map + off);
		struct swd_section sec;
		uint64_t pay = off + sizeof(*s), avail, next;

		if (end - off < sizeof(*s)) {
			ret = swd_problem(f, off, end - off,
					  "the file ends inside a section header (%llu bytes cut off)",
					  (unsigned long long)(end - off));
			if (ret)
				return ret;
			break;
		}
		if (!swd_sec_valid(s)) {
			next = swd_resync(map, off + 8, end);
			ret = swd_problem(f, off, next - off,
					  "damaged section header at byte %llu: %llu bytes skipped",
					  (unsigned long long)off,
					  (unsigned long long)(next - off));
			if (ret)
				return ret;
			off = next;
			continue;
		}
		memset(&sec, 0, sizeof(sec));
		sec.type = s->type;
		sec.flags = s->flags;
		sec.arg = s->arg;
		sec.offset = off;
		avail = end - pay;
		if (s->size > avail) {
			/* Cut short: keep the whole records of a RECORDS section. */
			if (s->type == SWD_SEC_RECORDS &&
			    !(s->flags & SWD_SEC_F_DEFLATE)) {
				sec.data = map + pay;
				sec.size = swd_whole_records(map + pay, avail);
				sec.cut = s->size - sec.size;
				ret = swd_add(f, &sec);
				if (!ret)
					ret = swd_problem(f, off, sec.cut,
							  "the file ends inside the records of CPU %u: %llu of %llu bytes present, %zu bytes of whole records used",
							  s->arg,
							  (unsigned long long)avail,
							  (unsigned long long)s->size,
							  sec.size);
			} else {
				ret = swd_problem(f, off, avail + sizeof(*s),
						  "the file ends inside the %s section: %llu of %llu bytes present, section unusable",
						  swd_sec_name(s->type),
						  (unsigned long long)avail,
						  (unsigned long long)s->size);
			}
			if (ret)
				return ret;
			break;
		}
		next = pay + s->size + (8 - s->size % 8) % 8;
		if (next > end)
			next = end;
		if (swd_crc32(0, map + pay, s->size) != s->crc) {
			ret = swd_problem(f, off, s->size,
					  "checksum mismatch in the %s section at byte %llu: %llu bytes skipped",
					  swd_sec_name(s->type),
					  (unsigned long long)off,
					  (unsigned long long)s->size);
			if (ret)
				return ret;
			off = next;
			continue;
		}
		if (s->flags & SWD_SEC_F_DEFLATE) {
			ret = swd_inflate(&sec, map + pay, s->size, s->raw_size);
			if (ret == -ENOMEM)
				return ret;
			if (ret) {
				ret = swd_problem(f, off, s->size,
						  "cannot inflate the %s section at byte %llu: skipped",
						  swd_sec_name(s->type),
						  (unsigned long long)off);
				if (ret)
					return ret;
				off = next;
				continue;
			}
		} else {
			sec.data = map + pay;
			sec.size = s->size;
			if (s->type == SWD_SEC_RECORDS) {
				size_t whole = swd_whole_records(map + pay,
								 s->size);

				if (whole != s->size) {
					ret = swd_problem(f, pay + whole,
							  s->size - whole,
							  "malformed record at byte %llu in the records of CPU %u: the section's last %llu bytes skipped",
							  (unsigned long long)(pay + whole),
							  s->arg,
							  (unsigned long long)(s->size - whole));
					if (ret)
						return ret;
					sec.size = whole;
				}
			}
		}
		ret = swd_add(f, &sec);
		if (ret) {
			if (sec.owned)
				free((void *)sec.data);
			return ret;
		}
		if (s->type == SWD_SEC_END)
			f->complete = true;
		off = next;
	}
	return 0;
}

int swd_open(const char *path, struct swd_file **out, struct sw_err *err)
{
	struct swd_file *f;
	struct stat st;
	int fd, ret;

	*out = NULL;
	f = calloc(1, sizeof(*f));
	if (!f)
		return sw_err_set(err, -ENOMEM, "out of memory");
	f->path = strdup(path);
	if (!f->path) {
		free(f);
		return sw_err_set(err, -ENOMEM, "out of memory");
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = sw_err_set(err, -errno, "cannot open %s: %s", path,
				 strerror(errno));
		goto fail;
	}
	if (fstat(fd, &st)) {
		ret = sw_err_set(err, -errno, "%s: %s", path, strerror(errno));
		close(fd);
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		ret = sw_err_set(err, -EINVAL, "%s: not a regular file", path);
		goto fail;
	}
	if (!st.st_size) {
		close(fd);
		ret = sw_err_set(err, -ENODATA,
				 "%s: empty file (the recording wrote nothing)",
				 path);
		goto fail;
	}
	f->map_size = (size_t)st.st_size;
	f->map = mmap(NULL, f->map_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (f->map == MAP_FAILED) {
		f->map = NULL;
		ret = sw_err_set(err, -errno, "cannot map %s: %s", path,
				 strerror(errno));
		goto fail;
	}
	f->hdr = f->map;
	if (f->map_size < sizeof(struct swd_header) ||
	    memcmp(f->hdr->magic, SWD_MAGIC, 8)) {
		ret = sw_err_set(err, -EINVAL,
				 f->map_size < 8 || memcmp(f->hdr->magic, SWD_MAGIC, 8) ?
				 "%s: not a stopwatch data file (no %s magic)" :
				 "%s: cut short inside its header (%s)",
				 path, SWD_MAGIC);
		goto fail;
	}
	if (f->hdr->bom != SWD_BOM) {
		ret = sw_err_set(err, -EPROTO,
				 "%s: written on a machine of the other byte order; report it there",
				 path);
		goto fail;
	}
	if (f->hdr->major != SWD_MAJOR) {
		ret = sw_err_set(err, -EPROTO,
				 "%s: file format version %u.%u, this stopwatch reads version %u.x",
				 path, f->hdr->major, f->hdr->minor, SWD_MAJOR);
		goto fail;
	}
	if (f->hdr->header_size < sizeof(struct swd_header) ||
	    f->hdr->header_size % 8 || f->hdr->header_size > f->map_size) {
		ret = sw_err_set(err, -EINVAL, "%s: damaged file header",
				 path);
		goto fail;
	}
	ret = swd_index(f);
	if (ret) {
		sw_err_set(err, ret, "%s: %s", path, strerror(-ret));
		goto fail;
	}
	*out = f;
	return 0;
fail:
	swd_close(f);
	return ret;
}

void swd_close(struct swd_file *f)
{
	size_t i;

	if (!f)
		return;
	for (i = 0; i < f->nsec; i++)
		if (f->sec[i].owned)
			free((void *)f->sec[i].data);
	free(f->sec);
	free(f->prob);
	if (f->map)
		munmap(f->map, f->map_size);
	free(f->path);
	free(f);
}

const struct swd_section *swd_find(const struct swd_file *f,
				   unsigned int type)
{
	size_t i;

	for (i = 0; i < f->nsec; i++)
		if (f->sec[i].type == type)
			return &f->sec[i];
	return NULL;
}

char *swd_kv_get(const struct swd_section *s, const char *key)
{
	const char *p, *end, *nl;
	size_t klen = strlen(key);

	if (!s)
		return NULL;
	p = s->data;
	end = p + s->size;
	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		if ((size_t)(nl - p) > klen && !memcmp(p, key, klen) &&
		    p[klen] == '=')
			return strndup(p + klen + 1, (size_t)(nl - p) - klen - 1);
		p = nl + 1;
	}
	return NULL;
}
