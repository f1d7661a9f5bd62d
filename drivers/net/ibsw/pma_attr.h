/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Performance Management (class 0x04) attributes as the PMA of an emulated
 * switch answers them at its port 0 (IBA vol 1, 16.1): the header check
 * of a request, the encoding of ibsw's port counters into each attribute
 * (Get) and the decoding of the CounterSelect of a Set into the ibsw
 * counters to clear. Also the ClassPortInfo layout every GS class shares.
 *
 * - The attribute is the 192-byte data area at byte 64 of the MAD
 *   (%IBSW_PMA_DATA_OFFSET), big-endian, bit 7 the most significant.
 * - A put writes all 192 bytes: the attribute, its reserved bits and what
 *   follows it as 0. CounterSelect fields are answered as 0.
 * - Counters narrower than ibsw's 64 bits saturate at all ones, never
 *   wrap (IBA 16.1.3.5): a value of 2^16 in a 16-bit field reads 0xffff.
 * - Which ibsw counter fills which field, and which fields are always 0
 *   because ibsw does not count them, is the table in pma_attr.c and
 *   Documentation/mads.md.
 *
 * Pure: no state, no locks, no allocation; any context.
 */
#ifndef _IBSW_PMA_ATTR_H
#define _IBSW_PMA_ATTR_H

#include <linux/bits.h>
#include <linux/types.h>
#include <rdma/ib_mad.h>

#include "ctl.h"

#define IBSW_PMA_CLASS_VERSION		1
/* The attribute in the MAD: after the header and 40 reserved bytes */
#define IBSW_PMA_DATA_OFFSET		64
#define IBSW_PMA_DATA_SIZE		192
/* PortSelect of every port of the switch (with AllPortSelect) */
#define IBSW_PMA_PORT_SELECT_ALL	0xff
/* RespTimeValue of both agents: 4.096 us * 2^18, about 1 s (as ibsim's) */
#define IBSW_MAD_RESP_TIME_VALUE	18

/* The PMA attributes a switch port answers (IBA and the CC annex) */
#define IBSW_PMA_ATTR_CLASS_PORT_INFO		0x0001
#define IBSW_PMA_ATTR_PORT_COUNTERS		0x0012
#define IBSW_PMA_ATTR_RCV_ERROR_DETAILS		0x0015
#define IBSW_PMA_ATTR_XMIT_DISCARD_DETAILS	0x0016
#define IBSW_PMA_ATTR_VL_XMIT_WAIT		0x001c
#define IBSW_PMA_ATTR_PORT_COUNTERS_EXT		0x001d
#define IBSW_PMA_ATTR_RCV_CON_CTRL		0x0031
#define IBSW_PMA_ATTR_XMIT_CON_CTRL		0x0034
#define IBSW_PMA_ATTR_VL_XMIT_TIME_CONG		0x0035

/*
 * PMA ClassPortInfo CapabilityMask, only what ibsw does:
 * - AllPortSelect (bit 8): PortSelect 0xff sums (Get) or clears (Set)
 *   every port of the switch, for every counter attribute;
 * - IsExtendedWidthSupported (bit 9): PortCountersExtended with all eight
 *   64-bit counters. ibsw forwards unicast only (multicast frames are
 *   dropped where hosts send them, the MFT is stored but not used), so the
 *   unicast counters are the packet counters and the multicast ones 0.
 *   Bit 10 (NoIETF: data and packets only) would say less than this;
 * - PortCountersXmitWaitSupported (bit 12): PortXmitWait is counted.
 * Not set: traps (no Notice is sent), SamplesOnly and PortSamplesControl,
 * RS-FEC counters, QP1Dropped (not counted).
 */
#define IBSW_PMA_CAP_ALL_PORT_SELECT	BIT(8)
#define IBSW_PMA_CAP_EXT_WIDTH		BIT(9)
#define IBSW_PMA_CAP_XMIT_WAIT		BIT(12)
#define IBSW_PMA_CAP_MASK		(IBSW_PMA_CAP_ALL_PORT_SELECT | \
					 IBSW_PMA_CAP_EXT_WIDTH |	\
					 IBSW_PMA_CAP_XMIT_WAIT)
/*
 * CapabilityMask2 (27 bits): IsAdditionalPortCountersExtendedSupported
 * (bit 1), the 64-bit error counters and PortXmitWait of
 * PortCountersExtended. Not IsPerfMgmtKeySupported (bit 0): no PM_Key.
 */
#define IBSW_PMA_CAP2_ADDL_PORT_COUNTERS_EXT	BIT(1)
#define IBSW_PMA_CAP2_MASK		IBSW_PMA_CAP2_ADDL_PORT_COUNTERS_EXT

/* A request the agent must not answer at all (ibsw_gmp_check()) */
#define IBSW_MAD_NO_REPLY		(-1)

/**
 * struct ibsw_pma_clear - what the CounterSelect of a Set clears
 * @port_select: PortSelect of the request
 * @cnt: port counters, BIT(enum ibsw_counter)
 * @vl_cnt: per-VL counters (of %IBSW_VL_COUNTERS), BIT(enum ibsw_counter)
 * @vls: the VLs of @vl_cnt, bit v VL v (VL0 to VL14)
 *
 * Several fields may report one ibsw counter (the unicast packet counters
 * are the packet counters): selecting any of them clears it.
 */
struct ibsw_pma_clear {
	u8	port_select;
	u32	cnt;
	u32	vl_cnt;
	u16	vls;
};

int ibsw_gmp_check(const struct ib_mad_hdr *hdr, u8 mgmt_class,
		   u8 class_version);
int ibsw_pma_check(const struct ib_mad_hdr *hdr,
		   const u8 data[IBSW_PMA_DATA_SIZE], unsigned int nr_ports);

void ibsw_mad_cpi_put(u8 data[IBSW_PMA_DATA_SIZE], u8 class_version,
		      u16 cap_mask, u32 cap_mask2, u8 resp_time_value);

void ibsw_pma_put(u8 data[IBSW_PMA_DATA_SIZE], u16 attr, u8 port_select,
		  const struct ibsw_counters *cnt,
		  const struct ibsw_counters vl_cnt[IBSW_NR_DATA_VLS]);
void ibsw_pma_clear_get(const u8 data[IBSW_PMA_DATA_SIZE], u16 attr,
			struct ibsw_pma_clear *clr);

void ibsw_pma_counters_add(struct ibsw_counters *sum,
			   const struct ibsw_counters *cnt);

#endif /* _IBSW_PMA_ATTR_H */
