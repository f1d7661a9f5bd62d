// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the PMA attributes of a switch (pma_attr.c, pma_attr.h).
 *
 * Every expected attribute here is written by hand from the attribute's
 * layout (IBA vol 1, 16.1; the byte offsets in the comments are those of
 * libibmad's field table), never taken from the encoder:
 *
 * - each counter attribute is put from one set of counters with a
 *   distinct value in every ibsw counter, those the attribute does not
 *   report included, so a counter in the wrong field, a field at the
 *   wrong offset, or a counter that leaks into a field it does not fill
 *   changes some byte; the put goes over areas filled with 0x00, 0xaa and
 *   0xff first, so all 192 bytes are written;
 * - saturation: each field width at its maximum - 1, its maximum, one
 *   more, more than one more (where wrapping would show) and U64_MAX;
 * - the CounterSelect of a Set: every bit of every attribute alone, with
 *   the ibsw counters it clears, reserved bits and bits of fields ibsw
 *   does not count;
 * - the header check: each status, and which check wins when several
 *   fail.
 */

#include <kunit/test.h>
#include <linux/limits.h>
#include <linux/sprintf.h>
#include <linux/string.h>

#include "../pma_attr.h"
#include "gmp_kunit.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define KT_LEN	IBSW_PMA_DATA_SIZE
#define NO_VL	(-1)

static const u8 kt_fills[] = { 0x00, 0xaa, 0xff };

static void kt_expect_bytes(struct kunit *test, const u8 *got, const u8 *exp,
			    const char *what)
{
	unsigned int i;

	for (i = 0; i < KT_LEN; i++)
		KUNIT_EXPECT_EQ_MSG(test, got[i], exp[i], "%s: byte %u", what,
				    i);
}

/* Puts over each fill and compares with @exp */
static void kt_put_check(struct kunit *test, u16 attr, u8 port_select,
			 const struct ibsw_counters *cnt,
			 const struct ibsw_counters *vl_cnt, const u8 *exp)
{
	u8 data[KT_LEN];
	char what[32];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(kt_fills); i++) {
		memset(data, kt_fills[i], KT_LEN);
		ibsw_pma_put(data, attr, port_select, cnt, vl_cnt);
		snprintf(what, sizeof(what), "put over 0x%02x", kt_fills[i]);
		kt_expect_bytes(test, data, exp, what);
	}
}

/*
 * A distinct value in every ibsw counter, below every field's width, each
 * byte different; the counters no attribute reports get values too.
 */
static const struct ibsw_counters kt_cnt = { .val = {
	[IBSW_CNT_XMIT_DATA]				= 0x11223344,
	[IBSW_CNT_RCV_DATA]				= 0x55667788,
	[IBSW_CNT_XMIT_PKTS]				= 0x0a0b0c0d,
	[IBSW_CNT_RCV_PKTS]				= 0x1a1b1c1d,
	[IBSW_CNT_XMIT_WAIT]				= 0x2a2b2c2d,
	[IBSW_CNT_XMIT_DISCARDS]			= 0x3132,
	[IBSW_CNT_RCV_ERRORS]				= 0x4142,
	[IBSW_CNT_RCV_SWITCH_RELAY_ERRORS]		= 0x5152,
	[IBSW_CNT_RCV_FOREIGN]				= 0x6162,
	[IBSW_CNT_RCV_VL_DISCARDS]			= 0x7172,
	[IBSW_CNT_RCV_OVERSIZE]				= 0x8182,
	[IBSW_CNT_NEIGH_REPLIES]			= 0x9192,
	[IBSW_CNT_EXCESSIVE_BUFFER_OVERRUN_ERRORS]	= 0x9,
	[IBSW_CNT_XMIT_TIME_CONG]			= 0x3a3b3c3d,
	[IBSW_CNT_XMIT_FECN]				= 0xa1a2,
	[IBSW_CNT_RCV_FECN]				= 0x4a4b4c4d,
	[IBSW_CNT_RCV_BECN]				= 0x5a5b5c5d,
	[IBSW_CNT_XMIT_LATE]				= 0xb1b2,
	[IBSW_CNT_HCA_DISCARDS]				= 0xc1c2,
	[IBSW_CNT_RCV_CONSTRAINT_ERRORS]		= 0xd1,
	[IBSW_CNT_VL15_DROPPED]				= 0xe1e2,
	[IBSW_CNT_INACTIVE_DISCARDS]			= 0xf1f2,
	[IBSW_CNT_HOQ_DISCARDS]				= 0x2122,
} };

/* For PortCountersExtended: values that need all 64 bits */
static const struct ibsw_counters kt_cnt64 = { .val = {
	[IBSW_CNT_XMIT_DATA]				= 0x0102030405060708,
	[IBSW_CNT_RCV_DATA]				= 0x1112131415161718,
	[IBSW_CNT_XMIT_PKTS]				= 0x2122232425262728,
	[IBSW_CNT_RCV_PKTS]				= 0x3132333435363738,
	[IBSW_CNT_XMIT_WAIT]				= 0x4142434445464748,
	[IBSW_CNT_XMIT_DISCARDS]			= 0x5152535455565758,
	[IBSW_CNT_RCV_ERRORS]				= 0x6162636465666768,
	[IBSW_CNT_RCV_SWITCH_RELAY_ERRORS]		= 0x7172737475767778,
	[IBSW_CNT_RCV_FOREIGN]				= 0xdead000000000001,
	[IBSW_CNT_RCV_VL_DISCARDS]			= 0xdead000000000002,
	[IBSW_CNT_RCV_OVERSIZE]				= 0xdead000000000003,
	[IBSW_CNT_NEIGH_REPLIES]			= 0xdead000000000004,
	[IBSW_CNT_EXCESSIVE_BUFFER_OVERRUN_ERRORS]	= 0x8182838485868788,
	[IBSW_CNT_XMIT_TIME_CONG]			= 0xdead000000000005,
	[IBSW_CNT_XMIT_FECN]				= 0xdead000000000006,
	[IBSW_CNT_RCV_FECN]				= 0xdead000000000007,
	[IBSW_CNT_RCV_BECN]				= 0xdead000000000008,
	[IBSW_CNT_XMIT_LATE]				= 0xdead000000000009,
	[IBSW_CNT_HCA_DISCARDS]				= 0xdead00000000000a,
	[IBSW_CNT_RCV_CONSTRAINT_ERRORS]		= 0x9192939495969798,
	[IBSW_CNT_VL15_DROPPED]				= 0xa1a2a3a4a5a6a7a8,
	[IBSW_CNT_INACTIVE_DISCARDS]			= 0xdead00000000000b,
	[IBSW_CNT_HOQ_DISCARDS]				= 0xdead00000000000c,
} };

/*
 * Per-VL counters: VL v's XmitWait 0x0v(1v), XmitTimeCong 0x(c0+v)000v5a,
 * and every other counter of the VL non-zero
 */
static struct ibsw_counters *kt_vl_fill(struct kunit *test)
{
	struct ibsw_counters *vl;
	unsigned int v, i;

	vl = kunit_kcalloc(test, IBSW_NR_DATA_VLS, sizeof(*vl), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, vl);
	for (v = 0; v < IBSW_NR_DATA_VLS; v++) {
		for (i = 0; i < IBSW_NR_COUNTERS; i++)
			vl[v].val[i] = 0xeeee0000 + v;
		vl[v].val[IBSW_CNT_XMIT_WAIT] = 0x0100 * v + 0x10 + v;
		vl[v].val[IBSW_CNT_XMIT_TIME_CONG] =
			((0xc0 + v) << 24) | (v << 8) | 0x5a;
	}
	return vl;
}

/* ---- ClassPortInfo ---- */

static void ibsw_pma_cpi_test(struct kunit *test)
{
	static const u8 exp[KT_LEN] = {
		/* 0 BaseVersion 1, 1 ClassVersion 1 */
		0x01, 0x01,
		/* 2-3 CapabilityMask: bits 8, 9 and 12 */
		0x13, 0x00,
		/* 4-7 CapabilityMask2 bit 1 (<< 5), RespTimeValue 18 */
		0x00, 0x00, 0x00, 0x52,
		/* 8-71 redirection and trap fields: 0 */
	};
	struct ibsw_counters *vl = kt_vl_fill(test);

	/* PortSelect and counters are not part of it */
	kt_put_check(test, IBSW_PMA_ATTR_CLASS_PORT_INFO, 0x2a, &kt_cnt, vl,
		     exp);
	kt_put_check(test, IBSW_PMA_ATTR_CLASS_PORT_INFO, 0, NULL, NULL, exp);
}

struct kt_cpi_case {
	const char	*desc;
	u8		class_version;
	u16		cap_mask;
	u32		cap_mask2;
	u8		resp_time;
	u8		bytes[8];
};

static const struct kt_cpi_case kt_cpi_cases[] = {
	{ "all 0", 0, 0, 0, 0, { 0x01 } },
	{
		"distinct", 0x21, 0xa55a, 0x0123456, 0x15,
		/* 0x0123456 << 5 = 0x02468ac0, | 0x15 */
		{ 0x01, 0x21, 0xa5, 0x5a, 0x02, 0x46, 0x8a, 0xd5 },
	}, {
		"every bit", 0xff, 0xffff, 0x07ffffff, 0x1f,
		{ 0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
	}, {
		"CapabilityMask2 masked to 27 bits, RespTimeValue to 5",
		0x02, 0x0001, 0xf8000001, 0x20,
		{ 0x01, 0x02, 0x00, 0x01, 0x00, 0x00, 0x00, 0x20 },
	}, {
		"CapabilityMask2 top bit", 0x01, 0, 0x04000000, 0x12,
		{ 0x01, 0x01, 0x00, 0x00, 0x80, 0x00, 0x00, 0x12 },
	},
};

KUNIT_ARRAY_PARAM_DESC(kt_cpi, kt_cpi_cases, desc);

static void ibsw_mad_cpi_test(struct kunit *test)
{
	const struct kt_cpi_case *c = test->param_value;
	u8 data[KT_LEN], exp[KT_LEN] = {};
	unsigned int i;

	memcpy(exp, c->bytes, sizeof(c->bytes));
	for (i = 0; i < ARRAY_SIZE(kt_fills); i++) {
		memset(data, kt_fills[i], KT_LEN);
		ibsw_mad_cpi_put(data, c->class_version, c->cap_mask,
				 c->cap_mask2, c->resp_time);
		kt_expect_bytes(test, data, exp, "put");
	}
}

/* ---- Every counter attribute from distinct counters ---- */

struct kt_put_case {
	const char	*desc;
	u16		attr;
	u8		port_select;
	bool		wide;		/* from kt_cnt64 */
	u8		bytes[KT_LEN];
};

static const struct kt_put_case kt_put_cases[] = {
	{
		.desc = "PortCounters",
		.attr = 0x0012,
		.port_select = 7,
		.bytes = {
			/* 0 reserved, 1 PortSelect, 2-3 CounterSelect */
			0x00, 0x07, 0x00, 0x00,
			/* 4-5 SymbolError, 6 LinkErrorRecovery, 7 LinkDowned */
			0x00, 0x00, 0x00, 0x00,
			/* 8-9 PortRcvErrors, 10-11 RcvRemotePhysical */
			0x41, 0x42, 0x00, 0x00,
			/* 12-13 RcvSwitchRelay, 14-15 XmitDiscards */
			0x51, 0x52, 0x31, 0x32,
			/* 16 XmitConstraint, 17 RcvConstraint,
			 * 18 CounterSelect2, 19 LocalLinkIntegrity:EBO
			 */
			0x00, 0xd1, 0x00, 0x09,
			/* 20-21 QP1Dropped, 22-23 VL15Dropped */
			0x00, 0x00, 0xe1, 0xe2,
			/* 24 XmitData, 28 RcvData, 32 XmitPkts, 36 RcvPkts */
			0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
			0x0a, 0x0b, 0x0c, 0x0d, 0x1a, 0x1b, 0x1c, 0x1d,
			/* 40-43 PortXmitWait */
			0x2a, 0x2b, 0x2c, 0x2d,
		},
	}, {
		.desc = "PortCountersExtended",
		.attr = 0x001d,
		.port_select = 0xff,
		.wide = true,
		.bytes = {
			/* 1 PortSelect; 2-3 CounterSelect, 4-7 CounterSelect2 */
			[1] = 0xff,
			/* 8 XmitData, 16 RcvData, 24 XmitPkts, 32 RcvPkts */
			[8] = 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
			0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18,
			0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28,
			0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38,
			/* 40 UnicastXmitPkts, 48 UnicastRcvPkts */
			0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28,
			0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38,
			/* 56, 64 Multicast: 0; 72 SymbolError, 80
			 * LinkErrorRecovery, 88 LinkDowned: 0
			 */
			/* 96 PortRcvErrors */
			[96] = 0x61, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68,
			/* 104 RcvRemotePhysical: 0; 112 RcvSwitchRelay */
			[112] = 0x71, 0x72, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78,
			/* 120 XmitDiscards */
			0x51, 0x52, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58,
			/* 128 XmitConstraint: 0; 136 RcvConstraint */
			[136] = 0x91, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98,
			/* 144 LocalLinkIntegrity: 0; 152 EBO */
			[152] = 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88,
			/* 160 VL15Dropped, 168 PortXmitWait */
			0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8,
			0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48,
			/* 176 QP1Dropped: 0 */
		},
	}, {
		.desc = "PortRcvErrorDetails",
		.attr = 0x0015,
		.port_select = 3,
		.bytes = {
			[1] = 0x03,
			/* 4 LocalPhysical 0, 6 MalformedPkt = RcvErrors */
			[6] = 0x41, 0x42,
			/* 8 BufferOverrun 0, 10 DLIDMapping = SwitchRelay */
			[10] = 0x51, 0x52,
			/* 12 VLMapping = rcv_vl_discards, 14 Looping 0 */
			0x71, 0x72,
		},
	}, {
		.desc = "PortXmitDiscardDetails",
		.attr = 0x0016,
		.port_select = 4,
		.bytes = {
			[1] = 0x04,
			/* 4 Inactive; 6 NeighborMTU, 8 SwLifetime: 0 */
			[4] = 0xf1, 0xf2,
			/* 10 SwHOQLifetime */
			[10] = 0x21, 0x22,
		},
	}, {
		.desc = "PortRcvConCtrl",
		.attr = 0x0031,
		.port_select = 5,
		.bytes = {
			[1] = 0x05,
			/* 4 PortPktRcvFECN, 8 PortPktRcvBECN */
			[4] = 0x4a, 0x4b, 0x4c, 0x4d, 0x5a, 0x5b, 0x5c, 0x5d,
		},
	}, {
		.desc = "PortXmitConCtrl",
		.attr = 0x0034,
		.port_select = 6,
		.bytes = {
			[1] = 0x06,
			/* 4 PortXmitTimeCong */
			[4] = 0x3a, 0x3b, 0x3c, 0x3d,
		},
	}, {
		.desc = "PortVLXmitWaitCounters",
		.attr = 0x001c,
		.port_select = 1,
		.bytes = {
			[1] = 0x01,
			/* 4 + 2 v: VL v's wait; VL15 (34-35) 0 */
			[4] = 0x00, 0x10, 0x01, 0x11, 0x02, 0x12, 0x03, 0x13,
			0x04, 0x14, 0x05, 0x15, 0x06, 0x16, 0x07, 0x17,
			0x08, 0x18, 0x09, 0x19, 0x0a, 0x1a, 0x0b, 0x1b,
			0x0c, 0x1c, 0x0d, 0x1d, 0x0e, 0x1e,
		},
	}, {
		.desc = "PortVLXmitTimeCong",
		.attr = 0x0035,
		.port_select = 2,
		.bytes = {
			[1] = 0x02,
			/* 4 + 4 v: VL v's time in congestion, VL0-14 */
			[4] = 0xc0, 0x00, 0x00, 0x5a, 0xc1, 0x00, 0x01, 0x5a,
			0xc2, 0x00, 0x02, 0x5a, 0xc3, 0x00, 0x03, 0x5a,
			0xc4, 0x00, 0x04, 0x5a, 0xc5, 0x00, 0x05, 0x5a,
			0xc6, 0x00, 0x06, 0x5a, 0xc7, 0x00, 0x07, 0x5a,
			0xc8, 0x00, 0x08, 0x5a, 0xc9, 0x00, 0x09, 0x5a,
			0xca, 0x00, 0x0a, 0x5a, 0xcb, 0x00, 0x0b, 0x5a,
			0xcc, 0x00, 0x0c, 0x5a, 0xcd, 0x00, 0x0d, 0x5a,
			0xce, 0x00, 0x0e, 0x5a,
		},
	}, {
		/* Not an attribute of the PMA: nothing but 0 */
		.desc = "PortSamplesControl (not answered)",
		.attr = 0x0010,
		.port_select = 1,
	},
};

KUNIT_ARRAY_PARAM_DESC(kt_put, kt_put_cases, desc);

static void ibsw_pma_put_test(struct kunit *test)
{
	const struct kt_put_case *c = test->param_value;
	struct ibsw_counters *vl = kt_vl_fill(test);

	kt_put_check(test, c->attr, c->port_select,
		     c->wide ? &kt_cnt64 : &kt_cnt, vl, c->bytes);
}

/* Per-VL attributes without per-VL counters: 0, PortSelect echoed */
static void ibsw_pma_put_no_vl_test(struct kunit *test)
{
	static const u8 exp[KT_LEN] = { [1] = 0x09 };

	kt_put_check(test, IBSW_PMA_ATTR_VL_XMIT_WAIT, 9, &kt_cnt, NULL, exp);
	kt_put_check(test, IBSW_PMA_ATTR_VL_XMIT_TIME_CONG, 9, &kt_cnt, NULL,
		     exp);
}

/* ---- Saturation: one counter alone, one field ---- */

struct kt_sat_case {
	const char	*desc;
	u16		attr;
	int		cnt;
	int		vl;
	u64		val;
	u8		at;
	u8		n;
	u8		bytes[8];
};

#define SAT(d, a, c, v, x, o, ...)					\
	{ .desc = (d), .attr = (a), .cnt = (c), .vl = (v), .val = (x),	\
	  .at = (o), .n = ARRAY_SIZE(((u8 []){ __VA_ARGS__ })),		\
	  .bytes = { __VA_ARGS__ } }

#define PC	0x0012
#define PCE	0x001d
#define RED	0x0015
#define XDD	0x0016
#define VLXW	0x001c
#define RCC	0x0031
#define XCC	0x0034
#define VLTC	0x0035

static const struct kt_sat_case kt_sat_cases[] = {
	/* 4 bits: ExcessiveBufferOverrunErrors, byte 19 bits 3..0 */
	SAT("EBO 14", PC, IBSW_CNT_EXCESSIVE_BUFFER_OVERRUN_ERRORS, NO_VL,
	    14, 19, 0x0e),
	SAT("EBO 15", PC, IBSW_CNT_EXCESSIVE_BUFFER_OVERRUN_ERRORS, NO_VL,
	    15, 19, 0x0f),
	SAT("EBO 16: 15, not into LocalLinkIntegrity", PC,
	    IBSW_CNT_EXCESSIVE_BUFFER_OVERRUN_ERRORS, NO_VL, 16, 19, 0x0f),
	SAT("EBO 0x11: 15, not 1", PC,
	    IBSW_CNT_EXCESSIVE_BUFFER_OVERRUN_ERRORS, NO_VL, 0x11, 19, 0x0f),
	SAT("EBO U64_MAX", PC, IBSW_CNT_EXCESSIVE_BUFFER_OVERRUN_ERRORS,
	    NO_VL, U64_MAX, 19, 0x0f),
	/* 8 bits: PortRcvConstraintErrors, byte 17 */
	SAT("RcvConstraint 254", PC, IBSW_CNT_RCV_CONSTRAINT_ERRORS, NO_VL,
	    254, 17, 0xfe),
	SAT("RcvConstraint 255", PC, IBSW_CNT_RCV_CONSTRAINT_ERRORS, NO_VL,
	    255, 17, 0xff),
	SAT("RcvConstraint 256", PC, IBSW_CNT_RCV_CONSTRAINT_ERRORS, NO_VL,
	    256, 17, 0xff),
	SAT("RcvConstraint 0x105: 255, not 5", PC,
	    IBSW_CNT_RCV_CONSTRAINT_ERRORS, NO_VL, 0x105, 17, 0xff),
	SAT("RcvConstraint U64_MAX", PC, IBSW_CNT_RCV_CONSTRAINT_ERRORS,
	    NO_VL, U64_MAX, 17, 0xff),
	/* 16 bits: PortRcvErrors 8-9, VL15Dropped 22-23 */
	SAT("RcvErrors 0xfffe", PC, IBSW_CNT_RCV_ERRORS, NO_VL, 0xfffe, 8,
	    0xff, 0xfe),
	SAT("RcvErrors 0xffff", PC, IBSW_CNT_RCV_ERRORS, NO_VL, 0xffff, 8,
	    0xff, 0xff),
	SAT("RcvErrors 0x10000", PC, IBSW_CNT_RCV_ERRORS, NO_VL, 0x10000, 8,
	    0xff, 0xff),
	SAT("RcvErrors 0x10203: 0xffff, not 0x0203", PC, IBSW_CNT_RCV_ERRORS,
	    NO_VL, 0x10203, 8, 0xff, 0xff),
	SAT("RcvErrors U64_MAX", PC, IBSW_CNT_RCV_ERRORS, NO_VL, U64_MAX, 8,
	    0xff, 0xff),
	SAT("SwitchRelay 0x10000", PC, IBSW_CNT_RCV_SWITCH_RELAY_ERRORS,
	    NO_VL, 0x10000, 12, 0xff, 0xff),
	SAT("XmitDiscards 0x10000", PC, IBSW_CNT_XMIT_DISCARDS, NO_VL,
	    0x10000, 14, 0xff, 0xff),
	SAT("VL15Dropped 0xffff", PC, IBSW_CNT_VL15_DROPPED, NO_VL, 0xffff,
	    22, 0xff, 0xff),
	SAT("VL15Dropped 0x10000", PC, IBSW_CNT_VL15_DROPPED, NO_VL, 0x10000,
	    22, 0xff, 0xff),
	/* 32 bits: PortXmitData 24-27, PortXmitWait 40-43 */
	SAT("XmitData 0xfffffffe", PC, IBSW_CNT_XMIT_DATA, NO_VL, 0xfffffffe,
	    24, 0xff, 0xff, 0xff, 0xfe),
	SAT("XmitData 0xffffffff", PC, IBSW_CNT_XMIT_DATA, NO_VL, 0xffffffff,
	    24, 0xff, 0xff, 0xff, 0xff),
	SAT("XmitData 2^32", PC, IBSW_CNT_XMIT_DATA, NO_VL, 0x100000000, 24,
	    0xff, 0xff, 0xff, 0xff),
	SAT("XmitData 2^32 + 5: saturated, not 5", PC, IBSW_CNT_XMIT_DATA,
	    NO_VL, 0x100000005, 24, 0xff, 0xff, 0xff, 0xff),
	SAT("XmitData U64_MAX", PC, IBSW_CNT_XMIT_DATA, NO_VL, U64_MAX, 24,
	    0xff, 0xff, 0xff, 0xff),
	SAT("RcvData 2^32", PC, IBSW_CNT_RCV_DATA, NO_VL, 0x100000000, 28,
	    0xff, 0xff, 0xff, 0xff),
	SAT("XmitPkts 2^32", PC, IBSW_CNT_XMIT_PKTS, NO_VL, 0x100000000, 32,
	    0xff, 0xff, 0xff, 0xff),
	SAT("RcvPkts 2^32", PC, IBSW_CNT_RCV_PKTS, NO_VL, 0x100000000, 36,
	    0xff, 0xff, 0xff, 0xff),
	SAT("XmitWait 0xfffffffe", PC, IBSW_CNT_XMIT_WAIT, NO_VL, 0xfffffffe,
	    40, 0xff, 0xff, 0xff, 0xfe),
	SAT("XmitWait 2^32", PC, IBSW_CNT_XMIT_WAIT, NO_VL, 0x100000000, 40,
	    0xff, 0xff, 0xff, 0xff),
	/* 64 bits: no saturation below U64_MAX */
	SAT("extended XmitData 2^32: not saturated", PCE, IBSW_CNT_XMIT_DATA,
	    NO_VL, 0x100000000, 8, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
	    0x00),
	SAT("extended XmitData U64_MAX", PCE, IBSW_CNT_XMIT_DATA, NO_VL,
	    U64_MAX, 8, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff),
	SAT("extended XmitWait 2^32", PCE, IBSW_CNT_XMIT_WAIT, NO_VL,
	    0x100000000, 168, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00),
	SAT("extended VL15Dropped 0x10000", PCE, IBSW_CNT_VL15_DROPPED, NO_VL,
	    0x10000, 160, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00),
	/* The details, 16 bits */
	SAT("MalformedPkt 0x10000", RED, IBSW_CNT_RCV_ERRORS, NO_VL, 0x10000,
	    6, 0xff, 0xff),
	SAT("VLMapping 0xfffe", RED, IBSW_CNT_RCV_VL_DISCARDS, NO_VL, 0xfffe,
	    12, 0xff, 0xfe),
	SAT("VLMapping 0x10000", RED, IBSW_CNT_RCV_VL_DISCARDS, NO_VL,
	    0x10000, 12, 0xff, 0xff),
	SAT("Inactive 0x10000", XDD, IBSW_CNT_INACTIVE_DISCARDS, NO_VL, 0x10000,
	    4, 0xff, 0xff),
	SAT("SwHOQLifetime 0x10000", XDD, IBSW_CNT_HOQ_DISCARDS, NO_VL,
	    0x10000, 10, 0xff, 0xff),
	/* Congestion, 32 bits */
	SAT("PktRcvBECN 2^32", RCC, IBSW_CNT_RCV_BECN, NO_VL, 0x100000000, 8,
	    0xff, 0xff, 0xff, 0xff),
	SAT("XmitTimeCong 0xffffffff", XCC, IBSW_CNT_XMIT_TIME_CONG, NO_VL,
	    0xffffffff, 4, 0xff, 0xff, 0xff, 0xff),
	SAT("XmitTimeCong U64_MAX", XCC, IBSW_CNT_XMIT_TIME_CONG, NO_VL,
	    U64_MAX, 4, 0xff, 0xff, 0xff, 0xff),
	/* Per VL */
	SAT("VL3 XmitWait 0xfffe", VLXW, IBSW_CNT_XMIT_WAIT, 3, 0xfffe, 10,
	    0xff, 0xfe),
	SAT("VL3 XmitWait 0x10000", VLXW, IBSW_CNT_XMIT_WAIT, 3, 0x10000, 10,
	    0xff, 0xff),
	SAT("VL14 XmitWait U64_MAX", VLXW, IBSW_CNT_XMIT_WAIT, 14, U64_MAX,
	    32, 0xff, 0xff),
	SAT("VL0 XmitTimeCong 2^32", VLTC, IBSW_CNT_XMIT_TIME_CONG, 0,
	    0x100000000, 4, 0xff, 0xff, 0xff, 0xff),
	SAT("VL14 XmitTimeCong 0xfffffffe", VLTC, IBSW_CNT_XMIT_TIME_CONG, 14,
	    0xfffffffe, 60, 0xff, 0xff, 0xff, 0xfe),
};

KUNIT_ARRAY_PARAM_DESC(kt_sat, kt_sat_cases, desc);

static void ibsw_pma_saturation_test(struct kunit *test)
{
	const struct kt_sat_case *c = test->param_value;
	struct ibsw_counters cnt = {}, *vl;
	u8 exp[KT_LEN] = {};

	vl = kunit_kcalloc(test, IBSW_NR_DATA_VLS, sizeof(*vl), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, vl);
	if (c->vl == NO_VL)
		cnt.val[c->cnt] = c->val;
	else
		vl[c->vl].val[c->cnt] = c->val;
	memcpy(exp + c->at, c->bytes, c->n);
	kt_put_check(test, c->attr, 0, &cnt, vl, exp);
}

/* ---- CounterSelect of a Set ---- */

struct kt_patch {
	u8	at;
	u8	n;
	u8	bytes[4];
};

struct kt_sel_case {
	const char		*desc;
	u16			attr;
	struct kt_patch		p[2];
	struct ibsw_pma_clear	exp;
};

#define P(o, ...)	{ .at = (o), .n = ARRAY_SIZE(((u8 []){ __VA_ARGS__ })), \
			  .bytes = { __VA_ARGS__ } }
/* CounterSelect, bytes 2-3 */
#define CS(hi, lo)	P(2, hi, lo)
#define CNT(c)		{ .cnt = BIT(IBSW_CNT_##c) }
#define NOTHING		{}
#define VLS(c, v)	{ .vl_cnt = BIT(IBSW_CNT_##c), .vls = (v) }

static const struct kt_sel_case kt_sel_cases[] = {
	/* PortCounters: CounterSelect bits 0-15, CounterSelect2 (byte 18) */
	{ "PC none", PC, { CS(0x00, 0x00) }, NOTHING },
	{ "PC SymbolError (0): not counted", PC, { CS(0x00, 0x01) }, NOTHING },
	{ "PC LinkErrorRecovery (1)", PC, { CS(0x00, 0x02) }, NOTHING },
	{ "PC LinkDowned (2)", PC, { CS(0x00, 0x04) }, NOTHING },
	{ "PC RcvErrors (3)", PC, { CS(0x00, 0x08) }, CNT(RCV_ERRORS) },
	{ "PC RcvRemotePhysical (4)", PC, { CS(0x00, 0x10) }, NOTHING },
	{ "PC RcvSwitchRelay (5)", PC, { CS(0x00, 0x20) },
	  CNT(RCV_SWITCH_RELAY_ERRORS) },
	{ "PC XmitDiscards (6)", PC, { CS(0x00, 0x40) }, CNT(XMIT_DISCARDS) },
	{ "PC XmitConstraint (7)", PC, { CS(0x00, 0x80) }, NOTHING },
	{ "PC RcvConstraint (8)", PC, { CS(0x01, 0x00) },
	  CNT(RCV_CONSTRAINT_ERRORS) },
	{ "PC LocalLinkIntegrity (9)", PC, { CS(0x02, 0x00) }, NOTHING },
	{ "PC EBO (10)", PC, { CS(0x04, 0x00) },
	  CNT(EXCESSIVE_BUFFER_OVERRUN_ERRORS) },
	{ "PC VL15Dropped (11)", PC, { CS(0x08, 0x00) }, CNT(VL15_DROPPED) },
	{ "PC XmitData (12)", PC, { CS(0x10, 0x00) }, CNT(XMIT_DATA) },
	{ "PC RcvData (13)", PC, { CS(0x20, 0x00) }, CNT(RCV_DATA) },
	{ "PC XmitPkts (14)", PC, { CS(0x40, 0x00) }, CNT(XMIT_PKTS) },
	{ "PC RcvPkts (15)", PC, { CS(0x80, 0x00) }, CNT(RCV_PKTS) },
	{ "PC XmitWait (CounterSelect2 bit 0)", PC, { P(18, 0x01) },
	  CNT(XMIT_WAIT) },
	{ "PC QP1Dropped (CounterSelect2 bit 1)", PC, { P(18, 0x02) },
	  NOTHING },
	{ "PC CounterSelect2 reserved bits", PC, { P(18, 0xfc) }, NOTHING },
	{ "PC counters themselves ignored", PC,
	  { P(4, 0xff, 0xff, 0xff, 0xff), P(19, 0xff) }, NOTHING },
	{
		"PC everything (perfquery -R: 0xffff, 0x01)", PC,
		{ CS(0xff, 0xff), P(18, 0x01) },
		{ .cnt = BIT(IBSW_CNT_RCV_ERRORS) |
			 BIT(IBSW_CNT_RCV_SWITCH_RELAY_ERRORS) |
			 BIT(IBSW_CNT_XMIT_DISCARDS) |
			 BIT(IBSW_CNT_RCV_CONSTRAINT_ERRORS) |
			 BIT(IBSW_CNT_EXCESSIVE_BUFFER_OVERRUN_ERRORS) |
			 BIT(IBSW_CNT_VL15_DROPPED) |
			 BIT(IBSW_CNT_XMIT_DATA) | BIT(IBSW_CNT_RCV_DATA) |
			 BIT(IBSW_CNT_XMIT_PKTS) | BIT(IBSW_CNT_RCV_PKTS) |
			 BIT(IBSW_CNT_XMIT_WAIT) },
	},
	{ "PC PortSelect", PC, { P(1, 0xff) }, { .port_select = 0xff } },
	{ "PC PortSelect with XmitData", PC, { P(1, 0x05), CS(0x10, 0x00) },
	  { .port_select = 5, .cnt = BIT(IBSW_CNT_XMIT_DATA) } },
	/* PortCountersExtended: CounterSelect, CounterSelect2 at 4-7 */
	{ "PCE XmitData (0)", PCE, { CS(0x00, 0x01) }, CNT(XMIT_DATA) },
	{ "PCE RcvData (1)", PCE, { CS(0x00, 0x02) }, CNT(RCV_DATA) },
	{ "PCE XmitPkts (2)", PCE, { CS(0x00, 0x04) }, CNT(XMIT_PKTS) },
	{ "PCE RcvPkts (3)", PCE, { CS(0x00, 0x08) }, CNT(RCV_PKTS) },
	{ "PCE UnicastXmitPkts (4): the packet counter", PCE,
	  { CS(0x00, 0x10) }, CNT(XMIT_PKTS) },
	{ "PCE UnicastRcvPkts (5)", PCE, { CS(0x00, 0x20) }, CNT(RCV_PKTS) },
	{ "PCE MulticastXmitPkts (6)", PCE, { CS(0x00, 0x40) }, NOTHING },
	{ "PCE MulticastRcvPkts (7)", PCE, { CS(0x00, 0x80) }, NOTHING },
	{ "PCE CounterSelect bits 8-15 reserved", PCE, { CS(0xff, 0x00) },
	  NOTHING },
	{ "PCE CS2 SymbolError (0)", PCE, { P(4, 0x00, 0x00, 0x00, 0x01) },
	  NOTHING },
	{ "PCE CS2 RcvErrors (3)", PCE, { P(4, 0x00, 0x00, 0x00, 0x08) },
	  CNT(RCV_ERRORS) },
	{ "PCE CS2 RcvSwitchRelay (5)", PCE,
	  { P(4, 0x00, 0x00, 0x00, 0x20) }, CNT(RCV_SWITCH_RELAY_ERRORS) },
	{ "PCE CS2 XmitDiscards (6)", PCE, { P(4, 0x00, 0x00, 0x00, 0x40) },
	  CNT(XMIT_DISCARDS) },
	{ "PCE CS2 XmitConstraint (7)", PCE,
	  { P(4, 0x00, 0x00, 0x00, 0x80) }, NOTHING },
	{ "PCE CS2 RcvConstraint (8)", PCE, { P(4, 0x00, 0x00, 0x01, 0x00) },
	  CNT(RCV_CONSTRAINT_ERRORS) },
	{ "PCE CS2 LocalLinkIntegrity (9)", PCE,
	  { P(4, 0x00, 0x00, 0x02, 0x00) }, NOTHING },
	{ "PCE CS2 EBO (10)", PCE, { P(4, 0x00, 0x00, 0x04, 0x00) },
	  CNT(EXCESSIVE_BUFFER_OVERRUN_ERRORS) },
	{ "PCE CS2 VL15Dropped (11)", PCE, { P(4, 0x00, 0x00, 0x08, 0x00) },
	  CNT(VL15_DROPPED) },
	{ "PCE CS2 XmitWait (12)", PCE, { P(4, 0x00, 0x00, 0x10, 0x00) },
	  CNT(XMIT_WAIT) },
	{ "PCE CS2 QP1Dropped (13)", PCE, { P(4, 0x00, 0x00, 0x20, 0x00) },
	  NOTHING },
	{ "PCE CS2 bits 14-31 reserved", PCE,
	  { P(4, 0xff, 0xff, 0xc0, 0x00) }, NOTHING },
	{ "PCE byte 18 is not a CounterSelect2", PCE, { P(18, 0x01) },
	  NOTHING },
	/* PortRcvErrorDetails */
	{ "RED LocalPhysical (0)", RED, { CS(0x00, 0x01) }, NOTHING },
	{ "RED MalformedPkt (1)", RED, { CS(0x00, 0x02) }, CNT(RCV_ERRORS) },
	{ "RED BufferOverrun (2)", RED, { CS(0x00, 0x04) }, NOTHING },
	{ "RED DLIDMapping (3)", RED, { CS(0x00, 0x08) },
	  CNT(RCV_SWITCH_RELAY_ERRORS) },
	{ "RED VLMapping (4)", RED, { CS(0x00, 0x10) }, CNT(RCV_VL_DISCARDS) },
	{ "RED Looping (5)", RED, { CS(0x00, 0x20) }, NOTHING },
	{ "RED reserved bits", RED, { CS(0xff, 0xc0) }, NOTHING },
	/* PortXmitDiscardDetails */
	{ "XDD Inactive (0)", XDD, { CS(0x00, 0x01) }, CNT(INACTIVE_DISCARDS) },
	{ "XDD NeighborMTU, SwLifetime (1, 2)", XDD, { CS(0x00, 0x06) },
	  NOTHING },
	{ "XDD SwHOQLifetime (3)", XDD, { CS(0x00, 0x08) }, CNT(HOQ_DISCARDS) },
	/* Congestion */
	{ "RCC FECN (0)", RCC, { CS(0x00, 0x01) }, CNT(RCV_FECN) },
	{ "RCC BECN (1)", RCC, { CS(0x00, 0x02) }, CNT(RCV_BECN) },
	{ "RCC reserved bits", RCC, { CS(0xff, 0xfc) }, NOTHING },
	{ "XCC XmitTimeCong (0)", XCC, { CS(0x00, 0x01) },
	  CNT(XMIT_TIME_CONG) },
	{ "XCC reserved bits", XCC, { CS(0xff, 0xfe) }, NOTHING },
	/* Per VL: bit v is VL v */
	{ "VLXW VL0", VLXW, { CS(0x00, 0x01) }, VLS(XMIT_WAIT, 0x0001) },
	{ "VLXW VL9", VLXW, { CS(0x02, 0x00) }, VLS(XMIT_WAIT, 0x0200) },
	{ "VLXW VL14", VLXW, { CS(0x40, 0x00) }, VLS(XMIT_WAIT, 0x4000) },
	{ "VLXW VL15: not kept", VLXW, { CS(0x80, 0x00) }, NOTHING },
	{ "VLXW all", VLXW, { CS(0xff, 0xff) }, VLS(XMIT_WAIT, 0x7fff) },
	{ "VLTC VL0 and VL2", VLTC, { CS(0x00, 0x05) },
	  VLS(XMIT_TIME_CONG, 0x0005) },
	{ "VLTC VL14", VLTC, { CS(0x40, 0x00) },
	  VLS(XMIT_TIME_CONG, 0x4000) },
	{ "VLTC bit 15 reserved", VLTC, { CS(0x80, 0x00) }, NOTHING },
	/* Not a counter attribute */
	{ "ClassPortInfo: nothing", 0x0001, { CS(0xff, 0xff), P(1, 0x03) },
	  { .port_select = 3 } },
};

KUNIT_ARRAY_PARAM_DESC(kt_sel, kt_sel_cases, desc);

static void ibsw_pma_clear_test(struct kunit *test)
{
	const struct kt_sel_case *c = test->param_value;
	struct ibsw_pma_clear clr;
	u8 data[KT_LEN] = {};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(c->p); i++)
		memcpy(data + c->p[i].at, c->p[i].bytes, c->p[i].n);
	memset(&clr, 0x5a, sizeof(clr));
	ibsw_pma_clear_get(data, c->attr, &clr);
	KUNIT_EXPECT_EQ(test, clr.port_select, c->exp.port_select);
	KUNIT_EXPECT_EQ(test, clr.cnt, c->exp.cnt);
	KUNIT_EXPECT_EQ(test, clr.vl_cnt, c->exp.vl_cnt);
	KUNIT_EXPECT_EQ(test, clr.vls, c->exp.vls);
}

/* ---- Header check ---- */

/* A PerfMgt request, version 1: method, attribute, modifier, PortSelect */
#define REQ(d, m, a, mod, ps, n, e) \
	{ d, 0x01, 0x04, 0x01, m, a, mod, ps, n, e }

static const struct kt_gmp_case kt_check_cases[] = {
	REQ("Get PortCounters port 1", GET, PC, 0, 1, 8, OK),
	REQ("Get PortCounters last port", GET, PC, 0, 8, 8, OK),
	REQ("Get PortCounters past the last port", GET, PC, 0, 9, 8, VALUE),
	REQ("Get PortCounters port 0 (management port)", GET, PC, 0, 0, 8,
	    OK),
	REQ("Get PortCounters AllPortSelect", GET, PC, 0, 0xff, 8, OK),
	REQ("Get PortCounters 254 of 254 ports", GET, PC, 0, 254, 254, OK),
	REQ("Get PortCounters 0xfe of 8 ports", GET, PC, 0, 0xfe, 8, VALUE),
	REQ("Set PortCounters", SET, PC, 0, 3, 8, OK),
	REQ("Set PortCounters AllPortSelect", SET, PC, 0, 0xff, 8, OK),
	REQ("Get PortCountersExtended", GET, PCE, 0, 2, 8, OK),
	REQ("Set PortCountersExtended", SET, PCE, 0, 2, 8, OK),
	REQ("Get PortRcvErrorDetails", GET, RED, 0, 2, 8, OK),
	REQ("Get PortXmitDiscardDetails", GET, XDD, 0, 2, 8, OK),
	REQ("Get PortVLXmitWaitCounters", GET, VLXW, 0, 2, 8, OK),
	REQ("Get PortRcvConCtrl", GET, RCC, 0, 2, 8, OK),
	REQ("Get PortXmitConCtrl", GET, XCC, 0, 2, 8, OK),
	REQ("Set PortVLXmitTimeCong AllPortSelect", SET, VLTC, 0, 0xff, 8,
	    OK),
	REQ("Get PortVLXmitTimeCong past the last port", GET, VLTC, 0, 9, 8,
	    VALUE),
	REQ("Get ClassPortInfo: PortSelect ignored", GET, 0x0001, 0, 200, 8,
	    OK),
	REQ("Set ClassPortInfo", SET, 0x0001, 0, 0, 8, ATTR),
	REQ("Get ClassPortInfo, modifier 1", GET, 0x0001, 1, 0, 8, VALUE),
	REQ("Get PortCounters, modifier 1", GET, PC, 1, 1, 8, VALUE),
	REQ("Get PortCounters, modifier 0x80000000", GET, PC, 0x80000000, 1,
	    8, VALUE),
	REQ("Get PortSamplesControl", GET, 0x0010, 0, 1, 8, ATTR),
	REQ("Get PortSamplesResultExtended", GET, 0x001e, 0, 1, 8, ATTR),
	REQ("Get SwPortVLCongestion", GET, 0x0030, 0, 1, 8, ATTR),
	REQ("Get PortXmitDataSL", GET, 0x0036, 0, 1, 8, ATTR),
	REQ("Get attribute 0xffff", GET, 0xffff, 0, 1, 8, ATTR),
	REQ("Get attribute 0x0000", GET, 0x0000, 0, 1, 8, ATTR),
	REQ("Send", 0x03, PC, 0, 1, 8, METHOD),
	REQ("method 0x04", 0x04, PC, 0, 1, 8, METHOD),
	REQ("method 0x7f", 0x7f, PC, 0, 1, 8, METHOD),
	REQ("GetResp", 0x81, PC, 0, 1, 8, NO_REPLY),
	REQ("ReportResp", 0x86, PC, 0, 1, 8, NO_REPLY),
	REQ("Trap", 0x05, PC, 0, 1, 8, NO_REPLY),
	REQ("Report", 0x06, PC, 0, 1, 8, NO_REPLY),
	REQ("TrapRepress", 0x07, PC, 0, 1, 8, NO_REPLY),
	{ "class version 2", 0x01, 0x04, 0x02, GET, PC, 0, 1, 8, VERSION },
	{ "class version 0", 0x01, 0x04, 0x00, GET, PC, 0, 1, 8, VERSION },
	{ "base version 2", 0x02, 0x04, 0x01, GET, PC, 0, 1, 8, NO_REPLY },
	{ "base version 0x80 (OPA)", 0x80, 0x04, 0x01, GET, PC, 0, 1, 8,
	  NO_REPLY },
	{ "class CC", 0x01, 0x21, 0x01, GET, PC, 0, 1, 8, NO_REPLY },
	{ "class SubnMgmt", 0x01, 0x01, 0x01, GET, PC, 0, 1, 8, NO_REPLY },
	/* Which check wins */
	{ "bad class version and method: version", 0x01, 0x04, 0x02, 0x03,
	  PC, 0, 1, 8, VERSION },
	{ "GetResp with a bad class version: no reply", 0x01, 0x04, 0x02,
	  0x81, PC, 0, 1, 8, NO_REPLY },
	REQ("bad method and attribute: method", 0x03, 0x0010, 0, 1, 8, METHOD),
	REQ("unknown attribute, bad port: attribute", GET, 0x0010, 0, 99, 8,
	    ATTR),
	REQ("unknown attribute, modifier 1: attribute", GET, 0x0010, 1, 1, 8,
	    ATTR),
};

KUNIT_ARRAY_PARAM_DESC(kt_check, kt_check_cases, desc);

static void ibsw_pma_check_test(struct kunit *test)
{
	const struct kt_gmp_case *c = test->param_value;
	u8 data[KT_LEN] = { [1] = c->port_select };
	struct ib_mad_hdr hdr;

	kt_gmp_hdr(&hdr, c);
	KUNIT_EXPECT_EQ(test, ibsw_pma_check(&hdr, data, c->nr_ports), c->exp);
}

/* ---- AllPortSelect sums ---- */

struct kt_add_case {
	const char	*desc;
	u64		sum;
	u64		add;
	u64		exp;
};

static const struct kt_add_case kt_add_cases[] = {
	{ "1 + 2", 1, 2, 3 },
	{ "0 + 0", 0, 0, 0 },
	{ "2^32 + 2^32", 0x100000000, 0x100000000, 0x200000000 },
	{ "U64_MAX - 1 + 1", U64_MAX - 1, 1, U64_MAX },
	{ "U64_MAX + 1: saturates", U64_MAX, 1, U64_MAX },
	{ "U64_MAX - 1 + 2: saturates, not 0", U64_MAX - 1, 2, U64_MAX },
	{ "U64_MAX + U64_MAX", U64_MAX, U64_MAX, U64_MAX },
};

KUNIT_ARRAY_PARAM_DESC(kt_add, kt_add_cases, desc);

static void ibsw_pma_counters_add_test(struct kunit *test)
{
	const struct kt_add_case *c = test->param_value;
	struct ibsw_counters sum, cnt;
	unsigned int i;

	for (i = 0; i < IBSW_NR_COUNTERS; i++) {
		/* Each counter on its own, the others distinct */
		sum.val[i] = i % 2 ? c->sum : i;
		cnt.val[i] = i % 2 ? c->add : 100 * i;
	}
	ibsw_pma_counters_add(&sum, &cnt);
	for (i = 0; i < IBSW_NR_COUNTERS; i++)
		KUNIT_EXPECT_EQ_MSG(test, sum.val[i], i % 2 ? c->exp : 101 * i,
				    "counter %u", i);
}

/* ---- The wire values of the constants ---- */

static void ibsw_pma_constants_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, IBSW_PMA_ATTR_CLASS_PORT_INFO, 0x0001);
	KUNIT_EXPECT_EQ(test, IBSW_PMA_ATTR_PORT_COUNTERS, 0x0012);
	KUNIT_EXPECT_EQ(test, IBSW_PMA_ATTR_RCV_ERROR_DETAILS, 0x0015);
	KUNIT_EXPECT_EQ(test, IBSW_PMA_ATTR_XMIT_DISCARD_DETAILS, 0x0016);
	KUNIT_EXPECT_EQ(test, IBSW_PMA_ATTR_VL_XMIT_WAIT, 0x001c);
	KUNIT_EXPECT_EQ(test, IBSW_PMA_ATTR_PORT_COUNTERS_EXT, 0x001d);
	KUNIT_EXPECT_EQ(test, IBSW_PMA_ATTR_RCV_CON_CTRL, 0x0031);
	KUNIT_EXPECT_EQ(test, IBSW_PMA_ATTR_XMIT_CON_CTRL, 0x0034);
	KUNIT_EXPECT_EQ(test, IBSW_PMA_ATTR_VL_XMIT_TIME_CONG, 0x0035);
	KUNIT_EXPECT_EQ(test, IBSW_PMA_CAP_MASK, 0x1300);
	KUNIT_EXPECT_EQ(test, IBSW_PMA_CAP2_MASK, 0x2);
	KUNIT_EXPECT_EQ(test, IBSW_PMA_DATA_OFFSET, 64);
	KUNIT_EXPECT_EQ(test, IBSW_PMA_PORT_SELECT_ALL, 0xff);
}

static struct kunit_case ibsw_pma_attr_test_cases[] = {
	KUNIT_CASE(ibsw_pma_cpi_test),
	KUNIT_CASE_PARAM(ibsw_mad_cpi_test, kt_cpi_gen_params),
	KUNIT_CASE_PARAM(ibsw_pma_put_test, kt_put_gen_params),
	KUNIT_CASE(ibsw_pma_put_no_vl_test),
	KUNIT_CASE_PARAM(ibsw_pma_saturation_test, kt_sat_gen_params),
	KUNIT_CASE_PARAM(ibsw_pma_clear_test, kt_sel_gen_params),
	KUNIT_CASE_PARAM(ibsw_pma_check_test, kt_check_gen_params),
	KUNIT_CASE_PARAM(ibsw_pma_counters_add_test, kt_add_gen_params),
	KUNIT_CASE(ibsw_pma_constants_test),
	{}
};

static struct kunit_suite ibsw_pma_attr_test_suite = {
	.name = "ibsw_pma_attr",
	.test_cases = ibsw_pma_attr_test_cases,
};

kunit_test_suite(ibsw_pma_attr_test_suite);

MODULE_DESCRIPTION("KUnit tests for the ibsw PMA attribute encodings");
MODULE_LICENSE("GPL");
