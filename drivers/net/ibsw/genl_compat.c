// SPDX-License-Identifier: GPL-2.0
/*
 * The generated genl.c, built for the target kernel. genl.c is what ynl-gen
 * writes (scripts/ynl-gen --check), for kernels with split ops (v6.2).
 *
 * Before v6.2 a family has one struct genl_ops per command and a single
 * pre_doit and post_doit. There genl.c's split ops and family are built as
 * compat.h's types, and ibsw_genl_register_family() registers the kernel's
 * family, ibsw_nl_family, with ops made from them: a command's do and dump
 * share one policy, the do one's (a dump then accepts attributes its own
 * policy would refuse), and pre_doit and post_doit call those of the
 * command's do op, if it has them.
 */

#include "compat.h"

#ifdef IBSW_GENL_SPLIT_OPS_COMPAT
#define genl_family	ibsw_genl_split_family
#define ibsw_nl_family	ibsw_nl_split_family
#endif

#include "genl.c"

#ifdef IBSW_EXTACK_FMT_COMPAT
/*
 * Before v6.2 an extack's message is a pointer, which must stay valid
 * after the handler until netlink_ack() copies the text. Formatted
 * messages go to a ring of buffers: one is written again only after
 * IBSW_EXTACK_RING more errors, far more than can fall between a
 * handler's return and its ack; and the last byte of each stays NUL, so
 * even then a message could only be garbled, never unterminated.
 */
#define IBSW_EXTACK_RING	32
#define IBSW_EXTACK_LEN		128

static char ibsw_extack_msgs[IBSW_EXTACK_RING][IBSW_EXTACK_LEN];
static atomic_t ibsw_extack_next = ATOMIC_INIT(0);

void ibsw_extack_fmt(struct netlink_ext_ack *extack, const struct nlattr *attr,
		     const char *fmt, ...)
{
	unsigned int i;
	va_list args;
	char *buf;

	if (!extack)
		return;
	i = (unsigned int)atomic_inc_return(&ibsw_extack_next) % IBSW_EXTACK_RING;
	buf = ibsw_extack_msgs[i];
	va_start(args, fmt);
	vsnprintf(buf, IBSW_EXTACK_LEN - 1, fmt, args);
	va_end(args);
	extack->_msg = buf;
	if (attr)
		extack->bad_attr = attr;
}
#endif

#ifdef IBSW_GENL_SPLIT_OPS_COMPAT
#undef genl_family
#undef ibsw_nl_family

static struct genl_ops ibsw_nl_compat_ops[ARRAY_SIZE(ibsw_nl_ops)] __ro_after_init;

/* netnsok: the generated family's, unless the caller clears it first */
struct genl_family ibsw_nl_family __ro_after_init = {
	.netnsok	= true,
};

static const struct genl_split_ops *ibsw_nl_compat_do_op(u8 cmd)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ibsw_nl_ops); i++)
		if (ibsw_nl_ops[i].cmd == cmd &&
		    (ibsw_nl_ops[i].flags & GENL_CMD_CAP_DO))
			return &ibsw_nl_ops[i];
	return NULL;
}

static int ibsw_nl_compat_pre_doit(const struct genl_ops *ops,
				   struct sk_buff *skb, struct genl_info *info)
{
	const struct genl_split_ops *op = ibsw_nl_compat_do_op(ops->cmd);

	return op && op->pre_doit ? op->pre_doit(op, skb, info) : 0;
}

static void ibsw_nl_compat_post_doit(const struct genl_ops *ops,
				     struct sk_buff *skb,
				     struct genl_info *info)
{
	const struct genl_split_ops *op = ibsw_nl_compat_do_op(ops->cmd);

	if (op && op->post_doit)
		op->post_doit(op, skb, info);
}

/* One op per command: split ops are sorted by command, do before dump */
static unsigned int ibsw_nl_compat_ops_init(void)
{
	const struct ibsw_genl_split_family *split = &ibsw_nl_split_family;
	struct genl_ops *o = NULL;
	unsigned int i, n = 0;

	for (i = 0; i < split->n_split_ops; i++) {
		const struct genl_split_ops *s = &split->split_ops[i];

		if (!o || o->cmd != s->cmd) {
			o = &ibsw_nl_compat_ops[n++];
			o->cmd = s->cmd;
			o->internal_flags = s->internal_flags;
			o->flags = s->flags & ~(GENL_CMD_CAP_DO | GENL_CMD_CAP_DUMP |
						GENL_CMD_CAP_HASPOL);
			o->validate = s->validate;
		}
		if (s->flags & GENL_CMD_CAP_DO) {
			o->doit = s->doit;
		} else {
			o->start = s->start;
			o->dumpit = s->dumpit;
			o->done = s->done;
		}
		if (!o->policy) {
			o->policy = s->policy;
			o->maxattr = s->maxattr;
		}
	}
	return n;
}

int ibsw_genl_register_family(struct genl_family *family)
{
	const struct ibsw_genl_split_family *split = &ibsw_nl_split_family;

	if (WARN_ON(family != &ibsw_nl_family))
		return -EINVAL;
	family->hdrsize = split->hdrsize;
	strscpy(family->name, split->name, sizeof(family->name));
	family->version = split->version;
	family->maxattr = split->maxattr;
	family->netnsok = family->netnsok && split->netnsok;
	family->parallel_ops = split->parallel_ops;
	family->resv_start_op = split->resv_start_op;
	family->policy = split->policy;
	family->pre_doit = ibsw_nl_compat_pre_doit;
	family->post_doit = ibsw_nl_compat_post_doit;
	family->ops = ibsw_nl_compat_ops;
	family->n_ops = ibsw_nl_compat_ops_init();
	family->mcgrps = split->mcgrps;
	family->n_mcgrps = split->n_mcgrps;
	family->module = split->module;
	return (genl_register_family)(family);
}
#endif
