// SPDX-License-Identifier: GPL-2.0
/* ibswctl lft { set | show }: linear forwarding tables */
#include "ibswctl.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: ibswctl lft set SW LID:PORT[,LID:PORT...]\n"
		"       ibswctl lft show SW\n"
		"set replaces the whole table: LIDs not listed have no route. PORT 0 or 255: no route.\n");
}

static int lft_set(struct ctl *ctl, int argc, char **argv)
{
	char sw[IBSW_NAME_LEN + 1];
	struct nlmsghdr *nlh;
	uint8_t *lft;
	uint32_t top;
	int err;

	if (argc != 2) {
		ctl_err(ctl, "lft set: expected SW LID:PORT[,LID:PORT...]");
		usage(ctl->err);
		return CTL_USAGE;
	}
	if (ctl_parse_name(ctl, argv[0], sw, sizeof(sw)))
		return CTL_USAGE;
	lft = malloc(IBSW_LID_UNICAST_MAX + 1);
	if (!lft) {
		ctl_err(ctl, "out of memory");
		return CTL_FAIL;
	}
	if (ctl_parse_lft(ctl, argv[1], lft, &top)) {
		free(lft);
		return CTL_USAGE;
	}
	nlh = ctl_msg_start(ctl, IBSW_CMD_LFT_SET, 0, top + 1);
	if (!nlh) {
		free(lft);
		ctl_err(ctl, "out of memory");
		return CTL_FAIL;
	}
	mnl_attr_put_strz(nlh, IBSW_A_SWITCH_NAME, sw);
	mnl_attr_put(nlh, IBSW_A_SWITCH_LFT, top + 1, lft);
	free(lft);
	err = ctl_request(ctl, nlh, NULL, NULL);
	if (err)
		return ctl_nl_err(ctl, err, "lft set %s", sw);
	return CTL_OK;
}

static void print_lft(struct ctl *ctl, const struct nlmsghdr *nlh,
		      const struct nlattr **tb, void *arg)
{
	const uint8_t *lft;
	uint16_t len, lid;

	(void)arg;
	if (ctl->json) {
		ctl_json_msg(ctl, NULL, nlh, &ctl_switch_attrs);
		return;
	}
	fprintf(ctl->out, "%s:", tb[IBSW_A_SWITCH_NAME] ?
		mnl_attr_get_str(tb[IBSW_A_SWITCH_NAME]) : "?");
	if (tb[IBSW_A_SWITCH_LFT_TOP])
		fprintf(ctl->out, " lft-top %u", mnl_attr_get_u32(tb[IBSW_A_SWITCH_LFT_TOP]));
	fputc('\n', ctl->out);
	if (!tb[IBSW_A_SWITCH_LFT])
		return;
	lft = mnl_attr_get_payload(tb[IBSW_A_SWITCH_LFT]);
	len = mnl_attr_get_payload_len(tb[IBSW_A_SWITCH_LFT]);
	for (lid = 1; lid < len; lid++)
		if (lft[lid] && lft[lid] != 255)
			fprintf(ctl->out, "  lid %u port %u\n", lid, lft[lid]);
}

static int lft_show(struct ctl *ctl, int argc, char **argv)
{
	char sw[IBSW_NAME_LEN + 1];
	struct nlmsghdr *nlh;
	int err;

	if (argc != 1) {
		ctl_err(ctl, "lft show: expected SW");
		usage(ctl->err);
		return CTL_USAGE;
	}
	if (ctl_parse_name(ctl, argv[0], sw, sizeof(sw)))
		return CTL_USAGE;
	nlh = ctl_msg_start(ctl, IBSW_CMD_LFT_GET, 0, 0);
	mnl_attr_put_strz(nlh, IBSW_A_SWITCH_NAME, sw);
	err = ctl_show(ctl, nlh, &ctl_switch_attrs, print_lft, NULL, false);
	if (err)
		return ctl_nl_err(ctl, err, "lft show %s", sw);
	return CTL_OK;
}

static const struct ctl_cmd cmds[] = {
	{ "show", lft_show },
	{ "set", lft_set },
};

int cmd_lft(struct ctl *ctl, int argc, char **argv)
{
	if (argc < 1) {
		usage(ctl->err);
		return CTL_USAGE;
	}
	return ctl_dispatch(ctl, "lft", cmds, ARRAY_SIZE(cmds), usage, argc, argv);
}
