// SPDX-License-Identifier: GPL-2.0
/* ibswctl addr { set | show }: the address table (destination -> DLID) */
#include "ibswctl.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: ibswctl addr set [ADDR=LID ...]\n"
		"       ibswctl addr show\n"
		"set replaces the whole table (without entries: empties it). ADDR is an IPv4\n"
		"or IPv6 address of a host, LID that of its host port.\n");
}

/* Size of one address entry in a request */
#define ADDR_ENTRY_SIZE	(3 * MNL_ATTR_HDRLEN + 16 + 4)

static int addr_set(struct ctl *ctl, int argc, char **argv)
{
	struct nlmsghdr *nlh;
	struct nlattr *nest;
	char *eq, *ip_text;
	uint8_t ip[16];
	uint32_t lid;
	int i, err;

	nlh = ctl_msg_start(ctl, IBSW_CMD_ADDR_SET, 0, (size_t)argc * ADDR_ENTRY_SIZE);
	if (!nlh) {
		ctl_err(ctl, "out of memory");
		return CTL_FAIL;
	}
	for (i = 0; i < argc; i++) {
		eq = strrchr(argv[i], '=');
		if (!eq) {
			ctl_err(ctl, "addr set: bad entry \"%s\": expected ADDR=LID", argv[i]);
			return CTL_USAGE;
		}
		ip_text = strndup(argv[i], eq - argv[i]);
		if (!ip_text) {
			ctl_err(ctl, "out of memory");
			return CTL_FAIL;
		}
		err = ctl_parse_ip(ctl, ip_text, ip);
		free(ip_text);
		if (err || ctl_parse_u32(ctl, "LID", eq + 1, 1, IBSW_LID_UNICAST_MAX, &lid))
			return CTL_USAGE;
		nest = mnl_attr_nest_start(nlh, IBSW_A_FABRIC_ADDR);
		mnl_attr_put(nlh, IBSW_A_ADDR_IP, sizeof(ip), ip);
		mnl_attr_put_u32(nlh, IBSW_A_ADDR_LID, lid);
		mnl_attr_nest_end(nlh, nest);
	}
	err = ctl_request(ctl, nlh, NULL, NULL);
	if (err)
		return ctl_nl_err(ctl, err, "addr set");
	return CTL_OK;
}

static void print_addrs(struct ctl *ctl, const struct nlmsghdr *nlh,
			const struct nlattr **tb, void *arg)
{
	const struct nlattr *attr;
	size_t len;
	const void *data = ibsw_genl_attrs(nlh, &len);

	(void)tb;
	(void)arg;
	for (attr = data; ibsw_attr_ok(attr, data, len); attr = mnl_attr_next(attr))
		if (mnl_attr_get_type(attr) == IBSW_A_FABRIC_ADDR)
			ctl_print_addr(ctl, attr);
}

static int addr_show(struct ctl *ctl, int argc, char **argv)
{
	struct nlmsghdr *nlh;
	int err;

	(void)argv;
	if (argc) {
		ctl_err(ctl, "addr show: no arguments expected");
		usage(ctl->err);
		return CTL_USAGE;
	}
	nlh = ctl_msg_start(ctl, IBSW_CMD_ADDR_GET, NLM_F_DUMP, 0);
	err = ctl_show(ctl, nlh, &ctl_fabric_attrs, print_addrs, NULL, true);
	if (err)
		return ctl_nl_err(ctl, err, "addr show");
	return CTL_OK;
}

static const struct ctl_cmd cmds[] = {
	{ "show", addr_show },
	{ "list", addr_show },
	{ "set", addr_set },
};

int cmd_addr(struct ctl *ctl, int argc, char **argv)
{
	return ctl_dispatch(ctl, "addr", cmds, ARRAY_SIZE(cmds), usage, argc, argv);
}
