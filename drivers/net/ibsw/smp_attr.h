/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Subnet management attributes (IBA vol 1, 14.2.5) as the SMA of an
 * emulated switch and the proxied SMA of an emulated host answer them:
 * host-order structs, put into and got from the 64-byte data area of an
 * SMP (struct ib_smp's @data), big-endian, bit 7 the most significant.
 *
 * - A put writes all 64 bytes: the attribute's fields, its reserved bits
 *   and whatever follows it as 0. The caller need not clear the area.
 * - A field narrower than its struct member is masked to its width: the
 *   excess bits are dropped, never carried into a neighbouring field.
 * - A get (the value of a Set) decodes every field the put encodes and
 *   ignores reserved bits. Any bit pattern decodes; whether the values make
 *   sense is for the SMA to check.
 *
 * Beside the encodings, what every ibsw port reports in PortInfo and the
 * port state machine a PortInfo Set drives, shared by all SMAs.
 *
 * Pure: no state, no locks, no allocation; any context.
 */
#ifndef _IBSW_SMP_ATTR_H
#define _IBSW_SMP_ATTR_H

#include <linux/types.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_smi.h>

#include "vlarb.h"

/* NodeInfo: BaseVersion is IB_MGMT_BASE_VERSION, ClassVersion this */
#define IBSW_SMP_CLASS_VERSION		1

/* Entries in one block of the table attributes */
#define IBSW_SMP_PKEY_BLOCK		32
#define IBSW_SMP_VLARB_BLOCK		32
#define IBSW_SMP_LFT_BLOCK		64
#define IBSW_SMP_MFT_BLOCK		32
#define IBSW_SMP_GUID_BLOCK		8

/*
 * PortInfo encodings (IBA vol 1, 14.2.5.6). Where the kernel has them,
 * they are its own, and are the wire values:
 * - PortState: enum ib_port_state, IB_PORT_NOP (0, no change), _DOWN (1),
 *   _INIT (2), _ARMED (3), _ACTIVE (4).
 * - PortPhysicalState: enum ib_port_phys_state, IB_PORT_PHYS_STATE_SLEEP
 *   (1) to _PHY_TEST (7), _POLLING 2, _DISABLED 3, _LINK_UP 5; 0 (no
 *   change) is IBSW_PI_PHYS_STATE_NOP below.
 * - LinkWidth*: enum ib_port_width, IB_WIDTH_1X (1), _4X (2), _8X (4),
 *   _12X (8), _2X (16); Supported and Enabled are ORs of them.
 * - NeighborMTU, MTUCap: enum ib_mtu, IB_MTU_256 (1) to IB_MTU_4096 (5).
 * - CapabilityMask (<rdma/ib_mad.h>): IB_PORT_SM (IsSM, 0x2),
 *   IB_PORT_SL_MAP_SUP (0x40), IB_PORT_SM_DISABLED (0x400),
 *   IB_PORT_EXTENDED_SPEEDS_SUP (0x4000), IB_PORT_CLIENT_REG_SUP
 *   (0x02000000), IB_PORT_MCAST_FDB_TOP_SUP (0x40000000).
 * - NodeInfo NodeType: RDMA_NODE_IB_CA (1), RDMA_NODE_IB_SWITCH (2).
 */
#define IBSW_PI_PHYS_STATE_NOP		0

/* LinkDownDefaultState */
#define IBSW_PI_LINK_DOWN_NOP		0
#define IBSW_PI_LINK_DOWN_SLEEP		1
#define IBSW_PI_LINK_DOWN_POLLING	2

/* LinkWidthEnabled in a Set: 0 no change, 255 set to LinkWidthSupported */
#define IBSW_PI_WIDTH_NOP		0
#define IBSW_PI_WIDTH_SUPPORTED		255

/*
 * LinkSpeed*, 4 bits: Supported and Enabled are ORs of the speeds. An
 * Active of 0 means an extended speed is active (LinkSpeedExtActive); an
 * Enabled of 0 in a Set means no change, 15 set to LinkSpeedSupported.
 */
#define IBSW_PI_SPEED_EXT_ACTIVE	0
#define IBSW_PI_SPEED_NOP		0
#define IBSW_PI_SPEED_SDR		1	/* 2.5 Gb/s a lane */
#define IBSW_PI_SPEED_DDR		2	/* 5 Gb/s */
#define IBSW_PI_SPEED_QDR		4	/* 10 Gb/s */
#define IBSW_PI_SPEED_SUPPORTED		15

/*
 * LinkSpeedExt*: Active and Supported 4 bits, Enabled 5 bits; 0 none (or
 * no change), Enabled 30 disables the extended speeds, 31 sets them to
 * LinkSpeedExtSupported. They count only with IB_PORT_EXTENDED_SPEEDS_SUP.
 */
#define IBSW_PI_SPEED_EXT_NONE		0
#define IBSW_PI_SPEED_EXT_FDR		1	/* 14.0625 Gb/s a lane */
#define IBSW_PI_SPEED_EXT_EDR		2	/* 25.78125 Gb/s */
#define IBSW_PI_SPEED_EXT_HDR		4	/* 53.125 Gb/s */
#define IBSW_PI_SPEED_EXT_NDR		8	/* 106.25 Gb/s */
#define IBSW_PI_SPEED_EXT_DISABLE	30
#define IBSW_PI_SPEED_EXT_SUPPORTED	31

/* VLCap and OperationalVLs: the data VLs, 0 to n - 1 */
#define IBSW_PI_VL_CAP_1		1	/* VL0 */
#define IBSW_PI_VL_CAP_2		2	/* VL0-1 */
#define IBSW_PI_VL_CAP_4		3	/* VL0-3 */
#define IBSW_PI_VL_CAP_8		4	/* VL0-7 */
#define IBSW_PI_VL_CAP_15		5	/* VL0-14 */

/**
 * struct ibsw_smp_node_info - NodeInfo (attribute 0x0011), Get only
 * @node_type: RDMA_NODE_IB_CA or RDMA_NODE_IB_SWITCH
 * @num_ports: external ports (a switch's port 0 is not counted)
 * @sys_image_guid: SystemImageGUID
 * @node_guid: NodeGUID
 * @port_guid: GUID of the port the SMP came in on; a switch's port 0 GUID
 * @partition_cap: P_Key entries of a CA port or of switch port 0
 * @device_id: DeviceID
 * @revision: Revision
 * @local_port_num: the port the SMP came in on, on switches too
 * @vendor_id: IEEE OUI, 24 bits
 *
 * BaseVersion and ClassVersion are written as 1.
 */
struct ibsw_smp_node_info {
	u8	node_type;
	u8	num_ports;
	u64	sys_image_guid;
	u64	node_guid;
	u64	port_guid;
	u16	partition_cap;
	u16	device_id;
	u32	revision;
	u8	local_port_num;
	u32	vendor_id;
};

/**
 * struct ibsw_smp_switch_info - SwitchInfo (attribute 0x0012)
 * @linear_fdb_cap: LFT entries the switch can hold
 * @random_fdb_cap: RandomFDBCap; ibsw has none (0)
 * @mcast_fdb_cap: MLIDs from 0xc000 the MFT can hold; 0 no multicast
 * @linear_fdb_top: LinearFDBTop, the highest LID in use in the LFT
 * @default_port: DefaultPort
 * @default_mcast_primary_port: DefaultMulticastPrimaryPort
 * @default_mcast_not_primary_port: DefaultMulticastNotPrimaryPort
 * @life_time_value: LifeTimeValue, 5 bits
 * @port_state_change: PortStateChange; a Set writes 1 to clear it
 * @optimized_sl2vl: OptimizedSLtoVLMappingProgramming, 2 bits
 * @lids_per_port: LIDsPerPort
 * @partition_enforcement_cap: PartitionEnforcementCap, P_Key entries of
 *	an external port; 0 none
 * @inbound_enforcement_cap: InboundEnforcementCap
 * @outbound_enforcement_cap: OutboundEnforcementCap
 * @filter_raw_inbound_cap: FilterRawInboundCap
 * @filter_raw_outbound_cap: FilterRawOutboundCap
 * @enhanced_port0: EnhancedPort0; ibsw's port 0 is a base one (false)
 * @mcast_fdb_top: MulticastFDBTop
 */
struct ibsw_smp_switch_info {
	u16	linear_fdb_cap;
	u16	random_fdb_cap;
	u16	mcast_fdb_cap;
	u16	linear_fdb_top;
	u8	default_port;
	u8	default_mcast_primary_port;
	u8	default_mcast_not_primary_port;
	u8	life_time_value;
	bool	port_state_change;
	u8	optimized_sl2vl;
	u16	lids_per_port;
	u16	partition_enforcement_cap;
	bool	inbound_enforcement_cap;
	bool	outbound_enforcement_cap;
	bool	filter_raw_inbound_cap;
	bool	filter_raw_outbound_cap;
	bool	enhanced_port0;
	u16	mcast_fdb_top;
};

/**
 * struct ibsw_smp_port_info - PortInfo (attribute 0x0015)
 * @mkey: M_Key
 * @gid_prefix: GidPrefix, host order (as a u64 read from the wire)
 * @lid: LID (base LID)
 * @master_sm_lid: MasterSMLID
 * @cap_mask: CapabilityMask, IB_PORT_* bits
 * @diag_code: DiagCode
 * @mkey_lease_period: M_KeyLeasePeriod
 * @local_port_num: the port the SMP came in on
 * @link_width_enabled: LinkWidthEnabled, IB_WIDTH_* bits or
 *	%IBSW_PI_WIDTH_SUPPORTED
 * @link_width_supported: LinkWidthSupported
 * @link_width_active: LinkWidthActive, one IB_WIDTH_*
 * @link_speed_supported: LinkSpeedSupported, 4 bits
 * @port_state: PortState, 4 bits, enum ib_port_state
 * @phys_state: PortPhysicalState, 4 bits, enum ib_port_phys_state
 * @link_down_default_state: LinkDownDefaultState, 4 bits
 * @mkey_protect_bits: M_KeyProtectBits, 2 bits
 * @lmc: LMC, 3 bits
 * @link_speed_active: LinkSpeedActive, 4 bits
 * @link_speed_enabled: LinkSpeedEnabled, 4 bits
 * @neighbor_mtu: NeighborMTU, 4 bits, enum ib_mtu
 * @master_sm_sl: MasterSMSL, 4 bits
 * @vl_cap: VLCap, 4 bits, IBSW_PI_VL_CAP_*
 * @init_type: InitType, 4 bits
 * @vl_high_limit: VLHighLimit
 * @vl_arb_high_cap: VLArbitrationHighCap
 * @vl_arb_low_cap: VLArbitrationLowCap
 * @init_type_reply: InitTypeReply, 4 bits
 * @mtu_cap: MTUCap, 4 bits, enum ib_mtu
 * @vl_stall_count: VLStallCount, 3 bits
 * @hoq_life: HOQLife, 5 bits
 * @operational_vls: OperationalVLs, 4 bits, IBSW_PI_VL_CAP_*
 * @partition_enforcement_inbound: PartitionEnforcementInbound
 * @partition_enforcement_outbound: PartitionEnforcementOutbound
 * @filter_raw_inbound: FilterRawInbound
 * @filter_raw_outbound: FilterRawOutbound
 * @mkey_violations: M_KeyViolations
 * @pkey_violations: P_KeyViolations
 * @qkey_violations: Q_KeyViolations
 * @guid_cap: GUIDCap
 * @client_reregister: ClientReregister
 * @mcast_pkey_trap_suppression: MulticastPKeyTrapSuppressionEnabled,
 *	2 bits
 * @subnet_timeout: SubnetTimeOut, 5 bits
 * @resp_time_value: RespTimeValue, 5 bits
 * @local_phy_errors: LocalPhyErrors threshold, 4 bits
 * @overrun_errors: OverrunErrors threshold, 4 bits
 * @max_credit_hint: MaxCreditHint
 * @link_roundtrip_latency: LinkRoundTripLatency, 24 bits
 * @cap_mask2: CapabilityMask2
 * @link_speed_ext_active: LinkSpeedExtActive, 4 bits
 * @link_speed_ext_supported: LinkSpeedExtSupported, 4 bits
 * @link_speed_ext_enabled: LinkSpeedExtEnabled, 5 bits
 */
struct ibsw_smp_port_info {
	u64	mkey;
	u64	gid_prefix;
	u16	lid;
	u16	master_sm_lid;
	u32	cap_mask;
	u16	diag_code;
	u16	mkey_lease_period;
	u8	local_port_num;
	u8	link_width_enabled;
	u8	link_width_supported;
	u8	link_width_active;
	u8	link_speed_supported;
	u8	port_state;
	u8	phys_state;
	u8	link_down_default_state;
	u8	mkey_protect_bits;
	u8	lmc;
	u8	link_speed_active;
	u8	link_speed_enabled;
	u8	neighbor_mtu;
	u8	master_sm_sl;
	u8	vl_cap;
	u8	init_type;
	u8	vl_high_limit;
	u8	vl_arb_high_cap;
	u8	vl_arb_low_cap;
	u8	init_type_reply;
	u8	mtu_cap;
	u8	vl_stall_count;
	u8	hoq_life;
	u8	operational_vls;
	bool	partition_enforcement_inbound;
	bool	partition_enforcement_outbound;
	bool	filter_raw_inbound;
	bool	filter_raw_outbound;
	u16	mkey_violations;
	u16	pkey_violations;
	u16	qkey_violations;
	u8	guid_cap;
	bool	client_reregister;
	u8	mcast_pkey_trap_suppression;
	u8	subnet_timeout;
	u8	resp_time_value;
	u8	local_phy_errors;
	u8	overrun_errors;
	u16	max_credit_hint;
	u32	link_roundtrip_latency;
	u16	cap_mask2;
	u8	link_speed_ext_active;
	u8	link_speed_ext_supported;
	u8	link_speed_ext_enabled;
};

void ibsw_smp_node_desc_put(u8 data[IB_SMP_DATA_SIZE], const char *desc);
void ibsw_smp_node_info_put(u8 data[IB_SMP_DATA_SIZE],
			    const struct ibsw_smp_node_info *ni);

void ibsw_smp_switch_info_put(u8 data[IB_SMP_DATA_SIZE],
			      const struct ibsw_smp_switch_info *si);
void ibsw_smp_switch_info_get(const u8 data[IB_SMP_DATA_SIZE],
			      struct ibsw_smp_switch_info *si);

void ibsw_smp_port_info_put(u8 data[IB_SMP_DATA_SIZE],
			    const struct ibsw_smp_port_info *pi);
void ibsw_smp_port_info_get(const u8 data[IB_SMP_DATA_SIZE],
			    struct ibsw_smp_port_info *pi);
void ibsw_smp_port_info_init(struct ibsw_smp_port_info *pi, u8 width,
			     u8 speed, u8 vl_cap);
int ibsw_smp_port_state(u8 state, u8 want, bool link_up, u8 *next);

void ibsw_smp_pkey_put(u8 data[IB_SMP_DATA_SIZE],
		       const u16 pkey[IBSW_SMP_PKEY_BLOCK]);
void ibsw_smp_pkey_get(const u8 data[IB_SMP_DATA_SIZE],
		       u16 pkey[IBSW_SMP_PKEY_BLOCK]);

void ibsw_smp_sl2vl_put(u8 data[IB_SMP_DATA_SIZE],
			const struct ibsw_sl2vl *map);
void ibsw_smp_sl2vl_get(const u8 data[IB_SMP_DATA_SIZE],
			struct ibsw_sl2vl *map);

void ibsw_smp_vlarb_put(u8 data[IB_SMP_DATA_SIZE],
			const struct ibsw_vlarb_entry e[IBSW_SMP_VLARB_BLOCK]);
void ibsw_smp_vlarb_get(const u8 data[IB_SMP_DATA_SIZE],
			struct ibsw_vlarb_entry e[IBSW_SMP_VLARB_BLOCK]);

int ibsw_smp_sl2vl_mod(u32 mod, unsigned int *in, unsigned int *out);
int ibsw_smp_vlarb_mod(u32 mod, bool *high, unsigned int *first,
		       unsigned int *port);
void ibsw_smp_vlarb_block(const struct ibsw_vlarb_entry *list,
			  unsigned int nr, unsigned int first,
			  struct ibsw_vlarb_entry block[IBSW_SMP_VLARB_BLOCK]);
unsigned int ibsw_smp_vlarb_merge(struct ibsw_vlarb_entry *list,
				  unsigned int nr, unsigned int first,
				  const struct ibsw_vlarb_entry
				  block[IBSW_SMP_VLARB_BLOCK]);

void ibsw_smp_guid_info_put(u8 data[IB_SMP_DATA_SIZE],
			    const u64 guid[IBSW_SMP_GUID_BLOCK]);
void ibsw_smp_guid_info_get(const u8 data[IB_SMP_DATA_SIZE],
			    u64 guid[IBSW_SMP_GUID_BLOCK]);

void ibsw_smp_lft_put(u8 data[IB_SMP_DATA_SIZE], const u8 *port,
		      unsigned int nr);
void ibsw_smp_lft_get(const u8 data[IB_SMP_DATA_SIZE],
		      u8 port[IBSW_SMP_LFT_BLOCK]);

void ibsw_smp_mft_put(u8 data[IB_SMP_DATA_SIZE],
		      const u16 mask[IBSW_SMP_MFT_BLOCK]);
void ibsw_smp_mft_get(const u8 data[IB_SMP_DATA_SIZE],
		      u16 mask[IBSW_SMP_MFT_BLOCK]);

#endif /* _IBSW_SMP_ATTR_H */
