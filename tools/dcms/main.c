// SPDX-License-Identifier: GPL-2.0
/* dcms: the DCMS daemon and the static congestion control manager. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

static void print_conf(FILE *f, const struct conf *c)
{
	char sw[512];

	fprintf(f, "tau %.9gs\nt_w %llu\nt_c %llu\nt_d %llu\nt_i %u\nmr_low %u\nmr_default %u\n",
		c->tau_ns / 1e9, (unsigned long long)c->par.t_w,
		(unsigned long long)c->par.t_c, (unsigned long long)c->par.t_d, c->par.t_i,
		c->par.mr_low, c->par.mr_default);
	fprintf(f, "counter_bits %u\n", c->par.counter_bits);
	if (c->time_scale)
		fprintf(f, "time_scale %u\n", c->time_scale);
	else
		fprintf(f, "time_scale auto\n");
	fprintf(f, "neighbours %s\n",
		c->neighbours == CONF_NEIGH_TOPOLOGY ? "topology" : "netlink");
	if (c->topology)
		fprintf(f, "topology %s\n", c->topology);
	fprintf(f, "backend %s\n", c->backend == CONF_BACKEND_MAD ? "mad" : "netlink");
	if (c->backend == CONF_BACKEND_MAD) {
		fprintf(f, "mad_ca %s\n", c->mad_ca[0] ? c->mad_ca : "(first CA)");
		fprintf(f, "mad_port %u\nmad_timeout_ms %u\nmad_rediscover %u\n", c->mad_port,
			c->mad_timeout_ms, c->mad_rediscover);
		fprintf(f, "cc_key 0x%016llx\n", (unsigned long long)c->cc_key);
	}
	ccmgr_describe_sw(&c->sw, sw, sizeof(sw));
	if (*sw)
		fprintf(f, "# static, switches: %s\n", sw);
	if (conf_has_ca(c))
		fprintf(f, "# static: CA settings given\n");
}

int main(int argc, char **argv)
{
	struct conf_diag diag;
	struct backend be;
	struct conf conf;
	struct cli cli;
	int rc, err;

	conf_init(&conf);
	conf_diag_init(&diag);
	if (cli_parse(argc, argv, &cli, &conf, &diag)) {
		conf_diag_print(stderr, &diag);
		conf_diag_free(&diag);
		conf_free(&conf);
		return 2;
	}
	conf_diag_free(&diag);
	if (cli.help || cli.version) {
		if (cli.help)
			cli_usage(stdout);
		else
			printf("dcms %s\n", DCMS_VERSION);
		conf_free(&conf);
		return 0;
	}
	if (cli.mode == CLI_CHECK) {
		print_conf(stdout, &conf);
		conf_free(&conf);
		return 0;
	}
	memset(&be, 0, sizeof(be));
	/* static: the MAD backend for the HCAs too, netlink's only for the switches */
	if (cli.mode == CLI_DAEMON || conf.sw.set ||
	    (conf.backend == CONF_BACKEND_MAD && conf_has_ca(&conf) && !cli.ccmgr.no_ca)) {
		err = conf.backend == CONF_BACKEND_MAD ? backend_mad_open(&be, &conf) :
							backend_genl_open(&be);
		if (err) {
			fprintf(stderr, "dcms: %s\n", be.msg);
			conf_free(&conf);
			return 1;
		}
	}
	if (cli.mode == CLI_STATIC) {
		rc = ccmgr_run(&conf, &cli.ccmgr, be.ops ? &be : NULL, stdout, stderr);
	} else {
		if (cli.daemon.background && cli_absolute_paths(&conf)) {
			fprintf(stderr, "dcms: cannot resolve relative paths\n");
			rc = 1;
		} else {
			rc = daemon_run(&conf, &cli.daemon, &be, stderr);
		}
	}
	if (be.ops)
		be.ops->close(&be);
	conf_free(&conf);
	return rc;
}
