// SPDX-License-Identifier: GPL-2.0
/*
 * pprof.c - pprof profile writer (protobuf-c, zlib).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "profile.pb-c.h"
#include "output/pprof.h"

typedef Perftools__Profiles__Profile SwProfile;
typedef Perftools__Profiles__ValueType SwValueType;
typedef Perftools__Profiles__Sample SwSample;
typedef Perftools__Profiles__Label SwLabel;
typedef Perftools__Profiles__Mapping SwMapping;
typedef Perftools__Profiles__Location SwLocation;
typedef Perftools__Profiles__Line SwLine;
typedef Perftools__Profiles__Function SwFunction;

/* Everything the message points to, freed at once. */
struct sw_pb {
	struct sw_intern str;
	SwProfile prof;
	SwValueType vt[3];
	SwValueType *vtp[2];
	SwMapping *map;
	SwMapping **mapp;
	size_t nmap;
	SwFunction *fn;
	SwFunction **fnp;
	size_t nfn;
	size_t fncap;
	struct sw_intern fn_ids;
	SwLocation *loc;
	SwLocation **locp;
	SwLine *line;
	SwLine **linep;
	size_t nloc;
	SwSample *smp;
	SwSample **smpp;
	SwLabel *lab;
	SwLabel **labp;
	uint64_t *locids;
	int64_t *values;
	char **strings;
	int64_t comment;
};

static int64_t sw_pb_str(struct sw_pb *pb, const char *s)
{
	return sw_intern_str(&pb->str, s);
}

static void sw_pb_free(struct sw_pb *pb)
{
	sw_intern_free(&pb->str);
	sw_intern_free(&pb->fn_ids);
	free(pb->map);
	free(pb->mapp);
	free(pb->fn);
	free(pb->fnp);
	free(pb->loc);
	free(pb->locp);
	free(pb->line);
	free(pb->linep);
	free(pb->smp);
	free(pb->smpp);
	free(pb->lab);
	free(pb->labp);
	free(pb->locids);
	free(pb->values);
	free(pb->strings);
}

/*
 * The comment, then the string table (every string is interned by now),
 * then the serialized message in *@out.  Return: 0 or -ENOMEM.
 */
static int sw_pb_pack(struct sw_pb *pb, const char *comment, uint8_t **out,
		      size_t *len)
{
	size_t i;

	if (comment) {
		pb->comment = sw_pb_str(pb, comment);
		if (pb->comment < 0)
			return -ENOMEM;
		pb->prof.comment = &pb->comment;
		pb->prof.n_comment = 1;
	}
	pb->strings = calloc(pb->str.n + 1, sizeof(*pb->strings));
	if (!pb->strings)
		return -ENOMEM;
	for (i = 0; i < pb->str.n; i++)
		pb->strings[i] = (char *)sw_intern_s(&pb->str, (uint32_t)i);
	pb->prof.string_table = pb->strings;
	pb->prof.n_string_table = pb->str.n;
	*len = perftools__profiles__profile__get_packed_size(&pb->prof);
	*out = malloc(*len ? *len : 1);
	if (!*out)
		return -ENOMEM;
	perftools__profiles__profile__pack(&pb->prof, *out);
	return 0;
}

static bool sw_is_clock(const char *ev)
{
	return !strcmp(ev, "cpu-clock") || !strcmp(ev, "task-clock");
}

/* The function id of a location's symbol (1-based), adding it if new. */
static int64_t sw_pb_function(struct sw_pb *pb, struct sw_symbolizer *sym,
			      const struct sw_symres *r, uint32_t loc)
{
	char label[512];
	struct {
		int64_t name;
		int64_t file;
	} key;
	int64_t id;
	int added;

	key.name = sw_pb_str(pb, sw_frame_label(sym, loc, false, label,
						  sizeof(label)));
	key.file = sw_pb_str(pb, r->flags & SW_SYMRES_LINE ?
				 sw_str(sym->m, r->file) : "");
	if (key.name < 0 || key.file < 0)
		return -ENOMEM;
	id = sw_intern_add(&pb->fn_ids, &key, sizeof(key), &added);
	if (id < 0)
		return id;
	if (added) {
		if (pb->nfn == pb->fncap) {
			size_t cap = pb->fncap ? pb->fncap * 2 : 256;
			SwFunction *n = realloc(pb->fn, cap * sizeof(*n));

			if (!n)
				return -ENOMEM;
			pb->fn = n;
			pb->fncap = cap;
		}
		perftools__profiles__function__init(&pb->fn[pb->nfn]);
		pb->fn[pb->nfn].id = (uint64_t)id + 1;
		pb->fn[pb->nfn].name = key.name;
		pb->fn[pb->nfn].system_name = key.name;
		pb->fn[pb->nfn].filename = key.file;
		pb->nfn++;
	}
	return id + 1;
}

int sw_pprof_encode(const struct sw_stacks *st, struct sw_symbolizer *sym,
		    const struct sw_pprof_info *info, uint8_t **out,
		    size_t *len)
{
	struct sw_machine *m = sym->m;
	struct sw_u64map locmap, mapmap;
	struct sw_pb pb;
	size_t nlocs = 0, i, j, k;
	const char *ev = info->event && *info->event ? info->event : "events";
	bool clock = sw_is_clock(ev);
	uint64_t v;
	int ret = -ENOMEM;
	int64_t comm_key;

	memset(&pb, 0, sizeof(pb));
	sw_intern_init(&pb.str);
	sw_intern_init(&pb.fn_ids);
	sw_u64map_init(&locmap);
	sw_u64map_init(&mapmap);
	if (sw_pb_str(&pb, "") != 0)
		goto out;

	/* Locations: every distinct symbolizer id in the stacks. */
	for (i = 0; i < st->set.n; i++)
		nlocs += sw_stacks_depth(st, i);
	pb.loc = calloc(nlocs + 1, sizeof(*pb.loc));
	pb.locp = calloc(nlocs + 1, sizeof(*pb.locp));
	pb.line = calloc(nlocs + 1, sizeof(*pb.line));
	pb.linep = calloc(nlocs + 1, sizeof(*pb.linep));
	pb.map = calloc(m->nimage + 1, sizeof(*pb.map));
	pb.mapp = calloc(m->nimage + 1, sizeof(*pb.mapp));
	pb.smp = calloc(st->set.n + 1, sizeof(*pb.smp));
	pb.smpp = calloc(st->set.n + 1, sizeof(*pb.smpp));
	pb.lab = calloc(st->set.n + 1, sizeof(*pb.lab));
	pb.labp = calloc(st->set.n + 1, sizeof(*pb.labp));
	pb.locids = calloc(nlocs + 1, sizeof(*pb.locids));
	pb.values = calloc(2 * st->set.n + 1, sizeof(*pb.values));
	if (!pb.loc || !pb.locp || !pb.line || !pb.linep || !pb.map ||
	    !pb.mapp || !pb.smp || !pb.smpp || !pb.lab || !pb.labp ||
	    !pb.locids || !pb.values)
		goto out;
	comm_key = sw_pb_str(&pb, "comm");
	if (comm_key < 0)
		goto out;

	for (i = 0, k = 0; i < st->set.n; i++) {
		const uint32_t *locs = sw_stacks_locs(st, i);
		size_t n = sw_stacks_depth(st, i);
		SwSample *s = &pb.smp[i];
		int64_t cs;

		perftools__profiles__sample__init(s);
		s->location_id = &pb.locids[k];
		s->n_location_id = n;
		for (j = 0; j < n; j++, k++) {
			const struct sw_symres *r = sw_symres_get(sym, locs[j]);
			SwLocation *l;
			int64_t fid;

			if (sw_u64map_get(&locmap, locs[j], &v)) {
				pb.locids[k] = v;
				continue;
			}
			l = &pb.loc[pb.nloc];
			perftools__profiles__location__init(l);
			l->id = pb.nloc + 1;
			l->address = r->vaddr;
			if (!sw_u64map_get(&mapmap, r->image, &v)) {
				const struct sw_image *img = &m->image[r->image];
				SwMapping *mp = &pb.map[pb.nmap];
				char hex[2 * SW_BUILD_ID_MAX + 1];

				perftools__profiles__mapping__init(mp);
				mp->id = pb.nmap + 1;
				mp->filename = sw_pb_str(&pb, img->kind == SW_IMG_FILE ?
							 img->path :
							 sw_str(m, img->name_id));
				mp->build_id = sw_pb_str(&pb, img->build_id_size ?
							 sw_build_id_hex(hex, img->build_id,
									 img->build_id_size) :
							 "");
				if (mp->filename < 0 || mp->build_id < 0)
					goto out;
				/* Symbolized here: pprof must not try again. */
				mp->has_functions = 1;
				mp->has_filenames = 1;
				mp->has_line_numbers = 1;
				v = mp->id;
				pb.mapp[pb.nmap++] = mp;
				if (sw_u64map_put(&mapmap, r->image, v))
					goto out;
			}
			l->mapping_id = v;
			fid = sw_pb_function(&pb, sym, r, locs[j]);
			if (fid < 0)
				goto out;
			perftools__profiles__line__init(&pb.line[pb.nloc]);
			pb.line[pb.nloc].function_id = (uint64_t)fid;
			pb.line[pb.nloc].line = r->flags & SW_SYMRES_LINE ?
						r->line : 0;
			pb.linep[pb.nloc] = &pb.line[pb.nloc];
			l->line = &pb.linep[pb.nloc];
			l->n_line = 1;
			pb.locp[pb.nloc] = l;
			pb.nloc++;
			pb.locids[k] = l->id;
			if (sw_u64map_put(&locmap, locs[j], l->id))
				goto out;
		}
		pb.values[2 * i] = (int64_t)st->samples[i];
		pb.values[2 * i + 1] = (int64_t)st->period[i];
		s->value = &pb.values[2 * i];
		s->n_value = 2;
		cs = sw_pb_str(&pb, sw_str(m, sw_stacks_comm(st, i)));
		if (cs < 0)
			goto out;
		perftools__profiles__label__init(&pb.lab[i]);
		pb.lab[i].key = comm_key;
		pb.lab[i].str = cs;
		pb.labp[i] = &pb.lab[i];
		s->label = &pb.labp[i];
		s->n_label = 1;
		pb.smpp[i] = s;
	}
	pb.fnp = calloc(pb.nfn + 1, sizeof(*pb.fnp));
	if (!pb.fnp)
		goto out;
	for (i = 0; i < pb.nfn; i++)
		pb.fnp[i] = &pb.fn[i];

	perftools__profiles__profile__init(&pb.prof);
	for (i = 0; i < 3; i++)
		perftools__profiles__value_type__init(&pb.vt[i]);
	pb.vt[0].type = sw_pb_str(&pb, "samples");
	pb.vt[0].unit = sw_pb_str(&pb, "count");
	pb.vt[1].type = sw_pb_str(&pb, clock ? "cpu" : ev);
	pb.vt[1].unit = sw_pb_str(&pb, clock ? "nanoseconds" : "count");
	pb.vt[2] = pb.vt[1];
	if (pb.vt[0].type < 0 || pb.vt[0].unit < 0 || pb.vt[1].type < 0 ||
	    pb.vt[1].unit < 0)
		goto out;
	pb.vtp[0] = &pb.vt[0];
	pb.vtp[1] = &pb.vt[1];
	pb.prof.sample_type = pb.vtp;
	pb.prof.n_sample_type = 2;
	pb.prof.period_type = &pb.vt[2];
	pb.prof.period = (int64_t)info->period;
	pb.prof.time_nanos = (int64_t)info->time_ns;
	pb.prof.duration_nanos = (int64_t)info->duration_ns;
	pb.prof.default_sample_type = pb.vt[1].type;
	pb.prof.sample = pb.smpp;
	pb.prof.n_sample = st->set.n;
	pb.prof.location = pb.locp;
	pb.prof.n_location = pb.nloc;
	pb.prof.mapping = pb.mapp;
	pb.prof.n_mapping = pb.nmap;
	pb.prof.function = pb.fnp;
	pb.prof.n_function = pb.nfn;
	ret = sw_pb_pack(&pb, info->comment, out, len);
out:
	sw_pb_free(&pb);
	sw_u64map_free(&locmap);
	sw_u64map_free(&mapmap);
	return ret;
}

/* The location id of frame @name (1-based), adding it and its function. */
static int64_t sw_pb_frame(struct sw_pb *pb, const char *name, size_t len,
			   size_t *cap)
{
	int64_t str, id;
	char *copy;
	int added;

	copy = strndup(name, len);
	if (!copy)
		return -ENOMEM;
	str = sw_pb_str(pb, copy);
	free(copy);
	if (str < 0)
		return str;
	id = sw_intern_add(&pb->fn_ids, &str, sizeof(str), &added);
	if (id < 0 || !added)
		return id < 0 ? id : id + 1;
	if (pb->nfn == *cap) {
		size_t nc = *cap ? 2 * *cap : 64;
		SwFunction *f = realloc(pb->fn, nc * sizeof(*f));
		SwLocation *l = f ? realloc(pb->loc, nc * sizeof(*l)) : NULL;
		SwLine *ln;

		if (f)
			pb->fn = f;
		if (l)
			pb->loc = l;
		ln = l ? realloc(pb->line, nc * sizeof(*ln)) : NULL;
		if (!ln)
			return -ENOMEM;
		pb->line = ln;
		*cap = nc;
	}
	perftools__profiles__function__init(&pb->fn[pb->nfn]);
	pb->fn[pb->nfn].id = (uint64_t)id + 1;
	pb->fn[pb->nfn].name = str;
	pb->fn[pb->nfn].system_name = str;
	perftools__profiles__line__init(&pb->line[pb->nfn]);
	pb->line[pb->nfn].function_id = (uint64_t)id + 1;
	perftools__profiles__location__init(&pb->loc[pb->nfn]);
	pb->loc[pb->nfn].id = (uint64_t)id + 1;
	pb->nfn++;
	return id + 1;
}

int sw_pprof_encode_folded(const char *const *stacks, const int64_t *values,
			   size_t n, const struct sw_pprof_folded *info,
			   uint8_t **out, size_t *len)
{
	SwValueType vt[8], *vtp[8];
	size_t nframes = 0, cap = 0, i, k;
	struct sw_pb pb;
	int ret = -ENOMEM;

	if (info->ntypes > 8 || !info->ntypes || info->deftype >= info->ntypes)
		return -EINVAL;
	memset(&pb, 0, sizeof(pb));
	sw_intern_init(&pb.str);
	sw_intern_init(&pb.fn_ids);
	if (sw_pb_str(&pb, "") != 0)
		goto out;
	for (i = 0; i < n; i++) {
		const char *c;

		nframes++;
		for (c = stacks[i]; *c; c++)
			nframes += *c == ';';
	}
	pb.smp = calloc(n + 1, sizeof(*pb.smp));
	pb.smpp = calloc(n + 1, sizeof(*pb.smpp));
	pb.locids = calloc(nframes + 1, sizeof(*pb.locids));
	pb.values = calloc(n * info->ntypes + 1, sizeof(*pb.values));
	if (!pb.smp || !pb.smpp || !pb.locids || !pb.values)
		goto out;
	for (i = 0, k = 0; i < n; i++) {
		SwSample *s = &pb.smp[i];
		const char *end = stacks[i] + strlen(stacks[i]);
		size_t first = k;

		perftools__profiles__sample__init(s);
		/* Innermost first: walk the names from the end. */
		while (end > stacks[i] || (end == stacks[i] && k == first)) {
			const char *start = end;
			int64_t id;

			while (start > stacks[i] && start[-1] != ';')
				start--;
			id = sw_pb_frame(&pb, start, (size_t)(end - start), &cap);
			if (id < 0) {
				ret = (int)id;
				goto out;
			}
			pb.locids[k++] = (uint64_t)id;
			if (start == stacks[i])
				break;
			end = start - 1;
		}
		s->location_id = &pb.locids[first];
		s->n_location_id = k - first;
		memcpy(&pb.values[i * info->ntypes], &values[i * info->ntypes],
		       info->ntypes * sizeof(*values));
		s->value = &pb.values[i * info->ntypes];
		s->n_value = info->ntypes;
		pb.smpp[i] = s;
	}
	pb.fnp = calloc(pb.nfn + 1, sizeof(*pb.fnp));
	pb.locp = calloc(pb.nfn + 1, sizeof(*pb.locp));
	pb.linep = calloc(pb.nfn + 1, sizeof(*pb.linep));
	if (!pb.fnp || !pb.locp || !pb.linep)
		goto out;
	for (i = 0; i < pb.nfn; i++) {
		pb.fnp[i] = &pb.fn[i];
		pb.linep[i] = &pb.line[i];
		pb.loc[i].line = &pb.linep[i];
		pb.loc[i].n_line = 1;
		pb.locp[i] = &pb.loc[i];
	}
	perftools__profiles__profile__init(&pb.prof);
	for (i = 0; i < info->ntypes; i++) {
		perftools__profiles__value_type__init(&vt[i]);
		vt[i].type = sw_pb_str(&pb, info->types[i]);
		vt[i].unit = sw_pb_str(&pb, info->units[i]);
		if (vt[i].type < 0 || vt[i].unit < 0)
			goto out;
		vtp[i] = &vt[i];
	}
	pb.prof.sample_type = vtp;
	pb.prof.n_sample_type = info->ntypes;
	pb.prof.default_sample_type = vt[info->deftype].type;
	pb.prof.sample = pb.smpp;
	pb.prof.n_sample = n;
	pb.prof.location = pb.locp;
	pb.prof.n_location = pb.nfn;
	pb.prof.function = pb.fnp;
	pb.prof.n_function = pb.nfn;
	ret = sw_pb_pack(&pb, info->comment, out, len);
out:
	sw_pb_free(&pb);
	return ret;
}

int sw_pprof_gzip(const uint8_t *buf, size_t len, uint8_t **out,
		  size_t *outlen)
{
	z_stream z = { 0 };
	uint8_t *o;
	size_t cap;
	int ret;

	*out = NULL;
	*outlen = 0;
	/* windowBits 15 + 16: a gzip header and trailer, as gzopen writes. */
	if (deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) !=
	    Z_OK)
		return -ENOMEM;
	cap = deflateBound(&z, (uLong)len);
	o = malloc(cap ? cap : 1);
	if (!o) {
		deflateEnd(&z);
		return -ENOMEM;
	}
	z.next_in = (Bytef *)buf;
	z.avail_in = (uInt)len;
	z.next_out = o;
	z.avail_out = (uInt)cap;
	ret = deflate(&z, Z_FINISH);
	deflateEnd(&z);
	if (ret != Z_STREAM_END || len > UINT32_MAX) {
		free(o);
		return -ENOMEM;
	}
	*out = o;
	*outlen = cap - z.avail_out;
	return 0;
}

int sw_pprof_write(const char *path, const uint8_t *buf, size_t len,
		   struct sw_err *err)
{
	gzFile z = gzopen(path, "wb9");
	size_t off = 0;
	int ret = 0;

	if (!z)
		return sw_err_set(err, errno ? -errno : -ENOMEM,
				  "cannot create %s: %s", path,
				  strerror(errno ? errno : ENOMEM));
	while (off < len) {
		unsigned int n = len - off > (1U << 30) ? 1U << 30 :
							   (unsigned int)(len - off);

		if (gzwrite(z, buf + off, n) != (int)n) {
			ret = -EIO;
			break;
		}
		off += n;
	}
	if (gzclose(z) != Z_OK && !ret)
		ret = -EIO;
	if (ret)
		sw_err_set(err, ret, "write error on %s", path);
	return ret;
}
