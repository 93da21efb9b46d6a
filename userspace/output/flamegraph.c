// SPDX-License-Identifier: GPL-2.0
/*
 * flamegraph.c - SVG flame graph writer.
 *
 * The stacks become a tree (root: all samples; then thread names; then
 * callers before callees) whose children are sorted by name, so the same
 * profile always draws the same picture.  Each node is a box whose width
 * is its share of the root; boxes narrower than 0.1 pixel are left out
 * (their weight still counts in their parent).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "output/flamegraph.h"
#include "base/tree.h"
#include "base/sort.h"

#define SW_FG_ROW 16
#define SW_FG_TOP 52
#define SW_FG_BOTTOM 30
#define SW_FG_PAD 10
#define SW_FG_MINW 0.1

struct sw_fg {
	struct sw_tree t;	/* keys: label ids */
	struct sw_intern labels;
	uint32_t maxdepth;
};

void sw_xml_escape(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		default:
			if ((unsigned char)*s >= 0x20 || *s == '\t')
				fputc(*s, f);
		}
	}
}

static int64_t sw_fg_child(struct sw_fg *g, uint32_t parent, uint32_t label)
{
	return sw_tree_child(&g->t, parent, label);
}

/* Warm colors by name hash, as flame graphs are usually drawn; kernel
 * frames orange, unknown ones grey. */
static void sw_fg_color(const char *name, char *out, size_t len)
{
	uint64_t h = sw_hash_bytes(name, strlen(name));
	unsigned int r, g, b;
	size_t n = strlen(name);

	if (!strncmp(name, "[unknown]", 9)) {
		r = g = b = 180 + (unsigned int)(h % 30);
	} else if (n > 4 && !strcmp(name + n - 4, "_[k]")) {
		r = 220 + (unsigned int)(h % 35);
		g = 120 + (unsigned int)(h >> 8) % 60;
		b = 30 + (unsigned int)(h >> 16) % 30;
	} else {
		r = 205 + (unsigned int)(h % 50);
		g = (unsigned int)(h >> 8) % 190;
		b = (unsigned int)(h >> 16) % 55;
	}
	snprintf(out, len, "rgb(%u,%u,%u)", r, g, b);
}

struct sw_fg_ctx {
	FILE *f;
	struct sw_fg *g;
	double scale;		/* pixels per unit of weight */
	uint64_t total;
	unsigned int height;
	const char *unit;
};

static int sw_fg_label_cmp(const void *x, const void *y, void *arg)
{
	const struct sw_fg *g = arg;
	const struct sw_tree_node *a = *(const struct sw_tree_node *const *)x;
	const struct sw_tree_node *b = *(const struct sw_tree_node *const *)y;

	return strcmp(sw_intern_s(&g->labels, (uint32_t)a->key),
		      sw_intern_s(&g->labels, (uint32_t)b->key));
}

static int sw_fg_draw(struct sw_fg_ctx *c, uint32_t node, double x,
		      uint32_t depth)
{
	struct sw_tree_node *n = &c->g->t.node[node], **kids;
	const char *name = sw_intern_s(&c->g->labels, (uint32_t)n->key);
	double w = (double)n->w * c->scale, y;
	size_t nk = 0, i;
	char color[32];
	uint32_t k;
	int ret = 0;

	if (w < SW_FG_MINW)
		return 0;
	y = c->height - SW_FG_BOTTOM - (depth + 1) * SW_FG_ROW;
	sw_fg_color(name, color, sizeof(color));
	fprintf(c->f, "<g class=\"f\" data-n=\"");
	sw_xml_escape(c->f, name);
	fprintf(c->f, "\"><title>");
	sw_xml_escape(c->f, name);
	fprintf(c->f, " (%" PRIu64 " %s, %.2f%%)</title><rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%d\" fill=\"%s\" rx=\"2\"/><text x=\"%.2f\" y=\"%.1f\"></text></g>\n",
		n->w, c->unit,
		c->total ? 100.0 * (double)n->w / (double)c->total : 0.0, x, y,
		w, SW_FG_ROW - 1, color, x + 3, y + 11.5);

	for (k = n->child; k; k = c->g->t.node[k - 1].next)
		nk++;
	if (!nk)
		return 0;
	kids = malloc(nk * sizeof(*kids));
	if (!kids)
		return -ENOMEM;
	nk = 0;
	for (k = n->child; k; k = c->g->t.node[k - 1].next)
		kids[nk++] = &c->g->t.node[k - 1];
	sw_qsort_r(kids, nk, sizeof(*kids), sw_fg_label_cmp, c->g);
	for (i = 0; i < nk && !ret; i++) {
		ret = sw_fg_draw(c, (uint32_t)(kids[i] - c->g->t.node), x,
				 depth + 1);
		x += (double)kids[i]->w * c->scale;
	}
	free(kids);
	return ret;
}

static const char sw_fg_script[] =
	"<script type=\"text/ecmascript\"><![CDATA[\n"
	"'use strict';\n"
	"var W, PAD = " "10" ", det, matched, unz, frames;\n"
	"function init() {\n"
	"  W = parseFloat(document.documentElement.getAttribute('width'));\n"
	"  det = document.getElementById('details').firstChild;\n"
	"  matched = document.getElementById('matched').firstChild;\n"
	"  unz = document.getElementById('unzoom');\n"
	"  frames = Array.prototype.slice.call(document.getElementsByClassName('f'));\n"
	"  frames.forEach(function (g) {\n"
	"    var r = g.firstChild.nextSibling;\n"
	"    r.setAttribute('data-x', r.getAttribute('x'));\n"
	"    r.setAttribute('data-w', r.getAttribute('width'));\n"
	"    r.setAttribute('data-fill', r.getAttribute('fill'));\n"
	"    g.addEventListener('mouseover', function () { det.nodeValue = g.firstChild.textContent; });\n"
	"    g.addEventListener('mouseout', function () { det.nodeValue = ' '; });\n"
	"    g.addEventListener('click', function () { zoom(g); });\n"
	"    fit(g);\n"
	"  });\n"
	"  window.addEventListener('keydown', function (e) {\n"
	"    if ((e.ctrlKey || e.metaKey) && e.key === 'f') { e.preventDefault(); search(); }\n"
	"    if (e.key === 'Escape') { reset_search(); unzoom(); }\n"
	"  });\n"
	"}\n"
	"function fit(g) {\n"
	"  var r = g.firstChild.nextSibling, t = r.nextSibling;\n"
	"  var w = parseFloat(r.getAttribute('width')), name = g.getAttribute('data-n');\n"
	"  var n = Math.floor((w - 6) / 7);\n"
	"  t.setAttribute('x', parseFloat(r.getAttribute('x')) + 3);\n"
	"  t.textContent = n < 3 ? '' : name.length <= n ? name : name.substring(0, n - 2) + '..';\n"
	"}\n"
	"function zoom(g) {\n"
	"  var r = g.firstChild.nextSibling;\n"
	"  var x0 = parseFloat(r.getAttribute('data-x')), w0 = parseFloat(r.getAttribute('data-w'));\n"
	"  var y0 = parseFloat(r.getAttribute('y')), scale = (W - 2 * PAD) / w0;\n"
	"  frames.forEach(function (f) {\n"
	"    var q = f.firstChild.nextSibling, x = parseFloat(q.getAttribute('data-x'));\n"
	"    var w = parseFloat(q.getAttribute('data-w')), y = parseFloat(q.getAttribute('y'));\n"
	"    var inside = x >= x0 - 1e-6 && x + w <= x0 + w0 + 1e-6;\n"
	"    if (y > y0 && x <= x0 + 1e-6 && x + w >= x0 + w0 - 1e-6) {\n"
	"      q.setAttribute('x', PAD); q.setAttribute('width', W - 2 * PAD);\n"
	"      f.style.display = ''; f.style.opacity = '0.6';\n"
	"    } else if (y <= y0 && inside) {\n"
	"      q.setAttribute('x', PAD + (x - x0) * scale); q.setAttribute('width', w * scale);\n"
	"      f.style.display = ''; f.style.opacity = '';\n"
	"    } else {\n"
	"      f.style.display = 'none';\n"
	"    }\n"
	"    fit(f);\n"
	"  });\n"
	"  unz.style.display = '';\n"
	"}\n"
	"function unzoom() {\n"
	"  frames.forEach(function (f) {\n"
	"    var q = f.firstChild.nextSibling;\n"
	"    q.setAttribute('x', q.getAttribute('data-x'));\n"
	"    q.setAttribute('width', q.getAttribute('data-w'));\n"
	"    f.style.display = ''; f.style.opacity = '';\n"
	"    fit(f);\n"
	"  });\n"
	"  unz.style.display = 'none';\n"
	"}\n"
	"function reset_search() {\n"
	"  frames.forEach(function (f) {\n"
	"    var q = f.firstChild.nextSibling;\n"
	"    q.setAttribute('fill', q.getAttribute('data-fill'));\n"
	"  });\n"
	"  matched.nodeValue = ' ';\n"
	"}\n"
	"function search() {\n"
	"  var term = window.prompt('Search for (regular expression):', '');\n"
	"  if (term === null) return;\n"
	"  reset_search();\n"
	"  if (term === '') return;\n"
	"  var re, spans = [];\n"
	"  try { re = new RegExp(term); } catch (e) { matched.nodeValue = 'Bad expression'; return; }\n"
	"  frames.forEach(function (f) {\n"
	"    if (!re.test(f.getAttribute('data-n'))) return;\n"
	"    var q = f.firstChild.nextSibling;\n"
	"    q.setAttribute('fill', 'rgb(230,0,230)');\n"
	"    spans.push([parseFloat(q.getAttribute('data-x')), parseFloat(q.getAttribute('data-w'))]);\n"
	"  });\n"
	"  spans.sort(function (a, b) { return a[0] - b[0]; });\n"
	"  var sum = 0, end = -1;\n"
	"  spans.forEach(function (s) {\n"
	"    var e = s[0] + s[1];\n"
	"    if (s[0] >= end) { sum += s[1]; end = e; } else if (e > end) { sum += e - end; end = e; }\n"
	"  });\n"
	"  matched.nodeValue = 'Matched: ' + (100 * sum / (W - 2 * PAD)).toFixed(1) + '% (' + spans.length + ' frames)';\n"
	"}\n"
	"]]></script>\n";

static int sw_fg_write(FILE *f, struct sw_fg *g,
		       const struct sw_flame_opts *o);

int sw_write_flamegraph(FILE *f, const struct sw_stacks *st,
			struct sw_symbolizer *sym,
			const struct sw_flame_opts *o)
{
	struct sw_fg g = { 0 };
	char frame[512];
	int64_t lab, id;
	uint32_t i;
	int ret = 0;

	sw_intern_init(&g.labels);
	lab = sw_intern_str(&g.labels, "all");
	if (lab < 0 || sw_tree_reset(&g.t, (uint32_t)lab)) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < st->set.n; i++) {
		const uint32_t *locs = sw_stacks_locs(st, i);
		size_t n = sw_stacks_depth(st, i), j;
		uint64_t w = o->period ? st->period[i] : st->samples[i];
		uint32_t cur = 0, depth = 1;

		g.t.node[0].w += w;
		lab = sw_intern_str(&g.labels, sw_str(sym->m,
						       sw_stacks_comm(st, i)));
		if (lab < 0 || (id = sw_fg_child(&g, cur, (uint32_t)lab)) < 0) {
			ret = -ENOMEM;
			goto out;
		}
		cur = (uint32_t)id;
		g.t.node[cur].w += w;
		for (j = n; j-- > 0; depth++) {
			lab = sw_intern_str(&g.labels,
					    sw_frame_label(sym, locs[j], true,
							   frame, sizeof(frame)));
			if (lab < 0 ||
			    (id = sw_fg_child(&g, cur, (uint32_t)lab)) < 0) {
				ret = -ENOMEM;
				goto out;
			}
			cur = (uint32_t)id;
			g.t.node[cur].w += w;
		}
		if (depth > g.maxdepth)
			g.maxdepth = depth;
	}

	ret = sw_fg_write(f, &g, o);
out:
	sw_tree_free(&g.t);
	sw_intern_free(&g.labels);
	return ret;
}

/* Draws the tree @g: everything but building it. */
static int sw_fg_write(FILE *f, struct sw_fg *g, const struct sw_flame_opts *o)
{
	unsigned int width = o->width ? o->width : 1200;
	struct sw_fg_ctx c;
	int ret = 0;

	c.f = f;
	c.g = g;
	c.total = g->t.node[0].w;
	c.scale = c.total ? (double)(width - 2 * SW_FG_PAD) / (double)c.total : 0;
	c.height = SW_FG_TOP + SW_FG_BOTTOM + (g->maxdepth + 1) * SW_FG_ROW;
	c.unit = o->unit ? o->unit : "samples";

	fprintf(f, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
		   "<svg version=\"1.1\" width=\"%u\" height=\"%u\" viewBox=\"0 0 %u %u\" onload=\"init()\" xmlns=\"http://www.w3.org/2000/svg\">\n"
		   "<style>text { font-family: monospace; font-size: 12px; fill: rgb(0,0,0); } .f { cursor: pointer; } .f:hover rect { stroke: black; stroke-width: 0.5; } #title { font-size: 17px; text-anchor: middle; } .btn { cursor: pointer; fill: rgb(60,60,160); }</style>\n",
		width, c.height, width, c.height);
	fputs(sw_fg_script, f);
	fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%u\" height=\"%u\" fill=\"rgb(250,250,238)\"/>\n",
		width, c.height);
	fprintf(f, "<text id=\"title\" x=\"%u\" y=\"22\">", width / 2);
	sw_xml_escape(f, o->title ? o->title : "Flame Graph");
	fprintf(f, "</text>\n");
	if (o->subtitle) {
		fprintf(f, "<text x=\"%u\" y=\"40\" style=\"text-anchor: middle; fill: rgb(100,100,100)\">",
			width / 2);
		sw_xml_escape(f, o->subtitle);
		fprintf(f, "</text>\n");
	}
	fprintf(f, "<text class=\"btn\" id=\"unzoom\" x=\"%d\" y=\"22\" style=\"display: none\" onclick=\"unzoom()\">Reset Zoom</text>\n",
		SW_FG_PAD);
	fprintf(f, "<text class=\"btn\" x=\"%u\" y=\"22\" style=\"text-anchor: end\" onclick=\"search()\">Search</text>\n",
		width - SW_FG_PAD);
	fprintf(f, "<text id=\"matched\" x=\"%u\" y=\"%u\" style=\"text-anchor: end\"> </text>\n",
		width - SW_FG_PAD, c.height - 10);
	fprintf(f, "<text id=\"details\" x=\"%d\" y=\"%u\"> </text>\n",
		SW_FG_PAD, c.height - 10);
	if (c.total)
		ret = sw_fg_draw(&c, 0, SW_FG_PAD, 0);
	fprintf(f, "</svg>\n");
	if (!ret && ferror(f))
		ret = -EIO;
	return ret;
}

int sw_write_flamegraph_folded(FILE *f, const char *const *stacks,
			       const uint64_t *w, size_t n,
			       const struct sw_flame_opts *o)
{
	struct sw_fg g = { 0 };
	int64_t lab, id;
	char *frame = NULL;
	size_t i;
	int ret = -ENOMEM;

	sw_intern_init(&g.labels);
	lab = sw_intern_str(&g.labels, "all");
	if (lab < 0 || sw_tree_reset(&g.t, (uint32_t)lab))
		goto out;
	for (i = 0; i < n; i++) {
		const char *s = stacks[i];
		uint32_t cur = 0, depth = 0;

		g.t.node[0].w += w[i];
		while (*s) {
			size_t len = strcspn(s, ";");

			free(frame);
			frame = strndup(s, len);
			if (!frame)
				goto out;
			lab = sw_intern_str(&g.labels, frame);
			if (lab < 0 ||
			    (id = sw_fg_child(&g, cur, (uint32_t)lab)) < 0)
				goto out;
			cur = (uint32_t)id;
			g.t.node[cur].w += w[i];
			depth++;
			s += len + (s[len] == ';');
		}
		if (depth > g.maxdepth)
			g.maxdepth = depth;
	}
	ret = sw_fg_write(f, &g, o);
out:
	free(frame);
	sw_tree_free(&g.t);
	sw_intern_free(&g.labels);
	return ret;
}
