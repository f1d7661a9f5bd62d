/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RoCEv2 packets as the ibsw switches see them.
 *
 * A port carries Ethernet frames; the ones the switch treats as IB packets
 * are RoCEv2, as rxe sends them:
 *
 *   Ethernet [802.1Q] | IPv4 (no options) or IPv6 (no extension headers)
 *   | UDP, dport 4791 | BTH | extended headers, payload, pad | ICRC
 *
 * The helpers here only use the skb API, no netdev state, so that KUnit
 * can test them on hand-built frames.
 */
#ifndef _IBSW_PKT_H
#define _IBSW_PKT_H

#include <linux/build_bug.h>
#include <linux/in6.h>
#include <linux/types.h>

struct sk_buff;

#define IBSW_ROCE_UDP_PORT	4791
#define IBSW_BTH_LEN		12
#define IBSW_ICRC_LEN		4

/**
 * struct ibsw_bth - Base Transport Header as on the wire (IBA vol 1, 9.2)
 * @opcode: transport (top 3 bits) and operation
 * @flags: SE, MigReq, PadCnt, TVer
 * @pkey: partition key
 * @qpn: FECN, BECN, Resv6a, DestQP
 * @apsn: AckReq, Resv7, PSN
 */
struct ibsw_bth {
	u8	opcode;
	u8	flags;
	__be16	pkey;
	__be32	qpn;
	__be32	apsn;
};

static_assert(sizeof(struct ibsw_bth) == IBSW_BTH_LEN);

#define IBSW_BTH_SE		0x80
#define IBSW_BTH_MIG		0x40
#define IBSW_BTH_PAD_MASK	0x30
#define IBSW_BTH_PAD_SHIFT	4
#define IBSW_BTH_TVER_MASK	0x0f

/*
 * FECN and BECN live in BTH byte 4, which the ICRC does not cover, so a
 * switch can set them without recomputing the ICRC.
 */
#define IBSW_BTH_MARK_BYTE	4
#define IBSW_BTH_FECN		0x80
#define IBSW_BTH_BECN		0x40
#define IBSW_BTH_QPN_MASK	0x00ffffff
#define IBSW_BTH_ACKREQ		0x80000000
#define IBSW_BTH_PSN_MASK	0x00ffffff

#define IBSW_OP_TRANSPORT_MASK	0xe0
#define IBSW_OP_RC		0x00
#define IBSW_OP_UC		0x20
#define IBSW_OP_RD		0x40
#define IBSW_OP_UD		0x60
#define IBSW_OP_CNP		0x80
#define IBSW_OP_XRC		0xa0
#define IBSW_OP_CNP_IB		0x80	/* IBA vol 1, A10.3.2 */
#define IBSW_OP_CNP_ROCE	0x81	/* RoCEv2, Annex A17 */

/* Operation bits (below the transport) of RC/RD/XRC responses */
#define IBSW_OP_READ_RESP_FIRST	0x0d
#define IBSW_OP_READ_RESP_ONLY	0x10
#define IBSW_OP_ACK		0x11
#define IBSW_OP_ATOMIC_ACK	0x12

/**
 * enum ibsw_pkt_class - what a BTH opcode is, for marking and counters
 * @IBSW_PKT_REQUEST: a request or UC/UD data packet
 * @IBSW_PKT_RESPONSE: RDMA READ response (carries data)
 * @IBSW_PKT_ACK: ACKNOWLEDGE or ATOMIC ACKNOWLEDGE
 * @IBSW_PKT_CNP: congestion notification packet, IB (0x80) or RoCEv2 (0x81)
 * @IBSW_PKT_OTHER: reserved or manufacturer-specific opcode
 */
enum ibsw_pkt_class {
	IBSW_PKT_REQUEST,
	IBSW_PKT_RESPONSE,
	IBSW_PKT_ACK,
	IBSW_PKT_CNP,
	IBSW_PKT_OTHER,
};

/**
 * enum ibsw_pkt_err - why ibsw_pkt_parse() did not return a RoCEv2 packet
 * @IBSW_PKT_OK: a RoCEv2 packet
 * @IBSW_PKT_ERR_TRUNC_ETH: frame shorter than an Ethernet header
 * @IBSW_PKT_ERR_TRUNC_VLAN: frame ends inside the 802.1Q tag
 * @IBSW_PKT_ERR_VLAN_STACKED: more than one VLAN tag (foreign)
 * @IBSW_PKT_ERR_NOT_IP: EtherType is neither IPv4 nor IPv6 (foreign)
 * @IBSW_PKT_ERR_TRUNC_IP: frame ends inside the IP header or before the
 *	end the IP length announces
 * @IBSW_PKT_ERR_IP_VERSION: IP version does not match the EtherType
 * @IBSW_PKT_ERR_IP4_IHL: IPv4 IHL below 5
 * @IBSW_PKT_ERR_IP4_OPTIONS: IPv4 options (foreign: rxe sends none and
 *	assumes none when it checks the ICRC; IGMP carries some)
 * @IBSW_PKT_ERR_IP_LEN: IPv4 total length shorter than its header
 * @IBSW_PKT_ERR_IP4_FRAG: IPv4 fragment (foreign: RoCEv2 is never
 *	fragmented, and a later fragment has no UDP header to look at)
 * @IBSW_PKT_ERR_IP6_EXTHDR: IPv6 extension header (foreign: rxe sends none
 *	and assumes UDP follows the fixed header; MLD uses hop-by-hop)
 * @IBSW_PKT_ERR_NOT_UDP: transport is not UDP (foreign)
 * @IBSW_PKT_ERR_TRUNC_UDP: IP payload shorter than a UDP header
 * @IBSW_PKT_ERR_NOT_ROCE: UDP destination port is not 4791 (foreign)
 * @IBSW_PKT_ERR_UDP_LEN: UDP length differs from the IP payload length
 * @IBSW_PKT_ERR_TRUNC_BTH: UDP payload shorter than BTH plus ICRC
 * @IBSW_PKT_ERR_BTH_TVER: BTH transport header version is not 0
 * @IBSW_PKT_ERR_BTH_PAD: pad count larger than the payload
 * @IBSW_PKT_NR_ERR: number of values, for counter tables
 *
 * Foreign frames are well-formed but not RoCEv2 packets (ARP and IPv6
 * neighbour discovery among them); the others are broken.
 */
enum ibsw_pkt_err {
	IBSW_PKT_OK,
	IBSW_PKT_ERR_TRUNC_ETH,
	IBSW_PKT_ERR_TRUNC_VLAN,
	IBSW_PKT_ERR_VLAN_STACKED,
	IBSW_PKT_ERR_NOT_IP,
	IBSW_PKT_ERR_TRUNC_IP,
	IBSW_PKT_ERR_IP_VERSION,
	IBSW_PKT_ERR_IP4_IHL,
	IBSW_PKT_ERR_IP4_OPTIONS,
	IBSW_PKT_ERR_IP_LEN,
	IBSW_PKT_ERR_IP4_FRAG,
	IBSW_PKT_ERR_IP6_EXTHDR,
	IBSW_PKT_ERR_NOT_UDP,
	IBSW_PKT_ERR_TRUNC_UDP,
	IBSW_PKT_ERR_NOT_ROCE,
	IBSW_PKT_ERR_UDP_LEN,
	IBSW_PKT_ERR_TRUNC_BTH,
	IBSW_PKT_ERR_BTH_TVER,
	IBSW_PKT_ERR_BTH_PAD,
	IBSW_PKT_NR_ERR
};

/**
 * struct ibsw_pkt - a parsed RoCEv2 packet
 * @l3_off: offset of the IP header from the start of the Ethernet header
 * @l4_off: offset of the UDP header, likewise
 * @bth_off: offset of the BTH, likewise
 * @icrc_off: offset of the ICRC, likewise; Ethernet padding may follow it
 * @l3_proto: htons(ETH_P_IP) or htons(ETH_P_IPV6)
 * @vlan_proto: EtherType of the in-band VLAN tag, or 0 if untagged
 * @vlan_tci: TCI of the in-band VLAN tag
 * @dscp: DSCP, the input for DSCP to SL mapping
 * @ecn: ECN field (INET_ECN_*)
 * @saddr: source address; IPv4 is mapped into ::ffff:0:0/96 as RoCEv2
 *	GIDs are
 * @daddr: destination address, likewise
 * @sport: UDP source port (flow entropy)
 * @dport: UDP destination port, always IBSW_ROCE_UDP_PORT
 * @ib_len: length of the IB packet, BTH to ICRC inclusive
 * @payload_len: bytes between the BTH and the pad: extended transport
 *	headers and data
 * @opcode: BTH OpCode
 * @pad: BTH PadCnt
 * @tver: BTH TVer, always 0
 * @se: BTH SE (solicited event)
 * @mig: BTH MigReq
 * @fecn: BTH FECN
 * @becn: BTH BECN
 * @ackreq: BTH AckReq
 * @pkey: BTH P_Key
 * @dqpn: BTH DestQP
 * @psn: BTH PSN
 * @cls: class of @opcode
 */
struct ibsw_pkt {
	unsigned int		l3_off;
	unsigned int		l4_off;
	unsigned int		bth_off;
	unsigned int		icrc_off;
	__be16			l3_proto;
	__be16			vlan_proto;
	u16			vlan_tci;
	u8			dscp;
	u8			ecn;
	struct in6_addr		saddr;
	struct in6_addr		daddr;
	__be16			sport;
	__be16			dport;
	u16			ib_len;
	u16			payload_len;
	u8			opcode;
	u8			pad;
	u8			tver;
	bool			se;
	bool			mig;
	bool			fecn;
	bool			becn;
	bool			ackreq;
	u16			pkey;
	u32			dqpn;
	u32			psn;
	enum ibsw_pkt_class	cls;
};

enum ibsw_pkt_err ibsw_pkt_parse(const struct sk_buff *skb,
				 struct ibsw_pkt *pkt);
int ibsw_pkt_dscp(const struct sk_buff *skb);
const char *ibsw_pkt_err_name(enum ibsw_pkt_err err);
enum ibsw_pkt_class ibsw_pkt_opcode_class(u8 opcode);
int ibsw_pkt_set_fecn(struct sk_buff *skb, struct ibsw_pkt *pkt);
int ibsw_pkt_set_becn(struct sk_buff *skb, struct ibsw_pkt *pkt);
int ibsw_pkt_set_fecn_at(struct sk_buff *skb, unsigned int l4_off,
			 unsigned int bth_off);

/**
 * ibsw_pkt_err_foreign() - is this a well-formed frame that is not RoCEv2?
 * @err: result of ibsw_pkt_parse()
 *
 * Return: true for frames a switch should treat as plain Ethernet rather
 * than drop as malformed.
 */
static inline bool ibsw_pkt_err_foreign(enum ibsw_pkt_err err)
{
	switch (err) {
	case IBSW_PKT_ERR_VLAN_STACKED:
	case IBSW_PKT_ERR_NOT_IP:
	case IBSW_PKT_ERR_IP4_OPTIONS:
	case IBSW_PKT_ERR_IP4_FRAG:
	case IBSW_PKT_ERR_IP6_EXTHDR:
	case IBSW_PKT_ERR_NOT_UDP:
	case IBSW_PKT_ERR_NOT_ROCE:
		return true;
	default:
		return false;
	}
}

#endif /* _IBSW_PKT_H */
