/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What netlink.c shares with netlink_cc.c: request checks, and the helpers
 * through which every reply and every notification is built. All of them
 * need process context and RTNL, which the do ops' pre_doit takes for the
 * handlers.
 */
#ifndef _IBSW_NETLINK_H
#define _IBSW_NETLINK_H

#include <linux/types.h>

struct genl_info;
struct ibsw_switch;
struct netlink_ext_ack;
struct nlattr;
struct sk_buff;

/**
 * typedef ibsw_nl_fill_t - put the attributes of a message
 * @msg: the message, its header put
 * @info: the request a reply answers; NULL in a notification
 * @arg: the caller's
 *
 * A reply's fill may do the request's work first: the reply then exists
 * before anything changes, and cannot fail once it has.
 *
 * Return: 0 or an error, which a reply passes on to the request.
 * -EMSGSIZE is a bug: messages are sized for their content.
 */
typedef int (*ibsw_nl_fill_t)(struct sk_buff *msg, struct genl_info *info,
			      const void *arg);

bool ibsw_nl_missing(struct genl_info *info, unsigned int attr,
		     const char *name);
bool ibsw_nl_nest_missing(struct netlink_ext_ack *extack,
			  const struct nlattr *nest, struct nlattr **tb,
			  unsigned int attr, const char *what,
			  const char *name);
struct ibsw_switch *ibsw_nl_switch(struct genl_info *info, unsigned int attr);

int ibsw_nl_reply(struct genl_info *info, size_t size, ibsw_nl_fill_t fill,
		  const void *arg);
void ibsw_nl_notify(u8 cmd, size_t size, ibsw_nl_fill_t fill, const void *arg);

#endif /* _IBSW_NETLINK_H */
