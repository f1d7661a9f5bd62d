/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The subnet management agents of switches and emulated CAs (sma.c).
 */
#ifndef _IBSW_SMA_H
#define _IBSW_SMA_H

#include <linux/types.h>
#include <linux/workqueue.h>

#include "vlarb.h"

/* ibsw's GUIDs: a locally administered prefix, then switch and port */
#define IBSW_GUID_BASE		0x02b5de0000000000ULL
#define IBSW_GID_PREFIX_DEFAULT	0xfe80000000000000ULL
/* Multicast LIDs a switch stores (MulticastFDBCap), 16 ports a position */
#define IBSW_SMA_MFT_LIDS	32
#define IBSW_SMA_MFT_POSITIONS	16

/**
 * struct ibsw_sma_mkey - the M_Key of a switch's port 0 or of a CA's port
 * @key: M_Key; 0 protects nothing
 * @lease_end: jiffies when the protection lapses, 0 while no lease runs
 * @lease_period: M_KeyLeasePeriod in seconds; 0: the protection never
 *	lapses
 * @violations: M_KeyViolations, stopping at 0xffff
 * @protect: M_KeyProtectBits, 0 to 3
 */
struct ibsw_sma_mkey {
	u64		key;
	unsigned long	lease_end;
	u16		lease_period;
	u16		violations;
	u8		protect;
};

/**
 * struct ibsw_sma_port - what an SMA keeps of one port
 * @state: PortState as the SM set it (a cabled port starts in INIT)
 * @sm_lid: a CA's MasterSMLID
 * @sm_sl: a CA's MasterSMSL
 * @mkey: a CA's M_Key
 * @sl2vl0: a switch's SL-to-VL table from its base port 0 to this port:
 *	stored only, as port 0 sends nothing on a data VL
 */
struct ibsw_sma_port {
	u8			state;
	u16			sm_lid;
	u8			sm_sl;
	struct ibsw_sma_mkey	mkey;
	struct ibsw_sl2vl	sl2vl0;
};

/**
 * struct ibsw_sma - a switch's SMA state, and its emulated CAs' (RTNL)
 * @mkey: M_Key of port 0, which guards the whole switch
 * @gid_prefix: GID prefix
 * @sm_lid: the master SM's LID
 * @sm_sl: the master SM's SL
 * @lmc: LMC of port 0
 * @subnet_timeout: SubnetTimeOut
 * @life_time: SwitchInfo LifeTimeValue
 * @port_state_change: SwitchInfo PortStateChange
 * @mft_top: SwitchInfo MulticastFDBTop
 * @mft: the MulticastForwardingTable, stored
 * @port: port 0 (unused), the switch's ports, and for host ports their
 *	CA's port 1
 */
struct ibsw_sma {
	struct ibsw_sma_mkey	mkey;
	u64			gid_prefix;
	u16			sm_lid;
	u8			sm_sl;
	u8			lmc;
	u8			subnet_timeout;
	u8			life_time;
	bool			port_state_change;
	/* LinearFDBTop as the SM set it, if it did */
	bool			lft_top_set;
	u16			lft_top;
	u16			mft_top;
	u16			mft[IBSW_SMA_MFT_POSITIONS][IBSW_SMA_MFT_LIDS];
	struct ibsw_sma_port	port[];
};

struct ibsw_port;

void ibsw_sma_work(struct work_struct *work);

/* agent.c: the switches' general service agents (port 0) */
void ibsw_agent_work(struct work_struct *work);
void ibsw_sma_link_change(struct ibsw_port *port);

#endif /* _IBSW_SMA_H */
