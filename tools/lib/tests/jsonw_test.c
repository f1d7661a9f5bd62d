// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the JSON writer (jsonw.c): each case writes values and
 * compares the bytes with text written by hand, in both escape styles and
 * both layouts.
 */
#define _GNU_SOURCE
#include "helpers.h"
#include "../jsonw.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

struct jw_case {
	const char *name;
	unsigned int flags;
	void (*write)(struct jw *jw);
	const char *want;
};

/* Every byte that JSON must escape, and some that it must not */
static const char awkward[] = "q\"b\\s/\n\t\r\x01\x1f\x7f \xc3\xa9";

static void w_awkward(struct jw *jw)
{
	jw_str(jw, NULL, awkward);
}

static void w_awkward_key(struct jw *jw)
{
	jw_obj_open(jw, NULL);
	jw_u64(jw, "a\"\n", 1);
	jw_obj_close(jw);
}

static void w_nesting(struct jw *jw)
{
	jw_obj_open(jw, NULL);
	jw_arr_open(jw, "a");
	jw_u64(jw, NULL, 1);
	jw_obj_open(jw, NULL);
	jw_null(jw, "b");
	jw_obj_close(jw);
	jw_arr_open(jw, NULL);
	jw_arr_close(jw);
	jw_arr_close(jw);
	jw_obj_open(jw, "c");
	jw_obj_close(jw);
	jw_bool(jw, "d", true);
	jw_bool(jw, "e", false);
	jw_obj_close(jw);
}

static void w_numbers(struct jw *jw)
{
	jw_arr_open(jw, NULL);
	jw_u64(jw, NULL, 0);
	jw_u64(jw, NULL, UINT64_MAX);
	jw_s64(jw, NULL, INT64_MIN);
	jw_fixed(jw, NULL, 1.5, 6);
	jw_fixed(jw, NULL, 0.1234567, 6);
	jw_fixed(jw, NULL, 2.0 / 3, 3);
	jw_fixed(jw, NULL, 42, 0);
	jw_raw_num(jw, NULL, "-1.5e+10");
	jw_arr_close(jw);
}

/* Top-level values follow each other, a line each (dcms's log) */
static void w_lines(struct jw *jw)
{
	jw_obj_open(jw, NULL);
	jw_fixed(jw, "t", 0.25, 6);
	jw_str(jw, "event", "start");
	jw_obj_close(jw);
	jw_obj_open(jw, NULL);
	jw_obj_open(jw, "root");
	jw_str(jw, "peer", "ca");
	jw_obj_close(jw);
	jw_arr_open(jw, "why");
	jw_arr_close(jw);
	jw_obj_close(jw);
	jw_u64(jw, NULL, 7);
}

static void w_empty(struct jw *jw)
{
	jw_obj_open(jw, NULL);
	jw_obj_close(jw);
	jw_arr_open(jw, NULL);
	jw_arr_close(jw);
}

static const struct jw_case cases[] = {
	{ "escapes", 0, w_awkward,
	  "\"q\\\"b\\\\s/\\n\\t\\r\\u0001\\u001f\x7f \xc3\xa9\"\n" },
	{ "escapes-u", JW_ESC_U, w_awkward,
	  "\"q\\\"b\\\\s/\\u000a\\u0009\\u000d\\u0001\\u001f\x7f \xc3\xa9\"\n" },
	{ "escapes-pretty", JW_PRETTY, w_awkward,
	  "\"q\\\"b\\\\s/\\n\\t\\r\\u0001\\u001f\x7f \xc3\xa9\"\n" },
	{ "key", 0, w_awkward_key, "{\"a\\\"\\n\":1}\n" },
	{ "key-u", JW_ESC_U, w_awkward_key, "{\"a\\\"\\u000a\":1}\n" },
	{ "nesting", 0, w_nesting,
	  "{\"a\":[1,{\"b\":null},[]],\"c\":{},\"d\":true,\"e\":false}\n" },
	{ "nesting-pretty", JW_PRETTY, w_nesting,
	  "{\n"
	  "  \"a\": [\n"
	  "    1,\n"
	  "    {\n"
	  "      \"b\": null\n"
	  "    },\n"
	  "    []\n"
	  "  ],\n"
	  "  \"c\": {},\n"
	  "  \"d\": true,\n"
	  "  \"e\": false\n"
	  "}\n" },
	{ "numbers", 0, w_numbers,
	  "[0,18446744073709551615,-9223372036854775808,1.500000,0.123457,0.667,42,-1.5e+10]\n" },
	{ "lines", JW_ESC_U, w_lines,
	  "{\"t\":0.250000,\"event\":\"start\"}\n"
	  "{\"root\":{\"peer\":\"ca\"},\"why\":[]}\n"
	  "7\n" },
	{ "empty-pretty", JW_PRETTY, w_empty, "{}\n[]\n" },
};

static void table(void **state)
{
	char *buf = NULL;
	size_t size = 0, i;
	struct jw jw;
	FILE *f;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		f = open_memstream(&buf, &size);
		assert_non_null(f);
		jw_init_flags(&jw, f, cases[i].flags);
		cases[i].write(&jw);
		assert_int_equal(fclose(f), 0);
		if (strcmp(buf, cases[i].want))
			fail_msg("case %s: got\n%s\nwant\n%s", cases[i].name, buf, cases[i].want);
		free(buf);
		buf = NULL;
	}
}

/* jw_init()'s bool is JW_PRETTY */
static void init_pretty(void **state)
{
	char *buf = NULL;
	size_t size = 0;
	struct jw jw;
	FILE *f;

	(void)state;
	f = open_memstream(&buf, &size);
	assert_non_null(f);
	jw_init(&jw, f, true);
	jw_obj_open(&jw, NULL);
	jw_str(&jw, "k", "\n");
	jw_obj_close(&jw);
	jw_init(&jw, f, false);
	jw_obj_open(&jw, NULL);
	jw_str(&jw, "k", "\n");
	jw_obj_close(&jw);
	fclose(f);
	assert_string_equal(buf, "{\n  \"k\": \"\\n\"\n}\n{\"k\":\"\\n\"}\n");
	free(buf);
}

int main(void)
{
	static const struct cm_test tests[] = {
		cmocka_unit_test(table),
		cmocka_unit_test(init_pretty),
	};

	return run_group("jsonw", tests, ARRAY_SIZE(tests)) ? 1 : 0;
}
