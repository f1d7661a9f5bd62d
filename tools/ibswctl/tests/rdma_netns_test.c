// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of rdma's network namespace mode in the fabric builder:
 * fabric up ... rdma-netns MODE switches before anything is made and saves
 * the mode it replaced, fabric down (or fabric up's undo) restores it when
 * no namespace is left, waits for namespaces being dismantled, leaves it
 * to a later fabric down while other namespaces exist; in the exclusive
 * mode the rxe devices are looked for, set (hca clock, fabric set scale)
 * and deleted in their hosts' namespaces, and a device left in the initial
 * namespace (a stock rxe) fails fabric up. The fake transport's rdma mode
 * and namespaces are in struct t (helpers.h).
 */
#define _GNU_SOURCE
#include "helpers.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* One switch, two hosts */
static const char topo_text[] =
	"Switch 4 \"S1\"\n[1] \"H1\"[1]\n[2] \"H2\"[1]\n\n"
	"Hca 1 \"H1\"\n[1] \"S1\"[1]\n\nHca 1 \"H2\"\n[1] \"S1\"[2]\n";

/* A directory of the test: its sysfs, namespaces, description, saved mode */
struct dirs {
	char root[64];
	char *sys, *netns, *state, *desc, *topo;
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
	d->state = path_of(d->root, "run/ibsw/rdma-netns");
	d->desc = path_of(d->root, "fabric.json");
	d->topo = path_of(d->root, "two.topo");
	sh("mkdir -p %s %s", d->sys, d->netns);
	sh("mkdir -p %s/run", d->root);
	write_text(d->topo, topo_text);
	t->ctl.sys_root = d->sys;
	t->ctl.netns_dir = d->netns;
	t->ctl.rdma_netns_path = d->state;
	return t;
}

static void teardown(struct t *t, struct dirs *d)
{
	sh("rm -rf %s", d->root);
	free(d->sys);
	free(d->netns);
	free(d->state);
	free(d->desc);
	free(d->topo);
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

static const char *runs(struct t *t)
{
	fflush(t->runsf);
	return t->runs ? t->runs : "";
}

static void clear_runs(struct t *t)
{
	fclose(t->runsf);
	free(t->runs);
	t->runs = NULL;
	t->runsf = open_memstream(&t->runs, &t->runs_size);
	assert_non_null(t->runsf);
	t->nruns = 0;
}

static unsigned int count(const char *text, const char *what)
{
	unsigned int n = 0;

	for (; (text = strstr(text, what)); text += strlen(what))
		n++;
	return n;
}

static __printf(2, 3) int run(struct t *t, const char *fmt, ...)
{
	char cmd[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return t_run(t, cmd);
}

/* The kernel: a time scale of 7, and every switch asked for exists */
static int kernel(struct t *t, const struct nlmsghdr *req)
{
	if (t_cmd(req) == IBSW_CMD_FABRIC_GET)
		mnl_attr_put_u32(t_reply(t, IBSW_CMD_FABRIC_GET), IBSW_A_FABRIC_TIME_SCALE, 7);
	if (t_cmd(req) == IBSW_CMD_SWITCH_GET)
		mnl_attr_put_strz(t_reply(t, IBSW_CMD_SWITCH_GET), IBSW_A_SWITCH_NAME, "S1");
	return 0;
}

static void names(void **state)
{
	(void)state;
	assert_int_equal(ctl_rdma_netns_parse("shared"), CTL_RDMA_SHARED);
	assert_int_equal(ctl_rdma_netns_parse("exclusive"), CTL_RDMA_EXCLUSIVE);
	assert_string_equal(ctl_rdma_netns_name(CTL_RDMA_SHARED), "shared");
	assert_string_equal(ctl_rdma_netns_name(CTL_RDMA_EXCLUSIVE), "exclusive");
	assert_int_equal(ctl_rdma_netns_parse(""), -EINVAL);
	assert_int_equal(ctl_rdma_netns_parse("Shared"), -EINVAL);
	assert_int_equal(ctl_rdma_netns_parse("excl"), -EINVAL);
	assert_int_equal(ctl_rdma_netns_parse("exclusive\n"), -EINVAL);
}

/*
 * From the shared mode: switch first, save "shared", set the clocks and
 * find the devices in the hosts' namespaces; fabric down deletes them there
 * and restores the shared mode.
 */
static void up_and_down(void **state)
{
	struct dirs d;
	struct t *t = setup(&d);
	char *saved;

	(void)state;
	t->respond = kernel;
	make_dev(&d, "H1", "rxe_H1");
	make_dev(&d, "H2", "rxe_H2");
	assert_int_equal(run(t, "fabric up %s no-mgmt desc %s rdma-netns exclusive", d.topo,
			     d.desc), 0);
	assert_string_equal(t_err(t), "");
	assert_int_equal(strncmp(runs(t), "rdma system set netns exclusive\nip netns add H1\n", 48),
			 0);
	assert_int_equal(count(runs(t), "rdma system set"), 1);
	assert_int_equal(t->rdma_mode, CTL_RDMA_EXCLUSIVE);
	saved = t_read_file(d.state);
	assert_non_null(saved);
	assert_string_equal(saved, "shared\n");
	free(saved);
	/* hca clock found the devices where the hosts see them */
	expect_cc(&d, "H1", "rxe_H1", "time_scale", "7\n");
	expect_cc(&d, "H2", "rxe_H2", "link_rate", "32000000000\n");

	/* down: rxe_H2 is gone already */
	sh("rm -r %s/netns/H2", d.sys);
	t_clear(t);
	clear_runs(t);
	t->paths[t->npaths++] = "/run/netns/H1";
	t->paths[t->npaths++] = "/run/netns/H2";
	assert_int_equal(run(t, "fabric down desc %s", d.desc), 0);
	assert_string_equal(runs(t),
			    "ip netns exec H1 rdma link delete rxe_H1\n"
			    "ip netns del H1\nip netns del H2\n"
			    "rdma system set netns shared\n");
	assert_string_equal(t_err(t), "ibswctl: fabric down: rdma device rxe_H2 already gone\n");
	assert_int_equal(t->rdma_mode, CTL_RDMA_SHARED);
	assert_null(t_read_file(d.state));
	teardown(t, &d);
}

/*
 * In the mode already: nothing switched or saved. With a stock rxe the
 * devices stay in the initial namespace: fabric up fails and undoes.
 */
static void up_in_mode_stock_rxe(void **state)
{
	struct dirs d;
	struct t *t = setup(&d);

	(void)state;
	t->respond = kernel;
	t->rdma_mode = CTL_RDMA_EXCLUSIVE;
	make_dev(&d, NULL, "rxe_H1");
	make_dev(&d, NULL, "rxe_H2");
	assert_int_equal(run(t, "fabric up %s no-mgmt desc %s rdma-netns exclusive", d.topo,
			     d.desc), 1);
	assert_int_equal(count(runs(t), "rdma system set"), 0);
	assert_null(t_read_file(d.state));
	assert_non_null(strstr(t_err(t), "rdma device rxe_H1 is in the initial network namespace"));
	assert_non_null(strstr(t_err(t), ", not in H1: in rdma's exclusive netns mode H1 cannot"));
	/* the undo deletes them where they are */
	assert_non_null(strstr(runs(t), "\nrdma link delete rxe_H2\n"));
	assert_non_null(strstr(runs(t), "\nrdma link delete rxe_H1\n"));
	assert_int_equal(access(d.desc, F_OK), -1);

	/* the user's exclusive mode without rdma-netns: the same check */
	t_clear(t);
	clear_runs(t);
	assert_int_equal(run(t, "fabric up %s no-mgmt desc %s", d.topo, d.desc), 1);
	assert_non_null(strstr(t_err(t), "rdma device rxe_H1 is in the initial network namespace"));

	/* a patched rxe: fine, and fabric down leaves the mode alone */
	sh("rm -r %s/class", d.sys);
	make_dev(&d, "H1", "rxe_H1");
	t_clear(t);
	clear_runs(t);
	assert_int_equal(run(t, "fabric up %s no-mgmt desc %s rdma-netns exclusive", d.topo,
			     d.desc), 0);
	assert_int_equal(count(runs(t), "rdma system set"), 0);
	assert_int_equal(run(t, "fabric down desc %s", d.desc), 0);
	assert_int_equal(count(runs(t), "rdma system set"), 0);
	assert_int_equal(t->rdma_mode, CTL_RDMA_EXCLUSIVE);
	teardown(t, &d);
}

/*
 * Other namespaces exist, ib_core is not loaded, the mode to restore cannot
 * be saved: nothing is done
 */
static void up_refused(void **state)
{
	struct dirs d;
	struct t *t = setup(&d);

	(void)state;
	t->rdma_busy = -1;
	assert_int_equal(run(t, "fabric up %s desc %s rdma-netns exclusive", d.topo, d.desc), 1);
	assert_string_equal(t_err(t),
			    "ibswctl: cannot switch rdma to the exclusive netns mode: network namespaces other than the initial one exist (ip netns list; lsns -t net)\n");
	/* tried for rdma_netns_wait_ms (200) in case namespaces were being dismantled */
	assert_int_equal(count(runs(t), "rdma system set netns exclusive\n"), 5);
	assert_int_equal(t->nreq, 0);
	assert_int_equal(t->rdma_mode, CTL_RDMA_SHARED);
	assert_null(t_read_file(d.state));

	/* a namespace by name: no waiting, nothing done */
	sh("touch %s/other", d.netns);
	t_clear(t);
	clear_runs(t);
	assert_int_equal(run(t, "fabric up %s desc %s rdma-netns exclusive", d.topo, d.desc), 1);
	assert_string_equal(runs(t), "rdma system set netns exclusive\n");
	sh("rm %s/other", d.netns);

	t_clear(t);
	clear_runs(t);
	t->rdma_mode = -ENOENT;
	assert_int_equal(run(t, "fabric up %s desc %s rdma-netns shared", d.topo, d.desc), 1);
	assert_non_null(strstr(t_err(t), "cannot read the rdma netns mode: "));
	assert_string_equal(runs(t), "");
	assert_int_equal(t->nreq, 0);

	/* the mode to restore cannot be saved: switched back, nothing done */
	t_clear(t);
	clear_runs(t);
	t->rdma_mode = CTL_RDMA_SHARED;
	t->rdma_busy = 0;
	t->ctl.rdma_netns_path = "/proc/self/ibsw/rdma-netns";
	assert_int_equal(run(t, "fabric up %s desc %s rdma-netns exclusive", d.topo, d.desc), 1);
	assert_non_null(strstr(t_err(t), "cannot write the rdma netns mode to restore "));
	assert_string_equal(runs(t), "rdma system set netns exclusive\n"
			    "rdma system set netns shared\n");
	assert_int_equal(t->rdma_mode, CTL_RDMA_SHARED);
	assert_int_equal(t->nreq, 0);
	t->ctl.rdma_netns_path = d.state;

	/* a bad mode is a usage error */
	t_clear(t);
	assert_int_equal(run(t, "fabric up %s rdma-netns %s", d.topo, "isolated"), 2);
	assert_string_equal(t_err(t),
			    "ibswctl: bad rdma-netns \"isolated\": expected shared or exclusive\n");
	assert_int_equal(run(t, "fabric up %s rdma-netns", d.topo), 2);
	assert_int_equal(t->nreq, 0);
	teardown(t, &d);
}

/*
 * Namespaces of a fabric just gone are still dismantled: the switch waits
 * for them. A failed fabric up undoes, then restores the mode it replaced.
 */
static void undo_restores(void **state)
{
	struct dirs d;
	struct t *t = setup(&d);

	(void)state;
	t->respond = kernel;
	t->rdma_busy = 2;
	t->run_fail = 4;	/* H1: netns, lo, mtu, addr */
	assert_int_equal(run(t, "fabric up %s no-mgmt desc %s rdma-netns exclusive", d.topo,
			     d.desc), 1);
	assert_int_equal(strncmp(runs(t), "rdma system set netns exclusive\n"
				 "rdma system set netns exclusive\n"
				 "rdma system set netns exclusive\nip netns add H1\n", 112), 0);
	assert_string_equal(strstr(runs(t), "\nip netns del H1\n"),
			    "\nip netns del H1\nrdma system set netns shared\n");
	assert_int_equal(t->rdma_mode, CTL_RDMA_SHARED);
	assert_null(t_read_file(d.state));
	teardown(t, &d);
}

/*
 * fabric down restores only when no namespace is left: with others it
 * leaves that to a later one; it waits for namespaces being dismantled,
 * and fails if they stay.
 */
static void down_restores(void **state)
{
	static const char empty[] = "{\"version\": 1, \"switches\": [], \"hosts\": []}";
	struct dirs d;
	struct t *t = setup(&d);
	char *other = path_of(d.netns, "other");

	(void)state;
	t->rdma_mode = CTL_RDMA_EXCLUSIVE;
	sh("mkdir -p %s/run/ibsw && echo shared >%s", d.root, d.state);
	write_text(other, "");
	write_text(d.desc, empty);
	t->rdma_busy = -1;	/* as the kernel says while it exists */
	assert_int_equal(run(t, "fabric down desc %s", d.desc), 0);
	assert_non_null(strstr(t_err(t), "ibswctl: rdma stays in the exclusive netns mode"));
	assert_non_null(strstr(t_err(t), " while network namespaces exist (1 in "));
	assert_int_equal(count(runs(t), "rdma system set"), 1);
	assert_int_equal(access(d.state, F_OK), 0);

	/* the last: two tries find namespaces still being dismantled */
	unlink(other);
	t_clear(t);
	clear_runs(t);
	t->rdma_busy = 2;
	write_text(d.desc, empty);
	assert_int_equal(run(t, "fabric down desc %s", d.desc), 0);
	assert_string_equal(t_err(t), "");
	assert_int_equal(count(runs(t), "rdma system set netns shared\n"), 3);
	assert_int_equal(t->rdma_mode, CTL_RDMA_SHARED);
	assert_int_equal(access(d.state, F_OK), -1);

	/* they stay: fabric down fails, and the saved mode is kept */
	t->rdma_mode = CTL_RDMA_EXCLUSIVE;
	sh("echo shared >%s", d.state);
	t_clear(t);
	t->rdma_busy = -1;
	write_text(d.desc, empty);
	assert_int_equal(run(t, "fabric down desc %s", d.desc), 1);
	assert_non_null(strstr(t_err(t), "ibswctl: cannot restore the shared rdma netns mode: "));
	assert_non_null(strstr(t_err(t), "network namespaces still exist (lsns -t net); "));
	assert_non_null(strstr(t_err(t), "namespace is left: rdma system set netns shared; rm "));
	assert_int_equal(access(d.state, F_OK), 0);
	assert_int_equal(access(d.desc, F_OK), -1);

	/* restored by hand meanwhile: the saved mode is dropped */
	t->rdma_mode = CTL_RDMA_SHARED;
	t_clear(t);
	clear_runs(t);
	write_text(d.desc, empty);
	assert_int_equal(run(t, "fabric down desc %s", d.desc), 0);
	assert_string_equal(runs(t), "");
	assert_int_equal(access(d.state, F_OK), -1);

	/* not a mode */
	write_text(d.state, "isolated\n");
	t_clear(t);
	write_text(d.desc, empty);
	assert_int_equal(run(t, "fabric down desc %s", d.desc), 1);
	assert_non_null(strstr(t_err(t), ": not an rdma netns mode to restore\n"));
	free(other);
	teardown(t, &d);
}

/* dry-run shows the switch when there would be one, and does nothing */
static void dry_run(void **state)
{
	struct dirs d;
	struct t *t = setup(&d);

	(void)state;
	assert_int_equal(run(t, "fabric up %s rdma-netns exclusive dry-run", d.topo), 0);
	assert_int_equal(strncmp(t_out(t), "rdma system set netns exclusive\nibswctl switch add ",
				 51), 0);
	t_clear(t);
	assert_int_equal(run(t, "fabric up %s rdma-netns shared dry-run", d.topo), 0);
	assert_null(strstr(t_out(t), "rdma system"));
	assert_string_equal(runs(t), "");
	assert_int_equal(t->nreq, 0);
	assert_null(t_read_file(d.state));
	teardown(t, &d);
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
		cmocka_unit_test(names),
		cmocka_unit_test(up_and_down),
		cmocka_unit_test(up_in_mode_stock_rxe),
		cmocka_unit_test(up_refused),
		cmocka_unit_test(undo_restores),
		cmocka_unit_test(down_restores),
		cmocka_unit_test(dry_run),
		cmocka_unit_test(hca_clock_netns),
	};

	(void)argc;
	(void)argv;
	return t_run_group("rdma_netns", tests, ARRAY_SIZE(tests));
}
