// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the IBA local headers of management packets
 * (mad_pkt.c): expected bytes written from the LRH, BTH and DETH layouts
 * of IBA vol 1 (7.7, 9.2, 9.3), not by the encoder.
 */

#include <kunit/test.h>
#include <linux/string.h>

#include "../mad_pkt.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

struct kt_hdr_case {
	const char		*desc;
	struct ibsw_mad_addr	a;
	u8			bytes[IBSW_MAD_OFF];
};

static const struct kt_hdr_case kt_hdr_cases[] = {
	{
		"directed-route SMP from a port without a LID",
		{ .vl = 15, .sl = 0, .dlid = 0xffff, .slid = 0xffff,
		  .pkey = 0xffff, .dqp = 0, .qkey = 0, .sqp = 0 },
		{
			/* LRH: VL 15, LVer 0 | SL 0, LNH 2 | DLID | PktLen 72 | SLID */
			0xf0, 0x02, 0xff, 0xff, 0x00, 0x48, 0xff, 0xff,
			/* BTH: UD SEND Only | 0 | P_Key | resv | DestQP 0 | PSN 0 */
			0x64, 0x00, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00,
			0x00, 0x00, 0x00, 0x00,
			/* DETH: Q_Key 0 | resv | SrcQP 0 */
			0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		},
	},
	{
		"GMP on SL 5 to the GSI of LID 0x1234 from LID 0x0abc",
		{ .vl = 3, .sl = 5, .dlid = 0x1234, .slid = 0x0abc,
		  .pkey = 0x7fff, .dqp = 1, .qkey = 0x80010000, .sqp = 0x123456 },
		{
			0x30, 0x52, 0x12, 0x34, 0x00, 0x48, 0x0a, 0xbc,
			0x64, 0x00, 0x7f, 0xff, 0x00, 0x00, 0x00, 0x01,
			0x00, 0x00, 0x00, 0x00,
			0x80, 0x01, 0x00, 0x00, 0x00, 0x12, 0x34, 0x56,
		},
	},
};

static void kt_hdr_desc(const struct kt_hdr_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(kt_hdr, kt_hdr_cases, kt_hdr_desc);

static void ibsw_mad_hdrs_put_test(struct kunit *test)
{
	const struct kt_hdr_case *c = test->param_value;
	u8 p[IBSW_MAD_OFF];

	memset(p, 0xaa, sizeof(p));
	ibsw_mad_hdrs_put(p, &c->a);
	KUNIT_EXPECT_MEMEQ(test, p, c->bytes, sizeof(p));
}

static void ibsw_mad_hdrs_get_test(struct kunit *test)
{
	const struct kt_hdr_case *c = test->param_value;
	u8 pkt[IBSW_MAD_PKT_LEN] = {};
	struct ibsw_mad_addr a;

	memcpy(pkt, c->bytes, sizeof(c->bytes));
	KUNIT_ASSERT_EQ(test, ibsw_mad_hdrs_get(pkt, sizeof(pkt), &a), 0);
	KUNIT_EXPECT_EQ(test, a.vl, c->a.vl);
	KUNIT_EXPECT_EQ(test, a.sl, c->a.sl);
	KUNIT_EXPECT_EQ(test, a.dlid, c->a.dlid);
	KUNIT_EXPECT_EQ(test, a.slid, c->a.slid);
	KUNIT_EXPECT_EQ(test, a.pkey, c->a.pkey);
	KUNIT_EXPECT_EQ(test, a.dqp, c->a.dqp);
	KUNIT_EXPECT_EQ(test, a.qkey, c->a.qkey);
	KUNIT_EXPECT_EQ(test, a.sqp, c->a.sqp);
}

/* What is not one MAD in a UD SEND Only with IBA local headers */
static void ibsw_mad_hdrs_refused_test(struct kunit *test)
{
	u8 pkt[IBSW_MAD_PKT_LEN] = {};
	struct ibsw_mad_addr a;

	memcpy(pkt, kt_hdr_cases[0].bytes, IBSW_MAD_OFF);
	KUNIT_EXPECT_EQ(test, ibsw_mad_hdrs_get(pkt, sizeof(pkt) - 1, &a), -EINVAL);
	pkt[1] = 0x03;				/* LNH 3: a GRH follows */
	KUNIT_EXPECT_EQ(test, ibsw_mad_hdrs_get(pkt, sizeof(pkt), &a), -EINVAL);
	pkt[1] = 0x02;
	pkt[0] = 0xf1;				/* LVer 1 */
	KUNIT_EXPECT_EQ(test, ibsw_mad_hdrs_get(pkt, sizeof(pkt), &a), -EINVAL);
	pkt[0] = 0xf0;
	pkt[5] = 0x47;				/* PktLen 71 */
	KUNIT_EXPECT_EQ(test, ibsw_mad_hdrs_get(pkt, sizeof(pkt), &a), -EINVAL);
	pkt[5] = 0x48;
	pkt[8] = 0x04;				/* RC SEND Only */
	KUNIT_EXPECT_EQ(test, ibsw_mad_hdrs_get(pkt, sizeof(pkt), &a), -EINVAL);
	pkt[8] = 0x64;
	pkt[9] = 0x10;				/* PadCnt 1 */
	KUNIT_EXPECT_EQ(test, ibsw_mad_hdrs_get(pkt, sizeof(pkt), &a), -EINVAL);
	pkt[9] = 0x00;
	KUNIT_EXPECT_EQ(test, ibsw_mad_hdrs_get(pkt, sizeof(pkt), &a), 0);
}

/*
 * A host's GMP in RoCEv2, from its BTH: the rxe CC agent's reply on SL 2
 * to QP 1, P_Key 0xffff, Q_Key 0x80010000, from QP 1
 */
static void ibsw_mad_roce_get_test(struct kunit *test)
{
	static const u8 hdrs[IBSW_BTH_LEN + IBSW_DETH_LEN] = {
		0x64, 0x00, 0xff, 0xff, 0x00, 0x00, 0x00, 0x01,
		0x00, 0x00, 0x00, 0x07,
		0x80, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
	};
	/* BTH to the ICRC: BTH, DETH, the MAD, the ICRC */
	u8 pkt[IBSW_BTH_LEN + IBSW_DETH_LEN + IB_MGMT_MAD_SIZE + IBSW_ICRC_LEN] = {};
	struct ibsw_mad_addr a = { .vl = 9, .sl = 2, .dlid = 7, .slid = 8 };

	memcpy(pkt, hdrs, sizeof(hdrs));
	KUNIT_ASSERT_EQ(test, ibsw_mad_roce_get(pkt, sizeof(pkt), &a), 0);
	KUNIT_EXPECT_EQ(test, a.pkey, 0xffff);
	KUNIT_EXPECT_EQ(test, a.dqp, 1);
	KUNIT_EXPECT_EQ(test, a.qkey, 0x80010000);
	KUNIT_EXPECT_EQ(test, a.sqp, 1);
	/* What the IP header told the switch stays */
	KUNIT_EXPECT_EQ(test, a.vl, 9);
	KUNIT_EXPECT_EQ(test, a.sl, 2);
	KUNIT_EXPECT_EQ(test, a.dlid, 7);
	KUNIT_EXPECT_EQ(test, a.slid, 8);
	/* Not one MAD: a byte short, an RC SEND Only */
	KUNIT_EXPECT_EQ(test, ibsw_mad_roce_get(pkt, sizeof(pkt) - 1, &a), -EINVAL);
	pkt[0] = 0x04;
	KUNIT_EXPECT_EQ(test, ibsw_mad_roce_get(pkt, sizeof(pkt), &a), -EINVAL);
}

static struct kunit_case ibsw_mad_pkt_test_cases[] = {
	KUNIT_CASE_PARAM(ibsw_mad_hdrs_put_test, kt_hdr_gen_params),
	KUNIT_CASE_PARAM(ibsw_mad_hdrs_get_test, kt_hdr_gen_params),
	KUNIT_CASE(ibsw_mad_hdrs_refused_test),
	KUNIT_CASE(ibsw_mad_roce_get_test),
	{}
};

static struct kunit_suite ibsw_mad_pkt_test_suite = {
	.name = "ibsw_mad_pkt",
	.test_cases = ibsw_mad_pkt_test_cases,
};

kunit_test_suite(ibsw_mad_pkt_test_suite);

MODULE_DESCRIPTION("KUnit tests for ibsw management packet headers");
MODULE_LICENSE("GPL");
