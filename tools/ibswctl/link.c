// SPDX-License-Identifier: GPL-2.0
/* ibswctl link { add | del }: switch-to-switch links */
#include "ibswctl.h"

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: ibswctl link add SW/PORT SW/PORT [rate RATE]\n"
		"       ibswctl link del SW/PORT\n"
		"RATE: WIDTH and SPEED, e.g. 4xQDR (1x 4x 8x 12x; SDR DDR QDR FDR10 FDR EDR HDR NDR).\n");
}

static int link_add(struct ctl *ctl, int argc, char **argv)
{
	char sw[IBSW_NAME_LEN + 1], peer[IBSW_NAME_LEN + 1];
	uint32_t port, peer_port, width, speed;
	bool rate = false;
	struct nlmsghdr *nlh;
	int err, i;

	if (argc < 2) {
		ctl_err(ctl, "link add: expected SW/PORT SW/PORT");
		usage(ctl->err);
		return CTL_USAGE;
	}
	if (ctl_parse_swport(ctl, argv[0], sw, sizeof(sw), &port, true) ||
	    ctl_parse_swport(ctl, argv[1], peer, sizeof(peer), &peer_port, true))
		return CTL_USAGE;
	for (i = 2; i < argc; i += 2) {
		if (i + 1 >= argc) {
			ctl_err(ctl, "link add: \"%s\" needs a value", argv[i]);
			return CTL_USAGE;
		}
		if (ctl_matches(argv[i], "rate")) {
			if (ctl_parse_rate(ctl, argv[i + 1], &width, &speed))
				return CTL_USAGE;
			rate = true;
		} else {
			ctl_err(ctl, "link add: unknown argument \"%s\"", argv[i]);
			usage(ctl->err);
			return CTL_USAGE;
		}
	}
	nlh = ctl_msg_start(ctl, IBSW_CMD_LINK_NEW, 0, 0);
	mnl_attr_put_strz(nlh, IBSW_A_PORT_SWITCH_NAME, sw);
	mnl_attr_put_u32(nlh, IBSW_A_PORT_PORT, port);
	mnl_attr_put_strz(nlh, IBSW_A_PORT_PEER_SWITCH_NAME, peer);
	mnl_attr_put_u32(nlh, IBSW_A_PORT_PEER_PORT, peer_port);
	if (rate) {
		mnl_attr_put_u32(nlh, IBSW_A_PORT_WIDTH, width);
		mnl_attr_put_u32(nlh, IBSW_A_PORT_SPEED, speed);
	}
	err = ctl_request(ctl, nlh, NULL, NULL);
	if (err)
		return ctl_nl_err(ctl, err, "link add %s/%u %s/%u", sw, port, peer, peer_port);
	return CTL_OK;
}

/* SW/PORT: the request of link del, host del and counters clear */
int ctl_port_request(struct ctl *ctl, uint8_t cmd, const char *what, int argc,
		     char **argv, bool port_required, void (*usage_fn)(FILE *f))
{
	char sw[IBSW_NAME_LEN + 1];
	struct nlmsghdr *nlh;
	uint32_t port;
	int err;

	if (argc != 1) {
		ctl_err(ctl, "%s: expected SW%s", what, port_required ? "/PORT" : "[/PORT]");
		usage_fn(ctl->err);
		return CTL_USAGE;
	}
	if (ctl_parse_swport(ctl, argv[0], sw, sizeof(sw), &port, port_required))
		return CTL_USAGE;
	nlh = ctl_msg_start(ctl, cmd, 0, 0);
	mnl_attr_put_strz(nlh, IBSW_A_PORT_SWITCH_NAME, sw);
	if (port)
		mnl_attr_put_u32(nlh, IBSW_A_PORT_PORT, port);
	err = ctl_request(ctl, nlh, NULL, NULL);
	if (err)
		return ctl_nl_err(ctl, err, "%s %s", what, argv[0]);
	return CTL_OK;
}

static int link_del(struct ctl *ctl, int argc, char **argv)
{
	return ctl_port_request(ctl, IBSW_CMD_LINK_DEL, "link del", argc, argv, true, usage);
}

static const struct ctl_cmd cmds[] = {
	{ "add", link_add },
	{ "del", link_del },
	{ "delete", link_del },
};

int cmd_link(struct ctl *ctl, int argc, char **argv)
{
	if (argc < 1) {
		usage(ctl->err);
		return CTL_USAGE;
	}
	return ctl_dispatch(ctl, "link", cmds, ARRAY_SIZE(cmds), usage, argc, argv);
}
