/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Congestion Control (class 0x21) attributes as the CC agent of an
 * emulated switch answers them at its port 0 (IBA vol 1, annex A10,
 * switch side): the header check of a request, the CC_Key check, and the
 * encoding (Get) and decoding (Set) of the switch attributes from and into
 * ibsw's congestion control structs (ctl.h, cc.h), whose meaning they
 * keep.
 *
 * - Every attribute but CongestionLog is the 192-byte data area at byte
 *   64 of the MAD (%IBSW_CC_MAD_DATA_OFFSET); CongestionLog is the
 *   224 bytes from byte 32 (%IBSW_CC_MAD_LOG_OFFSET). The CC_Key is MAD
 *   bytes 24-31. Big-endian, bit 7 the most significant.
 * - A put writes its whole area: the attribute, reserved bits and what
 *   follows as 0. A field narrower than its member is masked to its width.
 * - A get decodes every field the put encodes and ignores reserved bits;
 *   whether the values are acceptable is for ibsw_cc_set() to say (an
 *   -EINVAL or -EOPNOTSUPP from it answers
 *   %IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE).
 *
 * The ClassPortInfo layout, %IBSW_MAD_NO_REPLY and the checks every GS
 * agent shares are pma_attr.h's.
 *
 * Pure: no state, no locks, no allocation; any context.
 */
#ifndef _IBSW_CC_MAD_ATTR_H
#define _IBSW_CC_MAD_ATTR_H

#include <linux/bits.h>
#include <linux/types.h>
#include <rdma/ib_mad.h>

#include "cc.h"
#include "ctl.h"
#include "pma_attr.h"

/* libibmad, OpenSM and qib use class version 2 for CC */
#define IBSW_CC_CLASS_VERSION		2
#define IBSW_CC_MAD_KEY_OFFSET		24
#define IBSW_CC_MAD_LOG_OFFSET		32
#define IBSW_CC_MAD_DATA_OFFSET		64
#define IBSW_CC_DATA_SIZE		192
#define IBSW_CC_LOG_SIZE		224

#define IBSW_CC_ATTR_CLASS_PORT_INFO	0x0001
#define IBSW_CC_ATTR_NOTICE		0x0002
#define IBSW_CC_ATTR_CONG_INFO		0x0011
#define IBSW_CC_ATTR_KEY_INFO		0x0012
#define IBSW_CC_ATTR_LOG		0x0013
#define IBSW_CC_ATTR_SW_SETTING		0x0014
#define IBSW_CC_ATTR_SW_PORT_SETTING	0x0015
#define IBSW_CC_ATTR_CA_SETTING		0x0016
#define IBSW_CC_ATTR_CCT		0x0017
#define IBSW_CC_ATTR_TIMESTAMP		0x0018

/* SwitchPortCongestionSetting: elements (ports) per block (modifier) */
#define IBSW_CC_SW_PORT_BLOCK		32
/* CongestionLog LogType of a switch */
#define IBSW_CC_LOG_TYPE_SWITCH		1
/* CongestionLogEvents a switch log holds */
#define IBSW_CC_LOG_SW_EVENTS		15
/*
 * CongestionInfo bit 0, credit starvation supported (the one bit qib
 * backs with code; ibsw has no credit starvation, so it never sets it)
 */
#define IBSW_CC_INFO_CREDIT_STARVATION	BIT(0)

static_assert(IBSW_CC_LOG_EVENTS == IBSW_CC_LOG_SW_EVENTS);

/**
 * struct ibsw_cc_key - CongestionKeyInfo of a switch, with its lease
 * @key: CC_Key; 0: every MAD passes the check
 * @lease_end: when the lease expires, in the caller's clock (ns); 0: the
 *	lease timer is not running
 * @lease_period: CC_KeyLeasePeriod, seconds; 0: never expires
 * @violations: CC_KeyViolations, saturating
 * @protect: CC_KeyProtectBit: Gets need the key too
 */
struct ibsw_cc_key {
	u64	key;
	u64	lease_end;
	u16	lease_period;
	u16	violations;
	bool	protect;
};

/**
 * struct ibsw_cc_log_hdr - the switch CongestionLog apart from its events
 * @events_counter: LogEventsCounter; saturates at 16 bits on the wire
 * @current_timestamp: CurrentTimeStamp, 1.024 us units (ibsw_cc_timestamp())
 * @port_map: PortMap, ports that marked (256-bit mask, cc.h)
 */
struct ibsw_cc_log_hdr {
	u32	events_counter;
	u32	current_timestamp;
	u8	port_map[IBSW_CC_MASK_LEN];
};

int ibsw_cc_check(const struct ib_mad_hdr *hdr, unsigned int nr_ports);
bool ibsw_cc_key_check(struct ibsw_cc_key *k, const struct ib_mad *mad,
		       u64 now);

void ibsw_cc_cpi_put(u8 data[IBSW_CC_DATA_SIZE]);
void ibsw_cc_info_put(u8 data[IBSW_CC_DATA_SIZE], u16 info);

void ibsw_cc_key_info_put(u8 data[IBSW_CC_DATA_SIZE],
			  const struct ibsw_cc_key *k);
void ibsw_cc_key_info_set(struct ibsw_cc_key *k,
			  const u8 data[IBSW_CC_DATA_SIZE]);

void ibsw_cc_log_put(u8 log[IBSW_CC_LOG_SIZE],
		     const struct ibsw_cc_log_hdr *hdr,
		     const struct ibsw_cc_event *ev, unsigned int nr);
void ibsw_cc_log_info_put(u8 log[IBSW_CC_LOG_SIZE],
			  const struct ibsw_cc_log_info *info);

void ibsw_cc_sw_setting_put(u8 data[IBSW_CC_DATA_SIZE],
			    const struct ibsw_cc_setting *s);
void ibsw_cc_sw_setting_get(const u8 data[IBSW_CC_DATA_SIZE],
			    struct ibsw_cc_setting *s);

void ibsw_cc_sw_port_put(u8 data[IBSW_CC_DATA_SIZE], u32 block,
			 const struct ibsw_cc_port_setting *ports,
			 unsigned int nr_ports);
unsigned int ibsw_cc_sw_port_get(const u8 data[IBSW_CC_DATA_SIZE], u32 block,
				 unsigned int nr_ports,
				 struct ibsw_cc_port_setting
				 ports[IBSW_CC_SW_PORT_BLOCK]);

void ibsw_cc_timestamp_put(u8 data[IBSW_CC_DATA_SIZE], u32 timestamp);

#endif /* _IBSW_CC_MAD_ATTR_H */
