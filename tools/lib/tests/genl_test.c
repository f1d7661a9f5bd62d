// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the ibsw family's messages (genl_msg.c): requests compared
 * byte for byte with messages written out by hand, and hand-written
 * replies (a dump's parts, nested and multi attributes, acks, extended
 * acks) fed to the reply and attribute parsers. Netlink is in host order:
 * the bytes are little-endian's.
 */
#define _GNU_SOURCE
#include "helpers.h"
#include "../genl.h"

#include <errno.h>
#include <string.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <uapi/linux/ibsw.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * The family's id (0x1a), the request's sequence number (7) and the
 * socket's port id (0x100), as in the messages below
 */
#define FAM	0x1a
#define SEQ	7
#define PORTID	0x100

static void little_endian_only(void)
{
#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
	skip();
#endif
}

/* Messages are read in place: copied to a buffer as aligned as a socket's */
static uint64_t msgbuf[512];

static const void *aligned(const void *bytes, size_t len)
{
	assert_true(len <= sizeof(msgbuf));
	memcpy(msgbuf, bytes, len);
	return msgbuf;
}

/* ---------------------------------------------------------------- requests */

static void b_dump(struct nlmsghdr **nlh, void *buf)
{
	*nlh = ibsw_genl_msg_start(buf, FAM, IBSW_CMD_PORT_GET, NLM_F_DUMP);
	mnl_attr_put_strz(*nlh, IBSW_A_PORT_SWITCH_NAME, "S1");
	mnl_attr_put_u32(*nlh, IBSW_A_PORT_PORT, 3);
}

static const uint8_t want_dump[] = {
	36, 0, 0, 0, FAM, 0, 0x01, 0x03, 0, 0, 0, 0, 0, 0, 0, 0,
	IBSW_CMD_PORT_GET, 1, 0, 0,
	7, 0, IBSW_A_PORT_SWITCH_NAME, 0, 'S', '1', 0, 0,
	8, 0, IBSW_A_PORT_PORT, 0, 3, 0, 0, 0,
};

/* A nest, and "uint" attributes of both sizes; the family left to the transport */
static void b_nest_uint(struct nlmsghdr **nlh, void *buf)
{
	struct nlattr *nest;

	*nlh = ibsw_genl_msg_start(buf, 0, IBSW_CMD_PORT_SET, 0);
	nest = mnl_attr_nest_start(*nlh, IBSW_A_PORT_VL);
	mnl_attr_put_u32(*nlh, IBSW_A_VL_VL, 0);
	mnl_attr_put_u32(*nlh, IBSW_A_VL_BUFFER_CREDITS, 64);
	mnl_attr_nest_end(*nlh, nest);
	ibsw_attr_put_uint(*nlh, IBSW_A_PORT_HCA_RATE, 13000000000ull);
	ibsw_attr_put_uint(*nlh, IBSW_A_PORT_RATE, UINT32_MAX);
}

static const uint8_t want_nest_uint[] = {
	60, 0, 0, 0, 0, 0, 0x01, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	IBSW_CMD_PORT_SET, 1, 0, 0,
	20, 0, IBSW_A_PORT_VL, 0x80,
		8, 0, IBSW_A_VL_VL, 0, 0, 0, 0, 0,
		8, 0, IBSW_A_VL_BUFFER_CREDITS, 0, 64, 0, 0, 0,
	12, 0, IBSW_A_PORT_HCA_RATE, 0, 0x00, 0x42, 0xdc, 0x06, 0x03, 0, 0, 0,
	8, 0, IBSW_A_PORT_RATE, 0, 0xff, 0xff, 0xff, 0xff,
};

/* The family query of ibsw_genl_open() */
static void b_ctrl(struct nlmsghdr **nlh, void *buf)
{
	*nlh = genl_msg_start(buf, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1, 0);
	mnl_attr_put_strz(*nlh, CTRL_ATTR_FAMILY_NAME, "ibsw");
}

static const uint8_t want_ctrl[] = {
	32, 0, 0, 0, GENL_ID_CTRL, 0, 0x01, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	CTRL_CMD_GETFAMILY, 1, 0, 0,
	9, 0, CTRL_ATTR_FAMILY_NAME, 0, 'i', 'b', 's', 'w', 0, 0, 0, 0,
};

static const struct {
	const char *name;
	void (*build)(struct nlmsghdr **nlh, void *buf);
	const uint8_t *want;
	size_t len;
} requests[] = {
	{ "dump", b_dump, want_dump, sizeof(want_dump) },
	{ "nest-uint", b_nest_uint, want_nest_uint, sizeof(want_nest_uint) },
	{ "ctrl", b_ctrl, want_ctrl, sizeof(want_ctrl) },
};

static void build_requests(void **state)
{
	uint8_t *buf = (uint8_t *)msgbuf;
	struct nlmsghdr *nlh;
	size_t i, j;

	(void)state;
	little_endian_only();
	for (i = 0; i < ARRAY_SIZE(requests); i++) {
		/* the headers are written whole, whatever the buffer held */
		memset(buf, 0xa5, sizeof(msgbuf));
		requests[i].build(&nlh, buf);
		if (memcmp(buf, requests[i].want, NLMSG_HDRLEN + GENL_HDRLEN))
			fail_msg("request %s: headers differ", requests[i].name);
		/* libmnl 1.0.4 leaves an attribute's padding as it was */
		memset(buf, 0, sizeof(msgbuf));
		requests[i].build(&nlh, buf);
		assert_ptr_equal(nlh, buf);
		if (nlh->nlmsg_len != requests[i].len)
			fail_msg("request %s: %u bytes, want %zu", requests[i].name,
				 nlh->nlmsg_len, requests[i].len);
		for (j = 0; j < requests[i].len; j++)
			if (buf[j] != requests[i].want[j])
				fail_msg("request %s: byte %zu is 0x%02x, want 0x%02x",
					 requests[i].name, j, buf[j], requests[i].want[j]);
	}
}

/* ---------------------------------------------------------------- replies */

/* A port-get dump part: nested counters, two VLs (a multi-attr), an unknown type */
static const uint8_t port_msg[] = {
	108, 0, 0, 0, FAM, 0, NLM_F_MULTI, 0, 7, 0, 0, 0, 0x00, 0x01, 0, 0,
	IBSW_CMD_PORT_GET, 1, 0, 0,
	7, 0, IBSW_A_PORT_SWITCH_NAME, 0, 'S', '1', 0, 0,
	8, 0, IBSW_A_PORT_PORT, 0, 3, 0, 0, 0,
	24, 0, IBSW_A_PORT_COUNTERS, 0x80,
		12, 0, IBSW_A_COUNTERS_XMIT_DATA, 0, 0x00, 0x42, 0xdc, 0x06, 0x03, 0, 0, 0,
		8, 0, IBSW_A_COUNTERS_XMIT_WAIT, 0, 9, 0, 0, 0,
	20, 0, IBSW_A_PORT_VL, 0x80,
		8, 0, IBSW_A_VL_VL, 0, 0, 0, 0, 0,
		8, 0, IBSW_A_VL_BUFFER_CREDITS, 0, 64, 0, 0, 0,
	20, 0, IBSW_A_PORT_VL, 0x80,
		8, 0, IBSW_A_VL_VL, 0, 1, 0, 0, 0,
		8, 0, IBSW_A_VL_BUFFER_CREDITS, 0, 32, 0, 0, 0,
	8, 0, 200, 0, 1, 0, 0, 0,
};

/* Data messages with nothing but their genl header: ours, another request's, port's */
static const uint8_t empty_msg[] = {
	20, 0, 0, 0, FAM, 0, 0, 0, 7, 0, 0, 0, 0x00, 0x01, 0, 0, IBSW_CMD_PORT_GET, 1, 0, 0,
};

static const uint8_t other_seq_msg[] = {
	20, 0, 0, 0, FAM, 0, 0, 0, 8, 0, 0, 0, 0x00, 0x01, 0, 0, IBSW_CMD_PORT_GET, 1, 0, 0,
};

static const uint8_t other_port_msg[] = {
	20, 0, 0, 0, FAM, 0, 0, 0, 7, 0, 0, 0, 0x00, 0x02, 0, 0, IBSW_CMD_PORT_GET, 1, 0, 0,
};

/* NLMSG_ERROR 0, capped: the request's header only */
static const uint8_t ack[] = {
	36, 0, 0, 0, NLMSG_ERROR, 0, 0x00, 0x01, 7, 0, 0, 0, 0x00, 0x01, 0, 0,
	0, 0, 0, 0,
	28, 0, 0, 0, FAM, 0, 5, 0, 7, 0, 0, 0, 0, 0, 0, 0,
};

static const uint8_t done_ok[] = {
	20, 0, 0, 0, NLMSG_DONE, 0, NLM_F_MULTI, 0, 7, 0, 0, 0, 0x00, 0x01, 0, 0,
	0, 0, 0, 0,
};

/* -EINVAL, capped, with a message (its newline dropped) and a missing type */
static const uint8_t extack_err[] = {
	60, 0, 0, 0, NLMSG_ERROR, 0, 0x00, 0x03, 7, 0, 0, 0, 0x00, 0x01, 0, 0,
	0xea, 0xff, 0xff, 0xff,
	28, 0, 0, 0, FAM, 0, 5, 0, 7, 0, 0, 0, 0, 0, 0, 0,
	14, 0, NLMSGERR_ATTR_MSG, 0, 'b', 'a', 'd', ' ', 'p', 'o', 'r', 't', '\n', 0, 0, 0,
	8, 0, NLMSGERR_ATTR_MISS_TYPE, 0, 3, 0, 0, 0,
};

/* -EPERM, not capped: the request (28 bytes) comes back before the TLVs */
static const uint8_t uncapped_err[] = {
	56, 0, 0, 0, NLMSG_ERROR, 0, 0x00, 0x02, 7, 0, 0, 0, 0x00, 0x01, 0, 0,
	0xff, 0xff, 0xff, 0xff,
	28, 0, 0, 0, FAM, 0, 5, 0, 7, 0, 0, 0, 0, 0, 0, 0,
	IBSW_CMD_PORT_GET, 1, 0, 0, 8, 0, IBSW_A_PORT_PORT, 0, 3, 0, 0, 0,
	7, 0, NLMSGERR_ATTR_MSG, 0, 'n', 'o', 0, 0,
};

/* A dump that failed midway: NLMSG_DONE with -ENODEV and a message */
static const uint8_t done_err[] = {
	32, 0, 0, 0, NLMSG_DONE, 0, NLM_F_MULTI, 0x02, 7, 0, 0, 0, 0x00, 0x01, 0, 0,
	0xed, 0xff, 0xff, 0xff,
	9, 0, NLMSGERR_ATTR_MSG, 0, 'g', 'o', 'n', 'e', 0, 0, 0, 0,
};

struct part {
	const uint8_t *bytes;
	size_t len;
};

struct calls {
	unsigned int n;
	unsigned int fail_at;	/* this call (from 1) returns -ENOMEM */
};

static int count_cb(const struct nlmsghdr *nlh, void *data)
{
	struct calls *c = data;

	assert_int_equal(nlh->nlmsg_type, FAM);
	return ++c->n == c->fail_at ? -ENOMEM : 0;
}

/* What one read from the socket held, and what it must give */
static const struct {
	const char *name;
	struct part parts[4];
	unsigned int fail_at;
	bool done;
	int status;
	unsigned int calls;
	const char *ext_msg;
	uint32_t miss_type;
} replies[] = {
	{ "get", { { port_msg, sizeof(port_msg) }, { ack, sizeof(ack) } },
	  .done = true, .calls = 1, .ext_msg = "" },
	{ "dump", { { port_msg, sizeof(port_msg) }, { empty_msg, sizeof(empty_msg) },
		    { done_ok, sizeof(done_ok) } },
	  .done = true, .calls = 2, .ext_msg = "" },
	{ "part", { { port_msg, sizeof(port_msg) }, { empty_msg, sizeof(empty_msg) } },
	  .done = false, .calls = 2, .ext_msg = "" },
	{ "others", { { other_seq_msg, sizeof(other_seq_msg) },
		      { other_port_msg, sizeof(other_port_msg) },
		      { empty_msg, sizeof(empty_msg) }, { ack, sizeof(ack) } },
	  .done = true, .calls = 1, .ext_msg = "" },
	{ "cb-error", { { port_msg, sizeof(port_msg) }, { empty_msg, sizeof(empty_msg) },
			{ done_ok, sizeof(done_ok) } },
	  .fail_at = 1, .done = true, .status = -ENOMEM, .calls = 1, .ext_msg = "" },
	{ "extack", { { extack_err, sizeof(extack_err) } },
	  .done = true, .status = -EINVAL, .ext_msg = "bad port", .miss_type = 3 },
	{ "uncapped", { { uncapped_err, sizeof(uncapped_err) } },
	  .done = true, .status = -EPERM, .ext_msg = "no" },
	/* the request's error wins over the callback's */
	{ "done-error", { { port_msg, sizeof(port_msg) }, { done_err, sizeof(done_err) } },
	  .fail_at = 1, .done = true, .status = -ENODEV, .calls = 1, .ext_msg = "gone" },
	/* nothing after the end of the request is looked at */
	{ "after-end", { { ack, sizeof(ack) }, { port_msg, sizeof(port_msg) } },
	  .done = true, .ext_msg = "" },
};

static void parse_replies(void **state)
{
	struct ibsw_genl g = { .portid = PORTID };
	size_t i, j, len;
	struct calls c;
	int status;
	bool done;

	(void)state;
	little_endian_only();
	for (i = 0; i < ARRAY_SIZE(replies); i++) {
		for (j = 0, len = 0; j < ARRAY_SIZE(replies[i].parts) &&
		     replies[i].parts[j].bytes; j++) {
			memcpy((uint8_t *)msgbuf + len, replies[i].parts[j].bytes,
			       replies[i].parts[j].len);
			len += replies[i].parts[j].len;
		}
		c = (struct calls){ .fail_at = replies[i].fail_at };
		status = 0;
		g.ext_msg[0] = '\0';
		g.ext_miss_type = 0;
		done = ibsw_genl_replies(&g, msgbuf, len, SEQ, count_cb, &c, &status);
		if (done != replies[i].done || status != replies[i].status ||
		    c.n != replies[i].calls || strcmp(g.ext_msg, replies[i].ext_msg) ||
		    g.ext_miss_type != replies[i].miss_type)
			fail_msg("replies %s: done %d status %d calls %u extack \"%s\" %u",
				 replies[i].name, done, status, c.n, g.ext_msg, g.ext_miss_type);
	}
}

/* ---------------------------------------------------------------- attributes */

static const struct ibsw_attr_def counter_defs[] = {
	[IBSW_A_COUNTERS_XMIT_DATA] = { "xmit-data", IBSW_ATTR_UINT },
	[IBSW_A_COUNTERS_XMIT_WAIT] = { "xmit-wait", IBSW_ATTR_UINT },
};

static const struct ibsw_attr_set counter_set = {
	"counters", IBSW_A_COUNTERS_XMIT_WAIT, counter_defs
};

static const struct ibsw_attr_def port_defs[] = {
	[IBSW_A_PORT_SWITCH_NAME] = { "switch-name", IBSW_ATTR_STRING },
	[IBSW_A_PORT_PORT] = { "port", IBSW_ATTR_U32 },
	[IBSW_A_PORT_KIND] = { "kind", IBSW_ATTR_U32 },
	[IBSW_A_PORT_RATE] = { "rate", IBSW_ATTR_UINT },
	[IBSW_A_PORT_VL] = { "vl", IBSW_ATTR_NEST, .multi = true },
	[IBSW_A_PORT_COUNTERS] = { "counters", IBSW_ATTR_NEST, .nest = &counter_set },
};

static const struct ibsw_attr_set port_set = {
	"port", IBSW_A_PORT_COUNTERS, port_defs
};

static void parse_attrs(void **state)
{
	const struct nlattr *tb[IBSW_A_PORT_COUNTERS + 1], *ct[IBSW_A_COUNTERS_MAX + 1];
	const struct nlattr *vt[IBSW_A_VL_MAX + 1], *all[256], *attr;
	const struct nlmsghdr *nlh = aligned(port_msg, sizeof(port_msg));
	unsigned int vls = 0;
	const void *data;
	size_t len;

	(void)state;
	little_endian_only();
	assert_int_equal(ibsw_attr_parse_msg(nlh, IBSW_A_PORT_COUNTERS, &port_set, tb), 0);
	assert_null(tb[0]);
	assert_string_equal(mnl_attr_get_str(tb[IBSW_A_PORT_SWITCH_NAME]), "S1");
	assert_int_equal(ibsw_attr_uint(tb[IBSW_A_PORT_PORT]), 3);
	assert_null(tb[IBSW_A_PORT_KIND]);
	/* a multi-attr: the last one */
	assert_int_equal(ibsw_attr_parse_nest(tb[IBSW_A_PORT_VL], IBSW_A_VL_MAX, NULL, vt), 0);
	assert_int_equal(ibsw_attr_uint(vt[IBSW_A_VL_VL]), 1);
	assert_int_equal(ibsw_attr_uint(vt[IBSW_A_VL_BUFFER_CREDITS]), 32);
	assert_int_equal(ibsw_attr_parse_nest(tb[IBSW_A_PORT_COUNTERS], IBSW_A_COUNTERS_MAX,
					      &counter_set, ct), 0);
	assert_int_equal(ibsw_attr_uint(ct[IBSW_A_COUNTERS_XMIT_DATA]), 13000000000ull);
	assert_int_equal(ibsw_attr_uint(ct[IBSW_A_COUNTERS_XMIT_WAIT]), 9);

	/* walking the payload finds both VLs; type 200 is past any max */
	data = ibsw_genl_attrs(nlh, &len);
	assert_int_equal(len, 108 - 20);
	for (attr = data; ibsw_attr_ok(attr, data, len); attr = mnl_attr_next(attr))
		vls += mnl_attr_get_type(attr) == IBSW_A_PORT_VL;
	assert_int_equal(vls, 2);
	assert_int_equal(ibsw_attr_parse(data, len, 255, NULL, all), 0);
	assert_int_equal(ibsw_attr_uint(all[200]), 1);
}

/* Attribute payloads, alone, against port_set */
static const struct {
	const char *name;
	uint8_t bytes[24];
	size_t len;
	unsigned int bad;		/* the type refused, 0 if none */
	uint16_t type;			/* then tb[type] holds value, or is NULL */
	uint64_t value;
} payloads[] = {
	{ "u32-short", { 6, 0, IBSW_A_PORT_PORT, 0, 1, 0, 0, 0 }, 8, .bad = IBSW_A_PORT_PORT },
	{ "u32-long", { 12, 0, IBSW_A_PORT_PORT, 0, 1, 0, 0, 0, 0, 0, 0, 0 }, 12,
	  .bad = IBSW_A_PORT_PORT },
	{ "string-unterminated", { 6, 0, IBSW_A_PORT_SWITCH_NAME, 0, 'a', 'b', 0, 0 }, 8,
	  .bad = IBSW_A_PORT_SWITCH_NAME },
	{ "string-empty", { 4, 0, IBSW_A_PORT_SWITCH_NAME, 0 }, 4,
	  .bad = IBSW_A_PORT_SWITCH_NAME },
	{ "uint-6", { 10, 0, IBSW_A_PORT_RATE, 0, 1, 2, 3, 4, 5, 6, 0, 0 }, 12,
	  .bad = IBSW_A_PORT_RATE },
	{ "second-bad", { 8, 0, IBSW_A_PORT_PORT, 0, 1, 0, 0, 0,
			  6, 0, IBSW_A_PORT_PORT, 0, 1, 0, 0, 0 }, 16,
	  .bad = IBSW_A_PORT_PORT, .type = IBSW_A_PORT_PORT, .value = 1 },
	{ "uint-8", { 12, 0, IBSW_A_PORT_RATE, 0, 0, 0, 0, 0, 0, 1, 0, 0 }, 12,
	  .type = IBSW_A_PORT_RATE, .value = 1ull << 40 },
	{ "uint-4", { 8, 0, IBSW_A_PORT_RATE, 0, 5, 0, 0, 0 }, 8,
	  .type = IBSW_A_PORT_RATE, .value = 5 },
	/* an attribute longer than what is left ends the walk */
	{ "truncated", { 8, 0, IBSW_A_PORT_KIND, 0, 2, 0, 0, 0,
			 12, 0, IBSW_A_PORT_PORT, 0, 1, 0, 0, 0 }, 16,
	  .type = IBSW_A_PORT_KIND, .value = 2 },
	{ "truncated-tail", { 12, 0, IBSW_A_PORT_PORT, 0, 1, 0, 0, 0 }, 8,
	  .type = IBSW_A_PORT_PORT },
	{ "runt", { 8, 0, IBSW_A_PORT_KIND, 0, 2, 0, 0, 0, 3, 0 }, 10,
	  .type = IBSW_A_PORT_KIND, .value = 2 },
	{ "type-0", { 8, 0, 0, 0, 1, 0, 0, 0 }, 8, .type = 0 },
	{ "newer", { 8, 0, IBSW_A_PORT_COUNTERS + 1, 0, 1, 0, 0, 0 }, 8,
	  .type = IBSW_A_PORT_PORT },
};

static void parse_payloads(void **state)
{
	const struct nlattr *tb[IBSW_A_PORT_COUNTERS + 1], *attr;
	uint64_t copy[3];	/* aligned, as a receive buffer is */
	unsigned int bad;
	size_t i;

	(void)state;
	little_endian_only();
	for (i = 0; i < ARRAY_SIZE(payloads); i++) {
		memcpy(copy, payloads[i].bytes, sizeof(payloads[i].bytes));
		bad = ibsw_attr_parse(copy, payloads[i].len, IBSW_A_PORT_COUNTERS, &port_set, tb);
		if (bad != payloads[i].bad)
			fail_msg("payload %s: refused type %u, want %u", payloads[i].name, bad,
				 payloads[i].bad);
		attr = tb[payloads[i].type];
		if (payloads[i].value && (!attr || ibsw_attr_uint(attr) != payloads[i].value))
			fail_msg("payload %s: type %u not %llu", payloads[i].name, payloads[i].type,
				 (unsigned long long)payloads[i].value);
		if (!payloads[i].value && attr)
			fail_msg("payload %s: type %u parsed", payloads[i].name, payloads[i].type);
		/* without a set nothing is refused */
		assert_int_equal(ibsw_attr_parse(copy, payloads[i].len, IBSW_A_PORT_COUNTERS,
						 NULL, tb), 0);
	}
}

static void attr_values(void **state)
{
	static const struct {
		uint8_t bytes[12];
		uint64_t value;
	} uints[] = {
		{ { 5, 0, 1, 0, 0xfe }, 0xfe },
		{ { 6, 0, 1, 0, 0xef, 0xbe }, 0xbeef },
		{ { 8, 0, 1, 0, 0xef, 0xbe, 0xad, 0xde }, 0xdeadbeef },
		{ { 12, 0, 1, 0, 0xef, 0xcd, 0xab, 0x89, 0x67, 0x45, 0x23, 0x01 },
		  0x123456789abcdefull },
		{ { 7, 0, 1, 0, 1, 2, 3 }, 0 },
	};
	static const uint8_t long_name[] = {
		16, 0, 1, 0, 's', 'w', 'i', 't', 'c', 'h', '-', 'n', 'a', 'm', 'e', 0,
	};
	uint64_t copy[2];
	struct nlattr *a = (struct nlattr *)copy;
	char buf[8];
	size_t i;

	(void)state;
	little_endian_only();
	for (i = 0; i < ARRAY_SIZE(uints); i++) {
		memcpy(copy, uints[i].bytes, sizeof(uints[i].bytes));
		if (ibsw_attr_uint(a) != uints[i].value)
			fail_msg("uint %zu: %llu", i, (unsigned long long)ibsw_attr_uint(a));
	}

	memcpy(copy, (uint8_t[]){ 7, 0, 1, 0, 'S', '1', 0, 0 }, 8);
	ibsw_attr_strcpy(buf, sizeof(buf), a);
	assert_string_equal(buf, "S1");
	memcpy(copy, long_name, sizeof(long_name));
	ibsw_attr_strcpy(buf, 4, a);
	assert_string_equal(buf, "swi");
	/* not terminated: up to the payload's end */
	memcpy(copy, (uint8_t[]){ 6, 0, 1, 0, 'a', 'b', 'c', 'd' }, 8);
	ibsw_attr_strcpy(buf, sizeof(buf), a);
	assert_string_equal(buf, "ab");
	ibsw_attr_strcpy(buf, sizeof(buf), NULL);
	assert_string_equal(buf, "");
}

/* A message too short for its genl header has no attributes */
static void short_message(void **state)
{
	static const uint8_t msg[] = {
		18, 0, 0, 0, FAM, 0, 0, 0, 7, 0, 0, 0, 0x00, 0x01, 0, 0, 1, 1,
	};
	const struct nlmsghdr *nlh = aligned(msg, sizeof(msg));
	const struct nlattr *tb[IBSW_A_PORT_COUNTERS + 1];
	size_t len = 99;

	(void)state;
	little_endian_only();
	assert_null(ibsw_genl_attrs(nlh, &len));
	assert_int_equal(len, 0);
	memset(tb, 0xff, sizeof(tb));
	assert_int_equal(ibsw_attr_parse_msg(nlh, IBSW_A_PORT_COUNTERS, &port_set, tb), 0);
	assert_null(tb[IBSW_A_PORT_PORT]);
}

int main(void)
{
	static const struct cm_test tests[] = {
		cmocka_unit_test(build_requests),
		cmocka_unit_test(parse_replies),
		cmocka_unit_test(parse_attrs),
		cmocka_unit_test(parse_payloads),
		cmocka_unit_test(attr_values),
		cmocka_unit_test(short_message),
	};

	return run_group("genl", tests, ARRAY_SIZE(tests)) ? 1 : 0;
}
