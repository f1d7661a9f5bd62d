/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A management HCA's GMP as a host's rxe device takes it: the IBA local
 * headers (mad_pkt.h) give way to Ethernet, IP and UDP (RoCEv2, IBA
 * annex A17), and the ICRC is computed over the new headers as A17.4
 * masks them. Pure: building the frame.
 */
#ifndef _IBSW_MAD_ROCE_H
#define _IBSW_MAD_ROCE_H

#include <linux/in6.h>
#include <linux/types.h>

#include "mad_pkt.h"

#define IBSW_ETH_HLEN		14
#define IBSW_IP4_HLEN		20
#define IBSW_IP6_HLEN		40
#define IBSW_UDP_HLEN		8
/* BTH, DETH and the MAD: what the frame carries of the IB packet */
#define IBSW_MAD_TRANSPORT_LEN	(IBSW_BTH_LEN + IBSW_DETH_LEN + IB_MGMT_MAD_SIZE)
/* The longest frame, IPv6 */
#define IBSW_MAD_ROCE_MAX	(IBSW_ETH_HLEN + IBSW_IP6_HLEN + IBSW_UDP_HLEN + \
				 IBSW_MAD_TRANSPORT_LEN + IBSW_ICRC_LEN)

/**
 * struct ibsw_mad_roce - the addresses of the RoCEv2 frame
 * @dmac: the host port's Ethernet address
 * @smac: the sender's
 * @saddr: the sender's IP address (IPv4 as v4-mapped)
 * @daddr: the host's, of the same family
 * @dscp: DSCP of the packet's SL
 * @sport: UDP source port
 */
struct ibsw_mad_roce {
	u8		dmac[6];
	u8		smac[6];
	struct in6_addr	saddr;
	struct in6_addr	daddr;
	u8		dscp;
	u16		sport;
};

unsigned int ibsw_mad_roce_put(u8 *p, const struct ibsw_mad_roce *r,
			       const u8 *bth);
u32 ibsw_roce_icrc(const u8 *ip, bool ip6, const u8 *bth, unsigned int len);

#endif /* _IBSW_MAD_ROCE_H */
