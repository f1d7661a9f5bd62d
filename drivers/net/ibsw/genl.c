// SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause)
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/ibsw.yaml */
/* YNL-GEN kernel source */

#include <net/netlink.h>
#include <net/genetlink.h>

#include "genl.h"

#include <uapi/linux/ibsw.h>

/* Integer value ranges */
static const struct netlink_range_validation ibsw_a_addr_lid_range = {
	.min	= 1ULL,
	.max	= IBSW_LID_UNICAST_MAX,
};

static const struct netlink_range_validation ibsw_a_vl_buffer_credits_range = {
	.max	= 65535ULL,
};

static const struct netlink_range_validation ibsw_a_port_lid_range = {
	.max	= IBSW_LID_UNICAST_MAX,
};

/* Common nested types */
const struct nla_policy ibsw_addr_nl_policy[IBSW_A_ADDR_LID + 1] = {
	[IBSW_A_ADDR_IP] = NLA_POLICY_EXACT_LEN(16),
	[IBSW_A_ADDR_LID] = NLA_POLICY_FULL_RANGE(NLA_U32, &ibsw_a_addr_lid_range),
};

const struct nla_policy ibsw_cc_port_nl_policy[IBSW_A_CC_PORT_VLS_CONGESTED + 1] = {
	[IBSW_A_CC_PORT_PORT] = NLA_POLICY_RANGE(NLA_U32, 1, IBSW_MAX_PORTS),
	[IBSW_A_CC_PORT_VALID] = NLA_POLICY_MAX(NLA_U8, 1),
	[IBSW_A_CC_PORT_CONTROL_TYPE] = NLA_POLICY_MAX(NLA_U8, 1),
	[IBSW_A_CC_PORT_THRESHOLD] = NLA_POLICY_MAX(NLA_U8, IBSW_CC_THRESHOLD_MAX),
	[IBSW_A_CC_PORT_PACKET_SIZE] = { .type = NLA_U8, },
	[IBSW_A_CC_PORT_MARKING_RATE] = { .type = NLA_U16, },
	[IBSW_A_CC_PORT_VLS_CONGESTED] = { .type = NLA_U32, },
};

const struct nla_policy ibsw_counters_nl_policy[IBSW_A_COUNTERS_SW_HOQ_LIFETIME_LIMIT_DISCARDS + 1] = {
	[IBSW_A_COUNTERS_XMIT_DATA] = { .type = NLA_UINT, },
	[IBSW_A_COUNTERS_RCV_DATA] = { .type = NLA_UINT, },
	[IBSW_A_COUNTERS_XMIT_PKTS] = { .type = NLA_UINT, },
	[IBSW_A_COUNTERS_RCV_PKTS] = { .type = NLA_UINT, },
	[IBSW_A_COUNTERS_XMIT_WAIT] = { .type = NLA_UINT, },
	[IBSW_A_COUNTERS_XMIT_DISCARDS] = { .type = NLA_UINT, },
	[IBSW_A_COUNTERS_RCV_ERRORS] = { .type = NLA_UINT, },
	[IBSW_A_COUNTERS_RCV_SWITCH_RELAY_ERRORS] = { .type = NLA_UINT, },
	[IBSW_A_COUNTERS_RCV_FOREIGN] = { .type = NLA_UINT, },
	[IBSW_A_COUNTERS_RCV_VL_DISCARDS] = { .type = NLA_UINT, },
	[IBSW_A_COUNTERS_RCV_OVERSIZE] = { .type = NLA_UINT, },
	[IBSW_A_COUNTERS_NEIGH_REPLIES] = { .type = NLA_UINT, },
	[IBSW_A_COUNTERS_EXCESSIVE_BUFFER_OVERRUN_ERRORS] = { .type = NLA_UINT, },
	[IBSW_A_COUNTERS_XMIT_TIME_CONG] = { .type = NLA_UINT, },
	[IBSW_A_COUNTERS_XMIT_FECN] = { .type = NLA_UINT, },
	[IBSW_A_COUNTERS_RCV_FECN] = { .type = NLA_UINT, },
	[IBSW_A_COUNTERS_RCV_BECN] = { .type = NLA_UINT, },
	[IBSW_A_COUNTERS_XMIT_LATE] = { .type = NLA_UINT, },
	[IBSW_A_COUNTERS_HCA_DISCARDS] = { .type = NLA_UINT, },
	[IBSW_A_COUNTERS_RCV_CONSTRAINT_ERRORS] = { .type = NLA_UINT, },
	[IBSW_A_COUNTERS_VL15_DROPPED] = { .type = NLA_UINT, },
	[IBSW_A_COUNTERS_MKEY_VIOLATIONS] = { .type = NLA_UINT, },
	[IBSW_A_COUNTERS_INACTIVE_DISCARDS] = { .type = NLA_UINT, },
	[IBSW_A_COUNTERS_SW_HOQ_LIFETIME_LIMIT_DISCARDS] = { .type = NLA_UINT, },
};

const struct nla_policy ibsw_sl2vl_nl_policy[IBSW_A_SL2VL_MAP + 1] = {
	[IBSW_A_SL2VL_IN_PORT] = NLA_POLICY_MAX(NLA_U32, IBSW_MAX_PORTS),
	[IBSW_A_SL2VL_MAP] = NLA_POLICY_EXACT_LEN(16),
};

const struct nla_policy ibsw_vl_nl_policy[IBSW_A_VL_COUNTERS + 1] = {
	[IBSW_A_VL_VL] = NLA_POLICY_MAX(NLA_U32, 14),
	[IBSW_A_VL_BUFFER_CREDITS] = NLA_POLICY_FULL_RANGE(NLA_U32, &ibsw_a_vl_buffer_credits_range),
	[IBSW_A_VL_BUFFER_FREE] = { .type = NLA_U32, },
	[IBSW_A_VL_COUNTERS] = NLA_POLICY_NESTED(ibsw_counters_nl_policy),
};

const struct nla_policy ibsw_vlarb_entry_nl_policy[IBSW_A_VLARB_ENTRY_WEIGHT + 1] = {
	[IBSW_A_VLARB_ENTRY_VL] = NLA_POLICY_MAX(NLA_U32, 14),
	[IBSW_A_VLARB_ENTRY_WEIGHT] = NLA_POLICY_MAX(NLA_U32, 255),
};

/* IBSW_CMD_FABRIC_SET - do */
static const struct nla_policy ibsw_fabric_set_nl_policy[IBSW_A_FABRIC_CLOCK_PPM + 1] = {
	[IBSW_A_FABRIC_TIME_SCALE] = NLA_POLICY_RANGE(NLA_U32, 1, IBSW_TIME_SCALE_MAX),
	[IBSW_A_FABRIC_PACING] = NLA_POLICY_MAX(NLA_U8, 1),
	[IBSW_A_FABRIC_CLOCK_SEED] = { .type = NLA_U32, },
	[IBSW_A_FABRIC_CLOCK_PPM] = NLA_POLICY_MAX(NLA_U32, IBSW_CLOCK_PPM_MAX),
};

/* IBSW_CMD_ADDR_SET - do */
static const struct nla_policy ibsw_addr_set_nl_policy[IBSW_A_FABRIC_ADDR + 1] = {
	[IBSW_A_FABRIC_ADDR] = NLA_POLICY_NESTED(ibsw_addr_nl_policy),
};

/* IBSW_CMD_SWITCH_NEW - do */
static const struct nla_policy ibsw_switch_new_nl_policy[IBSW_A_SWITCH_NR_PORTS + 1] = {
	[IBSW_A_SWITCH_NAME] = { .type = NLA_NUL_STRING, .len = IBSW_NAME_LEN, },
	[IBSW_A_SWITCH_NR_PORTS] = NLA_POLICY_RANGE(NLA_U32, 1, IBSW_MAX_PORTS),
};

/* IBSW_CMD_SWITCH_DEL - do */
static const struct nla_policy ibsw_switch_del_nl_policy[IBSW_A_SWITCH_NAME + 1] = {
	[IBSW_A_SWITCH_NAME] = { .type = NLA_NUL_STRING, .len = IBSW_NAME_LEN, },
};

/* IBSW_CMD_SWITCH_GET - do */
static const struct nla_policy ibsw_switch_get_nl_policy[IBSW_A_SWITCH_NAME + 1] = {
	[IBSW_A_SWITCH_NAME] = { .type = NLA_NUL_STRING, .len = IBSW_NAME_LEN, },
};

/* IBSW_CMD_LFT_SET - do */
static const struct nla_policy ibsw_lft_set_nl_policy[IBSW_A_SWITCH_LFT + 1] = {
	[IBSW_A_SWITCH_NAME] = { .type = NLA_NUL_STRING, .len = IBSW_NAME_LEN, },
	[IBSW_A_SWITCH_LFT] = { .type = NLA_BINARY, },
};

/* IBSW_CMD_LFT_GET - do */
static const struct nla_policy ibsw_lft_get_nl_policy[IBSW_A_SWITCH_NAME + 1] = {
	[IBSW_A_SWITCH_NAME] = { .type = NLA_NUL_STRING, .len = IBSW_NAME_LEN, },
};

/* IBSW_CMD_PORT_GET - do */
static const struct nla_policy ibsw_port_get_do_nl_policy[IBSW_A_PORT_PORT + 1] = {
	[IBSW_A_PORT_SWITCH_NAME] = { .type = NLA_NUL_STRING, .len = IBSW_NAME_LEN, },
	[IBSW_A_PORT_PORT] = NLA_POLICY_RANGE(NLA_U32, 1, IBSW_MAX_PORTS),
};

/* IBSW_CMD_PORT_GET - dump */
static const struct nla_policy ibsw_port_get_dump_nl_policy[IBSW_A_PORT_SWITCH_NAME + 1] = {
	[IBSW_A_PORT_SWITCH_NAME] = { .type = NLA_NUL_STRING, .len = IBSW_NAME_LEN, },
};

/* IBSW_CMD_PORT_SET - do */
static const struct nla_policy ibsw_port_set_nl_policy[IBSW_A_PORT_HOQ_LIFE + 1] = {
	[IBSW_A_PORT_SWITCH_NAME] = { .type = NLA_NUL_STRING, .len = IBSW_NAME_LEN, },
	[IBSW_A_PORT_PORT] = NLA_POLICY_RANGE(NLA_U32, 1, IBSW_MAX_PORTS),
	[IBSW_A_PORT_WIDTH] = NLA_POLICY_MAX(NLA_U32, 3),
	[IBSW_A_PORT_SPEED] = NLA_POLICY_MAX(NLA_U32, 7),
	[IBSW_A_PORT_NR_VLS] = NLA_POLICY_RANGE(NLA_U32, 1, IBSW_NR_DATA_VLS),
	[IBSW_A_PORT_LID] = NLA_POLICY_FULL_RANGE(NLA_U32, &ibsw_a_port_lid_range),
	[IBSW_A_PORT_VL] = NLA_POLICY_NESTED(ibsw_vl_nl_policy),
	[IBSW_A_PORT_VLARB_HIGH] = NLA_POLICY_NESTED(ibsw_vlarb_entry_nl_policy),
	[IBSW_A_PORT_VLARB_LOW] = NLA_POLICY_NESTED(ibsw_vlarb_entry_nl_policy),
	[IBSW_A_PORT_VLARB_HIGH_LIMIT] = NLA_POLICY_MAX(NLA_U32, 255),
	[IBSW_A_PORT_SL2VL] = NLA_POLICY_NESTED(ibsw_sl2vl_nl_policy),
	[IBSW_A_PORT_HCA_RATE] = { .type = NLA_UINT, },
	[IBSW_A_PORT_HOQ_LIFE] = NLA_POLICY_MAX(NLA_U32, 31),
};

/* IBSW_CMD_LINK_NEW - do */
static const struct nla_policy ibsw_link_new_nl_policy[IBSW_A_PORT_PEER_PORT + 1] = {
	[IBSW_A_PORT_SWITCH_NAME] = { .type = NLA_NUL_STRING, .len = IBSW_NAME_LEN, },
	[IBSW_A_PORT_PORT] = NLA_POLICY_RANGE(NLA_U32, 1, IBSW_MAX_PORTS),
	[IBSW_A_PORT_PEER_SWITCH_NAME] = { .type = NLA_NUL_STRING, .len = IBSW_NAME_LEN, },
	[IBSW_A_PORT_PEER_PORT] = NLA_POLICY_RANGE(NLA_U32, 1, IBSW_MAX_PORTS),
	[IBSW_A_PORT_WIDTH] = NLA_POLICY_MAX(NLA_U32, 3),
	[IBSW_A_PORT_SPEED] = NLA_POLICY_MAX(NLA_U32, 7),
};

/* IBSW_CMD_LINK_DEL - do */
static const struct nla_policy ibsw_link_del_nl_policy[IBSW_A_PORT_PORT + 1] = {
	[IBSW_A_PORT_SWITCH_NAME] = { .type = NLA_NUL_STRING, .len = IBSW_NAME_LEN, },
	[IBSW_A_PORT_PORT] = NLA_POLICY_RANGE(NLA_U32, 1, IBSW_MAX_PORTS),
};

/* IBSW_CMD_HOST_NEW - do */
static const struct nla_policy ibsw_host_new_nl_policy[IBSW_A_PORT_HCA_RATE + 1] = {
	[IBSW_A_PORT_SWITCH_NAME] = { .type = NLA_NUL_STRING, .len = IBSW_NAME_LEN, },
	[IBSW_A_PORT_PORT] = NLA_POLICY_RANGE(NLA_U32, 1, IBSW_MAX_PORTS),
	[IBSW_A_PORT_IFNAME] = { .type = NLA_NUL_STRING, .len = 15, },
	[IBSW_A_PORT_NETNS_FD] = { .type = NLA_S32, },
	[IBSW_A_PORT_NETNS_PID] = { .type = NLA_U32, },
	[IBSW_A_PORT_MAC] = NLA_POLICY_EXACT_LEN(6),
	[IBSW_A_PORT_LID] = NLA_POLICY_FULL_RANGE(NLA_U32, &ibsw_a_port_lid_range),
	[IBSW_A_PORT_WIDTH] = NLA_POLICY_MAX(NLA_U32, 3),
	[IBSW_A_PORT_SPEED] = NLA_POLICY_MAX(NLA_U32, 7),
	[IBSW_A_PORT_HCA_RATE] = { .type = NLA_UINT, },
};

/* IBSW_CMD_HOST_DEL - do */
static const struct nla_policy ibsw_host_del_nl_policy[IBSW_A_PORT_PORT + 1] = {
	[IBSW_A_PORT_SWITCH_NAME] = { .type = NLA_NUL_STRING, .len = IBSW_NAME_LEN, },
	[IBSW_A_PORT_PORT] = NLA_POLICY_RANGE(NLA_U32, 1, IBSW_MAX_PORTS),
};

/* IBSW_CMD_COUNTERS_CLEAR - do */
static const struct nla_policy ibsw_counters_clear_nl_policy[IBSW_A_PORT_PORT + 1] = {
	[IBSW_A_PORT_SWITCH_NAME] = { .type = NLA_NUL_STRING, .len = IBSW_NAME_LEN, },
	[IBSW_A_PORT_PORT] = NLA_POLICY_RANGE(NLA_U32, 1, IBSW_MAX_PORTS),
};

/* IBSW_CMD_CC_GET - do */
static const struct nla_policy ibsw_cc_get_nl_policy[IBSW_A_CC_SWITCH_NAME + 1] = {
	[IBSW_A_CC_SWITCH_NAME] = { .type = NLA_NUL_STRING, .len = IBSW_NAME_LEN, },
};

/* IBSW_CMD_CC_SET - do */
static const struct nla_policy ibsw_cc_set_nl_policy[IBSW_A_CC_FILL_COMPARE + 1] = {
	[IBSW_A_CC_SWITCH_NAME] = { .type = NLA_NUL_STRING, .len = IBSW_NAME_LEN, },
	[IBSW_A_CC_CONTROL_MAP] = NLA_POLICY_MASK(NLA_U32, 0x1f),
	[IBSW_A_CC_VICTIM_MASK] = NLA_POLICY_EXACT_LEN(32),
	[IBSW_A_CC_CREDIT_MASK] = NLA_POLICY_EXACT_LEN(32),
	[IBSW_A_CC_THRESHOLD] = NLA_POLICY_MAX(NLA_U8, IBSW_CC_THRESHOLD_MAX),
	[IBSW_A_CC_PACKET_SIZE] = { .type = NLA_U8, },
	[IBSW_A_CC_CS_THRESHOLD] = NLA_POLICY_MAX(NLA_U8, IBSW_CC_THRESHOLD_MAX),
	[IBSW_A_CC_CS_RETURN_DELAY] = { .type = NLA_U16, },
	[IBSW_A_CC_MARKING_RATE] = { .type = NLA_U16, },
	[IBSW_A_CC_PORT_SETTING] = NLA_POLICY_NESTED(ibsw_cc_port_nl_policy),
	[IBSW_A_CC_FILL_COMPARE] = NLA_POLICY_MAX(NLA_U8, 2),
};

/* IBSW_CMD_CC_LOG_GET - do */
static const struct nla_policy ibsw_cc_log_get_nl_policy[IBSW_A_CC_LOG_SWITCH_NAME + 1] = {
	[IBSW_A_CC_LOG_SWITCH_NAME] = { .type = NLA_NUL_STRING, .len = IBSW_NAME_LEN, },
};

/* IBSW_CMD_CC_LOG_CLEAR - do */
static const struct nla_policy ibsw_cc_log_clear_nl_policy[IBSW_A_CC_LOG_SWITCH_NAME + 1] = {
	[IBSW_A_CC_LOG_SWITCH_NAME] = { .type = NLA_NUL_STRING, .len = IBSW_NAME_LEN, },
};

/* IBSW_CMD_MGMT_NEW - do */
static const struct nla_policy ibsw_mgmt_new_nl_policy[IBSW_A_PORT_GUID + 1] = {
	[IBSW_A_PORT_SWITCH_NAME] = { .type = NLA_NUL_STRING, .len = IBSW_NAME_LEN, },
	[IBSW_A_PORT_PORT] = NLA_POLICY_RANGE(NLA_U32, 1, IBSW_MAX_PORTS),
	[IBSW_A_PORT_IBDEV_NAME] = { .type = NLA_NUL_STRING, .len = 63, },
	[IBSW_A_PORT_GUID] = { .type = NLA_UINT, },
	[IBSW_A_PORT_LID] = NLA_POLICY_FULL_RANGE(NLA_U32, &ibsw_a_port_lid_range),
	[IBSW_A_PORT_NETNS_FD] = { .type = NLA_S32, },
	[IBSW_A_PORT_NETNS_PID] = { .type = NLA_U32, },
};

/* IBSW_CMD_MGMT_DEL - do */
static const struct nla_policy ibsw_mgmt_del_nl_policy[IBSW_A_PORT_PORT + 1] = {
	[IBSW_A_PORT_SWITCH_NAME] = { .type = NLA_NUL_STRING, .len = IBSW_NAME_LEN, },
	[IBSW_A_PORT_PORT] = NLA_POLICY_RANGE(NLA_U32, 1, IBSW_MAX_PORTS),
};

/* IBSW_CMD_REMOTE_NEW - do */
static const struct nla_policy ibsw_remote_new_nl_policy[IBSW_A_PORT_REMOTE_ID + 1] = {
	[IBSW_A_PORT_SWITCH_NAME] = { .type = NLA_NUL_STRING, .len = IBSW_NAME_LEN, },
	[IBSW_A_PORT_PORT] = NLA_POLICY_RANGE(NLA_U32, 1, IBSW_MAX_PORTS),
	[IBSW_A_PORT_IFNAME] = { .type = NLA_NUL_STRING, .len = 15, },
	[IBSW_A_PORT_REMOTE_ID] = { .type = NLA_U32, },
	[IBSW_A_PORT_MAC] = NLA_POLICY_EXACT_LEN(6),
	[IBSW_A_PORT_WIDTH] = NLA_POLICY_MAX(NLA_U32, 3),
	[IBSW_A_PORT_SPEED] = NLA_POLICY_MAX(NLA_U32, 7),
};

/* IBSW_CMD_REMOTE_DEL - do */
static const struct nla_policy ibsw_remote_del_nl_policy[IBSW_A_PORT_PORT + 1] = {
	[IBSW_A_PORT_SWITCH_NAME] = { .type = NLA_NUL_STRING, .len = IBSW_NAME_LEN, },
	[IBSW_A_PORT_PORT] = NLA_POLICY_RANGE(NLA_U32, 1, IBSW_MAX_PORTS),
};

/* Ops table for ibsw */
static const struct genl_split_ops ibsw_nl_ops[] = {
	{
		.cmd		= IBSW_CMD_FABRIC_GET,
		.pre_doit	= ibsw_nl_pre_doit,
		.doit		= ibsw_nl_fabric_get_doit,
		.post_doit	= ibsw_nl_post_doit,
		.flags		= GENL_CMD_CAP_DO,
	},
	{
		.cmd		= IBSW_CMD_FABRIC_SET,
		.pre_doit	= ibsw_nl_pre_doit,
		.doit		= ibsw_nl_fabric_set_doit,
		.post_doit	= ibsw_nl_post_doit,
		.policy		= ibsw_fabric_set_nl_policy,
		.maxattr	= IBSW_A_FABRIC_CLOCK_PPM,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= IBSW_CMD_ADDR_SET,
		.pre_doit	= ibsw_nl_pre_doit,
		.doit		= ibsw_nl_addr_set_doit,
		.post_doit	= ibsw_nl_post_doit,
		.policy		= ibsw_addr_set_nl_policy,
		.maxattr	= IBSW_A_FABRIC_ADDR,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd	= IBSW_CMD_ADDR_GET,
		.dumpit	= ibsw_nl_addr_get_dumpit,
		.flags	= GENL_CMD_CAP_DUMP,
	},
	{
		.cmd		= IBSW_CMD_SWITCH_NEW,
		.pre_doit	= ibsw_nl_pre_doit,
		.doit		= ibsw_nl_switch_new_doit,
		.post_doit	= ibsw_nl_post_doit,
		.policy		= ibsw_switch_new_nl_policy,
		.maxattr	= IBSW_A_SWITCH_NR_PORTS,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= IBSW_CMD_SWITCH_DEL,
		.pre_doit	= ibsw_nl_pre_doit,
		.doit		= ibsw_nl_switch_del_doit,
		.post_doit	= ibsw_nl_post_doit,
		.policy		= ibsw_switch_del_nl_policy,
		.maxattr	= IBSW_A_SWITCH_NAME,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= IBSW_CMD_SWITCH_GET,
		.pre_doit	= ibsw_nl_pre_doit,
		.doit		= ibsw_nl_switch_get_doit,
		.post_doit	= ibsw_nl_post_doit,
		.policy		= ibsw_switch_get_nl_policy,
		.maxattr	= IBSW_A_SWITCH_NAME,
		.flags		= GENL_CMD_CAP_DO,
	},
	{
		.cmd	= IBSW_CMD_SWITCH_GET,
		.dumpit	= ibsw_nl_switch_get_dumpit,
		.flags	= GENL_CMD_CAP_DUMP,
	},
	{
		.cmd		= IBSW_CMD_LFT_SET,
		.pre_doit	= ibsw_nl_pre_doit,
		.doit		= ibsw_nl_lft_set_doit,
		.post_doit	= ibsw_nl_post_doit,
		.policy		= ibsw_lft_set_nl_policy,
		.maxattr	= IBSW_A_SWITCH_LFT,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= IBSW_CMD_LFT_GET,
		.pre_doit	= ibsw_nl_pre_doit,
		.doit		= ibsw_nl_lft_get_doit,
		.post_doit	= ibsw_nl_post_doit,
		.policy		= ibsw_lft_get_nl_policy,
		.maxattr	= IBSW_A_SWITCH_NAME,
		.flags		= GENL_CMD_CAP_DO,
	},
	{
		.cmd		= IBSW_CMD_PORT_GET,
		.pre_doit	= ibsw_nl_pre_doit,
		.doit		= ibsw_nl_port_get_doit,
		.post_doit	= ibsw_nl_post_doit,
		.policy		= ibsw_port_get_do_nl_policy,
		.maxattr	= IBSW_A_PORT_PORT,
		.flags		= GENL_CMD_CAP_DO,
	},
	{
		.cmd		= IBSW_CMD_PORT_GET,
		.start		= ibsw_nl_port_get_dump_start,
		.dumpit		= ibsw_nl_port_get_dumpit,
		.policy		= ibsw_port_get_dump_nl_policy,
		.maxattr	= IBSW_A_PORT_SWITCH_NAME,
		.flags		= GENL_CMD_CAP_DUMP,
	},
	{
		.cmd		= IBSW_CMD_PORT_SET,
		.pre_doit	= ibsw_nl_pre_doit,
		.doit		= ibsw_nl_port_set_doit,
		.post_doit	= ibsw_nl_post_doit,
		.policy		= ibsw_port_set_nl_policy,
		.maxattr	= IBSW_A_PORT_HOQ_LIFE,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= IBSW_CMD_LINK_NEW,
		.pre_doit	= ibsw_nl_pre_doit,
		.doit		= ibsw_nl_link_new_doit,
		.post_doit	= ibsw_nl_post_doit,
		.policy		= ibsw_link_new_nl_policy,
		.maxattr	= IBSW_A_PORT_PEER_PORT,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= IBSW_CMD_LINK_DEL,
		.pre_doit	= ibsw_nl_pre_doit,
		.doit		= ibsw_nl_link_del_doit,
		.post_doit	= ibsw_nl_post_doit,
		.policy		= ibsw_link_del_nl_policy,
		.maxattr	= IBSW_A_PORT_PORT,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= IBSW_CMD_HOST_NEW,
		.pre_doit	= ibsw_nl_pre_doit,
		.doit		= ibsw_nl_host_new_doit,
		.post_doit	= ibsw_nl_post_doit,
		.policy		= ibsw_host_new_nl_policy,
		.maxattr	= IBSW_A_PORT_HCA_RATE,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= IBSW_CMD_HOST_DEL,
		.pre_doit	= ibsw_nl_pre_doit,
		.doit		= ibsw_nl_host_del_doit,
		.post_doit	= ibsw_nl_post_doit,
		.policy		= ibsw_host_del_nl_policy,
		.maxattr	= IBSW_A_PORT_PORT,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= IBSW_CMD_COUNTERS_CLEAR,
		.pre_doit	= ibsw_nl_pre_doit,
		.doit		= ibsw_nl_counters_clear_doit,
		.post_doit	= ibsw_nl_post_doit,
		.policy		= ibsw_counters_clear_nl_policy,
		.maxattr	= IBSW_A_PORT_PORT,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= IBSW_CMD_CC_GET,
		.pre_doit	= ibsw_nl_pre_doit,
		.doit		= ibsw_nl_cc_get_doit,
		.post_doit	= ibsw_nl_post_doit,
		.policy		= ibsw_cc_get_nl_policy,
		.maxattr	= IBSW_A_CC_SWITCH_NAME,
		.flags		= GENL_CMD_CAP_DO,
	},
	{
		.cmd		= IBSW_CMD_CC_SET,
		.pre_doit	= ibsw_nl_pre_doit,
		.doit		= ibsw_nl_cc_set_doit,
		.post_doit	= ibsw_nl_post_doit,
		.policy		= ibsw_cc_set_nl_policy,
		.maxattr	= IBSW_A_CC_FILL_COMPARE,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= IBSW_CMD_CC_LOG_GET,
		.pre_doit	= ibsw_nl_pre_doit,
		.doit		= ibsw_nl_cc_log_get_doit,
		.post_doit	= ibsw_nl_post_doit,
		.policy		= ibsw_cc_log_get_nl_policy,
		.maxattr	= IBSW_A_CC_LOG_SWITCH_NAME,
		.flags		= GENL_CMD_CAP_DO,
	},
	{
		.cmd		= IBSW_CMD_CC_LOG_CLEAR,
		.pre_doit	= ibsw_nl_pre_doit,
		.doit		= ibsw_nl_cc_log_clear_doit,
		.post_doit	= ibsw_nl_post_doit,
		.policy		= ibsw_cc_log_clear_nl_policy,
		.maxattr	= IBSW_A_CC_LOG_SWITCH_NAME,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= IBSW_CMD_MGMT_NEW,
		.doit		= ibsw_nl_mgmt_new_doit,
		.policy		= ibsw_mgmt_new_nl_policy,
		.maxattr	= IBSW_A_PORT_GUID,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= IBSW_CMD_MGMT_DEL,
		.doit		= ibsw_nl_mgmt_del_doit,
		.policy		= ibsw_mgmt_del_nl_policy,
		.maxattr	= IBSW_A_PORT_PORT,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= IBSW_CMD_REMOTE_NEW,
		.pre_doit	= ibsw_nl_pre_doit,
		.doit		= ibsw_nl_remote_new_doit,
		.post_doit	= ibsw_nl_post_doit,
		.policy		= ibsw_remote_new_nl_policy,
		.maxattr	= IBSW_A_PORT_REMOTE_ID,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= IBSW_CMD_REMOTE_DEL,
		.pre_doit	= ibsw_nl_pre_doit,
		.doit		= ibsw_nl_remote_del_doit,
		.post_doit	= ibsw_nl_post_doit,
		.policy		= ibsw_remote_del_nl_policy,
		.maxattr	= IBSW_A_PORT_PORT,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
};

static const struct genl_multicast_group ibsw_nl_mcgrps[] = {
	[IBSW_NLGRP_MONITOR] = { "monitor", },
};

struct genl_family ibsw_nl_family __ro_after_init = {
	.name		= IBSW_FAMILY_NAME,
	.version	= IBSW_FAMILY_VERSION,
	.netnsok	= true,
	.parallel_ops	= true,
	.module		= THIS_MODULE,
	.split_ops	= ibsw_nl_ops,
	.n_split_ops	= ARRAY_SIZE(ibsw_nl_ops),
	.mcgrps		= ibsw_nl_mcgrps,
	.n_mcgrps	= ARRAY_SIZE(ibsw_nl_mcgrps),
};
