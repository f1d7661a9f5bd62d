// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for ibsw remote links: their frames and credits (rlink.c,
 * rlink.h).
 *
 * Every expected header is written by hand from the layouts in rlink.h
 * (multi-byte fields big-endian), never taken from the encoders; each
 * build goes over areas filled with 0x00, 0xaa and 0xff, so it must write
 * every byte. Sequence numbers and the credit counters are checked at
 * their limits and across 2^32, then end to end on a model of one VL of a
 * lossy link built of these functions only: DATA and CREDITs lost,
 * CREDITs overtaken, and in the end no credit leaked and no buffer
 * overrun.
 */

#include <kunit/test.h>
#include <linux/errno.h>
#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/sprintf.h>
#include <linux/stddef.h>
#include <linux/string.h>

#include "../rlink.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/*
 * Wire constants are restated here rather than taken from rlink.h and
 * rate.h, so a wrong value there fails the tests instead of moving both
 * sides.
 */
#define KT_HDR_LEN	16
#define KT_DATA_LEN	16
#define KT_NAME_LEN	32
#define KT_HELLO_LEN	(40 + KT_NAME_LEN)
/* Largest wire length at MTU 4096: 4096 + 58 (rate.h) */
#define KT_WIRE_MAX	4154
/* Largest packet a DATA carries: KT_WIRE_MAX + 64 (IBSW_RL_PKT_EXTRA) */
#define KT_PKT_MAX	4218
#define KT_FLAG_IB	0x08	/* IBSW_CB_IB: LRH first, no UDP header */

static const u8 kt_fills[] = { 0x00, 0xaa, 0xff };

static void kt_expect_bytes(struct kunit *test, const u8 *got, const u8 *exp,
			    unsigned int len, const char *what)
{
	unsigned int i;

	for (i = 0; i < len; i++)
		KUNIT_EXPECT_EQ_MSG(test, got[i], exp[i], "%s: byte %u", what,
				    i);
}

/* Builds @c with @build over each fill, then compares the area with @exp */
static void kt_build_check(struct kunit *test, unsigned int len, const u8 *exp,
			   void (*build)(void *area, const void *c),
			   const void *c)
{
	u8 area[KT_HELLO_LEN];
	char what[32];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(kt_fills); i++) {
		memset(area, kt_fills[i], sizeof(area));
		build(area, c);
		snprintf(what, sizeof(what), "build over 0x%02x", kt_fills[i]);
		kt_expect_bytes(test, area, exp, len, what);
	}
}

/* ---- The link header ---- */

struct kt_hdr_case {
	const char		*desc;
	enum ibsw_rl_type	type;
	u32			link_id;
	u32			epoch;
	u32			seq;
	u8			bytes[KT_HDR_LEN];
};

/* 0-1 magic "IB", 2 version 2, 3 type, 4-7 link id, 8-11 epoch, 12-15 seq */
static const struct kt_hdr_case kt_hdr_cases[] = {
	{
		"DATA", IBSW_RL_DATA, 0x01020304, 0x11223344, 0,
		{ 0x49, 0x42, 0x02, 0x01, 0x01, 0x02, 0x03, 0x04,
		  0x11, 0x22, 0x33, 0x44, 0x00, 0x00, 0x00, 0x00 },
	}, {
		"CREDIT", IBSW_RL_CREDIT, 0xdeadbeef, 1, U32_MAX,
		{ 0x49, 0x42, 0x02, 0x02, 0xde, 0xad, 0xbe, 0xef,
		  0x00, 0x00, 0x00, 0x01, 0xff, 0xff, 0xff, 0xff },
	}, {
		"HELLO", IBSW_RL_HELLO, 0, 0x80000000, 0x00010203,
		{ 0x49, 0x42, 0x02, 0x03, 0x00, 0x00, 0x00, 0x00,
		  0x80, 0x00, 0x00, 0x00, 0x00, 0x01, 0x02, 0x03 },
	}, {
		"BYE", IBSW_RL_BYE, 0x0a0b0c0d, 0xfedcba98, 0x76543210,
		{ 0x49, 0x42, 0x02, 0x04, 0x0a, 0x0b, 0x0c, 0x0d,
		  0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10 },
	},
};

KUNIT_ARRAY_PARAM_DESC(kt_hdr, kt_hdr_cases, desc);

static void kt_hdr_build(void *area, const void *arg)
{
	const struct kt_hdr_case *c = arg;

	ibsw_rl_hdr_build(area, c->type, c->link_id, c->epoch, c->seq);
}

static void ibsw_rl_hdr_build_test(struct kunit *test)
{
	const struct kt_hdr_case *c = test->param_value;
	struct ibsw_rl_hdr h;

	kt_build_check(test, KT_HDR_LEN, c->bytes, kt_hdr_build, c);

	/* What it built is a header of its type */
	ibsw_rl_hdr_build(&h, c->type, c->link_id, c->epoch, c->seq);
	KUNIT_EXPECT_EQ(test, ibsw_rl_hdr_check(&h), (int)c->type);
}

struct kt_hdr_check_case {
	const char	*desc;
	u8		bytes[KT_HDR_LEN];
	int		exp;
};

/* A header of link 7, frame 256 */
#define KT_HDR(m0, m1, ver, type, e0, e1, e2, e3)			\
	{ m0, m1, ver, type, 0x00, 0x00, 0x00, 0x07,			\
	  e0, e1, e2, e3, 0x00, 0x00, 0x01, 0x00 }

static const struct kt_hdr_check_case kt_hdr_check_cases[] = {
	{ "DATA", KT_HDR(0x49, 0x42, 2, 1, 0x12, 0x34, 0x56, 0x78), 1 },
	{ "CREDIT", KT_HDR(0x49, 0x42, 2, 2, 0x12, 0x34, 0x56, 0x78), 2 },
	{ "HELLO", KT_HDR(0x49, 0x42, 2, 3, 0x12, 0x34, 0x56, 0x78), 3 },
	{ "BYE", KT_HDR(0x49, 0x42, 2, 4, 0x12, 0x34, 0x56, 0x78), 4 },
	{ "epoch 1", KT_HDR(0x49, 0x42, 2, 1, 0x00, 0x00, 0x00, 0x01), 1 },
	{ "epoch 0x80000000",
	  KT_HDR(0x49, 0x42, 2, 1, 0x80, 0x00, 0x00, 0x00), 1 },
	{ "link 0, frame 0",
	  { 0x49, 0x42, 0x02, 0x02, 0x00, 0x00, 0x00, 0x00,
	    0x00, 0x00, 0x00, 0x09, 0x00, 0x00, 0x00, 0x00 }, 2 },
	{ "magic byte-swapped",
	  KT_HDR(0x42, 0x49, 2, 1, 0x12, 0x34, 0x56, 0x78), -EPROTO },
	{ "magic 0x4943", KT_HDR(0x49, 0x43, 2, 1, 0x12, 0x34, 0x56, 0x78),
	  -EPROTO },
	{ "magic 0", KT_HDR(0x00, 0x00, 2, 1, 0x12, 0x34, 0x56, 0x78),
	  -EPROTO },
	{ "version 0", KT_HDR(0x49, 0x42, 0, 1, 0x12, 0x34, 0x56, 0x78),
	  -EPROTO },
	{ "version 1 (no time stamps)",
	  KT_HDR(0x49, 0x42, 1, 1, 0x12, 0x34, 0x56, 0x78), -EPROTO },
	{ "version 3", KT_HDR(0x49, 0x42, 3, 1, 0x12, 0x34, 0x56, 0x78),
	  -EPROTO },
	{ "type 0", KT_HDR(0x49, 0x42, 2, 0, 0x12, 0x34, 0x56, 0x78),
	  -EPROTO },
	{ "type 5", KT_HDR(0x49, 0x42, 2, 5, 0x12, 0x34, 0x56, 0x78),
	  -EPROTO },
	{ "type 255", KT_HDR(0x49, 0x42, 2, 0xff, 0x12, 0x34, 0x56, 0x78),
	  -EPROTO },
	{ "epoch 0", KT_HDR(0x49, 0x42, 2, 1, 0x00, 0x00, 0x00, 0x00),
	  -EPROTO },
};

KUNIT_ARRAY_PARAM_DESC(kt_hdr_check, kt_hdr_check_cases, desc);

static void ibsw_rl_hdr_check_test(struct kunit *test)
{
	const struct kt_hdr_check_case *c = test->param_value;
	struct ibsw_rl_hdr h;

	memcpy(&h, c->bytes, sizeof(h));
	KUNIT_EXPECT_EQ(test, ibsw_rl_hdr_check(&h), c->exp);
}

/* ---- DATA ---- */

struct kt_data_case {
	const char	*desc;
	unsigned int	vl;
	unsigned int	sl;
	unsigned int	flags;
	unsigned int	wire_len;
	u16		dlid;
	u16		slid;
	unsigned int	bth_off;
	unsigned int	l4_off;
	u8		bytes[KT_DATA_LEN];
};

/*
 * 0 VL, 1 SL, 2 flags, 3 reserved, 4-5 wire length, 6-7 DLID, 8-9 SLID,
 * 10-11 BTH offset, 12-13 UDP offset, 14-15 reserved
 */
static const struct kt_data_case kt_data_cases[] = {
	{
		"RoCEv2 over IPv4, FECN and CC eligible",
		3, 5, 0x05, 1082, 0x0012, 0xc001, 42, 34,
		{ 0x03, 0x05, 0x05, 0x00, 0x04, 0x3a, 0x00, 0x12,
		  0xc0, 0x01, 0x00, 0x2a, 0x00, 0x22, 0x00, 0x00 },
	}, {
		"native IB, largest packet, highest VL and SL",
		14, 15, KT_FLAG_IB, KT_WIRE_MAX, 0xffff, 0x0001, 8, 0,
		{ 0x0e, 0x0f, 0x08, 0x00, 0x10, 0x3a, 0xff, 0xff,
		  0x00, 0x01, 0x00, 0x08, 0x00, 0x00, 0x00, 0x00 },
	}, {
		"RoCEv2 over IPv6, smallest packet",
		0, 0, 0, 26, 0x0001, 0x0002, 62, 54,
		{ 0x00, 0x00, 0x00, 0x00, 0x00, 0x1a, 0x00, 0x01,
		  0x00, 0x02, 0x00, 0x3e, 0x00, 0x36, 0x00, 0x00 },
	}, {
		"flags above 0x0f are not sent",
		1, 2, 0xff, 0x1234, 0xbeef, 0xcafe, 0x0102, 0x00f0,
		{ 0x01, 0x02, 0x0f, 0x00, 0x12, 0x34, 0xbe, 0xef,
		  0xca, 0xfe, 0x01, 0x02, 0x00, 0xf0, 0x00, 0x00 },
	},
};

KUNIT_ARRAY_PARAM_DESC(kt_data, kt_data_cases, desc);

static void kt_data_build(void *area, const void *arg)
{
	const struct kt_data_case *c = arg;

	ibsw_rl_data_build(area, c->vl, c->sl, c->flags, c->wire_len, c->dlid,
			   c->slid, c->bth_off, c->l4_off);
}

static void ibsw_rl_data_build_test(struct kunit *test)
{
	const struct kt_data_case *c = test->param_value;

	kt_build_check(test, KT_DATA_LEN, c->bytes, kt_data_build, c);
}

struct kt_data_check_case {
	const char	*desc;
	u8		vl;
	u8		sl;
	u8		flags;
	u16		wire_len;
	u16		bth_off;
	u16		l4_off;
	unsigned int	pkt_len;
	unsigned int	nr_vls;
	int		exp;
};

/*
 * A RoCEv2 packet as the switches carry it starts with its Ethernet header:
 * over IPv4 its UDP header is at 34 and its BTH at 42, over IPv6 at 54 and
 * 62. Its wire length counts LRH (8) and VCRC (2) in place of these
 * headers: 1082 wire bytes are 1114 packet bytes over IPv4, 4154 are 4206
 * over IPv6. A native IB packet starts with its LRH, its BTH at 8.
 */
static const struct kt_data_check_case kt_data_check_cases[] = {
	/* desc, VL, SL, flags, wire length, BTH, UDP, packet length, VLs */
	{ "RoCEv2 over IPv4", 0, 0, 0, 1082, 42, 34, 1114, 1, 0 },
	{ "RoCEv2 over IPv6, largest at MTU 4096",
	  3, 7, 0x07, KT_WIRE_MAX, 62, 54, 4206, 4, 0 },
	{ "native IB", 0, 0, KT_FLAG_IB, 290, 8, 0, 288, 1, 0 },
	{ "native IB, UDP offset unused",
	  0, 0, KT_FLAG_IB, 290, 8, 0xffff, 288, 1, 0 },
	{ "highest VL and SL, every flag",
	  14, 15, 0x0f, 1082, 42, 34, 1114, 15, 0 },
	{ "SL 16", 0, 16, 0, 1082, 42, 34, 1114, 1, -EINVAL },
	{ "SL 255", 0, 255, 0, 1082, 42, 34, 1114, 1, -EINVAL },
	{ "flag 0x10", 0, 0, 0x10, 1082, 42, 34, 1114, 1, -EINVAL },
	{ "flag 0x80 and native IB",
	  0, 0, 0x88, 290, 8, 0, 288, 1, -EINVAL },
	{ "wire length 0", 0, 0, 0, 0, 42, 34, 1114, 1, -EINVAL },
	{ "packet length 0", 0, 0, 0, 1082, 42, 34, 0, 1, -EINVAL },
	{ "VL = OperVLs", 4, 0, 0, 1082, 42, 34, 1114, 4, -ERANGE },
	{ "VL 0, no OperVLs", 0, 0, 0, 1082, 42, 34, 1114, 0, -ERANGE },
	{ "VL 15 of 15", 15, 0, 0, 1082, 42, 34, 1114, 15, -ERANGE },
	{ "VL 15, OperVLs 16", 15, 0, 0, 1082, 42, 34, 1114, 16, -ERANGE },
	{ "VL 255", 255, 0, 0, 1082, 42, 34, 1114, 255, -ERANGE },
	{ "wire length one over the largest",
	  0, 0, 0, KT_WIRE_MAX + 1, 42, 34, 1114, 1, -EMSGSIZE },
	{ "wire length 65535", 0, 0, 0, 0xffff, 42, 34, 1114, 1, -EMSGSIZE },
	{ "largest packet", 0, 0, 0, KT_WIRE_MAX, 62, 54, KT_PKT_MAX, 1, 0 },
	{ "packet one over the largest",
	  0, 0, 0, KT_WIRE_MAX, 62, 54, KT_PKT_MAX + 1, 1, -EMSGSIZE },
	{ "packet of 64 KiB", 0, 0, 0, 1082, 42, 34, 65536, 1, -EMSGSIZE },
	{ "BTH ends where the packet does",
	  0, 0, 0, 1082, 42, 34, 54, 1, 0 },
	{ "BTH one past the end", 0, 0, 0, 1082, 42, 34, 53, 1, -EINVAL },
	{ "BTH offset 65535", 0, 0, 0, 1082, 0xffff, 34, 1114, 1, -EINVAL },
	{ "native IB, BTH ends where the packet does",
	  0, 0, KT_FLAG_IB, 290, 8, 0, 20, 1, 0 },
	{ "native IB, BTH one past the end",
	  0, 0, KT_FLAG_IB, 290, 8, 0, 19, 1, -EINVAL },
	{ "UDP right after Ethernet, BTH right after UDP",
	  0, 0, 0, 1082, 22, 14, 1114, 1, 0 },
	{ "UDP at 13, inside Ethernet", 0, 0, 0, 1082, 42, 13, 1114, 1,
	  -EINVAL },
	{ "UDP at 0", 0, 0, 0, 1082, 42, 0, 1114, 1, -EINVAL },
	{ "UDP header overlaps the BTH by one",
	  0, 0, 0, 1082, 42, 35, 1114, 1, -EINVAL },
	{ "UDP after the BTH", 0, 0, 0, 1082, 42, 62, 1114, 1, -EINVAL },
	{ "UDP offset 65535", 0, 0, 0, 1082, 42, 0xffff, 1114, 1, -EINVAL },
};

KUNIT_ARRAY_PARAM_DESC(kt_data_check, kt_data_check_cases, desc);

static void ibsw_rl_data_check_test(struct kunit *test)
{
	const struct kt_data_check_case *c = test->param_value;
	struct ibsw_rl_data d = {
		.vl = c->vl,
		.sl = c->sl,
		.flags = c->flags,
		.wire_len = cpu_to_be16(c->wire_len),
		.dlid = cpu_to_be16(0x0002),
		.slid = cpu_to_be16(0x0001),
		.bth_off = cpu_to_be16(c->bth_off),
		.l4_off = cpu_to_be16(c->l4_off),
	};

	KUNIT_EXPECT_EQ(test, ibsw_rl_data_check(&d, c->pkt_len, c->nr_vls),
			c->exp);
}

/* ---- HELLO and the settings ---- */

struct kt_hello_case {
	const char		*desc;
	u32			peer_epoch;
	struct ibsw_rl_settings	s;
	unsigned int		port;
	const char		*name;
	struct ibsw_rl_stamp	t;
	u8			head[16];
	u8			stamp[24];
	char			name_bytes[KT_NAME_LEN];
};

/*
 * 0-3 peer epoch, 4-7 time scale, 8 pacing, 9 width, 10 speed, 11 OperVLs,
 * 12 port, 13-15 reserved, 16-23 sent, 24-31 echo, 32-35 held, 36-39
 * reserved, 40-71 switch name NUL-padded. Widths 1x 4x 8x 12x are 0 to 3,
 * speeds SDR DDR QDR FDR10 FDR EDR HDR NDR 0 to 7 (uapi).
 */
static const struct kt_hello_case kt_hello_cases[] = {
	{
		"pacing, 4x EDR",
		0x01020304,
		{ 1000, true, IBSW_LINK_WIDTH_4X, IBSW_LINK_SPEED_EDR, 8 },
		17, "leaf-01",
		{ 0x0102030405060708, 0x1112131415161718, 0x21222324 },
		{ 0x01, 0x02, 0x03, 0x04, 0x00, 0x00, 0x03, 0xe8,
		  0x01, 0x01, 0x05, 0x08, 0x11, 0x00, 0x00, 0x00 },
		{ 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
		  0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18,
		  0x21, 0x22, 0x23, 0x24, 0x00, 0x00, 0x00, 0x00 },
		"leaf-01",
	}, {
		"no peer yet, no pacing, 12x NDR, name of 31",
		0,
		{ 1, false, IBSW_LINK_WIDTH_12X, IBSW_LINK_SPEED_NDR, 15 },
		255, "abcdefghijklmnopqrstuvwxyz01234",
		{ 0, 0, 0 },
		{ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
		  0x00, 0x03, 0x07, 0x0f, 0xff, 0x00, 0x00, 0x00 },
		{ 0 },
		"abcdefghijklmnopqrstuvwxyz01234",
	}, {
		"1x SDR, a longer name cut to 31",
		0xfedcba98,
		{ 0x12345678, true, IBSW_LINK_WIDTH_1X, IBSW_LINK_SPEED_SDR, 1 },
		1, "abcdefghijklmnopqrstuvwxyz0123456789",
		{ U64_MAX, 1, U32_MAX },
		{ 0xfe, 0xdc, 0xba, 0x98, 0x12, 0x34, 0x56, 0x78,
		  0x01, 0x00, 0x00, 0x01, 0x01, 0x00, 0x00, 0x00 },
		{ 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
		  0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00 },
		"abcdefghijklmnopqrstuvwxyz01234",
	}, {
		"8x FDR10, empty name",
		0x80000001,
		{ 0xffffffff, false, IBSW_LINK_WIDTH_8X, IBSW_LINK_SPEED_FDR10,
		  2 },
		0, "",
		{ 0x8000000000000000, 0xffffffff, 0x80000000 },
		{ 0x80, 0x00, 0x00, 0x01, 0xff, 0xff, 0xff, 0xff,
		  0x00, 0x02, 0x03, 0x02, 0x00, 0x00, 0x00, 0x00 },
		{ 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		  0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff,
		  0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00 },
		"",
	},
};

KUNIT_ARRAY_PARAM_DESC(kt_hello, kt_hello_cases, desc);

static void kt_hello_build(void *area, const void *arg)
{
	const struct kt_hello_case *c = arg;

	ibsw_rl_hello_build(area, c->peer_epoch, &c->s, c->port, c->name,
			    &c->t);
}

static void kt_stamp_eq(struct kunit *test, const struct ibsw_rl_stamp *got,
			const struct ibsw_rl_stamp *exp)
{
	KUNIT_EXPECT_EQ(test, got->sent_ns, exp->sent_ns);
	KUNIT_EXPECT_EQ(test, got->echo_ns, exp->echo_ns);
	KUNIT_EXPECT_EQ(test, got->held_ns, exp->held_ns);
}

static void kt_settings_eq(struct kunit *test,
			   const struct ibsw_rl_settings *got,
			   const struct ibsw_rl_settings *exp)
{
	KUNIT_EXPECT_EQ(test, got->time_scale, exp->time_scale);
	KUNIT_EXPECT_EQ(test, got->pacing, exp->pacing);
	KUNIT_EXPECT_EQ(test, got->width, exp->width);
	KUNIT_EXPECT_EQ(test, got->speed, exp->speed);
	KUNIT_EXPECT_EQ(test, got->nr_vls, exp->nr_vls);
}

static void ibsw_rl_hello_build_test(struct kunit *test)
{
	const struct kt_hello_case *c = test->param_value;
	u8 exp[KT_HELLO_LEN];

	memcpy(exp, c->head, sizeof(c->head));
	memcpy(exp + 16, c->stamp, sizeof(c->stamp));
	memcpy(exp + 40, c->name_bytes, sizeof(c->name_bytes));
	kt_build_check(test, KT_HELLO_LEN, exp, kt_hello_build, c);
}

static void ibsw_rl_hello_parse_test(struct kunit *test)
{
	const struct kt_hello_case *c = test->param_value;
	struct ibsw_rl_settings s;
	struct ibsw_rl_stamp t;
	u8 bytes[KT_HELLO_LEN];
	struct ibsw_rl_hello h;

	/* The bytes written by hand */
	memcpy(bytes, c->head, sizeof(c->head));
	memcpy(bytes + 16, c->stamp, sizeof(c->stamp));
	memcpy(bytes + 40, c->name_bytes, sizeof(c->name_bytes));
	memcpy(&h, bytes, sizeof(h));
	memset(&s, 0xaa, sizeof(s));
	memset(&t, 0xaa, sizeof(t));
	ibsw_rl_hello_parse(&h, &s, &t);
	kt_settings_eq(test, &s, &c->s);
	kt_stamp_eq(test, &t, &c->t);

	/* and what the builder wrote */
	memset(&h, 0xff, sizeof(h));
	ibsw_rl_hello_build(&h, c->peer_epoch, &c->s, c->port, c->name,
			    &c->t);
	memset(&s, 0x55, sizeof(s));
	memset(&t, 0x55, sizeof(t));
	ibsw_rl_hello_parse(&h, &s, &t);
	kt_settings_eq(test, &s, &c->s);
	kt_stamp_eq(test, &t, &c->t);
}

/* ---- Round trips ---- */

struct kt_stamp_case {
	const char	*desc;
	u64		now;
	u64		heard_ns;
	u64		heard_at;
	struct ibsw_rl_stamp exp;
};

static const struct kt_stamp_case kt_stamp_cases[] = {
	{ "nothing heard", 5000, 0, 0, { 5000, 0, 0 } },
	{ "nothing heard, an old arrival time", 5000, 0, 4000, { 5000, 0, 0 } },
	{ "heard 250 us ago", 1000250000, 777, 1000000000,
	  { 1000250000, 777, 250000 } },
	{ "heard this very ns", 42, 0x123456789abcdef0, 42,
	  { 42, 0x123456789abcdef0, 0 } },
	{ "held U32_MAX ns: still echoed", 0x100000000ULL + 9, 3, 10,
	  { 0x100000000ULL + 9, 3, U32_MAX } },
	{ "held one ns longer: not", 0x100000000ULL + 10, 3, 10,
	  { 0x100000000ULL + 10, 0, 0 } },
	{ "arrived after now (clock read out of order)", 100, 3, 101,
	  { 100, 0, 0 } },
};

KUNIT_ARRAY_PARAM_DESC(kt_stamp, kt_stamp_cases, desc);

static void ibsw_rl_stamp_make_test(struct kunit *test)
{
	const struct kt_stamp_case *c = test->param_value;
	struct ibsw_rl_stamp t;

	memset(&t, 0xaa, sizeof(t));
	ibsw_rl_stamp_make(&t, c->now, c->heard_ns, c->heard_at);
	kt_stamp_eq(test, &t, &c->exp);
}

struct kt_rtt_case {
	const char		*desc;
	struct ibsw_rl_stamp	t;
	u64			now;
	bool			ok;
	u64			rtt;
};

static const struct kt_rtt_case kt_rtt_cases[] = {
	{ "no echo", { 1, 0, 0 }, 1000, false },
	{ "sent 1 ms ago, held 400 us", { 9, 2000000, 400000 }, 3000000,
	  true, 600000 },
	{ "not held", { 9, 2000000, 0 }, 2000123, true, 123 },
	{ "held all the time: 0", { 9, 2000000, 1000 }, 2001000, true, 0 },
	{ "held longer than away: not ours", { 9, 2000000, 1001 }, 2001000,
	  false },
	{ "echo from the future: not ours", { 9, 2000001, 0 }, 2000000,
	  false },
	{ "echo of now", { 9, 2000000, 0 }, 2000000, true, 0 },
	{ "at the clock's end", { 0, U64_MAX - 10, U32_MAX }, U64_MAX, false },
	{ "large", { 0, 1, 5 }, U64_MAX, true, U64_MAX - 6 },
};

KUNIT_ARRAY_PARAM_DESC(kt_rtt, kt_rtt_cases, desc);

static void ibsw_rl_rtt_sample_test(struct kunit *test)
{
	const struct kt_rtt_case *c = test->param_value;
	u64 rtt = 0xaaaa;

	KUNIT_EXPECT_EQ(test, ibsw_rl_rtt_sample(&c->t, c->now, &rtt), c->ok);
	if (c->ok)
		KUNIT_EXPECT_EQ(test, rtt, c->rtt);
	else
		KUNIT_EXPECT_EQ(test, rtt, 0xaaaa);
}

/* A series of samples and what the summary must be after each */
struct kt_rtt_step {
	u64	sample;
	u64	min, max, srtt;
};

static void ibsw_rl_rtt_add_test(struct kunit *test)
{
	/*
	 * srtt = srtt - srtt / 8 + sample / 8 (integer division, each term
	 * rounded down), worked by hand
	 */
	static const struct kt_rtt_step steps[] = {
		{ 800, 800, 800, 800 },		/* the first is taken whole */
		{ 1600, 800, 1600, 900 },	/* 800 - 100 + 200 */
		{ 0, 0, 1600, 788 },		/* 900 - 112 + 0 */
		{ 8000, 0, 8000, 1690 },	/* 788 - 98 + 1000 */
		{ 7, 0, 8000, 1479 },		/* 1690 - 211 + 0 */
	};
	struct ibsw_rl_rtt r = {};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(steps); i++) {
		ibsw_rl_rtt_add(&r, steps[i].sample);
		KUNIT_EXPECT_EQ_MSG(test, r.samples, i + 1, "step %u", i);
		KUNIT_EXPECT_EQ_MSG(test, r.last, steps[i].sample, "step %u", i);
		KUNIT_EXPECT_EQ_MSG(test, r.min, steps[i].min, "step %u", i);
		KUNIT_EXPECT_EQ_MSG(test, r.max, steps[i].max, "step %u", i);
		KUNIT_EXPECT_EQ_MSG(test, r.srtt, steps[i].srtt, "step %u", i);
	}

	/* A steady round trip is the smoothed one; no overflow near U64_MAX */
	memset(&r, 0, sizeof(r));
	for (i = 0; i < 100; i++)
		ibsw_rl_rtt_add(&r, U64_MAX);
	KUNIT_EXPECT_EQ(test, r.srtt, U64_MAX);
	/* (7/8)^400 of 2^64 is below 1: it converges from above, to 1000
	 * plus what the rounding of eighths leaves (at most 7)
	 */
	for (i = 0; i < 400; i++)
		ibsw_rl_rtt_add(&r, 1000);
	KUNIT_EXPECT_GE(test, r.srtt, 1000);
	KUNIT_EXPECT_LE(test, r.srtt, 1007);
	KUNIT_EXPECT_EQ(test, r.min, 1000);
	KUNIT_EXPECT_EQ(test, r.max, U64_MAX);
}

struct kt_match_case {
	const char			*desc;
	struct ibsw_rl_settings		a;
	struct ibsw_rl_settings		b;
	enum ibsw_rl_mismatch		exp;
};

#define KT_SET(scale, pacing, width, speed, vls)			\
	{ scale, pacing, IBSW_LINK_WIDTH_##width, IBSW_LINK_SPEED_##speed, vls }
#define KT_BASE		KT_SET(1000, true, 4X, EDR, 8)
#define KT_WIDTH_BAD	(IBSW_LINK_WIDTH_MAX + 1)
#define KT_SPEED_BAD	(IBSW_LINK_SPEED_MAX + 1)

static const struct kt_match_case kt_match_cases[] = {
	{ "equal", KT_BASE, KT_BASE, IBSW_RL_MATCH },
	{ "narrower and slower: the link trains",
	  KT_BASE, KT_SET(1000, true, 1X, SDR, 8), IBSW_RL_MATCH },
	{ "wider only", KT_BASE, KT_SET(1000, true, 12X, EDR, 8),
	  IBSW_RL_MATCH },
	{ "faster only", KT_BASE, KT_SET(1000, true, 4X, NDR, 8),
	  IBSW_RL_MATCH },
	{ "largest width and speed", KT_SET(1000, true, 12X, NDR, 8),
	  KT_SET(1000, true, 12X, NDR, 8), IBSW_RL_MATCH },
	{ "no pacing at both", KT_SET(1, false, 4X, EDR, 1),
	  KT_SET(1, false, 8X, HDR, 1), IBSW_RL_MATCH },
	{ "time scale", KT_BASE, KT_SET(999, true, 4X, EDR, 8),
	  IBSW_RL_BAD_SCALE },
	{ "time scale, top bit", KT_BASE,
	  KT_SET(1000 | 0x80000000, true, 4X, EDR, 8), IBSW_RL_BAD_SCALE },
	{ "pacing", KT_BASE, KT_SET(1000, false, 4X, EDR, 8),
	  IBSW_RL_BAD_PACING },
	{ "OperVLs 8 and 4", KT_BASE, KT_SET(1000, true, 4X, EDR, 4),
	  IBSW_RL_BAD_VLS },
	{ "OperVLs 1 and 15", KT_SET(1000, true, 4X, EDR, 1),
	  KT_SET(1000, true, 4X, EDR, 15), IBSW_RL_BAD_VLS },
	{ "width out of range", KT_BASE,
	  { 1000, true, KT_WIDTH_BAD, IBSW_LINK_SPEED_EDR, 8 },
	  IBSW_RL_BAD_RATE },
	{ "width 255", KT_BASE,
	  { 1000, true, 0xff, IBSW_LINK_SPEED_EDR, 8 }, IBSW_RL_BAD_RATE },
	{ "speed out of range", KT_BASE,
	  { 1000, true, IBSW_LINK_WIDTH_4X, KT_SPEED_BAD, 8 },
	  IBSW_RL_BAD_RATE },
	{ "speed 255", KT_BASE,
	  { 1000, true, IBSW_LINK_WIDTH_4X, 0xff, 8 }, IBSW_RL_BAD_RATE },
	{ "the same width out of range at both",
	  { 1000, true, KT_WIDTH_BAD, IBSW_LINK_SPEED_EDR, 8 },
	  { 1000, true, KT_WIDTH_BAD, IBSW_LINK_SPEED_EDR, 8 },
	  IBSW_RL_BAD_RATE },
};

KUNIT_ARRAY_PARAM_DESC(kt_match, kt_match_cases, desc);

/* Either end finds the same */
static void ibsw_rl_settings_match_test(struct kunit *test)
{
	const struct kt_match_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, ibsw_rl_settings_match(&c->a, &c->b), c->exp);
	KUNIT_EXPECT_EQ(test, ibsw_rl_settings_match(&c->b, &c->a), c->exp);
}

struct kt_name_case {
	const char		*desc;
	enum ibsw_rl_mismatch	m;
};

static const struct kt_name_case kt_name_cases[] = {
	{ "none", IBSW_RL_MATCH },
	{ "time-scale", IBSW_RL_BAD_SCALE },
	{ "pacing", IBSW_RL_BAD_PACING },
	{ "nr-vls", IBSW_RL_BAD_VLS },
	{ "rate", IBSW_RL_BAD_RATE },
	{ "unknown", (enum ibsw_rl_mismatch)5 },
	{ "unknown", (enum ibsw_rl_mismatch)255 },
};

KUNIT_ARRAY_PARAM_DESC(kt_name, kt_name_cases, desc);

static void ibsw_rl_mismatch_name_test(struct kunit *test)
{
	const struct kt_name_case *c = test->param_value;

	KUNIT_EXPECT_STREQ(test, ibsw_rl_mismatch_name(c->m), c->desc);
}

/* ---- Sequence numbers ---- */

struct kt_seq_case {
	const char		*desc;
	bool			have;
	u32			last;
	u32			seq;
	enum ibsw_rl_seq	exp;
	u32			lost;
};

static const struct kt_seq_case kt_seq_cases[] = {
	{ "first frame", false, 0, 0x12345678, IBSW_RL_SEQ_NEXT, 0 },
	{ "first frame, below a stale last", false, 5, 2,
	  IBSW_RL_SEQ_NEXT, 0 },
	{ "next", true, 10, 11, IBSW_RL_SEQ_NEXT, 0 },
	{ "two lost", true, 10, 13, IBSW_RL_SEQ_GAP, 2 },
	{ "one lost", true, 10, 12, IBSW_RL_SEQ_GAP, 1 },
	{ "a copy", true, 10, 10, IBSW_RL_SEQ_OLD, 0 },
	{ "one older", true, 10, 9, IBSW_RL_SEQ_OLD, 0 },
	{ "far older", true, 10, 0, IBSW_RL_SEQ_OLD, 0 },
	{ "next across 2^32", true, U32_MAX, 0, IBSW_RL_SEQ_NEXT, 0 },
	{ "two lost across 2^32", true, 0xfffffffe, 1, IBSW_RL_SEQ_GAP, 2 },
	{ "older across 2^32", true, 1, U32_MAX, IBSW_RL_SEQ_OLD, 0 },
	{ "a copy of U32_MAX", true, U32_MAX, U32_MAX, IBSW_RL_SEQ_OLD, 0 },
	{ "newer by 2^31 - 1", true, 0, 0x7fffffff, IBSW_RL_SEQ_GAP,
	  0x7ffffffe },
	{ "newer by 2^31 + 1: older", true, 0, 0x80000001,
	  IBSW_RL_SEQ_OLD, 0 },
	{ "newer by 2^31 + 1 across 2^32: older", true, 0x80000000, 1,
	  IBSW_RL_SEQ_OLD, 0 },
	{ "newer by U32_MAX: older", true, 1, 0, IBSW_RL_SEQ_OLD, 0 },
};

KUNIT_ARRAY_PARAM_DESC(kt_seq, kt_seq_cases, desc);

static void ibsw_rl_seq_check_test(struct kunit *test)
{
	const struct kt_seq_case *c = test->param_value;
	u32 lost = 0xdeadbeef;

	KUNIT_EXPECT_EQ(test, ibsw_rl_seq_check(c->have, c->last, c->seq,
						&lost), c->exp);
	KUNIT_EXPECT_EQ(test, lost, c->lost);
}

/* ---- Credits ---- */

struct kt_grant_case {
	const char	*desc;
	u32		tbs;
	u32		cl;
	u32		fccl;
	u32		granted;
	u32		cl_after;
};

static const struct kt_grant_case kt_grant_cases[] = {
	{ "first limit", 0, 0, 40, 40, 40 },
	{ "a larger limit", 30, 40, 70, 30, 70 },
	{ "by one", 30, 70, 71, 1, 71 },
	{ "the same limit", 30, 70, 70, 0, 70 },
	{ "an older limit", 30, 70, 60, 0, 70 },
	{ "older by 2^31", 30, 70, 70 + 0x80000000, 0, 70 },
	{ "across 2^32", 0xfffffff0, 0xfffffff8, 0x10, 0x18, 0x10 },
	{ "to 0 across 2^32", U32_MAX, U32_MAX, 0, 1, 0 },
	{ "older across 2^32", 0xfffffff0, 0x10, 0xfffffff8, 0, 0x10 },
	{ "2^24 ahead of what was sent", 100, 100, 100 + 0x1000000,
	  0x1000000, 100 + 0x1000000 },
	{ "2^24 + 1 ahead of what was sent", 100, 100, 101 + 0x1000000,
	  0, 100 },
	{ "2^24 + 1 ahead, an older limit above", 100, 0x800000,
	  101 + 0x1000000, 0, 0x800000 },
	{ "2^24 + 1 ahead across 2^32", 0xffffff00, 0xffffff00, 0x00ffff01,
	  0, 0xffffff00 },
};

KUNIT_ARRAY_PARAM_DESC(kt_grant, kt_grant_cases, desc);

static void ibsw_rl_tx_grant_test(struct kunit *test)
{
	const struct kt_grant_case *c = test->param_value;
	struct ibsw_rl_tx_vl tx = { .tbs = c->tbs, .cl = c->cl };

	KUNIT_EXPECT_EQ(test, ibsw_rl_tx_grant(&tx, c->fccl), c->granted);
	KUNIT_EXPECT_EQ(test, tx.cl, c->cl_after);
	KUNIT_EXPECT_EQ(test, tx.tbs, c->tbs);
}

struct kt_sync_case {
	const char	*desc;
	u32		abr;
	u64		lost;
	u32		fctbs;
	u32		abr_after;
	u64		lost_after;
};

static const struct kt_sync_case kt_sync_cases[] = {
	{ "13 blocks lost", 27, 0, 40, 40, 13 },
	{ "lost blocks add up", 100, 5, 103, 103, 8 },
	{ "nothing lost", 40, 13, 40, 40, 13 },
	{ "behind", 40, 0, 30, 40, 0 },
	{ "behind by one", 40, 7, 39, 40, 7 },
	{ "2^24 ahead", 0, 0, 0x1000000, 0x1000000, 0x1000000 },
	{ "2^24 + 1 ahead: ignored", 0, 0, 0x1000001, 0, 0 },
	{ "across 2^32", 0xfffffff0, 0, 0x10, 0x10, 0x20 },
	{ "behind across 2^32", 0x10, 3, 0xfffffff0, 0x10, 3 },
	{ "2^24 + 1 ahead across 2^32: ignored", 0xffffff00, 0, 0x00ffff01,
	  0xffffff00, 0 },
	{ "lost past 2^32", 0, 0xffffffff, 1, 1, 0x100000000ULL },
};

KUNIT_ARRAY_PARAM_DESC(kt_sync, kt_sync_cases, desc);

static void ibsw_rl_rx_sync_test(struct kunit *test)
{
	const struct kt_sync_case *c = test->param_value;
	struct ibsw_rl_rx_vl rx = { .abr = c->abr, .lost = c->lost };

	ibsw_rl_rx_sync(&rx, c->fctbs);
	KUNIT_EXPECT_EQ(test, rx.abr, c->abr_after);
	KUNIT_EXPECT_EQ(test, rx.lost, c->lost_after);
}

struct kt_fccl_case {
	const char	*desc;
	u32		abr;
	unsigned int	free;
	u32		fccl;
};

static const struct kt_fccl_case kt_fccl_cases[] = {
	{ "empty buffer, nothing received", 0, 40, 40 },
	{ "after 27 blocks, 13 free", 27, 13, 40 },
	{ "full buffer", 5, 0, 5 },
	{ "largest buffer", 0, 65535, 65535 },
	{ "across 2^32", 0xfffffff0, 0x20, 0x10 },
	{ "to 0", U32_MAX, 1, 0 },
	{ "2^31 + 2^31", 0x80000000, 0x80000000, 0 },
};

KUNIT_ARRAY_PARAM_DESC(kt_fccl, kt_fccl_cases, desc);

static void ibsw_rl_fccl_test(struct kunit *test)
{
	const struct kt_fccl_case *c = test->param_value;
	struct ibsw_rl_rx_vl rx = { .abr = c->abr, .lost = 12345 };

	KUNIT_EXPECT_EQ(test, ibsw_rl_fccl(&rx, c->free), c->fccl);
	KUNIT_EXPECT_EQ(test, rx.abr, c->abr);
}

/*
 * How long freed credits wait: a sixteenth of the buffer at the link's
 * wall-clock rate, within 100 us and 10 ms. Expected values by hand: a
 * 64-byte block at 4x QDR (32 Gb/s) and scale 1000 takes 16 us.
 */
struct kt_delay_case {
	const char	*desc;
	bool		pacing;
	u64		bps;
	unsigned int	scale;
	unsigned int	credits;
	u64		ns;
};

static const struct kt_delay_case kt_delay_cases[] = {
	{ "4x QDR, scale 1000, 1024 credits", true, 32000000000ULL, 1000, 1024, 1024000 },
	{ "4x QDR, scale 100", true, 32000000000ULL, 100, 1024, 102400 },
	{ "4x QDR, scale 10: the 100 us floor", true, 32000000000ULL, 10, 1024, 100000 },
	{ "1x SDR, scale 100", true, 2000000000ULL, 100, 1024, 1638400 },
	{ "1x SDR, scale 1000: the 10 ms ceiling", true, 2000000000ULL, 1000, 1024, 10000000 },
	{ "largest buffer, scale 10000: no overflow", true, 2000000000ULL, 10000, 65535, 10000000 },
	{ "a buffer under 16 credits", true, 32000000000ULL, 1000, 15, 100000 },
	{ "pacing off", false, 32000000000ULL, 1000, 1024, 1000000 },
	{ "no rate", true, 0, 1000, 1024, 1000000 },
};

KUNIT_ARRAY_PARAM_DESC(kt_delay, kt_delay_cases, desc);

static void ibsw_rl_credit_delay_test(struct kunit *test)
{
	const struct kt_delay_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, ibsw_rl_credit_delay_ns(c->pacing, c->bps, c->scale,
						      c->credits), c->ns);
}

/* ---- A lossy link, end to end ---- */

/*
 * One VL of a link from S to R, built of the functions above only. S keeps
 * a struct ibsw_rl_tx_vl and sends a packet only if its free credits,
 * CL - TBS, cover it; R keeps a struct ibsw_rl_rx_vl and a buffer of
 * KT_BUF blocks. DATA goes from S to R, CREDITs both ways: S's carry its
 * FCTBS, R's its FCCL. Each end numbers its frames and takes only what
 * ibsw_rl_seq_check() lets through.
 */
#define KT_BUF	40

struct kt_link {
	struct kunit		*test;
	struct ibsw_rl_tx_vl	tx;
	u32			s_seq;		/* S's next frame */
	bool			s_have;		/* S took a frame of R */
	u32			s_last;		/* the newest */
	struct ibsw_rl_rx_vl	rx;
	unsigned int		used;		/* blocks in R's buffer */
	unsigned int		peak;
	u32			r_seq;
	bool			r_have;
	u32			r_last;
};

/* A frame in flight: DATA of @blocks, or a CREDIT carrying @count */
struct kt_msg {
	u32		seq;
	bool		credit;
	unsigned int	blocks;
	u32		count;
};

static u32 kt_s_free(const struct kt_link *l)
{
	return l->tx.cl - l->tx.tbs;
}

static struct kt_msg kt_s_data(struct kt_link *l, unsigned int blocks)
{
	struct kt_msg m = { .seq = l->s_seq++, .blocks = blocks };

	KUNIT_EXPECT_LE_MSG(l->test, blocks, kt_s_free(l),
			    "S sends %u blocks without the credits", blocks);
	l->tx.tbs += blocks;
	return m;
}

static struct kt_msg kt_s_credit(struct kt_link *l)
{
	struct kt_msg m = {
		.seq = l->s_seq++, .credit = true, .count = l->tx.tbs,
	};

	return m;
}

/* S takes a CREDIT of R, unless it is older than the newest taken */
static enum ibsw_rl_seq kt_s_take(struct kt_link *l, const struct kt_msg *m,
				  u32 *granted)
{
	enum ibsw_rl_seq r;
	u32 lost;

	*granted = 0;
	r = ibsw_rl_seq_check(l->s_have, l->s_last, m->seq, &lost);
	if (r == IBSW_RL_SEQ_OLD)
		return r;
	l->s_have = true;
	l->s_last = m->seq;
	*granted = ibsw_rl_tx_grant(&l->tx, m->count);
	/* All S may send fits in what R has free */
	KUNIT_EXPECT_LE_MSG(l->test, kt_s_free(l) + l->used, KT_BUF,
			    "S may overrun R's buffer");
	return r;
}

/* R takes a frame of S, unless it is older than the newest taken */
static enum ibsw_rl_seq kt_r_take(struct kt_link *l, const struct kt_msg *m)
{
	enum ibsw_rl_seq r;
	u32 lost;

	r = ibsw_rl_seq_check(l->r_have, l->r_last, m->seq, &lost);
	if (r == IBSW_RL_SEQ_OLD)
		return r;
	l->r_have = true;
	l->r_last = m->seq;
	if (m->credit) {
		ibsw_rl_rx_sync(&l->rx, m->count);
		return r;
	}
	l->rx.abr += m->blocks;
	l->used += m->blocks;
	l->peak = max(l->peak, l->used);
	KUNIT_EXPECT_LE_MSG(l->test, l->used, KT_BUF, "R's buffer overrun");
	return r;
}

static void kt_r_drain(struct kt_link *l, unsigned int blocks)
{
	KUNIT_ASSERT_LE(l->test, blocks, l->used);
	l->used -= blocks;
}

static struct kt_msg kt_r_credit(struct kt_link *l)
{
	struct kt_msg m = {
		.seq = l->r_seq++, .credit = true,
		.count = ibsw_rl_fccl(&l->rx, KT_BUF - l->used),
	};

	return m;
}

/*
 * Counters start at @base rather than 0, as if the epoch had run that
 * long, and frame numbers at @seq: the arithmetic is modulo 2^32.
 */
struct kt_lossy_case {
	const char	*desc;
	u32		base;
	u32		seq;
};

static const struct kt_lossy_case kt_lossy_cases[] = {
	{ "from 0", 0, 0 },
	{ "across 2^31", 0x7fffffe0, 0x7ffffffc },
	{ "across 2^32", 0xffffffe0, 0xfffffffc },
};

KUNIT_ARRAY_PARAM_DESC(kt_lossy, kt_lossy_cases, desc);

static void ibsw_rl_lossy_link_test(struct kunit *test)
{
	const struct kt_lossy_case *c = test->param_value;
	const u32 b = c->base;
	struct kt_link l = {
		.test = test,
		.tx = { .tbs = b, .cl = b },
		.s_seq = c->seq,
		.rx = { .abr = b },
		.r_seq = c->seq,
	};
	struct kt_msg c0, d1, d3, d4, s1, r1, r2;
	struct kt_msg d5, d6, s2, r3, d8, r4, s3, s4, r5, r6;
	struct ibsw_rl_tx_vl stale;
	u32 got;

	/* R advertises its empty buffer */
	c0 = kt_r_credit(&l);
	KUNIT_EXPECT_EQ(test, c0.count, b + 40);
	KUNIT_EXPECT_EQ(test, kt_s_take(&l, &c0, &got), IBSW_RL_SEQ_NEXT);
	KUNIT_EXPECT_EQ(test, got, 40);
	KUNIT_EXPECT_EQ(test, kt_s_free(&l), KT_BUF);

	/* Three packets of 17, 5 and 10 blocks; the second is lost */
	d1 = kt_s_data(&l, 17);
	kt_s_data(&l, 5);
	d3 = kt_s_data(&l, 10);
	KUNIT_EXPECT_EQ(test, kt_s_free(&l), 8);
	KUNIT_EXPECT_EQ(test, kt_r_take(&l, &d1), IBSW_RL_SEQ_NEXT);
	KUNIT_EXPECT_EQ(test, kt_r_take(&l, &d3), IBSW_RL_SEQ_GAP);
	KUNIT_EXPECT_EQ(test, l.used, 27);
	KUNIT_EXPECT_EQ(test, l.rx.abr, b + 27);

	/*
	 * A fourth, of 8, is overtaken by S's CREDIT, which counts it and
	 * the second as lost; when it comes it is dropped.
	 */
	d4 = kt_s_data(&l, 8);
	KUNIT_EXPECT_EQ(test, kt_s_free(&l), 0);
	s1 = kt_s_credit(&l);
	KUNIT_EXPECT_EQ(test, s1.count, b + 40);
	KUNIT_EXPECT_EQ(test, kt_r_take(&l, &s1), IBSW_RL_SEQ_GAP);
	KUNIT_EXPECT_EQ(test, l.rx.abr, b + 40);
	KUNIT_EXPECT_EQ(test, l.rx.lost, 13);
	KUNIT_EXPECT_EQ(test, kt_r_take(&l, &d4), IBSW_RL_SEQ_OLD);
	KUNIT_EXPECT_EQ(test, l.used, 27);
	KUNIT_EXPECT_EQ(test, l.rx.abr, b + 40);

	/*
	 * R drains the first packet, then the third; its CREDIT after the
	 * first is overtaken by the one after the third.
	 */
	kt_r_drain(&l, 17);
	r1 = kt_r_credit(&l);
	KUNIT_EXPECT_EQ(test, r1.count, b + 70);
	kt_r_drain(&l, 10);
	r2 = kt_r_credit(&l);
	KUNIT_EXPECT_EQ(test, r2.count, b + 80);
	KUNIT_EXPECT_EQ(test, kt_s_take(&l, &r2, &got), IBSW_RL_SEQ_GAP);
	KUNIT_EXPECT_EQ(test, got, 40);
	KUNIT_EXPECT_EQ(test, l.tx.cl, b + 80);
	KUNIT_EXPECT_EQ(test, kt_s_take(&l, &r1, &got), IBSW_RL_SEQ_OLD);
	KUNIT_EXPECT_EQ(test, got, 0);
	/* Had it been taken, it would have granted nothing */
	stale = l.tx;
	KUNIT_EXPECT_EQ(test, ibsw_rl_tx_grant(&stale, r1.count), 0);
	KUNIT_EXPECT_EQ(test, stale.cl, b + 80);
	/* Empty buffer, nothing in flight: all credits are back */
	KUNIT_EXPECT_EQ(test, kt_s_free(&l), KT_BUF);

	/* S fills R's buffer to the last block with two packets of 20 */
	d5 = kt_s_data(&l, 20);
	d6 = kt_s_data(&l, 20);
	KUNIT_EXPECT_EQ(test, kt_s_free(&l), 0);
	KUNIT_EXPECT_EQ(test, kt_r_take(&l, &d5), IBSW_RL_SEQ_NEXT);
	KUNIT_EXPECT_EQ(test, kt_r_take(&l, &d6), IBSW_RL_SEQ_NEXT);
	KUNIT_EXPECT_EQ(test, l.used, KT_BUF);
	KUNIT_EXPECT_EQ(test, l.rx.abr, b + 80);

	/* S's CREDIT is lost: it had nothing new to say */
	s2 = kt_s_credit(&l);
	KUNIT_EXPECT_EQ(test, s2.count, b + 80);

	/* R frees 20 blocks and says so */
	kt_r_drain(&l, 20);
	r3 = kt_r_credit(&l);
	KUNIT_EXPECT_EQ(test, r3.count, b + 100);
	KUNIT_EXPECT_EQ(test, kt_s_take(&l, &r3, &got), IBSW_RL_SEQ_NEXT);
	KUNIT_EXPECT_EQ(test, got, 20);
	KUNIT_EXPECT_EQ(test, kt_s_free(&l), 20);

	/* S uses them: a packet of 12 is lost, one of 8 arrives */
	kt_s_data(&l, 12);
	d8 = kt_s_data(&l, 8);
	KUNIT_EXPECT_EQ(test, kt_s_free(&l), 0);
	KUNIT_EXPECT_EQ(test, kt_r_take(&l, &d8), IBSW_RL_SEQ_GAP);
	KUNIT_EXPECT_EQ(test, l.used, 28);
	KUNIT_EXPECT_EQ(test, l.rx.abr, b + 88);

	/*
	 * R frees 20 more. Its CREDIT cannot count the 12 lost blocks yet:
	 * S gets 20 credits back while R has 32 free.
	 */
	kt_r_drain(&l, 20);
	r4 = kt_r_credit(&l);
	KUNIT_EXPECT_EQ(test, r4.count, b + 120);
	KUNIT_EXPECT_EQ(test, kt_s_take(&l, &r4, &got), IBSW_RL_SEQ_NEXT);
	KUNIT_EXPECT_EQ(test, got, 20);
	KUNIT_EXPECT_EQ(test, kt_s_free(&l), 20);

	/* S's next CREDIT is lost, the one after counts them */
	s3 = kt_s_credit(&l);
	s4 = kt_s_credit(&l);
	KUNIT_EXPECT_EQ(test, s3.count, b + 100);
	KUNIT_EXPECT_EQ(test, kt_r_take(&l, &s4), IBSW_RL_SEQ_GAP);
	KUNIT_EXPECT_EQ(test, l.rx.abr, b + 100);
	KUNIT_EXPECT_EQ(test, l.rx.lost, 25);

	/* R drains; its CREDIT is lost, the next gets through */
	kt_r_drain(&l, 8);
	r5 = kt_r_credit(&l);
	r6 = kt_r_credit(&l);
	KUNIT_EXPECT_EQ(test, r5.count, b + 140);
	KUNIT_EXPECT_EQ(test, r6.count, b + 140);
	KUNIT_EXPECT_EQ(test, kt_s_take(&l, &r6, &got), IBSW_RL_SEQ_GAP);
	KUNIT_EXPECT_EQ(test, got, 20);

	/* No credit leaked, none granted twice, the buffer never overran */
	KUNIT_EXPECT_EQ(test, kt_s_free(&l), KT_BUF);
	KUNIT_EXPECT_EQ(test, l.tx.tbs, b + 100);
	KUNIT_EXPECT_EQ(test, l.rx.abr, l.tx.tbs);
	KUNIT_EXPECT_EQ(test, l.rx.lost, 5 + 8 + 12);
	KUNIT_EXPECT_EQ(test, l.used, 0);
	KUNIT_EXPECT_EQ(test, l.peak, KT_BUF);
	/* S sent 12 frames, R 7 */
	KUNIT_EXPECT_EQ(test, l.s_seq, c->seq + 12);
	KUNIT_EXPECT_EQ(test, l.r_seq, c->seq + 7);
}

/* ---- Constants and the CREDIT layout ---- */

static void ibsw_rl_constants_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, IBSW_RL_ETHERTYPE, 0x88b5);
	KUNIT_EXPECT_EQ(test, IBSW_RL_MAGIC, 0x4942);
	KUNIT_EXPECT_EQ(test, IBSW_RL_VERSION, 2);
	KUNIT_EXPECT_EQ(test, IBSW_RL_DATA, 1);
	KUNIT_EXPECT_EQ(test, IBSW_RL_CREDIT, 2);
	KUNIT_EXPECT_EQ(test, IBSW_RL_HELLO, 3);
	KUNIT_EXPECT_EQ(test, IBSW_RL_BYE, 4);
	KUNIT_EXPECT_EQ(test, IBSW_RL_HDR_LEN, KT_HDR_LEN);
	KUNIT_EXPECT_EQ(test, IBSW_RL_DATA_LEN, KT_DATA_LEN);
	KUNIT_EXPECT_EQ(test, IBSW_RL_HELLO_LEN, KT_HELLO_LEN);
	/* Ethernet 14, link header 16, DATA 16 */
	KUNIT_EXPECT_EQ(test, IBSW_RL_OVERHEAD, 46);
	KUNIT_EXPECT_EQ(test, IBSW_RL_PKT_EXTRA, KT_PKT_MAX - KT_WIRE_MAX);
	/* CREDIT: 0 VLs, 1-3 reserved, then FCTBS and FCCL of VL 0 to 14 */
	KUNIT_EXPECT_EQ(test, IBSW_RL_CREDIT_LEN, 124);
	KUNIT_EXPECT_EQ(test, offsetof(struct ibsw_rl_credit, nr_vls), 0);
	KUNIT_EXPECT_EQ(test, offsetof(struct ibsw_rl_credit, vl[0].fctbs), 4);
	KUNIT_EXPECT_EQ(test, offsetof(struct ibsw_rl_credit, vl[0].fccl), 8);
	KUNIT_EXPECT_EQ(test, offsetof(struct ibsw_rl_credit, vl[1].fctbs),
			12);
	KUNIT_EXPECT_EQ(test, offsetof(struct ibsw_rl_credit, vl[14].fctbs),
			116);
	KUNIT_EXPECT_EQ(test, offsetof(struct ibsw_rl_credit, vl[14].fccl),
			120);
}

static struct kunit_case ibsw_rlink_test_cases[] = {
	KUNIT_CASE_PARAM(ibsw_rl_hdr_build_test, kt_hdr_gen_params),
	KUNIT_CASE_PARAM(ibsw_rl_hdr_check_test, kt_hdr_check_gen_params),
	KUNIT_CASE_PARAM(ibsw_rl_data_build_test, kt_data_gen_params),
	KUNIT_CASE_PARAM(ibsw_rl_data_check_test, kt_data_check_gen_params),
	KUNIT_CASE_PARAM(ibsw_rl_hello_build_test, kt_hello_gen_params),
	KUNIT_CASE_PARAM(ibsw_rl_hello_parse_test, kt_hello_gen_params),
	KUNIT_CASE_PARAM(ibsw_rl_stamp_make_test, kt_stamp_gen_params),
	KUNIT_CASE_PARAM(ibsw_rl_rtt_sample_test, kt_rtt_gen_params),
	KUNIT_CASE(ibsw_rl_rtt_add_test),
	KUNIT_CASE_PARAM(ibsw_rl_settings_match_test, kt_match_gen_params),
	KUNIT_CASE_PARAM(ibsw_rl_mismatch_name_test, kt_name_gen_params),
	KUNIT_CASE_PARAM(ibsw_rl_seq_check_test, kt_seq_gen_params),
	KUNIT_CASE_PARAM(ibsw_rl_tx_grant_test, kt_grant_gen_params),
	KUNIT_CASE_PARAM(ibsw_rl_rx_sync_test, kt_sync_gen_params),
	KUNIT_CASE_PARAM(ibsw_rl_fccl_test, kt_fccl_gen_params),
	KUNIT_CASE_PARAM(ibsw_rl_credit_delay_test, kt_delay_gen_params),
	KUNIT_CASE_PARAM(ibsw_rl_lossy_link_test, kt_lossy_gen_params),
	KUNIT_CASE(ibsw_rl_constants_test),
	{}
};

static struct kunit_suite ibsw_rlink_test_suite = {
	.name = "ibsw_rlink",
	.test_cases = ibsw_rlink_test_cases,
};

kunit_test_suite(ibsw_rlink_test_suite);

MODULE_DESCRIPTION("KUnit tests for the ibsw remote link frames and credits");
MODULE_LICENSE("GPL");
