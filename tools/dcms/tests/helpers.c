// SPDX-License-Identifier: GPL-2.0
/* Helpers shared by the unit tests of dcms. */
#define _GNU_SOURCE
#include "helpers.h"

#include <errno.h>
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int run_group(const char *name, const struct CMUnitTest *tests, size_t n)
{
	cmocka_set_message_output(CM_OUTPUT_TAP);
	return _cmocka_run_group_tests(name, tests, n, NULL, NULL);
}

void assert_lines(const char *text, const char *prefix, const char *const *lines)
{
	size_t len = 0, i;
	char *want, *p;

	for (i = 0; lines[i]; i++)
		len += strlen(prefix) + strlen(lines[i]) + 1;
	want = malloc(len + 1);
	assert_non_null(want);
	p = want;
	for (i = 0; lines[i]; i++)
		p += sprintf(p, "%s%s\n", prefix, lines[i]);
	*p = '\0';
	if (strcmp(text, want)) {
		print_error("got:\n%s\nwant:\n%s\n", text, want);
		free(want);
		fail();
	}
	free(want);
}

void capture_open(struct capture *c)
{
	c->buf = NULL;
	c->len = 0;
	c->f = open_memstream(&c->buf, &c->len);
	assert_non_null(c->f);
}

const char *capture_text(struct capture *c)
{
	fflush(c->f);
	return c->buf ? c->buf : "";
}

void capture_close(struct capture *c)
{
	fclose(c->f);
	free(c->buf);
	c->f = NULL;
	c->buf = NULL;
}

char *tmpdir_new(void)
{
	char *dir = strdup("/tmp/dcms-test-XXXXXX");

	assert_non_null(dir);
	assert_non_null(mkdtemp(dir));
	return dir;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

void tmpdir_remove(char *dir)
{
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	free(dir);
}

void write_text(const char *dir, const char *rel, const char *text)
{
	char path[4096], *p;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	for (p = path + strlen(dir) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		assert_true(!mkdir(path, 0755) || errno == EEXIST);
		*p = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

char *read_text(const char *dir, const char *rel)
{
	char path[4096], *buf = NULL;
	size_t cap = 0;
	FILE *f;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	n = getdelim(&buf, &cap, '\0', f);
	fclose(f);
	if (n < 0) {
		free(buf);
		return strdup("");
	}
	return buf;
}
