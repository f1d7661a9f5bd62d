// SPDX-License-Identifier: GPL-2.0
/* ibswctl switch { add | del | show } */
#include "ibswctl.h"

#include <errno.h>
#include <string.h>

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: ibswctl switch add NAME ports N\n"
		"       ibswctl switch del NAME\n"
		"       ibswctl switch show [NAME]\n"
		"NAME: 1 to %d letters, digits, '_', '-', '.' and ':'; N: 1 to %d.\n",
		IBSW_NAME_LEN, IBSW_MAX_PORTS);
}

static int new_cb(struct ctl *ctl, const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[IBSW_A_SWITCH_MAX + 1];

	(void)data;
	if (ctl_parse_msg(ctl, nlh, &ctl_switch_attrs, tb))
		return -EINVAL;
	if (tb[IBSW_A_SWITCH_ID]) {
		ctl->last_switch_id = mnl_attr_get_u32(tb[IBSW_A_SWITCH_ID]);
		ctl->last_switch_id_valid = true;
	}
	return 0;
}

static int switch_add(struct ctl *ctl, int argc, char **argv)
{
	char name[IBSW_NAME_LEN + 1];
	struct nlmsghdr *nlh;
	uint32_t ports;
	int err;

	if (argc != 3 || !ctl_matches(argv[1], "ports")) {
		ctl_err(ctl, "switch add: expected NAME ports N");
		usage(ctl->err);
		return CTL_USAGE;
	}
	if (ctl_parse_name(ctl, argv[0], name, sizeof(name)) ||
	    ctl_parse_u32(ctl, "port count", argv[2], 1, IBSW_MAX_PORTS, &ports))
		return CTL_USAGE;
	nlh = ctl_msg_start(ctl, IBSW_CMD_SWITCH_NEW, 0, 0);
	mnl_attr_put_strz(nlh, IBSW_A_SWITCH_NAME, name);
	mnl_attr_put_u32(nlh, IBSW_A_SWITCH_NR_PORTS, ports);
	ctl->last_switch_id_valid = false;
	err = ctl_request(ctl, nlh, new_cb, NULL);
	if (err)
		return ctl_nl_err(ctl, err, "switch add %s", name);
	return CTL_OK;
}

static int switch_del(struct ctl *ctl, int argc, char **argv)
{
	char name[IBSW_NAME_LEN + 1];
	struct nlmsghdr *nlh;
	int err;

	if (argc != 1) {
		ctl_err(ctl, "switch del: expected NAME");
		usage(ctl->err);
		return CTL_USAGE;
	}
	if (ctl_parse_name(ctl, argv[0], name, sizeof(name)))
		return CTL_USAGE;
	nlh = ctl_msg_start(ctl, IBSW_CMD_SWITCH_DEL, 0, 0);
	mnl_attr_put_strz(nlh, IBSW_A_SWITCH_NAME, name);
	err = ctl_request(ctl, nlh, NULL, NULL);
	if (err)
		return ctl_nl_err(ctl, err, "switch del %s", name);
	return CTL_OK;
}

static int switch_show(struct ctl *ctl, int argc, char **argv)
{
	char name[IBSW_NAME_LEN + 1];
	struct nlmsghdr *nlh;
	int err;

	if (argc > 1) {
		ctl_err(ctl, "switch show: expected at most NAME");
		usage(ctl->err);
		return CTL_USAGE;
	}
	if (argc && ctl_parse_name(ctl, argv[0], name, sizeof(name)))
		return CTL_USAGE;
	nlh = ctl_msg_start(ctl, IBSW_CMD_SWITCH_GET, argc ? 0 : NLM_F_DUMP, 0);
	if (argc)
		mnl_attr_put_strz(nlh, IBSW_A_SWITCH_NAME, name);
	err = ctl_show(ctl, nlh, &ctl_switch_attrs, ctl_print_switch, NULL, true);
	if (err)
		return ctl_nl_err(ctl, err, "switch show%s%s", argc ? " " : "", argc ? name : "");
	return CTL_OK;
}

static const struct ctl_cmd cmds[] = {
	{ "show", switch_show },
	{ "list", switch_show },
	{ "add", switch_add },
	{ "del", switch_del },
	{ "delete", switch_del },
};

int cmd_switch(struct ctl *ctl, int argc, char **argv)
{
	return ctl_dispatch(ctl, "switch", cmds, ARRAY_SIZE(cmds), usage, argc, argv);
}
