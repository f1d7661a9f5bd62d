// SPDX-License-Identifier: GPL-2.0
/* ibswctl host { add | del }: host ports, netdevs in a host's namespace */
#include "ibswctl.h"

#include <string.h>
#include <unistd.h>

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: ibswctl host add SW/PORT [name IFNAME] [netns NAME | pid PID] [mac MAC]\n"
		"                        [lid LID] [rate RATE] [hca-rate BPS]\n"
		"       ibswctl host del SW/PORT\n"
		"netns NAME: the namespace /run/netns/NAME (ip netns); pid PID: that of a process.\n"
		"Without either, the netdev stays in ibswctl's own namespace.\n"
		"hca-rate: the HCA's injection rate, bit/s with an optional k, M or G (13G);\n"
		"0: the default, 98.75%% of the link's rate.\n");
}

static int host_add(struct ctl *ctl, int argc, char **argv)
{
	const char *ifname = NULL, *netns = NULL;
	char sw[IBSW_NAME_LEN + 1];
	uint32_t port, pid = 0, lid = 0, width, speed;
	bool has_pid = false, has_lid = false, rate = false, has_mac = false, has_hca = false;
	uint64_t hca_rate;
	struct nlmsghdr *nlh;
	uint8_t mac[6];
	int err, i, fd = -1;

	if (argc < 1) {
		ctl_err(ctl, "host add: expected SW/PORT");
		usage(ctl->err);
		return CTL_USAGE;
	}
	if (ctl_parse_swport(ctl, argv[0], sw, sizeof(sw), &port, true))
		return CTL_USAGE;
	for (i = 1; i < argc; i += 2) {
		const char *key = argv[i], *val;

		if (i + 1 >= argc) {
			ctl_err(ctl, "host add: \"%s\" needs a value", key);
			return CTL_USAGE;
		}
		val = argv[i + 1];
		if (ctl_matches(key, "name")) {
			if (ctl_parse_ifname(ctl, val))
				return CTL_USAGE;
			ifname = val;
		} else if (ctl_matches(key, "netns")) {
			netns = val;
		} else if (ctl_matches(key, "pid")) {
			if (ctl_parse_u32(ctl, "pid", val, 1, INT32_MAX, &pid))
				return CTL_USAGE;
			has_pid = true;
		} else if (ctl_matches(key, "mac")) {
			if (ctl_parse_mac(ctl, val, mac))
				return CTL_USAGE;
			has_mac = true;
		} else if (ctl_matches(key, "lid")) {
			if (ctl_parse_u32(ctl, "LID", val, 0, IBSW_LID_UNICAST_MAX, &lid))
				return CTL_USAGE;
			has_lid = true;
		} else if (ctl_matches(key, "rate")) {
			if (ctl_parse_rate(ctl, val, &width, &speed))
				return CTL_USAGE;
			rate = true;
		} else if (ctl_matches(key, "hca-rate")) {
			if (ctl_parse_bps(ctl, "HCA rate", val, &hca_rate))
				return CTL_USAGE;
			has_hca = true;
		} else {
			ctl_err(ctl, "host add: unknown argument \"%s\"", key);
			usage(ctl->err);
			return CTL_USAGE;
		}
	}
	if (netns && has_pid) {
		ctl_err(ctl, "host add: netns and pid exclude each other");
		return CTL_USAGE;
	}
	if (netns) {
		fd = ctl->ops->netns_open(ctl, netns);
		if (fd < 0) {
			ctl_err(ctl, "host add: network namespace \"%s\": %s", netns,
				strerror(-fd));
			return CTL_FAIL;
		}
	}
	nlh = ctl_msg_start(ctl, IBSW_CMD_HOST_NEW, 0, 0);
	mnl_attr_put_strz(nlh, IBSW_A_PORT_SWITCH_NAME, sw);
	mnl_attr_put_u32(nlh, IBSW_A_PORT_PORT, port);
	if (ifname)
		mnl_attr_put_strz(nlh, IBSW_A_PORT_IFNAME, ifname);
	if (fd >= 0)
		mnl_attr_put_u32(nlh, IBSW_A_PORT_NETNS_FD, fd);
	if (has_pid)
		mnl_attr_put_u32(nlh, IBSW_A_PORT_NETNS_PID, pid);
	if (has_mac)
		mnl_attr_put(nlh, IBSW_A_PORT_MAC, sizeof(mac), mac);
	if (has_lid)
		mnl_attr_put_u32(nlh, IBSW_A_PORT_LID, lid);
	if (rate) {
		mnl_attr_put_u32(nlh, IBSW_A_PORT_WIDTH, width);
		mnl_attr_put_u32(nlh, IBSW_A_PORT_SPEED, speed);
	}
	if (has_hca)
		ibsw_attr_put_uint(nlh, IBSW_A_PORT_HCA_RATE, hca_rate);
	err = ctl_request(ctl, nlh, NULL, NULL);
	if (fd >= 0)
		close(fd);
	if (err)
		return ctl_nl_err(ctl, err, "host add %s/%u", sw, port);
	return CTL_OK;
}

static int host_del(struct ctl *ctl, int argc, char **argv)
{
	return ctl_port_request(ctl, IBSW_CMD_HOST_DEL, "host del", argc, argv, true, usage);
}

static const struct ctl_cmd cmds[] = {
	{ "add", host_add },
	{ "del", host_del },
	{ "delete", host_del },
};

int cmd_host(struct ctl *ctl, int argc, char **argv)
{
	if (argc < 1) {
		usage(ctl->err);
		return CTL_USAGE;
	}
	return ctl_dispatch(ctl, "host", cmds, ARRAY_SIZE(cmds), usage, argc, argv);
}
