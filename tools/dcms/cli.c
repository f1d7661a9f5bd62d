// SPDX-License-Identifier: GPL-2.0
/*
 * The command line of dcms: "dcms [OPTIONS]" runs the daemon, "dcms static
 * [OPTIONS]" the static manager, "dcms check [OPTIONS]" only reads the
 * configuration. Options after --conf override the file; any configuration
 * key is also an option (--t_w 27.4M, --t-i 6).
 */
#define _GNU_SOURCE
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void cli_usage(FILE *f)
{
	fprintf(f,
		"Usage: dcms [--conf FILE] [--once] [--duration T] [--daemon] [--log FILE]\n"
		"            [--csv FILE --ports SW/PORT,...] [--pidfile FILE] [--dry-run]\n"
		"            [--topology FILE] [--set KEY=VALUE] [--KEY VALUE]...\n"
		"       dcms static --conf FILE [--switches SW,...] [--ca-devices DEV,...]\n"
		"            [--no-ca] [--sysfs ROOT] [--dry-run] [--KEY VALUE]...\n"
		"       dcms check --conf FILE [--KEY VALUE]...\n"
		"The daemon runs DCMS (seed 000, Algorithms 1-3) on the ibsw switches until\n"
		"SIGINT or SIGTERM, then restores every Marking_Rate it changed. T is in\n"
		"emulated time (1s, 100ms). KEY: tau t_w t_c t_d t_i mr_low mr_default\n"
		"counter_bits time_scale neighbours topology log csv csv_ports dry_run pidfile,\n"
		"backend mad_ca mad_port mad_timeout_ms mad_rediscover cc_key, and OpenSM's\n"
		"cc_* keys for 'static'. See Documentation/dcms.md.\n");
}

static int need(int argc, char **argv, int i, struct conf_diag *diag)
{
	if (i + 1 < argc)
		return 0;
	conf_diag_add(diag, "command line: %s needs a value", argv[i]);
	return -EINVAL;
}

/* Relative paths from the command line are taken from the current directory */
static int set_path(struct conf *conf, const char *key, const char *v,
		    struct conf_diag *diag)
{
	return conf_set(conf, key, v, "command line", diag);
}

static bool opt_is(const char *arg, const char *name)
{
	return !strcmp(arg, name);
}

int cli_parse(int argc, char **argv, struct cli *cli, struct conf *conf,
	      struct conf_diag *diag)
{
	int i = 1, err = 0;

	memset(cli, 0, sizeof(*cli));
	cli->mode = CLI_DAEMON;
	if (argc > 1 && opt_is(argv[1], "static")) {
		cli->mode = CLI_STATIC;
		i = 2;
	} else if (argc > 1 && opt_is(argv[1], "check")) {
		cli->mode = CLI_CHECK;
		i = 2;
	}
	/* the file first, whatever its position: the options override it */
	for (int k = i; k < argc; k++) {
		if ((opt_is(argv[k], "--conf") || opt_is(argv[k], "-c")) && k + 1 < argc) {
			cli->conf_path = argv[k + 1];
			if (conf_load(conf, cli->conf_path, diag))
				return -EINVAL;
			break;
		}
	}
	for (; i < argc; i++) {
		const char *a = argv[i];

		if (opt_is(a, "-h") || opt_is(a, "--help")) {
			cli->help = true;
		} else if (opt_is(a, "-V") || opt_is(a, "--version")) {
			cli->version = true;
		} else if (opt_is(a, "--conf") || opt_is(a, "-c")) {
			if (need(argc, argv, i, diag))
				return -EINVAL;
			i++;
		} else if (cli->mode == CLI_DAEMON && opt_is(a, "--once")) {
			cli->daemon.once = true;
		} else if (cli->mode == CLI_DAEMON && opt_is(a, "--daemon")) {
			cli->daemon.background = true;
		} else if (cli->mode == CLI_DAEMON && opt_is(a, "--duration")) {
			uint64_t ns = 0;

			if (need(argc, argv, i, diag))
				return -EINVAL;
			if (conf_parse_time(argv[++i], &ns)) {
				conf_diag_add(diag, "command line: --duration \"%s\": %s", argv[i],
					      "expected an emulated time above 0 (100ms, 20s)");
				err = -EINVAL;
			}
			cli->daemon.duration = ns / 1e9;
		} else if (opt_is(a, "--dry-run")) {
			conf->dry_run = true;
			cli->ccmgr.dry_run = true;
		} else if (cli->mode == CLI_DAEMON && opt_is(a, "--ports")) {
			if (need(argc, argv, i, diag))
				return -EINVAL;
			err |= conf_set(conf, "csv_ports", argv[++i], "command line", diag);
		} else if (cli->mode == CLI_DAEMON && opt_is(a, "--topology")) {
			if (need(argc, argv, i, diag))
				return -EINVAL;
			err |= set_path(conf, "topology", argv[++i], diag);
			conf->neighbours = CONF_NEIGH_TOPOLOGY;
		} else if (cli->mode == CLI_STATIC && opt_is(a, "--switches")) {
			if (need(argc, argv, i, diag))
				return -EINVAL;
			cli->ccmgr.switches = argv[++i];
		} else if (cli->mode == CLI_STATIC && opt_is(a, "--ca-devices")) {
			if (need(argc, argv, i, diag))
				return -EINVAL;
			cli->ccmgr.ca_devices = argv[++i];
		} else if (cli->mode == CLI_STATIC && opt_is(a, "--no-ca")) {
			cli->ccmgr.no_ca = true;
		} else if (cli->mode == CLI_STATIC && opt_is(a, "--sysfs")) {
			if (need(argc, argv, i, diag))
				return -EINVAL;
			cli->ccmgr.sysfs_root = argv[++i];
		} else if (opt_is(a, "--set")) {
			const char *kv, *eq;
			char k[64];

			if (need(argc, argv, i, diag))
				return -EINVAL;
			kv = argv[++i];
			eq = strchr(kv, '=');
			if (!eq || (size_t)(eq - kv) >= sizeof(k)) {
				conf_diag_add(diag, "command line: --set \"%s\": %s", kv,
					      "expected KEY=VALUE");
				err = -EINVAL;
				continue;
			}
			memcpy(k, kv, eq - kv);
			k[eq - kv] = '\0';
			err |= conf_set(conf, k, eq + 1, "command line", diag);
		} else if (!strncmp(a, "--", 2) && conf_is_key(a + 2)) {
			if (need(argc, argv, i, diag))
				return -EINVAL;
			err |= conf_set(conf, a + 2, argv[i + 1], "command line", diag);
			i++;
		} else {
			conf_diag_add(diag, "command line: unknown option \"%s\"%s", a,
				      cli->mode == CLI_DAEMON ? "" : " here");
			err = -EINVAL;
		}
	}
	if (err)
		return -EINVAL;
	if (cli->help || cli->version)
		return 0;
	if (cli->mode == CLI_STATIC && !cli->conf_path) {
		conf_diag_add(diag, "command line: static needs --conf FILE");
		return -EINVAL;
	}
	if (cli->daemon.background && (!conf->log || !strcmp(conf->log, "-"))) {
		conf_diag_add(diag, "command line: --daemon needs a log file (--log FILE)");
		return -EINVAL;
	}
	if (cli->daemon.once && cli->daemon.duration > 0) {
		conf_diag_add(diag, "command line: --once and --duration exclude each other");
		return -EINVAL;
	}
	return cli->mode == CLI_STATIC ? 0 : conf_check(conf, diag);
}

/* For --daemon, which leaves the current directory */
int cli_absolute_paths(struct conf *conf)
{
	char **paths[] = { &conf->log, &conf->csv, &conf->pidfile, &conf->topology };
	char cwd[4096], *abs;
	size_t i;

	if (!getcwd(cwd, sizeof(cwd)))
		return -errno;
	for (i = 0; i < ARRAY_SIZE(paths); i++) {
		char *p = *paths[i];

		if (!p || *p == '/' || !strcmp(p, "-"))
			continue;
		if (asprintf(&abs, "%s/%s", cwd, p) < 0)
			return -ENOMEM;
		free(p);
		*paths[i] = abs;
	}
	return 0;
}
