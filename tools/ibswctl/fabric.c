// SPDX-License-Identifier: GPL-2.0
/*
 * ibswctl fabric { show | set | up | down | desc }: the fabric's settings,
 * and the fabric builder, which executes the plans of plan.c.
 */
#define _GNU_SOURCE
#include "plan.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: ibswctl fabric show [desc PATH]\n"
		"       ibswctl fabric set [scale S] [pacing on|off] [clock-seed N]\n"
		"                          [clock-ppm PPM]\n"
		"       ibswctl fabric up FILE [scale S] [desc PATH] [vls N] [buffer CREDITS]\n"
		"                        [mtu BYTES] [prefix P] [no-rxe] [no-mgmt]\n"
		"                        [rdma-netns shared|exclusive]\n"
		"                        [sm opensm [sm-conf CONF] [routing-engine E] [qos on|off]\n"
		"                        [sm-timeout SECONDS]]\n"
		"                        [machine NAME [carrier IFNAME] [mgmt-carrier IFNAME]]\n"
		"                        [dry-run]\n"
		"       ibswctl fabric down [desc PATH]\n"
		"       ibswctl fabric desc [desc PATH]\n"
		"S: time scale, 1 to %d. FILE: a topology (ibnetdiscover or ibsim net format).\n"
		"PATH: the fabric description, %s by default.\n"
		"sm opensm: OpenSM on the topology's management node (devid=0x1b5e), up to\n"
		"SUBNET UP; E: its routing_engine (minhop, updn, ftree, ...).\n"
		"machine NAME: only the switches and hosts the topology puts on machine NAME\n"
		"(machine=NAME lines); cables to other machines' switches become remote links\n"
		"over the Ethernet netdev IFNAME (remote add ... id ID, ID the cable's number\n"
		"among the file's switch-to-switch cables, from 1); mgmt-carrier IFNAME: IFNAME\n"
		"into the management bridge, joining it to the other machines'; the bridges'\n"
		"addresses count down from " PLAN_MGMT_ADDR " in the file's order of machines.\n"
		"PPM: the largest offset of a switch port's transmit clock from its rate, 0 to\n"
		"%d parts per million; N: the seed of the offsets (with switch and port).\n",
		IBSW_TIME_SCALE_MAX, IBSWCTL_DESC_PATH, IBSW_CLOCK_PPM_MAX);
}

/* OpenSM's routing engine names, comma-separated; case matters (torus-2QoS) */
#define ENGINE_CHARS \
	"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-,"

static struct jv *read_desc(struct ctl *ctl, const char *path, bool *missing);

/* fabric show [desc PATH]: the kernel's settings, and the SM of the fabric */
static int fabric_show(struct ctl *ctl, int argc, char **argv)
{
	const char *desc = IBSWCTL_DESC_PATH;
	struct nlmsghdr *nlh;
	const struct jv *sm;
	struct jv *v = NULL;
	int err;

	if (argc == 2 && !strcmp(argv[0], "desc")) {
		desc = argv[1];
	} else if (argc) {
		ctl_err(ctl, "fabric show: expected at most desc PATH");
		usage(ctl->err);
		return CTL_USAGE;
	}
	/* no description, no SM: the description's errors only if it is there */
	if (ctl->ops->exists(ctl, desc)) {
		bool missing;

		v = read_desc(ctl, desc, &missing);
	}
	sm = jv_get(v, "sm");
	if (sm && sm->type != JV_OBJ)
		sm = NULL;
	nlh = ctl_msg_start(ctl, IBSW_CMD_FABRIC_GET, 0, 0);
	err = ctl_show(ctl, nlh, &ctl_fabric_attrs, ctl_print_fabric, (void *)sm, false);
	jv_free(v);
	if (err)
		return ctl_nl_err(ctl, err, "fabric show");
	return CTL_OK;
}

static int fabric_set(struct ctl *ctl, int argc, char **argv)
{
	bool has_scale = false, has_pacing = false, pacing = false;
	bool has_seed = false, has_ppm = false;
	uint32_t scale, seed, ppm;
	struct nlmsghdr *nlh;
	int i, err;

	for (i = 0; i < argc; i += 2) {
		if (i + 1 >= argc) {
			ctl_err(ctl, "fabric set: \"%s\" needs a value", argv[i]);
			return CTL_USAGE;
		}
		if (ctl_matches(argv[i], "scale")) {
			if (ctl_parse_u32(ctl, "time scale", argv[i + 1], 1, IBSW_TIME_SCALE_MAX,
					  &scale))
				return CTL_USAGE;
			has_scale = true;
		} else if (ctl_matches(argv[i], "pacing")) {
			if (strcmp(argv[i + 1], "on") && strcmp(argv[i + 1], "off")) {
				ctl_err(ctl, "bad pacing \"%s\": expected on or off", argv[i + 1]);
				return CTL_USAGE;
			}
			pacing = !strcmp(argv[i + 1], "on");
			has_pacing = true;
		} else if (!strcmp(argv[i], "clock-seed")) {
			if (ctl_parse_u32(ctl, "clock-seed", argv[i + 1], 0, UINT32_MAX, &seed))
				return CTL_USAGE;
			has_seed = true;
		} else if (!strcmp(argv[i], "clock-ppm")) {
			if (ctl_parse_u32(ctl, "clock-ppm", argv[i + 1], 0, IBSW_CLOCK_PPM_MAX,
					  &ppm))
				return CTL_USAGE;
			has_ppm = true;
		} else {
			ctl_err(ctl, "fabric set: unknown argument \"%s\"", argv[i]);
			usage(ctl->err);
			return CTL_USAGE;
		}
	}
	if (!has_scale && !has_pacing && !has_seed && !has_ppm) {
		ctl_err(ctl, "fabric set: nothing to set");
		usage(ctl->err);
		return CTL_USAGE;
	}
	nlh = ctl_msg_start(ctl, IBSW_CMD_FABRIC_SET, 0, 0);
	if (has_scale)
		mnl_attr_put_u32(nlh, IBSW_A_FABRIC_TIME_SCALE, scale);
	if (has_pacing)
		mnl_attr_put_u8(nlh, IBSW_A_FABRIC_PACING, pacing);
	if (has_seed)
		mnl_attr_put_u32(nlh, IBSW_A_FABRIC_CLOCK_SEED, seed);
	if (has_ppm)
		mnl_attr_put_u32(nlh, IBSW_A_FABRIC_CLOCK_PPM, ppm);
	err = ctl_request(ctl, nlh, NULL, NULL);
	if (err)
		return ctl_nl_err(ctl, err, "fabric set");
	/* rxe's congestion control keeps its own copy of the scale */
	if (has_scale && ctl_hca_sync_scale(ctl, scale) < 0)
		return CTL_FAIL;
	return CTL_OK;
}

static int sm_stop(struct ctl *ctl, int pid)
{
	int rc = ctl->ops->stop(ctl, pid, "opensm", PLAN_SM_STOP_MS);

	if (rc < 0) {
		ctl_err(ctl, "cannot stop opensm (pid %d): %s", pid, strerror(-rc));
		return CTL_FAIL;
	}
	if (rc == 1)
		fprintf(ctl->err, "ibswctl: opensm (pid %d) ignored SIGTERM: killed\n", pid);
	if (rc == 2)
		fprintf(ctl->err, "ibswctl: opensm (pid %d) already gone\n", pid);
	return CTL_OK;
}

struct sm_conf {
	const struct plan *plan;
	const char *guid;
};

static void fill_sm_conf(FILE *f, const void *arg)
{
	const struct sm_conf *c = arg;
	const struct plan *plan = c->plan;

	fprintf(f, "# OpenSM's options for the fabric of %s, written by ibswctl fabric up\n"
		"# (opensm -c FILE writes every option with its default).\n\n",
		plan->topo_path);
	fprintf(f, "# the port of the management HCA %s of %s\nguid %s\n\n",
		plan->mgmt[0].ibdev, plan->mgmt[0].node->ident, c->guid);
	fprintf(f, "routing_engine %s\n", plan->opts.sm_engine ? plan->opts.sm_engine : "minhop");
	fprintf(f, "qos %s\n", plan->opts.sm_qos > 0 ? "TRUE" : "FALSE");
	fprintf(f, "sweep_interval 10\n");
	fprintf(f, "log_file %s\n", plan->sm.log);
	fprintf(f, "# errors, info and routing (0x40): every sweep dumps the LFTs it\n"
		"# computed (opensm-lfts.dump) and the subnet beside the log\n");
	fprintf(f, "log_flags 0x43\n");
	fprintf(f, "dump_files_dir %s\n", plan->sm.dir);
	fprintf(f, "# each line at once: fabric up waits for SUBNET UP in it\n");
	fprintf(f, "force_log_flush TRUE\n");
}

/*
 * Whether a configuration flushes OpenSM's log: without it (OpenSM's
 * default) SUBNET UP can sit in its buffer for good.
 */
static bool conf_flushes(const char *path)
{
	char *line = NULL, key[64], val[64];
	size_t size = 0;
	bool flush = false;
	FILE *f = fopen(path, "r");

	if (!f)
		return false;
	while (getline(&line, &size, f) >= 0)
		if (sscanf(line, "%63s %63s", key, val) == 2 && !strcmp(key, "force_log_flush"))
			flush = !strcmp(val, "TRUE");
	free(line);
	fclose(f);
	return flush;
}

/* "02b5:de00:0001:0103" (sysfs node_guid) into "0x02b5de0000010103" */
static int read_guid(struct ctl *ctl, const char *ibdev, char *guid, size_t len)
{
	char path[PATH_MAX], buf[64];
	size_t i, n = 0;
	int err;

	snprintf(path, sizeof(path), "%s/class/infiniband/%s/node_guid", ctl->sys_root, ibdev);
	err = ctl->ops->read_file(ctl, path, buf, sizeof(buf));
	if (err) {
		ctl_err(ctl, "cannot read %s: %s", path, strerror(-err));
		return err;
	}
	if (len < 19)
		return -EINVAL;
	guid[n++] = '0';
	guid[n++] = 'x';
	for (i = 0; buf[i] && buf[i] != '\n' && n < 18; i++)
		if (buf[i] != ':')
			guid[n++] = buf[i];
	guid[n] = '\0';
	if (n != 18) {
		ctl_err(ctl, "%s: not a GUID: %s", path, buf);
		return -EINVAL;
	}
	return 0;
}

/* Remove what an SM of before left in its directory: its LIDs, its log */
static void sm_clean(const struct plan_sm *sm)
{
	static const char *const files[] = {
		"guid2lid", "guid2mkey", "neighbors", "opensm.log", "opensm.out",
		"opensm-subnet.lst", "opensm.fdbs", "opensm.mcfdbs",
	};
	char path[PATH_MAX];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(files); i++) {
		snprintf(path, sizeof(path), "%s/%s", sm->dir, files[i]);
		unlink(path);
	}
}

static int mkdir_p(const char *dir);
static bool rdma_dev_here(struct ctl *ctl, const char *dev);

/* read_guid() in a namespace: its answer comes back in a shared page */
struct guid_in_netns {
	const char	*ibdev;
	char		guid[24];
};

static int read_guid_fn(struct ctl *ctl, void *arg)
{
	struct guid_in_netns *g = arg;

	return read_guid(ctl, g->ibdev, g->guid, sizeof(g->guid)) ? 1 : 0;
}

/*
 * A management HCA's GUID, for OpenSM's -g. In rdma's exclusive netns
 * mode only its node's namespace shows the device: read there.
 */
static int mgmt_guid(struct ctl *ctl, const struct plan_mgmt *m, char *guid, size_t len)
{
	struct guid_in_netns *g;
	int rc;

	if (ctl_rdma_netns_mode(ctl) != CTL_RDMA_EXCLUSIVE || rdma_dev_here(ctl, m->ibdev))
		return read_guid(ctl, m->ibdev, guid, len);
	g = mmap(NULL, sizeof(*g), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (g == MAP_FAILED)
		return -errno;
	g->ibdev = m->ibdev;
	rc = ctl->ops->in_netns(ctl, m->netns, read_guid_fn, g);
	if (rc < 0)
		ctl_err(ctl, "cannot enter network namespace %s: %s", m->netns, strerror(-rc));
	else if (!rc)
		snprintf(guid, len, "%s", g->guid);
	munmap(g, sizeof(*g));
	return rc ? -EIO : 0;
}

/*
 * Start the SM of the plan (step: its command line, "@DEV" for DEV's port
 * GUID) and wait for its SUBNET UP. On failure it is stopped again.
 */
static int sm_start(struct ctl *ctl, struct plan *plan, const struct plan_step *step)
{
	struct plan_sm *sm = &plan->sm;
	char *argv[32], conf[PATH_MAX];
	struct sm_conf c = { plan, sm->guid };
	int i, pid, rc;

	if (mkdir_p(sm->dir)) {
		ctl_err(ctl, "cannot make %s: %s", sm->dir, strerror(errno));
		return CTL_FAIL;
	}
	sm_clean(sm);
	if (mgmt_guid(ctl, &plan->mgmt[0], sm->guid, sizeof(sm->guid)))
		return CTL_FAIL;
	if (sm->conf_written &&
	    ctl_write_atomic(ctl, "OpenSM's configuration", sm->conf, fill_sm_conf, &c))
		return CTL_FAIL;
	/* OpenSM runs elsewhere: the user's file by its absolute path */
	if (!sm->conf_written && realpath(sm->conf, conf))
		snprintf(sm->conf, sizeof(sm->conf), "%s", conf);

	for (i = 0; i < step->argc && i < (int)ARRAY_SIZE(argv) - 1; i++) {
		argv[i] = step->argv[i];
		if (!strncmp(argv[i], PLAN_SM_GUID_ARG, strlen(PLAN_SM_GUID_ARG)))
			argv[i] = sm->guid;
		else if (i && !strcmp(argv[i - 1], "-F"))
			argv[i] = sm->conf;
	}
	argv[i] = NULL;
	if (ctl->details)
		plan_print_step(ctl->out, step);
	pid = ctl->ops->spawn(ctl, argv, sm->out);
	if (pid < 0) {
		ctl_err(ctl, "cannot start opensm: %s", strerror(-pid));
		return CTL_FAIL;
	}
	sm->pid = pid;
	rc = ctl->ops->wait_text(ctl, pid, sm->log, "SUBNET UP", plan->opts.sm_timeout * 1000);
	if (!rc)
		return CTL_OK;
	if (rc == -ECHILD)
		ctl_err(ctl, "opensm (pid %d) exited before SUBNET UP: see %s and %s", pid, sm->log,
			sm->out);
	else
		ctl_err(ctl, "opensm (pid %d): no SUBNET UP in %s after %u s", pid, sm->log,
			plan->opts.sm_timeout);
	sm_stop(ctl, pid);
	sm->pid = 0;
	return CTL_FAIL;
}

static int run_step(struct ctl *ctl, const struct plan_step *step)
{
	int rc;

	/* the commands of a plan print nothing but their errors */
	if (step->kind == PLAN_CTL)
		return ctl_run_argv(ctl, step->argc, step->argv);
	rc = ctl->ops->run(ctl, step->argv);
	if (rc < 0) {
		ctl_err(ctl, "cannot run %s: %s", step->argv[0], strerror(-rc));
		return CTL_FAIL;
	}
	return rc;
}

static void report_step(struct ctl *ctl, const char *what, const struct plan_step *step)
{
	fprintf(ctl->err, "ibswctl: %s: ", what);
	plan_print_step(ctl->err, step);
}

/*
 * Steps first..first+n-1 as one "ip|tc -n NS -batch -" (batch.c); on
 * failure the batch and its lines are reported (the program names the
 * line that failed).
 */
static int run_batch(struct ctl *ctl, const struct plan *plan, unsigned int first,
		     unsigned int n)
{
	const struct plan_step *s = &plan->step[first];
	struct plan_step b = { .kind = PLAN_EXEC, .argc = 5 };
	char *argv[6] = { NULL }, *text;
	int rc;

	argv[0] = s->argv[0];
	argv[1] = "-n";
	argv[2] = s->argv[2];
	argv[3] = "-batch";
	argv[4] = "-";
	b.argv = argv;
	text = plan_batch_text(plan, first, n);
	if (!text) {
		ctl_err(ctl, "cannot run %s: %s", argv[0], strerror(ENOMEM));
		return CTL_FAIL;
	}
	rc = ctl->ops->run_input(ctl, argv, text);
	if (rc < 0)
		ctl_err(ctl, "cannot run %s: %s", argv[0], strerror(-rc));
	if (rc) {
		const char *line = text;
		unsigned int no = 1;

		report_step(ctl, "fabric up failed at", &b);
		/* numbered as the program names them: "Command failed -:N" */
		while (*line) {
			int len = strcspn(line, "\n");

			fprintf(ctl->err, "ibswctl:   -:%u %.*s\n", no++, len, line);
			line += len + (line[len] == '\n');
		}
	}
	free(text);
	return rc ? CTL_FAIL : CTL_OK;
}

/* The namespace of the host whose rdma device is dev, NULL if none */
static const char *plan_rdma_netns(const struct plan *plan, const char *dev)
{
	unsigned int i;

	for (i = 0; i < plan->nhosts; i++)
		if (!strcmp(plan->host[i].rdma, dev))
			return plan->host[i].netns;
	return NULL;
}

/*
 * "rdma link delete DEV" run in the namespace NS of DEV's host: rdma's
 * exclusive netns mode shows a device only there (the patched rxe binds it
 * to its netdev's namespace). argv has room for 9 arguments.
 */
static void rxe_delete_in(struct plan_step *u, char **argv, const char *ns, const char *dev)
{
	u->kind = PLAN_EXEC;
	u->argv = argv;
	argv[0] = "ip";
	argv[1] = "netns";
	argv[2] = "exec";
	argv[3] = (char *)ns;
	argv[4] = "rdma";
	argv[5] = "link";
	argv[6] = "delete";
	argv[7] = (char *)dev;
	argv[8] = NULL;
	u->argc = 8;
}

/* Whether the initial namespace's sysfs shows rdma device dev */
static bool rdma_dev_here(struct ctl *ctl, const char *dev)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/class/infiniband/%s", ctl->sys_root, dev);
	return ctl->ops->exists(ctl, path);
}

/* Undo the steps before the one that failed, newest first. */
static void undo_steps(struct ctl *ctl, struct plan *plan, unsigned int failed)
{
	struct plan_step u = { .kind = PLAN_CTL };
	const struct plan_step *step;
	bool exclusive = ctl_rdma_netns_mode(ctl) == CTL_RDMA_EXCLUSIVE;
	char *argv[9] = { 0 };
	const char *ns;
	unsigned int i;

	u.argv = argv;
	while (failed--) {
		step = &plan->step[failed];
		u.kind = PLAN_CTL;
		switch (step->undo) {
		case UNDO_SWITCH:
			argv[0] = "switch";
			argv[1] = "del";
			argv[2] = (char *)step->undo_arg;
			u.argc = 3;
			break;
		case UNDO_NETNS:
			u.kind = PLAN_EXEC;
			argv[0] = "ip";
			argv[1] = "netns";
			argv[2] = "del";
			argv[3] = (char *)step->undo_arg;
			u.argc = 4;
			break;
		case UNDO_RXE:
			ns = plan_rdma_netns(plan, step->undo_arg);
			if (exclusive && ns && !rdma_dev_here(ctl, step->undo_arg)) {
				rxe_delete_in(&u, argv, ns, step->undo_arg);
				break;
			}
			u.kind = PLAN_EXEC;
			argv[0] = "rdma";
			argv[1] = "link";
			argv[2] = "delete";
			argv[3] = (char *)step->undo_arg;
			u.argc = 4;
			break;
		case UNDO_ADDR:
			argv[0] = "addr";
			argv[1] = "set";
			u.argc = 2;
			break;
		case UNDO_LINK:
			u.kind = PLAN_EXEC;
			argv[0] = "ip";
			argv[1] = "link";
			argv[2] = "del";
			argv[3] = (char *)step->undo_arg;
			u.argc = 4;
			break;
		case UNDO_MGMT:
			argv[0] = "mgmt";
			argv[1] = "del";
			argv[2] = (char *)step->undo_arg;
			u.argc = 3;
			break;
		case UNDO_NOMASTER:
			u.kind = PLAN_EXEC;
			argv[0] = "ip";
			argv[1] = "link";
			argv[2] = "set";
			argv[3] = (char *)step->undo_arg;
			argv[4] = "nomaster";
			u.argc = 5;
			break;
		case UNDO_SM:
			/* before its HCA goes: OpenSM does not leave once it has */
			if (plan->sm.pid)
				sm_stop(ctl, plan->sm.pid);
			plan->sm.pid = 0;
			continue;
		default:
			continue;
		}
		for (i = u.argc; i < ARRAY_SIZE(argv); i++)
			argv[i] = NULL;
		if (run_step(ctl, &u))
			report_step(ctl, "undo failed", &u);
	}
}

/*
 * In rdma's exclusive netns mode a host can use only an rdma device of its
 * own namespace, and a stock rxe leaves every device in the initial one.
 */
static int check_rxe_bound(struct ctl *ctl, const struct plan *plan)
{
	unsigned int i;

	if (!plan->opts.rxe || ctl_rdma_netns_mode(ctl) != CTL_RDMA_EXCLUSIVE)
		return 0;
	for (i = 0; i < plan->nhosts; i++) {
		if (!plan->host[i].rdma[0] || !rdma_dev_here(ctl, plan->host[i].rdma))
			continue;
		ctl_err(ctl, "rdma device %s is in the initial network namespace, not in %s: in rdma's exclusive netns mode %s cannot use it. This rdma_rxe does not bind a device to its netdev's namespace (ibsw's rxe patch 0006): load ibsw's, or use rdma-netns shared",
			plan->host[i].rdma, plan->host[i].netns, plan->host[i].netns);
		return -1;
	}
	return 0;
}

/* The time scale in force, for the description; 0 if it cannot be read. */
static int scale_cb(struct ctl *ctl, const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[IBSW_A_FABRIC_MAX + 1];

	if (!ctl_parse_msg(ctl, nlh, &ctl_fabric_attrs, tb) && tb[IBSW_A_FABRIC_TIME_SCALE])
		*(uint32_t *)data = mnl_attr_get_u32(tb[IBSW_A_FABRIC_TIME_SCALE]);
	return 0;
}

uint32_t ctl_fabric_scale(struct ctl *ctl)
{
	struct nlmsghdr *nlh = ctl_msg_start(ctl, IBSW_CMD_FABRIC_GET, 0, 0);
	uint32_t scale = 0;

	if (ctl_request(ctl, nlh, scale_cb, &scale))
		return 0;
	return scale;
}

static int mkdir_p(const char *dir)
{
	char *copy = strdup(dir), *parent;
	int ret = 0;

	if (!copy)
		return -ENOMEM;
	if (!mkdir(dir, 0755) || errno == EEXIST)
		goto out;
	if (errno != ENOENT) {
		ret = -errno;
		goto out;
	}
	parent = dirname(copy);
	if (strcmp(parent, dir) && strcmp(parent, "/") && strcmp(parent, "."))
		ret = mkdir_p(parent);
	if (!ret && mkdir(dir, 0755) && errno != EEXIST)
		ret = -errno;
out:
	free(copy);
	return ret;
}

/*
 * Write path atomically, its directories made first: fill(f, arg) writes a
 * temporary file, which is synced and renamed over path. what names the
 * file in the message of a failure.
 */
int ctl_write_atomic(struct ctl *ctl, const char *what, const char *path,
		     void (*fill)(FILE *f, const void *arg), const void *arg)
{
	char *copy = strdup(path), *tmp = NULL;
	FILE *f = NULL;
	int err;

	if (!copy || asprintf(&tmp, "%s.tmp.%d", path, (int)getpid()) < 0) {
		tmp = NULL;
		err = -ENOMEM;
		goto out;
	}
	err = mkdir_p(dirname(copy));
	if (err)
		goto out;
	f = fopen(tmp, "w");
	if (!f) {
		err = -errno;
		goto out;
	}
	fill(f, arg);
	if (fflush(f) || fsync(fileno(f))) {
		err = -errno;
		fclose(f);
		goto out_unlink;
	}
	if (fclose(f)) {
		err = -errno;
		goto out_unlink;
	}
	if (rename(tmp, path)) {
		err = -errno;
		goto out_unlink;
	}
	goto out;
out_unlink:
	unlink(tmp);
out:
	if (err)
		ctl_err(ctl, "cannot write %s %s: %s", what, path, strerror(-err));
	free(tmp);
	free(copy);
	return err;
}

static void fill_desc(FILE *f, const void *plan)
{
	struct jw jw;

	jw_init(&jw, f, true);
	plan_write_desc(&jw, plan);
}

/*
 * Management nodes: one port (a management HCA has one), and one at least
 * for an SM. Messages "FILE:LINE: reason", as the parser's.
 */
static int check_mgmt_nodes(struct ctl *ctl, const struct topo *topo,
			    const struct plan_opts *opts)
{
	unsigned int i, n = 0;
	int bad = 0;

	for (i = 0; i < topo->nnodes; i++) {
		const struct topo_node *node = topo->node[i];

		if (!plan_is_mgmt(node))
			continue;
		n++;
		if (node->nports != 1) {
			fprintf(ctl->err,
				"%s:%u: management node \"%s\" (devid=0x%x) has %u ports: a management HCA has one\n",
				topo->file, node->line, node->name, PLAN_MGMT_DEVID, node->nports);
			bad = -1;
		}
	}
	if (!bad && opts->sm && !n) {
		fprintf(ctl->err,
			"%s: sm opensm needs a management node: a Ca record with devid=0x%x before it\n",
			topo->file, PLAN_MGMT_DEVID);
		bad = -1;
	}
	return bad;
}

/*
 * machine NAME: the topology names it, and a cable to another machine has
 * a carrier. CTL_OK, or the exit status, the reason printed.
 */
static int check_machine(struct ctl *ctl, const struct topo *topo,
			 const struct plan_opts *opts)
{
	const struct topo_link *l;
	const char *m;
	unsigned int i, n;

	if (!opts->machine)
		return CTL_OK;
	if (!topo->nmachines) {
		fprintf(ctl->err,
			"%s: names no machine: machine %s needs a machine= line before each switch's record\n",
			topo->file, opts->machine);
		return CTL_FAIL;
	}
	m = topo_find_machine(topo, opts->machine);
	if (!m) {
		fprintf(ctl->err, "%s: no node is on machine %s (the file's machines:", topo->file,
			opts->machine);
		for (i = 0; i < topo->nmachines; i++)
			fprintf(ctl->err, " %s", topo->machine[i]);
		fprintf(ctl->err, ")\n");
		return CTL_FAIL;
	}
	if (opts->mgmt_carrier && topo->nmachines > PLAN_MGMT_MACHINES_MAX) {
		fprintf(ctl->err,
			"%s: names %u machines: mgmt-carrier gives each machine's management bridge an address of its own, %s%d down to %s1, for %d machines at most\n",
			topo->file, topo->nmachines, PLAN_MGMT_ADDR_NET, PLAN_MGMT_ADDR_TOP,
			PLAN_MGMT_ADDR_NET, PLAN_MGMT_MACHINES_MAX);
		return CTL_USAGE;
	}
	if (opts->carrier)
		return CTL_OK;
	/* a cable between switches, one on this machine (names are kept once) */
	for (i = 0; i < topo->nlinks; i++) {
		l = topo->link[i];
		if (l->node[0]->type != TOPO_SWITCH || l->node[1]->type != TOPO_SWITCH ||
		    l->node[0]->machine == l->node[1]->machine ||
		    (l->node[0]->machine != m && l->node[1]->machine != m))
			continue;
		n = l->node[0]->machine == m ? 0 : 1;
		fprintf(ctl->err,
			"%s:%u: %s/%u - %s/%u goes to machine %s: fabric up machine %s needs carrier IFNAME, the Ethernet netdev of its remote links\n",
			topo->file, l->line[0], l->node[n]->ident, l->port[n], l->node[!n]->ident,
			l->port[!n], l->node[!n]->machine, opts->machine);
		return CTL_USAGE;
	}
	return CTL_OK;
}

/*
 * A relative topology that is not here is looked for in the installed data,
 * so "ibswctl fabric up topologies/seed002.net" works in any directory.
 */
static const char *find_topology(const char *path, char *buf, size_t len)
{
	char exe[PATH_MAX];
	ssize_t n;

	if (path[0] == '/' || !access(path, F_OK) || errno != ENOENT)
		return path;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return path;
	exe[n] = '\0';
	if (ctl_data_path(exe, path, buf, len) || access(buf, F_OK))
		return path;
	return buf;
}

static int fabric_up(struct ctl *ctl, int argc, char **argv)
{
	struct plan_opts opts = { .prefix = "", .mtu = PLAN_DEFAULT_MTU, .rxe = true,
				  .mgmt = true, .sm_qos = -1, .sm_timeout = PLAN_SM_TIMEOUT };
	const char *sm_opt = NULL;
	const char *desc = IBSWCTL_DESC_PATH;
	struct routes *routes = NULL;
	struct topo *topo = NULL;
	struct plan *plan = NULL;
	struct topo_diag diag;
	char topo_buf[PATH_MAX];
	bool dry_run = false;
	int rdma_netns = -1, switched = 0;
	unsigned int i, n;
	int ret = CTL_FAIL, err, rc;

	if (argc < 1) {
		ctl_err(ctl, "fabric up: expected a topology FILE");
		usage(ctl->err);
		return CTL_USAGE;
	}
	opts.topo_path = find_topology(argv[0], topo_buf, sizeof(topo_buf));
	for (i = 1; i < (unsigned int)argc; i++) {
		const char *key = argv[i], *val = i + 1 < (unsigned int)argc ? argv[i + 1] : NULL;

		if (!strcmp(key, "no-rxe")) {
			opts.rxe = false;
			continue;
		}
		if (!strcmp(key, "no-mgmt")) {
			opts.mgmt = false;
			continue;
		}
		if (!strcmp(key, "dry-run")) {
			dry_run = true;
			continue;
		}
		if (!val) {
			ctl_err(ctl, "fabric up: \"%s\" needs a value", key);
			return CTL_USAGE;
		}
		i++;
		if (!strcmp(key, "scale")) {
			if (ctl_parse_u32(ctl, "time scale", val, 1, IBSW_TIME_SCALE_MAX,
					  &opts.scale))
				return CTL_USAGE;
		} else if (!strcmp(key, "sm")) {
			if (strcmp(val, "opensm")) {
				ctl_err(ctl, "fabric up: unknown sm \"%s\" (opensm)", val);
				return CTL_USAGE;
			}
			opts.sm = true;
		} else if (!strcmp(key, "sm-conf")) {
			opts.sm_conf = val;
			sm_opt = key;
		} else if (!strcmp(key, "routing-engine") || !strcmp(key, "routing_engine")) {
			if (!*val || strspn(val, ENGINE_CHARS) != strlen(val)) {
				ctl_err(ctl, "bad routing-engine \"%s\": OpenSM's names (minhop, updn, ftree, ...), comma-separated",
					val);
				return CTL_USAGE;
			}
			opts.sm_engine = val;
			sm_opt = key;
		} else if (!strcmp(key, "qos")) {
			if (!strcmp(val, "on") || !strcmp(val, "TRUE")) {
				opts.sm_qos = 1;
			} else if (!strcmp(val, "off") || !strcmp(val, "FALSE")) {
				opts.sm_qos = 0;
			} else {
				ctl_err(ctl, "bad qos \"%s\": on or off (TRUE, FALSE)", val);
				return CTL_USAGE;
			}
			sm_opt = key;
		} else if (!strcmp(key, "sm-timeout")) {
			if (ctl_parse_u32(ctl, "sm-timeout", val, 1, 3600, &opts.sm_timeout))
				return CTL_USAGE;
			sm_opt = key;
		} else if (!strcmp(key, "desc")) {
			desc = val;
		} else if (!strcmp(key, "vls")) {
			if (ctl_parse_u32(ctl, "VL count", val, 1, IBSW_NR_DATA_VLS, &opts.vls))
				return CTL_USAGE;
		} else if (!strcmp(key, "buffer")) {
			if (ctl_parse_u32(ctl, "buffer credits", val, 1, 65535, &opts.buffer))
				return CTL_USAGE;
			opts.buffer_given = true;
		} else if (!strcmp(key, "mtu")) {
			if (ctl_parse_u32(ctl, "MTU", val, 1280, 65535, &opts.mtu))
				return CTL_USAGE;
		} else if (!strcmp(key, "prefix")) {
			opts.prefix = val;
		} else if (!strcmp(key, "machine")) {
			if (!topo_machine_valid(val)) {
				ctl_err(ctl, "bad machine \"%s\": 1 to %d letters, digits, '_', '.' and '-', the first a letter or digit",
					val, TOPO_MACHINE_MAX);
				return CTL_USAGE;
			}
			opts.machine = val;
		} else if (!strcmp(key, "carrier")) {
			if (ctl_parse_ifname(ctl, val))
				return CTL_USAGE;
			opts.carrier = val;
		} else if (!strcmp(key, "mgmt-carrier")) {
			if (ctl_parse_ifname(ctl, val))
				return CTL_USAGE;
			opts.mgmt_carrier = val;
		} else if (!strcmp(key, "rdma-netns")) {
			rdma_netns = ctl_rdma_netns_parse(val);
			if (rdma_netns < 0) {
				ctl_err(ctl, "bad rdma-netns \"%s\": expected shared or exclusive",
					val);
				return CTL_USAGE;
			}
		} else {
			ctl_err(ctl, "fabric up: unknown argument \"%s\"", key);
			usage(ctl->err);
			return CTL_USAGE;
		}
	}

	if (sm_opt && !opts.sm) {
		ctl_err(ctl, "fabric up: \"%s\" is an option of sm opensm", sm_opt);
		return CTL_USAGE;
	}
	if (opts.carrier && !opts.machine) {
		ctl_err(ctl, "fabric up: \"carrier\" is an option of machine");
		return CTL_USAGE;
	}
	if (opts.mgmt_carrier && !opts.machine) {
		ctl_err(ctl, "fabric up: \"mgmt-carrier\" is an option of machine: it joins the management networks of a fabric's machines");
		return CTL_USAGE;
	}
	if (opts.mgmt_carrier && !opts.mgmt) {
		ctl_err(ctl, "fabric up: \"mgmt-carrier\" joins the management network, and no-mgmt builds none");
		return CTL_USAGE;
	}
	if (opts.mgmt_carrier && opts.carrier && !strcmp(opts.mgmt_carrier, opts.carrier)) {
		ctl_err(ctl, "fabric up: mgmt-carrier %s is the carrier of the remote links: a bridge port's frames go to the bridge, not to ibsw; give the management network a netdev of its own",
			opts.mgmt_carrier);
		return CTL_USAGE;
	}
	if (opts.sm && opts.machine) {
		ctl_err(ctl, "fabric up: sm opensm cannot run with machine %s: SMPs do not cross remote links, so an SM would manage one machine's part of the fabric only",
			opts.machine);
		return CTL_USAGE;
	}
	opts.run_dir = ctl->run_dir;
	topo_diag_init(&diag);
	if (topo_parse_file(opts.topo_path, &topo, &diag) ||
	    route_compute(topo, 0, &routes, &diag)) {
		topo_diag_print(ctl->err, &diag);
		goto out;
	}
	if (check_mgmt_nodes(ctl, topo, &opts))
		goto out;
	rc = check_machine(ctl, topo, &opts);
	if (rc) {
		ret = rc;
		goto out;
	}
	err = plan_build(topo, routes, &opts, &plan);
	if (err == -EINVAL) {
		ctl_err(ctl, "bad prefix \"%s\": up to 32 letters, digits, '_', '.' and '-'",
			opts.prefix);
		ret = CTL_USAGE;
		goto out;
	}
	if (err) {
		/* the others were refused above with their reasons */
		ctl_err(ctl, "fabric up: %s", err == -ENOMEM ? "out of memory" : strerror(-err));
		goto out;
	}
	if (dry_run) {
		if (rdma_netns >= 0 && ctl->ops->rdma_netns(ctl, -1) != rdma_netns)
			fprintf(ctl->out, "rdma system set netns %s\n",
				ctl_rdma_netns_name(rdma_netns));
		plan_print(ctl->out, plan);
		ret = CTL_OK;
		goto out;
	}
	if (ctl->ops->exists(ctl, desc)) {
		ctl_err(ctl, "fabric already up: %s exists (\"ibswctl fabric down\" first)", desc);
		goto out;
	}
	/* OpenSM reaches its port through ib_umad, which nothing loads for rxe */
	if (opts.sm && !ctl->ops->exists(ctl, PLAN_UMAD_ABI)) {
		ctl_err(ctl, "sm opensm needs ib_umad (no %s): modprobe ib_umad",
			PLAN_UMAD_ABI);
		goto out;
	}
	if (opts.sm_conf && !conf_flushes(opts.sm_conf)) {
		ctl_err(ctl, "%s: no \"force_log_flush TRUE\" (or not readable): OpenSM would keep SUBNET UP in its buffer, and fabric up waits for it in its log",
			opts.sm_conf);
		goto out;
	}
	/* before the first namespace: the mode cannot change while one exists */
	if (rdma_netns >= 0) {
		switched = ctl_rdma_netns_enter(ctl, rdma_netns);
		if (switched < 0)
			goto out;
	}
	for (i = 0; i < plan->nsteps; i += n) {
		n = plan_batch_len(plan, i);
		if (n > 1) {
			rc = run_batch(ctl, plan, i, n);
		} else {
			rc = plan->step[i].kind == PLAN_SM ? sm_start(ctl, plan, &plan->step[i]) :
							     run_step(ctl, &plan->step[i]);
			if (rc)
				report_step(ctl, "fabric up failed at", &plan->step[i]);
		}
		if (rc) {
			fprintf(ctl->err, "ibswctl: undoing what was done\n");
			undo_steps(ctl, plan, i);
			goto out_restore;
		}
		if (plan->step[i].sw >= 0 && ctl->last_switch_id_valid) {
			plan->sw[plan->step[i].sw].id = ctl->last_switch_id;
			plan->sw[plan->step[i].sw].id_valid = true;
		}
	}
	if (!plan->time_scale)
		plan->time_scale = ctl_fabric_scale(ctl);
	if (check_rxe_bound(ctl, plan) ||
	    ctl_write_atomic(ctl, "the fabric description", desc, fill_desc, plan)) {
		fprintf(ctl->err, "ibswctl: undoing what was done\n");
		undo_steps(ctl, plan, plan->nsteps);
		goto out_restore;
	}
	ret = CTL_OK;
	goto out;
out_restore:
	if (switched > 0)
		ctl_rdma_netns_restore(ctl);
out:
	plan_free(plan);
	routes_free(routes);
	topo_free(topo);
	topo_diag_free(&diag);
	return ret;
}

/* Read and parse the description; NULL with the reason printed. */
static struct jv *read_desc(struct ctl *ctl, const char *path, bool *missing)
{
	char *text = NULL, err[128];
	size_t size = 0, n;
	struct jv *v;
	char buf[4096];
	FILE *f, *m;

	*missing = false;
	f = fopen(path, "r");
	if (!f) {
		*missing = errno == ENOENT;
		if (*missing)
			ctl_err(ctl, "no fabric is up: %s does not exist", path);
		else
			ctl_err(ctl, "cannot read %s: %s", path, strerror(errno));
		return NULL;
	}
	m = open_memstream(&text, &size);
	if (!m) {
		fclose(f);
		ctl_err(ctl, "out of memory");
		return NULL;
	}
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		fwrite(buf, 1, n, m);
	fclose(f);
	if (fclose(m)) {
		free(text);
		ctl_err(ctl, "out of memory");
		return NULL;
	}
	v = strlen(text) == size ? jv_parse(text, err, sizeof(err)) : NULL;
	if (!v)
		ctl_err(ctl, "%s: %s", path, strlen(text) == size ? err : "NUL byte in the file");
	free(text);
	return v;
}

static int exists_cb(struct ctl *ctl, const struct nlmsghdr *nlh, void *data)
{
	(void)ctl;
	(void)nlh;
	*(bool *)data = true;
	return 0;
}

/* Whether a step of fabric down still has something to delete */
static bool still_there(struct ctl *ctl, const struct plan_step *step)
{
	struct nlmsghdr *nlh;
	bool found = false;
	int err;

	switch (step->need) {
	case NEED_PATH:
		return ctl->ops->exists(ctl, step->need_arg);
	case NEED_SWITCH:
		nlh = ctl_msg_start(ctl, IBSW_CMD_SWITCH_GET, 0, 0);
		mnl_attr_put_strz(nlh, IBSW_A_SWITCH_NAME, step->need_arg);
		err = ctl_request(ctl, nlh, exists_cb, &found);
		/* any other error: try to delete it and say why that fails */
		return found || (err && err != -ENOENT && err != -ENODEV);
	case NEED_FAMILY:
		nlh = ctl_msg_start(ctl, IBSW_CMD_FABRIC_GET, 0, 0);
		return ctl_request(ctl, nlh, exists_cb, &found) != -ENOENT;
	default:
		return true;
	}
}

/*
 * The namespace an rdma device of a description lives in: a host's
 * (hosts[], by rdma_dev) or a management node's (mgmt_nodes[], by ibdev)
 */
static const char *desc_rdma_netns(const struct jv *desc, const char *dev)
{
	static const char *const where[][2] = {
		{ "hosts", "rdma_dev" }, { "mgmt_nodes", "ibdev" },
	};
	const struct jv *a, *e;
	const char *v;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(where); i++) {
		a = jv_get(desc, where[i][0]);
		for (e = a ? a->child : NULL; e; e = e->next) {
			v = jv_get_str(e, where[i][1]);
			if (v && !strcmp(v, dev))
				return jv_get_str(e, "netns");
		}
	}
	return NULL;
}

/*
 * Whether the management HCA of a step "mgmt del" of fabric down is still
 * there: in the initial namespace, or in rdma's exclusive netns mode in
 * its node's namespace
 */
static bool mgmt_still_there(struct ctl *ctl, const struct jv *desc, bool exclusive,
			     const struct plan_step *step)
{
	const char *dev = strrchr(step->need_arg, '/') + 1, *ns;

	if (still_there(ctl, step))
		return true;
	ns = exclusive ? desc_rdma_netns(desc, dev) : NULL;
	return ns && ctl_netns_has_rdma_dev(ctl, ns, dev) == 1;
}

/*
 * A step "rdma link delete DEV" of fabric down, to run where the device is
 * seen: in the initial namespace, or in rdma's exclusive netns mode in its
 * host's (u, with room for 9 arguments in argv). false if it is gone.
 */
static bool rxe_down_step(struct ctl *ctl, const struct jv *desc, bool exclusive,
			  const struct plan_step *step, struct plan_step *u, char **argv)
{
	const char *dev = step->argv[step->argc - 1], *ns;

	if (still_there(ctl, step)) {
		*u = *step;
		return true;
	}
	ns = exclusive ? desc_rdma_netns(desc, dev) : NULL;
	if (!ns || ctl_netns_has_rdma_dev(ctl, ns, dev) != 1)
		return false;
	rxe_delete_in(u, argv, ns, dev);
	return true;
}

static int fabric_down(struct ctl *ctl, int argc, char **argv)
{
	const char *desc = IBSWCTL_DESC_PATH;
	struct plan *plan = NULL;
	unsigned int i, failed = 0;
	char err[128], *uargv[9];
	struct plan_step u;
	bool missing, exclusive;
	struct jv *v;

	if (argc == 2 && !strcmp(argv[0], "desc")) {
		desc = argv[1];
	} else if (argc) {
		ctl_err(ctl, "fabric down: expected at most desc PATH");
		usage(ctl->err);
		return CTL_USAGE;
	}
	v = read_desc(ctl, desc, &missing);
	if (!v)
		return CTL_FAIL;
	if (plan_build_down(v, &plan, err, sizeof(err))) {
		ctl_err(ctl, "%s: %s", desc, err);
		jv_free(v);
		return CTL_FAIL;
	}
	exclusive = ctl_rdma_netns_mode(ctl) == CTL_RDMA_EXCLUSIVE;
	for (i = 0; i < plan->nsteps; i++) {
		const struct plan_step *step = &plan->step[i];

		if (step->need == NEED_SM) {
			if (sm_stop(ctl, step->need_pid))
				failed++;
			continue;
		}
		if (step->need == NEED_PATH && !strcmp(step->argv[0], "rdma")) {
			if (!rxe_down_step(ctl, v, exclusive, step, &u, uargv)) {
				fprintf(ctl->err,
					"ibswctl: fabric down: rdma device %s already gone\n",
					step->argv[step->argc - 1]);
				continue;
			}
			step = &u;
		} else if (step->need == NEED_PATH && !strcmp(step->argv[0], "mgmt")) {
			if (!mgmt_still_there(ctl, v, exclusive, step)) {
				fprintf(ctl->err,
					"ibswctl: fabric down: management HCA on %s already gone\n",
					step->argv[step->argc - 1]);
				continue;
			}
		} else if (step->need == NEED_PATH &&
			   !strcmp(step->argv[step->argc - 1], "nomaster")) {
			if (!still_there(ctl, step)) {
				fprintf(ctl->err,
					"ibswctl: fabric down: management carrier %s already out of the bridge\n",
					step->argv[3]);
				continue;
			}
		} else if (step->need != NEED_NONE && !still_there(ctl, step)) {
			fprintf(ctl->err, "ibswctl: fabric down: %s%s already gone\n",
				step->need == NEED_SWITCH ? "switch " :
				step->need == NEED_FAMILY ? "" :
				!strcmp(step->argv[0], "rdma") ? "rdma device " :
				!strcmp(step->argv[1], "link") ? "link " : "namespace ",
				step->need == NEED_FAMILY ? "address table (ibsw not loaded)" :
				step->argv[step->argc - 1]);
			continue;
		}
		if (run_step(ctl, step)) {
			report_step(ctl, "fabric down: failed", step);
			failed++;
		}
	}
	plan_free(plan);
	jv_free(v);
	if (failed) {
		ctl_err(ctl, "fabric down: %u step%s failed; %s kept", failed,
			failed == 1 ? "" : "s", desc);
		return CTL_FAIL;
	}
	if (unlink(desc) && errno != ENOENT) {
		ctl_err(ctl, "cannot remove %s: %s", desc, strerror(errno));
		return CTL_FAIL;
	}
	/* the rdma netns mode of before the first fabric, when the last goes */
	if (ctl_rdma_netns_restore(ctl))
		return CTL_FAIL;
	return CTL_OK;
}

static int fabric_desc(struct ctl *ctl, int argc, char **argv)
{
	const char *desc = IBSWCTL_DESC_PATH;
	bool missing;
	struct jv *v;
	struct jw jw;

	if (argc == 2 && !strcmp(argv[0], "desc")) {
		desc = argv[1];
	} else if (argc) {
		ctl_err(ctl, "fabric desc: expected at most desc PATH");
		usage(ctl->err);
		return CTL_USAGE;
	}
	v = read_desc(ctl, desc, &missing);
	if (!v)
		return CTL_FAIL;
	jw_init(&jw, ctl->out, !ctl->json || ctl->pretty);
	jv_write(&jw, NULL, v);
	jv_free(v);
	return CTL_OK;
}

static const struct ctl_cmd cmds[] = {
	{ "show", fabric_show },
	{ "set", fabric_set },
	{ "up", fabric_up },
	{ "desc", fabric_desc },
	{ "down", fabric_down },
};

int cmd_fabric(struct ctl *ctl, int argc, char **argv)
{
	return ctl_dispatch(ctl, "fabric", cmds, ARRAY_SIZE(cmds), usage, argc, argv);
}
