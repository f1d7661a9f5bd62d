/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tools' one JSON writer: ibswctl's output (compact or pretty, two-space
 * indent), dcms's decision log (one compact object per line) and
 * ibsw-ccmad's answers. A value written at the top level ends its line.
 */
#ifndef IBSW_JSONW_H
#define IBSW_JSONW_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JW_MAX_DEPTH	32

/* jw_init_flags(): how the output looks */
enum {
	JW_PRETTY = 1 << 0,	/* a member per line, "key": value */
	/*
	 * Every control character as \u00XX, \n \t \r too. dcms's log has
	 * always been written so; ibswctl writes those three short.
	 */
	JW_ESC_U = 1 << 1,
};

struct jw {
	FILE *f;
	bool pretty;
	bool esc_u;
	int depth;
	bool has_items[JW_MAX_DEPTH];	/* a value was written at this depth */
};

void jw_init(struct jw *jw, FILE *f, bool pretty);
void jw_init_flags(struct jw *jw, FILE *f, unsigned int flags);
/* key: the member name inside an object, NULL inside an array or at the top */
void jw_obj_open(struct jw *jw, const char *key);
void jw_obj_close(struct jw *jw);
void jw_arr_open(struct jw *jw, const char *key);
void jw_arr_close(struct jw *jw);
void jw_str(struct jw *jw, const char *key, const char *val);
void jw_u64(struct jw *jw, const char *key, uint64_t val);
void jw_s64(struct jw *jw, const char *key, int64_t val);
/* A fixed-point number, printf's "%.*f" */
void jw_fixed(struct jw *jw, const char *key, double val, int decimals);
void jw_bool(struct jw *jw, const char *key, bool val);
void jw_null(struct jw *jw, const char *key);
/* A number given as text (already valid JSON) */
void jw_raw_num(struct jw *jw, const char *key, const char *text);

#endif /* IBSW_JSONW_H */
