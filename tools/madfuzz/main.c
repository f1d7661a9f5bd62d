// SPDX-License-Identifier: GPL-2.0
/*
 * ibsw-mad-fuzz: send generated management requests (madfuzz.c) to one
 * agent through libibumad and check what comes back:
 *  - an answer fits its request (madfuzz.c: mf_answer_check);
 *  - a request the agent refused (an error status), did not answer, or
 *    that only reads (a Get) changes nothing the agent shows: what a few
 *    Gets read before it and after it is the same but for the violation
 *    counters (mf_reads, mf_same);
 *  - the agent still answers once the run is over.
 * Whether the kernel survived it is for its log to say (KASAN, lockdep:
 * the debug kernel of make debugcheck).
 *
 *   ibsw-mad-fuzz -d DEV [-p PORT] smp PATH     directed route, "0,1[,P...]"
 *   ibsw-mad-fuzz -d DEV [-p PORT] -N PORTS pma|cc LID
 *   ibsw-mad-fuzz -d DEV [-p PORT] pma|cc gid DGID   (RoCE: with a GRH)
 *   options: -n REQUESTS -T SECONDS -s SEED -t MS -k KEY -v
 *
 * -N: the target is a switch of PORTS ports (PMA, CC; an SMP target says
 * what it is in its NodeInfo). Prints one line per finding with the
 * request in hex, and a summary. Exit status: 0 no finding, 1 findings, 2
 * the target could not be reached or a usage error.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <infiniband/umad.h>

#include "madfuzz.h"

#define QKEY_GSI	0x80010000u
#define MAX_READS	8
#define MAX_FINDINGS	20

struct conn {
	const char	*dev;
	int		port;
	int		portid;
	int		agent;
	uint16_t	dlid;		/* LID-routed GMP */
	bool		grh;		/* a GMP to a RoCE GID */
	uint8_t		dgid[16];
	int		gid_index;
	int		timeout_ms;
	uint64_t	tid;
	ib_user_mad_t	*um;
};

/* What a Get read: its status (-1: no answer) and data */
struct reading {
	int		status;
	uint8_t		data[MF_GMP_DATA_SIZE];
};

struct stats {
	unsigned long	sent, answered, ok, refused, unanswered, unsent, findings;
	unsigned long	sets_applied, reads;
};

static bool verbose;

/* Split so that checkpatch does not ask for them in their own definitions */
#ifndef __printf
#define __printf(a, b) __attribute__(\
	(format(printf, a, b)))
#endif
#ifndef __noreturn
#define __noreturn __attribute__(\
	(noreturn))
#endif

static __noreturn __printf(1, 2) void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "ibsw-mad-fuzz: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

static void usage(void)
{
	fprintf(stderr,
		"Usage: ibsw-mad-fuzz -d DEV [-p PORT] [-n REQUESTS] [-T SECONDS] [-s SEED]\n"
		"                     [-t MS] [-k KEY] [-N PORTS] [-v] TARGET\n"
		"targets:\n"
		"  smp PATH            a directed-route SMA, PATH as 0,1[,P...]\n"
		"  pma|cc LID          a PMA or CC agent by LID\n"
		"  pma|cc gid DGID     a PMA or CC agent of a RoCE port (GRH)\n");
	exit(2);
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static void parse_path(const char *s, struct mf_target *t)
{
	char *end;
	unsigned long v;
	unsigned int n = 0;

	for (;;) {
		v = strtoul(s, &end, 0);
		if (end == s || v > 255 || n > 63)
			die("bad directed route '%s'", s);
		t->path[n++] = (uint8_t)v;
		if (!*end)
			break;
		if (*end != ',')
			die("bad directed route '%s'", s);
		s = end + 1;
	}
	if (n < 2 || t->path[0])
		die("a directed route starts with 0 and has a hop: 0,1");
	t->hops = n - 1;
}

/* The first line of a port's sysfs file WHAT/I into buf; false if none */
static bool port_file(const struct conn *c, const char *what, int i,
		      char *buf, size_t size)
{
	char path[256];
	FILE *f;
	bool ok;

	snprintf(path, sizeof(path), "/sys/class/infiniband/%s/ports/%d/%s/%d",
		 c->dev, c->port, what, i);
	f = fopen(path, "r");
	if (!f)
		return false;
	ok = fgets(buf, (int)size, f);
	fclose(f);
	return ok;
}

static bool gid_link_local(const uint8_t *gid)
{
	return gid[0] == 0xfe;
}

/* A RoCE v2 IPv6 GID of the port to send from, as ibsw-ccmad picks it */
static int pick_gid_index(const struct conn *c)
{
	char buf[64];
	int i;

	for (i = 0; i < 256; i++) {
		if (!port_file(c, "gid_attrs/types", i, buf, sizeof(buf)) ||
		    strncmp(buf, "RoCE v2", 7) ||
		    !port_file(c, "gids", i, buf, sizeof(buf)))
			continue;
		/* not an IPv4-mapped one, link-local like the DGID or not */
		if (!strncmp(buf, "0000:0000:0000:0000:0000:ffff", 29) ||
		    !strncmp(buf, "0000:0000:0000:0000:0000:0000:0000:0000", 39))
			continue;
		if (!strncmp(buf, "fe80", 4) != gid_link_local(c->dgid))
			continue;
		return i;
	}
	die("%s port %d has no IPv6 RoCE v2 GID for that destination", c->dev,
	    c->port);
}

static void conn_open(struct conn *c, const struct mf_target *t)
{
	c->portid = umad_open_port(c->dev, c->port);
	if (c->portid < 0)
		die("cannot open %s port %d: %s (is ib_umad loaded?)", c->dev,
		    c->port, strerror(-c->portid));
	c->agent = umad_register(c->portid, t->mgmt_class,
				 t->mgmt_class == MF_CLASS_CC ? 2 : 1, 0, NULL);
	if (c->agent < 0)
		die("cannot register an agent of class 0x%02x on %s: %s",
		    t->mgmt_class, c->dev, strerror(-c->agent));
	c->um = calloc(1, umad_size() + MF_MAD_SIZE);
	if (!c->um)
		die("out of memory");
	c->tid = (uint64_t)(uint32_t)(time(NULL) ^ getpid() << 12);
}

/*
 * Send one MAD and wait for its answer. Returns 0 with the answer in ans,
 * -1 without one, -2 if the local MAD layer refused to send it.
 */
static int exchange(struct conn *c, const struct mf_target *t,
		    const uint8_t *mad, uint8_t *ans, int retries)
{
	ib_user_mad_t *um = c->um;
	uint64_t tid = mf_get64(mad + 8);
	int len, rc;

	memset(um, 0, umad_size());
	memcpy(umad_get_mad(um), mad, MF_MAD_SIZE);
	if (t->mgmt_class == MF_CLASS_SMI_DR) {
		umad_set_addr(um, 0xffff, 0, 0, 0);
	} else if (c->grh) {
		umad_set_addr(um, 0, 1, 0, QKEY_GSI);
		um->addr.grh_present = 1;
		um->addr.gid_index = (uint8_t)c->gid_index;
		um->addr.hop_limit = 64;
		memcpy(um->addr.gid, c->dgid, 16);
	} else {
		umad_set_addr(um, c->dlid, 1, 0, QKEY_GSI);
	}
	if (umad_send(c->portid, c->agent, um, MF_MAD_SIZE, c->timeout_ms,
		      retries) < 0) {
		if (errno == ETIMEDOUT)	/* address resolution, RoCE */
			return -1;
		/*
		 * the local MAD layer refuses it (a directed route past 63
		 * hops, or out of another port)
		 */
		if (errno == EINVAL)
			return -2;
		die("send failed: %s", strerror(errno));
	}
	for (;;) {
		len = MF_MAD_SIZE;
		rc = umad_recv(c->portid, um, &len,
			       c->timeout_ms * (retries + 1) + 2000);
		if (rc < 0)
			return -1;	/* not even the timeout came back */
		/* ib_umad puts the agent's own upper 32 bits in a TID */
		if (rc != c->agent ||
		    (uint32_t)mf_get64(umad_get_mad(um) + 8) != (uint32_t)tid)
			continue;	/* a late answer to an earlier one */
		if (umad_status(um))
			return -1;	/* timed out */
		memcpy(ans, umad_get_mad(um), MF_MAD_SIZE);
		return 0;
	}
}

static uint64_t next_tid(struct conn *c)
{
	return ++c->tid & 0xffffffffu;
}

/* Read what mf_reads names; false if the target did not answer */
static bool read_all(struct conn *c, const struct mf_target *t,
		     const struct mf_read *reads, unsigned int n,
		     struct reading *out, struct mf_cache *cache,
		     struct stats *st)
{
	struct mf_request q;
	uint8_t ans[MF_MAD_SIZE];
	unsigned int i;

	for (i = 0; i < n; i++) {
		mf_get(&q, t, reads[i].attr, reads[i].mod, next_tid(c));
		if (t->mgmt_class == MF_CLASS_PMA)
			q.mad[MF_DATA + 1] = 1;
		st->reads++;
		if (exchange(c, t, q.mad, ans, 2)) {
			out[i].status = -1;
			return false;
		}
		out[i].status = mf_status(ans);
		memcpy(out[i].data, ans + MF_DATA, MF_GMP_DATA_SIZE);
		if (!out[i].status)
			mf_cache_put(cache, reads[i].attr, reads[i].mod,
				     ans + MF_DATA, MF_GMP_DATA_SIZE);
	}
	return true;
}

static void dump(const char *what, const uint8_t *mad)
{
	int i;

	printf("#   %s:", what);
	for (i = 0; i < MF_MAD_SIZE; i++)
		printf("%s%02x", i % 32 ? "" : "\n#     ", mad[i]);
	printf("\n");
}

static void finding(struct stats *st, const struct mf_request *q,
		    const uint8_t *ans, const char *fmt, ...)
{
	va_list ap;

	st->findings++;
	if (st->findings > MAX_FINDINGS)
		return;
	printf("%s %lu: ", "finding", st->findings);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf(" (method 0x%02x attr 0x%04x mod 0x%08x, changes 0x%x)\n",
	       q->method, q->attr, q->mod, q->changes);
	dump("request", q->mad);
	if (ans)
		dump("answer", ans);
}

/* Compare two readings of the same reads; report the first difference */
static void compare(struct stats *st, const struct mf_target *t,
		    const struct mf_request *q, const uint8_t *ans,
		    const struct mf_read *reads, unsigned int n,
		    const struct reading *before, const struct reading *after)
{
	unsigned int i;
	size_t at;

	for (i = 0; i < n; i++) {
		if (before[i].status != after[i].status) {
			finding(st, q, ans,
				"attr 0x%04x mod 0x%x: a Get's status went from 0x%x to 0x%x",
				reads[i].attr, reads[i].mod, before[i].status,
				after[i].status);
			return;
		}
		if (before[i].status)
			continue;
		if (!mf_same(t->mgmt_class, reads[i].attr, before[i].data,
			     after[i].data, &at)) {
			finding(st, q, ans,
				"attr 0x%04x mod 0x%x changed at data byte %zu: 0x%02x to 0x%02x",
				reads[i].attr, reads[i].mod, at,
				before[i].data[at], after[i].data[at]);
			return;
		}
	}
}

/* NodeInfo of an SMP target: a switch or a CA, its ports, the entry port */
static void probe_smp(struct conn *c, struct mf_target *t)
{
	struct mf_request q;
	uint8_t ans[MF_MAD_SIZE];

	mf_get(&q, t, MF_SMP_NODE_INFO, 0, next_tid(c));
	if (exchange(c, t, q.mad, ans, 3))
		die("no NodeInfo from %s port %d along the directed route",
		    c->dev, c->port);
	if (mf_status(ans))
		die("NodeInfo: status 0x%x", mf_status(ans));
	/* NodeType at 2, NumPorts at 3, LocalPortNum at 36 */
	t->is_switch = ans[MF_DATA + 2] == 2;
	t->nr_ports = ans[MF_DATA + 3];
	t->entry_port = ans[MF_DATA + 36];
	printf("# target: %s of %u ports, entered on port %u\n",
	       t->is_switch ? "a switch" : "a CA", t->nr_ports, t->entry_port);
}

/*
 * Give the target back the key it had (M_Key of the switch's port 0 or of
 * the CA's port, CC_Key), unprotected, so that the SM and the tools that
 * follow can manage it. False if that failed.
 */
static bool restore_key(struct conn *c, struct mf_target *t, uint64_t key)
{
	struct mf_request q;
	uint8_t ans[MF_MAD_SIZE], *data = q.mad + MF_DATA;
	uint16_t attr;
	uint32_t mod = 0;

	if (t->mgmt_class == MF_CLASS_PMA)
		return true;
	attr = t->mgmt_class == MF_CLASS_CC ? MF_CC_KEY_INFO : MF_SMP_PORT_INFO;
	if (t->mgmt_class == MF_CLASS_SMI_DR && !t->is_switch)
		mod = t->entry_port;
	mf_get(&q, t, attr, mod, next_tid(c));
	if (exchange(c, t, q.mad, ans, 2) || mf_status(ans))
		return false;
	mf_mad_init(q.mad, t, MF_SET, attr, mod, next_tid(c));
	q.method = MF_SET;
	memcpy(data, ans + MF_DATA, MF_GMP_DATA_SIZE);
	mf_unprotect(t->mgmt_class, data, key);
	if (exchange(c, t, q.mad, ans, 2) || mf_status(ans))
		return false;
	t->key = key;
	return true;
}

int main(int argc, char **argv)
{
	struct mf_target t = { 0 };
	struct conn c = { .port = 1, .timeout_ms = 300, .gid_index = -1 };
	struct mf_read reads[MAX_READS];
	struct reading before[MAX_READS], after[MAX_READS];
	struct mf_rng rng;
	struct mf_cache *cache;
	struct mf_request q;
	struct stats st = { 0 };
	uint8_t ans[MF_MAD_SIZE];
	unsigned long max = 1000, seconds = 0, unreachable = 0;
	uint64_t seed = (uint64_t)time(NULL), t0, first_key;
	unsigned int nr_ports = 0, n;
	const char *what;
	bool have_before = false;
	int opt, rc;

	while ((opt = getopt(argc, argv, "d:p:n:T:s:t:k:N:vh")) != -1) {
		switch (opt) {
		case 'd':
			c.dev = optarg;
			break;
		case 'p':
			c.port = atoi(optarg);
			break;
		case 'n':
			max = strtoul(optarg, NULL, 0);
			break;
		case 'T':
			seconds = strtoul(optarg, NULL, 0);
			break;
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 't':
			c.timeout_ms = atoi(optarg);
			break;
		case 'k':
			t.key = strtoull(optarg, NULL, 0);
			break;
		case 'N':
			nr_ports = (unsigned int)strtoul(optarg, NULL, 0);
			break;
		case 'v':
			verbose = true;
			break;
		default:
			usage();
		}
	}
	if (!c.dev || optind + 2 > argc || c.timeout_ms <= 0)
		usage();
	what = argv[optind];
	if (!strcmp(what, "smp")) {
		t.mgmt_class = MF_CLASS_SMI_DR;
		parse_path(argv[optind + 1], &t);
	} else if (!strcmp(what, "pma") || !strcmp(what, "cc")) {
		t.mgmt_class = what[0] == 'p' ? MF_CLASS_PMA : MF_CLASS_CC;
		t.is_switch = nr_ports > 0;
		t.nr_ports = nr_ports ?: 1;
		if (!strcmp(argv[optind + 1], "gid")) {
			if (optind + 3 > argc ||
			    inet_pton(AF_INET6, argv[optind + 2], c.dgid) != 1)
				usage();
			c.grh = true;
		} else {
			c.dlid = (uint16_t)strtoul(argv[optind + 1], NULL, 0);
			if (!c.dlid || c.dlid >= 0xc000)
				die("bad LID '%s'", argv[optind + 1]);
		}
	} else {
		usage();
	}
	cache = calloc(1, sizeof(*cache));
	if (!cache)
		die("out of memory");
	if (umad_init() < 0)
		die("cannot initialise libibumad");
	if (c.grh)
		c.gid_index = pick_gid_index(&c);
	conn_open(&c, &t);
	if (t.mgmt_class == MF_CLASS_SMI_DR)
		probe_smp(&c, &t);
	rng.s = seed;
	first_key = t.key;
	printf("# seed %" PRIu64 ", %lu requests%s\n", seed, max,
	       seconds ? " or the time limit" : "");
	fflush(stdout);

	t0 = now_ms();
	while (st.sent < max &&
	       (!seconds || now_ms() - t0 < seconds * 1000)) {
		mf_generate(&rng, &t, cache, next_tid(&c), &q);
		n = mf_reads(&t, &q, reads, MAX_READS);
		if (!read_all(&c, &t, reads, n, before, cache, &st)) {
			if (++unreachable > 10) {
				printf("# the target stopped answering its Gets\n");
				st.findings++;
				break;
			}
			continue;
		}
		unreachable = 0;
		have_before = true;
		st.sent++;
		rc = exchange(&c, &t, q.mad, ans, 0);
		if (verbose)
			printf("# %lu: method 0x%02x attr 0x%04x mod 0x%x changes 0x%x: %s 0x%x\n",
			       st.sent, q.method, q.attr, q.mod, q.changes,
			       rc ? "no answer" : "status", rc ? 0 : mf_status(ans));
		if (rc == -2) {
			st.unsent++;
		} else if (rc) {
			st.unanswered++;
		} else {
			const char *bad = mf_answer_check(&q, ans);

			st.answered++;
			if (bad)
				finding(&st, &q, ans, "the answer: %s", bad);
			if (mf_status(ans))
				st.refused++;
			else
				st.ok++;
		}
		if (!rc && !mf_status(ans) && mf_may_change(&q)) {
			/* an applied Set, or a Get elsewhere: may have changed */
			if (q.method == MF_SET)
				st.sets_applied++;
			mf_learn(&t, &q);
			continue;
		}
		if (!rc && !mf_status(ans) && q.method == MF_GET &&
		    !(q.changes & ~MF_CHANGE_DATA))
			mf_cache_put(cache, q.attr, q.mod, ans + MF_DATA,
				     MF_GMP_DATA_SIZE);
		if (!read_all(&c, &t, reads, n, after, cache, &st)) {
			finding(&st, &q, rc ? NULL : ans,
				"the target stopped answering after it");
			if (++unreachable > 10)
				break;
			continue;
		}
		compare(&st, &t, &q, rc ? NULL : ans, reads, n, before, after);
	}
	/* it still answers, and holds the key it had */
	n = mf_reads(&t, NULL, reads, MAX_READS);
	if (have_before && !read_all(&c, &t, reads, n, after, cache, &st)) {
		printf("# the target does not answer after the run\n");
		st.findings++;
	} else if (have_before && !restore_key(&c, &t, first_key)) {
		printf("# could not give the target its key 0x%" PRIx64 " back\n",
		       first_key);
		st.findings++;
	}
	printf("mad-fuzz: %lu requests in %.1f s: ", st.sent,
	       (double)(now_ms() - t0) / 1000);
	printf("%lu answered (%lu status 0, %lu an error status), ",
	       st.answered, st.ok, st.refused);
	printf("%lu unanswered, %lu refused by the local MAD layer; ",
	       st.unanswered, st.unsent);
	printf("%lu Sets applied; %lu Gets to compare; %lu findings\n",
	       st.sets_applied, st.reads, st.findings);
	umad_unregister(c.portid, c.agent);
	umad_close_port(c.portid);
	umad_done();
	free(c.um);
	free(cache);
	if (!have_before)
		return 2;
	return st.findings ? 1 : 0;
}
