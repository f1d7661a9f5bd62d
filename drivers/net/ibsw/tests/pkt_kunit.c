// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the ibsw RoCEv2 packet helpers (pkt.c).
 *
 * Frames are built here byte by byte and carry an ICRC computed the way
 * rxe computes it (rxe_icrc.c), so the parser is checked against the wire
 * format rather than against itself. Each frame is also fed in several
 * skb shapes: linear, headers in page fragments, and as an rx_handler sees
 * it (skb->data past the Ethernet header).
 */

#include <kunit/skbuff.h>
#include <kunit/test.h>
#include <linux/crc32.h>
#include <linux/if_ether.h>
#include <linux/if_vlan.h>
#include <linux/in.h>
#include <linux/ipv6.h>
#include <linux/mm.h>
#include <linux/skbuff.h>
#include <linux/udp.h>
#include <linux/unaligned.h>
#include <net/checksum.h>
#include <net/ip6_checksum.h>

#include "../pkt.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/*
 * Wire constants are restated here rather than taken from pkt.h, so a
 * wrong value there fails the tests instead of moving both sides.
 */
#define KT_ROCE_PORT	4791
#define KT_BTH_LEN	12
#define KT_ICRC_LEN	4
#define KT_BTH_BYTE4	4	/* FECN, BECN, Resv6a */
#define KT_FECN		0x80
#define KT_BECN		0x40
#define KT_OP_CNP_IB	0x80
#define KT_OP_CNP_ROCE	0x81

#define KT_MAX_FRAME	512
/* crc32_le(~0, 8 bytes of 0xff): the CRC of a fully masked LRH */
#define KT_ICRC_SEED	0xdebb20e3

static const u8 kt_dmac[ETH_ALEN] = { 0x02, 0, 0, 0, 0, 0x02 };
static const u8 kt_smac[ETH_ALEN] = { 0x02, 0, 0, 0, 0, 0x01 };
static const u8 kt_saddr4[4] = { 192, 0, 2, 1 };
static const u8 kt_daddr4[4] = { 198, 51, 100, 2 };
static const u8 kt_saddr6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 };
static const u8 kt_daddr6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 2 };

/* A frame to build; every field is written as given. */
struct kt_frame {
	bool	ipv6;
	u16	vlan_proto;	/* 0: untagged */
	u16	vlan_tci;
	u8	dscp;
	u8	ecn;
	u16	sport;
	bool	udp_csum;	/* a real UDP checksum instead of rxe's 0 */
	u8	opcode;
	bool	se;
	bool	mig;
	u8	pad;
	u16	pkey;
	bool	fecn;
	bool	becn;
	u32	dqpn;
	bool	ackreq;
	u32	psn;
	u16	data_len;	/* bytes between BTH and pad */
	u16	trailer;	/* Ethernet padding after the ICRC */
};

/* Where kt_build() put the headers, from the start of the frame */
struct kt_layout {
	bool		ipv6;
	unsigned int	l3;
	unsigned int	l4;
	unsigned int	bth;
	unsigned int	icrc;
	unsigned int	len;
};

static u8 kt_data_byte(unsigned int i)
{
	return i * 7 + 3;
}

/*
 * The ICRC as rxe computes it: CRC-32 over the IP, UDP and BTH headers with
 * the fields that may change in flight set to ones, then over the rest of
 * the IB packet up to the ICRC, complemented; the trailer is little-endian.
 */
static u32 kt_icrc(const u8 *frame, const struct kt_layout *lo)
{
	u8 ph[sizeof(struct ipv6hdr) + sizeof(struct udphdr) + KT_BTH_LEN];
	unsigned int hlen = lo->bth + KT_BTH_LEN - lo->l3;
	u8 *uh = ph + lo->l4 - lo->l3;
	u8 *bth = uh + sizeof(struct udphdr);
	u32 crc;

	memcpy(ph, frame + lo->l3, hlen);
	if (!lo->ipv6) {
		ph[1] = 0xff;			/* TOS */
		ph[8] = 0xff;			/* TTL */
		ph[10] = 0xff;			/* header checksum */
		ph[11] = 0xff;
	} else {
		ph[0] |= 0x0f;			/* traffic class */
		ph[1] = 0xff;			/* and flow label */
		ph[2] = 0xff;
		ph[3] = 0xff;
		ph[7] = 0xff;			/* hop limit */
	}
	uh[6] = 0xff;				/* UDP checksum */
	uh[7] = 0xff;
	bth[KT_BTH_BYTE4] = 0xff;		/* FECN, BECN, Resv6a */

	crc = crc32_le(KT_ICRC_SEED, ph, hlen);
	crc = crc32_le(crc, frame + lo->bth + KT_BTH_LEN,
		       lo->icrc - lo->bth - KT_BTH_LEN);
	return ~crc;
}

static bool kt_icrc_ok(const u8 *frame, const struct kt_layout *lo)
{
	return get_unaligned_le32(frame + lo->icrc) == kt_icrc(frame, lo);
}

/* Folded UDP checksum over the frame as it is: 0 when the field is right */
static __sum16 kt_udp_csum(const u8 *frame, const struct kt_layout *lo)
{
	unsigned int ulen = lo->icrc + KT_ICRC_LEN - lo->l4;
	__wsum sum = csum_partial(frame + lo->l4, ulen, 0);
	struct in6_addr s6, d6;

	if (!lo->ipv6)
		return csum_tcpudp_magic(get_unaligned((__be32 *)(frame + lo->l3 + 12)),
					 get_unaligned((__be32 *)(frame + lo->l3 + 16)),
					 ulen, IPPROTO_UDP, sum);
	memcpy(&s6, frame + lo->l3 + 8, sizeof(s6));
	memcpy(&d6, frame + lo->l3 + 24, sizeof(d6));
	return csum_ipv6_magic(&s6, &d6, ulen, IPPROTO_UDP, sum);
}

static void kt_build(const struct kt_frame *f, u8 *frame, struct kt_layout *lo)
{
	unsigned int ib_len = KT_BTH_LEN + f->data_len + f->pad + KT_ICRC_LEN;
	unsigned int ulen = sizeof(struct udphdr) + ib_len;
	u8 tos = f->dscp << 2 | f->ecn;
	unsigned int i;
	u8 *p;

	memset(frame, 0, KT_MAX_FRAME);
	lo->ipv6 = f->ipv6;
	memcpy(frame, kt_dmac, ETH_ALEN);
	memcpy(frame + ETH_ALEN, kt_smac, ETH_ALEN);
	lo->l3 = ETH_HLEN;
	if (f->vlan_proto) {
		put_unaligned_be16(f->vlan_proto, frame + 12);
		put_unaligned_be16(f->vlan_tci, frame + 14);
		lo->l3 += VLAN_HLEN;
	}
	put_unaligned_be16(f->ipv6 ? ETH_P_IPV6 : ETH_P_IP, frame + lo->l3 - 2);

	p = frame + lo->l3;
	if (!f->ipv6) {
		p[0] = 0x45;
		p[1] = tos;
		put_unaligned_be16(sizeof(struct iphdr) + ulen, p + 2);
		put_unaligned_be16(0x1234, p + 4);		/* ID */
		put_unaligned_be16(0x4000, p + 6);		/* DF */
		p[8] = 64;
		p[9] = IPPROTO_UDP;
		memcpy(p + 12, kt_saddr4, 4);
		memcpy(p + 16, kt_daddr4, 4);
		put_unaligned((__force u16)ip_fast_csum(p, 5), (u16 *)(p + 10));
		lo->l4 = lo->l3 + sizeof(struct iphdr);
	} else {
		p[0] = 0x60 | tos >> 4;
		p[1] = (tos & 0x0f) << 4 | 0x0a;		/* flow label 0xabcde */
		p[2] = 0xbc;
		p[3] = 0xde;
		put_unaligned_be16(ulen, p + 4);
		p[6] = IPPROTO_UDP;
		p[7] = 64;
		memcpy(p + 8, kt_saddr6, 16);
		memcpy(p + 24, kt_daddr6, 16);
		lo->l4 = lo->l3 + sizeof(struct ipv6hdr);
	}

	p = frame + lo->l4;
	put_unaligned_be16(f->sport, p);
	put_unaligned_be16(KT_ROCE_PORT, p + 2);
	put_unaligned_be16(ulen, p + 4);

	lo->bth = lo->l4 + sizeof(struct udphdr);
	p = frame + lo->bth;
	p[0] = f->opcode;
	p[1] = (f->se ? 0x80 : 0) | (f->mig ? 0x40 : 0) | f->pad << 4;
	put_unaligned_be16(f->pkey, p + 2);
	put_unaligned_be32((f->fecn ? BIT(31) : 0) | (f->becn ? BIT(30) : 0) |
			   f->dqpn, p + 4);
	put_unaligned_be32((f->ackreq ? BIT(31) : 0) | f->psn, p + 8);
	for (i = 0; i < f->data_len; i++)
		p[KT_BTH_LEN + i] = kt_data_byte(i);

	lo->icrc = lo->bth + ib_len - KT_ICRC_LEN;
	lo->len = lo->icrc + KT_ICRC_LEN + f->trailer;
	memset(frame + lo->icrc + KT_ICRC_LEN, 0xee, f->trailer);
	put_unaligned_le32(kt_icrc(frame, lo), frame + lo->icrc);

	/* Last: the UDP checksum covers the ICRC */
	if (f->udp_csum) {
		__sum16 check = kt_udp_csum(frame, lo);

		put_unaligned((__force u16)(check ?: CSUM_MANGLED_0),
			      (u16 *)(frame + lo->l4 + 6));
	}
}

enum kt_shape {
	KT_LINEAR,
	KT_HEAD_ETH,
	KT_SCATTERED,
	KT_RX,
	KT_RX_FRAGS,
	KT_NR_SHAPES
};

static const char * const kt_shape_names[KT_NR_SHAPES] = {
	[KT_LINEAR]	= "linear",
	[KT_HEAD_ETH]	= "ethernet header in head, rest in a fragment",
	[KT_SCATTERED]	= "head ends in IP, fragments split BTH and ICRC",
	[KT_RX]		= "rx: data at the IP header",
	[KT_RX_FRAGS]	= "rx: data at the IP header, all in fragments",
};

static void kt_add_frag(struct kunit *test, struct sk_buff *skb,
			const u8 *src, unsigned int len)
{
	struct page *page;

	if (!len)
		return;
	page = alloc_page(GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, page);
	/* An odd offset: nothing may assume aligned fragments */
	memcpy(page_address(page) + 1, src, len);
	skb_add_rx_frag(skb, skb_shinfo(skb)->nr_frags, page, 1, len, PAGE_SIZE);
}

/* @len bytes of @frame as an skb of @shape, mac header at the frame start */
static struct sk_buff *kt_skb(struct kunit *test, const u8 *frame,
			      unsigned int len, const struct kt_layout *lo,
			      enum kt_shape shape)
{
	unsigned int cuts[2] = { len, len };
	bool rx = shape == KT_RX || shape == KT_RX_FRAGS;
	struct sk_buff *skb;
	unsigned int head;

	switch (shape) {
	case KT_HEAD_ETH:
	case KT_RX_FRAGS:
		head = ETH_HLEN;
		break;
	case KT_SCATTERED:
		head = lo->l3 + 6;
		cuts[0] = lo->bth + 5;
		cuts[1] = lo->icrc + 2;
		break;
	default:
		head = len;
		break;
	}
	head = min(head, len);
	cuts[0] = clamp(cuts[0], head, len);
	cuts[1] = clamp(cuts[1], cuts[0], len);

	skb = kunit_zalloc_skb(test, max(head, 1U), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb_put_data(skb, frame, head);
	skb_reset_mac_header(skb);
	kt_add_frag(test, skb, frame + head, cuts[0] - head);
	kt_add_frag(test, skb, frame + cuts[0], cuts[1] - cuts[0]);
	kt_add_frag(test, skb, frame + cuts[1], len - cuts[1]);

	/* As after eth_type_trans(); a runt never gets that far */
	if (rx && len >= ETH_HLEN)
		skb_pull(skb, ETH_HLEN);
	return skb;
}

/* The frame from the mac header on, linearized into @out */
static unsigned int kt_skb_bytes(struct kunit *test, const struct sk_buff *skb,
				 u8 *out)
{
	int off = skb_mac_offset(skb);
	unsigned int len = skb->len - off;

	KUNIT_ASSERT_LE(test, len, KT_MAX_FRAME);
	KUNIT_ASSERT_EQ(test, skb_copy_bits(skb, off, out, len), 0);
	return len;
}

/* Base frames; cases below change a few fields */
#define KT_RC_SEND_ONLY	0x04
#define KT_BASE							\
	.sport = 0xc123, .pkey = 0xffff, .dqpn = 0x11, .ackreq = true,	\
	.psn = 0x123
#define KT_SEND(len)	.opcode = KT_RC_SEND_ONLY, .data_len = (len)

static const struct kt_frame kt_v4 = { KT_BASE, KT_SEND(16) };
static const struct kt_frame kt_v6 = { KT_BASE, KT_SEND(16), .ipv6 = true };
static const struct kt_frame kt_v4_small = { KT_BASE, KT_SEND(2) };
static const struct kt_frame kt_v4_empty = { KT_BASE, KT_SEND(0) };

static const struct kt_frame kt_v4_vlan = {
	KT_BASE, KT_SEND(16), .vlan_proto = ETH_P_8021Q, .vlan_tci = 0x2064,
};

/* ---- parsing valid frames ---- */

struct kt_parse_case {
	const char		*desc;
	struct kt_frame		f;
	enum ibsw_pkt_class	cls;
};

static const struct kt_parse_case kt_parse_cases[] = {
	{
		.desc = "ipv4 rc send only",
		.f = { KT_BASE, KT_SEND(16), .dscp = 26, .ecn = 2 },
		.cls = IBSW_PKT_REQUEST,
	}, {
		.desc = "ipv6 rc rdma write first with pad",
		.f = { .ipv6 = true, .dscp = 46, .ecn = 1, .sport = 0xffff,
		       .opcode = 0x06, .pad = 3, .pkey = 0x8001, .dqpn = 0xabcdef,
		       .psn = 0xfedcba, .data_len = 16 + 61 },
		.cls = IBSW_PKT_REQUEST,
	}, {
		.desc = "ipv4 802.1Q ud send only with deth",
		.f = { .vlan_proto = ETH_P_8021Q, .vlan_tci = 0xe005,
		       .sport = 0xd000, .opcode = 0x64, .pkey = 0xffff,
		       .dqpn = 1, .psn = 7, .data_len = 8 + 256 },
		.cls = IBSW_PKT_REQUEST,
	}, {
		.desc = "ipv6 802.1ad uc send only",
		.f = { .ipv6 = true, .vlan_proto = ETH_P_8021AD,
		       .vlan_tci = 0x0fff, .sport = 1, .opcode = 0x24,
		       .pkey = 0x7fff, .dqpn = 0x20, .psn = 1, .data_len = 32 },
		.cls = IBSW_PKT_REQUEST,
	}, {
		.desc = "ipv4 rc ack with aeth",
		.f = { .sport = 0xc001, .opcode = 0x11, .pkey = 0xffff,
		       .dqpn = 0x12, .psn = 0x44, .data_len = 4 },
		.cls = IBSW_PKT_ACK,
	}, {
		.desc = "ipv6 rc read response only",
		.f = { .ipv6 = true, .sport = 0xc002, .opcode = 0x10,
		       .pkey = 0xffff, .dqpn = 0x13, .psn = 0x45, .pad = 1,
		       .data_len = 4 + 99 },
		.cls = IBSW_PKT_RESPONSE,
	}, {
		.desc = "ipv4 roce cnp with becn",
		.f = { .sport = 0xc003, .opcode = KT_OP_CNP_ROCE,
		       .pkey = 0xffff, .becn = true, .dqpn = 0x14,
		       .data_len = 16 },
		.cls = IBSW_PKT_CNP,
	}, {
		.desc = "ipv6 ib cnp opcode",
		.f = { .ipv6 = true, .sport = 0xc004, .opcode = KT_OP_CNP_IB,
		       .pkey = 0xffff, .becn = true, .dqpn = 0x15,
		       .data_len = 16 },
		.cls = IBSW_PKT_CNP,
	}, {
		.desc = "ipv4 all bth flags and maximum fields",
		.f = { .dscp = 63, .ecn = 3, .sport = 0xfffe, .opcode = 0x05,
		       .se = true, .mig = true, .pad = 2, .pkey = 0xffff,
		       .fecn = true, .becn = true, .dqpn = 0xffffff,
		       .ackreq = true, .psn = 0xffffff, .data_len = 30 },
		.cls = IBSW_PKT_REQUEST,
	}, {
		.desc = "ipv6 udp checksum set",
		.f = { KT_BASE, KT_SEND(16), .ipv6 = true, .udp_csum = true },
		.cls = IBSW_PKT_REQUEST,
	}, {
		.desc = "ipv4 no payload, pad 0",
		.f = { KT_BASE, KT_SEND(0) },
		.cls = IBSW_PKT_REQUEST,
	}, {
		.desc = "ipv4 pad equal to payload",
		.f = { KT_BASE, KT_SEND(0), .pad = 3 },
		.cls = IBSW_PKT_REQUEST,
	}, {
		.desc = "ipv4 runt padded to 60 bytes and more",
		.f = { KT_BASE, KT_SEND(0), .trailer = 40 },
		.cls = IBSW_PKT_REQUEST,
	}, {
		.desc = "ipv4 xrc send only",
		.f = { KT_BASE, .opcode = 0xa4, .data_len = 4 + 16 },
		.cls = IBSW_PKT_REQUEST,
	}, {
		.desc = "ipv4 manufacturer opcode",
		.f = { KT_BASE, .opcode = 0xe0, .data_len = 16 },
		.cls = IBSW_PKT_OTHER,
	},
};

KUNIT_ARRAY_PARAM_DESC(kt_parse, kt_parse_cases, desc);

static void kt_expect_pkt(struct kunit *test, const struct kt_frame *f,
			  const struct kt_layout *lo, const struct ibsw_pkt *pkt)
{
	u8 saddr[16] = { [10] = 0xff, [11] = 0xff };
	u8 daddr[16] = { [10] = 0xff, [11] = 0xff };

	if (f->ipv6) {
		memcpy(saddr, kt_saddr6, 16);
		memcpy(daddr, kt_daddr6, 16);
	} else {
		memcpy(saddr + 12, kt_saddr4, 4);
		memcpy(daddr + 12, kt_daddr4, 4);
	}

	KUNIT_EXPECT_EQ(test, pkt->l3_off, lo->l3);
	KUNIT_EXPECT_EQ(test, pkt->l4_off, lo->l4);
	KUNIT_EXPECT_EQ(test, pkt->bth_off, lo->bth);
	KUNIT_EXPECT_EQ(test, pkt->icrc_off, lo->icrc);
	KUNIT_EXPECT_EQ(test, ntohs(pkt->l3_proto),
			f->ipv6 ? ETH_P_IPV6 : ETH_P_IP);
	KUNIT_EXPECT_EQ(test, ntohs(pkt->vlan_proto), f->vlan_proto);
	KUNIT_EXPECT_EQ(test, pkt->vlan_tci, f->vlan_tci);
	KUNIT_EXPECT_EQ(test, pkt->dscp, f->dscp);
	KUNIT_EXPECT_EQ(test, pkt->ecn, f->ecn);
	KUNIT_EXPECT_MEMEQ(test, &pkt->saddr, saddr, 16);
	KUNIT_EXPECT_MEMEQ(test, &pkt->daddr, daddr, 16);
	KUNIT_EXPECT_EQ(test, ntohs(pkt->sport), f->sport);
	KUNIT_EXPECT_EQ(test, ntohs(pkt->dport), KT_ROCE_PORT);
	KUNIT_EXPECT_EQ(test, pkt->ib_len, KT_BTH_LEN + f->data_len +
			f->pad + KT_ICRC_LEN);
	KUNIT_EXPECT_EQ(test, pkt->payload_len, f->data_len);
	KUNIT_EXPECT_EQ(test, pkt->opcode, f->opcode);
	KUNIT_EXPECT_EQ(test, pkt->se, f->se);
	KUNIT_EXPECT_EQ(test, pkt->mig, f->mig);
	KUNIT_EXPECT_EQ(test, pkt->pad, f->pad);
	KUNIT_EXPECT_EQ(test, pkt->tver, 0);
	KUNIT_EXPECT_EQ(test, pkt->pkey, f->pkey);
	KUNIT_EXPECT_EQ(test, pkt->fecn, f->fecn);
	KUNIT_EXPECT_EQ(test, pkt->becn, f->becn);
	KUNIT_EXPECT_EQ(test, pkt->dqpn, f->dqpn);
	KUNIT_EXPECT_EQ(test, pkt->ackreq, f->ackreq);
	KUNIT_EXPECT_EQ(test, pkt->psn, f->psn);
}

static void ibsw_pkt_parse_test(struct kunit *test)
{
	const struct kt_parse_case *c = test->param_value;
	struct kt_layout lo;
	struct ibsw_pkt pkt;
	enum ibsw_pkt_err err;
	enum kt_shape shape;
	u8 *frame;

	frame = kunit_kzalloc(test, KT_MAX_FRAME, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, frame);
	kt_build(&c->f, frame, &lo);
	KUNIT_ASSERT_TRUE(test, kt_icrc_ok(frame, &lo));

	for (shape = 0; shape < KT_NR_SHAPES; shape++) {
		struct sk_buff *skb = kt_skb(test, frame, lo.len, &lo, shape);

		memset(&pkt, 0x5a, sizeof(pkt));
		err = ibsw_pkt_parse(skb, &pkt);
		KUNIT_EXPECT_EQ_MSG(test, err, IBSW_PKT_OK, "%s: %s",
				    kt_shape_names[shape], ibsw_pkt_err_name(err));
		if (err == IBSW_PKT_OK) {
			kt_expect_pkt(test, &c->f, &lo, &pkt);
			KUNIT_EXPECT_EQ(test, pkt.cls, c->cls);
		}
		kunit_kfree_skb(test, skb);
	}
}

/* ---- rejecting malformed and foreign frames ---- */

enum kt_base { KT_ETH, KT_L3, KT_L4, KT_BTH, KT_END };

enum kt_op { KT_NOP, KT_SET8, KT_SET16, KT_ADD16, KT_CUT };

/* One change to a built frame, at a byte offset from a header */
struct kt_edit {
	enum kt_op	op;
	enum kt_base	base;
	int		off;
	int		val;	/* new value, or delta for KT_ADD16 */
	u8		mask;	/* bits KT_SET8 replaces */
};

#define CUT(b, o)		{ KT_CUT, b, o }
#define SET8(b, o, m, v)	{ KT_SET8, b, o, v, m }
#define SET16(b, o, v)		{ KT_SET16, b, o, v }
#define ADD16(b, o, d)		{ KT_ADD16, b, o, d }

struct kt_reject_case {
	const char		*desc;
	const struct kt_frame	*f;
	struct kt_edit		edit[2];
	enum ibsw_pkt_err	err;
	bool			foreign;
};

static const struct kt_reject_case kt_reject_cases[] = {
	{ "empty frame", &kt_v4, { CUT(KT_ETH, 0) },
	  IBSW_PKT_ERR_TRUNC_ETH },
	{ "ethernet header cut", &kt_v4, { CUT(KT_ETH, ETH_HLEN - 1) },
	  IBSW_PKT_ERR_TRUNC_ETH },
	{ "vlan tag cut", &kt_v4_vlan, { CUT(KT_ETH, ETH_HLEN + 2) },
	  IBSW_PKT_ERR_TRUNC_VLAN },
	{ "stacked vlan tags", &kt_v4_vlan, { SET16(KT_L3, -2, ETH_P_8021Q) },
	  IBSW_PKT_ERR_VLAN_STACKED, true },
	{ "arp", &kt_v4, { SET16(KT_L3, -2, ETH_P_ARP) },
	  IBSW_PKT_ERR_NOT_IP, true },
	{ "arp behind vlan tag", &kt_v4_vlan, { SET16(KT_L3, -2, ETH_P_ARP) },
	  IBSW_PKT_ERR_NOT_IP, true },
	{ "ipv4 header cut", &kt_v4, { CUT(KT_L3, 19) },
	  IBSW_PKT_ERR_TRUNC_IP },
	{ "ipv6 header cut", &kt_v6, { CUT(KT_L3, 39) },
	  IBSW_PKT_ERR_TRUNC_IP },
	{ "ipv4 ethertype, version 6", &kt_v4, { SET8(KT_L3, 0, 0xf0, 0x60) },
	  IBSW_PKT_ERR_IP_VERSION },
	{ "ipv6 ethertype, version 4", &kt_v6, { SET8(KT_L3, 0, 0xf0, 0x40) },
	  IBSW_PKT_ERR_IP_VERSION },
	{ "ipv4 ihl 4", &kt_v4, { SET8(KT_L3, 0, 0x0f, 4) },
	  IBSW_PKT_ERR_IP4_IHL },
	{ "ipv4 ihl 0", &kt_v4, { SET8(KT_L3, 0, 0x0f, 0) },
	  IBSW_PKT_ERR_IP4_IHL },
	{ "ipv4 options", &kt_v4, { SET8(KT_L3, 0, 0x0f, 6) },
	  IBSW_PKT_ERR_IP4_OPTIONS, true },
	{ "ipv4 total length below header", &kt_v4, { SET16(KT_L3, 2, 19) },
	  IBSW_PKT_ERR_IP_LEN },
	{ "ipv4 total length beyond frame", &kt_v4, { ADD16(KT_L3, 2, 1) },
	  IBSW_PKT_ERR_TRUNC_IP },
	{ "ipv4 frame cut in icrc", &kt_v4, { CUT(KT_END, -1) },
	  IBSW_PKT_ERR_TRUNC_IP },
	{ "ipv6 payload length beyond frame", &kt_v6, { ADD16(KT_L3, 4, 1) },
	  IBSW_PKT_ERR_TRUNC_IP },
	{ "ipv6 frame cut in payload", &kt_v6, { CUT(KT_BTH, 14) },
	  IBSW_PKT_ERR_TRUNC_IP },
	{ "ipv4 more fragments", &kt_v4, { SET16(KT_L3, 6, 0x2000) },
	  IBSW_PKT_ERR_IP4_FRAG, true },
	{ "ipv4 fragment offset", &kt_v4, { SET16(KT_L3, 6, 0x0001) },
	  IBSW_PKT_ERR_IP4_FRAG, true },
	{ "ipv4 tcp", &kt_v4, { SET8(KT_L3, 9, 0xff, IPPROTO_TCP) },
	  IBSW_PKT_ERR_NOT_UDP, true },
	{ "ipv6 icmpv6", &kt_v6, { SET8(KT_L3, 6, 0xff, IPPROTO_ICMPV6) },
	  IBSW_PKT_ERR_NOT_UDP, true },
	{ "ipv6 no next header", &kt_v6, { SET8(KT_L3, 6, 0xff, 59) },
	  IBSW_PKT_ERR_NOT_UDP, true },
	{ "ipv6 hop-by-hop", &kt_v6, { SET8(KT_L3, 6, 0xff, 0) },
	  IBSW_PKT_ERR_IP6_EXTHDR, true },
	{ "ipv6 fragment header", &kt_v6, { SET8(KT_L3, 6, 0xff, 44) },
	  IBSW_PKT_ERR_IP6_EXTHDR, true },
	{ "ipv6 routing header", &kt_v6, { SET8(KT_L3, 6, 0xff, 43) },
	  IBSW_PKT_ERR_IP6_EXTHDR, true },
	{ "ipv4 payload shorter than udp", &kt_v4, { SET16(KT_L3, 2, 20 + 7) },
	  IBSW_PKT_ERR_TRUNC_UDP },
	{ "ipv6 payload shorter than udp", &kt_v6, { SET16(KT_L3, 4, 7) },
	  IBSW_PKT_ERR_TRUNC_UDP },
	{ "udp dport 4792", &kt_v4, { SET16(KT_L4, 2, 4792) },
	  IBSW_PKT_ERR_NOT_ROCE, true },
	{ "roce port as source only", &kt_v6,
	  { SET16(KT_L4, 0, KT_ROCE_PORT), SET16(KT_L4, 2, 53) },
	  IBSW_PKT_ERR_NOT_ROCE, true },
	{ "udp length short of ip payload", &kt_v4, { ADD16(KT_L4, 4, -1) },
	  IBSW_PKT_ERR_UDP_LEN },
	{ "udp length beyond ip payload", &kt_v4, { ADD16(KT_L4, 4, 1) },
	  IBSW_PKT_ERR_UDP_LEN },
	{ "ipv6 udp length zero", &kt_v6, { SET16(KT_L4, 4, 0) },
	  IBSW_PKT_ERR_UDP_LEN },
	{ "ipv4 udp payload of 15 bytes", &kt_v4_empty,
	  { SET16(KT_L3, 2, 20 + 8 + 15), SET16(KT_L4, 4, 8 + 15) },
	  IBSW_PKT_ERR_TRUNC_BTH },
	{ "ipv6 udp payload of bth only", &kt_v6,
	  { SET16(KT_L3, 4, 8 + 12), SET16(KT_L4, 4, 8 + 12) },
	  IBSW_PKT_ERR_TRUNC_BTH },
	{ "ipv4 empty udp payload", &kt_v4,
	  { SET16(KT_L3, 2, 20 + 8), SET16(KT_L4, 4, 8) },
	  IBSW_PKT_ERR_TRUNC_BTH },
	{ "bth tver 1", &kt_v4, { SET8(KT_BTH, 1, 0x0f, 1) },
	  IBSW_PKT_ERR_BTH_TVER },
	{ "bth tver 15", &kt_v6, { SET8(KT_BTH, 1, 0x0f, 15) },
	  IBSW_PKT_ERR_BTH_TVER },
	{ "pad 3 over 2 bytes", &kt_v4_small, { SET8(KT_BTH, 1, 0x30, 0x30) },
	  IBSW_PKT_ERR_BTH_PAD },
	{ "pad 1 over no payload", &kt_v4_empty, { SET8(KT_BTH, 1, 0x30, 0x10) },
	  IBSW_PKT_ERR_BTH_PAD },
};

KUNIT_ARRAY_PARAM_DESC(kt_reject, kt_reject_cases, desc);

static unsigned int kt_base_off(const struct kt_layout *lo, enum kt_base base)
{
	switch (base) {
	case KT_L3:
		return lo->l3;
	case KT_L4:
		return lo->l4;
	case KT_BTH:
		return lo->bth;
	case KT_END:
		return lo->len;
	default:
		return 0;
	}
}

static void kt_apply(u8 *frame, struct kt_layout *lo, const struct kt_edit *e)
{
	unsigned int at = kt_base_off(lo, e->base) + e->off;

	switch (e->op) {
	case KT_SET8:
		frame[at] = (frame[at] & ~e->mask) | (e->val & e->mask);
		break;
	case KT_SET16:
		put_unaligned_be16(e->val, frame + at);
		break;
	case KT_ADD16:
		put_unaligned_be16(get_unaligned_be16(frame + at) + e->val,
				   frame + at);
		break;
	case KT_CUT:
		lo->len = at;
		break;
	case KT_NOP:
		break;
	}
}

static void ibsw_pkt_reject_test(struct kunit *test)
{
	const struct kt_reject_case *c = test->param_value;
	struct kt_layout lo;
	struct ibsw_pkt pkt;
	enum ibsw_pkt_err err;
	enum kt_shape shape;
	unsigned int i;
	u8 *frame;

	frame = kunit_kzalloc(test, KT_MAX_FRAME, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, frame);
	kt_build(c->f, frame, &lo);
	for (i = 0; i < ARRAY_SIZE(c->edit); i++)
		kt_apply(frame, &lo, &c->edit[i]);

	KUNIT_EXPECT_EQ(test, ibsw_pkt_err_foreign(c->err), c->foreign);
	for (shape = 0; shape < KT_NR_SHAPES; shape++) {
		struct sk_buff *skb = kt_skb(test, frame, lo.len, &lo, shape);

		err = ibsw_pkt_parse(skb, &pkt);
		KUNIT_EXPECT_EQ_MSG(test, err, c->err, "%s: got %s, want %s",
				    kt_shape_names[shape], ibsw_pkt_err_name(err),
				    ibsw_pkt_err_name(c->err));
		kunit_kfree_skb(test, skb);
	}
}

/* ---- FECN/BECN marking ---- */

static const struct kt_frame kt_v4_csum = {
	KT_BASE, KT_SEND(16), .udp_csum = true,
};

static const struct kt_frame kt_v4_fecn = {
	KT_BASE, KT_SEND(16), .fecn = true,
};

static const struct kt_frame kt_v6_csum = {
	KT_BASE, KT_SEND(301), .ipv6 = true, .udp_csum = true,
};

static const struct kt_frame kt_v6_cnp = {
	.ipv6 = true, .opcode = KT_OP_CNP_ROCE, .pkey = 0xffff, .becn = true,
	.dqpn = 0x99, .data_len = 16,
};

struct kt_mark_case {
	const char		*desc;
	const struct kt_frame	*f;
	u8			bit;
	enum kt_shape		shape;
	bool			clone;
	bool			csum_complete;
};

static const struct kt_mark_case kt_mark_cases[] = {
	{ "ipv4 fecn", &kt_v4, KT_FECN, KT_LINEAR },
	{ "ipv4 becn", &kt_v4, KT_BECN, KT_LINEAR },
	{ "ipv6 fecn, bth in fragments", &kt_v6, KT_FECN, KT_SCATTERED },
	{ "ipv6 becn, all in fragments", &kt_v6, KT_BECN, KT_HEAD_ETH },
	{ "vlan fecn, rx shape", &kt_v4_vlan, KT_FECN, KT_RX_FRAGS },
	{ "ipv4 fecn on a clone", &kt_v4, KT_FECN, KT_LINEAR, true },
	{ "ipv6 becn on a clone in fragments", &kt_v6, KT_BECN,
	  KT_SCATTERED, true },
	{ "ipv4 fecn with udp checksum", &kt_v4_csum, KT_FECN, KT_LINEAR },
	{ "ipv6 becn with udp checksum, fragments", &kt_v6_csum, KT_BECN,
	  KT_SCATTERED },
	{ "ipv4 fecn, checksum complete", &kt_v4, KT_FECN, KT_RX,
	  false, true },
	{ "ipv6 fecn with udp checksum, checksum complete", &kt_v6_csum,
	  KT_FECN, KT_RX_FRAGS, false, true },
	{ "fecn already set", &kt_v4_fecn, KT_FECN, KT_LINEAR },
	{ "fecn on a cnp with becn", &kt_v6_cnp, KT_FECN, KT_LINEAR },
};

KUNIT_ARRAY_PARAM_DESC(kt_mark, kt_mark_cases, desc);

static void ibsw_pkt_mark_test(struct kunit *test)
{
	const struct kt_mark_case *c = test->param_value;
	bool fecn = c->bit == KT_FECN;
	struct ibsw_pkt pkt, again;
	struct sk_buff *skb, *orig;
	struct kt_layout lo;
	unsigned int i, len;
	u8 *frame, *out;
	__sum16 rcsum;
	int err;

	frame = kunit_kzalloc(test, KT_MAX_FRAME, GFP_KERNEL);
	out = kunit_kzalloc(test, KT_MAX_FRAME, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, frame);
	KUNIT_ASSERT_NOT_NULL(test, out);
	kt_build(c->f, frame, &lo);

	skb = kt_skb(test, frame, lo.len, &lo, c->shape);
	orig = skb;
	if (c->clone) {
		skb = skb_clone(orig, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, skb);
		err = kunit_add_action_or_reset(test, kunit_action_kfree_skb,
						skb);
		KUNIT_ASSERT_EQ(test, err, 0);
	}
	if (c->csum_complete) {
		skb->ip_summed = CHECKSUM_COMPLETE;
		skb->csum = skb_checksum(skb, 0, skb->len, 0);
	}

	KUNIT_ASSERT_EQ(test, ibsw_pkt_parse(skb, &pkt), IBSW_PKT_OK);
	if (fecn)
		KUNIT_ASSERT_EQ(test, ibsw_pkt_set_fecn(skb, &pkt), 0);
	else
		KUNIT_ASSERT_EQ(test, ibsw_pkt_set_becn(skb, &pkt), 0);
	KUNIT_EXPECT_EQ(test, pkt.fecn, c->f->fecn || fecn);
	KUNIT_EXPECT_EQ(test, pkt.becn, c->f->becn || !fecn);
	/* The 16-bit word the checksum update reads is in the head */
	KUNIT_EXPECT_GE(test, skb_headlen(skb),
			skb_mac_offset(skb) + lo.bth + KT_BTH_BYTE4 + 2);

	/* Exactly the bit changed, and the UDP checksum if there is one */
	len = kt_skb_bytes(test, skb, out);
	KUNIT_ASSERT_EQ(test, len, lo.len);
	for (i = 0; i < len; i++) {
		u8 want = frame[i];

		if (i == lo.bth + KT_BTH_BYTE4)
			want |= c->bit;
		if (c->f->udp_csum && (i == lo.l4 + 6 || i == lo.l4 + 7))
			continue;
		KUNIT_EXPECT_EQ_MSG(test, out[i], want, "byte %u", i);
	}
	KUNIT_EXPECT_TRUE_MSG(test, kt_icrc_ok(out, &lo), "ICRC broken");
	if (c->f->udp_csum) {
		KUNIT_EXPECT_NE(test, get_unaligned((u16 *)(out + lo.l4 + 6)), 0);
		KUNIT_EXPECT_EQ_MSG(test, (__force u16)kt_udp_csum(out, &lo), 0,
				    "UDP checksum broken");
	}
	if (c->csum_complete) {
		rcsum = csum_fold(skb_checksum(skb, 0, skb->len, 0));
		KUNIT_EXPECT_EQ(test, (__force u16)csum_fold(skb->csum),
				(__force u16)rcsum);
	}

	KUNIT_ASSERT_EQ(test, ibsw_pkt_parse(skb, &again), IBSW_PKT_OK);
	KUNIT_EXPECT_EQ(test, again.fecn, pkt.fecn);
	KUNIT_EXPECT_EQ(test, again.becn, pkt.becn);
	KUNIT_EXPECT_EQ(test, again.dqpn, c->f->dqpn);
	KUNIT_EXPECT_EQ(test, again.opcode, c->f->opcode);

	/* The original of a clone is someone else's: it must not change */
	if (c->clone) {
		len = kt_skb_bytes(test, orig, out);
		KUNIT_EXPECT_MEMEQ(test, out, frame, lo.len);
	}
}

/* ---- every split of the head, on the skb and on a clone ---- */

struct kt_split_case {
	const char		*desc;
	const struct kt_frame	*f;
};

static const struct kt_split_case kt_split_cases[] = {
	{ "ipv4", &kt_v4 },
	{ "ipv6", &kt_v6 },
	{ "vlan", &kt_v4_vlan },
	{ "ipv4 with udp checksum", &kt_v4_csum },
	{ "ipv6 with udp checksum", &kt_v6_csum },
};

KUNIT_ARRAY_PARAM_DESC(kt_split, kt_split_cases, desc);

/* The first @head bytes of @frame in the head, the rest in one fragment */
static struct sk_buff *kt_skb_split(struct kunit *test, const u8 *frame,
				    unsigned int len, unsigned int head)
{
	struct sk_buff *skb;

	skb = kunit_zalloc_skb(test, max(head, 1U), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb_put_data(skb, frame, head);
	skb_reset_mac_header(skb);
	kt_add_frag(test, skb, frame + head, len - head);
	return skb;
}

/*
 * Parse and mark the frame with the head ending at every byte, the rest in
 * a fragment at an odd offset, on the skb itself (FECN) and on a clone
 * (BECN): the same parse as the linear frame's, the same bytes after
 * marking, and a clone's original untouched.
 */
static void ibsw_pkt_split_test(struct kunit *test)
{
	const struct kt_split_case *c = test->param_value;
	u8 *frame, *out, *marked[2];
	struct ibsw_pkt want, pkt;
	struct sk_buff *skb, *orig;
	unsigned int head, len;
	struct kt_layout lo;
	int clone, err;

	frame = kunit_kzalloc(test, KT_MAX_FRAME, GFP_KERNEL);
	out = kunit_kzalloc(test, KT_MAX_FRAME, GFP_KERNEL);
	marked[0] = kunit_kzalloc(test, KT_MAX_FRAME, GFP_KERNEL);
	marked[1] = kunit_kzalloc(test, KT_MAX_FRAME, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, frame);
	KUNIT_ASSERT_NOT_NULL(test, out);
	KUNIT_ASSERT_NOT_NULL(test, marked[0]);
	KUNIT_ASSERT_NOT_NULL(test, marked[1]);
	kt_build(c->f, frame, &lo);

	/* What the linear frame parses to and becomes, FECN and BECN */
	for (clone = 0; clone < 2; clone++) {
		skb = kt_skb(test, frame, lo.len, &lo, KT_LINEAR);
		KUNIT_ASSERT_EQ(test, ibsw_pkt_parse(skb, &want), IBSW_PKT_OK);
		if (clone)
			err = ibsw_pkt_set_becn(skb, &want);
		else
			err = ibsw_pkt_set_fecn(skb, &want);
		KUNIT_ASSERT_EQ(test, err, 0);
		KUNIT_ASSERT_EQ(test, kt_skb_bytes(test, skb, marked[clone]),
				lo.len);
	}
	skb = kt_skb(test, frame, lo.len, &lo, KT_LINEAR);
	memset(&want, 0, sizeof(want));
	KUNIT_ASSERT_EQ(test, ibsw_pkt_parse(skb, &want), IBSW_PKT_OK);

	for (head = 0; head <= lo.len; head++) {
		for (clone = 0; clone < 2; clone++) {
			skb = kt_skb_split(test, frame, lo.len, head);
			orig = skb;
			if (clone) {
				skb = skb_clone(orig, GFP_KERNEL);
				KUNIT_ASSERT_NOT_NULL(test, skb);
				err = kunit_add_action_or_reset(test, kunit_action_kfree_skb,
								skb);
				KUNIT_ASSERT_EQ(test, err, 0);
			}
			/* zeroed, so that padding compares equal */
			memset(&pkt, 0, sizeof(pkt));
			KUNIT_ASSERT_EQ_MSG(test, ibsw_pkt_parse(skb, &pkt),
					    IBSW_PKT_OK, "head %u", head);
			KUNIT_EXPECT_MEMEQ_MSG(test, &pkt, &want, sizeof(pkt),
					       "head %u", head);
			if (clone)
				err = ibsw_pkt_set_becn(skb, &pkt);
			else
				err = ibsw_pkt_set_fecn(skb, &pkt);
			KUNIT_ASSERT_EQ_MSG(test, err, 0, "head %u", head);
			len = kt_skb_bytes(test, skb, out);
			KUNIT_ASSERT_EQ(test, len, lo.len);
			KUNIT_EXPECT_EQ_MSG(test, memcmp(out, marked[clone], len),
					    0, "head %u, clone %d", head, clone);
			if (clone) {
				kt_skb_bytes(test, orig, out);
				KUNIT_EXPECT_EQ_MSG(test,
						    memcmp(out, frame, lo.len), 0,
						    "head %u: the original changed",
						    head);
			}
		}
	}
}

/* ---- the test's own ICRC ---- */

struct kt_icrc_case {
	const char		*desc;
	const struct kt_frame	*f;
	struct kt_edit		edit;	/* KT_SET8 with mask: bits to flip */
	bool			covered;
};

#define FLIP(b, o, m)	{ KT_SET8, b, o, 0, m }

/*
 * What the ICRC covers, checked both ways: a switch may rewrite masked
 * fields, and the checker must notice a change anywhere else, or a test
 * that relies on it proves nothing.
 */
static const struct kt_icrc_case kt_icrc_cases[] = {
	{ "ethernet dst not covered", &kt_v4, FLIP(KT_ETH, 0, 0xff), false },
	{ "ipv4 tos not covered", &kt_v4, FLIP(KT_L3, 1, 0xff), false },
	{ "ipv4 ttl not covered", &kt_v4, FLIP(KT_L3, 8, 0xff), false },
	{ "ipv4 checksum not covered", &kt_v4, FLIP(KT_L3, 10, 0xff), false },
	{ "ipv6 traffic class not covered", &kt_v6, FLIP(KT_L3, 0, 0x0f), false },
	{ "ipv6 flow label not covered", &kt_v6, FLIP(KT_L3, 3, 0xff), false },
	{ "ipv6 hop limit not covered", &kt_v6, FLIP(KT_L3, 7, 0xff), false },
	{ "udp checksum not covered", &kt_v4, FLIP(KT_L4, 7, 0x01), false },
	{ "fecn not covered", &kt_v4, FLIP(KT_BTH, 4, KT_FECN), false },
	{ "becn not covered", &kt_v6, FLIP(KT_BTH, 4, KT_BECN), false },
	{ "resv6a not covered", &kt_v4, FLIP(KT_BTH, 4, 0x3f), false },
	{ "ipv4 id covered", &kt_v4, FLIP(KT_L3, 5, 0x01), true },
	{ "ipv4 saddr covered", &kt_v4, FLIP(KT_L3, 15, 0x01), true },
	{ "ipv6 version covered", &kt_v6, FLIP(KT_L3, 0, 0x10), true },
	{ "ipv6 daddr covered", &kt_v6, FLIP(KT_L3, 39, 0x80), true },
	{ "udp sport covered", &kt_v4, FLIP(KT_L4, 1, 0x01), true },
	{ "bth opcode covered", &kt_v4, FLIP(KT_BTH, 0, 0x01), true },
	{ "bth tver covered", &kt_v6, FLIP(KT_BTH, 1, 0x01), true },
	{ "bth pkey covered", &kt_v4, FLIP(KT_BTH, 3, 0x01), true },
	{ "bth destqp covered", &kt_v4, FLIP(KT_BTH, 7, 0x01), true },
	{ "bth ackreq covered", &kt_v6, FLIP(KT_BTH, 8, 0x80), true },
	{ "bth psn covered", &kt_v4, FLIP(KT_BTH, 11, 0x01), true },
	{ "payload covered", &kt_v4, FLIP(KT_BTH, 12 + 15, 0x01), true },
};

KUNIT_ARRAY_PARAM_DESC(kt_icrc, kt_icrc_cases, desc);

static void ibsw_pkt_icrc_coverage_test(struct kunit *test)
{
	const struct kt_icrc_case *c = test->param_value;
	unsigned int at;
	struct kt_layout lo;
	u8 *frame;

	frame = kunit_kzalloc(test, KT_MAX_FRAME, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, frame);
	kt_build(c->f, frame, &lo);
	KUNIT_ASSERT_TRUE(test, kt_icrc_ok(frame, &lo));

	at = kt_base_off(&lo, c->edit.base) + c->edit.off;
	frame[at] ^= c->edit.mask;
	KUNIT_EXPECT_EQ(test, kt_icrc_ok(frame, &lo), !c->covered);
}

/*
 * Known answers, computed outside the kernel with Python's zlib.crc32 (the
 * standard CRC-32) over 8 bytes of 0xff, the masked headers and the rest of
 * the packet, so kt_icrc()'s seed, bit order and byte order are not only
 * checked against themselves.
 */
#define KT_KAT_V4	0x5c48a0d9	/* ipv4 rc send only, dscp 26, ecn 2, mig */
#define KT_KAT_V6	0x57bb8ec3	/* ipv6 rc send only, pad 2 */

static void ibsw_pkt_icrc_known_answer_test(struct kunit *test)
{
	static const u8 ff[8] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	const struct kt_frame v4 = {
		KT_BASE, KT_SEND(16), .dscp = 26, .ecn = 2, .mig = true,
	};
	const struct kt_frame v6 = {
		KT_BASE, KT_SEND(16), .ipv6 = true, .pad = 2,
	};
	struct kt_layout lo;
	u8 *frame;

	KUNIT_EXPECT_EQ(test, crc32_le(~0, ff, sizeof(ff)), KT_ICRC_SEED);

	frame = kunit_kzalloc(test, KT_MAX_FRAME, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, frame);
	kt_build(&v4, frame, &lo);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(frame + lo.icrc), KT_KAT_V4);
	kt_build(&v6, frame, &lo);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(frame + lo.icrc), KT_KAT_V6);
}

/* ---- small helpers ---- */

struct kt_class_case {
	u8			opcode;
	enum ibsw_pkt_class	cls;
};

static const struct kt_class_case kt_class_cases[] = {
	{ 0x00, IBSW_PKT_REQUEST },	/* RC SEND first */
	{ 0x0c, IBSW_PKT_REQUEST },	/* RC RDMA READ request */
	{ 0x0d, IBSW_PKT_RESPONSE },	/* RC RDMA READ response first */
	{ 0x10, IBSW_PKT_RESPONSE },	/* RC RDMA READ response only */
	{ 0x11, IBSW_PKT_ACK },		/* RC ACK */
	{ 0x12, IBSW_PKT_ACK },		/* RC ATOMIC ACK */
	{ 0x13, IBSW_PKT_REQUEST },	/* RC CMP_SWAP */
	{ 0x2d, IBSW_PKT_REQUEST },	/* UC has no responses */
	{ 0x4f, IBSW_PKT_RESPONSE },	/* RD RDMA READ response last */
	{ 0x51, IBSW_PKT_ACK },		/* RD ACK */
	{ 0x64, IBSW_PKT_REQUEST },	/* UD SEND only */
	{ 0x70, IBSW_PKT_REQUEST },	/* UD has no responses */
	{ 0x80, IBSW_PKT_CNP },		/* IB CNP */
	{ 0x81, IBSW_PKT_CNP },		/* RoCEv2 CNP */
	{ 0x82, IBSW_PKT_OTHER },
	{ 0xa4, IBSW_PKT_REQUEST },	/* XRC SEND only */
	{ 0xae, IBSW_PKT_RESPONSE },	/* XRC RDMA READ response middle */
	{ 0xb2, IBSW_PKT_ACK },		/* XRC ATOMIC ACK */
	{ 0xc0, IBSW_PKT_OTHER },	/* reserved transport */
	{ 0xe0, IBSW_PKT_OTHER },	/* manufacturer specific */
	{ 0xff, IBSW_PKT_OTHER },
};

static void kt_class_desc(const struct kt_class_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "opcode 0x%02x", c->opcode);
}

KUNIT_ARRAY_PARAM(kt_class, kt_class_cases, kt_class_desc);

static void ibsw_pkt_opcode_class_test(struct kunit *test)
{
	const struct kt_class_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, ibsw_pkt_opcode_class(c->opcode), c->cls);
}

static void ibsw_pkt_err_name_test(struct kunit *test)
{
	unsigned int i, j;

	KUNIT_EXPECT_STREQ(test, ibsw_pkt_err_name(IBSW_PKT_OK), "ok");
	KUNIT_EXPECT_STREQ(test, ibsw_pkt_err_name(IBSW_PKT_NR_ERR), "unknown");
	for (i = 0; i < IBSW_PKT_NR_ERR; i++) {
		const char *name = ibsw_pkt_err_name(i);

		KUNIT_ASSERT_NOT_NULL_MSG(test, name, "error %u has no name", i);
		for (j = 0; j < i; j++)
			KUNIT_EXPECT_STRNEQ(test, name, ibsw_pkt_err_name(j));
	}
}

/*
 * The DSCP read ahead for the TX queue: hand-written frame starts (MAC
 * addresses zero, the EtherType at byte 12), linear and with the IP
 * header in a fragment.
 */
struct kt_dscp_case {
	const char	*desc;
	unsigned int	len;
	u8		frame[24];
	int		dscp;
};

static const struct kt_dscp_case kt_dscp_cases[] = {
	{ "ipv4, tos 0xb8: 46", 16, { [12] = 0x08, 0x00, 0x45, 0xb8 }, 46 },
	{ "ipv4, tos 0x03 (ecn only): 0", 16,
	  { [12] = 0x08, 0x00, 0x45, 0x03 }, 0 },
	{ "ipv4 after an 802.1q tag, tos 0x28: 10", 20,
	  { [12] = 0x81, 0x00, 0x00, 0x05, 0x08, 0x00, 0x45, 0x28 }, 10 },
	{ "ipv6, traffic class 0xb8: 46", 16,
	  { [12] = 0x86, 0xdd, 0x6b, 0x80 }, 46 },
	{ "ipv6, traffic class 0x04: 1", 16,
	  { [12] = 0x86, 0xdd, 0x60, 0x40 }, 1 },
	{ "ipv6, traffic class 0xfc: 63", 16,
	  { [12] = 0x86, 0xdd, 0x6f, 0xc0 }, 63 },
	{ "arp", 16, { [12] = 0x08, 0x06, 0x00, 0x01 }, -1 },
	{ "ipv4 cut after its first byte", 15, { [12] = 0x08, 0x00, 0x45 },
	  -1 },
	{ "two vlan tags", 24,
	  { [12] = 0x88, 0xa8, 0x00, 0x05, 0x81, 0x00, 0x00, 0x06, 0x08,
	    0x00, 0x45, 0xb8 }, -1 },
	{ "runt", 10, { 0 }, -1 },
};

KUNIT_ARRAY_PARAM_DESC(kt_dscp, kt_dscp_cases, desc);

static void ibsw_pkt_dscp_test(struct kunit *test)
{
	const struct kt_dscp_case *c = test->param_value;
	struct kt_layout lo = {};

	KUNIT_EXPECT_EQ(test, ibsw_pkt_dscp(kt_skb(test, c->frame, c->len, &lo,
						   KT_LINEAR)), c->dscp);
	KUNIT_EXPECT_EQ(test, ibsw_pkt_dscp(kt_skb(test, c->frame, c->len, &lo,
						   KT_HEAD_ETH)), c->dscp);
}

static struct kunit_case ibsw_pkt_test_cases[] = {
	KUNIT_CASE_PARAM(ibsw_pkt_parse_test, kt_parse_gen_params),
	KUNIT_CASE_PARAM(ibsw_pkt_reject_test, kt_reject_gen_params),
	KUNIT_CASE_PARAM(ibsw_pkt_mark_test, kt_mark_gen_params),
	KUNIT_CASE_PARAM(ibsw_pkt_split_test, kt_split_gen_params),
	KUNIT_CASE_PARAM(ibsw_pkt_icrc_coverage_test, kt_icrc_gen_params),
	KUNIT_CASE(ibsw_pkt_icrc_known_answer_test),
	KUNIT_CASE_PARAM(ibsw_pkt_opcode_class_test, kt_class_gen_params),
	KUNIT_CASE(ibsw_pkt_err_name_test),
	KUNIT_CASE_PARAM(ibsw_pkt_dscp_test, kt_dscp_gen_params),
	{}
};

static struct kunit_suite ibsw_pkt_test_suite = {
	.name = "ibsw_pkt",
	.test_cases = ibsw_pkt_test_cases,
};

kunit_test_suite(ibsw_pkt_test_suite);

MODULE_DESCRIPTION("KUnit tests for the ibsw RoCEv2 packet helpers");
MODULE_LICENSE("GPL");
