// SPDX-License-Identifier: GPL-2.0
/*
 * RoCEv2 packet parsing and in-place congestion marking.
 *
 * Everything reads through skb_header_pointer(), so frames whose headers
 * sit in page fragments parse without being linearized; only marking
 * pulls (and unclones) the bytes it writes.
 */

#include <kunit/visibility.h>
#include <linux/if_ether.h>
#include <linux/if_vlan.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/skbuff.h>
#include <linux/udp.h>
#include <net/checksum.h>
#include <net/dsfield.h>
#include <net/inet_ecn.h>
#include <net/ip.h>
#include <net/ipv6.h>

#include "compat.h"
#include "pkt.h"

static const char * const ibsw_pkt_err_names[] = {
	[IBSW_PKT_OK]			= "ok",
	[IBSW_PKT_ERR_TRUNC_ETH]	= "trunc_eth",
	[IBSW_PKT_ERR_TRUNC_VLAN]	= "trunc_vlan",
	[IBSW_PKT_ERR_VLAN_STACKED]	= "vlan_stacked",
	[IBSW_PKT_ERR_NOT_IP]		= "not_ip",
	[IBSW_PKT_ERR_TRUNC_IP]		= "trunc_ip",
	[IBSW_PKT_ERR_IP_VERSION]	= "ip_version",
	[IBSW_PKT_ERR_IP4_IHL]		= "ip4_ihl",
	[IBSW_PKT_ERR_IP4_OPTIONS]	= "ip4_options",
	[IBSW_PKT_ERR_IP_LEN]		= "ip_len",
	[IBSW_PKT_ERR_IP4_FRAG]		= "ip4_frag",
	[IBSW_PKT_ERR_IP6_EXTHDR]	= "ip6_exthdr",
	[IBSW_PKT_ERR_NOT_UDP]		= "not_udp",
	[IBSW_PKT_ERR_TRUNC_UDP]	= "trunc_udp",
	[IBSW_PKT_ERR_NOT_ROCE]		= "not_roce",
	[IBSW_PKT_ERR_UDP_LEN]		= "udp_len",
	[IBSW_PKT_ERR_TRUNC_BTH]	= "trunc_bth",
	[IBSW_PKT_ERR_BTH_TVER]		= "bth_tver",
	[IBSW_PKT_ERR_BTH_PAD]		= "bth_pad",
};

static_assert(ARRAY_SIZE(ibsw_pkt_err_names) == IBSW_PKT_NR_ERR);

/**
 * ibsw_pkt_err_name() - short name of a parse result, for counters and logs
 * @err: result of ibsw_pkt_parse()
 *
 * Return: a lowercase identifier such as "trunc_ip", or "unknown".
 */
const char *ibsw_pkt_err_name(enum ibsw_pkt_err err)
{
	if ((unsigned int)err >= IBSW_PKT_NR_ERR)
		return "unknown";
	return ibsw_pkt_err_names[err];
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_pkt_err_name);

/**
 * ibsw_pkt_opcode_class() - classify a BTH opcode
 * @opcode: BTH OpCode
 *
 * Only the reliable transports (RC, RD, XRC) have responses and ACKs.
 *
 * Return: the class of @opcode.
 */
enum ibsw_pkt_class ibsw_pkt_opcode_class(u8 opcode)
{
	u8 op = opcode & ~IBSW_OP_TRANSPORT_MASK;

	switch (opcode & IBSW_OP_TRANSPORT_MASK) {
	case IBSW_OP_RC:
	case IBSW_OP_RD:
	case IBSW_OP_XRC:
		if (op >= IBSW_OP_READ_RESP_FIRST && op <= IBSW_OP_READ_RESP_ONLY)
			return IBSW_PKT_RESPONSE;
		if (op == IBSW_OP_ACK || op == IBSW_OP_ATOMIC_ACK)
			return IBSW_PKT_ACK;
		return IBSW_PKT_REQUEST;
	case IBSW_OP_UC:
	case IBSW_OP_UD:
		return IBSW_PKT_REQUEST;
	case IBSW_OP_CNP:
		if (opcode == IBSW_OP_CNP_IB || opcode == IBSW_OP_CNP_ROCE)
			return IBSW_PKT_CNP;
		return IBSW_PKT_OTHER;
	default:
		return IBSW_PKT_OTHER;
	}
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_pkt_opcode_class);

/* @len bytes at @off from the Ethernet header, or NULL past the end. */
static __always_inline const void *
ibsw_pkt_read(const struct sk_buff *skb, unsigned int off, unsigned int len,
	      void *buf)
{
	return skb_header_pointer(skb, skb_mac_offset(skb) + off, len, buf);
}

static enum ibsw_pkt_err ibsw_pkt_parse_eth(const struct sk_buff *skb,
					    struct ibsw_pkt *pkt)
{
	const struct vlan_hdr *vh;
	const struct ethhdr *eh;
	struct vlan_hdr _vh;
	struct ethhdr _eh;
	__be16 proto;

	eh = ibsw_pkt_read(skb, 0, sizeof(_eh), &_eh);
	if (!eh)
		return IBSW_PKT_ERR_TRUNC_ETH;
	proto = eh->h_proto;
	pkt->l3_off = ETH_HLEN;
	pkt->vlan_proto = 0;
	pkt->vlan_tci = 0;

	/*
	 * rxe on a VLAN device sends one in-band tag unless the port offloads
	 * it; deeper stacks are not ours to look into.
	 */
	if (eth_type_vlan(proto)) {
		vh = ibsw_pkt_read(skb, ETH_HLEN, sizeof(_vh), &_vh);
		if (!vh)
			return IBSW_PKT_ERR_TRUNC_VLAN;
		pkt->vlan_proto = proto;
		pkt->vlan_tci = ntohs(vh->h_vlan_TCI);
		proto = vh->h_vlan_encapsulated_proto;
		pkt->l3_off += VLAN_HLEN;
		if (eth_type_vlan(proto))
			return IBSW_PKT_ERR_VLAN_STACKED;
	}

	if (proto != htons(ETH_P_IP) && proto != htons(ETH_P_IPV6))
		return IBSW_PKT_ERR_NOT_IP;
	pkt->l3_proto = proto;
	return IBSW_PKT_OK;
}

/**
 * ibsw_pkt_dscp() - the DSCP of a frame, read ahead of its parse
 * @skb: the frame, its MAC header set
 *
 * For a host port's ndo_select_queue, which picks the TX queue of the
 * packet's SL before the qdisc: it reads the Ethernet type, one VLAN tag
 * and the IP header's DS field, and leaves checking the packet to
 * ibsw_pkt_parse() in ndo_start_xmit.
 *
 * Return: the DSCP, or -1 if the frame is not IPv4 or IPv6 (or is cut
 * short before the DS field).
 */
int ibsw_pkt_dscp(const struct sk_buff *skb)
{
	struct ibsw_pkt pkt;
	const u8 *ds;
	u8 _ds[2];

	if (ibsw_pkt_parse_eth(skb, &pkt))
		return -1;
	ds = ibsw_pkt_read(skb, pkt.l3_off, sizeof(_ds), _ds);
	if (!ds)
		return -1;
	if (pkt.l3_proto == htons(ETH_P_IP))
		return ds[1] >> 2;
	/* IPv6: version, then the traffic class across the nibbles */
	return ((ds[0] & 0x0f) << 2) | (ds[1] >> 6);
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_pkt_dscp);

/* On success, *plen is the IP payload length. */
static enum ibsw_pkt_err ibsw_pkt_parse_ip4(const struct sk_buff *skb,
					    unsigned int flen,
					    struct ibsw_pkt *pkt,
					    unsigned int *plen)
{
	const struct iphdr *iph;
	unsigned int tot_len;
	struct iphdr _iph;

	iph = ibsw_pkt_read(skb, pkt->l3_off, sizeof(_iph), &_iph);
	if (!iph)
		return IBSW_PKT_ERR_TRUNC_IP;
	if (iph->version != 4)
		return IBSW_PKT_ERR_IP_VERSION;
	if (iph->ihl < 5)
		return IBSW_PKT_ERR_IP4_IHL;
	if (iph->ihl > 5)
		return IBSW_PKT_ERR_IP4_OPTIONS;

	/* Ethernet padding may follow the datagram, so only an upper bound */
	tot_len = ntohs(iph->tot_len);
	if (tot_len < sizeof(*iph))
		return IBSW_PKT_ERR_IP_LEN;
	if (tot_len > flen - pkt->l3_off)
		return IBSW_PKT_ERR_TRUNC_IP;
	if (ip_is_fragment(iph))
		return IBSW_PKT_ERR_IP4_FRAG;
	if (iph->protocol != IPPROTO_UDP)
		return IBSW_PKT_ERR_NOT_UDP;

	pkt->dscp = iph->tos >> 2;
	pkt->ecn = iph->tos & INET_ECN_MASK;
	ipv6_addr_set_v4mapped(iph->saddr, &pkt->saddr);
	ipv6_addr_set_v4mapped(iph->daddr, &pkt->daddr);
	pkt->l4_off = pkt->l3_off + sizeof(*iph);
	*plen = tot_len - sizeof(*iph);
	return IBSW_PKT_OK;
}

static bool ibsw_ipv6_ext_hdr(u8 nexthdr)
{
	switch (nexthdr) {
	case NEXTHDR_HOP:
	case NEXTHDR_ROUTING:
	case NEXTHDR_FRAGMENT:
	case NEXTHDR_AUTH:
	case NEXTHDR_DEST:
	case NEXTHDR_MOBILITY:
		return true;
	default:
		return false;
	}
}

static enum ibsw_pkt_err ibsw_pkt_parse_ip6(const struct sk_buff *skb,
					    unsigned int flen,
					    struct ibsw_pkt *pkt,
					    unsigned int *plen)
{
	const struct ipv6hdr *ip6h;
	struct ipv6hdr _ip6h;
	u8 dsfield;

	ip6h = ibsw_pkt_read(skb, pkt->l3_off, sizeof(_ip6h), &_ip6h);
	if (!ip6h)
		return IBSW_PKT_ERR_TRUNC_IP;
	if (ip6h->version != 6)
		return IBSW_PKT_ERR_IP_VERSION;
	*plen = ntohs(ip6h->payload_len);
	if (*plen > flen - pkt->l3_off - sizeof(*ip6h))
		return IBSW_PKT_ERR_TRUNC_IP;

	/*
	 * rxe sends no extension headers and its ICRC check assumes UDP
	 * right after the fixed header, so walking a chain buys nothing.
	 */
	if (ip6h->nexthdr != IPPROTO_UDP)
		return ibsw_ipv6_ext_hdr(ip6h->nexthdr) ?
		       IBSW_PKT_ERR_IP6_EXTHDR : IBSW_PKT_ERR_NOT_UDP;

	dsfield = ipv6_get_dsfield(ip6h);
	pkt->dscp = dsfield >> 2;
	pkt->ecn = dsfield & INET_ECN_MASK;
	pkt->saddr = ip6h->saddr;
	pkt->daddr = ip6h->daddr;
	pkt->l4_off = pkt->l3_off + sizeof(*ip6h);
	return IBSW_PKT_OK;
}

static enum ibsw_pkt_err ibsw_pkt_parse_udp(const struct sk_buff *skb,
					    unsigned int plen,
					    struct ibsw_pkt *pkt)
{
	const struct udphdr *uh;
	struct udphdr _uh;

	if (plen < sizeof(*uh))
		return IBSW_PKT_ERR_TRUNC_UDP;
	uh = ibsw_pkt_read(skb, pkt->l4_off, sizeof(_uh), &_uh);
	if (!uh)
		return IBSW_PKT_ERR_TRUNC_UDP;
	if (uh->dest != htons(IBSW_ROCE_UDP_PORT))
		return IBSW_PKT_ERR_NOT_ROCE;
	/* The ICRC sits at the end of the UDP payload: its length must hold */
	if (ntohs(uh->len) != plen)
		return IBSW_PKT_ERR_UDP_LEN;

	pkt->sport = uh->source;
	pkt->dport = uh->dest;
	pkt->bth_off = pkt->l4_off + sizeof(*uh);
	pkt->ib_len = plen - sizeof(*uh);
	return IBSW_PKT_OK;
}

static enum ibsw_pkt_err ibsw_pkt_parse_bth(const struct sk_buff *skb,
					    struct ibsw_pkt *pkt)
{
	const struct ibsw_bth *bth;
	struct ibsw_bth _bth;
	unsigned int room;
	u32 qpn, apsn;

	if (pkt->ib_len < IBSW_BTH_LEN + IBSW_ICRC_LEN)
		return IBSW_PKT_ERR_TRUNC_BTH;
	bth = ibsw_pkt_read(skb, pkt->bth_off, sizeof(_bth), &_bth);
	if (!bth)
		return IBSW_PKT_ERR_TRUNC_BTH;

	pkt->tver = bth->flags & IBSW_BTH_TVER_MASK;
	if (pkt->tver)
		return IBSW_PKT_ERR_BTH_TVER;
	pkt->pad = (bth->flags & IBSW_BTH_PAD_MASK) >> IBSW_BTH_PAD_SHIFT;
	room = pkt->ib_len - IBSW_BTH_LEN - IBSW_ICRC_LEN;
	if (pkt->pad > room)
		return IBSW_PKT_ERR_BTH_PAD;

	qpn = be32_to_cpu(bth->qpn);
	apsn = be32_to_cpu(bth->apsn);
	pkt->payload_len = room - pkt->pad;
	pkt->icrc_off = pkt->bth_off + pkt->ib_len - IBSW_ICRC_LEN;
	pkt->opcode = bth->opcode;
	pkt->se = bth->flags & IBSW_BTH_SE;
	pkt->mig = bth->flags & IBSW_BTH_MIG;
	pkt->pkey = be16_to_cpu(bth->pkey);
	pkt->fecn = qpn & ((u32)IBSW_BTH_FECN << 24);
	pkt->becn = qpn & ((u32)IBSW_BTH_BECN << 24);
	pkt->dqpn = qpn & IBSW_BTH_QPN_MASK;
	pkt->ackreq = apsn & IBSW_BTH_ACKREQ;
	pkt->psn = apsn & IBSW_BTH_PSN_MASK;
	pkt->cls = ibsw_pkt_opcode_class(pkt->opcode);
	return IBSW_PKT_OK;
}

/**
 * ibsw_pkt_parse() - parse a RoCEv2 frame
 * @skb: frame; skb_mac_header() must point at its Ethernet header, as it
 *	does in ndo_start_xmit (where it equals skb->data) and in an
 *	rx_handler
 * @pkt: filled in on success; contents undefined on error
 *
 * Headers may be in page fragments; @skb is not modified. The ICRC is
 * not checked: that is the receiving HCA's job, and a switch must not pay
 * a CRC per hop. The IPv4 header checksum is not checked either.
 *
 * Return: %IBSW_PKT_OK, or why the frame is not a valid RoCEv2 packet
 * (see ibsw_pkt_err_foreign()).
 */
enum ibsw_pkt_err ibsw_pkt_parse(const struct sk_buff *skb,
				 struct ibsw_pkt *pkt)
{
	int mac_off = skb_mac_offset(skb);
	enum ibsw_pkt_err err;
	unsigned int plen;
	unsigned int flen;

	if (unlikely(mac_off > (int)skb->len))
		return IBSW_PKT_ERR_TRUNC_ETH;
	flen = skb->len - mac_off;

	err = ibsw_pkt_parse_eth(skb, pkt);
	if (err)
		return err;
	if (pkt->l3_proto == htons(ETH_P_IP))
		err = ibsw_pkt_parse_ip4(skb, flen, pkt, &plen);
	else
		err = ibsw_pkt_parse_ip6(skb, flen, pkt, &plen);
	if (err)
		return err;
	err = ibsw_pkt_parse_udp(skb, plen, pkt);
	if (err)
		return err;
	return ibsw_pkt_parse_bth(skb, pkt);
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_pkt_parse);

static int ibsw_pkt_mark(struct sk_buff *skb, unsigned int l4_off,
			 unsigned int bth_off, u8 bit)
{
	unsigned int mark_off = bth_off + IBSW_BTH_MARK_BYTE;
	struct udphdr *uh;
	__be16 old, new;
	u8 *p;
	int err;

	/*
	 * Pulls the headers up to the 16-bit word the mark starts into the
	 * head and unclones it: the checksum update below reads the word.
	 */
	err = skb_ensure_writable(skb, skb_mac_offset(skb) + mark_off + 2);
	if (err)
		return err;

	p = skb_mac_header(skb) + mark_off;
	if (*p & bit)
		return 0;

	/*
	 * The ICRC skips this byte, but a UDP checksum, if the sender used
	 * one, does not. The byte starts a 16-bit word: the BTH begins at
	 * an even offset from the UDP header.
	 */
	uh = (struct udphdr *)(skb_mac_header(skb) + l4_off);
	old = get_unaligned((__be16 *)p);
	*p |= bit;
	new = get_unaligned((__be16 *)p);
	if (uh->check) {
		inet_proto_csum_replace2(&uh->check, skb, old, new, false);
		if (!uh->check)
			uh->check = CSUM_MANGLED_0;
	} else if (skb->ip_summed == CHECKSUM_COMPLETE) {
		skb->csum = csum_add(csum_sub(skb->csum, (__force __wsum)old),
				     (__force __wsum)new);
	}
	return 0;
}

/**
 * ibsw_pkt_set_fecn() - set BTH FECN in place
 * @skb: frame @pkt was parsed from; may be cloned or non-linear
 * @pkt: result of ibsw_pkt_parse(); @pkt->fecn is updated
 *
 * The ICRC stays valid: it masks BTH byte 4. A non-zero UDP checksum is
 * updated. Safe in atomic context.
 *
 * Return: 0, or -ENOMEM if the headers could not be made writable.
 */
int ibsw_pkt_set_fecn(struct sk_buff *skb, struct ibsw_pkt *pkt)
{
	int err = ibsw_pkt_mark(skb, pkt->l4_off, pkt->bth_off, IBSW_BTH_FECN);

	if (!err)
		pkt->fecn = true;
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_pkt_set_fecn);

/**
 * ibsw_pkt_set_becn() - set BTH BECN in place
 * @skb: frame @pkt was parsed from; may be cloned or non-linear
 * @pkt: result of ibsw_pkt_parse(); @pkt->becn is updated
 *
 * As ibsw_pkt_set_fecn().
 *
 * Return: 0, or -ENOMEM if the headers could not be made writable.
 */
int ibsw_pkt_set_becn(struct sk_buff *skb, struct ibsw_pkt *pkt)
{
	int err = ibsw_pkt_mark(skb, pkt->l4_off, pkt->bth_off, IBSW_BTH_BECN);

	if (!err)
		pkt->becn = true;
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_pkt_set_becn);

/**
 * ibsw_pkt_set_fecn_at() - set BTH FECN of a packet parsed earlier
 * @skb: the frame, unchanged since ibsw_pkt_parse() but for marking
 * @l4_off: its struct ibsw_pkt's @l4_off
 * @bth_off: its @bth_off
 *
 * As ibsw_pkt_set_fecn(), for a switch that kept only the offsets.
 *
 * Return: 0, or -ENOMEM if the headers could not be made writable.
 */
int ibsw_pkt_set_fecn_at(struct sk_buff *skb, unsigned int l4_off,
			 unsigned int bth_off)
{
	return ibsw_pkt_mark(skb, l4_off, bth_off, IBSW_BTH_FECN);
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_pkt_set_fecn_at);
