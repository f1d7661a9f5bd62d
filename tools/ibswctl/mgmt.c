// SPDX-License-Identifier: GPL-2.0
/* ibswctl mgmt { add | del }: management HCAs, for OpenSM and infiniband-diags */
#include "ibswctl.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: ibswctl mgmt add SW/PORT [name IBDEV] [guid GUID] [lid LID] [netns NAME]\n"
		"       ibswctl mgmt del SW/PORT\n"
		"A management HCA is an InfiniBand device (ibsw_mgmt0, ...) cabled to the\n"
		"switch port, on which ib_umad gives OpenSM and infiniband-diags their\n"
		"umad and issm files. name: its device name, may hold one %%d. guid: its\n"
		"node and port GUID (0x...), by default made from the switch and port.\n"
		"lid: the LID it starts with (an SM may give another); hosts reach it at\n"
		"the addresses mapped to its LID (addr set). netns: the management node's\n"
		"namespace (/run/netns/NAME), by default this one: in rdma's exclusive netns\n"
		"mode only there is the device seen and opened.\n");
}

static int mgmt_add(struct ctl *ctl, int argc, char **argv)
{
	char sw[IBSW_NAME_LEN + 1];
	const char *name = NULL, *netns = NULL;
	bool has_guid = false;
	struct nlmsghdr *nlh;
	uint64_t guid = 0;
	uint32_t port, lid = 0;
	int err, i, fd = -1;

	if (argc < 1) {
		ctl_err(ctl, "mgmt add: expected SW/PORT");
		usage(ctl->err);
		return CTL_USAGE;
	}
	if (ctl_parse_swport(ctl, argv[0], sw, sizeof(sw), &port, true))
		return CTL_USAGE;
	for (i = 1; i < argc; i += 2) {
		const char *key = argv[i], *val;
		char *end;

		if (i + 1 >= argc) {
			ctl_err(ctl, "mgmt add: \"%s\" needs a value", key);
			return CTL_USAGE;
		}
		val = argv[i + 1];
		if (ctl_matches(key, "name")) {
			if (!*val || strlen(val) > 63 || strchr(val, '/') ||
			    strpbrk(val, " \t\n")) {
				ctl_err(ctl, "bad device name \"%s\": 1 to 63 characters, no '/' or blanks",
					val);
				return CTL_USAGE;
			}
			name = val;
		} else if (ctl_matches(key, "guid")) {
			errno = 0;
			guid = strtoull(val, &end, 0);
			if (errno || !*val || *end || !guid) {
				ctl_err(ctl, "bad GUID \"%s\": a non-zero 64-bit number (0x...)",
					val);
				return CTL_USAGE;
			}
			has_guid = true;
		} else if (ctl_matches(key, "lid")) {
			if (ctl_parse_u32(ctl, "LID", val, 1, IBSW_LID_UNICAST_MAX, &lid))
				return CTL_USAGE;
		} else if (ctl_matches(key, "netns")) {
			netns = val;
		} else {
			ctl_err(ctl, "mgmt add: unknown argument \"%s\"", key);
			usage(ctl->err);
			return CTL_USAGE;
		}
	}
	if (netns) {
		fd = ctl->ops->netns_open(ctl, netns);
		if (fd < 0) {
			ctl_err(ctl, "mgmt add: network namespace \"%s\": %s", netns,
				strerror(-fd));
			return CTL_FAIL;
		}
	}
	nlh = ctl_msg_start(ctl, IBSW_CMD_MGMT_NEW, 0, 0);
	mnl_attr_put_strz(nlh, IBSW_A_PORT_SWITCH_NAME, sw);
	mnl_attr_put_u32(nlh, IBSW_A_PORT_PORT, port);
	if (name)
		mnl_attr_put_strz(nlh, IBSW_A_PORT_IBDEV_NAME, name);
	if (has_guid)
		ibsw_attr_put_uint(nlh, IBSW_A_PORT_GUID, guid);
	if (lid)
		mnl_attr_put_u32(nlh, IBSW_A_PORT_LID, lid);
	if (fd >= 0)
		mnl_attr_put_u32(nlh, IBSW_A_PORT_NETNS_FD, fd);
	err = ctl_request(ctl, nlh, NULL, NULL);
	if (fd >= 0)
		close(fd);
	if (err)
		return ctl_nl_err(ctl, err, "mgmt add %s/%u", sw, port);
	return CTL_OK;
}

static int mgmt_del(struct ctl *ctl, int argc, char **argv)
{
	return ctl_port_request(ctl, IBSW_CMD_MGMT_DEL, "mgmt del", argc, argv, true, usage);
}

static const struct ctl_cmd cmds[] = {
	{ "add", mgmt_add },
	{ "del", mgmt_del },
	{ "delete", mgmt_del },
};

int cmd_mgmt(struct ctl *ctl, int argc, char **argv)
{
	if (argc < 1) {
		usage(ctl->err);
		return CTL_USAGE;
	}
	return ctl_dispatch(ctl, "mgmt", cmds, ARRAY_SIZE(cmds), usage, argc, argv);
}
