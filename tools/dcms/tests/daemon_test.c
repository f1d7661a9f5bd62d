// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the daemon's loop (daemon.c) over a fake backend: a CRR
 * event found in one sweep (--once), the Marking_Rate set with the port's
 * threshold and restored on exit, a failed write retried and never
 * "restored", the neighbour map from the topology file, the CSV.
 */
#define _GNU_SOURCE
#include "helpers.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "conf.h"
#include "dcms.h"

#define TOPOLOGY FIXTURES "/../../../../topologies/seed000-dcms.net"

struct fake {
	int reads;			/* read_ports calls for S2 */
	bool peers;			/* give N(s, p) */
	int fail_sets;			/* cc_set_port calls to refuse */
	char calls[2048];
	struct be_switch_cc cc[2];	/* S1, S2 */
};

static struct fake *fk(struct backend *b)
{
	return b->priv;
}

static int f_scale(struct backend *b, uint32_t *scale)
{
	(void)b;
	*scale = 1;
	return 0;
}

static int f_switches(struct backend *b, struct be_name **names, size_t *n)
{
	(void)b;
	*names = calloc(2, sizeof(**names));
	assert_non_null(*names);
	snprintf((*names)[0].s, BE_NAME_LEN, "S1");
	snprintf((*names)[1].s, BE_NAME_LEN, "S2");
	*n = 2;
	return 0;
}

/* seed 000's testbed; after the baseline, (S2, 23) congested, (S1, 15) waits */
static int f_read(struct backend *b, const char *sw, struct dcms_port_sample **ports,
		  size_t *n)
{
	struct fake *f = fk(b);
	struct dcms_port_sample *p = calloc(2, sizeof(*p));
	bool s1 = !strcmp(sw, "S1");
	int k = f->reads;

	assert_non_null(p);
	if (!s1)
		f->reads++;
	p[0].port = s1 ? 15 : 20;
	p[0].peer = f->peers ? DCMS_PEER_SWITCH : DCMS_PEER_NONE;
	if (f->peers) {
		snprintf(p[0].peer_switch, sizeof(p[0].peer_switch), s1 ? "S2" : "S1");
		p[0].peer_port = s1 ? 20 : 15;
	}
	p[1].port = s1 ? 11 : 23;
	p[1].peer = f->peers ? DCMS_PEER_CA : DCMS_PEER_NONE;
	if (s1) {
		p[0].w = 1000 + (uint64_t)k * 30000000;
		p[0].d = (uint64_t)k * 180000000;
	} else {
		p[1].d = (uint64_t)k * 250000000;
		p[1].c = (uint64_t)k * 10000000;
	}
	*ports = p;
	*n = 2;
	return 0;
}

static int f_cc_get(struct backend *b, const char *sw, struct be_switch_cc *cc)
{
	*cc = fk(b)->cc[strcmp(sw, "S1") ? 1 : 0];
	return 0;
}

static int f_set_port(struct backend *b, const char *sw, unsigned int port,
		      const struct be_port_cc *pc)
{
	struct fake *f = fk(b);
	size_t len = strlen(f->calls);

	if (f->fail_sets) {
		f->fail_sets--;
		snprintf(b->msg, sizeof(b->msg), "no switch named %s", sw);
		return -ENOENT;
	}
	snprintf(f->calls + len, sizeof(f->calls) - len, "%s/%u valid %d threshold %u mr %u\n",
		 sw, port, pc->valid, pc->threshold, pc->marking_rate);
	f->cc[strcmp(sw, "S1") ? 1 : 0].port[port] = *pc;
	return 0;
}

static const struct backend_ops fake_ops = {
	.name = "fake",
	.time_scale = f_scale,
	.switches = f_switches,
	.read_ports = f_read,
	.cc_get = f_cc_get,
	.cc_set_port = f_set_port,
};

static void setup(struct fake *f, struct backend *be, struct conf *c, char *dir)
{
	char path[4200];

	memset(f, 0, sizeof(*f));
	f->peers = true;
	f->cc[1].threshold = 15;
	f->cc[1].marking_rate = 128;
	f->cc[1].nports = 36;
	f->cc[0].nports = 36;
	f->cc[0].marking_rate = 128;
	/* a port setting that is there but not valid: restored as it was */
	f->cc[1].port[23].threshold = 3;
	f->cc[1].port[23].marking_rate = 9;
	memset(be, 0, sizeof(*be));
	be->ops = &fake_ops;
	be->priv = f;
	conf_init(c);
	c->tau_ns = 1000;
	c->par.t_w = 27400000;
	c->par.t_c = 8000000;
	snprintf(path, sizeof(path), "%s/dcms.log", dir);
	c->log = strdup(path);
	snprintf(path, sizeof(path), "%s/dcms.csv", dir);
	c->csv = strdup(path);
	c->ncsv_ports = 2;
	snprintf(c->csv_ports[0].sw, sizeof(c->csv_ports[0].sw), "S1");
	c->csv_ports[0].port = 15;
	snprintf(c->csv_ports[1].sw, sizeof(c->csv_ports[1].sw), "S2");
	c->csv_ports[1].port = 23;
}

/* the log's events, one per line, without the details */
static char *events(const char *dir)
{
	char *log = read_text(dir, "dcms.log"), *out, *p, *line;
	size_t len = 0;

	assert_non_null(log);
	out = calloc(1, strlen(log) + 1);
	assert_non_null(out);
	for (line = strtok_r(log, "\n", &p); line; line = strtok_r(NULL, "\n", &p)) {
		char *e = strstr(line, "\"event\":\"");

		assert_non_null(e);
		e += 9;
		len += sprintf(out + len, "%.*s ", (int)strcspn(e, "\""), e);
	}
	free(log);
	return out;
}

#define CSV_HEADER "t,elapsed,S1/15:dW,S1/15:dD,S1/15:dC,S1/15:mr,S2/23:dW,S2/23:dD,S2/23:dC,S2/23:mr\n"

static void once_sets_and_restores(void **state)
{
	struct daemon_opts opts = { .once = true };
	char *dir = tmpdir_new(), *ev, *csv;
	struct backend be;
	struct fake f;
	struct conf c;

	(void)state;
	setup(&f, &be, &c, dir);
	assert_int_equal(daemon_run(&c, &opts, &be, stderr), 0);
	/* Low with the switch's threshold (the port's was not valid), then back */
	assert_string_equal(f.calls, "S2/23 valid 1 threshold 15 mr 0\n"
			    "S2/23 valid 0 threshold 3 mr 9\n");
	ev = events(dir);
	assert_string_equal(ev, "start victim_add set_low restore stop ");
	free(ev);
	csv = read_text(dir, "dcms.csv");
	assert_non_null(strstr(csv, CSV_HEADER));
	/* the second row: the deltas, and Marking_Rate 0 in force */
	assert_non_null(strstr(csv, ",30000000,180000000,0,128,0,250000000,10000000,0\n"));
	free(csv);
	conf_free(&c);
	tmpdir_remove(dir);
}

static void failed_write_not_restored(void **state)
{
	struct daemon_opts opts = { .once = true };
	char *dir = tmpdir_new(), *ev;
	struct backend be;
	struct fake f;
	struct conf c;

	(void)state;
	setup(&f, &be, &c, dir);
	f.fail_sets = 1;
	assert_int_equal(daemon_run(&c, &opts, &be, stderr), 0);
	assert_string_equal(f.calls, "");
	ev = events(dir);
	assert_string_equal(ev, "start victim_add set_error set_low stop ");
	free(ev);
	conf_free(&c);
	tmpdir_remove(dir);
}

static void dry_run_writes_nothing(void **state)
{
	struct daemon_opts opts = { .once = true };
	char *dir = tmpdir_new(), *log;
	struct backend be;
	struct fake f;
	struct conf c;

	(void)state;
	setup(&f, &be, &c, dir);
	c.dry_run = true;
	assert_int_equal(daemon_run(&c, &opts, &be, stderr), 0);
	assert_string_equal(f.calls, "");
	log = read_text(dir, "dcms.log");
	assert_non_null(strstr(log, "\"event\":\"set_low\""));
	assert_non_null(strstr(log, "\"applied\":\"dry-run\""));
	free(log);
	conf_free(&c);
	tmpdir_remove(dir);
}

static void neighbours_from_topology(void **state)
{
	struct daemon_opts opts = { .once = true };
	char *dir = tmpdir_new(), *ev;
	struct backend be;
	struct fake f;
	struct conf c;

	(void)state;
	setup(&f, &be, &c, dir);
	f.peers = false;	/* netlink says nothing: only the file knows */
	c.neighbours = CONF_NEIGH_TOPOLOGY;
	c.topology = strdup(TOPOLOGY);
	assert_int_equal(daemon_run(&c, &opts, &be, stderr), 0);
	ev = events(dir);
	assert_string_equal(ev, "start victim_add set_low restore stop ");
	free(ev);
	conf_free(&c);
	tmpdir_remove(dir);

	/* without it: no neighbour, no victim */
	dir = tmpdir_new();
	setup(&f, &be, &c, dir);
	f.peers = false;
	assert_int_equal(daemon_run(&c, &opts, &be, stderr), 0);
	ev = events(dir);
	assert_string_equal(ev, "start stop ");
	free(ev);
	conf_free(&c);
	tmpdir_remove(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(once_sets_and_restores),
		cmocka_unit_test(failed_write_not_restored),
		cmocka_unit_test(dry_run_writes_nothing),
		cmocka_unit_test(neighbours_from_topology),
	};

	return run_group("daemon", tests, ARRAY_SIZE(tests)) ? 1 : 0;
}
