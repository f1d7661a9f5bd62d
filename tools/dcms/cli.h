/* SPDX-License-Identifier: GPL-2.0 */
/* The command line of dcms, parsed without side effects (tested). */
#ifndef DCMS_CLI_H
#define DCMS_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "conf.h"
#include "dcms.h"

enum cli_mode {
	CLI_DAEMON,
	CLI_STATIC,
	CLI_CHECK,
};

struct cli {
	enum cli_mode mode;
	bool help;
	bool version;
	const char *conf_path;
	struct daemon_opts daemon;
	struct ccmgr_opts ccmgr;
};

/* conf must be conf_init()ed; errors in diag. 0 or -EINVAL. */
int cli_parse(int argc, char **argv, struct cli *cli, struct conf *conf,
	      struct conf_diag *diag);
int cli_absolute_paths(struct conf *conf);
void cli_usage(FILE *f);

#endif /* DCMS_CLI_H */
