// SPDX-License-Identifier: GPL-2.0
/* The JSON writer; see jsonw.h. */
#include "jsonw.h"

#include <string.h>

void jw_init_flags(struct jw *jw, FILE *f, unsigned int flags)
{
	memset(jw, 0, sizeof(*jw));
	jw->f = f;
	jw->pretty = flags & JW_PRETTY;
	jw->esc_u = flags & JW_ESC_U;
}

void jw_init(struct jw *jw, FILE *f, bool pretty)
{
	jw_init_flags(jw, f, pretty ? JW_PRETTY : 0);
}

static void jw_indent(struct jw *jw)
{
	int i;

	fputc('\n', jw->f);
	for (i = 0; i < jw->depth; i++)
		fputs("  ", jw->f);
}

static void jw_quote(struct jw *jw, const char *s)
{
	const unsigned char *p;
	FILE *f = jw->f;

	fputc('"', f);
	for (p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p == '\n' && !jw->esc_u)
			fputs("\\n", f);
		else if (*p == '\t' && !jw->esc_u)
			fputs("\\t", f);
		else if (*p == '\r' && !jw->esc_u)
			fputs("\\r", f);
		else if (*p < 0x20)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

/* Separator, indent and key before a value. */
static void jw_begin(struct jw *jw, const char *key)
{
	if (jw->depth > 0) {
		if (jw->has_items[jw->depth])
			fputc(',', jw->f);
		if (jw->pretty)
			jw_indent(jw);
	}
	if (jw->depth < JW_MAX_DEPTH)
		jw->has_items[jw->depth] = true;
	if (key) {
		jw_quote(jw, key);
		fputs(jw->pretty ? ": " : ":", jw->f);
	}
}

/* After a value: a newline once a top-level value is complete. */
static void jw_end(struct jw *jw)
{
	if (jw->depth == 0) {
		fputc('\n', jw->f);
		jw->has_items[0] = false;
	}
}

static void jw_open(struct jw *jw, const char *key, char c)
{
	jw_begin(jw, key);
	fputc(c, jw->f);
	if (jw->depth + 1 < JW_MAX_DEPTH) {
		jw->depth++;
		jw->has_items[jw->depth] = false;
	}
}

static void jw_close(struct jw *jw, char c)
{
	bool items = jw->has_items[jw->depth];

	if (jw->depth > 0)
		jw->depth--;
	if (jw->pretty && items)
		jw_indent(jw);
	fputc(c, jw->f);
	jw_end(jw);
}

void jw_obj_open(struct jw *jw, const char *key)
{
	jw_open(jw, key, '{');
}

void jw_obj_close(struct jw *jw)
{
	jw_close(jw, '}');
}

void jw_arr_open(struct jw *jw, const char *key)
{
	jw_open(jw, key, '[');
}

void jw_arr_close(struct jw *jw)
{
	jw_close(jw, ']');
}

void jw_str(struct jw *jw, const char *key, const char *val)
{
	jw_begin(jw, key);
	jw_quote(jw, val);
	jw_end(jw);
}

void jw_u64(struct jw *jw, const char *key, uint64_t val)
{
	jw_begin(jw, key);
	fprintf(jw->f, "%llu", (unsigned long long)val);
	jw_end(jw);
}

void jw_s64(struct jw *jw, const char *key, int64_t val)
{
	jw_begin(jw, key);
	fprintf(jw->f, "%lld", (long long)val);
	jw_end(jw);
}

void jw_fixed(struct jw *jw, const char *key, double val, int decimals)
{
	jw_begin(jw, key);
	fprintf(jw->f, "%.*f", decimals, val);
	jw_end(jw);
}

void jw_bool(struct jw *jw, const char *key, bool val)
{
	jw_begin(jw, key);
	fputs(val ? "true" : "false", jw->f);
	jw_end(jw);
}

void jw_null(struct jw *jw, const char *key)
{
	jw_begin(jw, key);
	fputs("null", jw->f);
	jw_end(jw);
}

void jw_raw_num(struct jw *jw, const char *key, const char *text)
{
	jw_begin(jw, key);
	fputs(text, jw->f);
	jw_end(jw);
}
