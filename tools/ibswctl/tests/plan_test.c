// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the fabric builder: the plans of "fabric up" for the
 * topologies of tools/lib/tests/fixtures (golden NAME.plan files here),
 * their execution against the fake transport, undo after a failure, the
 * hosts' injection rates (inject=), the fabric description (valid JSON,
 * checked with jq), "fabric desc" and
 * "fabric down" from a description; a fabric split over machines
 * (machine=, "fabric up ... machine NAME carrier IFNAME"), and their
 * management networks joined ("... mgmt-carrier IFNAME").
 */
#define _GNU_SOURCE
#include "helpers.h"
#include "plan.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/genetlink.h>

static char tmpdir[64];

static char *tmp_path(const char *name)
{
	char *p;

	assert_true(asprintf(&p, "%s/%s", tmpdir, name) > 0);
	return p;
}

static void check_jq(const char *json, const char *filter, const char *want)
{
	char *got = t_jq(json, filter);

	if (!t_have_jq())
		return;
	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
}

static const struct {
	const char *topo, *args, *golden;
} goldens[] = {
	{ "seed002.net", "scale 100", "seed002.plan" },
	{ "ring4.topo", "", "ring4.plan" },
	{ "fattree.topo", "vls 8 buffer 260 prefix t-", "fattree.plan" },
	{ "extras.ibnd", "no-rxe no-mgmt mtu 9000", "extras.plan" },
	{ "dcms.topo", "scale 10", "dcms.plan" },
	{ "ibsw-sm.ibnd", "sm opensm routing-engine ftree qos on", "ibsw-sm.plan" },
	{ "seed002-2m.net", "scale 100 machine A carrier eth1", "seed002-2m-A.plan" },
	{ "seed002-2m.net", "scale 100 machine B carrier eth1", "seed002-2m-B.plan" },
	{ "seed002-2m.net", "scale 100 machine A carrier eth1 mgmt-carrier eth2",
	  "seed002-2m-A-mgmt.plan" },
	{ "seed002-2m.net", "scale 100 machine B carrier eth1 mgmt-carrier eth2",
	  "seed002-2m-B-mgmt.plan" },
};

static void golden_plans(void **state)
{
	struct t *t = t_new();
	char cmd[256], path[512];
	char *want;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(goldens); i++) {
		t_clear(t);
		snprintf(cmd, sizeof(cmd), "fabric up %s %s dry-run", goldens[i].topo,
			 goldens[i].args);
		assert_int_equal(t_run(t, cmd), 0);
		snprintf(path, sizeof(path), "%s/%s", FIXTURES, goldens[i].golden);
		want = t_read_file(path);
		assert_non_null(want);
		assert_string_equal(t_out(t), want);
		free(want);
		assert_string_equal(t_err(t), "");
		/* a dry run does nothing */
		assert_int_equal(t->nreq, 0);
		assert_int_equal(t->nruns, 0);
	}
	t_free(t);
}

/*
 * The two formats of one testbed give the same plan: ibnetdiscover's node
 * names ("S-0002c90000000010") give way to their NodeDescriptions.
 */
static void formats_agree(void **state)
{
	struct t *t = t_new();
	char *a, *b;

	(void)state;
	assert_int_equal(t_run(t, "fabric up seed002.net dry-run"), 0);
	a = strdup(t_out(t));
	t_clear(t);
	assert_int_equal(t_run(t, "fabric up seed002.ibnd dry-run"), 0);
	b = strdup(t_out(t));
	assert_non_null(strstr(b, "ibswctl switch add S1 ports 36\n"));
	assert_non_null(strstr(b, "ip netns exec H1 rdma link add rxe_H1 type rxe netdev ib0\n"));
	assert_string_equal(a, b);
	free(a);
	free(b);
	t_free(t);
}

/* Every malformed fixture: its messages, nothing done. */
static void parse_errors(void **state)
{
	static const char *const bad[] = {
		"bad-unknown-peer", "bad-conflict", "bad-rate", "bad-port-range", "bad-too-many",
		"bad-host-to-host", "bad-machine", "bad-machine-name",
	};
	char topo[64], expect[64], cmd[128];
	struct t *t = t_new();
	char *want;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		t_clear(t);
		snprintf(topo, sizeof(topo), "%s.topo", bad[i]);
		snprintf(expect, sizeof(expect), "%s.expect", bad[i]);
		snprintf(cmd, sizeof(cmd), "fabric up %s", topo);
		assert_int_equal(t_run(t, cmd), 1);
		want = t_read_file(expect);
		assert_non_null(want);
		assert_string_equal(t_err(t), want);
		free(want);
		assert_int_equal(t->nreq, 0);
		assert_int_equal(t->nruns, 0);
	}
	t_clear(t);
	assert_int_equal(t_run(t, "fabric up no-such.topo"), 1);
	assert_string_equal(t_err(t), "no-such.topo: cannot open: No such file or directory\n");
	t_free(t);
}

static void routing_errors(void **state)
{
	char *path = tmp_path("lonely.topo");
	struct t *t = t_new();
	char cmd[256];
	FILE *f;

	(void)state;
	f = fopen(path, "w");
	assert_non_null(f);
	/*
	 * Two switches: with one, tools/lib/route.c (collect_hcas) writes past
	 * its HCA array for the unconnected HCA (reported; ASan finds it).
	 */
	fputs("Switch 4 \"S1\"\n[1] \"H1\"[1]\n[2] \"S2\"[1]\n\nSwitch 4 \"S2\"\n\n"
	      "Hca 1 \"H1\"\n\nHca 1 \"H9\"\n", f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "fabric up %s", path);
	assert_int_equal(t_run(t, cmd), 1);
	assert_non_null(strstr(t_err(t),
			       "lonely.topo:9: HCA \"H9\" is not connected to a switch\n"));
	assert_int_equal(t->nreq, 0);
	assert_int_equal(t->nruns, 0);
	unlink(path);
	free(path);
	t_free(t);
}

static void option_errors(void **state)
{
	static const char *const bad[] = {
		"fabric up seed002.net prefix a/b",
		"fabric up seed002.net scale 0",
		"fabric up seed002.net scale",
		"fabric up seed002.net vls 16",
		"fabric up seed002.net buffer 0",
		"fabric up seed002.net mtu 1000",
		"fabric up seed002.net color blue",
	};
	struct t *t = t_new();
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		t_clear(t);
		assert_int_equal(t_run(t, bad[i]), 2);
		assert_int_equal(t->nreq, 0);
		assert_int_equal(t->nruns, 0);
	}
	t_free(t);
}

/* Answers: ids for new switches, a time scale, switches that exist */
static int kernel(struct t *t, const struct nlmsghdr *req)
{
	static uint32_t next_id = 10;
	const struct nlattr *name = t_attr(req, IBSW_A_SWITCH_NAME);
	struct nlmsghdr *r;

	switch (t_cmd(req)) {
	case IBSW_CMD_SWITCH_NEW:
		r = t_reply(t, IBSW_CMD_SWITCH_NEW);
		mnl_attr_put_u32(r, IBSW_A_SWITCH_ID, next_id++);
		mnl_attr_put_strz(r, IBSW_A_SWITCH_NAME, mnl_attr_get_str(name));
		return 0;
	case IBSW_CMD_FABRIC_GET:
		r = t_reply(t, IBSW_CMD_FABRIC_GET);
		mnl_attr_put_u32(r, IBSW_A_FABRIC_TIME_SCALE, 7);
		return 0;
	case IBSW_CMD_SWITCH_GET:
		if (strcmp(mnl_attr_get_str(name), "S1"))
			return -ENOENT;
		r = t_reply(t, IBSW_CMD_SWITCH_GET);
		mnl_attr_put_strz(r, IBSW_A_SWITCH_NAME, "S1");
		return 0;
	case IBSW_CMD_HOST_NEW:
		if (!strcmp(mnl_attr_get_str(t_attr(req, IBSW_A_PORT_SWITCH_NAME)), "S2") &&
		    mnl_attr_get_u32(t_attr(req, IBSW_A_PORT_PORT)) == 3 &&
		    t->fail_err == -EBUSY) {
			snprintf(t->ctl.ext_msg, sizeof(t->ctl.ext_msg), "port S2/3 is busy");
			return -EBUSY;
		}
		return 0;
	default:
		return 0;
	}
}

/* The plan's lines of one kind: "ibswctl ..." (ctl) or the others */
static char *plan_lines(const char *plan, bool ctl)
{
	char *out = NULL, *copy = strdup(plan), *line, *save = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&out, &size);

	assert_non_null(f);
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (!strncmp(line, "ibswctl ", 8) == ctl)
			fprintf(f, "%s\n", line);
	fclose(f);
	free(copy);
	return out;
}

/* Forget the output, the requests and the programs run */
static void clear_all(struct t *t)
{
	t_clear(t);
	fclose(t->runsf);
	free(t->runs);
	t->runs = NULL;
	t->runsf = open_memstream(&t->runs, &t->runs_size);
	assert_non_null(t->runsf);
}

/* Whether hca desc wrote text to dev's node_desc (the fake sysfs) */
static bool wrote_desc(struct t *t, const char *dev, const char *text)
{
	char line[256];

	fflush(t->runsf);
	snprintf(line, sizeof(line), "write /nonexistent/sys/class/infiniband/%s/node_desc %s\n",
		 dev, text);
	return strstr(t->runs, line);
}

/* text without its lines that start with prefix */
static char *drop_lines(const char *text, const char *prefix)
{
	char *out = NULL, *copy = strdup(text), *line, *save = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&out, &size);

	assert_non_null(f);
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (strncmp(line, prefix, strlen(prefix)))
			fprintf(f, "%s\n", line);
	fclose(f);
	free(copy);
	return out;
}

/*
 * runs with each "ip|tc -n NS -batch - <<" and its tab-indented lines
 * written out as the commands of the plan they came from
 */
static char *unbatch(const char *runs, unsigned int *batches)
{
	char *copy = strdup(runs), *line, *save = NULL, *out = NULL, prefix[64] = "";
	size_t size = 0;
	FILE *f = open_memstream(&out, &size);

	assert_non_null(copy);
	assert_non_null(f);
	*batches = 0;
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char prog[8], ns[32];

		if (line[0] == '\t') {
			fprintf(f, "%s %s\n", prefix, line + 1);
		} else if (sscanf(line, "%7s -n %31s -batch - <<", prog, ns) == 2 &&
			   strstr(line, " -batch - <<")) {
			snprintf(prefix, sizeof(prefix), "%s -n %s", prog, ns);
			++*batches;
		} else {
			fprintf(f, "%s\n", line);
		}
	}
	fclose(f);
	free(copy);
	return out;
}

/* A step of a hand-made plan: argv split at spaces, | stands for a space */
static void hand_step(struct plan_step *st, enum plan_undo undo, const char *cmd)
{
	char *copy = strdup(cmd), *w, *save = NULL, *p;

	assert_non_null(copy);
	memset(st, 0, sizeof(*st));
	st->kind = PLAN_EXEC;
	st->undo = undo;
	st->sw = -1;
	st->argv = calloc(16, sizeof(char *));
	assert_non_null(st->argv);
	for (w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		st->argv[st->argc] = strdup(w);
		for (p = st->argv[st->argc]; *p; p++)
			if (*p == '|')
				*p = ' ';
		st->argc++;
	}
	free(copy);
}

/*
 * Batches: consecutive ip (or tc) -n NS steps with nothing to undo; a
 * word the batch parser would split, an option before the command, an
 * undo, another namespace or program ends one
 */
static void batches(void **state)
{
	static const char *const cmds[] = {
		"ip -n H1 link set lo up",		/* 0: batch of 3 */
		"ip -n H1 addr add 10.0.0.2/16 dev ib0",
		"ip -n H1 link set ib0 up",
		"tc -n H1 qdisc replace dev ib0 root handle 1: mq",	/* 3: 2 */
		"tc -n H1 qdisc replace dev ib0 parent 1:1 pfifo",
		"ip -n H2 link set lo up",		/* 5: alone (H3 next) */
		"ip -n H3 link set lo up",		/* 6: alone (undo next) */
		"ip -n H3 link add x type dummy",	/* 7: has an undo */
		"ip -n H3 -6 addr add fd00::1/64 dev x",	/* 8: an option */
		"ip -n H3 link set x alias a|b",	/* 9: a space */
		"ip -n H3 link set x alias #c",		/* 10: a comment sign */
		"ip netns exec H3 rdma link",		/* 11: not -n */
	};
	static const unsigned int want[] = { 3, 2, 1, 1, 1, 1, 1, 1, 1 };
	static const unsigned int at[] = { 0, 3, 5, 6, 7, 8, 9, 10, 11 };
	struct plan_step steps[ARRAY_SIZE(cmds)];
	struct plan plan = { .step = steps, .nsteps = ARRAY_SIZE(cmds) };
	unsigned int i;
	char *text;
	int j;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cmds); i++)
		hand_step(&steps[i], i == 7 ? UNDO_LINK : UNDO_NONE, cmds[i]);
	for (i = 0; i < ARRAY_SIZE(at); i++)
		assert_int_equal(plan_batch_len(&plan, at[i]), want[i]);
	/* from inside a run, to its end */
	assert_int_equal(plan_batch_len(&plan, 1), 2);
	text = plan_batch_text(&plan, 0, 3);
	assert_string_equal(text,
			    "link set lo up\naddr add 10.0.0.2/16 dev ib0\nlink set ib0 up\n");
	free(text);
	text = plan_batch_text(&plan, 3, 2);
	assert_string_equal(text, "qdisc replace dev ib0 root handle 1: mq\n"
			    "qdisc replace dev ib0 parent 1:1 pfifo\n");
	free(text);
	for (i = 0; i < ARRAY_SIZE(cmds); i++) {
		for (j = 0; j < steps[i].argc; j++)
			free(steps[i].argv[j]);
		free(steps[i].argv);
	}
}

/* The commands of the requests made, as the plan writes them (cmd only) */
static char *req_cmds(struct t *t)
{
	char *out = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&out, &size);
	unsigned int i;

	assert_non_null(f);
	for (i = 0; i < t->nreq; i++)
		fprintf(f, "%s\n", ctl_cmd_name(t_cmd(t->req[i])));
	fclose(f);
	return out;
}

static void up_and_down(void **state)
{
	char *desc = tmp_path("run/ibsw/fabric.json"), *plan, *want, *got, *text, *cmds;
	struct t *t = t_new();
	unsigned int batches;
	char cmd[512];

	(void)state;
	/* the plan, to compare with what is done */
	assert_int_equal(t_run(t, "fabric up seed002.net scale 100 dry-run"), 0);
	plan = strdup(t_out(t));
	t_clear(t);

	t->respond = kernel;
	snprintf(cmd, sizeof(cmd), "fabric up seed002.net scale 100 desc %s", desc);
	assert_int_equal(t_run(t, cmd), 0);
	assert_string_equal(t_err(t), "");
	assert_string_equal(t_out(t), "");
	/*
	 * every program of the plan, in order; hca desc writes node_desc. A
	 * host's ip and tc commands in its namespace run as two batches,
	 * after host add: ip's (loopback, management and fabric ports), tc's.
	 */
	want = plan_lines(plan, false);
	text = drop_lines(t->runs, "write ");
	got = unbatch(text, &batches);
	free(text);
	assert_string_equal(got, want);
	assert_int_equal(batches, 7 * 2);
	assert_non_null(strstr(t->runs, "ip -n H1 -batch - <<\n\tlink set lo up\n"
			       "\taddr add 10.1.0.3/16 dev eth0\n\tlink set eth0 up\n"
			       "\tlink set ib0 mtu 4200\n"));
	assert_non_null(strstr(t->runs, "tc -n H1 -batch - <<\n"
			       "\tqdisc replace dev ib0 root handle 1: mq\n"
			       "\tqdisc replace dev ib0 parent 1:1 pfifo limit 100000\n"));
	free(got);
	free(want);
	assert_true(wrote_desc(t, "rxe_H1", "H1 rxe_H1"));
	assert_true(wrote_desc(t, "rxe_H7", "H7 rxe_H7"));
	/* and every netlink request: 1 + 2 + 1 + 7 + 1 + 2 */
	cmds = req_cmds(t);
	assert_string_equal(cmds,
			    "fabric-set\nswitch-new\nswitch-new\nlink-new\n"
			    "host-new\nhost-new\nhost-new\nhost-new\nhost-new\nhost-new\nhost-new\n"
			    "addr-set\nlft-set\nlft-set\n");
	free(cmds);
	assert_int_equal(t_count(t->req[11], IBSW_A_FABRIC_ADDR), 14);

	text = t_read_file(desc);
	assert_non_null(text);
	assert_true(t_json_valid(text));
	check_jq(text, "[.version, .time_scale, .mtu, .prefix, .rxe,\n"
		 "(.topology | endswith(\"/seed002.net\"))]",
		 "[1,100,4200,\"\",true,true]\n");
	check_jq(text, "[.switches[] | [.name, .id, .lid, .nports, (.ports | length)]]",
		 "[[\"S1\",10,1,36,4],[\"S2\",11,2,36,5]]\n");
	check_jq(text, ".switches[0].ports[3] |\n"
		 "[.port, .kind, .peer, .peer_port, .rate, .rate_bps]",
		 "[4,\"link\",\"S2\",5,\"4xQDR\",32000000000]\n");
	check_jq(text, ".switches[0].ports[3] | keys_unsorted | join(\" \")",
		 "\"port kind peer peer_port rate rate_bps\"\n");
	check_jq(text, ".switches[1].ports[1] |\n"
		 "[.port, .kind, .host, .host_port, .lid, .rate, .rate_bps]",
		 "[2,\"host\",\"H5\",1,7,\"4xDDR\",16000000000]\n");
	check_jq(text, ".links | map([.switch, .port, .peer, .peer_port, .rate, .rate_bps])",
		 "[[\"S1\",4,\"S2\",5,\"4xQDR\",32000000000]]\n");
	check_jq(text, ".hosts[4] | keys_unsorted | join(\" \")",
		 "\"name ident hca_port netns ifname mac lid ipv4 ipv6 rdma_dev mgmt_ipv4 switch switch_port rate rate_bps hca_rate_bps hca_rate_given\"\n");
	check_jq(text,
		 "[.mgmt.bridge, .mgmt.ipv4, .mgmt.ifname, .mgmt.carrier, .hosts[4].mgmt_ipv4]",
		 "[\"ibsw-mgmt\",\"10.1.255.254\",\"eth0\",null,\"10.1.0.7\"]\n");
	check_jq(text, ".hosts[4] | [.name, .ident, .hca_port, .netns, .ifname, .mac, .lid]",
		 "[\"H5\",\"H5\",1,\"H5\",\"ib0\",\"02:1b:00:00:00:07\",7]\n");
	check_jq(text, ".hosts[4] |\n"
		 "[.ipv4, .ipv6, .rdma_dev, .switch, .switch_port, .rate, .rate_bps]",
		 "[\"10.0.0.7\",\"fd00:1b::7\",\"rxe_H5\",\"S2\",2,\"4xDDR\",16000000000]\n");
	check_jq(text, "[.hosts[] | [.hca_rate_bps, .hca_rate_given]] | unique",
		 "[[13000000000,true]]\n");
	check_jq(text, "[.hosts[] | .name] | join(\" \")", "\"H1 H2 H3 H4 H5 H6 H7\"\n");

	/* fabric desc prints it again, pretty: the same text */
	t_clear(t);
	snprintf(cmd, sizeof(cmd), "fabric desc %s %s", "desc", desc);
	assert_int_equal(t_run(t, cmd), 0);
	assert_string_equal(t_out(t), text);
	t_clear(t);
	snprintf(cmd, sizeof(cmd), "-j fabric desc %s %s", "desc", desc);
	assert_int_equal(t_run(t, cmd), 0);
	check_jq(t_out(t), ".hosts[6].lid", "9\n");
	assert_null(strchr(t_out(t), ' '));
	free(text);

	/* a second fabric up is refused before anything is done */
	t_clear(t);
	t->nruns = 0;
	snprintf(cmd, sizeof(cmd), "fabric up seed002.net desc %s", desc);
	assert_int_equal(t_run(t, cmd), 1);
	assert_non_null(strstr(t_err(t), "fabric already up: "));
	assert_int_equal(t->nreq, 0);
	assert_int_equal(t->nruns, 0);

	/* down: rxe_H2 and the namespaces of H3..H7 are already gone, and S2 */
	clear_all(t);
	t->paths[t->npaths++] = "/sys/class/infiniband/rxe_H1";
	t->paths[t->npaths++] = "/sys/class/infiniband/rxe_H3";
	t->paths[t->npaths++] = "/run/netns/H1";
	t->paths[t->npaths++] = "/run/netns/H2";
	snprintf(cmd, sizeof(cmd), "fabric down desc %s", desc);
	assert_int_equal(t_run(t, cmd), 0);
	fflush(t->runsf);
	assert_string_equal(t->runs,
			    "rdma link delete rxe_H1\nrdma link delete rxe_H3\n"
			    "ip netns del H1\nip netns del H2\n");
	cmds = req_cmds(t);
	assert_string_equal(cmds, "switch-get\nswitch-del\nswitch-get\nfabric-get\naddr-set\n");
	free(cmds);
	assert_string_equal(mnl_attr_get_str(t_attr(t->req[1], IBSW_A_SWITCH_NAME)), "S1");
	assert_int_equal(t_count(t->req[4], IBSW_A_FABRIC_ADDR), 0);
	got = strdup(t_err(t));
	assert_non_null(strstr(got, "ibswctl: fabric down: rdma device rxe_H2 already gone\n"));
	assert_non_null(strstr(got, "ibswctl: fabric down: namespace H7 already gone\n"));
	assert_non_null(strstr(got, "ibswctl: fabric down: switch S2 already gone\n"));
	free(got);
	assert_false(t->ctl.ops->exists(&t->ctl, desc));

	/* nothing is up any more */
	t_clear(t);
	assert_int_equal(t_run(t, cmd), 1);
	assert_non_null(strstr(t_err(t), "no fabric is up: "));
	assert_int_equal(t->nreq, 0);

	free(plan);
	free(desc);
	t_free(t);
}

/*
 * A host's inject= goes to its host add as hca-rate, as given; the
 * description has the rate in force: the given one up to the link's rate,
 * else 98.75% of the link's.
 */
static void hca_rates(void **state)
{
	static const char *const steps[] = {
		"ibswctl host add S1/1 name ib0 netns H1 lid 2 rate 4xSDR mac 02:1b:00:00:00:02\n",
		"ibswctl host add S1/2 name ib0 netns H2 lid 3 rate 4xDDR hca-rate 13000000000 mac 02:1b:00:00:00:03\n",
		"ibswctl host add S1/3 name ib0 netns H3 lid 4 rate 1xSDR hca-rate 3000000000 mac 02:1b:00:00:00:04\n",
	};
	char *topo = tmp_path("inject.topo"), *desc = tmp_path("inject.json"), *text;
	const struct nlattr *a;
	struct t *t = t_new();
	char cmd[512];
	unsigned int i, n = 0;
	FILE *f;

	(void)state;
	f = fopen(topo, "w");
	assert_non_null(f);
	fputs("Switch 4 \"S1\"\n[1] \"H1\"[1] w=2 s=1\n[2] \"H2\"[1] w=2 s=2\n"
	      "[3] \"H3\"[1] w=1 s=1\n\n"
	      "Hca 1 \"H1\"\n[1] \"S1\"[1]\n\nHca 1 \"H2\"\n[1] \"S1\"[2] inject=13G\n\n"
	      "Hca 1 \"H3\"\n[1] \"S1\"[3] inject=3G\n", f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "fabric up %s no-rxe no-mgmt dry-run", topo);
	assert_int_equal(t_run(t, cmd), 0);
	for (i = 0; i < ARRAY_SIZE(steps); i++)
		assert_non_null(strstr(t_out(t), steps[i]));

	t_clear(t);
	t->respond = kernel;
	snprintf(cmd, sizeof(cmd), "fabric up %s no-rxe no-mgmt desc %s", topo, desc);
	assert_int_equal(t_run(t, cmd), 0);
	for (i = 0; i < t->nreq; i++) {
		if (t_cmd(t->req[i]) != IBSW_CMD_HOST_NEW)
			continue;
		a = t_attr(t->req[i], IBSW_A_PORT_HCA_RATE);
		if (n++ == 0) {
			assert_null(a);
			continue;
		}
		assert_non_null(a);
		assert_true(ctl_attr_uint(a) == (n == 2 ? 13000000000ULL : 3000000000ULL));
	}
	assert_int_equal(n, 3);
	text = t_read_file(desc);
	assert_non_null(text);
	check_jq(text, "[.hosts[] | [.name, .rate_bps, .hca_rate_bps, .hca_rate_given]]",
		 "[[\"H1\",8000000000,7900000000,false],[\"H2\",16000000000,13000000000,true],[\"H3\",2000000000,2000000000,true]]\n");
	free(text);
	unlink(desc);
	unlink(topo);
	free(desc);
	free(topo);
	t_free(t);
}

/* Without scale, the description records the time scale in force. */
static void scale_from_kernel(void **state)
{
	char *desc = tmp_path("scale.json"), *text;
	struct t *t = t_new();
	char cmd[512];

	(void)state;
	t->respond = kernel;
	snprintf(cmd, sizeof(cmd), "fabric up ring4.topo no-rxe desc %s", desc);
	assert_int_equal(t_run(t, cmd), 0);
	assert_int_equal(t_cmd(t->req[0]), IBSW_CMD_SWITCH_NEW);
	assert_int_equal(t_cmd(t->req[t->nreq - 1]), IBSW_CMD_FABRIC_GET);
	text = t_read_file(desc);
	check_jq(text, "[.time_scale, .rxe, ([.hosts[] | .rdma_dev] | unique)]",
		 "[7,false,[null]]\n");
	free(text);
	unlink(desc);
	free(desc);
	t_free(t);
}

/* A program fails: everything done so far is undone, newest first. */
static void undo_after_exec_failure(void **state)
{
	char *desc = tmp_path("undo1.json"), *cmds;
	struct t *t = t_new();
	char cmd[512];

	(void)state;
	t->respond = kernel;
	/* runs: H1: netns, ip's batch, tc's, rdma (4); H2: netns, ip's batch (fails) */
	t->run_fail = 6;
	snprintf(cmd, sizeof(cmd), "fabric up seed002.net no-mgmt desc %s", desc);
	assert_int_equal(t_run(t, cmd), 1);
	fflush(t->runsf);
	assert_non_null(strstr(t->runs,
			       "ip -n H2 -batch - <<\n\tlink set lo up\n\tlink set ib0 mtu 4200\n"
			       "\taddr add 10.0.0.4/16 dev ib0\n"
			       "\taddr add fd00:1b::4/64 dev ib0 nodad\n\tlink set ib0 up\n"
			       "ip netns del H2\n"
			       "rdma link delete rxe_H1\n"
			       "ip netns del H1\n"));
	cmds = req_cmds(t);
	assert_string_equal(cmds, "switch-new\nswitch-new\nlink-new\nhost-new\nhost-new\n"
			    "switch-del\nswitch-del\n");
	free(cmds);
	assert_string_equal(mnl_attr_get_str(t_attr(t->req[5], IBSW_A_SWITCH_NAME)), "S2");
	assert_string_equal(mnl_attr_get_str(t_attr(t->req[6], IBSW_A_SWITCH_NAME)), "S1");
	assert_string_equal(t_err(t),
			    "ibswctl: fabric up failed at: ip -n H2 -batch -\n"
			    "ibswctl:   -:1 link set lo up\n"
			    "ibswctl:   -:2 link set ib0 mtu 4200\n"
			    "ibswctl:   -:3 addr add 10.0.0.4/16 dev ib0\n"
			    "ibswctl:   -:4 addr add fd00:1b::4/64 dev ib0 nodad\n"
			    "ibswctl:   -:5 link set ib0 up\n"
			    "ibswctl: undoing what was done\n");
	assert_false(t->ctl.ops->exists(&t->ctl, desc));
	free(desc);
	t_free(t);
}

/* The management bridge is undone too, after the namespaces. */
static void undo_mgmt(void **state)
{
	char *desc = tmp_path("undo3.json");
	struct t *t = t_new();
	char cmd[512];

	(void)state;
	t->respond = kernel;
	/* runs: bridge add, addr, up; H1: netns, veth, master, ip's batch (fails) */
	t->run_fail = 7;
	snprintf(cmd, sizeof(cmd), "fabric up seed002.net desc %s", desc);
	assert_int_equal(t_run(t, cmd), 1);
	fflush(t->runsf);
	assert_non_null(strstr(t->runs,
			       "ip link add m-H1 type veth peer name eth0 netns H1\n"
			       "ip link set m-H1 master ibsw-mgmt up\n"
			       "ip -n H1 -batch - <<\n\tlink set lo up\n"
			       "\taddr add 10.1.0.3/16 dev eth0\n\tlink set eth0 up\n"
			       "\tlink set ib0 mtu 4200\n"));
	assert_non_null(strstr(t->runs, "\tlink set ib0 up\n"
			       "ip netns del H1\n"
			       "ip link del ibsw-mgmt\n"));
	assert_false(t->ctl.ops->exists(&t->ctl, desc));
	free(desc);
	t_free(t);
}

/* A request fails: its extack message, then the undo (addr table too). */
static void undo_after_request_failure(void **state)
{
	char *desc = tmp_path("undo2.json"), *cmds;
	struct t *t = t_new();
	char cmd[512];

	(void)state;
	t->respond = kernel;
	t->fail_err = -EBUSY;		/* kernel() refuses host add S2/3 */
	t->fail_req = 9999;
	snprintf(cmd, sizeof(cmd), "fabric up seed002.net no-mgmt desc %s", desc);
	assert_int_equal(t_run(t, cmd), 1);
	assert_string_equal(t_err(t),
			    "ibswctl: host add S2/3: port S2/3 is busy (Device or resource busy)\n"
			    "ibswctl: fabric up failed at: ibswctl host add S2/3 name ib0 netns H6 lid 8 rate 4xDDR hca-rate 13000000000 mac 02:1b:00:00:00:08\n"
			    "ibswctl: undoing what was done\n");
	fflush(t->runsf);
	assert_non_null(strstr(t->runs,
			       "ip netns exec H5 rdma link add rxe_H5 type rxe netdev ib0\n"
			       "write /nonexistent/sys/class/infiniband/rxe_H5/node_desc H5 rxe_H5\n"
			       "ip netns add H6\n"
			       "ip netns del H6\nrdma link delete rxe_H5\nip netns del H5\n"));
	assert_non_null(strstr(t->runs, "rdma link delete rxe_H1\nip netns del H1\n"));
	cmds = req_cmds(t);
	assert_non_null(strstr(cmds, "host-new\nswitch-del\nswitch-del\n"));
	free(cmds);
	assert_false(t->ctl.ops->exists(&t->ctl, desc));
	free(desc);
	t_free(t);
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* With ibsw unloaded (no family), switches and the table are gone with it. */
static void down_module_unloaded(void **state)
{
	char *desc = tmp_path("down-unloaded.json");
	struct t *t = t_new();
	char cmd[512];

	(void)state;
	snprintf(cmd, sizeof(cmd), "fabric down desc %s", desc);
	write_text(desc, "{\"version\": 1, \"switches\": [{\"name\": \"S1\"}],\n"
		   "\"hosts\": [{\"netns\": \"H1\", \"ifname\": \"ib0\", \"rdma_dev\": null}]}");
	t->paths[t->npaths++] = "/run/netns/H1";
	t->fail_err = -ENOENT;	/* every request: the family does not exist */
	assert_int_equal(t_run(t, cmd), 0);
	fflush(t->runsf);
	assert_string_equal(t->runs, "ip netns del H1\n");
	assert_non_null(strstr(t_err(t), "fabric down: switch S1 already gone\n"));
	assert_non_null(strstr(t_err(t),
			       "fabric down: address table (ibsw not loaded) already gone\n"));
	assert_false(t->ctl.ops->exists(&t->ctl, desc));
	free(desc);
	t_free(t);
}

static void down_errors(void **state)
{
	char *desc = tmp_path("down.json");
	struct t *t = t_new();
	char cmd[512];

	(void)state;
	snprintf(cmd, sizeof(cmd), "fabric down desc %s", desc);
	write_text(desc, "{\"version\": 1, \"switches\": [{\"name\": \"S1\"}],\n"
		   "\"hosts\": [{\"netns\": \"H1\", \"ifname\": \"ib0\", \"rdma_dev\": null}]}");
	t->paths[t->npaths++] = "/run/netns/H1";
	t->respond = kernel;
	t->run_fail = 1;	/* ip netns del H1 */
	assert_int_equal(t_run(t, cmd), 1);
	assert_non_null(strstr(t_err(t), "ibswctl: fabric down: failed: ip netns del H1\n"));
	assert_non_null(strstr(t_err(t), "fabric down: 1 step failed; "));
	/* the other steps still ran, and the description is kept for another try */
	assert_int_equal(t->nreq, 4);
	assert_true(t->ctl.ops->exists(&t->ctl, desc));

	t_clear(t);
	write_text(desc, "{\"version\": 2, \"switches\": [], \"hosts\": []}");
	assert_int_equal(t_run(t, cmd), 1);
	assert_non_null(strstr(t_err(t), "not a fabric description of this version of ibswctl"));
	t_clear(t);
	write_text(desc, "{\"version\": 1, \"switches\": [], \"hosts\": [{\"netns\": 3}]}");
	assert_int_equal(t_run(t, cmd), 1);
	assert_non_null(strstr(t_err(t), "a host without netns or ifname"));
	t_clear(t);
	write_text(desc, "{\"version\": 1,\n\"switches\": [}");
	assert_int_equal(t_run(t, cmd), 1);
	assert_non_null(strstr(t_err(t), "down.json: line 2: unexpected character '}'\n"));
	assert_int_equal(t->nreq, 0);
	unlink(desc);
	free(desc);
	t_free(t);
}

/* The pure plan API, as other tools could use it */
/*
 * sm opensm: the management node's HCA, then OpenSM in its namespace with
 * its GUID and a configuration written, waited for; the description has
 * both, fabric show the SM, and fabric down stops it before anything goes.
 */
static void sm_up_and_down(void **state)
{
	char *desc = tmp_path("sm/fabric.json"), *run = tmp_path("sm/run"), *text, *conf;
	struct t *t = t_new();
	char cmd[512], want[1024];
	const char *r;
	unsigned int i;

	(void)state;
	t->respond = kernel;
	t->ctl.run_dir = run;
	snprintf(cmd, sizeof(cmd), "fabric up ibsw-sm.ibnd desc %s sm opensm routing-engine ftree",
		 desc);
	assert_int_equal(t_run(t, cmd), 0);
	assert_string_equal(t_err(t), "");
	fflush(t->runsf);
	assert_true(wrote_desc(t, "ibsw_mgmt0", "M1 ibsw_mgmt0"));
	/* started last, its GUID read from sysfs, then waited for */
	snprintf(want, sizeof(want), "spawn ip netns exec M1 env OSM_CACHE_DIR=%s/opensm ", run);
	r = strstr(t->runs, want);
	assert_non_null(r);
	snprintf(want, sizeof(want), "OSM_TMP_DIR=%s/opensm opensm -F %s/opensm/opensm.conf ",
		 run, run);
	r = strstr(r, want);
	assert_non_null(r);
	snprintf(want, sizeof(want), "-g 0x02b5de0000010103 -f %s/opensm/opensm.log -R ftree ",
		 run);
	r = strstr(r, want);
	assert_non_null(r);
	snprintf(want, sizeof(want), "> %s/opensm/opensm.out\nwait %d %s/opensm/opensm.log ",
		 run, T_SM_PID, run);
	r = strstr(r, want);
	assert_non_null(r);
	snprintf(want, sizeof(want), "SUBNET UP %u\n", PLAN_SM_TIMEOUT * 1000);
	assert_string_equal(r + strlen(r) - strlen(want), want);
	for (i = 0; i < t->nreq && t_cmd(t->req[i]) != IBSW_CMD_MGMT_NEW; i++)
		;
	assert_true(i < t->nreq);
	assert_true(ctl_attr_uint(t_attr(t->req[i], IBSW_A_PORT_GUID)) == 0x02b5de0000010103ULL);
	assert_string_equal(mnl_attr_get_str(t_attr(t->req[i], IBSW_A_PORT_IBDEV_NAME)),
			    "ibsw_mgmt0");
	snprintf(want, sizeof(want), "%s/opensm/opensm.conf", run);
	conf = t_read_file(want);
	assert_non_null(conf);
	assert_non_null(strstr(conf, "\nguid 0x02b5de0000010103\n"));
	assert_non_null(strstr(conf, "\nrouting_engine ftree\nqos FALSE\n"));
	free(conf);
	text = t_read_file(desc);
	check_jq(text, ".sm.pid", "4242\n");
	check_jq(text, ".sm.routing_engine", "\"ftree\"\n");
	check_jq(text, ".sm.port_guid", "\"0x02b5de0000010103\"\n");
	check_jq(text, "[.mgmt_nodes[] | .ident, .ibdev, .switch, .switch_port] | join(\" \")",
		 "\"M1 ibsw_mgmt0 S1 3\"\n");
	check_jq(text, "[.hosts[].ident] | join(\" \")", "\"H2 H1\"\n");
	free(text);

	t_clear(t);
	snprintf(cmd, sizeof(cmd), "fabric show desc %s", desc);
	assert_int_equal(t_run(t, cmd), 0);
	snprintf(want, sizeof(want), "%s %s log %s/opensm/opensm.log conf %s/opensm/opensm.conf\n",
		 "time-scale 7\nsm opensm pid 4242 routing-engine ftree netns M1 ibdev ibsw_mgmt0",
		 "guid 0x02b5de0000010103", run, run);
	assert_string_equal(t_out(t), want);
	t_clear(t);
	snprintf(cmd, sizeof(cmd), "-j fabric show desc %s", desc);
	assert_int_equal(t_run(t, cmd), 0);
	check_jq(t_out(t), "[.time_scale, .sm.pid] | join(\" \")", "\"7 4242\"\n");

	/* the SM first, then the rxe devices, the management HCA */
	clear_all(t);
	t->paths[t->npaths++] = "/sys/class/infiniband/rxe_H1";
	t->paths[t->npaths++] = "/sys/class/infiniband/ibsw_mgmt0";
	t->paths[t->npaths++] = IBSWCTL_NETNS_DIR "/M1";
	snprintf(cmd, sizeof(cmd), "fabric down desc %s", desc);
	assert_int_equal(t_run(t, cmd), 0);
	fflush(t->runsf);
	assert_true(!strncmp(t->runs, "stop 4242 opensm 5000\nrdma link delete rxe_H1\n", 45));
	assert_string_equal(ctl_cmd_name(t_cmd(t->req[0])), "mgmt-del");
	assert_non_null(strstr(t->runs, "ip netns del M1\n"));
	free(desc);
	free(run);
	t_free(t);
}

/*
 * rdma's exclusive netns mode: the management HCA is made in its node's
 * namespace (netns-fd), where its GUID is read and its description set
 */
static void sm_exclusive(void **state)
{
	char *desc = tmp_path("sm3/fabric.json"), *run = tmp_path("sm3/run");
	struct t *t = t_new();
	char cmd[512], want[512];
	const char *r;
	unsigned int i;

	(void)state;
	t->respond = kernel;
	t->ctl.run_dir = run;
	t->rdma_mode = CTL_RDMA_EXCLUSIVE;
	snprintf(cmd, sizeof(cmd), "fabric up ibsw-sm.ibnd desc %s sm opensm", desc);
	assert_int_equal(t_run(t, cmd), 0);
	assert_string_equal(t_err(t), "");
	for (i = 0; i < t->nreq && t_cmd(t->req[i]) != IBSW_CMD_MGMT_NEW; i++)
		;
	assert_true(i < t->nreq);
	assert_non_null(t_attr(t->req[i], IBSW_A_PORT_NETNS_FD));
	snprintf(want, sizeof(want), "%s/netns/M1/class/infiniband/ibsw_mgmt0/node_guid",
		 t->ctl.sys_root);
	assert_string_equal(t->guid_read, want);
	fflush(t->runsf);
	r = "write /nonexistent/sys/netns/M1/class/infiniband/ibsw_mgmt0/node_desc M1 ibsw_mgmt0\n";
	assert_non_null(strstr(t->runs, r));
	assert_non_null(strstr(t->runs, "-g 0x02b5de0000010103 "));

	/* fabric down finds the HCA in M1, not gone, and deletes it */
	clear_all(t);
	t->paths[t->npaths++] = "/nonexistent/sys/netns/M1/class/infiniband/ibsw_mgmt0";
	t->paths[t->npaths++] = IBSWCTL_NETNS_DIR "/M1";
	snprintf(cmd, sizeof(cmd), "fabric down desc %s", desc);
	assert_int_equal(t_run(t, cmd), 0);
	assert_null(strstr(t_err(t), "management HCA on S1/3 already gone"));
	for (i = 0; i < t->nreq && t_cmd(t->req[i]) != IBSW_CMD_MGMT_DEL; i++)
		;
	assert_true(i < t->nreq);
	/* and says so when it is gone */
	clear_all(t);
	t->npaths = 0;
	snprintf(want, sizeof(want), "fabric up ibsw-sm.ibnd desc %s sm opensm", desc);
	assert_int_equal(t_run(t, want), 0);
	clear_all(t);
	assert_int_equal(t_run(t, cmd), 0);
	assert_non_null(strstr(t_err(t), "management HCA on S1/3 already gone"));
	free(desc);
	free(run);
	t_free(t);
}

/* No SUBNET UP: said, the SM stopped, and everything undone */
static void sm_fails(void **state)
{
	char *desc = tmp_path("sm2/fabric.json"), *run = tmp_path("sm2/run");
	struct t *t = t_new();
	char cmd[512], want[512];
	unsigned int i, mgmt_del = 0;

	(void)state;
	t->respond = kernel;
	t->ctl.run_dir = run;
	t->wait_err = -ETIMEDOUT;
	t->stop_ret = 1;
	snprintf(cmd, sizeof(cmd), "fabric up ibsw-sm.ibnd desc %s sm opensm sm-timeout 7", desc);
	assert_int_equal(t_run(t, cmd), 1);
	snprintf(want, sizeof(want),
		 "ibswctl: opensm (pid 4242): no SUBNET UP in %s/opensm/opensm.log after 7 s\n"
		 "ibswctl: opensm (pid 4242) ignored SIGTERM: killed\n", run);
	assert_non_null(strstr(t_err(t), want));
	fflush(t->runsf);
	assert_non_null(strstr(t->runs, "stop 4242 opensm 5000\n"));
	assert_non_null(strstr(t->runs, "ip netns del M1\n"));
	for (i = 0; i < t->nreq; i++)
		mgmt_del += t_cmd(t->req[i]) == IBSW_CMD_MGMT_DEL;
	assert_int_equal(mgmt_del, 1);
	assert_false(t->ctl.ops->exists(&t->ctl, desc));
	free(desc);
	free(run);
	t_free(t);
}

static void sm_errors(void **state)
{
	static const char bad[] = "devid=0x1b5e\nHca 2 \"M1\"\n[1] \"S1\"[1]\n\n"
				  "Switch 4 \"S1\"\n[1] \"M1\"[1]\n";
	char *path = tmp_path("two-port-mgmt.topo"), cmd[512];
	struct t *t = t_new();
	const char *r;
	FILE *f;

	(void)state;
	assert_int_equal(t_run(t, "fabric up seed002.net sm opensm"), 1);
	assert_non_null(strstr(t_err(t), "seed002.net: sm opensm needs a management node"));
	assert_non_null(strstr(t_err(t), "a Ca record with devid=0x1b5e before it\n"));
	/* without ib_umad OpenSM cannot open its port: nothing is done */
	t_clear(t);
	t->no_umad = true;
	assert_int_equal(t_run(t, "fabric up ibsw-sm.ibnd sm opensm"), 1);
	assert_string_equal(t_err(t),
			    "ibswctl: sm opensm needs ib_umad (no /sys/class/infiniband_mad/abi_version): modprobe ib_umad\n");
	assert_int_equal(t->nreq, 0);
	fflush(t->runsf);
	assert_true(!t->runs || !*t->runs);
	t->no_umad = false;
	t_clear(t);
	assert_int_equal(t_run(t, "fabric up seed002.net routing-engine ftree"), 2);
	assert_string_equal(t_err(t),
			    "ibswctl: fabric up: \"routing-engine\" is an option of sm opensm\n");
	t_clear(t);
	assert_int_equal(t_run(t, "fabric up seed002.net sm opensm routing-engine 'a b'"), 2);
	/* OpenSM's names are case-sensitive: torus-2QoS is one (it was refused) */
	t_clear(t);
	r = "fabric up ibsw-sm.ibnd sm opensm routing-engine torus-2QoS,minhop dry-run";
	assert_int_equal(t_run(t, r), 0);
	assert_non_null(strstr(t_out(t), " -R torus-2QoS,minhop\n"));
	t_clear(t);
	assert_int_equal(t_run(t, "fabric up seed002.net sm ibsim"), 2);
	t_clear(t);
	assert_int_equal(t_run(t, "fabric up seed002.net sm opensm qos maybe"), 2);
	t_clear(t);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(bad, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "fabric up %s dry-run", path);
	assert_int_equal(t_run(t, cmd), 1);
	snprintf(cmd, sizeof(cmd), "%s:2: %s has 2 ports: a management HCA has one\n", path,
		 "management node \"M1\" (devid=0x1b5e)");
	assert_string_equal(t_err(t), cmd);
	/* a configuration that does not flush OpenSM's log */
	t_clear(t);
	assert_int_equal(t_run(t, "fabric up ibsw-sm.ibnd sm opensm sm-conf seed002.net"), 1);
	assert_non_null(strstr(t_err(t), "seed002.net: no \"force_log_flush TRUE\""));
	assert_int_equal(t->nreq, 0);
	free(path);
	t_free(t);
}

/* The lines of text that start with prefix, in order */
static char *grep_lines(const char *text, const char *prefix)
{
	char *out = NULL, *copy = strdup(text), *line, *save = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&out, &size);

	assert_non_null(f);
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (!strncmp(line, prefix, strlen(prefix)))
			fprintf(f, "%s\n", line);
	fclose(f);
	free(copy);
	return out;
}

/* The dry-run plan of "fabric up ARGS dry-run" */
static char *dry_run(struct t *t, const char *args)
{
	char cmd[256];

	t_clear(t);
	snprintf(cmd, sizeof(cmd), "fabric up %s dry-run", args);
	assert_int_equal(t_run(t, cmd), 0);
	assert_string_equal(t_err(t), "");
	return strdup(t_out(t));
}

/*
 * seed002 split over two machines: S1 and H1-H3 on A, S2 and H4-H7 on B.
 * Each builds its switch and hosts only; the S1-S2 cable is a remote link
 * over the carrier with one id at both ends, no link add; the address
 * table is the whole fabric's on both, each switch's LFT the one a single
 * kernel would get; the hosts of the other machine get permanent
 * neighbour entries in each local host, and nothing of their own. Without
 * machine, the file builds the whole fabric as seed002.net does.
 */
static void machines_split(void **state)
{
	static const char *const a_hosts[] = { "H1", "H2", "H3" };
	static const char *const b_hosts[] = { "H4", "H5", "H6", "H7" };
	struct t *t = t_new();
	char *one, *a, *b, *x, *y, line[160];
	size_t i;

	(void)state;
	one = dry_run(t, "seed002.net scale 100");
	a = dry_run(t, "seed002-2m.net scale 100 machine A carrier eth1");
	b = dry_run(t, "seed002-2m.net scale 100 machine B carrier eth1");

	/* the switches, and the cable as a remote link, id 1 at both ends */
	x = grep_lines(a, "ibswctl switch ");
	assert_string_equal(x, "ibswctl switch add S1 ports 36\n");
	free(x);
	x = grep_lines(b, "ibswctl switch ");
	assert_string_equal(x, "ibswctl switch add S2 ports 36\n");
	free(x);
	x = grep_lines(a, "ibswctl remote ");
	assert_string_equal(x, "ibswctl remote add S1/4 dev eth1 id 1 rate 4xQDR\n");
	free(x);
	x = grep_lines(b, "ibswctl remote ");
	assert_string_equal(x, "ibswctl remote add S2/5 dev eth1 id 1 rate 4xQDR\n");
	free(x);
	assert_null(strstr(a, "ibswctl link "));
	assert_null(strstr(b, "ibswctl link "));
	assert_null(strstr(one, "ibswctl remote "));

	/* each machine's hosts only: no namespace, port or rxe for the others' */
	for (i = 0; i < ARRAY_SIZE(a_hosts) + ARRAY_SIZE(b_hosts); i++) {
		bool on_a = i < ARRAY_SIZE(a_hosts);
		const char *h = on_a ? a_hosts[i] : b_hosts[i - ARRAY_SIZE(a_hosts)];

		snprintf(line, sizeof(line), "ip netns add %s\n", h);
		assert_true(!strstr(a, line) == !on_a);
		assert_true(!strstr(b, line) == on_a);
		snprintf(line, sizeof(line), " netns %s ", h);
		assert_true(!strstr(a, line) == !on_a);
		assert_true(!strstr(b, line) == on_a);
		snprintf(line, sizeof(line), "m-%s", h);
		assert_true(!strstr(a, line) == !on_a);
		assert_true(!strstr(b, line) == on_a);
	}
	x = grep_lines(a, "ibswctl host add ");
	assert_non_null(strstr(x, "host add S1/1 name ib0 netns H1 lid 3 "));
	assert_null(strstr(x, "S2/"));
	free(x);
	x = grep_lines(b, "ibswctl host add ");
	assert_non_null(strstr(x, "host add S2/4 name ib0 netns H7 lid 9 "));
	assert_null(strstr(x, "S1/"));
	free(x);

	/* the address table: all seven hosts, on both, as in one kernel */
	x = grep_lines(one, "ibswctl addr set ");
	assert_string_equal(x,
			    "ibswctl addr set 10.0.0.3=3 fd00:1b::3=3 10.0.0.4=4 fd00:1b::4=4 10.0.0.5=5 fd00:1b::5=5 10.0.0.6=6 fd00:1b::6=6 10.0.0.7=7 fd00:1b::7=7 10.0.0.8=8 fd00:1b::8=8 10.0.0.9=9 fd00:1b::9=9\n");
	y = grep_lines(a, "ibswctl addr set ");
	assert_string_equal(y, x);
	free(y);
	y = grep_lines(b, "ibswctl addr set ");
	assert_string_equal(y, x);
	free(y);
	free(x);

	/* each switch's whole LFT, packets for the other machine by the cut port */
	x = grep_lines(a, "ibswctl lft ");
	assert_string_equal(x, "ibswctl lft set S1 2:4,3:1,4:2,5:3,6:4,7:4,8:4,9:4\n");
	assert_non_null(strstr(one, x));
	free(x);
	x = grep_lines(b, "ibswctl lft ");
	assert_string_equal(x, "ibswctl lft set S2 1:5,3:5,4:5,5:5,6:1,7:2,8:3,9:4\n");
	assert_non_null(strstr(one, x));
	free(x);

	/* the other machine's hosts, by their LID-derived MACs, in each local host */
	x = grep_lines(a, "ip -n H2 neigh ");
	assert_string_equal(x,
			    "ip -n H2 neigh replace 10.0.0.6 lladdr 02:1b:00:00:00:06 dev ib0 nud permanent\n"
			    "ip -n H2 neigh replace fd00:1b::6 lladdr 02:1b:00:00:00:06 dev ib0 nud permanent\n"
			    "ip -n H2 neigh replace 10.0.0.7 lladdr 02:1b:00:00:00:07 dev ib0 nud permanent\n"
			    "ip -n H2 neigh replace fd00:1b::7 lladdr 02:1b:00:00:00:07 dev ib0 nud permanent\n"
			    "ip -n H2 neigh replace 10.0.0.8 lladdr 02:1b:00:00:00:08 dev ib0 nud permanent\n"
			    "ip -n H2 neigh replace fd00:1b::8 lladdr 02:1b:00:00:00:08 dev ib0 nud permanent\n"
			    "ip -n H2 neigh replace 10.0.0.9 lladdr 02:1b:00:00:00:09 dev ib0 nud permanent\n"
			    "ip -n H2 neigh replace fd00:1b::9 lladdr 02:1b:00:00:00:09 dev ib0 nud permanent\n");
	free(x);
	x = grep_lines(b, "ip -n H7 neigh replace 10.");
	assert_string_equal(x,
			    "ip -n H7 neigh replace 10.0.0.3 lladdr 02:1b:00:00:00:03 dev ib0 nud permanent\n"
			    "ip -n H7 neigh replace 10.0.0.4 lladdr 02:1b:00:00:00:04 dev ib0 nud permanent\n"
			    "ip -n H7 neigh replace 10.0.0.5 lladdr 02:1b:00:00:00:05 dev ib0 nud permanent\n");
	free(x);
	assert_null(strstr(one, " neigh "));

	free(a);
	free(b);

	/* without machine: the whole fabric in one kernel, as seed002.net */
	a = dry_run(t, "seed002-2m.net scale 100");
	assert_string_equal(a, one);
	free(a);
	free(one);
	t_free(t);
}

/*
 * The usage: machine without carrier when a cable leaves the machine
 * (its line), sm with machine, carrier without machine, a machine the
 * file does not have, machines in a file that names none, bad names;
 * mgmt-carrier without machine, with no-mgmt, or the carrier itself.
 * Nothing is done.
 */
static void machine_errors(void **state)
{
	static const struct {
		const char *args;
		int rc;
		const char *err;
	} bad[] = {
		{
			"seed002-2m.net machine A", 2,
			"seed002-2m.net:40: S1/4 - S2/5 goes to machine B: fabric up machine A needs carrier IFNAME, the Ethernet netdev of its remote links\n",
		},
		{
			"seed002-2m.net machine B no-mgmt", 2,
			"seed002-2m.net:40: S2/5 - S1/4 goes to machine A: fabric up machine B needs carrier IFNAME, the Ethernet netdev of its remote links\n",
		},
		{
			"ibsw-sm.ibnd sm opensm machine A carrier eth1", 2,
			"ibswctl: fabric up: sm opensm cannot run with machine A: SMPs do not cross remote links, so an SM would manage one machine's part of the fabric only\n",
		},
		{
			"seed002-2m.net sm opensm machine A carrier eth1", 2,
			"ibswctl: fabric up: sm opensm cannot run with machine A: SMPs do not cross remote links, so an SM would manage one machine's part of the fabric only\n",
		},
		{
			"seed002-2m.net carrier eth1", 2,
			"ibswctl: fabric up: \"carrier\" is an option of machine\n",
		},
		{
			"seed002-2m.net machine C carrier eth1", 1,
			"seed002-2m.net: no node is on machine C (the file's machines: A B)\n",
		},
		{
			"seed002.net machine A carrier eth1", 1,
			"seed002.net: names no machine: machine A needs a machine= line before each switch's record\n",
		},
		{
			"seed002-2m.net machine a/b", 2,
			"ibswctl: bad machine \"a/b\": 1 to 64 letters, digits, '_', '.' and '-', the first a letter or digit\n",
		},
		{
			"seed002-2m.net machine A carrier eth1:0", 2,
			"ibswctl: bad interface name \"eth1:0\": 1 to 15 characters, no '/', ':' or blanks\n",
		},
		{
			"seed002-2m.net machine", 2,
			"ibswctl: fabric up: \"machine\" needs a value\n",
		},
		{
			"seed002-2m.net mgmt-carrier eth2", 2,
			"ibswctl: fabric up: \"mgmt-carrier\" is an option of machine: it joins the management networks of a fabric's machines\n",
		},
		{
			"seed002-2m.net carrier eth1 mgmt-carrier eth2 dry-run", 2,
			"ibswctl: fabric up: \"carrier\" is an option of machine\n",
		},
		{
			"seed002.net mgmt-carrier eth2 dry-run", 2,
			"ibswctl: fabric up: \"mgmt-carrier\" is an option of machine: it joins the management networks of a fabric's machines\n",
		},
		{
			"seed002-2m.net machine A carrier eth1 mgmt-carrier eth2 no-mgmt", 2,
			"ibswctl: fabric up: \"mgmt-carrier\" joins the management network, and no-mgmt builds none\n",
		},
		{
			"seed002-2m.net machine A carrier eth1 mgmt-carrier eth1", 2,
			"ibswctl: fabric up: mgmt-carrier eth1 is the carrier of the remote links: a bridge port's frames go to the bridge, not to ibsw; give the management network a netdev of its own\n",
		},
		{
			"seed002-2m.net machine A carrier eth1 mgmt-carrier eth2/x", 2,
			"ibswctl: bad interface name \"eth2/x\": 1 to 15 characters, no '/', ':' or blanks\n",
		},
		{
			"seed002-2m.net machine A carrier eth1 mgmt-carrier", 2,
			"ibswctl: fabric up: \"mgmt-carrier\" needs a value\n",
		},
	};
	struct t *t = t_new();
	char cmd[256], *path;
	size_t i;
	FILE *f;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		t_clear(t);
		snprintf(cmd, sizeof(cmd), "fabric up %s", bad[i].args);
		assert_int_equal(t_run(t, cmd), bad[i].rc);
		assert_string_equal(t_err(t), bad[i].err);
		assert_string_equal(t_out(t), "");
		assert_int_equal(t->nreq, 0);
		assert_int_equal(t->nruns, 0);
	}
	/* a machine whose cables stay on it needs no carrier: link add as in one kernel */
	t_clear(t);
	path = tmp_path("one-machine.topo");
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("machine=A\nSwitch 4 \"S1\"\n[1] \"S2\"[1]\n[2] \"H1\"[1]\n\n"
	      "machine=A\nSwitch 4 \"S2\"\n[1] \"S1\"[1]\n\nHca 1 \"H1\"\n[1] \"S1\"[2]\n", f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "fabric up %s machine A no-mgmt no-rxe dry-run", path);
	assert_int_equal(t_run(t, cmd), 0);
	assert_string_equal(t_err(t), "");
	assert_non_null(strstr(t_out(t), "ibswctl link add S1/1 S2/1 rate 4xQDR\n"));
	assert_null(strstr(t_out(t), " neigh "));
	unlink(path);
	free(path);
	t_free(t);
}

/*
 * fabric up machine A against the fake kernel: its requests (remote add
 * with the carrier, id and rate), the description (the machine, the cut
 * port as remote, remote_links, remote_hosts), and fabric down, which
 * removes what machine A made: its switch (whose deletion detaches the
 * remote port), its hosts' namespaces, the address table.
 */
static void machine_up_and_down(void **state)
{
	char *desc = tmp_path("machine/fabric.json"), *text, *cmds, *plan, *got, *want;
	const struct nlmsghdr *r = NULL;
	struct t *t = t_new();
	unsigned int i, batches;
	char cmd[512];

	(void)state;
	plan = dry_run(t, "seed002-2m.net scale 100 machine A carrier eth1");
	t_clear(t);
	t->respond = kernel;
	snprintf(cmd, sizeof(cmd),
		 "fabric up seed002-2m.net scale 100 machine A carrier eth1 desc %s", desc);
	assert_int_equal(t_run(t, cmd), 0);
	assert_string_equal(t_err(t), "");
	cmds = req_cmds(t);
	assert_string_equal(cmds, "fabric-set\nswitch-new\nremote-new\n"
			    "host-new\nhost-new\nhost-new\naddr-set\nlft-set\n");
	free(cmds);
	for (i = 0; i < t->nreq; i++)
		if (t_cmd(t->req[i]) == IBSW_CMD_REMOTE_NEW)
			r = t->req[i];
	assert_non_null(r);
	assert_string_equal(mnl_attr_get_str(t_attr(r, IBSW_A_PORT_SWITCH_NAME)), "S1");
	assert_int_equal(mnl_attr_get_u32(t_attr(r, IBSW_A_PORT_PORT)), 4);
	assert_string_equal(mnl_attr_get_str(t_attr(r, IBSW_A_PORT_IFNAME)), "eth1");
	assert_int_equal(mnl_attr_get_u32(t_attr(r, IBSW_A_PORT_REMOTE_ID)), 1);
	assert_int_equal(mnl_attr_get_u32(t_attr(r, IBSW_A_PORT_WIDTH)), IBSW_LINK_WIDTH_4X);
	assert_int_equal(mnl_attr_get_u32(t_attr(r, IBSW_A_PORT_SPEED)), IBSW_LINK_SPEED_QDR);
	assert_null(t_attr(r, IBSW_A_PORT_MAC));
	/* every host's two addresses, the other machine's too */
	assert_int_equal(t_count(t->req[6], IBSW_A_FABRIC_ADDR), 14);
	/* the neighbour entries in the host's one ip batch; nothing of B's hosts runs */
	fflush(t->runsf);
	text = drop_lines(t->runs, "write ");
	got = unbatch(text, &batches);
	free(text);
	want = plan_lines(plan, false);
	assert_string_equal(got, want);
	assert_int_equal(batches, 3 * 2);
	assert_non_null(strstr(t->runs, "\tlink set ib0 up\n\tneigh replace 10.0.0.6 lladdr "));
	assert_null(strstr(t->runs, "H4"));
	free(got);
	free(want);
	free(plan);

	text = t_read_file(desc);
	assert_non_null(text);
	assert_true(t_json_valid(text));
	check_jq(text, "[.machine, .carrier, (.switches | map(.name)), (.links | length)]",
		 "[\"A\",\"eth1\",[\"S1\"],0]\n");
	check_jq(text, ".switches[0].ports[3]",
		 "{\"port\":4,\"kind\":\"remote\",\"peer\":\"S2\",\"peer_port\":5,\"peer_machine\":\"B\",\"remote_id\":1,\"dev\":\"eth1\",\"rate\":\"4xQDR\",\"rate_bps\":32000000000}\n");
	check_jq(text, ".remote_links",
		 "[{\"switch\":\"S1\",\"port\":4,\"peer\":\"S2\",\"peer_port\":5,\"peer_machine\":\"B\",\"id\":1,\"dev\":\"eth1\",\"rate\":\"4xQDR\",\"rate_bps\":32000000000}]\n");
	check_jq(text, "[.hosts[] | .name] | join(\" \")", "\"H1 H2 H3\"\n");
	check_jq(text, "[.remote_hosts[] | [.name, .machine, .lid, .mac, .ipv4, .switch] |\n"
		 "join(\" \")]",
		 "[\"H4 B 6 02:1b:00:00:00:06 10.0.0.6 S2\",\"H5 B 7 02:1b:00:00:00:07 10.0.0.7 S2\",\"H6 B 8 02:1b:00:00:00:08 10.0.0.8 S2\",\"H7 B 9 02:1b:00:00:00:09 10.0.0.9 S2\"]\n");
	check_jq(text, ".remote_hosts[0] | keys_unsorted | join(\" \")",
		 "\"name ident hca_port machine mac lid ipv4 ipv6 switch switch_port\"\n");
	free(text);

	/* down: what machine A made, and nothing of B's */
	clear_all(t);
	t->paths[t->npaths++] = "/sys/class/infiniband/rxe_H1";
	t->paths[t->npaths++] = "/run/netns/H1";
	t->paths[t->npaths++] = "/run/netns/H2";
	t->paths[t->npaths++] = "/run/netns/H3";
	t->paths[t->npaths++] = "/run/netns/H4";
	snprintf(cmd, sizeof(cmd), "fabric down desc %s", desc);
	assert_int_equal(t_run(t, cmd), 0);
	fflush(t->runsf);
	assert_string_equal(t->runs, "rdma link delete rxe_H1\n"
			    "ip netns del H1\nip netns del H2\nip netns del H3\n");
	cmds = req_cmds(t);
	assert_string_equal(cmds, "switch-get\nswitch-del\nfabric-get\naddr-set\n");
	free(cmds);
	assert_string_equal(mnl_attr_get_str(t_attr(t->req[1], IBSW_A_SWITCH_NAME)), "S1");
	assert_false(t->ctl.ops->exists(&t->ctl, desc));

	/* a fabric without machines has none in its description */
	clear_all(t);
	t->npaths = 0;
	snprintf(cmd, sizeof(cmd), "fabric up seed002-2m.net no-mgmt desc %s", desc);
	assert_int_equal(t_run(t, cmd), 0);
	text = t_read_file(desc);
	check_jq(text, "[.machine, .carrier, .remote_links, .remote_hosts, (.links | length),\n"
		 "([.switches[].ports[].kind] | unique)]",
		 "[null,null,[],[],1,[\"host\",\"link\"]]\n");
	free(text);
	unlink(desc);
	free(desc);
	t_free(t);
}

/*
 * fabric up machine B mgmt-carrier eth2 against the fake kernel: eth2 goes
 * into the bridge once it is up, the bridge has B's address (the file's
 * second machine); the description has both. fabric down takes eth2 out
 * of the bridge (if it is still in it) before deleting the bridge; a
 * fabric up that fails takes it out again before the bridge goes.
 */
static void mgmt_carrier_up_and_down(void **state)
{
	static const char head[] = "ip link add ibsw-mgmt type bridge\n"
				   "ip addr add 10.1.255.253/16 dev ibsw-mgmt\n"
				   "ip link set ibsw-mgmt up\n"
				   "ip link set eth2 master ibsw-mgmt up\n"
				   "ip netns add H4\n";
	char *desc = tmp_path("mgmt-carrier/fabric.json"), *text, *plan, *got, *want;
	struct t *t = t_new();
	unsigned int batches;
	char cmd[512];

	(void)state;
	plan = dry_run(t, "seed002-2m.net scale 100 machine B carrier eth1 mgmt-carrier eth2");
	t_clear(t);
	t->respond = kernel;
	snprintf(cmd, sizeof(cmd),
		 "fabric up seed002-2m.net scale 100 machine B carrier eth1 mgmt-carrier eth2 desc %s",
		 desc);
	assert_int_equal(t_run(t, cmd), 0);
	assert_string_equal(t_err(t), "");
	fflush(t->runsf);
	assert_true(!strncmp(t->runs, head, strlen(head)));
	text = drop_lines(t->runs, "write ");
	got = unbatch(text, &batches);
	free(text);
	want = plan_lines(plan, false);
	assert_string_equal(got, want);
	free(got);
	free(want);
	free(plan);

	text = t_read_file(desc);
	assert_non_null(text);
	assert_true(t_json_valid(text));
	check_jq(text, ".mgmt",
		 "{\"bridge\":\"ibsw-mgmt\",\"ipv4\":\"10.1.255.253\",\"ifname\":\"eth0\",\"carrier\":\"eth2\"}\n");
	check_jq(text, "[.machine, .carrier, (.hosts | map(.mgmt_ipv4) | join(\" \"))]",
		 "[\"B\",\"eth1\",\"10.1.0.6 10.1.0.7 10.1.0.8 10.1.0.9\"]\n");
	free(text);

	/* down: eth2 out of the bridge, then the bridge */
	clear_all(t);
	t->paths[t->npaths++] = "/sys/class/net/ibsw-mgmt/brif/eth2";
	t->paths[t->npaths++] = "/sys/class/net/ibsw-mgmt";
	t->paths[t->npaths++] = "/sys/class/net/m-H4";
	t->paths[t->npaths++] = "/run/netns/H4";
	snprintf(cmd, sizeof(cmd), "fabric down desc %s", desc);
	assert_int_equal(t_run(t, cmd), 0);
	fflush(t->runsf);
	assert_string_equal(t->runs, "ip link del m-H4\nip netns del H4\n"
			    "ip link set eth2 nomaster\nip link del ibsw-mgmt\n");
	assert_null(strstr(t_err(t), "eth2"));
	assert_false(t->ctl.ops->exists(&t->ctl, desc));

	/* eth2 no longer in the bridge (taken out, or the bridge gone): said, skipped */
	clear_all(t);
	t->npaths = 0;
	write_text(desc, "{\"version\": 1, \"switches\": [], \"hosts\": [],\n"
		   "\"mgmt\": {\"bridge\": \"ibsw-mgmt\", \"ipv4\": \"10.1.255.253\",\n"
		   "\"ifname\": \"eth0\", \"carrier\": \"eth2\"}}");
	t->paths[t->npaths++] = "/sys/class/net/ibsw-mgmt";
	assert_int_equal(t_run(t, cmd), 0);
	fflush(t->runsf);
	assert_string_equal(t->runs, "ip link del ibsw-mgmt\n");
	{
		static const char out[] =
			"ibswctl: fabric down: management carrier eth2 already out of the bridge\n";

		assert_non_null(strstr(t_err(t), out));
	}
	/* a description of before mgmt-carrier, or without one: the bridge alone */
	clear_all(t);
	write_text(desc, "{\"version\": 1, \"switches\": [], \"hosts\": [],\n"
		   "\"mgmt\": {\"bridge\": \"ibsw-mgmt\", \"ipv4\": \"10.1.255.254\",\n"
		   "\"ifname\": \"eth0\"}}");
	assert_int_equal(t_run(t, cmd), 0);
	fflush(t->runsf);
	assert_string_equal(t->runs, "ip link del ibsw-mgmt\n");
	assert_string_equal(t_err(t), "");

	/* a failed fabric up: eth2 out, then the bridge, newest first */
	clear_all(t);
	t->npaths = 0;
	t->respond = kernel;
	/* runs: bridge add, addr, up, eth2 in; H4: netns, veth, master, ip's batch (fails) */
	t->nruns = 0;
	t->run_fail = 8;
	snprintf(cmd, sizeof(cmd),
		 "fabric up seed002-2m.net machine B carrier eth1 mgmt-carrier eth2 desc %s", desc);
	unlink(desc);
	assert_int_equal(t_run(t, cmd), 1);
	fflush(t->runsf);
	assert_non_null(strstr(t->runs, "ip link set m-H4 master ibsw-mgmt up\n"
			       "ip -n H4 -batch - <<\n"));
	text = strstr(t->runs, "\tneigh replace fd00:1b::5 ");
	assert_non_null(text);
	assert_string_equal(strchr(text, '\n'), "\nip netns del H4\n"
			    "ip link set eth2 nomaster\n"
			    "ip link del ibsw-mgmt\n");
	assert_false(t->ctl.ops->exists(&t->ctl, desc));
	free(desc);
	t_free(t);
}

/* A chain of n switches, each on a machine of its own (M0...), a host on each */
static char *machines_topo(unsigned int n)
{
	char name[64], *path;
	unsigned int i;
	FILE *f;

	snprintf(name, sizeof(name), "machines-%u.topo", n);
	path = tmp_path(name);
	f = fopen(path, "w");
	assert_non_null(f);
	for (i = 0; i < n; i++) {
		fprintf(f, "machine=M%u\nSwitch 3 \"S%u\"\n[1] \"H%u\"[1]\n", i, i, i);
		if (i)
			fprintf(f, "[2] \"S%u\"[3]\n", i - 1);
		if (i + 1 < n)
			fprintf(f, "[3] \"S%u\"[2]\n", i + 1);
		fputc('\n', f);
	}
	for (i = 0; i < n; i++)
		fprintf(f, "Hca 1 \"H%u\"\n[1] \"S%u\"[1]\n\n", i, i);
	fclose(f);
	return path;
}

/*
 * The bridges' addresses: the machines in the order the file first names
 * them get 10.1.255.254, .253, ... down to .1 with mgmt-carrier, and
 * every one .254 without; 255 machines do not fit, and are refused on every
 * machine. Through the API too.
 */
static void mgmt_carrier_addresses(void **state)
{
	static const struct {
		unsigned int machine;
		const char *addr;
	} want[] = { { 0, "10.1.255.254" }, { 1, "10.1.255.253" }, { 9, "10.1.255.245" },
		     { 253, "10.1.255.1" } };
	char *path = machines_topo(PLAN_MGMT_MACHINES_MAX), *big, *x, cmd[512], line[128];
	struct plan_opts opts = { .rxe = true, .mgmt = true };
	struct t *t = t_new();
	struct topo_diag diag;
	struct routes *r;
	struct topo *topo;
	struct plan *plan;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		snprintf(cmd, sizeof(cmd), "%s machine M%u carrier c0 mgmt-carrier m0 no-rxe", path,
			 want[i].machine);
		x = dry_run(t, cmd);
		snprintf(line, sizeof(line), "ip addr add %s/16 dev ibsw-mgmt\n"
			 "ip link set ibsw-mgmt up\nip link set m0 master ibsw-mgmt up\n",
			 want[i].addr);
		assert_non_null(strstr(x, line));
		free(x);
		/* without mgmt-carrier, .254 on every machine, as before */
		snprintf(cmd, sizeof(cmd), "%s machine M%u carrier c0 no-rxe", path,
			 want[i].machine);
		x = dry_run(t, cmd);
		assert_non_null(strstr(x, "ip addr add " PLAN_MGMT_ADDR "/16 dev ibsw-mgmt\n"
				       "ip link set ibsw-mgmt up\nip netns add "));
		assert_null(strstr(x, "ip link set m0 "));
		free(x);
	}

	big = machines_topo(PLAN_MGMT_MACHINES_MAX + 1);
	t_clear(t);
	snprintf(cmd, sizeof(cmd), "fabric up %s machine M0 carrier c0 mgmt-carrier m0", big);
	assert_int_equal(t_run(t, cmd), 2);
	snprintf(cmd, sizeof(cmd),
		 "%s: names 255 machines: mgmt-carrier gives each machine's management bridge an address of its own, 10.1.255.254 down to 10.1.255.1, for 254 machines at most\n",
		 big);
	assert_string_equal(t_err(t), cmd);
	assert_int_equal(t->nreq, 0);
	assert_int_equal(t->nruns, 0);
	/* without mgmt-carrier, as many machines as the file has */
	snprintf(cmd, sizeof(cmd), "%s machine M254 carrier c0 no-rxe", big);
	free(dry_run(t, cmd));

	/* the API: the address in the plan, the refusals */
	topo_diag_init(&diag);
	assert_int_equal(topo_parse_file("seed002-2m.net", &topo, &diag), 0);
	assert_int_equal(route_compute(topo, 0, &r, &diag), 0);
	opts.topo_path = "seed002-2m.net";
	opts.machine = "B";
	opts.carrier = "eth1";
	assert_int_equal(plan_build(topo, r, &opts, &plan), 0);
	assert_string_equal(plan->mgmt_addr, PLAN_MGMT_ADDR);
	plan_free(plan);
	opts.mgmt_carrier = "eth2";
	assert_int_equal(plan_build(topo, r, &opts, &plan), 0);
	assert_string_equal(plan->mgmt_addr, "10.1.255.253");
	plan_free(plan);
	opts.machine = "A";
	assert_int_equal(plan_build(topo, r, &opts, &plan), 0);
	assert_string_equal(plan->mgmt_addr, PLAN_MGMT_ADDR);
	plan_free(plan);
	opts.mgmt_carrier = "eth1";
	assert_int_equal(plan_build(topo, r, &opts, &plan), -EINVAL);
	assert_null(plan);
	opts.mgmt_carrier = "eth2";
	opts.mgmt = false;
	assert_int_equal(plan_build(topo, r, &opts, &plan), -EINVAL);
	opts.mgmt = true;
	opts.machine = NULL;
	opts.carrier = NULL;
	assert_int_equal(plan_build(topo, r, &opts, &plan), -EINVAL);
	assert_null(plan);
	routes_free(r);
	topo_free(topo);
	topo_diag_free(&diag);

	assert_int_equal(topo_parse_file(big, &topo, &diag), 0);
	assert_int_equal(route_compute(topo, 0, &r, &diag), 0);
	opts.topo_path = big;
	opts.machine = "M0";
	opts.carrier = "c0";
	assert_int_equal(plan_build(topo, r, &opts, &plan), -E2BIG);
	assert_null(plan);
	routes_free(r);
	topo_free(topo);
	topo_diag_free(&diag);

	unlink(big);
	unlink(path);
	free(big);
	free(path);
	t_free(t);
}

static void plan_api(void **state)
{
	struct plan_opts opts = { .topo_path = "extras.ibnd", .rxe = true };
	struct topo_diag diag;
	struct routes *r;
	struct topo *topo;
	struct plan *plan;
	uint32_t w, s;

	(void)state;
	topo_diag_init(&diag);
	assert_int_equal(topo_parse_file("extras.ibnd", &topo, &diag), 0);
	assert_int_equal(route_compute(topo, 0, &r, &diag), 0);
	assert_int_equal(plan_build(topo, r, &opts, &plan), 0);
	assert_int_equal(plan->nsw, 2);
	assert_int_equal(plan->nlinks, 2);
	assert_int_equal(plan->nhosts, 3);
	assert_string_equal(plan->host[1].ifname, "ib1");
	assert_string_equal(plan->host[1].rdma, "rxe_host-a_1");
	assert_string_equal(plan->host[1].netns, "host-a");
	assert_int_equal(plan->host[1].hca_port, 2);
	assert_int_equal(plan->opts.mtu, PLAN_DEFAULT_MTU);
	assert_int_equal(plan->step[0].undo, UNDO_SWITCH);
	assert_string_equal(plan->step[0].undo_arg, "spine");
	plan_link_rate(topo->link[0], &w, &s);
	assert_int_equal(w, IBSW_LINK_WIDTH_12X);
	assert_int_equal(s, IBSW_LINK_SPEED_FDR);
	plan_free(plan);
	opts.prefix = "bad prefix";
	assert_int_equal(plan_build(topo, r, &opts, &plan), -EINVAL);
	assert_null(plan);
	routes_free(r);
	topo_free(topo);
	topo_diag_free(&diag);
}

/* The plan of one machine through the API: its parts, and its refusals */
static void plan_api_machine(void **state)
{
	struct plan_opts opts = { .topo_path = "seed002-2m.net", .rxe = true, .machine = "B" };
	struct topo_diag diag;
	struct routes *r;
	struct topo *topo;
	struct plan *plan;
	unsigned int i;

	(void)state;
	topo_diag_init(&diag);
	assert_int_equal(topo_parse_file("seed002-2m.net", &topo, &diag), 0);
	assert_int_equal(route_compute(topo, 0, &r, &diag), 0);
	/* the S1-S2 cable is the file's first switch-to-switch one; host cables are none */
	assert_int_equal(plan_remote_id(topo, topo->link[3]), 1);
	assert_int_equal(plan_remote_id(topo, topo->link[0]), 0);
	assert_int_equal(plan_build(topo, r, &opts, &plan), -EDESTADDRREQ);
	assert_null(plan);
	opts.carrier = "vx0";
	assert_int_equal(plan_build(topo, r, &opts, &plan), 0);
	assert_int_equal(plan->nsw, 1);
	assert_ptr_equal(plan->sw[0].node, topo_find(topo, "S2"));
	assert_int_equal(plan->nlinks, 0);
	assert_int_equal(plan->nremotes, 1);
	assert_ptr_equal(plan->remote[0].link, topo->link[3]);
	assert_int_equal(plan->remote[0].end, 1);
	assert_int_equal(plan->remote[0].id, 1);
	assert_int_equal(plan->nhosts, 4);
	assert_int_equal(plan->npeers, 3);
	for (i = 0; i < plan->npeers; i++) {
		assert_int_equal(plan->peer[i].lid, 3 + i);
		assert_string_equal(plan->peer[i].netns, "");
		assert_string_equal(plan->peer[i].rdma, "");
		assert_false(plan_is_local(plan, plan->peer[i].hca));
	}
	assert_string_equal(plan->peer[2].mac, "02:1b:00:00:00:05");
	assert_string_equal(plan->peer[2].ipv6, "fd00:1b::5");
	assert_string_equal(plan->host[0].netns, "H4");
	assert_true(plan_is_local(plan, plan->host[0].hca));
	plan_free(plan);
	opts.sm = true;
	assert_int_equal(plan_build(topo, r, &opts, &plan), -EOPNOTSUPP);
	opts.sm = false;
	opts.machine = "b";
	assert_int_equal(plan_build(topo, r, &opts, &plan), -ENOENT);
	assert_null(plan);
	routes_free(r);
	topo_free(topo);
	topo_diag_free(&diag);
}

static int setup_tmp(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/ibswctl-plan-XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown_tmp(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) ? -1 : 0;
}

int main(int argc, char **argv)
{
	static const struct cm_test tests[] = {
		cmocka_unit_test(golden_plans),
		cmocka_unit_test(formats_agree),
		cmocka_unit_test(parse_errors),
		cmocka_unit_test(routing_errors),
		cmocka_unit_test(option_errors),
		cmocka_unit_test(up_and_down),
		cmocka_unit_test(hca_rates),
		cmocka_unit_test(scale_from_kernel),
		cmocka_unit_test(undo_after_exec_failure),
		cmocka_unit_test(undo_mgmt),
		cmocka_unit_test(undo_after_request_failure),
		cmocka_unit_test(down_module_unloaded),
		cmocka_unit_test(down_errors),
		cmocka_unit_test(batches),
		cmocka_unit_test(sm_up_and_down),
		cmocka_unit_test(sm_fails),
		cmocka_unit_test(sm_errors),
		cmocka_unit_test(sm_exclusive),
		cmocka_unit_test(plan_api),
		cmocka_unit_test(machines_split),
		cmocka_unit_test(machine_errors),
		cmocka_unit_test(machine_up_and_down),
		cmocka_unit_test(plan_api_machine),
		cmocka_unit_test(mgmt_carrier_up_and_down),
		cmocka_unit_test(mgmt_carrier_addresses),
	};
	const char *dir = argc > 1 ? argv[1] : LIB_FIXTURES;

	if (chdir(dir)) {
		perror(dir);
		return 2;
	}
	cmocka_set_message_output(CM_OUTPUT_TAP);
	return _cmocka_run_group_tests("plan", tests, ARRAY_SIZE(tests), setup_tmp,
				       teardown_tmp) ? 1 : 0;
}
