// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the MAD backend: the switch and CA tables from hand-made
 * libibnetdisc structures (mad_fabric.c), the attributes against bytes
 * written at the offsets of IBA vol 1 (and Documentation/mads.md), and the
 * backend (backend_mad.c) over a fake agent that holds each switch's and
 * CA's attributes as raw bytes: counters, settings, errors, the discovery
 * policy and the time scale.
 */
#define _GNU_SOURCE
#include "helpers.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "backend_mad.h"

/* A message expected in two parts, for the 100 columns */
static void expect_msg(const char *got, const char *head, const char *tail)
{
	char want[512];

	snprintf(want, sizeof(want), "%s%s", head, tail);
	assert_string_equal(got, want);
}

/* ---------------------------------------------------------------- fabrics by hand */

#define H_NODES		8
#define H_PORTS		40

struct hand {
	ibnd_fabric_t f;
	ibnd_node_t node[H_NODES];
	ibnd_port_t port[H_NODES][H_PORTS];
	ibnd_port_t *ports[H_NODES][H_PORTS];
	int n;
};

static struct hand *hand_new(void)
{
	struct hand *h = calloc(1, sizeof(*h));

	assert_non_null(h);
	return h;
}

/* desc is copied with its length: padding and all */
static int hand_node(struct hand *h, int type, const char *desc, size_t desc_len,
		     uint64_t guid, uint16_t lid, int nports)
{
	int i = h->n++;
	ibnd_node_t *n = &h->node[i];

	/* more ports than H_PORTS only for a switch the table refuses */
	assert_true(i < H_NODES);
	n->type = type;
	memcpy(n->nodedesc, desc, desc_len);
	n->guid = guid;
	n->smalid = lid;
	n->numports = nports;
	n->ports = h->ports[i];
	if (i)
		h->node[i - 1].next = n;
	else
		h->f.nodes = n;
	return i;
}

static ibnd_port_t *hand_port(struct hand *h, int node, int port)
{
	ibnd_port_t *p = &h->port[node][port];

	p->node = &h->node[node];
	p->portnum = port;
	p->base_lid = h->node[node].smalid;	/* a CA's port LID; a switch's is port 0's */
	h->ports[node][port] = p;
	return p;
}

static void hand_link(struct hand *h, int a, int pa, int b, int pb)
{
	ibnd_port_t *x = hand_port(h, a, pa), *y = hand_port(h, b, pb);

	x->remoteport = y;
	y->remoteport = x;
}

#define SW(h, desc, guid, lid, nports) \
	hand_node(h, IB_NODE_SWITCH, desc, sizeof(desc) - 1, guid, lid, nports)
#define CA(h, desc, guid, lid) \
	hand_node(h, IB_NODE_CA, desc, sizeof(desc) - 1, guid, lid, 1)

static void table_from_hand_made_ibnd(void **state)
{
	struct hand *h = hand_new();
	struct mad_fabric t;
	const struct mad_switch *s;
	char msg[256] = "";
	int s10, s1, s2, ca;

	(void)state;
	/* the list in discovery order, not name order; padded descriptions */
	s10 = SW(h, "S10  \0\0", 0x10, 10, 2);
	s1 = SW(h, "S1\0\0  ", 0x1, 3, 4);	/* NULs then spaces: trimmed from the end */
	ca = CA(h, "hostA mlx5_0", 0xa, 20);
	s2 = SW(h, "S2    ", 0x2, 5, 3);
	hand_link(h, s1, 1, s2, 3);		/* switch-switch */
	hand_link(h, s1, 2, ca, 1);		/* switch-CA */
	hand_port(h, s1, 3);			/* a port, nothing connected */
	/* s1 port 4: no ibnd_port_t at all */
	hand_link(h, s2, 1, s10, 2);
	assert_int_equal(mad_fabric_build(&h->f, &t, msg, sizeof(msg)), 0);
	assert_int_equal(t.n, 3);
	/* by name, S2 before S10 */
	assert_string_equal(t.sw[0].name, "S1");
	assert_string_equal(t.sw[1].name, "S2");
	assert_string_equal(t.sw[2].name, "S10");
	s = mad_fabric_find(&t, "S1");
	assert_non_null(s);
	assert_int_equal(s->lid, 3);
	assert_int_equal(s->nports, 4);
	assert_true(s->guid == 0x1);
	assert_int_equal(s->port[1].peer, DCMS_PEER_SWITCH);
	assert_string_equal(s->port[1].peer_switch, "S2");
	assert_int_equal(s->port[1].peer_port, 3);
	assert_int_equal(s->port[2].peer, DCMS_PEER_CA);
	assert_string_equal(s->port[2].peer_switch, "");
	assert_int_equal(s->port[3].peer, DCMS_PEER_NONE);
	assert_int_equal(s->port[4].peer, DCMS_PEER_NONE);
	s = mad_fabric_find(&t, "S2");
	assert_int_equal(s->lid, 5);
	assert_int_equal(s->port[3].peer, DCMS_PEER_SWITCH);
	assert_string_equal(s->port[3].peer_switch, "S1");
	assert_int_equal(s->port[3].peer_port, 1);
	assert_int_equal(s->port[1].peer, DCMS_PEER_SWITCH);
	assert_string_equal(s->port[1].peer_switch, "S10");
	assert_int_equal(s->port[1].peer_port, 2);
	assert_int_equal(s->port[2].peer, DCMS_PEER_NONE);
	assert_null(mad_fabric_find(&t, "hostA mlx5_0"));
	/* the CA, by its description's first word */
	assert_int_equal(t.nca, 1);
	assert_string_equal(t.ca[0].ca.name, "hostA");
	assert_int_equal(t.ca[0].ca.lid, 20);
	mad_fabric_free(&t);
	free(h);
}

static void ca_table(void **state)
{
	struct hand *h = hand_new();
	struct mad_fabric t;
	char msg[256] = "";
	int sw, m1, h10, h2, h1, dual, anon, lone;

	(void)state;
	sw = SW(h, "S1", 0x1, 1, 8);
	m1 = CA(h, "M1 ibsw_mgmt0", 0x100, 2);
	h10 = CA(h, "H10 rxe_H10", 0x110, 3);
	h2 = CA(h, "H2\trxe_H2\0\0", 0x102, 4);
	h1 = CA(h, "H1 rxe_H1", 0x101, 5);
	dual = CA(h, "H1 mlx5_1", 0x201, 6);	/* H1's second HCA, two ports */
	anon = CA(h, "   ", 0xabc, 7);
	lone = CA(h, "a-description-of-thirty-three-chr rxe0", 0x8, 0);
	h->node[dual].numports = 2;
	hand_link(h, sw, 1, m1, 1);
	hand_link(h, sw, 2, h10, 1);
	hand_link(h, sw, 3, h2, 1);
	hand_link(h, sw, 4, h1, 1);
	hand_link(h, sw, 5, dual, 1);
	hand_link(h, sw, 6, dual, 2);
	hand_link(h, sw, 7, anon, 1);
	hand_link(h, sw, 8, lone, 1);
	h->port[dual][2].base_lid = 9;
	/* the discovery's own port is not one to set */
	h->f.from_node = &h->node[m1];
	h->f.from_portnum = 1;
	assert_int_equal(mad_fabric_build(&h->f, &t, msg, sizeof(msg)), 0);
	assert_int_equal(t.n, 1);
	assert_int_equal(t.nca, 7);
	/* by name (H2 before H10), then GUID and port; names are not unique */
	assert_string_equal(t.ca[0].ca.name, "0x0000000000000008");
	assert_int_equal(t.ca[0].ca.lid, 0);	/* kept: cc_set_ca() says */
	assert_string_equal(t.ca[1].ca.name, "0x0000000000000abc");
	assert_int_equal(t.ca[1].ca.lid, 7);
	assert_string_equal(t.ca[2].ca.name, "H1");
	assert_int_equal(t.ca[2].ca.lid, 5);
	assert_int_equal(t.ca[2].port, 1);
	assert_true(t.ca[2].guid == 0x101);
	assert_string_equal(t.ca[3].ca.name, "H1");
	assert_int_equal(t.ca[3].ca.lid, 6);
	assert_int_equal(t.ca[3].port, 1);
	assert_string_equal(t.ca[4].ca.name, "H1");
	assert_int_equal(t.ca[4].ca.lid, 9);
	assert_int_equal(t.ca[4].port, 2);
	assert_string_equal(t.ca[5].ca.name, "H2");
	assert_int_equal(t.ca[5].ca.lid, 4);
	assert_string_equal(t.ca[6].ca.name, "H10");
	assert_int_equal(t.ca[6].ca.lid, 3);
	mad_fabric_free(&t);
	assert_null(t.ca);
	assert_int_equal(t.nca, 0);

	/* a switch the table refuses: no CA either */
	h->node[sw].smalid = 0;
	assert_int_equal(mad_fabric_build(&h->f, &t, msg, sizeof(msg)), -ENXIO);
	assert_null(t.ca);
	assert_int_equal(t.nca, 0);
	free(h);
}

static void table_names_that_cannot_be_used(void **state)
{
	struct hand *h = hand_new();
	struct mad_fabric t;
	char msg[256] = "";

	(void)state;
	/* twice the same description (a real fabric's default), none, too long */
	SW(h, "MF0;switch", 0x0002c90300001234ULL, 1, 2);
	SW(h, "MF0;switch", 0x0002c90300005678ULL, 2, 2);
	SW(h, "\0\0\0", 0xabcULL, 3, 2);
	SW(h, "a-description-of-thirty-three-ch", 0x7ULL, 4, 2);	/* 32: fits */
	SW(h, "a-description-of-thirty-three-chr", 0x8ULL, 6, 2);	/* 33 */
	assert_int_equal(mad_fabric_build(&h->f, &t, msg, sizeof(msg)), 0);
	assert_int_equal(t.n, 5);
	assert_string_equal(t.sw[0].name, "0x0000000000000008");
	assert_string_equal(t.sw[1].name, "0x0000000000000abc");
	assert_string_equal(t.sw[2].name, "0x0002c90300001234");
	assert_string_equal(t.sw[3].name, "0x0002c90300005678");
	assert_string_equal(t.sw[4].name, "a-description-of-thirty-three-ch");
	mad_fabric_free(&t);
	free(h);
}

static void table_refuses_lid_0_and_too_many_ports(void **state)
{
	struct hand *h = hand_new();
	struct mad_fabric t;
	char msg[256] = "";

	(void)state;
	SW(h, "S1", 0x1, 3, 2);
	SW(h, "S2", 0x2, 0, 2);
	assert_int_equal(mad_fabric_build(&h->f, &t, msg, sizeof(msg)), -ENXIO);
	expect_msg(msg, "switch \"S2\" (GUID 0x0000000000000002) has LID 0: no subnet ",
		   "manager has assigned LIDs (start one: opensm)");
	assert_int_equal(t.n, 0);
	assert_null(t.sw);
	free(h);

	h = hand_new();
	SW(h, "S1", 0x1, 3, 255);
	assert_int_equal(mad_fabric_build(&h->f, &t, msg, sizeof(msg)), -ERANGE);
	assert_string_equal(msg, "switch \"S1\" (LID 3) has 255 ports, at most 254 handled");
	free(h);

	/* HCAs only: no switch, no error */
	h = hand_new();
	hand_port(h, CA(h, "hostA", 0xa, 1), 1);
	assert_int_equal(mad_fabric_build(&h->f, &t, msg, sizeof(msg)), 0);
	assert_int_equal(t.n, 0);
	assert_int_equal(t.nca, 1);
	mad_fabric_free(&t);
	free(h);
}

/* ---------------------------------------------------------------- attributes */

static void put_be(uint8_t *p, uint64_t v, int bytes)
{
	while (bytes--) {
		p[bytes] = v & 0xff;
		v >>= 8;
	}
}

static void port_counters_extended(void **state)
{
	uint8_t d[MAD_ATTR_LEN];
	uint64_t data, wait;
	unsigned int i;

	(void)state;
	/* every byte non-zero, so that a field at the wrong offset shows */
	for (i = 0; i < sizeof(d); i++)
		d[i] = 0xa5;
	/* PortXmitData at bytes 8-15, PortXmitWait at 168-175 (after VL15Dropped) */
	memcpy(d + 8, (uint8_t []){ 0x00, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06 }, 8);
	memcpy(d + 168, (uint8_t []){ 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x2a }, 8);
	mad_pc_ext_decode(d, &data, &wait);
	assert_true(data == 0x010203040506ULL);
	assert_true(wait == 0x800000000000002aULL);
}

static void port_xmit_con_ctrl(void **state)
{
	uint8_t d[MAD_ATTR_LEN];

	(void)state;
	memset(d, 0xff, sizeof(d));
	d[1] = 7;	/* PortSelect */
	/* PortXmitTimeCong at bytes 4-7 */
	memcpy(d + 4, (uint8_t []){ 0xde, 0xad, 0xbe, 0xef }, 4);
	assert_int_equal(mad_xmit_con_ctrl_decode(d), 0xdeadbeef);
}

static void switch_congestion_setting(void **state)
{
	struct cc_sw_setting s, given;
	uint8_t d[MAD_ATTR_LEN], want[MAD_ATTR_LEN];

	(void)state;
	memset(d, 0, sizeof(d));
	d[3] = 0x14;			/* Control_Map */
	d[4 + 31] = 0x80;		/* Victim_Mask: port 7 */
	d[68] = 0xa0;			/* Threshold 10, bits 7-4 */
	d[69] = 8;			/* Packet_Size */
	d[74] = 0x01;			/* Marking_Rate 0x0180 */
	d[75] = 0x80;
	mad_sw_cc_decode(d, &s);
	assert_int_equal(s.control_map, 0x14);
	assert_int_equal(s.victim_mask[31], 0x80);
	assert_int_equal(s.threshold, 10);
	assert_int_equal(s.packet_size, 8);
	assert_int_equal(s.cs_threshold, 0);
	assert_int_equal(s.marking_rate, 0x180);

	/* a Set of the Marking_Rate alone: Control_Map 0x10, the rest as read */
	memset(&given, 0, sizeof(given));
	given.set = CC_SW_MARKING_RATE;
	given.marking_rate = 0x1234;
	mad_sw_cc_merge(&s, &given);
	mad_sw_cc_encode(d, &s);
	memset(want, 0, sizeof(want));
	want[3] = 0x10;
	want[4 + 31] = 0x80;
	want[68] = 0xa0;
	want[69] = 8;
	want[74] = 0x12;
	want[75] = 0x34;
	assert_memory_equal(d, want, sizeof(want));

	/* threshold without packet size: bit 2, the packet size as read */
	mad_sw_cc_decode(want, &s);
	given.set = CC_SW_THRESHOLD | CC_SW_CS_RETURN_DELAY;
	given.threshold = 15;
	given.cs_return_delay = 0x4001;
	mad_sw_cc_merge(&s, &given);
	assert_int_equal(s.control_map, 0x0c);
	mad_sw_cc_encode(d, &s);
	want[3] = 0x0c;
	want[68] = 0xf0;
	want[72] = 0x40;
	want[73] = 0x01;
	assert_memory_equal(d, want, sizeof(want));

	/* a Control_Map given restricts the components, as genl's cc-set */
	mad_sw_cc_decode(want, &s);
	given.set = CC_SW_THRESHOLD | CC_SW_MARKING_RATE | CC_SW_CONTROL_MAP;
	given.control_map = 0x10;
	mad_sw_cc_merge(&s, &given);
	assert_int_equal(s.control_map, 0x10);
}

static void switch_port_block_modify(void **state)
{
	uint8_t d[MAD_ATTR_LEN], want[MAD_ATTR_LEN];
	struct be_port_cc pc = { .valid = true, .threshold = 9, .packet_size = 0x42,
				 .marking_rate = 0xbeef };
	struct be_port_cc got;
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(d); i++)
		d[i] = (uint8_t)(i * 7 + 1);
	/* element 5 with Control_Type 1 and reserved bits set: all replaced */
	d[20] = 0x7f;
	memcpy(want, d, sizeof(d));
	mad_sw_port_encode(d, 5, &pc);
	/* Valid (bit 7), Control_Type 0 (bit 6), Threshold (bits 3-0); Packet_Size; Marking_Rate */
	memcpy(want + 20, (uint8_t []){ 0x89, 0x42, 0xbe, 0xef }, 4);
	assert_memory_equal(d, want, sizeof(want));

	mad_sw_port_decode(d, 5, &got);
	assert_true(got.valid);
	assert_int_equal(got.threshold, 9);
	assert_int_equal(got.packet_size, 0x42);
	assert_int_equal(got.marking_rate, 0xbeef);
	/* element 31, the last of the block, by hand */
	memcpy(d + 124, (uint8_t []){ 0x03, 0x10, 0x00, 0x80 }, 4);
	mad_sw_port_decode(d, 31, &got);
	assert_false(got.valid);
	assert_int_equal(got.threshold, 3);
	assert_int_equal(got.packet_size, 0x10);
	assert_int_equal(got.marking_rate, 128);
}

/* An attribute as expected, or which case and block it is not */
static void expect_bytes(const char *name, unsigned int block, const uint8_t *got,
			 const uint8_t *want)
{
	if (memcmp(got, want, MAD_ATTR_LEN))
		print_error("case \"%s\", block %u:\n", name, block);
	assert_memory_equal(got, want, MAD_ATTR_LEN);
}

/* CACongestionSetting: Port_Control, Control_Map, then 8 bytes per SL from byte 4 */
static const struct ca_cc_case {
	const char *name;
	struct cc_ca_setting s;
	uint8_t want[MAD_ATTR_LEN];
} ca_cc_cases[] = {
	{
		/* SL 5 has keys but is not in the map: its entry stays zero */
		.name = "control map 0x0003",
		.s = {
			.set = CC_CA_PORT_CONTROL | CC_CA_CONTROL_MAP,
			.port_control = 1, .control_map = 0x0003,
			.sl = {
				[0] = { .set = CC_CA_SL_TIMER | CC_CA_SL_INCREASE |
					CC_CA_SL_TRIGGER | CC_CA_SL_MIN,
					.ccti_timer = 0x1234, .ccti_increase = 0x56,
					.trigger_threshold = 0x78, .ccti_min = 0x9a },
				[1] = { .set = CC_CA_SL_TIMER | CC_CA_SL_MIN,
					.ccti_timer = 150, .ccti_min = 2 },
				[5] = { .set = CC_CA_SL_TIMER, .ccti_timer = 7 },
			},
		},
		.want = {
			[0] = 0x00, 0x01,			/* Port_Control */
			[2] = 0x00, 0x03,			/* Control_Map */
			[4] = 0x12, 0x34, 0x56, 0x78, 0x9a,	/* SL 0 */
			[12] = 0x00, 0x96, 0x00, 0x00, 0x02,	/* SL 1 */
		},
	},
	{
		/* no map given: the SLs given, here 3 and 15 */
		.name = "the SLs given",
		.s = {
			.sl = {
				[3] = { .set = CC_CA_SL_INCREASE, .ccti_increase = 1 },
				[15] = { .set = CC_CA_SL_TIMER | CC_CA_SL_TRIGGER,
					 .ccti_timer = 0xfffe, .trigger_threshold = 0xff },
			},
		},
		.want = {
			[2] = 0x80, 0x08,
			[28] = 0x00, 0x00, 0x01, 0x00, 0x00,	/* SL 3 */
			[124] = 0xff, 0xfe, 0x00, 0xff, 0x00,	/* SL 15 */
		},
	},
	{
		/* OpenSM's: all SLs in the map, one given, the others zero */
		.name = "control map 0xffff",
		.s = {
			.set = CC_CA_CONTROL_MAP, .control_map = 0xffff,
			.sl = { [0] = { .set = CC_CA_SL_TIMER, .ccti_timer = 75 } },
		},
		.want = {
			[2] = 0xff, 0xff,
			[4] = 0x00, 0x4b,
		},
	},
	{
		.name = "nothing",
		.want = { 0 },
	},
};

static void ca_congestion_setting(void **state)
{
	uint8_t d[MAD_ATTR_LEN];
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(ca_cc_cases); i++) {
		const struct ca_cc_case *c = &ca_cc_cases[i];

		memset(d, 0xa5, sizeof(d));	/* all of it written */
		mad_ca_cc_encode(d, &c->s);
		expect_bytes(c->name, 0, d, c->want);
	}
}

/*
 * CongestionControlTable: CCTI_Limit at bytes 0-1 of every block, entries
 * from byte 4, (shift << 14) | multiplier each. Entries not listed are 0:0.
 */
struct cct_entry_at {
	unsigned int i;
	uint8_t shift;
	uint16_t mult;
};

static const struct cct_case {
	const char *name;
	unsigned int len;
	struct cct_entry_at e[8];
	unsigned int ne;
	unsigned int blocks;
	uint8_t want[2][MAD_ATTR_LEN];
} cct_cases[] = {
	{
		.name = "empty: one block, CCTI_Limit 0",
		.len = 0,
		.blocks = 1,
	},
	{
		.name = "OpenSM's example",
		.len = 5,
		.e = { { 1, 0, 1 }, { 2, 0, 2 }, { 3, 1, 3 }, { 4, 3, 16383 } },
		.ne = 4,
		.blocks = 1,
		.want = {
			{ [0] = 0x00, 0x04,
			  [4] = 0x00, 0x00, 0x00, 0x01, 0x00, 0x02, 0x40, 0x03, 0xff, 0xff },
		},
	},
	{
		.name = "64 entries: one full block",
		.len = 64,
		.e = { { 0, 2, 0x2aaa }, { 63, 1, 0x1555 } },
		.ne = 2,
		.blocks = 1,
		.want = {
			{ [0] = 0x00, 0x3f,
			  [4] = 0xaa, 0xaa,
			  [130] = 0x55, 0x55 },
		},
	},
	{
		.name = "128 entries: two blocks, CCTI_Limit 127 in both",
		.len = 128,
		.e = { { 0, 0, 1 }, { 1, 1, 2 }, { 62, 2, 3 }, { 63, 3, 4 }, { 64, 0, 0x3fff },
		       { 65, 1, 0x100 }, { 126, 2, 0x2000 }, { 127, 3, 0x3fff } },
		.ne = 8,
		.blocks = 2,
		.want = {
			{ [0] = 0x00, 0x7f,
			  [4] = 0x00, 0x01, 0x40, 0x02,
			  [128] = 0x80, 0x03, 0xc0, 0x04 },
			{ [0] = 0x00, 0x7f,
			  [4] = 0x3f, 0xff, 0x41, 0x00,
			  [128] = 0xa0, 0x00, 0xff, 0xff },
		},
	},
	{
		.name = "65 entries: block 1 has one",
		.len = 65,
		.e = { { 64, 1, 9 } },
		.ne = 1,
		.blocks = 2,
		.want = {
			{ [0] = 0x00, 0x40 },
			{ [0] = 0x00, 0x40,
			  [4] = 0x40, 0x09 },
		},
	},
};

static void congestion_control_table(void **state)
{
	uint8_t d[MAD_ATTR_LEN];
	struct cc_ca_setting *s = calloc(1, sizeof(*s));
	unsigned int b, k;
	size_t i;

	(void)state;
	assert_non_null(s);
	for (i = 0; i < ARRAY_SIZE(cct_cases); i++) {
		const struct cct_case *c = &cct_cases[i];

		memset(s, 0, sizeof(*s));
		s->set = CC_CA_CCT;
		s->cct_len = c->len;
		for (k = 0; k < c->ne; k++) {
			s->cct[c->e[k].i].shift = c->e[k].shift;
			s->cct[c->e[k].i].multiplier = c->e[k].mult;
		}
		assert_int_equal(be_cct_blocks(c->len), c->blocks);
		for (b = 0; b < c->blocks; b++) {
			memset(d, 0xa5, sizeof(d));
			mad_cct_encode(d, s, b);
			expect_bytes(c->name, b, d, c->want[b]);
		}
	}
	free(s);
}

static void statuses(void **state)
{
	char s[64];

	(void)state;
	mad_status_str(0x1c, s, sizeof(s));
	assert_string_equal(s, "0x001c (invalid attribute or modifier)");
	mad_status_str(0x0c, s, sizeof(s));
	assert_string_equal(s, "0x000c (method and attribute not supported)");
	mad_status_str(0x0100, s, sizeof(s));
	assert_string_equal(s, "0x0100");
}

/* ---------------------------------------------------------------- a fake agent */

#define F_SW		2
#define S1_PORTS	36
#define S1_LID		3
#define S2_LID		5

struct fsw {
	uint16_t lid;
	unsigned int nports;
	uint8_t pc_ext[H_PORTS][MAD_ATTR_LEN];
	uint8_t xcc[H_PORTS][MAD_ATTR_LEN];
	uint8_t swcc[MAD_ATTR_LEN];
	uint8_t block[2][MAD_ATTR_LEN];
};

#define F_CA		2
#define HOSTA_LID	9
#define HOSTB_LID	11

/* A CA port's CC agent, Sets only (as OpenSM's manager sends) */
struct fca {
	uint16_t lid;
	unsigned int cct_blocks;	/* what it holds; 0: no agent at all */
	uint8_t cacc[MAD_ATTR_LEN];
	uint8_t cct[2][MAD_ATTR_LEN];
};

struct fake {
	struct hand *h;
	struct fsw sw[F_SW];
	struct fca ca[F_CA];
	unsigned int pma, cc_gets, cc_sets, discovers;
	bool discover_fails;
	/* inject: a MAD of attr to lid times out, or gets status */
	uint16_t bad_lid, bad_attr;
	unsigned int bad_status;	/* 0: timeout */
	uint64_t keys_seen;		/* OR of every CC_Key */
	int closed;
};

static struct fsw *fsw_of(struct fake *f, uint16_t lid)
{
	int i;

	for (i = 0; i < F_SW; i++)
		if (f->sw[i].lid == lid)
			return &f->sw[i];
	return NULL;
}

static int inject(struct fake *f, uint16_t lid, uint16_t attr, unsigned int *status)
{
	if (f->bad_lid != lid || f->bad_attr != attr)
		return 0;
	*status = f->bad_status;
	return f->bad_status ? -EIO : -ETIMEDOUT;
}

static int fk_pma_get(void *ctx, uint16_t lid, uint16_t attr, uint8_t port, uint8_t *data,
		      unsigned int *status)
{
	struct fake *f = ctx;
	struct fsw *s = fsw_of(f, lid);
	int err;

	f->pma++;
	err = inject(f, lid, attr, status);
	if (err)
		return err;
	assert_non_null(s);
	if (port > s->nports) {
		*status = 0x1c;
		return -EIO;
	}
	memcpy(data, attr == MAD_PC_EXT ? s->pc_ext[port] : s->xcc[port], MAD_ATTR_LEN);
	return 0;
}

static int fk_ca(struct fca *c, bool set, uint16_t attr, uint32_t mod, uint8_t *data,
		 unsigned int *status)
{
	uint8_t *where;

	/* no agent: the kernel MAD layer answers for it */
	if (!c->cct_blocks) {
		*status = 0x0c;
		return -EIO;
	}
	if (!set || (attr != MAD_CA_CC && attr != MAD_CCT) || (attr == MAD_CA_CC && mod) ||
	    (attr == MAD_CCT && mod >= c->cct_blocks)) {
		*status = 0x1c;
		return -EIO;
	}
	where = attr == MAD_CA_CC ? c->cacc : c->cct[mod];
	memcpy(where, data, MAD_ATTR_LEN);
	return 0;
}

static int fk_cc(struct fake *f, bool set, uint16_t lid, uint16_t attr, uint32_t mod,
		 uint64_t key, uint8_t *data, unsigned int *status)
{
	struct fsw *s = fsw_of(f, lid);
	uint8_t *where;
	int err, i;

	f->keys_seen |= key;
	err = inject(f, lid, attr, status);
	if (err)
		return err;
	for (i = 0; i < F_CA; i++)
		if (f->ca[i].lid == lid)
			return fk_ca(&f->ca[i], set, attr, mod, data, status);
	assert_non_null(s);
	if ((attr == MAD_SW_CC && mod) || (attr == MAD_SW_PORT_CC && mod > s->nports / 32)) {
		*status = 0x1c;
		return -EIO;
	}
	where = attr == MAD_SW_CC ? s->swcc : s->block[mod];
	if (set)
		memcpy(where, data, MAD_ATTR_LEN);
	memcpy(data, where, MAD_ATTR_LEN);
	return 0;
}

static int fk_cc_get(void *ctx, uint16_t lid, uint16_t attr, uint32_t mod, uint64_t key,
		     uint8_t *data, unsigned int *status)
{
	((struct fake *)ctx)->cc_gets++;
	return fk_cc(ctx, false, lid, attr, mod, key, data, status);
}

static int fk_cc_set(void *ctx, uint16_t lid, uint16_t attr, uint32_t mod, uint64_t key,
		     uint8_t *data, unsigned int *status)
{
	((struct fake *)ctx)->cc_sets++;
	return fk_cc(ctx, true, lid, attr, mod, key, data, status);
}

static int fk_discover(void *ctx, struct mad_fabric *t, char *msg, size_t len)
{
	struct fake *f = ctx;

	f->discovers++;
	if (f->discover_fails) {
		snprintf(msg, len, "fabric discovery failed");
		return -EIO;
	}
	return mad_fabric_build(&f->h->f, t, msg, len);
}

static void fk_close(void *ctx)
{
	((struct fake *)ctx)->closed++;
}

static const struct mad_agent_ops fake_ops = {
	.pma_get = fk_pma_get,
	.cc_get = fk_cc_get,
	.cc_set = fk_cc_set,
	.discover = fk_discover,
	.close = fk_close,
};

/*
 * S1 (LID 3, 36 ports: two blocks) and S2 (LID 5, 3 ports): S1/1 - S2/3,
 * S1/34 - S2/1, a host on S1/2 (LID 9, a CC agent that holds 2 CCT
 * blocks). Counters: port p of S1 has PortXmitData 1000 p, PortXmitWait
 * 2^40 + p, PortXmitTimeCong 3000 + p.
 */
static struct fake *fake_new(void)
{
	struct fake *f = calloc(1, sizeof(*f));
	unsigned int p;
	int s1, s2, ca;

	assert_non_null(f);
	f->h = hand_new();
	s2 = SW(f->h, "S2", 0x2, S2_LID, 3);
	s1 = SW(f->h, "S1", 0x1, S1_LID, S1_PORTS);
	ca = CA(f->h, "hostA", 0xa, HOSTA_LID);
	hand_link(f->h, s1, 1, s2, 3);
	hand_link(f->h, s1, 34, s2, 1);
	hand_link(f->h, s1, 2, ca, 1);
	f->ca[0].lid = HOSTA_LID;
	f->ca[0].cct_blocks = 2;
	f->sw[0].lid = S1_LID;
	f->sw[0].nports = S1_PORTS;
	f->sw[1].lid = S2_LID;
	f->sw[1].nports = 3;
	for (p = 1; p <= S1_PORTS; p++) {
		put_be(f->sw[0].pc_ext[p] + 8, 1000 * p, 8);
		put_be(f->sw[0].pc_ext[p] + 16, 0xdead, 8);	/* PortRcvData */
		put_be(f->sw[0].pc_ext[p] + 168, (1ULL << 40) + p, 8);
		put_be(f->sw[0].xcc[p] + 4, 3000 + p, 4);
	}
	/* SwitchCongestionSetting: threshold 15, packet size 8, Marking_Rate 128 */
	f->sw[0].swcc[3] = 0x14;
	f->sw[0].swcc[68] = 0xf0;
	f->sw[0].swcc[69] = 8;
	f->sw[0].swcc[75] = 128;
	/* port 3: valid, threshold 4, packet size 2, Marking_Rate 7 */
	memcpy(f->sw[0].block[0] + 12, (uint8_t []){ 0x84, 0x02, 0x00, 0x07 }, 4);
	/* port 33 (block 1, element 1): not valid, Marking_Rate 0x0100 */
	memcpy(f->sw[0].block[1] + 4, (uint8_t []){ 0x05, 0x01, 0x01, 0x00 }, 4);
	/* port 35: valid, Marking_Rate 0xffff */
	memcpy(f->sw[0].block[1] + 12, (uint8_t []){ 0x8f, 0xff, 0xff, 0xff }, 4);
	return f;
}

static void fake_free(struct fake *f)
{
	free(f->h);
	free(f);
}

static const struct mad_be_conf mconf = {
	.cc_key = 0x0123456789abcdefULL, .timeout_ms = 200, .rediscover = 3,
};

static void open_fake(struct backend *b, struct fake *f, const struct mad_be_conf *mc)
{
	assert_int_equal(backend_mad_init(b, mc ? mc : &mconf, &fake_ops, f, NULL), 0);
	assert_int_equal(f->discovers, 1);
	assert_string_equal(b->ops->name, "mad");
}

static void names_sorted(void **state)
{
	struct fake *f = fake_new();
	struct backend b;
	struct be_name *names;
	size_t n;

	(void)state;
	open_fake(&b, f, NULL);
	assert_int_equal(b.ops->switches(&b, &names, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(names[0].s, "S1");
	assert_string_equal(names[1].s, "S2");
	free(names);
	b.ops->close(&b);
	assert_int_equal(f->closed, 1);
	fake_free(f);
}

static void read_ports_counters_and_peers(void **state)
{
	struct fake *f = fake_new();
	struct dcms_port_sample *p;
	struct backend b;
	size_t n;

	(void)state;
	open_fake(&b, f, NULL);
	assert_int_equal(b.ops->read_ports(&b, "S1", &p, &n), 0);
	assert_int_equal(n, S1_PORTS);
	/* two PMA Gets per cabled port (1, 2 and 34), no SMP */
	assert_int_equal(f->pma, 2 * 3);
	assert_int_equal(f->discovers, 1);
	assert_int_equal(p[0].port, 1);
	assert_true(p[0].d == 1000);
	assert_true(p[0].w == (1ULL << 40) + 1);
	assert_true(p[0].c == 3001);
	assert_int_equal(p[0].peer, DCMS_PEER_SWITCH);
	assert_string_equal(p[0].peer_switch, "S2");
	assert_int_equal(p[0].peer_port, 3);
	assert_int_equal(p[1].peer, DCMS_PEER_CA);
	assert_int_equal(p[2].peer, DCMS_PEER_NONE);
	/* not read: 0, though the fake's port 3 counts */
	assert_true(p[2].d == 0 && p[2].w == 0 && p[2].c == 0);
	assert_int_equal(p[33].port, 34);
	assert_true(p[33].d == 34000);
	assert_string_equal(p[33].peer_switch, "S2");
	assert_int_equal(p[33].peer_port, 1);
	free(p);
	assert_int_equal(b.ops->read_ports(&b, "S9", &p, &n), -ENODEV);
	b.ops->close(&b);
	fake_free(f);
}

static void cc_get_both_blocks(void **state)
{
	struct fake *f = fake_new();
	struct be_switch_cc cc;
	struct backend b;

	(void)state;
	open_fake(&b, f, NULL);
	assert_int_equal(b.ops->cc_get(&b, "S1", &cc), 0);
	/* SwitchCongestionSetting and blocks 0 and 1 */
	assert_int_equal(f->cc_gets, 3);
	assert_true(f->keys_seen == mconf.cc_key);
	assert_int_equal(cc.threshold, 15);
	assert_int_equal(cc.packet_size, 8);
	assert_int_equal(cc.marking_rate, 128);
	assert_int_equal(cc.nports, S1_PORTS);
	assert_true(cc.port[3].valid);
	assert_int_equal(cc.port[3].threshold, 4);
	assert_int_equal(cc.port[3].packet_size, 2);
	assert_int_equal(cc.port[3].marking_rate, 7);
	assert_false(cc.port[33].valid);
	assert_int_equal(cc.port[33].threshold, 5);
	assert_int_equal(cc.port[33].marking_rate, 0x100);
	assert_true(cc.port[35].valid);
	assert_int_equal(cc.port[35].marking_rate, 0xffff);
	assert_false(cc.port[36].valid);
	assert_int_equal(be_effective_mr(&cc, 33), 128);
	assert_int_equal(b.ops->cc_get(&b, "nope", &cc), -ENODEV);
	b.ops->close(&b);
	fake_free(f);
}

static void cc_set_port_changes_one_element(void **state)
{
	struct be_port_cc pc = { .valid = true, .threshold = 15, .packet_size = 8,
				 .marking_rate = 0 };
	struct fake *f = fake_new();
	uint8_t b0[MAD_ATTR_LEN], b1[MAD_ATTR_LEN];
	struct backend b;

	(void)state;
	open_fake(&b, f, NULL);
	memcpy(b0, f->sw[0].block[0], sizeof(b0));
	memcpy(b1, f->sw[0].block[1], sizeof(b1));
	/* port 34: block 1, element 2 */
	assert_int_equal(b.ops->cc_set_port(&b, "S1", 34, &pc), 0);
	assert_int_equal(f->cc_gets, 1);
	assert_int_equal(f->cc_sets, 1);
	memcpy(b1 + 8, (uint8_t []){ 0x8f, 0x08, 0x00, 0x00 }, 4);
	assert_memory_equal(f->sw[0].block[1], b1, sizeof(b1));
	assert_memory_equal(f->sw[0].block[0], b0, sizeof(b0));
	/* port 3 back to invalid: every field applied */
	pc.valid = false;
	pc.threshold = 1;
	pc.packet_size = 2;
	pc.marking_rate = 0x0304;
	assert_int_equal(b.ops->cc_set_port(&b, "S1", 3, &pc), 0);
	memcpy(b0 + 12, (uint8_t []){ 0x01, 0x02, 0x03, 0x04 }, 4);
	assert_memory_equal(f->sw[0].block[0], b0, sizeof(b0));
	assert_true(f->keys_seen == mconf.cc_key);
	/* ports the switch does not have */
	assert_int_equal(b.ops->cc_set_port(&b, "S1", 37, &pc), -EINVAL);
	assert_string_equal(b.msg, "switch S1 has no port 37 (ports 1 to 36)");
	assert_int_equal(b.ops->cc_set_port(&b, "S1", 0, &pc), -EINVAL);
	b.ops->close(&b);
	fake_free(f);
}

static void cc_set_switch_control_map(void **state)
{
	struct fake *f = fake_new();
	struct cc_sw_setting s = { 0 };
	uint8_t want[MAD_ATTR_LEN];
	struct backend b;

	(void)state;
	open_fake(&b, f, NULL);
	memcpy(want, f->sw[0].swcc, sizeof(want));
	s.set = CC_SW_MARKING_RATE | CC_SW_PACKET_SIZE;
	s.marking_rate = 10;
	s.packet_size = 16;
	assert_int_equal(b.ops->cc_set_switch(&b, "S1", &s), 0);
	/* Control_Map: threshold and packet size (bit 2), marking rate (bit 4) */
	want[3] = 0x14;
	want[69] = 16;
	want[74] = 0;
	want[75] = 10;
	assert_memory_equal(f->sw[0].swcc, want, sizeof(want));
	/* a Control_Map alone is nothing to set, as with genl */
	s.set = CC_SW_CONTROL_MAP;
	assert_int_equal(b.ops->cc_set_switch(&b, "S1", &s), -EINVAL);
	assert_string_equal(b.msg, "nothing to set: give a setting");
	b.ops->close(&b);
	fake_free(f);
}

static void errors_name_switch_attribute_status(void **state)
{
	struct fake *f = fake_new();
	struct dcms_port_sample *p;
	struct be_port_cc pc = { 0 };
	struct be_switch_cc cc;
	struct backend b;
	size_t n;

	(void)state;
	open_fake(&b, f, NULL);
	f->bad_lid = S1_LID;
	f->bad_attr = MAD_XMIT_CON_CTRL;
	assert_int_equal(b.ops->read_ports(&b, "S1", &p, &n), -ETIMEDOUT);
	expect_msg(b.msg, "switch S1 (LID 3): Get PortXmitConCtrl port 1: ",
		   "no answer in 200 ms");
	/* the first failure ends the read */
	assert_int_equal(f->pma, 2);
	f->bad_attr = MAD_PC_EXT;
	f->bad_status = 0x1c;
	assert_int_equal(b.ops->read_ports(&b, "S1", &p, &n), -EIO);
	expect_msg(b.msg, "switch S1 (LID 3): Get PortCountersExtended port 1: ",
		   "MAD status 0x001c (invalid attribute or modifier)");
	f->bad_attr = MAD_SW_CC;
	assert_int_equal(b.ops->cc_get(&b, "S1", &cc), -EIO);
	expect_msg(b.msg, "switch S1 (LID 3): Get SwitchCongestionSetting: ",
		   "MAD status 0x001c (invalid attribute or modifier)");
	f->bad_attr = MAD_SW_PORT_CC;
	f->bad_status = 0;
	assert_int_equal(b.ops->cc_set_port(&b, "S1", 5, &pc), -ETIMEDOUT);
	expect_msg(b.msg, "switch S1 (LID 3): Get SwitchPortCongestionSetting block 0: ",
		   "no answer in 200 ms");
	/* a success clears the message */
	f->bad_lid = 0;
	assert_int_equal(b.ops->cc_get(&b, "S2", &cc), 0);
	assert_string_equal(b.msg, "");
	assert_int_equal(cc.nports, 3);
	b.ops->close(&b);
	fake_free(f);
}

static void discovery_policy(void **state)
{
	struct fake *f = fake_new();
	struct dcms_port_sample *p;
	struct be_name *names;
	struct backend b;
	size_t n;
	int i;

	(void)state;
	open_fake(&b, f, NULL);	/* mad_rediscover 3 */
	/* sweeps 1 to 3 use the discovery of the open, sweep 4 makes one */
	for (i = 0; i < 3; i++) {
		assert_int_equal(b.ops->switches(&b, &names, &n), 0);
		free(names);
		assert_int_equal(b.ops->read_ports(&b, "S2", &p, &n), 0);
		free(p);
	}
	assert_int_equal(f->discovers, 1);
	assert_int_equal(b.ops->switches(&b, &names, &n), 0);
	free(names);
	assert_int_equal(f->discovers, 2);

	/* a failed MAD: the next switches() discovers */
	f->bad_lid = S2_LID;
	f->bad_attr = MAD_PC_EXT;
	assert_int_equal(b.ops->read_ports(&b, "S2", &p, &n), -ETIMEDOUT);
	f->bad_lid = 0;
	assert_int_equal(b.ops->switches(&b, &names, &n), 0);
	free(names);
	assert_int_equal(f->discovers, 3);
	assert_int_equal(b.ops->switches(&b, &names, &n), 0);
	free(names);
	assert_int_equal(f->discovers, 3);

	/* a failed discovery keeps the old table and is tried at every switches() */
	f->bad_lid = S2_LID;
	assert_int_equal(b.ops->read_ports(&b, "S2", &p, &n), -ETIMEDOUT);
	f->bad_lid = 0;
	f->discover_fails = true;
	assert_int_equal(b.ops->switches(&b, &names, &n), -EIO);
	assert_string_equal(b.msg, "fabric discovery failed");
	assert_int_equal(f->discovers, 4);
	assert_int_equal(b.ops->read_ports(&b, "S2", &p, &n), 0);
	free(p);
	f->discover_fails = false;
	assert_int_equal(b.ops->switches(&b, &names, &n), 0);
	assert_int_equal(n, 2);
	free(names);
	assert_int_equal(f->discovers, 5);

	/* a switch gone from the fabric: -ENODEV, as genl's */
	f->h->node[0].next = &f->h->node[2];	/* S1 gone from the list */
	f->h->ports[0][3] = NULL;		/* and S2's links to it */
	f->h->ports[0][1] = NULL;
	f->bad_lid = S2_LID;
	assert_int_equal(b.ops->read_ports(&b, "S2", &p, &n), -ETIMEDOUT);
	f->bad_lid = 0;
	assert_int_equal(b.ops->switches(&b, &names, &n), 0);
	free(names);
	assert_int_equal(n, 1);
	assert_int_equal(b.ops->read_ports(&b, "S1", &p, &n), -ENODEV);
	b.ops->close(&b);
	fake_free(f);
}

/* M1, the port the discovery starts from, on S1/5; hostB (no CC agent) on S2/2 */
static void add_mgmt_and_host_b(struct fake *f)
{
	int m1 = CA(f->h, "M1 ibsw_mgmt0", 0x100, 1);
	int hb = CA(f->h, "hostB rxe_hostB", 0xb, HOSTB_LID);

	hand_link(f->h, 1, 5, m1, 1);
	hand_link(f->h, 0, 2, hb, 1);
	f->h->f.from_node = &f->h->node[m1];
	f->h->f.from_portnum = 1;
	f->ca[1].lid = HOSTB_LID;
}

static void cc_set_ca_as_opensm(void **state)
{
	struct cc_ca_setting *s = calloc(1, sizeof(*s));
	struct fake *f = fake_new();
	uint8_t want[MAD_ATTR_LEN];
	struct be_name *names;
	struct be_ca *cas;
	struct backend b;
	unsigned int i;
	size_t n;

	(void)state;
	assert_non_null(s);
	add_mgmt_and_host_b(f);
	open_fake(&b, f, NULL);
	assert_int_equal(b.ops->cas(&b, &cas, &n), 0);
	/* not M1: the backend's own port */
	assert_int_equal(n, 2);
	assert_string_equal(cas[0].name, "hostA");
	assert_int_equal(cas[0].lid, HOSTA_LID);
	assert_string_equal(cas[1].name, "hostB");
	assert_int_equal(cas[1].lid, HOSTB_LID);

	/* CACongestionSetting, then blocks 0 and 1, with the CC_Key */
	s->set = CC_CA_PORT_CONTROL | CC_CA_CONTROL_MAP | CC_CA_CCT;
	s->port_control = 1;
	s->control_map = 1;
	s->sl[0].set = CC_CA_SL_TIMER;
	s->sl[0].ccti_timer = 75;
	s->cct_len = CC_CCT_MAX;
	for (i = 0; i < CC_CCT_MAX; i++) {
		s->cct[i].shift = i % 4;
		s->cct[i].multiplier = i;
	}
	assert_int_equal(b.ops->cc_set_ca(&b, &cas[0], s), 0);
	assert_int_equal(f->cc_sets, 3);
	assert_int_equal(f->cc_gets, 0);
	assert_true(f->keys_seen == mconf.cc_key);
	mad_ca_cc_encode(want, s);
	assert_memory_equal(f->ca[0].cacc, want, sizeof(want));
	mad_cct_encode(want, s, 0);
	assert_memory_equal(f->ca[0].cct[0], want, sizeof(want));
	mad_cct_encode(want, s, 1);
	assert_memory_equal(f->ca[0].cct[1], want, sizeof(want));

	/* an empty table: one block, CCTI_Limit 0 */
	s->cct_len = 0;
	f->cc_sets = 0;
	assert_int_equal(b.ops->cc_set_ca(&b, &cas[0], s), 0);
	assert_int_equal(f->cc_sets, 2);
	memset(want, 0, sizeof(want));
	assert_memory_equal(f->ca[0].cct[0], want, sizeof(want));

	/* LID 0: nothing sent */
	cas[0].lid = 0;
	f->cc_sets = 0;
	assert_int_equal(b.ops->cc_set_ca(&b, &cas[0], s), -ENXIO);
	assert_string_equal(b.msg, "hca hostA (LID 0): no LID, no subnet manager has assigned one");
	assert_int_equal(f->cc_sets, 0);

	/* a CA's failures are not a switch's: no discovery for them */
	assert_int_equal(b.ops->switches(&b, &names, &n), 0);
	free(names);
	assert_int_equal(f->discovers, 1);
	free(cas);
	free(s);
	b.ops->close(&b);
	fake_free(f);
}

#define ST_0C "MAD status 0x000c (method and attribute not supported)"

static void cc_set_ca_no_agent_or_refused(void **state)
{
	static const struct {
		uint16_t attr;
		unsigned int status;	/* 0: no answer */
		int err;
		const char *msg;
	} cases[] = {
		{ MAD_CA_CC, 0x0004, -EOPNOTSUPP,
		  "no congestion control agent (MAD status 0x0004 (bad class version))" },
		{ MAD_CA_CC, 0x0008, -EOPNOTSUPP,
		  "no congestion control agent (MAD status 0x0008 (method not supported))" },
		{ MAD_CA_CC, 0, -EOPNOTSUPP, "no congestion control agent (no answer in 200 ms)" },
		{ MAD_CA_CC, 0x001c, -EIO,
		  "Set CACongestionSetting: MAD status 0x001c (invalid attribute or modifier)" },
		/* an agent that took CACongestionSetting: refusing, not absent */
		{ MAD_CCT, 0x000c, -EIO, "Set CongestionControlTable block 0: " ST_0C },
		{ MAD_CCT, 0, -ETIMEDOUT,
		  "Set CongestionControlTable block 0: no answer in 200 ms" },
	};
	struct cc_ca_setting *s = calloc(1, sizeof(*s));
	const struct be_ca host_a = { "hostA", HOSTA_LID }, host_b = { "hostB", HOSTB_LID };
	struct fake *f = fake_new();
	struct backend b;
	char want[256];
	size_t i;

	(void)state;
	assert_non_null(s);
	add_mgmt_and_host_b(f);
	open_fake(&b, f, NULL);
	/* hostB: the kernel's 0x000c, where no agent registered */
	assert_int_equal(b.ops->cc_set_ca(&b, &host_b, s), -EOPNOTSUPP);
	assert_string_equal(b.msg, "hca hostB (LID 11): no congestion control agent (" ST_0C ")");
	f->bad_lid = HOSTA_LID;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		f->bad_attr = cases[i].attr;
		f->bad_status = cases[i].status;
		assert_int_equal(b.ops->cc_set_ca(&b, &host_a, s), cases[i].err);
		snprintf(want, sizeof(want), "hca hostA (LID 9): %s", cases[i].msg);
		assert_string_equal(b.msg, want);
	}
	/* an agent that holds one block refuses the second */
	f->bad_lid = 0;
	f->ca[0].cct_blocks = 1;
	s->cct_len = 65;
	assert_int_equal(b.ops->cc_set_ca(&b, &host_a, s), -EIO);
	expect_msg(b.msg, "hca hostA (LID 9): Set CongestionControlTable block 1: ",
		   "MAD status 0x001c (invalid attribute or modifier)");
	/* a success clears the message */
	s->cct_len = 64;
	assert_int_equal(b.ops->cc_set_ca(&b, &host_a, s), 0);
	assert_string_equal(b.msg, "");
	free(s);
	b.ops->close(&b);
	fake_free(f);
}

static void open_fails_without_switch_lids(void **state)
{
	struct fake *f = fake_new();
	struct backend b;

	(void)state;
	f->h->node[0].smalid = 0;
	assert_int_equal(backend_mad_init(&b, &mconf, &fake_ops, f, NULL), -ENXIO);
	assert_non_null(strstr(b.msg, "has LID 0"));
	assert_null(b.ops);
	/* the agent is closed with the backend */
	assert_int_equal(f->closed, 1);
	fake_free(f);
}

/* A genl backend stand-in: only its time scale */
static int g_scale(struct backend *b, uint32_t *scale)
{
	(void)b;
	*scale = 200;
	return 0;
}

static void g_close(struct backend *b)
{
	(void)b;
}

static const struct backend_ops genl_stub = {
	.name = "stub", .time_scale = g_scale, .close = g_close,
};

static void time_scale_sources(void **state)
{
	struct mad_be_conf mc = mconf;
	struct fake *f = fake_new();
	struct backend b, *g;
	uint32_t scale = 0;

	(void)state;
	/* no ibsw: a real fabric */
	open_fake(&b, f, NULL);
	assert_int_equal(b.ops->time_scale(&b, &scale), 0);
	assert_int_equal(scale, 1);
	b.ops->close(&b);
	/* the ibsw family answers */
	f->discovers = 0;
	g = calloc(1, sizeof(*g));
	assert_non_null(g);
	g->ops = &genl_stub;
	assert_int_equal(backend_mad_init(&b, &mc, &fake_ops, f, g), 0);
	assert_int_equal(b.ops->time_scale(&b, &scale), 0);
	assert_int_equal(scale, 200);
	b.ops->close(&b);
	/* the configuration wins */
	f->discovers = 0;
	mc.time_scale = 50;
	open_fake(&b, f, &mc);
	assert_int_equal(b.ops->time_scale(&b, &scale), 0);
	assert_int_equal(scale, 50);
	b.ops->close(&b);
	fake_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(table_from_hand_made_ibnd),
		cmocka_unit_test(ca_table),
		cmocka_unit_test(table_names_that_cannot_be_used),
		cmocka_unit_test(table_refuses_lid_0_and_too_many_ports),
		cmocka_unit_test(port_counters_extended),
		cmocka_unit_test(port_xmit_con_ctrl),
		cmocka_unit_test(switch_congestion_setting),
		cmocka_unit_test(switch_port_block_modify),
		cmocka_unit_test(ca_congestion_setting),
		cmocka_unit_test(congestion_control_table),
		cmocka_unit_test(statuses),
		cmocka_unit_test(names_sorted),
		cmocka_unit_test(read_ports_counters_and_peers),
		cmocka_unit_test(cc_get_both_blocks),
		cmocka_unit_test(cc_set_port_changes_one_element),
		cmocka_unit_test(cc_set_switch_control_map),
		cmocka_unit_test(errors_name_switch_attribute_status),
		cmocka_unit_test(discovery_policy),
		cmocka_unit_test(cc_set_ca_as_opensm),
		cmocka_unit_test(cc_set_ca_no_agent_or_refused),
		cmocka_unit_test(open_fails_without_switch_lids),
		cmocka_unit_test(time_scale_sources),
	};

	return run_group("mad", tests, ARRAY_SIZE(tests)) ? 1 : 0;
}
