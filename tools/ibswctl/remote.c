// SPDX-License-Identifier: GPL-2.0
/* ibswctl remote { add | del }: remote links, to a switch port of another kernel */
#include "ibswctl.h"

#include <errno.h>
#include <string.h>

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: ibswctl remote add SW/PORT dev IFNAME id ID [mac MAC] [rate RATE]\n"
		"       ibswctl remote del SW/PORT\n"
		"SW/PORT may also be given as two words, SW PORT.\n"
		"A remote link cables the port to a switch port of another kernel: its frames\n"
		"(EtherType 0x88B5) go over the netdev IFNAME of this namespace, whose MTU must\n"
		"be at least 4232. The other kernel runs remote add on its own port with the\n"
		"same ID (0 to 4294967295, unique on the netdev); the link comes up when both\n"
		"ends hear each other with the same time scale, pacing and VL count.\n"
		"mac: the peer's Ethernet address; without it, learned from the peer's frames.\n"
		"RATE: as for link add, e.g. 4xQDR; the link trains to the narrower width and\n"
		"the slower speed of its two ends.\n");
}

/*
 * The port, SW/PORT or SW PORT: how many arguments it took (1 or 2), or
 * -EINVAL (message printed)
 */
static int parse_port(struct ctl *ctl, const char *what, int argc, char **argv,
		      char *sw, size_t swlen, uint32_t *port)
{
	if (argc < 1 || (!strchr(argv[0], '/') && argc < 2)) {
		ctl_err(ctl, "%s: expected SW/PORT or SW PORT", what);
		usage(ctl->err);
		return -EINVAL;
	}
	if (strchr(argv[0], '/'))
		return ctl_parse_swport(ctl, argv[0], sw, swlen, port, true) ? -EINVAL : 1;
	if (ctl_parse_name(ctl, argv[0], sw, swlen) ||
	    ctl_parse_u32(ctl, "port number", argv[1], 1, IBSW_MAX_PORTS, port))
		return -EINVAL;
	return 2;
}

static int remote_add(struct ctl *ctl, int argc, char **argv)
{
	static const uint8_t zero[6];
	const char *ifname = NULL;
	char sw[IBSW_NAME_LEN + 1];
	uint32_t port, id = 0, width, speed;
	bool has_id = false, has_mac = false, rate = false;
	struct nlmsghdr *nlh;
	uint8_t mac[6];
	int err, i;

	if (argc < 1) {
		ctl_err(ctl, "remote add: expected SW/PORT dev IFNAME id ID");
		usage(ctl->err);
		return CTL_USAGE;
	}
	i = parse_port(ctl, "remote add", argc, argv, sw, sizeof(sw), &port);
	if (i < 0)
		return CTL_USAGE;
	for (; i < argc; i += 2) {
		const char *key = argv[i], *val;

		if (!ctl_matches(key, "dev") && !ctl_matches(key, "id") &&
		    !ctl_matches(key, "mac") && !ctl_matches(key, "rate")) {
			ctl_err(ctl, "remote add: unknown argument \"%s\"", key);
			usage(ctl->err);
			return CTL_USAGE;
		}
		if (i + 1 >= argc) {
			ctl_err(ctl, "remote add: \"%s\" needs a value", key);
			return CTL_USAGE;
		}
		val = argv[i + 1];
		if (ctl_matches(key, "dev")) {
			if (ctl_parse_ifname(ctl, val))
				return CTL_USAGE;
			ifname = val;
		} else if (ctl_matches(key, "id")) {
			if (ctl_parse_u32(ctl, "remote link id", val, 0, UINT32_MAX, &id))
				return CTL_USAGE;
			has_id = true;
		} else if (ctl_matches(key, "mac")) {
			if (ctl_parse_mac(ctl, val, mac))
				return CTL_USAGE;
			if (!memcmp(mac, zero, sizeof(mac))) {
				ctl_err(ctl, "bad MAC address \"%s\": the zero address", val);
				return CTL_USAGE;
			}
			has_mac = true;
		} else {	/* rate */
			if (ctl_parse_rate(ctl, val, &width, &speed))
				return CTL_USAGE;
			rate = true;
		}
	}
	if (!ifname || !has_id) {
		ctl_err(ctl, "remote add: missing %s%s%s", ifname ? "" : "dev IFNAME",
			!ifname && !has_id ? " and " : "", has_id ? "" : "id ID");
		usage(ctl->err);
		return CTL_USAGE;
	}
	nlh = ctl_msg_start(ctl, IBSW_CMD_REMOTE_NEW, 0, 0);
	mnl_attr_put_strz(nlh, IBSW_A_PORT_SWITCH_NAME, sw);
	mnl_attr_put_u32(nlh, IBSW_A_PORT_PORT, port);
	mnl_attr_put_strz(nlh, IBSW_A_PORT_IFNAME, ifname);
	mnl_attr_put_u32(nlh, IBSW_A_PORT_REMOTE_ID, id);
	if (has_mac)
		mnl_attr_put(nlh, IBSW_A_PORT_MAC, sizeof(mac), mac);
	if (rate) {
		mnl_attr_put_u32(nlh, IBSW_A_PORT_WIDTH, width);
		mnl_attr_put_u32(nlh, IBSW_A_PORT_SPEED, speed);
	}
	err = ctl_request(ctl, nlh, NULL, NULL);
	if (err)
		return ctl_nl_err(ctl, err, "remote add %s/%u", sw, port);
	return CTL_OK;
}

static int remote_del(struct ctl *ctl, int argc, char **argv)
{
	char sw[IBSW_NAME_LEN + 1];
	struct nlmsghdr *nlh;
	uint32_t port;
	int err, n;

	n = parse_port(ctl, "remote del", argc, argv, sw, sizeof(sw), &port);
	if (n < 0)
		return CTL_USAGE;
	if (n < argc) {
		ctl_err(ctl, "remote del: unexpected argument \"%s\"", argv[n]);
		usage(ctl->err);
		return CTL_USAGE;
	}
	nlh = ctl_msg_start(ctl, IBSW_CMD_REMOTE_DEL, 0, 0);
	mnl_attr_put_strz(nlh, IBSW_A_PORT_SWITCH_NAME, sw);
	mnl_attr_put_u32(nlh, IBSW_A_PORT_PORT, port);
	err = ctl_request(ctl, nlh, NULL, NULL);
	if (err)
		return ctl_nl_err(ctl, err, "remote del %s/%u", sw, port);
	return CTL_OK;
}

static const struct ctl_cmd cmds[] = {
	{ "add", remote_add },
	{ "del", remote_del },
	{ "delete", remote_del },
};

int cmd_remote(struct ctl *ctl, int argc, char **argv)
{
	if (argc < 1) {
		usage(ctl->err);
		return CTL_USAGE;
	}
	return ctl_dispatch(ctl, "remote", cmds, ARRAY_SIZE(cmds), usage, argc, argv);
}
