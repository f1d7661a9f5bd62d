// SPDX-License-Identifier: GPL-2.0
/* ibswctl counters { show | clear }: PMA counters */
#include "ibswctl.h"

#include <string.h>

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: ibswctl counters show [SW[/PORT]] [vl]\n"
		"       ibswctl counters clear SW[/PORT]\n"
		"vl: the per-VL counters too. Data counters are in 32-bit words, PortXmitWait\n"
		"in ticks of 64 bytes at the port's rate.\n");
}

static int counters_show(struct ctl *ctl, int argc, char **argv)
{
	char sw[IBSW_NAME_LEN + 1];
	struct nlmsghdr *nlh;
	const char *target = NULL;
	bool per_vl = false;
	uint32_t port = 0;
	int i, err;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "vl")) {
			per_vl = true;
		} else if (!target) {
			target = argv[i];
			if (ctl_parse_swport(ctl, target, sw, sizeof(sw), &port, false))
				return CTL_USAGE;
		} else {
			ctl_err(ctl, "counters show: unexpected argument \"%s\"", argv[i]);
			usage(ctl->err);
			return CTL_USAGE;
		}
	}
	nlh = ctl_msg_start(ctl, IBSW_CMD_PORT_GET, port ? 0 : NLM_F_DUMP, 0);
	if (target)
		mnl_attr_put_strz(nlh, IBSW_A_PORT_SWITCH_NAME, sw);
	if (port)
		mnl_attr_put_u32(nlh, IBSW_A_PORT_PORT, port);
	err = ctl_show(ctl, nlh, &ctl_port_attrs, ctl_print_counters, &per_vl, true);
	if (err)
		return ctl_nl_err(ctl, err, "counters show%s%s", target ? " " : "",
				  target ? target : "");
	return CTL_OK;
}

static int counters_clear(struct ctl *ctl, int argc, char **argv)
{
	return ctl_port_request(ctl, IBSW_CMD_COUNTERS_CLEAR, "counters clear", argc, argv,
				false, usage);
}

static const struct ctl_cmd cmds[] = {
	{ "show", counters_show },
	{ "list", counters_show },
	{ "clear", counters_clear },
};

int cmd_counters(struct ctl *ctl, int argc, char **argv)
{
	return ctl_dispatch(ctl, "counters", cmds, ARRAY_SIZE(cmds), usage, argc, argv);
}
