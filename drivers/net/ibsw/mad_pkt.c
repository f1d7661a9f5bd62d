// SPDX-License-Identifier: GPL-2.0
/*
 * The IBA local headers of a management packet (mad_pkt.h).
 */

#include <kunit/visibility.h>
#include <linux/errno.h>
#include <linux/module.h>

#include "compat.h"
#include "mad_pkt.h"

/**
 * ibsw_mad_hdrs_put() - write the LRH, BTH and DETH of a management packet
 * @p: IBSW_MAD_OFF bytes
 * @a: the addresses
 *
 * PktLen counts the 4-byte words from the LRH to the ICRC; the PSN is 0
 * (UD does not check it).
 */
void ibsw_mad_hdrs_put(u8 *p, const struct ibsw_mad_addr *a)
{
	/* LRH: VL, LVer 0; SL, LNH; DLID; PktLen; SLID */
	p[0] = (a->vl & 0xf) << 4;
	p[1] = (a->sl & 0xf) << 4 | IBSW_LRH_LNH_IBA_LOCAL;
	put_unaligned_be16(a->dlid, p + 2);
	put_unaligned_be16(IBSW_MAD_PKT_LEN / 4, p + 4);
	put_unaligned_be16(a->slid, p + 6);
	/* BTH: OpCode; SE 0, M 0, PadCnt 0, TVer 0; P_Key; FECN/BECN 0 */
	p += IBSW_LRH_LEN;
	p[0] = IBSW_BTH_UD_SEND_ONLY;
	p[1] = 0;
	put_unaligned_be16(a->pkey, p + 2);
	put_unaligned_be32(a->dqp & 0xffffff, p + 4);
	put_unaligned_be32(0, p + 8);
	/* DETH: Q_Key; SrcQP */
	p += IBSW_BTH_LEN;
	put_unaligned_be32(a->qkey, p);
	put_unaligned_be32(a->sqp & 0xffffff, p + 4);
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_mad_hdrs_put);

/* The BTH and DETH of a UD SEND Only of one MAD, @len bytes to the ICRC */
static int ibsw_mad_bth_get(const u8 *p, unsigned int len,
			    struct ibsw_mad_addr *a)
{
	if (len != IBSW_MAD_PKT_LEN - IBSW_LRH_LEN ||
	    p[0] != IBSW_BTH_UD_SEND_ONLY || (p[1] & 0x3f))
		return -EINVAL;
	a->pkey = get_unaligned_be16(p + 2);
	a->dqp = get_unaligned_be32(p + 4) & 0xffffff;
	p += IBSW_BTH_LEN;
	a->qkey = get_unaligned_be32(p);
	a->sqp = get_unaligned_be32(p + 4) & 0xffffff;
	return 0;
}

/**
 * ibsw_mad_hdrs_get() - read the headers of a management packet
 * @p: the packet
 * @len: its length, to the ICRC
 * @a: the addresses read
 *
 * Return: 0; -EINVAL if it is not a UD SEND Only of one MAD with IBA local
 * headers.
 */
int ibsw_mad_hdrs_get(const u8 *p, unsigned int len, struct ibsw_mad_addr *a)
{
	if (len != IBSW_MAD_PKT_LEN || (p[0] & 0xf) ||
	    (p[1] & 0x3) != IBSW_LRH_LNH_IBA_LOCAL ||
	    (get_unaligned_be16(p + 4) & 0x7ff) != IBSW_MAD_PKT_LEN / 4)
		return -EINVAL;
	a->vl = p[0] >> 4;
	a->sl = p[1] >> 4;
	a->dlid = get_unaligned_be16(p + 2);
	a->slid = get_unaligned_be16(p + 6);
	return ibsw_mad_bth_get(p + IBSW_LRH_LEN, len - IBSW_LRH_LEN, a);
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_mad_hdrs_get);

/**
 * ibsw_mad_roce_get() - read the headers of a management packet in RoCEv2
 * @bth: its BTH (after the Ethernet, IP and UDP headers)
 * @len: its length from the BTH to the ICRC
 * @a: the addresses read; its VL, SL and LIDs are left alone (the fabric
 *	knows them from the IP header)
 *
 * Return: 0; -EINVAL if it is not a UD SEND Only of one MAD.
 */
int ibsw_mad_roce_get(const u8 *bth, unsigned int len, struct ibsw_mad_addr *a)
{
	return ibsw_mad_bth_get(bth, len, a);
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_mad_roce_get);
