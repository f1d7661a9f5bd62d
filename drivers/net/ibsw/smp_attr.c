// SPDX-License-Identifier: GPL-2.0
/*
 * Encoding and decoding of the SMA attributes (smp_attr.h).
 *
 * Each layout is written out below as byte offsets into the SMP data area
 * and masks within a byte, in the order of the attribute's table (IBA vol
 * 1, 14.2.5). Where <rdma/ib_smi.h> has a struct for the attribute, the
 * offsets are checked against it at build time. Its struct ib_port_info
 * stops at LinkRoundTripLatency, byte 59: CapabilityMask2 (60-61) and the
 * extended link speeds (62-63) have only the table here.
 *
 * The structs are not used to place the bytes: the data area has no
 * alignment to speak of, and every multi-byte field goes through the
 * unaligned big-endian helpers.
 */

#include <kunit/visibility.h>
#include <linux/bitfield.h>
#include <linux/bits.h>
#include <linux/build_bug.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/minmax.h>
#include <linux/stddef.h>
#include <linux/string.h>

#include "compat.h"
#include "fwd.h"
#include "smp_attr.h"

/* The two halves of a byte that holds two 4-bit fields */
#define NIBBLE_HI	GENMASK(7, 4)
#define NIBBLE_LO	GENMASK(3, 0)

static u8 nibbles(unsigned int hi, unsigned int lo)
{
	return FIELD_PREP(NIBBLE_HI, hi) | FIELD_PREP(NIBBLE_LO, lo);
}

/* ---- NodeDescription (0x0010) ---- */

/**
 * ibsw_smp_node_desc_put() - encode a NodeDescription
 * @data: the SMP data area
 * @desc: text; its first 64 bytes at most, up to its NUL
 *
 * 64 bytes of text, zero padded. A text of 64 bytes or more fills the
 * area, without a NUL.
 *
 * Context: any.
 */
void ibsw_smp_node_desc_put(u8 data[IB_SMP_DATA_SIZE], const char *desc)
{
	size_t len = strnlen(desc, IB_SMP_DATA_SIZE);

	memcpy(data, desc, len);
	memset(data + len, 0, IB_SMP_DATA_SIZE - len);
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_smp_node_desc_put);

/* ---- NodeInfo (0x0011) ---- */

enum {
	NI_BASE_VERSION		= 0,
	NI_CLASS_VERSION	= 1,
	NI_NODE_TYPE		= 2,
	NI_NUM_PORTS		= 3,
	NI_SYS_IMAGE_GUID	= 4,
	NI_NODE_GUID		= 12,
	NI_PORT_GUID		= 20,
	NI_PARTITION_CAP	= 28,
	NI_DEVICE_ID		= 30,
	NI_REVISION		= 32,
	NI_LOCAL_PORT_NUM	= 36,
	NI_VENDOR_ID		= 37,	/* 3 bytes */
	NI_LEN			= 40,
};

static_assert(offsetof(struct ib_node_info, num_ports) == NI_NUM_PORTS);
static_assert(offsetof(struct ib_node_info, sys_guid) == NI_SYS_IMAGE_GUID);
static_assert(offsetof(struct ib_node_info, port_guid) == NI_PORT_GUID);
static_assert(offsetof(struct ib_node_info, device_id) == NI_DEVICE_ID);
static_assert(offsetof(struct ib_node_info, revision) == NI_REVISION);
static_assert(offsetof(struct ib_node_info, vendor_id) == NI_VENDOR_ID);
static_assert(sizeof(struct ib_node_info) == NI_LEN);

/**
 * ibsw_smp_node_info_put() - encode a NodeInfo
 * @data: the SMP data area
 * @ni: the values; @ni->vendor_id is masked to 24 bits
 *
 * Context: any.
 */
void ibsw_smp_node_info_put(u8 data[IB_SMP_DATA_SIZE],
			    const struct ibsw_smp_node_info *ni)
{
	memset(data, 0, IB_SMP_DATA_SIZE);
	data[NI_BASE_VERSION] = IB_MGMT_BASE_VERSION;
	data[NI_CLASS_VERSION] = IBSW_SMP_CLASS_VERSION;
	data[NI_NODE_TYPE] = ni->node_type;
	data[NI_NUM_PORTS] = ni->num_ports;
	put_unaligned_be64(ni->sys_image_guid, data + NI_SYS_IMAGE_GUID);
	put_unaligned_be64(ni->node_guid, data + NI_NODE_GUID);
	put_unaligned_be64(ni->port_guid, data + NI_PORT_GUID);
	put_unaligned_be16(ni->partition_cap, data + NI_PARTITION_CAP);
	put_unaligned_be16(ni->device_id, data + NI_DEVICE_ID);
	put_unaligned_be32(ni->revision, data + NI_REVISION);
	data[NI_LOCAL_PORT_NUM] = ni->local_port_num;
	/* Writes the low 24 bits */
	put_unaligned_be24(ni->vendor_id, data + NI_VENDOR_ID);
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_smp_node_info_put);

/* ---- SwitchInfo (0x0012) ---- */

enum {
	SI_LINEAR_FDB_CAP	= 0,
	SI_RANDOM_FDB_CAP	= 2,
	SI_MCAST_FDB_CAP	= 4,
	SI_LINEAR_FDB_TOP	= 6,
	SI_DEFAULT_PORT		= 8,
	SI_DEFAULT_MCAST_PRIM	= 9,
	SI_DEFAULT_MCAST_NOT_PRIM = 10,
	SI_LIFE_TIME_BYTE	= 11,	/* and PortStateChange, OptSL2VL */
	SI_LIDS_PER_PORT	= 12,
	SI_PARTITION_ENF_CAP	= 14,
	SI_CAPS_BYTE		= 16,	/* the five capability bits; 17 rsvd */
	SI_MCAST_FDB_TOP	= 18,	/* 20-63 reserved */
};

/* Byte 11 */
#define SI_LIFE_TIME		GENMASK(7, 3)
#define SI_PORT_STATE_CHANGE	BIT(2)
#define SI_OPT_SL2VL		GENMASK(1, 0)
/* Byte 16; bits 2..0 reserved */
#define SI_INBOUND_ENF_CAP	BIT(7)
#define SI_OUTBOUND_ENF_CAP	BIT(6)
#define SI_FILTER_RAW_IN_CAP	BIT(5)
#define SI_FILTER_RAW_OUT_CAP	BIT(4)
#define SI_ENHANCED_PORT0	BIT(3)

/**
 * ibsw_smp_switch_info_put() - encode a SwitchInfo
 * @data: the SMP data area
 * @si: the values, masked to their widths
 *
 * Context: any.
 */
void ibsw_smp_switch_info_put(u8 data[IB_SMP_DATA_SIZE],
			      const struct ibsw_smp_switch_info *si)
{
	memset(data, 0, IB_SMP_DATA_SIZE);
	put_unaligned_be16(si->linear_fdb_cap, data + SI_LINEAR_FDB_CAP);
	put_unaligned_be16(si->random_fdb_cap, data + SI_RANDOM_FDB_CAP);
	put_unaligned_be16(si->mcast_fdb_cap, data + SI_MCAST_FDB_CAP);
	put_unaligned_be16(si->linear_fdb_top, data + SI_LINEAR_FDB_TOP);
	data[SI_DEFAULT_PORT] = si->default_port;
	data[SI_DEFAULT_MCAST_PRIM] = si->default_mcast_primary_port;
	data[SI_DEFAULT_MCAST_NOT_PRIM] = si->default_mcast_not_primary_port;
	data[SI_LIFE_TIME_BYTE] =
		FIELD_PREP(SI_LIFE_TIME, si->life_time_value) |
		FIELD_PREP(SI_PORT_STATE_CHANGE, si->port_state_change) |
		FIELD_PREP(SI_OPT_SL2VL, si->optimized_sl2vl);
	put_unaligned_be16(si->lids_per_port, data + SI_LIDS_PER_PORT);
	put_unaligned_be16(si->partition_enforcement_cap,
			   data + SI_PARTITION_ENF_CAP);
	data[SI_CAPS_BYTE] =
		FIELD_PREP(SI_INBOUND_ENF_CAP, si->inbound_enforcement_cap) |
		FIELD_PREP(SI_OUTBOUND_ENF_CAP, si->outbound_enforcement_cap) |
		FIELD_PREP(SI_FILTER_RAW_IN_CAP, si->filter_raw_inbound_cap) |
		FIELD_PREP(SI_FILTER_RAW_OUT_CAP, si->filter_raw_outbound_cap) |
		FIELD_PREP(SI_ENHANCED_PORT0, si->enhanced_port0);
	put_unaligned_be16(si->mcast_fdb_top, data + SI_MCAST_FDB_TOP);
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_smp_switch_info_put);

/**
 * ibsw_smp_switch_info_get() - decode a SwitchInfo
 * @data: the SMP data area of a Set
 * @si: filled in, every member
 *
 * Context: any.
 */
void ibsw_smp_switch_info_get(const u8 data[IB_SMP_DATA_SIZE],
			      struct ibsw_smp_switch_info *si)
{
	u8 b;

	si->linear_fdb_cap = get_unaligned_be16(data + SI_LINEAR_FDB_CAP);
	si->random_fdb_cap = get_unaligned_be16(data + SI_RANDOM_FDB_CAP);
	si->mcast_fdb_cap = get_unaligned_be16(data + SI_MCAST_FDB_CAP);
	si->linear_fdb_top = get_unaligned_be16(data + SI_LINEAR_FDB_TOP);
	si->default_port = data[SI_DEFAULT_PORT];
	si->default_mcast_primary_port = data[SI_DEFAULT_MCAST_PRIM];
	si->default_mcast_not_primary_port = data[SI_DEFAULT_MCAST_NOT_PRIM];
	b = data[SI_LIFE_TIME_BYTE];
	si->life_time_value = FIELD_GET(SI_LIFE_TIME, b);
	si->port_state_change = FIELD_GET(SI_PORT_STATE_CHANGE, b);
	si->optimized_sl2vl = FIELD_GET(SI_OPT_SL2VL, b);
	si->lids_per_port = get_unaligned_be16(data + SI_LIDS_PER_PORT);
	si->partition_enforcement_cap =
		get_unaligned_be16(data + SI_PARTITION_ENF_CAP);
	b = data[SI_CAPS_BYTE];
	si->inbound_enforcement_cap = FIELD_GET(SI_INBOUND_ENF_CAP, b);
	si->outbound_enforcement_cap = FIELD_GET(SI_OUTBOUND_ENF_CAP, b);
	si->filter_raw_inbound_cap = FIELD_GET(SI_FILTER_RAW_IN_CAP, b);
	si->filter_raw_outbound_cap = FIELD_GET(SI_FILTER_RAW_OUT_CAP, b);
	si->enhanced_port0 = FIELD_GET(SI_ENHANCED_PORT0, b);
	si->mcast_fdb_top = get_unaligned_be16(data + SI_MCAST_FDB_TOP);
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_smp_switch_info_get);

/* ---- PortInfo (0x0015) ---- */

enum {
	PI_MKEY			= 0,
	PI_GID_PREFIX		= 8,
	PI_LID			= 16,
	PI_MASTER_SM_LID	= 18,
	PI_CAP_MASK		= 20,
	PI_DIAG_CODE		= 24,
	PI_MKEY_LEASE		= 26,
	PI_LOCAL_PORT_NUM	= 28,
	PI_WIDTH_ENABLED	= 29,
	PI_WIDTH_SUPPORTED	= 30,
	PI_WIDTH_ACTIVE		= 31,
	PI_SPEED_SUP_STATE	= 32,	/* LinkSpeedSupported, PortState */
	PI_PHYS_LINK_DOWN	= 33,	/* PhysState, LinkDownDefaultState */
	PI_PROTECT_LMC		= 34,	/* M_KeyProtectBits, LMC */
	PI_SPEED_ACT_EN		= 35,	/* LinkSpeedActive, LinkSpeedEnabled */
	PI_MTU_SM_SL		= 36,	/* NeighborMTU, MasterSMSL */
	PI_VL_CAP_INIT		= 37,	/* VLCap, InitType */
	PI_VL_HIGH_LIMIT	= 38,
	PI_VL_ARB_HIGH_CAP	= 39,
	PI_VL_ARB_LOW_CAP	= 40,
	PI_INIT_REPLY_MTU_CAP	= 41,	/* InitTypeReply, MTUCap */
	PI_STALL_HOQ		= 42,	/* VLStallCount, HOQLife */
	PI_OP_VLS_ENF		= 43,	/* OperationalVLs, enforcement bits */
	PI_MKEY_VIOLATIONS	= 44,
	PI_PKEY_VIOLATIONS	= 46,
	PI_QKEY_VIOLATIONS	= 48,
	PI_GUID_CAP		= 50,
	PI_REREG_TIMEOUT	= 51,	/* ClientReregister, ..., SubnetTimeOut */
	PI_RESP_TIME		= 52,
	PI_ERROR_THRESHOLDS	= 53,	/* LocalPhyErrors, OverrunErrors */
	PI_MAX_CREDIT_HINT	= 54,	/* 56 reserved */
	PI_LATENCY		= 57,	/* 3 bytes */
	PI_CAP_MASK2		= 60,
	PI_SPEED_EXT		= 62,	/* LinkSpeedExtActive, ...Supported */
	PI_SPEED_EXT_ENABLED	= 63,
};

#define PI_CHECK(member, off) \
	static_assert(offsetof(struct ib_port_info, member) == (off))
PI_CHECK(gid_prefix, PI_GID_PREFIX);
PI_CHECK(sm_lid, PI_MASTER_SM_LID);
PI_CHECK(cap_mask, PI_CAP_MASK);
PI_CHECK(mkey_lease_period, PI_MKEY_LEASE);
PI_CHECK(local_port_num, PI_LOCAL_PORT_NUM);
PI_CHECK(link_width_active, PI_WIDTH_ACTIVE);
PI_CHECK(linkspeed_portstate, PI_SPEED_SUP_STATE);
PI_CHECK(mkeyprot_resv_lmc, PI_PROTECT_LMC);
PI_CHECK(vlcap_inittype, PI_VL_CAP_INIT);
PI_CHECK(vl_arb_low_cap, PI_VL_ARB_LOW_CAP);
PI_CHECK(vlstallcnt_hoqlife, PI_STALL_HOQ);
PI_CHECK(operationalvl_pei_peo_fpi_fpo, PI_OP_VLS_ENF);
PI_CHECK(qkey_violations, PI_QKEY_VIOLATIONS);
PI_CHECK(clientrereg_resv_subnetto, PI_REREG_TIMEOUT);
PI_CHECK(resv_resptimevalue, PI_RESP_TIME);
PI_CHECK(localphyerrors_overrunerrors, PI_ERROR_THRESHOLDS);
PI_CHECK(max_credit_hint, PI_MAX_CREDIT_HINT);
PI_CHECK(link_roundtrip_latency, PI_LATENCY);

/* Byte 34; bits 5..3 reserved */
#define PI_PROTECT_BITS		GENMASK(7, 6)
#define PI_LMC			GENMASK(2, 0)
/* Byte 42 */
#define PI_VL_STALL_COUNT	GENMASK(7, 5)
#define PI_HOQ_LIFE		GENMASK(4, 0)
/* Byte 43 */
#define PI_OP_VLS		GENMASK(7, 4)
#define PI_PART_ENF_IN		BIT(3)
#define PI_PART_ENF_OUT		BIT(2)
#define PI_FILTER_RAW_IN	BIT(1)
#define PI_FILTER_RAW_OUT	BIT(0)
/* Byte 51 */
#define PI_CLIENT_REREG		BIT(7)
#define PI_MCAST_TRAP_SUPP	GENMASK(6, 5)
#define PI_SUBNET_TIMEOUT	GENMASK(4, 0)
/* Byte 52; bits 7..5 reserved */
#define PI_RESP_TIME_VALUE	GENMASK(4, 0)
/* Byte 63; bits 7..5 reserved */
#define PI_SPEED_EXT_EN		GENMASK(4, 0)

/**
 * ibsw_smp_port_info_put() - encode a PortInfo
 * @data: the SMP data area
 * @pi: the values, masked to their widths
 *
 * Context: any.
 */
void ibsw_smp_port_info_put(u8 data[IB_SMP_DATA_SIZE],
			    const struct ibsw_smp_port_info *pi)
{
	memset(data, 0, IB_SMP_DATA_SIZE);
	put_unaligned_be64(pi->mkey, data + PI_MKEY);
	put_unaligned_be64(pi->gid_prefix, data + PI_GID_PREFIX);
	put_unaligned_be16(pi->lid, data + PI_LID);
	put_unaligned_be16(pi->master_sm_lid, data + PI_MASTER_SM_LID);
	put_unaligned_be32(pi->cap_mask, data + PI_CAP_MASK);
	put_unaligned_be16(pi->diag_code, data + PI_DIAG_CODE);
	put_unaligned_be16(pi->mkey_lease_period, data + PI_MKEY_LEASE);
	data[PI_LOCAL_PORT_NUM] = pi->local_port_num;
	data[PI_WIDTH_ENABLED] = pi->link_width_enabled;
	data[PI_WIDTH_SUPPORTED] = pi->link_width_supported;
	data[PI_WIDTH_ACTIVE] = pi->link_width_active;
	data[PI_SPEED_SUP_STATE] = nibbles(pi->link_speed_supported,
					   pi->port_state);
	data[PI_PHYS_LINK_DOWN] = nibbles(pi->phys_state,
					  pi->link_down_default_state);
	data[PI_PROTECT_LMC] = FIELD_PREP(PI_PROTECT_BITS,
					  pi->mkey_protect_bits) |
			       FIELD_PREP(PI_LMC, pi->lmc);
	data[PI_SPEED_ACT_EN] = nibbles(pi->link_speed_active,
					pi->link_speed_enabled);
	data[PI_MTU_SM_SL] = nibbles(pi->neighbor_mtu, pi->master_sm_sl);
	data[PI_VL_CAP_INIT] = nibbles(pi->vl_cap, pi->init_type);
	data[PI_VL_HIGH_LIMIT] = pi->vl_high_limit;
	data[PI_VL_ARB_HIGH_CAP] = pi->vl_arb_high_cap;
	data[PI_VL_ARB_LOW_CAP] = pi->vl_arb_low_cap;
	data[PI_INIT_REPLY_MTU_CAP] = nibbles(pi->init_type_reply, pi->mtu_cap);
	data[PI_STALL_HOQ] = FIELD_PREP(PI_VL_STALL_COUNT, pi->vl_stall_count) |
			     FIELD_PREP(PI_HOQ_LIFE, pi->hoq_life);
	data[PI_OP_VLS_ENF] =
		FIELD_PREP(PI_OP_VLS, pi->operational_vls) |
		FIELD_PREP(PI_PART_ENF_IN, pi->partition_enforcement_inbound) |
		FIELD_PREP(PI_PART_ENF_OUT, pi->partition_enforcement_outbound) |
		FIELD_PREP(PI_FILTER_RAW_IN, pi->filter_raw_inbound) |
		FIELD_PREP(PI_FILTER_RAW_OUT, pi->filter_raw_outbound);
	put_unaligned_be16(pi->mkey_violations, data + PI_MKEY_VIOLATIONS);
	put_unaligned_be16(pi->pkey_violations, data + PI_PKEY_VIOLATIONS);
	put_unaligned_be16(pi->qkey_violations, data + PI_QKEY_VIOLATIONS);
	data[PI_GUID_CAP] = pi->guid_cap;
	data[PI_REREG_TIMEOUT] =
		FIELD_PREP(PI_CLIENT_REREG, pi->client_reregister) |
		FIELD_PREP(PI_MCAST_TRAP_SUPP, pi->mcast_pkey_trap_suppression) |
		FIELD_PREP(PI_SUBNET_TIMEOUT, pi->subnet_timeout);
	data[PI_RESP_TIME] = FIELD_PREP(PI_RESP_TIME_VALUE,
					pi->resp_time_value);
	data[PI_ERROR_THRESHOLDS] = nibbles(pi->local_phy_errors,
					    pi->overrun_errors);
	put_unaligned_be16(pi->max_credit_hint, data + PI_MAX_CREDIT_HINT);
	/* Writes the low 24 bits */
	put_unaligned_be24(pi->link_roundtrip_latency, data + PI_LATENCY);
	put_unaligned_be16(pi->cap_mask2, data + PI_CAP_MASK2);
	data[PI_SPEED_EXT] = nibbles(pi->link_speed_ext_active,
				     pi->link_speed_ext_supported);
	data[PI_SPEED_EXT_ENABLED] = FIELD_PREP(PI_SPEED_EXT_EN,
						pi->link_speed_ext_enabled);
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_smp_port_info_put);

/**
 * ibsw_smp_port_info_get() - decode a PortInfo
 * @data: the SMP data area of a Set
 * @pi: filled in, every member
 *
 * Context: any.
 */
void ibsw_smp_port_info_get(const u8 data[IB_SMP_DATA_SIZE],
			    struct ibsw_smp_port_info *pi)
{
	u8 b;

	pi->mkey = get_unaligned_be64(data + PI_MKEY);
	pi->gid_prefix = get_unaligned_be64(data + PI_GID_PREFIX);
	pi->lid = get_unaligned_be16(data + PI_LID);
	pi->master_sm_lid = get_unaligned_be16(data + PI_MASTER_SM_LID);
	pi->cap_mask = get_unaligned_be32(data + PI_CAP_MASK);
	pi->diag_code = get_unaligned_be16(data + PI_DIAG_CODE);
	pi->mkey_lease_period = get_unaligned_be16(data + PI_MKEY_LEASE);
	pi->local_port_num = data[PI_LOCAL_PORT_NUM];
	pi->link_width_enabled = data[PI_WIDTH_ENABLED];
	pi->link_width_supported = data[PI_WIDTH_SUPPORTED];
	pi->link_width_active = data[PI_WIDTH_ACTIVE];
	b = data[PI_SPEED_SUP_STATE];
	pi->link_speed_supported = FIELD_GET(NIBBLE_HI, b);
	pi->port_state = FIELD_GET(NIBBLE_LO, b);
	b = data[PI_PHYS_LINK_DOWN];
	pi->phys_state = FIELD_GET(NIBBLE_HI, b);
	pi->link_down_default_state = FIELD_GET(NIBBLE_LO, b);
	b = data[PI_PROTECT_LMC];
	pi->mkey_protect_bits = FIELD_GET(PI_PROTECT_BITS, b);
	pi->lmc = FIELD_GET(PI_LMC, b);
	b = data[PI_SPEED_ACT_EN];
	pi->link_speed_active = FIELD_GET(NIBBLE_HI, b);
	pi->link_speed_enabled = FIELD_GET(NIBBLE_LO, b);
	b = data[PI_MTU_SM_SL];
	pi->neighbor_mtu = FIELD_GET(NIBBLE_HI, b);
	pi->master_sm_sl = FIELD_GET(NIBBLE_LO, b);
	b = data[PI_VL_CAP_INIT];
	pi->vl_cap = FIELD_GET(NIBBLE_HI, b);
	pi->init_type = FIELD_GET(NIBBLE_LO, b);
	pi->vl_high_limit = data[PI_VL_HIGH_LIMIT];
	pi->vl_arb_high_cap = data[PI_VL_ARB_HIGH_CAP];
	pi->vl_arb_low_cap = data[PI_VL_ARB_LOW_CAP];
	b = data[PI_INIT_REPLY_MTU_CAP];
	pi->init_type_reply = FIELD_GET(NIBBLE_HI, b);
	pi->mtu_cap = FIELD_GET(NIBBLE_LO, b);
	b = data[PI_STALL_HOQ];
	pi->vl_stall_count = FIELD_GET(PI_VL_STALL_COUNT, b);
	pi->hoq_life = FIELD_GET(PI_HOQ_LIFE, b);
	b = data[PI_OP_VLS_ENF];
	pi->operational_vls = FIELD_GET(PI_OP_VLS, b);
	pi->partition_enforcement_inbound = FIELD_GET(PI_PART_ENF_IN, b);
	pi->partition_enforcement_outbound = FIELD_GET(PI_PART_ENF_OUT, b);
	pi->filter_raw_inbound = FIELD_GET(PI_FILTER_RAW_IN, b);
	pi->filter_raw_outbound = FIELD_GET(PI_FILTER_RAW_OUT, b);
	pi->mkey_violations = get_unaligned_be16(data + PI_MKEY_VIOLATIONS);
	pi->pkey_violations = get_unaligned_be16(data + PI_PKEY_VIOLATIONS);
	pi->qkey_violations = get_unaligned_be16(data + PI_QKEY_VIOLATIONS);
	pi->guid_cap = data[PI_GUID_CAP];
	b = data[PI_REREG_TIMEOUT];
	pi->client_reregister = FIELD_GET(PI_CLIENT_REREG, b);
	pi->mcast_pkey_trap_suppression = FIELD_GET(PI_MCAST_TRAP_SUPP, b);
	pi->subnet_timeout = FIELD_GET(PI_SUBNET_TIMEOUT, b);
	pi->resp_time_value = FIELD_GET(PI_RESP_TIME_VALUE, data[PI_RESP_TIME]);
	b = data[PI_ERROR_THRESHOLDS];
	pi->local_phy_errors = FIELD_GET(NIBBLE_HI, b);
	pi->overrun_errors = FIELD_GET(NIBBLE_LO, b);
	pi->max_credit_hint = get_unaligned_be16(data + PI_MAX_CREDIT_HINT);
	pi->link_roundtrip_latency = get_unaligned_be24(data + PI_LATENCY);
	pi->cap_mask2 = get_unaligned_be16(data + PI_CAP_MASK2);
	b = data[PI_SPEED_EXT];
	pi->link_speed_ext_active = FIELD_GET(NIBBLE_HI, b);
	pi->link_speed_ext_supported = FIELD_GET(NIBBLE_LO, b);
	pi->link_speed_ext_enabled = FIELD_GET(PI_SPEED_EXT_EN,
					       data[PI_SPEED_EXT_ENABLED]);
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_smp_port_info_get);

/* ---- P_KeyTable (0x0016): 32 P_Keys, bit 15 full membership ---- */

/**
 * ibsw_smp_pkey_put() - encode a P_KeyTable block
 * @data: the SMP data area
 * @pkey: the block's 32 entries
 *
 * Context: any.
 */
void ibsw_smp_pkey_put(u8 data[IB_SMP_DATA_SIZE],
		       const u16 pkey[IBSW_SMP_PKEY_BLOCK])
{
	unsigned int i;

	for (i = 0; i < IBSW_SMP_PKEY_BLOCK; i++)
		put_unaligned_be16(pkey[i], data + 2 * i);
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_smp_pkey_put);

/**
 * ibsw_smp_pkey_get() - decode a P_KeyTable block
 * @data: the SMP data area of a Set
 * @pkey: the block's 32 entries, filled in
 *
 * Context: any.
 */
void ibsw_smp_pkey_get(const u8 data[IB_SMP_DATA_SIZE],
		       u16 pkey[IBSW_SMP_PKEY_BLOCK])
{
	unsigned int i;

	for (i = 0; i < IBSW_SMP_PKEY_BLOCK; i++)
		pkey[i] = get_unaligned_be16(data + 2 * i);
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_smp_pkey_get);

/* ---- SLtoVLMappingTable (0x0017): 16 x 4 bits in bytes 0-7 ---- */

/**
 * ibsw_smp_sl2vl_put() - encode an SLtoVLMappingTable
 * @data: the SMP data area
 * @map: the table; each VL is masked to 4 bits
 *
 * SL 2i is the high nibble of byte i, SL 2i + 1 its low nibble; bytes 8
 * to 63 are reserved.
 *
 * Context: any.
 */
void ibsw_smp_sl2vl_put(u8 data[IB_SMP_DATA_SIZE],
			const struct ibsw_sl2vl *map)
{
	unsigned int i;

	memset(data, 0, IB_SMP_DATA_SIZE);
	for (i = 0; i < IBSW_NR_SLS / 2; i++)
		data[i] = nibbles(map->vl[2 * i], map->vl[2 * i + 1]);
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_smp_sl2vl_put);

/**
 * ibsw_smp_sl2vl_get() - decode an SLtoVLMappingTable
 * @data: the SMP data area of a Set
 * @map: filled in, VLs 0 to 15 (15: drop)
 *
 * Context: any.
 */
void ibsw_smp_sl2vl_get(const u8 data[IB_SMP_DATA_SIZE],
			struct ibsw_sl2vl *map)
{
	unsigned int i;

	for (i = 0; i < IBSW_NR_SLS / 2; i++) {
		map->vl[2 * i] = FIELD_GET(NIBBLE_HI, data[i]);
		map->vl[2 * i + 1] = FIELD_GET(NIBBLE_LO, data[i]);
	}
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_smp_sl2vl_get);

/* ---- VLArbitrationTable (0x0018): 32 x (VL in 3..0, weight) ---- */

#define VLARB_VL	GENMASK(3, 0)	/* bits 7..4 reserved */

/**
 * ibsw_smp_vlarb_put() - encode a VLArbitrationTable block
 * @data: the SMP data area
 * @e: the block's 32 entries; each VL is masked to 4 bits
 *
 * Context: any.
 */
void ibsw_smp_vlarb_put(u8 data[IB_SMP_DATA_SIZE],
			const struct ibsw_vlarb_entry e[IBSW_SMP_VLARB_BLOCK])
{
	unsigned int i;

	for (i = 0; i < IBSW_SMP_VLARB_BLOCK; i++) {
		data[2 * i] = FIELD_PREP(VLARB_VL, e[i].vl);
		data[2 * i + 1] = e[i].weight;
	}
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_smp_vlarb_put);

/**
 * ibsw_smp_vlarb_get() - decode a VLArbitrationTable block
 * @data: the SMP data area of a Set
 * @e: the block's 32 entries, filled in; VLs 0 to 15
 *
 * Context: any.
 */
void ibsw_smp_vlarb_get(const u8 data[IB_SMP_DATA_SIZE],
			struct ibsw_vlarb_entry e[IBSW_SMP_VLARB_BLOCK])
{
	unsigned int i;

	for (i = 0; i < IBSW_SMP_VLARB_BLOCK; i++) {
		e[i].vl = FIELD_GET(VLARB_VL, data[2 * i]);
		e[i].weight = data[2 * i + 1];
	}
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_smp_vlarb_get);

/* ---- LinearForwardingTable (0x0019): 64 ports, LID 64 block + i ---- */

/**
 * ibsw_smp_lft_put() - encode a LinearForwardingTable block
 * @data: the SMP data area
 * @port: output ports of the block's first LIDs, @nr of them
 * @nr: how many of the block's LIDs @port has; those from @nr on (a block
 *	that reaches past the switch's table) are written as
 *	%IBSW_LFT_NO_ROUTE. More than 64 is the same as 64.
 *
 * Context: any.
 */
void ibsw_smp_lft_put(u8 data[IB_SMP_DATA_SIZE], const u8 *port,
		      unsigned int nr)
{
	nr = min(nr, IBSW_SMP_LFT_BLOCK);
	memcpy(data, port, nr);
	memset(data + nr, IBSW_LFT_NO_ROUTE, IBSW_SMP_LFT_BLOCK - nr);
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_smp_lft_put);

/**
 * ibsw_smp_lft_get() - decode a LinearForwardingTable block
 * @data: the SMP data area of a Set
 * @port: the output ports of the block's 64 LIDs, filled in
 *
 * Context: any.
 */
void ibsw_smp_lft_get(const u8 data[IB_SMP_DATA_SIZE],
		      u8 port[IBSW_SMP_LFT_BLOCK])
{
	memcpy(port, data, IBSW_SMP_LFT_BLOCK);
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_smp_lft_get);

/* ---- MulticastForwardingTable (0x001B): 32 port masks of 16 bits ---- */

/**
 * ibsw_smp_mft_put() - encode a MulticastForwardingTable block
 * @data: the SMP data area
 * @mask: port masks of the block's 32 MLIDs; bit j is port 16 p + j of
 *	the block's position p
 *
 * Context: any.
 */
void ibsw_smp_mft_put(u8 data[IB_SMP_DATA_SIZE],
		      const u16 mask[IBSW_SMP_MFT_BLOCK])
{
	unsigned int i;

	for (i = 0; i < IBSW_SMP_MFT_BLOCK; i++)
		put_unaligned_be16(mask[i], data + 2 * i);
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_smp_mft_put);

/**
 * ibsw_smp_mft_get() - decode a MulticastForwardingTable block
 * @data: the SMP data area of a Set
 * @mask: port masks of the block's 32 MLIDs, filled in
 *
 * Context: any.
 */
void ibsw_smp_mft_get(const u8 data[IB_SMP_DATA_SIZE],
		      u16 mask[IBSW_SMP_MFT_BLOCK])
{
	unsigned int i;

	for (i = 0; i < IBSW_SMP_MFT_BLOCK; i++)
		mask[i] = get_unaligned_be16(data + 2 * i);
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_smp_mft_get);

/* ---- PortInfo: what every ibsw port reports, and its state machine ---- */

/**
 * ibsw_smp_port_info_init() - the PortInfo every ibsw port starts from
 * @pi: filled in
 * @width: LinkWidthSupported, Enabled and Active, one IB_WIDTH_*
 * @speed: LinkSpeedSupported, Enabled and Active, one IBSW_PI_SPEED_*
 * @vl_cap: VLCap and OperationalVLs, IBSW_PI_VL_CAP_*
 *
 * The switches' ports, the emulated CAs' and the management HCA's share
 * these: a link that runs at the one width and speed it was built with,
 * MTU 4096 both ways, LinkDownDefaultState Polling, the longest HOQLife
 * (a switch port reports its own) and VLStallCount, one GUID,
 * RespTimeValue 8 (1 ms). Everything else is 0, VLArbitrationHighCap and
 * LowCap too: a port that answers the VLArbitrationTable sets them.
 *
 * Context: any.
 */
void ibsw_smp_port_info_init(struct ibsw_smp_port_info *pi, u8 width,
			     u8 speed, u8 vl_cap)
{
	memset(pi, 0, sizeof(*pi));
	pi->link_width_enabled = width;
	pi->link_width_supported = width;
	pi->link_width_active = width;
	pi->link_speed_supported = speed;
	pi->link_speed_enabled = speed;
	pi->link_speed_active = speed;
	pi->link_down_default_state = IBSW_PI_LINK_DOWN_POLLING;
	pi->mtu_cap = IB_MTU_4096;
	pi->neighbor_mtu = IB_MTU_4096;
	pi->vl_cap = vl_cap;
	pi->operational_vls = vl_cap;
	pi->vl_stall_count = 7;
	pi->hoq_life = 31;
	pi->guid_cap = 1;
	pi->resp_time_value = 8;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_smp_port_info_init);

/**
 * ibsw_smp_port_state() - the PortState a PortInfo Set leaves a port in
 * @state: the port's logical state, IB_PORT_DOWN to IB_PORT_ACTIVE
 * @want: PortState of the Set
 * @link_up: the physical link is up (LinkUp)
 * @next: filled in with the new state when the Set is valid
 *
 * The state machine of IBA vol 1, 7.2: NOP (0) keeps the state; Down (1)
 * retrains a live link, which comes back in INIT, and leaves a dead one
 * Down; ARMED only from INIT, ACTIVE only from ARMED. A Set to the state
 * the port is in is accepted (OpenSM's NO_CHANGE pass relies on it). INIT
 * cannot be asked for (a link reaches it by training), and a port whose
 * link is down is Down whatever @state says.
 *
 * Context: any.
 * Return: 0, or -EINVAL if the transition is not allowed.
 */
int ibsw_smp_port_state(u8 state, u8 want, bool link_up, u8 *next)
{
	if (!link_up)
		state = IB_PORT_DOWN;
	switch (want) {
	case IB_PORT_NOP:
		*next = state;
		return 0;
	case IB_PORT_DOWN:
		*next = link_up ? IB_PORT_INIT : IB_PORT_DOWN;
		return 0;
	case IB_PORT_ARMED:
		if (state != IB_PORT_INIT && state != IB_PORT_ARMED)
			return -EINVAL;
		*next = IB_PORT_ARMED;
		return 0;
	case IB_PORT_ACTIVE:
		if (state != IB_PORT_ARMED && state != IB_PORT_ACTIVE)
			return -EINVAL;
		*next = IB_PORT_ACTIVE;
		return 0;
	default:
		return -EINVAL;
	}
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_smp_port_state);

/* ---- GUIDInfo (0x0014) ---- */

/**
 * ibsw_smp_guid_info_put() - encode a block of GUIDInfo
 * @data: the SMP data area
 * @guid: the block's 8 GUIDs, entry i at bytes 8i to 8i + 7
 *
 * Context: any.
 */
void ibsw_smp_guid_info_put(u8 data[IB_SMP_DATA_SIZE],
			    const u64 guid[IBSW_SMP_GUID_BLOCK])
{
	unsigned int i;

	for (i = 0; i < IBSW_SMP_GUID_BLOCK; i++)
		put_unaligned_be64(guid[i], data + 8 * i);
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_smp_guid_info_put);

/**
 * ibsw_smp_guid_info_get() - decode a block of GUIDInfo
 * @data: the SMP data area of a Set
 * @guid: filled in with the block's 8 GUIDs
 *
 * Context: any.
 */
void ibsw_smp_guid_info_get(const u8 data[IB_SMP_DATA_SIZE],
			    u64 guid[IBSW_SMP_GUID_BLOCK])
{
	unsigned int i;

	for (i = 0; i < IBSW_SMP_GUID_BLOCK; i++)
		guid[i] = get_unaligned_be64(data + 8 * i);
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_smp_guid_info_get);

/* ---- attribute modifiers of the SL-to-VL and VL arbitration tables ---- */

#define SL2VL_MOD_OUT		GENMASK(7, 0)
#define SL2VL_MOD_IN		GENMASK(15, 8)
#define VLARB_MOD_PORT		GENMASK(15, 0)
#define VLARB_MOD_BLOCK		GENMASK(31, 16)

/**
 * ibsw_smp_sl2vl_mod() - decode a switch's SLtoVLMappingTable modifier
 * @mod: the AttributeModifier, host order
 * @in: filled in: input port, bits 15..8
 * @out: filled in: output port, bits 7..0
 *
 * Bits 16 and 17 ask for the optimized forms (every input or every output
 * port at once), which only a switch advertising
 * OptimizedSLtoVLMappingProgramming takes; ibsw's do not, so those bits,
 * like the reserved 31..18, make the modifier invalid. Whether the ports
 * exist is the SMA's to check. A CA ignores the modifier.
 *
 * Context: any.
 * Return: 0, or -EINVAL if a bit above 15 is set.
 */
int ibsw_smp_sl2vl_mod(u32 mod, unsigned int *in, unsigned int *out)
{
	if (mod & ~(SL2VL_MOD_IN | SL2VL_MOD_OUT))
		return -EINVAL;
	*in = FIELD_GET(SL2VL_MOD_IN, mod);
	*out = FIELD_GET(SL2VL_MOD_OUT, mod);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_smp_sl2vl_mod);

/**
 * ibsw_smp_vlarb_mod() - decode a VLArbitrationTable modifier
 * @mod: the AttributeModifier, host order
 * @high: filled in: the block is of the high-priority list
 * @first: filled in: the list's entry the block starts at, 0 or 32
 * @port: filled in: bits 15..0, a switch's output port (a CA ignores it)
 *
 * Bits 31..16 are the block: 1 the low-priority list's entries 0-31, 2
 * its entries 32-63, 3 and 4 the same of the high-priority list.
 *
 * Context: any.
 * Return: 0, or -EINVAL for a block other than 1 to 4.
 */
int ibsw_smp_vlarb_mod(u32 mod, bool *high, unsigned int *first,
		       unsigned int *port)
{
	unsigned int block = FIELD_GET(VLARB_MOD_BLOCK, mod);

	if (block < 1 || block > 4)
		return -EINVAL;
	*high = block >= 3;
	*first = (block - 1) % 2 * IBSW_SMP_VLARB_BLOCK;
	*port = FIELD_GET(VLARB_MOD_PORT, mod);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_smp_vlarb_mod);

/**
 * ibsw_smp_vlarb_block() - one block of an arbitration list
 * @list: the list, %IBSW_VLARB_MAX_ENTRIES entries
 * @nr: entries in use; the rest read as VL 0, weight 0 (skipped)
 * @first: the block's first entry, 0 or 32
 * @block: filled in with entries @first to @first + 31
 *
 * Context: any.
 */
void ibsw_smp_vlarb_block(const struct ibsw_vlarb_entry *list,
			  unsigned int nr, unsigned int first,
			  struct ibsw_vlarb_entry block[IBSW_SMP_VLARB_BLOCK])
{
	unsigned int i;

	for (i = 0; i < IBSW_SMP_VLARB_BLOCK; i++)
		block[i] = first + i < nr ? list[first + i] :
			   (struct ibsw_vlarb_entry){};
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_smp_vlarb_block);

/**
 * ibsw_smp_vlarb_merge() - write a block into an arbitration list
 * @list: the list, %IBSW_VLARB_MAX_ENTRIES entries
 * @nr: entries in use before
 * @first: the block's first entry, 0 or 32
 * @block: entries @first to @first + 31, from a Set
 *
 * The IBA's list has a fixed length, where an entry of weight 0 is
 * skipped; ibsw's stops at its last entry in use. The entries between @nr
 * and the block become VL 0, weight 0; and the list then ends after its
 * last entry that is not VL 0, weight 0, so that it reads back exactly as
 * written and no padding shows in ibswctl.
 *
 * Context: any.
 * Return: the entries in use now.
 */
unsigned int ibsw_smp_vlarb_merge(struct ibsw_vlarb_entry *list,
				  unsigned int nr, unsigned int first,
				  const struct ibsw_vlarb_entry
				  block[IBSW_SMP_VLARB_BLOCK])
{
	unsigned int i;

	nr = min_t(unsigned int, nr, IBSW_VLARB_MAX_ENTRIES);
	for (i = nr; i < IBSW_VLARB_MAX_ENTRIES; i++)
		list[i] = (struct ibsw_vlarb_entry){};
	for (i = 0; i < IBSW_SMP_VLARB_BLOCK; i++)
		if (first + i < IBSW_VLARB_MAX_ENTRIES)
			list[first + i] = block[i];
	for (nr = IBSW_VLARB_MAX_ENTRIES; nr; nr--)
		if (list[nr - 1].vl || list[nr - 1].weight)
			break;
	return nr;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_smp_vlarb_merge);
