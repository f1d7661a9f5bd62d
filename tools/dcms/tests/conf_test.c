// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the configuration (conf.c) and the command line (cli.c):
 * the values and their units, the shipped profiles, every error reported
 * as FILE:LINE: reason, overrides from the command line.
 */
#define _GNU_SOURCE
#include "helpers.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "conf.h"

static char *diag_text(const struct conf_diag *diag)
{
	struct capture c;
	char *s;

	capture_open(&c);
	conf_diag_print(c.f, diag);
	s = strdup(capture_text(&c));
	capture_close(&c);
	return s;
}

static void counts(void **state)
{
	uint64_t v;

	(void)state;
	assert_int_equal(conf_parse_count("27.4M", &v), 0);
	assert_int_equal(v, 27400000);
	assert_int_equal(conf_parse_count("8M", &v), 0);
	assert_int_equal(v, 8000000);
	assert_int_equal(conf_parse_count("62.5M", &v), 0);
	assert_int_equal(v, 62500000);
	assert_int_equal(conf_parse_count("274K", &v), 0);
	assert_int_equal(v, 274000);
	assert_int_equal(conf_parse_count("1.5G", &v), 0);
	assert_int_equal(v, 1500000000);
	assert_int_equal(conf_parse_count("0", &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(conf_parse_count("18446744073709551615", &v), 0);
	assert_true(v == UINT64_MAX);
	/* not whole numbers, not numbers, too large */
	assert_int_equal(conf_parse_count("1.5", &v), -EINVAL);
	assert_int_equal(conf_parse_count("1.0000005M", &v), -EINVAL);
	assert_int_equal(conf_parse_count("", &v), -EINVAL);
	assert_int_equal(conf_parse_count("M", &v), -EINVAL);
	assert_int_equal(conf_parse_count("1.M", &v), -EINVAL);
	assert_int_equal(conf_parse_count("-1", &v), -EINVAL);
	assert_int_equal(conf_parse_count("8m", &v), -EINVAL);
	assert_int_equal(conf_parse_count("8MM", &v), -EINVAL);
	assert_int_equal(conf_parse_count("18446744073709551616", &v), -EINVAL);
	assert_int_equal(conf_parse_count("20000000T", &v), -EINVAL);
}

static void times(void **state)
{
	uint64_t ns;

	(void)state;
	assert_int_equal(conf_parse_time("1s", &ns), 0);
	assert_int_equal(ns, 1000000000);
	assert_int_equal(conf_parse_time("1", &ns), 0);
	assert_int_equal(ns, 1000000000);
	assert_int_equal(conf_parse_time("10ms", &ns), 0);
	assert_int_equal(ns, 10000000);
	assert_int_equal(conf_parse_time("0.5", &ns), 0);
	assert_int_equal(ns, 500000000);
	assert_int_equal(conf_parse_time("250us", &ns), 0);
	assert_int_equal(ns, 250000);
	assert_int_equal(conf_parse_time("7ns", &ns), 0);
	assert_int_equal(ns, 7);
	assert_int_equal(conf_parse_time("0s", &ns), -EINVAL);
	assert_int_equal(conf_parse_time("5m", &ns), -EINVAL);
	assert_int_equal(conf_parse_time("s", &ns), -EINVAL);
	assert_int_equal(conf_parse_time("1.5ns", &ns), -EINVAL);
}

static void port_lists(void **state)
{
	struct conf_port p[3];
	unsigned int n;

	(void)state;
	assert_int_equal(conf_parse_ports("S1/15,S2/23", p, 3, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(p[0].sw, "S1");
	assert_int_equal(p[0].port, 15);
	assert_string_equal(p[1].sw, "S2");
	assert_int_equal(p[1].port, 23);
	assert_int_equal(conf_parse_ports(" S1/08 , s2/254", p, 3, &n), 0);
	assert_int_equal(p[0].port, 8);
	assert_int_equal(p[1].port, 254);
	assert_int_equal(conf_parse_ports("S1/0", p, 3, &n), -EINVAL);
	assert_int_equal(conf_parse_ports("S1/255", p, 3, &n), -EINVAL);
	assert_int_equal(conf_parse_ports("S1", p, 3, &n), -EINVAL);
	assert_int_equal(conf_parse_ports("/3", p, 3, &n), -EINVAL);
	assert_int_equal(conf_parse_ports("S1/3,", p, 3, &n), -EINVAL);
	assert_int_equal(conf_parse_ports("A/1,B/1,C/1,D/1", p, 3, &n), -EINVAL);
}

static void defaults_are_the_papers(void **state)
{
	struct conf c;

	(void)state;
	conf_init(&c);
	assert_int_equal(c.par.t_w, 27400000);
	assert_int_equal(c.par.t_c, 8000000);
	assert_int_equal(c.par.t_i, 12);
	assert_int_equal(c.par.mr_low, 0);
	assert_int_equal(c.par.mr_default, 128);
	assert_int_equal(c.tau_ns, 1000000000);
	assert_int_equal(c.time_scale, 0);
	conf_free(&c);
}

static void profile(const char *name, struct conf *c)
{
	struct conf_diag diag;
	char path[4096];
	char *msgs;

	snprintf(path, sizeof(path), "%s/%s", PROFILES, name);
	conf_init(c);
	conf_diag_init(&diag);
	if (conf_load(c, path, &diag) || conf_check(c, &diag)) {
		msgs = diag_text(&diag);
		fail_msg("%s:\n%s", name, msgs);
	}
	conf_diag_free(&diag);
}

static void shipped_profiles(void **state)
{
	/* the time-compressed profiles: sweeps of tau_ns, no CA keys */
	static const struct {
		const char *file;
		uint64_t t_w, t_c, t_d;
		unsigned int t_i;
		uint64_t tau_ns;
	} scaled[] = {
		{ "seed000-100x.conf", 100000, 28000, 1250000, 12, 10000000 },
		{ "seed000-1x.conf", 125000, 28000, 1250000, 8, 40000000 },
	};
	struct conf c;
	size_t i;

	(void)state;
	profile("seed000.conf", &c);
	assert_int_equal(c.par.t_w, 27400000);
	assert_int_equal(c.par.t_c, 8000000);
	assert_int_equal(c.par.t_d, 62500000);
	assert_int_equal(c.par.t_i, 12);
	assert_int_equal(c.par.mr_low, 0);
	assert_int_equal(c.par.mr_default, 128);
	assert_int_equal(c.tau_ns, 1000000000);
	assert_non_null(strstr(c.topology, "/profiles/../../../topologies/seed000-dcms.net"));
	assert_int_equal(c.sw.set, CC_SW_THRESHOLD | CC_SW_PACKET_SIZE | CC_SW_MARKING_RATE);
	assert_int_equal(c.sw.threshold, 15);
	assert_int_equal(c.sw.marking_rate, 128);
	assert_true(conf_has_ca(&c));
	assert_int_equal(c.ca.sl[0].ccti_timer, 75);
	assert_int_equal(c.ca.sl[0].ccti_increase, 1);
	conf_free(&c);
	for (i = 0; i < ARRAY_SIZE(scaled); i++) {
		profile(scaled[i].file, &c);
		assert_int_equal(c.par.t_w, scaled[i].t_w);
		assert_int_equal(c.par.t_c, scaled[i].t_c);
		assert_int_equal(c.par.t_d, scaled[i].t_d);
		assert_int_equal(c.par.t_i, scaled[i].t_i);
		assert_int_equal(c.tau_ns, scaled[i].tau_ns);
		assert_false(conf_has_ca(&c));
		conf_free(&c);
	}
}

static void errors_name_file_and_line(void **state)
{
	struct conf_diag diag;
	struct conf c;
	char path[4096], prefix[4200], *msgs;

	(void)state;
	snprintf(path, sizeof(path), "%s/bad.conf", FIXTURES);
	conf_init(&c);
	conf_diag_init(&diag);
	assert_int_equal(conf_load(&c, path, &diag), -EINVAL);
	msgs = diag_text(&diag);
	snprintf(prefix, sizeof(prefix), "%s:", path);
	assert_lines(msgs, prefix, (const char *const []){
		"3: t_w \"27.4\": expected a whole number, K, M, G or T allowed (27.4M)",
		"4: t_c \"eight\": expected a whole number, K, M, G or T allowed (27.4M)",
		"5: t_i \"1\": expected a number of sweeps, 2 or more",
		"6: mr_low \"70000\": expected a Marking_Rate, 0 to 65535",
		"7: unknown key \"frobnicate\"",
		"8: tau \"0s\": expected a time above 0: 1s, 10ms, 250us",
		"9: t_d: missing value",
		"10: neighbours \"lldp\": expected netlink or topology",
		"11: csv_ports \"S1:15\": expected SW/PORT[,SW/PORT...] (S1/15,S2/23), at most 64",
		"12: counter_bits \"65\": expected a counter width in bits, 1 to 64",
		"13: cc_sw_cong_setting_threshold \"16\": expected a threshold, 0 to 15",
		"14: cc_ca_cong_setting_ccti_timer SL \"16\": expected 0 to 15",
		"15: cc_cct \"0:1,4:2\": expected SHIFT:MULT[,...] (0-3:0-16383), at most 128",
		NULL });
	/* the good line still counts */
	assert_int_equal(c.tau_ns, 2000000000);
	free(msgs);
	conf_diag_free(&diag);
	conf_free(&c);

	/* a file that is not there */
	conf_init(&c);
	assert_int_equal(conf_load(&c, "/nonexistent/dcms.conf", &diag), -ENOENT);
	msgs = diag_text(&diag);
	assert_lines(msgs, "/nonexistent/dcms.conf: ", (const char *const []){
		"cannot open: No such file or directory", NULL });
	free(msgs);
	conf_diag_free(&diag);
	conf_free(&c);
}

static void whole_config_checks(void **state)
{
	struct conf_diag diag;
	struct conf c;
	char *msgs;

	(void)state;
	conf_init(&c);
	conf_diag_init(&diag);
	assert_int_equal(conf_load_string(&c, "csv x.csv\nneighbours topology\nmr_low 128\n",
					  "t.conf", &diag), 0);
	assert_int_equal(conf_check(&c, &diag), -EINVAL);
	msgs = diag_text(&diag);
	assert_lines(msgs, "", (const char *const []){
		"csv x.csv: csv_ports (--ports) is not set",
		"neighbours topology: no topology file given (topology PATH)",
		"mr_low and mr_default are both 128: DCMS would change nothing",
		NULL });
	free(msgs);
	conf_diag_free(&diag);
	conf_free(&c);
}

static void relative_paths_and_syntax(void **state)
{
	struct conf_diag diag;
	struct conf c;
	char path[4096], want[4200];

	(void)state;
	snprintf(path, sizeof(path), "%s/relative.conf", FIXTURES);
	conf_init(&c);
	conf_diag_init(&diag);
	assert_int_equal(conf_load(&c, path, &diag), 0);
	snprintf(want, sizeof(want), "%s/out/dcms.log", FIXTURES);
	assert_string_equal(c.log, want);
	snprintf(want, sizeof(want), "%s/out/dcms.csv", FIXTURES);
	assert_string_equal(c.csv, want);
	assert_string_equal(c.topology, "/abs/topo.net");
	assert_int_equal(c.ncsv_ports, 2);
	assert_string_equal(c.csv_ports[1].sw, "S2");
	assert_int_equal(c.time_scale, 1000);
	conf_free(&c);
	/* '-' for '_' in keys, "=" optional, comments anywhere */
	conf_init(&c);
	assert_int_equal(conf_load_string(&c, "  t-w = 1K # comment\n\tT_I 3\n", "t", &diag), 0);
	assert_int_equal(c.par.t_w, 1000);
	assert_int_equal(c.par.t_i, 3);
	conf_diag_free(&diag);
	conf_free(&c);
}

static void backend_keys(void **state)
{
	struct conf_diag diag;
	char *msgs, name[65];
	struct conf c;

	(void)state;
	conf_init(&c);
	assert_int_equal(c.backend, CONF_BACKEND_NETLINK);
	assert_string_equal(c.mad_ca, "");
	assert_int_equal(c.mad_port, 1);
	assert_int_equal(c.mad_timeout_ms, 200);
	assert_int_equal(c.mad_rediscover, 10);
	assert_true(c.cc_key == 0);
	conf_diag_init(&diag);
	assert_int_equal(conf_load_string(&c, "backend mad\nmad_ca ibsw_mgmt0\nmad-port = 2\n"
					  "cc_key 0xFEDCBA9876543210\nmad_timeout_ms 60000\n"
					  "mad_rediscover 0\n", "t.conf", &diag), 0);
	assert_int_equal(c.backend, CONF_BACKEND_MAD);
	assert_string_equal(c.mad_ca, "ibsw_mgmt0");
	assert_int_equal(c.mad_port, 2);
	assert_true(c.cc_key == 0xfedcba9876543210ULL);
	assert_int_equal(c.mad_timeout_ms, 60000);
	assert_int_equal(c.mad_rediscover, 0);
	assert_int_equal(conf_load_string(&c, "cc_key 18446744073709551615\nbackend netlink\n",
					  "t.conf", &diag), 0);
	assert_true(c.cc_key == UINT64_MAX);
	assert_int_equal(c.backend, CONF_BACKEND_NETLINK);
	conf_free(&c);

	conf_init(&c);
	assert_int_equal(conf_load_string(&c,
					  "backend umad\n"
					  "mad_ca ibsw mgmt0\n"
					  "mad_port 0\n"
					  "mad_port 255\n"
					  "cc_key 0x10000000000000000\n"
					  "cc_key -1\n"
					  "mad_timeout_ms 0\n"
					  "mad_rediscover 1000001\n"
					  "mad_ca\n",
					  "t.conf", &diag), -EINVAL);
	msgs = diag_text(&diag);
	assert_lines(msgs, "t.conf:", (const char *const []){
		"1: backend \"umad\": expected netlink or mad",
		"2: mad_ca \"ibsw mgmt0\": expected an RDMA device name, at most 63 characters",
		"3: mad_port \"0\": expected a port number, 1 to 254",
		"4: mad_port \"255\": expected a port number, 1 to 254",
		"5: cc_key \"0x10000000000000000\": expected a 64-bit CC_Key (0x0123456789abcdef)",
		"6: cc_key \"-1\": expected a 64-bit CC_Key (0x0123456789abcdef)",
		"7: mad_timeout_ms \"0\": expected a timeout in milliseconds, 1 to 60000",
		"8: mad_rediscover \"1000001\": expected a number of sweeps, 0 to 1000000",
		"9: mad_ca: missing value",
		NULL });
	/* nothing of a bad line is taken */
	assert_int_equal(c.backend, CONF_BACKEND_NETLINK);
	assert_int_equal(c.mad_port, 1);
	assert_string_equal(c.mad_ca, "");
	free(msgs);
	conf_diag_free(&diag);
	/* 63 characters fit, 64 do not */
	memset(name, 'a', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	assert_int_equal(conf_set(&c, "mad_ca", name, "command line", &diag), -EINVAL);
	msgs = diag_text(&diag);
	assert_non_null(strstr(msgs, "aaa\": expected an RDMA device name, at most 63 characters"));
	free(msgs);
	conf_diag_free(&diag);
	name[63] = '\0';
	assert_int_equal(conf_set(&c, "mad_ca", name, "command line", &diag), 0);
	assert_string_equal(c.mad_ca, name);
	conf_free(&c);
}

static int parse_cmdline(struct cli *cli, struct conf *c, char **msgs, ...)
{
	char *argv[32];
	struct conf_diag diag;
	va_list ap;
	int argc = 0, err;

	va_start(ap, msgs);
	argv[argc++] = "dcms";
	while ((argv[argc] = va_arg(ap, char *)))
		argc++;
	va_end(ap);
	conf_init(c);
	conf_diag_init(&diag);
	err = cli_parse(argc, argv, cli, c, &diag);
	*msgs = diag_text(&diag);
	conf_diag_free(&diag);
	return err;
}

static void command_line(void **state)
{
	char conf_path[4096], *msgs;
	struct conf c;
	struct cli cli;

	(void)state;
	snprintf(conf_path, sizeof(conf_path), "%s/seed000.conf", PROFILES);
	/* the options override the file, wherever --conf is */
	assert_int_equal(parse_cmdline(&cli, &c, &msgs, "--t-i", "6", "--conf", conf_path,
				       "--set", "t_w=30M", "--tau", "500ms", "--once",
				       "--csv", "x.csv", "--ports", "S1/15,S2/23", NULL), 0);
	assert_string_equal(msgs, "");
	assert_int_equal(cli.mode, CLI_DAEMON);
	assert_true(cli.daemon.once);
	assert_int_equal(c.par.t_i, 6);
	assert_int_equal(c.par.t_w, 30000000);
	assert_int_equal(c.tau_ns, 500000000);
	assert_string_equal(c.csv, "x.csv");
	assert_int_equal(c.ncsv_ports, 2);
	free(msgs);
	conf_free(&c);

	/* the backend's keys are options too */
	assert_int_equal(parse_cmdline(&cli, &c, &msgs, "--conf", conf_path, "--backend", "mad",
				       "--mad-ca", "ibsw_mgmt0", "--set", "cc_key=0x2a", NULL), 0);
	assert_string_equal(msgs, "");
	assert_int_equal(c.backend, CONF_BACKEND_MAD);
	assert_string_equal(c.mad_ca, "ibsw_mgmt0");
	assert_true(c.cc_key == 0x2a);
	free(msgs);
	conf_free(&c);

	assert_int_equal(parse_cmdline(&cli, &c, &msgs, "--duration", "100ms", "--dry-run",
				       "--topology", "t.net", NULL), 0);
	assert_true(cli.daemon.duration > 0.0999 && cli.daemon.duration < 0.1001);
	assert_true(c.dry_run);
	assert_int_equal(c.neighbours, CONF_NEIGH_TOPOLOGY);
	free(msgs);
	conf_free(&c);

	assert_int_equal(parse_cmdline(&cli, &c, &msgs, "--frob", "--daemon", "--t_c", "x",
				       "--set", "novalue", "--duration", "0", NULL), -EINVAL);
	assert_lines(msgs, "command line: ", (const char *const []){
		"unknown option \"--frob\"",
		"t_c \"x\": expected a whole number, K, M, G or T allowed (27.4M)",
		"--set \"novalue\": expected KEY=VALUE",
		"--duration \"0\": expected an emulated time above 0 (100ms, 20s)",
		NULL });
	free(msgs);
	conf_free(&c);

	assert_int_equal(parse_cmdline(&cli, &c, &msgs, "--daemon", NULL), -EINVAL);
	assert_string_equal(msgs, "command line: --daemon needs a log file (--log FILE)\n");
	free(msgs);
	conf_free(&c);

	assert_int_equal(parse_cmdline(&cli, &c, &msgs, "--once", "--duration", "1s", NULL),
			 -EINVAL);
	assert_string_equal(msgs, "command line: --once and --duration exclude each other\n");
	free(msgs);
	conf_free(&c);

	assert_int_equal(parse_cmdline(&cli, &c, &msgs, "--tau", NULL), -EINVAL);
	assert_string_equal(msgs, "command line: --tau needs a value\n");
	free(msgs);
	conf_free(&c);

	/* static takes its own options and needs a file */
	assert_int_equal(parse_cmdline(&cli, &c, &msgs, "static", "--no-ca", NULL), -EINVAL);
	assert_string_equal(msgs, "command line: static needs --conf FILE\n");
	free(msgs);
	conf_free(&c);
	assert_int_equal(parse_cmdline(&cli, &c, &msgs, "static", "--conf", conf_path,
				       "--switches", "S1", "--once", NULL), -EINVAL);
	assert_string_equal(msgs, "command line: unknown option \"--once\" here\n");
	free(msgs);
	conf_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(counts),
		cmocka_unit_test(times),
		cmocka_unit_test(port_lists),
		cmocka_unit_test(defaults_are_the_papers),
		cmocka_unit_test(shipped_profiles),
		cmocka_unit_test(errors_name_file_and_line),
		cmocka_unit_test(whole_config_checks),
		cmocka_unit_test(relative_paths_and_syntax),
		cmocka_unit_test(backend_keys),
		cmocka_unit_test(command_line),
	};

	return run_group("conf", tests, ARRAY_SIZE(tests)) ? 1 : 0;
}
