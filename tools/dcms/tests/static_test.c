// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the static congestion control manager (ccmgr.c,
 * ca_sysfs.c): OpenSM's cc_* options parsed, pushed to switches through a
 * fake backend, and to HCAs through a fake backend that reaches them (as
 * the MAD backend) or else in a fake sysfs tree.
 */
#define _GNU_SOURCE
#include "helpers.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "conf.h"
#include "dcms.h"

/* ---------------------------------------------------------------- a fake backend */

struct fake {
	char calls[2048];
	const char *fail_switch;	/* cc_set_switch fails for it */
	const char *no_agent;		/* cc_set_ca: no CC agent on it */
	const char *refusing;		/* cc_set_ca: refuses the Set */
	bool cas_fail;
};

static void record(struct fake *f, const char *fmt, ...) __printf(2, 3);

static void record(struct fake *f, const char *fmt, ...)
{
	size_t len = strlen(f->calls);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(f->calls + len, sizeof(f->calls) - len, fmt, ap);
	va_end(ap);
}

static int fake_switches(struct backend *b, struct be_name **names, size_t *n)
{
	(void)b;
	*names = calloc(2, sizeof(**names));
	assert_non_null(*names);
	snprintf((*names)[0].s, sizeof((*names)[0].s), "S1");
	snprintf((*names)[1].s, sizeof((*names)[1].s), "S2");
	*n = 2;
	return 0;
}

static int fake_set_switch(struct backend *b, const char *sw, const struct cc_sw_setting *s)
{
	struct fake *f = b->priv;
	char what[512];

	if (f->fail_switch && !strcmp(sw, f->fail_switch)) {
		snprintf(b->msg, sizeof(b->msg), "credit starvation is not supported");
		return -EOPNOTSUPP;
	}
	ccmgr_describe_sw(s, what, sizeof(what));
	record(f, "%s: %s\n", sw, what);
	return 0;
}

/* The netlink backend's shape: switches only, the HCAs by sysfs */
static const struct backend_ops fake_ops = {
	.name = "fake",
	.switches = fake_switches,
	.cc_set_switch = fake_set_switch,
};

/* H2 is one host with two HCA ports; H3 has no CC agent */
static const struct be_ca fabric_cas[] = {
	{ "H1", 9 }, { "H2", 10 }, { "H2", 12 }, { "H3", 11 },
};

static int fake_cas(struct backend *b, struct be_ca **cas, size_t *n)
{
	struct fake *f = b->priv;

	if (f->cas_fail) {
		snprintf(b->msg, sizeof(b->msg), "fabric discovery failed");
		return -EIO;
	}
	*cas = malloc(sizeof(fabric_cas));
	assert_non_null(*cas);
	memcpy(*cas, fabric_cas, sizeof(fabric_cas));
	*n = ARRAY_SIZE(fabric_cas);
	return 0;
}

/* With the messages of backend_mad.c */
static int fake_set_ca(struct backend *b, const struct be_ca *ca, const struct cc_ca_setting *s)
{
	struct fake *f = b->priv;

	if (f->no_agent && !strcmp(ca->name, f->no_agent)) {
		snprintf(b->msg, sizeof(b->msg), "hca %s (LID %u): %s", ca->name, ca->lid,
			 "no congestion control agent (MAD status 0x000c (method and attribute not supported))");
		return -EOPNOTSUPP;
	}
	if (f->refusing && !strcmp(ca->name, f->refusing)) {
		snprintf(b->msg, sizeof(b->msg), "hca %s (LID %u): %s", ca->name, ca->lid,
			 "Set CACongestionSetting: MAD status 0x001c (invalid attribute or modifier)");
		return -EIO;
	}
	b->msg[0] = '\0';
	record(f, "%s/%u: port_control %u control_map 0x%x sl1 %u cct %u\n", ca->name, ca->lid,
	       s->port_control, be_ca_control_map(s), s->sl[1].ccti_timer, s->cct_len);
	return 0;
}

/* The MAD backend's shape */
static const struct backend_ops fake_mad_ops = {
	.name = "fake-mad",
	.switches = fake_switches,
	.cc_set_switch = fake_set_switch,
	.cas = fake_cas,
	.cc_set_ca = fake_set_ca,
};

static void load(struct conf *c, const char *text)
{
	struct conf_diag diag;

	conf_init(c);
	conf_diag_init(&diag);
	if (conf_load_string(c, text, "t.conf", &diag)) {
		conf_diag_print(stderr, &diag);
		fail();
	}
	conf_diag_free(&diag);
}

/* ccmgr_run() with its output captured in out and err (run_end() them) */
static int run(const struct conf *c, const struct ccmgr_opts *opts, struct backend *be,
	       struct capture *out, struct capture *err)
{
	capture_open(out);
	capture_open(err);
	return ccmgr_run(c, opts, be, out->f, err->f);
}

static void run_end(struct capture *out, struct capture *err)
{
	capture_close(out);
	capture_close(err);
}

/* ---------------------------------------------------------------- cases */

#define OPENSM_SW "control_map 0x1f victim_mask 0x800000 credit_mask 0x0 threshold 15 " \
	"packet_size 8 cs_threshold 0 cs_return_delay 0:0 marking_rate 10"

static void opensm_options(void **state)
{
	struct conf_diag diag;
	struct conf c;
	char path[4096], what[512];

	(void)state;
	snprintf(path, sizeof(path), "%s/opensm.conf", FIXTURES);
	conf_init(&c);
	conf_diag_init(&diag);
	assert_int_equal(conf_load(&c, path, &diag), 0);
	assert_true(c.cc_enable);
	assert_int_equal(c.sw.set, CC_SW_CONTROL_MAP | CC_SW_VICTIM_MASK | CC_SW_CREDIT_MASK |
			 CC_SW_THRESHOLD | CC_SW_PACKET_SIZE | CC_SW_CS_THRESHOLD |
			 CC_SW_CS_RETURN_DELAY | CC_SW_MARKING_RATE);
	assert_int_equal(c.sw.control_map, 0x1f);
	/* port 23 is bit 23: byte 31 - 2, bit 7 */
	assert_int_equal(c.sw.victim_mask[29], 0x80);
	assert_int_equal(c.sw.victim_mask[30] | c.sw.victim_mask[31] | c.sw.victim_mask[0], 0);
	assert_int_equal(c.sw.threshold, 15);
	assert_int_equal(c.sw.packet_size, 8);
	assert_int_equal(c.sw.marking_rate, 10);
	ccmgr_describe_sw(&c.sw, what, sizeof(what));
	assert_string_equal(what, OPENSM_SW);
	assert_int_equal(c.ca.set, CC_CA_PORT_CONTROL | CC_CA_CONTROL_MAP | CC_CA_CCT);
	assert_int_equal(c.ca.port_control, 1);
	assert_int_equal(c.ca.control_map, 0xffff);
	assert_int_equal(c.ca.sl[0].set, CC_CA_SL_TIMER | CC_CA_SL_INCREASE | CC_CA_SL_TRIGGER |
			 CC_CA_SL_MIN);
	assert_int_equal(c.ca.sl[0].ccti_timer, 75);
	assert_int_equal(c.ca.sl[0].ccti_increase, 1);
	assert_int_equal(c.ca.sl[3].set, CC_CA_SL_TIMER);
	assert_int_equal(c.ca.sl[3].ccti_timer, 150);
	assert_int_equal(c.ca.sl[1].set, 0);
	assert_int_equal(c.ca.cct_len, 5);
	assert_int_equal(c.ca.cct[3].shift, 1);
	assert_int_equal(c.ca.cct[3].multiplier, 3);
	assert_int_equal(c.ca.cct[4].shift, 3);
	assert_int_equal(c.ca.cct[4].multiplier, 16383);
	conf_diag_free(&diag);
	conf_free(&c);
}

#define ZERO64 "0000000000000000000000000000000000000000000000000000000000000000"
#define MASK_WHY "expected a 256-bit hex mask, bit n = port n (0x800000)"
#define DELAY_WHY "expected SHIFT:MULTIPLIER, 0-3:0-16383"

static const char bad_opensm[] =
	"congestion_control maybe\n"
	"cc_sw_cong_setting_victim_mask 0x1g\n"
	"cc_sw_cong_setting_victim_mask 0x1" ZERO64 "\n"
	"cc_sw_cong_setting_control_map 0x20\n"
	"cc_sw_cong_setting_marking_rate 65536\n"
	"cc_sw_cong_setting_credit_starvation_return_delay 4:0\n"
	"cc_ca_cong_setting_ccti_timer 0\n"
	"cc_ca_cong_setting_ccti_increase 0 256\n"
	"cc_ca_cong_setting_port_control 0x10000\n"
	"cc_cct 0:16384\n"
	"cc_key nonsense\n";

static void opensm_option_errors(void **state)
{
	struct conf_diag diag;
	struct conf c;
	struct capture cap;
	char big[CC_CCT_MAX * 4 + 16];
	size_t i, off = 0;

	(void)state;
	conf_init(&c);
	conf_diag_init(&diag);
	assert_int_equal(conf_load_string(&c, bad_opensm, "t.conf", &diag), -EINVAL);
	capture_open(&cap);
	conf_diag_print(cap.f, &diag);
	assert_lines(capture_text(&cap), "t.conf:", (const char *const []){
		"1: congestion_control \"maybe\": expected TRUE or FALSE",
		"2: cc_sw_cong_setting_victim_mask \"0x1g\": " MASK_WHY,
		"3: cc_sw_cong_setting_victim_mask \"0x1" ZERO64 "\": " MASK_WHY,
		"4: cc_sw_cong_setting_control_map \"0x20\": expected a Control_Map, 0 to 0x1f",
		"5: cc_sw_cong_setting_marking_rate \"65536\": expected a Marking_Rate, 0 to 65535",
		"6: cc_sw_cong_setting_credit_starvation_return_delay \"4:0\": " DELAY_WHY,
		"7: cc_ca_cong_setting_ccti_timer \"0\": expected SL VALUE (SL 0 to 15)",
		"8: cc_ca_cong_setting_ccti_increase \"256\": expected a value 0 to 255 for SL 0",
		"9: cc_ca_cong_setting_port_control \"0x10000\": expected a 16-bit number, 0 to 0xffff",
		"10: cc_cct \"0:16384\": expected SHIFT:MULT[,...] (0-3:0-16383), at most 128",
		"11: cc_key \"nonsense\": expected a 64-bit CC_Key (0x0123456789abcdef)",
		NULL });
	capture_close(&cap);
	conf_diag_free(&diag);
	conf_free(&c);

	/* 128 CCT entries are fine, 129 are not */
	for (i = 0; i < CC_CCT_MAX; i++)
		off += snprintf(big + off, sizeof(big) - off, "%s0:1", i ? "," : "");
	assert_int_equal(conf_parse_cct(big, c.ca.cct, &c.ca.cct_len), 0);
	assert_int_equal(c.ca.cct_len, CC_CCT_MAX);
	snprintf(big + off, sizeof(big) - off, ",0:1");
	assert_int_equal(conf_parse_cct(big, c.ca.cct, &c.ca.cct_len), -EINVAL);
}

static void switches_get_the_settings(void **state)
{
	struct fake f = { .calls = "" };
	struct backend be = { .ops = &fake_ops, .priv = &f };
	struct ccmgr_opts opts = { .no_ca = true };
	struct capture out, err;
	struct conf c;

	(void)state;
	load(&c, "cc_sw_cong_setting_threshold 15\ncc_sw_cong_setting_marking_rate 128\n"
	     "cc_ca_cong_setting_ccti_timer 0 75\n");
	assert_int_equal(run(&c, &opts, &be, &out, &err), 0);
	assert_string_equal(f.calls, "S1: threshold 15 marking_rate 128\n"
			    "S2: threshold 15 marking_rate 128\n");
	assert_string_equal(capture_text(&out), "switch S1: threshold 15 marking_rate 128\n"
			    "switch S2: threshold 15 marking_rate 128\n");
	assert_string_equal(capture_text(&err), "");
	run_end(&out, &err);

	/* one switch refuses: the others are still set, the status says so */
	f.calls[0] = '\0';
	f.fail_switch = "S1";
	opts.switches = "S1,S2";
	assert_int_equal(run(&c, &opts, &be, &out, &err), 1);
	assert_string_equal(f.calls, "S2: threshold 15 marking_rate 128\n");
	assert_string_equal(capture_text(&err),
			    "dcms static: switch S1: Operation not supported: credit starvation is not supported\n");
	run_end(&out, &err);
	conf_free(&c);

	/* congestion_control FALSE: nothing at all */
	load(&c, "congestion_control FALSE\ncc_sw_cong_setting_threshold 15\n");
	f.calls[0] = '\0';
	capture_open(&out);
	assert_int_equal(ccmgr_run(&c, &opts, &be, out.f, stderr), 0);
	assert_string_equal(capture_text(&out), "congestion_control FALSE: nothing applied\n");
	assert_string_equal(f.calls, "");
	capture_close(&out);
	conf_free(&c);
}

static void hcas_without_cc_interface(void **state)
{
	struct ccmgr_opts opts = { 0 };
	struct capture out, err;
	char *root = tmpdir_new();
	struct conf c;

	(void)state;
	opts.sysfs_root = root;
	write_text(root, "class/infiniband/rxe_X/ports/1/state", "4: ACTIVE\n");
	load(&c, "cc_ca_cong_setting_ccti_timer 0 75\n");
	/* CA keys given and no interface: an error */
	assert_int_equal(run(&c, &opts, NULL, &out, &err), 1);
	assert_string_equal(capture_text(&err),
			    "dcms static: HCA congestion control not available on rxe_X\n");
	run_end(&out, &err);
	/* no rdma device at all */
	opts.sysfs_root = "/nonexistent";
	capture_open(&err);
	assert_int_equal(ccmgr_run(&c, &opts, NULL, stdout, err.f), 1);
	assert_string_equal(capture_text(&err),
			    "dcms static: HCA congestion control not available: no rdma device in /nonexistent/class/infiniband\n");
	capture_close(&err);
	/* --no-ca, or no CA key: the HCAs are not looked at */
	opts.no_ca = true;
	assert_int_equal(ccmgr_run(&c, &opts, NULL, stdout, stderr), 0);
	conf_free(&c);
	tmpdir_remove(root);
}

/* DEV's ports/1/cc/ files in a fake sysfs, empty */
static void sysfs_cc_dev(const char *root, const char *dev)
{
	static const char *const files[] = {
		"port_control", "sl_settings", "cct", "enabled",
	};
	char rel[256];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(files); i++) {
		snprintf(rel, sizeof(rel), "class/infiniband/%s/ports/1/cc/%s", dev, files[i]);
		write_text(root, rel, "");
	}
}

static void expect_cc_file(const char *root, const char *dev, const char *file,
			   const char *want)
{
	char rel[256], *s;

	snprintf(rel, sizeof(rel), "class/infiniband/%s/ports/1/cc/%s", dev, file);
	s = read_text(root, rel);
	assert_non_null(s);
	assert_string_equal(s, want);
	free(s);
}

static void hcas_get_the_settings(void **state)
{
	struct ccmgr_opts opts = { 0 };
	struct capture out, err;
	char *root = tmpdir_new();
	struct conf c;

	(void)state;
	opts.sysfs_root = root;
	sysfs_cc_dev(root, "rxe_A");
	sysfs_cc_dev(root, "rxe_B");
	/* SL 5 is not in the control map: not written */
	load(&c, "cc_ca_cong_setting_port_control 1\ncc_ca_cong_setting_control_map 0x3\n"
	     "cc_ca_cong_setting_ccti_timer 1 150\ncc_ca_cong_setting_ccti_min 1 2\n"
	     "cc_ca_cong_setting_ccti_timer 5 7\ncc_cct 0:0,1:5\n");
	assert_int_equal(run(&c, &opts, NULL, &out, &err), 0);
	assert_string_equal(capture_text(&out), "hca rxe_A: CA congestion settings applied\n"
			    "hca rxe_B: CA congestion settings applied\n");
	assert_string_equal(capture_text(&err), "");
	expect_cc_file(root, "rxe_B", "port_control", "1\n");
	expect_cc_file(root, "rxe_B", "sl_settings", "sl=1 ccti_timer=150 ccti_min=2\n");
	expect_cc_file(root, "rxe_A", "cct", "0:0,1:5\n");
	expect_cc_file(root, "rxe_A", "enabled", "1\n");
	run_end(&out, &err);
	/* --ca-devices picks; --dry-run writes nothing */
	opts.ca_devices = "rxe_B";
	opts.dry_run = true;
	capture_open(&out);
	assert_int_equal(ccmgr_run(&c, &opts, NULL, out.f, stderr), 0);
	assert_string_equal(capture_text(&out), "hca rxe_B: would set the CA settings\n");
	capture_close(&out);
	conf_free(&c);
	tmpdir_remove(root);
}

#define CA_KEYS "cc_ca_cong_setting_port_control 1\ncc_ca_cong_setting_control_map 0x3\n" \
	"cc_ca_cong_setting_ccti_timer 1 150\ncc_cct 0:0,1:5\n"
#define NO_AGENT "no congestion control agent (MAD status 0x000c (method and attribute not supported))"
#define REFUSED "Set CACongestionSetting: MAD status 0x001c (invalid attribute or modifier)"

/* By the backend where it reaches the HCAs (MADs), else by sysfs */
static void hcas_by_mads_or_sysfs(void **state)
{
	struct fake f = { .calls = "", .no_agent = "H3" };
	struct backend be = { .ops = &fake_mad_ops, .priv = &f };
	struct ccmgr_opts opts = { 0 };
	struct capture out, err;
	char *root = tmpdir_new();
	struct conf c;

	(void)state;
	opts.sysfs_root = root;
	sysfs_cc_dev(root, "rxe_A");
	load(&c, "cc_sw_cong_setting_threshold 15\n" CA_KEYS);
	/* the switches, then every CA port; H3 without an agent is skipped */
	assert_int_equal(run(&c, &opts, &be, &out, &err), 0);
	assert_string_equal(f.calls, "S1: threshold 15\nS2: threshold 15\n"
			    "H1/9: port_control 1 control_map 0x3 sl1 150 cct 2\n"
			    "H2/10: port_control 1 control_map 0x3 sl1 150 cct 2\n"
			    "H2/12: port_control 1 control_map 0x3 sl1 150 cct 2\n");
	assert_lines(capture_text(&out), "", (const char *const []){
		"switch S1: threshold 15",
		"switch S2: threshold 15",
		"hca H1 (LID 9): CACongestionSetting and 1 CCT block set",
		"hca H2 (LID 10): CACongestionSetting and 1 CCT block set",
		"hca H2 (LID 12): CACongestionSetting and 1 CCT block set",
		NULL });
	assert_string_equal(capture_text(&err),
			    "dcms static: hca H3 (LID 11): " NO_AGENT ", skipped\n");
	run_end(&out, &err);
	/* the MAD path never writes sysfs */
	expect_cc_file(root, "rxe_A", "cct", "");
	expect_cc_file(root, "rxe_A", "enabled", "");

	/* a CA refusing the Set fails the run; the others are still set */
	f.calls[0] = '\0';
	f.refusing = "H2";
	assert_int_equal(run(&c, &opts, &be, &out, &err), 1);
	assert_lines(capture_text(&out), "", (const char *const []){
		"switch S1: threshold 15",
		"switch S2: threshold 15",
		"hca H1 (LID 9): CACongestionSetting and 1 CCT block set",
		NULL });
	assert_lines(capture_text(&err), "dcms static: hca ", (const char *const []){
		"H2 (LID 10): " REFUSED,
		"H2 (LID 12): " REFUSED,
		"H3 (LID 11): " NO_AGENT ", skipped",
		NULL });
	run_end(&out, &err);

	/* netlink's backend has no HCA ops: sysfs, as before */
	be.ops = &fake_ops;
	f.calls[0] = '\0';
	assert_int_equal(run(&c, &opts, &be, &out, &err), 0);
	assert_string_equal(capture_text(&out), "switch S1: threshold 15\nswitch S2: threshold 15\n"
			    "hca rxe_A: CA congestion settings applied\n");
	assert_string_equal(capture_text(&err), "");
	assert_string_equal(f.calls, "S1: threshold 15\nS2: threshold 15\n");
	expect_cc_file(root, "rxe_A", "port_control", "1\n");
	expect_cc_file(root, "rxe_A", "sl_settings", "sl=1 ccti_timer=150\n");
	expect_cc_file(root, "rxe_A", "cct", "0:0,1:5\n");
	expect_cc_file(root, "rxe_A", "enabled", "1\n");
	run_end(&out, &err);
	conf_free(&c);
	tmpdir_remove(root);
}

static void hcas_by_mads_named(void **state)
{
	struct fake f = { .calls = "", .no_agent = "H3" };
	struct backend be = { .ops = &fake_mad_ops, .priv = &f };
	struct ccmgr_opts opts = { 0 };
	struct capture out, err;
	struct conf c;

	(void)state;
	load(&c, CA_KEYS);
	/* a name is a host: both of H2's ports */
	opts.ca_devices = "H2";
	capture_open(&out);
	assert_int_equal(ccmgr_run(&c, &opts, &be, out.f, stderr), 0);
	assert_lines(capture_text(&out), "hca H2 (LID ", (const char *const []){
		"10): CACongestionSetting and 1 CCT block set",
		"12): CACongestionSetting and 1 CCT block set",
		NULL });
	capture_close(&out);
	/* asked for by name, no agent is an error; so is a name not found */
	f.calls[0] = '\0';
	opts.ca_devices = "H3,H9,H1";
	assert_int_equal(run(&c, &opts, &be, &out, &err), 1);
	assert_string_equal(capture_text(&out),
			    "hca H1 (LID 9): CACongestionSetting and 1 CCT block set\n");
	assert_lines(capture_text(&err), "dcms static: hca ", (const char *const []){
		"H3 (LID 11): " NO_AGENT,
		"H9: not in the fabric discovery",
		NULL });
	assert_string_equal(f.calls, "H1/9: port_control 1 control_map 0x3 sl1 150 cct 2\n");
	run_end(&out, &err);
	/* a bad list */
	opts.ca_devices = "H1,,H2";
	capture_open(&err);
	assert_int_equal(ccmgr_run(&c, &opts, &be, stdout, err.f), 1);
	assert_string_equal(capture_text(&err),
			    "dcms static: bad --ca-devices list: Invalid argument\n");
	capture_close(&err);
	/* --no-ca: not even listed */
	f.cas_fail = true;
	opts.no_ca = true;
	assert_int_equal(ccmgr_run(&c, &opts, &be, stdout, stderr), 0);
	/* the CAs cannot be listed */
	opts.no_ca = false;
	opts.ca_devices = NULL;
	capture_open(&err);
	assert_int_equal(ccmgr_run(&c, &opts, &be, stdout, err.f), 1);
	assert_string_equal(capture_text(&err),
			    "dcms static: cannot list the HCAs: Input/output error: fabric discovery failed\n");
	capture_close(&err);
	conf_free(&c);
}

static void hcas_by_mads_dry_run(void **state)
{
	struct fake f = { .calls = "", .no_agent = "H3" };
	struct backend be = { .ops = &fake_mad_ops, .priv = &f };
	struct ccmgr_opts opts = { .dry_run = true };
	struct capture out;
	struct conf c;
	char big[CC_CCT_MAX * 4 + 64];
	size_t i, off;

	(void)state;
	/* no Control_Map given: the SLs given; 128 entries are 2 blocks */
	off = snprintf(big, sizeof(big), "cc_ca_cong_setting_ccti_timer 4 10\ncc_cct ");
	for (i = 0; i < CC_CCT_MAX; i++)
		off += snprintf(big + off, sizeof(big) - off, "%s0:1", i ? "," : "");
	load(&c, big);
	opts.ca_devices = "H1,H3";
	capture_open(&out);
	assert_int_equal(ccmgr_run(&c, &opts, &be, out.f, stderr), 0);
	assert_lines(capture_text(&out), "hca H", (const char *const []){
		"1 (LID 9): would set CACongestionSetting (Port_Control 0x0, Control_Map 0x0010) and 2 CCT blocks",
		"3 (LID 11): would set CACongestionSetting (Port_Control 0x0, Control_Map 0x0010) and 2 CCT blocks",
		NULL });
	assert_string_equal(f.calls, "");
	capture_close(&out);
	conf_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(opensm_options),
		cmocka_unit_test(opensm_option_errors),
		cmocka_unit_test(switches_get_the_settings),
		cmocka_unit_test(hcas_without_cc_interface),
		cmocka_unit_test(hcas_get_the_settings),
		cmocka_unit_test(hcas_by_mads_or_sysfs),
		cmocka_unit_test(hcas_by_mads_named),
		cmocka_unit_test(hcas_by_mads_dry_run),
	};

	return run_group("static", tests, ARRAY_SIZE(tests)) ? 1 : 0;
}
