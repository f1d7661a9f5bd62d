/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/ibsw.yaml */
/* YNL-GEN kernel header */

#ifndef _LINUX_IBSW_GEN_H
#define _LINUX_IBSW_GEN_H

#include <net/netlink.h>
#include <net/genetlink.h>

#include <uapi/linux/ibsw.h>

/* Common nested types */
extern const struct nla_policy ibsw_addr_nl_policy[IBSW_A_ADDR_LID + 1];
extern const struct nla_policy ibsw_cc_port_nl_policy[IBSW_A_CC_PORT_VLS_CONGESTED + 1];
extern const struct nla_policy ibsw_counters_nl_policy[IBSW_A_COUNTERS_SW_HOQ_LIFETIME_LIMIT_DISCARDS + 1];
extern const struct nla_policy ibsw_sl2vl_nl_policy[IBSW_A_SL2VL_MAP + 1];
extern const struct nla_policy ibsw_vl_nl_policy[IBSW_A_VL_COUNTERS + 1];
extern const struct nla_policy ibsw_vlarb_entry_nl_policy[IBSW_A_VLARB_ENTRY_WEIGHT + 1];

int ibsw_nl_pre_doit(const struct genl_split_ops *ops, struct sk_buff *skb,
		     struct genl_info *info);
void
ibsw_nl_post_doit(const struct genl_split_ops *ops, struct sk_buff *skb,
		  struct genl_info *info);
int ibsw_nl_port_get_dump_start(struct netlink_callback *cb);

int ibsw_nl_fabric_get_doit(struct sk_buff *skb, struct genl_info *info);
int ibsw_nl_fabric_set_doit(struct sk_buff *skb, struct genl_info *info);
int ibsw_nl_addr_set_doit(struct sk_buff *skb, struct genl_info *info);
int ibsw_nl_addr_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int ibsw_nl_switch_new_doit(struct sk_buff *skb, struct genl_info *info);
int ibsw_nl_switch_del_doit(struct sk_buff *skb, struct genl_info *info);
int ibsw_nl_switch_get_doit(struct sk_buff *skb, struct genl_info *info);
int ibsw_nl_switch_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int ibsw_nl_lft_set_doit(struct sk_buff *skb, struct genl_info *info);
int ibsw_nl_lft_get_doit(struct sk_buff *skb, struct genl_info *info);
int ibsw_nl_port_get_doit(struct sk_buff *skb, struct genl_info *info);
int ibsw_nl_port_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int ibsw_nl_port_set_doit(struct sk_buff *skb, struct genl_info *info);
int ibsw_nl_link_new_doit(struct sk_buff *skb, struct genl_info *info);
int ibsw_nl_link_del_doit(struct sk_buff *skb, struct genl_info *info);
int ibsw_nl_host_new_doit(struct sk_buff *skb, struct genl_info *info);
int ibsw_nl_host_del_doit(struct sk_buff *skb, struct genl_info *info);
int ibsw_nl_counters_clear_doit(struct sk_buff *skb, struct genl_info *info);
int ibsw_nl_cc_get_doit(struct sk_buff *skb, struct genl_info *info);
int ibsw_nl_cc_set_doit(struct sk_buff *skb, struct genl_info *info);
int ibsw_nl_cc_log_get_doit(struct sk_buff *skb, struct genl_info *info);
int ibsw_nl_cc_log_clear_doit(struct sk_buff *skb, struct genl_info *info);
int ibsw_nl_mgmt_new_doit(struct sk_buff *skb, struct genl_info *info);
int ibsw_nl_mgmt_del_doit(struct sk_buff *skb, struct genl_info *info);
int ibsw_nl_remote_new_doit(struct sk_buff *skb, struct genl_info *info);
int ibsw_nl_remote_del_doit(struct sk_buff *skb, struct genl_info *info);

enum {
	IBSW_NLGRP_MONITOR,
};

extern struct genl_family ibsw_nl_family;

#endif /* _LINUX_IBSW_GEN_H */
