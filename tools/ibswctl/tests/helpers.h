/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of ibswctl's unit tests: a ctl whose I/O is fake (requests are
 * recorded and answered by the test, programs are logged instead of run,
 * output goes to memory), and reply builders.
 */
#ifndef IBSWCTL_TEST_HELPERS_H
#define IBSWCTL_TEST_HELPERS_H

/* cmocka needs these before it */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "ibswctl.h"

/* cmocka's test table entry, under the name tools/lib's tests use */
#define cm_test CMUnitTest
#define T_MAX_REQ	4096
#define T_MAX_REPLY	64
#define T_MAX_PATHS	32

struct t {
	struct ctl ctl;
	char *out, *err;
	size_t out_size, err_size;
	FILE *outf, *errf;
	/* requests, copied */
	unsigned int nreq;
	struct nlmsghdr *req[T_MAX_REQ];
	/* replies of the next request (then dropped) */
	unsigned int nreply;
	struct nlmsghdr *reply[T_MAX_REPLY];
	/* answer of request number fail_req (from 1), or of every one if 0 */
	unsigned int fail_req;
	int fail_err;
	const char *fail_msg;
	/* replies per request, built by the test; returns the request's error */
	int (*respond)(struct t *t, const struct nlmsghdr *req);
	/* notifications for listen */
	unsigned int nntf;
	struct nlmsghdr *ntf[T_MAX_REPLY];
	/* programs: one line each in runs; the run_fail-th (from 1) fails */
	char *runs;
	size_t runs_size;
	FILE *runsf;
	unsigned int nruns;
	unsigned int run_fail;
	/* paths that exist (besides real files) */
	unsigned int npaths;
	const char *paths[T_MAX_PATHS];
	/*
	 * rdma's netns mode (CTL_RDMA_SHARED at first; -ENOENT: no ib_core);
	 * setting it logs "rdma system set netns MODE" in runs, and the next
	 * rdma_busy settings fail with -EBUSY (every one if negative)
	 */
	int rdma_mode;
	int rdma_busy;
	/* in_netns NS runs its function with sys_root SYS_ROOT/netns/NS */
	char netns_root[512];
	/* the last node_guid read_file read */
	char guid_read[512];
	/*
	 * The SM: spawn, wait_text, stop and write_file are logged in runs
	 * ("spawn ARGV > OUT", "wait PATH TEXT", "stop PID COMM", "write PATH
	 * TEXT"); spawn returns T_SM_PID, wait_text wait_err, stop stop_ret
	 */
	int wait_err;
	int stop_ret;
	/* ib_umad is loaded (its ABI file exists) unless this is set */
	bool no_umad;
};

#define T_SM_PID	4242
#define T_NODE_GUID	"02b5:de00:0001:0103\n"	/* read_file of every node_guid */

struct t *t_new(void);
void t_free(struct t *t);
/* Run "ARGS" as ibswctl ARGS (split at blanks and newlines); the exit status */
int t_run(struct t *t, const char *args);
int t_runv(struct t *t, int argc, char **argv);
/* What was printed so far; t_clear() forgets it and the requests. */
const char *t_out(struct t *t);
const char *t_err(struct t *t);
void t_clear(struct t *t);

/* A reply to the next request: put attributes on it with mnl_attr_put*() */
struct nlmsghdr *t_reply(struct t *t, uint8_t cmd);
struct nlmsghdr *t_notify(struct t *t, uint8_t cmd);

/* The genl command of a request, and one of its attributes (NULL if absent) */
uint8_t t_cmd(const struct nlmsghdr *nlh);
const struct nlattr *t_attr(const struct nlmsghdr *nlh, uint16_t type);
unsigned int t_count(const struct nlmsghdr *nlh, uint16_t type);
/* The n-th (from 0) attribute of a type in a message */
const struct nlattr *t_nth(const struct nlmsghdr *nlh, uint16_t type, unsigned int n);
const struct nlattr *t_nest_attr(const struct nlattr *nest, uint16_t type);

/* Whether text is valid JSON to jq (true if jq is not installed) */
bool t_json_valid(const char *text);
/* jq FILTER over text, its output (caller frees); NULL without jq */
char *t_jq(const char *text, const char *filter);
bool t_have_jq(void);

char *t_read_file(const char *path);
void t_enter_fixtures(int argc, char **argv);
int t_run_group(const char *name, const struct cm_test *tests, size_t n);

#endif
