/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers shared by the unit tests of tools/lib. */
#ifndef IBSW_LIB_TEST_HELPERS_H
#define IBSW_LIB_TEST_HELPERS_H

/* cmocka needs these before it */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "../topo.h"
#include "../route.h"

/* cmocka's test table entry, under a kernel-style name */
#define cm_test CMUnitTest

/* Enter the fixture directory: argv[1], or the one the Makefile compiled in. */
void enter_fixtures(int argc, char **argv);

char *read_text(const char *path);
/* Diagnostics as text, one message per line. */
char *diag_text(const struct topo_diag *diag);
char *routes_text(const struct routes *routes);

/* Parse, failing the test with the messages when that fails. */
struct topo *parse_file_ok(const char *path);
struct topo *parse_text_ok(const char *text);
struct routes *route_ok(const struct topo *topo, unsigned int flags);

/* Parse text that must fail; returns the messages. */
char *parse_text_errors(const char *text);

/* Run one group whose tests are in an array of known size. */
int run_group(const char *name, const struct cm_test *tests, size_t n);

#endif
