// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of ibsw-ccmad's wire, text and JSON forms (ccmad.c): the
 * header, each attribute at its offsets, the command line's values.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ccmad.h"

/* What a printer wrote */
static char *printed(void (*print)(FILE *f, const void *arg, bool json),
		     const void *arg, bool json)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	print(f, arg, json);
	fclose(f);
	return buf;
}

static void header(void **state)
{
	struct ccmad_hdr h = {
		.class_version = 2, .method = CCMAD_SET, .status = 0x1c,
		.tid = 0x0102030405060708ULL, .attr = CC_ATTR_CCT, .mod = 3,
		.cc_key = 0xa1a2a3a4a5a6a7a8ULL,
	}, r;
	static const uint8_t want[32] = {
		1, 0x21, 2, 2, 0, 0x1c, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8,
		0, 0x17, 0, 0, 0, 0, 0, 3,
		0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8,
	};
	uint8_t mad[CCMAD_SIZE];
	int i;

	(void)state;
	memset(mad, 0xee, sizeof(mad));
	ccmad_encode_hdr(mad, &h);
	assert_memory_equal(mad, want, sizeof(want));
	for (i = 32; i < CCMAD_SIZE; i++)
		assert_int_equal(mad[i], 0);
	ccmad_decode_hdr(mad, &r);
	assert_int_equal(r.class_version, 2);
	assert_int_equal(r.method, CCMAD_SET);
	assert_int_equal(r.status, 0x1c);
	assert_true(r.tid == h.tid);
	assert_int_equal(r.attr, CC_ATTR_CCT);
	assert_int_equal(r.mod, 3);
	assert_true(r.cc_key == h.cc_key);
	assert_string_equal(ccmad_status_text(4), "bad base or class version");
	assert_string_equal(ccmad_status_text(0x0c),
			    "method/attribute combination not supported");
}

static void attributes(void **state)
{
	(void)state;
	assert_int_equal(ccmad_attr_find("ca")->id, 0x16);
	assert_int_equal(ccmad_attr_find("CACongestionSetting")->id, 0x16);
	assert_int_equal(ccmad_attr_find("cct")->id, 0x17);
	assert_int_equal(ccmad_attr_find("log")->id, 0x13);
	assert_int_equal(ccmad_attr_find("0x0014")->id, 0x14);
	assert_int_equal(ccmad_attr_find("21")->id, 21);
	assert_null(ccmad_attr_find("bogus"));
	assert_null(ccmad_attr_find("0x10000"));
	assert_string_equal(ccmad_attr_by_id(0x12)->title, "CongestionKeyInfo");
	assert_null(ccmad_attr_by_id(0x14));
}

static void ca_setting(void **state)
{
	uint8_t mad[CCMAD_SIZE] = { 0 };
	uint8_t *d = mad + CCMAD_DATA_OFFS;
	struct cc_ca_setting s, r;
	int i;

	(void)state;
	/* compared as bytes: no padding left undefined */
	memset(&s, 0, sizeof(s));
	memset(&r, 0xee, sizeof(r));
	s.port_control = 1;
	s.control_map = 0x8001;
	s.sl[0].ccti_timer = 0x1234;
	s.sl[0].ccti_increase = 5;
	s.sl[0].trigger_threshold = 6;
	s.sl[0].ccti_min = 7;
	s.sl[15].ccti_timer = 0xffff;
	s.sl[15].ccti_increase = 255;
	s.sl[15].trigger_threshold = 254;
	s.sl[15].ccti_min = 253;
	cc_encode_ca_setting(mad, &s);
	assert_int_equal(d[0], 0);
	assert_int_equal(d[1], 1);
	assert_int_equal(d[2], 0x80);
	assert_int_equal(d[3], 0x01);
	assert_int_equal(d[4], 0x12);
	assert_int_equal(d[5], 0x34);
	assert_int_equal(d[6], 5);
	assert_int_equal(d[7], 6);
	assert_int_equal(d[8], 7);
	assert_int_equal(d[4 + 8 * 15], 0xff);
	assert_int_equal(d[4 + 8 * 15 + 4], 253);
	cc_decode_ca_setting(mad, &r);
	assert_int_equal(r.port_control, 1);
	assert_int_equal(r.control_map, 0x8001);
	for (i = 0; i < CC_NUM_SL; i++) {
		assert_int_equal(r.sl[i].ccti_timer, s.sl[i].ccti_timer);
		assert_int_equal(r.sl[i].ccti_increase, s.sl[i].ccti_increase);
		assert_int_equal(r.sl[i].trigger_threshold,
				 s.sl[i].trigger_threshold);
		assert_int_equal(r.sl[i].ccti_min, s.sl[i].ccti_min);
	}
}

static void ca_setting_args(void **state)
{
	static const char *const ok[] = { "sl=1,3-4", "ccti_timer=150", "ccti_min=2",
		       "port_control=1" };
	static const char *const no_sl[] = { "ccti_timer=1" };
	static const char *const bad[] = { "sl=16" };
	static const char *const big[] = { "sl=all", "ccti_increase=256" };
	static const char *const word[] = { "sl=all", "timer=1" };
	struct cc_ca_setting s;
	char err[128];
	int i;

	(void)state;
	memset(&s, 0, sizeof(s));
	for (i = 0; i < CC_NUM_SL; i++)
		s.sl[i].ccti_increase = 9;
	assert_int_equal(cc_ca_setting_args(&s, 4, ok, err, sizeof(err)), 0);
	assert_int_equal(s.control_map, 0x001a);
	assert_int_equal(s.port_control, 1);
	for (i = 0; i < CC_NUM_SL; i++) {
		bool in = i == 1 || i == 3 || i == 4;

		assert_int_equal(s.sl[i].ccti_timer, in ? 150 : 0);
		assert_int_equal(s.sl[i].ccti_min, in ? 2 : 0);
		assert_int_equal(s.sl[i].ccti_increase, 9);
	}
	assert_int_equal(cc_ca_setting_args(&s, 1, no_sl, err, sizeof(err)), -1);
	assert_string_equal(err, "entry fields need sl=LIST|all");
	assert_int_equal(cc_ca_setting_args(&s, 1, bad, err, sizeof(err)), -1);
	assert_int_equal(cc_ca_setting_args(&s, 2, big, err, sizeof(err)), -1);
	assert_string_equal(err, "bad argument \"ccti_increase=256\"");
	assert_int_equal(cc_ca_setting_args(&s, 2, word, err, sizeof(err)), -1);
	/* Port_Control alone: no SL changes */
	assert_int_equal(cc_ca_setting_args(&s, 1, ok + 3, err, sizeof(err)), 0);
	assert_int_equal(s.control_map, 0);
}

/* set key's words: a new key is protected, with a lease that never runs out */
static void key_info_args(void **state)
{
	static const char *const new_key[] = { "key=0x1234" };
	static const char *const open_key[] = { "key=0x1234", "protect=0", "lease=30" };
	static const char *const clear[] = { "key=0", "violations=0" };
	static const char *const only_protect[] = { "protect=1" };
	static const char *const bad[] = { "protect=2" };
	const struct cc_key_info port = { 0x99, false, 60, 7 };
	struct cc_key_info k;
	char err[128];

	(void)state;
	k = port;
	assert_int_equal(cc_key_info_args(&k, 1, new_key, err, sizeof(err)), 0);
	assert_true(k.key == 0x1234 && k.protect && k.lease_period == 0 && k.violations == 1);
	k = port;
	assert_int_equal(cc_key_info_args(&k, 3, open_key, err, sizeof(err)), 0);
	assert_true(k.key == 0x1234 && !k.protect && k.lease_period == 30);
	/* key 0 protects nothing: the rest as read */
	k = port;
	assert_int_equal(cc_key_info_args(&k, 2, clear, err, sizeof(err)), 0);
	assert_true(k.key == 0 && !k.protect && k.lease_period == 60 && k.violations == 0);
	/* no key=: a read-modify-write of what is named */
	k = port;
	assert_int_equal(cc_key_info_args(&k, 1, only_protect, err, sizeof(err)), 0);
	assert_true(k.key == 0x99 && k.protect && k.lease_period == 60);
	assert_int_equal(cc_key_info_args(&k, 1, bad, err, sizeof(err)), -1);
	assert_string_equal(err, "bad argument \"protect=2\"");
}

static void cct_block(void **state)
{
	struct cc_cct_block b = { .ccti_limit = 127 }, r;
	uint8_t mad[CCMAD_SIZE] = { 0 };
	uint8_t *d = mad + CCMAD_DATA_OFFS;
	uint16_t e;
	int j;

	(void)state;
	for (j = 0; j < CC_CCT_BLOCK; j++)
		b.entry[j] = (uint16_t)((j & 3) << 14 | j * 200);
	cc_encode_cct_block(mad, &b);
	assert_int_equal(d[0] << 8 | d[1], 127);
	assert_int_equal(d[2] | d[3], 0);
	assert_int_equal(d[4 + 2 * 63] << 8 | d[5 + 2 * 63], 3 << 14 | 63 * 200);
	assert_int_equal(d[4 + 2 * 64] | d[5 + 2 * 64], 0);
	cc_decode_cct_block(mad, &r);
	assert_memory_equal(&r, &b, sizeof(b));

	assert_int_equal(cc_parse_entry("0:0", &e), 0);
	assert_int_equal(e, 0);
	assert_int_equal(cc_parse_entry("3:16383", &e), 0);
	assert_int_equal(e, 0xffff);
	assert_int_equal(cc_parse_entry("1:7", &e), 0);
	assert_int_equal(e, 0x4007);
	assert_int_equal(cc_parse_entry("4:1", &e), -1);
	assert_int_equal(cc_parse_entry("0:16384", &e), -1);
	assert_int_equal(cc_parse_entry("0", &e), -1);
	assert_int_equal(cc_parse_entry("0:-1", &e), -1);
	assert_int_equal(cc_parse_entry(":1", &e), -1);
}

static void key_info(void **state)
{
	struct cc_key_info k = { 0x0123456789abcdefULL, true, 30, 7 }, r;
	uint8_t mad[CCMAD_SIZE] = { 0 };
	const uint8_t *d = mad + CCMAD_DATA_OFFS;
	static const uint8_t want[14] = {
		0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
		0x80, 0, 0, 30, 0, 7,
	};

	(void)state;
	cc_encode_key_info(mad, &k);
	assert_memory_equal(d, want, sizeof(want));
	cc_decode_key_info(mad, &r);
	assert_true(r.key == k.key);
	assert_true(r.protect);
	assert_int_equal(r.lease_period, 30);
	assert_int_equal(r.violations, 7);
}

static void print_log(FILE *f, const void *arg, bool json)
{
	cc_print_log(f, arg, json);
}

static const char log_text[] =
	"log_type=2 event_counter=2 sl_map=0x8000 timestamp=99\n"
	"qp=17 remote_qp=34 sl=15 service_type=3 timestamp=5\n"
	"qp=65536 remote_qp=0 sl=1 service_type=0 timestamp=0\n";
static const char *const log_json[] = {
	"{\"log_type\":2,\"event_counter\":2,\"sl_map\":32768,\"timestamp\":99,\"events\":[",
	"{\"qp\":17,\"remote_qp\":34,\"sl\":15,\"service_type\":3,\"timestamp\":5},",
	"{\"qp\":65536,\"remote_qp\":0,\"sl\":1,\"service_type\":0,\"timestamp\":0}]}\n",
};

static void congestion_log(void **state)
{
	uint8_t mad[CCMAD_SIZE] = { 0 };
	uint8_t *d = mad + CCMAD_LOG_OFFS;
	struct cc_log log;
	char *text, *want;

	(void)state;
	d[0] = 2;
	d[3] = 2;		/* two events */
	d[4] = 0x80;		/* SL 15 */
	d[11] = 99;		/* now */
	/* event 0: QP 0x11, remote 0x22, SL 15, UD, at 5 */
	d[12 + 2] = 0x11;
	d[12 + 6] = 0x22;
	d[12 + 7] = 0xf3;
	d[12 + 15] = 5;
	d[28 + 0] = 0x01;	/* QP 0x10000 */
	d[28 + 7] = 0x10;
	cc_decode_log(mad, &log);
	assert_int_equal(log.n, 2);
	text = printed(print_log, &log, false);
	assert_string_equal(text, log_text);
	free(text);
	text = printed(print_log, &log, true);
	assert_true(asprintf(&want, "%s%s%s", log_json[0], log_json[1], log_json[2]) > 0);
	assert_string_equal(text, want);
	free(want);
	free(text);

	/* more events than a MAD carries: 13 listed */
	d[2] = 1;
	cc_decode_log(mad, &log);
	assert_int_equal(log.event_counter, 258);
	assert_int_equal(log.n, CC_LOG_EVENTS);
}

static void print_ca(FILE *f, const void *arg, bool json)
{
	cc_print_ca_setting(f, arg, json);
}

struct cct_print {
	const uint16_t *cct;
	unsigned int n;
	uint16_t limit;
};

static void print_cct(FILE *f, const void *arg, bool json)
{
	const struct cct_print *p = arg;

	cc_print_cct(f, p->cct, p->n, p->limit, json);
}

static const char ca_text[] =
	"port_control=1 control_map=0xffff\n"
	"sl=0 ccti_timer=0 ccti_increase=0 trigger_threshold=0 ccti_min=0\n"
	"sl=1 ccti_timer=150 ccti_increase=2 trigger_threshold=0 ccti_min=0\n";
static const char ca_json_head[] =
	"{\"port_control\":1,\"control_map\":65535,\"sl\":[{\"sl\":0,\"ccti_timer\":0,";
static const char ca_json_tail[] =
	"\"ccti_timer\":0,\"ccti_increase\":0,\"trigger_threshold\":0,\"ccti_min\":0}]}\n";
static const char cct_json[] =
	"{\"ccti_limit\":3,\"entries\":[\"0:0\",\"0:5\",\"1:7\",\"3:16383\"]}\n";

static const char *const status_text[] = {
	"status=0x001c (invalid attribute field or modifier value) ",
	"attribute=CongestionControlTable modifier=9\n",
};

static const char *const status_json[] = {
	"{\"status\":28,\"status_text\":\"invalid attribute field or modifier value\",",
	"\"attribute\":23,\"modifier\":9}\n",
};

/* The text forms are the sysfs files' (ports/1/cc/sl_settings, cct) */
static void text_forms(void **state)
{
	static const uint16_t cct[] = { 0, 5, 0x4007, 0xffff };
	struct cct_print p = { cct, 4, 3 };
	struct cc_ca_setting s = { .port_control = 1, .control_map = 0xffff };
	char *text, *line2;

	(void)state;
	s.sl[1] = (struct cc_sl_setting){ 150, 2, 0, 0 };
	text = printed(print_ca, &s, false);
	assert_non_null(strstr(text, ca_text));
	line2 = strstr(text, "sl=15 ");
	assert_non_null(line2);
	free(text);
	text = printed(print_ca, &s, true);
	assert_non_null(strstr(text, ca_json_head));
	assert_non_null(strstr(text, ca_json_tail));
	free(text);

	text = printed(print_cct, &p, false);
	assert_string_equal(text, "ccti_limit=3\n0:0 0:5 1:7 3:16383\n");
	free(text);
	text = printed(print_cct, &p, true);
	assert_string_equal(text, cct_json);
	free(text);
}

static void print_status(FILE *f, const void *arg, bool json)
{
	cc_print_status(f, arg, json);
}

static void status_forms(void **state)
{
	struct ccmad_hdr h = { .status = 0x1c, .attr = CC_ATTR_CCT, .mod = 9 };
	char *text, *want;

	(void)state;
	text = printed(print_status, &h, false);
	assert_true(asprintf(&want, "%s%s", status_text[0], status_text[1]) > 0);
	assert_string_equal(text, want);
	free(want);
	free(text);
	text = printed(print_status, &h, true);
	assert_true(asprintf(&want, "%s%s", status_json[0], status_json[1]) > 0);
	assert_string_equal(text, want);
	free(want);
	free(text);
	h.attr = 0x14;
	h.status = 0x0c;
	text = printed(print_status, &h, false);
	assert_non_null(strstr(text, "not supported) attribute=0x0014 modifier=9\n"));
	free(text);
}

static void values(void **state)
{
	uint8_t gid[16];
	uint64_t v;
	uint16_t map;

	(void)state;
	assert_int_equal(cc_parse_gid("10.0.0.5", gid), 0);
	assert_true(cc_gid_is_v4(gid));
	assert_int_equal(gid[15], 5);
	assert_int_equal(cc_parse_gid("::ffff:10.0.0.5", gid), 0);
	assert_true(cc_gid_is_v4(gid));
	assert_int_equal(cc_parse_gid("fe80::1", gid), 0);
	assert_false(cc_gid_is_v4(gid));
	assert_int_equal(cc_parse_gid("10.0.0", gid), -1);

	assert_int_equal(cc_parse_sl_list("all", &map), 0);
	assert_int_equal(map, 0xffff);
	assert_int_equal(cc_parse_sl_list("0,15", &map), 0);
	assert_int_equal(map, 0x8001);
	assert_int_equal(cc_parse_sl_list("2-4", &map), 0);
	assert_int_equal(map, 0x001c);
	assert_int_equal(cc_parse_sl_list("4-2", &map), -1);
	assert_int_equal(cc_parse_sl_list("", &map), -1);
	assert_int_equal(cc_parse_sl_list("x", &map), -1);

	assert_int_equal(cc_parse_u64("0xffffffffffffffff", UINT64_MAX, &v), 0);
	assert_true(v == UINT64_MAX);
	assert_int_equal(cc_parse_u64("256", 255, &v), -1);
	assert_int_equal(cc_parse_u64("-1", UINT64_MAX, &v), -1);
	assert_int_equal(cc_parse_u64("", 1, &v), -1);
	assert_int_equal(cc_parse_u64("1x", 9, &v), -1);
}

/*
 * The strings of the JSON forms need no escapes (the writer escapes, the
 * printers never did): the status texts, as the hex and SHIFT:MULT ones
 */
static void json_strings_plain(void **state)
{
	const char *p;
	unsigned int status;

	(void)state;
	for (status = 0; status <= 0xffff; status++)
		for (p = ccmad_status_text(status); *p; p++)
			if (*p == '"' || *p == '\\' || (unsigned char)*p < 0x20)
				fail_msg("status 0x%04x: \"%s\"", status,
					 ccmad_status_text(status));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(header),
		cmocka_unit_test(attributes),
		cmocka_unit_test(ca_setting),
		cmocka_unit_test(ca_setting_args),
		cmocka_unit_test(key_info_args),
		cmocka_unit_test(cct_block),
		cmocka_unit_test(key_info),
		cmocka_unit_test(congestion_log),
		cmocka_unit_test(text_forms),
		cmocka_unit_test(status_forms),
		cmocka_unit_test(values),
		cmocka_unit_test(json_strings_plain),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests_name("ccmad", tests, NULL, NULL);
}
