// SPDX-License-Identifier: GPL-2.0
/* ibswctl monitor: print the notifications of the monitor group */
#include "ibswctl.h"

#include <errno.h>
#include <string.h>

#include <linux/genetlink.h>

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: ibswctl [-j] monitor\n"
		"Prints every change of the fabric until interrupted: one line per event,\n"
		"\"EVENT: OBJECT\" (or one JSON object per line with -j).\n");
}

/* Event names: the notification's name without "-ntf" */
static void event_name(char *buf, size_t len, uint8_t cmd)
{
	const char *name = ctl_cmd_name(cmd);
	size_t n = strlen(name);

	if (n > 4 && !strcmp(name + n - 4, "-ntf"))
		n -= 4;
	snprintf(buf, len, "%.*s", (int)n, name);
}

int ctl_print_event(struct ctl *ctl, const struct nlmsghdr *nlh, void *data)
{
	const struct genlmsghdr *genl = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *tb[64];
	const struct ibsw_attr_set *set;
	ctl_print_fn print;
	char event[32];

	(void)data;
	if (nlh->nlmsg_len < MNL_NLMSG_HDRLEN + sizeof(*genl))
		return 0;
	switch (genl->cmd) {
	case IBSW_CMD_FABRIC_CHANGE_NTF:
		set = &ctl_fabric_attrs;
		print = ctl_print_fabric;
		break;
	case IBSW_CMD_SWITCH_NEW_NTF:
	case IBSW_CMD_SWITCH_DEL_NTF:
	case IBSW_CMD_SWITCH_CHANGE_NTF:
		set = &ctl_switch_attrs;
		print = ctl_print_switch;
		break;
	case IBSW_CMD_PORT_CHANGE_NTF:
		set = &ctl_port_attrs;
		print = ctl_print_port;
		break;
	case IBSW_CMD_CC_CHANGE_NTF:
		set = &ctl_cc_attrs;
		print = ctl_print_cc;
		break;
	default:
		return 0;	/* newer than this tool */
	}
	if (ctl_parse_msg(ctl, nlh, set, tb))
		return 0;
	event_name(event, sizeof(event), genl->cmd);
	if (ctl->json) {
		jw_obj_open(&ctl->jw, NULL);
		jw_str(&ctl->jw, "event", event);
		ctl_json_msg(ctl, set->name, nlh, set);
		jw_obj_close(&ctl->jw);
	} else {
		fprintf(ctl->out, "%s: ", event);
		print(ctl, nlh, tb, NULL);
	}
	fflush(ctl->out);
	return 0;
}

int cmd_monitor(struct ctl *ctl, int argc, char **argv)
{
	int err;

	if (argc) {
		if (!strcmp(argv[0], "help")) {
			usage(ctl->out);
			return CTL_OK;
		}
		ctl_err(ctl, "monitor: no arguments expected");
		usage(ctl->err);
		return CTL_USAGE;
	}
	/* one compact object per line, even with -p, so the stream stays line-based */
	if (ctl->json)
		jw_init(&ctl->jw, ctl->out, false);
	err = ctl->ops->listen(ctl, ctl_print_event, NULL);
	if (err)
		return ctl_nl_err(ctl, err, "monitor");
	return CTL_OK;
}
