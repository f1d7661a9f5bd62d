// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the requests ibswctl builds: each command is run against a
 * fake transport and its netlink request is parsed back with libmnl. Also
 * usage errors (exit status 2), help, abbreviations and the extack message
 * of a rejected request (exit status 1).
 */
#define _GNU_SOURCE
#include "helpers.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>

#include <linux/genetlink.h>

static struct t *setup(void)
{
	return t_new();
}

/* The only request of the last command */
static const struct nlmsghdr *only_req(struct t *t, uint8_t cmd, bool dump)
{
	const struct nlmsghdr *nlh;

	assert_int_equal(t->nreq, 1);
	nlh = t->req[0];
	assert_int_equal(t_cmd(nlh), cmd);
	assert_int_equal(((const struct genlmsghdr *)mnl_nlmsg_get_payload(nlh))->version,
			 IBSW_FAMILY_VERSION);
	assert_true(nlh->nlmsg_flags & NLM_F_REQUEST);
	assert_int_equal(!!(nlh->nlmsg_flags & NLM_F_DUMP), dump);
	return nlh;
}

static void expect_str(const struct nlmsghdr *nlh, uint16_t type, const char *val)
{
	const struct nlattr *a = t_attr(nlh, type);

	assert_non_null(a);
	assert_int_equal(mnl_attr_validate(a, MNL_TYPE_NUL_STRING), 0);
	assert_string_equal(mnl_attr_get_str(a), val);
}

static void expect_u32(const struct nlmsghdr *nlh, uint16_t type, uint32_t val)
{
	const struct nlattr *a = t_attr(nlh, type);

	assert_non_null(a);
	assert_int_equal(mnl_attr_get_payload_len(a), 4);
	assert_int_equal(mnl_attr_get_u32(a), val);
}

/* A "uint": 4 bytes when the value fits, else 8 */
static void expect_uint(const struct nlmsghdr *nlh, uint16_t type, uint64_t val)
{
	const struct nlattr *a = t_attr(nlh, type);

	assert_non_null(a);
	assert_int_equal(mnl_attr_get_payload_len(a), val > UINT32_MAX ? 8 : 4);
	assert_true(ctl_attr_uint(a) == val);
}

static void nest_u32(const struct nlattr *nest, uint16_t type, uint32_t val)
{
	const struct nlattr *a = t_nest_attr(nest, type);

	assert_non_null(a);
	assert_int_equal(mnl_attr_get_payload_len(a), 4);
	assert_int_equal(mnl_attr_get_u32(a), val);
}

/* Attributes of a request, in the order given: nothing else */
static void expect_types(const struct nlmsghdr *nlh, const uint16_t *types, size_t n)
{
	const struct nlattr *attr;
	size_t i = 0;

	mnl_attr_for_each(attr, nlh, sizeof(struct genlmsghdr)) {
		assert_true(i < n);
		assert_int_equal(mnl_attr_get_type(attr), types[i]);
		i++;
	}
	assert_int_equal(i, n);
}

/* A usage error: exit status 2, nothing sent, a message (starting so; NULL: any) */
static void expect_usage(struct t *t, const char *args, const char *msg)
{
	t_clear(t);
	assert_int_equal(t_run(t, args), 2);
	assert_int_equal(t->nreq, 0);
	if (msg)
		assert_true(!strncmp(t_err(t), msg, strlen(msg)));
	else
		assert_true(strlen(t_err(t)) > 0);
}

static void switch_add(void **state)
{
	static const uint16_t types[] = { IBSW_A_SWITCH_NAME, IBSW_A_SWITCH_NR_PORTS };
	struct t *t = setup();
	const struct nlmsghdr *nlh;
	struct nlmsghdr *r;

	(void)state;
	r = t_reply(t, IBSW_CMD_SWITCH_NEW);
	mnl_attr_put_u32(r, IBSW_A_SWITCH_ID, 7);
	mnl_attr_put_strz(r, IBSW_A_SWITCH_NAME, "S1");
	assert_int_equal(t_run(t, "switch add S1 ports 36"), 0);
	nlh = only_req(t, IBSW_CMD_SWITCH_NEW, false);
	expect_types(nlh, types, ARRAY_SIZE(types));
	expect_str(nlh, IBSW_A_SWITCH_NAME, "S1");
	expect_u32(nlh, IBSW_A_SWITCH_NR_PORTS, 36);
	assert_true(t->ctl.last_switch_id_valid);
	assert_int_equal(t->ctl.last_switch_id, 7);
	assert_string_equal(t_out(t), "");
	assert_string_equal(t_err(t), "");

	/* abbreviated */
	t_clear(t);
	assert_int_equal(t_run(t, "sw a leaf.1 p 254"), 0);
	nlh = only_req(t, IBSW_CMD_SWITCH_NEW, false);
	expect_str(nlh, IBSW_A_SWITCH_NAME, "leaf.1");
	expect_u32(nlh, IBSW_A_SWITCH_NR_PORTS, 254);

	t_clear(t);
	assert_int_equal(t_run(t, "switch add S1 ports 255"), 2);
	assert_int_equal(t->nreq, 0);
	assert_string_equal(t_err(t), "ibswctl: port count 255 out of range (1-254)\n");
	t_clear(t);
	assert_int_equal(t_run(t, "switch add S1"), 2);
	assert_int_equal(t_run(t, "switch add S1 ports"), 2);
	assert_int_equal(t_run(t, "switch add S1 pots 4"), 2);
	assert_int_equal(t_run(t, "switch add S/1 ports 4"), 2);
	assert_int_equal(t->nreq, 0);
	t_free(t);
}

static void switch_del_show(void **state)
{
	struct t *t = setup();
	const struct nlmsghdr *nlh;

	(void)state;
	assert_int_equal(t_run(t, "switch del S1"), 0);
	nlh = only_req(t, IBSW_CMD_SWITCH_DEL, false);
	expect_str(nlh, IBSW_A_SWITCH_NAME, "S1");
	assert_int_equal(t_count(nlh, IBSW_A_SWITCH_NR_PORTS), 0);

	t_clear(t);
	assert_int_equal(t_run(t, "switch show"), 0);
	nlh = only_req(t, IBSW_CMD_SWITCH_GET, true);
	assert_null(t_attr(nlh, IBSW_A_SWITCH_NAME));

	t_clear(t);
	assert_int_equal(t_run(t, "switch"), 0);
	only_req(t, IBSW_CMD_SWITCH_GET, true);

	t_clear(t);
	assert_int_equal(t_run(t, "switch show S2"), 0);
	nlh = only_req(t, IBSW_CMD_SWITCH_GET, false);
	expect_str(nlh, IBSW_A_SWITCH_NAME, "S2");

	t_clear(t);
	assert_int_equal(t_run(t, "switch show S1 S2"), 2);
	assert_int_equal(t_run(t, "switch del"), 2);
	assert_int_equal(t->nreq, 0);
	t_free(t);
}

static void port_show(void **state)
{
	struct t *t = setup();
	const struct nlmsghdr *nlh;

	(void)state;
	assert_int_equal(t_run(t, "port show"), 0);
	nlh = only_req(t, IBSW_CMD_PORT_GET, true);
	assert_null(t_attr(nlh, IBSW_A_PORT_SWITCH_NAME));

	t_clear(t);
	assert_int_equal(t_run(t, "port show S1"), 0);
	nlh = only_req(t, IBSW_CMD_PORT_GET, true);
	expect_str(nlh, IBSW_A_PORT_SWITCH_NAME, "S1");
	assert_null(t_attr(nlh, IBSW_A_PORT_PORT));

	t_clear(t);
	assert_int_equal(t_run(t, "-d port sh S1/12"), 0);
	nlh = only_req(t, IBSW_CMD_PORT_GET, false);
	expect_str(nlh, IBSW_A_PORT_SWITCH_NAME, "S1");
	expect_u32(nlh, IBSW_A_PORT_PORT, 12);
	t_free(t);
}

static void port_set_all(void **state)
{
	static const uint16_t types[] = {
		IBSW_A_PORT_SWITCH_NAME, IBSW_A_PORT_PORT, IBSW_A_PORT_WIDTH, IBSW_A_PORT_SPEED,
		IBSW_A_PORT_NR_VLS, IBSW_A_PORT_LID, IBSW_A_PORT_VL, IBSW_A_PORT_VL,
		IBSW_A_PORT_VLARB_HIGH, IBSW_A_PORT_VLARB_HIGH, IBSW_A_PORT_VLARB_LOW,
		IBSW_A_PORT_VLARB_HIGH_LIMIT, IBSW_A_PORT_SL2VL, IBSW_A_PORT_SL2VL,
	};
	static const uint8_t map1[16] = { 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 15 };
	static const uint8_t map2[16] = { 0 };
	struct t *t = setup();
	const struct nlmsghdr *nlh;
	const struct nlattr *n;

	(void)state;
	assert_int_equal(t_run(t, "port set S1/3 rate 4xQDR vls 4 lid 5 buffer 0:100,2:200\n"
			       "vlarb-high 0:1,1:2 vlarb-low none vlarb-limit 10\n"
			       "sl2vl in 2 0,1,2,3,0,1,2,3,0,1,2,3,0,1,2,15\n"
			       "sl2vl 0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0"), 0);
	nlh = only_req(t, IBSW_CMD_PORT_SET, false);
	expect_types(nlh, types, ARRAY_SIZE(types));
	expect_str(nlh, IBSW_A_PORT_SWITCH_NAME, "S1");
	expect_u32(nlh, IBSW_A_PORT_PORT, 3);
	expect_u32(nlh, IBSW_A_PORT_WIDTH, IBSW_LINK_WIDTH_4X);
	expect_u32(nlh, IBSW_A_PORT_SPEED, IBSW_LINK_SPEED_QDR);
	expect_u32(nlh, IBSW_A_PORT_NR_VLS, 4);
	expect_u32(nlh, IBSW_A_PORT_LID, 5);
	n = t_nth(nlh, IBSW_A_PORT_VL, 0);
	nest_u32(n, IBSW_A_VL_VL, 0);
	nest_u32(n, IBSW_A_VL_BUFFER_CREDITS, 100);
	n = t_nth(nlh, IBSW_A_PORT_VL, 1);
	nest_u32(n, IBSW_A_VL_VL, 2);
	nest_u32(n, IBSW_A_VL_BUFFER_CREDITS, 200);
	n = t_nth(nlh, IBSW_A_PORT_VLARB_HIGH, 0);
	nest_u32(n, IBSW_A_VLARB_ENTRY_VL, 0);
	nest_u32(n, IBSW_A_VLARB_ENTRY_WEIGHT, 1);
	n = t_nth(nlh, IBSW_A_PORT_VLARB_HIGH, 1);
	nest_u32(n, IBSW_A_VLARB_ENTRY_VL, 1);
	nest_u32(n, IBSW_A_VLARB_ENTRY_WEIGHT, 2);
	/* "none": one empty nest */
	n = t_attr(nlh, IBSW_A_PORT_VLARB_LOW);
	assert_int_equal(mnl_attr_get_payload_len(n), 0);
	expect_u32(nlh, IBSW_A_PORT_VLARB_HIGH_LIMIT, 10);
	n = t_nth(nlh, IBSW_A_PORT_SL2VL, 0);
	nest_u32(n, IBSW_A_SL2VL_IN_PORT, 2);
	assert_int_equal(mnl_attr_get_payload_len(t_nest_attr(n, IBSW_A_SL2VL_MAP)), 16);
	assert_memory_equal(mnl_attr_get_payload(t_nest_attr(n, IBSW_A_SL2VL_MAP)), map1, 16);
	n = t_nth(nlh, IBSW_A_PORT_SL2VL, 1);
	assert_null(t_nest_attr(n, IBSW_A_SL2VL_IN_PORT));
	assert_memory_equal(mnl_attr_get_payload(t_nest_attr(n, IBSW_A_SL2VL_MAP)), map2, 16);
	t_free(t);
}

static void port_set_each(void **state)
{
	struct t *t = setup();
	const struct nlmsghdr *nlh;
	unsigned int i;

	(void)state;
	assert_int_equal(t_run(t, "port set S1/3 buffer 130"), 0);
	nlh = only_req(t, IBSW_CMD_PORT_SET, false);
	assert_int_equal(t_count(nlh, IBSW_A_PORT_VL), IBSW_NR_DATA_VLS);
	for (i = 0; i < IBSW_NR_DATA_VLS; i++) {
		nest_u32(t_nth(nlh, IBSW_A_PORT_VL, i), IBSW_A_VL_VL, i);
		nest_u32(t_nth(nlh, IBSW_A_PORT_VL, i), IBSW_A_VL_BUFFER_CREDITS, 130);
	}
	assert_null(t_attr(nlh, IBSW_A_PORT_WIDTH));

	t_clear(t);
	assert_int_equal(t_run(t, "port set S1/3 speed edr"), 0);
	nlh = only_req(t, IBSW_CMD_PORT_SET, false);
	expect_u32(nlh, IBSW_A_PORT_SPEED, IBSW_LINK_SPEED_EDR);
	assert_null(t_attr(nlh, IBSW_A_PORT_WIDTH));

	t_clear(t);
	assert_int_equal(t_run(t, "port set S1/3 width 1x vlarb-high none"), 0);
	nlh = only_req(t, IBSW_CMD_PORT_SET, false);
	expect_u32(nlh, IBSW_A_PORT_WIDTH, IBSW_LINK_WIDTH_1X);
	assert_int_equal(t_count(nlh, IBSW_A_PORT_VLARB_HIGH), 1);
	assert_int_equal(t_count(nlh, IBSW_A_PORT_VLARB_LOW), 0);

	t_clear(t);
	assert_int_equal(t_run(t, "port set S1/3 lid 0"), 0);
	expect_u32(only_req(t, IBSW_CMD_PORT_SET, false), IBSW_A_PORT_LID, 0);

	/* HOQLife alone is something to set */
	t_clear(t);
	assert_int_equal(t_run(t, "port set S1/3 hoq-life 4"), 0);
	nlh = only_req(t, IBSW_CMD_PORT_SET, false);
	expect_u32(nlh, IBSW_A_PORT_HOQ_LIFE, 4);
	assert_null(t_attr(nlh, IBSW_A_PORT_WIDTH));
	t_clear(t);
	assert_int_equal(t_run(t, "port set S1/3 hoq-life 31"), 0);
	expect_u32(only_req(t, IBSW_CMD_PORT_SET, false), IBSW_A_PORT_HOQ_LIFE, 31);
	t_free(t);
}

/*
 * A host port's HCA injection rate, in port set and host add: bit/s with
 * an optional k, M or G, 0 the default; 8 bytes above 2^32 - 1.
 */
static void hca_rates(void **state)
{
	static const uint16_t types[] = {
		IBSW_A_PORT_SWITCH_NAME, IBSW_A_PORT_PORT, IBSW_A_PORT_HCA_RATE,
	};
	static const struct {
		const char *args;
		uint8_t cmd;
		uint64_t bps;
	} cases[] = {
		{ "port set S1/3 hca-rate 13G", IBSW_CMD_PORT_SET, 13000000000ULL },
		{ "port set S1/3 hca-rate 1625M", IBSW_CMD_PORT_SET, 1625000000 },
		{ "port set S1/3 hca-rate 0", IBSW_CMD_PORT_SET, 0 },
		{ "host add S1/3 hca-rate 13000000000", IBSW_CMD_HOST_NEW, 13000000000ULL },
		{ "host add S1/3 hca-rate 7900M", IBSW_CMD_HOST_NEW, 7900000000ULL },
		{ "host add S1/3 hca 0", IBSW_CMD_HOST_NEW, 0 },
	};
	struct t *t = setup();
	const struct nlmsghdr *nlh;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		t_clear(t);
		assert_int_equal(t_run(t, cases[i].args), 0);
		nlh = only_req(t, cases[i].cmd, false);
		expect_types(nlh, types, ARRAY_SIZE(types));
		expect_str(nlh, IBSW_A_PORT_SWITCH_NAME, "S1");
		expect_u32(nlh, IBSW_A_PORT_PORT, 3);
		expect_uint(nlh, IBSW_A_PORT_HCA_RATE, cases[i].bps);
	}
	/* after the link rate */
	t_clear(t);
	assert_int_equal(t_run(t, "host add S1/2 hca-rate 13G rate 4xDDR"), 0);
	nlh = only_req(t, IBSW_CMD_HOST_NEW, false);
	assert_non_null(t_attr(nlh, IBSW_A_PORT_SPEED));
	assert_true(t_attr(nlh, IBSW_A_PORT_HCA_RATE) > t_attr(nlh, IBSW_A_PORT_SPEED));
	t_free(t);
}

static void port_set_errors(void **state)
{
	static const struct {
		const char *args, *msg;
	} cases[] = {
		{ "port set S1/3", "ibswctl: port set: nothing to set\n" },
		{ "port set S1", "ibswctl: bad port \"S1\": expected SWITCH/PORT, e.g. S1/3\n" },
		{ "port set S1/3 vls", "ibswctl: port set: \"vls\" needs a value\n" },
		{ "port set S1/3 vls 0", "ibswctl: VL count 0 out of range (1-15)\n" },
		{ "port set S1/3 vls 16", "ibswctl: VL count 16 out of range (1-15)\n" },
		{ "port set S1/3 lid 49152", "ibswctl: LID 49152 out of range (0-49151)\n" },
		{ "port set S1/3 vlarb-limit 256",
		  "ibswctl: vlarb-limit 256 out of range (0-255)\n" },
		{ "port set S1/3 rate 4xQD", NULL },
		{ "port set S1/3 sl2vl in 2",
		  "ibswctl: port set: expected sl2vl in PORT VL,VL,...\n" },
		{ "port set S1/3 sl2vl in 255 0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0",
		  "ibswctl: sl2vl input port 255 out of range (0-254)\n" },
		{ "port set S1/3 sl2vl 0,0", NULL },
		{ "port set S1/3 frobnicate 1", NULL },
		{ "port set S1/3 vlarb-low 0:1,15:1", "ibswctl: VL 15 out of range (0-14)\n" },
		{ "port set S1/3 hca-rate", "ibswctl: port set: \"hca-rate\" needs a value\n" },
		{ "port set S1/3 hca-rate 13Gb", "ibswctl: bad HCA rate \"13Gb\": expected bit/s" },
		{ "port set S1/3 hca-rate 2000G",
		  "ibswctl: HCA rate 2000G out of range (0-1200G)\n" },
		{ "port set S1/3 hoq-life 32", "ibswctl: hoq-life 32 out of range (0-31)\n" },
		{ "port set S1/3 hoq-life", "ibswctl: port set: \"hoq-life\" needs a value\n" },
	};
	struct t *t = setup();
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		expect_usage(t, cases[i].args, cases[i].msg);
	t_free(t);
}

static void links(void **state)
{
	static const uint16_t types[] = {
		IBSW_A_PORT_SWITCH_NAME, IBSW_A_PORT_PORT, IBSW_A_PORT_PEER_SWITCH_NAME,
		IBSW_A_PORT_PEER_PORT, IBSW_A_PORT_WIDTH, IBSW_A_PORT_SPEED,
	};
	struct t *t = setup();
	const struct nlmsghdr *nlh;

	(void)state;
	assert_int_equal(t_run(t, "link add S1/4 S2/5 rate 4xQDR"), 0);
	nlh = only_req(t, IBSW_CMD_LINK_NEW, false);
	expect_types(nlh, types, ARRAY_SIZE(types));
	expect_str(nlh, IBSW_A_PORT_SWITCH_NAME, "S1");
	expect_u32(nlh, IBSW_A_PORT_PORT, 4);
	expect_str(nlh, IBSW_A_PORT_PEER_SWITCH_NAME, "S2");
	expect_u32(nlh, IBSW_A_PORT_PEER_PORT, 5);
	expect_u32(nlh, IBSW_A_PORT_WIDTH, IBSW_LINK_WIDTH_4X);
	expect_u32(nlh, IBSW_A_PORT_SPEED, IBSW_LINK_SPEED_QDR);

	t_clear(t);
	assert_int_equal(t_run(t, "link add S1/1 S1/2"), 0);
	nlh = only_req(t, IBSW_CMD_LINK_NEW, false);
	expect_types(nlh, types, 4);

	t_clear(t);
	assert_int_equal(t_run(t, "link del S1/4"), 0);
	nlh = only_req(t, IBSW_CMD_LINK_DEL, false);
	expect_types(nlh, types, 2);
	expect_str(nlh, IBSW_A_PORT_SWITCH_NAME, "S1");
	expect_u32(nlh, IBSW_A_PORT_PORT, 4);

	t_clear(t);
	assert_int_equal(t_run(t, "link add S1/4"), 2);
	assert_int_equal(t_run(t, "link add S1/4 S2"), 2);
	assert_int_equal(t_run(t, "link add S1/4 S2/1 rate"), 2);
	assert_int_equal(t_run(t, "link add S1/4 S2/1 width 4x"), 2);
	assert_int_equal(t_run(t, "link del S1"), 2);
	assert_int_equal(t_run(t, "link del S1/1 S1/2"), 2);
	assert_int_equal(t_run(t, "link"), 2);
	assert_int_equal(t->nreq, 0);
	t_free(t);
}

static void hosts(void **state)
{
	static const uint16_t types[] = {
		IBSW_A_PORT_SWITCH_NAME, IBSW_A_PORT_PORT, IBSW_A_PORT_IFNAME, IBSW_A_PORT_NETNS_FD,
		IBSW_A_PORT_MAC, IBSW_A_PORT_LID, IBSW_A_PORT_WIDTH, IBSW_A_PORT_SPEED,
	};
	static const uint8_t mac[6] = { 2, 0x1b, 0, 0, 0, 3 };
	struct t *t = setup();
	const struct nlmsghdr *nlh;
	const struct nlattr *a;

	(void)state;
	assert_int_equal(t_run(t, "host add S1/1 name ib0 netns H1 mac 02:1b:00:00:00:03\n"
			       "lid 3 rate 4xDDR"), 0);
	nlh = only_req(t, IBSW_CMD_HOST_NEW, false);
	expect_types(nlh, types, ARRAY_SIZE(types));
	expect_str(nlh, IBSW_A_PORT_IFNAME, "ib0");
	a = t_attr(nlh, IBSW_A_PORT_NETNS_FD);
	assert_int_equal(mnl_attr_get_payload_len(a), 4);
	assert_true((int32_t)mnl_attr_get_u32(a) >= 0);
	a = t_attr(nlh, IBSW_A_PORT_MAC);
	assert_int_equal(mnl_attr_get_payload_len(a), 6);
	assert_memory_equal(mnl_attr_get_payload(a), mac, 6);
	expect_u32(nlh, IBSW_A_PORT_LID, 3);
	expect_u32(nlh, IBSW_A_PORT_SPEED, IBSW_LINK_SPEED_DDR);

	t_clear(t);
	assert_int_equal(t_run(t, "host add S1/2 pid 1234"), 0);
	nlh = only_req(t, IBSW_CMD_HOST_NEW, false);
	expect_u32(nlh, IBSW_A_PORT_NETNS_PID, 1234);
	assert_null(t_attr(nlh, IBSW_A_PORT_NETNS_FD));
	assert_null(t_attr(nlh, IBSW_A_PORT_IFNAME));
	assert_null(t_attr(nlh, IBSW_A_PORT_MAC));

	t_clear(t);
	assert_int_equal(t_run(t, "host add S1/2"), 0);
	nlh = only_req(t, IBSW_CMD_HOST_NEW, false);
	expect_types(nlh, types, 2);

	t_clear(t);
	assert_int_equal(t_run(t, "host del S1/2"), 0);
	nlh = only_req(t, IBSW_CMD_HOST_DEL, false);
	expect_types(nlh, types, 2);

	t_clear(t);
	assert_int_equal(t_run(t, "host add S1/2 netns missing"), 1);
	assert_int_equal(t->nreq, 0);
	assert_string_equal(t_err(t),
			    "ibswctl: host add: network namespace \"missing\": No such file or directory\n");
	t_clear(t);
	assert_int_equal(t_run(t, "host add S1/2 netns H1 pid 1"), 2);
	assert_string_equal(t_err(t), "ibswctl: host add: netns and pid exclude each other\n");
	assert_int_equal(t_run(t, "host add S1/2 name ib0123456789abcd"), 2);
	assert_int_equal(t_run(t, "host add S1/2 name a/b"), 2);
	assert_int_equal(t_run(t, "host add S1/2 mac 01:00:00:00:00:00"), 2);
	assert_int_equal(t_run(t, "host add S1/2 lid 49152"), 2);
	assert_int_equal(t_run(t, "host add S1/2 pid 0"), 2);
	assert_int_equal(t_run(t, "host add S1/2 name"), 2);
	assert_int_equal(t_run(t, "host del S1"), 2);
	assert_int_equal(t->nreq, 0);
	expect_usage(t, "host add S1/2 hca-rate 4xDDR", "ibswctl: bad HCA rate \"4xDDR\": ");
	expect_usage(t, "host add S1/2 hca-rate 1201G",
		     "ibswctl: HCA rate 1201G out of range (0-1200G)\n");
	assert_int_equal(t->nreq, 0);
	t_free(t);
}

/* remote add and del: a port cabled to a switch port of another kernel */
static void remotes(void **state)
{
	static const uint16_t types[] = {
		IBSW_A_PORT_SWITCH_NAME, IBSW_A_PORT_PORT, IBSW_A_PORT_IFNAME,
		IBSW_A_PORT_REMOTE_ID, IBSW_A_PORT_MAC, IBSW_A_PORT_WIDTH, IBSW_A_PORT_SPEED,
	};
	static const uint16_t no_mac[] = {
		IBSW_A_PORT_SWITCH_NAME, IBSW_A_PORT_PORT, IBSW_A_PORT_IFNAME,
		IBSW_A_PORT_REMOTE_ID, IBSW_A_PORT_WIDTH, IBSW_A_PORT_SPEED,
	};
	static const uint8_t mac[6] = { 0x02, 0x1b, 0x00, 0x00, 0xab, 0xcd };
	struct t *t = setup();
	const struct nlmsghdr *nlh;
	const struct nlattr *a;

	(void)state;
	assert_int_equal(t_run(t, "remote add S1/3 dev eth1 id 42 mac 02:1b:00:00:AB:cd\n"
			       "rate 4xQDR"), 0);
	nlh = only_req(t, IBSW_CMD_REMOTE_NEW, false);
	expect_types(nlh, types, ARRAY_SIZE(types));
	expect_str(nlh, IBSW_A_PORT_SWITCH_NAME, "S1");
	expect_u32(nlh, IBSW_A_PORT_PORT, 3);
	expect_str(nlh, IBSW_A_PORT_IFNAME, "eth1");
	expect_u32(nlh, IBSW_A_PORT_REMOTE_ID, 42);
	a = t_attr(nlh, IBSW_A_PORT_MAC);
	assert_int_equal(mnl_attr_get_payload_len(a), 6);
	assert_memory_equal(mnl_attr_get_payload(a), mac, 6);
	expect_u32(nlh, IBSW_A_PORT_WIDTH, IBSW_LINK_WIDTH_4X);
	expect_u32(nlh, IBSW_A_PORT_SPEED, IBSW_LINK_SPEED_QDR);
	assert_string_equal(t_out(t), "");
	assert_string_equal(t_err(t), "");

	/* the port as two words: the same request */
	t_clear(t);
	assert_int_equal(t_run(t, "remote add S1 3 dev eth1 id 42 mac 02:1b:00:00:ab:cd\n"
			       "rate 4xQDR"), 0);
	nlh = only_req(t, IBSW_CMD_REMOTE_NEW, false);
	expect_types(nlh, types, ARRAY_SIZE(types));
	expect_str(nlh, IBSW_A_PORT_SWITCH_NAME, "S1");
	expect_u32(nlh, IBSW_A_PORT_PORT, 3);
	expect_str(nlh, IBSW_A_PORT_IFNAME, "eth1");
	expect_u32(nlh, IBSW_A_PORT_REMOTE_ID, 42);
	assert_memory_equal(mnl_attr_get_payload(t_attr(nlh, IBSW_A_PORT_MAC)), mac, 6);

	/* any order; without mac the kernel learns it */
	t_clear(t);
	assert_int_equal(t_run(t, "remote add leaf.1/254 rate 12xNDR id 4294967295\n"
			       "dev vxlan-ib"), 0);
	nlh = only_req(t, IBSW_CMD_REMOTE_NEW, false);
	expect_types(nlh, no_mac, ARRAY_SIZE(no_mac));
	expect_str(nlh, IBSW_A_PORT_SWITCH_NAME, "leaf.1");
	expect_u32(nlh, IBSW_A_PORT_PORT, 254);
	expect_str(nlh, IBSW_A_PORT_IFNAME, "vxlan-ib");
	expect_u32(nlh, IBSW_A_PORT_REMOTE_ID, UINT32_MAX);
	expect_u32(nlh, IBSW_A_PORT_WIDTH, IBSW_LINK_WIDTH_12X);
	expect_u32(nlh, IBSW_A_PORT_SPEED, IBSW_LINK_SPEED_NDR);

	/* the least: no mac, no rate (the port's own); id 0 is an id; abbreviated */
	t_clear(t);
	assert_int_equal(t_run(t, "rem a S2/1 d gretap1 i 0"), 0);
	nlh = only_req(t, IBSW_CMD_REMOTE_NEW, false);
	expect_types(nlh, types, 4);
	expect_str(nlh, IBSW_A_PORT_IFNAME, "gretap1");
	expect_u32(nlh, IBSW_A_PORT_REMOTE_ID, 0);
	assert_null(t_attr(nlh, IBSW_A_PORT_MAC));
	assert_null(t_attr(nlh, IBSW_A_PORT_WIDTH));
	assert_null(t_attr(nlh, IBSW_A_PORT_SPEED));
	t_clear(t);
	assert_int_equal(t_run(t, "remote add S2/1 dev eth1 id 0x10 mac 52:54:00:12:34:56"), 0);
	nlh = only_req(t, IBSW_CMD_REMOTE_NEW, false);
	expect_types(nlh, types, 5);
	expect_u32(nlh, IBSW_A_PORT_REMOTE_ID, 16);

	t_clear(t);
	assert_int_equal(t_run(t, "remote del S1/3"), 0);
	nlh = only_req(t, IBSW_CMD_REMOTE_DEL, false);
	expect_types(nlh, types, 2);
	expect_str(nlh, IBSW_A_PORT_SWITCH_NAME, "S1");
	expect_u32(nlh, IBSW_A_PORT_PORT, 3);
	t_clear(t);
	assert_int_equal(t_run(t, "remote delete S1/4"), 0);
	expect_u32(only_req(t, IBSW_CMD_REMOTE_DEL, false), IBSW_A_PORT_PORT, 4);
	t_clear(t);
	assert_int_equal(t_run(t, "remote del S2 5"), 0);
	nlh = only_req(t, IBSW_CMD_REMOTE_DEL, false);
	expect_types(nlh, types, 2);
	expect_str(nlh, IBSW_A_PORT_SWITCH_NAME, "S2");
	expect_u32(nlh, IBSW_A_PORT_PORT, 5);
	t_free(t);
}

#define RMT_MTU	"eth1 has MTU 1500; a remote link needs 4232"
#define RMT_ID	"link 42 on eth1 is S2 port 1's"
#define RMT_KIND	"port 5 of S1 is not a remote port"

static void remote_errors(void **state)
{
	static const struct {
		const char *args, *msg;
	} bad[] = {
		{ "remote", NULL },
		{ "remote add", "ibswctl: remote add: expected SW/PORT dev IFNAME id ID\n" },
		{ "remote add S1/3", "ibswctl: remote add: missing dev IFNAME and id ID\n" },
		{ "remote add S1/3 id 42", "ibswctl: remote add: missing dev IFNAME\n" },
		{ "remote add S1/3 id 42 mac 02:1b:00:00:00:01 rate 4xQDR",
		  "ibswctl: remote add: missing dev IFNAME\n" },
		{ "remote add S1/3 dev eth1", "ibswctl: remote add: missing id ID\n" },
		{ "remote add S1/3 dev eth1 mac 02:1b:00:00:00:01",
		  "ibswctl: remote add: missing id ID\n" },
		{ "remote add S1/3 dev eth1 id", "ibswctl: remote add: \"id\" needs a value\n" },
		{ "remote add S1/3 dev", "ibswctl: remote add: \"dev\" needs a value\n" },
		{ "remote add S1/3 dev eth1 id x",
		  "ibswctl: bad remote link id \"x\": expected a number\n" },
		{ "remote add S1/3 dev eth1 id -1",
		  "ibswctl: bad remote link id \"-1\": expected a number\n" },
		{ "remote add S1/3 dev eth1 id 42k",
		  "ibswctl: bad remote link id \"42k\": expected a number\n" },
		{ "remote add S1/3 dev eth1 id 4294967296",
		  "ibswctl: remote link id 4294967296 out of range (0-4294967295)\n" },
		{ "remote add S1/3 dev eth1 id 42 mac 02:1b:00:00:00",
		  "ibswctl: bad MAC address \"02:1b:00:00:00\": expected xx:xx:xx:xx:xx:xx\n" },
		{ "remote add S1/3 dev eth1 id 42 mac 02-1b-00-00-00-01",
		  "ibswctl: bad MAC address \"02-1b-00-00-00-01\": expected xx:xx:xx:xx:xx:xx\n" },
		{ "remote add S1/3 dev eth1 id 42 mac ff:ff:ff:ff:ff:ff",
		  "ibswctl: bad MAC address \"ff:ff:ff:ff:ff:ff\": a multicast address\n" },
		{ "remote add S1/3 dev eth1 id 42 mac 00:00:00:00:00:00",
		  "ibswctl: bad MAC address \"00:00:00:00:00:00\": the zero address\n" },
		{ "remote add S1/3 dev eth1 id 42 frob 1",
		  "ibswctl: remote add: unknown argument \"frob\"\n" },
		{ "remote add S1/3 dev eth1 id 42 frob",
		  "ibswctl: remote add: unknown argument \"frob\"\n" },
		{ "remote add S1 3 dev eth1 id 42 ifname eth2",
		  "ibswctl: remote add: unknown argument \"ifname\"\n" },
		{ "remote add S1/3 dev eth1 id 42 width 4x",
		  "ibswctl: remote add: unknown argument \"width\"\n" },
		{ "remote add S1/3 dev eth1 id 42 rate 4xQD", "ibswctl: bad link rate \"4xQD\"" },
		{ "remote add S1/3 dev eth0123456789abc id 42",
		  "ibswctl: bad interface name \"eth0123456789abc\": 1 to 15 characters" },
		{ "remote add S1/3 dev eth1:0 id 42", "ibswctl: bad interface name \"eth1:0\"" },
		{ "remote add S1/3 dev a/b id 42", "ibswctl: bad interface name \"a/b\"" },
		{ "remote add S1 dev eth1 id 42",
		  "ibswctl: bad port number \"dev\": expected a number\n" },
		{ "remote add S1", "ibswctl: remote add: expected SW/PORT or SW PORT\n" },
		{ "remote add S1/0 dev eth1 id 42",
		  "ibswctl: port number 0 out of range (1-254)\n" },
		{ "remote add S1 255 dev eth1 id 42",
		  "ibswctl: port number 255 out of range (1-254)\n" },
		{ "remote add S/1 3 dev eth1 id 42",
		  "ibswctl: remote add: unknown argument \"3\"\n" },
		{ "remote add S:1 3 dev eth1", "ibswctl: remote add: missing id ID\n" },
		{ "remote add S!1 3 dev eth1 id 42", "ibswctl: bad switch name \"S!1\"" },
		{ "remote add dev eth1 id 42",
		  "ibswctl: bad port number \"eth1\": expected a number\n" },
		{ "remote del", "ibswctl: remote del: expected SW/PORT or SW PORT\n" },
		{ "remote del S1", "ibswctl: remote del: expected SW/PORT or SW PORT\n" },
		{ "remote del S1 x", "ibswctl: bad port number \"x\": expected a number\n" },
		{ "remote del S1/3 S1/4", "ibswctl: remote del: unexpected argument \"S1/4\"\n" },
		{ "remote del S1 3 4", "ibswctl: remote del: unexpected argument \"4\"\n" },
		{ "remote frob S1/3",
		  "ibswctl: unknown command \"frob\" for object remote; try \"ibswctl remote" },
	};
	struct t *t = setup();
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		t_clear(t);
		if (t_run(t, bad[i].args) != 2 || t->nreq ||
		    (bad[i].msg && strncmp(t_err(t), bad[i].msg, strlen(bad[i].msg))))
			fail_msg("\"%s\": exit status 2, no request and \"%s\" expected; got:\n%s",
				 bad[i].args, bad[i].msg ? bad[i].msg : "", t_err(t));
	}
	/* a word out of place says what is expected */
	t_clear(t);
	assert_int_equal(t_run(t, "remote add S1/3 dev eth1"), 2);
	assert_non_null(strstr(t_err(t), "Usage: ibswctl remote add SW/PORT dev IFNAME id ID"));

	/* the kernel's refusal: its extack, exit status 1 */
	t_clear(t);
	t->fail_err = -EINVAL;
	t->fail_msg = RMT_MTU;
	assert_int_equal(t_run(t, "remote add S1/3 dev eth1 id 42"), 1);
	assert_int_equal(t->nreq, 1);
	assert_string_equal(t_err(t), "ibswctl: remote add S1/3: " RMT_MTU " (Invalid argument)\n");
	t_clear(t);
	t->fail_err = -EEXIST;
	t->fail_msg = RMT_ID;
	assert_int_equal(t_run(t, "remote add S1/3 dev eth1 id 42"), 1);
	assert_string_equal(t_err(t), "ibswctl: remote add S1/3: " RMT_ID " (File exists)\n");
	t_clear(t);
	t->fail_err = -ENODEV;
	t->fail_msg = NULL;
	assert_int_equal(t_run(t, "remote add S1/3 dev eth9 id 42"), 1);
	assert_string_equal(t_err(t), "ibswctl: remote add S1/3: No such device\n");
	t_clear(t);
	t->fail_err = -ENOENT;
	assert_int_equal(t_run(t, "remote del S1/3"), 1);
	assert_string_equal(t_err(t), "ibswctl: remote del S1/3: No such file or directory\n");
	t_clear(t);
	t->fail_err = -EINVAL;
	t->fail_msg = RMT_KIND;
	assert_int_equal(t_run(t, "remote del S1 5"), 1);
	assert_string_equal(t_err(t),
			    "ibswctl: remote del S1/5: " RMT_KIND " (Invalid argument)\n");
	t_free(t);
}

static void lfts(void **state)
{
	static const uint8_t want[] = { 255, 255, 255, 1, 2, 255, 254 };
	struct t *t = setup();
	const struct nlmsghdr *nlh;
	const struct nlattr *a;
	char *big, *p;
	unsigned int lid;

	(void)state;
	assert_int_equal(t_run(t, "lft set S1 3:1,4:2,6:254"), 0);
	nlh = only_req(t, IBSW_CMD_LFT_SET, false);
	expect_str(nlh, IBSW_A_SWITCH_NAME, "S1");
	a = t_attr(nlh, IBSW_A_SWITCH_LFT);
	assert_int_equal(mnl_attr_get_payload_len(a), sizeof(want));
	assert_memory_equal(mnl_attr_get_payload(a), want, sizeof(want));

	/* the largest table: 0xc000 bytes */
	t_clear(t);
	big = malloc(IBSW_LID_UNICAST_MAX * 12 + 32);
	assert_non_null(big);
	p = big + sprintf(big, "lft set S1 ");
	for (lid = 1; lid <= IBSW_LID_UNICAST_MAX; lid++)
		p += sprintf(p, "%s%u:%u", lid > 1 ? "," : "", lid, lid % 254 + 1);
	assert_int_equal(t_run(t, big), 0);
	free(big);
	nlh = only_req(t, IBSW_CMD_LFT_SET, false);
	a = t_attr(nlh, IBSW_A_SWITCH_LFT);
	assert_int_equal(mnl_attr_get_payload_len(a), 0xc000);
	assert_int_equal(((const uint8_t *)mnl_attr_get_payload(a))[0xbfff], 0xbfff % 254 + 1);

	t_clear(t);
	assert_int_equal(t_run(t, "lft show S1"), 0);
	nlh = only_req(t, IBSW_CMD_LFT_GET, false);
	expect_str(nlh, IBSW_A_SWITCH_NAME, "S1");

	t_clear(t);
	assert_int_equal(t_run(t, "lft set S1"), 2);
	assert_int_equal(t_run(t, "lft set S1 3"), 2);
	assert_int_equal(t_run(t, "lft show"), 2);
	assert_int_equal(t_run(t, "lft"), 2);
	assert_int_equal(t->nreq, 0);
	t_free(t);
}

static void addrs(void **state)
{
	static const uint8_t v4[16] = { [10] = 0xff, [11] = 0xff, 10, 0, 0, 3 };
	static const uint8_t v6[16] = { 0xfd, 0, 0, 0x1b, [15] = 3 };
	struct t *t = setup();
	const struct nlmsghdr *nlh;
	const struct nlattr *n, *a;

	(void)state;
	assert_int_equal(t_run(t, "addr set 10.0.0.3=3 fd00:1b::3=3 ::ffff:10.0.0.4=4"), 0);
	nlh = only_req(t, IBSW_CMD_ADDR_SET, false);
	assert_int_equal(t_count(nlh, IBSW_A_FABRIC_ADDR), 3);
	n = t_nth(nlh, IBSW_A_FABRIC_ADDR, 0);
	a = t_nest_attr(n, IBSW_A_ADDR_IP);
	assert_int_equal(mnl_attr_get_payload_len(a), 16);
	assert_memory_equal(mnl_attr_get_payload(a), v4, 16);
	nest_u32(n, IBSW_A_ADDR_LID, 3);
	n = t_nth(nlh, IBSW_A_FABRIC_ADDR, 1);
	assert_memory_equal(mnl_attr_get_payload(t_nest_attr(n, IBSW_A_ADDR_IP)), v6, 16);
	n = t_nth(nlh, IBSW_A_FABRIC_ADDR, 2);
	nest_u32(n, IBSW_A_ADDR_LID, 4);

	t_clear(t);
	assert_int_equal(t_run(t, "addr set"), 0);
	nlh = only_req(t, IBSW_CMD_ADDR_SET, false);
	assert_int_equal(t_count(nlh, IBSW_A_FABRIC_ADDR), 0);

	t_clear(t);
	assert_int_equal(t_run(t, "addr show"), 0);
	only_req(t, IBSW_CMD_ADDR_GET, true);

	t_clear(t);
	assert_int_equal(t_run(t, "addr set 10.0.0.3"), 2);
	assert_string_equal(t_err(t),
			    "ibswctl: addr set: bad entry \"10.0.0.3\": expected ADDR=LID\n");
	assert_int_equal(t_run(t, "addr set 10.0.0.3=0"), 2);
	assert_int_equal(t_run(t, "addr set 10.0.0=3"), 2);
	assert_int_equal(t_run(t, "addr set =3"), 2);
	assert_int_equal(t_run(t, "addr show x"), 2);
	assert_int_equal(t->nreq, 0);
	t_free(t);
}

static void counters_requests(void **state)
{
	struct t *t = setup();
	const struct nlmsghdr *nlh;

	(void)state;
	assert_int_equal(t_run(t, "counters show"), 0);
	nlh = only_req(t, IBSW_CMD_PORT_GET, true);
	assert_null(t_attr(nlh, IBSW_A_PORT_SWITCH_NAME));

	t_clear(t);
	assert_int_equal(t_run(t, "counters show S1/2 vl"), 0);
	nlh = only_req(t, IBSW_CMD_PORT_GET, false);
	expect_str(nlh, IBSW_A_PORT_SWITCH_NAME, "S1");
	expect_u32(nlh, IBSW_A_PORT_PORT, 2);

	t_clear(t);
	assert_int_equal(t_run(t, "counters show vl S1"), 0);
	nlh = only_req(t, IBSW_CMD_PORT_GET, true);
	expect_str(nlh, IBSW_A_PORT_SWITCH_NAME, "S1");

	t_clear(t);
	assert_int_equal(t_run(t, "counters clear S1"), 0);
	nlh = only_req(t, IBSW_CMD_COUNTERS_CLEAR, false);
	expect_str(nlh, IBSW_A_PORT_SWITCH_NAME, "S1");
	assert_null(t_attr(nlh, IBSW_A_PORT_PORT));

	t_clear(t);
	assert_int_equal(t_run(t, "c clear S1/7"), 0);
	nlh = only_req(t, IBSW_CMD_COUNTERS_CLEAR, false);
	expect_u32(nlh, IBSW_A_PORT_PORT, 7);

	t_clear(t);
	assert_int_equal(t_run(t, "counters show S1 S2"), 2);
	assert_int_equal(t_run(t, "counters clear"), 2);
	assert_int_equal(t->nreq, 0);
	t_free(t);
}

static void fabric_requests(void **state)
{
	static const uint16_t clock_types[] = {
		IBSW_A_FABRIC_CLOCK_SEED, IBSW_A_FABRIC_CLOCK_PPM,
	};
	struct t *t = setup();
	const struct nlmsghdr *nlh;
	const struct nlattr *a;

	(void)state;
	assert_int_equal(t_run(t, "fabric show"), 0);
	only_req(t, IBSW_CMD_FABRIC_GET, false);

	t_clear(t);
	assert_int_equal(t_run(t, "fabric set scale 100 pacing off"), 0);
	nlh = only_req(t, IBSW_CMD_FABRIC_SET, false);
	expect_u32(nlh, IBSW_A_FABRIC_TIME_SCALE, 100);
	a = t_attr(nlh, IBSW_A_FABRIC_PACING);
	assert_int_equal(mnl_attr_get_payload_len(a), 1);
	assert_int_equal(mnl_attr_get_u8(a), 0);

	t_clear(t);
	assert_int_equal(t_run(t, "fabric set pacing on"), 0);
	nlh = only_req(t, IBSW_CMD_FABRIC_SET, false);
	assert_null(t_attr(nlh, IBSW_A_FABRIC_TIME_SCALE));
	assert_int_equal(mnl_attr_get_u8(t_attr(nlh, IBSW_A_FABRIC_PACING)), 1);

	/* the ports' clock offsets: seed and spread, nothing else */
	t_clear(t);
	assert_int_equal(t_run(t, "fabric set clock-seed 4294967295 clock-ppm 1000"), 0);
	nlh = only_req(t, IBSW_CMD_FABRIC_SET, false);
	expect_types(nlh, clock_types, ARRAY_SIZE(clock_types));
	expect_u32(nlh, IBSW_A_FABRIC_CLOCK_SEED, UINT32_MAX);
	expect_u32(nlh, IBSW_A_FABRIC_CLOCK_PPM, 1000);
	t_clear(t);
	assert_int_equal(t_run(t, "fabric set clock-ppm 0"), 0);
	nlh = only_req(t, IBSW_CMD_FABRIC_SET, false);
	expect_types(nlh, clock_types + 1, 1);
	expect_u32(nlh, IBSW_A_FABRIC_CLOCK_PPM, 0);
	t_clear(t);
	assert_int_equal(t_run(t, "fabric set pacing on clock-seed 0"), 0);
	nlh = only_req(t, IBSW_CMD_FABRIC_SET, false);
	expect_u32(nlh, IBSW_A_FABRIC_CLOCK_SEED, 0);
	assert_null(t_attr(nlh, IBSW_A_FABRIC_CLOCK_PPM));

	expect_usage(t, "fabric set clock-ppm 1001",
		     "ibswctl: clock-ppm 1001 out of range (0-1000)\n");
	expect_usage(t, "fabric set clock-seed -1",
		     "ibswctl: bad clock-seed \"-1\": expected a number\n");
	expect_usage(t, "fabric set clock-seed 4294967296",
		     "ibswctl: clock-seed 4294967296 out of range (0-4294967295)\n");
	expect_usage(t, "fabric set clock-ppm",
		     "ibswctl: fabric set: \"clock-ppm\" needs a value\n");
	expect_usage(t, "fabric set clock 5", "ibswctl: fabric set: unknown argument \"clock\"\n");
	t_clear(t);
	assert_int_equal(t_run(t, "fabric set"), 2);
	assert_int_equal(t_run(t, "fabric set scale 0"), 2);
	assert_int_equal(t_run(t, "fabric set scale 10001"), 2);
	assert_int_equal(t_run(t, "fabric set pacing yes"), 2);
	assert_int_equal(t_run(t, "fabric show x"), 2);
	assert_int_equal(t->nreq, 0);
	t_free(t);
}

/* A sysfs tree with a patched rxe (rxe_a: ports/1/cc) and a stock one */
static void make_sys(char *root, size_t len)
{
	char path[512];
	FILE *f;

	snprintf(root, len, "/tmp/ibswctl-sys-XXXXXX");
	assert_non_null(mkdtemp(root));
	snprintf(path, sizeof(path), "mkdir -p %s/class/infiniband/rxe_a/ports/1/cc", root);
	assert_int_equal(system(path), 0);
	snprintf(path, sizeof(path), "mkdir -p %s/class/infiniband/rxe_b/ports/1", root);
	assert_int_equal(system(path), 0);
	snprintf(path, sizeof(path), "%s/class/infiniband/rxe_a/ports/1/cc/time_scale", root);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("1\n", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/class/infiniband/rxe_a/ports/1/cc/link_rate", root);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("0\n", f);
	fclose(f);
}

static char *cc_file(const char *root, const char *name)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/class/infiniband/rxe_a/ports/1/cc/%s", root, name);
	return t_read_file(path);
}

static void expect_cc_file(const char *root, const char *name, const char *want)
{
	char *got = cc_file(root, name);

	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
}

/* The fabric's time scale, as fabric get answers it */
static int answer_scale(struct t *t, const struct nlmsghdr *req)
{
	if (t_cmd(req) == IBSW_CMD_FABRIC_GET)
		mnl_attr_put_u32(t_reply(t, IBSW_CMD_FABRIC_GET), IBSW_A_FABRIC_TIME_SCALE, 250);
	return 0;
}

/*
 * hca clock writes the patched rxe's time scale and link rate, with the
 * fabric's scale unless given; a stock rxe has nothing to set; fabric set
 * scale passes the scale on to every patched rxe.
 */
static void hca_clock(void **state)
{
	struct t *t = setup();
	char root[64], cmd[600];

	(void)state;
	make_sys(root, sizeof(root));
	t->ctl.sys_root = root;

	assert_int_equal(t_run(t, "hca clock rxe_a scale 50 rate 1xSDR"), 0);
	assert_int_equal(t->nreq, 0);
	expect_cc_file(root, "time_scale", "50\n");
	expect_cc_file(root, "link_rate", "2000000000\n");
	assert_int_equal(t_run(t, "hca clock rxe_a scale 50 rate 4xQDR"), 0);
	expect_cc_file(root, "link_rate", "32000000000\n");
	assert_int_equal(t_run(t, "hca clock rxe_a scale 50 rate 1234567"), 0);
	expect_cc_file(root, "link_rate", "1234567\n");

	/* the scale in force, from the kernel */
	t_clear(t);
	t->respond = answer_scale;
	assert_int_equal(t_run(t, "hca clock rxe_a"), 0);
	only_req(t, IBSW_CMD_FABRIC_GET, false);
	expect_cc_file(root, "time_scale", "250\n");
	t->respond = NULL;

	/* a stock rxe, or none: nothing to do, nothing asked */
	t_clear(t);
	assert_int_equal(t_run(t, "hca clock rxe_b rate 1xSDR"), 0);
	assert_int_equal(t_run(t, "hca clock nosuch"), 0);
	assert_int_equal(t->nreq, 0);
	assert_string_equal(t_err(t), "");

	/* bad arguments change nothing */
	assert_int_equal(t_run(t, "hca clock rxe_a rate 3xSDR"), 2);
	assert_int_equal(t_run(t, "hca clock rxe_a scale 0"), 2);
	assert_int_equal(t_run(t, "hca clock rxe_a scale"), 2);
	assert_int_equal(t_run(t, "hca clock rxe_a speed 1"), 2);
	assert_int_equal(t_run(t, "hca clock ../rxe_a scale 5"), 2);
	assert_int_equal(t_run(t, "hca clock"), 2);
	assert_int_equal(t_run(t, "hca"), 2);
	expect_cc_file(root, "time_scale", "250\n");
	expect_cc_file(root, "link_rate", "1234567\n");

	/* fabric set scale reaches every patched rxe */
	t_clear(t);
	assert_int_equal(t_run(t, "fabric set scale 40"), 0);
	only_req(t, IBSW_CMD_FABRIC_SET, false);
	expect_cc_file(root, "time_scale", "40\n");
	/* ... and says when it cannot */
	snprintf(cmd, sizeof(cmd), "%s/class/infiniband/rxe_a/ports/1/cc/time_scale", root);
	assert_int_equal(unlink(cmd), 0);
	assert_int_equal(mkdir(cmd, 0755), 0);
	t_clear(t);
	assert_int_equal(t_run(t, "fabric set scale 30"), 1);
	assert_non_null(strstr(t_err(t), "rxe_a/ports/1/cc/time_scale <- 30: Is a directory"));
	assert_int_equal(t_run(t, "hca clock rxe_a scale 30"), 1);

	snprintf(cmd, sizeof(cmd), "rm -r %s", root);
	assert_int_equal(system(cmd), 0);
	t_free(t);
}

static void kernel_errors(void **state)
{
	struct t *t = setup();

	(void)state;
	t->fail_err = -EEXIST;
	t->fail_msg = "switch \"S1\" already exists";
	assert_int_equal(t_run(t, "switch add S1 ports 4"), 1);
	assert_string_equal(t_err(t),
			    "ibswctl: switch add S1: switch \"S1\" already exists (File exists)\n");

	t_clear(t);
	t->fail_err = -ENOENT;
	t->fail_msg = NULL;
	assert_int_equal(t_run(t, "port set S9/1 vls 2"), 1);
	assert_string_equal(t_err(t), "ibswctl: port set S9/1: No such file or directory\n");

	t_clear(t);
	t->fail_err = -EPERM;
	t->fail_msg = NULL;
	assert_int_equal(t_run(t, "-j switch show"), 1);
	assert_string_equal(t_err(t), "ibswctl: switch show: Operation not permitted\n");
	t_free(t);
}

static void usage_and_help(void **state)
{
	static const char *const helps[] = {
		"help", "-h", "fabric help", "switch help", "port help", "link help", "host help",
		"lft help", "addr help", "counters help", "monitor help", "sw help", "c -h",
		"cc help", "cc log help", "remote help", "re -h",
	};
	static const char *const bad[] = {
		"", "-x", "bogus", "switch bogus", "port frob", "fabric sideways", "-j",
		"monitor now", "fabric up", "fabric down x", "fabric desc x y", "remote",
		"remote bogus", "remote add S1/3",
	};
	struct t *t = setup();
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(helps); i++) {
		t_clear(t);
		assert_int_equal(t_run(t, helps[i]), 0);
		assert_non_null(strstr(t_out(t), "Usage: ibswctl"));
		assert_string_equal(t_err(t), "");
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		t_clear(t);
		assert_int_equal(t_run(t, bad[i]), 2);
		assert_non_null(strstr(t_err(t), "Usage: ibswctl"));
		assert_int_equal(t->nreq, 0);
	}
	t_clear(t);
	assert_int_equal(t_run(t, "switch bogus"), 2);
	assert_non_null(strstr(t_err(t), "ibswctl: unknown command \"bogus\" for object switch; "));
	assert_non_null(strstr(t_err(t), "try \"ibswctl switch help\"\n"));
	t_clear(t);
	assert_int_equal(t_run(t, "-V"), 0);
	assert_string_equal(t_out(t),
			    "ibswctl " IBSWCTL_VERSION " (netlink family ibsw version 1)\n");
	t_free(t);
}

static void expect_u8(const struct nlmsghdr *nlh, uint16_t type, uint8_t val)
{
	const struct nlattr *a = t_attr(nlh, type);

	assert_non_null(a);
	assert_int_equal(mnl_attr_get_payload_len(a), 1);
	assert_int_equal(mnl_attr_get_u8(a), val);
}

static void expect_u16(const struct nlmsghdr *nlh, uint16_t type, uint16_t val)
{
	const struct nlattr *a = t_attr(nlh, type);

	assert_non_null(a);
	assert_int_equal(mnl_attr_get_payload_len(a), 2);
	assert_int_equal(mnl_attr_get_u16(a), val);
}

static void cc_requests(void **state)
{
	static const uint16_t all[] = {
		IBSW_A_CC_SWITCH_NAME, IBSW_A_CC_CONTROL_MAP, IBSW_A_CC_VICTIM_MASK,
		IBSW_A_CC_CREDIT_MASK, IBSW_A_CC_THRESHOLD, IBSW_A_CC_PACKET_SIZE,
		IBSW_A_CC_CS_THRESHOLD, IBSW_A_CC_CS_RETURN_DELAY, IBSW_A_CC_MARKING_RATE,
		IBSW_A_CC_FILL_COMPARE,
	};
	static const uint16_t some[] = {
		IBSW_A_CC_SWITCH_NAME, IBSW_A_CC_THRESHOLD, IBSW_A_CC_PACKET_SIZE,
		IBSW_A_CC_MARKING_RATE,
	};
	static const uint16_t port_types[] = {
		IBSW_A_CC_PORT_PORT, IBSW_A_CC_PORT_VALID, IBSW_A_CC_PORT_CONTROL_TYPE,
		IBSW_A_CC_PORT_THRESHOLD, IBSW_A_CC_PORT_PACKET_SIZE, IBSW_A_CC_PORT_MARKING_RATE,
	};
	uint8_t want[CTL_MASK_LEN] = { 0 };
	struct t *t = setup();
	const struct nlmsghdr *nlh;
	const struct nlattr *a, *nest;
	size_t i;

	(void)state;
	assert_int_equal(t_run(t, "cc show S2"), 0);
	nlh = only_req(t, IBSW_CMD_CC_GET, false);
	expect_types(nlh, all, 1);
	expect_str(nlh, IBSW_A_CC_SWITCH_NAME, "S2");
	t_clear(t);
	assert_int_equal(t_run(t, "cc show -j S2 -d"), 0);	/* options after the command */
	only_req(t, IBSW_CMD_CC_GET, false);
	assert_true(t->ctl.json);
	assert_true(t->ctl.details);

	/* every switch setting, in the order of the spec */
	t_clear(t);
	assert_int_equal(t_run(t, "cc set S2 marking_rate 7 cs_return_delay 1:5 cs_threshold 0\n"
			       "packet_size 8 threshold 15 credit_mask 0 victim_mask ports:2,4\n"
			       "control_map 0x1f fill_compare per_input"), 0);
	nlh = only_req(t, IBSW_CMD_CC_SET, false);
	expect_types(nlh, all, ARRAY_SIZE(all));
	expect_str(nlh, IBSW_A_CC_SWITCH_NAME, "S2");
	expect_u32(nlh, IBSW_A_CC_CONTROL_MAP, 0x1f);
	a = t_attr(nlh, IBSW_A_CC_VICTIM_MASK);
	assert_int_equal(mnl_attr_get_payload_len(a), CTL_MASK_LEN);
	want[31] = 0x14;
	assert_memory_equal(mnl_attr_get_payload(a), want, CTL_MASK_LEN);
	a = t_attr(nlh, IBSW_A_CC_CREDIT_MASK);
	assert_int_equal(mnl_attr_get_payload_len(a), CTL_MASK_LEN);
	memset(want, 0, sizeof(want));
	assert_memory_equal(mnl_attr_get_payload(a), want, CTL_MASK_LEN);
	expect_u8(nlh, IBSW_A_CC_THRESHOLD, 15);
	expect_u8(nlh, IBSW_A_CC_PACKET_SIZE, 8);
	expect_u8(nlh, IBSW_A_CC_CS_THRESHOLD, 0);
	expect_u16(nlh, IBSW_A_CC_CS_RETURN_DELAY, 0x4005);
	expect_u16(nlh, IBSW_A_CC_MARKING_RATE, 7);
	expect_u8(nlh, IBSW_A_CC_FILL_COMPARE, IBSW_CC_FILL_COMPARE_PER_INPUT);

	/* fill_compare alone, under a control map that selects nothing */
	t_clear(t);
	assert_int_equal(t_run(t, "cc set S2 control_map 0 fill-compare voq"), 0);
	nlh = only_req(t, IBSW_CMD_CC_SET, false);
	expect_u32(nlh, IBSW_A_CC_CONTROL_MAP, 0);
	expect_u8(nlh, IBSW_A_CC_FILL_COMPARE, IBSW_CC_FILL_COMPARE_VOQ);
	t_clear(t);
	assert_int_equal(t_run(t, "cc set S2 fill_compare sum"), 0);
	nlh = only_req(t, IBSW_CMD_CC_SET, false);
	expect_u8(nlh, IBSW_A_CC_FILL_COMPARE, IBSW_CC_FILL_COMPARE_SUM);
	assert_null(t_attr(nlh, IBSW_A_CC_THRESHOLD));

	/* only what is given; dashes; the mask as ibccconfig takes it */
	t_clear(t);
	assert_int_equal(t_run(t, "cc set S2 threshold 1 packet-size 0 marking-rate 65535"), 0);
	nlh = only_req(t, IBSW_CMD_CC_SET, false);
	expect_types(nlh, some, ARRAY_SIZE(some));
	expect_u16(nlh, IBSW_A_CC_MARKING_RATE, 65535);
	t_clear(t);
	/* 64 digits: ports 254 and 1 */
	assert_int_equal(t_run(t, "cc set S2 victim-mask\n"
			       "0x4000000000000000000000000000000000000000000000000000000000000002\n"
			       "control-map victim_mask"), 0);
	nlh = only_req(t, IBSW_CMD_CC_SET, false);
	expect_u32(nlh, IBSW_A_CC_CONTROL_MAP, IBSW_CC_CONTROL_MAP_VICTIM_MASK);
	a = t_attr(nlh, IBSW_A_CC_VICTIM_MASK);
	want[0] = 0x40;
	want[31] = 0x02;
	assert_memory_equal(mnl_attr_get_payload(a), want, CTL_MASK_LEN);
	assert_null(t_attr(nlh, IBSW_A_CC_THRESHOLD));
	assert_null(t_attr(nlh, IBSW_A_CC_PORT_SETTING));
	/* the control map covers packet_size with threshold (OpenSM's grouping) */
	t_clear(t);
	assert_int_equal(t_run(t, "cc set S2 control_map threshold,cs threshold 3 packet_size 1\n"
			       "cs_threshold 0 cs_return_delay 0:0"), 0);
	only_req(t, IBSW_CMD_CC_SET, false);

	/* a port's setting: valid on unless said, control type 0 unless said */
	t_clear(t);
	assert_int_equal(t_run(t, "cc set S2/5 threshold 10 packet_size 4 marking_rate 2"), 0);
	nlh = only_req(t, IBSW_CMD_CC_SET, false);
	assert_int_equal(t_count(nlh, IBSW_A_CC_PORT_SETTING), 1);
	assert_null(t_attr(nlh, IBSW_A_CC_THRESHOLD));
	nest = t_attr(nlh, IBSW_A_CC_PORT_SETTING);
	i = 0;
	mnl_attr_for_each_nested(a, nest) {
		assert_true(i < ARRAY_SIZE(port_types));
		assert_int_equal(mnl_attr_get_type(a), port_types[i]);
		i++;
	}
	assert_int_equal(i, ARRAY_SIZE(port_types));
	nest_u32(nest, IBSW_A_CC_PORT_PORT, 5);
	assert_int_equal(mnl_attr_get_u8(t_nest_attr(nest, IBSW_A_CC_PORT_VALID)), 1);
	assert_int_equal(mnl_attr_get_u8(t_nest_attr(nest, IBSW_A_CC_PORT_CONTROL_TYPE)), 0);
	assert_int_equal(mnl_attr_get_u8(t_nest_attr(nest, IBSW_A_CC_PORT_THRESHOLD)), 10);
	assert_int_equal(mnl_attr_get_u8(t_nest_attr(nest, IBSW_A_CC_PORT_PACKET_SIZE)), 4);
	a = t_nest_attr(nest, IBSW_A_CC_PORT_MARKING_RATE);
	assert_int_equal(mnl_attr_get_payload_len(a), 2);
	assert_int_equal(mnl_attr_get_u16(a), 2);
	t_clear(t);
	assert_int_equal(t_run(t, "cc set S2/5 valid off"), 0);
	nest = t_attr(only_req(t, IBSW_CMD_CC_SET, false), IBSW_A_CC_PORT_SETTING);
	assert_int_equal(mnl_attr_get_u8(t_nest_attr(nest, IBSW_A_CC_PORT_VALID)), 0);
	assert_null(t_nest_attr(nest, IBSW_A_CC_PORT_THRESHOLD));
	t_clear(t);
	assert_int_equal(t_run(t, "cc set S2/36 control_type 1 threshold 3"), 0);
	nest = t_attr(only_req(t, IBSW_CMD_CC_SET, false), IBSW_A_CC_PORT_SETTING);
	assert_int_equal(mnl_attr_get_u8(t_nest_attr(nest, IBSW_A_CC_PORT_CONTROL_TYPE)), 1);

	/* the log */
	t_clear(t);
	assert_int_equal(t_run(t, "cc log S2"), 0);
	nlh = only_req(t, IBSW_CMD_CC_LOG_GET, false);
	expect_str(nlh, IBSW_A_CC_LOG_SWITCH_NAME, "S2");
	t_clear(t);
	assert_int_equal(t_run(t, "cc log clear S2"), 0);
	nlh = only_req(t, IBSW_CMD_CC_LOG_CLEAR, false);
	expect_str(nlh, IBSW_A_CC_LOG_SWITCH_NAME, "S2");
	t_clear(t);
	assert_int_equal(t_run(t, "cc l c S2"), 2);	/* "clear" is not abbreviated */
	t_free(t);
}

#define KMSG_PORT	"victim mask names port 40, S1 has 36 ports"
#define KMSG_CS		"credit starvation is not supported"

static void cc_errors(void **state)
{
	static const struct {
		const char *args, *msg;
	} bad[] = {
		{ "cc", NULL },
		{ "cc show", "cc show: expected SW" },
		{ "cc show S1 S2", "cc show: unexpected argument \"S2\"" },
		{ "cc show S1/2", "bad switch name \"S1/2\"" },
		{ "cc show S1 -x", "cc show: unexpected argument \"-x\"" },
		{ "cc set", "cc set: expected SW or SW/PORT" },
		{ "cc set S1", "cc set: nothing to set" },
		{ "cc set S1 control_map 0x1f", "cc set: nothing to set" },
		{ "cc set S1 threshold", "cc set: \"threshold\" needs a value" },
		{ "cc set S1 threshold 16", "threshold 16 out of range (0-15)" },
		{ "cc set S1 threshold -1", "bad threshold \"-1\": expected a number" },
		{ "cc set S1 threshold 3 threshold 4", "cc set: threshold given twice" },
		{ "cc set S1 thresh 3", "cc set: unknown argument \"thresh\"" },
		{ "cc set S1 packet_size 256", "packet_size 256 out of range (0-255)" },
		{ "cc set S1 marking_rate 65536", "marking_rate 65536 out of range (0-65535)" },
		{ "cc set S1 cs_threshold 16", "cs_threshold 16 out of range (0-15)" },
		{ "cc set S1 cs_return_delay 4:0", "shift 4 out of range (0-3)" },
		{ "cc set S1 victim_mask ports:255", "victim_mask port 255 out of range (1-254)" },
		{ "cc set S1 victim_mask 0x1", "bad victim_mask \"0x1\": bit 0 is port 0" },
		{ "cc set S1 credit_mask zz", "bad credit_mask \"zz\"" },
		{ "cc set S1 control_map 32", "control_map 32 out of range (0-0x1f)" },
		{ "cc set S1 fill_compare fifo",
		  "bad fill_compare \"fifo\": expected sum, voq or per_input" },
		{ "cc set S1 fill_compare 1",
		  "bad fill_compare \"1\": expected sum, voq or per_input" },
		{ "cc set S1/2 fill_compare voq",
		  "cc set S1/2: unknown argument \"fill_compare\"" },
		{ "cc set S1 control_map victim_mask threshold 3",
		  "cc set: threshold would not apply: control_map lacks threshold" },
		{ "cc set S1 control_map threshold marking_rate 3",
		  "cc set: marking_rate would not apply: control_map lacks marking-rate" },
		{ "cc set S1 control_map 0 packet_size 3",
		  "cc set: packet_size would not apply: control_map lacks threshold" },
		{ "cc set S1 cs_return_delay 0:0 control_map 4",
		  "cc set: cs_return_delay would not apply: control_map lacks cs" },
		{ "cc set S1/0 threshold 3", "port number 0 out of range (1-254)" },
		{ "cc set S1/2", "cc set: nothing to set" },
		{ "cc set S1/2 threshold 16", "threshold 16 out of range (0-15)" },
		{ "cc set S1/2 valid yes", "bad valid \"yes\": expected on or off" },
		{ "cc set S1/2 control_type 2", "control_type 2 out of range (0-1)" },
		{ "cc set S1/2 victim_mask 0x4",
		  "unknown argument \"victim_mask\" (a switch setting: give SW, not SW/PORT)" },
		{ "cc set S1/2 cs_threshold 1", "cc set S1/2: unknown argument \"cs_threshold\"" },
		{ "cc set S1/2 valid on valid off", "cc set: valid given twice" },
		{ "cc log", "cc log: expected SW" },
		{ "cc log clear", "cc log clear: expected SW" },
		{ "cc log clear S1 S2", "cc log clear: expected SW" },
		{ "cc log S1 S2", "cc log: unexpected argument \"S2\"" },
		{ "cc frob", "unknown command \"frob\" for object cc" },
	};
	struct t *t = setup();
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		t_clear(t);
		if (t_run(t, bad[i].args) != 2 || t->nreq ||
		    (bad[i].msg && !strstr(t_err(t), bad[i].msg)))
			fail_msg("\"%s\": exit status 2, no request and \"%s\" expected; got:\n%s",
				 bad[i].args, bad[i].msg ? bad[i].msg : "", t_err(t));
	}

	/* the kernel's refusal: its extack, exit status 1 */
	t_clear(t);
	t->fail_err = -EINVAL;
	t->fail_msg = KMSG_PORT;
	assert_int_equal(t_run(t, "cc set S1 victim_mask ports:40"), 1);
	assert_string_equal(t_err(t), "ibswctl: cc set S1: " KMSG_PORT " (Invalid argument)\n");
	t_clear(t);
	t->fail_err = -EOPNOTSUPP;
	t->fail_msg = KMSG_CS;
	assert_int_equal(t_run(t, "cc set S1/2 control_type 1"), 1);
	assert_string_equal(t_err(t),
			    "ibswctl: cc set S1/2: " KMSG_CS " (Operation not supported)\n");
	t_clear(t);
	t->fail_err = -ENOENT;
	t->fail_msg = NULL;
	assert_int_equal(t_run(t, "cc log clear S9"), 1);
	assert_string_equal(t_err(t), "ibswctl: cc log clear S9: No such file or directory\n");
	t_clear(t);
	assert_int_equal(t_run(t, "-j cc log S9"), 1);
	assert_string_equal(t_err(t), "ibswctl: cc log S9: No such file or directory\n");
	t_free(t);
}

int main(int argc, char **argv)
{
	static const struct cm_test tests[] = {
		cmocka_unit_test(switch_add),
		cmocka_unit_test(hca_clock),
		cmocka_unit_test(switch_del_show),
		cmocka_unit_test(port_show),
		cmocka_unit_test(port_set_all),
		cmocka_unit_test(port_set_each),
		cmocka_unit_test(port_set_errors),
		cmocka_unit_test(hca_rates),
		cmocka_unit_test(links),
		cmocka_unit_test(hosts),
		cmocka_unit_test(remotes),
		cmocka_unit_test(remote_errors),
		cmocka_unit_test(lfts),
		cmocka_unit_test(addrs),
		cmocka_unit_test(counters_requests),
		cmocka_unit_test(fabric_requests),
		cmocka_unit_test(cc_requests),
		cmocka_unit_test(cc_errors),
		cmocka_unit_test(kernel_errors),
		cmocka_unit_test(usage_and_help),
	};

	(void)argc;
	(void)argv;
	return t_run_group("msg", tests, ARRAY_SIZE(tests)) ? 1 : 0;
}
