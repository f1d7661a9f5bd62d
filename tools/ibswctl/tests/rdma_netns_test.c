// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of rdma's network namespace mode in ibswctl: in the exclusive
 * mode the rxe devices are in their hosts' namespaces, where hca clock and
 * fabric set scale set them. The fake transport's rdma mode and namespaces
 * are in struct t (helpers.h).
 */
#define _GNU_SOURCE
#include "helpers.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A directory of the test: its sysfs and namespaces */
struct dirs {
	char root[64];
	char *sys, *netns;
};

static __printf(1, 2) void sh(const char *fmt, ...)
{
	char cmd[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	assert_int_equal(system(cmd), 0);
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static char *path_of(const char *dir, const char *name)
{
	char *p;

	assert_true(asprintf(&p, "%s/%s", dir, name) > 0);
	return p;
}

static struct t *setup(struct dirs *d)
{
	struct t *t = t_new();

	snprintf(d->root, sizeof(d->root), "/tmp/ibswctl-rdma-XXXXXX");
	assert_non_null(mkdtemp(d->root));
	d->sys = path_of(d->root, "sys");
	d->netns = path_of(d->root, "netns");
	sh("mkdir -p %s %s", d->sys, d->netns);
	t->ctl.sys_root = d->sys;
	t->ctl.netns_dir = d->netns;
	return t;
}

static void teardown(struct t *t, struct dirs *d)
{
	sh("rm -rf %s", d->root);
	free(d->sys);
	free(d->netns);
	t_free(t);
}

/*
 * A patched rxe device with ports/1/cc in the sysfs at root (the initial
 * namespace's), or in namespace ns's if given
 */
static void make_dev(const struct dirs *d, const char *ns, const char *dev)
{
	char dir[512], file[600];

	if (ns)
		snprintf(dir, sizeof(dir), "%s/netns/%s/class/infiniband/%s/ports/1/cc", d->sys, ns,
			 dev);
	else
		snprintf(dir, sizeof(dir), "%s/class/infiniband/%s/ports/1/cc", d->sys, dev);
	sh("mkdir -p %s", dir);
	snprintf(file, sizeof(file), "%s/time_scale", dir);
	write_text(file, "1\n");
	snprintf(file, sizeof(file), "%s/link_rate", dir);
	write_text(file, "0\n");
}

static char *cc_file(const struct dirs *d, const char *ns, const char *dev, const char *name)
{
	char path[600];

	snprintf(path, sizeof(path), "%s/netns/%s/class/infiniband/%s/ports/1/cc/%s", d->sys, ns,
		 dev, name);
	return t_read_file(path);
}

static void expect_cc(const struct dirs *d, const char *ns, const char *dev, const char *name,
		      const char *want)
{
	char *got = cc_file(d, ns, dev, name);

	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
}

/* The kernel: a time scale of 7 */
static int kernel(struct t *t, const struct nlmsghdr *req)
{
	if (t_cmd(req) == IBSW_CMD_FABRIC_GET)
		mnl_attr_put_u32(t_reply(t, IBSW_CMD_FABRIC_GET), IBSW_A_FABRIC_TIME_SCALE, 7);
	return 0;
}

/*
 * hca clock ... netns NS looks in NS only in the exclusive mode, and only
 * for a device the initial namespace does not show; so does fabric set
 * scale, in every namespace by name.
 */
static void hca_clock_netns(void **state)
{
	struct dirs d;
	struct t *t = setup(&d);
	char *got;

	(void)state;
	make_dev(&d, "H1", "rxe_H1");
	/* shared: the device would be in the initial namespace */
	assert_int_equal(t_run(t, "hca clock rxe_H1 scale 50 rate 1xSDR netns H1"), 0);
	expect_cc(&d, "H1", "rxe_H1", "time_scale", "1\n");

	t->rdma_mode = CTL_RDMA_EXCLUSIVE;
	assert_int_equal(t_run(t, "hca clock rxe_H1 scale 50 rate 1xSDR netns H1"), 0);
	expect_cc(&d, "H1", "rxe_H1", "time_scale", "50\n");
	expect_cc(&d, "H1", "rxe_H1", "link_rate", "2000000000\n");
	assert_int_equal(t->nreq, 0);
	/* the fabric's scale is asked for in the initial namespace */
	t->respond = kernel;
	assert_int_equal(t_run(t, "hca clock rxe_H1 netns H1"), 0);
	assert_int_equal(t->nreq, 1);
	expect_cc(&d, "H1", "rxe_H1", "time_scale", "7\n");

	/* fabric set scale looks in every namespace by name (H3 has no device) */
	make_dev(&d, "H2", "rxe_H2");
	sh("touch %s/H1 %s/H2 %s/H3", d.netns, d.netns, d.netns);
	assert_int_equal(t_run(t, "fabric set scale 40"), 0);
	expect_cc(&d, "H1", "rxe_H1", "time_scale", "40\n");
	expect_cc(&d, "H2", "rxe_H2", "time_scale", "40\n");
	/* not in the shared mode, where the initial namespace sees every device */
	t->rdma_mode = CTL_RDMA_SHARED;
	assert_int_equal(t_run(t, "fabric set scale 30"), 0);
	expect_cc(&d, "H1", "rxe_H1", "time_scale", "40\n");
	t->rdma_mode = CTL_RDMA_EXCLUSIVE;

	/* a stock rxe there: nothing to set */
	sh("rm -r %s/netns/H1/class/infiniband/rxe_H1/ports/1/cc", d.sys);
	t_clear(t);
	t->ctl.details = true;
	assert_int_equal(t_run(t, "-d hca clock rxe_H1 scale 5 netns H1"), 0);
	assert_string_equal(t_out(t),
			    "rxe_H1: no ports/1/cc in H1 (a stock rxe?): nothing to set\n");

	/* a namespace that does not exist, a bad name */
	t_clear(t);
	assert_int_equal(t_run(t, "hca clock rxe_H1 scale 5 netns missing"), 1);
	assert_string_equal(t_err(t),
			    "ibswctl: hca clock: cannot enter network namespace missing: No such file or directory\n");
	t_clear(t);
	assert_int_equal(t_run(t, "hca clock rxe_H1 scale 5 netns a/b"), 2);
	assert_int_equal(t_run(t, "hca clock rxe_H1 scale 5 netns .."), 2);
	got = strdup(t_err(t));
	assert_non_null(strstr(got, "hca clock: bad namespace name \"a/b\""));
	free(got);
	teardown(t, &d);
}

int main(int argc, char **argv)
{
	static const struct cm_test tests[] = {
		cmocka_unit_test(hca_clock_netns),
	};

	(void)argc;
	(void)argv;
	return t_run_group("rdma_netns", tests, ARRAY_SIZE(tests));
}
