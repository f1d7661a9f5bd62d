// SPDX-License-Identifier: GPL-2.0
/* The JSON reader, and writing what it read; see json.h. */
#define _GNU_SOURCE
#include "json.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Reader: recursive descent over the whole text. */
struct jr {
	const char *p;
	const char *start;
	char *err;
	size_t errlen;
	int depth;
};

static void jr_fail(struct jr *r, const char *fmt, ...) __printf(2, 3);

static void jr_fail(struct jr *r, const char *fmt, ...)
{
	const char *q;
	unsigned int line = 1;
	size_t n;
	va_list ap;

	if (r->err[0])
		return;
	for (q = r->start; q < r->p; q++)
		line += *q == '\n';
	n = snprintf(r->err, r->errlen, "line %u: ", line);
	if (n >= r->errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(r->err + n, r->errlen - n, fmt, ap);
	va_end(ap);
}

static void jr_ws(struct jr *r)
{
	while (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r')
		r->p++;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower((unsigned char)c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

static void put_utf8(FILE *f, unsigned int cp)
{
	if (cp < 0x80) {
		fputc(cp, f);
	} else if (cp < 0x800) {
		fputc(0xc0 | (cp >> 6), f);
		fputc(0x80 | (cp & 0x3f), f);
	} else if (cp < 0x10000) {
		fputc(0xe0 | (cp >> 12), f);
		fputc(0x80 | ((cp >> 6) & 0x3f), f);
		fputc(0x80 | (cp & 0x3f), f);
	} else {
		fputc(0xf0 | (cp >> 18), f);
		fputc(0x80 | ((cp >> 12) & 0x3f), f);
		fputc(0x80 | ((cp >> 6) & 0x3f), f);
		fputc(0x80 | (cp & 0x3f), f);
	}
}

static int jr_hex4(struct jr *r, unsigned int *cp)
{
	int i, h;

	*cp = 0;
	for (i = 0; i < 4; i++) {
		h = hexval(r->p[i]);
		if (h < 0) {
			jr_fail(r, "bad \\u escape");
			return -1;
		}
		*cp = *cp << 4 | h;
	}
	r->p += 4;
	return 0;
}

static char *jr_string(struct jr *r)
{
	char *s = NULL;
	size_t size = 0;
	unsigned int cp, lo;
	FILE *f;

	r->p++;		/* the opening quote */
	f = open_memstream(&s, &size);
	if (!f) {
		jr_fail(r, "out of memory");
		return NULL;
	}
	for (;;) {
		unsigned char c = *r->p;

		if (c == '"') {
			r->p++;
			break;
		}
		if (c == '\0' || c < 0x20) {
			jr_fail(r, c ? "control character in string" : "unterminated string");
			goto fail;
		}
		r->p++;
		if (c != '\\') {
			fputc(c, f);
			continue;
		}
		c = *r->p++;
		switch (c) {
		case '"':
		case '\\':
		case '/':
			fputc(c, f);
			break;
		case 'b':
			fputc('\b', f);
			break;
		case 'f':
			fputc('\f', f);
			break;
		case 'n':
			fputc('\n', f);
			break;
		case 'r':
			fputc('\r', f);
			break;
		case 't':
			fputc('\t', f);
			break;
		case 'u':
			if (jr_hex4(r, &cp))
				goto fail;
			if (cp >= 0xd800 && cp < 0xdc00 && r->p[0] == '\\' && r->p[1] == 'u') {
				r->p += 2;
				if (jr_hex4(r, &lo))
					goto fail;
				if (lo >= 0xdc00 && lo < 0xe000)
					cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			}
			if (cp == 0) {
				jr_fail(r, "NUL in string");
				goto fail;
			}
			put_utf8(f, cp);
			break;
		default:
			r->p--;
			jr_fail(r, "bad escape in string");
			goto fail;
		}
	}
	if (fclose(f)) {
		free(s);
		jr_fail(r, "out of memory");
		return NULL;
	}
	return s;
fail:
	fclose(f);
	free(s);
	return NULL;
}

static struct jv *jr_value(struct jr *r);

static struct jv *jv_new(struct jr *r, enum jv_type type)
{
	struct jv *v = calloc(1, sizeof(*v));

	if (!v)
		jr_fail(r, "out of memory");
	else
		v->type = type;
	return v;
}

/* Elements of an array or members of an object, after the opening bracket. */
static int jr_items(struct jr *r, struct jv *v, char close)
{
	struct jv **tail = &v->child;
	struct jv *item;
	char *key = NULL;

	r->p++;
	jr_ws(r);
	if (*r->p == close) {
		r->p++;
		return 0;
	}
	for (;;) {
		jr_ws(r);
		if (close == '}') {
			if (*r->p != '"') {
				jr_fail(r, "expected a member name");
				return -1;
			}
			key = jr_string(r);
			if (!key)
				return -1;
			jr_ws(r);
			if (*r->p != ':') {
				free(key);
				jr_fail(r, "expected ':'");
				return -1;
			}
			r->p++;
		}
		item = jr_value(r);
		if (!item) {
			free(key);
			return -1;
		}
		item->key = key;
		key = NULL;
		*tail = item;
		tail = &item->next;
		jr_ws(r);
		if (*r->p == ',') {
			r->p++;
			continue;
		}
		if (*r->p == close) {
			r->p++;
			return 0;
		}
		jr_fail(r, "expected ',' or '%c'", close);
		return -1;
	}
}

static struct jv *jr_number(struct jr *r)
{
	const char *s = r->p;
	struct jv *v;

	if (*r->p == '-')
		r->p++;
	if (*r->p == '0') {
		r->p++;
	} else if (isdigit((unsigned char)*r->p)) {
		while (isdigit((unsigned char)*r->p))
			r->p++;
	} else {
		jr_fail(r, "bad number");
		return NULL;
	}
	if (*r->p == '.') {
		r->p++;
		if (!isdigit((unsigned char)*r->p)) {
			jr_fail(r, "bad number");
			return NULL;
		}
		while (isdigit((unsigned char)*r->p))
			r->p++;
	}
	if (*r->p == 'e' || *r->p == 'E') {
		r->p++;
		if (*r->p == '+' || *r->p == '-')
			r->p++;
		if (!isdigit((unsigned char)*r->p)) {
			jr_fail(r, "bad number");
			return NULL;
		}
		while (isdigit((unsigned char)*r->p))
			r->p++;
	}
	v = jv_new(r, JV_NUM);
	if (v) {
		v->str = strndup(s, r->p - s);
		if (!v->str) {
			free(v);
			jr_fail(r, "out of memory");
			return NULL;
		}
	}
	return v;
}

static bool jr_word(struct jr *r, const char *word)
{
	size_t n = strlen(word);

	if (strncmp(r->p, word, n))
		return false;
	r->p += n;
	return true;
}

static struct jv *jr_value(struct jr *r)
{
	struct jv *v = NULL;

	jr_ws(r);
	if (++r->depth > 64) {
		jr_fail(r, "nested too deeply");
		return NULL;
	}
	switch (*r->p) {
	case '{':
	case '[':
		v = jv_new(r, *r->p == '{' ? JV_OBJ : JV_ARR);
		if (v && jr_items(r, v, v->type == JV_OBJ ? '}' : ']')) {
			jv_free(v);
			v = NULL;
		}
		break;
	case '"':
		v = jv_new(r, JV_STR);
		if (v) {
			v->str = jr_string(r);
			if (!v->str) {
				free(v);
				v = NULL;
			}
		}
		break;
	default:
		if (jr_word(r, "true")) {
			v = jv_new(r, JV_BOOL);
			if (v)
				v->b = true;
		} else if (jr_word(r, "false")) {
			v = jv_new(r, JV_BOOL);
		} else if (jr_word(r, "null")) {
			v = jv_new(r, JV_NULL);
		} else if (*r->p == '-' || isdigit((unsigned char)*r->p)) {
			v = jr_number(r);
		} else if (*r->p) {
			jr_fail(r, "unexpected character '%c'", *r->p);
		} else {
			jr_fail(r, "unexpected end");
		}
	}
	r->depth--;
	return v;
}

struct jv *jv_parse(const char *text, char *err, size_t errlen)
{
	struct jr r = { .p = text, .start = text, .err = err, .errlen = errlen };
	struct jv *v;

	err[0] = '\0';
	v = jr_value(&r);
	if (!v)
		return NULL;
	jr_ws(&r);
	if (*r.p) {
		jr_fail(&r, "trailing text after the value");
		jv_free(v);
		return NULL;
	}
	return v;
}

void jv_free(struct jv *v)
{
	struct jv *next;

	while (v) {
		next = v->next;
		jv_free(v->child);
		free(v->key);
		free(v->str);
		free(v);
		v = next;
	}
}

const struct jv *jv_get(const struct jv *obj, const char *key)
{
	const struct jv *v;

	if (!obj || obj->type != JV_OBJ)
		return NULL;
	for (v = obj->child; v; v = v->next)
		if (!strcmp(v->key, key))
			return v;
	return NULL;
}

const char *jv_get_str(const struct jv *obj, const char *key)
{
	const struct jv *v = jv_get(obj, key);

	return v && v->type == JV_STR ? v->str : NULL;
}

bool jv_get_u64(const struct jv *obj, const char *key, uint64_t *val)
{
	const struct jv *v = jv_get(obj, key);
	char *end;

	if (!v || v->type != JV_NUM || v->str[0] == '-')
		return false;
	errno = 0;
	*val = strtoull(v->str, &end, 10);
	return !errno && !*end;
}

void jv_write(struct jw *jw, const char *key, const struct jv *v)
{
	const struct jv *c;

	switch (v->type) {
	case JV_NULL:
		jw_null(jw, key);
		break;
	case JV_BOOL:
		jw_bool(jw, key, v->b);
		break;
	case JV_NUM:
		jw_raw_num(jw, key, v->str);
		break;
	case JV_STR:
		jw_str(jw, key, v->str);
		break;
	case JV_ARR:
		jw_arr_open(jw, key);
		for (c = v->child; c; c = c->next)
			jv_write(jw, NULL, c);
		jw_arr_close(jw);
		break;
	case JV_OBJ:
		jw_obj_open(jw, key);
		for (c = v->child; c; c = c->next)
			jv_write(jw, c->key, c);
		jw_obj_close(jw);
		break;
	}
}
