// SPDX-License-Identifier: GPL-2.0
/*
 * ibsw-ccmad: query and configure the congestion control of a channel
 * adapter with Congestion Control class MADs, sent over GSI (QP1) with a
 * GRH to a RoCE port (rxe has no LIDs) through libibumad.
 *
 *   ibsw-ccmad [-d DEV] [-p PORT] [-g DGID] [-i GID_INDEX] [-k CC_KEY]
 *              [-V CLASS_VERSION] [-t MS] [-r RETRIES] [-j]
 *              get ATTR [block=B|all] | set ATTR ARGS... | raw METHOD ATTR [MOD]
 *
 * Exit status: 0 answered with status 0; 2 answered with another status
 * (printed); 1 anything else (usage, no answer, I/O).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <infiniband/umad.h>

#include "ccmad.h"

#define EXIT_STATUS	2

struct conn {
	const char *dev;
	int port;
	uint8_t dgid[16];
	bool have_dgid;
	int gid_index;		/* -1: an IPv6 RoCE v2 GID like the DGID */
	uint64_t cc_key;
	uint8_t class_version;
	int timeout_ms;
	int retries;
	bool json;
	int portid;
	int agent;
	uint32_t tid;
};

static void print_usage(FILE *f)
{
	fprintf(f,
		"Usage: ibsw-ccmad [-d DEV] [-p PORT] [-g DGID] [-i GID_INDEX] [-k CC_KEY]\n"
		"                  [-V CLASS_VERSION] [-t MS] [-r RETRIES] [-j] COMMAND\n"
		"commands:\n"
		"  get cpi|info|key|log|ca|timestamp|ATTR_ID\n"
		"  get cct [block=B|all]           (all: blocks up to CCTI_Limit)\n"
		"  set ca [port_control=N] [sl=LIST|all ccti_timer=T ccti_increase=I\n"
		"         trigger_threshold=H ccti_min=M]\n"
		"  set cct [limit=L] [block=B] SHIFT:MULT...\n"
		"  set key [key=K] [protect=0|1] [lease=S] [violations=0]\n"
		"                                   (a new key: protect=1 lease=0 unless given)\n"
		"  raw METHOD ATTR_ID [MODIFIER]\n"
		"DGID: the IPv6 address (GID) of the destination port (default: DEV's own)\n");
}

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "ibsw-ccmad: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	exit(EXIT_FAILURE);
}

static int read_sysfs(const char *dev, int port, const char *what, int index,
		      char *buf, size_t len)
{
	char path[256];
	FILE *f;
	char *nl;

	snprintf(path, sizeof(path), "/sys/class/infiniband/%s/ports/%d/%s/%d",
		 dev, port, what, index);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (!fgets(buf, (int)len, f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	nl = strchr(buf, '\n');
	if (nl)
		*nl = '\0';
	return 0;
}

static bool gid_link_local(const uint8_t gid[16])
{
	return gid[0] == 0xfe && (gid[1] & 0xc0) == 0x80;
}

/*
 * The local GID to send from: an IPv6 RoCE v2 GID, link-local for a
 * link-local DGID, global otherwise. Without -g, the port's own GID is the
 * destination (a loop through the port).
 */
static void pick_gid(struct conn *c)
{
	char type[64], text[64];
	uint8_t gid[16];
	int i;

	for (i = 0; i < 256; i++) {
		if (read_sysfs(c->dev, c->port, "gid_attrs/types", i, type,
			       sizeof(type)) || strcmp(type, "RoCE v2") ||
		    read_sysfs(c->dev, c->port, "gids", i, text, sizeof(text)) ||
		    cc_parse_gid(text, gid) || cc_gid_is_v4(gid) ||
		    gid_link_local(gid) != (c->have_dgid && gid_link_local(c->dgid)))
			continue;
		if (c->gid_index < 0)
			c->gid_index = i;
		if (!c->have_dgid) {
			memcpy(c->dgid, gid, 16);
			c->have_dgid = true;
		}
		return;
	}
	if (c->gid_index < 0)
		die("%s port %d has no IPv6 RoCE v2 GID for that destination (-i to choose one)",
		    c->dev, c->port);
}

static void conn_open(struct conn *c)
{
	static char ca[1][UMAD_CA_NAME_LEN];

	if (umad_init() < 0)
		die("cannot initialise libibumad");
	if (!c->dev) {
		if (umad_get_cas_names(ca, 1) < 1)
			die("no RDMA device (-d DEV)");
		c->dev = ca[0];
	}
	if (c->gid_index < 0 || !c->have_dgid)
		pick_gid(c);
	c->portid = umad_open_port(c->dev, c->port);
	if (c->portid < 0)
		die("cannot open %s port %d: %s (is ib_umad loaded?)", c->dev,
		    c->port, strerror(-c->portid));
	c->agent = umad_register(c->portid, CCMAD_CLASS, CCMAD_CLASS_VERSION, 0,
				 NULL);
	if (c->agent < 0)
		die("cannot register a CC agent on %s: %s", c->dev,
		    strerror(-c->agent));
	/* libibmad style: only the low 32 bits are ours */
	c->tid = (uint32_t)time(NULL) ^ (uint32_t)getpid() << 12;
}

/*
 * Send the request in mad and wait for its answer (into mad). Returns 0
 * with the answer, or dies.
 */
static void transact(struct conn *c, uint8_t *mad)
{
	size_t size = umad_size() + CCMAD_SIZE;
	ib_user_mad_t *um;
	int len, rc, try;

	um = calloc(1, size);
	if (!um)
		die("out of memory");
	memcpy(umad_get_mad(um), mad, CCMAD_SIZE);
	umad_set_addr(um, 0, 1, 0, CCMAD_QKEY);
	um->addr.grh_present = 1;
	um->addr.gid_index = (uint8_t)c->gid_index;
	um->addr.hop_limit = 64;
	memcpy(um->addr.gid, c->dgid, 16);

	/*
	 * The first MAD to a RoCE destination resolves its MAC (ARP or ND)
	 * while the kernel makes its address handle, and gives that 1 s: a
	 * slow guest misses it now and then (ETIMEDOUT from the write). The
	 * neighbour, once resolved, is cached: send again.
	 */
	for (try = 0; umad_send(c->portid, c->agent, um, CCMAD_SIZE, c->timeout_ms,
				c->retries) < 0; try++)
		if (errno != ETIMEDOUT || try >= c->retries)
			die("send failed: %s", strerror(errno));
	for (;;) {
		len = CCMAD_SIZE;
		rc = umad_recv(c->portid, um, &len,
			       c->timeout_ms * (c->retries + 1) + 1000);
		if (rc < 0)
			die("no answer: %s", strerror(rc == -EWOULDBLOCK ?
						      ETIMEDOUT : -rc));
		if (rc != c->agent)
			continue;
		if (umad_status(um))
			die("no answer: %s", strerror(umad_status(um)));
		break;
	}
	if (len < CCMAD_SIZE)
		die("short answer (%d bytes)", len);
	memcpy(mad, umad_get_mad(um), CCMAD_SIZE);
	free(um);
}

/*
 * One request, one answer. Returns the answer's status; a status other
 * than 0 is printed (stderr, or the JSON object on stdout).
 */
static uint16_t request(struct conn *c, uint8_t method, uint16_t attr,
			uint32_t mod, uint8_t *mad)
{
	struct ccmad_hdr h = {
		.class_version = c->class_version,
		.method = method,
		.tid = ++c->tid,
		.attr = attr,
		.mod = mod,
		.cc_key = c->cc_key,
	};
	uint8_t data[CCMAD_SIZE];
	struct ccmad_hdr r;

	/* the data already in mad is kept: encode the header around it */
	memcpy(data, mad, CCMAD_SIZE);
	ccmad_encode_hdr(mad, &h);
	memcpy(mad + CCMAD_LOG_OFFS, data + CCMAD_LOG_OFFS,
	       CCMAD_SIZE - CCMAD_LOG_OFFS);
	transact(c, mad);
	ccmad_decode_hdr(mad, &r);
	if ((uint32_t)r.tid != (uint32_t)h.tid || r.method != CCMAD_GET_RESP)
		die("unexpected answer (method 0x%02x)", r.method);
	if (r.status)
		cc_print_status(c->json ? stdout : stderr, &r, c->json);
	return r.status;
}

/* every block CCTI_Limit (16 bits) can reach */
#define CCT_MAX_ENTRIES	(UINT16_MAX + 1)

static int get_cct(struct conn *c, int argc, char **argv)
{
	static uint16_t cct[CCT_MAX_ENTRIES];
	struct cc_cct_block b;
	uint8_t mad[CCMAD_SIZE];
	uint64_t block = 0, last;
	bool all = true;
	uint16_t status;

	if (argc > 1)
		die("get cct [block=B|all]");
	if (argc && strcmp(argv[0], "block=all")) {
		if (strncmp(argv[0], "block=", 6) ||
		    cc_parse_u64(argv[0] + 6, UINT32_MAX, &block))
			die("bad argument \"%s\"", argv[0]);
		all = false;
	}
	memset(mad, 0, sizeof(mad));
	status = request(c, CCMAD_GET, CC_ATTR_CCT, (uint32_t)block, mad);
	if (status)
		return EXIT_STATUS;
	cc_decode_cct_block(mad, &b);
	if (!all) {
		cc_print_cct(stdout, b.entry, CC_CCT_BLOCK, b.ccti_limit, c->json);
		return 0;
	}
	/* like ibccquery: the blocks up to CCTI_Limit, its entries */
	memcpy(cct, b.entry, sizeof(b.entry));
	last = b.ccti_limit / CC_CCT_BLOCK;
	for (block = 1; block <= last; block++) {
		memset(mad, 0, sizeof(mad));
		if (request(c, CCMAD_GET, CC_ATTR_CCT, (uint32_t)block, mad))
			return EXIT_STATUS;
		cc_decode_cct_block(mad, &b);
		memcpy(cct + block * CC_CCT_BLOCK, b.entry, sizeof(b.entry));
	}
	cc_print_cct(stdout, cct, b.ccti_limit + 1u, b.ccti_limit, c->json);
	return 0;
}

static int cmd_get(struct conn *c, const struct ccmad_attr *a, int argc,
		   char **argv)
{
	struct cc_class_port_info cpi;
	struct cc_ca_setting s;
	struct cc_key_info k;
	uint8_t mad[CCMAD_SIZE];
	struct cc_info info;
	struct cc_log log;

	if (a->id == CC_ATTR_CCT)
		return get_cct(c, argc, argv);
	if (argc)
		die("get %s takes no arguments", a->name);
	memset(mad, 0, sizeof(mad));
	if (request(c, CCMAD_GET, a->id, 0, mad))
		return EXIT_STATUS;
	switch (a->id) {
	case CC_ATTR_CLASS_PORT_INFO:
		cc_decode_class_port_info(mad, &cpi);
		cc_print_class_port_info(stdout, &cpi, c->json);
		break;
	case CC_ATTR_CONG_INFO:
		cc_decode_info(mad, &info);
		cc_print_info(stdout, &info, c->json);
		break;
	case CC_ATTR_KEY_INFO:
		cc_decode_key_info(mad, &k);
		cc_print_key_info(stdout, &k, c->json);
		break;
	case CC_ATTR_LOG:
		cc_decode_log(mad, &log);
		cc_print_log(stdout, &log, c->json);
		break;
	case CC_ATTR_CA_SETTING:
		cc_decode_ca_setting(mad, &s);
		cc_print_ca_setting(stdout, &s, c->json);
		break;
	case CC_ATTR_TIMESTAMP:
		cc_print_timestamp(stdout, cc_decode_timestamp(mad), c->json);
		break;
	default:
		cc_print_raw(stdout, mad, c->json);
		break;
	}
	return 0;
}

/* Read-modify-write: what the arguments do not name keeps its value */
static int set_ca(struct conn *c, int argc, char **argv)
{
	struct cc_ca_setting s;
	uint8_t mad[CCMAD_SIZE];
	char err[128];

	memset(mad, 0, sizeof(mad));
	if (request(c, CCMAD_GET, CC_ATTR_CA_SETTING, 0, mad))
		return EXIT_STATUS;
	cc_decode_ca_setting(mad, &s);
	if (cc_ca_setting_args(&s, argc, (const char *const *)argv, err,
			       sizeof(err)))
		die("set ca: %s", err);
	memset(mad, 0, sizeof(mad));
	cc_encode_ca_setting(mad, &s);
	if (request(c, CCMAD_SET, CC_ATTR_CA_SETTING, 0, mad))
		return EXIT_STATUS;
	cc_decode_ca_setting(mad, &s);
	cc_print_ca_setting(stdout, &s, c->json);
	return 0;
}

/*
 * Without block=, the entries are the table from index 0: OpenSM's way,
 * every block sent with CCTI_Limit = entries - 1 (or limit=). With
 * block=B, one block: the entries from index 64 B, the rest of it zero.
 */
static int set_cct(struct conn *c, int argc, char **argv)
{
	static uint16_t cct[CCT_MAX_ENTRIES];
	uint64_t limit = UINT64_MAX, block = UINT64_MAX;
	unsigned int n = 0, first, last, b;
	struct cc_cct_block blk;
	uint8_t mad[CCMAD_SIZE];
	int i;

	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "limit=", 6)) {
			if (cc_parse_u64(argv[i] + 6, UINT16_MAX, &limit))
				die("bad argument \"%s\"", argv[i]);
		} else if (!strncmp(argv[i], "block=", 6)) {
			if (cc_parse_u64(argv[i] + 6, UINT32_MAX, &block))
				die("bad argument \"%s\"", argv[i]);
		} else if (n == ARRAY_SIZE(cct) ||
			   cc_parse_entry(argv[i], &cct[n++])) {
			die("bad CCT entry \"%s\" (SHIFT:MULTIPLIER, 0-3:0-16383)",
			    argv[i]);
		}
	}
	if (!n)
		die("set cct: no entries");
	if (block != UINT64_MAX) {
		if (n > CC_CCT_BLOCK)
			die("set cct: at most %d entries in a block", CC_CCT_BLOCK);
		if (limit == UINT64_MAX)
			die("set cct block=B needs limit=L");
		first = (unsigned int)block;
		last = first;
	} else {
		if (limit == UINT64_MAX)
			limit = n - 1;
		first = 0;
		last = (n - 1) / CC_CCT_BLOCK;
	}

	for (b = first; b <= last; b++) {
		unsigned int base = block != UINT64_MAX ? 0 : b * CC_CCT_BLOCK;
		unsigned int j;

		memset(&blk, 0, sizeof(blk));
		blk.ccti_limit = (uint16_t)limit;
		for (j = 0; j < CC_CCT_BLOCK && base + j < n; j++)
			blk.entry[j] = cct[base + j];
		memset(mad, 0, sizeof(mad));
		cc_encode_cct_block(mad, &blk);
		if (request(c, CCMAD_SET, CC_ATTR_CCT, b, mad))
			return EXIT_STATUS;
		cc_decode_cct_block(mad, &blk);
		if (c->json)
			printf("{\"block\":%u,\"answer\":", b);
		else
			printf("block=%u ", b);
		cc_print_cct(stdout, blk.entry, CC_CCT_BLOCK, blk.ccti_limit,
			     c->json);
		if (c->json)
			printf("}\n");
	}
	return 0;
}

static int set_key(struct conn *c, int argc, char **argv)
{
	struct cc_key_info k;
	uint8_t mad[CCMAD_SIZE];
	char err[128];

	memset(mad, 0, sizeof(mad));
	if (request(c, CCMAD_GET, CC_ATTR_KEY_INFO, 0, mad))
		return EXIT_STATUS;
	cc_decode_key_info(mad, &k);
	if (cc_key_info_args(&k, argc, (const char *const *)argv, err, sizeof(err)))
		die("%s", err);
	memset(mad, 0, sizeof(mad));
	cc_encode_key_info(mad, &k);
	if (request(c, CCMAD_SET, CC_ATTR_KEY_INFO, 0, mad))
		return EXIT_STATUS;
	cc_decode_key_info(mad, &k);
	cc_print_key_info(stdout, &k, c->json);
	return 0;
}

/* Any method, attribute and modifier, no data: for the error paths */
static int cmd_raw(struct conn *c, int argc, char **argv)
{
	uint64_t method, attr, mod = 0;
	uint8_t mad[CCMAD_SIZE];

	if (argc < 2 || argc > 3 || cc_parse_u64(argv[0], 0x7f, &method) ||
	    cc_parse_u64(argv[1], UINT16_MAX, &attr) ||
	    (argc == 3 && cc_parse_u64(argv[2], UINT32_MAX, &mod)))
		die("raw METHOD ATTR_ID [MODIFIER]");
	memset(mad, 0, sizeof(mad));
	if (request(c, (uint8_t)method, (uint16_t)attr, (uint32_t)mod, mad))
		return EXIT_STATUS;
	cc_print_raw(stdout, mad, c->json);
	return 0;
}

int main(int argc, char **argv)
{
	struct conn c = {
		.port = 1,
		.gid_index = -1,
		.class_version = CCMAD_CLASS_VERSION,
		.timeout_ms = 500,
		.retries = 3,
	};
	const struct ccmad_attr *a;
	uint64_t v;
	int opt, rc;

	while ((opt = getopt(argc, argv, "d:p:g:i:k:V:t:r:jh")) != -1) {
		switch (opt) {
		case 'd':
			c.dev = optarg;
			break;
		case 'p':
			if (cc_parse_u64(optarg, 254, &v) || !v)
				die("bad port \"%s\"", optarg);
			c.port = (int)v;
			break;
		case 'g':
			if (cc_parse_gid(optarg, c.dgid))
				die("bad GID \"%s\"", optarg);
			/*
			 * The MAD layer matches an answer to its request by
			 * the GRH's DGID, which for RoCEv2 over IPv4 holds
			 * the IPv4 header instead: it would drop the answer.
			 */
			if (cc_gid_is_v4(c.dgid))
				die("%s: an IPv4 GID (ib_core drops its answers): use an IPv6 GID",
				    optarg);
			c.have_dgid = true;
			break;
		case 'i':
			if (cc_parse_u64(optarg, 255, &v))
				die("bad GID index \"%s\"", optarg);
			c.gid_index = (int)v;
			break;
		case 'k':
			if (cc_parse_u64(optarg, UINT64_MAX, &c.cc_key))
				die("bad CC_Key \"%s\"", optarg);
			break;
		case 'V':
			if (cc_parse_u64(optarg, 255, &v))
				die("bad class version \"%s\"", optarg);
			c.class_version = (uint8_t)v;
			break;
		case 't':
			if (cc_parse_u64(optarg, 60000, &v) || !v)
				die("bad timeout \"%s\"", optarg);
			c.timeout_ms = (int)v;
			break;
		case 'r':
			if (cc_parse_u64(optarg, 100, &v))
				die("bad retry count \"%s\"", optarg);
			c.retries = (int)v;
			break;
		case 'j':
			c.json = true;
			break;
		case 'h':
			print_usage(stdout);
			return 0;
		default:
			print_usage(stderr);
			return EXIT_FAILURE;
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 2) {
		print_usage(stderr);
		return EXIT_FAILURE;
	}

	if (!strcmp(argv[0], "raw")) {
		conn_open(&c);
		rc = cmd_raw(&c, argc - 1, argv + 1);
	} else {
		a = ccmad_attr_find(argv[1]);
		if (!a)
			die("unknown attribute \"%s\"", argv[1]);
		if (!strcmp(argv[0], "get")) {
			conn_open(&c);
			rc = cmd_get(&c, a, argc - 2, argv + 2);
		} else if (!strcmp(argv[0], "set")) {
			if (a->id != CC_ATTR_CA_SETTING && a->id != CC_ATTR_CCT &&
			    a->id != CC_ATTR_KEY_INFO)
				die("set: only ca, cct and key (raw for the rest)");
			conn_open(&c);
			rc = a->id == CC_ATTR_CA_SETTING ? set_ca(&c, argc - 2, argv + 2) :
			     a->id == CC_ATTR_CCT ? set_cct(&c, argc - 2, argv + 2) :
			     set_key(&c, argc - 2, argv + 2);
		} else {
			print_usage(stderr);
			return EXIT_FAILURE;
		}
	}
	umad_unregister(c.portid, c.agent);
	umad_close_port(c.portid);
	umad_done();
	return rc;
}
