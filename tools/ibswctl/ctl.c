// SPDX-License-Identifier: GPL-2.0
/* Options, the OBJECT table and command dispatch. */
#define _GNU_SOURCE
#include "ibswctl.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static void ctl_usage(FILE *f)
{
	fprintf(f,
		"Usage: ibswctl [OPTIONS] OBJECT { COMMAND | help }\n"
		"       ibswctl [OPTIONS] monitor\n"
		"where  OBJECT := { fabric | switch | port | link | remote | host | lft | addr |\n"
		"                   counters | cc | hca | mgmt }\n"
		"       OPTIONS := { -j[son] | -p[retty] | -d[etails] | -V[ersion] | -h[elp] }\n"
		"Objects and commands may be abbreviated (\"sw\" for switch).\n"
		"Exit status: 0 success, 1 failure, 2 usage error.\n");
}

static int cmd_help(struct ctl *ctl, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	ctl_usage(ctl->out);
	return CTL_OK;
}

static int cmd_version(struct ctl *ctl, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(ctl->out, "ibswctl %s (netlink family %s version %d)\n", IBSWCTL_VERSION,
		IBSW_FAMILY_NAME, IBSW_FAMILY_VERSION);
	return CTL_OK;
}

/* Order matters for abbreviations: the first entry a prefix matches wins. */
static const struct ctl_cmd objects[] = {
	{ "help", cmd_help },
	{ "fabric", cmd_fabric },
	{ "switch", cmd_switch },
	{ "port", cmd_port },
	{ "link", cmd_link },
	{ "remote", cmd_remote },
	{ "host", cmd_host },
	{ "mgmt", cmd_mgmt },
	{ "lft", cmd_lft },
	{ "addr", cmd_addr },
	{ "counters", cmd_counters },
	{ "cc", cmd_cc },
	{ "hca", cmd_hca },
	{ "monitor", cmd_monitor },
	{ "version", cmd_version },
};

void ctl_init(struct ctl *ctl, const struct ctl_ops *ops, FILE *out, FILE *err)
{
	memset(ctl, 0, sizeof(*ctl));
	ctl->ops = ops;
	ctl->out = out;
	ctl->err = err;
	ctl->sys_root = "/sys";
	ctl->netns_dir = IBSWCTL_NETNS_DIR;
	ctl->rdma_netns_path = IBSWCTL_RDMA_NETNS_PATH;
	ctl->run_dir = IBSWCTL_RUN_DIR;
	ctl->rdma_netns_wait_ms = 30000;
	jw_init(&ctl->jw, out, false);
}

void ctl_fini(struct ctl *ctl)
{
	if (ctl->ops && ctl->ops->close)
		ctl->ops->close(ctl);
	free(ctl->buf);
	ctl->buf = NULL;
	ctl->buf_size = 0;
}

int ctl_dispatch(struct ctl *ctl, const char *object, const struct ctl_cmd *cmds,
		 size_t n, void (*usage_fn)(FILE *f), int argc, char **argv)
{
	size_t i;

	if (argc < 1)
		return cmds[0].fn(ctl, 0, argv);
	if (!strcmp(argv[0], "help") || !strcmp(argv[0], "-h") || !strcmp(argv[0], "--help")) {
		usage_fn(ctl->out);
		return CTL_OK;
	}
	for (i = 0; i < n; i++)
		if (!strcmp(argv[0], cmds[i].name))
			return cmds[i].fn(ctl, argc - 1, argv + 1);
	for (i = 0; i < n; i++)
		if (ctl_matches(argv[0], cmds[i].name))
			return cmds[i].fn(ctl, argc - 1, argv + 1);
	if (object)
		ctl_err(ctl, "unknown command \"%s\" for object %s; try \"ibswctl %s help\"",
			argv[0], object, object);
	else
		ctl_err(ctl, "unknown object \"%s\"; try \"ibswctl help\"", argv[0]);
	usage_fn(ctl->err);
	return CTL_USAGE;
}

int ctl_run_argv(struct ctl *ctl, int argc, char **argv)
{
	if (argc < 1) {
		ctl_usage(ctl->err);
		return CTL_USAGE;
	}
	return ctl_dispatch(ctl, NULL, objects, ARRAY_SIZE(objects), ctl_usage, argc, argv);
}

int ctl_main(struct ctl *ctl, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "pretty", no_argument, NULL, 'p' },
		{ "details", no_argument, NULL, 'd' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char **args;
	int c, ret;

	/* argv[0] is the program; getopt_long reorders only up to OBJECT ("+") */
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+jpdVh", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			ctl->json = true;
			break;
		case 'p':
			ctl->pretty = true;
			break;
		case 'd':
			ctl->details = true;
			break;
		case 'V':
			return cmd_version(ctl, 0, NULL);
		case 'h':
			ctl_usage(ctl->out);
			return CTL_OK;
		default:
			ctl_err(ctl, "unknown option \"%s\"", argv[optind - 1]);
			ctl_usage(ctl->err);
			return CTL_USAGE;
		}
	}
	jw_init(&ctl->jw, ctl->out, ctl->pretty);
	if (ctl->pretty && !ctl->json)
		ctl->json = true;
	args = argv + optind;
	if (optind >= argc) {
		ctl_usage(ctl->err);
		return CTL_USAGE;
	}
	ret = ctl_run_argv(ctl, argc - optind, args);
	fflush(ctl->out);
	return ret;
}
