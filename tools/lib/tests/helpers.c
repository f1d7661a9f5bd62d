// SPDX-License-Identifier: GPL-2.0
/* Helpers shared by the unit tests of tools/lib. */
#define _GNU_SOURCE
#include "helpers.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void enter_fixtures(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : FIXTURES;

	if (chdir(dir)) {
		fprintf(stderr, "%s: cannot enter %s: %s\n", argv[0], dir, strerror(errno));
		exit(2);
	}
}

char *read_text(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t size = 0;
	FILE *out;
	int c;

	assert_non_null(f);
	out = open_memstream(&text, &size);
	assert_non_null(out);
	while ((c = getc(f)) != EOF)
		putc(c, out);
	fclose(out);
	fclose(f);
	return text;
}

char *diag_text(const struct topo_diag *diag)
{
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);

	assert_non_null(out);
	topo_diag_print(out, diag);
	fclose(out);
	return text;
}

char *routes_text(const struct routes *routes)
{
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);

	assert_non_null(out);
	routes_print(out, routes);
	fclose(out);
	return text;
}

static struct topo *check_parsed(int ret, struct topo *topo, struct topo_diag *diag)
{
	if (ret) {
		char *msgs = diag_text(diag);

		print_error("parse failed (%d):\n%s", ret, msgs);
		free(msgs);
		topo_diag_free(diag);
		fail();
	}
	assert_non_null(topo);
	assert_int_equal(diag->count, 0);
	return topo;
}

struct topo *parse_file_ok(const char *path)
{
	struct topo_diag diag;
	struct topo *topo;
	int ret;

	topo_diag_init(&diag);
	ret = topo_parse_file(path, &topo, &diag);
	return check_parsed(ret, topo, &diag);
}

struct topo *parse_text_ok(const char *text)
{
	struct topo_diag diag;
	struct topo *topo;
	int ret;

	topo_diag_init(&diag);
	ret = topo_parse_string(text, "t", &topo, &diag);
	return check_parsed(ret, topo, &diag);
}

char *parse_text_errors(const char *text)
{
	struct topo_diag diag;
	struct topo *topo;
	char *msgs;

	topo_diag_init(&diag);
	assert_int_equal(topo_parse_string(text, "t", &topo, &diag), -EINVAL);
	assert_null(topo);
	msgs = diag_text(&diag);
	topo_diag_free(&diag);
	return msgs;
}

struct routes *route_ok(const struct topo *topo, unsigned int flags)
{
	struct topo_diag diag;
	struct routes *routes;
	int ret;

	topo_diag_init(&diag);
	ret = route_compute(topo, flags, &routes, &diag);
	if (ret) {
		char *msgs = diag_text(&diag);

		print_error("routing failed (%d):\n%s", ret, msgs);
		free(msgs);
		topo_diag_free(&diag);
		fail();
	}
	assert_int_equal(diag.count, 0);
	return routes;
}

int run_group(const char *name, const struct cm_test *tests, size_t n)
{
	cmocka_set_message_output(CM_OUTPUT_TAP);
	return _cmocka_run_group_tests(name, tests, n, NULL, NULL);
}
