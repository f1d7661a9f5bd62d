/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers shared by the unit tests of dcms. */
#ifndef DCMS_TEST_HELPERS_H
#define DCMS_TEST_HELPERS_H

/* cmocka needs these before it */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

/* Run one group whose tests are in an array of known size (TAP output). */
int run_group(const char *name, const struct CMUnitTest *tests, size_t n);

/*
 * text must be exactly these lines, each with prefix before it and a
 * newline after it; lines ends with NULL.
 */
void assert_lines(const char *text, const char *prefix, const char *const *lines);

/* A FILE collecting what is written to it; text_of() gives it (owned by the capture). */
struct capture {
	FILE *f;
	char *buf;
	size_t len;
};

void capture_open(struct capture *c);
const char *capture_text(struct capture *c);
void capture_close(struct capture *c);

/* A fresh temporary directory, removed with everything in it by tmpdir_remove(). */
char *tmpdir_new(void);
void tmpdir_remove(char *dir);
/* Write text to DIR/REL, creating the directories on the way. */
void write_text(const char *dir, const char *rel, const char *text);
/* The contents of DIR/REL, or NULL; free() it. */
char *read_text(const char *dir, const char *rel);

#endif
