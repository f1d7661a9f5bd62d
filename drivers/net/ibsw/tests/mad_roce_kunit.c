// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for a management HCA's GMP as a RoCEv2 frame (mad_roce.c):
 * the expected headers, checksums and ICRCs were computed apart from the
 * code, by a script that packs the headers field by field and takes the
 * ICRC with zlib's CRC-32 over eight bytes of ones and the headers masked
 * as IBA annex A17.4.5.1 says (what rxe checks).
 */

#include <kunit/test.h>
#include <linux/string.h>

#include "../mad_roce.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/* The GMP: to QP 1 from QP 1, P_Key 0xffff, Q_Key 0x80010000 */
static void kt_transport(u8 *t)
{
	static const u8 hdrs[IBSW_BTH_LEN + IBSW_DETH_LEN] = {
		0x64, 0x00, 0xff, 0xff, 0x00, 0x00, 0x00, 0x01,
		0x00, 0x00, 0x00, 0x00,
		0x80, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
	};
	unsigned int i;

	memcpy(t, hdrs, sizeof(hdrs));
	for (i = 0; i < IB_MGMT_MAD_SIZE; i++)
		t[sizeof(hdrs) + i] = i * 7 + 3;
}

struct kt_roce_case {
	const char		*desc;
	struct ibsw_mad_roce	r;
	unsigned int		hlen;	/* Ethernet, IP, UDP */
	u8			hdrs[62];
	u8			icrc[4];
};

static const struct kt_roce_case kt_roce_cases[] = {
	{
		"IPv4, 10.0.0.1 to 10.0.0.2, DSCP 8",
		{
			.dmac = { 0x02, 0x1b, 0x00, 0x00, 0x00, 0x02 },
			.smac = { 0x02, 0xb5, 0xde, 0x01, 0x01, 0x03 },
			.saddr.s6_addr = { [10] = 0xff, 0xff, 10, 0, 0, 1 },
			.daddr.s6_addr = { [10] = 0xff, 0xff, 10, 0, 0, 2 },
			.dscp = 8,
			.sport = 0xc001,
		},
		42,
		{
			0x02, 0x1b, 0x00, 0x00, 0x00, 0x02, 0x02, 0xb5,
			0xde, 0x01, 0x01, 0x03, 0x08, 0x00, 0x45, 0x20,
			0x01, 0x34, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11,
			0x25, 0x97, 0x0a, 0x00, 0x00, 0x01, 0x0a, 0x00,
			0x00, 0x02, 0xc0, 0x01, 0x12, 0xb7, 0x01, 0x20,
			0x00, 0x00,
		},
		{ 0x66, 0x81, 0x00, 0xb5 },
	},
	{
		"IPv6, fd00:1b::1 to fd00:1b::2, DSCP 20",
		{
			.dmac = { 0x02, 0x1b, 0x00, 0x00, 0x00, 0x02 },
			.smac = { 0x02, 0xb5, 0xde, 0x01, 0x01, 0x03 },
			.saddr.s6_addr = { 0xfd, 0x00, 0x00, 0x1b, [15] = 1 },
			.daddr.s6_addr = { 0xfd, 0x00, 0x00, 0x1b, [15] = 2 },
			.dscp = 20,
			.sport = 0xc001,
		},
		62,
		{
			0x02, 0x1b, 0x00, 0x00, 0x00, 0x02, 0x02, 0xb5,
			0xde, 0x01, 0x01, 0x03, 0x86, 0xdd, 0x65, 0x00,
			0x00, 0x00, 0x01, 0x20, 0x11, 0x40, 0xfd, 0x00,
			0x00, 0x1b, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
			0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0xfd, 0x00,
			0x00, 0x1b, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
			0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0xc0, 0x01,
			0x12, 0xb7, 0x01, 0x20, 0x00, 0x2d,
		},
		{ 0x24, 0x3d, 0xe8, 0x8c },
	},
};

static void kt_roce_desc(const struct kt_roce_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(kt_roce, kt_roce_cases, kt_roce_desc);

/* Headers, the GMP behind them unchanged, the ICRC, nothing more */
static void ibsw_mad_roce_put_test(struct kunit *test)
{
	const struct kt_roce_case *c = test->param_value;
	unsigned int tlen = IBSW_MAD_TRANSPORT_LEN;
	u8 *t, *p;

	t = kunit_kmalloc(test, tlen, GFP_KERNEL);
	p = kunit_kmalloc(test, IBSW_MAD_ROCE_MAX + 8, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_NOT_NULL(test, p);
	kt_transport(t);
	memset(p, 0xaa, IBSW_MAD_ROCE_MAX + 8);
	KUNIT_ASSERT_EQ(test, ibsw_mad_roce_put(p, &c->r, t),
			c->hlen + tlen + IBSW_ICRC_LEN);
	KUNIT_EXPECT_MEMEQ(test, p, c->hdrs, c->hlen);
	KUNIT_EXPECT_MEMEQ(test, p + c->hlen, t, tlen);
	KUNIT_EXPECT_MEMEQ(test, p + c->hlen + tlen, c->icrc, IBSW_ICRC_LEN);
	KUNIT_EXPECT_EQ(test, p[c->hlen + tlen + IBSW_ICRC_LEN], 0xaa);
}

/*
 * What the ICRC leaves out: a switch may set FECN or BECN, a router change
 * the TTL and DSCP, without it changing; the payload and the addresses
 * are in it.
 */
static void ibsw_roce_icrc_masks_test(struct kunit *test)
{
	const struct kt_roce_case *c = &kt_roce_cases[0];
	unsigned int tlen = IBSW_MAD_TRANSPORT_LEN;
	u8 *p, *ip, *bth;
	u32 icrc;

	p = kunit_kmalloc(test, IBSW_MAD_ROCE_MAX, GFP_KERNEL);
	bth = kunit_kmalloc(test, tlen, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_NOT_NULL(test, bth);
	kt_transport(bth);
	ibsw_mad_roce_put(p, &c->r, bth);
	ip = p + IBSW_ETH_HLEN;
	bth = p + c->hlen;
	icrc = ibsw_roce_icrc(ip, false, bth, tlen);
	KUNIT_EXPECT_EQ(test, icrc, 0xb5008166);
	bth[4] |= 0xc0;			/* FECN, BECN */
	ip[1] = 0x2e << 2;		/* DSCP */
	ip[8] = 3;			/* TTL */
	ip[10] ^= 0x5a;			/* header checksum */
	ip[IBSW_IP4_HLEN + 6] = 0x12;	/* UDP checksum */
	KUNIT_EXPECT_EQ(test, ibsw_roce_icrc(ip, false, bth, tlen), icrc);
	bth[tlen - 1] ^= 1;		/* the MAD's last byte */
	KUNIT_EXPECT_NE(test, ibsw_roce_icrc(ip, false, bth, tlen), icrc);
	bth[tlen - 1] ^= 1;
	ip[19] ^= 1;			/* the destination address */
	KUNIT_EXPECT_NE(test, ibsw_roce_icrc(ip, false, bth, tlen), icrc);
}

static struct kunit_case ibsw_mad_roce_test_cases[] = {
	KUNIT_CASE_PARAM(ibsw_mad_roce_put_test, kt_roce_gen_params),
	KUNIT_CASE(ibsw_roce_icrc_masks_test),
	{}
};

static struct kunit_suite ibsw_mad_roce_test_suite = {
	.name = "ibsw_mad_roce",
	.test_cases = ibsw_mad_roce_test_cases,
};

kunit_test_suite(ibsw_mad_roce_test_suite);

MODULE_DESCRIPTION("KUnit tests for ibsw's GMPs in RoCEv2");
MODULE_LICENSE("GPL");
