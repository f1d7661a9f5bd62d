/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel APIs ibsw uses that older kernels lack or spell differently,
 * back to 6.1: each shim names the upstream change it stands in for. The
 * code is written for the newest kernel; a shim is compiled only where the
 * target's headers lack the API: a macro by #ifndef, anything else by an
 * IBSW_HAVE_* flag of the Makefile's probes, which look for the API in the
 * headers by name, not for a version (stable kernels backport some).
 *
 * The generated netlink code (genl.[ch]) is left as ynl-gen writes it:
 * genl_compat.c builds genl.c for the target kernel.
 */
#ifndef _IBSW_COMPAT_H
#define _IBSW_COMPAT_H

#include <linux/netdevice.h>
#include <linux/netlink.h>
#include <net/genetlink.h>
#include <net/netlink.h>

/* v6.12 ("move asm/unaligned.h to linux/unaligned.h") */
#ifdef IBSW_HAVE_LINUX_UNALIGNED_H
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

/* ------------------------------------------------------------------ netlink */

/*
 * v6.2 ("netlink: add support for formatted extack messages") and v6.4
 * ("netlink: Add a macro to set policy message with format string"):
 * before them an extack holds no text of its own (genl_compat.c).
 */
#if !defined(NL_SET_ERR_MSG_FMT) || !defined(NL_SET_ERR_MSG_ATTR_FMT)
#define IBSW_EXTACK_FMT_COMPAT
__printf(3, 4) void
ibsw_extack_fmt(struct netlink_ext_ack *extack, const struct nlattr *attr,
		const char *fmt, ...);
#endif

#ifndef NL_SET_ERR_MSG_FMT
#define NL_SET_ERR_MSG_FMT(extack, fmt, args...)			\
	ibsw_extack_fmt(extack, NULL, fmt, ##args)
#endif

#ifndef NL_SET_ERR_MSG_ATTR_FMT
#define NL_SET_ERR_MSG_ATTR_FMT(extack, attr, fmt, args...)		\
	ibsw_extack_fmt(extack, attr, fmt, ##args)
#endif

/*
 * v6.7 ("netlink: add variable-length / auto integers"):
 * before it a "uint" policy is a binary one whose length is checked as
 * NLA_UINT's is (the only way to spell it in genl.c's initializers).
 */
#ifndef IBSW_HAVE_NLA_UINT
static inline int ibsw_nla_validate_uint(const struct nlattr *attr,
					 struct netlink_ext_ack *extack)
{
	if (nla_len(attr) != sizeof(u32) && nla_len(attr) != sizeof(u64)) {
		NL_SET_ERR_MSG_ATTR(extack, attr, "invalid attribute length");
		return -EINVAL;
	}
	return 0;
}

#define NLA_UINT	NLA_BINARY,					\
			.validation_type = NLA_VALIDATE_FUNCTION,	\
			.validate = ibsw_nla_validate_uint

static inline int nla_put_uint(struct sk_buff *skb, int attrtype, u64 value)
{
	u64 tmp64 = value;
	u32 tmp32 = value;

	if (tmp64 == tmp32)
		return nla_put_u32(skb, attrtype, tmp32);
	return nla_put(skb, attrtype, sizeof(u64), &tmp64);
}

static inline u64 nla_get_uint(const struct nlattr *nla)
{
	if (nla_len(nla) == sizeof(u32))
		return nla_get_u32(nla);
	return nla_get_u64(nla);
}
#endif

/*
 * v6.7 ("netlink: make range pointers in policies const"): genl.c's ranges
 * are const, which the core only ever read
 */
#ifndef IBSW_HAVE_CONST_POLICY_RANGE
#undef NLA_POLICY_FULL_RANGE
#define NLA_POLICY_FULL_RANGE(tp, _range) {				\
	.type = NLA_ENSURE_UINT_OR_BINARY_TYPE(tp),			\
	.validation_type = NLA_VALIDATE_RANGE_PTR,			\
	.range = (struct netlink_range_validation *)(_range),		\
}
#endif

/*
 * v6.6 ("genetlink: add struct genl_info to struct genl_dumpit_info"):
 * a dump's attributes, as genl_info_dump(cb)->attrs
 */
static inline struct nlattr **ibsw_genl_dump_attrs(struct netlink_callback *cb)
{
#ifdef IBSW_HAVE_GENL_INFO_DUMP
	return genl_info_dump(cb)->attrs;
#else
	return genl_dumpit_info(cb)->attrs;
#endif
}

/*
 * v6.2 ("genetlink: allow families to use split ops directly"):
 * before it the generated split ops and family are these types, and
 * genl_compat.c registers a family of struct genl_ops made from them.
 */
#ifndef IBSW_HAVE_GENL_SPLIT_OPS
struct genl_split_ops {
	union {
		struct {
			int (*pre_doit)(const struct genl_split_ops *ops,
					struct sk_buff *skb,
					struct genl_info *info);
			int (*doit)(struct sk_buff *skb,
				    struct genl_info *info);
			void (*post_doit)(const struct genl_split_ops *ops,
					  struct sk_buff *skb,
					  struct genl_info *info);
		};
		struct {
			int (*start)(struct netlink_callback *cb);
			int (*dumpit)(struct sk_buff *skb,
				      struct netlink_callback *cb);
			int (*done)(struct netlink_callback *cb);
		};
	};
	const struct nla_policy *policy;
	unsigned int		maxattr;
	u8			cmd;
	u8			internal_flags;
	u8			flags;
	u8			validate;
};

struct ibsw_genl_split_family {
	unsigned int		hdrsize;
	char			name[GENL_NAMSIZ];
	unsigned int		version;
	unsigned int		maxattr;
	u8			netnsok:1;
	u8			parallel_ops:1;
	u8			n_split_ops;
	u8			n_mcgrps;
	u8			resv_start_op;
	const struct nla_policy *policy;
	const struct genl_split_ops *split_ops;
	const struct genl_multicast_group *mcgrps;
	struct module		*module;
};

#define IBSW_GENL_SPLIT_OPS_COMPAT
int ibsw_genl_register_family(struct genl_family *family);
#define genl_register_family(family)	ibsw_genl_register_family(family)
#endif

/* ------------------------------------------------------------ net_device */

/*
 * v6.12 ("netdev_features: convert NETIF_F_LLTX to dev->lltx")
 * and ("netdev_features: convert NETIF_F_NETNS_LOCAL to
 * dev->netns_local"), renamed netns_immutable by v6.15 ("net:
 * rename netns_local to netns_immutable"), in 6.12.y since 6.12.114
 */
static inline void ibsw_netdev_set_lltx(struct net_device *dev)
{
#ifdef IBSW_HAVE_NETDEV_LLTX
	dev->lltx = true;
#else
	dev->features |= NETIF_F_LLTX;
#endif
}

static inline void ibsw_netdev_set_netns_immutable(struct net_device *dev)
{
#if defined(IBSW_HAVE_NETDEV_NETNS_IMMUTABLE)
	dev->netns_immutable = true;
#elif defined(IBSW_HAVE_NETDEV_NETNS_LOCAL)
	dev->netns_local = true;
#else
	dev->features |= NETIF_F_NETNS_LOCAL;
#endif
}

/* ---------------------------------------------------------- driver core */

/*
 * v6.2 ("driver core: class: make namespace and get_ownership take const
 * *"): the device a class's namespace() is given
 */
#ifdef IBSW_HAVE_CLASS_CONST_NAMESPACE
#define IBSW_CLASS_DEV_CONST	const
#else
#define IBSW_CLASS_DEV_CONST
#endif

/*
 * v6.4 ("driver core: class: make class_release() take a const *"): the
 * class a class_release() is given
 */
#ifdef IBSW_HAVE_CLASS_CONST_RELEASE
#define IBSW_CLASS_CONST	const
#else
#define IBSW_CLASS_CONST
#endif

/* ------------------------------------------------------------------ RDMA */

/*
 * v6.11 ("RDMA: Pass entire uverbs attr bundle to create cq
 * function"): what ib_device_ops.create_cq() is given for a user CQ
 */
#ifdef IBSW_HAVE_CREATE_CQ_ATTR_BUNDLE
#define IBSW_CREATE_CQ_ATTRS	struct uverbs_attr_bundle
#else
#define IBSW_CREATE_CQ_ATTRS	struct ib_udata
#endif

#endif /* _IBSW_COMPAT_H */
