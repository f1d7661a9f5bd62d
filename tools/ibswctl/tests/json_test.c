// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the JSON reader that "fabric down" and "fabric desc" use
 * (json.c): values, escapes, errors with line numbers, and writing a
 * parsed document back unchanged.
 */
#define _GNU_SOURCE
#include "helpers.h"

#include <stdlib.h>
#include <string.h>

static char *rewrite(const char *text, bool pretty)
{
	char err[128], *buf = NULL;
	size_t size = 0;
	struct jv *v = jv_parse(text, err, sizeof(err));
	struct jw jw;
	FILE *f;

	if (!v)
		print_error("parse error: %s\n", err);
	assert_non_null(v);
	f = open_memstream(&buf, &size);
	assert_non_null(f);
	jw_init(&jw, f, pretty);
	jv_write(&jw, NULL, v);
	fclose(f);
	jv_free(v);
	return buf;
}

static void round_trip(void **state)
{
	static const char *const docs[] = {
		"{}", "[]", "0", "-1.5e+10", "\"x\"", "true", "false", "null",
		"{\"a\":[1,2,{\"b\":null}],\"c\":\"d\\\"e\\\\f\\n\",\"e\":{}}",
		"[[[]],[{}],-0,12345678901234567890]",
	};
	char *out;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(docs); i++) {
		out = rewrite(docs[i], false);
		assert_int_equal(strlen(out), strlen(docs[i]) + 1);
		assert_memory_equal(out, docs[i], strlen(docs[i]));
		free(out);
	}
	out = rewrite(" { \"a\" :\n[ 1 , true ] ,\"b\":{ }}\r\n", true);
	assert_string_equal(out, "{\n  \"a\": [\n    1,\n    true\n  ],\n  \"b\": {}\n}\n");
	free(out);
}

static void escapes(void **state)
{
	char err[128];
	struct jv *v;

	(void)state;
	v = jv_parse("[\"\\u0041\\u00e9\\u20ac\\ud83d\\ude00\\/\\b\\f\\r\\t\"]", err, sizeof(err));
	assert_non_null(v);
	assert_string_equal(v->child->str, "A\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80/\b\f\r\t");
	jv_free(v);
}

static void lookups(void **state)
{
	char err[128];
	struct jv *v;
	uint64_t n;

	(void)state;
	v = jv_parse("{\"s\":\"x\",\"n\":42,\"neg\":-1,\"f\":1.5,\n"
		     "\"big\":18446744073709551616,\"o\":{\"k\":[]}}", err, sizeof(err));
	assert_non_null(v);
	assert_string_equal(jv_get_str(v, "s"), "x");
	assert_null(jv_get_str(v, "n"));
	assert_null(jv_get_str(v, "missing"));
	assert_true(jv_get_u64(v, "n", &n));
	assert_int_equal(n, 42);
	assert_false(jv_get_u64(v, "neg", &n));
	assert_false(jv_get_u64(v, "f", &n));
	assert_false(jv_get_u64(v, "big", &n));
	assert_false(jv_get_u64(v, "s", &n));
	assert_int_equal(jv_get(jv_get(v, "o"), "k")->type, JV_ARR);
	assert_null(jv_get(jv_get(v, "s"), "k"));
	jv_free(v);
}

static void errors(void **state)
{
	static const struct {
		const char *text, *msg;
	} cases[] = {
		{ "", "line 1: unexpected end" },
		{ "{", "line 1: expected a member name" },
		{ "{\"a\" 1}", "line 1: expected ':'" },
		{ "{\"a\":1,}", "line 1: expected a member name" },
		{ "[1,]", "line 1: unexpected character ']'" },
		{ "[1 2]", "line 1: expected ',' or ']'" },
		{ "{\n\"a\":\n[1,\n2}", "line 4: expected ',' or ']'" },
		{ "\"abc", "line 1: unterminated string" },
		{ "\"a\nb\"", "line 1: control character in string" },
		{ "\"\\x\"", "line 1: bad escape in string" },
		{ "\"\\u12g4\"", "line 1: bad \\u escape" },
		{ "\"\\u0000\"", "line 1: NUL in string" },
		{ "01", "line 1: trailing text after the value" },
		{ "1.", "line 1: bad number" },
		{ "-", "line 1: bad number" },
		{ "1e", "line 1: bad number" },
		{ "tru", "line 1: unexpected character 't'" },
		{ "{} {}", "line 1: trailing text after the value" },
	};
	char err[128], deep[131];
	struct jv *v;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		assert_null(jv_parse(cases[i].text, err, sizeof(err)));
		assert_string_equal(err, cases[i].msg);
	}
	/* 64 levels are fine, 65 are not */
	memset(deep, '[', 65);
	memset(deep + 65, ']', 65);
	deep[130] = '\0';
	assert_null(jv_parse(deep, err, sizeof(err)));
	assert_string_equal(err, "line 1: nested too deeply");
	v = jv_parse(deep + 1, err, sizeof(err));
	assert_null(v);
	deep[129] = '\0';
	v = jv_parse(deep + 1, err, sizeof(err));
	assert_non_null(v);
	jv_free(v);
}

int main(int argc, char **argv)
{
	static const struct cm_test tests[] = {
		cmocka_unit_test(round_trip),
		cmocka_unit_test(escapes),
		cmocka_unit_test(lookups),
		cmocka_unit_test(errors),
	};

	(void)argc;
	(void)argv;
	return t_run_group("json", tests, ARRAY_SIZE(tests)) ? 1 : 0;
}
