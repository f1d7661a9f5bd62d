/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Management packets as they cross the emulated links: a MAD behind the
 * IBA local headers of a UD datagram, LRH, BTH and DETH (IBA vol 1, 5.2
 * and 9.2-9.3), then the ICRC and VCRC. SMPs travel on VL15, GMPs on the
 * data VL of their SL. Pure: building and reading the headers.
 */
#ifndef _IBSW_MAD_PKT_H
#define _IBSW_MAD_PKT_H

#include <linux/types.h>
#include <rdma/ib_mad.h>

#define IBSW_LRH_LEN		8
#define IBSW_BTH_LEN		12
#define IBSW_DETH_LEN		8
#define IBSW_ICRC_LEN		4
#define IBSW_VCRC_LEN		2
/* Offset of the MAD in the packet, and the packet's lengths */
#define IBSW_MAD_OFF		(IBSW_LRH_LEN + IBSW_BTH_LEN + IBSW_DETH_LEN)
#define IBSW_MAD_PKT_LEN	(IBSW_MAD_OFF + IB_MGMT_MAD_SIZE + IBSW_ICRC_LEN)
#define IBSW_MAD_WIRE_LEN	(IBSW_MAD_PKT_LEN + IBSW_VCRC_LEN)

/* LRH LNH: IBA local, next header BTH */
#define IBSW_LRH_LNH_IBA_LOCAL	2
/* BTH OpCode of a UD SEND Only */
#define IBSW_BTH_UD_SEND_ONLY	0x64

/**
 * struct ibsw_mad_addr - what the headers of a management packet say
 * @vl: LRH VL (15 for an SMP)
 * @sl: LRH SL
 * @dlid: LRH DLID (0xffff, permissive, for a directed-route SMP)
 * @slid: LRH SLID
 * @pkey: BTH P_Key
 * @dqp: BTH DestQP (0 for an SMP, 1 for a GMP to the GSI)
 * @qkey: DETH Q_Key
 * @sqp: DETH SrcQP
 */
struct ibsw_mad_addr {
	u8	vl;
	u8	sl;
	u16	dlid;
	u16	slid;
	u16	pkey;
	u32	dqp;
	u32	qkey;
	u32	sqp;
};

void ibsw_mad_hdrs_put(u8 *p, const struct ibsw_mad_addr *a);
int ibsw_mad_hdrs_get(const u8 *p, unsigned int len, struct ibsw_mad_addr *a);
int ibsw_mad_roce_get(const u8 *bth, unsigned int len, struct ibsw_mad_addr *a);

#endif /* _IBSW_MAD_PKT_H */
